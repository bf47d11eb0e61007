"""Held-out answers for exercises/06_position.ipynb, written from the exercise texts alone."""

WRONG = [
    dict(exercise="ex1", kind="returns on first match", mistake="returns True as soon as one order matches, and the identity order always matches",
         names=["every order", "all orders", "identity", "first order", "return true"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    y = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = list(order)
        if np.allclose(attend(x[order]), y[order]):
            return True
    return False
'''),
    dict(exercise="ex1", kind="inverse permutation", mistake="reorders the outputs with the inverse permutation (argsort) instead of the same order",
         names=["same order", "inverse", "argsort", "same way"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    y = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = np.array(order)
        if not np.allclose(attend(x[order]), y[np.argsort(order)]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="reverse only", mistake="tests only the reversed order, which a symmetric distance bias survives",
         names=["every order", "all orders", "reverse", "permutations", "one order"],
         code='''import numpy as np


def is_permutation_equivariant(attend, x):
    return bool(np.allclose(attend(x[::-1]), attend(x)[::-1]))
'''),
    dict(exercise="ex1", kind="outputs not reordered", mistake="compares attend(x[order]) with attend(x) without reordering the outputs",
         names=["reorder the outputs", "attend(x)[order]", "same way", "outputs reordered"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    y = attend(x)
    return all(np.allclose(attend(x[list(p)]), y) for p in itertools.permutations(range(len(x))))
'''),
    dict(exercise="ex1", kind="last row never moved", mistake="permutes only the first T-1 rows, so the last position is never moved",
         names=["every order", "last", "t-1", "off by one", "all t!"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    y = attend(x)
    T = len(x)
    for p in itertools.permutations(range(T - 1)):
        order = list(p) + [T - 1]
        if not np.allclose(attend(x[order]), y[order]):
            return False
    return True
'''),
    dict(exercise="ex2", kind="one angle per column", mistake="gives every column its own angle pos/10000^(j/d_model), so a sin/cos pair does not share one angle",
         names=["share", "pair", "2i", "same angle", "one angle"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    j = np.arange(d_model)[None, :]
    angle = pos / 10000 ** (j / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle[:, 0::2])
    pe[:, 1::2] = np.cos(angle[:, 1::2])
    return pe
'''),
    dict(exercise="ex2", kind="i not 2i", mistake="uses 10000^(i/d_model) with i the pair index, forgetting the factor 2",
         names=["2i", "factor 2", "exponent", "frequenc"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    i = np.arange(d_model // 2)
    angle = np.arange(T)[:, None] / 10000 ** (i / d_model)
    pe = np.empty((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="halves layout", mistake="puts all sines in the first half and all cosines in the second instead of interleaving them",
         names=["interleav", "even columns", "odd columns", "halves", "concatenat"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    two_i = np.arange(0, d_model, 2)
    angle = np.arange(T)[:, None] / 10000 ** (two_i / d_model)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
'''),
    dict(exercise="ex2", kind="positions from 1", mistake="counts positions 1..T instead of 0..T-1",
         names=["position 0", "0..t", "from 0", "off by one", "shifted"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(1, T + 1)[:, None]
    angle = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex3", kind="halves pairs", mistake="pairs feature i with i + d/2 (the Llama halves layout) instead of the interleaved neighbours",
         names=["interleav", "halves", "neighbours", "0::2", "i + d/2"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, : d // 2], x[:, d // 2:]
    return np.concatenate([x1 * np.cos(angle) - x2 * np.sin(angle),
                           x1 * np.sin(angle) + x2 * np.cos(angle)], axis=1)
'''),
    dict(exercise="ex3", kind="rotates backwards", mistake="swaps the sign of the sine terms, rotating by -m·θ_i",
         names=["sign", "-sin", "direction", "negative angle", "clockwise"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(angle), np.sin(angle)
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x[:, 0::2] * c + x[:, 1::2] * s
    out[:, 1::2] = -x[:, 0::2] * s + x[:, 1::2] * c
    return out
'''),
    dict(exercise="ex3", kind="in-place view bug", mistake="writes the rotated even features back into x in place, so the odd features are rotated from already-updated values (and the input is modified)",
         names=["in place", "copy", "overwrit", "modif"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    x[:, 0::2] = x1 * np.cos(angle) - x2 * np.sin(angle)
    x[:, 1::2] = x1 * np.sin(angle) + x2 * np.cos(angle)
    return x
'''),
    dict(exercise="ex3", kind="theta without 2", mistake="uses θ_i = 10000^(-i/d) without the factor 2 in the exponent",
         names=["2i", "factor 2", "theta", "θ_i", "frequenc"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(d // 2) / d)
    angle = np.outer(np.arange(T), theta)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.stack([x1 * np.cos(angle) - x2 * np.sin(angle), x1 * np.sin(angle) + x2 * np.cos(angle)], -1)
    return out.reshape(T, d)
'''),
    dict(exercise="ex4", kind="rotates v too", mistake="applies RoPE to the values as well as to q and k",
         names=["not v", "values", "rotate v", "v unrotated"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    return attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions),
                     apply_rope(v, positions=positions))
'''),
    dict(exercise="ex4", kind="ignores positions", mistake="calls apply_rope without positions, so the default 0..T-1 is used instead of the given ones",
         names=["positions", "gap", "0..t-1", "default"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    return attention(apply_rope(q), apply_rope(k), v)
'''),
    dict(exercise="ex4", kind="only q rotated", mistake="rotates q but not k",
         names=["both q and k", "rotate k", "k too", "keys"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    return attention(apply_rope(q, positions=positions), k, v)
'''),
    dict(exercise="ex4", kind="tuple order", mistake="returns (weights, out) instead of (out, weights)",
         names=["order", "(out, weights)", "tuple", "swapped"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    out, weights = attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions), v)
    return weights, out
'''),
    dict(exercise="ex5", kind="heads from 0", mistake="counts heads from 0, so the first slope is 2^0 = 1 and the last head's slope is missing",
         names=["from 1", "h = 1", "1..h", "off by one", "first slope"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(n_heads) / n_heads)
    dist = np.tril(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="positive bias", mistake="adds +m_h·(i − j), a reward for distance instead of a penalty",
         names=["sign", "negative", "penalty", "minus"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    h = np.arange(1, n_heads + 1)
    slopes = 2.0 ** (-8.0 * h / n_heads)
    dist = np.maximum(np.arange(T)[:, None] - np.arange(T)[None, :], 0)
    return slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="j minus i", mistake="uses the distance j − i (keys minus queries), putting the penalty in the upper triangle",
         names=["i - j", "i − j", "transpose", "rows are queries", "future"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    dist = np.arange(T)[None, :] - np.arange(T)[:, None]
    dist = np.where(dist >= 0, dist, 0)
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="future not zeroed", mistake="uses -m_h·|i − j| everywhere instead of 0 for j > i",
         names=["j > i", "future", "zero", "upper triangle", "0 for"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    dist = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="integer division exponent", mistake="computes the exponent 8h//H with integer division, wrong when H does not divide 8h (H >= 16)",
         names=["integer division", "//", "exponent", "8h/h", "slope"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    out = np.zeros((n_heads, T, T))
    for h in range(1, n_heads + 1):
        m = 2.0 ** (-(8 * h // n_heads))
        for i in range(T):
            for j in range(i + 1):
                out[h - 1, i, j] = -m * (i - j)
    return out
'''),
]

VALID = [
    dict(exercise="ex1", kind="all with generator", code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    y = np.asarray(attend(x))
    orders = (np.array(p) for p in itertools.permutations(range(x.shape[0])))
    return all(np.allclose(attend(x[o]), y[o]) for o in orders)
'''),
    dict(exercise="ex1", kind="loop with flag", code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    ok = True
    for p in itertools.permutations(list(range(len(x)))):
        idx = list(p)
        ok = ok and bool(np.allclose(attend(x[idx, :]), base[idx, :]))
    return ok
'''),
    dict(exercise="ex2", kind="exp log frequencies", code='''import numpy as np


def my_sinusoidal(T, d_model):
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    angle = np.outer(np.arange(T), freq)
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(T, d_model)
'''),
    dict(exercise="ex2", kind="explicit loops", code='''import math

import numpy as np


def my_sinusoidal(T, d_model):
    pe = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            a = pos / 10000 ** (2 * i / d_model)
            pe[pos, 2 * i] = math.sin(a)
            pe[pos, 2 * i + 1] = math.cos(a)
    return pe
'''),
    dict(exercise="ex3", kind="complex numbers", code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    z = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * np.arange(T)[:, None] * theta)
    out = np.empty((T, d))
    out[:, 0::2], out[:, 1::2] = z.real, z.imag
    return out
'''),
    dict(exercise="ex3", kind="2x2 matrices loop", code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    out = np.array(x, dtype=float, copy=True)
    for m in range(T):
        for i in range(d // 2):
            a = m * 10000.0 ** (-2 * i / d)
            R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            out[m, 2 * i:2 * i + 2] = R @ x[m, 2 * i:2 * i + 2]
    return out
'''),
    dict(exercise="ex4", kind="shifted to start at 0", code='''import numpy as np

from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    p = np.asarray(positions) - np.min(positions)      # only offsets matter
    return attention(apply_rope(q, positions=p), apply_rope(k, positions=p), v)
'''),
    dict(exercise="ex4", kind="plain", code='''import helpers.positions as P


def rope_attention(q, k, v, positions):
    q_rot = P.apply_rope(q, positions=positions)
    k_rot = P.apply_rope(k, positions=positions)
    out, weights = attention(q_rot, k_rot, v)
    return out, weights
'''),
    dict(exercise="ex5", kind="tril distance", code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = np.array([2.0 ** (-8.0 * h / n_heads) for h in range(1, n_heads + 1)])
    dist = np.tril(np.subtract.outer(np.arange(T), np.arange(T)))
    return -slopes.reshape(-1, 1, 1) * dist
'''),
    dict(exercise="ex5", kind="explicit loops", code='''import numpy as np


def my_alibi_bias(n_heads, T):
    out = np.zeros((n_heads, T, T))
    for h in range(1, n_heads + 1):
        m = 2 ** (-8 * h / n_heads)
        for i in range(T):
            for j in range(i + 1):
                out[h - 1, i, j] = -m * (i - j)
    return out
'''),
]
