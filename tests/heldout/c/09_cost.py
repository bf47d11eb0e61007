"""Held-out answers for exercises/09_cost.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 my_online_softmax
    dict(exercise="ex1", kind="no rescaling",
         mistake="adds each block's terms to z without first multiplying the old z by exp(m - m_new)",
         names=["rescal", "exp(m - m_new)", "old z", "exp(m − m_new)"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="rescale factor inverted",
         mistake="multiplies z by exp(m_new - m) instead of exp(m - m_new)",
         names=["exp(m - m_new)", "sign", "m_new - m", "inverted", "exp(m − m_new)"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        if np.isfinite(m):
            z = z * np.exp(m_new - m)
        z = z + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="block terms relative to old max",
         mistake="takes the block's terms relative to the old max m instead of m_new, which is -inf at the first block",
         names=["relative to m_new", "m_new", "new max", "old max", "block's terms"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="slice ignores start",
         mistake="slices every block as x[start:block_size] instead of x[start:start + block_size], so later blocks are empty",
         names=["start + block_size", "slice", "blocks", "empty block"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start:block_size]
        if block.size == 0:
            continue
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="drops partial block",
         mistake="loops over len(x) // block_size blocks, so a last, shorter block is never read when block_size does not divide n",
         names=["last block", "partial block", "remainder", "not a multiple", "shorter block"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for b in range(len(x) // block_size):
        block = x[b * block_size : (b + 1) * block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="max is block max",
         mistake="sets m to each block's own max instead of the larger of m and it, which overflows when a later block is much smaller",
         names=["running max", "larger of", "np.maximum", "overflow", "max(m"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = block.max()
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="no max at all",
         mistake="sums exp(x) without subtracting any max, which overflows for large scores",
         names=["max", "overflow", "unstable", "subtract", "large scores"],
         code='''def my_online_softmax(x, block_size):
    z = 0.0
    for start in range(0, len(x), block_size):
        z += np.exp(x[start : start + block_size]).sum()
    return np.exp(x) / z
'''),
    dict(exercise="ex1", kind="normalises in place",
         mistake="turns x into the softmax in place, overwriting the caller's array",
         names=["in place", "modifies x", "input", "overwrit", "copy"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    x -= m
    np.exp(x, out=x)
    x /= z
    return x
'''),
    # ---------------------------------------------------------------- ex2 my_attention_step
    dict(exercise="ex2", kind="acc not rescaled",
         mistake="rescales z by exp(m - m_new) but not acc",
         names=["acc", "both z and acc", "rescale acc", "exp(m - m_new)"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="factor not a column",
         mistake="multiplies acc by the (T_q,) factor without making it a column, so it broadcasts along d_v instead of per query",
         names=["column", "[:, none]", "broadcast", "one factor per query", "per query"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha * acc + p @ v
'''),
    dict(exercise="ex2", kind="divides by z",
         mistake="returns acc_new / z_new, normalising inside the step although the caller divides after the last block",
         names=["divide", "normalis", "acc / z", "unnormalised", "do not divide"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new / z_new[:, None]
'''),
    dict(exercise="ex2", kind="block max wrong axis",
         mistake="takes the block's max over axis 0 (the queries) instead of each row's max over its keys",
         names=["axis=-1", "each row", "wrong axis", "per query", "row's largest"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=0))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="m_new is block max",
         mistake="sets m_new to the block's max alone, not the larger of m and it, so a fully masked row later gives inf and nan",
         names=["larger of m", "np.maximum", "running max", "block's max", "max(m"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = s.max(axis=-1)
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="weights relative to old m",
         mistake="takes the block's weights as exp(s - m) with the old max instead of m_new",
         names=["m_new", "new max", "relative to", "old max"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="factor inverted",
         mistake="rescales the old state by exp(m_new - m) instead of exp(m - m_new)",
         names=["exp(m - m_new)", "sign", "m_new - m", "inverted", "exp(m − m_new)"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.where(np.isinf(m), 0.0, np.exp(m_new - m))
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    # ---------------------------------------------------------------- ex3 my_cache_append
    dict(exercise="ex3", kind="cat on heads axis",
         mistake="concatenates along dim 1, the heads axis, instead of the position axis -2",
         names=["heads axis", "dim=1", "position axis", "dim=-2", "axis −2"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=1), torch.cat([cache_v, v_new], dim=1)
'''),
    dict(exercise="ex3", kind="cat on feature axis",
         mistake="concatenates along the last axis, d_head, instead of the position axis -2",
         names=["feature", "d_head", "dim=-1", "position axis", "dim=-2"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat((cache_k, k_new), dim=-1), torch.cat((cache_v, v_new), dim=-1)
'''),
    dict(exercise="ex3", kind="new positions first",
         mistake="puts the new positions before the old ones",
         names=["old positions first", "order", "new first", "prepend", "before the old"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([k_new, cache_k], dim=-2), torch.cat([v_new, cache_v], dim=-2)
'''),
    dict(exercise="ex3", kind="zeros for empty cache",
         mistake="starts an empty cache as zeros shaped like the new keys, so the first call adds T_new extra zero positions",
         names=["none", "zeros", "first call", "nothing to append", "extra positions"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        cache_k, cache_v = torch.zeros_like(k_new), torch.zeros_like(v_new)
    return torch.cat([cache_k, k_new], dim=2), torch.cat([cache_v, v_new], dim=2)
'''),
    dict(exercise="ex3", kind="values not appended",
         mistake="appends the keys but returns only the new values, dropping the cached ones",
         names=["values", "v_all", "cache_v"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    k_all = torch.cat([cache_k, k_new], dim=-2)
    return k_all, v_new
'''),
    dict(exercise="ex3", kind="pair swapped",
         mistake="returns (v_all, k_all) instead of (k_all, v_all)",
         names=["order", "swapped", "(k_all, v_all)", "keys and values"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return v_new, k_new
    return torch.cat([cache_v, v_new], dim=-2), torch.cat([cache_k, k_new], dim=-2)
'''),
    dict(exercise="ex3", kind="truthiness test",
         mistake="tests the cache with `if not cache_k`, which raises for a tensor of more than one element instead of checking for None",
         names=["is none", "truth", "ambiguous", "boolean value", "none"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if not cache_k:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=-2), torch.cat([cache_v, v_new], dim=-2)
'''),
    # ---------------------------------------------------------------- ex4 my_sliding_window_mask
    dict(exercise="ex4", kind="window plus one keys",
         mistake="keeps i - j <= window, one key too many",
         names=["off by one", "window + 1", "one too many", "< window", "query itself counts"],
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j >= 0) & (i - j <= window)
'''),
    dict(exercise="ex4", kind="not causal",
         mistake="keeps |i - j| < window on both sides, letting queries read future keys",
         names=["future", "after i", "causal", "j ≤ i", "symmetric"],
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return np.abs(i - j) < window
'''),
    dict(exercise="ex4", kind="transposed",
         mistake="compares j - i instead of i - j, giving the transposed mask where queries read the future",
         names=["transpose", "rows and columns", "future", "upper", "i - j"],
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (j - i >= 0) & (j - i < window)
'''),
    dict(exercise="ex4", kind="excludes diagonal",
         mistake="uses i - j > 0, so a query may not read its own key",
         names=["diagonal", "query itself", "j = i", "j ≤ i", "itself"],
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j > 0) & (i - j < window)
'''),
    dict(exercise="ex4", kind="float tril triu",
         mistake="builds the band with np.tril and np.triu of ones and returns floats, not booleans",
         names=["bool", "dtype", "boolean", "float"],
         code='''def my_sliding_window_mask(T, window):
    ones = np.ones((T, T))
    return np.triu(np.tril(ones), -(window - 1))
'''),
    dict(exercise="ex4", kind="negative index wraps",
         mistake="loops j from i - window + 1 without clipping at 0, so negative column indices wrap to the end of early rows",
         names=["negative", "wrap", "max(0", "clip", "early rows"],
         code='''def my_sliding_window_mask(T, window):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(i - window + 1, i + 1):
            mask[i, j] = True
    return mask
'''),
    # ---------------------------------------------------------------- ex5 my_top_k_gates
    dict(exercise="ex5", kind="softmax over all experts",
         mistake="takes the softmax over all experts and keeps the top k, so the gates do not sum to 1",
         names=["renormal", "over those k", "all experts", "sum to 1", "switch"],
         code='''def my_top_k_gates(logits, k):
    probs = torch.softmax(logits, dim=-1)
    top, idx = probs.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, idx, top)
'''),
    dict(exercise="ex5", kind="softmax over tokens",
         mistake="takes the softmax of the top-k logits over dim 0, the tokens, instead of over the k chosen experts",
         names=["axis", "dim=-1", "wrong axis", "over the tokens", "dim=0"],
         code='''def my_top_k_gates(logits, k):
    top, idx = logits.topk(k, dim=-1)
    gates = torch.softmax(top, dim=0)
    return torch.zeros_like(logits).scatter(-1, idx, gates)
'''),
    dict(exercise="ex5", kind="k smallest",
         mistake="sorts ascending and takes the first k, the k smallest logits",
         names=["smallest", "largest", "descending", "ascending"],
         code='''def my_top_k_gates(logits, k):
    values, idx = torch.sort(logits, dim=-1)
    top, top_idx = values[:, :k], idx[:, :k]
    gates = torch.zeros_like(logits)
    gates.scatter_(1, top_idx, torch.softmax(top, dim=-1))
    return gates
'''),
    dict(exercise="ex5", kind="raw logits as gates",
         mistake="writes the chosen logits themselves as gates, without the softmax",
         names=["softmax", "raw logits", "sum to 1"],
         code='''def my_top_k_gates(logits, k):
    top, idx = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, idx, top)
'''),
    dict(exercise="ex5", kind="threshold keeps ties",
         mistake="keeps every logit at least the k-th largest, so ties give more than k experts",
         names=["ties", "more than k", "exactly k", "tied"],
         code='''def my_top_k_gates(logits, k):
    kth = logits.topk(k, dim=-1).values[:, -1:]
    masked = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(masked, dim=-1)
'''),
    dict(exercise="ex5", kind="hard-coded k",
         mistake="always routes to 2 experts, ignoring the k argument",
         names=["k argument", "ignores k", "k = 2", "hard-coded", "k=2"],
         code='''def my_top_k_gates(logits, k):
    top, idx = logits.topk(2, dim=-1)
    return torch.zeros_like(logits).scatter(-1, idx, torch.softmax(top, dim=-1))
'''),
    dict(exercise="ex5", kind="masks logits in place",
         mistake="writes -inf into the caller's logits tensor in place before the softmax",
         names=["in place", "modifies logits", "input", "overwrit", "clone"],
         code='''def my_top_k_gates(logits, k):
    idx = logits.topk(k, dim=-1).indices
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, idx, True)
    logits[~keep] = float("-inf")
    return torch.softmax(logits, dim=-1)
'''),
]

VALID = [
    dict(exercise="ex1", kind="element loop inside blocks", code='''import math


def my_online_softmax(x, block_size):
    x = np.asarray(x)
    m, z = -math.inf, 0.0
    n = x.shape[0]
    start = 0
    while start < n:
        block = x[start : min(start + block_size, n)]
        m_new = m
        for value in block:
            m_new = max(m_new, float(value))
        z *= math.exp(m - m_new)
        for value in block:
            z += math.exp(float(value) - m_new)
        m = m_new
        start += block_size
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="array_split blocks", code='''def my_online_softmax(x, block_size):
    n_blocks = -(-len(x) // block_size)
    m, z = -np.inf, 0.0
    for block in np.array_split(x, [b * block_size for b in range(1, n_blocks)]):
        m_new = np.maximum(m, np.max(block))
        z = np.exp(m - m_new) * z + np.sum(np.exp(block - m_new))
        m = m_new
    out = np.exp(x - m)
    return out / z
'''),
    dict(exercise="ex2", kind="einsum and newaxis", code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.fmax(m, np.max(s, axis=1))
    scale = np.exp(m - m_new)
    p = np.exp(s - m_new[:, np.newaxis])
    z_new = scale * z + np.einsum("qb->q", p)
    acc_new = scale[:, np.newaxis] * acc + np.einsum("qb,bd->qd", p, v)
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="loop over queries", code='''def my_attention_step(m, z, acc, s, v):
    T_q = s.shape[0]
    m_new = np.empty_like(m)
    z_new = np.empty_like(z)
    acc_new = np.empty_like(acc)
    for i in range(T_q):
        m_new[i] = max(m[i], s[i].max())
        w = np.exp(s[i] - m_new[i])
        f = np.exp(m[i] - m_new[i])
        z_new[i] = f * z[i] + w.sum()
        acc_new[i] = f * acc[i] + w @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex3", kind="preallocate and copy", code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None or cache_v is None:
        return k_new, v_new
    out = []
    for old, new in ((cache_k, k_new), (cache_v, v_new)):
        B, H, T_past, d = old.shape
        both = old.new_empty((B, H, T_past + new.shape[-2], d))
        both[:, :, :T_past] = old
        both[:, :, T_past:] = new
        out.append(both)
    return out[0], out[1]
'''),
    dict(exercise="ex3", kind="torch.concat dim 2", code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is not None:
        k_new = torch.concat([cache_k, k_new], dim=2)
        v_new = torch.concat([cache_v, v_new], dim=2)
    return k_new, v_new
'''),
    dict(exercise="ex4", kind="np.tri difference", code='''def my_sliding_window_mask(T, window):
    past_and_self = np.tri(T, T, 0, dtype=bool)
    too_old = np.tri(T, T, -window, dtype=bool)
    return past_and_self & ~too_old
'''),
    dict(exercise="ex4", kind="clipped loops", code='''def my_sliding_window_mask(T, window):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        mask[i, max(0, i - window + 1) : i + 1] = True
    return mask
'''),
    dict(exercise="ex5", kind="mask with -inf then softmax", code='''def my_top_k_gates(logits, k):
    idx = torch.topk(logits, k, dim=-1).indices
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, idx, True)
    return torch.softmax(logits.masked_fill(~keep, float("-inf")), dim=-1)
'''),
    dict(exercise="ex5", kind="row loop", code='''def my_top_k_gates(logits, k):
    gates = torch.zeros_like(logits)
    for r in range(logits.shape[0]):
        order = torch.argsort(logits[r], descending=True)[:k]
        chosen = logits[r, order]
        e = torch.exp(chosen - chosen.max())
        gates[r, order] = e / e.sum()
    return gates
'''),
]
