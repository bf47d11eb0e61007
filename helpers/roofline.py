"""The roofline: why decoding one token is memory-bound and a prefill is compute-bound.

A computation that does F FLOPs on B bytes read or written has arithmetic intensity F / B
FLOPs per byte. A machine that does at most `peak_flops` FLOP/s and moves `bandwidth` bytes/s
attains at most min(peak_flops, intensity · bandwidth) (Williams, Waterman and Patterson,
"Roofline", CACM 2009): below the ridge point peak / bandwidth it waits on memory.
Decoding reads every weight (and the whole KV cache) for one multiply-add per weight and
sequence: an intensity of about `batch` FLOPs per byte in bf16, far below any ridge point.
Counts: a multiply-add is 2 FLOPs; softmax, norms and activations are left out.
"""

from __future__ import annotations

import time

import numpy as np
import torch

from helpers.configs import _bytes, _whole, as_config, kv_cache_bytes

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
    """Weights of the attention and FFN layers from the attention shapes alone.

    per layer: attention projections, q and o d_model · H d_head each, k and v
        d_model · H_kv d_head each (MLA: W_Q, W_QR, W_DKV, W_KR, W_UK, W_UV, W_O), plus an FFN
        of 8 d_model² (GPT's 4 d_model hidden units, two matrices; Llama's SwiGLU with
        8/3 d_model hidden units and three matrices is the same).
    Embeddings and the output head are left out (the vocabulary is not in the config), and a
    mixture of experts is counted as one dense FFN: pass n_params when you know better.
    """
    c = as_config(config)
    D, H, d = c.d_model, c.n_heads, c.d_head
    if c.is_mla:
        attention = D * H * (d + c.rope_head_dim) + D * (c.kv_latent + c.rope_head_dim) \
            + c.kv_latent * 2 * H * d + H * d * D
    else:
        attention = 2 * D * H * d + 2 * D * c.n_kv_heads * d
    return c.n_layers * (attention + 8 * D * D)


def _weights(c, n_params) -> int:
    """The weights one token uses: n_params if given, else the config's published count (its
    active parameters for a mixture of experts), else `estimate_params`."""
    if n_params is not None:
        return _whole("n_params", n_params)
    if c.active_params is not None:
        return c.active_params
    return c.n_params if c.n_params is not None else estimate_params(c)


def _attention_flops(c, pairs: int) -> int:
    """Scores and weighted sums over all layers for `pairs` (query, key) pairs per head.

    Standard: q·k and p v, 2 d_head each. MLA decoding absorbs W_UK and W_UV (their FLOPs are
    in the weights'): scores over d_c + d_h^R and sums over d_c.
    """
    width = (2 * c.kv_latent + c.rope_head_dim) if c.is_mla else 2 * c.d_head
    return 2 * c.n_layers * c.n_heads * width * pairs


def _step(flops: int, weight_bytes: int, kv_bytes: int) -> dict:
    total = weight_bytes + kv_bytes
    return {"flops": int(flops), "bytes": int(total), "intensity": flops / total,
            "weight_bytes": int(weight_bytes), "kv_bytes": int(kv_bytes)}


def decode_step(config, T: int, batch: int = 1, bytes_per_value=2, n_params=None) -> dict:
    """One decoding step: `batch` sequences each add their T-th token.

    flops: 2 · n_params · batch (a multiply-add per weight and token) + attention over the
        kept keys, min(T, window), for every head, layer and sequence.
    bytes: every weight read once (shared by the batch) + the KV cache of T tokens per
        sequence (the T - 1 cached positions read, the new one written).
    Returns {"flops", "bytes", "intensity", "weight_bytes", "kv_bytes"}.
    """
    c = as_config(config)
    T, batch = _whole("T", T), _whole("batch", batch)
    weights = _weights(c, n_params)
    kept = T if c.window is None else min(T, c.window)
    flops = 2 * weights * batch + _attention_flops(c, kept) * batch
    return _step(flops, weights * _bytes(bytes_per_value),
                 kv_cache_bytes(c, T, batch, bytes_per_value))


def prefill_step(config, T: int, batch: int = 1, bytes_per_value=2, n_params=None) -> dict:
    """Processing a prompt of T tokens in one pass, for `batch` sequences.

    flops: 2 · n_params · T · batch + causal attention: query i reads min(i, window) keys
        (itself included). For MLA the scores are counted as in decoding (absorbed).
    bytes: every weight read once + the KV cache of T tokens written per sequence
        (activations are left out: they can stay on chip, tile by tile).
    """
    c = as_config(config)
    T, batch = _whole("T", T), _whole("batch", batch)
    weights = _weights(c, n_params)
    reads = np.arange(1, T + 1) if c.window is None else np.minimum(np.arange(1, T + 1), c.window)
    pairs = int(reads.sum())  # T (T + 1) / 2 without a window
    flops = 2 * weights * T * batch + _attention_flops(c, pairs) * batch
    return _step(flops, weights * _bytes(bytes_per_value),
                 kv_cache_bytes(c, T, batch, bytes_per_value))
