"""Checks for lesson 06 (position): a permutation-equivariance test, the sinusoidal encoding,
RoPE (the rotation, then attention that rotates q and k but not v) and the ALiBi bias.
"""

from __future__ import annotations

import numpy as np

from helpers.attention import attention
from helpers.checks import core
from helpers.masks import causal_mask
from helpers.positions import alibi_bias, alibi_slopes, apply_rope, sinusoidal_encoding


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
    rng = np.random.default_rng(6)
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
         "only position 0 carries position information, so any order that keeps token 0 in "
         "place cannot reveal it; let some order move token 0"),
    ]


@core.exercise
def check_is_permutation_equivariant(is_permutation_equivariant) -> None:
    """Exercise: is_permutation_equivariant(attend, x) -> True when attend(x[o]) == attend(x)[o]."""
    x, layers = _equivariance_layers()
    verdicts = {}
    for name, layer, _, _ in layers:
        got = is_permutation_equivariant(layer, x.copy())
        if not isinstance(got, (bool, np.bool_)):
            raise AssertionError(
                f"is_permutation_equivariant: return True or False; got {got!r} of type "
                f"{type(got).__name__} for {name}"
            )
        verdicts[name] = bool(got)
    if all(verdicts.values()):
        raise AssertionError(
            "is_permutation_equivariant: your test never fires: it calls every layer "
            "equivariant, even attention on x + sinusoidal positions. Reorder the input with an "
            "order that is not the identity, run the layer, and compare with the original "
            "outputs reordered the same way: attend(x[order]) vs attend(x)[order]."
        )
    if not any(verdicts.values()):
        raise AssertionError(
            "is_permutation_equivariant: your test always fires: it flags even attention without "
            "positions, which is permutation-equivariant. Compare attend(x[order]) with "
            "attend(x)[order], the outputs reordered the SAME way (not attend(x) as it is, and "
            "not by the inverse order), and use np.allclose: a reorder changes the summation "
            "order and the last bits."
        )
    for name, _, equivariant, how in layers:
        if equivariant and not verdicts[name]:
            raise AssertionError(
                f"is_permutation_equivariant: false alarm on {name}, which is "
                "permutation-equivariant (reorder its input and its outputs reorder the same "
                "way). Compare attend(x[order]) with attend(x)[order], not with attend(x) "
                "itself and not with the outputs in the inverse order, and use np.allclose "
                "rather than ==: a reorder changes the summation order and the last bits."
            )
        if not equivariant and verdicts[name]:
            raise AssertionError(
                f"is_permutation_equivariant: your test missed the position information in "
                f"{name}: {how}. Try every order (itertools.permutations, for small T) or "
                "several random ones."
            )
    core.passed(
        "is_permutation_equivariant: True for attention without positions and a per-token MLP; "
        "False for sinusoidal positions, a causal mask, RoPE, symmetric, circular and ring "
        "distance biases, and a marker on token 0"
    )


# --------------------------------------------------------------------------------------------
# Exercise: the sinusoidal encoding
# --------------------------------------------------------------------------------------------
def _interleave(sin_part, cos_part) -> np.ndarray:
    T, half = sin_part.shape
    out = np.zeros((T, 2 * half))
    out[:, 0::2], out[:, 1::2] = sin_part, cos_part
    return out


