"""Held-out wrong-type answers for exercises/01_qkv.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ex1: "returning the tuple (q, k, v)"
    dict(exercise="ex1", kind="list instead of tuple",
         mistake="returns the list [q, k, v] where the tuple (q, k, v) is asked",
         names=["tuple"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    return [x @ w_q, x @ w_k, x @ w_v]
'''),
    # ex5: "return (scores_shape, output_shape), two tuples"
    dict(exercise="ex5", kind="lists instead of tuples",
         mistake="returns the two shapes as lists [T_q, T_k] and [T_q, d_v] where two tuples are asked",
         names=["tuple"],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError(f"k has {T_k} positions but v has {T_v}: one value per key")
    return [T_q, T_k], [T_q, d_v]
'''),
    dict(exercise="ex5", kind="numpy arrays instead of tuples",
         mistake="returns the shapes as NumPy arrays where two tuples are asked",
         names=["tuple"],
         code='''def attention_shapes(q, k, v):
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"q width {q.shape[1]} does not match k width {k.shape[1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v need the same length T_k")
    return np.array([q.shape[0], k.shape[0]]), np.array([q.shape[0], v.shape[1]])
'''),
]

VALID = [
    dict(exercise="ex1", kind="tuple from a generator",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return tuple(x @ w for w in (w_q, w_k, w_v))
'''),
    dict(exercise="ex5", kind="tuples from shape slices",
         code='''def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q width {q.shape[-1]} does not match k width {k.shape[-1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError(f"k length {k.shape[0]} does not match v length {v.shape[0]}")
    return q.shape[:1] + k.shape[:1], q.shape[:1] + v.shape[1:]
'''),
]
