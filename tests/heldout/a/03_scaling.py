"""Held-out answers for exercises/03_scaling.ipynb, written from the exercise texts alone."""

WRONG = [
    # ------------------------------------------------------------------ ex1: Var(q·k)
    dict(exercise="ex1", kind="products not summed",
         mistake="takes the variance of all n_samples·d_k elementwise products q_i k_i (about 1) "
                 "instead of first summing each pair's products into a dot product",
         names=["sum over the features", "not summed", "elementwise", "each product", "forgot to sum"],
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(q * k))
'''),
    dict(exercise="ex1", kind="k is q",
         mistake="draws one array and uses it as both q and k, so it measures Var(q·q) "
                 "(about 2 d_k) instead of independent pairs",
         names=["independent", "same vector", "q·q", "q . q", "2 d_k"],
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = q
    dots = (q * k).sum(axis=1)
    return float(np.var(dots))
'''),
    dict(exercise="ex1", kind="sum over samples axis",
         mistake="sums q * k over the samples (axis 0) instead of over the d_k features, so it "
                 "takes the variance of d_k numbers whose variance is about n_samples",
         names=["sum over the features", "over the samples", "axis=0", "axis 0", "wrong axis"],
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = (q * k).sum(axis=0)
    return float(np.var(dots))
'''),
    dict(exercise="ex1", kind="std instead of var",
         mistake="returns the standard deviation np.std of the dot products (about √d_k) "
                 "instead of their variance",
         names=["standard deviation", "np.std", "std instead", "√d_k", "sqrt(d_k)"],
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.std(np.einsum("nd,nd->n", q, k)))
'''),
    dict(exercise="ex1", kind="ignores rng",
         mistake="draws from NumPy's global generator np.random instead of the rng argument, so "
                 "the result does not depend on the generator it was given",
         names=["rng", "generator", "np.random", "global", "reproduc"],
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = np.random.standard_normal((n_samples, d_k))
    k = np.random.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=-1)))
'''),
    dict(exercise="ex1", kind="scaled dot products",
         mistake="divides the dot products by √d_k before taking the variance, so it returns "
                 "about 1 instead of about d_k",
         names=["scaled", "√d_k", "sqrt(d_k)", "divid", "unscaled"],
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = (q * k).sum(axis=1) / math.sqrt(d_k)
    return float(np.var(dots))
'''),
    dict(exercise="ex1", kind="uniform draws",
         mistake="draws the components with rng.random (uniform on [0, 1)) instead of "
                 "rng.standard_normal",
         names=["uniform", "rng.random", "standard_normal", "standard-normal", "standard normal"],
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.random((n_samples, d_k))
    k = rng.random((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1)))
