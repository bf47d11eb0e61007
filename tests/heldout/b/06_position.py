"""Held-out answers for exercises/06_position.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 is_permutation_equivariant
    dict(exercise="ex1", kind="reversal only", mistake="tests only the reversed order, which a symmetric distance bias survives, instead of every order",
         names=["all t! orders", "itertools.permutations", "only the reversed", "one permutation"],
         code='''import numpy as np


def is_permutation_equivariant(attend, x):
    order = np.arange(len(x))[::-1]
    return np.allclose(attend(x[order]), attend(x)[order])
'''),
    dict(exercise="ex1", kind="outputs not reordered", mistake="compares attend(x[order]) with attend(x) instead of with attend(x)[order]",
         names=["reorder the outputs", "outputs the same way", "attend(x)[order]", "not reordered"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        if not np.allclose(attend(x[list(order)]), base):
            return False
    return True
'''),
    dict(exercise="ex1", kind="inverse permutation", mistake="reorders the outputs with the inverse permutation (argsort(order)), which differs from order for 3-cycles",
         names=["inverse", "argsort", "3-cycle", "inverse permutation"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = np.array(order)
        if not np.allclose(attend(x[order]), base[np.argsort(order)]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="exact equality", mistake="compares with np.array_equal, so the last-bit differences from summing in another order count as a failure",
         names=["np.allclose", "allclose", "last bits", "exact", "rounding"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    return all(np.array_equal(attend(x[list(o)]), base[list(o)])
               for o in itertools.permutations(range(len(x))))
'''),
    dict(exercise="ex1", kind="any instead of all", mistake="returns True when any order matches, and the identity order always does",
         names=["any instead of all", "identity", "for every order"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    return any(np.allclose(attend(x[list(o)]), base[list(o)])
               for o in itertools.permutations(range(len(x))))
'''),
    dict(exercise="ex1", kind="shape unpacked backwards", mistake="unpacks x.shape as (d, T), so it permutes range(d) instead of the T rows",
         names=["t rows", "x.shape[0]", "len(x)", "range(t)", "(t, d)"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    d, T = x.shape
    base = attend(x)
    for order in itertools.permutations(range(T)):
        order = list(order)
        if not np.allclose(attend(x[order]), base[order]):
            return False
    return True
'''),
    # ---------------------------------------------------------------- ex2 my_sinusoidal
    dict(exercise="ex2", kind="exponent i not 2i", mistake="uses i/d_model instead of 2i/d_model in the exponent, so the frequencies fall off too slowly",
         names=["2i/d_model", "i instead of 2i", "np.arange(0, d_model, 2)", "i/d_model"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)
    angle = pos / 10000 ** (i / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="sin and cos swapped", mistake="puts the cosines in the even columns and the sines in the odd ones",
         names=["even columns", "sin on the even", "cos on the even", "sines and cosines"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.empty((T, d_model))
    pe[:, 0::2] = np.cos(angle)
    pe[:, 1::2] = np.sin(angle)
    return pe
'''),
    dict(exercise="ex2", kind="halves layout", mistake="puts all the sines in the first half and all the cosines in the second instead of interleaving them",
         names=["interleav", "halves", "0::2", "first half"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
'''),
    dict(exercise="ex2", kind="positions from 1", mistake="counts the positions from 1 instead of 0",
         names=["from 0", "position 0", "off by one", "off-by-one", "0..t−1"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(1, T + 1)[:, None]
    angle = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="angle per column", mistake="gives every column j its own angle pos / 10000^(j/d_model), so the cosine column 2i+1 does not share the angle of column 2i",
         names=["shares one angle", "pair", "2i+1", "same angle", "each pair"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    j = np.arange(d_model)
    angle = np.arange(T)[:, None] / 10000 ** (j / d_model)
    return np.where(j % 2 == 0, np.sin(angle), np.cos(angle))
'''),
    dict(exercise="ex2", kind="multiplied by the power", mistake="multiplies the position by 10000^(2i/d_model) instead of dividing by it",
         names=["divide by 10000", "pos / 10000", "multipl", "instead of dividing"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] * 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="integer exponent", mistake="computes the exponent with integer floor division, 2i // d_model, which is 0 for every pair",
         names=["integer division", "floor division", "//", "exponent is 0"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    two_i = np.arange(0, d_model, 2)
    angle = np.arange(T)[:, None] / 10000 ** (two_i // d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    # ---------------------------------------------------------------- ex3 my_rope
    dict(exercise="ex3", kind="halves layout", mistake="pairs feature i with feature i + d/2 (Llama's halves layout) instead of the interleaved neighbours (2i, 2i+1)",
         names=["interleav", "halves", "0::2", "(2i, 2i+1)", "i + d/2"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, :d // 2], x[:, d // 2:]
    cos, sin = np.cos(angle), np.sin(angle)
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=1)
'''),
    dict(exercise="ex3", kind="rotation sign flipped", mistake="puts the minus sign on the other sine, rotating every pair by -mθ_i",
         names=["sign of", "-sin", "direction", "rotation matrix", "clockwise"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x1 * np.cos(angle) + x2 * np.sin(angle)
    out[:, 1::2] = -x1 * np.sin(angle) + x2 * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="updated x1 reused", mistake="writes the rotated even features back first and then uses those new values to compute the odd features",
         names=["overwrit", "copy", "new values", "in place", "original x"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000 ** (-np.arange(0, d, 2) / d)
    out = np.array(x, dtype=float)
    out[:, 0::2] = out[:, 0::2] * np.cos(angle) - out[:, 1::2] * np.sin(angle)
    out[:, 1::2] = out[:, 0::2] * np.sin(angle) + out[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="no position factor", mistake="rotates every row by θ_i instead of m·θ_i, forgetting to multiply by the position",
         names=["m·θ_i", "m * theta", "np.arange(t)", "same rotation", "multiply by the position"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    theta = 10000 ** (-np.arange(0, d, 2) / d)
    angle = np.broadcast_to(theta, (T, d // 2))
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty((T, d))
    out[:, 0::2] = x1 * np.cos(angle) - x2 * np.sin(angle)
    out[:, 1::2] = x1 * np.sin(angle) + x2 * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="theta with i not 2i", mistake="uses θ_i = 10000^(-i/d) instead of 10000^(-2i/d)",
         names=["2i/d", "-2i/d", "i instead of 2i", "θ_i = 10000"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000 ** (-np.arange(d // 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty((T, d))
    out[:, 0::2] = x1 * np.cos(angle) - x2 * np.sin(angle)
    out[:, 1::2] = x1 * np.sin(angle) + x2 * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="apply_rope alias", mistake="calls helpers.positions.apply_rope under another name",
         names=["apply_rope", "do not call", "yourself", "reference"],
         code='''from helpers import positions as P


def my_rope(x):
    return P.apply_rope(x)
'''),
    # ---------------------------------------------------------------- ex4 rope_attention
    dict(exercise="ex4", kind="v rotated too", mistake="applies RoPE to v as well as to q and k",
         names=["not v", "v rotated", "leave v", "rotate v", "values unrotated"],
         code='''def rope_attention(q, k, v, positions):
    q = apply_rope(q, positions=positions)
    k = apply_rope(k, positions=positions)
    v = apply_rope(v, positions=positions)
    return attention(q, k, v)
'''),
    dict(exercise="ex4", kind="positions ignored", mistake="rotates q and k by the default positions 0..T-1 instead of the given positions",
         names=["positions=positions", "gap", "0..t−1", "ignores the positions", "given positions"],
         code='''def rope_attention(q, k, v, positions):
    return attention(apply_rope(q), apply_rope(k), v)
'''),
    dict(exercise="ex4", kind="only q rotated", mistake="rotates the queries but not the keys",
         names=["both q and k", "rotate q and k", "k is not rotated", "keys unrotated"],
         code='''def rope_attention(q, k, v, positions):
    return attention(apply_rope(q, positions=positions), k, v)
'''),
    dict(exercise="ex4", kind="k at default positions", mistake="rotates q by the given positions but k by the default 0..T-1",
         names=["same positions", "k at the default", "k's positions", "only q uses the positions"],
         code='''def rope_attention(q, k, v, positions):
    q_rot = apply_rope(q, positions=positions)
    k_rot = apply_rope(k)
    return attention(q_rot, k_rot, v)
'''),
    dict(exercise="ex4", kind="tuple order swapped", mistake="returns (weights, out) instead of (out, weights)",
         names=["wrong order", "(out, weights)"],
         code='''def rope_attention(q, k, v, positions):
    out, weights = attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions), v)
    return weights, out
'''),
    dict(exercise="ex4", kind="unasked causal mask", mistake="adds a causal mask that the exercise does not ask for",
         names=["no mask", "causal mask", "every key", "without a mask"],
         code='''import numpy as np


def rope_attention(q, k, v, positions):
    T = len(positions)
    mask = np.tril(np.ones((T, T), dtype=bool))
    return attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions), v, mask)
'''),
    # ---------------------------------------------------------------- ex5 my_alibi_bias
    dict(exercise="ex5", kind="heads from 0", mistake="numbers the heads h = 0..H-1, so the first slope is 1 instead of 2^(-8/H)",
         names=["h = 1..h", "1..h", "from 1", "first slope", "off by one"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(n_heads) / n_heads)
    i, j = np.indices((T, T))
    dist = np.clip(i - j, 0, None)
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="slopes reversed", mistake="puts the gentlest slope first instead of head 1's steepest slope",
         names=["head 1", "reversed", "steepest", "index 0", "slope order"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(n_heads, 0, -1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="positive bias", mistake="adds +m_h·(i − j) instead of −m_h·(i − j), rewarding distance instead of penalising it",
         names=["sign of", "negative", "−m_h", "-m_h", "penal"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return slopes[:, None, None] * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="future not zeroed", mistake="leaves -m_h·(i − j) above the diagonal too, where the exercise asks for 0",
         names=["above the diagonal", "clipped", "0 where j > i", "future entries"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * (i - j)
'''),
    dict(exercise="ex5", kind="-inf above diagonal", mistake="puts -inf above the diagonal, mixing the causal mask into the bias, instead of 0",
         names=["-inf", "causal mask", "mask separately", "0, not -inf"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    bias = -slopes[:, None, None] * (i - j)
    return np.where(j > i, -np.inf, bias)
'''),
    dict(exercise="ex5", kind="symmetric distance", mistake="uses |i − j| on both sides of the diagonal, so future keys get a penalty instead of 0",
         names=["|i − j|", "|i - j|", "symmetric", "both sides", "np.abs"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.abs(i - j)
'''),
    dict(exercise="ex5", kind="distance j minus i", mistake="measures the distance as j − i, so the penalty sits on the future side and the past gets 0",
         names=["j − i", "j - i", "rows are queries", "transpose", "wrong side"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.clip(j - i, 0, None)
'''),
    dict(exercise="ex5", kind="library alibi alias", mistake="calls the library's alibi_bias under another name",
         names=["alibi_bias", "alibi_slopes", "do not call", "yourself", "reference"],
         code='''from helpers.positions import alibi_bias as ab


def my_alibi_bias(n_heads, T):
    return ab(n_heads, T)
'''),
]

VALID = [
    dict(exercise="ex1", kind="permutation matrices", code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    T = x.shape[0]
    y = attend(x)
    for order in itertools.permutations(range(T)):
        P = np.eye(T)[list(order)]                       # P @ x == x[order]
        if not np.allclose(attend(P @ x), P @ y):
            return False
    return True
'''),
    dict(exercise="ex1", kind="all over a generator", code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    orders = (np.array(o) for o in itertools.permutations(range(len(x))))
    return bool(all(np.allclose(attend(x[o]), base[o], rtol=1e-6, atol=1e-9) for o in orders))
'''),
    dict(exercise="ex2", kind="explicit loops", code='''import math

import numpy as np


def my_sinusoidal(T, d_model):
    pe = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            pe[pos, 2 * i] = math.sin(angle)
            pe[pos, 2 * i + 1] = math.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="stack and reshape", code='''import numpy as np


def my_sinusoidal(T, d_model):
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)   # 10000^(-2i/d)
    angle = np.outer(np.arange(T), freq)                                    # (T, d/2)
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(T, d_model)
'''),
    dict(exercise="ex3", kind="complex numbers", code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    z = x[:, 0::2] + 1j * x[:, 1::2]                     # one complex number per pair
    z = z * np.exp(1j * np.arange(T)[:, None] * theta)
    out = np.empty((T, d))
    out[:, 0::2], out[:, 1::2] = z.real, z.imag
    return out
'''),
    dict(exercise="ex3", kind="2x2 matrices with einsum", code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)   # (T, d/2)
    c, s = np.cos(angle), np.sin(angle)
    R = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)        # (T, d/2, 2, 2)
    pairs = x.reshape(T, d // 2, 2)
    return np.einsum("tpij,tpj->tpi", R, pairs).reshape(T, d)
'''),
    dict(exercise="ex4", kind="positions shifted to start at 0", code='''import numpy as np


def rope_attention(q, k, v, positions):
    rel = np.asarray(positions) - np.min(positions)      # only offsets matter
    return attention(apply_rope(q, positions=rel), apply_rope(k, positions=rel), v)
'''),
    dict(exercise="ex4", kind="torch round trip", code='''import torch


def rope_attention(q, k, v, positions):
    qt, kt = torch.as_tensor(q), torch.as_tensor(k)
    pos = torch.as_tensor(positions)
    q_rot = apply_rope(qt, positions=pos).numpy()
    k_rot = apply_rope(kt, positions=pos).numpy()
    out, weights = attention(q_rot, k_rot, v)
    return out, weights
'''),
    dict(exercise="ex5", kind="explicit loops", code='''import numpy as np


def my_alibi_bias(n_heads, T):
    bias = np.zeros((n_heads, T, T))
    for h in range(1, n_heads + 1):
        m = 2.0 ** (-8.0 * h / n_heads)
        for i in range(T):
            for j in range(i + 1):
                bias[h - 1, i, j] = -m * (i - j)
    return bias
'''),
    dict(exercise="ex5", kind="tril of distances", code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 0.5 ** (8 * np.arange(1, n_heads + 1) / n_heads)       # 2^(-8h/H)
    dist = np.tril(np.subtract.outer(np.arange(T), np.arange(T)))    # i - j below, 0 above
    return -np.einsum("h,ij->hij", slopes, dist.astype(float))
'''),
]
