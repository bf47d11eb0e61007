"""The contract every exercise check keeps, written once for every lesson's check tests.

A right answer passes with exactly one ✔ line and no warning; a stub's NotImplementedError
reaches the student untouched (so the grader can say "not attempted").
"""

import warnings

import pytest


def contract_tests(right_answers):
    """right_answers: (check, answer) pairs. Returns the two tests for a test module to bind:

    test_right_answer_passes, test_stub_propagates = contract_tests(RIGHT_ANSWERS)
    """
    checks = list(dict.fromkeys(check for check, _ in right_answers))

    @pytest.mark.parametrize(
        "check, answer", right_answers, ids=[check.__name__ for check, _ in right_answers]
    )
    def test_right_answer_passes(check, answer, capsys):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check(answer)
        out = capsys.readouterr().out
        assert out.startswith("✔") and out.count("\n") == 1, out

    @pytest.mark.parametrize("check", checks, ids=[check.__name__ for check in checks])
    def test_stub_propagates(check):
        def stub(*args, **kwargs):
            raise NotImplementedError("Not attempted yet")

        with pytest.raises(NotImplementedError):
            check(stub)

    return test_right_answer_passes, test_stub_propagates


def grading_test(right_answers, seed: int):
    """A test that every right answer also passes on the cases a grading seed adds:

    test_right_answer_passes_when_grading = grading_test(RIGHT_ANSWERS, seed=99)
    """
    from helpers.checks import core

    @pytest.mark.parametrize(
        "check, answer", right_answers,
        ids=[getattr(answer, "__name__", check.__name__) for check, answer in right_answers]
    )
    def test_right_answer_passes_when_grading(check, answer, capsys):
        core.set_grading_seed(seed)
        try:
            check(answer)
        finally:
            core.set_grading_seed(None)
        assert capsys.readouterr().out.startswith("✔")

    return test_right_answer_passes_when_grading

