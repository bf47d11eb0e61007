"""Checks for lesson 11 (induction heads): the previous-token score and the induction score of
an attention pattern, a batch of repeated spans, and the rise of the loss when one head of an
attention-only model is zeroed.

Each check refuses the helpers.induction function it is compared with, runs the student's
function on canonical cases of several sizes (more, drawn from the grading seed, when grading),
names the anticipated mistakes first (ids "induction.<kebab-case>"), then what is left from the
relation between the wrong answer and the right one:

- the scores: every pattern mixes random causal softmax rows with planted heads (a previous-
  token head, an induction head, a head one position off, a sink on BOS, the current token), so
  every diagonal and every range of queries gives its own number. A wrong score is looked for
  among "the mean (or sum, or one example's mean) of the weights that queries a..b give key
  t - k", and the key, the queries or the reduction that differ are named;
- the batch: properties only, in the lesson's order (a long tensor (batch, 1 + 2·span), BOS
  = vocab_size - 1 in column 0 and nowhere else, ids 0..vocab_size - 2, the second copy equal
  to the first, rows that differ, the same generator state giving the same batch, the global
  RNG untouched, ids uniform over many rows);
- the ablation: the model handed to the student records every head_mask it is called with
  (it runs in the grader's process, so it records through the grader's bridge too), so a
  wrong mask is named (layer and head swapped, the whole layer, no zero at all, the same
  tensor for both); a wrong number is looked for among the loss differences over other target
  positions, unshifted targets, the opposite sign, the ratio and the sum.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import torch

from helpers.checks import core
from helpers.induction import (
    AttentionOnly,
    induction_score,
    prefix_matching_score,
    previous_token_score,
    repeated_span_batch,
)


def _key_words(k: int) -> str:
    """Key t - k in words: "key t - 1", "key t", "key t + 1"."""
    return "key t" if k == 0 else (f"key t - {k}" if k > 0 else f"key t + {-k}")


def _queries(a: int, b: int) -> str:
    return f"query {a}" if a == b else f"queries {a}..{b}"


# ------------------------------------------------------------------ ex1, ex2: a head's scores

PREV_FORBIDDEN = (
    "helpers.induction.previous_token_score",
    "helpers.induction.first_token_score",
    "helpers.induction.head_scores",
    "helpers.induction._diagonal",
)
IND_FORBIDDEN = (
    "helpers.induction.induction_score",
    "helpers.induction.head_scores",
    "helpers.induction._diagonal",
)


def _causal_softmax(rng, B: int, T: int, sharpness: float = 1.5) -> np.ndarray:
    """(B, T, T) random causal attention: a softmax over keys 0..t of random scores."""
    s = rng.normal(size=(B, T, T)) * sharpness
    s[:, ~np.tril(np.ones((T, T), bool))] = -np.inf
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _planted(kind: str, T: int, span: int | None) -> np.ndarray:
    """(T, T): one weight of 1 per query, on the key a head of this kind reads."""
    t = np.arange(T)
    if kind == "previous":
        key = np.maximum(t - 1, 0)
    elif kind == "one-off":
        key = np.maximum(t - 2, 0)
    elif kind == "self":
        key = t
    elif kind == "sink":
        key = np.zeros(T, int)
    else:  # on a repeated span: the second copy's queries read back, the others rest on BOS
        back = {"induction": span - 1, "duplicate": span, "one-past": span - 2}[kind]
        key = np.where(t > span, t - back, 0)
    rows = np.zeros((T, T))
    rows[t, key] = 1.0
    return rows


def _patterns(rng, T: int, kinds, span: int | None = None) -> np.ndarray:
    """(len(kinds), T, T) causal patterns: pattern b is a head of kind kinds[b] mixed with random
    causal attention (a kind ending in "!" is pure, "random" is the random part alone)."""
    noise = _causal_softmax(rng, len(kinds), T)
    out = noise.copy()
    for b, kind in enumerate(kinds):
        name = kind.rstrip("!")
        if name == "random":
            continue
        alpha = 1.0 if kind.endswith("!") else float(rng.uniform(0.5, 0.9))
        out[b] = alpha * _planted(name, T, span) + (1 - alpha) * noise[b]
    return out


_KINDS = ("previous", "one-off", "self", "sink", "random")
_SPAN_KINDS = ("induction", "duplicate", "one-past", "previous", "sink", "random")


LESSON_SPAN = 16  # the shipped model's batches: T = 1 + 2·16 = 33


def _prev_cases():
    """The lesson's size first (T = 33, a repeated-span pattern), so that an answer with the
    lesson's length hard-coded passes it and is named as hard-coded on the next, smaller case;
    then smaller ones, more when grading."""
    T = 1 + 2 * LESSON_SPAN
    rng = core.rng(50)
    cases = [
        _patterns(core.rng(52), T, ["previous", "induction", "sink", "random"], span=LESSON_SPAN),
        _patterns(rng, 7, ["previous", "random", "sink", "one-off"]),
        _patterns(rng, 2, ["random"]),  # the smallest: one query with a previous token
        _patterns(rng, 12, ["previous!", "self", "random"]),  # a perfect previous-token head
        _patterns(rng, 17, ["induction", "previous"], span=8),
    ]
    if core.grading():  # sizes and heads the notebook has not seen
        for _ in range(2):
            T = int(rng.integers(3, 21))
            kinds = [str(rng.choice(_KINDS)) for _ in range(int(rng.integers(1, 5)))]
            cases.append(_patterns(rng, T, kinds + ["random"]))
    return cases


def _ind_cases():
    """The lesson's span first (span = 16, T = 33: see _prev_cases), then smaller ones."""
    rng = core.rng(51)
    cases = [
        (_patterns(core.rng(53), 1 + 2 * LESSON_SPAN, ["induction", "duplicate", "previous",
                                                        "random"], span=LESSON_SPAN),
         LESSON_SPAN),
        (_patterns(rng, 9, ["induction", "duplicate", "random"], span=4), 4),
        (_patterns(rng, 5, ["induction", "previous"], span=2), 2),
        (_patterns(rng, 13, ["induction!", "one-past", "sink", "random"], span=6), 6),
        (_patterns(rng, 17, ["random"], span=8), 8),
    ]
    if core.grading():
        for _ in range(2):
            span = int(rng.integers(2, 10))
            kinds = [str(rng.choice(_SPAN_KINDS)) for _ in range(int(rng.integers(1, 4)))]
            cases.append((_patterns(rng, 1 + 2 * span, kinds + ["random"], span=span), span))
    return cases


def _number_type(result) -> str | None:
    """How to name `result` when it is ONE number of another type than a Python float (a 0-d
    tensor or array, a NumPy float32 or int scalar, an int); None for a float (np.float64 is
    one) and for anything that is not a single number."""
    if isinstance(result, float):
        return None
    if isinstance(result, torch.Tensor):
        if result.ndim == 0 and not (result.dtype == torch.bool or result.dtype.is_complex):
            return f"a 0-d torch tensor ({result.dtype})"
        return None
    if isinstance(result, np.ndarray):
        return f"a 0-d NumPy array ({result.dtype})" if (
            result.ndim == 0 and result.dtype.kind in "iuf") else None
    if isinstance(result, np.generic):
        return f"a NumPy {result.dtype} scalar" if result.dtype.kind in "iuf" else None
    if isinstance(result, int) and not isinstance(result, bool):
        return f"an int ({result})"
    return None


def _refuse_number_type(result, name: str, want: float, atol: float, what: str,
                        diagnosis: str) -> None:
    """Fail, saying the float expected, when `result` is one number of another type."""
    kind = _number_type(result)
    if kind is None:
        return
    value = float(result.detach().cpu().double() if isinstance(result, torch.Tensor) else result)
    right = math.isfinite(value) and math.isclose(value, want, rel_tol=1e-5, abs_tol=atol)
    core.fail(f"{name}: you returned {kind}; the exercise asks for {what} as a Python float. "
              "float(x) turns it into one (or x.item() for a tensor or a NumPy scalar)."
              + (" Your number is right." if right else " (Its value is not the right one "
                 "either: run the check again once it is a float, to hear what differs.)"),
              diagnosis)


def _score_value(result, name: str, want: float, B: int, n_queries: int, T: int):
    """The student's score as (float, computed in less than float64?), or a named failure."""
    if result is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    _refuse_number_type(result, name, want, 1e-6, "the score", "induction.score-not-a-number")
    value, low = result, False
    if isinstance(value, torch.Tensor):
        if value.dtype == torch.bool or value.dtype.is_complex:
            core.fail(f"{name}: return the score as one float; got a {value.dtype} tensor.",
                      "induction.score-not-a-number")
        low = value.dtype.is_floating_point and value.dtype.itemsize < 8
        value = value.detach().cpu().double().numpy()
    elif isinstance(value, (np.ndarray, np.generic)):
        if value.dtype.kind not in "iuf":
            core.fail(f"{name}: return the score as one float; got {type(result).__name__} of "
                      f"{value.dtype}.", "induction.score-not-a-number")
        low = value.dtype.kind == "f" and value.dtype.itemsize < 8
        value = np.asarray(value, dtype=float)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        value = np.asarray(float(value))
    else:
        core.fail(f"{name}: return the score as one float; got {type(result).__name__}.",
                  "induction.score-not-a-number")
    if value.ndim == 0:
        return float(value), low
    shape = value.shape
    if shape == (B,) and B != n_queries:
        how = ("one score per example: average over the batch as well (the score is one "
               "number for the head, the mean over every example and every query)")
    elif shape == (n_queries,) and B != n_queries:
        how = ("one number per query: average over the batch as well (the score is one "
               "number for the head, the mean over every example and every query)")
    elif shape == (B, n_queries):
        how = "the weights themselves, one per example and query: their mean is the score"
    elif shape in ((B, T), (T,), (B, T, T), (T, T)):
        how = "a number per position, not one score"
    else:
        how = "one float is expected, the mean over the batch and the queries"
    note = ""
    if value.size and math.isclose(float(value.mean()), want, rel_tol=1e-6, abs_tol=1e-9):
        note = " Their mean is the right score."
    core.fail(f"{name}: your function returned an array of shape {shape}: {how}.{note} Return "
              "one float (float(...) or .item() turns a 0-d result into one).",
              "induction.score-shape")


_TORCH_KEYWORD = re.compile(r"'(dim|dim1|dim2|keepdim)' is an invalid keyword argument"
                            r"|unexpected keyword argument '(dim|dim1|dim2|keepdim)'")
