"""helpers.checks.llms: right answers (and their valid variants) pass with one line; the library
helpers are refused; a stub stays "not attempted"; a result of the wrong type gets a clear
message; core's hard-coded-size diagnosis names the sizes of both cases."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from check_contract import contract_tests, grading_test

from helpers.checks import core, llms
from helpers.configs import kv_cache_bytes
from helpers.gqa import grouped_query_attention, repeat_kv
from helpers.masks import chunk_causal_mask
from helpers.rope_scaling import interpolated_rope_angles
from helpers.streaming import row_backward

# ---------------------------------------------------------------- right answers and variants


def gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v


def gqa_grouped_view(q, k, v):
    """The queries viewed as (B, H_kv, G, T, d): K and V broadcast over the group."""
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    qg = q.reshape(B, H_kv, H_q // H_kv, T, d)
    w = torch.softmax(qg @ k[:, :, None].transpose(-2, -1) / d**0.5, dim=-1)
    return (w @ v[:, :, None]).reshape(B, H_q, T, d)


def gqa_loop(q, k, v):
    G = q.shape[1] // k.shape[1]
    heads = []
    for h in range(q.shape[1]):
        s = q[:, h] @ k[:, h // G].mT / math.sqrt(q.shape[-1])
        e = torch.exp(s - s.amax(-1, keepdim=True))
        heads.append(e / e.sum(-1, keepdim=True) @ v[:, h // G])
    return torch.stack(heads, dim=1)


def gqa_index_select(q, k, v):
    """Each query head's kv head picked with index_select, the scores with an einsum."""
    H_q, H_kv = q.shape[1], k.shape[1]
    idx = torch.arange(H_q) // (H_q // H_kv)
    k_all, v_all = k.index_select(1, idx), v.index_select(1, idx)
    s = torch.einsum("bhtd,bhsd->bhts", q, k_all) / math.sqrt(q.size(-1))
    return s.softmax(-1) @ v_all


def kv_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept * batch)


def kv_bytes_numpy(config, T, batch, bytes_per_value):
    """A NumPy integer product, returned as np.int64."""
    window = config["window"] or T
    sizes = np.array([2, config["n_layers"], config["n_kv_heads"], config["d_head"],
                      bytes_per_value, min(T, window), batch], dtype=np.int64)
    return np.prod(sizes)


def kv_bytes_float(config, T, batch, bytes_per_value):
    """A float of a whole number of bytes is accepted."""
    kept = min(T, config["window"] if config["window"] is not None else math.inf)
    return 2.0 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * (
        bytes_per_value * kept * batch)


def chunk_mask(T_q, T_k):
    i = np.arange(T_q)[:, None] + (T_k - T_q)
    return np.arange(T_k)[None, :] <= i


def chunk_mask_tri(T_q, T_k):
    return np.tril(np.ones((T_q, T_k), dtype=bool), k=T_k - T_q)


def chunk_mask_torch(T_q, T_k):
    """A torch bool tensor: the checks accept either library's array."""
    return torch.ones(T_q, T_k, dtype=torch.bool).tril(diagonal=T_k - T_q)


def chunk_mask_last_rows(T_q, T_k):
    return np.tri(T_k, dtype=bool)[T_k - T_q:]


