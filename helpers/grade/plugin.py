"""The pytest plugin `helpers.grade` loads into its nbval runs (`-p helpers.grade.plugin`).

It does what nbval does not:

- runs every check cell here, in the pytest process, not in the student's kernel
  (helpers.grade.bridge): the course's checks are imported before any kernel starts, the
  student's function is called in the kernel through the bridge, and the verdict is this
  process's; the random inputs come from `--grade-seed`;
- kills, before each notebook and at the end, every process the previous one left behind,
  including those in a new session (helpers.grade.processes);

- records, for every notebook cell nbval runs, what happened (error type and message, the
  text the cell printed, a timeout, a dead kernel) as one JSON line in `--grade-results DIR`;
- lets several pytest processes share one list of notebooks: a process runs a notebook only
  when it is the first to claim it (a file created in `--grade-claims DIR`), so the notebooks
  are spread over the processes as they free up, and each process starts pytest only once;
- makes nbval notice at once a kernel that died (nbval would wait for the whole cell timeout),
  and gives every cell a hard deadline even when the kernel ignores the interrupt.

It is not meant to be used on its own.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path
from queue import Empty

import pytest

from helpers.grade import bridge, course, processes
from helpers.grade.kernel import STARTUP

# jsonschema, which nbformat imports, builds an IRI grammar at import when rfc3987_syntax is
# installed (0.8 s per process); notebook validation never uses it, so skip it.
sys.modules.setdefault("rfc3987_syntax", None)

POLL = 0.2  # seconds between two looks at the kernel while a cell runs
MAX_TEXT = 20_000  # characters of a cell's printed text or error message kept
GRACE = 5.0  # seconds a cell may run past the timeout while nbval interrupts the kernel


class KernelDied(Exception):
    """The kernel process ended while a cell was running."""


def pytest_addoption(parser):
    group = parser.getgroup("grade", "helpers.grade")
    group.addoption("--grade-results", help="folder for the per-cell JSON-lines results")
    group.addoption("--grade-claims", help="folder where processes claim notebooks")
    group.addoption("--grade-seed", type=int, help="the seed of the checks' random inputs")
    group.addoption("--grade-course", help="the pristine course every notebook gets a copy of")
    group.addoption("--grade-course-digest", help="what that course's Snapshot.digest() is")
    group.addoption("--grade-real-course",
                    help="the course folder grading started from: restored if a notebook "
                    "changes it")
    group.addoption("--grade-processes", type=int, default=1,
                    help="how many pytest processes share the notebooks (they start together)")


KEPT = ".grade-restored"  # where the course folder's versions changed while grading are kept
RECORD_KEY = "HELPERS_GRADE_RECORD_KEY"  # the environment variable holding the records' key
# For the grader's tests only: "FAULT,FAULT,...:DIR" makes the first kernel starts of a grading
# run fail, one fault each, in that order: "start" fails as a loaded machine's start does
# ("Kernel died before replying to kernel_info"), "die" kills the kernel right after it
# started. DIR counts the starts across the pytest processes.
MACHINE_FAULTS = "HELPERS_GRADE_TEST_MACHINE_FAULTS"
_faults: tuple[list[str], Path] | None = None
_key: bytes = b""
_snapshot: course.Snapshot | None = None


# every module a check may use, imported before any student code runs anywhere
COURSE_MODULES = (
    "helpers.attention", "helpers.masks", "helpers.heads", "helpers.positions",
    "helpers.blocks", "helpers.scaling", "helpers.streaming", "helpers.model",
    "helpers.checks.core", "helpers.checks.source", "helpers.checks.qkv",
    "helpers.checks.one_row", "helpers.checks.scaling", "helpers.checks.masks",
    "helpers.checks.multi_head", "helpers.checks.position", "helpers.checks.block",
    "helpers.checks.architectures", "helpers.checks.cost",
)


def pytest_configure(config):
    if not config.getoption("grade_results"):
        return
    global _key, _snapshot, _importing
    processes.become_subreaper()
    processes.hide_memory()  # a kernel may not read this process's memory, key or files
    _key = os.environ.pop(RECORD_KEY, "").encode()
    global _faults
    faults = os.environ.pop(MACHINE_FAULTS, "")
    if faults:
        kinds, folder = faults.split(":", 1)
        _faults = (kinds.split(","), Path(folder))
    os.environ.pop("PYTHONPATH", None)  # kernels import only their own copy of the course
    if config.getoption("grade_course"):
        _snapshot = course.Snapshot.take(Path(config.getoption("grade_course")))
        expected = config.getoption("grade_course_digest")
        if expected and _snapshot.digest() != expected:
            raise pytest.UsageError("the course copy changed before grading started")
    _patch_nbval()
    # The checks are imported while the first kernel starts; no cell runs before they are, in
    # this process and in every other one (_before_the_first_cell).
    _importing = threading.Thread(target=_import_the_checks, args=(config,), daemon=True)
    _importing.start()


def _import_the_checks(config) -> None:
    import importlib

    for name in COURSE_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    from helpers.checks import core

    core.set_grading_seed(config.getoption("grade_seed"))
    claims = config.getoption("grade_claims")
    if claims:  # ready: every module a check uses is imported; no cell has run anywhere yet
        (Path(claims) / f".ready-{os.getpid()}").touch()


_importing: threading.Thread | None = None


def _before_the_first_cell(config) -> None:
    """Wait until this process has imported the checks, and every other process too."""
    global _importing
    if _importing is None:
        return
    _importing.join()
    _importing = None
    claims, wanted = config.getoption("grade_claims"), config.getoption("grade_processes")
    if not claims:
        return
    deadline = time.monotonic() + 120
    while len(list(Path(claims).glob(".ready-*"))) < wanted and time.monotonic() < deadline:
        time.sleep(0.02)


def pytest_sessionfinish(session, exitstatus):
    session.config.grade_exitstatus = int(exitstatus)


def pytest_unconfigure(config):
    if config.getoption("grade_results"):
        processes.kill_descendants()
        # pytest, zmq and torch take a second or more to shut down; nothing is left to save
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(getattr(config, "grade_exitstatus", 0))


def _stop_quietly(kernel) -> None:
    try:
        kernel.stop()
    except Exception:  # the process is gone already; drop what is left of the manager
        kernel.__dict__.pop("km", None)


def _patch_nbval() -> None:
    from nbval import kernel as nbval_kernel
    from nbval import plugin as nbval_plugin

    def await_reply(self, msg_id, timeout=None):
        """nbval's await_reply, which also notices a dead kernel within POLL seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = POLL if deadline is None else max(0.0, min(POLL, deadline - time.monotonic()))
            try:
                msg = self.get_message(stream="shell", timeout=left)
            except Empty:
                if not self.is_alive():
                    _stop_quietly(self)
                    raise KernelDied(
                        "the kernel died while this cell ran: the Python process ended "
                        "(os._exit, a crash in compiled code, or out of memory)"
                    ) from None
                if deadline is not None and time.monotonic() >= deadline:
                    raise
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                if msg["content"]["status"] == "aborted":
                    raise RuntimeError("Kernel aborted execution request")
                return

    original_get = nbval_plugin.IPyNbFile.get_kernel_message

    def get_kernel_message(self, timeout=None, stream="iopub"):
        """nbval's reader, with a hard deadline per cell: past it, nbval stops the kernel."""
        deadline = getattr(self, "grade_deadline", None)
        if deadline is not None and time.monotonic() > deadline:
            raise Empty
        return original_get(self, timeout=timeout, stream=stream)

    original_runtest = nbval_plugin.IPyNbCell.runtest

    def runtest(self):
        """nbval's runtest for the student's cells; a check cell runs here, through the bridge."""
        _before_the_first_cell(self.config)
        meta = self.cell.metadata.get("grade", {})
        if not meta.get("check"):
            return original_runtest(self)
        self.test_outputs = []
        kernel = self.parent.kernel
        if not kernel.is_alive():
            raise RuntimeError("Kernel dead on test start")
        cells = [c.source for c in self.parent.nb.cells[: meta.get("cell", 0)]
                 if c.cell_type == "code" and not c.metadata.get("grade", {}).get("check")]
        timeout = float(self.config.option.nbval_cell_timeout)
        link = bridge.Bridge(kernel, time.monotonic() + timeout)
        from helpers.checks import core

        core.set_language(self.parent.nb.metadata.get("grade_language", "en"))
        self.grade_record = bridge.run_check(link, self.cell.source, cells)
        if self.grade_record.get("died"):
            raise KernelDied(self.grade_record["message"])
        return None

    original_setup = nbval_plugin.IPyNbFile.setup

    def setup(self):
        """nbval's kernel start; in the grader's tests, made to fail as a busy machine's."""
        kind = _machine_fault()
        if kind == "start":
            raise RuntimeError("Kernel died before replying to kernel_info (a test's fault)")
        original_setup(self)
        if kind == "die":
            self.kernel.km.kill_kernel()

    nbval_plugin.IPyNbFile.setup = setup
    nbval_kernel.RunningKernel.await_reply = await_reply
    nbval_plugin.IPyNbFile.get_kernel_message = get_kernel_message
    nbval_plugin.IPyNbCell.runtest = runtest


