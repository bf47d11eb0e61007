"""Reading the student's program from its source: the rules a check enforces, judged by the AST.

When the checks run in the grader's process, a check receives a stand-in for the student's
function instead of the function: its `__grade_cells__` is the source of every code cell the
kernel ran before the check, in notebook order. The rules that read the function's code
(`core.forbid`, `one_row._forbid_loops`, `multi_head._global_sizes`) then read that source,
never an object the kernel hands over. The library objects a name may refer to are looked up
in this process (`sys.modules`), by the dotted path the source spells.

The program is read the way Python runs it: the cells in order and, in each, the module-level
statements in order, so the last binding of a name before the check wins; a function reads
module-level names when it is called (by the check, after every cell), its default values
when it is defined. Shapes of the data:

    cells      list[str]  each cell's source; IPython syntax (%magic, !shell) is transformed,
                          a cell that still does not parse is skipped (the kernel could not
                          have run it either)
    name       str        the name the check cell passes, e.g. "stable_softmax"
    forbidden  dotted names, e.g. ("helpers.attention.softmax", "torch.softmax")

What a module-level name is bound to (`_Program.env`, name -> one of):

    _Def(node, at_def)    a function the student wrote: a def (decorated or not) or a lambda;
                          at_def: {name: binding} of the names its decorators and default
                          values read (they run when the function is defined)
    _Ref("torch.nn.functional.softmax")
                          a library object, by the dotted path the source spells: an import,
                          `s = F.softmax`, `s = getattr(F, "softmax")`
    _OTHER                anything else: a value, a class, a call's result
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import sys
from dataclasses import dataclass, field

from helpers.checks.calls import uses

# ---------------------------------------------------------------- the program's bindings


@dataclass(frozen=True, eq=False)
class _Def:
    """A function the student wrote: its def or lambda node, and its def-time bindings."""

    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
    at_def: dict


@dataclass(frozen=True)
class _Ref:
    """A library object by its dotted path ("helpers.attention.softmax", "torch.nn")."""

    dotted: str


_OTHER = object()  # bound, but to nothing the rules can name


@dataclass
class _Program:
    """The student's cells read in order: env maps each module-level name to its binding."""

    env: dict = field(default_factory=dict)


_PARSE_FLAGS = ast.PyCF_ONLY_AST | getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0)
_CELL_MAGICS_RUN_HERE = ("time", "capture")  # %%time / %%capture run their body in the namespace


