"""The grader's bridge: checks run in the grader, the student's function in its kernel.

helpers.grade.wire carries data only; helpers.grade.bridge rebuilds what the student's function
did (its result, its error, the inputs it changed in place, the global RNG it used) so that a
check gives the same verdict through the bridge as in the notebook. The kernel's side runs in
this process here (InProcessBridge); tests/test_grade.py and tests/test_grade_attacks.py run
real kernels.
"""

import json
import math
import runpy

import numpy as np
import pytest
import torch
from bridge_sweep import MISTAKE_FILES, both_ways

from helpers.checks import core
from helpers.grade import bridge, wire


def roundtrip(value):
    return wire.loads(wire.dumps(value))


@pytest.mark.parametrize("value", [
    None, True, 0, -3, 2**70, 1.5, math.inf, -math.inf, 1 + 2j, "我 爱 你",
    (1, (2.0, "x")), [1, [2]], {"a": 1, 3: (4,)}, range(2, 9, 3), slice(1, None, 2),
])
def test_plain_values_travel_unchanged(value):
    assert roundtrip(value) == value and type(roundtrip(value)) is type(value)


def test_nan_travels():
    assert math.isnan(roundtrip(math.nan))


@pytest.mark.parametrize("array", [
    np.arange(6.0).reshape(2, 3), np.float32(2.5) * np.ones((2, 0, 3), np.float32),
    np.array(7, dtype=np.int16), np.array([True, False]), np.array([[1 + 1j]]),
    np.arange(12).reshape(3, 4).T,  # not contiguous
])
def test_arrays_keep_dtype_shape_and_values(array):
    got = roundtrip(array)
    assert got.dtype == array.dtype and got.shape == array.shape
    np.testing.assert_array_equal(got, array)


def test_numpy_scalars_stay_scalars():
    got = roundtrip(np.float64(0.25))
    assert type(got) is np.float64 and got == 0.25
    assert roundtrip(np.arange(3.0).sum()).shape == ()


@pytest.mark.parametrize("tensor", [
    torch.arange(6.0).reshape(2, 3), torch.tensor(3.5), torch.ones(2, dtype=torch.bfloat16),
    torch.tensor([True]), torch.zeros(2, 2, dtype=torch.float16), torch.arange(4).view(2, 2).t(),
])
def test_tensors_keep_dtype_shape_and_values(tensor):
    got = roundtrip(tensor)
    assert isinstance(got, torch.Tensor) and got.dtype == tensor.dtype
    assert got.shape == tensor.shape and torch.equal(got, tensor)


def test_a_tensor_that_requires_grad_comes_back_requiring_grad():
    assert roundtrip(torch.ones(2, requires_grad=True)).requires_grad
    assert roundtrip(torch.nn.Parameter(torch.ones(2))).requires_grad


def test_generators_travel_by_state():
    rng = np.random.default_rng(5)
    copy = roundtrip(rng)
    assert copy.normal() == rng.normal()
    g = torch.Generator().manual_seed(3)
    assert torch.equal(torch.randn(2, generator=roundtrip(g)), torch.randn(2, generator=g))


def test_library_functions_travel_by_name_and_others_are_opaque():
    assert roundtrip(torch.relu) is torch.relu
    assert roundtrip(torch.nn.functional.gelu) is torch.nn.functional.gelu
    assert roundtrip(np.exp) is np.exp
    opaque = roundtrip(lambda x: x)
    assert isinstance(opaque, wire.Opaque) and "function" in opaque.type_name


@pytest.mark.parametrize("data, says", [
    ({"ndarray": {"dtype": "|O", "shape": [1], "data": ""}}, "does not travel"),
    ({"ndarray": {"dtype": "<f8", "shape": [3], "data": "AAAA"}}, "do not match its shape"),
    ({"library": "os.system"}, "os.system"),
    ({"library": "subprocess.run"}, "subprocess.run"),
    ({"pickle": "..."}, "unknown tag"),
    ({"npgen": {"bit": "System", "state": None}}, "bit generator"),
])
def test_data_that_could_run_code_or_lies_is_refused(data, says):
    with pytest.raises((wire.NotData, LookupError), match=says):
        wire.loads(json.dumps(data))


def test_an_object_array_does_not_travel():
    with pytest.raises(wire.NotData, match="dtype object"):
        wire.dumps(np.array([object()]))


# --- calls through the bridge ----------------------------------------------------------------


def _remote(source: str, name: str):
    namespace = {"__name__": "__main__"}
    exec(source, namespace)
    return bridge.Remote(bridge.InProcessBridge(namespace), name, [source])


