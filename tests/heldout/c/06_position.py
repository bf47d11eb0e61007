"""Held-out answers for exercises/06_position.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1: is_permutation_equivariant
    dict(exercise="ex1", kind="outputs not reordered", mistake="compares attend(x[order]) with attend(x) itself instead of with attend(x)[order]",
         names=["reorder the outputs", "attend(x)[order]", "the same way", "outputs reordered", "permutation-invariant"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        if not np.allclose(attend(x[list(order)]), base):
            return False
    return True
'''),
    dict(exercise="ex1", kind="reversal only", mistake="tries a single order, the reversal, instead of every order, so a layer that is symmetric under reversal (a distance bias) passes",
         names=["only one order", "every order", "reversal", "single order", "all t!"],
         code='''import numpy as np


def is_permutation_equivariant(attend, x):
    order = np.arange(len(x))[::-1]
    return bool(np.allclose(attend(x[order]), attend(x)[order]))
'''),
    dict(exercise="ex1", kind="inverse permutation", mistake="reorders the outputs with the inverse permutation (argsort(order)) instead of order itself",
         names=["inverse", "argsort", "the same order", "same way"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(x.shape[0])):
        order = np.array(order)
        if not np.allclose(attend(x[order]), base[np.argsort(order)]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="exact equality", mistake="compares with exact equality (np.array_equal) instead of np.allclose, so reordered sums that differ in the last bits fail",
         names=["allclose", "last bits", "exact", "rounding", "array_equal"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = list(order)
        if not np.array_equal(attend(x[order]), base[order]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="last row fixed", mistake="permutes only the first T-1 rows (permutations of range(T - 1)), so the last row never moves",
         names=["last row", "range(t - 1)", "all t rows", "t - 1 rows", "every order"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    T = len(x)
    base = attend(x)
    for head in itertools.permutations(range(T - 1)):
        order = list(head) + [T - 1]
        if not np.allclose(attend(x[order]), base[order]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="true on first match", mistake="returns True as soon as one order matches, and the identity always matches",
         names=["identity", "any order", "returns true as soon", "first order", "every order"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = list(order)
        if np.allclose(attend(x[order]), base[order]):
            return True
    return False
'''),
    dict(exercise="ex1", kind="cyclic shifts only", mistake="tries only the T cyclic shifts (np.roll) of the rows instead of all T! orders",
         names=["every order", "cyclic", "rotations", "shifts only", "all t!"],
         code='''import numpy as np


def is_permutation_equivariant(attend, x):
    T = len(x)
    base = attend(x)
    for s in range(T):
        order = np.roll(np.arange(T), s)
        if not np.allclose(attend(x[order]), base[order]):
            return False
    return True
'''),
    # ---------------------------------------------------------------- ex2: my_sinusoidal
    dict(exercise="ex2", kind="i instead of 2i", mistake="uses i / d_model in the exponent instead of 2i / d_model",
         names=["2i", "i / d_model", "i/d_model", "exponent", "pair index"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angle = pos / 10000 ** (i / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="sin and cos swapped", mistake="puts the cosines in the even columns and the sines in the odd ones",
         names=["swapped", "cos on the even", "sin on the odd", "even columns", "sines"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    two_i = np.arange(0, d_model, 2)[None, :]
    angle = pos / 10000 ** (two_i / d_model)
    pe = np.empty((T, d_model))
    pe[:, 0::2] = np.cos(angle)
    pe[:, 1::2] = np.sin(angle)
    return pe
'''),
    dict(exercise="ex2", kind="halves layout", mistake="concatenates all the sines then all the cosines instead of interleaving them",
         names=["halves", "interleav", "concatenat", "first half", "even columns"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    two_i = np.arange(0, d_model, 2)
    angle = pos / 10000 ** (two_i / d_model)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
'''),
    dict(exercise="ex2", kind="own angle per column", mistake="gives each column j its own exponent j / d_model, so the odd column 2i+1 does not share its pair's angle",
         names=["share one angle", "same angle", "(2i+1)/d", "shares", "pair"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    j = np.arange(d_model)[None, :]
    angle = pos / 10000 ** (j / d_model)
    return np.where(j % 2 == 0, np.sin(angle), np.cos(angle))
'''),
    dict(exercise="ex2", kind="positions from 1", mistake="counts positions from 1 instead of 0",
         names=["from 0", "start at 0", "position 0", "shifted", "off by one"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(1, T + 1)[:, None]
    two_i = np.arange(0, d_model, 2)
    angle = pos / 10000 ** (two_i / d_model)
    pe = np.zeros((T, d_model))
    pe[:, ::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="multiplies by 10000^x", mistake="multiplies the position by 10000^(2i/d_model) instead of dividing by it",
         names=["multipl", "instead of dividing", "divide", "sign of the exponent", "frequenc"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    two_i = np.arange(0, d_model, 2)
    angle = pos * 10000.0 ** (two_i / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="integer division exponent", mistake="computes the exponent with integer division 2i // d_model, which is always 0",
         names=["integer division", "//", "exponent", "always 0"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pe = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i // d_model)
            pe[pos, 2 * i] = np.sin(angle)
            pe[pos, 2 * i + 1] = np.cos(angle)
    return pe
'''),
    # ---------------------------------------------------------------- ex3: my_rope
    dict(exercise="ex3", kind="halves pairs", mistake="pairs feature i with i + d/2 (the Llama halves layout) instead of the interleaved neighbours (2i, 2i+1)",
         names=["halves", "interleav", "i + d/2", "rotate_half", "neighbours"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    h = d // 2
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angle = np.arange(T)[:, None] * theta
    cos, sin = np.cos(angle), np.sin(angle)
    a, b = x[:, :h], x[:, h:]
    return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=1)
'''),
    dict(exercise="ex3", kind="rotation sign flipped", mistake="rotates by -m*theta_i: the sin terms have the wrong signs",
         names=["sign", "direction", "clockwise", "-sin", "negative angle"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angle = np.arange(T)[:, None] * theta
    cos, sin = np.cos(angle), np.sin(angle)
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x[:, 0::2] * cos + x[:, 1::2] * sin
    out[:, 1::2] = -x[:, 0::2] * sin + x[:, 1::2] * cos
    return out
'''),
    dict(exercise="ex3", kind="positions from 1", mistake="counts the positions from 1, so row 0 is rotated too",
         names=["from 0", "start at 0", "position 0", "row 0", "shifted"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    m = np.arange(1, T + 1)[:, None]
    angle = m * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty((T, d))
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="i instead of 2i", mistake="uses theta_i = 10000^(-i/d) with the pair index i instead of 10000^(-2i/d)",
         names=["2i", "i / d", "i/d", "exponent", "frequenc"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    i = np.arange(d // 2)
    angle = np.arange(T)[:, None] * 10000.0 ** (-i / d)
    out = np.empty((T, d))
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="in-place overwrite", mistake="writes the rotated even features back into x before computing the odd ones, so the second line uses the already rotated values (and x is changed)",
         names=["in place", "overwrit", "copy", "already rotated", "modif"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos, sin = np.cos(angle), np.sin(angle)
    x[:, 0::2] = x[:, 0::2] * cos - x[:, 1::2] * sin
    x[:, 1::2] = x[:, 0::2] * sin + x[:, 1::2] * cos
    return x
'''),
    dict(exercise="ex3", kind="position not multiplied", mistake="rotates every row by theta_i alone, forgetting to multiply by the position m",
         names=["m·θ", "m * theta", "position m", "times the position", "same angle for every row"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    angle = np.broadcast_to(theta, (T, d // 2))
    out = np.empty((T, d))
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="result in halves", mistake="rotates the interleaved pairs correctly but returns the two parts concatenated as halves instead of writing them back interleaved",
         names=["layout", "interleave back", "concatenat", "keeps that layout", "halves"],
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    a, b = x[:, 0::2], x[:, 1::2]
    return np.hstack([a * np.cos(angle) - b * np.sin(angle), a * np.sin(angle) + b * np.cos(angle)])
'''),
    dict(exercise="ex3", kind="apply_rope under alias", mistake="calls helpers.positions.apply_rope under another name",
         names=["apply_rope", "do not call", "reference", "yourself"],
         code='''from helpers import positions as P


def my_rope(x):
    return P.apply_rope(x)
'''),
    # ---------------------------------------------------------------- ex4: rope_attention
    dict(exercise="ex4", kind="v rotated too", mistake="applies RoPE to v as well as to q and k",
         names=["rotates v", "the values", "not v", "v unrotated", "leave the values"],
         code='''def rope_attention(q, k, v, positions):
    q = apply_rope(q, positions=positions)
    k = apply_rope(k, positions=positions)
    v = apply_rope(v, positions=positions)
    return attention(q, k, v)
'''),
    dict(exercise="ex4", kind="only q rotated", mistake="rotates q but leaves k unrotated, so the scores depend on the absolute position of the query",
         names=["only q", "k too", "both q and k", "the keys", "rotate k"],
         code='''def rope_attention(q, k, v, positions):
    return attention(apply_rope(q, positions=positions), k, v)
'''),
    dict(exercise="ex4", kind="positions ignored", mistake="calls apply_rope without positions, so it uses 0..T-1 and misses the gap",
         names=["ignores the positions", "given positions", "gap", "0..t-1", "positions argument"],
         code='''def rope_attention(q, k, v, positions):
    return attention(apply_rope(q), apply_rope(k), v)
'''),
    dict(exercise="ex4", kind="tuple swapped", mistake="returns (weights, out) instead of (out, weights)",
         names=["order", "swapped", "weights first", "reversed tuple", "(out, weights)"],
         code='''def rope_attention(q, k, v, positions):
    out, weights = attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions), v)
    return weights, out
'''),
    dict(exercise="ex4", kind="rotates the output", mistake="runs attention on the unrotated q and k and rotates the output afterwards",
         names=["after attention", "rotates the output", "before attention", "the output", "q and k"],
         code='''def rope_attention(q, k, v, positions):
    out, weights = attention(q, k, v)
    return apply_rope(out, positions=positions), weights
'''),
    dict(exercise="ex4", kind="q rotated twice", mistake="rotates q once into a variable and again in the attention call, so q turns by twice its angle",
         names=["twice", "double", "once", "2m"],
         code='''def rope_attention(q, k, v, positions):
    q_rot = apply_rope(q, positions=positions)
    k_rot = apply_rope(k, positions=positions)
    return attention(apply_rope(q_rot, positions=positions), k_rot, v)
'''),
    dict(exercise="ex4", kind="out only", mistake="returns only the output, not the (out, weights) pair",
         names=["tuple", "weights", "(out, weights)", "pair"],
         code='''def rope_attention(q, k, v, positions):
    out, _ = attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions), v)
    return out
'''),
    # ---------------------------------------------------------------- ex5: my_alibi_bias
    dict(exercise="ex5", kind="heads from 0", mistake="counts the heads from 0, so the first slope is 2^0 = 1 and the last 2^(-8(H-1)/H)",
         names=["from 1", "h = 1..h", "count heads from 1", "first slope is 1", "off by one"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(n_heads) / n_heads)
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    dist = np.where(j <= i, i - j, 0)
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="positive penalty", mistake="forgets the minus sign, so distant keys get a bonus instead of a penalty",
         names=["sign", "negative", "positive", "minus", "penalty"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    dist = np.where(j <= i, i - j, 0)
    return slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="rows and columns swapped", mistake="uses j - i with rows as keys, so the penalty sits in the upper triangle (the future) and the past is 0",
         names=["transpose", "rows are queries", "upper triangle", "j - i", "rows and columns"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    dist = np.where(j >= i, j - i, 0)
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="symmetric distance", mistake="uses |i - j| everywhere instead of setting the future entries j > i to 0",
         names=["symmetric", "abs", "|i - j|", "both sides", "j > i"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    dist = np.abs(pos[:, None] - pos[None, :])
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="slopes reversed", mistake="lists the slopes from the last head to the first, so index 0 holds the smallest slope",
         names=["order", "reversed", "index 0 holds head 1", "smallest slope first", "largest slope"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(n_heads, 0, -1) / n_heads)
    dist = np.tril(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="hard-coded 8 heads", mistake="uses the paper's 8-head slopes 1/2, 1/4, ..., 1/256 whatever n_heads is",
         names=["hard-coded", "8 heads", "n_heads", "1/2, 1/4", "2^(-8h/h)"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 0.5 ** np.arange(1, 9)
    dist = np.tril(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="-inf in the future", mistake="puts -inf in the future entries j > i instead of 0, doing the causal mask's job inside the bias",
         names=["-inf", "inf", "0 for j > i", "0 where j > i", "mask"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    bias = -slopes[:, None, None] * (i - j)
    return np.where(j > i, -np.inf, bias)
'''),
    dict(exercise="ex5", kind="head axis last", mistake="broadcasts the slopes over the last axis, giving a (T, T, H) array instead of (H, T, T)",
         names=["head axis", "heads first", "last axis", "slopes[:, none, none]", "(t, t, h)"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    dist = np.tril(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -dist[:, :, None] * slopes[None, None, :]
'''),
    dict(exercise="ex5", kind="alibi_slopes under alias", mistake="calls helpers.positions.alibi_slopes (under another name) for the slopes",
         names=["alibi_slopes", "do not call", "reference", "yourself"],
         code='''import numpy as np

from helpers.positions import alibi_slopes as slopes_of


def my_alibi_bias(n_heads, T):
    dist = np.tril(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes_of(n_heads)[:, None, None] * dist
'''),
]

VALID = [
    dict(exercise="ex1", kind="undo the order on the output", code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    y = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = np.asarray(order)
        back = np.empty_like(order)
        back[order] = np.arange(len(order))
        if not np.allclose(attend(x[order])[back], y):
            return False
    return True
'''),
    dict(exercise="ex1", kind="all over a generator", code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    y = attend(x)
    orders = (list(p) for p in itertools.permutations(range(x.shape[0])))
    return all(np.allclose(attend(x[o]), y[o]) for o in orders)
'''),
    dict(exercise="ex2", kind="exp-log frequencies", code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T, dtype=float)[:, None]
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)
    angle = pos * freq
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(T, d_model)
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
    dict(exercise="ex3", kind="complex numbers", code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    z = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * angle)
    out = np.empty((T, d))
    out[:, 0::2] = z.real
    out[:, 1::2] = z.imag
    return out
'''),
    dict(exercise="ex3", kind="2x2 matrix per pair", code='''import numpy as np


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
    dict(exercise="ex4", kind="positions shifted to 0", code='''import numpy as np


def rope_attention(q, k, v, positions):
    pos = np.asarray(positions) - np.min(positions)
    q_r = apply_rope(q, positions=pos)
    k_r = apply_rope(k, positions=pos)
    return attention(q_r, k_r, v)
'''),
    dict(exercise="ex4", kind="stacked q and k", code='''import numpy as np


def rope_attention(q, k, v, positions):
    qk = apply_rope(np.stack([q, k]), positions=positions)
    out, weights = attention(qk[0], qk[1], v)
    return out, weights
'''),
    dict(exercise="ex5", kind="minimum of j - i", code='''import numpy as np


def my_alibi_bias(n_heads, T):
    h = np.arange(1, n_heads + 1)
    slopes = 2.0 ** (-8.0 * h / n_heads)
    rel = np.arange(T)[None, :] - np.arange(T)[:, None]
    return slopes[:, None, None] * np.minimum(rel, 0)
'''),
    dict(exercise="ex5", kind="explicit loops", code='''import numpy as np


def my_alibi_bias(n_heads, T):
    bias = np.zeros((n_heads, T, T))
    for h in range(n_heads):
        m = 2 ** (-8 * (h + 1) / n_heads)
        for i in range(T):
            for j in range(i + 1):
                bias[h, i, j] = -m * (i - j)
    return bias
'''),
]
