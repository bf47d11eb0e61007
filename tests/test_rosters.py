"""Rosters (helpers.grade.rosters): GitHub Classroom's export and `id,name`, and how each
submission (a folder, a repository `<assignment>-<username>`, a file name) is matched to the
roster's id, which the reports and gradebooks then use. No grading here: the command runs
from a grading JSON (--from-json)."""

from __future__ import annotations

import json

import pytest

from helpers.grade import classview, command, rosters

CLASSROOM = ("identifier,github_username,github_id,name\n"
             "s1001@uni.edu,ben,583231,Ben Okafor\n"
             "s1002@uni.edu,a-ben,583232,Abena Mensah\n"
             "s1003@uni.edu,AnaLima,583233,Ana Lima\n"
             "s1004@uni.edu,,,Cy Not-Linked\n")


def _roster(tmp_path, text, name="roster.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return rosters.read_roster(path)


def _grading_json(students) -> dict:
    return {"total": {"earned": 2, "possible": 4, "all_passed": False, "seed": 1},
            "notebooks": [{"path": f"{s}/02_one_row.ipynb", "lesson": "02_one_row",
                           "earned": 1, "possible": 2, "student": s, "unmatched": None,
                           "exercises": [{"id": "ex1", "title": "t", "points": 2, "earned": 1,
                                          "status": "failed", "outcome": "failed",
                                          "message": "m", "diagnosis": None}]}
                          for s in students]}


def test_github_classrooms_export_maps_repositories_to_the_identifier(tmp_path):
    roster = _roster(tmp_path, CLASSROOM)
    assert roster.identify("attention-course-ben") == "s1001@uni.edu"
    assert roster.identify("attention-course-analima") == "s1003@uni.edu"  # case aside
    assert roster.identify("AnaLima") == "s1003@uni.edu"
    assert roster.identify("s1004@uni.edu") == "s1004@uni.edu"
    assert roster.identify("attention-course-zoe") is None
    assert roster.names["s1001@uni.edu"] == "Ben Okafor"
    assert roster.github == {"s1001@uni.edu": "ben", "s1002@uni.edu": "a-ben",
                             "s1003@uni.edu": "AnaLima", "s1004@uni.edu": ""}


def test_of_two_usernames_a_repository_ends_with_the_longest_wins(tmp_path):
    roster = _roster(tmp_path, CLASSROOM)
    assert roster.identify("attention-course-a-ben") == "s1002@uni.edu"
    assert roster.identify("attention-course-ben") == "s1001@uni.edu"
    assert roster.identify("a-ben") == "s1002@uni.edu"


def test_an_id_name_roster_still_works_and_its_ids_are_the_usernames(tmp_path):
    roster = _roster(tmp_path, "id,name\nana,Ana Lima\nben,Ben Okafor\n")
    assert dict(roster) == {"ana": "Ana Lima", "ben": "Ben Okafor"}
    assert roster.identify("ana") == "ana"
    assert roster.identify("attention-course-ben") == "ben"


def test_a_login_column_is_the_id_and_the_classroom_identifier_still_matches(tmp_path):
    roster = _roster(tmp_path, "identifier,github_username,lms_login,name\n"
                               "Ben Okafor,ben,bokafor,Ben\n")
    assert list(roster) == ["bokafor"]
    assert roster.identify("Ben Okafor") == roster.identify("hw-ben") == "bokafor"


def test_a_semicolon_roster_from_a_spreadsheet_is_read(tmp_path):
    roster = _roster(tmp_path, "\ufeffID;Name\nana;Ana Lima\n")
    assert dict(roster) == {"ana": "Ana Lima"}


@pytest.mark.parametrize("text, says", [
    ("first,last\nAna,Lima\n", "no student id column; expected a header with an id column "
     "(one of: lms_login, login, identifier, id, student, username, email), and optionally "
     "github_username and name"),
    ("first,last\nAna,Lima\n", "(found: first, last)"),
    ("", "the roster is empty"),
    ("id,name\nana,Ana\nana,Ana Lima\n", "line 3: ana is on the roster twice"),
    ("identifier,github_username\nx@uni.edu,ana\ny@uni.edu,Ana\n", "Ana names two students"),
    ("id,name\n,Ana\n", "its column id is empty in every row"),
])
def test_a_bad_roster_says_which_columns_were_expected_and_found(tmp_path, text, says):
    with pytest.raises(ValueError) as error:
        _roster(tmp_path, text)
    assert says in str(error.value)


def test_a_report_is_put_under_the_roster_ids_keeping_what_was_handed_in(tmp_path):
    roster = _roster(tmp_path, CLASSROOM)
    data = _grading_json(["attention-course-ben", "zoe", ""])
    assert roster.assign(data) == ["(no name)", "zoe"]
    who = [(nb["student"], nb["submitted_as"]) for nb in data["notebooks"]]
    assert who == [("s1001@uni.edu", "attention-course-ben"), ("zoe", "zoe"), ("", "")]
    assert roster.assign(data) == ["(no name)", "zoe"]  # a report read again: the same
    assert [(nb["student"], nb["submitted_as"]) for nb in data["notebooks"]] == who
    view = classview.build(data, roster)
    assert view.names["s1001@uni.edu"] == "Ben Okafor"
    assert view.not_on_roster == ["(no name)", "zoe"]
    assert "s1002@uni.edu" in view.missing


def test_the_command_reports_under_roster_ids_and_lists_who_matched_no_one(tmp_path, capsys):
    (tmp_path / "grades.json").write_text(json.dumps(_grading_json(
        ["attention-course-ben", "attention-course-zoe"])))
    (tmp_path / "roster.csv").write_text(CLASSROOM)
    out = tmp_path / "out.json"
    assert command.main([str(tmp_path / "grades.json"), "--from-json", "--roster",
                         str(tmp_path / "roster.csv"), "--json", str(out),
                         "--canvas", str(tmp_path / "canvas.csv")]) == 1
    terminal = capsys.readouterr().out
    assert "matched no one on the roster: attention-course-zoe" in terminal
    records = json.loads(out.read_text())["notebooks"]
    assert [(r["student"], r["submitted_as"]) for r in records] == [
        ("s1001@uni.edu", "attention-course-ben"),
        ("attention-course-zoe", "attention-course-zoe")]
    canvas = (tmp_path / "canvas.csv").read_text()
    assert "Ben Okafor,,,s1001@uni.edu," in canvas  # Canvas's SIS Login ID: the identifier


def test_a_bad_roster_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "roster.csv").write_text("first,last\nAna,Lima\n")
    (tmp_path / "grades.json").write_text(json.dumps(_grading_json(["ana"])))
    assert command.main([str(tmp_path / "grades.json"), "--from-json", "--roster",
                         str(tmp_path / "roster.csv")]) == 2
    assert "no student id column" in capsys.readouterr().err


def test_a_regrade_of_one_student_lists_only_that_student_not_the_class_as_missing():
    from helpers.grade.command import _roster_of_run

    roster = {"s1": "Ana", "s2": "Ben", "s3": "Cem"}
    one = {"notebooks": [{"student": "s1"}, {"student": "s1"}]}
    two = {"notebooks": [{"student": "s1"}, {"student": "s2"}]}
    assert _roster_of_run(roster, one, from_json=False) == {"s1": "Ana"}
    assert _roster_of_run(roster, two, from_json=False) == roster  # a class: all of it
    assert _roster_of_run(roster, one, from_json=True) == roster  # artifacts: the class
    assert _roster_of_run(roster, {"notebooks": [{"student": "zoe"}]}, False) == roster
    assert _roster_of_run(None, one, from_json=False) is None
