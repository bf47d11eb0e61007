"""The class template, helpers.grade.release: what a class gets, and that it has no answers.

One release (with --git) is read by the content tests; a copy of it, a student's, runs lesson
01 and the solved exercises 01 on the released library only, and one grading run grades its
exercise notebooks with the course beside the course's own (about 40 s in all).
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
import tomllib

from helpers.grade import release
from helpers.grade.exercises import fill_solutions
from helpers.grade.notebooks import execute

ROOT = Path(__file__).resolve().parents[1]
LESSON, WRONG_LESSON = "01_qkv", "02_one_row"
WRONG_ANSWER = "def scaled_scores(q, k):\n    return q @ k.T / k.shape[-1]\n"


def _solution_bodies() -> list[tuple[str, str, str]]:
    """(lesson, answer cell id, code) of every answer region, read from the notebooks' JSON."""
    bodies = []
    for path in sorted((ROOT / "solutions").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            source = "".join(cell["source"])
            for code in re.findall(r"### BEGIN SOLUTION[^\n]*\n(.*?)\n[ \t]*### END SOLUTION",
                                   source, re.S):
                bodies.append((path.stem, cell.get("id", ""), textwrap.dedent(code)))
    return bodies


def _texts(tree: Path):
    """(relative path, whitespace-squeezed text) of every text file; a notebook's cell sources
    and outputs are read from its JSON."""
    for path in sorted(p for p in tree.rglob("*") if p.is_file() and ".git" not in p.parts):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if path.suffix == ".ipynb":
            cells = json.loads(text)["cells"]
            text = "\n".join(["".join(c["source"]) for c in cells] + [
                json.dumps(o, ensure_ascii=False) for c in cells for o in c.get("outputs", [])])
        yield path.relative_to(tree).as_posix(), " ".join(text.split())


def _found(tree: Path) -> set[tuple[str, str, str]]:
    bodies = [(lesson, cid, " ".join(code.split())) for lesson, cid, code in _solution_bodies()]
    return {(lesson, cid.removesuffix("-answer"), rel) for rel, text in _texts(tree)
            for lesson, cid, code in bodies if code and code in text}


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    workflow = (ROOT / "classroom/grade.yml").read_bytes()
    out = tmp_path_factory.mktemp("release") / "class-template"
    assert release.main([str(out), "--git"]) == 0
    return out, {workflow, (ROOT / "classroom/grade.yml").read_bytes()}


def test_the_template_holds_lessons_exercises_library_data_and_workflow(released):
    out, workflows = released
    names = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(p.name for p in (out / "notebooks").glob("*.ipynb")) == names
    for name in names:  # copied byte for byte
        assert (out / "exercises" / name).read_bytes() == (ROOT / "exercises" / name).read_bytes()
        assert (out / "notebooks" / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes()
    library = sorted(p.relative_to(ROOT).as_posix() for p in [
        *(ROOT / "helpers").glob("*.py"), *(ROOT / "helpers/checks").glob("*.py"),
        *(ROOT / "helpers/checks/diagnoses").glob("*.*")])  # a Chinese check reads the labels
    assert sorted(p.relative_to(out).as_posix() for p in (out / "helpers").rglob("*")
                  if p.is_file()) == library  # not helpers/grade/
    assert (out / "data/alice.txt").is_file() and (out / "jupyter-config/pyproject.toml").is_file()
    assert (out / ".github/workflows/grade.yml").read_bytes() in workflows
    tops = {p.name for p in out.iterdir()}
    assert tops == {".git", ".github", ".gitignore", "README.md", "START.ipynb", "data",
                    "exercises", "helpers", "jupyter-config", "notebooks", "pyproject.toml",
                    "requirements.txt", "zh", "translations"}  # no solutions/, tests/, docs/
    assert sorted(p.name for p in (out / "zh").iterdir()) == ["START.ipynb", "exercises",
                                                              "notebooks"]  # no zh/solutions/
    assert [p.relative_to(out).as_posix() for p in (out / "translations").rglob("*")
            if p.is_file()] == ["translations/zh/diagnoses.po"]
    assert "solutions/" not in (out / "zh" / "START.ipynb").read_text(encoding="utf-8")
    assert not list(out.rglob("__pycache__")) and not list(out.rglob("*.egg-info"))
    assert "solutions/" not in (out / "START.ipynb").read_text(encoding="utf-8")


def _module_file(tree: Path, dotted: str) -> Path | None:
    base = tree.joinpath(*dotted.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()), None)


def test_every_helpers_module_a_released_notebook_or_module_imports_is_released(released):
    out, _ = released
    sources = [p.read_text(encoding="utf-8") for p in (out / "helpers").rglob("*.py")]
    for nb in [*out.glob("*.ipynb"), *out.glob("notebooks/*.ipynb"), *out.glob("exercises/*")]:
        sources += ["\n".join(line for line in c.source.splitlines() if line[:1] not in "%!")
                    for c in nbformat.read(nb, as_version=4).cells if c.cell_type == "code"]
    imported = set()
    for node in (n for source in sources for n in ast.walk(ast.parse(source))):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            imported |= {node.module} | {f"{node.module}.{a.name}" for a in node.names
                                         if _module_file(ROOT, f"{node.module}.{a.name}")}
    ours = {name for name in imported if name.split(".")[0] == "helpers"}
    assert {"helpers.checks.qkv", "helpers.pretrained", "helpers.widgets"} <= ours
    assert not [name for name in ours if _module_file(out, name) is None]


def test_no_answer_code_in_any_released_file(released):
    out, _ = released
    # The search finds every answer in the course's own solutions/ ...
    assert len(_found(ROOT / "solutions")) == len({(lesson, cid) for lesson, cid, _ in
                                                   _solution_bodies()}) > 50
    # ... and in the template only the library functions the lessons import (README, release).
    assert _found(out) == release.LIBRARY_ANSWERS


def test_the_release_refuses_a_tree_that_holds_answers(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(release, "COPIED", (*release.COPIED, "solutions"))
    out = tmp_path / "template"
    assert release.main([str(out)]) == 2
    error = capsys.readouterr().err
    assert "the answers' code is in files the class would get" in error
    assert "01_qkv ex1 in solutions/01_qkv.ipynb" in error and " more" in error
    assert list(tmp_path.iterdir()) == []  # nothing left behind, not even the build folder


def test_the_weights_verify_against_their_checksums(released, tmp_path):
    out, _ = released
    sums = (out / "data/weights/SHA256SUMS").read_text(encoding="ascii").split()
    pairs = dict(zip(sums[1::2], sums[0::2], strict=True))
    assert sorted(pairs) == sorted(p.name for p in (out / "data/weights").iterdir()
                                   if p.suffix in (".pt", ".json"))  # weights and records
    for name, digest in pairs.items():
        assert hashlib.sha256((out / "data/weights" / name).read_bytes()).hexdigest() == digest
    tampered = tmp_path / "tree"
    shutil.copytree(out / "data", tampered / "data")
    (tampered / "data/weights/charlm.pt").write_bytes(b"not the shipped weights")
    assert release.unverified_weights(tampered) == [
        "data/weights/charlm.pt is not the shipped file SHA256SUMS records (a rebuild? "
        "`git checkout data/weights` puts the shipped one back)"]


def test_requirements_install_the_template_without_the_developers_tools(released):
    out, _ = released
    lines = [line.strip() for line in (out / "requirements.txt").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    course = (ROOT / "requirements.txt").read_text()
    assert "-e ." in lines and "./jupyter-config" in lines
    assert next(line for line in lines if line.startswith("torch==")) in course
    assert not [line for line in lines if re.match(r"(pytest|nbval|ruff|playwright)\b", line)]
    pinned = {re.split("==", line)[0].lower() for line in lines if "==" in line}
    project = tomllib.loads((out / "pyproject.toml").read_text())
    assert set(project["project"]["dependencies"]) <= pinned  # every dependency pinned
    assert project["tool"] == {"setuptools": {"packages": {"find": {"include": ["helpers*"]}}}}


def test_the_readme_says_how_to_install_work_push_and_what_the_grade_is(released):
    text = (released[0] / "README.md").read_text(encoding="utf-8")
    workflow = (released[0] / ".github/workflows/grade.yml").read_text()
    name = re.search(r"^name: (.+)$", workflow, re.M).group(1)
    for words in ("pip install -r requirements.txt", "jupyter lab", "START.ipynb", "git push",
                  f"runs the workflow **{name}**", "`✔`", "helpers/checks/", "`tampered`",
                  "drawn afresh"):
        assert words in text, words
    total = sum(1 for _ in re.finditer(r"^\| \d\d \|", text, re.M))
    assert total == len(list((ROOT / "solutions").glob("*.ipynb")))
    assert "| 02 | [One attention row by hand](notebooks/02_one_row.ipynb) |" in text


def test_out_must_be_new_or_empty_and_outside_the_course(tmp_path, capsys):
    (tmp_path / "full").mkdir()
    (tmp_path / "full/notes.txt").write_text("mine")
    (tmp_path / "file").write_text("mine")
    inside = ROOT / "release-test-never-written"
    for out, says in [(tmp_path / "full", "is not empty"), (tmp_path / "file", "is a file"),
                      (inside, "is inside the course")]:
        assert release.main([str(out)]) == 2
        assert says in capsys.readouterr().err
    assert (tmp_path / "full/notes.txt").read_text() == "mine" and not inside.exists()
    assert not list(ROOT.glob(".release-test-never-written-*"))


@pytest.fixture(scope="module")
def student(released, tmp_path_factory):
    """A student's clone of the template, with lesson 01's exercises solved and lesson 02's
    first exercise answered wrongly."""
    repo = tmp_path_factory.mktemp("student") / "repo"
    shutil.copytree(released[0], repo, symlinks=True)
    solve(repo / "exercises", LESSON)
    solve(repo / "exercises", WRONG_LESSON, wrong=True)
    return repo


def solve(folder: Path, lesson: str, wrong: bool = False) -> Path:
    path = folder / f"{lesson}.ipynb"
    nb = fill_solutions(nbformat.read(path, as_version=4),
                        nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4))
    if wrong:
        next(c for c in nb.cells if c.get("id") == "ex1-answer").source = WRONG_ANSWER
    nbformat.write(nb, path)
    return path


WHERE = ("import sys, helpers\nprint('HELPERS', helpers.__file__)\n"
         "print('GRADE', [m for m in sys.modules if m.startswith('helpers.grade')])")


def _run(path: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(WHERE))
    return execute(nb, path.parent, timeout=300)


def _printed(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []))


def test_a_lesson_and_solved_exercises_run_on_the_released_library_only(student, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(student))
    lesson = _run(student / "notebooks" / f"{LESSON}.ipynb")
    solved = _run(student / "exercises" / f"{LESSON}.ipynb")
    for nb in (lesson, solved):
        where = _printed(nb.cells[-1])
        assert f"HELPERS {student / 'helpers' / '__init__.py'}" in where, where
        assert "GRADE []" in where
    checks = [c for c in solved.cells if "check" in c.metadata.get("tags", [])]
    assert len(checks) == 6
    for cell in checks:
        assert _printed(cell).startswith("✔"), (cell.id, _printed(cell))
    # what running them leaves behind is ignored: only the solved exercises are changes
    status = subprocess.run(["git", "status", "--porcelain"], cwd=student, text=True,
                            capture_output=True, check=True).stdout.splitlines()
    assert sorted(status) == [f" M exercises/{LESSON}.ipynb", f" M exercises/{WRONG_LESSON}.ipynb"]


def test_released_exercises_are_graded_as_the_courses_own(student, tmp_path):
    # one lesson, graded from the release and from the course: its wrong first answer and its
    # solved rest give both verdicts (lesson 01's solved exercises run in the test above)
    own = tmp_path / "course-exercises"
    own.mkdir()
    shutil.copyfile(ROOT / "exercises" / f"{WRONG_LESSON}.ipynb",
                    own / f"{WRONG_LESSON}.ipynb")
    course = solve(own, WRONG_LESSON, wrong=True)
    release = student / "exercises" / f"{WRONG_LESSON}.ipynb"
    report = tmp_path / "grades.json"
    run = subprocess.run([sys.executable, "-m", "helpers.grade", str(release), str(course),
                          "--solutions", str(ROOT / "solutions"), "--json", str(report),
                          "--jobs", "2"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr  # the wrong answer fails
    verdicts = {Path(n["path"]).resolve(): [(e["id"], e["status"], e["earned"], e["message"])
                                            for e in n["exercises"]]
                for n in json.loads(report.read_text())["notebooks"]}
    assert verdicts[release.resolve()] == verdicts[course.resolve()]
    wrong = verdicts[release.resolve()]
    assert wrong[0][:3] == ("ex1", "failed", 0)
    assert {status for _, status, _, _ in wrong[1:]} == {"passed"}
