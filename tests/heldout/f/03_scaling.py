"""Held-out wrong-type answers for exercises/03_scaling.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ex1: "return the sample variance ... as one number"
    dict(exercise="ex1", kind="(1,) array",
         mistake="returns the variance with keepdims=True, a (1,) array, where one number is asked",
         names=["one number", "number", "scalar", "float", "shape"],
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = np.sum(q * k, axis=1)
    return np.var(dots, keepdims=True)
'''),
    # ex2: "return the (H, T, T) array"
    dict(exercise="ex2", kind="torch tensor",
         mistake="computes the scores with torch and returns a torch tensor where an (H, T, T) NumPy array is asked",
         names=["numpy", "torch", "array"],
         code='''import torch


def head_scores(q, k):
    qt, kt = torch.as_tensor(q), torch.as_tensor(k)
    return qt @ kt.transpose(-2, -1) / math.sqrt(qt.shape[-1])
'''),
    # ex3: "Return the first (smallest) d_k ... or None"
    dict(exercise="ex3", kind="False instead of None",
         mistake="returns False (not None) when no d_k reaches the threshold",
         names=["none"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k)
        if softmax(s).max(axis=-1).mean() > threshold:
            return d_k
    return False
'''),
    dict(exercise="ex3", kind="list of every d_k",
         mistake="returns the list of every d_k above the threshold ([] when none) instead of the first one or None",
         names=["none", "first", "smallest", "list"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    found = []
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = (k @ q[:, :, None])[..., 0]
        if softmax(s).max(axis=-1).mean() > threshold:
            found.append(d_k)
    return found
'''),
]

VALID = [
    dict(exercise="ex1", kind="Python float",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(np.einsum("nd,nd->n", q, k)))
'''),
    dict(exercise="ex2", kind="swapaxes",
         code='''def head_scores(q, k):
    return np.matmul(q, np.swapaxes(k, -1, -2)) / np.sqrt(q.shape[-1])
'''),
    dict(exercise="ex3", kind="np.int64 from an array",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    sizes = np.asarray(list(d_ks))
    means = []
    for d_k in sizes:
        q, k = sample_qk(int(d_k), n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k)
        means.append(softmax(s).max(axis=-1).mean())
    above = np.flatnonzero(np.array(means) > threshold)
    return sizes[above[0]] if len(above) else None
'''),
]
