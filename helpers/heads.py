"""Multi-head attention: split the width into heads, attend in each, merge, project.

Axes are (batch B, head H, position T, feature d_head) with d_head = d_model / H. The attention
itself is `helpers.attention.attention`, run on every (batch, head) pair at once.
"""

from __future__ import annotations

import torch
from torch import nn

from helpers.attention import attention


def _check_heads(d_model: int, n_heads: int) -> None:
    if n_heads < 1 or d_model % n_heads != 0:
        raise ValueError(
            f"n_heads must divide d_model so every head gets d_model / n_heads features; "
            f"got d_model={d_model}, n_heads={n_heads} (remainder {d_model % max(n_heads, 1)})"
        )


def split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    """(B, T, D) -> (B, H, T, D/H): view the width as H heads, then move heads before positions."""
    if x.ndim != 3:
        raise ValueError(f"split_heads expects (B, T, D); got shape {tuple(x.shape)}")
    B, T, D = x.shape
    _check_heads(D, n_heads)
    return x.view(B, T, n_heads, D // n_heads).transpose(1, 2)  # (B, H, T, d_head)


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """(B, H, T, d_head) -> (B, T, H*d_head): positions back before heads, then flatten."""
    if x.ndim != 4:
        raise ValueError(f"merge_heads expects (B, H, T, d_head); got shape {tuple(x.shape)}")
    B, H, T, d = x.shape
    return x.transpose(1, 2).contiguous().view(B, T, H * d)  # (B, T, D)


class KVCache:
    """Keys and values of every position seen so far, for one attention layer.

    k, v: (B, H, T_past, d_head). Decoding appends one position per step instead of
    recomputing the keys and values of the whole prefix.
    """

    def __init__(self):
        self.k = None
        self.v = None

    def __len__(self) -> int:
        return 0 if self.k is None else self.k.shape[-2]

    def append(self, k: torch.Tensor, v: torch.Tensor):
        """Add the new positions' k, v (B, H, T_new, d_head); return all of them."""
        if self.k is None:
            self.k, self.v = k, v
        else:
            self.k = torch.cat([self.k, k], dim=-2)  # (B, H, T_past + T_new, d_head)
            self.v = torch.cat([self.v, v], dim=-2)
        return self.k, self.v


class MultiHeadAttention(nn.Module):
    """Q, K, V projections, H heads of scaled dot-product attention, output projection W_O."""

    def __init__(self, d_model: int, n_heads: int, bias: bool = True):
        super().__init__()
        _check_heads(d_model, n_heads)
        self.d_model, self.n_heads = d_model, n_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=bias)
        self.k_proj = nn.Linear(d_model, d_model, bias=bias)
        self.v_proj = nn.Linear(d_model, d_model, bias=bias)
        self.out_proj = nn.Linear(d_model, d_model, bias=bias)

    def _check_input(self, x, name: str) -> None:
        if not isinstance(x, torch.Tensor) or x.ndim != 3 or x.shape[-1] != self.d_model:
            shape = tuple(x.shape) if hasattr(x, "shape") else type(x).__name__
            raise ValueError(f"{name} must have shape (B, T, d_model={self.d_model}); got {shape}")

    def forward(self, x_q, x_kv=None, mask=None, key_padding_mask=None, cache=None):
        """Returns (out (B, T_q, D), weights (B, H, T_q, T_k)).

        x_kv: the sequence keys and values come from; None means x_q (self-attention).
        mask: bool, True = may attend; (T_q, T_k), (B, T_q, T_k) or (B, H, T_q, T_k).
        key_padding_mask: bool (B, T_k), True = real token.
        cache: a KVCache; this call's keys and values are appended to it and all are used.
        """
        x_kv = x_q if x_kv is None else x_kv
        self._check_input(x_q, "x_q")
        self._check_input(x_kv, "x_kv")
        q = split_heads(self.q_proj(x_q), self.n_heads)  # (B, H, T_q, d_head)
        k = split_heads(self.k_proj(x_kv), self.n_heads)  # (B, H, T_k, d_head)
        v = split_heads(self.v_proj(x_kv), self.n_heads)  # (B, H, T_k, d_head)
        if cache is not None:
            k, v = cache.append(k, v)  # (B, H, T_past + T_k, d_head)
        allowed = _combine_masks(mask, key_padding_mask, x_q.device, batch=x_q.shape[0])
        out, weights = attention(q, k, v, mask=allowed)  # (B, H, T_q, d_head)
        return self.out_proj(merge_heads(out)), weights

    @classmethod
    def from_torch(cls, mha: nn.MultiheadAttention) -> MultiHeadAttention:
        """A copy of `mha`'s weights (its packed in_proj split into q, k, v)."""
        if not mha._qkv_same_embed_dim or mha.bias_k is not None or mha.add_zero_attn:
            raise ValueError(
                "from_torch supports nn.MultiheadAttention with kdim = vdim = embed_dim, "
                "add_bias_kv=False and add_zero_attn=False"
            )
        bias = mha.in_proj_bias is not None
        new = cls(mha.embed_dim, mha.num_heads, bias=bias).to(mha.in_proj_weight.dtype)
        with torch.no_grad():
            for proj, w in zip(
                (new.q_proj, new.k_proj, new.v_proj), mha.in_proj_weight.chunk(3), strict=True
            ):
                proj.weight.copy_(w)
            new.out_proj.weight.copy_(mha.out_proj.weight)
            if bias:
                for proj, b in zip(
                    (new.q_proj, new.k_proj, new.v_proj), mha.in_proj_bias.chunk(3), strict=True
                ):
                    proj.bias.copy_(b)
                new.out_proj.bias.copy_(mha.out_proj.bias)
        return new


def _as_bool(mask, name: str, device) -> torch.Tensor:
    mask = torch.as_tensor(mask, device=device)
    if mask.dtype != torch.bool:
        raise ValueError(
            f"{name} must be boolean with True = may attend / real token; got dtype {mask.dtype}"
        )
    return mask


def _combine_masks(mask, key_padding_mask, device, batch: int):
    """One boolean mask broadcastable to (B, H, T_q, T_k), or None. True = may attend."""
    allowed = None
    if mask is not None:
        mask = _as_bool(mask, "mask", device)
        if mask.ndim == 3 and mask.shape[0] not in (1, batch):
            raise ValueError(
                f"a 3-D mask here is (B, T_q, T_k) with B = {batch}; got shape "
                f"{tuple(mask.shape)}. nn.MultiheadAttention's 3-D attn_mask is (B·H, T_q, T_k) "
                "instead: reshape it to (B, H, T_q, T_k) (and flip it with helpers.masks.to_sdpa, "
                "since there True = blocked)."
            )
        if mask.ndim == 3:
            mask = mask[:, None]  # (B, 1, T_q, T_k): the same mask for every head
        elif mask.ndim not in (2, 4):
            raise ValueError(
                "mask must be (T_q, T_k), (B, T_q, T_k) or (B, H, T_q, T_k); "
                f"got shape {tuple(mask.shape)}"
            )
        allowed = mask
    if key_padding_mask is not None:
        kpm = _as_bool(key_padding_mask, "key_padding_mask", device)
        if kpm.ndim != 2:
            raise ValueError(
                "key_padding_mask must be (B, T_k), True = real token; "
                f"got shape {tuple(kpm.shape)}"
            )
        kpm = kpm[:, None, None, :]  # (B, 1, 1, T_k)
        allowed = kpm if allowed is None else allowed & kpm
    return allowed
