"""helpers.induction: the attention-only model, its scores, ablation, and a run that grows the
induction circuit (lesson 11, issue 14)."""

import numpy as np
import pytest
import torch

from helpers import induction as ind
from helpers.induction import AttentionOnly

SMALL = dict(d_model=16, n_heads=2, n_layers=2, max_len=12)


def _ids(batch=3, T=10, vocab=20, seed=0):
    return torch.randint(vocab, (batch, T), generator=torch.Generator().manual_seed(seed))


# ---------------------------------------------------------------- the model


def test_shapes_and_causal_row_stochastic_patterns():
    model = AttentionOnly(20, **SMALL)
    ids = _ids()
    assert model(ids).shape == (3, 10, 20)
    w = ind.attention_patterns(model, ids)
    assert w.shape == (2, 3, 2, 10, 10)  # (n_layers, B, n_heads, T, T)
    torch.testing.assert_close(w.sum(-1), torch.ones(2, 3, 2, 10))
    assert torch.all(w.triu(diagonal=1) == 0)  # no query reads a later key
    assert torch.all(w[..., 0, 0] == 1)


def test_seeded_init_leaves_the_global_generator_alone():
    torch.manual_seed(123)
    before = torch.rand(1)
    torch.manual_seed(123)
    a = AttentionOnly(20, **SMALL)
    assert torch.equal(torch.rand(1), before)
    b = AttentionOnly(20, **SMALL)
    c = AttentionOnly(20, **SMALL, seed=1)
    assert all(torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters(), strict=True))
    assert not torch.equal(a.embed.weight, c.embed.weight)
    assert AttentionOnly(**a.config()).config() == a.config()


def test_head_mask_of_ones_is_no_mask_and_ablation_is_exact():
    model = AttentionOnly(20, **SMALL)
    ids = _ids()
    assert torch.equal(model(ids, head_mask=torch.ones(2, 2)), model(ids))
    # every head ablated: nothing is added to the residual, the logits are embedding-only
    embedding_only = model.unembed(model.embed(ids) + model.pos(ids.shape[1]))
    torch.testing.assert_close(model(ids, head_mask=torch.zeros(2, 2)), embedding_only)
    # one layer-1 head ablated: layer 0 is untouched, and patterns are computed before the mask
    mask = ind.ablation_mask(model, (1, 0))
    assert mask.tolist() == [[1.0, 1.0], [0.0, 1.0]]
    torch.testing.assert_close(ind.attention_patterns(model, ids, mask),
                               ind.attention_patterns(model, ids))
    assert not torch.allclose(model(ids, mask), model(ids))


def test_half_a_head_is_half_its_output():
    model = AttentionOnly(20, **SMALL)
    ids = _ids()
    half = torch.tensor([[0.5, 1.0], [1.0, 1.0]])
    off = torch.tensor([[0.0, 1.0], [1.0, 1.0]])
    with torch.no_grad():  # layer 0 only: what it adds is linear in each head's factor
        x = model.embed(ids) + model.pos(10)
        mask = torch.as_tensor(np.tril(np.ones((10, 10), dtype=bool)))
        full, _ = model.layers[0](x, mask)
        halved, _ = model.layers[0](x, mask, half[0])
        zeroed, _ = model.layers[0](x, mask, off[0])
    torch.testing.assert_close(halved, (full + zeroed) / 2)


