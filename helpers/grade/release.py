"""`python -m helpers.grade.release OUT`: the repository a class gets, without the answers.

GitHub Classroom gives each student a copy of a template repository. The course repository
itself would put solutions/ beside the exercises, so this command writes a template of its own
into OUT (a folder that does not exist yet, or is empty):

    START.ipynb, notebooks/, exercises/    the start page (without its note on solutions/),
                                           the lessons, the exercises
    helpers/ without helpers/grade/ and    the course library and the checks: what lessons and
      helpers/checks/diagnoses/            check cells import (the grader alone reads these two)
    data/                                  the corpus and the shipped weights (SHA256SUMS is
                                           verified in the copy)
    jupyter-config/                        the Jupyter settings the install copies
    requirements.txt, pyproject.toml       the course's, less the developers' tools and settings
    .github/workflows/grade.yml            classroom/grade.yml as it is now
    README.md, .gitignore                  from templates/release/

Before anything is moved into OUT, the copy is searched for the code of every answer region of
solutions/ (the lines between `### BEGIN SOLUTION` and `### END SOLUTION`): one found anywhere
but in LIBRARY_ANSWERS stops the release. `--git` also makes OUT a git repository with one
commit. The course is only read.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

import jinja2
import nbformat

from helpers.grade.exercises import BEGIN, END, make_exercise, render
from helpers.grade.grader import DEFAULT_TIMEOUT
from helpers.grade.lessons import load_lessons

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = Path(__file__).resolve().parent / "templates" / "release"

COPIED = ("START.ipynb", "notebooks", "exercises", "helpers", "data", "jupyter-config", "zh",
          "translations/zh/diagnoses.po")
# Not imported by any lesson or check cell (traced: every lesson, and every exercise solved):
# the grading machinery, the record of a rebuild made here; and the Chinese solutions. (A
# Chinese exercise's check reads the diagnoses' labels and their translations.)
LEFT_OUT = ("helpers/grade", "data/weights/SHA256SUMS.rebuilt", "zh/solutions")
LEFT_OUT_NAMES = ("__pycache__", ".ipynb_checkpoints", "*.egg-info", "build", ".grade-restored")
WORKFLOW = ("classroom/grade.yml", ".github/workflows/grade.yml")  # (course file, released)
WEIGHTS = "data/weights"
SUMS = "SHA256SUMS"

# requirements.txt lines only the course's developers and its grader need (tests, nbval, lint,
# the browser test, the class report's templates; JupyterLab brings its own jinja2); each goes
# with the comment lines right above it.
DEVELOPERS_ONLY = ("pytest", "pytest-xdist", "nbval", "ruff", "playwright", "jinja2")
# pyproject.toml tables a student's install reads; pytest's and ruff's settings name folders
# (tests/, solutions/) the template does not have.
PYPROJECT_TABLES = ("build-system", "project", "tool.setuptools")

# Answer code that the course library itself holds, as (lesson, exercise, released file): the
# lessons import these functions, and a check compares with them (lesson 04 shows causal_mask,
# which is exercise 1's answer line for line; exercise 3 of lesson 02 is `weights @ v`).
LIBRARY_ANSWERS = frozenset({
    ("02_one_row", "ex3", "helpers/attention.py"),  # 02 ex3 is `weights @ v`, the last line
    ("02_one_row", "ex3", "helpers/sinks.py"),      # of every attention function
    ("02_one_row", "ex3", "helpers/stabilisers.py"),
    ("04_masks", "ex1", "helpers/masks.py"),
})


class ReleaseError(Exception):
    """OUT cannot be written, or the course is not in a state to release."""


@dataclass(frozen=True)
class Answer:
    lesson: str  # "04_masks"
    exercise: str  # "ex1"
    code: str  # the answer region's lines, dedented


# ---------------------------------------------------------------- what holds the answers


def answers(solutions: Path) -> list[Answer]:
    """Every answer region of the solution notebooks in `solutions`."""
    found = []
    for path in sorted(Path(solutions).glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            region = None
            for line in cell.source.splitlines():
                if BEGIN.match(line):
                    region = []
                elif END.match(line) and region is not None:
                    exercise = cell.get("id", "").removesuffix("-answer")
                    found.append(Answer(path.stem, exercise, textwrap.dedent("\n".join(region))))
                    region = None
                elif region is not None:
                    region.append(line)
    return found


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def searchable_text(path: Path) -> str | None:
    """What a file says: every string in a notebook's JSON (sources, outputs, metadata), a
    text file's text; None for a binary file."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None
    if path.suffix != ".ipynb":
        return text
    strings = []

    def walk(value):
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            strings.append("".join(v for v in value if isinstance(v, str)))
            for item in value:
                if not isinstance(item, str):
                    walk(item)

    walk(json.loads(text))
    return "\n".join(strings)


