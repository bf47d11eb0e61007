"""Held-out answers for exercises/02_one_row.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---- ex1 scaled_scores
    dict(exercise="ex1", kind="keys times queries", mistake="writes k @ q.T, so the result is (T_k, T_q): rows are keys instead of queries",
         names=["transpose", "k @ q.t", "rows and columns", "(t_k, t_q)"],
         code='''import numpy as np


def scaled_scores(q, k):
    return k @ q.T / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="scale from shape[0]", mistake="takes the scale from k.shape[0] (the number of keys) instead of the key width k.shape[-1]",
         names=["shape[0]", "number of keys", "number of rows", "length instead of width", "t_k instead of d_k"],
         code='''import numpy as np


def scaled_scores(q, k):
    return q @ k.T / np.sqrt(k.shape[0])
'''),
    dict(exercise="ex1", kind="precedence d_k ** 1/2", mistake="writes d_k ** 1/2, which Python reads as (d_k ** 1) / 2 = d_k / 2, not the square root",
         names=["precedence", "d_k / 2", "** 1/2", "half of d_k", "** 0.5"],
         code='''def scaled_scores(q, k):
    d_k = k.shape[-1]
    return (q @ k.T) / d_k ** 1/2
'''),
    dict(exercise="ex1", kind="hard-coded sqrt(2)", mistake="hard-codes √2 from the worked example (d_k = 2) instead of using the key width",
         names=["hard-coded", "d_k = 2", "sqrt(2)", "√2", "worked example"],
         code='''import numpy as np


def scaled_scores(q, k):
    return q @ k.T / np.sqrt(2)
'''),
    dict(exercise="ex1", kind="multiplies by sqrt", mistake="multiplies the scores by √d_k instead of dividing by it",
         names=["multipl", "instead of dividing", "times √d_k", "times sqrt(d_k)"],
         code='''import numpy as np


def scaled_scores(q, k):
    return q @ k.T * np.sqrt(k.shape[-1])
'''),
    # ---- ex2 stable_softmax
    dict(exercise="ex2", kind="global max", mistake="subtracts the maximum of the whole array instead of each row's own maximum, so a row far below the others underflows to 0/0",
         names=["each row's own max", "global max", "whole array", "per row", "own maximum"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="normalises columns", mistake="divides by the sum over axis 0 (columns) instead of the last axis",
         names=["axis=0", "axis 0", "columns", "last axis"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
'''),
    dict(exercise="ex2", kind="no keepdims", mistake="reduces without keepdims, so the row max and row sum broadcast along the wrong axis for a matrix",
         names=["keepdims", "line up", "broadcast", "lined up"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1))
    return e / e.sum(axis=-1)
'''),
    dict(exercise="ex2", kind="subtracts min", mistake="subtracts each row's minimum instead of its maximum, so a wide row still overflows",
         names=["minimum", ".min", "smallest", "instead of the max"],
         code='''import numpy as np


def stable_softmax(s):
    s = np.asarray(s, dtype=float)
    finite = np.where(np.isinf(s), np.inf, s)
    e = np.exp(s - finite.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="aliased library softmax", mistake="calls the course's library softmax under an alias instead of writing it",
         names=["library softmax", "helpers.attention", "write it yourself", "refuse", "your own"],
         code='''from helpers.attention import softmax as sm


def stable_softmax(s):
    return sm(s, axis=-1)
'''),
    # ---- ex3 weighted_sum
    dict(exercise="ex3", kind="transposed weights", mistake="multiplies weights.T by v, mixing the values with a column of the weights instead of a row",
         names=["transpose", "weights.t", "columns of the weights", "column"],
         code='''def weighted_sum(weights, v):
    return weights.T @ v
'''),
    dict(exercise="ex3", kind="sums over queries", mistake="broadcasts the product correctly but sums over the query axis instead of over j",
         names=["axis 0", "sum over the queries", "wrong axis", "over j", "sum over j"],
         code='''def weighted_sum(weights, v):
    return (weights[:, :, None] * v[None, :, :]).sum(axis=0)
'''),
    dict(exercise="ex3", kind="averages again", mistake="divides the weighted sum by T_k, as if it needed averaging, although the weights already sum to 1",
         names=["mean instead of", "divided by t_k", "already sum to 1", "averag"],
         code='''def weighted_sum(weights, v):
    return (weights @ v) / weights.shape[-1]
'''),
    dict(exercise="ex3", kind="loop uses v[i]", mistake="in the explicit loop multiplies weights[i, j] by v[i] instead of v[j]",
         names=["v[i]", "v_j", "index j", "row j of v"],
         code='''import numpy as np


def weighted_sum(weights, v):
    t_q, t_k = weights.shape
    out = np.zeros((t_q, v.shape[1]))
    for i in range(t_q):
        for j in range(t_k):
            out[i] += weights[i, j] * v[i]
    return out
'''),
    # ---- ex4 row_by_hand
    dict(exercise="ex4", kind="returns weights first", mistake="returns (weights_i, out_i) instead of (out_i, weights_i)",
         names=["order", "(out_i, weights_i)", "swapped", "weights first"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w, w @ v
'''),
    dict(exercise="ex4", kind="no max subtraction", mistake="skips subtracting the maximum, so exp overflows on large scores",
         names=["overflow", "subtract the max", "subtract their maximum", "large scores"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s)
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="key i against all queries", mistake="scores every query against key i (a column of S) instead of query i against every key",
         names=["column", "key i", "k[i]", "q[i] against every key", "query i against"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q @ k[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="scale after exp", mistake="divides by √d_k after exponentiating, where the normalisation cancels it, so the scores are effectively unscaled",
         names=["before exponentiating", "cancels", "unscaled", "not scaled", "scale the scores"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q[i] @ k.T
    e = np.exp(s - s.max()) / np.sqrt(k.shape[-1])
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="ignores i", mistake="always computes the row of query 0, ignoring the argument i",
         names=["row i", "ignores i", "q[0]", "query i", "argument i"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q[0] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    # ---- ex5 attention_output
    dict(exercise="ex5", kind="inverted mask", mistake="puts −inf where the mask is True, blocking exactly the keys that may be read",
         names=["invert", "true = may attend", "~mask", "opposite", "true means"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, -np.inf, s)
        s = np.where(np.isinf(s).all(axis=-1, keepdims=True), 0.0, s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask after softmax", mistake="zeroes the blocked weights after the softmax without renormalising, so rows no longer sum to 1",
         names=["after softmax", "before softmax", "renormal", "rows no longer sum", "after the softmax"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = w * mask
    return w @ v, w
'''),
    dict(exercise="ex5", kind="multiplies scores by mask", mistake="multiplies the scores by the mask, so blocked scores become 0 instead of −inf and still get weight",
         names=["multiplied the scores", "score 0", "zero instead of -inf", "0 instead of -inf", "0 instead of −inf"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s * mask
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="ignores mask", mistake="accepts the mask argument but never applies it",
         names=["ignor", "mask was not applied", "not applied", "unmasked", "mask is not used"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="scale by d_v", mistake="takes the scale from the value width v.shape[-1] instead of the key width d_k",
         names=["d_v", "v.shape", "value width", "√d_v", "sqrt(d_v)"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(v.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask in place", mistake="inverts the caller's mask in place (np.logical_not with out=mask), so the input mask is changed after the call",
         names=["in place", "modif", "changed the mask", "input"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        np.logical_not(mask, out=mask)
        s[mask] = -np.inf
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
    dict(exercise="ex1", kind="scale keys first loops", code='''import math

import numpy as np


def scaled_scores(q, k):
    ks = k / math.sqrt(k.shape[-1])
    out = np.empty((q.shape[0], k.shape[0]))
    for i in range(q.shape[0]):
        for j in range(k.shape[0]):
            out[i, j] = np.dot(q[i], ks[j])
    return out
'''),
    dict(exercise="ex2", kind="np functions", code='''import numpy as np


def stable_softmax(s):
    s = np.asarray(s, dtype=float)
    m = np.max(s, axis=-1, keepdims=True)
    e = np.exp(s - m)
    return e / np.sum(e, axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="row loop", code='''import numpy as np


def stable_softmax(s):
    s = np.asarray(s, dtype=float)
    flat = s.reshape(-1, s.shape[-1])
    out = np.empty_like(flat)
    for r in range(flat.shape[0]):
        e = np.exp(flat[r] - flat[r].max())
        out[r] = e / e.sum()
    return out.reshape(s.shape)
'''),
    dict(exercise="ex3", kind="einsum", code='''import numpy as np


def weighted_sum(weights, v):
    return np.einsum("ij,jd->id", weights, v)
'''),
    dict(exercise="ex3", kind="sum of scaled rows", code='''import numpy as np


def weighted_sum(weights, v):
    out = np.zeros((weights.shape[0], v.shape[1]))
    for j in range(v.shape[0]):
        out += np.outer(weights[:, j], v[j])
    return out
'''),
    dict(exercise="ex4", kind="explicit loops", code='''import math

import numpy as np


def row_by_hand(q, k, v, i):
    d_k = k.shape[-1]
    t_k = k.shape[0]
    scores = [float(np.dot(q[i], k[j])) / math.sqrt(d_k) for j in range(t_k)]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    weights = np.array([e / total for e in exps])
    out = np.zeros(v.shape[1])
    for j in range(t_k):
        out += weights[j] * v[j]
    return out, weights
'''),
    dict(exercise="ex4", kind="einsum keys", code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = np.einsum("d,jd->j", q[i], k) * (1.0 / np.sqrt(k.shape[-1]))
    s = s - np.max(s)
    w = np.exp(s)
    w /= w.sum()
    return np.einsum("j,jd->d", w, v), w
'''),
    dict(exercise="ex5", kind="einsum where", code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = np.einsum("id,jd->ij", q, k) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(np.asarray(mask, dtype=bool), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    return np.einsum("ij,jd->id", w, v), w
'''),
    dict(exercise="ex5", kind="copy then fill", code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = (q / np.sqrt(k.shape[-1])) @ k.T
    if mask is not None:
        s = s.copy()
        s[~np.asarray(mask, dtype=bool)] = -np.inf
    e = np.exp(s - np.max(s, axis=1, keepdims=True))
    w = e / np.sum(e, axis=1, keepdims=True)
    return np.matmul(w, v), w
'''),
]
