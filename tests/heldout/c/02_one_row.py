"""Held-out answers for exercises/02_one_row.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------- ex1: scaled_scores ----------------
    dict(exercise="ex1", kind="scaled by d_k", mistake="divides the scores by d_k instead of √d_k",
         names=["d_k instead of √d_k", "d_k instead of sqrt", "divided by d_k", "by d_k rather", "not its square root"],
         code='''def scaled_scores(q, k):
    return q @ k.T / k.shape[-1]
'''),
    dict(exercise="ex1", kind="no scaling", mistake="returns the raw dot products q kᵀ without dividing by √d_k",
         names=["unscaled", "not scaled", "no scaling", "forgot to divide", "without the 1/√d_k"],
         code='''def scaled_scores(q, k):
    return q @ k.T
'''),
    dict(exercise="ex1", kind="transposed scores", mistake="computes k qᵀ, so rows are keys and columns are queries",
         names=["transpose", "k @ q.t", "rows and columns", "(t_k, t_q)", "row i holds query i"],
         code='''import numpy as np


def scaled_scores(q, k):
    return k @ q.T / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="scale from T_k", mistake="takes the scale from k.shape[0], the number of keys T_k, instead of the key width d_k",
         names=["t_k", "number of keys", "shape[0]", "length instead of the width", "shape[-1]"],
         code='''import numpy as np


def scaled_scores(q, k):
    return (q @ k.T) / np.sqrt(k.shape[0])
'''),
    dict(exercise="ex1", kind="integer square root", mistake="rounds the square root down to an integer with int(), so the scale is wrong unless d_k is a perfect square",
         names=["integer", "int(", "float", "rounded", "truncat"],
         code='''import math


def scaled_scores(q, k):
    d_k = k.shape[-1]
    return q @ k.T / int(math.sqrt(d_k))
'''),
    dict(exercise="ex1", kind="multiplied by sqrt", mistake="multiplies the scores by √d_k instead of dividing by it",
         names=["multipl", "times √d_k", "times sqrt", "instead of dividing", "d_k times too large"],
         code='''import numpy as np


def scaled_scores(q, k):
    return (q @ k.T) * np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="matched pairs only", mistake="multiplies q and k element-wise and sums, giving only the matched pairs q_i · k_i instead of every (query, key) pair",
         names=["diagonal", "matched", "every key", "q_i · k_i", "every pair"],
         code='''import numpy as np


def scaled_scores(q, k):
    return (q * k).sum(axis=-1) / np.sqrt(k.shape[-1])
'''),
    # ---------------- ex2: stable_softmax ----------------
    dict(exercise="ex2", kind="no max subtraction", mistake="exponentiates the raw scores without subtracting the row maximum, so large scores overflow",
         names=["overflow", "not subtracted", "without subtracting", "forgot to subtract", "subtract the max"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="sum over whole array", mistake="divides by the sum of the whole array instead of each row's own sum",
         names=["whole array", "each row", "every row sums", "all entries", "row's own sum"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum()
'''),
    dict(exercise="ex2", kind="max without keepdims", mistake="subtracts s.max(axis=-1) without keepdims, so for a square matrix each column is shifted by another row's max",
         names=["keepdims", "line up", "broadcast", "lined up", "another row's"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="global max", mistake="subtracts the maximum of the whole array rather than each row's own maximum, so a row far below the global max underflows to 0/0",
         names=["each row's own", "global max", "whole array's max", "row's own maximum", "own maximum"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - np.max(s))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="softmax over axis 0", mistake="takes the max and the sum along axis 0 (down the columns) instead of the last axis",
         names=["axis 0", "columns", "last axis", "first axis", "axis=0"],
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
'''),
    dict(exercise="ex2", kind="in-place subtraction", mistake="subtracts the max in place with -=, overwriting the caller's scores",
         names=["in place", "modifies", "input", "overwrit", "-="],
         code='''import numpy as np


def stable_softmax(s):
    s -= s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="library softmax alias", mistake="calls the course library's softmax under another name instead of writing it with np.exp, .max and .sum",
         names=["library softmax", "helpers.attention", "softmax yourself", "np.exp", "refuse"],
         code='''from helpers.attention import softmax as sm


def stable_softmax(s):
    return sm(s, axis=-1)
'''),
    dict(exercise="ex2", kind="-inf replaced by 0", mistake="replaces -inf scores by 0 before the softmax to avoid NaN, so blocked keys get a positive weight",
         names=["-inf", "blocked", "weight 0", "zero weight", "isinf"],
         code='''import numpy as np


def stable_softmax(s):
    s = np.where(np.isinf(s), 0.0, s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    # ---------------- ex3: weighted_sum ----------------
    dict(exercise="ex3", kind="weights transposed", mistake="multiplies by weights.T, mixing the values with a column of the weights instead of a row",
         names=["transpose", "weights.t", "columns of the weights", "row i of the weights"],
         code='''def weighted_sum(weights, v):
    return weights.T @ v
'''),
    dict(exercise="ex3", kind="sums over queries", mistake="broadcasts weights[:, :, None] * v and sums over the query axis instead of the key axis",
         names=["wrong axis", "sum over j", "over the keys", "axis=0", "query axis"],
         code='''def weighted_sum(weights, v):
    return (weights[:, :, None] * v[None, :, :]).sum(axis=0)
'''),
    dict(exercise="ex3", kind="mean instead of sum", mistake="averages the weighted values over the keys, dividing the weighted sum by T_k",
         names=["mean", "average", "divides by t_k", "divided by t_k"],
         code='''def weighted_sum(weights, v):
    return (weights[:, :, None] * v[None, :, :]).mean(axis=1)
'''),
    dict(exercise="ex3", kind="softmax again", mistake="applies a softmax to the weights again although they are already a softmax",
         names=["softmax again", "twice", "already a softmax", "already normalised"],
         code='''import numpy as np


def weighted_sum(weights, v):
    e = np.exp(weights - weights.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v
'''),
    dict(exercise="ex3", kind="loop skips last key", mistake="loops j over range(len(v) - 1), leaving the last key's value out of every sum",
         names=["last key", "off-by-one", "range", "len(v) - 1", "every key"],
         code='''import numpy as np


def weighted_sum(weights, v):
    t_q, d_v = weights.shape[0], v.shape[1]
    out = np.zeros((t_q, d_v))
    for i in range(t_q):
        for j in range(len(v) - 1):
            out[i] += weights[i, j] * v[j]
    return out
'''),
    dict(exercise="ex3", kind="uses v_i not v_j", mistake="multiplies each weight by the query's own row v[i] instead of the key's value v[j]",
         names=["v_j", "v[i]", "own value", "v[j]"],
         code='''import numpy as np


def weighted_sum(weights, v):
    t_q, t_k = weights.shape
    out = np.zeros((t_q, v.shape[1]))
    for i in range(t_q):
        out[i] = sum(weights[i, j] * v[i] for j in range(t_k))
    return out
'''),
    # ---------------- ex4: row_by_hand ----------------
    dict(exercise="ex4", kind="tuple reversed", mistake="returns (weights_i, out_i) instead of (out_i, weights_i)",
         names=["order", "(out_i, weights_i)", "swapped", "reversed", "other way round"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w, w @ v
'''),
    dict(exercise="ex4", kind="no max subtraction", mistake="skips the subtract-the-maximum step, so scores near 850 overflow to inf and NaN",
         names=["overflow", "subtract", "large scores", "maximum", "nan"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i] / np.sqrt(k.shape[-1])
    e = np.exp(s)
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="scores against key i", mistake="scores key i against every query (q @ k[i]) instead of query i against every key",
         names=["key i", "k[i]", "every key", "q[i]", "all queries"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q @ k[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="scaled by d_k", mistake="scales the scores by 1/d_k instead of 1/√d_k",
         names=["d_k instead of √d_k", "d_k instead of sqrt", "divided by d_k", "not its square root"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i] / k.shape[-1]
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="no scaling", mistake="forgets to scale the scores by 1/√d_k",
         names=["unscaled", "not scaled", "no scaling", "forgot to scale", "without the 1/√d_k"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i]
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="hard-coded row 0", mistake="always computes row 0, as in the worked example, ignoring the argument i",
         names=["ignores i", "q[0]", "row 0", "query row i", "argument i"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[0] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="weights the keys", mistake="takes the weighted sum of the keys instead of the values",
         names=["keys instead of values", "w @ k", "the values", "v_j", "weighted sum of the keys"],
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = k @ q[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ k, w
'''),
    # ---------------- ex5: attention_output ----------------
    dict(exercise="ex5", kind="mask inverted", mistake="puts -inf where the mask is True, blocking the allowed keys and keeping the blocked ones",
         names=["inverted", "true = may attend", "~mask", "other way round", "flipped"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask after softmax", mistake="zeroes the blocked weights after the softmax without renormalising, so rows no longer sum to 1",
         names=["before softmax", "after softmax", "renormal", "sum to 1", "after the softmax"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = w * mask
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask multiplies scores", mistake="multiplies the scores by the mask, which sets blocked scores to 0 instead of -inf",
         names=["multipl", "set to 0", "zero instead of", "score of 0", "s * mask"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s * mask
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask ignored", mistake="accepts the mask argument but never applies it",
         names=["ignores the mask", "mask is not applied", "never uses the mask", "blocked keys get", "mask has no effect"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="tuple reversed", mistake="returns (weights, out) instead of (out, weights)",
         names=["order", "(out, weights)", "swapped", "reversed", "other way round"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w, w @ v
'''),
    dict(exercise="ex5", kind="scale from d_v", mistake="takes the scale from the value width v.shape[-1] instead of the key width d_k",
         names=["d_v", "width of v", "v.shape", "value width", "key width"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(v.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="softmax over queries", mistake="normalises down the columns (axis 0, over the queries) instead of along the last axis",
         names=["axis 0", "columns", "last axis", "over the queries", "axis=0"],
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=0, keepdims=True))
    w = e / e.sum(axis=0, keepdims=True)
    return w @ v, w
'''),
]

VALID = [
    dict(exercise="ex1", kind="einsum", code='''import numpy as np


def scaled_scores(q, k):
    return np.einsum("id,jd->ij", q, k) / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="explicit loops", code='''import math

import numpy as np


def scaled_scores(q, k):
    t_q, t_k, d_k = q.shape[0], k.shape[0], k.shape[-1]
    s = np.empty((t_q, t_k))
    for i in range(t_q):
        for j in range(t_k):
            s[i, j] = float(np.dot(q[i], k[j])) / math.sqrt(d_k)
    return s
'''),
    dict(exercise="ex2", kind="logsumexp form", code='''import numpy as np


def stable_softmax(s):
    s = np.asarray(s, dtype=float)
    m = np.max(s, axis=-1, keepdims=True)
    log_z = m + np.log(np.sum(np.exp(s - m), axis=-1, keepdims=True))
    return np.exp(s - log_z)
'''),
    dict(exercise="ex2", kind="expand dims by hand", code='''import numpy as np


def stable_softmax(s):
    shifted = s - s.max(axis=-1)[..., np.newaxis]
    e = np.exp(shifted)
    return e / e.sum(axis=-1)[..., np.newaxis]
'''),
    dict(exercise="ex3", kind="einsum", code='''import numpy as np


def weighted_sum(weights, v):
    return np.einsum("ij,jd->id", weights, v)
'''),
    dict(exercise="ex3", kind="loop over queries", code='''import numpy as np


def weighted_sum(weights, v):
    rows = []
    for w_i in weights:
        rows.append(sum(w_ij * v_j for w_ij, v_j in zip(w_i, v)))
    return np.array(rows, dtype=float).reshape(weights.shape[0], v.shape[1])
'''),
    dict(exercise="ex4", kind="plain python loop", code='''import math

import numpy as np


def row_by_hand(q, k, v, i):
    d_k = k.shape[-1]
    scores = [float(np.dot(q[i], k_j)) / math.sqrt(d_k) for k_j in k]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    weights = np.array([e / total for e in exps])
    out = np.zeros(v.shape[1])
    for w_j, v_j in zip(weights, v):
        out = out + w_j * v_j
    return out, weights
'''),
    dict(exercise="ex4", kind="einsum one row", code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = np.einsum("d,jd->j", q[i], k) / np.sqrt(k.shape[-1])
    e = np.exp(s - np.max(s))
    weights = e / np.sum(e)
    return np.einsum("j,jd->d", weights, v), weights
'''),
    dict(exercise="ex5", kind="einsum and masked copy", code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = np.einsum("id,jd->ij", q, k) / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s.copy()
        s[~np.asarray(mask, dtype=bool)] = -np.inf
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    weights = e / e.sum(axis=-1, keepdims=True)
    return np.einsum("ij,jd->id", weights, v), weights
'''),
    dict(exercise="ex5", kind="library softmax", code='''import numpy as np

from helpers.attention import softmax


def attention_output(q, k, v, mask=None):
    s = (q @ np.swapaxes(k, -1, -2)) * (1.0 / np.sqrt(k.shape[-1]))
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    weights = softmax(s, axis=-1)
    return weights @ v, weights
'''),
]
