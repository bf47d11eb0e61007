"""Checks for lesson 02, one attention row by hand (`from helpers.checks import one_row`).

Each check runs the student's function (through `core.call`, so an input changed in place is
named) on fixed inputs and looks at the result in three passes: first the anticipated wrong
answers (forgot the scale, scaled by d_k instead of √d_k, a √d_k rounded to a whole number,
softmax over the wrong axis, swapped K and V, no max subtraction, a mask applied the wrong
way), then the properties the answer must have, in the order the lesson teaches them (the
right shape, finite, non-negative weights, rows that sum to 1, zero weight where blocked, a
one-hot weight row that picks one value), and last the comparison with the reference
(`helpers.attention`), whose generic diagnosis names what is left.

Rules: every exercise asks for a piece of attention written by hand, so the checks refuse
the attention functions (and the score helper); exercise 2 also refuses every library
softmax; exercise 5 ("without loops") refuses a loop in the function's own code. The loop
rule (`_forbid_loops`) is this module's: core.forbid finds calls, not statements.
"""

from __future__ import annotations

import dis
import math
import sys
import types

import numpy as np

from helpers.attention import attention, softmax
from helpers.attention import scores as qk_scores
from helpers.checks import core, source
from helpers.examples import WK as _WK
from helpers.examples import WORKED_X as _X
from helpers.examples import WQ as _WQ
from helpers.examples import WV as _WV
from helpers.masks import causal_mask

RESULTS = "numpy"  # the exercise text fixes the library: core.call refuses the other

# ---------------------------------------------------------------- rules

_SCORE_FUNCTIONS = ("helpers.attention.scores",)
_ALL_SOFTMAX = core.SOFTMAX_FUNCTIONS + (
    "torch.special.softmax",
    "torch.nn.Softmax",
    "torch.log_softmax",
    "torch.logsumexp",
    "scipy.special.log_softmax",
    "scipy.special.logsumexp",
    "helpers.scaling.softmax_temperature",
    "helpers.streaming.online_softmax",
)
_BY_HAND = core.ATTENTION_FUNCTIONS + _SCORE_FUNCTIONS + (
    "torch.nn.MultiheadAttention",
    "helpers.heads.MultiHeadAttention",
)


_COMPREHENSIONS = {"<listcomp>": "a list comprehension", "<genexpr>": "a generator expression",
                   "<dictcomp>": "a dict comprehension", "<setcomp>": "a set comprehension"}


# from Python 3.12 on, a comprehension is compiled into the function's own code
_OR_INLINED = " (or a comprehension)" if sys.version_info >= (3, 12) else ""


def _forbid_loops(fn, *, name: str, why: str) -> None:
    """Fail when fn's own code holds a for/while loop or a comprehension.

    Read from the compiled code, not the source: the source of a function defined in a cell
    may be missing or, when several cells share a file name, another cell's. A grader's
    stand-in for fn (with `__grade_cells__`) is read from those cells (helpers.checks.source).
    """
    cells = getattr(fn, "__grade_cells__", None)
    if cells is not None:
        label = source.loop_label(cells, fn.__name__)
        if label is not None:
            core.fail(f"{name}: your function uses {label}. {why}", "one_row.loop-used")
        return
    code = getattr(fn, "__code__", None)
    stack = [code] if code is not None else []
    while stack:
        c = stack.pop()
        label = _COMPREHENSIONS.get(c.co_name)
        if label is None:
            ops = {ins.opname for ins in dis.get_instructions(c)}
            if "FOR_ITER" in ops:
                label = "a `for` loop" + _OR_INLINED
            elif any("BACKWARD" in op for op in ops):
                label = "a `while` loop"
        if label is not None:
            core.fail(f"{name}: your function uses {label}. {why}", "one_row.loop-used")
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))


# ---------------------------------------------------------------- small shared pieces


def _rand(seed: int, *shape: int, spread: float = 1.0) -> np.ndarray:
    return core.rng(seed).normal(scale=spread, size=shape)  # drawn afresh when grading


def _masked(scores, mask):
    return scores if mask is None else np.where(mask, scores, -np.inf)


_same = core.matches


_named_mistake = core.named_mistake


_require_shape = core.require_shape


def _quiet_call(fn, *args, name: str):
    """core.call with NumPy's overflow/invalid warnings silenced: the check explains instead."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        return core.call(fn, *args, name=name)


def _naive_softmax(s, axis=-1):
    """softmax without subtracting the max (the overflow mistake), warnings silenced."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s)
        return e / e.sum(axis=axis, keepdims=True)


def _global_max_softmax(s):
    """Subtracting the max of the whole array instead of each row's (underflow mistake)."""
    with np.errstate(over="ignore", invalid="ignore", under="ignore", divide="ignore"):
        e = np.exp(s - s.max())
        return e / e.sum(axis=-1, keepdims=True)


def _rounded_to_one(d_k: int) -> str:
    """A note for a missing scale when √d_k rounded to a whole number is 1."""
    if d_k > 1 and math.isqrt(d_k) == 1:
        return (f" (√{d_k} rounded to a whole number, with math.isqrt or int(...), is 1: that "
                "also leaves the scores unscaled; keep the root a float)")
    return ""


