"""The data the grader and the student's kernel exchange: JSON, and nothing that runs on load.

Both sides of helpers.grade.bridge encode with `dumps` and decode with `loads`. What travels:

    None, bool, int, float (NaN, ±inf too), complex, str
    tuple, list, dict                              any nesting
    np.ndarray, NumPy scalars, np.dtype            numeric and bool dtypes; bytes base64
    torch.Tensor (and Parameter), torch.dtype, torch.Size, torch.device
    np.random.Generator, torch.Generator           by state; the caller's is updated after
    library functions (torch.relu, np.exp, ...)    by name, looked up under numpy/torch/math
    handles                                        {"handle": n}: an object that stays on its
                                                   side; the other side calls it through the
                                                   bridge (a check's layer, its RNG recorder)

Decoding builds arrays from bytes with np.frombuffer and looks up library functions by their
dotted name under the allowed roots: no pickle, no eval, no import of anything else. An object
that is none of these is sent as "opaque" (its type name and a short repr), which the other
side cannot call or compute with.
"""

from __future__ import annotations

import base64
import builtins
import importlib
import json
import math
import sys

import numpy as np

LIBRARY_ROOTS = ("numpy", "torch", "math", "builtins")  # where library functions may be found
_NUMERIC_KINDS = "biufc?"  # bool, ints, unsigned, floats, complex


class NotData(TypeError):
    """A value that cannot travel: say what was expected."""


class Opaque:
    """Stands for an object of the other side that is not data (its type name and repr)."""

    def __init__(self, type_name: str, text: str):
        self.type_name, self.text = type_name, text

    def __repr__(self):
        return f"<{self.type_name} object the grader cannot read: {self.text}>"


_opaque_classes: dict[str, type] = {}


def _torch():
    return sys.modules.get("torch")  # only when this side has torch loaded already


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _array_bytes(a: np.ndarray) -> dict:
    if a.dtype.kind not in _NUMERIC_KINDS or a.dtype.fields is not None:
        raise NotData(f"an array of dtype {a.dtype} (only numbers and bools travel)")
    raw = np.ascontiguousarray(a).tobytes()  # (ascontiguousarray makes a 0-d array 1-d)
    return {"dtype": a.dtype.str, "shape": list(a.shape), "data": _b64(raw)}


def _library_name(obj) -> str | None:
    """'torch.nn.functional.relu' when obj is that library function, found again by name."""
    module = getattr(obj, "__module__", None)
    names = [getattr(obj, "__qualname__", None), getattr(obj, "__name__", None)]
    if isinstance(obj, np.ufunc):
        module, names = "numpy", [obj.__name__]
    if not isinstance(module, str) or module.split(".")[0] not in LIBRARY_ROOTS:
        return None
    candidates = [module]
    if module.startswith("torch"):  # torch.relu's qualname is _VariableFunctionsClass.relu
        candidates += ["torch", "torch.nn.functional"]
    for candidate in candidates:
        for name in names:
            if not isinstance(name, str) or "<" in name:
                continue
            try:
                found = _lookup(f"{candidate}.{name}")
            except LookupError:
                continue
            if found is obj:
                return f"{candidate}.{name}"
    return None


def _lookup(dotted: str):
    parts = dotted.split(".")
    if parts[0] not in LIBRARY_ROOTS:
        raise LookupError(dotted)
    for cut in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:cut])
        if module_name not in sys.modules and parts[0] != "torch" and parts[0] != "numpy":
            continue
        try:
            obj = importlib.import_module(module_name)
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            continue
        return obj
    if len(parts) == 2 and parts[0] == "builtins":
        return getattr(builtins, parts[1])
    raise LookupError(dotted)


class Encoder:
    """Turns a value into JSON-able data; objects that are not data become handles or opaque.

    handle(obj) -> int registers an object that stays on this side (None: send it as opaque).
    """

    def __init__(self, handle=None):
        self.handle = handle

    def __call__(self, value, depth: int = 0):
        if depth > 50:
            raise NotData("a value nested more than 50 levels deep")
        torch = _torch()
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int) and type(value) is int:
            return value
        if isinstance(value, float) and type(value) is float:
            return value if math.isfinite(value) else {"float": repr(value)}
        if isinstance(value, complex):
            return {"complex": [self(value.real), self(value.imag)]}
        if isinstance(value, np.ndarray):  # a subclass travels as its plain array
            return {"ndarray": _array_bytes(value.view(np.ndarray))}
        if isinstance(value, np.generic):
            return {"npscalar": _array_bytes(np.asarray(value))}
        if isinstance(value, np.dtype):
            return {"npdtype": value.str}
        if torch is not None:
            if isinstance(value, torch.Tensor):
                return self._tensor(value, torch)
            if isinstance(value, torch.dtype):
                return {"torchdtype": str(value).removeprefix("torch.")}
            if isinstance(value, torch.Size):
                return {"torchsize": list(value)}
            if isinstance(value, torch.device):
                return {"torchdevice": str(value)}
            if type(value) is torch.Generator:
                return {"torchgen": self._tensor(value.get_state(), torch)}
        if type(value) is np.random.Generator:
            bit = value.bit_generator
            return {"npgen": {"bit": type(bit).__name__, "state": self(bit.state, depth + 1)}}
        if isinstance(value, tuple) and not hasattr(value, "_fields"):
            return {"tuple": [self(v, depth + 1) for v in value]}
        if isinstance(value, list):
            return [self(v, depth + 1) for v in value]
        if isinstance(value, dict):
            return {"dict": [[self(k, depth + 1), self(v, depth + 1)] for k, v in value.items()]}
        if isinstance(value, range):
            return {"range": [value.start, value.stop, value.step]}
        if isinstance(value, slice):
            return {"slice": [self(value.start), self(value.stop), self(value.step)]}
        if callable(value) and not isinstance(value, type):
            name = _library_name(value)
            if name is not None:
                return {"library": name}
        if self.handle is not None:
            number = self.handle(value)
            if number is not None:
                return {"handle": number}
        return {"opaque": [type(value).__qualname__, _short_repr(value)]}

    def _tensor(self, t, torch):
        requires_grad = bool(t.requires_grad)
        t = t.detach()
        if t.is_complex() or t.dtype in (torch.bfloat16,):
            data = t.to(torch.complex128 if t.is_complex() else torch.float32)
        else:
            data = t
        if t.layout != torch.strided:
            data = data.to_dense()
        out = _array_bytes(data.cpu().contiguous().numpy())
        out["torch_dtype"] = str(t.dtype).removeprefix("torch.")
        out["requires_grad"] = requires_grad
        return {"tensor": out}


