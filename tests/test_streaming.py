"""helpers.streaming: online softmax and tiled attention equal the full computation."""

import math

import numpy as np
import pytest
import torch

from helpers.attention import attention, softmax
from helpers.masks import causal_mask, padding_mask, sliding_window_mask
from helpers.streaming import (
    aten_ops,
    attention_backward,
    attention_step,
    attention_with_lse,
    chunk_partials,
    combine_partials,
    fit_slope,
    flash_decoding,
    layer_flops,
    median_time,
    naive_attention,
    online_max_sum,
    online_softmax,
    peak_memory,
    row_backward,
    softmax_step,
    tiled_attention,
)


def qkv(shape_q=(2, 3, 37, 8), T_k=None, d_v=5, seed=0, dtype=float):
    rng = np.random.default_rng(seed)
    *lead, T_q, d = shape_q
    T_k = T_q if T_k is None else T_k
    q = rng.normal(size=shape_q)
    k = rng.normal(size=(*lead, T_k, d))
    v = rng.normal(size=(*lead, T_k, d_v))
    return q.astype(dtype), k.astype(dtype), v.astype(dtype)


@pytest.mark.parametrize("block_size", [1, 2, 7, 50, 100])
def test_online_softmax_equals_softmax(block_size):
    x = np.random.default_rng(1).normal(size=(4, 50)) * 10
    x[1] = np.linspace(-5, 5, 50)  # the maximum grows at every step
    np.testing.assert_allclose(online_softmax(x, block_size), softmax(x), rtol=1e-12)
    m, z = online_max_sum(x, block_size)
    np.testing.assert_allclose(m, x.max(axis=-1))
    np.testing.assert_allclose(np.log(z) + m, np.log(np.exp(x).sum(axis=-1)), rtol=1e-12)


def test_online_softmax_does_not_overflow_and_handles_minus_inf():
    x = np.array([1000.0, 1001.0, -np.inf, 999.0])
    np.testing.assert_allclose(online_softmax(x), softmax(x))
    m, z = online_max_sum(np.array([-np.inf, -np.inf, 2.0]), 1)  # nothing allowed at first
    assert m == 2.0 and z == 1.0


def test_softmax_step_rescales_the_old_sum():
    m, z = softmax_step(np.array(1.0), np.array(2.0), np.array([3.0]))
    assert m == 3.0
    assert math.isclose(z, 2.0 * math.exp(1.0 - 3.0) + 1.0)


def test_attention_step_from_empty_state_is_one_block_of_attention():
    q, k, v = qkv((6, 4), d_v=3)
    s = q @ k.T / 2.0
    m, z, acc = attention_step(np.full(6, -np.inf), np.zeros(6), np.zeros((6, 3)), s, v)
    np.testing.assert_allclose(acc / z[:, None], softmax(s) @ v)
    np.testing.assert_allclose(m, s.max(axis=-1))


@pytest.mark.parametrize("block_k", [1, 5, 16, 64])
@pytest.mark.parametrize("block_q", [None, 1, 8])
def test_tiled_equals_attention(block_k, block_q):
    q, k, v = qkv()
    out = tiled_attention(q, k, v, block_k=block_k, block_q=block_q)
    np.testing.assert_allclose(out, attention(q, k, v)[0], atol=1e-12)


@pytest.mark.parametrize("block_k, block_q", [(1, None), (5, 3), (16, 16), (64, 8)])
def test_tiled_causal_and_window_equal_attention_with_the_mask(block_k, block_q):
    q, k, v = qkv()
    T = q.shape[-2]
    causal = tiled_attention(q, k, v, causal=True, block_k=block_k, block_q=block_q)
    np.testing.assert_allclose(causal, attention(q, k, v, causal_mask(T))[0], atol=1e-12)
    for w in (1, 4, 10, 100):
        out = tiled_attention(q, k, v, causal=True, window=w, block_k=block_k, block_q=block_q)
        ref = attention(q, k, v, sliding_window_mask(T, w))[0]
        np.testing.assert_allclose(out, ref, atol=1e-12)


