"""Every process a graded notebook started is gone when its grading ends.

A kernel's children are killed with its process group, but a child that starts a new session
(`start_new_session=True`, `os.setsid`, a double fork) leaves that group and would outlive the
grading. The grader's processes therefore make themselves a "child subreaper" (Linux
prctl PR_SET_CHILD_SUBREAPER): an orphan anywhere below them is re-parented to them instead of
to init, so it stays among their descendants, and `kill_descendants` finds it in /proc.
Elsewhere (no /proc, no prctl) only process groups are killed, as before.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Adopt the orphans of every process started below this one; False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


PR_SET_DUMPABLE = 4


def hide_memory() -> bool:
    """Make this process non-dumpable: its memory, environment and open files (/proc/PID/...)
    are then closed to other processes of the same user, such as a student's kernel."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _parents() -> dict[int, tuple[int, str]]:
    """{pid: (parent pid, state letter)} for every process, from /proc."""
    parents = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 1:
            parents[int(entry.name)] = (int(fields[1]), fields[0])
    return parents


def descendants(pid: int | None = None, keep=(), zombies: bool = False) -> list[int]:
    """The processes below pid (default: this one), except those in keep and theirs.

    Zombies (ended, not yet reaped) are left out unless zombies=True."""
    root = os.getpid() if pid is None else pid
    table = _parents()
    children: dict[int, list[int]] = {}
    for child, (parent, _) in table.items():
        children.setdefault(parent, []).append(child)
    found, todo = [], list(children.get(root, []))
    while todo:
        child = todo.pop()
        if child in keep:
            continue
        if zombies or table[child][1] != "Z":
            found.append(child)
        todo.extend(children.get(child, []))
    return found


def kill_descendants(keep=(), rounds: int = 20) -> int:
    """SIGKILL every process below this one (a fork bomb gets several rounds); reap those that
    are this process's children. Returns how many were killed."""
    if not Path("/proc/self/stat").exists():
        return 0
    killed = 0
    for _ in range(rounds):
        pids = descendants(keep=keep)
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.02)
        _reap(keep)
    _reap(keep)
    return killed


def _reap(keep) -> None:
    """Collect the exit status of ended processes this one adopted (they are its children)."""
    for pid in descendants(keep=keep, zombies=True):
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
