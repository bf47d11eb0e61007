"""Named wrong answers for solutions/03_scaling.ipynb; each must fail its check by name."""

MISTAKES = [
    # ---------------------------------------------------------------- ex1 Var(q·k)
    dict(exercise="ex1", kind="q and k the same vector", expect="same vector",
         id="scaling.same-vector",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * q).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="variance of q instead of q.k", expect="variance of q",
         id="scaling.variance-one",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(q))
'''),
    dict(exercise="ex1", kind="products not summed", expect="single, elementwise products",
         id="scaling.variance-one",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(q * k))
'''),
    dict(exercise="ex1", kind="measured the scaled score", expect="divided by √d_k",
         id="scaling.variance-one",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1) / np.sqrt(d_k)))
'''),
    dict(exercise="ex1", kind="standard deviation", expect="standard deviation",
         id="scaling.std-not-variance",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.std((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="uniform components", expect="standard normal",
         id="scaling.uniform-components",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.random((n_samples, d_k))
    k = rng.random((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="hard-coded d_k", expect="instead of measuring",
         id="scaling.returned-d-k",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    return float(d_k)
'''),
    dict(exercise="ex1", kind="global generator", expect="not from np.random",
         id="generic.global-rng",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = np.random.standard_normal((n_samples, d_k))
    k = np.random.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="own fixed generator", expect="ignores its `rng`",
         id="scaling.ignores-rng",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    rng = np.random.default_rng(0)
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="returned the dot products", expect="return their variance",
         id="scaling.returned-dots",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return (q * k).sum(axis=1)
'''),
    dict(exercise="ex1", kind="summed over the samples", expect="axis 0",
         id="scaling.summed-over-samples",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=0)))
'''),
    dict(exercise="ex1", kind="variance per feature", expect="one value per feature",
         id="scaling.per-feature",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return np.var(q * k, axis=0)
'''),
    dict(exercise="ex1", kind="mean instead of variance", expect="mean of q·k",
         id="scaling.mean-not-variance",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.mean((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="components of standard deviation 2", expect="wrong factor",
         id="scaling.component-variance",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.normal(0.0, 2.0, size=(n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="torch global generator", expect="global random state",
         id="generic.global-rng",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    import torch
    q = torch.randn(n_samples, d_k, dtype=torch.float64)
    k = torch.randn(n_samples, d_k, dtype=torch.float64)
    return float((q * k).sum(dim=1).var())
'''),
    dict(exercise="ex1", kind="a generator kept between calls", expect="different results",
         id="generic.global-rng",
         code='''_gen = np.random.default_rng(123)

def measure_dot_variance(d_k, n_samples, rng):
    q = _gen.standard_normal((n_samples, d_k))
    k = _gen.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1)))
'''),
    dict(exercise="ex1", kind="variance of the squared dot products", expect="grow like d_k^",
         id="scaling.wrong-growth",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1) ** 2))
'''),
    # ---------------------------------------------------------------- ex2 head scores
    dict(exercise="ex2", kind="missing scale", expect="forgot the scale",
         id="scaling.no-scale",
         code='''def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2)
'''),
    dict(exercise="ex2", kind="divided by d_k", expect="divided by d_k instead of √d_k",
         id="scaling.divided-by-d",
         code='''def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2) / q.shape[-1]
'''),
    dict(exercise="ex2", kind="divided by sqrt(d_model)",
         expect="divided by d_model instead of the head width",
         id="scaling.divided-by-sqrt-d-model",
         code='''def head_scores(q, k):
    H, T, d_head = q.shape
    d_model = H * d_head
    return q @ np.swapaxes(k, -1, -2) / math.sqrt(d_model)
'''),
    dict(exercise="ex2", kind="divided by d_model",
         expect="model width instead of the head width, and without the square root",
         id="scaling.divided-by-d-model",
         code='''def head_scores(q, k):
    H, T, d_head = q.shape
    return q @ np.swapaxes(k, -1, -2) / (H * d_head)
'''),
    dict(exercise="ex2", kind="divided by sqrt(T)", expect="number of keys",
         id="scaling.divided-by-sqrt-t",
         code='''def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2) / math.sqrt(k.shape[-2])
'''),
    dict(exercise="ex2", kind="multiplied by the scale", expect="multiplied by √d_head",
         id="scaling.multiplied",
         code='''def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2) * math.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="k @ q.T", expect="transposed",
         id="scaling.transposed-scores",
         code='''def head_scores(q, k):
    return k @ np.swapaxes(q, -1, -2) / math.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="k.T on a 3-D array", expect="reverses all three axes",
         id="scaling.k-dot-t",
         code='''def head_scores(q, k):
    return q @ k.T / math.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="rounded square root", expect="rounded the square root",
         id="scaling.rounded-sqrt",
         code='''def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2) / math.isqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="divided by sqrt(H)", expect="number of heads",
         id="scaling.divided-by-sqrt-h",
         code='''def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[0])
