"""Held-out answers for exercises/08_architectures.ipynb, written from the exercise texts alone."""

WRONG = [
    dict(exercise="ex1", kind="queries from memory", mistake="takes the queries from the encoder memory and the keys and values from the decoder states",
         names=["queries", "decoder positions", "swapped", "from the decoder", "from the source"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(memory @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="self-attention on decoder", mistake="ignores memory and runs self-attention on the decoder states",
         names=["memory", "encoder output", "self-attention", "keys and values", "source"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, x_dec @ W_k, x_dec @ W_v
    out, w = attention(q, k, v)
    return out, w
'''),
    dict(exercise="ex1", kind="tuple order swapped", mistake="returns (weights, out) instead of (out, weights)",
         names=["order", "(out, weights)", "swapped", "tuple"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, weights = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return weights, out
'''),
    dict(exercise="ex1", kind="causal mask added", mistake="adds a causal (lower-triangular) mask although the whole source may be read",
         names=["no mask", "causal", "whole source", "mask"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    T_dec, T_enc = x_dec.shape[0], memory.shape[0]
    mask = np.tril(np.ones((T_dec, T_enc), dtype=bool))
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, mask=mask)
'''),
    dict(exercise="ex1", kind="scaled by sqrt(d_model)", mistake="passes scale 1/sqrt(d_model) instead of leaving the default 1/sqrt(d_k)",
         names=["√d_k", "sqrt(d_k)", "d_model", "scale"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, scale=1 / np.sqrt(x_dec.shape[-1]))
'''),
    dict(exercise="ex1", kind="values from decoder", mistake="takes the values from the decoder states instead of the memory",
         names=["values", "memory", "source", "w_v"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise="ex2", kind="inputs and targets swapped", mistake="uses the later tokens as inputs and the earlier ones as targets",
         names=["swapped", "follows", "shifted the wrong way", "window[:, 1:]", "window[:, :-1]"],
         code='''def next_token_pairs(window):
    return window[:, 1:], window[:, :-1]
'''),
    dict(exercise="ex2", kind="sliced batch axis", mistake="slices axis 0 (the batch) instead of axis 1 (the positions)",
         names=["axis 1", "position axis", "batch axis", "axis 0"],
         code='''def next_token_pairs(window):
    inputs = window[:-1]
    targets = window[1:]
    return inputs, targets
'''),
    dict(exercise="ex2", kind="roll wraps around", mistake="rolls the inputs by one so the last target wraps round to the first token instead of the window's last token",
         names=["roll", "wrap", "last token", "last target"],
         code='''def next_token_pairs(window):
    inputs = window[:, :-1]
    targets = torch.roll(inputs, shifts=-1, dims=1)
    return inputs, targets
'''),
    dict(exercise="ex2", kind="returns targets first", mistake="returns (targets, inputs) instead of (inputs, targets)",
         names=["order", "(inputs, targets)", "tuple"],
         code='''def next_token_pairs(window):
    inputs, targets = window[:, :-1], window[:, 1:]
    return targets, inputs
'''),
    dict(exercise="ex2", kind="hard-coded T", mistake="hard-codes the window length 10 of the example instead of using the window's shape",
         names=["hard-coded", "window.shape", "any t", "length"],
         code='''def next_token_pairs(window):
    return window[:, 0:9], window[:, 1:10]
'''),
    dict(exercise="ex3", kind="log_softmax over positions", mistake="takes log_softmax over the position axis instead of the vocabulary axis",
         names=["vocabulary axis", "dim=-1", "last axis", "over positions", "axis"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=1)
    return -logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    dict(exercise="ex3", kind="sum not mean", mistake="sums the negative log-probabilities instead of averaging them",
         names=["mean", "sum", "b·t", "average"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets[..., None]).sum()
'''),
    dict(exercise="ex3", kind="missing minus", mistake="forgets the minus sign, returning the mean log-probability",
         names=["minus", "sign", "negative", "−log", "-log"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(2, targets.unsqueeze(2)).squeeze(2).mean()
'''),
    dict(exercise="ex3", kind="raw logits gathered", mistake="picks the raw logits of the targets, skipping the log_softmax",
         names=["log_softmax", "log-softmax", "normalis", "raw logits"],
         code='''def next_token_loss(logits, targets):
    return -logits.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    dict(exercise="ex3", kind="unstable exp-log", mistake="computes log(exp(l) / sum exp(l)) directly, which overflows to nan/inf for large logits",
         names=["overflow", "stable", "log_softmax", "large logits", "nan"],
         code='''def next_token_loss(logits, targets):
    e = torch.exp(logits)
    p = e / e.sum(dim=-1, keepdim=True)
    return -torch.log(p.gather(-1, targets.unsqueeze(-1))).mean()
'''),
    dict(exercise="ex3", kind="mean of sequence sums", mistake="sums over positions and averages over the batch only",
         names=["mean over", "b·t", "all positions", "every position", "b*t"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, -1)
    picked = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -picked.sum(dim=1).mean()
'''),
    dict(exercise="ex3", kind="cross_entropy under alias", mistake="calls the library cross-entropy (imported under an alias) instead of writing it by hand",
         names=["by hand", "cross_entropy", "log_softmax", "library"],
         code='''from torch.nn.functional import cross_entropy as ce


def next_token_loss(logits, targets):
    return ce(logits.flatten(0, 1), targets.flatten())
'''),
    dict(exercise="ex4", kind="compares position j too", mistake="compares the positions up to and including j, which may legitimately read token j",
         names=["before j", "position j", "including j", "allowed to read"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V, T = base.shape[-1], ids.shape[1]
    for j in range(1, T):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        out = model_fn(changed)
        if not torch.allclose(out[:, : j + 1], base[:, : j + 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="changes ids in place", mistake="changes the tokens of ids itself instead of a copy, so the changes accumulate",
         names=["copy", "clone", "in place", "accumulate"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        ids[0, j] = (ids[0, j] + 1) % V
        if not torch.allclose(model_fn(ids)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="only the last token", mistake="changes only the last token, so a position that peeks at a nearer token is missed",
         names=["every later token", "each j", "last token only", "j = 1", "all j"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    j = ids.shape[1] - 1
    other = ids.clone()
    other[0, j] = (other[0, j] + 1) % base.shape[-1]
    return not torch.allclose(model_fn(other)[:, :j], base[:, :j])
'''),
    dict(exercise="ex4", kind="only position j-1", mistake="compares only the position just before j, so a peek several tokens ahead is missed",
         names=["any position", "all positions before", "j - 1", "four tokens ahead", "only the previous"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        c = ids.clone()
        c[0, j] = (c[0, j] + 1) % V
        if not torch.allclose(model_fn(c)[:, j - 1], base[:, j - 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares positions after j", mistake="compares positions after j, which are allowed to move, instead of those before it",
         names=["before j", "after j", "allowed to move", "positions j"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        c = ids.clone()
        c[0, j] = (c[0, j] + 1) % V
        if not torch.allclose(model_fn(c)[:, j:], base[:, j:]):
            return True
    return False
'''),
    dict(exercise="ex5", kind="keys only", mistake="counts only the keys in the cache, forgetting the values",
         names=["values", "key and a value", "factor 2", "twice", "keys and values"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="scores for all layers", mistake="multiplies the score memory by n_layers although only one layer's weights exist at a time",
         names=["one layer", "layer by layer", "n_layers", "freed"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_layers * n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="cache times heads", mistake="multiplies the cache by n_heads although d_model already covers all heads together",
         names=["all heads together", "n_heads", "d_head", "per head"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * n_heads * T * d_model * bytes_per_number
    return kv, n_heads * T ** 2 * bytes_per_number
'''),
    dict(exercise="ex5", kind="scores without heads", mistake="counts one T x T matrix for the layer instead of one per head",
         names=["per head", "n_heads", "all heads", "(h, t, t)"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return 2 * n_layers * T * d_model * bytes_per_number, T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="float result", mistake="computes with d_model / n_heads and returns floats instead of ints",
         names=["int", "whole number", "float"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model / n_heads
    kv = 2 * n_layers * T * n_heads * d_head * bytes_per_number
    scores = n_heads * T * T * bytes_per_number / 1
    return kv, scores
'''),
    dict(exercise="ex5", kind="cache of one layer", mistake="gives the cache of one layer instead of the whole model",
         names=["whole model", "every layer", "n_layers", "all layers"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return int(kv), int(scores)
'''),
]

VALID = [
    dict(exercise="ex1", kind="by hand softmax", code='''import numpy as np


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = memory @ W_v
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - s.max(axis=1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="einsum projections", code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = np.einsum("td,dk->tk", x_dec, W_q)
    k = np.einsum("sd,dk->sk", memory, W_k)
    v = np.einsum("sd,dv->sv", memory, W_v)
    out, weights = attention(q, k, v, mask=None)
    return out, weights
'''),
    dict(exercise="ex2", kind="narrow", code='''def next_token_pairs(window):
    T = window.shape[1] - 1
    return window.narrow(1, 0, T), window.narrow(1, 1, T)
'''),
    dict(exercise="ex2", kind="explicit end indices", code='''def next_token_pairs(window):
    n = window.size(1)
    inputs = window[:, 0 : n - 1].clone()
    targets = window[:, 1:n].clone()
    return inputs, targets
'''),
    dict(exercise="ex3", kind="arange indexing", code='''def next_token_loss(logits, targets):
    B, T, V = logits.shape
    logp = torch.log_softmax(logits.reshape(B * T, V), dim=-1)
    picked = logp[torch.arange(B * T), targets.reshape(-1)]
    return -picked.mean()
'''),
    dict(exercise="ex3", kind="logsumexp minus picked", code='''def next_token_loss(logits, targets):
    lse = torch.logsumexp(logits, dim=-1)
    chosen = torch.take_along_dim(logits, targets.unsqueeze(-1), dim=-1).squeeze(-1)
    return (lse - chosen).mean()
'''),
    dict(exercise="ex4", kind="any over positions with flag", code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        found = False
        for j in range(1, ids.shape[-1]):
            probe = ids.clone()
            probe[0, j] = (probe[0, j] + 1) % V
            after = model_fn(probe)
            for t in range(j):
                if not torch.allclose(after[0, t], base[0, t]):
                    found = True
        return found
'''),
    dict(exercise="ex4", kind="torch.where probe", code='''def leaks(model_fn, ids):
    base = model_fn(ids).detach()
    V = base.shape[-1]
    T = ids.shape[1]
    pos = torch.arange(T)
    for j in range(T - 1, 0, -1):
        probe = torch.where(pos == j, (ids + 1) % V, ids)
        if (model_fn(probe).detach()[:, :j] - base[:, :j]).abs().max() > 1e-5:
            return True
    return False
'''),
    dict(exercise="ex5", kind="via d_head", code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model // n_heads
    per_token_per_layer = 2 * n_heads * d_head
    kv = n_layers * T * per_token_per_layer * bytes_per_number
    score = n_heads * T * T * bytes_per_number
    return int(kv), int(score)
'''),
]