def _machine_fault() -> str | None:
    """The next fault a test asked for (MACHINE_FAULTS), until they have all been made."""
    if _faults is None:
        return None
    kinds, folder = _faults
    for number, kind in enumerate(kinds):
        try:
            os.close(os.open(folder / f"fault-{number}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            continue
        return kind
    return None


def _file_key(item) -> str:
    """The name helpers.grade gave the notebook (its metadata `grade_key`)."""
    nb = getattr(item.parent, "nb", None)
    key = nb.metadata.get("grade_key") if nb is not None else None
    return str(key or item.path.stem)


def sign(key: bytes, text: str) -> str:
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def _write(config, item, record: dict) -> None:
    """Append one record, signed: a kernel that writes into the results folder cannot forge
    one, since the key left this process's environment before any kernel started."""
    path = Path(config.getoption("grade_results")) / f"{_file_key(item)}.jsonl"
    record["t"] = round(time.time(), 3)
    text = json.dumps(record)
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"{text}\t{sign(_key, text)}\n")


def _fresh_course(item) -> None:
    """A pristine copy of the course for this notebook, and its own IPython profile."""
    folder = Path(str(item.parent.fspath)).parent.parent  # <folder>/exercises/NN_name.ipynb
    if _snapshot is not None:
        for part in course.PARTS:
            shutil.rmtree(folder / part, ignore_errors=True)
        _snapshot.write(folder)
    profile = folder / ".ipython" / "profile_default"
    shutil.rmtree(folder / ".ipython", ignore_errors=True)
    (profile / "startup").mkdir(parents=True)
    (profile / "startup" / "00-grade.py").write_text(STARTUP, encoding="utf-8")
    (profile / "ipython_kernel_config.py").write_text(
        "c.HistoryManager.enabled = False\n", encoding="utf-8")
    os.environ["IPYTHONDIR"] = str(folder / ".ipython")
    os.environ["JUPYTER_RUNTIME_DIR"] = str(folder / ".runtime")
    item.parent.grade_folder = folder


def _claimed(item) -> bool:
    """Whether this process runs item's notebook: claimed now, or earlier by this process."""
    notebook = item.parent
    decided = getattr(notebook, "grade_claimed", None)
    if decided is None:
        claims = item.config.getoption("grade_claims")
        decided = True
        if claims:
            try:
                fd = os.open(Path(claims) / _file_key(item), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                decided = False
            else:
                os.close(fd)
        notebook.grade_claimed = decided
        if decided:
            processes.kill_descendants()  # whatever the previous notebook left running
            _fresh_course(item)
        if decided and item.config.getoption("grade_results"):
            _write(item.config, item, {"event": "start", "pid": os.getpid()})
    return decided


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    if not hasattr(item, "cell"):  # not an nbval cell
        return None
    if not _claimed(item):
        return True  # another process grades this notebook: nothing to run, nothing to report
    timeout = item.config.getoption("nbval_cell_timeout")
    item.parent.grade_deadline = time.monotonic() + float(timeout) + GRACE
    return None


def _record(item, call) -> dict:
    meta = item.cell.metadata.get("grade", {})
    record = {"event": "cell", "cell": meta.get("cell"), "when": call.when}
    outputs = getattr(item, "test_outputs", None) or []
    if meta.get("check"):  # what a check prints is its feedback when it passes
        record["stdout"] = "".join(
            o.get("text", "") for o in outputs
            if o.get("output_type") == "stream" and o.get("name") == "stdout"
        )[:MAX_TEXT]
    checked = getattr(item, "grade_record", None)
    if checked is not None:  # a check, run in this process: its record says what happened
        record.update(checked)
        return record
    errors = [o for o in outputs if o.get("output_type") == "error"]
    if errors:
        record["ename"] = str(errors[0].get("ename"))[:200]
        record["evalue"] = str(errors[0].get("evalue"))[:MAX_TEXT]
    if call.excinfo is not None:
        error = call.excinfo.value
        text = str(error)
        record["raised"] = type(error).__name__
        record["message"] = text[:MAX_TEXT]
        record["skipped"] = call.excinfo.errisinstance(pytest.skip.Exception)
        if call.when == "call":  # not a kernel that failed to start
            record["died"] = isinstance(error, KernelDied)
            record["dead_before"] = isinstance(error, RuntimeError) and "Kernel dead" in text
            record["timeout"] = "Timeout of" in text or "Timed out waiting" in text
            record["killed"] = "Failed to interrupt" in text or "waiting for output" in text
    return record


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    config = item.config
    if hasattr(item, "cell") and config.getoption("grade_results"):
        if call.when == "call" or (call.when == "setup" and call.excinfo is not None):
            _write(config, item, _record(item, call))
    return report


def pytest_runtest_teardown(item, nextitem):
    if not hasattr(item, "cell") or not item.config.getoption("grade_results"):
        return
    if nextitem is None or nextitem.parent is not item.parent:
        folder = getattr(item.parent, "grade_folder", None)
        if _snapshot is not None and folder is not None:
            record = {"event": "course", "changed": _snapshot.changes(folder)}
            real = item.config.getoption("grade_real_course")
            if real:  # the teacher's folder, found by a kernel that went looking for it
                record["changed_real"] = _snapshot.changes(Path(real))
                _snapshot.restore(Path(real), record["changed_real"],
                                  keep=Path(real) / KEPT / f"{_file_key(item)}-{os.getpid()}")
            _write(item.config, item, record)
        _write(item.config, item, {"event": "done"})