def test_tiled_with_a_boolean_mask_and_a_scale():
    q, k, v = qkv((2, 9, 4))
    mask = padding_mask([5, 9], 9)[:, None, :]  # (B, 1, T_k): a key mask
    out = tiled_attention(q, k, v, mask, block_k=2, block_q=4, scale=0.3)
    np.testing.assert_allclose(out, attention(q, k, v, mask, scale=0.3)[0], atol=1e-12)
    both = mask & causal_mask(9)
    out = tiled_attention(q, k, v, mask, causal=True, block_k=3)
    np.testing.assert_allclose(out, attention(q, k, v, both)[0], atol=1e-12)


def test_a_batched_mask_batches_a_single_sequence():
    q, k, v = qkv((6, 4))
    mask = np.stack([causal_mask(6), np.ones((6, 6), dtype=bool)])  # (2, 6, 6)
    out = tiled_attention(q, k, v, mask, block_k=4, block_q=4)
    assert out.shape == (2, 6, 5)
    for b in range(2):  # attention() wants the mask no wider than the scores: one at a time
        np.testing.assert_allclose(out[b], attention(q, k, v, mask[b])[0], atol=1e-12)


def test_decoding_queries_are_the_last_positions():
    q, k, v = qkv((3, 4), T_k=10)  # 3 new queries after a cache of 7
    mask = causal_mask(10)[7:]
    for block_k in (1, 4, 10):
        out = tiled_attention(q, k, v, causal=True, block_k=block_k)
        np.testing.assert_allclose(out, attention(q, k, v, mask)[0], atol=1e-12)
    np.testing.assert_allclose(naive_attention(q, k, v, causal=True), attention(q, k, v, mask)[0])
    out = tiled_attention(q, k, v, causal=True, window=3, block_k=2)
    window = sliding_window_mask(10, 3)[7:]
    np.testing.assert_allclose(out, attention(q, k, v, window)[0], atol=1e-12)


def test_tiles_outside_the_causal_window_are_skipped():
    q, k, v = qkv((64, 4))
    _, full = tiled_attention(q, k, v, block_k=8, block_q=8, return_stats=True)
    _, causal = tiled_attention(q, k, v, causal=True, block_k=8, block_q=8, return_stats=True)
    _, window = tiled_attention(
        q, k, v, causal=True, window=8, block_k=8, block_q=8, return_stats=True
    )
    assert full == {"tiles": 64, "skipped": 0}
    assert causal == {"tiles": 36, "skipped": 28}  # the 8 * 9 / 2 tiles on or below the diagonal
    assert window == {"tiles": 15, "skipped": 49}  # the diagonal and the one just below it


def test_naive_attention_equals_attention_and_keeps_float32():
    q, k, v = qkv(dtype=np.float32)
    out = naive_attention(q, k, v)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, attention(q, k, v)[0], atol=1e-5)
    T = q.shape[-2]
    np.testing.assert_allclose(
        naive_attention(q, k, v, causal=True, window=5),
        attention(q, k, v, sliding_window_mask(T, 5))[0],
        atol=1e-5,
    )
    assert tiled_attention(q, k, v, block_k=8).dtype == np.float32


def test_memory_naive_grows_like_t_squared_and_tiled_like_t():
    peaks = {"naive": [], "tiled": []}
    Ts = [512, 1024, 2048]  # large enough that the T x T matrix dominates a ~130 kB floor
    for T in Ts:
        q, k, v = qkv((T, 16), dtype=np.float32)
        peaks["naive"].append(peak_memory(naive_attention, q, k, v)[1])
        peaks["tiled"].append(peak_memory(tiled_attention, q, k, v, block_k=64, block_q=64)[1])
    assert peaks["naive"][-1] >= 4 * 2048**2  # at least the float32 score matrix
    assert 1.8 < fit_slope(Ts, peaks["naive"]) < 2.1
    assert fit_slope(Ts, peaks["tiled"]) < 1.2  # at most linear (a fixed floor dominates here)
    assert peaks["tiled"][-1] < peaks["naive"][-1] / 10


def test_peak_memory_counts_the_result_and_refuses_nesting():
    result, peak = peak_memory(np.zeros, 1_000_000)
    assert result.nbytes == 8_000_000 and 8_000_000 <= peak < 8_100_000
    with pytest.raises(RuntimeError, match="tracemalloc"):
        peak_memory(peak_memory, np.zeros, 10)


