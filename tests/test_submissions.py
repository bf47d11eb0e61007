"""Which lesson a handed-in notebook is, and whose it is (helpers.grade.submissions).

Every lesson's cells have the same ids (ex1-answer, ex1-check...), so a notebook is known by
the lesson its metadata names (written by helpers.grade.exercises) or, in one made before
that, by its check cells' sources; its file name counts when the notebook says nothing. No
kernel starts here: these read files and the grader's report records.
"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from helpers.grade import submissions
from helpers.grade.exercises import make_exercise, metadata_lesson
from helpers.grade.grader import Report
from helpers.grade.lessons import SOLUTIONS, UsageError, load_lessons
from helpers.grade.reports import format_table, to_json

from notebook_files import ROOT, read

LESSONS = load_lessons([SOLUTIONS])
EXERCISE = read(ROOT / "exercises" / "02_one_row.ipynb")


def _made_before_metadata(nb):
    """The notebook as the generator wrote it before the lesson's name went into metadata."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("course", None)
    return nb


def _write(path: Path, nb) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


# --- the lesson ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((ROOT / "exercises").glob("*.ipynb")),
                         ids=lambda p: p.stem)
def test_every_exercise_notebook_names_its_lesson_in_its_metadata(path):
    assert read(path).metadata["course"] == {"lesson": path.stem}


def test_the_generator_names_the_lesson_of_a_solution_read_from_anywhere():
    assert metadata_lesson(make_exercise(read(SOLUTIONS / "04_masks.ipynb"))) == "04_masks"
    assert metadata_lesson(make_exercise(new_notebook(cells=[new_code_cell("1")]))) is None


COPY_NAMES = ["Copy of 02_one_row.ipynb", "02_one_row (1).ipynb", "02_one_row copy.ipynb",
              "Kopie von 02_one_row.ipynb", "02_one_row-Copy1.ipynb",
              "02_one_row - Copy (2).ipynb", "Copy of 02_one_row (3).ipynb"]


@pytest.mark.parametrize("name", COPY_NAMES)
def test_a_copy_is_graded_as_the_lesson_its_metadata_names_with_a_note(tmp_path, name):
    found = submissions.identify(_write(tmp_path / name, EXERCISE), LESSONS)
    assert found.lesson.name == "02_one_row"
    assert found.note == (f"graded as 02_one_row: its metadata names that lesson "
                          f"(file name {name!r})")
    assert submissions.student_in_name(tmp_path / name, LESSONS) == ""  # not "(1)", "copy"


@pytest.mark.parametrize("name", ["Copy of 02_one_row.ipynb", "Untitled.ipynb"])
def test_a_notebook_made_before_the_metadata_is_known_by_its_check_cells(tmp_path, name):
    """Its ids are those of every lesson: the first lesson, 01_qkv, used to win the tie."""
    found = submissions.identify(_write(tmp_path / name, _made_before_metadata(EXERCISE)),
                                 LESSONS)
    assert found.lesson.name == "02_one_row"
    assert found.note == (f"graded as 02_one_row: 5 of its cells are that lesson's 5 check "
                          f"cells (file name {name!r})")


def test_a_notebook_named_after_one_lesson_holding_another_is_graded_as_what_it_holds(tmp_path):
    """Its cells are what is graded: against 01_qkv's checks every exercise would fail."""
    found = submissions.identify(_write(tmp_path / "01_qkv-ana.ipynb", EXERCISE), LESSONS)
    assert found.lesson.name == "02_one_row"
    assert found.note == ("graded as 02_one_row, not 01_qkv as its file name "
                          "'01_qkv-ana.ipynb' says: its metadata names that lesson")
    assert submissions.student_in_name(tmp_path / "01_qkv-ana.ipynb", LESSONS) == "ana"


def test_check_cells_outweigh_metadata_naming_a_lesson_whose_checks_are_all_gone(tmp_path):
    """01_qkv's notebook "saved as" a new one, then filled with 02_one_row's cells."""
    nb = copy.deepcopy(EXERCISE)
    nb.metadata["course"] = {"lesson": "01_qkv"}
    found = submissions.identify(_write(tmp_path / "02_one_row.ipynb", nb), LESSONS)
    assert found.lesson.name == "02_one_row"
    assert found.note is None  # its name and its cells agree
    kept = copy.deepcopy(nb)  # one of 01_qkv's checks still there: the metadata counts
    kept.cells.append(new_code_cell(LESSONS["01_qkv"].exercises[0].source))
    assert submissions.identify(_write(tmp_path / "x.ipynb", kept), LESSONS).lesson.name == \
        "01_qkv"


def test_the_name_decides_when_the_notebook_says_nothing(tmp_path):
    nb = _made_before_metadata(EXERCISE)
    nb.cells = [c for c in nb.cells if "check" not in c.metadata.get("tags", [])]
    plain = submissions.identify(_write(tmp_path / "02_one_row-ana.ipynb", nb), LESSONS)
    assert (plain.lesson.name, plain.note) == ("02_one_row", None)
    copied = submissions.identify(_write(tmp_path / "02_one_row (1).ipynb", nb), LESSONS)
    assert copied.lesson.name == "02_one_row" and "marks of a copy" in copied.note
    not_a_notebook = tmp_path / "03_scaling.ipynb"
    not_a_notebook.write_text("not JSON")  # graded as named: the grader says it is unreadable
    assert submissions.identify(not_a_notebook, LESSONS).lesson.name == "03_scaling"


