"""Checks for lesson 02, one attention row by hand (`from helpers.checks import one_row`).

Each check runs the student's function on fixed inputs, compares with the reference
(`helpers.attention`) and, on a wrong answer, names the misconception: forgot the scale,
scaled by d_k instead of √d_k, softmax over the wrong axis, swapped K and V, no max
subtraction (overflow), a mask applied the wrong way.
"""

from __future__ import annotations

import math

import numpy as np

from helpers.attention import attention, softmax
from helpers.attention import scores as qk_scores
from helpers.checks import core
from helpers.examples import WK as _WK
from helpers.examples import WORKED_X as _X
from helpers.examples import WQ as _WQ
from helpers.examples import WV as _WV
from helpers.masks import causal_mask

# ---------------------------------------------------------------- small shared pieces


def _rand(seed: int, *shape: int, spread: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).normal(scale=spread, size=shape)


def _masked(scores, mask):
    return scores if mask is None else np.where(mask, scores, -np.inf)


def _require_function(fn, name: str) -> None:
    if not callable(fn):
        raise AssertionError(f"{name}: pass your function itself, e.g. check(f), not f(...)")


def _pair(result, name: str):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise AssertionError(
            f"{name}: return two things, a tuple (first, second) as the exercise says; "
            f"got {type(result).__name__}"
            + (f" of length {len(result)}" if isinstance(result, (tuple, list)) else "")
        )
    return result


def _quiet(fn, *args):
    """Call fn with NumPy's overflow/invalid warnings silenced: the check explains instead."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        return fn(*args)


def _naive_softmax(s, axis=-1):
    """softmax without subtracting the max (the overflow mistake), warnings silenced."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s)
        return e / e.sum(axis=axis, keepdims=True)


def _global_max_softmax(s):
    """Subtracting the max of the whole array instead of each row's (underflow mistake)."""
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        e = np.exp(s - s.max())
        return e / e.sum(axis=-1, keepdims=True)


# ---------------------------------------------------------------- exercise 1


@core.exercise
def check_scaled_scores(student_fn) -> None:
    """scaled_scores(q, k) -> (T_q, T_k) = q kᵀ / √d_k."""
    _require_function(student_fn, "scaled_scores")
    cases = [(_rand(1, 3, 4), _rand(2, 5, 4)), (_rand(3, 2, 16), _rand(4, 3, 16))]
    for n, (q, k) in enumerate(cases, 1):
        (t_q, d_k), t_k = q.shape, k.shape[0]
        root = math.sqrt(d_k)
        got = student_fn(q.copy(), k.copy())
        raw = q @ k.T
        core.compare(
            got,
            raw / root,
            name=f"scaled_scores (case {n}: q {q.shape}, k {k.shape})",
            mistakes=[
                (
                    f"you forgot the scale. Your scores equal q @ k.T; divide them by √d_k "
                    f"= √{d_k} = {root:g}, the square root of the key width k.shape[-1].",
                    raw,
                ),
                (
                    f"you scaled by d_k = {d_k} instead of √d_k = {root:g}. The variance of "
                    "q·k grows like d_k, so its spread (standard deviation) grows like √d_k: "
                    "divide by the square root.",
                    raw / d_k,
                ),
                (
                    f"you multiplied by √d_k = {root:g} instead of dividing: the scale makes "
                    "scores smaller, 1/√d_k.",
                    raw * root,
                ),
                (
                    f"you divided by √T_k = √{t_k}, the number of keys. The scale comes from "
                    f"the key WIDTH d_k = k.shape[-1] = {d_k}, not the number of positions.",
                    raw / math.sqrt(t_k),
                ),
                (
                    f"you divided by √T_q = √{t_q}, the number of queries. The scale comes "
                    f"from the key width d_k = k.shape[-1] = {d_k}.",
                    raw / math.sqrt(t_q),
                ),
                (
                    "your matrix is transposed: you computed k @ q.T, so row j belongs to key "
                    "j. Row i must hold query i's scores against every key: q @ k.T.",
                    (k @ q.T) / root,
                ),
            ],
        )
    core.passed("scaled_scores: q @ k.T / √d_k, shape (T_q, T_k), for d_k = 4 and d_k = 16")


