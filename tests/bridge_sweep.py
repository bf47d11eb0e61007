"""Checks run through the bridge give the verdict they give in the notebook.

Runs each exercise's check twice on the same answer: as the notebook runs it (the student's
function itself) and as the grader runs it (helpers.grade.bridge.run_check, with the kernel's
side in this process, every message going through helpers.grade.wire as text). Used by
tests/test_bridge.py on a sample and, as a script, on every named mistake:

    python tests/bridge_sweep.py [--all]
"""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from helpers.grade import bridge  # noqa: E402

from notebook_files import EXERCISE_CELL, ROOT, read  # noqa: E402

MISTAKE_FILES = sorted((HERE / "mistakes").glob("[0-9]*.py"))


def both_ways(lesson: str, exercise: str, answer_code: str | None):
    """(direct, through the bridge): each the check's (exception type name, message) or None."""
    nb = read(ROOT / "solutions" / f"{lesson}.ipynb")
    check = f"{exercise}-check"
    keep = [c for c in nb.cells if c.cell_type == "code" and (
        not EXERCISE_CELL.match(c.id) or c.id.startswith(f"{exercise}-"))]
    namespace = {"__name__": "__main__"}
    cells: list[str] = []
    direct = grader = None
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cell in keep:
            source = answer_code if (answer_code is not None and
                                     cell.id == f"{exercise}-answer") else cell.source
            if cell.id == check:
                try:
                    exec(compile(source, cell.id, "exec"), dict(namespace))
                except BaseException as error:  # noqa: BLE001
                    direct = (type(error).__name__, str(error))
                record = bridge.run_check(bridge.InProcessBridge(namespace), source, cells)
                if "ename" in record:
                    grader = (record["ename"], record["evalue"])
                break
            cells.append(source)
            try:
                exec(compile(source, cell.id, "exec"), namespace)
            except Exception:  # noqa: BLE001 - a wrong answer's cell may fail; so does the kernel's
                pass
    return direct, grader


def cases(every: bool):
    for path in MISTAKE_FILES:
        for mistake in runpy.run_path(str(path))["MISTAKES"]:
            yield path.stem, mistake


def main(argv=None):
    every = "--all" in (argv or sys.argv[1:])
    same = differ = 0
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        for cell in read(path).cells:
            if EXERCISE_CELL.match(cell.get("id", "")) and cell.id.endswith("-check"):
                d, g = both_ways(path.stem, cell.id[:-6], None)
                if d is not None or g is not None:
                    print(f"SOLUTION {path.stem} {cell.id}: direct={d} bridge={g}")
    for lesson, m in cases(every):
        d, g = both_ways(lesson, m["exercise"], m["code"])
        if d == g:
            same += 1
        else:
            differ += 1
            print(f"DIFFER {lesson} {m['exercise']} {m['kind']}:\n  direct={d}\n  bridge={g}")
    print(f"same {same}, differ {differ}")


if __name__ == "__main__":
    main()