def test_median_time_and_fit_slope():
    calls = []
    assert median_time(calls.append, 1, repeats=3, warmup=2) >= 0
    assert len(calls) == 5
    x = np.array([1.0, 2.0, 4.0, 8.0])
    assert math.isclose(fit_slope(x, 3 * x**2), 2.0)
    with pytest.raises(ValueError, match="positive"):
        fit_slope([1, 2], [0, 1])
    with pytest.raises(ValueError, match="same length"):
        fit_slope([1, 2, 3], [1, 2])


def test_layer_flops_match_torch_flop_counter():
    from torch.utils.flop_counter import FlopCounterMode

    from helpers.blocks import TransformerBlock

    D, H, d_ff, T = 32, 4, 128, 48
    block = TransformerBlock(D, H, d_ff, causal=True).eval()
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        block(torch.zeros(1, T, D))
    assert counter.get_total_flops() == sum(layer_flops(T, D, d_ff).values())
    flops = layer_flops(d_ff, D, d_ff)
    assert flops["attention"] == flops["ffn"]  # attention passes the FFN at T = d_ff


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(k=np.zeros((4, 3))), ValueError, "same width d_k"),
    (dict(v=np.zeros((5, 2))), ValueError, "same number of positions"),
    (dict(q=np.zeros(4)), ValueError, "at least 2 axes"),
    (dict(q=torch.zeros(4, 4)), TypeError, "NumPy arrays"),
    (dict(block_k=0), ValueError, "block_k must be a positive whole number"),
    (dict(block_q=2.5), ValueError, "block_q must be a positive whole number"),
    (dict(window=2), ValueError, "pass causal=True"),
    (dict(window=0, causal=True), ValueError, "window must be a positive whole number"),
    (dict(mask=np.ones((4, 3), dtype=bool)), ValueError, "does not broadcast"),
    (dict(mask=np.ones((4, 4))), ValueError, "must be boolean"),
    (dict(mask=np.eye(4, dtype=bool) & False), ValueError, "query row 0 has no allowed key"),
    (dict(q=np.zeros((6, 4)), causal=True), ValueError, "T_q <= T_k"),
])
def test_tiled_attention_errors(kwargs, error, match):
    args = dict(q=np.zeros((4, 4)), k=np.zeros((4, 4)), v=np.zeros((4, 4)))
    args.update(kwargs)
    q, k, v = args.pop("q"), args.pop("k"), args.pop("v")
    with pytest.raises(error, match=match):
        tiled_attention(q, k, v, **args)


def test_online_softmax_rejects_bad_blocks():
    with pytest.raises(ValueError, match="block_size must be a positive whole number"):
        online_softmax(np.zeros(4), 0)


def test_aten_ops_names_the_kernels():
    q = torch.randn(1, 1, 8, 4)
    out, ops = aten_ops(torch.nn.functional.scaled_dot_product_attention, q, q, q)
    assert ops == ["_scaled_dot_product_flash_attention_for_cpu"]
    assert out.shape == q.shape
    _, ops = aten_ops(attention, q, q, q)
    assert ops.count("bmm") == 2 and "exp" in ops


# ---------------------------------------------------------------------------- backward pass


def torch_grads(q, k, v, d_out, mask=None, scale=None):
    """(out, lse, dq, dk, dv) by torch autograd of softmax(q kᵀ · scale, masked) v, float64."""
    q, k, v = (torch.tensor(t, dtype=torch.float64, requires_grad=True) for t in (q, k, v))
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ k.transpose(-2, -1) * scale
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    out = torch.softmax(s, dim=-1) @ v
    out.backward(torch.as_tensor(d_out))
    lse = torch.logsumexp(s, dim=-1)
    return [t.detach().numpy() for t in (out, lse, q.grad, k.grad, v.grad)]