'''),
    dict(exercise="ex2", kind="hard-coded head width 16", expect="earlier case of another size",
         id="generic.constant-factor",
         code='''def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2) / 4.0
'''),
    dict(exercise="ex2", kind="einsum summed over the keys", expect="has no",
         id="generic.axis-missing",
         code='''def head_scores(q, k):
    return np.einsum("htd,hsd->ht", q, k) / math.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="keys in reverse order", expect="reversed along",
         id="generic.reversed",
         code='''def head_scores(q, k):
    return q @ np.swapaxes(k[:, ::-1], -1, -2) / math.sqrt(q.shape[-1])
'''),
    dict(exercise="ex2", kind="scaled q in place", expect="in place",
         id="generic.input-modified",
         code='''def head_scores(q, k):
    q /= math.sqrt(q.shape[-1])
    return q @ np.swapaxes(k, -1, -2)
'''),
    # ---------------------------------------------------------------- ex3 saturation point
    dict(exercise="ex3", kind="scaled when told not to", expect="divided the scores by √d_k",
         id="scaling.scaled-when-told-not",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k) / math.sqrt(d_k))
        if weights.max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="max score instead of max weight", expect="largest score",
         id="scaling.max-score-not-weight",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        scores = np.einsum("rd,rjd->rj", q, k)
        if scores.max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="mean over rows before max",
         expect="averaged the weights over the rows",
         id="scaling.mean-before-max",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.mean(axis=0).max() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="softmax over the rows", expect="axis 0",
         id="scaling.softmax-over-rows",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k), axis=0)
        if weights.max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="largest instead of smallest", expect="smallest one",
         id="scaling.largest-d-k",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    found = None
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            found = d_k
    return found
