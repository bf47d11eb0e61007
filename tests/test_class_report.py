"""What did my class get wrong? The class report and the gradebook exports (issue 12).

One grader run on a class of 14 students (13 on the roster, one of whom handed nothing in, and
one who is not on it) across 3 lessons, with the named mistakes learners make, a lesson handed
in twice and a file named like no lesson (tests/class_fixture.py). Every number the report and
the exports show is checked against the grader's JSON, counted here without helpers.grade's
class view; the report is opened in Chromium. What the class did not show (an exercise nobody
attempted, a mistake made only in a superseded submission, a file matching no lesson that
looks like one) is checked on small JSON reports written here, without grading.
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

from helpers.grade import classreport, classview, pages

from notebook_files import ROOT

SCREENSHOT = (ROOT / "docs" / "screenshots" / "class-report.png"
              if os.environ.get("REFRESH_SCREENSHOTS") == "1" else None)


def _grade(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "helpers.grade", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=900)


DRAFT = "draft.ipynb"  # lea's: no name, metadata or check cell ties it to a lesson


def _write_draft(klass: Path) -> Path:
    """lea skipped lesson 01; her unfinished copy of it, checks deleted, saved as draft.ipynb:
    a file no lesson matches, whose setup cells look like 01_qkv."""
    import nbformat

    from helpers.grade.exercises import COURSE_METADATA, is_check

    nb = nbformat.read(klass / "ana" / "exercises" / "01_qkv.ipynb", as_version=4)
    nb.cells = [c for c in nb.cells if not is_check(c)]
    nb.metadata.pop(COURSE_METADATA, None)
    path = klass / "lea" / "exercises" / DRAFT
    assert not (klass / "lea" / "exercises" / "01_qkv.ipynb").exists()
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("class")
    klass, roster = write_class(base)
    _write_draft(klass)
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


def misconception_students(data) -> dict[tuple[str, str], set[str]]:
    """(exercise, diagnosis) -> the students who made it, in any notebook they handed in (a
    superseded one too: a mistake fixed later is still one to reteach)."""
    who: dict[tuple[str, str], set[str]] = defaultdict(set)
    for nb in data["notebooks"]:
        for e in nb["exercises"]:
            if nb["lesson"] and e["outcome"] == "failed":
                who[(f"{nb['lesson']} {e['id']}", e["diagnosis"])].add(nb["student"])
    return who


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
    unmatched = {Path(nb["path"]).name: nb for nb in graded["data"]["notebooks"]
                 if nb["unmatched"]}
    assert DRAFT in unmatched
    assert unmatched[DRAFT]["student"] == "lea"
    assert unmatched[DRAFT].get("looks_like") in ("01_qkv", None)


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
    assert shown == {k: len(v) for k, v in misconception_students(graded["data"]).items()}
    assert shown, "the class made no named mistake: the fixture is wrong"


def test_the_class_ranking_counts_students_across_exercises(graded):
    ranked = re.search(r'<table class="wrong" id="ranked">(.*?)</table>', graded["html"], re.S)
    rows = re.findall(r'data-diagnosis="([^"]+)" data-count="(\d+)"', ranked.group(1))
    students: dict[str, set] = defaultdict(set)
    for (_, diagnosis), who in misconception_students(graded["data"]).items():
        students[diagnosis] |= who
    assert {d: int(c) for d, c in rows} == {d: len(s) for d, s in students.items()}
    counts = [int(c) for _, c in rows]
    assert counts == sorted(counts, reverse=True)


def test_every_misconception_links_to_its_section_in_the_reports_appendix(graded):
    """Relative links to notebooks/ broke once the report was saved elsewhere: every reteach
    link is now to a section copied into the report, headed by the lesson's own heading."""
    html = graded["html"]
    links = re.findall(r'<a class="reteach" href="#([^"]+)">', html)
    assert links and not re.search(r'href="[^"#]*notebooks/', html)
    sections = dict(re.findall(r'<article class="lesson-section" id="([^"]+)" '
                               r'data-lesson="([^"]+)"', html))
    for link in links:
        assert link in sections, link
        assert (ROOT / "notebooks" / f"{sections[link]}.ipynb").exists()


