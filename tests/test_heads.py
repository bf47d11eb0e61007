"""helpers.heads against torch.nn.MultiheadAttention and F.scaled_dot_product_attention."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from helpers.heads import KVCache, MultiHeadAttention, merge_heads, split_heads
from helpers.masks import causal_mask, padding_mask, to_mha

D, H = 16, 4


def random_x(B=2, T=5, d=D, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(B, T, d, generator=g, dtype=torch.float64)


def torch_mha(bias=True, seed=0):
    torch.manual_seed(seed)
    mha = nn.MultiheadAttention(D, H, bias=bias, batch_first=True).double().eval()
    with torch.no_grad():  # nonzero biases, so a bias copied to the wrong projection shows
        for p in mha.parameters():
            p.add_(0.1 * torch.randn_like(p))
    return mha


def test_split_heads_shape_and_content():
    x = torch.arange(2 * 3 * 8.0).view(2, 3, 8)  # (B=2, T=3, D=8)
    heads = split_heads(x, 2)  # (2, 2, 3, 4)
    assert heads.shape == (2, 2, 3, 4)
    # head h of token t holds features h*4 .. h*4+3 of that same token
    torch.testing.assert_close(heads[1, 0, 2], x[1, 2, :4])
    torch.testing.assert_close(heads[1, 1, 2], x[1, 2, 4:])


def test_merge_undoes_split():
    x = random_x()
    torch.testing.assert_close(merge_heads(split_heads(x, H)), x)


def test_reshape_without_transpose_mixes_tokens():
    x = random_x(B=1, T=4)
    wrong = x.reshape(1, H, 4, D // H)  # the classic bug: no transpose
    right = split_heads(x, H)
    assert not torch.equal(wrong, right)
    # the wrong "head 0" holds all 16 features of token 0 spread over 4 positions
    torch.testing.assert_close(wrong[0, 0].reshape(-1), x[0, 0])


def test_per_head_loop_equals_batched():
    mha = MultiHeadAttention(D, H).double()
    x = random_x()
    out, weights = mha(x)
    q, k, v = (split_heads(p(x), H) for p in (mha.q_proj, mha.k_proj, mha.v_proj))
    d_head = D // H
    heads = []
    for h in range(H):
        s = q[:, h] @ k[:, h].transpose(-2, -1) / d_head**0.5  # (B, T, T)
        a = torch.softmax(s, dim=-1)
        torch.testing.assert_close(a, weights[:, h])
        heads.append(a @ v[:, h])  # (B, T, d_head)
    torch.testing.assert_close(mha.out_proj(torch.cat(heads, dim=-1)), out)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("masks", ["none", "causal", "padding", "both"])
def test_matches_torch_multihead_attention(bias, masks):
    ref = torch_mha(bias=bias)
    mine = MultiHeadAttention.from_torch(ref)
    x = random_x(B=2, T=5)
    causal = causal_mask(5) if masks in ("causal", "both") else None
    real = padding_mask([5, 3], 5) if masks in ("padding", "both") else None
    expected, expected_w = ref(
        x,
        x,
        x,
        attn_mask=None if causal is None else torch.as_tensor(to_mha(causal)),  # True = blocked
        key_padding_mask=None if real is None else torch.as_tensor(to_mha(real)),
        need_weights=True,
        average_attn_weights=False,  # per head, (B, H, T_q, T_k)
    )
    out, weights = mine(x, mask=causal, key_padding_mask=real)
    torch.testing.assert_close(out, expected)
    torch.testing.assert_close(weights, expected_w)
    assert weights.shape == (2, H, 5, 5)


def test_cross_attention_matches_torch():
    ref = torch_mha()
    mine = MultiHeadAttention.from_torch(ref)
    x_q, x_kv = random_x(T=3, seed=1), random_x(T=7, seed=2)
    real = padding_mask([7, 4], 7)
    expected, expected_w = ref(
        x_q, x_kv, x_kv, key_padding_mask=torch.as_tensor(~real), average_attn_weights=False
    )
    out, weights = mine(x_q, x_kv, key_padding_mask=real)
    torch.testing.assert_close(out, expected)
    torch.testing.assert_close(weights, expected_w)
    assert weights.shape == (2, H, 3, 7)


def test_averaged_weights_are_the_mean_over_heads():
    ref = torch_mha()
    x = random_x()
    _, averaged = ref(x, x, x)  # torch's default: mean over heads, (B, T_q, T_k)
    _, weights = MultiHeadAttention.from_torch(ref)(x)
    torch.testing.assert_close(weights.mean(dim=1), averaged)


def test_matches_sdpa_is_causal():
    mha = MultiHeadAttention(D, H).double()
    x = random_x(T=6)
    q, k, v = (split_heads(p(x), H) for p in (mha.q_proj, mha.k_proj, mha.v_proj))
    expected = mha.out_proj(merge_heads(F.scaled_dot_product_attention(q, k, v, is_causal=True)))
    out, weights = mha(x, mask=causal_mask(6))
    torch.testing.assert_close(out, expected)
    assert torch.all(weights.triu(diagonal=1) == 0)


def test_parameter_count_equals_one_d_by_d_projection_per_role():
    mha = MultiHeadAttention(D, H)
    assert sum(p.numel() for p in mha.parameters()) == 4 * (D * D + D)


def test_cache_gives_same_output_as_full_sequence():
    mha = MultiHeadAttention(D, H).double()
    x = random_x(T=6)
    full, _ = mha(x, mask=causal_mask(6))
    cache = KVCache()
    prefix, _ = mha(x[:, :4], mask=causal_mask(4), cache=cache)
    steps = [mha(x[:, t : t + 1], cache=cache)[0] for t in (4, 5)]  # one new query each
    assert len(cache) == 6
    torch.testing.assert_close(torch.cat([prefix, *steps], dim=1), full)


def test_error_heads_do_not_divide_width():
    with pytest.raises(ValueError, match=r"n_heads must divide d_model.*d_model=10, n_heads=4"):
        MultiHeadAttention(10, 4)
    with pytest.raises(ValueError, match=r"d_model=16, n_heads=3"):
        split_heads(random_x(), 3)


def test_error_wrong_rank_or_width():
    mha = MultiHeadAttention(D, H)
    with pytest.raises(ValueError, match=r"x_q must have shape \(B, T, d_model=16\); got \(5, 16"):
        mha(torch.zeros(5, D))
    with pytest.raises(ValueError, match=r"x_kv must have shape .*got \(2, 7, 8\)"):
        mha(torch.zeros(2, 3, D), torch.zeros(2, 7, 8))
    with pytest.raises(ValueError, match=r"split_heads expects \(B, T, D\)"):
        split_heads(torch.zeros(4, D), H)
    with pytest.raises(ValueError, match=r"merge_heads expects \(B, H, T, d_head\)"):
        merge_heads(torch.zeros(2, 3, D))


def test_error_masks():
    mha = MultiHeadAttention(D, H)
    x = torch.zeros(2, 3, D)
    with pytest.raises(ValueError, match="mask must be boolean"):
        mha(x, mask=torch.zeros(3, 3))
    with pytest.raises(ValueError, match=r"key_padding_mask must be \(B, T_k\)"):
        mha(x, key_padding_mask=np.ones(3, dtype=bool))
    with pytest.raises(ValueError, match=r"mask must be \(T_q, T_k\)"):
        mha(x, mask=np.ones(3, dtype=bool))
    with pytest.raises(ValueError, match=r"does not broadcast"):
        mha(x, mask=causal_mask(4))


def test_from_torch_refuses_what_it_cannot_copy():
    with pytest.raises(ValueError, match="kdim = vdim = embed_dim"):
        MultiHeadAttention.from_torch(nn.MultiheadAttention(D, H, kdim=8, vdim=8))


def test_a_3d_mask_of_mha_shape_is_refused_not_broadcast_into_a_bigger_batch():
    """(B·H, T, T) with B = 1 used to come back as a batch of H; now a clear error."""
    torch.manual_seed(0)
    mha = MultiHeadAttention(8, 2)
    x = torch.randn(1, 3, 8)
    mask = torch.ones(2, 3, 3, dtype=torch.bool)  # nn.MultiheadAttention's (B·H, T, T)
    with pytest.raises(ValueError, match=r"\(B·H, T_q, T_k\)"):
        mha(x, mask=mask)
    out, _ = mha(x, mask=mask[:1])  # (B, T, T) with B = 1 is fine
    assert out.shape == (1, 3, 8)
