"""Checks for lesson 05 (multi-head attention): split and merge heads by hand, a per-head loop,
the parameter count, a forward pass that matches nn.MultiheadAttention, and a test that catches
a head reshape that mixes tokens.

Inputs are torch tensors with axes (batch B, position T, feature D) or, split into heads,
(batch B, head H, position T, feature d_head), d_head = D / H. Test tensors are often
*labelled*: entry [b, t, f] = 1000 b + 100 t + f, so a value says where it came from.

Every check first matches the mistakes it anticipates (each with its own message), then tests
the properties the answer must have in the lesson's order (a split keeps every token at its own
position, then gives head h its own block of features; a forward pass is probed step by step,
with W_q = W_k = 0, then W_o = I, then W_o = 0), and only then compares every number with the
reference, with the axes and sizes named so that an unlisted mistake is still described.
"""

from __future__ import annotations

import dis
import functools
import math
import re
import types

import numpy as np
import torch
from torch import nn

from helpers.attention import attention
from helpers.checks import core, source
from helpers.heads import merge_heads, split_heads
from helpers.masks import causal_mask, to_mha

RESULTS = "torch"  # the exercise text fixes the library: core.call refuses the other

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
INTEGER_SQRT = (
    "scaled by a whole number: for d_head = {d} you divided by {r}, not by sqrt({d}) = "
    "{root:.4g}. int(d ** 0.5) and math.isqrt round the square root down; keep it a float "
    "(d_head ** 0.5 or math.sqrt)."
)
SCALED_BY_D_HEAD = (
    "scaled by d_head = {d} instead of sqrt(d_head) = {root:.4g}: the spread of q . k grows "
    "like sqrt(d_head), so divide by the square root."
)
SWAPPED_KV = (
    "swapped K and V: you matched the queries against the values and averaged the keys. "
    "Scores are q . k (K decides where to read); the weights multiply V (what is read)."
)
IGNORED_MASK = (
    "ignored the mask: with the causal mask, row i must give weight 0 to every key j > i, but "
    "your output is that of unmasked attention: the mask never reaches the scores. Pass the "
    "mask on to every head (attention(..., mask)), or apply it to the scores; every head obeys "
    "the same mask."
)
INVERTED_MASK = (
    "the mask is used the wrong way round: here True = may attend, so the scores to fill with "
    "-inf are where the mask is False (masked_fill(~mask, -inf)). Filling where it is True "
    "blocks the past and keeps the future (torch's nn.MultiheadAttention convention, where "
    "True = blocked)."
)
_ATOL, _RTOL = 1e-6, 1e-5


def labelled(B: int, T: int, D: int) -> torch.Tensor:
    """(B, T, D) float64 with entry [b, t, f] = 1000 b + 100 t + f: each number names its source."""
    b = torch.arange(B, dtype=torch.float64)[:, None, None]
    t = torch.arange(T, dtype=torch.float64)[None, :, None]
    f = torch.arange(D, dtype=torch.float64)[None, None, :]
    return 1000 * b + 100 * t + f


def _random(seed: int, *shape) -> torch.Tensor:
    g = core.torch_generator(seed)  # fixed in a notebook, drawn afresh when grading
    return torch.randn(*shape, generator=g, dtype=torch.float64)


def _tensor(result, name: str, what: str = "a tensor"):
    """The student's result, refusing None and tuples with a clear message."""
    if result is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "multi_head.returned-none")
    if isinstance(result, (tuple, list)):
        core.fail(
            f"{name}: return {what} only, not a {type(result).__name__} of "
            f"{len(result)} items (attention() returns (out, weights): keep out)",
            "multi_head.returned-a-tuple",
        )
    return result


def _shape_of(result) -> tuple:
    return tuple(np.shape(result.detach() if isinstance(result, torch.Tensor) else result))


_SHAPE_ERRORS = ("is invalid for input of size", "cannot reshape")


