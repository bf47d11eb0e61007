"""Held-out answers for exercises/04_masks.ipynb, written from the exercise texts alone."""

WRONG = [
    dict(exercise="ex1", kind="strict comparison", mistake="uses j < i, so the diagonal (a query reading itself) is blocked",
         names=["diagonal", "itself", "j <= i", "j ≤ i", "strict"],
         code='''import numpy as np


def my_causal_mask(T):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return j < i
'''),
    dict(exercise="ex1", kind="float tril", mistake="returns np.tril of ones as floats, not a boolean array",
         names=["bool", "dtype", "float"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.tril(np.ones((T, T)))
'''),
    dict(exercise="ex1", kind="blocked convention", mistake="returns the torch MHA convention, True where the key is blocked (the future)",
         names=["true = blocked", "blocked", "inverted", "convention", "true = may attend"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex1", kind="tri off by one", mistake="passes k=1 to np.tri, which also keeps the first superdiagonal (one future token)",
         names=["off by one", "superdiagonal", "one future", "next token", "k=1"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.tri(T, T, 1, dtype=bool)
'''),
    dict(exercise="ex1", kind="hard-coded 5", mistake="builds the mask for the worked example's T = 5 and ignores T",
         names=["hard-coded", "ignores t", "size", "for every t"],
         code='''import numpy as np


def my_causal_mask(T):
    return np.tril(np.ones((5, 5), dtype=bool))
'''),
    dict(exercise="ex2", kind="mask after softmax", mistake="takes the softmax of all scores and then zeroes the blocked keys, so rows no longer sum to 1",
         names=["after softmax", "before softmax", "sum to 1", "renormal", "before normalising"],
         code='''import numpy as np


def masked_weights(scores, mask):
    return softmax(scores, axis=-1) * mask
'''),
    dict(exercise="ex2", kind="zero scores", mistake="sets blocked scores to 0 (multiplies by the mask) instead of -inf, so blocked keys still get weight",
         names=["-inf", "zero score", "score 0", "exp(0)", "infinity"],
         code='''import numpy as np


def masked_weights(scores, mask):
    return softmax(scores * mask, axis=-1)
'''),
    dict(exercise="ex2", kind="unstable exp", mistake="exponentiates the raw scores without subtracting the row maximum, overflowing to NaN for large scores",
         names=["overflow", "maximum", "max", "stable", "large scores"],
         code='''import numpy as np


def masked_weights(scores, mask):
    e = np.exp(scores) * mask
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="softmax over queries", mistake="normalises over the query axis (-2) instead of the keys (last axis)",
         names=["axis", "last axis", "over the keys", "queries", "columns"],
         code='''import numpy as np


def masked_weights(scores, mask):
    return softmax(scores + additive_bias(mask), axis=-2)
'''),
    dict(exercise="ex2", kind="inverted mask", mistake="blocks the allowed keys and keeps the blocked ones (~mask), as in the torch convention",
         names=["inverted", "true = may attend", "~mask", "convention", "wrong way round"],
         code='''import numpy as np


def masked_weights(scores, mask):
    return softmax(scores + additive_bias(~mask), axis=-1)
'''),
    dict(exercise="ex3", kind="no diagonal", mistake="negates the causal mask, which also drops the diagonal (strict upper triangle)",
         names=["diagonal", "itself", "~causal", "strict"],
         code='''def reversed_causal_mask(T):
    return ~causal_mask(T)
'''),
    dict(exercise="ex3", kind="flipped rows", mistake="flips the rows of the causal mask upside down, an anti-triangle, instead of taking the upper triangle",
         names=["flip", "upside down", "anti", "upper triangle", "transpose"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return causal_mask(T)[::-1]
'''),
    dict(exercise="ex3", kind="triu k=1", mistake="keeps the upper triangle without the diagonal (k=1)",
         names=["diagonal", "itself", "k=1", "strict"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex3", kind="float triu", mistake="returns the upper triangle as floats, not booleans",
         names=["bool", "dtype", "float"],
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.triu(np.ones((T, T)))
'''),
    dict(exercise="ex4", kind="compares all outputs", mistake="compares every output after changing token j, including outputs j.. that may read it, so a causal layer is reported as leaking",
         names=["before j", "outputs j", "allowed to move", "only the outputs", "earlier outputs"],
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
    dict(exercise="ex4", kind="no copy", mistake="adds eps to x in place without a copy, so the changes accumulate (and the caller's x is modified)",
         names=["copy", "in place", "accumulat", "modif"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x[j] += eps
        if not np.allclose(attend(x)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="last token only", mistake="only perturbs the last token, missing a leak from an earlier future token",
         names=["last token", "every later token", "each j", "only one token", "j = 1"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    j = len(x) - 1
    x2 = x.copy()
    x2[j] += eps
    return not np.allclose(attend(x2)[:j], base[:j])
'''),
    dict(exercise="ex4", kind="previous output only", mistake="only compares output j-1, the one right before the changed token, missing leaks from further ahead",
         names=["j-1", "j - 1", "every output before", "all outputs before", "only the previous"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        if not np.allclose(attend(x2)[j - 1], base[j - 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="range stops early", mistake="loops j over range(1, T-1), never changing the last token",
         names=["last token", "t-1", "off by one", "range"],
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    T = len(x)
    for j in range(1, T - 1):
        x2 = x.copy()
        x2[j] = x2[j] + eps
        if not np.allclose(attend(x2)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex5", kind="query-axis padding", mistake="puts the padding mask on the query axis (rows) instead of the key axis (columns)",
         names=["key axis", "query axis", "columns", "rows", "[:, none, :]"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)[:, :, None]
    m = np.broadcast_to(pad, (len(lengths), T, T))
    if causal:
        m = m & causal_mask(T)
    return m
'''),
    dict(exercise="ex5", kind="no broadcast", mistake="with causal=False returns the (B, 1, T) padding mask without broadcasting it to (B, T, T)",
         names=["broadcast", "(b, t, t)", "shape"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)[:, None, :]
    if causal:
        return pad & causal_mask(T)
    return pad
'''),
    dict(exercise="ex5", kind="or instead of and", mistake="combines padding and causal with a logical or, so each lets through what the other blocks",
         names=["logical and", " or ", "&", "|", "both"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = np.broadcast_to(padding_mask(lengths, T)[:, None, :], (len(lengths), T, T))
    if causal:
        return pad | causal_mask(T)
    return pad.copy()
'''),
    dict(exercise="ex5", kind="pads both axes", mistake="masks padding on both the query and the key axis, leaving pad queries with no allowed key",
         names=["query", "rows", "no allowed key", "both axes", "key axis only"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)
    m = pad[:, :, None] & pad[:, None, :]
    if causal:
        m = m & causal_mask(T)[None]
    return m
'''),
    dict(exercise="ex5", kind="ignores causal", mistake="always combines with the causal mask, ignoring causal=False",
         names=["causal=false", "bidirectional", "encoder", "ignores causal"],
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    return padding_mask(lengths, T)[:, None, :] & causal_mask(T)[None, :, :]
'''),
    dict(exercise="ex6", kind="nan_to_num", mistake="lets softmax produce NaN for the empty rows and then replaces it with 0, raising a RuntimeWarning",
         names=["warning", "nan", "invalid value", "0/0"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = np.nan_to_num(e / e.sum(axis=-1, keepdims=True))
    return w @ v, w
'''),
    dict(exercise="ex6", kind="output not zeroed", mistake="zeroes the weights of the empty rows but returns the output computed with the temporary mask, not zero",
         names=["output", "all-zero output", "out", "zero the output"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    empty = ~mask.any(axis=-1, keepdims=True)
    out, w = attention(q, k, v, mask | empty)
    w = np.where(empty, 0.0, w)
    return out, w
'''),
    dict(exercise="ex6", kind="key 0 for all rows", mistake="unblocks key 0 in every row, not only in the rows with no allowed key, changing the other rows",
         names=["only the empty rows", "every row", "key 0", "other rows", "first key"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    empty = ~mask.any(axis=-1, keepdims=True)
    fixed = np.array(mask, copy=True)
    fixed[..., 0] = True
    out, w = attention(q, k, v, fixed)
    w = np.where(empty, 0.0, w)
    out = np.where(empty, 0.0, out)
    return out, w
'''),
    dict(exercise="ex6", kind="empty over wrong axis", mistake="looks for empty rows with any over axis -2 (keys with no query) instead of the last axis",
         names=["axis", "rows", "last axis", "keys"],
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    empty = ~mask.any(axis=-2, keepdims=True)
    fixed = mask | empty
    out, w = attention(q, k, v, fixed)
    rows = np.swapaxes(empty, -1, -2)
    return np.where(rows, 0.0, out), np.where(rows, 0.0, w)
'''),
]

VALID = [
    dict(exercise="ex1", kind="index comparison", code='''import numpy as np


def my_causal_mask(T):
    return np.arange(T)[None, :] <= np.arange(T)[:, None]
'''),
    dict(exercise="ex1", kind="np.tri", code='''import numpy as np


def my_causal_mask(T):
    return np.tri(T, dtype=bool)
'''),
    dict(exercise="ex2", kind="where and manual softmax", code='''import numpy as np


def masked_weights(scores, mask):
    s = np.where(mask, scores, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="max over allowed keys", code='''import numpy as np


def masked_weights(scores, mask):
    top = np.max(np.where(mask, scores, -np.inf), axis=-1, keepdims=True)
    e = np.where(mask, np.exp(np.where(mask, scores, top) - top), 0.0)
    return e / np.sum(e, axis=-1, keepdims=True)
'''),
    dict(exercise="ex3", kind="transpose of causal", code='''def reversed_causal_mask(T):
    return causal_mask(T).T.copy()
'''),
    dict(exercise="ex3", kind="index comparison", code='''import numpy as np


def reversed_causal_mask(T):
    return np.arange(T)[None, :] >= np.arange(T)[:, None]
'''),
    dict(exercise="ex4", kind="loop with any", code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    y = np.asarray(attend(x))
    T = x.shape[0]
    leaks = []
    for j in range(1, T):
        changed = np.array(x, dtype=float, copy=True)
        changed[j, :] = changed[j, :] + eps
        y2 = np.asarray(attend(changed))
        leaks.append(not np.allclose(y2[:j], y[:j]))
    return bool(any(leaks))
'''),
    dict(exercise="ex4", kind="dependency matrix", code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    T = len(x)
    moved = np.zeros((T, T), dtype=bool)   # moved[i, j]: output i moved when token j changed
    for j in range(T):
        x2 = x.copy()
        x2[j] += eps
        y = attend(x2)
        for i in range(T):
            moved[i, j] = not np.allclose(y[i], base[i])
    return bool(np.triu(moved, k=1).any())
'''),
    dict(exercise="ex5", kind="logical_and broadcast_to", code='''import numpy as np


def batch_mask(lengths, T, causal):
    B = len(lengths)
    keys = np.broadcast_to(padding_mask(lengths, T)[:, None, :], (B, T, T))
    if not causal:
        return keys.copy()
    return np.logical_and(keys, causal_mask(T)[None])
'''),
    dict(exercise="ex5", kind="loop over sequences", code='''import numpy as np


def batch_mask(lengths, T, causal):
    out = np.zeros((len(lengths), T, T), dtype=bool)
    for b, n in enumerate(lengths):
        for i in range(T):
            for j in range(int(n)):
                if not causal or j <= i:
                    out[b, i, j] = True
    return out
'''),
    dict(exercise="ex6", kind="fixed mask then zero", code='''import numpy as np


def safe_attention(q, k, v, mask):
    empty = ~np.asarray(mask).any(axis=-1)[..., None]     # (..., T_q, 1)
    out, w = attention(q, k, v, np.logical_or(mask, empty))
    return np.where(empty, 0.0, out), np.where(empty, 0.0, w)
'''),
    dict(exercise="ex6", kind="manual masked softmax", code='''import numpy as np


def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    s = np.where(mask, s, -1e300)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(s), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    w = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return w @ v, w
'''),
]
