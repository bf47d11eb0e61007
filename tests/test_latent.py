"""helpers.latent: DeepSeek-V2's multi-head latent attention, its cache and its absorbed form."""

import math

import pytest
import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

from helpers.configs import PRESETS, kv_values_per_token
from helpers.latent import LatentAttention, LatentCache
from helpers.positions import apply_rope

SIZES = dict(d_model=32, n_heads=4, d_head=8, d_latent=12, d_rope=4)


pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def mla():
    return LatentAttention(**SIZES, seed=0).double()


def xs(B=2, T=7, seed=0):
    return torch.randn(B, T, 32, generator=torch.Generator().manual_seed(seed),
                       dtype=torch.float64)


def reference(m, x):
    """Eqs (9)-(19) of arXiv:2405.04434 written out, with torch's SDPA (is_causal) at the end."""
    B, T, _ = x.shape
    H, d, r = m.n_heads, m.d_head, m.d_rope
    c = x @ m.w_dkv.weight.T  # (9)
    k_c = (c @ m.w_uk.weight.T).view(B, T, H, d)  # (10)
    v_c = (c @ m.w_uv.weight.T).view(B, T, H, d)  # (11)
    q_c = (x @ m.w_q.weight.T).view(B, T, H, d)
    q_r = apply_rope((x @ m.w_qr.weight.T).view(B, T, H, r).transpose(1, 2))  # (14)
    k_r = apply_rope(x @ m.w_kr.weight.T)  # (15): (B, T, d_rope), one for all heads
    q = torch.cat([q_c.transpose(1, 2), q_r], -1)  # (16)
    k = torch.cat([k_c.transpose(1, 2), k_r[:, None].expand(B, H, T, r)], -1)  # (17)
    o = F.scaled_dot_product_attention(q, k, v_c.transpose(1, 2), is_causal=True,
                                       scale=1 / math.sqrt(d + r))  # (18)
    return o.transpose(1, 2).reshape(B, T, H * d) @ m.w_o.weight.T  # (19)


def test_forward_follows_the_papers_equations(mla):
    x = xs()
    out, cache = mla(x)
    torch.testing.assert_close(out, reference(mla, x))
    assert out.shape == (2, 7, 32)


def test_absorbed_form_equals_forward(mla):
    x = xs(seed=1)
    out, _ = mla(x)
    absorbed, _ = mla.forward_absorbed(x)
    torch.testing.assert_close(absorbed, out, atol=1e-5, rtol=1e-5)
    # float32, as a model would run it
    m32 = LatentAttention(**SIZES, seed=3)
    x32 = x.float()
    torch.testing.assert_close(m32.forward_absorbed(x32)[0], m32(x32)[0], atol=1e-5, rtol=1e-5)


def test_the_cache_holds_only_the_latent_and_the_rope_key(mla):
    x = xs(B=3, T=5)
    _, cache = mla(x)
    assert isinstance(cache, LatentCache) and set(vars(cache)) == {"c", "k_rope"}
    assert cache.c.shape == (3, 5, 12) and cache.k_rope.shape == (3, 5, 4)
    torch.testing.assert_close(cache.c, x @ mla.w_dkv.weight.T)
    assert mla.cache_values_per_token() == 16 and mla.mha_values_per_token() == 64


def test_decoding_token_by_token_equals_the_full_causal_pass(mla):
    x = xs(seed=2)
    full, _ = mla(x)
    for step in (mla.forward, mla.forward_absorbed):
        cache, outs = None, []
        for t in range(7):
            out, cache = step(x[:, t : t + 1], cache)
            outs.append(out)
        torch.testing.assert_close(torch.cat(outs, 1), full, atol=1e-10, rtol=1e-10)
        assert len(cache) == 7
    # and a chunk of 4 after a prefix of 3
    _, cache = mla(x[:, :3])
    chunk, _ = mla.forward_absorbed(x[:, 3:], cache)
    torch.testing.assert_close(chunk, full[:, 3:], atol=1e-10, rtol=1e-10)


