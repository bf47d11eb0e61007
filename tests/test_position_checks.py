"""The lesson 06 checks accept right answers however they are written, refuse the library
one-liners the exercises rule out, and let a stub's error through."""

import itertools
import math

import numpy as np
import pytest
import torch
from check_contract import contract_tests

from helpers.attention import attention
from helpers.checks import core, position
from helpers.positions import alibi_bias, alibi_slopes, apply_rope, sinusoidal_encoding


def all_orders(attend, x):
    base = attend(x)
    return all(
        np.allclose(attend(x[list(order)]), base[list(order)])
        for order in itertools.permutations(range(len(x)))
    )


def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angle), np.cos(angle)
    return pe


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x1 * np.cos(angle) - x2 * np.sin(angle)
    out[:, 1::2] = x1 * np.sin(angle) + x2 * np.cos(angle)
    return out


def rope_attention(q, k, v, positions):
    return attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions), v)


def my_alibi(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(i - j, 0)


REFERENCES = [
    (position.check_is_permutation_equivariant, all_orders),
    (position.check_sinusoidal, my_sinusoidal),
    (position.check_rope, my_rope),
    (position.check_rope_attention, rope_attention),
    (position.check_alibi_bias, my_alibi),
]
test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


# ---------------------------------------------------------------- valid variants


def random_orders(attend, x):
    rng = np.random.default_rng(0)
    base = attend(x)
    return all(np.allclose(attend(x[o]), base[o])
               for o in (rng.permutation(len(x)) for _ in range(60)))


def transpositions(attend, x):
    """Every swap of two rows generates all orders: enough for an equivariance test."""
    base = attend(x)
    for a, b in itertools.combinations(range(len(x)), 2):
        order = list(range(len(x)))
        order[a], order[b] = b, a
        if not np.allclose(attend(x[order]), base[order]):
            return False
    return True


def sinusoidal_loops(T, d_model):
    pe = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            pe[pos, 2 * i] = math.sin(angle)
            pe[pos, 2 * i + 1] = math.cos(angle)
    return pe


def sinusoidal_exp_log(T, d_model):
    div = np.exp(np.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    angle = np.arange(T)[:, None] * div
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(T, d_model)


def sinusoidal_torch(T, d_model):
    pos = torch.arange(T, dtype=torch.float64)[:, None]
    angle = pos / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    return torch.stack([angle.sin(), angle.cos()], dim=-1).flatten(1)


def rope_complex(x):
    T, d = x.shape
    z = x[:, 0::2] + 1j * x[:, 1::2]
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    r = z * np.exp(1j * angle)
    return np.stack([r.real, r.imag], axis=-1).reshape(T, d)


def rope_matrices(x):
    T, d = x.shape
    out = np.zeros_like(x, dtype=float)
    for m in range(T):
        for i in range(d // 2):
            a = m * 10000.0 ** (-2 * i / d)
            rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            out[m, 2 * i:2 * i + 2] = rot @ x[m, 2 * i:2 * i + 2]
    return out


def rope_torch(x):
    t = torch.as_tensor(x)
    T, d = t.shape
    angle = torch.arange(T, dtype=t.dtype)[:, None] * 10000.0 ** (
        -torch.arange(0, d, 2, dtype=t.dtype) / d)
    x1, x2 = t[:, 0::2], t[:, 1::2]
    return torch.stack([x1 * angle.cos() - x2 * angle.sin(),
                        x1 * angle.sin() + x2 * angle.cos()], dim=-1).reshape(T, d)


def rope_attention_by_hand(q, k, v, positions):
    q, k = apply_rope(q, positions), apply_rope(k, positions)
    s = q @ k.T / math.sqrt(q.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w


def rope_attention_torch(q, k, v, positions):
    q, k, v = (torch.as_tensor(t) for t in (q, k, v))
    p = torch.as_tensor(positions)
    out, w = attention(apply_rope(q, positions=p), apply_rope(k, positions=p), v)
    return out, w


def alibi_loops(n_heads, T):
    bias = np.zeros((n_heads, T, T))
    for h in range(1, n_heads + 1):
        for i in range(T):
            for j in range(i + 1):
                bias[h - 1, i, j] = -(2 ** (-8 * h / n_heads)) * (i - j)
    return bias


def alibi_tril(n_heads, T):
    slopes = 0.5 ** (8 * np.arange(1, n_heads + 1) / n_heads)
    distance = np.tril(np.arange(T)[:, None] - np.arange(T)[None, :])
    return -slopes[:, None, None] * distance


VARIANTS = [
    (position.check_is_permutation_equivariant, random_orders),
    (position.check_is_permutation_equivariant, transpositions),
    (position.check_sinusoidal, sinusoidal_loops),
    (position.check_sinusoidal, sinusoidal_exp_log),
    (position.check_sinusoidal, sinusoidal_torch),
    (position.check_rope, rope_complex),
    (position.check_rope, rope_matrices),
    (position.check_rope, rope_torch),
    (position.check_rope_attention, rope_attention_by_hand),
    (position.check_rope_attention, rope_attention_torch),
    (position.check_alibi_bias, alibi_loops),
    (position.check_alibi_bias, alibi_tril),
]


@pytest.mark.parametrize("check, answer", VARIANTS, ids=[a.__name__ for _, a in VARIANTS])
def test_valid_variants_pass(check, answer, capsys):
    check(answer)
    assert capsys.readouterr().out.startswith("✔")


# ---------------------------------------------------------------- rules and diagnoses


def failure(check, answer):
    with pytest.raises(core.CheckFailed) as error:
        check(answer)
    return error.value


@pytest.mark.parametrize("check, answer", [
    (position.check_sinusoidal, sinusoidal_encoding),
    (position.check_sinusoidal, lambda T, d: sinusoidal_encoding(T, d)),
    (position.check_rope, apply_rope),
    (position.check_rope, lambda x: apply_rope(x)),
    (position.check_alibi_bias, alibi_bias),
    (position.check_alibi_bias, lambda H, T: alibi_bias(H, T)),
    (position.check_alibi_bias,
     lambda H, T: -alibi_slopes(H)[:, None, None] * np.tril(np.subtract.outer(
         np.arange(T), np.arange(T)))),
])
def test_library_one_liners_are_refused(check, answer):
    assert failure(check, answer).diagnosis == "rule.forbidden-call"


def test_an_unlisted_sinusoidal_frequency_is_named_per_pair():
    def base_300(T, d):
        angle = np.arange(T)[:, None] / 300 ** (np.arange(0, d, 2) / d)
        return np.stack([np.sin(angle), np.cos(angle)], axis=-1).reshape(T, d)

    assert failure(position.check_sinusoidal, base_300).diagnosis == (
        "position.sinusoidal-frequency")


def test_a_rope_that_turns_the_wrong_pairs_fails_the_pair_length():
    def neighbours_shifted(x):
        return np.roll(my_rope(np.roll(x, 1, axis=1)), -1, axis=1)

    assert failure(position.check_rope, neighbours_shifted).diagnosis == (
        "position.rope-pair-length")


def test_an_unlisted_rope_frequency_is_named():
    def base_500(x):
        T, d = x.shape
        angle = np.arange(T)[:, None] * 500.0 ** (-np.arange(0, d, 2) / d)
        out = np.empty_like(x)
        out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
        out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
        return out

    assert failure(position.check_rope, base_500).diagnosis == "position.rope-frequency"


def test_v_changed_another_way_is_caught_by_the_property():
    def v_scaled(q, k, v, positions):
        return rope_attention(q, k, v * 1.5 if positions[0] == 0 else v, positions)

    error = failure(position.check_rope_attention, v_scaled)
    assert error.diagnosis in {"position.rope-v-changed", "position.rope-absolute-position"}


def test_an_unlisted_alibi_slope_rule_is_named():
    def slopes_halving(n_heads, T):
        slopes = 0.5 ** np.arange(1, n_heads + 1) * (8 / n_heads)
        i, j = np.indices((T, T))
        return -slopes[:, None, None] * np.maximum(i - j, 0)

    assert failure(position.check_alibi_bias, slopes_halving).diagnosis == (
        "position.alibi-slopes")


def test_an_equivariance_test_that_never_moves_the_last_token_is_told():
    def first_two_swapped(attend, x):
        order = list(range(len(x)))
        order[0], order[1] = 1, 0
        return bool(np.allclose(attend(x[order]), attend(x)[order]))

    error = failure(position.check_is_permutation_equivariant, first_two_swapped)
    assert "last token" in str(error)


# ------------------------------------------------ round 2: variants of held-out mistakes


def test_an_int_table_is_named_however_it_is_made():
    def int_table(T, d_model):
        angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
        pe = np.zeros((T, d_model), dtype=int)
        pe[:, 0::2], pe[:, 1::2] = np.sin(angle), np.cos(angle)
        return pe

    assert failure(position.check_sinusoidal, int_table).diagnosis == (
        "position.sinusoidal-integer-table")


def test_an_alibi_exponent_rounded_by_int_is_named():
    def int_exponent(n_heads, T):
        slopes = np.array([2.0 ** int(-8 * h / n_heads) for h in range(1, n_heads + 1)])
        i, j = np.indices((T, T))
        return -slopes[:, None, None] * np.maximum(i - j, 0)

    assert failure(position.check_alibi_bias, int_exponent).diagnosis == (
        "position.alibi-integer-exponent")


def test_orders_of_a_hard_coded_length_are_named():
    def three_rows(attend, x):  # right for T = 3 only: reorders the first three rows
        base = attend(x)
        return all(np.allclose(attend(x[list(o) + list(range(3, len(x)))]),
                               base[list(o) + list(range(3, len(x)))])
                   for o in itertools.permutations(range(3)))

    assert failure(position.check_is_permutation_equivariant, three_rows).diagnosis in (
        "position.equivariance-missed", "position.equivariance-wrong-size")


def test_a_rope_attention_that_ignores_k_is_named():
    def keys_from_v(q, k, v, positions):
        return attention(apply_rope(q, positions=positions), apply_rope(v, positions=positions), v)

    error = failure(position.check_rope_attention, keys_from_v)
    assert error.diagnosis == "position.rope-k-unused", str(error)
