"""Named wrong answers for solutions/01_qkv.ipynb; each must fail its check with the message."""

MISTAKES = [
    # Exercise 1: project X into Q, K and V
    dict(exercise="ex1", kind="K and V swapped", expect="K and V are swapped",
         id="qkv.k-v-swapped",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x @ w_q, x @ w_v, x @ w_k
'''),
    dict(exercise="ex1", kind="Q and K swapped", expect="Q and K are swapped",
         id="qkv.q-k-swapped",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x @ w_k, x @ w_q, x @ w_v
'''),
    dict(exercise="ex1", kind="one weight for all three", expect="same weight matrix",
         id="qkv.one-weight-shared",
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    return q, q, x @ w_v
'''),
    dict(exercise="ex1", kind="transposed projections", expect="transpose",
         id="qkv.transposed",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return w_q.T @ x.T, w_k.T @ x.T, w_v.T @ x.T
'''),
    dict(exercise="ex1", kind="first token only", expect="one W_Q serves every token",
         id="qkv.first-token-only",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x[0] @ w_q, x[0] @ w_k, x[0] @ w_v
'''),
    dict(exercise="ex1", kind="no projection", expect="has to be projected",
         id="qkv.not-projected",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x, x, x
'''),
    dict(exercise="ex1", kind="returns None", expect="returned None",
         id="generic.none",
         code='''def project_qkv(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
'''),
    dict(exercise="ex1", kind="hard-coded answer", expect="hard-coded",
         id="qkv.hard-coded",
         code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    q = np.array([[1.5, 0.0], [0.0, 1.5], [1.0, 1.0]])
    k = np.array([[1.0, 0.5], [0.5, 1.0], [1.0, 1.0]])
    v = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    return q, k, v
'''),
    # Exercise 2: cross-attention projections
    dict(exercise="ex2", kind="K from the decoder", expect="K taken from the wrong sequence",
         id="qkv.k-from-decoder",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, x_dec @ w_k, x_enc @ w_v
'''),
    dict(exercise="ex2", kind="self-attention on the decoder", expect="wrong sequence",
         id="qkv.k-from-decoder",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, x_dec @ w_k, x_dec @ w_v
'''),
    dict(exercise="ex2", kind="Q from the encoder", expect="queries come from the decoder",
         id="qkv.q-from-encoder",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_enc @ w_q, x_enc @ w_k, x_enc @ w_v
'''),
    dict(exercise="ex2", kind="roles of the sequences reversed",
         expect="queries come from the decoder",
         id="qkv.q-from-encoder",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_enc @ w_q, x_dec @ w_k, x_dec @ w_v
'''),
    dict(exercise="ex2", kind="K and V swapped", expect="K and V are swapped",
         id="qkv.k-v-swapped",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, x_enc @ w_v, x_enc @ w_k
'''),
    # Exercise 3: fuse the weights
    dict(exercise="ex3", kind="concatenated along axis 0", expect="along axis 1",
         id="qkv.fused-along-rows",
         code='''def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q, w_k, w_v], axis=0)
'''),
    dict(exercise="ex3", kind="wrong block order", expect="[K | Q | V]",
         id="qkv.fused-block-order",
         code='''def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_k, w_q, w_v], axis=1)
'''),
    dict(exercise="ex3", kind="torch (out, in) layout", expect="(out, in)",
         id="qkv.fused-out-in-layout",
         code='''def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q.T, w_k.T, w_v.T], axis=0)
'''),
    dict(exercise="ex3", kind="added instead of fused", expect="you added the three matrices",
         id="qkv.fused-summed",
         code='''def fuse_weights(w_q, w_k, w_v):
    return w_q + w_k + w_v
'''),
    dict(exercise="ex3", kind="returns the three", expect="return one matrix",
         id="qkv.fuse-several-results",
         code='''def fuse_weights(w_q, w_k, w_v):
    return w_q, w_k, w_v
'''),
    # Exercise 4: split a fused projection
    dict(exercise="ex4", kind="equal thirds", expect="three equal parts",
         id="qkv.split-equal-thirds",
         code='''def split_qkv(qkv, d_k, d_v):
    return tuple(np.split(qkv, 3, axis=1))
'''),
    dict(exercise="ex4", kind="split along the token axis", expect="token axis",
         id="qkv.split-token-axis",
         code='''def split_qkv(qkv, d_k, d_v):
    return tuple(np.array_split(qkv, 3, axis=0))
'''),
    dict(exercise="ex4", kind="rows sliced instead of columns", expect="token axis",
         id="qkv.split-token-axis",
         code='''def split_qkv(qkv, d_k, d_v):
    return qkv[:d_k], qkv[d_k : 2 * d_k], qkv[2 * d_k :]
'''),
    dict(exercise="ex4", kind="layout read as Q V K", expect="[Q | V | K]",
         id="qkv.split-read-as-qvk",
         code='''def split_qkv(qkv, d_k, d_v):
    return qkv[:, :d_k], qkv[:, d_k + d_v :], qkv[:, d_k : d_k + d_v]
'''),
    dict(exercise="ex4", kind="v keeps K's columns", expect="also contains K",
         id="qkv.split-v-keeps-k",
         code='''def split_qkv(qkv, d_k, d_v):
    return qkv[:, :d_k], qkv[:, d_k : 2 * d_k], qkv[:, d_k:]
'''),
    dict(exercise="ex4", kind="assumes d_v == d_k", expect="assumed d_v == d_k",
         id="qkv.split-assumes-equal-widths",
         code='''def split_qkv(qkv, d_k, d_v):
    return qkv[:, :d_k], qkv[:, d_k : 2 * d_k], qkv[:, 2 * d_k : 3 * d_k]
'''),
    # Exercise 5: widths and shapes
    dict(exercise="ex5", kind="rejects d_v != d_k", expect="need not equal d_k",
         id="qkv.valid-input-rejected",
         code='''def attention_shapes(q, k, v):
    if not q.shape[-1] == k.shape[-1] == v.shape[-1]:
        raise ValueError(f"widths differ: q {q.shape[-1]}, k {k.shape[-1]}, v {v.shape[-1]}")
    return (q.shape[0], k.shape[0]), (q.shape[0], v.shape[-1])
'''),
    dict(exercise="ex5", kind="rejects T_q != T_k", expect="may differ",
         id="qkv.valid-input-rejected",
         code='''def attention_shapes(q, k, v):
    if q.shape != k.shape:
        raise ValueError(f"q width {q.shape[-1]} and k width {k.shape[-1]}: shapes must match")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v lengths differ")
    return (q.shape[0], k.shape[0]), (q.shape[0], v.shape[-1])
'''),
    dict(exercise="ex5", kind="square scores", expect="only self-attention is square",
         id="qkv.scores-square",
         code='''def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q width {q.shape[-1]} does not match k width {k.shape[-1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v lengths differ")
    return (q.shape[0], q.shape[0]), (q.shape[0], v.shape[-1])
'''),
    dict(exercise="ex5", kind="output has width d_k", expect="width d_v",
         id="qkv.output-width-d-k",
         code='''def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q width {q.shape[-1]} does not match k width {k.shape[-1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v lengths differ")
    return (q.shape[0], k.shape[0]), (q.shape[0], k.shape[-1])
'''),
    dict(exercise="ex5", kind="checks q against v", expect="nothing was raised",
         id="generic.no-exception",
         code='''def attention_shapes(q, k, v):
    if q.shape[-1] != v.shape[-1] and q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q width {q.shape[-1]} does not match k width {k.shape[-1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v lengths differ")
    return (q.shape[0], k.shape[0]), (q.shape[0], v.shape[-1])
'''),
    dict(exercise="ex5", kind="vague error message", expect="name both widths",
         id="qkv.vague-error-message",
         code='''def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError("bad shapes")
    if k.shape[0] != v.shape[0]:
        raise ValueError("bad shapes")
    return (q.shape[0], k.shape[0]), (q.shape[0], v.shape[-1])
'''),
    dict(exercise="ex5", kind="lets the matmul fail", expect="name both widths",
         id="qkv.vague-error-message",
         code='''def attention_shapes(q, k, v):
    out = (q @ k.T) @ v
    return (q.shape[0], k.shape[0]), out.shape
'''),
    dict(exercise="ex5", kind="no k/v length check", expect="each key position",
         id="generic.no-exception",
         code='''def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q width {q.shape[-1]} does not match k width {k.shape[-1]}")
    return (q.shape[0], k.shape[0]), (q.shape[0], v.shape[-1])
'''),
    # Exercise 6: parameter count
    dict(exercise="ex6", kind="one W_Q per token", expect="one W_Q serves every token",
         id="qkv.count-grows-with-t",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return T * n_layers * n_heads * d_model * (2 * d_k + d_v)
'''),
    dict(exercise="ex6", kind="layers share weights", expect="each layer has its own",
         id="qkv.count-layers-shared",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_heads * d_model * (2 * d_k + d_v)
'''),
    dict(exercise="ex6", kind="heads share weights", expect="each head has its own",
         id="qkv.count-heads-shared",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * d_model * (2 * d_k + d_v)
'''),
    dict(exercise="ex6", kind="d_v taken as d_k", expect="W_V is (d_model, d_v)",
         id="qkv.count-v-as-k",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * 3 * d_model * d_k
'''),
    dict(exercise="ex6", kind="full-width projections per head", expect="its own width d_k",
         id="qkv.count-full-width",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * 3 * d_model * d_model
'''),
]

MISTAKES += [
    dict(exercise="ex1", kind="normalised over the tokens", expect="mixes tokens",
         id="qkv.mixes-tokens",
         code='''def project_qkv(x, w_q, w_k, w_v):
    x = x / x.sum(axis=0, keepdims=True)
    return x @ w_q, x @ w_k, x @ w_v
'''),
    dict(exercise="ex1", kind="a bias of 1 added", expect="plus 1",
         id="generic.constant-offset",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x @ w_q + 1, x @ w_k + 1, x @ w_v + 1
'''),
    dict(exercise="ex1", kind="scaled by sqrt(d_model)", expect="÷ √d_model",
         id="generic.constant-factor",
         code='''def project_qkv(x, w_q, w_k, w_v):
    s = np.sqrt(x.shape[1])
    return x @ w_q / s, x @ w_k / s, x @ w_v / s
'''),
    dict(exercise="ex1", kind="q mixed with k", expect="also with w_k",
         id="qkv.weights-mixed",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x @ (w_q + w_k) / 2, x @ w_k, x @ w_v
'''),
    dict(exercise="ex2", kind="Q projected with W_K", expect="same weight matrix",
         id="qkv.one-weight-shared",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_k, x_enc @ w_k, x_enc @ w_v
'''),
    dict(exercise="ex2", kind="k transposed", expect="transpose",
         id="qkv.transposed",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, (x_enc @ w_k).T, x_enc @ w_v
'''),
    dict(exercise="ex2", kind="encoder summary added to q", expect="queries come from the decoder",
         id="qkv.q-from-encoder",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return (x_dec + x_enc.mean(axis=0)) @ w_q, x_enc @ w_k, x_enc @ w_v
'''),
    dict(exercise="ex2", kind="V from both sequences",
         expect="V taken in part from the wrong sequence",
         id="qkv.v-from-decoder",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, x_enc @ w_k, x_enc @ w_v + x_dec.mean()
'''),
    dict(exercise="ex3", kind="stacked into 3-D", expect="stacked",
         id="qkv.fused-stacked",
         code='''def fuse_weights(w_q, w_k, w_v):
    return np.stack([w_q, w_k, w_v])
'''),
    dict(exercise="ex3", kind="K block used twice", expect="hold W_K",
         id="qkv.fused-block-order",
         code='''def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q, w_k, w_k], axis=1)
