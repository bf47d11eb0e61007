"""Named wrong answers for solutions/11_induction.ipynb; each must fail its check by name."""

_LOSS = '''    def second_copy_loss(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        pred = logits[:, span + 1 : 2 * span]
        return F.cross_entropy(pred.flatten(0, 1), ids[:, span + 2 :].flatten()).item()
'''


def _ablation(body: str, loss: str = _LOSS) -> str:
    """An ablation answer: its loss helper and the lines that use it."""
    return "def my_ablation_effect(model, ids, layer, head, span):\n" + loss + body


def _windowed(pred: str, target: str, tail: str = "") -> str:
    """An ablation answer whose loss reads other logits and targets."""
    loss = f'''    def second_copy_loss(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        pred = logits[:, {pred}]
        return F.cross_entropy(pred.flatten(0, 1), ids[:, {target}].flatten()).item()
'''
    return _ablation(tail or _RIGHT_MASKS, loss)


_RIGHT_MASKS = '''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
'''

MISTAKES = [
    dict(exercise="ex1", kind="median instead of mean", expect="not the mean weight",
         id="induction.score-wrong-value",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(np.median(weights[:, t, t - 1]))
'''),
    # ---------------------------------------------------------------- ex1 previous-token score
    dict(exercise="ex1", kind="next key t + 1", expect="above the diagonal",
         id="induction.score-above-diagonal",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(T - 1)
    return float(weights[:, t, t + 1].mean())
'''),
    dict(exercise="ex1", kind="np.diagonal with offset +1", expect="offset=+1",
         id="induction.score-above-diagonal",
         code='''def my_previous_token_score(weights):
    return float(np.diagonal(weights, offset=1, axis1=1, axis2=2).mean())
'''),
    dict(exercise="ex1", kind="rows and columns swapped", expect="swaps rows and columns",
         id="induction.score-above-diagonal",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t - 1, t].mean())
'''),
    dict(exercise="ex1", kind="query 0 included (index wraps)", expect="query 0 included",
         id="induction.prev-query-zero",
         code='''def my_previous_token_score(weights):
    t = np.arange(weights.shape[-1])
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="divided by T", expect="divided by T instead of T - 1",
         id="induction.prev-query-zero",
         code='''def my_previous_token_score(weights):
    B, T, _ = weights.shape
    t = np.arange(1, T)
    return float(weights[:, t, t - 1].sum() / (B * T))
'''),
    dict(exercise="ex1", kind="query 0 clipped to key 0", expect="query 0",
         id="induction.prev-query-zero",
         code='''def my_previous_token_score(weights):
    t = np.arange(weights.shape[-1])
    return float(weights[:, t, np.maximum(t - 1, 0)].mean())
'''),
    dict(exercise="ex1", kind="sum instead of mean", expect="summed over the batch and the queries",
         id="induction.score-sum",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t, t - 1].sum())
'''),
    dict(exercise="ex1", kind="summed over the queries", expect="summed over the queries",
         id="induction.score-sum",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t, t - 1].sum(axis=1).mean())
'''),
    dict(exercise="ex1", kind="first example only", expect="first example",
         id="induction.score-one-example",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[0, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="np.diag of the first pattern", expect="weights[0]",
         id="induction.score-one-example",
         code='''def my_previous_token_score(weights):
    return float(np.diag(weights[0], k=-1).mean())
'''),
    dict(exercise="ex1", kind="the current token's key", expect="current token itself",
         id="induction.prev-wrong-key",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t, t].mean())
'''),
    dict(exercise="ex1", kind="two positions back", expect="two positions back",
         id="induction.prev-wrong-key",
         code='''def my_previous_token_score(weights):
    return float(np.diagonal(weights, offset=-2, axis1=1, axis2=2).mean())
'''),
    dict(exercise="ex1", kind="the first key (a sink)", expect="sink",
         id="induction.prev-wrong-key",
         code='''def my_previous_token_score(weights):
    return float(weights[:, 1:, 0].mean())
'''),
    dict(exercise="ex1", kind="np.diagonal's default axes", expect="FIRST two axes",
         id="induction.score-whole-rows",
         code='''def my_previous_token_score(weights):
    return float(np.diagonal(weights, -1).mean())
'''),
    dict(exercise="ex1", kind="torch.diagonal's default dims", expect="FIRST two axes",
         id="induction.score-whole-rows",
         code='''def my_previous_token_score(weights):
    return torch.diagonal(torch.as_tensor(weights), -1).mean().item()
