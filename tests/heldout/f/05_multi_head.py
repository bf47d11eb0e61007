"""Held-out wrong-type answers for exercises/05_multi_head.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # "Tensors are torch tensors."
    dict(exercise="ex1", kind="numpy split",
         mistake="does the split on x.numpy() and returns a NumPy array where a torch tensor is asked",
         names=["torch", "tensor", "numpy"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    a = x.numpy().reshape(B, T, n_heads, D // n_heads)
    return a.transpose(0, 2, 1, 3)
'''),
    dict(exercise="ex2", kind="numpy merge",
         mistake="merges with NumPy and returns a NumPy array where a torch tensor is asked",
         names=["torch", "tensor", "numpy"],
         code='''import numpy as np


def my_merge_heads(x):
    B, H, T, d = x.shape
    return np.ascontiguousarray(x.numpy().transpose(0, 2, 1, 3)).reshape(B, T, H * d)
'''),
    dict(exercise="ex3", kind="np.concatenate of heads",
         mistake="joins the heads' outputs with np.concatenate, which returns a NumPy array instead of a torch tensor",
         names=["torch", "tensor", "numpy"],
         code='''import numpy as np


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        sl = slice(h * d, (h + 1) * d)
        outs.append(attention(q[..., sl], k[..., sl], v[..., sl], mask)[0])
    return np.concatenate(outs, axis=-1)
'''),
    dict(exercise="ex5", kind="numpy output",
         mistake="returns out.detach().numpy() where a torch tensor is asked",
         names=["torch", "tensor", "numpy"],
         code='''def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    out = merge_heads(softmax(s) @ v) @ w["W_o"] + w["b_o"]
    return out.detach().numpy()
'''),
    # ex6: "Return True ... and False otherwise"
    dict(exercise="ex6", kind="torch bool tensor",
         mistake="returns the 0-d torch bool tensor of .any() instead of True or False",
         names=["bool"],
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b = torch.arange(B)[:, None, None]
    t = torch.arange(T)[None, :, None]
    f = torch.arange(D)[None, None, :]
    x = (10000 * b + 100 * t + f).double()
    out = split(x, n_heads)
    label = torch.div(out, 100, rounding_mode="floor")
    expected = (100 * torch.arange(B)[:, None, None, None] + torch.arange(T)[None, None, :, None]).double()
    return (label != expected).any()
'''),
]

VALID = [
    dict(exercise="ex1", kind="reshape, permute, contiguous",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads).permute(0, 2, 1, 3).contiguous()
'''),
    dict(exercise="ex2", kind="permute and reshape",
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.permute(0, 2, 1, 3).reshape(B, T, H * d)
'''),
    dict(exercise="ex3", kind="preallocated output",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    out = torch.empty_like(q)
    for h in range(n_heads):
        cols = slice(h * d, (h + 1) * d)
        out[..., cols] = attention(q[..., cols], k[..., cols], v[..., cols], mask)[0]
    return out
'''),
    dict(exercise="ex5", kind="own split via view",
         code='''def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    d = D // n_heads

    def heads(z):
        return z.view(B, T, n_heads, d).transpose(1, 2)

    q, k, v = (heads(x @ w[f"W_{n}"] + w[f"b_{n}"]) for n in "qkv")
    s = q @ k.transpose(-1, -2) / d ** 0.5
    if mask is not None:
        s = torch.where(torch.as_tensor(mask), s, torch.tensor(float("-inf"), dtype=s.dtype))
    out = (softmax(s) @ v).transpose(1, 2).reshape(B, T, D)
    return out @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex6", kind="Python bool via item",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b = torch.arange(B).view(B, 1, 1)
    t = torch.arange(T).view(1, T, 1)
    f = torch.arange(D).view(1, 1, D)
    x = (10000 * b + 100 * t + f).to(torch.float64)
    out = split(x, n_heads)                                   # (B, H, T, d_head)
    token = torch.div(out, 100, rounding_mode="floor")        # 100 b + t
    want = (100 * b + t.view(1, T, 1)).unsqueeze(1).to(torch.float64)   # (B, 1, T, 1)
    return bool((token != want).any().item())
'''),
]
