"""Held-out answers for exercises/09_cost.ipynb, written from the exercise texts alone."""

WRONG = [
    # ------------------------------------------------------------------ ex1: online softmax
    dict(exercise="ex1", kind="no rescaling", mistake="adds each block's terms to z without first multiplying z by exp(m - m_new) when the max grows",
         names=["without rescaling", "not rescaled", "never rescale", "forgot to rescale", "rescale z"],
         code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    m, z = -np.inf, 0.0
    for i in range(0, len(x), block_size):
        block = x[i:i + block_size]
        m_new = max(m, block.max())
        z = z + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="rescale sign flipped", mistake="rescales the old sum by exp(m_new - m) instead of exp(m - m_new), skipping the first block to avoid inf",
         names=["exp(m_new - m)", "sign", "inverted", "upside down", "wrong direction"],
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
    dict(exercise="ex1", kind="drops the last partial block", mistake="loops over len(x) // block_size full blocks only, so the tail is never read when block_size does not divide the length",
         names=["last block", "partial block", "does not divide", "remainder", "tail"],
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
    dict(exercise="ex1", kind="block max not running max", mistake="sets m to the current block's max instead of the larger of m and the block's max, so a later smaller block overflows the rescaling",
         names=["running max", "larger of m", "max(m,", "block's max", "overflow"],
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
    dict(exercise="ex1", kind="no max subtracted", mistake="sums exp(x_j) directly without subtracting any max, which overflows for large scores",
         names=["subtract the max", "overflow", "large scores", "unstable", "exp(x - m)"],
         code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    z = 0.0
    for i in range(0, len(x), block_size):
        z = z + np.exp(x[i:i + block_size]).sum()
    return np.exp(x) / z
'''),
    dict(exercise="ex1", kind="rescale after adding", mistake="adds the block's terms first and then multiplies the whole sum, new terms included, by exp(m - m_new)",
         names=["before adding", "order", "new terms", "after adding", "the block's terms"],
         code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    m, z = -np.inf, 0.0
    for i in range(0, len(x), block_size):
        block = x[i:i + block_size]
        m_new = max(m, block.max())
        z = (z + np.exp(block - m_new).sum()) * np.exp(m - m_new) if z > 0 else np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="overwrites x in place", mistake="computes the result in place in the caller's array x, destroying the input scores",
         names=["in place", "modifies x", "your input", "overwrit", "changed x"],
         code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    m, z = -np.inf, 0.0
    for i in range(0, len(x), block_size):
        block = x[i:i + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    x -= m
    np.exp(x, out=x)
    x /= z
    return x
'''),
    dict(exercise="ex1", kind="calls the helper", mistake="calls the course's helpers.streaming.online_softmax under an alias instead of writing the loop",
         names=["helpers.streaming", "online_softmax", "the helper", "yourself", "library"],
         code='''from helpers.streaming import online_softmax as stream_sm


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    return stream_sm(x, block_size)
'''),

    # ------------------------------------------------------------------ ex2: attention step
    dict(exercise="ex2", kind="acc not rescaled", mistake="multiplies z by exp(m - m_new) but forgets to rescale acc",
         names=["rescale acc", "acc is not rescaled", "both z and acc", "acc by", "rescale both"],
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
    dict(exercise="ex2", kind="z not rescaled", mistake="rescales acc by exp(m - m_new) but adds the block's weights to z without rescaling it",
         names=["rescale z", "z is not rescaled", "both z and acc", "z by", "rescale both"],
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
    dict(exercise="ex2", kind="divides acc by z", mistake="returns the normalised output acc / z instead of the unnormalised running sum",
         names=["do not divide", "divided", "normalis", "normaliz", "acc / z"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = (alpha[:, None] * acc + p @ v) / z_new[:, None]
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="max over queries axis", mistake="takes the block's max over axis 0 (over the queries) instead of over each query's keys",
         names=["axis", "over the keys", "per query", "each query's", "s.max(axis=0)"],
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
    dict(exercise="ex2", kind="m_new without [:, None]", mistake="subtracts m_new from s without adding a key axis, so it broadcasts along the keys (and only runs when T_q == B)",
         names=["broadcast", "[:, None]", "m_new[:, none]", "key axis", "along the keys"],
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
    dict(exercise="ex2", kind="block max only", mistake="sets m_new to the block's max alone, ignoring the running max m, so the returned max is wrong and a fully masked block gives nan",
         names=["larger of m", "running max", "np.maximum", "max(m,", "ignores m"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = s.max(axis=-1)
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="masked scores set to 0", mistake="replaces the -inf of masked keys by 0 to avoid nan, so masked keys get weight exp(0 - m_new)",
         names=["masked", "-inf", "weight to masked keys", "mask"],
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
    dict(exercise="ex2", kind="exp before subtracting", mistake="computes exp(s) / exp(m_new) and exp(m) / exp(m_new) separately, which overflows for large scores",
         names=["overflow", "large scores", "unstable", "exp(s - m_new)", "inf"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m) / np.exp(m_new)
    p = np.exp(s) / np.exp(m_new)[:, None]
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="tuple order swapped", mistake="returns (m_new, acc_new, z_new) instead of (m_new, z_new, acc_new)",
         names=["order", "(m_new, z_new, acc_new)", "swapped", "tuple"],
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

    # ------------------------------------------------------------------ ex3: KV-cache append
    dict(exercise="ex3", kind="cat on feature axis", mistake="concatenates along the last axis (d_head) instead of the position axis -2",
         names=["dim=-1", "last axis", "feature", "d_head", "position axis"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=-1), torch.cat([cache_v, v_new], dim=-1)
'''),
    dict(exercise="ex3", kind="cat on head axis", mistake="concatenates along dim=1, as if the layout were (B, T, ...), which is the head axis here",
         names=["dim=1", "head axis", "heads", "axis 1", "position axis"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=1), torch.cat([cache_v, v_new], dim=1)
'''),
    dict(exercise="ex3", kind="cat default dim 0", mistake="calls torch.cat without dim, which concatenates along the batch axis",
         names=["dim=0", "batch axis", "batch", "default dim", "position axis"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new]), torch.cat([cache_v, v_new])
'''),
    dict(exercise="ex3", kind="new positions first", mistake="puts the new positions before the old ones",
         names=["old positions first", "order", "new first", "before the old", "[old, new]"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    if cache_k is None:
        return k_new, v_new
    return torch.cat([k_new, cache_k], dim=-2), torch.cat([v_new, cache_v], dim=-2)
'''),
    dict(exercise="ex3", kind="None not handled", mistake="never checks for an empty cache, so the first call passes None to torch.cat",
         names=["is none", "empty cache", "first call", "no cache yet", "cache is none"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    k_all = torch.cat([cache_k, k_new], dim=-2)
    v_all = torch.cat([cache_v, v_new], dim=-2)
    return k_all, v_all
'''),
    dict(exercise="ex3", kind="keys appended to values", mistake="copy-paste slip: the value cache gets the new keys appended instead of the new values",
         names=["v_new", "k_new into", "keys into the value", "values", "copy"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    if cache_k is None:
        return k_new, v_new
    k_all = torch.cat([cache_k, k_new], dim=-2)
    v_all = torch.cat([cache_v, k_new], dim=-2)
    return k_all, v_all
'''),
    dict(exercise="ex3", kind="returns (v, k)", mistake="returns the tuple in the wrong order, values first",
         names=["order", "(k_all, v_all)", "swapped", "values first", "tuple"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    if cache_k is None:
        return v_new, k_new
    return torch.cat([cache_v, v_new], dim=-2), torch.cat([cache_k, k_new], dim=-2)
'''),
    dict(exercise="ex3", kind="fixed-length cache", mistake="trims the result back to the old cache length, dropping the oldest positions instead of growing the cache",
         names=["T_past + T_new", "drops", "oldest", "grow", "trim"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    if cache_k is None:
        return k_new, v_new
    T = cache_k.shape[-2]
    k_all = torch.cat([cache_k, k_new], dim=-2)[..., -T:, :]
    v_all = torch.cat([cache_v, v_new], dim=-2)[..., -T:, :]
    return k_all, v_all
'''),

    # ------------------------------------------------------------------ ex4: sliding window
    dict(exercise="ex4", kind="window + 1 keys", mistake="allows i - j <= window, so each query reads window + 1 keys",
         names=["off by one", "off-by-one", "window + 1", "window+1", "one key too many"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j >= 0) & (i - j <= window)
'''),
    dict(exercise="ex4", kind="query excluded", mistake="lets query i read the window keys before it, i - window <= j < i, but not itself",
         names=["itself", "diagonal", "counts as one", "j <= i", "query's own"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j > 0) & (i - j <= window)
'''),
    dict(exercise="ex4", kind="symmetric band", mistake="uses |i - j| < window, a band that also allows keys after the query",
         names=["future", "after i", "causal", "abs", "symmetric"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return np.abs(i - j) < window
'''),
    dict(exercise="ex4", kind="transposed", mistake="compares j - i instead of i - j, giving the transposed (upper-triangular, future-looking) band",
         names=["transpose", "j - i", "upper", "future", "rows and columns"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (j - i >= 0) & (j - i < window)
'''),
    dict(exercise="ex4", kind="float dtype", mistake="builds the right pattern with np.tril/np.triu on ones, but returns a float array instead of booleans",
         names=["bool", "dtype", "float", "boolean"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    return np.tril(np.triu(np.ones((T, T)), -(window - 1)))
'''),
    dict(exercise="ex4", kind="negative slice start", mistake="fills each row with a slice starting at i - window + 1, which wraps around (and empties the row) when that start is negative",
         names=["negative", "wrap", "first rows", "max(0", "early rows"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        mask[i, i - window + 1:i + 1] = True
    return mask
'''),
    dict(exercise="ex4", kind="hard-coded window 4", mistake="uses the lesson's example window of 4 instead of the window argument",
         names=["window argument", "hard-coded", "ignores window", "window=4", "hardcoded"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j >= 0) & (i - j < 4)
'''),
    dict(exercise="ex4", kind="calls the helper", mistake="calls the course's helpers.masks.sliding_window_mask under an alias instead of writing it",
         names=["helpers.masks", "sliding_window_mask", "the helper", "yourself", "library"],
         code='''from helpers.masks import sliding_window_mask as swm


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    return swm(T, window)
'''),

    # ------------------------------------------------------------------ ex5: top-k gates
    dict(exercise="ex5", kind="softmax over all experts", mistake="takes the softmax over all n_experts logits and zeroes the others, so the kept gates do not sum to 1",
         names=["sum to 1", "renormal", "over the k", "all experts", "k chosen"],
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    probs = torch.softmax(logits, dim=-1)
    _, experts = logits.topk(k, dim=-1)
    gates = torch.zeros_like(probs)
    return gates.scatter(-1, experts, probs.gather(-1, experts))
'''),
    dict(exercise="ex5", kind="topk over tokens", mistake="calls topk along dim 0, picking the best tokens for each expert instead of the best experts for each token",
         names=["dim=0", "axis", "each row", "per token", "dim=-1"],
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    values, tokens = logits.topk(k, dim=0)
    gates = torch.zeros_like(logits)
    gates.scatter_(0, tokens, torch.softmax(values, dim=0))
    return gates
'''),
    dict(exercise="ex5", kind="smallest k", mistake="sorts ascending and keeps the first k, i.e. the k smallest logits",
         names=["smallest", "largest", "ascending", "descending", "lowest"],
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    experts = logits.argsort(dim=-1)[:, :k]
    values = logits.gather(-1, experts)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=-1))
'''),
    dict(exercise="ex5", kind="kthvalue threshold", mistake="thresholds at torch.kthvalue(logits, k), which is the k-th smallest logit, so it keeps n_experts - k + 1 experts",
         names=["kthvalue", "k-th smallest", "smallest", "too many experts", "n_experts - k"],
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    threshold = torch.kthvalue(logits, k, dim=-1).values
    keep = logits >= threshold[:, None]
    return torch.softmax(logits.masked_fill(~keep, float("-inf")), dim=-1)
'''),
    dict(exercise="ex5", kind="gates in first k columns", mistake="puts the k softmax gates in the first k columns instead of scattering them to the chosen experts",
         names=["scatter", "chosen experts", "indices", "first k", "wrong experts"],
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    values, experts = logits.topk(k, dim=-1)
    gates = torch.zeros_like(logits)
    gates[:, :k] = torch.softmax(values, dim=-1)
    return gates
'''),
    dict(exercise="ex5", kind="others filled with 0 before softmax", mistake="sets the unchosen logits to 0 instead of -inf before a softmax over all experts, so they keep non-zero gates",
         names=["-inf", "exactly 0", "non-zero", "unchosen", "other experts"],
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    _, experts = logits.topk(k, dim=-1)
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, experts, True)
    return torch.softmax(torch.where(keep, logits, torch.zeros_like(logits)), dim=-1)
'''),
    dict(exercise="ex5", kind="hard-coded k=2", mistake="always routes to 2 experts, ignoring the k argument",
         names=["hard-coded", "ignores k", "k argument", "k=2", "hardcoded"],
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    values, experts = logits.topk(2, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=-1))
'''),
    dict(exercise="ex5", kind="threshold keeps ties", mistake="keeps every logit >= the k-th largest, so tied logits give more than k non-zero gates",
         names=["tie", "more than k", "exactly k", ">="],
         code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    kth = logits.topk(k, dim=-1).values[:, -1:]
    return torch.softmax(logits.masked_fill(logits < kth, float("-inf")), dim=-1)
'''),
]

VALID = [
    dict(exercise="ex1", kind="while loop", code='''import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    x = np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(float)
    m, z, start = -np.inf, 0.0, 0
    while start < x.shape[0]:
        block = x[start:start + block_size]
        m_new = np.maximum(m, np.max(block))
        z = np.exp(m - m_new) * z + np.sum(np.exp(block - m_new))
        m = m_new
        start += block_size
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="per-entry inner loop with math", code='''import math

import numpy as np


def my_online_softmax(x, block_size):
    """(n,) scores, read block_size at a time -> (n,) softmax(x) from a running max and sum."""
    m, z = -math.inf, 0.0
    n = len(x)
    for b in range(math.ceil(n / block_size)):
        block = [float(t) for t in x[b * block_size:min(n, (b + 1) * block_size)]]
        m_new = max([m] + block)
        z *= math.exp(m - m_new)
        for t in block:
            z += math.exp(t - m_new)
        m = m_new
    dtype = np.result_type(np.asarray(x).dtype, np.float32)
    return np.array([math.exp(float(t) - m) / z for t in x], dtype=dtype)
'''),
    dict(exercise="ex2", kind="einsum", code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.max(np.concatenate([m[:, None], s], axis=1), axis=1)
    p = np.exp(s - m_new[:, None])
    alpha = np.exp(m - m_new)
    z_new = z * alpha + np.einsum("qb->q", p)
    acc_new = acc * alpha[:, None] + np.einsum("qb,bd->qd", p, v)
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="loop over queries", code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    """State (T_q,), (T_q,), (T_q, d_v) + block s (T_q, B), v (B, d_v) -> the new state."""
    m_new = np.empty_like(m)
    z_new = np.empty_like(z)
    acc_new = np.empty_like(acc)
    for q in range(s.shape[0]):
        mq = max(m[q], s[q].max())
        w = np.exp(s[q] - mq)
        scale = np.exp(m[q] - mq)
        m_new[q] = mq
        z_new[q] = scale * z[q] + w.sum()
        acc_new[q] = scale * acc[q] + w @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex3", kind="torch.concat dim=2", code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    if cache_k is None or cache_v is None:
        return k_new, v_new
    return torch.concat((cache_k, k_new), dim=2), torch.concat((cache_v, v_new), dim=2)
'''),
    dict(exercise="ex3", kind="preallocate and copy", code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    """(B, H, T_past, d) or None, and (B, H, T_new, d) -> (k_all, v_all), (B, H, T_past + T_new, d)."""
    out = []
    for old, new in ((cache_k, k_new), (cache_v, v_new)):
        if old is None:
            out.append(new)
            continue
        B, H, T_past, d = old.shape
        both = new.new_empty((B, H, T_past + new.shape[2], d))
        both[:, :, :T_past] = old
        both[:, :, T_past:] = new
        out.append(both)
    return out[0], out[1]
'''),
    dict(exercise="ex4", kind="np.tri difference", code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    return np.tri(T, T, 0, dtype=bool) & ~np.tri(T, T, -window, dtype=bool)
'''),
    dict(exercise="ex4", kind="explicit loops with max(0, ...)", code='''import numpy as np


def my_sliding_window_mask(T, window):
    """T, window -> (T, T) bool: row i is True in columns i-window+1..i."""
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(max(0, i - window + 1), i + 1):
            mask[i, j] = True
    return mask
'''),
    dict(exercise="ex5", kind="mask then softmax over all", code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    experts = logits.topk(k, dim=-1).indices
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, experts, True)
    return torch.softmax(logits.masked_fill(~keep, float("-inf")), dim=-1)
'''),
    dict(exercise="ex5", kind="full softmax renormalised", code='''import torch


def my_top_k_gates(logits, k):
    """(N, n_experts) router scores -> (N, n_experts) gates, k non-zero per row, rows sum to 1."""
    probs = torch.softmax(logits, dim=-1)
    top, experts = probs.topk(k, dim=-1)
    gates = torch.zeros_like(probs).scatter(-1, experts, top)
    return gates / gates.sum(dim=-1, keepdim=True)
'''),
]