def answers_in(tree: Path, regions: list[Answer]) -> set[tuple[str, str, str]]:
    """(lesson, exercise, file) for every answer region whose code (whitespace aside) is in a
    file under `tree`."""
    codes = [(a, _squeezed(a.code)) for a in regions if a.code.strip()]
    found = set()
    for path in sorted(p for p in Path(tree).rglob("*") if p.is_file()):
        text = searchable_text(path)
        if text is None:
            continue
        text = _squeezed(text)
        rel = path.relative_to(tree).as_posix()
        found |= {(a.lesson, a.exercise, rel) for a, code in codes if code in text}
    return found


# ---------------------------------------------------------------- the files written


def _requirement_name(line: str) -> str:
    return re.split(r"[\s=<>!~;\[@]", line.strip(), maxsplit=1)[0].lower()


def student_requirements(text: str) -> str:
    """The course's requirements.txt without the DEVELOPERS_ONLY lines (and their comments)."""
    kept, comments = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#") or not stripped:
            comments.append(line)
            continue
        if _requirement_name(line) not in DEVELOPERS_ONLY:
            kept += comments + [line]
        comments = []
    return "\n".join(kept + comments).rstrip("\n") + "\n"


def student_pyproject(text: str) -> str:
    """The course's pyproject.toml with only the PYPROJECT_TABLES (and their sub-tables)."""
    kept, keep = [], True
    for line in text.splitlines():
        header = re.match(r"^\[+\s*([^\]]+?)\s*\]+\s*$", line)
        if header:
            name = header.group(1)
            keep = any(name == t or name.startswith(t + ".") for t in PYPROJECT_TABLES)
        if keep:
            kept.append(line)
    return "\n".join(kept).rstrip("\n") + "\n"


GRADED = {"en": ("Your exercise notebooks are graded each time you push them: `README.md` says\n"
                 "how, and what the grade is."),
          "zh": "每次推送（push）练习笔记本后都会自动评分：评分方式和成绩见 `README.md`。"}


def start_page(nb: nbformat.NotebookNode, language: str = "en") -> nbformat.NotebookNode:
    """START.ipynb (or its translation) with each Markdown paragraph that points to
    `solutions/` replaced by one that says how the exercises are graded."""
    graded = GRADED[language]
    for cell in nb.cells:
        if cell.cell_type == "markdown" and "solutions/" in cell.source:
            paragraphs = cell.source.split("\n\n")
            cell.source = "\n\n".join(graded if "solutions/" in p else p for p in paragraphs)
    return nb


def _title(notebook: Path) -> str:
    nb = nbformat.read(notebook, as_version=4)
    for cell in nb.cells:
        for line in cell.source.splitlines() if cell.cell_type == "markdown" else ():
            if line.startswith("# "):
                return re.sub(r"^\d+\s*[·.:-]?\s*", "", line[2:].strip())  # no "02 "
    return notebook.stem


