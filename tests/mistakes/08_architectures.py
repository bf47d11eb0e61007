"""Named wrong answers for solutions/08_architectures.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: cross-attention
    dict(exercise="ex1", kind="Q from the encoder, K and V from the decoder",
         expect="Q must come from the decoder",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(memory @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="everything from the encoder", expect="Q must come from the decoder",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(memory @ W_q, memory @ W_k, memory @ W_v)
'''),
    dict(exercise="ex1", kind="self-attention instead (K and V from the decoder)",
         expect="K and V must come from the encoder",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="causal mask on cross-attention",
         expect="causal mask to cross-attention",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    T_dec, T_enc = len(x_dec), len(memory)
    mask = np.tril(np.ones((T_dec, T_enc), dtype=bool))
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, mask)
'''),
    dict(exercise="ex1", kind="K and V swapped", expect="K and V swapped",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, memory @ W_v, memory @ W_k)
'''),
    dict(exercise="ex1", kind="missing scale", expect="missing scale",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = q @ k.T
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="softmax over the decoder positions", expect="wrong axis",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = q @ k.T / np.sqrt(k.shape[-1])
    w = np.exp(s) / np.exp(s).sum(axis=0, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="scaled by d_k", expect="instead of sqrt(d_k)",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = q @ k.T / k.shape[-1]
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="weights returned transposed", expect="transposed",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, w = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return out, w.T
'''),
    dict(exercise="ex1", kind="(weights, out) order", expect="you returned (weights, out)",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, w = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return w, out
'''),
    dict(exercise="ex1", kind="ReLU of the scores instead of softmax", expect="must sum to 1",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    w = np.maximum(q @ k.T / np.sqrt(k.shape[-1]), 0)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="last encoder position blocked", expect="as if a mask",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    mask = np.ones((len(x_dec), len(memory)), dtype=bool)
    mask[:, -1] = False
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, mask)
'''),
    dict(exercise="ex1", kind="averages the memory, not the values", expect="d_model",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    _, w = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return w @ memory, w
'''),
    # Exercise 2: next-token targets
    dict(exercise="ex2", kind="no shift", expect="no shift",
         code='''def next_token_pairs(window):
    return window[:, :-1], window[:, :-1]
'''),
    dict(exercise="ex2", kind="shifted the wrong way", expect="shifted the wrong way",
         code='''def next_token_pairs(window):
    return window[:, 1:], window[:, :-1]
'''),
    dict(exercise="ex2", kind="torch.roll wraps around", expect="wraps around",
         code='''def next_token_pairs(window):
    inputs = window[:, :-1]
    return inputs, torch.roll(inputs, -1, dims=1)
'''),
    dict(exercise="ex2", kind="shift along the batch axis", expect="batch axis",
         code='''def next_token_pairs(window):
    return window[:-1], window[1:]
'''),
    dict(exercise="ex2", kind="targets as floats", expect="floats",
         code='''def next_token_pairs(window):
    return window[:, :-1], window[:, 1:].float()
'''),
    dict(exercise="ex2", kind="shifted by two", expect="offset by two positions",
         code='''def next_token_pairs(window):
    return window[:, :-2], window[:, 2:]
'''),
    dict(exercise="ex2", kind="next id instead of next token", expect="not in the window",
         code='''def next_token_pairs(window):
    return window[:, :-1], window[:, :-1] + 1
'''),
    dict(exercise="ex2", kind="inputs start at the second token", expect="window[:, t + 1]",
         code='''def next_token_pairs(window):
    return window[:, 1:], torch.cat([window[:, 2:], window[:, -1:]], dim=1)
'''),
    dict(exercise="ex2", kind="returns only the targets", expect="return a tuple (inputs, targets)",
         code='''def next_token_pairs(window):
    return window[:, 1:]
'''),
    # Exercise 3: the next-token loss
    dict(exercise="ex3", kind="softmax over the positions", expect="wrong axis",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=1)
    return -log_probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="F.cross_entropy on (B, T, V) unflattened",
         expect="classes on axis 1",
         code='''def next_token_loss(logits, targets):
    return torch.nn.functional.cross_entropy(logits, targets)
'''),
    dict(exercise="ex3", kind="summed, not averaged", expect="not averaging",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return -log_probs.gather(-1, targets[..., None]).sum()
'''),
    dict(exercise="ex3", kind="per-position losses returned", expect="not averaging",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return -log_probs.gather(-1, targets[..., None])[..., 0]
'''),
    dict(exercise="ex3", kind="summed over positions, averaged over the batch",
         expect="not averaging over the positions",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return -log_probs.gather(-1, targets[..., None])[..., 0].sum(dim=1).mean()
'''),
    dict(exercise="ex3", kind="forgot the minus sign", expect="minus sign",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return log_probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="probabilities instead of log-probabilities", expect="missing log",
         code='''def next_token_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    return -probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="F.nll_loss", expect="Write the loss by hand",
         code='''def next_token_loss(logits, targets):
    V = logits.shape[-1]
    return F.nll_loss(torch.log_softmax(logits, -1).reshape(-1, V), targets.reshape(-1))
'''),
    dict(exercise="ex3", kind="cross_entropy under an alias", expect="Write the loss by hand",
         code='''from torch.nn.functional import cross_entropy as ce

def next_token_loss(logits, targets):
    return ce(logits.flatten(0, 1), targets.flatten())
'''),
    dict(exercise="ex3", kind="log of softmax (underflows)", expect="underflows",
         code='''def next_token_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    return -torch.log(probs.gather(-1, targets[..., None])).mean()
'''),
    dict(exercise="ex3", kind="log2 instead of ln", expect="with all-zero logits",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1) / torch.log(torch.tensor(2.0))
    return -log_probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="ignores the targets", expect="does not pick",
         code='''def next_token_loss(logits, targets):
    return -torch.log_softmax(logits, dim=-1).mean() / logits.shape[-1] * logits.shape[-1]
'''),
    dict(exercise="ex3", kind="one softmax over every logit of the batch",
         expect="with all-zero logits",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits.reshape(-1), dim=0).reshape(logits.shape)
    return -log_probs.gather(-1, targets[..., None]).mean()
'''),
    # Exercise 4: the cheating detector
    dict(exercise="ex4", kind="detector never fires", expect="never fires",
         code='''def leaks(model_fn, ids):
    return False
'''),
    dict(exercise="ex4", kind="detector always fires (compares every position)",
         expect="always fires",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(changed), base):
            return True
    return False
'''),
    dict(exercise="ex4", kind="checks only the last position", expect="every later token",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    j = ids.shape[1] - 1
    changed = ids.clone()
    changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
    return not torch.allclose(model_fn(changed)[:, :j], base[:, :j])
'''),
    dict(exercise="ex4", kind="compares only position 0", expect="not only position 0",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(changed)[:, 0], base[:, 0]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares only the position just before j",
         expect="position 2 also reads token 6",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(changed)[:, j - 1], base[:, j - 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="returns a tensor of booleans", expect="return True",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    changed = ids.clone()
    changed[0, -1] = (changed[0, -1] + 1) % base.shape[-1]
    return model_fn(changed)[:, :-1] != base[:, :-1]
'''),
    dict(exercise="ex4", kind="stops before the last token", expect="LAST token",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1] - 1):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="starts at token 2", expect="token 1 is already",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(2, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares before j - 1 only", expect="j - 1 included",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(changed)[:, :j - 1], base[:, :j - 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="changes ids in place", expect="in place",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        ids[0, j] = (ids[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(ids)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares position j too", expect="always fires",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(changed)[:, :j + 1], base[:, :j + 1]):
            return True
    return False
'''),
    # Exercise 5: what a long context costs in memory
    dict(exercise="ex5", kind="cache holds only the keys", expect="only the keys",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_layers * T * d_model * bytes_per_number, n_heads * T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="cache of one layer", expect="multiply by n_layers",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return 2 * T * d_model * bytes_per_number, n_heads * T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="cache with d_head instead of d_model", expect="not d_head",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model // n_heads
    return (n_layers * 2 * T * d_head * bytes_per_number,
            n_heads * T * T * bytes_per_number)
'''),
    dict(exercise="ex5", kind="scores without the heads", expect="multiply by n_heads",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_layers * 2 * T * d_model * bytes_per_number, T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="scores linear in T", expect="T squared",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_layers * 2 * T * d_model * bytes_per_number, n_heads * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="scores of every layer", expect="ONE layer",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * d_model * bytes_per_number,
            n_layers * n_heads * T * T * bytes_per_number)
'''),
    dict(exercise="ex5", kind="numbers instead of bytes", expect="not of bytes",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_layers * 2 * T * d_model, n_heads * T * T
'''),
    dict(exercise="ex5", kind="scores times d_head", expect="do not enter it",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * d_model * bytes_per_number,
            T * T * d_model * bytes_per_number)
'''),
    dict(exercise="ex5", kind="cache times n_heads", expect="n_heads times",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * n_heads * 2 * T * d_model * bytes_per_number,
            n_heads * T * T * bytes_per_number)
'''),
    dict(exercise="ex5", kind="cache quadratic in T", expect="doubling T",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * T * d_model * bytes_per_number,
            n_heads * T * T * bytes_per_number)
'''),
    dict(exercise="ex5", kind="only the causal half of the scores", expect="causal triangle",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * d_model * bytes_per_number,
            n_heads * T * (T + 1) // 2 * bytes_per_number)
'''),
    dict(exercise="ex5", kind="in MiB", expect="converted to MiB",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * d_model * bytes_per_number / 2**20,
            n_heads * T * T * bytes_per_number / 2**20)
'''),
    # ---------------------------------------------------------------- held-out answers (round 2)
    dict(exercise='ex1', kind='held-out a: queries from memory',
         expect='queries from the memory',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = memory @ W_q
    k = x_dec @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise='ex1', kind='held-out a: values from decoder',
         expect='values from the decoder',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise='ex1', kind='held-out a: W_k and W_v swapped',
         expect='w_k and w_v',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    k = memory @ W_v
    v = memory @ W_k
    return attention(x_dec @ W_q, k, v)
'''),
    dict(exercise='ex1', kind='held-out a: scaled by sqrt(d_model)',
         expect='√d_model',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    d_model = x_dec.shape[-1]
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, scale=1 / np.sqrt(d_model))
'''),
    dict(exercise='ex2', kind='held-out a: hard-coded T',
         expect='hard-coded',
         code='''def next_token_pairs(window):
    T = 8
    return window[:, :T], window[:, 1:T + 1]
'''),
    dict(exercise='ex3', kind='held-out a: first sequence only',
         expect='first sequence',
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits[0], dim=-1)
    T = targets.shape[1]
    return -logp[torch.arange(T), targets[0]].mean()
'''),
    dict(exercise='ex4', kind='held-out a: compares all positions',
         expect='j and after',
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
    dict(exercise='ex4', kind='held-out a: includes position j',
         expect='including j',
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
    dict(exercise='ex4', kind='held-out a: inverted result',
         expect='inverted',
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
    dict(exercise='ex4', kind='held-out a: compares positions after j',
         expect='after j',
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
    dict(exercise='ex4', kind='held-out a: loop skips last token',
         expect='range(1, t - 1)',
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
    dict(exercise='ex5', kind='held-out a: keys only',
         expect='keys and values',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out a: scores of one head',
         expect='per head',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out a: cache times heads',
         expect='all heads together',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * n_heads * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out a: tuple order',
         expect='wrong order',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return scores, kv
'''),
    dict(exercise='ex5', kind='held-out a: returns MiB',
         expect='mib',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number / 2**20
    scores = n_heads * T * T * bytes_per_number / 2**20
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out a: causal half of scores',
         expect='dense',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * (T * (T + 1) // 2) * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex1', kind='held-out b: k from decoder',
         expect='keys come from',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, x_dec @ W_k, memory @ W_v)
'''),
    dict(exercise='ex1', kind='held-out b: v from decoder',
         expect='values come from',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise='ex1', kind='held-out b: decoder and memory concatenated',
         expect='memory alone',
         code='''import numpy as np


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    both = np.concatenate([x_dec, memory], axis=0)
    return attention(x_dec @ W_q, both @ W_k, both @ W_v)
'''),
    dict(exercise='ex4', kind='held-out b: includes position j',
         expect='off-by-one',
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (changed[0, j] + 1) % V
            if not torch.allclose(model_fn(changed)[:, :j + 1], base[:, :j + 1]):
                return True
    return False
'''),
    dict(exercise='ex4', kind='held-out b: set to token 0',
         expect='already',
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = 0
            if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
                return True
    return False
'''),
    dict(exercise='ex4', kind='held-out b: no modulo',
         expect='% v',
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] += 1
            if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
                return True
    return False
'''),
    dict(exercise='ex4', kind='held-out b: first token changed',
         expect='after j',
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        T = ids.shape[1]
        for j in range(T - 1):
            changed = ids.clone()
            changed[0, j] = (changed[0, j] + 1) % V
            if not torch.allclose(model_fn(changed)[:, j + 1:], base[:, j + 1:]):
                return True
    return False
'''),
    dict(exercise='ex5', kind='held-out b: keys only',
         expect='key and a value',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind="held-out b: one layer's cache",
         expect='whole model',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out b: scores sized by d_model',
         expect='quadratic',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * (d_model // n_heads) * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex4', kind='token set to V - 1', expect='changed no token',
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        c = ids.clone()
        c[0, j] = V - 1
        if not torch.allclose(model_fn(c)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise='ex4', kind='token + 3 without modulo', expect='outside the vocabulary',
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        c = ids.clone()
        c[0, j] = c[0, j] + 3
        if not torch.allclose(model_fn(c)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise='ex5', kind='true division gives floats (held-out c)',
         expect='true division',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model / n_heads
    kv = 2 * n_layers * T * n_heads * d_head * bytes_per_number
    scores = n_heads * T * T * bytes_per_number / 1
    return kv, scores
'''),
]
