"""helpers.gqa: grouped-query attention equals torch's SDPA with enable_gqa=True."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from helpers.attention import attention
from helpers.gqa import GroupedQueryAttention, grouped_query_attention, repeat_kv
from helpers.heads import KVCache
from helpers.masks import chunk_causal_mask

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def qkv(B=2, H_q=6, H_kv=2, T_q=5, T_k=7, d=8, d_v=None, seed=0, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(B, H_q, T_q, d, generator=g, dtype=dtype)
    k = torch.randn(B, H_kv, T_k, d, generator=g, dtype=dtype)
    v = torch.randn(B, H_kv, T_k, d if d_v is None else d_v, generator=g, dtype=dtype)
    return q, k, v


def test_repeat_kv_repeats_each_head_consecutively():
    x = torch.arange(2 * 3 * 4 * 5.0).view(2, 3, 4, 5)  # (B, H_kv, T, d)
    y = repeat_kv(x, 2)
    assert y.shape == (2, 6, 4, 5)
    for h in range(6):  # query head h reads kv head h // 2
        assert torch.equal(y[:, h], x[:, h // 2])
    assert torch.equal(y, torch.repeat_interleave(x, 2, dim=1))
    assert repeat_kv(x, 1) is x
    with pytest.raises(ValueError, match="positive whole number"):
        repeat_kv(x, 0)
    with pytest.raises(ValueError, match=r"\(B, H_kv, T, d\)"):
        repeat_kv(x[0], 2)


@pytest.mark.parametrize("H_q, H_kv", [(6, 2), (4, 1), (4, 4), (8, 2)])
def test_gqa_equals_sdpa_enable_gqa(H_q, H_kv):
    q, k, v = qkv(H_q=H_q, H_kv=H_kv, d_v=3)
    out, weights = grouped_query_attention(q, k, v)
    torch.testing.assert_close(out, F.scaled_dot_product_attention(q, k, v, enable_gqa=True))
    assert weights.shape == (2, H_q, 5, 7)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, H_q, 5, dtype=q.dtype))
    # the same as ordinary attention on K/V copied Llama's way
    want, want_w = attention(q, repeat_kv(k, H_q // H_kv), repeat_kv(v, H_q // H_kv))
    torch.testing.assert_close(out, want)
    torch.testing.assert_close(weights, want_w)


@pytest.mark.parametrize("shape", [(5, 7), (2, 1, 5, 7), (2, 6, 5, 7), (1, 6, 5, 7)])
def test_gqa_with_a_bool_mask_equals_sdpa(shape):
    q, k, v = qkv()
    g = torch.Generator().manual_seed(3)
    mask = torch.rand(shape, generator=g) > 0.4
    mask[..., 0] = True  # every query keeps a key
    out, weights = grouped_query_attention(q, k, v, mask)
    want = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=True)
    torch.testing.assert_close(out, want)
    assert (weights[~mask.expand(2, 6, 5, 7)] == 0).all()


def test_gqa_chunk_mask_and_scale():
    q, k, v = qkv(T_q=3, T_k=7)
    mask = torch.as_tensor(chunk_causal_mask(3, 7))
    out, _ = grouped_query_attention(q, k, v, mask, scale=0.3)
    want = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.3, enable_gqa=True)
    torch.testing.assert_close(out, want)


def test_gqa_numpy_and_unbatched():
    q, k, v = qkv(B=1)
    out, w = grouped_query_attention(q[0].numpy(), k[0].numpy(), v[0].numpy())  # (H, T, d)
    assert isinstance(out, np.ndarray) and out.shape == (6, 5, 8) and w.shape == (6, 5, 7)
    want = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)[0]
    np.testing.assert_allclose(out, want.numpy(), rtol=1e-10)


def test_each_kv_head_serves_its_group_of_query_heads():
    q, k, v = qkv(B=1, H_q=8, H_kv=2)
    # a change in kv head 1 moves query heads 4..7 only
    k2 = k.clone()
    k2[:, 1] += torch.randn(k2[:, 1].shape, generator=torch.Generator().manual_seed(5))
    a, _ = grouped_query_attention(q, k, v)
    b, _ = grouped_query_attention(q, k2, v)
    moved = (a - b).abs().amax(dim=(0, 2, 3)) > 1e-9
    assert moved.tolist() == [False] * 4 + [True] * 4


def test_gqa_errors():
    q, k, v = qkv(H_q=6, H_kv=4)
    with pytest.raises(ValueError, match="H_q=6, H_kv=4"):
        grouped_query_attention(q, k, v)
    q, k, v = qkv()
    with pytest.raises(ValueError, match="same number of key/value heads"):
        grouped_query_attention(q, k, v[:, :1])
    with pytest.raises(ValueError, match="at least 3 axes"):
        grouped_query_attention(q[0, 0], k[0, 0], v[0, 0])
    with pytest.raises(ValueError, match="does not broadcast"):
        grouped_query_attention(q, k, v, torch.ones(2, 4, 5, 7, dtype=torch.bool))
    with pytest.raises(ValueError, match="boolean"):
        grouped_query_attention(q, k, v, torch.ones(5, 7))
    with pytest.raises(TypeError, match="all be NumPy arrays or all be torch"):
        grouped_query_attention(q.numpy(), k, v)


def sdpa_reference(layer, x, positions, mask=None, k_past=None, v_past=None):
    """The layer's forward, written with torch only: Meta's complex-number RoPE and SDPA."""
    B, T, D = x.shape
    H, H_kv, d = layer.n_heads, layer.n_kv_heads, layer.d_head
    q = layer.q_proj(x).view(B, T, H, d).transpose(1, 2)
    k = layer.k_proj(x).view(B, T, H_kv, d).transpose(1, 2)
    v = layer.v_proj(x).view(B, T, H_kv, d).transpose(1, 2)
    if layer.rope:
        theta = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
        pos = torch.as_tensor(positions, dtype=torch.float64)
        rot = torch.polar(torch.ones(()), (pos[..., None] * theta).float())  # (.., T, d/2)
        if rot.ndim == 3:
            rot = rot[:, None]  # (B, 1, T, d/2)

        def rotate(t):
            pairs = torch.view_as_complex(t.float().reshape(*t.shape[:-1], d // 2, 2))
            return torch.view_as_real(pairs * rot).flatten(-2)

        q, k = rotate(q), rotate(k)
    if k_past is not None:
        k, v = torch.cat([k_past, k], -2), torch.cat([v_past, v], -2)
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=True)
    return layer.o_proj(out.transpose(1, 2).reshape(B, T, D)), k, v


@pytest.mark.parametrize("n_kv_heads", [1, 2, 4])
def test_module_equals_sdpa_with_the_same_weights(n_kv_heads):
    torch.manual_seed(0)
    layer = GroupedQueryAttention(32, 4, n_kv_heads)
    assert layer.kv_heads == n_kv_heads and layer.group_size == 4 // n_kv_heads
    assert layer.k_proj.weight.shape == (n_kv_heads * 8, 32) and layer.q_proj.bias is None
    x = torch.randn(2, 6, 32)
    want, _, _ = sdpa_reference(layer, x, torch.arange(6))
    torch.testing.assert_close(layer(x), want, atol=1e-5, rtol=1e-5)
    causal = torch.ones(6, 6, dtype=torch.bool).tril()
    want, _, _ = sdpa_reference(layer, x, torch.arange(6), causal)
    torch.testing.assert_close(layer(x, mask=causal), want, atol=1e-5, rtol=1e-5)


def test_module_without_rope_and_with_batched_positions():
    torch.manual_seed(1)
    x = torch.randn(2, 5, 16)
    plain = GroupedQueryAttention(16, 4, 2, rope=False)
    want, _, _ = sdpa_reference(plain, x, None)
    torch.testing.assert_close(plain(x), want, atol=1e-5, rtol=1e-5)
    layer = GroupedQueryAttention(16, 4, 2)
    positions = torch.tensor([[0, 1, 2, 3, 4], [0, 0, 0, 1, 2]])  # (B, T)
    want, _, _ = sdpa_reference(layer, x, positions)
    torch.testing.assert_close(layer(x, positions=positions), want, atol=1e-5, rtol=1e-5)
    with pytest.raises(ValueError, match=r"\(T,\) = \(5,\) or \(B, T\)"):
        layer(x, positions=torch.arange(4))
    with pytest.raises(ValueError, match="integers"):
        layer(x, positions=torch.arange(5.0))


def test_module_cache_keeps_rotated_keys_and_defaults_to_lower_right_mask():
    torch.manual_seed(2)
    layer = GroupedQueryAttention(16, 4, 2)
    x = torch.randn(1, 7, 16)
    full = layer(x, mask=torch.ones(7, 7, dtype=torch.bool).tril())
    cache = KVCache()
    parts = [layer(x[:, :4], cache=cache), layer(x[:, 4:6], cache=cache),
             layer(x[:, 6:], cache=cache)]
    torch.testing.assert_close(torch.cat(parts, 1), full, atol=1e-5, rtol=1e-5)
    assert cache.k.shape == (1, 2, 7, 4)  # H_kv heads are cached, not H
    # the cached keys are the rotated ones: compare with the torch-only reference's keys
    _, k_ref, _ = sdpa_reference(layer, x, torch.arange(7))
    torch.testing.assert_close(cache.k, k_ref, atol=1e-5, rtol=1e-5)
    # the chunk after the cache, by the torch reference with the lower-right mask
    k_past, v_past = cache.k[..., :4, :], cache.v[..., :4, :]
    want, _, _ = sdpa_reference(layer, x[:, 4:6], torch.arange(4, 6),
                                torch.as_tensor(chunk_causal_mask(2, 6)), k_past, v_past)
    torch.testing.assert_close(parts[1], want, atol=1e-5, rtol=1e-5)


def test_module_errors():
    with pytest.raises(ValueError, match="H_q=4, H_kv=3"):
        GroupedQueryAttention(16, 4, 3)
    with pytest.raises(ValueError, match="n_heads must divide d_model"):
        GroupedQueryAttention(18, 4, 2)
    with pytest.raises(ValueError, match=r"\(B, T, d_model=16\)"):
        GroupedQueryAttention(16, 4, 2)(torch.randn(2, 5, 8))
