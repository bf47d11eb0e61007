"""The Transformer block: normalization, feed-forward network, residual connections.

`TransformerBlock` (self-attention + FFN) and `DecoderBlock` (causal self-attention +
cross-attention + FFN) load the weights of their `torch.nn.Transformer*Layer` twins.
Dropout-free: they match the torch layers with dropout=0 or in eval mode.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
import torch.nn.functional as F
from torch import nn

from helpers.heads import MultiHeadAttention
from helpers.masks import causal_mask

ACTIVATIONS = ("relu", "gelu", "swiglu")


def count_parameters(module: nn.Module) -> int:
    """How many numbers training can change in `module`."""
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


def _check_width(x: torch.Tensor, d: int, who: str) -> None:
    if x.shape[-1] != d:
        raise ValueError(f"{who} expects features of width {d}; got shape {tuple(x.shape)}")


class LayerNorm(nn.Module):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis, per position.

    mean and (biased) var are taken over the d features of one position, never over the batch.
    gamma is `weight` and beta is `bias`, named as in nn.LayerNorm so state dicts load.
    """

    def __init__(self, d: int, eps: float = 1e-5, bias: bool = True):
        super().__init__()
        self.d, self.eps = d, eps
        self.weight = nn.Parameter(torch.ones(d))  # gamma
        self.bias = nn.Parameter(torch.zeros(d)) if bias else None  # beta

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _check_width(x, self.d, "LayerNorm")
        mean = x.mean(dim=-1, keepdim=True)  # (..., 1)
        var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)  # (..., 1), divides by d
        x_hat = (x - mean) / torch.sqrt(var + self.eps)  # (..., d): mean 0, variance 1
        return x_hat * self.weight + (self.bias if self.bias is not None else 0.0)


class RMSNorm(nn.Module):
    """x / sqrt(mean(x^2) + eps) * gamma: LayerNorm without centring and without beta."""

    def __init__(self, d: int, eps: float = 1e-6):
        super().__init__()
        self.d, self.eps = d, eps
        self.weight = nn.Parameter(torch.ones(d))  # gamma

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _check_width(x, self.d, "RMSNorm")
        rms = torch.sqrt((x**2).mean(dim=-1, keepdim=True) + self.eps)  # (..., 1)
        return x / rms * self.weight


class FeedForward(nn.Module):
    """Per position: d_model -> d_ff -> activation -> d_model.

    "swiglu" computes down(silu(gate(x)) * up(x)): a third matrix, the gate.
    """

    def __init__(self, d_model: int, d_ff: int, activation: str = "relu", bias: bool = True):
        super().__init__()
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}; got {activation!r}")
        self.d_model, self.activation = d_model, activation
        self.up = nn.Linear(d_model, d_ff, bias=bias)
        self.gate = nn.Linear(d_model, d_ff, bias=bias) if activation == "swiglu" else None
        self.down = nn.Linear(d_ff, d_model, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _check_width(x, self.d_model, "FeedForward")
        h = self.up(x)  # (..., d_ff)
        if self.activation == "relu":
            h = F.relu(h)
        elif self.activation == "gelu":
            h = F.gelu(h)  # exact (erf) GELU, as nn.TransformerEncoderLayer uses
        else:
            h = F.silu(self.gate(x)) * h
        return self.down(h)  # (..., d_model)


def _causal(T_q: int, T_k: int, device) -> torch.Tensor:
    """(T_q, T_k): the last T_q rows of the causal mask, for queries that follow a cache."""
    return torch.as_tensor(causal_mask(T_k)[T_k - T_q :], device=device)


def _and(a, b):
    if a is None or b is None:
        return b if a is None else a
    return torch.as_tensor(a) & torch.as_tensor(b)


def _activation_of(layer: nn.Module) -> str:
    act = layer.activation
    if act is F.relu or isinstance(act, nn.ReLU):
        return "relu"
    if act is F.gelu or (isinstance(act, nn.GELU) and act.approximate == "none"):
        return "gelu"
    raise ValueError(f"from_torch supports relu and gelu activations; got {layer.activation}")


def _copy(dst: nn.Module, src: nn.Module) -> None:
    """Copy a Linear or LayerNorm's weight and bias."""
    with torch.no_grad():
        dst.weight.copy_(src.weight)
        if src.bias is not None:
            dst.bias.copy_(src.bias)


def _copy_ffn(ffn: FeedForward, layer: nn.Module) -> None:
    _copy(ffn.up, layer.linear1)
    _copy(ffn.down, layer.linear2)


class TransformerBlock(nn.Module):
    """Self-attention and FFN, each wrapped in a residual connection and a LayerNorm.

    Pre-Norm (norm_first=True):  h = x + Attn(LN1(x));  out = h + FFN(LN2(h))
    Post-Norm (the original):    h = LN1(x + Attn(x));  out = LN2(h + FFN(h))
    """

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        norm_first: bool = True,
        causal: bool = False,
        activation: str = "relu",
        bias: bool = True,
        eps: float = 1e-5,
    ):
        super().__init__()
        self.norm_first, self.causal = norm_first, causal
        self.attn = MultiHeadAttention(d_model, n_heads, bias=bias)
        self.ln1 = LayerNorm(d_model, eps, bias=bias)
        self.ffn = FeedForward(d_model, d_ff, activation, bias=bias)
        self.ln2 = LayerNorm(d_model, eps, bias=bias)

    def _self_attention(self, x, mask, key_padding_mask, cache):
        if self.causal:
            past = 0 if cache is None else len(cache)
            mask = _and(_causal(x.shape[1], past + x.shape[1], x.device), mask)
        out, _ = self.attn(x, mask=mask, key_padding_mask=key_padding_mask, cache=cache)
        return out

    def forward(self, x, mask=None, key_padding_mask=None, cache=None):
        """x (B, T, D) -> (B, T, D). mask: bool True = may attend, and-ed with the causal one."""
        if self.norm_first:
            h = x + self._self_attention(self.ln1(x), mask, key_padding_mask, cache)
            return h + self.ffn(self.ln2(h))  # the FFN reads h, not x
        h = self.ln1(x + self._self_attention(x, mask, key_padding_mask, cache))
        return self.ln2(h + self.ffn(h))

    @classmethod
    def from_torch(cls, layer: nn.TransformerEncoderLayer, causal: bool = False):
        """A copy of `layer` (batch_first; torch keeps no causal flag, so pass `causal`)."""
        d_model = layer.self_attn.embed_dim
        block = cls(
            d_model,
            layer.self_attn.num_heads,
            layer.linear1.out_features,
            norm_first=layer.norm_first,
            causal=causal,
            activation=_activation_of(layer),
            bias=layer.linear1.bias is not None,
            eps=layer.norm1.eps,
        ).to(layer.linear1.weight.dtype)
        block.attn = MultiHeadAttention.from_torch(layer.self_attn)
        _copy(block.ln1, layer.norm1)
        _copy(block.ln2, layer.norm2)
        _copy_ffn(block.ffn, layer)
        return block


