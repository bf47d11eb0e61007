"""helpers.checks.core: what every check says when an answer is not the one expected."""

import traceback

import numpy as np
import pytest
import torch

from helpers.checks import calls, core

WANT = np.arange(1.0, 7.0).reshape(2, 3)


def message(got, want=WANT, **options):
    with pytest.raises(core.CheckFailed) as error:
        core.compare(got, want, name="f", **options)
    return str(error.value), error.value.diagnosis


def test_a_right_answer_passes_in_numpy_or_torch():
    core.compare(torch.tensor([1.0, 2.0]), np.array([1.0, 2.0]), name="f")
    core.compare(np.array([[np.nan, 1.0]]), np.array([[np.nan, 1.0]]), name="f")


@pytest.mark.parametrize("got, says", [
    (None, "f: your function returned None. Did you forget `return`?"),
    ("abc", "f: expected an array of numbers, got str"),
    ([[1.0], [2.0, 3.0]], "f: expected an array of numbers, got list"),
    (np.zeros((3, 2)), "f: expected shape (2, 3), got shape (3, 2)"),
    (np.array([[1, 2, 3], [4, np.nan, 6.0]]), "f: your result contains NaN (1 of 6 values, the "
                                             "first at index (1, 1)) where the reference has none"),
    (np.array([[1, 2, 3], [4, 5, 9.0]]), "At index (1, 2) the reference is 6 and yours is 9 "
                                        "(largest of the differences)."),
])
def test_a_wrong_answer_says_what_was_expected(got, says):
    text = message(got)[0]
    assert text.startswith(says) or text.endswith(says), text


def test_the_largest_difference_is_where_the_values_differ():
    want = np.array([np.inf, np.nan, 1.0, 2.0, 5.0])
    text, _ = message(np.array([np.inf, 0.0, 1.0, 2.0, 5.0]), want)
    assert "At index (1,) the reference is nan and yours is 0" in text
    text, _ = message(np.array([np.inf, np.nan, 1.0, 3.0, 5.0]), want)
    assert "At index (3,) the reference is 2 and yours is 3" in text


def test_a_named_mistake_wins_over_the_generic_diagnosis():
    want = np.array([1.0, 2.0])
    assert message(2 * want, want, mistakes=[("you doubled it", 2 * want)]) == (
        "f: you doubled it", "named")
    assert message(2 * want, want, mistakes=[("x.doubled", "you doubled it", 2 * want)])[1] == (
        "x.doubled")


# ---------------------------------------------------------------- relations, one by one

RNG = np.random.default_rng(0)
M = RNG.normal(size=(4, 5))          # (T_q, T_k)
B = RNG.normal(size=(2, 3, 4, 5))    # (B, H, T, d_head)


