"""Held-out answers for exercises/02_one_row.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 scaled_scores
    dict(exercise="ex1", kind="scaled by d_k", mistake="divides the scores by d_k instead of sqrt(d_k)",
         names=["d_k instead of √d_k", "by d_k", "square root", "not the square root"],
         code='''def scaled_scores(q, k):
    return q @ k.T / k.shape[-1]
'''),
    dict(exercise="ex1", kind="unscaled", mistake="returns the raw dot products q @ k.T without dividing by sqrt(d_k)",
         names=["not scaled", "unscaled", "forgot to divide", "missing the scale", "raw dot products"],
         code='''def scaled_scores(q, k):
    return q @ k.T
'''),
    dict(exercise="ex1", kind="transposed k q", mistake="computes k @ q.T, so rows are keys and columns are queries",
         names=["transpose", "k @ q.t", "rows and columns", "(t_k, t_q)", "rows are queries"],
         code='''import numpy as np


def scaled_scores(q, k):
    return k @ q.T / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="sqrt of T_k", mistake="divides by the square root of the number of keys k.shape[0] instead of the key width",
         names=["key width", "number of keys", "t_k instead of d_k", "len(k)", "k.shape[0]"],
         code='''import numpy as np


def scaled_scores(q, k):
    return q @ k.T / np.sqrt(len(k))
'''),
    dict(exercise="ex1", kind="hard-coded sqrt 2", mistake="hard-codes the worked example's d_k = 2 as np.sqrt(2)",
         names=["hard-coded", "hardcoded", "d_k = 2", "other widths", "np.sqrt(2)"],
         code='''import numpy as np


def scaled_scores(q, k):
    return q @ k.T / np.sqrt(2)
'''),
    dict(exercise="ex1", kind="multiplied by sqrt", mistake="multiplies by sqrt(d_k) instead of dividing by it",
         names=["multipl", "instead of dividing", "inverted scale", "times √d_k", "times sqrt(d_k)"],
         code='''import numpy as np


def scaled_scores(q, k):
    return q @ k.T * np.sqrt(k.shape[-1])
'''),
    # ---------------------------------------------------------------- ex2 stable_softmax
    dict(exercise="ex2", kind="no max subtracted", mistake="exponentiates the raw scores, which overflows to inf/inf = NaN on large scores",
         names=["overflow", "inf / inf", "not stable", "without subtracting"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="global max", mistake="subtracts the maximum of the whole array instead of each row's own maximum, so a row far below it underflows to 0/0",
         names=["each row's own", "whole array", "global max", "np.max(s)", "max of the whole"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - np.max(s))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="axis 0", mistake="takes the softmax along axis 0 (down the columns) instead of along the last axis",
         names=["last axis", "axis=-1", "axis 0", "columns", "rows sum to 1"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
'''),
    dict(exercise="ex2", kind="no keepdims", mistake="drops keepdims, so the row max and row sum broadcast against the wrong axis on a 2-D input",
         names=["keepdims", "keepdims=true", "lined up", "[..., none]"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1))
    return e / e.sum(axis=-1)
'''),
    dict(exercise="ex2", kind="library softmax alias", mistake="calls the course's softmax under another name instead of writing it with np.exp, .max and .sum",
         names=["library softmax", "helpers.attention.softmax", "write it yourself", "refuses", "np.exp"],
         code='''from helpers.attention import softmax as sm


def stable_softmax(s):
    return sm(s, axis=-1)
'''),
    dict(exercise="ex2", kind="row minimum", mistake="subtracts each row's minimum instead of its maximum, which overflows on wide rows and gives NaN on -inf entries",
         names=["minimum", "min instead of max", "row min"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="overwrites input", mistake="subtracts the max and exponentiates in place, overwriting the caller's scores",
         names=["in place", "in-place", "modif", "overwrit", "copy"],
         code='''import numpy as np


def stable_softmax(s):
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s
'''),
    # ---------------------------------------------------------------- ex3 weighted_sum
    dict(exercise="ex3", kind="weights transposed", mistake="multiplies by the transposed weights, mixing with column i instead of row i",
         names=["transpose", "weights.t", "weights[j, i]", "column i"],
         code='''def weighted_sum(weights, v):
    return weights.T @ v
'''),
    dict(exercise="ex3", kind="divided by T_k", mistake="divides the weighted sum by the number of keys as if it still had to be averaged, though the weights already sum to 1",
         names=["number of keys", "divided by t_k", "average again", "/ v.shape[0]"],
         code='''def weighted_sum(weights, v):
    return (weights @ v) / v.shape[0]
'''),
    dict(exercise="ex3", kind="loop over T_k queries", mistake="loops over range(len(v)) for the queries, using the number of keys as the number of output rows",
         names=["number of queries", "len(v)", "rows of weights", "one row per query"],
         code='''import numpy as np


def weighted_sum(weights, v):
    out = np.zeros((len(v), v.shape[1]))
    for i in range(len(v)):
        for j in range(len(v)):
            out[i] += weights[i, j] * v[j]
    return out
'''),
    dict(exercise="ex3", kind="renormalised columns", mistake="divides the weights by their column sums before the product, re-normalising along the wrong axis",
         names=["column sums", "renormalis", "normalised again", "axis=0"],
         code='''def weighted_sum(weights, v):
    w = weights / weights.sum(axis=0, keepdims=True)
    return w @ v
'''),
    dict(exercise="ex3", kind="sum of values not weighted", mistake="adds the value vectors up with the same weight for every query, ignoring the weights",
         names=["weights[i, j]", "ignores the weights", "weighted", "every query the same", "unweighted"],
         code='''import numpy as np


def weighted_sum(weights, v):
    mean = v.mean(axis=0)
    return np.tile(mean, (weights.shape[0], 1))
'''),
    # ---------------------------------------------------------------- ex4 row_by_hand
    dict(exercise="ex4", kind="tuple order swapped", mistake="returns (weights_i, out_i) instead of (out_i, weights_i)",
         names=["wrong order", "(out_i, weights_i)", "(out, weights)"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w, w @ v
'''),
    dict(exercise="ex4", kind="no max subtracted", mistake="skips subtracting the maximum, so the exponentials overflow for scores near 850",
         names=["overflow", "subtract", "the maximum", "large scores", "inf / inf"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = (k @ q[i]) / np.sqrt(k.shape[-1])
    e = np.exp(s)
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="column of S", mistake="scores key i against every query (column i of S) instead of query i against every key",
         names=["column i of s", "query i against every key", "k[i]", "key i"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q @ k[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="averages keys", mistake="takes the weighted sum of the keys instead of the values (swapped K and V)",
         names=["swapped k and v", "keys instead", "weights @ k", "average the values", "weighted sum of the keys"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ k, w
'''),
    dict(exercise="ex4", kind="scaled after softmax", mistake="divides the weights by sqrt(d_k) after the softmax instead of scaling the scores before it",
         names=["before the softmax", "after the softmax", "sum to 1", "scale the scores"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i]
    e = np.exp(s - s.max())
    w = e / e.sum() / np.sqrt(k.shape[-1])
    return w @ v, w
'''),
    dict(exercise="ex4", kind="scaled by d_k", mistake="divides the scores by d_k instead of sqrt(d_k)",
         names=["d_k instead of √d_k", "by d_k", "square root", "sqrt(d_k)", "√d_k"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i] / k.shape[-1]
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="library attention row", mistake="calls the library attention function and picks row i, instead of computing the row by hand",
         names=["attention function", "by hand", "helpers.attention", "refuses", "yourself"],
         code='''from helpers.attention import attention as attn


def row_by_hand(q, k, v, i):
    out, w = attn(q, k, v)
    return out[i], w[i]
'''),
    # ---------------------------------------------------------------- ex5 attention_output
    dict(exercise="ex5", kind="mask after softmax", mistake="multiplies the weights by the mask after the softmax, so masked rows no longer sum to 1",
         names=["before softmax", "after softmax", "renormal", "rows no longer sum to 1"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = w * mask
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask inverted", mistake="puts -inf where the mask is True, blocking the allowed keys and keeping the blocked ones",
         names=["true = may attend", "inverted", "reversed", "the other way round", "~mask"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask ignored", mistake="accepts the mask argument but never applies it",
         names=["mask is ignored", "ignores the mask", "never applies", "mask not applied", "blocked key"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="scores times mask", mistake="multiplies the scores by the boolean mask, which sets blocked scores to 0 instead of -inf so they still get weight",
         names=["0 instead of -inf", "zero score", "s * mask", "scores by the mask", "still get weight"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s * mask
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="tuple order swapped", mistake="returns (weights, out) instead of (out, weights)",
         names=["wrong order", "(out, weights)"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w, w @ v
'''),
    dict(exercise="ex5", kind="unstable softmax", mistake="exponentiates the masked scores without subtracting the row max, which overflows on large scores",
         names=["overflow", "subtract", "row max", "stable", "inf / inf"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="python loop over rows", mistake="computes the rows one by one in a Python loop, which the exercise forbids",
         names=["loop", "without loops", "vectoris", "vectoriz", "all rows at once"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    T_q, T_k = q.shape[0], k.shape[0]
    w = np.zeros((T_q, T_k))
    for i in range(T_q):
        s = k @ q[i] / np.sqrt(k.shape[-1])
        if mask is not None:
            s = np.where(mask[i], s, -np.inf)
        e = np.exp(s - s.max())
        w[i] = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex5", kind="library attention alias", mistake="calls the library attention function under another name instead of writing the steps",
         names=["attention function", "helpers.attention", "refuses", "yourself", "by hand"],
         code='''from helpers import attention as lib


def attention_output(q, k, v, mask=None):
    return lib.attention(q, k, v, mask)
'''),
    dict(exercise="ex5", kind="scaled by sqrt T_k", mistake="scales the scores by the square root of the number of keys instead of the key width",
         names=["key width", "k.shape[-1]", "number of keys", "√d_k", "sqrt(d_k)"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[0])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
]

VALID = [
    dict(exercise="ex1", kind="einsum", code='''import numpy as np


def scaled_scores(q, k):
    return np.einsum("id,jd->ij", q, k) / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="scale q first, loops", code='''import math

import numpy as np


def scaled_scores(q, k):
    q_scaled = q / math.sqrt(k.shape[-1])
    S = np.empty((q.shape[0], k.shape[0]))
    for i in range(q.shape[0]):
        for j in range(k.shape[0]):
            S[i, j] = np.dot(q_scaled[i], k[j])
    return S
'''),
    dict(exercise="ex2", kind="log-sum-exp form", code='''import numpy as np


def stable_softmax(s):
    m = s.max(axis=-1, keepdims=True)
    shifted = s - m
    log_z = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return np.exp(shifted - log_z)
'''),
    dict(exercise="ex2", kind="np.amax and [..., None]", code='''import numpy as np


def stable_softmax(s):
    s = np.asarray(s, dtype=float)
    e = np.exp(s - np.amax(s, axis=-1)[..., None])
    total = np.sum(e, axis=-1)[..., None]
    return e / total
'''),
    dict(exercise="ex3", kind="einsum", code='''import numpy as np


def weighted_sum(weights, v):
    return np.einsum("ij,jd->id", weights, v)
'''),
    dict(exercise="ex3", kind="broadcast and sum", code='''def weighted_sum(weights, v):
    # (T_q, T_k, 1) * (1, T_k, d_v), summed over the keys
    return (weights[:, :, None] * v[None, :, :]).sum(axis=1)
'''),
    dict(exercise="ex4", kind="explicit loops", code='''import math


import numpy as np


def row_by_hand(q, k, v, i):
    d_k = k.shape[-1]
    scores = [float(np.dot(q[i], k[j])) / math.sqrt(d_k) for j in range(k.shape[0])]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    weights_i = np.array([e / total for e in exps])
    out_i = np.zeros(v.shape[1])
    for j in range(v.shape[0]):
        out_i = out_i + weights_i[j] * v[j]
    return out_i, weights_i
'''),
    dict(exercise="ex4", kind="row of the matrix product", code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = (q[i:i + 1] @ k.T)[0] / np.sqrt(q.shape[-1])
    e = np.exp(s - np.max(s))
    weights_i = e / np.sum(e)
    return np.einsum("j,jd->d", weights_i, v), weights_i
'''),
    dict(exercise="ex5", kind="einsum and additive bias", code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = np.einsum("id,jd->ij", q, k) / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s + np.where(mask, 0.0, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    weights = e / e.sum(axis=-1, keepdims=True)
    return np.einsum("ij,jd->id", weights, v), weights
'''),
    dict(exercise="ex5", kind="copy and boolean index", code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = (q @ k.T) * (1.0 / np.sqrt(q.shape[1]))
    if mask is None:
        mask = np.ones(s.shape, dtype=bool)
    s = s.copy()
    s[~mask] = -np.inf
    e = np.exp(s - s.max(axis=1)[:, None])
    weights = e / e.sum(axis=1)[:, None]
    out = weights @ v
    return out, weights
'''),
]
