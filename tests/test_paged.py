"""helpers.paged: block tables, copy-on-write, prefix caching; paged attention equals SDPA."""

import pytest
import torch
import torch.nn.functional as F

from helpers.paged import BlockAllocator, PagedKVCache, paged_attention, reserved_slots

H, D = 2, 4


def kv(T, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(T, H, D, generator=g), torch.randn(T, H, D, generator=g)


def test_allocator_counts_references_and_runs_out():
    a = BlockAllocator(2)
    b0, b1 = a.allocate(), a.allocate()
    assert (b0, b1, a.n_free) == (0, 1, 0)
    with pytest.raises(RuntimeError, match="out of KV-cache blocks"):
        a.allocate()
    a.share(b0)
    a.release(b0)
    assert a.n_free == 0  # still one reference
    a.release(b0)
    assert a.n_free == 1 and a.allocate() == b0
    a.release(b1)
    with pytest.raises(ValueError, match="already free"):
        a.release(b1)


def test_blocks_fill_in_order_and_gather_returns_what_was_appended():
    cache = PagedKVCache(8, 4, H, D)
    cache.new_sequence("a")
    cache.new_sequence("b")
    ka, va = kv(6, 0)
    kb, vb = kv(3, 1)
    cache.append("a", ka[:3], va[:3])
    cache.append("b", kb, vb)  # interleaved: a's second block is not next to its first
    cache.append("a", ka[3:], va[3:])
    assert cache.tables == {"a": [0, 2], "b": [1]} and cache.lengths == {"a": 6, "b": 3}
    assert cache.slots("a").tolist() == [0, 1, 2, 3, 8, 9]
    k, v = cache.gather("a")
    assert torch.equal(k, ka.transpose(0, 1)) and torch.equal(v, va.transpose(0, 1))
    cache.free("a")
    assert cache.allocator.n_free == 7


def test_fork_shares_blocks_until_a_write_into_the_shared_partial_block():
    cache = PagedKVCache(8, 4, H, D)
    cache.new_sequence("p")
    k, v = kv(6, 2)
    cache.append("p", k, v)  # blocks [0 full, 1 with 2 of 4]
    cache.fork("p", "c")
    assert cache.tables["c"] == cache.tables["p"] == [0, 1]
    assert cache.allocator.ref_counts[:2] == [2, 2] and cache.copies == 0
    k1, v1 = kv(1, 3)
    cache.append("c", k1, v1)  # into shared block 1: copied first
    assert cache.copies == 1 and cache.tables["c"][0] == 0 and cache.tables["c"][1] != 1
    assert cache.allocator.ref_counts[1] == 1
    kp, _ = cache.gather("p")
    kc, _ = cache.gather("c")
    assert kp.shape[1] == 6 and torch.equal(kp, k.transpose(0, 1))  # parent untouched
    assert torch.equal(kc, torch.cat([k, k1]).transpose(0, 1))
    cache.append("p", k1, v1)  # now p's block 1 is its own: no copy
    assert cache.copies == 1


def test_prefix_caching_reuses_full_blocks_of_the_same_prompt():
    cache = PagedKVCache(16, 4, H, D, prefix_caching=True)
    prompt = list(range(10))  # 2 full blocks + 2 tokens
    k, v = kv(10, 4)
    assert cache.new_sequence("a", prompt) == 0
    cache.append("a", k, v, prompt)
    assert cache.new_sequence("b", prompt + [99]) == 8  # both full blocks found
    assert cache.tables["b"] == cache.tables["a"][:2]
    cache.append("b", k[8:], v[8:], prompt[8:])
    kb, _ = cache.gather("b")
    assert torch.equal(kb, k.transpose(0, 1))
    other = [0, 1, 2, 3, 7, 7, 7, 7, 8]  # first block the same, second not
    assert cache.new_sequence("c", other) == 4
    assert cache.new_sequence("d", prompt[:8]) == 4  # at least one token left to compute
    # freed blocks stay cached until reused
    for s in ("a", "b", "c", "d"):
        cache.free(s)
    assert cache.new_sequence("e", prompt) == 8


def test_paged_attention_equals_sdpa_on_each_contiguous_cache():
    torch.manual_seed(5)
    H_q, bs = 4, 4  # GQA: 4 query heads over H = 2 kv heads
    cache = PagedKVCache(16, bs, H, D)
    lengths = {"x": 7, "y": 1, "z": 12}
    data = {s: kv(T, i) for i, (s, T) in enumerate(lengths.items())}
    for s in lengths:
        cache.new_sequence(s)
    for t in range(12):  # interleave the writes so the blocks are scattered
        for s, T in lengths.items():
            if t < T:
                cache.append(s, data[s][0][t:t + 1], data[s][1][t:t + 1])
    seqs = list(lengths)
    tables, lens = cache.block_tables(seqs)
    assert tables.shape == (3, 3) and tables[1, 1:].tolist() == [-1, -1]
    q = torch.randn(3, H_q, 1, D)  # one decode step per sequence
    out = paged_attention(q, cache.k_pool, cache.v_pool, tables, lens)
    for b, s in enumerate(seqs):
        k, v = (t.transpose(0, 1)[None] for t in data[s])  # (1, H, T, D)
        ref = F.scaled_dot_product_attention(q[b:b + 1], k, v, enable_gqa=True)
        torch.testing.assert_close(out[b:b + 1], ref)


def test_paged_attention_with_several_new_queries_is_causal_lower_right():
    cache = PagedKVCache(8, 4, H, D)
    cache.new_sequence(0)
    k, v = kv(9, 6)
    cache.append(0, k, v)
    tables, lens = cache.block_tables([0])
    q = torch.randn(1, H, 3, D)  # the last 3 positions: 6, 7, 8
    out = paged_attention(q, cache.k_pool, cache.v_pool, tables, lens)
    allowed = torch.ones(3, 9, dtype=torch.bool).tril(diagonal=6)
    ref = F.scaled_dot_product_attention(q, k.transpose(0, 1)[None], v.transpose(0, 1)[None],
                                         attn_mask=allowed)
    torch.testing.assert_close(out, ref)
    with pytest.raises(ValueError, match="at least T_q"):
        paged_attention(torch.randn(1, H, 10, D), cache.k_pool, cache.v_pool, tables, lens)


def test_reserved_slots_against_hand_counts():
    # lengths 5, 17, 100 with max_len 128, blocks of 16: 1 + 2 + 7 blocks
    got = reserved_slots([5, 17, 100], max_len=128, block_size=16)
    assert got == {"used": 122, "contiguous": 384, "paged": 160}
    assert got["paged"] - got["used"] < 3 * 16  # under one block per sequence
    assert reserved_slots([], 8, 4) == {"used": 0, "contiguous": 0, "paged": 0}
    with pytest.raises(ValueError, match="max_len"):
        reserved_slots([9], max_len=8, block_size=4)


def test_append_refuses_wrong_shapes_and_unknown_sequences():
    cache = PagedKVCache(4, 4, H, D)
    cache.new_sequence("a")
    with pytest.raises(ValueError, match=r"\(T_new, H_kv, d\)"):
        cache.append("a", torch.zeros(2, H, D + 1), torch.zeros(2, H, D + 1))
    with pytest.raises(KeyError, match="no sequence"):
        cache.gather("zz")
