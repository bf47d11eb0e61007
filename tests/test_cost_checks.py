"""helpers.checks.cost: right answers (and their valid variants) pass with one line; the
library helpers, two-pass shortcuts and answers that are almost right fail with a message."""

import numpy as np
import pytest
import torch
from check_contract import contract_tests

from helpers.blocks import top_k_routing
from helpers.checks import cost
from helpers.heads import KVCache
from helpers.masks import sliding_window_mask
from helpers.streaming import attention_step, online_softmax

# ---------------------------------------------------------------- right answers and variants


def online(x, block_size):
    m, z = -np.inf, 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, block.max())
        z = z * np.exp(m - m_new) + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / z


def online_builtin_loops(x, block_size):
    """Python's max and sum on each block, the output built block by block."""
    m, z = float("-inf"), 0.0
    for start in range(0, len(x), block_size):
        block = x[start : start + block_size]
        m_new = max(m, max(block))
        z = z * np.exp(m - m_new) + sum(np.exp(b - m_new) for b in block)
        m = m_new
    return np.concatenate([np.exp(x[s : s + block_size] - m) / z
                           for s in range(0, len(x), block_size)])


def online_torch(x, block_size):
    t = torch.as_tensor(x)
    m, z = torch.tensor(float("-inf"), dtype=t.dtype), torch.tensor(0.0, dtype=t.dtype)
    for block in t.split(block_size):
        m_new = torch.maximum(m, block.max())
        z = z * torch.exp(m - m_new) + torch.exp(block - m_new).sum()
        m = m_new
    return torch.exp(t - m) / z


def online_array_split(x, block_size):
    m, z = -np.inf, 0.0
    for block in np.array_split(x, range(block_size, len(x), block_size)):
        m_new = np.maximum(m, np.max(block))
        z = np.exp(m - m_new) * z + np.sum(np.exp(block - m_new))
        m = m_new
    return np.exp(x - m) / z


def step(m, z, acc, s, v):
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(axis=-1), alpha[:, None] * acc + p @ v


def step_einsum_keepdims(m, z, acc, s, v):
    m_new = np.max(np.concatenate([m[:, None], s], axis=1), axis=1)
    p = np.exp(s - m_new[:, None])
    alpha = np.exp(m - m_new)[:, None]
    return m_new, (alpha[:, 0] * z + np.einsum("qb->q", p)), alpha * acc + np.einsum(
        "qb,bd->qd", p, v)


def step_torch(m, z, acc, s, v):
    m, z, acc, s, v = (torch.as_tensor(a) for a in (m, z, acc, s, v))
    m_new = torch.maximum(m, s.amax(-1))
    alpha = torch.exp(m - m_new)
    p = torch.exp(s - m_new.unsqueeze(-1))
    return m_new, alpha * z + p.sum(-1), alpha.unsqueeze(-1) * acc + p @ v


def cache_append(cache_k, cache_v, k, v):
    if cache_k is None:
        return k, v
    return torch.cat([cache_k, k], dim=-2), torch.cat([cache_v, v], dim=-2)


def cache_append_dim2(cache_k, cache_v, k, v):
    if cache_k is None:
        return k.clone(), v.clone()
    return torch.concat((cache_k, k), 2), torch.concat((cache_v, v), 2)


def cache_append_empty_start(cache_k, cache_v, k, v):
    if cache_k is None:  # an empty cache of 0 positions, then one code path
        cache_k, cache_v = k[..., :0, :], v[..., :0, :]
    return torch.cat([cache_k, k], dim=2), torch.cat([cache_v, v], dim=2)


def window(T, w):
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j <= i) & (i - j < w)


def window_tri(T, w):
    return np.tri(T, dtype=bool) & ~np.tri(T, k=-w, dtype=bool)


def window_torch(T, w):
    ones = torch.ones(T, T, dtype=torch.bool)
    return torch.tril(ones) & torch.triu(ones, diagonal=1 - w)


def window_loops(T, w):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(max(0, i - w + 1), i + 1):
            mask[i, j] = True
    return mask


def gates(logits, k):
    values, experts = logits.topk(k, dim=-1)
    return torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=-1))


def gates_threshold(logits, k):
    kth = logits.topk(k, dim=-1).values[:, -1:]
    return torch.softmax(logits.masked_fill(logits < kth, float("-inf")), dim=-1)


def gates_numpy_sort(logits, k):
    x = logits.numpy().astype(float)
    out = np.zeros_like(x)
    for r, row in enumerate(x):
        idx = np.argsort(row)[::-1][:k]
        e = np.exp(row[idx] - row[idx].max())
        out[r, idx] = e / e.sum()
    return torch.from_numpy(out)


