"""Every lesson the way a learner sees it: JupyterLab in a real (headless) Chromium.

One JupyterLab, started from the installed requirements on 127.0.0.1 (a free port, no token)
in a temporary folder holding copies of the lessons, serves them all. The test opens every
lesson in /usr/bin/chromium driven by Playwright and, before anything runs, reads what each
cell shows: no "Predict, then run" answer may be visible (its cells folded, its output's text
nowhere on the page, its explanation a closed <details>). Then it runs Run > Run All Cells (a
few lessons at a time), checks that every answer is now shown, that no cell shows an error and
no widget "Error displaying widget"; for lessons 03, 04 and 10 it moves the explorer's
control, checks that the displayed values change, and saves a screenshot of the explorer to
docs/screenshots/. Afterwards it stops Chromium and JupyterLab (kernels included)
and checks that none of the processes it started is left.

Without Chromium the test skips and says how to install it; under CI (CI=true) it fails.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import NamedTuple

import psutil
import pytest

from helpers.grade.notebooks import EXPLANATION_SUMMARY, PREDICT_TAG

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # reported by the `lab` fixture
    sync_playwright = None

ROOT = Path(__file__).resolve().parent.parent
LESSONS = tuple(sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb")))
RUN_ALL_AT_ONCE = 3  # lessons whose Run All overlaps (2 cores: more only queue)
# The README's screenshots are rewritten only when asked (REFRESH_SCREENSHOTS=1), so that a
# test run leaves the work tree clean; otherwise they go to a temporary folder.
SCREENSHOTS = (ROOT / "docs" / "screenshots" if os.environ.get("REFRESH_SCREENSHOTS") == "1"
               else Path(tempfile.gettempdir()) / "course-screenshots")

# Exercise 1 of lesson 02 as a learner leaves it: the untouched stub and its check, then a
# wrong answer and the same check again.
WRONG_SCALE = "def scaled_scores(q, k):\n    return q @ k.T / k.shape[-1]\n"
FAILING_CHECKS = "02_failing_checks.ipynb"
# The Chinese edition (issue 23): its lesson 02, shown as stored, and its exercise 1 failing.
ZH_LESSON = "zh_02_one_row.ipynb"
ZH_FAILING_CHECKS = "zh_02_failing_checks.ipynb"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
RUN_ALL_TIMEOUT_MS = 180_000  # a cold kernel, three lessons at once, a busy 2-core CI machine
UI_TIMEOUT_MS = 30_000

# JupyterLab user settings: render every cell (no windowing, so every output is in the page),
# and fetch no news and no update check (the machine may have no network).
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": '{"windowingMode": "none"}',
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        '{"fetchNews": "false", "checkForUpdates": false}',
}

IN_CI = os.environ.get("CI", "").lower() in ("true", "1")


def _missing(why: str):
    message = (
        f"{why}: the browser test needs Chromium at {CHROMIUM}. Install it with "
        "`apt-get install chromium` (Debian/Ubuntu; as root or with sudo), then "
        "`python -m pip install -r requirements.txt` for Playwright."
    )
    if IN_CI:
        pytest.fail(f"CI must not skip the browser test. {message}", pytrace=False)
    pytest.skip(message)


def _write_exercise_up_to_check(path: Path, wrong_answer: str,
                                source: Path = ROOT / "exercises" / "02_one_row.ipynb") -> None:
    """exercises/02_one_row.ipynb (or `source`, its translation) up to exercise 1's check (the
    stub), then `wrong_answer` and the same check again."""
    import nbformat

    nb = nbformat.read(source, as_version=4)
    keep = []
    for cell in nb.cells:
        keep.append(cell)
        if cell.get("id") == "ex1-check":
            check = cell
            break
    again = nbformat.v4.new_code_cell(check.source)
    again.metadata = dict(check.metadata)
    nb.cells = [*keep, nbformat.v4.new_code_cell(wrong_answer), again]
    nbformat.write(nb, path)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path: Path, n: int = 40) -> str:
    lines = path.read_text(errors="replace").splitlines() if path.exists() else []
    return "\n".join(lines[-n:])


def _start_lab(folder: Path, stack: ExitStack) -> str:
    """JupyterLab serving `folder` on a free port; returns its URL. Stopped by `stack`."""
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # the kernel plots inline
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[name] = str(folder / ".jupyter" / name.lower())  # nothing read from or left in ~
    settings = folder / ".jupyter" / "lab-settings"
    for rel, text in LAB_SETTINGS.items():
        (settings / rel).parent.mkdir(parents=True, exist_ok=True)
        (settings / rel).write_text(text)
    port = _free_port()
    log_path = folder / ".jupyter" / "lab.log"
    log = stack.enter_context(open(log_path, "w"))
    server = subprocess.Popen(
        [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            "--IdentityProvider.token=", f"--ServerApp.root_dir={folder / 'lessons'}",
            f"--LabApp.user_settings_dir={settings}",
            f"--LabApp.workspaces_dir={folder / '.jupyter' / 'workspaces'}",
            "--LabApp.extension_manager=readonly",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        cwd=folder / "lessons", env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, killed as a whole if it must be
    )
    stack.callback(_stop_server, server)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/status", timeout=2):
                return url
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not start; its log:\n{_tail(log_path)}")
            time.sleep(0.2)


def _stop_server(server: subprocess.Popen) -> None:
    """SIGTERM: JupyterLab shuts its kernels down and exits. Then its process group, to be sure."""
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        pass
    with suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=10)


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _check_nothing_left(started: list[psutil.Process]) -> None:
    """Every process started under this one (server, kernels, Playwright, Chromium) is gone."""
    deadline = time.monotonic() + 15
    while (left := [p for p in started if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.2)
    for p in left:  # should not happen: kill it, then fail
        with suppress(psutil.NoSuchProcess):
            p.kill()
    assert not left, f"processes left behind: {[(p.pid, p.name()) for p in left]}"


@pytest.fixture(scope="module")
def lab():
    """(JupyterLab URL, Chromium browser); both stopped at the end, and checked to be gone."""
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} not found")
    if sync_playwright is None:
        _missing("Playwright for Python is not installed")
    me = psutil.Process()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="course-lab-")))
        (folder / "lessons").mkdir()
        for name in LESSONS:
            shutil.copy(ROOT / "notebooks" / name, folder / "lessons" / name)
        _write_exercise_up_to_check(folder / "lessons" / FAILING_CHECKS, WRONG_SCALE)
        _write_exercise_up_to_check(folder / "lessons" / ZH_FAILING_CHECKS, WRONG_SCALE,
                                    ROOT / "zh" / "exercises" / "02_one_row.ipynb")
        shutil.copy(ROOT / "zh" / "notebooks" / "02_one_row.ipynb", folder / "lessons" / ZH_LESSON)
        shutil.copy(ROOT / "START.ipynb", folder / "lessons" / "START.ipynb")
        url = _start_lab(folder, stack)
        playwright = sync_playwright().start()
        stack.callback(playwright.stop)
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True
        )
        stack.callback(browser.close)
        started: list[psutil.Process] = []
        stack.callback(lambda: started.extend(me.children(recursive=True)))  # runs first
        yield url, browser
    _check_nothing_left(started)
    assert not me.children(recursive=True), "a child process outlived the test"


# Outputs a learner must never see: an exception (JupyterLab shows it as stderr) or stderr.
PROBLEM_OUTPUTS = (
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"],'
    ' .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]'
)
STATE_JS = """({problems, explorer}) => {
    const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
    if (!nb) return {done: false, kernelReady: false, notebook: false};
    // a cell stored with its code folded shows no prompt number; the cells after it do
    const prompts = [...nb.querySelectorAll('.jp-CodeCell')]
        .filter(c => !c.querySelector('.jp-InputPlaceholder'))
        .map(c => c.querySelector('.jp-InputPrompt')?.textContent.trim() ?? '');
    const status = nb.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status;
    const kernel = nb.querySelector('.jp-Toolbar-kernelName')?.textContent.trim();
    const kernelReady = kernel === 'Python 3 (ipykernel)' && status === 'idle';
    const img = nb.querySelector('.attention-explorer .explorer-image');
    const drawn = !explorer || (!!img && img.complete && img.naturalWidth > 0);
    const counted = prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p));
    // Run All stops at a cell that raises: the cells after it are never numbered
    const failed = !!nb.querySelector(problems);
    const done = kernelReady && ((counted && drawn) || failed);
    return {done, failed, kernelReady, kernel, status, drawn, prompts};
}"""


class Lesson(NamedTuple):
    name: str
    page: object  # playwright Page
    blocked: list[str]  # requests for anything but our JupyterLab: recorded, then refused
    on_open: list[dict]  # what each cell showed before anything ran (CELLS_JS)
    run_all: list[str]  # "" once Run All has finished, else why it did not


def has_explorer(name: str) -> bool:
    """The lesson draws a live explorer (Run All is done only once its picture is drawn)."""
    path = ROOT / "notebooks" / f"{name}.ipynb"  # the failing-check notebook has none
    return path.exists() and any(
        "_explorer(" in c.source for c in notebook(name).cells if c.cell_type == "code")


def _state_arg(lesson: Lesson) -> dict:
    return {"problems": PROBLEM_OUTPUTS, "explorer": has_explorer(lesson.name)}


def open_lesson(url: str, browser, name: str) -> Lesson:
    """A new page showing lesson `name` in JupyterLab (its kernel may still be starting)."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.set_default_timeout(UI_TIMEOUT_MS)
    lesson = Lesson(Path(name).stem, page, [], [], [])

    def offline(route):  # the course must work without a network
        if route.request.url.startswith(url):
            route.continue_()
        else:
            lesson.blocked.append(route.request.url)
            route.abort()

    page.route("**/*", offline)
    # A workspace of its own, so the page does not reopen the other lesson's tab.
    page.goto(f"{url}/lab/workspaces/{lesson.name}/tree/{name}", timeout=120_000)
    return lesson


