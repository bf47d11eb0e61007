"""Grouped-query and multi-query attention: fewer key/value heads than query heads.

H_q query heads share H_kv key/value heads in groups of G = H_q / H_kv consecutive query
heads: query head h reads key/value head h // G (Ainslie et al. 2023, as in Llama and
`F.scaled_dot_product_attention(..., enable_gqa=True)`). H_kv = 1 is multi-query attention
(Shazeer 2019); H_kv = H_q is ordinary multi-head attention. The KV cache shrinks by G.

Shapes: q (..., H_q, T_q, d), k (..., H_kv, T_k, d), v (..., H_kv, T_k, d_v).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from helpers.attention import _broadcasts_to, _is_torch, attention
from helpers.heads import KVCache, _check_heads, _combine_masks, merge_heads
from helpers.masks import chunk_causal_mask
from helpers.positions import apply_rope


def _check_groups(n_heads: int, n_kv_heads: int, what: str = "heads") -> int:
    """G = n_heads / n_kv_heads, or a ValueError naming both counts."""
    if n_kv_heads < 1 or n_heads % n_kv_heads:
        raise ValueError(
            f"the number of query {what} must be a multiple of the number of key/value {what}, "
            f"so every group of query heads shares one key/value head; got H_q={n_heads}, "
            f"H_kv={n_kv_heads}"
        )
    return n_heads // n_kv_heads


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """(B, H_kv, T, d) -> (B, H_kv * n_rep, T, d): kv head j becomes heads j*n_rep..j*n_rep+n_rep-1.

    The copy Llama's `repeat_kv` makes so that ordinary multi-head attention can run; query head
    h then meets kv head h // n_rep. `grouped_query_attention` avoids the copy.
    """
    if not isinstance(x, torch.Tensor) or x.ndim != 4:
        shape = tuple(x.shape) if hasattr(x, "shape") else type(x).__name__
        raise ValueError(f"repeat_kv expects a torch tensor (B, H_kv, T, d); got {shape}")
    if isinstance(n_rep, bool) or int(n_rep) != n_rep or n_rep < 1:
        raise ValueError(f"n_rep must be a positive whole number of copies; got {n_rep!r}")
    B, H_kv, T, d = x.shape
    if n_rep == 1:
        return x
    return x[:, :, None].expand(B, H_kv, int(n_rep), T, d).reshape(B, H_kv * int(n_rep), T, d)


def _group_mask(mask, scores_shape, H_kv: int, G: int):
    """A mask broadcastable to (..., H_q, T_q, T_k) -> one for (..., H_kv, G, T_q, T_k)."""
    _broadcasts_to("mask", mask.shape, scores_shape)
    n = len(scores_shape)
    if mask.ndim > n:  # extra leading axes can only be 1s here
        mask = mask.reshape(tuple(mask.shape[-n:]))
    if mask.ndim < 3:  # (T_q, T_k) or (T_k,): the same for every head
        return mask
    *lead, heads, T_q, T_k = mask.shape
    groups = (H_kv, G) if heads != 1 else (1, 1)
    return mask.reshape(tuple(lead) + groups + (T_q, T_k))


def grouped_query_attention(q, k, v, mask=None, *, scale: float | None = None):
    """softmax(q kᵀ · scale, masked) v with query head h reading key/value head h // G.

    q (..., H_q, T_q, d), k (..., H_kv, T_k, d), v (..., H_kv, T_k, d_v); NumPy or torch.
    mask: boolean, True = may attend, broadcastable to (..., H_q, T_q, T_k).
    Returns (out (..., H_q, T_q, d_v), weights (..., H_q, T_q, T_k)).
    The queries are viewed as (..., H_kv, G, T_q, d) and K/V as (..., H_kv, 1, T_k, d), so
    broadcasting shares each key/value head with its G query heads without copying it.
    """
    kinds = {_is_torch(t) for t in (q, k, v)}
    if len(kinds) > 1:
        raise TypeError("q, k and v must all be NumPy arrays or all be torch tensors")
    torch_in = _is_torch(q)
    if not torch_in:
        q, k, v = (np.asarray(t, dtype=float) for t in (q, k, v))
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.ndim < 3:
            raise ValueError(
                f"{name} must have at least 3 axes (..., heads, positions, features); "
                f"got shape {tuple(t.shape)}"
            )
    H_q, H_kv = q.shape[-3], k.shape[-3]
    if v.shape[-3] != H_kv:
        raise ValueError(
            f"k and v must have the same number of key/value heads; got k {tuple(k.shape)} "
            f"and v {tuple(v.shape)}"
        )
    G = _check_groups(H_q, H_kv)
    *lead, _, T_q, d = q.shape
    q_g = q.reshape(tuple(lead) + (H_kv, G, T_q, d))  # (..., H_kv, G, T_q, d)
    k_g, v_g = k[..., None, :, :], v[..., None, :, :]  # (..., H_kv, 1, T_k, d): views
    if mask is not None:
        if torch_in:
            mask = torch.as_tensor(mask, device=q.device)
        else:
            mask = mask.detach().cpu().numpy() if _is_torch(mask) else np.asarray(mask)
        scores_shape = np.broadcast_shapes(
            tuple(q.shape[:-1]), tuple(k.shape[:-3]) + (1, 1)
        ) + (k.shape[-2],)  # (..., H_q, T_q, T_k)
        mask = _group_mask(mask, scores_shape, H_kv, G)
    out, weights = attention(q_g, k_g, v_g, mask, scale=scale)  # (..., H_kv, G, T_q, ·)
    *lead, _, _, _, d_v = out.shape
    out = out.reshape(tuple(lead) + (H_q, T_q, d_v))
    return out, weights.reshape(tuple(lead) + (H_q, T_q, weights.shape[-1]))


class GroupedQueryAttention(nn.Module):
    """Llama's attention: H query heads, H_kv shared key/value heads, RoPE, no biases.

    forward(x (B, T, D), positions=None, mask=None, cache=None) -> out (B, T, D).
    positions: (T,) or (B, T) integers; default past..past+T-1 with past = len(cache).
    mask: bool, True = may attend, (T, T_k), (B, T, T_k) or (B, 1 or H, T, T_k) where
        T_k = past + T. None means no mask without a cache, and the lower-right causal mask
        (`chunk_causal_mask`: the T new queries are the last T positions) with one.
    cache: a `helpers.heads.KVCache`; it stores the H_kv rotated keys and the values.
    """

    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int, rope: bool = True,
                 rope_base: float = 10000.0):
        super().__init__()
        _check_heads(d_model, n_heads)
        self.group_size = _check_groups(n_heads, n_kv_heads)
        self.d_model, self.n_heads, self.n_kv_heads = d_model, n_heads, n_kv_heads
        self.kv_heads = n_kv_heads
        self.d_head = d_model // n_heads
        self.rope, self.rope_base = rope, rope_base
        self.q_proj = nn.Linear(d_model, n_heads * self.d_head, bias=False)
        self.k_proj = nn.Linear(d_model, n_kv_heads * self.d_head, bias=False)  # G times smaller
        self.v_proj = nn.Linear(d_model, n_kv_heads * self.d_head, bias=False)
        self.o_proj = nn.Linear(n_heads * self.d_head, d_model, bias=False)

    def _heads(self, y: torch.Tensor, n: int) -> torch.Tensor:
        B, T, _ = y.shape
        return y.view(B, T, n, self.d_head).transpose(1, 2)  # (B, n, T, d_head)

    def _positions(self, positions, B: int, T: int, past: int, device) -> torch.Tensor:
        """(T,) or (B, T) integer positions (checked), as `apply_rope` takes them."""
        if positions is None:
            return torch.arange(past, past + T, device=device)
        positions = torch.as_tensor(positions, device=device)
        if positions.is_floating_point() or positions.dtype == torch.bool:
            raise ValueError(f"positions must be integers; got dtype {positions.dtype}")
        if positions.shape in ((T,), (B, T), (1, T)):
            return positions
        raise ValueError(
            f"positions must have shape (T,) = ({T},) or (B, T) = ({B}, {T}); "
            f"got {tuple(positions.shape)}"
        )

    def forward(self, x: torch.Tensor, positions=None, mask=None, cache: KVCache | None = None):
        if not isinstance(x, torch.Tensor) or x.ndim != 3 or x.shape[-1] != self.d_model:
            shape = tuple(x.shape) if hasattr(x, "shape") else type(x).__name__
            raise ValueError(f"x must have shape (B, T, d_model={self.d_model}); got {shape}")
        B, T, _ = x.shape
        past = 0 if cache is None else len(cache)
        q = self._heads(self.q_proj(x), self.n_heads)  # (B, H, T, d_head)
        k = self._heads(self.k_proj(x), self.n_kv_heads)  # (B, H_kv, T, d_head)
        v = self._heads(self.v_proj(x), self.n_kv_heads)  # (B, H_kv, T, d_head)
        if self.rope:  # rotate before caching: a cached key keeps its position's rotation
            pos = self._positions(positions, B, T, past, x.device)
            q = apply_rope(q, pos, base=self.rope_base)
            k = apply_rope(k, pos, base=self.rope_base)
        if cache is not None:
            k, v = cache.append(k, v)  # (B, H_kv, past + T, d_head)
        if mask is None and cache is not None:
            mask = torch.as_tensor(chunk_causal_mask(T, k.shape[-2]), device=x.device)
        allowed = _combine_masks(mask, None, x.device, batch=B)  # (…, T, T_k) or None
        out, _ = grouped_query_attention(q, k, v, allowed)  # (B, H, T, d_head)
        return self.o_proj(merge_heads(out))  # (B, T, D)
