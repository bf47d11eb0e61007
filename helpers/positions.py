"""Position information: sinusoidal and learned absolute encodings, RoPE, ALiBi.

Fixed tables (`sinusoidal_encoding`, `alibi_bias`) are NumPy float64 arrays, like
`helpers.masks`; use `torch.as_tensor` to add them to torch tensors. `apply_rope` returns the
kind it was given.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn


def _check_positive(name: str, value) -> None:
    if int(value) != value or value < 1:
        raise ValueError(f"{name} must be a positive whole number; got {value!r}")


def sinusoidal_encoding(T: int, d_model: int) -> np.ndarray:
    """(T, d_model): PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(same angle)."""
    _check_positive("T", T)
    _check_positive("d_model", d_model)
    pos = np.arange(T)[:, None]  # (T, 1)
    two_i = np.arange(0, d_model, 2)  # (ceil(d/2),): the even feature indices 2i
    angle = pos / 10000.0 ** (two_i / d_model)  # (T, ceil(d/2))
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])  # an odd d_model has one sin column more
    return pe


class LearnedPositions(nn.Module):
    """A trained table of max_len position vectors; there is no row past the last one."""

    def __init__(self, max_len: int, d_model: int):
        super().__init__()
        self.max_len = max_len
        self.table = nn.Embedding(max_len, d_model)

    def forward(self, positions) -> torch.Tensor:
        """positions: an int T (meaning 0..T-1) or integer indices (...) -> (..., d_model)."""
        if isinstance(positions, (int, np.integer)):  # a count T of any integer type: 0..T-1
            positions = torch.arange(int(positions), device=self.table.weight.device)
        positions = torch.as_tensor(positions, device=self.table.weight.device)
        if positions.numel() and positions.min() < 0:
            raise ValueError(f"positions count from 0; got position {int(positions.min())}")
        if positions.numel() and positions.max() >= self.max_len:
            raise ValueError(
                f"position {int(positions.max())} is past the learned table of {self.max_len} "
                f"positions (0..{self.max_len - 1}): a learned encoding has no vector for a "
                "position it never trained on"
            )
        return self.table(positions)


def apply_rope(x, positions=None, base: float = 10000.0, inv_freq=None):
    """Rotate each feature pair (2i, 2i+1) of x (..., T, d) by angle pos * base^(-2i/d).

    Apply it to q and k, not v: then q_m . k_n depends on m and n only through m - n.
    positions: (T,) or broadcastable to x.shape[:-1]; defaults to 0..T-1. For heads
        x (B, H, T, d), positions (B, T) give each sequence its own (left padding).
    inv_freq: (d/2,) frequencies theta_i to use instead of base^(-2i/d) (scaled RoPE, see
        `helpers.rope_scaling`); `base` is then ignored.
    """
    if x.ndim < 2 or x.shape[-1] % 2:
        raise ValueError(
            "apply_rope needs x of shape (..., T, d) with an even width d, since it rotates "
            f"pairs of features; got shape {tuple(x.shape)}"
        )
    T, d = x.shape[-2], x.shape[-1]
    pos = np.arange(T) if positions is None else _to_numpy(positions)
    if x.ndim == 4 and pos.ndim == 2:
        pos = pos[:, None, :]  # (B, 1, T): the same positions for every head
    if inv_freq is None:
        inv_freq = base ** (-np.arange(0, d, 2) / d)  # (d/2,): theta_i
    else:
        inv_freq = _to_numpy(inv_freq).astype(float)
        if inv_freq.shape != (d // 2,):
            raise ValueError(
                f"inv_freq must hold one frequency per feature pair, shape (d/2,) = "
                f"({d // 2},); got shape {inv_freq.shape}"
            )
    angle = pos.astype(float)[..., None] * inv_freq  # (..., T, d/2)
    cos, sin = np.cos(angle), np.sin(angle)
    if isinstance(x, torch.Tensor):
        cos = torch.as_tensor(cos, dtype=x.dtype, device=x.device)
        sin = torch.as_tensor(sin, dtype=x.dtype, device=x.device)
        stack = torch.stack
    else:
        x = np.asarray(x, dtype=float)
        stack = np.stack
    x1, x2 = x[..., 0::2], x[..., 1::2]  # (..., T, d/2) each: the two halves of every pair
    rotated = stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1)  # (..., T, d/2, 2)
    return rotated.reshape(x.shape)  # pairs interleaved back: (..., T, d)


def _to_numpy(x) -> np.ndarray:
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def alibi_slopes(n_heads: int) -> np.ndarray:
    """(H,): head h = 1..H gets slope 2^(-8h/H) when H is a power of two.

    Otherwise (the rule of the ALiBi authors' code, `get_slopes` in
    github.com/ofirpress/attention_with_linear_biases; the paper trains powers of two only)
    take the slopes for the nearest smaller power of two n, then every other slope of the 2n
    sequence until there are H.
    """
    _check_positive("n_heads", n_heads)

    def geometric(n: int) -> list[float]:
        return [2.0 ** (-8.0 * h / n) for h in range(1, n + 1)]

    n = 2 ** int(math.floor(math.log2(n_heads)))
    slopes = geometric(n) + geometric(2 * n)[0::2][: n_heads - n]
    return np.array(slopes)


def alibi_bias(n_heads: int, T: int) -> np.ndarray:
    """(H, T, T) bias added to the scores: -slope_h * (i - j) for key j <= query i.

    Future entries (j > i) are 0: ALiBi is defined for causal models, so the causal mask must
    still block them (add `helpers.masks.additive_bias(causal_mask(T))`).
    """
    _check_positive("T", T)
    distance = np.arange(T)[:, None] - np.arange(T)[None, :]  # (T, T): i - j
    distance = np.where(distance >= 0, distance, 0)
    return -alibi_slopes(n_heads)[:, None, None] * distance  # (H, T, T)