def start_run_all(lesson: Lesson) -> None:
    """Wait for the page's kernel, then click Run > Run All Cells."""
    page = lesson.page
    # The kernel is up when the toolbar names it and it is idle (while the page still says
    # "No Kernel", the indicator already reads idle, and Run All would ask for a kernel).
    page.wait_for_function(f"(p) => ({STATE_JS})(p).kernelReady", arg=_state_arg(lesson),
                           timeout=60_000)
    for attempt in (1, 2):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:  # on a busy machine a click can come before the kernel's channels take requests
            page.wait_for_function(STARTED_JS, timeout=30_000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise


# Run All has started: a cell waits ([*]) or has run ([n]), or an error shows.
STARTED_JS = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]
    .some(p => /^\\[(\\*|\\d+)\\]:$/.test(p.textContent.trim()))"""


def finish_run_all(lesson: Lesson) -> str:
    """Wait until Run All is done: the kernel is idle and every cell has its number (none
    waits with [*]) and the live explorer, if the lesson has one, has drawn (the stored
    notebook holds no widget view); or a cell shows an error (Run All stops there;
    `assert_no_errors` then reports it). Returns "" or why it did not finish."""
    page, name = lesson.page, lesson.name
    try:
        page.wait_for_function(f"(p) => ({STATE_JS})(p).done", arg=_state_arg(lesson),
                               timeout=RUN_ALL_TIMEOUT_MS)
        return ""
    except PlaywrightTimeout:
        shot = Path(tempfile.gettempdir()) / f"browser-test-{name}.png"
        page.screenshot(path=shot, full_page=True)
        state = page.evaluate(STATE_JS, _state_arg(lesson))
        return f"{name}: Run All did not finish; page state {state}, screenshot {shot}"


def wait_for_run_all(lesson: Lesson) -> None:
    """Run All has finished (the `running` fixture waited for it)."""
    if not lesson.run_all:
        lesson.run_all.append(finish_run_all(lesson))
    if lesson.run_all[0]:
        pytest.fail(lesson.run_all[0], pytrace=False)


# What each cell of the open notebook shows, in order: its visible text (innerText leaves out
# folded code, folded outputs and the inside of a closed <details>), and its folds.
CELLS_JS = """() => {
    const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
    return [...nb.querySelectorAll('.jp-Cell')].map(c => ({
        text: c.innerText,
        inputFolded: !!c.querySelector('.jp-InputPlaceholder'),
        outputFolded: !!c.querySelector('.jp-OutputPlaceholder'),
        output: c.querySelector('.jp-OutputArea')?.innerText ?? '',
        images: c.querySelectorAll('.jp-OutputArea img').length,
        details: [...c.querySelectorAll('details')].map(d => d.open),
    }));
}"""
RENDERED_JS = """([n, folds]) => {
    const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
    return !!nb && nb.querySelectorAll('.jp-MarkdownCell.jp-mod-rendered').length >= n
        && nb.querySelectorAll('.jp-MarkdownCell details').length >= folds;
}"""
OPEN_EXPLANATIONS_JS = """() => {
    const nb = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
    for (const s of nb.querySelectorAll('details > summary')) s.click();
}"""


def read_on_open(lesson: Lesson) -> None:
    """Before anything runs: wait until every markdown cell is rendered and every folded
    answer shows its placeholder, then record what each cell shows."""
    nb = notebook(lesson.name)
    n_markdown = sum(c.cell_type == "markdown" for c in nb.cells)
    n_folded = sum(PREDICT_TAG in c.metadata.get("tags", []) for c in nb.cells)
    n_explanations = sum(c.cell_type == "markdown" and c.source.startswith("<details>")
                         for c in nb.cells)
    page = lesson.page
    with suppress(PlaywrightTimeout):  # reported by the lesson's test
        page.wait_for_function(RENDERED_JS, arg=[n_markdown, n_explanations], timeout=60_000)
        page.wait_for_function(
            f"(n) => document.querySelectorAll('{FOLDED}').length >= n", arg=n_folded,
            timeout=UI_TIMEOUT_MS)
    lesson.on_open.extend(page.evaluate(CELLS_JS))


@pytest.fixture(scope="module")
def running(lab):
    """Every lesson open in its own page, read before anything ran, then Run All in it; a few
    lessons at a time, the next one started as soon as one finishes. The pages stay open
    (their explorers live) until the module ends."""
    url, browser = lab
    lessons, queue, active = {}, list(LESSONS), []
    while queue or active:
        while queue and len(active) < RUN_ALL_AT_ONCE:  # a new lesson as soon as one is done
            lesson = open_lesson(url, browser, queue.pop(0))
            read_on_open(lesson)
            start_run_all(lesson)
            active.append((lesson, time.monotonic()))
            lessons[lesson.name] = lesson
        time.sleep(0.5)
        for lesson, started in list(active):
            done = lesson.page.evaluate(f"(p) => ({STATE_JS})(p).done", _state_arg(lesson))
            if done or time.monotonic() - started > RUN_ALL_TIMEOUT_MS / 1000:
                lesson.run_all.append(finish_run_all(lesson))  # at once if done, else why not
                active.remove((lesson, started))
    yield lessons
    for lesson in lessons.values():
        lesson.page.close()


FOLDED = ".jp-OutputPlaceholder"  # JupyterLab's stand-in for an output stored folded
EXPLANATION = re.sub(r"<[^>]+>", "", EXPLANATION_SUMMARY)  # the fold's visible title
# An answer cell may print again a line the page already shows that does not answer its prompt
# (the input rows, a row the mask leaves alone, the outputs before a reorder): its metadata
# lists those lines under SHOWN_BEFORE, and only they may be on the page before it runs.
SHOWN_BEFORE = "predict_shown_before"


def notebook(lesson: str):
    import nbformat

    return nbformat.read(ROOT / "notebooks" / f"{lesson}.ipynb", as_version=4)


def _flat(text: str) -> str:
    return " ".join(text.split())


def answer_lines(cell) -> list[str]:
    """The lines of text a predict cell's stored output shows once run (its figures aside),
    each with its spaces collapsed; "Answer:" and lines too short to be telling left out."""
    lines = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream" and output.name == "stdout":
            text = output.text
        elif output.output_type in ("execute_result", "display_data"):
            data = output.get("data", {})
            if any(k.startswith("image/") or k == "text/html" for k in data):
                continue
            text = data.get("text/plain", "")
        else:
            continue
        lines += [_flat(line) for line in text.splitlines()]
    return [line for line in lines if len(line) >= 8 and line != "Answer:"]


def output_is_stable(cell) -> bool:
    """nbval compares this cell's output (not a timing or a live training)."""
    return ("NBVAL_IGNORE_OUTPUT" not in cell.source
            and "nbval-ignore-output" not in cell.metadata.get("tags", []))


