"""Named wrong answers for solutions/09_cost.ipynb; each must fail its check by name."""

MISTAKES = [
    # ---------------------------------------------------------------- ex1 online softmax
    dict(exercise="ex1", kind="running sum not rescaled", expect="forgot to rescale",
         id="cost.online-sum-not-rescaled",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m = max(m, block.max())
        z = z + np.exp(block - m).sum()
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="rescale factor inverted", expect="the wrong way round",
         id="cost.online-rescale-inverted",
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
         id="cost.online-per-block",
         code='''def my_online_softmax(x, block_size):
    parts = []
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        e = np.exp(block - block.max())
        parts.append(e / e.sum())
    return np.concatenate(parts)
'''),
    dict(exercise="ex1", kind="no max subtracted", expect="subtract the running max",
         id="cost.online-no-max",
         code='''def my_online_softmax(x, block_size):
    z = 0.0
    for start in range(0, len(x), block_size):
        z = z + np.exp(x[start : start + block_size]).sum()
    return np.exp(x) / z
'''),
    dict(exercise="ex1", kind="max of the first block only", expect="subtract the running max",
         id="cost.online-no-max",
         code='''def my_online_softmax(x, block_size):
    m = x[:block_size].max()
    z = 0.0
    for start in range(0, len(x), block_size):
        z = z + np.exp(x[start : start + block_size] - m).sum()
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="returns the running sum", expect="one weight per score",
         id="cost.online-shape",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return z
'''),
    dict(exercise="ex1", kind="library online_softmax", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers.streaming import online_softmax

def my_online_softmax(x, block_size):
    return online_softmax(x, block_size)
'''),
    dict(exercise="ex1", kind="torch softmax one-liner", expect="your function calls",
         id="rule.forbidden-call",
         code='''def my_online_softmax(x, block_size):
    return torch.softmax(torch.as_tensor(x), dim=-1).numpy()
'''),
    dict(exercise="ex1", kind="two-pass softmax ignoring block_size",
         expect="the two-pass softmax",
         id="cost.online-reads-whole-row",
         code='''def my_online_softmax(x, block_size):
    e = np.exp(x - x.max())
    return e / e.sum()
'''),
    dict(exercise="ex1", kind="running max, then a sum over the whole row",
         expect="a sum over the whole row",
         id="cost.online-reads-whole-row",
         code='''def my_online_softmax(x, block_size):
    m = -np.inf
    for start in range(0, len(x), block_size):
        m = max(m, x[start : start + block_size].max())
    e = np.exp(x - m)
    return e / e.sum()
'''),
    dict(exercise="ex1", kind="two passes over the blocks", expect="a second pass",
         id="cost.online-second-pass",
         code='''def my_online_softmax(x, block_size):
    starts = range(0, len(x), block_size)
    m = max(x[s : s + block_size].max() for s in starts)
    z = sum(np.exp(x[s : s + block_size] - m).sum() for s in starts)
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="block size hard-coded to 2", expect="not a fixed size",
         id="cost.online-block-size-ignored",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), 2):
        block = x[start : start + 2]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="x changed in place", expect="changed its argument `x` in place",
         id="generic.input-modified",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    x -= m
    np.exp(x, out=x)
    return x / z
'''),
    dict(exercise="ex1", kind="numerator uses the last block's max", expect="last block's max",
         id="cost.online-last-block-max",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - block.max()) / z
'''),
    dict(exercise="ex1", kind="never divides by z", expect="not 1",
         id="cost.online-not-normalised",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m)