_NUMPY_ATTRIBUTE = re.compile(r"'numpy\.\w+' object has no attribute '(\w+)'")


def _score_call(fn, *args, name: str):
    """core.call(fn, *args) for a score, whose weights are a NumPy array: torch's keywords
    (dim=, dim1=, keepdim=) or a torch.Tensor method used on it is named, not left as NumPy's
    TypeError or AttributeError."""
    try:
        return core.call(fn, *args, name=name)
    except (TypeError, AttributeError) as error:
        said = str(error)
        keyword = _TORCH_KEYWORD.search(said) if isinstance(error, TypeError) else None
        method = _NUMPY_ATTRIBUTE.search(said) if isinstance(error, AttributeError) else None
        if keyword is None and not (method and hasattr(torch.Tensor, method.group(1))):
            raise
        what = (f"torch's keyword {next(g for g in keyword.groups() if g)}=" if keyword
                else f"torch's method .{method.group(1)}()")
        core.fail(f"{name}: your function raised {type(error).__name__} ({said}): it uses "
                  f"{what} on `weights`, which is a NumPy array here. NumPy names the axes "
                  "axis=, axis1=, axis2= (np.diagonal(weights, offset, axis1=1, axis2=2), "
                  "weights.mean(axis=...), keepdims=); or turn the array into a tensor first, "
                  "torch.as_tensor(weights), and use torch's names on that.",
                  "induction.score-torch-on-numpy")


_REDUCTIONS = ("mean", "query-sum", "batch-sum", "sum", "first", "last")
_REDUCTION_WORDS = {
    "query-sum": "summed over the queries (then averaged over the batch)",
    "batch-sum": "summed over the batch (then averaged over the queries)",
    "sum": "summed over the batch and the queries",
    "first": "averaged over the first example of the batch only",
    "last": "averaged over the last example of the batch only",
}


def _diagonal_search(w: np.ndarray, got: float, right_key: int, right_range, tol: float):
    """(reduction, k, a, b) such that reducing w[:, t, t - k] over queries t = a..b gives `got`,
    or None. Indices as NumPy reads them (a negative t - k wraps to the end of the row). The
    reduction, key and range nearest the right ones come first."""
    B, T, _ = w.shape
    t = np.arange(T)
    a0, b0 = right_range
    a_idx, b_idx = np.meshgrid(np.arange(T), np.arange(T), indexing="ij")  # (T, T): a, b
    upper = b_idx >= a_idx
    n = np.where(upper, b_idx - a_idx + 1, 1).astype(float)  # b < a: no range (masked below)
    found = []
    for k in range(-(T - 1), T):
        key = t - k
        ok = key < T  # a key past the end raises in NumPy: no student gets a number from it
        vals = np.zeros((B, T))
        vals[:, ok] = w[:, t[ok], key[ok]]
        csum = np.concatenate([np.zeros((B, 1)), np.cumsum(vals, axis=1)], axis=1)
        bad = np.concatenate([[0], np.cumsum(~ok)])
        S = csum[:, b_idx + 1] - csum[:, a_idx]  # (B, T, T): sums over queries a..b
        valid = upper & (bad[b_idx + 1] - bad[a_idx] == 0)
        values = {"mean": S.mean(0) / n, "query-sum": S.mean(0), "batch-sum": S.sum(0) / n,
                  "sum": S.sum(0), "first": S[0] / n, "last": S[-1] / n}
        for r, reduction in enumerate(_REDUCTIONS):
            hits = valid & np.isclose(values[reduction], got, rtol=tol, atol=tol * 1e-3)
            for a, b in zip(*np.nonzero(hits), strict=True):
                found.append(((r, abs(k - right_key), abs(a - a0) + abs(b - b0), k, a, b),
                              (reduction, k, int(a), int(b))))
    if not found:
        return None
    return min(found)[1]


def _judge_score(got, low_precision: bool, want: float, name: str, *, mistakes, zero,
                 search, fallback):
    """Pass when got is the score; else the first named mistake it equals, its relation to
    the right number (`search` -> (id, message) or None), or `fallback`."""
    if math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6):
        core.compare(got, want, name=name)  # record the passed case (for later diagnoses)
        return
    tol = 1e-6 if low_precision else 1e-9
    if math.isinf(got):
        core.fail(f"{name}: your score is {got}: a mean of weights between 0 and 1 cannot be "
                  "infinite. A division by zero (a count of 0 queries?) or a log of 0?",
                  "generic.inf")
    for diagnosis, message, wrong in mistakes:
        if wrong is None or (not math.isnan(wrong) and math.isclose(wrong, want, rel_tol=1e-9,
                                                                    abs_tol=1e-12)):
            continue
        if math.isclose(got, wrong, rel_tol=tol, abs_tol=tol * 1e-3) or (
                math.isnan(got) and math.isnan(wrong)):
            core.fail(f"{name}: {message}", diagnosis)
    if abs(got) < 1e-12 and abs(want) > 1e-9:
        core.fail(f"{name}: {zero}", "induction.score-above-diagonal")
    found = search(got, tol)
    if found is not None:
        diagnosis, message = found
        core.fail(f"{name}: {message}", diagnosis)
    core.fail(f"{name}: your score is {got:.6g}; the reference is {want:.6g}. {fallback}",
              "induction.score-wrong-value")


def _reduction_note(reduction: str) -> str:
    if reduction == "mean":
        return ""
    return f", {_REDUCTION_WORDS[reduction]}"


def _score_reduction(reduction: str, what: str):
    """(id, message) for the right weights reduced the wrong way."""
    if reduction in ("first", "last"):
        return ("induction.score-one-example",
                f"your score is {what} {_REDUCTION_WORDS[reduction]}: the score averages over "
                "every pattern of the batch too (weights[:, ...], all of axis 0), not "
                f"weights[{0 if reduction == 'first' else -1}].")
    return ("induction.score-sum",
            f"your score is {what} {_REDUCTION_WORDS[reduction]}: the score is their MEAN "
            "over the batch and the queries (.mean() of all of them), so that it is 1 for a "
            "perfect head whatever the batch size and length.")


def _common_mistakes(w, t, key):
    """The mistakes both scores share: whole rows averaged (np.diagonal's default axes, or
    every weight), an empty selection, the argmax instead of the weight."""
    T = w.shape[-1]
    return [
        ("induction.score-whole-rows",
         f"your score is 1/T = {1 / T:.4g}, the mean weight of whole rows (every row of a "
         "pattern sums to 1): you averaged every key of each query, not the one key the score "
         "reads. np.diagonal (and torch.diagonal) of a 3-D array reads the diagonal of its "
         "FIRST two axes by default, the batch and the queries, which picks whole rows; name "
         "the query and key axes, np.diagonal(weights, offset, axis1=1, axis2=2), or index "
         "weights[:, t, key] with two arrays of positions.", 1 / T),
        ("induction.score-empty",
         "your score is NaN, the mean of an empty selection. np.diagonal (and torch.diagonal) "
         "of a 3-D array reads the diagonal of its FIRST two axes by default, the batch and "
         "the queries, which is empty at this offset; name the query and key axes, "
         "np.diagonal(weights, offset, axis1=1, axis2=2), or index weights[:, t, key] with "
         "two arrays of positions.", math.nan),
        ("induction.score-outer-index",
         f"your score is the mean of every (query, key) PAIR of your two ranges, a "
         f"{len(t)} x {len(key)} block: weights[:, t][:, :, key] (like np.ix_, or a slice "
         "of each axis) takes the queries, then the keys of every one of them. The score "
         "reads one key per query, the pairs (t, key) of one diagonal: index both axes at "
         "once, weights[:, t, key], with two arrays of the same length.",
         float(w[:, t][:, :, key].mean())),
        ("induction.score-argmax",
         "your score counts the queries whose LARGEST weight is on the key (an argmax): the "
         "score is the mean of the weight itself, so that a head that gives the key 0.6 scores "
         "0.6, not 1.",
         float((w[:, t].argmax(-1) == key).mean())),
    ]


@core.exercise
def check_previous_token_score(my_previous_token_score) -> None:
    """Exercise: my_previous_token_score(weights (B, T, T)) -> the mean weight on key t - 1."""
    core.forbid(my_previous_token_score, PREV_FORBIDDEN, name="my_previous_token_score",
                why="Index the weights yourself with NumPy (or torch): helpers.induction's "
                    "scores are what the check compares you with.")
    cases = _prev_cases()
    for w in cases:
        B, T, _ = w.shape
        name = f"my_previous_token_score(weights of shape {w.shape})"
        want = float(previous_token_score(w).mean())
        result = _score_call(my_previous_token_score, w, name="my_previous_token_score")
        got, low = _score_value(result, name, want, B, T - 1, T)
        t = np.arange(1, T)
        mistakes = [
            ("induction.prev-query-zero",
             f"you included query 0, reading its weight on key 0 (the index t - 1 clipped to "
             f"0): query 0 has no previous token, and its weight on key 0 is 1 for every "
             f"causal head. Average over the T - 1 = {T - 1} queries 1..T-1 only.",
             float(w[:, np.arange(T), np.maximum(np.arange(T) - 1, 0)].mean())),
            ("induction.prev-wrong-key",
             "your score is the mean weight on key 0 (column 0, the first token): that is a "
             "sink's score. The previous-token score reads, for each query t, its key t - 1, "
             "one position before it: the diagonal just below the main one.",
             float(w[:, 1:, 0].mean())),
            *_common_mistakes(w, t, t - 1),
        ]

        def search(got, tol, w=w, T=T, sizes=frozenset(c.shape[-1] for c in cases)):
            found = _diagonal_search(w, got, 1, (1, T - 1), tol)
            if found is None:
                return None
            reduction, k, a, b = found
            what = f"the weight {_queries(a, b)} give {_key_words(k)}{_reduction_note(reduction)}"
            if k == 1 and (a, b) == (0, T - 1):
                return ("induction.prev-query-zero",
                        f"you averaged over all T = {T} queries, query 0 included (its index "
                        "t - 1 = -1 wraps round to the LAST key, a weight of 0), or divided "
                        f"by T instead of T - 1: query 0 has no previous token. Average over "
                        f"the T - 1 = {T - 1} queries 1..T-1."
                        + ("" if reduction == "mean" else
                           f" (Your weights are also {_REDUCTION_WORDS[reduction]}.)"))
            if k == 1 and (a, b) == (1, T - 1):
                return _score_reduction(reduction, "the weight on key t - 1")
            if k == 1 and a == 1 and b + 1 in sizes and b + 1 < T - 1:  # not off by one
                return ("generic.hard-coded-size",
                        f"your score is the mean of {what}: the right key and queries for a "
                        f"pattern of length T = {b + 1} (another case of this check), not for "
                        f"this one's T = {T}. Is the length hard-coded instead of read from "
                        "the weights, T = weights.shape[-1]?")
            if k != 1:
                which = {0: "the current token itself, the main diagonal",
                         2: "two positions back"}.get(k, "")
                which = f" ({which})" if which else ""
                return ("induction.prev-wrong-key",
                        f"your score is the mean of {what}{which}: the previous-token score "
                        "reads, for each query t, key t - 1, the one just before it "
                        "(weights[:, t, t - 1], the diagonal just below the main one, "
                        "offset -1) over queries 1..T-1.")
            return ("induction.prev-wrong-queries",
                    f"your score is the mean of {what}: the key is right, the queries are not. "
                    f"Every query that has a previous token counts, 1..T-1 = 1..{T - 1} "
                    "(all but query 0).")

        _judge_score(
            got, low, want, name, mistakes=mistakes,
            zero=("your score is 0, on patterns whose score is not: you read weights above "
                  "the diagonal, which a causal pattern keeps at 0. Key t + 1 (the next "
                  "token, np.diagonal with offset=+1) is the future; weights[:, t - 1, t] "
                  "swaps rows and columns (row t - 1 is query t - 1). Row t of weights[b] is "
                  "query t, and its entry t - 1 the previous key: weights[:, t, t - 1], "
                  "offset -1."),
            search=search,
            fallback="It is not the mean weight of a range of queries on one key t - k: "
                     "compare your indices with weights[:, t, t - 1] for t = 1..T-1.")
    sizes = sorted(w.shape[-1] for w in cases)
    core.passed(f"my_previous_token_score: the mean weight on key t - 1 over queries 1..T-1 "
                f"and the batch, for {len(cases)} patterns (T = {sizes[0]} to {sizes[-1]}), "
                "incl. a perfect previous-token head")


