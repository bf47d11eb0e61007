"""Run every lesson and solution notebook under strict nbval in other CPU configurations.

    python -m helpers.grade.portability                  # every configuration below
    python -m helpers.grade.portability default-1t       # one (CI's second configuration)
    python -m helpers.grade.portability --list
    python -m helpers.grade.portability avx2-2t --notebooks notebooks/08_architectures.ipynb
    python -m helpers.grade.portability --save runs/ --notebooks notebooks/08_architectures.ipynb
    python -m helpers.grade.portability --spread runs/
    python -m helpers.grade.portability default-1t --suite   # the whole `pytest`, not only them

--rebuilt [CONFIG] rebuilds the shipped models under a configuration (default-1t unless one
is named) as a learner would (`python -m helpers.grade.train NAME`, into a copy of
data/weights named by COURSE_WEIGHTS_DIR), prints their SHA-256 beside the shipped ones, and
runs the lessons and solutions that load them (nbval-lax: every cell must run, and every
claim about the shipped model prints the rebuilt one's value instead of asserting it).

--save DIR executes the notebooks under each configuration (errors kept as outputs) into
DIR/<configuration>/, without comparing; --spread DIR then prints, for every cell whose text
output is not the same in all of them, each configuration's lines: the spread a stated number
must allow for (docs/portability.md keeps the table).

A learner's laptop is not the machine the notebooks were executed on: another CPU make, vector
width, BLAS code path, thread count or a busy machine changes float rounding. Each
configuration runs `pytest --nbval` (the README's strict comparison) on the notebooks in a
fresh process with its environment set, one configuration at a time, and the command prints
configuration x notebook -> passed, or the cells whose output differs. Exit status 0 when every
notebook passed everywhere, 1 otherwise.

The variables: ATEN_CPU_CAPABILITY picks torch's own vectorised kernels (default = no AVX, as
on a CPU without AVX2); MKL_ENABLE_INSTRUCTIONS and ONEDNN_MAX_CPU_ISA cap the code paths of
MKL (torch's BLAS) and oneDNN, NPY_DISABLE_CPU_FEATURES NumPy's dispatched loops (as on an
older or another make of CPU); OMP_NUM_THREADS and MKL_NUM_THREADS set the threads torch starts
with; load runs one CPU-bound process per core beside the notebooks.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIRS = ("notebooks", "solutions")


@dataclass(frozen=True)
class Configuration:
    name: str
    description: str
    env: dict[str, str] = field(default_factory=dict)
    load: bool = False  # one CPU-bound process per core beside the run


def _threads(n: int) -> dict[str, str]:
    return {"OMP_NUM_THREADS": str(n), "MKL_NUM_THREADS": str(n)}


# What a CPU without AVX2, or with AVX2 and no AVX-512, runs: torch's own kernels, MKL's and
# oneDNN's code paths, and NumPy's dispatched loops, each capped by its own variable.
NO_AVX = {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2",
          "ONEDNN_MAX_CPU_ISA": "SSE41",
          "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR"}
AVX2 = {"ATEN_CPU_CAPABILITY": "avx2", "MKL_ENABLE_INSTRUCTIONS": "AVX2",
        "ONEDNN_MAX_CPU_ISA": "AVX2", "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR"}

CONFIGURATIONS = {
    c.name: c
    for c in [
        Configuration("default-1t", "a CPU without AVX2 (torch, MKL, oneDNN and NumPy without "
                      "AVX), 1 thread", {**NO_AVX, **_threads(1)}),
        Configuration("avx2-2t", "a CPU with AVX2 and no AVX-512, 2 threads",
                      {**AVX2, **_threads(2)}),
        Configuration("avx512-4t", "torch's AVX-512 kernels (where the CPU has them), 4 "
                      "threads", {"ATEN_CPU_CAPABILITY": "avx512", **_threads(4)}),
        Configuration("avx2-1t", "a CPU with AVX2 and no AVX-512, 1 thread",
                      {**AVX2, **_threads(1)}),
        Configuration("default-4t", "torch's kernels without AVX, MKL with AVX2, 4 threads",
                      {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "AVX2",
                       **_threads(4)}),
        Configuration("loaded-2t", "this CPU's own kernels, 2 threads, every core busy",
                      _threads(2), load=True),
    ]
}


def notebooks(paths=None) -> list[Path]:
    if paths:
        return [Path(p).resolve() for p in paths]
    return sorted(p for d in NOTEBOOK_DIRS for p in (ROOT / d).glob("*.ipynb"))


def _burn() -> None:  # pragma: no cover - runs in a child process until terminated
    while True:
        pass


def run(config: Configuration, paths: list[Path], workers: int = 2) -> dict[str, list[str]]:
    """Strict nbval on `paths` under `config`: {notebook: [failing cell names]} (empty: passed)."""
    with _load(config):
        return _nbval(paths, _environment(config), workers)


def _nbval(paths: list[Path], env: dict, workers: int, *options: str) -> dict[str, list[str]]:
    """pytest --nbval (the project's options, plus `options`) on paths: failing cells."""
    with tempfile.TemporaryDirectory(prefix="portability-") as tmp:
        report = Path(tmp) / "junit.xml"
        command = [sys.executable, "-m", "pytest", *map(str, paths), "-q", "--no-header",
                   f"--junitxml={report}", "-n", str(workers), "-o", "testpaths=",
                   "-o", "junit_family=xunit2", *options]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        if not report.is_file():
            raise RuntimeError(f"pytest wrote no report:\n{done.stdout[-3000:]}\n"
                               f"{done.stderr[-3000:]}")
        return _results(report, paths)


VARIABLES = ("ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS", "ONEDNN_MAX_CPU_ISA",
             "NPY_DISABLE_CPU_FEATURES", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _environment(config: Configuration) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(config.env)
    return env


@contextlib.contextmanager
def _load(config: Configuration):
    """One CPU-bound process per core while the block runs, if the configuration asks."""
    burners = [multiprocessing.Process(target=_burn, daemon=True)
               for _ in range(os.cpu_count() or 1)] if config.load else []
    for b in burners:
        b.start()
    try:
        yield
    finally:
        for b in burners:
            b.terminate()
            b.join()


MODELS_USED_BY = ("10_llms", "11_induction")  # the notebooks that load data/weights


def rebuilt(config: Configuration, workers: int = 2) -> bool:
    """Rebuild every shipped model under config, then run the notebooks that load them on the
    rebuilds. Prints the hashes and the failing cells; True when every cell ran."""
    from helpers import pretrained
    from helpers.grade.train import TARGETS

    env = _environment(config)
    shipped = pretrained.read_sums(pretrained.WEIGHTS_DIR)
    with tempfile.TemporaryDirectory(prefix="rebuilt-") as tmp:
        weights = Path(tmp) / "weights"
        weights.mkdir()
        (weights / pretrained.SUMS).write_text(
            (pretrained.WEIGHTS_DIR / pretrained.SUMS).read_text(encoding="ascii"),
            encoding="ascii")
        env[pretrained.WEIGHTS_ENV] = str(weights)
        for name in TARGETS:
            threads = config.env.get("OMP_NUM_THREADS", "1")
            subprocess.run([sys.executable, "-m", "helpers.grade.train", name, "--threads",
                            threads], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            digest = pretrained.read_sums(weights, pretrained.REBUILT)[f"{name}.pt"]
            same = "the same bytes" if digest == shipped.get(f"{name}.pt") else "other bytes"
            print(f"  {name}: rebuilt {digest[:16]}..., shipped "
                  f"{shipped.get(f'{name}.pt', '?')[:16]}...: {same}", flush=True)
        paths = [p for p in notebooks() if p.stem in MODELS_USED_BY]
        lax = _nbval(paths, env, workers, "--nbval-lax", "-o",
                     "addopts=--nbval-lax -p no:cacheprovider --dist loadfile")
        ok = True
        for notebook, cells in lax.items():
            ok &= not cells
            print(f"  {notebook:36s} {'ran' if not cells else 'FAILED: ' + ', '.join(cells)}")
        return ok


def save(config: Configuration, paths: list[Path], folder: Path) -> None:
    """Execute `paths` under `config` into folder/<config>/<notebooks|solutions>/."""
    env = _environment(config)
    with _load(config):
        for parent in sorted({p.parent for p in paths}):
            group = [str(p) for p in paths if p.parent == parent]
            out = Path(folder) / config.name / parent.name
            subprocess.run([sys.executable, "-m", "helpers.grade.notebooks", "--allow-errors",
                            "--out", str(out), *group], cwd=ROOT, env=env, check=True,
                           stdout=subprocess.DEVNULL)


def _text(cell) -> list[str]:
    lines = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            lines += output.get("text", "").splitlines()
        elif output.get("output_type") == "error":
            lines.append(f"{output.get('ename')}: {output.get('evalue')}")
        else:
            lines += output.get("data", {}).get("text/plain", "").splitlines()
    return lines


def spread(folder: Path) -> str:
    """Every cell whose text output differs between the configurations saved in folder."""
    import nbformat

    runs = sorted(p for p in Path(folder).iterdir() if p.is_dir())
    names = sorted({nb.relative_to(run) for run in runs for nb in run.glob("*/*.ipynb")})
    report = []
    for name in names:
        cells = {}
        for run in runs:
            if (run / name).is_file():
                nb = nbformat.read(run / name, as_version=4)
                cells[run.name] = {c.get("id"): _text(c) for c in nb.cells
                                   if c.cell_type == "code"}
        ids = next(iter(cells.values()), {})
        for cid in ids:
            texts = {config: got.get(cid) for config, got in cells.items()}
            if len({tuple(t or ()) for t in texts.values()}) < 2:
                continue
            report.append(f"### {name} cell {cid}")
            columns = list(texts.values())
            for i in range(max(len(t or ()) for t in columns)):
                line = {config: (t[i] if t and i < len(t) else "") for config, t in texts.items()}
                if len(set(line.values())) > 1:
                    report += [f"  {config:22s} {text}" for config, text in line.items()]
                    report.append("")
    return "\n".join(report) or "every text output is the same in every configuration"


def _results(report: Path, paths: list[Path]) -> dict[str, list[str]]:
    failing = defaultdict(list)  # junit's classname: "notebooks.10_llms.ipynb"
    for case in ElementTree.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failing[case.get("classname", "")].append(case.get("name", "?"))
    return {_name(p): failing.get(_name(p).replace("/", "."), []) for p in paths}


def _name(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m helpers.grade.portability",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("configs", nargs="*", help="configuration names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the configurations")
    parser.add_argument("--notebooks", nargs="+", help="notebooks to run (default: every "
                        "lesson and solution)")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (2)")
    parser.add_argument("--save", type=Path, metavar="DIR",
                        help="execute into DIR/<configuration>/ instead of comparing")
    parser.add_argument("--spread", type=Path, metavar="DIR",
                        help="print the outputs that differ between the runs saved in DIR")
    parser.add_argument("--suite", action="store_true",
                        help="run the README's whole `pytest` under each configuration instead")
    parser.add_argument("--rebuilt", action="store_true",
                        help="rebuild the shipped models, then run lessons 10 and 11 on them")
    args = parser.parse_args(argv)
    if args.spread:
        print(spread(args.spread))
        return 0
    if args.list:
        for c in CONFIGURATIONS.values():
            env = " ".join(f"{k}={v}" for k, v in c.env.items())
            print(f"{c.name:22s} {c.description}\n{'':22s} {env}{' + load' if c.load else ''}")
        return 0
    unknown = [n for n in args.configs if n not in CONFIGURATIONS]
    if unknown:
        parser.error(f"unknown configuration {', '.join(unknown)}; known: "
                     f"{', '.join(CONFIGURATIONS)}")
    chosen = [CONFIGURATIONS[n] for n in args.configs] or list(CONFIGURATIONS.values())
    if args.rebuilt:
        ok = True
        for config in [CONFIGURATIONS[n] for n in args.configs] or [CONFIGURATIONS["default-1t"]]:
            print(f"## {config.name}: rebuilding the shipped models", flush=True)
            ok &= rebuilt(config, args.workers)
        print("every cell ran on the rebuilt models" if ok else "some cells failed")
        return 0 if ok else 1
    if args.suite:
        ok = True
        for config in chosen:
            print(f"## {config.name}: {config.description}: pytest", flush=True)
            with _load(config):
                done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--no-header"],
                                      cwd=ROOT, env=_environment(config), capture_output=True,
                                      text=True)
            tail = [line for line in done.stdout.splitlines() if line.strip()][-15:]
            print("\n".join(f"  {line}" for line in tail), flush=True)
            ok &= done.returncode == 0
        return 0 if ok else 1
    paths = notebooks(args.notebooks)
    if args.save:
        for config in chosen:
            print(f"## {config.name}: executing into {args.save / config.name}", flush=True)
            save(config, paths, args.save)
        return 0
    all_passed = True
    for config in chosen:
        print(f"## {config.name}: {config.description}", flush=True)
        for notebook, cells in run(config, paths, args.workers).items():
            all_passed &= not cells
            print(f"  {notebook:36s} {'passed' if not cells else 'DIFFERS: ' + ', '.join(cells)}",
                  flush=True)
    print("every notebook passed in every configuration" if all_passed
          else "some notebooks differ: see DIFFERS above")
    return 0 if all_passed else 1


if __name__ == "__main__":
    sys.exit(main())
