"""Held-out answers for exercises/01_qkv.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------- ex1: project_qkv ----------------
    dict(exercise="ex1", kind="k and v swapped", mistake="returns the tuple as (q, v, k): the keys and values come back in the wrong order",
         names=["order", "(q, k, v)", "swapped", "k and v"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    k = x @ w_k
    v = x @ w_v
    return q, v, k
'''),
    dict(exercise="ex1", kind="weights times x transposed", mistake="computes w.T @ x.T, so every projection comes back transposed with one column per token",
         names=["transpose", "rows are tokens", "(d_k, t)", "w_q.t @ x.t", "one row per token"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = w_q.T @ x.T
    k = w_k.T @ x.T
    v = w_v.T @ x.T
    return q, k, v
'''),
    dict(exercise="ex1", kind="w_q reused for k", mistake="projects the keys with w_q instead of w_k, so q and k are identical",
         names=["w_k", "same weight", "k equals q", "identical to q", "own weight"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    k = x @ w_q
    v = x @ w_v
    return q, k, v
'''),
    dict(exercise="ex1", kind="premature sqrt scale", mistake="divides the queries by sqrt(d_k) already at projection time, which belongs to the scores, not the projections",
         names=["√d_k", "sqrt(d_k)", "scale", "scaled"],
         code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    d_k = w_q.shape[1]
    q = (x @ w_q) / np.sqrt(d_k)
    k = x @ w_k
    v = x @ w_v
    return q, k, v
'''),
    dict(exercise="ex1", kind="hard-coded 3 tokens", mistake="loops over range(3), the worked example's number of tokens, so only the first 3 rows of x are projected",
         names=["hard-coded", "every token", "all the rows", "only the first 3", "all t rows"],
         code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    q = np.array([x[t] @ w_q for t in range(3)])
    k = np.array([x[t] @ w_k for t in range(3)])
    v = np.array([x[t] @ w_v for t in range(3)])
    return q, k, v
'''),
    # ---------------- ex2: cross_attention_qkv ----------------
    dict(exercise="ex2", kind="roles swapped", mistake="takes the queries from the encoder and the keys and values from the decoder",
         names=["swapped", "queries come from the decoder", "q from x_enc", "the other way round", "roles"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_enc @ w_q
    k = x_dec @ w_k
    v = x_dec @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="values from decoder", mistake="projects the values from the decoder's tokens instead of the encoder's",
         names=["values from the decoder", "v from x_dec", "x_enc @ w_v", "values come from the encoder", "v must come from"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_enc @ w_k
    v = x_dec @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="keys from decoder", mistake="projects the keys from the decoder's tokens instead of the encoder's",
         names=["keys from the decoder", "k from x_dec", "x_enc @ w_k", "keys come from the encoder", "k must come from"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_dec @ w_k
    v = x_enc @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="ignores encoder", mistake="ignores x_enc and computes plain self-attention projections of the decoder",
         names=["ignores x_enc", "self-attention", "never uses x_enc", "encoder's output", "does not read the encoder"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, x_dec @ w_k, x_dec @ w_v
'''),
    dict(exercise="ex2", kind="concatenated sequences", mistake="reads keys and values from the decoder and encoder tokens stacked together instead of from the encoder alone",
         names=["concatenat", "both sequences", "stacked", "t_dec + t_enc", "only the encoder"],
         code='''import numpy as np


def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    memory = np.concatenate([x_dec, x_enc], axis=0)
    return x_dec @ w_q, memory @ w_k, memory @ w_v
'''),
    # ---------------- ex3: fuse_weights ----------------
    dict(exercise="ex3", kind="order Q V K", mistake="puts the blocks side by side in the order [Q | V | K] instead of [Q | K | V]",
         names=["order", "[q | k | v]", "v before k", "swapped", "q, k, v order"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.hstack([w_q, w_v, w_k])
'''),
    dict(exercise="ex3", kind="stacked along rows", mistake="stacks the matrices on top of each other (axis 0) instead of side by side along the output-feature axis",
         names=["axis 0", "vstack", "on top of", "side by side", "axis=1"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.vstack([w_q, w_k, w_v])
'''),
    dict(exercise="ex3", kind="transposed fused", mistake="concatenates the transposed matrices, returning (2·d_k + d_v, d_model) instead of (d_model, 2·d_k + d_v)",
         names=["transpose", "(2·d_k + d_v, d_model)", "rows and columns", "(2*d_k + d_v, d_model)"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q.T, w_k.T, w_v.T], axis=0)
'''),
    dict(exercise="ex3", kind="interleaved columns", mistake="stacks the three matrices on a new last axis and reshapes, which interleaves the columns q0, k0, v0, q1, ... instead of keeping three blocks",
         names=["interleav", "blocks", "contiguous", "reshape"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    stacked = np.stack([w_q, w_k, w_v], axis=-1)   # (d_model, d, 3)
    return stacked.reshape(w_q.shape[0], -1)
'''),
    dict(exercise="ex3", kind="w_k twice no w_v", mistake="copy-paste slip: concatenates w_k twice and leaves out w_v",
         names=["w_k twice", "missing w_v", "k twice", "no v block", "w_v is missing"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q, w_k, w_k], axis=1)
'''),
    dict(exercise="ex3", kind="summed weights", mistake="adds the three matrices together instead of placing them side by side",
         names=["adds", "sum of the", "added", "instead of concatenat", "w_q + w_k"],
         code='''def fuse_weights(w_q, w_k, w_v):
    return w_q + w_k + w_v
'''),
    # ---------------- ex4: split_qkv ----------------
    dict(exercise="ex4", kind="v offset uses d_v", mistake="starts the V block at column d_k + d_v instead of 2·d_k",
         names=["2·d_k", "2*d_k", "d_k + d_v", "offset", "starts at"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    k = qkv[:, d_k:2 * d_k]
    v = qkv[:, d_k + d_v:]
    return q, k, v
'''),
    dict(exercise="ex4", kind="three equal parts", mistake="splits the columns into three (nearly) equal parts with np.array_split, ignoring that d_v may differ from d_k",
         names=["equal", "thirds", "array_split", "three equal", "ignores d_v"],
         code='''import numpy as np


def split_qkv(qkv, d_k, d_v):
    q, k, v = np.array_split(qkv, 3, axis=-1)
    return q, k, v
'''),
    dict(exercise="ex4", kind="slices rows", mistake="slices the token axis (rows) instead of the feature axis (columns)",
         names=["rows instead of columns", "axis 0", "feature axis", "qkv[:d_k]", "token axis"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:d_k]
    k = qkv[d_k:2 * d_k]
    v = qkv[2 * d_k:2 * d_k + d_v]
    return q, k, v
'''),
    dict(exercise="ex4", kind="layout Q V K", mistake="reads the layout as [Q | V | K]: takes V right after Q and K from the end",
         names=["[q | k | v]", "layout", "v before k", "order", "swapped"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    v = qkv[:, d_k:d_k + d_v]
    k = qkv[:, d_k + d_v:]
    return q, k, v
'''),
    dict(exercise="ex4", kind="last d_k for v", mistake="takes V as the last d_k columns, using d_k for V's width instead of d_v",
         names=["d_v", "last d_v", "-d_k", "width of v"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    k = qkv[:, d_k:2 * d_k]
    v = qkv[:, -d_k:]
    return q, k, v
'''),
    # ---------------- ex5: attention_shapes ----------------
    dict(exercise="ex5", kind="scores transposed", mistake="returns the scores shape as (T_k, T_q) instead of (T_q, T_k)",
         names=["(t_q, t_k)", "transpose", "one row per query", "(t_k, t_q)", "rows and columns"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if t_k != t_v:
        raise ValueError(f"k has {t_k} positions but v has {t_v}")
    return (t_k, t_q), (t_q, d_v)
'''),
    dict(exercise="ex5", kind="output width d_k", mistake="gives the output the key width d_k instead of the value width d_v",
         names=["d_v", "width of v", "value width", "(t_q, d_v)"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if t_k != t_v:
        raise ValueError(f"k has {t_k} positions but v has {t_v}")
    return (t_q, t_k), (t_q, d_k)
'''),
    dict(exercise="ex5", kind="rejects T_q != T_k", mistake="also raises when T_q differs from T_k, rejecting valid cross-attention shapes",
         names=["t_q may differ", "cross-attention", "t_q ≠ t_k", "t_q != t_k", "should be accepted"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if t_q != t_k or t_k != t_v:
        raise ValueError(f"lengths differ: q {t_q}, k {t_k}, v {t_v}")
    return (t_q, t_k), (t_q, d_v)
'''),
    dict(exercise="ex5", kind="rejects d_v != d_k", mistake="requires all three widths to match, rejecting a value width d_v that differs from d_k",
         names=["d_v may differ", "d_v ≠ d_k", "d_v != d_k", "should be accepted", "value width"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if not (d_q == d_k == d_v):
        raise ValueError(f"q width {d_q}, k width {d_k} and v width {d_v} must all match")
    if t_k != t_v:
        raise ValueError(f"k has {t_k} positions but v has {t_v}")
    return (t_q, t_k), (t_q, d_v)
'''),
    dict(exercise="ex5", kind="no T_k vs T_v check", mistake="forgets the check that k and v have the same number of positions",
         names=["t_k ≠ t_v", "t_k != t_v", "one value per key", "t_v", "same number of positions"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    d_v = v.shape[1]
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    return (t_q, t_k), (t_q, d_v)
'''),
    dict(exercise="ex5", kind="assert not ValueError", mistake="uses assert statements, which raise AssertionError instead of ValueError",
         names=["valueerror", "assert", "assertionerror"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    assert d_q == d_k, f"q width {d_q} does not match k width {d_k}"
    assert t_k == t_v, f"k has {t_k} positions but v has {t_v}"
    return (t_q, t_k), (t_q, d_v)
'''),
    dict(exercise="ex5", kind="message lacks widths", mistake="raises ValueError for mismatched widths, but the message names neither the word width nor the two widths",
         names=["width", "both widths", "message", "the two widths"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError("q and k do not match")
    if t_k != t_v:
        raise ValueError("k and v do not match")
    return (t_q, t_k), (t_q, d_v)
'''),
    # ---------------- ex6: n_projection_params ----------------
    dict(exercise="ex6", kind="multiplies by T", mistake="multiplies the count by the sequence length T, although the weights do not depend on T",
         names=["sequence length", "does not depend on t", "independent of t", "t does not matter", "length t"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return d_model * (2 * d_k + d_v) * n_heads * n_layers * T
'''),
    dict(exercise="ex6", kind="assumes d_v = d_k", mistake="counts three d_model × d_k matrices per head, as if d_v were d_k",
         names=["d_v", "3 · d_model · d_k", "3*d_model*d_k", "w_v is d_model × d_v", "value width"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return 3 * d_model * d_k * n_heads * n_layers
'''),
    dict(exercise="ex6", kind="forgets layers", mistake="counts the heads of one layer only, leaving out the factor n_layers",
         names=["n_layers", "layers", "per layer"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return d_model * (2 * d_k + d_v) * n_heads
'''),
    dict(exercise="ex6", kind="forgets heads", mistake="counts one head per layer, leaving out the factor n_heads",
         names=["n_heads", "heads", "per head"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return d_model * (2 * d_k + d_v) * n_layers
'''),
    dict(exercise="ex6", kind="counts W_K and W_V only", mistake="counts d_model × (d_k + d_v) per head, leaving out W_Q",
         names=["w_q", "2·d_k", "2*d_k", "three matrices", "missing"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return d_model * (d_k + d_v) * n_heads * n_layers
'''),
    dict(exercise="ex6", kind="includes biases", mistake="adds one bias per output feature, although the exercise says no biases",
         names=["bias", "d_model + 1", "no biases"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    per_head = (d_model + 1) * d_k * 2 + (d_model + 1) * d_v
    return per_head * n_heads * n_layers
'''),
]

VALID = [
    dict(exercise="ex1", kind="einsum", code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    q = np.einsum("td,dk->tk", x, w_q)
    k = np.einsum("td,dk->tk", x, w_k)
    v = np.einsum("td,dv->tv", x, w_v)
    return q, k, v
'''),
    dict(exercise="ex1", kind="fused then sliced", code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    d_k = w_q.shape[1]
    qkv = x @ np.concatenate([w_q, w_k, w_v], axis=1)
    return qkv[:, :d_k], qkv[:, d_k:2 * d_k], qkv[:, 2 * d_k:]
'''),
    dict(exercise="ex2", kind="np.dot", code='''import numpy as np


def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = np.dot(x_dec, w_q)
    k = np.dot(x_enc, w_k)
    v = np.dot(x_enc, w_v)
    return (q, k, v)
'''),
    dict(exercise="ex2", kind="einsum loop", code='''import numpy as np


def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = np.einsum("td,dk->tk", x_dec, w_q)
    k, v = (np.einsum("sd,dw->sw", x_enc, w) for w in (w_k, w_v))
    return q, k, v
'''),
    dict(exercise="ex3", kind="np.block", code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.block([[w_q, w_k, w_v]])
'''),
    dict(exercise="ex3", kind="preallocate and fill", code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    d_model, d_k = w_q.shape
    d_v = w_v.shape[1]
    out = np.zeros((d_model, 2 * d_k + d_v), dtype=np.result_type(w_q, w_k, w_v))
    out[:, :d_k] = w_q
    out[:, d_k:2 * d_k] = w_k
    out[:, 2 * d_k:] = w_v
    return out
'''),
    dict(exercise="ex4", kind="np.split at indices", code='''import numpy as np


def split_qkv(qkv, d_k, d_v):
    q, k, v = np.split(qkv, [d_k, 2 * d_k], axis=-1)
    return q, k, v
'''),
    dict(exercise="ex4", kind="ellipsis with running offset", code='''def split_qkv(qkv, d_k, d_v):
    parts = []
    start = 0
    for width in (d_k, d_k, d_v):
        parts.append(qkv[..., start:start + width])
        start += width
    return tuple(parts)
'''),
    dict(exercise="ex5", kind="indexing shapes", code='''def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"q width {q.shape[-1]} does not match k width {k.shape[-1]}"
        )
    if k.shape[0] != v.shape[0]:
        raise ValueError(f"k has {k.shape[0]} rows but v has {v.shape[0]}: one value per key")
    scores_shape = (q.shape[0], k.shape[0])
    output_shape = (q.shape[0], v.shape[1])
    return scores_shape, output_shape
'''),
    dict(exercise="ex5", kind="values first then check", code='''def attention_shapes(q, k, v):
    (t_q, d_q), (t_k, d_k), (t_v, d_v) = q.shape, k.shape, v.shape
    problems = []
    if d_q != d_k:
        problems.append(f"the q width {d_q} and the k width {d_k} differ")
    if t_k != t_v:
        problems.append(f"T_k = {t_k} keys but T_v = {t_v} values")
    if problems:
        raise ValueError("; ".join(problems))
    return tuple([t_q, t_k]), tuple([t_q, d_v])
'''),
    dict(exercise="ex6", kind="loop over layers and heads", code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    total = 0
    for _layer in range(n_layers):
        for _head in range(n_heads):
            total += d_model * d_k   # W_Q
            total += d_model * d_k   # W_K
            total += d_model * d_v   # W_V
    return total
'''),
    dict(exercise="ex6", kind="other factor order", code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    del T  # the weights do not depend on the sequence length
    heads = n_layers * n_heads
    return heads * d_model * d_k * 2 + heads * d_model * d_v
'''),
]
