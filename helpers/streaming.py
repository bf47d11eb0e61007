"""Attention without the T x T matrix: online softmax, tiled attention, and cost measurements.

The idea behind FlashAttention, in NumPy. Softmax needs the maximum and the sum of a whole row,
yet both can be kept *running*: read the row block by block, keep the largest score seen so
far (m) and the sum of exp(score - m) (z), and when a new block raises the maximum, rescale
what was summed before by exp(m_old - m_new). Attention adds a third running quantity, the
unnormalised output acc = sum_j exp(s_j - m) v_j, rescaled by the same factor. After the last
block, out = acc / z: exactly softmax(s) v, without ever holding a full row of scores for
every query at once. The backward pass keeps only each query's log-sum-exp from the forward
pass and recomputes the weights block by block from it (`attention_backward`). FlashDecoding
splits the keys into chunks computed independently, each with its log-sum-exp, and merges them
exactly (`flash_decoding`, `chunk_partials`, `combine_partials`).

Shapes: q (..., T_q, d_k), k (..., T_k, d_k), v (..., T_k, d_v) -> out (..., T_q, d_v), as in
`helpers.attention.attention`. Arrays keep their float dtype (float32 stays float32), so the
memory measured with `peak_memory` is what the shapes say. NumPy only: tracemalloc sees
NumPy's allocations, not torch's.

Masks are built tile by tile from positions: `causal` lets the query at position p read keys
0..p; `window` keeps only the `window` most recent of them, p - window + 1..p (a causal
sliding window). When there are fewer queries than keys (decoding after a cache), the queries
are the last T_q positions, as in `helpers.blocks`.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import torch
from torch.utils._python_dispatch import TorchDispatchMode


def _as_array(x, name: str) -> np.ndarray:
    if isinstance(x, torch.Tensor):
        raise TypeError(
            f"{name} is a torch tensor; helpers.streaming works on NumPy arrays "
            "(use .numpy(), or helpers.attention.attention for tensors)"
        )
    x = np.asarray(x)
    return x if x.dtype.kind == "f" else x.astype(float)


def _check_qkv(q, k, v) -> None:
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.ndim < 2:
            raise ValueError(
                f"{name} must have at least 2 axes (..., positions, features); got shape {t.shape}"
            )
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"q and k must have the same width d_k; got q {q.shape} and k {k.shape}"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"k and v must have the same number of positions T_k; got k {k.shape} and v {v.shape}"
        )


def _check_block(name: str, value) -> int:
    if value is None or int(value) != value or value < 1:
        raise ValueError(f"{name} must be a positive whole number of positions; got {value!r}")
    return int(value)


def _check_window(window, causal: bool) -> None:
    if window is None:
        return
    _check_block("window", window)
    if not causal:
        raise ValueError(
            "window keeps the `window` most recent keys of a causal sliding window; "
            "pass causal=True with it"
        )


# ---------------------------------------------------------------------------- online softmax


def softmax_step(m, z, x_block):
    """Fold one block of scores into the running max m and running sum z (last axis).

    m: (...,) the largest score seen so far (-inf before the first block).
    z: (...,) sum of exp(score - m) over the scores seen so far.
    x_block: (..., B) the next B scores of each row.
    Returns (m_new, z_new). When the maximum grows, the old sum was taken relative to the old
    maximum, so it is rescaled by exp(m - m_new) before the new terms are added.
    """
    m_new = np.maximum(m, x_block.max(axis=-1))
    shift = np.where(np.isneginf(m_new), 0.0, m_new)  # rows with nothing allowed yet stay at 0
    z_new = np.exp(m - shift) * z + np.exp(x_block - shift[..., None]).sum(axis=-1)
    return m_new, z_new


def online_max_sum(x, block_size: int = 1):
    """(m, z) of x along its last axis, read `block_size` entries at a time.

    m = max(x), z = sum(exp(x - m)): the two numbers softmax needs, so log z + m is
    logsumexp(x).
    """
    x = _as_array(x, "x")
    block_size = _check_block("block_size", block_size)
    m = np.full(x.shape[:-1], -np.inf, dtype=x.dtype)
    z = np.zeros(x.shape[:-1], dtype=x.dtype)
    for start in range(0, x.shape[-1], block_size):
        m, z = softmax_step(m, z, x[..., start : start + block_size])
    return m, z


def online_softmax(x, block_size: int = 1):
    """softmax(x) along the last axis from one streaming pass for (m, z), then exp(x - m) / z."""
    x = _as_array(x, "x")
    m, z = online_max_sum(x, block_size)
    return np.exp(x - m[..., None]) / z[..., None]


# ---------------------------------------------------------------------------- tiled attention


def attention_step(m, z, acc, scores, v_block):
    """Fold one block of keys into the running state of attention.

    m: (..., T_q) running max of each query's scores; z: (..., T_q) running sum of
    exp(score - m); acc: (..., T_q, d_v) running sum of exp(score - m) v_j.
    scores: (..., T_q, B) this block's scaled scores, -inf where a key is blocked.
    v_block: (..., B, d_v) this block's values.
    Returns (m_new, z_new, acc_new). Both z and acc were summed relative to the old maximum, so
    both are multiplied by exp(m - m_new) when it grows. Start from m = -inf, z = 0, acc = 0;
    after the last block the output is acc / z.
    """
    m_new = np.maximum(m, scores.max(axis=-1))  # (..., T_q)
    shift = np.where(np.isneginf(m_new), 0.0, m_new)  # no allowed key yet: keep exp finite
    alpha = np.exp(m - shift)  # (..., T_q) rescales the old state; 0 before the first key
    p = np.exp(scores - shift[..., None])  # (..., T_q, B) unnormalised weights of this block
    z_new = alpha * z + p.sum(axis=-1)
    acc_new = alpha[..., None] * acc + p @ v_block  # (..., T_q, d_v)
    return m_new, z_new, acc_new


def _tile_allowed(q_pos, k_pos, causal: bool, window):
    """(len(q_pos), len(k_pos)) bool from positions, or None when every key is allowed.

    Query positions and key positions are each consecutive: q_pos[0] + i and k_pos[0] + j.
    """
    if not causal:
        return None
    n_q, n_k, first = len(q_pos), len(k_pos), int(q_pos[0]) - int(k_pos[0])
    allowed = np.tri(n_q, n_k, k=first, dtype=bool)  # key j <= query position: the past
    if window is not None:
        allowed &= ~np.tri(n_q, n_k, k=first - window, dtype=bool)  # and fewer than window back
    return allowed


def _key_range(p0: int, p1: int, T_k: int, causal: bool, window):
    """Keys that queries at positions p0..p1-1 may read: [lo, hi)."""
    if not causal:
        return 0, T_k
    lo = 0 if window is None else max(0, p0 - window + 1)
    return lo, min(T_k, p1)


def tiled_attention(
    q,
    k,
    v,
    mask=None,
    *,
    causal: bool = False,
    window: int | None = None,
    block_k: int = 64,
    block_q: int | None = None,
    scale: float | None = None,
    return_stats: bool = False,
    return_lse: bool = False,
):
    """softmax(q kᵀ scale, masked) v, computed over blocks of `block_k` keys at a time.

    Never builds the (T_q, T_k) score matrix: each step holds a (block_q, block_k) tile of
    scores (all T_q queries when block_q is None) and the running max, sum and output.
    mask: optional boolean (True = may attend), broadcastable to (..., T_q, T_k); it is sliced
        tile by tile (a full mask is itself T_q x T_k; prefer causal / window).
    causal, window: masks computed from positions, tile by tile. Tiles that no query of the
        block may read (the future, or keys older than the window) are skipped.
    return_stats: also return a dict with the number of tiles computed and skipped.
    return_lse: also return lse (..., T_q), each query's log Σ_j exp(score_j) = m + log z,
        all FlashAttention keeps for its backward pass. Returns out, [lse], [stats].
    """
    q, k, v = (_as_array(t, n) for t, n in ((q, "q"), (k, "k"), (v, "v")))
    _check_qkv(q, k, v)
    _check_window(window, causal)
    block_k = _check_block("block_k", block_k)
    T_q, T_k = q.shape[-2], k.shape[-2]
    block_q = T_q if block_q is None else _check_block("block_q", block_q)
    if causal and T_q > T_k:
        raise ValueError(f"causal attention needs T_q <= T_k; got T_q={T_q}, T_k={T_k}")
    # a Python float, not np.float64: a float32 tile times it stays float32
    scale = float(1.0 / np.sqrt(q.shape[-1]) if scale is None else scale)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise ValueError(f"mask must be boolean with True = may attend; got dtype {mask.dtype}")
        try:
            np.broadcast_shapes(mask.shape, q.shape[:-2] + (T_q, T_k))
        except ValueError:
            raise ValueError(
                f"mask of shape {mask.shape} does not broadcast to the scores' shape "
                f"{q.shape[:-2] + (T_q, T_k)} (..., T_q, T_k)"
            ) from None
        mask = mask.reshape((1,) * max(0, 2 - mask.ndim) + mask.shape)
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    if mask is not None:
        lead = np.broadcast_shapes(lead, mask.shape[:-2])  # a batched mask batches the output
    out = np.empty(lead + (T_q, v.shape[-1]), dtype=np.result_type(q, k, v))
    lse = np.empty(lead + (T_q,), dtype=out.dtype)
    past = T_k - T_q  # queries are the last T_q positions
    tiles = skipped = 0
    kt = np.swapaxes(k, -2, -1)  # (..., d_k, T_k), a view
    for i0 in range(0, T_q, block_q):
        i1 = min(i0 + block_q, T_q)
        q_blk = q[..., i0:i1, :] * scale  # (..., bq, d_k)
        q_pos = np.arange(past + i0, past + i1)
        m = np.full(lead + (i1 - i0,), -np.inf, dtype=out.dtype)
        z = np.zeros(lead + (i1 - i0,), dtype=out.dtype)
        acc = np.zeros(lead + (i1 - i0, v.shape[-1]), dtype=out.dtype)
        lo, hi = _key_range(past + i0, past + i1, T_k, causal, window)
        for j0 in range(0, T_k, block_k):
            j1 = min(j0 + block_k, T_k)
            if j1 <= lo or j0 >= hi:
                skipped += 1  # no query of this block may read these keys
                continue
            allowed = _tile_allowed(q_pos, np.arange(j0, j1), causal, window)
            if mask is not None:
                tile = mask[..., i0:i1, j0:j1] if mask.shape[-2] > 1 else mask[..., j0:j1]
                allowed = tile if allowed is None else allowed & tile
            s = q_blk @ kt[..., j0:j1]  # (..., bq, bk): one tile of scores
            if allowed is not None:
                s = np.where(allowed, s, -np.inf)
            m, z, acc = attention_step(m, z, acc, s, v[..., j0:j1, :])
            tiles += 1
        empty = z == 0
        if empty.any():
            where = np.argwhere(empty)[0]
            raise ValueError(
                f"query row {i0 + int(where[-1])} has no allowed key: its softmax would be 0/0. "
                "Allow at least one key per query (a causal window always allows the diagonal)."
            )
        out[..., i0:i1, :] = acc / z[..., None]
        lse[..., i0:i1] = m + np.log(z)  # log Σ exp(s) = m + log Σ exp(s - m)
    results = (out,) + ((lse,) if return_lse else ())
    results += ({"tiles": tiles, "skipped": skipped},) if return_stats else ()
    return results[0] if len(results) == 1 else results


# ---------------------------------------------------------------------------- split-K decoding


def chunk_partials(q, k, v, mask=None, *, chunk_size: int, scale=None):
    """Each chunk of keys on its own: (outs (..., n_chunks, T_q, d_v), lses (..., n_chunks, T_q)).

    Chunk c holds keys c·chunk_size .. (c+1)·chunk_size - 1 (the last one may be shorter).
    outs[..., c, i, :] is softmax over chunk c's scores alone times its values, and
    lses[..., c, i] = log Σ_{j in c} exp(s_ij), from one `attention_step` each. A chunk where
    query i may read no key (padding) has lse -inf and output 0: it gets weight 0 when combined.
    mask: boolean, True = may attend, broadcastable to (..., T_q, T_k).
    """
    q, k, v = (_as_array(t, n) for t, n in ((q, "q"), (k, "k"), (v, "v")))
    _check_qkv(q, k, v)
    chunk_size = _check_block("chunk_size", chunk_size)
    scale = float(1.0 / np.sqrt(q.shape[-1]) if scale is None else scale)
    s_all_shape = np.broadcast_shapes(q.shape[:-1], k.shape[:-2] + (1,)) + (k.shape[-2],)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise ValueError(f"mask must be boolean with True = may attend; got dtype {mask.dtype}")
        mask = np.broadcast_to(mask, s_all_shape)  # (..., T_q, T_k), a view
    outs, lses = [], []
    for j0 in range(0, k.shape[-2], chunk_size):
        j1 = min(j0 + chunk_size, k.shape[-2])
        s = (q @ np.swapaxes(k[..., j0:j1, :], -2, -1)) * scale  # (..., T_q, chunk)
        if mask is not None:
            s = np.where(mask[..., j0:j1], s, -np.inf)
        m = np.full(s.shape[:-1], -np.inf, dtype=s.dtype)
        z = np.zeros(s.shape[:-1], dtype=s.dtype)
        acc = np.zeros(s.shape[:-1] + (v.shape[-1],), dtype=s.dtype)
        m, z, acc = attention_step(m, z, acc, s, v[..., j0:j1, :])
        empty = z == 0  # no allowed key in this chunk
        outs.append(acc / np.where(empty, 1.0, z)[..., None])  # 0 where empty
        with np.errstate(divide="ignore"):
            lses.append(np.where(empty, -np.inf, m + np.log(z)))  # log Σ exp(s) = m + log z
    return np.stack(outs, axis=-3), np.stack(lses, axis=-2)


def combine_partials(outs, lses):
    """(out (..., T_q, d_v), lse (..., T_q)) from chunk partials, exactly.

    lse = log Σ_c exp(lse_c) and out = Σ_c exp(lse_c - lse) · out_c: each chunk's output was
    normalised by its own sum exp(lse_c), so it is reweighted by its share of the total.
    outs (..., n_chunks, T_q, d_v), lses (..., n_chunks, T_q), as `chunk_partials` returns.
    """
    outs, lses = _as_array(outs, "outs"), _as_array(lses, "lses")
    if outs.ndim < 3 or outs.shape[:-1] != lses.shape:
        raise ValueError(
            f"outs (..., n_chunks, T_q, d_v) and lses (..., n_chunks, T_q) must agree; got "
            f"{outs.shape} and {lses.shape}"
        )
    top = lses.max(axis=-2, keepdims=True)  # (..., 1, T_q)
    if np.isneginf(top).any():
        raise ValueError("a query row has no allowed key in any chunk: its softmax would be 0/0")
    w = np.exp(lses - top)  # (..., n_chunks, T_q), 0 for an empty chunk
    total = w.sum(axis=-2)  # (..., T_q)
    out = (w[..., None] * outs).sum(axis=-3) / total[..., None]
    return out, top[..., 0, :] + np.log(total)


def flash_decoding(q, k, v, mask=None, *, chunk_size: int = 64, scale=None,
                   return_lse: bool = False):
    """softmax(q kᵀ scale, masked) v with the keys split into chunks computed independently.

    FlashDecoding (Dao et al. 2023): when decoding, T_q = 1 leaves a GPU idle, so the long
    key axis is split instead; each chunk runs in parallel (`chunk_partials`) and a small
    reduction merges them (`combine_partials`). The result is exact, for any chunk_size.
    Returns out (..., T_q, d_v), and lse (..., T_q) if return_lse.
    """
    out, lse = combine_partials(*chunk_partials(q, k, v, mask, chunk_size=chunk_size,
                                                scale=scale))
    return (out, lse) if return_lse else out


def naive_attention(q, k, v, mask=None, *, causal: bool = False, window=None, scale=None):
    """Textbook attention that materialises the full (..., T_q, T_k) score matrix.

    The same numbers as `helpers.attention.attention`, written lean to measure what the score
    matrix itself costs: the scores are kept in the input dtype and softmax runs in place on
    them, so the peak memory is one T_q x T_k matrix (plus the mask, if any).
    """
    q, k, v = (_as_array(t, n) for t, n in ((q, "q"), (k, "k"), (v, "v")))
    _check_qkv(q, k, v)
    _check_window(window, causal)
    T_q, T_k = q.shape[-2], k.shape[-2]
    scale = float(1.0 / np.sqrt(q.shape[-1]) if scale is None else scale)
    scores = q @ np.swapaxes(k, -2, -1)  # (..., T_q, T_k): the T x T matrix
    scores *= scale
    allowed = _tile_allowed(np.arange(T_k - T_q, T_k), np.arange(T_k), causal, window)
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        allowed = mask if allowed is None else allowed & mask
    if allowed is not None:
        np.copyto(scores, -np.inf, where=~allowed)
    scores -= scores.max(axis=-1, keepdims=True)  # softmax in place, row by row
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores @ v


# ---------------------------------------------------------------------------- backward pass


def attention_with_lse(q, k, v, mask=None, *, causal: bool = False, scale=None,
                       block_k: int = 64):
    """(out (..., T_q, d_v), lse (..., T_q)) in float64: the forward pass FlashAttention stores.

    lse_i = log Σ_j exp(s_ij) over the allowed keys, s = q kᵀ · scale. From it the backward
    pass recomputes any weight p_ij = exp(s_ij - lse_i) without keeping the T_q x T_k matrix.
    """
    q, k, v = (_as_array(t, n).astype(np.float64) for t, n in ((q, "q"), (k, "k"), (v, "v")))
    return tiled_attention(q, k, v, mask, causal=causal, scale=scale, block_k=block_k,
                           return_lse=True)


def row_backward(q, k, v, lse, d_out, *, scale=None):
    """One query's gradients from its log-sum-exp: (dq (d,), dk (T, d), dv (T, d_v)).

    q (d,), k (T, d), v (T, d_v), lse = log Σ_j exp(s_j) with s_j = q · k_j · scale, and
    d_out (d_v,) = dL/do for o = Σ_j p_j v_j. Through o: dv_j = p_j d_out and dp_j = v_j · d_out;
    through softmax: ds_j = p_j (dp_j - Σ_l p_l dp_l), where Σ_l p_l dp_l = o · d_out; through
    the scores: dq = scale Σ_j ds_j k_j and dk_j = scale ds_j q.
    """
    q, k, v, d_out = (_as_array(t, n) for t, n in ((q, "q"), (k, "k"), (v, "v"),
                                                     (d_out, "d_out")))
    if q.ndim != 1 or k.ndim != 2 or v.ndim != 2 or d_out.ndim != 1:
        raise ValueError(
            "row_backward takes one query: q (d,), k (T, d), v (T, d_v), d_out (d_v,); got "
            f"q {q.shape}, k {k.shape}, v {v.shape}, d_out {d_out.shape}"
        )
    if k.shape[1] != q.shape[0] or v.shape[0] != k.shape[0] or d_out.shape[0] != v.shape[1]:
        raise ValueError(
            f"shapes do not fit: q (d,) = {q.shape}, k (T, d) = {k.shape}, v (T, d_v) = "
            f"{v.shape}, d_out (d_v,) = {d_out.shape}"
        )
    if np.ndim(lse) != 0:
        raise ValueError(f"lse is one number for one query; got shape {np.shape(lse)}")
    scale = float(1.0 / np.sqrt(q.shape[-1]) if scale is None else scale)
    p = np.exp(k @ q * scale - lse)  # (T,): the weights, recomputed
    dv = p[:, None] * d_out[None, :]  # (T, d_v)
    dp = v @ d_out  # (T,): dL/dp_j
    ds = p * (dp - p @ dp)  # (T,): through the softmax
    dq = scale * ds @ k  # (d,)
    dk = scale * ds[:, None] * q[None, :]  # (T, d)
    return dq, dk, dv


def attention_backward(q, k, v, out, lse, d_out, *, mask=None, causal: bool = False,
                       scale=None, block_k: int = 64):
    """(dq, dk, dv) of out = softmax(q kᵀ · scale, masked) v, key block by key block.

    q (..., T_q, d), k (..., T_k, d), v (..., T_k, d_v), out and d_out (..., T_q, d_v),
    lse (..., T_q) from `attention_with_lse`; the leading axes of all of them are the same.
    D = rowsum(d_out * out); then for each block of `block_k` keys: P = exp(S - lse),
    dV = Pᵀ dO, dP = dO Vᵀ, dS = P (dP - D), dQ += dS K · scale, dK = dSᵀ Q · scale.
    Holds at most a (T_q, block_k) block of P, dP and dS, never the T_q x T_k matrix.

    A query row with no allowed key has lse = -inf (log 0): exp(s - lse) would be inf or NaN
    and spread into dk and dv of every key, so such a row is refused, as the forward pass
    (`tiled_attention`) refuses it. FlashAttention-2's kernel instead stores lse = +inf for
    that row (csrc/flash_attn/src/softmax.h, `normalize_softmax_lse`) with an output of 0: its
    recomputed weights exp(s - inf) are 0 and it gets zero gradient. That convention is
    accepted here too.
    """
    q, k, v, out, lse, d_out = (
        _as_array(t, n) for t, n in ((q, "q"), (k, "k"), (v, "v"), (out, "out"),
                                     (lse, "lse"), (d_out, "d_out"))
    )
    _check_qkv(q, k, v)
    block_k = _check_block("block_k", block_k)
    T_q, T_k = q.shape[-2], k.shape[-2]
    lead = q.shape[:-2]
    want = {"k": (k, lead + k.shape[-2:]), "v": (v, lead + v.shape[-2:]),
            "out": (out, lead + (T_q, v.shape[-1])), "d_out": (d_out, lead + (T_q, v.shape[-1])),
            "lse": (lse, lead + (T_q,))}
    for name, (t, shape) in want.items():
        if t.shape != shape:
            raise ValueError(
                f"{name} must have shape {shape} (the leading axes of q {q.shape}); "
                f"got {t.shape}"
            )
    if causal and T_q > T_k:
        raise ValueError(f"causal attention needs T_q <= T_k; got T_q={T_q}, T_k={T_k}")
    bad = np.isnan(lse) | np.isneginf(lse)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"lse{list(where)} is {lse[where]}: that query row has no allowed key (log 0 = -inf), "
            "so its weights exp(s - lse) are not defined and would put inf and NaN into dk and "
            "dv of every key. The forward pass refuses such a row; allow it a key, or store "
            "lse = +inf and an output row of 0 for it, as FlashAttention-2 does, to give it "
            "zero gradient."
        )
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != np.bool_:
            raise ValueError(f"mask must be boolean with True = may attend; got dtype {mask.dtype}")
        mask = np.broadcast_to(mask, lead + (T_q, T_k))  # a view, not a copy
    scale = float(1.0 / np.sqrt(q.shape[-1]) if scale is None else scale)
    D = (d_out * out).sum(axis=-1)  # (..., T_q): Σ_j p_j dp_j = o · dO
    dq, dk, dv = np.zeros_like(q), np.empty_like(k), np.empty_like(v)
    q_pos = np.arange(T_k - T_q, T_k)  # queries are the last T_q positions
    for j0 in range(0, T_k, block_k):
        j1 = min(j0 + block_k, T_k)
        k_blk, v_blk = k[..., j0:j1, :], v[..., j0:j1, :]  # (..., bk, d), (..., bk, d_v)
        s = (q @ np.swapaxes(k_blk, -2, -1)) * scale  # (..., T_q, bk)
        allowed = _tile_allowed(q_pos, np.arange(j0, j1), causal, None)
        if mask is not None:
            allowed = mask[..., j0:j1] if allowed is None else allowed & mask[..., j0:j1]
        if allowed is not None:
            s = np.where(allowed, s, -np.inf)  # a blocked key gets weight exp(-inf) = 0
        p = np.exp(s - lse[..., None])  # (..., T_q, bk): the forward pass's weights, recomputed
        dv[..., j0:j1, :] = np.swapaxes(p, -2, -1) @ d_out  # (..., bk, d_v)
        dp = d_out @ np.swapaxes(v_blk, -2, -1)  # (..., T_q, bk)
        ds = p * (dp - D[..., None])  # (..., T_q, bk)
        dq += (ds @ k_blk) * scale  # (..., T_q, d)
        dk[..., j0:j1, :] = (np.swapaxes(ds, -2, -1) @ q) * scale  # (..., bk, d)
    return dq, dk, dv


# ---------------------------------------------------------------------------- measuring


def peak_memory(fn, *args, **kwargs):
    """(result, peak bytes NumPy and Python allocated while fn(*args, **kwargs) ran).

    Measured with tracemalloc, which NumPy reports its array buffers to. torch's allocations
    are invisible to it. The inputs, allocated before the call, are not counted; the result is.
    """
    if tracemalloc.is_tracing():
        raise RuntimeError("peak_memory needs tracemalloc to be off when it starts")
    tracemalloc.start()
    try:
        result = fn(*args, **kwargs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def median_time(fn, *args, repeats: int = 5, warmup: int = 1, **kwargs) -> float:
    """Median wall-clock seconds of fn(*args, **kwargs) over `repeats` runs, after `warmup`.

    The median, not the mean: on a shared machine one slow run should not move the result.
    """
    _check_block("repeats", repeats)
    for _ in range(warmup):
        fn(*args, **kwargs)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args, **kwargs)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


class _RecordOps(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.names: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.names.append(func.overloadpacket.__name__)
        return func(*args, **(kwargs or {}))


def aten_ops(fn, *args, **kwargs):
    """(result, names of the ATen kernels torch ran for fn(*args, **kwargs), in order).

    Shows what a torch call does underneath: F.scaled_dot_product_attention on a CPU runs one
    fused kernel, the course's `attention` a bmm, softmax pieces, and a second bmm.
    """
    with _RecordOps() as record:
        result = fn(*args, **kwargs)
    return result, record.names


def fit_slope(x, y) -> float:
    """Slope of the least-squares line through (log x, log y): y grows like x ** slope."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ValueError(f"need two 1-D arrays of the same length >= 2; got {x.shape}, {y.shape}")
    if (x <= 0).any() or (y <= 0).any():
        raise ValueError("a log-log slope needs positive x and y")
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def layer_flops(T: int, d_model: int, d_ff: int) -> dict[str, int]:
    """Matrix-multiply FLOPs of one Transformer layer on T positions (a multiply-add = 2).

    projections: Q, K, V and output, four (T, D) @ (D, D):     8 T D^2
    attention:   Q Kᵀ and weights @ V, summed over heads:      4 T^2 D
    ffn:         (T, D) @ (D, d_ff) and back:                  4 T D d_ff
    Softmax, norms and biases are O(T^2 H + T D): left out. The attention term is the only one
    in T^2; it passes the FFN at T = d_ff and all the rest at T = 2 D + d_ff.
    """
    for name, value in (("T", T), ("d_model", d_model), ("d_ff", d_ff)):
        _check_block(name, value)
    return {
        "projections": 8 * T * d_model**2,
        "attention": 4 * T**2 * d_model,
        "ffn": 4 * T * d_model * d_ff,
    }
