"""Held-out wrong-type answers for exercises/07_block.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # "Everything here is PyTorch: inputs are tensors" / "Use tensor arithmetic"
    dict(exercise="ex1", kind="numpy output",
         mistake="normalises with NumPy on x.numpy() and returns a NumPy array where a torch tensor is expected",
         names=["tensor", "torch", "numpy"],
         code='''import numpy as np


def layer_norm(x, gamma, beta, eps=1e-5):
    a = x.detach().numpy()
    mu = a.mean(axis=-1, keepdims=True)
    var = a.var(axis=-1, keepdims=True)
    return gamma.numpy() * (a - mu) / np.sqrt(var + eps) + beta.numpy()
'''),
    # ex5: "Return an int."
    dict(exercise="ex5", kind="float from d_model / n_heads",
         mistake="counts the attention weights head by head with d_model / n_heads (true division), so the total is a float where an int is asked",
         names=["int", "float"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_head = d_model / n_heads
    attention = n_heads * 3 * (d_model * d_head + d_head) + d_model * d_model + d_model
    norms = 2 * 2 * d_model
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + norms + ffn
'''),
    dict(exercise="ex5", kind="torch tensor",
         mistake="adds up the shapes' sizes as torch tensors and returns a 0-d tensor where an int is asked",
         names=["int", "tensor"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    shapes = [(d_model, 3 * d_model), (3 * d_model,), (d_model, d_model), (d_model,),
              (d_model, d_ff), (d_ff,), (d_ff, d_model), (d_model,),
              (d_model,), (d_model,), (d_model,), (d_model,)]
    return sum(torch.tensor(s).prod() for s in shapes)
'''),
]

VALID = [
    dict(exercise="ex1", kind="var(correction=0)",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, correction=0)
    return gamma * (x - mu) * torch.rsqrt(var + eps) + beta
'''),
    dict(exercise="ex5", kind="np.int64",
         code='''import numpy as np


def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    ffn = np.int64(d_model) * d_ff + d_ff + d_ff * d_model + d_model
    return attention + ffn + 4 * d_model
'''),
]
