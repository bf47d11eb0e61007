"""Held-out wrong-type answers for exercises/04_masks.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ex1: "a (T, T) boolean array ... with NumPy"
    dict(exercise="ex1", kind="int 0/1 mask",
         mistake="returns np.tril of an integer array of ones, a 0/1 int mask where a boolean array is asked",
         names=["bool"],
         code='''def my_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=int))
'''),
    dict(exercise="ex1", kind="torch mask",
         mistake="builds the mask with torch and returns a torch bool tensor where a NumPy boolean array is asked",
         names=["numpy", "torch", "ndarray"],
         code='''import torch


def my_causal_mask(T):
    return torch.ones(T, T, dtype=torch.bool).tril()
'''),
    # ex3: the causal mask reversed (masks here are booleans)
    dict(exercise="ex3", kind="float mask",
         mistake="returns np.triu of a float array of ones, a 0./1. float mask where a boolean mask is asked",
         names=["bool"],
         code='''def reversed_causal_mask(T):
    return np.triu(np.ones((T, T)))
'''),
    # ex4: "Return a bool (Python's or NumPy's)"
    dict(exercise="ex4", kind="count of leaks",
         mistake="returns how many later tokens leak (an int) instead of a bool",
         names=["bool"],
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    leaks = 0
    for j in range(1, len(x)):
        x2 = x.copy()
        x2[j] += eps
        if not np.allclose(attend(x2)[:j], base[:j]):
            leaks += 1
    return leaks
'''),
    dict(exercise="ex4", kind="array of per-token results",
         mistake="returns the NumPy array of one result per later token instead of one bool",
         names=["bool", "array", "one"],
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    moved = []
    for j in range(1, x.shape[0]):
        x2 = x.copy()
        x2[j] = x2[j] + eps
        moved.append(not np.allclose(attend(x2)[:j], base[:j]))
    return np.array(moved)
'''),
    # ex5: "a (B, T, T) boolean mask"
    dict(exercise="ex5", kind="float mask from a product",
         mistake="multiplies the padding mask by np.tril(np.ones((T, T))), so the mask comes back float, not bool",
         names=["bool"],
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    B = keys.shape[0]
    if causal:
        return keys * np.tril(np.ones((T, T)))[None]
    return keys * np.ones((B, T, T))
'''),
]

VALID = [
    dict(exercise="ex1", kind="np.tri bool",
         code='''def my_causal_mask(T):
    return np.tri(T, dtype=bool)
'''),
    dict(exercise="ex3", kind="transposed causal (bool view)",
         code='''def reversed_causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool)).T
'''),
    dict(exercise="ex4", kind="NumPy bool from np.any",
         code='''def reads_future(attend, x, eps=1.0):
    base = attend(x)
    moved = []
    for j in range(1, len(x)):
        changed = np.array(x, copy=True)
        changed[j] += eps
        moved.append(not np.allclose(attend(changed)[:j], base[:j]))
    return np.any(moved)
'''),
    dict(exercise="ex5", kind="broadcast_to and logical_and",
         code='''def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)
    full = np.broadcast_to(keys[:, None, :], (len(keys), T, T))
    if causal:
        return np.logical_and(full, causal_mask(T))
    return full
'''),
]