def _global_sizes(fn) -> dict:
    """The notebook globals holding a whole number that fn reads (D, T, d_head, ...).

    A grader's stand-in for fn (with `__grade_cells__`) names them from those cells
    (helpers.checks.source) and hands over their values (`__grade_globals__`).
    """
    cells = getattr(fn, "__grade_cells__", None)
    if cells is not None:
        names = sorted(source.global_names(cells, fn.__name__))
        glob = fn.__grade_globals__(names) if names else {}
        return {n: glob[n] for n in names
                if n in glob and isinstance(glob[n], int) and not isinstance(glob[n], bool)}
    code = getattr(fn, "__code__", None)
    glob = getattr(fn, "__globals__", {})
    if code is None:
        return {}
    names, stack = set(), [code]
    while stack:
        c = stack.pop()
        names |= {ins.argval for ins in dis.get_instructions(c)
                  if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return {n: glob[n] for n in sorted(names)
            if n in glob and isinstance(glob[n], int) and not isinstance(glob[n], bool)}


def _call_sized(fn, *args, name: str, fn_name: str, sizes: str):
    """core.call, naming a reshape that fails because a size is hard-coded or global.

    sizes: the case's sizes in words, e.g. "D = 6, n_heads = 2, so d_head = 3".
    """
    try:
        return core.call(fn, *args, name=fn_name)
    except RuntimeError as error:
        if not any(e in str(error) for e in _SHAPE_ERRORS):
            raise
        used = _global_sizes(fn)
        if used:
            shown = ", ".join(f"{n} = {v}" for n, v in used.items())
            core.fail(f"{name}: your function raised RuntimeError ({error}). It reads the "
                      f"notebook's global {shown}, a size hard-coded from the setup, instead "
                      f"of one read from its input ({sizes}): take every size from x.shape "
                      "(and n_heads).", "multi_head.global-size")
        earlier = core._state.passed if core._state is not None else []
        if earlier:
            core.fail(f"{name}: your function raised RuntimeError ({error}), after it was right "
                      f"on an earlier case of another size ({earlier[0][1]}): is a size "
                      f"hard-coded from the first example instead of read from the input? Here "
                      f"{sizes}.", "multi_head.hard-coded-size")
        raise


def _shape_hints(result, name: str, expected: tuple, hints: dict) -> None:
    """Fail with the hint of a known wrong shape, before compare() says only 'expected shape'.

    hints: {shape: (id, message)}.
    """
    shape = _shape_of(result)
    if shape != tuple(expected) and shape in hints:
        diagnosis, message = hints[shape]
        earlier = core._state.passed if core._state is not None else []
        if any(entry[-1] != tuple(expected) for entry in earlier):
            message = ("your function was right on an earlier case of another size: is a size "
                       "or the head count hard-coded instead of read from the arguments? If "
                       f"not: {message}")
        core.fail(f"{name}: your result has shape {shape}: {message}", diagnosis)


_close = functools.partial(core.matches, atol=_ATOL, rtol=_RTOL)


def _anticipated(got, want, name: str, mistakes) -> None:
    """Name an anticipated mistake before the property checks (which would say less).

    A mistake whose value equals the reference on this case is skipped, as in core.compare.
    """
    if _close(got, want):
        return
    for diagnosis, message, wrong in mistakes:
        if not _close(wrong, want) and _close(got, wrong):
            core.fail(f"{name}: {message}", diagnosis)


def _step(got, want, *, name: str, step: str, diagnosis: str, why: str, **options) -> None:
    """compare(), but a failure says at which step the answer leaves the reference."""
    try:
        core.compare(got, want, name=name, **options)
    except core.CheckFailed as error:
        said = str(error).removeprefix(f"{name}: ")
        core.fail(f"{name}: your answer leaves the reference at {step}. {why} What differs: "
                  f"{said}", diagnosis)


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


_forbid = core.forbid  # it also refuses the library function passed as the answer


def _labels(got) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sequence, token, feature) of each entry of a result computed from labelled input."""
    a = np.rint(core.as_array(got, "result")).astype(np.int64)
    return a // 1000, a // 100 % 10, a % 100


def _is_labelled(got) -> bool:
    a = core.as_array(got, "result")
    return bool(np.isfinite(a).all() and np.array_equal(a, np.rint(a)) and (a >= 0).all())


# Exercise 1 -------------------------------------------------------------------------------


def _split_tokens_kept(got, B, H, T, d, name) -> None:
    """Property 1: position t of every head of sequence b holds only token t of sequence b."""
    if not _is_labelled(got):
        core.fail(f"{name}: on a labelled x (entry [b, t, f] = 1000 b + 100 t + f) your split "
                  "returned numbers that are not entries of x: a split only moves numbers, it "
                  "computes nothing.", "multi_head.split-changes-values")
    seq, tok, feat = _labels(got)
    want_seq = np.arange(B)[:, None, None, None]
    want_tok = np.arange(T)[None, None, :, None]
    bad = (seq != want_seq) | (tok != want_tok)
    if bad.any():
        b, h, t, f = (int(i) for i in np.argwhere(bad)[0])
        if (seq != want_seq).any():
            b, h, t, f = (int(i) for i in np.argwhere(seq != want_seq)[0])
            core.fail(
                f"{name}: tokens move across the sequences of the batch: position {t} of head "
                f"{h} of sequence {b} holds feature {feat[b, h, t, f]} of token "
                f"{tok[b, h, t, f]} of sequence {seq[b, h, t, f]}. A reshape that merges the "
                "batch and the positions into one B*T axis (or flattens the batch) regroups "
                "numbers across sequences. Keep the batch axis first and apart: view the width "
                "as (n_heads, d_head), then transpose(1, 2).",
                "multi_head.split-mixes-sequences")
        core.fail(
            f"{name}: position {t} of head {h} of sequence {b} holds feature {feat[b, h, t, f]} "
            f"of token {tok[b, h, t, f]} of sequence {seq[b, h, t, f]}, not a feature of token "
            f"{t} of sequence {b}. A split must keep every token at its own position in every "
            "head: view the width as (n_heads, d_head) first, then move the head axis.",
            "multi_head.split-mixes-tokens",
        )
    want_feat = (np.arange(H)[:, None, None] * d + np.arange(d)[None, None, :])[None]
    wrong = (feat != want_feat).any(axis=(0, 2, 3))
    if wrong.any():
        h = int(np.argmax(wrong))
        core.fail(
            f"{name}: every token stays at its position, but head {h} holds features "
            f"{sorted(set(feat[0, h, 0].tolist()))} (in the order {feat[0, h, 0].tolist()}); "
            f"head {h} owns features {h * d} .. {(h + 1) * d - 1}, in order.",
            "multi_head.split-wrong-features",
        )


@core.exercise
def check_split_heads(my_split_heads) -> None:
    """Exercise: my_split_heads(x, n_heads): (B, T, D) -> (B, H, T, D / H)."""
    fn = "my_split_heads"
    _forbid(my_split_heads, ("helpers.heads.split_heads", "helpers.heads.merge_heads",
                                 "helpers.heads.MultiHeadAttention"), name=fn,
                why="Split the width yourself with view (or reshape) and transpose; "
                    "helpers.heads.split_heads is the check's reference.")
    cases = [
        (labelled(2, 5, 12), 3, True),  # B=2, T=5, D=12, H=3, d_head=4
        (labelled(1, 4, 6), 2, True),  # d_head=3
        (labelled(3, 2, 15), 5, True),  # B=3, T=2, H=5, d_head=3
        (_random(1, 3, 2, 12), 4, False),  # random numbers, d_head=3
    ]
    for x, H, is_labelled in cases:
        B, T, D = x.shape
        d = D // H
        name = f"{fn}(x of shape {(B, T, D)}, n_heads={H})"
        got = _tensor(_call_sized(my_split_heads, x, H, name=name, fn_name=fn,
                                  sizes=f"D = {D}, n_heads = {H}, so d_head = D / n_heads = "
                                        f"{d}"), name)
        _shape_hints(got, name, (B, H, T, d), {
            (B, T, H, d): ("multi_head.split-no-head-transpose",
                           "you stopped at (B, T, H, d_head). transpose(1, 2) moves the head "
                           "axis before the positions, giving (B, H, T, d_head)."),
            (B, T, d, H): ("multi_head.split-width-as-d-head-by-h",
                           "you viewed the width as (d_head, H); it is (H, d_head), and the "
                           "head axis then moves before the positions: (B, H, T, d_head)."),
            (B, d, T, H): ("multi_head.split-heads-and-width-swapped",
                           f"you swapped n_heads and d_head: there are n_heads = {H} heads of "
                           f"d_head = D / n_heads = {d} features each."),
            (B, H, d, T): ("multi_head.split-last-axes-swapped",
                           "the last two axes are swapped: the result is (B, H, T, d_head), "
                           "positions before features."),
        })
        want = split_heads(x, H)
        mistakes = [
            ("multi_head.split-no-transpose",
             NO_TRANSPOSE.format(example=_where_mixed(B, T, D, H)), _no_transpose_split(x, H)),
            ("multi_head.split-transposed-first",
             "you transposed first, before the view: x.transpose(1, 2) is (B, D, T), so each "
             "head's rows are features and its columns positions (features and positions "
             "swapped), one feature of several tokens per 'position'. The order of view and "
             "transpose matters: split the last axis first (view to (B, T, H, d_head)), then "
             "transpose(1, 2).",
             x.transpose(1, 2).reshape(B, H, T, d)),
            ("multi_head.interleaved-heads", INTERLEAVED, _interleaved_split(x, H)),
        ]
        _anticipated(got, want, name, mistakes)
        if is_labelled and _shape_of(got) == (B, H, T, d):
            _split_tokens_kept(got, B, H, T, d, name)
        core.compare(got, want, name=name, mistakes=mistakes, axes=("B", "H", "T", "d_head"),
                     sizes=dict(B=B, H=H, T=T, d_head=d, D=D), factors={})
    core.passed("my_split_heads: (B, T, D) -> (B, H, T, D/H); head h of token t holds that "
                "token's features h*d_head .. (h+1)*d_head - 1")


# Exercise 2 -------------------------------------------------------------------------------


def _merge_tokens_kept(got, B, H, T, d, name) -> None:
    """Properties of a merge of split(labelled x): row t is token t, features in head order."""
    if not _is_labelled(got):
        core.fail(f"{name}: on heads split from a labelled x (entry [b, t, f] = 1000 b + 100 t "
                  "+ f) your merge returned numbers that are not entries of x: a merge only "
                  "moves numbers.", "multi_head.merge-changes-values")
    seq, tok, feat = _labels(got)
    bad = (seq != np.arange(B)[:, None, None]) | (tok != np.arange(T)[None, :, None])
    if (seq != np.arange(B)[:, None, None]).any():
        b, t, f = (int(i) for i in np.argwhere(seq != np.arange(B)[:, None, None])[0])
        core.fail(
            f"{name}: tokens move across the sequences of the batch: position {t} of sequence "
            f"{b} holds a feature of token {tok[b, t, f]} of sequence {seq[b, t, f]}. The batch "
            "axis (axis 0) must stay where it is: transpose(1, 2) swaps the heads and the "
            "positions; swapping axis 0 (transpose(0, 2)) moves the sequences.",
            "multi_head.merge-mixes-sequences")
    if bad.any():
        b, t, f = (int(i) for i in np.argwhere(bad)[0])
        core.fail(
            f"{name}: position {t} of sequence {b} holds a feature of token {tok[b, t, f]} of "
            f"sequence {seq[b, t, f]} (at feature {f}); after the merge, row t must hold token "
            "t's own features only. Move the positions back before the heads before you "
            "flatten.", "multi_head.merge-mixes-tokens")
    wrong = (feat != np.arange(H * d)).any(axis=-1)
    if wrong.any():
        b, t = (int(i) for i in np.argwhere(wrong)[0])
        order = feat[b, t].tolist()
        if len(set(order)) < len(order):
            core.fail(
                f"{name}: every token is back at its position, but its features are "
                f"{order}: some appear twice and others not at all. You combined the heads "
                "(averaged, summed or repeated one) instead of placing them side by side: "
                f"merging concatenates head 0's d_head = {d} features, then head 1's, and so "
                "on, H * d_head features in all.", "multi_head.merge-heads-combined")
        core.fail(
            f"{name}: every token is back at its position, but its features come in the order "
            f"{order}; the merged width is head 0's d_head = {d} features, then head 1's, and "
            "so on: features 0, 1, 2, ... in order.", "multi_head.merge-wrong-feature-order")


@core.exercise
def check_merge_heads(my_merge_heads) -> None:
    """Exercise: my_merge_heads(x): (B, H, T, d_head) -> (B, T, H * d_head)."""
    fn = "my_merge_heads"
    _forbid(my_merge_heads, ("helpers.heads.merge_heads", "helpers.heads.split_heads",
                                 "helpers.heads.MultiHeadAttention"), name=fn,
                why="Merge the heads yourself with transpose and view (or reshape); "
                    "helpers.heads.merge_heads is the check's reference.")
    split_of_labelled = split_heads(labelled(2, 5, 12), 3)  # (2, 3, 5, 4), labelled by token
    cases = [
        (split_of_labelled.contiguous(), True),  # stored in (B, H, T, d) order, like attention's
        (_random(2, 1, 2, 4, 3), False),  # (B=1, H=2, T=4, d=3)
        (split_heads(_random(3, 2, 3, 8), 4), False),  # a transposed view, straight from a split
        (split_heads(labelled(3, 2, 12), 4), True),  # a labelled transposed view, T = 2, d = 3
    ]
    for x, is_labelled in cases:
        B, H, T, d = x.shape
        name = f"{fn}(x of shape {(B, H, T, d)})"
        try:
            got = _tensor(_call_sized(my_merge_heads, x, name=name, fn_name=fn,
                                      sizes=f"H = {H}, d_head = {d}, so the merged width is "
                                            f"H * d_head = {H * d}"), name)
        except RuntimeError as error:
            if "view size is not compatible" in str(error):
                core.fail(
                    f"{name}: .view failed ({error}). After transpose(1, 2) the tensor is not "
                    "contiguous: its numbers are still stored in (B, H, T, d_head) order, and "
                    ".view cannot flatten (H, d_head) without moving them. Call .contiguous() "
                    "before .view (or use .reshape, which copies when it must).",
                    "multi_head.view-not-contiguous")
            raise
        _shape_hints(got, name, (B, T, H * d), {
            (B, T, H, d): ("multi_head.merge-not-flattened",
                           "you transposed back but did not flatten the last two axes: "
                           ".contiguous().view(B, T, H * d_head)."),
            (B, H, T, d): ("multi_head.merge-unchanged",
                           "that is the input's shape: move the positions back before the "
                           "heads and flatten the heads into one width, (B, T, H * d_head)."),
            (B, T, d): ("multi_head.merge-heads-combined",
                        "that is one head's width: you averaged or summed the heads into one. "
                        "Merging places them side by side, concatenated: head 0's d_head "
                        "features, then head 1's, H * d_head in all."),
            (B, H * T, d): ("multi_head.merge-heads-along-positions",
                            "you stacked the heads along the positions; concatenate them along "
                            "the features: (B, T, H * d_head)."),
        })
        want = merge_heads(x)
        mistakes = [
            ("multi_head.merge-no-transpose",
             NO_TRANSPOSE_BACK.format(example=_where_merged(x) if is_labelled else ""),
             _no_transpose_merge(x.contiguous())),
            ("multi_head.interleaved-heads",
             "your heads are interleaved: feature h + H*i came from head h (you flattened "
             "(d_head, H) instead of (H, d_head)). Flatten in head order: head 0's d_head "
             "features, then head 1's, and so on.",
             x.permute(0, 2, 3, 1).reshape(B, T, H * d)),
            *[("multi_head.merge-heads-combined",
               f"you {how} the heads into one and repeated it H times: merging places the "
               "heads side by side, concatenated: head 0's d_head features, then head 1's, "
               "and so on.", combined.repeat(1, 1, H))
              for how, combined in (("averaged", x.mean(dim=1)), ("summed", x.sum(dim=1)))],
        ]
        _anticipated(got, want, name, mistakes)
        if is_labelled and _shape_of(got) == (B, T, H * d):
            _merge_tokens_kept(got, B, H, T, d, name)
        core.compare(got, want, name=name, mistakes=mistakes, axes=("B", "T", "D"),
                     sizes=dict(B=B, H=H, T=T, d_head=d, D=H * d), factors={})
    core.passed("my_merge_heads: (B, H, T, d_head) -> (B, T, H*d_head), tokens back in place, "
                "for contiguous and transposed inputs; merge(split(x)) == x")


# Exercise 3 -------------------------------------------------------------------------------


def _blocked_where_allowed(q, k, v, mask):
    """Attention with the mask used the wrong way round; a row with no key left is NaN."""
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    return torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1) @ v


def _multi_head(q, k, v, H, mask=None, *, scale=None, split=split_heads, inverted=False):
    """The reference multi-head step on projected q, k, v (B, T, D), before W_O."""
    if inverted:
        return merge_heads(_blocked_where_allowed(split(q, H), split(k, H), split(v, H), mask))
    heads = attention(split(q, H), split(k, H), split(v, H), mask, scale=scale)[0]
    return merge_heads(heads)  # (B, T, D)


def _scale_mistakes(D: int, d: int, fn, *args) -> list:
    """The wrong scales of a head of width d in a model of width D; fn(*args, scale=s)."""
    def run(scale):
        return fn(*args, scale=scale)

    root = math.sqrt(d)
    found = [("multi_head.scaled-by-d-model", MODEL_WIDTH_SCALE.format(D=D, d=d),
              run(D ** -0.5))]
    r = math.isqrt(d)
    if r * r != d:
        found.append(("multi_head.integer-sqrt", INTEGER_SQRT.format(d=d, r=r, root=root),
                      run(1.0 / r)))
    found += [("multi_head.forgot-scale", FORGOT_SCALE, run(1.0)),
              ("multi_head.scaled-by-d-head", SCALED_BY_D_HEAD.format(d=d, root=root),
               run(1.0 / d))]
    return found


def _masked_leak(fn, args, index, T, name, what) -> None:
    """A causal answer: changing the inputs at the last position leaves rows 0..T-2 unchanged."""
    base = core.as_array(core.call(fn, *args), name)
    changed = [a.clone() for a in args[:index]]
    for a in changed:
        a[:, -1] = a[:, -1] + 3.0
    other = core.call(fn, *changed, *args[index:])
    other = core.as_array(_tensor(other, name), name)
    if base.shape != other.shape:
        return
    moved = ~np.isclose(other[:, :-1], base[:, :-1], atol=1e-9, rtol=1e-7).all(axis=-1)
    if moved.any():
        b, t = (int(i) for i in np.argwhere(moved)[0])
        core.fail(
            f"{name}: the causal mask leaks: changing {what} at the last position T-1 = {T - 1} "
            f"changed the output at position {t} (sequence {b}). With the mask (True = may "
            "attend), row i reads only keys 0..i, in every head. (A softmax over the queries "
            "instead of the keys leaks the same way: it normalises each column, so row i "
            "depends on the scores of later queries.)", "multi_head.mask-leaks")


def _heads(which: list[int]) -> str:
    if len(which) == 1:
        return f"head {which[0]} is"
    return f"heads {', '.join(map(str, which))} are"


@core.exercise
def check_per_head_attention(per_head_attention) -> None:
    """Exercise: per_head_attention(q, k, v, n_heads, mask) -> (B, T, D), a loop over heads."""
    fn = "per_head_attention"
    _forbid(per_head_attention,
                ("helpers.heads.split_heads", "helpers.heads.merge_heads",
                 "helpers.heads.MultiHeadAttention", "torch.nn.MultiheadAttention",
                 "torch.nn.functional.multi_head_attention_forward"), name=fn,
                why="The point is the loop: slice each head's block of features yourself and "
                    "call attention once per head.")
    cases = [
        (2, 5, 12, 3, True),  # d_head = 4
        (1, 4, 10, 2, False),  # d_head = 5, not a perfect square
        (2, 3, 6, 3, True),  # d_head = 2
        (2, 4, 12, 4, True),  # d_head = 3
    ]
    for seed, (B, T, D, H, masked) in enumerate(cases):
        q, k, v = (_random(10 * seed + i, B, T, D) for i in range(3))
        mask = torch.as_tensor(causal_mask(T)) if masked else None
        d = D // H
        name = f"{fn}(q, k, v of shape {(B, T, D)}, n_heads={H}, " + (
            "causal mask)" if masked else "mask=None)")
        args = (q, k, v, H, mask)
        try:
            got = _call_sized(per_head_attention, *args, name=name, fn_name=fn,
                              sizes=f"D = {D}, n_heads = {H}, so d_head = {d}")
        except ValueError as error:
            said = str(error)
            if "no allowed key" in said and masked:
                core.fail(
                    f"{name}: attention() refused a query row with no allowed key ({said}). "
                    "The causal mask given allows every row its own position, so the mask "
                    "that reached attention() was changed: inverted (~mask, as if True meant "
                    "blocked)? Here True = may attend: pass the mask as it is.",
                    "multi_head.inverted-mask")
            scores = re.search(r"scores' shape \(([\d, ]+)\)", said)
            if scores and tuple(int(n) for n in scores.group(1).split(",")[-2:]) != (T, T):
                core.fail(
                    f"{name}: attention() got queries and keys whose position axis is not "
                    f"T = {T} (its scores have shape ({scores.group(1)})), so a head's slice "
                    "cut the position axis (axis 1) instead of the features: slice the last "
                    "axis, q[..., h*d_head:(h+1)*d_head] (the ... keeps the batch and the "
                    "positions whole).", "multi_head.sliced-positions")
            raise
        got = _tensor(got, name, "the merged output (B, T, D)")
        _shape_hints(got, name, (B, T, D), {
            (B, T, d): ("multi_head.heads-summed",
                        "you summed or averaged the heads. Each head gives (B, T, d_head); "
                        "concatenate them along the features (torch.cat(..., dim=-1)) to get "
                        "(B, T, D)."),
            (B, H * T, d): ("multi_head.heads-along-positions",
                            "you concatenated the heads along the positions (dim=1); "
                            "concatenate along the features (dim=-1)."),
            (B, H, T, d): ("multi_head.heads-not-merged",
                           "you returned the heads still split; concatenate them along the "
                           "features into (B, T, D)."),
            (B, T, (H - 1) * d): ("multi_head.missing-head",
                                  f"that is {H - 1} heads of d_head = {d} features: the last "
                                  "head is missing. Does your loop stop one early "
                                  "(range(n_heads - 1), an off by one)? Loop over "
                                  "range(n_heads)."),
            **({(B, T, H * T): ("multi_head.concatenated-weights",
                                f"that is {H} blocks of T = {T}: you concatenated each head's "
                                "attention weights (T_q, T_k) instead of its output. "
                                "attention() returns (out, weights): keep out, element [0].")}
               if H * T != D else {}),
        })
        want = _multi_head(q, k, v, H, mask)
        single = attention(q[..., :d], k[..., :d], v[..., :d], mask)[0]  # (B, T, d)
        mistakes = _scale_mistakes(D, d, _multi_head, q, k, v, H, mask) + [
            ("multi_head.swapped-kv", SWAPPED_KV, _multi_head(q, v, k, H, mask)),
            ("multi_head.interleaved-heads", INTERLEAVED,
             _multi_head(q, k, v, H, mask, split=_interleaved_split)),
            ("multi_head.same-slice-every-head",
             "every head used the same features 0..d_head-1: head h must slice its own block "
             "[..., h*d_head:(h+1)*d_head] of q, k and v.", torch.cat([single] * H, dim=-1)),
            ("multi_head.split-no-transpose", NO_TRANSPOSE.format(example=""),
             _multi_head(q, k, v, H, mask, split=_no_transpose_split)),
            ("multi_head.one-full-width-head",
             "computed one head of full width: attention on all D features at once is a single "
             "head. Slice q, k and v into n_heads blocks of d_head features and attend in each.",
             attention(q, k, v, mask)[0]),
            ("multi_head.heads-interleaved-in-output",
             "each head's output is right, but the heads' features are interleaved in the "
             "result: feature h + H*i came from head h (torch.stack(..., dim=-1) followed by a "
             "reshape interleaves them). Concatenate along the features, torch.cat(..., "
             "dim=-1): head 0's block of d_head features, then head 1's, and so on.",
             split_heads(want, H).permute(0, 2, 3, 1).reshape(B, T, D)),
        ]
        if masked:
            mistakes += [("multi_head.ignored-mask", IGNORED_MASK, _multi_head(q, k, v, H)),
                         ("multi_head.inverted-mask", INVERTED_MASK,
                          _multi_head(q, k, v, H, mask, inverted=True))]
        _anticipated(got, want, name, mistakes)
        if _shape_of(got) == (B, T, D):
            # property 1: a causal mask holds in every head
            if masked:
                _masked_leak(per_head_attention, args, 3, T, name, "q, k and v")
            # property 2: head h's output depends on head h's features only
            moved_q, moved_k, moved_v = (t.clone() for t in (q, k, v))
            for t in (moved_q, moved_k, moved_v):
                t[..., (H - 1) * d:] = t[..., (H - 1) * d:] * -2.0 + 1.0
            other = core.as_array(_tensor(core.call(
                per_head_attention, moved_q, moved_k, moved_v, H, mask), name), name)
            base = core.as_array(got, name)
            if not np.allclose(other[..., :(H - 1) * d], base[..., :(H - 1) * d],
                               atol=1e-9, rtol=1e-7):
                core.fail(
                    f"{name}: the heads are not independent: changing only the features of the "
                    f"last head ({(H - 1) * d} .. {D - 1}) of q, k and v changed the output "
                    f"features of the other heads (0 .. {(H - 1) * d - 1}). Output block h must "
                    "come from attention on block h of q, k and v alone.",
                    "multi_head.heads-not-independent")
            # property 3: each block is attention on its own slice, in head order
            ok = [_close(base[..., h * d:(h + 1) * d],
                         want[..., h * d:(h + 1) * d]) for h in range(H)]
            if any(ok) and not all(ok):
                good, bad = _heads([h for h in range(H) if ok[h]]), _heads(
                    [h for h in range(H) if not ok[h]])
                h = ok.index(False)
                for start in range(D - d + 1):
                    cols = slice(start, start + d)
                    if start != h * d and _close(
                            base[..., h * d:(h + 1) * d],
                            attention(q[..., cols], k[..., cols], v[..., cols], mask)[0]):
                        core.fail(
                            f"{name}: {good} right and {bad} wrong: head {h} used features "
                            f"{start} .. {start + d - 1}, so its slice starts at {start}, not at "
                            f"h * d_head = {h * d}, and the heads overlap. Head h's slice is "
                            "[h*d_head:(h+1)*d_head].", "multi_head.slice-start")
                core.fail(
                    f"{name}: {good} right and {bad} wrong: output features h*d_head .. "
                    f"(h+1)*d_head - 1 must be attention on those features of q, k and v "
                    f"(d_head = {d}). Check the slice bounds of the wrong heads.",
                    "multi_head.some-heads-wrong")
        core.compare(got, want, name=name, mistakes=mistakes, axes=("B", "T", "D"),
                     sizes=dict(B=B, T=T, D=D, H=H, d_head=d),
                     factors={"H": H, "√d_head": math.sqrt(d), "√D": math.sqrt(D)})
    core.passed("per_head_attention: one attention per block of d_head features, scaled by "
                "sqrt(d_head), concatenated in head order; equals the batched split/merge form, "
                "with and without a causal mask")


# Exercise 4 -------------------------------------------------------------------------------


def _count(D: int, H: int, bias: bool) -> int:
    d, b = D // H, int(bias)
    return 3 * H * (D * d + b * d) + D * D + b * D


def _whole(got, name: str) -> int:
    if got is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "multi_head.returned-none")
    if isinstance(got, torch.Tensor) and got.numel() == 1:
        got = got.item()
    if isinstance(got, np.ndarray) and got.size == 1:
        got = got.item()
    if isinstance(got, bool) or not isinstance(got, (int, np.integer, float, np.floating)):
        core.fail(f"{name}: return the number of parameters, a whole number; got {got!r} of "
                  f"type {type(got).__name__}", "multi_head.params-not-a-number")
    if not math.isfinite(got) or got != int(got):
        core.fail(f"{name}: return a whole number of parameters; got {got!r}. A count of "
                  "weights has no fraction: use // for d_head = d_model // n_heads.",
                  "multi_head.params-not-whole")
    return int(got)


@core.exercise
def check_attention_parameters(attention_parameters) -> None:
    """Exercise: attention_parameters(d_model, n_heads, bias) -> int, counted per head."""
    fn = "attention_parameters"
    _forbid(attention_parameters,
                ("helpers.heads.MultiHeadAttention", "torch.nn.MultiheadAttention",
                 "helpers.blocks.count_parameters", "torch.nn.Linear"), name=fn,
                why="Compute the number with arithmetic from d_model, n_heads and bias, not by "
                    "building a module and counting its parameters.")
    cases = [(512, 8, True), (512, 8, False), (64, 4, True), (768, 12, True), (48, 6, False),
             (512, 1, True), (512, 16, True), (60, 5, True)]
    counts = {}
    for D, H, bias in cases:
        name = f"{fn}({D}, {H}, bias={bias})"
        got = _whole(core.call(attention_parameters, D, H, bias, name=fn), name)
        counts[D, H, bias] = got
        d, b = D // H, int(bias)
        w_o = D * D + b * D
        mistakes = [
            ("multi_head.params-forgot-w-o",
             "forgot the output projection W_O: after the heads are concatenated, W_O "
             f"(d_model x d_model = {D} x {D}{' plus its bias' if bias else ''}) mixes them. "
             "(Or you left out one of W_Q, W_K, W_V: the heads of each hold as many "
             "parameters as W_O, so the two mistakes give the same number.)",
             3 * H * (D * d + b * d)),
            ("multi_head.params-forgot-biases",
             "forgot the biases: each of the 3 per-head projections has d_head biases, and W_O "
             "has d_model.", 3 * H * D * d + D * D),
            ("multi_head.params-full-width-heads",
             "you gave every head full-width projections (d_model x d_model), so your count "
             "grows with n_heads. Each head's W_Q, W_K and W_V is d_model x d_head, with d_head "
             "= d_model / n_heads: h heads of width d_model / h together hold one d_model x "
             "d_model matrix per projection.", 3 * H * (D * D + b * D) + w_o),
            ("multi_head.params-one-head",
             "you counted one head only: there are n_heads heads, each with its own W_Q, W_K "
             "and W_V of shape d_model x d_head.", 3 * (D * d + b * d) + w_o),
            ("multi_head.params-bias-d-model",
             "each head's bias has d_head entries (one per output feature), not d_model.",
             3 * H * (D * d + b * D) + w_o),
            ("multi_head.params-w-o-per-head",
             "you counted an output projection W_O per head: there is one output projection "
             "for the whole layer, counted only once (W_O once, not once per head): it maps "
             "the concatenated d_model features back to d_model.",
             3 * H * (D * d + b * d) + H * w_o),
            ("multi_head.params-forgot-w-o-bias",
             f"you forgot the bias of W_O: W_O has d_model = {D} biases (b_o), added after the "
             "heads are mixed, besides the d_head biases of each head's W_Q, W_K and W_V.",
             3 * H * (D * d + b * d) + D * D),
            ("multi_head.params-w-o-per-head-width",
             f"W_O is d_model x d_model = {D} x {D}: it takes all H heads' concatenated "
             "features, not one head's d_head.", 3 * H * (D * d + b * d) + D * d + b * D),
        ]
        for diagnosis, message, wrong in mistakes:  # exact: a count is off by a few or not
            if got != _count(D, H, bias) and got == wrong:
                core.fail(f"{name}: {message}", diagnosis)
    # properties, in the lesson's order
    core.require(
        counts[512, 8, False] == 4 * 512 * 512,
        f"{fn}(512, 8, bias=False) = {counts[512, 8, False]:,}: without biases the layer is "
        "W_Q, W_K and W_V (8 heads of 512 x 64 each) and W_O (512 x 512): the heads of one "
        f"projection together hold as many weights as one 512 x 512 matrix, so 4 x 512 x 512 = "
        f"{4 * 512 * 512:,}.", "multi_head.params-weights-wrong")
    core.require(
        counts[512, 8, True] - counts[512, 8, False] == 4 * 512,
        f"{fn}: bias=True adds {counts[512, 8, True] - counts[512, 8, False]:,} parameters to "
        "(512, 8), but the biases are d_head per head for each of W_Q, W_K, W_V (8 x 64 = 512 "
        f"each) and d_model = 512 for W_O: {4 * 512:,} in all."
        + (" You left out the d_model = 512 biases of W_O (its bias b_o)."
           if counts[512, 8, True] - counts[512, 8, False] == 3 * 512 else ""),
        "multi_head.params-bias-count")
    by_heads = {H: counts[512, H, True] for H in (1, 8, 16)}
    core.require(
        len(set(by_heads.values())) == 1,
        f"{fn}: your count changes with the head count at d_model = 512 ("
        + ", ".join(f"{H} head{'s' * (H > 1)}: {n:,}" for H, n in by_heads.items())
        + "). Cutting d_model into more, narrower heads keeps the total: n_heads x d_head = "
        "d_model.", "multi_head.params-depend-on-heads")
    for D, H, bias in cases:
        core.compare(counts[D, H, bias], _count(D, H, bias), atol=0, rtol=0,
                     name=f"{fn}({D}, {H}, bias={bias})",
                     factors={"n_heads": H, "3": 3, "4": 4, "d_head": D // H, "d_model": D})
    for args, why in [((10, 3, True), "10 / 3 is not a whole number"),
                      ((12, 5, False), "12 / 5 is not a whole number")]:
        core.expect_error(
            attention_parameters, *args, name=f"{fn}{args[:2]}",
            hint=f"n_heads = {args[1]} does not divide d_model = {args[0]} ({why}: a remainder "
                 f"of {args[0] % args[1]}), so the heads cannot all have width d_model / "
                 "n_heads, and floor division // would quietly drop features. Raise ValueError "
                 "when d_model % n_heads != 0, as MultiHeadAttention does.",
        )
    if core.grading():  # sizes the notebook has not seen, last: a table of the counts fails
        rng, fresh = core.rng(4), []
        while len(fresh) < 2:
            H = int(rng.integers(1, 17))
            case = (H * int(rng.integers(1, 65)), H, bool(rng.integers(2)))
            if case[0] not in {c[0] for c in cases + fresh}:  # the count ignores H
                fresh.append(case)
        for D, H, bias in fresh:
            name = f"{fn}({D}, {H}, bias={bias})"
            got = _whole(core.call(attention_parameters, D, H, bias, name=fn), name)
            core.compare(got, _count(D, H, bias), atol=0, rtol=0, name=name,
                         factors={"n_heads": H, "3": 3, "4": 4, "d_head": D // H, "d_model": D})
    core.passed("attention_parameters: 3 x n_heads x (d_model x d_head + d_head) + W_O "
                "(d_model x d_model + d_model); 512 wide, 8 heads: 1,050,624, the same for any "
                "head count; ValueError when n_heads does not divide d_model")


# Exercise 5 -------------------------------------------------------------------------------


def torch_reference(D: int, H: int, seed: int) -> nn.MultiheadAttention:
    """An nn.MultiheadAttention (float64, batch_first) with nonzero biases, fixed by `seed`
    (core.seed(seed): drawn afresh when grading, since the weights are the student's input)."""
    seed = core.seed(seed)
    gen = torch.Generator().manual_seed(seed)
    state = torch.random.get_rng_state()
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(D, H, batch_first=True).double().eval()
    torch.random.set_rng_state(state)
    with torch.no_grad():  # torch starts the biases at 0; make them count
        for p in (mha.in_proj_bias, mha.out_proj.bias):
            p.add_(0.1 * torch.randn(p.shape, generator=gen, dtype=p.dtype))
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


def _scores_mistake(q, k, v, mask, how: str):
    """One head step with a mistake in the scores, the mask or the softmax (see _forward)."""
    s = (k @ q.transpose(-2, -1) if how == "kq" else q @ k.transpose(-2, -1))
    s = s / math.sqrt(q.shape[-1])
    m = None if mask is None else torch.as_tensor(mask)
    if how == "multiplied":
        a = torch.softmax(s if m is None else s * m.to(s.dtype), dim=-1)
    elif how == "after":
        a = torch.softmax(s, dim=-1) * (1 if m is None else m)
    else:  # "queries" (softmax over axis -2) or "kq" (scores K Q^T)
        s = s if m is None else s.masked_fill(~m, float("-inf"))
        a = torch.softmax(s, dim=-2 if how == "queries" else -1)
    return a @ v


SCORES_MISTAKES = {
    "queries": ("multi_head.softmax-over-queries",
                "softmax over the wrong axis: you normalised over the queries (axis=-2, dim=-2), "
                "so each column sums to 1. Normalise over the keys, the last axis (axis=-1), so "
                "that each row of weights sums to 1."),
    "multiplied": ("multi_head.mask-multiplied",
                   "multiplying the scores by the mask gives a blocked key the score 0, not "
                   "-inf, and exp(0) = 1 still gives it weight. Fill the blocked scores with "
                   "-inf (masked_fill(~mask, -inf)) before softmax, so that exp gives exactly "
                   "0."),
    "after": ("multi_head.mask-after-softmax",
              "masking after softmax: the blocked weights are 0, but the rows no longer sum to "
              "1. Fill the blocked scores with -inf before softmax (or renormalise each row)."),
    "kq": ("multi_head.scores-transposed",
           "your scores are transposed: K Q^T (k @ q.transpose(-2, -1)) puts key i against every "
           "query in row i. The scores are Q K^T: row i belongs to query i, column j to key j."),
}


def _forward(x, w, H, mask=None, *, scale=None, split=split_heads, merge=merge_heads,
             out_proj=True, biases=True, swap_kv=False, transposed=False, inverted=False,
             scores=None):
    """Multi-head attention from the weights of `weights_of`, with one mistake switched on.

    scores: a key of SCORES_MISTAKES, a mistake in the scores, the mask or the softmax.
    """
    def project(name):
        W = w[f"W_{name}"].T if transposed else w[f"W_{name}"]
        return x @ W + (w[f"b_{name}"] if biases else 0)

    q, k, v = project("q"), project("k"), project("v")
    if swap_kv:
        k, v = v, k
    if inverted:
        heads = _blocked_where_allowed(split(q, H), split(k, H), split(v, H), mask)
    elif scores is not None:
        heads = _scores_mistake(split(q, H), split(k, H), split(v, H), mask, scores)
    else:
        heads = attention(split(q, H), split(k, H), split(v, H), mask, scale=scale)[0]
    merged = merge(heads)  # (B, T, D)
    if not out_proj:
        return merged
    W_o = w["W_o"].T if transposed else w["W_o"]
    return merged @ W_o + (w["b_o"] if biases else 0)


def _with(w: dict, **changes) -> dict:
    return {**{key: value.clone() for key, value in w.items()}, **changes}


def _mha_probes(mha_forward, x, w, H, mask, name) -> None:
    """Probe the forward pass step by step, in the order the exercise lists the steps."""
    B, T, D = x.shape
    zeros, eye = torch.zeros(D, D, dtype=x.dtype), torch.eye(D, dtype=x.dtype)
    zero_b = torch.zeros(D, dtype=x.dtype)
    options = dict(axes=("B", "T", "D"), sizes=dict(B=B, T=T, D=D, H=H, d_head=D // H),
                   factors={"H": H, "√d_head": math.sqrt(D // H), "√D": math.sqrt(D)})

    def run(probe):
        return _tensor(core.call(mha_forward, x, probe, H, mask), name)

    # 1. values, mask and merge: with W_q = W_k = 0 every score is equal
    flat = _with(w, W_q=zeros.clone(), W_k=zeros.clone(), b_q=zero_b.clone(),
                 b_k=zero_b.clone(), W_o=eye.clone(), b_o=zero_b.clone())
    _step(run(flat), _forward(x, flat, H, mask), name=f"{name}, probed with W_q = W_k = 0",
          step="the values (projection, mask, softmax, weighted sum, merge)",
          diagnosis="multi_head.mha-values-step",
          why="With W_q = W_k = 0 and b_q = b_k = 0 every score is equal, so each output row "
              "must be the plain average of the value rows x_j @ W_v + b_v over the keys j "
              "the mask allows (here W_o = I and b_o = 0).", **options)
    # 2. the heads before W_o: with W_o = I and b_o = 0 the output is the merged heads
    plain = _with(w, W_o=eye.clone(), b_o=zero_b.clone())
    _step(run(plain), _forward(x, plain, H, mask), name=f"{name}, probed with W_o = I, b_o = 0",
          step="the heads, before W_o (projections, split, scores, scale, softmax)",
          diagnosis="multi_head.mha-heads-step",
          why="With W_o = I and b_o = 0 the output is the merged heads themselves; the values "
              "step passed, so look at the queries and keys: their projections, the split, "
              "the scores and their scale 1/sqrt(d_head).", **options)
    # 3. the output projection comes last: with W_o = 0 every row is b_o ...
    silent = _with(w, W_o=zeros.clone())
    _step(run(silent), _forward(x, silent, H, mask), name=f"{name}, probed with W_o = 0",
          step="the output projection", diagnosis="multi_head.mha-output-step",
          why="With W_o = 0 every output row must be b_o: the merged heads are multiplied by "
              "W_o, then b_o is added, as the last step.", **options)
    # ... and with W_o = I the output is the merged heads plus b_o, added once
    shifted = _with(w, W_o=eye.clone())
    _step(run(shifted), _forward(x, shifted, H, mask), name=f"{name}, probed with W_o = I",
          step="the output projection", diagnosis="multi_head.mha-output-step",
          why="With W_o = I the output must be the merged heads plus b_o: b_o is added once, "
              "after the multiplication by W_o.", **options)


@core.exercise
def check_mha_forward(mha_forward) -> None:
    """Exercise: mha_forward(x, w, n_heads, mask) equals nn.MultiheadAttention's output."""
    fn = "mha_forward"
    _forbid(mha_forward, core.ATTENTION_FUNCTIONS + (
        "torch.nn.MultiheadAttention", "helpers.heads.MultiHeadAttention"), name=fn,
        why="Write the scores and the softmax yourself (softmax, split_heads and merge_heads "
            "may be used): the exercise is the forward pass, not a call of a layer that has it.")
    cases = [(2, 5, 12, 3, True, 0), (2, 5, 12, 3, False, 0), (1, 4, 8, 2, True, 1),
             (2, 4, 10, 2, True, 2)]  # the last: d_head = 5, not a perfect square
    for B, T, D, H, masked, seed in cases:
        mha = torch_reference(D, H, seed)
        w = weights_of(mha)
        x = _random(100 + seed, B, T, D)
        mask = torch.as_tensor(causal_mask(T)) if masked else None  # True = may attend
        with torch.no_grad():
            want, _ = mha(x, x, x, attn_mask=None if mask is None else to_mha(mask),
                          need_weights=False)  # nn.MultiheadAttention: True = blocked
        name = f"{fn}(x of shape {(B, T, D)}, n_heads={H}, " + (
            "causal mask)" if masked else "mask=None)")
        got = _tensor(core.call(mha_forward, x, w, H, mask, name=fn), name,
                      "the output (B, T, D)")
        d = D // H
        mistakes = [
            ("multi_head.forgot-output-projection",
             "forgot the output projection: after merging the heads, multiply by W_o and add "
             "b_o. nn.MultiheadAttention's out_proj mixes the heads' features.",
             _forward(x, w, H, mask, out_proj=False)),
            *_scale_mistakes(D, d, _forward, x, w, H, mask),
            ("multi_head.split-no-transpose", NO_TRANSPOSE.format(example=""),
             _forward(x, w, H, mask, split=_no_transpose_split)),
            ("multi_head.split-and-merge-no-transpose",
             NO_TRANSPOSE.format(example="") + " (Your merge skips the transpose too.)",
             _forward(x, w, H, mask, split=_no_transpose_split, merge=_no_transpose_merge)),
            ("multi_head.merge-no-transpose", NO_TRANSPOSE_BACK.format(example=""),
             _forward(x, w, H, mask, merge=_no_transpose_merge)),
            ("multi_head.swapped-kv", SWAPPED_KV, _forward(x, w, H, mask, swap_kv=True)),
            ("multi_head.forgot-biases",
             "forgot the biases: add b_q, b_k and b_v to the projections and b_o after W_o.",
             _forward(x, w, H, mask, biases=False)),
            ("multi_head.weights-transposed",
             "used the weights transposed: here the matrices are stored for x @ W (d_model in, "
             "d_model out), so Q = x @ W_q + b_q; x @ W_q.T is a different projection.",
             _forward(x, w, H, mask, transposed=True)),
            ("multi_head.interleaved-heads", INTERLEAVED,
             _forward(x, w, H, mask, split=_interleaved_split)),
            ("multi_head.one-full-width-head",
             "computed one head of full width: split q, k and v into n_heads heads of d_head "
             "features, attend in each, and merge.", _forward(x, w, 1, mask)),
            *[(diagnosis, message, _forward(x, w, H, mask, scores=how))
              for how, (diagnosis, message) in SCORES_MISTAKES.items()],
        ]
        if masked:
            mistakes += [("multi_head.ignored-mask", IGNORED_MASK, _forward(x, w, H)),
                         ("multi_head.inverted-mask", INVERTED_MASK,
                          _forward(x, w, H, mask, inverted=True))]
        _anticipated(got, want, name, mistakes)
        if _shape_of(got) == (B, T, D):
            if masked:
                _masked_leak(mha_forward, (x, w, H, mask), 1, T, name, "x")
            _mha_probes(mha_forward, x, w, H, mask, name)
        core.compare(got, want, name=name, mistakes=mistakes, axes=("B", "T", "D"),
                     sizes=dict(B=B, T=T, D=D, H=H, d_head=d),
                     factors={"H": H, "√d_head": math.sqrt(d), "√D": math.sqrt(D)})
    core.passed("mha_forward: equals nn.MultiheadAttention (projections with biases, "
                "split, scale 1/sqrt(d_head), causal mask, merge, W_o), for 3 and 2 heads")


# Exercise 6 -------------------------------------------------------------------------------


def _swap_in_one_head(x, H):
    heads = split_heads(x, H).clone()
    heads[-1, 1, [1, 2]] = heads[-1, 1, [2, 1]]  # last sequence, head 1: positions 1, 2 swapped
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
            "only head 1 of the last sequence is wrong (positions 1 and 2 swapped); check every "
            "head of every sequence, not only head 0 or sequence 0 (y[0])"),
        "a split that moves the last feature of every head": (
            _move_last_feature, True,
            "feature 0 of every position is right, but the last feature of position t comes "
            "from token t-1; compare every feature, not only the first"),
        "a split that transposes first": (
            lambda x, H: x.transpose(1, 2).reshape(x.shape[0], H, x.shape[1], -1), True,
            "x.transpose(1, 2).reshape(B, H, T, d_head)"),
    }


class _SplitSpy:
    """A split function that records the (x, n_heads) it is called with."""

    def __init__(self, split):
        self.split, self.calls = split, []

    def __call__(self, x, n_heads, *args, **kwargs):
        try:
            self.calls.append((x.detach().cpu().numpy().copy() if isinstance(x, torch.Tensor)
                               else np.array(x), n_heads))
        except (TypeError, ValueError, RuntimeError):
            pass
        return self.split(x, n_heads, *args, **kwargs)


def _misplaced_share(split, B=2, T=5, D=12, H=3) -> float:
    """The share of the entries that split puts at another token, on a labelled x."""
    seq, tok, _ = _labels(split(labelled(B, T, D), H))
    bad = (seq != np.arange(B)[:, None, None, None]) | (tok != np.arange(T)[None, None, :, None])
    return float(bad.mean())


def _label_collision(calls, shape) -> str | None:
    """What is wrong with the labels a detector built, when two tokens share a label."""
    for x, _ in calls:
        if x.shape != shape or x.ndim != 3:
            continue
        B, T, D = x.shape
        owner = {}
        across_sequences = False
        for b in range(B):
            for t in range(T):
                for f in range(D):
                    value = float(x[b, t, f])
                    other = owner.setdefault(value, (b, t, f))
                    if other[:2] == (b, t):
                        continue
                    if other[1] != t:
                        return (
                            f"your labels collide: x[{other[0]}, {other[1]}, {other[2]}] and "
                            f"x[{b}, {t}, {f}] are both {value:g}, so one label names two "
                            f"tokens. With D = {D} features, a label such as 100 b + 10 t + f "
                            "overlaps as soon as D > 10: feature f spills into the token digit. "
                            "Space the labels by more than D (e.g. (b T + t) D + f), or label "
                            "every feature of a token with the same number b T + t.")
                    across_sequences = True
        if across_sequences:
            return ("your labels ignore the sequence: token t of sequence 0 and token t of "
                    "sequence 1 carry the same labels, so a split that swaps the sequences of "
                    "the batch looks right. Label b as well as t (e.g. b T + t).")
    return None


@core.exercise
def check_mixes_tokens(mixes_tokens) -> None:
    """Exercise: mixes_tokens(split) -> True when split puts a token at another position.

    In order: a bool for every split; the detector splits an x of its own arguments' shape
    (B, T, D) with n_heads; it fires at all; not always; no false alarm; no miss. What the
    detector fed the splits explains a failure: labels that collide (two tokens, one label) or
    that ignore the sequence; a detector that fires only when every entry is misplaced.
    """
    verdicts, spies = {}, {}
    for name, (split, _, _) in _splits().items():
        spies[name] = _SplitSpy(split)
        got = core.call(mixes_tokens, spies[name], name="mixes_tokens")
        if isinstance(got, torch.Tensor) and got.numel() == 1 and got.dtype == torch.bool:
            core.fail(f"mixes_tokens: return a Python bool; you returned a torch tensor "
                      f"({got!r}). Convert it with .item() or bool(...).",
                      "multi_head.detector-returns-tensor")
        if not isinstance(got, (bool, np.bool_)):
            core.fail(
                f"mixes_tokens: return True (the split mixes tokens) or False; got {got!r} "
                f"of type {type(got).__name__}. (torch: .item(), or bool(...))",
                "multi_head.detector-not-bool")
        verdicts[name] = bool(got)
    calls = [c for spy in spies.values() for c in spy.calls]
    own = (2, 5, 12)  # mixes_tokens' defaults B, T, D; n_heads = 3
    if calls and not any(x.shape == own and H == 3 for x, H in calls):
        x, H = calls[0]
        core.fail(
            f"mixes_tokens: your test does not build its x from its own arguments: called with "
            f"B, T, D, n_heads = 2, 5, 12, 3, it split an x of shape {x.shape} with "
            f"n_heads = {H} (the setup's x_lab?). Build x of shape (B, T, D) from the "
            "arguments B, T, D and split it with n_heads, so the test works for any sizes.",
            "multi_head.detector-ignores-arguments")
    collision = _label_collision(calls, own)
    if not any(verdicts.values()):
        core.fail(
            "mixes_tokens: your test never fires: it lets the no-transpose reshape pass, though "
            "it fills head 0 with the first tokens' features. Its shape is right, so compare "
            "contents: label each entry of x with its token, split, and check that position t "
            "of every head holds only token t.", "multi_head.detector-never-fires")
    if all(verdicts.values()):
        if collision:
            core.fail(f"mixes_tokens: your test always fires, even on helpers.heads."
                      f"split_heads: {collision}", "multi_head.detector-labels-collide")
        core.fail(
            "mixes_tokens: your test always fires: it flags even helpers.heads.split_heads. "
            "Position t of head h should hold token t: compare each position with its own "
            "token index, not with position 0 or with the whole x.",
            "multi_head.detector-always-fires")
    splits = _splits()
    missed = [n for n, (_, mixes, _) in splits.items() if mixes and not verdicts[n]]
    if missed and collision and not any(verdicts[n] for n, (_, m, _) in splits.items() if not m):
        core.fail(f"mixes_tokens: your test missed {missed[0]}: {collision}",
                  "multi_head.detector-labels-collide")
    share = {n: _misplaced_share(f) for n, (f, mixes, _) in splits.items() if mixes}
    whole = [n for n in share if share[n] == 1.0]
    if (missed and whole and all(verdicts[n] for n in whole)
            and all(share[n] < 1.0 for n in missed)
            and all(not verdicts[n] for n in share if share[n] < 1.0)):
        core.fail(
            f"mixes_tokens: your test fires only when every position is wrong: it flags "
            f"{whole[0]}, which misplaces every entry, but misses {missed[0]}, which "
            "misplaces only some. Return True when some position holds a wrong token, "
            "any() instead of all().", "multi_head.detector-all-instead-of-any")
    for name, (_, mixes, how) in splits.items():
        if verdicts[name] and not mixes:
            extra = (
                " It orders each head's features differently, but every token stays at its "
                "own position: test the tokens, not the exact numbers."
                if "interleaved" in name else ""
            )
            core.fail(f"mixes_tokens: false alarm on {name}, which keeps every token in "
                      f"place.{extra}", "multi_head.detector-false-alarm")
        if mixes and not verdicts[name]:
            core.fail(f"mixes_tokens: your test missed {name}: {how}.",
                      "multi_head.detector-missed")
    core.passed("mixes_tokens: catches the no-transpose reshape and 6 other token mix-ups; "
                "passes split_heads and an interleaved (but token-preserving) split")
