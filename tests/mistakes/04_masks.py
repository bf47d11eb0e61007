"""Named wrong answers for solutions/04_masks.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: the causal mask
    dict(exercise="ex1", kind="reversed mask (upper triangle)", expect="reversed mask",
         id="masks.reversed-causal",
         code='''def my_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex1", kind="reversed mask (transposed comparison)", expect="reversed mask",
         id="masks.reversed-causal",
         code='''def my_causal_mask(T):
    i, j = np.indices((T, T))
    return i <= j
'''),
    dict(exercise="ex1", kind="excluding the diagonal", expect="excludes the diagonal",
         id="masks.excludes-diagonal",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool), k=-1)
'''),
    dict(exercise="ex1", kind="only the previous token", expect="only the previous token",
         id="masks.previous-token-only",
         code='''def my_causal_mask(T):
    return np.eye(T, dtype=bool) | np.eye(T, k=-1, dtype=bool)
'''),
    dict(exercise="ex1", kind="True = blocked convention", expect="inverted",
         id="masks.inverted",
         code='''def my_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex1", kind="returns the additive bias", expect="additive bias",
         id="masks.additive-bias",
         code='''def my_causal_mask(T):
    return np.where(np.tril(np.ones((T, T))) == 1, 0.0, -np.inf)
'''),
    dict(exercise="ex1", kind="float 0/1 instead of bool", expect="boolean",
         id="masks.not-boolean",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T)))
'''),
    dict(exercise="ex1", kind="hard-coded T", expect="hard-coded",
         id="masks.hard-coded-size",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((5, 5), dtype=bool))
'''),
    dict(exercise="ex1", kind="calls the reference", expect="calls causal_mask",
         id="rule.forbidden-call",
         code='''def my_causal_mask(T):
    return causal_mask(T)
'''),
    dict(exercise="ex1", kind="one future key too many", expect="future",
         id="masks.reads-future",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex1", kind="a window of 3, not the whole past", expect="blocks column",
         id="masks.blocks-past",
         code='''def my_causal_mask(T):
    i, j = np.indices((T, T))
    return (j <= i) & (i - j < 3)
'''),
    dict(exercise="ex1", kind="triangle flipped upside down", expect="flipped",
         id="masks.flipped-triangle",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))[::-1]
'''),
    dict(exercise="ex1", kind="int 0/1 instead of bool", expect="make them booleans",
         id="masks.not-boolean",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=int))
'''),
    dict(exercise="ex1", kind="only the diagonal", expect="only the diagonal",
         id="masks.diagonal-only",
         code='''def my_causal_mask(T):
    return np.eye(T, dtype=bool)
'''),
    # Exercise 2: masked attention weights
    dict(exercise="ex2", kind="masking after softmax", expect="masking after softmax",
         id="masks.mask-after-softmax",
         code='''def masked_weights(scores, mask):
    return softmax(scores, axis=-1) * mask
'''),
    dict(exercise="ex2", kind="0 instead of -inf as the bias", expect="0 instead of -inf",
         id="masks.zero-bias",
         code='''def masked_weights(scores, mask):
    return softmax(scores + np.where(mask, 0.0, 0.0), axis=-1)
'''),
    dict(exercise="ex2", kind="boolean added as 1/0", expect="boolean mask itself",
         id="masks.added-boolean",
         code='''def masked_weights(scores, mask):
    return softmax(scores + mask, axis=-1)
'''),
    dict(exercise="ex2", kind="blocked scores set to 0", expect="instead of -inf",
         id="masks.blocked-score-zero",
         code='''def masked_weights(scores, mask):
    return softmax(scores * mask, axis=-1)
'''),
    dict(exercise="ex2", kind="True = blocked convention", expect="True = may attend",
         id="masks.inverted",
         code='''def masked_weights(scores, mask):
    with np.errstate(invalid="ignore"):
        return softmax(np.where(mask, -np.inf, scores), axis=-1)
'''),
    dict(exercise="ex2", kind="softmax over the queries", expect="wrong axis",
         id="masks.softmax-wrong-axis",
         code='''def masked_weights(scores, mask):
    return softmax(scores + additive_bias(mask), axis=-2)
'''),
    dict(exercise="ex2", kind="a finite penalty", expect="exactly 0",
         id="masks.blocked-key-weight",
         code='''def masked_weights(scores, mask):
    return softmax(np.where(mask, scores, -10.0), axis=-1)
'''),
    dict(exercise="ex2", kind="exp without the max", expect="±1000",
         id="masks.overflow",
         code='''def masked_weights(scores, mask):
    e = np.exp(scores) * mask
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="the max of the whole array", expect="nan or inf",
         id="masks.overflow",
         code='''def masked_weights(scores, mask):
    e = np.exp(scores - scores.max()) * mask
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="divided by the number of allowed keys", expect="sums to",
         id="masks.rows-not-normalised",
         code='''def masked_weights(scores, mask):
    return softmax(scores, axis=-1) * mask / mask.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="normalised over the whole array", expect="sums to",
         id="masks.rows-not-normalised",
         code='''def masked_weights(scores, mask):
    e = np.exp(scores + additive_bias(mask) - scores.max(axis=-1, keepdims=True))
    return e / e.sum()
'''),
    # Exercise 3: the reversed causal mask, on purpose
    dict(exercise="ex3", kind="wrote the correct mask", expect="on purpose",
         id="masks.wrote-correct-mask",
         code='''def reversed_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex3", kind="reversed without the diagonal", expect="drops the diagonal",
         id="masks.reversed-no-diagonal",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex3", kind="flipped left-right", expect="flipped",
         id="masks.flipped-not-transposed",
         code='''def reversed_causal_mask(T):
    return np.fliplr(np.tril(np.ones((T, T), dtype=bool)))
'''),
    dict(exercise="ex3", kind="flipped upside down", expect="upside down",
         id="masks.flipped-not-transposed",
         code='''def reversed_causal_mask(T):
    return np.flipud(np.tril(np.ones((T, T), dtype=bool)))
'''),
    dict(exercise="ex3", kind="hard-coded T", expect="hard-coded",
         id="masks.hard-coded-size",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((5, 5), dtype=bool))
'''),
    dict(exercise="ex3", kind="float instead of bool", expect="boolean",
         id="masks.not-boolean",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((T, T)))
'''),
    dict(exercise="ex3", kind="keeps everything", expect="in the past",
         id="masks.reads-past",
         code='''def reversed_causal_mask(T):
    return np.ones((T, T), dtype=bool)
'''),
    dict(exercise="ex3", kind="only the diagonal", expect="in the future",
         id="masks.blocks-future",
         code='''def reversed_causal_mask(T):
    return np.eye(T, dtype=bool)
'''),
    dict(exercise="ex3", kind="one past key too many", expect="in the past",
         id="masks.reads-past",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=-1)
'''),
    # Exercise 4: the leakage test
    dict(exercise="ex4", kind="detector never fires", expect="never fires",
         id="masks.detector-never-fires",
         code='''def reads_future(attend, x, eps=1.0):
    return False
'''),
    dict(exercise="ex4", kind="detector always fires", expect="always fires",
         id="masks.detector-always-fires",
         code='''def reads_future(attend, x, eps=1.0):
    return True
'''),
    dict(exercise="ex4", kind="compares every output, not only earlier ones",
         expect="always fires",
         id="masks.detector-always-fires",
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
         id="masks.perturbs-only-last",
         code='''def reads_future(attend, x, eps=1.0):
    changed = x.copy()
    changed[-1] += eps
    return not np.allclose(attend(changed)[:-1], attend(x)[:-1])
'''),
    dict(exercise="ex4", kind="watches only output 0", expect="missed a leak",
         id="masks.watches-output-0",
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
         id="masks.not-a-verdict",
         code='''def reads_future(attend, x, eps=1.0):
    changed = x.copy()
    changed[-1] += eps
    return np.abs(attend(changed) - attend(x)).max()
'''),
    dict(exercise="ex4", kind="loop stops one short", expect="stop one short",
         id="masks.never-perturbs-last",
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
         id="masks.compares-adjacent-only",
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
         id="masks.includes-output-j",
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
         id="masks.perturbs-column",
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
         id="generic.input-modified",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        x[j] += eps
        if not np.allclose(attend(x)[:j], base[:j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="perturbs only token 1", expect="only token j = 1",
         id="masks.early-return",
         code='''def reads_future(attend, x, eps=1.0):
    changed = x.copy()
    changed[1] += eps
    return not np.allclose(attend(changed)[:1], attend(x)[:1])
'''),
    dict(exercise="ex4", kind="the change never reaches the layer", expect="never reached",
         id="masks.no-perturbation",
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
         id="masks.masks-queries",
         code='''def batch_mask(lengths, T, causal):
    rows = padding_mask(lengths, T)[:, :, None]
    allowed = rows & causal_mask(T) if causal else rows
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="masking padded queries as well", expect="padded query rows",
         id="masks.blocks-padded-queries",
         code='''def batch_mask(lengths, T, causal):
    real = padding_mask(lengths, T)
    allowed = real[:, :, None] & real[:, None, :]
    return allowed & causal_mask(T) if causal else allowed
'''),
    dict(exercise="ex5", kind="inverted padding mask", expect="inverted",
         id="masks.inverted-padding",
         code='''def batch_mask(lengths, T, causal):
    keys = ~padding_mask(lengths, T)[:, None, :]
    allowed = keys & causal_mask(T) if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="ignores causal=True", expect="causal=True",
         id="masks.causal-ignored",
         code='''def batch_mask(lengths, T, causal):
    return np.broadcast_to(padding_mask(lengths, T)[:, None, :], (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="always causal", expect="causal=False",
         id="masks.causal-when-not-asked",
         code='''def batch_mask(lengths, T, causal):
    return padding_mask(lengths, T)[:, None, :] & causal_mask(T)
'''),
    dict(exercise="ex5", kind="returns the (B, T) key mask", expect="(B, T, T)",
         id="masks.key-mask-not-expanded",
         code='''def batch_mask(lengths, T, causal):
    return padding_mask(lengths, T)
'''),
    dict(exercise="ex5", kind="length off by one", expect="off-by-one",
         id="masks.length-off-by-one",
         code='''def batch_mask(lengths, T, causal):
    keys = (np.arange(T)[None, :] <= np.asarray(lengths)[:, None])[:, None, :]
    allowed = keys & causal_mask(T) if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="max(lengths) as T", expect="max(lengths)",
         id="masks.max-length-as-t",
         code='''def batch_mask(lengths, T, causal):
    T = int(max(lengths))
    keys = padding_mask(lengths, T)[:, None, :]
    allowed = keys & causal_mask(T) if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="not broadcast", expect="broadcast to",
         id="masks.not-broadcast",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    return keys & causal_mask(T) if causal else keys
'''),
    dict(exercise="ex5", kind="hard-coded lengths", expect="hard-coded",
         id="masks.hard-coded-size",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask([5, 3, 1], 5)[:, None, :]
    allowed = keys & causal_mask(5) if causal else keys
    return np.broadcast_to(allowed, (3, 5, 5))
'''),
    dict(exercise="ex5", kind="reversed causal triangle", expect="later key",
         id="masks.causal-ignored",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    allowed = keys & causal_mask(T).T if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T))
'''),
    dict(exercise="ex5", kind="int instead of bool", expect="boolean",
         id="masks.not-boolean",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    allowed = keys & causal_mask(T) if causal else keys
    return np.broadcast_to(allowed, (len(lengths), T, T)).astype(int)
'''),
    # Exercise 6: a query with no allowed key
    dict(exercise="ex6", kind="calls attention on the raw mask", expect="no allowed key",
         id="masks.attention-refuses-dead-row",
         code='''def safe_attention(q, k, v, mask):
    return attention(q, k, v, mask)
'''),
    dict(exercise="ex6", kind="leaves the NaN rows", expect="NaN",
         id="masks.nan-rows",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    with np.errstate(invalid="ignore"):
        weights = softmax(np.where(mask, scores, -np.inf))
    return weights @ v, weights
'''),
    dict(exercise="ex6", kind="attends everywhere but forgets to zero", expect="not zeroed",
         id="masks.dead-rows-read-everything",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    return attention(q, k, v, mask | dead[..., None])
'''),
    dict(exercise="ex6", kind="fixes NaN after a warning", expect="RuntimeWarning",
         id="masks.warning",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    weights = np.nan_to_num(softmax(np.where(mask, scores, -np.inf)))
    return weights @ v, weights
'''),
    dict(exercise="ex6", kind="zeroes the weights, not the output", expect="output still reads",
         id="masks.output-not-zeroed",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    return out, np.where(dead[..., None], 0.0, weights)
'''),
    dict(exercise="ex6", kind="returns (weights, out)", expect="in that order",
         id="masks.pair-order",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    return np.where(dead[..., None], 0.0, weights), np.where(dead[..., None], 0.0, out)
'''),
    dict(exercise="ex6", kind="uniform weights for the dead rows", expect="uniform weights",
         id="masks.dead-rows-uniform",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    dead = ~mask.any(axis=-1)
    scores = np.where(dead[..., None], 0.0, np.where(mask, scores, -np.inf))
    weights = softmax(scores)
    return weights @ v, weights
'''),
    dict(exercise="ex6", kind="unmasks every row", expect="unblocked keys in other rows",
         id="masks.live-rows-changed",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, np.ones_like(mask))
    return np.where(dead[..., None], 0.0, out), np.where(dead[..., None], 0.0, weights)
'''),
    dict(exercise="ex6", kind="NaN weights left in place", expect="nan",
         id="masks.nan-rows",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(k.shape[-1])
    with np.errstate(invalid="ignore"):
        weights = softmax(np.where(mask, scores, -np.inf))
    return np.nan_to_num(weights @ v), weights
'''),
    # Held-out answers (round 2) that were passed, caught without a name, or crashed
    dict(exercise='ex1', kind='hard-coded size (held-out b)',
         expect='hard-coded',
         id="masks.hard-coded-size",
         code='''import numpy as np

_MASK = np.tril(np.ones((5, 5), dtype=bool))


def my_causal_mask(T):
    return _MASK[:T, :T]
'''),
    dict(exercise='ex3', kind='diagonal dropped (held-out b)',
         expect='drops the diagonal',
         id="masks.reversed-no-diagonal",
         code='''import numpy as np


def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise='ex3', kind='negated causal (held-out b)',
         expect='negating the causal mask',
         id="masks.reversed-no-diagonal",
         code='''def reversed_causal_mask(T):
    return ~causal_mask(T)
'''),
    dict(exercise='ex4', kind='returns in first iteration (held-out b)',
         expect='return inside its first iteration',
         id="masks.early-return",
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
         id="masks.compares-later-outputs",
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
         id="masks.masks-queries",
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
         id="masks.or-instead-of-and",
         code='''import numpy as np


def batch_mask(lengths, T, causal):
    pad = np.broadcast_to(padding_mask(lengths, T)[:, None, :], (len(lengths), T, T))
    if causal:
        return pad | causal_mask(T)
    return pad
'''),
    dict(exercise='ex6', kind='empty rows not zeroed (held-out b)',
         expect='not zeroed',
         id="masks.dead-rows-read-everything",
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    empty = ~mask.any(axis=-1, keepdims=True)
    return attention(q, k, v, mask | empty)
'''),
    dict(exercise='ex6', kind='any over queries (held-out b)',
         expect='axis=-2',
         id="masks.empty-columns-not-rows",
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    keyless = ~mask.any(axis=-2, keepdims=True)
    out, w = attention(q, k, v, mask | keyless)
    return out, np.where(keyless, 0.0, w)
'''),
    dict(exercise='ex6', kind='2-D axis only (held-out b)',
         expect='axis=-1',
         id="masks.axis-from-the-front",
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    has_key = mask.any(axis=1, keepdims=True)      # (T_q, 1): does row i allow any key?
    out, w = attention(q, k, v, mask | ~has_key)
    return np.where(has_key, out, 0.0), np.where(has_key, w, 0.0)
'''),
    dict(exercise='ex6', kind='dummy key 0 (held-out b)',
         expect='dummy key',
         id="masks.dead-rows-dummy-key",
         code='''import numpy as np


def safe_attention(q, k, v, mask):
    mask = mask.copy()
    empty = ~mask.any(axis=-1)
    mask[..., 0] = mask[..., 0] | empty
    return attention(q, k, v, mask)
'''),
    dict(exercise='ex2', kind='mask after softmax, renormalised (held-out c)',
         expect='renormalised',
         id="masks.renormalised-underflow",
         code='''def masked_weights(scores, mask):
    w = softmax(scores, axis=-1) * mask
    return w / w.sum(axis=-1, keepdims=True)
'''),
    dict(exercise='ex6', kind='dead rows with any(axis=1) (held-out c)',
         expect='axis=1 is the keys of a 2-D mask',
         id="masks.axis-from-the-front",
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
         id="masks.overflow",
         code='''def safe_attention(q, k, v, mask):
    s = q @ np.swapaxes(k, -2, -1) / np.sqrt(q.shape[-1])
    e = np.exp(s) * mask
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(total == 0, 1.0, total)
    return w @ v, w
'''),
    # ---- one wrong answer for each diagnosis no entry above reaches
    dict(exercise="ex1", kind="no diagonal, then row 0 patched", expect="blocks the diagonal",
         id="masks.blocks-diagonal",
         code='''def my_causal_mask(T):
    i, j = np.indices((T, T))
    mask = j < i
    mask[0, 0] = True  # row 0 had no allowed key
    return mask
'''),
    dict(exercise="ex1", kind="np.tril result not assigned", expect="blocks nothing",
         id="masks.blocks-nothing",
         code='''def my_causal_mask(T):
    mask = np.ones((T, T), dtype=bool)
    np.tril(mask)
    return mask
'''),
    dict(exercise="ex1", kind="kept a batch axis, (1, T, T)", expect="expected shape",
         id="masks.mask-shape",
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))[None]
'''),
    dict(exercise="ex2", kind="forgot the exp: normalised the masked scores",
         expect="some weights are negative",
         id="masks.negative-weights",
         code='''def masked_weights(scores, mask):
    kept = np.where(mask, scores, 0.0)
    return kept / kept.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex2", kind="flattened the batch, never reshaped back",
         expect="must have the scores' shape",
         id="masks.weights-shape",
         code='''def masked_weights(scores, mask):
    T_k = scores.shape[-1]
    s = (scores + additive_bias(mask)).reshape(-1, T_k)
    return softmax(s, axis=-1)
'''),
    dict(exercise="ex4", kind="compares every output except j", expect="false alarm",
         id="masks.false-alarm",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[j] += eps
        others = np.arange(len(x)) != j
        if not np.allclose(attend(changed)[others], base[others]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares outputs 0..j-2 (out[:j - 1])", expect="missed a leak",
         id="masks.missed-leak",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[j] += eps
        if not np.allclose(attend(changed)[:j - 1], base[:j - 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="perturbs one token in the middle", expect="You changed only token",
         id="masks.skips-tokens",
         code='''def reads_future(attend, x, eps=1.0):
    j = len(x) // 2
    changed = x.copy()
    changed[j] += eps
    return not np.allclose(attend(changed)[:j], attend(x)[:j])
'''),
    dict(exercise="ex5", kind="forgot the padding mask", expect="a padding position",
         id="masks.reads-padding",
         code='''def batch_mask(lengths, T, causal):
    mask = np.ones((len(lengths), T, T), dtype=bool)
    if causal:
        mask &= causal_mask(T)
    return mask
'''),
    dict(exercise="ex5", kind="causal triangle without its diagonal", expect="a real token",
         id="masks.blocks-real-key",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    if causal:
        i, j = np.indices((T, T))
        keys = keys & (j < i)
    return np.broadcast_to(keys, (len(lengths), T, T))
'''),
    dict(exercise="ex6", kind="finite -1e9 bias, weights zeroed after the output",
         expect="must get all-zero output",
         id="masks.dead-row-not-zero",
         code='''def safe_attention(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = softmax(np.where(mask, scores, -1e9), axis=-1)
    out = weights @ v
    dead = ~mask.any(axis=-1)
    weights = np.where(dead[..., None], 0.0, weights)
    return out, weights
'''),
    dict(exercise="ex6", kind="dead rows read themselves, not zeroed",
         expect="attend to themselves",
         id="masks.dead-rows-read-self",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    own = np.eye(mask.shape[-2], mask.shape[-1], dtype=bool)
    return attention(q, k, v, mask | (own & dead[..., None]))
'''),
    dict(exercise="ex6", kind="dropped the rows with no allowed key", expect="should have shape",
         id="masks.safe-shape",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    return out[~dead], weights[~dead]
'''),
    dict(exercise="ex6", kind="weighted sum of the keys", expect="weighted sum of the KEYS",
         id="masks.swapped-k-v",
         code='''def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, weights = attention(q, k, v, mask | dead[..., None])
    weights = np.where(dead[..., None], 0.0, weights)
    return weights @ k, weights
'''),
]
