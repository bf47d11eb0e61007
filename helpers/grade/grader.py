"""Grade students' exercise notebooks: points, feedback, and checks a student cannot edit away.

Grading works on a copy and never writes to the student's files. The copy keeps the student's
cells; every check cell is replaced by the canonical one, matched by id or, in a notebook
without ids, by content (a deleted one is put back after its answer cell), and an edited or
deleted check is reported as `tampered` and graded for real. The copy runs in a fresh kernel
under nbval (`pytest --nbval-lax`, one pytest process per job, per-cell timeout), next to its
own pristine copy of the course. The student's cells run in the kernel; the check cells run in
the pytest process (helpers.grade.plugin, helpers.grade.bridge), which calls the student's
function in the kernel and gets back data only, so the verdict is out of the student's code's
reach. A cell that ends the kernel is skipped in a new run of the notebook, so the cells after
it are still graded. Each cell's result is mapped to its exercise: `passed`, `failed` (the
check's message, word for word), `not attempted` (the stub still raises NotImplementedError),
`error` (the exception's type and message), `timeout`, `tampered` (a check cell edited or
deleted, or course files changed), `unreadable` (not a notebook), `unmatched` (a file in a
graded folder whose name matches no lesson), or `grader error`: the machine, not the student,
failed (a kernel that did not start, or that died or stopped answering before any of the
student's own code ran). Such a notebook is run again, after a pause and with fewer notebooks
at a time, up to MACHINE_RETRIES times, and reported `grader error` only if it still fails:
no points are given or taken for it, and it is to be regraded.

Course files (helpers/, solutions/, data/) that change in the course folder while grading runs
are put back as they were when it started, and the changed versions kept in .grade-restored/.
The grader is not a sandbox: the student's code runs with the grader's permissions. README.md
("Grading") says what it guarantees and what it cannot.

Exit status: 0 when every exercise passed, 1 when any did not, 2 for a usage error, 3 when
the machine kept failing a notebook (`grader error`: regrade it).
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# jsonschema, which nbformat imports, builds an IRI grammar at import when rfc3987_syntax is
# installed (0.8 s); notebook validation never uses it, so skip it (see helpers.grade.plugin).
sys.modules.setdefault("rfc3987_syntax", None)

import nbformat  # noqa: E402
from nbformat.validator import iter_validate  # noqa: E402

from helpers.checks import source  # noqa: E402
from helpers.grade import bridge, course, exercises, plugin  # noqa: E402
from helpers.grade.lessons import ROOT, Exercise, Lesson, normal  # noqa: E402
from helpers.grade.processes import (  # noqa: E402
    become_subreaper,
    descendants,
    kill_descendants,
)

DEFAULT_TIMEOUT = 60.0
MAX_PASSES = 6  # a notebook is run at most this often: once more per cell that ends the kernel
STARTUP_TIMEOUT = 180  # seconds a kernel may take to start (a loaded machine is slow to import)
STARTUP_ALLOWANCE = STARTUP_TIMEOUT + 30.0  # seconds without progress, beyond the cell timeout,
# before the pytest processes are killed
MACHINE_RETRIES = 3  # runs of a notebook the machine failed, before it is a `grader error`
RETRY_PAUSE = 5.0  # seconds before running them again, times the number of the retry
GRADER_ERROR = "grader error"
STATUSES = ("passed", "failed", "not attempted", "error", "timeout", "tampered", "unreadable",
            "unmatched", GRADER_ERROR)

DISABLED = "pass  # helpers.grade: this cell ended the kernel in an earlier run, so it is skipped\n"



@dataclass
class Cell:
    """A code cell of the graded copy."""

    source: str
    role: str  # "check" or "student"
    label: str = ""  # how the feedback names the student's cell
    exercise: str | None = None  # the exercise key, for checks
    origin: str | None = None  # the student's cell id, or the canonical check id


@dataclass
class Plan:
    exercise: Exercise
    check: int  # index of its check among the graded cells
    segment: list[int]  # student cells run since the previous check
    answer_present: bool
    tampered: str | None  # "deleted", "edited" or None



def _label(source: str, answer: bool) -> str:
    first = next((line.strip() for line in source.splitlines() if line.strip()), "")
    if len(first) > 48:
        first = first[:47] + "…"
    return ("your answer cell" if answer else "your cell") + (f" “{first}”" if first else "")


def plan_copy(student, lesson: Lesson) -> tuple[list[Cell], list[Plan]]:
    """The graded cells for a student notebook, and what each exercise's result comes from."""
    by_id = {e.check_id: e for e in lesson.exercises}
    by_title = {e.title: e for e in lesson.exercises}
    by_source = {normal(e.source): e for e in lesson.exercises}
    answers = {f"{e.key}-answer" for e in lesson.exercises}
    student_ids = {c.get("id") for c in student.cells if c.get("cell_type") == "code"}
    all_ids = {c.get("id") for c in student.cells}
    matched: dict[str, str | None] = {}  # check id -> None (as is), "edited" or "missing"
    cells: list[Cell] = []

    for cell in student.cells:
        cid = cell.get("id")
        exercise = by_id.get(cid) if cid not in matched else None
        tags = cell.get("metadata", {}).get("tags", []) or []
        if exercise is None and "check" in tags:  # an id-less notebook, or a re-created cell
            title = cell.get("metadata", {}).get("exercise")
            candidate = by_title.get(title) if isinstance(title, str) else None
            if candidate is not None and candidate.check_id not in matched.keys() | all_ids:
                exercise = candidate
        if exercise is None and cell.get("cell_type") == "code":  # matched by its content
            candidate = by_source.get(normal(cell.source))
            if candidate is not None and candidate.check_id not in matched.keys() | all_ids:
                exercise = candidate
        if exercise is not None and exercise.check_id not in matched:
            edited = cell.get("cell_type") != "code" or normal(cell.source) != normal(
                exercise.source
            )
            matched[exercise.check_id] = "edited" if edited else None
            if edited and cell.get("cell_type") == "code" and cell.source.strip():
                # keep what the student wrote there, as a cell of theirs, before the real check
                cells.append(Cell(cell.source, "student", _label(cell.source, False), None, cid))
            cells.append(Cell(exercise.source, "check", "", exercise.key,
                              exercise.check_id))
        elif cell.get("cell_type") == "code":
            cells.append(Cell(cell.source, "student", _label(cell.source, cid in answers),
                              None, cid))

    # put back deleted checks, each after the nearest cell that comes before it in the solution
    for exercise in lesson.exercises:
        if exercise.check_id in matched:
            continue
        matched[exercise.check_id] = "missing"
        order = lesson.cell_ids
        before = order[: order.index(exercise.check_id)] if exercise.check_id in order else []
        position = len(cells)
        names = bridge.free_names(exercise.source)  # after the cell defining the answer, if any
        answer_cells = [i for i, c in enumerate(cells) if c.role == "student"
                        and any(source.binds(c.source, name) for name in names)]
        for cid in reversed(before):
            hits = [i for i, c in enumerate(cells) if c.origin == cid]
            if hits:
                position = hits[-1] + 1
                break
        if answer_cells and position <= answer_cells[-1]:
            position = answer_cells[-1] + 1
        while position < len(cells) and cells[position].role == "check" and \
                matched.get(cells[position].origin) == "missing":
            position += 1
        cells.insert(position, Cell(exercise.source, "check", "", exercise.key,
                                    exercise.check_id))

    plans, segment = {}, []
    for index, cell in enumerate(cells):
        if cell.role == "student":
            segment.append(index)
        elif cell.role == "check":
            exercise = next(e for e in lesson.exercises if e.key == cell.exercise)
            answer_present = f"{exercise.key}-answer" in student_ids or any(
                source.binds(c.source, name) for c in student.cells if c.get("cell_type") == "code"
                for name in bridge.free_names(exercise.source))
            state = matched[exercise.check_id]
            if state == "missing":
                tampered = "deleted" if answer_present else None
            else:
                tampered = state
            plans[exercise.key] = Plan(exercise, index, segment, answer_present, tampered)
            segment = []
    return cells, [plans[e.key] for e in lesson.exercises]


