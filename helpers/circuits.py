"""Reading a trained attention-only model's heads as circuits: what a head copies, and what
each head adds to a logit (lesson 11).

Row vectors, as the lesson writes them: a head that attends to a residual x writes
x W_V W_O = x W_OV into the residual stream, and the logits are x W_U.

- The **full OV circuit** of a head, W_E W_OV W_U (vocab, vocab): row a is what the head adds
  to every logit when it attends to (the embedding of) token a, nothing else in the residual.
  A head that copies raises token a's own logit: the diagonal dominates. Elhage et al. (2021)
  summarise that by the eigenvalues λ of the circuit: a copying matrix has mostly positive
  ones, and sum(λ) / sum(|λ|) is 1 for a perfect copier, -1 for an anti-copier, about 0 for
  a random matrix (`copying_score`). A simpler measure: the fraction of tokens a whose own
  logit is the largest of row a (`diagonal_top_score`).
- **Direct logit attribution**: the residual at the end is the embedding plus the position
  plus what every head wrote, and the unembedding is linear, so the logit of the correct next
  token splits exactly into one term per part (`direct_logit_attribution`). AttentionOnly has
  no final LayerNorm; with one, each term would be divided by the LayerNorm's scale of that
  position, frozen at its value on the clean run, and the terms would still add up.
"""

from __future__ import annotations

import numpy as np
import torch

from helpers.ablation import head_outputs
from helpers.induction import AttentionOnly, _layer


def _check_head(model: AttentionOnly, layer: int, head: int) -> None:
    _layer(model, layer)
    if not (isinstance(head, (int, np.integer)) and 0 <= head < model.n_heads):
        raise ValueError(f"head must be in 0..{model.n_heads - 1}; got {head!r}")


# ---------------------------------------------------------------- the OV circuit


@torch.no_grad()
def full_ov_circuit(model: AttentionOnly, layer: int, head: int) -> np.ndarray:
    """(vocab, vocab) float64: W_E W_V^h W_O^h W_U, row a = the logits head h of `layer` adds
    when it attends to token a's embedding alone (positions and earlier layers left out, as in
    Elhage et al.'s "direct path" reading of a head)."""
    _check_head(model, layer, head)
    att = model.layers[layer]
    d, cols = att.d_head, slice(head * att.d_head, (head + 1) * att.d_head)
    W_E = model.embed.weight.double()          # (V, D)
    W_V = att.v.weight[cols].double().T        # (D, d_head): x W_V, nn.Linear's weight is W_Vᵀ
    W_O = att.o.weight[:, cols].double().T     # (d_head, D)
    W_U = model.unembed.weight.double().T      # (D, V)
    assert W_V.shape[1] == d
    return (W_E @ W_V @ W_O @ W_U).numpy()     # (V, V)


def _check_square(matrix, who: str) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=float)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] == 0:
        raise ValueError(f"{who} expects a square (n, n) matrix, n >= 1; got shape "
                         f"{matrix.shape}")
    return matrix


def copying_score(matrix) -> float:
    """sum(λ) / sum(|λ|) over the eigenvalues λ of a square matrix (Elhage et al. 2021): 1 when
    every eigenvalue is positive (the identity: a perfect copier), -1 when all are negative.
    The numerator is real (the trace); a zero matrix has no direction and raises."""
    eigenvalues = np.linalg.eigvals(_check_square(matrix, "copying_score"))
    total = np.abs(eigenvalues).sum()
    if total == 0:
        raise ValueError("copying_score of a zero matrix is undefined: every eigenvalue is 0")
    return float(eigenvalues.sum().real / total)


def diagonal_top_score(matrix) -> float:
    """The fraction of rows a whose largest entry is the diagonal one, matrix[a, a]: for a full
    OV circuit, how often attending to token a raises a's own logit above every other. Ties
    count against (the diagonal must be strictly the largest)."""
    matrix = _check_square(matrix, "diagonal_top_score")
    diagonal = np.diag(matrix)
    off = matrix - np.diag(np.full(len(matrix), np.inf))  # the diagonal out of the running
    return float(np.mean(diagonal > off.max(axis=1))) if len(matrix) > 1 else 1.0


def ov_copying_scores(model: AttentionOnly, tokens=None) -> dict:
    """Every head's full OV circuit, scored: {"eigenvalue": copying_score, "diagonal":
    diagonal_top_score}, each (n_layers, n_heads). tokens: the ids to keep (rows and columns
    of each circuit), e.g. the ordinary ids without BOS; default all."""
    keep = np.arange(model.vocab_size) if tokens is None else np.asarray(tokens)
    if keep.ndim != 1 or keep.size == 0 or keep.min() < 0 or keep.max() >= model.vocab_size:
        raise ValueError(f"tokens must be ids in 0..{model.vocab_size - 1}; got {tokens!r}")
    scores = {"eigenvalue": np.zeros((model.n_layers, model.n_heads)),
              "diagonal": np.zeros((model.n_layers, model.n_heads))}
    for layer in range(model.n_layers):
        for head in range(model.n_heads):
            circuit = full_ov_circuit(model, layer, head)[np.ix_(keep, keep)]
            scores["eigenvalue"][layer, head] = copying_score(circuit)
            scores["diagonal"][layer, head] = diagonal_top_score(circuit)
    return scores


# ---------------------------------------------------------------- direct logit attribution


@torch.no_grad()
def residual_parts(model: AttentionOnly, ids: torch.Tensor) -> dict:
    """The final residual stream, split into what wrote it: {"embed": (B, T, D), "pos":
    (B, T, D), "heads": (n_layers, n_heads, B, T, D)}, summing to the residual the unembedding
    reads. Head h's part is its attention output z_h (B, T, d_head) times its columns of W_O."""
    z = head_outputs(model, ids)  # (L, H, B, T, d_head)
    d, T = model.layers[0].d_head, ids.shape[1]
    heads = torch.stack([
        torch.stack([z[i, h] @ layer.o.weight[:, h * d : (h + 1) * d].T  # (B, T, D)
                     for h in range(model.n_heads)])
        for i, layer in enumerate(model.layers)
    ])
    return {"embed": model.embed(ids), "pos": model.pos(T).expand(len(ids), T, -1),
            "heads": heads}


@torch.no_grad()
def direct_logit_attribution(model: AttentionOnly, ids: torch.Tensor) -> dict:
    """Each part's share of the logit of the correct next token, ids[:, t + 1] at position t:
    {"embed": (B, T-1), "pos": (B, T-1), "heads": (n_layers, n_heads, B, T-1)}, each part of
    `residual_parts` dotted with that token's unembedding row. They add up to the model's
    logit exactly (up to float rounding): no LayerNorm stands between residual and logits."""
    if not isinstance(ids, torch.Tensor) or ids.ndim != 2 or ids.shape[1] < 2:
        got = tuple(ids.shape) if hasattr(ids, "shape") else type(ids).__name__
        raise ValueError(f"ids must be (B, T) token ids with T >= 2 (a next token); got {got}")
    parts = residual_parts(model, ids)
    u = model.unembed.weight[ids[:, 1:]]  # (B, T-1, D): the correct next token's row of W_Uᵀ
    return {name: (part[..., :-1, :] * u).sum(-1) for name, part in parts.items()}