'''),
    dict(exercise="ex1", kind="argmax count", expect="LARGEST weight",
         id="induction.score-argmax",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    picked = weights.argmax(axis=-1)[:, 1:]
    return float((picked == np.arange(T - 1)).mean())
'''),
    dict(exercise="ex1", kind="one score per example", expect="one score per example",
         id="induction.score-shape",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return weights[:, t, t - 1].mean(axis=1)
'''),
    dict(exercise="ex1", kind="averaged over the batch only", expect="one number per query",
         id="induction.score-shape",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return weights[:, t, t - 1].mean(axis=0)
'''),
    dict(exercise="ex1", kind="loop stops one short", expect="the queries are not",
         id="induction.prev-wrong-queries",
         code='''def my_previous_token_score(weights):
    B, T, _ = weights.shape
    total = 0.0
    for b in range(B):
        for t in range(1, T - 1):
            total += weights[b, t, t - 1]
    return total / (B * (T - 2)) if T > 2 else 0.0
'''),
    dict(exercise="ex1", kind="a formatted string", expect="one float",
         id="induction.score-not-a-number",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return f"{weights[:, t, t - 1].mean():.3f}"
'''),
    dict(exercise="ex1", kind="mean of every weight", expect="whole rows",
         id="induction.score-whole-rows",
         code='''def my_previous_token_score(weights):
    return float(weights.mean())
'''),
    dict(exercise="ex1", kind="a block instead of its diagonal",
         expect="PAIR", id="induction.score-outer-index",
         code='''def my_previous_token_score(weights):
    return float(weights[:, 1:, :-1].mean())
'''),
    dict(exercise="ex1", kind="hard-coded T", expect="hard-coded",
         id="generic.hard-coded-size",
         code='''def my_previous_token_score(weights):
    t = np.arange(1, 7)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="query 0 zeroed in place", expect="in place",
         id="generic.input-modified",
         code='''def my_previous_token_score(weights):
    T = weights.shape[-1]
    weights[:, 0, :] = 0.0
    t = np.arange(1, T)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex1", kind="calls the lesson's score", expect="calls",
         id="rule.forbidden-call",
         code='''from helpers.induction import previous_token_score

def my_previous_token_score(weights):
    return float(previous_token_score(weights).mean())
'''),
    # ---------------------------------------------------------------- ex2 induction score
    dict(exercise="ex2", kind="key t - span", expect="duplicate-token head",
         id="induction.ind-duplicate-key",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span].mean())
'''),
    dict(exercise="ex2", kind="one added for the BOS", expect="added 1 for the BOS",
         id="induction.ind-wrong-key",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span + 2].mean())
'''),
    dict(exercise="ex2", kind="the first copy's queries", expect="FIRST copy",
         id="induction.ind-first-copy",
         code='''def my_induction_score(weights, span):
    t = np.arange(1, span + 1)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="no BOS: queries span..2span-1", expect="one position early",
         id="induction.ind-no-bos",
         code='''def my_induction_score(weights, span):
    t = np.arange(span, 2 * span)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="range stops one short", expect="the queries are not",
         id="induction.ind-query-range",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span)
    return float(weights[:, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="diagonal sliced as without a BOS", expect="the queries are not",
         id="induction.ind-query-range",
         code='''def my_induction_score(weights, span):
    diag = np.diagonal(weights, offset=-(span - 1), axis1=1, axis2=2)
    return float(diag[:, 1:].mean())
'''),
    dict(exercise="ex2", kind="the whole diagonal", expect="whole diagonal",
         id="induction.ind-whole-diagonal",
         code='''def my_induction_score(weights, span):
    return float(np.diagonal(weights, offset=-(span - 1), axis1=1, axis2=2).mean())
'''),
    dict(exercise="ex2", kind="previous-token score of the copy", expect="previous-token score",
         id="induction.ind-previous-token",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - 1].mean())
'''),
    dict(exercise="ex2", kind="rows and columns swapped", expect="above the diagonal",
         id="induction.score-above-diagonal",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t - span + 1, t].mean())
'''),
    dict(exercise="ex2", kind="sum", expect="MEAN", id="induction.score-sum",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span + 1].sum())
'''),
    dict(exercise="ex2", kind="last example only", expect="last example",
         id="induction.score-one-example",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[-1, t, t - span + 1].mean())
