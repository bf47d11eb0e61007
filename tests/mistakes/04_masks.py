"""Named wrong answers for solutions/04_masks.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: the causal mask
    dict(exercise="ex1", kind="reversed mask (upper triangle)", expect="reversed mask",
         code='''def my_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex1", kind="reversed mask (transposed comparison)", expect="reversed mask",
         code='''def my_causal_mask(T):
    i, j = np.indices((T, T))
    return i <= j
'''),
    dict(exercise="ex1", kind="excluding the diagonal", expect="excludes the diagonal",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool), k=-1)
'''),
    dict(exercise="ex1", kind="only the previous token", expect="only the previous token",
         code='''def my_causal_mask(T):
    return np.eye(T, dtype=bool) | np.eye(T, k=-1, dtype=bool)
'''),
    dict(exercise="ex1", kind="True = blocked convention", expect="inverted",
         code='''def my_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex1", kind="returns the additive bias", expect="additive bias",
         code='''def my_causal_mask(T):
    return np.where(np.tril(np.ones((T, T))) == 1, 0.0, -np.inf)
'''),
    dict(exercise="ex1", kind="float 0/1 instead of bool", expect="boolean",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T)))
'''),
    dict(exercise="ex1", kind="hard-coded T", expect="hard-coded",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((5, 5), dtype=bool))
'''),
    dict(exercise="ex1", kind="calls the reference", expect="calls causal_mask",
         code='''def my_causal_mask(T):
    return causal_mask(T)
'''),
    dict(exercise="ex1", kind="one future key too many", expect="future",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex1", kind="a window of 3, not the whole past", expect="blocks column",
         code='''def my_causal_mask(T):
    i, j = np.indices((T, T))
    return (j <= i) & (i - j < 3)
'''),
    dict(exercise="ex1", kind="triangle flipped upside down", expect="flipped",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))[::-1]
'''),
    dict(exercise="ex1", kind="int 0/1 instead of bool", expect="make them booleans",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=int))
'''),
    dict(exercise="ex1", kind="only the diagonal", expect="only the diagonal",
         code='''def my_causal_mask(T):
    return np.eye(T, dtype=bool)
'''),
    # Exercise 2: masked attention weights
    dict(exercise="ex2", kind="masking after softmax", expect="masking after softmax",
         code='''def masked_weights(scores, mask):
    return softmax(scores, axis=-1) * mask
'''),
    dict(exercise="ex2", kind="0 instead of -inf as the bias", expect="0 instead of -inf",
         code='''def masked_weights(scores, mask):
    return softmax(scores + np.where(mask, 0.0, 0.0), axis=-1)
'''),
    dict(exercise="ex2", kind="boolean added as 1/0", expect="boolean mask itself",
         code='''def masked_weights(scores, mask):
    return softmax(scores + mask, axis=-1)
'''),
    dict(exercise="ex2", kind="blocked scores set to 0", expect="instead of -inf",
         code='''def masked_weights(scores, mask):
    return softmax(scores * mask, axis=-1)
'''),
    dict(exercise="ex2", kind="True = blocked convention", expect="True = may attend",
         code='''def masked_weights(scores, mask):
    with np.errstate(invalid="ignore"):
        return softmax(np.where(mask, -np.inf, scores), axis=-1)
'''),
    dict(exercise="ex2", kind="softmax over the queries", expect="wrong axis",
         code='''def masked_weights(scores, mask):
    return softmax(scores + additive_bias(mask), axis=-2)
'''),
    dict(exercise="ex2", kind="a finite penalty", expect="exactly 0",
         code='''def masked_weights(scores, mask):
    return softmax(np.where(mask, scores, -10.0), axis=-1)
'''),
    dict(exercise="ex2", kind="exp without the max", expect="±1000",
         code='''def masked_weights(scores, mask):
    e = np.exp(scores) * mask
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="the max of the whole array", expect="nan or inf",
         code='''def masked_weights(scores, mask):
    e = np.exp(scores - scores.max()) * mask
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="divided by the number of allowed keys", expect="sums to",
         code='''def masked_weights(scores, mask):
    return softmax(scores, axis=-1) * mask / mask.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="normalised over the whole array", expect="sums to",
         code='''def masked_weights(scores, mask):
    e = np.exp(scores + additive_bias(mask) - scores.max(axis=-1, keepdims=True))
    return e / e.sum()
'''),
    # Exercise 3: the reversed causal mask, on purpose
    dict(exercise="ex3", kind="wrote the correct mask", expect="on purpose",
         code='''def reversed_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex3", kind="reversed without the diagonal", expect="drops the diagonal",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex3", kind="flipped left-right", expect="flipped",
         code='''def reversed_causal_mask(T):
    return np.fliplr(np.tril(np.ones((T, T), dtype=bool)))
'''),
    dict(exercise="ex3", kind="flipped upside down", expect="upside down",
         code='''def reversed_causal_mask(T):
    return np.flipud(np.tril(np.ones((T, T), dtype=bool)))
'''),
    dict(exercise="ex3", kind="hard-coded T", expect="hard-coded",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((5, 5), dtype=bool))
'''),
    dict(exercise="ex3", kind="float instead of bool", expect="boolean",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((T, T)))
'''),
    dict(exercise="ex3", kind="keeps everything", expect="in the past",
         code='''def reversed_causal_mask(T):
    return np.ones((T, T), dtype=bool)
'''),
    dict(exercise="ex3", kind="only the diagonal", expect="in the future",
         code='''def reversed_causal_mask(T):
    return np.eye(T, dtype=bool)
'''),
    dict(exercise="ex3", kind="one past key too many", expect="in the past",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=-1)
'''),
    # Exercise 4: the leakage test
    dict(exercise="ex4", kind="detector never fires", expect="never fires",
         code='''def reads_future(attend, x, eps=1.0):
    return False
'''),
    dict(exercise="ex4", kind="detector always fires", expect="always fires",
         code='''def reads_future(attend, x, eps=1.0):
    return True
'''),
    dict(exercise="ex4", kind="compares every output, not only earlier ones",
         expect="always fires",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[j] += eps
        if not np.allclose(attend(changed), base):
            return True
    return False
'''),
    dict(exercise="ex4", kind="perturbs only the last token", expect="missed a leak",
         code='''def reads_future(attend, x, eps=1.0):
    changed = x.copy()
    changed[-1] += eps
    return not np.allclose(attend(changed)[:-1], attend(x)[:-1])
'''),
    dict(exercise="ex4", kind="watches only output 0", expect="missed a leak",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[j] += eps
        if not np.allclose(attend(changed)[0], base[0]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="returns the change, not a verdict", expect="return True",
         code='''def reads_future(attend, x, eps=1.0):
    changed = x.copy()
    changed[-1] += eps
    return np.abs(attend(changed) - attend(x)).max()
'''),
    dict(exercise="ex4", kind="loop stops one short", expect="stop one short",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x) - 1):
        changed = x.copy()
        changed[j] += eps
        if not np.allclose(attend(changed)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares only the output just before j", expect="just before j",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[j] += eps
        if not np.allclose(attend(changed)[j - 1], base[j - 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares output j too", expect="compare output j too",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[j] += eps
        if not np.allclose(attend(changed)[:j + 1], base[:j + 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="perturbs a feature column", expect="several tokens at once",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[:, j] += eps
        if not np.allclose(attend(changed)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="changes x in place", expect="in place",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x[j] += eps
        if not np.allclose(attend(x)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="perturbs only token 1", expect="only token j = 1",
         code='''def reads_future(attend, x, eps=1.0):
    changed = x.copy()
    changed[1] += eps
    return not np.allclose(attend(changed)[:1], attend(x)[:1])
'''),
    dict(exercise="ex4", kind="the change never reaches the layer", expect="never reached",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        x_j = changed[j] + eps
        if not np.allclose(attend(changed)[:j], base[:j]):
            return True
    return False
'''),
    # Exercise 5: padding combined with causal
    dict(exercise="ex5", kind="masking queries instead of keys",
         expect="masking queries instead of keys",
         code='''def batch_mask(lengths, T, causal):
    rows = padding_mask(lengths, T)[:, :, None]
    allowed = rows & causal_mask(T) if causal else rows
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="masking padded queries as well", expect="padded query rows",
         code='''def batch_mask(lengths, T, causal):
    real = padding_mask(lengths, T)
    allowed = real[:, :, None] & real[:, None, :]
    return allowed & causal_mask(T) if causal else allowed
'''),
    dict(exercise="ex5", kind="inverted padding mask", expect="inverted",
         code='''def batch_mask(lengths, T, causal):
    keys = ~padding_mask(lengths, T)[:, None, :]
    allowed = keys & causal_mask(T) if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="ignores causal=True", expect="causal=True",
         code='''def batch_mask(lengths, T, causal):
    return np.broadcast_to(padding_mask(lengths, T)[:, None, :], (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="always causal", expect="causal=False",
         code='''def batch_mask(lengths, T, causal):
    return padding_mask(lengths, T)[:, None, :] & causal_mask(T)
'''),
    dict(exercise="ex5", kind="returns the (B, T) key mask", expect="(B, T, T)",
         code='''def batch_mask(lengths, T, causal):
    return padding_mask(lengths, T)
'''),
    dict(exercise="ex5", kind="length off by one", expect="off-by-one",
         code='''def batch_mask(lengths, T, causal):
    keys = (np.arange(T)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
    allowed = keys & causal_mask(T) if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="max(lengths) as T", expect="max(lengths)",
         code='''def batch_mask(lengths, T, causal):
    T = int(max(lengths))
    keys = padding_mask(lengths, T)[:, None, :]
    allowed = keys & causal_mask(T) if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="not broadcast", expect="broadcast to",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    return keys & causal_mask(T) if causal else keys
'''),
    dict(exercise="ex5", kind="hard-coded lengths", expect="hard-coded",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask([5, 3, 1], 5)[:, None, :]
    allowed = keys & causal_mask(5) if causal else keys
    return np.broadcast_to(allowed, (3, 5, 5))
'''),
    dict(exercise="ex5", kind="reversed causal triangle", expect="later key",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    allowed = keys & causal_mask(T).T if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="int instead of bool", expect="boolean",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    allowed = keys & causal_mask(T) if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T)).astype(int)
'''),
    # Exercise 6: a query with no allowed key
    dict(exercise="ex6", kind="calls attention on the raw mask", expect="no allowed key",
         code='''def safe_attention(q, k, v, mask):
    return attention(q, k, v, mask)
'''),
    dict(exercise="ex6", kind="leaves the NaN rows", expect="NaN",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    with np.errstate(invalid="ignore"):
        weights = softmax(np.where(mask, scores, -np.inf))
    return weights @ v, weights
'''),
    dict(exercise="ex6", kind="attends everywhere but forgets to zero", expect="not zeroed",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    return attention(q, k, v, mask | dead[..., None])
'''),
    dict(exercise="ex6", kind="fixes NaN after a warning", expect="RuntimeWarning",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    weights = np.nan_to_num(softmax(np.where(mask, scores, -np.inf)))
    return weights @ v, weights
'''),
    dict(exercise="ex6", kind="zeroes the weights, not the output", expect="output still reads",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    return out, np.where(dead[..., None], 0.0, weights)
'''),
    dict(exercise="ex6", kind="returns (weights, out)", expect="in that order",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    return np.where(dead[..., None], 0.0, weights), np.where(dead[..., None], 0.0, out)
'''),
    dict(exercise="ex6", kind="uniform weights for the dead rows", expect="uniform weights",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    dead = ~mask.any(axis=-1)
    scores = np.where(dead[..., None], 0.0, np.where(mask, scores, -np.inf))
    weights = softmax(scores)
    return weights @ v, weights
'''),
    dict(exercise="ex6", kind="unmasks every row", expect="unblocked keys in other rows",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, np.ones_like(mask))
    return np.where(dead[..., None], 0.0, out), np.where(dead[..., None], 0.0, weights)
'''),
    dict(exercise="ex6", kind="NaN weights left in place", expect="nan",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    with np.errstate(invalid="ignore"):
        weights = softmax(np.where(mask, scores, -np.inf))
    return np.nan_to_num(weights @ v), weights
'''),
    # Held-out answers (round 2) that were passed, caught without a name, or crashed
    dict(exercise='ex1', kind='hard-coded size (held-out b)',
         expect='hard-coded',
         code='''import numpy as np

_MASK = np.tril(np.ones((5, 5), dtype=bool))


def my_causal_mask(T):
    return _MASK[:T, :T]
'''),
    dict(exercise='ex3', kind='diagonal dropped (held-out b)',
         expect='drops the diagonal',
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise='ex3', kind='negated causal (held-out b)',
         expect='negating the causal mask',
         code='''def reversed_causal_mask(T):
    return ~causal_mask(T)
'''),
    dict(exercise='ex4', kind='returns in first iteration (held-out b)',
         expect='return inside its first iteration',
         code='''import numpy as np


def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        return not np.allclose(attend(x2)[:j], base[:j])
    return False
'''),
    dict(exercise='ex4', kind='outputs after j (held-out b)',
         expect='direction backwards',
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
    dict(exercise='ex5', kind='padding on query rows (held-out b)',
         expect='rows instead of columns',
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = padding_mask(lengths, T)[:, :, None]          # (B, T, 1)
    mask = np.broadcast_to(pad, (len(lengths), T, T))
    if causal:
        mask = mask & causal_mask(T)
    return mask
'''),
    dict(exercise='ex5', kind='or instead of and (held-out b)',
         expect='| (or) instead of & (and)',
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = np.broadcast_to(padding_mask(lengths, T)[:, None, :], (len(lengths), T, T))
    if causal:
        return pad | causal_mask(T)
    return pad
'''),
    dict(exercise='ex6', kind='empty rows not zeroed (held-out b)',
         expect='not zeroed',
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    empty = ~mask.any(axis=-1, keepdims=True)
    return attention(q, k, v, mask | empty)
'''),
    dict(exercise='ex6', kind='any over queries (held-out b)',
         expect='axis=-2',
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    keyless = ~mask.any(axis=-2, keepdims=True)
    out, w = attention(q, k, v, mask | keyless)
    return out, np.where(keyless, 0.0, w)
'''),
    dict(exercise='ex6', kind='2-D axis only (held-out b)',
         expect='axis=-1',
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    has_key = mask.any(axis=1, keepdims=True)      # (T_q, 1): does row i allow any key?
    out, w = attention(q, k, v, mask | ~has_key)
    return np.where(has_key, out, 0.0), np.where(has_key, w, 0.0)
'''),
    dict(exercise='ex6', kind='dummy key 0 (held-out b)',
         expect='dummy key',
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    mask = mask.copy()
    empty = ~mask.any(axis=-1)
    mask[..., 0] = mask[..., 0] | empty
    return attention(q, k, v, mask)
'''),
    dict(exercise='ex2', kind='mask after softmax, renormalised (held-out c)',
         expect='renormalised',
         code='''def masked_weights(scores, mask):
    w = softmax(scores, axis=-1) * mask
    return w / w.sum(axis=-1, keepdims=True)
'''),
    dict(exercise='ex6', kind='dead rows with any(axis=1) (held-out c)',
         expect='axis=1 is the keys of a 2-D mask',
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=1)
    fixed = mask | dead[..., None]
    out, weights = attention(q, k, v, fixed)
    weights = weights * ~dead[..., None]
    out = out * ~dead[..., None]
    return out, weights
'''),
    dict(exercise='ex6', kind='masked softmax without the row max (held-out c)',
         expect='subtract each row',
         code='''def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -2, -1) / np.sqrt(q.shape[-1])
    e = np.exp(s) * mask
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(total == 0, 1.0, total)
    return w @ v, w
'''),
]
