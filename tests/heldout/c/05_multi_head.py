"""Held-out answers for exercises/05_multi_head.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1: my_split_heads
    dict(exercise="ex1", kind="no-transpose reshape", mistake="reshapes straight to (B, H, T, d_head) without the transpose, which mixes tokens across positions",
         names=["transpose", "mixes tokens", "no-transpose", "reshape straight", "memory order"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="strided heads", mistake="views the width as (d_head, H), so head h gets every H-th feature instead of a block of consecutive features",
         names=["strided", "every h-th", "consecutive", "interleav", "block of d_head"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, D // n_heads, n_heads).permute(0, 3, 1, 2)
'''),
    dict(exercise="ex1", kind="positions last", mistake="moves the head axis forward with the wrong transpose, so the result is (B, H, d_head, T): positions and features swapped",
         names=["(b, h, d_head, t)", "positions and features", "last two axes", "transpose(1, 2)", "wrong axes"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).permute(0, 2, 3, 1)
'''),
    dict(exercise="ex1", kind="hard-coded two heads", mistake="always splits into 2 heads, the number of the worked example, ignoring n_heads",
         names=["n_heads", "hard-coded", "number of heads", "ignores"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, 2, D // 2).transpose(1, 2)
'''),
    dict(exercise="ex1", kind="sequence-first view", mistake="views the tensor as if it were (T, B, D), sequence-first, which swaps tokens between sequences when B > 1",
         names=["batch", "sequence", "seq-first", "batch_first", "(t, b"],
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(T, B, n_heads, D // n_heads).permute(1, 2, 0, 3)
'''),
    dict(exercise="ex1", kind="reference under alias", mistake="calls helpers.heads.split_heads under another name instead of view and transpose",
         names=["split_heads", "helpers.heads", "yourself", "reference"],
         code='''from helpers.heads import split_heads as to_heads


def my_split_heads(x, n_heads):
    return to_heads(x, n_heads)
'''),
    # ---------------------------------------------------------------- ex2: my_merge_heads
    dict(exercise="ex2", kind="no-transpose reshape", mistake="reshapes (B, H, T, d_head) straight to (B, T, D) without moving the positions back before the heads",
         names=["transpose", "mixes tokens", "positions back", "no-transpose", "memory order"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="view without contiguous", mistake="calls view right after the transpose, which fails on a tensor stored in (B, H, T, d_head) order",
         names=["contiguous", "view", "reshape", "cannot be viewed"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(1, 2).view(B, T, H * d)
'''),
    dict(exercise="ex2", kind="features interleaved", mistake="flattens the axes in (d_head, H) order, so a token's features alternate between heads instead of head 0's block, then head 1's",
         names=["interleav", "head 0's", "order of the features", "(b, t, d_head, h)", "block"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="swaps batch and heads", mistake="transposes axes 0 and 1 (batch and heads) instead of 1 and 2 (heads and positions)",
         names=["batch", "axes 1 and 2", "transpose(0, 1)", "heads and positions"],
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(0, 1).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="flattens positions too", mistake="flattens from axis 1, merging the positions into the features: shape (B, T*H*d_head)",
         names=["flatten(2)", "start_dim", "flattens the positions", "positions into"],
         code='''def my_merge_heads(x):
    return x.transpose(1, 2).flatten(1)
'''),
    dict(exercise="ex2", kind="reference under alias", mistake="calls helpers.heads.merge_heads under another name",
         names=["merge_heads", "helpers.heads", "yourself", "reference"],
         code='''from helpers import heads as hd


def my_merge_heads(x):
    return hd.merge_heads(x)
'''),
    # ---------------------------------------------------------------- ex3: per_head_attention
    dict(exercise="ex3", kind="mask ignored", mistake="never passes the mask to attention, so every head attends to every key",
         names=["ignores the mask", "mask is ignored", "without the mask", "pass the mask", "forgot the mask"],
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
    dict(exercise="ex3", kind="strided features", mistake="gives head h every H-th feature (h::H) instead of the block h*d_head..(h+1)*d_head-1",
         names=["strided", "every h-th", "consecutive", "block of d_head", "h::"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    outs = [attention(q[..., h::n_heads], k[..., h::n_heads], v[..., h::n_heads], mask)[0]
            for h in range(n_heads)]
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="concatenated on positions", mistake="concatenates the head outputs along the positions (dim 1) instead of the features",
         names=["along the positions", "dim=1", "feature axis", "dim=-1", "positions axis"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        out, _ = attention(q[:, :, h * d:(h + 1) * d], k[:, :, h * d:(h + 1) * d],
                           v[:, :, h * d:(h + 1) * d], mask)
        outs.append(out)
    return torch.cat(outs, dim=1)
'''),
    dict(exercise="ex3", kind="scaled by sqrt(D)", mistake="forces the scale to 1/sqrt(D), the full width, instead of letting attention scale by sqrt(d_head)",
         names=["√d_model", "sqrt(d_model)", "√d", "sqrt(d)", "√d_head"],
         code='''import math

import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    D = q.shape[-1]
    d = D // n_heads
    outs = []
    for h in range(n_heads):
        s = slice(h * d, (h + 1) * d)
        outs.append(attention(q[..., s], k[..., s], v[..., s], mask, scale=1 / math.sqrt(D))[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="inclusive end dropped", mistake="reads the range h*d_head .. (h+1)*d_head - 1 as a slice end, so each head loses its last feature",
         names=["(h+1)·d_head", "(h + 1) * d_head", "inclusive", "off-by-one", "last feature"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        lo, hi = h * d_head, (h + 1) * d_head - 1
        outs.append(attention(q[..., lo:hi], k[..., lo:hi], v[..., lo:hi], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="hard-coded d_head", mistake="hard-codes d_head = 4 (the setup layer's 12 / 3) instead of computing D / n_heads",
         names=["hard-coded", "d_head = 4", "compute d_head", "d / h"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = 4
    outs = []
    for h in range(n_heads):
        s = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., s], k[..., s], v[..., s], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="split_heads under alias", mistake="uses split_heads and merge_heads (under other names) instead of the loop the exercise asks for",
         names=["split_heads", "loop", "merge_heads", "do not call"],
         code='''from helpers.heads import merge_heads as join
from helpers.heads import split_heads as cut


def per_head_attention(q, k, v, n_heads, mask=None):
    out, _ = attention(cut(q, n_heads), cut(k, n_heads), cut(v, n_heads), mask)
    return join(out)
'''),
    dict(exercise="ex3", kind="last head skipped", mistake="loops over range(n_heads - 1), so the last head is never computed",
         names=["last head", "range(n_heads - 1)", "every head", "n_heads - 1"],
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads - 1):
        s = slice(h * d, (h + 1) * d)
        outs.append(attention(q[..., s], k[..., s], v[..., s], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    # ---------------------------------------------------------------- ex4: attention_parameters
    dict(exercise="ex4", kind="W_O per head", mistake="counts a d_model x d_model output projection for every head instead of one W_O",
         names=["one w_o", "w_o per head", "w_o once", "shared", "single output projection"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    per_head = 3 * (d_model * d_head + (d_head if bias else 0))
    w_o = d_model * d_model + (d_model if bias else 0)
    return n_heads * (per_head + w_o)
'''),
    dict(exercise="ex4", kind="full-width heads", mistake="gives every head full d_model x d_model projections instead of d_model x d_head",
         names=["full-width", "full width", "d_model x d_head", "d_model × d_head", "grows with"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads != 0:
        raise ValueError("n_heads must divide d_model")
    one = d_model * d_model + (d_model if bias else 0)
    return 3 * n_heads * one + one
'''),
    dict(exercise="ex4", kind="W_O forgotten", mistake="counts the heads' W_Q, W_K, W_V but leaves out the output projection W_O",
         names=["forgot w_o", "missing w_o", "without w_o", "leaves out w_o", "no output projection"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + (d_head if bias else 0))
'''),
    dict(exercise="ex4", kind="bias flag ignored", mistake="always adds the biases, even when bias=False",
         names=["bias=false", "bias flag", "ignores bias", "without biases"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    heads = n_heads * 3 * (d_model * d_head + d_head)
    return heads + d_model * d_model + d_model
'''),
    dict(exercise="ex4", kind="W_O bias forgotten", mistake="adds the heads' biases but forgets the d_model biases of W_O",
         names=["w_o's bias", "b_o", "output bias", "bias of w_o", "d_model biases"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    per_head = 3 * d_model * d_head + (3 * d_head if bias else 0)
    return n_heads * per_head + d_model * d_model
'''),
    dict(exercise="ex4", kind="no ValueError", mistake="uses integer division without checking, so a head count that does not divide d_model returns a number instead of raising ValueError",
         names=["valueerror", "divisible", "does not divide", "remainder"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    d_head = d_model // n_heads
    b = 1 if bias else 0
    return n_heads * 3 * (d_model * d_head + b * d_head) + d_model * d_model + b * d_model
'''),
    dict(exercise="ex4", kind="d_model biases per head", mistake="gives each head's projections d_model biases instead of d_head",
         names=["d_head biases", "bias per head", "d_model biases per head", "biases each"],
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    per_head = 3 * (d_model * d_head + (d_model if bias else 0))
    return n_heads * per_head + d_model * d_model + (d_model if bias else 0)
'''),
    dict(exercise="ex4", kind="builds a module", mistake="builds a MultiHeadAttention and counts its parameters instead of using arithmetic",
         names=["arithmetic", "module", "count_parameters", "build"],
         code='''from helpers.blocks import count_parameters as n_params
from helpers.heads import MultiHeadAttention as MHA


def attention_parameters(d_model, n_heads, bias=True):
    return n_params(MHA(d_model, n_heads, bias=bias))
'''),
    # ---------------------------------------------------------------- ex5: mha_forward
    dict(exercise="ex5", kind="scaled by sqrt(D)", mistake="divides the scores by sqrt(D), the full model width, instead of sqrt(d_head)",
         names=["√d_model", "sqrt(d_model)", "√d_head", "sqrt(d_head)", "head width"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(D)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    out = softmax(s, axis=-1) @ v
    return merge_heads(out) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="biases forgotten", mistake="projects with the weight matrices only and never adds b_q, b_k, b_v and b_o",
         names=["biases", "b_q", "b_k", "forgot the bias", "add the bias"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    D = x.shape[-1]
    q = split_heads(x @ w["W_q"], n_heads)
    k = split_heads(x @ w["W_k"], n_heads)
    v = split_heads(x @ w["W_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(D // n_heads)
    if mask is not None:
        s = torch.where(torch.as_tensor(mask), s, float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ v) @ w["W_o"]
'''),
    dict(exercise="ex5", kind="torch mask convention", mistake="treats True as blocked (nn.MultiheadAttention's convention) and fills the allowed scores with -inf",
         names=["convention", "true = blocked", "to_mha", "inverted", "true = may attend"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(torch.as_tensor(mask), float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="softmax over queries", mistake="takes the softmax over dim -2 (the queries) instead of over the keys",
         names=["over the queries", "over the keys", "dim=-2", "axis=-2", "last axis"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), -1e9)
    return merge_heads(softmax(s, axis=-2) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="no-transpose split", mistake="splits the heads with a straight reshape to (B, H, T, d_head), which mixes tokens",
         names=["mixes tokens", "no-transpose", "without transpose", "reshape straight", "transpose(1, 2)"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    d = D // n_heads

    def heads(t):
        return t.reshape(B, n_heads, T, d)

    q = heads(x @ w["W_q"] + w["b_q"])
    k = heads(x @ w["W_k"] + w["b_k"])
    v = heads(x @ w["W_v"] + w["b_v"])
    s = q @ k.transpose(-2, -1) / math.sqrt(d)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    out = softmax(s, axis=-1) @ v
    return out.reshape(B, T, D) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="weights transposed", mistake="multiplies by W.T as if the weights were stored (out, in) like nn.Linear, though w holds them for x @ W",
         names=["w_q.t", "x @ w", "transposed weight", "(out, in)", "stored for"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"].T + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"].T + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"].T + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ v) @ w["W_o"].T + w["b_o"]
'''),
    dict(exercise="ex5", kind="no output projection", mistake="returns the merged heads without the output projection W_o and b_o",
         names=["output projection", "w_o and b_o", "project out", "without w_o", "forgot w_o"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ v)
'''),
    dict(exercise="ex5", kind="mask ignored", mistake="accepts the mask argument but never applies it to the scores",
         names=["ignores the mask", "mask is ignored", "without the mask", "apply the mask", "forgot the mask"],
         code='''import math


def mha_forward(x, w, n_heads, mask=None):
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    return merge_heads(softmax(s, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="mask after softmax", mistake="zeroes the blocked weights after the softmax without renormalising",
         names=["after the softmax", "before softmax", "before the softmax", "renormalis", "sum to less"],
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    a = softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), axis=-1)
    if mask is not None:
        a = a * torch.as_tensor(mask)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="SDPA under alias", mistake="calls F.scaled_dot_product_attention (under another name) instead of writing the scores and softmax",
         names=["scaled_dot_product_attention", "sdpa", "yourself", "write the scores"],
         code='''from torch.nn.functional import scaled_dot_product_attention as fused


def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    out = fused(q, k, v, attn_mask=mask)
    return merge_heads(out) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="helpers attention", mistake="calls the imported attention() for the middle part instead of writing the scores and softmax",
         names=["attention(", "yourself", "write the scores", "helpers.attention"],
         code='''def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    out, _ = attention(q, k, v, mask)
    return merge_heads(out) @ w["W_o"] + w["b_o"]
'''),
    # ---------------------------------------------------------------- ex6: mixes_tokens
    dict(exercise="ex6", kind="exact numbers", mistake="compares the split with split_heads number for number, so a split that only reorders a head's features is reported as mixing",
         names=["exact numbers", "order of the features", "reordered", "tokens, not", "same label"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    x = torch.randn(B, T, D)
    return not torch.equal(split(x, n_heads), split_heads(x, n_heads))
'''),
    dict(exercise="ex6", kind="no sequence label", mistake="labels the entries with the token index only, so a split that swaps the sequences of the batch goes unnoticed",
         names=["sequence", "swapped sequences", "swaps the sequences", "100·b", "batch"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    t = torch.arange(T).view(1, T, 1).expand(B, T, D).contiguous()
    heads = split(t, n_heads)
    expected = torch.arange(T).view(1, 1, T, 1)
    return bool((heads != expected).any())
'''),
    dict(exercise="ex6", kind="first feature only", mistake="checks only the first feature of each head, so a split that moves only the last feature of a head passes",
         names=["last feature", "every feature", "first feature only", "all features", "[..., 0]"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b = torch.arange(B).view(B, 1, 1)
    t = torch.arange(T).view(1, T, 1)
    x = (100 * b + 10 * t + torch.zeros(1, 1, D, dtype=torch.long)).contiguous()
    heads = split(x, n_heads)
    first = heads[..., 0]
    expected = (100 * torch.arange(B).view(B, 1, 1) + 10 * torch.arange(T).view(1, 1, T))
    return bool((first != expected).any())
'''),
    dict(exercise="ex6", kind="digit labels overflow", mistake="decodes the token from the lesson's 100·b + 10·t + f label as the tens digit, which breaks once D > 10 features spill into it",
         names=["overlap", "collid", "ambiguous label", "more than 10 features", "d > 10"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = 100 * b + 10 * t + f
    heads = split(x, n_heads)
    token = (heads // 10) % 10
    seq = heads // 100
    want_t = torch.arange(T).view(1, 1, T, 1)
    want_b = torch.arange(B).view(B, 1, 1, 1)
    return bool(((token != want_t) | (seq != want_b)).any())
'''),
    dict(exercise="ex6", kind="inverted answer", mistake="returns True when every position holds its own token and False when tokens are mixed",
         names=["inverted", "opposite", "the other way round", "negat"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = (torch.arange(B).view(B, 1, 1) * T + torch.arange(T).view(1, T, 1)).expand(B, T, D)
    heads = split(label.contiguous().float(), n_heads)
    expected = (torch.arange(B).view(B, 1, 1, 1) * T + torch.arange(T).view(1, 1, T, 1)).float()
    return bool((heads == expected).all())
'''),
    dict(exercise="ex6", kind="all entries wrong", mistake="reports mixing only when no entry matches its token (not .all() of the matches), so a split that moves some features passes",
         names=["every entry", "only some", "any entry", ".any()", "partial"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = (torch.arange(B).view(B, 1, 1) * T + torch.arange(T).view(1, T, 1)).expand(B, T, D)
    heads = split(label.contiguous().float(), n_heads)
    expected = (torch.arange(B).view(B, 1, 1, 1) * T + torch.arange(T).view(1, 1, T, 1)).float()
    return not bool((heads == expected).any())
'''),
    dict(exercise="ex6", kind="head 0 only", mistake="checks only head 0, so a split that mixes tokens in a later head passes",
         names=["head 0", "every head", "first head", "all heads", "other heads"],
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = (torch.arange(B).view(B, 1, 1) * T + torch.arange(T).view(1, T, 1)).expand(B, T, D)
    heads = split(label.contiguous().float(), n_heads)
    expected = (torch.arange(B).view(B, 1, 1) * T + torch.arange(T).view(1, T, 1)).float()
    return bool((heads[:, 0] != expected).any())
'''),
]

VALID = [
    dict(exercise="ex1", kind="reshape with -1", code='''def my_split_heads(x, n_heads):
    B, T, _ = x.shape
    return x.reshape(B, T, n_heads, -1).transpose(-3, -2)
'''),
    dict(exercise="ex1", kind="view then transpose(2, 1)", code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    d_head = D // n_heads
    heads = x.view(B, T, n_heads, d_head)
    return heads.transpose(2, 1)
'''),
    dict(exercise="ex2", kind="transpose and reshape", code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d)
'''),
    dict(exercise="ex2", kind="cat of heads", code='''import torch


def my_merge_heads(x):
    return torch.cat(x.unbind(dim=1), dim=-1)
'''),
    dict(exercise="ex3", kind="chunk and zip", code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    outs = []
    for q_h, k_h, v_h in zip(q.chunk(n_heads, dim=-1), k.chunk(n_heads, dim=-1),
                             v.chunk(n_heads, dim=-1)):
        out, _ = attention(q_h, k_h, v_h, mask)
        outs.append(out)
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="preallocated output", code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    D = q.shape[-1]
    d_head = D // n_heads
    result = torch.empty_like(v)
    for h in range(n_heads):
        lo = h * d_head
        hi = lo + d_head
        result[..., lo:hi] = attention(q[..., lo:hi], k[..., lo:hi], v[..., lo:hi], mask)[0]
    return result
'''),
    dict(exercise="ex4", kind="closed form", code='''def attention_parameters(d_model, n_heads, bias=True):
    if n_heads < 1 or d_model % n_heads != 0:
        raise ValueError(f"n_heads={n_heads} does not divide d_model={d_model}")
    return 4 * d_model * (d_model + int(bool(bias)))
'''),
    dict(exercise="ex4", kind="loop over heads", code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
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
    dict(exercise="ex5", kind="einsum", code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    d = D // n_heads
    q = (x @ w["W_q"] + w["b_q"]).view(B, T, n_heads, d)
    k = (x @ w["W_k"] + w["b_k"]).view(B, T, n_heads, d)
    v = (x @ w["W_v"] + w["b_v"]).view(B, T, n_heads, d)
    s = torch.einsum("bihd,bjhd->bhij", q, k) / math.sqrt(d)
    if mask is not None:
        s = torch.where(torch.as_tensor(mask, device=s.device), s, torch.tensor(float("-inf"), dtype=s.dtype))
    a = softmax(s, axis=-1)
    out = torch.einsum("bhij,bjhd->bihd", a, v).reshape(B, T, D)
    return out @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="own exp softmax", code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = (q / math.sqrt(d_head)) @ k.transpose(-1, -2)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    e = torch.exp(s - s.amax(dim=-1, keepdim=True))
    a = e / e.sum(dim=-1, keepdim=True)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex6", kind="one label per token", code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(B * T, dtype=torch.float64).view(B, T, 1).expand(B, T, D).contiguous()
    heads = split(label, n_heads)
    expected = torch.arange(B * T, dtype=torch.float64).view(B, 1, T, 1)
    return bool((heads != expected).any())
'''),
    dict(exercise="ex6", kind="decode with D", code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = (b * T + t) * D + f
    heads = split(x, n_heads)
    for bb in range(B):
        for h in range(n_heads):
            for tt in range(T):
                if not torch.all(heads[bb, h, tt] // D == bb * T + tt):
                    return True
    return False
'''),
]
