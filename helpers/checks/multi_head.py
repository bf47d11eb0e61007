"""Checks for lesson 05 (multi-head attention): split and merge heads by hand, a per-head loop,
the parameter count, a forward pass that matches nn.MultiheadAttention, and a test that catches
a head reshape that mixes tokens.

Inputs are torch tensors with axes (batch B, position T, feature D) or, split into heads,
(batch B, head H, position T, feature d_head), d_head = D / H. Test tensors are often
*labelled*: entry [b, t, f] = 1000 b + 100 t + f, so a value says where it came from.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from helpers.attention import attention
from helpers.blocks import count_parameters
from helpers.checks import core
from helpers.heads import MultiHeadAttention, merge_heads, split_heads
from helpers.masks import causal_mask, to_mha

NO_TRANSPOSE = (
    "a transpose missing in a head reshape: you reshaped (B, T, D) straight to "
    "(B, H, T, d_head), which mixes tokens across heads{example}. The shape is right but the "
    "numbers are not: first view the width as (B, T, H, d_head), then transpose(1, 2) to move "
    "the head axis before the positions."
)
NO_TRANSPOSE_BACK = (
    "a merge that forgets to transpose back: you reshaped (B, H, T, d_head) straight to "
    "(B, T, D), which mixes tokens{example}. Move the positions back before the heads first, "
    "transpose(1, 2) to (B, T, H, d_head), then .contiguous().view(B, T, D)."
)
INTERLEAVED = (
    "your heads are interleaved: head h took features h, h + H, h + 2H, ... (you viewed the "
    "width as (d_head, H) instead of (H, d_head), or sliced [..., h::n_heads]). Head h owns "
    "the contiguous block of features h*d_head .. (h+1)*d_head - 1."
)
FORGOT_SCALE = (
    "forgot the scale: your scores are q . k without the division by sqrt(d_head), so softmax "
    "is too peaked. Divide each head's scores by sqrt(d_head)."
)
MODEL_WIDTH_SCALE = (
    "scaled by the model width instead of the head width: you divided by sqrt(d_model) = "
    "sqrt({D}), but each head's dot product has only d_head = {d} terms. Divide by "
    "sqrt(d_head) = sqrt(d_model / n_heads)."
)
SWAPPED_KV = (
    "swapped K and V: you matched the queries against the values and averaged the keys. "
    "Scores are q . k (K decides where to read); the weights multiply V (what is read)."
)
IGNORED_MASK = (
    "ignored the mask: with the causal mask, row i must give weight 0 to every key j > i, but "
    "your output is that of unmasked attention. Every head obeys the same mask."
)


def labelled(B: int, T: int, D: int) -> torch.Tensor:
    """(B, T, D) float64 with entry [b, t, f] = 1000 b + 100 t + f: each number names its source."""
    b = torch.arange(B, dtype=torch.float64)[:, None, None]
    t = torch.arange(T, dtype=torch.float64)[None, :, None]
    f = torch.arange(D, dtype=torch.float64)[None, None, :]
    return 1000 * b + 100 * t + f


def _random(seed: int, *shape) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g, dtype=torch.float64)


def _tensor(result, name: str, what: str = "a tensor"):
    """The student's result, refusing None and tuples with a clear message."""
    if result is None:
        raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
    if isinstance(result, (tuple, list)):
        raise AssertionError(
            f"{name}: return {what} only, not a {type(result).__name__} of "
            f"{len(result)} items (attention() returns (out, weights): keep out)"
        )
    return result


def _shape_of(result) -> tuple:
    return tuple(np.shape(result.detach() if isinstance(result, torch.Tensor) else result))


def _shape_hints(result, name: str, expected: tuple, hints: dict) -> None:
    """Raise the hint of a known wrong shape, before compare() says only 'expected shape'."""
    shape = _shape_of(result)
    if shape != tuple(expected) and shape in hints:
        raise AssertionError(f"{name}: your result has shape {shape}: {hints[shape]}")


