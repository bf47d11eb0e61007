"""Attacks on the grader, each written as a student who has read helpers/grade/ and
helpers/checks/ would write it, and each graded as what it really is.

Everything goes through the command line, `python -m helpers.grade PATH --json ...`, run from a
throw-away copy of the course (helpers/, solutions/, exercises/, data/, pyproject.toml under
tmp_path; cwd and PYTHONPATH set to it), never from the work tree: an attack that writes to the
course writes to the copy. Four grader runs, started side by side by one module fixture:

- "main": the attacks that stay inside their kernel (the traceback display silenced, a
  custom exception handler, patched comparisons, no-op checks, a fake helpers.checks served
  from sys.meta_path, the library softmax under another name, a lookup table of the visible
  cases, an id-less notebook with deleted checks, processes left running), a notebook each or
  one exercise each of a shared notebook, and solved notebooks of two lessons as controls
  (full marks, nothing changed; the other runs have one control each);
- "attacker" then "victim": a submission rewrites the course's checks and the solution
  notebook (every path to them a student could find), then, in a second run, an untouched
  stub and a solved control are graded: the victim's grade must not change, the attacker is
  flagged (`changed_course_files`, every exercise `tampered`);
- "unmatched": a file that neither its name, its metadata nor its check cells tie to a
  lesson (`draft.ipynb`: lesson 02's answers, its checks deleted) beside a solved control:
  it appears in every report and the exit status is 1.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell

from helpers.grade.exercises import fill_solutions

from notebook_files import ROOT

TIMEOUT = 30  # seconds per cell
COURSE_PARTS = ("helpers", "solutions", "exercises", "data", "pyproject.toml")
LESSON_NAMES = sorted(p.stem for p in (ROOT / "solutions").glob("*.ipynb"))
ONE_ROW = ("ex1", "ex2", "ex3", "ex4", "ex5")
MARKER = "appended by a submission (tests/test_grade_attacks.py)"  # in what attack 7 writes
UNMATCHED = "draft.ipynb"
CONTROLS = {  # run -> {file name: lesson}: solved notebooks named like students' files
    "main": {"01_qkv-ana.ipynb": "01_qkv", "05_multi_head-chloe.ipynb": "05_multi_head"},
    "victim": {"02_one_row-ben.ipynb": "02_one_row"},
    "unmatched": {"09_cost-dana.ipynb": "09_cost"},
}


# --- the course copy and the notebooks -------------------------------------------------------


def _copy_course(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for part in COURSE_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, dest / part,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, dest / part)
    # the course as an editable install would show it (importlib.metadata, like a CI's
    # `pip install -e course`), so an attack that asks the metadata finds this copy
    info = dest / "attention_course-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: attention-course\n"
                                   "Version: 0.1.0\n", encoding="utf-8")
    (info / "direct_url.json").write_text(json.dumps(
        {"dir_info": {"editable": True}, "url": dest.resolve().as_uri()}), encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")
    return dest


def _env(course: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(course)
    return env


def _imports_from(course: Path) -> str:
    return subprocess.run(
        [sys.executable, "-c", "import helpers; print(helpers.__file__)"], cwd=course,
        env=_env(course), capture_output=True, text=True, check=True).stdout.strip()


def _read(path: Path):
    return nbformat.read(path, as_version=4)


def _stub(course: Path, lesson: str):
    return _read(course / "exercises" / f"{lesson}.ipynb")


def _solved(course: Path, lesson: str):
    return fill_solutions(_stub(course, lesson), _read(course / "solutions" / f"{lesson}.ipynb"))


def _unidentifiable(course: Path, lesson: str):
    """A lesson's answers with nothing that says which lesson: no check cells, no metadata."""
    nb = _solved(course, lesson)
    nb.cells = [c for c in nb.cells if not c.get("id", "").endswith("-check")]
    nb.metadata.pop("course", None)
    return nb


def _answers(nb, **sources):
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.get("id") in sources:
            cell.source = sources[cell.id]
    return nb


def _code_index(nb) -> int:
    return next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")


def _with_first_cell(nb, source, cid="attack"):
    """The notebook with a new code cell before its first code cell."""
    nb = copy.deepcopy(nb)
    cell = new_code_cell(source)
    cell.id = cid
    nb.cells.insert(_code_index(nb), cell)
    return nb


