"""Held-out answers for exercises/08_architectures.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 cross_attention
    dict(exercise="ex1", kind="queries from memory",
         mistake="takes the queries from the encoder memory and the keys and values from the decoder states",
         names=["swapped", "queries come from the decoder", "queries from the decoder", "q from memory", "the other way round"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = memory @ W_q
    k = x_dec @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise="ex1", kind="values from decoder",
         mistake="projects the values from the decoder states instead of from the memory",
         names=["values", "v from", "values from the memory", "values describe the source", "x_dec @ w_v"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise="ex1", kind="causal mask",
         mistake="applies a causal mask over the source although the whole encoder output may be read",
         names=["mask", "causal", "no mask", "whole source"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    mask = np.tril(np.ones((len(x_dec), len(memory)), dtype=bool))
    return attention(q, k, v, mask=mask)
'''),
    dict(exercise="ex1", kind="tuple order",
         mistake="returns (weights, out) instead of (out, weights)",
         names=["order", "(out, weights)", "swapped", "tuple"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, weights = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return weights, out
'''),
    dict(exercise="ex1", kind="self-attention",
         mistake="computes self-attention on the decoder states and never reads the memory",
         names=["self-attention", "memory", "encoder output", "keys and values", "source"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="scaled twice",
         mistake="divides the queries by sqrt(d_k) before calling attention, which already scales, so the scores are scaled twice",
         names=["twice", "double", "already scales", "√d_k", "sqrt(d_k)"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    d_k = W_k.shape[1]
    q = x_dec @ W_q / np.sqrt(d_k)
    return attention(q, memory @ W_k, memory @ W_v)
'''),
    dict(exercise="ex1", kind="weights transposed",
         mistake="returns the weights transposed, (T_enc, T_dec), so the columns rather than the rows sum to 1",
         names=["transpose", "(t_dec, t_enc)", "rows", "columns"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, weights = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return out, weights.T
'''),
    # ---------------------------------------------------------------- ex2 next_token_pairs
    dict(exercise="ex2", kind="pair order swapped",
         mistake="returns (targets, inputs): the shifted slice first",
         names=["swapped", "order", "(inputs, targets)", "the other way round"],
         code='''def next_token_pairs(window):
    return window[:, 1:], window[:, :-1]
'''),
    dict(exercise="ex2", kind="sliced batch axis",
         mistake="slices axis 0, the batch, instead of axis 1, the positions",
         names=["axis 1", "position axis", "batch axis", "wrong axis", "axis 0"],
         code='''def next_token_pairs(window):
    return window[:-1], window[1:]
'''),
    dict(exercise="ex2", kind="no shift",
         mistake="uses the same slice for inputs and targets, so each position's target is itself",
         names=["shift", "offset by one", "the token that follows", "itself", "next token"],
         code='''def next_token_pairs(window):
    inputs = window[:, :-1]
    targets = window[:, :-1]
    return inputs, targets
'''),
    dict(exercise="ex2", kind="roll wraps",
         mistake="builds the targets by rolling the inputs, so the last target wraps around to the first token instead of the last one of the window",
         names=["wrap", "roll", "last token", "last target", "last position"],
         code='''def next_token_pairs(window):
    inputs = window[:, :-1]
    targets = torch.roll(inputs, shifts=-1, dims=1)
    return inputs, targets
'''),
    dict(exercise="ex2", kind="hard-coded T",
         mistake="hard-codes T = 8 instead of using the window's length",
         names=["hard-coded", "any t", "length", "window's length", "fixed"],
         code='''def next_token_pairs(window):
    return window[:, 0:8], window[:, 1:9]
'''),
    dict(exercise="ex2", kind="first sequence only",
         mistake="slices only the first sequence of the batch, dropping the batch axis",
         names=["batch", "(b, t)", "every sequence", "first sequence", "window[0"],
         code='''def next_token_pairs(window):
    seq = window[0]
    return seq[:-1], seq[1:]
'''),
    # ---------------------------------------------------------------- ex3 next_token_loss
    dict(exercise="ex3", kind="log_softmax over positions",
         mistake="takes log_softmax over the position axis (dim 1) instead of the vocabulary axis",
         names=["vocabulary axis", "wrong axis", "dim=-1", "over positions", "last axis"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=1)
    return -logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    dict(exercise="ex3", kind="missing minus",
         mistake="forgets the minus sign and returns the mean log-probability, a negative number",
         names=["sign", "minus", "negative", "−log", "-log"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    dict(exercise="ex3", kind="sum not mean",
         mistake="sums the negative log-probabilities over all positions instead of averaging them",
         names=["sum instead", "summed", "not the mean", "b·t", "b*t"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).sum()
'''),
    dict(exercise="ex3", kind="sum over T mean over B",
         mistake="sums over the positions of each sequence and averages only over the batch",
         names=["b·t", "b*t", "per sequence", "all positions", "over t"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    picked = logp.gather(2, targets[:, :, None]).squeeze(2)
    return -picked.sum(dim=1).mean()
'''),
    dict(exercise="ex3", kind="log of softmax",
         mistake="computes log(softmax(logits)) in two steps, which underflows to log 0 = -inf for large logits",
         names=["log_softmax", "unstable", "underflow", "log(softmax", "inf"],
         code='''def next_token_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    picked = probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -torch.log(picked).mean()
'''),
    dict(exercise="ex3", kind="fancy indexing broadcast",
         mistake="indexes the vocabulary axis with the whole targets tensor, which picks every target at every position instead of each position's own",
         names=["gather", "indexing", "each position's target", "its own target", "fancy"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp[:, :, targets].mean()
'''),
    dict(exercise="ex3", kind="raw logits",
         mistake="picks the target's raw logit without the log_softmax, so nothing normalises over the vocabulary",
         names=["log_softmax", "raw logit", "normalis", "softmax"],
         code='''def next_token_loss(logits, targets):
    return -logits.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    # ---------------------------------------------------------------- ex4 leaks
    dict(exercise="ex4", kind="modifies ids in place",
         mistake="changes the tokens on ids itself instead of a copy, so the changes pile up and earlier positions see them",
         names=["copy", "clone", "in place", "modifies ids", "changes pile up"],
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            ids[0, j] = (ids[0, j] + 1) % V
            out = model_fn(ids)
            if not torch.allclose(out[:, :j], base[:, :j]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="includes position j",
         mistake="compares positions up to and including j, although position j may read token j",
         names=["before j", "including j", "position j", "allowed to read", ":j+1"],
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (ids[0, j] + 1) % V
            out = model_fn(changed)
            if not torch.allclose(out[:, : j + 1], base[:, : j + 1]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="compares later positions",
         mistake="compares the positions after j instead of the positions before j",
         names=["before j", "after j", "later positions", "wrong side", "earlier positions"],
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (ids[0, j] + 1) % V
            out = model_fn(changed)
            if not torch.allclose(out[:, j + 1 :], base[:, j + 1 :]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="last token only",
         mistake="changes only the last token, so a position that peeks a few tokens ahead (not at the end) goes unnoticed",
         names=["every j", "each later token", "last token only", "only the last", "every later token"],
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        j = ids.shape[1] - 1
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        out = model_fn(changed)
        return not torch.allclose(out[:, :j], base[:, :j])
'''),
    dict(exercise="ex4", kind="range stops early",
         mistake="loops j over range(1, T - 1), never changing the last token",
         names=["last token", "range", "off by one", "t−1", "t-1"],
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        T = ids.shape[1]
        for j in range(1, T - 1):
            changed = ids.clone()
            changed[0, j] = (ids[0, j] + 1) % V
            out = model_fn(changed)
            if not torch.allclose(out[:, :j], base[:, :j]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="returns after first j",
         mistake="returns the comparison of the first j inside the loop, so only token 1 is ever tested",
         names=["first j", "returns too early", "every j", "j = 1", "inside the loop"],
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (ids[0, j] + 1) % V
            out = model_fn(changed)
            return not torch.allclose(out[:, :j], base[:, :j])
    return False
'''),
    dict(exercise="ex4", kind="inverted answer",
         mistake="returns False when a position moved and True when none did",
         names=["inverted", "true and false", "the other way round", "negat", "opposite"],
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (ids[0, j] + 1) % V
            if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
                return False
    return True
'''),
    dict(exercise="ex4", kind="sets token to 0",
         mistake="sets token j to 0 instead of a different id, so a token that already is 0 is not changed at all",
         names=["unchanged", "same token", "% v", "different token", "actually change"],
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = 0
            out = model_fn(changed)
            if not torch.allclose(out[:, :j], base[:, :j]):
                return True
    return False
'''),
    # ---------------------------------------------------------------- ex5 context_memory
    dict(exercise="ex5", kind="keys only",
         mistake="counts only the keys in the cache, not the keys and the values",
         names=["keys and values", "factor 2", "factor of 2", "twice", "values"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="scores of all layers",
         mistake="multiplies the score matrices by n_layers although dense attention frees them layer by layer",
         names=["one layer", "all layers", "n_layers", "layer by layer", "freed"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_layers * n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="cache times heads",
         mistake="multiplies the cache by n_heads although d_model already covers all heads together",
         names=["all heads together", "n_heads", "d_model already", "per head", "d_head"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * n_heads * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="scores one head",
         mistake="counts one T x T matrix instead of one per head",
         names=["heads", "n_heads", "per head", "every head", "one head"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="returns MiB",
         mistake="divides by 2**20 and returns MiB instead of bytes",
         names=["bytes", "mib", "units", "2**20", "1024"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv // 2**20, scores // 2**20
'''),
    dict(exercise="ex5", kind="scores ignore bytes",
         mistake="counts the score matrices in numbers, forgetting to multiply by bytes_per_number",
         names=["bytes_per_number", "bytes per number", "numbers, not bytes"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T
    return kv, scores
'''),
    dict(exercise="ex5", kind="float result",
         mistake="computes through d_head = d_model / n_heads with true division and returns floats, not ints",
         names=["int", "whole number", "float"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model / n_heads
    kv = 2 * n_layers * T * n_heads * d_head * bytes_per_number
    scores = n_heads * T * T * bytes_per_number / 1
    return kv, scores
'''),
    dict(exercise="ex5", kind="pair swapped",
         mistake="returns (score_bytes, kv_cache_bytes)",
         names=["order", "swapped", "(kv_cache_bytes, score_bytes)", "the other way round"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv_cache_bytes = 2 * n_layers * T * d_model * bytes_per_number
    score_bytes = n_heads * T * T * bytes_per_number
    return score_bytes, kv_cache_bytes
'''),
]

VALID = [
    dict(exercise="ex1", kind="softmax by hand", code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = memory @ W_v
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - s.max(axis=1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="einsum projections explicit scale", code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = np.einsum("td,dk->tk", x_dec, W_q)
    k = np.einsum("sd,dk->sk", memory, W_k)
    v = np.einsum("sd,dv->sv", memory, W_v)
    out, weights = attention(q, k, v, mask=None, scale=1.0 / np.sqrt(W_k.shape[1]))
    return out, weights
'''),
    dict(exercise="ex2", kind="narrow", code='''def next_token_pairs(window):
    T = window.shape[1] - 1
    return window.narrow(1, 0, T), window.narrow(1, 1, T)
'''),
    dict(exercise="ex2", kind="offset loop", code='''def next_token_pairs(window):
    T = window.size(1) - 1
    inputs, targets = (window[:, offset : offset + T].clone() for offset in (0, 1))
    return inputs, targets
'''),
    dict(exercise="ex3", kind="one-hot", code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    one_hot = torch.nn.functional.one_hot(targets, logits.shape[-1]).to(logp.dtype)
    return -(logp * one_hot).sum(dim=-1).mean()
'''),
    dict(exercise="ex3", kind="flatten and arange index", code='''def next_token_loss(logits, targets):
    V = logits.shape[-1]
    logp = torch.log_softmax(logits.reshape(-1, V), dim=1)
    flat = targets.reshape(-1)
    picked = logp[torch.arange(flat.numel()), flat]
    return -picked.sum() / flat.numel()
'''),
    dict(exercise="ex4", kind="backwards with torch.where", code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        T = ids.shape[1]
        positions = torch.arange(T)
        for j in reversed(range(1, T)):
            changed = torch.where(positions == j, (ids + 1) % V, ids)
            if not torch.allclose(model_fn(changed)[0, :j], base[0, :j]):
                return True
        return False
'''),
    dict(exercise="ex4", kind="any over generator", code='''def leaks(model_fn, ids):
    base = model_fn(ids).detach()
    V = base.shape[-1]

    def moved(j):
        copy = ids.detach().clone()
        copy[0, j] = (copy[0, j] + 1) % V
        return not torch.allclose(model_fn(copy).detach()[:, :j], base[:, :j])

    return bool(any(moved(j) for j in range(1, ids.shape[1])))
'''),
    dict(exercise="ex5", kind="per layer loop", code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv_numbers = 0
    for _ in range(n_layers):
        kv_numbers += T * d_model  # keys
        kv_numbers += T * d_model  # values
    score_numbers = sum(T * T for _ in range(n_heads))
    return int(kv_numbers * bytes_per_number), int(score_numbers * bytes_per_number)
'''),
    dict(exercise="ex5", kind="numpy prod", code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = np.prod([2, n_layers, T, d_model, bytes_per_number], dtype=np.int64)
    scores = np.prod([n_heads, T, T, bytes_per_number], dtype=np.int64)
    return int(kv), int(scores)
'''),
]
