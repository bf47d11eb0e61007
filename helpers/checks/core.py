"""The machinery every exercise check uses: compare with the reference, name the mistake.

A check calls the student's function on canonical inputs (through `call`, which also notices an
input changed in place), compares the result with the reference (`compare`) and, when it
differs, looks for what went wrong, in this order:

1. the mistakes the check anticipates (a wrong value the lesson names, such as the unmasked
   result where a mask was given);
2. the relations between a wrong result and the right one that real mistakes produce, whatever
   code produced them (`diagnose`): transposed, axes swapped, an axis missing or extra, a size
   that equals another named size, the right numbers in the wrong layout, a constant factor
   (named: √d_k, d_k, 2, ...), an offset, a sign, a shift or reversal along an axis, right in
   some rows or heads and wrong in others, right only to float32 precision, whole numbers,
   NaN or inf, and right on an earlier case of another size (a hard-coded size).

A failed check raises `CheckFailed`, whose display in IPython/JupyterLab (and so in nbval and the
grader) is its message alone: the check's own source, which holds the reference, never appears.
When the student's code raised, the traceback keeps the student's frames and drops the
checker's. An unattempted stub shows one line (`NotAttempted`).

Every check function is decorated with `@exercise`; every diagnosis has an id
("generic.transposed", ...) carried by the CheckFailed.
"""

from __future__ import annotations

import copy
import functools
import inspect
import itertools
import math
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import torch

from helpers.checks import source
from helpers.checks.calls import is_library, resolve, uses

_CHECKS_DIR = str(Path(__file__).resolve().parent)
_RED, _BOLD, _RESET = "\x1b[31m", "\x1b[1m", "\x1b[0m"
# The student's own errors that mean "a size is probably hard-coded" once a case of another size
# passed: a reshape to a fixed size, two sizes that no longer broadcast, multiply or concatenate,
# an index past the end of an axis (torch's and NumPy's words).
_RESHAPE_ERRORS = (
    "is invalid for input of size",  # torch reshape / view
    "cannot reshape array",  # NumPy reshape
    "must match the size of tensor",  # torch broadcasting
    "must match the existing size",  # torch expand
    "could not be broadcast",  # NumPy broadcasting
    "could not broadcast",  # NumPy assignment
    "shapes cannot be multiplied",  # torch matmul of 2-D tensors
    "mismatch in its core dimension",  # NumPy matmul
    "Sizes of tensors must match",  # torch.cat / stack
    "is out of bounds for",  # NumPy and torch indexing (IndexError)
)
_RESHAPE_ERROR_TYPES = (RuntimeError, ValueError, IndexError)


# ---------------------------------------------------------------- what a learner sees


class CheckFailed(AssertionError):
    """A wrong answer. `diagnosis` is a stable id for what went wrong."""

    def __init__(self, message: str, diagnosis: str = "unnamed"):
        super().__init__(message)
        self.diagnosis = diagnosis

    def _render_traceback_(self):  # IPython shows this instead of a traceback
        return [f"{_RED}{_BOLD}✘ {line}{_RESET}" if i == 0 else f"{_RED}  {line}{_RESET}"
                for i, line in enumerate(_wrap(str(self)))]


class NotAttempted(NotImplementedError):
    """The answer is still the stub."""

    def _render_traceback_(self):
        return [f"{_BOLD}{self}{_RESET}"]


# ---------------------------------------------------------------- the language a learner reads

LANGUAGES = ("en", "zh")
# How a stub's NotImplementedError begins, in each language (helpers.grade.exercises writes it).
STUB_PREFIXES = {"en": "Not attempted yet", "zh": "尚未作答"}
_language = "en"


def set_language(lang: str) -> None:
    """The language of the checks' feedback: "en", or "zh" (a translated exercise's setup cell
    sets it). In "zh" a failure starts with its diagnosis's Chinese label, above the English
    message."""
    global _language
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}; got {lang!r}")
    _language = lang


def language() -> str:
    return _language


def localised(message: str, diagnosis: str, lang: str | None = None) -> str:
    """The message a learner of `lang` (default: the checks' language) reads."""
    lang = lang or _language
    if lang == "en":
        return message
    from helpers.checks import diagnoses

    label = diagnoses.translated_label(diagnosis, lang)
    return message if label is None else f"诊断：{label}\n{message}"


def _wrap(text: str, width: int = 100) -> list[str]:
    lines = []
    for para in text.splitlines() or [""]:
        lines += textwrap.wrap(para, width) or [""]
    return lines


def single_threaded(check):
    """Run a check with torch on one thread: its tensors and models are tiny, and on a busy
    machine torch's thread pool makes each small op cost milliseconds. The setting is restored."""

    @functools.wraps(check)
    def run(*args, **kwargs):
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return check(*args, **kwargs)
        finally:
            torch.set_num_threads(threads)

    return run


def passed(what: str) -> None:
    """The one line a passing check prints."""
    print(f"✔ {what}")


def fail(message: str, diagnosis: str = "unnamed"):
    """Stop the check with a teaching message."""
    raise CheckFailed(message, diagnosis)


