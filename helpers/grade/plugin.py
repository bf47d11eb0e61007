"""The pytest plugin `helpers.grade` loads into its nbval runs (`-p helpers.grade.plugin`).

It does three things nbval does not:

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

import json
import os
import sys
import time
from pathlib import Path
from queue import Empty

import pytest

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


def pytest_configure(config):
    if config.getoption("grade_results"):
        _patch_nbval()


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

    nbval_kernel.RunningKernel.await_reply = await_reply
    nbval_plugin.IPyNbFile.get_kernel_message = get_kernel_message


def _file_key(item) -> str:
    """The name helpers.grade gave the notebook (its metadata `grade_key`)."""
    nb = getattr(item.parent, "nb", None)
    key = nb.metadata.get("grade_key") if nb is not None else None
    return str(key or item.path.stem)


def _write(config, item, record: dict) -> None:
    path = Path(config.getoption("grade_results")) / f"{_file_key(item)}.jsonl"
    record["t"] = round(time.time(), 3)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


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
        _write(item.config, item, {"event": "done"})