REFERENCES = [
    (cost.check_online_softmax, online),
    (cost.check_online_softmax, online_builtin_loops),
    (cost.check_online_softmax, online_torch),
    (cost.check_online_softmax, online_array_split),
    (cost.check_attention_step, step),
    (cost.check_attention_step, step_einsum_keepdims),
    (cost.check_attention_step, step_torch),
    (cost.check_cache_append, cache_append),
    (cost.check_cache_append, cache_append_dim2),
    (cost.check_cache_append, cache_append_empty_start),
    (cost.check_sliding_window_mask, window),
    (cost.check_sliding_window_mask, window_tri),
    (cost.check_sliding_window_mask, window_torch),
    (cost.check_sliding_window_mask, window_loops),
    (cost.check_top_k_gates, gates),
    (cost.check_top_k_gates, gates_numpy_sort),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


# ---------------------------------------------------------------- rules: the helpers are refused


def test_library_one_liners_are_refused():
    import helpers.streaming as streaming
    from helpers.attention import softmax

    for fn in (lambda x, b: online_softmax(x, b), lambda x, b: softmax(x),
               lambda x, b: torch.softmax(torch.as_tensor(x), -1),
               lambda x, b: streaming.online_softmax(x, b)):
        with pytest.raises(AssertionError, match="your function calls") as info:
            cost.check_online_softmax(fn)
        assert info.value.diagnosis == "rule.forbidden-call"
    with pytest.raises(AssertionError, match="your function calls"):
        cost.check_attention_step(lambda m, z, acc, s, v: attention_step(m, z, acc, s, v))

    def with_kv_cache(cache_k, cache_v, k, v):
        cache = KVCache()
        cache.k, cache.v = cache_k, cache_v
        return cache.append(k, v)

    with pytest.raises(AssertionError, match="your function calls"):
        cost.check_cache_append(with_kv_cache)
    with pytest.raises(AssertionError, match="your function calls"):
        cost.check_sliding_window_mask(lambda T, w: sliding_window_mask(T, w))
    with pytest.raises(AssertionError, match="your function calls"):
        cost.check_top_k_gates(lambda logits, k: top_k_routing(logits, k).dense_gates())


def test_two_pass_softmax_is_refused():
    def two_pass(x, block_size):
        e = np.exp(x - x.max())
        return e / e.sum()

    def final_sum(x, block_size):  # running max right, then a sum over the whole row
        m = -np.inf
        for start in range(0, len(x), block_size):
            m = max(m, x[start : start + block_size].max())
        e = np.exp(x - m)
        return e / e.sum()

    def two_pass_in_blocks(x, block_size):
        starts = range(0, len(x), block_size)
        m = max(x[s : s + block_size].max() for s in starts)
        z = sum(np.exp(x[s : s + block_size] - m).sum() for s in starts)
        return np.exp(x - m) / z

    def fixed_block(x, block_size):  # block_size ignored
        return online(x, 2)

    for fn, diagnosis in ((two_pass, "cost.online-reads-whole-row"),
                          (final_sum, "cost.online-reads-whole-row"),
                          (two_pass_in_blocks, "cost.online-second-pass"),
                          (fixed_block, "cost.online-block-size-ignored")):
        with pytest.raises(AssertionError) as info:
            cost.check_online_softmax(fn)
        assert info.value.diagnosis == diagnosis, (fn.__name__, str(info.value))


def test_in_place_updates_are_caught():
    def in_place_step(m, z, acc, s, v):
        m_new = np.maximum(m, s.max(axis=-1))
        alpha = np.exp(m - m_new)
        p = np.exp(s - m_new[:, None])
        acc *= alpha[:, None]
        acc += p @ v
        return m_new, alpha * z + p.sum(-1), acc

    with pytest.raises(AssertionError, match="changed its argument `acc` in place"):
        cost.check_attention_step(in_place_step)

    def in_place_gates(logits, k):
        kth = logits.topk(k, dim=-1).values[:, -1:]
        logits[logits < kth] = float("-inf")
        return torch.softmax(logits, dim=-1)

    with pytest.raises(AssertionError, match="in place"):
        cost.check_top_k_gates(in_place_gates)


# ---------------------------------------------------------------- almost right


def test_hard_coded_or_float_answers_fail():
    with pytest.raises(AssertionError, match="boolean"):
        cost.check_sliding_window_mask(lambda T, w: window(T, w).astype(float))
    with pytest.raises(AssertionError):
        cost.check_sliding_window_mask(lambda T, w: window(8, 3))
    with pytest.raises(AssertionError, match="one weight per score"):
        cost.check_online_softmax(lambda x, b: online(x, b)[:-1])
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
        if len(calls) > 4:  # passes the direct tests, breaks inside the model
            return torch.cat([cache_k, k], -2)[..., :-1, :].contiguous(), torch.cat(
                [cache_v, v], -2
            )[..., :-1, :].contiguous()
        return torch.cat([cache_k, k], -2), torch.cat([cache_v, v], -2)

    with pytest.raises(AssertionError, match="TinyGPT failed while decoding with your cache"):
        cost.check_cache_append(drops_last_position_later)


def test_checks_restore_torch_threads():
    threads = torch.get_num_threads()
    cost.check_top_k_gates(gates)
    with pytest.raises(AssertionError):
        cost.check_top_k_gates(lambda logits, k: torch.softmax(logits, -1))
    assert torch.get_num_threads() == threads


def test_a_threshold_that_keeps_ties_is_refused():
    """The exercise asks for k gates per row: a >= threshold keeps every tied logit."""
    with pytest.raises(AssertionError, match="tie at its k-th largest"):
        cost.check_top_k_gates(gates_threshold)


def test_any_k_of_tied_experts_will_do():
    """With ties at the k-th largest logit, choosing other tied experts than topk is right."""
    def gates_last_of_ties(logits, k):
        flipped = logits.flip(-1)
        values, experts = flipped.topk(k, dim=-1)
        gates = torch.zeros_like(logits).scatter(-1, experts, torch.softmax(values, dim=-1))
        return gates.flip(-1)

    cost.check_top_k_gates(gates_last_of_ties)
