"""Held-out answers for exercises/05_multi_head.ipynb, written from the exercise texts alone."""

WRONG = [
    dict(exercise="ex1", kind="head-minor view", mistake="views the width as (d_head, H) instead of (H, d_head), so head h gets every H-th feature",
         names=["(h, d_head)", "consecutive", "stride", "every h-th", "interleav"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, D // n_heads, n_heads).permute(0, 3, 1, 2)
'''),
    dict(exercise="ex1", kind="transpose batch axis", mistake="transposes axes 0 and 2 instead of 1 and 2, moving the batch axis",
         names=["transpose(1, 2)", "batch", "axes 1 and 2", "wrong axes"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).transpose(0, 2)
'''),
    dict(exercise="ex1", kind="hard-coded heads", mistake="splits into the worked example's 2 heads whatever n_heads is",
         names=["n_heads", "hard-coded", "ignores"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, 2, D // 2).transpose(1, 2)
'''),
    dict(exercise="ex1", kind="no transpose reshape", mistake="reshapes straight to (B, H, T, d_head) without the transpose, mixing tokens across positions",
         names=["transpose", "mix", "tokens", "no-transpose"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex2", kind="no contiguous", mistake="transposes back and calls view without contiguous, which fails on a tensor stored in (B, H, T, d_head) order",
         names=["contiguous", "view", "reshape", "stride"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(1, 2).view(B, T, H * d)
'''),
    dict(exercise="ex2", kind="head-minor features", mistake="moves the head axis last before flattening, interleaving the heads' features instead of concatenating them",
         names=["head 0", "interleav", "order of the features", "concatenat", "permute"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="cat along positions", mistake="concatenates the heads along the position axis instead of the features",
         names=["feature axis", "dim=-1", "positions", "axis"],
         code='''import torch


def my_merge_heads(x):
    return torch.cat([x[:, h] for h in range(x.shape[1])], dim=1)
'''),
    dict(exercise="ex2", kind="setup D hard-coded", mistake="reshapes to the setup's width D = 8 instead of H * d_head",
         names=["h * d_head", "h·d_head", "hard-coded", "width"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(1, 2).reshape(B, T, D)
'''),
    dict(exercise="ex3", kind="overlapping slices", mistake="slices q[..., h:h + d_head], starting head h at feature h instead of h*d_head",
         names=["h*d_head", "h·d_head", "h * d_head", "overlap", "block"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        outs.append(attention(q[..., h:h + d], k[..., h:h + d], v[..., h:h + d], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="strided features", mistake="gives head h every H-th feature (q[..., h::H]) instead of a block of consecutive features",
         names=["consecutive", "block", "stride", "every h-th", "h::"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    outs = [attention(q[..., h::n_heads], k[..., h::n_heads], v[..., h::n_heads], mask)[0]
            for h in range(n_heads)]
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="scale by sqrt D", mistake="passes scale=1/sqrt(D), the full width, instead of letting attention scale by √d_head",
         names=["√d_head", "sqrt(d_head)", "d_model", "scale", "√d"],
         code='''import math

import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    D = q.shape[-1]
    d = D // n_heads
    outs = [attention(q[..., h * d:(h + 1) * d], k[..., h * d:(h + 1) * d], v[..., h * d:(h + 1) * d],
                      mask, scale=1 / math.sqrt(D))[0] for h in range(n_heads)]
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="mask dropped", mistake="never passes the mask to attention",
         names=["mask"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    qs, ks, vs = (t.chunk(n_heads, dim=-1) for t in (q, k, v))
    return torch.cat([attention(a, b_, c)[0] for a, b_, c in zip(qs, ks, vs)], dim=-1)
'''),
    dict(exercise="ex3", kind="stack interleaves", mistake="stacks the head outputs on a new last axis and flattens, interleaving the heads' features",
         names=["concatenat", "interleav", "stack", "torch.cat"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    B, T, D = q.shape
    d = D // n_heads
    outs = [attention(q[..., h * d:(h + 1) * d], k[..., h * d:(h + 1) * d], v[..., h * d:(h + 1) * d], mask)[0]
            for h in range(n_heads)]
    return torch.stack(outs, dim=-1).reshape(B, T, D)
'''),
    dict(exercise="ex4", kind="W_O per head", mistake="counts a d_model x d_model output projection for every head",
         names=["w_o", "output projection", "once", "per head"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    per_head = 3 * (d_model * d_head + (d_head if bias else 0)) + d_model * d_model
    return n_heads * per_head + (d_model if bias else 0)
'''),
    dict(exercise="ex4", kind="no W_O bias", mistake="adds W_O's matrix but forgets its d_model biases",
         names=["w_o", "output bias", "d_model biases", "b_o"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads != 0:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    one_head = 3 * d_model * d_head + (3 * d_head if bias else 0)
    return n_heads * one_head + d_model * d_model
'''),
    dict(exercise="ex4", kind="assert not ValueError", mistake="uses assert for the divisibility test, raising AssertionError instead of ValueError",
         names=["valueerror", "divide", "assert"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    assert d_model % n_heads == 0, "n_heads must divide d_model"
    d_head = d_model // n_heads
    total = n_heads * 3 * d_model * d_head + d_model * d_model
    if bias:
        total += n_heads * 3 * d_head + d_model
    return total
'''),
    dict(exercise="ex4", kind="bias per head d_model", mistake="counts d_model biases per projection per head instead of d_head",
         names=["d_head biases", "bias", "d_head"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError(f"{n_heads} does not divide {d_model}")
    d_head = d_model // n_heads
    total = n_heads * 3 * d_model * d_head + d_model * d_model
    if bias:
        total += n_heads * 3 * d_model + d_model
    return total
'''),
    dict(exercise="ex4", kind="bias ignored", mistake="always counts the biases, ignoring bias=False",
         names=["bias=false", "without bias", "ignores bias"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + d_head) + d_model * d_model + d_model
'''),
    dict(exercise="ex5", kind="scale sqrt D", mistake="scales the scores by √D (the model width) instead of √d_head",
         names=["√d_head", "sqrt(d_head)", "d_model", "head width", "scale"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(D)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(s) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="torch mask convention", mistake="blocks where the mask is True (torch's convention) although here True = may attend",
         names=["true = may attend", "convention", "to_mha", "inverted", "~mask"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = s.masked_fill(mask, float("-inf"))
    return merge_heads(softmax(s, -1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="weights transposed", mistake="multiplies by W.T as if the weights were stored (out, in) like torch's, though they are stored for x @ W",
         names=["x @ w", "transpose", "w.t", "stored", "layout"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"].T + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"].T + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"].T + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = torch.where(mask, s, float("-inf"))
    return merge_heads(softmax(s, -1) @ v) @ w["W_o"].T + w["b_o"]
'''),
    dict(exercise="ex5", kind="softmax over queries", mistake="takes the softmax over the query axis (-2) instead of the keys",
         names=["over the keys", "axis", "dim", "last axis"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = torch.where(mask, s, float("-inf"))
    return merge_heads(softmax(s, -2) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="no output bias", mistake="applies W_o but forgets the output bias b_o",
         names=["b_o", "output bias", "bias"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = torch.where(mask, s, float("-inf"))
    return merge_heads(softmax(s, -1) @ v) @ w["W_o"]
'''),
    dict(exercise="ex5", kind="mask after softmax", mistake="multiplies the softmax weights by the mask instead of blocking the scores before softmax",
         names=["before softmax", "after softmax", "-inf", "sum to 1", "renormal"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    a = softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), -1)
    if mask is not None:
        a = a * mask
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex6", kind="compares with split_heads", mistake="compares the numbers with split_heads's exactly, so a split that only reorders a head's features is called mixing",
         names=["reorder", "order of the features", "exact numbers", "labels", "not the exact"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = 10000 * b + 100 * t + f
    return not torch.equal(split(x, n_heads), split_heads(x, n_heads))
'''),
    dict(exercise="ex6", kind="base 10 labels", mistake="uses the lesson's 100 b + 10 t + f labels with D > 10, so features 10 and 11 decode as the next token",
         names=["base", "10000", "share a label", "collide", "larger"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    out = split(100 * b + 10 * t + f, n_heads)
    tok = (out // 10) % 10
    seq = out // 100
    want_t = torch.arange(T).view(1, 1, T, 1)
    want_b = torch.arange(B).view(B, 1, 1, 1)
    return bool(((tok != want_t) | (seq != want_b)).any())
'''),
    dict(exercise="ex6", kind="token labels only", mistake="labels the entries with the token only, not the sequence, so a split that swaps the batch is missed",
         names=["sequence", "batch", "swap", "b"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    x = (100 * torch.arange(T).view(1, T, 1) + torch.arange(D).view(1, 1, D)).expand(B, T, D).contiguous()
    out = split(x, n_heads)
    return bool((out // 100 != torch.arange(T).view(1, 1, T, 1)).any())
'''),
    dict(exercise="ex6", kind="first feature only", mistake="only checks feature 0 of each head, missing a split that moves only the last feature",
         names=["every feature", "last feature", "all features", "first feature"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    out = split(10000 * b + 100 * t + f, n_heads)[..., 0]
    label = out // 100
    want = 100 * torch.arange(B).view(B, 1, 1) + torch.arange(T).view(1, 1, T)
    return bool((label != want).any())
'''),
]

VALID = [
    dict(exercise="ex1", kind="transpose then reshape", code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("n_heads must divide D")
    return x.transpose(1, 2).reshape(B, n_heads, D // n_heads, T).transpose(2, 3)
'''),
    dict(exercise="ex1", kind="reshape -1 permute", code='''def my_split_heads(x, n_heads):
    B, T, _ = x.shape
    return x.reshape(B, T, n_heads, -1).permute(0, 2, 1, 3)
'''),
    dict(exercise="ex2", kind="transpose reshape", code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="cat of heads", code='''import torch


def my_merge_heads(x):
    return torch.cat(list(x.unbind(dim=1)), dim=-1)
'''),
    dict(exercise="ex3", kind="torch.split loop", code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    parts = zip(q.split(d, dim=-1), k.split(d, dim=-1), v.split(d, dim=-1))
    return torch.cat([attention(a, b_, c, mask)[0] for a, b_, c in parts], dim=-1)
'''),
    dict(exercise="ex3", kind="index loop into buffer", code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    B, T, D = q.shape
    d = D // n_heads
    out = torch.empty(B, T, D, dtype=v.dtype)
    for h in range(n_heads):
        cols = slice(h * d, (h + 1) * d)
        out[:, :, cols] = attention(q[:, :, cols], k[:, :, cols], v[:, :, cols], mask)[0]
    return out
'''),
    dict(exercise="ex4", kind="per head sum", code='''def attention_parameters(d_model, n_heads, bias=True):
    d_head, rest = divmod(d_model, n_heads)
    if rest:
        raise ValueError(f"n_heads={n_heads} does not divide d_model={d_model}")
    total = 0
    for _ in range(n_heads):
        for _proj in ("W_Q", "W_K", "W_V"):
            total += d_model * d_head + (d_head if bias else 0)
    total += d_model * d_model + (d_model if bias else 0)
    return total
'''),
    dict(exercise="ex4", kind="closed form", code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads != 0:
        raise ValueError("d_model must be a multiple of n_heads")
    return 4 * d_model * (d_model + int(bool(bias)))
'''),
    dict(exercise="ex5", kind="einsum", code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    d = D // n_heads
    def heads(W, b):
        return (x @ W + b).view(B, T, n_heads, d)      # (B, T, H, d)
    q, k, v = heads(w["W_q"], w["b_q"]), heads(w["W_k"], w["b_k"]), heads(w["W_v"], w["b_v"])
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d)
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    a = softmax(s, -1)
    o = torch.einsum("bhqk,bkhd->bqhd", a, v).reshape(B, T, D)
    return o @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="own split merge", code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    d = D // n_heads
    def split(t):
        return t.view(B, T, n_heads, d).transpose(1, 2)
    q = split(torch.addmm(w["b_q"], x.reshape(-1, D), w["W_q"]).view(B, T, D))
    k = split(torch.addmm(w["b_k"], x.reshape(-1, D), w["W_k"]).view(B, T, D))
    v = split(torch.addmm(w["b_v"], x.reshape(-1, D), w["W_v"]).view(B, T, D))
    s = (q / math.sqrt(d)) @ k.transpose(-1, -2)
    if mask is not None:
        s = torch.where(mask, s, torch.tensor(float("-inf"), dtype=s.dtype))
    s = s - s.amax(-1, keepdim=True)
    e = s.exp()
    a = e / e.sum(-1, keepdim=True)
    o = (a @ v).transpose(1, 2).reshape(B, T, D)
    return o @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex6", kind="decode labels", code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = 10000 * b + 100 * t + f
    out = split(x, n_heads)                          # (B, H, T, d_head)
    seq, tok = out // 10000, (out // 100) % 100
    return bool((seq != torch.arange(B).view(B, 1, 1, 1)).any()
                or (tok != torch.arange(T).view(1, 1, T, 1)).any())
'''),
    dict(exercise="ex6", kind="token-constant labels loop", code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    # one label per (sequence, token), the same for all of its features, plus a tiny feature part
    label = torch.arange(B * T, dtype=torch.float64).view(B, T, 1)
    x = (label * 1000 + torch.arange(D, dtype=torch.float64).view(1, 1, D) / 1000).contiguous()
    out = split(x, n_heads)
    for bb in range(B):
        for h in range(out.shape[1]):
            for tt in range(T):
                if not torch.all(torch.round(out[bb, h, tt] / 1000) == bb * T + tt):
                    return True
    return False
'''),
]