'''),

    # ------------------------------------------------------------------ ex2: head_scores
    dict(exercise="ex2", kind="k.T on 3-D",
         mistake="uses k.T, which on a 3-D array reverses all three axes instead of swapping "
                 "only the last two (only runs when H == d_head, and then mixes heads)",
         names=["k.t", "all axes", "last two axes", "swapaxes", "transpose(-2, -1)"],
         code='''def head_scores(q, k):
    return q @ k.T / np.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="scaled by sqrt(d_model)",
         mistake="divides by √d_model = √(H·d_head), the model width, instead of the head width "
                 "√d_head",
         names=["d_model", "h·d_head", "h * d_head", "h*d_head", "model width"],
         code='''def head_scores(q, k):
    H, T, d_head = q.shape
    d_model = H * d_head
    return q @ np.swapaxes(k, -1, -2) / np.sqrt(d_model)
'''),
    dict(exercise="ex2", kind="scaled by d_head",
         mistake="divides the scores by d_head instead of its square root √d_head",
         names=["d_head instead of √d_head", "square root", "sqrt(d_head)", "√d_head", "not d_head"],
         code='''def head_scores(q, k):
    d_head = q.shape[-1]
    return q @ np.swapaxes(k, -1, -2) / d_head
'''),
    dict(exercise="ex2", kind="scaled by sqrt(T)",
         mistake="takes the scale from k.shape[-2], the number of positions T, instead of the "
                 "vector width d_head (only differs when T != d_head)",
         names=["sqrt(t)", "√t", "number of positions", "number of keys", "shape[-2]"],
         code='''def head_scores(q, k):
    k_t = np.swapaxes(k, -1, -2)
    return q @ k_t / np.sqrt(k.shape[-2])
'''),
    dict(exercise="ex2", kind="transposed result",
         mistake="writes the einsum output as [h, j, i], so entry [h, i, j] holds q_{h,j}·k_{h,i}: "
                 "queries and keys swap roles (rows and columns transposed)",
         names=["transpose", "rows and columns", "[h, j, i]", "k @ q", "keys on the rows"],
         code='''def head_scores(q, k):
    return np.einsum("hid,hjd->hji", q, k) / np.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="no scale",
         mistake="forgets to divide by √d_head and returns the raw dot products",
         names=["unscaled", "not scaled", "forgot", "divide by √d_head", "divide by sqrt(d_head)"],
         code='''def head_scores(q, k):
    return np.matmul(q, np.swapaxes(k, 1, 2))
'''),

    # ------------------------------------------------------------------ ex3: saturation_point
    dict(exercise="ex3", kind="scaled anyway",
         mistake="divides the scores by √d_k although the exercise asks for unscaled scores, so "
                 "softmax never saturates",
         names=["unscaled", "√d_k", "sqrt(d_k)", "do not divide", "without scaling"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        scores = np.einsum("rd,rjd->rj", q, k) / math.sqrt(d_k)
        if softmax(scores, axis=-1).max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="softmax over rows",
         mistake="takes the softmax over axis 0 (the rows) instead of over each row's keys",
         names=["axis", "over the keys", "over the rows", "axis=0", "each row"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        scores = np.einsum("rd,rjd->rj", q, k)
        weights = softmax(scores, axis=0)
        if weights.max(axis=1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="last not first",
         mistake="keeps looping and overwrites the answer, returning the last d_k above the "
                 "threshold instead of the first one",
         names=["first", "smallest", "last", "break", "stop"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    found = None
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        scores = np.einsum("rd,rjd->rj", q, k)
        mean_max = softmax(scores).max(axis=-1).mean()
        if mean_max > threshold:
            found = d_k
    return found
'''),
    dict(exercise="ex3", kind="ignores seed",
         mistake="calls sample_qk without the seed argument, so it always uses seed 0 whatever "
                 "seed it is given",
         names=["seed"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys)
        scores = np.einsum("rd,rjd->rj", q, k)
        if softmax(scores).max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="max over rows",
         mistake="takes the largest weight of each key column over the rows (axis 0) and "
                 "averages over the keys, instead of each row's largest weight averaged over rows",
         names=["each row's largest", "largest weight of each row", "max over the rows", "axis=0",
                "per row"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k), axis=-1)
        if weights.max(axis=0).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="summed over keys",
         mistake="broadcasts q against k but sums over the keys axis instead of the d_k "
                 "features, so the 'scores' have shape (n_rows, d_k)",
         names=["sum over the features", "over the keys", "(n_rows, d_k)", "axis=1", "wrong axis"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        scores = (q[:, None, :] * k).sum(axis=1)
        if softmax(scores).max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="last d_k instead of None",
         mistake="returns the last d_k of the list when no d_k reaches the threshold, instead "
                 "of None",
         names=["none", "no d_k", "never reaches", "not reached"],
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        scores = np.einsum("rd,rjd->rj", q, k)
        if softmax(scores).max(axis=-1).mean() > threshold:
            break
    return d_k
'''),

    # ------------------------------------------------------------------ ex4: softmax_t
    dict(exercise="ex4", kind="multiplies by tau",
         mistake="multiplies the scores by tau instead of dividing, so a high tau sharpens and a "
                 "low tau flattens",
         names=["multipl", "divide by tau", "scores / tau", "1/tau", "inverted"],
         code='''def softmax_t(scores, tau):
    return softmax(np.asarray(scores, dtype=float) * tau, axis=-1)
'''),
    dict(exercise="ex4", kind="unstable exp",
         mistake="writes softmax as exp / sum without subtracting the row max, so "
                 "[[100, -50, -30]] at tau = 0.1 overflows to inf and gives NaN",
         names=["overflow", "subtract the max", "stable", "nan", "inf"],
         code='''def softmax_t(scores, tau):
    e = np.exp(np.asarray(scores, dtype=float) / tau)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex4", kind="softmax over axis 0",
         mistake="takes the softmax along axis 0 instead of the last axis (only the same for "
                 "1-D scores)",
         names=["last axis", "axis=0", "axis 0", "wrong axis", "axis=-1"],
         code='''def softmax_t(scores, tau):
    return softmax(np.asarray(scores, dtype=float) / tau, axis=0)
'''),
    dict(exercise="ex4", kind="tau after softmax",
         mistake="divides the weights by tau after the softmax instead of dividing the scores "
                 "before it, so the rows no longer sum to 1",
         names=["after the softmax", "before the softmax", "sum to 1", "weights / tau"],
         code='''def softmax_t(scores, tau):
    return softmax(np.asarray(scores, dtype=float), axis=-1) / tau
'''),
    dict(exercise="ex4", kind="normalised over whole array",
         mistake="hand-written softmax subtracts the global max and normalises by the sum of "
                 "the whole array, not row by row",
         names=["every row", "each row", "whole array", "keepdims", "per row"],
         code='''def softmax_t(scores, tau):
    z = np.asarray(scores, dtype=float) / tau
    e = np.exp(z - z.max())
    return e / e.sum()
'''),
    dict(exercise="ex4", kind="max without keepdims",
         mistake="subtracts z.max(axis=-1) without keepdims, which broadcasts the row maxima "
                 "along the wrong axis (wrong values for square arrays, an error otherwise)",
         names=["keepdims", "broadcast", "row max", "row maximum"],
         code='''def softmax_t(scores, tau):
    z = np.asarray(scores, dtype=float) / tau
    e = np.exp(z - z.max(axis=-1))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex4", kind="divides input in place",
         mistake="divides the caller's scores array in place (scores /= tau), changing the "
                 "input it was given",
         names=["in place", "in-place", "modif", "input", "copy"],
         code='''def softmax_t(scores, tau):
    scores /= tau
    return softmax(scores, axis=-1)
'''),

    # ------------------------------------------------------------------ ex5: softmax_entropy
    dict(exercise="ex5", kind="naive 0 log 0",
         mistake="computes -sum p log p directly, so any p = 0 gives 0 · (-inf) = NaN instead of "
                 "using 0 · log 0 = 0",
         names=["0 log 0", "0·log 0", "nan", "log(0)", "p > 0"],
         code='''def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    return -(p * np.log(p)).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="log base 2",
         mistake="uses log base 2 (bits) instead of the natural log (nats)",
         names=["log2", "bits", "natural log", "nats", "base 2"],
         code='''def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    logs = np.log2(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="missing minus",
         mistake="forgets the minus sign, so every entropy comes out negative",
         names=["sign", "minus", "negative"],
         code='''def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    logs = np.log(np.where(p > 0, p, 1.0))
    return (p * logs).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="boolean index flattens",
         mistake="selects p[p > 0] to skip the zeros, which flattens the array, so it returns "
                 "one entropy summed over every row instead of one per row",
         names=["every row", "per row", "flatten", "one number", "p[p > 0]"],
         code='''def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    nz = p[p > 0]
    return -np.sum(nz * np.log(nz))
'''),
    dict(exercise="ex5", kind="sum over axis 0",
         mistake="sums over axis 0 instead of the last axis, the probabilities of each row",
         names=["last axis", "axis=0", "axis 0", "wrong axis", "axis=-1"],
         code='''def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=0)
'''),
    dict(exercise="ex5", kind="mean not sum",
         mistake="averages -p log p over the row (np.mean) instead of summing it, dividing the "
                 "entropy by n",
         names=["mean", "instead of sum", "divided by n", "average", "factor n"],
         code='''def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).mean(axis=-1)
'''),
]