@core.exercise
def check_induction_score(my_induction_score) -> None:
    """Exercise: my_induction_score(weights, span) -> the mean weight on key t - span + 1."""
    core.forbid(my_induction_score, IND_FORBIDDEN, name="my_induction_score",
                why="Index the weights yourself with NumPy (or torch): helpers.induction's "
                    "scores are what the check compares you with.")
    cases = _ind_cases()
    for w, span in cases:
        B, T, _ = w.shape
        name = f"my_induction_score(weights of shape {w.shape}, span={span})"
        want = float(induction_score(w, span, prefix=1).mean())
        result = _score_call(my_induction_score, w, span, name="my_induction_score")
        got, low = _score_value(result, name, want, B, span, T)
        t = np.arange(span + 1, 2 * span + 1)
        mistakes = _common_mistakes(w, t, t - span + 1)

        def search(got, tol, w=w, T=T, span=span, spans=frozenset(s for _, s in cases)):
            found = _diagonal_search(w, got, span - 1, (span + 1, 2 * span), tol)
            if found is None:
                return None
            reduction, k, a, b = found
            what = f"the weight {_queries(a, b)} give {_key_words(k)}{_reduction_note(reduction)}"
            right_queries = (a, b) == (span + 1, 2 * span)
            if k == span - 1 and right_queries:
                return _score_reduction(reduction, f"the weight on key t - span + 1 = t - {k}")
            other = k + 1
            if abs(other - span) > 1 and other in spans and (a, b) == (other + 1, 2 * other):
                return ("generic.hard-coded-size",
                        f"your score is the mean of {what}: the right key and queries for "
                        f"span = {other} (another case of this check), not for this one's "
                        f"span = {span}. Is the span hard-coded instead of read from the "
                        "argument `span`?")
            queries_note = "" if right_queries else (
                f" (and the second copy's queries are span+1..2·span = {span + 1}..{2 * span}, "
                f"not {a}..{b})")
            if k == span:
                return ("induction.ind-duplicate-key",
                        f"your score is the mean of {what} = t - span: the earlier occurrence "
                        "of the current token itself (what a duplicate-token head reads). An "
                        "induction head reads the token AFTER it, key t - span + 1, whose "
                        f"token comes next in the copy{queries_note}.")
            if k == span - 2:
                return ("induction.ind-wrong-key",
                        f"your score is the mean of {what} = t - span + 2, one past the "
                        "induction key. If you added 1 for the BOS: it is counted already, "
                        "since t is a position of the whole row (position t - span holds the "
                        "same token as t, and t - span + 1 the token after it)."
                        + queries_note)
            if k == 1:
                return ("induction.ind-previous-token",
                        f"your score is the mean of {what}, the previous-token score: the "
                        "induction score reads key t - span + 1, the token after the earlier "
                        f"occurrence, one span back{queries_note}.")
            if k != span - 1:
                return ("induction.ind-wrong-key",
                        f"your score is the mean of {what}: the induction key of query t is "
                        "t - span + 1 (the earlier occurrence of its token is t - span, the "
                        f"token after it t - span + 1){queries_note}.")
            if b <= span:
                return ("induction.ind-first-copy",
                        f"your score is the mean of {what}: those queries are in the FIRST "
                        f"copy (positions 1..span = 1..{span}), where nothing has been seen "
                        "before and t - span + 1 is not a key of the span (a negative index "
                        "even wraps round to the end of the row). Score the second copy's "
                        f"queries, span+1..2·span = {span + 1}..{2 * span}.")
            if (a, b) == (span, 2 * span - 1):
                return ("induction.ind-no-bos",
                        f"your score is the mean of {what}: the queries are one position early. "
                        "Position 0 is the BOS, so the first copy is 1..span and the second "
                        f"copy span+1..2·span = {span + 1}..{2 * span}.")
            if b == 2 * span and a < span:
                return ("induction.ind-whole-diagonal",
                        f"your score is the mean of {what}: the whole diagonal t - span + 1, "
                        "first copy included. Only the second copy's queries, "
                        f"span+1..2·span = {span + 1}..{2 * span}, have an earlier occurrence "
                        "to read.")
            return ("induction.ind-query-range",
                    f"your score is the mean of {what}: the key is right, the queries are "
                    f"not. The second copy is every query span+1..2·span = "
                    f"{span + 1}..{2 * span} (its first and its last included).")

        _judge_score(
            got, low, want, name, mistakes=mistakes,
            zero=("your score is 0, on patterns whose score is not: you read weights above "
                  "the diagonal, which a causal pattern keeps at 0 (weights[:, t - span + 1, "
                  "t] swaps rows and columns; row t of weights[b] is query t). The induction "
                  "key of query t comes before it: weights[:, t, t - span + 1]."),
            search=search,
            fallback="It is not the mean weight of a range of queries on one key t - k: "
                     "compare your indices with weights[:, t, t - span + 1] for "
                     "t = span+1..2·span.")
    spans = sorted(span for _, span in cases)
    core.passed(f"my_induction_score: the mean weight on key t - span + 1 over the second "
                f"copy's queries span+1..2·span and the batch, for {len(cases)} patterns "
                f"(span = {spans[0]} to {spans[-1]}), incl. a perfect induction head next to "
                "one a key off")


# ------------------------------------------------------------------ ex3: a repeated-span batch

BATCH_FORBIDDEN = (
    "helpers.induction.repeated_span_batch",
    "helpers.induction.training_batch",
)
UNIFORM_CASE = (3000, 4, 7)  # 12000 draws over 6 ordinary ids


def _batch_cases():
    """(batch, span, vocab_size): one span of 1 (T = 3), vocab 3 (two ordinary ids), the
    lesson's (8, 16, 64); more when grading."""
    cases = [(4, 5, 10), (2, 1, 3), (3, 7, 5), (8, 16, 64)]
    if core.grading():
        rng = core.rng(61)
        cases += [(int(rng.integers(2, 7)), int(rng.integers(2, 13)), int(rng.integers(4, 81)))
                  for _ in range(2)]
    return cases


def _global_states():
    return torch.random.get_rng_state(), np.random.get_state()


def _same_states(a, b) -> bool:
    (ta, na), (tb, nb) = a, b
    return bool(torch.equal(ta, tb)) and na[0] == nb[0] and np.array_equal(na[1], nb[1]) and (
        tuple(na[2:]) == tuple(nb[2:]))


def _set_states(states) -> None:
    torch.random.set_rng_state(states[0])
    np.random.set_state(states[1])


def _batch_tensor(result, name: str, batch: int, span: int, V: int) -> torch.Tensor:
    """The student's batch as a long tensor of the right shape, or a named failure."""
    if result is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    if not isinstance(result, torch.Tensor):
        kind = ("a NumPy array" if isinstance(result, np.ndarray)
                else f"a {type(result).__name__}")
        core.fail(f"{name}: you returned {kind}; return a torch tensor, the (batch, 1 + 2·span) "
                  "ids a model's embedding reads: build it with torch (torch.full, "
                  "torch.randint(..., generator=generator), torch.cat).",
                  "induction.batch-not-a-tensor")
    if result.dtype.is_floating_point:
        core.fail(f"{name}: your ids are {result.dtype}, floats: token ids are whole numbers of "
                  "dtype long (torch.int64), the only kind an embedding accepts. torch.randint "
                  "and torch.full(..., vocab_size - 1) give long tensors, but torch.ones(...) "
                  "* (vocab_size - 1) is float, and torch.cat then makes the whole batch float.",
                  "induction.batch-float")
    if result.dtype != torch.long:
        core.fail(f"{name}: your ids are {result.dtype}; token ids are torch.long (int64), "
                  "what an embedding accepts and what torch.randint and torch.full give. Leave "
                  "out the dtype (or use dtype=torch.long).", "induction.batch-dtype")
    T = 1 + 2 * span
    shape = tuple(result.shape)
    if shape == (batch, T):
        return result
    got = f"your batch has shape {shape}; expected (batch, 1 + 2·span) = {(batch, T)}"
    bos = V - 1
    if shape == (batch, 2 * span):
        core.fail(f"{name}: {got}. The BOS is missing: every row starts with the "
                  f"beginning-of-sequence id vocab_size - 1 = {bos}, then the span, then the "
                  "span again (torch.cat of a (batch, 1) column of BOS ids and the two copies).",
                  "induction.batch-no-bos")
    if shape in ((batch, span, 2), (batch, 2, span)) or (
            len(shape) == 3 and shape[0] == batch and 2 in shape[1:]):
        core.fail(f"{name}: {got}: torch.stack puts the two copies on a new axis. Join the "
                  "BOS column and the two copies end to end along the positions, "
                  "torch.cat([...], dim=1), so that each row is one sequence.",
                  "induction.batch-layout")
    if shape == (T, batch) and T != batch:
        core.fail(f"{name}: {got}: rows and columns are swapped. Each ROW is one sequence "
                  "(batch rows of 1 + 2·span positions): concatenate along dim=1.",
                  "induction.batch-layout")
    if shape == (batch, 2 + 2 * span):
        core.fail(f"{name}: {got}, one position too many: a BOS before each copy? Only "
                  f"position 0 holds the BOS ({bos}); the second copy follows the first "
                  "directly.", "induction.batch-bos-twice")
    if shape == (batch, 1 + span):
        core.fail(f"{name}: {got}: one copy of the span only. The row is the BOS, the span, "
                  "then the same span again.", "induction.batch-one-copy")
    core.fail(f"{name}: {got}.", "induction.batch-shape")


