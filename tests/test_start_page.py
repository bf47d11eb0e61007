"""A newcomer's first minutes: `jupyter lab` opens START.ipynb, which says where to begin."""

import json
import re
import sys
from pathlib import Path

from notebook_files import ROOT, read

CONFIG = Path("etc/jupyter/jupyter_lab_config.json")
KERNEL_CONFIG = Path("etc/ipython/ipython_kernel_config.json")


def _start_text(path=ROOT / "START.ipynb") -> str:
    return next(c.source for c in read(path).cells if c.get("id") == "start")


def test_the_english_and_chinese_start_pages_link_each_other():
    """Issue 23: the Chinese start page is reachable from the English one, and back."""
    english = "".join(c.source for c in read(ROOT / "START.ipynb").cells)
    chinese = "".join(c.source for c in read(ROOT / "zh" / "START.ipynb").cells)
    assert "](zh/START.ipynb)" in english and (ROOT / "zh" / "START.ipynb").exists()
    assert "](../START.ipynb)" in chinese
    for link in re.findall(r"\]\(((?:notebooks|exercises)/[^)]+)\)", chinese):
        assert (ROOT / "zh" / link).exists(), f"zh/START.ipynb links to {link}, missing"


def test_the_start_page_links_every_lesson_and_its_exercises_in_order():
    text = _start_text()
    links = re.findall(r"\]\(((?:notebooks|exercises)/[^)]+)\)", text)
    for link in links:
        assert (ROOT / link).exists(), f"START.ipynb links to {link}, which does not exist"
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert [link for link in links if link.startswith("notebooks/")][:len(lessons)] == [
        f"notebooks/{name}" for name in lessons]
    assert {f"exercises/{name}" for name in lessons} <= set(links)


def test_jupyter_lab_is_configured_to_open_the_start_page():
    config = json.loads((ROOT / "jupyter-config" / CONFIG).read_text())
    url = config["LabApp"]["default_url"]
    assert url == "/lab/tree/START.ipynb" and (ROOT / "START.ipynb").exists()


def test_the_settings_are_installed_into_this_environment():
    """requirements.txt installs jupyter-config; a stale or missing copy would go unseen."""
    for rel in (CONFIG, KERNEL_CONFIG):
        installed = Path(sys.prefix) / rel
        assert installed.exists(), f"{installed} missing: python -m pip install -r requirements.txt"
        assert installed.read_text() == (ROOT / "jupyter-config" / rel).read_text()


def test_the_start_page_says_to_run_a_lesson_cell_by_cell_not_all_at_once():
    """Run All would unfold every Predict, then run answer before the learner has predicted."""
    text = _start_text()
    assert "Shift+Enter" in text and "one at a time" in text
    assert "Do not use Run All" in text
    assert "Run All Cells" not in text, "START must not suggest Run All"
