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


def test_in_place_answer_does_not_corrupt_the_reference():
    def in_place(s):
        s -= s.max(axis=-1, keepdims=True)
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        return s

    one_row.check_stable_softmax(in_place)


def test_passing_a_call_instead_of_the_function_is_explained():
    with pytest.raises(AssertionError, match="pass your function itself"):
        one_row.check_weighted_sum(np.zeros((2, 2)))


def test_calling_attention_is_refused():
    from helpers.attention import attention

    def via_helper(q, k, v, mask=None):
        return attention(q, k, v, mask)

    with pytest.raises(AssertionError, match="calls attention"):
        one_row.check_attention_output(via_helper)
