"""Held-out answers for exercises/06_position.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1: is_permutation_equivariant
    dict(exercise="ex1", kind="reversal only",
         mistake="tests a single order (the reversal) instead of every order of the rows, so a "
                 "layer that is symmetric under reversal (a |i - j| distance bias) passes",
         names=["one order", "revers", "single order", "all permutations", "all t!"],
         code='''import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    order = np.arange(len(x))[::-1]
    return bool(np.allclose(attend(x[order]), attend(x)[order]))
'''),
    dict(exercise="ex1", kind="outputs not reordered",
         mistake="compares attend(x[order]) with attend(x) itself instead of attend(x)[order], "
                 "so it asks for invariance rather than equivariance",
         names=["attend(x)[order]", "reorder the outputs", "invarian", "same way"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    for order in itertools.permutations(range(len(x))):
        if not np.allclose(attend(x[list(order)]), y):
            return False
    return True
'''),
    dict(exercise="ex1", kind="exact equality",
         mistake="compares with exact equality (np.array_equal) instead of np.allclose, so the "
                 "last-bit differences of a reorder make an equivariant layer fail",
         names=["allclose", "exact", "last bits", "array_equal", "=="],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    return all(np.array_equal(attend(x[list(p)]), y[list(p)])
               for p in itertools.permutations(range(x.shape[0])))
'''),
    dict(exercise="ex1", kind="any instead of all",
         mistake="returns True when any order matches, and the identity order always does",
         names=["any(", "identity", "every order", "all(", "at least one"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    return any(np.allclose(attend(x[list(p)]), y[list(p)])
               for p in itertools.permutations(range(len(x))))
'''),
    dict(exercise="ex1", kind="permutes the features",
         mistake="takes the orders of x.shape[1] (the features) instead of the T rows, which "
                 "fails or compares the wrong rows whenever d != T",
         names=["rows", "x.shape[0]", "len(x)", "features", "number of positions"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    n = x.shape[1]
    for order in itertools.permutations(range(n)):
        order = list(order)
        if not np.allclose(attend(x[order]), y[order]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="hard-coded T = 4",
         mistake="hard-codes the 4 rows of the setup's x in permutations(range(4)) instead of "
                 "using T = len(x)",
         names=["hard-coded", "len(x)", "t = 4", "x.shape[0]", "range(4)"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    for order in itertools.permutations(range(4)):
        order = list(order)
        if not np.allclose(attend(x[order]), y[order]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="first row kept fixed",
         mistake="only permutes rows 1..T-1 (keeping row 0 in place), so a marker on the first "
                 "token goes unnoticed",
         names=["first row", "row 0", "first token", "position 0 in place", "keeps row 0"],
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    for rest in itertools.permutations(range(1, len(x))):
        order = [0, *rest]
        if not np.allclose(attend(x[order]), y[order]):
            return False
    return True
'''),

    # ---------------------------------------------------------------- ex2: my_sinusoidal
    dict(exercise="ex2", kind="exponent i/d",
         mistake="uses i / d_model instead of 2i / d_model in the exponent, so the frequencies "
                 "fall too slowly",
         names=["instead of 2i", "exponent", "frequenc", "factor 2", "wavelength"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    pos = np.arange(T)[:, None]
    i = np.arange(d_model // 2)
    angle = pos / 10000 ** (i / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="sin and cos swapped",
         mistake="puts the cosines on the even columns and the sines on the odd ones",
         names=["swap", "sin on the even", "even columns", "cos on the odd", "sines and cosines"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.cos(angle)
    pe[:, 1::2] = np.sin(angle)
    return pe
'''),
    dict(exercise="ex2", kind="halves layout",
         mistake="concatenates all sines then all cosines (halves) instead of interleaving "
                 "them on even and odd columns",
         names=["interleav", "halves", "concatenat", "even and odd", "0::2"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
'''),
    dict(exercise="ex2", kind="pairs not sharing angle",
         mistake="gives every column its own exponent (column j uses j / d_model), so the odd "
                 "column 2i+1 does not share the angle of column 2i",
         names=["share", "same angle", "pair", "2i+1", "one angle"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    j = np.arange(d_model)
    angle = np.arange(T)[:, None] / 10000 ** (j / d_model)      # (T, d_model)
    return np.where(j % 2 == 0, np.sin(angle), np.cos(angle))
'''),
    dict(exercise="ex2", kind="positions from 1",
         mistake="counts positions 1..T instead of 0..T-1",
         names=["position 0", "from 0", "off by one", "1..t", "0..t-1"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    pos = np.arange(1, T + 1)[:, None]
    angle = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.empty((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="multiplies by 10000 power",
         mistake="multiplies the position by 10000^(2i/d_model) instead of dividing by it",
         names=["divid", "multipl", "negative exponent", "10000^(-2i", "instead of dividing"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    angle = np.arange(T)[:, None] * 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="integer array",
         mistake="allocates the table with np.zeros_like of an integer array, so every sine and "
                 "cosine is truncated to an integer",
         names=["integer", "dtype", "float", "truncat"],
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    pos = np.arange(T)[:, None]
    angle = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros_like(np.tile(pos, (1, d_model)))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),

    # ---------------------------------------------------------------- ex3: my_rope
    dict(exercise="ex3", kind="rotation sign flipped",
         mistake="rotates by -m·θ_i (the sin terms have the wrong signs), the opposite direction "
                 "from the matrix in the text",
         names=["sign", "direction", "-sin", "opposite", "clockwise"],
         code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos, sin = np.cos(angle), np.sin(angle)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x1 * cos + x2 * sin
    out[:, 1::2] = -x1 * sin + x2 * cos
    return out
'''),
    dict(exercise="ex3", kind="halves pairing",
         mistake="pairs feature i with i + d/2 (the Hugging Face Llama rotate_half layout) "
                 "instead of the interleaved neighbours 2i, 2i+1",
         names=["rotate_half", "i + d/2", "llama", "halves", "interleaved neighbours"],
         code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos, sin = np.cos(angle), np.sin(angle)
    x1, x2 = x[:, : d // 2], x[:, d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=1)
'''),
    dict(exercise="ex3", kind="positions from 1",
         mistake="counts the rows as positions 1..T, so row 0 is rotated although position 0 "
                 "should not be",
         names=["position 0", "from 0", "off by one", "not rotated", "row 0"],
         code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    m = np.arange(1, T + 1)[:, None]
    angle = m * 10000.0 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.zeros((T, d))
    out[:, 0::2] = x1 * np.cos(angle) - x2 * np.sin(angle)
    out[:, 1::2] = x1 * np.sin(angle) + x2 * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="theta exponent i/d",
         mistake="uses θ_i = 10000^(-i/d) instead of 10000^(-2i/d)",
         names=["instead of 2i", "exponent", "frequenc", "θ_i", "theta_i"],
         code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(d // 2) / d)
    angle = np.arange(T)[:, None] * theta
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.zeros((T, d))
    out[:, 0::2] = x1 * np.cos(angle) - x2 * np.sin(angle)
    out[:, 1::2] = x1 * np.sin(angle) + x2 * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="in-place overwrite",
         mistake="writes the rotated even features back into x before computing the odd ones, "
                 "so the odd features use the already rotated values (and x is modified in place)",
         names=["in place", "overwrit", "copy", "modif", "mutat"],
         code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    cos, sin = np.cos(angle), np.sin(angle)
    x[:, 0::2] = x[:, 0::2] * cos - x[:, 1::2] * sin
    x[:, 1::2] = x[:, 0::2] * sin + x[:, 1::2] * cos
    return x
'''),
    dict(exercise="ex3", kind="result in halves",
         mistake="rotates the right interleaved pairs but returns them concatenated as halves "
                 "(all first members, then all second members) instead of keeping the layout",
         names=["layout", "write back", "0::2 and 1::2", "concatenat", "keeps that layout"],
         code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    r1 = x1 * np.cos(angle) - x2 * np.sin(angle)
    r2 = x1 * np.sin(angle) + x2 * np.cos(angle)
    return np.concatenate([r1, r2], axis=-1)
'''),

    # ---------------------------------------------------------------- ex4: rope_attention
    dict(exercise="ex4", kind="v rotated too",
         mistake="applies RoPE to v as well as to q and k",
         names=["rotate v", "not v", "values", "v as well", "leave v"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    return attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions),
                     apply_rope(v, positions=positions))
'''),
    dict(exercise="ex4", kind="positions ignored",
         mistake="calls apply_rope without positions, so the tokens are rotated as if they sat "
                 "at 0..T-1 and the gap is lost",
         names=["gap", "0..t-1", "ignor", "default positions", "positions argument"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    return attention(apply_rope(q), apply_rope(k), v)
'''),
    dict(exercise="ex4", kind="only q rotated",
         mistake="rotates q but not k, so the scores depend on the absolute position of the query",
         names=["both q and k", "rotate k", "k unrotated", "k as well", "unrotated k"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    q = apply_rope(q, positions=positions)
    return attention(q, k, v)
'''),
    dict(exercise="ex4", kind="tuple order swapped",
         mistake="returns (weights, out) instead of (out, weights)",
         names=["(out, weights)", "(weights, out)", "tuple order", "swapped the outputs"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    out, weights = attention(apply_rope(q, positions=positions),
                             apply_rope(k, positions=positions), v)
    return weights, out
'''),
    dict(exercise="ex4", kind="k built from q",
         mistake="copy-paste slip: rotates q twice and uses it as the keys (k = apply_rope(q, ...)), "
                 "so the real k is never used",
         names=["k from q", "q instead of k", "k is never used", "rotated q twice", "real k"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    q_rot = apply_rope(q, positions=positions)
    k_rot = apply_rope(q, positions=positions)
    return attention(q_rot, k_rot, v)
'''),
    dict(exercise="ex4", kind="q and k swapped in call",
         mistake="passes the rotated keys as queries and the queries as keys, so the weights "
                 "come out transposed",
         names=["transpose", "q and k swapped", "k, q", "order of the arguments", "queries and keys"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    q = apply_rope(q, positions=positions)
    k = apply_rope(k, positions=positions)
    return attention(k, q, v)
'''),
    dict(exercise="ex4", kind="positions only for q",
         mistake="rotates q by the given positions but k by the default 0..T-1",
         names=["same positions", "k's positions", "k with the default", "both q and k with", "positions for k"],
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    return attention(apply_rope(q, positions=positions), apply_rope(k), v)
'''),

    # ---------------------------------------------------------------- ex5: my_alibi_bias
    dict(exercise="ex5", kind="heads from 0",
         mistake="numbers the heads 0..H-1 in the slope formula, so the first head gets slope 1 "
                 "instead of 2^(-8/H)",
         names=["h = 1", "1..h", "off by one", "slope 1", "from 1"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    slopes = 2.0 ** (-8 * np.arange(n_heads) / n_heads)
    i, j = np.indices((T, T))
    dist = np.where(j <= i, i - j, 0)
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="sign flipped",
         mistake="adds +m_h·(i - j), a bonus for distance instead of a penalty",
         names=["sign", "bonus", "minus sign", "penalty instead", "negative"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    dist = np.clip(i - j, 0, None)
    return slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="symmetric |i - j|",
         mistake="uses the absolute distance |i - j| everywhere, so the entries above the "
                 "diagonal (j > i) are not 0",
         names=["j > i", "above the diagonal", "abs", "future", "upper triangle"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    dist = np.abs(pos[:, None] - pos[None, :])
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="transposed j - i",
         mistake="uses j - i with keys as rows, so the penalty sits above the diagonal: the "
                 "transpose of the bias",
         names=["transpose", "rows are queries", "j - i", "keys as rows", "rows and columns"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    pos = np.arange(T)
    dist = pos[None, :] - pos[:, None]                 # j - i
    dist = np.where(dist >= 0, dist, 0)
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="slopes reversed",
         mistake="orders the slopes from gentle to steep, so index 0 holds head H instead of head 1",
         names=["reversed", "head 1", "index 0", "steepest first", "gentle to steep"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    slopes = 2.0 ** (-8 * np.arange(n_heads, 0, -1) / n_heads)
    dist = np.tril(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="hard-coded 8 heads",
         mistake="uses the 8-head slopes 2^(-h) for every head count instead of 2^(-8h/H)",
         names=["hard-coded", "h = 8", "8 heads", "2^(-h)", "only for 8"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    slopes = 0.5 ** np.arange(1, n_heads + 1)          # 1/2, 1/4, ... as for 8 heads
    dist = np.maximum(np.arange(T)[:, None] - np.arange(T)[None, :], 0)
    return -slopes[:, None, None] * dist
'''),
    dict(exercise="ex5", kind="floor division exponent",
         mistake="computes the exponent with integer floor division (-8 * h // H), which is "
                 "wrong as soon as H > 8",
         names=["integer division", "//", "floor", "integer exponent"],
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    h = np.arange(1, n_heads + 1)
    slopes = 2.0 ** (-8 * h // n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.where(j <= i, i - j, 0)
'''),
]

VALID = [
    # ---------------------------------------------------------------- ex1
    dict(exercise="ex1", kind="loop, early return", code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = np.asarray(attend(x))
    for order in itertools.permutations(range(len(x))):
        idx = np.array(order)
        if not np.allclose(np.asarray(attend(x[idx])), y[idx]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="permutation matrices", code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    T = x.shape[0]
    y = attend(x)
    eye = np.eye(T)
    return all(np.allclose(attend(eye[list(p)] @ x), eye[list(p)] @ y)
               for p in itertools.permutations(range(T)))
'''),

    # ---------------------------------------------------------------- ex2
    dict(exercise="ex2", kind="explicit loops", code='''import math

import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    pe = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            a = pos / 10000 ** (2 * i / d_model)
            pe[pos, 2 * i] = math.sin(a)
            pe[pos, 2 * i + 1] = math.cos(a)
    return pe
'''),
    dict(exercise="ex2", kind="exp-log frequencies, stack", code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    freq = np.exp(-np.log(10000.0) * np.arange(0, d_model, 2) / d_model)   # (d_model/2,)
    angle = np.outer(np.arange(T), freq)                                  # (T, d_model/2)
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(T, d_model)
'''),

    # ---------------------------------------------------------------- ex3
    dict(exercise="ex3", kind="complex multiplication", code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    z = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * np.arange(T)[:, None] * theta)
    out = np.empty((T, d))
    out[:, 0::2] = z.real
    out[:, 1::2] = z.imag
    return out
'''),
    dict(exercise="ex3", kind="2x2 matrices einsum", code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    a = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)     # (T, d/2)
    c, s = np.cos(a), np.sin(a)
    R = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)     # (T, d/2, 2, 2)
    pairs = x.reshape(T, d // 2, 2)
    return np.einsum("tirc,tic->tir", R, pairs).reshape(T, d)
'''),

    # ---------------------------------------------------------------- ex4
    dict(exercise="ex4", kind="positions shifted to 0", code='''import numpy as np

from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    rel = np.asarray(positions) - np.min(positions)    # only offsets matter
    out, weights = attention(apply_rope(q, positions=rel), apply_rope(k, positions=rel), v)
    return out, weights
'''),
    dict(exercise="ex4", kind="q and k stacked", code='''import numpy as np

from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    q_rot, k_rot = apply_rope(np.stack([q, k]), positions=positions)
    return attention(q_rot, k_rot, v)
'''),

    # ---------------------------------------------------------------- ex5
    dict(exercise="ex5", kind="explicit loops", code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    bias = np.zeros((n_heads, T, T))
    for h in range(1, n_heads + 1):
        m = 2.0 ** (-8.0 * h / n_heads)
        for i in range(T):
            for j in range(i + 1):
                bias[h - 1, i, j] = -m * (i - j)
    return bias
'''),
    dict(exercise="ex5", kind="tril of distances, ratio slopes", code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    ratio = 2.0 ** (-8.0 / n_heads)
    slopes = ratio ** np.arange(1, n_heads + 1)
    dist = np.tril(np.subtract.outer(np.arange(T), np.arange(T))).astype(float)
    return -np.einsum("h,ij->hij", slopes, dist)
'''),
]
