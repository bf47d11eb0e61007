"""Where the course's notebooks are, for the tests."""

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def read(path):
    return nbformat.read(path, as_version=4)


def ids(paths):
    return [p.stem for p in paths]
