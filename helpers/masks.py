"""Masks as booleans with True = may attend (the F.scaled_dot_product_attention convention).

nn.MultiheadAttention uses the opposite convention (True = blocked); `to_mha` and `to_sdpa`
convert between the two.
"""

from __future__ import annotations

import numpy as np
import torch


def causal_mask(T: int) -> np.ndarray:
    """(T, T): row i may attend to columns 0..i, its own past and itself."""
    if int(T) != T or T < 1:
        raise ValueError(f"T must be a positive whole number of positions; got {T!r}")
    return np.tril(np.ones((T, T), dtype=bool))


def padding_mask(lengths, T: int) -> np.ndarray:
    """(B, T): True where the token is real, False where it is padding.

    Use it as a key mask with `padding_mask(lengths, T)[:, None, :]`, which broadcasts to
    (B, T_q, T_k).
    """
    lengths = np.asarray(lengths)
    if lengths.ndim != 1:
        raise ValueError(
            f"lengths must be one length per sequence, shape (B,); got shape {lengths.shape}"
        )
    if (lengths < 1).any() or (lengths > T).any():
        raise ValueError(f"every length must lie in 1..T={T}; got {lengths.tolist()}")
    return np.arange(T)[None, :] < lengths[:, None]


def _check_bool(mask, name: str) -> None:
    dtype = mask.dtype
    if dtype not in (np.bool_, torch.bool):
        raise ValueError(f"{name} must be a boolean mask; got dtype {dtype}")


def additive_bias(mask):
    """Boolean mask (True = may attend) -> float bias: 0 where allowed, -inf where blocked.

    Added to the scores before softmax: exp(-inf) = 0, so a blocked key gets no weight.
    """
    if isinstance(mask, torch.Tensor):
        _check_bool(mask, "mask")
        zeros = torch.zeros(mask.shape, device=mask.device)  # on the mask's device
        return zeros.masked_fill(~mask, float("-inf"))
    mask = np.asarray(mask)
    _check_bool(mask, "mask")
    return np.where(mask, 0.0, -np.inf)


def to_mha(sdpa_mask):
    """SDPA convention (True = may attend) -> nn.MultiheadAttention's (True = blocked)."""
    _check_bool(sdpa_mask, "sdpa_mask")
    return ~sdpa_mask


def to_sdpa(mha_mask):
    """nn.MultiheadAttention convention (True = blocked) -> SDPA's (True = may attend)."""
    _check_bool(mha_mask, "mha_mask")
    return ~mha_mask


def leaks_future(attend, x, *, eps: float = 1.0, atol: float = 1e-6, axis: int = -2, perturb=None):
    """Which outputs move when a later token changes: the test that catches a reversed mask.

    attend: a function x -> outputs with positions on axis -2, shape (..., T, d_out): an
        attention layer, a block, a model's logits. NumPy or torch (in eval mode: dropout
        would move every output).
    x: its input, positions on `axis` (default -2, as in (..., T, d_model)).
    perturb: perturb(x, j) -> a copy of x with token j changed. The default adds `eps` times a
        fixed non-constant vector (from 1 to 2 across the features, so a LayerNorm cannot
        cancel it) to token j; pass your own for integer token ids.
    Returns a (T, T) boolean array: [i, j] is True when changing token j > i moved output i by
    more than `atol` (anywhere in the batch and features). A causal model gives all False.
    """
    def as_numpy(y):
        y = y.detach().cpu().numpy() if isinstance(y, torch.Tensor) else np.asarray(y)
        return y.astype(float)

    def add_eps(x, j):
        x = x.clone() if isinstance(x, torch.Tensor) else np.array(x)
        if not (x.is_floating_point() if isinstance(x, torch.Tensor) else x.dtype.kind == "f"):
            raise ValueError(
                f"x has dtype {x.dtype}, so eps cannot be added to it (token ids?); "
                "pass perturb=lambda x, j: <x with token j replaced>"
            )
        index = [slice(None)] * x.ndim
        index[axis] = j
        d = x.shape[-1]
        direction = np.linspace(1.0, 2.0, d) if d > 1 else np.ones(1)  # not constant over features
        if isinstance(x, torch.Tensor):
            direction = torch.as_tensor(direction, dtype=x.dtype, device=x.device)
        x[tuple(index)] += eps * direction
        return x

    perturb = perturb or add_eps
    T = x.shape[axis]
    with torch.no_grad():
        base = as_numpy(attend(x))
        if base.ndim < 2 or base.shape[-2] != T:
            raise ValueError(
                f"attend must return outputs of shape (..., T={T}, d_out), positions on axis -2; "
                f"got shape {base.shape}"
            )
        moved = np.zeros((T, T), dtype=bool)
        for j in range(1, T):
            change = np.abs(as_numpy(attend(perturb(x, j))) - base)  # (..., T, d_out)
            per_output = np.moveaxis(change, -2, 0).reshape(T, -1).max(axis=1)  # (T,)
            moved[:j, j] = per_output[:j] > atol
    return moved


def sliding_window_mask(T: int, window: int) -> np.ndarray:
    """(T, T): row i may attend to the `window` most recent positions i-window+1..i.

    A causal mask with a horizon: the query itself counts as one of the `window` keys, no key
    after it is allowed, and window >= T gives causal_mask(T).
    """
    if int(T) != T or T < 1:
        raise ValueError(f"T must be a positive whole number of positions; got {T!r}")
    if int(window) != window or window < 1:
        raise ValueError(
            f"window must be a positive whole number of keys (the query itself counts as one); "
            f"got {window!r}"
        )
    offset = np.arange(T)[:, None] - np.arange(T)[None, :]  # (T, T): i - j, how far back j is
    return (offset >= 0) & (offset < window)


def _check_count(name: str, value, least: int = 1) -> int:
    if isinstance(value, bool) or int(value) != value or value < least:
        kind = "positive" if least == 1 else "non-negative"
        raise ValueError(f"{name} must be a {kind} whole number; got {value!r}")
    return int(value)


def chunk_causal_mask(T_q: int, T_k: int) -> np.ndarray:
    """(T_q, T_k): the T_q queries are the LAST T_q of T_k positions (lower-right aligned).

    Query i sits at position T_k - T_q + i and reads keys 0..T_k - T_q + i: what a chunk of a
    prefill, or one decoding step, needs after a KV cache of T_k - T_q positions. With
    T_q == T_k it is causal_mask(T). (F.scaled_dot_product_attention's is_causal=True aligns
    the triangle top-left instead: query i reads keys 0..i, wrong after a cache.)
    """
    T_q, T_k = _check_count("T_q", T_q), _check_count("T_k", T_k)
    if T_q > T_k:
        raise ValueError(
            f"a chunk's queries are among its keys, so T_q <= T_k; got T_q={T_q}, T_k={T_k}"
        )
    return np.tri(T_q, T_k, k=T_k - T_q, dtype=bool)  # key j <= T_k - T_q + i


def sink_window_mask(T: int, window: int, n_sink: int) -> np.ndarray:
    """(T, T): a causal sliding window of `window` keys plus the first `n_sink` keys always.

    StreamingLLM (Xiao et al. 2023, arXiv:2309.17453): keeping the first few tokens, the
    "attention sinks", lets a windowed model stream far past its window. A sink is still a
    key of the past: query i reads key j < n_sink only when j <= i.
    """
    n_sink = _check_count("n_sink", n_sink, least=0)
    window_part = sliding_window_mask(T, window)  # checks T and window
    sinks = np.arange(T)[None, :] < n_sink  # (1, T): the first n_sink keys
    return window_part | (sinks & causal_mask(T))