def rope(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return (np.asarray(positions, dtype=float) / factor)[:, None] * theta[None, :]


def rope_outer_frequencies(positions, d, factor, base=10000.0):
    """Dividing the frequencies instead of the positions gives the same angles."""
    inv_freq = 1.0 / (base ** (np.arange(d // 2) * 2.0 / d)) / factor
    return np.outer(positions, inv_freq)


def rope_torch(positions, d, factor, base=10000.0):
    pos = torch.as_tensor(positions, dtype=torch.float64) / factor
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    return torch.outer(pos, theta)


def rope_loops(positions, d, factor, base=10000.0):
    return np.array([[m / factor * base ** (-2 * i / d) for i in range(d // 2)]
                     for m in positions])


def backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv


def backward_outer(q, k, v, lse, d_out):
    """D = d_out · o, with o recomputed from the weights, and np.outer."""
    scale = q.shape[0] ** -0.5
    p = np.exp(scale * (k @ q) - lse)
    o = p @ v
    ds = p * (v @ d_out - d_out @ o)
    return scale * (k.T @ ds), scale * np.outer(ds, q), np.outer(p, d_out)


def backward_torch(q, k, v, lse, d_out):
    """torch arithmetic (no autograd), tensors returned: accepted like NumPy arrays."""
    q, k, v, d_out = (torch.as_tensor(a) for a in (q, k, v, d_out))
    scale = 1 / math.sqrt(q.shape[-1])
    p = torch.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * torch.outer(ds, q), torch.outer(p, d_out)


def backward_list(q, k, v, lse, d_out):
    """A list of three instead of a tuple."""
    return list(backward(q, k, v, lse, d_out))


REFERENCES = [
    (llms.check_gqa, gqa),
    (llms.check_gqa, gqa_grouped_view),
    (llms.check_gqa, gqa_loop),
    (llms.check_gqa, gqa_index_select),
    (llms.check_kv_cache_bytes, kv_bytes),
    (llms.check_kv_cache_bytes, kv_bytes_numpy),
    (llms.check_kv_cache_bytes, kv_bytes_float),
    (llms.check_chunk_causal_mask, chunk_mask),
    (llms.check_chunk_causal_mask, chunk_mask_tri),
    (llms.check_chunk_causal_mask, chunk_mask_torch),
    (llms.check_chunk_causal_mask, chunk_mask_last_rows),
    (llms.check_interpolated_rope_angles, rope),
    (llms.check_interpolated_rope_angles, rope_outer_frequencies),
    (llms.check_interpolated_rope_angles, rope_torch),
    (llms.check_interpolated_rope_angles, rope_loops),
    (llms.check_row_backward, backward),
    (llms.check_row_backward, backward_outer),
    (llms.check_row_backward, backward_torch),
    (llms.check_row_backward, backward_list),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


# ---------------------------------------------------------------- rules: the helpers are refused


def test_library_helpers_are_refused():
    def enable_gqa(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)

    def with_repeat_kv(q, k, v):
        G = q.shape[1] // k.shape[1]
        k, v = repeat_kv(k, G), repeat_kv(v, G)
        return torch.softmax(q @ k.mT / math.sqrt(q.shape[-1]), -1) @ v

    def autograd_backward(q, k, v, lse, d_out):
        qt, kt, vt = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
        o = torch.softmax(kt @ qt / math.sqrt(q.shape[0]), 0) @ vt
        return tuple(g.numpy() for g in torch.autograd.grad(o @ torch.as_tensor(d_out),
                                                             (qt, kt, vt)))

    refused = [
        (llms.check_gqa, lambda q, k, v: grouped_query_attention(q, k, v)[0]),
        (llms.check_gqa, enable_gqa),
        (llms.check_gqa, with_repeat_kv),
        (llms.check_kv_cache_bytes, lambda c, T, batch, b: kv_cache_bytes(c, T, batch, b)),
        (llms.check_chunk_causal_mask, lambda T_q, T_k: chunk_causal_mask(T_q, T_k)),
        (llms.check_interpolated_rope_angles,
         lambda p, d, factor, base=10000.0: interpolated_rope_angles(p, d, factor, base)),
        (llms.check_row_backward, lambda q, k, v, lse, g: row_backward(q, k, v, lse, g)),
        (llms.check_row_backward, autograd_backward),
    ]
    for check, answer in refused:
        with pytest.raises(AssertionError, match="your function calls") as info:
            check(answer)
        assert info.value.diagnosis == "rule.forbidden-call", (check.__name__, str(info.value))


def test_a_stub_with_its_hint_stays_not_attempted():
    def stub(*args):
        raise NotImplementedError("Not attempted yet: repeat each kv head G times")

    with pytest.raises(core.NotAttempted, match="repeat each kv head"):
        llms.check_gqa(stub)


# ---------------------------------------------------------------- wrong types


def test_gqa_must_return_a_torch_tensor():
    """The input is torch and a GQA layer's next step is torch: NumPy is refused, by name."""
    with pytest.raises(AssertionError, match="return a torch tensor") as info:
        llms.check_gqa(lambda q, k, v: gqa(q, k, v).numpy())
    assert info.value.diagnosis == "llms.gqa-not-a-tensor"
    assert "NumPy array" in str(info.value) and "Your numbers are right" in str(info.value)
    with pytest.raises(AssertionError, match="return a torch tensor") as info:
        llms.check_gqa(lambda q, k, v: (gqa(q, k, v) * 2).tolist())
    assert "you returned a list" in str(info.value)
    assert "numbers are right" not in str(info.value)
    with pytest.raises(AssertionError, match="return only the output") as info:
        llms.check_gqa(lambda q, k, v: (gqa(q, k, v), None))
    assert info.value.diagnosis == "llms.gqa-returned-tuple"
    with pytest.raises(AssertionError, match="returned None"):
        llms.check_gqa(lambda q, k, v: None)


def test_wrong_types_get_a_clear_message():
    with pytest.raises(AssertionError, match="return the number of bytes") as info:
        llms.check_kv_cache_bytes(lambda c, T, batch, b: f"{kv_bytes(c, T, batch, b)} bytes")
    assert info.value.diagnosis == "llms.kv-not-a-number"
    with pytest.raises(AssertionError, match="returned None"):
        llms.check_kv_cache_bytes(lambda c, T, batch, b: None)
    with pytest.raises(AssertionError, match="boolean") as info:
        llms.check_chunk_causal_mask(lambda T_q, T_k: chunk_mask(T_q, T_k).astype(float))
    assert info.value.diagnosis == "llms.chunk-not-boolean"
    with pytest.raises(AssertionError, match="returned None"):
        llms.check_interpolated_rope_angles(lambda p, d, factor, base=10000.0: None)
    with pytest.raises(AssertionError, match="expected an array of numbers"):
        llms.check_interpolated_rope_angles(lambda p, d, factor, base=10000.0: "angles")
    with pytest.raises(AssertionError, match=r"return a tuple \(dq, dk, dv\)") as info:
        llms.check_row_backward(lambda q, k, v, lse, g: backward(q, k, v, lse, g)[0])
    assert info.value.diagnosis == "generic.not-a-tuple"


# ---------------------------------------------------------------- named mistakes, as relations


def test_a_count_off_by_one_byte_names_the_constant_not_a_factor():
    # the review's example: "should be multiplied by 2; yours is multiplied by 2"
    for off, word in ((1, "1 byte more"), (-1, "1 byte less")):
        with pytest.raises(AssertionError, match=word) as info:
            llms.check_kv_cache_bytes(
                lambda c, T, batch, b, off=off: kv_bytes(c, T, batch, b) + off)
        assert info.value.diagnosis == "generic.constant-offset"
        assert "multiplied by 2" not in str(info.value)
    # half a byte is no whole count: the law that fails shows the digits that differ
    with pytest.raises(AssertionError, match=r"multiplied by 1\.9999\d+, not exactly 2") as info:
        llms.check_kv_cache_bytes(lambda c, T, batch, b: kv_bytes(c, T, batch, b) + 0.5)
    assert info.value.diagnosis == "llms.kv-scaling"


def test_keys_and_values_shared_differently_say_which():
    def values_tiled(q, k, v):
        G = q.shape[1] // k.shape[1]
        return gqa_loop_maps(q, k, v, lambda h: h // G, lambda h: h % k.shape[1])

    def keys_tiled(q, k, v):
        G = q.shape[1] // k.shape[1]
        return gqa_loop_maps(q, k, v, lambda h: h % k.shape[1], lambda h: h // G)

    for answer, wrong, right in ((values_tiled, "their values", "Your keys are shared right"),
                                 (keys_tiled, "their keys", "Your values are shared right")):
        with pytest.raises(AssertionError, match="shared differently") as info:
            llms.check_gqa(answer)
        assert info.value.diagnosis == "llms.gqa-kv-maps-differ"
        assert wrong in str(info.value) and right in str(info.value), str(info.value)


def gqa_loop_maps(q, k, v, key_head, value_head):
    heads = []
    for h in range(q.shape[1]):
        s = q[:, h] @ k[:, key_head(h)].mT / math.sqrt(q.shape[-1])
        heads.append(torch.softmax(s, -1) @ v[:, value_head(h)])
    return torch.stack(heads, dim=1)


def test_a_kv_head_map_that_is_wrong_for_both_keeps_its_name():
    def last_first(q, k, v):
        G = q.shape[1] // k.shape[1]
        return gqa_loop_maps(q, k, v, lambda h: k.shape[1] - 1 - h // G,
                             lambda h: k.shape[1] - 1 - h // G)

    with pytest.raises(AssertionError, match="h // G") as info:
        llms.check_gqa(last_first)
    assert info.value.diagnosis == "llms.gqa-wrong-kv-head"


def test_scores_scaled_by_the_sequence_length_are_named():
    def by_T(q, k, v):
        G = q.shape[1] // k.shape[1]
        k, v = k.repeat_interleave(G, 1), v.repeat_interleave(G, 1)
        return torch.softmax(q @ k.mT / q.shape[-2], -1) @ v

    with pytest.raises(AssertionError, match="sequence length") as info:
        llms.check_gqa(by_T)
    assert info.value.diagnosis == "llms.gqa-wrong-scale"


def test_rope_pairs_counted_from_two_name_the_shift():
    def from_two(positions, d, factor, base=10000.0):
        theta = base ** (-2 * np.arange(2, d // 2 + 2) / d)
        return np.outer(np.asarray(positions) / factor, theta)

    with pytest.raises(AssertionError, match="counted from i = 2") as info:
        llms.check_interpolated_rope_angles(from_two)
    assert info.value.diagnosis == "llms.rope-pair-zero"


def test_positions_divided_in_place_are_named_even_when_they_are_int():
    def in_place(positions, d, factor, base=10000.0):
        positions /= factor
        return np.outer(positions, base ** (-np.arange(0, d, 2) / d))

    with pytest.raises(AssertionError, match="argument `positions` in place") as info:
        llms.check_interpolated_rope_angles(in_place)
    assert info.value.diagnosis == "generic.input-modified"


# ---------------------------------------------------------------- core's hard-coded size


def test_an_error_on_a_later_size_names_both_cases_sizes():
    """A hard-coded G = 2 passes the first case (G = 2) and raises on the second (G = 3)."""

    def g_is_two(q, k, v):
        k, v = k.repeat_interleave(2, dim=1), v.repeat_interleave(2, dim=1)
        return torch.softmax(q @ k.mT / math.sqrt(q.shape[-1]), -1) @ v

    with pytest.raises(AssertionError, match="hard-coded") as info:
        llms.check_gqa(g_is_two)
    said = str(info.value)
    assert info.value.diagnosis == "generic.hard-coded-size"
    assert "The passed case had q of shape (2, 4, 5, 8)" in said, said
    assert "this one has q of shape (1, 6, 4, 4)" in said, said


def test_a_shape_error_on_the_same_sizes_is_not_called_hard_coded():
    """Only a case of other sizes than every passed one points at a hard-coded size."""
    calls = []

    @core.exercise
    def check_f(fn):
        for _ in range(2):
            core.compare(core.call(fn, np.ones(3), name="f"), np.ones(3), name="f")

    def fails_the_second_time(x):
        calls.append(1)
        if len(calls) == 2:
            return x + np.zeros(4)  # operands could not be broadcast
        return x

    with pytest.raises(ValueError, match="could not be broadcast"):
        check_f(fails_the_second_time)

    @core.exercise
    def check_g(fn):
        core.compare(core.call(fn, np.ones(4), name="g"), np.ones(4), name="g (case 1)")
        core.compare(core.call(fn, np.ones(6), name="g"), np.ones(6), name="g (case 2)")

    with pytest.raises(core.CheckFailed, match="x of shape \\(4,\\); this one has x of shape "
                                               "\\(6,\\)") as info:
        check_g(lambda x: x + np.zeros(4))
    assert info.value.diagnosis == "generic.hard-coded-size"


# ---------------------------------------------------------------- ex6-ex8 (issue 22)


def llama3(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
           original_max_len=8192):
    wavelength = 2 * math.pi / inv_freq
    smooth = (original_max_len / wavelength - low_freq_factor) / (high_freq_factor
                                                                  - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelength < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelength > original_max_len / low_freq_factor,
                             inv_freq / factor, blended))


def llama3_loop(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                original_max_len=8192):
    """Meta's apply_scaling, one pair at a time, in float32 when given float32."""
    out = []
    for theta in inv_freq:
        lam = 2 * math.pi / theta
        if lam < original_max_len / high_freq_factor:
            out.append(theta)
        elif lam > original_max_len / low_freq_factor:
            out.append(theta / factor)
        else:
            s = (original_max_len / lam - low_freq_factor) / (high_freq_factor - low_freq_factor)
            out.append((1 - s) * theta / factor + s * theta)
    return np.array(out, dtype=np.asarray(inv_freq).dtype)


def llama3_torch_clamped(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                         original_max_len=8192):
    """One formula everywhere: smooth clamped to [0, 1] (the rule is continuous)."""
    theta = torch.as_tensor(inv_freq, dtype=torch.float64)
    s = ((original_max_len * theta / (2 * math.pi) - low_freq_factor)
         / (high_freq_factor - low_freq_factor)).clamp(0, 1)
    return ((1 - s) * theta / factor + s * theta).numpy()


def slot_of(block_table, block_size, position):
    block, offset = divmod(position, block_size)
    if not 0 <= block < len(block_table):
        raise IndexError(position)
    return int(block_table[block]) * block_size + offset


def gather_keys(k_pool, block_table, block_size, length):
    return k_pool[[slot_of(block_table, block_size, t) for t in range(length)]]


def gather_keys_view(k_pool, block_table, block_size, length):
    """The pool viewed as blocks: pick the table's blocks, flatten, cut."""
    blocks = k_pool.view(-1, block_size, k_pool.shape[-1])[list(block_table)]
    return blocks.reshape(-1, k_pool.shape[-1])[:length]


def combine(outs, lses):
    top = lses.max(dim=0).values
    w = torch.exp(lses - top)
    return (w[..., None] * outs).sum(0) / w.sum(0)[:, None], top + torch.log(w.sum(0))


def combine_running(outs, lses):
    """FlashDecoding's reduction one chunk at a time, rescaling what it has so far."""
    out, lse = torch.zeros_like(outs[0]), torch.full_like(lses[0], -math.inf)
    for o, ell in zip(outs, lses, strict=True):
        new = torch.maximum(lse, ell)
        a, b = torch.exp(lse - new), torch.exp(ell - new)  # new is finite: some chunk reads
        a, b = torch.nan_to_num(a), torch.nan_to_num(b)
        total = a + b
        out = (a[:, None] * out + b[:, None] * o) / torch.where(total > 0, total, 1)[:, None]
        lse = new + torch.log(total)
    return out, lse


def combine_softmax(outs, lses):
    w = torch.softmax(lses, dim=0)
    top = lses.max(0).values
    return torch.einsum("ct,ctd->td", w, outs), top + torch.log(torch.exp(lses - top).sum(0))


def paged(pair):
    """check_paged_lookup takes two functions; the contract hands one answer (or a stub)."""
    slot, gather = pair if isinstance(pair, tuple) else (pair, pair)
    llms.check_paged_lookup(slot, gather)


paged.__name__ = "check_paged_lookup"

NEW_REFERENCES = [
    (llms.check_llama3_frequencies, llama3),
    (llms.check_llama3_frequencies, llama3_loop),
    (llms.check_llama3_frequencies, llama3_torch_clamped),
    (paged, (slot_of, gather_keys)),
    (paged, (slot_of, gather_keys_view)),
    (llms.check_combine_partials, combine),
    (llms.check_combine_partials, combine_running),
    (llms.check_combine_partials, combine_softmax),
]
test_new_right_answer_passes, test_new_stub_propagates = contract_tests(NEW_REFERENCES)


test_new_right_answers_pass_when_grading = grading_test(NEW_REFERENCES, seed=1234)


def test_new_library_helpers_are_refused():
    from helpers.paged import PagedKVCache
    from helpers.rope_scaling import llama3_scaled
    from helpers.streaming import combine_partials

    def with_cache(block_table, block_size, position):
        PagedKVCache(4, block_size, 1, 1)
        return slot_of(block_table, block_size, position)

    refused = [
        (llms.check_llama3_frequencies, lambda f, **k: llama3_scaled(f)),
        (paged, (with_cache, gather_keys)),
        (llms.check_combine_partials,
         lambda o, s: tuple(torch.tensor(x) for x in combine_partials(o.numpy(), s.numpy()))),
        (llms.check_combine_partials,
         lambda o, s: (combine(o, s)[0], torch.logsumexp(s, dim=0))),
    ]
    for check, answer in refused:
        with pytest.raises(AssertionError, match="your function calls") as info:
            check(answer)
        assert info.value.diagnosis == "rule.forbidden-call", (check.__name__, str(info.value))


def test_llama3_argument_not_read_is_named():
    def fixed_context(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                      original_max_len=8192):
        return llama3(inv_freq, factor, low_freq_factor, high_freq_factor)

    with pytest.raises(AssertionError, match="original_max_len=2048") as info:
        llms.check_llama3_frequencies(fixed_context)
    assert info.value.diagnosis == "llms.llama3-argument-ignored"


def test_slot_must_be_a_python_int_and_negative_positions_raise():
    with pytest.raises(AssertionError, match="int") as info:
        paged((lambda t, b, p: np.int64(slot_of(t, b, p)), gather_keys))
    assert info.value.diagnosis == "llms.paged-slot-not-an-int"

    def wraps(block_table, block_size, position):
        block, offset = divmod(position, block_size)
        return block_table[block] * block_size + offset  # the list raises past its end only

    with pytest.raises(AssertionError, match="LAST block") as info:
        paged((wraps, gather_keys))
    assert info.value.diagnosis == "llms.paged-no-index-error"


def test_combine_with_one_max_for_every_query_is_named():
    def global_max(outs, lses):
        top = lses.max()
        w = torch.exp(lses - top)
        return (w[..., None] * outs).sum(0) / w.sum(0)[:, None], top + torch.log(w.sum(0))

    with pytest.raises(AssertionError, match="each query's own largest") as info:
        llms.check_combine_partials(global_max)
    assert info.value.diagnosis == "llms.combine-global-max"