def _chance_all_equal(n_draws: int, V: int) -> float:
    """The chance that n_draws independent uniform ids over V - 1 values all match given ones."""
    return math.exp(-n_draws * math.log(V - 1)) if V > 2 else 1.0


def _batch_properties(ids: torch.Tensor, name: str, batch: int, span: int, V: int) -> None:
    bos = V - 1
    col0 = ids[:, 0]
    if not bool((col0 == bos).all()):
        if bool((col0 == 0).all()):
            core.fail(f"{name}: column 0 holds id 0: the BOS is id vocab_size - 1 = {bos}, the "
                      "last id of the vocabulary, which no span contains (0 is an ordinary "
                      "token). torch.full((batch, 1), vocab_size - 1).", "induction.batch-bos-id")
        if bool((ids[:, -1] == bos).all()):
            core.fail(f"{name}: your BOS ({bos}) is at the END of each row: it begins the "
                      "sequence, column 0, before the span.", "induction.batch-bos-id")
        shown = sorted(set(col0.tolist()))[:6]
        core.fail(f"{name}: column 0 should be the BOS id vocab_size - 1 = {bos} in every row; "
                  f"yours holds {shown}.", "induction.batch-bos-id")
    rest = ids[:, 1:]
    if int(rest.min()) < 0 or int(rest.max()) > bos:
        core.fail(f"{name}: your ids run from {int(rest.min())} to {int(rest.max())}, outside the "
                  f"vocabulary 0..vocab_size-1 = 0..{bos}, which an embedding refuses: the "
                  f"span's ids are the ordinary ids 0..vocab_size-2 = 0..{bos - 1}, exactly what "
                  "torch.randint(vocab_size - 1, ...) draws (no shift needed).",
                  "induction.batch-range")
    if bool((rest == bos).any()):
        core.fail(f"{name}: the BOS id {bos} appears inside the spans: the span's ids are the "
                  f"ORDINARY ids 0..vocab_size-2 = 0..{bos - 1}, so that the BOS marks only the "
                  f"start. torch.randint's high is exclusive: torch.randint(vocab_size - 1, "
                  "...) draws 0..vocab_size-2; torch.randint(vocab_size, ...) can draw the "
                  "BOS.", "induction.batch-bos-drawn")
    first, second = ids[:, 1 : span + 1], ids[:, span + 1 :]
    if not torch.equal(first, second):
        if span > 1 and torch.equal(ids[:, 1::2], ids[:, 2::2]):
            core.fail(f"{name}: every token of your row is repeated at once (s0 s0 s1 s1 ...): "
                      "stacking the two copies on a last axis and flattening interleaves them. "
                      "The copies follow one another: BOS, the whole span, then the whole span "
                      "again (torch.cat along dim=1).", "induction.batch-interleaved")
        if torch.equal(second, first.flip(1)) and span > 1:
            core.fail(f"{name}: your second copy is the first one reversed: it repeats the "
                      "span in the same order.", "induction.batch-copies-differ")
        core.fail(f"{name}: positions span+1..2·span are not a copy of positions 1..span: two "
                  "independent spans? Draw the span ONCE and put that same tensor in twice; "
                  "the repeat is what an induction head finds.", "induction.batch-copies-differ")
    if batch > 1 and _chance_all_equal(span * (batch - 1), V) < 1e-9 and bool(
            (first == first[:1]).all()):
        core.fail(f"{name}: every row holds the same span: draw a (batch, span) tensor of ids, a "
                  "different span in every row, not one span of `span` ids repeated for the "
                  "whole batch.", "induction.batch-same-rows")


@core.exercise
@core.single_threaded
def check_repeated_span_batch(my_repeated_span_batch) -> None:
    """Exercise: my_repeated_span_batch(batch, span, vocab_size, generator) -> (batch, 1+2·span)."""
    fname = "my_repeated_span_batch"
    core.forbid(my_repeated_span_batch, BATCH_FORBIDDEN, name=fname,
                why="Build the batch yourself with torch.full, torch.randint and torch.cat: "
                    "helpers.induction.repeated_span_batch is what the lesson used.")
    cases = _batch_cases()
    for number, (batch, span, V) in enumerate(cases + [UNIFORM_CASE]):
        seed = 60 + number
        name = f"{fname}({batch}, {span}, {V}, generator)"
        before = _global_states()
        try:
            result = core.call(my_repeated_span_batch, batch, span, V,
                               core.torch_generator(seed), name=fname)
        finally:
            after = _global_states()
            _set_states(before)
        ids = _batch_tensor(result, name, batch, span, V)
        _batch_properties(ids, name, batch, span, V)
        if not _same_states(before, after):
            core.follows_its_rng(my_repeated_span_batch,
                                 lambda b=batch, s=span, v=V, n=seed: (b, s, v,
                                                                        core.torch_generator(n)),
                                 name=fname)
            core.fail(f"{name}: your function changes the global random state (torch.manual_seed, "
                      "np.random.seed, or a draw without generator=): the rest of the notebook "
                      "draws from it, and a batch function must leave it alone. Draw only from "
                      "`generator`: torch.randint(..., generator=generator).",
                      "induction.batch-global-seed")
        if (batch, span, V) == UNIFORM_CASE:
            _uniform(ids, name, span, V)
            continue
        again = core.call(my_repeated_span_batch, batch, span, V, core.torch_generator(seed),
                          name=fname)
        if not (isinstance(again, torch.Tensor) and again.shape == ids.shape
                and torch.equal(again, ids)):
            core.fail(f"{name}: two generators in the same state gave two different batches: "
                      "draw every id from `generator` (torch.randint(..., generator=generator)), "
                      "not from Python's random, NumPy, or a generator of your own, so that the "
                      "same generator state gives the same batch.",
                      "induction.batch-not-reproducible")
        if _chance_all_equal(batch * span, V) < 1e-9:
            other = core.call(my_repeated_span_batch, batch, span, V,
                              core.torch_generator(seed + 500), name=fname)
            if isinstance(other, torch.Tensor) and torch.equal(other, ids):
                core.fail(f"{name}: two generators of different seeds gave the same batch: your "
                          "function does not draw from the generator it is given (a generator "
                          "of its own, or a fixed seed). Pass it on: torch.randint(..., "
                          "generator=generator).", "induction.batch-ignores-generator")
    core.passed(f"{fname}: BOS = vocab_size - 1, a span drawn from the generator, the same span "
                f"again, as long ids, for {len(cases)} sizes; the same generator state gives the "
                f"same batch, the global RNG is untouched, and {UNIFORM_CASE[0] * UNIFORM_CASE[1]} "
                "draws are uniform over the ordinary ids")


def _uniform(ids: torch.Tensor, name: str, span: int, V: int) -> None:
    """Every ordinary id is drawn about equally often over many rows."""
    drawn = ids[:, 1 : span + 1].flatten()
    counts = torch.bincount(drawn, minlength=V - 1)[: V - 1].double()
    expected = drawn.numel() / (V - 1)
    missing = [i for i in range(V - 1) if counts[i] == 0]
    if missing:
        cause = ""
        if missing == [V - 2]:
            cause = (f" The last ordinary id, vocab_size - 2 = {V - 2}, is never drawn: "
                     "torch.randint's high is exclusive, so torch.randint(vocab_size - 1, ...) "
                     "draws 0..vocab_size-2, one more than torch.randint(vocab_size - 2, ...).")
        elif missing == [0]:
            cause = (" Id 0 is never drawn: the ordinary ids start at 0 (torch.randint(low=0, "
                     "high=vocab_size - 1, ...)).")
        core.fail(f"{name}: ids {missing} never appear in {drawn.numel()} draws: each token is "
                  f"uniform over the ordinary ids 0..vocab_size-2 = 0..{V - 2}.{cause}",
                  "induction.batch-not-uniform")
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    if chi2 > 60:  # df = V - 2 = 5: a uniform draw passes with probability 1 - 1e-10
        worst = int(torch.argmax((counts - expected).abs()))
        core.fail(f"{name}: your ids are not uniform over 0..{V - 2}: over {drawn.numel()} "
                  f"draws id {worst} appears {int(counts[worst])} times, where each id appears "
                  f"about {expected:.0f} times. Draw each id with torch.randint(vocab_size - 1, "
                  "(batch, span), generator=generator).", "induction.batch-not-uniform")


# ------------------------------------------------------------------ ex4: ablate one head

ABLATION_FORBIDDEN = (
    "helpers.induction.copy_losses",
    "helpers.induction.loss_by_position",
    "helpers.induction.repeat_advantage",
    "helpers.induction.ablation_mask",
)
ABLATION_ATOL = 1e-5  # float32 rounding of valid alternatives reaches 1.4e-6


class WatchedAttentionOnly(AttentionOnly):
    """The model a check hands my_ablation_effect: the lesson's AttentionOnly, which records the
    head_mask of every call, runs without autograd (its logits never require grad, in the
    notebook as through the grader's bridge), and notices a change of its weights."""

    def watch(self) -> WatchedAttentionOnly:
        self.eval()
        self.calls: list[torch.Tensor] = []
        self.original = {k: v.detach().clone() for k, v in self.state_dict().items()}
        self.tampered = False
        return self

    def changed(self) -> list[str]:
        """The names of the weights that differ from the ones it was handed out with."""
        now = self.state_dict()
        return [k for k, v in self.original.items()
                if k not in now or now[k].dtype != v.dtype or now[k].shape != v.shape
                or not torch.equal(now[k], v)]

    def run(self, idx, head_mask=None, attn_mask=None):
        checked = self._check_head_mask(head_mask)
        self.calls.append(torch.ones(self.n_layers, self.n_heads) if checked is None
                          else checked.detach().float().clone())
        if self.changed():
            self.tampered = True
        with torch.no_grad():
            return super().run(idx, head_mask, attn_mask)


