"""Named wrong answers for solutions/02_one_row.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # ---- ex1: scaled scores
    dict(exercise="ex1", kind="missing scale", expect="forgot the scale",
         code='''def scaled_scores(q, k):
    return q @ k.T
'''),
    dict(exercise="ex1", kind="scaled by d_k", expect="instead of √d_k",
         code='''def scaled_scores(q, k):
    return q @ k.T / k.shape[-1]
'''),
    dict(exercise="ex1", kind="scaled by sqrt of T", expect="not the number of positions",
         code='''def scaled_scores(q, k):
    return q @ k.T / np.sqrt(k.shape[0])
'''),
    dict(exercise="ex1", kind="multiplied by the scale", expect="instead of dividing",
         code='''def scaled_scores(q, k):
    return q @ k.T * np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="transposed scores", expect="transposed",
         code='''def scaled_scores(q, k):
    return k @ q.T / np.sqrt(k.shape[-1])
'''),
    # ---- ex2: stable softmax
    dict(exercise="ex2", kind="softmax over axis 0", expect="softmax over the wrong axis",
         code='''def stable_softmax(s):
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
'''),
    dict(exercise="ex2", kind="no max subtraction", expect="did not subtract the row max",
         code='''def stable_softmax(s):
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="global max", expect="max of the whole array",
         code='''def stable_softmax(s):
    e = np.exp(s - s.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="not normalised", expect="without dividing",
         code='''def stable_softmax(s):
    return np.exp(s - s.max(axis=-1, keepdims=True))
'''),
    dict(exercise="ex2", kind="missing keepdims", expect="keepdims=True",
         code='''def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1))
    return e / e.sum(axis=-1)
'''),
    dict(exercise="ex2", kind="calls a library softmax", expect="write it yourself",
         code='''from helpers.attention import softmax


def stable_softmax(s):
    return softmax(s, axis=-1)
'''),
    # ---- ex3: weighted sum of values
    dict(exercise="ex3", kind="plain average of values", expect="ignored the weights",
         code='''def weighted_sum(weights, v):
    return np.broadcast_to(v.mean(axis=0), (weights.shape[0], v.shape[1]))
'''),
    dict(exercise="ex3", kind="softmax applied again", expect="softmax to the weights again",
         code='''def weighted_sum(weights, v):
    e = np.exp(weights - weights.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
'''),
    dict(exercise="ex3", kind="transposed output", expect="transposed",
         code='''def weighted_sum(weights, v):
    return (weights @ v).T
'''),
    dict(exercise="ex3", kind="summed over queries", expect="wrong axis",
         code='''def weighted_sum(weights, v):
    if weights.shape[0] != weights.shape[1]:
        return weights @ v
    return weights.T @ v
'''),
    # ---- ex4: one row by hand (required)
    dict(exercise="ex4", kind="missing scale", expect="forgot the scale",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="swapped K and V in the sum", expect="swapped K and V",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ k, w
'''),
    dict(exercise="ex4", kind="swapped K and V in the scores", expect="swapped K and V",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ v.T / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="softmax over the wrong axis", expect="softmax over the wrong axis",
         code='''def row_by_hand(q, k, v, i):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=0, keepdims=True))
    w = (e / e.sum(axis=0, keepdims=True))[i]
    return w @ v, w
'''),
    dict(exercise="ex4", kind="no max subtraction", expect="did not subtract the max",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(scores)
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="returned (weights, out)", expect="in that order",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w, w @ v
'''),
    dict(exercise="ex4", kind="calls attention", expect="do not call an attention function",
         code='''from helpers.attention import attention


def row_by_hand(q, k, v, i):
    out, w = attention(q, k, v)
    return out[i], w[i]
'''),
    # ---- ex5: full attention output
    dict(exercise="ex5", kind="swapped K and V", expect="swapped K and V",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ k, w
'''),
    dict(exercise="ex5", kind="missing scale", expect="forgot the scale",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="softmax over the wrong axis", expect="softmax over the wrong axis",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=0, keepdims=True))
    w = e / e.sum(axis=0, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask ignored", expect="ignore the mask",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask after softmax", expect="after softmax",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = w * mask
    return w @ v, w
'''),
    dict(exercise="ex5", kind="reversed causal mask", expect="reads the future",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask.T, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="blocked scores set to 0", expect="not -inf",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s * mask
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
]
MISTAKES.append(
    dict(exercise="ex5", kind="inverted mask", expect="inverted",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(~mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
)

MISTAKES += [
    # ---- ex1
    dict(exercise="ex1", kind="math.isqrt scale", expect="rounded down to a whole number",
         code='''import math


def scaled_scores(q, k):
    return q @ k.T / math.isqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="int(sqrt) scale", expect="rounded down to a whole number",
         code='''def scaled_scores(q, k):
    return q @ k.T / int(k.shape[-1] ** 0.5)
'''),
    dict(exercise="ex1", kind="scaled by sqrt of T_q", expect="number of queries",
         code='''def scaled_scores(q, k):
    return q @ k.T / np.sqrt(q.shape[0])
'''),
    dict(exercise="ex1", kind="queries against themselves", expect="which is T_q",
         code='''def scaled_scores(q, k):
    return q @ q.T / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="float16 arithmetic", expect="float16",
         code='''def scaled_scores(q, k):
    q, k = q.astype(np.float16), k.astype(np.float16)
    return q @ k.T / np.float16(np.sqrt(k.shape[-1]))
'''),
    dict(exercise="ex1", kind="calls the score helper", expect="calls scores",
         code='''from helpers.attention import scores


def scaled_scores(q, k):
    return scores(q, k)
'''),
    # ---- ex2
    dict(exercise="ex2", kind="divided by the row norm", expect="must sum to 1",
         code='''def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / np.sqrt((e ** 2).sum(axis=-1, keepdims=True))
'''),
    dict(exercise="ex2", kind="softmax of minus the scores", expect="largest score",
         code='''def stable_softmax(s):
    e = np.exp(-s - (-s).max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="-inf replaced by 0", expect="blocked key gets weight",
         code='''def stable_softmax(s):
    s = np.where(np.isinf(s), 0.0, s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="torch softmax", expect="write it yourself",
         code='''import torch


def stable_softmax(s):
    return torch.softmax(torch.as_tensor(s), dim=-1).numpy()
'''),
    # ---- ex3
    dict(exercise="ex3", kind="output rows normalised", expect="must be v[2]",
         code='''def weighted_sum(weights, v):
    out = weights @ v
    return out / out.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex3", kind="scaled by T_k", expect="must be v[2]",
         code='''def weighted_sum(weights, v):
    return weights @ v * weights.shape[1]
'''),
    dict(exercise="ex3", kind="first query's mix for every row", expect="puts all its weight",
         code='''def weighted_sum(weights, v):
    return np.tile(weights[0] @ v, (weights.shape[0], 1))
'''),
    dict(exercise="ex3", kind="calls attention", expect="calls attention",
         code='''from helpers.attention import attention


def weighted_sum(weights, v):
    return attention(np.log(weights), np.eye(weights.shape[1]), v, scale=1.0)[0]
'''),
    # ---- ex4
    dict(exercise="ex4", kind="isqrt scale", expect="rounded to a whole number",
         code='''import math


def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / math.isqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="whole weight matrix", expect="whole (T_q, T_k) matrix",
         code='''def row_by_hand(q, k, v, i):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return (w @ v)[i], w
'''),
    dict(exercise="ex4", kind="sum stops one value short", expect="must be (1, …, 1)",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w[:-1] @ v[:-1], w
'''),
    # ---- ex5
    dict(exercise="ex5", kind="no max subtraction", expect="did not subtract each row's max",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="isqrt scale", expect="rounded",
         code='''import math


def attention_output(q, k, v, mask=None):
    s = q @ k.T / math.isqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="returned (weights, out)", expect="in that order",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w, w @ v
'''),
    dict(exercise="ex5", kind="out from the unmasked weights", expect="unmasked weights",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w_all = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w_all @ v, w
'''),
    # ---- held-out answers (round 2): each was caught without its mistake named, or passed
    dict(exercise="ex1", kind="held-out: unscaled", expect="unscaled",
         code='''def scaled_scores(q, k):
    return q @ k.T
'''),
    dict(exercise="ex1", kind="held-out: hard-coded sqrt 2", expect="hard-coded",
         code='''import numpy as np


def scaled_scores(q, k):
    return q @ k.T / np.sqrt(2)
'''),
    dict(exercise="ex2", kind="held-out: row minimum", expect="minimum instead of its maximum",
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex3", kind="held-out: weights transposed", expect="column i of the weights",
         code='''def weighted_sum(weights, v):
    return weights.T @ v
'''),
    dict(exercise="ex3", kind="held-out: divided by T_k", expect="number of keys",
         code='''def weighted_sum(weights, v):
    return (weights @ v) / v.shape[0]
'''),
    dict(exercise="ex3", kind="held-out: loop over T_k queries", expect="one row per query",
         code='''import numpy as np


def weighted_sum(weights, v):
    out = np.zeros((len(v), v.shape[1]))
    for i in range(len(v)):
        for j in range(len(v)):
            out[i] += weights[i, j] * v[j]
    return out
'''),
    dict(exercise="ex3", kind="held-out: renormalised columns", expect="over their columns",
         code='''def weighted_sum(weights, v):
    w = weights / weights.sum(axis=0, keepdims=True)
    return w @ v
'''),
    dict(exercise="ex4", kind="held-out: column of S", expect="column i of the score matrix",
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q @ k[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex5", kind="held-out: mask after softmax", expect="after softmax",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = w * mask
    return w @ v, w
'''),
    dict(exercise="ex5", kind="held-out: mask inverted", expect="inverted",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="held-out: mask ignored", expect="ignore the mask",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="held-out: scores times mask", expect="not -inf",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s * mask
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="held-out: tuple order swapped", expect="return (out, weights)",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w, w @ v
'''),
    dict(exercise="ex5", kind="held-out: unstable softmax", expect="did not subtract",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="held-out: scaled by sqrt T_k", expect="the number of keys",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[0])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex2", kind="subtracts a finite row min (held-out d)", expect="largest score",
         code='''import numpy as np


def stable_softmax(s):
    s = np.asarray(s, dtype=float)
    finite = np.where(np.isinf(s), np.inf, s)
    e = np.exp(s - finite.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
]
