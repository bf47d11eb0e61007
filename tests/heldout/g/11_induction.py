"""Held-out answers for exercises/11_induction.ipynb (set g), written from the exercise texts alone."""

WRONG = [
    # ------------------------------------------------------------------ ex5 my_prefix_matching_score
    dict(exercise="ex5", kind="includes j = i",
         mistake="lets the key run up to j = i (j ≤ i), so a query right after a repeat of its own token (ids[i − 1] == ids[i]) counts its weight on itself",
         names=["j < i", "strictly", "j = i", "diagonal", "itself", "earlier"],
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(1, i + 1) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(sum(weights[i, j] for j in keys))
    return float(np.mean(scores)) if scores else 0.0
'''),
    dict(exercise="ex5", kind="j from 0 wraps to ids[-1]",
         mistake="starts the keys at j = 0, where ids[j − 1] is ids[−1], the last token of the sequence, so key 0 counts whenever the sequence ends with the query's token",
         names=["1 ≤ j", "j >= 1", "j = 0", "ids[-1]", "wrap", "first key"],
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(i) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(weights[i, keys].sum())
    return float(np.mean(scores)) if scores else 0.0
'''),
    dict(exercise="ex5", kind="duplicate-token keys",
         mistake="uses the keys j with ids[j] == ids[i] (the earlier occurrences themselves, a duplicate-token score) instead of the tokens right after them, ids[j − 1] == ids[i]",
         names=["ids[j - 1]", "ids[j − 1]", "right after", "next token", "duplicate", "occurrence"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    same = ids[None, :] == ids[:, None]
    mask = same & np.tri(T, T, -1, dtype=bool)
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * mask).sum(axis=1)[has].mean())
'''),
    dict(exercise="ex5", kind="shifted the wrong way",
         mistake="compares ids[j + 1] with ids[i] (the token before an earlier occurrence) instead of ids[j − 1], shifting the sequence the wrong way",
         names=["ids[j - 1]", "ids[j − 1]", "right after", "shift", "off by one", "off-by-one"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    nxt = np.roll(ids, -1)
    mask = (nxt[None, :] == ids[:, None]) & np.tri(T, T, -1, dtype=bool)
    mask[:, -1] = False
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * mask).sum(axis=1)[has].mean())
'''),
    dict(exercise="ex5", kind="mean over every query",
         mistake="averages over all T queries (dividing by T) instead of only over the queries that have at least one matching key",
         names=["at least one", "queries that have", "mean over", "divide by t", "all queries"],
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    total = 0.0
    for i in range(T):
        for j in range(1, i):
            if ids[j - 1] == ids[i]:
                total += weights[i, j]
    return float(total / T)
'''),
    dict(exercise="ex5", kind="NaN when no query qualifies",
         mistake="takes np.mean of an empty list when no query has a matching key, returning NaN instead of 0.0",
         names=["0.0", "nan", "no query", "empty", "none"],
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(weights[i, keys].sum())
    return float(np.mean(scores))
'''),
    dict(exercise="ex5", kind="mean over matching entries",
         mistake="averages the individual matching weights weights[i, j] instead of first summing each query's weight over its matching keys",
         names=["total weight", "sum", "per query", "each query", "mean over the queries"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= np.tri(T, T, -1, dtype=bool)
    if not mask.any():
        return 0.0
    return float(weights[mask].mean())
'''),
    dict(exercise="ex5", kind="sums over the queries axis",
         mistake="sums the masked weights over axis=0 (what each key receives) instead of axis=1 (what each query gives)",
         names=["axis=1", "axis", "row", "query i", "over the keys"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= np.tri(T, T, -1, dtype=bool)
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    per = (weights * mask).sum(axis=0)
    return float(per[has].mean())
'''),
    dict(exercise="ex5", kind="max instead of total",
         mistake="takes each query's largest weight on a matching key instead of the total weight over all of them",
         names=["total", "sum", "max", "all such keys"],
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(max(weights[i, j] for j in keys))
    return float(np.mean(scores)) if scores else 0.0
'''),
    dict(exercise="ex5", kind="drops queries with zero weight",
         mistake="averages only the queries whose prefix-matching weight is positive, instead of every query that has a matching key (even with zero weight on it)",
         names=["at least one", "zero", "has a key", "queries that have", "> 0"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= np.tri(T, T, -1, dtype=bool)
    per = (weights * mask).sum(axis=1)
    per = per[per > 0]
    return float(per.mean()) if len(per) else 0.0
'''),
    dict(exercise="ex5", kind="returns a tensor",
         mistake="computes with torch and returns a 0-d tensor instead of a Python float",
         names=["float", "python float", "tensor", ".item()", "type"],
         code='''def my_prefix_matching_score(weights, ids):
    w = torch.as_tensor(weights)
    ids = torch.as_tensor(ids)
    T = len(ids)
    mask = torch.zeros(T, T, dtype=torch.bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= torch.ones(T, T, dtype=torch.bool).tril(-1)
    has = mask.any(dim=1)
    if not has.any():
        return torch.tensor(0.0)
    return (w * mask).sum(dim=1)[has].mean()
'''),
    dict(exercise="ex5", kind="keys stop at i − 2",
         mistake="lets j run only to i − 2 (range(1, i − 1)), dropping the key j = i − 1, whose previous token ids[i − 2] can match",
         names=["j < i", "i - 1", "off by one", "off-by-one", "range"],
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(1, i - 1) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(float(np.sum(weights[i, keys])))
    return sum(scores) / len(scores) if scores else 0.0
'''),
    dict(exercise="ex5", kind="upper triangle",
         mistake="masks with np.triu (keys after the query, j > i) instead of the earlier keys j < i, so on a causal pattern every weight is zero",
         names=["j < i", "earlier", "tril", "triu", "causal", "future"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= np.triu(np.ones((T, T), dtype=bool), 1)
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * mask).sum(axis=1)[has].mean())
'''),
    dict(exercise="ex5", kind="masks weights in place",
         mistake="zeroes the non-matching entries of weights in place, changing the caller's attention pattern",
         names=["in place", "changed", "modif", "mutat", "copy", "weights"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= np.tri(T, T, -1, dtype=bool)
    weights[~mask] = 0.0
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    return float(weights.sum(axis=1)[has].mean())
'''),

    # ------------------------------------------------------------------ ex6 my_mean_ablate
    dict(exercise="ex6", kind="zero ablation",
         mistake="replaces the head's output with zeros (zero ablation) instead of the reference batch's mean",
         names=["mean", "zero", "reference", "zeros_like"],
         code='''def my_mean_ablate(head_out, reference):
    return torch.zeros_like(head_out)
'''),
    dict(exercise="ex6", kind="mean over batch and positions",
         mistake="averages the reference over the batch and the positions (dims 0 and 1), so every position gets the same vector instead of its own position's mean",
         names=["position t", "per position", "dim=0", "each position", "positions"],
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=(0, 1))
    return mean.expand_as(head_out).clone()
'''),
    dict(exercise="ex6", kind="mean of head_out",
         mistake="takes the mean of head_out (the batch being ablated) instead of the reference batch",
         names=["reference", "reference batch", "head_out", "wrong tensor"],
         code='''def my_mean_ablate(head_out, reference):
    return head_out.mean(dim=0, keepdim=True).expand_as(head_out).clone()
'''),
    dict(exercise="ex6", kind="writes into head_out",
         mistake="assigns the mean into head_out in place and returns it, so the caller's tensor is changed",
         names=["in place", "changed", "modif", "mutat", "clone", "new tensor"],
         code='''def my_mean_ablate(head_out, reference):
    head_out[:] = reference.mean(dim=0)
    return head_out
'''),
    dict(exercise="ex6", kind="returns (T, d)",
         mistake="returns the (T, d) per-position mean itself instead of broadcasting it to head_out's shape (B, T, d)",
         names=["shape", "(b, t, d)", "shaped like head_out", "broadcast", "expand"],
         code='''def my_mean_ablate(head_out, reference):
    return reference.mean(dim=0)
'''),
    dict(exercise="ex6", kind="keepdim (1, T, d)",
         mistake="returns the mean with keepdim, shape (1, T, d), instead of one copy per sequence, (B, T, d)",
         names=["shape", "(b, t, d)", "shaped like head_out", "expand", "every sequence"],
         code='''def my_mean_ablate(head_out, reference):
    return reference.mean(dim=0, keepdim=True).clone()
'''),
    dict(exercise="ex6", kind="divides by B, not B_ref",
         mistake="divides the reference's sum by head_out's batch size B instead of the reference's B_ref",
         names=["b_ref", "mean", "batch size", "divide", "reference.shape[0]"],
         code='''def my_mean_ablate(head_out, reference):
    B = head_out.shape[0]
    mean = reference.sum(dim=0) / B
    return mean.unsqueeze(0).repeat(B, 1, 1)
'''),
    dict(exercise="ex6", kind="first reference sequence",
         mistake="uses the first reference sequence, reference[0], instead of the mean over the reference batch",
         names=["mean", "reference batch", "average", "reference[0]"],
         code='''def my_mean_ablate(head_out, reference):
    return reference[0].unsqueeze(0).expand_as(head_out).clone()
'''),
    dict(exercise="ex6", kind="mean over positions",
         mistake="averages each reference sequence over its positions (dim=1) instead of over the batch (dim=0), which only runs when B_ref == B and gives each sequence one vector for all positions",
         names=["dim=0", "over the batch", "position t", "per position", "axis"],
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=1, keepdim=True)
    return mean.expand_as(head_out).clone()
'''),
    dict(exercise="ex6", kind="subtracts the mean",
         mistake="subtracts the reference mean from head_out (centring) instead of replacing the output with it",
         names=["replace", "replaced", "subtract", "mean"],
         code='''def my_mean_ablate(head_out, reference):
    return head_out - reference.mean(dim=0, keepdim=True)
'''),
    dict(exercise="ex6", kind="repeat flattens the batch",
         mistake="repeats the (T, d) mean with repeat(B, 1), giving a (B·T, d) tensor instead of (B, T, d)",
         names=["shape", "(b, t, d)", "shaped like head_out", "repeat"],
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=0)
    return mean.repeat(head_out.shape[0], 1)
'''),
    dict(exercise="ex6", kind="returns NumPy",
         mistake="computes the mean with NumPy and returns a NumPy array instead of a torch tensor",
         names=["tensor", "torch", "numpy", "type"],
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.detach().numpy().mean(axis=0)
    return np.broadcast_to(mean, tuple(head_out.shape)).copy()
'''),
    dict(exercise="ex6", kind="mean over batch and features",
         mistake="averages the reference over the batch and the feature axis d (dims 0 and 2), so each position gets one scalar repeated over d instead of its mean vector",
         names=["dim=0", "feature", "d", "mean output", "vector", "axis"],
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=(0, 2), keepdim=True)
    return mean.expand_as(head_out).clone()
'''),
]

