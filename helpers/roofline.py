"""The roofline: why decoding one token is memory-bound and a prefill is compute-bound.

A computation that does F FLOPs on B bytes read or written has arithmetic intensity F / B
FLOPs per byte. A machine that does at most `peak_flops` FLOP/s and moves `bandwidth` bytes/s
attains at most min(peak_flops, intensity · bandwidth) (Williams, Waterman and Patterson,
"Roofline", CACM 2009): below the ridge point peak / bandwidth it waits on memory.
Decoding reads every weight (and the whole KV cache) for one multiply-add per weight and
sequence: an intensity of about `batch` FLOPs per byte in bf16, far below any ridge point.
A mixture of experts is the exception to "every weight": a step reads only the experts its
tokens were routed to (`experts_touched`), which at batch 1 is the published active
parameters and grows towards all of them with the batch.
Counts: a multiply-add is 2 FLOPs; softmax, norms and activations are left out.
"""

from __future__ import annotations

import time

import numpy as np
import torch

from helpers.configs import _bytes, _whole, as_config, kv_cache_bytes, windowed_layers

# ---------------------------------------------------------------------------- measuring


def measure_matmul_flops(n: int = 1024, repeats: int = 3) -> float:
    """FLOP/s of an n x n float32 matmul in torch (2 n³ FLOPs), the best of `repeats` runs."""
    n, repeats = _whole("n", n), _whole("repeats", repeats)
    g = torch.Generator().manual_seed(0)
    a, b = torch.randn(n, n, generator=g), torch.randn(n, n, generator=g)
    a @ b  # warm up: threads, caches
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - start)
    return 2 * n**3 / best