@core.exercise
def check_sinusoidal(my_sinusoidal) -> None:
    """Exercise: my_sinusoidal(T, d_model) -> (T, d_model), sin on even columns, cos on odd."""
    for T, d in [(6, 8), (50, 16), (3, 4)]:
        name = f"my_sinusoidal({T}, {d})"
        got = core.as_array(my_sinusoidal(T, d), name)
        if got.shape != (T, d):
            raise AssertionError(
                f"{name}: expected shape (T, d_model) = {(T, d)}, one row per position; "
                f"got {got.shape}"
            )
        pos = np.arange(T)[:, None]  # (T, 1)
        two_i = np.arange(0, d, 2)  # (d/2,)
        angle = pos / 10000.0 ** (two_i / d)  # (T, d/2): the right angles
        pair_i = pos / 10000.0 ** (np.arange(d // 2) / d)  # exponent i/d, the 2 dropped
        per_col = pos / 10000.0 ** (np.arange(d) / d)  # exponent j/d for every column j
        times = pos * 10000.0 ** (two_i / d)  # multiplied instead of divided
        from_1 = (pos + 1) / 10000.0 ** (two_i / d)
        core.compare(got, sinusoidal_encoding(T, d), name=name, mistakes=[
            ("sin and cos are swapped: the even columns 2i hold sin and the odd columns 2i+1 "
             "hold cos. Row 0 (position 0) must be [0, 1, 0, 1, ...] since sin 0 = 0 and "
             "cos 0 = 1; yours starts [1, 0, ...].", _interleave(np.cos(angle), np.sin(angle))),
            ("wrong exponent: you divided by 10000^(i/d) with i the pair number, dropping the 2. "
             "The exponent is 2i/d_model, with 2i the even column index, so the frequencies "
             "run from 1 down to nearly 1/10000; yours stop at 1/100.",
             _interleave(np.sin(pair_i), np.cos(pair_i))),
            ("wrong exponent for the cos columns: column 2i+1 uses the SAME angle as column 2i, "
             "pos / 10000^(2i/d); you gave it its own exponent (2i+1)/d, so each sin/cos pair "
             "no longer shares a frequency.", _interleave(np.sin(per_col[:, 0::2]),
                                                          np.cos(per_col[:, 1::2]))),
            ("you multiplied the position by 10000^(2i/d) instead of dividing: the frequencies "
             "must fall from 1 to nearly 1/10000 across the pairs, not grow to 10000.",
             _interleave(np.sin(times), np.cos(times))),
            ("your sines fill the first half of the columns and the cosines the second half. "
             "Some libraries use that layout (it is a reordering of the features), but the "
             "formula interleaves them: sin in column 2i, cos in column 2i+1.",
             np.concatenate([np.sin(angle), np.cos(angle)], axis=1)),
            ("your positions start at 1: row 0 is position 0, where every sin is 0 and every "
             "cos is 1.", _interleave(np.sin(from_1), np.cos(from_1))),
        ])
    core.passed("my_sinusoidal: PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(same), "
                "for (T, d) = (6, 8), (50, 16), (3, 4)")


# --------------------------------------------------------------------------------------------
# Exercise: the RoPE rotation
# --------------------------------------------------------------------------------------------
def _rope_variant(x, *, exponent=None, sign=1.0, halves=False, start=0, concat=False):
    """x (T, d) rotated the way a named mistake does. The defaults give the right answer."""
    T, d = x.shape
    pos = np.arange(T)[:, None] + start  # (T, 1)
    i = np.arange(d // 2)  # (d/2,) pair numbers
    exponent = -2 * i / d if exponent is None else exponent(i, d)
    angle = pos * 10000.0 ** exponent  # (T, d/2)
    cos, sin = np.cos(angle), sign * np.sin(angle)
    if halves:
        x1, x2 = x[:, : d // 2], x[:, d // 2:]
    else:
        x1, x2 = x[:, 0::2], x[:, 1::2]
    r1, r2 = x1 * cos - x2 * sin, x1 * sin + x2 * cos  # (T, d/2) each
    if halves or concat:
        return np.concatenate([r1, r2], axis=1)
    return np.stack([r1, r2], axis=-1).reshape(T, d)


@core.exercise
def check_rope(my_rope) -> None:
    """Exercise: my_rope(x), x (T, d) -> row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    rng = np.random.default_rng(11)
    T, d = 12, 8
    x = rng.normal(size=(T, d))
    name = f"my_rope(x {x.shape})"
    got = core.as_array(my_rope(x.copy()), name)
    if got.shape != x.shape:
        raise AssertionError(f"{name}: return x rotated, the same shape {x.shape}; got {got.shape}")

    # 1. A rotation keeps every vector's length.
    norms, got_norms = np.linalg.norm(x, axis=-1), np.linalg.norm(got, axis=-1)
    if not np.allclose(got_norms, norms):
        m = int(np.argmax(np.abs(got_norms - norms)))
        raise AssertionError(
            f"{name}: not a rotation: row {m} had length {norms[m]:.3f} and yours has "
            f"{got_norms[m]:.3f}. Rotating the pair (x1, x2) by angle a gives "
            "(x1 cos a - x2 sin a, x1 sin a + x2 cos a), which keeps the length."
        )

    # 2. The relative-offset check: put the same q (and k) at every position; the score of
    #    q at m with k at n must depend on m - n only, so the matrix is constant on diagonals.
    q, k = rng.normal(size=(2, d))
    scores = core.as_array(my_rope(np.tile(q, (T, 1))), name) @ core.as_array(
        my_rope(np.tile(k, (T, 1))), name).T  # (T, T): [m, n] = q at m . k at n
    for offset in range(-(T - 1), T):
        diagonal = np.diagonal(scores, offset)
        if not np.allclose(diagonal, diagonal[0]):
            raise AssertionError(
                f"{name}: the relative-offset check fails: with the same q at every position m "
                f"and the same k at every n, the scores at offset n - m = {offset} are not all "
                f"equal (from {diagonal.min():.3f} to {diagonal.max():.3f}). RoPE's score must "
                "depend only on m - n: rotate row m by m * theta_i, the same rule for q and k, "
                "with theta_i fixed per pair and independent of the position."
            )

    # 3. The numbers: each named mistake still passes 1 and 2 (or fails them above).
    core.compare(got, apply_rope(x), name=name, mistakes=[
        ("wrong frequency: you rotate pair i by m * 10000^(-i/d), dropping the 2. The pair "
         "(2i, 2i+1) turns at theta_i = 10000^(-2i/d), with 2i the even feature index; yours "
         "turn too fast. (The relative-offset check passes: any fixed frequencies keep it.)",
         _rope_variant(x, exponent=lambda i, d: -i / d)),
        ("wrong frequency: your frequencies grow across the pairs, m * 10000^(+2i/d); they "
         "must fall, theta_i = 10000^(-2i/d), from 1 down to nearly 1/10000.",
         _rope_variant(x, exponent=lambda i, d: 2 * i / d)),
        ("every pair turns at the same speed: theta_i = 10000^(-2i/d) differs per pair, "
         "fast for the first pairs and slow for the last.",
         _rope_variant(x, exponent=lambda i, d: 0 * i)),
        ("you rotate by -theta: the sin sign is flipped. Rotating (x1, x2) by angle a gives "
         "(x1 cos a - x2 sin a, x1 sin a + x2 cos a). Yours still depends only on m - n, but "
         "it turns the other way, so the numbers differ from every model trained with RoPE.",
         _rope_variant(x, sign=-1.0)),
        ("you paired the halves, feature i with feature i + d/2 (the rotate_half layout of "
         "Llama in Hugging Face). helpers.positions.apply_rope pairs interleaved neighbours "
         "(2i, 2i+1): x[:, 0::2] with x[:, 1::2], written back in that order.",
         _rope_variant(x, halves=True)),
        ("you rotated the interleaved pairs correctly but wrote them back as [all first "
         "halves, all second halves]. Put each rotated pair back into columns (2i, 2i+1), e.g. "
         "np.stack([r1, r2], axis=-1).reshape(T, d).", _rope_variant(x, concat=True)),
        ("your positions start at 1: row 0 is position 0 and stays unrotated (angle 0).",
         _rope_variant(x, start=1)),
    ])
    core.passed("my_rope: equals helpers.positions.apply_rope (interleaved pairs, theta_i = "
                "10000^(-2i/d)); norms kept; scores depend only on m - n")


# --------------------------------------------------------------------------------------------
# Exercise: attention with RoPE on q and k, not v
# --------------------------------------------------------------------------------------------
@core.exercise
def check_rope_attention(rope_attention) -> None:
    """Exercise: rope_attention(q, k, v, positions) = attention(R q, R k, v)."""
    rng = np.random.default_rng(12)
    T, d = 5, 8
    q, k, v = rng.normal(size=(3, T, d))
    for positions in (np.arange(T), np.array([0, 1, 2, 9, 10])):
        name = f"rope_attention(positions={positions.tolist()})"
        result = rope_attention(q.copy(), k.copy(), v.copy(), positions.copy())
        if not (isinstance(result, tuple) and len(result) == 2):
            raise AssertionError(f"{name}: return the pair (out, weights), like attention()")
        rq, rk, rv = (apply_rope(t, positions=positions) for t in (q, k, v))
        for got, index, what in [(result[0], 0, "out"), (result[1], 1, "weights")]:
            core.compare(got, attention(rq, rk, v)[index], name=f"{name} {what}", mistakes=[
                ("you rotated v as well: only q and k carry position, so that the scores "
                 "depend on m - n. v is the content read out; rotated, it would make the "
                 "output depend on absolute positions.", attention(rq, rk, rv)[index]),
                ("you rotated q but not k: the score then mixes q's absolute position with an "
                 "unrotated key. Rotate both, by their own positions.",
                 attention(rq, k, v)[index]),
                ("you rotated k but not q: rotate both, by their own positions.",
                 attention(q, rk, v)[index]),
                ("no position at all: q and k are not rotated, so this is plain attention.",
                 attention(q, k, v)[index]),
                ("you ignored `positions` and rotated by 0..T-1: with a gap in the positions "
                 "(tokens 3 and 4 sit at 9 and 10) the offsets differ. Pass "
                 "positions=positions to apply_rope.",
                 attention(apply_rope(q), apply_rope(k), v)[index]),
            ])
    # Shifting every position by the same amount changes nothing: only m - n matters.
    positions = np.arange(T)
    out0, _ = rope_attention(q.copy(), k.copy(), v.copy(), positions)
    out1, _ = rope_attention(q.copy(), k.copy(), v.copy(), positions + 100)
    out0, out1 = core.as_array(out0, "out"), core.as_array(out1, "out")
    if not np.allclose(out1, out0):
        raise AssertionError(
            "rope_attention: your output changes when every position shifts by 100 (largest "
            f"change {np.abs(out1 - out0).max():.3g}). With RoPE only the offsets m - n may "
            "matter: rotate q and k (not v) by their positions, and nothing else."
        )
    core.passed("rope_attention: attention(RoPE(q), RoPE(k), v) at the given positions; v is "
                "not rotated, and shifting every position by 100 changes nothing")


# --------------------------------------------------------------------------------------------
# Exercise: the ALiBi bias
# --------------------------------------------------------------------------------------------
def _alibi_with(slopes, T, *, distance=None):
    i, j = np.indices((T, T))
    if distance is None:
        distance = np.where(j <= i, i - j, 0)
    return -np.asarray(slopes)[:, None, None] * distance


@core.exercise
def check_alibi_bias(my_alibi_bias) -> None:
    """Exercise: my_alibi_bias(n_heads, T) -> (H, T, T), -slope_h * (i - j) for j <= i, else 0."""
    for H, T in [(4, 6), (8, 5), (2, 3)]:
        name = f"my_alibi_bias(n_heads={H}, T={T})"
        got = core.as_array(my_alibi_bias(H, T), name)
        if got.shape != (H, T, T):
            raise AssertionError(
                f"{name}: expected shape (n_heads, T, T) = {(H, T, T)}, one (T_q, T_k) bias "
                f"per head; got {got.shape}"
            )
        slopes = alibi_slopes(H)
        h = np.arange(1, H + 1)
        i, j = np.indices((T, T))
        right = alibi_bias(H, T)
        core.compare(got, right, name=name, mistakes=[
            ("wrong sign: your bias rewards distance. It must be -slope * (i - j), <= 0 and "
             "more negative the farther key j lies behind query i, so distant keys lose "
             "weight; yours gives them more.", -right),
            ("wrong slope sequence: the slopes are 2^(-8h/H) for heads h = 1..H (for H = 4: "
             "1/4, 1/16, 1/64, 1/256); you used 2^(-h), which is right only for H = 8.",
             _alibi_with(2.0 ** -h, T)),
            ("wrong slope sequence: heads count from h = 1, so the steepest slope is "
             "2^(-8/H), not 2^0 = 1.", _alibi_with(2.0 ** (-8.0 * (h - 1) / H), T)),
            ("wrong slope sequence: your slopes run backwards. Head 1 gets the steepest slope "
             "2^(-8/H) and the last head the gentlest, 2^(-8) = 1/256.",
             _alibi_with(slopes[::-1], T)),
            ("every head has the same slope: the point of ALiBi's per-head slopes 2^(-8h/H) "
             "is that some heads look locally and others far.",
             _alibi_with(np.full(H, slopes[0]), T)),
            ("no slope: you used the plain distance -(i - j). Multiply head h's distances by "
             "its slope 2^(-8h/H).", _alibi_with(np.ones(H), T)),
            ("your bias sits above the diagonal, on the future keys: rows are queries i and "
             "columns keys j, and the penalty -slope * (i - j) applies to the past, j <= i. "
             "Entries with j > i are 0 (the causal mask blocks them).",
             np.swapaxes(right, -1, -2)),
            ("the past is right, but for j > i you used -slope * |i - j|, the symmetric variant "
             "for bidirectional models. Causal ALiBi (helpers.positions.alibi_bias) leaves the "
             "future entries 0; the causal mask blocks them anyway.",
             _alibi_with(slopes, T, distance=np.abs(i - j))),
        ])
    core.passed("my_alibi_bias: -2^(-8h/H) * (i - j) on the past, 0 on the future, for "
                "(H, T) = (4, 6), (8, 5), (2, 3)")


__all__ = [
    "check_alibi_bias",
    "check_is_permutation_equivariant",
    "check_rope",
    "check_rope_attention",
    "check_sinusoidal",
]