VALID = [
    # ex5
    dict(exercise="ex5", kind="double loop",
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    total, count = 0.0, 0
    for i in range(T):
        has_key = False
        s = 0.0
        for j in range(1, i):
            if ids[j - 1] == ids[i]:
                has_key = True
                s += float(weights[i][j])
        if has_key:
            total += s
            count += 1
    return total / count if count else 0.0
'''),
    dict(exercise="ex5", kind="broadcast mask",
         code='''def my_prefix_matching_score(weights, ids):
    w = np.asarray(weights, dtype=float)
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[:, None] == ids[None, :-1]
    mask &= np.tril(np.ones((T, T), dtype=bool), k=-1)
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    return float(np.where(mask, w, 0.0).sum(axis=1)[has].mean())
'''),
    dict(exercise="ex5", kind="earlier occurrences, then next keys",
         code='''def my_prefix_matching_score(weights, ids):
    ids = list(np.asarray(ids).tolist())
    per_query = []
    for i, tok in enumerate(ids):
        keys = [p + 1 for p in range(i - 1) if ids[p] == tok]
        if keys:
            per_query.append(float(np.asarray(weights)[i, keys].sum()))
    if not per_query:
        return 0.0
    return float(sum(per_query) / len(per_query))
'''),
    dict(exercise="ex5", kind="torch",
         code='''def my_prefix_matching_score(weights, ids):
    w = torch.as_tensor(np.asarray(weights), dtype=torch.float64)
    t = torch.as_tensor(np.asarray(ids))
    T = t.shape[0]
    i = torch.arange(T)[:, None]
    j = torch.arange(T)[None, :]
    prev = t[(j - 1).clamp(min=0)]
    mask = (j >= 1) & (j < i) & (prev == t[:, None])
    has = mask.any(dim=1)
    if not bool(has.any()):
        return 0.0
    return (w * mask).sum(dim=1)[has].mean().item()
'''),
    dict(exercise="ex5", kind="einsum with counts",
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = ids.shape[0]
    J, I = np.meshgrid(np.arange(T), np.arange(T))
    match = np.zeros((T, T))
    if T > 1:
        match[:, 1:] = (ids[:-1][None, :] == ids[:, None])
    match = match * (J < I) * (J >= 1)
    n_keys = match.sum(axis=1)
    per = np.einsum("ij,ij->i", np.asarray(weights, dtype=float), match)
    q = n_keys > 0
    return float(per[q].sum() / q.sum()) if q.sum() > 0 else 0.0
'''),
    # ex6
    dict(exercise="ex6", kind="expand and clone",
         code='''def my_mean_ablate(head_out, reference):
    return reference.mean(dim=0, keepdim=True).expand_as(head_out).clone()
'''),
    dict(exercise="ex6", kind="zeros plus mean",
         code='''def my_mean_ablate(head_out, reference):
    return torch.zeros_like(head_out) + reference.mean(0)
'''),
    dict(exercise="ex6", kind="loop over the batch",
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.sum(dim=0) / reference.shape[0]
    out = head_out.clone()
    for b in range(out.shape[0]):
        out[b] = mean
    return out
'''),
    dict(exercise="ex6", kind="repeat",
         code='''def my_mean_ablate(head_out, reference):
    B = head_out.shape[0]
    return reference.mean(0).unsqueeze(0).repeat(B, 1, 1)
'''),
    dict(exercise="ex6", kind="per-position loop",
         code='''def my_mean_ablate(head_out, reference):
    B, T, d = head_out.shape
    out = torch.empty_like(head_out)
    for t in range(T):
        out[:, t, :] = reference[:, t, :].mean(dim=0)
    return out
'''),
]