def _at(idx) -> str:
    return str(idx[0]) if len(idx) == 1 else str(tuple(int(i) for i in idx))


def _weight_properties(got, name: str, *, blocked=None, what: str = "row") -> None:
    """The properties every softmax row has, in teaching order; got has the right shape.

    blocked: boolean array of got's shape, True where the weight must be exactly 0.
    """
    if not np.isfinite(got).all():
        where = tuple(np.argwhere(~np.isfinite(got))[0])
        core.fail(f"{name}: your weights hold NaN or inf (the first at index {_at(where)}): "
                  "exp of a large score overflows to inf and inf / inf is NaN. Subtract each "
                  "row's largest score before exp; that leaves the softmax unchanged.",
                  "one_row.weights-not-finite")
    if (got < -1e-12).any():
        where = tuple(np.argwhere(got < -1e-12)[0])
        core.fail(f"{name}: your weights hold a negative number ({got[where]:.4g} at index "
                  f"{_at(where)}). exp is never negative and neither is a sum of exps: a "
                  "softmax weight lies between 0 and 1.", "one_row.weights-negative")
    sums = got.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-6):
        bad = np.argwhere(~np.isclose(sums, 1.0, atol=1e-6))[0]
        other = ""
        if got.ndim >= 2 and np.allclose(got.sum(axis=-2), 1.0, atol=1e-6):
            other = (" Your sums along the other axis (the queries) are 1: you normalised the "
                     "columns. Normalise over the keys, the last axis.")
        core.fail(f"{name}: each {what} of weights must sum to 1; your {what} "
                  f"{'' if got.ndim == 1 else _at(tuple(bad)) + ' '}sums to "
                  f"{float(sums[tuple(bad)]):.4g}.{other} Divide each exp by the sum over its "
                  "own row.", "one_row.weights-not-normalised")
    if blocked is not None and blocked.any() and not np.allclose(got[blocked], 0.0, atol=1e-9):
        where = tuple(np.argwhere(blocked & ~np.isclose(got, 0.0, atol=1e-9))[0])
        core.fail(f"{name}: a blocked key gets weight {got[where]:.4g} (index {_at(where)}): a "
                  "score of -inf must come out of softmax as exactly 0, exp(-inf) = 0.",
                  "one_row.blocked-key-weighted")


def _order_kept(got, scores, name: str) -> None:
    """Softmax is monotone: along a row, a larger score never gets a smaller weight."""
    g = got.reshape(-1, got.shape[-1])
    s = scores.reshape(-1, scores.shape[-1])
    for r, (gr, sr) in enumerate(zip(g, s, strict=True)):
        keep = np.isfinite(sr)
        if keep.sum() < 2:
            continue
        gr, sr = gr[keep], sr[keep]
        top = int(np.argmax(sr))
        if gr[top] < gr.max() - 1e-9:
            core.fail(f"{name}: in row {r} the largest score does not get the largest "
                      "weight. Softmax keeps the order of the scores (exp is increasing): a "
                      "sign flipped, or the scores of another query or against the wrong "
                      "matrix?", "one_row.order-not-kept")


def _name_fixed_scale(got, raw, d_k: int, name: str) -> None:
    """Fail when got is raw divided by a constant that is not √d_k but √n or n for a whole n.

    A scale that ignores the input (√2 from the worked example, 8 from a d_k of 64) is the same
    number in every case; here it is named as what it is, whatever code produced it.
    """
    if got.shape != raw.shape or not np.isfinite(got).all():
        return
    denom = float(np.sum(raw * raw))
    if denom == 0:
        return
    c = float(np.sum(got * raw)) / denom
    if c <= 0 or not _same(got, c * raw):
        return
    by = 1 / c
    if math.isclose(by, math.sqrt(d_k), rel_tol=1e-6):
        return
    for n, shown in ((by * by, f"√{round(by * by)}"), (by, f"{round(by)}")):
        if round(n) >= 1 and math.isclose(n, round(n), rel_tol=1e-6) and round(n) != d_k:
            core.fail(f"{name}: you divided the scores by {shown} = {by:.4g}, but here the keys "
                      f"have width d_k = {d_k}, so the scale is √d_k = {math.sqrt(d_k):.4g}. "
                      "A fixed, hard-coded number (the worked example has d_k = 2) or a wrong "
                      "width: read d_k from the keys, k.shape[-1], so the scale follows every "
                      "input.",
                      "one_row.scale-hard-coded")


def _name_low_precision(got, ref, name: str) -> None:
    """Fail when got is ref to float16 or float32 precision only, relative to the largest
    value: a score near 0 then has a large relative error, which the generic diagnosis (a
    tolerance per entry) may read as wrong values."""
    if got.shape != ref.shape or not np.isfinite(got).all() or _same(got, ref):
        return
    if np.abs(got - ref).max() <= 8e-3 * np.abs(ref).max():
        core.fail(f"{name}: your values are right to about 3 digits but not 6: computed in "
                  "float16 or float32, or rounded somewhere? Use float64 throughout.",
                  "generic.precision")


