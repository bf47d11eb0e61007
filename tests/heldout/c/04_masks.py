"""Held-out answers for exercises/04_masks.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1: my_causal_mask
    dict(exercise="ex1", kind="upper triangle", mistake="uses np.triu instead of np.tril, so row i keeps the future columns i..T-1",
         names=["upper triangle", "triu", "reversed", "the future", "transpose"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex1", kind="diagonal excluded", mistake="keeps only j < i, so a query may not read its own key and row 0 is empty",
         names=["diagonal", "itself", "j < i", "own key", "k=-1"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool), k=-1)
'''),
    dict(exercise="ex1", kind="float mask", mistake="returns a float 0/1 matrix instead of a boolean one",
         names=["bool", "dtype", "float", "0/1"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.tril(np.ones((T, T)))
'''),
    dict(exercise="ex1", kind="previous token only", mistake="lets query i read only itself and the previous token i-1, not its whole prefix",
         names=["previous token", "only the previous", "whole prefix", "window", "columns 0..i"],
         code='''import numpy as np


def my_causal_mask(T):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return (j <= i) & (j >= i - 1)
'''),
    dict(exercise="ex1", kind="one step ahead", mistake="compares j <= i + 1, so every query also reads the next token",
         names=["next token", "one step ahead", "j <= i + 1", "i + 1", "superdiagonal"],
         code='''import numpy as np


def my_causal_mask(T):
    rows = np.arange(T).reshape(-1, 1)
    cols = np.arange(T).reshape(1, -1)
    return cols <= rows + 1
'''),
    dict(exercise="ex1", kind="hard-coded size", mistake="builds the 5 x 5 mask of the worked example whatever T is",
         names=["hard-coded", "ignores t", "fixed size", "whatever t"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.tril(np.ones((5, 5), dtype=bool))
'''),
    dict(exercise="ex1", kind="reference under alias", mistake="calls helpers.masks.causal_mask (under another name) instead of building the mask",
         names=["causal_mask", "helpers.masks", "yourself", "reference"],
         code='''from helpers.masks import causal_mask as tri


def my_causal_mask(T):
    return tri(T)
'''),
    # ---------------------------------------------------------------- ex2: masked_weights
    dict(exercise="ex2", kind="mask after softmax", mistake="runs softmax over all keys and only then zeroes the blocked weights, so rows sum to less than 1",
         names=["after the softmax", "before softmax", "before the softmax", "renormalis", "sum to less"],
         code='''def masked_weights(scores, mask):
    return softmax(scores, axis=-1) * mask
'''),
    dict(exercise="ex2", kind="boolean added", mistake="adds the boolean mask itself (1/0) to the scores instead of a 0/-inf bias",
         names=["boolean itself", "1 / 0", "1/0", "adds the mask", "additive_bias"],
         code='''def masked_weights(scores, mask):
    return softmax(scores + mask, axis=-1)
'''),
    dict(exercise="ex2", kind="inverted mask", mistake="treats True as blocked: builds the bias from ~mask, so the allowed keys get weight 0",
         names=["inverted", "~mask", "true = blocked", "opposite convention", "true = may attend"],
         code='''def masked_weights(scores, mask):
    return softmax(scores + additive_bias(~mask), axis=-1)
'''),
    dict(exercise="ex2", kind="softmax over queries", mistake="normalises over axis 0 (the queries, or the batch) instead of the keys on the last axis",
         names=["wrong axis", "over the queries", "last axis", "over the keys", "axis 0"],
         code='''import numpy as np


def masked_weights(scores, mask):
    return softmax(np.where(mask, scores, -np.inf), axis=0)
'''),
    dict(exercise="ex2", kind="zero score", mistake="sets the blocked scores to 0 instead of -inf, so exp gives them weight too",
         names=["score of 0", "zero score", "exp(0)", "set to 0", "instead of -inf"],
         code='''import numpy as np


def masked_weights(scores, mask):
    return softmax(np.where(mask, scores, 0.0), axis=-1)
'''),
    dict(exercise="ex2", kind="unstable exp", mistake="writes exp(scores) by hand without subtracting the row maximum, which overflows to NaN for large scores",
         names=["overflow", "stable", "subtract the max", "large scores", "maximum"],
         code='''import numpy as np


def masked_weights(scores, mask):
    e = np.exp(scores) * mask
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="renormalise after", mistake="masks after the softmax and renormalises, which underflows to 0/0 when a blocked score is much larger than the allowed ones",
         names=["renormalis", "after the softmax", "underflow", "0/0", "before softmax"],
         code='''def masked_weights(scores, mask):
    w = softmax(scores, axis=-1) * mask
    return w / w.sum(axis=-1, keepdims=True)
'''),
    # ---------------------------------------------------------------- ex3: reversed_causal_mask
    dict(exercise="ex3", kind="diagonal dropped", mistake="keeps only the strict upper triangle j > i, dropping the diagonal",
         names=["diagonal", "itself", "k=1", "j > i", "strict"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex3", kind="causal not reversed", mistake="returns the ordinary causal (lower) triangle instead of the reversed one",
         names=["lower triangle", "tril", "not reversed", "ordinary causal", "the past"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex3", kind="left-right flip", mistake="flips the causal mask left to right instead of transposing it, so row 0 keeps only the last column",
         names=["flip", "fliplr", "mirror", "anti-diagonal", "transpose"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.fliplr(np.tril(np.ones((T, T), dtype=bool)))
'''),
    dict(exercise="ex3", kind="float upper", mistake="returns the upper triangle as floats, not booleans",
         names=["bool", "dtype", "float"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.triu(np.ones((T, T)))
'''),
    dict(exercise="ex3", kind="loop misses last column", mistake="fills row i with columns i..T-2 (slice end T-1), so the last column is never True",
         names=["last column", "t-1", "t - 1", "off-by-one", "slice end"],
         code='''import numpy as np


def reversed_causal_mask(T):
    m = np.zeros((T, T), dtype=bool)
    for i in range(T):
        m[i, i:T - 1] = True
    return m
'''),
    # ---------------------------------------------------------------- ex4: reads_future
    dict(exercise="ex4", kind="no copy", mistake="adds eps to x itself instead of a copy, so earlier perturbations accumulate and the caller's x changes",
         names=["copy", "in place", "modif", "accumulat"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x[j] += eps
        out = attend(x)
        if not np.allclose(out[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares all outputs", mistake="compares every output, including outputs j and later that are allowed to read token j",
         names=["before j", "all outputs", "allowed to move", "outputs j", "out[:j]"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        if not np.allclose(attend(x2), base):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares outputs after j", mistake="looks at the outputs after j instead of the outputs before j",
         names=["after j", "before j", "later outputs", "wrong side", "out[:j]"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] = x2[j] + eps
        if not np.allclose(attend(x2)[j + 1:], base[j + 1:]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="includes output j", mistake="compares outputs 0..j, including output j itself, which may read token j",
         names=["output j", "itself", "out[:j+1]", "allowed to move", "before j"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        if not np.allclose(attend(x2)[:j + 1], base[:j + 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="skips last token", mistake="loops j over range(1, T-1), so it never changes the last token and misses a leak from it",
         names=["last token", "t-1", "t - 1", "range", "last position"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    T = len(x)
    base = attend(x)
    for j in range(1, T - 1):
        x2 = x.copy()
        x2[j] += eps
        if not np.allclose(attend(x2)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="perturbs a column", mistake="changes feature column j of every token (x[:, j]) instead of token row j",
         names=["column", "row j", "x[:, j]", "feature", "token j"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, x.shape[0]):
        x2 = x.copy()
        x2[:, j] += eps
        if not np.allclose(attend(x2)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="only output 0", mistake="checks only whether output 0 moved, so a leak into a later output i > 0 goes unseen",
         names=["output 0", "first output", "only position 0", "every output before"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        if not np.allclose(attend(x2)[0], base[0]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="returns the matrix", mistake="returns the (T, T) matrix of helpers.masks.leaks_future instead of a single bool",
         names=["bool", "single", "matrix", ".any()", "array"],
         code='''from helpers.masks import leaks_future


def reads_future(attend, x, eps=1.0):
    return leaks_future(attend, x, eps=eps)
'''),
    dict(exercise="ex4", kind="inverted answer", mistake="returns True when nothing moved and False when a later token leaked",
         names=["inverted", "the other way round", "opposite", "negat"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        if not np.allclose(attend(x2)[:j], base[:j]):
            return False
    return True
'''),
    # ---------------------------------------------------------------- ex5: batch_mask
    dict(exercise="ex5", kind="padding on queries", mistake="puts the real-token mask on the query axis (rows) instead of the key axis (columns)",
         names=["query axis", "key axis", "rows", "columns", "[:, none, :]"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)[:, :, None]
    m = np.broadcast_to(pad, (len(lengths), T, T))
    if causal:
        m = m & causal_mask(T)
    return m
'''),
    dict(exercise="ex5", kind="padding on both axes", mistake="masks the pads on both axes, so pad queries read nothing instead of the real keys",
         names=["pad queries", "both axes", "no allowed key", "query axis", "only the keys"],
         code='''def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)
    m = pad[:, :, None] & pad[:, None, :]
    if causal:
        m = m & causal_mask(T)
    return m
'''),
    dict(exercise="ex5", kind="always causal", mistake="ignores the causal flag and always combines the padding mask with the causal mask",
         names=["causal=false", "bidirectional", "encoder", "ignores causal", "causal flag"],
         code='''def batch_mask(lengths, T, causal):
    return padding_mask(lengths, T)[:, None, :] & causal_mask(T)
'''),
    dict(exercise="ex5", kind="logical or", mistake="combines the padding and causal masks with a logical or instead of and",
         names=["logical or", "or instead of and", "|", "logical and"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = np.broadcast_to(padding_mask(lengths, T)[:, None, :], (len(lengths), T, T))
    if causal:
        return pad | causal_mask(T)
    return pad
'''),
    dict(exercise="ex5", kind="not broadcast", mistake="returns the (B, 1, T) key mask for causal=False without broadcasting it to (B, T, T)",
         names=["broadcast_to", "broadcast it", "(b, 1, t)", "not broadcast"],
         code='''def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)[:, None, :]
    if causal:
        return pad & causal_mask(T)[None]
    return pad
'''),
    dict(exercise="ex5", kind="first pad kept", mistake="builds the padding mask with j <= lengths[b], so the first padding position stays readable",
         names=["off-by-one", "<=", "first pad", "j >= lengths[b]", "lengths[b] itself"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    lengths = np.asarray(lengths)
    j = np.arange(T)
    real = j[None, :] <= lengths[:, None]
    m = np.broadcast_to(real[:, None, :], (len(lengths), T, T))
    if causal:
        m = m & causal_mask(T)
    return m
'''),
    dict(exercise="ex5", kind="int product", mistake="combines the masks by multiplying integer copies, so the result is an int array, not bool",
         names=["bool", "dtype", "int"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T).astype(int)[:, None, :]
    tri = causal_mask(T).astype(int) if causal else np.ones((T, T), dtype=int)
    return pad * tri
'''),
    # ---------------------------------------------------------------- ex6: safe_attention
    dict(exercise="ex6", kind="nan_to_num with warning", mistake="lets softmax produce NaN for the dead rows and cleans it with nan_to_num, which raises a RuntimeWarning on the way",
         names=["warning", "nan_to_num", "runtimewarning", "errstate", "invalid value"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -2, -1) / np.sqrt(q.shape[-1])
    s = np.where(mask, s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    w = np.nan_to_num(w)
    return w @ v, w
'''),
    dict(exercise="ex6", kind="weights not zeroed", mistake="opens the dead rows to every key and zeroes their outputs but leaves their weights uniform",
         names=["zero their weights", "weights of the dead", "uniform weights", "weights too", "all-zero weights"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    out = np.where(dead[..., None], 0.0, out)
    return out, weights
'''),
    dict(exercise="ex6", kind="outputs not zeroed", mistake="zeroes the dead rows' weights but returns the output attention computed with them open, the mean of the values",
         names=["zero their output", "all-zero output", "mean of the values", "average of v", "outputs too"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    weights = np.where(dead[..., None], 0.0, weights)
    return out, weights
'''),
    dict(exercise="ex6", kind="dead columns", mistake="looks for dead keys (mask.any over the query axis) instead of query rows with no allowed key",
         names=["columns", "query axis", "keys instead of", "rows with no allowed key", "axis=-1"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-2)
    fixed = mask | dead[..., None]
    out, weights = attention(q, k, v, fixed)
    weights = np.where(dead[..., None], 0.0, weights)
    out = np.where(dead[..., None], 0.0, out)
    return out, weights
'''),
    dict(exercise="ex6", kind="axis 1 in a batch", mistake="finds the dead rows with any(axis=1), which is the key axis only for a 2-D mask and the query axis for a batched one",
         names=["axis=1", "batch", "leading", "last axis", "(..., t_q, t_k)"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=1)
    fixed = mask | dead[..., None]
    out, weights = attention(q, k, v, fixed)
    weights = weights * ~dead[..., None]
    out = out * ~dead[..., None]
    return out, weights
'''),
    dict(exercise="ex6", kind="unstable own softmax", mistake="writes the masked softmax without subtracting the row maximum, which overflows for large scores",
         names=["overflow", "stable", "subtract the max", "large scores", "maximum"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -2, -1) / np.sqrt(q.shape[-1])
    e = np.exp(s) * mask
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(total == 0, 1.0, total)
    return w @ v, w
'''),
]

VALID = [
    dict(exercise="ex1", kind="broadcast compare", code='''import numpy as np


def my_causal_mask(T):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return j <= i
'''),
    dict(exercise="ex1", kind="explicit loops", code='''import numpy as np


def my_causal_mask(T):
    m = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(i + 1):
            m[i, j] = True
    return m
'''),
    dict(exercise="ex2", kind="where and own softmax", code='''import numpy as np


def masked_weights(scores, mask):
    s = np.where(mask, scores, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="additive bias", code='''def masked_weights(scores, mask):
    return softmax(scores + additive_bias(mask), axis=-1)
'''),
    dict(exercise="ex3", kind="transpose of causal", code='''def reversed_causal_mask(T):
    return causal_mask(T).T
'''),
    dict(exercise="ex3", kind="index compare", code='''import numpy as np


def reversed_causal_mask(T):
    rows, cols = np.indices((T, T))
    return cols >= rows
'''),
    dict(exercise="ex4", kind="loop with early return", code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    T = x.shape[0]
    for j in range(1, T):
        changed = x.copy()
        changed[j] = changed[j] + eps
        moved = attend(changed)
        if not np.allclose(moved[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="any over generator", code='''import copy

import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)

    def moved_before(j):
        x2 = copy.deepcopy(x)
        x2[j] += eps
        return not np.allclose(attend(x2)[:j], base[:j])

    return bool(any(moved_before(j) for j in range(len(x) - 1, 0, -1)))
'''),
    dict(exercise="ex5", kind="index broadcasting", code='''import numpy as np


def batch_mask(lengths, T, causal):
    lengths = np.asarray(lengths)
    q = np.arange(T)[None, :, None]
    k = np.arange(T)[None, None, :]
    m = k < lengths[:, None, None]
    if causal:
        m = m & (k <= q)
    return np.broadcast_to(m, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="loop over sequences", code='''import numpy as np


def batch_mask(lengths, T, causal):
    B = len(lengths)
    out = np.zeros((B, T, T), dtype=bool)
    for b in range(B):
        out[b, :, : lengths[b]] = True
        if causal:
            out[b] &= causal_mask(T)
    return out
'''),
    dict(exercise="ex6", kind="open then zero", code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    keep = ~dead[..., None]
    return out * keep, weights * keep
'''),
    dict(exercise="ex6", kind="own stable softmax", code='''import numpy as np


def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -2, -1) / np.sqrt(q.shape[-1])
    s = np.where(mask, s, -np.inf)
    dead = ~mask.any(axis=-1, keepdims=True)
    top = np.where(dead, 0.0, s.max(axis=-1, keepdims=True))
    e = np.exp(s - top)
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(dead, 1.0, total)
    return w @ v, w
'''),
]