def test_the_report_lists_the_missing_the_duplicate_and_the_unmatched(graded):
    html = graded["html"]
    missing = re.search(r'<ul id="missing">(.*?)</ul>', html, re.S).group(1)
    assert f"<li>{ABSENT} (" in missing
    assert UNLISTED in re.search(r'<ul id="not-on-roster">(.*?)</ul>', html, re.S).group(1)
    duplicates = re.search(r'<ul id="duplicates">(.*?)</ul>', html, re.S).group(1)
    assert "02_one_row-again.ipynb" in duplicates and "counts" in duplicates
    assert DRAFT in re.search(r'<ul id="unmatched">(.*?)</ul>', html, re.S).group(1)
    lea = re.search(r'<tr data-student="lea">(.*?)</tr>', html, re.S).group(1)
    assert f"unmatched file: {DRAFT}" in lea  # in her row, not a blank as if nothing came


def test_the_report_is_self_contained(graded):
    html = graded["html"]
    loads = r'<(?:img|script|link|iframe|source|video|audio)\b[^>]*\b(?:src|href)="(?:https?:)?//'
    assert not re.search(loads, html), "the report loads from the network"
    assert not re.search(r"url\(['\"]?(?:https?:)?//", html)
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
    assert UNLISTED not in by_login  # not on the roster: no LMS login to match
    for (student, lesson), nb in best.items():
        if student != UNLISTED:
            assert float(by_login[student][5 + LESSONS.index(lesson)]) == nb["earned"]


def test_the_moodle_export_has_a_username_and_a_column_per_lesson(graded):
    rows = _rows(graded["out"] / "moodle.csv")
    assert rows[0] == ["Username", "Full name", *LESSONS]
    assert {r[0] for r in rows[1:]} == {s for s, _ in STUDENTS}  # the roster's, no one else


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
    assert (f"| lea | 02_one_row {exercise['id']} | failed (0 points) | passed "
            f"({points:g} point{'s' * (points != 1)}) |" in run.stdout), run.stdout
    assert "1 change for 1 student." in run.stdout


def test_regrading_one_student_compares_that_student_and_writes_the_changes(graded, tmp_path):
    """One student's folder regraded, compared with the class's JSON: only that student's
    lessons are compared (not everyone else as "not submitted"), and the changes are in the
    HTML report and the --json report too, not only on the terminal."""
    mine = [nb for nb in json.loads(json.dumps(graded["data"]["notebooks"]))
            if nb["student"] == "lea"]
    nb = next(nb for nb in mine if nb["lesson"] == "04_masks")
    exercise = next(e for e in nb["exercises"] if e["status"] == "passed")
    exercise.update(status="failed", outcome="failed", earned=0,
                    diagnosis="masks.reversed-causal")  # this run: a regression
    nb["earned"] -= exercise["points"]
    again = tmp_path / "lea.json"
    again.write_text(json.dumps({"total": {}, "notebooks": mine}))
    run = _grade(again, "--from-json", "--compare", graded["out"] / "class.json",
                 "--json", tmp_path / "out.json", "--report", tmp_path / "out.html")
    table = run.stdout.split("### Changed since", 1)[1].splitlines()
    rows = [line for line in table if line.startswith("| ") and not line.startswith(
        "| student")]
    points = exercise["points"]
    assert rows == [f"| lea | 04_masks {exercise['id']} | passed ({points:g} "
                    f"point{'s' * (points != 1)}) | failed (0 points) |"], run.stdout
    changes = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["changes"]
    assert changes["students"] == ["lea"] and changes["lessons"] == ["02_one_row", "04_masks"]
    assert changes["exercises"] == [{
        "student": "lea", "lesson": "04_masks", "exercise": exercise["id"],
        "before": {"status": "passed", "points": exercise["points"]},
        "now": {"status": "failed", "points": 0}}]
    html = (tmp_path / "out.html").read_text(encoding="utf-8")
    section = re.search(r'<section id="changes">(.*?)</section>', html, re.S).group(1)
    assert "Changed since" in section
    assert re.findall(r'<tr data-student="([^"]+)" data-exercise="([^"]+)">', section) == [
        ("lea", f"04_masks {exercise['id']}")]


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