@pytest.mark.parametrize("got, want, options, diagnosis, says", [
    (M.T, M, dict(axes=("T_q", "T_k")), "generic.transposed", "transposed"),
    (B.transpose(0, 2, 1, 3), B, dict(axes=("B", "H", "T", "d_head")), "generic.axes-swapped",
     "axes are (B, T, H, d_head)"),
    (M.sum(0), M, dict(axes=("T_q", "T_k")), "generic.axis-reduced", "summed over T_q"),
    (M[None], M, {}, "generic.axis-extra", "extra axis of size 1"),
    (np.zeros((4, 3)), M, dict(axes=("T_q", "T_k"), sizes=dict(T_q=4, T_k=5, d_v=3)),
     "generic.wrong-size", "which is d_v"),
    (M.ravel(), M, {}, "generic.wrong-shape-same-values", "reshaped"),
    (M / 2.0, M, dict(factors={"√d_k": 2.0}), "generic.constant-factor", "÷ √d_k"),
    (M / 4.0, M, dict(factors={"√d_k": 2.0}), "generic.constant-factor", "÷ √d_k²"),
    (M * 3.7, M, {}, "generic.constant-factor", "3.7 × the reference"),
    (-M, M, {}, "generic.sign", "sign flipped"),
    (M + 0.5, M, {}, "generic.constant-offset", "plus 0.5"),
    (M * np.arange(1.0, 5.0)[:, None], M, {}, "generic.rows-rescaled", "a factor of its own"),
    (B.transpose(0, 2, 1, 3).reshape(B.shape), B, dict(axes=("B", "H", "T", "d_head")),
     "generic.reshape-not-transpose", "(B, T, H, d_head)"),
    (M[::-1], M, dict(axes=("T_q", "T_k")), "generic.reversed", "reversed along T_q"),
    (np.roll(M, 1, 1), M, dict(axes=("T_q", "T_k")), "generic.shifted", "shifted by one along "
                                                                         "T_k"),
    (M[[1, 0, 2, 3]], M, dict(axes=("T_q", "T_k")), "generic.permuted", "[1, 0, 2, 3]"),
    (np.vstack([M[:3], M[3:] + 1]), M, dict(axes=("T_q", "T_k")), "generic.partly-right",
     "Only the last T_q is wrong"),
    (M * (1 + 1e-4 * RNG.normal(size=M.shape)), M, {}, "generic.precision", "about 3 digits"),
    (np.round(M), M, {}, "generic.whole-numbers", "whole numbers"),
    (np.where(M > 1, np.inf, M), M, {}, "generic.inf", "contains inf"),
])
def test_each_relation_is_named(got, want, options, diagnosis, says):
    text, found = message(got, want, **options)
    assert found == diagnosis, text
    assert says in text


def test_right_only_on_the_diagonal_or_a_triangle():
    square = RNG.normal(size=(4, 4))
    got = np.where(np.tril(np.ones((4, 4), bool)), square, 0.0)
    text, found = message(got, square)
    assert found == "generic.right-in-triangle" and "on and below the diagonal" in text


def test_right_on_an_earlier_size_only_is_named():
    @core.exercise
    def check_f(fn):
        core.compare(fn(np.ones(2)), np.ones(2) * 2, name="f (case 1)")
        core.compare(fn(np.ones(3)), np.ones(3) * 2, name="f (case 2)")

    with pytest.raises(core.CheckFailed, match="right on an earlier case of another size"):
        check_f(lambda x: np.full(x.shape, 2.0) if x.size == 2 else np.ones(3))


# ---------------------------------------------------------------- calling the student


def test_an_input_changed_in_place_is_named_and_the_caller_keeps_its_array():
    x = np.ones(3)

    def doubles_in_place(x):
        x *= 2
        return x

    with pytest.raises(core.CheckFailed, match="changed its argument `x` in place"):
        core.call(doubles_in_place, x)
    assert (x == 1).all()
    assert core.call(lambda x: x * 2, x).tolist() == [2.0, 2.0, 2.0]


def test_a_tuple_in_the_wrong_order_is_named():
    out, weights = np.ones((2, 3)), np.full((2, 2), 0.5)
    with pytest.raises(core.CheckFailed, match=r"returned \(weights, out\)"):
        core.compare_tuple((weights, out), (out, weights), ("out", "weights"), name="f")
    with pytest.raises(core.CheckFailed, match="return a tuple"):
        core.compare_tuple(out, (out, weights), ("out", "weights"), name="f")
    core.compare_tuple((out, weights), (out, weights), ("out", "weights"), name="f")


# ---------------------------------------------------------------- rules


def test_a_forbidden_call_is_found_by_name_alias_or_helper():
    from helpers.attention import softmax as sm

    forbidden = core.SOFTMAX_FUNCTIONS

    def by_attribute(s):
        return torch.tensor(s).softmax(-1)

    def by_alias(s):
        return sm(s)

    def helper(s):
        return sm(s)

    def through_a_helper(s):
        return helper(s)

    for fn in (by_attribute, by_alias, through_a_helper):
        with pytest.raises(core.CheckFailed, match="calls"):
            core.forbid(fn, forbidden, name="f", why="Write it yourself.")


