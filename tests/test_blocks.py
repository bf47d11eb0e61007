"""helpers.blocks against torch.nn.LayerNorm, RMSNorm and Transformer{Encoder,Decoder}Layer."""

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from helpers.blocks import (
    DecoderBlock,
    FeedForward,
    LayerNorm,
    RMSNorm,
    TransformerBlock,
    count_parameters,
)
from helpers.masks import causal_mask, padding_mask, to_mha

D, H, D_FF = 16, 4, 32


def random_x(B=2, T=5, d=D, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(B, T, d, generator=g, dtype=torch.float64) * 3 + 1


def perturbed(module: nn.Module, seed=0) -> nn.Module:
    """float64, eval mode, every parameter nudged (so LayerNorm gamma != 1, biases != 0)."""
    torch.manual_seed(seed)
    module = module.double().eval()
    with torch.no_grad():
        for p in module.parameters():
            p.add_(0.1 * torch.randn_like(p))
    return module


def test_layernorm_matches_torch():
    ref = perturbed(nn.LayerNorm(D))
    mine = LayerNorm(D).double()
    mine.load_state_dict(ref.state_dict())  # weight = gamma, bias = beta
    x = random_x()
    torch.testing.assert_close(mine(x), ref(x))


def test_layernorm_by_hand_normalizes_each_position():
    x = random_x()
    y = LayerNorm(D).double()(x)  # gamma = 1, beta = 0
    torch.testing.assert_close(y.mean(-1), torch.zeros(2, 5, dtype=torch.float64))
    torch.testing.assert_close(
        y.var(-1, unbiased=False), torch.ones(2, 5, dtype=torch.float64), atol=1e-4, rtol=0
    )  # eps keeps it just under 1


def test_rmsnorm_matches_formula_and_torch():
    mine = perturbed(RMSNorm(D, eps=1e-6))
    x = random_x()
    expected = x / torch.sqrt((x**2).mean(-1, keepdim=True) + 1e-6) * mine.weight
    torch.testing.assert_close(mine(x), expected)
    if hasattr(nn, "RMSNorm"):
        ref = nn.RMSNorm(D, eps=1e-6).double()
        ref.load_state_dict(mine.state_dict())
        torch.testing.assert_close(mine(x), ref(x))


@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_feedforward_formula(activation):
    ffn = perturbed(FeedForward(D, D_FF, activation))
    x = random_x()
    act = F.relu if activation == "relu" else F.gelu
    expected = act(x @ ffn.up.weight.T + ffn.up.bias) @ ffn.down.weight.T + ffn.down.bias
    torch.testing.assert_close(ffn(x), expected)


def test_feedforward_swiglu():
    ffn = perturbed(FeedForward(D, D_FF, "swiglu", bias=False))
    x = random_x()
    expected = ffn.down(F.silu(ffn.gate(x)) * ffn.up(x))
    torch.testing.assert_close(ffn(x), expected)
    assert count_parameters(ffn) == 3 * D * D_FF


def torch_encoder(norm_first, activation, seed=0):
    layer = nn.TransformerEncoderLayer(
        D, H, D_FF, dropout=0.0, activation=activation, batch_first=True, norm_first=norm_first
    )
    return perturbed(layer, seed)


@pytest.mark.parametrize("norm_first", [True, False])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_block_matches_torch(norm_first, activation):
    ref = torch_encoder(norm_first, activation)
    mine = TransformerBlock.from_torch(ref)
    assert mine.norm_first is norm_first
    x = random_x()
    torch.testing.assert_close(mine(x), ref(x))


@pytest.mark.parametrize("norm_first", [True, False])
def test_causal_encoder_block_with_padding_matches_torch(norm_first):
    ref = torch_encoder(norm_first, "relu")
    mine = TransformerBlock.from_torch(ref, causal=True)
    x = random_x(T=6)
    real = padding_mask([6, 4], 6)
    expected = ref(
        x,
        src_mask=torch.as_tensor(to_mha(causal_mask(6))),
        src_key_padding_mask=torch.as_tensor(to_mha(real)),
    )
    out = mine(x, key_padding_mask=real)
    torch.testing.assert_close(out[0], expected[0])
    torch.testing.assert_close(out[1, :4], expected[1, :4])  # torch's fast path may zero pads


def test_pre_norm_ffn_reads_h_not_x():
    block = perturbed(TransformerBlock(D, H, D_FF, norm_first=True))
    x = random_x()
    h = x + block.attn(block.ln1(x))[0]
    torch.testing.assert_close(block(x), h + block.ffn(block.ln2(h)))


@pytest.mark.parametrize("norm_first", [True, False])
def test_decoder_block_matches_torch(norm_first):
    ref = perturbed(
        nn.TransformerDecoderLayer(D, H, D_FF, dropout=0.0, batch_first=True, norm_first=norm_first)
    )
    mine = DecoderBlock.from_torch(ref)
    x, memory = random_x(T=5, seed=1), random_x(T=7, seed=2)
    mem_real = padding_mask([7, 5], 7)
    expected = ref(
        x,
        memory,
        tgt_mask=torch.as_tensor(to_mha(causal_mask(5))),  # True = blocked
        memory_key_padding_mask=torch.as_tensor(to_mha(mem_real)),
    )
    torch.testing.assert_close(mine(x, memory, memory_key_padding_mask=mem_real), expected)


def test_decoder_block_is_causal():
    block = perturbed(DecoderBlock(D, H, D_FF))
    x, memory = random_x(T=5), random_x(T=3, seed=1)
    changed = x.clone()
    changed[:, 3] += 1.0  # perturb a future token
    out, out2 = block(x, memory), block(changed, memory)
    torch.testing.assert_close(out[:, :3], out2[:, :3])  # earlier positions do not move
    assert not torch.allclose(out[:, 3:], out2[:, 3:])


def test_parameter_count_of_one_layer():
    block = TransformerBlock(D, H, D_FF)
    attn = 4 * (D * D + D)  # W_Q, W_K, W_V, W_O with biases
    ffn = D * D_FF + D_FF + D_FF * D + D
    norms = 2 * 2 * D  # gamma and beta, twice
    assert count_parameters(block) == attn + ffn + norms == 4 * D * D + 2 * D * D_FF + D_FF + 9 * D
    assert count_parameters(block) == count_parameters(torch_encoder(True, "relu"))
    decoder = DecoderBlock(D, H, D_FF)
    assert count_parameters(decoder) == 2 * attn + ffn + 3 * 2 * D


def test_ffn_is_most_of_a_layer_with_d_ff_4d():
    d = 64
    block = TransformerBlock(d, 4, 4 * d)
    share = count_parameters(block.ffn) / count_parameters(block)
    assert 0.6 < share < 0.7  # about two thirds


def test_errors():
    with pytest.raises(ValueError, match=r"LayerNorm expects features of width 16; got shape"):
        LayerNorm(D)(torch.zeros(2, 8))
    with pytest.raises(ValueError, match=r"RMSNorm expects features of width 16"):
        RMSNorm(D)(torch.zeros(2, 8))
    with pytest.raises(ValueError, match=r"activation must be one of .*got 'tanh'"):
        FeedForward(D, D_FF, "tanh")
    with pytest.raises(ValueError, match=r"n_heads must divide d_model"):
        TransformerBlock(D, 3, D_FF)
    with pytest.raises(ValueError, match=r"x_q must have shape \(B, T, d_model=16\)"):
        TransformerBlock(D, H, D_FF, norm_first=False)(torch.zeros(2, 3, 8))
    with pytest.raises(ValueError, match=r"LayerNorm expects features of width 16"):
        TransformerBlock(D, H, D_FF, norm_first=True)(torch.zeros(2, 3, 8))
