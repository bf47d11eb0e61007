"""Checks for lesson 04 (masks): the causal mask, masked weights, the reversed mask on purpose,
a leakage test that catches it, padding combined with causal, and queries with no allowed key.
"""

from __future__ import annotations

import warnings

import numpy as np
import torch

from helpers.attention import attention, softmax
from helpers.checks import core
from helpers.masks import additive_bias, causal_mask, padding_mask

REVERSED = (
    "reversed mask: row 0 gives weight to position 2: your mask keeps the upper triangle, so "
    "position 0 reads the future. Row i keeps columns 0..i, the lower triangle (np.tril)."
)


def _ones(*shape) -> np.ndarray:
    return np.ones(shape, dtype=bool)


def _bool_mask(got, name: str, shape: tuple) -> np.ndarray:
    """The student's mask as a NumPy bool array, or an AssertionError saying what is wrong."""
    if got is None:
        raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
    got = got.detach().cpu().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    if got.dtype != np.bool_:
        if got.dtype.kind == "f" and np.isneginf(got).any():
            raise AssertionError(
                f"{name}: you returned an additive bias (0 / -inf floats). Return the boolean "
                "mask itself, True = may attend; additive_bias turns it into the bias later."
            )
        raise AssertionError(
            f"{name}: return a boolean array (True = may attend); got dtype {got.dtype}. "
            "np.ones(..., dtype=bool) or a comparison such as j <= i gives booleans."
        )
    if got.shape != shape:
        raise AssertionError(f"{name}: expected shape {shape}, got shape {got.shape}")
    return got


@core.exercise
def check_causal_mask(my_causal_mask) -> None:
    """Exercise: my_causal_mask(T) -> (T, T) bool, row i keeps columns 0..i."""
    for T in (5, 3, 1):
        name = f"my_causal_mask({T})"
        got = _bool_mask(my_causal_mask(T), name, (T, T))
        lower = np.tril(_ones(T, T))
        core.compare(got, causal_mask(T), name=name, mistakes=[
            (REVERSED, np.triu(_ones(T, T))),
            ("your mask excludes the diagonal: position i may not read itself, and row 0 has no "
             "allowed key at all, so its softmax is 0/0 = NaN. Row i keeps columns 0..i, i "
             "included.", np.tril(_ones(T, T), k=-1)),
            ("causal does not mean only the previous token: row i keeps every column 0..i, the "
             "whole known prefix, so the last row reads all T positions.",
             np.eye(T, dtype=bool) | np.eye(T, k=-1, dtype=bool)),
            ("causal does not mean only the previous token: row i keeps every column 0..i, "
             "itself included.", np.eye(T, k=-1, dtype=bool)),
            ("your mask is inverted: True marks the blocked future (nn.MultiheadAttention's "
             "convention). Here True = may attend (F.scaled_dot_product_attention's).", ~lower),
            ("your mask allows every key and blocks nothing: every position reads the future.",
             _ones(T, T)),
        ])
    core.passed("my_causal_mask: row i keeps columns 0..i (lower triangle, diagonal included), "
                "T = 5, 3, 1")


@core.exercise
def check_masked_weights(masked_weights) -> None:
    """Exercise: masked_weights(scores, mask) = softmax(scores + 0/-inf bias) over the keys."""
    rng = np.random.default_rng(4)
    scores = rng.normal(size=(2, 4, 5)) * 2  # (B, T_q, T_k)
    mask = np.stack([
        np.broadcast_to(padding_mask([3], 5), (4, 5)),  # keys 0..2 only
        np.tril(_ones(4, 5), k=1),  # row i keeps 0..i+1
    ])
    for s, m in [(scores, mask), (scores[0, :, :4], causal_mask(4))]:
        name = f"masked_weights(scores {s.shape}, mask {m.shape})"
        got = masked_weights(s.copy(), m.copy())
        after = softmax(s) * m
        sums = ", ".join(f"{t:.2f}" for t in after.sum(axis=-1).ravel()[:3])
        with np.errstate(invalid="ignore"):  # rows made all -inf by the mistake give NaN
            inverted = softmax(np.where(m, -np.inf, s))
            wrong_axis = softmax(s + additive_bias(m), axis=-2)
        core.compare(got, softmax(s + additive_bias(m)), name=name, mistakes=[
            (f"masking after softmax: the blocked keys are 0 but the rows now sum to {sums}, "
             "..., not 1. Add the -inf bias to the scores before softmax (or renormalise each "
             "row).", after),
            ("blocked keys still get weight: a bias of 0 where a key is blocked changes nothing "
             "(0 instead of -inf). A blocked key needs -inf, so that exp gives exactly 0.",
             softmax(s)),
            ("blocked keys still get weight: you added the boolean mask itself (1 = allowed, "
             "0 = blocked) to the scores, which blocks nothing. Turn it into a 0 / -inf bias "
             "first (additive_bias).", softmax(s + m)),
            ("blocked keys still get weight: you set their scores to 0 instead of -inf, and "
             "exp(0) = 1.", softmax(np.where(m, s, 0.0))),
            ("you blocked the allowed keys and kept the blocked ones: here True = may attend "
             "(F.scaled_dot_product_attention), not True = blocked (nn.MultiheadAttention).",
             inverted),
            ("softmax over the wrong axis: normalise over the keys, the last axis (axis=-1), so "
             "that each row sums to 1.", wrong_axis),
        ])
    core.passed("masked_weights: softmax(scores + 0/-inf bias) over the keys; blocked keys get "
                "exactly 0, rows sum to 1, batched and 2-D")