def _transform(cell: str) -> str:
    """IPython syntax (%magic, !shell, ?help) as the plain Python the kernel runs."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # no IPython: the cell is parsed as it is
        return cell
    return TransformerManager().transform_cell(cell)


def _parse(cell: str) -> list[ast.stmt]:
    """The statements of one cell, [] when it cannot be parsed (so the kernel could not run it)."""
    try:
        tree = compile(_transform(cell), "<cell>", "exec", _PARSE_FLAGS)
    except Exception:  # noqa: BLE001 - SyntaxError, or a transformer that chokes: skip the cell
        return []
    body = tree.body
    if len(body) == 1 and isinstance(body[0], ast.Expr):  # %%time: the cell's body is a string
        call = body[0].value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "run_cell_magic" and len(call.args) == 3
                and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                        for a in call.args)
                and call.args[0].value in _CELL_MAGICS_RUN_HERE):
            return _parse(call.args[2].value)
    return body


@functools.lru_cache(maxsize=16)
def _read(cells: tuple[str, ...]) -> _Program:
    program = _Program()
    for cell in cells:
        for statement in _parse(cell):
            _run_statement(statement, program.env)
    return program


def _program(cells) -> _Program:
    return _read(tuple(cells or ()))


def _names_in(target: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _run_statement(node: ast.stmt, env: dict) -> None:
    """Update env with what one module-level statement binds (compound ones: their bodies too)."""
    for walrus in _module_walruses(node):
        env[walrus.target.id] = _value(walrus.value, env)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        env[node.name] = _Def(node, _def_time_bindings(node, env))
    elif isinstance(node, ast.ClassDef):
        env[node.name] = _OTHER
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                env[alias.asname] = _Ref(alias.name)
            else:  # `import a.b.c` binds a
                top = alias.name.split(".")[0]
                env[top] = _Ref(top)
    elif isinstance(node, ast.ImportFrom):
        for alias in node.names:
            if node.level or not node.module:  # relative: the student's own package
                if alias.name != "*":
                    env[alias.asname or alias.name] = _OTHER
            elif alias.name == "*":
                for public in _public_names(node.module):
                    env[public] = _Ref(f"{node.module}.{public}")
            else:
                env[alias.asname or alias.name] = _Ref(f"{node.module}.{alias.name}")
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            _assign(target, node.value, env)
    elif isinstance(node, ast.AnnAssign):
        if node.value is not None:
            _assign(node.target, node.value, env)
    elif isinstance(node, ast.AugAssign):
        for n in _names_in(node.target) if isinstance(node.target, ast.Name) else ():
            env[n] = _OTHER
    elif isinstance(node, ast.Delete):
        for target in node.targets:
            if isinstance(target, ast.Name):
                env.pop(target.id, None)
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        for n in _names_in(node.target):
            env[n] = _OTHER
        for child in node.body + node.orelse:
            _run_statement(child, env)
    elif isinstance(node, (ast.While, ast.If)):
        for child in node.body + node.orelse:
            _run_statement(child, env)
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        for item in node.items:
            if item.optional_vars is not None:
                for n in _names_in(item.optional_vars):
                    env[n] = _OTHER
        for child in node.body:
            _run_statement(child, env)
    elif isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
        for child in node.body:
            _run_statement(child, env)
        for handler in node.handlers:
            if handler.name:
                env[handler.name] = _OTHER
            for child in handler.body:
                _run_statement(child, env)
        for child in node.orelse + node.finalbody:
            _run_statement(child, env)
    elif isinstance(node, getattr(ast, "Match", ())):
        for case in node.cases:
            for n in _pattern_names(case.pattern):
                env[n] = _OTHER
            for child in case.body:
                _run_statement(child, env)


def _module_walruses(node: ast.stmt):
    """The `(x := ...)` of a module-level statement's own expressions (they bind globals)."""
    todo = [c for c in ast.iter_child_nodes(node) if not isinstance(c, (ast.stmt, ast.Lambda))]
    while todo:
        c = todo.pop(0)
        if isinstance(c, ast.NamedExpr) and isinstance(c.target, ast.Name):
            yield c
        todo.extend(k for k in ast.iter_child_nodes(c)
                    if not isinstance(k, (ast.stmt, ast.Lambda)))


def _pattern_names(pattern) -> list[str]:
    names = []
    for n in ast.walk(pattern):
        for attr in ("name", "rest"):
            value = getattr(n, attr, None)
            if isinstance(value, str):
                names.append(value)
    return names


def _assign(target: ast.AST, value: ast.AST, env: dict) -> None:
    if isinstance(target, ast.Name):
        env[target.id] = _value(value, env)
    elif (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
          and len(target.elts) == len(value.elts)
          and not any(isinstance(e, ast.Starred) for e in target.elts + value.elts)):
        values = [_value(v, env) for v in value.elts]  # the right side first: a, b = b, a
        for t, v in zip(target.elts, values, strict=True):
            if isinstance(t, ast.Name):
                env[t.id] = v
            else:
                for n in _names_in(t):
                    env[n] = _OTHER
    elif isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
        for n in _names_in(target):
            env[n] = _OTHER
    # x.attr = ..., x[i] = ...: no name is bound


def _value(node: ast.AST, env: dict):
    """What a module-level expression evaluates to, as a binding."""
    if isinstance(node, ast.Name):
        return env.get(node.id, _OTHER)
    if isinstance(node, ast.NamedExpr):
        return _value(node.value, env)
    if isinstance(node, ast.Lambda):
        return _Def(node, _def_time_bindings(node, env))
    if isinstance(node, ast.Attribute):
        base = _value(node.value, env)
        return _Ref(f"{base.dotted}.{node.attr}") if isinstance(base, _Ref) else _OTHER
    attr = _getattr_constant(node)
    if attr is not None:
        base = _value(node.args[0], env)
        return _Ref(f"{base.dotted}.{attr}") if isinstance(base, _Ref) else _OTHER
    return _OTHER


