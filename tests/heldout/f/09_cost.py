"""Held-out wrong-type answers for exercises/09_cost.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ex1: "(an array shaped like x)"
    dict(exercise="ex1", kind="list",
         mistake="returns the softmax as a Python list built with math.exp where an array shaped like x is asked",
         names=["array", "numpy", "list"],
         code='''import math


def my_online_softmax(x, block_size):
    m, z = -math.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, float(block.max()))
        z = z * math.exp(m - m_new) + float(np.exp(block - m_new).sum())
        m = m_new
    return [math.exp(xi - m) / z for xi in x]
'''),
    # ex3: torch tensors
    dict(exercise="ex3", kind="np.concatenate",
         mistake="joins old and new with np.concatenate, which returns NumPy arrays instead of torch tensors",
         names=["torch", "tensor", "numpy"],
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return np.concatenate([cache_k, k_new], axis=2), np.concatenate([cache_v, v_new], axis=2)
'''),
    # ex4: "a (T, T) boolean array"
    dict(exercise="ex4", kind="int mask",
         mistake="returns the window as a 0/1 integer array where a boolean array is asked",
         names=["bool"],
         code='''def my_sliding_window_mask(T, window):
    i = np.arange(T)[:, None]
    j = np.arange(T)[None, :]
    return ((i - j >= 0) & (i - j < window)).astype(np.int64)
'''),
    dict(exercise="ex4", kind="torch mask",
         mistake="builds the window with torch and returns a torch bool tensor where a NumPy boolean array is asked",
         names=["numpy", "torch", "ndarray"],
         code='''def my_sliding_window_mask(T, window):
    i = torch.arange(T)[:, None]
    j = torch.arange(T)[None, :]
    return (j <= i) & (j > i - window)
'''),
    # ex5: "Return a (N, n_experts) tensor"
    dict(exercise="ex5", kind="numpy gates",
         mistake="writes the gates into a NumPy array and returns it where a torch tensor is asked",
         names=["torch", "tensor", "numpy"],
         code='''def my_top_k_gates(logits, k):
    values, idx = logits.topk(k, dim=-1)
    w = torch.softmax(values, dim=-1).numpy()
    gates = np.zeros(tuple(logits.shape), dtype=w.dtype)
    np.put_along_axis(gates, idx.numpy(), w, axis=-1)
    return gates
'''),
]

VALID = [
    dict(exercise="ex1", kind="numpy array from Python floats",
         code='''def my_online_softmax(x, block_size):
    m, z = float("-inf"), 0.0
    for start in range(0, x.shape[0], block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(np.asarray(x) - m) / z
'''),
    dict(exercise="ex3", kind="torch.cat dim=-2",
         code='''def my_cache_append(cache_k, cache_v, k_new, v_new):
    if cache_k is None:
        return k_new, v_new
    return torch.cat((cache_k, k_new), dim=-2), torch.cat((cache_v, v_new), dim=-2)
'''),
    dict(exercise="ex4", kind="difference of triangles",
         code='''def my_sliding_window_mask(T, window):
    return np.tri(T, dtype=bool) & ~np.tri(T, k=-window, dtype=bool)
'''),
    dict(exercise="ex5", kind="one-hot sum",
         code='''def my_top_k_gates(logits, k):
    values, idx = torch.topk(logits, k, dim=-1)
    onehot = torch.nn.functional.one_hot(idx, logits.shape[-1]).to(logits.dtype)   # (N, k, E)
    return (torch.softmax(values, dim=-1).unsqueeze(-1) * onehot).sum(dim=-2)
'''),
]
