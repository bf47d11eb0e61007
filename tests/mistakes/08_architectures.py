"""Named wrong answers for solutions/08_architectures.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: cross-attention
    dict(exercise="ex1", kind="Q from the encoder, K and V from the decoder",
         expect="Q must come from the decoder", id="architectures.cross-roles-swapped",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(memory @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="everything from the encoder", expect="Q must come from the decoder",
         id="architectures.cross-q-from-memory",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(memory @ W_q, memory @ W_k, memory @ W_v)
'''),
    dict(exercise="ex1", kind="self-attention instead (K and V from the decoder)",
         expect="K and V must come from the encoder", id="architectures.cross-kv-from-decoder",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="causal mask on cross-attention",
         expect="causal mask to cross-attention", id="architectures.cross-causal-mask",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    T_dec, T_enc = len(x_dec), len(memory)
    mask = np.tril(np.ones((T_dec, T_enc), dtype=bool))
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, mask)
'''),
    dict(exercise="ex1", kind="K and V swapped", expect="K and V swapped",
         id="architectures.cross-k-v-swapped",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, memory @ W_v, memory @ W_k)
'''),
    dict(exercise="ex1", kind="missing scale", expect="missing scale",
         id="architectures.cross-no-scale",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = q @ k.T
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="softmax over the decoder positions", expect="wrong axis",
         id="architectures.cross-softmax-axis",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = q @ k.T / np.sqrt(k.shape[-1])
    w = np.exp(s) / np.exp(s).sum(axis=0, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="scaled by d_k", expect="instead of sqrt(d_k)",
         id="architectures.cross-scaled-by-dk",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = q @ k.T / k.shape[-1]
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="weights returned transposed", expect="transposed",
         id="generic.transposed",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, w = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return out, w.T
'''),
    dict(exercise="ex1", kind="(weights, out) order", expect="you returned (weights, out)",
         id="generic.tuple-order",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, w = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return w, out
'''),
    dict(exercise="ex1", kind="ReLU of the scores instead of softmax", expect="must sum to 1",
         id="architectures.cross-rows-not-normalised",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    w = np.maximum(q @ k.T / np.sqrt(k.shape[-1]), 0)
    return w @ v, w
'''),
    dict(exercise="ex1", kind="last encoder position blocked", expect="as if a mask",
         id="architectures.cross-masked",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    mask = np.ones((len(x_dec), len(memory)), dtype=bool)
    mask[:, -1] = False
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, mask)
'''),
    dict(exercise="ex1", kind="averages the memory, not the values", expect="d_model",
         id="generic.wrong-size",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    _, w = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return w @ memory, w
'''),
    dict(exercise="ex1", kind="averages the keys, not the values",
         expect="weighted average of the values", id="architectures.cross-out-not-weighted-values",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    out, w = attention(q, k, v)
    return w @ k, w
'''),
    dict(exercise="ex1", kind="scores returned as the weights", expect="negative",
         id="architectures.cross-weights-negative",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    scores = q @ k.T / np.sqrt(k.shape[-1])
    out, w = attention(q, k, v)
    return out, scores
'''),
    dict(exercise="ex1", kind="'nothing blocked' mask read as True = may attend", expect="NaN",
         id="architectures.cross-weights-not-finite",
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = q @ k.T / np.sqrt(k.shape[-1])
    blocked = np.zeros(s.shape, dtype=bool)          # no position is blocked
    s = np.where(blocked, s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    # Exercise 2: next-token targets
    dict(exercise="ex2", kind="no shift", expect="no shift", id="architectures.pairs-no-shift",
         code='''def next_token_pairs(window):
    return window[:, :-1], window[:, :-1]
'''),
    dict(exercise="ex2", kind="shifted the wrong way", expect="shifted the wrong way",
         id="architectures.pairs-wrong-direction",
         code='''def next_token_pairs(window):
    return window[:, 1:], window[:, :-1]
'''),
    dict(exercise="ex2", kind="torch.roll wraps around", expect="wraps around",
         id="architectures.pairs-roll",
         code='''def next_token_pairs(window):
    inputs = window[:, :-1]
    return inputs, torch.roll(inputs, -1, dims=1)
'''),
    dict(exercise="ex2", kind="shift along the batch axis", expect="batch axis",
         id="architectures.pairs-batch-axis",
         code='''def next_token_pairs(window):
    return window[:-1], window[1:]
'''),
    dict(exercise="ex2", kind="targets as floats", expect="floats",
         id="architectures.pairs-not-integers",
         code='''def next_token_pairs(window):
    return window[:, :-1], window[:, 1:].float()
'''),
    dict(exercise="ex2", kind="shifted by two", expect="offset by two positions",
         id="architectures.pairs-offset",
         code='''def next_token_pairs(window):
    return window[:, :-2], window[:, 2:]
'''),
    dict(exercise="ex2", kind="next id instead of next token", expect="not in the window",
         id="architectures.pairs-not-from-window",
         code='''def next_token_pairs(window):
    return window[:, :-1], window[:, :-1] + 1
'''),
    dict(exercise="ex2", kind="inputs start at the second token", expect="window[:, t + 1]",
         id="architectures.pairs-offset",
         code='''def next_token_pairs(window):
    return window[:, 1:], torch.cat([window[:, 2:], window[:, -1:]], dim=1)
'''),
    dict(exercise="ex2", kind="returns only the targets", expect="return a tuple (inputs, targets)",
         id="generic.not-a-tuple",
         code='''def next_token_pairs(window):
    return window[:, 1:]
'''),
    dict(exercise="ex2", kind="targets: the last T = 8 tokens", expect="hard-coded",
         id="architectures.pairs-hard-coded",
         code='''def next_token_pairs(window):
    T = 8
    return window[:, :-1], window[:, -T:]
'''),
    # Exercise 3: the next-token loss
    dict(exercise="ex3", kind="softmax over the positions", expect="wrong axis",
         id="architectures.loss-softmax-positions",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=1)
    return -log_probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="F.cross_entropy on (B, T, V) unflattened",
         expect="classes on axis 1", id="rule.forbidden-call",
         code='''def next_token_loss(logits, targets):
    return torch.nn.functional.cross_entropy(logits, targets)
'''),
    dict(exercise="ex3", kind="summed, not averaged", expect="not averaging",
         id="architectures.loss-summed",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return -log_probs.gather(-1, targets[..., None]).sum()
'''),
    dict(exercise="ex3", kind="per-position losses returned", expect="not averaging",
         id="architectures.loss-not-a-scalar",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return -log_probs.gather(-1, targets[..., None])[..., 0]
'''),
    dict(exercise="ex3", kind="summed over positions, averaged over the batch",
         expect="not averaging over the positions", id="architectures.loss-summed-over-positions",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return -log_probs.gather(-1, targets[..., None])[..., 0].sum(dim=1).mean()
'''),
    dict(exercise="ex3", kind="forgot the minus sign", expect="minus sign",
         id="architectures.loss-sign",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1)
    return log_probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="probabilities instead of log-probabilities", expect="missing log",
         id="architectures.loss-no-log",
         code='''def next_token_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    return -probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="F.nll_loss", expect="Write the loss by hand",
         id="rule.forbidden-call",
         code='''def next_token_loss(logits, targets):
    V = logits.shape[-1]
    return F.nll_loss(torch.log_softmax(logits, -1).reshape(-1, V), targets.reshape(-1))
'''),
    dict(exercise="ex3", kind="cross_entropy under an alias", expect="Write the loss by hand",
         id="rule.forbidden-call",
         code='''from torch.nn.functional import cross_entropy as ce

def next_token_loss(logits, targets):
    return ce(logits.flatten(0, 1), targets.flatten())
'''),
    dict(exercise="ex3", kind="log of softmax (underflows)", expect="underflows",
         id="architectures.loss-log-of-softmax",
         code='''def next_token_loss(logits, targets):
    probs = torch.softmax(logits, dim=-1)
    return -torch.log(probs.gather(-1, targets[..., None])).mean()
'''),
    dict(exercise="ex3", kind="log2 instead of ln", expect="with all-zero logits",
         id="architectures.loss-uniform",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=-1) / torch.log(torch.tensor(2.0))
    return -log_probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="ignores the targets", expect="does not pick",
         id="architectures.loss-ignores-targets",
         code='''def next_token_loss(logits, targets):
    return -torch.log_softmax(logits, dim=-1).mean() / logits.shape[-1] * logits.shape[-1]
'''),
    dict(exercise="ex3", kind="one softmax over every logit of the batch",
         expect="with all-zero logits", id="architectures.loss-uniform",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits.reshape(-1), dim=0).reshape(logits.shape)
    return -log_probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="first position of each sequence only", expect="first position",
         id="architectures.loss-first-position",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits[:, 0], dim=-1)
    return -log_probs.gather(-1, targets[:, :1]).mean()
'''),
    dict(exercise="ex3", kind="raw logits as log-probabilities", expect="missing softmax",
         id="architectures.loss-no-softmax",
         code='''def next_token_loss(logits, targets):
    return -logits.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="softmax over the batch", expect="over the batch",
         id="architectures.loss-softmax-batch",
         code='''def next_token_loss(logits, targets):
    log_probs = torch.log_softmax(logits, dim=0)
    return -log_probs.gather(-1, targets[..., None]).mean()
'''),
    dict(exercise="ex3", kind="logits clamped before a hand-made log-softmax",
         expect="adding a constant", id="architectures.loss-not-shift-invariant",
         code='''def next_token_loss(logits, targets):
    z = logits.clamp(-30, 30)                          # keep exp from overflowing
    log_probs = z - torch.log(torch.exp(z).sum(dim=-1, keepdim=True))
    return -log_probs.gather(-1, targets[..., None]).mean()
'''),
    # Exercise 4: the cheating detector
    dict(exercise="ex4", kind="detector never fires", expect="never fires",
         id="architectures.leaks-never-fires",
         code='''def leaks(model_fn, ids):
    return False
'''),
    dict(exercise="ex4", kind="detector always fires (compares every position)",
         expect="always fires", id="architectures.leaks-always-fires",
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
         id="architectures.leaks-missed-next-token",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    j = ids.shape[1] - 1
    changed = ids.clone()
    changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
    return not torch.allclose(model_fn(changed)[:, :j], base[:, :j])
'''),
    dict(exercise="ex4", kind="compares only position 0", expect="not only position 0",
         id="architectures.leaks-missed-next-token",
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
         expect="position 2 also reads token 6", id="architectures.leaks-missed-far",
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
         id="architectures.leaks-not-a-bool",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    changed = ids.clone()
    changed[0, -1] = (changed[0, -1] + 1) % base.shape[-1]
    return model_fn(changed)[:, :-1] != base[:, :-1]
'''),
    dict(exercise="ex4", kind="stops before the last token", expect="LAST token",
         id="architectures.leaks-missed-last-token",
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
         id="architectures.leaks-missed-token-1",
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
         id="architectures.leaks-missed-next-token",
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
         id="generic.input-modified",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        ids[0, j] = (ids[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(ids)[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="compares position j too", expect="always fires",
         id="architectures.leaks-always-fires",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
        if not torch.allclose(model_fn(changed)[:, :j + 1], base[:, :j + 1]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="skips a change the later positions do not see",
         expect="reversed: position 0 reads every later token",
         id="architectures.leaks-missed-reversed",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % V
        logits = model_fn(changed)
        if torch.allclose(logits[:, j + 1:], base[:, j + 1:]):
            continue  # the later positions, which read token j, did not move: no real change
        if not torch.allclose(logits[:, :j], base[:, :j]):
            return True
    return False
'''),
    dict(exercise="ex4", kind="tests that the later positions move", expect="no mask",
         id="architectures.leaks-missed-unmasked",
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    for j in range(ids.shape[1] - 1):
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 1) % V
        if torch.allclose(model_fn(changed)[:, j + 1:], base[:, j + 1:]):
            return True  # the later positions ignore token j: not causal
    return False
'''),
    # Exercise 5: what a long context costs in memory
    dict(exercise="ex5", kind="cache holds only the keys", expect="only the keys",
         id="architectures.memory-only-keys",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_layers * T * d_model * bytes_per_number, n_heads * T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="cache of one layer", expect="multiply by n_layers",
         id="architectures.memory-one-layer",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return 2 * T * d_model * bytes_per_number, n_heads * T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="cache with d_head instead of d_model", expect="not d_head",
         id="architectures.memory-d-head",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model // n_heads
    return (n_layers * 2 * T * d_head * bytes_per_number,
            n_heads * T * T * bytes_per_number)
'''),
    dict(exercise="ex5", kind="scores without the heads", expect="multiply by n_heads",
         id="architectures.memory-scores-one-head",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_layers * 2 * T * d_model * bytes_per_number, T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="scores linear in T", expect="T squared",
         id="architectures.memory-scores-linear",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_layers * 2 * T * d_model * bytes_per_number, n_heads * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="scores of every layer", expect="ONE layer",
         id="architectures.memory-scores-every-layer",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * d_model * bytes_per_number,
            n_layers * n_heads * T * T * bytes_per_number)
'''),
    dict(exercise="ex5", kind="numbers instead of bytes", expect="not of bytes",
         id="architectures.memory-not-bytes",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_layers * 2 * T * d_model, n_heads * T * T
'''),
    dict(exercise="ex5", kind="scores times d_head", expect="do not enter it",
         id="architectures.memory-scores-d-head",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * d_model * bytes_per_number,
            T * T * d_model * bytes_per_number)
'''),
    dict(exercise="ex5", kind="cache times n_heads", expect="n_heads times",
         id="architectures.memory-cache-times-heads",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * n_heads * 2 * T * d_model * bytes_per_number,
            n_heads * T * T * bytes_per_number)
'''),
    dict(exercise="ex5", kind="cache quadratic in T", expect="doubling T",
         id="architectures.memory-scaling-t",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * T * d_model * bytes_per_number,
            n_heads * T * T * bytes_per_number)
'''),
    dict(exercise="ex5", kind="only the causal half of the scores", expect="causal triangle",
         id="architectures.memory-scores-triangle",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * d_model * bytes_per_number,
            n_heads * T * (T + 1) // 2 * bytes_per_number)
'''),
    dict(exercise="ex5", kind="in MiB", expect="converted to MiB",
         id="architectures.memory-not-bytes-unit",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return (n_layers * 2 * T * d_model * bytes_per_number / 2**20,
            n_heads * T * T * bytes_per_number / 2**20)
'''),
    dict(exercise="ex5", kind="n_heads in place of n_layers", expect="doubling n_layers",
         id="architectures.memory-scaling-n-layers",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return n_heads * 2 * T * d_model * bytes_per_number, n_heads * T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="d_head score matrices instead of n_heads", expect="doubling n_heads",
         id="architectures.memory-scaling-n-heads",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model // n_heads
    return n_layers * 2 * T * d_model * bytes_per_number, d_head * T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="8 bytes whatever bytes_per_number",
         expect="doubling bytes_per_number", id="architectures.memory-scaling-bytes-per-number",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    b = 8  # float64
    return n_layers * 2 * T * d_model * b, n_heads * T * T * b
'''),
    # ---------------------------------------------------------------- held-out answers (round 2)
    dict(exercise='ex1', kind='held-out a: queries from memory',
         expect='queries from the memory', id='architectures.cross-roles-swapped',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = memory @ W_q
    k = x_dec @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise='ex1', kind='held-out a: values from decoder',
         expect='values from the decoder', id='architectures.cross-v-from-decoder',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise='ex1', kind='held-out a: W_k and W_v swapped',
         expect='w_k and w_v', id='architectures.cross-k-v-swapped',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    k = memory @ W_v
    v = memory @ W_k
    return attention(x_dec @ W_q, k, v)
'''),
    dict(exercise='ex1', kind='held-out a: scaled by sqrt(d_model)',
         expect='√d_model', id='architectures.cross-scaled-by-d-model',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    d_model = x_dec.shape[-1]
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, scale=1 / np.sqrt(d_model))
'''),
    dict(exercise='ex2', kind='held-out a: hard-coded T',
         expect='hard-coded', id='architectures.pairs-inputs-keep-last',
         code='''def next_token_pairs(window):
    T = 8
    return window[:, :T], window[:, 1:T + 1]
'''),
    dict(exercise='ex3', kind='held-out a: first sequence only',
         expect='first sequence', id='architectures.loss-first-sequence',
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits[0], dim=-1)
    T = targets.shape[1]
    return -logp[torch.arange(T), targets[0]].mean()
'''),
    dict(exercise='ex4', kind='held-out a: compares all positions',
         expect='j and after', id='architectures.leaks-always-fires',
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
         expect='including j', id='architectures.leaks-always-fires',
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
         expect='inverted', id='architectures.leaks-inverted',
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
         expect='after j', id='architectures.leaks-false-alarm',
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
         expect='range(1, t - 1)', id='architectures.leaks-missed-last-token',
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
         expect='keys and values', id='architectures.memory-only-keys',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out a: scores of one head',
         expect='per head', id='architectures.memory-scores-one-head',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out a: cache times heads',
         expect='all heads together', id='architectures.memory-cache-times-heads',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * n_heads * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out a: tuple order',
         expect='wrong order', id='generic.tuple-order',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return scores, kv
'''),
    dict(exercise='ex5', kind='held-out a: returns MiB',
         expect='mib', id='architectures.memory-not-bytes-unit',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number / 2**20
    scores = n_heads * T * T * bytes_per_number / 2**20
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out a: causal half of scores',
         expect='dense', id='architectures.memory-scores-triangle',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * (T * (T + 1) // 2) * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex1', kind='held-out b: k from decoder',
         expect='keys come from', id='architectures.cross-k-from-decoder',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, x_dec @ W_k, memory @ W_v)
'''),
    dict(exercise='ex1', kind='held-out b: v from decoder',
         expect='values come from', id='architectures.cross-v-from-decoder',
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise='ex1', kind='held-out b: decoder and memory concatenated',
         expect='memory alone', id='architectures.cross-concatenated',
         code='''import numpy as np


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    both = np.concatenate([x_dec, memory], axis=0)
    return attention(x_dec @ W_q, both @ W_k, both @ W_v)
'''),
    dict(exercise='ex4', kind='held-out b: includes position j',
         expect='off-by-one', id='architectures.leaks-always-fires',
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
         expect='already', id='architectures.leaks-missed-next-token',
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
         expect='% v', id='architectures.leaks-token-out-of-vocabulary',
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
         expect='after j', id='architectures.leaks-false-alarm',
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
         expect='key and a value', id='architectures.memory-only-keys',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind="held-out b: one layer's cache",
         expect='whole model', id='architectures.memory-one-layer',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex5', kind='held-out b: scores sized by d_model',
         expect='quadratic', id='architectures.memory-scores-t-by-d',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * (d_model // n_heads) * bytes_per_number
    return kv, scores
'''),
    dict(exercise='ex4', kind='token set to V - 1', expect='changed no token',
         id='architectures.leaks-missed-last-token',
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
         id='architectures.leaks-token-out-of-vocabulary',
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
         expect='true division', id='architectures.memory-float',
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model / n_heads
    kv = 2 * n_layers * T * n_heads * d_head * bytes_per_number
    scores = n_heads * T * T * bytes_per_number / 1
    return kv, scores
'''),
]
