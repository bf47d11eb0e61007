"""Induction heads: an attention-only model that grows them, and the measures that find them.

Lesson 11's library. `AttentionOnly` is the model of Elhage et al. (2021) and Olsson et al.
(2022): token embedding + learned positions, then residual attention layers with no MLP and no
LayerNorm, then an unembedding. Trained on random spans that repeat (`repeated_span_batch`),
it learns to copy: a previous-token head in layer 0 writes "the token before me" into each
position, and an induction head in layer 1 keys on it, attending from the current token to the
token after its earlier occurrence. The residual stream is linear up to the unembedding, so each
head's OV and QK matrices are the circuit itself (`ov_matrices`, `qk_matrices`,
`composition_scores`).

Training (`fit`, `train_induction`) starts every row with a beginning-of-sequence token that
no span contains. Heads with nothing to do park their attention on it: the course's model has a
layer-0 head that puts all its weight on position 0 and whose ablation changes nothing, next to
the previous-token head whose ablation removes the in-context advantage. Without that token
the heads of a layer share the work instead, and no one head's ablation matters much.

Patterns are (..., T_q, T_k), a row per query, as `helpers.attention.attention` returns them.
"""

from __future__ import annotations

import math
import string

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from helpers.attention import attention
from helpers.heads import _check_heads, merge_heads, split_heads
from helpers.masks import causal_mask
from helpers.model import fit_steps, next_token_logits
from helpers.positions import LearnedPositions, sinusoidal_encoding

# The shipped recipe (issue 14): 6000 steps, about 90 s on one thread of the course machine.
# A row is a bos, then 2·16 positions; max_len is exactly that, since a learned position
# table has nothing to say about positions it never trained on.
FULL = dict(vocab_size=64, d_model=64, n_heads=2, n_layers=2, max_len=33)
TRAINING = dict(steps=6000, batch=32, span=16, lr=1e-2)
# A reduced run that still grows the circuit, for tests: 500 steps, about 6 s on one thread.
REDUCED = dict(steps=500, span=8, vocab_size=32, max_len=17, seed=1)


# ---------------------------------------------------------------- the model


class AttentionLayer(nn.Module):
    """Causal multi-head self-attention with no biases, whose heads can be scaled one by one.

    q, k, v, o: nn.Linear(d_model, d_model, bias=False); head h owns rows h·d_head..(h+1)·d_head
    of q, k, v and the same columns of o.
    """

    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        _check_heads(d_model, n_heads)
        self.d_model, self.n_heads, self.d_head = d_model, n_heads, d_model // n_heads
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x: torch.Tensor, mask: torch.Tensor, head_scale=None):
        """x (B, T, D) -> (what the layer adds to the residual (B, T, D), weights (B, H, T, T)).

        head_scale: (H,) multiplies each head's output before o (0 ablates the head).
        """
        q = split_heads(self.q(x), self.n_heads)  # (B, H, T, d_head)
        k = split_heads(self.k(x), self.n_heads)
        v = split_heads(self.v(x), self.n_heads)
        z, weights = attention(q, k, v, mask=mask)  # (B, H, T, d_head), (B, H, T, T)
        if head_scale is not None:
            z = z * head_scale[:, None, None]  # (H, 1, 1) broadcasts over B, T, d_head
        return self.o(merge_heads(z)), weights


