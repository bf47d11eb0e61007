"""The grading command, helpers.grade: points, statuses, feedback, reports, robustness.

Grading starts a kernel per notebook, so the tests share three grader runs, started side by
side the first time a test needs one:

- "toy": a tiny synthetic lesson built here with nbformat (its own solutions folder, passed
  with --solutions) and one submitted notebook per robustness case;
- "classroom": the script steps of classroom/grade.yml, grading a copy of every solution
  notebook of the course: each gets full marks, and the step exits 0;
- "machine" runs: the toy lesson graded while the plugin's test hook makes the machine fail
  (a kernel start that fails as a loaded machine's does, a kernel that dies before the first
  cell, or starts that always fail): graded again, or `grader error`, never the student's;
- "course": one notebook per lesson, made of the committed exercise notebook (unsolved: every
  exercise gets 0, `not attempted`) with the named wrong answers of tests/mistakes/ added, each
  graded `failed` with a message naming the mistake. Each wrong answer J of exercise N goes in
  after the exercise's check, followed by a repeat of that canonical check cell (same source,
  id `exNmJ-check`); the notebook is graded against the solution with the same repeats, so one
  kernel grades the unsolved exercises and every wrong answer of the lesson. (No cell outside
  an answer calls a student's function, as tests/test_mistakes.py proves, so each wrong answer
  is graded on its own.)
"""

from __future__ import annotations

import base64
import copy
import csv
import hashlib
import io
import json
import os
import runpy
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
import yaml
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from helpers.grade import command, grader, lessons, plugin, submissions
from helpers.grade.exercises import fill_solutions, has_solution, make_exercise

from notebook_files import ROOT, read

TOY_TIMEOUT = 6  # seconds per cell in the toy run: the hanging cells cost this much each. The
#                 toy's checks run in the grader (no import in the kernel), so its cells take
#                 well under a second even on a busy 2-core machine
MISTAKE_FILES = sorted((ROOT / "tests" / "mistakes").glob("[0-9]*.py"))
LESSONS = [p.stem for p in sorted((ROOT / "solutions").glob("*.ipynb"))
           if (ROOT / "exercises" / p.name).exists()]
GRADED_PER_EXERCISE = 2  # tests/test_mistakes.py runs every named mistake in-process; here a
#                         sample of each exercise's goes end to end through the grader


def _first_per_exercise(mistakes: list[dict], n: int) -> list[dict]:
    seen: dict[str, int] = {}
    keep = []
    for m in mistakes:
        seen[m["exercise"]] = seen.get(m["exercise"], 0) + 1
        if seen[m["exercise"]] <= n:
            keep.append(m)
    return keep


MISTAKES = {
    path.stem: _first_per_exercise(runpy.run_path(str(path))["MISTAKES"], GRADED_PER_EXERCISE)
    for path in MISTAKE_FILES if path.stem in LESSONS
}
MISTAKE_CASES = [(lesson, m) for lesson, ms in MISTAKES.items() for m in ms]


# --- the toy lesson --------------------------------------------------------------------------


def _cell(cid, source, **metadata):
    cell = new_code_cell(source)
    cell.id = cid
    cell.metadata.update(metadata)
    return cell


def _check(n, title, points, source):
    return _cell(f"ex{n}-check", source, tags=["check"], exercise=title, points=points)


WRONG_AXIS = "softmax over the wrong axis: each column sums to 1"
TOY = new_notebook(cells=[
    new_markdown_cell("# 99 Toy lesson"),
    _cell("setup", "import numpy as np\n\nx = np.array([[1.0, 2.0, 3.0], [3.0, 1.0, 0.0]])"),
    _cell("ex1-answer", "def softmax_rows(s):\n"
          "    ### BEGIN SOLUTION hint: exp, then divide by the row sums\n"
          "    e = np.exp(s - s.max(axis=-1, keepdims=True))\n"
          "    return e / e.sum(axis=-1, keepdims=True)\n"
          "    ### END SOLUTION"),
    _check(1, "Softmax over rows", 2,
           "from helpers.attention import softmax\nfrom helpers.checks import core\n\n"
           "core.compare(softmax_rows(x), softmax(x, axis=-1), name='softmax_rows',\n"
           f"             mistakes=[({WRONG_AXIS!r}, softmax(x, axis=0))])\n"
           "core.passed('softmax_rows: every row sums to 1')"),
    new_markdown_cell("## Exercise 2"),
    _cell("ex2-answer", "def double(v):\n    ### BEGIN SOLUTION hint: times two\n"
          "    return 2 * v\n    ### END SOLUTION"),
    _check(2, "Double it", 1,
           "import numpy\nfrom helpers.checks import core\n\nv = numpy.arange(3.0)\n"
           "core.compare(double(v), 2 * v, name='double',\n"
           "             mistakes=[('you added 2 instead of multiplying', v + 2)])\n"
           "core.passed('double: 2 * v')"),
    _cell("ex3-answer", "def total(v):\n    ### BEGIN SOLUTION hint: np.sum\n"
          "    return float(np.sum(v))\n    ### END SOLUTION"),
    _check(3, "Sum it", 3,
           "import numpy\nfrom helpers.checks import core\n\n"
           "core.compare(total(numpy.arange(4.0)), 6.0, name='total')\n"
           "core.passed('total: the sum')"),
])
TOY_EXERCISE = make_exercise(TOY)
TOY_SOLVED = fill_solutions(TOY_EXERCISE, TOY)