def _getattr_constant(node: ast.AST) -> str | None:
    """"softmax" for `getattr(x, "softmax")` (with or without a default), else None."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "getattr" and len(node.args) in (2, 3)
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
        return node.args[1].value
    return None


def _default_nodes(node) -> list[ast.expr]:
    args = node.args
    return list(args.defaults) + [d for d in args.kw_defaults if d is not None]


def _def_time_nodes(node) -> list[ast.expr]:
    """What runs when a def or lambda is defined: its decorators and default values."""
    return list(getattr(node, "decorator_list", ())) + _default_nodes(node)


def _def_time_bindings(node, env: dict) -> dict:
    names = {n.id for d in _def_time_nodes(node) for n in ast.walk(d) if isinstance(n, ast.Name)}
    return {n: env[n] for n in names if n in env}


def _public_names(module: str) -> list[str]:
    obj = sys.modules.get(module)
    if obj is None:
        return []
    names = getattr(obj, "__all__", None)
    if names is None:
        names = [n for n in vars(obj) if not n.startswith("_")]
    return [n for n in names if isinstance(n, str)]


# ---------------------------------------------------------------- library objects, by their path


def _import(module: str):
    try:
        return importlib.import_module(module)
    except Exception:  # noqa: BLE001 - not installed, or broken: nothing to compare with
        return None


def _resolve(dotted: str, packages=()):
    """The object a dotted path names, or None.

    Only modules already imported in this process are read, plus the modules of `packages`
    (the top-level packages of the forbidden names): a name the student spells never makes
    this process import a module of the student's choice.
    """
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        obj = sys.modules.get(module)
        if obj is None and parts[0] in packages:
            obj = _import(module)
        if obj is None:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except Exception:  # noqa: BLE001 - a missing attribute, or a lazy one that fails
            return None
        return obj
    return None


def _targets(forbidden) -> dict:
    """{dotted: the object it names, or None} for the checker's forbidden names."""
    targets = {}
    for dotted in forbidden:
        module, _, attr = dotted.rpartition(".")
        obj = _import(module)
        targets[dotted] = getattr(obj, attr, None) if obj is not None else None
    return targets


# ---------------------------------------------------------------- a function's scopes

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef) + _COMPREHENSIONS
# from Python 3.12 on, list/set/dict comprehensions are compiled into the enclosing code
_INLINED = (ast.ListComp, ast.SetComp, ast.DictComp) if sys.version_info >= (3, 12) else ()


@dataclass(eq=False)
class _Scope:
    """One code object of a function: itself, or a def, lambda, class or comprehension in it.

    bound: the names it binds (its parameters included); loads: the names it reads, in order;
    attributes: x.attr and getattr(x, "attr") names; from_imports: "module.name" of each
    `from module import name`; loop: "for", "while" or None, in its own code only.
    """

    node: ast.AST
    parent: _Scope | None
    bound: set = field(default_factory=set)
    declared_global: set = field(default_factory=set)
    declared_nonlocal: set = field(default_factory=set)
    loads: list = field(default_factory=list)
    attributes: list = field(default_factory=list)
    from_imports: list = field(default_factory=list)
    loop: str | None = None
    children: list = field(default_factory=list)

    def walk(self):
        """This scope and every scope nested in it, parents first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def is_global(self, name: str) -> bool:
        """Whether `name`, read in this scope, is a module-level name (not a local, not free)."""
        scope, own = self, True
        while scope is not None:
            if name in scope.declared_global:
                return True
            visible = own or not isinstance(scope.node, ast.ClassDef)  # class bodies hide
            if visible and name in scope.bound and name not in scope.declared_nonlocal:
                return False
            scope, own = scope.parent, False
        return True

    def global_reads(self) -> list[str]:
        return [n for n in self.loads if self.is_global(n)]


def _outer_parts(node) -> list[ast.AST]:
    """The parts of a nested scope's node that the enclosing scope runs."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return list(node.decorator_list) + _default_nodes(node)
    if isinstance(node, ast.Lambda):
        return _default_nodes(node)
    if isinstance(node, ast.ClassDef):
        return list(node.decorator_list) + list(node.bases) + [k.value for k in node.keywords]
    return [node.generators[0].iter]  # a comprehension's first iterable


