"""helpers.checks.one_row: right answers pass, stubs and shortcuts fail, no warnings leak."""

import warnings

import numpy as np
import pytest
from check_contract import contract_tests

from helpers.checks import one_row


def scaled_scores(q, k):
    return q @ k.T / np.sqrt(k.shape[-1])


def stable_softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def weighted_sum(weights, v):
    return weights @ v


def row_by_hand(q, k, v, i):
    w = stable_softmax(k @ q[i] / np.sqrt(k.shape[-1]))
    return w @ v, w


def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(k.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = stable_softmax(s)
    return w @ v, w


RIGHT = [
    (one_row.check_scaled_scores, scaled_scores),
    (one_row.check_stable_softmax, stable_softmax),
    (one_row.check_weighted_sum, weighted_sum),
    (one_row.check_row_by_hand, row_by_hand),
    (one_row.check_attention_output, attention_output),
]
IDS = [check.__name__ for check, _ in RIGHT]


test_right_answer_passes, test_stub_propagates = contract_tests(RIGHT)


@pytest.mark.parametrize("check", [c for c, _ in RIGHT], ids=IDS)
def test_none_is_rejected(check):
    with pytest.raises(AssertionError):
        check(lambda *args, **kwargs: None)


def test_hard_coded_worked_example_fails():
    def memorised(q, k, v, i):
        return np.array([1.159, 0.841]), np.array([0.386, 0.227, 0.386])

    with pytest.raises(AssertionError):
        one_row.check_row_by_hand(memorised)


def test_overflowing_answer_gets_a_message_not_a_warning():
    def naive(s):
        e = np.exp(s)
        return e / e.sum(axis=-1, keepdims=True)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AssertionError, match="subtract the row max"):
            one_row.check_stable_softmax(naive)


def test_in_place_answer_is_named_and_does_not_corrupt_the_reference():
    def in_place(s):
        s -= s.max(axis=-1, keepdims=True)
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        return s

    with pytest.raises(AssertionError, match="changed its argument `s` in place"):
        one_row.check_stable_softmax(in_place)
    one_row.check_stable_softmax(stable_softmax)  # the reference inputs are intact


def test_passing_a_call_instead_of_the_function_is_explained():
    with pytest.raises(AssertionError, match="pass your function itself"):
        one_row.check_weighted_sum(np.zeros((2, 2)))


def test_calling_attention_is_refused():
    from helpers.attention import attention

    def via_helper(q, k, v, mask=None):
        return attention(q, k, v, mask)

    with pytest.raises(AssertionError, match="calls attention"):
        one_row.check_attention_output(via_helper)


# ---- valid variants: other ways to write the right answer must pass


def scores_einsum(q, k):
    return np.einsum("id,jd->ij", q, k) / k.shape[-1] ** 0.5


def scores_math_sqrt(q, k):
    import math

    return np.dot(q, k.T) / math.sqrt(q.shape[1])


def scores_torch(q, k):
    import torch

    q, k = torch.as_tensor(q), torch.as_tensor(k)
    return (q @ k.transpose(-2, -1)) / torch.sqrt(torch.tensor(float(k.shape[-1])))


def softmax_np_functions(s):
    shifted = s - np.max(s, axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=-1, keepdims=True)


def softmax_expand_dims(s):
    e = np.exp(s - np.expand_dims(s.max(axis=-1), -1))
    return e / e.sum(axis=-1)[..., None]