# ---------------------------------------------------------------- exercise 1


@core.exercise
def check_scaled_scores(student_fn) -> None:
    """scaled_scores(q, k) -> (T_q, T_k) = q kᵀ / √d_k."""
    name = "scaled_scores"
    core.forbid(student_fn, _BY_HAND, name=name,
                why="The scores are the exercise: write the product and the scale yourself.")
    cases = [  # d_k = 6 and 5 are not perfect squares: a √ rounded to a whole number fails
        (_rand(1, 3, 4), _rand(2, 5, 4)),  # T_q = 3, T_k = 5, d_k = 4
        (_rand(3, 2, 6), _rand(4, 3, 6)),  # T_q = 2, T_k = 3, d_k = 6
        (_rand(30, 4, 5), _rand(31, 2, 5)),  # T_q = 4 > T_k = 2, d_k = 5
    ]
    for n, (q, k) in enumerate(cases, 1):
        (t_q, d_k), t_k = q.shape, k.shape[0]
        root = math.sqrt(d_k)
        tag = f"{name} (case {n}: q {q.shape}, k {k.shape})"
        got = core.as_array(core.call(student_fn, q, k, name=name), tag)
        raw = q @ k.T
        ref = raw / root
        sizes = dict(T_q=t_q, T_k=t_k, d_k=d_k)
        factors = {"√d_k": root, "d_k": d_k, "√T_k": math.sqrt(t_k), "T_k": t_k,
                   "√T_q": math.sqrt(t_q), "T_q": t_q}
        mistakes = [
            ("one_row.scale-missing",
             f"you forgot the scale: your scores are unscaled, the raw dot products q·k. "
             f"Divide them by √d_k = √{d_k} = {root:.4g}, the square root of the key width "
             f"k.shape[-1]"
             f"{_rounded_to_one(d_k)}.", raw),
            ("one_row.scaled-by-dk",
             f"you scaled by d_k = {d_k} instead of √d_k = {root:.4g}. The variance of q·k "
             "grows like d_k, so its spread (standard deviation) grows like √d_k: divide by "
             "the square root.", raw / d_k),
            ("one_row.scale-multiplied",
             f"you multiplied by √d_k = {root:.4g} instead of dividing: the scale makes scores "
             "smaller, 1/√d_k.", raw * root),
            ("one_row.scaled-by-t-k",
             f"you divided by √T_k = √{t_k}, the number of keys. The scale comes from the key "
             f"WIDTH d_k = k.shape[-1] = {d_k}, not the number of positions.",
             raw / math.sqrt(t_k)),
            ("one_row.scaled-by-t-q",
             f"you divided by √T_q = √{t_q}, the number of queries. The scale comes from the "
             f"key width d_k = k.shape[-1] = {d_k}.", raw / math.sqrt(t_q)),
            ("one_row.scores-transposed",
             "your matrix is transposed: row j belongs to key j. Row i must hold query i's "
             "scores against every key, (T_q, T_k).", raw.T / root),
        ]
        if math.isqrt(d_k) ** 2 != d_k:
            mistakes.append((
                "one_row.scale-rounded",
                f"you divided by {math.isqrt(d_k)}, √d_k rounded down to a whole number "
                f"(math.isqrt, int(...) or //): here d_k = {d_k} and √d_k = {root:.4g}. Keep "
                "the square root a float.", raw / math.isqrt(d_k)))
            if round(root) != math.isqrt(d_k):
                mistakes.append((
                    "one_row.scale-rounded",
                    f"you divided by {round(root)}, √d_k rounded to a whole number: here d_k "
                    f"= {d_k} and √d_k = {root:.4g}. Keep the square root a float.",
                    raw / round(root)))
        _named_mistake(got, ref, mistakes, tag)
        _name_fixed_scale(got, raw, d_k, tag)
        _name_low_precision(got, ref, tag)
        core.compare(got, ref, name=tag, axes=("T_q", "T_k"), sizes=sizes, factors=factors)
    core.passed("scaled_scores: q kᵀ / √d_k, shape (T_q, T_k), for d_k = 4, 6 and 5 "
                "(√6 and √5 are not whole numbers) and T_q > T_k")


# ---------------------------------------------------------------- exercise 2


