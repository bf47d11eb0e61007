"""Held-out answers for exercises/01_qkv.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---- ex1 project_qkv
    dict(exercise="ex1", kind="k from w_q", mistake="copy-pasted the q line and projected k with w_q instead of w_k",
         names=["w_q for k", "k with w_q", "copy-paste", "same weight", "w_k"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    k = x @ w_q
    v = x @ w_v
    return q, k, v
'''),
    dict(exercise="ex1", kind="weights on the left", mistake="wrote w.T @ x.T, so every projection comes back transposed as (width, T)",
         names=["transpose", "(d_k, t)", "rows are tokens", "x @ w", "rows and columns"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = w_q.T @ x.T
    k = w_k.T @ x.T
    v = w_v.T @ x.T
    return q, k, v
'''),
    dict(exercise="ex1", kind="tuple order", mistake="returns (q, v, k) instead of (q, k, v)",
         names=["order", "(q, k, v)", "swapped", "k and v"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    k = x @ w_k
    v = x @ w_v
    return q, v, k
'''),
    dict(exercise="ex1", kind="last token only", mistake="projects only the last row of x, so each result is one vector instead of T rows",
         names=["one token", "every row", "all rows", "single row", "last row"],
         code='''def project_qkv(x, w_q, w_k, w_v):
    last = x[-1]
    return last @ w_q, last @ w_k, last @ w_v
'''),
    # ---- ex2 cross_attention_qkv
    dict(exercise="ex2", kind="roles swapped", mistake="takes the queries from the encoder and the keys and values from the decoder",
         names=["roles swapped", "swapped the decoder and encoder", "queries come from the decoder", "q from x_enc", "x_dec and x_enc swapped"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_enc @ w_q
    k = x_dec @ w_k
    v = x_dec @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="v from decoder", mistake="takes the values from the decoder instead of the encoder",
         names=["v from x_dec", "values come from the encoder", "values from the decoder", "v must come from x_enc"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_enc @ w_k
    v = x_dec @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="self-attention", mistake="ignores x_enc and projects all three from x_dec, i.e. plain self-attention",
         names=["ignores x_enc", "self-attention", "x_enc is not used", "never reads the encoder", "encoder is not used"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, x_dec @ w_k, x_dec @ w_v
'''),
    dict(exercise="ex2", kind="k from decoder", mistake="takes the keys from the decoder; only the values come from the encoder",
         names=["k from x_dec", "keys come from the encoder", "keys from the decoder", "k must come from x_enc"],
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_dec @ w_k
    v = x_enc @ w_v
    return q, k, v
'''),
    # ---- ex3 fuse_weights
    dict(exercise="ex3", kind="stacked rows", mistake="concatenates along axis 0 (stacking rows) instead of along the output-feature axis",
         names=["axis=0", "axis 0", "stacked the rows", "vstack", "along the rows"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q, w_k, w_v])
'''),
    dict(exercise="ex3", kind="order q v k", mistake="puts the blocks in the order [Q | V | K] instead of [Q | K | V]",
         names=["order", "[q | k | v]", "v before k", "swapped"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.hstack([w_q, w_v, w_k])
'''),
    dict(exercise="ex3", kind="transposed fused", mistake="returns the fused matrix transposed, shape (2·d_k + d_v, d_model)",
         names=["transpose", "(2·d_k + d_v, d_model)", "(2*d_k + d_v, d_model)", "rows and columns"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q.T, w_k.T, w_v.T])
'''),
    dict(exercise="ex3", kind="np.stack new axis", mistake="uses np.stack, which adds a new axis instead of joining the columns side by side",
         names=["np.stack", "new axis", "extra axis", "3-d"],
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.stack([w_q, w_k, w_v], axis=-1)
'''),
    # ---- ex4 split_qkv
    dict(exercise="ex4", kind="v width d_k", mistake="takes the last d_k columns as v, using d_k for the width of v",
         names=["last d_v", "width of v", "v's width", "d_v columns", "-d_k"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    k = qkv[:, d_k:2 * d_k]
    v = qkv[:, -d_k:]
    return q, k, v
'''),
    dict(exercise="ex4", kind="equal thirds", mistake="cuts the fused array into three equal blocks, ignoring that d_v differs from d_k",
         names=["three equal", "equal parts", "np.split", "thirds", "equal width"],
         code='''def split_qkv(qkv, d_k, d_v):
    w = qkv.shape[-1] // 3
    return qkv[:, :w], qkv[:, w:2 * w], qkv[:, 2 * w:]
'''),
    dict(exercise="ex4", kind="layout q v k", mistake="reads the layout as [Q | V | K]: v taken right after q, k at the end",
         names=["layout", "[q | k | v]", "order", "v before k"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    v = qkv[:, d_k:d_k + d_v]
    k = qkv[:, d_k + d_v:]
    return q, k, v
'''),
    dict(exercise="ex4", kind="slices rows", mistake="slices the rows (token axis) instead of the columns (feature axis)",
         names=["slices rows", "axis 0", "feature axis", "qkv[:d_k]", "token axis"],
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:d_k]
    k = qkv[d_k:2 * d_k]
    v = qkv[2 * d_k:2 * d_k + d_v]
    return q, k, v
'''),
    # ---- ex5 attention_shapes
    dict(exercise="ex5", kind="square scores", mistake="assumes self-attention: the scores shape is (T_q, T_q) instead of (T_q, T_k)",
         names=["(t_q, t_q)", "t_q by t_k", "one score per (query, key)", "self-attention", "(t_q, t_k)"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if t_k != t_v:
        raise ValueError(f"{t_k} keys but {t_v} values")
    return (t_q, t_q), (t_q, d_v)
'''),
    dict(exercise="ex5", kind="output width d_k", mistake="gives the output the width d_k of the keys instead of d_v of the values",
         names=["d_v", "width of v", "output width", "value width"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if t_k != t_v:
        raise ValueError(f"{t_k} keys but {t_v} values")
    return (t_q, t_k), (t_q, d_k)
'''),
    dict(exercise="ex5", kind="rejects d_v != d_k", mistake="also raises ValueError when d_v differs from d_k, which the exercise allows",
         names=["d_v may differ", "d_v ≠ d_k", "d_v != d_k", "value width"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k or d_v != d_k:
        raise ValueError(f"q width {d_q}, k width {d_k}, v width {d_v} must all match")
    if t_k != t_v:
        raise ValueError(f"{t_k} keys but {t_v} values")
    return (t_q, t_k), (t_q, d_v)
'''),
    dict(exercise="ex5", kind="wrong length check", mistake="checks T_q against T_k (rejecting T_q != T_k) and never checks T_k against T_v",
         names=["t_k ≠ t_v", "t_k != t_v", "one value per key", "t_q may differ"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if t_q != t_k:
        raise ValueError(f"{t_q} queries but {t_k} keys")
    return (t_q, t_k), (t_q, d_v)
'''),
    dict(exercise="ex5", kind="message without widths", mistake="raises on mismatched widths with a message that does not give the two widths",
         names=["both widths", "include the widths", "the two widths", "numbers in the message"],
         code='''def attention_shapes(q, k, v):
    t_q, d_q = q.shape
    t_k, d_k = k.shape
    t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError("q and k width do not match")
    if t_k != t_v:
        raise ValueError("k and v must have the same length")
    return (t_q, t_k), (t_q, d_v)
'''),
    # ---- ex6 n_projection_params
    dict(exercise="ex6", kind="multiplies by T", mistake="multiplies the count by the sequence length T, which does not change the weights",
         names=["t does not matter", "independent of t", "sequence length", "does not depend on t", "t is not"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    per_head = d_model * (2 * d_k + d_v)
    return per_head * n_heads * n_layers * T
'''),
    dict(exercise="ex6", kind="forgets layers", mistake="counts the heads of one layer only, forgetting the n_layers factor",
         names=["n_layers", "layers", "every layer"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_heads * (d_model * d_k + d_model * d_k + d_model * d_v)
'''),
    dict(exercise="ex6", kind="assumes d_v = d_k", mistake="counts three d_model × d_k matrices per head, ignoring that W_V has width d_v",
         names=["d_v", "3 · d_model · d_k", "3 * d_model * d_k", "value width", "w_v"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return 3 * d_model * d_k * n_heads * n_layers
'''),
    dict(exercise="ex6", kind="forgets heads", mistake="counts one set of W_Q, W_K, W_V per layer, forgetting that every head has its own",
         names=["n_heads", "every head", "each head", "heads"],
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * d_model * (2 * d_k + d_v)
'''),
]

VALID = [
    dict(exercise="ex1", kind="einsum", code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    return tuple(np.einsum("td,dw->tw", x, w) for w in (w_q, w_k, w_v))
'''),
    dict(exercise="ex1", kind="fused then split", code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    d_k = w_q.shape[1]
    qkv = np.matmul(x, np.concatenate([w_q, w_k, w_v], axis=1))
    return qkv[:, :d_k], qkv[:, d_k:2 * d_k], qkv[:, 2 * d_k:]
'''),
    dict(exercise="ex2", kind="helper function", code='''import numpy as np


def _proj(x, w):
    return np.dot(x, w)


def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return _proj(x_dec, w_q), _proj(x_enc, w_k), _proj(x_enc, w_v)
'''),
    dict(exercise="ex2", kind="einsum", code='''import numpy as np


def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = np.einsum("id,dk->ik", x_dec, w_q)
    k = np.einsum("jd,dk->jk", x_enc, w_k)
    v = np.einsum("jd,dv->jv", x_enc, w_v)
    return q, k, v
'''),
    dict(exercise="ex3", kind="preallocate and fill", code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    d_model, d_k = w_q.shape
    d_v = w_v.shape[1]
    out = np.empty((d_model, 2 * d_k + d_v), dtype=np.result_type(w_q, w_k, w_v))
    out[:, :d_k] = w_q
    out[:, d_k:2 * d_k] = w_k
    out[:, 2 * d_k:] = w_v
    return out
'''),
    dict(exercise="ex3", kind="np.block", code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    return np.block([w_q, w_k, w_v])
'''),
    dict(exercise="ex4", kind="np.split indices", code='''import numpy as np


def split_qkv(qkv, d_k, d_v):
    q, k, v = np.split(qkv, [d_k, 2 * d_k], axis=-1)
    return q, k, v
'''),
    dict(exercise="ex4", kind="ellipsis offsets", code='''def split_qkv(qkv, d_k, d_v):
    out = []
    start = 0
    for width in (d_k, d_k, d_v):
        out.append(qkv[..., start:start + width])
        start += width
    return tuple(out)
'''),
    dict(exercise="ex5", kind="star unpacking", code='''def attention_shapes(q, k, v):
    *_, t_q, d_q = q.shape
    *_, t_k, d_k = k.shape
    *_, t_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError("q width %d does not match k width %d" % (d_q, d_k))
    if t_k != t_v:
        raise ValueError("k has %d rows but v has %d: one value per key" % (t_k, t_v))
    scores_shape = (t_q, t_k)
    output_shape = (scores_shape[0], d_v)
    return scores_shape, output_shape
'''),
    dict(exercise="ex5", kind="empty arrays", code='''import numpy as np


def attention_shapes(q, k, v):
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"q width {q.shape[1]} does not match k width {k.shape[1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError(f"{k.shape[0]} keys but {v.shape[0]} values")
    s = np.zeros(q.shape) @ np.zeros(k.shape).T
    out = s @ np.zeros(v.shape)
    return tuple(s.shape), tuple(out.shape)
'''),
    dict(exercise="ex6", kind="loops", code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    total = 0
    for _layer in range(n_layers):
        for _head in range(n_heads):
            for width in (d_k, d_k, d_v):
                total += d_model * width
    return total
'''),
    dict(exercise="ex6", kind="fused size", code='''import numpy as np


def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    fused = np.zeros((d_model, 2 * d_k + d_v))
    return int(fused.size) * n_heads * n_layers
'''),
]
