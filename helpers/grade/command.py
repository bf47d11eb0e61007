"""The grading command line: python -m helpers.grade PATH [PATH ...] [options].

    python -m helpers.grade PATH [PATH ...] [--json FILE] [--junit FILE] [--csv FILE]
                            [--timeout SECONDS] [--jobs N] [--seed N] [--solutions DIR]

PATH is an exercise notebook, or a folder searched recursively for them (helpers.grade.
submissions says which lesson and which student each is); helpers.grade.grader grades them;
helpers.grade.reports, gradebooks, classview and classreport write what the options ask for.

Exit status: 0 when every exercise passed, 1 when any did not, 2 for a usage error, 3 when
the machine kept failing a notebook (`grader error`: regrade it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from helpers.grade import classreport, classroom, classview, gradebooks, rosters
from helpers.grade.classview import RULES
from helpers.grade.grader import DEFAULT_TIMEOUT, GRADER_ERROR, grade
from helpers.grade.lessons import SOLUTIONS, UsageError, load_lessons
from helpers.grade.report_i18n import LANGUAGES
from helpers.grade.reports import format_table, to_csv, to_json, to_junit
from helpers.grade.submissions import find_submissions

# --- command line ----------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m helpers.grade",
        description="Grade exercise notebooks: points and feedback per exercise, checks that "
        "cannot be edited away, nbval underneath.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="exercise notebooks, or folders searched recursively for them")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every result as JSON")
    parser.add_argument("--junit", type=Path, metavar="FILE", help="write a JUnit XML report")
    parser.add_argument("--csv", type=Path, metavar="FILE",
                        help="write one row per notebook, one column per exercise")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"time limit for each cell (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), metavar="N",
                        help="notebooks graded at the same time (default: CPUs, at most 4)")
    parser.add_argument("--csv-layout", choices=("notebooks", "students"), default="notebooks",
                        help="--csv with one row per notebook (default) or one per student, "
                        "with each lesson's total and each exercise's points")
    parser.add_argument("--report", type=Path, metavar="FILE",
                        help="write the class report: one self-contained HTML page (students "
                        "by exercises, pass rates, the misconceptions, item statistics)")
    parser.add_argument("--lesson-url", default="", metavar="URL",
                        help="where the lessons' HTML pages (python -m helpers.grade.pages "
                        "DIR) are hosted: the report's links go to URL/NN_name.html#section "
                        "(default: to the sections copied into the report itself)")
    parser.add_argument("--language", choices=LANGUAGES, default="en",
                        help="the --report's language: en (default) or zh (Simplified "
                        "Chinese, from translations/zh/report.po and diagnoses.po)")
    parser.add_argument("--canvas", type=Path, metavar="FILE",
                        help="write the lesson totals in Canvas's gradebook import layout")
    parser.add_argument("--moodle", type=Path, metavar="FILE",
                        help="write the lesson totals in Moodle's CSV grade import layout")
    parser.add_argument("--assignment", action="append", default=[], metavar="LESSON=NAME",
                        help="a lesson's assignment (column) in --canvas and --moodle, e.g. "
                        '02_one_row="Lesson 2: one row"; repeatable; once any lesson is '
                        "named, only the named lessons are exported")
    parser.add_argument("--assignments", type=Path, metavar="FILE",
                        help="the same from a CSV with a header lesson,name")
    parser.add_argument("--missing", choices=gradebooks.MISSING, default="blank",
                        help="a lesson not handed in, in --canvas and --moodle: blank (no "
                        "grade, the default) or zero")
    parser.add_argument("--maxima", action="store_true",
                        help="print each lesson's maximum points (the maximum to give its "
                        "gradebook item) and exit")
    parser.add_argument("--lesson", action="append", default=[], metavar="NAME",
                        help="grade only this lesson's notebooks (repeatable): the lessons "
                        "assigned so far, e.g. --lesson 02_one_row --lesson 03_scaling")
    parser.add_argument("--only-in", metavar="FOLDER",
                        help="grade only notebooks inside a folder of this name, e.g. exercises "
                        "in clones of students' repositories, which also hold the lessons")
    parser.add_argument("--roster", type=Path, metavar="FILE",
                        help="a CSV of the class (`id,name`, or GitHub Classroom's roster "
                        "export): each submission is reported under its student's id, and "
                        "students who handed nothing in are listed too")
    parser.add_argument("--student", metavar="NAME",
                        help="the student every graded notebook belongs to (one student per "
                        "run, as in the classroom workflow)")
    parser.add_argument("--duplicates", choices=RULES, default="best",
                        help="which notebook counts when a student hands a lesson in twice: "
                        "the best (default) or the latest; both are graded and shown")
    parser.add_argument("--compare", type=Path, metavar="PREVIOUS.json",
                        help="list whose score or status changed since that --json report, "
                        "for the students and lessons of this run (in the terminal, the "
                        "--report and the --json's \"changes\")")
    parser.add_argument("--from-json", action="store_true",
                        help="PATHs are --json reports (files, or folders of them, such as "
                        "the classroom workflow's artifacts): build the reports from them "
                        "without grading again")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="the seed of the checks' random inputs (default: drawn at random "
                        "and written to the JSON report, so a run can be repeated)")
    parser.add_argument("--solutions", type=Path, action="append", metavar="DIR",
                        help="folder of canonical solution notebooks (default: the course's "
                        "solutions/); may be given more than once")
    return parser


def _load_json_reports(paths) -> dict:
    """The --json reports under the command-line paths (files, or folders searched for
    *.json), merged into one."""
    files = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise UsageError(f"{raw}: no such file or folder")
        files += sorted(path.rglob("*.json")) if path.is_dir() else [path]
    reports = []
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise UsageError(f"{path}: not a grading report (expected the JSON that --json "
                             f"writes): {e}") from None
        if not isinstance(data, dict) or not isinstance(data.get("notebooks"), list):
            raise UsageError(f"{path}: not a grading report (expected the JSON that --json "
                             "writes, with a list of notebooks)")
        reports.append(data)
    if not reports:
        raise UsageError("no --json reports found under the given paths")
    return classview.merge(reports)


def main(argv=None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse exits 2 on bad usage, 0 on --help
        return int(e.code or 0)
    try:
        if args.timeout <= 0 or args.jobs < 1:
            raise UsageError("--timeout must be positive and --jobs at least 1")
        course_lessons = load_lessons(args.solutions or [SOLUTIONS])
        try:
            gradebook = gradebooks.from_options(args.assignment, args.assignments, args.missing,
                                                course_lessons)
        except ValueError as e:
            raise UsageError(str(e)) from None
        if args.maxima:
            print(gradebooks.maxima_table(gradebook, course_lessons), end="")
            return 0
        if not args.paths:
            raise UsageError("give at least one notebook or folder to grade")
        roster = None
        if args.roster is not None:
            try:
                roster = rosters.read_roster(args.roster)
            except ValueError as e:
                raise UsageError(str(e)) from None
        previous = None
        if args.compare is not None:
            previous = _load_json_reports([args.compare])
            if args.seed is None:  # the same random inputs, so unchanged work reads the same
                args.seed = previous["total"].get("seed")
        if "/lab/tree" in args.lesson_url:
            raise UsageError("--lesson-url: JupyterLab opens a notebook at its top, not at a "
                             "section; write the lessons' pages (python -m helpers.grade.pages"
                             " DIR), serve DIR (python -m http.server -d DIR 8000) and give "
                             "its URL (http://localhost:8000/)")
        outputs = (args.json, args.junit, args.csv, args.report, args.canvas, args.moodle)
        if args.from_json:
            if args.junit is not None:
                raise UsageError("--junit needs grading; with --from-json use --report, "
                                 "--csv, --canvas, --moodle or --json")
            if args.csv is not None and args.csv_layout != "students":
                raise UsageError("with --from-json, --csv needs --csv-layout students")
            data = _load_json_reports(args.paths)
            pairs, unmatched = [], []
        else:
            found = find_submissions(args.paths, course_lessons)
            pairs, unmatched = found.pairs, found.unmatched
            if args.lesson:
                unknown = [n for n in args.lesson if n not in course_lessons]
                if unknown:
                    raise UsageError(f"--lesson {', '.join(unknown)}: no such lesson; expected "
                                     f"one of {', '.join(course_lessons)}")
                pairs = [(path, lesson) for path, lesson in pairs if lesson.name in args.lesson]
                if not pairs:
                    raise UsageError("no notebook of the lessons given with --lesson ("
                                     f"{', '.join(args.lesson)}) under {', '.join(args.paths)}")
            if args.only_in:
                pairs = classroom.only_in(pairs, args.only_in)
                unmatched = classroom.only_in(unmatched, args.only_in)
                if not pairs:
                    raise UsageError(f"no notebook to grade inside a folder named {args.only_in}")
        graded = {path.resolve() for path, _ in pairs}
        for target in outputs:  # checked before grading, not after
            if target is not None and target.resolve() in graded:
                raise UsageError(f"{target}: a report would overwrite a notebook being graded")
            if target is not None and (target.is_dir() or not _writable(target.parent)):
                raise UsageError(f"{target}: cannot write a report there")
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for path, why in unmatched:
        print(f"warning: {path}: {why}", file=sys.stderr)

    if not args.from_json:
        reports = grade(pairs, timeout=args.timeout, jobs=args.jobs, seed=args.seed,
                        unmatched=unmatched)
        found.label(reports, student=args.student)
        print(format_table(reports), end="")
        data = to_json(reports)
    if roster is not None:  # each student under the roster's id, as the gradebooks need
        unknown = roster.assign(data)
        if previous is not None:
            roster.assign(previous)
        if unknown:
            print(f"\nHanded in under names that matched no one on the roster: "
                  f"{', '.join(unknown)} (kept as they are).")
    view = None
    if roster is not None or any(t is not None for t in (args.report, args.canvas,
                                                          args.moodle)) or \
            previous is not None or args.from_json or args.csv_layout == "students":
        view = classview.build(data, _roster_of_run(roster, data, args.from_json),
                               args.duplicates)
        if args.from_json or roster is not None or len(view.students) > 1:
            print(classview.format_students(view), end="")
    if previous is not None:
        before = classview.build(previous, roster, args.duplicates)
        changes = classview.compare(before, view)
        print(classview.format_changes(changes, str(args.compare)), end="")
        data["changes"] = classview.changes_json(changes, str(args.compare), view)
    writers = [
        (args.json, lambda: json.dumps(data, indent=2, ensure_ascii=False) + "\n"),
        (args.junit, lambda: to_junit(reports)),
        (args.csv, lambda: gradebooks.students_csv(view) if args.csv_layout == "students"
         else to_csv(reports)),
        (args.canvas, lambda: gradebooks.canvas_csv(view, gradebook)),
        (args.moodle, lambda: gradebooks.moodle_csv(view, gradebook)),
        (args.report, lambda: classreport.render(view, data, args.lesson_url, args.language)),
    ]
    for target, text in writers:
        if target is not None:
            target.write_text(text(), encoding="utf-8")
    if view is not None and (args.canvas or args.moodle) and gradebooks.left_out(view):
        print(f"\nLeft out of the gradebook export{'s' * bool(args.canvas and args.moodle)}, "
              f"not on the roster: {', '.join(gradebooks.left_out(view))}.")
    if any(e.get("status") == GRADER_ERROR for nb in data["notebooks"]
           for e in nb.get("exercises", [])):
        return 3  # not the students': the machine failed some notebooks, regrade them
    passed = data["total"].get("all_passed", False) and not any(
        nb.get("unmatched") for nb in data["notebooks"])
    return 0 if passed else 1


def _roster_of_run(roster, data: dict, from_json: bool):
    """The roster a view lists: the whole class, except when one student's work was graded
    (a regrade of class/ana): then only that student, so the rest are not 'nothing handed in'."""
    if roster is None or from_json:
        return roster
    students = {nb.get("student") for nb in data["notebooks"]}
    if len(students) == 1 and next(iter(students)) in roster:
        return {s: roster[s] for s in students}
    return roster


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


if __name__ == "__main__":
    sys.exit(main())