def test_a_call_returns_the_result_as_data():
    double = _remote("def double(x):\n    return 2 * x\n", "double")
    np.testing.assert_array_equal(double(np.arange(3)), [0, 2, 4])
    assert double.__name__ == "double" and str(double.__signature__) == "(x)"


def test_the_students_error_keeps_its_type_message_and_builtin_base():
    source = ("class ShapeError(ValueError):\n    pass\n"
              "def f(x):\n    raise ShapeError('x must be 2-D, got 1-D')\n"
              "def g(x):\n    return {}['missing']\n")
    with pytest.raises(ValueError, match="x must be 2-D, got 1-D") as caught:
        _remote(source, "f")(1)
    assert type(caught.value).__name__ == "ShapeError" and caught.value.__grade_student__
    with pytest.raises(KeyError) as caught:
        _remote(source, "g")(1)
    assert str(caught.value) == "'missing'"


def test_a_change_made_in_place_reaches_the_callers_array():
    scale = _remote("def scale(x):\n    x *= 2\n    return x\n", "scale")
    x = np.ones(3)
    scale(x)
    np.testing.assert_array_equal(x, [2, 2, 2])  # so core.call notices it, as in the notebook
    with pytest.raises(core.CheckFailed, match="changed its argument `x` in place"):
        core.call(scale, np.ones(3))


def test_the_global_rng_is_shared_so_its_use_is_noticed():
    noisy = _remote("import numpy as np\ndef noisy(rng):\n    return np.random.normal()\n",
                    "noisy")
    with pytest.raises(core.CheckFailed, match="global random state"):
        core.follows_its_rng(noisy, lambda: (np.random.default_rng(0),), name="noisy")
    drawn = _remote("def drawn(rng):\n    return rng.normal(size=2)\n", "drawn")
    rng = np.random.default_rng(1)
    first = drawn(rng)
    assert not np.array_equal(first, drawn(rng))  # the caller's generator moved on


def test_a_callable_of_the_check_is_called_back_in_the_grader():
    calls = []

    def layer(x):
        calls.append(x.shape)
        return x + 1

    probe = _remote("def probe(layer, x):\n    return layer(layer(x)) - x\n", "probe")
    np.testing.assert_array_equal(probe(layer, np.zeros(2)), [2, 2])
    assert calls == [(2,), (2,)]  # the record is the grader's, not the kernel's


def test_a_checks_verdict_raised_inside_a_callback_stays_the_verdict():
    def layer(x):
        core.fail("probe: you called the layer with a (3,) input", "test.layer")

    probe = _remote("def probe(layer):\n    try:\n        return layer(0)\n"
                    "    except Exception:\n        raise ValueError('swallowed')\n", "probe")
    with pytest.raises(core.CheckFailed, match="you called the layer"):
        probe(layer)


def test_an_answer_that_is_not_data_is_opaque_and_the_check_says_so():
    make = _remote("class Thing:\n    pass\ndef make():\n    return Thing()\n", "make")
    assert isinstance(make(), wire.Opaque)


# --- the same verdict as in the notebook -----------------------------------------------------


def _sample():
    """The first named mistake of each exercise, and every rule mistake (the script runs all)."""
    picked, seen = [], {}
    for path in MISTAKE_FILES:
        for m in runpy.run_path(str(path))["MISTAKES"]:
            key = (path.stem, m["exercise"])
            seen[key] = seen.get(key, 0) + 1
            if seen[key] == 1 or "calls" in m["expect"]:
                picked.append((path.stem, m))
    return picked


SAMPLE = _sample()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("lesson, mistake", SAMPLE,
                         ids=[f"{lesson}-{m['exercise']}-{m['kind']}" for lesson, m in SAMPLE])
def test_a_wrong_answer_gets_the_same_message_through_the_bridge(lesson, mistake):
    direct, graded = both_ways(lesson, mistake["exercise"], mistake["code"])
    assert direct is not None and direct[0] == "CheckFailed", direct
    assert graded == direct


def _exercises():
    from notebook_files import EXERCISE_CELL, SOLUTIONS, read

    return [(path.stem, cell.id[: -len("-check")]) for path in SOLUTIONS
            for cell in read(path).cells
            if EXERCISE_CELL.match(cell.get("id", "")) and cell.id.endswith("-check")]


@pytest.mark.parametrize("lesson, exercise", _exercises())
def test_every_solution_passes_through_the_bridge(lesson, exercise):
    assert both_ways(lesson, exercise, None) == (None, None)