@core.exercise
def check_stable_softmax(student_fn) -> None:
    """stable_softmax(s) -> softmax along the last axis, max subtracted, for any leading axes."""
    name = "stable_softmax"
    core.forbid(student_fn, _ALL_SOFTMAX + _BY_HAND, name=name,
                why="Write it yourself with np.exp, .max and .sum; that is the exercise.")
    row = np.array([2.0, -1.0, 0.5, 3.0])  # one row of scores: the only axis is the last
    square = np.round(_rand(5, 3, 3, spread=2.0), 2)
    batch = np.round(_rand(6, 2, 3, 4, spread=2.0), 2)
    batch[0, 1, 3] = -np.inf  # a blocked key: its weight must come out 0
    large = np.array([[1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1002.0], [1.0, 2.0, 3.0],
                      [999.0, -np.inf, 1000.0],
                      [800.0, 0.0, -800.0]])  # a wide row: only the row MAX keeps exp finite
    axes_of = {1: ("T_k",), 2: ("T_q", "T_k"), 3: ("batch", "T_q", "T_k")}
    cases = [("one row", row), ("a (3, 3) matrix", square), ("a batch (2, 3, 4)", batch),
             ("large scores, ±1000, and a row with -inf", large)]
    for label, s in cases:
        tag = f"{name} (case {label}: shape {s.shape})"
        got = core.as_array(_quiet_call(student_fn, s, name=name), tag)
        ref = softmax(s, axis=-1)
        with np.errstate(invalid="ignore", over="ignore", under="ignore", divide="ignore"):
            mistakes = [
                ("one_row.softmax-wrong-axis",
                 f"softmax over the wrong axis: your values along axis {axis} sum to 1, but "
                 "each ROW (the last axis, one query against every key) must sum to 1.",
                 softmax(s, axis=axis))
                for axis in range(s.ndim - 1)
            ]
            exp = np.exp(s - s.max(axis=-1, keepdims=True))
            low = np.exp(s - s.min(axis=-1, keepdims=True))
            mistakes += [
                ("one_row.softmax-row-min",
                 "you subtracted each row's minimum instead of its maximum: then the largest "
                 "exponent is max − min, which overflows on a wide row, and a row holding -inf "
                 "gives -inf − (-inf) = NaN. Subtract the row max (min instead of max is the "
                 "mistake): every exponent is then ≤ 0.", low / low.sum(axis=-1, keepdims=True)),
                ("one_row.softmax-not-normalised",
                 "your rows do not sum to 1: you returned exp(s - max) without dividing by "
                 "each row's sum.", exp),
                ("one_row.softmax-whole-array-sum",
                 "you divided by the sum of the WHOLE array; softmax divides each row by its "
                 "own sum, so that every row sums to 1.", exp / exp.sum()),
                ("one_row.softmax-no-max",
                 "your result holds NaN: you did not subtract the row max before exp. "
                 "exp(1000) overflows to inf (inf / inf = NaN) and exp(-1000) underflows to 0 "
                 "(0 / 0 = NaN). Subtract each row's own max first; softmax does not change.",
                 _naive_softmax(s)),
                ("one_row.softmax-global-max",
                 "some rows are NaN or wrong: you subtracted the max of the whole array, not "
                 "each row's own max. A row far below it (like [-1000, -1001, -1002]) "
                 "underflows to 0 and 0 / 0 = NaN. Subtract the max of each row.",
                 _global_max_softmax(s)),
            ]
            if s.ndim == 2:
                keepdims_message = (
                    "the row max or row sum broadcast along the wrong direction: without "
                    "keepdims=True, a reduction over axis -1 has shape (T,) and NumPy lines "
                    "it up with the COLUMNS. Keep the reduced axis so each stays a column, one "
                    "number per row.")
                if s.shape[0] == s.shape[1]:
                    no_keep = np.exp(s - s.max(axis=-1))
                    mistakes += [
                        ("one_row.softmax-keepdims", keepdims_message,
                         softmax(s - s.max(axis=-1), axis=-1)),
                        ("one_row.softmax-keepdims", keepdims_message, exp / exp.sum(axis=-1)),
                        ("one_row.softmax-keepdims", keepdims_message,
                         no_keep / no_keep.sum(axis=-1)),
                    ]
        _named_mistake(got, ref, mistakes, tag)
        axes = axes_of[s.ndim]
        _require_shape(got, ref, name=tag, axes=axes, sizes=dict(zip(axes, s.shape,
                                                                      strict=True)))
        _weight_properties(got, tag, blocked=np.isneginf(s), what="row")
        _order_kept(got, s, tag)
        core.compare(got, ref, name=tag, axes=axes,
                     sizes=dict(zip(axes, s.shape, strict=True)))
    core.passed(
        f"{name}: rows sum to 1 along the last axis for a row, a matrix and a batch, -inf "
        "gives weight 0, and scores of ±1000 give no overflow"
    )


# ---------------------------------------------------------------- exercise 3


