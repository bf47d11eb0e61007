"""Checks for lesson 06 (position): a permutation-equivariance test, the sinusoidal encoding,
RoPE (the rotation, then attention that rotates q and k but not v) and the ALiBi bias.

Every check first matches the mistakes it anticipates, then tests the properties the answer
must have in the lesson's order (the encoding: position 0 is [0, 1, 0, 1, ...], each pair is a
point on the unit circle, pair i turns at its own frequency; RoPE: each pair keeps its length,
position 0 is not rotated, q . k depends on m - n only, pair i turns by theta_i; RoPE attention:
v is left alone, only offsets matter; ALiBi: 0 on the diagonal and the future, a penalty
proportional to the distance, the slopes 2^(-8h/H)), and only then compares every number, with
the axes and sizes named.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from helpers.attention import attention
from helpers.checks import core
from helpers.masks import causal_mask
from helpers.positions import alibi_bias, alibi_slopes, apply_rope, sinusoidal_encoding

_ATOL, _RTOL = 1e-6, 1e-5


_forbid = core.forbid  # it also refuses the library function passed as the answer


_close = functools.partial(core.matches, atol=_ATOL, rtol=_RTOL)


def _anticipated(got, want, name: str, mistakes) -> None:
    """Name an anticipated mistake before the property checks (which would say less)."""
    if _close(got, want):
        return
    for diagnosis, message, wrong in mistakes:
        if not _close(wrong, want) and _close(got, wrong):
            core.fail(f"{name}: {message}", diagnosis)


def _array(result, name: str, shape: tuple, what: str, finite: bool = True) -> np.ndarray:
    """The student's result as a float array of the expected shape, or a named failure."""
    got = core.as_array(result, name)
    if got.shape != shape and got.shape == shape[::-1] and len(shape) == 2:
        core.fail(f"{name}: expected shape {what} = {shape}, one row per position; got "
                  f"{got.shape}, the transpose.", "position.transposed")
    if got.shape != shape:
        core.fail(f"{name}: expected shape {what} = {shape}; got {got.shape}.",
                  "position.wrong-shape")
    if finite and not np.isfinite(got).all():
        core.fail(f"{name}: your result contains NaN or inf; every entry must be finite.",
                  "position.not-finite")
    return got


# --------------------------------------------------------------------------------------------
# Exercise: a permutation-equivariance test
# --------------------------------------------------------------------------------------------
def _equivariance_layers():
    """x (T, d) and layers x -> (T, d_out), each with whether it is permutation-equivariant.

    The non-equivariant ones are chosen so that each lazy choice of permutations misses one:
    a symmetric distance bias survives reversal, a circular one survives cyclic shifts, a ring
    distance survives both (and their combinations), and a marker on token 0 survives every
    reorder that keeps token 0 in place.
    """
    rng = core.rng(6)
    while True:  # the notebook's draw is well separated; a grading draw may take another
        x, layers = _equivariance_draw(rng)
        if _well_separated(x, layers):
            return x, layers


def _equivariance_draw(rng):
    T, d = 4, 6
    x = rng.normal(size=(T, d))
    w_q, w_k, w_v = (rng.normal(size=(d, 4)) / np.sqrt(d) * 2 for _ in range(3))
    w_mlp = rng.normal(size=(d, 5))
    pe = sinusoidal_encoding(T, d)
    i, j = np.indices((T, T))
    symmetric = -1.0 * np.abs(i - j)  # (T, T): unchanged when the sequence is reversed
    circular = -1.0 * ((i - j) % T)  # (T, T): unchanged under a cyclic shift (np.roll)
    ring = -1.0 * np.minimum((i - j) % T, (j - i) % T)  # (T, T): distance around a ring
    marker = np.zeros((T, d))
    marker[0] = 1.5  # a learned "first token" vector on position 0 only
    last_marker = np.zeros((T, d))
    last_marker[-1] = 1.5  # a vector on the last position only

    def attend(x, mask=None, bias=None, rope=False):
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        if rope:
            q, k = apply_rope(q), apply_rope(k)
        return attention(q, k, v, mask, bias=bias)[0]

    return x, [
        # name, layer, equivariant, how a test that missed it went wrong
        ("attention without positions", attend, True, ""),
        ("a per-token MLP, tanh(x W)", lambda x: np.tanh(x @ w_mlp), True, ""),
        ("attention on x + sinusoidal positions", lambda x: attend(x + pe), False,
         "adding a position vector to each row ties every token to its slot"),
        ("attention with a causal mask", lambda x: attend(x, causal_mask(T)), False,
         "the mask lets token i read only the tokens before it"),
        ("attention with RoPE on q and k", lambda x: attend(x, rope=True), False,
         "RoPE rotates each query and key by its position"),
        ("attention with a symmetric distance bias -|i - j|", lambda x: attend(x, bias=symmetric),
         False, "reversing the sequence leaves the distances |i - j| unchanged, so the reversal "
         "alone cannot reveal this bias; reversal is only one of the T! orders"),
        ("attention with a circular distance bias -((i - j) mod T)",
         lambda x: attend(x, bias=circular), False,
         "a cyclic shift (np.roll) leaves circular distances unchanged, so shifts alone cannot "
         "reveal it; try orders that are not cyclic shifts"),
        ("attention with a bias on the distance around a ring, -min(|i - j|, T - |i - j|)",
         lambda x: attend(x, bias=ring), False,
         "reversals, cyclic shifts and their combinations all keep distances around a ring, so "
         "they cannot reveal it; they are only 2T of the T! orders"),
        ("attention with a marker added to token 0 only", lambda x: attend(x + marker), False,
         "only the first token (position 0) carries position information, so any order that "
         "keeps row 0 in place cannot reveal it; let some order move the first row"),
        ("attention with a marker added to the last token only",
         lambda x: attend(x + last_marker), False,
         "only the last position carries position information, so any order that keeps the "
         "last token in place cannot reveal it; let some order move every token"),
    ]


