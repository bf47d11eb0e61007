"""A machine that fails is never the student's fault: helpers.grade.grader.machine_fault.

What happens before any of the student's code ran (a kernel that did not start, or died, or
timed out in the lesson's own cells) is the machine's; what happens in or after the student's
cells is the student's. The end-to-end runs (a kernel start that fails, a kernel that dies,
one that keeps failing) are in tests/test_grade.py, among the grader's other runs;
tests/grader_under_load.py checks the same on a really loaded machine.
"""

from __future__ import annotations

import pytest

from helpers.grade import grader, lessons

from notebook_files import ROOT


def _job(cells: list[grader.Cell]) -> grader.Job:
    lesson = lessons.Lesson("99_toy", ROOT, [], [], frozenset({lessons.normal("import numpy")}))
    return grader.Job(0, ROOT, lesson, cells=cells)


SETUP = grader.Cell("import numpy", "student", "your cell “import numpy”")
ANSWER = grader.Cell("def f(): return 1", "student", "your answer cell “def f()”")
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
    found = grader.machine_fault(_job([SETUP, ANSWER]), records)
    assert (found is None) if fault is None else (fault in found), found


def test_an_edited_setup_cell_is_the_students():
    edited = grader.Cell("import numpy\nimport os; os._exit(1)", "student", "your cell")
    died = [START, {"event": "cell", "cell": 0, "when": "call", "died": True}]
    assert grader.machine_fault(_job([edited, ANSWER]), died) is None