'''),
    # ---------------------------------------------------------------- ex2 attention step
    dict(exercise="ex2", kind="sum not rescaled", expect="rescale the running sum z",
         id="cost.step-sum-not-rescaled",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="output not rescaled", expect="accumulated output",
         id="cost.step-acc-not-rescaled",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise="ex2", kind="nothing rescaled", expect="neither the running sum",
         id="cost.step-nothing-rescaled",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    p = np.exp(s - m_new[:, None])
    return m_new, z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise="ex2", kind="normalised inside the step", expect="divided acc by the running sum",
         id="cost.step-divided",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    return m_new, z_new, (alpha[:, None] * acc + p @ v) / z_new[:, None]
'''),
    dict(exercise="ex2", kind="weights relative to the old max", expect="relative to the old max",
         id="cost.step-old-max",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="block max instead of running max", expect="not the running max",
         id="cost.step-block-max",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = s.max(axis=-1)
    p = np.exp(s - m_new[:, None])
    return m_new, z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise="ex2", kind="returns the output", expect="(m_new, z_new, acc_new)",
         id="generic.not-a-tuple",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    return (alpha[:, None] * acc + p @ v) / z_new[:, None]
'''),
    dict(exercise="ex2", kind="library attention_step", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers.streaming import attention_step

def my_attention_step(m, z, acc, s, v):
    return attention_step(m, z, acc, s, v)
'''),
    dict(exercise="ex2", kind="acc updated in place", expect="changed its argument `acc` in place",
         id="generic.input-modified",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    acc *= alpha[:, None]
    acc += p @ v
    return m_new, alpha * z + p.sum(axis=-1), acc
'''),
    dict(exercise="ex2", kind="rescale factor inverted", expect="the wrong way round",
         id="cost.step-rescale-inverted",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m_new - m)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="block weights without max subtracted", expect="no max subtracted",
         id="cost.step-unshifted",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s)
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="alpha broadcast along d_v", expect="column by column",
         id="cost.step-alpha-columns",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha * acc + p @ v
'''),
    dict(exercise="ex2", kind="acc returned as (d_v, T_q)", expect="transposed",
         id="cost.step-acc-transposed",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), (alpha[:, None] * acc + p @ v).T
'''),
    dict(exercise="ex2", kind="one max for all queries", expect="one number for all queries",
         id="cost.step-one-max",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = max(m.max(), s.max())
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new)
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="old acc dropped", expect="only this block",
         id="cost.step-acc-restarted",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), p @ v
'''),
    # ---------------------------------------------------------------- ex3 KV-cache append
    dict(exercise="ex3", kind="appended along the head axis", expect="head axis",
         id="cost.cache-cat-wrong-axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=1), torch.cat([cache_v, v_new], dim=1)
'''),
    dict(exercise="ex3", kind="appended along the feature axis", expect="feature axis",
         id="cost.cache-cat-wrong-axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=-1), torch.cat([cache_v, v_new], dim=-1)
'''),
    dict(exercise="ex3", kind="appended along the batch axis", expect="batch axis",
         id="cost.cache-cat-wrong-axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=0), torch.cat([cache_v, v_new], dim=0)
'''),
    dict(exercise="ex3", kind="new positions first", expect="position order",
         id="cost.cache-new-first",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([k_new, cache_k], dim=-2), torch.cat([v_new, cache_v], dim=-2)
'''),
    dict(exercise="ex3", kind="past forgotten", expect="forgot the cached ones",
         id="cost.cache-past-forgotten",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    return k_new, v_new
'''),
    dict(exercise="ex3", kind="keys and values swapped", expect="swapped",
         id="cost.cache-k-v-swapped",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return v_new, k_new
    return torch.cat([cache_v, v_new], dim=-2), torch.cat([cache_k, k_new], dim=-2)
'''),
    dict(exercise="ex3", kind="empty cache not handled", expect="None",
         id="cost.cache-empty-not-handled",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    return torch.cat([cache_k, k_new], dim=-2), torch.cat([cache_v, v_new], dim=-2)
'''),
    dict(exercise="ex3", kind="library KVCache", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers.heads import KVCache

def my_cache_append(cache_k, cache_v, k_new, v_new):
    cache = KVCache()
    cache.k, cache.v = cache_k, cache_v
    return cache.append(k_new, v_new)
'''),
    dict(exercise="ex3", kind="stacked instead of concatenated", expect="torch.stack",
         id="cost.cache-stacked",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.stack([cache_k, k_new]), torch.stack([cache_v, v_new])
'''),
    dict(exercise="ex3", kind="cache returned unchanged", expect="returned the cache unchanged",
         id="cost.cache-unchanged",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return cache_k, cache_v
'''),
    dict(exercise="ex3", kind="fixed-size cache drops the oldest", expect="which is T_past",
         id="generic.wrong-size",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    T = cache_k.shape[-2]
    k_all, v_all = torch.cat([cache_k, k_new], -2), torch.cat([cache_v, v_new], -2)
    return k_all[..., -T:, :], v_all[..., -T:, :]
'''),
    dict(exercise="ex3", kind="empty cache returns None", expect="returned None",
         id="generic.none",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return cache_k, cache_v
    return torch.cat([cache_k, k_new], dim=-2), torch.cat([cache_v, v_new], dim=-2)
'''),
    dict(exercise="ex3", kind="new keys appended to the values",
         expect="k_new into the value cache",
         id="cost.cache-other-new",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=-2), torch.cat([cache_v, k_new], dim=-2)