class AttentionOnly(nn.Module):
    """ids (B, T) -> next-token logits (B, T, vocab) through attention layers alone.

    residual = embed(ids) + positions; residual += layer(residual), layer by layer; logits =
    unembed(residual). No MLP and no LayerNorm, so everything but the softmax is linear.
    seed: initial weights are drawn from this seed without touching the global generator.

    Initialisation: token vectors N(0, 1), projections N(0, 1/d_model) (the small std 0.02 of
    TinyGPT leaves this model on its loss plateau for thousands of steps), and the learned
    position table starts as lesson 06's sinusoidal encoding, in which "the position before
    me" is one linear map for every position: the previous-token head then forms in hundreds
    of steps instead of thousands.
    """

    def __init__(
        self,
        vocab_size: int,
        d_model: int = 64,
        n_heads: int = 4,
        n_layers: int = 2,
        max_len: int = 64,
        seed: int | None = 0,
    ):
        super().__init__()
        for name, value in (("vocab_size", vocab_size), ("d_model", d_model),
                            ("n_heads", n_heads), ("n_layers", n_layers), ("max_len", max_len)):
            _check_count(name, value)
        self.vocab_size, self.max_len = vocab_size, max_len
        self.n_layers, self.n_heads = n_layers, n_heads
        with torch.random.fork_rng(devices=[]):
            if seed is not None:
                torch.manual_seed(seed)
            self.embed = nn.Embedding(vocab_size, d_model)
            self.pos = LearnedPositions(max_len, d_model)
            self.layers = nn.ModuleList(AttentionLayer(d_model, n_heads) for _ in range(n_layers))
            self.unembed = nn.Linear(d_model, vocab_size, bias=False)
            for module in self.modules():
                if isinstance(module, nn.Embedding):
                    nn.init.normal_(module.weight)  # N(0, 1): token vectors of norm ~√d
                elif isinstance(module, nn.Linear):
                    nn.init.normal_(module.weight, std=1 / math.sqrt(d_model))
            with torch.no_grad():  # learned, but starting from lesson 06's sinusoidal table
                table = sinusoidal_encoding(max_len, d_model)
                self.pos.table.weight.copy_(torch.as_tensor(table, dtype=torch.float32))

    def config(self) -> dict:
        """The constructor's arguments but the seed: AttentionOnly(**config) rebuilds the shape."""
        return dict(vocab_size=self.vocab_size, d_model=self.embed.embedding_dim,
                    n_heads=self.n_heads, n_layers=self.n_layers, max_len=self.max_len)

    def _check_ids(self, idx) -> None:
        if not isinstance(idx, torch.Tensor) or idx.ndim != 2 or idx.dtype != torch.long:
            got = (f"shape {tuple(idx.shape)}, dtype {idx.dtype}" if hasattr(idx, "shape")
                   else type(idx).__name__)
            raise ValueError(f"idx must be token ids of shape (B, T) and dtype long; got {got}")
        if idx.shape[1] > self.max_len:
            raise ValueError(
                f"sequence of {idx.shape[1]} positions is longer than the model's max_len "
                f"{self.max_len}: the learned position table has no row past {self.max_len - 1}"
            )
        if idx.numel() and (idx.min() < 0 or idx.max() >= self.vocab_size):
            bad = int(idx.min()) if idx.min() < 0 else int(idx.max())
            raise ValueError(f"token id {bad} is outside the vocabulary 0..{self.vocab_size - 1}")

    def _check_head_mask(self, head_mask) -> torch.Tensor | None:
        if head_mask is None:
            return None
        head_mask = torch.as_tensor(head_mask, dtype=self.embed.weight.dtype)
        if head_mask.shape != (self.n_layers, self.n_heads):
            raise ValueError(
                f"head_mask must be (n_layers, n_heads) = ({self.n_layers}, {self.n_heads}), "
                f"one factor per head (1 keeps it, 0 ablates it); got shape "
                f"{tuple(head_mask.shape)}"
            )
        return head_mask

    def run(self, idx: torch.Tensor, head_mask=None, attn_mask=None):
        """-> (logits (B, T, vocab), patterns (n_layers, B, H, T, T)).

        attn_mask: bool (T, T), True = may attend, and-ed with the causal mask in every layer
        (a sliding window, say).
        """
        self._check_ids(idx)
        head_mask = self._check_head_mask(head_mask)
        T = idx.shape[1]
        mask = torch.as_tensor(causal_mask(T))  # (T, T), True = may attend
        if attn_mask is not None:
            attn_mask = torch.as_tensor(attn_mask)
            if attn_mask.dtype != torch.bool or attn_mask.shape != (T, T):
                raise ValueError(
                    f"attn_mask must be a bool (T, T) = ({T}, {T}) mask, True = may attend; "
                    f"got dtype {attn_mask.dtype}, shape {tuple(attn_mask.shape)}"
                )
            mask = mask & attn_mask
        x = self.embed(idx) + self.pos(T)  # (B, T, D): the residual stream
        patterns = []
        for layer_index, layer in enumerate(self.layers):
            scale = None if head_mask is None else head_mask[layer_index]
            out, weights = layer(x, mask, scale)
            x = x + out  # each layer adds to the residual, nothing rewrites it
            patterns.append(weights)
        return self.unembed(x), torch.stack(patterns)  # (B, T, V), (L, B, H, T, T)

    def forward(self, idx: torch.Tensor, head_mask=None, attn_mask=None) -> torch.Tensor:
        """idx (B, T) -> logits (B, T, vocab). head_mask (n_layers, n_heads): each head's
        output is multiplied by its factor before the output projection (0 ablates it).
        attn_mask: see `run`."""
        return self.run(idx, head_mask, attn_mask)[0]


