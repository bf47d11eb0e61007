"""Time every lesson and solution notebook (Run All in a fresh kernel) and the whole test suite.

    python -m helpers.grade.benchmark            # notebooks, then `pytest`
    python -m helpers.grade.benchmark --no-pytest
    python -m helpers.grade.benchmark --grade 40 --no-pytest   # also grade 40 solved notebooks
    python -m helpers.grade.benchmark --grade 40 --no-pytest --no-lessons   # grading only
    python -m helpers.grade.benchmark --class --no-pytest --no-lessons      # the class report

Prints a Markdown table to paste into the README. Timings are measurements, never tests.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from helpers.grade.exercises import fill_solutions, make_exercise
from helpers.grade.grader import grade
from helpers.grade.lessons import SOLUTIONS, load_lessons
from helpers.grade.notebooks import execute
from helpers.grade.reports import all_passed, format_table

ROOT = Path(__file__).resolve().parents[2]


def time_notebook(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    execute(nb, path.parent)
    return time.perf_counter() - start


def time_grading(count: int = 40, jobs: int = 2) -> float:
    """Grade `count` solved exercise notebooks (the lessons in turn) with `jobs`; seconds."""
    lessons = load_lessons([SOLUTIONS])
    names = sorted(lessons)
    with tempfile.TemporaryDirectory(prefix="grade-bench-") as tmp:
        pairs = []
        for i in range(count):
            lesson = lessons[names[i % len(names)]]
            solution = nbformat.read(lesson.path, as_version=4)
            path = Path(tmp) / f"student{i:02d}" / f"{lesson.name}.ipynb"
            path.parent.mkdir()
            nbformat.write(fill_solutions(make_exercise(solution), solution), path)
            pairs.append((path, lesson))
        start = time.perf_counter()
        reports = grade(pairs, jobs=jobs)
        seconds = time.perf_counter() - start
    if not all_passed(reports):
        raise RuntimeError("a solved notebook lost points:\n" + format_table(reports))
    return seconds


def time_class(jobs: int = 2) -> tuple[float, float, int]:
    """Grade tests/class_fixture.py's class (the class report's test class) with `jobs`, then
    build its report from the JSON: (grading seconds, report seconds, notebooks)."""
    import json

    from helpers.grade import classreport, classview, rosters

    sys.path.insert(0, str(ROOT / "tests"))
    from class_fixture import write_class

    with tempfile.TemporaryDirectory(prefix="grade-class-") as tmp:
        klass, roster = write_class(Path(tmp))
        out = Path(tmp) / "class.json"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "helpers.grade", str(klass), "--roster",
                        str(roster), "--jobs", str(jobs), "--json", str(out)], cwd=ROOT,
                       capture_output=True, check=False)
        graded = time.perf_counter() - start
        data = json.loads(out.read_text(encoding="utf-8"))
        start = time.perf_counter()
        view = classview.build(data, rosters.read_roster(roster))
        classreport.render(view, data)
        report = time.perf_counter() - start
    return graded, report, len(data["notebooks"])


def time_pytest() -> tuple[float, int]:
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q"], cwd=ROOT)
    return time.perf_counter() - start, result.returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-pytest", action="store_true", help="skip timing the test suite")
    parser.add_argument("--no-lessons", action="store_true",
                        help="skip timing the lesson and solution notebooks")
    parser.add_argument(
        "--grade",
        type=int,
        default=0,
        metavar="N",
        help="also time grading N solved notebooks with --jobs 2",
    )
    parser.add_argument("--class", dest="klass", action="store_true",
                        help="also time grading the class report's test class and its report")
    parser.add_argument("only", nargs="*", help="lesson names to time, e.g. 02_one_row")
    args = parser.parse_args(argv)

    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    if args.only:
        lessons = [name for name in lessons if any(name.startswith(o) for o in args.only)]
    if args.no_lessons:
        lessons = []
    rows = []
    for name in lessons:
        cells = []
        for folder in ("notebooks", "solutions"):
            path = ROOT / folder / f"{name}.ipynb"
            cells.append(f"{time_notebook(path):.1f} s" if path.exists() else "–")
        rows.append(f"| {name} | {cells[0]} | {cells[1]} |")
        print(rows[-1], flush=True)

    machine = platform.processor() or platform.machine()
    print(f"\nMachine: {machine}, Python {platform.python_version()}")
    if rows:
        print("\n| lesson | lesson Run All | solutions Run All |\n|---|---|---|")
        print("\n".join(rows))
    if args.grade:
        seconds = time_grading(args.grade, 2)
        print(f"\nGrading {args.grade} solved notebooks, --jobs 2: {seconds:.0f} s")
    if args.klass:
        graded, report, notebooks = time_class(2)
        print(f"\nGrading the test class ({notebooks} notebooks), --jobs 2: {graded:.0f} s; "
              f"building its report from the JSON: {report:.1f} s")
    if not args.no_pytest:
        seconds, code = time_pytest()
        print(f"\nWhole `pytest` run: {seconds:.0f} s (exit status {code})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
