"""What did my class get wrong? The class report and the gradebook exports (issue 12).

One grader run on a class of 14 students (13 on the roster, one of whom handed nothing in, and
one who is not on it) across 3 lessons, with the named mistakes learners make, a lesson handed
in twice and a file named like no lesson (tests/class_fixture.py). Every number the report and
the exports show is checked against the grader's JSON, counted here without helpers.grade's
class view; the report is opened in Chromium.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from class_fixture import ABSENT, LESSONS, STUDENTS, UNLISTED, write_class

from notebook_files import ROOT

SCREENSHOT = (ROOT / "docs" / "screenshots" / "class-report.png"
              if os.environ.get("REFRESH_SCREENSHOTS") == "1" else None)


def _grade(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "helpers.grade", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("class")
    klass, roster = write_class(base)
    out = base / "out"
    out.mkdir()
    run = _grade(klass, "--roster", roster, "--jobs", 2, "--json", out / "class.json",
                 "--report", out / "class.html", "--csv", out / "students.csv",
                 "--csv-layout", "students", "--canvas", out / "canvas.csv",
                 "--moodle", out / "moodle.csv")
    data = json.loads((out / "class.json").read_text(encoding="utf-8"))
    return {"run": run, "data": data, "out": out, "roster": roster, "base": base,
            "html": (out / "class.html").read_text(encoding="utf-8")}


# --- what the JSON says, counted here ----------------------------------------------------------


def counted(data) -> dict[tuple[str, str], dict]:
    """(student, lesson) -> the notebook that counts: the best one of a student's copies."""
    best: dict[tuple[str, str], dict] = {}
    for nb in data["notebooks"]:
        if nb["lesson"] is None:
            continue
        key = (nb["student"], nb["lesson"])
        if key not in best or nb["earned"] > best[key]["earned"]:
            best[key] = nb
    return best


def passed_counts(data) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for (_, lesson), nb in counted(data).items():
        for e in nb["exercises"]:
            counts[f"{lesson} {e['id']}"] += e["status"] == "passed"
    return counts


def misconception_counts(data) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for (_, lesson), nb in counted(data).items():
        for e in nb["exercises"]:
            if e["outcome"] == "failed":
                counts[(f"{lesson} {e['id']}", e["diagnosis"])] += 1
    return counts


def totals(data) -> dict[str, float]:
    out: dict[str, float] = defaultdict(float)
    for (student, _), nb in counted(data).items():
        out[student] += nb["earned"]
    return out


# --- the JSON --------------------------------------------------------------------------------


def test_every_notebook_names_its_student_and_every_failure_its_diagnosis(graded):
    data = graded["data"]
    students = {nb["student"] for nb in data["notebooks"] if nb["lesson"]}
    assert students == {s for s, _ in STUDENTS if s != ABSENT} | {UNLISTED}
    failed = [e for nb in data["notebooks"] for e in nb["exercises"] if e["outcome"] == "failed"]
    assert failed and all(re.fullmatch(r"[a-z_]+\.[a-z0-9-]+", e["diagnosis"]) for e in failed)
    others = [e for nb in data["notebooks"] for e in nb["exercises"] if e["outcome"] != "failed"]
    assert all(e["diagnosis"] is None for e in others)


def test_the_run_fails_because_a_file_matched_no_lesson(graded):
    assert graded["run"].returncode == 1, graded["run"].stderr
    unmatched = [nb for nb in graded["data"]["notebooks"] if nb["unmatched"]]
    assert [Path(nb["path"]).name for nb in unmatched] == ["Copy of 01_qkv.ipynb"]
    assert "Its cells are those of 01_qkv" in unmatched[0]["unmatched"]


def test_the_terminal_shows_the_class_with_the_missing_and_the_duplicate(graded):
    out = graded["run"].stdout
    assert f"On the roster, nothing handed in: {ABSENT}." in out
    assert f"Not on the roster: {UNLISTED}." in out
    assert "ben handed in 02_one_row 2 times; the best one counts" in out


# --- the report ------------------------------------------------------------------------------


def _cells(html: str, attribute: str) -> dict[str, str]:
    return dict(re.findall(rf'{attribute}="([^"]+)" data-passed="(\d+)"', html))


def test_the_report_grid_has_every_student_with_the_totals_of_the_json(graded):
    html, want = graded["html"], totals(graded["data"])
    rows = re.findall(r'<tr data-student="([^"]+)">\s*<th class="who">.*?</th>\s*'
                      r'<td class="total" data-value="([^"]+)"', html, re.S)
    assert [s for s, _ in rows] == sorted([s for s, _ in STUDENTS] + [UNLISTED])
    for student, value in rows:
        assert float(value) == want.get(student, 0.0), student