# ---------------------------------------------------------------- exercise 2


@core.exercise
def check_stable_softmax(student_fn) -> None:
    """stable_softmax(s) -> softmax along the last axis, max subtracted, for any leading axes."""
    name = "stable_softmax"
    _require_function(student_fn, name)
    core.forbid(
        student_fn,
        core.SOFTMAX_FUNCTIONS + core.ATTENTION_FUNCTIONS,
        name=name,
        why="Write it yourself with np.exp, .max and .sum; that is the exercise.",
    )
    square = np.round(_rand(5, 3, 3, spread=2.0), 2)
    batch = np.round(_rand(6, 2, 3, 4, spread=2.0), 2)
    batch[0, 1, 3] = -np.inf  # a blocked key: its weight must come out 0
    for n, s in enumerate((square, batch), 1):
        ref = softmax(s, axis=-1)
        mistakes = [
            (
                f"softmax over the wrong axis: your values along axis {axis} sum to 1, but each "
                "ROW (the last axis, one query against every key) must sum to 1. Use axis=-1.",
                softmax(s, axis=axis),
            )
            for axis in range(s.ndim - 1)
        ]
        exp = np.exp(s - s.max(axis=-1, keepdims=True))
        mistakes += [
            (
                "your rows do not sum to 1: you returned exp(s - max) without dividing by each "
                "row's sum.",
                exp,
            ),
            (
                "you divided by the sum of the WHOLE array; softmax divides each row by its own "
                "sum (.sum(axis=-1, keepdims=True)), so that every row sums to 1.",
                exp / exp.sum(),
            ),
        ]
        if s.ndim == 2:
            no_keep = np.exp(s - s.max(axis=-1))
            keepdims_message = (
                "the row max or row sum broadcast along the wrong direction: without "
                "keepdims=True, s.max(axis=-1) and .sum(axis=-1) have shape (T,) and NumPy "
                "lines them up with the COLUMNS. Use keepdims=True so each stays a column, "
                "one number per row."
            )
            mistakes += [
                (keepdims_message, softmax(s - s.max(axis=-1), axis=-1)),
                (keepdims_message, exp / exp.sum(axis=-1)),
                (keepdims_message, no_keep / no_keep.sum(axis=-1)),
            ]
        core.compare(
            student_fn(s.copy()), ref, name=f"{name} (case {n}: shape {s.shape})", mistakes=mistakes
        )

    large = np.array([[1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1002.0], [1.0, 2.0, 3.0]])
    got = _quiet(student_fn, large.copy())
    core.compare(
        got,
        softmax(large, axis=-1),
        name=f"{name} (large scores {large.tolist()})",
        mistakes=[
            (
                "your result holds NaN: you did not subtract the row max before exp. exp(1000) "
                "overflows to inf (inf / inf = NaN) and exp(-1000) underflows to 0 (0 / 0 = "
                "NaN). Subtract s.max(axis=-1, keepdims=True) first; softmax does not change.",
                _naive_softmax(large),
            ),
            (
                "rows 1 and 2 are NaN: you subtracted the max of the whole array (1000), not "
                "each row's own max. Row [-1000, -1001, -1002] then sits 2000 below it, exp "
                "underflows to 0 and 0 / 0 = NaN. Subtract s.max(axis=-1, keepdims=True).",
                _global_max_softmax(large),
            ),
        ],
    )
    core.passed(
        f"{name}: rows sum to 1 along the last axis, -inf gives weight 0, and scores of "
        "±1000 give no overflow"
    )


# ---------------------------------------------------------------- exercise 3