def test_composition_scores_follow_the_definition():
    model = AttentionOnly(20, d_model=16, n_heads=2, max_len=12)
    scores = ind.composition_scores(model)
    assert set(scores) == {"k", "q", "v", "baseline"}
    for key in "kqv":
        assert scores[key].shape == (2, 2)
        assert np.all((scores[key] > 0) & (scores[key] <= 1))
    # by hand for layer-1 head 1 and layer-0 head 0, from the raw nn.Linear weights
    d = 8
    late, early = model.layers[1], model.layers[0]
    with torch.no_grad():
        w_qk = late.q.weight[d:].T @ late.k.weight[d:]  # (D, D)
        w_ov = early.o.weight[:, :d] @ early.v.weight[:d]  # (D, D)
    expected = torch.linalg.norm(w_qk @ w_ov) / (torch.linalg.norm(w_qk) * torch.linalg.norm(w_ov))
    assert scores["k"][1, 0] == pytest.approx(float(expected), rel=1e-5)
    # a random model composes like random matrices; the baseline is the same every call
    assert scores["baseline"] == ind.composition_scores(model)["baseline"]
    assert abs(scores["k"].mean() - scores["baseline"]) < 0.1
    # the scores use the whole matrices: W_QK W_OV reproduces the model's key scores
    x = torch.randn(5, 16)
    qk, ov = ind.qk_matrices(model, 1)[1], ind.ov_matrices(model, 0)[0]
    with torch.no_grad():
        written = x @ torch.as_tensor(ov).T  # what head (0, 0) writes for residuals x
        q = x @ late.q.weight[d:].T
        k = written @ late.k.weight[d:].T
    torch.testing.assert_close(q @ k.T, x @ torch.as_tensor(qk) @ written.T, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------- data


def test_repeated_span_batch_layout_and_determinism():
    g = torch.Generator().manual_seed(7)
    ids = ind.repeated_span_batch(4, 5, 10, g, prefix=3)
    assert ids.shape == (4, 3 + 2 * 5) and ids.dtype == torch.long
    assert torch.equal(ids[:, 3:8], ids[:, 8:13])  # the span, then the span again
    assert ids.min() >= 0 and ids.max() < 10
    again = ind.repeated_span_batch(4, 5, 10, torch.Generator().manual_seed(7), prefix=3)
    assert torch.equal(ids, again)
    assert not torch.equal(ids, ind.repeated_span_batch(4, 5, 10, g, prefix=3))  # state moved
    assert ind.repeated_span_batch(2, 4, 10, g).shape == (2, 8)


def test_bos_takes_position_zero_and_nowhere_else():
    ids = ind.repeated_span_batch(64, 6, 5, torch.Generator().manual_seed(0), prefix=2, bos=4)
    assert torch.all(ids[:, 0] == 4)
    assert torch.all(ids[:, 1:] < 4)
    assert torch.equal(ids[:, 2:8], ids[:, 8:14])
    middle = ind.repeated_span_batch(64, 6, 5, torch.Generator().manual_seed(0), prefix=1, bos=2)
    assert torch.all(middle[:, 0] == 2) and not torch.any(middle[:, 1:] == 2)
    assert set(middle[:, 1:].unique().tolist()) == {0, 1, 3, 4}


def test_training_rows_repeat_at_different_distances():
    g = torch.Generator().manual_seed(0)
    ids = ind.training_batch(64, 8, 4, 32, g, bos=31)
    assert ids.shape == (64, 17) and torch.all(ids[:, 0] == 31)
    lengths = set()
    for row in ids:
        found = [s for s in range(4, 9) if torch.equal(row[17 - 2 * s : 17 - s], row[17 - s :])]
        assert found, "every row ends with a span repeated"
        lengths.add(min(found))
    assert len(lengths) >= 4  # no single distance a head could learn by position alone


# ---------------------------------------------------------------- scores of a pattern


def _previous_token_pattern(T):
    w = np.zeros((T, T))
    w[0, 0] = 1.0
    w[np.arange(1, T), np.arange(T - 1)] = 1.0
    return w


def _induction_pattern(span, prefix):
    T = prefix + 2 * span
    w = np.eye(T)
    for t in range(prefix + span, T):
        w[t] = 0.0
        w[t, t - span + 1] = 1.0
    return w


def test_previous_token_score_of_hand_made_patterns():
    assert ind.previous_token_score(_previous_token_pattern(9)) == pytest.approx(1.0)
    assert ind.previous_token_score(np.full((8, 8), 1 / 8)) == pytest.approx(1 / 8)
    causal = np.tril(np.ones((8, 8))) / np.arange(1, 9)[:, None]
    assert ind.previous_token_score(causal) == pytest.approx(np.mean(1 / np.arange(2, 9)))
    assert ind.previous_token_score(np.eye(6)) == 0.0
    uniform = np.tril(np.ones((33, 33))) / np.arange(1, 34)[:, None]   # the docstring's numbers
    harmonic = np.sum(1 / np.arange(1, 34))
    assert ind.previous_token_score(uniform) == pytest.approx((harmonic - 1) / 32)
    assert round(float(ind.previous_token_score(uniform)), 3) == 0.097
    assert ind.previous_token_score(uniform) == pytest.approx((np.log(33) - 0.42) / 32, abs=1e-3)
    # leading axes are kept, torch in gives torch out
    stack = torch.as_tensor(np.stack([_previous_token_pattern(5), np.eye(5)]))[None]
    out = ind.previous_token_score(stack)
    assert isinstance(out, torch.Tensor) and out.shape == (1, 2)
    torch.testing.assert_close(out, torch.tensor([[1.0, 0.0]], dtype=torch.float64))


def test_induction_score_of_hand_made_patterns():
    assert ind.induction_score(_induction_pattern(5, 3), 5, prefix=3) == pytest.approx(1.0)
    assert ind.induction_score(_induction_pattern(5, 0), 5) == pytest.approx(1.0)
    assert ind.induction_score(np.full((13, 13), 1 / 13), 5, prefix=3) == pytest.approx(1 / 13)
    assert ind.induction_score(_previous_token_pattern(10), 5) == 0.0
    assert ind.previous_token_score(_induction_pattern(5, 0)) < 0.5
    # span 1: the token after the earlier occurrence is the current position itself
    assert ind.induction_score(np.eye(4), 1, prefix=2) == pytest.approx(1.0)


def test_first_token_score_finds_a_sink():
    sink = np.zeros((6, 6))
    sink[:, 0] = 1.0
    assert ind.first_token_score(sink) == pytest.approx(1.0)
    assert ind.first_token_score(np.eye(6)) == 0.0
    assert ind.first_token_score(np.full((5, 5), 0.2)) == pytest.approx(0.2)


def test_head_scores_and_losses_on_a_batch():
    model = AttentionOnly(20, **SMALL)
    ids = ind.repeated_span_batch(4, 5, 20, torch.Generator().manual_seed(0), prefix=1, bos=19)
    scores = ind.head_scores(model, ids, 5, prefix=1)
    assert set(scores) == {"previous_token", "induction", "first_token"}
    assert all(v.shape == (2, 2) and isinstance(v, np.ndarray) for v in scores.values())
    loss = ind.loss_by_position(model, ids)
    assert loss.shape == (10,) and np.all(loss > 0)
    first, second = ind.copy_losses(model, ids, 5, prefix=1)
    assert first == pytest.approx(loss[1:5].mean()) and second == pytest.approx(loss[6:10].mean())
    assert ind.repeat_advantage(model, ids, 5, prefix=1) == pytest.approx(first - second)


# ---------------------------------------------------------------- training


def test_training_is_deterministic_given_its_seed():
    config = dict(steps=15, span=4, vocab_size=16, max_len=9, d_model=16, threads=1)
    a, losses_a = ind.train_induction(**config)
    b, losses_b = ind.train_induction(**config)
    assert losses_a == losses_b and len(losses_a) == 15
    assert all(torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters(), strict=True))
    c, _ = ind.train_induction(**config, seed=1)
    assert not torch.equal(a.embed.weight, c.embed.weight)
    assert not a.training
    steps = []
    ind.fit(c, 3, threads=1, on_step=lambda step, loss: steps.append(step), span=4, bos=False)
    assert steps == [1, 2, 3]