@torch.no_grad()
def attention_patterns(model: AttentionOnly, idx: torch.Tensor, head_mask=None,
                       attn_mask=None) -> torch.Tensor:
    """Every layer's attention weights: (n_layers, B, n_heads, T, T), a row per query."""
    model.eval()
    return model.run(idx, head_mask, attn_mask)[1]


# ---------------------------------------------------------------- circuits


def _head_rows(weight: torch.Tensor, h: int, d_head: int) -> torch.Tensor:
    return weight[h * d_head : (h + 1) * d_head]  # (d_head, D)


@torch.no_grad()
def qk_matrices(model: AttentionOnly, layer: int) -> np.ndarray:
    """(H, D, D): W_QK of each head, score(x_q, x_k) = x_q W_QK x_kᵀ / √d_head (row vectors).

    With nn.Linear's weights W_Q^h (d_head, D) (rows of head h): W_QK^h = W_Q^hᵀ W_K^h.
    """
    att = _layer(model, layer)
    return np.stack([
        (_head_rows(att.q.weight, h, att.d_head).T @ _head_rows(att.k.weight, h, att.d_head))
        .numpy() for h in range(att.n_heads)
    ])


@torch.no_grad()
def ov_matrices(model: AttentionOnly, layer: int) -> np.ndarray:
    """(H, D, D): W_OV of each head, what it writes to the residual = W_OV @ x (column vector)
    for the residual x it attends to. W_OV^h = W_O[:, cols of h] @ W_V[rows of h]."""
    att = _layer(model, layer)
    d = att.d_head
    return np.stack([
        (att.o.weight[:, h * d : (h + 1) * d] @ _head_rows(att.v.weight, h, d)).numpy()
        for h in range(att.n_heads)
    ])


def _layer(model: AttentionOnly, layer: int) -> AttentionLayer:
    if not 0 <= layer < model.n_layers:
        raise ValueError(f"layer must be in 0..{model.n_layers - 1}; got {layer!r}")
    return model.layers[layer]