def test_the_report_pass_rates_are_the_jsons(graded):
    shown = {k: int(v) for k, v in _cells(graded["html"], 'class="rate" data-exercise').items()}
    assert shown == dict(passed_counts(graded["data"]))


def test_the_report_counts_each_misconception_as_the_json_does(graded):
    html = graded["html"]
    shown = {}
    for exercise, body in re.findall(r'<article class="exercise" data-exercise="([^"]+)">(.*?)'
                                     r"</article>", html, re.S):
        for diagnosis, count in re.findall(r'data-diagnosis="([^"]+)" data-count="(\d+)"', body):
            shown[(exercise, diagnosis)] = int(count)
    assert shown == dict(misconception_counts(graded["data"]))
    assert shown, "the class made no named mistake: the fixture is wrong"


def test_the_class_ranking_counts_students_across_exercises(graded):
    ranked = re.search(r'<table class="wrong" id="ranked">(.*?)</table>', graded["html"], re.S)
    rows = re.findall(r'data-diagnosis="([^"]+)" data-count="(\d+)"', ranked.group(1))
    students: dict[str, set] = defaultdict(set)
    for (student, _), nb in counted(graded["data"]).items():
        for e in nb["exercises"]:
            if e["outcome"] == "failed":
                students[e["diagnosis"]].add(student)
    assert {d: int(c) for d, c in rows} == {d: len(s) for d, s in students.items()}
    counts = [int(c) for _, c in rows]
    assert counts == sorted(counts, reverse=True)


def test_every_misconception_links_to_a_section_of_its_lesson(graded):
    links = re.findall(r'<a href="(notebooks/[^"]+)">', graded["html"])
    assert links
    for link in links:
        notebook, _, anchor = link.partition("#")
        assert (ROOT / notebook).exists(), link
        assert Path(notebook).stem in LESSONS


def test_the_report_lists_the_missing_the_duplicate_and_the_unmatched(graded):
    html = graded["html"]
    missing = re.search(r'<ul id="missing">(.*?)</ul>', html, re.S).group(1)
    assert f"<li>{ABSENT} (" in missing
    assert UNLISTED in re.search(r'<ul id="not-on-roster">(.*?)</ul>', html, re.S).group(1)
    duplicates = re.search(r'<ul id="duplicates">(.*?)</ul>', html, re.S).group(1)
    assert "02_one_row-again.ipynb" in duplicates and "counts" in duplicates
    assert "Copy of 01_qkv.ipynb" in re.search(r'<ul id="unmatched">(.*?)</ul>', html,
                                               re.S).group(1)


def test_the_report_is_self_contained(graded):
    html = graded["html"]
    assert not re.search(r'(src|href)="(https?:)?//', html), "the report loads from the network"
    assert "<svg" in html  # the charts are inline


def test_item_statistics_are_difficulty_and_item_rest_correlation(graded):
    data = graded["data"]
    best = counted(data)
    students = sorted({s for s, _ in best})
    row = re.search(r'<tr data-exercise="02_one_row ex1">.*?</tr>', graded["html"], re.S).group(0)
    difficulty, discrimination = re.findall(r'data-value="([^"]*)"', row)
    took = [s for s in students if (s, "02_one_row") in best]

    def score(s, exercise=None):
        return sum(e["earned"] for (who, lesson), nb in best.items() if who == s
                   for e in nb["exercises"] if (lesson, e["id"]) != exercise)

    item = [float(next(e for e in best[(s, "02_one_row")]["exercises"] if e["id"] == "ex1")
                  ["status"] == "passed") for s in took]
    rest = [score(s, ("02_one_row", "ex1")) for s in took]
    assert float(difficulty) == pytest.approx(sum(item) / len(item))
    n = len(item)
    mx, my = sum(item) / n, sum(rest) / n
    r = sum((a - mx) * (b - my) for a, b in zip(item, rest, strict=True)) / (
        sum((a - mx) ** 2 for a in item) * sum((b - my) ** 2 for b in rest)) ** 0.5
    assert float(discrimination) == pytest.approx(r)


# --- exports ---------------------------------------------------------------------------------


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_the_per_student_csv_has_a_row_per_student_and_a_column_per_lesson(graded):
    rows = _rows(graded["out"] / "students.csv")
    header, body = rows[0], rows[1:]
    assert header[:4] == ["student", "name", "points", "possible"]
    assert [h.split(" (")[0] for h in header[4:4 + len(LESSONS)]] == list(LESSONS)
    want = totals(graded["data"])
    assert {r[0]: float(r[2]) for r in body} == {
        s: want.get(s, 0.0) for s in [s for s, _ in STUDENTS] + [UNLISTED]}
    absent = next(r for r in body if r[0] == ABSENT)
    assert absent[-1] == "; ".join(LESSONS)