def _watched(base: AttentionOnly) -> WatchedAttentionOnly:
    model = WatchedAttentionOnly(**base.config(), seed=0)
    model.load_state_dict(base.state_dict())
    return model.watch()


@functools.cache
def _shipped() -> AttentionOnly | None:
    """The course's trained induction model (data/weights/induction.pt), or None without it."""
    from helpers import pretrained

    try:
        return pretrained.load("induction")
    except (pretrained.WeightsError, OSError):
        return None


def _random_model(n_layers: int, n_heads: int, vocab: int, max_len: int, seed: int):
    d_model = 4 * n_heads
    return AttentionOnly(vocab, d_model=d_model, n_heads=n_heads, n_layers=n_layers,
                         max_len=max_len, seed=core.seed(seed))


def _ablation_cases():
    """(label, model, layer, head, span, batch, seed)."""
    small = _random_model(2, 3, 11, 17, 70)  # 2 layers x 3 heads: (1, 0) and (0, 1) differ
    deep = _random_model(3, 2, 9, 13, 71)
    shipped = _shipped()
    cases = []
    if shipped is not None:
        cases.append(("the trained model's previous-token head", shipped, 0, 1, 16, 8, 80))
    cases += [
        ("a random 2-layer, 3-head model", small, 1, 0, 5, 4, 81),
        ("a random 3-layer, 2-head model", deep, 2, 1, 3, 3, 82),
    ]
    if shipped is not None:
        cases.append(("the trained model's induction head", shipped, 1, 1, 12, 6, 83))
    cases.append(("a random 2-layer, 3-head model", small, 0, 2, 7, 2, 84))
    if shipped is not None:
        cases.append(("the trained model's sink head", shipped, 0, 0, 16, 4, 85))
    if core.grading():
        rng = core.rng(72)
        cases.append(("a random 2-layer, 3-head model", small, int(rng.integers(0, 2)),
                      int(rng.integers(0, 3)), int(rng.integers(2, 9)), int(rng.integers(1, 5)),
                      86))
        if shipped is not None:
            cases.append(("the trained model", shipped, int(rng.integers(0, 2)),
                          int(rng.integers(0, 2)), int(rng.integers(4, 17)),
                          int(rng.integers(2, 9)), 87))
    return cases


def _losses(model, ids, mask) -> tuple[np.ndarray, np.ndarray]:
    """Per-position mean losses over the batch, float64: shifted[i] = logits i against ids i+1
    (T - 1,), same[i] = logits i against ids i (T,)."""
    with torch.no_grad():
        logp = model(ids, mask).double().log_softmax(-1)  # (B, T, V)
    shifted = -logp[:, :-1].gather(-1, ids[:, 1:, None]).squeeze(-1)  # (B, T-1)
    same = -logp.gather(-1, ids[:, :, None]).squeeze(-1)  # (B, T)
    return shifted.mean(0).numpy(), same.mean(0).numpy()


_COMBINE = (  # (key, how (intact I, ablated A, n predictions) -> value, words)
    ("diff", lambda i, a, n: a - i, ""),
    ("sign", lambda i, a, n: i - a, "intact minus ablated"),
    ("ratio", lambda i, a, n: a / i, "the ratio ablated / intact"),
    ("inverse-ratio", lambda i, a, n: i / a, "the ratio intact / ablated"),
    ("relative", lambda i, a, n: (a - i) / i, "the relative rise (ablated - intact) / intact"),
    ("sum", lambda i, a, n: (a - i) * n, "the difference of SUMMED losses (reduction='sum')"),
)


def _named_windows(span: int, T: int):
    """(shifted, a, b): the target ranges a learner plausibly scores instead of the right one,
    most likely first."""
    return [
        (True, span + 2, 2 * span),  # the right targets (with another combination)
        (True, span + 1, 2 * span),  # the copy's first token included
        (True, 2, span), (True, 1, span), (True, 2, span + 1), (True, 1, span - 1),  # first copy
        (True, 1, T - 1), (True, 2, T - 1),  # every position
        (False, span + 1, 2 * span - 1), (False, span + 2, 2 * span),  # targets not shifted
        (False, span + 1, 2 * span),
        (True, span + 3, 2 * span), (True, span + 2, 2 * span - 1), (True, span + 1, 2 * span - 1),
    ]


def _window_value(losses, shifted, a, b):
    """The per-position losses of targets a..b (shifted: predicted one position earlier)."""
    per = losses[0] if shifted else losses[1]
    lo = 1 if shifted else 0  # shifted: per[i] is the loss of target i + 1
    if not (lo <= a <= b < len(per) + lo):
        return None
    return per[a - lo : b - lo + 1]