class DecoderBlock(nn.Module):
    """Causal self-attention, cross-attention on the encoder's memory, FFN; three residuals.

    Pre-Norm:  x = x + SelfAttn(LN1(x));  x = x + CrossAttn(LN2(x), memory);  x = x + FFN(LN3(x))
    Cross-attention takes Q from the decoder and K, V from the memory.
    """

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        norm_first: bool = True,
        causal: bool = True,
        activation: str = "relu",
        bias: bool = True,
        eps: float = 1e-5,
    ):
        super().__init__()
        self.norm_first, self.causal = norm_first, causal
        self.self_attn = MultiHeadAttention(d_model, n_heads, bias=bias)
        self.ln1 = LayerNorm(d_model, eps, bias=bias)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, bias=bias)
        self.ln2 = LayerNorm(d_model, eps, bias=bias)
        self.ffn = FeedForward(d_model, d_ff, activation, bias=bias)
        self.ln3 = LayerNorm(d_model, eps, bias=bias)

    def _sa(self, x, key_padding_mask):
        T = x.shape[1]
        mask = _causal(T, T, x.device) if self.causal else None
        return self.self_attn(x, mask=mask, key_padding_mask=key_padding_mask)[0]

    def _ca(self, x, memory, memory_key_padding_mask):
        return self.cross_attn(x, memory, key_padding_mask=memory_key_padding_mask)[0]

    def forward(self, x, memory, key_padding_mask=None, memory_key_padding_mask=None):
        """x (B, T, D), memory (B, S, D) -> (B, T, D). Padding masks: bool, True = real token."""
        if self.norm_first:
            x = x + self._sa(self.ln1(x), key_padding_mask)
            x = x + self._ca(self.ln2(x), memory, memory_key_padding_mask)
            return x + self.ffn(self.ln3(x))
        x = self.ln1(x + self._sa(x, key_padding_mask))
        x = self.ln2(x + self._ca(x, memory, memory_key_padding_mask))
        return self.ln3(x + self.ffn(x))

    @classmethod
    def from_torch(cls, layer: nn.TransformerDecoderLayer, causal: bool = True):
        """A copy of `layer` (batch_first), run with a causal target mask by default."""
        block = cls(
            layer.self_attn.embed_dim,
            layer.self_attn.num_heads,
            layer.linear1.out_features,
            norm_first=layer.norm_first,
            causal=causal,
            activation=_activation_of(layer),
            bias=layer.linear1.bias is not None,
            eps=layer.norm1.eps,
        ).to(layer.linear1.weight.dtype)
        block.self_attn = MultiHeadAttention.from_torch(layer.self_attn)
        block.cross_attn = MultiHeadAttention.from_torch(layer.multihead_attn)
        _copy(block.ln1, layer.norm1)
        _copy(block.ln2, layer.norm2)
        _copy(block.ln3, layer.norm3)
        _copy_ffn(block.ffn, layer)
        return block


