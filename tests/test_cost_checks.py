"""helpers.checks.cost: the helpers themselves pass with one line; stubs and tensors that are
almost right fail with a message."""

import pytest
import torch
from check_contract import contract_tests

from helpers.blocks import top_k_routing
from helpers.checks import cost
from helpers.heads import KVCache
from helpers.masks import sliding_window_mask
from helpers.streaming import attention_step, online_softmax


def cache_append(cache_k, cache_v, k, v):
    cache = KVCache()
    cache.k, cache.v = cache_k, cache_v
    return cache.append(k, v)


REFERENCES = [
    (cost.check_online_softmax, online_softmax),
    (cost.check_attention_step, attention_step),
    (cost.check_cache_append, cache_append),
    (cost.check_sliding_window_mask, sliding_window_mask),
    (cost.check_top_k_gates, lambda logits, k: top_k_routing(logits, k).dense_gates()),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


def test_hard_coded_or_float_answers_fail():
    with pytest.raises(AssertionError, match="boolean"):
        cost.check_sliding_window_mask(lambda T, w: sliding_window_mask(T, w).astype(float))
    with pytest.raises(AssertionError):
        cost.check_sliding_window_mask(lambda T, w: sliding_window_mask(8, 3))
    with pytest.raises(AssertionError, match="one weight per score"):
        cost.check_online_softmax(lambda x, b: online_softmax(x, b)[:-1])
    with pytest.raises(AssertionError, match="None"):
        cost.check_cache_append(lambda *args: None)
    with pytest.raises(AssertionError, match="torch tensors"):
        cost.check_cache_append(lambda ck, cv, k, v: (k.numpy(), v.numpy()))


def test_cache_append_that_breaks_the_model_is_caught():
    calls = []

    def drops_last_position_later(cache_k, cache_v, k, v):
        calls.append(1)
        if cache_k is None:
            return k, v
        if len(calls) > 3:  # passes the direct tests, breaks inside the model
            return torch.cat([cache_k, k], -2)[..., :-1, :].contiguous(), torch.cat(
                [cache_v, v], -2
            )[..., :-1, :].contiguous()
        return torch.cat([cache_k, k], -2), torch.cat([cache_v, v], -2)

    with pytest.raises(AssertionError, match="TinyGPT failed while decoding with your cache"):
        cost.check_cache_append(drops_last_position_later)