def _chromium():
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        if os.environ.get("CI"):
            pytest.fail("no /usr/bin/chromium: apt-get install chromium")
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    return sync_api, chromium


def test_the_report_opens_in_chromium_without_errors_and_shows_the_jsons_numbers(graded):
    sync_api, chromium = _chromium()
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


def test_the_class_report_in_chinese_has_the_english_ones_ids_and_numbers(graded, tmp_path):
    """--language zh on the graded class: Chinese headings, <html lang="zh-CN">, and the ids and
    data-* attributes the English report has (what this file's tests and the browser read),
    the same in the same order; English stays the default (the report above)."""
    zh_path = tmp_path / "class-zh.html"
    run = _grade(graded["out"] / "class.json", "--from-json", "--roster", graded["roster"],
                 "--report", zh_path, "--language", "zh")
    assert run.returncode == 1, run.stderr  # the unmatched file, as in English
    zh, en = zh_path.read_text(encoding="utf-8"), graded["html"]
    assert '<html lang="zh-CN">' in zh and '<html lang="en">' in en
    assert "<h1>全班错在哪里？</h1>" in zh and "<h2>学生 × 练习</h2>" in zh
    assert "<h1>What did the class get wrong?</h1>" in en

    def attributes(page):
        page = re.sub(r"<svg.*?</svg>", "", page, flags=re.S)  # the charts' own ids
        return re.findall(r'\s(id|data-[\w-]+)="([^"]*)"', page)

    assert attributes(zh) == attributes(en)
    lea = re.search(r'<tr data-student="lea">(.*?)</tr>', zh, re.S).group(1)
    assert f"未匹配的文件：{DRAFT}" in lea
    if SCREENSHOT is not None or os.environ.get("REPORT_ZH_SCREENSHOT"):
        sync_api, chromium = _chromium()
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(chromium),
                                        args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(zh_path.as_uri())
                page.screenshot(path=os.environ.get("REPORT_ZH_SCREENSHOT") or str(
                    SCREENSHOT.with_name("class-report-zh.png")))
            finally:
                browser.close()


def test_the_chinese_report_opens_in_chromium_and_shows_the_jsons_numbers(graded, tmp_path):
    """In Chromium: no errors, the language zh-CN, and the grid's and the summary's numbers
    where the English report has them."""
    sync_api, chromium = _chromium()
    zh_path = tmp_path / "class-zh.html"
    run = _grade(graded["out"] / "class.json", "--from-json", "--roster", graded["roster"],
                 "--report", zh_path, "--language", "zh")
    assert zh_path.exists(), run.stderr
    errors = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium),
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(zh_path.as_uri())
            lang = page.evaluate("document.documentElement.lang")
            shown = page.eval_on_selector_all(
                "#students tbody tr", "rows => rows.map(r => [r.dataset.student, "
                "r.querySelector('td.total').dataset.value])")
            average = page.get_attribute("#average", "data-value")
        finally:
            browser.close()
    assert errors == [] and lang == "zh-CN"
    want = totals(graded["data"])
    assert {s: float(v) for s, v in shown} == {
        s: want.get(s, 0.0) for s in [s for s, _ in STUDENTS] + [UNLISTED]}
    assert average == re.search(r'id="average" data-value="([^"]+)"', graded["html"]).group(1)


TOP_OF_SECTION = """link => {
  const target = document.getElementById(decodeURIComponent(location.hash.slice(1)))
      || document.getElementById(location.hash.slice(1));
  const heading = target && (target.matches('h1,h2,h3,h4') ? target
      : target.querySelector('h1,h2,h3,h4'));
  return heading ? [heading.textContent.replace('¶', '').trim(),
                    Math.round(heading.getBoundingClientRect().top)] : null;
}"""


