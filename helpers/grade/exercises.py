"""Generate exercises/NN_name.ipynb from solutions/NN_name.ipynb, the single source.

In a solution notebook an answer region is marked inside a code cell:

    def scaled_scores(q, k):
        ### BEGIN SOLUTION hint: divide by the square root of the key width
        return q @ k.T / np.sqrt(k.shape[-1])
        ### END SOLUTION

The generator replaces the region with a stub that raises NotImplementedError carrying the
hint, clears every output, and keeps check cells (tagged `check`) exactly as they are. It
writes the lesson's name into the notebook's metadata (`"course": {"lesson": "02_one_row"}`),
so that a copy saved under another name ("Copy of 02_one_row.ipynb") is still known.

Run `python -m helpers.grade.exercises` to regenerate every exercise notebook, or
`python -m helpers.grade.exercises solutions/NN_name.ipynb` for one.
"""

from __future__ import annotations

import argparse
import copy
import functools
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"

BEGIN = re.compile(r"^(?P<indent>\s*)### BEGIN SOLUTION(?:\s*hint:\s*(?P<hint>.*))?$")
END = re.compile(r"^\s*### END SOLUTION\s*$")
STUB_MESSAGE = "Not attempted yet: replace this line with your answer."
# The stub's line in each language a translation builds (helpers.grade.translate): it begins
# with helpers.checks.core.STUB_PREFIXES[lang], which the checks recognise as "not attempted".
STUB_MESSAGES = {"en": (STUB_MESSAGE, " Hint: "),
                 "zh": ("尚未作答：请把这一行换成你的答案。", "提示：")}
YOUR_CODE = {"en": "# YOUR CODE HERE", "zh": "# 在这里写你的代码"}
COURSE_METADATA = "course"  # nb.metadata["course"] = {"lesson": "02_one_row"}


def is_check(cell) -> bool:
    return "check" in cell.get("metadata", {}).get("tags", [])


def normal(source: str) -> str:
    """A cell's source as compared: no trailing spaces, no blank lines around it."""
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def metadata_lesson(nb) -> str | None:
    """The lesson a notebook's metadata names, if any."""
    course = (nb.get("metadata") or {}).get(COURSE_METADATA)
    lesson = course.get("lesson") if isinstance(course, dict) else None
    return lesson if isinstance(lesson, str) and lesson else None


def metadata_language(nb) -> str:
    """The language a notebook is in: its metadata's ("zh" for a translation), else "en"."""
    course = (nb.get("metadata") or {}).get(COURSE_METADATA)
    language = course.get("language") if isinstance(course, dict) else None
    return language if language in STUB_MESSAGES else "en"


def check_sources(nb) -> frozenset[str]:
    """The normalised sources of a notebook's check cells: each lesson's are its own (their
    ids, ex1-check..., are the same in every lesson)."""
    return frozenset(normal(c.source) for c in nb.cells if is_check(c))


def _solutions_by_checks() -> dict[frozenset[str], str]:
    """{check sources: lesson} of solutions/, read again when its files change."""
    paths = sorted(SOLUTIONS.glob("*.ipynb"))
    return _read_solutions(tuple((p, p.stat().st_mtime_ns) for p in paths))


@functools.lru_cache(maxsize=2)
def _read_solutions(files: tuple[tuple[Path, int], ...]) -> dict[frozenset[str], str]:
    return {check_sources(nbformat.read(p, as_version=4)): p.stem for p, _ in files}


def lesson_of_solution(solution) -> str | None:
    """The lesson a solution notebook is: its metadata's, else the solutions/ notebook with
    the same check cells (a solution read from elsewhere, or built in a test)."""
    return metadata_lesson(solution) or _solutions_by_checks().get(check_sources(solution))


def has_solution(cell) -> bool:
    return cell.cell_type == "code" and any(BEGIN.match(line) for line in cell.source.splitlines())


def stub_source(source: str, language: str = "en") -> str:
    """The source with every answer region replaced by a NotImplementedError stub."""
    out, inside = [], False
    for number, line in enumerate(source.splitlines(), 1):
        begin = BEGIN.match(line)
        if begin:
            if inside:
                raise ValueError(f"line {number}: BEGIN SOLUTION inside another answer region")
            inside = True
            indent, hint = begin["indent"], (begin["hint"] or "").strip()
            stub, hint_word = STUB_MESSAGES[language]
            message = stub + (f"{hint_word}{hint}" if hint else "")
            out.append(f"{indent}{YOUR_CODE[language]}")
            out.append(f"{indent}raise NotImplementedError({message!r})")
        elif END.match(line):
            if not inside:
                raise ValueError(f"line {number}: END SOLUTION without BEGIN SOLUTION")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError("BEGIN SOLUTION without END SOLUTION")
    return "\n".join(out)


def make_exercise(solution: nbformat.NotebookNode,
                  lesson: str | None = None) -> nbformat.NotebookNode:
    """The exercise notebook for a solution notebook: stubs in, outputs out, the lesson's name
    in its metadata (lesson: default lesson_of_solution; none for a notebook of no lesson)."""
    nb = copy.deepcopy(solution)
    lesson = lesson or lesson_of_solution(solution)
    language = metadata_language(solution)
    if lesson:
        nb.metadata[COURSE_METADATA] = {"lesson": lesson}
        if language != "en":
            nb.metadata[COURSE_METADATA]["language"] = language
    for cell in nb.cells:
        if cell.cell_type == "code":
            if has_solution(cell):
                if is_check(cell):
                    raise ValueError(f"cell {cell.id}: a check cell cannot hold an answer region")
                try:
                    cell.source = stub_source(cell.source, language)
                except ValueError as e:
                    raise ValueError(f"cell {cell.id}, {e}") from None
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)
    return nb


def fill_solutions(exercise, solution) -> nbformat.NotebookNode:
    """The exercise with each answer cell's source taken from the solution, matched by id."""
    answers = {c.id: c.source for c in solution.cells if has_solution(c)}
    nb = copy.deepcopy(exercise)
    for cell in nb.cells:
        if cell.get("id") in answers:
            cell.source = answers[cell.id]
    return nb


def exercise_path(solution_path: Path) -> Path:
    return EXERCISES / Path(solution_path).name


def render(nb) -> str:
    """Notebook text exactly as committed (what the sync test compares)."""
    return nbformat.writes(nb) + "\n"


def generate_all(check_only: bool = False, solutions=None) -> list[Path]:
    """Write (or, with check_only, compare) exercise notebooks. Returns the stale ones.

    solutions: the solution notebooks to generate from; all of solutions/ by default.
    """
    stale = []
    for solution_path in sorted(solutions or SOLUTIONS.glob("*.ipynb")):
        solution = nbformat.read(solution_path, as_version=4)
        text = render(make_exercise(solution, Path(solution_path).stem))
        target = exercise_path(solution_path)
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            stale.append(target)
            if not check_only:
                target.parent.mkdir(exist_ok=True)
                target.write_text(text, encoding="utf-8")
    return stale


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale exercises")
    parser.add_argument("solutions", nargs="*", type=Path, help="default: all of solutions/")
    args = parser.parse_args(argv)
    stale = generate_all(check_only=args.check, solutions=[p.resolve() for p in args.solutions])
    verb = "stale" if args.check else "written"
    for path in stale:
        print(f"{verb}: {path.relative_to(ROOT)}")
    if not stale:
        print("every exercise notebook is up to date")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