def _window_search(got, intact, ablated, span, B, tol):
    """(combine, shifted, a, b): `got` is combine(intact, ablated) of the mean loss over the
    targets a..b (shifted: logits a-1..b-1 against ids a..b; else logits a..b against ids
    a..b). The named windows are tried first at `tol`; then every window, at float32's
    precision, the nearest to the right one first. None when nothing matches."""
    T = len(intact[1])
    combine = [(key, how) for key, how, _ in _COMBINE]

    def value(shifted, a, b, how):
        i = _window_value(intact, shifted, a, b)
        if i is None:
            return None
        abl = _window_value(ablated, shifted, a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            return how(float(i.mean()), float(abl.mean()), len(i) * B)

    for key, how in combine:
        for shifted, a, b in _named_windows(span, T):
            v = value(shifted, a, b, how)
            if v is not None and np.isfinite(v) and math.isclose(got, v, rel_tol=tol,
                                                                  abs_tol=tol):
                return key, shifted, a, b
    right = (span + 2, 2 * span)
    found = []
    for c, (key, how) in enumerate(combine):
        for shifted in (True, False):
            for a in range(1 if shifted else 0, T):
                for b in range(a, T):
                    v = value(shifted, a, b, how)
                    if v is not None and np.isfinite(v) and math.isclose(
                            got, v, rel_tol=1e-6, abs_tol=2e-6):
                        found.append(((c, not shifted, abs(a - right[0]) + abs(b - right[1])),
                                      (key, shifted, a, b)))
    return min(found)[1] if found else None


def _ablation_call(fn, model, ids, layer, head, span, *, name: str):
    """core.call for the ablation: F.cross_entropy's error for (B, S, vocab) logits, which it
    reads as S classes of vocab positions, is named (the classes go on axis 1)."""
    try:
        return core.call(fn, model, ids, layer, head, span, name="my_ablation_effect")
    except (RuntimeError, ValueError) as error:
        if "Expected target size" not in str(error):
            raise
        core.fail(f"{name}: your function raised {type(error).__name__} ({error}): "
                  "F.cross_entropy reads the classes on axis 1, so (B, S, vocab) logits are "
                  "taken for S classes at vocab positions. Flatten the predictions to "
                  "(B·S, vocab) and the targets to (B·S,) (pred.flatten(0, 1), "
                  "target.flatten()), or move the classes to axis 1, pred.transpose(1, 2), "
                  "against (B, S) targets.", "induction.ablation-class-axis")


def _not_log_probabilities(got, model, ids, ones, ablation, span) -> str | None:
    """The message when `got` is the rise of F.nll_loss on the right targets applied to the
    raw logits or to the softmax's probabilities instead of log-probabilities; else None."""
    with torch.no_grad():
        runs = [model(ids, m).double()[:, span + 1 : 2 * span] for m in (ones, ablation)]
    target = ids[:, span + 2 :, None]
    kinds = (("logit", "the raw logits", lambda x: x),
             ("probability", "the softmax's probabilities", lambda x: x.softmax(-1)))
    for value, what, of in kinds:
        intact, ablated = (float(-of(x).gather(-1, target).mean()) for x in runs)
        if math.isclose(got, ablated - intact, rel_tol=1e-5, abs_tol=ABLATION_ATOL):
            return (f"your losses are minus the target's {value} (F.nll_loss of {what}, or "
                    f"-{value}s.gather(...)), not the cross-entropy: the loss is minus the "
                    "target's LOG-probability, and nll_loss expects log-probabilities. Use "
                    "F.cross_entropy(logits, targets), which applies log_softmax itself, or "
                    "F.nll_loss(F.log_softmax(logits, dim=-1), targets).")
    return None


def _mask_diagnosis(calls, L, H, layer, head, name):
    """Fail naming a wrong head_mask among the calls the student made; None when the calls
    include the intact model (all ones) and the right ablation."""
    if not calls:
        return
    ones = torch.ones(L, H)
    right = ones.clone()
    right[layer, head] = 0.0
    intact = [c for c in calls if torch.equal(c, ones)]
    ablated = [c for c in calls if torch.equal(c, right)]
    if intact and ablated:
        return
    others = [c for c in calls if not torch.equal(c, ones)]
    where = f"head ({layer}, {head})"
    if len(calls) == 1:
        mask = "all ones" if not others else f"{calls[0].tolist()}"
        core.fail(f"{name}: you ran the model once (head_mask {mask}): the rise needs two runs "
                  f"on the same ids, one with {where} zeroed and one intact, and is the "
                  "difference of their two losses, ablated minus intact.",
                  "induction.ablation-one-run")
    if not others:
        core.fail(f"{name}: none of your calls to model(ids, head_mask) zeroed a head: every "
                  "head_mask you passed was all ones (or None), so both losses are the intact "
                  f"model's. Zero {where} through the mask you pass: a (model.n_layers, "
                  "model.n_heads) tensor of ones with a 0 at [layer, head]. A 0 set on a copy "
                  "(mask.clone()[layer, head] = 0) never reaches it; and changing the model's "
                  "weights instead (model.layers[...].weight[...] = 0) is not allowed: the "
                  "model must come back unchanged, and when grading your function only sees a "
                  "copy of them.", "induction.ablation-not-ablated")
    if ablated and not intact and all(torch.equal(c, right) for c in calls):
        core.fail(f"{name}: every one of your calls had {where} zeroed, so your 'intact' loss is "
                  "the ablated one and the difference is 0: `ablated = intact` does not copy a "
                  f"tensor, it names the same one, and `ablated[{layer}, {head}] = 0` then "
                  "zeroes the head of both. Make the ablated mask with intact.clone() (or a "
                  "new torch.ones).", "induction.ablation-mask-shared")
    zeros = torch.zeros(L, H)
    only = zeros.clone()
    only[layer, head] = 1.0
    if any(torch.equal(c, zeros) for c in calls) and any(torch.equal(c, only) for c in calls):
        core.fail(f"{name}: your masks are inverted: 1 keeps a head and 0 zeroes it. Your "
                  "'intact' model had every head zeroed (a mask of zeros) and your ablated one "
                  f"kept only {where}. The intact model is a mask of ones; the ablated one has "
                  "a single 0 at [layer, head].", "induction.ablation-mask-inverted")
    wrong = next((c for c in others if not torch.equal(c, right)), others[0])
    zeroed = [(int(i), int(j)) for i, j in (wrong == 0).nonzero()]
    if not torch.all((wrong == 0) | (wrong == 1)):
        core.fail(f"{name}: one of your head_masks holds {wrong.tolist()}: each factor is 1 (the "
                  f"head kept) or 0 (the head zeroed); ablating {where} is ones with a single 0 "
                  "at [layer, head].", "induction.ablation-wrong-mask")
    if zeroed == [(head, layer)] and layer != head:
        core.fail(f"{name}: you zeroed head_mask[{head}, {layer}]: the layer and the head are "
                  f"swapped. head_mask is (n_layers, n_heads) = ({L}, {H}), so head {head} of "
                  f"layer {layer} is head_mask[{layer}, {head}].", "induction.ablation-swapped")
    if zeroed == [(layer, j) for j in range(H)] and H > 1:
        core.fail(f"{name}: you zeroed every head of layer {layer} (head_mask[{layer}] = 0): "
                  f"ablate head {head} of that layer alone, head_mask[{layer}, {head}] = 0; the "
                  "layer's other heads keep their factor 1.", "induction.ablation-whole-layer")
    if not intact:
        core.fail(f"{name}: your intact model is not intact: you never called the model with a "
                  "mask of ones (or no head_mask), so the loss you subtract has heads "
                  f"{zeroed} zeroed. The difference is ablated minus the model with every "
                  "head.", "induction.ablation-wrong-mask")
    if zeroed == [(i, j) for i in range(L) for j in range(H) if (i, j) != (layer, head)]:
        core.fail(f"{name}: you zeroed every head but {where}: ablating a head zeroes that one "
                  "and keeps all the others (ones with a single 0 at [layer, head]).",
                  "induction.ablation-wrong-mask")
    hint = ""
    if (layer - 1, head - 1) in zeroed or (layer, head - 1) in zeroed or (
            layer - 1, head) in zeroed:
        hint = " Layers and heads are counted from 0."
    core.fail(f"{name}: you zeroed heads {zeroed} (as (layer, head)), not {where} alone: the "
              f"ablated mask is ones with a single 0 at [{layer}, {head}].{hint}",
              "induction.ablation-wrong-mask")


def _changed_model(model: WatchedAttentionOnly, name: str) -> None:
    changed = model.changed()
    if not (changed or model.tampered):
        return
    now = model.state_dict()
    dtypes = {str(now[k].dtype) for k in changed if k in now} - {"torch.float32"}
    how = (f" Its weights are now {', '.join(sorted(dtypes))}: model.double(), model.half() "
           "and model.to(dtype) convert the model itself, in place. Convert the logits instead "
           "(model(ids, head_mask).double())." if dtypes else "")
    which = f" ({', '.join(changed[:3])}{', ...' if len(changed) > 3 else ''})" if changed else ""
    core.fail(f"{name}: your function changed the model's weights{which}.{how} The exercise "
              "does not change the model: the ablation is the head_mask alone.",
              "induction.ablation-model-changed")


def _effect_value(result, name: str, want: float, B: int, span: int) -> float:
    """The student's effect as a float, or a named failure."""
    if result is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    if isinstance(result, torch.Tensor):
        if result.numel() == 1:
            right = math.isclose(float(result), want, rel_tol=1e-5, abs_tol=ABLATION_ATOL)
            core.fail(f"{name}: you returned a torch tensor ({result.dtype}, shape "
                      f"{tuple(result.shape)}); return the rise as a Python float: .item() "
                      "turns a one-element tensor into one (a loss's .item(), or float(...))."
                      + (" Your number is right." if right else ""),
                      "induction.ablation-tensor")
        result = result.detach().numpy()
    if isinstance(result, np.ndarray) and result.size != 1:
        shape = result.shape
        what = {(B,): "one number per example", (span - 1,): "one number per position",
                (B, span - 1): "one number per prediction"}.get(shape, "an array")
        core.fail(f"{name}: you returned {what} (shape {shape}): the loss is the MEAN "
                  "cross-entropy over the batch and the positions, one number per model, and "
                  "the rise one float.", "induction.ablation-not-reduced")
    if isinstance(result, np.ndarray) and result.ndim == 1 and result.dtype.kind in "iuf":
        right = math.isclose(float(result[0]), want, rel_tol=1e-5, abs_tol=ABLATION_ATOL)
        core.fail(f"{name}: you returned a NumPy array of shape (1,); return the rise as a "
                  "Python float: float(x[0]) (or x.item()) turns it into one."
                  + (" Your number is right." if right else ""),
                  "induction.ablation-not-a-number")
    if isinstance(result, (tuple, list)):
        core.fail(f"{name}: you returned a {type(result).__name__} of {len(result)}: return one "
                  "float, the ablated loss minus the intact loss.",
                  "induction.ablation-not-a-number")
    _refuse_number_type(result, name, want, ABLATION_ATOL, "the rise of the loss",
                        "induction.ablation-not-a-number")
    if not isinstance(result, float):
        core.fail(f"{name}: return the rise of the loss as one float; got "
                  f"{type(result).__name__}.", "induction.ablation-not-a-number")
    return float(result)


def _advantage_or_level(got, intact, ablated, span, layer, head):
    """(id, message) when `got` is the change of the repeat advantage (first-copy loss minus
    second-copy loss, the lesson's measure) or a loss level instead of the rise; else None."""
    second = {"intact": float(intact[0][span + 1 : 2 * span].mean()),
              "ablated": float(ablated[0][span + 1 : 2 * span].mean())}
    where = ("the rise of the second copy's loss alone, loss(ablated) - loss(intact) over the "
             "logits span+1..2·span-1 against the ids span+2..2·span")
    for a in (1, 0):  # the first copy as in the lesson (its first token left out), or whole
        first = {k: float(v[0][a : span].mean()) for k, v in (("intact", intact),
                                                              ("ablated", ablated))}
        adv = {k: first[k] - second[k] for k in first}
        for value, words in ((adv["ablated"] - adv["intact"], "the change of the repeat "
                              "advantage, ablated minus intact"),
                             (adv["intact"] - adv["ablated"], "how much the repeat advantage "
                              "falls, intact minus ablated"),
                             (adv["ablated"], "the repeat advantage of the ablated model"),
                             (adv["intact"], "the repeat advantage of the intact model")):
            if math.isclose(got, value, rel_tol=1e-5, abs_tol=ABLATION_ATOL):
                return ("induction.ablation-advantage",
                        f"your number is {words} (the first copy's loss minus the second's, the "
                        f"lesson's measure in section 5): the exercise asks for {where}. The "
                        "first copy does not enter: zeroing a head changes the first copy's "
                        f"loss too (by {first['ablated'] - first['intact']:+.4f} here), and "
                        "the advantage subtracts that.")
    for key, value in second.items():
        if math.isclose(got, value, rel_tol=1e-5, abs_tol=ABLATION_ATOL):
            other = "intact" if key == "ablated" else "ablated"
            return ("induction.ablation-one-run",
                    f"your number is the {key} model's loss on the second copy, a level, not "
                    f"how much it rises: subtract the {other} model's loss from the ablated "
                    f"one, {where}, with head ({layer}, {head}) zeroed in the ablated run.")
    return None


def _window_message(found, span, T, layer, head):
    """(id, message) for the rise of another combination or other targets."""
    key, shifted, a, b = found
    right = (span + 2, 2 * span)
    words = dict((k, w) for k, _, w in _COMBINE)[key]
    if shifted:
        targets = (f"the targets ids[:, {a}:{b + 1}] (positions {a}..{b}) predicted by the "
                   f"logits at {a - 1}..{b - 1}")
    else:
        targets = (f"the logits at {a}..{b} scored against the ids at the SAME positions "
                   f"{a}..{b}")
    where = (f"the second copy's targets span+2..2·span = {right[0]}..{right[1]}, predicted "
             f"by the logits at span+1..2·span-1 = {right[0] - 1}..{right[1] - 1}")
    if key != "diff" and shifted and (a, b) == right:
        if key == "sign":
            return ("induction.ablation-sign",
                    "your rise has the wrong sign: you computed intact minus ablated. The rise "
                    f"when head ({layer}, {head}) is zeroed is loss(ablated) - loss(intact), "
                    "positive when the head helped.")
        if key == "sum":
            return ("induction.ablation-sum",
                    "your losses are summed over the batch and the positions (reduction='sum'):"
                    " the loss on the second copy is the MEAN cross-entropy of its predictions "
                    "(F.cross_entropy's default), so that it does not grow with the batch.")
        return ("induction.ablation-ratio",
                f"your number is {words}: the exercise asks how much the loss RISES, the "
                "difference loss(ablated) - loss(intact), in nats.")
    also = "" if key == "diff" else f" (and your number is {words})"
    if not shifted:
        return ("induction.ablation-not-shifted",
                f"your losses compare {targets}: the logits at position i predict the NEXT "
                f"token, ids[:, i + 1]; shift the targets by one. The loss on the second copy "
                f"is over {where}{also}.")
    if b <= span + 1:
        return ("induction.ablation-first-copy",
                f"your losses are over the first copy, {targets}: an induction head can only "
                "help where the span has been seen before. The loss on the second copy is "
                f"over {where}{also}.")
    if (a, b) == (span + 1, 2 * span):
        return ("induction.ablation-copy-start",
                f"your losses include the second copy's first token, position span+1 = "
                f"{span + 1}, predicted by the logits at span = {span}: copying cannot predict "
                f"it, since nothing has repeated yet when it comes (whatever a model learns "
                f"of where copies start, that is not an induction head's doing). Leave it "
                f"out: {where}{also}.")
    if a <= 2 and b == T - 1:
        return ("induction.ablation-all-positions",
                f"your losses are over every position of the row, {targets}: the exercise asks "
                f"for the second copy alone, {where}{also}.")
    return ("induction.ablation-positions",
            f"your losses are over {targets}: the loss on the second copy is over {where}"
            f"{also}.")


@core.exercise
@core.single_threaded
def check_ablation_effect(my_ablation_effect) -> None:
    """Exercise: my_ablation_effect(model, ids, layer, head, span) -> the rise of the loss."""
    fname = "my_ablation_effect"
    core.forbid(my_ablation_effect, ABLATION_FORBIDDEN, name=fname,
                why="Run the model with a head_mask and compute the losses yourself: "
                    "helpers.induction's losses and masks are what the check compares you with.")
    cases = _ablation_cases()
    for label, base, layer, head, span, B, seed in cases:
        L, H, V = base.n_layers, base.n_heads, base.vocab_size
        ids = repeated_span_batch(B, span, V, core.torch_generator(seed), prefix=1, bos=V - 1)
        T = ids.shape[1]
        name = f"{fname}(model, ids of shape {tuple(ids.shape)}, layer={layer}, head={head}, " \
               f"span={span}) on {label}"
        ones = torch.ones(L, H)
        ablation = ones.clone()
        ablation[layer, head] = 0.0
        intact, ablated = _losses(base, ids, ones), _losses(base, ids, ablation)
        window = slice(span + 1, 2 * span)  # logits span+1..2·span-1 -> ids span+2..2·span
        want = float(ablated[0][window].mean() - intact[0][window].mean())
        model = _watched(base)
        result = _ablation_call(my_ablation_effect, model, ids, layer, head, span, name=name)
        got = _effect_value(result, name, want, B, span)
        right = math.isclose(got, want, rel_tol=1e-5, abs_tol=ABLATION_ATOL)
        no_zero = model.calls and all(torch.equal(c, ones) for c in model.calls)
        if right and not (model.tampered or model.changed()):
            core.compare(got, want, name=name, atol=ABLATION_ATOL)
            continue
        if not right or no_zero:
            _mask_diagnosis(model.calls, L, H, layer, head, name)
        _changed_model(model, name)
        if not math.isfinite(got):
            core.fail(f"{name}: your rise is {got}: one of your two losses is not a finite number "
                      "(a mean over an empty slice is NaN; the log of a probability of 0 is "
                      "-inf). Print both losses: each is about 0 to 5 nats here.",
                      "generic.nan" if math.isnan(got) else "generic.inf")
        found = _advantage_or_level(got, intact, ablated, span, layer, head)
        if found is not None:
            core.fail(f"{name}: {found[1]}", found[0])
        found = _window_search(got, intact, ablated, span, B, ABLATION_ATOL)
        if found is not None:
            diagnosis, message = _window_message(found, span, T, layer, head)
            core.fail(f"{name}: {message}", diagnosis)
        found = _not_log_probabilities(got, base, ids, ones, ablation, span)
        if found is not None:
            core.fail(f"{name}: {found}", "induction.ablation-not-log-probs")
        if abs(got) < 1e-12:
            core.fail(f"{name}: your rise is exactly 0: your two losses are equal, so the head "
                      "was not zeroed in one of them. Pass the model a head_mask of ones for "
                      f"the intact loss and ones with a 0 at [{layer}, {head}] for the ablated "
                      "one.", "induction.ablation-not-ablated")
        second = (f"{intact[0][window].mean():.4f} to {ablated[0][window].mean():.4f}")
        core.fail(f"{name}: your rise is {got:.6g}; zeroing head ({layer}, {head}) takes the mean "
                  f"loss on the second copy from {second}, a rise of {want:.6g}. It is not the "
                  "rise of the loss over any range of positions: compare your slices with "
                  "logits[:, span+1:2*span] against ids[:, span+2:].",
                  "induction.ablation-wrong-value")
    trained = " and the trained induction model's heads" if _shipped() is not None else ""
    core.passed(f"{fname}: loss(head zeroed) - loss(intact) on the second copy's predictable "
                f"tokens, for {len(cases)} (model, layer, head, span) cases: random models{trained}"
                ", the model unchanged")


# ------------------------------------------------------------------ ex5: prefix matching

PREFIX_FORBIDDEN = (
    "helpers.induction.prefix_matching_score",
    "helpers.induction.induction_score",
    "helpers.induction.head_scores",
)


def _prefix_cases():
    """(label, weights (T, T), ids (T,)): random causal rows with planted prefix matchers."""
    rng = core.rng(21)
    cases = []

    def add(label, ids, planted=0.6):
        ids = np.asarray(ids)
        T = len(ids)
        w = _causal_softmax(rng, 1, T)[0]
        matches = _prefix_matches(ids)
        for i in range(T):  # half the rows lean on their matches, so the score is no accident
            if matches[i].any() and rng.random() < 0.5:
                w[i] *= 1 - planted
                w[i, matches[i]] += planted / matches[i].sum()
        cases.append((label, w, ids))

    span = rng.permutation(20)[:7]
    add("BOS + a span of 7 twice", np.concatenate([[20], span, span]))
    add("a token three times (queries with two matches)", np.array([5, 1, 2, 5, 3, 5, 2, 4, 5]))
    add("a token right after itself (key j = i is no earlier key)",
        np.array([1, 4, 4, 2, 4, 4, 7]))
    add("the first token repeated (key 1 counts)", np.array([3, 6, 3, 0, 3]))
    add("the last token equal to a later query (ids[-1] is no token before key 0)",
        np.array([2, 0, 1, 2, 5, 0]))
    add("no token twice", np.array([0, 1, 2, 3, 4]))
    one_hot = np.eye(9)[[0, 0, 1, 2, 3, 4, 5, 6, 7]]  # a previous-token head: 0 on every match
    one_hot[6] = 0.0
    one_hot[6, 2] = 1.0  # query 6 (token 1) reads key 2, the token after its earlier 1
    cases.append(("a hard previous-token head: most matches get weight 0", one_hot,
                  np.array([3, 1, 4, 3, 5, 2, 1, 4, 3])))
    if core.grading():
        T = int(rng.integers(6, 16))
        add("a drawn sequence", rng.integers(0, 4, size=T))
    return cases


def _prefix_matches(ids, *, key=lambda i, j, ids: ids[j - 1] == ids[i], first=1, upto=0):
    """(T, T) bool: keys j of query i with first <= j < i + upto that satisfy key(i, j)."""
    T = len(ids)
    m = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(first, min(i + upto, T)):
            m[i, j] = bool(key(i, j, ids))
    return m


def _prefix_score(w, matches, reduce="mean", per_key=False):
    has = matches.any(-1)
    on = (w * matches).sum(-1)
    if per_key:
        on = np.where(has, on / np.maximum(matches.sum(-1), 1), 0.0)
    if reduce == "all":
        return float(on.mean())
    if not has.any():
        return 0.0
    return float(on[has].sum() if reduce == "sum" else on[has].mean())


def _prefix_reference(w, ids) -> float:
    ids_t = torch.as_tensor(ids, dtype=torch.long)[None]
    if not (_prefix_matches(ids)).any():
        return 0.0
    return float(prefix_matching_score(torch.as_tensor(w)[None, None], ids_t)[0])


def _prefix_mistakes(w, ids):
    m = _prefix_matches(ids)
    latest = np.zeros_like(m)
    earliest = np.zeros_like(m)
    for i in range(len(ids)):
        js = np.flatnonzero(m[i])
        if js.size:
            latest[i, js[-1]] = earliest[i, js[0]] = True
    return [
        ("induction.prefix-includes-query",
         "you counted key j = i (the query itself) when ids[i − 1] == ids[i]: the keys are "
         "1 ≤ j < i, the tokens after an EARLIER occurrence; the query's own position is no "
         "earlier key.", _prefix_score(w, _prefix_matches(ids, upto=1))),
        ("induction.prefix-same-token",
         "you took the weight on the earlier occurrences of the query's token themselves "
         "(ids[j] == ids[i]): that is a duplicate-token head. Prefix matching looks one "
         "further, at the tokens right AFTER them: ids[j − 1] == ids[i].",
         _prefix_score(w, _prefix_matches(ids, key=lambda i, j, ids: ids[j] == ids[i],
                                          first=0))),
        ("induction.prefix-same-token",
         "you took the weight on the earlier occurrences of the query's token themselves "
         "(ids[j] == ids[i], j ≥ 1): that is a duplicate-token head. Prefix matching looks one "
         "further, at the tokens right AFTER them: ids[j − 1] == ids[i].",
         _prefix_score(w, _prefix_matches(ids, key=lambda i, j, ids: ids[j] == ids[i]))),
        ("induction.prefix-token-before",
         "you took the keys j with ids[j + 1] == ids[i], the tokens BEFORE an earlier "
         "occurrence: prefix matching wants the token after it, ids[j − 1] == ids[i].",
         _prefix_score(w, _prefix_matches(
             ids, key=lambda i, j, ids: j + 1 < i and ids[j + 1] == ids[i], first=0))),
        ("induction.prefix-wraps",
         "you let j start at 0, where ids[j − 1] is ids[−1], the LAST token (NumPy wraps "
         "negative indices): key 0 has no token before it, so j starts at 1.",
         _prefix_score(w, _prefix_matches(ids, first=0))),
        ("induction.prefix-all-queries",
         "you averaged over every query, those with no match included (they add 0): the mean "
         "is over the queries that have at least one such key.",
         _prefix_score(w, m, reduce="all")),
        ("induction.prefix-sum",
         "you summed the queries' weights on their matches: the score is their MEAN over the "
         "queries that have a match.", _prefix_score(w, m, reduce="sum")),
        ("induction.prefix-per-key",
         "you averaged the weight over each query's matching keys: a query's weight is the "
         "TOTAL on its matches (two earlier occurrences: the sum of both keys' weights).",
         _prefix_score(w, m, per_key=True)),
        ("induction.prefix-one-match",
         "you kept only the most recent earlier occurrence of each query's token: a query's "
         "weight is the total over every key after ANY earlier occurrence.",
         _prefix_score(w, latest)),
        ("induction.prefix-one-match",
         "you kept only the first earlier occurrence of each query's token: a query's weight "
         "is the total over every key after ANY earlier occurrence.",
         _prefix_score(w, earliest)),
        ("induction.prefix-transposed",
         "you read weights[j, i] (key j's row): row i is query i's weights, so its weight on "
         "key j is weights[i, j].", _prefix_score(w.T, m)),
    ]


@core.exercise
def check_prefix_matching_score(my_prefix_matching_score) -> None:
    """Exercise: my_prefix_matching_score(weights (T, T), ids (T,)) -> a float."""
    name0 = "my_prefix_matching_score"
    core.forbid(my_prefix_matching_score, PREFIX_FORBIDDEN, name=name0,
                why="Write the score yourself: helpers.induction.prefix_matching_score is what "
                    "the check compares you with.")
    cases = _prefix_cases()
    for label, w, ids in cases:
        name = f"{name0}({label}: ids {np.array2string(ids, separator=' ')})"
        T = len(ids)
        want = _prefix_reference(w, ids)
        try:
            result = _score_call(my_prefix_matching_score, w, ids, name=name0)
        except ZeroDivisionError as error:
            if _prefix_matches(ids).any():
                raise
            core.fail(f"{name}: your function raised ZeroDivisionError ({error}): no token "
                      "occurs twice, so no query has a match and there is nothing to average; "
                      "return 0.0 then, as the exercise says.", "induction.prefix-no-match")
        has = int(_prefix_matches(ids).any(-1).sum())
        if result is not None and not isinstance(result, (float, int)) and np.size(
                np.asarray(result.detach() if isinstance(result, torch.Tensor) else result)) == 0:
            core.fail(f"{name}: your function returned an empty array: with no query that has "
                      "a match, return 0.0, as the exercise says.", "induction.prefix-no-match")
        got, low = _score_value(result, name, want, 1, has, T)
        if math.isnan(got) and not _prefix_matches(ids).any():
            core.fail(f"{name}: your score is nan: no token occurs twice, so no query has a "
                      "match and the mean is over no query at all; return 0.0 then, as the "
                      "exercise says.", "induction.prefix-no-match")
        if math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6):
            core.compare(got, want, name=name)
            continue
        tol = 1e-6 if low else 1e-9
        if abs(got) < 1e-12 and abs(want) > 1e-9:
            core.fail(f"{name}: your score is 0, the weight of keys AFTER the query (j > i), "
                      "which a causal pattern never reads: the keys are the earlier ones, "
                      "1 ≤ j < i, weights[i, j] below the diagonal (np.tril(..., -1), not "
                      "np.triu; row i, not column i).", "induction.prefix-transposed")
        for diagnosis, message, wrong in _prefix_mistakes(w, ids):
            if not math.isclose(wrong, want, rel_tol=1e-9, abs_tol=1e-12) and math.isclose(
                    got, wrong, rel_tol=tol, abs_tol=tol * 1e-3):
                core.fail(f"{name}: {message}", diagnosis)
        core.fail(f"{name}: your score is {got:.6g}; the reference is {want:.6g}. A query i's "
                  "matches are the keys 1 ≤ j < i with ids[j − 1] == ids[i]; its weight is the "
                  "sum of weights[i, j] over them, and the score the mean of that over the "
                  f"queries with a match ({has} here).", "induction.prefix-wrong-value")
    core.passed(f"{name0}: the mean total weight on the keys after an earlier occurrence, over "
                f"the queries that have one, for {len(cases)} sequences incl. a token three "
                "times, a token after itself and none twice")


