"""The grader's side of a check: the check runs here, the student's function in its kernel.

`run_check` executes a canonical check cell (`qkv.check_project_qkv(project_qkv)`) in the
grader's process, with the course's checks imported before any student code ran. Each name
the cell passes is a `Remote`: calling it sends the arguments to the student's kernel as data
(helpers.grade.wire), calls the student's function there (helpers.grade.kernel) and brings back
the result, the arguments it changed in place, the global RNG states and any error it raised,
all as data. Comparison, diagnosis and rules run here, where the student's code cannot reach.

What a check hands the student's function that is not data (a layer, a recording RNG) stays
here too: the kernel gets a handle, and every call on it comes back here to the real object.
A check's instrumented input (an array that records its reductions) is rebuilt in the kernel
from the course's checks and reports back what it saw.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import json
import sys
import time
from queue import Empty

import numpy as np

from helpers.grade import wire
from helpers.grade.kernel import PREFIX, rng_states, set_rng_states

POLL = 0.05  # seconds between two looks at the kernel while the student's function runs
GRACE = 5.0  # seconds the kernel has to answer an interrupt before it is stopped
MAX_TEXT = 20_000


class Lost(BaseException):  # noqa: N818 - not an error of the check: grading lost the kernel
    """The kernel stopped answering. A BaseException, so no check mistakes it for a result."""


class KernelDied(Lost):
    """The kernel process ended while the student's function ran."""


class TimedOut(Lost):
    """The student's function ran past the time limit."""

    def __init__(self, message: str, killed: bool):
        super().__init__(message)
        self.killed = killed


class BridgeFailed(BaseException):  # noqa: N818
    """The kernel's side of the bridge did not answer as it should (removed, replaced)."""


_error_classes: dict[tuple[str, str], type] = {}


def student_error(data: dict) -> BaseException:
    """The student's exception, rebuilt as data: its class name over the builtin it derives
    from (so `except RuntimeError` and type(e).__name__ both work), its arguments, and the
    kernel's traceback text."""
    name = str(data.get("type", "Exception"))
    base = next((getattr(builtins, b) for b in data.get("bases", [])
                 if isinstance(getattr(builtins, str(b), None), type)
                 and issubclass(getattr(builtins, str(b)), Exception)), Exception)
    if base.__name__ == name:
        cls = base
    else:
        cls = _error_classes.setdefault((name, base.__name__), type(name, (base,), {
            "__module__": "your notebook", "__grade_student__": True}))
    try:
        error = cls(*data.get("args", ()))
    except Exception:  # noqa: BLE001 - a class that wants other arguments: keep the message
        error = cls(str(data.get("message", "")))
    if str(error) != str(data.get("message", str(error))):
        error = cls(str(data.get("message", "")))
    error.__grade_student__ = True
    error.__grade_traceback__ = str(data.get("traceback", ""))
    return error


class _Encoder(wire.Encoder):
    """wire.Encoder that sends the checks' instruments by recipe and other objects as handles."""

    def __init__(self, handle, instruments: list):
        super().__init__(handle)
        self.instruments = instruments

    def __call__(self, value, depth: int = 0):
        recipe = getattr(value, "__wire_kernel__", None)
        if recipe is not None and not isinstance(value, type):
            factory, state = recipe()
            self.instruments.append(value)
            return {"instrument": [factory, super().__call__(state, depth + 1)]}
        return super().__call__(value, depth)


