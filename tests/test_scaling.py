"""helpers.scaling: random scores, variance, temperature, entropy, autograd gradient norms."""

import math

import numpy as np
import pytest
import torch

from helpers.attention import softmax
from helpers.scaling import (
    dot_variance,
    entropy,
    q_grad_norms,
    row_weights,
    sample_qk,
    sample_values,
    score_rows,
    softmax_temperature,
)


def test_sample_qk_shapes_and_determinism():
    q, k = sample_qk(8, n_rows=3, n_keys=5, seed=1)
    assert q.shape == (3, 8) and k.shape == (3, 5, 8)
    q2, k2 = sample_qk(8, n_rows=3, n_keys=5, seed=1)
    np.testing.assert_array_equal(q, q2)
    np.testing.assert_array_equal(k, k2)
    assert not np.array_equal(q, sample_qk(8, n_rows=3, n_keys=5, seed=2)[0])
    assert sample_values(3, 5, seed=1).shape == (3, 5, 1)


@pytest.mark.parametrize("bad", [0, -3, 2.5])
def test_bad_width_is_refused(bad):
    with pytest.raises(ValueError, match="d_k must be a positive whole number"):
        sample_qk(bad)


def test_score_rows_are_dot_products_and_scaled_divides_by_sqrt_dk():
    q, k = sample_qk(16, n_rows=4, n_keys=6, seed=0)
    raw = score_rows(16, scaled=False, n_rows=4, n_keys=6, seed=0)
    np.testing.assert_allclose(raw[2, 3], q[2] @ k[2, 3])
    np.testing.assert_allclose(score_rows(16, scaled=True, n_rows=4, n_keys=6), raw / 4)
    w = row_weights(16, scaled=True, n_rows=4, n_keys=6)
    np.testing.assert_allclose(w, softmax(raw / 4))
    np.testing.assert_allclose(w.sum(axis=-1), 1)


@pytest.mark.parametrize("d_k", [1, 16, 300])
def test_dot_variance_is_d_k(d_k):
    assert abs(dot_variance(d_k, 20_000, seed=3) / d_k - 1) < 0.05
    # one chunk is exactly the by-hand measurement: q drawn first, then an independent k
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((5_000, d_k)), rng.standard_normal((5_000, d_k))
    by_hand = np.var((q * k).sum(axis=1))
    assert dot_variance(d_k, 5_000, seed=3, chunk=5_000) == pytest.approx(by_hand, rel=1e-12)


def test_temperature():
    s = np.array([[1.8, 3.2, 1.9], [100.0, -50.0, -30.0]])
    np.testing.assert_allclose(softmax_temperature(s, 2.0), softmax(s / 2.0))
    assert np.isfinite(softmax_temperature(s, 0.01)).all()
    with pytest.raises(ValueError, match="positive"):
        softmax_temperature(s, 0.0)


def test_entropy():
    p = np.array([[0.25] * 4, [1.0, 0, 0, 0], [0.5, 0.5, 0, 0]])
    np.testing.assert_allclose(entropy(p), [math.log(4), 0.0, math.log(2)])
    np.testing.assert_allclose(entropy(p.T, axis=0), entropy(p))


@pytest.mark.parametrize("scaled", [False, True])
def test_q_grad_norms_match_the_formula(scaled):
    d_k, n_keys = 8, 5
    norms = q_grad_norms(d_k, scaled=scaled, n_rows=3, n_keys=n_keys, seed=4)
    q, k = sample_qk(d_k, 3, n_keys, seed=4)
    v = sample_values(3, n_keys, seed=4)[..., 0]
    c = 1 / math.sqrt(d_k) if scaled else 1.0
    for r in range(3):
        a = softmax(c * (k[r] @ q[r]))
        out = a @ v[r]
        grad = c * ((a * (v[r] - out)) @ k[r])  # d out / d q = c Σ_j a_j (v_j − out) k_j
        assert norms[r] == pytest.approx(np.linalg.norm(grad), rel=1e-10)


def test_q_grad_norms_unscaled_vanish_scaled_do_not():
    unscaled = np.median(q_grad_norms(1024, scaled=False, n_rows=100))
    scaled = np.median(q_grad_norms(1024, scaled=True, n_rows=100))
    assert unscaled < 1e-2 * scaled
    assert torch.get_default_dtype() == torch.float32  # the helper does not change global state