@core.exercise
def check_weighted_sum(student_fn) -> None:
    """weighted_sum(weights, v) -> (T_q, d_v), output_i = Σ_j weights[i, j] v_j."""
    name = "weighted_sum"
    core.forbid(student_fn, _BY_HAND, name=name,
                why="The weights are given: only the weighted sum of the values is asked for.")
    w1 = softmax(_rand(7, 2, 3, spread=1.5))  # (T_q=2, T_k=3)
    v1 = np.round(_rand(8, 3, 4), 2)  # (T_k=3, d_v=4)
    _, w2 = attention(_rand(9, 3, 2), _rand(10, 3, 2), np.zeros((3, 1)), causal_mask(3))
    v2 = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    w3 = softmax(_rand(17, 4, 2))  # (T_q=4, T_k=2): more queries than keys
    v3 = np.round(_rand(18, 2, 5), 2)  # d_v = 5
    # square weights first (weights.T @ v runs there and is named), then more queries than
    # keys (a loop over the keys' count for the queries is named), then more keys than queries
    cases = [(w2, v2), (w3, v3), (w1, v1)]
    got_all = []
    for n, (w, v) in enumerate(cases, 1):
        t_q, t_k = w.shape
        tag = f"{name} (case {n}: weights {w.shape}, v {v.shape})"
        got = core.as_array(core.call(student_fn, w, v, name=name), tag)
        ref = w @ v
        mistakes = [
            ("one_row.weights-ignored-mean",
             "you ignored the weights: every row of your output is the plain average of the "
             "values. output_i = Σ_j weights[i, j] v_j: each value scaled by its own weight.",
             np.broadcast_to(v.mean(axis=0), ref.shape)),
            ("one_row.weights-ignored-sum",
             "you ignored the weights: every row of your output is the plain sum of the "
             "values. Multiply each v_j by weights[i, j] first.",
             np.broadcast_to(v.sum(axis=0), ref.shape)),
            ("one_row.softmax-again",
             "you applied softmax to the weights again. They are already a probability row "
             "each; use them as they are.", softmax(w) @ v),
            ("one_row.output-transposed",
             "your output is transposed, shape (d_v, T_q). Row i of the output belongs to "
             "query i: the result is (T_q, d_v).", ref.T),
        ]
        with np.errstate(invalid="ignore", divide="ignore"):
            mistakes.append((
                "one_row.weights-renormalised",
                "you normalised the weights again, over their columns (axis 0, the queries): "
                "they already sum to 1 along each row, so renormalising them changes them. "
                "Use the weights as they are.", (w / w.sum(axis=0, keepdims=True)) @ v))
        if t_q == t_k:
            mistakes.append(("one_row.sum-over-queries",
                             "you used the weights transposed (the wrong axis): output_i mixed "
                             "the values with COLUMN i of the weights, weights[j, i]. It must "
                             "use ROW i, weights[i, j], the weights query i gives each key.",
                             w.T @ v))
        else:
            mistakes += [
                ("one_row.divided-by-t-k",
                 f"you divided the weighted sum by the number of keys T_k = {t_k}: the "
                 "weights already sum to 1 along each row, so Σ_j weights[i, j] v_j is "
                 "already an average. Do not average again.", ref / t_k),
                ("one_row.divided-by-t-q",
                 f"you divided the weighted sum by the number of queries T_q = {t_q}: "
                 "output_i = Σ_j weights[i, j] v_j, with no other factor.", ref / t_q),
            ]
        _named_mistake(got, ref, mistakes, tag)
        if got.ndim == 2 and got.shape[0] == t_k != t_q and got.shape[1:] == ref.shape[1:]:
            core.fail(f"{tag}: your output has {t_k} rows, one per key (T_k = len(v)); it needs "
                      f"one row per query, T_q = {t_q}, the number of rows of weights. Row i "
                      "of the output belongs to query i.", "one_row.rows-per-key")
        _require_shape(got, ref, name=tag, axes=("T_q", "d_v"),
                       sizes=dict(T_q=t_q, T_k=t_k, d_v=v.shape[1]))
        got_all.append((tag, got, ref, t_q, t_k, v.shape[1]))
    # a property before the values: a one-hot weight row picks exactly one value row
    onehot = np.eye(4)[[2, 0, 3]]  # query 0 reads key 2, query 1 key 0, query 2 key 3
    v = np.arange(12.0).reshape(4, 3) + 1
    tag = f"{name} (one-hot weights {onehot.tolist()})"
    got = core.as_array(core.call(student_fn, onehot, v, name=name), tag)
    _require_shape(got, onehot @ v, name=tag, axes=("T_q", "d_v"), sizes=dict(T_q=3, T_k=4,
                                                                             d_v=3))
    for i, j in enumerate((2, 0, 3)):
        if not _same(got[i], v[j]):
            other = [m for m in range(4) if _same(got[i], v[m])]
            note = (f" Yours is v[{other[0]}]." if other
                    else f" Yours is {np.round(got[i], 4).tolist()}.")
            core.fail(f"{tag}: query {i} puts all its weight (1) on key {j}, so its output "
                      f"row must be v[{j}] = {v[j].tolist()} exactly.{note} Row i of the "
                      "output pairs row i of the weights with the rows of v.",
                      "one_row.one-hot-not-picked")
    for tag, got, ref, t_q, t_k, d_v in got_all:
        core.compare(got, ref, name=tag, axes=("T_q", "d_v"),
                     sizes=dict(T_q=t_q, T_k=t_k, d_v=d_v), factors={"T_k": t_k, "T_q": t_q})
    core.passed(f"{name}: output_i = Σ_j a_ij v_j, shape (T_q, d_v), on {len(cases)} inputs "
                "and on one-hot weights")


# ---------------------------------------------------------------- exercise 4


