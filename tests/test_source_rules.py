"""The rules judged from the student's source (helpers.checks.source) agree with the dis path.

Under the grader, a check receives a stand-in for the student's function: `__grade_cells__`
(the source of every cell run before the check), `__grade_globals__(names)` and a call that
runs the function in the kernel. `StandIn` below plays it in this process: the cells run in
one namespace, as tests/notebook_files.run_until_check runs them, and the call goes to the
function defined there.

    python tests/test_source_rules.py   prints the agreement over every mistake in tests/mistakes
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import io
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from helpers.checks import core, multi_head, one_row, source

from notebook_files import EXERCISE_CELL, ROOT, SOLUTIONS, read

RULES = ("rule.forbidden-call", "one_row.loop-used", "multi_head.global-size")
MISTAKES = [
    (path.stem, m)
    for path in sorted((Path(__file__).parent / "mistakes").glob("[0-9]*.py"))
    for m in runpy.run_path(str(path))["MISTAKES"]
]


class StandIn:
    """What the grader hands a check instead of the student's function."""

    def __init__(self, name: str, cells: list[str], namespace: dict):
        self.__name__ = name
        self.__grade_cells__ = list(cells)
        self._namespace = namespace
        found = source.signature(cells, name)
        if found is not None:
            self.__signature__ = found

    def __grade_globals__(self, names) -> dict:
        data = (int, float, complex, str, bytes, np.ndarray, np.generic, torch.Tensor)
        return {n: self._namespace[n] for n in names
                if isinstance(self._namespace.get(n), data)}

    def __call__(self, *args, **kwargs):
        return self._namespace[self.__name__](*args, **kwargs)


def _passed_name(check_source: str) -> str:
    """The name a check cell passes: `one_row.check_stable_softmax(stable_softmax)`."""
    for node in ast.walk(ast.parse(check_source)):
        if (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name)
                and getattr(node.func, "attr", "").startswith("check_")):
            return node.args[0].id
    raise LookupError(check_source)


def _run(code: str, cell_id: str, namespace: dict):
    try:
        exec(compile(code, cell_id, "exec"), namespace)
    except Exception as error:  # noqa: BLE001 - the caller judges every exception
        return error
    return None