WRONG_SOFTMAX = ("def softmax_rows(s):\n    e = np.exp(s)\n"
                 "    return e / e.sum(axis=0, keepdims=True)")
PATCH_COMPARE = "import helpers.checks.core as core\ncore.compare = lambda *a, **k: None"
PATCH_NUMPY = ("import numpy as np\nnp.allclose = lambda *a, **k: True\n"
               "import helpers.checks.core as core\ncore._close = lambda *a, **k: True")
FAKE_MODULE = ("import sys, types\nfake = types.ModuleType('helpers.checks.core')\n"
               "fake.compare = lambda *a, **k: None\nfake.passed = print\n"
               "sys.modules['helpers.checks.core'] = fake\n"
               "import helpers.checks\nhelpers.checks.core = fake\n"
               "import os\nos.makedirs('helpers/checks')\n"  # and a fake package in the folder
               "for name in ('helpers/__init__.py', 'helpers/checks/__init__.py'):\n"
               "    open(name, 'w').close()\n"
               "with open('helpers/checks/core.py', 'w') as f:\n"
               "    f.write('def compare(*a, **k): pass\\ndef passed(what): print(what)\\n')\n"
               "sys.path.insert(0, os.getcwd())\nimport importlib\nimportlib.invalidate_caches()")


def _answers(nb, **sources):
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.get("id") in sources:
            cell.source = sources[cell.id]
    return nb


def _insert_before(nb, cid, source):
    index = [c.get("id") for c in nb.cells].index(cid)
    nb.cells.insert(index, new_code_cell(source))
    return nb


def _without(nb, *cids):
    nb = copy.deepcopy(nb)
    nb.cells = [c for c in nb.cells if c.get("id") not in cids]
    return nb


def toy_cases() -> dict[str, object]:
    """Submitted notebooks by case; a str is written as the file's raw text."""
    cases = {
        "mixed": _answers(TOY_SOLVED, **{
            "ex1-answer": WRONG_SOFTMAX,
            "ex2-answer": "def double(v):\n    return v.doubled()",
            "ex3-answer": "def total(v)\n    return 0",
        }),
        "hang": _insert_before(_answers(TOY_SOLVED, **{
            "ex1-answer": "import time\n\ndef softmax_rows(s):\n    while True:\n"
                          "        time.sleep(0.05)",
            "ex2-answer": "import time\nwhile True:\n    time.sleep(0.05)",
        }), "ex3-check", "1 / 0"),
        "stubborn": _answers(TOY_SOLVED, **{
            "ex2-answer": "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                          "while True:\n    print('.', flush=True)\n    time.sleep(0.2)",
        }),
        "crash": _answers(TOY_SOLVED, **{
            "ex1-answer": TOY_SOLVED.cells[2].source + "\n\nexit()",
            "ex2-answer": "def double(v):\n    return 2 * v\n\n"
                          "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)",
        }),
        "unreadable": '{"cells": [ this is not JSON',
        "zero-bytes": "",
        "not-a-notebook": '{"cells": 3, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}',
        "empty": new_notebook(),
        "tampered": _without(_answers(TOY_SOLVED, **{  # ex1's check edited, the others deleted
            "ex1-answer": WRONG_SOFTMAX,
            "ex1-check": "assert True",
            "ex2-answer": "def double(v):\n    return v + 2",
        }), "ex2-check", "ex3-check"),
        "redefine": _insert_before(_insert_before(_insert_before(_answers(TOY_SOLVED, **{
            "ex1-answer": WRONG_SOFTMAX,
            "ex2-answer": "def double(v):\n    return v + 2",
            "ex3-answer": "def total(v):\n    return 0.0",
        }), "ex1-check", PATCH_COMPARE), "ex2-check", PATCH_NUMPY), "ex3-check", FAKE_MODULE),
    }
    solved = copy.deepcopy(TOY_SOLVED)  # saved by an old Jupyter: nbformat 4.4, no cell ids
    solved.nbformat_minor = 4
    for cell in solved.cells:
        cell.pop("id", None)
    cases["solved-no-ids"] = solved
    return cases


