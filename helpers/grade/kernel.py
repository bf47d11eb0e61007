"""The kernel's side of the bridge: call the student's function on the grader's inputs.

The grader's startup file imports this module in every grading kernel before any cell runs
and binds `serve` as `__grade_bridge__`. To call a student's function the grader executes
`__grade_bridge__()` with stdin allowed; `serve` asks the grader what to do through `input()`
(each prompt and each reply is one message of helpers.grade.wire data), does it, and sends the
result back the same way. What the student's code does in this kernel can change only what
comes back, which the grader judges as data; the comparison never runs here.

The protocol, kernel -> grader (the prompt) / grader -> kernel (the reply):
    {"op": "ready"}                      / {"op": "call" | "describe" | "globals", ...}
    {"op": "callback", ...}              / {"value": ...} or {"error": [type, message]}
    {"op": "done", "result": ...}        / {}
"""

from __future__ import annotations

import builtins
import copy
import json
import sys
import traceback

import numpy as np

from helpers.grade import wire

PREFIX = "\x1ehelpers.grade\x1e"


class GraderObject:
    """An object that stays in the grader (a check's layer, its recording RNG): every use
    of it here is a call into the grader."""

    def __init__(self, talk, number: int):
        object.__setattr__(self, "_talk", talk)
        object.__setattr__(self, "_number", number)

    def _ask(self, what, **fields):
        return self._talk({"op": "callback", "what": what, "handle": self._number, **fields})

    def __call__(self, *args, **kwargs):
        return self._ask("call", args=args, kwargs=kwargs)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", name=name)

    def __iter__(self):
        return iter(self._ask("list"))

    def __len__(self):
        return self._ask("len")

    def __getitem__(self, key):
        return self._ask("getitem", key=key)

    def __repr__(self):
        return "<an object of the grader's>"


def _error_data(error: BaseException) -> dict:
    bases = [c.__name__ for c in type(error).__mro__ if getattr(builtins, c.__name__, None) is c]
    args = tuple(error.args)
    try:
        wire.Encoder()(args)
    except Exception:  # noqa: BLE001 - arguments that are not data: keep the message
        args = (str(error),)
    frames = traceback.extract_tb(error.__traceback__)
    own = [f for f in frames if f.filename != __file__]
    text = "".join(traceback.format_list(own)) + "".join(
        traceback.format_exception_only(type(error), error))
    return {"type": type(error).__name__, "bases": bases, "args": args,
            "message": str(error)[:20_000], "traceback": text[-20_000:]}


def _arrays(args, kwargs):
    """(path, value) for the arrays, tensors and generators among the arguments."""
    torch = sys.modules.get("torch")
    kinds = (np.ndarray, np.random.Generator) + ((torch.Tensor, torch.Generator) if torch else ())
    places = [(("a", i), v) for i, v in enumerate(args)]
    places += [(("k", k), v) for k, v in kwargs.items()]
    for path, value in list(places):
        if isinstance(value, (tuple, list)):
            places += [(path + (j,), v) for j, v in enumerate(value)]
    return [(path, value) for path, value in places if isinstance(value, kinds)]


def _is_generator(value) -> bool:
    torch = sys.modules.get("torch")
    return isinstance(value, np.random.Generator) or (
        torch is not None and isinstance(value, torch.Generator))


def _same(a, b) -> bool:
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(a, torch.Tensor):
        return a.shape == b.shape and bool(torch.equal(a.detach(), b))
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


def rng_states() -> dict:
    """The global NumPy and (when loaded) torch RNG states, as data; both sides send them."""
    states = {"numpy": np.random.get_state()}
    torch = sys.modules.get("torch")
    if torch is not None:
        states["torch"] = torch.random.get_rng_state().numpy()
    return states


def set_rng_states(states: dict) -> None:
    """Put global RNG states from rng_states() in place (torch only when it is loaded)."""
    if "numpy" in states:
        state = states["numpy"]
        np.random.set_state((str(state[0]), np.asarray(state[1], dtype=np.uint32),
                             int(state[2]), int(state[3]), float(state[4])))
    torch = sys.modules.get("torch")
    if torch is not None and "torch" in states:  # torch only when the notebook loaded it
        torch.random.set_rng_state(torch.from_numpy(np.asarray(states["torch"], np.uint8)))


def _instrument(factory: str, state):
    """A check's instrumented input, built here from the course's checks (helpers.checks.*)."""
    module_name, _, attr = factory.rpartition(".")
    if not module_name.startswith("helpers.checks."):
        raise wire.NotData(f"no instrument {factory!r}")
    __import__(module_name)
    return getattr(sys.modules[module_name], attr)(state)


