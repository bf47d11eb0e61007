"""The classroom workflow (classroom/grade.yml, classroom/grade.sh) and what it hands GitHub
Classroom (helpers/grade/classroom.py). No kernel runs: the grader is a stand-in here, and
tests/test_grade.py runs the workflow's grading step once on every solution notebook."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from helpers.grade import classroom, command

from notebook_files import ROOT

GRADE_SH = ROOT / "classroom" / "grade.sh"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"


def _workflow() -> dict:
    return yaml.safe_load((ROOT / "classroom" / "grade.yml").read_text(encoding="utf-8"))


def _job() -> dict:
    (job,) = _workflow()["jobs"].values()  # the reporter wants one job
    return job


def _step(name: str) -> dict:
    return next(s for s in _job()["steps"] if s.get("name") == name)


# --- the workflow ------------------------------------------------------------------------------


def test_a_new_push_cancels_the_run_it_supersedes():
    concurrency = _workflow()["concurrency"]
    assert concurrency["cancel-in-progress"] is True
    assert "github.ref" in concurrency["group"] and "github.workflow" in concurrency["group"]


def test_the_first_commit_by_github_classrooms_bot_is_not_graded():
    assert _job()["if"] == "github.actor != 'github-classroom[bot]'"


def test_the_points_go_to_github_classrooms_reporter_with_the_permissions_it_needs():
    workflow = _workflow()
    assert workflow["name"] == "Autograding Tests"  # what the reporter's README requires
    assert list(workflow["jobs"]) == ["run-autograding-tests"]
    assert workflow["permissions"] == {"checks": "write", "actions": "read", "contents": "read"}
    grading = _step("Grade the exercises")
    assert grading["run"] == "bash course/classroom/grade.sh classroom submission/exercises"
    reporter = next(s for s in _job()["steps"] if s.get("uses") == REPORTER)
    runner = reporter["with"]["runners"]
    assert runner == grading["id"]
    assert reporter["env"] == {
        f"{runner.upper()}_RESULTS": f"${{{{ steps.{runner}.outputs.result }}}}"}
    assert "if" not in reporter  # no points when grading could not run


def _refusal(tmp_path, **env) -> subprocess.CompletedProcess:
    script = _step("Require the course repository")["run"]
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=tmp_path,
                          env={"PATH": os.environ["PATH"], **env}, timeout=60)


def test_without_course_repository_the_workflow_refuses_to_grade(tmp_path):
    steps = [s.get("name") for s in _job()["steps"]]
    assert steps.index("Require the course repository") < steps.index("Check out the course")
    assert _step("Require the course repository")["env"]["COURSE_REPOSITORY"] == \
        "${{ vars.COURSE_REPOSITORY }}"
    for unset in ({}, {"COURSE_REPOSITORY": ""}, {"COURSE_REPOSITORY": "ana/course"}):
        refused = _refusal(tmp_path, THIS_REPOSITORY="ana/course", **unset)
        assert refused.returncode == 2
        assert "::error title=COURSE_REPOSITORY is not set::" in refused.stdout
        assert "owner/name" in refused.stdout and "COURSE_TOKEN" in refused.stdout
    assert _refusal(tmp_path, COURSE_REPOSITORY="teacher/course",
                    THIS_REPOSITORY="ana/course").returncode == 0
    # and no fallback to the student's own repository in the checkout
    assert _step("Check out the course")["with"]["repository"] == "${{ vars.COURSE_REPOSITORY }}"


def test_the_pip_cache_is_keyed_on_the_grading_requirements():
    python = next(s for s in _job()["steps"] if s.get("uses", "").startswith("actions/setup-"))
    assert python["with"]["cache"] == "pip"
    assert python["with"]["cache-dependency-path"] == "course/classroom/requirements.txt"


# --- what grading installs ---------------------------------------------------------------------


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line.strip())
        if match:
            pins[match[1].lower()] = match[2]
    return pins


def test_the_grading_requirements_pin_what_requirements_txt_pins_and_leave_the_rest_out():
    grading = _pins(ROOT / "classroom" / "requirements.txt")
    full = _pins(ROOT / "requirements.txt")
    assert {name: full.get(name) for name in grading} == grading
    assert list(grading)[0] == "torch"
    assert {"torch", "numpy", "ipykernel", "nbformat", "nbclient", "nbval", "pytest",
            "jinja2"} <= set(grading)
    assert not {"jupyterlab", "playwright", "ruff", "pytest-xdist"} & set(grading)


def _fake_python(tmp_path: Path, body: str) -> Path:
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\n" + body)
    fake.chmod(0o755)
    return fake


def test_install_takes_torch_from_the_cpu_index_then_only_the_grading_requirements(tmp_path):
    calls = tmp_path / "calls"
    fake = _fake_python(tmp_path, f'echo "$*" >> {calls}\n')
    env = dict(os.environ, PYTHON=str(fake))
    env.pop("TORCH_INDEX_URL", None)
    subprocess.run(["bash", GRADE_SH, "install"], env=env, check=True, cwd=tmp_path, timeout=60)
    requirements = ROOT / "classroom" / "requirements.txt"
    assert calls.read_text().splitlines() == [
        "-m pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu",
        f"-m pip install -r {requirements}"]
    calls.unlink()  # empty: pip's own index (how this course's tests install it)
    subprocess.run(["bash", GRADE_SH, "install"], env=dict(env, TORCH_INDEX_URL=""),
                   check=True, cwd=tmp_path, timeout=60)
    assert calls.read_text().splitlines()[0] == "-m pip install torch==2.13.0"


# --- the grading step's exit status ----------------------------------------------------------

# A stand-in grader: writes a grades.json with one passed and one failed exercise, records its
# environment, and exits with $FAKE_STATUS; helpers.grade.classroom runs for real.
GRADER = f"""
if [ "$2" = helpers.grade ]; then
  env > "$FAKE_ENV"
  printf '%s\n' "$@" > "$FAKE_ENV.args"
  while [ "$#" -gt 0 ]; do
    if [ "$1" = --json ]; then printf '%s' "$FAKE_JSON" > "$2"; fi
    shift
  done
  exit "$FAKE_STATUS"