def test_a_forbidden_attribute_is_found_inside_a_function_of_the_same_name():
    import torch.nn.functional as F

    def softmax(s):  # named like the forbidden function, and calls it
        return F.softmax(torch.as_tensor(s), -1)

    with pytest.raises(core.CheckFailed, match="calls softmax"):
        core.forbid(softmax, core.SOFTMAX_FUNCTIONS, name="f", why="")


def test_a_float32_result_is_named_as_precision_not_as_misplaced_numbers():
    text, found = message(M.astype(np.float16).astype(np.float64), M)
    assert found == "generic.precision", text


def test_the_library_function_itself_as_the_answer_is_refused():
    from helpers.attention import softmax

    with pytest.raises(core.CheckFailed, match="helpers.attention.softmax"):
        core.forbid(softmax, core.SOFTMAX_FUNCTIONS, name="f", why="")


def test_a_student_function_named_like_a_forbidden_one_is_allowed():
    def softmax(s):  # the student's own
        e = np.exp(s - s.max())
        return e / e.sum()

    def uses_own(s):
        return softmax(s)

    core.forbid(uses_own, core.SOFTMAX_FUNCTIONS, name="f", why="")


# ---------------------------------------------------------------- what a learner sees


def assert_only_hidden_checker_frames(tb):
    """Every frame of helpers/checks is hidden (`__tracebackhide__`, honoured by IPython)."""
    while tb is not None:
        if "helpers/checks" in tb.tb_frame.f_code.co_filename:
            assert tb.tb_frame.f_locals.get("__tracebackhide__"), tb.tb_frame.f_code.co_name
        tb = tb.tb_next


def test_a_failed_check_shows_only_its_message():
    @core.exercise
    def check_f(fn):
        reference = np.ones(3)  # the line a learner must not see
        core.compare(fn(), reference, name="f")

    with pytest.raises(core.CheckFailed) as error:
        check_f(lambda: np.zeros(3))
    shown = error.value._render_traceback_()
    assert "f: " in shown[0] and "reference = " not in "".join(shown)
    assert_only_hidden_checker_frames(error.value.__traceback__)


def test_a_stub_shows_one_line():
    @core.exercise
    def check_f(fn):
        fn()

    def stub():
        raise NotImplementedError("Not attempted yet")

    with pytest.raises(core.NotAttempted) as error:
        check_f(stub)
    assert len(error.value._render_traceback_()) == 1
    assert isinstance(error.value, NotImplementedError)


def test_the_students_own_error_keeps_their_frames_and_drops_the_checkers():
    @core.exercise
    def check_f(fn):
        fn(np.ones(3))

    def buggy(x):
        return x[7]

    with pytest.raises(IndexError) as error:
        check_f(buggy)
    frames = traceback.extract_tb(error.value.__traceback__)
    assert any(f.filename == __file__ and f.name == "buggy" for f in frames)
    assert_only_hidden_checker_frames(error.value.__traceback__)


def test_a_result_the_checker_cannot_use_is_a_message_not_a_crash(monkeypatch):
    monkeypatch.setattr(core, "_CHECKS_DIR", __file__)  # this check counts as the checker's
    monkeypatch.setattr(calls, "_HELPERS_DIR", __file__)

    @core.exercise
    def check_f(fn):
        np.asarray(fn()) + np.ones(3)  # broadcasting fails inside the checker

    with pytest.raises(core.CheckFailed, match="could not use your result"):
        check_f(lambda: np.ones(4))


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


def test_a_reshape_error_after_an_earlier_size_passed_is_named_a_hard_coded_size():
    @core.exercise
    def check_f(fn):
        core.compare(fn(np.ones(4)), np.ones((2, 2)), name="f (case 1)")
        core.compare(fn(np.ones(6)), np.ones((2, 3)), name="f (case 2)")

    with pytest.raises(core.CheckFailed, match="hard-coded") as error:
        check_f(lambda x: x.reshape(2, 2))
    assert error.value.diagnosis == "generic.hard-coded-size"
