"""helpers.checks.core: what every check says when an answer is not the one expected."""

import numpy as np
import pytest
import torch

from helpers.checks import core


def test_a_right_answer_passes_in_numpy_or_torch():
    core.compare(torch.tensor([1.0, 2.0]), np.array([1.0, 2.0]), name="f")
    core.compare(np.array([[np.nan, 1.0]]), np.array([[np.nan, 1.0]]), name="f")


@pytest.mark.parametrize("got, says", [
    (None, "f: your function returned None. Did you forget `return`?"),
    ("abc", "f: expected an array of numbers, got str"),
    ([[1.0], [2.0, 3.0]], "f: expected an array of numbers, got list"),
    (np.zeros((3, 2)), "f: expected shape (2, 3), got shape (3, 2)"),
    (np.array([[0, 1, 2], [3, np.nan, 5.0]]), "f: your result contains NaN (first at index "
                                             "(1, 1)) where the reference has none."),
    (np.array([[0, 1, 2], [3, 4, 9.0]]), "f: wrong values. At index (1, 2) the reference is 5 "
                                        "and yours is 9 (largest of the differences)."),
])
def test_a_wrong_answer_says_what_was_expected(got, says):
    with pytest.raises(AssertionError) as error:
        core.compare(got, np.arange(6.0).reshape(2, 3), name="f")
    assert str(error.value).startswith(says)


def test_the_largest_difference_is_where_the_values_differ():
    want = np.array([np.inf, np.nan, 1.0, 2.0])
    with pytest.raises(AssertionError, match=r"At index \(1,\) the reference is nan and yours "
                                             r"is 0"):
        core.compare(np.array([np.inf, 0.0, 1.0, 2.0]), want, name="f")
    with pytest.raises(AssertionError, match=r"At index \(3,\) the reference is 2 and yours is 3"):
        core.compare(np.array([np.inf, np.nan, 1.0, 3.0]), want, name="f")


def test_a_named_mistake_wins_over_the_generic_message():
    want = np.array([1.0, 2.0])
    with pytest.raises(AssertionError, match="^f: you doubled it$"):
        core.compare(2 * want, want, name="f", mistakes=[("you doubled it", 2 * want)])


def test_expect_error():
    def rejects(x):
        raise ValueError("no")

    core.expect_error(rejects, 1, name="g")
    with pytest.raises(AssertionError, match="g: expected ValueError, but nothing was raised. H"):
        core.expect_error(lambda x: x, 1, name="g", hint="H")
    with pytest.raises(AssertionError, match="g: expected ValueError, but your code raised "
                                             "TypeError: t. H"):
        core.expect_error(lambda x: (_ for _ in ()).throw(TypeError("t")), 1, name="g", hint="H")
    with pytest.raises(NotImplementedError):  # a stub stays "not attempted"
        core.expect_error(lambda x: (_ for _ in ()).throw(NotImplementedError()), 1, name="g")
