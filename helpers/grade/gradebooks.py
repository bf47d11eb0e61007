"""Gradebook exports of a class view: one row per student, Canvas's import and Moodle's.

Canvas and Moodle get one column per lesson (each lesson's total), under the name of the
gradebook's assignment (`--assignment 02_one_row="Lesson 2: one row"`, or a CSV of
lesson,name; once any lesson is named, only the named lessons are exported, so lessons not yet
due stay out of the gradebook). A lesson the student handed nothing in for is blank (no
grade), or 0 with `--missing zero`; a lesson the machine failed (`grader error`) is always
blank. How each LMS reads the file, from its own import code:

- Canvas (app/models/gradebook_importer.rb) matches a column to an existing assignment by a
  header "Name (id)" with the assignment's id (what Canvas's own gradebook export writes), else
  by a header equal to the assignment's name; any other header becomes a new assignment, with
  the Points Possible row's maximum. So a name ending in " (digits)" is read as an id. Students
  are matched by SIS Login ID, where the roster's id goes. Canvas compares each cell with the
  gradebook: a blank cell over a blank one changes nothing; over a score it is listed as a
  change on the import's review page (accepting it removes that score), which 0 would
  overwrite too.
- Moodle (grade/import/csv/classes/load_data.php) creates a grade item for a column mapped to
  "new grade item" with its name only, and so Moodle's default maximum, 100: 12 of 12 would be
  recorded as 12/100. Create the grade items first with the maxima `--maxima` prints and map
  each column to its item. A blank cell (or "-") is no grade.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from helpers.grade.classview import GRADER_ERROR, ClassView

MISSING = ("blank", "zero")  # what a lesson not handed in is in a gradebook import


def _num(x: float) -> str:
    return f"{x:g}"


def _lesson_points(view: ClassView, student: str, lesson: str) -> str:
    """A lesson's points for a gradebook; blank (no grade yet) when it is to be regraded."""
    return "" if view.needs_regrade(student, lesson) else _num(view.lesson_total(student, lesson))


# --- which lessons, under which names --------------------------------------------------------


def lesson_maxima(lessons: dict) -> dict[str, float]:
    """Each lesson's maximum: the sum of the `points` of its solution's check cells."""
    return {name: float(sum(e.points for e in lesson.exercises))
            for name, lesson in lessons.items()}


def parse_assignment(text: str) -> tuple[str, str]:
    """LESSON=NAME (from --assignment) as (lesson, name)."""
    lesson, sep, name = text.partition("=")
    if not sep or not lesson.strip() or not name.strip():
        raise ValueError(f"--assignment {text!r}: expected LESSON=NAME, e.g. "
                         '02_one_row="Lesson 2: one row"')
    return lesson.strip(), name.strip()


