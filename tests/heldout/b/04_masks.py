"""Held-out answers for exercises/04_masks.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 my_causal_mask
    dict(exercise="ex1", kind="float ones", mistake="returns np.tril of a float array of ones, so the mask is 0.0/1.0 floats instead of booleans",
         names=["bool", "dtype", "float", "booleans"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.tril(np.ones((T, T)))
'''),
    dict(exercise="ex1", kind="upper triangle", mistake="keeps the upper triangle (np.triu), so each query reads the future instead of the past",
         names=["upper triangle", "triu", "future", "reversed"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex1", kind="diagonal excluded", mistake="uses k=-1, so a query may not read its own position",
         names=["diagonal", "itself", "k=-1", "own position"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool), k=-1)
'''),
    dict(exercise="ex1", kind="library causal_mask", mistake="calls the causal_mask helper that the check uses as its reference instead of building the mask",
         names=["helpers.masks.causal_mask", "causal_mask", "yourself", "reference", "build it"],
         code='''from helpers.masks import causal_mask as cm


def my_causal_mask(T):
    return cm(T).copy()
'''),
    dict(exercise="ex1", kind="comparison reversed", mistake="compares i <= j instead of j <= i, which gives the transposed (upper) mask",
         names=["j ≤ i", "j <= i", "transpose", "upper triangle", "reversed"],
         code='''import numpy as np


def my_causal_mask(T):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return i <= j
'''),
    dict(exercise="ex1", kind="hard-coded size", mistake="builds the mask for the setup's T = 5 and slices it, so it breaks for T > 5",
         names=["hard-coded", "hardcoded", "t = 5", "any t", "other sizes"],
         code='''import numpy as np

_MASK = np.tril(np.ones((5, 5), dtype=bool))


def my_causal_mask(T):
    return _MASK[:T, :T]
'''),
    # ---------------------------------------------------------------- ex2 masked_weights
    dict(exercise="ex2", kind="mask after softmax", mistake="multiplies the softmax by the mask afterwards, so the rows no longer sum to 1",
         names=["before softmax", "sum to 1", "after softmax", "renormal"],
         code='''def masked_weights(scores, mask):
    return softmax(scores, axis=-1) * mask
'''),
    dict(exercise="ex2", kind="bias inverted", mistake="builds the bias from ~mask, blocking the allowed keys instead of the blocked ones",
         names=["true = may attend", "inverted", "~mask", "reversed", "the other way round"],
         code='''def masked_weights(scores, mask):
    return softmax(scores + additive_bias(~mask), axis=-1)
'''),
    dict(exercise="ex2", kind="scores times mask", mistake="multiplies the scores by the mask, setting blocked scores to 0 instead of -inf",
         names=["-inf", "0 instead of -inf", "multipl", "zero score", "still get weight"],
         code='''def masked_weights(scores, mask):
    return softmax(scores * mask, axis=-1)
'''),
    dict(exercise="ex2", kind="softmax over queries", mistake="takes the softmax along axis -2 (over the queries) instead of over the keys",
         names=["over the keys", "last axis", "axis=-1", "axis=-2", "queries"],
         code='''def masked_weights(scores, mask):
    return softmax(scores + additive_bias(mask), axis=-2)
'''),
    dict(exercise="ex2", kind="blocked scores set to 0", mistake="puts 0 instead of -inf at the blocked scores with np.where",
         names=["-inf", "0 instead of -inf", "zero score", "exp(0)", "still get weight"],
         code='''import numpy as np


def masked_weights(scores, mask):
    return softmax(np.where(mask, scores, 0.0), axis=-1)
'''),
    dict(exercise="ex2", kind="scores overwritten", mistake="writes -inf into the caller's scores array in place before the softmax",
         names=["in place", "in-place", "modif", "overwrit", "copy"],
         code='''import numpy as np


def masked_weights(scores, mask):
    scores[~mask] = -np.inf
    return softmax(scores, axis=-1)
'''),
    # ---------------------------------------------------------------- ex3 reversed_causal_mask
    dict(exercise="ex3", kind="diagonal dropped", mistake="uses np.triu with k=1, leaving out the diagonal the exercise asks to keep",
         names=["diagonal included", "itself", "k=1", "drops the diagonal"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex3", kind="plain causal", mistake="returns the ordinary lower-triangular causal mask, not its mirror image",
         names=["lower triangle", "not reversed", "ordinary causal", "tril"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex3", kind="negated causal", mistake="negates the causal mask, which also removes the diagonal",
         names=["diagonal included", "~causal", "negat", "drops the diagonal"],
         code='''def reversed_causal_mask(T):
    return ~causal_mask(T)
'''),
    dict(exercise="ex3", kind="flipped left-right", mistake="mirrors the causal mask left to right (np.fliplr) instead of across the diagonal",
         names=["across the diagonal", "fliplr", "left-right", "transpose"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.fliplr(causal_mask(T))
'''),
    dict(exercise="ex3", kind="float upper triangle", mistake="returns np.triu of float ones, so the mask is not boolean",
         names=["bool", "dtype", "float", "booleans"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.triu(np.ones((T, T)))
'''),
    # ---------------------------------------------------------------- ex4 reads_future
    dict(exercise="ex4", kind="no copy", mistake="adds eps to row j of x itself instead of a copy, so the changes pile up and the caller's x is modified",
         names=["copy", "in place", "in-place", "modif", "pile up"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x[j] += eps
        if not np.allclose(attend(x)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares every output", mistake="compares all outputs, including j and later, which are allowed to move",
         names=["allowed to move", "every output", "all outputs", "only the outputs before"],
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
    dict(exercise="ex4", kind="includes output j", mistake="compares outputs 0..j instead of 0..j-1, so output j, which may read token j, counts as a leak",
         names=["off by one", "off-by-one", "output j", "[:j + 1]", "including j"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] = x2[j] + eps
        if not np.allclose(attend(x2)[:j + 1], base[:j + 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="last token only", mistake="changes only the last token, so a leak from any earlier token goes unnoticed",
         names=["only the last", "last token only", "earlier token", "t−1 only"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    j = len(x) - 1
    x2 = x.copy()
    x2[j] += eps
    return not np.allclose(attend(x2)[:j], base[:j])
'''),
    dict(exercise="ex4", kind="feature column perturbed", mistake="changes feature j of every token (x[:, j]) instead of token j (row j)",
         names=["row j", "token j", "x[:, j]", "column j", "feature j"],
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
    dict(exercise="ex4", kind="returns in first iteration", mistake="returns inside the loop at j = 1, so only the first later token is ever tested",
         names=["return inside", "only j = 1", "early return", "first j only"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        return not np.allclose(attend(x2)[:j], base[:j])
    return False
'''),
    dict(exercise="ex4", kind="outputs after j", mistake="compares the outputs after j instead of those before it",
         names=["after j", "earlier outputs", "[j + 1:]", "later outputs"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        if not np.allclose(attend(x2)[j + 1:], base[j + 1:]):
            return True
    return False
'''),
    # ---------------------------------------------------------------- ex5 batch_mask
    dict(exercise="ex5", kind="padding on query rows", mistake="broadcasts the padding mask over the key columns ([:, :, None]), blocking padded query rows instead of padded keys",
         names=["[:, :, none]", "key axis", "(b, t, 1)", "rows instead of columns"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)[:, :, None]          # (B, T, 1)
    mask = np.broadcast_to(pad, (len(lengths), T, T))
    if causal:
        mask = mask & causal_mask(T)
    return mask
'''),
    dict(exercise="ex5", kind="causal flag ignored", mistake="always combines with the causal mask, even when causal=False",
         names=["causal=false", "bidirectional", "padding mask alone", "ignores causal", "causal flag"],
         code='''def batch_mask(lengths, T, causal):
    return padding_mask(lengths, T)[:, None, :] & causal_mask(T)[None]
'''),
    dict(exercise="ex5", kind="or instead of and", mistake="combines the padding and causal masks with | instead of &",
         names=["| instead of &", "combine with &", "or instead of and", "logical and", "union"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = np.broadcast_to(padding_mask(lengths, T)[:, None, :], (len(lengths), T, T))
    if causal:
        return pad | causal_mask(T)
    return pad
'''),
    dict(exercise="ex5", kind="not broadcast", mistake="returns the (B, 1, T) key mask without broadcasting it to (B, T, T) when causal=False",
         names=["(b, t, t)", "not broadcast", "(b, 1, t)", "broadcast_to"],
         code='''def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)[:, None, :]
    if causal:
        return pad & causal_mask(T)
    return pad
'''),
    dict(exercise="ex5", kind="length off by one", mistake="keeps positions j <= lengths[b], so the first padding position is still readable",
         names=["off by one", "off-by-one", "j ≥ lengths[b]", "< lengths", "first padding"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    lengths = np.asarray(lengths)
    real = np.arange(T)[None, :] <= lengths[:, None]      # (B, T)
    mask = np.broadcast_to(real[:, None, :], (len(lengths), T, T))
    if causal:
        mask = mask & np.tril(np.ones((T, T), dtype=bool))
    return mask
'''),
    dict(exercise="ex5", kind="padded queries blocked too", mistake="also blocks every padded query row, which the exercise's padding mask broadcast over the queries does not do",
         names=["padded queries", "query padding", "blocks the padded queries", "keys only"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    real = padding_mask(lengths, T)
    mask = real[:, :, None] & real[:, None, :]
    if causal:
        mask = mask & causal_mask(T)
    return mask
'''),
    # ---------------------------------------------------------------- ex6 safe_attention
    dict(exercise="ex6", kind="empty rows not zeroed", mistake="lets the rows with no allowed key attend everywhere but never sets their weights and output to zero",
         names=["all-zero", "not zeroed", "zero weights", "uniform"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    empty = ~mask.any(axis=-1, keepdims=True)
    return attention(q, k, v, mask | empty)
'''),
    dict(exercise="ex6", kind="nan_to_num with warnings", mistake="computes a plain masked softmax that produces NaN (and a RuntimeWarning) for the empty rows and cleans it up afterwards with np.nan_to_num",
         names=["warning", "runtimewarning", "0 / 0", "invalid value", "nan_to_num"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = np.nan_to_num(e / e.sum(axis=-1, keepdims=True))
    return w @ v, w
'''),
    dict(exercise="ex6", kind="weights zeroed not output", mistake="zeroes the weights of the empty rows but returns the output computed before, which is not zero",
         names=["zero the output", "out as well", "output is not zero", "only the weights"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    has_key = mask.any(axis=-1, keepdims=True)
    out, w = attention(q, k, v, mask | ~has_key)
    w = np.where(has_key, w, 0.0)
    return out, w
'''),
    dict(exercise="ex6", kind="any over queries", mistake="looks for the empty rows with mask.any(axis=-2), over the queries, so it finds keys no query reads instead of queries that read no key",
         names=["axis=-2", "over the queries", "keys no query reads", "mask.any(axis=-2)"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    keyless = ~mask.any(axis=-2, keepdims=True)
    out, w = attention(q, k, v, mask | keyless)
    return out, np.where(keyless, 0.0, w)
'''),
    dict(exercise="ex6", kind="2-D axis only", mistake="finds the empty rows with mask.any(axis=1), which is the key axis only for a 2-D mask and the query axis once there is a batch axis",
         names=["axis=1", "batch", "leading axes", "(..., t_q, t_k)", "axis=-1"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    has_key = mask.any(axis=1, keepdims=True)      # (T_q, 1): does row i allow any key?
    out, w = attention(q, k, v, mask | ~has_key)
    return np.where(has_key, out, 0.0), np.where(has_key, w, 0.0)
'''),
    dict(exercise="ex6", kind="dummy key 0", mistake="lets every empty row read key 0 and keeps that, so the row outputs v_0 instead of zeros",
         names=["v_0", "dummy", "key 0", "reads key 0"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    mask = mask.copy()
    empty = ~mask.any(axis=-1)
    mask[..., 0] = mask[..., 0] | empty
    return attention(q, k, v, mask)
'''),
]

VALID = [
    dict(exercise="ex1", kind="arange comparison", code='''import numpy as np


def my_causal_mask(T):
    i = np.arange(T).reshape(T, 1)
    j = np.arange(T).reshape(1, T)
    return j <= i
'''),
    dict(exercise="ex1", kind="np.tri and loops", code='''import numpy as np


def my_causal_mask(T):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(i + 1):
            mask[i, j] = True
    assert (mask == np.tri(T, dtype=bool)).all()
    return mask
'''),
    dict(exercise="ex2", kind="np.where and manual softmax", code='''import numpy as np


def masked_weights(scores, mask):
    s = np.where(mask, scores, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="exp times mask", code='''import numpy as np


def masked_weights(scores, mask):
    scores = np.asarray(scores, dtype=float)
    top = np.where(mask, scores, -np.inf).max(axis=-1, keepdims=True)   # max over the allowed keys
    e = np.where(mask, np.exp(np.where(mask, scores, top) - top), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex3", kind="transposed causal", code='''def reversed_causal_mask(T):
    return causal_mask(T).T.copy()
'''),
    dict(exercise="ex3", kind="arange comparison", code='''import numpy as np


def reversed_causal_mask(T):
    rows, cols = np.indices((T, T))
    return cols >= rows
'''),
    dict(exercise="ex4", kind="double loop over pairs", code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = np.asarray(attend(x))
    T = x.shape[0]
    for j in range(T - 1, 0, -1):
        changed = np.array(x, dtype=float, copy=True)
        changed[j] = changed[j] + eps
        out = np.asarray(attend(changed))
        for i in range(j):
            if not np.allclose(out[i], base[i]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="any over a list", code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)

    def moved_before(j):
        x_j = x.copy()
        x_j[j, :] += eps
        return not np.allclose(attend(x_j)[:j], base[:j])

    return bool(any(moved_before(j) for j in range(1, len(x))))
'''),
    dict(exercise="ex5", kind="explicit loops", code='''import numpy as np


def batch_mask(lengths, T, causal):
    B = len(lengths)
    mask = np.zeros((B, T, T), dtype=bool)
    for b in range(B):
        for i in range(T):
            for j in range(T):
                if j < lengths[b] and (not causal or j <= i):
                    mask[b, i, j] = True
    return mask
'''),
    dict(exercise="ex5", kind="arange broadcasting", code='''import numpy as np


def batch_mask(lengths, T, causal):
    lengths = np.asarray(lengths)
    j = np.arange(T)
    key_ok = j[None, None, :] < lengths[:, None, None]        # (B, 1, T)
    allowed = np.broadcast_to(key_ok, (len(lengths), T, T))
    if causal:
        allowed = allowed & (j[None, :] <= j[:, None])[None]
    return np.array(allowed)
'''),
    dict(exercise="ex6", kind="fix mask then zero", code='''import numpy as np


def safe_attention(q, k, v, mask):
    has_key = np.any(mask, axis=-1, keepdims=True)          # (..., T_q, 1)
    out, weights = attention(q, k, v, mask | ~has_key)
    return np.where(has_key, out, 0.0), np.where(has_key, weights, 0.0)
'''),
    dict(exercise="ex6", kind="manual softmax without NaN", code='''import numpy as np


def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask, s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)                       # empty rows: shift by 0, exp(-inf) = 0
    e = np.exp(s - m)
    z = e.sum(axis=-1, keepdims=True)
    weights = e / np.where(z > 0, z, 1.0)
    return weights @ v, weights
'''),
]
