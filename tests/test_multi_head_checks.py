"""helpers.checks.multi_head: references pass with one line, stubs propagate
NotImplementedError, and the checks do not depend on how a right answer is written."""

import math

import pytest
import torch
from check_contract import contract_tests

from helpers.attention import attention, softmax
from helpers.checks import core, multi_head
from helpers.heads import merge_heads, split_heads


def my_split(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).transpose(1, 2)


def my_merge(x):
    B, H, T, d = x.shape
    return x.transpose(1, 2).contiguous().view(B, T, H * d)


def per_head_loop(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    cut = [slice(h * d, (h + 1) * d) for h in range(n_heads)]
    return torch.cat([attention(q[..., c], k[..., c], v[..., c], mask)[0] for c in cut], dim=-1)


def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]


def parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    token = torch.arange(B * T, dtype=torch.float64).view(B, T, 1).expand(B, T, D)
    heads = split(token.clone(), n_heads)  # (B, H, T, d_head)
    return not bool((heads == token[:, None, :, :1]).all())


REFERENCES = [
    (multi_head.check_split_heads, my_split),
    (multi_head.check_merge_heads, my_merge),
    (multi_head.check_per_head_attention, per_head_loop),
    (multi_head.check_attention_parameters, parameters),
    (multi_head.check_mha_forward, mha_forward),
    (multi_head.check_mixes_tokens, mixes_tokens),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


# ---------------------------------------------------------------- valid variants


def split_reshape_permute(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads).permute(0, 2, 1, 3)


def split_by_slices(x, n_heads):
    d = x.shape[-1] // n_heads
    return torch.stack([x[..., h * d:(h + 1) * d] for h in range(n_heads)], dim=1)


def split_unflatten(x, n_heads):
    return x.unflatten(-1, (n_heads, -1)).transpose(1, 2)


def merge_reshape(x):
    B, H, T, d = x.shape
    return x.permute(0, 2, 1, 3).reshape(B, T, H * d)


def merge_cat(x):
    return torch.cat(list(x.unbind(dim=1)), dim=-1)


def merge_flatten(x):
    return x.transpose(1, 2).flatten(2)


def per_head_by_hand(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        c = slice(h * d, (h + 1) * d)
        s = torch.einsum("btd,bsd->bts", q[..., c], k[..., c]) / math.sqrt(d)
        if mask is not None:
            s = torch.where(mask, s, torch.tensor(float("-inf"), dtype=s.dtype))
        s = s - s.amax(dim=-1, keepdim=True)
        e = s.exp()
        outputs.append((e / e.sum(dim=-1, keepdim=True)) @ v[..., c])
    return torch.cat(outputs, dim=-1)


def per_head_into_buffer(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    out = torch.empty_like(q)
    for h in range(n_heads):
        c = slice(h * d, (h + 1) * d)
        out[..., c] = attention(q[..., c], k[..., c], v[..., c], mask)[0]
    return out


def mha_einsum(x, w, n_heads, mask=None):
    B, T, D = x.shape
    d = D // n_heads
    q, k, v = ((x @ w[f"W_{n}"] + w[f"b_{n}"]).view(B, T, n_heads, d) for n in "qkv")
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) * d ** -0.5
    if mask is not None:
        s = s.masked_fill(~mask, -math.inf)
    a = torch.softmax(s, dim=-1)
    heads = torch.einsum("bhqk,bkhd->bqhd", a, v).reshape(B, T, D)
    return heads @ w["W_o"] + w["b_o"]


def mha_loop(x, w, n_heads, mask=None):
    d = x.shape[-1] // n_heads
    q, k, v = (x @ w[f"W_{n}"] + w[f"b_{n}"] for n in "qkv")
    heads = []
    for h in range(n_heads):
        c = slice(h * d, (h + 1) * d)
        s = q[..., c] @ k[..., c].transpose(-2, -1) / math.sqrt(d)
        if mask is not None:
            s = s.masked_fill(~mask, float("-inf"))
        heads.append(softmax(s, axis=-1) @ v[..., c])
    return torch.cat(heads, dim=-1) @ w["W_o"] + w["b_o"]


def mha_with_own_helpers(x, w, n_heads, mask=None):
    q, k, v = (my_split(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + torch.where(mask, 0.0, float("-inf"))
    return my_merge(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]


def params_four_matrices(d_model, n_heads, bias=True):
    if d_model % n_heads != 0:
        raise ValueError("does not divide")
    return 4 * d_model * d_model + (4 * d_model if bias else 0)


def params_float(d_model, n_heads, bias=True):
    if d_model % n_heads != 0:
        raise ValueError("does not divide")
    d_head = d_model / n_heads
    return float(n_heads * 3 * (d_model * d_head + bias * d_head) + d_model ** 2 + bias * d_model)


def mixes_tokens_labels(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    heads = split(1000 * b + 100 * t + f, n_heads)
    should = 10 * torch.arange(B).view(B, 1, 1, 1) + torch.arange(T).view(1, 1, T, 1)
    return bool((heads // 100 != should).any())


VARIANTS = [
    (multi_head.check_split_heads, split_reshape_permute),
    (multi_head.check_split_heads, split_by_slices),
    (multi_head.check_split_heads, split_unflatten),
    (multi_head.check_merge_heads, merge_reshape),
    (multi_head.check_merge_heads, merge_cat),
    (multi_head.check_merge_heads, merge_flatten),
    (multi_head.check_per_head_attention, per_head_by_hand),
    (multi_head.check_per_head_attention, per_head_into_buffer),
    (multi_head.check_mha_forward, mha_einsum),
    (multi_head.check_mha_forward, mha_loop),
    (multi_head.check_mha_forward, mha_with_own_helpers),
    (multi_head.check_attention_parameters, params_four_matrices),
    (multi_head.check_attention_parameters, params_float),
    (multi_head.check_mixes_tokens, mixes_tokens_labels),
]


@pytest.mark.parametrize("check, answer", VARIANTS, ids=[a.__name__ for _, a in VARIANTS])
def test_valid_variants_pass(check, answer, capsys):
    check(answer)
    assert capsys.readouterr().out.startswith("✔")


# ---------------------------------------------------------------- rules and diagnoses


def failure(check, answer):
    with pytest.raises(core.CheckFailed) as error:
        check(answer)
    return error.value


def test_library_one_liners_are_refused():
    assert failure(multi_head.check_split_heads, split_heads).diagnosis == "rule.forbidden-call"
    assert failure(multi_head.check_split_heads,
                   lambda x, n: split_heads(x, n)).diagnosis == "rule.forbidden-call"
    assert failure(multi_head.check_merge_heads,
                   lambda x: merge_heads(x)).diagnosis == "rule.forbidden-call"

    def loop_via_split(q, k, v, n_heads, mask=None):
        return merge_heads(attention(split_heads(q, n_heads), split_heads(k, n_heads),
                                     split_heads(v, n_heads), mask)[0])

    assert failure(multi_head.check_per_head_attention,
                   loop_via_split).diagnosis == "rule.forbidden-call"


def test_a_module_is_refused_where_the_scores_are_to_be_written():
    """Loading the weights into nn.MultiheadAttention skips the exercise: it is refused."""
    def via_torch(x, w, n_heads, mask=None):
        D = x.shape[-1]
        mha = torch.nn.MultiheadAttention(D, n_heads, batch_first=True).double()
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.cat([w["W_q"].T, w["W_k"].T, w["W_v"].T]))
            mha.in_proj_bias.copy_(torch.cat([w["b_q"], w["b_k"], w["b_v"]]))
            mha.out_proj.weight.copy_(w["W_o"].T)
            mha.out_proj.bias.copy_(w["b_o"])
            return mha(x, x, x, attn_mask=None if mask is None else ~mask)[0]

    error = failure(multi_head.check_mha_forward, via_torch)
    assert error.diagnosis == "rule.forbidden-call" and "MultiheadAttention" in str(error)

    def via_attention(x, w, n_heads, mask=None):
        q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
        return merge_heads(attention(q, k, v, mask)[0]) @ w["W_o"] + w["b_o"]

    assert failure(multi_head.check_mha_forward, via_attention).diagnosis == (
        "rule.forbidden-call")


def test_counting_a_module_is_refused():
    from helpers.blocks import count_parameters
    from helpers.heads import MultiHeadAttention

    def by_module(d_model, n_heads, bias=True):
        return count_parameters(MultiHeadAttention(d_model, n_heads, bias=bias))

    assert failure(multi_head.check_attention_parameters,
                   by_module).diagnosis == "rule.forbidden-call"


def test_merge_without_contiguous_is_named():
    def merge(x):
        B, H, T, d = x.shape
        return x.transpose(1, 2).view(B, T, H * d)

    assert failure(multi_head.check_merge_heads, merge).diagnosis == (
        "multi_head.view-not-contiguous")


def test_an_unlisted_token_mixing_split_meets_the_token_property():
    def split_rolled(x, n_heads):
        return my_split(x, n_heads).roll(1, dims=2)  # position t holds token t-1

    error = failure(multi_head.check_split_heads, split_rolled)
    assert error.diagnosis == "multi_head.split-mixes-tokens", error


def test_heads_in_reverse_order_are_named_by_the_feature_property():
    def split_reversed_heads(x, n_heads):
        return my_split(x, n_heads).flip(1)

    error = failure(multi_head.check_split_heads, split_reversed_heads)
    assert error.diagnosis == "multi_head.split-wrong-features", error


def test_a_loop_wrong_in_one_head_says_which():
    def last_head_unscaled(q, k, v, n_heads, mask=None):
        d = q.shape[-1] // n_heads
        outs = []
        for h in range(n_heads):
            c = slice(h * d, (h + 1) * d)
            scale = 1.0 if h == n_heads - 1 else None
            outs.append(attention(q[..., c], k[..., c], v[..., c], mask, scale=scale)[0])
        return torch.cat(outs, dim=-1)

    error = failure(multi_head.check_per_head_attention, last_head_unscaled)
    assert error.diagnosis == "multi_head.some-heads-wrong", error


def test_an_unlisted_forward_mistake_is_placed_at_its_step():
    def b_o_twice(x, w, n_heads, mask=None):
        return mha_forward(x, w, n_heads, mask) + w["b_o"]

    error = failure(multi_head.check_mha_forward, b_o_twice)
    assert error.diagnosis == "multi_head.mha-output-step", error

    def queries_without_bias(x, w, n_heads, mask=None):
        w = {**w, "b_q": torch.zeros_like(w["b_q"])}
        return mha_forward(x, w, n_heads, mask)

    error = failure(multi_head.check_mha_forward, queries_without_bias)
    assert error.diagnosis == "multi_head.mha-heads-step", error


def test_the_integer_square_root_is_named():
    def isqrt_scale(x, w, n_heads, mask=None):
        q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
        scores = q @ k.transpose(-2, -1) / math.isqrt(q.shape[-1])
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]

    error = failure(multi_head.check_mha_forward, isqrt_scale)
    assert error.diagnosis == "multi_head.integer-sqrt", error


def test_a_count_that_depends_on_the_head_count_is_named():
    def per_head_bias_d_model(d_model, n_heads, bias=True):
        if d_model % n_heads:
            raise ValueError
        return 4 * d_model * d_model + bias * (n_heads * 3 + 1) * d_model

    error = failure(multi_head.check_attention_parameters, per_head_bias_d_model)
    assert error.diagnosis.startswith("multi_head.params-"), error


def test_shape_only_detector_is_told_it_never_fires():
    assert failure(multi_head.check_mixes_tokens, lambda split: False).diagnosis == (
        "multi_head.detector-never-fires")


def test_checks_leave_the_global_rng_alone():
    state = torch.random.get_rng_state()
    multi_head.check_mha_forward(mha_forward)
    assert torch.equal(state, torch.random.get_rng_state())


# ------------------------------------------------ round 2: variants of held-out mistakes


def test_heads_summed_and_tiled_are_named_as_combined():
    def summed(x):
        B, H, T, d = x.shape
        return x.sum(dim=1).repeat(1, 1, H)

    assert failure(multi_head.check_merge_heads, summed).diagnosis in (
        "multi_head.merge-heads-combined", "multi_head.merge-changes-values")


def test_a_split_that_hard_codes_the_head_width_is_named():
    def fixed_width(x, n_heads):
        B, T, D = x.shape
        return x.reshape(B, T, -1, 4).transpose(1, 2)

    error = failure(multi_head.check_split_heads, fixed_width)
    assert "hard-coded" in str(error), str(error)


def test_labels_spaced_too_closely_are_named():
    def close_labels(split, B=2, T=5, D=12, n_heads=3):
        b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D),
                                 indexing="ij")
        y = split(100 * b + 8 * t + f, n_heads)  # 8 t + f: tokens overlap once D > 8
        return bool(((y % 100) // 8 != torch.arange(T).view(1, 1, T, 1)).any())

    assert failure(multi_head.check_mixes_tokens, close_labels).diagnosis == (
        "multi_head.detector-labels-collide")


def test_a_forward_with_the_scores_transposed_by_einsum_is_named():
    def kq(x, w, n_heads, mask=None):
        q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
        k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
        v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
        s = torch.einsum("bhkd,bhqd->bhkq", k, q) / q.shape[-1] ** 0.5
        if mask is not None:
            s = torch.where(torch.as_tensor(mask), s, torch.tensor(float("-inf")))
        a = torch.exp(s - s.amax(-1, keepdim=True))
        return merge_heads((a / a.sum(-1, keepdim=True)) @ v) @ w["W_o"] + w["b_o"]

    assert failure(multi_head.check_mha_forward, kq).diagnosis == "multi_head.scores-transposed"