class Bridge:
    """Calls into one student kernel (nbval's RunningKernel) until `deadline`."""

    def __init__(self, kernel, deadline: float):
        self.kernel = kernel
        self.deadline = deadline
        self.objects: dict[int, object] = {}  # handles the kernel may call back
        self.callback_error: BaseException | None = None

    def _handle(self, obj) -> int:
        number = len(self.objects) + 1
        self.objects[number] = obj
        return number

    # ---- one exchange: execute `__grade_bridge__()` and answer its input() prompts

    def _exchange(self, request_text: str) -> dict:
        kc, km = self.kernel.kc, self.kernel.km
        msg_id = kc.execute("__grade_bridge__()", silent=True, store_history=False,
                            allow_stdin=True, stop_on_error=False)
        done, reply = None, None
        interrupted_at = None
        while True:
            try:
                if done is None:
                    msg = kc.get_stdin_msg(timeout=POLL)
                else:  # all that is left is the reply: wait for it on the shell channel
                    msg, reply = None, self._shell_reply(msg_id, POLL)
                    if reply is not None:
                        break
            except Empty:
                msg = None
            if msg is not None and msg["parent_header"].get("msg_id") == msg_id and \
                    msg["msg_type"] == "input_request":
                prompt = msg["content"].get("prompt", "")
                if not prompt.startswith(PREFIX):
                    kc.input("")  # the student's own input(): an empty line
                    continue
                answer, final = self.answer(prompt, request_text)
                kc.input(answer)
                done = final or done
                continue
            reply = self._shell_reply(msg_id)
            if reply is not None:
                break
            now = time.monotonic()
            if not km.is_alive():
                raise KernelDied("the kernel died while your function ran: the Python process "
                                 "ended (os._exit, a crash in compiled code, or out of memory)")
            if interrupted_at is None and now > self.deadline:
                km.interrupt_kernel()
                interrupted_at = now
            elif interrupted_at is not None and now > interrupted_at + GRACE:
                _stop(self.kernel)
                raise TimedOut("your function ran longer than the time limit, and the kernel "
                               "did not stop when interrupted", killed=True)
        if interrupted_at is not None:
            raise TimedOut("your function ran longer than the time limit and was stopped",
                           killed=False)
        if done is None:
            content = reply.get("content", {})
            raise BridgeFailed(
                "the grader could not call your function in your notebook's kernel "
                f"({content.get('ename', 'no answer')}: {content.get('evalue', '')}); "
                "does your notebook remove or replace the grader's __grade_bridge__?")
        return _finished(done)

    def answer(self, prompt: str, request_text: str) -> tuple[str, dict | None]:
        """The reply to one prompt of the kernel's side; and its last message, once 'done'."""
        decode = wire.Decoder()
        data = {k: decode(v) for k, v in json.loads(prompt[len(PREFIX):]).items()}
        op = data.get("op")
        if op == "ready":
            return request_text, None
        if op == "callback":
            return self._callback(data), None
        if op == "done":
            return "{}", data
        raise BridgeFailed(f"the kernel's side of the bridge sent {op!r}")

    def _shell_reply(self, msg_id, timeout: float = 0):
        try:
            msg = self.kernel.kc.get_shell_msg(timeout=timeout)
        except Empty:
            return None
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg
        return None

    def _callback(self, data) -> str:
        try:
            obj = self.objects[int(data["handle"])]
            what = data["what"]
            if what == "call":
                value = obj(*data["args"], **data["kwargs"])
            elif what == "getattr":
                value = getattr(obj, str(data["name"]))
            elif what == "list":
                value = list(obj)
            elif what == "len":
                value = len(obj)
            elif what == "getitem":
                value = obj[data["key"]]
            else:
                raise TypeError(f"unknown use {what!r}")
            return json.dumps({"value": _Encoder(self._handle, [])(value)})
        except Exception as error:  # noqa: BLE001 - goes back to the student's code, as data
            if isinstance(error, AssertionError):  # a check's own verdict, from its layer
                self.callback_error = self.callback_error or error
            kind = type(error).__name__ if getattr(builtins, type(error).__name__, None) is \
                type(error) else "RuntimeError"
            return json.dumps({"error": [kind, str(error)]})

    # ---- what checks use

    def describe(self, name: str) -> dict:
        return self._exchange(json.dumps({"op": "describe", "name": name}))

    def global_values(self, names) -> dict:
        done = self._exchange(json.dumps({"op": "globals", "names": sorted(names)}))
        return done.get("values", {})

    def call(self, name: str, args: tuple, kwargs: dict):
        instruments: list = []
        encode = _Encoder(self._handle, instruments)
        self.callback_error = None
        rng = rng_states()  # the student's function sees the grader's global RNG, and moves it
        request = {"op": "call", "name": name, "args": encode(tuple(args)),
                   "kwargs": encode(dict(kwargs)), "rng": encode(rng)}
        done = self._exchange(json.dumps(request, separators=(",", ":")))
        set_rng_states(done.get("rng", {}))
        for path, value in done.get("changed", []):
            _mirror(args, kwargs, path, value)
        for instrument, report in zip(instruments, done.get("reports", []), strict=False):
            instrument.__wire_update__(report)
        if "raised" in done:
            if self.callback_error is not None:
                raise self.callback_error
            raise student_error(done["raised"])
        if "unreadable" in done:
            return wire.Opaque("result", str(done["unreadable"]))
        return done.get("result")


def _finished(done: dict) -> dict:
    if "bridge_error" in done:
        raise BridgeFailed(f"the grader could not call your function: {done['bridge_error']}")
    return done