STARTUP = """\
# helpers.grade: the kernel's side of the bridge (helpers/grade/kernel.py). The notebook sits in
# exercises/ of a pristine copy of the course made for it alone: import helpers from there.
def __grade_setup():
    import os
    import sys

    sys.path.insert(0, os.path.dirname(os.getcwd()))
    from helpers.grade.kernel import make_server

    return make_server(get_ipython().user_ns)


__grade_bridge__ = __grade_setup()
del __grade_setup
# exit() and quit() would end the kernel a moment later, in the middle of a later cell
get_ipython().ask_exit = lambda: print("helpers.grade: exit() ignored while grading")
"""


def make_server(namespace, ask=None):
    """serve(), bound to the notebook's namespace (get_ipython().user_ns).

    ask(prompt) -> reply: how to reach the grader; default builtins.input, which the kernel
    sends to the grader as an input_request."""
    ask_input = None

    def talk(message):
        """Send one message (each field encoded), return the grader's reply's value."""
        text = json.dumps({k: encode(v) for k, v in message.items()}, separators=(",", ":"))
        reply = {k: decode(v) for k, v in json.loads(ask_input(PREFIX + text)).items()}
        if "error" in reply:
            kind, said = reply["error"]
            error = getattr(builtins, str(kind), None)
            if not (isinstance(error, type) and issubclass(error, Exception)):
                error = RuntimeError
            raise error(said)
        return reply.get("value")

    handles: dict[int, GraderObject] = {}
    instruments: list = []

    def resolve(number):
        if number not in handles:
            handles[number] = GraderObject(talk, number)
        return handles[number]

    encoder = wire.Encoder()
    decoder = wire.Decoder(resolve)

    def encode(value):
        return encoder(value)

    def decode(data):
        if isinstance(data, dict) and set(data) == {"instrument"}:
            factory, state = data["instrument"]
            instruments.append(_instrument(str(factory), decode(state)))
            return instruments[-1]
        if isinstance(data, dict) and len(data) == 1 and "tuple" in data:
            return tuple(decode(v) for v in data["tuple"])
        if isinstance(data, dict) and len(data) == 1 and "dict" in data:
            return {wire._key(decode(k)): decode(v) for k, v in data["dict"]}
        if isinstance(data, list):
            return [decode(v) for v in data]
        return decoder(data)

    def run(request):
        op = request.get("op")
        if op == "describe":
            name = request["name"]
            if name not in namespace:
                return {"exists": False}
            value = namespace[name]
            return {"exists": True, "callable": callable(value), "type": type(value).__name__,
                    "value": None if callable(value) else value}
        if op == "globals":
            out = {}
            for name in request["names"]:
                value = namespace.get(name)
                if isinstance(value, (int, float, np.integer, np.floating)):
                    out[name] = value
            return {"values": out}
        if op != "call":
            raise wire.NotData(f"unknown request {op!r}")
        fn = namespace[request["name"]]
        args, kwargs = request["args"], request["kwargs"]
        watched = [(path, value, None if _is_generator(value) else copy.deepcopy(value))
                   for path, value in _arrays(args, kwargs)]
        set_rng_states(request.get("rng", {}))
        try:
            result = fn(*args, **kwargs)
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # noqa: BLE001 - the student's error goes to the grader
            outcome = {"raised": _error_data(error)}
        else:
            outcome = {"result": result}
        changed = []
        for path, value, before in watched:
            if before is None:
                changed.append([list(path), value])  # a generator: its state after the call
            elif not _same(value, before):
                changed.append([list(path), value])
        outcome["changed"] = changed
        outcome["rng"] = rng_states()
        outcome["reports"] = [getattr(i, "__wire_report__", lambda: None)() for i in instruments]
        return outcome

    def serve():
        nonlocal ask_input
        ask_input = ask or builtins.input  # the kernel's, for this request (stdin allowed)
        handles.clear()
        instruments.clear()
        try:
            text = ask_input(PREFIX + '{"op":"ready"}')
            request = {k: decode(v) for k, v in json.loads(text).items()}
            outcome = run(request)
            try:
                message = {"op": "done", **outcome}
                talk(message)
            except wire.NotData as error:
                outcome.pop("result", None)
                outcome["unreadable"] = str(error)
                talk({"op": "done", **outcome})
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # noqa: BLE001 - the bridge's own failure, reported
            talk({"op": "done", "bridge_error": f"{type(error).__name__}: {error}"})

    return serve
