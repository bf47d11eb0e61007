"""helpers.blocks.MoEFeedForward: a top-k routed mixture of FeedForward experts."""

import pytest
import torch

from helpers.blocks import (
    FeedForward,
    MoEFeedForward,
    TransformerBlock,
    count_parameters,
    top_k_routing,
)

D, D_FF = 8, 16


def x_of(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def moe(n_experts=4, k=2, seed=0):
    torch.manual_seed(seed)
    return MoEFeedForward(D, D_FF, n_experts, k).double()


def loop_reference(layer, x):
    """One position at a time: softmax over its k best router logits, weighted expert sum."""
    flat = x.reshape(-1, D)
    out = torch.zeros_like(flat)
    for n, token in enumerate(flat):
        logits = layer.router(token)
        top, chosen = logits.topk(layer.k)
        for gate, e in zip(torch.softmax(top, -1), chosen, strict=True):
            out[n] += gate * layer.experts[int(e)](token)
    return out.view(x.shape)


@pytest.mark.parametrize("n_experts, k", [(4, 1), (4, 2), (5, 3), (3, 3)])
def test_equals_a_per_token_loop(n_experts, k):
    layer = moe(n_experts, k)
    x = x_of(2, 7, D)
    out, routing = layer(x, return_routing=True)
    assert out.shape == x.shape
    torch.testing.assert_close(out, loop_reference(layer, x))
    assert routing.experts.shape == routing.gates.shape == (2, 7, k)
    assert routing.logits.shape == (2, 7, n_experts)


def test_each_position_reaches_exactly_k_experts_with_gates_summing_to_1():
    layer = moe(6, 2)
    routing = layer.route(x_of(3, 11, D))
    dense = routing.dense_gates()  # (3, 11, 6)
    assert ((dense > 0).sum(-1) == 2).all()
    torch.testing.assert_close(dense.sum(-1), torch.ones(3, 11, dtype=torch.float64))
    experts = routing.experts.flatten(0, 1)
    assert all(len(set(row.tolist())) == 2 for row in experts)  # two different experts
    assert routing.load().tolist() == torch.bincount(experts.flatten(), minlength=6).tolist()
    assert int(routing.load().sum()) == 3 * 11 * 2
    assert (routing.logits.gather(-1, routing.experts)[..., 0] == routing.logits.amax(-1)).all()


def test_one_expert_is_the_dense_ffn_and_k_all_is_the_soft_mixture():
    layer = moe(1, 1)
    x = x_of(2, 5, D)
    torch.testing.assert_close(layer(x), layer.experts[0](x))
    dense = FeedForward(D, D_FF, "gelu").double()
    dense.load_state_dict(layer.experts[0].state_dict())
    torch.testing.assert_close(layer(x), dense(x))
    soft = moe(3, 3)
    weights = torch.softmax(soft.router(x), -1)  # (2, 5, 3)
    mixture = sum(weights[..., e, None] * soft.experts[e](x) for e in range(3))
    torch.testing.assert_close(soft(x), mixture)


def test_replaces_the_ffn_of_a_block_and_keeps_its_routing():
    torch.manual_seed(0)
    block = TransformerBlock(D, 2, D_FF, causal=True).double()
    dense_params = count_parameters(block)
    block.ffn = moe(4, 2)
    x = x_of(2, 6, D)
    out = block(x)
    assert out.shape == x.shape
    h = x + block._self_attention(block.ln1(x), None, None, None)
    torch.testing.assert_close(out, h + loop_reference(block.ffn, block.ln2(h)))
    assert block.ffn.last_routing.experts.shape == (2, 6, 2)
    ffn_params = count_parameters(FeedForward(D, D_FF))
    assert count_parameters(block) == dense_params + 3 * ffn_params + 4 * D  # + router


def test_gradients_reach_the_router_and_only_the_chosen_experts():
    layer = moe(4, 1)
    x = x_of(1, 1, D)
    chosen = int(layer.route(x).experts[0, 0, 0])
    layer(x).sum().backward()
    assert layer.router.weight.grad.abs().sum() == 0  # k = 1: the gate is softmax of one = 1
    for e, expert in enumerate(layer.experts):
        assert (expert.up.weight.grad is not None) == (e == chosen)
    layer2 = moe(4, 2)
    layer2(x).sum().backward()
    assert layer2.router.weight.grad.abs().sum() > 0  # k = 2: the gates depend on the router
    switch = moe(4, 1)
    switch.renormalize = False  # gate = softmax over all 4 experts, at the chosen one
    switch(x).sum().backward()
    assert switch.router.weight.grad.abs().sum() > 0


def test_switch_style_gates_are_the_full_softmax_at_the_chosen_experts():
    torch.manual_seed(0)
    layer = MoEFeedForward(D, D_FF, 5, 2, renormalize=False).double()
    x = x_of(3, 4, D)
    routing = layer.route(x)
    probs = torch.softmax(layer.router(x), -1)
    torch.testing.assert_close(routing.gates, probs.topk(2, -1).values)
    assert (routing.gates.sum(-1) < 1).all()
    flat, chosen = x.reshape(-1, D), routing.experts.reshape(-1, 2)
    per_slot = [
        torch.stack([layer.experts[int(e)](t) for t, e in zip(flat, chosen[:, i], strict=True)])
        for i in range(2)
    ]  # (N, D) each: the output of each position's i-th expert
    expected = sum(routing.gates[..., i, None] * per_slot[i].view(x.shape) for i in range(2))
    torch.testing.assert_close(layer(x), expected)


@pytest.mark.parametrize("args, match", [
    ((D, D_FF, 0, 1), "n_experts must be a positive whole number"),
    ((D, D_FF, 4, 5), r"k must be a whole number of experts per position, 1..n_experts=4"),
    ((D, D_FF, 4, 0), "k must be"),
])
def test_bad_arguments(args, match):
    with pytest.raises(ValueError, match=match):
        MoEFeedForward(*args)


def test_wrong_width():
    with pytest.raises(ValueError, match="MoEFeedForward expects features of width 8"):
        moe()(torch.zeros(2, 3, 5, dtype=torch.float64))


def test_top_k_routing_on_its_own():
    logits = torch.tensor([[0.0, 3.0, 1.0, 2.0], [5.0, -1.0, 4.0, 0.0]])
    routing = top_k_routing(logits, 2)
    assert routing.experts.tolist() == [[1, 3], [0, 2]]
    torch.testing.assert_close(routing.gates, torch.softmax(torch.tensor([[3.0, 2.0]] * 2), -1))
    dense = routing.dense_gates()
    assert dense[0, 0] == 0 and dense[0, 2] == 0 and ((dense > 0).sum(-1) == 2).all()
    assert routing.load().tolist() == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="1..n_experts=4"):
        top_k_routing(logits, 5)
