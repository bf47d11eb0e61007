"""Where the course's notebooks are, for the tests."""

import contextlib
import io
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def read(path):
    return nbformat.read(path, as_version=4)


def ids(paths):
    return [p.stem for p in paths]


def exec_cells(nb, *, skip=lambda cell: False, sources=None, stop_after=None):
    """Run a notebook's code cells in this process, in order, in one namespace.

    Much faster than a kernel, and what the cells do is the same: no cell uses magics.
    sources: {cell id: source to run instead}; skip(cell) -> True leaves a cell out.
    Returns {cell id: the exception it raised, or None}; stops after the cell `stop_after`.
    """
    sources = sources or {}
    namespace = {"__name__": "__main__"}
    outcome = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in nb.cells:
            if cell.cell_type != "code" or skip(cell):
                continue
            try:
                exec(compile(sources.get(cell.id, cell.source), cell.id, "exec"), namespace)
                outcome[cell.id] = None
            except Exception as error:  # noqa: BLE001 - the caller judges every exception
                outcome[cell.id] = error
            if cell.id == stop_after:
                break
    return outcome


EXERCISE_CELL = re.compile(r"^ex\d+-(answer|check)$")


def run_until_check(lesson, exercise, answer_code):
    """Run the solution's cells up to `exercise`'s check; return that check's exception.

    Other exercises' cells are skipped: no other cell may call a student's function, so the
    setup cells and this exercise's answer are all its check needs.
    """
    nb = read(ROOT / "solutions" / f"{lesson}.ipynb")
    check = f"{exercise}-check"
    if check not in {c.id for c in nb.cells}:
        raise LookupError(f"no cell {check} in {lesson}")
    outcome = exec_cells(
        nb,
        skip=lambda c: bool(EXERCISE_CELL.match(c.id)) and not c.id.startswith(f"{exercise}-"),
        sources={f"{exercise}-answer": answer_code},
        stop_after=check,
    )
    failed = {cid: e for cid, e in outcome.items() if e is not None and cid != check}
    assert not failed, f"cells before the check failed: {failed}"
    return outcome[check]