def student_readme(course: Path) -> str:
    """README.md of the template: install, start, lessons and exercises, checks, grading."""
    requirements = (course / "requirements.txt").read_text(encoding="utf-8").splitlines()
    torch = next((line.strip() for line in requirements if _requirement_name(line) == "torch"
                  and not line.strip().startswith("#")), "torch")
    lessons = load_lessons([course / "solutions"])
    rows = [{"name": name, "title": _title(course / "notebooks" / f"{name}.ipynb"),
             "exercises": len(lesson.exercises),
             "points": _number(sum(e.points for e in lesson.exercises))}
            for name, lesson in sorted(lessons.items())]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=False,
                             keep_trailing_newline=True, trim_blocks=True,
                             undefined=jinja2.StrictUndefined)
    total = _number(sum(e.points for lesson in lessons.values() for e in lesson.exercises))
    return env.get_template("README.md.j2").render(
        lessons=rows, total_points=total, torch=torch, timeout=_number(DEFAULT_TIMEOUT),
        workflow=workflow_name((course / WORKFLOW[0]).read_text(encoding="utf-8")))


def workflow_name(text: str) -> str:
    """The `name:` of a GitHub Actions workflow (what its runs are listed under)."""
    found = re.search(r"^name:\s*(.+?)\s*$", text, re.M)
    return found.group(1).strip("'\"") if found else "the grading workflow"


def _number(value: float):
    return int(value) if float(value).is_integer() else value


# ---------------------------------------------------------------- checks on the course and OUT


def _outside_course(out: Path, course: Path) -> Path:
    out = Path(out).expanduser().resolve()
    if out == course or course in out.parents:
        raise ReleaseError(f"{out} is inside the course ({course}): the release is a "
                           "repository of its own; choose a folder outside the course")
    if out.exists() and not out.is_dir():
        raise ReleaseError(f"{out} is a file: OUT must be a folder that does not exist yet, "
                           "or an empty one")
    if out.is_dir() and any(out.iterdir()):
        raise ReleaseError(f"{out} is not empty: OUT must be a folder that does not exist "
                           "yet, or an empty one (the release never writes over files)")
    return out


def _stale_exercises(course: Path) -> list[str]:
    """Exercise notebooks that are not what their solution generates."""
    stale = []
    for solution in sorted((course / "solutions").glob("*.ipynb")):
        exercise = course / "exercises" / solution.name
        text = render(make_exercise(nbformat.read(solution, as_version=4)))
        if not exercise.is_file() or exercise.read_text(encoding="utf-8") != text:
            stale.append(f"exercises/{solution.name}")
    return stale


def unverified_weights(tree: Path) -> list[str]:
    """Each weights file under `tree` that is missing, unlisted or not what SHA256SUMS says."""
    weights = tree / WEIGHTS
    listed = {}
    if (weights / SUMS).is_file():
        for line in (weights / SUMS).read_text(encoding="ascii").splitlines():
            if line.strip():
                digest, name = line.split(maxsplit=1)
                listed[name.lstrip("*")] = digest.lower()
    problems = [f"{WEIGHTS}/{p.name} has no entry in {SUMS}"
                for p in sorted(weights.glob("*.pt")) if p.name not in listed]
    for name, digest in sorted(listed.items()):
        file = weights / name
        if not file.is_file():
            problems.append(f"{WEIGHTS}/{name} is missing")
        elif hashlib.sha256(file.read_bytes()).hexdigest() != digest:
            problems.append(f"{WEIGHTS}/{name} is not the shipped file {SUMS} records (a "
                            "rebuild? `git checkout data/weights` puts the shipped one back)")
    return problems


def _copy(course: Path, top: str, out: Path) -> None:
    source = course / top
    if source.is_file():
        (out / top).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, out / top)
        return

    def ignored(folder: str, names: list[str]) -> set[str]:
        rel = Path(folder).relative_to(course)
        return {n for n in names
                if any(fnmatch.fnmatch(n, pattern) for pattern in LEFT_OUT_NAMES)
                or (rel / n).as_posix() in LEFT_OUT}

    shutil.copytree(source, out / top, ignore=ignored)