'''),
    dict(exercise="ex2", kind="np.diagonal's default axes", expect="FIRST two axes",
         id="induction.score-empty",
         code='''def my_induction_score(weights, span):
    diag = np.diagonal(weights, -(span - 1))
    return float(diag[..., span + 1 :].mean())
'''),
    dict(exercise="ex2", kind="argmax count", expect="LARGEST weight", id="induction.score-argmax",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float((weights[:, t].argmax(-1) == t - span + 1).mean())
'''),
    dict(exercise="ex2", kind="one score per example", expect="one score per example",
         id="induction.score-shape",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return weights[:, t, t - span + 1].mean(axis=-1)
'''),
    dict(exercise="ex2", kind="hard-coded span", expect="hard-coded",
         id="generic.hard-coded-size",
         code='''def my_induction_score(weights, span):
    t = np.arange(5, 9)
    return float(weights[:, t, t - 3].mean())
'''),
    dict(exercise="ex2", kind="calls the lesson's score", expect="calls", id="rule.forbidden-call",
         code='''import helpers.induction as hi

def my_induction_score(weights, span):
    return float(hi.induction_score(weights, span, prefix=1).mean())
'''),
    # ---------------------------------------------------------------- ex3 repeated-span batch
    dict(exercise="ex3", kind="no BOS", expect="BOS is missing", id="induction.batch-no-bos",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([first, first], dim=1)
'''),
    dict(exercise="ex3", kind="BOS id 0", expect="holds id 0", id="induction.batch-bos-id",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.zeros((batch, 1), dtype=torch.long)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="BOS at the end", expect="at the END", id="induction.batch-bos-id",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([first, first, bos], dim=1)
'''),
    dict(exercise="ex3", kind="ids up to vocab_size - 1", expect="can draw the BOS",
         id="induction.batch-bos-drawn",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="ids shifted up by one", expect="outside the vocabulary",
         id="induction.batch-range",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size, (batch, span), generator=generator) + 1
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="high one too small", expect="high is exclusive",
         id="induction.batch-not-uniform",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 2, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="ids from 1", expect="Id 0 is never drawn",
         id="induction.batch-not-uniform",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(1, vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="torch.manual_seed inside", expect="torch.manual_seed",
         id="induction.batch-global-seed",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    torch.manual_seed(generator.initial_seed())
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span))
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="the global RNG", expect="global random state",
         id="generic.global-rng",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span))
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="an unseeded NumPy generator", expect="same generator state",
         id="induction.batch-not-reproducible",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    rng = np.random.default_rng()
    first = torch.from_numpy(rng.integers(0, vocab_size - 1, size=(batch, span)))
    bos = torch.full((batch, 1), vocab_size - 1)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="a generator of its own", expect="does not draw from the generator",
         id="induction.batch-ignores-generator",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    g = torch.Generator().manual_seed(0)
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=g)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="two independent spans", expect="two independent spans",
         id="induction.batch-copies-differ",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    second = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, second], dim=1)
'''),
    dict(exercise="ex3", kind="second copy reversed", expect="reversed",
         id="induction.batch-copies-differ",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first.flip(1)], dim=1)
'''),
    dict(exercise="ex3", kind="one span for every row", expect="same span",
         id="induction.batch-same-rows",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    span_ids = torch.randint(vocab_size - 1, (span,), generator=generator)
    row = torch.cat([torch.tensor([vocab_size - 1]), span_ids, span_ids])
    return row.repeat(batch, 1)
'''),
    dict(exercise="ex3", kind="stacked copies (B, span, 2)", expect="torch.stack",
         id="induction.batch-layout",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.stack([first, first], dim=-1)
'''),
    dict(exercise="ex3", kind="stacked then flattened", expect="interleaves",
         id="induction.batch-interleaved",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    pairs = torch.stack([first, first], dim=-1).reshape(batch, 2 * span)
    return torch.cat([bos, pairs], dim=1)
'''),
    dict(exercise="ex3", kind="float BOS column", expect="floats", id="induction.batch-float",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.ones(batch, 1) * (vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="int32 ids", expect="torch.long", id="induction.batch-dtype",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1, dtype=torch.int32)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator, dtype=torch.int32)
    return torch.cat([bos, first, first], dim=1)
