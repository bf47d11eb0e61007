"""helpers.positions: sinusoidal and learned encodings, RoPE, ALiBi."""

import math

import numpy as np
import pytest
import torch

from helpers.positions import (
    LearnedPositions,
    alibi_bias,
    alibi_slopes,
    apply_rope,
    sinusoidal_encoding,
)


def test_sinusoidal_matches_formula():
    T, d = 12, 8
    pe = sinusoidal_encoding(T, d)
    assert pe.shape == (T, d)
    for pos in range(T):
        for i in range(d // 2):
            angle = pos / 10000 ** (2 * i / d)
            assert pe[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-12)
            assert pe[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-12)


def test_sinusoidal_nearby_positions_are_more_similar():
    pe = sinusoidal_encoding(50, 32)
    sim = pe @ pe.T
    assert sim[10, 11] > sim[10, 20] > sim[10, 40]
    np.testing.assert_allclose(np.diag(sim), 16.0)  # sin^2 + cos^2 = 1, d/2 times


def test_sinusoidal_odd_width_and_errors():
    assert sinusoidal_encoding(3, 5).shape == (3, 5)
    with pytest.raises(ValueError, match="T must be a positive whole number"):
        sinusoidal_encoding(0, 8)


def test_learned_positions_lookup_and_error_past_table():
    torch.manual_seed(0)
    lp = LearnedPositions(32, 8)
    torch.testing.assert_close(lp(5), lp.table.weight[:5])
    torch.testing.assert_close(lp(torch.tensor([3, 31])), lp.table.weight[[3, 31]])
    with pytest.raises(ValueError, match="position 40 is past the learned table of 32 positions"):
        lp(torch.arange(41))
    with pytest.raises(ValueError, match="position 32 is past"):
        lp(33)
    with pytest.raises(ValueError, match="count from 0"):
        lp(torch.tensor([-1]))


def rope_pair(d=16, seed=0):
    g = np.random.default_rng(seed)
    return g.normal(size=d), g.normal(size=d)


def rope_score(q, k, m, n):
    """q placed at position m, k at position n, each rotated there."""
    q_m = apply_rope(q[None, :], positions=[m])[0]
    k_n = apply_rope(k[None, :], positions=[n])[0]
    return q_m @ k_n


@pytest.mark.parametrize("m, n, shift", [(5, 2, 10), (2, 5, 7), (0, 0, 100), (30, 1, 1000)])
def test_rope_score_depends_only_on_offset(m, n, shift):
    q, k = rope_pair()
    assert rope_score(q, k, m, n) == pytest.approx(rope_score(q, k, m + shift, n + shift))


def test_rope_score_changes_with_offset():
    q, k = rope_pair()
    assert rope_score(q, k, 5, 2) != pytest.approx(rope_score(q, k, 5, 3))


def test_rope_preserves_norms_and_position_zero():
    x = np.random.default_rng(1).normal(size=(2, 3, 10, 8))  # (B, H, T, d)
    y = apply_rope(x)
    np.testing.assert_allclose(np.linalg.norm(y, axis=-1), np.linalg.norm(x, axis=-1))
    np.testing.assert_allclose(y[..., 0, :], x[..., 0, :])  # angle 0 at position 0


def test_rope_equals_complex_rotation():
    T, d = 6, 8
    x = np.random.default_rng(2).normal(size=(T, d))
    z = x[:, 0::2] + 1j * x[:, 1::2]  # pair (2i, 2i+1) as one complex number
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    rotated = z * np.exp(1j * np.arange(T)[:, None] * theta)
    y = apply_rope(x)
    np.testing.assert_allclose(y[:, 0::2], rotated.real, atol=1e-12)
    np.testing.assert_allclose(y[:, 1::2], rotated.imag, atol=1e-12)


def test_rope_torch_matches_numpy_and_keeps_gradients():
    x = np.random.default_rng(3).normal(size=(2, 5, 6))
    t = torch.tensor(x, requires_grad=True)
    y = apply_rope(t, positions=torch.arange(3, 8))
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float64
    np.testing.assert_allclose(y.detach().numpy(), apply_rope(x, positions=np.arange(3, 8)))
    y.sum().backward()
    assert t.grad is not None


def test_rope_error_odd_width():
    with pytest.raises(ValueError, match=r"even width d.*got shape \(4, 5\)"):
        apply_rope(np.zeros((4, 5)))


def test_alibi_slopes_power_of_two():
    np.testing.assert_allclose(alibi_slopes(8), [2.0**-k for k in range(1, 9)])
    np.testing.assert_allclose(alibi_slopes(4), [2.0 ** (-2 * k) for k in range(1, 5)])


def test_alibi_slopes_non_power_of_two_follow_the_paper():
    # 6 heads: the 4 slopes of H=4, then the odd-numbered slopes of H=8 (1/2, 1/8).
    np.testing.assert_allclose(alibi_slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8])
    assert len(alibi_slopes(12)) == 12
    np.testing.assert_allclose(alibi_slopes(1), [2.0**-8])


def test_alibi_bias_values():
    H, T = 4, 5
    bias = alibi_bias(H, T)
    assert bias.shape == (H, T, T)
    slopes = alibi_slopes(H)
    for h in range(H):
        for i in range(T):
            for j in range(T):
                expected = -slopes[h] * (i - j) if j <= i else 0.0
                assert bias[h, i, j] == pytest.approx(expected)
    assert np.all(np.diagonal(bias, axis1=1, axis2=2) == 0)  # no penalty for attending to self


def test_learned_positions_take_a_count_of_any_integer_type():
    table = LearnedPositions(16, 4)
    assert table(np.int64(10)).shape == (10, 4)
    assert table(10).shape == (10, 4)
    assert table(torch.tensor([3, 5])).shape == (2, 4)