@core.exercise
def check_reversed_causal_mask(reversed_causal_mask) -> None:
    """Exercise: the reversed mask on purpose, the upper triangle with its diagonal."""
    for T in (5, 3):
        name = f"reversed_causal_mask({T})"
        got = _bool_mask(reversed_causal_mask(T), name, (T, T))
        core.compare(got, np.triu(_ones(T, T)), name=name, mistakes=[
            ("that is the correct causal mask (the lower triangle). This exercise asks for the "
             "reversed mask on purpose: the upper triangle, where row i keeps columns i..T-1 "
             "and position 0 reads the future.", causal_mask(T)),
            ("your reversed mask has no diagonal: the last row then has no allowed key (NaN). "
             "Keep columns i..T-1, i included (np.triu with k=0).", np.triu(_ones(T, T), k=1)),
            ("you flipped the causal mask left to right. The reversed mask is its mirror image "
             "across the diagonal (its transpose): row i keeps columns i..T-1.",
             np.fliplr(causal_mask(T))),
        ])
    core.passed("reversed_causal_mask: the upper triangle, diagonal included (wrong on purpose, "
                "ready to be caught)")


def _layers():
    """Input x and attention layers with fixed weights, each with whether it reads the future."""
    rng = np.random.default_rng(7)
    T, d = 5, 6
    x = rng.normal(size=(T, d))
    w_q, w_k, w_v = (rng.normal(size=(d, 4)) / np.sqrt(d) for _ in range(3))

    def layer(mask):
        return lambda x: attention(x @ w_q, x @ w_k, x @ w_v, mask)[0]

    causal = causal_mask(T)
    leak_01, leak_23 = causal.copy(), causal.copy()
    leak_01[0, 1] = True
    leak_23[2, 3] = True
    return x, {
        "causal": (layer(causal), False, ""),
        "previous-token window": (layer(np.eye(T, dtype=bool) | np.eye(T, k=-1, dtype=bool)),
                                  False, ""),
        "reversed": (layer(np.triu(_ones(T, T))), True, "position 0 reads every later token"),
        "no mask": (layer(None), True, "every position reads every other"),
        "one leak 0<-1": (layer(leak_01), True,
                          "the mask is causal except that position 0 may also read position 1"),
        "one leak 2<-3": (layer(leak_23), True,
                          "the mask is causal except that position 2 may also read position 3"),
    }


@core.exercise
def check_reads_future(reads_future) -> None:
    """Exercise: a leakage test, True when an output moves after a later token changes."""
    x, layers = _layers()
    verdicts = {}
    for name, (attend, _, _) in layers.items():
        got = reads_future(attend, x.copy())
        if not isinstance(got, (bool, np.bool_)):
            raise AssertionError(
                f"reads_future: return True (the layer reads the future) or False; got {got!r} "
                f"of type {type(got).__name__}"
            )
        verdicts[name] = bool(got)
    if not any(verdicts.values()):
        raise AssertionError(
            "reads_future: your detector never fires: it lets the reversed mask pass, though "
            "with it position 0 reads every later token. Perturb a later token j (on a copy of "
            "x), recompute, and report a leak when an output before j moved."
        )
    if all(verdicts.values()):
        raise AssertionError(
            "reads_future: your detector always fires: it flags even the correct causal mask. "
            "When token j changes, outputs j, j+1, ... may move (they are allowed to read j); "
            "only the outputs before j must stay put, so compare those alone."
        )
    for name, (_, leaks, how) in layers.items():
        if verdicts[name] and not leaks:
            raise AssertionError(
                f"reads_future: false alarm on a layer with the {name} mask, which never reads "
                "the future. When token j changes, compare only the outputs before j."
            )
        if leaks and not verdicts[name]:
            raise AssertionError(
                f"reads_future: your detector missed a leak ({name}): {how}. Perturb every later "
                "token j = 1..T-1, not only the last one, and compare every output before j, "
                "not only output 0."
            )
    core.passed("reads_future: flags the reversed mask, no mask and single leaks; passes the "
                "causal and previous-token masks")


