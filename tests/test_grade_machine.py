"""A machine that fails is never the student's fault (helpers.grade.command.machine_fault).

A kernel that does not start, or dies before any of the student's code ran, is graded again;
if it keeps failing, the notebook is `grader error` (exit status 3, "regrade this" in the class
report, no points in the gradebooks), never `error`, `not attempted` or 0 points. The faults
are made by the plugin's test hook (HELPERS_GRADE_TEST_MACHINE_FAULTS), the way a loaded
machine makes them: "Kernel died before replying to kernel_info", or a kernel killed at start.
tests/grader_under_load.py checks the same on a real loaded machine.
"""

from __future__ import annotations

import csv
import io
import os

import pytest
from test_grade import TOY, TOY_EXERCISE, TOY_SOLVED, Run, _grader, _write

from helpers.grade import command as grade
from helpers.grade import plugin

from notebook_files import ROOT

TOY_TIMEOUT = 20


def _run(tmp: os.PathLike, name: str, faults: str, *extra, students=("ana", "ben")):
    folder = tmp / name
    _write(folder / "solutions" / "99_toy.ipynb", TOY)
    for student, nb in {"ana": TOY_SOLVED, "ben": TOY_EXERCISE}.items():
        if student in students:
            _write(folder / "class" / student / "99_toy.ipynb", nb)
    (folder / "faults").mkdir()
    env = dict(os.environ, **{plugin.MACHINE_FAULTS: f"{faults}:{folder / 'faults'}"})
    return Run(_grader(folder / "class", "--solutions", folder / "solutions", "--timeout",
                       TOY_TIMEOUT, "--jobs", 1, "--json", folder / "out" / "report.json",
                       *extra), folder, env=env, cwd=ROOT)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("machine")
    started = {  # the first kernel does not start, the second dies before the first cell
        "retried": _run(tmp, "retried", "start,die"),
        "always": _run(tmp, "always", ",".join(["start"] * 99), "--report",
                       tmp / "always" / "class.html", "--canvas", tmp / "always" / "canvas.csv",
                       students=("ana",)),
    }
    return {name: run.result() | {"folder": tmp / name} for name, run in started.items()}


def _statuses(result) -> dict[str, set[str]]:
    return {nb["student"]: {e["status"] for e in nb["exercises"]}
            for nb in result["json"]["notebooks"]}


def test_a_kernel_the_machine_lost_is_graded_again_with_the_same_verdicts(runs):
    result = runs["retried"]
    assert _statuses(result) == {"ana": {"passed"}, "ben": {"not attempted"}}, result["stderr"]
    assert result["code"] == 1  # ben's stubs: not a grader error
    assert len(list((result["folder"] / "faults").iterdir())) == 2  # both faults happened


def test_a_notebook_the_machine_keeps_failing_is_a_grader_error_not_the_students(runs):
    result = runs["always"]
    assert _statuses(result) == {"ana": {grade.GRADER_ERROR}}
    assert result["code"] == 3
    for nb in result["json"]["notebooks"]:
        for e in nb["exercises"]:
            assert "Kernel died before replying to kernel_info" in e["message"]
            assert e["message"].endswith("Regrade this notebook.")
            assert f"{grade.MACHINE_RETRIES} times" in e["message"]
    assert "1 notebook could not be graded:** the machine failed" in result["stdout"]


def test_a_grader_error_is_regrade_this_in_the_report_and_blank_in_the_gradebook(runs):
    folder = runs["always"]["folder"]
    html = (folder / "class.html").read_text(encoding="utf-8")
    assert 'id="regrade"' in html and html.count(">regrade<") == 3 + 1  # 3 exercises, the sum
    rows = list(csv.reader(io.StringIO((folder / "canvas.csv").read_text(encoding="utf-8"))))
    grades = {row[3]: row[5] for row in rows[2:]}
    assert grades == {"ana": ""}  # no grade yet, rather than 0


def _job(cells: list[grade.Cell]) -> grade.Job:
    lesson = grade.Lesson("99_toy", ROOT, [], [], frozenset({grade._normal("import numpy")}))
    return grade.Job(0, ROOT, lesson, cells=cells)


SETUP = grade.Cell("import numpy", "student", "your cell “import numpy”")
ANSWER = grade.Cell("def f(): return 1", "student", "your answer cell “def f()”")
START = {"event": "start", "pid": 1}


@pytest.mark.parametrize("records, fault", [
    ([], "grading never reached this notebook"),
    ([START], "its kernel did not start in time"),
    ([START, {"event": "cell", "cell": 0, "when": "setup", "raised": "TimeoutError",
              "message": "Kernel didn't respond in 180 seconds"}], "its kernel did not start"),
    ([START, {"event": "cell", "cell": 0, "when": "call", "died": True}], "its kernel died"),
    ([START, {"event": "cell", "cell": 0, "when": "call", "timeout": True}], "timed out"),
    ([START, {"event": "cell", "cell": 0, "when": "call"},  # the student's cell kills it
      {"event": "cell", "cell": 1, "when": "call", "died": True}], None),
    ([START, {"event": "cell", "cell": 0, "when": "call"},
      {"event": "cell", "cell": 1, "when": "call", "timeout": True}], None),
])
def test_only_what_happens_before_the_students_code_is_the_machines_fault(records, fault):
    found = grade.machine_fault(_job([SETUP, ANSWER]), records)
    assert (found is None) if fault is None else (fault in found), found


def test_an_edited_setup_cell_is_the_students():
    edited = grade.Cell("import numpy\nimport os; os._exit(1)", "student", "your cell")
    died = [START, {"event": "cell", "cell": 0, "when": "call", "died": True}]
    assert grade.machine_fault(_job([edited, ANSWER]), died) is None