def require(condition, message: str, diagnosis: str = "unnamed") -> None:
    """A property the answer must have, checked in teaching order."""
    if not condition:
        fail(message, diagnosis)


class _State:
    """What one check call has seen so far: the cases that passed, by shape."""

    def __init__(self):
        self.passed: list[tuple[str, str, tuple]] = []  # (part, name, shape)
        self.passed_inputs: list[str | None] = []  # the inputs of each passed case, in words
        self.calling: str | None = None  # the inputs of the call under way (core.call)
        self.last_inputs: str | None = None  # the inputs of the last call that returned


_state: _State | None = None  # set while a decorated check runs


def exercise(check):
    """Decorate every check: a clean message on failure, never the checker's frames."""

    @functools.wraps(check)
    def run(*args, **kwargs):
        __tracebackhide__ = True  # noqa: F841 - read by IPython and pytest
        global _state
        outer, _state = _state, _State()
        try:
            return check(*args, **kwargs)
        except CheckFailed as error:
            raise CheckFailed(localised(str(error), error.diagnosis),
                              error.diagnosis).with_traceback(None) from None
        except AssertionError as error:  # an `assert` of the student's own code
            raise CheckFailed(localised(str(error), "generic.own-assert"),
                              "generic.own-assert").with_traceback(None) from None
        except NotImplementedError as error:
            raise _not_attempted(check.__name__, error).with_traceback(None) from None
        except Exception as error:
            student_tb = _student_frames(error.__traceback__)
            remote = getattr(error, "__grade_student__", False)  # raised in the kernel (grading)
            if student_tb is None and not remote:
                # the checker could not use the result (a wrong type, say): say so plainly
                raise CheckFailed(
                    f"{_exercise_name(check)}: the check could not use your result: "
                    f"{type(error).__name__}: {error}",
                    "generic.unusable-result",
                ).with_traceback(None) from None
            said = _hard_coded_size(_exercise_name(check), error)
            if said is not None:
                raise CheckFailed(said, "generic.hard-coded-size").with_traceback(None) from None
            raise error.with_traceback(student_tb) from None
        finally:
            _state = outer

    return run


def _hard_coded_size(exercise: str, error: Exception) -> str | None:
    """The message for the student's own shape error on a case of another size than one that
    passed (probably a size hard-coded from the first case), naming both cases' sizes; or None.

    The inputs are known when the function was called through `call`: a case whose inputs have
    the same sizes as every passed one is not "another size", and the error is left alone.
    """
    if (_state is None or not _state.passed or not isinstance(error, _RESHAPE_ERROR_TYPES)
            or not any(e in str(error) for e in _RESHAPE_ERRORS)):
        return None
    now = _state.calling
    earlier = [(entry[1], inputs) for entry, inputs in zip(_state.passed, _state.passed_inputs,
                                                           strict=True)
               if now is None or inputs is None or inputs != now]
    if not earlier:
        return None
    name, then = earlier[0]
    sizes = ""
    if now is not None and then is not None:
        sizes = f" The passed case had {then}; this one has {now}."
    return (f"{exercise}: your function raised {type(error).__name__} ({error}) after it was "
            f"right on an earlier case of another size ({name}): is a size hard-coded instead "
            f"of read from the inputs' shapes?{sizes}")


def _exercise_name(check) -> str:
    return check.__name__.removeprefix("check_")


def _not_attempted(check_name: str, error: NotImplementedError) -> NotAttempted:
    name = check_name.removeprefix("check_")
    said = str(error)
    if said.startswith(tuple(STUB_PREFIXES.values())):  # the stub's own words, with its hint
        return NotAttempted(said)
    if _language == "zh":
        return NotAttempted(f"{name}：尚未作答。把上面答案单元格里的 "
                            "`raise NotImplementedError(...)` 这一行换成你的代码，运行那个单元格，"
                            "再运行这一个。")
    return NotAttempted(
        f"{name}: not attempted yet. Replace the line `raise NotImplementedError(...)` in the "
        "answer cell above with your code, run that cell, then run this one again."
    )


def _student_frames(tb):
    """The traceback from the student's first frame on, without the checker's frames.

    None when no frame is the student's: the error came from the checker or a library.
    """
    frames = []
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        checker = filename.startswith(_CHECKS_DIR) or filename == __file__
        if not checker and (frames or not is_library(filename)):
            frames.append(tb)
        tb = tb.tb_next
    new = None
    for old in reversed(frames):
        new = types.TracebackType(new, old.tb_frame, old.tb_lasti, old.tb_lineno)
    return new


# ---------------------------------------------------------------- inputs the notebook has not seen

_grading_seed: int | None = None  # set by the grader (helpers.grade) before any check runs


def set_grading_seed(value: int | None) -> None:
    """Draw every check's random inputs from `value` (the grader's), or from the fixed seeds."""
    global _grading_seed
    _grading_seed = None if value is None else int(value)


def grading() -> bool:
    """Whether the checks run under the grader, with inputs the notebook has not seen."""
    return _grading_seed is not None


