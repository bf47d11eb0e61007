"""ruff is clean on the whole course: helpers, tests and every notebook."""

import subprocess
import sys

from notebook_files import ROOT


def test_ruff_is_clean():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _helpers_imports() -> dict[str, set[str]]:
    """module -> the helpers modules it imports (anywhere in it, at the top or in a function)."""
    import ast

    graph = {}
    for path in sorted((ROOT / "helpers").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("helpers")}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("helpers"):
                found |= {f"{node.module}.{a.name}" for a in node.names} | {node.module}
        graph[module] = found
    return {m: {i for i in found if i in graph and i != m} for m, found in graph.items()}


def test_no_two_modules_of_helpers_import_each_other():
    """A cycle (core -> source -> core) makes import order matter and hides which module owns
    an idea; helpers/checks/calls.py holds what core and source both need."""
    graph = _helpers_imports()
    assert "helpers.checks.source" in graph["helpers.checks.core"]  # the graph sees imports

    def cycle_from(start, path):
        for nxt in sorted(graph[path[-1]]):
            if nxt == start:
                return [*path, nxt]
            if nxt not in path and nxt.startswith(start.rsplit(".", 1)[0]):
                found = cycle_from(start, [*path, nxt])
                if found:
                    return found
        return None

    cycles = [c for m in graph if (c := cycle_from(m, [m]))]
    assert not cycles, "modules of helpers import each other: " + "; ".join(
        " -> ".join(c) for c in cycles[:5])
