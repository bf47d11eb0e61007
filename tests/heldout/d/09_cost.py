"""Held-out answers for exercises/09_cost.ipynb, written from the exercise texts alone."""

WRONG = [
    dict(exercise="ex1", kind="no rescaling of z", mistake="adds each block's terms relative to the new max but never rescales the old z by exp(m - m_new)",
         names=["rescal", "exp(m - m_new)", "old z", "old sum"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start:start + block_size]
        m_new = max(m, block.max())
        z = z + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="rescale sign flipped", mistake="multiplies z by exp(m_new - m) instead of exp(m - m_new)",
         names=["exp(m - m_new)", "sign", "m_new - m", "rescal"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for s in range(0, len(x), block_size):
        b = x[s:s + block_size]
        m_new = max(m, b.max())
        factor = np.exp(m_new - m) if np.isfinite(m) else 0.0
        z = z * factor + np.exp(b - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="max of block not running", mistake="sets m to the current block's max instead of the running max, so a later block with a much smaller max makes exp(m - m_new) overflow",
         names=["running max", "larger of", "max so far", "overflow"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for s in range(0, len(x), block_size):
        b = x[s:s + block_size]
        m_new = b.max()
        z = z * np.exp(m - m_new) + np.exp(b - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="drops partial last block", mistake="loops over len(x) // block_size blocks, dropping the last partial block",
         names=["last block", "partial", "remainder", "not a multiple"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for b in range(len(x) // block_size):
        block = x[b * block_size:(b + 1) * block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="terms relative to old m", mistake="takes the block's terms relative to the old max m instead of m_new, which overflows from m = -inf",
         names=["relative to m_new", "m_new", "new max", "overflow"],
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for s in range(0, len(x), block_size):
        b = x[s:s + block_size]
        m_new = max(m, b.max())
        z = z * np.exp(m - m_new) + np.exp(b - m).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex2", kind="acc not rescaled", mistake="rescales z by exp(m - m_new) but not acc",
         names=["acc", "both z and acc", "rescal", "exp(m - m_new)"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise="ex2", kind="alpha as row", mistake="multiplies acc by the factor as a row vector (no trailing axis), scaling columns instead of each query's row",
         names=["column", "per query", "[:, none]", "broadcast", "one factor per query"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="divides by z", mistake="normalises acc by z inside the step although the caller divides after the last block",
         names=["do not divide", "unnormalised", "acc / z", "normalis"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, np.max(s, axis=1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=1)
    acc_new = (alpha[:, None] * acc * z[:, None] + p @ v) / z_new[:, None]
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="forgets old m in max", mistake="takes m_new as the block's max alone, not the larger of m and the block's max, so exp(m - m_new) overflows when the block's scores are much lower",
         names=["larger of", "running max", "np.maximum", "old m", "overflow"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = s.max(axis=-1)
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="block weights vs old m", mistake="takes the block's exponentials relative to the old m instead of m_new",
         names=["m_new", "relative to", "new max", "overflow"],
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - np.where(np.isfinite(m), m, m_new)[:, None])
    return m_new, alpha * z + p.sum(-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex3", kind="cat on heads axis", mistake="concatenates along dim 1 (heads) instead of the position axis -2",
         names=["position axis", "dim=-2", "dim=2", "axis -2", "heads"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=1), torch.cat([cache_v, v_new], dim=1)
'''),
    dict(exercise="ex3", kind="new positions first", mistake="puts the new positions before the old ones",
         names=["old positions first", "order", "before", "new first"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat((k_new, cache_k), dim=-2), torch.cat((v_new, cache_v), dim=-2)
'''),
    dict(exercise="ex3", kind="zeros for empty cache", mistake="starts an empty cache with zeros shaped like k_new, adding T_new fake positions",
         names=["none", "first call", "zeros", "nothing to append", "extra positions"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        cache_k, cache_v = torch.zeros_like(k_new), torch.zeros_like(v_new)
    return torch.cat([cache_k, k_new], dim=2), torch.cat([cache_v, v_new], dim=2)
'''),
    dict(exercise="ex3", kind="feature axis", mistake="concatenates along the last axis (d_head) instead of positions",
         names=["position axis", "dim=-2", "d_head", "last axis", "dim=-1"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    k_all = torch.cat([cache_k, k_new], -1)
    v_all = torch.cat([cache_v, v_new], -1)
    return k_all, v_all
'''),
    dict(exercise="ex3", kind="v forgets dim", mistake="gives the keys dim=-2 but concatenates the values with torch.cat's default dim 0 (batch)",
         names=["values", "dim=0", "batch", "position axis", "v_all"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    k_all = torch.cat([cache_k, k_new], dim=-2)
    v_all = torch.cat([cache_v, v_new])
    return k_all, v_all
'''),
    dict(exercise="ex4", kind="window plus one keys", mistake="allows i - j <= window, giving window + 1 keys",
         names=["off by one", "window + 1", "query itself counts", "i - window < j", "<= window"],
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j >= 0) & (i - j <= window)
'''),
    dict(exercise="ex4", kind="not causal", mistake="uses |i - j| < window, letting queries read future keys",
         names=["causal", "future", "after i", "j ≤ i", "j <= i"],
         code='''def my_sliding_window_mask(T, window):
    idx = np.arange(T)
    return np.abs(idx[:, None] - idx[None, :]) < window
'''),
    dict(exercise="ex4", kind="transposed", mistake="compares j - i, building the mask of keys ahead of the query (the transpose)",
         names=["transpose", "rows and columns", "j - i", "future"],
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    d = j - i
    return (d >= 0) & (d < window)
'''),
    dict(exercise="ex4", kind="int dtype via tril", mistake="returns a 0/1 integer array from np.tril instead of a boolean mask",
         names=["bool", "boolean", "dtype", "integer"],
         code='''def my_sliding_window_mask(T, window):
    ones = np.ones((T, T), dtype=int)
    return np.tril(ones) - np.tril(ones, -window)
'''),
    dict(exercise="ex4", kind="negative slice start", mistake="fills row i with the slice [i - window + 1 : i + 1], whose negative start wraps round and empties the early rows",
         names=["negative", "max(0", "early rows", "window may exceed", "first rows"],
         code='''def my_sliding_window_mask(T, window):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        mask[i, i - window + 1:i + 1] = True
    return mask
'''),
    dict(exercise="ex5", kind="softmax over all experts", mistake="takes the softmax over all experts and keeps the top k, so rows do not sum to 1",
         names=["over those k", "renormal", "sum to 1", "all experts", "k chosen"],
         code='''def my_top_k_gates(logits, k):
    probs = torch.softmax(logits, dim=-1)
    top, idx = probs.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, idx, top)
'''),
    dict(exercise="ex5", kind="raw logits as gates", mistake="scatters the raw top-k logits without a softmax",
         names=["softmax", "sum to 1", "raw logits"],
         code='''def my_top_k_gates(logits, k):
    vals, idx = torch.topk(logits, k, dim=-1)
    out = torch.zeros_like(logits)
    out.scatter_(-1, idx, vals)
    return out
'''),
    dict(exercise="ex5", kind="smallest k", mistake="sorts ascending and picks the k smallest logits",
         names=["largest", "smallest", "ascending", "best"],
         code='''def my_top_k_gates(logits, k):
    idx = logits.argsort(dim=-1)[:, :k]
    g = torch.softmax(logits.gather(-1, idx), dim=-1)
    return torch.zeros_like(logits).scatter(-1, idx, g)
'''),
    dict(exercise="ex5", kind="gates in first columns", mistake="writes the k gates into the first k columns instead of at their experts' indices",
         names=["expert's index", "scatter", "indices", "wrong experts"],
         code='''def my_top_k_gates(logits, k):
    top, _ = logits.topk(k, dim=-1)
    gates = torch.softmax(top, dim=-1)
    rest = torch.zeros(logits.shape[0], logits.shape[1] - k, dtype=logits.dtype)
    return torch.cat([gates, rest], dim=-1)
'''),
    dict(exercise="ex5", kind="softmax over tokens", mistake="takes the softmax of the k logits over dim 0 (the tokens) instead of over the k experts",
         names=["dim=-1", "each row", "over those k", "axis", "tokens"],
         code='''def my_top_k_gates(logits, k):
    top, idx = logits.topk(k, dim=-1)
    g = torch.softmax(top, dim=0)
    return torch.zeros_like(logits).scatter(-1, idx, g)
'''),
]

VALID = [
    dict(exercise="ex1", kind="while loop math scalars", code='''import math


def my_online_softmax(x, block_size):
    m, z = -math.inf, 0.0
    start = 0
    n = len(x)
    while start < n:
        block = [float(v) for v in x[start:start + block_size]]
        m_new = max([m] + block)
        z = z * math.exp(m - m_new)
        for v in block:
            z += math.exp(v - m_new)
        m = m_new
        start += block_size
    return np.exp(np.asarray(x, dtype=float) - m) / z
'''),
    dict(exercise="ex1", kind="array_split blocks", code='''def my_online_softmax(x, block_size):
    x = np.asarray(x, dtype=float)
    m = -np.inf
    z = 0.0
    bounds = list(range(block_size, len(x), block_size))
    for blk in np.split(x, bounds):
        new_m = np.maximum(m, blk.max())
        z = np.exp(m - new_m) * z + np.sum(np.exp(blk - new_m))
        m = new_m
    return np.exp(x - m) / z
'''),
    dict(exercise="ex2", kind="einsum", code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, np.max(s, axis=-1))
    scale = np.exp(m - m_new)
    w = np.exp(s - m_new[:, np.newaxis])
    z_new = scale * z + w.sum(axis=-1)
    acc_new = scale[:, np.newaxis] * acc + np.einsum("qb,bd->qd", w, v)
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="loop per query", code='''def my_attention_step(m, z, acc, s, v):
    T_q = s.shape[0]
    m_new = np.empty_like(m, dtype=float)
    z_new = np.empty_like(z, dtype=float)
    acc_new = np.empty_like(acc, dtype=float)
    for q in range(T_q):
        mq = max(m[q], s[q].max())
        f = np.exp(m[q] - mq)
        w = np.exp(s[q] - mq)
        m_new[q] = mq
        z_new[q] = f * z[q] + w.sum()
        acc_new[q] = f * acc[q] + w @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex3", kind="concat dim 2", code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None or cache_v is None:
        return k_new, v_new
    return torch.concat([cache_k, k_new], dim=2), torch.concat([cache_v, v_new], dim=2)
'''),
    dict(exercise="ex3", kind="empty tensor start", code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        B, H, _, d = k_new.shape
        cache_k = k_new.new_empty((B, H, 0, d))
        cache_v = v_new.new_empty((B, H, 0, v_new.shape[-1]))
    k_all = torch.cat([cache_k, k_new], dim=-2)
    v_all = torch.cat([cache_v, v_new], dim=-2)
    return k_all, v_all
'''),
    dict(exercise="ex4", kind="np.tri difference", code='''def my_sliding_window_mask(T, window):
    return np.tri(T, T, 0, dtype=bool) & ~np.tri(T, T, -window, dtype=bool)
'''),
    dict(exercise="ex4", kind="loops with max", code='''def my_sliding_window_mask(T, window):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(max(0, i - window + 1), i + 1):
            mask[i, j] = True
    return mask
'''),
    dict(exercise="ex5", kind="masked_fill softmax", code='''def my_top_k_gates(logits, k):
    kth = logits.topk(k, dim=-1).values[..., -1:]
    masked = logits.masked_fill(logits < kth, float("-inf"))
    return torch.softmax(masked, dim=-1)
'''),
    dict(exercise="ex5", kind="loop rows", code='''def my_top_k_gates(logits, k):
    out = torch.zeros_like(logits)
    for r in range(logits.shape[0]):
        order = torch.argsort(logits[r], descending=True)[:k]
        e = torch.exp(logits[r, order] - logits[r, order].max())
        out[r, order] = e / e.sum()
    return out
'''),
]