'''),
    dict(exercise="ex3", kind="a NumPy batch", expect="NumPy array",
         id="induction.batch-not-a-tensor",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator).numpy()
    bos = np.full((batch, 1), vocab_size - 1)
    return np.concatenate([bos, first, first], axis=1)
'''),
    dict(exercise="ex3", kind="a BOS before each copy", expect="a BOS before each copy",
         id="induction.batch-bos-twice",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, bos, first], dim=1)
'''),
    dict(exercise="ex3", kind="one copy", expect="one copy of the span only",
         id="induction.batch-one-copy",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first], dim=1)
'''),
    dict(exercise="ex3", kind="flattened into one sequence", expect="expected (batch, 1 + 2·span)",
         id="induction.batch-shape",
         code='''def my_repeated_span_batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1).flatten()
'''),
    dict(exercise="ex3", kind="calls the lesson's batch", expect="calls", id="rule.forbidden-call",
         code='''from helpers.induction import repeated_span_batch

def my_repeated_span_batch(batch, span, vocab_size, generator):
    return repeated_span_batch(batch, span, vocab_size, generator, prefix=1,
                               bos=vocab_size - 1)
'''),
    # ---------------------------------------------------------------- ex4 ablation
    dict(exercise="ex4", kind="intact minus ablated", expect="wrong sign",
         id="induction.ablation-sign",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return second_copy_loss(intact) - second_copy_loss(ablated)
''')),
    dict(exercise="ex4", kind="ratio", expect="the ratio ablated / intact",
         id="induction.ablation-ratio",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return second_copy_loss(ablated) / second_copy_loss(intact)
''')),
    dict(exercise="ex4", kind="summed losses", expect="reduction='sum'",
         id="induction.ablation-sum",
         code=_windowed("span + 1 : 2 * span", "span + 2 :").replace(
             ".flatten()).item()", ".flatten(), reduction='sum').item()")),
    dict(exercise="ex4", kind="the first copy", expect="the first copy",
         id="induction.ablation-first-copy",
         code=_windowed("1 : span", "2 : span + 1")),
    dict(exercise="ex4", kind="change of the repeat advantage", expect="repeat advantage",
         id="induction.ablation-advantage",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return advantage(intact) - advantage(ablated)
''', '''    def loss(logits, pred, target):
        return F.cross_entropy(logits[:, pred].flatten(0, 1), ids[:, target].flatten()).item()

    def advantage(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        first = loss(logits, slice(1, span), slice(2, span + 1))
        second = loss(logits, slice(span + 1, 2 * span), slice(span + 2, None))
        return first - second
''')),
    dict(exercise="ex4", kind="every position", expect="every position of the row",
         id="induction.ablation-all-positions",
         code=_windowed(":-1", "1:")),
    dict(exercise="ex4", kind="targets not shifted", expect="the NEXT token",
         id="induction.ablation-not-shifted",
         code=_windowed("span + 1 : 2 * span", "span + 1 : 2 * span")),
    dict(exercise="ex4", kind="the copy's first token included", expect="copying cannot predict",
         id="induction.ablation-copy-start",
         code=_windowed("span : 2 * span", "span + 1 :")),
    dict(exercise="ex4", kind="one position too late", expect="your losses are over the targets",
         id="induction.ablation-positions",
         code=_windowed("span + 2 : 2 * span", "span + 3 :")),
    dict(exercise="ex4", kind="layer and head swapped", expect="swapped",
         id="induction.ablation-swapped",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[head, layer] = 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
''')),
    dict(exercise="ex4", kind="the whole layer zeroed", expect="every head of layer",
         id="induction.ablation-whole-layer",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer] = 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
