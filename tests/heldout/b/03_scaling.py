"""Held-out answers for exercises/03_scaling.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 measure_dot_variance
    dict(exercise="ex1", kind="q dotted with itself", mistake="draws one array and dots each vector with itself, so q and k are not independent and the variance is about 2·d_k",
         names=["independent", "q · q", "q.q", "same vector", "2·d_k"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    dots = (q * q).sum(axis=1)
    return float(np.var(dots))
'''),
    dict(exercise="ex1", kind="std not var", mistake="returns the standard deviation of the dot products instead of their variance",
         names=["standard deviation", "np.std", "variance", "√d_k", "sqrt(d_k)"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.std((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="own generator", mistake="ignores the rng argument and draws from a fresh generator of its own",
         names=["rng argument", "generator", "reproducib", "own generator", "default_rng"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    gen = np.random.default_rng(0)
    q = gen.standard_normal((n_samples, d_k))
    k = gen.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="summed over samples", mistake="sums the products over the samples (axis 0) instead of over the features, giving d_k sums of n_samples terms",
         names=["axis=1", "axis 1", "over the samples", "wrong axis"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=0)))
'''),
    dict(exercise="ex1", kind="mean over features", mistake="averages the products over the features instead of summing them, which measures the variance of q·k / d_k",
         names=["mean instead", "1/d_k", "divided by d_k", "instead of summing"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).mean(axis=1)))
'''),
    dict(exercise="ex1", kind="uniform draws", mistake="draws the components with rng.random (uniform on [0, 1)) instead of rng.standard_normal",
         names=["standard_normal", "standard-normal", "uniform", "rng.random", "normal"],
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.random((n_samples, d_k))
    k = rng.random((n_samples, d_k))
    return float(np.var(np.einsum("nd,nd->n", q, k)))
'''),
    # ---------------------------------------------------------------- ex2 head_scores
    dict(exercise="ex2", kind="sqrt d_model", mistake="divides by sqrt(H · d_head), the model width, instead of sqrt(d_head)",
         names=["d_model", "model width", "h · d_head", "sqrt(h"],
         code='''import numpy as np


def head_scores(q, k):
    H, T, d_head = q.shape
    return q @ np.swapaxes(k, -1, -2) / np.sqrt(H * d_head)
'''),
    dict(exercise="ex2", kind="unscaled", mistake="returns the raw per-head dot products without dividing by sqrt(d_head)",
         names=["not scaled", "unscaled", "forgot to divide", "raw dot products"],
         code='''import numpy as np


def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2)
'''),
    dict(exercise="ex2", kind="sqrt T", mistake="divides by the square root of the number of positions T instead of the head width",
         names=["number of positions", "sqrt(t)", "√t", "t instead of d_head"],
         code='''import numpy as np


def head_scores(q, k):
    return q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[1])
'''),
    dict(exercise="ex2", kind="output transposed", mistake="writes the einsum output as [h, j, i], so rows are keys and columns are queries",
         names=["[h, i, j]", "rows and columns", "k @ q", "rows are queries", "hji"],
         code='''import numpy as np


def head_scores(q, k):
    return np.einsum("hid,hjd->hji", q, k) / np.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="k.T on 3-D", mistake="uses k.T, which on an (H, T, d_head) array reverses all three axes instead of swapping the last two",
         names=["k.t", "reverses all", "last two axes", "swapaxes"],
         code='''import numpy as np


def head_scores(q, k):
    return q @ k.T / np.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="scaled by d_head", mistake="divides the scores by d_head instead of sqrt(d_head)",
         names=["square root", "by d_head", "not the square root"],
         code='''def head_scores(q, k):
    return q @ k.swapaxes(-1, -2) / q.shape[-1]
'''),
    # ---------------------------------------------------------------- ex3 saturation_point
    dict(exercise="ex3", kind="scaled scores", mistake="divides the scores by sqrt(d_k), which is exactly what keeps the softmax from saturating",
         names=["unscaled", "do not divide", "without scaling", "√d_k", "sqrt(d_k)"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k) / np.sqrt(d_k)
        if softmax(s, axis=-1).max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="softmax over rows", mistake="takes the softmax over the rows (axis 0) instead of over each row's keys",
         names=["over the keys", "axis=-1", "axis 0", "wrong axis"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k)
        w = softmax(s, axis=0)
        if w.max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="keys of row 0 only", mistake="scores every query against the keys of row 0 (q @ k[0].T) instead of its own keys k[r]",
         names=["its own keys", "k[r]", "k[0]", "row 0's keys"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = q @ k[0].T
        if softmax(s).max(axis=1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="returns index", mistake="returns the index of the d_k in the list instead of the d_k itself",
         names=["the d_k itself", "position in the list", "value of d_k", "enumerate"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for idx, d_k in enumerate(d_ks):
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k)
        if softmax(s).max(axis=-1).mean() > threshold:
            return idx
    return None
'''),
    dict(exercise="ex3", kind="last d_k not first", mistake="keeps looping and returns the last d_k above the threshold instead of the first",
         names=["first", "smallest", "last one", "break", "return at once"],
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
    dict(exercise="ex3", kind="sample_qk defaults", mistake="calls sample_qk(d_k) with its defaults, ignoring n_rows, n_keys and seed",
         names=["n_rows", "n_keys", "seed", "arguments", "ignor"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k)
        s = np.einsum("rd,rjd->rj", q, k)
        if softmax(s).max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="max of the mean", mistake="averages the weights over the rows first and then takes the largest, instead of the mean of each row's max",
         names=["mean of the max", "each row's largest", "max per row", "max of the mean"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        w = softmax(np.einsum("rd,rjd->rj", q, k))
        if w.mean(axis=0).max() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="zero instead of None", mistake="returns 0 instead of None when no d_k reaches the threshold",
         names=["return none", "none", "no d_k", "not found", "returns 0"],
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = np.einsum("rd,rjd->rj", q, k)
        if softmax(s).max(axis=-1).mean() > threshold:
            return d_k
    return 0
'''),
    # ---------------------------------------------------------------- ex4 softmax_t
    dict(exercise="ex4", kind="multiplied by tau", mistake="multiplies the scores by tau instead of dividing, so a high tau sharpens the weights",
         names=["multipl", "instead of dividing", "sharpen", "tau * scores"],
         code='''def softmax_t(scores, tau):
    return softmax(scores * tau)
'''),
    dict(exercise="ex4", kind="divides after softmax", mistake="divides the weights by tau after the softmax instead of dividing the scores before it",
         names=["before the softmax", "after the softmax", "sum to 1", "divides the weights"],
         code='''import numpy as np


def softmax_t(scores, tau):
    return softmax(np.asarray(scores, dtype=float)) / tau
'''),
    dict(exercise="ex4", kind="unstable exp", mistake="exponentiates scores / tau without subtracting the row max, which overflows at tau = 0.1",
         names=["overflow", "finite", "row max", "inf / inf"],
         code='''import numpy as np


def softmax_t(scores, tau):
    e = np.exp(np.asarray(scores, dtype=float) / tau)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex4", kind="axis 0", mistake="takes the softmax along axis 0 instead of the last axis",
         names=["last axis", "axis=-1", "axis 0", "wrong axis"],
         code='''import numpy as np


def softmax_t(scores, tau):
    return softmax(np.asarray(scores, dtype=float) / tau, axis=0)
'''),
    dict(exercise="ex4", kind="shifted by tau", mistake="subtracts tau from the scores, which softmax ignores, instead of dividing by it",
         names=["shift", "no effect", "scores - tau", "subtracts tau"],
         code='''import numpy as np


def softmax_t(scores, tau):
    return softmax(np.asarray(scores, dtype=float) - tau)
'''),
    dict(exercise="ex4", kind="sqrt of tau", mistake="divides by sqrt(tau), mixing the temperature up with the √d_k scale",
         names=["sqrt(tau)", "√tau", "square root", "scores / tau", "tau itself"],
         code='''import numpy as np


def softmax_t(scores, tau):
    return softmax(np.asarray(scores, dtype=float) / np.sqrt(tau))
'''),
    # ---------------------------------------------------------------- ex5 softmax_entropy
    dict(exercise="ex5", kind="log of zero", mistake="takes np.log of every entry, so a zero probability gives 0 · (-inf) = NaN",
         names=["0 log 0", "0 · log 0", "p > 0", "log(0)", "0 * -inf"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    return -(p * np.log(p)).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="log base 2", mistake="uses log base 2 (bits) instead of the natural log (nats)",
         names=["nats", "natural log", "log2", "bits", "np.log"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    safe = np.where(p > 0, p, 1.0)
    return -(p * np.log2(safe)).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="sign dropped", mistake="forgets the minus sign, returning sum p log p (negative) instead of the entropy",
         names=["minus sign", "sign of", "negative", "-sum"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    logs = np.log(np.where(p > 0, p, 1.0))
    return (p * logs).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="summed over everything", mistake="sums over the whole array instead of along the last axis, returning one number instead of one per row",
         names=["one per row", "every row", "shape (...)", "whole array", "nansum"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    return -np.nansum(p * np.log(p))
'''),
    dict(exercise="ex5", kind="mean not sum", mistake="averages -p log p over the row instead of summing it",
         names=["mean instead", "average", "log n", "divided by n"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    terms = np.zeros_like(p)
    np.multiply(p, np.log(p, where=p > 0, out=np.zeros_like(p)), out=terms)
    return -terms.mean(axis=-1)
'''),
    dict(exercise="ex5", kind="summed over axis 0", mistake="sums along axis 0 instead of the last axis",
         names=["axis 0", "axis=0", "wrong axis", "last axis"],
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=0)
'''),
]

VALID = [
    dict(exercise="ex1", kind="one draw split in two", code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q, k = rng.standard_normal((2, n_samples, d_k))    # q first, then k, from the same stream
    dots = np.einsum("nd,nd->n", q, k)
    return float(dots.var())
'''),
    dict(exercise="ex1", kind="row-wise matmul", code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal(size=(n_samples, d_k))
    k = rng.standard_normal(size=(n_samples, d_k))
    dots = (q[:, None, :] @ k[:, :, None])[:, 0, 0]    # one matched product per pair
    return float(np.var(dots))
'''),
    dict(exercise="ex2", kind="einsum", code='''import numpy as np


def head_scores(q, k):
    d_head = q.shape[-1]
    return np.einsum("hid,hjd->hij", q, k) / np.sqrt(d_head)
'''),
    dict(exercise="ex2", kind="loop over heads", code='''import math

import numpy as np


def head_scores(q, k):
    out = []
    for h in range(q.shape[0]):
        out.append(q[h] @ k[h].T / math.sqrt(k.shape[-1]))
    return np.stack(out)
'''),
    dict(exercise="ex3", kind="matmul batched", code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = (k @ q[:, :, None])[..., 0]                   # (n_rows, n_keys), unscaled
        e = np.exp(s - s.max(axis=1, keepdims=True))
        w = e / e.sum(axis=1, keepdims=True)
        if np.mean(np.max(w, axis=1)) > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="collect then search", code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    means = []
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        w = softmax((q[:, None, :] * k).sum(-1), axis=-1)
        means.append(float(w.max(-1).mean()))
    hits = [d for d, m in zip(d_ks, means) if m > threshold]
    return hits[0] if hits else None
'''),
    dict(exercise="ex4", kind="stable by hand", code='''import numpy as np


def softmax_t(scores, tau):
    z = np.asarray(scores, dtype=float) * (1.0 / tau)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex4", kind="torch softmax", code='''import numpy as np
import torch


def softmax_t(scores, tau):
    t = torch.as_tensor(np.asarray(scores, dtype=float))
    return torch.softmax(t / tau, dim=-1).numpy()
'''),
    dict(exercise="ex5", kind="np.where under errstate", code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, -p * np.log(p), 0.0)
    return terms.sum(axis=-1)
'''),
    dict(exercise="ex5", kind="torch special entr", code='''import numpy as np
import torch


def softmax_entropy(p):
    t = torch.as_tensor(np.asarray(p, dtype=float))
    return torch.special.entr(t).sum(dim=-1).numpy()
'''),
]