def seed(n: int) -> int:
    """The seed of a check's random input number n.

    In a learner's notebook it is n itself, so the visible cases are fixed and reproducible.
    When grading it is n mixed with the seed the grader drew at grading time, so an answer that
    hard-codes the outputs of the visible cases fails.
    """
    if _grading_seed is None:
        return n
    return int(np.random.SeedSequence([_grading_seed, n]).generate_state(1)[0])


def rng(n: int) -> np.random.Generator:
    """np.random.default_rng(seed(n))."""
    return np.random.default_rng(seed(n))


def torch_generator(n: int) -> torch.Generator:
    """torch.Generator().manual_seed(seed(n))."""
    return torch.Generator().manual_seed(seed(n))


# ---------------------------------------------------------------- calling the student


def call(fn, *args, name: str | None = None, returns: str | None = None,
         type_id: str = "generic.wrong-type", **kwargs):
    """fn(*args, **kwargs) on copies, failing when fn changed an input in place, or when its
    result is not of the kind the exercise asks for.

    returns: what the exercise text asks for, when its inputs do not say it: "numpy" (an
    array, not a tensor), "numpy bool" (the same, for a mask), "torch" (a tensor), "bool"
    (True or False), "any" (the exercise lets the student choose, as lesson 10's do: no rule
    on the kind). type_id: the diagnosis of
    a wrong kind, when the exercise has one of its own.
    Without it, the calling check module's RESULTS decides: "numpy" when its exercise text
    says "Use NumPy" (arrays, not tensors or lists), "torch" when it says tensors; a module
    without RESULTS lets the student choose.

    Returns fn's result. The student's arguments are deep copies, so a check's reference
    inputs stay pristine whatever the student's code does to them.
    """
    if not callable(fn):
        fail(f"{name or 'check'}: pass your function itself, e.g. check(f), not f(...)",
             "generic.not-a-function")
    name = name or getattr(fn, "__name__", "your function")
    given = [_copy(a) for a in args]
    given_kw = {k: _copy(v) for k, v in kwargs.items()}
    inputs = None
    if _state is not None:  # for the hard-coded-size diagnosis of an error this call raises
        inputs = _describe_inputs(_arguments(fn, args, given, kwargs, given_kw))
        _state.calling = inputs
    result = fn(*given, **given_kw)
    if _state is not None:
        _state.calling, _state.last_inputs = None, inputs
    library = sys._getframe(1).f_globals.get("RESULTS")  # the calling check module's rule
    problem = (_not_kind(result, returns) if returns is not None
               else _kind_changed(library, result))
    if problem is not None:
        fail(f"{name}: {problem}", type_id)
    for label, before, after in _arguments(fn, args, given, kwargs, given_kw):
        if not _unchanged(before, after):
            fail(
                f"{name}: your function changed its argument `{label}` in place (an in-place "
                "operation such as `x -= ...`, `x[...] = ...` or `.add_()` on the input). The "
                "caller's array must come back untouched: work on a copy or build a new array.",
                "generic.input-modified",
            )
    return result


def follows_its_rng(fn, make_args, *, name: str):
    """Fail when fn draws from the global RNG instead of the generator it is given.

    make_args(rng) -> the argument tuple, rng a fresh np.random.Generator (or whatever the
    exercise passes). fn runs twice with the same seed and a different global RNG state each
    time; the results must agree. Returns the first result.
    """
    np_state, torch_state = np.random.get_state(), torch.random.get_rng_state()
    try:
        results = []
        for global_seed in (1, 2):
            np.random.seed(global_seed)
            torch.manual_seed(global_seed)
            results.append(as_array(fn(*make_args()), name))
    finally:
        np.random.set_state(np_state)
        torch.random.set_rng_state(torch_state)
    if not _close(results[0], results[1], 0.0, 0.0):
        fail(f"{name}: two calls with the same generator gave different results: your function "
             "draws from the global random state (np.random.normal, torch.randn, ...) instead "
             "of the generator it is given. Draw every random number from that argument.",
             "generic.global-rng")
    return results[0]


def _kind_changed(library: str | None, result) -> str | None:
    """What is wrong with result's kind when the exercise text fixes the library ("numpy" or
    "torch"), or None. A scalar is left to the check (`returns`)."""
    if library is None:
        return None
    parts = result if isinstance(result, tuple) else (result,)
    if isinstance(result, list) and len(result) in (2, 3) and all(
            isinstance(p, (np.ndarray, torch.Tensor)) for p in result):
        parts = tuple(result)  # (out, weights) returned as a list: it unpacks the same
    for part in parts:
        if getattr(part, "ndim", 1) == 0:
            continue
        if isinstance(part, list):
            wanted = "a NumPy array" if library == "numpy" else "a torch tensor"
            return (f"you returned a list; the exercise asks for {wanted} "
                    f"({'np.array' if library == 'numpy' else 'torch.stack'} builds one).")
        if library == "numpy" and isinstance(part, torch.Tensor):
            return ("you returned a torch tensor; the exercise says to use NumPy and return a "
                    "NumPy array. Compute it with NumPy (or convert with .numpy()).")
        if library == "torch" and isinstance(part, np.ndarray):
            return ("your function returned a NumPy array: return a torch tensor, as the "
                    "exercise asks. Compute it with torch (or convert with torch.as_tensor).")
    return None