VALID = [
    # ------------------------------------------------------------------ ex1
    dict(exercise="ex1", kind="einsum", code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = np.einsum("nd,nd->n", q, k)
    return float(np.var(dots))
'''),
    dict(exercise="ex1", kind="loop and manual variance", code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = np.array([q[i] @ k[i] for i in range(n_samples)])
    mean = dots.mean()
    return float(((dots - mean) ** 2).mean())
'''),

    # ------------------------------------------------------------------ ex2
    dict(exercise="ex2", kind="einsum", code='''import math

import numpy as np


def head_scores(q, k):
    return np.einsum("hid,hjd->hij", q, k) / math.sqrt(k.shape[-1])
'''),
    dict(exercise="ex2", kind="loop over heads, scale first", code='''def head_scores(q, k):
    d_head = q.shape[-1]
    q_scaled = q / np.sqrt(d_head)
    return np.stack([q_scaled[h] @ k[h].T for h in range(q.shape[0])])
'''),

    # ------------------------------------------------------------------ ex3
    dict(exercise="ex3", kind="broadcast sum and own softmax", code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = (q[:, None, :] * k).sum(axis=-1)              # (n_rows, n_keys)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        w = e / e.sum(axis=1, keepdims=True)
        if np.mean(np.max(w, axis=1)) > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="torch and next()", code='''import torch


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    def mean_max(d_k):
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = torch.einsum("rd,rjd->rj", torch.from_numpy(q), torch.from_numpy(k))
        return torch.softmax(s, dim=-1).amax(dim=-1).mean().item()

    return next((d_k for d_k in d_ks if mean_max(d_k) > threshold), None)
'''),

    # ------------------------------------------------------------------ ex4
    dict(exercise="ex4", kind="torch softmax", code='''import numpy as np
import torch


def softmax_t(scores, tau):
    s = torch.as_tensor(np.asarray(scores, dtype=float))
    return torch.softmax(s / tau, dim=-1).numpy()
'''),
    dict(exercise="ex4", kind="log-sum-exp", code='''def softmax_t(scores, tau):
    z = np.asarray(scores, dtype=float) / tau
    m = z.max(axis=-1, keepdims=True)
    log_norm = m + np.log(np.exp(z - m).sum(axis=-1, keepdims=True))
    return np.exp(z - log_norm)
'''),

    # ------------------------------------------------------------------ ex5
    dict(exercise="ex5", kind="torch xlogy", code='''import numpy as np
import torch


def softmax_entropy(p):
    t = torch.as_tensor(np.asarray(p, dtype=float))
    return (-torch.special.xlogy(t, t).sum(dim=-1)).numpy()
'''),
    dict(exercise="ex5", kind="log with where", code='''def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    logp = np.log(p, out=np.zeros_like(p), where=p > 0)
    return -np.einsum("...n,...n->...", p, logp)
'''),
]
