"""What was handed in: which lesson each notebook is, and whose it is."""

from __future__ import annotations

from pathlib import Path

import nbformat

from helpers.grade.lessons import Lesson, UsageError, normal


def lesson_for(path: Path, lessons: dict[str, Lesson]) -> Lesson | None:
    """The lesson a file belongs to: same name, or a name followed by - _ . or a space."""
    stem = path.name[: -len(".ipynb")] if path.name.endswith(".ipynb") else path.stem
    if stem in lessons:
        return lessons[stem]
    prefixes = [n for n in lessons if stem.startswith(n) and stem[len(n)] in "-_. "]
    return lessons[max(prefixes, key=len)] if prefixes else None


def _looks_like(path: Path, lessons: dict[str, Lesson]) -> str:
    """' It looks like NN_name (...)' when its cells are a lesson's, else ''."""
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception:  # noqa: BLE001 - not a notebook: the name is all there is
        return ""
    ids = {c.get("id") for c in nb.cells}
    sources = {normal(c.source) for c in nb.cells if c.get("cell_type") == "code"}
    scores = {name: sum(e.check_id in ids or normal(e.source) in sources
                        for e in lesson.exercises) for name, lesson in lessons.items()}
    best = max(scores, key=scores.get, default=None)
    if best is None or not scores[best]:
        return ""
    return (f" Its cells are those of {best}: rename it {best}.ipynb, or {best}-NAME.ipynb, "
            "to grade it.")


def student_of(path: Path, folder: Path | None, lesson: str | None) -> str:
    """Who handed a notebook in: the first folder under the class folder it was found in
    (the layout GitHub Classroom and a teacher's download give), else what follows the
    lesson's name in the file name (02_one_row-ana.ipynb: ana), else ''."""
    if folder is not None:
        parts = path.relative_to(folder).parts
        if len(parts) > 1:
            return parts[0]
    stem = path.name[: -len(".ipynb")] if path.name.endswith(".ipynb") else path.stem
    if lesson and stem.startswith(lesson) and len(stem) > len(lesson) + 1:
        return stem[len(lesson) + 1:].strip(" -_.")
    return ""


def students_of(paths, pairs, unmatched) -> dict[Path, str]:
    """student_of for every notebook found under the command-line paths."""
    folders = [Path(p).resolve() for p in paths if Path(p).is_dir()]
    names = {}
    for path, lesson in [*pairs, *[(p, None) for p, _ in unmatched]]:
        resolved = path.resolve()
        folder = next((f for f in folders if f in resolved.parents), None)
        names[path] = student_of(resolved, folder, lesson.name if lesson else None)
    return names


def find_notebooks(paths, lessons) -> tuple[list[tuple[Path, Lesson]], list[tuple[Path, str]]]:
    """(notebook, lesson) pairs for the command-line paths, and (path, why) for each notebook
    in a folder whose name matches no lesson: it is reported, not silently skipped."""
    found, warnings, seen = [], [], set()
    names = ", ".join(lessons)

    def add(path, lesson):
        if path.resolve() not in seen:
            seen.add(path.resolve())
            found.append((path, lesson))

    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise UsageError(f"{raw}: no such file or folder")
        if path.is_dir():
            matched = 0
            for nb in sorted(path.rglob("*.ipynb")):
                if any(part.startswith(".") for part in nb.relative_to(path).parts):
                    continue  # .ipynb_checkpoints, .git
                lesson = lesson_for(nb, lessons)
                if lesson is None:
                    warnings.append((nb, f"not graded: its name matches no lesson ({names})."
                                         + _looks_like(nb, lessons)))
                else:
                    matched += 1
                    add(nb, lesson)
            if not matched:
                raise UsageError(f"{raw}: no notebook in this folder matches a lesson ({names})")
        else:
            lesson = lesson_for(path, lessons)
            if lesson is None:
                raise UsageError(
                    f"{raw}: matches no lesson; name the file after one of: {names}"
                )
            add(path, lesson)
    return found, warnings


# --- the graded copy -------------------------------------------------------------------------