def _not_kind(result, returns: str) -> str | None:
    """What is wrong with result's kind, when the exercise asks for `returns` (see call)."""
    kind = (f"a torch tensor (dtype {str(result.dtype).removeprefix('torch.')})"
            if isinstance(result, torch.Tensor) else
            f"a NumPy array (dtype {result.dtype})" if isinstance(result, np.ndarray) else
            f"a {type(result).__name__}")
    if returns in ("numpy", "numpy bool") and isinstance(result, torch.Tensor):
        wanted = "a NumPy boolean array" if returns == "numpy bool" else "a NumPy array"
        return (f"the exercise asks for {wanted}; yours is {kind}. Build it with NumPy (or "
                "convert with .numpy()).")
    if returns == "torch" and not isinstance(result, torch.Tensor):
        return f"the exercise asks for a torch tensor; yours is {kind}."
    if returns == "bool" and not isinstance(result, (bool, np.bool_)):
        return f"return True or False (a Python bool), as the exercise asks; yours is {kind}."
    return None


def _describe_inputs(arguments) -> str | None:
    """The sizes of a call's inputs in words: "q of shape (2, 4, 5, 8), T_k = 5", or None."""
    parts = []
    for label, value, _ in arguments:
        if isinstance(value, (torch.Tensor, np.ndarray)):
            parts.append(f"{label} of shape {tuple(value.shape)}")
        elif isinstance(value, int) and not isinstance(value, bool):
            parts.append(f"{label} = {value}")
    return ", ".join(parts) or None


def _copy(value):
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (list, tuple, dict)):
        return copy.deepcopy(value)
    return value


def _arguments(fn, args, given, kwargs, given_kw):
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        params = []
    for i, (before, after) in enumerate(zip(args, given, strict=True)):
        yield (params[i] if i < len(params) else f"#{i + 1}"), before, after
    for key in kwargs:
        yield key, kwargs[key], given_kw[key]


def _unchanged(before, after) -> bool:
    if isinstance(before, torch.Tensor) and isinstance(after, torch.Tensor):
        return before.shape == after.shape and bool(torch.equal(before, after))
    if isinstance(before, np.ndarray) and isinstance(after, np.ndarray):
        return before.shape == after.shape and np.array_equal(before, after, equal_nan=True)
    return True


# ---------------------------------------------------------------- rules: what may not be called


ATTENTION_FUNCTIONS = (
    "helpers.attention.attention",
    "helpers.streaming.naive_attention",
    "helpers.streaming.attention_step",
    "torch.nn.functional.scaled_dot_product_attention",
    "torch.nn.functional.multi_head_attention_forward",
)
SOFTMAX_FUNCTIONS = (
    "helpers.attention.softmax",
    "torch.softmax",
    "torch.nn.functional.softmax",
    "torch.nn.functional.log_softmax",
    "scipy.special.softmax",
)


def forbid(fn, forbidden, *, name: str, why: str) -> None:
    """Fail when fn (or a function of the student's it calls) uses a forbidden callable.

    forbidden: dotted names such as "helpers.attention.softmax" or "torch.softmax". A use is
    found by the attribute or global name in the code (`F.softmax`, `x.softmax(-1)`), by the
    object a global name refers to (`from helpers.attention import softmax as sm`), and by the
    imports in the function's source. A grader's stand-in for fn (with `__grade_cells__`, the
    student's cells) is judged from that source (helpers.checks.source), with the same words.
    """
    if not callable(fn):
        return
    cells = getattr(fn, "__grade_cells__", None)
    if cells is not None:
        found = sorted(source.forbidden_uses(cells, fn.__name__, forbidden))
        if found:
            fail(f"{name}: your function calls {', '.join(found)}. {why}", "rule.forbidden-call")
        return
    targets = {}
    for dotted in forbidden:
        targets[dotted] = resolve(dotted)
    short = {d.rsplit(".", 1)[-1] for d in forbidden}
    found = sorted(d for d, t in targets.items() if t is not None and fn is t)  # f = library
    found = found or sorted(uses(fn, short, targets))
    if found:
        fail(f"{name}: your function calls {', '.join(found)}. {why}", "rule.forbidden-call")


# ---------------------------------------------------------------- comparing results


def as_array(value, name: str) -> np.ndarray:
    """The student's result as a float NumPy array, or a clear CheckFailed."""
    if value is None:
        fail(f"{name}: your function returned None. Did you forget `return`?", "generic.none")
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        fail(f"{name}: expected an array of numbers, got {type(value).__name__}",
             "generic.not-an-array")


def _close(a: np.ndarray, b: np.ndarray, atol: float, rtol: float) -> bool:
    if a.shape != b.shape:
        return False
    with np.errstate(invalid="ignore", over="ignore"):
        return bool(np.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True))


def _mistake_parts(mistake):
    if len(mistake) == 3:
        return mistake
    message, wrong = mistake
    return "named", message, wrong


