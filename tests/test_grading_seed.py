"""The checks draw their inputs from the grader's seed, so a hard-coded answer fails grading.

When the grader calls core.set_grading_seed(S), every random input a check feeds the student's
function is drawn afresh (core.rng, core.torch_generator, core.seed), and the exercises whose
visible cases are only sizes get extra cases of drawn sizes. Here:
- under two fixed grading seeds every solution passes every check;
- for every exercise, a hard-coded answer (a table of what the solution returned on the visible
  inputs, looked up by a digest of the arguments; the first entry when none matches) passes
  without a grading seed and fails under one. The digest reads arrays' bytes, numbers, a
  generator's state (measure_dot_variance is given an rng, my_repeated_span_batch a torch
  generator), a module's weights and a function's name; the answer also calls a function
  argument as the solution did (feed_forward's activation, which the check watches). Exempt:
  the exercises in EXEMPT;
- without a grading seed core.seed(n) is n, so the notebook's cases stay reproducible.
The solution notebooks' cells run in-process, as in tests/test_mistakes.py.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import re
import sys
import types

import numpy as np
import pytest
import torch

from helpers.checks import core

from notebook_files import EXERCISE_CELL, SOLUTIONS, read, run_until_check

GRADING_SEEDS = (2024, 918_273_645)

# The exercises whose visible checks hand the student's function a callable that the check
# builds for each call (a layer, a split, a model): a digest of the arguments cannot tell those
# calls apart, so a lookup table is not an answer there (it fails without a grading seed too).
EXEMPT = {
    ("04_masks", "ex4"): "reads_future(attend, x): attend is one of ten layers built per call",
    ("05_multi_head", "ex6"): "mixes_tokens(split): split is one of nine split functions",
    ("06_position", "ex1"): "is_permutation_equivariant(attend, x): attend is one of twelve "
                            "layers built per call",
    ("08_architectures", "ex4"): "leaks(model_fn, ids): model_fn is one of eight models",
}


def _exercises():
    """(lesson, exercise, the solution's answer cell, the names its check cell passes)."""
    found = []
    for path in SOLUTIONS:
        cells = {c.id: c.source for c in read(path).cells if c.cell_type == "code"}
        for cid, source in cells.items():
            if EXERCISE_CELL.match(cid) and cid.endswith("-check"):
                exercise = cid[: -len("-check")]
                passed = re.search(r"check_\w+\(([\w, ]+)\)", source).group(1)
                names = tuple(n.strip() for n in passed.split(","))  # lesson 10 ex7: two
                found.append((path.stem, exercise, cells[f"{exercise}-answer"], names))
    return found


EXERCISES = _exercises()
IDS = [f"{lesson}-{exercise}" for lesson, exercise, _, _ in EXERCISES]


@pytest.fixture
def grading_seed():
    """core.set_grading_seed for the test, always reset to None afterwards."""
    try:
        yield core.set_grading_seed
    finally:
        core.set_grading_seed(None)


def test_without_a_grading_seed_the_seeds_are_the_notebooks():
    core.set_grading_seed(None)
    assert not core.grading()
    assert [core.seed(n) for n in (0, 1, 7, 100, 2**31)] == [0, 1, 7, 100, 2**31]
    assert np.array_equal(core.rng(7).normal(size=5), np.random.default_rng(7).normal(size=5))
    assert torch.equal(torch.randn(5, generator=core.torch_generator(10)),
                       torch.randn(5, generator=torch.Generator().manual_seed(10)))


def test_a_grading_seed_changes_every_seed(grading_seed):
    grading_seed(GRADING_SEEDS[0])
    assert core.grading()
    drawn = [core.seed(n) for n in range(50)]
    assert all(s != n for n, s in enumerate(drawn)) and len(set(drawn)) == 50
    assert drawn == [core.seed(n) for n in range(50)]  # the same seed draws the same inputs
    grading_seed(GRADING_SEEDS[1])
    assert [core.seed(n) for n in range(50)] != drawn


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("seed", GRADING_SEEDS)
def test_every_solution_passes_under_a_grading_seed(seed, grading_seed):
    grading_seed(seed)
    failed = {}
    for lesson, exercise, answer, _ in EXERCISES:
        error = run_until_check(lesson, exercise, answer)
        if error is not None:
            failed[f"{lesson} {exercise}"] = f"{type(error).__name__}: {error}"
    assert not failed, f"solutions failing under grading seed {seed}: {failed}"


# ---------------------------------------------------------------- a hard-coded answer


def _digest(args, kwargs) -> str:
    """A digest of the arguments' values (array bytes, numbers, names of functions)."""
    h = hashlib.sha256()
    _feed(h, (args, sorted(kwargs.items())))
    return h.hexdigest()


def _feed(h, value) -> None:
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu()
        h.update(f"tensor {value.dtype} {tuple(value.shape)}".encode())
        h.update(value.contiguous().numpy().tobytes())
    elif isinstance(value, np.ndarray):
        h.update(f"array {value.dtype} {value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, np.random.Generator):
        h.update(repr(value.bit_generator.state).encode())
    elif isinstance(value, torch.Generator):
        h.update(value.get_state().numpy().tobytes())
    elif isinstance(value, torch.nn.Module):
        _feed(h, list(value.state_dict().items()))
    elif isinstance(value, dict):
        _feed(h, sorted(value.items()))
    elif isinstance(value, (list, tuple)):
        h.update(f"{type(value).__name__} {len(value)}".encode())
        for item in value:
            _feed(h, item)
    elif isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
        h.update(f"function {value.__module__}.{value.__qualname__}".encode())
    else:
        h.update(repr(value).encode())


def _snapshot(value):
    """A copy of value that later changes cannot reach (tensors detached from any graph)."""
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (list, tuple)):
        return type(value)(_snapshot(v) for v in value)
    if isinstance(value, dict):
        return {k: _snapshot(v) for k, v in value.items()}
    return copy.deepcopy(value)


def _is_function(value) -> bool:
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType))


