"""exercises/ is generated from solutions/; unsolved it fails only in checks; solved, passes."""

import re

import pytest

from helpers.grade.exercises import (
    BEGIN,
    exercise_path,
    fill_solutions,
    has_solution,
    is_check,
    make_exercise,
    render,
    stub_source,
)

from notebook_files import ROOT, SOLUTIONS, exec_cells, ids, read

ANSWER_ID = re.compile(r"^ex(\d+)-answer$")
CHECK_ID = re.compile(r"^ex(\d+)-check$")


def test_every_lesson_has_solutions_and_exercises():
    lessons = {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert lessons, "no lessons found"
    assert {p.stem for p in SOLUTIONS} == lessons
    assert {p.stem for p in (ROOT / "exercises").glob("*.ipynb")} == lessons


@pytest.mark.parametrize("path", SOLUTIONS, ids=ids(SOLUTIONS))
def test_committed_exercise_is_what_the_generator_writes(path):
    target = exercise_path(path)
    assert target.exists(), f"{target.name} missing: run `python -m helpers.grade.exercises`"
    expected = render(make_exercise(read(path)))
    assert target.read_text(encoding="utf-8") == expected, (
        f"{target.name} is stale: run `python -m helpers.grade.exercises`"
    )


@pytest.mark.parametrize("path", SOLUTIONS, ids=ids(SOLUTIONS))
def test_solution_structure(path):
    nb = read(path)
    checks = [c for c in nb.cells if is_check(c)]
    answers = [c for c in nb.cells if has_solution(c)]
    assert len(checks) >= 4, "each lesson has at least 4 graded exercises"
    answer_numbers = [ANSWER_ID.match(c.id) for c in answers]
    assert all(answer_numbers), f"answer cells are named exN-answer: {[c.id for c in answers]}"
    for answer in answers:  # an unsolved exercise fails with a hint
        hints = [BEGIN.match(line)["hint"] for line in answer.source.splitlines()
                 if BEGIN.match(line)]
        assert all(h and h.strip() for h in hints), f"{answer.id}: BEGIN SOLUTION hint: ..."
    for check in checks:
        m = CHECK_ID.match(check.id)
        assert m, f"check cell ids are exN-check, got {check.id}"
        assert f"ex{m[1]}-answer" in {c.id for c in answers}, f"{check.id} has no answer cell"
        assert check.metadata.get("points", 0) > 0, f"{check.id} needs metadata points > 0"
        assert check.metadata.get("exercise"), f"{check.id} needs metadata exercise (its title)"
        assert "from helpers.checks import" in check.source, (
            f"{check.id} must import its checks itself, so a student cell cannot replace them"
        )
        assert "assert " not in check.source, f"{check.id}: call helpers.checks, not bare asserts"
    order = [c.id for c in nb.cells]
    for check in checks:
        n = CHECK_ID.match(check.id)[1]
        assert order.index(f"ex{n}-answer") < order.index(check.id)


def test_stub_keeps_indentation_and_hint():
    source = (
        "def f(x):\n    ### BEGIN SOLUTION hint: square it\n    return x * x\n"
        "    ### END SOLUTION\n"
    )
    stub = stub_source(source)
    assert "return x * x" not in stub
    message = "Not attempted yet: replace this line with your answer. Hint: square it"
    assert f"    raise NotImplementedError({message!r})" in stub
    with pytest.raises(ValueError, match="without END"):
        stub_source("### BEGIN SOLUTION\nx = 1\n")
    broken = read(SOLUTIONS[0])
    answer = next(c for c in broken.cells if has_solution(c))
    answer.source += "\n### END SOLUTION"
    with pytest.raises(ValueError, match=f"cell {answer.id}, line .*: END SOLUTION without BEGIN"):
        make_exercise(broken)


@pytest.mark.filterwarnings("ignore::UserWarning")  # plt.show() on the Agg backend
@pytest.mark.parametrize("path", SOLUTIONS, ids=ids(SOLUTIONS))
def test_unsolved_fails_only_in_checks_and_solved_passes(path):
    exercise = read(exercise_path(path))
    outcome = exec_cells(exercise)
    for cell in exercise.cells:
        if cell.cell_type != "code":
            continue
        error = outcome[cell.id]
        if is_check(cell):
            assert error is not None, f"{cell.id} passed on an unsolved exercise: it cannot fail"
            assert isinstance(error, NotImplementedError), (
                f"{cell.id} failed with {type(error).__name__}, not the stub's NotImplementedError"
            )
        else:
            assert error is None, f"unsolved exercise fails outside a check cell, in {cell.id}"

    # Filled in, the exercise is the solution notebook cell for cell, and the solution runs
    # under strict nbval in this same suite, every check printing its pass line.
    filled = fill_solutions(read(exercise_path(path)), read(path))
    solution = read(path)
    assert [(c.id, c.source) for c in filled.cells] == [(c.id, c.source) for c in solution.cells]
    for cell in solution.cells:
        if is_check(cell):
            text = "".join(o.get("text", "") for o in cell.outputs)
            assert "✔" in text, f"{cell.id} printed no pass line in the stored solution"
