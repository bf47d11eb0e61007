"""Held-out answers for exercises/05_multi_head.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 my_split_heads
    dict(exercise="ex1", kind="no-transpose reshape", mistake="reshapes (B, T, D) straight to (B, H, T, d_head) without the transpose, which has the right shape but mixes tokens",
         names=["mixes tokens", "no-transpose", "without the transpose", "right shape but"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="strided features", mistake="views the width as (d_head, H) instead of (H, d_head), so head h gets the strided features h, h+H, ... instead of a contiguous block",
         names=["contiguous block", "h·d_head", "(h, d_head)", "strided", "features h*d_head"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, D // n_heads, n_heads).permute(0, 3, 1, 2)
'''),
    dict(exercise="ex1", kind="transpose before view", mistake="transposes (B, T, D) to (B, D, T) first and then reshapes, which cuts the feature-major memory into heads of the wrong numbers",
         names=["view first", "transpose before", "(b, d, t)", "transposes x first"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.transpose(1, 2).reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="library split alias", mistake="calls the library split_heads under another name instead of writing view and transpose",
         names=["helpers.heads.split_heads", "split_heads", "yourself", "reference"],
         code='''from helpers.heads import split_heads as _split


def my_split_heads(x, n_heads):
    return _split(x, n_heads)
'''),
    dict(exercise="ex1", kind="hard-coded d_head", mistake="hard-codes d_head = 4 from the x_lab example instead of D / n_heads",
         names=["hard-coded", "hardcoded", "d / h", "d_head = d / h", "other widths"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, 4).transpose(1, 2)
'''),
    dict(exercise="ex1", kind="transpose forgotten", mistake="views the width as (H, d_head) but forgets to swap the position and head axes, returning (B, T, H, d_head)",
         names=["(b, t, h, d_head)", "transpose(1, 2)", "head axis", "swap axes 1 and 2"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads)
'''),
    # ---------------------------------------------------------------- ex2 my_merge_heads
    dict(exercise="ex2", kind="no-transpose reshape", mistake="reshapes (B, H, T, d_head) straight to (B, T, H·d_head) without moving the positions back first",
         names=["mixes tokens", "positions back", "before the heads", "no-transpose", "without moving"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="view without contiguous", mistake="calls view after the transpose without .contiguous(), which fails on a tensor stored in (B, H, T, d_head) order",
         names=["contiguous", ".contiguous()", "memory layout", "not compatible with"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(1, 2).view(B, T, H * d)
'''),
    dict(exercise="ex2", kind="features interleaved", mistake="permutes to (B, T, d_head, H) before flattening, so the heads' features are interleaved instead of head 0's block first",
         names=["head 0", "interleav", "(b, t, d_head, h)", "order of the features"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="concatenated along positions", mistake="concatenates the heads along the position axis instead of the features",
         names=["along the features", "dim=-1", "position axis", "wrong axis", "(b, t, h·d_head)"],
         code='''import torch


def my_merge_heads(x):
    return torch.cat(list(x.unbind(dim=1)), dim=1)
'''),
    dict(exercise="ex2", kind="library merge alias", mistake="calls the library merge_heads under another name",
         names=["helpers.heads.merge_heads", "merge_heads", "yourself", "reference"],
         code='''import helpers.heads as hh


def my_merge_heads(x):
    return hh.merge_heads(x)
'''),
    dict(exercise="ex2", kind="heads averaged", mistake="averages the heads into one instead of placing them side by side",
         names=["side by side", "concatenat", "averag", "mean over the heads"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.mean(dim=1).repeat(1, 1, H)
'''),
    # ---------------------------------------------------------------- ex3 per_head_attention
    dict(exercise="ex3", kind="slices positions", mistake="slices q[:, h*d_head:(h+1)*d_head], which cuts the position axis instead of the features",
         names=["[..., h*d_head", "slices the positions", "position axis", "feature slice"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    D = q.shape[-1]
    d = D // n_heads
    outs = []
    for h in range(n_heads):
        sl = slice(h * d, (h + 1) * d)
        outs.append(attention(q[:, sl], k[:, sl], v[:, sl], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="cat along positions", mistake="concatenates the head outputs along the positions (dim=1) instead of the features",
         names=["along the features", "dim=1", "(b, t, d)", "cat along"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = [attention(q[..., h * d:(h + 1) * d], k[..., h * d:(h + 1) * d], v[..., h * d:(h + 1) * d], mask)[0]
            for h in range(n_heads)]
    return torch.cat(outs, dim=1)
'''),
    dict(exercise="ex3", kind="mask not passed", mistake="never passes the mask on to attention",
         names=["ignores the mask", "never passes", "mask not passed", "pass the mask"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d, (h + 1) * d)
        out, _ = attention(q[..., cols], k[..., cols], v[..., cols])
        outs.append(out)
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="scaled by sqrt D", mistake="forces the scale to 1/sqrt(D), the model width, instead of letting attention scale by sqrt(d_head)",
         names=["d_model", "√d_head", "sqrt(d_head)", "model width", "scale="],
         code='''import math

import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    D = q.shape[-1]
    d = D // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d, (h + 1) * d)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask, scale=1 / math.sqrt(D))[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="strided head slice", mistake="takes the features h, h+H, h+2H, ... (q[..., h::n_heads]) instead of the contiguous block of head h",
         names=["strided", "h::n_heads", "contiguous", "every n_heads-th"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    outs = [attention(q[..., h::n_heads], k[..., h::n_heads], v[..., h::n_heads], mask)[0]
            for h in range(n_heads)]
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="uses split_heads", mistake="calls split_heads and merge_heads instead of writing the loop over heads the exercise asks for",
         names=["write the loop", "do not call split_heads", "split_heads", "loop over the heads"],
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    out, _ = attention(split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads), mask)
    return merge_heads(out)
'''),
    dict(exercise="ex3", kind="slice start off", mistake="starts head h's slice at h instead of h·d_head, so the heads overlap",
         names=["overlap", "slice start", "h:h + d", "starts at h"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        outs.append(attention(q[..., h:h + d], k[..., h:h + d], v[..., h:h + d], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    # ---------------------------------------------------------------- ex4 attention_parameters
    dict(exercise="ex4", kind="full width per head", mistake="gives every head d_model × d_model projections instead of d_model × d_head",
         names=["d_head", "d_model × d_head", "d_model / n_heads", "per head", "n_heads times too many"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError(f"n_heads={n_heads} does not divide d_model={d_model}")
    b = 1 if bias else 0
    per_head = 3 * (d_model * d_model + b * d_model)
    return n_heads * per_head + d_model * d_model + b * d_model
'''),
    dict(exercise="ex4", kind="forgets W_O", mistake="counts the heads' W_Q, W_K, W_V but leaves out the output projection W_O",
         names=["output projection", "d_model * d_model", "d_model × d_model", "forgot w_o"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads != 0:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + (d_head if bias else 0))
'''),
    dict(exercise="ex4", kind="bias flag ignored", mistake="always counts the biases, even with bias=False",
         names=["bias=false", "bias flag", "without bias", "ignores bias"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads != 0:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + d_head) + d_model * d_model + d_model
'''),
    dict(exercise="ex4", kind="no ValueError", mistake="never raises: floor division quietly counts a layer whose heads do not divide d_model",
         names=["does not divide", "remainder", "never raises", "divisib"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    d_head = d_model // n_heads
    b = d_head if bias else 0
    return n_heads * 3 * (d_model * d_head + b) + d_model * d_model + (d_model if bias else 0)
'''),
    dict(exercise="ex4", kind="W_O bias forgotten", mistake="counts the three projections' biases but not the d_model biases of W_O",
         names=["bias of w_o", "w_o's bias", "w_o bias", "d_model biases", "+ d_model"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    heads = n_heads * 3 * (d_model * d_head + (d_head if bias else 0))
    return heads + d_model * d_model
'''),
    dict(exercise="ex4", kind="assert not ValueError", mistake="checks divisibility with assert, which raises AssertionError instead of ValueError",
         names=["assertionerror", "assert", "must raise valueerror"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    assert d_model % n_heads == 0, "n_heads must divide d_model"
    d_head = d_model // n_heads
    b = 1 if bias else 0
    return n_heads * 3 * (d_model * d_head + b * d_head) + d_model * d_model + b * d_model
'''),
    # ---------------------------------------------------------------- ex5 mha_forward
    dict(exercise="ex5", kind="mask convention reversed", mistake="fills -inf where the mask is True, using nn.MultiheadAttention's True = blocked convention on a True = may attend mask",
         names=["true = may attend", "to_mha", "reversed", "inverted", "convention"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    Q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    K = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    V = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None:
        s = s.masked_fill(torch.as_tensor(mask), float("-inf"))
    out = softmax(s, axis=-1) @ V
    return merge_heads(out) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="scaled by sqrt D", mistake="divides the scores by sqrt(D), the model width, instead of sqrt(d_head)",
         names=["d_model", "√d_head", "sqrt(d_head)", "model width"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    D = x.shape[-1]
    Q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    K = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    V = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = Q @ K.transpose(-2, -1) / math.sqrt(D)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ V) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="biases left out", mistake="projects with the weights only and forgets the biases b_q, b_k, b_v and b_o",
         names=["biases", "b_q", "+ b_q", "without bias"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    Q = split_heads(x @ w["W_q"], n_heads)
    K = split_heads(x @ w["W_k"], n_heads)
    V = split_heads(x @ w["W_v"], n_heads)
    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ V) @ w["W_o"]
'''),
    dict(exercise="ex5", kind="no output projection", mistake="returns the merged heads without the output projection W_o, b_o",
         names=["w_o", "output projection", "b_o", "@ w_o"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    Q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    K = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    V = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ V)
'''),
    dict(exercise="ex5", kind="weights transposed", mistake="multiplies by the transposed weights, x @ W.T, as if they were stored (out, in) like torch's",
         names=["x @ w.t", "(out, in)", "stored for x @ w", "transposed weights", "w.t"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    Q = split_heads(x @ w["W_q"].T + w["b_q"], n_heads)
    K = split_heads(x @ w["W_k"].T + w["b_k"], n_heads)
    V = split_heads(x @ w["W_v"].T + w["b_v"], n_heads)
    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ V) @ w["W_o"].T + w["b_o"]
'''),
    dict(exercise="ex5", kind="softmax over queries", mistake="takes the softmax along dim -2 (the queries) instead of over the keys",
         names=["over the keys", "last axis", "dim=-1", "axis=-2", "queries"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    Q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    K = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    V = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    return merge_heads(torch.softmax(s, dim=-2) @ V) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="no-transpose split", mistake="splits the heads with a plain reshape to (B, H, T, d_head), which mixes tokens across positions",
         names=["mixes tokens", "no-transpose", "(b, t, h, d_head)", "without the transpose"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    d = D // n_heads
    Q = (x @ w["W_q"] + w["b_q"]).reshape(B, n_heads, T, d)
    K = (x @ w["W_k"] + w["b_k"]).reshape(B, n_heads, T, d)
    V = (x @ w["W_v"] + w["b_v"]).reshape(B, n_heads, T, d)
    s = Q @ K.transpose(-2, -1) / math.sqrt(d)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    out = (softmax(s, axis=-1) @ V).reshape(B, T, D)
    return out @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="library attention", mistake="hands the heads to helpers.attention.attention instead of writing the scores and the softmax",
         names=["yourself", "scores and the softmax", "attention function", "helpers.attention", "refuses"],
         code='''from helpers.attention import attention as sdpa


def mha_forward(x, w, n_heads, mask=None):
    Q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    K = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    V = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    out, _ = sdpa(Q, K, V, mask)
    return merge_heads(out) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="mask after softmax", mistake="zeroes the blocked weights after the softmax without renormalising the rows",
         names=["before softmax", "sum to 1", "after softmax", "-inf", "renormal"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    Q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    K = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    V = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    a = softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), axis=-1)
    if mask is not None:
        a = a * torch.as_tensor(mask)
    return merge_heads(a @ V) @ w["W_o"] + w["b_o"]
'''),
    # ---------------------------------------------------------------- ex6 mixes_tokens
    dict(exercise="ex6", kind="compares exact numbers", mistake="compares the split's numbers with x[..., h*d_head:(h+1)*d_head] exactly, so a split that only reorders the features of a head is called mixing",
         names=["exact numbers", "test the tokens", "reorder", "features of a head", "labels"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = (100 * b + 10 * t + f).double()
    y = split(x, n_heads)
    d = D // n_heads
    for h in range(n_heads):
        if not torch.equal(y[:, h], x[:, :, h * d:(h + 1) * d]):
            return True
    return False
'''),
    dict(exercise="ex6", kind="labels ignore the sequence", mistake="labels every entry with its token t only, so a split that swaps the sequences of the batch is not caught",
         names=["label b", "ignore the sequence", "label only t", "b*t + t"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(T, dtype=torch.float64)[None, :, None].expand(B, T, D).contiguous()
    y = split(label, n_heads)                                # (B, H, T, d_head)
    want = torch.arange(T, dtype=torch.float64)[None, None, :, None]
    return not bool((y == want).all())
'''),
    dict(exercise="ex6", kind="10t + f overflow", mistake="labels entries 100b + 10t + f and decodes the token as (label % 100) // 10, which breaks once D > 10 because f spills into the token digit",
         names=["d > 10", "spill", "feature index", "10 t + f", "same for all its features"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = 100 * b + 10 * t + f
    y = split(x, n_heads)
    token = (y % 100) // 10
    seq = y // 100
    want_t = torch.arange(T)[None, None, :, None]
    want_b = torch.arange(B)[:, None, None, None]
    return not bool(((token == want_t) & (seq == want_b)).all())
'''),
    dict(exercise="ex6", kind="first feature only", mistake="checks only the first feature of every head, so a split that moves only the last feature of each head is not caught",
         names=["every feature", "all features", "last feature", "[..., 0]", "only the first feature"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    lab = (torch.arange(B)[:, None] * T + torch.arange(T)[None, :]).double()      # (B, T)
    x = lab[:, :, None].expand(B, T, D).contiguous()
    y = split(x, n_heads)
    return not bool((y[..., 0] == lab[:, None, :]).all())
'''),
    dict(exercise="ex6", kind="shape only", mistake="checks only the shape of the result, which the no-transpose reshape gets right",
         names=["contents", "only the shape", "right shape", "compare what each position holds"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    y = split(torch.zeros(B, T, D), n_heads)
    return tuple(y.shape) != (B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex6", kind="first sequence only", mistake="compares the labels of sequence 0 only, so a split that moves tokens of the other sequences is missed",
         names=["sequence 0", "every sequence", "only the first sequence", "y[0]"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    lab = (torch.arange(B)[:, None] * T + torch.arange(T)[None, :]).double()
    x = lab[:, :, None].repeat(1, 1, D)
    y = split(x, n_heads)
    return not bool((y[0] == lab[0][None, :, None]).all())
'''),
]

VALID = [
    dict(exercise="ex1", kind="chunk and stack", code='''import torch


def my_split_heads(x, n_heads):
    # head h: features h*d_head .. (h+1)*d_head - 1 of every token
    return torch.stack(x.chunk(n_heads, dim=-1), dim=1)
'''),
    dict(exercise="ex1", kind="unflatten and permute", code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.unflatten(-1, (n_heads, D // n_heads)).permute(0, 2, 1, 3)
'''),
    dict(exercise="ex2", kind="cat over heads", code='''import torch


def my_merge_heads(x):
    return torch.cat([x[:, h] for h in range(x.shape[1])], dim=-1)
'''),
    dict(exercise="ex2", kind="transpose and flatten", code='''def my_merge_heads(x):
    return x.transpose(1, 2).flatten(start_dim=2)
'''),
    dict(exercise="ex3", kind="chunks in a loop", code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    outs = []
    for q_h, k_h, v_h in zip(q.chunk(n_heads, -1), k.chunk(n_heads, -1), v.chunk(n_heads, -1)):
        out_h, _ = attention(q_h, k_h, v_h, mask)
        outs.append(out_h)
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="fill a preallocated output", code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    B, T, D = q.shape
    d_head = D // n_heads
    result = torch.empty(B, T, v.shape[-1], dtype=q.dtype)
    for h in range(n_heads):
        lo, hi = h * d_head, (h + 1) * d_head
        result[..., lo:hi] = attention(q[..., lo:hi], k[..., lo:hi], v[..., lo:hi], mask=mask)[0]
    return result
'''),
    dict(exercise="ex4", kind="loop over heads", code='''def attention_parameters(d_model, n_heads, bias=True):
    if n_heads < 1 or d_model % n_heads != 0:
        raise ValueError(f"n_heads={n_heads} must divide d_model={d_model}")
    d_head = d_model // n_heads
    total = 0
    for _ in range(n_heads):
        for _matrix in ("W_Q", "W_K", "W_V"):
            total += d_model * d_head + (d_head if bias else 0)
    total += d_model * d_model + (d_model if bias else 0)   # W_O
    return total
'''),
    dict(exercise="ex4", kind="closed form", code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError(f"{n_heads} heads do not divide d_model {d_model}")
    return 4 * d_model * d_model + (4 * d_model if bias else 0)
'''),
    dict(exercise="ex5", kind="einsum with own softmax", code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    d = D // n_heads

    def heads(t):
        return t.view(B, T, n_heads, d).transpose(1, 2)

    Q = heads(x @ w["W_q"] + w["b_q"])
    K = heads(x @ w["W_k"] + w["b_k"])
    V = heads(x @ w["W_v"] + w["b_v"])
    s = torch.einsum("bhid,bhjd->bhij", Q, K) / math.sqrt(d)
    if mask is not None:
        s = torch.where(torch.as_tensor(mask, dtype=torch.bool), s, torch.tensor(float("-inf"), dtype=s.dtype))
    s = s - s.amax(dim=-1, keepdim=True)
    a = s.exp()
    a = a / a.sum(dim=-1, keepdim=True)
    out = torch.einsum("bhij,bhjd->bhid", a, V).transpose(1, 2).reshape(B, T, D)
    return out @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="fused projection and additive bias", code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    W = torch.cat([w["W_q"], w["W_k"], w["W_v"]], dim=1)
    b = torch.cat([w["b_q"], w["b_k"], w["b_v"]])
    Q, K, V = (split_heads(t, n_heads) for t in (x @ W + b).chunk(3, dim=-1))
    s = Q @ K.transpose(-2, -1) * (1.0 / math.sqrt(Q.shape[-1]))
    if mask is not None:
        bias = torch.zeros(mask.shape, dtype=s.dtype).masked_fill(~torch.as_tensor(mask), float("-inf"))
        s = s + bias
    out = softmax(s, axis=-1) @ V
    return merge_heads(out) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex6", kind="label per token", code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(B * T, dtype=torch.float64).view(B, T, 1).expand(B, T, D).contiguous()
    y = split(label, n_heads)                                   # (B, H, T, d_head)
    expected = label[:, :, 0].view(B, 1, T, 1)                  # the label b*T + t of that position
    return not bool(torch.equal(y, expected.expand_as(y)))
'''),
    dict(exercise="ex6", kind="sets of numbers per token", code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = ((b * T + t) * D + f).double()                          # every number names its b and t
    y = split(x, n_heads)
    for bb in range(B):
        for tt in range(T):
            allowed = set(x[bb, tt].tolist())
            for h in range(y.shape[1]):
                if not set(y[bb, h, tt].tolist()) <= allowed:
                    return True
    return False
'''),
]