'''),
    # ---------------------------------------------------------------- ex4 sliding window
    dict(exercise="ex4", kind="window excludes the diagonal", expect="excludes the diagonal",
         id="cost.window-excludes-diagonal",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j < i) & (j >= i - window)
'''),
    dict(exercise="ex4", kind="window looks ahead", expect="looks ahead",
         id="cost.window-looks-ahead",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return np.abs(i - j) < window
'''),
    dict(exercise="ex4", kind="window only in the future", expect="looks only ahead",
         id="cost.window-only-future",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j >= i) & (j < i + window)
'''),
    dict(exercise="ex4", kind="one key too many", expect="one too many",
         id="cost.window-one-too-many",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j <= i) & (j >= i - window)
'''),
    dict(exercise="ex4", kind="plain causal mask", expect="window is missing",
         id="cost.window-plain-causal",
         code='''def my_sliding_window_mask(T, window):
    return np.tril(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex4", kind="inverted", expect="inverted",
         id="cost.window-inverted",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return ~((j <= i) & (i - j < window))
'''),
    dict(exercise="ex4", kind="0/1 integers", expect="boolean",
         id="cost.window-not-boolean",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return ((j <= i) & (i - j < window)).astype(int)
'''),
    dict(exercise="ex4", kind="library sliding_window_mask", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers.masks import sliding_window_mask

def my_sliding_window_mask(T, window):
    return sliding_window_mask(T, window)
'''),
    dict(exercise="ex4", kind="one key too few", expect="one too few",
         id="cost.window-one-too-few",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j <= i) & (i - j < window - 1)
'''),
    dict(exercise="ex4", kind="size hard-coded", expect="from the argument T",
         id="cost.window-shape",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(8)[:, None], np.arange(8)[None, :]
    return (j <= i) & (i - j < window)
'''),
    dict(exercise="ex4", kind="window counted from the end", expect="does not keep its own",
         id="cost.window-excludes-diagonal",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j <= i) & (j >= T - window)
'''),
    dict(exercise="ex4", kind="window clipped to T - 1", expect="it should keep",
         id="cost.window-wrong-count",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j <= i) & (i - j < min(window, T - 1))
'''),
    dict(exercise="ex4", kind="itself and the first keys (a sink)", expect="most recent",
         id="cost.window-not-recent",
         code='''def my_sliding_window_mask(T, window):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j == i) | ((j < i) & (j < window - 1))
'''),
    dict(exercise="ex4", kind="torch float mask", expect="boolean",
         id="cost.window-not-boolean",
         code='''def my_sliding_window_mask(T, window):
    ones = torch.ones(T, T)
    return torch.tril(ones) * torch.triu(ones, diagonal=1 - window)
'''),
    # ---------------------------------------------------------------- ex5 top-k gates
    dict(exercise="ex5", kind="softmax over all experts", expect="renormalises over the chosen",
         id="cost.gates-softmax-over-all",
         code='''def my_top_k_gates(logits, k):
    probs = torch.softmax(logits, dim=-1)
    values, experts = probs.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, values)