def test_the_shipped_recipe_fits_its_model():
    assert ind.FULL["max_len"] == 2 * ind.TRAINING["span"] + 1  # a bos, then the row
    assert ind.REDUCED["max_len"] == 2 * ind.REDUCED["span"] + 1


@pytest.fixture(scope="module")
def reduced():
    """The reduced run (REDUCED: 500 steps, about 6 s) and a held-out batch of its layout."""
    model, losses = ind.train_induction(threads=1, **ind.REDUCED)
    span, vocab = ind.REDUCED["span"], ind.REDUCED["vocab_size"]
    ids = ind.repeated_span_batch(128, span, vocab, torch.Generator().manual_seed(5), prefix=1,
                                  bos=ind.bos_id(model))
    return model, losses, ids, span


def test_reduced_run_grows_an_induction_circuit(reduced):
    model, losses, ids, span = reduced
    assert np.mean(losses[-20:]) < losses[0] - 0.5
    scores = ind.head_scores(model, ids, span, prefix=1)
    induction, previous = scores["induction"], scores["previous_token"]
    assert induction[1].max() > 0.5  # uniform causal attention gives 0.08 (below)
    uniform = np.tril(np.ones((ids.shape[1],) * 2)) / np.arange(1, ids.shape[1] + 1)[:, None]
    assert round(float(ind.induction_score(uniform, span, prefix=1)), 2) == 0.08
    assert previous[0].max() > 0.5
    assert induction[0].max() < 0.3  # layer 0 cannot look up a token it has not been told
    first, second = ind.copy_losses(model, ids, span, prefix=1)
    assert first == pytest.approx(np.log(model.vocab_size - 1), abs=0.2)  # random tokens
    assert first - second > 2.0  # measured 3.06 nats


