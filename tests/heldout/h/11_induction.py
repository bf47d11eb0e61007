"""Held-out answers for exercises/11_induction.ipynb ex5-ex6 (set h), written from the exercise
texts of tests/heldout/g/EXERCISES.md alone, without the checks, the solutions or the other sets.

Ambiguities in the texts (the VALID answers follow every reasonable reading; no WRONG answer
is wrong only under one of them):
- ex5: "a Python float": np.float64 is a subclass of float, so whether returning it counts is
  unclear; the VALID answers return float(...), and the one WRONG answer about the type
  returns a 0-d torch tensor, which is no float under any reading. `ids` is said to be (T,)
  but not whether a list or a NumPy array: the VALID answers take both (np.asarray). The
  pattern is said to be causal; the answers are tested on causal patterns only (a WRONG
  answer that reads the transposed pattern is wrong on those too).
- ex6: B_ref need not equal B (the VALID answers do not assume it). Whether the result may
  be an expanded view of one (T, d) mean (a "new tensor" whose rows share memory) is not
  stated: the VALID answers return a tensor with its own memory, and no answer relies on it.
"""

WRONG = [
    # ---------------- ex5: my_prefix_matching_score ----------------
    dict(exercise="ex5", kind="diagonal included",
         mistake="lets the key j run up to i itself (j ≤ i), so a query right after a copy of its own token (ids[i − 1] == ids[i]) counts its own position",
         names=["j < i", "j = i", "diagonal", "itself", "1 ≤ j < i"],
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    totals = []
    for i in range(T):
        keys = [j for j in range(1, i + 1) if ids[j - 1] == ids[i]]
        if keys:
            totals.append(sum(weights[i, j] for j in keys))
    return float(np.mean(totals)) if totals else 0.0
'''),
    dict(exercise="ex5", kind="j = 0 wraps to ids[-1]",
         mistake="builds the previous tokens with ids[np.arange(T) - 1], so key 0 gets ids[−1] (the last token) as its 'previous' token and is counted when it equals the query's",
         names=["j = 0", "j ≥ 1", "ids[-1]", "wrap", "key 0"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    prev = ids[np.arange(T) - 1]                          # token before each key
    match = (prev[None, :] == ids[:, None]) & np.tri(T, T, -1, dtype=bool)
    has = match.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * match).sum(axis=1)[has].mean())
'''),
    dict(exercise="ex5", kind="same token, not the one after",
         mistake="sums the weight on the earlier occurrences of the query's token themselves (ids[j] == ids[i]) instead of on the tokens right after them (ids[j − 1] == ids[i])",
         names=["ids[j - 1]", "ids[j − 1]", "after", "earlier occurrence", "next token"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    match = (ids[None, :] == ids[:, None]) & np.tri(T, T, -1, dtype=bool)
    has = match.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * match).sum(axis=1)[has].mean())
'''),
    dict(exercise="ex5", kind="mean over every query",
         mistake="averages the matched weight over all T queries, counting the queries that have no matching key as 0, instead of over the queries that have one",
         names=["at least one", "queries that have", "every query", "denominator", "no match"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    score = np.zeros(T)
    for i in range(T):
        for j in range(1, i):
            if ids[j - 1] == ids[i]:
                score[i] += weights[i, j]
    return float(score.mean())
'''),
    dict(exercise="ex5", kind="nan with no match",
         mistake="takes the mean of an empty selection when no query has a matching key, returning nan instead of 0.0",
         names=["0.0", "nan", "no query", "empty", "no match"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    match = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(1, i):
            match[i, j] = ids[j - 1] == ids[i]
    has = match.any(axis=1)
    return float((weights * match).sum(axis=1)[has].mean())
'''),
    dict(exercise="ex5", kind="divides by zero with no match",
         mistake="divides the total by the number of queries with a match without handling zero, so a sequence with no repeated token raises ZeroDivisionError instead of giving 0.0",
         names=["0.0", "zerodivision", "no query", "divide by zero", "no match"],
         code='''def my_prefix_matching_score(weights, ids):
    total, count = 0.0, 0
    for i in range(len(ids)):
        keys = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if keys:
            total += float(sum(weights[i, j] for j in keys))
            count += 1
    return total / count
'''),
    dict(exercise="ex5", kind="largest matched weight",
         mistake="takes the largest weight among a query's matching keys instead of their total, which differs for a query with two or more matches",
         names=["total", "sum", "max", "two matches", "all the keys"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    best = []
    for i in range(T):
        keys = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if keys:
            best.append(max(weights[i, keys]))
    return float(np.mean(best)) if best else 0.0
'''),
    dict(exercise="ex5", kind="mean over the matched keys",
         mistake="averages a query's weight over its matching keys (divides by how many there are) instead of taking the total weight on them",
         names=["total", "sum", "per key", "number of matches", "mean over the keys"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    match = (ids[None, :-1] == ids[:, None])              # (T, T-1): ids[j-1] == ids[i], j = 1..T-1
    match = np.concatenate([np.zeros((T, 1), dtype=bool), match], axis=1) & np.tri(T, T, -1, dtype=bool)
    n = match.sum(axis=1)
    has = n > 0
    if not has.any():
        return 0.0
    per_query = (weights * match).sum(axis=1)[has] / n[has]
    return float(per_query.mean())
'''),
    dict(exercise="ex5", kind="key i − 1 left out",
         mistake="lets j run over range(1, i − 1), stopping at i − 2, so the key right before the query (when ids[i − 2] == ids[i]) is never counted",
         names=["i - 1", "i − 1", "off by one", "j < i", "range(1, i)"],
         code='''def my_prefix_matching_score(weights, ids):
    per_query = []
    for i in range(len(ids)):
        keys = [j for j in range(1, i - 1) if ids[j - 1] == ids[i]]
        if keys:
            per_query.append(weights[i, keys].sum())
    return float(sum(per_query) / len(per_query)) if per_query else 0.0
'''),
    dict(exercise="ex5", kind="pattern read transposed",
         mistake="reads weights[j, i] (column i: what the keys give query i's position) instead of weights[i, j], query i's row",
         names=["row", "weights[i, j]", "transpose", "column", "query i"],
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    scores = []
    for i in range(T):
        js = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if js:
            scores.append(weights[js, i].sum())
    return float(np.mean(scores)) if scores else 0.0
'''),
    dict(exercise="ex5", kind="returns a torch tensor",
         mistake="computes the score with torch and returns a 0-d tensor, not a Python float",
         names=["float", "python float", "tensor", "float(", ".item()"],
         code='''def my_prefix_matching_score(weights, ids):
    w = torch.as_tensor(weights)
    ids = torch.as_tensor(ids)
    T = ids.shape[0]
    match = torch.zeros(T, T, dtype=torch.bool)
    match[:, 1:] = ids[:, None] == ids[None, :-1]
    match &= torch.ones(T, T, dtype=torch.bool).tril(-1)
    has = match.any(dim=1)
    if not has.any():
        return torch.tensor(0.0)
    return (w * match).sum(dim=1)[has].mean()
'''),

    # ---------------- ex6: my_mean_ablate ----------------
    dict(exercise="ex6", kind="mean over positions",
         mistake="averages the reference over the positions (dim 1) instead of over the reference batch (dim 0)",
         names=["dim=0", "batch", "position by position", "dim=1", "over the positions"],
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=1, keepdim=True)            # (B_ref, 1, d)
    return mean.expand_as(head_out).clone()
'''),
    dict(exercise="ex6", kind="one mean for every position",
         mistake="averages the reference over the batch and the positions together, so every position gets the same vector instead of its own position's mean",
         names=["position t", "each position", "dim=0", "per position", "over the positions"],
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=(0, 1))                     # (d,)
    return mean.expand(head_out.shape).clone()
'''),
    dict(exercise="ex6", kind="own batch's mean",
         mistake="takes the mean of head_out over its own batch instead of the reference batch's mean",
         names=["reference", "reference batch", "head_out's own", "own batch", "instead of the reference"],
         code='''def my_mean_ablate(head_out, reference):
    return head_out.mean(dim=0, keepdim=True).expand_as(head_out).clone()
'''),
    dict(exercise="ex6", kind="writes into head_out",
         mistake="assigns the mean into head_out in place (head_out[:] = ...) and returns it, changing the caller's tensor",
         names=["in place", "in-place", "head_out[:]", "clone", "changed head_out"],
         code='''def my_mean_ablate(head_out, reference):
    head_out[:] = reference.mean(dim=0)
    return head_out
'''),
    dict(exercise="ex6", kind="keeps a batch of 1",
         mistake="returns the (1, T, d) mean with keepdim, which broadcasts but is not shaped like head_out (B, T, d)",
         names=["(b, t, d)", "shape", "expand", "keepdim", "(1, t, d)"],
         code='''def my_mean_ablate(head_out, reference):
    return reference.mean(dim=0, keepdim=True)
'''),
    dict(exercise="ex6", kind="sum, not mean",
         mistake="sums the reference over its batch instead of averaging, so the outputs are B_ref times too large",
         names=["mean", "sum", "divide", "b_ref", "times too large"],
         code='''def my_mean_ablate(head_out, reference):
    total = reference.sum(dim=0)                          # (T, d)
    return total.unsqueeze(0).repeat(head_out.shape[0], 1, 1)
'''),
    dict(exercise="ex6", kind="divided by B",
         mistake="divides the reference's sum by head_out's batch size B instead of the reference batch size B_ref (right only when B == B_ref)",
         names=["b_ref", "reference batch", "shape[0]", "divide", "batch size"],
         code='''def my_mean_ablate(head_out, reference):
    B = head_out.shape[0]
    mean = reference.sum(dim=0) / B
    return mean.repeat(B, 1, 1)
'''),
    dict(exercise="ex6", kind="returns numpy",
         mistake="computes the mean with NumPy and returns a NumPy array instead of a torch tensor",
         names=["numpy", "torch tensor", "ndarray", ".numpy()", "type"],
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.numpy().mean(axis=0)
    return np.broadcast_to(mean, tuple(head_out.shape)).copy()
'''),
    dict(exercise="ex6", kind="re-centred, not replaced",
         mistake="shifts head_out by the difference of the means (head_out − its mean + the reference mean), keeping each row's own deviation instead of replacing the output",
         names=["replace", "replaced", "keeps", "deviation", "information"],
         code='''def my_mean_ablate(head_out, reference):
    return head_out - head_out.mean(dim=0, keepdim=True) + reference.mean(dim=0, keepdim=True)
'''),
    dict(exercise="ex6", kind="divides reference in place",
         mistake="divides reference by B_ref in place (reference /= ...) to sum it into the mean, changing the caller's reference tensor",
         names=["in place", "in-place", "reference", "/=", "changed"],
         code='''def my_mean_ablate(head_out, reference):
    reference /= reference.shape[0]
    mean = reference.sum(dim=0)
    return mean.expand_as(head_out).clone()
'''),
    dict(exercise="ex6", kind="resample, not mean",
         mistake="gives sequence b the reference's row b (a resample ablation) instead of the reference batch's mean",
         names=["mean", "resample", "row b", "average", "reference row"],
         code='''def my_mean_ablate(head_out, reference):
    B = head_out.shape[0]
    idx = torch.arange(B) % reference.shape[0]
    return reference[idx].clone()
'''),
]

VALID = [
    # ---------------- ex5 ----------------
    dict(exercise="ex5", kind="double loop",
         code='''def my_prefix_matching_score(weights, ids):
    totals = []
    for i in range(len(ids)):
        total, found = 0.0, False
        for j in range(1, i):
            if ids[j - 1] == ids[i]:
                total += float(weights[i][j])
                found = True
        if found:
            totals.append(total)
    if not totals:
        return 0.0
    return sum(totals) / len(totals)
'''),
    dict(exercise="ex5", kind="numpy mask",
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    w = np.asarray(weights, dtype=float)
    T = ids.shape[0]
    match = np.zeros((T, T), dtype=bool)
    match[:, 1:] = ids[:, None] == ids[None, :-1]         # ids[j - 1] == ids[i]
    match &= np.tril(np.ones((T, T), dtype=bool), k=-1)    # j < i
    has = match.any(axis=1)
    if not has.any():
        return 0.0
    return float(np.where(match, w, 0.0).sum(axis=1)[has].mean())
'''),
    dict(exercise="ex5", kind="torch inside, .item()",
         code='''def my_prefix_matching_score(weights, ids):
    w = torch.as_tensor(np.asarray(weights), dtype=torch.float64)
    t = torch.as_tensor(np.asarray(ids))
    T = t.numel()
    j = torch.arange(T)
    prev = torch.cat([t[:1] * 0 - 1, t[:-1]])          # placeholder for j = 0, never used
    match = (prev[None, :] == t[:, None]) & (j[None, :] < j[:, None]) & (j[None, :] >= 1)
    n_queries = int(match.any(dim=1).sum())
    if n_queries == 0:
        return 0.0
    return (w * match).sum().item() / n_queries
'''),
    dict(exercise="ex5", kind="positions of each token",
         code='''def my_prefix_matching_score(weights, ids):
    ids = [int(x) for x in ids]
    after = {}                                   # token -> keys j that follow an occurrence of it
    scores = []
    for i, tok in enumerate(ids):
        keys = [j for j in after.get(tok, []) if j < i]
        if keys:
            scores.append(float(np.sum(weights[i, keys])))
        if i + 1 < len(ids):
            after.setdefault(tok, []).append(i + 1)
    return float(np.mean(scores)) if scores else 0.0
'''),

    # ---------------- ex6 ----------------
    dict(exercise="ex6", kind="expand then clone",
         code='''def my_mean_ablate(head_out, reference):
    return reference.mean(dim=0).expand(head_out.shape).clone()
'''),
    dict(exercise="ex6", kind="repeat",
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=0, keepdim=True)            # (1, T, d)
    return mean.repeat(head_out.shape[0], 1, 1)
'''),
    dict(exercise="ex6", kind="zeros_like plus the mean",
         code='''def my_mean_ablate(head_out, reference):
    return torch.zeros_like(head_out) + reference.mean(0)
'''),
    dict(exercise="ex6", kind="loop over positions",
         code='''def my_mean_ablate(head_out, reference):
    out = torch.empty_like(head_out)
    B_ref = reference.shape[0]
    for t in range(head_out.shape[1]):
        out[:, t] = reference[:, t].sum(dim=0) / B_ref
    return out
'''),
]
