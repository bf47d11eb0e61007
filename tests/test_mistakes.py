"""Every named wrong answer fails its check with a message that names the mistake.

Each file in tests/mistakes/ is named after a lesson and holds MISTAKES, a list of dicts:
    exercise: "ex2"          which exercise (cells ex2-answer and ex2-check)
    kind:     "missing scale" the misconception, in a few words
    code:     the whole wrong answer cell
    expect:   a phrase the check's message must contain
    id:       the diagnosis id the check must give (helpers/checks/diagnoses/ documents it)
The solution notebook's cells run in-process, with the wrong answer in place of the right one.
"""

import runpy
from pathlib import Path

import pytest

from notebook_files import EXERCISE_CELL, ROOT, read, run_until_check

MISTAKE_FILES = sorted((Path(__file__).parent / "mistakes").glob("[0-9]*.py"))
CASES = [
    (path.stem, m) for path in MISTAKE_FILES for m in runpy.run_path(str(path))["MISTAKES"]
]


def test_every_exercise_has_a_named_mistake():
    """Issue 4: every exercise of the course is fed a wrong answer of a named kind."""
    named = {(lesson, m["exercise"]) for lesson, m in CASES}
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        checks = [c.id for c in read(path).cells if EXERCISE_CELL.match(c.get("id", ""))
                  and c.id.endswith("-check")]
        missing = [cid[: -len("-check")] for cid in checks
                   if (path.stem, cid[: -len("-check")]) not in named]
        assert not missing, f"tests/mistakes/{path.stem}.py names no mistake for {missing}"


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # wrong answers may overflow or make NaN
@pytest.mark.parametrize(
    "lesson, mistake", CASES, ids=[f"{lesson}-{m['exercise']}-{m['kind']}" for lesson, m in CASES]
)
def test_wrong_answer_gets_teaching_message(lesson, mistake):
    error = run_until_check(lesson, mistake["exercise"], mistake["code"])
    assert error is not None, f"the check passed a wrong answer ({mistake['kind']})"
    assert isinstance(error, AssertionError), f"the check crashed: {error!r}"
    assert mistake["expect"].lower() in str(error).lower(), (
        f"message should name the mistake ({mistake['expect']!r}); got: {error}"
    )
    diagnosis = getattr(error, "diagnosis", "unnamed")
    assert diagnosis != "unnamed", f"the check's failure has no diagnosis id: {error}"
    if "id" in mistake:
        assert diagnosis == mistake["id"], f"diagnosis {diagnosis}, expected {mistake['id']}"