def read_assignments(path: Path) -> dict[str, str]:
    """{lesson: gradebook name} from a CSV with a header `lesson,name`."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise ValueError(f"{path}: cannot read the assignment names ({e.strerror})") from None
    rows = list(csv.reader(io.StringIO(text)))
    header = [c.strip().lower() for c in rows[0]] if rows else []
    if "lesson" not in header or "name" not in header:
        raise ValueError(f"{path}: expected a header `lesson,name` and one row per lesson "
                         '(02_one_row,"Lesson 2: one row")')
    at_lesson, at_name = header.index("lesson"), header.index("name")
    names = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= max(at_lesson, at_name) or not row[at_lesson].strip() \
                or not row[at_name].strip():
            raise ValueError(f"{path}, line {number}: expected a lesson and a name")
        names[row[at_lesson].strip()] = row[at_name].strip()
    return names


@dataclass
class Gradebook:
    """What a gradebook export needs beside the class: the lessons' names there and maxima,
    and what a lesson not handed in becomes."""

    assignments: dict[str, str] = field(default_factory=dict)  # lesson -> name; {}: all lessons
    maxima: dict[str, float] = field(default_factory=dict)  # lesson -> maximum points
    missing: str = "blank"

    def __post_init__(self):
        if self.missing not in MISSING:
            raise ValueError(f"unknown --missing {self.missing!r}; expected one of "
                             f"{', '.join(MISSING)}")
        if self.maxima:
            unknown = sorted(set(self.assignments) - set(self.maxima))
            if unknown:
                raise ValueError(f"--assignment names {', '.join(unknown)}, which is no lesson "
                                 f"of the course ({', '.join(self.maxima)})")
        seen: dict[str, str] = {}
        for lesson, name in self.assignments.items():
            if name in seen:
                raise ValueError(f"{seen[name]} and {lesson} are both named {name!r}: each "
                                 "lesson needs a gradebook column of its own")
            seen[name] = lesson

    def lessons(self, view: ClassView) -> list[str]:
        return sorted(self.assignments) if self.assignments else view.lessons

    def name(self, lesson: str) -> str:
        return self.assignments.get(lesson, lesson)

    def possible(self, view: ClassView, lesson: str) -> float:
        return self.maxima.get(lesson, view.lesson_possible(lesson))

    def points(self, view: ClassView, student: str, lesson: str) -> str:
        if view.counted(student, lesson) is None:
            return "0" if self.missing == "zero" else ""
        return _lesson_points(view, student, lesson)


def maxima_table(gradebook: Gradebook, lessons: dict) -> str:
    """The lessons' maxima as a Markdown table, for setting up the gradebook's items."""
    lines = ["| lesson | gradebook name | maximum | exercises |", "|---|---|---|---|"]
    for name in sorted(gradebook.assignments or lessons):
        lesson = lessons[name]
        lines.append(f"| {name} | {gradebook.name(name)} | {_num(gradebook.maxima[name])} | "
                     + ", ".join(f"{e.key} {e.points:g}" for e in lesson.exercises) + " |")
    return "\n".join(lines) + "\n"


# --- the exports -----------------------------------------------------------------------------


def students_csv(view: ClassView) -> str:
    """One row per student: total, each lesson's total, each exercise's points."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "name", "points", "possible"]
                    + [f"{lesson} ({_num(view.lesson_possible(lesson))})"
                       for lesson in view.lessons]
                    + [f"{e.column}: {e.title} ({_num(e.points)})" for e in view.exercises]
                    + ["not submitted"])
    for student in view.students:
        writer.writerow([student, view.names.get(student, ""), _num(view.total(student)),
                         _num(view.possible)]
                        + [_lesson_points(view, student, lesson) for lesson in view.lessons]
                        + ["" if view.status(student, e) == GRADER_ERROR
                           else _num(view.earned(student, e)) for e in view.exercises]
                        + ["; ".join(view.missing_lessons(student))])
    return buffer.getvalue()


def gradebook_students(view: ClassView) -> list[str]:
    """The students an LMS export lists: with a roster, only those on it (a submission that
    matched no one has no LMS login to match: it is in the class report, not the gradebook)."""
    if view.roster is None:
        return list(view.students)
    return [s for s in view.students if s in view.roster]


def left_out(view: ClassView) -> list[str]:
    """The students of the view that gradebook_students leaves out."""
    kept = set(gradebook_students(view))
    return [s for s in view.students if s not in kept]


def canvas_csv(view: ClassView, gradebook: Gradebook | None = None) -> str:
    """Canvas's gradebook import layout: Student, ID, SIS User ID, SIS Login ID, Section, then
    one column per lesson and a Points Possible row. The student's id (the roster's) goes
    into SIS Login ID, which Canvas matches students by."""
    gradebook = gradebook or Gradebook()
    lessons = gradebook.lessons(view)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                     *[gradebook.name(lesson) for lesson in lessons]])
    writer.writerow(["Points Possible", "", "", "", "",
                     *[_num(gradebook.possible(view, lesson)) for lesson in lessons]])
    for student in gradebook_students(view):
        writer.writerow([view.names.get(student) or student, "", "", student, "",
                         *[gradebook.points(view, student, lesson) for lesson in lessons]])
    return buffer.getvalue()


def moodle_csv(view: ClassView, gradebook: Gradebook | None = None) -> str:
    """Moodle's grade import from a CSV file: a column that identifies the user (here
    Username, the student's id) and one column per grade item, mapped on the import page."""
    gradebook = gradebook or Gradebook()
    lessons = gradebook.lessons(view)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["Username", "Full name", *[gradebook.name(lesson) for lesson in lessons]])
    for student in gradebook_students(view):
        writer.writerow([student, view.names.get(student, ""),
                         *[gradebook.points(view, student, lesson) for lesson in lessons]])
    return buffer.getvalue()


def from_options(assignments: list[str], assignments_file: Path | None, missing: str,
                 lessons: dict) -> Gradebook:
    """The Gradebook of the command line's --assignment, --assignments and --missing."""
    names = read_assignments(assignments_file) if assignments_file is not None else {}
    names.update(parse_assignment(text) for text in assignments)
    return Gradebook(names, lesson_maxima(lessons), missing)