def compare(student, expected, *, name: str, mistakes=(), atol=1e-6, rtol=1e-5,
            axes=None, sizes=None, factors=None) -> None:
    """Raise CheckFailed unless `student` matches `expected`, naming what went wrong.

    mistakes: (message, wrong_value) or (id, message, wrong_value): anticipated wrong results.
    axes:     the name of each axis of the expected result, e.g. ("T_q", "d_v").
    sizes:    the exercise's named sizes, e.g. {"T_q": 3, "T_k": 5, "d_k": 4, "d_v": 6}.
    factors:  named constants a wrong scale might be, e.g. {"√d_k": 2.0, "d_k": 4}.
    """
    got = as_array(student, name)
    want = as_array(expected, "reference")
    if _close(got, want, atol, rtol):
        if _state is not None:
            _state.passed.append((_part(name), name, want.shape))
            _state.passed_inputs.append(_state.last_inputs)
        return
    for mistake in mistakes:
        diagnosis, message, wrong = _mistake_parts(mistake)
        if wrong is None:  # a mistake that cannot happen in this case
            continue
        if _close(got, as_array(wrong, "mistake"), atol, rtol):
            fail(f"{name}: {message}", diagnosis)
    found = diagnose(got, want, atol=atol, rtol=rtol, axes=axes, sizes=sizes, factors=factors)
    earlier = _earlier_case_note(name, want.shape)
    if found is not None:
        diagnosis, message = found
        fail(f"{name}: {message}{earlier}", diagnosis)
    if earlier:
        fail(f"{name}: wrong values.{earlier}", "generic.hard-coded-size")
    fail(f"{name}: {_largest_difference(got, want)}", "generic.wrong-values")


def _part(name: str) -> str:
    """What a comparison is of, without its case: "f: out (case 2: ...)" -> "f: out"."""
    return name.split(" (")[0]


def matches(got, wrong, atol=1e-6, rtol=1e-5) -> bool:
    """got equals the value `wrong` (same shape, close, NaN where it has NaN)."""
    return _close(as_array(got, "yours"), as_array(wrong, "mistake"), atol, rtol)


def named_mistake(got, right, mistakes, name: str, atol=1e-6, rtol=1e-5) -> None:
    """Fail with the first anticipated (id, message, wrong) that `got` equals, unless it is
    right. Run before the property checks, so a mistake the lesson names keeps its message;
    a mistake whose value is None (it cannot happen in this case) is skipped."""
    if matches(got, right, atol, rtol):
        return
    for diagnosis, message, wrong in mistakes:
        if wrong is not None and matches(got, wrong, atol, rtol):
            fail(f"{name}: {message}", diagnosis)


def require_shape(got, want, **compare_options) -> None:
    """Compare only when the shape is wrong: compare then names the shape mistake."""
    if np.shape(got) != np.shape(want):
        compare(got, want, **compare_options)


def judge(got, want, *, name: str, mistakes=(), properties=(), **generic) -> None:
    """Pass, or fail naming the mistake: anticipated ones, then properties, then `diagnose`.

    mistakes:   (id, message, wrong value), tried first, since they name the exact cause.
    properties: functions of the student's array that call require/fail, in teaching order.
    generic:    axes=, sizes=, factors= ... for compare.
    """
    got = as_array(got, name)
    want_arr = as_array(want, "reference")
    if not matches(got, want_arr):
        for diagnosis, message, wrong in mistakes:
            if matches(got, wrong):
                fail(f"{name}: {message}", diagnosis)
        for prop in properties:
            prop(got)
    compare(got, want_arr, name=name, **generic)


def _earlier_case_note(name: str, shape) -> str:
    """A note when the same part was right on an earlier case of another shape."""
    passed = _state.passed if _state else ()
    other = [(n, s) for part, n, s in passed if part == _part(name) and s != shape]
    if not other:
        return ""
    n, s = other[0]
    return (f" Your function was right on an earlier case of another size ({n}: shape {s}) and "
            f"is wrong on this one (shape {shape}): is a size or an index hard-coded from the "
            "first example instead of read from the inputs' shapes?")


def _largest_difference(got, want) -> str:
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(got - want))
    diff = np.where(np.isnan(diff), np.inf, diff)
    idx = tuple(int(i) for i in np.unravel_index(np.argmax(diff), diff.shape))
    return f"wrong values. {_where_largest(got, want, idx)}"


def _where_largest(got, want, idx=None) -> str:
    if idx is None:
        with np.errstate(invalid="ignore"):
            diff = np.nan_to_num(np.abs(got - want), nan=np.inf)
        idx = tuple(int(i) for i in np.unravel_index(np.argmax(diff), diff.shape))
    return (f"At index {idx} the reference is {want[idx]:.4g} and yours is {got[idx]:.4g} "
            "(largest of the differences).")


# ---------------------------------------------------------------- generic diagnosis


def _axis_names(want_shape, axes) -> list[str]:
    if axes is not None and len(axes) == len(want_shape):
        return list(axes)
    return [f"axis {i}" for i in range(len(want_shape))]


def _named(names) -> bool:
    return not all(n.startswith("axis ") for n in names)


