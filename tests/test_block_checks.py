"""helpers.checks.block: references pass with one line, stubs propagate NotImplementedError."""

import pytest
import torch
import torch.nn.functional as F
from check_contract import contract_tests

from helpers.blocks import LayerNorm, TransformerBlock, count_parameters
from helpers.checks import block


def layer_norm(x, gamma, beta, eps=1e-5):
    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)


def feed_forward(x, W1, b1, W2, b2, activation):
    return F.linear(activation(F.linear(x, W1.T, b1)), W2.T, b2)


def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * (x @ W_up)) @ W_down


def pre_norm_block(x, layer):
    mine = TransformerBlock.from_torch(layer)  # the helpers block, built from the layer's parts
    return mine(x)


def layer_parameters(d_model, n_heads, d_ff):
    with torch.device("meta"):
        return count_parameters(torch.nn.TransformerEncoderLayer(d_model, n_heads, d_ff))


REFERENCES = [
    (block.check_layer_norm, layer_norm),
    (block.check_feed_forward, feed_forward),
    (block.check_swiglu_ffn, swiglu_ffn),
    (block.check_pre_norm_block, pre_norm_block),
    (block.check_layer_parameters, layer_parameters),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


def test_numpy_results_are_accepted():
    block.check_layer_norm(lambda x, g, b, eps=1e-5: layer_norm(x, g, b, eps).numpy())


def test_calling_the_whole_layer_is_refused():
    with pytest.raises(AssertionError, match="called the whole layer"):
        block.check_pre_norm_block(lambda x, layer: layer(x))


def test_an_unlisted_wrong_answer_is_diagnosed_by_its_relation_to_the_reference():
    def off_by_a_bit(x, gamma, beta, eps=1e-5):
        return LayerNorm(x.shape[-1], eps).double()(x) * gamma + beta + 0.01

    with pytest.raises(AssertionError, match="every value is the reference plus 0.01"):
        block.check_layer_norm(off_by_a_bit)


def test_a_wrong_type_is_named():
    with pytest.raises(AssertionError, match="return a number"):
        block.check_layer_parameters(lambda d, h, f: "many")
