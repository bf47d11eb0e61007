"""Which library callables a live Python function uses: the bytecode half of the forbidden-call
rule (helpers.checks.source reads the same from a grader's copy of the student's cells).

core.forbid and source.forbidden_uses both call `uses`; this module imports neither, so the
two do not import each other.
"""

from __future__ import annotations

import ast
import dis
import inspect
import textwrap
import types
from pathlib import Path

_HELPERS_DIR = str(Path(__file__).resolve().parent.parent)


def is_library(filename: str) -> bool:
    return filename.startswith(_HELPERS_DIR) or "site-packages" in filename or (
        "/lib/python" in filename)


def resolve(dotted: str):
    module, _, attr = dotted.rpartition(".")
    try:
        obj = __import__(module, fromlist=[attr])
        return getattr(obj, attr)
    except (ImportError, AttributeError):
        return None


def uses(fn, short: set[str], targets: dict, seen=None) -> set[str]:
    seen = set() if seen is None else seen
    code = getattr(fn, "__code__", None)
    if code is None or id(code) in seen:
        return set()
    seen.add(id(code))
    found = set()
    glob = getattr(fn, "__globals__", {})
    closure = {}
    if getattr(fn, "__closure__", None):
        for var, cell in zip(code.co_freevars, fn.__closure__, strict=False):
            try:
                closure[var] = cell.cell_contents
            except ValueError:
                pass
    stack = [code]
    while stack:
        c = stack.pop()
        for ins in dis.get_instructions(c):
            n = ins.argval
            if not isinstance(n, str):
                continue
            if ins.opname in ("LOAD_ATTR", "LOAD_METHOD"):  # F.softmax, x.softmax(...)
                if n in short:
                    found.add(n)
                continue
            if ins.opname not in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF", "LOAD_CLOSURE"):
                continue
            obj = closure.get(n, glob.get(n))
            students = inspect.isfunction(obj) and not is_library(obj.__code__.co_filename)
            if n in short and not students:
                found.add(n)
            for dotted, target in targets.items():
                if target is not None and obj is target:
                    found.add(f"{dotted} (as `{n}`)" if n != dotted.rsplit(".", 1)[-1] else n)
            if students and obj is not fn:  # a helper of the student's
                found |= uses(obj, short, targets, seen)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    found |= _imports_in_source(fn, set(targets))
    return found


def _source_of(fn) -> str | None:
    """fn's own source, or None when it is missing or belongs to something else.

    A cell run outside Jupyter can share its file name with other cells; linecache (or
    __main__'s loader) may then hand back another text for fn's line numbers.
    """
    try:
        text = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(text)
    except (OSError, TypeError, SyntaxError):
        return None
    if fn.__name__ != "<lambda>":
        first = tree.body[0] if tree.body else None
        if not isinstance(first, (ast.FunctionDef, ast.AsyncFunctionDef)) or (
                first.name != fn.__name__):
            return None
    return text


def _imports_in_source(fn, dotted: set[str]) -> set[str]:
    text = _source_of(fn)
    if text is None:
        return set()
    tree = ast.parse(text)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in dotted:
                    found.add(f"{node.module}.{alias.name}")
    return found