# ------------------------------------------------------------------ ex6: mean ablation

MEAN_ABLATE_FORBIDDEN = (
    "helpers.ablation.ablated_logits",
    "helpers.ablation.patched_logits",
    "helpers.ablation.ablated_copy_losses",
)


def _mean_ablate_cases():
    """(label, head_out (B, T, d), reference (B_ref, T, d))."""
    g = core.torch_generator(22)

    def rand(*shape, dtype=torch.float64):
        return torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)

    cases = [
        ("B = B_ref = 4", rand(4, 5, 3), rand(4, 5, 3)),
        ("B = 3, B_ref = 5", rand(3, 6, 4), rand(5, 6, 4)),
        ("B = 2, B_ref = 1", rand(2, 4, 2), rand(1, 4, 2)),
        ("B = 1, B_ref = 3, T = 1", rand(1, 1, 5), rand(3, 1, 5)),
        ("float32, B = 5, B_ref = 2", rand(5, 3, 4, dtype=torch.float32),
         rand(2, 3, 4, dtype=torch.float32)),
    ]
    if core.grading():
        B, R, T, d = (int(n) for n in torch.randint(1, 7, (4,), generator=g))
        cases.append(("a drawn case", rand(B, T, d), rand(R, T, d)))
    return cases


def _mean_ablate_mistakes(head_out, reference):
    B, T, d = head_out.shape
    mean = reference.mean(0)
    return [
        ("induction.mean-ablate-positions",
         "you averaged the reference over the positions (dim=1) too: mean ablation keeps the "
         "position, replacing position t by the reference batch's mean AT position t "
         "(reference.mean(dim=0), shape (T, d)).",
         reference.mean((0, 1)).expand(B, T, d)),
        ("induction.mean-ablate-positions",
         "you averaged the reference over the positions (dim=1), not over its batch: position "
         "t takes the mean over the B_ref sequences at position t, reference.mean(dim=0).",
         reference.mean(1).mean(0).expand(B, T, d)),
        ("induction.mean-ablate-positions",
         "sequence b got reference sequence b's mean over ITS positions (dim=1): mean "
         "ablation averages over the reference's batch (dim=0) at each position t, and gives "
         "every sequence that same (T, d) mean.",
         reference.mean(1, keepdim=True).expand(B, T, d) if reference.shape[0] == B else None),
        ("induction.mean-ablate-features",
         "you averaged over the features (dim=-1): the output keeps its d features; average "
         "over the reference's batch axis only, dim=0.",
         reference.mean(0).mean(-1, keepdim=True).expand(B, T, d)),
        ("induction.mean-ablate-own-batch",
         "you took the mean of head_out itself: mean ablation replaces the output by its "
         "mean over the REFERENCE batch, so nothing of these sequences' own output is left.",
         head_out.mean(0).expand(B, T, d)),
        ("induction.mean-ablate-zero",
         "your output is all zeros: that is zero ablation. Mean ablation puts the reference "
         "batch's mean output at each position instead.", torch.zeros(B, T, d)),
        ("induction.mean-ablate-resample",
         "sequence b got the reference's sequence b (resample ablation): mean ablation gives "
         "every sequence the same thing, the reference's mean over its batch.",
         reference[:B] if reference.shape[0] >= B and reference.shape[0] > 1 else None),
        ("induction.mean-ablate-subtracted",
         "you subtracted the mean from head_out: mean ablation REPLACES the output by the "
         "mean, nothing of head_out is kept.", head_out - mean),
        ("induction.mean-ablate-subtracted",
         "you added the mean to head_out: mean ablation REPLACES the output by the mean, "
         "nothing of head_out is kept.", head_out + mean),
    ]


