"""helpers.checks.induction: right answers (and their valid variants) pass with one line, in the
notebook and through the grader's bridge; the library helpers are refused; a stub stays "not
attempted"; a result of the wrong type gets a clear message; the cases tell the plausible
mistakes apart; the model handed to my_ablation_effect records its masks, runs without
autograd, notices a change of its weights and works through the bridge."""

import inspect
import math
import re
import time
import warnings

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from bridge_sweep import both_ways
from check_contract import contract_tests, grading_test

from helpers import induction as lib
from helpers.checks import core, induction

# ---------------------------------------------------------------- right answers and variants


def previous_token(weights):
    T = weights.shape[-1]
    t = np.arange(1, T)
    return float(weights[:, t, t - 1].mean())


def previous_token_diagonal(weights):
    """np.diagonal with the query and key axes named; an np.float64 returned as it is."""
    return np.diagonal(weights, offset=-1, axis1=1, axis2=2).mean()


def previous_token_torch(weights):
    """torch on the NumPy input, the 0-d float64 tensor turned into a float."""
    return torch.as_tensor(weights).diagonal(offset=-1, dim1=-2, dim2=-1).mean().item()


def previous_token_float32(weights):
    """Computed in float32: right to float32's precision."""
    w = torch.tensor(weights, dtype=torch.float32)
    return w[:, 1:, :-1].diagonal(dim1=1, dim2=2).mean().item()


def previous_token_loops(weights):
    B, T, _ = weights.shape
    total = sum(weights[b, t, t - 1] for b in range(B) for t in range(1, T))
    return total / (B * (T - 1))


def previous_token_columns(weights):
    """Column t of query t + 1, for t = 0..T-2: the same entries read the other way."""
    T = weights.shape[-1]
    t = np.arange(T - 1)
    return float(weights[:, t + 1, t].mean())


def previous_token_mask(weights):
    B, T, _ = weights.shape
    return float((weights * np.eye(T, k=-1)).sum() / (B * (T - 1)))


def induction_ref(weights, span):
    t = np.arange(span + 1, 2 * span + 1)
    return float(weights[:, t, t - span + 1].mean())


def induction_diagonal(weights, span):
    """The diagonal t - span + 1 starts at query span - 1: the second copy is from entry 2."""
    return np.diagonal(weights, offset=-(span - 1), axis1=1, axis2=2)[:, 2:].mean()


def induction_torch(weights, span):
    w = torch.from_numpy(weights)
    t = torch.arange(span + 1, 2 * span + 1)
    return float(w[:, t, t - span + 1].mean())


def induction_mask(weights, span):
    B, T, _ = weights.shape
    keep = np.zeros((T, T))
    for t in range(span + 1, 2 * span + 1):
        keep[t, t - span + 1] = 1.0
    return float((weights * keep).sum() / (B * span))


def induction_loops(weights, span):
    values = [weights[b, t, t - span + 1] for b in range(weights.shape[0])
              for t in range(span + 1, 2 * span + 1)]
    return sum(values) / len(values)


def batch(batch, span, vocab_size, generator):
    bos = torch.full((batch, 1), vocab_size - 1)
    first = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    return torch.cat([bos, first, first], dim=1)


def batch_repeat(batch, span, vocab_size, generator):
    first = torch.randint(0, vocab_size - 1, size=(batch, span), generator=generator)
    bos = torch.tensor([[vocab_size - 1]]).expand(batch, 1)
    return torch.cat([bos, first.repeat(1, 2)], dim=1)


def batch_filled(batch, span, vocab_size, generator):
    ids = torch.empty(batch, 1 + 2 * span, dtype=torch.long)
    ids[:, 0] = vocab_size - 1
    ids[:, 1 : span + 1] = torch.randint(vocab_size - 1, (batch, span), generator=generator)
    ids[:, span + 1 :] = ids[:, 1 : span + 1]
    return ids


def batch_rand(batch, span, vocab_size, generator):
    """Uniform floats scaled and floored: uniform over 0..vocab_size-2 too."""
    first = (torch.rand(batch, span, generator=generator) * (vocab_size - 1)).long()
    return torch.cat([torch.full((batch, 1), vocab_size - 1), first, first], dim=1)