def _where_mixed(B: int, T: int, D: int, H: int) -> str:
    """Where the no-transpose split puts the wrong token, read off a labelled tensor."""
    d = D // H
    wrong = labelled(B, T, D).reshape(B, H, T, d)
    for t in range(T):
        token = int(wrong[0, 0, t, 0]) // 100 % 10
        if token != t:
            first = int(wrong[0, 0, t, 0]) % 100
            return (
                f" (with B, T, D, H = {B}, {T}, {D}, {H}: head 0, position {t} holds features "
                f"{first}..{first + d - 1} of token {token}, not token {t})"
            )
    return ""


def _where_merged(heads: torch.Tensor) -> str:
    """What the no-transpose merge puts at position 1, for labelled heads (B, H, T, d_head)."""
    B, H, T, d = heads.shape
    row = heads.contiguous().reshape(B, T, H * d)[0, 1]  # position 1 of sequence 0
    tokens = sorted({int(value) // 100 % 10 for value in row})
    return (f" (here position 1 of your result holds features of tokens "
            f"{', '.join(map(str, tokens))}, not of token 1 alone)")


def _no_transpose_split(x: torch.Tensor, H: int) -> torch.Tensor:
    B, T, D = x.shape
    return x.reshape(B, H, T, D // H)


def _interleaved_split(x: torch.Tensor, H: int) -> torch.Tensor:
    B, T, D = x.shape
    return x.reshape(B, T, D // H, H).permute(0, 3, 1, 2)


def _no_transpose_merge(x: torch.Tensor) -> torch.Tensor:
    B, H, T, d = x.shape
    return x.reshape(B, T, H * d)


# Exercise 1 -------------------------------------------------------------------------------


@core.exercise
def check_split_heads(my_split_heads) -> None:
    """Exercise: my_split_heads(x, n_heads): (B, T, D) -> (B, H, T, D / H)."""
    cases = [
        (labelled(2, 5, 12), 3),  # B=2, T=5, D=12, H=3, d_head=4
        (labelled(1, 4, 6), 2),  # d_head=3
        (_random(1, 3, 2, 12), 4),  # random numbers, d_head=3
    ]
    for x, H in cases:
        B, T, D = x.shape
        d = D // H
        name = f"my_split_heads(x of shape {(B, T, D)}, n_heads={H})"
        got = _tensor(my_split_heads(x.clone(), H), name)
        _shape_hints(got, name, (B, H, T, d), {
            (B, T, H, d): "you stopped at (B, T, H, d_head). transpose(1, 2) moves the head "
                          "axis before the positions, giving (B, H, T, d_head).",
            (B, T, d, H): "you viewed the width as (d_head, H); it is (H, d_head), and the "
                          "head axis then moves before the positions: (B, H, T, d_head).",
            (B, d, T, H): "you swapped n_heads and d_head: there are n_heads = "
                          f"{H} heads of d_head = D / n_heads = {d} features each.",
            (B, H, d, T): "the last two axes are swapped: the result is (B, H, T, d_head), "
                          "positions before features.",
        })
        core.compare(got, split_heads(x, H), name=name, mistakes=[
            (NO_TRANSPOSE.format(example=_where_mixed(B, T, D, H)), _no_transpose_split(x, H)),
            ("you transposed before splitting: x.transpose(1, 2) is (B, D, T), so each head's "
             "'position' holds one feature of several tokens. Split the last axis first (view to "
             "(B, T, H, d_head)), then transpose(1, 2).",
             x.transpose(1, 2).reshape(B, H, T, d)),
            (INTERLEAVED, _interleaved_split(x, H)),
        ])
    core.passed("my_split_heads: (B, T, D) -> (B, H, T, D/H); head h of token t holds that "
                "token's features h*d_head .. (h+1)*d_head - 1")


# Exercise 2 -------------------------------------------------------------------------------


@core.exercise
def check_merge_heads(my_merge_heads) -> None:
    """Exercise: my_merge_heads(x): (B, H, T, d_head) -> (B, T, H * d_head)."""
    split_of_labelled = split_heads(labelled(2, 5, 12), 3)  # (2, 3, 5, 4), labelled by token
    cases = [
        split_of_labelled.contiguous(),  # stored in (B, H, T, d) order, like attention's output
        _random(2, 1, 2, 4, 3),  # (B=1, H=2, T=4, d=3)
        split_heads(_random(3, 2, 3, 8), 4),  # a transposed view, straight from a split
    ]
    for x in cases:
        B, H, T, d = x.shape
        name = f"my_merge_heads(x of shape {(B, H, T, d)})"
        try:
            got = _tensor(my_merge_heads(x.clone() if x.is_contiguous() else x), name)
        except RuntimeError as error:
            if "view size is not compatible" in str(error):
                raise AssertionError(
                    f"{name}: .view failed ({error}). After transpose(1, 2) the tensor is not "
                    "contiguous: its numbers are still stored in (B, H, T, d_head) order, and "
                    ".view cannot flatten (H, d_head) without moving them. Call .contiguous() "
                    "before .view (or use .reshape, which copies when it must)."
                ) from None
            raise
        _shape_hints(got, name, (B, T, H * d), {
            (B, T, H, d): "you transposed back but did not flatten the last two axes: "
                          ".contiguous().view(B, T, H * d_head).",
            (B, H, T, d): "that is the input's shape: move the positions back before the heads "
                          "and flatten the heads into one width, (B, T, H * d_head).",
            (B, H * T, d): "you stacked the heads along the positions; concatenate them along "
                           "the features: (B, T, H * d_head).",
        })
        core.compare(got, merge_heads(x), name=name, mistakes=[
            (NO_TRANSPOSE_BACK.format(example=_where_merged(x) if x is cases[0] else ""),
             _no_transpose_merge(x.contiguous())),
            ("your heads are interleaved: feature h + H*i came from head h (you flattened "
             "(d_head, H) instead of (H, d_head)). Flatten in head order: head 0's d_head "
             "features, then head 1's, and so on.",
             x.permute(0, 2, 3, 1).reshape(B, T, H * d)),
        ])
    core.passed("my_merge_heads: (B, H, T, d_head) -> (B, T, H*d_head), tokens back in place, "
                "for contiguous and transposed inputs; merge(split(x)) == x")


# Exercise 3 -------------------------------------------------------------------------------


def _multi_head(q, k, v, H, mask=None, *, scale=None, split=split_heads):
    """The reference multi-head step on projected q, k, v (B, T, D), before W_O."""
    heads = attention(split(q, H), split(k, H), split(v, H), mask, scale=scale)[0]
    return merge_heads(heads)  # (B, T, D)


@core.exercise
def check_per_head_attention(per_head_attention) -> None:
    """Exercise: per_head_attention(q, k, v, n_heads, mask) -> (B, T, D), a loop over heads."""
    cases = [
        (2, 5, 12, 3, True),
        (1, 4, 8, 2, False),
        (2, 3, 6, 3, True),
    ]
    for seed, (B, T, D, H, masked) in enumerate(cases):
        q, k, v = (_random(10 * seed + i, B, T, D) for i in range(3))
        mask = torch.as_tensor(causal_mask(T)) if masked else None
        d = D // H
        name = f"per_head_attention(q, k, v of shape {(B, T, D)}, n_heads={H}, " + (
            "causal mask)" if masked else "mask=None)")
        result = per_head_attention(
            q.clone(), k.clone(), v.clone(), H, None if mask is None else mask.clone()
        )
        got = _tensor(result, name, "the merged output (B, T, D)")
        _shape_hints(got, name, (B, T, D), {
            (B, T, d): "you summed or averaged the heads. Each head gives (B, T, d_head); "
                       "concatenate them along the features (torch.cat(..., dim=-1)) to get "
                       "(B, T, D).",
            (B, H * T, d): "you concatenated the heads along the positions (dim=1); concatenate "
                           "along the features (dim=-1).",
            (B, H, T, d): "you returned the heads still split; concatenate them along the "
                          "features into (B, T, D).",
        })
        single = attention(q[..., :d], k[..., :d], v[..., :d], mask)[0]  # (B, T, d)
        mistakes = [
            (MODEL_WIDTH_SCALE.format(D=D, d=d), _multi_head(q, k, v, H, mask, scale=D**-0.5)),
            (FORGOT_SCALE, _multi_head(q, k, v, H, mask, scale=1.0)),
            (SWAPPED_KV, _multi_head(q, v, k, H, mask)),
            (INTERLEAVED, _multi_head(q, k, v, H, mask, split=_interleaved_split)),
            ("every head used the same features 0..d_head-1: head h must slice its own block "
             "[..., h*d_head:(h+1)*d_head] of q, k and v.", torch.cat([single] * H, dim=-1)),
            (NO_TRANSPOSE.format(example=""),
             _multi_head(q, k, v, H, mask, split=_no_transpose_split)),
            ("computed one head of full width: attention on all D features at once is a single "
             "head. Slice q, k and v into n_heads blocks of d_head features and attend in each.",
             attention(q, k, v, mask)[0]),
        ]
        if masked:
            mistakes.append((IGNORED_MASK, _multi_head(q, k, v, H)))
        core.compare(got, _multi_head(q, k, v, H, mask), name=name, mistakes=mistakes)
    core.passed("per_head_attention: one attention per block of d_head features, scaled by "
                "sqrt(d_head), concatenated in head order; equals the batched split/merge form, "
                "with and without a causal mask")


# Exercise 4 -------------------------------------------------------------------------------


@core.exercise
def check_attention_parameters(attention_parameters) -> None:
    """Exercise: attention_parameters(d_model, n_heads, bias) -> int, counted per head."""
    for D, H, bias in [(512, 8, True), (512, 8, False), (64, 4, True), (768, 12, True),
                       (48, 6, False), (512, 1, True)]:
        name = f"attention_parameters({D}, {H}, bias={bias})"
        got = attention_parameters(D, H, bias)
        if got is None:
            raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
        if isinstance(got, torch.Tensor):
            got = got.item()
        if not isinstance(got, (int, np.integer, float, np.floating)) or got != int(got):
            raise AssertionError(f"{name}: return a whole number of parameters; got {got!r}")
        d, b = D // H, int(bias)
        want = count_parameters(MultiHeadAttention(D, H, bias=bias))
        w_o = D * D + b * D
        core.compare(got, want, name=name, atol=0, rtol=0, mistakes=[
            ("forgot the output projection W_O: after the heads are concatenated, W_O "
             f"(d_model x d_model = {D} x {D}{' plus its bias' if bias else ''}) mixes them.",
             3 * H * (D * d + b * d)),
            ("forgot the biases: each of the 3 per-head projections has d_head biases, and W_O "
             "has d_model.", 3 * H * D * d + D * D),
            ("each head projects to d_head = d_model / n_heads features, not to d_model: h heads "
             "of width d_model / h together hold one d_model x d_model matrix per projection.",
             3 * H * (D * D + b * D) + w_o),
            ("you counted one head only: there are n_heads heads, each with its own W_Q, W_K and "
             "W_V of shape d_model x d_head.", 3 * (D * d + b * d) + w_o),
            ("each head's bias has d_head entries (one per output feature), not d_model.",
             3 * H * (D * d + b * D) + w_o),
            ("W_O appears once, not once per head: it maps the concatenated d_model features "
             "back to d_model.", 3 * H * (D * d + b * d) + H * w_o),
        ])
    core.expect_error(
        attention_parameters, 10, 3, True, name="attention_parameters(10, 3)",
        hint="n_heads must divide d_model: 10 / 3 is not a whole number, so the heads cannot "
             "all have width d_model / n_heads. Raise ValueError, as MultiHeadAttention does.",
    )
    core.passed("attention_parameters: 3 x n_heads x (d_model x d_head + d_head) + W_O "
                "(d_model x d_model + d_model); 512 wide, 8 heads: 1,050,624, the same for any "
                "head count; ValueError when n_heads does not divide d_model")


# Exercise 5 -------------------------------------------------------------------------------


def torch_reference(D: int, H: int, seed: int) -> nn.MultiheadAttention:
    """An nn.MultiheadAttention (float64, batch_first) with nonzero biases, fixed by `seed`."""
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(D, H, batch_first=True).double().eval()
    with torch.no_grad():  # torch starts the biases at 0; make them count
        for p in (mha.in_proj_bias, mha.out_proj.bias):
            p.add_(0.1 * torch.randn_like(p))
    return mha


def weights_of(mha: nn.MultiheadAttention) -> dict:
    """W_q, W_k, W_v, W_o (d_model, d_model) for x @ W, and b_q, b_k, b_v, b_o (d_model,)."""
    W_q, W_k, W_v = mha.in_proj_weight.detach().chunk(3)  # rows: torch computes x @ W.T
    b_q, b_k, b_v = mha.in_proj_bias.detach().chunk(3)
    return {
        "W_q": W_q.T.clone(), "W_k": W_k.T.clone(), "W_v": W_v.T.clone(),
        "W_o": mha.out_proj.weight.detach().T.clone(),
        "b_q": b_q.clone(), "b_k": b_k.clone(), "b_v": b_v.clone(),
        "b_o": mha.out_proj.bias.detach().clone(),
    }


def _forward(x, w, H, mask=None, *, scale=None, split=split_heads, merge=merge_heads,
             out_proj=True, biases=True, swap_kv=False, transposed=False):
    """Multi-head attention from the weights of `weights_of`, with one mistake switched on."""
    def project(name):
        W = w[f"W_{name}"].T if transposed else w[f"W_{name}"]
        return x @ W + (w[f"b_{name}"] if biases else 0)

    q, k, v = project("q"), project("k"), project("v")
    if swap_kv:
        k, v = v, k
    heads = attention(split(q, H), split(k, H), split(v, H), mask, scale=scale)[0]
    merged = merge(heads)  # (B, T, D)
    if not out_proj:
        return merged
    W_o = w["W_o"].T if transposed else w["W_o"]
    return merged @ W_o + (w["b_o"] if biases else 0)


@core.exercise
def check_mha_forward(mha_forward) -> None:
    """Exercise: mha_forward(x, w, n_heads, mask) equals nn.MultiheadAttention's output."""
    cases = [(2, 5, 12, 3, True, 0), (2, 5, 12, 3, False, 0), (1, 4, 8, 2, True, 1)]
    for B, T, D, H, masked, seed in cases:
        mha = torch_reference(D, H, seed)
        w = weights_of(mha)
        x = _random(100 + seed, B, T, D)
        mask = torch.as_tensor(causal_mask(T)) if masked else None  # True = may attend
        with torch.no_grad():
            want, _ = mha(x, x, x, attn_mask=None if mask is None else to_mha(mask),
                          need_weights=False)  # nn.MultiheadAttention: True = blocked
        name = f"mha_forward(x of shape {(B, T, D)}, n_heads={H}, " + (
            "causal mask)" if masked else "mask=None)")
        result = mha_forward(x.clone(), {key: value.clone() for key, value in w.items()}, H,
                             None if mask is None else mask.clone())
        got = _tensor(result, name, "the output (B, T, D)")
        d = D // H
        mistakes = [
            ("forgot the output projection: after merging the heads, multiply by W_o and add "
             "b_o. nn.MultiheadAttention's out_proj mixes the heads' features.",
             _forward(x, w, H, mask, out_proj=False)),
            (FORGOT_SCALE, _forward(x, w, H, mask, scale=1.0)),
            (MODEL_WIDTH_SCALE.format(D=D, d=d), _forward(x, w, H, mask, scale=D**-0.5)),
            (NO_TRANSPOSE.format(example=""), _forward(x, w, H, mask, split=_no_transpose_split)),
            (NO_TRANSPOSE.format(example="") + " (Your merge skips the transpose too.)",
             _forward(x, w, H, mask, split=_no_transpose_split, merge=_no_transpose_merge)),
            (NO_TRANSPOSE_BACK.format(example=""),
             _forward(x, w, H, mask, merge=_no_transpose_merge)),
            (SWAPPED_KV, _forward(x, w, H, mask, swap_kv=True)),
            ("forgot the biases: add b_q, b_k and b_v to the projections and b_o after W_o.",
             _forward(x, w, H, mask, biases=False)),
            ("used the weights transposed: here the matrices are stored for x @ W (d_model in, "
             "d_model out), so Q = x @ W_q + b_q; x @ W_q.T is a different projection.",
             _forward(x, w, H, mask, transposed=True)),
            (INTERLEAVED, _forward(x, w, H, mask, split=_interleaved_split)),
            ("computed one head of full width: split q, k and v into n_heads heads of d_head "
             "features, attend in each, and merge.", _forward(x, w, 1, mask)),
        ]
        if masked:
            mistakes.append((IGNORED_MASK, _forward(x, w, H)))
        core.compare(got, want, name=name, mistakes=mistakes)
    core.passed("mha_forward: equals nn.MultiheadAttention (projections with biases, "
                "split, scale 1/sqrt(d_head), causal mask, merge, W_o), for 3 and 2 heads")


# Exercise 6 -------------------------------------------------------------------------------


def _swap_in_one_head(x, H):
    heads = split_heads(x, H).clone()
    heads[:, 1, [1, 2]] = heads[:, 1, [2, 1]]  # head 1 only: positions 1 and 2 swapped
    return heads


def _move_last_feature(x, H):
    heads = split_heads(x, H).clone()
    heads[..., -1] = heads[..., -1].roll(1, dims=-1)  # last feature of position t: token t-1
    return heads


def _splits():
    """Split functions (x, n_heads) -> (B, H, T, d_head), with whether they mix tokens."""
    def mixes_sequences(x, H):
        B, T, D = x.shape
        return split_heads(x.transpose(0, 1).reshape(B, T, D), H)

    return {
        "split_heads": (split_heads, False, ""),
        "a split with interleaved features": (_interleaved_split, False, ""),
        "the no-transpose reshape": (_no_transpose_split, True, "x.reshape(B, H, T, d_head)"),
        "a split that reverses the positions": (
            lambda x, H: split_heads(x.flip(1), H), True, "position t holds token T-1-t"),
        "a split that mixes the sequences of the batch": (
            mixes_sequences, True,
            "tokens of sequence 1 land in sequence 0"),
        "a split that swaps the sequences of the batch": (
            lambda x, H: split_heads(x.flip(0), H), True,
            "sequence 0 holds the tokens of sequence 1 at the right positions; label every "
            "entry with its sequence as well as its token"),
        "a split that swaps two positions in one head": (
            _swap_in_one_head, True,
            "only head 1 is wrong (positions 1 and 2 swapped); check every head"),
        "a split that moves the last feature of every head": (
            _move_last_feature, True,
            "feature 0 of every position is right, but the last feature of position t comes "
            "from token t-1; compare every feature, not only the first"),
        "a split that transposes first": (
            lambda x, H: x.transpose(1, 2).reshape(x.shape[0], H, x.shape[1], -1), True,
            "x.transpose(1, 2).reshape(B, H, T, d_head)"),
    }


@core.exercise
def check_mixes_tokens(mixes_tokens) -> None:
    """Exercise: mixes_tokens(split) -> True when split puts a token at another position."""
    verdicts = {}
    for name, (split, _, _) in _splits().items():
        got = mixes_tokens(split)
        if not isinstance(got, (bool, np.bool_)):
            raise AssertionError(
                f"mixes_tokens: return True (the split mixes tokens) or False; got {got!r} "
                f"of type {type(got).__name__}. (torch: .item(), or bool(...))"
            )
        verdicts[name] = bool(got)
    if not any(verdicts.values()):
        raise AssertionError(
            "mixes_tokens: your test never fires: it lets the no-transpose reshape pass, though "
            "it fills head 0 with the first tokens' features. Its shape is right, so compare "
            "contents: label each entry of x with its token, split, and check that position t "
            "of every head holds only token t."
        )
    if all(verdicts.values()):
        raise AssertionError(
            "mixes_tokens: your test always fires: it flags even helpers.heads.split_heads. "
            "Position t of head h should hold token t: compare each position with its own "
            "token index, not with position 0 or with the whole x."
        )
    for name, (_, mixes, how) in _splits().items():
        if verdicts[name] and not mixes:
            extra = (
                " It orders each head's features differently, but every token stays at its "
                "own position: test the tokens, not the exact numbers."
                if "interleaved" in name else ""
            )
            raise AssertionError(f"mixes_tokens: false alarm on {name}, which keeps every "
                                 f"token in place.{extra}")
        if mixes and not verdicts[name]:
            raise AssertionError(f"mixes_tokens: your test missed {name}: {how}.")
    core.passed("mixes_tokens: catches the no-transpose reshape and 6 other token mix-ups; "
                "passes split_heads and an interleaved (but token-preserving) split")