def softmax_torch(s):
    import torch

    t = torch.as_tensor(s)
    e = torch.exp(t - t.amax(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)


def weighted_einsum(weights, v):
    return np.einsum("ij,jd->id", weights, v)


def weighted_loop(weights, v):
    out = np.zeros((weights.shape[0], v.shape[1]))
    for i in range(weights.shape[0]):
        for j in range(weights.shape[1]):
            out[i] += weights[i, j] * v[j]
    return out


def weighted_broadcast(weights, v):
    return (weights[:, :, None] * v[None, :, :]).sum(axis=1)


def row_loop(q, k, v, i):
    scores = np.array([q[i] @ k[j] for j in range(len(k))]) / np.sqrt(len(q[i]))
    e = np.exp(scores - max(scores))
    w = e / sum(e)
    out = sum(w[j] * v[j] for j in range(len(v)))
    return out, w


def row_from_full(q, k, v, i):
    s = q @ k.T / np.sqrt(k.shape[-1])
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return (w @ v)[i], w[i]


def output_additive_bias(q, k, v, mask=None):
    s = np.einsum("id,jd->ij", q, k) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = s + np.where(mask, 0.0, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return np.einsum("ij,jd->id", w, v), w


def output_reusing_own_softmax(q, k, v, mask=None):
    s = scaled_scores(q, k)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = stable_softmax(s)
    return weighted_sum(w, v), w


VALID = [
    (one_row.check_scaled_scores, scores_einsum),
    (one_row.check_scaled_scores, scores_math_sqrt),
    (one_row.check_stable_softmax, softmax_np_functions),
    (one_row.check_stable_softmax, softmax_expand_dims),
    (one_row.check_weighted_sum, weighted_einsum),
    (one_row.check_weighted_sum, weighted_loop),
    (one_row.check_weighted_sum, weighted_broadcast),
    (one_row.check_row_by_hand, row_loop),
    (one_row.check_row_by_hand, row_from_full),
    (one_row.check_attention_output, output_additive_bias),
    (one_row.check_attention_output, output_reusing_own_softmax),
]


@pytest.mark.parametrize("check, answer", VALID, ids=[a.__name__ for _, a in VALID])
def test_valid_variant_passes(check, answer, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check(answer)
    assert capsys.readouterr().out.startswith("✔")


# ---- rules


def test_rounded_sqrt_is_named():
    import math

    def isqrt_scale(q, k):
        return q @ k.T / math.isqrt(k.shape[-1])

    def int_scale(q, k):
        return q @ k.T / int(k.shape[-1] ** 0.5)

    for answer in (isqrt_scale, int_scale):
        with pytest.raises(AssertionError, match="rounded down to a whole number"):
            one_row.check_scaled_scores(answer)


def test_score_helper_is_refused():
    from helpers.attention import scores

    def via_helper(q, k):
        return scores(q, k)

    with pytest.raises(AssertionError, match="calls scores"):
        one_row.check_scaled_scores(via_helper)


@pytest.mark.parametrize("dotted", ["torch.softmax", "torch.special.softmax",
                                    "torch.logsumexp", "torch.nn.Softmax",
                                    "helpers.scaling.softmax_temperature"])
def test_every_library_softmax_is_refused(dotted):
    module, _, attr = dotted.rpartition(".")
    namespace = {"lib": __import__(module, fromlist=[attr])}
    exec(f"def answer(s):\n    return lib.{attr}(s)\n", namespace)
    with pytest.raises(AssertionError, match="(?i)write it yourself"):
        one_row.check_stable_softmax(namespace["answer"])


def test_loops_are_refused_in_the_full_output():
    def looped(q, k, v, mask=None):
        rows = [row_by_hand(q, k, v, i) for i in range(q.shape[0])]
        w = np.stack([r[1] for r in rows])
        return w @ v, w

    with pytest.raises(AssertionError, match="without loops"):
        one_row.check_attention_output(looped)


def test_overflow_in_full_attention_is_named():
    def naive(q, k, v, mask=None):
        s = q @ k.T / np.sqrt(k.shape[-1])
        if mask is not None:
            s = np.where(mask, s, -np.inf)
        e = np.exp(s)
        w = e / e.sum(axis=-1, keepdims=True)
        return w @ v, w

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AssertionError, match="did not subtract each row's max"):
            one_row.check_attention_output(naive)


def test_diagnoses_carry_ids():
    from helpers.checks import core

    with pytest.raises(core.CheckFailed) as error:
        one_row.check_scaled_scores(lambda q, k: q @ k.T / k.shape[-1])
    assert error.value.diagnosis == "one_row.scaled-by-dk"


# held-out answers (round 2) that are right and were refused: each must pass
HELD_OUT_VALID_EX5 = [
    '''import numpy as np


def attention_output(q, k, v, mask=None):
    s = np.einsum("id,jd->ij", q, k) / np.sqrt(k.shape[-1])
    if mask is not None:
        s = s + np.where(mask, 0.0, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    weights = e / e.sum(axis=-1, keepdims=True)
    return np.einsum("ij,jd->id", weights, v), weights
''',
    '''import numpy as np


def attention_output(q, k, v, mask=None):
    s = (q @ k.T) * (1.0 / np.sqrt(q.shape[1]))
    if mask is None:
        mask = np.ones(s.shape, dtype=bool)
    s = s.copy()
    s[~mask] = -np.inf
    e = np.exp(s - s.max(axis=1)[:, None])
    weights = e / e.sum(axis=1)[:, None]
    out = weights @ v
    return out, weights
''',
]


@pytest.mark.parametrize("code", HELD_OUT_VALID_EX5, ids=["einsum and additive bias",
                                                           "copy and boolean index"])
def test_loop_rule_reads_the_code_not_a_stale_source(code, capsys):
    """The loop rule must not read another cell's source that shares the answer's file name.

    Cells run outside Jupyter share a file name ("ex5-answer"); linecache may then hold a
    different cell's text, here one with a generator expression on the function's lines.
    """
    import linecache

    filename = "<ex5-answer, stale source>"
    stale = "".join(f"x = sum(i for i in range({n}))\n" for n in range(20))
    linecache.cache[filename] = (len(stale), None, stale.splitlines(True), filename)
    try:
        namespace = {}
        exec(compile(code, filename, "exec"), namespace)
        one_row.check_attention_output(namespace["attention_output"])
    finally:
        linecache.cache.pop(filename, None)
    assert "✔" in capsys.readouterr().out


def test_a_loop_is_still_refused_without_source():
    namespace = {}
    exec(compile('''import numpy as np


def attention_output(q, k, v, mask=None):
    rows = [q[i] @ k.T / np.sqrt(k.shape[-1]) for i in range(len(q))]
    s = np.array(rows)
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    return w @ v, w
''', "<no source>", "exec"), namespace)
    with pytest.raises(AssertionError, match="list comprehension"):
        one_row.check_attention_output(namespace["attention_output"])


@pytest.mark.parametrize("check, answer", [(one_row.check_scaled_scores, scores_torch),
                                           (one_row.check_stable_softmax, softmax_torch)])
def test_a_torch_result_is_refused_as_the_text_says_use_numpy(check, answer):
    """Issue 20: the right numbers in a torch tensor pass no more; the message names it."""
    with pytest.raises(AssertionError, match="you returned a torch tensor; the exercise says"):
        check(answer)
