"""Scaled dot-product attention: the one reference implementation every lesson imports.

Works on NumPy arrays and torch tensors alike and returns the kind it was given.
Shapes: q (..., T_q, d_k), k (..., T_k, d_k), v (..., T_k, d_v) -> out (..., T_q, d_v).
"""

from __future__ import annotations

import math

import numpy as np
import torch


def _is_torch(x) -> bool:
    return isinstance(x, torch.Tensor)


def softmax(x, axis: int = -1):
    """Numerically stable softmax along `axis`: subtract the max before exp.

    A row that is all -inf has no finite maximum and gives NaN; `attention` refuses such a row
    before it gets here.
    """
    if _is_torch(x):
        shifted = x - x.amax(dim=axis, keepdim=True)
        exp = torch.exp(shifted)
        return exp / exp.sum(dim=axis, keepdim=True)
    x = np.asarray(x, dtype=float) if not isinstance(x, np.ndarray) else x
    shifted = x - x.max(axis=axis, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=axis, keepdims=True)


def _check_shapes(q, k, v) -> None:
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.ndim < 2:
            raise ValueError(
                f"{name} must have at least 2 axes (..., positions, features); "
                f"got shape {tuple(t.shape)}"
            )
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            "q and k must have the same width d_k, because each score is a dot product q_i . k_j; "
            f"got q width {q.shape[-1]} (shape {tuple(q.shape)}) and "
            f"k width {k.shape[-1]} (shape {tuple(k.shape)})"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            "k and v must have the same number of positions T_k, one value per key; "
            f"got k with {k.shape[-2]} (shape {tuple(k.shape)}) and "
            f"v with {v.shape[-2]} (shape {tuple(v.shape)})"
        )


def _as_mask(mask, like):
    """Return `mask` as a boolean array of the same kind as `like` (numpy or torch)."""
    if _is_torch(like):
        mask = torch.as_tensor(mask, device=like.device)
        is_bool = mask.dtype == torch.bool
    else:
        mask = mask.detach().cpu().numpy() if _is_torch(mask) else np.asarray(mask)
        is_bool = mask.dtype == np.bool_
    if not is_bool:
        raise ValueError(
            f"mask must be boolean with True = may attend; got dtype {mask.dtype}. "
            "For a 0/-inf float mask use helpers.masks.additive_bias the other way round, "
            "or compare it: mask = (bias == 0)."
        )
    return mask


def _broadcasts_to(name: str, shape, scores_shape) -> None:
    """A mask or bias must broadcast TO the scores' shape: it may not enlarge the output."""
    try:
        full_shape = np.broadcast_shapes(tuple(shape), tuple(scores_shape))
    except ValueError:
        full_shape = None
    if full_shape != tuple(scores_shape):
        raise ValueError(
            f"{name} of shape {tuple(shape)} does not broadcast to the scores' shape "
            f"{tuple(scores_shape)} (..., T_q, T_k). Shapes line up from the right, as in "
            "F.scaled_dot_product_attention: a mask is (T_q, T_k), or has the scores' axes, "
            "(B, T_q, T_k) for 3-D scores and (B, H, T_q, T_k) or (B, 1, T_q, T_k) for 4-D "
            "ones. nn.MultiheadAttention's 3-D attn_mask is (B·H, T_q, T_k) instead: reshape "
            "it to (B, H, T_q, T_k) first."
        )


def _check_mask(mask, scores_shape, allow_empty_rows: bool = False) -> None:
    if mask.ndim == 3 and len(scores_shape) == 4 and mask.shape[0] != 1:
        raise ValueError(
            f"a mask of shape {tuple(mask.shape)} with scores of shape {tuple(scores_shape)} "
            "is ambiguous: shapes line up from the right (as in "
            "F.scaled_dot_product_attention), so its first axis would meet the heads, not the "
            "sequences. For one mask per sequence write mask[:, None], shape (B, 1, T_q, T_k); "
            "for one per head, mask[None], shape (1, H, T_q, T_k)."
        )
    _broadcasts_to("mask", mask.shape, scores_shape)
    if allow_empty_rows:
        return
    full_shape = tuple(scores_shape)
    full = np.broadcast_to(mask.cpu().numpy() if _is_torch(mask) else mask, full_shape)
    blocked_rows = ~full.any(axis=-1)
    if blocked_rows.any():
        where = np.argwhere(blocked_rows)[0]
        lead, row = tuple(int(i) for i in where[:-1]), int(where[-1])
        at = f" at leading index {lead}" if lead else ""
        raise ValueError(
            f"query row {row}{at} has no allowed key: every entry of its mask is False, so "
            "softmax would divide 0 by 0 and return NaN. Allow at least one key per query "
            "(a causal mask always allows the diagonal), or drop that query."
        )


def scores(q, k, scale: float | None = None):
    """q kᵀ · scale: (..., T_q, d_k), (..., T_k, d_k) -> (..., T_q, T_k); scale defaults to 1/√d_k.

    Row i scores query i against every key. No checks: `attention` validates its inputs.
    """
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    k_t = k.transpose(-2, -1) if _is_torch(k) else np.swapaxes(k, -2, -1)
    return (q @ k_t) * scale


def apply_mask(s, mask, *, allow_empty_rows: bool = False):
    """Scores s (..., T_q, T_k) with -inf where the boolean mask (True = may attend) is False.

    The mask is checked first: boolean, broadcastable to s's shape, and (unless
    allow_empty_rows, for a softmax with a sink that may put all its weight nowhere) with at
    least one allowed key per query row. mask None returns s unchanged.
    """
    if mask is None:
        return s
    mask = _as_mask(mask, s)
    _check_mask(mask, s.shape, allow_empty_rows)
    if _is_torch(s):
        return torch.where(mask, s, float("-inf"))
    return np.where(mask, s, -np.inf)


def attention(q, k, v, mask=None, *, scale: float | None = None, bias=None):
    """softmax(q kᵀ · scale + bias, masked) v. Returns (out, weights).

    mask: boolean, True = may attend (the F.scaled_dot_product_attention convention),
          broadcastable to (..., T_q, T_k).
    scale: defaults to 1/sqrt(d_k).
    bias: optional float scores added before the mask and softmax (ALiBi, relative
          positions), broadcastable to (..., T_q, T_k).
    """
    kinds = {_is_torch(t) for t in (q, k, v)}
    if len(kinds) > 1:
        raise TypeError("q, k and v must all be NumPy arrays or all be torch tensors")
    if not _is_torch(q):
        q, k, v = (np.asarray(t, dtype=float) for t in (q, k, v))
    _check_shapes(q, k, v)
    s = scores(q, k, scale)  # (..., T_q, T_k)
    if bias is not None:
        if _is_torch(q):  # on q's device: a NumPy ALiBi bias works for a GPU q too
            bias = torch.as_tensor(bias, dtype=s.dtype, device=s.device)
        else:
            bias = np.asarray(bias)
        _broadcasts_to("bias", bias.shape, s.shape)
        s = s + bias
    s = apply_mask(s, mask)
    weights = softmax(s, axis=-1)  # each row sums to 1
    return weights @ v, weights
