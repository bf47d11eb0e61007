"""Keeping attention scores in range: logit soft-capping and QK-norm.

Large scores make softmax put nearly all the weight on one key and its gradient vanish
(lesson 03); in training they can also grow without limit (the "attention logit growth" of
Dehghani et al. 2023). Two cures in today's models:

- Soft-capping (Gemma 2): s -> cap · tanh(s / cap), applied to the scaled scores before the
  mask. Near-identity for |s| << cap, bounded by |s| < cap, monotone, so the order of the keys
  is kept. Gemma 2 uses attn_logit_softcapping = 50.0 (and 30.0 on the final logits).
- QK-norm: RMSNorm on every head's query and key (over the head's d features, each with a
  learned scale g) before the scores, as in Gemma 3 and Qwen3 (q_norm, k_norm of width
  head_dim). OLMo 2 normalises the whole projection instead (width n_heads · head_dim) before
  splitting it into heads; `rms_norm` does either, over the last axis it is given. After the
  norm |q| = |k| = √d (times g), so a score q·k/√d is at most √d · max|g_q| · max|g_k|.

Either way every score is bounded by some B, and then no weight of a row of T keys can pass
1 / (1 + (T - 1) e^(-2B)) (`largest_weight_bound`).

Shapes: q (..., T_q, d), k (..., T_k, d), v (..., T_k, d_v), as in `helpers.attention`;
NumPy arrays or torch tensors.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from helpers.attention import _is_torch, apply_mask, attention, scores, softmax


def _check_positive(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{name} must be a positive number; got {value!r}")
    if math.isinf(value):
        raise ValueError(f"{name} must be finite (an infinite {name} means no cap: skip it)")
    return float(value)


def softcap(s, cap: float = 50.0):
    """cap · tanh(s / cap), elementwise: any shape, NumPy or torch.

    Strictly inside (-cap, cap) for finite s, slope 1 at 0 (s - s³ / (3 cap²) + ... for small
    s), and monotone. It maps -inf to -cap, so a blocked key would get weight again: cap
    first, then mask (as Gemma 2 and `softcapped_attention` do).
    """
    cap = _check_positive("cap", cap)
    if _is_torch(s):
        return cap * torch.tanh(s / cap)
    return cap * np.tanh(np.asarray(s, dtype=float) / cap)


def rms_norm(x, weight=None, eps: float = 1e-6):
    """x / sqrt(mean(x², last axis) + eps) · weight: (..., d) -> (..., d).

    weight: (d,) learned scale (None: ones). No mean is subtracted, unlike LayerNorm.
    The same as torch.nn.RMSNorm(d, eps=eps) with weight as its .weight. Gemma stores
    weight - 1 and multiplies by (1 + w): pass 1 + w for its checkpoints.
    """
    if eps < 0:
        raise ValueError(f"eps must be >= 0; got {eps}")
    d = x.shape[-1]
    if weight is not None and tuple(weight.shape) != (d,):
        raise ValueError(
            f"weight must have shape (d,) = ({d},), one scale per feature of x {tuple(x.shape)}; "
            f"got {tuple(weight.shape)}"
        )
    if _is_torch(x):
        y = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)
        return y if weight is None else y * torch.as_tensor(weight, dtype=x.dtype)
    x = np.asarray(x, dtype=float)
    y = x / np.sqrt((x**2).mean(axis=-1, keepdims=True) + eps)
    return y if weight is None else y * np.asarray(weight)


def softcapped_attention(q, k, v, mask=None, *, cap: float = 50.0, scale: float | None = None):
    """softmax(softcap(q kᵀ · scale), masked) v, as Gemma 2 computes it. Returns (out, weights).

    The cap acts on the scaled scores, before the mask. mask: boolean, True = may attend,
    broadcastable to (..., T_q, T_k). scale defaults to 1/√d.
    """
    s = softcap(scores(q, k, scale), cap)  # (..., T_q, T_k), every entry in (-cap, cap)
    weights = softmax(apply_mask(s, mask), axis=-1)
    return weights @ v, weights


def qk_norm_attention(q, k, v, mask=None, *, q_weight=None, k_weight=None, eps: float = 1e-6,
                      scale: float | None = None):
    """softmax(rms_norm(q) rms_norm(k)ᵀ · scale, masked) v, as Qwen3 and Gemma 3 compute it.

    q (..., T_q, d), k (..., T_k, d): each head's rows are normalised over their d features;
    q_weight, k_weight (d,) are the learned scales (one per feature, shared by the heads).
    Returns (out, weights).
    """
    return attention(rms_norm(q, q_weight, eps), rms_norm(k, k_weight, eps), v, mask,
                     scale=scale)


def qk_norm_score_bound(d: int, q_weight=None, k_weight=None, scale: float | None = None) -> float:
    """The largest |score| QK-norm allows: d · scale · max|g_q| · max|g_k| (eps -> 0).

    After rms_norm a row has length √d, so |q̂ · k̂| <= d · max|g_q| · max|g_k|; with the usual
    scale 1/√d that is √d · max|g_q| · max|g_k|, whatever the size of the raw q and k.
    """
    if isinstance(d, bool) or int(d) != d or d < 1:
        raise ValueError(f"d must be a positive whole number of features; got {d!r}")
    scale = 1.0 / math.sqrt(d) if scale is None else scale
    g_q = 1.0 if q_weight is None else float(np.abs(np.asarray(q_weight)).max())
    g_k = 1.0 if k_weight is None else float(np.abs(np.asarray(k_weight)).max())
    return float(d * abs(scale) * g_q * g_k)


def largest_weight_bound(score_bound: float, T: int) -> float:
    """1 / (1 + (T - 1) e^(-2B)): the most weight one of T keys can get when every |s| <= B.

    Reached when that key scores +B and all the others -B.
    """
    if isinstance(T, bool) or int(T) != T or T < 1:
        raise ValueError(f"T must be a positive whole number of keys; got {T!r}")
    if not score_bound >= 0:
        raise ValueError(f"score_bound must be >= 0; got {score_bound!r}")
    return 1.0 / (1.0 + (T - 1) * math.exp(-2.0 * score_bound))


def score_summary(s) -> dict[str, float]:
    """What a batch of score rows (..., T_k) does to softmax, averaged over the rows.

    max_abs_score: the largest |score| anywhere; score_std: the spread of the scores within a
    row (mean over rows); largest_weight: the mean over rows of each row's largest weight;
    entropy: the mean entropy of the weights in nats (log T_k is uniform, 0 is one-hot).
    Compare score_summary(s) with score_summary(softcap(s, cap)).
    """
    s = s.detach().cpu().double().numpy() if _is_torch(s) else np.asarray(s, dtype=float)
    if s.ndim < 1 or s.shape[-1] < 1 or not np.isfinite(s).all():
        raise ValueError(f"s must be finite scores with a last axis of keys; got shape {s.shape}")
    w = softmax(s, axis=-1)
    entropy = -(w * np.log(np.where(w > 0, w, 1.0))).sum(axis=-1)
    return {
        "max_abs_score": float(np.abs(s).max()),
        "score_std": float(s.std(axis=-1).mean()),
        "largest_weight": float(w.max(axis=-1).mean()),
        "entropy": float(entropy.mean()),
    }