'''),
    dict(exercise="ex5", kind="dense softmax", expect="dense softmax",
         id="cost.gates-dense",
         code='''def my_top_k_gates(logits, k):
    return torch.softmax(logits, dim=-1)
'''),
    dict(exercise="ex5", kind="smallest logits", expect="smallest",
         id="cost.gates-smallest",
         code='''def my_top_k_gates(logits, k):
    values, experts = (-logits).topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(-values, dim=-1))
'''),
    dict(exercise="ex5", kind="raw logits as gates", expect="raw logits",
         id="cost.gates-raw-logits",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, values)
'''),
    dict(exercise="ex5", kind="gates all 1", expect="gate 1",
         id="cost.gates-all-one",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.ones_like(values))
'''),
    dict(exercise="ex5", kind="only chosen gates", expect="experts not chosen",
         id="cost.gates-shape",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.softmax(values, dim=-1)
'''),
    dict(exercise="ex5", kind="library top_k_routing", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers.blocks import top_k_routing

def my_top_k_gates(logits, k):
    return top_k_routing(logits, k).dense_gates()
'''),
    dict(exercise="ex5", kind="softmax by hand without the max", expect="overflowed",
         id="cost.gates-not-finite",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    e = torch.exp(values)
    return torch.zeros_like(logits).scatter(-1, experts, e / e.sum(-1, keepdim=True))
'''),
    dict(exercise="ex5", kind="gates at the first k experts", expect="not at the chosen experts",
         id="cost.gates-first-experts",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    gates = torch.zeros_like(logits)
    gates[:, :k] = torch.softmax(values, dim=-1)
    return gates
'''),
    dict(exercise="ex5", kind="uniform gates", expect="1/k",
         id="cost.gates-uniform",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.full_like(values, 1 / k))
'''),
    dict(exercise="ex5", kind="logits masked in place", expect="in place",
         id="generic.input-modified",
         code='''def my_top_k_gates(logits, k):
    kth = logits.topk(k, dim=-1).values[:, -1:]
    logits[logits < kth] = float("-inf")
    return torch.softmax(logits, dim=-1)
'''),
    dict(exercise="ex5", kind="k ignored, argmax only", expect="exactly k=2",
         id="cost.gates-k-ignored",
         code='''def my_top_k_gates(logits, k):
    return torch.zeros_like(logits).scatter(-1, logits.argmax(-1, keepdim=True), 1.0)
'''),
    dict(exercise="ex5", kind="strict threshold drops the k-th", expect="exactly k=2",
         id="cost.gates-wrong-count",
         code='''def my_top_k_gates(logits, k):
    kth = logits.topk(k, dim=-1).values[:, -1:]
    return torch.softmax(logits.masked_fill(logits <= kth, float("-inf")), dim=-1)
'''),
    # ---------------------------------------------------------------- held-out answers (round 2)
    dict(exercise='ex1', kind='held-out a: rescale sign flipped',
         expect='exp(m_new - m)',
         id="cost.online-rescale-inverted",
         code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    m, z = -np.inf, 0.0
    for i in range(0, len(x), block_size):
        block = x[i:i + block_size]
        m_new = max(m, block.max())
        if z > 0:
            z = z * np.exp(m_new - m)
        z = z + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise='ex1', kind='held-out a: drops the last partial block',
         expect='partial block',
         id="cost.online-drops-last-block",
         code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    m, z = -np.inf, 0.0
    for b in range(len(x) // block_size):
        block = x[b * block_size:(b + 1) * block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise='ex1', kind='held-out a: block max not running max',
         expect='running max',
         id="cost.online-block-max",
         code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    m, z = -np.inf, 0.0
    for i in range(0, len(x), block_size):
        block = x[i:i + block_size]
        m_new = block.max()
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise='ex1', kind='held-out a: rescale after adding',
         expect='before adding',
         id="cost.online-rescale-after-add",
         code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    m, z = -np.inf, 0.0
    for i in range(0, len(x), block_size):
        block = x[i:i + block_size]
        m_new = max(m, block.max())
        z = ((z + np.exp(block - m_new).sum()) * np.exp(m - m_new) if z > 0
             else np.exp(block - m_new).sum())
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise='ex2', kind='held-out a: acc not rescaled',
         expect='rescale acc',
         id="cost.step-acc-not-rescaled",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise='ex2', kind='held-out a: z not rescaled',
         expect='rescale z',
         id="cost.step-sum-not-rescaled",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise='ex2', kind='held-out a: max over queries axis',
         expect='axis',
         id="cost.step-max-over-queries",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.maximum(m, s.max(axis=0))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise='ex2', kind='held-out a: m_new without [:, None]',
         expect='broadcast',
         id="cost.step-m-along-keys",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new)
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise='ex2', kind='held-out a: masked scores set to 0',
         expect='masked',
         id="cost.step-masked-weight",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    s = np.where(np.isinf(s), 0.0, s)
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise='ex2', kind='held-out a: tuple order swapped',
         expect='order',
         id="generic.tuple-order",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, acc_new, z_new
'''),
    dict(exercise='ex3', kind='held-out a: keys appended to values',
         expect='v_new',
         id="cost.cache-other-new",
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all)."""
    if cache_k is None:
        return k_new, v_new
    k_all = torch.cat([cache_k, k_new], dim=-2)
    v_all = torch.cat([cache_v, k_new], dim=-2)
    return k_all, v_all
'''),
    dict(exercise='ex4', kind='held-out a: negative slice start',
         expect='negative',
         id="cost.window-negative-start",
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        mask[i, i - window + 1:i + 1] = True
    return mask
'''),
    dict(exercise='ex4', kind='held-out a: hard-coded window 4',
         expect='window argument',
         id="cost.window-ignored",
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j >= 0) & (i - j < 4)
'''),
    dict(exercise='ex5', kind='held-out a: kthvalue threshold',
         expect='kthvalue',
         id="cost.gates-kthvalue",
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    threshold = torch.kthvalue(logits, k, dim=-1).values
    keep = logits >= threshold[:, None]
    return torch.softmax(logits.masked_fill(~keep, float("-inf")), dim=-1)
'''),
    dict(exercise='ex5', kind='held-out a: hard-coded k=2',
         expect='hard-coded',
         id="cost.gates-k-ignored",
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    values, experts = logits.topk(2, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=-1))
'''),
    dict(exercise='ex5', kind='held-out a: threshold keeps ties',
         expect='tie',
         id="cost.gates-wrong-count",
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    kth = logits.topk(k, dim=-1).values[:, -1:]
    return torch.softmax(logits.masked_fill(logits < kth, float("-inf")), dim=-1)
'''),
    dict(exercise='ex1', kind='held-out b: remainder block dropped',
         expect='partial',
         id="cost.online-drops-last-block",
         code='''import numpy as np


def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for b in range(len(x) // block_size):
        block = x[b * block_size:(b + 1) * block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise='ex1', kind='held-out b: m starts at 0',
         expect='-inf',
         id="cost.online-m-from-zero",
         code='''import numpy as np


def my_online_softmax(x, block_size):
    m, z = 0.0, 0.0
    for start in range(0, len(x), block_size):
        block = x[start:start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise='ex1', kind='held-out b: max taken up front',
         expect='one pass',
         id="cost.online-reads-whole-row",
         code='''import numpy as np


def my_online_softmax(x, block_size):
    m = x.max()
    z = 0.0
    for start in range(0, len(x), block_size):
        z += np.exp(x[start:start + block_size] - m).sum()
    return np.exp(x - m) / z
'''),
    dict(exercise='ex1', kind="held-out b: last block's max",
         expect='running max m',
         id="cost.online-last-block-max",
         code='''import numpy as np


def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start:start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - block.max()) / z
'''),
    dict(exercise='ex2', kind='held-out b: acc not rescaled',
         expect='acc is not rescaled',
         id="cost.step-acc-not-rescaled",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise='ex2', kind='held-out b: z not rescaled',
         expect='z is not rescaled',
         id="cost.step-sum-not-rescaled",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise='ex2', kind='held-out b: max over queries',
         expect='each query',
         id="cost.step-one-max",
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=0).max())
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise='ex3', kind='held-out b: new first',
         expect='old positions first',
         id="cost.cache-new-first",
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([k_new, cache_k], dim=-2), torch.cat([v_new, cache_v], dim=-2)
'''),
    dict(exercise='ex4', kind='held-out b: window plus one',
         expect='off by one',
         id="cost.window-one-too-many",
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j >= 0) & (i - j <= window)
'''),
    dict(exercise='ex5', kind='held-out b: zero instead of -inf',
         expect='-inf',
         id="cost.gates-zero-not-inf",
         code='''import torch


def my_top_k_gates(logits, k):
    _, experts = logits.topk(k, dim=-1)
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, experts, True)
    return torch.softmax(torch.where(keep, logits, torch.zeros_like(logits)), dim=-1)
'''),
    dict(exercise='ex5', kind='held-out b: softmax over tokens',
         expect='each row',
         id="cost.gates-softmax-over-tokens",
         code='''import torch


def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=0))
'''),
    dict(exercise='ex2', kind='m_new as a row vector', expect='[:, None]',
         id="cost.step-m-along-keys",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    p = np.exp(s - m_new.reshape(1, -1))
    a = np.exp(m - m_new)
    return m_new, a * z + p.sum(-1), a[:, None] * acc + p @ v
'''),
    # ------------------------------------------------- diagnoses no entry above reaches
    dict(exercise="ex1", kind="log-softmax: the final exp forgotten", expect="negative",
         id="cost.online-negative",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return x - m - np.log(z)
'''),
    dict(exercise="ex1", kind="running max started at +inf", expect="NaN or inf",
         id="cost.online-not-finite",
         code='''def my_online_softmax(x, block_size):
    m, z = np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="asserts that block_size divides len(x)", expect="must divide",
         id="generic.own-assert",
         code='''def my_online_softmax(x, block_size):
    assert len(x) % block_size == 0, "block_size must divide len(x)"
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex2", kind="returns the old m", expect="the old running max",
         id="cost.step-m-unchanged",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m, z_new, acc_new
'''),
    dict(exercise="ex2", kind="returns the old z", expect="the old z",
         id="cost.step-z-unchanged",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z, acc_new
'''),
    dict(exercise="ex2", kind="returns the old acc", expect="the old acc",
         id="cost.step-acc-unchanged",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc
'''),
    dict(exercise="ex2", kind="block terms summed over the queries", expect="wrong axis",
         id="cost.step-broadcast",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=0)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex3", kind="np.concatenate instead of torch.cat", expect="torch tensors",
         id="cost.cache-not-a-tensor",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return (np.concatenate([cache_k, k_new], axis=-2),
            np.concatenate([cache_v, v_new], axis=-2))
