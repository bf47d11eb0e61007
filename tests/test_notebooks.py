"""Every lesson follows the syllabus rules: goals, predictions, asserts, pictures, summary."""

import pytest

from notebook_files import LESSONS, SOLUTIONS, ids, read

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
