"""Held-out answers for exercises/03_scaling.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---- ex1 measure_dot_variance
    dict(exercise="ex1", kind="k is q", mistake="uses the same draw for q and k, so it measures Var(q·q) instead of two independent vectors",
         names=["independent", "same draw", "q · q", "k = q", "q.q"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = q
    return float(np.var(np.sum(q * k, axis=1)))
'''),
    dict(exercise="ex1", kind="sums over samples", mistake="sums the products over the sample axis instead of over the d_k components",
         names=["axis=0", "sum over the samples", "over the components", "wrong axis", "axis 0"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=0)))
'''),
    dict(exercise="ex1", kind="mean not sum", mistake="averages the component products instead of summing them, which gives about 1/d_k",
         names=["mean instead of", "average", "1/d_k", "sum of the products"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).mean(axis=-1)))
'''),
    dict(exercise="ex1", kind="standard deviation", mistake="returns np.std of the dot products (about √d_k) instead of the variance",
         names=["std", "standard deviation", "np.var", "square root"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.std(np.einsum("nd,nd->n", q, k)))
'''),
    dict(exercise="ex1", kind="ignores rng", mistake="creates its own generator with a fixed seed instead of drawing from the rng argument",
         names=["rng", "the generator", "seed", "own generator"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    gen = np.random.default_rng(0)
    q = gen.standard_normal((n_samples, d_k))
    k = gen.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="scaled dots", mistake="divides the dot products by √d_k before taking the variance, so the result is about 1, not d_k",
         names=["unscaled", "√d_k", "sqrt(d_k)", "do not scale", "about 1"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1) / np.sqrt(d_k)))
'''),
    # ---- ex2 head_scores
    dict(exercise="ex2", kind="k.T on 3-D", mistake="uses k.T, which on a 3-D array reverses all axes instead of swapping the last two",
         names=["k.t", "reverses all axes", "swapaxes", "last two axes", "reverses every axis"],
         code='''import numpy as np


def head_scores(q, k):
    return q @ k.T / np.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="scale by d_model", mistake="scales by √(H·d_head) = √d_model instead of √d_head",
         names=["d_model", "h·d_head", "h*d_head", "full width", "whole model"],
         code='''import numpy as np


def head_scores(q, k):
    H, T, d_head = q.shape
    return q @ np.swapaxes(k, -1, -2) / np.sqrt(H * d_head)
'''),
    dict(exercise="ex2", kind="scale by T", mistake="takes the scale from k.shape[1], the number of positions T, instead of the head width",
         names=["shape[1]", "sequence length", "number of positions", "t instead of d_head", "√t"],
         code='''import numpy as np


def head_scores(q, k):
    return q @ k.transpose(0, 2, 1) / np.sqrt(k.shape[1])
'''),
    dict(exercise="ex2", kind="mixes heads", mistake="the einsum sums over every pair of heads instead of keeping each head separate",
         names=["across heads", "mixes heads", "other heads", "each head separately", "sums over heads"],
         code='''import numpy as np


def head_scores(q, k):
    return np.einsum("hid,gjd->hij", q, k) / np.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="keys times queries", mistake="computes k @ qᵀ per head, so entry [h, i, j] is q_{h,j}·k_{h,i} (transposed scores)",
         names=["transpose", "k @ q", "[h, j, i]", "rows and columns"],
         code='''import numpy as np


def head_scores(q, k):
    return k @ q.swapaxes(1, 2) / np.sqrt(k.shape[2])
'''),
    # ---- ex3 saturation_point
    dict(exercise="ex3", kind="scaled scores", mistake="divides the scores by √d_k although the exercise asks for unscaled scores, so softmax never saturates",
         names=["unscaled", "do not divide", "√d_k", "sqrt(d_k)", "without scaling"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k) / np.sqrt(d_k)
        if softmax(s, axis=-1).max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="max instead of mean", mistake="takes the single largest weight over all rows instead of the mean over the rows of each row's largest weight",
         names=["mean over the rows", "average over the rows", "global max", "mean of each row", "largest over all rows"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k)
        if softmax(s, axis=-1).max() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="softmax over rows", mistake="takes the softmax over axis 0 (across rows) instead of over each row's keys",
         names=["axis 0", "axis=0", "over its keys", "per row", "each row"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = (k @ q[:, :, None])[..., 0]
        w = softmax(s, axis=0)
        if w.max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="max of mean", mistake="averages the weights over the rows first and then takes the largest, instead of the mean of each row's max",
         names=["mean of the max", "max of the mean", "order", "each row's largest"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k)
        if softmax(s).mean(axis=0).max() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="last not first", mistake="keeps looping and returns the last d_k over the threshold instead of the first",
         names=["first", "smallest", "last", "stop at"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    found = None
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k)
        if softmax(s).max(axis=-1).mean() > threshold:
            found = d_k
    return found
'''),
    dict(exercise="ex3", kind="ignores seed and n_keys", mistake="calls sample_qk(d_k, n_rows) with the defaults, ignoring the n_keys and seed arguments",
         names=["seed", "n_keys", "ignores the arguments", "defaults"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows)
        s = np.einsum("rd,rjd->rj", q, k)
        if softmax(s).max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    # ---- ex4 softmax_t
    dict(exercise="ex4", kind="multiplies by tau", mistake="multiplies the scores by tau instead of dividing, so a high tau sharpens",
         names=["multipl", "divide by tau", "inverse", "scores / tau", "backwards"],
         code='''from helpers.attention import softmax


def softmax_t(scores, tau):
    return softmax(scores * tau, axis=-1)
'''),
    dict(exercise="ex4", kind="unstable exp", mistake="exponentiates scores / tau directly without subtracting the row max, so it overflows at low tau",
         names=["overflow", "subtract the max", "row max", "not finite"],
         code='''import numpy as np


def softmax_t(scores, tau):
    e = np.exp(np.asarray(scores, dtype=float) / tau)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex4", kind="tau on the weights", mistake="divides the weights by tau after the softmax instead of dividing the scores before it",
         names=["on the weights", "after the softmax", "sum to 1", "acts on the scores", "before the softmax"],
         code='''from helpers.attention import softmax


def softmax_t(scores, tau):
    return softmax(scores, axis=-1) / tau
'''),
    dict(exercise="ex4", kind="softmax over axis 0", mistake="calls softmax with axis=0, normalising columns instead of the last axis",
         names=["axis 0", "axis=0", "last axis", "columns"],
         code='''from helpers.attention import softmax


def softmax_t(scores, tau):
    return softmax(scores / tau, axis=0)
'''),
    dict(exercise="ex4", kind="in-place division", mistake="divides the caller's float array by tau in place (scores /= tau), changing the input",
         names=["in place", "modif", "changed the input", "/="],
         code='''import numpy as np
from helpers.attention import softmax


def softmax_t(scores, tau):
    scores = np.asarray(scores, dtype=float)
    scores /= tau
    return softmax(scores, axis=-1)
'''),
    # ---- ex5 softmax_entropy
    dict(exercise="ex5", kind="log2", mistake="uses log base 2, giving the entropy in bits instead of nats",
         names=["log2", "bits", "natural log", "nats"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    terms = np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=-1)
'''),
    dict(exercise="ex5", kind="missing minus", mistake="forgets the minus sign, returning Σ p log p, which is negative",
         names=["sign", "negative", "minus"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    safe = np.where(p > 0, p, 1.0)
    return (p * np.log(safe)).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="nan at zero", mistake="computes -Σ p log p directly, so a zero probability gives 0·(−inf) = NaN",
         names=["0 log 0", "0 · log 0", "p == 0", "zero probabilit", "0*log(0)"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    return -np.sum(p * np.log(p), axis=-1)
'''),
    dict(exercise="ex5", kind="normalised by log n", mistake="divides by log n, returning a normalised entropy between 0 and 1 instead of nats",
         names=["normalis", "log n", "divided by log", "between 0 and 1"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    safe = np.where(p > 0, p, 1.0)
    h = -(p * np.log(safe)).sum(axis=-1)
    return h / np.log(p.shape[-1])
'''),
    dict(exercise="ex5", kind="sums over axis 0", mistake="sums the terms over axis 0 instead of the last axis",
         names=["axis 0", "axis=0", "last axis", "every row"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    safe = np.where(p > 0, p, 1.0)
    return -(p * np.log(safe)).sum(axis=0)
'''),
]

VALID = [
    dict(exercise="ex1", kind="einsum", code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(np.einsum("nd,nd->n", q, k)))
'''),
    dict(exercise="ex1", kind="one draw of pairs", code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    pairs = rng.standard_normal((2, n_samples, d_k))
    dots = (pairs[0] * pairs[1]).sum(axis=-1)
    return float(np.var(dots))
'''),
    dict(exercise="ex2", kind="einsum", code='''import numpy as np


def head_scores(q, k):
    return np.einsum("hid,hjd->hij", q, k) / np.sqrt(k.shape[-1])
'''),
    dict(exercise="ex2", kind="loop over heads", code='''import math

import numpy as np


def head_scores(q, k):
    scale = 1.0 / math.sqrt(q.shape[2])
    return np.stack([q[h] @ k[h].T * scale for h in range(q.shape[0])])
'''),
    dict(exercise="ex3", kind="batched matmul own softmax", code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.matmul(k, q[:, :, None])[:, :, 0]
        e = np.exp(s - s.max(axis=1, keepdims=True))
        w = e / e.sum(axis=1, keepdims=True)
        if np.mean(np.max(w, axis=1)) > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="broadcast product next()", code='''import numpy as np


def _mean_max(d_k, n_rows, n_keys, seed):
    q, k = sample_qk(d_k, n_rows, n_keys, seed)
    s = (q[:, None, :] * k).sum(axis=-1)
    return softmax(s, axis=-1).max(axis=-1).mean()


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    return next((d for d in d_ks if _mean_max(d, n_rows, n_keys, seed) > threshold), None)
'''),
    dict(exercise="ex4", kind="manual stable", code='''import numpy as np


def softmax_t(scores, tau):
    z = np.asarray(scores, dtype=float) / tau
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex4", kind="torch", code='''import numpy as np
import torch


def softmax_t(scores, tau):
    t = torch.as_tensor(np.asarray(scores, dtype=float))
    return torch.softmax(t * (1.0 / tau), dim=-1).numpy()
'''),
    dict(exercise="ex5", kind="errstate where", code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log(p), 0.0)
    return terms.sum(axis=-1)
'''),
    dict(exercise="ex5", kind="masked log", code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    logp = np.zeros_like(p)
    np.log(p, out=logp, where=p > 0)
    return -np.einsum("...j,...j->...", p, logp)
'''),
]
