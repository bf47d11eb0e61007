"""Checks for lesson 03, scaling by √d_k (`from helpers.checks import scaling`).

Every check calls the student's function through `core.call` (an input changed in place is
named), names the anticipated mistakes first (ids "scaling.<kebab-case>"), then checks the
properties of the answer in teaching order, then compares with the reference, passing the axes,
sizes and constant factors of the case so that an unlisted mistake is still named.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from helpers.attention import scores as qk_scores
from helpers.attention import softmax
from helpers.checks import core
from helpers.scaling import entropy, sample_qk, softmax_temperature

# ---------------------------------------------------------------- shared pieces


_same = core.matches
_judge = core.judge


# ---------------------------------------------------------------- Exercise 1: Var(q·k) = d_k

VARIANCE_WIDTHS = (4, 16, 64)
VARIANCE_SAMPLES = 20_000
# The standard error of a sample variance from n draws of q·k is Var·sqrt((2 + 6/d_k)/n):
# at most 1.3% here (d_k = 4), so 5% is about four standard errors.
VARIANCE_RTOL = 0.05


def _one_variance(measure_dot_variance, d_k: int, seed: int) -> float:
    name = f"measure_dot_variance({d_k}, {VARIANCE_SAMPLES}, rng)"
    rng = core.rng(seed)  # np.random.default_rng(seed) in a notebook; another seed when grading
    try:
        value = core.call(measure_dot_variance, d_k, VARIANCE_SAMPLES, rng,
                          name="measure_dot_variance")
    except MemoryError:
        core.fail(
            f"{name} ran out of memory: you probably built the {VARIANCE_SAMPLES}×"
            f"{VARIANCE_SAMPLES} matrix q @ k.T. You need only the n matched dot products "
            "q_i · k_i, one per pair.", "scaling.all-pairs-matrix")
    got = core.as_array(value, name)
    if got.size != 1:
        if got.size == VARIANCE_SAMPLES:
            what, why = ("the dot products themselves; return their variance, one number",
                         "scaling.returned-dots")
        elif got.size == d_k:
            what, why = (f"one value per feature (shape {got.shape}, d_k = {d_k}): you reduced "
                         "over the samples and kept the d_k features. Sum each pair's "
                         "products over the features first (that is q·k), then take one "
                         "variance over the samples", "scaling.per-feature")
        else:
            what, why = "an array; return one number", "scaling.not-one-number"
        core.fail(f"measure_dot_variance({d_k}, ...): expected one number, got shape "
                  f"{got.shape}: you returned {what}.", why)
    return float(got.reshape(()))


class _RecordingGenerator(np.random.Generator):
    """A real np.random.Generator that keeps a copy of every normal draw it hands out."""

    def __init__(self, seed: int):
        super().__init__(np.random.PCG64(seed))
        self.draws: list[np.ndarray] = []

    def _keep(self, out):
        self.draws.append(np.array(out, dtype=float, copy=True))
        return out

    def standard_normal(self, *args, **kwargs):
        return self._keep(super().standard_normal(*args, **kwargs))

    def normal(self, *args, **kwargs):
        return self._keep(super().normal(*args, **kwargs))


PROBE_D_K, PROBE_SAMPLES, PROBE_SEED = 8, 300, 3  # small: an all-pairs matrix stays cheap


def _sample_blocks(draws, d_k: int, n: int) -> list[np.ndarray]:
    """The (n, d_k) samples-by-features blocks in the recorded draws, in drawing order.

    Any layout: (n, d_k), (d_k, n), or q and k in one draw such as (2, n, d_k).
    """
    blocks = []
    for a in draws:
        if a.size % (n * d_k) or n not in a.shape or d_k not in a.shape:
            continue
        samples = a.shape.index(n)
        features = next(i for i in reversed(range(a.ndim)) if a.shape[i] == d_k and
                        i != samples)
        moved = np.moveaxis(a, (samples, features), (0, -1)).reshape(n, -1, d_k)
        blocks += [moved[:, i] for i in range(moved.shape[1])]
    return blocks


def _refuse_all_pairs(measure_dot_variance) -> None:
    """Fail when the result is the variance of every entry of q @ k.T, not of q_i · k_i.

    Both estimate d_k, so the check records the draws (a generator that keeps what it hands
    out, at a small n) and computes the all-pairs variance of exactly those draws. Anything
    else (an error, another wrong number) is left to the main cases, which name it.
    """
    rng = _RecordingGenerator(core.seed(PROBE_SEED))
    try:
        with np.errstate(all="ignore"):
            value = measure_dot_variance(PROBE_D_K, PROBE_SAMPLES, rng)
        got = float(core.as_array(value, "measure_dot_variance").reshape(()))
    except Exception:  # noqa: BLE001 - the main cases call it again and name what went wrong
        return
    blocks = _sample_blocks(rng.draws, PROBE_D_K, PROBE_SAMPLES)[:4]
    for i, q in enumerate(blocks):
        for k in blocks[i + 1:]:
            pairs, matched = q @ k.T, (q * k).sum(axis=1)
            if any(math.isclose(got, pairs.var(ddof=ddof), rel_tol=1e-4) for ddof in (0, 1)) \
                    and not math.isclose(got, matched.var(), rel_tol=1e-4):
                core.fail(
                    "measure_dot_variance: your number is the variance of every entry of the "
                    "n_samples × n_samples matrix q @ k.T (all pairs q_i · k_j, i ≠ j "
                    "included), not of the n matched dot products q_i · k_i, one per pair. "
                    "Both come out near d_k, but the exercise asks for the n matched pairs "
                    f"(and at n = {VARIANCE_SAMPLES} the matrix holds {VARIANCE_SAMPLES}² "
                    "numbers). Multiply each q_i by its own k_i and sum over the features: "
                    "(q * k).sum(axis=1), or np.einsum('nd,nd->n', q, k).",
                    "scaling.all-pairs-matrix")


def _variance_hint(got: np.ndarray, d_ks: np.ndarray):
    """(id, message) for a measurement that is not ≈ d_k."""

    def near(values, target, rtol=0.1):
        return bool(np.all(np.abs(values - target) <= rtol * np.abs(target)))

    ratio = got / d_ks
    if not np.all(np.isfinite(got)):
        return ("scaling.variance-not-finite",
                "a variance of finite numbers is finite: NaN or inf comes from an empty array, "
                "a division by zero or an overflow.")
    if np.all(np.abs(got) < 5 * np.sqrt(d_ks / VARIANCE_SAMPLES) + 0.01):  # 5 standard errors
        return ("scaling.mean-not-variance",
                "your values are about 0: that is the mean of q·k (q and k have mean 0), not "
                "its variance. Return np.var of the dot products.")
    if np.any(got < 0):
        return ("scaling.negative-variance",
                "a variance is never negative: you returned something else (a mean, a "
                "difference?). Return np.var of the n dot products.")
    if near(ratio, 2.0):
        return ("scaling.same-vector",
                "Var is about 2·d_k: you used the same vector for q and k (q·q = Σ q_i² has "
                "variance 2·d_k). Draw k independently of q.")
    if near(got, np.ones_like(got)):
        return ("scaling.variance-one",
                "your values are about 1 at every d_k, but Var(q·k) should grow like d_k. "
                "Likely you took the variance of single, elementwise products q_i·k_i, not "
                "summed into dot products (sum each pair's products over the features first: "
                "that is q·k), or the variance of q itself (its components have variance 1), or "
                "you divided by √d_k (that is the scaled score).")
    if near(got, 1 / d_ks):
        return ("scaling.mean-not-sum",
                "your values are about 1/d_k: that is Var(q·k / d_k). You averaged each pair's "
                "products over the features (a mean instead of a sum), or divided by d_k. "
                "q·k is the sum of the d_k products q_i·k_i, not their mean.")
    if near(got, np.sqrt(d_ks)):
        return ("scaling.std-not-variance",
                "your values are about √d_k: you returned the standard deviation of q·k "
                "(np.std) instead of its variance (np.var).")
    if near(ratio, 1 / 9 - 1 / 16, rtol=0.15):
        return ("scaling.uniform-components",
                "your values are about 0.049·d_k: q and k look uniform on [0, 1) (rng.random). "
                "The components must be standard normal, mean 0 and variance 1: "
                "rng.standard_normal.")
    # the median: at d_k = 4 such a "variance" of 4 sums can fall far below n_samples
    if np.median(got) > 0.1 * VARIANCE_SAMPLES:
        return ("scaling.summed-over-samples",
                f"your values are of the order of n_samples = {VARIANCE_SAMPLES}, whatever "
                "d_k: you summed the products over the samples (axis 0) instead of over each "
                "pair's d_k features (axis 1), so each sum adds n_samples terms.")
    if np.all(np.abs(ratio / ratio[0] - 1) < 0.1):
        return ("scaling.component-variance",
                f"your values are about {ratio.mean():.3g} × d_k: they grow like d_k, but with "
                "the wrong factor. Each product q_i·k_i of standard-normal components has "
                "variance 1; yours do not: are the components standard normal (mean 0, "
                "variance 1), and is the dot product neither scaled nor shifted?")
    slope = float(np.polyfit(np.log(d_ks), np.log(got), 1)[0])
    if abs(slope - 1) > 0.15:
        return ("scaling.wrong-growth",
                f"your values grow like d_k^{slope:.2f}, but Var(q·k) grows like d_k itself "
                "(each of the d_k products q_i·k_i adds variance 1). Check what you sum and "
                "what you take the variance of.")
    return ("scaling.variance-off",
            f"Var(q·k) should be d_k within {VARIANCE_RTOL:.0%} (with {VARIANCE_SAMPLES} "
            "samples the measurement's standard error is at most 1.3%).")


@core.exercise
def check_measure_dot_variance(measure_dot_variance) -> None:
    """Exercise 1: Var(q·k) ≈ d_k for independent standard-normal q and k, measured from rng.

    In order: not the variance of all pairs q_i · k_j (q @ k.T) on recorded draws; one
    number per call; not d_k itself; ≈ d_k at three widths (a named cause when
    not); drawn from the given rng only (same seed, same number, whatever the global RNG
    state); and a different seed gives a different number.
    """
    d_ks = np.array(VARIANCE_WIDTHS, dtype=float)
    _refuse_all_pairs(measure_dot_variance)
    got = np.array([_one_variance(measure_dot_variance, int(d), seed=0) for d in d_ks])
    shown = ", ".join(f"d_k={int(d)}: {g:.3g}" for d, g in zip(d_ks, got, strict=True))

    core.require(
        not np.array_equal(got, d_ks),
        f"measure_dot_variance returned exactly d_k ({shown}): you returned the answer "
        "instead of measuring it. Draw q and k from rng and compute the variance of q·k; "
        "a measurement is never exactly d_k.", "scaling.returned-d-k")
    if not np.all(np.abs(got - d_ks) <= VARIANCE_RTOL * d_ks):
        diagnosis, hint = _variance_hint(got, d_ks)
        core.fail(f"measure_dot_variance: got {shown}. {hint}", diagnosis)

    d_small = int(d_ks[0])
    try:
        first = core.follows_its_rng(
            measure_dot_variance,
            lambda: (d_small, VARIANCE_SAMPLES, core.rng(0)),
            name="measure_dot_variance")
    except core.CheckFailed as error:
        core.fail("measure_dot_variance: two calls with generators made with the same seed "
                  "gave different results: your function draws from the global random state "
                  "(np.random.standard_normal, torch.randn, ...) or from a generator of its own "
                  "instead of the `rng` it is given. Draw your samples from the `rng` argument, "
                  "not from np.random or torch's global generator.", error.diagnosis)
    core.require(
        float(np.asarray(first).reshape(())) == got[0],
        "measure_dot_variance gave different numbers for two generators made with the same "
        "seed: draw your samples from the `rng` argument, not from np.random, torch's global "
        "generator or a generator you keep between calls.", "scaling.stateful-rng")
    other = _one_variance(measure_dot_variance, d_small, seed=1)
    core.require(
        other != got[0],
        "measure_dot_variance gave the same number for generators with different seeds: "
        "it ignores its `rng` argument (did you make your own default_rng(0)?). Draw "
        "from the rng you are given.", "scaling.ignores-rng")
    core.passed(
        f"Var(q·k) measured with {VARIANCE_SAMPLES} samples is d_k within "
        f"{VARIANCE_RTOL:.0%} for d_k = {', '.join(str(int(d)) for d in d_ks)} "
        f"(ratios {', '.join(f'{r:.3f}' for r in got / d_ks)}), drawn from the given rng"
    )


# ------------------------------------------------------ Exercise 2: per-head scaled scores

HEAD_CASES = ((4, 3, 16), (2, 5, 6), (1, 4, 10))  # (H, T, d_head): 6 and 10 are not squares


@core.exercise
def check_head_scores(head_scores) -> None:
    """Exercise 2: (H, T, d_head) queries and keys -> (H, T, T) scores / √d_head.

    Cases: d_head a perfect square and not (math.isqrt, int(d ** 0.5) fail), d_head ≠ T,
    H = 1 and H > 1, three sizes (catches a hard-coded size). Named first: no scale, d_head
    instead of √d_head, √d_model, d_model, √T, √H, a rounded square root, multiplied, kᵀq.
    """
    rng = core.rng(3)
    for H, T, d_head in HEAD_CASES:
        q = rng.standard_normal((H, T, d_head))
        k = rng.standard_normal((H, T, d_head))
        d_model = H * d_head
        root = math.sqrt(d_head)
        name = f"head_scores on q, k of shape {(H, T, d_head)} (d_model = {d_model})"
        try:
            got = core.call(head_scores, q, k, name="head_scores")
        except NotImplementedError:
            raise
        except (ValueError, RuntimeError) as error:
            core.fail(
                f"{name} raised {type(error).__name__}: {error}. If you wrote k.T: on a 3-D "
                "array .T reverses all three axes, giving (d_head, T, H). Swap only the last "
                "two axes of k.", "scaling.k-dot-t")
        mistakes = [
            ("scaling.no-scale",
             "these are the raw dot products q·k, unscaled: you forgot the scale. Divide by "
             "√d_head, the width of the vectors in each dot product.", qk_scores(q, k, 1.0)),
            ("scaling.divided-by-d",
             f"you divided by d_k instead of √d_k (by d_head = {d_head} instead of √d_head = "
             f"{root:.3g}). The scores' standard deviation is √d_head, so dividing by d_head "
             "shrinks it to 1/√d_head and flattens the softmax.", qk_scores(q, k, 1 / d_head)),
            ("scaling.divided-by-sqrt-d-model",
             f"you divided by d_model instead of the head width: by √d_model = √{d_model} "
             f"where each head needs √d_head = √{d_head}. Each head's dot product sums only "
             f"d_head products, so the scores' variance becomes d_head/d_model = 1/{H} "
             "instead of 1 and every head's weights come out too flat.",
             qk_scores(q, k, 1 / math.sqrt(d_model))),
            ("scaling.divided-by-d-model",
             f"you divided by d_model = {d_model} itself: the model width instead of the head "
             "width, and without the square root. Divide by √d_head.",
             qk_scores(q, k, 1 / d_model)),
            ("scaling.divided-by-sqrt-t",
             f"you divided by √T = √{T}, the number of keys: the scale depends on the width "
             "of q and k, not on how many positions there are.",
             qk_scores(q, k, 1 / math.sqrt(T))),
            ("scaling.multiplied",
             "you multiplied by √d_head instead of dividing: the scores grow instead of "
             "coming back to variance 1.", qk_scores(q, k, root)),
            ("scaling.transposed-scores",
             "your scores are transposed: row i must hold query i against every key "
             "(q @ kᵀ), and you computed k @ qᵀ.", qk_scores(k, q, 1 / root)),
        ]
        if H > 1:
            mistakes.append((
                "scaling.divided-by-sqrt-h",
                f"you divided by √H = √{H}, the number of heads (q.shape[0]): the scale is the "
                "width of each head's vectors, the last axis.",
                qk_scores(q, k, 1 / math.sqrt(H))))
        if math.isqrt(d_head) ** 2 != d_head:
            mistakes.append((
                "scaling.rounded-sqrt",
                f"you rounded the square root to a whole number: √{d_head} = {root:.4g}, but "
                f"you divided by {math.isqrt(d_head)} (math.isqrt or int(d ** 0.5) cuts off "
                "the fraction). Use the real square root (math.sqrt, np.sqrt).",
                qk_scores(q, k, 1 / math.isqrt(d_head))))
        _judge(got, qk_scores(q, k, 1 / root), name=name, mistakes=mistakes,
               axes=("H", "T (query i)", "T (key j)"),
               sizes=dict(H=H, T=T, d_head=d_head, d_model=d_model),
               factors={"√d_head": root, "√d_model": math.sqrt(d_model), "√T": math.sqrt(T),
                        "√H": math.sqrt(H)})
    core.passed(
        "head_scores divides each head's q @ kᵀ by √d_head (not √d_model), for three head "
        "layouts, d_head = 16, 6 and 10"
    )


# -------------------------------------------- Exercise 3: saturation point without scaling

_DEFAULTS = dict(n_rows=200, n_keys=16, seed=0)
SATURATION_CASES = (  # (d_ks, threshold, keyword arguments beyond d_ks and threshold)
    ((4, 16, 64, 256, 1024), 0.9, {}),
    ((1, 2, 4, 8, 16, 32, 64), 0.5, {}),
    ((2, 8, 32, 128, 512), 0.7, {}),
    ((1, 2, 4), 0.9, {}),
    ((1, 2, 4), 0.1, {}),
    ((1, 2, 4), 0.05, {}),
    # every one of n_rows, n_keys and seed matters here: ignoring any of them answers 16
    ((1, 2, 4, 8, 16, 32, 64, 128), 0.625, dict(n_rows=100, n_keys=32, seed=1)),
    ((1, 2, 4, 8, 16, 32, 64, 128), 0.82, dict(n_rows=50, n_keys=4, seed=3)),
)
SATURATION_EDGE = 64  # two more cases put the threshold just below and just above its value


@functools.lru_cache(maxsize=512)  # small (n_rows, n_keys) arrays; the mistakes reuse them
def _unscaled_scores(d_k: int, n_rows: int, n_keys: int, seed: int,
                     variant: str = "right") -> np.ndarray:
    """The scores of sample_qk, or those of an anticipated wrong way of computing them."""
    q, k = sample_qk(d_k, n_rows, n_keys, seed)
    if variant == "right":
        scores = np.einsum("rd,rjd->rj", q, k)  # (n_rows, n_keys)
    elif variant == "keys-of-row-0":
        scores = q @ k[0].T  # every query against row 0's keys
    elif variant == "summed-over-keys":
        scores = (q[:, None, :] * k).sum(axis=1)  # (n_rows, d_k)
    scores.flags.writeable = False
    return scores


def _mean_max_weight(scores):
    return softmax(scores).max(axis=-1).mean()


def _saturation_cases():
    """The visible cases and, when grading, two cases the notebook has not seen."""
    cases = _visible_saturation_cases()
    if core.grading():
        cases += _graded_saturation_cases(core.seed(0))
    return cases


@functools.lru_cache(maxsize=4)
def _graded_saturation_cases(seed: int):
    """Two cases with d_ks, threshold, n_rows, n_keys and seed drawn from `seed`: one whose
    answer is a d_k (not the first of its list), one where no d_k reaches the threshold, so
    that no fixed answer passes both. The threshold keeps a margin of at least 0.003 from
    every mean max weight of its list, so that a valid answer never depends on rounding."""
    rng = np.random.default_rng(seed)
    measure = _unscaled_scores.__wrapped__  # not cached: most draws are thrown away
    cases = []
    for none_reached in (False, True):
        while True:
            n_rows, n_keys = int(rng.integers(20, 101)), int(rng.integers(4, 25))
            kwargs = dict(n_rows=n_rows, n_keys=n_keys, seed=int(rng.integers(4, 10**6)))
            size = int(rng.integers(3, 6))
            d_ks = tuple(sorted(int(d) for d in rng.choice(np.arange(1, 129), size, False)))
            means = [float(_mean_max_weight(measure(d, n_rows, n_keys, kwargs["seed"])))
                     for d in d_ks]
            if none_reached:
                if max(means) < 0.99:
                    cases.append((d_ks, round(max(means) + 0.005, 3), kwargs))
                    break
                continue
            j = int(rng.integers(1, size))  # the answer is d_ks[j]
            low, high = max(means[:j]), means[j]
            if high - low >= 0.01:
                threshold = round(float(rng.uniform(low + 0.004, high - 0.004)), 3)
                cases.append((d_ks, threshold, kwargs))
                break
    return tuple(cases)


@functools.lru_cache(maxsize=1)
def _visible_saturation_cases():
    """SATURATION_CASES and two cases whose threshold is within 1e-5 of a measured value.

    At d_k = SATURATION_EDGE the threshold sits just below the reference's mean max weight,
    then just above it: any other way of computing the scores or the weights moves that value
    by more and changes one of the two answers, though its statistics look the same.
    """
    m = float(_mean_max_weight(_unscaled_scores(SATURATION_EDGE, **_DEFAULTS)))
    below = math.floor((m - 2e-6) * 1e5) / 1e5
    above = math.ceil((m + 2e-6) * 1e5) / 1e5
    return SATURATION_CASES + (((16, SATURATION_EDGE), below, {}),
                               ((16, SATURATION_EDGE, 256), above, {}))


def _saturation_answers(measure=_mean_max_weight, *, scaled=False, pick="first",
                        ignore_arguments=False, variant="right"):
    """What a saturation_point computing `measure(scores)` would answer, per case."""
    answers = []
    for d_ks, threshold, kwargs in _saturation_cases():
        params = _DEFAULTS if ignore_arguments else {**_DEFAULTS, **kwargs}
        values = []
        for d_k in d_ks:
            scores = _unscaled_scores(d_k, params["n_rows"], params["n_keys"], params["seed"],
                                      variant)
            values.append(measure(scores / math.sqrt(d_k) if scaled else scores))
        over = [i for i, v in enumerate(values) if v > threshold]
        if pick == "first":
            answers.append(d_ks[over[0]] if over else None)
        elif pick == "last":
            answers.append(d_ks[over[-1]] if over else None)
        elif pick == "index":
            answers.append(over[0] if over else None)
        elif pick == "previous":  # the last d_k still at or below the threshold
            answers.append(d_ks[over[0] - 1] if over and over[0] > 0 else None)
        elif pick == "first-below":
            below = [i for i, v in enumerate(values) if v <= threshold]
            answers.append(d_ks[below[0]] if below else None)
        elif pick == "zero-for-none":
            answers.append(d_ks[over[0]] if over else 0)
    return answers


def _call_saturation(saturation_point, d_ks, threshold, kwargs):
    shown = ", ".join([str(list(d_ks)), str(threshold)]
                      + [f"{key}={value}" for key, value in kwargs.items()])
    name = f"saturation_point({shown})"
    answer = core.call(saturation_point, list(d_ks), threshold, name="saturation_point",
                       **kwargs)
    if answer is None:
        return None, name
    if isinstance(answer, (bool, np.bool_)):
        core.fail(f"{name} returned {answer}: return the d_k itself (a number from the list), "
                  "or None, not whether the threshold was crossed.", "scaling.returned-bool")
    if isinstance(answer, (float, np.floating)) and not float(answer).is_integer():
        core.fail(f"{name} returned {answer:.4g}, which is not a d_k: return the width d_k from "
                  "the list, not the weight you measured.", "scaling.returned-weight")
    try:
        return int(answer), name
    except (TypeError, ValueError):
        core.fail(f"{name} returned {type(answer).__name__} {answer!r}: return one d_k from the "
                  "list, or None.", "scaling.not-a-d-k")


@core.exercise
def check_saturation_point(saturation_point) -> None:
    """Exercise 3: smallest d_k whose unscaled mean max weight exceeds the threshold.

    Cases: three sweeps, a threshold no d_k reaches, one every d_k passes, and two calls with
    their own n_rows, n_keys and seed (ignoring any of them changes the answer). Named: scaled,
    max score, mean before max, softmax over rows, the largest or the previous d_k, the index,
    the first below, 0 for none, and the keyword arguments ignored.
    """
    expected = _saturation_answers()
    got, names = [], []
    for d_ks, threshold, kwargs in _saturation_cases():
        answer, name = _call_saturation(saturation_point, d_ks, threshold, kwargs)
        got.append(answer)
        names.append(name)

    if got == expected:
        core.passed(
            "saturation_point finds the smallest d_k where the unscaled mean max weight exceeds "
            f"the threshold ({expected[0]} at 0.9 for d_k = 4..1024) and None when none does, "
            f"in {len(_saturation_cases())} cases, two with their own n_rows, n_keys and seed "
            "and two with a threshold within 1e-5 of the mean max weight at "
            f"d_k = {SATURATION_EDGE}"
        )
        return

    mistakes = [
        ("scaling.scaled-when-told-not",
         "you divided the scores by √d_k: the exercise asks for the UNscaled softmax. Scaled, "
         "the scores keep variance 1 at every d_k and the mean max weight stays near 0.24, so "
         "the softmax never saturates; that is the point of the scale.",
         lambda: _saturation_answers(scaled=True)),
        ("scaling.max-score-not-weight",
         "you measured the largest score q·k, not the largest softmax weight. Apply softmax "
         "over each row's keys first, then take each row's max weight and average over rows.",
         lambda: _saturation_answers(lambda s: s.max(axis=-1).mean())),
        ("scaling.keys-of-row-0",
         "you scored every query against the keys of row 0 (k[0]) instead of its own keys: "
         "row r scores q[r] against k[r, j], j = 0 .. n_keys-1. The statistics look alike, "
         "but the numbers differ: s[r, j] = q[r] · k[r, j].",
         lambda: _saturation_answers(variant="keys-of-row-0")),
        ("scaling.summed-over-keys",
         "your scores summed the products over the keys (axis 1) instead of over the d_k "
         "features: they have shape (n_rows, d_k), not (n_rows, n_keys), so the softmax runs "
         "over features. s[r, j] = Σ_d q[r, d]·k[r, j, d]: sum over the last axis.",
         lambda: _saturation_answers(variant="summed-over-keys")),
        ("scaling.max-over-rows",
         "you took the largest weight of each key over the rows (max over axis 0), then "
         "averaged over the keys. Take each row's largest weight (the max over its keys, the "
         "last axis), then the mean over the rows.",
         lambda: _saturation_answers(lambda s: softmax(s).max(axis=0).mean())),
        ("scaling.mean-before-max",
         "you took the max of the mean: you averaged the weights over the rows before taking "
         "the max (that gives about 1/n_keys). Take the mean of the max instead: each row's "
         "largest weight first, then the mean over rows.",
         lambda: _saturation_answers(lambda s: softmax(s).mean(axis=0).max())),
        ("scaling.softmax-over-rows",
         "your softmax ran over the rows (axis 0) instead of over each row's keys (axis -1): "
         "then a query's weights do not sum to 1 across its keys.",
         lambda: _saturation_answers(lambda s: softmax(s, axis=0).max(axis=-1).mean())),
        ("scaling.largest-d-k",
         "you returned the largest d_k above the threshold; the saturation point is the "
         "smallest one (the first, going up the list).",
         lambda: _saturation_answers(pick="last")),
        ("scaling.returned-index",
         "you returned the position of the d_k in the list, not the d_k itself.",
         lambda: _saturation_answers(pick="index")),
        ("scaling.previous-d-k",
         "you returned the d_k just before the saturation point (the last one still at or "
         "below the threshold): an off-by-one. Return the first d_k whose mean max weight is "
         "greater than the threshold.", lambda: _saturation_answers(pick="previous")),
        ("scaling.first-below",
         "you returned the first d_k whose mean max weight is BELOW the threshold: the "
         "comparison is the wrong way round. Return the first one above it.",
         lambda: _saturation_answers(pick="first-below")),
        ("scaling.zero-for-none",
         "when no d_k reaches the threshold you returned 0; the exercise asks for None.",
         lambda: _saturation_answers(pick="zero-for-none")),
        ("scaling.ignores-arguments",
         "your answers are right with the default n_rows=200, n_keys=16, seed=0, but wrong "
         "when the check passes others: you ignored the function's own n_rows, n_keys and "
         "seed. Call sample_qk(d_k, n_rows, n_keys, seed) with them.",
         lambda: _saturation_answers(ignore_arguments=True)),
    ]
    for diagnosis, message, wrong in mistakes:
        wrong = wrong()
        if got == wrong and wrong != expected:
            core.fail(f"saturation_point: {message} (you answered {got})", diagnosis)
    for (d_ks, threshold, kwargs), answer, want, name in zip(_saturation_cases(), got, expected,
                                                            names, strict=True):
        if answer == want:
            continue
        if want is None:
            core.fail(f"{name} returned {answer}, but no d_k in this list gets a mean max "
                      "weight above the threshold: return None then"
                      + (" (not 0)." if answer == 0 else "."),
                      "scaling.zero-for-none" if answer == 0 else "scaling.none-expected")
        core.require(answer is None or answer in d_ks,
                     f"{name} returned {answer}, which is not in the list: return one of the "
                     "d_k you were given (or None).", "scaling.not-in-list")
        params = {**_DEFAULTS, **kwargs}
        means = [_mean_max_weight(_unscaled_scores(d, params["n_rows"], params["n_keys"],
                                                   params["seed"])) for d in d_ks]
        digits = 6 if min(abs(m - threshold) for m in means) < 1e-3 else 3
        table = ", ".join(f"{d}: {m:.{digits}f}" for d, m in zip(d_ks, means, strict=True))
        core.fail(
            f"{name} returned {answer}, expected {want}. The reference's mean max weights "
            f"(unscaled, {params['n_rows']} rows of {params['n_keys']} keys, seed "
            f"{params['seed']}) are {table}. Use sample_qk(d_k, n_rows, n_keys, seed) for "
            "every d_k, score each q[r] against its own keys k[r, j] (s has shape (n_rows, "
            "n_keys)), take the softmax of each row, each row's max and the mean over rows, "
            "and return None when no d_k exceeds the threshold.",
            "scaling.wrong-saturation-point")


# ------------------------------------------------------ Exercise 4: softmax with temperature

LOVE_SCORES = np.array(
    [[2.1, 0.5, -0.3], [1.8, 3.2, 1.9], [-0.1, 2.0, 2.8]]
)  # the 我 爱 你 score matrix of seed 001
EXTREME_SCORES = np.array([[100.0, -50.0, -30.0]])


def _rows_of_probabilities(name: str, tau, scores):
    """Properties of a softmax output, in teaching order, for _judge."""

    def finite(got):
        core.require(np.isfinite(got).all(),
                     f"{name}: your weights contain NaN or inf. scores / tau can be large "
                     f"(here up to {np.abs(scores).max() / tau:.4g}) and exp overflows: "
                     "subtract each row's max before exp (helpers.attention.softmax does).",
                     "scaling.overflow")

    def shape(got):
        core.require(got.shape == scores.shape,
                     f"{name}: the weights must have the scores' shape {scores.shape}; got "
                     f"{got.shape}.", "scaling.weights-shape")

    def non_negative(got):
        core.require((got >= 0).all(),
                     f"{name}: some weights are negative ({got.min():.3g}): exp of anything is "
                     "positive, so softmax weights are never negative.", "scaling.negative-weights")

    def rows_sum_to_one(got):
        sums = got.sum(axis=-1)
        core.require(np.allclose(sums, 1.0),
                     f"{name}: your rows do not sum to 1 (the first sums to "
                     f"{float(sums.flat[0]):.4g}): at any temperature each row is a probability "
                     "distribution over the keys. Apply the temperature to the scores, then "
                     "normalise along the last axis.", "scaling.rows-not-normalised")

    def temperature(got):
        _name_effective_temperature(got, name, tau, scores)

    return (finite, shape, non_negative, rows_sum_to_one, temperature)


def _name_effective_temperature(got, name: str, tau: float, scores) -> None:
    """Fail naming the temperature t when got is softmax(scores / t) for a t other than tau.

    log softmax(s / t) is s / t minus a constant per row, so t is read off a least-squares
    fit of the centred log weights against the centred scores, whatever code produced it.
    """
    if got.shape != scores.shape or not (got > 0).all():
        return
    with np.errstate(all="ignore"):
        logs = np.log(got)
    logs = logs - logs.mean(axis=-1, keepdims=True)
    centred = scores - scores.mean(axis=-1, keepdims=True)
    denom = float(np.sum(centred * centred))
    if denom == 0:
        return
    c = float(np.sum(logs * centred)) / denom
    if c <= 0 or not np.allclose(logs, c * centred, atol=1e-6, rtol=1e-5):
        return
    t = 1 / c
    if math.isclose(t, tau, rel_tol=1e-6):
        return
    known = (("√tau", math.sqrt(tau)), ("tau²", tau * tau), ("1/tau", 1 / tau),
             ("1, no temperature", 1.0), ("2·tau", 2 * tau), ("tau/2", tau / 2))
    label = next((lab for lab, v in known if math.isclose(t, v, rel_tol=1e-6)), None)
    what = f"{label} = {t:.4g}" if label else f"{t:.4g}"
    note = (" The square root belongs to the √d_k scale, not to the temperature."
            if label == "√tau" else "")
    core.fail(f"{name}: your weights are softmax(scores / {t:.4g}): the temperature you applied "
              f"is {what}, not tau = {tau}. Divide the scores by tau itself, scores / tau, "
              f"then take the softmax.{note}", "scaling.wrong-temperature")


@core.exercise
def check_softmax_temperature(softmax_t) -> None:
    """Exercise 4: softmax(s / tau) along the last axis, stable for large s / tau.

    In order: finite on [100, -50, -30] at tau = 0.1; then for tau = 0.5, 2, 8 on a (3, 3)
    matrix, 0.7 on a (2, 3, 4) batch (any leading axes) and the extreme row: the named
    mistakes (tau multiplied, ignored, after the softmax, squared, another axis), the
    properties of weights (finite, shape, non-negative, rows sum to 1), the values.
    """
    with np.errstate(all="ignore"):
        got = core.as_array(core.call(softmax_t, EXTREME_SCORES, 0.1, name="softmax_t"),
                            "softmax_t([[100, -50, -30]], 0.1)")
    core.require(
        not (np.isnan(got).any() or np.isinf(got).any()),
        "softmax_t([[100, -50, -30]], tau=0.1) gave NaN or inf: 100 / 0.1 = 1000 and "
        "exp(1000) overflows. Subtract each row's max before exp (or use "
        "helpers.attention.softmax, which does).", "scaling.overflow")
    batch = np.round(core.rng(8).normal(scale=2.0, size=(2, 3, 4)), 2)
    cases = ((LOVE_SCORES, 0.5), (LOVE_SCORES, 2.0), (LOVE_SCORES, 8.0), (batch, 0.7),
             (EXTREME_SCORES, 0.1))
    for scores, tau in cases:
        name = f"softmax_t(scores of shape {scores.shape}, tau={tau})"
        with np.errstate(all="ignore"):
            got = core.call(softmax_t, scores, tau, name="softmax_t")
        mistakes = [
            ("scaling.tau-multiplied",
             "you multiplied the scores by tau instead of dividing: a high temperature should "
             "flatten the weights, and yours sharpen them.", softmax(scores * tau)),
            ("scaling.tau-ignored",
             "you ignored tau: this is plain softmax(scores). (Adding or subtracting tau "
             "changes nothing either: softmax ignores a constant shift; divide by it.)",
             softmax(scores)),
            ("scaling.tau-after-softmax",
             "you applied the temperature after the softmax (weights / tau): the rows no "
             "longer sum to 1. Divide the scores, then take the softmax.",
             softmax(scores) / tau),
            ("scaling.tau-squared",
             "you divided by tau² instead of tau.", softmax(scores / tau**2)),
        ]
        z = scores / tau
        if scores.ndim == 2 and scores.shape[0] == scores.shape[1]:
            keepdims = (
                "the row max or row sum broadcast along the wrong direction: without "
                "keepdims=True, z.max(axis=-1) has shape (T,), and NumPy lines it up with the "
                "COLUMNS, so row i loses the max of row j. Keep the reduced axis "
                "(keepdims=True) so each row's maximum stays one number per row.")
            with np.errstate(all="ignore"):
                e = np.exp(z - z.max(axis=-1))
                mistakes += [
                    ("scaling.temperature-keepdims", keepdims,
                     e / e.sum(axis=-1, keepdims=True)),
                    ("scaling.temperature-keepdims", keepdims, e / e.sum(axis=-1)),
                    ("scaling.temperature-keepdims", keepdims, softmax(z - z.max(axis=-1))),
                ]
        mistakes += [
            ("scaling.temperature-wrong-axis",
             f"you normalised over axis {axis} (across the rows, not along each row): each "
             "query's row of weights must sum to 1, so take the softmax over the last axis.",
             softmax(scores / tau, axis=axis))
            for axis in range(scores.ndim - 1)
        ]
        axes = ("query", "key") if scores.ndim == 2 else ("batch", "query", "key")
        _judge(got, softmax_temperature(scores, tau), name=name, mistakes=mistakes,
               properties=_rows_of_probabilities(name, tau, scores), axes=axes,
               sizes=dict(zip(axes, scores.shape, strict=True)),
               factors={"tau": tau})
    core.passed(
        "softmax_t divides the scores by tau before a softmax along the last axis, stable at "
        "[100, -50, -30] / 0.1, for tau = 0.5, 2, 8 and a (2, 3, 4) batch at tau = 0.7"
    )


# ------------------------------------------------------------- Exercise 5: softmax entropy


def _entropy_properties(name: str, p: np.ndarray):
    """Properties of entropies, in teaching order, for _judge."""
    want_shape = p.shape[:-1]
    n = p.shape[-1]
    flat = p.reshape(-1, n)
    one_hot = np.isclose(flat.max(axis=-1), 1.0)
    uniform = np.all(np.isclose(flat, flat[:, :1]), axis=-1)

    def no_nan(got):
        core.require(not np.isnan(got).any(),
                     f"{name}: your entropies contain NaN where p has a 0: np.log(0) is "
                     "-inf, and 0 · log 0 is then 0 · (-inf) = NaN in floating point, though "
                     "its limit is 0. Keep only the terms where p > 0 (or zero the others).",
                     "scaling.nan-zero-log-zero")

    def shape(got):
        core.require(got.shape == want_shape,
                     f"{name}: expected one entropy per distribution (each last-axis row of "
                     f"p), shape {want_shape}; got shape {got.shape}. Sum over the last axis "
                     "only.", "scaling.entropy-shape")

    def non_negative(got):
        core.require((got >= -1e-12).all(),
                     f"{name}: some of your entropies are negative ({got.min():.4g}): each "
                     "term −p log p is ≥ 0 for 0 ≤ p ≤ 1. Check the sign of −Σ p log p.",
                     "scaling.entropy-sign")

    def one_hot_zero(got):
        values = got.reshape(-1)[one_hot]
        core.require(np.allclose(values, 0.0, atol=1e-9),
                     f"{name}: a one-hot row (one p = 1, the rest 0) is certain, so its "
                     f"entropy is 0; yours gives {values[~np.isclose(values, 0)][:1]}. Did "
                     "you add something to p inside the log (log(p + eps)), or count the "
                     "zero entries?",
                     "scaling.one-hot-not-zero")

    def uniform_log_n(got):
        values = got.reshape(-1)[uniform]
        core.require(np.allclose(values, math.log(n)),
                     f"{name}: a uniform row of n = {n} entries has entropy log n = "
                     f"{math.log(n):.4g} nats; yours gives {values[:1]}. Use the natural "
                     "log and sum (not average) the terms.", "scaling.uniform-not-log-n")

    return (no_nan, shape, one_hot_zero, non_negative, uniform_log_n)


def _fresh_distributions(rng) -> list[np.ndarray]:
    """A (rows, n) and a (2, rows, n) array of distributions drawn from rng, some entries 0.

    Every row keeps at least two entries of at least 0.02 (so none is one-hot or nearly so).
    """
    def row(n):
        while True:
            p = rng.dirichlet(np.ones(n))
            p[rng.permutation(n)[: int(rng.integers(0, n - 1))]] = 0.0
            p /= p.sum()
            if (p >= 0.02).sum() >= 2 and not np.any((p > 0) & (p < 0.02)):
                return p

    n1, n2 = (int(n) for n in rng.integers(3, 9, size=2))
    flat = np.stack([row(n1) for _ in range(int(rng.integers(2, 7)))])
    batch = np.stack([np.stack([row(n2) for _ in range(3)]) for _ in range(2)])
    return [flat, batch]


@core.exercise
def check_entropy(entropy_fn) -> None:
    """Exercise 5: entropy in nats along the last axis, with 0·log 0 = 0.

    Cases: five rows of 4 (uniform, one-hot, two zeros, one zero, none), a (2, 3, 3) batch of
    softmax weights and a single (5,) row with a zero (shape ()). Named first: NaN from
    0·log 0, the sign, log base 2 or 10, the mean, another axis, one sum over the whole array.
    Then no NaN, one entropy per row, non-negative, one-hot gives 0, uniform gives log n.
    """
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
    single = np.array([0.1, 0.0, 0.6, 0.2, 0.1])  # (5,): one distribution, entropy shape ()
    cases = [rows, batch, single]
    if core.grading():  # distributions the notebook has not seen
        cases += _fresh_distributions(core.rng(9))
    for p in cases:
        name = f"entropy of probabilities with shape {p.shape}"
        with np.errstate(all="ignore"):
            got = core.call(entropy_fn, p, name="softmax_entropy")
            mistakes = [
                ("scaling.nan-zero-log-zero",
                 "a row containing 0 gives NaN: np.log(0) is -inf, and 0 · log 0 is then "
                 "0 · (-inf) = NaN in floating point, though its limit is 0. Keep only the "
                 "terms where p > 0 (or zero the others).",
                 -(p * np.log(p)).sum(axis=-1)),
                ("scaling.entropy-sign",
                 "your entropies are negative: you forgot the minus sign in −Σ p log p.",
                 -entropy(p)),
                ("scaling.log-base-2",
                 "you used log base 2 (bits); this course measures entropy in nats, with the "
                 "natural log np.log, so a uniform row of n entries gives log n.",
                 entropy(p) / np.log(2)),
                ("scaling.log-base-10",
                 "you used log base 10; this course measures entropy in nats, with the "
                 "natural log np.log, so a uniform row of n entries gives log n.",
                 entropy(p) / np.log(10)),
                ("scaling.mean-not-sum",
                 "you averaged −p log p over the entries instead of summing them.",
                 entropy(p) / p.shape[-1]),
                ("scaling.entropy-summed-all",
                 "you summed −p log p over the whole array, giving one number: each "
                 "distribution is a last-axis row, so sum over the last axis only, one "
                 "entropy per row.", np.sum(entropy(p))),
            ]
            mistakes += [
                ("scaling.entropy-wrong-axis",
                 f"you summed over axis {axis}; each distribution is a row, so sum over the "
                 "last axis.", entropy(p, axis=axis))
                for axis in range(p.ndim - 1)
            ]
        axes = {1: (), 2: ("row",), 3: ("tau", "query")}[p.ndim]
        if p.ndim == 1:  # one number: the whole-array sum is the right answer
            mistakes = [m for m in mistakes if m[0] != "scaling.entropy-summed-all"]
        _judge(got, entropy(p), name=name, mistakes=mistakes,
               properties=_entropy_properties(name, p), axes=axes,
               sizes=dict(zip(axes, p.shape[:-1], strict=True)) | {"n": p.shape[-1]},
               factors={"ln 2": math.log(2), "ln 10": math.log(10), "n": p.shape[-1]})
    core.passed(
        "entropy is −Σ p log p in nats along the last axis: log 4 for a uniform row of 4, "
        "0 for a one-hot row, with 0·log 0 = 0, for 2-D, 3-D and 1-D p"
    )
