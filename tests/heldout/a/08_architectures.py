"""Held-out answers for exercises/08_architectures.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1: cross_attention
    dict(exercise="ex1", kind="queries from memory", mistake="takes the queries from the encoder memory and the keys and values from the decoder states, the roles reversed",
         names=["queries from the memory", "queries come from the decoder", "roles reversed", "memory @ w_q"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = memory @ W_q
    k = x_dec @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise="ex1", kind="values from decoder", mistake="takes the values from the decoder states instead of from the memory",
         names=["values from the decoder", "values come from the memory", "memory @ w_v", "v from x_dec", "x_dec @ w_v"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise="ex1", kind="causal mask", mistake="adds a causal mask, hiding part of the source that the decoder may read in full",
         names=["mask", "causal", "whole source", "no mask"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    T_dec, T_enc = x_dec.shape[0], memory.shape[0]
    mask = np.tril(np.ones((T_dec, T_enc), dtype=bool))
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, mask=mask)
'''),
    dict(exercise="ex1", kind="tuple order", mistake="returns (weights, out) instead of (out, weights)",
         names=["wrong order", "weights first", "order of the pair", "(weights, out)"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, weights = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return weights, out
'''),
    dict(exercise="ex1", kind="self-attention", mistake="ignores the memory and computes self-attention over the decoder states",
         names=["self-attention", "ignores the memory", "encoder output", "memory is not used"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="W_k and W_v swapped", mistake="projects the keys with W_v and the values with W_k",
         names=["w_k and w_v", "w_v and w_k", "keys with w_v", "values with w_k"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    k = memory @ W_v
    v = memory @ W_k
    return attention(x_dec @ W_q, k, v)
'''),
    dict(exercise="ex1", kind="scaled by sqrt(d_model)", mistake="scales the scores by 1/√d_model instead of the default 1/√d_k",
         names=["√d_model", "sqrt(d_model)", "√d_k", "sqrt(d_k)", "scale"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    d_model = x_dec.shape[-1]
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, scale=1 / np.sqrt(d_model))
'''),
    dict(exercise="ex1", kind="weights transposed", mistake="returns the weights transposed, (T_enc, T_dec)",
         names=["transpose", "(t_enc, t_dec)", "rows and columns", "weights.t"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, weights = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return out, weights.T
'''),
    # ---------------------------------------------------------------- ex2: next_token_pairs
    dict(exercise="ex2", kind="tuple order", mistake="returns (targets, inputs) instead of (inputs, targets)",
         names=["wrong order", "(targets, inputs)", "targets first", "previous token"],
         code='''def next_token_pairs(window):
    return window[:, 1:], window[:, :-1]
'''),
    dict(exercise="ex2", kind="slices batch axis", mistake="slices axis 0, the batch, instead of axis 1, the positions",
         names=["axis 1", "batch axis", "position axis", "axis 0", "dim=1"],
         code='''def next_token_pairs(window):
    return window[:-1], window[1:]
'''),
    dict(exercise="ex2", kind="no shift", mistake="uses the same slice for inputs and targets, so every target is the token itself",
         names=["no shift", "not shifted", "the token itself", "same slice", "identical"],
         code='''def next_token_pairs(window):
    inputs = window[:, :-1]
    targets = window[:, :-1]
    return inputs, targets
'''),
    dict(exercise="ex2", kind="shift by two", mistake="offsets the targets by two positions instead of one",
         names=["by two", "offset by one", "t + 2", "two positions"],
         code='''def next_token_pairs(window):
    return window[:, :-2], window[:, 2:]
'''),
    dict(exercise="ex2", kind="roll wraps around", mistake="rolls the inputs by one, so the last target wraps around to the first token instead of the window's last token",
         names=["wrap", "roll", "last position", "last token", "first token"],
         code='''def next_token_pairs(window):
    inputs = window[:, :-1]
    targets = torch.roll(inputs, shifts=-1, dims=1)
    return inputs, targets
'''),
    dict(exercise="ex2", kind="hard-coded T", mistake="hard-codes T = 8 from an example instead of reading it from the window's shape",
         names=["hard-coded", "window.shape", "fixed length", "t = 8"],
         code='''def next_token_pairs(window):
    T = 8
    return window[:, :T], window[:, 1:T + 1]
'''),
    dict(exercise="ex2", kind="targets as float", mistake="converts the targets to floats, but they are token ids and must stay long",
         names=["torch.long", "dtype", "float", "integer ids"],
         code='''def next_token_pairs(window):
    return window[:, :-1], window[:, 1:].float()
'''),
    # ---------------------------------------------------------------- ex3: next_token_loss
    dict(exercise="ex3", kind="log_softmax over positions", mistake="takes log_softmax over dim=1, the positions, instead of the vocabulary axis",
         names=["vocabulary axis", "dim=-1", "dim=1", "over the positions", "wrong axis"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=1)
    return -logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    dict(exercise="ex3", kind="log of softmax", mistake="takes torch.log of torch.softmax, which underflows to -inf for large logits",
         names=["underflow", "numerically", "stable", "log(softmax", "torch.log"],
         code='''def next_token_loss(logits, targets):
    p = torch.softmax(logits, dim=-1)
    picked = p.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -torch.log(picked).mean()
'''),
    dict(exercise="ex3", kind="sum not mean", mistake="sums the losses over the positions instead of averaging them",
         names=["sum instead", "summed", "not the mean", "average", "divide by b·t"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).sum()
'''),
    dict(exercise="ex3", kind="missing minus", mistake="returns the mean log-probability without the minus sign",
         names=["sign", "minus", "negated", "the loss is negative", "flip"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    dict(exercise="ex3", kind="mean over vocabulary", mistake="averages the log-probabilities of every vocabulary entry instead of picking each position's target",
         names=["pick", "every vocabulary entry", "ignores the targets", "whole vocabulary", "all v"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.mean()
'''),
    dict(exercise="ex3", kind="raw logits", mistake="picks the target's raw logit without the log_softmax normalisation",
         names=["raw logit", "normalis", "normaliz", "logsumexp", "without log_softmax"],
         code='''def next_token_loss(logits, targets):
    return -logits.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    dict(exercise="ex3", kind="indexes with whole targets", mistake="indexes the vocabulary axis with the whole targets tensor, logp[:, :, targets], which pairs every position with every target",
         names=["indexing", "every target", "each position's own", "(b, t, b, t)", "logp[:, :, targets]"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp[:, :, targets].mean()
'''),
    dict(exercise="ex3", kind="first sequence only", mistake="computes the loss on the first sequence of the batch only",
         names=["first sequence", "b > 1", "only sequence 0", "logits[0]", "whole batch"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits[0], dim=-1)
    T = targets.shape[1]
    return -logp[torch.arange(T), targets[0]].mean()
'''),
    dict(exercise="ex3", kind="uses cross_entropy alias", mistake="calls the cross-entropy library function (under another name) instead of writing it by hand",
         names=["by hand", "cross_entropy", "not allowed", "library function"],
         code='''from torch.nn.functional import cross_entropy as ce


def next_token_loss(logits, targets):
    return ce(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
'''),
    # ---------------------------------------------------------------- ex4: leaks
    dict(exercise="ex4", kind="compares all positions", mistake="compares the logits at every position, including j and after, so even a causal model looks leaky",
         names=["j and after", "j onwards", "the whole logits", "all t positions", "including later positions"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        if not torch.allclose(model_fn(changed), base):
            return True
    return False
'''),
    dict(exercise="ex4", kind="includes position j", mistake="compares positions up to and including j, an off-by-one: position j may read token j",
         names=["including j", "position j itself", "off-by-one", "off by one", "up to j"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        if not torch.allclose(model_fn(changed)[:, :j + 1], base[:, :j + 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="changes ids in place", mistake="changes the tokens on ids itself, not a copy, so the changes pile up and earlier tokens stay changed",
         names=["copy", "clone", "in place", "in-place", "pile up"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        ids[0, j] = (ids[0, j] + 1) % V
        if not torch.allclose(model_fn(ids)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="only the last token", mistake="changes only the last token, so a peek at any earlier token goes unnoticed",
         names=["only the last token", "only changes the last", "every later token", "each later token"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    j = ids.shape[1] - 1
    changed = ids.clone()
    changed[0, j] = (ids[0, j] + 1) % V
    return not torch.allclose(model_fn(changed)[:, :j], base[:, :j])
'''),
    dict(exercise="ex4", kind="only position j-1", mistake="compares only the position just before j, missing a position that peeks several tokens ahead",
         names=["j - 1", "j-1", "just before j", "any position before", "all positions before"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        if not torch.allclose(model_fn(changed)[:, j - 1], base[:, j - 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="inverted result", mistake="returns True when the earlier logits stay the same, the answer inverted",
         names=["inverted", "the other way round", "opposite", "true when", "negat"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        if torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares positions after j", mistake="compares the positions after j, which may read token j, instead of those before it",
         names=["after j", "wrong side", "instead of before", "j + 1"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        if not torch.allclose(model_fn(changed)[:, j + 1:], base[:, j + 1:]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="loop skips last token", mistake="loops j over range(1, T - 1), never changing the last token",
         names=["range(1, t - 1)", "range(1, t-1)", "never changes the last", "skips the last", "misses the last"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    T = ids.shape[1]
    for j in range(1, T - 1):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="returns inside loop", mistake="puts return False inside the loop, so only token j = 1 is ever tested",
         names=["inside the loop", "first j", "only token 1", "j = 1", "returns early"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
            return True
        return False
    return False
'''),
    # ---------------------------------------------------------------- ex5: context_memory
    dict(exercise="ex5", kind="keys only", mistake="counts the keys but not the values in the KV cache",
         names=["keys and values", "factor 2", "factor of 2", "forgot the values", "keys only"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="cache of one layer", mistake="counts the KV cache of one layer instead of every layer of the model",
         names=["every layer", "whole model", "all layers", "times n_layers", "n_layers ×"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="scores of every layer", mistake="multiplies the score matrices by n_layers, though each layer's are freed before the next",
         names=["one layer", "freed", "layer by layer", "not n_layers"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_layers * n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="scores of one head", mistake="counts one T x T matrix instead of one per head",
         names=["per head", "each head", "forgot the heads", "times n_heads", "h × t × t"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="cache times heads", mistake="multiplies the cache by n_heads as if every head stored d_model numbers, though the heads share d_model",
         names=["all heads together", "d_k", "heads share", "d_model / n_heads", "multiplied by n_heads"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * n_heads * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="tuple order", mistake="returns (score_bytes, kv_cache_bytes), the pair in the wrong order",
         names=["wrong order", "(score_bytes, kv_cache_bytes)", "score_bytes first", "swapped"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return scores, kv
'''),
    dict(exercise="ex5", kind="returns MiB", mistake="converts the results to MiB floats instead of returning whole numbers of bytes",
         names=["mib", "whole number", "an int", "integer", "float"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number / 2**20
    scores = n_heads * T * T * bytes_per_number / 2**20
    return kv, scores
'''),
    dict(exercise="ex5", kind="hard-coded 16-bit", mistake="ignores bytes_per_number and always counts 2 bytes a number",
         names=["bytes_per_number", "hard-coded", "32-bit", "ignores"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * 2
    scores = n_heads * T * T * 2
    return kv, scores
'''),
    dict(exercise="ex5", kind="causal half of scores", mistake="counts only the lower triangle of each T x T matrix, but dense attention builds the whole matrix",
         names=["dense", "whole matrix", "triangle", "causal", "half"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * (T * (T + 1) // 2) * bytes_per_number
    return kv, scores
'''),
]

VALID = [
    dict(exercise="ex1", kind="by hand in NumPy", code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q                          # (T_dec, d_k): the decoder asks
    k = memory @ W_k                         # (T_enc, d_k): the source answers
    v = memory @ W_v                         # (T_enc, d_v)
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="einsum projections", code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = np.einsum("td,dk->tk", x_dec, W_q)
    k = np.einsum("sd,dk->sk", memory, W_k)
    v = np.einsum("sd,dv->sv", memory, W_v)
    out, weights = attention(q, k, v, mask=None)
    return out, weights
'''),
    dict(exercise="ex2", kind="roll then cut", code='''def next_token_pairs(window):
    shifted = torch.roll(window, shifts=-1, dims=1)   # shifted[:, t] = window[:, t + 1]
    return window[:, :-1], shifted[:, :-1]
'''),
    dict(exercise="ex2", kind="narrow", code='''def next_token_pairs(window):
    T = window.shape[1] - 1
    return window.narrow(1, 0, T), window.narrow(1, 1, T)
'''),
    dict(exercise="ex3", kind="flatten and arange index", code='''def next_token_loss(logits, targets):
    V = logits.shape[-1]
    logp = torch.log_softmax(logits.reshape(-1, V), dim=1)
    flat = targets.reshape(-1)
    return -logp[torch.arange(flat.numel()), flat].mean()
'''),
    dict(exercise="ex3", kind="take_along_dim", code='''def next_token_loss(logits, targets):
    logp = logits.log_softmax(-1)
    picked = torch.take_along_dim(logp, targets[..., None], dim=-1)
    return picked.neg().sum() / targets.numel()
'''),
    dict(exercise="ex4", kind="any over positions", code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    T = ids.shape[1]

    def earlier_moved(j):
        probe = ids.detach().clone()
        probe[0, j] = (probe[0, j] + 1) % V
        return not torch.allclose(model_fn(probe)[0, :j], base[0, :j])

    return any(earlier_moved(j) for j in range(1, T))
'''),
    dict(exercise="ex4", kind="position by position, last first", code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        T = ids.shape[1]
        for j in reversed(range(1, T)):
            probe = ids.clone()
            probe[0, j] = (ids[0, j] + 1) % V
            new = model_fn(probe)
            for t in range(j):
                if not torch.allclose(new[0, t], base[0, t]):
                    return True
    return False
'''),
    dict(exercise="ex5", kind="per-layer loop", code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv_cache_bytes = 0
    for _ in range(n_layers):
        per_token = d_model + d_model        # one key and one value, all heads together
        kv_cache_bytes += per_token * T * bytes_per_number
    score_bytes = n_heads * T * T * bytes_per_number
    return int(kv_cache_bytes), int(score_bytes)
'''),
    dict(exercise="ex5", kind="numpy shapes", code='''import math


def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    cache_shape = (n_layers, 2, T, d_model)      # layers, key/value, tokens, features
    weights_shape = (n_heads, T, T)              # one layer's attention weights
    return (int(math.prod(cache_shape)) * bytes_per_number,
            int(math.prod(weights_shape)) * bytes_per_number)
'''),
]
