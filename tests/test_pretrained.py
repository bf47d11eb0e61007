"""helpers.pretrained and helpers.grade.train: the shipped weights, their checksum, the command."""

import hashlib
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from helpers import pretrained
from helpers.grade.train import TARGETS, build, window_loss
from helpers.masks import sink_window_mask, sliding_window_mask
from helpers.model import CharTokenizer, TinyGPT, load_corpus

ROOT = Path(__file__).resolve().parent.parent
LESSON_08_VALIDATION = 1.83  # lesson 08's one-layer, 32-character model, 500 steps
REBUILD = "run python -m helpers.grade.train charlm to rebuild it"


def _copy_shipped(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(pretrained.path("charlm"), folder)
    shutil.copy(pretrained.WEIGHTS_DIR / pretrained.SUMS, folder)
    return folder / "charlm.pt"


def test_shipped_files_match_their_checksums():
    """Every target's weights, and the training history of every target with a probe (the
    same run's), are listed in SHA256SUMS and match it."""
    sums = (pretrained.WEIGHTS_DIR / "SHA256SUMS").read_text().splitlines()
    entries = dict(reversed(line.split("  ")) for line in sums)  # sha256sum's format
    histories = {pretrained.history_path(name).name for name, target in TARGETS.items()
                 if target.probe is not None}
    assert set(entries) == {f"{name}.pt" for name in TARGETS} | histories
    assert {"charlm.pt", "induction.pt", "induction.history.json"} <= set(entries)
    for file, digest in entries.items():
        data = (pretrained.WEIGHTS_DIR / file).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest, file


def test_shipped_charlm_loads_and_beats_lesson_08():
    model, tokenizer = pretrained.load("charlm")
    assert isinstance(model, TinyGPT) and not model.training
    assert isinstance(tokenizer, CharTokenizer)
    assert tokenizer.chars == CharTokenizer(load_corpus()).chars
    assert model.max_len == 128 and len(model.blocks) == 2
    assert model.tok.weight.shape == (tokenizer.vocab_size, 64)
    saved = pretrained.load_saved("charlm")
    assert saved["training"]["steps"] == TARGETS["charlm"].steps
    _, train_ids, validation_ids = pretrained.corpus_split()
    assert len(train_ids) == 29188 and len(validation_ids) == 3244  # lesson 08's split
    with torch.no_grad():
        loss = window_loss(model, validation_ids, 128)
    assert loss == pytest.approx(saved["training"]["validation_loss"], abs=1e-4)
    assert loss < LESSON_08_VALIDATION - 0.1
    with torch.no_grad():
        assert window_loss(model, validation_ids, 32) < LESSON_08_VALIDATION - 0.05


def test_corrupted_copy_is_refused_before_unpickling(tmp_path, monkeypatch):
    file = _copy_shipped(tmp_path)
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 0x01  # one flipped bit in the middle of the tensors
    file.write_bytes(bytes(data))
    expected = pretrained.read_sums(tmp_path)["charlm.pt"]
    actual = hashlib.sha256(bytes(data)).hexdigest()

    def no_unpickling(*args, **kwargs):
        raise AssertionError("torch.load was called on a file whose hash did not match")

    monkeypatch.setattr(pretrained.torch, "load", no_unpickling)
    with pytest.raises(pretrained.WeightsError) as caught:
        pretrained.load("charlm", weights_dir=tmp_path)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    for part in (str(file), expected, actual, REBUILD):
        assert part in message


def test_missing_file_and_missing_checksum_are_clear(tmp_path):
    file = _copy_shipped(tmp_path)
    file.unlink()
    expected = pretrained.read_sums(tmp_path)["charlm.pt"]
    with pytest.raises(ValueError, match="missing") as caught:
        pretrained.load("charlm", weights_dir=tmp_path)
    assert isinstance(caught.value, pretrained.WeightsError)
    for part in (str(file), expected, REBUILD):
        assert part in str(caught.value)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(pretrained.WeightsError, match="no entry in .*SHA256SUMS"):
        pretrained.load("charlm", weights_dir=empty)


def test_bad_names_are_refused():
    with pytest.raises(ValueError, match="plain model name"):
        pretrained.path("../charlm")


def test_train_command_is_deterministic_and_lowers_the_loss(tmp_path):
    """The command in a fresh process and `build` in this one give the same bytes."""
    outs = [tmp_path / "a", tmp_path / "b"]
    command = [sys.executable, "-m", "helpers.grade.train", "charlm", "--steps", "12",
               "--threads", "1", "--out", str(outs[0])]
    run = subprocess.Popen(command, cwd=ROOT, text=True, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    here = build("charlm", steps=12, out=outs[1], threads=1, progress=False)  # meanwhile
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 0, stderr
    assert "final train loss" in stdout and "validation loss" in stdout
    assert "12/12" in stderr  # the progress line
    first, second = (out / "charlm.pt" for out in outs)
    assert first.read_bytes() == second.read_bytes()  # same seed, same bytes
    rebuilt = [(out / pretrained.REBUILT).read_text() for out in outs]
    assert rebuilt[0] == rebuilt[1] and here["sha256"] in rebuilt[0]
    assert not (outs[0] / pretrained.SUMS).exists()  # a rebuild is not the shipped file
    assert "not the shipped file's bytes" in stdout and not here["same_as_shipped"]
    model, tokenizer = pretrained.load("charlm", weights_dir=outs[0])  # its checksum matches
    assert model.weights_origin == pretrained.origin("charlm", outs[0]) == "rebuilt"
    record = pretrained.load_saved("charlm", weights_dir=outs[0])["training"]
    assert record["steps"] == 12 and record["seed"] == 0
    uniform = math.log(tokenizer.vocab_size)
    assert abs(record["first_step_loss"] - uniform) < 0.05  # starts at the uniform guess
    assert record["validation_loss"] < uniform - 0.5  # and 12 steps take it well below
    assert record["last_20_steps_loss"] < record["first_step_loss"] - 0.5


def test_attn_mask_narrows_what_the_shipped_model_reads():
    model, _ = pretrained.load("charlm")
    _, _, validation_ids = pretrained.corpus_split()
    x = torch.tensor([validation_ids[:40]])
    with torch.no_grad():
        full, _ = model(x)
        same, _ = model(x, attn_mask=torch.as_tensor(sliding_window_mask(40, 40)))
        window, _ = model(x, attn_mask=torch.as_tensor(sliding_window_mask(40, 8)))
        sink, _ = model(x, attn_mask=sink_window_mask(40, 8, 1))  # NumPy masks work too
    torch.testing.assert_close(same, full)  # a window as long as the text changes nothing
    torch.testing.assert_close(window[:, :8], full[:, :8])  # the first 8 see all they saw
    assert not torch.allclose(window[:, 8:], full[:, 8:], atol=1e-4)  # later ones lose keys
    assert not torch.allclose(sink[:, 9:], window[:, 9:], atol=1e-4)  # key 0 is read again
    with pytest.raises(ValueError, match="attn_mask must be boolean"):
        model(x, attn_mask=torch.ones(40, 40))


def test_shipped_induction_model_has_its_circuit():
    from helpers import induction

    model = pretrained.load("induction")
    assert isinstance(model, induction.AttentionOnly) and not model.training
    rows = induction.repeated_span_batch(128, 16, 64, torch.Generator().manual_seed(1),
                                         prefix=1, bos=63)
    scores = induction.head_scores(model, rows, 16, prefix=1)
    assert scores["previous_token"][0].max() > 0.8        # layer 0: a previous-token head
    assert scores["induction"][1].max() > 0.6             # layer 1: an induction head
    assert scores["first_token"][0].max() > 0.95          # layer 0: a sink on BOS
    first, second = induction.copy_losses(model, rows, 16, prefix=1)
    assert first - second > 3.5                           # in-context learning, in nats
    record = pretrained.load_saved("induction")["training"]
    assert record["steps"] == TARGETS["induction"].steps and record["seed"] == 0


def test_a_rebuild_beside_the_shipped_files_is_loaded_as_a_rebuild(tmp_path, monkeypatch, capsys):
    """The learner's path: the command writes over data/weights/NAME.pt (here a copy of the
    folder, named by COURSE_WEIGHTS_DIR); SHA256SUMS keeps the shipped checksums; the lessons'
    claims print the rebuilt model's values instead of failing. (induction: its evaluation is
    quick, charlm's reads the whole text.)"""
    shutil.copy(pretrained.path("induction"), tmp_path)
    shutil.copy(pretrained.WEIGHTS_DIR / pretrained.SUMS, tmp_path)
    shipped_sums = (tmp_path / pretrained.SUMS).read_text()
    monkeypatch.setenv(pretrained.WEIGHTS_ENV, str(tmp_path))
    assert pretrained.origin("induction") == "shipped"
    shipped = pretrained.Claims("induction")
    shipped.equal("a number", 0.123, 0.12, digits=2)  # the shipped model: asserted
    with pytest.raises(AssertionError, match="a number: 0.13, but the text states 0.12"):
        shipped.equal("a number", 0.128, 0.12, digits=2)
    with pytest.raises(AssertionError, match="not so: a claim"):
        shipped.true("a claim", False)

    result = build("induction", steps=3, threads=1, progress=False)  # into $COURSE_WEIGHTS_DIR
    assert result["file"] == str(tmp_path / "induction.pt") and not result["same_as_shipped"]
    assert (tmp_path / pretrained.SUMS).read_text() == shipped_sums
    assert pretrained.load("induction").weights_origin == "rebuilt"
    rebuilt = pretrained.Claims("induction")
    capsys.readouterr()
    rebuilt.equal("a number", 0.128, 0.12, digits=2)  # printed beside the shipped value
    rebuilt.true("a claim", False)
    out = capsys.readouterr().out
    assert "[your rebuilt induction] a number: 0.13 (the shipped model: 0.12)" in out
    assert "[your rebuilt induction] a claim: does NOT hold (it does for the shipped model)" in out


def test_ship_records_the_file_as_the_shipped_one(tmp_path):
    result = build("induction", steps=2, out=tmp_path, threads=1, progress=False, ship=True)
    assert pretrained.read_sums(tmp_path)["induction.pt"] == result["sha256"]
    assert pretrained.origin("induction", tmp_path) == "shipped"


def test_the_training_history_is_recorded_without_changing_the_weights(tmp_path):
    """The induction target's probe measures at step 0, every 25 steps and the last, on a batch
    of its own: the weights are byte for byte those of the same run without a probe, and the
    history is checksummed and verified like them."""
    with_probe = build("induction", steps=26, out=tmp_path / "a", threads=1, progress=False)
    target = TARGETS["induction"]
    plain, _ = target.build(0)
    target.fit(plain, 26, 0, 1, None)                      # the same run, nothing measured
    saved = pretrained.load_saved("induction", tmp_path / "a")["state_dict"]
    assert all(torch.equal(saved[k], v) for k, v in plain.state_dict().items())
    history = pretrained.load_history("induction", tmp_path / "a")
    assert history["measured_steps"] == [0, 25, 26] and len(history["train_loss"]) == 26
    assert np.shape(history["induction"]) == (3, 2, 2)
    assert history["train_loss"][0] == pytest.approx(with_probe["first_step_loss"], rel=1e-4)
    sums = pretrained.read_sums(tmp_path / "a", pretrained.REBUILT)
    assert set(sums) == {"induction.pt", "induction.history.json"}
    file = pretrained.history_path("induction", tmp_path / "a")
    file.write_text(json.dumps(dict(history, seed=1)))
    with pytest.raises(pretrained.WeightsError, match="not the shipped one"):
        pretrained.load_history("induction", tmp_path / "a")



def test_textlm_records_both_probes_and_loads_with_its_tokenizer(tmp_path):
    """The text model's probe measures every head on repeated random characters and on a
    repeated passage of the held-out text; the file loads as (model, tokenizer)."""
    from helpers.grade.train import textlm_probe_batches
    from helpers.induction import AttentionOnly

    build("textlm", steps=2, out=tmp_path, threads=1, progress=False)
    model, tokenizer = pretrained.load("textlm", tmp_path)
    assert isinstance(model, AttentionOnly) and model.max_len == 128
    assert tokenizer.chars == CharTokenizer(load_corpus()).chars
    history = pretrained.load_history("textlm", tmp_path)
    assert history["measured_steps"] == [0, 2]
    for kind in ("random", "text"):
        assert np.shape(history[f"{kind}_induction"]) == (2, 2, 4)
        assert np.shape(history[f"{kind}_prefix_matching"]) == (2, 2, 4)
    batches = textlm_probe_batches(model.vocab_size)
    assert batches["random"].shape == (64, 128) and batches["text"].shape == (50, 128)
    assert torch.equal(batches["text"][:, :64], batches["text"][:, 64:])