def _inner_parts(node) -> list[ast.AST]:
    """What the scope itself runs."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return list(node.body)
    if isinstance(node, ast.Lambda):
        return [node.body]
    first, rest = node.generators[0], node.generators[1:]
    elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    return [first.target, *first.ifs, *rest, *elts]


def _parameters(node) -> list[str]:
    if isinstance(node, ast.ClassDef) or isinstance(node, _COMPREHENSIONS):
        return []
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    return names + [x.arg for x in (a.vararg, a.kwarg) if x is not None]


def _scope(node, parent: _Scope | None = None) -> _Scope:
    """The scope tree of a def, lambda, class or comprehension node."""
    scope = _Scope(node, parent, bound=set(_parameters(node)))
    walruses = []
    _collect(_inner_parts(node), scope, walruses)
    if isinstance(node, _COMPREHENSIONS):  # `(y := ...)` in a comprehension binds outside it
        owner = scope.parent
        while owner is not None and isinstance(owner.node, _COMPREHENSIONS):
            owner = owner.parent
        scope.bound -= set(walruses)
        if owner is not None:
            owner.bound |= set(walruses)
    return scope


def _collect(nodes, scope: _Scope, walruses: list) -> None:
    """Fill `scope` from the nodes it runs, depth first in source order; nested scopes apart."""
    todo = list(reversed(nodes))
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES):
            todo.extend(reversed(_outer_parts(node)))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                scope.bound.add(node.name)
            if isinstance(node, _INLINED):  # its loop is this code's own loop
                scope.loop = "for"
            scope.children.append(_scope(node, scope))
            continue
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                scope.loads.append(node.id)
            else:
                scope.bound.add(node.id)
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            walruses.append(node.target.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            scope.loads.append(node.target.id)  # x += 1 reads x too
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            scope.attributes.append(node.attr)
        elif isinstance(node, ast.Import):
            scope.bound |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            scope.bound |= {a.asname or a.name for a in node.names if a.name != "*"}
            if node.module and not node.level:
                scope.from_imports += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            scope.bound.add(node.name)
        elif isinstance(node, ast.Global):
            scope.declared_global |= set(node.names)
        elif isinstance(node, ast.Nonlocal):
            scope.declared_nonlocal |= set(node.names)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            scope.loop = "for"
        elif isinstance(node, ast.While) and scope.loop is None:
            scope.loop = "while"
        elif isinstance(node, ast.Call) and _getattr_constant(node) is not None:
            scope.attributes.append(_getattr_constant(node))
        elif isinstance(node, ast.pattern):  # case [x, *rest] / case {"k": v, **rest}
            scope.bound |= {getattr(node, a) for a in ("name", "rest")
                            if isinstance(getattr(node, a, None), str)}
        todo.extend(reversed(list(ast.iter_child_nodes(node))))


@functools.lru_cache(maxsize=256)
def _tree(node) -> _Scope:
    return _scope(node)


def _function(cells, name: str) -> _Def | None:
    binding = _program(cells).env.get(name)
    return binding if isinstance(binding, _Def) else None


# ---------------------------------------------------------------- the rules


def binds(cell: str, name: str) -> bool:
    """Whether running this one cell binds `name` at module level (def, class, assignment,
    import): how the grader finds an answer cell in a notebook without cell ids."""
    return name in _read((cell,)).env


def forbidden_uses(cells, name: str, forbidden) -> set[str]:
    """The forbidden callables the function `name` uses, worded as core.forbid words them.

    -> set of: "helpers.attention.softmax" (the answer is that function, or imports it in its
    body), "softmax" (an attribute `x.softmax` / `getattr(x, "softmax")`, or a global of that
    name that is not a function of the student's), "helpers.attention.softmax (as `s`)" (a
    global bound to it by an import or an assignment). Functions of the student's it reads
    (defs, lambdas, in any earlier cell) are read too, recursively. Empty when `name` is not
    defined or is bound to nothing the rules know.
    """
    targets = _targets(forbidden)
    packages = {d.split(".")[0] for d in forbidden}
    program = _program(cells)
    binding = program.env.get(name)
    short = {d.rsplit(".", 1)[-1] for d in forbidden}
    if isinstance(binding, _Ref):  # the answer is a library function itself
        obj = _resolve(binding.dotted, packages)
        found = {d for d, t in targets.items() if t is not None and obj is t}
        if not found and inspect.isfunction(obj):  # one that is not forbidden: read its code
            found = uses(obj, short, targets)
        return found
    if not isinstance(binding, _Def):
        return set()
    return _uses(binding, program.env, short, targets, packages, set())


def _uses(fn: _Def, env: dict, short: set, targets: dict, packages: set, seen: set) -> set[str]:
    if id(fn.node) in seen:
        return set()
    seen.add(id(fn.node))
    found = set()

    def read(n: str, binding) -> None:
        students = isinstance(binding, _Def)
        if n in short and not students:
            found.add(n)
        if isinstance(binding, _Ref):
            obj = _resolve(binding.dotted, packages)
            for dotted, target in targets.items():
                if target is not None and obj is target:
                    found.add(f"{dotted} (as `{n}`)" if n != dotted.rsplit(".", 1)[-1] else n)
        if students and binding.node is not fn.node:  # a helper of the student's
            found.update(_uses(binding, env, short, targets, packages, seen))

    def_time = _Scope(ast.Module(body=[], type_ignores=[]), None)  # decorators, defaults
    _collect(_def_time_nodes(fn.node), def_time, [])
    def_time.bound.clear()  # module-level code: every name it reads is a global
    for scope in [def_time, _tree(fn.node)]:
        for inner in scope.walk():
            found.update(a for a in inner.attributes if a in short)
            found.update(d for d in inner.from_imports if d in targets)
            for n in inner.global_reads():
                at_def = inner is def_time and n in fn.at_def
                read(n, fn.at_def[n] if at_def else env.get(n, _OTHER))
    return found


# the words of one_row._forbid_loops
_LOOP_WORDS = {"for": "a `for` loop" + (" (or a comprehension)" if _INLINED else ""),
               "while": "a `while` loop"}
_COMPREHENSION_WORDS = {ast.ListComp: "a list comprehension",
                        ast.GeneratorExp: "a generator expression",
                        ast.DictComp: "a dict comprehension", ast.SetComp: "a set comprehension"}


def loop_label(cells, name: str) -> str | None:
    """The loop in the function `name`'s own code, in one_row._forbid_loops's words, or None.

    Own code: its body and the defs, lambdas and comprehensions nested in it, not the helpers
    it calls. -> "a `for` loop", "a `while` loop", "a list comprehension", ... Scopes are read
    in the order _forbid_loops reads code objects: the function's own code first, then the
    nested ones, last first.
    """
    fn = _function(cells, name)
    stack = [_tree(fn.node)] if fn is not None else []
    while stack:
        scope = stack.pop()
        if isinstance(scope.node, _INLINED):  # counted as its parent's own `for`
            stack.extend(scope.children)
            continue
        label = _COMPREHENSION_WORDS.get(type(scope.node))
        if label is None and scope.loop is not None:
            label = _LOOP_WORDS[scope.loop]
        if label is not None:
            return label
        stack.extend(scope.children)
    return None


def global_names(cells, name: str) -> set[str]:
    """The module-level names the function `name` reads (its own code and the scopes in it).

    Not its parameters or locals, nor names free in a nested def; builtins are included
    (`len`): the caller keeps the names the kernel holds. Empty when `name` is no function.
    """
    fn = _function(cells, name)
    if fn is None:
        return set()
    return {n for scope in _tree(fn.node).walk() for n in scope.global_reads()}


class _SourceDefault:
    """A default value that is not a literal, shown as its source: `mask=np.eye(3)`."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _default(node: ast.expr):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _SourceDefault(ast.unparse(node))


