"""The lesson 06 checks accept the reference implementations and let a stub's error through."""

import itertools

import numpy as np
from check_contract import contract_tests

from helpers.attention import attention
from helpers.checks import position
from helpers.positions import alibi_bias, apply_rope, sinusoidal_encoding


def all_orders(attend, x):
    base = attend(x)
    return all(
        np.allclose(attend(x[list(order)]), base[list(order)])
        for order in itertools.permutations(range(len(x)))
    )


def rope_attention(q, k, v, positions):
    return attention(apply_rope(q, positions=positions), apply_rope(k, positions=positions), v)


REFERENCES = [
    (position.check_is_permutation_equivariant, all_orders),
    (position.check_sinusoidal, sinusoidal_encoding),
    (position.check_rope, apply_rope),
    (position.check_rope_attention, rope_attention),
    (position.check_alibi_bias, alibi_bias),
]
test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


def test_rope_check_accepts_a_torch_answer():
    import torch

    position.check_rope(lambda x: apply_rope(torch.as_tensor(x)))