def _mean_ablate_result(result, head_out, name):
    if result is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    if not isinstance(result, torch.Tensor):
        core.fail(f"{name}: return a torch tensor (head_out is one); got "
                  f"{type(result).__name__}.", "generic.wrong-type")
    B, T, d = head_out.shape
    if tuple(result.shape) != (B, T, d):
        shapes = {(T, d): "the (T, d) mean itself", (1, T, d): "the (1, T, d) mean itself"}
        said = shapes.get(tuple(result.shape))
        if said:
            core.fail(f"{name}: you returned {said}; return a tensor shaped like head_out, "
                      f"{(B, T, d)}, with that mean in every one of its {B} sequences "
                      "(.expand_as(head_out) or .repeat(B, 1, 1)).", "induction.mean-ablate-shape")
        core.fail(f"{name}: expected head_out's shape {(B, T, d)}; got {tuple(result.shape)}.",
                  "induction.mean-ablate-shape")
    return result


@core.exercise
def check_mean_ablate(my_mean_ablate) -> None:
    """Exercise: my_mean_ablate(head_out (B, T, d), reference (B_ref, T, d)) -> (B, T, d)."""
    name0 = "my_mean_ablate"
    core.forbid(my_mean_ablate, MEAN_ABLATE_FORBIDDEN, name=name0,
                why="Write the replacement yourself with torch: helpers.ablation is what the "
                    "check compares you with.")
    cases = _mean_ablate_cases()
    for label, head_out, reference in cases:
        name = (f"{name0}({label}: head_out {tuple(head_out.shape)}, reference "
                f"{tuple(reference.shape)})")
        try:
            result = core.call(my_mean_ablate, head_out, reference, name=name0)
        except RuntimeError as error:
            if "size" not in str(error):
                raise
            core.fail(f"{name}: your function raised RuntimeError ({error}) when B = "
                      f"{head_out.shape[0]} and B_ref = {reference.shape[0]} differ: the mean "
                      "over the reference's batch axis (dim=0) is (T, d) whatever B_ref is, and "
                      "expands to head_out's shape. Did you average over another axis, or "
                      "assume B_ref == B?", "induction.mean-ablate-batch-sizes")
        got = _mean_ablate_result(result, head_out, name)
        want = reference.mean(dim=0, keepdim=True).expand_as(head_out)
        if got.dtype != head_out.dtype:
            core.fail(f"{name}: your result is {got.dtype}; head_out and the reference are "
                      f"{head_out.dtype}: keep their dtype.", "generic.wrong-type")
        tol = 1e-5 if got.dtype == torch.float32 else 1e-9
        if torch.allclose(got.double(), want.double(), atol=tol, rtol=tol):
            continue
        for diagnosis, message, wrong in _mean_ablate_mistakes(head_out, reference):
            if wrong is not None and torch.allclose(got.double(), wrong.double(), atol=tol,
                                                    rtol=tol):
                core.fail(f"{name}: {message}", diagnosis)
        if got.shape[0] > 1 and not torch.allclose(got, got[:1].expand_as(got)):
            core.fail(f"{name}: your sequences differ from one another: mean ablation gives "
                      "every sequence of head_out the SAME output, the reference batch's mean "
                      "at each position; nothing of head_out's own values is kept.",
                      "induction.mean-ablate-rows-differ")
        core.compare(got, want, name=name, axes=("B", "T", "d"),
                     sizes=dict(B=head_out.shape[0], B_ref=reference.shape[0],
                                T=head_out.shape[1], d=head_out.shape[2]),
                     factors={"B_ref": float(reference.shape[0])})
    core.passed(f"{name0}: every sequence's output at position t replaced by the reference's "
                f"mean at t, for {len(cases)} cases incl. B_ref = 1, T = 1 and float32, the "
                "inputs unchanged")