@core.exercise
def check_batch_mask(batch_mask) -> None:
    """Exercise: batch_mask(lengths, T, causal) -> (B, T, T) key padding (& causal) mask."""
    lengths, T = [5, 3, 1], 5
    B = len(lengths)
    keys = padding_mask(lengths, T)  # (B, T): True = real token
    for causal in (False, True):
        name = f"batch_mask({lengths}, T={T}, causal={causal})"
        got = batch_mask(np.array(lengths), T, causal)
        if got is not None and np.shape(got) == (B, T):
            raise AssertionError(
                f"{name}: return one (T_q, T_k) mask per sequence, shape (B, T, T); your (B, T) "
                "key mask becomes (B, 1, T) with [:, None, :] and broadcasts over the query rows."
            )
        got = _bool_mask(got, name, (B, T, T))
        tri = causal_mask(T) if causal else _ones(T, T)
        other = _ones(T, T) if causal else causal_mask(T)
        flag = (
            "causal=True: combine (&) the key mask with causal_mask(T); yours lets real tokens "
            "read the future." if causal else
            "causal=False asks for the padding mask alone (a bidirectional encoder): do not add "
            "the causal triangle."
        )
        core.compare(got, tri & keys[:, None, :], name=name, mistakes=[
            ("masking queries instead of keys: padding must block the key columns j >= length "
             "(what may be read) in every row; you blocked the query rows i >= length instead.",
             tri & keys[:, :, None]),
            ("you masked the padded query rows as well as the keys: those rows then have no "
             "allowed key at all and softmax gives NaN. Mask the keys only; a padded query's "
             "output is dropped or zeroed afterwards.", tri & keys[:, None, :] & keys[:, :, None]),
            ("your padding mask is inverted: True marks real tokens (may attend); you blocked "
             "the real tokens and allowed the padding.", tri & ~keys[:, None, :]),
            (flag, other & keys[:, None, :]),
        ])
    core.passed("batch_mask: key padding broadcast over the query rows, with and without the "
                "causal triangle, lengths [5, 3, 1]")


@core.exercise
def check_safe_attention(safe_attention) -> None:
    """Exercise: attention where a query with no allowed key outputs zeros, not NaN."""
    rng = np.random.default_rng(5)
    B, T, d = 2, 5, 4
    q, k, v = (rng.normal(size=(B, T, d)) for _ in range(3))
    left = padding_mask([5, 3], T)[:, ::-1]  # (B, T) left padding: pads first
    mask = causal_mask(T)[None] & left[:, None, :]  # sequence 1, rows 0 and 1: no allowed key
    dead = ~mask.any(axis=-1)  # (B, T)
    rows = [tuple(int(i) for i in r) for r in np.argwhere(dead)]

    def zeroed(out, w):
        return np.where(dead[..., None], 0.0, out), np.where(dead[..., None], 0.0, w)

    out_ref, w_ref = zeroed(*attention(q, k, v, mask | dead[..., None]))
    out_all, w_all = attention(q, k, v, mask | dead[..., None])
    out_self, w_self = attention(q, k, v, mask | (np.eye(T, dtype=bool) & dead[..., None]))
    with np.errstate(invalid="ignore"):
        w_nan = softmax(np.where(mask, q @ np.swapaxes(k, -1, -2) / np.sqrt(d), -np.inf))
        out_nan = w_nan @ v

    name = "safe_attention"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = safe_attention(q.copy(), k.copy(), v.copy(), mask.copy())
        except ValueError as error:
            raise AssertionError(
                f"{name}: your function raised ValueError ({error}). attention() refuses a "
                "query row with no allowed key: find those rows first (~mask.any(axis=-1)) and "
                "handle them before calling it."
            ) from None
    if not (isinstance(result, tuple) and len(result) == 2):
        raise AssertionError(f"{name}: return the pair (out, weights), like attention()")
    for got, want, nan, everywhere, itself, what in [
        (result[0], out_ref, out_nan, out_all, out_self, "out"),
        (result[1], w_ref, w_nan, w_all, w_self, "weights"),
    ]:
        core.compare(got, want, name=f"{name} {what}", mistakes=[
            (f"the query rows with no allowed key, (batch, row) = {rows}, are NaN: with every "
             "key blocked, softmax computes 0/0. Find those rows (~mask.any(axis=-1)) and give "
             "them zero weights and a zero output.", nan),
            ("the rows with no allowed key still read the values: you let them attend to every "
             "key but did not zero their weights and output afterwards.", everywhere),
            ("the rows with no allowed key still read a value: you let them attend to "
             "themselves but did not zero their weights and output afterwards.", itself),
        ])
    if caught:
        raise AssertionError(
            f"{name}: the values are right, but your function emitted "
            f"{caught[0].category.__name__}: {caught[0].message}. It computed 0/0 before "
            "cleaning up; find the rows with no allowed key first (or silence the step on "
            "purpose with np.errstate(invalid='ignore'))."
        )
    out2, w2 = safe_attention(q[0], k[0], v[0], causal_mask(T))
    ref2, wref2 = attention(q[0], k[0], v[0], causal_mask(T))
    core.compare(out2, ref2, name=f"{name} out, 2-D causal mask (every row has a key)")
    core.compare(w2, wref2, name=f"{name} weights, 2-D causal mask (every row has a key)")
    core.passed(f"safe_attention: rows {rows} (no allowed key) get zero weights and output, "
                "no NaN, no warning; every other row equals attention()")
