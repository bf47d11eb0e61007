"""Held-out wrong-type answers for exercises/06_position.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ex1: "Return True ... and False otherwise"
    dict(exercise="ex1", kind="None instead of True",
         mistake="returns False on the first order that fails but forgets the final return True, so an equivariant layer gives None",
         names=["none", "bool", "true"],
         code='''def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = list(order)
        if not np.allclose(attend(x[order]), base[order]):
            return False
'''),
    dict(exercise="ex1", kind="list of results",
         mistake="returns the list of one np.allclose result per order instead of one bool",
         names=["bool", "list", "every order"],
         code='''def is_permutation_equivariant(attend, x):
    base = attend(x)
    results = []
    for order in itertools.permutations(range(x.shape[0])):
        idx = np.array(order)
        results.append(np.allclose(attend(x[idx]), base[idx]))
    return results
'''),
    # ex2: "Build it with NumPy"
    dict(exercise="ex2", kind="torch tensor",
         mistake="builds the encoding with torch and returns a torch tensor where a NumPy array is asked",
         names=["numpy", "torch", "ndarray"],
         code='''import torch


def my_sinusoidal(T, d_model):
    pos = torch.arange(T, dtype=torch.float64)[:, None]
    freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    pe = torch.zeros(T, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(pos * freq)
    pe[:, 1::2] = torch.cos(pos * freq)
    return pe
'''),
    # ex3: "Return an array of the same shape"
    dict(exercise="ex3", kind="nested list",
         mistake="returns the rotated rows as a nested Python list where an array of the same shape is asked",
         names=["array", "numpy", "list"],
         code='''def my_rope(x):
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    ang = np.arange(T)[:, None] * theta
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x[:, 0::2] * np.cos(ang) - x[:, 1::2] * np.sin(ang)
    out[:, 1::2] = x[:, 0::2] * np.sin(ang) + x[:, 1::2] * np.cos(ang)
    return out.tolist()
'''),
]

VALID = [
    dict(exercise="ex1", kind="all() over a generator",
         code='''def is_permutation_equivariant(attend, x):
    y = attend(x)
    return all(np.allclose(attend(x[list(p)]), y[list(p)])
               for p in itertools.permutations(range(len(x))))
'''),
    dict(exercise="ex2", kind="np.empty filled",
         code='''def my_sinusoidal(T, d_model):
    i = np.arange(d_model // 2)
    angles = np.arange(T)[:, None] / np.power(10000.0, 2 * i / d_model)[None, :]
    pe = np.empty((T, d_model))
    pe[:, ::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe
'''),
    dict(exercise="ex3", kind="complex numbers",
         code='''def my_rope(x):
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(d // 2) * 2 / d)
    z = x[:, 0::2] + 1j * x[:, 1::2]
    z = z * np.exp(1j * np.arange(T)[:, None] * theta[None, :])
    out = np.empty((T, d))
    out[:, 0::2], out[:, 1::2] = z.real, z.imag
    return out
'''),
]