def render_copy(cells: list[Cell], key: str, disabled=(),
                language: str = "en") -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        "grade_key": key,
        "grade_language": language,  # the checks' feedback: the student's notebook's language
    }
    for index, cell in enumerate(cells):
        code = nbformat.v4.new_code_cell(DISABLED if index in disabled else cell.source)
        code.id = f"grade-{index}"
        code.metadata = {"grade": {"cell": index, "check": cell.role == "check"}}
        nb.cells.append(code)
    return nb


# --- running nbval ---------------------------------------------------------------------------


@dataclass
class Job:
    """One student notebook on its way through one or more nbval runs."""

    number: int
    path: Path
    lesson: Lesson
    cells: list[Cell] = field(default_factory=list)
    plans: list[Plan] = field(default_factory=list)
    disabled: set[int] = field(default_factory=set)
    final: dict[int, dict] = field(default_factory=dict)
    passes: int = 0
    finished: bool = False
    changed_course_files: set[str] = field(default_factory=set)  # in its copy or the course
    changed_real_files: set[str] = field(default_factory=set)  # in the course folder itself
    machine_faults: list[str] = field(default_factory=list)  # why the machine failed each run
    grader_error: str | None = None  # set when it kept failing: the notebook is not graded
    language: str = "en"  # the student's notebook's (a translation's metadata: "zh")