def test_a_reteach_link_opens_its_section_wherever_the_report_is_saved(graded, tmp_path):
    """The report copied into another folder: clicking a reteach link scrolls to the section's
    heading in the report's appendix. With --lesson-url, the link opens the hosted lesson page
    (written by python -m helpers.grade.pages) at that heading."""
    sync_api, chromium = _chromium()
    elsewhere = tmp_path / "saved" / "elsewhere"
    elsewhere.mkdir(parents=True)
    copy = elsewhere / "class.html"
    copy.write_text(graded["html"], encoding="utf-8")
    hosted = tmp_path / "pages"
    assert pages.main([str(hosted), "03_scaling"]) == 0
    lesson_report = tmp_path / "hosted.html"
    lesson_report.write_text(_render(
        [_record("02_one_row", "ana", {"ex4": ("failed", 0, 3, "one_row.scale-missing")})],
        lesson_url=hosted.as_uri() + "/"), encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium),
                                    args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(copy.as_uri())
            link = page.locator("article.exercise a.reteach").first
            want = link.get_attribute("href")
            section = page.locator(f'article.lesson-section[id="{want[1:]}"]')
            heading = section.get_attribute("data-heading")
            link.click()
            page.wait_for_function("() => window.scrollY > 0")
            in_report = page.evaluate(TOP_OF_SECTION)
            page.goto(lesson_report.as_uri())
            page.locator("a.reteach").first.click()
            page.wait_for_load_state("load")
            url = page.url
            hosted_page = page.evaluate(TOP_OF_SECTION)
        finally:
            browser.close()
    assert in_report is not None and in_report[0] == heading.replace("*", "")
    assert 0 <= in_report[1] < 200, in_report  # the heading is at the top of the window
    assert url.startswith((hosted / "03_scaling.html").as_uri() + "#")
    assert hosted_page[0].startswith("1. How large is a dot product of width"), hosted_page
    assert 0 <= hosted_page[1] < 200, hosted_page


# --- what this class does not show: small JSON reports written here ---------------------------


def _record(lesson: str, student: str, exercises: dict, path: str | None = None,
            modified: float = 1.0, **extra) -> dict:
    """One notebook of a grader JSON; exercises: {"ex1": (status, earned, points, diagnosis)}."""
    rows = [{"id": key, "title": f"exercise {key}", "points": points, "earned": earned,
             "status": status, "outcome": status, "message": "", "diagnosis": diagnosis}
            for key, (status, earned, points, diagnosis) in exercises.items()]
    return {"path": path or f"class/{student}/{lesson}.ipynb", "lesson": lesson,
            "student": student, "earned": sum(r["earned"] for r in rows),
            "possible": sum(r["points"] for r in rows), "unreadable": None,
            "modified": modified, "unmatched": None, "changed_course_files": [],
            "exercises": rows, **extra}


def _render(notebooks: list[dict], roster=None, rule="best", lesson_url="") -> str:
    data = {"total": {"seed": None}, "notebooks": notebooks}
    return classreport.render(classview.build(data, roster, rule), data, lesson_url)


def _article(html: str, exercise: str) -> str:
    return re.search(rf'<article class="exercise" data-exercise="{exercise}">(.*?)</article>',
                     html, re.S).group(1)


def test_an_exercise_nobody_attempted_says_how_many_did_not_and_who_handed_nothing_in():
    stub = ("not attempted", 0, 2, None)
    notebooks = [_record("04_masks", s, {"ex1": ("passed", 2, 2, None), "ex2": stub})
                 for s in ("ana", "ben", "chen")]
    html = _render(notebooks, roster={s: "" for s in ("ana", "ben", "chen", "dara")})
    text = re.sub(r"\s+", " ", _article(html, "04_masks ex2"))
    assert "No wrong answer the checks could name" not in text
    assert "3 students did not attempt it" in text
    assert "1 student did not hand the lesson in" in text
    assert "Nobody attempted it" in text