def test_outputs_do_not_read_the_future(mla):
    x = xs(seed=4)
    y = x.clone()
    y[:, 4] += 1.0
    a, _ = mla(x)
    b, _ = mla(y)
    torch.testing.assert_close(a[:, :4], b[:, :4])
    assert not torch.allclose(a[:, 4:], b[:, 4:])


def test_extra_flops_are_what_torchs_flop_counter_sees(mla):
    T = 9
    _, cache = mla(xs(B=1, T=T - 1))
    x = xs(B=1, T=1, seed=5)

    def counted(step, cache):
        prefix = LatentCache()
        prefix.append(cache.c.clone(), cache.k_rope.clone())
        with FlopCounterMode(display=False) as fc:
            step(x, prefix)
        return fc.get_total_flops()

    extra = mla.extra_matmul_flops(T, T_q=1)
    H, d, r = 4, 8, 12
    assert extra["decompress"] == 2 * T * r * 2 * H * d
    assert extra["absorbed"] == 4 * H * d * r + 4 * T * H * (r - d)
    # both forms share every other matmul, so the difference is exactly decompress - absorbed
    assert counted(mla.forward, cache) - counted(mla.forward_absorbed, cache) == \
        extra["decompress"] - extra["absorbed"]


def test_compressed_queries_follow_eqs_12_to_14_and_change_no_cache():
    m = LatentAttention(**SIZES, seed=4, d_q_latent=6).double()
    x = xs(seed=5)
    B, T, H, d, r = 2, 7, 4, 8, 4
    c_q = x @ m.w_dq.weight.T  # (12): (B, T, d_q_latent)
    q_c = (c_q @ m.w_q.weight.T).view(B, T, H, d).transpose(1, 2)  # (13)
    q_r = apply_rope((c_q @ m.w_qr.weight.T).view(B, T, H, r).transpose(1, 2))  # (14)
    c = x @ m.w_dkv.weight.T
    k = torch.cat([(c @ m.w_uk.weight.T).view(B, T, H, d).transpose(1, 2),
                   apply_rope(x @ m.w_kr.weight.T)[:, None].expand(B, H, T, r)], -1)
    v = (c @ m.w_uv.weight.T).view(B, T, H, d).transpose(1, 2)
    o = F.scaled_dot_product_attention(torch.cat([q_c, q_r], -1), k, v, is_causal=True,
                                       scale=1 / math.sqrt(d + r))
    want = o.transpose(1, 2).reshape(B, T, H * d) @ m.w_o.weight.T
    out, cache = m(x)
    torch.testing.assert_close(out, want)
    torch.testing.assert_close(m.forward_absorbed(x)[0], want)
    assert cache.c.shape == (2, 7, 12) and m.cache_values_per_token() == 16
    assert m.w_q.in_features == m.w_qr.in_features == 6
    with pytest.raises(ValueError, match="d_q_latent must be a positive"):
        LatentAttention(**SIZES, d_q_latent=0)


def test_deepseek_v2_numbers():
    # per layer: d_c + d_h^R = 512 + 64 = 576 = 4.5 d_h, against 2 · 128 · 128 for MHA
    c = PRESETS["DeepSeek-V2"]
    assert kv_values_per_token(c) == 576 * 60
    assert (c.kv_latent + c.rope_head_dim) / c.d_head == 4.5
    assert 2 * c.n_heads * c.d_head / (c.kv_latent + c.rope_head_dim) == pytest.approx(56.9, 0.01)
    assert c.q_latent == 1536  # q_lora_rank: the queries are compressed too, the cache is not


def test_errors(mla):
    with pytest.raises(ValueError, match="d_rope must be an even positive"):
        LatentAttention(32, 4, 8, 12, 3)
    with pytest.raises(ValueError, match=r"\(B, T, d_model=32\)"):
        mla(torch.randn(1, 3, 16))
    with pytest.raises(ValueError, match="T must be a positive"):
        mla.extra_matmul_flops(0)
