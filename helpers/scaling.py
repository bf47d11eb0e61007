"""Why attention divides by √d_k: random dot products, saturated softmax, vanishing gradients.

Pure functions shared by lesson 03, its checks and an interactive d_k slider. Every random
quantity comes from `np.random.default_rng(seed)`, so the same arguments give the same numbers.

Shapes: one query row of `n_keys` scores; `n_rows` independent rows at once.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from helpers.attention import attention, softmax


def _check_width(d_k) -> int:
    if int(d_k) != d_k or d_k < 1:
        raise ValueError(f"d_k must be a positive whole number of features; got {d_k!r}")
    return int(d_k)


def sample_qk(d_k: int, n_rows: int = 1, n_keys: int = 16, seed: int = 0):
    """Random queries and keys with independent standard-normal components.

    Returns q of shape (n_rows, d_k) and k of shape (n_rows, n_keys, d_k): row r scores
    query q[r] against its own n_keys keys k[r].
    """
    d_k = _check_width(d_k)
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((n_rows, d_k))
    k = rng.standard_normal((n_rows, n_keys, d_k))
    return q, k


def sample_values(n_rows: int = 1, n_keys: int = 16, seed: int = 0):
    """(n_rows, n_keys, 1) standard-normal scalar values, one per key (a stream apart from q, k)."""
    return np.random.default_rng([seed, 1]).standard_normal((n_rows, n_keys, 1))


def score_rows(d_k: int, *, scaled: bool, n_rows: int = 1, n_keys: int = 16, seed: int = 0):
    """(n_rows, n_keys) scores q·k_j of `sample_qk`, divided by √d_k when `scaled`."""
    q, k = sample_qk(d_k, n_rows, n_keys, seed)
    scores = np.einsum("rd,rjd->rj", q, k)  # (n_rows, n_keys)
    return scores / math.sqrt(d_k) if scaled else scores


def row_weights(d_k: int, *, scaled: bool, n_rows: int = 1, n_keys: int = 16, seed: int = 0):
    """(n_rows, n_keys) softmax weights of `score_rows`: each row sums to 1."""
    return softmax(score_rows(d_k, scaled=scaled, n_rows=n_rows, n_keys=n_keys, seed=seed))


def dot_variance(d_k: int, n_samples: int = 20_000, seed: int = 0, *, chunk: int = 2_000) -> float:
    """Measured Var(q·k) over `n_samples` independent pairs of standard-normal vectors.

    The pairs are drawn `chunk` at a time, so memory stays small for wide vectors.
    """
    d_k = _check_width(d_k)
    rng = np.random.default_rng(seed)
    dots = []
    for start in range(0, n_samples, chunk):
        n = min(chunk, n_samples - start)
        q = rng.standard_normal((n, d_k))
        k = rng.standard_normal((n, d_k))  # drawn independently of q
        dots.append(np.einsum("nd,nd->n", q, k))
    return float(np.var(np.concatenate(dots)))


def softmax_temperature(scores, tau: float, axis: int = -1):
    """softmax(scores / tau): tau > 1 flattens the weights, tau < 1 sharpens them."""
    if not tau > 0:
        raise ValueError(f"the temperature tau must be positive; got {tau!r}")
    return softmax(scores / tau, axis=axis)


def entropy(p, axis: int = -1):
    """Entropy in nats of the distributions along `axis`, with 0·log 0 = 0.

    0 for a one-hot row; log(n) for a uniform row of n entries.
    """
    p = np.asarray(p, dtype=float)
    logs = np.log(np.where(p > 0, p, 1.0))  # log 1 = 0 where p == 0
    return -(p * logs).sum(axis=axis)


def q_grad_norms(d_k: int, *, scaled: bool, n_rows: int = 400, n_keys: int = 16, seed: int = 0):
    """(n_rows,) norms of d(loss)/dq from torch autograd, one per random query row.

    Row r attends from q[r] over its keys k[r] to the scalar values v[r] of `sample_values`;
    the loss is the attention output out[r] = Σ_j a_rj v_rj. Unscaled means scale = 1 instead
    of 1/√d_k.
    """
    q, k = sample_qk(d_k, n_rows, n_keys, seed)
    v = sample_values(n_rows, n_keys, seed)
    q = torch.tensor(q[:, None, :], requires_grad=True)  # (n_rows, 1, d_k): one query per row
    out, _ = attention(
        q, torch.from_numpy(k), torch.from_numpy(v), scale=None if scaled else 1.0
    )  # (n_rows, 1, 1)
    out.sum().backward()  # rows are independent, so q.grad[r] is d out[r] / d q[r]
    return q.grad[:, 0, :].norm(dim=-1).numpy()
