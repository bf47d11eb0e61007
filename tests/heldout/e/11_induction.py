"""Held-out answers for exercises/11_induction.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 my_previous_token_score
    dict(exercise="ex1", kind="main diagonal",
         mistake="reads weights[:, t, t], the weight each query gives itself, instead of key t - 1",
         names=["t - 1", "diagonal", "itself"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t, t].mean())
'''),
    dict(exercise="ex1", kind="diagonal offset sign",
         mistake="takes np.diagonal with offset=+1, the entries [t, t + 1] above the diagonal (the future, all zero), instead of offset=-1",
         names=["t - 1", "offset", "sign"],
         code='''def my_previous_token_score(weights):
    return float(np.diagonal(weights, offset=1, axis1=1, axis2=2).mean())
'''),
    dict(exercise="ex1", kind="query 0 included",
         mistake="averages over all T queries, so query 0 (which has no previous token) reads key -1, the last key, and drags the mean down",
         names=["query 0", "t = 1", "t >= 1"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(T)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="divides by T",
         mistake="sums the T - 1 entries of the sub-diagonal but divides by T instead of T - 1",
         names=["t - 1", "query 0", "divide"],
         code='''def my_previous_token_score(weights):
    B, T, _ = weights.shape
    total = np.diagonal(weights, offset=-1, axis1=1, axis2=2).sum()
    return float(total / (B * T))
'''),
    dict(exercise="ex1", kind="key and query swapped",
         mistake="indexes weights[:, t - 1, t], treating rows as keys and columns as queries (the entries above the diagonal, all zero)",
         names=["row", "query", "layout"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t - 1, t].mean())
'''),
    dict(exercise="ex1", kind="diagonal over the wrong axes",
         mistake="calls np.diagonal(weights, offset=-1) with its default axes 0 and 1, pairing batch index with query instead of query with key",
         names=["axis", "axes", "batch"],
         code='''def my_previous_token_score(weights):
    return float(np.diagonal(weights, offset=-1).mean())
'''),
    dict(exercise="ex1", kind="mean over batch only",
         mistake="averages over the batch only and returns the (T - 1,) per-query array instead of one float",
         names=["float", "mean over", "queries"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return weights[:, t, t - 1].mean(axis=0)
'''),
    dict(exercise="ex1", kind="first example only",
         mistake="scores weights[0], the first sequence of the batch, instead of averaging over the batch",
         names=["batch", "every sequence", "weights[0]"],
         code='''def my_previous_token_score(weights):
    w = weights[0]
    T = w.shape[-1]
    return float(np.mean([w[t, t - 1] for t in range(1, T)]))
'''),
    dict(exercise="ex1", kind="hard-coded length",
         mistake="hard-codes the lesson's row length T = 33 for the query range instead of reading it from weights.shape",
         names=["hard-coded", "shape", "length"],
         code='''def my_previous_token_score(weights):
    t = np.arange(1, 33)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="whole lower block",
         mistake="averages the whole block weights[:, 1:, :-1] instead of its diagonal, the entries [t, t - 1]",
         names=["diagonal", "t - 1", "block"],
         code='''def my_previous_token_score(weights):
    return float(weights[:, 1:, :-1].mean())
'''),
    dict(exercise="ex1", kind="first key",
         mistake="reads key 0 (the first token) for every query instead of key t - 1",
         names=["key 0", "t - 1", "first token"],
         code='''def my_previous_token_score(weights):
    return float(weights[:, 1:, 0].mean())
'''),
    dict(exercise="ex1", kind="argmax fraction",
         mistake="counts the fraction of queries whose largest weight is on key t - 1 instead of averaging the weight itself",
         names=["argmax", "weight", "fraction"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    top = weights.argmax(axis=-1)[:, 1:]
    return float((top == np.arange(T - 1)).mean())
'''),
    dict(exercise="ex1", kind="query 1 dropped",
         mistake="starts the queries at t = 2 instead of t = 1, leaving out query 1",
         names=["t = 1", "query 1", "range"],
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(2, T)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="torch keywords on numpy",
         mistake="calls weights.diagonal(offset=-1, dim1=1, dim2=2), torch's keywords, on a NumPy array (NumPy's are axis1/axis2)",
         names=["numpy", "axis1", "torch"],
         code='''def my_previous_token_score(weights):
    return float(weights.diagonal(offset=-1, dim1=1, dim2=2).mean())
'''),
    dict(exercise="ex1", kind="max instead of mean",
         mistake="returns the largest weight on key t - 1 instead of the mean",
         names=["mean", "max"],
         code='''def my_previous_token_score(weights):
    return float(np.diagonal(weights, offset=-1, axis1=1, axis2=2).max())
'''),
    dict(exercise="ex1", kind="zeroes the input",
         mistake="masks out query 0 by writing zeros into the caller's weights array",
         names=["in place", "modif", "input"],
         code='''def my_previous_token_score(weights):
    weights[:, 0, :] = 0.0
    d = np.diagonal(weights, offset=-1, axis1=1, axis2=2)
    return float(d.mean())
'''),
    # ---------------------------------------------------------------- ex2 my_induction_score
    dict(exercise="ex2", kind="same token, not the next",
         mistake="reads key t - span, the earlier occurrence of the same token, instead of the token after it, t - span + 1",
         names=["t - span + 1", "next", "earlier occurrence"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span].mean())
'''),
    dict(exercise="ex2", kind="t - span - 1",
         mistake="reads key t - span - 1, the token before the earlier occurrence, instead of t - span + 1",
         names=["t - span + 1", "sign", "before"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span - 1].mean())
'''),
    dict(exercise="ex2", kind="forgets the bos",
         mistake="takes the second copy as queries span .. 2·span - 1, forgetting that the BOS at position 0 shifts it to span + 1 .. 2·span",
         names=["bos", "span + 1", "query range"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span, 2 * span)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="first copy queries",
         mistake="averages over the queries of the first copy, 1 .. span, whose key t - span + 1 wraps round to the end",
         names=["second copy", "span + 1", "first copy"],
         code='''def my_induction_score(weights, span):
    t = np.arange(1, span + 1)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="last query dropped",
         mistake="stops the queries at 2·span - 1 (np.arange(span + 1, 2 * span)), leaving out the last query 2·span",
         names=["2·span", "2 * span", "last query"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="one query too many",
         mistake="starts the queries at span, the last token of the first copy, as well as the whole second copy",
         names=["span + 1", "first query", "query range"],
         code='''def my_induction_score(weights, span):
    T = weights.shape[-1]
    t = np.arange(span, T)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="offset above the diagonal",
         mistake="uses np.diagonal with offset=span - 1 (entries [t, t + span - 1], above the diagonal) instead of -(span - 1)",
         names=["offset", "sign", "-(span - 1)"],
         code='''def my_induction_score(weights, span):
    d = np.diagonal(weights, offset=span - 1, axis1=1, axis2=2)
    return float(d.mean())
'''),
    dict(exercise="ex2", kind="key and query swapped",
         mistake="indexes weights[:, t - span + 1, t], rows as keys, which reads the zero entries above the diagonal",
         names=["row", "query", "layout"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t - span + 1, t].mean())
'''),
    dict(exercise="ex2", kind="hard-coded span",
         mistake="hard-codes the lesson's span = 16 (queries 17 .. 32, key t - 15) instead of using the span argument",
         names=["hard-coded", "span"],
         code='''def my_induction_score(weights, span):
    t = np.arange(17, 33)
    return float(weights[:, t, t - 15].mean())
'''),
    dict(exercise="ex2", kind="outer indexing",
         mistake="indexes weights[:, t][:, :, t - span + 1], which takes every (query, key) pair of the two ranges instead of the pairs (t, t - span + 1)",
         names=["pair", "diagonal", "fancy index"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t][:, :, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="whole block",
         mistake="averages the block of second-copy queries by first-copy keys instead of its diagonal",
         names=["diagonal", "block", "t - span + 1"],
         code='''def my_induction_score(weights, span):
    return float(weights[:, span + 1 :, 2 : span + 2].mean())
'''),
    dict(exercise="ex2", kind="per-sequence scores",
         mistake="averages over the queries only and returns one score per sequence, a (B,) array, instead of one float",
         names=["float", "batch", "mean over"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return weights[:, t, t - span + 1].mean(axis=1)
'''),
    dict(exercise="ex2", kind="sum instead of mean",
         mistake="sums the weights over the queries (then averages over the batch) instead of taking the mean",
         names=["mean", "sum"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span + 1].sum(axis=1).mean())
'''),
    dict(exercise="ex2", kind="previous-token key",
         mistake="reads key t - 1, the previous token (exercise 1's score on the second copy), instead of t - span + 1",
         names=["t - span + 1", "previous", "t - 1"],
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex2", kind="returns a tensor",
         mistake="converts to torch and returns the 0-d tensor from .mean() instead of a float",
         names=["float", "tensor", "item"],
         code='''def my_induction_score(weights, span):
    w = torch.as_tensor(weights)
    t = torch.arange(span + 1, 2 * span + 1)
    return w[:, t, t - span + 1].mean()
'''),
    dict(exercise="ex2", kind="span from T rounded up",
         mistake="recomputes the span as (T + 1) // 2 from the pattern instead of using the argument, one too many",
         names=["span", "argument", "shape"],
         code='''def my_induction_score(weights, span):
    T = weights.shape[-1]
    s = (T + 1) // 2
    t = np.arange(s + 1, T)
    return float(weights[:, t, t - s + 1].mean())
'''),
    # ---------------------------------------------------------------- ex3 my_repeated_span_batch
    dict(exercise="ex3", kind="global rng",
         mistake="draws the span with torch.randint without generator=, from the global generator, so the same generator state gives different batches",
         names=["generator"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span))
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="reseeds the global rng",
         mistake="calls torch.manual_seed(0) and draws from the global generator, so the batch ignores the generator and resets the global state",
         names=["generator", "manual_seed", "global"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    torch.manual_seed(0)
    first = torch.randint(0, vocab_size - 1, (batch, span))
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.long)
    return torch.cat((bos, first, first), dim=1)
'''),
    dict(exercise="ex3", kind="numpy rng",
         mistake="draws the span with np.random.randint, NumPy's global generator, instead of torch.randint(..., generator=generator)",
         names=["generator", "np.random", "numpy"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.from_numpy(np.random.randint(0, vocab_size - 1, size=(batch, span))).long()
    bos = torch.full((batch, 1), vocab_size - 1)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="draws the bos id too",
         mistake="draws span tokens from 0..vocab_size - 1, so the BOS id vocab_size - 1 can appear inside the span",
         names=["vocab_size - 1", "bos", "0..vocab_size"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="bos is 0",
         mistake="uses token 0 as the BOS instead of vocab_size - 1",
         names=["bos", "vocab_size - 1", "column 0"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.zeros(batch, 1, dtype=torch.long)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="bos is vocab_size",
         mistake="uses vocab_size as the BOS id, one past the vocabulary, instead of vocab_size - 1",
         names=["vocab_size - 1", "bos", "outside"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="ids shifted up by one",
         mistake="draws from 1..vocab_size - 1 (torch.randint(1, vocab_size, ...)), which includes the BOS id and never draws 0",
         names=["0..vocab_size", "bos", "vocab_size - 1"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(1, vocab_size, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="no bos",
         mistake="leaves out the BOS column, returning (batch, 2·span)",
         names=["bos", "shape", "column 0"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([first, first], dim=1)
'''),
    dict(exercise="ex3", kind="bos at the end",
         mistake="appends the BOS as the last column instead of putting it at position 0",
         names=["column 0", "bos", "position 0"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    bos = torch.full((batch, 1), vocab_size - 1)
    return torch.cat([first, first, bos], dim=1)
'''),
    dict(exercise="ex3", kind="one span for every row",
         mistake="draws one span of shape (span,) and repeats it down the batch, so every row is the same",
         names=["every row", "different span", "rows"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (span,), generator=generator)
    row = torch.cat([torch.tensor([vocab_size - 1]), first, first])
    return row.repeat(batch, 1)
'''),
    dict(exercise="ex3", kind="second copy drawn afresh",
         mistake="draws the second copy with a new torch.randint instead of repeating the first span",
         names=["same span", "second copy", "copy"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    second = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, second], dim=1)
'''),
    dict(exercise="ex3", kind="second copy reversed",
         mistake="appends the span flipped (first.flip(1)) instead of the same span in the same order",
         names=["same span", "order", "revers"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first.flip(1)], dim=1)
'''),
    dict(exercise="ex3", kind="each token doubled",
         mistake="uses repeat_interleave(2, dim=1), which doubles each token (a a b b) instead of repeating the span (a b a b)",
         names=["repeat_interleave", "same span again", "interleav"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    bos = torch.full((batch, 1), vocab_size - 1)
    return torch.cat([bos, first.repeat_interleave(2, dim=1)], dim=1)
'''),
    dict(exercise="ex3", kind="float ids",
         mistake="builds the ids from torch.rand and floor(), which leaves them a float tensor instead of long",
         names=["long", "dtype", "float"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.floor(torch.rand(batch, span, generator=generator) * (vocab_size - 1))
    bos = torch.full((batch, 1), float(vocab_size - 1))
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="returns numpy",
         mistake="returns a NumPy array (.numpy()) instead of a torch long tensor",
         names=["tensor", "numpy", "torch"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1).numpy()
'''),
    dict(exercise="ex3", kind="transposed layout",
         mistake="stacks the sequences as columns, returning (1 + 2·span, batch) instead of (batch, 1 + 2·span)",
         names=["shape", "transpose", "(batch, 1 + 2"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (span, batch), generator=generator)
    bos = torch.full((1, batch), vocab_size - 1)
    return torch.cat([bos, first, first], dim=0)
'''),
    dict(exercise="ex3", kind="bos overwrites the span",
         mistake="builds 2·span positions and writes the BOS over position 0, so the row is one short and the copies differ at their first token",
         names=["1 + 2·span", "shape", "overwrit"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    ids = torch.cat([first, first], dim=1)
    ids[:, 0] = vocab_size - 1
    return ids
'''),
    dict(exercise="ex3", kind="reseeds the generator",
         mistake="calls generator.manual_seed(0) first, so the batch is the same whatever state the generator was in",
         names=["generator", "manual_seed", "reseed"],
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    generator.manual_seed(0)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    bos = torch.full((batch, 1), vocab_size - 1)
    return torch.cat([bos, first, first], dim=1)
'''),
    # ---------------------------------------------------------------- ex4 my_ablation_effect
    dict(exercise="ex4", kind="sign flipped",
         mistake="returns intact loss minus ablated loss, the fall instead of the rise",
         names=["sign", "rise", "minus"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten()).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(mask) - loss(ablated)
'''),
    dict(exercise="ex4", kind="includes the copy's first token",
         mistake="scores the logits at span .. 2·span - 1 against ids span + 1 .. 2·span, including the second copy's first token, which nothing predicts",
         names=["first token", "span + 1", "nothing predicts"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span : 2 * span]
        return F.cross_entropy(pred.reshape(-1, pred.shape[-1]), ids[:, span + 1 :].reshape(-1)).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="no shift",
         mistake="scores the logits at positions span + 2 .. 2·span against the ids at the same positions, not the next ones",
         names=["shift", "next token", "t + 1"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 2 :]
        return F.cross_entropy(pred.flatten(0, 1), ids[:, span + 2 :].flatten()).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="whole-sequence loss",
         mistake="takes the loss over every position of the sequence instead of the second copy only",
         names=["second copy", "every position", "whole sequence"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, :-1].flatten(0, 1), ids[:, 1:].flatten()).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="layer and head swapped",
         mistake="zeroes mask[head, layer] instead of mask[layer, head]",
         names=["[layer, head]", "swap", "head index"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten()).item()
    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = torch.ones(model.n_layers, model.n_heads)
    ablated[head, layer] = 0.0
    return loss(ablated) - loss(intact)
'''),
    dict(exercise="ex4", kind="zeroes the whole layer",
         mistake="sets mask[layer] = 0, zeroing every head of the layer instead of one head",
         names=["whole layer", "one head", "every head"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten()).item()
    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer] = 0.0
    return loss(ablated) - loss(intact)
'''),
    dict(exercise="ex4", kind="keeps only the head",
         mistake="builds a mask of zeros with a 1 at [layer, head], keeping that head alone instead of zeroing it",
         names=["only", "inverted", "zeroes"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten()).item()
    ablated = torch.zeros(model.n_layers, model.n_heads)
    ablated[layer, head] = 1.0
    return loss(ablated) - loss(torch.ones(model.n_layers, model.n_heads))
'''),
    dict(exercise="ex4", kind="zeroes the weights in place",
         mistake="ablates the head by zeroing its columns of the layer's output projection in place, which changes the model for good",
         names=["model", "change", "weights"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss():
        with torch.no_grad():
            logits = model(ids)
        return F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten()).item()
    intact = loss()
    att = model.layers[layer]
    d = att.d_head
    with torch.no_grad():
        att.o.weight[:, head * d : (head + 1) * d] = 0.0
    return loss() - intact
'''),
    dict(exercise="ex4", kind="class axis last",
         mistake="passes (B, S, vocab) logits and (B, S) targets to F.cross_entropy, which wants the classes on axis 1",
         names=["class", "axis 1", "transpose"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span], ids[:, span + 2 :]).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="starts one late",
         mistake="scores the logits from span + 2 on (predicting span + 3 ..), leaving out the prediction of the second copy's second token",
         names=["span + 1", "span + 2", "range"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 2 : 2 * span].flatten(0, 1),
                               ids[:, span + 3 :].flatten()).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="ratio",
         mistake="returns the ratio of the ablated to the intact loss instead of their difference",
         names=["difference", "minus", "ratio"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten()).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) / loss(mask)
'''),
    dict(exercise="ex4", kind="nll on raw logits",
         mistake="applies F.nll_loss to the raw logits without log_softmax, so it is not the cross-entropy",
         names=["log_softmax", "cross-entropy", "nll"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.nll_loss(logits[:, span + 1 : 2 * span].flatten(0, 1),
                          ids[:, span + 2 :].flatten()).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="softmax before cross-entropy",
         mistake="passes softmax probabilities to F.cross_entropy, which applies log_softmax itself",
         names=["logits", "softmax", "probabilit"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            probs = F.softmax(model(ids, mask), dim=-1)
        return F.cross_entropy(probs[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten()).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="last prediction only",
         mistake="scores only the last prediction, logits[:, -2] against ids[:, -1], instead of every prediction of the second copy",
         names=["second copy", "last position", "every prediction"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, -2], ids[:, -1]).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="summed loss",
         mistake="sums the cross-entropy over the predictions (reduction='sum') instead of taking the mean",
         names=["mean", "sum", "reduction"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten(), reduction="sum").item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="first copy",
         mistake="measures the loss on the first copy (logits 1 .. span - 1 predicting ids 2 .. span) instead of the second",
         names=["second copy", "first copy"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, 1:span].flatten(0, 1), ids[:, 2 : span + 1].flatten()).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="returns a tensor",
         mistake="returns the difference of the two loss tensors instead of a float",
         names=["float", "item", "tensor"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                               ids[:, span + 2 :].flatten())
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="accuracy instead of loss",
         mistake="measures the drop in next-token accuracy (argmax) instead of the rise of the cross-entropy loss",
         names=["cross-entropy", "loss", "accuracy"],
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def acc(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 1 : 2 * span].argmax(dim=-1)
        return (pred == ids[:, span + 2 :]).float().mean().item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0
    return acc(mask) - acc(ablated)
'''),
]

VALID = [
    # ---------------------------------------------------------------- ex1
    dict(exercise="ex1", kind="np.diagonal", code='''def my_previous_token_score(weights):
    return float(np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean())
'''),
    dict(exercise="ex1", kind="torch diagonal", code='''def my_previous_token_score(weights):
    w = torch.as_tensor(weights)
    return torch.diagonal(w, offset=-1, dim1=1, dim2=2).mean().item()
'''),
    dict(exercise="ex1", kind="loops", code='''def my_previous_token_score(weights):
    B, T, _ = weights.shape
    total = 0.0
    for b in range(B):
        for t in range(1, T):
            total += weights[b, t, t - 1]
    return float(total / (B * (T - 1)))
'''),
    dict(exercise="ex1", kind="einsum with a shifted eye", code='''def my_previous_token_score(weights):
    B, T, _ = weights.shape
    sub = np.eye(T, k=-1)
    return float(np.einsum("bqk,qk->", weights, sub) / (B * (T - 1)))
'''),
    dict(exercise="ex1", kind="trace", code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    per_seq = np.trace(weights, offset=-1, axis1=1, axis2=2) / (T - 1)
    return float(per_seq.mean())
'''),
    dict(exercise="ex1", kind="mask multiply", code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    mask = np.zeros((T, T))
    mask[np.arange(1, T), np.arange(T - 1)] = 1.0
    return float((weights * mask).sum(axis=(1, 2)).mean() / (T - 1))
'''),
    # ---------------------------------------------------------------- ex2
    dict(exercise="ex2", kind="np.diagonal sliced", code='''def my_induction_score(weights, span):
    d = np.diagonal(weights, offset=-(span - 1), axis1=1, axis2=2)  # t = span - 1 .. 2·span
    return float(d[:, 2:].mean())
'''),
    dict(exercise="ex2", kind="loops", code='''def my_induction_score(weights, span):
    B = weights.shape[0]
    vals = [weights[b, t, t - span + 1] for b in range(B) for t in range(span + 1, 2 * span + 1)]
    return float(np.mean(vals))
'''),
    dict(exercise="ex2", kind="mask multiply", code='''def my_induction_score(weights, span):
    B, T, _ = weights.shape
    mask = np.zeros((T, T))
    for t in range(span + 1, T):
        mask[t, t - span + 1] = 1.0
    return float(np.einsum("bqk,qk->", weights, mask) / (B * span))
'''),
    dict(exercise="ex2", kind="torch gather", code='''def my_induction_score(weights, span):
    w = torch.as_tensor(weights)
    rows = w[:, span + 1 :]                                    # (B, span, T)
    keys = torch.arange(2, span + 2).expand(w.shape[0], span)  # key t - span + 1
    return rows.gather(2, keys[..., None]).mean().item()
'''),
    dict(exercise="ex2", kind="shifted eye, second half", code='''def my_induction_score(weights, span):
    T = 1 + 2 * span
    sel = np.eye(T, k=-(span - 1))
    sel[: span + 1] = 0.0
    return float((weights * sel).sum(axis=(-2, -1)).mean() / span)
'''),
    # ---------------------------------------------------------------- ex3
    dict(exercise="ex3", kind="fill an empty tensor", code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    ids = torch.empty(batch, 1 + 2 * span, dtype=torch.long)
    ids[:, 0] = vocab_size - 1
    ids[:, 1 : span + 1] = torch.randint(0, vocab_size - 1, (batch, span), generator=generator)
    ids[:, span + 1 :] = ids[:, 1 : span + 1]
    return ids
'''),
    dict(exercise="ex3", kind="repeat and pad", code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, size=(batch, span), generator=generator)
    return F.pad(first.repeat(1, 2), (1, 0), value=vocab_size - 1)
'''),
    dict(exercise="ex3", kind="row by row", code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    rows = []
    for _ in range(batch):
        s = torch.randint(vocab_size - 1, (span,), generator=generator)
        rows.append(torch.cat([torch.tensor([vocab_size - 1]), s, s]))
    return torch.stack(rows)
'''),
    dict(exercise="ex3", kind="multinomial", code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    probs = torch.ones(batch, vocab_size - 1)
    first = torch.multinomial(probs, span, replacement=True, generator=generator)
    bos = first.new_full((batch, 1), vocab_size - 1)
    return torch.hstack([bos, first, first])
'''),
    dict(exercise="ex3", kind="expand and reshape", code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (batch, 1, span), generator=generator)
    copies = first.expand(batch, 2, span).reshape(batch, 2 * span)
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.long)
    return torch.cat((bos, copies), dim=-1)
'''),
    # ---------------------------------------------------------------- ex4
    dict(exercise="ex4", kind="log_softmax and nll_loss", code='''def my_ablation_effect(model, ids, layer, head, span):
    targets = ids[:, span + 2 :].reshape(-1)
    def loss(mask):
        with torch.no_grad():
            logp = F.log_softmax(model(ids, mask)[:, span + 1 : -1], dim=-1)
        return F.nll_loss(logp.reshape(-1, logp.shape[-1]), targets).item()
    mask = torch.ones(model.n_layers, model.n_heads)
    ablated = mask.clone()
    ablated[layer, head] = 0.0
    return loss(ablated) - loss(mask)
'''),
    dict(exercise="ex4", kind="classes on axis 1", code='''def my_ablation_effect(model, ids, layer, head, span):
    losses = []
    for zero in (True, False):
        mask = torch.ones(model.n_layers, model.n_heads)
        if zero:
            mask[layer, head] = 0.0
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits[:, span + 1 : 2 * span].transpose(1, 2)   # (B, vocab, span - 1)
        losses.append(F.cross_entropy(pred, ids[:, span + 2 :]).item())
    return float(losses[0] - losses[1])
'''),
    dict(exercise="ex4", kind="one-hot mask, narrow", code='''def my_ablation_effect(model, ids, layer, head, span):
    L, H = model.n_layers, model.n_heads
    ablated = 1.0 - F.one_hot(torch.tensor(layer * H + head), L * H).float().view(L, H)
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)
        pred = logits.narrow(1, span + 1, span - 1)             # positions span+1 .. 2·span-1
        target = ids.narrow(1, span + 2, span - 1)              # the ids one step later
        return F.cross_entropy(pred.reshape(-1, logits.shape[-1]), target.reshape(-1)).item()
    return loss(ablated) - loss(torch.ones(L, H))
'''),
    dict(exercise="ex4", kind="shift first, then slice; torch.where mask", code='''def my_ablation_effect(model, ids, layer, head, span):
    def loss(mask):
        with torch.no_grad():
            logits = model(ids, mask)[:, :-1]                  # logits[:, i] predicts ids[:, i + 1]
        targets = ids[:, 1:]
        pred, tgt = logits[:, span + 1 :], targets[:, span + 1 :]
        return F.cross_entropy(pred.flatten(0, 1), tgt.flatten()).item()
    keep = torch.ones((model.n_layers, model.n_heads))
    drop = torch.where((torch.arange(model.n_layers)[:, None] == layer)
                       & (torch.arange(model.n_heads)[None, :] == head), 0.0, keep)
    return loss(drop) - loss(keep)
'''),
    dict(exercise="ex4", kind="both masks in one batch", code='''def my_ablation_effect(model, ids, layer, head, span):
    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer][head] = 0
    out = []
    with torch.no_grad():
        for mask in (intact, ablated):
            logits = model(ids, mask)
            out.append(F.cross_entropy(logits[:, span + 1 : 2 * span].reshape(-1, model.vocab_size),
                                       ids[:, span + 2 : 2 * span + 1].reshape(-1)))
    return (out[1] - out[0]).item()
'''),
]
