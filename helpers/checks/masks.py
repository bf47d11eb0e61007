"""Checks for lesson 04 (masks): the causal mask, masked weights, the reversed mask on purpose,
a leakage test that catches it, padding combined with causal, and queries with no allowed key.

Every check calls the student's function through `core.call` (an input changed in place is
named), names the anticipated mistakes first (ids "masks.<kebab-case>"), then checks the
properties of the answer in teaching order (a mask is boolean, keeps the diagonal, keeps the
past, blocks the future; weights are finite, non-negative, zero where blocked, rows sum to 1),
then compares with the reference with named axes and sizes, so that an unlisted mistake still
meets the property it breaks.
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
    "position 0 reads the future. Row i keeps columns 0..i, the lower triangle."
)
MASK_BUILDERS = ("helpers.masks.causal_mask", "helpers.masks.sliding_window_mask")


def _ones(*shape) -> np.ndarray:
    return np.ones(shape, dtype=bool)


_same = core.matches
_judge = core.judge


def _first(where: np.ndarray) -> tuple:
    return tuple(int(i) for i in np.argwhere(where)[0])


def _bool_mask(got, name: str, shape: tuple, *, earlier=None, right=None) -> np.ndarray:
    """The student's mask as a NumPy bool array of `shape`, or a CheckFailed saying why not.

    earlier: the shape of an earlier case, or a list of them: a mask of such a shape on a case
    of another size points at a hard-coded size.
    """
    if isinstance(earlier, tuple):
        earlier = [earlier]
    if got is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    got = got.detach().cpu().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    if got.dtype != np.bool_:
        if got.dtype.kind == "f" and np.isneginf(got).any():
            core.fail(
                f"{name}: you returned an additive bias (0 / -inf floats). Return the boolean "
                "mask itself, True = may attend; additive_bias turns it into the bias later.",
                "masks.additive-bias")
        note = ""
        if (right is not None and got.shape == shape and got.dtype.kind in "fiu"
                and np.array_equal(got, right)):
            note = " Your 1s and 0s are in the right places: make them booleans."
        core.fail(
            f"{name}: return a boolean array (True = may attend); got dtype {got.dtype}. "
            f"np.ones(..., dtype=bool) or a comparison such as j <= i gives booleans.{note}",
            "masks.not-boolean")
    if got.shape != shape:
        smaller = got.ndim == len(shape) and all(
            g <= s for g, s in zip(got.shape, shape, strict=True))
        if earlier and (got.shape in earlier or smaller):
            why = "the shape of an earlier case" if got.shape in earlier else (
                "smaller than asked, though the earlier cases were right")
            core.fail(f"{name}: expected shape {shape}, got shape {got.shape}, {why}: is a "
                      "size hard-coded (a mask built once for one T, then "
                      "sliced) instead of read from the arguments? The mask must work for any "
                      "T.", "masks.hard-coded-size")
        core.fail(f"{name}: expected shape {shape}, got shape {got.shape}", "masks.mask-shape")
    return got


def _triangle_properties(name: str, T: int, *, keep: str):
    """Keeps the diagonal, keeps `keep` ("past" or "future"), blocks the other side."""
    i, j = np.indices((T, T))
    kept, blocked = (j < i, j > i) if keep == "past" else (j > i, j < i)
    other = "future" if keep == "past" else "past"

    def diagonal(got):
        got = got.astype(bool)
        bad = ~got & (i == j)
        if bad.any():
            core.fail(f"{name}: your mask blocks the diagonal (first at row {_first(bad)[0]}): "
                      "position i may read itself, and a row with no allowed key gives a "
                      "softmax of 0/0 = NaN. Keep column i in row i.", "masks.blocks-diagonal")

    def kept_side(got):
        got = got.astype(bool)
        bad = ~got & kept
        if bad.any():
            r, c = _first(bad)
            core.fail(f"{name}: row {r} blocks column {c}, which is in the {keep} (j "
                      f"{'<' if keep == 'past' else '>'} i): row i keeps every column "
                      f"{'0..i' if keep == 'past' else 'i..T-1'}, not only some of them.",
                      "masks.blocks-past" if keep == "past" else "masks.blocks-future")

    def blocked_side(got):
        got = got.astype(bool)
        bad = got & blocked
        if bad.any():
            r, c = _first(bad)
            core.fail(f"{name}: row {r} allows column {c}, which is in the {other} (j "
                      f"{'>' if keep == 'past' else '<'} i): "
                      + ("that query reads a later token, the leak a causal mask exists to "
                         "stop." if keep == "past" else
                         "the reversed mask keeps only columns i..T-1."),
                      "masks.reads-future" if keep == "past" else "masks.reads-past")

    return (diagonal, kept_side, blocked_side)


def _fresh_lengths(rng, visible: tuple) -> tuple:
    """When grading, two sequence lengths the visible cases do not use; else none."""
    if not core.grading():
        return ()
    return tuple(int(t) for t in rng.choice([t for t in range(2, 17) if t not in visible], 2,
                                            replace=False))


# ---------------------------------------------------------------- Exercise 1: causal mask


@core.exercise
def check_causal_mask(my_causal_mask) -> None:
    """Exercise: my_causal_mask(T) -> (T, T) bool, row i keeps columns 0..i.

    Rule: built without helpers.masks.causal_mask (or sliding_window_mask). Cases T = 5, 3, 8,
    1 (T = 8 is larger than the setup's T = 5: a mask built for T = 5 and sliced fails there).
    In order: boolean, shape (T, T), the named mistakes (reversed, no diagonal, previous token
    only, inverted, all True), then keeps the diagonal, keeps the past, blocks the future.
    """
    core.forbid(my_causal_mask, MASK_BUILDERS, name="my_causal_mask",
                why="Build the mask yourself with NumPy: causal_mask is the check's reference.")
    earlier = []
    for T in (5, 3, 8, 1) + _fresh_lengths(core.rng(1), (5, 3, 8, 1)):
        name = f"my_causal_mask({T})"
        want = causal_mask(T)
        result = core.call(my_causal_mask, T, name="my_causal_mask", returns="numpy bool")
        got = _bool_mask(result, name, (T, T),
                         earlier=earlier, right=want)
        earlier.append((T, T))
        lower = np.tril(_ones(T, T))
        _judge(got, want, name=name, mistakes=[
            ("masks.reversed-causal", REVERSED, np.triu(_ones(T, T))),
            ("masks.excludes-diagonal",
             "your mask excludes the diagonal: position i may not read itself, and row 0 has no "
             "allowed key at all, so its softmax is 0/0 = NaN. Row i keeps columns 0..i, i "
             "included.", np.tril(_ones(T, T), k=-1)),
            ("masks.previous-token-only",
             "causal does not mean only the previous token: row i keeps every column 0..i, the "
             "whole known prefix, so the last row reads all T positions.",
             np.eye(T, dtype=bool) | np.eye(T, k=-1, dtype=bool)),
            ("masks.previous-token-only",
             "causal does not mean only the previous token: row i keeps every column 0..i, "
             "itself included.", np.eye(T, k=-1, dtype=bool)),
            ("masks.diagonal-only",
             "your mask keeps only the diagonal: each position reads itself and nothing "
             "before it. Row i keeps every column 0..i, the whole known prefix.",
             np.eye(T, dtype=bool)),
            ("masks.inverted",
             "your mask is inverted: True marks the blocked future (nn.MultiheadAttention's "
             "convention). Here True = may attend (F.scaled_dot_product_attention's).", ~lower),
            ("masks.flipped-triangle",
             "your triangle is flipped upside down: row 0 keeps every column and the last row "
             "only column 0. Row i keeps columns 0..i: row 0 reads only itself, the last row "
             "reads everything.", np.flipud(lower)),
            ("masks.flipped-triangle",
             "your triangle is flipped left to right: row i keeps the LAST i + 1 columns. Row "
             "i keeps columns 0..i, the first i + 1.", np.fliplr(lower)),
            ("masks.blocks-nothing",
             "your mask allows every key and blocks nothing: every position reads the future.",
             _ones(T, T)),
        ], properties=_triangle_properties(name, T, keep="past"),
            axes=("T_q", "T_k"), sizes=dict(T=T))
    core.passed("my_causal_mask: row i keeps columns 0..i (lower triangle, diagonal included), "
                "T = 5, 3, 8, 1")


# ---------------------------------------------------------------- Exercise 2: masked weights


def _weights_properties(name: str, mask: np.ndarray, scores: np.ndarray | None = None):
    """Properties of masked attention weights, in teaching order, for _judge.

    scores: when given, a row whose allowed keys all underflow in softmax(scores) (a blocked
    score far above them) and comes out NaN or all 0 names the softmax-then-mask mistake.
    """
    if scores is not None:
        with np.errstate(all="ignore"):
            lost = (softmax(scores) * mask).sum(axis=-1) == 0  # (..., T_q)
    else:
        lost = np.zeros(mask.shape[:-1], dtype=bool)

    def after_softmax(got):
        if got.shape != mask.shape or not lost.any():
            return
        with np.errstate(all="ignore"):
            broken = lost & (~np.isfinite(got).all(axis=-1) | (np.abs(got).sum(axis=-1) < 1e-12))
        if not broken.any():
            return
        where = _first(broken)
        row_s, row_m = scores[where], mask[where]
        what = "NaN" if np.isnan(got[where]).any() else "all 0"
        row = where[0] if len(where) == 1 else where
        core.fail(f"{name}: row {row} of your weights is {what}: you masked after the "
                  "softmax and renormalised. In that row a blocked key "
                  f"scores {row_s[~row_m].max():.4g} and the allowed ones at most "
                  f"{row_s[row_m].max():.4g}, so softmax gives every allowed key exp(-"
                  f"{row_s[~row_m].max() - row_s[row_m].max():.4g}) = 0 (underflow): the "
                  "masked row is all 0 and renormalising it is 0/0. Block before the softmax "
                  "instead: add the 0 / -inf bias (additive_bias(mask)) to the scores, so that "
                  "it normalises over the allowed keys only.", "masks.renormalised-underflow")

    def shape(got):
        core.require(got.shape == mask.shape,
                     f"{name}: the weights must have the scores' shape {mask.shape} (..., "
                     f"T_q, T_k); got {got.shape}.", "masks.weights-shape")

    def finite(got):
        if np.isfinite(got).all():
            return
        where = _first(~np.isfinite(got))
        core.fail(f"{name}: your weights contain NaN or inf (first at {where}), though every "
                  "row has an allowed key: exp of a large score overflows (subtract each row's "
                  "max before exp; softmax does), or -inf - (-inf) made NaN.", "masks.overflow")

    def non_negative(got):
        core.require((got >= 0).all(),
                     f"{name}: some weights are negative ({got.min():.3g}): weights come from "
                     "exp, which is never negative. Mask the scores, not the weights.",
                     "masks.negative-weights")

    def blocked_zero(got):
        bad = ~mask & (np.abs(got) > 1e-12)
        if bad.any():
            where = _first(bad)
            core.fail(f"{name}: blocked key {where[-1]} of row {where[:-1]} gets weight "
                      f"{got[where]:.3g}: a blocked key must get exactly 0. Give its score "
                      "-inf before the softmax (exp(-inf) = 0); a finite penalty leaves some "
                      "weight.", "masks.blocked-key-weight")

    def rows_sum_to_one(got):
        sums = got.sum(axis=-1)
        if not np.allclose(sums, 1.0):
            where = _first(~np.isclose(sums, 1.0))
            core.fail(f"{name}: row {where} of your weights sums to {sums[where]:.4g}, not 1: "
                      "the blocked keys are 0, but the allowed ones were not renormalised. "
                      "Block before the softmax, so that it normalises over the allowed keys "
                      "only.", "masks.rows-not-normalised")

    return (shape, after_softmax, finite, non_negative, blocked_zero, rows_sum_to_one)


def _naive_masked(s, m):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s) * m
        return e / e.sum(axis=-1, keepdims=True)


@core.exercise
def check_masked_weights(masked_weights) -> None:
    """Exercise: masked_weights(scores, mask) = softmax(scores + 0/-inf bias) over the keys.

    Cases: a (2, 4, 5) batch (padding in one sequence, a shifted triangle in the other), a
    (4, 4) causal mask, (3, 4) scores of ±1000 with the largest score blocked, and (3, 4)
    scores where a blocked score is ~750 above the allowed ones (softmax, then mask and
    renormalise, gives 0/0 there). Named first, then: shape, no row lost to masking after the
    softmax, finite, non-negative, blocked keys exactly 0, rows sum to 1, the values.
    """
    rng = core.rng(4)
    scores = rng.normal(size=(2, 4, 5)) * 2  # (B, T_q, T_k)
    mask = np.stack([
        np.broadcast_to(padding_mask([3], 5), (4, 5)),  # keys 0..2 only
        np.tril(_ones(4, 5), k=1),  # row i keeps 0..i+1
    ])
    large = np.array([[1000.0, 999.0, 1001.0, -1000.0],
                      [-1000.0, -1001.0, -999.0, -1002.0],
                      [998.0, 1000.0, 1003.0, 999.0]])  # (T_q=3, T_k=4)
    large_mask = np.array([[1, 1, 0, 1], [1, 1, 0, 1], [1, 1, 0, 0]], dtype=bool)
    # a blocked score ~750 above the allowed ones (exp of each stays finite): softmax, then
    # mask, leaves the row all 0, since exp(-750) underflows
    far = np.array([[700.0, -50.0, -52.0, -49.5], [-48.0, -51.0, 705.0, -50.0],
                    [0.5, 2.0, -1.0, 1.0]])
    far_mask = np.array([[0, 1, 1, 1], [1, 1, 0, 1], [1, 0, 1, 1]], dtype=bool)
    for s, m in [(scores, mask), (scores[0, :, :4], causal_mask(4)), (large, large_mask),
                 (far, far_mask)]:
        name = f"masked_weights(scores {s.shape}, mask {m.shape})"
        with np.errstate(all="ignore"):
            got = core.call(masked_weights, s, m, name="masked_weights")
        after = softmax(s) * m
        sums = ", ".join(f"{t:.2f}" for t in after.sum(axis=-1).ravel()[:3])
        with np.errstate(invalid="ignore"):  # rows made all -inf by the mistake give NaN
            inverted = softmax(np.where(m, -np.inf, s))
            wrong_axis = softmax(s + additive_bias(m), axis=-2)
        axes = ("B", "T_q", "T_k")[-s.ndim:]
        _judge(got, softmax(s + additive_bias(m)), name=name, mistakes=[
            ("masks.mask-after-softmax",
             f"masking after softmax: the blocked keys are 0 but the rows now sum to {sums}, "
             "..., not 1. Add the -inf bias to the scores before softmax (or renormalise each "
             "row).", after),
            ("masks.zero-bias",
             "blocked keys still get weight: a bias of 0 where a key is blocked changes nothing "
             "(0 instead of -inf). A blocked key needs -inf, so that exp gives exactly 0.",
             softmax(s)),
            ("masks.added-boolean",
             "blocked keys still get weight: you added the boolean mask itself (1 = allowed, "
             "0 = blocked) to the scores, which blocks nothing. Turn it into a 0 / -inf bias "
             "first (additive_bias).", softmax(s + m)),
            ("masks.blocked-score-zero",
             "blocked keys still get weight: you set their scores to 0 instead of -inf, and "
             "exp(0) = 1.", softmax(np.where(m, s, 0.0))),
            ("masks.inverted",
             "you blocked the allowed keys and kept the blocked ones: here True = may attend "
             "(F.scaled_dot_product_attention), not True = blocked (nn.MultiheadAttention).",
             inverted),
            ("masks.softmax-wrong-axis",
             "softmax over the wrong axis: normalise over the keys, the last axis (axis=-1), so "
             "that each row sums to 1.", wrong_axis),
            ("masks.overflow",
             "your weights are NaN on scores of ±1000: exp(1000) overflows to inf and "
             "exp(-1000) underflows to 0, so a row gives inf/inf or 0/0. Subtract each row's "
             "max before exp (softmax does that for you).", _naive_masked(s, m)),
        ], properties=_weights_properties(name, m, s), axes=axes,
            sizes=dict(zip(axes, s.shape, strict=True)), factors={"T_k": s.shape[-1]})
    core.passed("masked_weights: softmax(scores + 0/-inf bias) over the keys; blocked keys get "
                "exactly 0, rows sum to 1, batched, 2-D and at ±1000")


# ------------------------------------------------------ Exercise 3: reversed mask, on purpose


@core.exercise
def check_reversed_causal_mask(reversed_causal_mask) -> None:
    """Exercise: the reversed mask on purpose, the upper triangle with its diagonal.

    Cases T = 5, 3, 6. In order: boolean, shape, the named mistakes (the correct mask, no
    diagonal, flipped left-right or upside down), then keeps the diagonal, keeps
    the future, blocks the past.
    """
    earlier = None
    for T in (5, 3, 6) + _fresh_lengths(core.rng(2), (5, 3, 6)):
        name = f"reversed_causal_mask({T})"
        want = np.triu(_ones(T, T))
        got = _bool_mask(core.call(reversed_causal_mask, T, name="reversed_causal_mask"), name,
                         (T, T), earlier=earlier, right=want)
        earlier = (T, T)
        _judge(got, want, name=name, mistakes=[
            ("masks.wrote-correct-mask",
             "that is the correct causal mask (the lower triangle). This exercise asks for the "
             "reversed mask on purpose: the upper triangle, where row i keeps columns i..T-1 "
             "and position 0 reads the future.", causal_mask(T)),
            ("masks.reversed-no-diagonal",
             "your reversed mask drops the diagonal: position i may read itself, so row i keeps "
             "columns i..T-1, the diagonal included (without it the last row has no allowed "
             "key, and softmax gives NaN). np.triu with k=1, or negating the causal mask "
             "(~causal), removes the diagonal too: the reversed mask is the causal mask's "
             "transpose, not its negation.", np.triu(_ones(T, T), k=1)),
            ("masks.flipped-not-transposed",
             "you flipped the causal mask left to right. The reversed mask is its mirror image "
             "across the diagonal (its transpose): row i keeps columns i..T-1.",
             np.fliplr(causal_mask(T))),
            ("masks.flipped-not-transposed",
             "you flipped the causal mask upside down. The reversed mask is its mirror image "
             "across the diagonal (its transpose): row i keeps columns i..T-1.",
             np.flipud(causal_mask(T))),
        ], properties=_triangle_properties(name, T, keep="future"),
            axes=("T_q", "T_k"), sizes=dict(T=T))
    core.passed("reversed_causal_mask: the upper triangle, diagonal included (wrong on purpose, "
                "ready to be caught), T = 5, 3, 6")


# ---------------------------------------------------------------- Exercise 4: the leakage test


class _Recorder:
    """An attention layer that remembers every input it was given (to explain a miss)."""

    def __init__(self, fn):
        self.fn, self.inputs = fn, []

    def __call__(self, x):
        try:
            self.inputs.append(np.array(x, dtype=float, copy=True))
        except (TypeError, ValueError, RuntimeError):
            pass
        return self.fn(x)

    def changed_rows(self, x) -> list[set]:
        """For each call on an input of x's shape, the set of rows (tokens) that differ."""
        return [set(np.flatnonzero((inp != x).any(axis=-1)).tolist())
                for inp in self.inputs if inp.shape == x.shape]


def _layers():
    """Input x and layers with fixed weights: name -> (layer, reads the future?, how)."""
    rng = core.rng(7)
    T, d = 5, 6
    x = rng.normal(size=(T, d))
    w_q, w_k, w_v = (rng.normal(size=(d, 4)) / np.sqrt(d) for _ in range(3))

    def layer(mask):
        return lambda x: attention(x @ w_q, x @ w_k, x @ w_v, mask)[0]

    def previous_token_only(x):  # output i is token i-1 projected; output 0 is zero
        x = np.asarray(x, dtype=float)
        return np.concatenate([np.zeros((1, x.shape[-1])), x[:-1]]) @ w_v

    causal = causal_mask(T)

    def leak(i, j):
        m = causal.copy()
        m[i, j] = True
        return m

    return x, {
        "causal": (layer(causal), False, ""),
        "previous-token window": (layer(np.eye(T, dtype=bool) | np.eye(T, k=-1, dtype=bool)),
                                  False, ""),
        "own-token (diagonal)": (layer(np.eye(T, dtype=bool)), False, ""),
        "previous-token-only": (previous_token_only, False, ""),
        "reversed": (layer(np.triu(_ones(T, T))), True, "position 0 reads every later token"),
        "no mask": (layer(None), True, "every position reads every other"),
        "one leak 0<-1": (layer(leak(0, 1)), True,
                          "the mask is causal except that position 0 may also read position 1"),
        "one leak 2<-3": (layer(leak(2, 3)), True,
                          "the mask is causal except that position 2 may also read position 3"),
        "one leak 3<-4": (layer(leak(3, 4)), True,
                          "the mask is causal except that position 3 may also read position "
                          "4, the last token"),
        "one leak 0<-4": (layer(leak(0, 4)), True,
                          "the mask is causal except that position 0 may also read position "
                          "4, four tokens ahead"),
    }


def _miss_cause(rows_changed: list[set], T: int, verdicts: dict):
    """(id, sentence) for why a detector missed a leak, from what it fed the layers."""
    single = set().union(*[r for r in rows_changed if len(r) == 1]) if rows_changed else set()
    later = set(range(1, T))
    if single and single == {T - 1}:
        return ("masks.perturbs-only-last",
                f"You changed only the last token ({T - 1}); a leak from token 1, 2, ... goes "
                "unseen. Perturb every later token j = 1..T-1, one at a time.")
    singles = sum(len(r) == 1 for r in rows_changed)
    if single == {1} and singles <= len(verdicts):
        return ("masks.early-return",
                "You changed only token j = 1, the first later token, and no other, once per "
                "layer: does your loop return inside its first iteration (a `return` of the "
                "comparison itself, or an else: return False)? Return True as soon as a leak "
                "is found, but return False only after the loop, once every j = 1..T-1 was "
                "tried.")
    if len(single) == 1:
        return ("masks.skips-tokens",
                f"You changed only token {min(single)}; a leak from any other later token goes "
                "unseen. Perturb every later token j = 1..T-1, one at a time.")
    if single and T - 1 not in single:
        return ("masks.never-perturbs-last",
                f"You never changed the last token (position {T - 1}): does your loop stop one "
                "short (range(1, T - 1), or len(x) - 1)? j runs over 1..T-1, the last token "
                "included.")
    missing = sorted(later - single)
    if single and missing:
        return ("masks.skips-tokens",
                f"You never changed token(s) {missing}: perturb every later token j = 1..T-1.")
    if verdicts.get("one leak 3<-4") and not verdicts.get("one leak 0<-4"):
        return ("masks.compares-adjacent-only",
                "You seem to compare only the output just before j: compare every output "
                "before j (outputs 0..j-1), since a leak can reach far back.")
    if verdicts.get("one leak 0<-1") and not verdicts.get("one leak 2<-3"):
        return ("masks.watches-output-0",
                "You seem to watch only output 0: compare every output before j "
                "(outputs 0..j-1), not only output 0.")
    return ("masks.missed-leak",
            "Perturb every later token j = 1..T-1, not only the last one, and compare every "
            "output before j, not only output 0.")


@core.exercise
def check_reads_future(reads_future) -> None:
    """Exercise: a leakage test, True when an output moves after a later token changes.

    Layers: causal, a previous-token window, own token only, a layer that reads only token
    i-1 (all must give False); reversed, no mask, and causal masks with one leak each: 0<-1,
    2<-3, 3<-4 (from the last token only) and 0<-4 (to a far future position), all True.
    In order: a bool; fires at all; not always; no false alarm; no missed leak. What the
    detector fed the layers (which tokens it changed) explains a miss.
    """
    x, layers = _layers()
    T = len(x)
    verdicts, recorders = {}, {}
    for name, (attend, _, _) in layers.items():
        recorders[name] = _Recorder(attend)
        got = core.call(reads_future, recorders[name], x, name="reads_future")
        if not isinstance(got, (bool, np.bool_)):
            core.fail(
                f"reads_future: return True (the layer reads the future) or False; got {got!r} "
                f"of type {type(got).__name__}", "masks.not-a-verdict")
        verdicts[name] = bool(got)
    changed = [rows for rec in recorders.values() for rows in rec.changed_rows(x)]

    if not any(verdicts.values()):
        if changed and not any(changed):
            core.fail(
                "reads_future: your detector never fires, and every input it passed to "
                "attend equals x: the change never reached the layer (eps = 0, or a change "
                "made to another array than the one you pass?). Change token j of a copy of "
                "x, then call attend on that copy.", "masks.no-perturbation")
        core.fail(
            "reads_future: your detector never fires: it lets the reversed mask pass, though "
            "with it position 0 reads every later token. Perturb a later token j (on a copy of "
            "x), recompute, and report a leak when an output before j moved.",
            "masks.detector-never-fires")
    whole = [rows for rows in changed if len(rows) > 1]
    if all(verdicts.values()):
        if whole and len(whole) >= len(changed) // 2:
            core.fail(
                "reads_future: your detector always fires, even on the correct causal mask: "
                "each of your changes moves several tokens at once (x[:, j] is feature j of "
                "EVERY token; token j is the row x[j]). Change one token, the row x[j].",
                "masks.perturbs-column")
        core.fail(
            "reads_future: your detector always fires: it flags even the correct causal mask. "
            "When token j changes, outputs j, j+1, ... may move (they are allowed to read j); "
            "only the outputs before j must stay put, so compare those alone.",
            "masks.detector-always-fires")
    if (verdicts["causal"] and verdicts["own-token (diagonal)"]
            and not verdicts["previous-token-only"]):
        core.fail(
            "reads_future: false alarm on the causal mask: you compare output j too. Output "
            "j may read token j, so it moves when token j changes; compare only the outputs "
            "before j (0..j-1).", "masks.includes-output-j")
    if verdicts["causal"] and not verdicts["reversed"]:
        core.fail(
            "reads_future: your detector has the direction backwards: it flags the correct "
            "causal mask and passes the reversed one. It seems to watch the later outputs, "
            "those after j, which may read token j; a leak shows in the earlier outputs, those "
            "before j (0..j-1): compare only those.", "masks.compares-later-outputs")
    for name, (_, leaks, _) in layers.items():
        if verdicts[name] and not leaks:
            core.fail(
                f"reads_future: false alarm on a layer with the {name} mask, which never reads "
                "the future. When token j changes, compare only the outputs before j.",
                "masks.false-alarm")
    for name, (_, leaks, how) in layers.items():
        if leaks and not verdicts[name]:
            diagnosis, cause = _miss_cause(changed, T, verdicts)
            core.fail(f"reads_future: your detector missed a leak ({name}): {how}. {cause}",
                      diagnosis)
    core.passed("reads_future: flags the reversed mask, no mask and single leaks (0<-1, 2<-3, "
                "3<-4 from the last token, 0<-4 far ahead); passes causal, windowed, own-token "
                "and previous-token layers")


# ---------------------------------------------------------------- Exercise 5: batch mask


def _batch_properties(name: str, lengths, T: int, causal: bool):
    B = len(lengths)
    b, i, j = np.indices((B, T, T))
    length = np.asarray(lengths)[b]

    def reads_padding(got):
        got = got.astype(bool)
        bad = got & (j >= length)
        if bad.any():
            s, r, c = _first(bad)
            core.fail(f"{name}: in sequence {s} (length {lengths[s]}), query {r} may read key "
                      f"{c}, a padding position (j >= {lengths[s]}): block the padding keys "
                      "in every query row.", "masks.reads-padding")

    def reads_future(got):
        got = got.astype(bool)
        bad = got & (j > i)
        if causal and bad.any():
            s, r, c = _first(bad)
            core.fail(f"{name}: in sequence {s}, query {r} may read the later key {c}: with "
                      "causal=True combine the padding mask with the causal triangle (&).",
                      "masks.causal-ignored")

    def keeps_real_keys(got):
        got = got.astype(bool)
        want = (j < length) & ((j <= i) if causal else True)
        bad = want & ~got
        if not bad.any():
            return
        s, r, c = _first(bad)
        if (~got & want & (i >= length)).any() and not (~got & want & (i < length)).any():
            core.fail(f"{name}: you blocked the padded query rows as well (sequence {s}, row "
                      f"{r}): those rows then have no allowed key and softmax gives NaN. Mask "
                      "the keys only; a padded query's output is dropped afterwards.",
                      "masks.blocks-padded-queries")
        if not causal and c > r:
            core.fail(f"{name}: sequence {s}, query {r} may not read the real key {c} after "
                      "it: causal=False asks for the padding mask alone (a bidirectional "
                      "encoder), no causal triangle.", "masks.causal-when-not-asked")
        core.fail(f"{name}: sequence {s} (length {lengths[s]}), query {r} may not read key "
                  f"{c}, a real token{' at or before it' if causal else ''}: only padding "
                  f"{'and the future ' if causal else ''}may be blocked.", "masks.blocks-real-key")

    return (reads_padding, reads_future, keeps_real_keys)


@core.exercise
def check_batch_mask(batch_mask) -> None:
    """Exercise: batch_mask(lengths, T, causal) -> (B, T, T) key padding (& causal) mask.

    Cases: lengths [5, 3, 1] at T = 5 and [4, 2] at T = 6 (no sequence fills T), causal False
    and True. In order: shape (B, T, T), boolean, the named mistakes (queries instead of keys,
    padded rows too, inverted, the causal flag ignored or always on, a length off by one),
    then no query reads padding, no future when causal, every other key allowed.
    """
    earlier = None
    cases = [([5, 3, 1], 5), ([4, 2], 6)]
    if core.grading():  # a batch the notebook has not seen
        rng = core.rng(3)
        T = int(rng.choice([t for t in range(2, 10) if t not in (5, 6)]))
        cases.append(([int(n) for n in rng.integers(1, T + 1, size=int(rng.integers(1, 5)))], T))
    for lengths, T in cases:
        B = len(lengths)
        keys = padding_mask(lengths, T)  # (B, T): True = real token
        for causal in (False, True):
            name = f"batch_mask({lengths}, T={T}, causal={causal})"
            got = core.call(batch_mask, np.array(lengths), T, causal, name="batch_mask")
            shape = np.shape(got) if got is not None else None
            if shape == (B, T):
                core.fail(
                    f"{name}: return one (T_q, T_k) mask per sequence, shape (B, T, T); your "
                    "(B, T) key mask needs an axis for the query rows, to broadcast over them.",
                    "masks.key-mask-not-expanded")
            if shape == (B, 1, T):
                core.fail(f"{name}: your (B, 1, T) mask is right as a key mask but the exercise "
                          "asks for it broadcast to (B, T, T) (np.broadcast_to).",
                          "masks.not-broadcast")
            if max(lengths) != T and shape == (B, max(lengths), max(lengths)):
                core.fail(f"{name}: your mask has shape {shape}: you used max(lengths) = "
                          f"{max(lengths)} as the padded length, but the sequences are padded "
                          f"to T = {T}, the argument.", "masks.max-length-as-t")
            tri = causal_mask(T) if causal else _ones(T, T)
            want = tri & keys[:, None, :]
            got = _bool_mask(got, name, (B, T, T), right=want, earlier=earlier)
            other = _ones(T, T) if causal else causal_mask(T)
            flag = (
                ("masks.causal-ignored",
                 "causal=True: combine (&) the key mask with causal_mask(T); yours lets real "
                 "tokens read the future.") if causal else
                ("masks.causal-when-not-asked",
                 "causal=False asks for the padding mask alone (a bidirectional encoder): do "
                 "not add the causal triangle.")
            )
            plus_one = np.arange(T)[None, :] <= np.asarray(lengths)[:, None]
            minus_one = np.arange(T)[None, :] < np.asarray(lengths)[:, None] - 1
            _judge(got, want, name=name, mistakes=[
                ("masks.masks-queries",
                 "masking queries instead of keys: you blocked the query rows i >= length "
                 "(rows instead of columns); padding must block the key columns j >= length, "
                 "what may be read, in every row. The (B, T) real-token mask needs its new "
                 "axis for the queries in the middle, (B, 1, T), so that it spreads along the "
                 "query rows and masks the key axis; a (B, T, 1) mask ([:, :, None]) masks the "
                 "query axis instead.", tri & keys[:, :, None]),
                ("masks.blocks-padded-queries",
                 "you masked the padded query rows as well as the keys: those rows then have no "
                 "allowed key at all and softmax gives NaN. Mask the keys only; a padded "
                 "query's output is dropped or zeroed afterwards.",
                 tri & keys[:, None, :] & keys[:, :, None]),
                ("masks.inverted-padding",
                 "your padding mask is inverted: True marks real tokens (may attend); you "
                 "blocked the real tokens and allowed the padding.", tri & ~keys[:, None, :]),
                (*flag, other & keys[:, None, :]),
                *([("masks.or-instead-of-and",
                 "you combined the padding and causal masks with | (or) instead of & (and): "
                 "a union allows a key that either mask allows, so padding keys in the past "
                 "and real keys in the future get through. A key may be read only when both "
                 "allow it: combine with &.", causal_mask(T) | keys[:, None, :])]
                  if causal else []),
                ("masks.length-off-by-one",
                 "your mask lets every query read key j = length, the first padding position: "
                 "an off-by-one. The real tokens of a sequence of length L are 0..L-1 (j < L).",
                 tri & plus_one[:, None, :]),
                ("masks.length-off-by-one",
                 "your mask blocks key L-1, the last real token of each sequence of length L: "
                 "an off-by-one. The real tokens are 0..L-1 (j < L).",
                 tri & minus_one[:, None, :]),
            ], properties=_batch_properties(name, lengths, T, causal),
                axes=("B", "T_q", "T_k"), sizes=dict(B=B, T=T))
        earlier = (B, T, T)
    core.passed("batch_mask: key padding broadcast over the query rows, with and without the "
                "causal triangle, lengths [5, 3, 1] at T = 5 and [4, 2] at T = 6")


# ------------------------------------------------------ Exercise 6: a query with no allowed key


def _safe_cases():
    rng = core.rng(5)
    B, T, d = 2, 5, 4
    q, k, v = (rng.normal(size=(B, T, d)) for _ in range(3))
    left = padding_mask([5, 3], T)[:, ::-1]  # (B, T) left padding: pads first
    batch = causal_mask(T)[None] & left[:, None, :]  # sequence 1, rows 0 and 1: no allowed key
    q2, k2, v2 = rng.normal(size=(3, 4)), rng.normal(size=(6, 4)), rng.normal(size=(6, 3))
    middle = np.array([[1, 0, 1, 1, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 1]], dtype=bool)
    # batched with T_q ≠ T_k (axis 1 is the queries here, the keys only in 2-D), and scores
    # in the hundreds, so that exp overflows unless each row's max is subtracted first
    q3, k3 = rng.normal(size=(2, 3, 4)) * 30, rng.normal(size=(2, 5, 4)) * 30
    v3 = rng.normal(size=(2, 5, 2))
    wide = np.array([[[1, 1, 0, 0, 1], [0, 0, 0, 0, 0], [0, 1, 1, 1, 0]],
                     [[1, 0, 0, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]], dtype=bool)
    return [
        ("left padding & causal, (B, T) = (2, 5)", q, k, v, batch),
        ("T_q = 3, T_k = 6, d_v = 3, row 1 blocked", q2, k2, v2, middle),
        ("2-D causal mask (every row has a key)", q[0], k[0], v[0], causal_mask(T)),
        ("batched, T_q = 3, T_k = 5, scores in the hundreds, row (0, 1) blocked",
         q3, k3, v3, wide),
    ]


def _safe_properties(name: str, what: str, ref: np.ndarray, dead: np.ndarray, rows: list,
                     mask: np.ndarray):
    def no_nan(got):
        live = ~dead
        if got.shape == ref.shape and not np.isfinite(got[live]).all():
            where = _first(~np.isfinite(got) & live[..., None])
            core.fail(f"{name}: your {what} contain NaN or inf at {where}, in a row that has an "
                      "allowed key: exp of a large score overflows to inf (these scores reach "
                      "the hundreds), and inf / inf or inf · 0 is NaN. Subtract each row's "
                      "max allowed score before exp (softmax does that for you), or give the "
                      "blocked keys -inf and use softmax.", "masks.overflow")
        if np.isnan(got).any():
            core.fail(f"{name}: your {what} contain NaN (first at {_first(np.isnan(got))}): "
                      "with every key of a row blocked, softmax computes 0/0. Find those rows "
                      "first (no allowed key anywhere along the keys) and give them zero "
                      "weights and a zero output.", "masks.nan-rows")

    def shape(got):
        core.require(got.shape == ref.shape,
                     f"{name}: {what} should have shape {ref.shape}, like attention()'s; got "
                     f"{got.shape}.", "masks.safe-shape")

    def dead_rows_zero(got):
        bad = dead & np.any(got != 0, axis=-1)
        if bad.any() and what == "weights" and got.shape == ref.shape:
            row = got[dead]  # (n_dead, T_k)
            hot = np.argmax(np.abs(row), axis=-1)
            if np.allclose(row, np.eye(row.shape[-1])[hot]):
                keys = sorted(set(hot.tolist()))
                core.fail(f"{name}: the query rows with no allowed key, {rows}, give all their "
                          f"weight to key {' or '.join(map(str, keys))}: you let them read a "
                          "dummy key so that attention() accepts them, and kept what it read, "
                          f"so they output v_{keys[0]}. Unblocking a key is fine, but zero "
                          "those rows' weights and output afterwards.", "masks.dead-rows-dummy-key")
        if bad.any():
            core.fail(f"{name}: the query rows with no allowed key, {rows}, must get all-zero "
                      f"{what}; row {_first(bad)} does not. Zero those rows after attention.",
                      "masks.dead-row-not-zero")

    def live_rows_match(got):
        live = ~dead
        if what == "weights" and got.shape == ref.shape:
            leaked = live[..., None] & ~mask & (np.abs(got) > 1e-12)
            if leaked.any():
                where = _first(leaked)
                no_query = ~mask.any(axis=-2, keepdims=True)  # keys no query may read
                if np.broadcast_to(no_query, mask.shape)[leaked].all():
                    core.fail(
                        f"{name}: row {where[:-1]} has an allowed key but gives weight to "
                        f"blocked key {where[-1]}, a key that no query may read: you looked for "
                        "the empty key columns, with any() over the queries (axis=-2), instead "
                        "of the empty query rows, with any() over the keys (axis=-1). A row "
                        "has no allowed key when mask.any(axis=-1) is False.",
                        "masks.empty-columns-not-rows")
                core.fail(f"{name}: row {where[:-1]} has an allowed key but gives weight to "
                          f"blocked key {where[-1]}: the fix for the rows with no allowed key "
                          "unblocked keys in other rows too. Change the mask of those rows "
                          "only (mask.any(axis=-1) finds them).", "masks.live-rows-changed")
            sums = got.sum(axis=-1)
            short = live & ~np.isclose(sums, 1.0)
            if short.any():
                where = _first(short)
                no_query = ~mask.any(axis=-2)  # (..., T_k): keys no query may read
                said = (f"{name}: row {where} has an allowed key, but its weights sum to "
                        f"{sums[where]:.4g}, not 1: it was normalised over more keys than its "
                        "mask allows, whose weights were then zeroed.")
                if no_query.any():
                    core.fail(said + " Keys that no query may read are not queries with no "
                              "allowed key: you looked for the empty key columns, with any() "
                              "over the queries (axis=-2), instead of the empty query rows, "
                              "any() over the keys (axis=-1).", "masks.empty-columns-not-rows")
                core.fail(said + " Change the mask of the rows with no allowed key only.",
                          "masks.live-rows-changed")
        if not np.allclose(got[live], ref[live], atol=1e-6, rtol=1e-5):
            core.fail(f"{name}: the rows that have an allowed key must equal attention()'s "
                      f"{what}, and some do not: only the rows with no allowed key may be "
                      "changed (did the fix for them change the mask of every row?).",
                      "masks.live-rows-changed")

    return (no_nan, shape, dead_rows_zero, live_rows_match)


@core.exercise
def check_safe_attention(safe_attention) -> None:
    """Exercise: attention where a query with no allowed key outputs zeros, not NaN.

    Cases: left padding with a causal mask (two dead rows in one sequence), a 2-D case with
    T_q ≠ T_k, d_v ≠ d_k and a dead row in the middle, a 2-D causal mask (no dead row:
    must equal attention()), and a batched (2, 3, 5) mask with scores in the hundreds (axis 1
    is the queries there, and exp overflows unless each row's max is subtracted). Per case:
    a pair (out, weights) in that order, the weights then the output, each with the named
    mistakes (NaN, the dead rows attending everywhere or to themselves, uniform), then no NaN
    or inf in a row that has a key (overflow), no NaN, the shape, dead rows zero, other rows
    equal to attention(); no warning.
    """
    name = "safe_attention"
    for label, q, k, v, mask in _safe_cases():
        tag = f"{name} ({label})"
        dead = ~mask.any(axis=-1)  # (..., T_q)
        rows = [tuple(int(i) for i in r) if r.size > 1 else int(r[0])
                for r in np.argwhere(dead)]
        fixed = mask | dead[..., None]
        out_all, w_all = attention(q, k, v, fixed)
        eye = np.eye(*mask.shape[-2:], dtype=bool)
        out_self, w_self = attention(q, k, v, mask | (eye & dead[..., None]))
        w_ref = np.where(dead[..., None], 0.0, w_all)
        out_ref = np.where(dead[..., None], 0.0, out_all)
        w_uniform = np.where(dead[..., None], 1.0 / mask.shape[-1], w_all)
        with np.errstate(invalid="ignore"):
            w_nan = softmax(np.where(mask, q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]),
                                     -np.inf))
            out_nan = w_nan @ v
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = core.call(safe_attention, q, k, v, mask, name=name)
            except ValueError as error:
                if "no allowed key" not in str(error) and mask.ndim > 2:
                    core.fail(
                        f"{tag}: your function raised ValueError ({error}) on a batched mask of "
                        f"shape {mask.shape} (B, T_q, T_k). Count the axes from the end, so that "
                        "any leading (batch) axes fit: the keys are axis -1 and the queries "
                        "axis -2 whatever comes before them (axis=1 is the keys of a 2-D mask "
                        "but the queries of a batched one). A row has no allowed key when "
                        "mask.any(axis=-1) is False.", "masks.axis-from-the-front")
                core.fail(
                    f"{tag}: your function raised ValueError ({error}). attention() refuses a "
                    "query row with no allowed key: find those rows first and hand attention() "
                    "a mask it accepts.", "masks.attention-refuses-dead-row")
        got_out, got_w = core.unpack(result, ("out", "weights"), name=tag)
        a, b = core.as_array(got_out, f"{tag}: out"), core.as_array(got_w, f"{tag}: weights")
        if (_same(a, w_ref) and _same(b, out_ref)) and not _same(a, out_ref):
            core.fail(f"{tag}: you returned (weights, out); return (out, weights), in that "
                      "order, like attention().", "masks.pair-order")
        w_axes = ("B", "T_q", "T_k")[-mask.ndim:]
        _judge(b, w_ref, name=f"{tag}: weights", mistakes=[
            ("masks.nan-rows",
             f"the query rows with no allowed key, {rows}, are NaN: with every key blocked, "
             "softmax computes 0/0. Find those rows and give them zero weights and a zero "
             "output.", w_nan),
            ("masks.dead-rows-read-everything",
             f"the rows with no allowed key, {rows}, still read the values: you let them attend "
             "to every key, which avoids the NaN, but their weights and output were not zeroed "
             "afterwards. Those rows must get all-zero weights and an all-zero output.", w_all),
            ("masks.dead-rows-read-self",
             "the rows with no allowed key still read a value: you let them attend to "
             "themselves but did not zero their weights and output afterwards.", w_self),
            ("masks.dead-rows-uniform",
             f"the rows with no allowed key, {rows}, got uniform weights 1/T_k (every score "
             "equal): they must get all-zero weights, and a zero output.", w_uniform),
        ], properties=_safe_properties(f"{tag}: weights", "weights", w_ref, dead, rows,
                                       mask),
            axes=w_axes, sizes=dict(zip(w_axes, mask.shape, strict=True)),
            factors={"T_k": mask.shape[-1], "√d_k": np.sqrt(q.shape[-1])})
        o_axes = w_axes[:-1] + ("d_v",)
        out_mistakes = [
            ("masks.output-not-zeroed",
             "your weights are right (zero for the rows with no allowed key), but those rows' "
             "output still reads the values: you computed the output before zeroing the "
             "weights. Zero the output of those rows too.", out_all),
            ("masks.output-not-zeroed",
             "your weights are right, but the rows with no allowed key still output a value "
             "(their own): zero the output of those rows too.", out_self),
            ("masks.nan-rows",
             f"your output rows {rows} (no allowed key) are NaN: zero them.", out_nan),
        ]
        if k.shape == v.shape:
            out_mistakes.append((
                "masks.swapped-k-v",
                "your output is weights @ k, the weighted sum of the KEYS: the output averages "
                "the values, like attention()'s.", w_ref @ k))
        _judge(a, out_ref, name=f"{tag}: out", mistakes=out_mistakes,
               properties=_safe_properties(f"{tag}: out", "output", out_ref, dead, rows, mask),
               axes=o_axes, sizes=dict(zip(o_axes, out_ref.shape, strict=True)),
               factors={"T_k": mask.shape[-1], "√d_k": np.sqrt(q.shape[-1])})
        if caught:
            core.fail(
                f"{tag}: the values are right, but your function emitted "
                f"{caught[0].category.__name__}: {caught[0].message}. It computed 0/0 before "
                "cleaning up; find the rows with no allowed key first (or silence the step on "
                "purpose with np.errstate(invalid='ignore')).", "masks.warning")
    core.passed("safe_attention: rows with no allowed key get zero weights and output, no NaN, "
                "no warning; every other row equals attention(), batched, T_q ≠ T_k and 2-D")