@core.exercise
def check_weighted_sum(student_fn) -> None:
    """weighted_sum(weights, v) -> (T_q, d_v), output_i = Σ_j weights[i, j] v_j."""
    name = "weighted_sum"
    _require_function(student_fn, name)
    core.forbid(
        student_fn,
        core.ATTENTION_FUNCTIONS,
        name=name,
        why="The weights are given: only the weighted sum of the values is asked for.",
    )
    w1 = softmax(_rand(7, 2, 3, spread=1.5))  # (T_q=2, T_k=3)
    v1 = np.round(_rand(8, 3, 4), 2)  # (T_k=3, d_v=4)
    _, w2 = attention(_rand(9, 3, 2), _rand(10, 3, 2), np.zeros((3, 1)), causal_mask(3))
    v2 = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    for n, (w, v) in enumerate(((w1, v1), (w2, v2)), 1):
        t_q, t_k = w.shape
        ref = w @ v  # output_i = Σ_j a_ij v_j
        mistakes = [
            (
                "you ignored the weights: every row of your output is the plain average of the "
                "values. output_i = Σ_j weights[i, j] v_j, i.e. weights @ v.",
                np.broadcast_to(v.mean(axis=0), ref.shape),
            ),
            (
                "you ignored the weights: every row of your output is the plain sum of the "
                "values. Multiply each v_j by weights[i, j] first: weights @ v.",
                np.broadcast_to(v.sum(axis=0), ref.shape),
            ),
            (
                "you applied softmax to the weights again. They are already a probability row "
                "each; use them as they are: weights @ v.",
                softmax(w) @ v,
            ),
            (
                "your output is transposed, shape (d_v, T_q). Row i of the output belongs to "
                "query i: weights @ v has shape (T_q, d_v).",
                ref.T,
            ),
        ]
        if t_q == t_k:
            mistakes.append(
                (
                    "you summed over the wrong axis (weights.T @ v): output_i must mix the "
                    "values with ROW i of the weights, the weights query i gives each key.",
                    w.T @ v,
                )
            )
        core.compare(
            student_fn(w.copy(), v.copy()),
            ref,
            name=f"{name} (case {n}: weights {w.shape}, v {v.shape})",
            mistakes=mistakes,
        )
    core.passed(f"{name}: output_i = Σ_j a_ij v_j, shape (T_q, d_v), on two inputs")


# ---------------------------------------------------------------- exercise 4


def _one_row_cases():
    q0, k0, v0 = _X @ _WQ, _X @ _WK, _X @ _WV  # the lesson's worked example, d_k = d_v = 2
    big_q = np.array([[40.0, 10.0], [1.0, 0.0]])
    big_k = np.array([[30.0, 0.0], [28.0, 5.0], [0.0, 30.0]])
    big_v = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    return [
        ("worked example, row 0", q0, k0, v0, 0),
        ("worked example, row 2", q0, k0, v0, 2),
        ("random, d_k = d_v = 3", _rand(11, 4, 3), _rand(12, 5, 3), _rand(13, 5, 3), 2),
        ("random, d_k = 2, d_v = 5", _rand(14, 3, 2), _rand(15, 4, 2), _rand(16, 4, 5), 1),
        ("large scores, about 850", big_q, big_k, big_v, 0),
    ]