def batch_multinomial(batch, span, vocab_size, generator):
    first = torch.multinomial(torch.ones(vocab_size - 1), batch * span, replacement=True,
                              generator=generator).view(batch, span)
    return torch.cat([torch.full((batch, 1), vocab_size - 1), first, first], dim=1)


def batch_extra_draw(batch, span, vocab_size, generator):
    """As helpers.induction draws it: a position 0 drawn too, then overwritten by the BOS."""
    head = torch.randint(vocab_size - 1, (batch, 1 + span), generator=generator)
    head[:, 0] = vocab_size - 1
    return torch.cat([head, head[:, 1:]], dim=1)


def ablation(model, ids, layer, head, span):
    def second_copy_loss(head_mask):
        with torch.no_grad():
            logits = model(ids, head_mask)
        pred = logits[:, span + 1 : 2 * span]
        return F.cross_entropy(pred.flatten(0, 1), ids[:, span + 2 :].flatten()).item()

    intact = torch.ones(model.n_layers, model.n_heads)
    ablated = intact.clone()
    ablated[layer, head] = 0.0
    return second_copy_loss(ablated) - second_copy_loss(intact)


def ablation_float64_gather(model, ids, layer, head, span):
    """log_softmax in float64 and gather; None for the intact model; a bool mask."""
    def loss(head_mask):
        logp = model(ids, head_mask).double().log_softmax(-1)[:, :-1]  # predicts ids[:, 1:]
        nll = -logp.gather(-1, ids[:, 1:, None]).squeeze(-1)  # (B, T-1)
        return nll[:, span + 1 : 2 * span].mean().item()

    mask = torch.ones(model.n_layers, model.n_heads, dtype=torch.bool)
    mask[layer, head] = False
    return loss(mask) - loss(None)


