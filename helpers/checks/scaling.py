"""Checks for lesson 03, scaling by √d_k (`from helpers.checks import scaling`)."""

from __future__ import annotations

import math

import numpy as np

from helpers.attention import scores as qk_scores
from helpers.attention import softmax
from helpers.checks import core
from helpers.scaling import entropy, row_weights, sample_qk, softmax_temperature

# ---------------------------------------------------------------- Exercise 1: Var(q·k) = d_k

VARIANCE_WIDTHS = (4, 32, 256)
VARIANCE_SAMPLES = 20_000
# The standard error of a sample variance from n draws of q·k is Var·sqrt((2 + 6/d_k)/n):
# at most 1.3% here (d_k = 4), so 5% is about four standard errors.
VARIANCE_RTOL = 0.05


def _one_variance(measure_dot_variance, d_k: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    try:
        value = measure_dot_variance(d_k, VARIANCE_SAMPLES, rng)
    except MemoryError:
        raise AssertionError(
            f"measure_dot_variance({d_k}, {VARIANCE_SAMPLES}, rng) ran out of memory: you "
            f"probably built the {VARIANCE_SAMPLES}×{VARIANCE_SAMPLES} matrix q @ k.T. You need "
            "only the n matched dot products q_i · k_i: (q * k).sum(axis=1)."
        ) from None
    got = core.as_array(value, f"measure_dot_variance({d_k}, ...)")
    if got.size != 1:
        what = (
            "the dot products themselves; return their variance"
            if got.size == VARIANCE_SAMPLES
            else "an array; return one number"
        )
        raise AssertionError(
            f"measure_dot_variance({d_k}, ...): expected one number, got shape {got.shape}: "
            f"you returned {what}."
        )
    return float(got.reshape(()))


@core.exercise
def check_measure_dot_variance(measure_dot_variance) -> None:
    """Exercise 1: Var(q·k) ≈ d_k for independent standard-normal q and k, measured from rng."""
    d_ks = np.array(VARIANCE_WIDTHS, dtype=float)
    got = np.array([_one_variance(measure_dot_variance, int(d), seed=0) for d in d_ks])
    shown = ", ".join(f"d_k={int(d)}: {g:.3g}" for d, g in zip(d_ks, got, strict=True))

    def near(values, target, rtol=0.1):
        return bool(np.all(np.abs(values - target) <= rtol * np.abs(target)))

    if np.array_equal(got, d_ks):
        raise AssertionError(
            f"measure_dot_variance returned exactly d_k ({shown}): you returned the answer "
            "instead of measuring it. Draw q and k from rng and compute the variance of q·k; "
            "a measurement is never exactly d_k."
        )
    if not near(got, d_ks, VARIANCE_RTOL):
        ratio = got / d_ks
        if near(ratio, 2.0):
            hint = (
                "Var is about 2·d_k: you used the same vector for q and k (q·q = Σ q_i² has "
                "variance 2·d_k). Draw k independently of q."
            )
        elif near(got, 1.0):
            hint = (
                "your values are about 1 at every d_k, but Var(q·k) should grow like d_k. "
                "Likely you measured the variance of q (its components have variance 1) or of "
                "single products q_i·k_i instead of the dot products q·k (sum over the d_k "
                "components first), or you divided by √d_k (that is the scaled score)."
            )
        elif near(got, np.sqrt(d_ks)):
            hint = (
                "your values are about √d_k: you returned the standard deviation of q·k "
                "(np.std) instead of its variance (np.var)."
            )
        elif near(ratio, 1 / 9 - 1 / 16, rtol=0.15):
            hint = (
                "your values are about 0.049·d_k: q and k look uniform on [0, 1) (rng.random). "
                "The components must be standard normal, mean 0 and variance 1: "
                "rng.standard_normal."
            )
        else:
            hint = (
                f"Var(q·k) should be d_k within {VARIANCE_RTOL:.0%} (with {VARIANCE_SAMPLES} "
                "samples the measurement's standard error is at most 1.3%)."
            )
        raise AssertionError(f"measure_dot_variance: got {shown}. {hint}")

    again = _one_variance(measure_dot_variance, int(d_ks[0]), seed=0)
    if again != got[0]:
        raise AssertionError(
            "measure_dot_variance gave different numbers for two generators made with the "
            f"same seed ({got[0]:.6g}, then {again:.6g}): draw your samples from the `rng` "
            "argument, not from np.random or torch's global generator."
        )
    other = _one_variance(measure_dot_variance, int(d_ks[0]), seed=1)
    if other == got[0]:
        raise AssertionError(
            "measure_dot_variance gave the same number for generators with different seeds: "
            "it ignores its `rng` argument (did you make your own default_rng(0)?). Draw "
            "from the rng you are given."
        )
    core.passed(
        f"Var(q·k) measured with {VARIANCE_SAMPLES} samples is d_k within "
        f"{VARIANCE_RTOL:.0%} for d_k = {', '.join(str(int(d)) for d in d_ks)} "
        f"(ratios {', '.join(f'{r:.3f}' for r in got / d_ks)}), drawn from the given rng"
    )


# ------------------------------------------------------ Exercise 2: per-head scaled scores


@core.exercise
def check_head_scores(head_scores) -> None:
    """Exercise 2: (H, T, d_head) queries and keys -> (H, T, T) scores / √d_head."""
    rng = np.random.default_rng(3)
    for H, T, d_head in ((4, 3, 16), (2, 5, 9)):
        q = rng.standard_normal((H, T, d_head))
        k = rng.standard_normal((H, T, d_head))
        d_model = H * d_head
        name = f"head_scores on q, k of shape {(H, T, d_head)} (d_model = {d_model})"
        try:
            got = head_scores(q.copy(), k.copy())
        except NotImplementedError:
            raise
        except (ValueError, RuntimeError) as error:
            raise AssertionError(
                f"{name} raised {type(error).__name__}: {error}. If you wrote k.T: on a 3-D "
                "array .T reverses all three axes, giving (d_head, T, H). Swap only the last "
                "two: np.swapaxes(k, -1, -2), k.transpose(0, 2, 1) or k.mT."
            ) from None
        core.compare(
            got,
            qk_scores(q, k, 1 / math.sqrt(d_head)),
            name=name,
            mistakes=[
                (
                    "these are the raw q·k: you forgot the scale. Divide by √d_head, the width "
                    "of the vectors in each dot product.",
                    qk_scores(q, k, 1.0),
                ),
                (
                    f"you divided by d_k instead of √d_k (by d_head = {d_head} instead of "
                    f"√d_head = {math.sqrt(d_head):.3g}). The scores' standard deviation is "
                    "√d_head, so dividing by d_head shrinks it to 1/√d_head and flattens the "
                    "softmax.",
                    qk_scores(q, k, 1 / d_head),
                ),
                (
                    f"you divided by d_model instead of the head width: by √d_model = √{d_model} "
                    f"where each head needs √d_head = √{d_head}. Each head's dot product sums "
                    f"only d_head products, so the scores' variance becomes d_head/d_model = "
                    f"1/{H} instead of 1 and every head's weights come out too flat.",
                    qk_scores(q, k, 1 / math.sqrt(d_model)),
                ),
                (
                    f"you divided by d_model = {d_model} itself: the model width instead of the "
                    "head width, and without the square root. Divide by √d_head.",
                    qk_scores(q, k, 1 / d_model),
                ),
                (
                    f"you divided by √T = √{T}, the number of keys: the scale depends on the "
                    "width of q and k, not on how many positions there are.",
                    qk_scores(q, k, 1 / math.sqrt(T)),
                ),
                (
                    "you multiplied by √d_head instead of dividing: the scores grow instead of "
                    "coming back to variance 1.",
                    qk_scores(q, k, math.sqrt(d_head)),
                ),
                (
                    "your scores are transposed: row i must hold query i against every key "
                    "(q @ kᵀ), and you computed k @ qᵀ.",
                    qk_scores(k, q, 1 / math.sqrt(d_head)),
                ),
            ],
        )
    core.passed(
        "head_scores divides each head's q @ kᵀ by √d_head (not √d_model), for two head layouts"
    )


# -------------------------------------------- Exercise 3: saturation point without scaling

SATURATION_CASES = (
    ((4, 16, 64, 256, 1024), 0.9),
    ((1, 2, 4, 8, 16, 32, 64), 0.5),
    ((2, 8, 32, 128, 512), 0.7),
    ((1, 2, 4), 0.9),
    ((1, 2, 4), 0.1),
    ((1, 2, 4), 0.05),
)


def _first_over(values, d_ks, threshold):
    """The first d_k whose value exceeds threshold, or None."""
    for d_k, value in zip(d_ks, values, strict=True):
        if value > threshold:
            return d_k
    return None


def _saturation_answers(measure, *, scaled=False, pick="first", n_rows=200, n_keys=16, seed=0):
    """What a saturation_point computing `measure(weights, scores)` would answer per case."""
    answers = []
    for d_ks, threshold in SATURATION_CASES:
        values = []
        for d_k in d_ks:
            q, k = sample_qk(d_k, n_rows, n_keys, seed)
            scores = np.einsum("rd,rjd->rj", q, k) / (math.sqrt(d_k) if scaled else 1.0)
            values.append(measure(scores))
        over = [d for d, v in zip(d_ks, values, strict=True) if v > threshold]
        if pick == "first":
            answers.append(over[0] if over else None)
        elif pick == "last":
            answers.append(over[-1] if over else None)
        else:  # the index of the first
            answers.append(d_ks.index(over[0]) if over else None)
    return answers


def _mean_max_weight(scores):
    return softmax(scores).max(axis=-1).mean()


@core.exercise
def check_saturation_point(saturation_point) -> None:
    """Exercise 3: smallest d_k whose unscaled mean max weight exceeds the threshold."""
    expected = []
    for d_ks, threshold in SATURATION_CASES:  # the reference, from helpers.scaling
        means = [row_weights(d, scaled=False, n_rows=200).max(axis=-1).mean() for d in d_ks]
        expected.append(_first_over(means, d_ks, threshold))

    got = []
    for d_ks, threshold in SATURATION_CASES:
        answer = saturation_point(list(d_ks), threshold)
        if answer is not None:
            if isinstance(answer, float) and not float(answer).is_integer():
                raise AssertionError(
                    f"saturation_point({list(d_ks)}, {threshold}) returned {answer:.4g}, which "
                    "is not a d_k: return the width d_k from the list, not the weight you "
                    "measured."
                )
            try:
                answer = int(answer)
            except (TypeError, ValueError):
                raise AssertionError(
                    f"saturation_point({list(d_ks)}, {threshold}) returned "
                    f"{type(answer).__name__} {answer!r}: return one d_k from the list, or None."
                ) from None
        got.append(answer)

    if got == expected:
        core.passed(
            "saturation_point finds the smallest d_k where the unscaled mean max weight exceeds "
            f"the threshold ({expected[0]} at 0.9 for d_k = 4..1024) and None when none does, "
            f"in {len(SATURATION_CASES)} cases"
        )
        return

    mistakes = [
        (
            "you divided the scores by √d_k: the exercise asks for the UNscaled softmax. "
            "Scaled, the scores keep variance 1 at every d_k and the mean max weight stays near "
            "0.24, so the softmax never saturates; that is the point of the scale.",
            _saturation_answers(_mean_max_weight, scaled=True),
        ),
        (
            "you measured the largest score q·k, not the largest softmax weight. Apply softmax "
            "over each row's keys first, then take each row's max weight and average over rows.",
            _saturation_answers(lambda s: s.max(axis=-1).mean()),
        ),
        (
            "you averaged the weights over the rows before taking the max (that gives about "
            "1/n_keys). Take each row's max weight first, then the mean over rows.",
            _saturation_answers(lambda s: softmax(s).mean(axis=0).max()),
        ),
        (
            "your softmax ran over the rows (axis 0) instead of over each row's keys (axis -1): "
            "then a query's weights do not sum to 1 across its keys.",
            _saturation_answers(lambda s: softmax(s, axis=0).max(axis=-1).mean()),
        ),
        (
            "you returned the largest d_k above the threshold; the saturation point is the "
            "smallest one (the first, going up the list).",
            _saturation_answers(_mean_max_weight, pick="last"),
        ),
        (
            "you returned the position of the d_k in the list, not the d_k itself.",
            _saturation_answers(_mean_max_weight, pick="index"),
        ),
    ]
    for message, wrong in mistakes:
        if got == wrong and wrong != expected:
            raise AssertionError(f"saturation_point: {message} (you answered {got})")
    for (d_ks, threshold), answer, want in zip(SATURATION_CASES, got, expected, strict=True):
        if answer != want:
            means = [row_weights(d, scaled=False, n_rows=200).max(axis=-1).mean() for d in d_ks]
            table = ", ".join(f"{d}: {m:.3f}" for d, m in zip(d_ks, means, strict=True))
            raise AssertionError(
                f"saturation_point({list(d_ks)}, {threshold}) returned {answer}, expected "
                f"{want}. The reference's mean max weights (unscaled, 200 rows of 16 keys, "
                f"seed 0) are {table}. Use sample_qk(d_k, n_rows, n_keys, seed) for every d_k, "
                "and return None when no d_k exceeds the threshold."
            )


# ------------------------------------------------------ Exercise 4: softmax with temperature

LOVE_SCORES = np.array(
    [[2.1, 0.5, -0.3], [1.8, 3.2, 1.9], [-0.1, 2.0, 2.8]]
)  # the 我 爱 你 score matrix of seed 001


@core.exercise
def check_softmax_temperature(softmax_t) -> None:
    """Exercise 4: softmax(s / tau) along the last axis, stable for large s / tau."""
    extreme = np.array([[100.0, -50.0, -30.0]])
    with np.errstate(all="ignore"):
        got = core.as_array(softmax_t(extreme.copy(), 0.1), "softmax_t([[100, -50, -30]], 0.1)")
    if np.isnan(got).any() or np.isinf(got).any():
        raise AssertionError(
            "softmax_t([[100, -50, -30]], tau=0.1) gave NaN or inf: 100 / 0.1 = 1000 and "
            "exp(1000) overflows. Subtract each row's max before exp (or use "
            "helpers.attention.softmax, which does)."
        )
    for scores, tau in ((LOVE_SCORES, 0.5), (LOVE_SCORES, 2.0), (LOVE_SCORES, 8.0), (extreme, 0.1)):
        name = f"softmax_t(scores, tau={tau})"
        core.compare(
            softmax_t(scores.copy(), tau),
            softmax_temperature(scores, tau),
            name=name,
            mistakes=[
                (
                    "you multiplied the scores by tau instead of dividing: a high temperature "
                    "should flatten the weights, and yours sharpen them.",
                    softmax(scores * tau),
                ),
                (
                    "you ignored tau: this is plain softmax(scores).",
                    softmax(scores),
                ),
                (
                    "you applied the temperature after the softmax (weights / tau): the rows "
                    "no longer sum to 1. Divide the scores, then take the softmax.",
                    softmax(scores) / tau,
                ),
                (
                    "you divided by tau² instead of tau.",
                    softmax(scores / tau**2),
                ),
                (
                    "you normalised over axis 0 (down the columns): each query's row of "
                    "weights must sum to 1, so take the softmax over the last axis.",
                    softmax(scores / tau, axis=0),
                ),
            ],
        )
    core.passed(
        "softmax_t divides the scores by tau before a row-wise softmax, stable at "
        "[100, -50, -30] / 0.1, for tau = 0.5, 2 and 8"
    )


# ------------------------------------------------------------- Exercise 5: softmax entropy


@core.exercise
def check_entropy(entropy_fn) -> None:
    """Exercise 5: entropy in nats along the last axis, with 0·log 0 = 0."""
    rows = np.array(
        [
            [0.25, 0.25, 0.25, 0.25],
            [1.0, 0.0, 0.0, 0.0],
            [0.5, 0.5, 0.0, 0.0],
            [0.7, 0.2, 0.1, 0.0],
            [0.4, 0.3, 0.2, 0.1],
        ]
    )  # (5, 4)
    batch = np.stack([softmax_temperature(LOVE_SCORES, tau) for tau in (0.5, 4.0)])  # (2, 3, 3)
    for p in (rows, batch):
        name = f"entropy of probabilities with shape {p.shape}"
        with np.errstate(all="ignore"):
            got = entropy_fn(p.copy())
            mistakes = [
                (
                    "a row containing 0 gives NaN: 0·log 0 is 0 · (−inf) = NaN in floating "
                    "point, but its limit is 0. Leave out (or zero) the terms where p == 0.",
                    -(p * np.log(p)).sum(axis=-1),
                ),
                (
                    "your entropies are negative: you forgot the minus sign in −Σ p log p.",
                    -entropy(p),
                ),
                (
                    "you used log base 2 (bits); this course measures entropy in nats, with "
                    "the natural log np.log, so a uniform row of n entries gives log n.",
                    entropy(p) / np.log(2),
                ),
                (
                    "you averaged −p log p over the entries instead of summing them.",
                    entropy(p) / p.shape[-1],
                ),
                (
                    "you summed over axis 0; each distribution is a row, so sum over the last "
                    "axis.",
                    entropy(p, axis=0),
                ),
            ]
        core.compare(got, entropy(p), name=name, mistakes=mistakes)
    core.passed(
        "entropy is −Σ p log p in nats along the last axis: log 4 for a uniform row of 4, "
        "0 for a one-hot row, with 0·log 0 = 0"
    )