@core.exercise
def check_row_by_hand(student_fn) -> None:
    """row_by_hand(q, k, v, i) -> (out_i (d_v,), weights_i (T_k,)), computed without attention()."""
    name = "row_by_hand"
    _require_function(student_fn, name)
    core.forbid(
        student_fn,
        core.ATTENTION_FUNCTIONS,
        name=name,
        why="This exercise is the row by hand: scores, scale, subtract the max, exp, normalise, "
        "weighted sum. Do not call an attention function.",
    )
    for label, q, k, v, i in _one_row_cases():
        d_k = q.shape[-1]
        root = math.sqrt(d_k)
        out_all, w_all = attention(q, k, v)
        ref_w, ref_out = w_all[i], out_all[i]
        tag = f"{name} (case {label}: q {q.shape}, k {k.shape}, v {v.shape}, i={i})"
        got_out, got_w = _pair(_quiet(student_fn, q.copy(), k.copy(), v.copy(), i), tag)

        raw = q[i] @ k.T  # (T_k,)
        w_mistakes = [
            (
                "the second thing you return looks like the output row: return "
                "(out_i, weights_i), in that order, like helpers.attention.attention.",
                ref_out,
            ),
            (
                f"you forgot the scale: your weights are softmax(q_i · k_j) without dividing "
                f"the scores by √d_k = √{d_k} = {root:.3g}.",
                softmax(raw),
            ),
            (
                f"you scaled by d_k = {d_k} instead of √d_k = {root:.3g}.",
                softmax(raw / d_k),
            ),
            (
                "softmax over the wrong axis: your weights come from a column of the score "
                "matrix normalised over the queries. Row i is query i against every key; "
                "normalise over the keys (the last axis).",
                softmax(qk_scores(q, k, 1 / root), axis=0)[i],
            ),
            (
                "your weights do not sum to 1: you took exp of the scores but did not divide "
                "by their sum.",
                np.exp(raw / root - (raw / root).max()),
            ),
            (
                f"these are the weights of another row: you used a query other than q[{i}]. "
                f"Row i scores q[i] against every key.",
                softmax(q[(i + 1) % q.shape[0]] @ k.T / root),
            ),
            (
                "your result holds NaN: you did not subtract the max score before exp, and "
                "exp of a score near 850 overflows to inf (inf / inf = NaN).",
                _naive_softmax(raw / root),
            ),
        ]
        if v.shape[-1] == d_k:
            w_mistakes.append(
                (
                    "you swapped K and V: you matched q_i against the values. Scores come from "
                    "the keys (q_i · k_j); the values are only what gets averaged.",
                    softmax(q[i] @ v.T / root),
                )
            )
        core.compare(got_w, ref_w, name=f"{tag}, weights", mistakes=w_mistakes)

        core.compare(
            got_out,
            ref_out,
            name=f"{tag}, output",
            mistakes=[
                (
                    "you swapped K and V: your output is the weighted sum of the KEYS "
                    "(weights @ k). Keys are matched against; the output averages the values: "
                    "Σ_j a_ij v_j = weights @ v.",
                    ref_w @ k,
                ),
                (
                    "your output ignores the weights: it is the plain average of the values. "
                    "output_i = Σ_j a_ij v_j.",
                    v.mean(axis=0),
                ),
                (
                    "your output ignores the weights: it is the plain sum of the values. "
                    "output_i = Σ_j a_ij v_j.",
                    v.sum(axis=0),
                ),
                (
                    "your output is the whole output matrix, not row i: return only out[i], "
                    "a vector of width d_v.",
                    out_all,
                ),
            ],
        )
    core.passed(
        f"{name}: output and weights of row i on the worked example (rows 0 and 2) and on "
        "3 other inputs, including scores near 850 (no overflow)"
    )


# ---------------------------------------------------------------- exercise 5


def _output_cases():
    pad_mask = np.array(
        [[1, 1, 0, 1, 0], [0, 1, 1, 1, 1], [1, 0, 0, 0, 1]], dtype=bool
    )  # (T_q=3, T_k=5), not triangular
    return [
        ("no mask, d_k = d_v = 3", _rand(21, 3, 3), _rand(22, 4, 3), _rand(23, 4, 3), None),
        ("causal, T = 4", _rand(24, 4, 3), _rand(25, 4, 3), _rand(26, 4, 2), causal_mask(4)),
        ("a (3, 5) boolean mask", _rand(27, 3, 2), _rand(28, 5, 2), _rand(29, 5, 2), pad_mask),
    ]