def run_both(lesson: str, exercise: str | None = None, answer_code: str | None = None, *,
             real: bool = True) -> dict:
    """Each check's error (None: passed) with the real function and with the stand-in.

    exercise None: the whole solution, every check. Otherwise, as run_until_check: the setup
    cells and `exercise`'s own, its answer replaced by `answer_code`, up to its check.
    -> {exercise: (error with the function (the dis path), error with the stand-in)};
    real False: the check runs with the stand-in only (the first error is then None).
    """
    nb = read(ROOT / "solutions" / f"{lesson}.ipynb")
    namespace, cells, outcome = {"__name__": "__main__"}, [], {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            if exercise is not None and EXERCISE_CELL.match(cell.id) and not (
                    cell.id.startswith(f"{exercise}-")):
                continue
            code = answer_code if cell.id == f"{exercise}-answer" else cell.source
            if not cell.id.endswith("-check"):
                error = _run(code, cell.id, namespace)
                assert error is None, f"{lesson} {cell.id} failed: {error!r}"
                cells.append(code)
                continue
            name = _passed_name(code)
            with_function = _run(code, cell.id, namespace) if real else None
            stand_in = StandIn(name, cells, namespace)
            with_stand_in = _run(code, cell.id, {**namespace, name: stand_in})
            outcome[cell.id.removesuffix("-check")] = (with_function, with_stand_in)
            if cell.id == f"{exercise}-check":
                break
    return outcome


def _is_rule(error) -> bool:
    return getattr(error, "diagnosis", None) in RULES


# ---------------------------------------------------------------- solutions pass, mistakes agree


@pytest.mark.parametrize("lesson", [p.stem for p in SOLUTIONS])
def test_every_solution_passes_every_check_with_the_stand_in(lesson):
    for exercise, (_, with_stand_in) in run_both(lesson, real=False).items():
        assert with_stand_in is None, f"{exercise}: the stand-in failed: {with_stand_in!r}"


# Every mistake in tests/mistakes whose dis-path message is a rule, as the sweep below lists them
# (`python tests/test_source_rules.py`); a few others, which neither path may call a rule.
RULE_MISTAKE_KEYS = [
    ("02_one_row", "ex1", "calls the score helper"),
    ("02_one_row", "ex2", "calls a library softmax"),
    ("02_one_row", "ex2", "torch softmax"),
    ("02_one_row", "ex3", "calls attention"),
    ("02_one_row", "ex4", "calls attention"),
    ("04_masks", "ex1", "calls the reference"),
    ("05_multi_head", "ex1", "calls helpers.heads.split_heads"),
    ("05_multi_head", "ex2", "calls helpers.heads.merge_heads"),
    ("05_multi_head", "ex2", "hard-coded width D (held-out a)"),
    ("05_multi_head", "ex3", "calls split_heads instead of looping"),
    ("05_multi_head", "ex4", "counts a module's parameters"),
    ("05_multi_head", "ex5", "calls attention() instead of writing the scores"),
    ("05_multi_head", "ex5", "loads the weights into nn.MultiheadAttention"),
    ("06_position", "ex2", "calls sinusoidal_encoding"),
    ("06_position", "ex3", "calls apply_rope"),
    ("06_position", "ex5", "calls alibi_bias"),
    ("07_block", "ex1", "calls F.layer_norm"),
    ("07_block", "ex1", "nn.LayerNorm module"),
    ("07_block", "ex4", "helpers block built from the layer"),
    ("08_architectures", "ex3", "F.cross_entropy on (B, T, V) unflattened"),
    ("08_architectures", "ex3", "F.nll_loss"),
    ("08_architectures", "ex3", "cross_entropy under an alias"),
    ("09_cost", "ex1", "library online_softmax"),
    ("09_cost", "ex1", "torch softmax one-liner"),
    ("09_cost", "ex2", "library attention_step"),
    ("09_cost", "ex3", "library KVCache"),
    ("09_cost", "ex4", "library sliding_window_mask"),
    ("09_cost", "ex5", "library top_k_routing"),
    ("10_llms", "ex1", "calls F.scaled_dot_product_attention with enable_gqa"),
    ("10_llms", "ex1", "calls helpers.gqa.repeat_kv"),
    ("10_llms", "ex2", "calls helpers.configs.kv_cache_bytes"),
    ("10_llms", "ex3", "calls helpers.masks.chunk_causal_mask"),
    ("10_llms", "ex3", "materialises torch's causal_lower_right"),
    ("10_llms", "ex4", "calls helpers.rope_scaling"),
    ("10_llms", "ex5", "library row_backward"),
    ("10_llms", "ex5", "autograd through torch"),
    ("11_induction", "ex1", "calls the lesson's score"),
    ("11_induction", "ex2", "calls the lesson's score"),
    ("11_induction", "ex3", "calls the lesson's batch"),
    ("11_induction", "ex4", "calls copy_losses"),
    ("11_induction", "ex4", "calls ablation_mask"),
]
_BY_KEY = {(lesson, m["exercise"], m["kind"]): m for lesson, m in MISTAKES}
OTHER_MISTAKE_KEYS = [key for key in _BY_KEY if key not in RULE_MISTAKE_KEYS][::40]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("key", RULE_MISTAKE_KEYS + OTHER_MISTAKE_KEYS,
                         ids=["-".join(key) for key in RULE_MISTAKE_KEYS + OTHER_MISTAKE_KEYS])
def test_a_mistake_gets_the_same_message_from_the_source(key):
    lesson, exercise, _ = key
    [(with_function, with_stand_in)] = run_both(lesson, exercise, _BY_KEY[key]["code"]).values()
    assert _is_rule(with_function) == (key in RULE_MISTAKE_KEYS), with_function
    assert str(with_stand_in) == str(with_function)
    assert getattr(with_stand_in, "diagnosis", None) == getattr(with_function, "diagnosis", None)


_LOOPED = {
    "for": """def attention_output(q, k, v, mask=None):
    out, weights = [], []
    for i in range(q.shape[0]):
        s = k @ q[i] / np.sqrt(q.shape[-1])
        if mask is not None:
            s = np.where(mask[i], s, -np.inf)
        e = np.exp(s - s.max())
        weights.append(e / e.sum())
        out.append(weights[-1] @ v)
    return np.array(out), np.array(weights)
""",
    "while": """def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    i = 0
    while i < w.shape[0]:
        w[i] = w[i] / w[i].sum()
        i += 1
    return w @ v, w
""",
    "comprehension": """def attention_output(q, k, v, mask=None):
    s = q @ k.T / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    w = np.stack([row / row.sum() for row in e])
    return w @ v, w
""",
}


@pytest.mark.parametrize("kind", list(_LOOPED))
def test_a_loop_in_attention_output_gets_the_same_message_from_the_source(kind):
    [(with_function, with_stand_in)] = run_both("02_one_row", "ex5", _LOOPED[kind]).values()
    assert with_function.diagnosis == "one_row.loop-used", with_function
    assert str(with_stand_in) == str(with_function)


# ---------------------------------------------------------------- hand-written cases

SOFTMAX = core.SOFTMAX_FUNCTIONS


def uses(*cells, name="f"):
    return sorted(source.forbidden_uses(list(cells), name, SOFTMAX))


@pytest.mark.parametrize("cells, expected", [
    (["from helpers.attention import softmax as s", "def f(x):\n    return s(x)"],
     ["helpers.attention.softmax (as `s`)"]),
    (["import helpers.attention as ha", "def f(x):\n    return ha.softmax(x)"], ["softmax"]),
    (["import torch.nn.functional as F", "def f(x):\n    return F.softmax(x, -1)"],
     ["softmax"]),
    (["import torch.nn.functional as F\ns = F.softmax", "def f(x):\n    return s(x)"],
     ["torch.nn.functional.softmax (as `s`)"]),
    (["import helpers.attention", "s = helpers.attention.softmax",
      "def f(x):\n    return s(x)"], ["helpers.attention.softmax (as `s`)"]),
    (["import torch.nn.functional as F\ns = getattr(F, 'softmax')", "def f(x):\n    return s(x)"],
     ["torch.nn.functional.softmax (as `s`)"]),
    (["import torch", "def f(x):\n    return getattr(torch, 'softmax')(x, -1)"], ["softmax"]),
])
def test_aliases_attributes_and_getattr(cells, expected):
    assert uses(*cells) == expected


def test_a_helper_in_another_cell_is_followed():
    cells = ["from helpers.attention import softmax as sm",
             "def helper(x):\n    return sm(x)",
             "g = lambda x: helper(x)",
             "def f(x):\n    return g(x) + 1"]
    assert uses(*cells) == ["helpers.attention.softmax (as `sm`)"]


def test_the_answer_bound_to_the_library_function():
    assert uses("import helpers.attention", "f = helpers.attention.softmax") == [
        "helpers.attention.softmax"]
    assert uses("from helpers.attention import softmax as f") == ["helpers.attention.softmax"]
    assert uses("import torch", "f = torch.softmax") == ["torch.softmax"]


def test_an_import_inside_the_function():
    assert uses("def f(x):\n    from helpers.attention import softmax as s\n    return s(x)") == [
        "helpers.attention.softmax"]
    assert uses("def f(x):\n    import torch.nn.functional as F\n    return F.softmax(x, -1)"
                ) == ["softmax"]


def test_the_last_definition_before_the_check_wins():
    wrong = "from helpers.attention import softmax as s\ndef f(x):\n    return s(x)"
    right = "import numpy as np\ndef f(x):\n    e = np.exp(x - x.max())\n    return e / e.sum()"
    assert uses(wrong, right) == []
    assert uses(right, wrong) == ["helpers.attention.softmax (as `s`)"]
    # a helper rebound after the answer's def: the function reads it when called
    assert uses("def h(x):\n    return x", "def f(x):\n    return h(x)",
                "import torch\nh = torch.softmax") == ["torch.softmax (as `h`)"]
    # an alias takes its value when it is assigned
    assert uses("import torch\ns = torch.softmax\ng = s", "def s(x):\n    return x",
                "def f(x):\n    return g(x)") == ["torch.softmax (as `g`)"]


def test_a_parameter_or_local_named_like_the_forbidden_function_is_not_a_use():
    assert uses("from helpers.attention import softmax",
                "def f(x, softmax):\n    return softmax(x)") == []
    assert uses("from helpers.attention import softmax",
                "def f(x):\n    softmax = lambda s: s\n    return softmax(x)") == []
    assert uses("import numpy as np\ndef softmax(s):\n    return np.exp(s)",
                "def f(x):\n    return softmax(x)") == []  # the student's own softmax


def test_a_cell_that_does_not_parse_is_skipped():
    cells = ["from helpers.attention import softmax as s\ndef f(x):\n    return s(x)",
             "def f(x)\n    return x"]  # a syntax error: the kernel kept the first f
    assert uses(*cells) == ["helpers.attention.softmax (as `s`)"]


def test_magics_and_shell_lines():
    cells = ["%matplotlib inline\n!echo hi\nfrom helpers.attention import softmax as s",
             "%%time\ndef f(x):\n    return s(x)"]
    assert uses(*cells) == ["helpers.attention.softmax (as `s`)"]


def test_a_decorated_and_a_nested_function():
    cells = ["import functools\nimport torch",
             "@functools.lru_cache\ndef f(x):\n    def inner(y):\n"
             "        return torch.softmax(y, -1)\n    return inner(x)"]
    assert uses(*cells) == ["softmax"]
    assert one_row_loop("def f(x):\n    def inner(y):\n        return [a for a in y]\n"
                        "    return inner(x)") == "a list comprehension"


def test_what_runs_when_the_function_is_defined_is_read_too():
    alias = "from helpers.attention import softmax as s"
    assert uses(alias, "def f(x, g=s):\n    return g(x)") == ["helpers.attention.softmax (as `s`)"]
    assert uses(alias, "def f(x, g=lambda s: s):\n    return g(x)") == []  # s: its parameter
    assert uses("import torch", "def deco(h):\n    return lambda x: torch.softmax(x, -1)",
                "@deco\ndef f(x):\n    return x") == ["softmax"]  # the student's decorator


def test_a_library_function_as_the_answer_is_read_as_core_forbid_reads_it():
    assert uses("import helpers.attention as ha", "f = ha.attention") == ["softmax"]


def test_a_name_not_defined():
    assert uses("x = 1") == []
    assert source.loop_label(["x = 1"], "f") is None
    assert source.global_names([], "f") == set()
    assert source.signature(["x = 1"], "f") is None


def one_row_loop(*cells):
    return source.loop_label(list(cells), "f")


def test_loops_are_labelled_like_forbid_loops():
    assert one_row_loop("def f(x):\n    return x @ x") is None
    assert one_row_loop("def f(x):\n    t = 0\n    for a in x:\n        t += a\n    return t"
                        ).startswith("a `for` loop")
    assert one_row_loop("def f(x):\n    while x:\n        x -= 1\n    return x") == (
        "a `while` loop")
    assert one_row_loop("def h(x):\n    return [a for a in x]",
                        "def f(x):\n    return h(x)") is None  # a helper's loop is not read
    if sys.version_info < (3, 12):
        assert one_row_loop("f = lambda x: sum(a for a in x)") == "a generator expression"


def test_global_names_are_the_module_level_names_read():
    cells = ["D = 6\nT = 4\nH = 2", "def f(x, H):\n    B = x.shape[0]\n"
             "    g = lambda y: y.view(B, T, H, D // H)\n    return g(x)"]
    assert source.global_names(cells, "f") == {"T", "D"}
    stand_in = StandIn("f", cells, {"D": 6, "T": 4, "H": 2, "flag": True})
    assert multi_head._global_sizes(stand_in) == {"D": 6, "T": 4}


def test_the_signature_comes_from_the_def():
    sig = source.signature(["def f(q, k, v, mask=None, *, scale=1.0, **kw):\n    pass"], "f")
    assert str(sig) == "(q, k, v, mask=None, *, scale=1.0, **kw)"
    assert str(source.signature(["f = lambda a, b=2: a"], "f")) == "(a, b=2)"
    stand_in = StandIn("f", ["def f(q, k):\n    return q"], {})
    assert list(inspect.signature(stand_in).parameters) == ["q", "k"]


def test_the_switch_in_the_checks():
    cells = ["import torch\ndef f(x):\n    return [torch.softmax(a, -1) for a in x]"]
    stand_in = StandIn("f", cells, {})
    with pytest.raises(core.CheckFailed, match="calls softmax") as error:
        core.forbid(stand_in, SOFTMAX, name="f", why="")
    assert error.value.diagnosis == "rule.forbidden-call"
    with pytest.raises(core.CheckFailed, match="uses a list comprehension") as error:
        one_row._forbid_loops(stand_in, name="f", why="")
    assert error.value.diagnosis == "one_row.loop-used"


# ---------------------------------------------------------------- the full sweep

def sweep(answers) -> dict:
    """Run every answer both ways; count how the stand-in's message compares.

    answers: (lesson, exercise, kind, code). Prints each disagreement and the rule mistakes.
    """
    import warnings

    counts = dict.fromkeys(("same", "different", "AST missed", "AST extra",
                            "other same", "other different"), 0)
    rules = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for lesson, exercise, kind, code in answers:
            [(dis_error, ast_error)] = run_both(lesson, exercise, code).values()
            key = (lesson, exercise, kind)
            if _is_rule(dis_error):
                rules.append(key)
                if str(ast_error) == str(dis_error):
                    counts["same"] += 1
                elif _is_rule(ast_error):
                    counts["different"] += 1
                    print("different", key, dis_error, "|", ast_error, sep="\n  ")
                else:
                    counts["AST missed"] += 1
                    print("AST missed", key, dis_error, "|", ast_error, sep="\n  ")
            elif _is_rule(ast_error):
                counts["AST extra"] += 1
                print("AST extra", key, dis_error, "|", ast_error, sep="\n  ")
            elif str(ast_error) == str(dis_error):
                counts["other same"] += 1
            else:
                counts["other different"] += 1
                print("other different", key, dis_error, "|", ast_error, sep="\n  ")
    print("rule mistakes:", *rules, sep="\n  ")
    return counts


if __name__ == "__main__":
    # python tests/test_source_rules.py [tests/heldout/a ...]: tests/mistakes, or those folders
    answers = [(lesson, m["exercise"], m["kind"], m["code"]) for lesson, m in MISTAKES]
    if sys.argv[1:]:
        answers = [(path.stem, m["exercise"], m["kind"], m["code"])
                   for folder in sys.argv[1:] for path in sorted(Path(folder).glob("[0-9]*.py"))
                   for group in ("WRONG", "VALID")
                   for m in runpy.run_path(str(path)).get(group, [])]
    print(len(answers), "answers:", sweep(answers))
