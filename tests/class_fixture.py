"""A class to grade: 13 students on the roster, 3 lessons, the mistakes learners make.

Built from the solutions and the named wrong answers of tests/mistakes/ (each student gets
a few, chosen by a fixed seed), with what a real class hands in beside the work: a student who
handed in nothing, one not on the roster, a lesson handed in twice, a file named like no
lesson, stubs left untouched and lessons skipped. Used by tests/test_class_report.py and by
`python -m helpers.grade.benchmark --class`.

    write_class(folder) -> (class folder, roster.csv)
"""

from __future__ import annotations

import copy
import csv
import random
import runpy
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ("01_qkv", "02_one_row", "04_masks")
STUDENTS = [("ana", "Ana Lima"), ("ben", "Ben Okafor"), ("chen", "陈静"), ("dara", "Dara Kim"),
            ("eli", "Eli Novak"), ("fay", "Fay Ito"), ("gus", "Gus Berg"),
            ("hana", "Hana Sato"), ("ivo", "Ivo Rossi"), ("jae", "Jae Park"),
            ("kit", "Kit Moore"), ("lea", "Léa Martin"), ("max", "Max Weber")]
ABSENT = "max"  # on the roster, hands in nothing
UNLISTED = "zoe"  # hands in, is not on the roster
SEED = 11


def _mistakes(lesson: str) -> dict[str, list[dict]]:
    by_exercise: dict[str, list[dict]] = {}
    for m in runpy.run_path(str(ROOT / "tests" / "mistakes" / f"{lesson}.py"))["MISTAKES"]:
        by_exercise.setdefault(m["exercise"], []).append(m)
    return by_exercise


def _notebook(lesson: str, rng: random.Random, skill: float):
    from helpers.grade.exercises import fill_solutions, make_exercise

    solution = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    stub = make_exercise(solution)
    nb = fill_solutions(stub, solution)
    stubs = {c.id: c.source for c in stub.cells if c.get("id", "").endswith("-answer")}
    mistakes = _mistakes(lesson)
    for cell in nb.cells:
        cid = cell.get("id", "")
        if not cid.endswith("-answer"):
            continue
        exercise = cid.removesuffix("-answer")
        roll = rng.random()
        if roll > skill + 0.25:  # left as the stub
            cell.source = stubs[cid]
        elif roll > skill and mistakes.get(exercise):
            # the common mistake most often: the first named one of the exercise
            choices = mistakes[exercise][:3]
            weights = [0.65, 0.25, 0.1][: len(choices)]
            cell.source = rng.choices(choices, weights=weights)[0]["code"]
    return nb


def write_class(folder: Path) -> tuple[Path, Path]:
    rng = random.Random(SEED)
    folder = Path(folder)
    klass = folder / "class"
    for number, (student, _) in enumerate([*STUDENTS, (UNLISTED, "")]):
        if student == ABSENT:
            continue
        skill = 0.35 + 0.6 * ((number * 7) % 13) / 12  # from weak to strong
        for lesson in LESSONS:
            if rng.random() < 0.1:  # skipped this lesson
                continue
            path = klass / student / "exercises" / f"{lesson}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(_notebook(lesson, rng, skill), path)
    # a second try at a lesson, better than the first
    again = klass / "ben" / "exercises" / "02_one_row-again.ipynb"
    nbformat.write(_notebook("02_one_row", random.Random(1), 0.95), again)
    first = klass / "ben" / "exercises" / "02_one_row.ipynb"
    nbformat.write(_notebook("02_one_row", random.Random(2), 0.3), first)
    # a copy saved under another name
    copied = copy.deepcopy(nbformat.read(klass / "ana" / "exercises" / "01_qkv.ipynb", 4))
    nbformat.write(copied, klass / "ana" / "exercises" / "Copy of 01_qkv.ipynb")
    roster = folder / "roster.csv"
    with open(roster, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "name"])
        writer.writerows(STUDENTS)
    return klass, roster