def test_mistakes_made_in_a_superseded_submission_are_counted_and_marked():
    """Best counts: ana's second notebook, all passed, gives her points; the mistake of her
    first is still the class's, marked as an earlier submission's."""
    wrong = ("failed", 0, 3, "masks.mask-after-softmax")
    notebooks = [
        _record("04_masks", "ana", {"ex2": wrong}, "class/ana/04_masks.ipynb", modified=1.0),
        _record("04_masks", "ana", {"ex2": ("passed", 3, 3, None)},
                "class/ana/04_masks-again.ipynb", modified=2.0),
        _record("04_masks", "ben", {"ex2": wrong}),
    ]
    html = _render(notebooks)
    row = re.search(r'<tr data-diagnosis="masks.mask-after-softmax" data-count="(\d+)">(.*?)</tr>',
                    _article(html, "04_masks ex2"), re.S)
    assert row.group(1) == "2"
    assert "ana (earlier submission), ben" in row.group(2)
    ranked = re.search(r'<table class="wrong" id="ranked">(.*?)</table>', html, re.S).group(1)
    assert 'data-diagnosis="masks.mask-after-softmax" data-count="2"' in ranked
    assert "ana (earlier submission)" in ranked
    totals = dict(re.findall(r'<tr data-student="([^"]+)">\s*<th class="who">.*?</th>\s*'
                             r'<td class="total" data-value="([^"]+)"', html, re.S))
    assert totals == {"ana": "3.0", "ben": "0.0"}  # points from the notebook that counts


def test_a_forgotten_scale_links_to_lesson_03_which_teaches_why():
    html = _render([_record("02_one_row", "ana",
                            {"ex4": ("failed", 0, 3, "one_row.scale-missing")})])
    link = re.search(r'<tr data-diagnosis="one_row.scale-missing".*?<a class="reteach" '
                     r'href="#([^"]+)">', html, re.S).group(1)
    assert link.startswith("reteach-03_scaling-")
    article = re.search(rf'<article class="lesson-section" id="{re.escape(link)}"[^>]*>(.*?)'
                        r"</article>", html, re.S).group(1)
    assert "<h2>1. How large is a dot product of width $d_k$?</h2>" in article
    assert "<h2>2. What softmax does" not in article  # the section stops at the next ##


def test_with_a_lesson_url_links_go_to_that_sections_heading_in_the_hosted_pages():
    html = _render([_record("02_one_row", "ana",
                            {"ex4": ("failed", 0, 3, "one_row.scale-missing")})],
                   lesson_url="https://school.example/attention")
    assert ('href="https://school.example/attention/03_scaling.html#'
            '1.-How-large-is-a-dot-product-of-width-$d_k$?"') in html


def test_points_and_counts_read_1_point_and_1_student():
    notebooks = [_record("04_masks", "ana", {"ex1": ("passed", 1, 1, None)}),
                 _record("04_masks", "ana", {"ex1": ("failed", 0, 1, "masks.reversed-causal")},
                         "class/ana/04_masks-old.ipynb", modified=0.5)]
    html = _render(notebooks)
    text = re.sub(r"<[^>]+>|\s+", " ", html)
    assert not re.search(r"\b1 (points|students|lessons|notebooks|files|changes)\b", text), \
        re.search(r".{40}\b1 (points|students|lessons|notebooks)\b.{20}", text)
    assert "(1 point)" in text and "1 student" in text
    view = classview.build({"notebooks": notebooks})
    table = classview.format_students(view)
    assert "1 points" not in table and "(1 point;" in table
    change = classview.Change("ana", "04_masks", "ex1", "failed", "passed", 0, 1)
    assert "| failed (0 points) | passed (1 point) |" in classview.format_changes(
        [change], "old.json")


def test_a_file_no_lesson_matches_shows_in_its_students_row():
    copy = {**_record("01_qkv", "ana", {}, "class/ana/Copy of 01_qkv.ipynb"), "lesson": None,
            "unmatched": "not graded: its name matches no lesson", "looks_like": "01_qkv"}
    stray = {**_record("01_qkv", "ben", {}, "class/ben/notes.ipynb"), "lesson": None,
             "unmatched": "not graded: its name matches no lesson", "looks_like": None}
    notebooks = [_record("01_qkv", "ben", {"ex1": ("passed", 2, 2, None)}),
                 _record("04_masks", "ana", {"ex1": ("passed", 2, 2, None)}), copy, stray]
    html = _render(notebooks)
    ana = re.search(r'<tr data-student="ana">(.*?)</tr>', html, re.S).group(1)
    assert re.search(r'class="cell unmatched" colspan="2" data-lesson="01_qkv" '
                     r'data-unmatched="Copy of 01_qkv.ipynb"', ana), ana
    assert "unmatched file: Copy of 01_qkv.ipynb" in ana
    ben = re.search(r'<tr data-student="ben">(.*?)</tr>', html, re.S).group(1)
    assert 'data-unmatched="notes.ipynb"' in ben and "unmatched file: notes.ipynb" in ben
    view = classview.build({"notebooks": notebooks})
    assert "unmatched file: Copy of 01_qkv.ipynb" in next(
        line for line in classview.format_students(view).splitlines() if line.startswith("| ana"))