def _after_setup(nb, source, cid="attack"):
    """The notebook with a new code cell right after its first code cell (the setup)."""
    nb = copy.deepcopy(nb)
    cell = new_code_cell(source)
    cell.id = cid
    nb.cells.insert(_code_index(nb) + 1, cell)
    return nb


def _write(path: Path, nb) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if nb.nbformat_minor < 5:  # nbformat would add ids back
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding="utf-8")
    else:
        nbformat.write(nb, path)


def _points(course: Path, lesson: str) -> dict[str, float]:
    return {c.id.removesuffix("-check"): c.metadata["points"]
            for c in _read(course / "solutions" / f"{lesson}.ipynb").cells
            if "check" in c.metadata.get("tags", [])}


# --- the attacks that stay in their kernel ---------------------------------------------------

# 1. IPython shows no error, so nbval sees none
SILENCE_TRACEBACK = "get_ipython().showtraceback = lambda *a, **k: None"

# 2. every exception goes to a handler that shows nothing
SWALLOW = '''\
def _swallow(shell, etype, evalue, tb, tb_offset=None):
    return None  # nothing shown, nothing sent: the cell looks as if it ran fine


get_ipython().set_custom_exc((Exception,), _swallow)'''

WRONG_SCORES = "def scaled_scores(q, k):\n    return q @ k.T  # the scale forgotten"
WRONG_SOFTMAX = ("def stable_softmax(s):\n    e = np.exp(s)  # no max subtracted\n"
                 "    return e / e.sum(axis=-1, keepdims=True)")

# wrong answers of the right shapes, for the attacks that make the comparisons agree
ZERO_ANSWERS = {
    "ex1": ("def scaled_scores(q, k):\n    {patch}\n"
            "    return np.zeros((len(q), len(k)))"),
    "ex2": "def stable_softmax(s):\n    {patch}\n    return np.zeros(np.shape(s))",
    "ex3": ("def weighted_sum(weights, v):\n    {patch}\n"
            "    return np.zeros((np.shape(weights)[0], np.shape(v)[1]))"),
    "ex4": ("def row_by_hand(q, k, v, i):\n    {patch}\n"
            "    return np.zeros(np.shape(v)[1]), np.zeros(len(k))"),
    "ex5": ("def attention_output(q, k, v, mask=None):\n    {patch}\n"
            "    return np.zeros((len(q), np.shape(v)[1])), np.zeros((len(q), len(k)))"),
}

PATCHED_BY = {"ex1": "_everything_agrees()", "ex2": "_everything_agrees()",
              "ex3": "_everything_agrees()", "ex4": "_nothing_fails()", "ex5": "_nothing_fails()"}

# 3. called inside the check, after the grader put NumPy and torch back
ALWAYS_CLOSE = '''\
import numpy as np
import torch


def _everything_agrees():
    np.allclose = lambda *a, **k: True
    np.testing.assert_allclose = lambda *a, **k: None
    torch.allclose = lambda *a, **k: True
    torch.testing.assert_close = lambda *a, **k: None


'''

# 4. called inside the check, on the very module the check imported
NO_OP_CORE = '''\
import sys

import numpy as np


def _nothing_fails():
    try:
        import helpers.checks.core  # noqa: F401 - the check has imported it already
    except ImportError:
        return
    core = sys.modules["helpers.checks.core"]
    for name in ("compare", "judge", "fail", "named_mistake"):
        setattr(core, name, lambda *a, **k: None)
    core.matches = lambda *a, **k: True


'''

# 5. a finder before every other: `from helpers.checks import one_row` gets this one
FAKE_CHECKS = '''\
import importlib.abc
import importlib.util
import sys


class _MyChecks(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """helpers.checks and its modules, mine: every check prints its tick and returns."""

    def find_spec(self, name, path=None, target=None):
        if name == "helpers.checks" or name.startswith("helpers.checks."):
            return importlib.util.spec_from_loader(name, self,
                                                   is_package=name == "helpers.checks")
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__name__ == "helpers.checks":
            module.__path__ = []

        def __getattr__(attr):
            if not attr.startswith("check_"):
                raise AttributeError(attr)

            def check(*args, **kwargs):
                print(f"✔ {attr.removeprefix('check_')}: correct")

            return check

        module.__getattr__ = __getattr__
        for name in ("scaled_scores", "stable_softmax", "weighted_sum", "row_by_hand",
                     "attention_output"):
            setattr(module, f"check_{name}", __getattr__(f"check_{name}"))


sys.meta_path.insert(0, _MyChecks())'''