def test_a_notebook_of_no_lesson_is_unmatched_with_what_it_looks_like(tmp_path):
    nb = _made_before_metadata(EXERCISE)
    nb.cells = [c for c in nb.cells if "check" not in c.metadata.get("tags", [])]
    setup_only = submissions.identify(_write(tmp_path / "notes.ipynb", nb), LESSONS)
    assert setup_only.lesson is None and setup_only.looks_like == "02_one_row"
    assert "It looks most like 02_one_row" in setup_only.why
    scratch = new_notebook(cells=[new_code_cell("print('hello')")])
    numbered = submissions.identify(_write(tmp_path / "lesson 4.ipynb", scratch), LESSONS)
    assert (numbered.lesson, numbered.looks_like) == (None, "04_masks")
    nothing = submissions.identify(_write(tmp_path / "Untitled1.ipynb", scratch), LESSONS)
    assert (nothing.lesson, nothing.looks_like) == (None, None)
    assert nothing.why.startswith("not graded: neither its name nor its metadata nor its check")


def test_a_single_file_of_no_lesson_is_a_usage_error_and_a_copy_is_graded(tmp_path):
    scratch = _write(tmp_path / "scratch.ipynb", new_notebook(cells=[new_code_cell("1")]))
    with pytest.raises(UsageError, match="matches no lesson"):
        submissions.find_submissions([scratch], LESSONS)
    copied = _write(tmp_path / "Copy of 02_one_row.ipynb", EXERCISE)
    assert [lesson.name for _, lesson in
            submissions.find_submissions([copied], LESSONS).pairs] == ["02_one_row"]


def test_the_json_and_the_table_carry_the_note_the_student_and_the_look_alike(tmp_path):
    folder = tmp_path / "class" / "ben"
    _write(folder / "Copy of 02_one_row.ipynb", EXERCISE)
    _write(folder / "lesson 4.ipynb", new_notebook(cells=[new_code_cell("1")]))
    found = submissions.find_submissions([tmp_path / "class"], LESSONS)
    (path, lesson), = found.pairs
    (lost, why), = found.unmatched
    reports = [Report(path, lesson, []), Report(lost, None, [], unmatched=why)]
    found.label(reports)
    graded, unmatched = to_json(reports)["notebooks"]
    assert graded["note"] == ("graded as 02_one_row: its metadata names that lesson "
                              "(file name 'Copy of 02_one_row.ipynb')")
    assert (graded["student"], graded["looks_like"]) == ("ben", None)
    assert (unmatched["student"], unmatched["looks_like"], unmatched["lesson"]) == (
        "ben", "04_masks", None)
    assert f"Note: {graded['note']}." in format_table(reports)


# --- the student -----------------------------------------------------------------------------


def _students(tmp_path, files, graded) -> dict[str, str]:
    for name in files:
        _write(tmp_path / name, EXERCISE)
    found = submissions.find_submissions([tmp_path / graded], LESSONS)
    return {s.path.resolve().relative_to(tmp_path.resolve()).as_posix(): s.student
            for s in found.submissions}


def test_a_class_folder_names_each_student_after_their_folder(tmp_path):
    assert _students(tmp_path, ["class/ana/02_one_row.ipynb",
                                "class/ben/exercises/02_one_row.ipynb"], "class") == {
        "class/ana/02_one_row.ipynb": "ana", "class/ben/exercises/02_one_row.ipynb": "ben"}


@pytest.mark.parametrize("layout", ["", "exercises/"])
def test_one_students_folder_names_the_student_after_it(tmp_path, layout):
    """`python -m helpers.grade class/ben` regrades one student; -again is ben's second try."""
    files = [f"class/ben/{layout}02_one_row.ipynb", f"class/ben/{layout}02_one_row-again.ipynb"]
    assert set(_students(tmp_path, files, "class/ben").values()) == {"ben"}


def test_classroom_clones_are_named_after_the_repository(tmp_path):
    clone = "submissions/attention-course-ben/exercises/02_one_row.ipynb"
    assert _students(tmp_path, [clone], "submissions") == {clone: "attention-course-ben"}
    assert _students(tmp_path, [clone], "submissions/attention-course-ben") == {
        clone: "attention-course-ben"}


def test_an_exercises_folder_is_a_students_own_repository_with_no_student(tmp_path):
    assert _students(tmp_path, ["exercises/02_one_row.ipynb"], "exercises") == {
        "exercises/02_one_row.ipynb": ""}


def test_lesson_files_name_their_students(tmp_path):
    files = ["class/02_one_row-ana.ipynb", "class/01_qkv-ben.ipynb"]
    assert _students(tmp_path, files, "class") == {
        "class/02_one_row-ana.ipynb": "ana", "class/01_qkv-ben.ipynb": "ben"}


def test_the_student_option_names_every_notebook(tmp_path):
    _write(tmp_path / "class" / "ben" / "02_one_row.ipynb", EXERCISE)
    found = submissions.find_submissions([tmp_path / "class"], LESSONS)
    reports = [Report(path, lesson, []) for path, lesson in found.pairs]
    found.label(reports, student="attention-course-ben")
    assert [r.student for r in reports] == ["attention-course-ben"]