def measure_bandwidth(n_bytes: int = 2**27, repeats: int = 3) -> float:
    """Bytes/s of copying `n_bytes` (128 MiB: far more than any cache) to another buffer.

    A copy reads n_bytes and writes n_bytes: 2 · n_bytes moved, the best of `repeats` runs.
    """
    n_bytes, repeats = _whole("n_bytes", n_bytes), _whole("repeats", repeats)
    src = torch.ones(max(1, n_bytes // 4))  # float32
    dst = torch.empty_like(src)
    dst.copy_(src)  # warm up: the first touch of each page costs a page fault
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        dst.copy_(src)
        best = min(best, time.perf_counter() - start)
    return 2 * src.nbytes / best


# ---------------------------------------------------------------------------- the model


def matmul_intensity(m: int, k: int, n: int, bytes_per_value=4) -> float:
    """FLOPs per byte of (m, k) @ (k, n): 2 m k n / (bytes · (m k + k n + m n)).

    Each input read once and the output written once; with m = 1 (one token) it is below 1
    FLOP per byte in float32 whatever k and n are.
    """
    m, k, n = _whole("m", m), _whole("k", k), _whole("n", n)
    return 2 * m * k * n / (_bytes(bytes_per_value) * (m * k + k * n + m * n))


def attainable_flops(intensity, peak_flops: float, bandwidth: float):
    """The roofline: min(peak_flops, intensity · bandwidth). Works on arrays of intensities."""
    if not peak_flops > 0 or not bandwidth > 0:
        raise ValueError(
            f"peak_flops and bandwidth must be positive; got {peak_flops!r}, {bandwidth!r}"
        )
    result = np.minimum(peak_flops, np.asarray(intensity, dtype=float) * bandwidth)
    return float(result) if np.ndim(result) == 0 else result


def estimate_params(config) -> int:
    """Weights of the attention and FFN layers from the config's shapes alone.

    per layer: attention projections, q and o d_model · H d_head each, k and v
        d_model · H_kv d_head each (MLA: W_DQ and W_UQ when q_latent is set, else W_Q; W_QR,
        W_DKV, W_KR, W_UK, W_UV, W_O), plus an FFN of ffn_matrices · d_model · d_ff.
    Without d_ff: GPT's FFN of 4 d_model hidden units and two matrices, 8 d_model². A SwiGLU of
    exactly 8/3 d_model hidden units and three matrices holds the same 8 d_model², but the
    released widths are not 8/3 d_model: Llama-2-7B's 11008 is 2.6875 d_model (Meta's
    llama/model.py rounds 2/3 · 4 d_model up to a multiple of 256) and Llama 3's 14336 is
    3.5 d_model, so pass d_ff and ffn_matrices = 3 for them.
    Embeddings and the output head are left out (the vocabulary is not in the config), and a
    mixture of experts is counted as one dense FFN: pass n_params when you know better.
    """
    c = as_config(config)
    D, H, d = c.d_model, c.n_heads, c.d_head
    if c.is_mla:
        queries = (D * c.q_latent + c.q_latent * H * (d + c.rope_head_dim) if c.q_latent
                   else D * H * (d + c.rope_head_dim))
        attention = queries + D * (c.kv_latent + c.rope_head_dim) \
            + c.kv_latent * 2 * H * d + H * d * D
    else:
        attention = 2 * D * H * d + 2 * D * c.n_kv_heads * d
    ffn = 8 * D * D if c.d_ff is None else c.ffn_matrices * D * c.d_ff
    return c.n_layers * (attention + ffn)


def experts_touched(config, tokens: int) -> float:
    """How many of a layer's routed experts `tokens` tokens use, expected over routings: E ·
    (1 - (1 - k/E)^tokens) if each token picked its k experts uniformly at random. k at one
    token; all E as the tokens grow. Real routers are trained towards balanced loads but are
    not uniform; skewed or correlated choices touch fewer experts. None for a dense model."""
    c = as_config(config)
    tokens = _whole("tokens", tokens)
    if not c.is_moe:
        return None
    E, k = c.n_experts, c.experts_per_token
    return E * (1 - (1 - k / E) ** tokens)


def weights_read(config, tokens: int, n_params=None) -> int:
    """Parameters one forward step over `tokens` tokens must read from memory.

    Dense: every weight (n_params if given, else the config's, else `estimate_params`).
    Mixture of experts: the parameters one token uses (active_params) plus, per extra expert
    the batch touches (`experts_touched` - k), one routed expert's parameters: active_params at
    one token, about n_params when every expert is touched.
    """
    c = as_config(config)
    tokens = _whole("tokens", tokens)
    if n_params is not None:
        return _whole("n_params", n_params)
    if c.is_moe:
        extra = experts_touched(c, tokens) - c.experts_per_token
        return int(round(c.active_params + extra * c.expert_params))
    return c.n_params if c.n_params is not None else estimate_params(c)


def _weights(c, n_params) -> int:
    """The weights one token uses (its multiply-adds): n_params if given, else the config's
    published count (its active parameters for a mixture of experts), else
    `estimate_params`."""
    if n_params is not None:
        return _whole("n_params", n_params)
    if c.active_params is not None:
        return c.active_params
    return c.n_params if c.n_params is not None else estimate_params(c)


def _attention_flops(c, local_pairs: int, global_pairs: int) -> int:
    """Scores and weighted sums over all layers: `local_pairs` (query, key) pairs per head in
    each windowed layer, `global_pairs` in each of the others (`windowed_layers`).

    Standard: q·k and p v, 2 d_head each. MLA decoding absorbs W_UK and W_UV (their FLOPs are
    in the weights'): scores over d_c + d_h^R and sums over d_c.
    """
    width = (2 * c.kv_latent + c.rope_head_dim) if c.is_mla else 2 * c.d_head
    local = windowed_layers(c)
    layer_pairs = local * local_pairs + (c.n_layers - local) * global_pairs
    return 2 * c.n_heads * width * layer_pairs


def _step(flops: int, weight_bytes: int, kv_bytes: int, experts=None) -> dict:
    total = weight_bytes + kv_bytes
    return {"flops": int(flops), "bytes": int(total), "intensity": flops / total,
            "weight_bytes": int(weight_bytes), "kv_bytes": int(kv_bytes),
            "experts_touched": experts}


def decode_step(config, T: int, batch: int = 1, bytes_per_value=2, n_params=None) -> dict:
    """One decoding step: `batch` sequences each add their T-th token.

    flops: 2 · (the weights one token uses) · batch (a multiply-add per weight and token) +
        attention over the kept keys, min(T, window) in a windowed layer and T in a global
        one, for every head, layer and sequence.
    bytes: every weight the batch uses, read once (`weights_read`: all of them for a dense
        model, the touched experts' for a mixture of experts) + the KV cache of T tokens per
        sequence (the T - 1 cached positions read, the new one written).
    Returns {"flops", "bytes", "intensity", "weight_bytes", "kv_bytes", "experts_touched"}
    (experts_touched: per MoE layer, None for a dense model).
    """
    c = as_config(config)
    T, batch = _whole("T", T), _whole("batch", batch)
    kept = T if c.window is None else min(T, c.window)  # keys a windowed layer reads
    flops = 2 * _weights(c, n_params) * batch + _attention_flops(c, kept, T) * batch
    return _step(flops, weights_read(c, batch, n_params) * _bytes(bytes_per_value),
                 kv_cache_bytes(c, T, batch, bytes_per_value),
                 None if n_params is not None else experts_touched(c, batch))


def prefill_step(config, T: int, batch: int = 1, bytes_per_value=2, n_params=None) -> dict:
    """Processing a prompt of T tokens in one pass, for `batch` sequences.

    flops: 2 · (the weights one token uses) · T · batch + causal attention: query i reads
        min(i, window) keys (itself included) in a windowed layer, i in a global one. For MLA
        the scores are counted as in decoding (absorbed).
    bytes: every weight the T · batch tokens use, read once (`weights_read`) + the KV cache of
        T tokens written per sequence (activations are left out: they can stay on chip, tile
        by tile).
    """
    c = as_config(config)
    T, batch = _whole("T", T), _whole("batch", batch)
    reads = np.arange(1, T + 1) if c.window is None else np.minimum(np.arange(1, T + 1), c.window)
    pairs = int(reads.sum())  # in a windowed layer; T (T + 1) / 2 in a global one
    flops = 2 * _weights(c, n_params) * T * batch \
        + _attention_flops(c, pairs, T * (T + 1) // 2) * batch
    return _step(flops, weights_read(c, T * batch, n_params) * _bytes(bytes_per_value),
                 kv_cache_bytes(c, T, batch, bytes_per_value),
                 None if n_params is not None else experts_touched(c, T * batch))
