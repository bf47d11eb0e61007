"""helpers.checks.block: references pass with one line, stubs propagate NotImplementedError,
valid variants pass, the rules hold and unlisted mistakes meet the property they break."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from check_contract import contract_tests

from helpers.blocks import LayerNorm
from helpers.checks import block


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta


def layer_norm_var_mean(x, gamma, beta, eps=1e-5):
    var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
    return gamma * (x - mean) * torch.rsqrt(var + eps) + beta


def layer_norm_numpy(x, gamma, beta, eps=1e-5):
    x, gamma, beta = (np.asarray(a) for a in (x, gamma, beta))
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(x.var(axis=-1, keepdims=True) + eps) * gamma + beta


def layer_norm_loop(x, gamma, beta, eps=1e-5):
    flat = x.reshape(-1, x.shape[-1])
    rows = []
    for row in flat:
        mu = row.sum() / len(row)
        var = ((row - mu) ** 2).sum() / len(row)
        rows.append((row - mu) / (var + eps) ** 0.5 * gamma + beta)
    return torch.stack(rows).reshape(x.shape)


def feed_forward(x, W1, b1, W2, b2, activation):
    return F.linear(activation(F.linear(x, W1.T, b1)), W2.T, b2)


def feed_forward_einsum(x, W1, b1, W2, b2, activation):
    hidden = activation(torch.einsum("...d,df->...f", x, W1) + b1)
    return torch.einsum("...f,fd->...d", hidden, W2) + b2


def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * (x @ W_up)) @ W_down


def swiglu_by_hand(x, W_gate, W_up, W_down):
    z = torch.matmul(x, W_gate)
    return torch.matmul(z * torch.sigmoid(z) * torch.matmul(x, W_up), W_down)


def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]

    h = x + attn(layer.norm1(x))
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))


def pre_norm_block_weights(x, layer):
    h = x + layer.self_attn(*(layer.norm1(x),) * 3)[0]  # need_weights left at its default
    z = layer.norm2(h)
    return h + F.linear(layer.activation(F.linear(z, layer.linear1.weight, layer.linear1.bias)),
                        layer.linear2.weight, layer.linear2.bias)


def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    return attention + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model


REFERENCES = [
    (block.check_layer_norm, layer_norm),
    (block.check_layer_norm, layer_norm_var_mean),
    (block.check_layer_norm, layer_norm_loop),
    (block.check_feed_forward, feed_forward),
    (block.check_feed_forward, feed_forward_einsum),
    (block.check_swiglu_ffn, swiglu_ffn),
    (block.check_swiglu_ffn, swiglu_by_hand),
    (block.check_pre_norm_block, pre_norm_block),
    (block.check_pre_norm_block, pre_norm_block_weights),
    (block.check_layer_parameters, layer_parameters),
    (block.check_layer_parameters, lambda d, h, f: torch.tensor(layer_parameters(d, h, f))),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


@pytest.mark.parametrize("answer", [
    lambda x, g, b, eps=1e-5: layer_norm(x, g, b, eps).numpy(),
    layer_norm_numpy,
])
def test_numpy_results_are_refused_as_the_text_says_tensors(answer):
    """Issue 20: lesson 07's exercises are PyTorch throughout; a NumPy result is named."""
    with pytest.raises(AssertionError, match="returned a NumPy array: return a torch tensor"):
        block.check_layer_norm(answer)


@pytest.mark.parametrize("answer", [
    lambda x, g, b, eps=1e-5: F.layer_norm(x, x.shape[-1:], g, b, eps),
    lambda x, g, b, eps=1e-5: torch.layer_norm(x, x.shape[-1:], g, b, eps),
    lambda x, g, b, eps=1e-5: LayerNorm(x.shape[-1], eps).double()(x) * g + b,
])
def test_a_library_layer_norm_is_refused(answer):
    with pytest.raises(AssertionError, match="Write LayerNorm yourself"):
        block.check_layer_norm(answer)


def test_nn_layer_norm_is_refused():
    def with_module(x, gamma, beta, eps=1e-5):
        ln = torch.nn.LayerNorm(x.shape[-1], eps=eps).double()
        with torch.no_grad():
            ln.weight.copy_(gamma)
            ln.bias.copy_(beta)
        return ln(x)

    with pytest.raises(AssertionError, match="calls LayerNorm"):
        block.check_layer_norm(with_module)


def test_calling_the_whole_layer_is_refused():
    with pytest.raises(AssertionError, match="called the whole layer"):
        block.check_pre_norm_block(lambda x, layer: layer(x))


def test_a_helpers_block_built_from_the_layer_is_refused():
    from helpers.blocks import TransformerBlock

    with pytest.raises(AssertionError, match="Build the block from the layer's parts"):
        block.check_pre_norm_block(lambda x, layer: TransformerBlock.from_torch(layer)(x))


def test_an_unlisted_wrong_answer_is_diagnosed_by_its_relation_to_the_reference():
    def off_by_a_bit(x, gamma, beta, eps=1e-5):
        return layer_norm(x, gamma, beta, eps) + 0.01

    with pytest.raises(AssertionError, match="has mean 0.01 instead of 0: a constant is added"):
        block.check_layer_norm(off_by_a_bit)


def test_a_wrong_type_is_named():
    with pytest.raises(AssertionError, match="return a number"):
        block.check_layer_parameters(lambda d, h, f: "many")


def test_an_input_changed_in_place_is_named():
    def in_place(x, gamma, beta, eps=1e-5):
        x -= x.mean(dim=-1, keepdim=True)
        return x / torch.sqrt((x**2).mean(dim=-1, keepdim=True) + eps) * gamma + beta

    with pytest.raises(AssertionError, match="changed its argument `x` in place"):
        block.check_layer_norm(in_place)


def test_a_float_count_is_refused():
    """The exercise asks for an int: a count through d_model / n_heads comes back a float."""
    with pytest.raises(AssertionError, match="not an int"):
        block.check_layer_parameters(lambda d, h, f: float(layer_parameters(d, h, f)))


def test_a_missing_keepdim_is_named_not_raised():
    def no_keepdim(x, gamma, beta, eps=1e-5):
        mu = x.mean(dim=-1)
        var = ((x - mu[..., None]) ** 2).mean(dim=-1)
        return (x - mu) / torch.sqrt(var + eps) * gamma + beta

    with pytest.raises(AssertionError, match="keepdim=True"):
        block.check_layer_norm(no_keepdim)


def test_a_float32_layer_norm_is_named_as_precision():
    def in_float32(x, gamma, beta, eps=1e-5):
        x, g, b = (torch.as_tensor(t).float() for t in (x, gamma, beta))
        mean, var = x.mean(-1, keepdim=True), x.var(-1, keepdim=True, unbiased=False)
        return ((x - mean) / torch.sqrt(var + eps) * g + b).double()

    with pytest.raises(AssertionError, match="right to about 3 digits"):
        block.check_layer_norm(in_float32)