def _composition(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def composition_scores(model: AttentionOnly, layer: int = 1, source: int = 0,
                       baseline_samples: int = 200) -> dict:
    """How much each head of `layer` reads what each head of `source` wrote (Elhage et al.).

    Returns (H, H) arrays indexed [head of `layer`, head of `source`]:
      "k": ‖W_QK^{layer,h} W_OV^{source,g}‖_F / (‖W_QK^{layer,h}‖_F ‖W_OV^{source,g}‖_F), keys
           read the source head's output (the induction circuit). W_OV as `ov_matrices` gives
           it, for column vectors as in Elhage et al.; with row vectors (x W_V W_O, the
           transpose) the same number is ‖W_QK W_OVᵀ‖ / (‖W_QK‖ ‖W_OV‖). The attention's
           1/√d_head scales W_QK and cancels in the ratio;
      "q": the same with W_QK^ᵀ, queries read it;  "v": with W_OV^{layer,h}, values read it;
    and "baseline": the mean K-composition of random Gaussian matrices of the same shapes and
    rank, what "no composition" looks like at this size (a seeded draw, the same every call).
    """
    if not 0 <= source < layer:
        raise ValueError(
            f"source must be an earlier layer than layer: 0 <= source < layer; got "
            f"layer={layer!r}, source={source!r}"
        )
    qk, ov_late, ov_early = qk_matrices(model, layer), ov_matrices(model, layer), ov_matrices(
        model, source)
    H = qk.shape[0]
    scores = {key: np.zeros((H, H)) for key in ("k", "q", "v")}
    for h in range(H):
        for g in range(H):
            scores["k"][h, g] = _composition(qk[h], ov_early[g])
            scores["q"][h, g] = _composition(qk[h].T, ov_early[g])
            scores["v"][h, g] = _composition(ov_late[h], ov_early[g])
    D, d_head = qk.shape[1], model.layers[0].d_head
    rng = np.random.default_rng(0)

    def low_rank():
        return rng.standard_normal((D, d_head)) @ rng.standard_normal((d_head, D))

    scores["baseline"] = float(np.mean(
        [_composition(low_rank(), low_rank()) for _ in range(baseline_samples)]))
    return scores


# ---------------------------------------------------------------- data


def _check_count(name: str, value, minimum: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}; got {value!r}")


def repeated_span_batch(batch: int, span: int, vocab_size: int, generator: torch.Generator,
                        prefix: int = 0, bos: int | None = None) -> torch.Tensor:
    """(batch, prefix + 2·span) long: `prefix` random tokens, a random span, the span again.

    Row b: [p_0 .. p_{prefix-1}, s_0 .. s_{span-1}, s_0 .. s_{span-1}], tokens uniform over
    0..vocab_size-1 and drawn from `generator` only, so the same generator state gives the same
    batch. bos: a beginning-of-sequence id that takes position 0 (the prefix's first token, so
    prefix >= 1) and is never drawn elsewhere.
    """
    _check_count("batch", batch)
    _check_count("span", span)
    _check_count("vocab_size", vocab_size, 2 if bos is None else 3)
    _check_count("prefix", prefix, 0 if bos is None else 1)
    if not isinstance(generator, torch.Generator):
        raise ValueError(
            f"generator must be a torch.Generator (torch.Generator().manual_seed(seed)), so "
            f"the batch is reproducible; got {type(generator).__name__}"
        )
    if bos is not None and not (isinstance(bos, (int, np.integer)) and 0 <= bos < vocab_size):
        raise ValueError(f"bos must be a token id in 0..{vocab_size - 1}; got {bos!r}")
    n = vocab_size if bos is None else vocab_size - 1  # how many ids a random token can take
    head = torch.randint(n, (batch, prefix), generator=generator)
    first = torch.randint(n, (batch, span), generator=generator)
    ids = torch.cat([head, first, first], dim=1)  # (batch, prefix + 2·span)
    if bos is not None:
        ids = ids + (ids >= bos)  # skip the bos id: 0..n-1 -> the other vocab_size - 1 ids
        ids[:, 0] = bos
    return ids


def repeated_text_batch(ids, span: int, rows: int | None = None,
                        generator: torch.Generator | None = None) -> torch.Tensor:
    """(rows, 2·span) long: windows of `span` ids of a text, each followed by itself. A repeat
    of real text, where repeated_span_batch's is one of random tokens.

    Without a generator: the text's consecutive, non-overlapping windows (window r is
    ids[r·span : (r + 1)·span]), the first `rows` of them (default: every one that fits).
    With one: `rows` windows starting anywhere, drawn from `generator` only (training rows).
    """
    ids = torch.as_tensor(ids, dtype=torch.long)
    _check_count("span", span)
    if generator is not None:
        _check_count("rows", rows)
        if ids.ndim != 1 or len(ids) < span:
            raise ValueError(f"need a 1-d text of at least span = {span} ids; got shape "
                             f"{tuple(ids.shape)}")
        start = torch.randint(len(ids) - span + 1, (rows,), generator=generator)
        windows = ids[start[:, None] + torch.arange(span)]
        return torch.cat([windows, windows], dim=1)
    fits = len(ids) // span
    rows = fits if rows is None else rows
    _check_count("rows", rows)
    if ids.ndim != 1 or rows > fits:
        raise ValueError(f"need a 1-d text of at least rows·span = {rows}·{span} ids; got shape "
                         f"{tuple(ids.shape)}")
    windows = ids[: rows * span].view(rows, span)
    return torch.cat([windows, windows], dim=1)


def bos_id(model: AttentionOnly) -> int:
    """The beginning-of-sequence id `fit` trains with: the last id of the vocabulary."""
    return model.vocab_size - 1


# ---------------------------------------------------------------- scores of a pattern


def _check_pattern(weights, who: str):
    if not isinstance(weights, torch.Tensor):
        weights = np.asarray(weights, dtype=float)
    if weights.ndim < 2 or weights.shape[-1] != weights.shape[-2]:
        raise ValueError(
            f"{who} expects attention weights (..., T, T), a row per query and a column per "
            f"key of the same sequence; got shape {tuple(weights.shape)}"
        )
    return weights


def _mean_last(x):
    return x.mean(dim=-1) if isinstance(x, torch.Tensor) else x.mean(axis=-1)


def _diagonal(weights, offset: int):
    """Entries [t, t - offset] of the last two axes, for t = offset..T-1: (..., T - offset)."""
    if isinstance(weights, torch.Tensor):
        return torch.diagonal(weights, offset=-offset, dim1=-2, dim2=-1)
    return np.diagonal(weights, offset=-offset, axis1=-2, axis2=-1)


def previous_token_score(weights):
    """(..., T, T) -> (...): mean over queries t >= 1 of the weight on key t - 1.

    1 for a head that always reads the token just before. A uniform causal head gives query t
    the weight 1/(t + 1) on each key, so it scores (H_T - 1)/(T - 1), H_T the T-th harmonic
    number, about (ln T - 0.42)/(T - 1): 0.097 at T = 33.
    """
    weights = _check_pattern(weights, "previous_token_score")
    if weights.shape[-1] < 2:
        raise ValueError("previous_token_score needs T >= 2 positions: query 0 has no previous key")
    return _mean_last(_diagonal(weights, 1))


def induction_score(weights, span: int, prefix: int = 0):
    """(..., T, T) -> (...): mean over the queries of the second copy, t = prefix + span ..
    prefix + 2·span - 1, of the weight on key t - span + 1, the token after the earlier
    occurrence of the current token. T must be prefix + 2·span (a repeated_span_batch)."""
    weights = _check_pattern(weights, "induction_score")
    _check_count("span", span)
    _check_count("prefix", prefix, 0)
    T = weights.shape[-1]
    if T != prefix + 2 * span:
        raise ValueError(
            f"a pattern of a repeated span has T = prefix + 2·span = {prefix} + 2·{span} = "
            f"{prefix + 2 * span} positions; got T = {T}. Pass the span and prefix the batch "
            "was made with."
        )
    return _mean_last(_diagonal(weights, span - 1)[..., prefix + 1 :])  # queries prefix+span..


def prefix_matching_score(weights: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    """(..., B, H, T, T) patterns of a batch ids (B, T) -> (..., H): the prefix-matching score
    of Olsson et al. (2022), found from the tokens rather than from the layout.

    Query i's matches are the keys k <= i - 1 preceded by i's own token (ids[k - 1] == ids[i]),
    the tokens that followed an earlier occurrence of it; its score is the total weight on
    them, averaged over every (row, query) that has a match. (k = i, a token right after a copy
    of itself, is left out: the query itself is no earlier key.)

    On a repeated span with no token twice (nor a padding token equal to one) the matches of
    the second copy are exactly `induction_score`'s keys t - span + 1, and the first copy has
    none, so the two agree. On random spans they differ slightly: a token drawn twice by chance
    gives a match in the first copy too, and a second-copy query two keys, both counted here.
    ARENA's detector (the mean of the whole diagonal -(span - 1) of a BOS + span + span
    pattern) also counts two first-copy queries, one of them reading BOS.
    """
    weights = _check_pattern(weights, "prefix_matching_score")
    if not isinstance(ids, torch.Tensor) or ids.ndim != 2 or weights.ndim < 4 or (
            tuple(weights.shape[-4:-2]) != (ids.shape[0], weights.shape[-3])
            or weights.shape[-1] != ids.shape[1]):
        raise ValueError(
            f"prefix_matching_score expects ids (B, T) and patterns (..., B, H, T, T) of those "
            f"rows; got ids {tuple(getattr(ids, 'shape', ()))}, patterns "
            f"{tuple(weights.shape)}")
    T = ids.shape[1]
    preceded_by = torch.zeros(ids.shape[0], T, T, dtype=torch.bool)  # (B, query i, key k)
    preceded_by[:, :, 1:] = ids[:, :, None] == ids[:, None, :-1]     # ids[k - 1] == ids[i]
    matches = preceded_by & torch.ones(T, T, dtype=torch.bool).tril(diagonal=-1)  # k <= i - 1
    on_matches = (weights * matches[:, None]).sum(-1)  # (..., B, H, T): weight on the matches
    has_match = matches.any(-1)[:, None]                # (B, 1, T)
    if not has_match.any():
        raise ValueError("prefix_matching_score: no token of ids occurs twice, so no query "
                         "has an earlier occurrence to match")
    return (on_matches * has_match).sum((-3, -1)) / has_match.sum()


def first_token_score(weights):
    """(..., T, T) -> (...): mean over queries t >= 1 of the weight on key 0 (a "sink").

    Query 0 is left out: it can read only key 0, so its weight there is 1 for every head.
    """
    weights = _check_pattern(weights, "first_token_score")
    if weights.shape[-1] < 2:
        raise ValueError("first_token_score needs T >= 2 positions: query 0 reads only key 0")
    return _mean_last(weights[..., 1:, 0])


def head_scores(model: AttentionOnly, batch_ids: torch.Tensor, span: int, prefix: int = 0,
                head_mask=None) -> dict:
    """Every head's scores on a repeated-span batch, each (n_layers, n_heads), batch-averaged:
    "previous_token", "induction", "first_token"."""
    w = attention_patterns(model, batch_ids, head_mask)  # (L, B, H, T, T)
    return {
        "previous_token": previous_token_score(w).mean(dim=1).numpy(),
        "induction": induction_score(w, span, prefix).mean(dim=1).numpy(),
        "first_token": first_token_score(w).mean(dim=1).numpy(),
    }


# ---------------------------------------------------------------- a typed text


# One character per ordinary id of the shipped model (63 of them; the 64th id is BOS). The model
# was trained on random ids, so which character stands for which id does not matter.
SPAN_CHARACTERS = string.ascii_lowercase + string.ascii_uppercase + string.digits + " "


class SpanTokenizer:
    """Typed text -> the induction model's ids, for `helpers.widgets.heads_explorer`.

    Character i of SPAN_CHARACTERS (a-z, A-Z, 0-9, space; the first vocab_size - 1 of them) is
    ordinary id i, and `encode` puts the BOS id first, as in every training row, so a text of n
    characters is n + 1 positions (at most max_len). `tokens(text)` labels them: "BOS", then
    the characters.
    """

    def __init__(self, model: AttentionOnly | None = None):
        vocab_size = FULL["vocab_size"] if model is None else model.vocab_size
        self.max_len = FULL["max_len"] if model is None else model.max_len
        if vocab_size - 1 > len(SPAN_CHARACTERS):
            raise ValueError(f"SpanTokenizer has {len(SPAN_CHARACTERS)} characters; the model "
                             f"has {vocab_size - 1} ordinary ids")
        self.chars = SPAN_CHARACTERS[: vocab_size - 1]
        self.bos = vocab_size - 1

    def encode(self, text: str) -> list[int]:
        """[BOS, id of text[0], id of text[1], ...]."""
        for i, c in enumerate(text):
            if c not in self.chars:
                raise ValueError(
                    f"character {c!r} at position {i} is not one of the model's "
                    f"{len(self.chars)} characters (letters, digits and the space)"
                )
        if len(text) > self.max_len - 1:
            raise ValueError(
                f"the model has {self.max_len} positions: BOS and at most {self.max_len - 1} "
                f"characters; got {len(text)} characters"
            )
        return [self.bos] + [self.chars.index(c) for c in text]

    def tokens(self, text: str) -> list[str]:
        """The label of every position `encode` gives: "BOS", then the characters."""
        return ["BOS", *text]


def repeated_ending(tokens) -> tuple[int, int] | None:
    """(start, distance) of the longest ending tokens[start:] that occurred earlier, or None.

    The earlier occurrence ends before the ending starts (tokens[start - distance : T -
    distance] == tokens[start:], distance >= T - start), and the nearest one is taken. A repeat
    at distance 1 does not count: the token after its earlier occurrence would be the query
    itself. For a repeated-span row, BOS + span + span, it is (1 + span, span).
    """
    tokens = list(tokens)
    T = len(tokens)
    for length in range(T // 2, 0, -1):
        ending = tokens[T - length:]
        for p in range(T - 2 * length, -1, -1):  # the nearest earlier occurrence first
            if tokens[p : p + length] == ending and T - length - p >= 2:
                return T - length, T - length - p
    return None


def ending_induction_score(weights, start: int, distance: int):
    """(..., T, T) -> (...): the mean weight queries t = start..T-1 give key t - distance + 1,
    the token after their earlier occurrence (`repeated_ending`'s start and distance).
    induction_score(w, span, prefix) is ending_induction_score(w, prefix + span, span)."""
    weights = _check_pattern(weights, "ending_induction_score")
    T = weights.shape[-1]
    if not (isinstance(start, (int, np.integer)) and isinstance(distance, (int, np.integer))
            and 2 <= distance <= start < T):
        raise ValueError(f"need 2 <= distance <= start < T = {T}; got start={start!r}, "
                         f"distance={distance!r}")
    return _mean_last(_diagonal(weights, distance - 1)[..., start - distance + 1 :])


# ---------------------------------------------------------------- losses and ablation


@torch.no_grad()
def loss_by_position(model: AttentionOnly, ids: torch.Tensor, head_mask=None) -> np.ndarray:
    """(T-1,): the next-token loss at each position i (predicting ids[:, i+1]), batch mean.
    model: an AttentionOnly, or (without head_mask) any course model, a TinyGPT too."""
    if isinstance(ids, torch.Tensor) and ids.ndim == 2 and ids.shape[1] < 2:
        raise ValueError(f"loss_by_position needs T >= 2 positions; got shape {tuple(ids.shape)}")
    model.eval()
    logits = (next_token_logits(model, ids) if head_mask is None
              else model(ids, head_mask))[:, :-1]  # (B, T-1, V)
    loss = F.cross_entropy(logits.transpose(1, 2), ids[:, 1:], reduction="none")  # (B, T-1)
    return loss.mean(dim=0).numpy()


def copy_losses(model: AttentionOnly, ids: torch.Tensor, span: int, prefix: int = 0,
                head_mask=None) -> tuple[float, float]:
    """(mean loss on the first copy, on the second copy) of a repeated-span batch.

    Each copy's first token is left out: nothing predicts the start of a span, the second
    copy's included. So the first copy is the targets prefix+1 .. prefix+span-1 (about
    log(vocab) for any model: they are random) and the second prefix+span+1 .. prefix+2·span-1.
    """
    _check_count("span", span, 2)
    _check_count("prefix", prefix, 0)
    if not isinstance(ids, torch.Tensor) or ids.ndim != 2 or ids.shape[1] != prefix + 2 * span:
        got = tuple(ids.shape) if hasattr(ids, "shape") else type(ids).__name__
        raise ValueError(
            f"ids must be a repeated-span batch (B, prefix + 2·span) = (B, {prefix + 2 * span}); "
            f"got {got}"
        )
    loss = loss_by_position(model, ids, head_mask)  # loss[i] predicts target i + 1
    first = loss[prefix : prefix + span - 1]
    second = loss[prefix + span : prefix + 2 * span - 1]
    return float(first.mean()), float(second.mean())


def repeat_advantage(model: AttentionOnly, ids: torch.Tensor, span: int, prefix: int = 0,
                     head_mask=None) -> float:
    """Mean loss on the first copy minus on the second (nats): in-context learning."""
    first, second = copy_losses(model, ids, span, prefix, head_mask)
    return first - second


def ablation_mask(model: AttentionOnly, *heads) -> torch.Tensor:
    """(n_layers, n_heads) ones with a 0 for every (layer, head) given."""
    mask = torch.ones(model.n_layers, model.n_heads)
    for layer, head in heads:
        if not (0 <= layer < model.n_layers and 0 <= head < model.n_heads):
            raise ValueError(
                f"no head ({layer}, {head}): layers 0..{model.n_layers - 1}, "
                f"heads 0..{model.n_heads - 1}"
            )
        mask[layer, head] = 0.0
    return mask


# ---------------------------------------------------------------- training


def training_batch(batch: int, span: int, min_span: int, vocab_size: int,
                    generator: torch.Generator, bos: int | None) -> torch.Tensor:
    """(batch, T): each row repeats a span of its own length s in min_span..span, after a
    random prefix that pads it to T = 2·span (+ 1 for the bos), so the rows repeat at
    different distances and every second copy ends at T - 1. Rows come grouped by length."""
    lengths = torch.randint(min_span, span + 1, (batch,), generator=generator)
    start = 0 if bos is None else 1
    return torch.cat([
        repeated_span_batch(int((lengths == s).sum()), s, vocab_size, generator,
                            prefix=start + 2 * (span - s), bos=bos)
        for s in range(min_span, span + 1) if (lengths == s).any()
    ])


def probe_batch(model: AttentionOnly, rows: int = 128, span: int = TRAINING["span"],
                seed: int = 20_000) -> torch.Tensor:
    """(rows, 1 + 2·span): a fixed batch to measure a model on while it trains, BOS + a span
    + the span again, drawn from its own generator (seed), so measuring never touches the
    training batches' generator."""
    return repeated_span_batch(rows, span, model.vocab_size, torch.Generator().manual_seed(seed),
                               prefix=1, bos=bos_id(model))


@torch.no_grad()
def probe(model: AttentionOnly, ids: torch.Tensor, span: int, prefix: int = 1) -> dict:
    """What repeated-span rows (`prefix` tokens, a span, the span again: BOS + span + span for
    `probe_batch`, prefix=1) say about a model, as plain floats for a JSON record:
    "previous_token", "induction", "prefix_matching" (each n_layers lists of n_heads scores)
    and "first_copy_loss", "second_copy_loss". Leaves the model's train/eval mode as it found
    it."""
    was_training = model.training
    try:
        w = attention_patterns(model, ids)  # (L, B, H, T, T)
        first, second = copy_losses(model, ids, span, prefix=prefix)
    finally:
        model.train(was_training)
    return {"previous_token": previous_token_score(w).mean(dim=1).tolist(),
            "induction": induction_score(w, span, prefix=prefix).mean(dim=1).tolist(),
            "prefix_matching": prefix_matching_score(w, ids).tolist(),
            "first_copy_loss": first, "second_copy_loss": second}


def fit(model: AttentionOnly, steps: int, seed: int = 0, threads: int = 2, on_step=None, *,
        batch: int = TRAINING["batch"], span: int = TRAINING["span"],
        min_span: int | None = None, bos: bool = True, lr: float = TRAINING["lr"],
        weight_decay: float = 0.01) -> list[float]:
    """AdamW on repeated spans; returns the loss of every step (mean next-token loss over every
    position of the batch).

    Each row repeats a span of its own length, drawn from min_span..span (default span // 2),
    after random tokens that pad the row to 2·span positions: with one fixed span a head could
    copy from position t - span + 1 by position alone, with no induction circuit, so the span
    varies and only "find the earlier occurrence of this token" works for every row.
    bos: start every row with bos_id(model), which no span contains. It gives a head with
    nothing to do a place to rest its attention (a sink); without it the heads of a layer
    tend to share the work, and no single head's ablation matters much.
    on_step: called as on_step(step, loss) after every step (a progress bar, say).
    """
    _check_count("steps", steps)
    _check_count("batch", batch)
    _check_count("span", span, 2)
    min_span = span // 2 if min_span is None else min_span
    _check_count("min_span", min_span, 2)
    if min_span > span:
        raise ValueError(f"min_span must be <= span; got min_span={min_span}, span={span}")
    bos = bos_id(model) if bos else None
    T = 2 * span + (bos is not None)
    if T > model.max_len:
        raise ValueError(
            f"a training row has {T} positions (2·span{' + bos' if bos is not None else ''}), "
            f"more than the model's max_len {model.max_len}"
        )
    g = torch.Generator().manual_seed(seed)

    def rows_loss():
        ids = training_batch(batch, span, min_span, model.vocab_size, g, bos)  # (B, T)
        logits = model(ids)[:, :-1]  # (B, T-1, V)
        return F.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten())

    return fit_steps(model, rows_loss, steps, lr=lr, weight_decay=weight_decay,
                     threads=threads, on_step=on_step, foreach=True)


def train_induction(steps: int = TRAINING["steps"], seed: int = 0,
                    batch: int = TRAINING["batch"], span: int = TRAINING["span"],
                    vocab_size: int = FULL["vocab_size"], progress=None, threads: int = 2,
                    lr: float = TRAINING["lr"], min_span: int | None = None, bos: bool = True,
                    weight_decay: float = 0.01, **model_kwargs):
    """Build AttentionOnly(vocab_size, seed=seed, **model_kwargs), fit it; -> (model, losses).

    The defaults are the shipped recipe (FULL, TRAINING); model_kwargs default to FULL's.
    Deterministic given its arguments: the same seed gives the same weights (on the same torch
    version and thread count). progress: called as progress(step, loss) after every step.
    """
    config = {k: v for k, v in FULL.items() if k != "vocab_size"}
    config.update(model_kwargs)
    model = AttentionOnly(vocab_size, seed=seed, **config)
    losses = fit(model, steps, seed, threads, progress, batch=batch, span=span,
                 min_span=min_span, bos=bos, lr=lr, weight_decay=weight_decay)
    return model, losses
