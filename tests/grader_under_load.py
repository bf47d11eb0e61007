"""The grader's verdicts do not depend on how busy the machine is.

Grades tests/class_fixture.py's class (solved, stubbed and wrong answers, a duplicate, a file
named like no lesson) twice: once on a quiet machine with `--jobs 2`, once with `--jobs 4`
while one CPU-bound process per core (or --burners N) loads the machine. Every notebook's
every exercise must get the same status, points and message in both runs; a notebook the
machine failed would show as `grader error`, and is a difference too.

    python tests/grader_under_load.py [--burners N] [--jobs N] [--keep DIR]

Exit status 0 when the two runs agree, 1 when they differ.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from class_fixture import ROOT, write_class  # noqa: E402

from helpers.grade.portability import _burn  # noqa: E402  (one CPU-bound process)


def grade(klass: Path, roster: Path, out: Path, jobs: int, burners: int) -> tuple[dict, float]:
    procs = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(burners)]
    for p in procs:
        p.start()
    start = time.monotonic()
    try:
        subprocess.run([sys.executable, "-m", "helpers.grade", str(klass), "--roster",
                        str(roster), "--jobs", str(jobs), "--seed", "5", "--json", str(out)],
                       cwd=ROOT, capture_output=True, text=True, check=False)
    finally:
        for p in procs:
            p.terminate()
            p.join()
    return json.loads(out.read_text(encoding="utf-8")), time.monotonic() - start


def verdicts(report: dict, klass: Path) -> dict[tuple[str, str], tuple]:
    out = {}
    for nb in report["notebooks"]:
        name = str(Path(nb["path"]).resolve().relative_to(klass.resolve()))
        if not nb.get("exercises"):
            out[(name, "-")] = (nb.get("status") or nb.get("unmatched") or "no exercises",)
        for e in nb.get("exercises", []):
            out[(name, e["id"])] = (e["status"], e["earned"], e["message"])
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--jobs", type=int, default=4, help="--jobs of the loaded run (4)")
    parser.add_argument("--keep", help="keep the class and both reports in this folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="grader-load-") as tmp:
        base = Path(args.keep or tmp)
        base.mkdir(parents=True, exist_ok=True)
        klass, roster = write_class(base)
        quiet, quiet_s = grade(klass, roster, base / "quiet.json", 2, 0)
        loaded, loaded_s = grade(klass, roster, base / "loaded.json", args.jobs, args.burners)
        a, b = verdicts(quiet, klass), verdicts(loaded, klass)
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    print(f"quiet --jobs 2: {len(a)} verdicts in {quiet_s:.0f} s; loaded --jobs {args.jobs} "
          f"beside {args.burners} CPU-bound processes: {len(b)} verdicts in {loaded_s:.0f} s")
    for key in differ:
        print(f"  {key[0]} {key[1]}:\n    quiet  {a.get(key)}\n    loaded {b.get(key)}")
    statuses = sorted({v[0] for v in a.values()})
    print(f"statuses seen: {', '.join(statuses)}")
    print("identical" if not differ else f"{len(differ)} verdicts differ")
    return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main())
