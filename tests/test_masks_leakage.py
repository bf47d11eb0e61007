"""helpers.masks.leaks_future: perturb each later token, report which earlier outputs move."""

import numpy as np
import pytest
import torch
import torch.nn as nn

from helpers.attention import attention
from helpers.masks import causal_mask, leaks_future, to_mha

T, D = 5, 6
rng = np.random.default_rng(0)
X = rng.normal(size=(T, D))
WQ, WK, WV = (rng.normal(size=(D, 4)) / np.sqrt(D) for _ in range(3))


def layer(mask):
    return lambda x: attention(x @ WQ, x @ WK, x @ WV, mask)[0]


def test_causal_mask_does_not_leak():
    assert not leaks_future(layer(causal_mask(T)), X).any()


def test_reversed_and_missing_masks_leak_everywhere_above_the_diagonal():
    upper = np.triu(np.ones((T, T), dtype=bool), k=1)
    assert (leaks_future(layer(np.triu(causal_mask(T).T)), X) == upper).all()
    assert (leaks_future(layer(None), X) == upper).all()


def test_a_single_leak_is_located():
    mask = causal_mask(T)
    mask[2, 3] = True  # position 2 may read position 3, nothing else is wrong
    moved = leaks_future(layer(mask), X)
    assert np.argwhere(moved).tolist() == [[2, 3]]


def test_torch_module_batch_and_input_untouched():
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(D, 2, batch_first=True)
    x = torch.randn(2, T, D)
    before = x.clone()
    blocked = to_mha(torch.as_tensor(causal_mask(T)))
    assert not leaks_future(lambda x: mha(x, x, x, attn_mask=blocked)[0], x).any()
    assert leaks_future(lambda x: mha(x, x, x)[0], x)[0, T - 1]
    assert torch.equal(x, before)


def test_token_ids_need_their_own_perturbation():
    torch.manual_seed(0)
    embed, mha = nn.Embedding(10, D), nn.MultiheadAttention(D, 1, batch_first=True)
    ids = torch.tensor([[1, 2, 3, 4, 5]])

    def model(ids):  # (B, T) ids -> (B, T, D)
        h = embed(ids)
        return mha(h, h, h)[0]

    with pytest.raises(ValueError, match="perturb="):
        leaks_future(model, ids, axis=-1)

    def swap(ids, j):
        ids = ids.clone()
        ids[:, j] = (ids[:, j] + 1) % 10
        return ids

    assert leaks_future(model, ids, axis=-1, perturb=swap)[np.triu_indices(T, k=1)].all()


def test_rejects_outputs_without_positions():
    with pytest.raises(ValueError, match="positions on axis -2"):
        leaks_future(lambda x: x.sum(axis=-2), X)


def test_default_change_survives_a_layer_norm():
    # A constant shift of one token's features is erased by LayerNorm; the default change is not.
    torch.manual_seed(0)
    norm = torch.nn.LayerNorm(6)
    x = torch.randn(5, 6)

    def read_everything(x):
        return norm(x).mean(dim=-2, keepdim=True).expand(5, 6)  # every output reads every token

    leaks = leaks_future(read_everything, x)
    assert leaks[np.triu_indices(5, k=1)].all()
