"""Trained weights the course ships, so that no lesson trains (or downloads) a model.

`load("charlm")` returns lesson 08's character model trained longer, with its tokenizer:
TinyGPT(vocab, d_model=64, n_heads=4, n_layers=2, d_ff=256, max_len=128) on the first 90% of
data/alice.txt, the split lesson 08 uses (`corpus_split`).

Each model is one file, data/weights/<name>.pt: a dict holding the constructor config, the
tokenizer's characters, the state_dict and how it was trained. Its SHA-256 is recorded in
data/weights/SHA256SUMS (the format `sha256sum -c` reads), and `load` checks it before
unpickling anything, so a truncated, corrupted or hand-edited file is refused with the
command that rebuilds it: `python -m helpers.grade.train NAME` (see helpers/train.py).
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import torch

from helpers.induction import AttentionOnly
from helpers.model import DATA_DIR, CharTokenizer, TinyGPT, load_corpus

WEIGHTS_DIR = DATA_DIR / "weights"
SUMS = "SHA256SUMS"
TRAIN_FRACTION = 0.9  # lesson 08's split: train on the first 90%, hold out the rest
MODELS = {"TinyGPT": TinyGPT, "AttentionOnly": AttentionOnly}  # a file's "model" -> its class


class WeightsError(ValueError):
    """A shipped weights file is missing, is not the one recorded in SHA256SUMS, or unknown."""


def _rebuild(name: str) -> str:
    return f"run python -m helpers.grade.train {name} to rebuild it"


def path(name: str, weights_dir=None) -> Path:
    """Where the weights of `name` live: <weights_dir>/<name>.pt (data/weights by default)."""
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name[0] == ".":
        raise ValueError(f"name must be a plain model name such as 'charlm'; got {name!r}")
    return Path(WEIGHTS_DIR if weights_dir is None else weights_dir) / f"{name}.pt"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_sums(weights_dir=None) -> dict[str, str]:
    """SHA256SUMS of weights_dir as {file name: hex digest}; empty if there is none."""
    sums = Path(WEIGHTS_DIR if weights_dir is None else weights_dir) / SUMS
    if not sums.is_file():
        return {}
    entries = {}
    for line in sums.read_text(encoding="ascii").splitlines():
        if line.strip():
            digest, file = line.split(maxsplit=1)
            entries[file.lstrip("*")] = digest.lower()
    return entries


def write_sums(entries: dict[str, str], weights_dir=None) -> Path:
    """Write {file name: hex digest} as SHA256SUMS in weights_dir, sorted by file name."""
    sums = Path(WEIGHTS_DIR if weights_dir is None else weights_dir) / SUMS
    sums.write_text("".join(f"{entries[f]}  {f}\n" for f in sorted(entries)), encoding="ascii")
    return sums


def verified_bytes(name: str, weights_dir=None) -> bytes:
    """The bytes of <name>.pt after checking them against SHA256SUMS; WeightsError if not."""
    file = path(name, weights_dir)
    expected = read_sums(weights_dir).get(file.name)
    if expected is None:
        raise WeightsError(
            f"{file.name} has no entry in {file.parent / SUMS}, so its weights cannot be "
            f"checked; {_rebuild(name)}"
        )
    if not file.is_file():
        raise WeightsError(
            f"weights file {file} is missing (expected SHA-256 {expected}, actual: no file); "
            f"{_rebuild(name)}"
        )
    data = file.read_bytes()
    actual = sha256(data)
    if actual != expected:
        raise WeightsError(
            f"weights file {file} is corrupted or not the shipped one: expected SHA-256 "
            f"{expected}, actual {actual}; {_rebuild(name)}"
        )
    return data


def load_saved(name: str, weights_dir=None) -> dict:
    """The verified contents of <name>.pt: config, chars, state_dict, training record."""
    data = verified_bytes(name, weights_dir)
    return torch.load(io.BytesIO(data), weights_only=True)  # only after the hash matched


def load(name: str, weights_dir=None):
    """The trained model `name` in eval mode; with its tokenizer, (model, tokenizer), when it
    has one (charlm does). weights_dir: where to look instead of data/weights."""
    saved = load_saved(name, weights_dir)
    if saved.get("model") not in MODELS:
        raise WeightsError(
            f"{path(name, weights_dir)} holds a model of kind {saved.get('model')!r}; "
            f"known kinds are {sorted(MODELS)}; {_rebuild(name)}"
        )
    model = MODELS[saved["model"]](**saved["config"])
    model.load_state_dict(saved["state_dict"])
    model.eval()
    if "chars" not in saved:
        return model
    tokenizer = CharTokenizer("".join(saved["chars"]))
    return model, tokenizer


def corpus_split(text: str | None = None):
    """(tokenizer, train_ids, validation_ids): data/alice.txt split as lesson 08 splits it."""
    text = load_corpus() if text is None else text
    tokenizer = CharTokenizer(text)
    ids = tokenizer.encode(text)
    split = int(TRAIN_FRACTION * len(ids))
    return tokenizer, ids[:split], ids[split:]
