"""Multi-head latent attention (MLA), DeepSeek-V2's way to a small KV cache, at toy size.

DeepSeek-AI 2024, arXiv:2405.04434 §2.1, eqs (9)-(19); the query compression of eqs (12)-(13)
is optional (`d_q_latent`; DeepSeek-V2 uses d_c' = 1536, `q_lora_rank`, "to reduce the
activation memory during training": it changes no cache):
    c_t   = W_DKV h_t                      (d_latent)         the only per-head-free cache
    k_C   = W_UK c_t,  v_C = W_UV c_t      (n_heads · d_head) decompressed when needed
    k_R   = RoPE(W_KR h_t)                 (d_rope)           one RoPE key for all heads, cached
    q_C   = W_Q h_t,   q_R = RoPE(W_QR h_t) per head (d_head and d_rope), or with d_q_latent:
    c_Q   = W_DQ h_t,  q_C = W_UQ c_Q,  q_R = RoPE(W_QR c_Q)
    score = (q_C · k_C + q_R · k_R) / √(d_head + d_rope), causal; out = W_O [o_1; ...; o_H]
A position costs d_latent + d_rope cached numbers per layer instead of 2 · n_heads · d_head.
RoPE gets its own small key because a rotation between q and W_UK would stop W_UK from being
absorbed into the query (`forward_absorbed`): q_C · (W_UK c) = (W_UKᵀ q_C) · c.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from helpers.attention import attention
from helpers.heads import merge_heads
from helpers.masks import chunk_causal_mask
from helpers.positions import apply_rope


class LatentCache:
    """What MLA caches for one layer: c (B, T, d_latent) and k_rope (B, T, d_rope)."""

    def __init__(self):
        self.c = None
        self.k_rope = None

    def __len__(self) -> int:
        return 0 if self.c is None else self.c.shape[1]

    def append(self, c: torch.Tensor, k_rope: torch.Tensor):
        """Add the new positions (B, T_new, ·); return all of them."""
        if self.c is None:
            self.c, self.k_rope = c, k_rope
        else:
            self.c = torch.cat([self.c, c], dim=1)  # (B, T_past + T_new, d_latent)
            self.k_rope = torch.cat([self.k_rope, k_rope], dim=1)
        return self.c, self.k_rope


def _check_size(name: str, value, even: bool = False) -> None:
    if isinstance(value, bool) or int(value) != value or value < 1 or (even and value % 2):
        what = "an even positive" if even else "a positive"
        raise ValueError(f"{name} must be {what} whole number; got {value!r}")


class LatentAttention(nn.Module):
    """Causal MLA. forward(x (B, T, d_model), cache=None) -> (out (B, T, d_model), cache).

    d_q_latent: compress the queries through a latent of this width first (None: no query
    compression). (DeepSeek-V2 also normalises both latents with an RMSNorm; left out here.)
    """

    def __init__(self, d_model: int, n_heads: int, d_head: int, d_latent: int, d_rope: int,
                 seed: int | None = 0, rope_base: float = 10000.0, d_q_latent: int | None = None):
        super().__init__()
        for name, value in (("d_model", d_model), ("n_heads", n_heads), ("d_head", d_head),
                            ("d_latent", d_latent)):
            _check_size(name, value)
        _check_size("d_rope", d_rope, even=True)  # RoPE turns pairs of features
        if d_q_latent is not None:
            _check_size("d_q_latent", d_q_latent)
        self.d_model, self.n_heads, self.d_head = d_model, n_heads, d_head
        self.d_latent, self.d_rope, self.rope_base = d_latent, d_rope, rope_base
        self.d_q_latent = d_q_latent
        with torch.random.fork_rng(devices=[]):
            if seed is not None:
                torch.manual_seed(seed)
            self.w_dkv = nn.Linear(d_model, d_latent, bias=False)  # (9): compress
            self.w_uk = nn.Linear(d_latent, n_heads * d_head, bias=False)  # (10)
            self.w_uv = nn.Linear(d_latent, n_heads * d_head, bias=False)  # (11)
            q_in = d_model if d_q_latent is None else d_q_latent
            if d_q_latent is not None:
                self.w_dq = nn.Linear(d_model, d_q_latent, bias=False)  # (12): compress
            self.w_q = nn.Linear(q_in, n_heads * d_head, bias=False)  # (13): W_UQ, or W_Q
            self.w_qr = nn.Linear(q_in, n_heads * d_rope, bias=False)  # (14)
            self.w_kr = nn.Linear(d_model, d_rope, bias=False)  # (15): shared by all heads
            self.w_o = nn.Linear(n_heads * d_head, d_model, bias=False)  # (19)

    def _heads(self, y: torch.Tensor, width: int) -> torch.Tensor:
        B, T, _ = y.shape
        return y.view(B, T, self.n_heads, width).transpose(1, 2)  # (B, H, T, width)

    def _common(self, x, cache):
        """Queries, the cache after this call's positions, and the causal mask."""
        if not isinstance(x, torch.Tensor) or x.ndim != 3 or x.shape[-1] != self.d_model:
            shape = tuple(x.shape) if hasattr(x, "shape") else type(x).__name__
            raise ValueError(f"x must have shape (B, T, d_model={self.d_model}); got {shape}")
        cache = LatentCache() if cache is None else cache
        T, past = x.shape[1], len(cache)
        positions = torch.arange(past, past + T)
        k_rope = apply_rope(self.w_kr(x), positions, base=self.rope_base)  # (B, T, d_rope)
        c, k_rope = cache.append(self.w_dkv(x), k_rope)  # (B, T_k, d_latent), (B, T_k, d_rope)
        h_q = x if self.d_q_latent is None else self.w_dq(x)  # (B, T, d_model or d_q_latent)
        q_c = self._heads(self.w_q(h_q), self.d_head)  # (B, H, T, d_head)
        q_r = apply_rope(self._heads(self.w_qr(h_q), self.d_rope), positions,
                         base=self.rope_base)  # (B, H, T, d_rope)
        mask = torch.as_tensor(chunk_causal_mask(T, c.shape[1]), device=x.device)
        return q_c, q_r, c, k_rope, mask, cache

    @property
    def scale(self) -> float:
        return 1.0 / math.sqrt(self.d_head + self.d_rope)

    def forward(self, x: torch.Tensor, cache: LatentCache | None = None):
        """Decompress every cached c into per-head keys and values, then attend."""
        q_c, q_r, c, k_rope, mask, cache = self._common(x, cache)
        B, T_k, H = c.shape[0], c.shape[1], self.n_heads
        k_c = self._heads(self.w_uk(c), self.d_head)  # (B, H, T_k, d_head)
        v_c = self._heads(self.w_uv(c), self.d_head)  # (B, H, T_k, d_head)
        q = torch.cat([q_c, q_r], dim=-1)  # (B, H, T, d_head + d_rope)
        k = torch.cat([k_c, k_rope[:, None].expand(B, H, T_k, self.d_rope)], dim=-1)
        out, _ = attention(q, k, v_c, mask, scale=self.scale)  # (B, H, T, d_head)
        return self.w_o(merge_heads(out)), cache

    def forward_absorbed(self, x: torch.Tensor, cache: LatentCache | None = None):
        """The same output without decompressing: W_UK goes into the query, W_UV after the sum.

        q_C · (W_UK c_j) = (W_UKᵀ q_C) · c_j, and Σ_j p_j W_UV c_j = W_UV Σ_j p_j c_j: every head
        attends over the shared (c_j, k_R,j), a multi-query attention of width d_latent + d_rope.
        """
        q_c, q_r, c, k_rope, mask, cache = self._common(x, cache)
        H, d, r = self.n_heads, self.d_head, self.d_latent
        w_uk = self.w_uk.weight.view(H, d, r)  # (H, d_head, d_latent): head h's block of W_UK
        w_uv = self.w_uv.weight.view(H, d, r)
        q_lat = torch.einsum("bhtd,hdr->bhtr", q_c, w_uk)  # (B, H, T, d_latent)
        q = torch.cat([q_lat, q_r], dim=-1)  # (B, H, T, d_latent + d_rope)
        k = torch.cat([c, k_rope], dim=-1)[:, None]  # (B, 1, T_k, d_latent + d_rope)
        ctx, _ = attention(q, k, c[:, None], mask, scale=self.scale)  # (B, H, T, d_latent)
        out = torch.einsum("bhtr,hdr->bhtd", ctx, w_uv)  # (B, H, T, d_head)
        return self.w_o(merge_heads(out)), cache

    def cache_values_per_token(self) -> int:
        """Numbers cached per position: one latent and one RoPE key (MHA: 2 · H · d_head)."""
        return self.d_latent + self.d_rope

    def mha_values_per_token(self) -> int:
        """What multi-head attention with the same heads would cache per position."""
        return 2 * self.n_heads * self.d_head

    def extra_matmul_flops(self, T: int, T_q: int = 1) -> dict[str, int]:
        """FLOPs (a multiply-add = 2) MLA spends beyond MHA when T_q queries read T positions.

        decompress (`forward`): W_UK and W_UV on every cached c, 2 · T · d_latent · 2 H d_head.
        absorbed (`forward_absorbed`): W_UK into each query and W_UV after the weighted sum,
            2 · 2 T_q H d_head d_latent, plus scores and weighted sums d_latent wide instead of
            d_head: 2 · 2 T_q T H (d_latent - d_head).
        Decoding (T_q = 1) makes the absorbed form far cheaper; it grows with T_q · T.
        """
        _check_size("T", T)
        _check_size("T_q", T_q)
        H, d, r = self.n_heads, self.d_head, self.d_latent
        return {
            "decompress": 2 * T * r * 2 * H * d,
            "absorbed": 4 * T_q * H * d * r + 4 * T_q * T * H * (r - d),
        }
