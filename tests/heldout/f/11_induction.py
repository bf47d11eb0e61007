"""Held-out answers for exercises/11_induction.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ------------------------------------------------ ex1 my_previous_token_score
    dict(exercise="ex1", kind="query 0 included (wraps to the last key)",
         mistake="averages over every query t = 0..T-1, so query 0 reads key -1 (the last column, 0 in a causal pattern) and pulls the mean down",
         names=["query 0", "t = 1", "t >= 1", "t ≥ 1", "no previous token"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(T)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="diagonal",
         mistake="takes the weight each query gives itself (key t) instead of key t - 1",
         names=["diagonal", "key t ", "itself", "t - 1", "t − 1"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t, t].mean())
'''),
    dict(exercise="ex1", kind="query and key swapped",
         mistake="indexes weights[:, t - 1, t], query t - 1 reading key t (above the diagonal, the future), instead of weights[:, t, t - 1]",
         names=["t + 1", "future", "above the diagonal", "swap", "row", "t - 1", "t − 1"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t - 1, t].mean())
'''),
    dict(exercise="ex1", kind="divides by T queries",
         mistake="sums the T - 1 sub-diagonal weights but divides by B·T, as if query 0 counted",
         names=["query 0", "t - 1 queries", "divid", "t = 1", "mean"],
         code='''def my_previous_token_score(weights):
    B, T, _ = weights.shape
    sub = np.diagonal(weights, offset=-1, axis1=1, axis2=2)
    return float(sub.sum() / (B * T))
'''),
    dict(exercise="ex1", kind="sum over queries",
         mistake="sums the weights over the queries and averages only over the batch (a total, not a mean)",
         names=["mean", "sum", "average"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t, t - 1].sum(axis=1).mean())
'''),
    dict(exercise="ex1", kind="argmax fraction",
         mistake="returns the fraction of queries whose largest weight is on key t - 1, not the mean weight on it",
         names=["mean weight", "argmax", "weight"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float((weights[:, 1:, :].argmax(axis=-1) == t - 1).mean())
'''),
    dict(exercise="ex1", kind="per-sequence array",
         mistake="averages over the queries only and returns one score per sequence, a (B,) array, instead of one float",
         names=["float", "one number", "batch", "scalar"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return weights[:, t, t - 1].mean(axis=1)
'''),
    dict(exercise="ex1", kind="torch 0-d tensor",
         mistake="converts to torch and returns a 0-d torch tensor where a float is asked",
         names=["float", "tensor"],
         code='''def my_previous_token_score(weights):
    w = torch.as_tensor(weights)
    return torch.diagonal(w, offset=-1, dim1=1, dim2=2).mean()
'''),
    # ----------------------------------------------------- ex2 my_induction_score
    dict(exercise="ex2", kind="earlier occurrence itself",
         mistake="reads key t - span, the earlier occurrence of the same token, instead of the token after it (t - span + 1)",
         names=["t - span + 1", "t − span + 1", "after", "earlier occurrence", "same token", "duplicate"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span].mean())
'''),
    dict(exercise="ex2", kind="BOS forgotten in the query range",
         mistake="forgets the BOS at position 0 and takes the queries t = span .. 2·span - 1 (the last of the first copy included, the last of the second left out)",
         names=["bos", "span + 1", "span+1", "second copy", "queries"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span, 2 * span)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="last query missing",
         mistake="uses np.arange(span + 1, 2 * span), leaving out the last query t = 2·span",
         names=["2·span", "2*span", "2 * span", "last query", "queries"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="second copy's first query skipped",
         mistake="starts at t = span + 2, dropping the second copy's first query as the loss does",
         names=["span + 1", "span+1", "first query", "queries"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 2, 2 * span + 1)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="rows and columns swapped",
         mistake="indexes weights[:, t - span + 1, t], treating the key as the row",
         names=["row", "query", "swap", "future", "key"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t - span + 1, t].mean())
'''),
    dict(exercise="ex2", kind="offset one too far back",
         mistake="reads key t - span - 1, the token before the earlier occurrence",
         names=["t - span + 1", "t − span + 1", "offset", "after"],
         code='''def my_induction_score(weights, span):
    T = weights.shape[-1]
    rows = np.arange(span + 1, T)
    return float(weights[:, rows, rows - (span + 1)].mean())
'''),
    dict(exercise="ex2", kind="per-query array",
         mistake="averages over the batch only and returns the (span,) array of per-query means instead of one float",
         names=["float", "one number", "scalar"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return weights[:, t, t - span + 1].mean(axis=0)
'''),
    dict(exercise="ex2", kind="torch tensor",
         mistake="returns a 0-d torch tensor where a float is asked",
         names=["float", "tensor"],
         code='''def my_induction_score(weights, span):
    w = torch.from_numpy(np.asarray(weights))
    t = torch.arange(span + 1, 2 * span + 1)
    return w[:, t, t - span + 1].mean()
'''),
    # ------------------------------------------------ ex3 my_repeated_span_batch
    dict(exercise="ex3", kind="upper bound too low",
         mistake="draws with torch.randint(0, vocab_size - 2, ...), so id vocab_size - 2 is never drawn (the bound is already exclusive)",
         names=["vocab_size - 2", "exclusive", "upper bound", "never drawn", "0..vocab_size"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.long)
    s = torch.randint(0, vocab_size - 2, (batch, span), generator=generator)
    return torch.cat([bos, s, s], dim=1)
'''),
    dict(exercise="ex3", kind="BOS drawable",
         mistake="draws the span with torch.randint(0, vocab_size, ...), so the BOS id vocab_size - 1 can appear inside the span",
         names=["bos", "vocab_size - 1", "exclusive", "upper bound", "drawn"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.long)
    s = torch.randint(0, vocab_size, (batch, span), generator=generator)
    return torch.cat([bos, s, s], dim=1)
'''),
    dict(exercise="ex3", kind="one span for all rows",
         mistake="draws one span and repeats it in every row instead of drawing each row's span on its own",
         names=["each row", "every row", "same span", "rows"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    s = torch.randint(0, vocab_size - 1, (1, span), generator=generator).expand(batch, span)
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.long)
    return torch.cat([bos, s, s], dim=1)
'''),
    dict(exercise="ex3", kind="second copy drawn anew",
         mistake="draws the second half independently instead of repeating the same span",
         names=["same span", "repeat", "second copy", "again"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.long)
    first = torch.randint(0, vocab_size - 1, (batch, span), generator=generator)
    second = torch.randint(0, vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, second], dim=1)
'''),
    dict(exercise="ex3", kind="global RNG",
         mistake="draws from torch's global generator (no generator=), so the same generator state does not give the same batch",
         names=["generator"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.long)
    s = torch.randint(0, vocab_size - 1, (batch, span))
    return torch.cat([bos, s, s], dim=1)
'''),
    dict(exercise="ex3", kind="float BOS column",
         mistake="makes the BOS column as torch.ones(...) * (vocab_size - 1), a float tensor, so torch.cat promotes the whole batch to float instead of long",
         names=["long", "dtype", "int64", "float"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.ones(batch, 1) * (vocab_size - 1)
    s = torch.randint(0, vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, s, s], dim=1)
'''),
    dict(exercise="ex3", kind="int32",
         mistake="builds the batch as int32 instead of a long (int64) tensor",
         names=["long", "int64", "dtype", "int32"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    s = torch.randint(0, vocab_size - 1, (batch, span), generator=generator, dtype=torch.int32)
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.int32)
    return torch.cat([bos, s, s], dim=1)
'''),
    dict(exercise="ex3", kind="numpy array",
         mistake="returns a NumPy array where a torch long tensor is asked",
         names=["torch", "tensor", "numpy"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    s = torch.randint(0, vocab_size - 1, (batch, span), generator=generator).numpy()
    bos = np.full((batch, 1), vocab_size - 1, dtype=np.int64)
    return np.concatenate([bos, s, s], axis=1)
'''),
    # --------------------------------------------------- ex4 my_ablation_effect
    dict(exercise="ex4", kind="sign flipped",
         mistake="returns intact loss minus ablated loss, the fall instead of the rise",
         names=["sign", "rise", "minus", "order", "negative"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def second_copy_loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 1 : 2 * span]
        target = ids[:, span + 2 : 2 * span + 1]
        return F.cross_entropy(pred.reshape(-1, pred.shape[-1]), target.reshape(-1)).item()

    ones = torch.ones(model.n_layers, model.n_heads)
    zeroed = ones.clone()
    zeroed[layer, head] = 0
    return second_copy_loss(ones) - second_copy_loss(zeroed)
'''),
    dict(exercise="ex4", kind="targets not shifted",
         mistake="pairs the logits at positions span+2 .. 2·span with the ids at the same positions, forgetting that a position's logits predict the next id",
         names=["shift", "one position later", "next", "off by one", "targets"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)[:, span + 2 : 2 * span + 1]
        target = ids[:, span + 2 : 2 * span + 1]
        return F.cross_entropy(logits.flatten(0, 1), target.flatten())

    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return float(loss(ablated) - loss(intact))
'''),
    dict(exercise="ex4", kind="second copy's first token included",
         mistake="includes the prediction of the second copy's first token (logits span .. 2·span-1 against ids span+1 .. 2·span)",
         names=["first token", "second copy's first", "span + 1", "span+1"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span : 2 * span]
        target = ids[:, span + 1 : 2 * span + 1]
        return F.cross_entropy(pred.reshape(-1, pred.size(-1)), target.reshape(-1))

    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return float(loss(ablated) - loss(mask))
'''),
    dict(exercise="ex4", kind="whole sequence",
         mistake="measures the mean loss over every position of the sequence, not over the second copy",
         names=["second copy", "whole sequence", "every position", "all positions"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)[:, :-1]
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))

    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return float(loss(ablated) - loss(mask))
'''),
    dict(exercise="ex4", kind="indices swapped",
         mistake="zeroes head_mask[head, layer] instead of head_mask[layer, head]",
         names=["[layer, head]", "swap", "wrong head", "layer"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 1 : 2 * span]
        target = ids[:, span + 2 :]
        return F.cross_entropy(pred.reshape(-1, pred.shape[-1]), target.reshape(-1))

    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[head, layer] = 0
    return float(loss(ablated) - loss(mask))
'''),
    dict(exercise="ex4", kind="mask aliased",
         mistake="zeroes the head in the very tensor used for the intact run (no copy), so both losses are the ablated one and the effect is 0",
         names=["copy", "clone", "same mask", "intact", "zero"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 1 : 2 * span]
        target = ids[:, span + 2 : 2 * span + 1]
        return F.cross_entropy(pred.reshape(-1, pred.shape[-1]), target.reshape(-1))

    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact
    ablated[layer, head] = 0
    return float(loss(ablated) - loss(intact))
'''),
    dict(exercise="ex4", kind="summed loss",
         mistake="uses reduction='sum', the total loss over the second copy instead of its mean",
         names=["mean", "sum", "reduction"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 1 : 2 * span]
        target = ids[:, span + 2 : 2 * span + 1]
        return F.cross_entropy(pred.reshape(-1, pred.shape[-1]), target.reshape(-1), reduction="sum")

    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return float(loss(ablated) - loss(mask))
'''),
    dict(exercise="ex4", kind="tensor returned",
         mistake="returns the difference as a 0-d torch tensor where a float is asked",
         names=["float", "tensor"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 1 : 2 * span]
        target = ids[:, span + 2 : 2 * span + 1]
        return F.cross_entropy(pred.reshape(-1, pred.shape[-1]), target.reshape(-1))

    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
]

VALID = [
    # ex1
    dict(exercise="ex1", kind="fancy indexing",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="np.diagonal, np.float64",
         code='''def my_previous_token_score(weights):
    return np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean()
'''),
    dict(exercise="ex1", kind="loop",
         code='''def my_previous_token_score(weights):
    B, T, _ = weights.shape
    total = 0.0
    for t in range(1, T):
        total += weights[:, t, t - 1].sum()
    return float(total / (B * (T - 1)))
'''),
    # ex2
    dict(exercise="ex2", kind="fancy indexing",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="diagonal slice",
         code='''def my_induction_score(weights, span):
    diag = np.diagonal(weights, offset=-(span - 1), axis1=1, axis2=2)   # row r + span - 1, column r
    return float(diag[:, 2 : span + 2].mean())
'''),
    dict(exercise="ex2", kind="selector mask",
         code='''def my_induction_score(weights, span):
    T = 1 + 2 * span
    select = np.zeros((T, T), dtype=bool)
    for t in range(span + 1, 2 * span + 1):
        select[t, t - span + 1] = True
    return float(weights[:, select].mean())
'''),
    # ex3
    dict(exercise="ex3", kind="cat",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.long)
    s = torch.randint(0, vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, s, s], dim=1)
'''),
    dict(exercise="ex3", kind="preallocated",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    out = torch.empty(batch, 1 + 2 * span, dtype=torch.long)
    out[:, 0] = vocab_size - 1
    s = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    out[:, 1 : span + 1] = s
    out[:, span + 1 :] = s
    return out
'''),
    dict(exercise="ex3", kind="repeat",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    s = torch.randint(low=0, high=vocab_size - 1, size=(batch, span), generator=generator)
    bos = s.new_full((batch, 1), vocab_size - 1)
    return torch.cat((bos, s.repeat(1, 2)), dim=-1)
'''),
    # ex4
    dict(exercise="ex4", kind="cross_entropy",
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def second_copy_loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 1 : 2 * span]
        target = ids[:, span + 2 : 2 * span + 1]
        return F.cross_entropy(pred.reshape(-1, pred.shape[-1]), target.reshape(-1)).item()

    intact = torch.ones(model.n_layers, model.n_heads)
    zeroed = intact.clone()
    zeroed[layer, head] = 0.0
    return second_copy_loss(zeroed) - second_copy_loss(intact)
'''),
    dict(exercise="ex4", kind="log_softmax and gather",
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logp = torch.log_softmax(model(ids, mask), dim=-1)
        pred = logp[:, span + 1 : 2 * span]
        target = ids[:, span + 2 : 2 * span + 1]
        return -pred.gather(-1, target.unsqueeze(-1)).mean()

    mask = torch.ones((model.n_layers, model.n_heads), dtype=torch.float32)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return float(loss(ablated) - loss(mask))
'''),
    dict(exercise="ex4", kind="per-row mean, torch.where mask",
         code='''def my_ablation_effect(model, ids, layer, head, span):
    positions = torch.arange(span + 1, 2 * span)

    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        per_row = [F.cross_entropy(logits[b, positions], ids[b, positions + 1])
                   for b in range(ids.shape[0])]
        return torch.stack(per_row).mean()

    ones = torch.ones(model.n_layers, model.n_heads)
    which = torch.zeros_like(ones, dtype=torch.bool)
    which[layer, head] = True
    ablated = torch.where(which, torch.zeros_like(ones), ones)
    return (loss(ablated) - loss(ones)).item()
'''),
]