def _one_row_cases():
    q0, k0, v0 = _X @ _WQ, _X @ _WK, _X @ _WV  # the lesson's worked example, d_k = d_v = 2
    big_q = np.array([[40.0, 10.0], [1.0, 0.0]])
    big_k = np.array([[30.0, 0.0], [28.0, 5.0], [0.0, 30.0]])
    big_v = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    return [
        ("worked example, row 0", q0, k0, v0, 0),
        ("worked example, row 2", q0, k0, v0, 2),
        ("random, d_k = d_v = 3", _rand(11, 5, 3), _rand(12, 5, 3), _rand(13, 5, 3), 2),
        ("random, d_k = 2, d_v = 5", _rand(14, 3, 2), _rand(15, 4, 2), _rand(16, 4, 5), 1),
        ("random, d_k = 5, d_v = 2, last row", _rand(32, 3, 5), _rand(33, 6, 5),
         _rand(34, 6, 2), 2),
        ("large scores, about 850", big_q, big_k, big_v, 0),
    ]


@core.exercise
def check_row_by_hand(student_fn) -> None:
    """row_by_hand(q, k, v, i) -> (out_i (d_v,), weights_i (T_k,)), computed without attention()."""
    name = "row_by_hand"
    core.forbid(
        student_fn, _BY_HAND, name=name,
        why="This exercise is the row by hand: scores, scale, subtract the max, exp, normalise, "
        "weighted sum. Do not call an attention function.",
    )
    for label, q, k, v, i in _one_row_cases():
        d_k, (t_k, d_v) = q.shape[-1], v.shape
        root = math.sqrt(d_k)
        out_all, w_all = attention(q, k, v)
        ref_w, ref_out = w_all[i], out_all[i]
        tag = f"{name} (case {label}: q {q.shape}, k {k.shape}, v {v.shape}, i={i})"
        got_out, got_w = core.unpack(_quiet_call(student_fn, q, k, v, i, name=name),
                                     ("out_i", "weights_i"), name=tag)
        got_out, got_w = core.as_array(got_out, f"{tag}, out_i"), core.as_array(got_w,
                                                                                f"{tag}, "
                                                                                "weights_i")
        sizes = dict(T_q=q.shape[0], T_k=t_k, d_k=d_k, d_v=d_v)
        if not _same(got_w, ref_w) and _same(got_w, ref_out) and _same(got_out, ref_w):
            core.fail(f"{tag}: you returned (weights_i, out_i): return (out_i, weights_i), in "
                      "that order, like helpers.attention.attention.", "one_row.tuple-order")

        raw = q[i] @ k.T  # (T_k,)
        with np.errstate(over="ignore", invalid="ignore"):
            w_mistakes = [
                ("one_row.scale-missing",
                 f"you forgot the scale: your weights are the softmax of q_i · k_j without "
                 f"dividing the scores by √d_k = √{d_k} = {root:.4g}{_rounded_to_one(d_k)}.",
                 softmax(raw)),
                ("one_row.scaled-by-dk",
                 f"you scaled by d_k = {d_k} instead of √d_k = {root:.4g}.", softmax(raw / d_k)),
                ("one_row.softmax-wrong-axis",
                 "softmax over the wrong axis: your weights come from a column of the score "
                 "matrix normalised over the queries. Row i is query i against every key; "
                 "normalise over the keys (the last axis).",
                 softmax(qk_scores(q, k, 1 / root), axis=0)[i]),
                ("one_row.softmax-not-normalised",
                 "your weights do not sum to 1: you took exp of the scores but did not divide "
                 "by their sum.", np.exp(raw / root - (raw / root).max())),
                ("one_row.another-row",
                 f"these are the weights of another row: you used a query other than q[{i}]. "
                 f"Row i scores q[i] against every key.",
                 softmax(q[(i + 1) % q.shape[0]] @ k.T / root)),
                ("one_row.softmax-no-max",
                 "your result holds NaN: you did not subtract the max score before exp, and "
                 "exp of a score near 850 overflows to inf (inf / inf = NaN).",
                 _naive_softmax(raw / root)),
                ("one_row.whole-weight-matrix",
                 "your weights are the whole (T_q, T_k) matrix: return only row i, the weights "
                 "of query i.", w_all),
            ]
            if math.isqrt(d_k) ** 2 != d_k and math.isqrt(d_k) > 1:
                w_mistakes.append((
                    "one_row.scale-rounded",
                    f"you scaled by 1/{math.isqrt(d_k)}: √d_k rounded down to a whole number "
                    f"(math.isqrt or int(...)); √{d_k} = {root:.4g}.",
                    softmax(raw / math.isqrt(d_k))))
        if q.shape[0] == t_k:
            w_mistakes.append((
                "one_row.column-of-scores",
                f"your weights come from column i of the score matrix S: key i scored against "
                f"every query (the queries against k[i]). Row i of S is query i against every "
                f"key: the scores of q[{i}] against all of k, one per key.",
                softmax(q @ k[i] / root)))
        if d_v == d_k:
            w_mistakes.append((
                "one_row.kv-swapped",
                "you swapped K and V: you matched q_i against the values. Scores come from the "
                "keys (q_i · k_j); the values are only what gets averaged.",
                softmax(q[i] @ v.T / root)))
        wtag = f"{tag}, weights_i"
        _named_mistake(got_w, ref_w, w_mistakes, wtag)
        _require_shape(got_w, ref_w, name=wtag, axes=("T_k",), sizes=sizes)
        _weight_properties(got_w, wtag, what="row")
        _order_kept(got_w, raw, wtag)
        core.compare(got_w, ref_w, name=wtag, axes=("T_k",), sizes=sizes)

        otag = f"{tag}, out_i"
        _named_mistake(got_out, ref_out, [
            ("one_row.kv-swapped",
             "you swapped K and V: your output is the weighted sum of the KEYS. Keys are "
             "matched against; the output averages the values: Σ_j a_ij v_j.", ref_w @ k),
            ("one_row.weights-ignored-mean",
             "your output ignores the weights: it is the plain average of the values. "
             "output_i = Σ_j a_ij v_j.", v.mean(axis=0)),
            ("one_row.weights-ignored-sum",
             "your output ignores the weights: it is the plain sum of the values. "
             "output_i = Σ_j a_ij v_j.", v.sum(axis=0)),
            ("one_row.whole-output",
             "your output is the whole output matrix, not row i: return only row i, a vector "
             "of width d_v.", out_all),
        ], otag)
        _require_shape(got_out, ref_out, name=otag, axes=("d_v",), sizes=sizes)
        # a property of the output: with every value row (1, ..., 1) the average is (1, ..., 1)
        ones = np.ones_like(v)
        out, _ = core.unpack(_quiet_call(student_fn, q, k, ones, i, name=name),
                             ("out_i", "weights_i"), name=otag)
        core.require(_same(out, ones[0]),
                     f"{otag}: with every value row equal to (1, …, 1), out_i must be "
                     "(1, …, 1): it is an average of the value rows with weights that sum to "
                     f"1. Yours is {np.round(core.as_array(out, otag), 4).tolist()}.",
                     "one_row.out-not-average")
        core.compare(got_out, ref_out, name=otag, axes=("d_v",), sizes=sizes,
                     factors={"T_k": t_k, "√d_k": root})
    core.passed(
        f"{name}: output and weights of row i on the worked example (rows 0 and 2) and on "
        "4 other inputs, including d_k = 5 and scores near 850 (no overflow)"
    )


