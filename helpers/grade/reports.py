"""One grading run's reports: the terminal's tables, JSON, JUnit XML and the per-notebook CSV."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path

from helpers.grade.grader import GRADER_ERROR, Report, one_line


def _num(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def format_table(reports: list[Report]) -> str:
    """One Markdown table per notebook, then the total (reads well in a terminal too)."""
    out = []
    for report in reports:
        if report.unmatched:
            out.append(f"### {report.path}: unmatched, 0/0 points\n\n{report.unmatched}\n")
            continue
        out.append(f"### {report.path} ({report.lesson.name}): "
                   f"{_num(report.earned)}/{_num(report.possible)} points\n")
        if report.note:
            out.append(f"Note: {report.note}.\n")
        out.append("| exercise | points | status | feedback |")
        out.append("|---|---|---|---|")
        for r in report.results:
            out.append(f"| {r.key}: {one_line(r.title)} | {_num(r.earned)}/{_num(r.points)} | "
                       f"{r.status} | {one_line(r.message)} |")
        out.append("")
    earned = sum(r.earned for r in reports)
    possible = sum(r.possible for r in reports)
    not_passed = sum(1 for rep in reports for r in rep.results if r.status != "passed")
    exercises = sum(len(rep.results) for rep in reports)
    graded = [r for r in reports if not r.unmatched]
    unmatched = len(reports) - len(graded)
    machine = [r for r in graded if any(x.status == GRADER_ERROR for x in r.results)]
    if machine:
        out.append(f"**{len(machine)} notebook{'s' * (len(machine) != 1)} could not be graded:** "
                   "the machine failed (a kernel that did not start or died before the "
                   "student's code ran), not the student. Regrade: "
                   + ", ".join(str(r.path) for r in machine) + "\n")
    out.append(f"**Total: {_num(earned)}/{_num(possible)} points** in {len(graded)} "
               f"notebook{'s' * (len(graded) != 1)}; {exercises - not_passed} of {exercises} "
               "exercises passed."
               + (f" {unmatched} file{'s' * (unmatched != 1)} matched no lesson and "
                  f"{'were' if unmatched != 1 else 'was'} not graded." if unmatched else ""))
    return "\n".join(out) + "\n"


def to_json(reports: list[Report]) -> dict:
    return {
        "total": {
            "earned": sum(r.earned for r in reports),
            "possible": sum(r.possible for r in reports),
            "all_passed": all_passed(reports),
            "seed": next((r.seed for r in reports if r.seed is not None), None),
        },
        "notebooks": [
            {
                "path": str(report.path),
                "lesson": report.lesson.name if report.lesson else None,
                "earned": report.earned,
                "possible": report.possible,
                "unreadable": report.unreadable,
                "student": report.student,
                "modified": _modified(report.path),
                "unmatched": report.unmatched,
                "note": report.note,
                "looks_like": report.looks_like,
                "changed_course_files": report.changed_course_files,
                "exercises": [
                    {"id": r.key, "title": r.title, "points": r.points, "earned": r.earned,
                     "status": r.status, "outcome": r.outcome, "message": r.message,
                     "diagnosis": r.diagnosis}
                    for r in report.results
                ],
            }
            for report in reports
        ],
    }


def _modified(path: Path) -> float | None:
    try:
        return round(Path(path).stat().st_mtime, 3)
    except OSError:
        return None


def to_junit(reports: list[Report]) -> str:
    failures = ("failed", "not attempted", "tampered")
    suites = ET.Element("testsuites", name="helpers.grade")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for report in reports:
        if report.unmatched:
            totals["tests"] += 1
            totals["errors"] += 1
            suite = ET.SubElement(suites, "testsuite", name=str(report.path), time="0",
                                  skipped="0", tests="1", failures="0", errors="1")
            case = ET.SubElement(suite, "testcase", classname="unmatched",
                                 name=str(report.path), time="0")
            ET.SubElement(case, "error", type="unmatched",
                          message=report.unmatched).text = report.unmatched
            continue
        results = report.results
        counts = {
            "tests": len(results),
            "failures": sum(r.status in failures for r in results),
            "errors": sum(r.status not in failures and r.status != "passed" for r in results),
        }
        for k in totals:
            totals[k] += counts[k]
        suite = ET.SubElement(suites, "testsuite", name=str(report.path), time="0",
                              skipped="0", **{k: str(v) for k, v in counts.items()})
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="lesson", value=report.lesson.name)
        ET.SubElement(props, "property", name="points",
                      value=f"{_num(report.earned)}/{_num(report.possible)}")
        for r in results:
            case = ET.SubElement(suite, "testcase", classname=report.lesson.name,
                                 name=f"{r.key}: {r.title}", time="0")
            cprops = ET.SubElement(case, "properties")
            for name, value in (("points", r.points), ("earned", r.earned),
                                ("status", r.status), ("outcome", r.outcome),
                                ("diagnosis", r.diagnosis or "")):
                ET.SubElement(cprops, "property", name=name, value=_num(value))
            if r.status != "passed":
                tag = "failure" if r.status in failures else "error"
                ET.SubElement(case, tag, type=r.status, message=r.message).text = r.message
    for k, v in totals.items():
        suites.set(k, str(v))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


def to_csv(reports: list[Report]) -> str:
    """One row per notebook file, one column per exercise (its points earned)."""
    columns, lessons = [], []
    for report in reports:
        if report.lesson is not None and report.lesson.name not in lessons:
            lessons.append(report.lesson.name)
            columns += [(report.lesson.name, e) for e in report.lesson.exercises]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["notebook", "lesson", "points", "possible"]
                    + [f"{lesson} {e.key}: {e.title} ({_num(e.points)})" for lesson, e in columns]
                    + ["not passed"])
    for report in reports:
        if report.unmatched:
            writer.writerow([str(report.path), "", "0", "0"] + [""] * len(columns)
                            + [f"unmatched: {report.unmatched}"])
            continue
        earned = {r.key: r.earned for r in report.results}
        row = [str(report.path), report.lesson.name, _num(report.earned), _num(report.possible)]
        row += [_num(earned[e.key]) if lesson == report.lesson.name else ""
                for lesson, e in columns]
        row.append("; ".join(f"{r.key} {r.status}" + (f" ({r.outcome})" if r.status == "tampered"
                                                        else "")
                             for r in report.results if r.status != "passed"))
        writer.writerow(row)
    return buffer.getvalue()


def all_passed(reports: list[Report]) -> bool:
    return bool(reports) and all(not rep.unmatched for rep in reports) and all(
        r.status == "passed" for rep in reports for r in rep.results)

