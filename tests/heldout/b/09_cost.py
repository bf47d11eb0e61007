"""Held-out answers for exercises/09_cost.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 my_online_softmax
    dict(exercise="ex1", kind="sum not rescaled", mistake="adds each block's terms without multiplying the old sum by exp(m − m_new) when the max grows",
         names=["old sum", "multiply z", "not rescaled", "forgot to rescale"],
         code='''import numpy as np


def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start:start + block_size]
        m_new = max(m, block.max())
        z = z + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="rescale inverted", mistake="multiplies the old sum by exp(m_new − m) instead of exp(m − m_new)",
         names=["exp(m_new - m)", "inverted", "wrong way round", "exp(m_new − m)"],
         code='''import numpy as np


def my_online_softmax(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start:start + block_size]
        m_new = max(m, block.max())
        scale = np.exp(m_new - m) if np.isfinite(m) else 0.0
        z = z * scale + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="remainder block dropped", mistake="loops over len(x) // block_size blocks, so the last partial block is never read",
         names=["partial", "remainder", "every entry", "len(x) // block_size"],
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
    dict(exercise="ex1", kind="m starts at 0", mistake="starts the running max at 0 instead of -inf, so a row of very negative scores underflows to 0 / 0",
         names=["-inf", "−inf", "start from m = -inf", "initial", "m = 0"],
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
    dict(exercise="ex1", kind="max taken up front", mistake="computes the max of the whole row before the loop instead of keeping a running max block by block",
         names=["one pass", "block by block", "whole row first", "up front", "x.max()"],
         code='''import numpy as np


def my_online_softmax(x, block_size):
    m = x.max()
    z = 0.0
    for start in range(0, len(x), block_size):
        z += np.exp(x[start:start + block_size] - m).sum()
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="last block's max", mistake="normalises with the max of the last block instead of the running max, so the sum and the exponentials use different shifts",
         names=["running max m", "m after the last block", "block.max()", "different shifts"],
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
    dict(exercise="ex1", kind="library online softmax", mistake="calls helpers.streaming.online_softmax instead of writing the loop",
         names=["helpers.streaming", "online_softmax", "yourself", "reference"],
         code='''from helpers.streaming import online_softmax as reference


def my_online_softmax(x, block_size):
    return reference(x, block_size)
'''),
    # ---------------------------------------------------------------- ex2 my_attention_step
    dict(exercise="ex2", kind="acc not rescaled", mistake="rescales z by exp(m − m_new) but forgets to rescale acc",
         names=["acc is not rescaled", "rescale acc", "acc too"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), acc + p @ v
'''),
    dict(exercise="ex2", kind="z not rescaled", mistake="rescales acc but forgets to rescale z",
         names=["z is not rescaled", "rescale z", "z too"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="divided", mistake="returns the normalised acc / z instead of the running unnormalised sum",
         names=["do not divide", "unnormalised", "acc / z", "caller divides", "normalis"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[:, None] * acc + p @ v
    return m_new, z_new, acc_new / z_new[:, None]
'''),
    dict(exercise="ex2", kind="block max only", mistake="sets m_new to the block's own max instead of the larger of m and the block's max",
         names=["larger of m", "running max", "np.maximum", "block's max", "max(m"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = s.max(axis=-1)
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="old max in exponent", mistake="exponentiates the block's scores against the old max m instead of m_new",
         names=["m_new", "exp(s - m_new)", "new max", "old max"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    shift = np.where(np.isfinite(m), m, m_new)
    p = np.exp(s - shift[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="max over queries", mistake="takes the block's max over axis 0 (the queries) instead of over each query's keys",
         names=["each query", "axis=-1", "axis 0", "over the keys", "per query"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=0).max())
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v
'''),
    dict(exercise="ex2", kind="state updated in place", mistake="rescales and adds into the caller's z and acc arrays in place instead of returning new ones",
         names=["in place", "in-place", "modif", "copy", "overwrit"],
         code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    z *= alpha
    z += p.sum(axis=-1)
    acc *= alpha[:, None]
    acc += p @ v
    return m_new, z, acc
'''),
    # ---------------------------------------------------------------- ex3 my_cache_append
    dict(exercise="ex3", kind="cat on features", mistake="concatenates along the last axis (the features) instead of the positions, dim=-2",
         names=["feature axis", "dim=-1", "along the features"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=-1), torch.cat([cache_v, v_new], dim=-1)
'''),
    dict(exercise="ex3", kind="new first", mistake="puts the new positions before the old ones",
         names=["old positions first", "wrong order", "[old, new]", "new first"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat([k_new, cache_k], dim=-2), torch.cat([v_new, cache_v], dim=-2)
'''),
    dict(exercise="ex3", kind="None not handled", mistake="concatenates without checking for the empty cache, so the first call with None fails",
         names=["none", "first call", "empty cache", "is none"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    return torch.cat([cache_k, k_new], dim=-2), torch.cat([cache_v, v_new], dim=-2)
'''),
    dict(exercise="ex3", kind="keys returned twice", mistake="copy-pastes the key line and returns the keys in place of the values",
         names=["v_all", "cache_v", "k_all twice", "values are the keys"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    k_all = torch.cat([cache_k, k_new], dim=-2)
    v_all = torch.cat([cache_k, k_new], dim=-2)
    return k_all, v_all
'''),
    dict(exercise="ex3", kind="cat on heads", mistake="concatenates along dim=1, the heads, instead of the positions",
         names=["head axis", "dim=1", "along the heads"],
         code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat((cache_k, k_new), 1), torch.cat((cache_v, v_new), 1)
'''),
    dict(exercise="ex3", kind="cache replaced", mistake="returns only the new keys and values once the cache exists, dropping the old positions",
         names=["t_past + t_new", "append", "dropp", "old ones are lost"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return k_new, v_new
'''),
    # ---------------------------------------------------------------- ex4 my_sliding_window_mask
    dict(exercise="ex4", kind="window plus one", mistake="allows i − j ≤ window, which gives window + 1 keys instead of window",
         names=["off by one", "off-by-one", "window + 1", "<= window"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (i - j >= 0) & (i - j <= window)
'''),
    dict(exercise="ex4", kind="not causal", mistake="keeps every key within the window on both sides, so the future is allowed",
         names=["not causal", "after i", "future", "nothing after", "j ≤ i"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return np.abs(i - j) < window
'''),
    dict(exercise="ex4", kind="window ignored", mistake="returns the plain causal mask, ignoring the window",
         names=["horizon", "older keys", "plain causal", "ignores the window"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    return np.tril(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex4", kind="query excluded", mistake="takes the window keys before i, excluding the query itself",
         names=["diagonal", "including i", "the query itself", "j < i"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    i, j = np.indices((T, T))
    return (j < i) & (j >= i - window)
'''),
    dict(exercise="ex4", kind="float mask", mistake="fills a float array with ones, so the mask is not boolean",
         names=["bool", "dtype", "float", "boolean"],
         code='''import numpy as np


def my_sliding_window_mask(T, window):
    mask = np.zeros((T, T))
    for i in range(T):
        mask[i, max(0, i - window + 1):i + 1] = 1
    return mask
'''),
    dict(exercise="ex4", kind="library alias", mistake="calls helpers.masks.sliding_window_mask under another name",
         names=["sliding_window_mask", "helpers.masks", "yourself", "reference"],
         code='''from helpers.masks import sliding_window_mask as swm


def my_sliding_window_mask(T, window):
    return swm(T, window)
'''),
    # ---------------------------------------------------------------- ex5 my_top_k_gates
    dict(exercise="ex5", kind="softmax over all experts", mistake="takes the softmax over all experts and keeps it at the top k, so the row sums to less than 1",
         names=["renormal", "all experts", "sum to less than 1", "over all experts"],
         code='''import torch


def my_top_k_gates(logits, k):
    probs = torch.softmax(logits, dim=-1)
    top, experts = probs.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, top)
'''),
    dict(exercise="ex5", kind="raw logits scattered", mistake="scatters the raw top-k logits instead of their softmax",
         names=["raw logits", "no softmax", "sum to 1"],
         code='''import torch


def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, values)
'''),
    dict(exercise="ex5", kind="smallest k", mistake="picks the k smallest logits (largest=False) instead of the largest",
         names=["largest", "k largest", "smallest", "largest=false", "best"],
         code='''import torch


def my_top_k_gates(logits, k):
    values, experts = torch.topk(logits, k, dim=-1, largest=False)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=-1))
'''),
    dict(exercise="ex5", kind="zero instead of -inf", mistake="sets the other logits to 0 instead of -inf before a softmax over all experts, so they still get weight",
         names=["-inf", "every other expert gets 0", "0 instead of -inf", "still get weight"],
         code='''import torch


def my_top_k_gates(logits, k):
    _, experts = logits.topk(k, dim=-1)
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, experts, True)
    return torch.softmax(torch.where(keep, logits, torch.zeros_like(logits)), dim=-1)
'''),
    dict(exercise="ex5", kind="uniform gates", mistake="gives each chosen expert the same gate 1/k instead of the softmax of their logits",
         names=["1/k", "uniform", "equal gates"],
         code='''import torch


def my_top_k_gates(logits, k):
    _, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, 1.0 / k)
'''),
    dict(exercise="ex5", kind="softmax over tokens", mistake="takes the softmax of the top-k values over dim 0 (the tokens) instead of within each row",
         names=["each row", "dim=-1", "dim=0", "row sums to 1", "wrong axis"],
         code='''import torch


def my_top_k_gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=0))
'''),
    dict(exercise="ex5", kind="library routing", mistake="uses helpers.blocks.top_k_routing instead of writing the gates",
         names=["top_k_routing", "helpers.blocks", "yourself", "reference"],
         code='''from helpers.blocks import top_k_routing as route


def my_top_k_gates(logits, k):
    return route(logits, k).dense_gates()
'''),
]

VALID = [
    dict(exercise="ex1", kind="while loop", code='''import math

import numpy as np


def my_online_softmax(x, block_size):
    x = np.asarray(x, dtype=float)
    m, z, i = -math.inf, 0.0, 0
    while i < x.shape[0]:
        block = x[i:i + block_size]
        m_new = max(m, float(np.max(block)))
        z = z * math.exp(m - m_new) + float(np.sum(np.exp(block - m_new)))
        m = m_new
        i += block_size
    return np.exp(x - m) / z
'''),
    dict(exercise="ex1", kind="scalar inner loop", code='''import math

import numpy as np


def my_online_softmax(x, block_size):
    m, z = float("-inf"), 0.0
    blocks = [x[s:s + block_size] for s in range(0, len(x), block_size)]
    for block in blocks:
        m_new = max([m] + [float(e) for e in block])
        z *= math.exp(m - m_new)
        for e in block:
            z += math.exp(float(e) - m_new)
        m = m_new
    return np.array([math.exp(float(e) - m) / z for e in x])
'''),
    dict(exercise="ex2", kind="einsum with fmax", code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.fmax(m, np.max(s, axis=1))
    alpha = np.exp(m - m_new)                     # 0 when m was -inf
    p = np.exp(s - m_new[:, None])
    z_new = alpha * z + np.sum(p, axis=1)
    acc_new = alpha[:, None] * acc + np.einsum("qb,bd->qd", p, v)
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex2", kind="loop over queries", code='''import numpy as np


def my_attention_step(m, z, acc, s, v):
    m_new = np.empty_like(m, dtype=float)
    z_new = np.empty_like(z, dtype=float)
    acc_new = np.empty_like(acc, dtype=float)
    for i in range(s.shape[0]):
        m_new[i] = max(m[i], s[i].max())
        a = np.exp(m[i] - m_new[i])
        p = np.exp(s[i] - m_new[i])
        z_new[i] = a * z[i] + p.sum()
        acc_new[i] = a * acc[i] + p @ v
    return m_new, z_new, acc_new
'''),
    dict(exercise="ex3", kind="dim=2", code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat((cache_k, k_new), dim=2), torch.cat((cache_v, v_new), dim=2)   # (B, H, T, d): 2 is T
'''),
    dict(exercise="ex3", kind="empty cache tensor", code='''import torch


def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        B, H, _, d_k = k_new.shape
        cache_k = k_new.new_zeros(B, H, 0, d_k)
        cache_v = v_new.new_zeros(B, H, 0, v_new.shape[-1])
    k_all = torch.cat([cache_k, k_new], dim=-2)
    v_all = torch.cat([cache_v, v_new], dim=-2)
    return k_all, v_all
'''),
    dict(exercise="ex4", kind="np.tri difference", code='''import numpy as np


def my_sliding_window_mask(T, window):
    upto_i = np.tri(T, T, 0, dtype=bool)             # j <= i
    too_old = np.tri(T, T, -window, dtype=bool)      # j <= i - window
    return upto_i & ~too_old
'''),
    dict(exercise="ex4", kind="loops", code='''import numpy as np


def my_sliding_window_mask(T, window):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(T):
            mask[i, j] = i - window < j <= i
    return mask
'''),
    dict(exercise="ex5", kind="-inf mask then softmax", code='''import torch


def my_top_k_gates(logits, k):
    _, experts = logits.topk(k, dim=-1)
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, experts, True)
    masked = logits.masked_fill(~keep, float("-inf"))
    return torch.softmax(masked, dim=-1)
'''),
    dict(exercise="ex5", kind="full softmax renormalised", code='''import torch


def my_top_k_gates(logits, k):
    probs = torch.softmax(logits, dim=-1)
    top, experts = probs.topk(k, dim=-1)
    top = top / top.sum(dim=-1, keepdim=True)          # softmax over the k chosen logits
    return torch.zeros_like(probs).scatter(-1, experts, top)
'''),
]