# ---------------------------------------------------------------- exercise 5


def _output_cases():
    pad_mask = np.array(
        [[1, 1, 0, 1, 0], [0, 1, 1, 1, 1], [1, 0, 0, 0, 1]], dtype=bool
    )  # (T_q=3, T_k=5), not triangular
    rng = core.rng(35)
    while True:  # every row's largest score overflows exp (the notebook's first draw does)
        big_q, big_k, big_v = (rng.normal(size=(2, 3)) * 40, rng.normal(size=(4, 3)) * 40,
                               rng.normal(size=(4, 2)))
        if (big_q @ big_k.T / math.sqrt(3)).max(axis=-1).min() > 750:
            break
    return [
        ("no mask, d_k = d_v = 5", _rand(21, 3, 5), _rand(22, 6, 5), _rand(23, 6, 5), None),
        ("causal, T = 4", _rand(24, 4, 3), _rand(25, 4, 3), _rand(26, 4, 2), causal_mask(4)),
        ("a (3, 5) boolean mask", _rand(27, 3, 2), _rand(28, 5, 2), _rand(29, 5, 4), pad_mask),
        ("scores in the thousands, d_k = 3", big_q, big_k, big_v, None),
    ]


@core.exercise
def check_attention_output(student_fn) -> None:
    """attention_output(q, k, v, mask=None) -> (out (T_q, d_v), weights (T_q, T_k))."""
    name = "attention_output"
    core.forbid(
        student_fn, _BY_HAND, name=name,
        why="Write the three lines yourself (scores, masked softmax, weighted sum of the "
        "values); that is the exercise.",
    )
    _forbid_loops(student_fn, name=name,
                  why="The exercise asks for every row at once, without loops: one matrix "
                  "product gives every score, and reductions along the last axis treat every "
                  "row together.")
    cases = _output_cases()
    for label, q, k, v, mask in cases:
        (t_q, d_k), (t_k, d_v) = q.shape, v.shape
        root = math.sqrt(d_k)
        ref_out, ref_w = attention(q, k, v, mask)  # the reference
        tag = f"{name} (case {label}: q {q.shape}, k {k.shape}, v {v.shape})"
        args = (q, k, v) + (() if mask is None else (mask,))
        got_out, got_w = core.unpack(_quiet_call(student_fn, *args, name=name),
                                     ("out", "weights"), name=tag)
        got_out = core.as_array(got_out, f"{tag}, out")
        got_w = core.as_array(got_w, f"{tag}, weights")
        sizes = dict(T_q=t_q, T_k=t_k, d_k=d_k, d_v=d_v)
        if not _same(got_w, ref_w) and _same(got_w, ref_out) and _same(got_out, ref_w):
            core.fail(f"{tag}: you returned (weights, out): return (out, weights), in that "
                      "order, like helpers.attention.attention.", "one_row.tuple-order")

        s = qk_scores(q, k, 1 / root)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            w_mistakes = [
                ("one_row.scale-missing",
                 f"you forgot the scale: divide the scores by √d_k = √{d_k} = {root:.4g} "
                 f"before softmax{_rounded_to_one(d_k)}.", attention(q, k, v, mask, scale=1.0)[1]),
                ("one_row.scaled-by-dk",
                 f"you scaled by d_k = {d_k} instead of √d_k = {root:.4g}.",
                 attention(q, k, v, mask, scale=1 / d_k)[1]),
                ("one_row.softmax-wrong-axis",
                 "softmax over the wrong axis: your COLUMNS sum to 1. Each row (query i "
                 "against every key) must sum to 1: softmax along the last axis.",
                 softmax(_masked(s, mask), axis=0)),
                ("one_row.softmax-no-max",
                 "your weights hold NaN: you did not subtract each row's max score before "
                 "exp, and exp of a score in the thousands overflows to inf (inf / inf = NaN).",
                 _naive_softmax(_masked(s, mask))),
            ]
            rounded = math.isqrt(d_k) ** 2 != d_k and math.isqrt(d_k) > 1
            if rounded:
                w_mistakes.append((
                    "one_row.scale-rounded",
                    f"you scaled by 1/{math.isqrt(d_k)}: √d_k rounded down to a whole number; "
                    f"√{d_k} = {root:.4g}.",
                    attention(q, k, v, mask, scale=1 / math.isqrt(d_k))[1]))
            if t_k != d_k:
                w_mistakes.append((
                    "one_row.scaled-by-t-k",
                    f"you scaled by √T_k = √{t_k}, the number of keys (k.shape[0]): the scale "
                    f"is √d_k = √{d_k}, the key width k.shape[-1], not the number of "
                    "positions.", attention(q, k, v, mask, scale=1 / math.sqrt(t_k))[1]))
            if d_v == d_k:
                w_mistakes.append((
                    "one_row.kv-swapped",
                    "you swapped K and V: your weights match the queries against the values. "
                    "Scores are q_i · k_j; the values are only what gets averaged.",
                    attention(q, v, k, mask)[1]))
            if mask is not None:
                w_mistakes += [
                    ("one_row.mask-ignored",
                     "your weights ignore the mask: blocked keys get weight. Set their scores "
                     "to -inf before softmax; True = may attend.", softmax(s)),
                    ("one_row.mask-after-softmax",
                     "your mask is applied after softmax: blocked weights are 0 but the rows "
                     "no longer sum to 1. Put -inf into the blocked SCORES before softmax.",
                     softmax(s) * mask),
                    ("one_row.mask-zero-not-inf",
                     "blocked scores were set to 0, not -inf: exp(0) = 1, so blocked keys "
                     "still get weight. Use -inf.", softmax(s * mask)),
                    ("one_row.mask-inverted",
                     "your mask is inverted: you blocked the keys marked True. The convention "
                     "is True = may attend (blocked keys are False).",
                     softmax(_masked(s, ~mask))),
                ]
                if mask.shape[0] == mask.shape[1]:
                    w_mistakes.append((
                        "one_row.mask-reversed-causal",
                        "row 0 gives weight to later positions: your mask keeps the upper "
                        "triangle (the mask transposed), so position 0 reads the future. Row i "
                        "may attend to columns 0..i.", softmax(_masked(s, mask.T))))
        wtag = f"{tag}, weights"
        _named_mistake(got_w, ref_w, w_mistakes, wtag)
        _require_shape(got_w, ref_w, name=wtag, axes=("T_q", "T_k"), sizes=sizes)
        _weight_properties(got_w, wtag, what="row",
                           blocked=None if mask is None else ~mask)
        _order_kept(got_w, _masked(s, mask), wtag)
        core.compare(got_w, ref_w, name=wtag, axes=("T_q", "T_k"), sizes=sizes)

        otag = f"{tag}, out"
        _named_mistake(got_out, ref_out, [
            ("one_row.kv-swapped",
             "you swapped K and V: your output is the weighted sum of the KEYS. Keys are what "
             "queries match against; the output averages the values.", ref_w @ k),
            ("one_row.output-transposed",
             "your output is transposed: it must have one row per query, (T_q, d_v).",
             ref_out.T),
        ] + ([] if mask is None else [
            ("one_row.out-unmasked",
             "your output mixes the values with the UNMASKED weights: the weights you return "
             "are masked, but the output is not computed from them.",
             softmax(s) @ v),
        ]), otag)
        core.compare(got_out, ref_out, name=otag, axes=("T_q", "d_v"), sizes=sizes,
                     factors={"T_k": t_k, "√d_k": root})
    core.passed(
        f"{name}: weights (rows sum to 1, masked keys 0) and outputs on {len(cases)} inputs: no "
        "mask, causal, a non-triangular boolean mask, and scores in the thousands"
    )