def assert_predictions_hidden_then_shown(lesson: Lesson) -> None:
    """Issue 20: on open, nothing on the page gives a Predict, then run answer away: its cells'
    code and output are folded, no line of its output is visible anywhere on the page, and
    its explanation is a closed <details>. Once run, its output is shown (every stable line
    of it), and the explanation opens."""
    cells = notebook(lesson.name).cells
    on_open = lesson.on_open
    assert len(on_open) == len(cells), f"{lesson.name}: {len(on_open)} cells on the page"
    page_text = _flat("\n".join(shown["text"] for shown in on_open))
    predicts = [i for i, c in enumerate(cells) if PREDICT_TAG in c.metadata.get("tags", [])]
    assert predicts, f"{lesson.name} has no cell tagged predict"
    visible = []
    for i in predicts:
        shown, where = on_open[i], f"{lesson.name} cell {i} ({cells[i].id})"
        assert shown["inputFolded"] and shown["outputFolded"], f"{where}: not folded on open"
        given = {_flat(line) for line in cells[i].metadata.get(SHOWN_BEFORE, [])}
        visible += [f"{where}: {line!r}" for line in answer_lines(cells[i])
                    if line in page_text and line not in given]
    assert not visible, "answers visible before their cell runs:\n" + "\n".join(visible)
    explanations = [i for i, c in enumerate(cells)
                    if c.cell_type == "markdown" and c.source.startswith("<details>")]
    for i in explanations:
        shown, where = on_open[i], f"{lesson.name} cell {i} ({cells[i].id})"
        assert shown["details"] == [False], f"{where}: the explanation is not a closed fold"
        assert _flat(shown["text"]) == EXPLANATION, (
            f"{where}: more than the fold's title is visible: {shown['text'][:200]!r}")

    after = lesson.page.evaluate(CELLS_JS)
    for i in predicts:
        shown, where = after[i], f"{lesson.name} cell {i} ({cells[i].id})"
        assert not shown["outputFolded"], f"{where}: its answer stayed folded after it ran"
        output = _flat(shown["output"])
        assert output.startswith("Answer:"), f"{where}: shows {output[:80]!r}"
        assert len(output) > len("Answer:") or shown["images"], f"{where}: an empty answer"
        if output_is_stable(cells[i]):
            for line in answer_lines(cells[i]):
                assert line in output, f"{where}: {line!r} is not shown once it ran"
    lesson.page.evaluate(OPEN_EXPLANATIONS_JS)
    opened = lesson.page.evaluate(CELLS_JS)
    for i in explanations:
        where = f"{lesson.name} cell {i} ({cells[i].id})"
        assert opened[i]["details"] == [True], f"{where}: the explanation does not open"
        assert len(_flat(opened[i]["text"])) > len(EXPLANATION) + 20, f"{where}: empty"