def test_attention_with_lse_is_attention_and_logsumexp():
    q, k, v = qkv((2, 3, 21, 8), T_k=30, dtype=np.float32)
    out, lse = attention_with_lse(q, k, v, block_k=7)
    assert out.dtype == lse.dtype == np.float64 and lse.shape == (2, 3, 21)
    want_out, want_lse, *_ = torch_grads(q, k, v, np.zeros((2, 3, 21, 5)))
    np.testing.assert_allclose(out, want_out, rtol=1e-10)
    np.testing.assert_allclose(lse, want_lse, rtol=1e-10)
    # with a causal mask (queries are the last 21 of 30 positions) and with a boolean mask
    mask = np.tri(21, 30, k=9, dtype=bool)
    out, lse = attention_with_lse(q, k, v, causal=True, block_k=4)
    want_out, want_lse, *_ = torch_grads(q, k, v, np.zeros((2, 3, 21, 5)), mask)
    np.testing.assert_allclose(lse, want_lse, rtol=1e-10)
    out2, lse2 = attention_with_lse(q, k, v, mask)
    np.testing.assert_allclose(lse2, lse, rtol=1e-12)
    np.testing.assert_allclose(out2, want_out, rtol=1e-10)
    _, lse3 = tiled_attention(q.astype(float), k, v, return_lse=True, block_k=5)
    np.testing.assert_allclose(np.exp(lse3), np.exp(attention_with_lse(q, k, v)[1]), rtol=1e-10)


@pytest.mark.parametrize("T, scale", [(1, None), (9, None), (6, 0.7)])
def test_row_backward_equals_torch_autograd(T, scale):
    rng = np.random.default_rng(T)
    q, k, v, d_out = rng.normal(size=5), rng.normal(size=(T, 5)), rng.normal(size=(T, 3)), \
        rng.normal(size=3)
    _, lse, dq, dk, dv = torch_grads(q[None], k, v, d_out[None], scale=scale)
    got = row_backward(q, k, v, float(lse[0]), d_out, scale=scale)
    for g, want, shape in zip(got, (dq[0], dk, dv), ((5,), (T, 5), (T, 3)), strict=True):
        assert g.shape == shape
        np.testing.assert_allclose(g, want, rtol=1e-10, atol=1e-12)


def test_row_backward_needs_the_right_lse():
    rng = np.random.default_rng(0)
    q, k, v, d_out = rng.normal(size=4), rng.normal(size=(6, 4)), rng.normal(size=(6, 2)), \
        rng.normal(size=2)
    lse = np.log(np.exp(k @ q / 2).sum())
    dq, dk, dv = row_backward(q, k, v, lse, d_out)
    assert np.isclose(dv.sum(), d_out.sum())  # the weights sum to 1: Σ_j dv_j = d_out
    np.testing.assert_allclose(dk.sum(axis=0) @ q, 0, atol=1e-12)  # shifting all scores: no change
    wrong = row_backward(q, k, v, lse + 1.0, d_out)[2]  # weights e times too small
    np.testing.assert_allclose(wrong, dv / math.e)
    with pytest.raises(ValueError, match="one query"):
        row_backward(q[None], k, v, lse, d_out)
    with pytest.raises(ValueError, match="shapes do not fit"):
        row_backward(q, k[:, :3], v, lse, d_out)
    with pytest.raises(ValueError, match="one number"):
        row_backward(q, k, v, np.array([lse]), d_out)


@pytest.mark.parametrize("causal, block_k", [(False, 64), (False, 5), (True, 7), (True, 1)])
def test_attention_backward_equals_torch_autograd(causal, block_k):
    q, k, v = qkv((2, 2, 17, 6), T_k=23, d_v=4, seed=3)
    d_out = np.random.default_rng(9).normal(size=(2, 2, 17, 4))
    out, lse = attention_with_lse(q, k, v, causal=causal)
    mask = np.tri(17, 23, k=6, dtype=bool) if causal else None
    want_out, _, dq, dk, dv = torch_grads(q, k, v, d_out, mask)
    np.testing.assert_allclose(out, want_out, rtol=1e-10)
    got = attention_backward(q, k, v, out, lse, d_out, causal=causal, block_k=block_k)
    for g, want in zip(got, (dq, dk, dv), strict=True):
        np.testing.assert_allclose(g, want, rtol=1e-9, atol=1e-12)