def _well_separated(x, layers, gap: float = 1e-2) -> bool:
    """Whether every order either leaves a layer's output exactly reordered or moves it by
    more than `gap`: a drawn x and weights whose softmax saturates could make a reorder change
    an output by less than np.allclose notices, and a valid test miss it."""
    for _, layer, _, _ in layers:
        out = layer(x)
        for order in itertools.permutations(range(len(x))):
            moved = float(np.abs(layer(x[list(order)]) - out[list(order)]).max())
            if 1e-9 < moved <= gap:
                return False
    return True


def _small_layers():
    """A second, smaller case, T = 3: an answer with T = 4 hard-coded fails on it."""
    rng = core.rng(16)
    while True:  # as _equivariance_layers
        x, layers = _small_draw(rng)
        if _well_separated(x, layers):
            return x, layers


def _small_draw(rng):
    T, d = 3, 5
    x = rng.normal(size=(T, d))
    w_q, w_k, w_v = (rng.normal(size=(d, 4)) / np.sqrt(d) * 2 for _ in range(3))

    def attend(x):
        return attention(x @ w_q, x @ w_k, x @ w_v)[0]

    pe = sinusoidal_encoding(T, d + 1)[:, :d]
    return x, [
        ("attention without positions (T = 3)", attend, True, ""),
        ("attention on x + sinusoidal positions (T = 3)", lambda x: attend(x + pe), False,
         "adding a position vector to each row ties every token to its slot"),
    ]


class _Layer:
    """A layer that records every input it is given (to explain a wrong verdict)."""

    def __init__(self, fn):
        self.fn, self.inputs = fn, []

    def __call__(self, x):
        try:
            self.inputs.append(np.array(x, dtype=float, copy=True))
        except (TypeError, ValueError):
            pass
        return self.fn(x)


def _orders_seen(inputs, x) -> list[list[int]] | None:
    """The row orders of x the recorded inputs are, or None if one is not a reorder of x."""
    orders = []
    for inp in inputs:
        if inp.shape != x.shape:
            return None
        order = []
        for row in inp:
            hits = np.flatnonzero(np.all(x == row, axis=-1))
            if hits.size == 0:
                return None
            order.append(int(hits[0]))
        orders.append(order)
    return orders


def _equivariance_call(fn, layer, x, name):
    try:
        return core.call(fn, layer, x, name=name)
    except IndexError as error:
        T, d = x.shape
        core.fail(
            f"{name}: your function raised IndexError ({error}) on an x of shape {x.shape}: "
            f"T = {T} rows (positions) and d = {d} features. The orders are orders of the T "
            "rows: itertools.permutations(range(len(x))), T = x.shape[0], not the features "
            "x.shape[1] and not a size hard-coded from the example (range(4)).",
            "position.equivariance-wrong-size")


@core.exercise
def check_is_permutation_equivariant(is_permutation_equivariant) -> None:
    """Exercise: is_permutation_equivariant(attend, x) -> True when attend(x[o]) == attend(x)[o].

    Cases: T = 4 with ten layers (two equivariant), then T = 3 with two. In order: a bool;
    no IndexError (the orders are of the T rows); fires at all; not always; every input it
    passes is a reorder of all T rows of x (a hard-coded T is named); no false alarm; no miss,
    explained by the orders it tried (row 0 or the last row never moved).
    """
    fn = "is_permutation_equivariant"
    x, layers = _equivariance_layers()
    verdicts, recorded = {}, {}
    for name, layer, _, _ in layers:
        recorded[name] = _Layer(layer)
        got = _equivariance_call(is_permutation_equivariant, recorded[name], x, fn)
        if not isinstance(got, (bool, np.bool_)):
            core.fail(f"{fn}: return True or False; got {got!r} of type {type(got).__name__} "
                      f"for {name}", "position.equivariance-not-bool")
        verdicts[name] = bool(got)
    if all(verdicts.values()):
        core.fail(
            f"{fn}: your test never fires: it calls every layer equivariant, even attention on "
            "x + sinusoidal positions. Reorder the input with an order that is not the "
            "identity, run the layer, and compare with the original outputs reordered the same "
            "way: attend(x[order]) vs attend(x)[order].", "position.equivariance-never-fires")
    if not any(verdicts.values()):
        core.fail(
            f"{fn}: your test always fires: it flags even attention without positions, which "
            "is permutation-equivariant. Compare attend(x[order]) with attend(x)[order], the "
            "outputs reordered the SAME way (not attend(x) as it is, and not by the inverse "
            "order), and use np.allclose: a reorder changes the summation order and the last "
            "bits.", "position.equivariance-always-fires")
    for name, _, _, _ in layers:
        sizes = {inp.shape[0] for inp in recorded[name].inputs if inp.ndim == 2}
        if sizes - {len(x)}:
            core.fail(
                f"{fn}: on {name}, with an x of T = {len(x)} rows, your test passed inputs "
                f"of {sorted(sizes - {len(x)})} rows to the layer: reorder all T rows of x, "
                "T = len(x) (x.shape[0]), not a size hard-coded or read from the features.",
                "position.equivariance-wrong-size")
    for name, _, equivariant, how in layers:
        if not equivariant and verdicts[name]:
            orders = _orders_seen(recorded[name].inputs, x)
            if orders and "token 0" in name and all(o[0] == 0 for o in orders):
                how = ("none of your orders moves the first row: row 0 (the first token, "
                       "position 0) stays in place in every order you tried, and only position "
                       "0 carries position information here. Let the orders move row 0 too")
        if equivariant and not verdicts[name]:
            core.fail(
                f"{fn}: false alarm on {name}, which is permutation-equivariant (reorder its "
                "input and its outputs reorder the same way). Compare attend(x[order]) with "
                "attend(x)[order], not with attend(x) itself and not with the outputs in the "
                "inverse order, and use np.allclose rather than ==: a reorder changes the "
                "summation order and the last bits.", "position.equivariance-false-alarm")
        if not equivariant and verdicts[name]:
            core.fail(
                f"{fn}: your test missed the position information in {name}: {how}. Try every "
                "order (itertools.permutations, for small T) or several random ones.",
                "position.equivariance-missed")
    small, small_layers = _small_layers()
    for name, layer, equivariant, _ in small_layers:
        got = _equivariance_call(is_permutation_equivariant, layer, small, fn)
        if bool(got) != equivariant:
            core.fail(
                f"{fn}: right at T = 4, but wrong at T = 3 on {name}: is T hard-coded "
                "(range(4))? Take the number of rows from x, T = len(x).",
                "position.equivariance-wrong-size")
    core.passed(
        f"{fn}: True for attention without positions and a per-token MLP; False for "
        "sinusoidal positions, a causal mask, RoPE, symmetric, circular and ring distance "
        "biases, and a marker on the first or the last token; at T = 4 and T = 3"
    )


