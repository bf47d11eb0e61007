"""helpers.rope_scaling: position interpolation, NTK-aware and YaRN frequencies for RoPE."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from helpers.positions import apply_rope
from helpers.rope_scaling import (
    dynamic_ntk_base,
    dynamic_ntk_inv_frequencies,
    interpolated_rope_angles,
    llama3_inv_frequencies,
    ntk_inv_frequencies,
    rope_angles,
    rope_inv_frequencies,
    yarn_attention_scale,
    yarn_correction_range,
    yarn_inv_frequencies,
    yarn_ramp,
)

# Computed once by transformers' own functions (the command and version are in the file)
REFERENCE = json.loads((Path(__file__).parent / "data" / "rope_reference.json").read_text())


def test_inv_frequencies_and_angles_follow_the_formula():
    theta = rope_inv_frequencies(8, base=100.0)
    np.testing.assert_allclose(theta, [1.0, 100 ** -0.25, 100 ** -0.5, 100 ** -0.75])
    angles = rope_angles(np.array([0, 1, 3]), theta)
    assert angles.shape == (3, 4)
    np.testing.assert_allclose(angles[2], 3 * theta)
    assert (angles[0] == 0).all()


def test_angles_are_the_ones_apply_rope_turns_by():
    # rotating (1, 0) in pair i by the angle a gives (cos a, sin a)
    d, positions = 8, np.array([0, 2, 5, 11])
    x = np.tile(np.array([1.0, 0.0] * (d // 2)), (len(positions), 1))  # (T, d)
    rotated = apply_rope(x, positions=positions)
    angles = rope_angles(positions, rope_inv_frequencies(d))
    np.testing.assert_allclose(rotated[:, 0::2], np.cos(angles), atol=1e-12)
    np.testing.assert_allclose(rotated[:, 1::2], np.sin(angles), atol=1e-12)


def test_interpolated_angle_at_f_times_m_is_the_original_at_m():
    d, factor = 16, 4.0
    m = np.arange(0, 2048, 7)
    original = rope_angles(m, rope_inv_frequencies(d))
    np.testing.assert_allclose(interpolated_rope_angles(factor * m, d, factor), original)
    # and all angles of 4x the trained length stay below those of position L, never trained on
    L = 2048
    first_untrained = rope_angles(np.array([L]), rope_inv_frequencies(d))[0]
    stretched = interpolated_rope_angles(np.arange(factor * L), d, factor)
    assert (stretched.max(axis=0) < first_untrained).all()
    assert (rope_angles(np.arange(factor * L), rope_inv_frequencies(d)).max(axis=0)
            > first_untrained).all()  # without interpolation they are not


def test_ntk_keeps_the_fastest_pair_and_divides_the_slowest_by_the_factor():
    d, factor = 64, 8.0
    theta, ntk = rope_inv_frequencies(d), ntk_inv_frequencies(d, factor)
    assert ntk[0] == theta[0] == 1.0
    assert ntk[-1] == pytest.approx(theta[-1] / factor, rel=1e-12)
    assert (np.diff(theta / ntk) > 0).all()  # slower pairs are stretched more
    # the same as RoPE with the raised base (YaRN paper §3.1: b' = b s^(|D|/(|D|-2)))
    np.testing.assert_allclose(ntk, rope_inv_frequencies(d, 10000.0 * factor ** (64 / 62)))
    with pytest.raises(ValueError, match="d >= 4"):
        ntk_inv_frequencies(2, 2.0)


@pytest.mark.parametrize("ramp", ["code", "paper"])
def test_yarn_keeps_high_frequencies_and_interpolates_low_ones(ramp):
    d, s, L = 128, 16.0, 4096
    theta = rope_inv_frequencies(d)
    yarn = yarn_inv_frequencies(d, s, L, ramp=ramp)
    turns = L * theta / (2 * math.pi)  # r = L / λ
    fast, slow = turns > 32, turns < 1
    assert fast.sum() > 5 and slow.sum() > 5  # both regimes exist at these sizes
    np.testing.assert_array_equal(yarn[fast], theta[fast])
    np.testing.assert_allclose(yarn[slow], theta[slow] / s, rtol=1e-12)
    middle = ~fast & ~slow
    assert ((yarn[middle] <= theta[middle]) & (yarn[middle] >= theta[middle] / s)).all()
    assert (np.diff(yarn / theta) <= 1e-12).all()  # never less interpolated further down


def test_yarn_paper_form_ramps_in_the_number_of_turns():
    d, s, L = 128, 16.0, 4096
    theta = rope_inv_frequencies(d)
    yarn = yarn_inv_frequencies(d, s, L, ramp="paper")
    turns = L * theta / (2 * math.pi)
    i = np.flatnonzero((turns < 32) & (turns > 1))[0]
    gamma = (turns[i] - 1) / 31  # one middle pair by hand: θ' = (1 - γ) θ / s + γ θ
    assert yarn[i] == pytest.approx((1 - gamma) * theta[i] / s + gamma * theta[i], rel=1e-12)


def test_yarn_code_form_ramps_in_the_pair_index_as_released_models_do():
    # d = 128, L = 4096, base 10^4: r = 32 at pair 20.94 and r = 1 at pair 45.03, so the
    # reference code (floor, ceil) ramps from pair 20 (kept) to pair 46 (interpolated)
    d, s, L = 128, 4.0, 4096
    pair_at_32_turns = d * math.log(L / (32 * 2 * math.pi)) / (2 * math.log(1e4))
    assert pair_at_32_turns == pytest.approx(20.944, abs=1e-3)
    assert yarn_correction_range(d, L) == (20, 46)
    theta = rope_inv_frequencies(d)
    ratio = yarn_inv_frequencies(d, s, L) / theta
    ramp = np.clip((np.arange(64) - 20) / 26, 0, 1)  # 0 up to pair 20, 1 from pair 46
    np.testing.assert_allclose(ratio, ramp / s + (1 - ramp), rtol=1e-12)
    assert round(ratio[32], 3) == 0.654  # 12/26 of the way: (12/26) / 4 + 14/26
    paper = yarn_inv_frequencies(d, s, L, ramp="paper") / theta
    assert round(paper[32], 3) == 0.384
    assert round(float((ratio / paper).max()), 2) == 1.73 and int((ratio / paper).argmax()) == 34
    # the range is clamped, and an empty ramp does not divide by zero
    assert yarn_correction_range(8, 10_000_000) == (4, 7)
    assert yarn_correction_range(8, 4) == (0, 0)  # both below pair 0: clamped to one pair
    np.testing.assert_allclose(yarn_inv_frequencies(8, 2.0, 4) / rope_inv_frequencies(8),
                               [1, 0.5, 0.5, 0.5])  # low = high = 0: a step, not 0 / 0


def test_yarn_ramp_and_attention_scale():
    np.testing.assert_allclose(yarn_ramp([0.5, 1, 16.5, 32, 40]), [0, 0, 0.5, 1, 1])
    assert yarn_attention_scale(1.0) == 1.0
    assert yarn_attention_scale(0.5) == 1.0  # no extension: the reference code leaves q, k alone
    assert yarn_attention_scale(16.0) == pytest.approx(0.1 * math.log(16) + 1)
    assert yarn_attention_scale(math.e**10) == pytest.approx(2.0)
    with pytest.raises(ValueError, match="beta_fast must be larger"):
        yarn_ramp([1.0], beta_slow=4, beta_fast=2)


@pytest.mark.parametrize("inv_freq", [
    ("interpolated", None), ("ntk", ntk_inv_frequencies(16, 4.0)),
    ("yarn", yarn_inv_frequencies(16, 4.0, 256)),
])
def test_scores_after_scaled_rope_depend_only_on_the_offset(inv_freq):
    name, freq = inv_freq
    freq = rope_inv_frequencies(16) / 4.0 if freq is None else freq  # interpolation: θ / s
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=16), rng.normal(size=16)

    def score(m, n):
        return (apply_rope(q[None], positions=[m], inv_freq=freq)[0]
                @ apply_rope(k[None], positions=[n], inv_freq=freq)[0])

    assert score(9, 2) == pytest.approx(score(509, 502))
    assert score(2, 9) == pytest.approx(score(1002, 1009))
    assert score(9, 2) != pytest.approx(score(9, 3))


def test_apply_rope_with_inv_freq_equals_interpolated_positions():
    x = np.random.default_rng(1).normal(size=(3, 10, 8))
    positions = np.arange(10) * 3
    slow = apply_rope(x, positions, inv_freq=rope_inv_frequencies(8) / 4)
    np.testing.assert_allclose(slow, apply_rope(x, positions / 4), atol=1e-12)
    t = apply_rope(torch.as_tensor(x), positions, inv_freq=torch.as_tensor(rope_inv_frequencies(8)))
    np.testing.assert_allclose(t.numpy(), apply_rope(x, positions), atol=1e-12)
    with pytest.raises(ValueError, match=r"shape \(d/2,\) = \(4,\); got shape \(3,\)"):
        apply_rope(x, inv_freq=np.ones(3))


def test_apply_rope_takes_per_sequence_positions_for_heads():
    x = np.random.default_rng(2).normal(size=(2, 3, 5, 8))  # (B, H, T, d)
    positions = np.array([[0, 1, 2, 3, 4], [0, 0, 0, 1, 2]])  # (B, T): the second left-padded
    y = apply_rope(x, positions)
    for b in range(2):
        np.testing.assert_allclose(y[b], apply_rope(x[b], positions[b]))


def test_llama3_matches_transformers_compute_llama3_parameters():
    ref = REFERENCE["llama3"]
    params = ref["config"]["rope_parameters"]
    d = ref["config"]["hidden_size"] // ref["config"]["num_attention_heads"]  # 128
    ours = llama3_inv_frequencies(d, params["factor"], params["original_max_position_embeddings"],
                                  params["rope_theta"], params["low_freq_factor"],
                                  params["high_freq_factor"])
    assert len(ref["inv_freq"]) == d // 2 == 64
    np.testing.assert_allclose(ours, ref["inv_freq"], rtol=1e-6)  # theirs is float32
    np.testing.assert_array_equal(ours, llama3_inv_frequencies(128))  # the shipped defaults


def test_llama3_keeps_fast_pairs_divides_slow_ones_by_8_and_blends_between():
    d, L = 128, 8192
    theta = rope_inv_frequencies(d, 500000.0)
    ratio = llama3_inv_frequencies(d) / theta
    wavelength = 2 * math.pi / theta
    fast, slow = wavelength < L / 4, wavelength > L / 1  # shorter than 2048, longer than 8192
    np.testing.assert_array_equal(ratio[fast], 1.0)
    np.testing.assert_allclose(ratio[slow], 1 / 8, rtol=1e-15)
    middle = ~fast & ~slow
    # Llama 3.1: pairs 0-28 kept, 35-63 divided by 8, the 6 pairs 29-34 blended
    assert list(np.flatnonzero(middle)) == [29, 30, 31, 32, 33, 34]
    assert (np.diff(ratio) <= 0).all() and (np.diff(ratio[middle]) < 0).all()
    assert ((ratio[middle] < 1) & (ratio[middle] > 1 / 8)).all()
    # one middle pair by hand: smooth = (L / λ - 1) / (4 - 1), θ' = (1 - smooth) θ / 8 + smooth θ
    smooth = (L / wavelength[32] - 1) / 3
    assert ratio[32] == pytest.approx((1 - smooth) / 8 + smooth, rel=1e-12)
    # continuous at both edges: d = 4, base 100 gives λ = 2π and 20π; with L = 20π and
    # high_freq_factor 10 the first sits on L / high (kept) and the second on L / low (÷ 8)
    edges = llama3_inv_frequencies(4, 8.0, 20 * math.pi, 100.0, 1.0, 10.0)
    np.testing.assert_allclose(edges, [1.0, 0.1 / 8], rtol=1e-12)


def test_llama3_with_equal_wavelength_thresholds_is_a_step():
    # low = high is refused; close to it, the blend is a steep ramp between the two regimes
    with pytest.raises(ValueError, match="high_freq_factor must be larger"):
        llama3_inv_frequencies(64, low_freq_factor=2.0, high_freq_factor=2.0)
    ratio = llama3_inv_frequencies(64, low_freq_factor=1.0, high_freq_factor=1.0001) / \
        rope_inv_frequencies(64, 500000.0)
    assert set(np.round(ratio, 9)) <= {1.0, 0.125}


def test_dynamic_ntk_matches_transformers_at_every_length():
    ref = REFERENCE["dynamic_ntk"]
    cfg = ref["config"]
    d = cfg["hidden_size"] // cfg["num_attention_heads"]
    factor, base = cfg["rope_parameters"]["factor"], cfg["rope_parameters"]["rope_theta"]
    for seq_len, theirs in ref["inv_freq_by_seq_len"].items():
        ours = dynamic_ntk_inv_frequencies(d, factor, int(seq_len), cfg["max_position_embeddings"],
                                           base)
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, err_msg=seq_len)


def test_dynamic_ntk_base_follows_the_formula():
    # up to the trained length the base is unchanged, so RoPE is exactly the plain one
    assert dynamic_ntk_base(128, 4.0, 100, 4096) == 10000.0
    assert dynamic_ntk_base(128, 4.0, 4096, 4096) == 10000.0
    np.testing.assert_array_equal(dynamic_ntk_inv_frequencies(128, 4.0, 4096, 4096),
                                  rope_inv_frequencies(128))
    # at 2 L: 4 · 2 - 3 = 5, raised to d / (d - 2) = 64 / 62
    assert dynamic_ntk_base(64, 4.0, 8192, 4096) == pytest.approx(1e4 * 5 ** (64 / 62), rel=1e-12)
    # at s L: the bracket is s² - s + 1; the slowest pair then turns slower than plain NTK's
    assert dynamic_ntk_base(64, 4.0, 4 * 4096, 4096) == pytest.approx(1e4 * 13 ** (64 / 62))
    slowest = dynamic_ntk_inv_frequencies(64, 4.0, 4 * 4096, 4096)[-1]
    assert slowest < ntk_inv_frequencies(64, 4.0)[-1]
    bases = [dynamic_ntk_base(64, 4.0, T, 4096) for T in (4096, 5000, 8192, 65536)]
    assert (np.diff(bases) > 0).all()
    with pytest.raises(ValueError, match="d >= 4"):
        dynamic_ntk_base(2, 2.0, 10, 4)


@pytest.mark.parametrize("call, match", [
    (lambda: rope_inv_frequencies(7), "even positive head width"),
    (lambda: interpolated_rope_angles(np.arange(3), 8, 0), "factor must be a positive number"),
    (lambda: yarn_inv_frequencies(8, 2.0, -5), "original_max_len must be a positive"),
    (lambda: rope_angles(np.zeros((2, 2)), np.ones(4)), r"positions must be \(T,\)"),
    (lambda: yarn_attention_scale(0), "factor must be a positive"),
    (lambda: yarn_inv_frequencies(8, 2.0, 64, ramp="linear"), "ramp must be one of"),
    (lambda: yarn_correction_range(8, 64, beta_fast=1, beta_slow=2), "beta_fast must be larger"),
    (lambda: llama3_inv_frequencies(8, factor=0), "factor must be a positive"),
    (lambda: llama3_inv_frequencies(7), "even positive head width"),
    (lambda: llama3_inv_frequencies(8, low_freq_factor=-1), "low_freq_factor must be a positive"),
    (lambda: dynamic_ntk_base(8, 2.0, 0, 64), "seq_len must be a positive"),
    (lambda: dynamic_ntk_inv_frequencies(8, 2.0, 10, "64"), "original_max_len must be a positive"),
])
def test_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()