def test_attention_backward_with_a_mask_and_a_scale():
    q, k, v = qkv((3, 12, 4), d_v=2, seed=4)
    mask = np.random.default_rng(5).random((3, 12, 12)) > 0.5
    mask[..., 0] = True
    d_out = np.random.default_rng(6).normal(size=(3, 12, 2))
    out, lse = attention_with_lse(q, k, v, mask, scale=0.3)
    _, _, dq, dk, dv = torch_grads(q, k, v, d_out, mask, scale=0.3)
    got = attention_backward(q, k, v, out, lse, d_out, mask=mask, scale=0.3, block_k=5)
    for g, want in zip(got, (dq, dk, dv), strict=True):
        np.testing.assert_allclose(g, want, rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match=r"lse must have shape \(3, 12\)"):
        attention_backward(q, k, v, out, lse[..., :5], d_out)
    with pytest.raises(ValueError, match="boolean"):
        attention_backward(q, k, v, out, lse, d_out, mask=mask.astype(float))


def test_attention_backward_refuses_a_row_with_no_key_or_gives_it_zero_gradient():
    # row 2 may read no key: its lse is log 0 = -inf. exp(s - lse) would put inf and NaN into
    # dk and dv of every key, so it is refused; FlashAttention-2's +inf gives zero gradient
    q, k, v = qkv((6, 4), d_v=3, seed=7)
    mask = np.ones((6, 6), dtype=bool)
    mask[2] = False
    d_out = np.random.default_rng(8).normal(size=(6, 3))
    keep = [0, 1, 3, 4, 5]
    out_k, lse_k = attention_with_lse(q[keep], k, v, mask[keep])
    _, _, dq, dk, dv = torch_grads(q[keep], k, v, d_out[keep], mask[keep])
    out, lse = np.zeros((6, 3)), np.full(6, -np.inf)
    out[keep], lse[keep] = out_k, lse_k
    with pytest.raises(ValueError, match=r"lse\[2\] is -inf: that query row has no allowed key"):
        attention_backward(q, k, v, out, lse, d_out, mask=mask)
    lse[2] = np.inf  # FlashAttention-2's convention for an empty row
    got_dq, got_dk, got_dv = attention_backward(q, k, v, out, lse, d_out, mask=mask, block_k=4)
    assert (got_dq[2] == 0).all() and np.isfinite(got_dk).all() and np.isfinite(got_dv).all()
    np.testing.assert_allclose(got_dq[keep], dq, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got_dk, dk, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got_dv, dv, rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match="no allowed key"):
        attention_backward(q, k, v, out, np.full(6, np.nan), d_out)