def _write(path: Path, nb) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(nb, str):
        path.write_text(nb, encoding="utf-8")
    elif nb.nbformat_minor < 5:
        path.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    else:
        nbformat.write(nb, path)


# --- the course's wrong answers --------------------------------------------------------------


def mistake_notebooks(lesson: str, mistakes: list[dict]):
    """(solution with repeated checks, exercise with every wrong answer, {result id: mistake})."""
    solution = read(ROOT / "solutions" / f"{lesson}.ipynb")
    derived, submitted = solution, read(ROOT / "exercises" / f"{lesson}.ipynb")
    answers = {c.id for c in solution.cells if has_solution(c)}
    expected = {}
    for ex in dict.fromkeys(m["exercise"] for m in mistakes):
        check = next((c for c in solution.cells if c.get("id") == f"{ex}-check"), None)
        if check is None or f"{ex}-answer" not in answers:
            continue  # the test of these mistakes says so
        repeats, blocks = [], []
        for j, m in enumerate((m for m in mistakes if m["exercise"] == ex), start=1):
            key = f"{ex}m{j}"
            repeat = _cell(f"{key}-check", check.source, tags=["check"],
                           exercise=f"{check.metadata['exercise']} (wrong answer {j})", points=1)
            repeats.append(repeat)
            blocks += [_cell(f"{key}-answer", m["code"]), copy.deepcopy(repeat)]
            expected[key] = m
        _insert_after(derived, f"{ex}-check", repeats)
        _insert_after(submitted, f"{ex}-check", blocks)
    return derived, submitted, expected


def _insert_after(nb, cid, cells):
    index = [c.get("id") for c in nb.cells].index(cid)
    nb.cells[index + 1:index + 1] = cells


# --- the shared runs -------------------------------------------------------------------------


def _digest(folder: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


class Run:
    """A grader run in a subprocess; `result()` waits for it and reads what it wrote."""

    def __init__(self, args, folder: Path, env=None, cwd=ROOT):
        self.out = folder / "out"
        self.out.mkdir(parents=True, exist_ok=True)
        with open(self.out / "stdout", "wb") as stdout, open(self.out / "stderr", "wb") as err:
            self.proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=stdout, stderr=err)
        self.done = None

    def result(self):
        if self.done is None:
            self.proc.wait(timeout=900)
            self.done = {
                "code": self.proc.returncode,
                "stdout": (self.out / "stdout").read_text(encoding="utf-8"),
                "stderr": (self.out / "stderr").read_text(encoding="utf-8"),
            }
            report = self.out / "report.json"
            if report.exists():
                self.done["json"] = json.loads(report.read_text(encoding="utf-8"))
        return self.done


