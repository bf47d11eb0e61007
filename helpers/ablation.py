"""Three ways to remove a head, and what each costs (lesson 11).

Ablating a head replaces its attention output z (B, T, d_head), what its W_O reads, by
something that carries no information about the input:
- **zero**: z = 0 (`helpers.induction.ablation_mask`). Cheap, but the model never saw a zero
  there in training: a head that always writes the same vector (a sink) writes something
  constant, not nothing, and zeroing it moves every later layer off its usual input.
- **mean**: z = its mean over a reference batch, position by position (T, d_head). A head
  whose output is the same on every input is left exactly as it was.
- **resample**: z = its output on another input (a row of the reference batch per row), as
  Chan et al.'s causal scrubbing and ARENA's resample ablation do: a typical output, just not
  this input's.
The difference between zero and mean ablation is the part of a zero ablation's effect that
comes from the input being off-distribution, not from the head's information being lost.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch
import torch.nn.functional as F

from helpers.induction import AttentionOnly, ablation_mask

METHODS = ("zero", "mean", "resample")


def _check_heads(model: AttentionOnly, heads) -> list[tuple[int, int]]:
    heads = [tuple(h) for h in heads]
    ablation_mask(model, *heads)  # raises "no head (layer, head)" for one the model lacks
    return heads


@contextmanager
def _hooked_o_inputs(model: AttentionOnly, hook):
    """Run with hook(layer_index, o_input (B, T, D)) -> new o_input on every layer's W_O."""
    handles = [layer.o.register_forward_pre_hook(
        lambda mod, args, i=i: (hook(i, args[0]),)) for i, layer in enumerate(model.layers)]
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()


@torch.no_grad()
def head_outputs(model: AttentionOnly, ids: torch.Tensor) -> torch.Tensor:
    """(n_layers, n_heads, B, T, d_head): every head's attention output z on a clean run."""
    model.eval()
    found = []

    def record(i, x):
        found.append(x)
        return x

    with _hooked_o_inputs(model, record):
        model(ids)
    d = model.layers[0].d_head
    return torch.stack([x.view(*x.shape[:2], model.n_heads, d).permute(2, 0, 1, 3)
                        for x in found])  # (L, H, B, T, d)


@torch.no_grad()
def patched_logits(model: AttentionOnly, ids: torch.Tensor, replacements: dict) -> torch.Tensor:
    """Logits (B, T, vocab) with head (layer, head)'s z replaced by replacements[(layer, head)],
    a tensor that broadcasts to (B, T, d_head). Later layers read the patched residual."""
    heads = _check_heads(model, replacements)
    d = model.layers[0].d_head
    by_layer = {}
    for (layer, head), value in zip(heads, replacements.values(), strict=True):
        by_layer.setdefault(layer, []).append((head, torch.as_tensor(value)))

    def patch(i, x):
        if i not in by_layer:
            return x
        x = x.clone()
        for head, value in by_layer[i]:
            x[..., head * d : (head + 1) * d] = value  # broadcast to (B, T, d)
        return x

    model.eval()
    with _hooked_o_inputs(model, patch):
        return model(ids)


def ablated_logits(model: AttentionOnly, ids: torch.Tensor, heads, method: str = "zero",
                   reference: torch.Tensor | None = None) -> torch.Tensor:
    """Logits (B, T, vocab) with every (layer, head) of `heads` ablated by `method`:
    "zero"; "mean" (its mean z over the rows of `reference`, (B', T) with ids' T); or
    "resample" (its z on `reference`, the same shape as ids: row b takes reference row b's)."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}; got {method!r}")
    heads = _check_heads(model, heads)
    if method == "zero":
        return patched_logits(model, ids, {h: torch.zeros(()) for h in heads})
    if not isinstance(reference, torch.Tensor) or reference.ndim != 2:
        raise ValueError(f"{method} ablation needs reference token ids (B', T); got "
                         f"{type(reference).__name__}")
    if method == "mean" and reference.shape[1] != ids.shape[1]:
        raise ValueError(f"mean ablation averages each position over the reference rows, so "
                         f"they need ids' T = {ids.shape[1]} positions; got "
                         f"{tuple(reference.shape)}")
    if method == "resample" and reference.shape != ids.shape:
        raise ValueError(f"resample ablation takes row b's output from reference row b: "
                         f"reference must have ids' shape {tuple(ids.shape)}; got "
                         f"{tuple(reference.shape)}")
    z = head_outputs(model, reference)  # (L, H, B', T, d)
    if method == "mean":
        return patched_logits(model, ids, {(i, h): z[i, h].mean(dim=0) for i, h in heads})
    return patched_logits(model, ids, {(i, h): z[i, h] for i, h in heads})


def ablated_copy_losses(model: AttentionOnly, ids: torch.Tensor, span: int, prefix: int,
                        heads, method: str = "zero", reference=None) -> tuple[float, float]:
    """(first-copy loss, second-copy loss) of a repeated-span batch with `heads` ablated, each
    copy's first token left out, as `helpers.induction.copy_losses` measures them."""
    if not isinstance(ids, torch.Tensor) or ids.ndim != 2 or ids.shape[1] != prefix + 2 * span:
        raise ValueError(f"ids must be a repeated-span batch (B, prefix + 2·span) = "
                         f"(B, {prefix + 2 * span})")
    logits = ablated_logits(model, ids, heads, method, reference)[:, :-1]  # (B, T-1, V)
    loss = F.cross_entropy(logits.transpose(1, 2), ids[:, 1:], reduction="none").mean(0)
    first = loss[prefix : prefix + span - 1]  # loss[i] predicts target i + 1
    second = loss[prefix + span : prefix + 2 * span - 1]
    return float(first.mean()), float(second.mean())
