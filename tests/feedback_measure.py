"""Measure how well the checks diagnose answers they were not written against.

    python tests/feedback_measure.py tests/heldout/a tests/heldout/b [--json out.json]

Each file in a folder is named after a lesson and holds WRONG and VALID, lists of dicts
(exercise, kind, code; WRONG also has mistake and names, the phrases a message that names the
mistake would contain). Every answer runs in place of the solution's answer cell, in-process,
and its check's outcome is sorted:
    named    the check failed with a message containing one of `names`
    caught   the check failed, but its message names something else (or nothing)
    crashed  the check raised something other than AssertionError (caught, never named)
    passed   the check passed a wrong answer
A VALID answer must pass. Prints the shares per lesson and overall.
"""

from __future__ import annotations

import argparse
import json
import runpy
import sys
import warnings
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from notebook_files import run_until_check  # noqa: E402


def outcome_of(lesson: str, answer: dict) -> tuple[str, str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            error = run_until_check(lesson, answer["exercise"], answer["code"])
    except AssertionError as setup_failure:  # a cell before the check failed
        return "setup", str(setup_failure)
    if error is None:
        return "passed", ""
    message = f"{type(error).__name__}: {error}"
    if not isinstance(error, AssertionError):
        return "crashed", message
    named = any(p.lower() in str(error).lower() for p in answer.get("names", ()))
    return ("named" if named else "caught"), message


def measure(folders: list[Path]) -> dict:
    results = []
    paths = [p for folder in folders for p in sorted(folder.glob("[0-9]*.py"))]
    for path in paths:
        sets = runpy.run_path(str(path))
        for valid, answers in ((False, sets["WRONG"]), (True, sets.get("VALID", []))):
            for answer in answers:
                status, message = outcome_of(path.stem, answer)
                results.append(
                    dict(
                        lesson=path.stem,
                        set=path.parent.name,
                        exercise=answer["exercise"],
                        kind=answer["kind"],
                        valid=valid,
                        status=status,
                        message=message,
                    )
                )
    return dict(results=results)


def summary(results: list[dict]) -> str:
    by_lesson = defaultdict(list)
    for r in results:
        by_lesson[r["lesson"]].append(r)
    lines = [
        "| lesson | wrong | named | caught (named or not) | passed | valid passed |",
        "|---|---|---|---|---|---|",
    ]
    for lesson in [*sorted(by_lesson), "all"]:
        rs = results if lesson == "all" else by_lesson[lesson]
        wrong = [r for r in rs if not r["valid"]]
        valid = [r for r in rs if r["valid"]]
        named = sum(r["status"] == "named" for r in wrong)
        caught = sum(r["status"] in ("named", "caught", "crashed") for r in wrong)
        passed = sum(r["status"] == "passed" for r in wrong)
        ok = sum(r["status"] == "passed" for r in valid)
        n = max(len(wrong), 1)
        lines.append(
            f"| {lesson} | {len(wrong)} | {named} ({named / n:.0%}) | {caught} ({caught / n:.0%}) "
            f"| {passed} | {ok}/{len(valid)} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--json", type=Path, help="write every outcome and message here")
    args = parser.parse_args(argv)
    report = measure(args.folders)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(summary(report["results"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