'''),
    dict(exercise="ex3", kind="(B*H, T, d) with the example's sizes hard-coded",
         expect="TinyGPT failed while decoding",
         id="cost.cache-model-failed",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    # join the positions as (B*H, T, d), then back: B = 2, H = 3, d_head = 4
    k_all = torch.cat([cache_k.reshape(6, -1, 4), k_new.reshape(6, -1, 4)], dim=1)
    v_all = torch.cat([cache_v.reshape(6, -1, 4), v_new.reshape(6, -1, 4)], dim=1)
    return k_all.reshape(2, 3, -1, 4), v_all.reshape(2, 3, -1, 4)
'''),
    dict(exercise="ex3", kind="axis where the sizes differ, else dim 0", expect="batch axis",
         id="cost.cache-batch-axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    # join along the axis where the two sizes differ: the positions
    differ = [i for i, (a, b) in enumerate(zip(cache_k.shape, k_new.shape)) if a != b]
    dim = differ[0] if differ else 0
    return torch.cat([cache_k, k_new], dim=dim), torch.cat([cache_v, v_new], dim=dim)
'''),
    dict(exercise="ex3", kind="axis where the sizes differ, else dim 1 as in (B, T, d)",
         expect="head axis",
         id="cost.cache-head-axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    dim = 1  # positions, as in a (B, T, d) sequence
    for i, (a, b) in enumerate(zip(cache_k.shape, k_new.shape)):
        if a != b:
            dim = i
    return torch.cat([cache_k, k_new], dim=dim), torch.cat([cache_v, v_new], dim=dim)
'''),
    dict(exercise="ex3", kind="axis where the sizes differ, else the last axis",
         expect="feature axis",
         id="cost.cache-feature-axis",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    differ = [i for i in range(cache_k.ndim) if cache_k.shape[i] != k_new.shape[i]]
    dim = differ[0] if differ else -1
    return torch.cat([cache_k, k_new], dim=dim), torch.cat([cache_v, v_new], dim=dim)
'''),
    dict(exercise="ex4", kind="i - j >= window: the old keys kept", expect="the wrong way round",
         id="cost.window-old-keys",
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (j <= i) & (i - j >= window)
'''),
    dict(exercise="ex5", kind="log_softmax gates", expect="negative",
         id="cost.gates-negative",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    gates = torch.zeros_like(logits)
    return gates.scatter(-1, experts, torch.log_softmax(values, dim=-1))
'''),
    dict(exercise="ex5", kind="sigmoid gates, not normalised", expect="not 1",
         id="cost.gates-not-normalised",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.sigmoid(values))
'''),
    dict(exercise="ex5", kind="sorted indices sliced from 1 (off by one)", expect="largest logits",
         id="cost.gates-wrong-experts",
         code='''def my_top_k_gates(logits, k):
    experts = logits.argsort(dim=-1, descending=True)[:, 1 : k + 1]
    gates = torch.softmax(logits.gather(-1, experts), dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, gates)
'''),
    # ------------------------------------------ core's generic diagnoses, as lesson 09 gets them
    dict(exercise="ex1", kind="a generator instead of an array",
         expect="expected an array of numbers",
         id="generic.not-an-array",
         code='''def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return (np.exp(x_j - m) / z for x_j in x)
'''),
    dict(exercise="ex2", kind="m and z kept as columns (T_q, 1)", expect="extra axis",
         id="generic.axis-extra",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m[:, None], s.max(axis=-1, keepdims=True))   # (T_q, 1)
    alpha = np.exp(m[:, None] - m_new)
    p = np.exp(s - m_new)
    return m_new, alpha * z[:, None] + p.sum(axis=-1, keepdims=True), alpha * acc + p @ v