@pytest.mark.parametrize("name", [Path(n).stem for n in LESSONS])
def test_predictions_are_hidden_until_their_cell_runs(running, name):
    lesson = running[name]
    wait_for_run_all(lesson)
    assert_no_errors(lesson)
    assert_predictions_hidden_then_shown(lesson)


GLYPH_JS = r"""(ch) => {
    // Draw ch and a code point no font has (a private-use one): a missing glyph draws
    // the same empty box, a real one does not.
    const draw = (text) => {
        const c = document.createElement('canvas');
        c.width = 64; c.height = 64;
        const g = c.getContext('2d');
        g.font = '40px sans-serif';
        g.fillText(text, 8, 48);
        return Array.from(g.getImageData(0, 0, 64, 64).data);
    };
    const a = draw(ch), tofu = draw('\u{10FFFD}');
    return a.some((v, i) => v !== tofu[i]) && a.some(v => v !== 0);
}"""


def assert_chinese_renders(lesson: Lesson) -> None:
    """Issue 10: 我 is drawn with a real glyph, not an empty box (CI installs fonts-noto-cjk)."""
    assert lesson.page.evaluate(GLYPH_JS, "我"), (
        "我 renders as an empty box: install a CJK font (apt-get install fonts-noto-cjk)")
    assert lesson.page.get_by_text("我", exact=False).count() > 0, "the lesson shows no 我"


