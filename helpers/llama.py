"""A tiny Llama: RMSNorm, grouped-query attention with RoPE, SwiGLU, no biases, no dropout.

The shape of Llama 2/3 and Mistral at toy size: pre-norm blocks h = x + Attn(RMSNorm(x)),
out = h + SwiGLU(RMSNorm(h)), and RoPE (LLaMA, Touvron et al. 2023, arXiv:2302.13971 §2.2),
with grouped-query attention (Llama 2, arXiv:2307.09288 §2.2, for its 34B and 70B models);
positions enter only through RoPE on q and k, so the model has no position table and no
length limit of its own. The default d_ff = 172 is LLaMA's int(2/3 · 4 · d_model) = 170 rounded
up to a multiple of 4, as Meta's llama/model.py rounds to a multiple of 256.
"""

from __future__ import annotations

import torch
from torch import nn

from helpers.blocks import FeedForward, RMSNorm
from helpers.gqa import GroupedQueryAttention
from helpers.heads import KVCache


class LlamaBlock(nn.Module):
    """h = x + GQA(RMSNorm(x)); out = h + SwiGLU(RMSNorm(h))."""

    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int, d_ff: int,
                 rope_base: float = 10000.0):
        super().__init__()
        self.attn_norm = RMSNorm(d_model)
        self.attn = GroupedQueryAttention(d_model, n_heads, n_kv_heads, rope_base=rope_base)
        self.ffn_norm = RMSNorm(d_model)
        self.ffn = FeedForward(d_model, d_ff, "swiglu", bias=False)

    def forward(self, x, positions=None, mask=None, cache=None):
        h = x + self.attn(self.attn_norm(x), positions=positions, mask=mask, cache=cache)
        return h + self.ffn(self.ffn_norm(h))  # (B, T, D)


class TinyLlama(nn.Module):
    """Decoder-only language model: ids (B, T) -> next-token logits (B, T, vocab).

    seed: initial weights are drawn from this seed without touching the global generator.
    """

    def __init__(self, vocab_size: int, d_model: int = 64, n_heads: int = 4,
                 n_kv_heads: int = 2, n_layers: int = 2, d_ff: int = 172, seed: int | None = 0,
                 rope_base: float = 10000.0):
        super().__init__()
        self.vocab_size = vocab_size
        with torch.random.fork_rng(devices=[]):
            if seed is not None:
                torch.manual_seed(seed)
            self.tok = nn.Embedding(vocab_size, d_model)
            self.layers = nn.ModuleList(
                LlamaBlock(d_model, n_heads, n_kv_heads, d_ff, rope_base) for _ in range(n_layers)
            )
            self.norm = RMSNorm(d_model)
            self.head = nn.Linear(d_model, vocab_size, bias=False)  # not tied to tok (Llama)
            for module in self.modules():
                if isinstance(module, (nn.Linear, nn.Embedding)):
                    nn.init.normal_(module.weight, std=0.02)

    def forward(self, idx: torch.Tensor, positions=None, mask=None,
                cache: list[KVCache] | None = None):
        """idx (B, T) -> (logits (B, T, vocab), cache: one KVCache per layer).

        positions: (T,) or (B, T) integers for RoPE; default past..past+T-1 (past = cached).
        mask: bool, True = may attend, (T, T_k), (B, T, T_k) or (B, 1, T, T_k) with
            T_k = past + T; it replaces the default, the lower-right causal mask (the T new
            tokens are the last T positions). A mask that hides padding must keep causality.
        cache: the list an earlier call returned; idx then continues those sequences.
            Without one, a fresh cache is made and returned.
        """
        if not isinstance(idx, torch.Tensor) or idx.ndim != 2 or idx.dtype != torch.long:
            shape = tuple(idx.shape) if hasattr(idx, "shape") else type(idx).__name__
            raise ValueError(
                f"idx must be token ids of shape (B, T) and dtype long; got {shape}, "
                f"dtype {getattr(idx, 'dtype', None)}"
            )
        if cache is None:
            cache = [KVCache() for _ in self.layers]
        if len(cache) != len(self.layers):
            raise ValueError(
                f"cache must hold one KVCache per layer ({len(self.layers)}); got {len(cache)}"
            )
        x = self.tok(idx)  # (B, T, D): no position table, RoPE does positions
        for layer, layer_cache in zip(self.layers, cache, strict=True):
            x = layer(x, positions=positions, mask=mask, cache=layer_cache)
        return self.head(self.norm(x)), cache  # (B, T, vocab)