def test_labels_on_the_item_chart_do_not_overlap():
    """Exercises that land on one point (everyone passed: discrimination undefined) or next to
    one another each get a label of their own, and no two labels cover each other."""
    students = ["ana", "ben", "chen", "dara", "eli"]
    notebooks = []
    for n, student in enumerate(students):
        notebooks.append(_record("04_masks", student, {
            f"ex{i}": ("passed", 1, 1, None) if i <= 3 or n < 3 else
            ("failed", 0, 1, "masks.reversed-causal") for i in range(1, 7)}))
        notebooks.append(_record("01_qkv", student, {
            f"ex{i}": ("passed", 1, 1, None) if n < 2 + i % 2 else
            ("failed", 0, 1, "qkv.transposed") for i in range(1, 5)}))
    svg = classreport.item_chart(classview.build({"notebooks": notebooks}))
    labels = re.findall(r'<text style="font-size: 7px;[^"]*text-anchor: start" x="([\d.]+)" '
                        r'y="([\d.]+)"[^>]*>([^<]+)</text>', svg)
    labels = [(x, y, text) for x, y, text in labels if re.match(r"\d\d ex\d", text)]
    names = [name for _, _, text in labels for name in text.split(", ")]
    assert sorted(names) == sorted([f"04 ex{i}" for i in range(1, 7)]
                                   + [f"01 ex{i}" for i in range(1, 5)])
    boxes = [(float(x), float(y) - 7, float(x) + 0.6 * 7 * len(text), float(y))
             for x, y, text in labels]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def test_a_section_runs_from_its_heading_to_the_next_heading_of_its_level():
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Lesson\n\nintro"),
        nbformat.v4.new_markdown_cell("text before\n## 1. First\nbody\n### 1.1 Detail\nmore"),
        nbformat.v4.new_code_cell("x = 1", outputs=[nbformat.v4.new_output(
            "stream", name="stdout", text="1\n")]),
        nbformat.v4.new_markdown_cell("```\n## not a heading\n```\nstill 1\n## 2. Second\n"
                                      "next"),
    ])
    cells = pages.section_cells(nb, "1. First")
    assert [c.source for c in cells] == ["## 1. First\nbody\n### 1.1 Detail\nmore", "x = 1",
                                         "```\n## not a heading\n```\nstill 1"]
    assert [c.source for c in pages.section_cells(nb, "1.1 Detail")] == [
        "### 1.1 Detail\nmore", "x = 1", "```\n## not a heading\n```\nstill 1"]
    html = pages.render_cells(cells)
    assert "<h2>1. First</h2>" in html and '<pre class="output stdout">1' in html
    with pytest.raises(ValueError, match="no heading"):
        pages.section_cells(nb, "3. Missing")


def test_merged_reports_keep_their_seed_so_a_regrade_repeats_the_inputs():
    from helpers.grade.classview import merge

    one = {"total": {"seed": 7}, "notebooks": []}
    assert merge([one])["total"]["seed"] == 7  # --compare class.json: the regrade reuses 7
    assert merge([one, {"total": {"seed": 7}, "notebooks": []}])["total"]["seed"] == 7
    assert merge([one, {"total": {"seed": 8}, "notebooks": []}])["total"]["seed"] is None


def test_who_made_a_mistake_is_named_as_on_the_roster():
    from helpers.grade.classview import Misconception

    m = Misconception("x", "X", "", "", ["s2"], {"s1": "earlier"})
    names = {"s1": "Ana Lima", "s2": "Ben Okafor"}
    assert m.who_named(names) == ["s1 (Ana Lima; earlier submission)", "s2 (Ben Okafor)"]
    assert m.who == ["s1 (earlier submission)", "s2"]