def ablation_numpy(model, ids, layer, head, span):
    """The logits in NumPy (the model runs without autograd), a NumPy mask, an np.float64."""
    def loss(mask):
        logits = model(ids, mask).numpy().astype(np.float64)[:, span + 1 : 2 * span]
        logits -= logits.max(-1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
        target = ids[:, span + 2 :].numpy()
        return -np.take_along_axis(logp, target[..., None], -1).mean()

    mask = np.ones((model.n_layers, model.n_heads))
    ablated = mask.copy()
    ablated[layer, head] = 0
    return loss(ablated) - loss(mask)


def ablation_per_row(model, ids, layer, head, span):
    """One run per example and a list-of-lists mask: the mean of the rows' rises."""
    mask = [[1.0] * model.n_heads for _ in range(model.n_layers)]
    ablated = [row[:] for row in mask]
    ablated[layer][head] = 0.0
    rises = []
    for b in range(ids.shape[0]):
        row = ids[b : b + 1]
        losses = [F.cross_entropy(model(row, m)[0, span + 1 : 2 * span], row[0, span + 2 :])
                  for m in (ablated, mask)]
        rises.append(float(losses[0] - losses[1]))
    return sum(rises) / len(rises)


def ablation_run(model, ids, layer, head, span):
    """model.run (logits and patterns), reduction='none', float() of the result."""
    def loss(mask):
        logits, _ = model.run(ids, mask)
        each = F.cross_entropy(logits[:, span + 1 : 2 * span].transpose(1, 2),
                               ids[:, span + 2 :], reduction="none")
        return each.mean()

    ones = torch.ones(model.n_layers, model.n_heads)
    zeroed = ones.clone()
    zeroed[layer, head] = 0
    return float(loss(zeroed) - loss(ones))


REFERENCES = [
    (induction.check_previous_token_score, previous_token),
    (induction.check_previous_token_score, previous_token_diagonal),
    (induction.check_previous_token_score, previous_token_torch),
    (induction.check_previous_token_score, previous_token_float32),
    (induction.check_previous_token_score, previous_token_loops),
    (induction.check_previous_token_score, previous_token_columns),
    (induction.check_previous_token_score, previous_token_mask),
    (induction.check_induction_score, induction_ref),
    (induction.check_induction_score, induction_diagonal),
    (induction.check_induction_score, induction_torch),
    (induction.check_induction_score, induction_mask),
    (induction.check_induction_score, induction_loops),
    (induction.check_repeated_span_batch, batch),
    (induction.check_repeated_span_batch, batch_repeat),
    (induction.check_repeated_span_batch, batch_filled),
    (induction.check_repeated_span_batch, batch_rand),
    (induction.check_repeated_span_batch, batch_multinomial),
    (induction.check_repeated_span_batch, batch_extra_draw),
    (induction.check_ablation_effect, ablation),
    (induction.check_ablation_effect, ablation_float64_gather),
    (induction.check_ablation_effect, ablation_numpy),
    (induction.check_ablation_effect, ablation_per_row),
    (induction.check_ablation_effect, ablation_run),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


@pytest.mark.parametrize("seed", [2024, 918_273_645])
@pytest.mark.parametrize("check, answer", REFERENCES,
                         ids=[f"{c.__name__}-{a.__name__}" for c, a in REFERENCES])
def test_right_answers_pass_under_a_grading_seed(check, answer, seed, capsys):
    core.set_grading_seed(seed)
    try:
        check(answer)
    finally:
        core.set_grading_seed(None)
    assert capsys.readouterr().out.startswith("✔")


_NAMES = {induction.check_previous_token_score: "my_previous_token_score",
          induction.check_induction_score: "my_induction_score",
          induction.check_repeated_span_batch: "my_repeated_span_batch",
          induction.check_ablation_effect: "my_ablation_effect"}
_EXERCISE = {"my_previous_token_score": "ex1", "my_induction_score": "ex2",
             "my_repeated_span_batch": "ex3", "my_ablation_effect": "ex4"}


def _as_answer_cell(check, answer) -> tuple[str, str]:
    """(exercise, the answer's source as the notebook's answer cell, under the exercise's name)."""
    name = _NAMES[check]
    code = re.sub(rf"^def {answer.__name__}\(", f"def {name}(", inspect.getsource(answer),
                  flags=re.M)
    return _EXERCISE[name], code


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("check, answer", REFERENCES,
                         ids=[f"{c.__name__}-{a.__name__}" for c, a in REFERENCES])
def test_right_answers_pass_through_the_bridge(check, answer):
    """The grader's bridge: the model is a handle whose model(ids, head_mask), n_layers,
    n_heads and run(...) call back into the grader; generators travel by state."""
    exercise, code = _as_answer_cell(check, answer)
    assert both_ways("11_induction", exercise, code) == (None, None)


# ---------------------------------------------------------------- rules: the helpers are refused


def test_library_helpers_are_refused():
    refused = [
        (induction.check_previous_token_score,
         lambda w: float(lib.previous_token_score(w).mean())),
        (induction.check_previous_token_score, lambda w: float(lib._diagonal(w, 1).mean())),
        (induction.check_induction_score,
         lambda w, span: float(lib.induction_score(w, span, prefix=1).mean())),
        (induction.check_repeated_span_batch,
         lambda b, s, v, g: lib.repeated_span_batch(b, s, v, g, prefix=1, bos=v - 1)),
        (induction.check_ablation_effect,
         lambda model, ids, layer, head, span:
             lib.copy_losses(model, ids, span, 1, lib.ablation_mask(model, (layer, head)))[1]
             - lib.copy_losses(model, ids, span, 1)[1]),
    ]
    for check, answer in refused:
        with pytest.raises(AssertionError, match="your function calls") as info:
            check(answer)
        assert info.value.diagnosis == "rule.forbidden-call", (check.__name__, str(info.value))


def test_a_stub_with_its_hint_stays_not_attempted():
    def stub(*args):
        raise NotImplementedError("Not attempted yet: pick the entries on key t - 1")

    with pytest.raises(core.NotAttempted, match="key t - 1"):
        induction.check_previous_token_score(stub)


# ---------------------------------------------------------------- wrong types


def test_scores_accept_floats_and_0_d_results_only():
    with pytest.raises(AssertionError, match="returned None"):
        induction.check_previous_token_score(lambda w: None)
    with pytest.raises(AssertionError, match="one float") as info:
        induction.check_induction_score(lambda w, span: [induction_ref(w, span)])
    assert info.value.diagnosis == "induction.score-not-a-number"
    with pytest.raises(AssertionError, match="shape \\(1,\\)") as info:
        induction.check_previous_token_score(lambda w: np.array([previous_token(w)]))
    assert info.value.diagnosis == "induction.score-shape"
    assert "Their mean is the right score" in str(info.value)


@pytest.mark.parametrize("convert, kind", [
    (lambda x: torch.tensor(x), "a 0-d torch tensor (torch.float32)"),
    (lambda x: torch.tensor(x, dtype=torch.float64), "a 0-d torch tensor (torch.float64)"),
    (np.float32, "a NumPy float32 scalar"),
    (np.array, "a 0-d NumPy array (float64)"),
])
def test_scores_refuse_a_number_of_another_type_than_float(convert, kind):
    """The exercises ask for a float: a right number of another type is refused, saying so
    (np.float64 is a Python float, and passes)."""
    for check, right in ((induction.check_previous_token_score, previous_token),
                         (induction.check_induction_score, induction_ref)):
        with pytest.raises(AssertionError) as info:
            check(lambda *args, right=right: convert(right(*args)))
        said = str(info.value)
        assert f"you returned {kind}; the exercise asks for the score as a Python float" in said
        assert "Your number is right" in said
        assert info.value.diagnosis == "induction.score-not-a-number"
    with pytest.raises(AssertionError, match=r"you returned an int \(0\)") as info:
        induction.check_previous_token_score(lambda w: 0)
    assert "not the right one either" in str(info.value)
    with pytest.raises(AssertionError, match="you returned a 0-d torch tensor") as info:
        induction.check_induction_score(lambda w, span: torch.tensor(0.5))
    assert "not the right one either" in str(info.value)


def test_a_batch_must_be_a_long_tensor():
    with pytest.raises(AssertionError, match="you returned a list") as info:
        induction.check_repeated_span_batch(lambda b, s, v, g: batch(b, s, v, g).tolist())
    assert info.value.diagnosis == "induction.batch-not-a-tensor"
    with pytest.raises(AssertionError, match="returned None"):
        induction.check_repeated_span_batch(lambda b, s, v, g: None)


def test_the_ablation_must_be_a_float():
    def tensor(model, ids, layer, head, span):
        return torch.tensor(ablation(model, ids, layer, head, span))

    with pytest.raises(AssertionError, match="Python float") as info:
        induction.check_ablation_effect(tensor)
    assert info.value.diagnosis == "induction.ablation-tensor"
    assert "Your number is right" in str(info.value)
    with pytest.raises(AssertionError, match="one float") as info:
        induction.check_ablation_effect(lambda *args: "3.5 nats")
    assert info.value.diagnosis == "induction.ablation-not-a-number"
    for convert, kind in ((np.float32, "you returned a NumPy float32 scalar"),
                          (lambda x: np.array([x]), "you returned a NumPy array of shape (1,)"),
                          (np.array, "you returned a 0-d NumPy array (float64)")):
        with pytest.raises(AssertionError) as info:
            induction.check_ablation_effect(lambda *args, c=convert: c(ablation(*args)))
        assert kind in str(info.value) and "Python float" in str(info.value)
        assert "Your number is right" in str(info.value)
        assert info.value.diagnosis == "induction.ablation-not-a-number"
    with pytest.raises(AssertionError, match=r"you returned an int \(3\)"):
        induction.check_ablation_effect(lambda *args: 3)


def _copy_losses(model, ids, span, head_mask, first_from=1):
    """(first-copy loss, second-copy loss): the lesson's repeat advantage, by hand."""
    with torch.no_grad():
        logits = model(ids, head_mask)
    first = F.cross_entropy(logits[:, first_from:span].flatten(0, 1),
                            ids[:, first_from + 1 : span + 1].flatten()).item()
    second = F.cross_entropy(logits[:, span + 1 : 2 * span].flatten(0, 1),
                             ids[:, span + 2 :].flatten()).item()
    return first, second


def _masks(model, layer, head):
    ones = torch.ones(model.n_layers, model.n_heads)
    zeroed = ones.clone()
    zeroed[layer, head] = 0.0
    return ones, zeroed


def advantage_drop(model, ids, layer, head, span):
    """The fall of the lesson's repeat advantage, intact minus ablated."""
    ones, zeroed = _masks(model, layer, head)
    fi, si = _copy_losses(model, ids, span, ones)
    fa, sa = _copy_losses(model, ids, span, zeroed)
    return (fi - si) - (fa - sa)


def advantage_change(model, ids, layer, head, span):
    """The change of the repeat advantage, ablated minus intact, the first copy whole."""
    ones, zeroed = _masks(model, layer, head)
    (fi, si) = _copy_losses(model, ids, span, ones, first_from=0)
    (fa, sa) = _copy_losses(model, ids, span, zeroed, first_from=0)
    return (fa - sa) - (fi - si)


def ablated_level(model, ids, layer, head, span):
    """Both models run, but the ablated loss returned without the intact one subtracted."""
    ones, zeroed = _masks(model, layer, head)
    _copy_losses(model, ids, span, ones)
    return _copy_losses(model, ids, span, zeroed)[1]


@pytest.mark.parametrize("answer, said, diagnosis", [
    (advantage_drop, "your number is how much the repeat advantage falls, intact minus ablated",
     "induction.ablation-advantage"),
    (advantage_change, "your number is the change of the repeat advantage, ablated minus intact",
     "induction.ablation-advantage"),
    (ablated_level, "your number is the ablated model's loss on the second copy, a level",
     "induction.ablation-one-run"),
])
def test_the_repeat_advantage_or_a_level_instead_of_the_rise_is_named(answer, said, diagnosis):
    with pytest.raises(AssertionError) as info:
        induction.check_ablation_effect(answer)
    assert said in str(info.value) and info.value.diagnosis == diagnosis
    assert "the rise of the second copy's loss alone" in str(info.value)
    assert "a rise of" not in str(info.value)         # the reference value is not given away


def test_non_finite_answers_get_a_clear_message_and_no_warning():
    """inf, NaN, huge or constant answers: a message, and not one RuntimeWarning from the
    check itself (the answers below raise none of their own)."""
    cases = [
        (induction.check_previous_token_score, lambda w: math.inf, "generic.inf"),
        (induction.check_induction_score, lambda w, span: -math.inf, "generic.inf"),
        (induction.check_previous_token_score, lambda w: 0.5, "induction.score-wrong-value"),
        (induction.check_induction_score, lambda w, span: 1e308, "induction.score-wrong-value"),
        (induction.check_ablation_effect, lambda *args: math.nan, "generic.nan"),
        (induction.check_ablation_effect, lambda *args: math.inf, "generic.inf"),
        (induction.check_ablation_effect, lambda *args: 0.5, "induction.ablation-wrong-value"),
    ]
    for check, answer, diagnosis in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(AssertionError) as info:
                check(answer)
        assert info.value.diagnosis == diagnosis, (check.__name__, str(info.value))


# ---------------------------------------------------------------- the cases tell mistakes apart


def _score_variants(w, key, queries):
    """The plausible wrong numbers of a score: every other diagonal and query range, and the
    right entries summed or taken from one example."""
    t = np.arange(queries[0], queries[1] + 1)
    values = {}
    T = w.shape[-1]
    for k in range(-2, T):
        for a in range(0, T):
            for b in (queries[1] - 1, queries[1], T - 1):
                if a <= b and (k, a, b) != (key, *queries):
                    s = np.arange(a, b + 1)
                    if (s - k < T).all():
                        values[f"key t - {k}, queries {a}..{b}"] = float(w[:, s, s - k].mean())
    right = w[:, t, t - key]
    values.update({"sum": float(right.sum()), "first": float(right[0].mean()),
                   "last": float(right[-1].mean())})
    return float(right.mean()), values


@pytest.mark.parametrize("grading", [None, 2024])
def test_every_wrong_diagonal_or_query_range_gives_its_own_number(grading):
    """On the first case of each score (where a wrong answer fails first) no plausible wrong
    diagonal, query range or reduction gives the right number."""
    core.set_grading_seed(grading)
    try:
        w1 = induction._prev_cases()[0]
        w2, span = induction._ind_cases()[0]
    finally:
        core.set_grading_seed(None)
    for w, key, queries in ((w1, 1, (1, w1.shape[-1] - 1)), (w2, span - 1, (span + 1, 2 * span))):
        right, values = _score_variants(w, key, queries)
        same = [k for k, v in values.items() if math.isclose(v, right, rel_tol=1e-6)]
        assert same == [], same


def test_the_first_ablation_case_can_tell_layer_from_head():
    label, model, layer, head, span, B, _ = induction._ablation_cases()[0]
    assert layer != head and head < model.n_layers and layer < model.n_heads


def test_every_ablation_mistake_gives_its_own_number():
    """On the first ablation case, the sign, the ratio, the sum and the other target ranges
    are all far from the right number (more than 100 times the tolerance)."""
    label, model, layer, head, span, B, seed = induction._ablation_cases()[0]
    V = model.vocab_size
    ids = lib.repeated_span_batch(B, span, V, core.torch_generator(seed), prefix=1, bos=V - 1)
    ones = torch.ones(model.n_layers, model.n_heads)
    zeroed = ones.clone()
    zeroed[layer, head] = 0
    intact, ablated = induction._losses(model, ids, ones), induction._losses(model, ids, zeroed)
    right = ablated[0][span + 1 : 2 * span].mean() - intact[0][span + 1 : 2 * span].mean()
    T = ids.shape[1]
    for key, how, _ in induction._COMBINE:
        for shifted, a, b in induction._named_windows(span, T):
            if (key, shifted, a, b) == ("diff", True, span + 2, 2 * span):
                continue
            i = induction._window_value(intact, shifted, a, b)
            abl = induction._window_value(ablated, shifted, a, b)
            value = how(i.mean(), abl.mean(), len(i) * B)
            assert abs(value - right) > 100 * induction.ABLATION_ATOL, (key, shifted, a, b)


# ---------------------------------------------------------------- the model handed out


def test_the_watched_model_records_masks_without_grad_and_notices_changes():
    base = lib.AttentionOnly(7, d_model=8, n_heads=2, n_layers=2, max_len=9, seed=3)
    model = induction._watched(base)
    ids = lib.repeated_span_batch(2, 4, 7, torch.Generator().manual_seed(0), prefix=1, bos=6)
    mask = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
    logits = model(ids, mask)
    model(ids)
    assert not logits.requires_grad
    torch.testing.assert_close(logits, base(ids, mask))
    assert [c.tolist() for c in model.calls] == [[[1, 0], [1, 1]], [[1, 1], [1, 1]]]
    assert model.changed() == [] and not model.tampered
    with torch.no_grad():
        model.layers[1].o.weight[0, 0] += 1.0
    assert model.changed() == ["layers.1.o.weight"]
    model(ids)
    assert model.tampered
    assert induction._watched(base).changed() == []  # a fresh copy for every case


def test_the_shipped_model_loads_in_well_under_a_second():
    induction._shipped.cache_clear()
    start = time.perf_counter()
    model = induction._shipped()
    assert model is not None and time.perf_counter() - start < 0.5
    assert (model.n_layers, model.n_heads) == (2, 2)


def test_the_checks_leave_the_global_rng_alone():
    states = torch.random.get_rng_state(), np.random.get_state()[1].copy()
    induction.check_repeated_span_batch(batch)
    induction.check_ablation_effect(ablation)
    assert torch.equal(torch.random.get_rng_state(), states[0])
    assert np.array_equal(np.random.get_state()[1], states[1])


def test_a_global_reseed_is_put_back():
    """A wrong answer that reseeds torch is refused, and the notebook's RNG is as it was."""
    before = torch.random.get_rng_state()

    def reseeds(b, s, v, g):
        torch.manual_seed(0)
        return batch(b, s, v, g)

    with pytest.raises(AssertionError, match="global random state") as info:
        induction.check_repeated_span_batch(reseeds)
    assert info.value.diagnosis == "induction.batch-global-seed"
    assert torch.equal(torch.random.get_rng_state(), before)


# ---------------------------------------------------------------- round 2: sizes and APIs


@pytest.mark.parametrize("grading", [None, 2024])
def test_the_scores_first_case_has_the_lessons_size(grading):
    """T = 33, span = 16 first: an answer with the lesson's size hard-coded passes it and is
    named as hard-coded on the next case, of another size."""
    core.set_grading_seed(grading)
    try:
        w1, w2 = induction._prev_cases(), induction._ind_cases()
    finally:
        core.set_grading_seed(None)
    T = 1 + 2 * induction.LESSON_SPAN
    assert w1[0].shape[-1] == T and w1[1].shape[-1] != T
    assert (w2[0][0].shape[-1], w2[0][1]) == (T, induction.LESSON_SPAN)
    assert w2[1][1] != induction.LESSON_SPAN


def test_a_score_s_own_type_error_is_left_alone():
    """Only torch's keywords and methods on the NumPy weights are named; another TypeError of
    the student's own code is raised as it is."""

    def wrong(weights):
        return float(len(weights, 1))

    with pytest.raises(TypeError, match="len"):
        induction.check_previous_token_score(wrong)


# ---------------------------------------------------------------- ex5, ex6 (issue 22)


def prefix_loops(weights, ids):
    sums = []
    for i in range(len(ids)):
        keys = [j for j in range(1, i) if ids[j - 1] == ids[i]]
        if keys:
            sums.append(weights[i, keys].sum())
    return float(np.mean(sums)) if sums else 0.0


def prefix_vectorised(weights, ids):
    ids = np.asarray(ids)
    T = len(ids)
    match = np.zeros((T, T), dtype=bool)
    match[:, 1:] = ids[:, None] == ids[None, :-1]  # ids[j - 1] == ids[i]
    match &= np.tri(T, k=-1, dtype=bool)           # j < i
    has = match.any(1)
    return float((weights * match).sum(1)[has].mean()) if has.any() else 0.0


def prefix_torch(weights, ids):
    w, t = torch.as_tensor(weights), torch.as_tensor(ids)
    T = len(t)
    match = torch.zeros(T, T, dtype=torch.bool)
    match[:, 1:] = t[:, None] == t[None, :-1]
    match &= torch.ones(T, T, dtype=torch.bool).tril(-1)
    has = match.any(1)
    return (w * match).sum(1)[has].mean().item() if has.any() else 0.0


def mean_ablate(head_out, reference):
    return reference.mean(dim=0).expand_as(head_out).clone()


def mean_ablate_repeat(head_out, reference):
    return reference.mean(0, keepdim=True).repeat(head_out.shape[0], 1, 1)


def mean_ablate_view(head_out, reference):
    """An expanded view of a NEW tensor (the mean), not of the reference: allowed."""
    return reference.sum(0, keepdim=True).div(reference.shape[0]).expand(*head_out.shape)


NEW_REFERENCES = [
    (induction.check_prefix_matching_score, prefix_loops),
    (induction.check_prefix_matching_score, prefix_vectorised),
    (induction.check_prefix_matching_score, prefix_torch),
    (induction.check_mean_ablate, mean_ablate),
    (induction.check_mean_ablate, mean_ablate_repeat),
    (induction.check_mean_ablate, mean_ablate_view),
]
test_new_right_answer_passes, test_new_stub_propagates = contract_tests(NEW_REFERENCES)


test_new_right_answers_pass_when_grading = grading_test(NEW_REFERENCES, seed=99)


def test_new_library_helpers_are_refused():
    from helpers.induction import prefix_matching_score

    def with_library(weights, ids):
        return float(prefix_matching_score(torch.as_tensor(weights)[None, None],
                                           torch.as_tensor(ids)[None]))

    with pytest.raises(AssertionError, match="your function calls") as info:
        induction.check_prefix_matching_score(with_library)
    assert info.value.diagnosis == "rule.forbidden-call"


def test_no_match_must_give_zero():
    def nan_when_none(weights, ids):
        score = prefix_loops(weights, ids)
        return score if score else float("nan")

    with pytest.raises(AssertionError, match="return 0.0") as info:
        induction.check_prefix_matching_score(nan_when_none)
    assert info.value.diagnosis == "induction.prefix-no-match"