def _spied(args, kwargs, calls: list):
    """The arguments with every function among them replaced by one that logs its inputs."""

    def spy(where, fn):
        @functools.wraps(fn)
        def logged(*a, **k):
            calls.append((where, _snapshot(a), _snapshot(k)))
            return fn(*a, **k)
        return logged

    args = tuple(spy(i, a) if _is_function(a) else a for i, a in enumerate(args))
    kwargs = {key: spy(key, a) if _is_function(a) else a for key, a in kwargs.items()}
    return args, kwargs


def _record(table: dict, fn, args, kwargs):
    """Call fn, keeping what it returned (or raised) and what it passed its function args."""
    key, calls = _digest(args, kwargs), []
    spied_args, spied_kwargs = _spied(args, kwargs, calls)
    try:
        result = fn(*spied_args, **spied_kwargs)
    except Exception as error:
        table.setdefault(key, ("raise", type(error), str(error), calls))
        raise
    table.setdefault(key, ("return", _snapshot(result), None, calls))
    return result


def _lookup(table: dict, args, kwargs):
    """The recorded result for these arguments, or the first one recorded."""
    how, value, message, calls = table.get(_digest(args, kwargs), next(iter(table.values())))
    for where, a, k in calls:  # call the function arguments as the solution did
        (args[where] if isinstance(where, int) else kwargs[where])(*_snapshot(a),
                                                                    **_snapshot(k))
    if how == "raise":
        raise (value if issubclass(value, Exception) else ValueError)(message)
    return _snapshot(value)


def recording(table: dict, fn):
    @functools.wraps(fn)
    def record_calls(*args, **kwargs):
        return _record(table, fn, args, kwargs)
    return record_calls


def hard_coded(table: dict, name: str):
    def answer(*args, **kwargs):
        return _lookup(table, args, kwargs)
    answer.__name__ = answer.__qualname__ = name
    return answer


def _with(code: str, names: tuple[str, ...], make: str) -> str:
    """Answer-cell code that rebinds each of `names` with this module's `make`(table, ...)."""
    return f"{code}\nimport {__name__} as _hard_coded\n" + "".join(
        f"{name} = _hard_coded.{make}(_hard_coded.TABLE, {name!r} if {make!r} == "
        f"'hard_coded' else {name})\n" for name in names)


TABLE: dict = {}  # the table of the exercise under test; the answer cells read it from here


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("lesson, exercise, answer, name",
                         [e for e in EXERCISES if e[:2] not in EXEMPT],
                         ids=[i for i, e in zip(IDS, EXERCISES, strict=True)
                              if e[:2] not in EXEMPT])
def test_a_hard_coded_answer_fails_under_a_grading_seed(lesson, exercise, answer, name,
                                                        grading_seed):
    assert sys.modules.get(__name__) is not None
    TABLE.clear()
    grading_seed(None)
    error = run_until_check(lesson, exercise, _with(answer, name, "recording"))
    assert error is None, f"the solution, recorded, fails: {error!r}"
    assert TABLE, "the check never called the function"
    replay = _with("", name, "hard_coded")
    error = run_until_check(lesson, exercise, replay)
    assert error is None, f"the hard-coded answer fails the visible cases: {error!r}"
    grading_seed(GRADING_SEEDS[0])
    error = run_until_check(lesson, exercise, replay)
    assert isinstance(error, AssertionError), (
        f"under grading seed {GRADING_SEEDS[0]} the hard-coded answer "
        + ("passes" if error is None else f"crashes the check: {error!r}"))