def _grader(*args):
    return [sys.executable, "-m", "helpers.grade", *map(str, args)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Start the three grader runs side by side; the tests wait for the ones they read.

    Four kernels at most at once (2 + 1 + 1), beside the rest of the suite on a 2-core machine:
    more starve a kernel's start past nbval's 60 s limit."""
    base = tmp_path_factory.mktemp("grade")
    started = {}
    before = {}

    # toy: every robustness case
    toy = base / "toy"
    _write(toy / "solutions" / "99_toy.ipynb", TOY)
    for case, nb in toy_cases().items():
        _write(toy / "class" / f"99_toy-{case}.ipynb", nb)
    before["toy"] = _digest(toy / "class")
    started["toy"] = Run(_grader(
        toy / "class", "--solutions", toy / "solutions", "--timeout", TOY_TIMEOUT,
        "--jobs", 2, "--json", toy / "out" / "report.json", "--junit",
        toy / "out" / "report.xml", "--csv", toy / "out" / "report.csv"), toy)

    # classroom: the workflow's script steps, on every solution notebook of the course
    classroom = base / "classroom"
    workspace = classroom / "workspace"
    submission = workspace / "submission" / "exercises"
    submission.mkdir(parents=True)
    (workspace / "course").symlink_to(ROOT, target_is_directory=True)
    for lesson in LESSONS:
        shutil.copyfile(ROOT / "solutions" / f"{lesson}.ipynb", submission / f"{lesson}.ipynb")
    before["classroom"] = _digest(submission)
    env = dict(os.environ, PYTHON=sys.executable, GITHUB_STEP_SUMMARY=str(classroom / "summary.md"),
               GITHUB_OUTPUT=str(classroom / "output"), GRADE_ARGS="--jobs 1")
    started["classroom"] = Run(["bash", "-c", _workflow_step("Grade the exercises")], classroom,
                               env=env, cwd=workspace)

    # machine: the first kernel does not start, the second dies before its first cell; and a
    # notebook whose kernel never starts
    started["machine-retried"] = _machine_run(base / "machine-retried", "start,die")
    started["machine-always"] = _machine_run(
        base / "machine-always", ",".join(["start"] * 99), "--report",
        base / "machine-always" / "class.html", "--canvas", base / "machine-always" / "canvas.csv",
        students=("ana",))

    # course: each lesson's exercise notebook with its named wrong answers
    course = base / "course"
    expected = {}
    for lesson in LESSONS:
        derived, submitted, cases = mistake_notebooks(lesson, MISTAKES.get(lesson, []))
        _write(course / "solutions" / f"{lesson}.ipynb", derived)
        _write(course / "class" / f"{lesson}.ipynb", submitted)
        expected.update({(lesson, key): m for key, m in cases.items()})
    before["course"] = _digest(course / "class")
    started["course"] = Run(_grader(course / "class", "--solutions", course / "solutions",
                                    "--jobs", 1, "--json", course / "out" / "report.json"), course)

    yield SimpleNamespace(started=started, toy_folder=toy, course_folder=course,
                          classroom=classroom, expected=expected, before=before)
    for run in started.values():
        if run.proc.poll() is None:
            run.proc.kill()
            run.proc.wait()


def _machine_run(folder: Path, faults: str, *extra, students=("ana", "ben")):
    _write(folder / "solutions" / "99_toy.ipynb", TOY)
    for student, nb in {"ana": TOY_SOLVED, "ben": TOY_EXERCISE}.items():
        if student in students:
            _write(folder / "class" / student / "99_toy.ipynb", nb)
    (folder / "faults").mkdir()
    env = dict(os.environ, **{plugin.MACHINE_FAULTS: f"{faults}:{folder / 'faults'}"})
    return Run(_grader(folder / "class", "--solutions", folder / "solutions", "--timeout", 20,
                       "--jobs", 1, "--json", folder / "out" / "report.json", *extra), folder,
               env=env)


def _workflow():
    return yaml.safe_load((ROOT / "classroom" / "grade.yml").read_text(encoding="utf-8"))


def _workflow_step(name: str) -> str:
    (job,) = _workflow()["jobs"].values()
    return next(s["run"] for s in job["steps"] if s.get("name") == name)


@pytest.fixture(scope="module")
def toy(runs):
    result = runs.started["toy"].result()
    assert "json" in result, f"no JSON report; stderr:\n{result['stderr']}"
    result["by_case"] = {
        Path(nb["path"]).stem.removeprefix("99_toy-"): {e["id"]: e for e in nb["exercises"]}
        for nb in result["json"]["notebooks"]
    }
    return result


@pytest.fixture(scope="module")
def course(runs):
    result = runs.started["course"].result()
    assert "json" in result, f"no JSON report; stderr:\n{result['stderr']}"
    result["by_lesson"] = {Path(nb["path"]).stem: {e["id"]: e for e in nb["exercises"]}
                           for nb in result["json"]["notebooks"]}
    return result


@pytest.fixture(scope="module")
def classroom(runs):
    """The classroom step's result, and the reports it wrote."""
    result = runs.started["classroom"].result()
    grades = runs.classroom / "workspace" / "grades"
    assert (grades / "grades.json").exists(), result["stdout"] + result["stderr"]
    result["grades"] = grades
    result["json"] = json.loads((grades / "grades.json").read_text(encoding="utf-8"))
    output = (runs.classroom / "output").read_text(encoding="utf-8")  # for Classroom's reporter
    result["reporter"] = json.loads(base64.b64decode(output.removeprefix("result=")))
    return result


# --- statuses and feedback -------------------------------------------------------------------


def test_solved_notebook_without_cell_ids_gets_every_point(toy):
    solved = toy["by_case"]["solved-no-ids"]  # matched to the lesson by its check tags
    assert [e["status"] for e in solved.values()] == ["passed"] * 3
    assert [e["earned"] for e in solved.values()] == [2, 1, 3]
    assert solved["ex1"]["message"] == "✔ softmax_rows: every row sums to 1"


def test_wrong_answer_fails_with_the_checks_message_word_for_word(toy):
    ex1 = toy["by_case"]["mixed"]["ex1"]
    assert (ex1["status"], ex1["earned"]) == ("failed", 0)
    assert ex1["message"] == f"softmax_rows: {WRONG_AXIS}"
    assert f"| failed | softmax_rows: {WRONG_AXIS} |" in toy["stdout"]


def test_an_exception_is_reported_with_its_type_and_message(toy):
    mixed = toy["by_case"]["mixed"]
    assert mixed["ex2"]["status"] == "error"
    assert mixed["ex2"]["message"] == (
        "AttributeError: 'numpy.ndarray' object has no attribute 'doubled'")


def test_a_syntax_error_is_an_error_named_after_its_cell(toy):
    ex3 = toy["by_case"]["mixed"]["ex3"]
    assert ex3["status"] == "error" and ex3["earned"] == 0
    assert ex3["message"].startswith("SyntaxError: ")
    assert "your answer cell “def total(v)”" in ex3["message"]


def test_a_hanging_cell_is_cut_off_and_the_rest_is_graded(toy):
    hang = toy["by_case"]["hang"]
    assert hang["ex1"]["status"] == "timeout", hang["ex1"]  # the check ran the endless loop
    assert hang["ex2"]["status"] == "timeout"  # the answer cell itself never ended
    assert f"{TOY_TIMEOUT} s" in hang["ex2"]["message"]
    assert hang["ex3"]["status"] == "passed"  # and the student's cell that raised is reported
    assert hang["ex3"]["message"] == (
        "✔ total: the sum; note: ZeroDivisionError: division by zero (in your cell “1 / 0”)")


def test_a_cell_that_ignores_the_interrupt_is_stopped(toy):
    stubborn = toy["by_case"]["stubborn"]
    assert stubborn["ex2"]["status"] == "timeout"
    assert stubborn["ex1"]["status"] == stubborn["ex3"]["status"] == "passed"


def test_a_cell_that_ends_the_kernel_is_an_error_and_the_rest_is_graded(toy):
    crash = toy["by_case"]["crash"]  # exit(), then os.kill(pid, SIGKILL)
    assert crash["ex1"]["status"] == "passed"  # exit() is ignored while grading
    assert crash["ex2"]["status"] == "error"
    assert crash["ex2"]["message"].startswith("the kernel died while this cell ran")
    assert "your answer cell “def double(v):”" in crash["ex2"]["message"]
    assert crash["ex3"]["status"] == "passed"  # the cell that killed the kernel is skipped


@pytest.mark.parametrize("case, says", [
    ("unreadable", "expected a Jupyter notebook (JSON text); Expecting value: line 1 column 13 "),
    ("zero-bytes", "the file is empty"),
    ("not-a-notebook", "expected a Jupyter notebook (nbformat 4); at cells: 3 is not of type "
                       "'array'"),
])
def test_unreadable_files_get_zero_say_why_and_the_others_go_on(toy, case, says):
    results = toy["by_case"][case].values()
    assert {e["status"] for e in results} == {"unreadable"}
    assert sum(e["earned"] for e in results) == 0
    assert all(e["message"].startswith(f"not a readable notebook: {says}") for e in results)
    assert len(toy["by_case"]) == len(toy_cases())


def test_an_empty_notebook_gets_zero_not_attempted(toy):
    empty = toy["by_case"]["empty"]
    assert {e["status"] for e in empty.values()} == {"not attempted"}
    assert "no answer cell" in empty["ex1"]["message"]


def test_a_check_edited_into_assert_true_is_graded_with_the_real_check(toy):
    edited = toy["by_case"]["tampered"]["ex1"]
    assert (edited["status"], edited["outcome"], edited["earned"]) == ("tampered", "failed", 0)
    assert edited["message"] == ("the check cell was edited; graded with the original check "
                                 f"(failed): softmax_rows: {WRONG_AXIS}")


def test_a_deleted_check_is_restored_graded_for_real_and_reported(toy):
    tampered = toy["by_case"]["tampered"]
    wrong, right = tampered["ex2"], tampered["ex3"]
    assert (wrong["status"], wrong["outcome"], wrong["earned"]) == ("tampered", "failed", 0)
    assert wrong["message"] == ("the check cell was deleted; graded with the original check "
                                "(failed): double: you added 2 instead of multiplying")
    assert (right["status"], right["outcome"]) == ("tampered", "passed")
    assert right["earned"] == 3  # a right answer keeps its points


def test_redefining_the_helpers_the_checks_use_does_not_pass_them(toy):
    redefine = toy["by_case"]["redefine"]  # core.compare, np.allclose, a fake module
    assert {e["status"] for e in redefine.values()} == {"failed"}
    assert redefine["ex1"]["message"] == f"softmax_rows: {WRONG_AXIS}"
    assert redefine["ex2"]["message"] == "double: you added 2 instead of multiplying"


def test_student_files_are_never_modified(runs, toy):
    assert _digest(runs.toy_folder / "class") == runs.before["toy"]


# --- the course ------------------------------------------------------------------------------


def _lesson_exercises(lesson: str) -> dict[str, float]:
    """{exercise id: points} of the lesson's solution notebook."""
    return {c.id.removesuffix("-check"): c.metadata["points"]
            for c in read(ROOT / "solutions" / f"{lesson}.ipynb").cells
            if "check" in c.metadata.get("tags", [])}


@pytest.mark.parametrize("lesson", LESSONS)
def test_solution_gets_full_marks(classroom, lesson):
    nb = next(nb for nb in classroom["json"]["notebooks"] if nb["lesson"] == lesson)
    assert Path(nb["path"]).name == f"{lesson}.ipynb"
    points = _lesson_exercises(lesson)
    assert {e["id"]: (e["status"], e["earned"]) for e in nb["exercises"]} == {
        ex: ("passed", p) for ex, p in points.items()}
    assert nb["earned"] == nb["possible"] == sum(points.values())


@pytest.mark.parametrize("lesson", LESSONS)
def test_unsolved_exercise_gets_zero_not_attempted(course, lesson):
    results = course["by_lesson"][lesson]  # the committed exercise notebook's own exercises
    points = _lesson_exercises(lesson)
    assert {ex: (results[ex]["status"], results[ex]["earned"], results[ex]["points"])
            for ex in points} == {ex: ("not attempted", 0, p) for ex, p in points.items()}
    answers = {c.id: c.source for c in read(ROOT / "exercises" / f"{lesson}.ipynb").cells}
    for ex in points:  # the stub's own message, with its hint
        assert f"raise NotImplementedError({results[ex]['message']!r})" in answers[f"{ex}-answer"]


def _mistake_id(case):
    lesson, m = case
    return f"{lesson}-{m['exercise']}-{m['kind']}"


@pytest.mark.parametrize("case", MISTAKE_CASES, ids=[_mistake_id(c) for c in MISTAKE_CASES])
def test_named_wrong_answer_is_graded_failed_with_its_message(course, runs, case):
    lesson, mistake = case
    key = next((k for (les, k), m in runs.expected.items() if les == lesson and m is mistake),
               None)
    assert key, f"solutions/{lesson}.ipynb has no cells {mistake['exercise']}-answer and -check"
    result = course["by_lesson"][lesson][key]
    assert (result["status"], result["earned"]) == ("failed", 0), f"{mistake['kind']}: {result}"
    assert mistake["expect"].lower() in result["message"].lower()


def test_student_course_files_are_never_modified(runs, course, classroom):
    assert _digest(runs.course_folder / "class") == runs.before["course"]
    submission = runs.classroom / "workspace" / "submission" / "exercises"
    assert _digest(submission) == runs.before["classroom"]


# --- exit status and reports -----------------------------------------------------------------


def test_exit_status_is_1_when_an_exercise_did_not_pass(toy):
    assert toy["code"] == 1, toy["stderr"]


def test_exit_status_is_0_when_every_exercise_passed(classroom):
    assert classroom["code"] == 0, classroom["stdout"] + classroom["stderr"]
    reporter = classroom["reporter"]  # the classroom step exits 0 for partial work too
    assert {t["status"] for t in reporter["tests"]} == {"pass"}
    assert sum(t["score"] for t in reporter["tests"]) == reporter["max_score"] > 0


@pytest.mark.parametrize("args, says", [
    (["no/such/notebook.ipynb"], "no such file or folder"),
    ([str(ROOT / "README.md")], "matches no lesson"),
    ([str(ROOT / "helpers")], "no notebook in this folder matches a lesson"),
    ([], "at least one notebook"),
    ([str(ROOT / "exercises"), "--jobs", "0"], "--jobs"),
    ([str(ROOT / "exercises"), "--solutions", "no/such/folder"], "no such solutions folder"),
    ([str(ROOT / "exercises"), "--json", str(ROOT / "exercises" / "02_one_row.ipynb")],
     "a report would overwrite a notebook being graded"),
    ([str(ROOT / "exercises"), "--csv", str(ROOT / "exercises")], "cannot write a report there"),
])
def test_usage_errors_exit_2_without_grading(capsys, args, says):
    assert command.main(args) == 2
    assert says in capsys.readouterr().err


def test_a_bad_option_exits_2(capsys):
    assert command.main(["--timeout", "soon"]) == 2


def test_table_per_notebook_then_total(toy):
    out = toy["stdout"]
    assert out.count("| exercise | points | status | feedback |") == len(toy_cases())
    assert "99_toy-solved-no-ids.ipynb (99_toy): 6/6 points" in out
    assert "| ex2: Double it | 1/1 | passed | ✔ double: 2 * v |" in out
    assert out.rstrip().splitlines()[-1].startswith("**Total: ")


def test_json_report_has_every_notebook_exercise_status_points_and_message(toy):
    report = toy["json"]
    assert len(report["notebooks"]) == len(toy_cases())
    assert report["total"]["possible"] == 6 * len(toy_cases())
    assert report["total"]["all_passed"] is False
    for nb in report["notebooks"]:
        assert nb["lesson"] == "99_toy"
        for e in nb["exercises"]:
            assert set(e) == {"id", "title", "points", "earned", "status", "outcome", "message",
                              "diagnosis"}
            assert e["status"] in grader.STATUSES
            # a failed check names its diagnosis; nothing else has one
            assert (e["diagnosis"] is not None) == (e["outcome"] == "failed"), e


def test_junit_report(toy, runs):
    root = ET.parse(runs.toy_folder / "out" / "report.xml").getroot()
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == len(toy_cases())
    mixed = next(s for s in suites if s.get("name").endswith("99_toy-mixed.ipynb"))
    assert (mixed.get("tests"), mixed.get("failures"), mixed.get("errors")) == ("3", "1", "2")
    failure = mixed.find("testcase/failure")
    assert failure.get("type") == "failed" and WRONG_AXIS in failure.get("message")
    solved = next(s for s in suites if s.get("name").endswith("99_toy-solved-no-ids.ipynb"))
    assert solved.findall("testcase/failure") == solved.findall("testcase/error") == []


def test_csv_report_has_one_row_per_notebook_and_a_column_per_exercise(toy, runs):
    with open(runs.toy_folder / "out" / "report.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(toy_cases())
    assert list(rows[0])[:4] == ["notebook", "lesson", "points", "possible"]
    assert "99_toy ex3: Sum it (3)" in rows[0]
    mixed = next(r for r in rows if r["notebook"].endswith("99_toy-mixed.ipynb"))
    assert (mixed["points"], mixed["99_toy ex1: Softmax over rows (2)"]) == ("0", "0")
    assert mixed["not passed"] == "ex1 failed; ex2 error; ex3 error"
    solved = next(r for r in rows if r["notebook"].endswith("99_toy-solved-no-ids.ipynb"))
    assert (solved["points"], solved["possible"], solved["not passed"]) == ("6", "6", "")


# --- the classroom workflow ------------------------------------------------------------------


def test_workflow_runs_only_the_script_steps_and_leaves_no_token_to_the_students_code():
    (job,) = _workflow()["jobs"].values()
    steps = job["steps"]
    runs_ = [s["run"] for s in steps if "run" in s]
    assert runs_[0] == _workflow_step("Require the course repository")  # runs no student code
    assert runs_[1:] == ["bash course/classroom/grade.sh install",
                         "bash course/classroom/grade.sh classroom submission/exercises"]
    checkouts = [s for s in steps if s.get("uses", "").startswith("actions/checkout")]
    assert len(checkouts) == 2
    assert all(s["with"]["persist-credentials"] is False for s in checkouts)


def test_workflow_grade_step_writes_the_table_to_the_job_summary(runs, classroom):
    summary = (runs.classroom / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## Exercise grades")
    total = sum(sum(_lesson_exercises(lesson).values()) for lesson in LESSONS)
    assert f"**Total: {total:g}/{total:g} points** in {len(LESSONS)} notebooks" in summary
    first = LESSONS[0]
    title, points = next((c.metadata["exercise"], c.metadata["points"])
                         for c in read(ROOT / "solutions" / f"{first}.ipynb").cells
                         if c.get("id") == "ex1-check")
    assert f"| ex1: {title} | {points}/{points} | passed | ✔" in summary
    grades = classroom["grades"]
    assert {p.name for p in grades.iterdir()} == {
        "grades.md", "grades.json", "grades.xml", "grades.csv"}
    assert classroom["stdout"] == (grades / "grades.md").read_text(encoding="utf-8")
    assert summary.endswith(classroom["stdout"])


def test_workflow_install_step_installs_the_grading_requirements(tmp_path):
    fake = tmp_path / "python"
    fake.write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "called"}\n')
    fake.chmod(0o755)
    (tmp_path / "course").symlink_to(ROOT, target_is_directory=True)
    subprocess.run(["bash", "-c", _workflow_step("Install the course")], cwd=tmp_path,
                   env=dict(os.environ, PYTHON=str(fake), TORCH_INDEX_URL=""), check=True)
    torch, rest = (tmp_path / "called").read_text().splitlines()
    assert torch == "-m pip install torch==2.13.0"  # tests/test_classroom.py: the CPU index
    assert rest.split()[:4] == ["-m", "pip", "install", "-r"]
    assert Path(rest.split()[4]).resolve() == ROOT / "classroom" / "requirements.txt"


# --- pieces ----------------------------------------------------------------------------------


def test_a_deleted_check_goes_back_right_after_its_answer(tmp_path):
    lesson = _toy_lesson(tmp_path)
    cells, plans = grader.plan_copy(_without(TOY_SOLVED, "ex2-check", "ex1-check"), lesson)
    order = [c.origin for c in cells]
    assert order == ["setup", "ex1-answer", "ex1-check", "ex2-answer", "ex2-check",
                     "ex3-answer", "ex3-check"]
    assert [p.tampered for p in plans] == ["deleted", "deleted", None]
    assert all(cells[p.check].source.endswith(p.exercise.source) for p in plans)


def test_an_edited_check_is_replaced_and_the_students_lines_kept_before_it(tmp_path):
    lesson = _toy_lesson(tmp_path)
    edited = _answers(TOY_SOLVED, **{"ex2-check": "double = lambda v: 2 * v\nassert True"})
    cells, plans = grader.plan_copy(edited, lesson)
    check = plans[1].check
    assert cells[check - 1].role == "student" and "assert True" in cells[check - 1].source
    assert cells[check].source == TOY.cells[6].source
    assert plans[1].tampered == "edited" and plans[0].tampered is None


def test_a_copied_check_cell_is_a_student_cell_and_the_original_stays_canonical(tmp_path):
    lesson = _toy_lesson(tmp_path)
    nb = copy.deepcopy(TOY_SOLVED)
    copied = copy.deepcopy(nb.cells[3])  # ex1-check, pasted above its answer with a new id
    copied.id = "pasted"
    nb.cells.insert(2, copied)
    cells, plans = grader.plan_copy(nb, lesson)
    assert [c.origin for c in cells][:4] == ["setup", "pasted", "ex1-answer", "ex1-check"]
    assert cells[1].role == "student" and plans[0].tampered is None


def test_notebooks_match_lessons_by_name():
    lessons = {name: name for name in ("02_one_row", "02_one", "04_masks")}
    assert submissions.lesson_for(Path("x/02_one_row.ipynb"), lessons) == "02_one_row"
    assert submissions.lesson_for(Path("ana/02_one_row-ana.ipynb"), lessons) == "02_one_row"
    assert submissions.lesson_for(Path("02_one.ipynb"), lessons) == "02_one"
    assert submissions.lesson_for(Path("02_onerow.ipynb"), lessons) is None
    assert submissions.lesson_for(Path("scratch.ipynb"), lessons) is None


def test_the_watchdog_stops_a_run_that_makes_no_progress(tmp_path):
    start = time.monotonic()
    codes = grader._run_processes(
        [[sys.executable, "-c", "import time; time.sleep(60)"]] * 2, cwd=tmp_path,
        env=os.environ.copy(), idle_limit=0.5, progress=lambda: 0)
    assert codes == [None, None] and time.monotonic() - start < 10


def _toy_lesson(tmp_path):
    _write(tmp_path / "99_toy.ipynb", TOY)
    return lessons.load_lesson(tmp_path / "99_toy.ipynb")


def test_kernel_starts_leave_no_tcp_warning_in_the_graders_output(toy):
    """Issue 10: each kernel start used to log ipykernel's unencrypted-TCP warning."""
    assert "without encryption" not in toy["stderr"] + toy["stdout"]


# --- a machine that fails is not the student's fault ------------------------------------------


def _machine(runs, name):
    return runs.started[name].result() | {"folder": runs.started[name].out.parent}


def _statuses(result) -> dict[str, set[str]]:
    return {nb["student"]: {e["status"] for e in nb["exercises"]}
            for nb in result["json"]["notebooks"]}


def test_a_kernel_the_machine_lost_is_graded_again_with_the_same_verdicts(runs):
    result = _machine(runs, "machine-retried")
    assert _statuses(result) == {"ana": {"passed"}, "ben": {"not attempted"}}, result["stderr"]
    assert result["code"] == 1  # ben's stubs: not a grader error
    assert len(list((result["folder"] / "faults").iterdir())) == 2  # both faults happened


def test_a_notebook_the_machine_keeps_failing_is_a_grader_error_not_the_students(runs):
    result = _machine(runs, "machine-always")
    assert _statuses(result) == {"ana": {grader.GRADER_ERROR}}
    assert result["code"] == 3
    for nb in result["json"]["notebooks"]:
        for e in nb["exercises"]:
            assert "Kernel died before replying to kernel_info" in e["message"]
            assert e["message"].endswith("Regrade this notebook.")
            assert f"{grader.MACHINE_RETRIES} times" in e["message"]
    assert "1 notebook could not be graded:** the machine failed" in result["stdout"]


def test_a_grader_error_is_regrade_this_in_the_report_and_blank_in_the_gradebook(runs):
    folder = _machine(runs, "machine-always")["folder"]
    html = (folder / "class.html").read_text(encoding="utf-8")
    assert 'id="regrade"' in html and html.count(">regrade<") == 3 + 1  # 3 exercises, the sum
    rows = list(csv.reader(io.StringIO((folder / "canvas.csv").read_text(encoding="utf-8"))))
    grades = {row[3]: row[5] for row in rows[2:]}
    assert grades == {"ana": ""}  # no grade yet, rather than 0