def naive_backward(q, k, v, d_out):
    """The textbook backward: the full T x T weight matrix and its gradient."""
    scale = 1 / math.sqrt(q.shape[-1])
    p = q @ k.T * scale  # (T, T)
    p = np.exp(p - p.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    out = p @ v
    dp = d_out @ v.T  # (T, T)
    ds = p * (dp - (d_out * out).sum(axis=-1, keepdims=True))
    return ds @ k * scale, ds.T @ q * scale, p.T @ d_out


def test_backward_memory_grows_like_t_while_the_naive_one_holds_t_by_t():
    peaks = {"blocked": [], "naive": []}
    Ts = [256, 1024]
    for T in Ts:
        q, k, v = qkv((T, 8), d_v=8)
        d_out = np.ones((T, 8))
        out, lse = attention_with_lse(q, k, v)
        peaks["blocked"].append(peak_memory(attention_backward, q, k, v, out, lse, d_out,
                                            block_k=64)[1])
        got, peak = peak_memory(naive_backward, q, k, v, d_out)
        peaks["naive"].append(peak)
    np.testing.assert_allclose(got[1], attention_backward(q, k, v, out, lse, d_out)[1],
                               rtol=1e-8, atol=1e-12)
    assert peaks["naive"][-1] >= 2 * 8 * 1024**2  # P and dP, float64
    assert fit_slope(Ts, peaks["naive"]) > 1.8
    assert fit_slope(Ts, peaks["blocked"]) < 1.2
    assert peaks["blocked"][-1] < peaks["naive"][-1] / 5


def test_tiled_attention_keeps_float32():
    """The scale was an np.float64, which made every float32 score tile float64 (twice the
    memory lesson 09 measures)."""
    q = np.random.default_rng(0).standard_normal((1024, 64)).astype(np.float32)
    assert tiled_attention(q, q, q, block_k=256).dtype == np.float32
    tile = 1024 * 256 * 4  # one (T, block_k) float32 score tile: 1 MiB
    assert peak_memory(tiled_attention, q, q, q, block_k=256)[1] < 4.5 * tile  # 7.3 in float64


# ---------------------------------------------------------------------------- FlashDecoding


def sdpa(q, k, v, mask=None):
    t = [torch.from_numpy(np.asarray(a, dtype=np.float64)) for a in (q, k, v)]
    m = None if mask is None else torch.from_numpy(np.asarray(mask))
    return torch.nn.functional.scaled_dot_product_attention(*t, attn_mask=m).numpy()


@pytest.mark.parametrize("chunk_size", [1, 3, 7, 16, 37, 100])
def test_flash_decoding_equals_sdpa_for_any_chunk_size(chunk_size):
    q, k, v = qkv((2, 3, 1, 8), T_k=37, seed=7)  # one decode query, 37 cached keys
    out, lse = flash_decoding(q, k, v, chunk_size=chunk_size, return_lse=True)
    np.testing.assert_allclose(out, sdpa(q, k, v), rtol=1e-10, atol=1e-12)
    s = q @ np.swapaxes(k, -2, -1) / np.sqrt(8)
    np.testing.assert_allclose(lse, np.log(np.exp(s).sum(axis=-1)), rtol=1e-12)


@pytest.mark.parametrize("chunk_size", [4, 5, 10])
def test_flash_decoding_with_padding_and_several_queries(chunk_size):
    q, k, v = qkv((3, 2, 4, 8), T_k=23, seed=8)
    lengths = np.array([23, 9, 2])  # sequence b has lengths[b] real keys, the rest padding
    mask = (np.arange(23)[None, :] < lengths[:, None])[:, None, None, :]  # (3, 1, 1, 23)
    out = flash_decoding(q, k, v, mask, chunk_size=chunk_size)
    np.testing.assert_allclose(out, sdpa(q, k, v, mask), rtol=1e-10, atol=1e-12)
    outs, lses = chunk_partials(q, k, v, mask, chunk_size=chunk_size)
    n_chunks = -(-23 // chunk_size)
    assert outs.shape == (3, 2, n_chunks, 4, 5) and lses.shape == (3, 2, n_chunks, 4)
    assert np.isneginf(lses[2, :, 1:]).all() and (outs[2, :, 1:] == 0).all()  # all padding


def test_combine_partials_of_two_halves_by_hand():
    q, k, v = qkv((1, 1, 6), T_k=10, d_v=3, seed=9)
    halves = [attention(q, k[..., a:b, :], v[..., a:b, :])[0] for a, b in ((0, 4), (4, 10))]
    s = q @ np.swapaxes(k, -2, -1) / np.sqrt(6)
    lse = [np.log(np.exp(s[..., a:b]).sum(-1)) for a, b in ((0, 4), (4, 10))]
    out, _ = combine_partials(np.stack(halves, axis=-3), np.stack(lse, axis=-2))
    w0 = np.exp(lse[0]) / (np.exp(lse[0]) + np.exp(lse[1]))
    np.testing.assert_allclose(out, w0[..., None] * halves[0] + (1 - w0[..., None]) * halves[1])
    np.testing.assert_allclose(out, attention(q, k, v)[0], rtol=1e-12)


def test_flash_decoding_keeps_float32_and_refuses_a_row_with_no_key():
    q, k, v = qkv((1, 1, 8), T_k=9, dtype=np.float32)
    assert flash_decoding(q, k, v, chunk_size=4).dtype == np.float32
    with pytest.raises(ValueError, match="no allowed key"):
        flash_decoding(q, k, v, np.zeros((1, 9), dtype=bool), chunk_size=4)
    with pytest.raises(ValueError, match="chunk_size"):
        flash_decoding(q, k, v, chunk_size=0)