# 6. the softmax the exercise forbids, under another name
SOFTMAX_ALIAS = ("from helpers.attention import softmax as s\n\n\n"
                 "def stable_softmax(x):\n    return s(x)")
SOFTMAX_MODULE = ("import helpers.attention as ha\n\n\n"
                  "def stable_softmax(x):\n    return ha.softmax(x)")

# 8. processes that outlive the kernel: a new session, and a double-forked daemon
DAEMON = '''\
import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open({path!r}, "w") as f:
            f.write(str(os.getpid()))
        os.execvp("sleep", ["sleep", "600"])
    os._exit(0)
'''
LEFT_RUNNING = '''\
import subprocess
import sys

_quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_sleeper = subprocess.Popen(["sleep", "600"], start_new_session=True, **_quiet)
with open({session!r}, "w") as f:
    f.write(str(_sleeper.pid))
subprocess.run([sys.executable, "-c", {daemon!r}], check=True, **_quiet)'''


# 11. the outputs of the check's visible cases, looked up by input
def _digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(np.asarray(a, dtype=float))
        h.update(repr(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


LOOKUP = '''\
import hashlib
import json

import numpy as np

_SEEN_{n} = json.loads({table!r})  # the check's visible cases: input digest -> output


def _digest_{n}(*arrays):
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(np.asarray(a, dtype=float))
        h.update(repr(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def {name}({args}):
    seen = _SEEN_{n}.get(_digest_{n}({args}))
    if seen is not None:
        return np.array(seen)
    return {otherwise}'''


def _visible_outputs(course: Path, name: str, check: str) -> dict[str, list]:
    """{input digest: output} for every call the check makes, read as a student would: run
    the check here (no grading seed) on the right function, recording what it is given."""
    from helpers.checks import one_row

    solution = _read(course / "solutions" / "02_one_row.ipynb")
    namespace = {}
    for cell in solution.cells:
        if cell.cell_type == "code" and (cell.get("id") == "setup" or cell.get("id", "")
                                         .endswith("-answer")):
            exec(cell.source, namespace)
    right = namespace[name]
    seen = {}

    def recorder(*args):
        out = right(*args)
        seen[_digest(*args)] = np.asarray(out, dtype=float).tolist()
        return out

    recorder.__name__ = name
    getattr(one_row, check)(recorder)
    return seen


def _hard_coded(course: Path) -> dict[str, str]:
    return {
        "ex1-answer": LOOKUP.format(
            n=1, name="scaled_scores", args="q, k", otherwise="np.zeros((len(q), len(k)))",
            table=json.dumps(_visible_outputs(course, "scaled_scores", "check_scaled_scores"))),
        "ex3-answer": LOOKUP.format(
            n=3, name="weighted_sum", args="weights, v",
            otherwise="np.zeros((np.shape(weights)[0], np.shape(v)[1]))",
            table=json.dumps(_visible_outputs(course, "weighted_sum", "check_weighted_sum"))),
    }


def main_run_notebooks(course: Path, pids: Path) -> dict[str, object]:
    """{file name: notebook} of the main run: one notebook per attack, and the controls."""
    stub, solved = _stub(course, "02_one_row"), _solved(course, "02_one_row")
    no_ids = copy.deepcopy(solved)  # old Jupyter: nbformat 4.4, no cell ids; two checks deleted
    no_ids.cells = [c for c in no_ids.cells if c.get("id") not in ("ex2-check", "ex4-check")]
    no_ids.nbformat_minor = 4
    for cell in no_ids.cells:
        cell.pop("id", None)
    daemon = DAEMON.format(path=str(pids / "daemon.pid"))
    notebooks = {
        "02_one_row-silenced.ipynb": _with_first_cell(stub, SILENCE_TRACEBACK),  # 1
        "02_one_row-swallowed.ipynb": _with_first_cell(_answers(stub, **{  # 2
            "ex1-answer": WRONG_SCORES, "ex2-answer": WRONG_SOFTMAX}), SWALLOW),
        "02_one_row-patched.ipynb": _answers(stub, **{  # 3 in ex1-ex3, 4 in ex4 and ex5
            f"{ex}-answer": {"ex1": ALWAYS_CLOSE, "ex4": NO_OP_CORE}.get(ex, "")
            + ZERO_ANSWERS[ex].format(patch=PATCHED_BY[ex]) for ex in ONE_ROW}),
        "02_one_row-meta_path.ipynb": _with_first_cell(stub, FAKE_CHECKS),  # 5
        "02_one_row-alias.ipynb": _after_setup(  # 6 (alias), and 8
            _answers(solved, **{"ex2-answer": SOFTMAX_ALIAS}), LEFT_RUNNING.format(
                session=str(pids / "session.pid"), daemon=daemon)),
        "02_one_row-no_ids.ipynb": no_ids,  # 9
        "02_one_row-lookup.ipynb": _answers(solved, **_hard_coded(course),  # 11, and 6 (module)
                                            **{"ex2-answer": SOFTMAX_MODULE}),
    }
    for name, lesson in CONTROLS["main"].items():
        notebooks[name] = _solved(course, lesson)
    return notebooks


# --- 7. one student changes another's grade --------------------------------------------------

REWRITE_COURSE = '''\
import json
import os
import re
import sys
from pathlib import Path

# -- the test's safety net, not part of the attack: write only inside throw-away folders
_PROTECTED = [Path(p) for p in @PROTECTED@]
_ALLOWED = [Path(p) for p in @ALLOWED@]
_LOG = @LOG@


def _safe(path):
    path = Path(os.path.realpath(path))
    def inside(base):
        return path == base or base in path.parents
    return not any(inside(p) for p in _PROTECTED) and any(inside(a) for a in _ALLOWED)


def _log(**record):
    with open(_LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\\n")


# -- the attack: find the course, every way a student could
def _course_roots():
    roots = {}

    def add(route, where):
        try:
            path = Path(os.path.realpath(str(where)))
        except (OSError, ValueError):
            return
        for folder in (path, *path.parents):
            if (folder / "helpers" / "checks" / "one_row.py").is_file():
                roots.setdefault(str(folder), route)
                return

    try:  # what this kernel imports
        import helpers
        import helpers.checks.one_row
        add("helpers.__file__", helpers.__file__)
        add("helpers.checks.one_row.__file__", sys.modules["helpers.checks.one_row"].__file__)
        import importlib.util
        add("importlib.util.find_spec", importlib.util.find_spec("helpers").origin)
    except Exception as e:
        _log(route="import", error=repr(e))
    try:  # where it is installed
        from importlib import metadata
        for dist in metadata.distributions():
            if (dist.metadata.get("Name") or "").lower().replace("_", "-") != "attention-course":
                continue
            direct = dist.read_text("direct_url.json")
            if direct and json.loads(direct).get("url", "").startswith("file://"):
                add("importlib.metadata direct_url.json", json.loads(direct)["url"][7:])
            for file in dist.files or ():
                if str(file).endswith((".pth", "_finder.py")):
                    text = Path(dist.locate_file(file)).read_text(errors="replace")
                    for found in re.findall(r"['\\"](/[^'\\"]+)['\\"]", text):
                        add(f"editable install {file}", found)
    except Exception as e:
        _log(route="metadata", error=repr(e))
    for name, module in list(sys.modules.items()):  # the editable-install finder's map
        mapping = getattr(module, "MAPPING", None)
        if name.startswith("__editable__") and isinstance(mapping, dict):
            for where in mapping.values():
                add("editable finder MAPPING", where)
    for entry in sys.path + os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if entry:
            add("sys.path, PYTHONPATH", entry)
    add("cwd", os.getcwd())
    for link in ("data", "../data"):
        if os.path.islink(link):
            add("the data symlink", os.path.realpath(link))
    pid = os.getppid()  # the processes that run this kernel: their folders and arguments
    while pid > 1:
        try:
            add("a parent's cwd", os.readlink(f"/proc/{pid}/cwd"))
            for item in Path(f"/proc/{pid}/environ").read_bytes().split(b"\\0"):
                if item.startswith(b"PYTHONPATH="):
                    for entry in item[len(b"PYTHONPATH="):].decode().split(os.pathsep):
                        if entry:
                            add("a parent's PYTHONPATH", entry)
            for arg in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\\0"):
                if arg.startswith(b"/"):
                    add("a parent's arguments", arg.decode(errors="replace"))
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return roots


EVERY_CHECK_PASSES = """

# @MARKER@
def _every_check_passes(name):
    def check(*args, **kwargs):
        print(f"✔ {name}: correct")
    return check


for _name in [_n for _n in list(globals()) if _n.startswith("check_")]:
    globals()[_name] = _every_check_passes(_name[len("check_"):])
"""


def _append_to_checks(path):
    with open(path, "a", encoding="utf-8") as f:
        f.write(EVERY_CHECK_PASSES)


def _rewrite_solution(path):
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if "check" in cell.get("metadata", {}).get("tags", []):
            title = cell["metadata"].get("exercise", "exercise")
            cell["source"] = f"# @MARKER@\\nprint({'✔ ' + title + ': correct'!r})"
    Path(path).write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding="utf-8")


for _root, _route in _course_roots().items():
    for _rel, _change in (("helpers/checks/one_row.py", _append_to_checks),
                          ("solutions/02_one_row.ipynb", _rewrite_solution)):
        _target = Path(_root) / _rel
        _record = dict(root=_root, route=_route, rel=_rel)
        if not _target.is_file():
            _log(**_record, done="missing")
        elif not _safe(_target):
            _log(**_record, done="skipped: protected")
        else:
            try:
                _change(_target)
                _log(**_record, done="wrote")
            except Exception as e:
                _log(**_record, done=f"failed: {e!r}")
'''


def _protected() -> list[str]:
    """The work tree, the course this process imports, the installed course, the venv."""
    import helpers

    paths = {ROOT, Path(helpers.__file__).parent.parent, Path(sys.prefix)}
    try:
        url = json.loads(metadata.distribution("attention-course").read_text(
            "direct_url.json") or "{}").get("url", "")
    except metadata.PackageNotFoundError:
        url = ""
    if url.startswith("file://"):
        paths.add(Path(url[len("file://"):]))
    return sorted({os.path.realpath(p) for p in paths})


def _rewrite_course(log: Path, allowed: list[Path]) -> str:
    protected = _protected()
    return (REWRITE_COURSE.replace("@PROTECTED@", repr(protected))
            .replace("@ALLOWED@", repr([os.path.realpath(p) for p in allowed]))
            .replace("@LOG@", repr(str(log))).replace("@MARKER@", MARKER))


# --- the runs --------------------------------------------------------------------------------


class Run:
    """`python -m helpers.grade FOLDER` from a course copy; result() waits and reads reports."""

    def __init__(self, course: Path, folder: Path, out: Path, jobs: int):
        self.course, self.folder, self.out, self.jobs = course, folder, out, jobs
        self.proc = None
        self.done = None
        self.started = threading.Event()

    def start(self):
        self.out.mkdir(parents=True, exist_ok=True)
        args = [sys.executable, "-m", "helpers.grade", str(self.folder), "--jobs",
                str(self.jobs), "--timeout", str(TIMEOUT), "--json", str(self.out / "r.json"),
                "--csv", str(self.out / "r.csv"), "--junit", str(self.out / "r.xml")]
        with open(self.out / "stdout", "wb") as out, open(self.out / "stderr", "wb") as err:
            self.proc = subprocess.Popen(args, cwd=self.course, env=_env(self.course),
                                         stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        self.started.set()
        return self

    def wait(self):
        self.started.wait(timeout=900)
        self.proc.wait(timeout=900)

    def result(self):
        if self.done is None:
            self.wait()
            done = {"code": self.proc.returncode,
                    "stdout": (self.out / "stdout").read_text(encoding="utf-8"),
                    "stderr": (self.out / "stderr").read_text(encoding="utf-8")}
            report = self.out / "r.json"
            assert report.exists(), f"no JSON report (exit {done['code']}):\n{done['stderr']}"
            done["json"] = json.loads(report.read_text(encoding="utf-8"))
            done["by_name"] = {Path(nb["path"]).name: nb for nb in done["json"]["notebooks"]}
            self.done = done
        return self.done

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _write_folder(folder: Path, notebooks: dict) -> None:
    for name, nb in notebooks.items():
        _write(folder / name, nb)


def _sleeper_alive(pid: int) -> bool:
    """Whether pid is still one of the attack's `sleep 600` and not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z" and cmdline == b"sleep\x00600\x00"


def _pids(folder: Path) -> dict[str, int]:
    return {p.stem: int(p.read_text()) for p in folder.glob("*.pid") if p.read_text().strip()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("attacks")
    courses = {name: _copy_course(base / name / "course")
               for name in ("main", "seven", "unmatched")}
    for course in courses.values():  # the copy, not the work tree, is what the grader imports
        where = Path(_imports_from(course)).resolve()
        assert where == (course / "helpers" / "__init__.py").resolve(), where
    pids = base / "pids"
    pids.mkdir()
    log = base / "seven" / "attack.jsonl"

    seven = courses["seven"]
    attacker = Run(seven, base / "seven" / "attacker", base / "seven" / "out-attacker", 1)
    victim = Run(seven, base / "seven" / "victim", base / "seven" / "out-victim", 2)
    _write_folder(attacker.folder, {"02_one_row-attacker.ipynb": _after_setup(
        _stub(seven, "02_one_row"),
        _rewrite_course(log, [base, Path(tempfile.gettempdir())]))})
    _write_folder(victim.folder, {"02_one_row-victim.ipynb": _stub(seven, "02_one_row"),
                                  **{name: _solved(seven, lesson)
                                     for name, lesson in CONTROLS["victim"].items()}})

    course = courses["unmatched"]
    unmatched = Run(course, base / "unmatched" / "class", base / "unmatched" / "out", 1)
    _write_folder(unmatched.folder, {UNMATCHED: _unidentifiable(course, "02_one_row"), **{
        name: _solved(course, lesson) for name, lesson in CONTROLS["unmatched"].items()}})

    course = courses["main"]
    main = Run(course, base / "main" / "class", base / "main" / "out", 2)

    def one_after_another():  # the victim is graded after the attacker's run has ended
        attacker.wait()
        victim.start().wait()
        unmatched.start()

    attacker.start()
    chain = threading.Thread(target=one_after_another, daemon=True)
    chain.start()
    _write_folder(main.folder, main_run_notebooks(course, pids))
    main.start()
    try:
        yield SimpleNamespace(main=main, attacker=attacker, victim=victim, unmatched=unmatched,
                              courses=courses, pids=pids, log=log)
    finally:
        for run in (main, attacker, victim, unmatched):
            run.stop()
        for pid in _pids(pids).values():  # whatever the grader left running
            if _sleeper_alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def main(runs):
    return runs.main.result()


def _exercises(result, name: str) -> dict[str, dict]:
    assert name in result["by_name"], f"{name} not in the report: {sorted(result['by_name'])}"
    return {e["id"]: e for e in result["by_name"][name]["exercises"]}


def _statuses(result, name: str) -> dict[str, tuple]:
    return {k: (e["status"], e["earned"]) for k, e in _exercises(result, name).items()}


# --- the attacks that stay in their kernel ---------------------------------------------------


def test_a_silenced_traceback_display_does_not_pass_the_stubs(main):
    """1. showtraceback replaced in the first cell: nbval would see no error at all."""
    assert _statuses(main, "02_one_row-silenced.ipynb") == {
        ex: ("not attempted", 0) for ex in ONE_ROW}


def test_a_custom_exception_handler_does_not_hide_wrong_answers_or_stubs(main):
    """2. set_custom_exc((Exception,), a handler that shows nothing)."""
    assert _statuses(main, "02_one_row-swallowed.ipynb") == {
        "ex1": ("failed", 0), "ex2": ("failed", 0), "ex3": ("not attempted", 0),
        "ex4": ("not attempted", 0), "ex5": ("not attempted", 0)}


def test_comparisons_replaced_while_the_check_runs_do_not_pass_wrong_answers(main):
    """3. np.allclose, np.testing.assert_allclose, torch.allclose and
    torch.testing.assert_close replaced by the answer function itself, then zeros."""
    results = _statuses(main, "02_one_row-patched.ipynb")
    assert {ex: results[ex] for ex in ("ex1", "ex2", "ex3")} == {
        ex: ("failed", 0) for ex in ("ex1", "ex2", "ex3")}


def test_the_checks_core_made_a_no_op_while_the_check_runs_does_not_pass_wrong_answers(main):
    """4. sys.modules['helpers.checks.core'].compare, judge, matches, fail and named_mistake
    replaced by the answer function itself, then zeros."""
    results = _statuses(main, "02_one_row-patched.ipynb")
    assert {ex: results[ex] for ex in ("ex4", "ex5")} == {
        ex: ("failed", 0) for ex in ("ex4", "ex5")}


def test_a_fake_helpers_checks_from_sys_meta_path_does_not_pass_the_stubs(main):
    """5. a meta_path finder serves its own helpers.checks.one_row, whose checks print ✔."""
    assert _statuses(main, "02_one_row-meta_path.ipynb") == {
        ex: ("not attempted", 0) for ex in ONE_ROW}


@pytest.mark.parametrize("name", ["02_one_row-alias.ipynb", "02_one_row-lookup.ipynb"])
def test_the_forbidden_softmax_under_another_name_fails_by_the_rule(main, name):
    """6. `from helpers.attention import softmax as s` / `import helpers.attention as ha`:
    the values are right, so only the rule can fail it, and the message says so."""
    ex2 = _exercises(main, name)["ex2"]
    assert (ex2["status"], ex2["earned"]) == ("failed", 0), ex2
    assert "your function calls" in ex2["message"] and "softmax" in ex2["message"], ex2


def test_deleted_checks_of_a_notebook_without_cell_ids_are_tampered(main):
    """9. nbformat 4.4, no ids (old Jupyter), solved, ex2's and ex4's check cells deleted."""
    results = _exercises(main, "02_one_row-no_ids.ipynb")
    assert {k: e["status"] for k, e in results.items()} == {
        "ex1": "passed", "ex2": "tampered", "ex3": "passed", "ex4": "tampered", "ex5": "passed"}
    # graded with the original check all the same: the answers are right
    assert {k: (e["outcome"], e["earned"]) for k, e in results.items()} == {
        k: ("passed", e["points"]) for k, e in results.items()}


def test_answers_hard_coded_for_the_visible_cases_fail(main):
    """11. scaled_scores and weighted_sum look their outputs up in a table of the visible
    cases (what the checks give them with no grading seed), zeros for any other input."""
    results = _statuses(main, "02_one_row-lookup.ipynb")
    assert (results["ex1"], results["ex3"]) == (("failed", 0), ("failed", 0)), results


def test_every_process_a_submission_started_is_gone_when_grading_ends(runs, main):
    """8. `sleep 600` in a new session, and a double-forked daemon (setsid between)."""
    pids = _pids(runs.pids)
    assert set(pids) == {"session", "daemon"}, f"the cell did not start both: {pids}"
    assert {name: pid for name, pid in pids.items() if _sleeper_alive(pid)} == {}


# --- controls --------------------------------------------------------------------------------


@pytest.mark.parametrize("run, name", [(run, name) for run, names in CONTROLS.items()
                                       for name in names])
def test_solved_notebooks_beside_the_attacks_get_full_marks_and_changed_nothing(runs, run,
                                                                                name):
    result = getattr(runs, run).result()
    lesson = CONTROLS[run][name]
    points = _points(runs.courses["main"], lesson)
    entry = result["by_name"].get(name)
    assert entry is not None, f"{name} not in the {run} run's report"
    assert _statuses(result, name) == {ex: ("passed", p) for ex, p in points.items()}
    assert entry["earned"] == entry["possible"] == sum(points.values())
    assert entry.get("changed_course_files") == [], entry.get("changed_course_files")


# --- 7. one student changes another's grade --------------------------------------------------


def _attack_log(runs) -> list[dict]:
    if not runs.log.exists():
        return []
    return [json.loads(line) for line in runs.log.read_text(encoding="utf-8").splitlines()]


def _changed_in_the_copy(runs) -> set[str]:
    """What attack 7 changed in the course the grader ran from: its log, and the files."""
    course = runs.courses["seven"].resolve()
    changed = {r["rel"] for r in _attack_log(runs)
               if r.get("done") == "wrote" and Path(r["root"]) == course}
    for rel in ("helpers/checks/one_row.py", "solutions/02_one_row.ipynb"):
        if MARKER in (course / rel).read_text(encoding="utf-8"):
            changed.add(rel)
    return changed


def test_another_submissions_rewrite_of_the_course_does_not_change_a_victims_grade(runs):
    victim = runs.victim.result()
    entry = victim["by_name"].get("02_one_row-victim.ipynb")
    assert entry is not None, sorted(victim["by_name"])
    assert _statuses(victim, "02_one_row-victim.ipynb") == {
        ex: ("not attempted", 0) for ex in ONE_ROW}, _attack_log(runs)
    assert entry.get("changed_course_files") == []


def test_a_submission_that_rewrote_the_course_is_flagged_tampered(runs):
    """The attacker (a stub with the attack cell) changed the course's checks and solution:
    every exercise tampered, graded with the untouched course (not attempted)."""
    attacker = runs.attacker.result()
    entry = attacker["by_name"]["02_one_row-attacker.ipynb"]
    changed = _changed_in_the_copy(runs)
    results = _exercises(attacker, "02_one_row-attacker.ipynb")
    if not changed:  # the grader kept the course out of the kernel's reach: nothing to flag
        assert entry.get("changed_course_files") == []
        assert {k: e["status"] for k, e in results.items()} == {
            ex: "not attempted" for ex in ONE_ROW}
        return
    assert changed <= set(entry.get("changed_course_files") or ()), (
        entry.get("changed_course_files"), _attack_log(runs))
    assert {k: (e["status"], e["outcome"], e["earned"]) for k, e in results.items()} == {
        ex: ("tampered", "not attempted", 0) for ex in ONE_ROW}
    course = runs.courses["seven"]  # and the course folder it wrote into has its files back
    for rel in ("helpers/checks/one_row.py", "solutions/02_one_row.ipynb"):
        assert MARKER not in (course / rel).read_text(encoding="utf-8"), rel


def test_no_attack_wrote_into_the_work_tree(runs):
    runs.attacker.wait()
    for rel in ("helpers/checks/one_row.py", "solutions/02_one_row.ipynb"):
        assert MARKER not in (ROOT / rel).read_text(encoding="utf-8")


# --- 10. a file that matches no lesson -------------------------------------------------------


@pytest.fixture(scope="module")
def unmatched(runs):
    return runs.unmatched.result()


def test_a_file_named_like_no_lesson_is_in_the_json_report(unmatched):
    entry = unmatched["by_name"].get(UNMATCHED)
    assert entry is not None, f"not in the report: {sorted(unmatched['by_name'])}"
    assert entry["lesson"] is None
    assert (entry["exercises"], entry["earned"], entry["possible"]) == ([], 0, 0)
    why = entry.get("unmatched")
    assert isinstance(why, str) and all(lesson in why for lesson in LESSON_NAMES), why


def test_a_file_named_like_no_lesson_is_a_row_of_the_csv_report(runs, unmatched):
    with open(runs.unmatched.out / "r.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r for r in rows if r["notebook"].endswith(UNMATCHED)], rows


def test_a_file_named_like_no_lesson_is_an_error_in_the_junit_report(runs, unmatched):
    root = ET.parse(runs.unmatched.out / "r.xml").getroot()
    named = [el for el in root.iter() if any(UNMATCHED in (el.get(a) or "")
                                             for a in ("name", "classname", "file"))]
    assert any(list(el.iter("error")) for el in named), ET.tostring(root, "unicode")[:2000]


def test_a_file_named_like_no_lesson_is_in_the_printed_table(unmatched):
    assert UNMATCHED in unmatched["stdout"], unmatched["stdout"]


def test_a_file_named_like_no_lesson_makes_the_exit_status_1(unmatched):
    assert unmatched["code"] == 1, unmatched["stderr"]
