"""Named wrong answers for solutions/09_cost.ipynb; each must fail its check by name."""

MISTAKES = [
    # ---------------------------------------------------------------- ex1 online softmax
    dict(exercise="ex1", kind="running sum not rescaled", expect="forgot to rescale",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m = max(m, block.max())
        z = z + np.exp(block - m).sum()
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="rescale factor inverted", expect="the wrong way round",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * (np.exp(m_new - m) if np.isfinite(m) else 0.0) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="each block normalised on its own", expect="each block on its own",
         code='''def my_online_softmax(x, block_size):
    parts = []
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        e = np.exp(block - block.max())
        parts.append(e / e.sum())
    return np.concatenate(parts)
'''),
    dict(exercise="ex1", kind="no max subtracted", expect="subtract the running max",
         code='''def my_online_softmax(x, block_size):
    z = 0.0
    for start in range(0, len(x), block_size):
        z = z + np.exp(x[start : start + block_size]).sum()
    return np.exp(x) / z
'''),
    dict(exercise="ex1", kind="max of the first block only", expect="subtract the running max",
         code='''def my_online_softmax(x, block_size):
    m = x[:block_size].max()
    z = 0.0
    for start in range(0, len(x), block_size):
        z = z + np.exp(x[start : start + block_size] - m).sum()
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="returns the running sum", expect="one weight per score",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return z
'''),
    # ---------------------------------------------------------------- ex2 attention step
    dict(exercise="ex2", kind="sum not rescaled", expect="rescale the running sum z",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="output not rescaled", expect="accumulated output",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise="ex2", kind="nothing rescaled", expect="neither the running sum",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    p = np.exp(s - m_new[:, None])
    return m_new, z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise="ex2", kind="normalised inside the step", expect="divided acc by the running sum",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    return m_new, z_new, (alpha[:, None] * acc + p @ v) / z_new[:, None]
'''),
    dict(exercise="ex2", kind="weights relative to the old max", expect="relative to the old max",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="block max instead of running max", expect="not the running max",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = s.max(axis=-1)
    p = np.exp(s - m_new[:, None])
    return m_new, z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise="ex2", kind="returns the output", expect="(m_new, z_new, acc_new)",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    return (alpha[:, None] * acc + p @ v) / z_new[:, None]
'''),
    # ---------------------------------------------------------------- ex3 KV-cache append
    dict(exercise="ex3", kind="appended along the head axis", expect="head axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=1), torch.cat([cache_v, v_new], dim=1)
'''),
    dict(exercise="ex3", kind="appended along the feature axis", expect="feature axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=-1), torch.cat([cache_v, v_new], dim=-1)
'''),
    dict(exercise="ex3", kind="appended along the batch axis", expect="batch axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=0), torch.cat([cache_v, v_new], dim=0)
'''),
    dict(exercise="ex3", kind="new positions first", expect="position order",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([k_new, cache_k], dim=-2), torch.cat([v_new, cache_v], dim=-2)
'''),
    dict(exercise="ex3", kind="past forgotten", expect="forgot the cached ones",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    return k_new, v_new
'''),
    dict(exercise="ex3", kind="keys and values swapped", expect="swapped",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return v_new, k_new
    return torch.cat([cache_v, v_new], dim=-2), torch.cat([cache_k, k_new], dim=-2)
'''),
    dict(exercise="ex3", kind="empty cache not handled", expect="None",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    return torch.cat([cache_k, k_new], dim=-2), torch.cat([cache_v, v_new], dim=-2)
'''),
    # ---------------------------------------------------------------- ex4 sliding window
    dict(exercise="ex4", kind="window excludes the diagonal", expect="excludes the diagonal",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j < i) & (j >= i - window)
'''),
    dict(exercise="ex4", kind="window looks ahead", expect="looks ahead",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return np.abs(i - j) < window
'''),
    dict(exercise="ex4", kind="window only in the future", expect="looks only ahead",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j >= i) & (j < i + window)
'''),
    dict(exercise="ex4", kind="one key too many", expect="one too many",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j <= i) & (j >= i - window)
'''),
    dict(exercise="ex4", kind="plain causal mask", expect="window is missing",
         code='''def my_sliding_window_mask(T, window):
    return np.tril(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex4", kind="inverted", expect="inverted",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return ~((j <= i) & (i - j < window))
'''),
    dict(exercise="ex4", kind="0/1 integers", expect="boolean",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return ((j <= i) & (i - j < window)).astype(int)
'''),
    # ---------------------------------------------------------------- ex5 top-k gates
    dict(exercise="ex5", kind="softmax over all experts", expect="renormalises over the chosen",
         code='''def my_top_k_gates(logits, k):
    probs = torch.softmax(logits, dim=-1)
    values, experts = probs.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, values)
'''),
    dict(exercise="ex5", kind="dense softmax", expect="dense softmax",
         code='''def my_top_k_gates(logits, k):
    return torch.softmax(logits, dim=-1)
'''),
    dict(exercise="ex5", kind="smallest logits", expect="smallest",
         code='''def my_top_k_gates(logits, k):
    values, experts = (-logits).topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(-values, dim=-1))
'''),
    dict(exercise="ex5", kind="raw logits as gates", expect="raw logits",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, values)
'''),
    dict(exercise="ex5", kind="gates all 1", expect="gate 1",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.ones_like(values))
'''),
    dict(exercise="ex5", kind="only chosen gates", expect="experts not chosen",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.softmax(values, dim=-1)
'''),
]
