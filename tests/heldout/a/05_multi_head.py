"""Held-out answers for exercises/05_multi_head.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1: my_split_heads
    dict(exercise="ex1", kind="no-transpose reshape",
         mistake="reshapes straight to (B, H, T, d_head) without the transpose, so each head "
                 "gets consecutive memory and tokens are mixed across positions",
         names=["without the transpose", "mixes tokens", "reshape straight", "no-transpose", "transpose(1, 2)"],
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    return x.reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="view as (d_head, H)",
         mistake="views the width as (d_head, H) instead of (H, d_head), so head h gets every "
                 "H-th feature instead of a contiguous block",
         names=["(d_head, h)", "interleav", "every h-th", "strided", "contiguous block"],
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    d_head = D // n_heads
    return x.view(B, T, d_head, n_heads).permute(0, 3, 1, 2)
'''),
    dict(exercise="ex1", kind="batch and head swapped",
         mistake="permutes to (H, B, T, d_head): the head axis ends up first and the batch "
                 "second, which only has the right shape when B == H",
         names=["batch and head", "(h, b, t, d_head)", "batch axis", "axis order", "head axis first"],
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).permute(2, 0, 1, 3)
'''),
    dict(exercise="ex1", kind="transpose before reshape",
         mistake="transposes (B, T, D) to (B, D, T) first and then reshapes, so each head's "
                 "rows are features and its columns positions",
         names=["transpose first", "order of view and transpose", "positions and features", "before the view", "features and positions"],
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    return x.transpose(1, 2).reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="flattens the batch",
         mistake="merges batch and position into one B*T axis before splitting, so for B > 1 "
                 "head 1 of sequence 0 holds tokens of sequence 1",
         names=["batch", "across sequences", "b*t", "b·t", "flatten"],
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    d_head = D // n_heads
    heads = x.reshape(B * T, n_heads, d_head).transpose(0, 1)   # (H, B*T, d_head)
    return heads.reshape(B, n_heads, T, d_head)
'''),
    dict(exercise="ex1", kind="hard-coded d_head 4",
         mistake="hard-codes d_head = 4 from the labelled example instead of D / n_heads",
         names=["hard-coded", "d_head = 4", "d / h", "d / n_heads", "d_model / n_heads"],
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    return x.view(B, T, n_heads, 4).transpose(1, 2)
'''),

    # ---------------------------------------------------------------- ex2: my_merge_heads
    dict(exercise="ex2", kind="no-transpose reshape",
         mistake="reshapes (B, H, T, d_head) straight to (B, T, H*d_head) without moving the "
                 "positions back before the heads, mixing tokens",
         names=["without the transpose", "mixes tokens", "positions back", "reshape straight", "transpose(1, 2)"],
         code='''def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    B, H, T, d = x.shape
    return x.reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="view without contiguous",
         mistake="calls .view after the transpose without .contiguous(), which fails on a "
                 "tensor stored in (B, H, T, d_head) order",
         names=["contiguous", ".view", "stride", "memory", "view fails"],
         code='''def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    B, H, T, d = x.shape
    return x.transpose(1, 2).view(B, T, H * d)
'''),
    dict(exercise="ex2", kind="features interleaved",
         mistake="moves the head axis last before flattening, so a token's features come "
                 "feature-major (head 0 f0, head 1 f0, ...) instead of head 0's block then head 1's",
         names=["interleav", "feature order", "order of the features", "(d_head, h)", "head-major"],
         code='''def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    B, H, T, d = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="transposes batch axis",
         mistake="swaps axes 0 and 2 (batch and position) instead of 1 and 2, which is only "
                 "right for a batch of one sequence",
         names=["batch", "wrong axes", "axis 0", "sequences", "transpose(0, 2)"],
         code='''def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    B, H, T, d = x.shape
    return x.transpose(0, 2).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="hard-coded width D",
         mistake="uses the setup's global D (8) as the merged width instead of H * d_head",
         names=["hard-coded", "h * d_head", "h·d_head", "global d", "setup's d"],
         code='''def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    return x.transpose(1, 2).contiguous().view(x.shape[0], x.shape[2], D)
'''),

    # ---------------------------------------------------------------- ex3: per_head_attention
    dict(exercise="ex3", kind="mask ignored",
         mistake="never passes the mask to attention, so every head attends to every key",
         names=["ignor", "mask is not applied", "without the mask", "pass the mask", "unmasked"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        out, _ = attention(q[..., cols], k[..., cols], v[..., cols])
        outs.append(out)
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="scaled by sqrt(d_model)",
         mistake="overrides the scale with 1/sqrt(D), the full width, instead of letting "
                 "attention scale by sqrt(d_head)",
         names=["√d_model", "sqrt(d_model)", "sqrt(d)", "full width", "whole width"],
         code='''import math

import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    D = q.shape[-1]
    d_head = D // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        out, _ = attention(q[..., cols], k[..., cols], v[..., cols], mask,
                           scale=1 / math.sqrt(D))
        outs.append(out)
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="strided head slice",
         mistake="takes every n_heads-th feature (q[..., h::n_heads]) as head h instead of the "
                 "contiguous block h*d_head .. (h+1)*d_head - 1",
         names=["every n_heads-th", "strided", "contiguous block", "h·d_head", "h*d_head"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    outs = []
    for h in range(n_heads):
        out, _ = attention(q[..., h::n_heads], k[..., h::n_heads], v[..., h::n_heads], mask)
        outs.append(out)
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="stacked then reshaped",
         mistake="stacks the head outputs on a new last axis and reshapes, which interleaves "
                 "the heads' features instead of concatenating head 0's block then head 1's",
         names=["stack", "interleav", "torch.cat", "order of the features", "feature order"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    B, T, D = q.shape
    d_head = D // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[0])
    return torch.stack(outs, dim=-1).reshape(B, T, D)
'''),
    dict(exercise="ex3", kind="weights instead of output",
         mistake="takes element [1] of attention's (out, weights) tuple, so it concatenates "
                 "the attention weights instead of the outputs",
         names=["weights instead", "[0]", "(out, weights)", "instead of the output", "attention weights"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[1])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="mask inverted",
         mistake="passes ~mask, as if True meant blocked (nn.MultiheadAttention's convention), "
                 "although the mask here has True = may attend",
         names=["invert", "true = may attend", "~mask", "convention", "blocked"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    d_head = q.shape[-1] // n_heads
    m = None if mask is None else ~torch.as_tensor(mask)
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], m)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="loop misses last head",
         mistake="loops over range(n_heads - 1), dropping the last head's block of features",
         names=["last head", "range(n_heads)", "off by one", "n_heads - 1", "missing head"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads - 1):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[0])
    return torch.cat(outs, dim=-1)
'''),

    # ---------------------------------------------------------------- ex4: attention_parameters
    dict(exercise="ex4", kind="no ValueError",
         mistake="uses integer division for d_head and never raises ValueError when n_heads "
                 "does not divide d_model",
         names=["valueerror", "divide", "divisible", "remainder"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    d_head = d_model // n_heads
    per_head = 3 * (d_model * d_head + (d_head if bias else 0))
    return n_heads * per_head + d_model * d_model + (d_model if bias else 0)
'''),
    dict(exercise="ex4", kind="W_O per head",
         mistake="counts a full d_model x d_model output projection inside every head instead "
                 "of one W_O for the whole layer",
         names=["one output projection", "w_o per head", "w_o once", "output projection per head", "only once"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    b = 1 if bias else 0
    per_head = 3 * (d_model * d_head + b * d_head) + d_model * d_model + b * d_model
    return n_heads * per_head
'''),
    dict(exercise="ex4", kind="bias argument ignored",
         mistake="always counts the biases, even with bias=False",
         names=["bias=false", "without bias", "bias argument", "no biases"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads != 0:
        raise ValueError(f"{n_heads} heads do not divide d_model={d_model}")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + d_head) + d_model * d_model + d_model
'''),
    dict(exercise="ex4", kind="full-width heads",
         mistake="gives every head full d_model x d_model projections instead of "
                 "d_model x d_head, so the count grows with n_heads",
         names=["d_model × d_head", "d_model x d_head", "full width", "full-width", "grows with n_heads"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    b = d_model if bias else 0
    return n_heads * 3 * (d_model * d_model + b) + d_model * d_model + b
'''),
    dict(exercise="ex4", kind="W_O bias forgotten",
         mistake="counts W_O's d_model x d_model weights but forgets its d_model biases",
         names=["b_o", "output bias", "w_o's bias", "d_model biases", "bias of w_o"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    per_head = 3 * (d_model * d_head + (d_head if bias else 0))
    return n_heads * per_head + d_model * d_model
'''),
    dict(exercise="ex4", kind="head bias d_model wide",
         mistake="gives each head's W_Q, W_K, W_V d_model biases instead of d_head",
         names=["d_head biases", "biases per head", "bias of each head", "head's bias"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    b = d_model if bias else 0
    return n_heads * 3 * (d_model * d_head + b) + d_model * d_model + b
'''),

    # ---------------------------------------------------------------- ex5: mha_forward
    dict(exercise="ex5", kind="scaled by sqrt(D)",
         mistake="divides the scores by sqrt(D), the full model width, instead of sqrt(d_head)",
         names=["√d_model", "sqrt(d_model)", "sqrt(d)", "instead of √d_head", "full width"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    D = x.shape[-1]
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(D)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-1)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="mask inverted",
         mistake="fills -inf where the mask is True, as in torch's True = blocked convention, "
                 "although here True = may attend",
         names=["invert", "true = may attend", "~mask", "convention", "blocked"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-1)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="softmax over queries",
         mistake="takes the softmax over axis -2 (the queries) instead of -1 (the keys)",
         names=["axis", "over the keys", "dim=-2", "axis=-2", "columns"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-2)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="output bias forgotten",
         mistake="applies W_o but forgets to add the output bias b_o",
         names=["b_o", "output bias", "bias of the output", "out_proj"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-1)
    return merge_heads(a @ v) @ w["W_o"]
'''),
    dict(exercise="ex5", kind="weights transposed",
         mistake="multiplies by the transposed weights (x @ W.T), mixing up torch's (out, in) "
                 "storage with the x @ W layout the dict already uses",
         names=["w.t", "(out, in)", "x @ w", "layout", "transposed weight"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"].T + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"].T + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"].T + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-1)
    return merge_heads(a @ v) @ w["W_o"].T + w["b_o"]
'''),
    dict(exercise="ex5", kind="mask multiplied",
         mistake="multiplies the scores by the mask, so blocked scores become 0 (weight exp(0)) "
                 "instead of -inf",
         names=["-inf", "multipl", "masked_fill", "zero score", "exp(0)"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s * torch.as_tensor(mask).to(s.dtype)
    a = softmax(s, axis=-1)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="no-transpose split",
         mistake="splits the projections with a plain reshape to (B, H, T, d_head), without "
                 "the transpose, mixing tokens across positions",
         names=["transpose(1, 2)", "mixes tokens", "no-transpose", "reshape straight", "without the transpose"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    B, T, D = x.shape
    d_head = D // n_heads

    def split(t):
        return t.reshape(B, n_heads, T, d_head)

    q = split(x @ w["W_q"] + w["b_q"])
    k = split(x @ w["W_k"] + w["b_k"])
    v = split(x @ w["W_v"] + w["b_v"])
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-1)
    return (a @ v).reshape(B, T, D) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="scores k q transposed",
         mistake="computes the scores as K Q^T, so row i holds key i against every query "
                 "(the transpose of the scores)",
         names=["k @ q", "k q^t", "rows and columns", "transposed scores", "scores are transposed"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = k @ q.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-1)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),

    # ---------------------------------------------------------------- ex6: mixes_tokens
    dict(exercise="ex6", kind="compares exact numbers",
         mistake="compares the split's numbers exactly with the expected (view + transpose) "
                 "split, so a split that only reorders a head's features is reported as mixing",
         names=["exact number", "order of the features", "reordered", "tokens, not", "feature order"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = 1000 * b + 100 * t + f
    expected = x.view(B, T, n_heads, D // n_heads).transpose(1, 2)
    return not torch.equal(split(x, n_heads), expected)
'''),
    dict(exercise="ex6", kind="labels ignore the sequence",
         mistake="labels every entry with its token t only, so a split that swaps the "
                 "sequences of the batch goes unnoticed",
         names=["swaps the sequences", "batch", "label b", "sequence label", "which sequence"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    t = torch.arange(T, dtype=torch.float64)[None, :, None]
    x = t.expand(B, T, D).contiguous()
    y = split(x, n_heads)                                    # (B, H, T, d_head)
    return bool((y != t[:, None]).any())
'''),
    dict(exercise="ex6", kind="first feature only",
         mistake="checks only feature 0 of every head, so a split that moves only the last "
                 "feature of each head is missed",
         names=["every feature", "last feature", "first feature", "all features", "only feature 0"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    b = torch.arange(B)[:, None, None]
    t = torch.arange(T)[None, :, None]
    x = (b * T + t).expand(B, T, D).contiguous().double()
    y = split(x, n_heads)
    label = (b * T + t).double()                             # (B, T, 1)
    return bool((y[..., 0] != label[:, None, :, 0]).any())
'''),
    dict(exercise="ex6", kind="shape test only",
         mistake="tests only the shape of the split, which the no-transpose reshape gets right",
         names=["only the shape", "contents", "shape alone", "right shape"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    x = torch.randn(B, T, D)
    return tuple(split(x, n_heads).shape) != (B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex6", kind="100b+10t+f labels collide",
         mistake="reuses the lesson's 100 b + 10 t + f labels and decodes the token as "
                 "(label // 10) % 10, which is wrong once D > 10 (feature 11 of token t reads as t + 1)",
         names=["d > 10", "collide", "overlap", "10 t + f", "10·t + f"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = 100 * b + 10 * t + f
    y = split(x, n_heads)
    token = (y // 10) % 10
    seq = y // 100
    want_t = torch.arange(T)[None, None, :, None]
    want_b = torch.arange(B)[:, None, None, None]
    return bool(((token != want_t) | (seq != want_b)).any())
'''),
    dict(exercise="ex6", kind="all instead of any",
         mistake="returns True only when every position holds a wrong token (all) instead of "
                 "when some position does (any)",
         names=["any(", "some position", "all(", "every position", "instead of any"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    b = torch.arange(B)[:, None, None]
    t = torch.arange(T)[None, :, None]
    label = (b * T + t).double()                             # (B, T, 1)
    x = label.expand(B, T, D).contiguous()
    y = split(x, n_heads)
    return bool((y != label[:, None]).all())
'''),
    dict(exercise="ex6", kind="uses setup x_lab",
         mistake="tests the split on the setup's x_lab with 2 heads instead of building an x "
                 "from its own B, T, D and n_heads arguments",
         names=["arguments", "ignores b", "x_lab", "b, t, d", "its own x"],
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    y = split(x_lab, 2)                                      # (2, 2, 4, 4)
    nb, nh, nt, _ = y.shape
    for bb in range(nb):
        for h in range(nh):
            for tt in range(nt):
                if ((y[bb, h, tt] // 10) % 10 != tt).any() or (y[bb, h, tt] // 100 != bb).any():
                    return True
    return False
'''),
]

VALID = [
    # ---------------------------------------------------------------- ex1
    dict(exercise="ex1", kind="reshape and permute", code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads).permute(0, 2, 1, 3)
'''),
    dict(exercise="ex1", kind="view -1 and negative axes", code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    return x.view(*x.shape[:-1], n_heads, -1).transpose(-3, -2)
'''),

    # ---------------------------------------------------------------- ex2
    dict(exercise="ex2", kind="permute and reshape", code='''def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    B, H, T, d = x.shape
    return x.permute(0, 2, 1, 3).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="cat over heads", code='''import torch


def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    return torch.cat([x[:, h] for h in range(x.shape[1])], dim=-1)
'''),

    # ---------------------------------------------------------------- ex3
    dict(exercise="ex3", kind="chunk and zip", code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    outs = []
    for q_h, k_h, v_h in zip(q.chunk(n_heads, dim=-1), k.chunk(n_heads, dim=-1),
                             v.chunk(n_heads, dim=-1)):
        out_h, _ = attention(q_h, k_h, v_h, mask)
        outs.append(out_h)
    return torch.cat(outs, dim=2)
'''),
    dict(exercise="ex3", kind="preallocated output", code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    D = q.shape[-1]
    d_head = D // n_heads
    result = torch.empty(q.shape[:-1] + (v.shape[-1],), dtype=v.dtype)
    for h in range(n_heads):
        lo, hi = h * d_head, (h + 1) * d_head
        result[..., lo:hi] = attention(q[..., lo:hi], k[..., lo:hi], v[..., lo:hi], mask=mask)[0]
    return result
'''),

    # ---------------------------------------------------------------- ex4
    dict(exercise="ex4", kind="loop over heads", code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads != 0:
        raise ValueError(f"n_heads={n_heads} does not divide d_model={d_model}")
    d_head = d_model // n_heads
    total = 0
    for _ in range(n_heads):
        for _proj in ("W_Q", "W_K", "W_V"):
            total += d_model * d_head
            if bias:
                total += d_head
    total += d_model * d_model
    if bias:
        total += d_model
    return total
'''),
    dict(exercise="ex4", kind="closed form", code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    # n_heads * 3 * (d_model * d_head + d_head) == 3 * (d_model ** 2 + d_model)
    return 4 * (d_model * d_model + int(bool(bias)) * d_model)
'''),

    # ---------------------------------------------------------------- ex5
    dict(exercise="ex5", kind="einsum own split", code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    B, T, D = x.shape
    d = D // n_heads

    def heads(t):
        return t.view(B, T, n_heads, d).transpose(1, 2)    # (B, H, T, d_head)

    q = heads(x @ w["W_q"] + w["b_q"])
    k = heads(x @ w["W_k"] + w["b_k"])
    v = heads(x @ w["W_v"] + w["b_v"])
    s = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(d)
    if mask is not None:
        s = torch.where(torch.as_tensor(mask), s, torch.tensor(float("-inf"), dtype=s.dtype))
    a = softmax(s, axis=-1)
    out = torch.einsum("bhqk,bhkd->bhqd", a, v)
    return out.transpose(1, 2).reshape(B, T, D) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="loop over heads, exp softmax", code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    D = x.shape[-1]
    d = D // n_heads
    Q = x @ w["W_q"] + w["b_q"]
    K = x @ w["W_k"] + w["b_k"]
    V = x @ w["W_v"] + w["b_v"]
    outs = []
    for h in range(n_heads):
        c = slice(h * d, (h + 1) * d)
        s = Q[..., c] @ K[..., c].transpose(-1, -2) * (1.0 / math.sqrt(d))
        if mask is not None:
            s = s.masked_fill(~torch.as_tensor(mask, dtype=torch.bool), float("-inf"))
        e = torch.exp(s - s.max(dim=-1, keepdim=True).values)
        a = e / e.sum(dim=-1, keepdim=True)
        outs.append(a @ V[..., c])
    return torch.cat(outs, dim=-1) @ w["W_o"] + w["b_o"]
'''),

    # ---------------------------------------------------------------- ex6
    dict(exercise="ex6", kind="token labels, loops", code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    x = torch.empty(B, T, D, dtype=torch.float64)
    for b in range(B):
        for t in range(T):
            x[b, t, :] = b * T + t
    y = split(x, n_heads)
    for b in range(y.shape[0]):
        for h in range(y.shape[1]):
            for t in range(y.shape[2]):
                if not torch.all(y[b, h, t] == b * T + t):
                    return True
    return False
'''),
    dict(exercise="ex6", kind="decoded unique labels", code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    x = torch.arange(B * T * D).view(B, T, D)                # entry = (b*T + t)*D + f
    token = split(x, n_heads) // D                           # which (b, t) each number came from
    want = (torch.arange(B)[:, None] * T + torch.arange(T)[None, :])[:, None, :, None]
    return bool((token != want).any())
'''),
]
