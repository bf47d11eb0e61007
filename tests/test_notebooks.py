"""Every lesson has its parts: goals, predictions, asserts, pictures, summary, references."""

import re

import pytest

from helpers.grade.notebooks import (
    ANSWER_LINE,
    ANSWER_SOURCE,
    EXPLANATION_SUMMARY,
    PREDICT_TAG,
    folded_preview,
)

from notebook_files import EXERCISES, LESSONS, SOLUTIONS, ids, read

ALL = LESSONS + SOLUTIONS


def text_of(nb, kind):
    return "\n".join(c.source for c in nb.cells if c.cell_type == kind)


@pytest.mark.parametrize("path", LESSONS, ids=ids(LESSONS))
def test_lesson_has_the_parts_the_syllabus_asks_for(path):
    nb = read(path)
    prose, code = text_of(nb, "markdown"), text_of(nb, "code")
    assert "learning goals" in nb.cells[0].source.lower(), "first cell states the learning goals"
    assert "predict" in prose.lower(), "at least one predict-then-run prompt"
    assert "## summary" in prose.lower(), "a Summary section"
    assert "## self-check" in prose.lower(), "a Self-check questions section"
    assert f"../exercises/{path.name}" in prose, "a link to the lesson's exercise notebook"
    assert "heatmap(" in code, "at least one heatmap"
    assert code.count("assert") >= 5, "numbers stated in prose are asserted beside them"


@pytest.mark.parametrize("path", ALL, ids=[f"{p.parent.name}/{p.stem}" for p in ALL])
def test_committed_executed_without_errors(path):
    nb = read(path)
    assert nb.metadata.kernelspec.name == "python3"
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.strip():
            assert cell.execution_count is not None, f"{cell.id} was not executed"
            assert not [o for o in cell.outputs if o.output_type == "error"], cell.id
            stderr = [o.text for o in cell.outputs if o.get("name") == "stderr"]
            assert not stderr, f"{cell.id} writes to stderr (a warning is a bug): {stderr}"
            assert not cell.source.lstrip().startswith("%"), f"{cell.id}: no magics, please"


PRIVATE_SOURCES = re.compile(
    r"\[00\d\]|\bseeds?\s*(\[|text|program|source|/)|the seed\b|syllabus|design\.md", re.I)


@pytest.mark.parametrize("path", ALL + EXERCISES,
                         ids=[f"{p.parent.name}/{p.stem}" for p in ALL + EXERCISES])
def test_cites_only_what_a_reader_can_open(path):
    """The course's private source notes and planning documents are never cited."""
    for cell in read(path).cells:
        found = PRIVATE_SOURCES.search(cell.source)
        assert not found, f"{cell.get('id')}: {found.group(0)!r} points to a text learners lack"


@pytest.mark.parametrize("path", LESSONS, ids=ids(LESSONS))
def test_every_lesson_has_references(path):
    prose = text_of(read(path), "markdown")
    assert "## references" in prose.lower(), "a References section"
    assert "http" in prose.split("## References", 1)[-1], "references a reader can open (links)"


@pytest.mark.parametrize("path", LESSONS, ids=ids(LESSONS))
def test_a_predictions_answer_stays_folded_until_its_cell_runs(path):
    """Each "Predict, then run" prompt is followed by cells tagged predict, stored with input
    and output folded, whose placeholders (first source line, first output line) give nothing
    away; the explanation after them is a closed <details> block holding no prompt."""
    cells = read(path).cells
    prompts = [i for i, c in enumerate(cells)
               if c.cell_type == "markdown" and "predict, then run" in c.source.lower()]
    assert prompts, "at least one Predict, then run prompt"
    for i in prompts:
        answers = [c for c in cells[i + 1:] if PREDICT_TAG in c.metadata.get("tags", [])]
        assert answers and cells.index(answers[0]) < min(
            [j for j in prompts if j > i] + [len(cells)]), (
            f"the prompt in {cells[i].id} has no answer cell tagged {PREDICT_TAG!r}")
    for n, cell in enumerate(cells):
        if cell.cell_type == "markdown" and cell.source.startswith("<details>"):
            assert cell.source.startswith(EXPLANATION_SUMMARY), cell.id
            assert cell.source.rstrip().endswith("</details>"), cell.id
            assert cell.source.count("<details>") == 1, f"{cell.id}: one block per cell"
            assert "predict, then run" not in cell.source.lower(), (
                f"{cell.id}: a prompt inside a folded explanation is never seen")
        if PREDICT_TAG not in cell.metadata.get("tags", []):
            continue
        folded = cell.metadata.get("jupyter", {})
        assert folded.get("outputs_hidden") is True and folded.get("source_hidden") is True, (
            f"{cell.id}: store it with input and output folded")
        assert cell.source.split("\n")[0] == ANSWER_SOURCE, (
            f"{cell.id}: folded, JupyterLab shows its first line; make it {ANSWER_SOURCE}")
        assert folded_preview(cell) == ANSWER_LINE, (
            f"{cell.id}: folded, JupyterLab still shows its first line "
            f"{folded_preview(cell)!r}; make it {ANSWER_LINE!r}")
        printed = " ".join(" ".join(o.get("text", "").split()) for o in cell.get("outputs", []))
        for line in cell.metadata.get("predict_shown_before", []):  # see tests/test_browser.py
            assert " ".join(line.split()) in printed, f"{cell.id}: it no longer prints {line!r}"
        after = next((c for c in cells[n + 1:] if c.cell_type == "markdown"), None)
        if after is not None:
            assert after.source.startswith((EXPLANATION_SUMMARY, "#")), (
                f"{cell.id}: the text after an answer is its explanation; fold it in "
                f"{EXPLANATION_SUMMARY!r} ... </details> (or start a new section)")




@pytest.mark.parametrize("path", LESSONS, ids=ids(LESSONS))
def test_the_summary_is_folded_until_the_learner_opens_it(path):
    """The Summary restates every prompt's answer: a learner who scrolls ahead sees only its
    title (issue 20)."""
    cell = next(c for c in read(path).cells
                if c.cell_type == "markdown" and "## Summary" in c.source)
    after = cell.source.split("## Summary", 1)[1].lstrip()
    assert after.startswith("<details><summary>Summary"), f"{cell.id}: fold the Summary"
    assert "</details>" in after
