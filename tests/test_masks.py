import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right, causal_upper_left

from helpers.masks import (
    additive_bias,
    causal_mask,
    chunk_causal_mask,
    padding_mask,
    sink_window_mask,
    sliding_window_mask,
    to_mha,
    to_sdpa,
)


def test_causal_mask_keeps_lower_triangle():
    m = causal_mask(4)
    assert m.dtype == bool and m.shape == (4, 4)
    assert m[3].all() and m[0].tolist() == [True, False, False, False]
    assert not m[np.triu_indices(4, k=1)].any()


def test_causal_mask_rejects_bad_length():
    with pytest.raises(ValueError, match="positive whole number"):
        causal_mask(0)


def test_padding_mask():
    m = padding_mask([2, 4], 4)
    assert m.tolist() == [[True, True, False, False], [True, True, True, True]]
    with pytest.raises(ValueError, match="1..T=4"):
        padding_mask([5], 4)


def test_additive_bias_numpy_and_torch():
    m = causal_mask(3)
    bias = additive_bias(m)
    assert bias[0, 0] == 0 and np.isneginf(bias[0, 1])
    tb = additive_bias(torch.as_tensor(m))
    assert isinstance(tb, torch.Tensor) and torch.isneginf(tb[0, 2]) and tb[2, 0] == 0
    with pytest.raises(ValueError, match="boolean"):
        additive_bias(np.zeros((2, 2)))


def test_conventions_roundtrip_and_match_torch_modules():
    sdpa = torch.as_tensor(causal_mask(4))
    mha = to_mha(sdpa)
    assert torch.equal(to_sdpa(mha), sdpa)
    # nn.MultiheadAttention blocks where True; with the converted mask it equals SDPA causal.
    torch.manual_seed(0)
    layer = nn.MultiheadAttention(8, 2, batch_first=True)
    x = torch.randn(1, 4, 8)
    _, w = layer(x, x, x, attn_mask=mha)
    assert torch.all(w[0].triu(diagonal=1) == 0)
    with pytest.raises(ValueError, match="boolean"):
        to_mha(torch.zeros(2, 2))


def test_additive_bias_stays_on_the_masks_device():
    mask = torch.ones(2, 2, dtype=torch.bool, device="meta")
    assert additive_bias(mask).device.type == "meta"


@pytest.mark.parametrize("T_q, T_k", [(1, 1), (1, 6), (3, 7), (5, 5), (4, 9)])
def test_chunk_causal_mask_equals_torchs_lower_right_bias(T_q, T_k):
    m = chunk_causal_mask(T_q, T_k)
    assert m.dtype == bool and m.shape == (T_q, T_k)
    want = causal_lower_right(T_q, T_k)._materialize()
    np.testing.assert_array_equal(m, want.numpy())
    # and SDPA with the mask gives SDPA with torch's lower-right bias
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, n, 4, generator=g) for n in (T_q, T_k, T_k))
    torch.testing.assert_close(
        F.scaled_dot_product_attention(q, k, v, attn_mask=torch.as_tensor(m)),
        F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(T_q, T_k)),
    )
    if T_q < T_k:  # is_causal=True aligns top-left: a different mask
        assert not np.array_equal(m, causal_upper_left(T_q, T_k)._materialize().numpy())
    if T_q == T_k:
        np.testing.assert_array_equal(m, causal_mask(T_q))


def test_chunk_causal_mask_of_one_decoding_step_reads_everything():
    assert chunk_causal_mask(1, 4).tolist() == [[True, True, True, True]]
    assert chunk_causal_mask(2, 4).tolist() == [[True, True, True, False], [True] * 4]


@pytest.mark.parametrize("T_q, T_k, match", [(3, 2, "T_q <= T_k; got T_q=3, T_k=2"),
                                             (0, 2, "T_q must be a positive"),
                                             (1, 2.5, "T_k must be a positive")])
def test_chunk_causal_mask_errors(T_q, T_k, match):
    with pytest.raises(ValueError, match=match):
        chunk_causal_mask(T_q, T_k)


def test_sink_window_mask_on_small_cases():
    # window 2, one sink: the last two keys and key 0
    assert np.array_equal(sink_window_mask(5, 2, 1), np.array([
        [1, 0, 0, 0, 0],
        [1, 1, 0, 0, 0],
        [1, 1, 1, 0, 0],
        [1, 0, 1, 1, 0],
        [1, 0, 0, 1, 1],
    ], dtype=bool))
    # two sinks and a window of one: only the diagonal plus keys 0 and 1 of the past
    assert np.array_equal(sink_window_mask(4, 1, 2), np.array([
        [1, 0, 0, 0],
        [1, 1, 0, 0],
        [1, 1, 1, 0],
        [1, 1, 0, 1],
    ], dtype=bool))
    np.testing.assert_array_equal(sink_window_mask(6, 3, 0), sliding_window_mask(6, 3))
    np.testing.assert_array_equal(sink_window_mask(6, 6, 2), causal_mask(6))
    with pytest.raises(ValueError, match="n_sink must be a non-negative whole number"):
        sink_window_mask(4, 2, -1)
    with pytest.raises(ValueError, match="window must be a positive"):
        sink_window_mask(4, 0, 1)