@core.exercise
def check_attention_output(student_fn) -> None:
    """attention_output(q, k, v, mask=None) -> (out (T_q, d_v), weights (T_q, T_k))."""
    name = "attention_output"
    _require_function(student_fn, name)
    core.forbid(
        student_fn,
        core.ATTENTION_FUNCTIONS,
        name=name,
        why="Write the three lines yourself (scores, masked softmax, weights @ v); that is the "
        "exercise.",
    )
    for label, q, k, v, mask in _output_cases():
        d_k = q.shape[-1]
        root = math.sqrt(d_k)
        ref_out, ref_w = attention(q, k, v, mask)  # the reference
        tag = f"{name} (case {label}: q {q.shape}, k {k.shape}, v {v.shape})"
        args = (q.copy(), k.copy(), v.copy()) + (() if mask is None else (mask.copy(),))
        got_out, got_w = _pair(_quiet(student_fn, *args), tag)

        s = qk_scores(q, k, 1 / root)
        w_mistakes = [
            (
                "the second thing you return looks like the output: return (out, weights), "
                "in that order, like helpers.attention.attention.",
                ref_out,
            ),
            (
                f"you forgot the scale: divide the scores q @ k.T by √d_k = √{d_k} = "
                f"{root:.3g} before softmax.",
                attention(q, k, v, mask, scale=1.0)[1],
            ),
            (
                f"you scaled by d_k = {d_k} instead of √d_k = {root:.3g}.",
                attention(q, k, v, mask, scale=1 / d_k)[1],
            ),
            (
                "softmax over the wrong axis: your COLUMNS sum to 1. Each row (query i against "
                "every key) must sum to 1: softmax along the last axis.",
                softmax(_masked(s, mask), axis=0),
            ),
        ]
        if v.shape[-1] == d_k:
            w_mistakes.append(
                (
                    "you swapped K and V: your weights match the queries against the values. "
                    "Scores are q @ k.T; the values are only what gets averaged.",
                    attention(q, v, k, mask)[1],
                )
            )
        if mask is not None:
            zeroed = softmax(s) * mask
            w_mistakes += [
                (
                    "your weights ignore the mask: blocked keys get weight. Set their scores to "
                    "-inf before softmax (np.where(mask, scores, -np.inf)); True = may attend.",
                    softmax(s),
                ),
                (
                    "your mask is applied after softmax: blocked weights are 0 but the rows no "
                    "longer sum to 1. Put -inf into the blocked SCORES before softmax.",
                    zeroed,
                ),
                (
                    "blocked scores were set to 0, not -inf: exp(0) = 1, so blocked keys still "
                    "get weight. Use -inf (np.where(mask, scores, -np.inf)).",
                    softmax(s * mask),
                ),
                (
                    "your mask is inverted: you blocked the keys marked True. The convention is "
                    "True = may attend (blocked keys are False).",
                    _quiet(softmax, _masked(s, ~mask)),
                ),
            ]
            if mask.shape[0] == mask.shape[1]:
                w_mistakes.append(
                    (
                        "row 0 gives weight to later positions: your mask keeps the upper "
                        "triangle (mask.T), so position 0 reads the future. Row i may attend "
                        "to columns 0..i.",
                        softmax(_masked(s, mask.T)),
                    )
                )
        core.compare(got_w, ref_w, name=f"{tag}, weights", mistakes=w_mistakes)
        core.compare(
            got_out,
            ref_out,
            name=f"{tag}, output",
            mistakes=[
                (
                    "you swapped K and V: your output is weights @ k, the weighted sum of the "
                    "KEYS. Keys are what queries match against; the output averages the "
                    "values: weights @ v.",
                    ref_w @ k,
                ),
                (
                    "your output is transposed: it must have one row per query, (T_q, d_v) = "
                    "weights @ v.",
                    ref_out.T,
                ),
            ],
        )
    core.passed(
        f"{name}: weights (rows sum to 1, masked keys 0) and outputs on "
        f"{len(_output_cases())} inputs: no mask, causal, and a non-triangular boolean mask"
    )