'''),
    dict(exercise="ex3", kind="transposed blocks side by side", expect="which is d_k",
         id="generic.wrong-size",
         code='''def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q.T, w_k.T, w_v.T], axis=1)
'''),
    dict(exercise="ex3", kind="Q V K order", expect="[Q | V | K]",
         id="qkv.fused-block-order",
         code='''def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q, w_v, w_k], axis=1)
'''),
    dict(exercise="ex4", kind="off by one after Q", expect="holds columns",
         id="qkv.split-wrong-columns",
         code='''def split_qkv(qkv, d_k, d_v):
    return qkv[:, :d_k], qkv[:, d_k + 1 : 2 * d_k + 1], qkv[:, 2 * d_k + 1 :]
'''),
    dict(exercise="ex4", kind="cuts at d_k and d_k + d_v", expect="holds columns",
         id="qkv.split-wrong-columns",
         code='''def split_qkv(qkv, d_k, d_v):
    return tuple(np.split(qkv, [d_k, d_k + d_v], axis=1))
'''),
    dict(exercise="ex4", kind="integer index for width 1", expect="drops the axis",
         id="qkv.split-axis-dropped",
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, 0] if d_k == 1 else qkv[:, :d_k]
    return q, qkv[:, d_k : 2 * d_k], qkv[:, 2 * d_k :]
'''),
    dict(exercise="ex5", kind="output transposed", expect="transposed",
         id="qkv.output-transposed",
         code='''def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q width {q.shape[-1]} does not match k width {k.shape[-1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("k and v lengths differ")
    return (q.shape[0], k.shape[0]), (v.shape[-1], q.shape[0])
'''),
    dict(exercise="ex5", kind="T_v compared with T_q", expect="each key position",
         id="generic.no-exception",
         code='''def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q width {q.shape[-1]} does not match k width {k.shape[-1]}")
    if k.shape[0] != v.shape[0] and q.shape[0] != v.shape[0]:
        raise ValueError("k and v lengths differ")
    return (q.shape[0], k.shape[0]), (q.shape[0], v.shape[-1])
'''),
    dict(exercise="ex6", kind="biases counted", expect="no biases",
         id="qkv.count-biases",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * (d_model + 1) * (2 * d_k + d_v)
'''),
    dict(exercise="ex6", kind="W_K forgotten", expect="counted two matrices",
         id="qkv.count-two-matrices",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * d_model * (d_k + d_v)
'''),
    dict(exercise="ex6", kind="heads added, not multiplied", expect="doubling n_heads",
         id="qkv.count-heads-shared",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * (n_heads + 1) * d_model * (2 * d_k + d_v)
'''),
    # ---- held-out answers (round 2): each was caught without its mistake named, or passed
    dict(exercise="ex1", kind="held-out: tuple order q v k", expect="wrong order",
         id="qkv.k-v-swapped",
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    k = x @ w_k
    v = x @ w_v
    return q, v, k
'''),
    dict(exercise="ex1", kind="held-out: global weights",
         expect="not with the weights you were given",
         id="qkv.global-weights",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x @ W_Q, x @ W_K, x @ W_V
'''),
    dict(exercise="ex1", kind="held-out: math convention W x", expect="rows are tokens",
         id="qkv.transposed",
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = w_q.T @ x.T
    k = w_k.T @ x.T
    v = w_v.T @ x.T
    return q, k, v
'''),
    dict(exercise="ex1", kind="held-out: torch Linear convention", expect="transposed weights",
         id="qkv.weight-transposed",
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q.T
    k = x @ w_k.T
    v = x @ w_v.T
    return q, k, v
'''),
    dict(exercise="ex1", kind="held-out: one shared weight", expect="same weight matrix",
         id="qkv.one-weight-shared",
         code='''def project_qkv(x, w_q, w_k, w_v):
    q = x @ w_q
    return q, q, q
'''),
    dict(exercise="ex2", kind="held-out: k from decoder", expect="the keys come from the encoder",
         id="qkv.k-from-decoder",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_dec @ w_k
    v = x_enc @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="held-out: v from decoder", expect="the values come from the encoder",
         id="qkv.v-from-decoder",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_enc @ w_k
    v = x_dec @ w_v
    return q, k, v
'''),
    dict(exercise="ex2", kind="held-out: k v weights swapped",
         expect="used w_v for k and w_k for v",
         id="qkv.k-v-swapped",
         code='''def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    q = x_dec @ w_q
    k = x_enc @ w_v
    v = x_enc @ w_k
    return q, k, v
'''),
    dict(exercise="ex3", kind="held-out: interleaved columns", expect="interleaved the columns",
         id="qkv.fused-columns-shuffled",
         code='''import numpy as np


def fuse_weights(w_q, w_k, w_v):
    d_k = w_q.shape[1]
    cols = []
    for c in range(d_k):
        cols += [w_q[:, c], w_k[:, c]]
    cols += [w_v[:, c] for c in range(w_v.shape[1])]
    return np.stack(cols, axis=1)
'''),
    dict(exercise="ex4", kind="held-out: k cut with d_v", expect="which is d_v",
         id="qkv.split-wrong-columns",
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    k = qkv[:, d_k:d_k + d_v]
    v = qkv[:, d_k + d_v:]
    return q, k, v
'''),
    dict(exercise="ex4", kind="held-out: off by one cut", expect="off-by-one",
         id="qkv.split-wrong-columns",
         code='''def split_qkv(qkv, d_k, d_v):
    q = qkv[:, :d_k]
    k = qkv[:, d_k:2 * d_k + 1]
    v = qkv[:, 2 * d_k + 1:]
    return q, k, v
'''),
    dict(exercise="ex5", kind="held-out: no T_k T_v check", expect="one value per key",
         id="generic.no-exception",
         code='''def attention_shapes(q, k, v):
    T_q, d_q = q.shape
    T_k, d_k = k.shape
    T_v, d_v = v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    return (T_q, T_k), (T_q, d_v)
'''),
    dict(exercise="ex6", kind="held-out: heads plus layers", expect="instead of multiplying",
         id="qkv.count-heads-plus-layers",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    per_matrix_set = d_model * (2 * d_k + d_v)
    return (n_heads + n_layers) * per_matrix_set
'''),
    # ---- one named wrong answer for each diagnosis id no entry above reaches
    dict(exercise="ex5", kind="TypeError for bad widths", expect="expected ValueError",
         id="generic.wrong-exception",
         code='''def attention_shapes(q, k, v):
    (T_q, d_q), (T_k, d_k), (T_v, d_v) = q.shape, k.shape, v.shape
    if d_q != d_k:
        raise TypeError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise TypeError(f"k has {T_k} positions but v has {T_v}")
    return (T_q, T_k), (T_q, d_v)
'''),
    dict(exercise="ex1", kind="Q and V swapped", expect="q and v are swapped",
         id="qkv.q-v-swapped",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return x @ w_v, x @ w_k, x @ w_q
'''),
    dict(exercise="ex1", kind="parameters in the wrong order", expect="wrong matrix",
         id="qkv.wrong-weight",
         code='''def project_qkv(x, w_k, w_v, w_q):
    return x @ w_q, x @ w_k, x @ w_v
'''),
    dict(exercise="ex1", kind="returns the weights", expect="stays the same when x changes",
         id="qkv.ignores-x",
         code='''def project_qkv(x, w_q, w_k, w_v):
    return w_q, w_k, w_v
'''),
    dict(exercise="ex1", kind="returns one fused matrix", expect="return the tuple",
         id="qkv.not-a-tuple",
         code='''import numpy as np


def project_qkv(x, w_q, w_k, w_v):
    return np.concatenate([x @ w_q, x @ w_k, x @ w_v], axis=1)
'''),
    dict(exercise="ex4", kind="q and k blocks swapped", expect="second block, which holds K",
         id="qkv.split-block-order",
         code='''def split_qkv(qkv, d_k, d_v):
    return qkv[:, d_k : 2 * d_k], qkv[:, :d_k], qkv[:, 2 * d_k :]
'''),
    dict(exercise="ex5", kind="returns the matrices, not their shapes", expect="expected a shape",
         id="qkv.shape-not-a-tuple",
         code='''def attention_shapes(q, k, v):
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"q width {q.shape[1]} does not match k width {k.shape[1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("one value per key")
    scores = q @ k.T
    return scores, scores @ v
'''),
    dict(exercise="ex5", kind="scores keep the d_k axis", expect="expected 2 numbers",
         id="qkv.shape-wrong-length",
         code='''def attention_shapes(q, k, v):
    (T_q, d_q), (T_k, d_k), (T_v, d_v) = q.shape, k.shape, v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError("one value per key")
    return (T_q, T_k, d_k), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="scores as q transposed times k", expect="its T_q entry is 2",
         id="qkv.shape-wrong-size",
         code='''def attention_shapes(q, k, v):
    (T_q, d_q), (T_k, d_k), (T_v, d_v) = q.shape, k.shape, v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError("one value per key")
    return (q.T @ k).shape, (T_q, d_v)
'''),
    dict(exercise="ex5", kind="scores as k times q transposed", expect="rows are queries",
         id="qkv.scores-transposed",
         code='''def attention_shapes(q, k, v):
    (T_q, d_q), (T_k, d_k), (T_v, d_v) = q.shape, k.shape, v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError("one value per key")
    return (T_k, T_q), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="square scores over the keys", expect="one row per query",
         id="qkv.scores-t-k-rows",
         code='''def attention_shapes(q, k, v):
    (T_q, d_q), (T_k, d_k), (T_v, d_v) = q.shape, k.shape, v.shape
    if d_q != d_k:
        raise ValueError(f"q width {d_q} does not match k width {d_k}")
    if T_k != T_v:
        raise ValueError("one value per key")
    return (T_k, T_k), (T_q, d_v)
'''),
    dict(exercise="ex5", kind="scores shaped like q", expect="that is q's shape",
         id="qkv.scores-shape-of-q",
         code='''def attention_shapes(q, k, v):
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"q width {q.shape[1]} does not match k width {k.shape[1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("one value per key")
    return q.shape, (q.shape[0], v.shape[1])
'''),
    dict(exercise="ex5", kind="scores shaped like the output", expect="one column per key",
         id="qkv.scores-width-d-v",
         code='''def attention_shapes(q, k, v):
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"q width {q.shape[1]} does not match k width {k.shape[1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("one value per key")
    out = (q.shape[0], v.shape[1])
    return out, out
'''),
    dict(exercise="ex5", kind="output shaped like v", expect="one output row per query",
         id="qkv.output-t-k-rows",
         code='''def attention_shapes(q, k, v):
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"q width {q.shape[1]} does not match k width {k.shape[1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("one value per key")
    return (q.shape[0], k.shape[0]), v.shape
'''),
    dict(exercise="ex5", kind="output shaped like the scores", expect="the weights' shape",
         id="qkv.output-is-weights",
         code='''def attention_shapes(q, k, v):
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"q width {q.shape[1]} does not match k width {k.shape[1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError("one value per key")
    scores = (q.shape[0], k.shape[0])
    return scores, scores
'''),
    dict(exercise="ex6", kind="one head of one layer", expect="one head of one layer",
         id="qkv.count-one-head",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return d_model * (2 * d_k + d_v)
'''),
    dict(exercise="ex6", kind="one matrix per head", expect="one matrix per head",
         id="qkv.count-one-matrix",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * d_model * d_k
'''),
    dict(exercise="ex6", kind="W_K of width d_v", expect="W_K with width d_v",
         id="qkv.count-k-as-v",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * d_model * (d_k + 2 * d_v)
'''),
    dict(exercise="ex6", kind="the three matrices' counts, not their total",
         expect="return one number",
         id="qkv.count-not-a-number",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    per_matrix = n_layers * n_heads * d_model
    return [per_matrix * d_k, per_matrix * d_k, per_matrix * d_v]
'''),
    dict(exercise="ex6", kind="float arithmetic, d_k factored out", expect="from the exact count",
         id="qkv.count-off",
         code='''def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * d_model * d_k * (2 + d_v / d_k)
'''),
]