def diagnose(got, want, *, atol=1e-6, rtol=1e-5, axes=None, sizes=None, factors=None):
    """(id, message) for the relation between a wrong result and the right one, or None."""
    names = _axis_names(want.shape, axes)
    same = functools.partial(_close, atol=atol, rtol=rtol)
    if got.shape != want.shape:
        return _diagnose_shape(got, want, names, sizes or {}, same)
    for step in (_non_finite, _factor, _offset, _rows_rescaled, _precision, _moved, _layout,
                 _partly_right, _whole_numbers):
        found = step(got, want, names, same, factors or {})
        if found is not None:
            return found
    return None


def _diagnose_shape(got, want, names, sizes, same):
    gs, ws = got.shape, want.shape
    shown = f" = ({', '.join(names)})" if _named(names) else ""
    expected = f"expected shape {ws}{shown}, got shape {gs}"
    if got.ndim == want.ndim and sorted(gs) == sorted(ws) and got.ndim <= 5:
        for perm in itertools.permutations(range(want.ndim)):
            if perm == tuple(range(want.ndim)):
                continue
            if tuple(ws[p] for p in perm) == gs and same(got, want.transpose(perm)):
                order = ", ".join(names[p] for p in perm)
                if want.ndim == 2:
                    return ("generic.transposed",
                            f"{expected}: your result is the right one transposed. Its rows are "
                            f"the {names[1]} axis and its columns the {names[0]} axis; "
                            f"the expected order is ({', '.join(names)}).")
                return ("generic.axes-swapped",
                        f"{expected}: the right numbers with the axes in the wrong order. Your "
                        f"axes are ({order}); the expected order is ({', '.join(names)}). "
                        "Transpose/permute them.")
    if got.ndim == want.ndim - 1:
        for ax in range(want.ndim):
            if ws[:ax] + ws[ax + 1:] != gs:
                continue
            for how, reduced in (("summed over", want.sum(ax)), ("averaged over", want.mean(ax)),
                                 ("kept only the first entry of", want.take(0, ax)),
                                 ("kept only the last entry of", want.take(-1, ax))):
                if same(got, reduced):
                    return ("generic.axis-reduced",
                            f"{expected}: the {names[ax]} axis is missing: your result equals "
                            f"the right one {how} {names[ax]}. Keep that axis.")
            return ("generic.axis-missing",
                    f"{expected}: your result has no {names[ax]} axis (size {ws[ax]}).")
    if got.ndim == want.ndim + 1:
        for ax in range(got.ndim):
            if gs[ax] == 1 and gs[:ax] + gs[ax + 1:] == ws:
                note = (" Your values are right once it is removed."
                        if same(got.reshape(ws), want) else "")
                return ("generic.axis-extra",
                        f"{expected}: your result has an extra axis of size 1 at position {ax} "
                        f"(a keepdims=True, a [None] or an unsqueeze too many).{note}")
        return ("generic.axis-extra",
                f"{expected}: your result has one axis too many. A broadcast between a (n,) "
                "and a (n, 1) array, or a missing sum, makes an extra axis.")
    if got.size == want.size and got.ndim >= 1:
        if same(got.reshape(ws), want):
            return ("generic.wrong-shape-same-values",
                    f"{expected}: your numbers are right, in the right order, but reshaped. "
                    f"Return an array of shape {ws}.")
    if got.ndim == want.ndim:
        parts = []
        for ax, (g, w) in enumerate(zip(gs, ws, strict=True)):
            if g == w:
                continue
            alias = [k for k, v in sizes.items() if v == g and k != names[ax]]
            if alias:
                parts.append(f"your {names[ax]} axis (axis {ax}) has size {g}, which is "
                             f"{' or '.join(alias)}; it should be {names[ax]} = {w}")
            else:
                parts.append(f"axis {ax} ({names[ax]}) has size {g} instead of {w}")
        if parts:
            return "generic.wrong-size", f"{expected}: " + "; ".join(parts) + "."
    return "generic.wrong-shape", expected + "."


def _non_finite(got, want, names, same, factors):
    for bad, what, diagnosis in ((np.isnan(got) & ~np.isnan(want), "NaN", "generic.nan"),
                                 (np.isinf(got) & ~np.isinf(want), "inf", "generic.inf")):
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            share = f"{int(bad.sum())} of {bad.size} values"
            why = ("exp of a large score overflows to inf, inf / inf is NaN, and a row whose "
                   "every score is -inf gives 0 / 0 = NaN" if what == "NaN" else
                   "exp of a large number overflows, or a division by zero")
            return (diagnosis,
                    f"your result contains {what} ({share}, the first at index {where}) where "
                    f"the reference has none: {why}.")
    return None


def _factor_names(c: float, factors: dict) -> str | None:
    candidates = dict(factors)
    candidates.setdefault("2", 2.0)
    for label, value in candidates.items():
        for shown, v in ((f"× {label}", value), (f"÷ {label}", 1 / value if value else None),
                         (f"× {label}²", value * value), (f"÷ {label}²",
                                                          1 / (value * value) if value else None)):
            if v is not None and math.isclose(c, v, rel_tol=1e-4):
                return shown
    return None


