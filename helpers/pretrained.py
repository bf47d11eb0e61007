"""Trained weights the course ships, so that no lesson trains (or downloads) a model.

`load("charlm")` returns lesson 08's character model trained longer, with its tokenizer:
TinyGPT(vocab, d_model=64, n_heads=4, n_layers=2, d_ff=256, max_len=128) on the first 90% of
data/alice.txt, the split lesson 08 uses (`corpus_split`). `load("induction")` and
`load("textlm")` return lesson 11's attention-only models (helpers.induction.AttentionOnly),
trained on repeated random spans and on the same text; `load_history(name)` reads what their
training measured while it ran, checked like the weights.

Each model is one file, data/weights/<name>.pt: a dict holding the constructor config, the
tokenizer's characters, the state_dict and how it was trained. The shipped file's SHA-256 is
recorded in data/weights/SHA256SUMS (the format `sha256sum -c` reads), and `load` checks it
before unpickling anything, so a truncated, corrupted or hand-edited file is refused with the
command that rebuilds it: `python -m helpers.grade.train NAME` (helpers/grade/train.py).

A rebuild is the learner's own model. Training is chaotic: another CPU, vector width or thread
count rounds differently, and the rebuilt file has other bytes and other measurements (the same
machine gives the same bytes). The command records its checksum in SHA256SUMS.rebuilt beside
the file, so `load` accepts it too, and `origin(name)` says which one a lesson reads.
Lessons state the shipped model's numbers; `Claims` asserts them for the shipped file and, for
a rebuild, prints the rebuilt model's measurement beside the shipped one instead.

The folder is data/weights, or the one the environment variable COURSE_WEIGHTS_DIR names.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path

import torch

from helpers.induction import AttentionOnly
from helpers.model import DATA_DIR, CharTokenizer, TinyGPT, load_corpus

WEIGHTS_DIR = DATA_DIR / "weights"
SUMS = "SHA256SUMS"  # the shipped files' checksums
REBUILT = "SHA256SUMS.rebuilt"  # the checksums of the files a learner rebuilt here
WEIGHTS_ENV = "COURSE_WEIGHTS_DIR"  # another folder of weights, instead of data/weights
TRAIN_FRACTION = 0.9  # lesson 08's split: train on the first 90%, hold out the rest
MODELS = {"TinyGPT": TinyGPT, "AttentionOnly": AttentionOnly}  # a file's "model" -> its class


class WeightsError(ValueError):
    """A shipped weights file is missing, is not the one recorded in SHA256SUMS, or unknown."""


def _rebuild(name: str) -> str:
    return f"run python -m helpers.grade.train {name} to rebuild it"


def folder(weights_dir=None) -> Path:
    """weights_dir, else $COURSE_WEIGHTS_DIR, else data/weights."""
    if weights_dir is not None:
        return Path(weights_dir)
    return Path(os.environ.get(WEIGHTS_ENV) or WEIGHTS_DIR)


def path(name: str, weights_dir=None) -> Path:
    """Where the weights of `name` live: <weights_dir>/<name>.pt (data/weights by default)."""
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name[0] == ".":
        raise ValueError(f"name must be a plain model name such as 'charlm'; got {name!r}")
    return folder(weights_dir) / f"{name}.pt"


def history_path(name: str, weights_dir=None) -> Path:
    """<weights_dir>/<name>.history.json: what the train command measured while it trained."""
    return path(name, weights_dir).with_suffix(".history.json")


def load_history(name: str, weights_dir=None) -> dict:
    """The verified training record of <name>: every step's loss and, every few steps, the
    measures the train command's probe took (helpers/grade/train.py), checked against
    SHA256SUMS (or SHA256SUMS.rebuilt) like the weights."""
    data, _ = _verified_file(history_path(name, weights_dir), name, weights_dir)
    return json.loads(data)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_sums(weights_dir=None, sums_file: str = SUMS) -> dict[str, str]:
    """SHA256SUMS (or sums_file) of weights_dir as {file name: hex digest}; {} if none."""
    sums = folder(weights_dir) / sums_file
    if not sums.is_file():
        return {}
    entries = {}
    for line in sums.read_text(encoding="ascii").splitlines():
        if line.strip():
            digest, file = line.split(maxsplit=1)
            entries[file.lstrip("*")] = digest.lower()
    return entries


def write_sums(entries: dict[str, str], weights_dir=None, sums_file: str = SUMS) -> Path:
    """Write {file name: hex digest} as SHA256SUMS (or sums_file) in weights_dir, sorted."""
    sums = folder(weights_dir) / sums_file
    sums.write_text("".join(f"{entries[f]}  {f}\n" for f in sorted(entries)), encoding="ascii")
    return sums


def verified_bytes(name: str, weights_dir=None) -> bytes:
    """The bytes of <name>.pt after checking them against SHA256SUMS (or the record of a
    rebuild made here, SHA256SUMS.rebuilt); WeightsError if they match neither."""
    return _verified(name, weights_dir)[0]


def origin(name: str, weights_dir=None) -> str:
    """"shipped" when <name>.pt is the file the course ships, "rebuilt" when it is one the
    train command made here; WeightsError when it is neither."""
    return _verified(name, weights_dir)[1]


def _verified(name: str, weights_dir=None) -> tuple[bytes, str]:
    return _verified_file(path(name, weights_dir), name, weights_dir)


def _verified_file(file: Path, name: str, weights_dir=None) -> tuple[bytes, str]:
    expected = read_sums(weights_dir).get(file.name)
    rebuilt = read_sums(weights_dir, REBUILT).get(file.name)
    if expected is None and rebuilt is None:
        raise WeightsError(
            f"{file.name} has no entry in {file.parent / SUMS}, so its weights cannot be "
            f"checked; {_rebuild(name)}"
        )
    if not file.is_file():
        raise WeightsError(
            f"weights file {file} is missing (expected SHA-256 {expected or rebuilt}, actual: "
            f"no file); {_rebuild(name)}"
        )
    data = file.read_bytes()
    actual = sha256(data)
    if actual == expected:
        return data, "shipped"
    if actual == rebuilt:
        return data, "rebuilt"
    raise WeightsError(
        f"weights file {file} is corrupted or not the shipped one: expected SHA-256 "
        f"{expected or rebuilt}, actual {actual}; {_rebuild(name)}"
    )


def load_saved(name: str, weights_dir=None) -> dict:
    """The verified contents of <name>.pt: config, chars, state_dict, training record."""
    data = verified_bytes(name, weights_dir)
    return torch.load(io.BytesIO(data), weights_only=True)  # only after the hash matched


def load(name: str, weights_dir=None):
    """The trained model `name` in eval mode; with its tokenizer, (model, tokenizer), when it
    has one (charlm does). weights_dir: where to look instead of data/weights.
    model.weights_origin is "shipped" or "rebuilt" (see `origin`)."""
    data, where = _verified(name, weights_dir)
    saved = torch.load(io.BytesIO(data), weights_only=True)  # only after the hash matched
    if saved.get("model") not in MODELS:
        raise WeightsError(
            f"{path(name, weights_dir)} holds a model of kind {saved.get('model')!r}; "
            f"known kinds are {sorted(MODELS)}; {_rebuild(name)}"
        )
    model = MODELS[saved["model"]](**saved["config"])
    model.load_state_dict(saved["state_dict"])
    model.eval()
    model.weights_origin = where
    if "chars" not in saved:
        return model
    tokenizer = CharTokenizer("".join(saved["chars"]))
    return model, tokenizer


class Claims:
    """What a lesson states about a shipped model: asserted when the lesson reads the shipped
    file (the text's numbers are its numbers); when it reads a learner's rebuild, each claim
    prints the rebuilt model's own value beside the shipped one and asserts nothing.

        claims = Claims("induction")
        claims.equal("induction score of layer 1's head 1", score, 0.72, digits=2)
        claims.true("zeroing the sink head changes the loss by less than 0.01", gap < 0.01)
    """

    def __init__(self, name: str, weights_dir=None):
        self.name = name
        self.shipped = origin(name, weights_dir) == "shipped"

    def equal(self, what: str, value, stated, digits: int | None = None) -> None:
        """Assert round(value, digits) == stated for the shipped model; for a rebuild, print
        the rebuilt model's value beside it."""
        got = _rounded(value, digits)
        if self.shipped:
            assert got == stated, f"{what}: {got!r}, but the text states {stated!r}"
        else:
            print(f"[your rebuilt {self.name}] {what}: {got} (the shipped model: {stated})")

    def true(self, what: str, condition) -> None:
        """Assert condition for the shipped model; for a rebuild, say whether it holds."""
        if self.shipped:
            assert condition, f"not so: {what}"
        else:
            print(f"[your rebuilt {self.name}] {what}: "
                  + ("holds, as for the shipped model" if condition else
                     "does NOT hold (it does for the shipped model)"))


def _rounded(value, digits):
    if isinstance(value, (list, tuple)):
        return type(value)(_rounded(v, digits) for v in value)
    if hasattr(value, "item") and getattr(value, "ndim", 0) == 0:
        value = value.item()
    return round(float(value), digits) if digits is not None else value


def corpus_split(text: str | None = None):
    """(tokenizer, train_ids, validation_ids): data/alice.txt split as lesson 08 splits it."""
    text = load_corpus() if text is None else text
    tokenizer = CharTokenizer(text)
    ids = tokenizer.encode(text)
    split = int(TRAIN_FRACTION * len(ids))
    return tokenizer, ids[:split], ids[split:]