def assert_no_errors(lesson: Lesson, when: str = "after Run All") -> None:
    page, name = lesson.page, f"{lesson.name} {when}"
    outputs = page.locator(PROBLEM_OUTPUTS)
    assert outputs.count() == 0, f"{name}: a cell shows an error or stderr:\n" + "\n".join(
        outputs.all_inner_texts()
    )
    assert page.get_by_text("Error displaying widget").count() == 0, (
        f"{name}: a widget shows 'Error displaying widget'"
    )
    assert not lesson.blocked, f"{name}: the page asked the network for {lesson.blocked}"


def explorer_state(explorer) -> tuple[str, str]:
    """What the learner sees: the readout line and the picture (its blob URL)."""
    return (
        explorer.locator(".explorer-readout").inner_text(),
        explorer.locator(".explorer-image").get_attribute("src"),
    )


def wait_for_change(explorer, before: tuple[str, str], pattern: str) -> tuple[str, str]:
    readout = explorer.locator(".explorer-readout")
    expect(readout).to_have_text(re.compile(pattern), timeout=UI_TIMEOUT_MS)
    expect(explorer.locator(".explorer-image")).not_to_have_attribute("src", before[1])
    after = explorer_state(explorer)
    assert after[0] != before[0] and after[1] != before[1]
    return after


