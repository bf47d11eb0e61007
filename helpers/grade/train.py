"""Build the weights the course ships:
`python -m helpers.grade.train NAME [--steps N] [--seed S] [--out DIR] [--threads N]`.

Course machinery, not lesson material: lessons load the result with `helpers.pretrained.load`.
On one machine the run is deterministic given its seed (same steps, seed, torch version and
thread count -> the same bytes). Another CPU, vector width or thread count rounds differently,
and training amplifies that: the bytes and the measurements differ (docs/portability.md). The
command shows its progress on stderr, prints the final train and validation losses, writes
<DIR>/<NAME>.pt (DIR defaults to data/weights, or $COURSE_WEIGHTS_DIR) and records its SHA-256
in <DIR>/SHA256SUMS.rebuilt, so that `helpers.pretrained.load` accepts it as a rebuild; with
--ship (for the course's maintainers) in <DIR>/SHA256SUMS, as the file the course ships.
A target with a probe (induction, textlm, textrep) also writes <DIR>/<NAME>.history.json, every
step's loss and the probe's measures every few steps, taken without gradients on batches of
their own so that the weights are the bytes of a run without it; its checksum goes in the
same record.

Each model is one entry of TARGETS: how to build it, train it and measure it:
    charlm     lesson 08's character model, trained longer (lessons 10 and 11)
    induction  lesson 11's two-layer attention-only model, trained on repeated spans
    textlm     the same kind of model, 2 layers of 4 heads, trained on the course's text
    textrep    the same model on the same text, each training row a passage repeated
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from helpers import induction, pretrained
from helpers.model import TinyGPT, fit_steps, next_token_logits, train


@dataclass(frozen=True)
class Target:
    """One shipped model. build(seed) -> (model, file fields: "model", "config", maybe "chars");
    fit(model, steps, seed, threads, on_step) -> per-step losses (the recipe's fixed
    hyperparameters live in fit); evaluate(model) -> {"train": loss, "validation": loss}."""

    description: str
    steps: int
    build: Callable[[int], tuple[nn.Module, dict]]
    fit: Callable[..., list[float]]
    evaluate: Callable[[nn.Module], dict[str, float]]
    # probe(model) -> measure, measure(model) -> {name: JSON value}: what to record every
    # `probe_every` steps into <name>.history.json (None: no history). It must not touch the
    # training's generator or weights: the same run gives the same weights with or without it.
    probe: Callable[[nn.Module], Callable[[nn.Module], dict]] | None = None
    probe_every: int = 0


# ---- charlm: lesson 08's character model, two layers, 128 characters, trained longer ----

CHARLM = dict(d_model=64, n_heads=4, n_layers=2, d_ff=256, max_len=128)
# block_size: the model's max_len, 128. weight_decay 0.1 rather than 0.01: 29k characters are
# memorised fast (validation 1.66 after 700 steps, against 1.72 after 600 at 0.01).
CHARLM_TRAINING = dict(batch_size=32, lr=1e-2, weight_decay=0.1)


def _charlm_build(seed: int):
    tokenizer, _, _ = pretrained.corpus_split()
    config = dict(vocab_size=tokenizer.vocab_size, **CHARLM, seed=seed)
    fields = dict(model="TinyGPT", config=config, chars="".join(tokenizer.chars))
    return TinyGPT(**config), fields


def _charlm_fit(model, steps, seed, threads, on_step):
    _, train_ids, _ = pretrained.corpus_split()
    return train(model, train_ids, steps=steps, seed=seed, threads=threads, on_step=on_step,
                 **CHARLM_TRAINING)


@torch.no_grad()
def window_loss(model, ids, T: int) -> float:
    """Mean next-token loss over the non-overlapping windows of T ids (lesson 08's measure)."""
    data = torch.as_tensor(ids, dtype=torch.long)
    n = (len(data) - 1) // T
    if n < 1:
        raise ValueError(f"need more than T={T} ids for one window; got {len(data)}")
    x, y = data[: n * T].view(n, T), data[1 : n * T + 1].view(n, T)  # (n, T) each
    model.eval()
    return F.cross_entropy(next_token_logits(model, x).transpose(1, 2), y).item()


def _charlm_evaluate(model):
    _, train_ids, validation_ids = pretrained.corpus_split()
    T = model.max_len
    return {"train": window_loss(model, train_ids, T),
            "validation": window_loss(model, validation_ids, T)}


# ---- induction: lesson 11's attention-only model on repeated random spans ----


def _induction_build(seed: int):
    model = induction.AttentionOnly(**induction.FULL, seed=seed)
    return model, dict(model="AttentionOnly", config=dict(model.config(), seed=seed))


def _induction_fit(model, steps, seed, threads, on_step):
    return induction.fit(model, steps, seed, threads, on_step)  # TRAINING's batch, span, lr


def _induction_evaluate(model):
    """train: the loss on a fresh batch like the training ones; validation: the loss on the
    second copy of 128 held-out repeated spans of 16 (the lesson's batch, seed 1)."""
    span = induction.TRAINING["span"]
    with torch.no_grad():
        rows = induction.training_batch(128, span, span // 2, model.vocab_size,
                                         torch.Generator().manual_seed(10_000),
                                         induction.bos_id(model))
        train_loss = F.cross_entropy(model(rows)[:, :-1].flatten(0, 1), rows[:, 1:].flatten())
    held_out = induction.repeated_span_batch(128, span, model.vocab_size,
                                             torch.Generator().manual_seed(1), prefix=1,
                                             bos=induction.bos_id(model))
    _, second = induction.copy_losses(model, held_out, span, prefix=1)
    return {"train": train_loss.item(), "validation": second}


def _induction_probe(model):
    """Measure on a fixed batch of its own (induction.probe_batch: 128 rows of BOS + a span of
    16 twice, seed 20 000), with no gradient: every head's scores and both copies' losses."""
    rows, span = induction.probe_batch(model), induction.TRAINING["span"]
    return lambda m: induction.probe(m, rows, span)


# ---- textlm: lesson 11's attention-only model on Alice: does text grow induction heads? ----

TEXTLM = dict(d_model=64, n_heads=4, n_layers=2, max_len=128)
# charlm's batch, learning rate and weight decay, on the same 90% of alice.txt; 1200 steps
# (304 s on one thread of the course machine, the other core busy): the budget of about five
# minutes that a shipped model may take.
TEXTLM_TRAINING = dict(batch_size=32, lr=1e-2, weight_decay=0.1)
TEXTLM_SPAN = 64  # the probe's repeats: 64 ids, then the same 64, the model's whole context


def _textlm_build(seed: int):
    tokenizer, _, _ = pretrained.corpus_split()
    model = induction.AttentionOnly(tokenizer.vocab_size, **TEXTLM, seed=seed)
    fields = dict(model="AttentionOnly", config=dict(model.config(), seed=seed),
                  chars="".join(tokenizer.chars))
    return model, fields


def _textlm_fit(model, steps, seed, threads, on_step):
    _, train_ids, _ = pretrained.corpus_split()
    return train(model, train_ids, steps=steps, seed=seed, threads=threads, on_step=on_step,
                 **TEXTLM_TRAINING)


def textlm_probe_batches(vocab_size: int) -> dict[str, torch.Tensor]:
    """The textlm probe's two batches, each a repeat of 64 ids in 128 positions: "random", 64
    rows of uniformly random characters (seed 20 000, never a training batch's), and "text",
    the 50 non-overlapping windows of 64 characters of the held-out 10% of alice.txt."""
    _, _, validation_ids = pretrained.corpus_split()
    return {"random": induction.repeated_span_batch(
                64, TEXTLM_SPAN, vocab_size, torch.Generator().manual_seed(20_000)),
            "text": induction.repeated_text_batch(validation_ids, TEXTLM_SPAN)}


def _textlm_probe(model):
    """Every head's scores and both copies' losses on both batches, keys "random_..." and
    "text_..." (induction.probe's names)."""
    batches = textlm_probe_batches(model.vocab_size)
    return lambda m: {f"{kind}_{name}": value for kind, rows in batches.items()
                      for name, value in induction.probe(m, rows, TEXTLM_SPAN, 0).items()}


# ---- textrep: the same model on the same text, each window a passage repeated ----


def _textrep_fit(model, steps, seed, threads, on_step):
    """textlm's AdamW on rows of 128 characters that are a passage of 64 of the training text,
    twice (induction.repeated_text_batch, random starts): the text, with repeats that reward
    copying. The loss is every position's, the first copy's too."""
    _, train_ids, _ = pretrained.corpus_split()
    g = torch.Generator().manual_seed(seed)

    def rows_loss():
        rows = induction.repeated_text_batch(train_ids, TEXTLM_SPAN, TEXTLM_TRAINING["batch_size"],
                                             generator=g)  # (B, 128)
        logits = model(rows)[:, :-1]  # (B, 127, V)
        return F.cross_entropy(logits.flatten(0, 1), rows[:, 1:].flatten())

    return fit_steps(model, rows_loss, steps, lr=TEXTLM_TRAINING["lr"],
                     weight_decay=TEXTLM_TRAINING["weight_decay"], threads=threads,
                     on_step=on_step)


TARGETS: dict[str, Target] = {
    "charlm": Target(
        description="lesson 08's TinyGPT, 2 layers, 128 characters, on alice.txt's first 90%",
        steps=700,
        build=_charlm_build,
        fit=_charlm_fit,
        evaluate=_charlm_evaluate,
    ),
    "induction": Target(
        description="lesson 11's AttentionOnly, 2 layers of 2 heads, on repeated random spans",
        steps=induction.TRAINING["steps"],
        build=_induction_build,
        fit=_induction_fit,
        evaluate=_induction_evaluate,
        probe=_induction_probe,
        probe_every=25,
    ),
    "textlm": Target(
        description="lesson 11's AttentionOnly, 2 layers of 4 heads, 128 characters, on "
                    "alice.txt's first 90%",
        steps=1200,
        build=_textlm_build,
        fit=_textlm_fit,
        evaluate=_charlm_evaluate,
        probe=_textlm_probe,
        probe_every=50,
    ),
    "textrep": Target(
        description="textlm's model and text, each row a passage of 64 characters twice",
        steps=600,
        build=_textlm_build,
        fit=_textrep_fit,
        evaluate=_charlm_evaluate,
        probe=_textlm_probe,
        probe_every=25,
    ),
}


# ---- the command ----


class Progress:
    """A one-line progress report on stderr, rewritten in place with \\r."""

    def __init__(self, name: str, total: int, stream=None):
        self.name, self.total, self.stream = name, total, stream or sys.stderr
        self.start = time.monotonic()

    def __call__(self, step: int, loss: float) -> None:
        if step == self.total or step % max(1, self.total // 200) == 0:
            width = 30
            done = width * step // self.total
            elapsed = time.monotonic() - self.start
            left = elapsed / step * (self.total - step)
            self.stream.write(
                f"\r{self.name} [{'#' * done}{'.' * (width - done)}] {step}/{self.total} "
                f"loss {loss:.3f}  {elapsed:.0f}s elapsed, ~{left:.0f}s left "
            )
            self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def build(name: str, steps: int | None = None, seed: int = 0, out=None, threads: int = 2,
          progress: bool = True, ship: bool = False) -> dict:
    """Train target `name`, write <out>/<name>.pt and record its checksum: in
    <out>/SHA256SUMS.rebuilt (a learner's rebuild), or with ship=True in <out>/SHA256SUMS.

    Returns the training record that is also stored in the file (steps, seed, losses, ...),
    and whether the bytes are the shipped file's (`same_as_shipped`).
    """
    if name not in TARGETS:
        raise ValueError(f"unknown target {name!r}; known targets: {', '.join(sorted(TARGETS))}")
    target = TARGETS[name]
    steps = target.steps if steps is None else steps
    if int(steps) != steps or steps < 1:
        raise ValueError(f"steps must be a positive whole number; got {steps!r}")
    out = pretrained.folder(out)
    out.mkdir(parents=True, exist_ok=True)

    model, fields = target.build(seed)
    bar = Progress(name, steps) if progress else None
    measure = None if target.probe is None else target.probe(model)
    measured_steps = {}  # step -> measure(model) after that step (0: before training)

    def on_step(step, loss):
        if bar is not None:
            bar(step, loss)
        if measure is not None and (step % target.probe_every == 0 or step == steps):
            measured_steps[step] = measure(model)

    if measure is not None:
        measured_steps[0] = measure(model)
    start = time.monotonic()
    try:
        losses = target.fit(model, steps, seed, threads, on_step)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.monotonic() - start
    measured = target.evaluate(model)
    # No time or host name in the record: the same run must give the same bytes.
    record = dict(steps=int(steps), seed=int(seed), first_step_loss=losses[0],
                  last_20_steps_loss=sum(losses[-20:]) / len(losses[-20:]),
                  train_loss=measured["train"], validation_loss=measured["validation"],
                  torch=str(torch.__version__))
    saved = dict(fields, state_dict=model.state_dict(), training=record)

    buffer = io.BytesIO()
    torch.save(saved, buffer)
    data = buffer.getvalue()
    file = pretrained.path(name, out)
    partial = file.with_name(file.name + ".partial")
    partial.write_bytes(data)
    partial.replace(file)  # never leave a half-written file under the real name
    digest = pretrained.sha256(data)
    shipped = pretrained.read_sums(out).get(file.name)
    record_file = pretrained.SUMS if ship else pretrained.REBUILT
    sums = pretrained.read_sums(out, record_file)
    sums[file.name] = digest
    history_file = None
    if measure is not None:
        history = history_record(losses, measured_steps, target.probe_every, seed)
        history_file = pretrained.history_path(name, out)
        history_data = json.dumps(history, indent=1).encode("ascii") + b"\n"
        history_file.write_bytes(history_data)
        sums[history_file.name] = pretrained.sha256(history_data)
    pretrained.write_sums(sums, out, record_file)
    return dict(record, seconds=seconds, file=str(file), sha256=digest,
                same_as_shipped=digest == shipped, shipped_sha256=shipped,
                history_file=None if history_file is None else str(history_file))


def history_record(losses: list[float], measured_steps: dict, every: int, seed: int) -> dict:
    """The JSON record of a run: every step's training loss (5 significant digits) and, at
    step 0, every `every` steps and the last, the probe's measures (rounded to 4 digits)."""

    def rounded(value):
        if isinstance(value, list):
            return [rounded(v) for v in value]
        return round(float(value), 4)

    steps = sorted(measured_steps)
    names = list(measured_steps[steps[0]]) if steps else []
    return {"seed": int(seed), "steps": len(losses), "probe_every": int(every),
            "train_loss": [float(f"{loss:.5g}") for loss in losses],
            "measured_steps": steps,
            **{name: [rounded(measured_steps[s][name]) for s in steps] for name in names}}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m helpers.grade.train",
        description="Train one of the course's shipped models and record its checksum.",
    )
    parser.add_argument("name", choices=sorted(TARGETS), help="the model to build")
    parser.add_argument("--steps", type=int, default=None,
                        help="training steps (default: the shipped recipe's)")
    parser.add_argument("--seed", type=int, default=0, help="initial weights and batches")
    parser.add_argument("--out", default=None,
                        help=f"directory to write into (default {pretrained.WEIGHTS_DIR}, or "
                        f"${pretrained.WEIGHTS_ENV})")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    parser.add_argument("--ship", action="store_true",
                        help="record the file as the one the course ships (SHA256SUMS), for the "
                        "course's maintainers; by default it is recorded as a rebuild")
    args = parser.parse_args(argv)
    target = TARGETS[args.name]
    steps = target.steps if args.steps is None else args.steps
    print(f"{args.name}: {target.description}; {steps} steps, seed {args.seed}", flush=True)
    result = build(args.name, steps=args.steps, seed=args.seed, out=args.out,
                   threads=args.threads, ship=args.ship)
    print(f"trained in {result['seconds']:.0f} s")
    print(f"final train loss {result['train_loss']:.4f} | "
          f"validation loss {result['validation_loss']:.4f}")
    print(f"wrote {result['file']}\nsha256 {result['sha256']}")
    if result["history_file"]:
        print(f"wrote {result['history_file']} (the measures taken while it trained)")
    if args.ship:
        print("recorded in SHA256SUMS as the file the course ships")
    elif result["same_as_shipped"]:
        print("the same bytes as the shipped file: the lessons' numbers are this model's")
    else:
        print("not the shipped file's bytes (another CPU, thread count or recipe rounds "
              "differently, and training amplifies it). Recorded in SHA256SUMS.rebuilt: the "
              "lessons load it and print its measurements beside the shipped model's, which "
              "the text quotes. `git checkout data/weights` puts the shipped files back.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