def _factor(got, want, names, same, factors):
    w = want[np.isfinite(want)]
    g = got[np.isfinite(want)]
    if w.size == 0 or not np.isfinite(g).all():
        return None
    denom = float(w @ w)
    if denom == 0:
        return None
    c = float(g @ w) / denom
    if math.isclose(c, 1.0, rel_tol=1e-6) or not same(got, c * want):
        return None
    if math.isclose(c, -1.0, rel_tol=1e-4):
        return ("generic.sign", "your result is the right one with the sign flipped (every value "
                                "is −1 × the reference): a minus sign too many or too few.")
    label = _factor_names(c, factors)
    if label is not None:
        return ("generic.constant-factor",
                f"every value is the reference {label} (a factor of {c:.4g}): the scale is "
                "wrong, applied twice, inverted, or missing.")
    return ("generic.constant-factor",
            f"every value is {c:.4g} × the reference: a constant factor is wrong.")


def _offset(got, want, names, same, factors):
    finite = np.isfinite(want) & np.isfinite(got)
    if not finite.any():
        return None
    with np.errstate(invalid="ignore", over="ignore"):
        d = float(np.mean((got - want)[finite]))
    if abs(d) > 1e-9 and same(got, want + d):
        return ("generic.constant-offset",
                f"every value is the reference plus {d:.4g}: a constant is added or subtracted "
                "where it should not be.")
    return None


def _rows_rescaled(got, want, names, same, factors):
    if want.ndim < 1 or want.shape[-1] < 2:
        return None
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = got / want
    if not np.isfinite(ratio).all():
        return None
    row = ratio[..., :1]
    if np.allclose(ratio, row, rtol=1e-6, atol=1e-9) and not np.allclose(row, row.flat[0]):
        sums = got.sum(axis=-1)
        note = ""
        if np.allclose(want.sum(axis=-1), 1.0) and not np.allclose(sums, 1.0):
            note = (f" Each row of yours sums to something other than 1 (row 0 sums to "
                    f"{float(sums.flat[0]):.4g}): normalise each row by its own sum.")
        return ("generic.rows-rescaled",
                f"each {names[-2] if want.ndim >= 2 else 'row'} is the reference times a factor "
                f"of its own: the right shape of values, wrongly normalised.{note}")
    return None


def _layout(got, want, names, same, factors):
    """The right numbers in the wrong memory layout: a reshape where a transpose was needed."""
    if want.ndim < 2 or want.ndim > 5:
        return None
    flat = np.sort(got.ravel())
    if not np.allclose(flat, np.sort(want.ravel()), atol=1e-6, rtol=1e-5, equal_nan=True):
        return None
    for perm in itertools.permutations(range(want.ndim)):
        if perm == tuple(range(want.ndim)):
            continue
        if np.allclose(got.ravel(), want.transpose(perm).ravel(), atol=1e-6, rtol=1e-5):
            order = ", ".join(names[p] for p in perm)
            return ("generic.reshape-not-transpose",
                    "your result holds the right numbers laid out in another order: read in "
                    f"memory order they are the right result with its axes as ({order}). A "
                    "reshape or view regroups numbers in memory order; moving an axis needs a "
                    "transpose (or permute) first.")
    return ("generic.same-numbers-other-places",
            "your result holds exactly the right numbers, but in the wrong places.")


def _moved(got, want, names, same, factors):
    """Right slices along one axis, shifted, reversed or permuted."""
    for ax in range(want.ndim):
        n = want.shape[ax]
        if n < 2:
            continue
        if same(got, np.flip(want, ax)):
            return ("generic.reversed",
                    f"your result is the right one reversed along {names[ax]}: entry i holds "
                    f"what belongs at {n - 1} - i.")
        for s in (1, -1):
            rolled = np.roll(want, s, ax)
            sl = [slice(None)] * want.ndim
            sl[ax] = slice(1, None) if s == 1 else slice(None, -1)
            if same(got[tuple(sl)], rolled[tuple(sl)]):
                where = "later" if s == 1 else "earlier"
                return ("generic.shifted",
                        f"your result is shifted by one along {names[ax]}: entry i holds what "
                        f"belongs at i {'-' if s == 1 else '+'} 1 (one position {where} than "
                        "it should be): an off-by-one in an index or a slice.")
        slices_w = [want.take(i, ax) for i in range(n)]
        slices_g = [got.take(i, ax) for i in range(n)]
        match = []
        for g in slices_g:
            hits = [j for j, w in enumerate(slices_w) if same(g, w)]
            if not hits:
                break
            match.append(hits[0])
        else:
            if match != list(range(n)):
                return ("generic.permuted",
                        f"each slice along {names[ax]} is a right one, but in the wrong place: "
                        f"your entries 0..{n - 1} are the reference's {match}.")
    return None


def _ranges(idx) -> str:
    idx = list(idx)
    out, start = [], None
    for i, v in enumerate(idx):
        if start is None:
            start = v
        if i + 1 == len(idx) or idx[i + 1] != v + 1:
            out.append(f"{start}" if start == v else f"{start}–{v}")
            start = None
    return ", ".join(out)


