"""Named wrong answers for solutions/02_one_row.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # ---- ex1: scaled scores
    dict(exercise="ex1", kind="right scores as a torch tensor", expect="returned a torch tensor",
         id="generic.wrong-type",
         code='''import torch


def scaled_scores(q, k):
    q, k = torch.from_numpy(q), torch.from_numpy(k)
    return q @ k.T / k.shape[-1] ** 0.5
'''),
    dict(exercise="ex1", kind="missing scale", expect="forgot the scale",
         id="one_row.scale-missing",
         code='''def scaled_scores(q, k):
    return q @ k.T
'''),
    dict(exercise="ex1", kind="scaled by d_k", expect="instead of √d_k",
         id="one_row.scaled-by-dk",
         code='''def scaled_scores(q, k):
    return q @ k.T / k.shape[-1]
'''),
    dict(exercise="ex1", kind="scaled by sqrt of T", expect="not the number of positions",
         id="one_row.scaled-by-t-k",
         code='''def scaled_scores(q, k):
    return q @ k.T / np.sqrt(k.shape[0])
'''),
    dict(exercise="ex1", kind="multiplied by the scale", expect="instead of dividing",
         id="one_row.scale-multiplied",
         code='''def scaled_scores(q, k):
    return q @ k.T * np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="transposed scores", expect="transposed",
         id="one_row.scores-transposed",
         code='''def scaled_scores(q, k):
    return k @ q.T / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="a score set to inf by hand", expect="contains inf",
         id="generic.inf",
         code='''def scaled_scores(q, k):
    s = q @ k.T / np.sqrt(k.shape[-1])
    s[0, 0] = np.inf  # "make sure the first key wins"
    return s
'''),
    dict(exercise="ex1", kind="the scores negated", expect="sign flipped",
         id="generic.sign",
         code='''def scaled_scores(q, k):
    return -(q @ k.T) / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="each row scaled by its own position", expect="a factor of its own",
         id="generic.rows-rescaled",
         code='''def scaled_scores(q, k):
    s = q @ k.T / np.sqrt(k.shape[-1])
    return s * np.arange(1, s.shape[0] + 1)[:, None]
'''),
    dict(exercise="ex1", kind="the first two queries swapped", expect="in the wrong place",
         id="generic.permuted",
         code='''def scaled_scores(q, k):
    order = list(range(q.shape[0]))
    order[0], order[1] = order[1], order[0]
    return q[order] @ k.T / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="keys off by one position", expect="shifted by one",
         id="generic.shifted",
         code='''def scaled_scores(q, k):
    return q @ np.roll(k, 1, axis=0).T / np.sqrt(k.shape[-1])
'''),
    # ---- ex2: stable softmax
    dict(exercise="ex2", kind="softmax over axis 0", expect="softmax over the wrong axis",
         id="one_row.softmax-wrong-axis",
         code='''def stable_softmax(s):
    e = np.exp(s - s.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
'''),
    dict(exercise="ex2", kind="no max subtraction", expect="did not subtract the row max",
         id="one_row.softmax-no-max",
         code='''def stable_softmax(s):
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="global max", expect="max of the whole array",
         id="one_row.softmax-global-max",
         code='''def stable_softmax(s):
    e = np.exp(s - s.max())
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="not normalised", expect="without dividing",
         id="one_row.softmax-not-normalised",
         code='''def stable_softmax(s):
    return np.exp(s - s.max(axis=-1, keepdims=True))
'''),
    dict(exercise="ex2", kind="missing keepdims", expect="keepdims=True",
         id="one_row.softmax-keepdims",
         code='''def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1))
    return e / e.sum(axis=-1)
'''),
    dict(exercise="ex2", kind="calls a library softmax", expect="write it yourself",
         id="rule.forbidden-call",
         code='''from helpers.attention import softmax


def stable_softmax(s):
    return softmax(s, axis=-1)
'''),
    # ---- ex3: weighted sum of values
    dict(exercise="ex3", kind="plain average of values", expect="ignored the weights",
         id="one_row.weights-ignored-mean",
         code='''def weighted_sum(weights, v):
    return np.broadcast_to(v.mean(axis=0), (weights.shape[0], v.shape[1]))
'''),
    dict(exercise="ex3", kind="softmax applied again", expect="softmax to the weights again",
         id="one_row.softmax-again",
         code='''def weighted_sum(weights, v):
    e = np.exp(weights - weights.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v
'''),
    dict(exercise="ex3", kind="transposed output", expect="transposed",
         id="one_row.output-transposed",
         code='''def weighted_sum(weights, v):
    return (weights @ v).T
'''),
    dict(exercise="ex3", kind="summed over queries", expect="wrong axis",
         id="one_row.sum-over-queries",
         code='''def weighted_sum(weights, v):
    if weights.shape[0] != weights.shape[1]:
        return weights @ v
    return weights.T @ v
'''),
    # ---- ex4: one row by hand (required)
    dict(exercise="ex4", kind="missing scale", expect="forgot the scale",
         id="one_row.scale-missing",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="swapped K and V in the sum", expect="swapped K and V",
         id="one_row.kv-swapped",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ k, w
'''),
    dict(exercise="ex4", kind="swapped K and V in the scores", expect="swapped K and V",
         id="one_row.kv-swapped",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ v.T / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="softmax over the wrong axis", expect="softmax over the wrong axis",
         id="one_row.softmax-wrong-axis",
         code='''def row_by_hand(q, k, v, i):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=0, keepdims=True))
    w = (e / e.sum(axis=0, keepdims=True))[i]
    return w @ v, w
'''),
    dict(exercise="ex4", kind="no max subtraction", expect="did not subtract the max",
         id="one_row.softmax-no-max",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(scores)
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="returned (weights, out)", expect="in that order",
         id="one_row.tuple-order",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w, w @ v
'''),
    dict(exercise="ex4", kind="calls attention", expect="do not call an attention function",
         id="rule.forbidden-call",
         code='''from helpers.attention import attention


def row_by_hand(q, k, v, i):
    out, w = attention(q, k, v)
    return out[i], w[i]
'''),
    # ---- ex5: full attention output
    dict(exercise="ex5", kind="swapped K and V", expect="swapped K and V",
         id="one_row.kv-swapped",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ k, w
'''),
    dict(exercise="ex5", kind="missing scale", expect="forgot the scale",
         id="one_row.scale-missing",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="softmax over the wrong axis", expect="softmax over the wrong axis",
         id="one_row.softmax-wrong-axis",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=0, keepdims=True))
    w = e / e.sum(axis=0, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask ignored", expect="ignore the mask",
         id="one_row.mask-ignored",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="mask after softmax", expect="after softmax",
         id="one_row.mask-after-softmax",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    if mask is not None:
        w = w * mask
    return w @ v, w
'''),
    dict(exercise="ex5", kind="reversed causal mask", expect="reads the future",
         id="one_row.mask-reversed-causal",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask.T, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="blocked scores set to 0", expect="not -inf",
         id="one_row.mask-zero-not-inf",
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
         id="one_row.mask-inverted",
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
         id="one_row.scale-rounded",
         code='''import math


def scaled_scores(q, k):
    return q @ k.T / math.isqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="int(sqrt) scale", expect="rounded down to a whole number",
         id="one_row.scale-rounded",
         code='''def scaled_scores(q, k):
    return q @ k.T / int(k.shape[-1] ** 0.5)
'''),
    dict(exercise="ex1", kind="scaled by sqrt of T_q", expect="number of queries",
         id="one_row.scaled-by-t-q",
         code='''def scaled_scores(q, k):
    return q @ k.T / np.sqrt(q.shape[0])
'''),
    dict(exercise="ex1", kind="queries against themselves", expect="which is T_q",
         id="generic.wrong-size",
         code='''def scaled_scores(q, k):
    return q @ q.T / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex1", kind="float16 arithmetic", expect="float16",
         id="generic.precision",
         code='''def scaled_scores(q, k):
    q, k = q.astype(np.float16), k.astype(np.float16)
    return q @ k.T / np.float16(np.sqrt(k.shape[-1]))
'''),
    dict(exercise="ex1", kind="calls the score helper", expect="calls scores",
         id="rule.forbidden-call",
         code='''from helpers.attention import scores


def scaled_scores(q, k):
    return scores(q, k)
'''),
    # ---- ex2
    dict(exercise="ex2", kind="divided by the row norm", expect="must sum to 1",
         id="one_row.weights-not-normalised",
         code='''def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / np.sqrt((e ** 2).sum(axis=-1, keepdims=True))
'''),
    dict(exercise="ex2", kind="softmax of minus the scores", expect="largest score",
         id="one_row.order-not-kept",
         code='''def stable_softmax(s):
    e = np.exp(-s - (-s).max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="-inf replaced by 0", expect="blocked key gets weight",
         id="one_row.blocked-key-weighted",
         code='''def stable_softmax(s):
    s = np.where(np.isinf(s), 0.0, s)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="torch softmax", expect="write it yourself",
         id="rule.forbidden-call",
         code='''import torch


def stable_softmax(s):
    return torch.softmax(torch.as_tensor(s), dim=-1).numpy()
'''),
    # ---- ex3
    dict(exercise="ex3", kind="output rows normalised", expect="must be v[2]",
         id="one_row.one-hot-not-picked",
         code='''def weighted_sum(weights, v):
    out = weights @ v
    return out / out.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex3", kind="scaled by T_k", expect="must be v[2]",
         id="one_row.one-hot-not-picked",
         code='''def weighted_sum(weights, v):
    return weights @ v * weights.shape[1]
'''),
    dict(exercise="ex3", kind="first query's mix for every row", expect="puts all its weight",
         id="one_row.one-hot-not-picked",
         code='''def weighted_sum(weights, v):
    return np.tile(weights[0] @ v, (weights.shape[0], 1))
'''),
    dict(exercise="ex3", kind="calls attention", expect="calls attention",
         id="rule.forbidden-call",
         code='''from helpers.attention import attention


def weighted_sum(weights, v):
    return attention(np.log(weights), np.eye(weights.shape[1]), v, scale=1.0)[0]
'''),
    # ---- ex4
    dict(exercise="ex4", kind="isqrt scale", expect="rounded to a whole number",
         id="one_row.scale-missing",
         code='''import math


def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / math.isqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="whole weight matrix", expect="whole (T_q, T_k) matrix",
         id="one_row.whole-weight-matrix",
         code='''def row_by_hand(q, k, v, i):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return (w @ v)[i], w
'''),
    dict(exercise="ex4", kind="sum stops one value short", expect="must be (1, …, 1)",
         id="one_row.out-not-average",
         code='''def row_by_hand(q, k, v, i):
    scores = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(scores - scores.max())
    w = e / e.sum()
    return w[:-1] @ v[:-1], w
'''),
    # ---- ex5
    dict(exercise="ex5", kind="no max subtraction", expect="did not subtract each row's max",
         id="one_row.softmax-no-max",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s)
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="isqrt scale", expect="rounded",
         id="one_row.scale-rounded",
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
         id="one_row.tuple-order",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w, w @ v
'''),
    dict(exercise="ex5", kind="out from the unmasked weights", expect="unmasked weights",
         id="one_row.out-unmasked",
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
         id="one_row.scale-missing",
         code='''def scaled_scores(q, k):
    return q @ k.T
'''),
    dict(exercise="ex1", kind="held-out: hard-coded sqrt 2", expect="hard-coded",
         id="one_row.scale-hard-coded",
         code='''import numpy as np


def scaled_scores(q, k):
    return q @ k.T / np.sqrt(2)
'''),
    dict(exercise="ex2", kind="held-out: row minimum", expect="minimum instead of its maximum",
         id="one_row.softmax-row-min",
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex3", kind="held-out: weights transposed", expect="column i of the weights",
         id="one_row.sum-over-queries",
         code='''def weighted_sum(weights, v):
    return weights.T @ v
'''),
    dict(exercise="ex3", kind="held-out: divided by T_k", expect="number of keys",
         id="one_row.divided-by-t-k",
         code='''def weighted_sum(weights, v):
    return (weights @ v) / v.shape[0]
'''),
    dict(exercise="ex3", kind="held-out: loop over T_k queries", expect="one row per query",
         id="one_row.rows-per-key",
         code='''import numpy as np


def weighted_sum(weights, v):
    out = np.zeros((len(v), v.shape[1]))
    for i in range(len(v)):
        for j in range(len(v)):
            out[i] += weights[i, j] * v[j]
    return out
'''),
    dict(exercise="ex3", kind="held-out: renormalised columns", expect="over their columns",
         id="one_row.weights-renormalised",
         code='''def weighted_sum(weights, v):
    w = weights / weights.sum(axis=0, keepdims=True)
    return w @ v
'''),
    dict(exercise="ex4", kind="held-out: column of S", expect="column i of the score matrix",
         id="one_row.column-of-scores",
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q @ k[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex5", kind="held-out: mask after softmax", expect="after softmax",
         id="one_row.mask-after-softmax",
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
         id="one_row.mask-inverted",
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
         id="one_row.mask-ignored",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex5", kind="held-out: scores times mask", expect="not -inf",
         id="one_row.mask-zero-not-inf",
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
         id="one_row.tuple-order",
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
         id="one_row.softmax-no-max",
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
         id="one_row.scaled-by-t-k",
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
         id="one_row.weights-not-finite",
         code='''import numpy as np


def stable_softmax(s):
    s = np.asarray(s, dtype=float)
    finite = np.where(np.isinf(s), np.inf, s)
    e = np.exp(s - finite.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    # ---- one named wrong answer for each diagnosis id no entry above reaches
    dict(exercise="ex2", kind="divided by the whole array's sum", expect="sum of the WHOLE array",
         id="one_row.softmax-whole-array-sum",
         code='''import numpy as np


def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum()
'''),
    dict(exercise="ex2", kind="forgot the exp", expect="negative number",
         id="one_row.weights-negative",
         code='''def stable_softmax(s):
    return s / s.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex3", kind="divided by the number of queries", expect="number of queries",
         id="one_row.divided-by-t-q",
         code='''def weighted_sum(weights, v):
    return weights @ v / weights.shape[0]
'''),
    dict(exercise="ex4", kind="query row off by one", expect="another row",
         id="one_row.another-row",
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q[i + 1] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return w @ v, w
'''),
    dict(exercise="ex4", kind="values summed, weights forgotten", expect="plain sum of the values",
         id="one_row.weights-ignored-sum",
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q[i] @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    return v.sum(axis=0), w
'''),
    dict(exercise="ex4", kind="output of every row", expect="whole output matrix",
         id="one_row.whole-output",
         code='''import numpy as np


def row_by_hand(q, k, v, i):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w[i]
'''),
    dict(exercise="ex5", kind="a loop over the queries", expect="a `for` loop",
         id="one_row.loop-used",
         code='''import numpy as np


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = np.zeros_like(s)
    for i in range(len(q)):
        e = np.exp(s[i] - s[i].max())
        w[i] = e / e.sum()
    return w @ v, w
'''),
]