def _write_tree(course: Path, out: Path) -> None:
    for top in COPIED:
        _copy(course, top, out)
    start = out / "START.ipynb"
    nbformat.write(start_page(nbformat.read(start, as_version=4)), start)
    start_zh = out / "zh" / "START.ipynb"
    if start_zh.exists():
        nbformat.write(start_page(nbformat.read(start_zh, as_version=4), "zh"), start_zh)
    (out / "requirements.txt").write_text(
        student_requirements((course / "requirements.txt").read_text(encoding="utf-8")),
        encoding="utf-8")
    (out / "pyproject.toml").write_text(
        student_pyproject((course / "pyproject.toml").read_text(encoding="utf-8")),
        encoding="utf-8")
    workflow = out / WORKFLOW[1]
    workflow.parent.mkdir(parents=True)
    shutil.copyfile(course / WORKFLOW[0], workflow)
    (out / "README.md").write_text(student_readme(course), encoding="utf-8")
    shutil.copyfile(TEMPLATES / "gitignore", out / ".gitignore")


def _git_commit(out: Path) -> None:
    if shutil.which("git") is None:
        raise ReleaseError("--git needs git on PATH; the release is written, without a commit")

    def git(*args, **kwargs):
        return subprocess.run(["git", *args], cwd=out, capture_output=True, text=True, **kwargs)

    git("init", "-q", "-b", "main", check=True)
    git("add", ".", check=True)
    who = [] if git("config", "user.email").stdout.strip() else [
        "-c", "user.name=Course release", "-c", "user.email=release@localhost"]
    done = git(*who, "commit", "-q", "-m", "The course for a class: lessons and exercises")
    if done.returncode:
        raise ReleaseError(f"git commit in {out} failed: {done.stderr.strip()}")


def release(out: Path, course: Path = ROOT, git: bool = False) -> Path:
    """Write the class template into `out` (absent or empty); return its resolved path."""
    course = Path(course).resolve()
    out = _outside_course(out, course)
    stale = _stale_exercises(course)
    if stale:
        raise ReleaseError(f"{', '.join(stale)} differ from what solutions/ generates: run "
                           "python -m helpers.grade.exercises first")
    out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        _write_tree(course, building)
        problems = unverified_weights(building)
        if problems:
            raise ReleaseError("the weights do not verify: " + "; ".join(problems))
        leaks = answers_in(building, answers(course / "solutions")) - LIBRARY_ANSWERS
        if leaks:
            where = [f"{lesson} {ex} in {file}" for lesson, ex, file in sorted(leaks)]
            more = f"; and {len(where) - 5} more" if len(where) > 5 else ""
            raise ReleaseError("the answers' code is in files the class would get: "
                               + "; ".join(where[:5]) + more)
        if out.exists():
            out.rmdir()  # empty, checked above
        os.replace(building, out)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    if git:
        _git_commit(out)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m helpers.grade.release",
        description="Write the repository a class gets (lessons, exercises, the course library, "
                    "the grading workflow), without solutions/.")
    parser.add_argument("out", type=Path, metavar="OUT",
                        help="a folder that does not exist yet, or an empty one")
    parser.add_argument("--git", action="store_true",
                        help="make OUT a git repository with everything in one commit")
    args = parser.parse_args(argv)
    try:
        out = release(args.out, git=args.git)
    except ReleaseError as e:
        print(f"release: {e}", file=sys.stderr)
        return 2
    files = sum(1 for p in out.rglob("*") if p.is_file() and ".git" not in p.relative_to(out).parts)
    print(f"released the course into {out}: {files} files, no solutions/"
          + (" (a git repository, one commit)" if args.git else ""))
    print("Push it to GitHub, mark it a template repository, and set the variable "
          "COURSE_REPOSITORY of the class's organization to this course (README, In a class).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