def test_the_canvas_export_is_canvass_import_layout(graded):
    rows = _rows(graded["out"] / "canvas.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *LESSONS]
    assert rows[1][0] == "Points Possible" and all(float(x) > 0 for x in rows[1][5:])
    by_login = {r[3]: r for r in rows[2:]}
    best = counted(graded["data"])
    for (student, lesson), nb in best.items():
        assert float(by_login[student][5 + LESSONS.index(lesson)]) == nb["earned"]


def test_the_moodle_export_has_a_username_and_a_column_per_lesson(graded):
    rows = _rows(graded["out"] / "moodle.csv")
    assert rows[0] == ["Username", "Full name", *LESSONS]
    assert {r[0] for r in rows[1:]} == {s for s, _ in STUDENTS} | {UNLISTED}


# --- from the classroom workflow's artifacts, and regrading ---------------------------------


def test_one_json_per_student_gives_the_same_report(graded, tmp_path):
    """The classroom workflow grades one student per job; its artifacts are one grades.json
    each. Built from a folder of them, without grading again, the report is the same."""
    by_student = defaultdict(list)
    for nb in graded["data"]["notebooks"]:
        by_student[nb["student"] or "none"].append(nb)
    for student, notebooks in by_student.items():
        folder = tmp_path / "artifacts" / f"grades-{student}"
        folder.mkdir(parents=True)
        (folder / "grades.json").write_text(json.dumps({"total": {}, "notebooks": notebooks}))
    run = _grade(tmp_path / "artifacts", "--from-json", "--roster", graded["roster"],
                 "--report", tmp_path / "again.html")
    assert run.returncode == 1, run.stderr  # the unmatched file is still there
    again = (tmp_path / "again.html").read_text(encoding="utf-8")

    def numbers(html):
        return re.findall(r'data-(?:value|passed|count)="([^"]*)"', html)

    assert numbers(again) == numbers(graded["html"])


def test_compare_lists_whose_score_changed_and_why(graded, tmp_path):
    data = json.loads(json.dumps(graded["data"]))
    nb = next(nb for nb in data["notebooks"] if nb["student"] == "lea"
              and nb["lesson"] == "02_one_row")
    exercise = next(e for e in nb["exercises"] if e["status"] == "passed")
    points = exercise["earned"]
    exercise.update(status="failed", outcome="failed", earned=0, diagnosis="one_row.scale-missing")
    nb["earned"] -= points  # the run before: lea failed it
    previous = tmp_path / "previous.json"
    previous.write_text(json.dumps(data))
    run = _grade(graded["out"] / "class.json", "--from-json", "--compare", previous)
    assert "### Changed since" in run.stdout
    assert (f"| lea | 02_one_row {exercise['id']} | failed (0) | passed ({points:g}) |"
            in run.stdout), run.stdout
    assert "1 change for 1 student." in run.stdout


def test_bad_input_says_what_was_expected(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("first,last\nAna,Lima\n")
    run = _grade(ROOT / "exercises", "--roster", roster)
    assert run.returncode == 2 and "no student id column" in run.stderr
    not_json = tmp_path / "grades.json"
    not_json.write_text("[1, 2]")
    run = _grade(not_json, "--from-json", "--report", tmp_path / "r.html")
    assert run.returncode == 2 and "not a grading report" in run.stderr


# --- in the browser --------------------------------------------------------------------------


def test_the_report_opens_in_chromium_without_errors_and_shows_the_jsons_numbers(graded):
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        if os.environ.get("CI"):
            pytest.fail("no /usr/bin/chromium: apt-get install chromium")
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    errors = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium),
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto((graded["out"] / "class.html").as_uri())
            shown = page.eval_on_selector_all(
                "#students tbody tr", "rows => rows.map(r => [r.dataset.student, "
                "r.querySelector('td.total').dataset.value])")
            cells = page.locator("#students td.cell").count()
            if SCREENSHOT is not None:
                page.screenshot(path=str(SCREENSHOT))
        finally:
            browser.close()
    assert errors == []
    want = totals(graded["data"])
    assert {s: float(v) for s, v in shown} == {
        s: want.get(s, 0.0) for s in [s for s, _ in STUDENTS] + [UNLISTED]}
    exercises = sum(len(nb["exercises"]) for nb in counted(graded["data"]).values())
    assert cells >= exercises