def test_reduced_run_ablations_show_the_composition(reduced):
    model, _, ids, span = reduced
    scores = ind.head_scores(model, ids, span, prefix=1)
    best_induction = (1, int(scores["induction"][1].argmax()))
    best_previous = (0, int(scores["previous_token"][0].argmax()))
    advantage = ind.repeat_advantage(model, ids, span, 1)

    def without(*heads):
        return ind.repeat_advantage(model, ids, span, 1, ind.ablation_mask(model, *heads))

    assert without(best_induction) < advantage - 0.5
    assert without(best_previous) < advantage / 3  # the induction heads key on its output
    assert without((1, 0), (1, 1)) < advantage / 3
    other = (0, 1 - best_previous[1])
    assert without(other) > advantage - 0.2  # the other layer-0 head does not matter
    # K-composition: the induction head's keys read what the previous-token head wrote
    # (measured 0.163 against 0.110 for the other layer-0 head; random matrices 0.125)
    composition = ind.composition_scores(model)
    reads = composition["k"][best_induction[1]]
    assert reads[best_previous[1]] > reads[other[1]] + 0.03
    assert reads[best_previous[1]] > composition["baseline"] + 0.02


# ---------------------------------------------------------------- bad input


def test_bad_input_raises_clear_errors():
    model = AttentionOnly(20, **SMALL)
    with pytest.raises(ValueError, match=r"dtype long; got shape \(2, 3\), dtype torch.float32"):
        model(torch.zeros(2, 3))
    with pytest.raises(ValueError, match="13 positions is longer than the model's max_len 12"):
        model(torch.zeros(1, 13, dtype=torch.long))
    with pytest.raises(ValueError, match=r"token id 20 is outside the vocabulary 0..19"):
        model(torch.tensor([[1, 20]]))
    with pytest.raises(ValueError, match=r"head_mask must be \(n_layers, n_heads\) = \(2, 2\)"):
        model(_ids(), head_mask=torch.ones(2))
    with pytest.raises(ValueError, match="n_heads must divide d_model"):
        AttentionOnly(20, d_model=10, n_heads=3)
    with pytest.raises(ValueError, match="vocab_size must be a whole number >= 1"):
        AttentionOnly(0)
    with pytest.raises(ValueError, match=r"expects attention weights \(..., T, T\)"):
        ind.previous_token_score(np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"T = prefix \+ 2·span = 0 \+ 2·5 = 10 positions; got"):
        ind.induction_score(np.eye(12), 5)
    with pytest.raises(ValueError, match="must be a torch.Generator"):
        ind.repeated_span_batch(2, 3, 10, generator=0)
    with pytest.raises(ValueError, match="span must be a whole number >= 1; got 0"):
        ind.repeated_span_batch(2, 0, 10, torch.Generator())
    with pytest.raises(ValueError, match="prefix must be a whole number >= 1"):
        ind.repeated_span_batch(2, 3, 10, torch.Generator(), bos=9)  # no room for the bos
    with pytest.raises(ValueError, match=r"bos must be a token id in 0..9; got 10"):
        ind.repeated_span_batch(2, 3, 10, torch.Generator(), prefix=1, bos=10)
    with pytest.raises(ValueError, match=r"ids must be a repeated-span batch \(B, prefix"):
        ind.copy_losses(model, _ids(T=9), 5)
    with pytest.raises(ValueError, match=r"no head \(2, 0\)"):
        ind.ablation_mask(model, (2, 0))
    with pytest.raises(ValueError, match="source must be an earlier layer"):
        ind.composition_scores(model, layer=0, source=0)
    with pytest.raises(ValueError, match="a training row has 13 positions"):
        ind.fit(model, 1, span=6)
    with pytest.raises(ValueError, match="min_span must be <= span"):
        ind.fit(model, 1, span=4, min_span=5)