def save_screenshot(explorer, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    explorer.scroll_into_view_if_needed()
    explorer.screenshot(path=SCREENSHOTS / name, animations="disabled")


def test_lesson_03_scaling_explorer_in_jupyterlab(running):
    lesson = running["03_scaling"]
    page = lesson.page
    wait_for_run_all(lesson)
    assert_no_errors(lesson)
    explorer = page.locator(".attention-explorer")
    assert explorer.count() == 1
    start = explorer_state(explorer)
    assert start[0].startswith("d_k = 64, ÷ √64 = 8: largest weight 0.177"), start[0]

    slider = explorer.locator(".widget-hslider").filter(
        has=page.locator(".widget-label", has_text=re.compile(r"^d_k$"))
    )
    handle = slider.locator(".noUi-handle")
    handle.focus()
    handle.press("End")  # the keyboard's drag to the far right: d_k = 1024
    moved = wait_for_change(explorer, start, r"^d_k = 1024, ÷ √1024 = 32: largest weight")
    explorer.locator(".widget-checkbox input").uncheck()  # no √d_k: one key takes everything
    saturated = wait_for_change(
        explorer, moved, r"^d_k = 1024, unscaled: largest weight 1\.000 .*entropy 0\.000 nats"
    )
    assert saturated[0] != start[0]
    assert_no_errors(lesson, "after moving the slider")
    save_screenshot(explorer, "03_scaling_explorer.png")


def test_lesson_04_mask_explorer_in_jupyterlab(running):
    lesson = running["04_masks"]
    wait_for_run_all(lesson)
    assert_no_errors(lesson)
    page = lesson.page
    explorer = page.locator(".attention-explorer")
    assert explorer.count() == 1
    start = explorer_state(explorer)
    assert start[0].startswith("causal, 5 real tokens: no weight reads the future"), start[0]
    assert_chinese_renders(lesson)

    explorer.get_by_role("button", name="reversed causal", exact=True).click()
    wait_for_change(explorer, start, r"^reversed causal, 5 real tokens: 10 weights read the future")
    assert_no_errors(lesson, "after changing the mask")
    save_screenshot(explorer, "04_masks_explorer.png")


def test_lesson_10_kv_cache_explorer_in_jupyterlab(running):
    lesson = running["10_llms"]
    wait_for_run_all(lesson)
    assert_no_errors(lesson)
    page = lesson.page
    explorer = page.locator(".attention-explorer")
    assert explorer.count() == 1
    start = explorer_state(explorer)
    assert start[0].startswith("Llama-3-8B (8 of 32 kv heads), bf16: 128.0 KiB per token"), start[0]

    def dropdown(label: str):
        return explorer.locator(".widget-dropdown").filter(
            has=page.locator(".widget-label", has_text=re.compile(f"^{label}$"))).locator("select")

    dropdown("attention").select_option("MQA")
    mqa = wait_for_change(explorer, start, r"^Llama-3-8B \(1 of 32 kv heads\), bf16: 16\.0 KiB")
    dropdown("model").select_option("DeepSeek-V2")
    dropdown("attention").select_option("as published")
    wait_for_change(explorer, mqa,
                    r"^DeepSeek-V2 \(MLA, 512 \+ 64 cached per layer\), bf16: 67\.5 KiB")
    assert_no_errors(lesson, "after changing the model and the attention")
    save_screenshot(explorer, "10_kv_cache_explorer.png")


def test_a_failing_check_shows_the_lesson_not_the_checker(lab):
    """Issue 9: a failed check shows its message and no line of helpers/checks source; an
    untouched stub shows one line."""
    url, browser = lab
    lesson = open_lesson(url, browser, FAILING_CHECKS)
    page = lesson.page
    errors = page.locator(PROBLEM_OUTPUTS)  # JupyterLab renders an error as stderr
    try:
        start_run_all(lesson)
        wait_for_run_all(lesson)  # Run All stops at the stub's check
        expect(errors).to_have_count(1)
        stub = errors.first.inner_text()
        assert stub.strip().startswith("Not attempted yet: replace this line with"), stub
        assert len(stub.strip().splitlines()) == 1, stub
        cells = page.locator(".jp-CodeCell")
        cells.nth(cells.count() - 2).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")  # the wrong answer, then its check
        page.keyboard.press("Shift+Enter")
        expect(errors).to_have_count(2, timeout=UI_TIMEOUT_MS)
        shown = errors.nth(1).inner_text()
        assert "you scaled by d_k = 4 instead of √d_k = 2" in shown, shown
        assert len(shown.strip().splitlines()) <= 4, f"more than the message is shown:\n{shown}"
        for checker_line in ("helpers/checks", "core.compare", "raw / root", "Traceback",
                             "def check_", "mistakes="):
            for text in (stub, shown):
                assert checker_line not in text, f"{checker_line!r} shown to the learner:\n{text}"
        assert not lesson.blocked, f"the page asked the network for {lesson.blocked}"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        cell = page.locator(".jp-CodeCell").filter(has=page.locator(PROBLEM_OUTPUTS)).last
        cell.scroll_into_view_if_needed()
        cell.screenshot(path=SCREENSHOTS / "02_failing_check.png", animations="disabled")
    finally:
        page.close()


def test_jupyter_lab_opens_on_the_start_page(lab):
    """Issue 10: `jupyter lab` opens START.ipynb (jupyter-config's default_url), not a bare
    Launcher: the server sends its root URL, what the browser opens, to the start page."""
    url, _ = lab

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        urllib.request.build_opener(Stay).open(f"{url}/", timeout=10)
        location = None
    except urllib.error.HTTPError as answer:
        location = answer.headers.get("Location")
    assert location and location.split("?")[0].endswith("/lab/tree/START.ipynb"), location


def _set_locale(page, url: str, locale: str) -> None:
    """JupyterLab's display language (Settings > Language), through its settings API."""
    status = page.evaluate("""async ([url, locale]) => {
        const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1] || '';
        const r = await fetch(url + '/lab/api/settings/@jupyterlab/translation-extension:plugin',
            {method: 'PUT', headers: {'Content-Type': 'application/json', 'X-XSRFToken': xsrf},
             body: JSON.stringify({raw: JSON.stringify({locale})})});
        return r.status;
    }""", [url, locale])
    assert status in (200, 204), f"setting JupyterLab's language to {locale}: HTTP {status}"


def test_the_chinese_edition_shows_chinese_text_and_feedback(lab):
    """Issue 23: a Chinese exercise's stub says 尚未作答 and a wrong answer's check shows its
    diagnosis in Chinese above the English message; a Chinese lesson, in JupyterLab switched to
    its Simplified Chinese language pack, renders its Chinese prose (CJK glyphs, not boxes) and
    its stored figures."""
    url, browser = lab
    exercise = open_lesson(url, browser, ZH_FAILING_CHECKS)
    page = exercise.page
    errors = page.locator(PROBLEM_OUTPUTS)
    try:
        start_run_all(exercise)
        wait_for_run_all(exercise)
        expect(errors).to_have_count(1)
        stub = errors.first.inner_text().strip()
        assert stub.startswith("尚未作答：") and "提示：" in stub, stub
        cells = page.locator(".jp-CodeCell")
        cells.nth(cells.count() - 2).locator(".jp-InputArea-editor").click()
        page.keyboard.press("Shift+Enter")
        page.keyboard.press("Shift+Enter")
        expect(errors).to_have_count(2, timeout=UI_TIMEOUT_MS)
        shown = errors.nth(1).inner_text()
        first = shown.strip().splitlines()[0]
        assert first.startswith("✘ 诊断：") and re.search(r"[\u4e00-\u9fff]{2}", first), shown
        assert "you scaled by d_k = 4 instead of √d_k = 2" in shown, shown
        for checker_line in ("helpers/checks", "Traceback", "def check_"):
            assert checker_line not in shown, f"{checker_line!r} shown to the learner:\n{shown}"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        cell = page.locator(".jp-CodeCell").filter(has=page.locator(PROBLEM_OUTPUTS)).last
        cell.scroll_into_view_if_needed()
        cell.screenshot(path=SCREENSHOTS / "zh_02_failing_check.png", animations="disabled")
    finally:
        page.close()
    lesson = open_lesson(url, browser, ZH_LESSON)
    page = lesson.page
    try:
        _set_locale(page, url, "zh_CN")
        page.reload()
        expect(page.locator(".lm-MenuBar-itemLabel", has_text="文件")).to_be_visible(
            timeout=UI_TIMEOUT_MS)  # the language pack's menus
        heading = page.locator(".jp-MarkdownCell h1").first
        expect(heading).to_contain_text("02", timeout=UI_TIMEOUT_MS)
        assert re.search(r"[\u4e00-\u9fff]", heading.inner_text()), heading.inner_text()
        widths = page.evaluate("""() => {
            const c = document.createElement('canvas').getContext('2d');
            c.font = getComputedStyle(document.querySelector('.jp-RenderedMarkdown')).font;
            return [c.measureText('注意力').width, c.measureText('M').width];
        }""")  # a CJK glyph is about square; a missing-glyph box is narrow
        assert widths[0] > 2.2 * widths[1], f"CJK glyphs not rendered: widths {widths}"
        expect(page.locator(".jp-RenderedImage img").first).to_be_attached()
        page.screenshot(path=SCREENSHOTS / "zh_02_lesson.png")
        assert not lesson.blocked, f"the page asked the network for {lesson.blocked}"
    finally:
        _set_locale(page, url, "en")  # the other tests read JupyterLab's English menus
        page.close()
