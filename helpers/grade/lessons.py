"""The lessons a notebook is graded against: each solution notebook's exercises, their
titles, points and canonical check cells (tag `check`, id `exN-check`, metadata `exercise` and
`points`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import nbformat

from helpers.grade.exercises import is_check, normal

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"


class UsageError(Exception):
    """A path that does not exist, a notebook that matches no lesson, a bad option."""


@dataclass
class Exercise:
    key: str  # "ex2"
    check_id: str  # "ex2-check"
    title: str
    points: float
    source: str  # the canonical check cell's source


@dataclass
class Lesson:
    name: str
    path: Path
    exercises: list[Exercise]
    cell_ids: list[str]  # every cell id of the solution, in order
    course_sources: frozenset[str] = frozenset()  # its code cells that are no answer or check


def load_lesson(path: Path) -> Lesson:
    nb = nbformat.read(path, as_version=4)
    exercises = []
    for cell in nb.cells:
        if not is_check(cell):
            continue
        cid = cell.get("id") or f"check{len(exercises) + 1}"
        exercises.append(
            Exercise(
                key=cid[: -len("-check")] if cid.endswith("-check") else cid,
                check_id=cell.get("id", ""),
                title=str(cell.metadata.get("exercise", cell.get("id", "exercise"))),
                points=cell.metadata.get("points", 1),
                source=cell.source,
            )
        )
    course = frozenset(normal(c.source) for c in nb.cells if c.cell_type == "code"
                       and not is_check(c) and not c.get("id", "").endswith("-answer"))
    return Lesson(path.stem, path, exercises, [c.get("id", "") for c in nb.cells], course)


def load_lessons(folders) -> dict[str, Lesson]:
    lessons: dict[str, Lesson] = {}
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            raise UsageError(f"{folder}: no such solutions folder")
        for path in sorted(folder.glob("*.ipynb")):
            if path.stem in lessons:
                raise UsageError(f"lesson {path.stem} is in two solutions folders")
            lessons[path.stem] = load_lesson(path)
    if not lessons:
        raise UsageError("no solution notebooks found: nothing to grade against")
    return lessons
