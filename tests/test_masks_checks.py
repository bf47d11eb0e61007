"""helpers.checks.masks: references pass with one line, stubs propagate NotImplementedError."""

import numpy as np
from check_contract import contract_tests

from helpers.attention import attention, softmax
from helpers.checks import masks
from helpers.masks import additive_bias, causal_mask, leaks_future, padding_mask


def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, w = attention(q, k, v, mask | dead[..., None])
    return np.where(dead[..., None], 0.0, out), np.where(dead[..., None], 0.0, w)


def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    return np.broadcast_to(keys & causal_mask(T) if causal else keys, (len(lengths), T, T))


REFERENCES = [
    (masks.check_causal_mask, causal_mask),
    (masks.check_masked_weights, lambda s, m: softmax(s + additive_bias(m))),
    (masks.check_reversed_causal_mask, lambda T: causal_mask(T).T),
    (masks.check_reads_future, lambda attend, x: bool(leaks_future(attend, x).any())),
    (masks.check_batch_mask, batch_mask),
    (masks.check_safe_attention, safe_attention),
]




test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


def test_torch_mask_is_accepted():
    import torch

    masks.check_causal_mask(lambda T: torch.ones(T, T, dtype=torch.bool).tril())
