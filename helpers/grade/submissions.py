"""What was handed in: which lesson each notebook is, and whose it is.

Which lesson. A notebook says so itself: its metadata names its lesson (`course.lesson`,
written by helpers.grade.exercises), and a notebook made before that is known by its check
cells, whose sources differ from lesson to lesson (their ids, ex1-check..., do not). The file's
name, without the marks copying adds ("Copy of ", " (1)", " copy", "-Copy1", "Kopie von "...),
decides only when the notebook says nothing (its checks deleted, say). When the notebook and
its name disagree, the notebook wins, with a note: its cells are what is graded. A notebook
that neither its name, nor its metadata, nor its check cells tie to a lesson is not graded:
it is `unmatched`, with the lesson it looks most like, if any.

Whose. The first folder under a graded folder (one sub-folder per student: a class, or
GitHub Classroom's clones); in a graded folder that holds the notebooks itself, that folder
(one student's, `class/ben/`), unless it is named exercises (a student's own repository) or
every notebook in it names its student (`02_one_row-ana.ipynb`): then the file name. A folder
named exercises on the way (class/ben/exercises/) is the course's layout, no student.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from helpers.grade.exercises import metadata_lesson
from helpers.grade.lessons import Lesson, UsageError, normal

LAYOUT_FOLDERS = frozenset({"exercises"})  # folders of the course's layout, not of a student
_COPY_PREFIX = re.compile(
    r"^(copy of|kopie von|kopie van|copie de|copia de|copia di|cópia de|kopia av|kopi af|"
    r"kopi av|kopia)\s+", re.IGNORECASE)
_COPY_SUFFIX = re.compile(
    r"(\s*\(\d+\)|\s*-\s*(copy|kopie|copie|copia|cópia|kopia)(\s*\(\d+\))?|"
    r"[-_ ](copy|kopie|copie|copia|kopia)\s*\d*)$", re.IGNORECASE)
_LESSON_NUMBER = re.compile(r"(?:lesson|lab|exercises?|ex)?[\s_-]*(\d+)(?!\d)", re.IGNORECASE)


def without_copy_marks(stem: str) -> tuple[str, bool]:
    """A file name's stem without what copying added (Colab's "Copy of ", a browser's
    " (1)", Jupyter's "-Copy1", macOS's " copy 2", Windows's " - Copy"), and whether it had
    any."""
    base = stem.strip()
    while True:
        shorter = _COPY_SUFFIX.sub("", _COPY_PREFIX.sub("", base)).strip()
        if shorter == base or not shorter:
            return base, base != stem.strip()
        base = shorter


def _stem(path: Path) -> str:
    return path.name[: -len(".ipynb")] if path.name.endswith(".ipynb") else path.stem


def _named(path: Path, names) -> tuple[str | None, str]:
    """(the lesson the file's name says, the stem without copy marks)."""
    stem, _ = without_copy_marks(_stem(path))
    if stem in names:
        return stem, stem
    prefixes = [n for n in names if stem.startswith(n) and stem[len(n)] in "-_. "]
    return (max(prefixes, key=len) if prefixes else None), stem


def lesson_for(path: Path, lessons: dict):
    """The lesson a file's name says: the name (copy marks aside) is a lesson's, or a
    lesson's followed by - _ . or a space and more (02_one_row-ana.ipynb)."""
    name, _ = _named(path, lessons)
    return lessons[name] if name is not None else None


def student_in_name(path: Path, lessons: dict) -> str:
    """What follows the lesson's name in the file name (02_one_row-ana.ipynb: ana), else ''."""
    name, stem = _named(path, lessons)
    if name is None or len(stem) <= len(name) + 1:
        return ""
    return stem[len(name) + 1:].strip(" -_.")


# --- what a notebook says it is ------------------------------------------------------------


@dataclass
class Cells:
    """What identifying a notebook reads of it (the JSON, without nbformat's validation)."""

    lesson: str | None  # the lesson its metadata names
    code: frozenset[str]  # normalised sources of its code cells

    @classmethod
    def read(cls, path: Path) -> Cells | None:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            code = frozenset(normal(_source(c)) for c in data["cells"]
                             if c.get("cell_type") == "code")
            return cls(metadata_lesson(data), code)
        except Exception:  # noqa: BLE001 - not a notebook: the grader says why
            return None


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _check_counts(cells: Cells, lessons: dict[str, Lesson]) -> dict[str, int]:
    """How many of each lesson's check cells the notebook holds, word for word."""
    return {name: sum(normal(e.source) in cells.code for e in lesson.exercises)
            for name, lesson in lessons.items()}


def _only_best(counts: dict[str, int]) -> str | None:
    best = max(counts.values(), default=0)
    winners = [name for name, n in counts.items() if n == best]
    return winners[0] if best and len(winners) == 1 else None


def lesson_said(cells: Cells | None, lessons: dict[str, Lesson]) -> tuple[str, str] | None:
    """(lesson, how the notebook says so) from its metadata or its check cells, else None.
    The metadata counts unless the notebook holds none of that lesson's checks and some of
    another's (a notebook saved as a copy of one lesson and filled with another's cells)."""
    if cells is None:
        return None
    counts = _check_counts(cells, lessons)
    named = cells.lesson
    by_checks = _only_best(counts)
    if named in lessons and (counts[named] or by_checks is None):
        return named, "its metadata names that lesson"
    if by_checks is not None:
        lesson = lessons[by_checks]
        how = (f"{counts[by_checks]} of its cells are that lesson's "
               f"{len(lesson.exercises)} check cells")
        if named:
            how += f", though its metadata names {named}"
        return by_checks, how
    return None


def looks_like(path: Path, cells: Cells | None, lessons: dict[str, Lesson]) -> str | None:
    """The lesson a notebook no lesson was found for resembles most: the most of a lesson's
    check and setup cells, else the lesson whose number the name starts with (02_onerow,
    "lesson 4"; not Untitled1)."""
    if cells is not None:
        best = _only_best({name: len((lesson.course_sources | {normal(e.source)
                                                                for e in lesson.exercises})
                                     & cells.code)
                           for name, lesson in lessons.items()})
        if best is not None:
            return best
    number = _LESSON_NUMBER.match(without_copy_marks(_stem(path))[0])
    same = [n for n in lessons if number and _LESSON_NUMBER.match(n)
            and int(_LESSON_NUMBER.match(n)[1]) == int(number[1])]
    return same[0] if len(same) == 1 else None


@dataclass
class Submission:
    """One notebook found: the lesson it is graded as (None: unmatched, see why)."""

    path: Path
    lesson: Lesson | None
    note: str | None = None  # how the lesson was told, when not by the file's own name
    why: str | None = None  # unmatched: why it is not graded
    looks_like: str | None = None  # unmatched: the lesson it resembles most
    student: str = ""


def identify(path: Path, lessons: dict[str, Lesson]) -> Submission:
    """The lesson a notebook is, from what it says (metadata, check cells) and its name."""
    named = lesson_for(path, lessons)
    _, copied = without_copy_marks(_stem(path))
    cells = Cells.read(path)
    said = lesson_said(cells, lessons)
    shown = f"file name {path.name!r}"
    if said is not None:
        lesson, how = said
        if named is not None and named.name != lesson:
            note = f"graded as {lesson}, not {named.name} as its {shown} says: {how}"
        elif named is None or copied:
            note = f"graded as {lesson}: {how} ({shown})"
        else:
            note = None
        return Submission(path, lessons[lesson], note)
    if named is not None:
        note = (f"graded as {named.name}: its {shown} is that lesson's with the marks of a "
                "copy (the notebook itself names no lesson)") if copied else None
        return Submission(path, named, note)
    like = looks_like(path, cells, lessons)
    why = (f"not graded: neither its name nor its metadata nor its check cells match a lesson "
           f"({', '.join(lessons)}).")
    if like is not None:
        why += (f" It looks most like {like}: rename it {like}.ipynb, or {like}-NAME.ipynb, "
                "to grade it as that lesson.")
    return Submission(path, None, why=why, looks_like=like)


# --- whose -----------------------------------------------------------------------------------


def _student_folders(path: Path, folder: Path) -> list[str]:
    """The folders between a graded folder and a notebook in it, the layout's aside."""
    parts = path.resolve().relative_to(folder.resolve()).parts[:-1]
    return [p for p in parts if p not in LAYOUT_FOLDERS]


def name_students(folder: Path, found: list[Submission], lessons: dict[str, Lesson]) -> None:
    """Set the student of each notebook found in one graded folder."""
    folder = folder.resolve()
    direct = [s for s in found if s.lesson is not None and not _student_folders(s.path, folder)]
    files_name_them = folder.name in LAYOUT_FOLDERS or (
        bool(direct) and all(student_in_name(s.path, lessons) for s in direct))
    for submission in found:
        folders = _student_folders(submission.path, folder)
        if folders:
            submission.student = folders[0]
        elif files_name_them:
            submission.student = student_in_name(submission.path, lessons)
        else:
            submission.student = folder.name


# --- the command line's paths ----------------------------------------------------------------


@dataclass
class Found:
    """The notebooks under the command-line paths."""

    submissions: list[Submission]

    @property
    def pairs(self) -> list[tuple[Path, Lesson]]:
        """(notebook, lesson) to grade."""
        return [(s.path, s.lesson) for s in self.submissions if s.lesson is not None]

    @property
    def unmatched(self) -> list[tuple[Path, str]]:
        """(notebook, why) of those not graded: each is reported, not silently skipped."""
        return [(s.path, s.why) for s in self.submissions if s.lesson is None]

    def label(self, reports, student: str | None = None) -> None:
        """Give each report its student (`student`, when given, for all), note and
        looks_like."""
        by_path = {s.path: s for s in self.submissions}
        for report in reports:
            submission = by_path.get(report.path)
            if submission is None:
                continue
            report.student = student or submission.student
            report.note = submission.note
            report.looks_like = submission.looks_like


def find_submissions(paths, lessons: dict[str, Lesson]) -> Found:
    """Every notebook under the command-line paths (files, or folders searched recursively),
    with its lesson and student."""
    found: list[Submission] = []
    seen: set[Path] = set()
    names = ", ".join(lessons)
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise UsageError(f"{raw}: no such file or folder")
        if path.is_dir():
            here = [identify(nb, lessons) for nb in sorted(path.rglob("*.ipynb"))
                    if not any(part.startswith(".") for part in nb.relative_to(path).parts)
                    and nb.resolve() not in seen]  # not .ipynb_checkpoints, .git
            if not any(s.lesson for s in here):
                raise UsageError(f"{raw}: no notebook in this folder matches a lesson ({names})")
            name_students(path, here, lessons)
        else:
            submission = identify(path, lessons)
            if submission.lesson is None:
                like = (f" (it looks most like {submission.looks_like})"
                        if submission.looks_like else "")
                raise UsageError(f"{raw}: matches no lesson{like}; name the file after one "
                                 f"of: {names}")
            submission.student = student_in_name(path, lessons)
            here = [submission]
        for submission in here:
            if submission.path.resolve() not in seen:
                seen.add(submission.path.resolve())
                found.append(submission)
    return Found(found)