def test_attn_mask_narrows_what_every_layer_reads():
    model = ind.AttentionOnly(16, d_model=32, n_heads=2, n_layers=2, max_len=12)
    ids = torch.randint(0, 16, (2, 12), generator=torch.Generator().manual_seed(0))
    window = torch.ones(12, 12, dtype=torch.bool).triu(-2)          # the last 3 keys
    _, patterns = model.run(ids, attn_mask=window)
    assert (patterns[..., 11, :9] == 0).all() and (patterns[..., 11, 9:] > 0).all()
    torch.testing.assert_close(model(ids, attn_mask=torch.ones(12, 12, dtype=torch.bool)),
                               model(ids))
    with pytest.raises(ValueError, match="attn_mask must be a bool"):
        model(ids, attn_mask=torch.ones(12, 12))


# ---------------------------------------------------------------- a typed text (the explorer)


def test_span_tokenizer_puts_bos_first_and_one_id_per_character():
    tok = ind.SpanTokenizer()
    assert len(tok.chars) == 63 and tok.bos == 63 and tok.max_len == 33
    assert tok.encode("ab Z9") == [63, 0, 1, 62, 51, 61]
    assert tok.tokens("ab") == ["BOS", "a", "b"]
    assert len(set(tok.chars)) == 63                             # one id per character
    small = ind.SpanTokenizer(AttentionOnly(20, **SMALL))
    assert small.bos == 19 and small.chars == ind.SPAN_CHARACTERS[:19] and small.max_len == 12
    assert small.encode("s") == [19, 18]
    with pytest.raises(ValueError, match=r"character ',' at position 3 is not one of the model's "
                                         r"63 characters"):
        tok.encode("abc, d")
    with pytest.raises(ValueError, match="BOS and at most 32 characters; got 33"):
        tok.encode("a" * 33)
    tok.encode("a" * 32)  # fits: 33 positions
    with pytest.raises(ValueError, match="SpanTokenizer has 63 characters"):
        ind.SpanTokenizer(AttentionOnly(70, **SMALL))