fi
exec {sys.executable} "$@"
"""

REPORT = {"total": {"earned": 2, "possible": 5}, "notebooks": [
    {"path": "submission/exercises/02_one_row.ipynb", "lesson": "02_one_row", "student": "",
     "earned": 2, "possible": 5, "exercises": [
         {"id": "ex1", "title": "Scores", "points": 2, "earned": 2, "status": "passed",
          "message": "✔ scores"},
         {"id": "ex2", "title": "Weights", "points": 3, "earned": 0, "status": "failed",
          "message": "each row must sum to 1"}]},
    {"path": "submission/exercises/Copy of 02.ipynb", "lesson": None, "student": "",
     "earned": 0, "possible": 0, "exercises": [],
     "unmatched": "not graded: its name matches no lesson"}]}


def _classroom_step(tmp_path: Path, status: int, step: str = "classroom", **extra):
    fake = _fake_python(tmp_path, GRADER)
    output = tmp_path / "github_output"
    output.write_text("")
    env = dict(os.environ, PYTHON=str(fake), FAKE_STATUS=str(status),
               FAKE_JSON=json.dumps(REPORT), FAKE_ENV=str(tmp_path / "grader_env"),
               GITHUB_OUTPUT=str(output), GITHUB_ENV=str(tmp_path / "github_env"), **extra)
    run = subprocess.run(["bash", GRADE_SH, step, "submission/exercises"], env=env,
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    return run, output.read_text()


def test_partial_work_is_a_result_not_a_failed_run(tmp_path):
    for status in (0, 1):
        run, output = _classroom_step(tmp_path, status)
        assert run.returncode == 0, run.stderr
        (line,) = output.splitlines()
        assert line.startswith("result=")
        results = json.loads(base64.b64decode(line.removeprefix("result=")))
        assert results == classroom.reporter_results(REPORT)


def test_grading_that_could_not_run_fails_the_run_and_reports_no_points(tmp_path):
    for status in (2, 3):
        run, output = _classroom_step(tmp_path, status)
        assert run.returncode == status
        assert output == ""
        assert "::error title=Grading could not run::" in run.stderr


def test_the_grade_step_keeps_the_graders_status_for_a_teachers_scripts(tmp_path):
    run, output = _classroom_step(tmp_path, 1, step="grade")
    assert run.returncode == 1 and output == ""


def test_the_students_code_gets_no_runner_files_and_the_courses_grader(tmp_path):
    _classroom_step(tmp_path, 0)
    seen = dict(line.split("=", 1) for line in
                (tmp_path / "grader_env").read_text().splitlines() if "=" in line)
    assert not {"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"} & set(seen)
    assert seen["PYTHONPATH"].split(":")[0] == str(ROOT)


# --- the reporter's results --------------------------------------------------------------------


def test_each_exercise_is_a_test_and_the_points_add_up_to_the_grade():
    results = classroom.reporter_results(REPORT)
    assert results["version"] == 1
    assert results["status"] == "pass"  # grading ran: the points are the result
    assert results["max_score"] == 5
    assert [(t["name"], t["status"], t["score"]) for t in results["tests"]] == [
        ("02_one_row ex1: Scores (2 points)", "pass", 2),
        ("02_one_row ex2: Weights (3 points)", "fail", 0),
        ("Copy of 02.ipynb: not graded", "fail", 0)]
    assert results["tests"][1]["message"] == "failed: each row must sum to 1"
    assert sum(t["score"] for t in results["tests"]) == REPORT["total"]["earned"]
    for test in results["tests"]:  # the fields autograding-command-grader writes
        assert set(test) == {"name", "status", "score", "message", "test_code", "filename",
                             "line_no", "duration"}


def test_a_long_message_is_cut_so_the_results_fit_in_an_environment_variable():
    report = json.loads(json.dumps(REPORT))
    report["notebooks"][0]["exercises"][1]["message"] = "x" * 200_000  # a huge traceback
    (_, long, _) = classroom.reporter_results(report)["tests"]
    assert len(long["message"]) == classroom.MESSAGE_LIMIT and long["message"].endswith("…")
    assert long["message"].startswith("failed: xxx")


def test_the_results_are_base64_of_the_json(tmp_path):
    results = classroom.reporter_results(REPORT)
    assert json.loads(base64.b64decode(classroom.encode(results))) == results
    report = tmp_path / "grades.json"
    report.write_text(json.dumps(REPORT), encoding="utf-8")
    printed = subprocess.run([sys.executable, "-m", "helpers.grade.classroom", str(report)],
                             capture_output=True, text=True, check=True, timeout=60,
                             env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
    assert printed.strip() == classroom.encode(results)
    report.write_text("[]", encoding="utf-8")
    assert classroom.main([str(report)]) == 2


# --- the teacher's grade of record: clones of every student's repository ---------------------


def test_in_clones_only_the_exercises_folder_is_graded():
    found = [(Path("clones/a-ana/exercises/02_one_row.ipynb"), "02"),
             (Path("clones/a-ana/notebooks/02_one_row.ipynb"), "02"),
             (Path("clones/a-ana/START.ipynb"), None),
             (Path("clones/exercises-ben/notebooks/02_one_row.ipynb"), "02")]
    assert classroom.only_in(found, "exercises") == found[:1]


def test_only_in_is_an_option_of_the_grading_command(tmp_path, capsys):
    lessons = tmp_path / "clones" / "a-ana" / "notebooks"
    lessons.mkdir(parents=True)
    (lessons / "02_one_row.ipynb").write_bytes((ROOT / "notebooks" / "02_one_row.ipynb")
                                               .read_bytes())
    assert command.main([str(tmp_path / "clones"), "--only-in", "exercises"]) == 2
    assert "no notebook to grade inside a folder named exercises" in capsys.readouterr().err


def test_the_assigned_lessons_are_graded_so_the_points_are_out_of_them(tmp_path):
    _classroom_step(tmp_path, 0, GRADE_LESSONS="02_one_row  03_scaling")
    args = (tmp_path / "grader_env.args").read_text().splitlines()
    given = [args[i + 1] for i, a in enumerate(args) if a == "--lesson"]
    assert given == ["02_one_row", "03_scaling"]
    _classroom_step(tmp_path, 0)  # unset: every lesson
    assert "--lesson" not in (tmp_path / "grader_env.args").read_text().splitlines()
    steps = _job()["steps"]
    grading = next(s for s in steps if "grade.sh classroom" in s.get("run", ""))
    assert grading["env"]["GRADE_LESSONS"] == "${{ vars.GRADE_LESSONS }}"


def test_lesson_picks_the_lessons_graded_and_refuses_an_unknown_one(tmp_path, capsys):
    folder = tmp_path / "ana" / "exercises"
    folder.mkdir(parents=True)
    (folder / "03_scaling.ipynb").write_bytes((ROOT / "exercises" / "03_scaling.ipynb")
                                              .read_bytes())
    assert command.main([str(folder), "--lesson", "02_onerow"]) == 2
    assert "--lesson 02_onerow: no such lesson" in capsys.readouterr().err
    assert command.main([str(folder), "--lesson", "02_one_row"]) == 2  # none of 02 here
    assert "no notebook of the lessons given with --lesson (02_one_row)" in \
        capsys.readouterr().err