class InProcessBridge(Bridge):
    """A Bridge whose kernel side runs in this process, on `namespace`, for tests: every
    message still travels as text through helpers.grade.wire, and nothing else is shared."""

    def __init__(self, namespace: dict):
        super().__init__(kernel=None, deadline=float("inf"))
        from helpers.grade.kernel import make_server

        self._serve = make_server(namespace, ask=self._ask)
        self._request, self._done = "", None

    def _ask(self, prompt: str) -> str:
        answer, final = self.answer(prompt, self._request)
        self._done = final or self._done
        return answer

    def _exchange(self, request_text: str) -> dict:
        self._request, self._done = request_text, None
        self._serve()
        if self._done is None:
            raise BridgeFailed("the kernel's side of the bridge ended without an answer")
        return _finished(self._done)


def _stop(kernel) -> None:
    try:
        kernel.stop()
    except Exception:  # noqa: BLE001 - the process is gone already
        kernel.__dict__.pop("km", None)


def _mirror(args, kwargs, path, value) -> None:
    """Put what the student's function did to an argument in place onto the grader's copy."""
    where, key, *inner = path
    target = args[int(key)] if where == "a" else kwargs[key]
    for index in inner:
        target = target[int(index)]
    torch = sys.modules.get("torch")
    if isinstance(target, np.random.Generator):
        target.bit_generator.state = value.bit_generator.state
    elif torch is not None and isinstance(target, torch.Generator):
        target.set_state(value.get_state())
    elif isinstance(target, np.ndarray) and target.shape == np.shape(value):
        np.copyto(target, np.asarray(value), casting="unsafe")
    elif torch is not None and isinstance(target, torch.Tensor):
        with torch.no_grad():
            if target.shape == value.shape:
                target.copy_(value)
            else:
                target.data = value.to(target.dtype)


class Remote:
    """Stands for the student's function in the grader: calling it calls it in the kernel.

    `__grade_cells__` is the source of every student cell that ran before the check, read by
    the grader from the notebook file: the rules ("don't call X") are judged from it.
    """

    def __init__(self, bridge: Bridge, name: str, cells: list[str]):
        self._bridge = bridge
        self.__name__ = self.__qualname__ = name
        self.__grade_cells__ = cells
        self.__signature__ = _signature(cells, name)

    def __call__(self, *args, **kwargs):
        return self._bridge.call(self.__name__, args, kwargs)

    def __grade_globals__(self, names) -> dict:
        return self._bridge.global_values(names)

    def __repr__(self):
        return f"<your function {self.__name__}, run in your notebook's kernel>"


def _signature(cells, name):
    try:
        from helpers.checks import source
    except ImportError:
        return None
    try:
        return source.signature(cells, name)
    except Exception:  # noqa: BLE001 - no signature: checks name arguments by position
        return None


def free_names(check_source: str) -> list[str]:
    """The names a check cell reads that it does not bind: the student's, in order."""
    tree = ast.parse(check_source)
    bound, read = set(), []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id not in bound and node.id not in read and not hasattr(builtins, node.id):
            read.append(node.id)
    return read


def run_check(bridge: Bridge, check_source: str, cells: list[str]) -> dict:
    """Run one canonical check cell here, calling the student's functions through bridge;
    what happened, as the grader's record fields (ename, evalue, stdout, died, timeout...)."""
    namespace = {"__name__": "__grade_check__", "__builtins__": builtins}
    out = io.StringIO()
    record: dict = {}
    try:
        for name in free_names(check_source):
            described = bridge.describe(name)
            if not described.get("exists"):
                continue  # the check raises NameError, as it would in the notebook
            if described.get("callable"):
                namespace[name] = Remote(bridge, name, cells)
            else:
                namespace[name] = described.get("value")
        with contextlib.redirect_stdout(out):
            exec(compile(check_source, "<check>", "exec"), namespace)  # noqa: S102
    except KernelDied as error:
        record.update(died=True, message=str(error))
    except TimedOut as error:
        record.update(timeout=True, killed=error.killed, message=str(error))
    except BridgeFailed as error:
        record.update(ename="BridgeFailed", evalue=str(error)[:MAX_TEXT])
    except BaseException as error:  # noqa: BLE001 - the check's verdict, or the student's error
        record.update(ename=type(error).__name__, evalue=str(error)[:MAX_TEXT])
        if isinstance(getattr(error, "diagnosis", None), str):  # a CheckFailed's stable id
            record["diagnosis"] = error.diagnosis
    record["stdout"] = out.getvalue()[:MAX_TEXT]
    return record