def _short_repr(value) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr that raises is still an opaque object
        text = "?"
    return text if len(text) <= 120 else text[:119] + "…"


class Decoder:
    """Turns data back into values; handles become what resolve(number) returns."""

    def __init__(self, resolve=None):
        self.resolve = resolve

    def __call__(self, data):
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        if isinstance(data, list):
            return [self(v) for v in data]
        if not isinstance(data, dict) or len(data) != 1:
            raise NotData(f"unexpected data {str(data)[:80]}")
        (tag, body), = data.items()
        if tag == "float":
            return float(body)  # 'nan', 'inf', '-inf'
        if tag == "complex":
            return complex(self(body[0]), self(body[1]))
        if tag == "ndarray":
            return _array(body)
        if tag == "npscalar":
            return _array(body)[()]
        if tag == "npdtype":
            return _dtype(body)
        if tag == "tuple":
            return tuple(self(v) for v in body)
        if tag == "dict":
            return {_key(self(k)): self(v) for k, v in body}
        if tag == "range":
            return range(*map(int, body))
        if tag == "slice":
            return slice(*(self(v) for v in body))
        if tag == "npgen":
            bit = getattr(np.random, str(body["bit"]), None)
            if not (isinstance(bit, type) and issubclass(bit, np.random.BitGenerator)):
                raise NotData(f"unknown bit generator {body['bit']!r}")
            generator = bit()
            generator.state = self(body["state"])
            return np.random.Generator(generator)
        if tag == "opaque":  # of a class named as the other side's, so messages name it
            name = str(body[0]).rsplit(".", 1)[-1][:100] or "object"
            cls = _opaque_classes.setdefault(name, type(name, (Opaque,), {}))
            return cls(str(body[0]), str(body[1]))
        if tag == "library":
            return _lookup(str(body))
        if tag == "handle":
            if self.resolve is None:
                raise NotData("a handle where none was expected")
            return self.resolve(int(body))
        if tag in ("tensor", "torchdtype", "torchsize", "torchdevice", "torchgen"):
            return self._torch(tag, body)
        raise NotData(f"unknown tag {tag!r}")

    def _torch(self, tag, body):
        import torch  # a tensor came, so the sender had torch: so does the course's environment

        if tag == "torchdtype":
            return _torch_dtype(torch, body)
        if tag == "torchsize":
            return torch.Size(int(v) for v in body)
        if tag == "torchdevice":
            return torch.device(str(body))
        if tag == "torchgen":
            generator = torch.Generator()
            generator.set_state(self(body))
            return generator
        array = _array(body)
        t = torch.from_numpy(array.copy()) if array.ndim else torch.tensor(array[()])
        t = t.to(_torch_dtype(torch, body["torch_dtype"]))
        if body.get("requires_grad") and (t.is_floating_point() or t.is_complex()):
            t.requires_grad_(True)
        return t


def _key(k):
    return k if not isinstance(k, list) else tuple(k)


def _dtype(text) -> np.dtype:
    dtype = np.dtype(str(text))
    if dtype.kind not in _NUMERIC_KINDS or dtype.fields is not None:
        raise NotData(f"dtype {dtype} does not travel")
    return dtype


def _array(body) -> np.ndarray:
    dtype = _dtype(body["dtype"])
    shape = tuple(int(n) for n in body["shape"])
    raw = base64.b64decode(body["data"])
    if len(raw) != dtype.itemsize * math.prod(shape):
        raise NotData("an array whose bytes do not match its shape")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def _torch_dtype(torch, name):
    dtype = getattr(torch, str(name), None)
    if not isinstance(dtype, torch.dtype):
        raise NotData(f"unknown torch dtype {name!r}")
    return dtype


def dumps(value, handle=None) -> str:
    return json.dumps(Encoder(handle)(value), separators=(",", ":"))


def loads(text: str, resolve=None):
    return Decoder(resolve)(json.loads(text))