def _pytest_env(jobs: int, course_copy: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env["PYTHONPATH"] = str(course_copy)  # the plugin and the checks, from the pristine copy
    env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    if jobs > 1:  # one kernel per core: keep each kernel's maths on one thread
        for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            env.setdefault(name, "1")
    return env


def _run_processes(commands, *, cwd, env, idle_limit: float, progress) -> list[int | None]:
    """Run the commands side by side; kill them all when progress() stops changing for
    idle_limit seconds. Returns each exit status (None when killed)."""
    logs = []
    procs = []
    for number, command in enumerate(commands):
        out = open(Path(cwd) / f"pytest-{number}.log", "wb")
        logs.append(out)
        procs.append(subprocess.Popen(command, cwd=cwd, env=env, stdout=out,
                                      stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                      start_new_session=True))
    last, since = progress(), time.monotonic()
    try:
        while any(p.poll() is None for p in procs):
            time.sleep(0.1)
            now = progress()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since > idle_limit:
                break
    finally:
        codes = []
        for proc in procs:
            if proc.poll() is None:
                _kill_group(proc)
                codes.append(None)
            else:
                codes.append(proc.returncode)
                _kill_group(proc)  # whatever the student's code left running
        for out in logs:
            out.close()
    return codes


def _kill_group(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _read_records(path: Path, key: bytes) -> list[dict]:
    """The records the plugin wrote; a line without its signature (forged by a kernel that
    found the results folder) is dropped."""
    records = []
    if path.exists():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            text, _, signature = line.rpartition("\t")
            if not hmac.compare_digest(signature, plugin.sign(key, text)):
                continue
            try:
                record = json.loads(text)
            except ValueError:
                continue
            if isinstance(record, dict):
                records.append(record)
    return records


def _run_pass(jobs: list[Job], work: Path, timeout: float, processes: int, *,
              snapshot: course.Snapshot, seed: int) -> None:
    """Run every job's graded copy once; store the results; mark jobs that need another run."""
    number = len(list(work.glob("pass-*")))
    root = work / f"pass-{number}"
    results, claims = root / "results", root / "claims"
    results.mkdir(parents=True)
    claims.mkdir()
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    snapshot.write(root / "course")  # what the pytest processes import the checks from
    paths = []
    for job in sorted(jobs, key=lambda job: -len(job.cells)):  # the longest first
        key = f"nb{job.number:04d}"
        folder = root / key
        (folder / "exercises").mkdir(parents=True)
        target = folder / "exercises" / f"{job.lesson.name}.ipynb"
        nbformat.write(render_copy(job.cells, key, job.disabled, job.language), target)
        paths.append(str(target.relative_to(root)))
        job.passes += 1

    command = [
        sys.executable, "-m", "pytest", "-c", str(root / "pytest.ini"), "--rootdir", str(root),
        "-p", "helpers.grade.plugin", "-p", "nbval.plugin", "-p", "no:cacheprovider",
        "-o", "addopts=", "-q", "--tb=no", "--color=no", "-W", "ignore",
        "--continue-on-collection-errors",
        "--nbval-lax", "--nbval-current-env", "--nbval-cell-timeout", f"{timeout:g}",
        "--nbval-kernel-startup-timeout", str(STARTUP_TIMEOUT),
        "--grade-results", str(results), "--grade-claims", str(claims),
        "--grade-seed", str(seed), "--grade-course", str(root / "course"),
        "--grade-course-digest", snapshot.digest(), "--grade-real-course", str(ROOT),
        "--grade-processes", "PROCESSES", *paths,
    ]
    processes = max(1, min(processes, len(jobs)))
    command[command.index("PROCESSES")] = str(processes)

    def progress():
        return sum(p.stat().st_size for p in results.iterdir()) + len(os.listdir(claims))

    env = _pytest_env(processes, root / "course")
    key = secrets.token_hex(32)
    env[plugin.RECORD_KEY] = key
    codes = _run_processes([command] * processes, cwd=root, env=env,
                           idle_limit=timeout + STARTUP_ALLOWANCE, progress=progress)

    broken = [c for c in codes if c not in (0, 1, None)]
    for job in jobs:
        records = _read_records(results / f"nb{job.number:04d}.jsonl", key.encode())
        for record in records:
            if record.get("event") == "course":
                job.changed_course_files |= set(record.get("changed") or ())
                job.changed_course_files |= set(record.get("changed_real") or ())
                job.changed_real_files |= set(record.get("changed_real") or ())
        cells = [r for r in records if r.get("event") == "cell" and isinstance(r.get("cell"), int)]
        done = any(r.get("event") == "done" for r in records)
        if not records and broken:
            log = (root / "pytest-0.log").read_text(encoding="utf-8", errors="replace")
            raise RuntimeError(f"nbval did not run (pytest exit {broken[0]}):\n{log[-3000:]}")
        fault = machine_fault(job, records)
        if fault is not None:  # nothing of the student's ran: this run does not count
            job.machine_faults.append(fault)
            job.passes -= 1  # MAX_PASSES counts the runs that reached the student's code
            job.finished = len(job.machine_faults) >= MACHINE_RETRIES
            if job.finished:
                job.grader_error = fault
            continue
        culprit, previous = None, None
        for record in cells:
            index = record["cell"]
            if index in job.disabled and index in job.final:
                continue  # keep the run in which this cell ended the kernel
            job.final[index] = record
            if culprit is None and (record.get("died") or record.get("killed")):
                culprit = index
            if culprit is None and record.get("dead_before") and previous is not None:
                culprit = previous  # it ran to its end, and the kernel with it (exit())
                job.final[culprit] = dict(job.final[culprit], died=True, message=(
                    "the kernel died just after this cell ran: something it started ended "
                    "the Python process"))
            previous = index
        if culprit is None and not done and records:
            # the run was stopped from outside while this cell ran
            ran = {r["cell"] for r in cells}
            culprit = next((i for i in range(len(job.cells)) if i not in ran), None)
            if culprit is not None:
                job.final[culprit] = {
                    "event": "cell", "cell": culprit, "timeout": True, "killed": True,
                    "message": "grading of this cell did not finish",
                }
        if culprit is not None and culprit < len(job.cells) - 1:
            job.disabled.add(culprit)
            job.finished = False
        else:
            job.finished = True
        if job.passes >= MAX_PASSES:
            job.finished = True


def machine_fault(job: Job, records: list[dict]) -> str | None:
    """Why this run of job's notebook failed through no fault of the student's, or None: the
    kernel did not start or answer (nbval's setup failed), grading never reached the notebook,
    or the kernel died, was stopped or timed out in a cell of the course's own that comes
    before every cell the student wrote (the setup cell's imports, say)."""
    cells = [r for r in records if r.get("event") == "cell" and isinstance(r.get("cell"), int)]
    started = any(r.get("event") == "start" for r in records)
    if not started:
        return "grading never reached this notebook"
    setup = next((r for r in cells if r.get("when") == "setup" and r.get("raised")
                  and not r.get("skipped")), None)
    if setup is not None:
        return (f"its kernel did not start ({setup['raised']}: "
                f"{one_line(setup.get('message', ''))[:200]})")
    if not cells and not any(r.get("event") == "done" for r in records):
        return "its kernel did not start in time"
    prologue = set()  # the leading cells that are the course's, unchanged
    for index, cell in enumerate(job.cells):
        if cell.role != "student" or normal(cell.source) not in job.lesson.course_sources:
            break
        prologue.add(index)
    for record in cells:
        if record["cell"] in prologue and any(record.get(k) for k in (
                "died", "killed", "timeout", "dead_before")):
            what = "timed out" if record.get("timeout") else "died or stopped answering"
            return (f"its kernel {what} in the course's own cell "
                    f"{job.cells[record['cell']].label.split(' ', 2)[-1]}, before any code of "
                    "the student's ran")
    return None


def one_line(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


# --- results ---------------------------------------------------------------------------------


@dataclass
class Result:
    key: str
    title: str
    points: float
    earned: float
    status: str
    message: str
    outcome: str  # what the canonical check found; differs from status only when tampered
    diagnosis: str | None = None  # the failed check's diagnosis id (helpers.checks.diagnoses)


@dataclass
class Report:
    path: Path
    lesson: Lesson | None  # None: the file matches no lesson (see unmatched)
    results: list[Result]
    unreadable: str | None = None
    unmatched: str | None = None  # why the file was not graded: it matches no lesson
    changed_course_files: list[str] = field(default_factory=list)
    seed: int | None = None  # the seed the checks' random inputs came from
    student: str = ""  # who handed it in: --student, the class sub-folder, or the file name
    note: str | None = None  # how its lesson was told when not by its own name (submissions)
    looks_like: str | None = None  # unmatched: the lesson it resembles most

    @property
    def earned(self) -> float:
        return sum(r.earned for r in self.results)

    @property
    def possible(self) -> float:
        return sum(r.points for r in self.results)


def _passed_message(stdout: str) -> str:
    lines = [line.strip() for line in stdout.splitlines() if line.strip()]
    ticks = [line for line in lines if line.startswith("✔")]
    return " ".join(ticks) if ticks else "passed"


def _outcome(record: dict | None, timeout: float, check: bool) -> tuple[str, str] | None:
    """(status, message) for one cell's record; None when the cell went fine or never ran."""
    if record is None:
        return None
    if record.get("died"):
        return "error", record.get("message", "the kernel died")
    if record.get("timeout"):
        if check:
            return "timeout", (f"the check ran longer than the {timeout:g} s limit and was "
                               "stopped: does your code loop forever?")
        return "timeout", f"ran longer than the {timeout:g} s limit and was stopped"
    ename = record.get("ename")
    if ename in ("AssertionError", "CheckFailed") and check:
        return "failed", record.get("evalue", "")
    if ename in ("NotImplementedError", "NotAttempted"):
        return "not attempted", record.get("evalue", "")
    if ename:
        return "error", f"{ename}: {record.get('evalue', '')}"
    if record.get("dead_before"):
        return "error", "not run: the kernel had died in an earlier cell"
    if record.get("raised") and not record.get("skipped"):
        return "error", f"{record['raised']}: {record.get('message', '')}"
    if check and not record.get("skipped"):
        return "passed", _passed_message(record.get("stdout", ""))
    return None


def judge(job: Job, timeout: float) -> list[Result]:
    if job.grader_error is not None:
        message = (f"not graded: {job.grader_error}, {len(job.machine_faults)} times; the "
                   "machine failed, not the student's code. Regrade this notebook.")
        return [Result(p.exercise.key, p.exercise.title, p.exercise.points, 0, GRADER_ERROR,
                       message, GRADER_ERROR) for p in job.plans]
    results = []
    for plan in job.plans:
        ex = plan.exercise
        check = _outcome(job.final.get(plan.check), timeout, check=True)
        problems = [
            (status, f"{message} (in {job.cells[i].label})")
            for i in plan.segment
            for status, message in [_outcome(job.final.get(i), timeout, check=False) or ("", "")]
            if status
        ]
        if check is None:
            status, message = problems[0] if problems else (
                "error", "the check did not run: grading of this notebook stopped early")
        elif check[0] == "error" and problems and not job.final[plan.check].get("died"):
            status, message = problems[0]  # e.g. a SyntaxError in the answer, then a NameError
        elif check[0] == "error" and not plan.answer_present and \
                job.final[plan.check].get("ename") == "NameError":
            status, message = "not attempted", (
                f"your notebook has no answer cell for this exercise ({ex.key}-answer); "
                f"{check[1]}")
        else:
            status, message = check
            if status == "passed" and problems:  # the answer is right; say what else went wrong
                message += f"; note: {problems[0][1]}"
        outcome = status
        if plan.tampered:
            message = (f"the check cell was {plan.tampered}; graded with the original check "
                       f"({outcome}): {message}")
            status = "tampered"
        if job.changed_course_files:
            changed = ", ".join(sorted(job.changed_course_files)[:5])
            message = (f"this notebook changed the course's files while it was graded "
                       f"({changed}); graded against the original course ({outcome}): "
                       f"{message}")
            status = "tampered"
        earned = ex.points if outcome == "passed" else 0
        diagnosis = None
        if outcome == "failed" and check is not None and check[0] == "failed":
            diagnosis = job.final[plan.check].get("diagnosis") or "unnamed"
        results.append(Result(ex.key, ex.title, ex.points, earned, status, message, outcome,
                              diagnosis))
    return results


def _unreadable(path: Path, lesson: Lesson, why: str) -> Report:
    message = f"not a readable notebook: {why}"
    results = [Result(e.key, e.title, e.points, 0, "unreadable", message, "unreadable")
               for e in lesson.exercises]
    return Report(path, lesson, results, unreadable=why)


def read_student(path: Path):
    """The student's notebook, read-only; ValueError saying what is wrong when it is not one."""
    try:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:  # what grading reads of each cell
            if cell.cell_type not in ("code", "markdown", "raw") or \
                    not isinstance(cell.source, str) or not isinstance(cell.metadata, dict):
                raise ValueError
        return nb
    except Exception as e:  # NotJSONError, ValidationError, UnicodeDecodeError, ...
        raise ValueError(_not_a_notebook(path, e)) from None


def _not_a_notebook(path: Path, error: Exception) -> str:
    """Why `path` is not a notebook: in the words of nbformat's schema when it can say."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        return f"cannot read the file ({e.strerror})"
    if not raw.strip():
        return "the file is empty"
    try:
        data = json.loads(raw)
    except ValueError as e:  # a UnicodeDecodeError is a ValueError
        return f"expected a Jupyter notebook (JSON text); {e}"[:300]
    problem = next(iter_validate(data, version=4), None)
    if problem is None:
        return f"expected a Jupyter notebook (nbformat 4); {type(error).__name__}: {error}"[:300]
    where = "/".join(map(str, problem.absolute_path)) or "the top level"
    return f"expected a Jupyter notebook (nbformat 4); at {where}: {problem.message}"[:300]


def grade(pairs, *, timeout: float = DEFAULT_TIMEOUT, jobs: int = 1, seed: int | None = None,
          unmatched=()) -> list[Report]:
    """Grade each (notebook path, lesson); the reports come back in the same order, then one
    report per (path, why) in unmatched. seed: the checks' random inputs (default: drawn)."""
    seed = secrets.randbelow(2**32) if seed is None else seed
    reports: dict[int, Report] = {}
    pending = []
    for number, (path, lesson) in enumerate(pairs):
        try:
            student = read_student(path)
        except ValueError as e:
            reports[number] = _unreadable(path, lesson, str(e))
            continue
        job = Job(number, path, lesson, language=exercises.metadata_language(student))
        job.cells, job.plans = plan_copy(student, lesson)
        pending.append(job)
    if pending:
        snapshot = course.Snapshot.take(ROOT)
        become_subreaper()  # a process a notebook left in a new session is still ours to end
        ours = set(descendants())  # the caller's own children (grade() as a library) live on
        with tempfile.TemporaryDirectory(prefix="grade-") as work:
            todo, processes = pending, jobs
            while todo:
                try:
                    _run_pass(todo, Path(work), timeout, processes, snapshot=snapshot,
                              seed=seed)
                finally:
                    kill_descendants(keep=ours)
                todo = [job for job in todo if not job.finished]
                retries = [len(job.machine_faults) for job in todo if job.machine_faults]
                if retries and len(retries) == len(todo):  # only the machine's failures left
                    pause = 0.2 if plugin.MACHINE_FAULTS in os.environ else RETRY_PAUSE
                    time.sleep(pause * max(retries))  # let the machine calm down, and
                    processes = max(1, processes // 2)  # put less on it

        late = snapshot.changes(ROOT)  # changed after the last notebook's own look
        snapshot.restore(ROOT, late, keep=ROOT / plugin.KEPT / "after-grading")
        restored = sorted({f for job in pending for f in job.changed_real_files} | set(late))
        if restored:
            print(f"warning: course files in {ROOT} changed while grading "
                  f"({', '.join(restored[:10])}). Every notebook was graded against the course "
                  "as it was when grading started, and those files were put back; the changed "
                  f"versions are kept in {ROOT / plugin.KEPT}.", file=sys.stderr)
    for job in pending:
        reports[job.number] = Report(job.path, job.lesson, judge(job, timeout),
                                     changed_course_files=sorted(job.changed_course_files))
    ordered = [reports[n] for n in sorted(reports)]
    ordered += [Report(Path(path), None, [], unmatched=why) for path, why in unmatched]
    for report in ordered:
        report.seed = seed
    return ordered


# --- reports ---------------------------------------------------------------------------------