def test_repeated_ending_finds_the_longest_nearest_repeat():
    row = ind.repeated_span_batch(1, 6, 20, torch.Generator().manual_seed(0), prefix=1, bos=19)
    assert ind.repeated_ending(row[0].tolist()) == (7, 6)        # BOS + span + span
    assert ind.repeated_ending("the queen said to alice, the queen") == (25, 25)
    assert ind.repeated_ending("abcdefg") is None
    assert ind.repeated_ending("xaa") is None                    # distance 1: not a repeat
    assert ind.repeated_ending("xaya") == (3, 2)
    assert ind.repeated_ending("ab ab ab") == (5, 3)             # the nearest earlier "ab"
    assert ind.repeated_ending("abcabc") == (3, 3)
    assert ind.repeated_ending("aaaa") == (2, 2)                 # no overlap with itself
    assert ind.repeated_ending([]) is None and ind.repeated_ending("a") is None


def test_ending_induction_score_is_the_induction_score_of_a_repeated_span():
    rng = np.random.default_rng(0)
    for span, prefix in ((5, 1), (4, 3), (2, 0)):
        T = prefix + 2 * span
        w = rng.random((3, T, T))
        assert np.allclose(ind.ending_induction_score(w, prefix + span, span),
                           ind.induction_score(w, span, prefix))
    w = np.zeros((6, 6))
    w[4, 2] = w[5, 3] = 1.0                                     # keys t - 3 + 1 from 4 and 5
    assert ind.ending_induction_score(w, 4, 3) == pytest.approx(1.0)
    assert ind.ending_induction_score(w, 3, 3) == pytest.approx(2 / 3)
    torch_in = ind.ending_induction_score(torch.as_tensor(w)[None], 4, 3)
    assert isinstance(torch_in, torch.Tensor) and torch_in.shape == (1,)
    for start, distance in ((4, 1), (2, 3), (6, 3), (4.0, 3)):
        with pytest.raises(ValueError, match="need 2 <= distance <= start < T = 6"):
            ind.ending_induction_score(w, start, distance)


# ---------------------------------------------------------------- prefix matching


def _prefix_matching_by_loop(w, ids):
    """w (B, H, T, T): for each row and query with an earlier occurrence, the weight on every
    key that follows an occurrence of the query's token, pooled over all such queries."""
    B, H, T, _ = w.shape
    total, count = torch.zeros(H, dtype=w.dtype), 0
    for b in range(B):
        for i in range(T):
            keys = [j + 1 for j in range(i - 1) if ids[b, j] == ids[b, i]]  # j + 1 <= i - 1
            if keys:
                total += w[b, :, i, keys].sum(-1)
                count += 1
    return total / count


def test_prefix_matching_score_by_a_loop():
    ids = _ids(batch=4, T=12, vocab=4, seed=3)            # 4 tokens: many repeats
    w = torch.softmax(torch.randn(4, 3, 12, 12, generator=torch.Generator().manual_seed(0))
                      .masked_fill(~torch.ones(12, 12, dtype=torch.bool).tril(), -torch.inf), -1)
    torch.testing.assert_close(ind.prefix_matching_score(w, ids), _prefix_matching_by_loop(w, ids))
    stacked = torch.stack([w, w.flip(1)])                 # (2, B, H, T, T): leading axes kept
    torch.testing.assert_close(ind.prefix_matching_score(stacked, ids)[1],
                               _prefix_matching_by_loop(w, ids).flip(0))


def test_prefix_matching_is_the_induction_score_when_no_token_repeats_by_chance():
    span, B = 7, 5
    g = torch.Generator().manual_seed(0)
    spans = torch.stack([torch.randperm(30, generator=g)[:span] for _ in range(B)])  # distinct
    ids = torch.cat([torch.full((B, 1), 30), spans, spans], dim=1)  # BOS 30 + span + span
    model = AttentionOnly(31, **dict(SMALL, max_len=15))
    w = ind.attention_patterns(model, ids)                # (L, B, H, T, T)
    torch.testing.assert_close(ind.prefix_matching_score(w, ids),
                               ind.induction_score(w, span, prefix=1).mean(1))
    # a chance repeat inside the span adds matches the diagonal does not see
    ids[:, 3] = ids[:, 1]
    ids[:, 1 + span + 2] = ids[:, 1 + span]
    assert not torch.allclose(ind.prefix_matching_score(ind.attention_patterns(model, ids), ids),
                              ind.induction_score(w, span, prefix=1).mean(1))