class Routing(NamedTuple):
    """Where a mixture of experts sent each position. Leading axes are those of its input.

    logits:  (..., n_experts) the router's score of every expert for every position.
    experts: (..., k) long, the k chosen experts of each position, highest score first.
    gates:   (..., k) their weights: softmax over the k chosen logits, so each row sums to 1
             (or, with renormalize=False, the softmax over all experts at the chosen ones).
    """

    logits: torch.Tensor
    experts: torch.Tensor
    gates: torch.Tensor

    @property
    def n_experts(self) -> int:
        return self.logits.shape[-1]

    def load(self) -> torch.Tensor:
        """(n_experts,) how many positions each expert received."""
        return torch.bincount(self.experts.flatten(), minlength=self.n_experts)

    def dense_gates(self) -> torch.Tensor:
        """(..., n_experts): each position's gate for every expert, 0 where it was not sent."""
        dense = torch.zeros_like(self.logits)
        return dense.scatter(-1, self.experts, self.gates)


def top_k_routing(logits: torch.Tensor, k: int, renormalize: bool = True) -> Routing:
    """Route each position to its k highest-scoring experts. logits: (..., n_experts).

    renormalize=True: gates = softmax over the k chosen logits (each row sums to 1, Mixtral).
    renormalize=False: gates = softmax over all experts, read at the k chosen (Switch).
    """
    n_experts = logits.shape[-1]
    if int(k) != k or not 1 <= k <= n_experts:
        raise ValueError(
            f"k must be a whole number of experts per position, 1..n_experts={n_experts}; "
            f"got {k!r}"
        )
    top, experts = logits.topk(int(k), dim=-1)  # (..., k) each, best first
    if renormalize:
        return Routing(logits, experts, torch.softmax(top, dim=-1))
    return Routing(logits, experts, torch.softmax(logits, dim=-1).gather(-1, experts))


class MoEFeedForward(nn.Module):
    """Mixture of experts: a router sends each position to k of n_experts FeedForward networks.

    out = sum over the k chosen experts e of gate_e * FFN_e(x), with the gates a softmax over
    the k chosen router logits (as in Mixtral). With k = 1 that gate is always 1 and the router
    gets no gradient; renormalize=False keeps the softmax over all experts instead (as in the
    Switch Transformer), whose chosen entries sum to less than 1. Parameters grow with
    n_experts; the compute per position grows only with k. A drop-in replacement for a block's
    FeedForward: `block.ffn = MoEFeedForward(...)`; the last call's routing is `last_routing`.
    """

    def __init__(
        self,
        d_model: int,
        d_ff: int,
        n_experts: int,
        k: int = 2,
        activation: str = "gelu",
        bias: bool = True,
        renormalize: bool = True,
    ):
        super().__init__()
        if int(n_experts) != n_experts or n_experts < 1:
            raise ValueError(f"n_experts must be a positive whole number; got {n_experts!r}")
        if int(k) != k or not 1 <= k <= n_experts:
            raise ValueError(
                f"k must be a whole number of experts per position, 1..n_experts={n_experts}; "
                f"got {k!r}"
            )
        self.d_model, self.n_experts, self.k = d_model, int(n_experts), int(k)
        self.renormalize = renormalize
        self.router = nn.Linear(d_model, n_experts, bias=False)
        self.experts = nn.ModuleList(
            FeedForward(d_model, d_ff, activation, bias=bias) for _ in range(n_experts)
        )
        self.last_routing: Routing | None = None

    def route(self, x: torch.Tensor) -> Routing:
        """x (..., d_model) -> the Routing of every position."""
        _check_width(x, self.d_model, "MoEFeedForward")
        return top_k_routing(self.router(x), self.k, self.renormalize)  # logits (..., n_experts)

    def forward(self, x: torch.Tensor, return_routing: bool = False):
        """x (..., d_model) -> out (..., d_model), or (out, Routing) with return_routing."""
        routing = self.route(x)
        flat = x.reshape(-1, self.d_model)  # (N, D): every position of every sequence
        experts = routing.experts.reshape(-1, self.k)  # (N, k)
        gates = routing.gates.reshape(-1, self.k)  # (N, k)
        out = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            token, slot = (experts == e).nonzero(as_tuple=True)  # the positions sent to e
            if token.numel():
                y = expert(flat[token]) * gates[token, slot, None]  # (n_e, D)
                out = out.index_add(0, token, y)
        self.last_routing = routing
        out = out.view(x.shape)
        return (out, routing) if return_routing else out