'''),
    dict(exercise="ex3", kind="returned the index", expect="position of the d_k",
         id="scaling.returned-index",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for i, d_k in enumerate(d_ks):
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            return i
    return None
'''),
    dict(exercise="ex3", kind="returned the weight", expect="not the weight you measured",
         id="scaling.returned-weight",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        m = softmax(np.einsum("rd,rjd->rj", q, k)).max(axis=-1).mean()
        if m > threshold:
            return float(m)
    return None
'''),
    dict(exercise="ex3", kind="ignores n_rows, n_keys and seed",
         expect="ignored the function's own",
         id="scaling.ignores-arguments",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, 200, 16, 0)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="returns the d_k before the crossing", expect="just before",
         id="scaling.previous-d-k",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    previous = None
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            return previous
        previous = d_k
    return None
'''),
    dict(exercise="ex3", kind="comparison the wrong way round", expect="below the threshold",
         id="scaling.first-below",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() < threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="0 instead of None", expect="asks for None",
         id="scaling.zero-for-none",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            return d_k
    return 0
'''),
    dict(exercise="ex3", kind="returns whether it saturates", expect="not whether",
         id="scaling.returned-bool",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            return True
    return None
'''),
    dict(exercise="ex3", kind="returns every d_k above", expect="return one d_k",
         id="scaling.not-a-d-k",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    above = []
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            above.append(d_k)
    return above or None
'''),
    # ---------------------------------------------------------------- ex4 temperature
    dict(exercise="ex4", kind="multiplied by tau", expect="multiplied the scores by tau",
         id="scaling.tau-multiplied",
         code='''def softmax_t(scores, tau):
    return softmax(scores * tau, axis=-1)
'''),
    dict(exercise="ex4", kind="temperature after softmax", expect="after the softmax",
         id="scaling.tau-after-softmax",
         code='''def softmax_t(scores, tau):
    return softmax(scores, axis=-1) / tau
'''),
    dict(exercise="ex4", kind="ignored tau", expect="ignored tau",
         id="scaling.tau-ignored",
         code='''def softmax_t(scores, tau):
    return softmax(scores, axis=-1)
'''),
    dict(exercise="ex4", kind="softmax over axis 0", expect="over axis 0",
         id="scaling.temperature-wrong-axis",
         code='''def softmax_t(scores, tau):
    return softmax(scores / tau, axis=0)
'''),
    dict(exercise="ex4", kind="overflow without max subtraction", expect="subtract each row's max",
         id="scaling.overflow",
         code='''def softmax_t(scores, tau):
    e = np.exp(scores / tau)
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex4", kind="softmax over axis 1 of a batch", expect="axis 1",
         id="scaling.temperature-wrong-axis",
         code='''def softmax_t(scores, tau):
    return softmax(scores / tau, axis=1)
'''),
    dict(exercise="ex4", kind="normalised by the whole array", expect="do not sum to 1",
         id="scaling.rows-not-normalised",
         code='''def softmax_t(scores, tau):
    e = np.exp(scores / tau - np.max(scores / tau))
    return e / e.sum()
'''),
    dict(exercise="ex4", kind="subtracted tau", expect="constant shift",
         id="scaling.tau-ignored",
         code='''def softmax_t(scores, tau):
    return softmax(scores - tau, axis=-1)
'''),
    dict(exercise="ex4", kind="divided by tau twice", expect="tau²",
         id="scaling.tau-squared",
         code='''def softmax_t(scores, tau):
    return softmax(scores / tau / tau, axis=-1)
'''),
    dict(exercise="ex4", kind="divided the scores in place", expect="in place",
         id="generic.input-modified",
         code='''def softmax_t(scores, tau):
    scores /= tau
    return softmax(scores, axis=-1)
'''),
    dict(exercise="ex4", kind="weights raised to 1/tau, not renormalised", expect="do not sum to 1",
         id="scaling.rows-not-normalised",
         code='''def softmax_t(scores, tau):
    return softmax(scores, axis=-1) ** (1 / tau)
'''),
    # ---------------------------------------------------------------- ex5 entropy
    dict(exercise="ex5", kind="0 log 0 gives NaN", expect="0 · log 0",
         id="scaling.nan-zero-log-zero",
         code='''def softmax_entropy(p):
    return -(p * np.log(p)).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="missing minus sign", expect="minus sign",
         id="scaling.entropy-sign",
         code='''def softmax_entropy(p):
    logs = np.log(np.where(p > 0, p, 1.0))
    return (p * logs).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="log base 2", expect="nats",
         id="scaling.log-base-2",
         code='''def softmax_entropy(p):
    logs = np.log2(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="mean instead of sum", expect="averaged",
         id="scaling.mean-not-sum",
         code='''def softmax_entropy(p):
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).mean(axis=-1)
'''),
    dict(exercise="ex5", kind="summed over axis 0", expect="axis 0",
         id="scaling.entropy-wrong-axis",
         code='''def softmax_entropy(p):
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=0)
'''),
    dict(exercise="ex5", kind="eps inside the log", expect="inside the log",
         id="scaling.one-hot-not-zero",
         code='''def softmax_entropy(p):
    return -(p * np.log(p + 1e-3)).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="summed over the whole array", expect="whole array",
         id="scaling.entropy-summed-all",
         code='''def softmax_entropy(p):
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum()
'''),
    dict(exercise="ex5", kind="keepdims", expect="one entropy per distribution",
         id="scaling.entropy-shape",
         code='''def softmax_entropy(p):
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex5", kind="log base 10", expect="base 10",
         id="scaling.log-base-10",
         code='''def softmax_entropy(p):
    logs = np.log10(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=-1)
'''),
    dict(exercise="ex5", kind="hard-coded axis 1", expect="axis 1",
         id="scaling.entropy-wrong-axis",
         code='''def softmax_entropy(p):
    p = np.atleast_2d(p)
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=1)
'''),
    dict(exercise="ex5", kind="logs not weighted by p", expect="uniform row",
         id="scaling.uniform-not-log-n",
         code='''def softmax_entropy(p):
    return -np.log(np.where(p > 0, p, 1.0)).sum(axis=-1)
'''),
    # ---- held-out answers (round 2): each was caught without its mistake named, or passed
    dict(exercise="ex1", kind="held-out: products not summed",
         expect="not summed into dot products",
         id="scaling.variance-one",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(q * k))
'''),
    dict(exercise="ex3", kind="held-out: max over rows", expect="each row's largest weight",
         id="scaling.max-over-rows",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k), axis=-1)
        if weights.max(axis=0).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="held-out: summed over keys", expect="over the keys (axis 1)",
         id="scaling.summed-over-keys",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        scores = (q[:, None, :] * k).sum(axis=1)
        if softmax(scores).max(axis=-1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex4", kind="held-out: max without keepdims", expect="keepdims=True",
         id="scaling.temperature-keepdims",
         code='''def softmax_t(scores, tau):
    z = np.asarray(scores, dtype=float) / tau
    e = np.exp(z - z.max(axis=-1))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex1", kind="held-out: mean over features", expect="a mean instead of a sum",
         id="scaling.mean-not-sum",
         code='''import numpy as np


def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).mean(axis=1)))
'''),
    dict(exercise="ex2", kind="held-out: unscaled", expect="unscaled",
         id="scaling.no-scale",
         code='''import numpy as np