def _partly_right(got, want, names, same, factors):
    best = None
    for ax in range(want.ndim if want.ndim >= 2 else 0):
        n = want.shape[ax]
        if n < 3:
            continue
        ok = [same(got.take(i, ax), want.take(i, ax)) for i in range(n)]
        good = [i for i in range(n) if ok[i]]
        bad = [i for i in range(n) if not ok[i]]
        if good and bad and (best is None or len(bad) < len(best[2])):
            best = (ax, good, bad)
    if want.ndim >= 2 and want.shape[-1] == want.shape[-2] and want.shape[-1] > 1:
        t = want.shape[-1]
        lower = np.tril(np.ones((t, t), bool))
        diag = np.eye(t, dtype=bool)
        for region, label in ((lower, "on and below the diagonal"),
                              (~lower | diag, "on and above the diagonal"),
                              (~lower, "above the diagonal"),
                              (lower & ~diag, "below the diagonal"), (diag, "on the diagonal")):
            inside = np.broadcast_to(region, want.shape)
            if _close(got[inside], want[inside], 1e-6, 1e-5) and not _close(
                    got[~inside], want[~inside], 1e-6, 1e-5):
                return ("generic.right-in-triangle",
                        f"your entries {label} are right and the others are wrong: the two "
                        f"last axes ({names[-2]}, {names[-1]}) are right only in part, which "
                        "points at a mask or a loop bound.")
    if best is None:
        return None
    ax, good, bad = best
    n = want.shape[ax]
    note = ""
    if bad == [n - 1]:
        note = f" Only the last {names[ax]} is wrong: a loop or slice that stops one short?"
    elif bad == [0]:
        note = f" Only the first {names[ax]} is wrong: a loop or slice that starts at 1?"
    return ("generic.partly-right",
            f"along {names[ax]}, {_ranges(good)} {'is' if len(good) == 1 else 'are'} right and "
            f"{_ranges(bad)} {'is' if len(bad) == 1 else 'are'} wrong.{note} "
            + _where_largest(got, want))


def _precision(got, want, names, same, factors):
    if np.allclose(got, want, rtol=2e-3, atol=1e-4, equal_nan=True):
        return ("generic.precision",
                "your values are right to about 3 digits but not 6: computed in float16 or "
                "float32, or rounded somewhere? Use float64 throughout.")
    return None


def _whole_numbers(got, want, names, same, factors):
    finite = np.isfinite(got)
    if (finite.all() and np.array_equal(got, np.round(got))
            and not np.array_equal(want, np.round(want))):
        return ("generic.whole-numbers",
                "your values are all whole numbers where the reference has fractions: integer "
                "arithmetic (an int array, `//`, `int(...)` or `.astype(int)`) lost the "
                "fractional part.")
    return None


# ---------------------------------------------------------------- tuples and errors


def unpack(result, parts: tuple[str, ...], *, name: str):
    """The student's tuple as a tuple of len(parts), or a CheckFailed saying what to return."""
    if not isinstance(result, (tuple, list)) or len(result) != len(parts):  # a list unpacks too
        got = type(result).__name__
        if isinstance(result, (tuple, list)):
            got += f" of length {len(result)}"
        fail(f"{name}: return a tuple ({', '.join(parts)}) as the exercise says; got {got}.",
             "generic.not-a-tuple")
    return tuple(result)


def compare_tuple(result, expected: tuple, parts: tuple[str, ...], *, name: str, **options):
    """Compare a returned tuple part by part; name a swapped order."""
    got = unpack(result, parts, name=name)
    g = [as_array(x, f"{name}: {p}") for x, p in zip(got, parts, strict=True)]
    w = [as_array(e, "reference") for e in expected]
    right = all(_close(g[i], w[i], 1e-6, 1e-5) for i in range(len(parts)))
    for perm in itertools.permutations(range(len(parts))):
        if not right and perm != tuple(range(len(parts))) and all(
                _close(g[i], w[j], 1e-6, 1e-5) for i, j in enumerate(perm)):
            fail(f"{name}: you returned ({', '.join(parts[j] for j in perm)}); the exercise "
                 f"asks for ({', '.join(parts)}), in that order.", "generic.tuple-order")
    per_part = options.pop("per_part", {})
    for g, e, p in zip(got, expected, parts, strict=True):
        compare(g, e, name=f"{name}: {p}", **{**options, **per_part.get(p, {})})


def expect_error(fn, *args, error=ValueError, name: str, hint: str = "") -> None:
    """Assert that fn(*args) raises `error`; the student's code should reject bad input."""
    try:
        fn(*args)
    except error:
        return
    except NotImplementedError:
        raise
    except Exception as e:  # a different exception teaches something too
        fail(f"{name}: expected {error.__name__}, but your code raised {type(e).__name__}: {e}. "
             f"{hint}", "generic.wrong-exception")
    fail(f"{name}: expected {error.__name__}, but nothing was raised. {hint}",
         "generic.no-exception")