def test_prefix_matching_score_rejects_what_it_cannot_score():
    w = torch.full((1, 1, 4, 4), 0.25)
    with pytest.raises(ValueError, match="no token of ids occurs twice"):
        ind.prefix_matching_score(w, torch.tensor([[0, 1, 2, 3]]))
    with pytest.raises(ValueError, match="patterns \\(..., B, H, T, T\\)"):
        ind.prefix_matching_score(w, torch.tensor([[0, 1, 0]]))
    with pytest.raises(ValueError, match="patterns \\(..., B, H, T, T\\)"):
        ind.prefix_matching_score(w[0], torch.tensor([[0, 1, 0, 1]]))


def test_probe_reads_a_fixed_batch_and_leaves_the_training_alone():
    model = AttentionOnly(20, **dict(SMALL, max_len=13)).train()
    rows = ind.probe_batch(model, rows=6, span=6)
    assert torch.equal(rows, ind.probe_batch(model, rows=6, span=6)) and (rows[:, 0] == 19).all()
    torch.manual_seed(0)
    before = torch.rand(1)
    torch.manual_seed(0)
    measured = ind.probe(model, rows, 6)
    assert torch.equal(torch.rand(1), before) and model.training   # no global draw, mode kept
    scores = ind.head_scores(model, rows, 6, prefix=1)
    np.testing.assert_allclose(measured["induction"], scores["induction"], rtol=1e-6)
    np.testing.assert_allclose(measured["previous_token"], scores["previous_token"], rtol=1e-6)
    assert (measured["first_copy_loss"], measured["second_copy_loss"]) == pytest.approx(
        ind.copy_losses(model, rows, 6, prefix=1))
    assert np.shape(measured["prefix_matching"]) == (2, 2)


def test_a_repeated_text_batch_repeats_consecutive_windows_of_the_text():
    text = torch.arange(23)
    rows = ind.repeated_text_batch(text, 5)
    assert rows.shape == (4, 10) and rows.dtype == torch.long         # 4 windows of 5 fit in 23
    assert rows[1].tolist() == [5, 6, 7, 8, 9, 5, 6, 7, 8, 9]
    assert torch.equal(ind.repeated_text_batch(text.tolist(), 5, rows=2), rows[:2])
    model = AttentionOnly(23, **dict(SMALL, max_len=10))
    measured = ind.probe(model, rows, 5, prefix=0)                    # no BOS: prefix 0
    w = ind.attention_patterns(model, rows)
    np.testing.assert_allclose(measured["induction"],
                               ind.induction_score(w, 5).mean(dim=1).numpy(), rtol=1e-6)
    assert (measured["first_copy_loss"], measured["second_copy_loss"]) == pytest.approx(
        ind.copy_losses(model, rows, 5))
    with pytest.raises(ValueError, match="at least rows·span = 5·5 ids"):
        ind.repeated_text_batch(text, 5, rows=5)


def test_a_repeated_text_batch_with_a_generator_draws_windows_anywhere():
    text = torch.arange(100)
    rows = ind.repeated_text_batch(text, 8, 5, generator=torch.Generator().manual_seed(0))
    again = ind.repeated_text_batch(text, 8, 5, generator=torch.Generator().manual_seed(0))
    assert rows.shape == (5, 16) and torch.equal(rows, again)          # the generator's only
    assert torch.equal(rows[:, :8], rows[:, 8:])
    assert (torch.diff(rows[:, :8], dim=1) == 1).all()                 # consecutive ids
    with pytest.raises(ValueError, match="at least span = 8 ids"):
        ind.repeated_text_batch(text[:7], 8, 2, generator=torch.Generator())