def head_scores(q, k):
    return q @ np.swapaxes(k, -1, -2)
'''),
    dict(exercise="ex3", kind="held-out: keys of row 0 only", expect="instead of its own keys",
         id="scaling.keys-of-row-0",
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        s = q @ k[0].T
        if softmax(s).max(axis=1).mean() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex3", kind="held-out: max of the mean", expect="max of the mean",
         id="scaling.mean-before-max",
         code='''import numpy as np


def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        w = softmax(np.einsum("rd,rjd->rj", q, k))
        if w.mean(axis=0).max() > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex4", kind="held-out: sqrt of tau", expect="tau itself",
         id="scaling.wrong-temperature",
         code='''import numpy as np


def softmax_t(scores, tau):
    return softmax(np.asarray(scores, dtype=float) / np.sqrt(tau))
'''),
    dict(exercise="ex5", kind="held-out: log of zero", expect="p > 0",
         id="scaling.nan-zero-log-zero",
         code='''import numpy as np


def softmax_entropy(p):
    p = np.asarray(p, dtype=float)
    return -(p * np.log(p)).sum(axis=-1)
'''),
    dict(exercise="ex1", kind="variance of all pairs q @ k.T (held-out c)",
         expect="matched dot products",
         id="scaling.all-pairs-matrix",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var(q @ k.T))
'''),
    # ---- one wrong answer for each diagnosis no entry above reaches
    dict(exercise="ex1", kind="variance formula with the sign flipped", expect="never negative",
         id="scaling.negative-variance",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = (q * k).sum(axis=1)
    return float(np.mean(dots) ** 2 - np.mean(dots ** 2))
'''),
    dict(exercise="ex1", kind="returned the variance and the mean", expect="expected one number",
         id="scaling.not-one-number",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = (q * k).sum(axis=1)
    return np.var(dots), np.mean(dots)
'''),
    dict(exercise="ex1", kind="ddof set to the sample count", expect="finite",
         id="scaling.variance-not-finite",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    return float(np.var((q * k).sum(axis=1), ddof=n_samples))
'''),
    dict(exercise="ex1", kind="d_k - 1 products summed (loop from 1)", expect="within 5%",
         id="scaling.variance-off",
         code='''def measure_dot_variance(d_k, n_samples, rng):
    q = rng.standard_normal((n_samples, d_k))
    k = rng.standard_normal((n_samples, d_k))
    dots = sum(q[:, i] * k[:, i] for i in range(1, d_k))
    return float(np.var(dots))
'''),
    dict(exercise="ex1", kind="draws cached between calls, redrawn for a wider d_k",
         expect="generator you keep between calls",
         id="scaling.stateful-rng",
         code='''_cache = {"n": None}


def measure_dot_variance(d_k, n_samples, rng):
    if _cache["n"] != n_samples or _cache["q"].shape[1] < d_k:  # reuse the draws if wide enough
        _cache.update(n=n_samples, q=rng.standard_normal((n_samples, d_k)),
                      k=rng.standard_normal((n_samples, d_k)))
    q, k = _cache["q"][:, :d_k], _cache["k"][:, :d_k]
    return float(np.var((q * k).sum(axis=1)))
'''),
    dict(exercise="ex3", kind="returns the last d_k when none crosses", expect="return None then",
         id="scaling.none-expected",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            break
    return d_k
'''),
    dict(exercise="ex3", kind="assumed the widths double from the first", expect="not in the list",
         id="scaling.not-in-list",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    d_k = d_ks[0]
    while d_k <= d_ks[-1]:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if weights.max(axis=-1).mean() > threshold:
            return d_k
        d_k *= 2
    return None
'''),
    dict(exercise="ex3", kind="median instead of mean over rows", expect="mean max weights",
         id="scaling.wrong-saturation-point",
         code='''def saturation_point(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        weights = softmax(np.einsum("rd,rjd->rj", q, k))
        if np.median(weights.max(axis=-1)) > threshold:
            return d_k
    return None
'''),
    dict(exercise="ex4", kind="flattened the leading axes, never reshaped back",
         expect="must have the scores' shape",
         id="scaling.weights-shape",
         code='''def softmax_t(scores, tau):
    z = np.asarray(scores, dtype=float).reshape(-1, np.shape(scores)[-1]) / tau
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    dict(exercise="ex4", kind="forgot the exp: normalised the scores", expect="negative",
         id="scaling.negative-weights",
         code='''def softmax_t(scores, tau):
    z = np.asarray(scores, dtype=float) / tau
    return z / z.sum(axis=-1, keepdims=True)
'''),
]
