"""ruff is clean on the whole course: helpers, tests and every notebook."""

import subprocess
import sys

from notebook_files import ROOT


def test_ruff_is_clean():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
