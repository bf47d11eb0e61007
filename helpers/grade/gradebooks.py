"""Gradebook exports of a class view: one row per student, Canvas's import and Moodle's."""

from __future__ import annotations

import csv
import io

from helpers.grade.classview import GRADER_ERROR, ClassView


def _num(x: float) -> str:
    return f"{x:g}"


def _lesson_points(view: ClassView, student: str, lesson: str) -> str:
    """A lesson's points for a gradebook; blank (no grade yet) when it is to be regraded."""
    return "" if view.needs_regrade(student, lesson) else _num(view.lesson_total(student, lesson))


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


def canvas_csv(view: ClassView) -> str:
    """Canvas's gradebook import layout: Student, ID, SIS User ID, SIS Login ID, Section, then
    one column per lesson (a new column becomes a new assignment), and a Points Possible row.
    The student id goes into SIS Login ID, which Canvas matches students by."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *view.lessons])
    writer.writerow(["Points Possible", "", "", "", "",
                     *[_num(view.lesson_possible(lesson)) for lesson in view.lessons]])
    for student in view.students:
        writer.writerow([view.names.get(student) or student, "", "", student, "",
                         *[_lesson_points(view, student, lesson) for lesson in view.lessons]])
    return buffer.getvalue()


def moodle_csv(view: ClassView) -> str:
    """Moodle's grade import from a CSV file: a column that identifies the user (here
    Username, the student id) and one column per grade item, mapped on the import page."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["Username", "Full name", *view.lessons])
    for student in view.students:
        writer.writerow([student, view.names.get(student, ""),
                         *[_lesson_points(view, student, lesson) for lesson in view.lessons]])
    return buffer.getvalue()
