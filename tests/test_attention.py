"""helpers.attention against torch.nn.functional.scaled_dot_product_attention."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from helpers.attention import attention, scores, softmax
from helpers.masks import causal_mask, padding_mask


def random_qkv(*lead, T_q=5, T_k=5, d_k=8, d_v=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(*lead, T_q, d_k, generator=g, dtype=torch.float64)
    k = torch.randn(*lead, T_k, d_k, generator=g, dtype=torch.float64)
    v = torch.randn(*lead, T_k, d_v, generator=g, dtype=torch.float64)
    return q, k, v


@pytest.mark.parametrize("lead", [(), (3,), (2, 4)])
@pytest.mark.parametrize("kind", ["numpy", "torch"])
@pytest.mark.parametrize("masked", ["none", "causal", "padding"])
def test_matches_sdpa(lead, kind, masked):
    q, k, v = random_qkv(*lead)
    T = q.shape[-2]
    mask = None
    if masked == "causal":
        mask = causal_mask(T)
    elif masked == "padding":
        mask = padding_mask([3], T)  # (1, T_k): keys 0..2 are real, for every query
    expected = F.scaled_dot_product_attention(
        q, k, v, attn_mask=None if mask is None else torch.as_tensor(mask)
    )
    args = (q, k, v) if kind == "torch" else tuple(t.numpy() for t in (q, k, v))
    out, weights = attention(*args, mask=mask)
    assert isinstance(out, torch.Tensor if kind == "torch" else np.ndarray)
    assert isinstance(weights, type(out))
    np.testing.assert_allclose(np.asarray(out), expected.numpy(), atol=1e-12)
    np.testing.assert_allclose(np.asarray(weights).sum(-1), 1.0, atol=1e-12)


def test_is_causal_matches_sdpa():
    q, k, v = random_qkv(2, T_q=6, T_k=6)
    out, weights = attention(q, k, v, mask=torch.as_tensor(causal_mask(6)))
    expected = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.testing.assert_close(out, expected)
    assert torch.all(weights.triu(diagonal=1) == 0)


def test_cross_attention_lengths_and_custom_scale():
    q, k, v = random_qkv(T_q=3, T_k=7, d_v=2)
    out, weights = attention(q, k, v, scale=0.25)
    expected = F.scaled_dot_product_attention(q, k, v, scale=0.25)
    torch.testing.assert_close(out, expected)
    assert out.shape == (3, 2) and weights.shape == (3, 7)


def test_torch_gradients_flow():
    q, k, v = (t.requires_grad_() for t in random_qkv(T_q=4, T_k=4))
    out, _ = attention(q, k, v, mask=causal_mask(4))
    out.sum().backward()
    assert all(t.grad is not None and torch.isfinite(t.grad).all() for t in (q, k, v))


def test_softmax_is_stable_for_large_scores():
    x = np.array([[1000.0, 1001.0, 1002.0]])
    np.testing.assert_allclose(softmax(x), softmax(x - 1000.0))
    assert np.isfinite(softmax(x)).all()
    t = torch.tensor([[1000.0, 1001.0]])
    torch.testing.assert_close(softmax(t), torch.softmax(t, -1))


def test_softmax_axis():
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(softmax(x, axis=0).sum(axis=0), 1.0)


def test_error_width_mismatch():
    q, k, v = random_qkv(d_k=4)
    with pytest.raises(ValueError, match=r"same width d_k.*q width 4.*k width 3"):
        attention(q, k[..., :3], v)


def test_error_key_value_length_mismatch():
    q, k, v = random_qkv(T_k=5)
    with pytest.raises(ValueError, match=r"same number of positions.*k with 5.*v with 4"):
        attention(q, k, v[:4])


def test_error_mask_does_not_broadcast():
    q, k, v = random_qkv(T_q=5, T_k=5)
    with pytest.raises(ValueError, match=r"mask of shape \(4, 4\) does not broadcast.*\(5, 5\)"):
        attention(q.numpy(), k.numpy(), v.numpy(), mask=causal_mask(4))


def test_error_fully_masked_row_names_the_row():
    q, k, v = random_qkv(T_q=4, T_k=4)
    mask = causal_mask(4)
    mask[2] = False
    with pytest.raises(ValueError, match=r"query row 2 has no allowed key"):
        attention(q, k, v, mask=mask)


def test_error_fully_masked_row_in_batch_names_the_leading_index():
    q, k, v = random_qkv(2, T_q=3, T_k=3)
    mask = np.ones((2, 3, 3), dtype=bool)
    mask[1, 0] = False
    with pytest.raises(ValueError, match=r"query row 0 at leading index \(1,\)"):
        attention(q.numpy(), k.numpy(), v.numpy(), mask=mask)


def test_error_float_mask():
    q, k, v = random_qkv()
    with pytest.raises(ValueError, match="mask must be boolean"):
        attention(q, k, v, mask=torch.zeros(5, 5))


def test_error_too_few_axes_and_mixed_kinds():
    with pytest.raises(ValueError, match="at least 2 axes"):
        attention(np.ones(4), np.ones((2, 4)), np.ones((2, 3)))
    q, k, v = random_qkv()
    with pytest.raises(TypeError, match="all be NumPy arrays or all be torch"):
        attention(q, k.numpy(), v)


@pytest.mark.parametrize("kind", ["numpy", "torch"])
def test_additive_bias_matches_sdpa_float_mask(kind):
    q, k, v = random_qkv(2, T_q=4, T_k=4)
    bias = torch.randn(4, 4, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    args = (q, k, v, bias) if kind == "torch" else tuple(t.numpy() for t in (q, k, v, bias))
    out, _ = attention(*args[:3], bias=args[3], mask=causal_mask(4))
    masked = bias.masked_fill(~torch.as_tensor(causal_mask(4)), float("-inf"))
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=masked)
    np.testing.assert_allclose(np.asarray(out), expected.numpy(), atol=1e-12)


def test_error_bias_does_not_broadcast():
    q, k, v = random_qkv(T_q=5, T_k=5)
    with pytest.raises(ValueError, match=r"bias of shape \(3, 3\) does not broadcast"):
        attention(q, k, v, bias=torch.zeros(3, 3))


def test_a_stack_of_masks_needs_inputs_with_that_leading_axis():
    """A mask may not enlarge the output: (2, T, T) masks need q, k, v with a leading 2."""
    q, k, v = random_qkv(T_q=4, T_k=4)
    masks = np.stack([causal_mask(4), np.ones((4, 4), dtype=bool)])  # (2, T, T)
    with pytest.raises(ValueError, match="does not broadcast to the scores' shape"):
        attention(q, k, v, mask=masks)
    out, weights = attention(q.expand(2, 4, -1), k.expand(2, 4, -1), v.expand(2, 4, -1), masks)
    assert out.shape == (2, 4, 6) and weights.shape == (2, 4, 4)
    for i, m in enumerate(masks):
        torch.testing.assert_close(out[i], attention(q, k, v, mask=m)[0])


def test_scores_are_the_scaled_dot_products():
    q = np.array([[1.0, 0.0], [0.0, 2.0]])
    k = np.array([[3.0, 4.0], [1.0, 1.0], [0.0, -1.0]])
    expected = np.array([[3.0, 1.0, 0.0], [8.0, 2.0, -2.0]]) / np.sqrt(2)  # by hand
    np.testing.assert_allclose(scores(q, k), expected)
    np.testing.assert_allclose(scores(q, k, scale=1.0), expected * np.sqrt(2))
    assert scores(torch.as_tensor(q), torch.as_tensor(k)).shape == (2, 3)


def test_a_mask_or_bias_larger_than_the_scores_is_refused():
    q = np.ones((2, 4, 3))
    with pytest.raises(ValueError, match=r"does not broadcast to the scores' shape \(2, 4, 4\)"):
        attention(q, q, q, mask=np.ones((6, 4, 4), bool))
    with pytest.raises(ValueError, match="bias of shape"):
        attention(q, q, q, bias=np.zeros((3, 2, 4, 4)))
    out, _ = attention(q, q, q, mask=np.ones((1, 4, 4), bool), bias=np.zeros((4, 4)))
    assert out.shape == (2, 4, 3)


def test_a_numpy_bias_follows_q_to_its_device_and_dtype():
    q = torch.ones(2, 4, 3, dtype=torch.float64, device="meta")
    out, weights = attention(q, q, q, bias=np.zeros((4, 4)))
    assert out.device.type == "meta" and weights.dtype == torch.float64


def test_a_per_sequence_mask_with_heads_is_refused_as_ambiguous_not_misread():
    """(B, T, T) against (B, H, T, T) scores would line up B with H (as in SDPA), silently
    giving sequence 0's mask to head 0 of every sequence when B == H."""
    q = torch.randn(2, 2, 3, 4, generator=torch.Generator().manual_seed(0))  # (B, H, T, d)
    per_sequence = torch.ones(2, 3, 3, dtype=torch.bool).tril()
    per_sequence[1] = True                                   # sequence 1 reads everything
    with pytest.raises(ValueError, match=r"ambiguous.*mask\[:, None\], shape \(B, 1, T_q, T_k\)"):
        attention(q, q, q, mask=per_sequence)
    _, weights = attention(q, q, q, mask=per_sequence[:, None])   # as the message says
    above = torch.triu_indices(3, 3, 1)                       # the keys after each query
    assert (weights[0][:, above[0], above[1]] == 0).all()    # sequence 0: causal, every head
    assert (weights[1][:, above[0], above[1]] > 0).all()     # sequence 1: reads them all
    out, _ = attention(q, q, q, mask=per_sequence[:1])      # one mask for all: still fine
    assert out.shape == q.shape
