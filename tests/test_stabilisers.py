"""helpers.stabilisers: soft-capping and QK-norm against torch's own ops and hand formulas."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from helpers.stabilisers import (
    largest_weight_bound,
    qk_norm_attention,
    qk_norm_score_bound,
    rms_norm,
    score_summary,
    softcap,
    softcapped_attention,
)


def test_softcap_matches_torch_tanh_and_is_bounded_and_monotone():
    s = torch.linspace(-500, 500, 2001, dtype=torch.float64)
    capped = softcap(s, 50.0)
    torch.testing.assert_close(capped, 50.0 * torch.tanh(s / 50.0), rtol=0, atol=0)
    assert float(capped.abs().max()) <= 50.0  # tanh rounds to 1 far out: < 50 only in exact math
    assert float(softcap(torch.tensor(60.0, dtype=torch.float64), 50.0)) < 50.0
    assert bool((capped.diff() > 0).all())  # strictly increasing: key order kept
    np.testing.assert_allclose(softcap(np.array([3.0]), 50.0), 50 * np.tanh(3 / 50))


def test_softcap_is_near_identity_for_small_scores():
    s = np.linspace(-1, 1, 21)
    # |cap tanh(s/cap) - s| <= |s|^3 / (3 cap^2), the first term of the series
    assert (np.abs(softcap(s, 50.0) - s) <= np.abs(s) ** 3 / (3 * 50.0**2) + 1e-15).all()
    assert softcap(np.array([-np.inf]), 50.0)[0] == -50.0  # why the mask comes after the cap


@pytest.mark.parametrize("cap", [0, -1.0, float("inf"), True])
def test_softcap_refuses_a_bad_cap(cap):
    with pytest.raises(ValueError, match="cap"):
        softcap(np.ones(3), cap)


def test_softcapped_attention_matches_sdpa_on_capped_scores():
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 3, 7, 8, generator=g, dtype=torch.float64) * 6 for _ in range(3))
    mask = torch.ones(7, 7, dtype=torch.bool).tril()
    out, w = softcapped_attention(q, k, v, mask, cap=5.0)
    s = q @ k.transpose(-2, -1) / math.sqrt(8)
    bias = (5.0 * torch.tanh(s / 5.0)).masked_fill(~mask, float("-inf"))
    # zero queries give zero scores, so sdpa's weights are softmax of the float mask alone
    ref = F.scaled_dot_product_attention(torch.zeros_like(q), k, v, attn_mask=bias)
    torch.testing.assert_close(out, ref)
    assert float(w[..., -1, :].max()) <= largest_weight_bound(5.0, 7) + 1e-12  # 7 keys allowed


def test_rms_norm_matches_torch_rmsnorm():
    g = torch.Generator().manual_seed(1)
    x = torch.randn(2, 4, 5, 16, generator=g)
    norm = torch.nn.RMSNorm(16, eps=1e-6)
    with torch.no_grad():
        norm.weight.copy_(torch.randn(16, generator=g))
    torch.testing.assert_close(rms_norm(x, norm.weight.detach(), 1e-6), norm(x).detach())
    np.testing.assert_allclose(rms_norm(x.double().numpy(), eps=1e-6),
                               torch.nn.RMSNorm(16, eps=1e-6).double()(x.double()).detach(),
                               rtol=1e-12)
    with pytest.raises(ValueError, match=r"\(d,\) = \(16,\)"):
        rms_norm(x, torch.ones(8))


def test_qk_norm_attention_matches_sdpa_on_normalised_heads():
    g = torch.Generator().manual_seed(2)
    q, k, v = (torch.randn(1, 2, 6, 8, generator=g) * 30 for _ in range(3))
    wq, wk = torch.rand(8, generator=g) + 0.5, torch.rand(8, generator=g) + 0.5
    out, w = qk_norm_attention(q, k, v, q_weight=wq, k_weight=wk)
    nq, nk = torch.nn.RMSNorm(8, eps=1e-6), torch.nn.RMSNorm(8, eps=1e-6)
    with torch.no_grad():
        nq.weight.copy_(wq)
        nk.weight.copy_(wk)
        ref = F.scaled_dot_product_attention(nq(q), nk(k), v)
    torch.testing.assert_close(out, ref)
    # raw scores of size ~ 30^2 * sqrt(8) saturate; normalised ones are bounded
    s = nq(q) @ nk(k).transpose(-2, -1) / math.sqrt(8)
    assert float(s.detach().abs().max()) <= qk_norm_score_bound(8, wq, wk) + 1e-5
    assert math.isclose(qk_norm_score_bound(8, wq, wk), math.sqrt(8) * wq.max() * wk.max(),
                        rel_tol=1e-6)


def test_qk_norm_bound_is_reached_by_parallel_equal_rows():
    q = torch.ones(1, 1, 16)  # rms 1: q̂ = q, q̂·q̂/4 = 16/4 = 4 = sqrt(16)
    s = rms_norm(q, eps=0.0) @ rms_norm(q, eps=0.0).transpose(-2, -1) / 4
    assert math.isclose(float(s), qk_norm_score_bound(16))


def test_largest_weight_bound_is_reached_and_holds():
    B, T = 2.0, 10
    s = np.full(T, -B)
    s[3] = B
    w = np.exp(s) / np.exp(s).sum()
    assert math.isclose(w.max(), largest_weight_bound(B, T), rel_tol=1e-12)
    rng = np.random.default_rng(0)
    x = np.clip(rng.normal(size=(100, T)) * 5, -B, B)
    w = np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)
    assert w.max() <= largest_weight_bound(B, T) + 1e-12
    assert largest_weight_bound(0.0, T) == 1 / T and largest_weight_bound(5.0, 1) == 1.0
    with pytest.raises(ValueError):
        largest_weight_bound(1.0, 0)


def test_score_summary_against_hand_numbers_and_softcap_flattens():
    info = score_summary(np.array([[0.0, 0.0, 0.0, 0.0]]))
    assert info["largest_weight"] == 0.25 and math.isclose(info["entropy"], math.log(4))
    assert info["max_abs_score"] == 0.0 and info["score_std"] == 0.0
    s = np.random.default_rng(1).normal(size=(50, 32)) * 40
    raw, capped = score_summary(s), score_summary(softcap(s, 10.0))
    assert capped["max_abs_score"] < 10.0 < raw["max_abs_score"]
    assert capped["largest_weight"] < raw["largest_weight"]
    assert capped["entropy"] > raw["entropy"]
    with pytest.raises(ValueError, match="finite"):
        score_summary(np.array([1.0, np.inf]))
