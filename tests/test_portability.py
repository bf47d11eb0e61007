"""helpers.grade.portability: the command that runs the notebooks on other CPU configurations.

Running it takes minutes (CI runs `default-1t` after pytest); these tests check its parts: the
environment each configuration gets, how nbval's report becomes "notebook -> failing cells",
and the spread of outputs between saved runs.
"""

from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_notebook, new_output

from helpers.grade import portability

from notebook_files import ROOT


def test_ci_runs_the_configuration_without_avx_on_one_thread():
    assert "python -m helpers.grade.portability default-1t" in (ROOT / ".ci" / "run").read_text()
    env = portability.CONFIGURATIONS["default-1t"].env
    assert env["ATEN_CPU_CAPABILITY"] == "default" and env["OMP_NUM_THREADS"] == "1"
    assert env["MKL_ENABLE_INSTRUCTIONS"] == "SSE4_2"


def test_every_configuration_sets_its_own_variables_and_drops_inherited_ones(monkeypatch):
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "avx512")
    monkeypatch.setenv("MKL_ENABLE_INSTRUCTIONS", "AVX512")
    env = portability._environment(portability.CONFIGURATIONS["avx512-4t"])
    assert env["ATEN_CPU_CAPABILITY"] == "avx512" and "MKL_ENABLE_INSTRUCTIONS" not in env
    loads = [c.name for c in portability.CONFIGURATIONS.values() if c.load]
    threads = {c.env.get("OMP_NUM_THREADS") for c in portability.CONFIGURATIONS.values()}
    capabilities = {c.env.get("ATEN_CPU_CAPABILITY") for c in portability.CONFIGURATIONS.values()}
    assert loads and threads >= {"1", "2", "4"} and capabilities >= {"default", "avx2", "avx512"}


JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="notebooks.08_architectures.ipynb" name="Cell 0" time="1"/>
<testcase classname="notebooks.08_architectures.ipynb" name="Cell 15" time="1">
  <failure message="mismatch">...</failure></testcase>
<testcase classname="solutions.08_architectures.ipynb" name="Cell 3" time="1">
  <error message="setup">...</error></testcase>
<testcase classname="notebooks.10_llms.ipynb" name="Cell 1" time="1"/>
</testsuite></testsuites>"""


def test_the_report_names_each_notebooks_failing_cells(tmp_path):
    report = tmp_path / "junit.xml"
    report.write_text(JUNIT, encoding="utf-8")
    paths = [ROOT / "notebooks" / "08_architectures.ipynb",
             ROOT / "solutions" / "08_architectures.ipynb", ROOT / "notebooks" / "10_llms.ipynb"]
    assert portability._results(report, paths) == {
        "notebooks/08_architectures.ipynb": ["Cell 15"],
        "solutions/08_architectures.ipynb": ["Cell 3"],
        "notebooks/10_llms.ipynb": [],
    }


def _saved(folder, text: str, same: str = "the same everywhere\n"):
    nb = new_notebook(cells=[new_code_cell("print(1)"), new_code_cell("print(2)")])
    nb.cells[0].id, nb.cells[1].id = "same", "loss"
    nb.cells[0].outputs = [new_output("stream", name="stdout", text=same)]
    nb.cells[1].outputs = [new_output("stream", name="stdout", text=text)]
    (folder / "notebooks").mkdir(parents=True)
    nbformat.write(nb, folder / "notebooks" / "08_architectures.ipynb")


def test_the_spread_shows_only_the_lines_that_differ(tmp_path):
    _saved(tmp_path / "avx2-2t", "steps 500\nfinal 1.83\n")
    _saved(tmp_path / "default-1t", "steps 500\nfinal 1.84\n")
    spread = portability.spread(tmp_path)
    assert "cell loss" in spread and "cell same" not in spread
    assert "avx2-2t                final 1.83" in spread
    assert "default-1t             final 1.84" in spread
    assert "steps 500" not in spread


def test_runs_that_agree_have_no_spread(tmp_path):
    _saved(tmp_path / "a", "final 1.83\n")
    _saved(tmp_path / "b", "final 1.83\n")
    assert portability.spread(tmp_path) == (
        "every text output is the same in every configuration")