def signature(cells, name: str) -> inspect.Signature | None:
    """The parameters of the function `name`, from its def or lambda, or None.

    Defaults that are literals keep their value (None, 1.0, "x"); others show their source.
    A name bound to a library function has that function's signature.
    """
    binding = _program(cells).env.get(name)
    if isinstance(binding, _Ref):
        obj = _resolve(binding.dotted)
        try:
            return inspect.signature(obj) if callable(obj) else None
        except (TypeError, ValueError):
            return None
    if not isinstance(binding, _Def):
        return None
    a, P = binding.node.args, inspect.Parameter
    positional = [(x, P.POSITIONAL_ONLY) for x in a.posonlyargs]
    positional += [(x, P.POSITIONAL_OR_KEYWORD) for x in a.args]
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = [P(x.arg, kind, default=P.empty if d is None else _default(d))
              for (x, kind), d in zip(positional, defaults, strict=True)]
    if a.vararg is not None:
        params.append(P(a.vararg.arg, P.VAR_POSITIONAL))
    params += [P(x.arg, P.KEYWORD_ONLY, default=P.empty if d is None else _default(d))
               for x, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)]
    if a.kwarg is not None:
        params.append(P(a.kwarg.arg, P.VAR_KEYWORD))
    return inspect.Signature(params)
