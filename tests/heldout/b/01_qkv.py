"""Held-out answers for exercises/01_qkv.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 project_qkv
    dict(exercise="ex1", kind="v from w_k", mistake="copy-pastes the key line and projects V with w_k instead of w_v",
         names=["w_v", "v uses w_k", "w_k for v", "wrong weight for v", "d_v"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    k = x @ w_k
    v = x @ w_k
    return q, k, v
'''),
    dict(exercise="ex1", kind="tuple order q v k", mistake="returns the tuple as (q, v, k) instead of (q, k, v)",
         names=["wrong order", "(q, k, v)", "k and v swapped", "swapped k and v"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    k = x @ w_k
    v = x @ w_v
    return q, v, k
'''),
    dict(exercise="ex1", kind="global weights", mistake="uses the setup's W_Q, W_K, W_V instead of the function's arguments, so it only works on the worked example",
         names=["argument", "global", "w_q you were given", "parameters passed", "ignores w_"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x @ W_Q, x @ W_K, x @ W_V
'''),
    dict(exercise="ex1", kind="math convention W x", mistake="writes the projection as W^T x^T, which gives (d_k, T) matrices with positions as columns",
         names=["(d_k, t)", "rows are tokens", "w^t x^t", "positions as columns", "transposed result"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = w_q.T @ x.T
    k = w_k.T @ x.T
    v = w_v.T @ x.T
    return q, k, v
'''),
    dict(exercise="ex1", kind="torch Linear convention", mistake="multiplies by the transposed weights, x @ w.T, as for a PyTorch nn.Linear weight stored (out, in)",
         names=["x @ w.t", "(out, in)", "nn.linear", "transposed weights", "(d_model, width)"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q.T
    k = x @ w_k.T
    v = x @ w_v.T
    return q, k, v
'''),
    dict(exercise="ex1", kind="one shared weight", mistake="uses w_q for all three projections, so Q, K and V are the same matrix",
         names=["same weight", "three separate", "w_q for all", "shared", "identical"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    return q, q, q
'''),
    # ---------------------------------------------------------------- ex2 cross_attention_qkv
    dict(exercise="ex2", kind="roles swapped", mistake="takes the queries from the encoder and the keys and values from the decoder",
         names=["queries come from the decoder", "q from x_enc", "roles", "the other way round"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_enc @ w_q
    k = x_dec @ w_k
    v = x_dec @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="k from decoder", mistake="takes the keys from the decoder (the sequence being updated) instead of the encoder",
         names=["k from x_dec", "keys come from the encoder", "keys from the decoder"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_dec @ w_k
    v = x_enc @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="v from decoder", mistake="takes the values from the decoder instead of the encoder",
         names=["v from x_dec", "values come from the encoder", "values from the decoder"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_enc @ w_k
    v = x_dec @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="self-attention", mistake="projects all three from x_dec, which is self-attention, and never reads the encoder",
         names=["self-attention", "never reads the encoder", "ignores x_enc", "all from x_dec"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, x_dec @ w_k, x_dec @ w_v
'''),
    dict(exercise="ex2", kind="k v weights swapped", mistake="projects the keys with w_v and the values with w_k",
         names=["w_k and w_v", "w_v for k", "w_k for v", "wrong weight"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_enc @ w_v
    v = x_enc @ w_k
    return q, k, v
'''),
    # ---------------------------------------------------------------- ex3 fuse_weights
    dict(exercise="ex3", kind="order K Q V", mistake="concatenates the blocks in the order [K | Q | V] instead of [Q | K | V]",
         names=["wrong order", "[q | k | v]", "q first", "k first"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_k, w_q, w_v], axis=1)
'''),
    dict(exercise="ex3", kind="torch (out, in) layout", mistake="stacks the transposed blocks along the rows as PyTorch's in_proj_weight does, giving (2·d_k + d_v, d_model)",
         names=["transpose", "in_proj_weight", "(out, in)", "(2·d_k + d_v, d_model)"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q.T, w_k.T, w_v.T], axis=0)
'''),
    dict(exercise="ex3", kind="rows axis", mistake="concatenates along axis 0 (the input features) instead of the columns",
         names=["axis=1", "axis 1", "axis=0", "vstack", "along the rows"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.vstack([w_q, w_k, w_v])
'''),
    dict(exercise="ex3", kind="summed", mistake="adds the three matrices instead of placing them side by side",
         names=["side by side", "concatenate", "added", "sum of the three"],
         code='''def fuse_weights(w_q, w_k, w_v):
    return w_q + w_k + w_v
'''),
    dict(exercise="ex3", kind="interleaved columns", mistake="interleaves the columns of Q, K and V one by one instead of keeping three contiguous blocks",
         names=["interleav", "contiguous", "three blocks", "one column at a time"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    d_k = w_q.shape[1]
    cols = []
    for c in range(d_k):
        cols += [w_q[:, c], w_k[:, c]]
    cols += [w_v[:, c] for c in range(w_v.shape[1])]
    return np.stack(cols, axis=1)
'''),
    # ---------------------------------------------------------------- ex4 split_qkv
    dict(exercise="ex4", kind="equal thirds", mistake="cuts the columns into three equal parts, which is wrong when d_v differs from d_k",
         names=["equal", "thirds", "d_v ≠ d_k", "d_v != d_k", "// 3"],
         code='''def split_qkv(qkv, d_k, d_v):
    n = qkv.shape[1] // 3
    return qkv[:, :n], qkv[:, n:2 * n], qkv[:, 2 * n:]
'''),
    dict(exercise="ex4", kind="rows sliced", mistake="slices the rows (tokens, axis 0) instead of the columns",
         names=["axis 1", "axis 0", "slices the rows", "rows instead of columns"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:d_k]
    k = qkv[d_k:2 * d_k]
    v = qkv[2 * d_k:]
    return q, k, v
'''),
    dict(exercise="ex4", kind="k cut with d_v", mistake="uses d_v for the width of the K block, so K and V are cut at the wrong column when d_v ≠ d_k",
         names=["width of k", "d_k columns", "k is d_k wide", "d_k + d_v"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    k = qkv[:, d_k:d_k + d_v]
    v = qkv[:, d_k + d_v:]
    return q, k, v
'''),
    dict(exercise="ex4", kind="v taken first", mistake="reads the layout as [V | K | Q], taking V from the first columns",
         names=["wrong order", "layout", "[q | k | v]", "q first"],
         code='''def split_qkv(qkv, d_k, d_v):
    v = qkv[:, :d_v]
    k = qkv[:, d_v:d_v + d_k]
    q = qkv[:, d_v + d_k:]
    return q, k, v
'''),
    dict(exercise="ex4", kind="off by one cut", mistake="cuts K one column too far, taking columns d_k .. 2·d_k inclusive and starting V one column late",
         names=["off by one", "off-by-one", "one column", "inclusive", "2 * d_k + 1"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    k = qkv[:, d_k:2 * d_k + 1]
    v = qkv[:, 2 * d_k + 1:]
    return q, k, v
'''),
    # ---------------------------------------------------------------- ex5 attention_shapes
    dict(exercise="ex5", kind="no T_k T_v check", mistake="checks the widths but forgets to refuse keys and values of different lengths",
         names=["t_k ≠ t_v", "t_k != t_v", "one value per key", "lengths of k and v", "same number of positions"],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    return (T_q, T_k), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="refuses d_v != d_k", mistake="also requires v to have the width of k, refusing a legal d_v ≠ d_k",
         names=["d_v may differ", "width of v", "v's width", "is free"],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if d_v != d_k:
        raise ValueError(f"v width {d_v} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError(f"k has {T_k} positions but v has {T_v}")
    return (T_q, T_k), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="refuses T_q != T_k", mistake="requires as many queries as keys, refusing a legal cross-attention T_q ≠ T_k",
         names=["t_q may differ", "t_q ≠ t_k", "t_q != t_k", "cross-attention", "number of queries"],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_q != T_k or T_k != T_v:
        raise ValueError(f"q, k and v must have the same length; got {T_q}, {T_k}, {T_v}")
    return (T_q, T_k), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="scores transposed", mistake="gives the scores' shape as (T_k, T_q) instead of (T_q, T_k)",
         names=["(t_q, t_k)", "(t_k, t_q)", "transpose", "rows are queries"],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError(f"k has {T_k} positions but v has {T_v}")
    return (T_k, T_q), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="output width d_k", mistake="gives the output the width d_k of the keys instead of d_v of the values",
         names=["output width", "values' width", "width d_v", "(t_q, d_k)"],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError(f"k has {T_k} positions but v has {T_v}")
    return (T_q, T_k), (T_q, d_k)
'''),
    dict(exercise="ex5", kind="message without widths", mistake="raises a ValueError whose message has neither the word width nor the two widths",
         names=["message", "the word", "both widths", "'width'", '"width"'],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError("q and k do not fit together")
    if T_k != T_v:
        raise ValueError("k and v do not fit together")
    return (T_q, T_k), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="assert not ValueError", mistake="uses assert, which raises AssertionError instead of ValueError",
         names=["assertionerror", "assert", "must raise valueerror"],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    assert d_q == d_k, f"q width {d_q} does not match k width {d_k}"
    assert T_k == T_v, f"k has {T_k} positions but v has {T_v}"
    return (T_q, T_k), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="output rows T_k", mistake="gives the output one row per key, (T_k, d_v), instead of one per query",
         names=["one output row per query", "(t_k, d_v)", "t_q rows", "rows of the output"],
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError(f"k has {T_k} positions but v has {T_v}")
    return (T_q, T_k), (T_k, d_v)
'''),
    # ---------------------------------------------------------------- ex6 n_projection_params
    dict(exercise="ex6", kind="times T", mistake="multiplies the count by the sequence length T, which the weights do not depend on",
         names=["does not depend on t", "independent of t", "sequence length", "times t", "not on t"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * T * d_model * (2 * d_k + d_v)
'''),
    dict(exercise="ex6", kind="three d_k", mistake="counts W_V with the width d_k, as if d_v were equal to d_k",
         names=["d_v", "w_v", "d_model × d_v", "d_model * d_v", "2 * d_k + d_v"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * 3 * d_model * d_k
'''),
    dict(exercise="ex6", kind="forgets layers", mistake="counts one layer's heads and forgets to multiply by n_layers",
         names=["n_layers", "every layer", "per layer"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_heads * d_model * (2 * d_k + d_v)
'''),
    dict(exercise="ex6", kind="forgets heads", mistake="counts one head per layer and forgets to multiply by n_heads",
         names=["n_heads", "every head", "per head"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * d_model * (2 * d_k + d_v)
'''),
    dict(exercise="ex6", kind="heads plus layers", mistake="adds the number of heads and the number of layers instead of multiplying them",
         names=["multiply", "product", "added", "instead of multiplying", "heads plus layers"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    per_matrix_set = d_model * (2 * d_k + d_v)
    return (n_heads + n_layers) * per_matrix_set
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
    dict(exercise="ex1", kind="fused then split", code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    d_k = w_q.shape[1]
    fused = x @ np.concatenate([w_q, w_k, w_v], axis=1)
    return fused[:, :d_k], fused[:, d_k:2 * d_k], fused[:, 2 * d_k:]
'''),
    dict(exercise="ex2", kind="np.dot", code='''import numpy as np


def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = np.dot(x_dec, w_q)
    k, v = (np.dot(x_enc, w) for w in (w_k, w_v))
    return q, k, v
'''),
    dict(exercise="ex2", kind="row loop", code='''import numpy as np


def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = np.array([row @ w_q for row in x_dec])
    k = np.array([row @ w_k for row in x_enc])
    v = np.array([row @ w_v for row in x_enc])
    return q, k, v
'''),
    dict(exercise="ex3", kind="hstack", code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.hstack((w_q, w_k, w_v))
'''),
    dict(exercise="ex3", kind="preallocate and fill", code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    d_model, d_k = w_q.shape
    d_v = w_v.shape[1]
    w_qkv = np.empty((d_model, 2 * d_k + d_v))
    w_qkv[:, :d_k] = w_q
    w_qkv[:, d_k:2 * d_k] = w_k
    w_qkv[:, 2 * d_k:] = w_v
    return w_qkv
'''),
    dict(exercise="ex4", kind="np.split at indices", code='''import numpy as np


def split_qkv(qkv, d_k, d_v):
    q, k, v = np.split(qkv, [d_k, 2 * d_k], axis=1)
    return q, k, v
'''),
    dict(exercise="ex4", kind="negative slice for v", code='''def split_qkv(qkv, d_k, d_v):
    v = qkv[:, -d_v:]
    qk = qkv[:, :-d_v]
    return qk[:, :d_k], qk[:, d_k:], v
'''),
    dict(exercise="ex5", kind="shape slices", code='''def attention_shapes(q, k, v):
    d_q, d_k = q.shape[-1], k.shape[-1]
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}: each score is a dot product")
    if k.shape[0] != v.shape[0]:
        raise ValueError(f"k has {k.shape[0]} positions and v has {v.shape[0]}: one value per key")
    scores_shape = (q.shape[0], k.shape[0])
    output_shape = (q.shape[0], v.shape[1])
    return scores_shape, output_shape
'''),
    dict(exercise="ex5", kind="unpacked with tuple concat", code='''def attention_shapes(q, k, v):
    (T_q, d_q), (T_k, d_k), (T_v, d_v) = q.shape, k.shape, v.shape
    problems = []
    if d_q != d_k:
        problems.append(f"width mismatch: q width {d_q}, k width {d_k}")
    if T_k != T_v:
        problems.append(f"k has T_k={T_k} rows but v has T_v={T_v}")
    if problems:
        raise ValueError("; ".join(problems))
    return tuple(q.shape[:1]) + tuple(k.shape[:1]), tuple(q.shape[:1]) + tuple(v.shape[1:])
'''),
    dict(exercise="ex6", kind="loops over layers and heads", code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    total = 0
    for _layer in range(n_layers):
        for _head in range(n_heads):
            total += d_model * d_k      # W_Q
            total += d_model * d_k      # W_K
            total += d_model * d_v      # W_V
    return total                        # T does not appear: weights are shared by all positions
'''),
    dict(exercise="ex6", kind="fused width", code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    fused_width = n_heads * (2 * d_k + d_v)
    return n_layers * d_model * fused_width
'''),
]
