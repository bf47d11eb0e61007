"""KV-cache quantization: int8 with absmax scales, and fp8 (e4m3), and what they cost attention.

Decoding reads the whole cache every step (lesson 10's roofline), so storing it in 1 byte per
value instead of 2 (bfloat16) or 4 (float32) halves or quarters that traffic, at the price of
rounding. Symmetric absmax int8: scale = max|x| / 127 over a group of values, x_q =
round(x / scale) in [-127, 127], x ≈ x_q · scale, each value off by at most scale / 2. The
group decides the error and the bytes of scales:

    "token"    one scale per (head, token), over its d features: scale (..., H, T, 1)
    "channel"  one scale per (head, feature), over the T tokens:  scale (..., H, 1, d)
    "head"     one scale per head, over all T · d values:          scale (..., H, 1, 1)

Keys have a few outlier channels, so KIVI (Liu et al. 2024) quantizes keys per channel and
values per token. fp8 e4m3 (torch.float8_e4m3fn: 4 exponent bits, 3 mantissa bits, largest
448) keeps about 2 significant digits over a wide range; vLLM's fp8 cache divides by a scale
first so that the largest value lands near 448.

Shapes: x (..., H, T, d), as a cache (B, H_kv, T, d) stores keys and values. torch only.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

INT8_MAX = 127
FP8_MAX = torch.finfo(torch.float8_e4m3fn).max  # 448.0
_AXES = {"token": (-1,), "channel": (-2,), "head": (-2, -1)}


def _check(x, granularity: str) -> tuple[int, ...]:
    if not isinstance(x, torch.Tensor) or not x.is_floating_point() or x.ndim < 3:
        shape = tuple(x.shape) if hasattr(x, "shape") else type(x).__name__
        raise ValueError(f"x must be a float tensor (..., H, T, d); got {shape}")
    if granularity not in _AXES:
        raise ValueError(f"granularity must be one of {sorted(_AXES)}; got {granularity!r}")
    if not bool(torch.isfinite(x).all()):
        raise ValueError("x must be finite to be quantized")
    return _AXES[granularity]


def absmax_scale(x: torch.Tensor, granularity: str, largest: float) -> torch.Tensor:
    """max|x| / largest over each group, float32, kept dims (see the module's table).

    A group of zeros gets scale 1 (any scale stores 0 exactly), never 0 (0 / 0).
    """
    axes = _check(x, granularity)
    amax = x.abs().float().amax(dim=axes, keepdim=True)
    return torch.where(amax > 0, amax / largest, torch.ones_like(amax))


def quantize_int8(x: torch.Tensor, granularity: str = "token"):
    """(x_q int8 (..., H, T, d), scale float32): x ≈ x_q · scale, |error| <= scale / 2."""
    scale = absmax_scale(x, granularity, INT8_MAX)
    x_q = torch.round(x.float() / scale).clamp(-INT8_MAX, INT8_MAX).to(torch.int8)
    return x_q, scale


def quantize_fp8(x: torch.Tensor, granularity: str | None = "token"):
    """(x_q float8_e4m3fn (..., H, T, d), scale float32): x ≈ x_q · scale.

    granularity None stores x as it is (scale 1): values beyond ±448 are refused, and values
    below 2^-6 lose precision (subnormals). Otherwise the group's max|x| is scaled to 448.
    """
    if granularity is None:
        _check(x, "head")
        if bool((x.abs() > FP8_MAX).any()):
            raise ValueError(f"unscaled fp8 holds |x| <= {FP8_MAX}; scale x first")
        scale = torch.ones((1,) * x.ndim)
    else:
        scale = absmax_scale(x, granularity, FP8_MAX)
    return (x.float() / scale).to(torch.float8_e4m3fn), scale


def dequantize(x_q: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """x_q · scale in float32: the inverse of quantize_int8 and quantize_fp8, up to rounding."""
    return x_q.float() * scale


def quantized_bytes(shape, granularity: str | None, value_bytes: int = 1,
                    scale_bytes: int = 4) -> dict[str, int]:
    """Bytes of one quantized tensor of `shape` (..., H, T, d): values, scales and total.

    value_bytes: 1 for int8 and fp8. scale_bytes: 4 (float32 scales); granularity None: no
    scales. Compare with x.numel() · 2 for bfloat16.
    """
    shape = tuple(int(n) for n in shape)
    if len(shape) < 3 or min(shape) < 1:
        raise ValueError(f"shape must be (..., H, T, d) with positive sizes; got {shape}")
    n_values = 1
    for n in shape:
        n_values *= n
    if granularity is None:
        n_scales = 0
    elif granularity in _AXES:
        n_scales = n_values
        for axis in _AXES[granularity]:
            n_scales //= shape[axis]
    else:
        raise ValueError(f"granularity must be one of {sorted(_AXES)} or None; got {granularity!r}")
    values = n_values * value_bytes
    return {"values": values, "scales": n_scales * scale_bytes,
            "total": values + n_scales * scale_bytes}


def round_trip(x: torch.Tensor, fmt: str, granularity: str | None = "token") -> torch.Tensor:
    """x quantized to fmt ("int8" or "fp8") and back, float32."""
    if fmt == "int8":
        return dequantize(*quantize_int8(x, granularity))
    if fmt == "fp8":
        return dequantize(*quantize_fp8(x, granularity))
    raise ValueError(f"fmt must be 'int8' or 'fp8'; got {fmt!r}")


def attention_error(q, k, v, fmt: str, *, k_granularity: str | None = "channel",
                    v_granularity: str | None = "token", mask=None) -> float:
    """‖out_quantized - out‖ / ‖out‖ with K and V stored in fmt, against float32 attention.

    q (..., H, T_q, d), k, v (..., H, T_k, d); both outputs come from
    F.scaled_dot_product_attention in float32 (mask: boolean, True = may attend).
    """
    q, k, v = (t.float() for t in (q, k, v))
    exact = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    k_hat, v_hat = round_trip(k, fmt, k_granularity), round_trip(v, fmt, v_granularity)
    approx = F.scaled_dot_product_attention(q, k_hat, v_hat, attn_mask=mask)
    return float((approx - exact).norm() / exact.norm())
