"""Run course notebooks with nbclient, the way nbval and the benchmark do.

`python -m helpers.grade.notebooks notebooks/02_one_row.ipynb ...` executes each notebook in a fresh
kernel and stores its outputs in place: how lessons and solutions are committed executed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

# A "Predict, then run" prompt's answer is in the cells tagged `predict`: stored with input and
# output folded (JupyterLab honours source_hidden and outputs_hidden; running the cell unfolds
# its output, and a click unfolds its code). A folded cell still shows the first line of its
# source and the first non-empty line of its output, so both are ANSWER_SOURCE / ANSWER_LINE
# (a figure's placeholder, "<Figure size ...>", gives nothing away either). The explanation
# that follows sits in a closed <details> block that opens with EXPLANATION_SUMMARY.
PREDICT_TAG = "predict"
ANSWER_LINE = "Answer:"
ANSWER_SOURCE = 'print("Answer:")'
EXPLANATION_SUMMARY = "<details><summary>Explanation (open it after running the cell)</summary>"

# A stored widget view can only say "Error displaying widget" when the notebook is reopened
# (no widget state is saved), so it is dropped; the widget's text/plain line stays.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def execute(nb, cwd: Path, *, timeout: int = 600, allow_errors: bool = False):
    """Execute `nb` in a fresh python3 kernel whose working folder is `cwd`. Returns nb."""
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        allow_errors=allow_errors,
        record_timing=False,
        store_widget_state=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return nb


def execute_in_place(path: Path, *, timeout: int = 600, out: Path | None = None,
                     allow_errors: bool = False) -> float:
    """Execute the notebook at `path`, write it back with its outputs (or to the folder `out`,
    under the same name); return seconds."""
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    execute(nb, path.parent, timeout=timeout, allow_errors=allow_errors)
    seconds = time.perf_counter() - start
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
        if PREDICT_TAG in cell.metadata.get("tags", []):
            folded = cell.metadata.setdefault("jupyter", {})
            folded["source_hidden"] = folded["outputs_hidden"] = True
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / path.name
    nbformat.write(nb, path)
    return seconds


def folded_preview(cell) -> str | None:
    """The text JupyterLab shows for a folded output: the first non-empty line of its first
    output (JupyterLab's CodeCell.getOutputPlaceholderText), or None."""
    if not cell.get("outputs"):
        return None
    first = cell.outputs[0]
    if first.output_type == "stream":
        text = first.text
    else:
        data = first.get("data", {})
        kinds = ("text/html", "image/svg+xml", "text/markdown", "text/plain")
        text = next((data[k] for k in kinds if isinstance(data.get(k), str)), None)
    if text is None:
        return None
    return next((line for line in text.split("\n") if line != ""), None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Execute notebooks in place.")
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, help="write the executed copies into this folder "
                        "(the same names) instead of in place")
    parser.add_argument("--allow-errors", action="store_true",
                        help="go on past a cell that raises, keeping its error as its output")
    args = parser.parse_args(argv)
    for path in args.paths:
        seconds = execute_in_place(path, out=args.out, allow_errors=args.allow_errors)
        print(f"{path}: executed in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
