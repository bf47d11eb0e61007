"""helpers.kv_quant: int8 absmax and fp8 e4m3 round trips, bytes, and attention's error."""

import pytest
import torch

from helpers.kv_quant import (
    FP8_MAX,
    absmax_scale,
    attention_error,
    dequantize,
    quantize_fp8,
    quantize_int8,
    quantized_bytes,
    round_trip,
)


def x_cache(seed=0, shape=(2, 3, 16, 8)):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g)
    x[..., 5] *= 20  # an outlier channel, as keys have
    return x


@pytest.mark.parametrize("granularity, scale_shape", [
    ("token", (2, 3, 16, 1)), ("channel", (2, 3, 1, 8)), ("head", (2, 3, 1, 1))])
def test_int8_round_trip_is_within_half_a_step(granularity, scale_shape):
    x = x_cache()
    x_q, scale = quantize_int8(x, granularity)
    assert x_q.dtype == torch.int8 and x_q.shape == x.shape and scale.shape == scale_shape
    # absmax over the group by hand, independent of the module
    dims = {"token": (-1,), "channel": (-2,), "head": (-2, -1)}[granularity]
    torch.testing.assert_close(scale, x.abs().amax(dim=dims, keepdim=True) / 127)
    err = (dequantize(x_q, scale) - x).abs()
    assert bool((err <= scale / 2 * (1 + 1e-6)).all())
    assert int(x_q.abs().max()) == 127  # the largest value of a group lands on ±127


def test_int8_per_channel_beats_per_token_on_an_outlier_channel_of_keys():
    x = x_cache(1)
    err = {g: float((round_trip(x, "int8", g) - x).norm()) for g in ("token", "channel")}
    assert err["channel"] < err["token"]


def test_zeros_are_exact_and_a_zero_group_gets_scale_one():
    x = torch.zeros(1, 2, 4, 3)
    x[0, 1, 2] = torch.tensor([0.5, 0.0, -1.0])
    for fmt in ("int8", "fp8"):
        back = round_trip(x, fmt, "token")
        assert bool((back[x == 0] == 0).all())
    assert float(absmax_scale(x, "token", 127)[0, 0, 0, 0]) == 1.0


def test_fp8_rounds_to_the_nearest_e4m3_value():
    # every finite e4m3 value, from its 256 bit patterns: the reference grid
    grid = torch.arange(256, dtype=torch.uint8).view(torch.float8_e4m3fn).float()
    grid = grid[torch.isfinite(grid)].unique()
    assert float(grid.max()) == FP8_MAX == 448.0
    x = x_cache(2)
    x_q, scale = quantize_fp8(x, "token")
    assert x_q.dtype == torch.float8_e4m3fn
    y = (x / scale).flatten()
    nearest_gap = (y[:, None] - grid[None, :]).abs().min(dim=1).values
    assert torch.equal((x_q.float().flatten() - y).abs(), nearest_gap)
    # 3 mantissa bits: relative error at most 2^-4 for normal values
    big = y.abs() >= 2**-6
    assert bool(((x_q.float().flatten() - y).abs()[big] <= y.abs()[big] / 16).all())


def test_unscaled_fp8_refuses_values_beyond_448():
    x_q, scale = quantize_fp8(torch.full((1, 1, 1, 2), 3.0), None)
    assert float(scale.max()) == 1.0 and float(x_q.float().max()) == 3.0
    with pytest.raises(ValueError, match="448"):
        quantize_fp8(torch.full((1, 1, 1, 1), 500.0), None)


def test_bytes_count_values_and_scales():
    shape = (1, 8, 4096, 128)  # one layer's keys: 8 kv heads, 4096 tokens, d = 128
    n = 8 * 4096 * 128
    assert quantized_bytes(shape, "token") == {"values": n, "scales": 8 * 4096 * 4,
                                               "total": n + 8 * 4096 * 4}
    assert quantized_bytes(shape, "channel")["scales"] == 8 * 128 * 4
    assert quantized_bytes(shape, "head")["scales"] == 8 * 4
    assert quantized_bytes(shape, None)["total"] == n  # half of bfloat16's 2 n
    with pytest.raises(ValueError, match="granularity"):
        quantized_bytes(shape, "row")


def test_attention_error_is_small_and_measured_against_float32():
    g = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(1, 4, 8, 32, generator=g) for _ in range(3))
    k[..., 3] *= 15
    e_int8 = attention_error(q, k, v, "int8")
    e_fp8 = attention_error(q, k, v, "fp8")
    assert 0 < e_int8 < 0.02 and 0 < e_fp8 < 0.1
    assert e_int8 < e_fp8  # 127 even steps per channel vs 3 mantissa bits
    mask = torch.ones(8, 8, dtype=torch.bool).tril()
    assert 0 < attention_error(q, k, v, "int8", mask=mask) < 0.02


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="granularity"):
        quantize_int8(torch.ones(1, 1, 2, 2), "row")
    with pytest.raises(ValueError, match=r"\(\.\.\., H, T, d\)"):
        quantize_int8(torch.ones(4), "token")
    with pytest.raises(ValueError, match="finite"):
        quantize_int8(torch.tensor([[[float("nan")]]]), "token")
    with pytest.raises(ValueError, match="fmt"):
        round_trip(torch.ones(1, 1, 1, 1), "int4")