'''),
    dict(exercise="ex2", kind="rescale factor as a ratio of exps", expect="NaN",
         id="generic.nan",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m) / np.exp(m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="the factor on the new terms instead of the old z and acc",
         expect="wrong values",
         id="generic.wrong-values",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, z + alpha * p.sum(axis=-1), acc + alpha[:, None] * (p @ v)
'''),
    dict(exercise="ex2", kind="acc: the factor on the new terms instead of the old acc",
         expect="below the diagonal are right",
         id="generic.right-in-triangle",
         code='''def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), acc + alpha[:, None] * (p @ v)
'''),
    dict(exercise="ex3", kind="returned in (B, T, H, d) layout", expect="axes in the wrong order",
         id="generic.axes-swapped",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    # positions on dim 1, as in a (B, T, H, d) layout
    k_all = torch.cat([cache_k.transpose(1, 2), k_new.transpose(1, 2)], dim=1)
    v_all = torch.cat([cache_v.transpose(1, 2), v_new.transpose(1, 2)], dim=1)
    return k_all, v_all
'''),
    dict(exercise="ex3", kind="to (B, T, H, d) by transpose, back by reshape",
         expect="needs a transpose",
         id="generic.reshape-not-transpose",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    B, H, _, d = k_new.shape
    k_all = torch.cat([cache_k.transpose(1, 2), k_new.transpose(1, 2)], dim=1)  # (B, T, H, d)
    v_all = torch.cat([cache_v.transpose(1, 2), v_new.transpose(1, 2)], dim=1)
    return k_all.reshape(B, H, -1, d), v_all.reshape(B, H, -1, d)
'''),
    dict(exercise="ex3", kind="(B, T, H, d) by reshape instead of transpose",
         expect="the right numbers, but in the wrong places",
         id="generic.same-numbers-other-places",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    B, H, _, d = k_new.shape
    k_all = torch.cat([cache_k.reshape(B, -1, H, d), k_new.reshape(B, -1, H, d)], dim=1)
    v_all = torch.cat([cache_v.reshape(B, -1, H, d), v_new.reshape(B, -1, H, d)], dim=1)
    return k_all.reshape(B, H, -1, d), v_all.reshape(B, H, -1, d)
'''),
    dict(exercise="ex3", kind="(B*H, T, d) never reshaped back", expect="reshaped",
         id="generic.wrong-shape-same-values",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    B, H, _, d = k_new.shape
    k_all = torch.cat([cache_k.reshape(B * H, -1, d), k_new.reshape(B * H, -1, d)], dim=1)
    v_all = torch.cat([cache_v.reshape(B * H, -1, d), v_new.reshape(B * H, -1, d)], dim=1)
    return k_all, v_all
'''),
    dict(exercise="ex3", kind="cache kept as one flat tensor", expect="expected shape",
         id="generic.wrong-shape",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return (torch.cat([cache_k.flatten(), k_new.flatten()]),
            torch.cat([cache_v.flatten(), v_new.flatten()]))
'''),
    dict(exercise="ex3", kind="only the newest position returned, its axis indexed away",
         expect="kept only the last entry",
         id="generic.axis-reduced",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    k_all = torch.cat([cache_k, k_new], dim=-2)
    v_all = torch.cat([cache_v, v_new], dim=-2)
    return k_all[:, :, -1], v_all[:, :, -1]
'''),
    dict(exercise="ex3", kind="preallocated buffer, new positions written one slot early",
         expect="are right and",
         id="generic.partly-right",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    B, H, T_past, d = cache_k.shape
    T = T_past + k_new.shape[-2]
    k_all, v_all = torch.zeros(B, H, T, d), torch.zeros(B, H, T, d)
    k_all[:, :, :T_past], v_all[:, :, :T_past] = cache_k, cache_v
    # the cache ends at index T_past - 1: continue from there
    k_all[:, :, T_past - 1 : T - 1], v_all[:, :, T_past - 1 : T - 1] = k_new, v_new
    return k_all, v_all
'''),
    dict(exercise="ex3", kind="preallocated buffer of integers", expect="whole numbers",
         id="generic.whole-numbers",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    B, H, T_past, d = cache_k.shape
    T = T_past + k_new.shape[-2]
    k_all = torch.zeros(B, H, T, d, dtype=int)
    v_all = torch.zeros(B, H, T, d, dtype=int)
    k_all[:, :, :T_past], k_all[:, :, T_past:] = cache_k, k_new
    v_all[:, :, :T_past], v_all[:, :, T_past:] = cache_v, v_new
    return k_all, v_all
'''),
    dict(exercise="ex4", kind="ragged rows: row i built over keys 0..i only",
         expect="could not use your result",
         id="generic.unusable-result",
         code='''def my_sliding_window_mask(T, window):
    return [[i - j < window for j in range(i + 1)] for i in range(T)]
'''),
    dict(exercise="ex4", kind="column of positions reshaped to the example's 8",
         expect="hard-coded",
         id="generic.hard-coded-size",
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T).reshape(8, 1)
    j = np.arange(T).reshape(1, 8)
    return (j <= i) & (i - j < window)
'''),
    dict(exercise="ex5", kind="the function's name reused for a try-out result",
         expect="pass your function itself",
         id="generic.not-a-function",
         code='''def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=-1))


my_top_k_gates = my_top_k_gates(torch.tensor([[0.0, 3.0, 1.0, 2.0]]), 2)  # try it
'''),
]
