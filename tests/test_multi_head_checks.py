"""helpers.checks.multi_head: references pass with one line, stubs propagate
NotImplementedError, and the checks do not depend on how a right answer is written."""

import pytest
import torch
from check_contract import contract_tests

from helpers.attention import attention
from helpers.blocks import count_parameters
from helpers.checks import multi_head
from helpers.heads import MultiHeadAttention, merge_heads, split_heads


def per_head_loop(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    cut = [slice(h * d, (h + 1) * d) for h in range(n_heads)]
    return torch.cat([attention(q[..., c], k[..., c], v[..., c], mask)[0] for c in cut], dim=-1)


def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    return merge_heads(attention(q, k, v, mask)[0]) @ w["W_o"] + w["b_o"]


def parameters(d_model, n_heads, bias=True):
    return count_parameters(MultiHeadAttention(d_model, n_heads, bias=bias))


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    token = torch.arange(B * T, dtype=torch.float64).view(B, T, 1).expand(B, T, D)
    heads = split(token.clone(), n_heads)  # (B, H, T, d_head)
    return not bool((heads == token[:, None, :, :1]).all())


REFERENCES = [
    (multi_head.check_split_heads, split_heads),
    (multi_head.check_merge_heads, merge_heads),
    (multi_head.check_per_head_attention, per_head_loop),
    (multi_head.check_attention_parameters, parameters),
    (multi_head.check_mha_forward, mha_forward),
    (multi_head.check_mixes_tokens, mixes_tokens),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


def test_reshape_and_permute_answers_pass(capsys):
    def split(x, n_heads):
        B, T, D = x.shape
        return x.reshape(B, T, n_heads, D // n_heads).permute(0, 2, 1, 3)

    def merge(x):
        B, H, T, d = x.shape
        return x.permute(0, 2, 1, 3).reshape(B, T, H * d)

    multi_head.check_split_heads(split)
    multi_head.check_merge_heads(merge)
    assert capsys.readouterr().out.count("✔") == 2


def test_torch_module_answer_passes(capsys):
    """Loading the weights into nn.MultiheadAttention itself is a right answer too."""
    def via_torch(x, w, n_heads, mask=None):
        D = x.shape[-1]
        mha = torch.nn.MultiheadAttention(D, n_heads, batch_first=True).double()
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.cat([w["W_q"].T, w["W_k"].T, w["W_v"].T]))
            mha.in_proj_bias.copy_(torch.cat([w["b_q"], w["b_k"], w["b_v"]]))
            mha.out_proj.weight.copy_(w["W_o"].T)
            mha.out_proj.bias.copy_(w["b_o"])
            return mha(x, x, x, attn_mask=None if mask is None else ~mask)[0]

    multi_head.check_mha_forward(via_torch)
    assert capsys.readouterr().out.startswith("✔")


def test_merge_without_contiguous_is_named():
    def merge(x):
        B, H, T, d = x.shape
        return x.transpose(1, 2).view(B, T, H * d)

    with pytest.raises(AssertionError, match="contiguous"):
        multi_head.check_merge_heads(merge)


def test_shape_only_detector_is_told_it_never_fires():
    with pytest.raises(AssertionError, match="never fires"):
        multi_head.check_mixes_tokens(lambda split: False)
