"""GitHub Classroom: a grading run's points in the form its autograding reporter reads.

classroom-resources/autograding-grading-reporter reads, for each runner id named in its
`runners` input, an environment variable `<ID>_RESULTS` (the id in capitals) holding base64 of
a JSON object: {version, status, max_score, tests: [{name, status, score, message, test_code,
filename, line_no, duration}]}, the object classroom-resources/autograding-command-grader
writes. The reporter adds up the tests' `score` and `max_score` into "Points X/Y", which
GitHub Classroom's dashboard shows, and fails its step when `status` is "fail" or "error".

Here each exercise is one test (status "pass" or "fail", score its points). The run's status
is "pass" whenever grading ran: the points are the result, and a student with half the
exercises done has not broken the build. classroom/grade.sh reports nothing when grading
itself could not run (exit 2 or 3), so that run fails instead.

    python -m helpers.grade.classroom grades.json     print the base64 for <ID>_RESULTS
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

RESULTS_VERSION = 1  # the `version` autograding-command-grader writes
# Each message is cut to this many characters: the results reach the reporter as one
# environment variable, and Linux refuses to start a process with one over 128 KiB.
MESSAGE_LIMIT = 1000


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def reporter_results(report: dict) -> dict:
    """The reporter's result object for one grading run (the JSON `--json` writes)."""
    tests = []
    for nb in report.get("notebooks", []):
        path = nb.get("path", "")
        if nb.get("unmatched"):
            tests.append(_test(f"{Path(path).name}: not graded", "fail", 0, nb["unmatched"],
                               path))
            continue
        for exercise in nb.get("exercises", []):
            title = exercise.get("title", exercise["id"])
            points = float(exercise.get("points", 0))
            name = (f"{nb.get('lesson') or Path(path).stem} {exercise['id']}: {title} "
                    f"({points:g} point{'s' * (points != 1)})")
            passed = exercise.get("status") == "passed"
            message = exercise.get("message", "")
            if not passed:
                message = f"{exercise.get('status', 'failed')}: {message}".rstrip(": ")
            tests.append(_test(name, "pass" if passed else "fail",
                               float(exercise.get("earned", 0)), message, path))
    possible = sum(float(e.get("points", 0)) for nb in report.get("notebooks", [])
                   for e in nb.get("exercises", []))
    return {"version": RESULTS_VERSION, "status": "pass", "max_score": _num(possible),
            "tests": tests}


def _test(name: str, status: str, score: float, message: str, filename: str) -> dict:
    if len(message) > MESSAGE_LIMIT:
        message = message[:MESSAGE_LIMIT - 1] + "…"
    return {"name": name, "status": status, "score": _num(score), "message": message,
            "test_code": "", "filename": filename, "line_no": 0, "duration": 0}


def encode(results: dict) -> str:
    """base64 of the compact JSON, the value of <ID>_RESULTS."""
    text = json.dumps(results, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def only_in(found: list[tuple], folder: str) -> list[tuple]:
    """The (path, ...) entries found inside a folder named `folder`: in clones of students'
    repositories, which also hold the lessons (notebooks/02_one_row.ipynb is no exercise),
    only exercises/ counts."""
    return [entry for entry in found if folder in Path(entry[0]).parts[:-1]]


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m helpers.grade.classroom GRADES.json", file=sys.stderr)
        return 2
    try:
        report = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"error: {args[0]}: not a grading report (expected the JSON that --json "
              f"writes): {e}", file=sys.stderr)
        return 2
    if not isinstance(report, dict) or not isinstance(report.get("notebooks"), list):
        print(f"error: {args[0]}: not a grading report (no list of notebooks)", file=sys.stderr)
        return 2
    print(encode(reporter_results(report)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
