import numpy as np
import pytest
import torch
import torch.nn as nn

from helpers.masks import additive_bias, causal_mask, padding_mask, to_mha, to_sdpa


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