''')),
    dict(exercise="ex4", kind="heads counted from 1", expect="counted from 0",
         id="induction.ablation-wrong-mask",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head - 1] = 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
''')),
    dict(exercise="ex4", kind="mask semantics inverted", expect="inverted",
         id="induction.ablation-mask-inverted",
         code=_ablation('''    intact = torch.zeros(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 1.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
''')),
    dict(exercise="ex4", kind="one mask tensor for both", expect="does not copy a tensor",
         id="induction.ablation-mask-shared",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact
    ablated[layer, head] = 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
''')),
    dict(exercise="ex4", kind="== instead of =", expect="none of your calls",
         id="induction.ablation-not-ablated",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] == 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
''')),
    dict(exercise="ex4", kind="zeroes the head's weights", expect="changing the model's weights",
         id="induction.ablation-not-ablated",
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def second_copy_loss():
        with torch.no_grad():
            logits = model(ids, torch.ones(model.n_layers, model.n_heads))
        pred = logits[:, span + 1 : 2 * span]
        return F.cross_entropy(pred.flatten(0, 1), ids[:, span + 2 :].flatten()).item()

    intact = second_copy_loss()
    attn = model.layers[layer]
    d = attn.d_head
    with torch.no_grad():
        attn.o.weight[:, head * d : (head + 1) * d] = 0.0
    return second_copy_loss() - intact
'''),
    dict(exercise="ex4", kind="only the ablated loss", expect="you ran the model once",
         id="induction.ablation-one-run",
         code=_ablation('''    ablated = torch.ones(model.n_layers, model.n_heads)
    ablated[layer, head] = 0.0
    return second_copy_loss(ablated)
''')),
    dict(exercise="ex4", kind="model converted to float64", expect="convert the model itself",
         id="induction.ablation-model-changed",
         code='''def my_ablation_effect(model, ids, layer, head, span):
    model = model.double()

    def second_copy_loss(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        pred = logits[:, span + 1 : 2 * span]
        return F.cross_entropy(pred.flatten(0, 1), ids[:, span + 2 :].flatten()).item()

    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
'''),
    dict(exercise="ex4", kind="returns a tensor", expect="Python float",
         id="induction.ablation-tensor",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)
''', _LOSS.replace(".flatten()).item()", ".flatten())"))),
    dict(exercise="ex4", kind="per-example rises", expect="one number per example",
         id="induction.ablation-not-reduced",
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def losses(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        pred = logits[:, span + 1 : 2 * span]
        each = F.cross_entropy(pred.transpose(1, 2), ids[:, span + 2 :], reduction="none")
        return each.mean(dim=1).numpy()

    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return losses(ablated) - losses(intact)
'''),
    dict(exercise="ex4", kind="both losses returned", expect="return one float",
         id="induction.ablation-not-a-number",
         code=_ablation('''    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return second_copy_loss(ablated), second_copy_loss(intact)
''')),
    dict(exercise="ex4", kind="accuracy drop instead of loss", expect="It is not the rise",
         id="induction.ablation-wrong-value",
         code='''def my_ablation_effect(model, ids, layer, head, span):
    def accuracy(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        pred = logits[:, span + 1 : 2 * span].argmax(-1)
        return (pred == ids[:, span + 2 :]).float().mean().item()

    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return accuracy(intact) - accuracy(ablated)
'''),
    dict(exercise="ex4", kind="calls copy_losses", expect="calls", id="rule.forbidden-call",
         code='''from helpers.induction import copy_losses

def my_ablation_effect(model, ids, layer, head, span):
    ablated = torch.ones(model.n_layers, model.n_heads)
    ablated[layer, head] = 0.0
    return (copy_losses(model, ids, span, prefix=1, head_mask=ablated)[1]
            - copy_losses(model, ids, span, prefix=1)[1])
'''),
    dict(exercise="ex4", kind="calls ablation_mask", expect="calls", id="rule.forbidden-call",
         code='''import helpers.induction as hi

def my_ablation_effect(model, ids, layer, head, span):
    def second_copy_loss(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        pred = logits[:, span + 1 : 2 * span]
        return F.cross_entropy(pred.flatten(0, 1), ids[:, span + 2 :].flatten()).item()

    intact = torch.ones(model.n_layers, model.n_heads)
    return second_copy_loss(hi.ablation_mask(model, (layer, head))) - second_copy_loss(intact)
'''),
    # ---------------------------------------------------------------- round 2: sizes, APIs
    dict(exercise="ex1", kind="the lesson's T = 33 hard-coded", expect="hard-coded",
         id="generic.hard-coded-size",
         code='''def my_previous_token_score(weights):
    T = 33
    return float(np.mean([weights[:, t, t - 1] for t in range(1, T)]))
'''),
    dict(exercise="ex2", kind="the lesson's span = 16 hard-coded", expect="hard-coded",
         id="generic.hard-coded-size",
         code='''def my_induction_score(weights, span):
    w = torch.as_tensor(weights)
    q = torch.arange(16) + 17
    return w[:, q, q - 15].mean().item()
'''),
    dict(exercise="ex1", kind="torch's dim1/dim2 on NumPy", expect="NumPy array",
         id="induction.score-torch-on-numpy",
         code='''def my_previous_token_score(weights):
    return float(np.diagonal(weights, -1, dim1=1, dim2=2).mean())
'''),
    dict(exercise="ex2", kind="torch's .float() on a NumPy number", expect="torch's method",
         id="induction.score-torch-on-numpy",
         code='''def my_induction_score(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return weights[:, t, t - span + 1].mean().float()
'''),
    dict(exercise="ex1", kind="two index arrays one after the other", expect="PAIR",
         id="induction.score-outer-index",
         code='''def my_previous_token_score(weights):
    t = np.arange(1, weights.shape[-1])
    return float(weights[:, t][:, :, t - 1].mean())
'''),
    dict(exercise="ex2", kind="np.ix_ of queries and keys", expect="index both axes at once",
         id="induction.score-outer-index",
         code='''def my_induction_score(weights, span):
    q = np.arange(span + 1, 2 * span + 1)
    return float(np.mean([w[np.ix_(q, q - span + 1)] for w in weights]))
'''),
    dict(exercise="ex4", kind="(B, S, vocab) logits to cross_entropy", expect="axis 1",
         id="induction.ablation-class-axis",
         code=_ablation(_RIGHT_MASKS, '''    def second_copy_loss(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        return F.cross_entropy(logits[:, span + 1 : 2 * span], ids[:, span + 2 :]).item()
''')),
    dict(exercise="ex4", kind="nll_loss of softmax probabilities", expect="LOG-probability",
         id="induction.ablation-not-log-probs",
         code=_ablation(_RIGHT_MASKS, '''    def second_copy_loss(head_mask):
        with torch.no_grad():
            probs = model(ids, head_mask).softmax(-1)[:, span + 1 : 2 * span]
        return F.nll_loss(probs.reshape(-1, probs.shape[-1]), ids[:, span + 2 :].reshape(-1)).item()
''')),
    dict(exercise="ex4", kind="minus the target's raw logit", expect="target's logit",
         id="induction.ablation-not-log-probs",
         code=_ablation(_RIGHT_MASKS, '''    def second_copy_loss(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)[:, span + 1 : 2 * span]
        picked = logits.gather(-1, ids[:, span + 2 :, None])
        return -picked.mean().item()
''')),

    # ---------------------------------------------------------------- ex5–ex6 (issue 22): taken from held-out sets g and h after the checks were tuned on g, and written for the diagnoses no held-out answer reached
    dict(exercise='ex6', kind='mean over batch and features (set g)', expect='you averaged over the features',
         id='induction.mean-ablate-features',
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=(0, 2), keepdim=True)
    return mean.expand_as(head_out).clone()
'''),
    dict(exercise='ex6', kind='mean of head_out (set g)', expect='you took the mean of head_out itself',
         id='induction.mean-ablate-own-batch',
         code='''def my_mean_ablate(head_out, reference):
    return head_out.mean(dim=0, keepdim=True).expand_as(head_out).clone()
'''),
    dict(exercise='ex6', kind="own batch's mean (set h)", expect='you took the mean of head_out itself',
         id='induction.mean-ablate-own-batch',
         code='''def my_mean_ablate(head_out, reference):
    return head_out.mean(dim=0, keepdim=True).expand_as(head_out).clone()
'''),
    dict(exercise='ex6', kind='mean over batch and positions (set g)', expect='you averaged the reference over the positions',
         id='induction.mean-ablate-positions',
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=(0, 1))
    return mean.expand_as(head_out).clone()
'''),
    dict(exercise='ex6', kind='mean over positions (set g)', expect="sequence b got reference sequence b's mean over IT",
         id='induction.mean-ablate-positions',
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.mean(dim=1, keepdim=True)
    return mean.expand_as(head_out).clone()
'''),
    dict(exercise='ex6', kind='resample, not mean (set h)', expect="sequence b got the reference's sequence b",
         id='induction.mean-ablate-resample',
         code='''def my_mean_ablate(head_out, reference):
    B = head_out.shape[0]
    idx = torch.arange(B) % reference.shape[0]
    return reference[idx].clone()
'''),
    dict(exercise='ex6', kind='re-centred, not replaced (set h)', expect='your sequences differ from one another',
         id='induction.mean-ablate-rows-differ',
         code='''def my_mean_ablate(head_out, reference):
    return head_out - head_out.mean(dim=0, keepdim=True) + reference.mean(dim=0, keepdim=True)
'''),
    dict(exercise='ex6', kind='returns (T, d) (set g)', expect='you returned the',
         id='induction.mean-ablate-shape',
         code='''def my_mean_ablate(head_out, reference):
    return reference.mean(dim=0)
'''),
    dict(exercise='ex6', kind='keepdim (1, T, d) (set g)', expect='you returned the',
         id='induction.mean-ablate-shape',
         code='''def my_mean_ablate(head_out, reference):
    return reference.mean(dim=0, keepdim=True).clone()
'''),
    dict(exercise='ex6', kind='subtracts the mean (set g)', expect='you subtracted the mean from head_out',
         id='induction.mean-ablate-subtracted',
         code='''def my_mean_ablate(head_out, reference):
    return head_out - reference.mean(dim=0, keepdim=True)
'''),
    dict(exercise='ex6', kind='zero ablation (set g)', expect='your output is all zeros',
         id='induction.mean-ablate-zero',
         code='''def my_mean_ablate(head_out, reference):
    return torch.zeros_like(head_out)
'''),
    dict(exercise='ex5', kind='mean over every query (set g)', expect='you averaged over every query, those with no match',
         id='induction.prefix-all-queries',
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    total = 0.0
    for i in range(T):
        for j in range(1, i):
            if ids[j - 1] == ids[i]:
                total += weights[i, j]
    return float(total / T)
'''),
    dict(exercise='ex5', kind='mean over every query (set h)', expect='you averaged over every query, those with no match',
         id='induction.prefix-all-queries',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    score = np.zeros(T)
    for i in range(T):
        for j in range(1, i):
            if ids[j - 1] == ids[i]:
                score[i] += weights[i, j]
    return float(score.mean())
'''),
    dict(exercise='ex5', kind='includes j = i (set g)', expect='ids [1 4 4 2 4 4 7])',
         id='induction.prefix-includes-query',
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(1, i + 1) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(sum(weights[i, j] for j in keys))
    return float(np.mean(scores)) if scores else 0.0
'''),
    dict(exercise='ex5', kind='diagonal included (set h)', expect='ids [1 4 4 2 4 4 7])',
         id='induction.prefix-includes-query',
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    totals = []
    for i in range(T):
        keys = [j for j in range(1, i + 1) if ids[j - 1] == ids[i]]
        if keys:
            totals.append(sum(weights[i, j] for j in keys))
    return float(np.mean(totals)) if totals else 0.0
'''),
    dict(exercise='ex5', kind='NaN when no query qualifies (set g)', expect='your score is nan',
         id='induction.prefix-no-match',
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(weights[i, keys].sum())
    return float(np.mean(scores))
'''),
    dict(exercise='ex5', kind='nan with no match (set h)', expect='your score is nan',
         id='induction.prefix-no-match',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    match = np.zeros((T, T), dtype=bool)
    for i in range(T):
        for j in range(1, i):
            match[i, j] = ids[j - 1] == ids[i]
    has = match.any(axis=1)
    return float((weights * match).sum(axis=1)[has].mean())
'''),
    dict(exercise='ex5', kind='max instead of total (set g)', expect='ids [5 1 2 5 3 5 2 4 5])',
         id='induction.prefix-one-match',
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(max(weights[i, j] for j in keys))
    return float(np.mean(scores)) if scores else 0.0
'''),
    dict(exercise='ex5', kind='largest matched weight (set h)', expect='ids [5 1 2 5 3 5 2 4 5])',
         id='induction.prefix-one-match',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    best = []
    for i in range(T):
        keys = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if keys:
            best.append(max(weights[i, keys]))
    return float(np.mean(best)) if best else 0.0
'''),
    dict(exercise='ex5', kind='mean over the matched keys (set h)', expect='ids [5 1 2 5 3 5 2 4 5])',
         id='induction.prefix-per-key',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    match = (ids[None, :-1] == ids[:, None])              # (T, T-1): ids[j-1] == ids[i], j = 1..T-1
    match = np.concatenate([np.zeros((T, 1), dtype=bool), match], axis=1) & np.tri(T, T, -1, dtype=bool)
    n = match.sum(axis=1)
    has = n > 0
    if not has.any():
        return 0.0
    per_query = (weights * match).sum(axis=1)[has] / n[has]
    return float(per_query.mean())
'''),
    dict(exercise='ex5', kind='duplicate-token keys (set g)', expect='you took the weight on the earlier occurrences of',
         id='induction.prefix-same-token',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    same = ids[None, :] == ids[:, None]
    mask = same & np.tri(T, T, -1, dtype=bool)
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * mask).sum(axis=1)[has].mean())
'''),
    dict(exercise='ex5', kind='same token, not the one after (set h)', expect='you took the weight on the earlier occurrences of',
         id='induction.prefix-same-token',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    match = (ids[None, :] == ids[:, None]) & np.tri(T, T, -1, dtype=bool)
    has = match.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * match).sum(axis=1)[has].mean())
'''),
    dict(exercise='ex5', kind='drops queries with zero weight (set g)', expect="you summed the queries' weights on their matches",
         id='induction.prefix-sum',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= np.tri(T, T, -1, dtype=bool)
    per = (weights * mask).sum(axis=1)
    per = per[per > 0]
    return float(per.mean()) if len(per) else 0.0
'''),
    dict(exercise='ex5', kind='upper triangle (set g)', expect='your score is 0, the weight of keys AFTER the quer',
         id='induction.prefix-transposed',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= np.triu(np.ones((T, T), dtype=bool), 1)
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * mask).sum(axis=1)[has].mean())
'''),
    dict(exercise='ex5', kind='pattern read transposed (set h)', expect='your score is 0, the weight of keys AFTER the quer',
         id='induction.prefix-transposed',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    scores = []
    for i in range(T):
        js = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if js:
            scores.append(weights[js, i].sum())
    return float(np.mean(scores)) if scores else 0.0
'''),
    dict(exercise='ex5', kind='j from 0 wraps to ids[-1] (set g)', expect='you let j start at 0, where ids[j − 1] is ids[−1],',
         id='induction.prefix-wraps',
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    scores = []
    for i in range(T):
        keys = [j for j in range(i) if ids[j - 1] == ids[i]]
        if keys:
            scores.append(weights[i, keys].sum())
    return float(np.mean(scores)) if scores else 0.0
'''),
    dict(exercise='ex5', kind='j = 0 wraps to ids[-1] (set h)', expect='you let j start at 0, where ids[j − 1] is ids[−1],',
         id='induction.prefix-wraps',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    prev = ids[np.arange(T) - 1]                          # token before each key
    match = (prev[None, :] == ids[:, None]) & np.tri(T, T, -1, dtype=bool)
    has = match.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * match).sum(axis=1)[has].mean())
'''),
    dict(exercise='ex5', kind='shifted the wrong way (set g)', expect='your score is 0',
         id='induction.prefix-wrong-value',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    nxt = np.roll(ids, -1)
    mask = (nxt[None, :] == ids[:, None]) & np.tri(T, T, -1, dtype=bool)
    mask[:, -1] = False
    has = mask.any(axis=1)
    if not has.any():
        return 0.0
    return float((weights * mask).sum(axis=1)[has].mean())
'''),
    dict(exercise='ex5', kind='mean over matching entries (set g)', expect='ids [5 1 2 5 3 5 2 4 5])',
         id='induction.prefix-wrong-value',
         code='''def my_prefix_matching_score(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    mask = np.zeros((T, T), dtype=bool)
    mask[:, 1:] = ids[None, :-1] == ids[:, None]
    mask &= np.tri(T, T, -1, dtype=bool)
    if not mask.any():
        return 0.0
    return float(weights[mask].mean())
'''),
    dict(exercise='ex5', kind='the token before an earlier occurrence', expect='before an earlier occurrence',
         id='induction.prefix-token-before',
         code='''def my_prefix_matching_score(weights, ids):
    T = len(ids)
    sums = []
    for i in range(T):
        keys = [j for j in range(0, i - 1) if ids[j + 1] == ids[i]]
        if keys:
            sums.append(weights[i, keys].sum())
    return float(np.mean(sums)) if sums else 0.0
'''),
    dict(exercise='ex6', kind='assumes B_ref == B', expect='B_ref',
         id='induction.mean-ablate-batch-sizes',
         code='''def my_mean_ablate(head_out, reference):
    mean = reference.sum(dim=0) / head_out.shape[0]
    if reference.shape[0] != head_out.shape[0]:
        mean = reference.view(head_out.shape[0], -1).mean(0)
    return mean.expand_as(head_out).clone()
'''),
]