# --------------------------------------------------------------------------------------------
# Exercise: the sinusoidal encoding
# --------------------------------------------------------------------------------------------
def _interleave(sin_part, cos_part) -> np.ndarray:
    T, half = sin_part.shape
    out = np.zeros((T, 2 * half))
    out[:, 0::2], out[:, 1::2] = sin_part, cos_part
    return out


def _exponent_note(freq: float, d: int) -> str:
    """How a frequency reads as 10000^(-e/d): e is the student's '2i'."""
    if freq <= 0 or freq > 1:
        return ""
    e = -math.log(freq) / math.log(10000.0) * d + 0.0
    return f" (that is 10000^(-{abs(e):.3g}/d_model))"


def _sinusoidal_properties(got, T, d, name) -> None:
    """Position 0, the unit circle of each pair, then each pair's frequency."""
    row0 = np.tile([0.0, 1.0], d // 2)
    if not _close(got[0], row0):
        core.fail(
            f"{name}: row 0 (position 0) is {np.round(got[0], 3).tolist()}; at position 0 "
            "every angle is 0, so the even columns (sin) are 0 and the odd columns (cos) are "
            "1: [0, 1, 0, 1, ...]. Count positions from 0 and put sin in the even columns.",
            "position.sinusoidal-position-0")
    radius = got[:, 0::2] ** 2 + got[:, 1::2] ** 2  # (T, d/2): sin² + cos² of one angle
    if not np.allclose(radius, 1.0, atol=1e-6):
        t, i = (int(n) for n in np.argwhere(~np.isclose(radius, 1.0, atol=1e-6))[0])
        core.fail(
            f"{name}: columns {2 * i} and {2 * i + 1} are not the sin and cos of one angle: "
            f"at position {t}, sin² + cos² = {radius[t, i]:.4g}, not 1. Each pair (2i, 2i+1) "
            "shares its angle pos / 10000^(2i/d_model): the cos column uses the same angle as "
            "the sin column before it.", "position.sinusoidal-pair-angle")
    omega = np.arctan2(got[1, 0::2], got[1, 1::2])  # the angle of each pair at position 1
    want = 10000.0 ** (-np.arange(0, d, 2) / d)
    if d > 2 and np.allclose(omega, 1.0, atol=1e-6):
        core.fail(
            f"{name}: every pair turns by 1 rad per position, pair 0's frequency: the exponent "
            "is 0 for every pair. An integer (floor) division such as 2i // d_model gives 0 "
            "for every 2i < d_model; the exponent 2i/d_model is a fraction between 0 and 1: "
            "use the true division /.", "position.sinusoidal-integer-exponent")
    if T > 2:
        steps = np.arctan2(got[2, 0::2], got[2, 1::2])
        linear = np.isclose(np.cos(steps), np.cos(2 * omega), atol=1e-6)
    else:
        linear = np.ones(d // 2, bool)
    wrong = ~np.isclose(omega, want, atol=1e-6) | ~linear
    if wrong.any():
        i = int(np.argmax(wrong))
        core.fail(
            f"{name}: pair {i} (columns {2 * i}, {2 * i + 1}) turns by {omega[i]:.4g} rad per "
            f"position{_exponent_note(float(omega[i]), d)}; its frequency is "
            f"1 / 10000^(2i/d_model) = 10000^(-{2 * i}/{d}) = {want[i]:.4g}, with 2i = {2 * i} "
            "the even column index, and the angle is position x frequency.",
            "position.sinusoidal-frequency")


@core.exercise
def check_sinusoidal(my_sinusoidal) -> None:
    """Exercise: my_sinusoidal(T, d_model) -> (T, d_model), sin on even columns, cos on odd."""
    fn = "my_sinusoidal"
    _forbid(my_sinusoidal, ("helpers.positions.sinusoidal_encoding",
                            "helpers.positions.apply_rope"), name=fn,
            why="Build the encoding yourself with NumPy; sinusoidal_encoding is the check's "
                "reference.")
    cases = [(6, 8), (50, 16), (3, 4), (5, 6)]
    if core.grading():  # sizes the notebook has not seen: a table of the encodings fails
        rng = core.rng(1)
        while len(cases) < 6:
            case = (int(rng.integers(3, 41)), 2 * int(rng.integers(2, 17)))
            if case not in cases:
                cases.append(case)
    for T, d in cases:
        name = f"{fn}({T}, {d})"
        raw = core.call(my_sinusoidal, T, d, name=fn)
        got = _array(raw, name, (T, d), "(T, d_model)")
        pos = np.arange(T)[:, None]  # (T, 1)
        two_i = np.arange(0, d, 2)  # (d/2,)
        angle = pos / 10000.0 ** (two_i / d)  # (T, d/2): the right angles
        pair_i = pos / 10000.0 ** (np.arange(d // 2) / d)  # exponent i/d, the 2 dropped
        per_col = pos / 10000.0 ** (np.arange(d) / d)  # exponent j/d for every column j
        times = pos * 10000.0 ** (two_i / d)  # multiplied instead of divided
        from_1 = (pos + 1) / 10000.0 ** (two_i / d)
        want = sinusoidal_encoding(T, d)
        mistakes = [
            ("position.sin-cos-swapped",
             "sin and cos are swapped: the even columns 2i hold sin and the odd columns 2i+1 "
             "hold cos. Row 0 (position 0) must be [0, 1, 0, 1, ...] since sin 0 = 0 and "
             "cos 0 = 1; yours starts [1, 0, ...].", _interleave(np.cos(angle), np.sin(angle))),
            ("position.sinusoidal-exponent-i",
             "wrong exponent: you divided by 10000^(i/d) with i the pair number, dropping the "
             "2. The exponent is 2i/d_model, with 2i the even column index, so the frequencies "
             "run from 1 down to nearly 1/10000; yours stop at 1/100.",
             _interleave(np.sin(pair_i), np.cos(pair_i))),
            ("position.sinusoidal-exponent-per-column",
             "wrong exponent for the cos columns: column 2i+1 uses the SAME angle as column "
             "2i, pos / 10000^(2i/d); you gave it its own exponent (2i+1)/d, so each sin/cos "
             "pair no longer shares a frequency.",
             _interleave(np.sin(per_col[:, 0::2]), np.cos(per_col[:, 1::2]))),
            ("position.sinusoidal-multiplied",
             "you multiplied the position by 10000^(2i/d) instead of dividing: the frequencies "
             "must fall from 1 to nearly 1/10000 across the pairs, not grow to 10000.",
             _interleave(np.sin(times), np.cos(times))),
            ("position.sinusoidal-halves",
             "your sines fill the first half of the columns and the cosines the second half. "
             "Some libraries use that layout (it is a reordering of the features), but the "
             "formula interleaves them: sin in column 2i, cos in column 2i+1.",
             np.concatenate([np.sin(angle), np.cos(angle)], axis=1)),
            ("position.positions-from-1",
             "your positions start at 1: row 0 is position 0, where every sin is 0 and every "
             "cos is 1.", _interleave(np.sin(from_1), np.cos(from_1))),
            ("position.sinusoidal-base-1000",
             "wrong base: the frequencies are 1 / 10000^(2i/d_model), with 10000, not 1000.",
             _interleave(np.sin(pos / 1000.0 ** (two_i / d)), np.cos(pos / 1000.0 ** (two_i / d)))),
        ]
        _anticipated(got, want, name, mistakes)
        dtype = getattr(raw, "dtype", got.dtype)
        integer = (dtype.kind in "iub" if isinstance(dtype, np.dtype)
                   else not getattr(dtype, "is_floating_point", True))
        if not _close(got, want) and (integer or np.array_equal(got, np.round(got))):
            shown = str(dtype).removeprefix("torch.")
            core.fail(
                f"{name}: your table holds only whole numbers (dtype {shown}): every sine and "
                "cosine was truncated to an integer. An integer array (np.zeros_like of an int "
                "array such as np.arange, or dtype=int) keeps only the integer part of what is "
                "written into it: build the table as floats (np.zeros((T, d_model))).",
                "position.sinusoidal-integer-table")
        _sinusoidal_properties(got, T, d, name)
        core.compare(got, want, name=name, mistakes=mistakes, axes=("T", "d_model"),
                     sizes=dict(T=T, d_model=d), factors={})
    core.passed(f"{fn}: PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(same), "
                "for (T, d) = " + ", ".join(map(str, cases)))


# --------------------------------------------------------------------------------------------
# Exercise: the RoPE rotation
# --------------------------------------------------------------------------------------------
def _rope_variant(x, *, exponent=None, sign=1.0, halves=False, start=0, concat=False,
                  overwritten=None, one_angle=False):
    """x (T, d) rotated the way a named mistake does. The defaults give the right answer.

    overwritten: "even" (the odd features computed from the already rotated even ones) or
    "odd" (the other way round); one_angle: every row rotated by theta_i, not m * theta_i.
    """
    T, d = x.shape
    pos = np.arange(T)[:, None] + start  # (T, 1)
    if one_angle:
        pos = np.ones((T, 1))
    i = np.arange(d // 2)  # (d/2,) pair numbers
    exponent = -2 * i / d if exponent is None else exponent(i, d)
    angle = pos * 10000.0 ** exponent  # (T, d/2)
    cos, sin = np.cos(angle), sign * np.sin(angle)
    if halves:
        x1, x2 = x[:, : d // 2], x[:, d // 2:]
    else:
        x1, x2 = x[:, 0::2], x[:, 1::2]
    r1, r2 = x1 * cos - x2 * sin, x1 * sin + x2 * cos  # (T, d/2) each
    if overwritten == "even":
        r2 = r1 * sin + x2 * cos
    elif overwritten == "odd":
        r2 = x1 * sin + x2 * cos
        r1 = x1 * cos - r2 * sin
    if halves or concat:
        return np.concatenate([r1, r2], axis=1)
    return np.stack([r1, r2], axis=-1).reshape(T, d)


def _rope_mistakes(x):
    return [
        ("position.rope-exponent-i",
         "wrong frequency: you rotate pair i by m * 10000^(-i/d), dropping the 2. The pair "
         "(2i, 2i+1) turns at theta_i = 10000^(-2i/d), with 2i the even feature index; yours "
         "turn too fast. (The relative-offset check passes: any fixed frequencies keep it.)",
         _rope_variant(x, exponent=lambda i, d: -i / d)),
        ("position.rope-frequencies-grow",
         "wrong frequency: your frequencies grow across the pairs, m * 10000^(+2i/d); they "
         "must fall, theta_i = 10000^(-2i/d), from 1 down to nearly 1/10000.",
         _rope_variant(x, exponent=lambda i, d: 2 * i / d)),
        ("position.rope-one-speed",
         "every pair turns at the same speed: theta_i = 10000^(-2i/d) differs per pair, "
         "fast for the first pairs and slow for the last.",
         _rope_variant(x, exponent=lambda i, d: 0 * i)),
        ("position.rope-sign",
         "you rotate by -theta, in the other direction (clockwise): the sign of the sin terms "
         "is flipped. The rotation matrix [[cos a, -sin a], [sin a, cos a]] turns (x1, x2) into "
         "(x1 cos a - x2 sin a, x1 sin a + x2 cos a). Yours still depends only on m - n, but "
         "it turns the other way, so the numbers differ from every model trained with RoPE.",
         _rope_variant(x, sign=-1.0)),
        ("position.rope-halves",
         "you paired the halves, feature i with feature i + d/2 (the rotate_half layout of "
         "Llama in Hugging Face). helpers.positions.apply_rope pairs interleaved neighbours "
         "(2i, 2i+1): x[:, 0::2] with x[:, 1::2], written back in that order.",
         _rope_variant(x, halves=True)),
        ("position.rope-written-back-as-halves",
         "you rotated the interleaved pairs correctly but wrote them back concatenated as "
         "halves, [all first members, then all second members]. The result keeps the "
         "interleaved layout: write each rotated pair back into columns (2i, 2i+1), the "
         "columns it came from (the 0::2 and 1::2 columns).", _rope_variant(x, concat=True)),
        ("position.rope-overwritten",
         "you computed the odd features from the even ones you had already overwritten with "
         "their new values: x'_(2i+1) = x_2i sin + x_(2i+1) cos needs the original x_2i. "
         "Compute both from the original x (read x1, x2 first, or work on a copy), then write "
         "both back.", _rope_variant(x, overwritten="even")),
        ("position.rope-overwritten",
         "you computed the even features from the odd ones you had already overwritten with "
         "their new values: x'_2i = x_2i cos - x_(2i+1) sin needs the original x_(2i+1). "
         "Compute both from the original x (read x1, x2 first, or work on a copy), then write "
         "both back.", _rope_variant(x, overwritten="odd")),
        ("position.rope-same-rotation",
         "every row gets the same rotation, by theta_i: the angle of row m is m * theta_i, so "
         "multiply by the position m (np.arange(T)[:, None]); row 0 stays unrotated and row "
         "m turns m times as far as row 1.", _rope_variant(x, one_angle=True)),
        ("position.positions-from-1",
         "your positions start at 1: row 0 is position 0 and stays unrotated (angle 0).",
         _rope_variant(x, start=1)),
    ]


def _rope_properties(my_rope, x, got, name) -> None:
    """Pair lengths, position 0, m - n only, then each pair's frequency."""
    T, d = x.shape
    x1, x2, r1, r2 = x[:, 0::2], x[:, 1::2], got[:, 0::2], got[:, 1::2]
    before, after = np.hypot(x1, x2), np.hypot(r1, r2)  # (T, d/2): each pair's length
    if not np.allclose(after, before, atol=1e-6, rtol=1e-6):
        m, i = (int(n) for n in np.argwhere(~np.isclose(after, before, atol=1e-6))[0])
        rows_kept = np.allclose(np.linalg.norm(got, axis=-1), np.linalg.norm(x, axis=-1))
        why = (" The length of every row is kept, so your rotation turns other pairs of "
               "features than (2i, 2i+1), or writes them back to other columns."
               if rows_kept else
               " Rotating the pair (x1, x2) by angle a gives (x1 cos a - x2 sin a, "
               "x1 sin a + x2 cos a), which keeps the length.")
        core.fail(
            f"{name}: not a rotation of the pairs (2i, 2i+1): at row {m}, pair {i} (features "
            f"{2 * i}, {2 * i + 1}) had length {before[m, i]:.4g} and yours has "
            f"{after[m, i]:.4g}.{why}", "position.rope-pair-length")
    if not _close(got[0], x[0]):
        core.fail(
            f"{name}: row 0 changed; position 0 turns by the angle 0 x theta_i = 0, so row 0 "
            "must come back as it was. Count the positions from 0.",
            "position.rope-position-0")
    rng = core.rng(13)
    q, k = rng.normal(size=(2, d))
    rq = core.as_array(core.call(my_rope, np.tile(q, (T, 1)), name="my_rope"), name)
    rk = core.as_array(core.call(my_rope, np.tile(k, (T, 1)), name="my_rope"), name)
    scores = rq @ rk.T  # (T, T): [m, n] = q at m . k at n
    for offset in range(-(T - 1), T):
        diagonal = np.diagonal(scores, offset)
        if not np.allclose(diagonal, diagonal[0]):
            core.fail(
                f"{name}: the relative-offset check fails: with the same q at every position m "
                f"and the same k at every n, the scores at offset n - m = {offset} are not all "
                f"equal (from {diagonal.min():.3f} to {diagonal.max():.3f}). RoPE's score must "
                "depend only on m - n: rotate row m by m * theta_i, the same rule for q and k, "
                "with theta_i fixed per pair and independent of the position.",
                "position.rope-relative-offset")
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    turned = np.arctan2(x1[1] * r2[1] - x2[1] * r1[1], x1[1] * r1[1] + x2[1] * r2[1])
    wrong = ~np.isclose(np.cos(turned), np.cos(theta), atol=1e-6) | ~np.isclose(
        np.sin(turned), np.sin(theta), atol=1e-6)
    if wrong.any():
        i = int(np.argmax(wrong))
        way = (" It turns the other way: the sign of sin is flipped."
               if math.isclose(turned[i], -theta[i], abs_tol=1e-6) else "")
        core.fail(
            f"{name}: at position 1, pair {i} (features {2 * i}, {2 * i + 1}) turns by "
            f"{turned[i]:.4g} rad; theta_{i} = 10000^(-2i/d) = 10000^(-{2 * i}/{d}) = "
            f"{theta[i]:.4g}, with 2i = {2 * i} the even feature index.{way}",
            "position.rope-frequency")


@core.exercise
def check_rope(my_rope) -> None:
    """Exercise: my_rope(x), x (T, d) -> row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    fn = "my_rope"
    _forbid(my_rope, ("helpers.positions.apply_rope",), name=fn,
            why="Write the rotation yourself; apply_rope is the check's reference.")
    rng = core.rng(11)
    for T, d in [(12, 8), (5, 6)]:
        x = rng.normal(size=(T, d))
        name = f"{fn}(x of shape {x.shape})"
        got = _array(core.call(my_rope, x, name=fn), name, x.shape, "(T, d), the shape of x")
        want = apply_rope(x)
        mistakes = _rope_mistakes(x)
        _anticipated(got, want, name, mistakes)
        _rope_properties(my_rope, x, got, name)
        core.compare(got, want, name=name, mistakes=mistakes, axes=("T", "d"),
                     sizes=dict(T=T, d=d), factors={})
    core.passed(f"{fn}: equals helpers.positions.apply_rope (interleaved pairs, theta_i = "
                "10000^(-2i/d)); pair lengths kept; position 0 unrotated; scores depend only "
                "on m - n; for (T, d) = (12, 8) and (5, 6)")


# --------------------------------------------------------------------------------------------
# Exercise: attention with RoPE on q and k, not v
# --------------------------------------------------------------------------------------------
def _rope_pair(rope_attention, q, k, v, positions, name):
    result = core.call(rope_attention, q, k, v, positions, name="rope_attention")
    out, weights = core.unpack(result, ("out", "weights"), name=name)
    return core.as_array(out, f"{name}: out"), core.as_array(weights, f"{name}: weights")


@core.exercise
def check_rope_attention(rope_attention) -> None:
    """Exercise: rope_attention(q, k, v, positions) = attention(R q, R k, v)."""
    fn = "rope_attention"
    rng = core.rng(12)
    cases = []
    for T, d, positions in [(5, 8, np.arange(5)), (5, 8, np.array([0, 1, 2, 9, 10])),
                            (4, 6, np.array([3, 0, 7, 1]))]:
        cases.append((rng.normal(size=(3, T, d)), positions))
    for (q, k, v), positions in cases:
        T, d = q.shape
        name = f"{fn}(q, k, v of shape {q.shape}, positions={positions.tolist()})"
        rq, rk, rv = (apply_rope(t, positions=positions) for t in (q, k, v))
        want = attention(rq, rk, v)
        got = _rope_pair(rope_attention, q, k, v, positions, name)
        if (_close(got[0], want[1]) and _close(got[1], want[0])) and not _close(got[0], want[0]):
            core.fail(f"{name}: you returned (weights, out); return (out, weights), in that "
                      "order, like attention().", "position.rope-attention-order")
        mistakes = [
            ("position.rope-rotated-v",
             "you rotated v as well (v rotated, not only q and k): only q and k carry "
             "position, so that the scores depend on m - n. v is the content read out; "
             "rotated, it would make the output depend on absolute positions. Leave v "
             "unrotated.", attention(rq, rk, rv)),
            ("position.rope-q-only",
             "you rotated q but not k (the keys stay unrotated): the score then mixes q's "
             "absolute position with an unrotated key. Rotate both q and k, each by its "
             "position.", attention(rq, k, v)),
            ("position.rope-k-from-q",
             "your keys are the rotated queries: the real k is never used (k built from q, a "
             "copy-paste slip?). Rotate k itself: apply_rope(k, positions=positions).",
             attention(rq, rq, v)),
            ("position.rope-q-k-swapped",
             "you passed the keys as the queries and the queries as the keys: attention(q, k, "
             "v) takes the queries first, so the weights come out transposed (row i belongs to "
             "key i). Keep the order of the arguments: attention(rotated q, rotated k, v).",
             attention(rk, rq, v)),
            ("position.rope-k-default-positions",
             "you rotated q by the given positions but k at the default positions 0..T-1: "
             "rotate both q and k with the same positions (positions=positions for each).",
             attention(rq, apply_rope(k), v)),
            ("position.rope-q-default-positions",
             "you rotated k by the given positions but q at the default positions 0..T-1: "
             "rotate both q and k with the same positions (positions=positions for each).",
             attention(apply_rope(q), rk, v)),
            ("position.rope-causal-mask",
             "you added a causal mask that the exercise does not ask for: here every query "
             "reads every key. Call attention without a mask.",
             attention(rq, rk, v, causal_mask(T))),
            ("position.rope-k-only", "you rotated k but not q: rotate both, by their own "
             "positions.", attention(q, rk, v)),
            ("position.rope-none", "no position at all: q and k are not rotated, so this is "
             "plain attention.", attention(q, k, v)),
            ("position.rope-positions-ignored",
             "you ignored `positions` and rotated by 0..T-1: with positions that are not "
             "0..T-1 (here a gap or another order) the offsets differ. Rotate each token by "
             "the position it is given.",
             attention(apply_rope(q), apply_rope(k), v)),
            ("position.rope-unscaled",
             f"forgot the scale: the scores of the rotated q and k are divided by sqrt(d) = "
             f"sqrt({d}), as in every attention.", attention(rq, rk, v, scale=1.0)),
        ]
        for part, index in (("out", 0), ("weights", 1)):
            _anticipated(got[index], want[index], f"{name}, {part}",
                         [(i, m, wrong[index]) for i, m, wrong in mistakes])
        # properties: weights are a distribution over the keys ...
        weights = got[1]
        core.require(weights.shape == (T, T) and (weights >= -1e-12).all() and np.allclose(
            weights.sum(-1), 1.0), f"{name}: the weights must be (T, T) = {(T, T)}, "
            "non-negative, and each row must sum to 1 (a softmax over the keys); yours are "
            f"shape {weights.shape}, rows summing to "
            f"{np.round(weights.sum(-1), 4).tolist() if weights.ndim == 2 else '?'}.",
            "position.rope-weights-not-a-distribution")
        # ... RoPE adds nothing, and v is left alone: with q = k = 0, out is the average of v
        zero = np.zeros_like(q)
        flat, flat_w = _rope_pair(rope_attention, zero, zero, v, positions, name)
        if flat_w.shape == (T, T) and not _close(flat_w, np.full((T, T), 1.0 / T)):
            core.require(
                not np.allclose(np.triu(flat_w, k=1), 0.0),
                f"{name}: with q = k = 0 your weights are 0 on every future key (j > i): a "
                "causal mask the exercise does not ask for. Without a mask every query reads "
                "every key: call attention(q, k, v) with no mask.", "position.rope-causal-mask")
        core.require(
            _close(flat_w, np.full((T, T), 1.0 / T)),
            f"{name}: with q = k = 0 the weights must all be 1/T = 1/{T}: a rotation of the "
            "zero vector is zero, so every score is 0. Yours are not uniform, so something "
            "other than a rotation reached the scores (an added position vector?). RoPE "
            "multiplies q and k by a rotation; it adds nothing.", "position.rope-adds")
        core.require(
            _close(flat, np.broadcast_to(v.mean(axis=0), v.shape)),
            f"{name}: with q = k = 0 every score is 0, so every output row must be the plain "
            "average of the rows of v, whatever the positions; yours is not, so v was changed "
            "(rotated?) on its way to the output. Only q and k are rotated.",
            "position.rope-v-changed")
        # ... and only the offsets matter: shifting every position changes nothing
        shifted, _ = _rope_pair(rope_attention, q, k, v, positions + 100, name)
        far = positions + 100
        for which, wrong in (("k", attention(apply_rope(q, positions=far), apply_rope(k), v)),
                             ("q", attention(apply_rope(q), apply_rope(k, positions=far), v))):
            if not _close(shifted, got[0]) and _close(shifted, wrong[0]):
                core.fail(
                    f"{name}: with every position shifted by 100, your output is attention "
                    f"with {which} rotated at the default positions 0..T-1: you rotate "
                    f"{'q' if which == 'k' else 'k'} by the given positions but {which} not. "
                    "Rotate both q and k with the same positions (positions=positions for "
                    "each).", f"position.rope-{which}-default-positions")
        moved_k = k[::-1] * 2.0 + 1.0
        other, _ = _rope_pair(rope_attention, q, moved_k, v, positions, name)
        core.require(
            not _close(other, got[0]),
            f"{name}: your output does not change when k changes: the real k is never used "
            "(the keys built from q?). Rotate k itself and pass it as the keys.",
            "position.rope-k-unused")
        core.require(
            _close(shifted, got[0]),
            f"{name}: your output changes when every position shifts by 100 (largest change "
            f"{np.abs(shifted - got[0]).max() if shifted.shape == got[0].shape else '?'}). "
            "With RoPE only the offsets m - n may matter: rotate q and k (not v) by their "
            "positions, and nothing else.", "position.rope-absolute-position")
        for part, index, axes in (("out", 0, ("T_q", "d")), ("weights", 1, ("T_q", "T_k"))):
            core.compare(got[index], want[index], name=f"{name}, {part}",
                         mistakes=[(i, m, wrong[index]) for i, m, wrong in mistakes],
                         axes=axes, sizes=dict(T_q=T, T_k=T, d=d),
                         factors={"√d": math.sqrt(d), "d": d})
    core.passed(f"{fn}: attention(RoPE(q), RoPE(k), v) at the given positions (in order, with "
                "a gap, shuffled); v is not rotated, and shifting every position by 100 changes "
                "nothing")


# --------------------------------------------------------------------------------------------
# Exercise: the ALiBi bias
# --------------------------------------------------------------------------------------------
def _alibi_with(slopes, T, *, distance=None):
    i, j = np.indices((T, T))
    if distance is None:
        distance = np.where(j <= i, i - j, 0)
    return -np.asarray(slopes)[:, None, None] * distance


def _alibi_properties(got, H, T, name) -> None:
    """Zero on the diagonal and the future, <= 0 on the past, linear in i - j, the slopes."""
    i, j = np.indices((T, T))
    diag = np.abs(got[:, i == j])
    if (diag > 1e-9).any():
        h = int(np.argwhere(diag > 1e-9)[0][0])
        core.fail(f"{name}: head {h} has {got[h, 0, 0]:.4g} at [0, 0]: a query reading its own "
                  "position is at distance i - j = 0, so the diagonal is 0.",
                  "position.alibi-diagonal")
    future = got[:, j > i]
    if np.isneginf(future).any():
        core.fail(f"{name}: your future entries (keys j > i) are -inf: that is the causal "
                  "mask baked into the bias. The bias is 0 there; the mask is applied "
                  "separately (helpers.masks.additive_bias(causal_mask(T))).",
                  "position.alibi-mask-in-bias")
    if (np.abs(future) > 1e-9).any():
        core.fail(f"{name}: entries above the diagonal (keys j > i, the future) are not 0; "
                  "rows are queries i, columns keys j, and the penalty -m_h (i - j) applies "
                  "only to the past, j <= i. The causal mask blocks the future anyway.",
                  "position.alibi-future")
    if not np.isfinite(got).all():
        core.fail(f"{name}: your bias contains NaN or inf on the past; every entry with "
                  "j <= i is the finite -m_h (i - j).", "position.alibi-not-finite")
    if T > 1 and (got[:, j < i] > 1e-12).any():
        core.fail(f"{name}: some past entries are positive: the bias is a penalty, "
                  "-m_h (i - j) <= 0, more negative the farther key j lies behind query i.",
                  "position.alibi-sign")
    if T < 2:
        return
    slopes = -got[:, 1, 0]  # (H,): the penalty at distance 1
    linear = _alibi_with(slopes, T)
    if not _close(got, linear):
        h = int(np.argmax(~np.isclose(got, linear, atol=_ATOL).all(axis=(1, 2))))
        core.fail(f"{name}: head {h} is not proportional to the distance: at distance 1 it "
                  f"subtracts {slopes[h]:.4g}, but row {T - 1} reads "
                  f"{np.round(got[h, T - 1], 4).tolist()}; each head subtracts m_h x (i - j), "
                  "one slope per head times the distance.", "position.alibi-not-linear")
    want = 2.0 ** (-8.0 * np.arange(1, H + 1) / H)
    with np.errstate(divide="ignore", invalid="ignore"):
        exponents = np.log2(slopes)
    whole = np.isfinite(exponents).all() and np.allclose(exponents, np.round(exponents))
    if (not np.allclose(slopes, want, atol=1e-9, rtol=1e-6) and whole
            and not np.allclose(np.log2(want), np.round(np.log2(want)))):
        core.fail(f"{name}: your slopes are {np.round(slopes, 5).tolist()}, 2 to whole-number "
                  "powers only: the exponent -8h/H was rounded to an integer (an integer, "
                  f"floor division // or int()). For H = {H} the exponents are fractions, "
                  "-8h/H: use the true division /.",
                  "position.alibi-integer-exponent")
    if not np.allclose(slopes, want, atol=1e-9, rtol=1e-6):
        h = int(np.argmax(~np.isclose(slopes, want, atol=1e-9, rtol=1e-6)))
        core.fail(f"{name}: the slope of head index {h} is {slopes[h]:.4g}; head index h holds "
                  f"head h + 1 = {h + 1}, whose slope is 2^(-8 x {h + 1}/{H}) = {want[h]:.4g}. "
                  f"Your slopes: {np.round(slopes, 5).tolist()}.", "position.alibi-slopes")


@core.exercise
def check_alibi_bias(my_alibi_bias) -> None:
    """Exercise: my_alibi_bias(n_heads, T) -> (H, T, T), -slope_h * (i - j) for j <= i, else 0."""
    fn = "my_alibi_bias"
    _forbid(my_alibi_bias, ("helpers.positions.alibi_bias", "helpers.positions.alibi_slopes"),
            name=fn, why="Build the slopes and the distances yourself; alibi_bias and "
                         "alibi_slopes are the check's reference.")
    cases = [(4, 6), (8, 5), (2, 3), (16, 4)]
    if core.grading():  # sizes the notebook has not seen: a table of the biases fails
        rng = core.rng(2)
        while len(cases) < 6:  # H a power of two, as in the exercise's slope formula
            case = (int(rng.choice([2, 4, 8, 16, 32])), int(rng.integers(2, 10)))
            if case not in cases:
                cases.append(case)
    for H, T in cases:
        name = f"{fn}(n_heads={H}, T={T})"
        result = core.as_array(core.call(my_alibi_bias, H, T, name=fn), name)
        if result.shape != (H, T, T):
            if result.shape == (T, T):
                core.fail(f"{name}: expected shape (n_heads, T, T) = {(H, T, T)}, one "
                          f"(T_q, T_k) bias per head; got {result.shape}, a single bias for "
                          "all heads.", "position.alibi-one-head")
            core.compare(result, alibi_bias(H, T), name=name, axes=("H", "T_q", "T_k"),
                         sizes=dict(H=H, T_q=T, T_k=T, T=T))
        got = _array(result, name, (H, T, T), "(n_heads, T, T)", finite=False)
        slopes = alibi_slopes(H)
        h = np.arange(1, H + 1)
        i, j = np.indices((T, T))
        right = alibi_bias(H, T)
        mistakes = [
            ("position.alibi-rewards-distance",
             "wrong sign: your bias rewards distance. It must be -slope * (i - j), <= 0 and "
             "more negative the farther key j lies behind query i, so distant keys lose "
             "weight; yours gives them more.", -right),
            ("position.alibi-slopes-2-to-minus-h",
             "wrong slope sequence: the slopes are 2^(-8h/H) for heads h = 1..H (for H = 4: "
             "1/4, 1/16, 1/64, 1/256); you used 2^(-h), which is right only for H = 8.",
             _alibi_with(2.0 ** -h, T)),
            ("position.alibi-heads-from-0",
             "wrong slope sequence, off by one: the heads count from 1, h = 1..H (index 0 "
             "holds head 1), so the first slope is 2^(-8/H), not 2^0 = 1.",
             _alibi_with(2.0 ** (-8.0 * (h - 1) / H), T)),
            ("position.alibi-slopes-reversed",
             "wrong slope sequence: your slopes run backwards. Head 1 gets the steepest slope "
             "2^(-8/H) and the last head the gentlest, 2^(-8) = 1/256.",
             _alibi_with(slopes[::-1], T)),
            ("position.alibi-one-slope",
             "every head has the same slope: the point of ALiBi's per-head slopes 2^(-8h/H) "
             "is that some heads look locally and others far.",
             _alibi_with(np.full(H, slopes[0]), T)),
            ("position.alibi-no-slope",
             "no slope: you used the plain distance -(i - j). Multiply head h's distances by "
             "its slope 2^(-8h/H).", _alibi_with(np.ones(H), T)),
            ("position.alibi-on-the-future",
             "your bias sits above the diagonal, on the future keys: rows are queries i and "
             "columns keys j, and the penalty -slope * (i - j) applies to the past, j <= i. "
             "Entries with j > i are 0 (the causal mask blocks them).",
             np.swapaxes(right, -1, -2)),
            ("position.alibi-symmetric",
             "the past is right, but for j > i you used -slope * |i - j|, the symmetric "
             "variant for bidirectional models. Causal ALiBi (helpers.positions.alibi_bias) "
             "leaves the future entries 0; the causal mask blocks them anyway.",
             _alibi_with(slopes, T, distance=np.abs(i - j))),
            ("position.alibi-slope-8-over-h",
             "wrong slope sequence: the exponent is -8h/H, h times 8/H; you used -8/h.",
             _alibi_with(2.0 ** (-8.0 / h), T)),
        ]
        _anticipated(got, right, name, mistakes)
        _alibi_properties(got, H, T, name)
        core.compare(got, right, name=name, mistakes=mistakes, axes=("H", "T_q", "T_k"),
                     sizes=dict(H=H, T_q=T, T_k=T), factors={"H": H, "2": 2.0, "8": 8.0})
    core.passed(f"{fn}: -2^(-8h/H) * (i - j) on the past, 0 on the future, for (H, T) = "
                + ", ".join(map(str, cases)))


__all__ = [
    "check_alibi_bias",
    "check_is_permutation_equivariant",
    "check_rope",
    "check_rope_attention",
    "check_sinusoidal",
]
