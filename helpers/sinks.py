"""Learned attention sinks (gpt-oss): a per-head logit in the softmax's denominator only.

Softmax makes every query row spend all its weight on some key, even when no key is useful;
trained heads then dump the weight on the first token (StreamingLLM's "attention sinks",
Xiao et al. 2023, which keeps those first tokens in its window: `helpers.masks.
sink_window_mask`). gpt-oss (OpenAI 2025) gives each head h a learned logit b_h instead:

    w_j = exp(s_j) / (exp(b_h) + Σ_l exp(s_l))

The weights sum to 1 - exp(b_h) / (exp(b_h) + Σ_l exp(s_l)): the rest goes "nowhere". This is
exactly a virtual key whose score is b_h for every query and whose value is zero (gpt-oss's
reference code concatenates b_h as one more column of scores, takes the softmax and drops the
column). A StreamingLLM sink is a real token: its value is added to the output, and its score
depends on the query. b_h = -inf gives plain softmax.

Shapes: q (..., H, T_q, d), k (..., H, T_k, d), v (..., H, T_k, d_v), sink logits (H,).
NumPy arrays or torch tensors.
"""

from __future__ import annotations

import numpy as np
import torch

from helpers.attention import _is_torch, apply_mask, scores


def _check_sinks(s, sink_logits):
    """sink_logits as (H, 1, 1) of s's kind, after checking it is (H,) and not +inf or NaN."""
    if s.ndim < 3:
        raise ValueError(
            f"scores must have at least 3 axes (..., heads, T_q, T_k); got shape {tuple(s.shape)}"
        )
    H = s.shape[-3]
    if _is_torch(s):
        b = torch.as_tensor(sink_logits, dtype=s.dtype, device=s.device)
        bad = bool((torch.isnan(b) | torch.isposinf(b)).any())
    else:
        b = np.asarray(sink_logits, dtype=float)
        bad = bool((np.isnan(b) | np.isposinf(b)).any())
    if tuple(b.shape) != (H,):
        raise ValueError(
            f"sink_logits must have shape (H,) = ({H},), one logit per head of the scores "
            f"{tuple(s.shape)}; got {tuple(b.shape)}"
        )
    if bad:
        raise ValueError("sink logits must be finite or -inf (no sink); got +inf or NaN")
    return b[:, None, None]  # (H, 1, 1): the same for every query and key of a head


def softmax_with_sink(s, sink_logits):
    """exp(s_j) / (exp(b_h) + Σ_l exp(s_l)) along the last axis: (..., H, T_q, T_k).

    s: scores, -inf where a key is blocked; sink_logits: (H,). A row may be all -inf: with a
    finite sink its weights are all 0. The max is taken over the scores and the sink together,
    so nothing overflows.
    """
    b = _check_sinks(s, sink_logits)  # (H, 1, 1)
    if _is_torch(s):
        m = torch.maximum(s.amax(dim=-1, keepdim=True), b)  # (..., H, T_q, 1)
        exp_s, exp_b = torch.exp(s - m), torch.exp(b - m)
        denominator = exp_s.sum(dim=-1, keepdim=True) + exp_b
    else:
        s = np.asarray(s, dtype=float)
        m = np.maximum(s.max(axis=-1, keepdims=True), b)
        with np.errstate(invalid="ignore"):  # -inf - -inf: reported below, not warned
            exp_s, exp_b = np.exp(s - m), np.exp(b - m)
        denominator = exp_s.sum(axis=-1, keepdims=True) + exp_b
    empty = ~(denominator > 0)  # NaN or 0: nothing to normalise by
    if bool(empty.any()):
        raise ValueError(
            "a query row has no allowed key and no sink (sink logit -inf): its softmax would "
            "be 0/0. Allow it a key, or give its head a finite sink logit."
        )
    return exp_s / denominator


def sink_share(s, sink_logits):
    """(..., H, T_q): the weight each query row puts on its head's sink, 1 - Σ_j w_j.

    Computed from the sink term itself, exp(b_h) / (exp(b_h) + Σ_l exp(s_l)), not as 1 minus
    the sum, so a tiny share is not lost to rounding.
    """
    b = _check_sinks(s, sink_logits)  # (H, 1, 1)
    if _is_torch(s):
        with_sink = torch.cat([s, b.expand(*s.shape[:-1], 1)], dim=-1)
        return torch.exp(b[..., 0] - torch.logsumexp(with_sink, dim=-1))
    s = np.asarray(s, dtype=float)
    with_sink = np.concatenate([s, np.broadcast_to(b, s.shape[:-1] + (1,))], axis=-1)
    m = with_sink.max(axis=-1)
    lse = m + np.log(np.exp(with_sink - m[..., None]).sum(axis=-1))
    return np.exp(b[..., 0] - lse)


def sink_attention(q, k, v, sink_logits, mask=None, *, scale: float | None = None):
    """softmax_with_sink(q kᵀ · scale, masked) v. Returns (out, weights).

    q (..., H, T_q, d), k (..., H, T_k, d), v (..., H, T_k, d_v), sink_logits (H,);
    mask: boolean, True = may attend, broadcastable to (..., H, T_q, T_k). Rows that put
    weight on the sink come out shorter: the sink's value is zero.
    """
    if not _is_torch(q):
        q, k, v = (np.asarray(t, dtype=float) for t in (q, k, v))
    s = scores(q, k, scale)  # (..., H, T_q, T_k)
    weights = softmax_with_sink(apply_mask(s, mask, allow_empty_rows=True), sink_logits)
    return weights @ v, weights
