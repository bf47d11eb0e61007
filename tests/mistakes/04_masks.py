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
    # Exercise 3: the reversed causal mask, on purpose
    dict(exercise="ex3", kind="wrote the correct mask", expect="on purpose",
         code='''def reversed_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))
'''),
    dict(exercise="ex3", kind="reversed without the diagonal", expect="no diagonal",
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)
'''),
    dict(exercise="ex3", kind="flipped left-right", expect="flipped",
         code='''def reversed_causal_mask(T):
    return np.fliplr(np.tril(np.ones((T, T), dtype=bool)))
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
    dict(exercise="ex6", kind="attends everywhere but forgets to zero", expect="did not zero",
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
]
