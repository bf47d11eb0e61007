"""The Canvas and Moodle exports a teacher imports: what a lesson not handed in becomes, the
assignments' names and the lessons' maxima. Built from grader JSON written here (no kernel
runs); the layouts' rules are Canvas's and Moodle's import code (helpers/grade/gradebooks.py)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from helpers.grade import command, gradebooks
from helpers.grade.classview import build

from notebook_files import ROOT


def _exercise(key, points, earned, status="passed"):
    return {"id": key, "title": f"Title {key}", "points": points, "earned": earned,
            "status": status, "message": ""}


def _notebook(student, lesson, *exercises):
    return {"path": f"class/{student}/{lesson}.ipynb", "student": student, "lesson": lesson,
            "earned": sum(e["earned"] for e in exercises),
            "possible": sum(e["points"] for e in exercises), "exercises": list(exercises)}


# ana handed in both lessons, ben only 02 (wrong), cem nothing, dan's 01 the machine failed.
CLASS = {"total": {}, "notebooks": [
    _notebook("ana", "01_qkv", _exercise("ex1", 2, 2), _exercise("ex2", 3, 3)),
    _notebook("ana", "02_one_row", _exercise("ex1", 4, 4)),
    _notebook("ben", "02_one_row", _exercise("ex1", 4, 0, "failed")),
    _notebook("dan", "01_qkv", _exercise("ex1", 2, 0, "grader error"),
              _exercise("ex2", 3, 0, "grader error")),
]}
ROSTER = {"ana": "Ana A", "ben": "Ben B", "cem": "Cem C", "dan": "Dan D"}


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _cells(rows, id_column: int, first: int) -> dict[str, list[str]]:
    return {row[id_column]: row[first:] for row in rows}


@pytest.fixture
def view():
    return build(json.loads(json.dumps(CLASS)), ROSTER)


# --- a lesson not handed in --------------------------------------------------------------------


def test_canvas_leaves_a_lesson_not_handed_in_blank_rather_than_zero(view):
    rows = _rows(gradebooks.canvas_csv(view))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       "01_qkv", "02_one_row"]
    assert rows[1] == ["Points Possible", "", "", "", "", "5", "4"]
    assert _cells(rows[2:], 3, 5) == {"ana": ["5", "4"], "ben": ["", "0"], "cem": ["", ""],
                                      "dan": ["", ""]}
    assert [row[0] for row in rows[2:]] == ["Ana A", "Ben B", "Cem C", "Dan D"]


def test_missing_zero_gives_zero_for_a_lesson_not_handed_in_but_a_regrade_stays_blank(view):
    zero = gradebooks.Gradebook(missing="zero")
    canvas = _cells(_rows(gradebooks.canvas_csv(view, zero))[2:], 3, 5)
    assert canvas == {"ana": ["5", "4"], "ben": ["0", "0"], "cem": ["0", "0"], "dan": ["", "0"]}
    moodle = _cells(_rows(gradebooks.moodle_csv(view, zero))[1:], 0, 2)
    assert moodle == canvas


def test_moodle_leaves_a_lesson_not_handed_in_blank(view):
    rows = _rows(gradebooks.moodle_csv(view))
    assert rows[0] == ["Username", "Full name", "01_qkv", "02_one_row"]
    assert _cells(rows[1:], 0, 2) == {"ana": ["5", "4"], "ben": ["", "0"], "cem": ["", ""],
                                      "dan": ["", ""]}


def test_missing_accepts_only_blank_or_zero():
    with pytest.raises(ValueError, match="blank, zero"):
        gradebooks.Gradebook(missing="none")


# --- the assignments' names ------------------------------------------------------------------


def test_named_assignments_are_the_headers_and_only_named_lessons_are_exported(view):
    book = gradebooks.Gradebook({"02_one_row": "Lesson 2: one row (4567)"},
                                {"01_qkv": 5.0, "02_one_row": 12.0})
    rows = _rows(gradebooks.canvas_csv(view, book))
    # "Name (id)" is how Canvas matches an existing assignment: kept as written
    assert rows[0][5:] == ["Lesson 2: one row (4567)"]
    assert rows[1][5:] == ["12"]  # the lesson's maximum from the course, not from the JSON
    assert _cells(rows[2:], 3, 5) == {"ana": ["4"], "ben": ["0"], "cem": [""], "dan": [""]}
    assert _rows(gradebooks.moodle_csv(view, book))[0] == [
        "Username", "Full name", "Lesson 2: one row (4567)"]


def test_a_named_lesson_nobody_handed_in_is_still_a_column(view):
    book = gradebooks.Gradebook({"03_scaling": "Lesson 3"}, {"03_scaling": 11.0})
    rows = _rows(gradebooks.canvas_csv(view, book))
    assert rows[0][5:] == ["Lesson 3"] and rows[1][5:] == ["11"]
    assert all(row[5:] == [""] for row in rows[2:])


def test_assignment_names_from_the_command_line_and_from_a_csv(tmp_path):
    assert gradebooks.parse_assignment('02_one_row=Lesson 2: one row') == (
        "02_one_row", "Lesson 2: one row")
    with pytest.raises(ValueError, match="expected LESSON=NAME"):
        gradebooks.parse_assignment("02_one_row")
    names = tmp_path / "names.csv"
    names.write_text('lesson,name\n01_qkv,"Lesson 1: Q, K and V"\n\n02_one_row,Lesson 2\n',
                     encoding="utf-8")
    assert gradebooks.read_assignments(names) == {"01_qkv": "Lesson 1: Q, K and V",
                                                  "02_one_row": "Lesson 2"}
    names.write_text("01_qkv,Lesson 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="header `lesson,name`"):
        gradebooks.read_assignments(names)


def test_a_name_for_no_lesson_or_two_lessons_under_one_name_is_refused():
    maxima = {"01_qkv": 5.0, "02_one_row": 4.0}
    with pytest.raises(ValueError, match="02_one_rwo, which is no lesson"):
        gradebooks.Gradebook({"02_one_rwo": "Lesson 2"}, maxima)
    with pytest.raises(ValueError, match="both named 'Lesson'"):
        gradebooks.Gradebook({"01_qkv": "Lesson", "02_one_row": "Lesson"}, maxima)


# --- the maxima ---------------------------------------------------------------------------------


def _points_in_solution(lesson: str) -> float:
    """A lesson's maximum read straight from its solution's JSON: its check cells' points."""
    nb = json.loads((ROOT / "solutions" / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    return sum(c["metadata"]["points"] for c in nb["cells"]
               if "check" in c["metadata"].get("tags", []))


def test_maxima_prints_each_lessons_maximum_from_the_solutions(capsys):
    assert command.main(["--maxima", "--assignment", "02_one_row=Lesson 2"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "| lesson | gradebook name | maximum | exercises |"
    assert len(table) == 3  # only the named lesson
    assert table[2].startswith(f"| 02_one_row | Lesson 2 | {_points_in_solution('02_one_row'):g} |")
    assert command.main(["--maxima"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    lessons = sorted(p.stem for p in (ROOT / "solutions").glob("*.ipynb"))
    assert [r.split(" | ")[0].strip("| ") for r in rows] == lessons
    assert [float(r.split(" | ")[2]) for r in rows] == [_points_in_solution(s) for s in lessons]


def test_the_command_line_names_assignments_and_refuses_an_unknown_lesson(tmp_path, capsys):
    report = tmp_path / "class.json"
    report.write_text(json.dumps(CLASS), encoding="utf-8")
    canvas = tmp_path / "canvas.csv"
    assert command.main([str(report), "--from-json", "--canvas", str(canvas), "--missing",
                         "zero", "--assignment", "02_one_row=Lesson 2"]) == 3  # dan's regrade
    rows = _rows(canvas.read_text(encoding="utf-8"))
    assert rows[0][5:] == ["Lesson 2"]
    assert rows[1][5:] == [f"{_points_in_solution('02_one_row'):g}"]
    assert _cells(rows[2:], 3, 5) == {"ana": ["4"], "ben": ["0"], "dan": ["0"]}
    capsys.readouterr()
    assert command.main([str(report), "--from-json", "--canvas", str(canvas),
                         "--assignment", "2_one_row=Lesson 2"]) == 2
    assert "2_one_row, which is no lesson" in capsys.readouterr().err


def test_a_submission_not_on_the_roster_stays_out_of_the_lms_exports():
    # zoe matched no one on the roster: Canvas and Moodle have no login to match her by
    data = json.loads(json.dumps(CLASS))
    data["notebooks"].append(_notebook("zoe", "02_one_row", _exercise("ex1", 4, 4)))
    view = build(data, ROSTER)
    assert "zoe" in view.students and gradebooks.left_out(view) == ["zoe"]
    canvas = _cells(_rows(gradebooks.canvas_csv(view))[2:], 3, 5)
    moodle = _cells(_rows(gradebooks.moodle_csv(view))[1:], 0, 2)
    assert set(canvas) == set(moodle) == set(ROSTER)
    without_roster = build(data)  # no roster: every submitter is exported
    assert "zoe" in _cells(_rows(gradebooks.canvas_csv(without_roster))[2:], 3, 5)
