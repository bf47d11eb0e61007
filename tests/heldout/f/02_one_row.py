"""Held-out wrong-type answers for exercises/02_one_row.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ex1: "Return the (T_q, T_k) array S"
    dict(exercise="ex1", kind="nested list",
         mistake="returns the scores as a nested Python list (.tolist()) where a (T_q, T_k) array is asked",
         names=["array", "numpy", "list"],
         code='''def scaled_scores(q, k):
    return (q @ k.T / np.sqrt(k.shape[-1])).tolist()
'''),
    dict(exercise="ex1", kind="torch tensor",
         mistake="computes the scores in torch and returns a torch tensor where a NumPy array is asked",
         names=["numpy", "torch", "array"],
         code='''import torch


def scaled_scores(q, k):
    qt, kt = torch.as_tensor(q), torch.as_tensor(k)
    return qt @ kt.T / kt.shape[-1] ** 0.5
'''),
    # ex2: "Return an array of the same shape"
    dict(exercise="ex2", kind="list",
         mistake="returns the weights as a Python list where an array of the same shape is asked",
         names=["array", "numpy", "list"],
         code='''def stable_softmax(s):
    s = np.asarray(s, dtype=float)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).tolist()
'''),
    # ex3: "Return the (T_q, d_v) array"
    dict(exercise="ex3", kind="list of rows",
         mistake="builds the output with a loop and returns a list of row arrays instead of one (T_q, d_v) array",
         names=["array", "numpy", "list"],
         code='''def weighted_sum(weights, v):
    rows = []
    for i in range(weights.shape[0]):
        rows.append(sum(weights[i, j] * v[j] for j in range(v.shape[0])))
    return rows
'''),
    # ex4: "Return the tuple (out_i, weights_i)"
    dict(exercise="ex4", kind="out_i as a list",
         mistake="returns out_i as a Python list of floats built in a loop where an array of shape (d_v,) is asked",
         names=["array", "numpy", "list"],
         code='''def row_by_hand(q, k, v, i):
    s = k @ q[i] / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max())
    w = e / e.sum()
    out = [float(np.dot(w, v[:, c])) for c in range(v.shape[1])]
    return out, w
'''),
    # ex5: "Return the tuple (out, weights)"
    dict(exercise="ex5", kind="list instead of tuple",
         mistake="returns the list [out, weights] where the tuple (out, weights) is asked",
         names=["tuple"],
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return [w @ v, w]
'''),
]

VALID = [
    dict(exercise="ex1", kind="Fortran-ordered array",
         code='''def scaled_scores(q, k):
    return (k @ q.T).T / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex2", kind="in-place on a copy",
         code='''def stable_softmax(s):
    out = np.array(s, dtype=np.float64)
    out -= out.max(axis=-1, keepdims=True)
    np.exp(out, out=out)
    out /= out.sum(axis=-1, keepdims=True)
    return out
'''),
    dict(exercise="ex3", kind="einsum",
         code='''def weighted_sum(weights, v):
    return np.einsum("ij,jd->id", weights, v)
'''),
    dict(exercise="ex4", kind="np.dot",
         code='''def row_by_hand(q, k, v, i):
    scores = np.dot(k, q[i]) / np.sqrt(k.shape[1])
    e = np.exp(scores - np.max(scores))
    weights_i = e / np.sum(e)
    return np.dot(weights_i, v), weights_i
'''),
    dict(exercise="ex5", kind="copy and assign -inf",
         code='''def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s.copy()
        s[~np.asarray(mask, dtype=bool)] = -np.inf
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights
'''),
]
