"""Interactive explorers: move a control, watch the attention weights change.

Each explorer is a function that returns an `Explorer`, an ipywidgets box of controls, a
one-line readout and a picture:

- `scaling_explorer()` (lesson 03): d_k and the √d_k scale -> one row of softmax weights.
- `mask_explorer(tokens, scores)` (lesson 04): none / causal / reversed causal / padding.
- `heads_explorer(model, tokenizer)` (lessons 05, 08 and 11): one head's weights over your text.
- `position_explorer()` (lesson 06): sinusoidal or RoPE scores at every pair of positions.
- `kv_cache_explorer()` (lesson 10): a model's KV cache and decode time against context.

What an explorer shows is computed by a pure function of its control values (`scaling_view`,
`mask_view`, `heads_view`, `position_view`, `kv_cache_view`), which returns a dict (the
"view"), and drawn by a pure function of that view (`draw_scaling`, ...). The tests call these
directly, and drive a widget by setting a control and reading `explorer.view` and `explorer.text`.

The picture is a PNG drawn with matplotlib's Agg renderer into a `widgets.Image`: it looks the
same in JupyterLab, VS Code, nbclient and the tests, and no figure leaks into a cell's output.
"""

from __future__ import annotations

import dataclasses
import html
import io
import math
from collections.abc import Callable
from functools import lru_cache

import ipywidgets as widgets
import numpy as np
import torch
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from helpers.attention import softmax
from helpers.configs import ALL_PRESETS, kv_cache_bytes
from helpers.heads import MultiHeadAttention
from helpers.induction import (
    AttentionOnly,
    attention_patterns,
    ending_induction_score,
    previous_token_score,
    repeated_ending,
)
from helpers.masks import additive_bias, causal_mask, padding_mask
from helpers.plots import attention_heatmap, heatmap
from helpers.positions import apply_rope, sinusoidal_encoding
from helpers.scaling import entropy, row_weights, score_rows

DPI = 100


# ---------------------------------------------------------------------------------------------
# The widget every explorer is


class Explorer(widgets.VBox):
    """Controls, a readout line and a picture; `refresh` runs whenever a control changes.

    controls: name -> widget with a `value`; compute(**values) -> view (a dict);
    describe(view) -> one line of text; draw(view, fig) draws the view onto a Figure.
    After every change: `view` holds the computed data, `text` the readout line and
    `image.value` the PNG. A ValueError from compute (a character the model does not know,
    say) is shown in the readout and kept in `error`; the picture keeps the last good view.
    """

    def __init__(
        self,
        name: str,
        controls: dict[str, widgets.ValueWidget],
        compute: Callable[..., dict],
        describe: Callable[[dict], str],
        draw: Callable[[dict, Figure], None],
        figsize: tuple[float, float],
    ):
        self.name = name
        self.controls = dict(controls)
        self._compute, self._describe, self._draw = compute, describe, draw
        self.figsize = figsize
        self.view: dict | None = None
        self.text = ""
        self.error: str | None = None
        self.readout = widgets.HTML()
        self.readout.add_class("explorer-readout")
        width = f"{round(figsize[0] * DPI)}px"  # natural size: a VBox would stretch it blurry
        self.image = widgets.Image(format="png", layout=widgets.Layout(
            width=width, max_width="100%", height="auto", align_self="flex-start"))
        self.image.add_class("explorer-image")
        wrap = widgets.Layout(flex_flow="row wrap")
        bar = widgets.HBox(list(self.controls.values()), layout=wrap)
        super().__init__([bar, self.readout, self.image])
        self.add_class("attention-explorer")
        for control in self.controls.values():
            control.observe(self.refresh, names="value")
        self.refresh()

    def values(self) -> dict:
        """The current value of every control, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def refresh(self, change=None) -> None:
        """Recompute the view from the controls, then the readout and the picture."""
        try:
            view = self._compute(**self.values())
        except ValueError as err:
            self.error = str(err)
            self.readout.value = f'<span style="color:#b00020">{html.escape(self.error)}</span>'
            return
        self.view, self.error = view, None
        self.text = self._describe(view)
        self.readout.value = f"<b>{html.escape(self.text)}</b>"
        self.image.value = render_png(self._draw, view, self.figsize)

    def __repr__(self) -> str:  # a cell's text/plain, shown where the widget cannot be
        return f"{self.name}: run this cell in Jupyter to move its controls"


def render_png(draw: Callable[[dict, Figure], None], view: dict, figsize) -> bytes:
    """Draw `view` onto a fresh Agg Figure (never pyplot's) and return the PNG bytes.

    The draw functions set fixed margins (`subplots_adjust`) instead of a layout engine:
    constrained layout would double the time of every redraw.
    """
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    draw(view, fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def _choices(options, value, description: str) -> widgets.ToggleButtons:
    return widgets.ToggleButtons(
        options=options, value=value, description=description,
        style={"button_width": "auto"},
    )


# ---------------------------------------------------------------------------------------------
# 1. Scaling (lesson 03)

D_K_STEPS = tuple(2**i for i in range(11))  # 1, 2, 4, ..., 1024: log-spaced widths


def scaling_view(d_k: int = 64, scaled: bool = True, row: int = 0, n_keys: int = 16) -> dict:
    """One random query row scored against `n_keys` random keys of width d_k (seed = row).

    The row is `helpers.scaling.row_weights(d_k, scaled=..., n_rows=1, n_keys=n_keys,
    seed=row)[0]`: at d_k = 64 and row 0 it is the row of lesson 03, section 4.
    """
    scores = score_rows(d_k, scaled=scaled, n_rows=1, n_keys=n_keys, seed=row)[0]  # (n_keys,)
    weights = row_weights(d_k, scaled=scaled, n_rows=1, n_keys=n_keys, seed=row)[0]  # (n_keys,)
    return {
        "d_k": int(d_k),
        "scaled": bool(scaled),
        "row": int(row),
        "scores": scores,
        "weights": weights,
        "entropy": float(entropy(weights)),
        "uniform_entropy": math.log(n_keys),
        "max_weight": float(weights.max()),
        "argmax": int(weights.argmax()),
        "score_std": float(scores.std()),
    }


def describe_scaling(view: dict) -> str:
    how = f"÷ √{view['d_k']} = {math.sqrt(view['d_k']):.3g}" if view["scaled"] else "unscaled"
    return (
        f"d_k = {view['d_k']}, {how}: largest weight {view['max_weight']:.3f} "
        f"(key {view['argmax']}), entropy {view['entropy']:.3f} nats "
        f"(uniform {view['uniform_entropy']:.3f}, one-hot 0)"
    )


def draw_scaling(view: dict, fig: Figure) -> None:
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.16, top=0.88)
    ax = fig.add_subplot()
    w = view["weights"]
    colors = ["tab:orange" if j == view["argmax"] else "tab:blue" for j in range(len(w))]
    ax.bar(np.arange(len(w)), w, color=colors)
    ax.axhline(1 / len(w), color="gray", ls=":", lw=1)
    ax.text(len(w) - 0.5, 1 / len(w), "uniform", color="gray", ha="right", va="bottom")
    ax.set_ylim(0, 1.02)
    ax.set_xticks(np.arange(len(w)))
    ax.set_xlabel("key j")
    ax.set_ylabel("weight")
    formula = r"softmax($q\cdot k_j/\sqrt{d_k}$)" if view["scaled"] else r"softmax($q\cdot k_j$)"
    ax.set_title(
        f"{formula}, $d_k$ = {view['d_k']}: max {view['max_weight']:.2f}, "
        f"entropy {view['entropy']:.2f} nats"
    )


def scaling_explorer(d_k: int = 64, scaled: bool = True, row: int = 0) -> Explorer:
    """Slide d_k from 1 to 1024 and toggle the √d_k scale; watch one row of weights saturate."""
    if d_k not in D_K_STEPS:
        raise ValueError(f"d_k must be one of {D_K_STEPS}; got {d_k!r}")
    controls = {
        "d_k": widgets.SelectionSlider(options=D_K_STEPS, value=d_k, description="d_k"),
        "scaled": widgets.Checkbox(value=scaled, description="divide by √d_k", indent=False),
        "row": widgets.IntSlider(value=row, min=0, max=9, description="random row"),
    }
    return Explorer("scaling explorer", controls, scaling_view, describe_scaling, draw_scaling,
                    figsize=(7, 3.2))


# ---------------------------------------------------------------------------------------------
# 2. Masks (lesson 04)

MASK_KINDS = ("none", "causal", "reversed causal", "padding")
EXAMPLE_TOKENS = ("我", "把", "书", "放到", "桌上")  # lesson 04's sentence
PAD = "<pad>"


def example_scores(T: int = 5, d_model: int = 8, d_k: int = 4, seed: int = 0) -> np.ndarray:
    """(T, T) scores q kᵀ/√d_k of random hidden states: lesson 04's setup when T = 5."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, d_model))  # (T, d_model)
    W_q, W_k = (rng.normal(size=(d_model, d_k)) / np.sqrt(d_model) for _ in range(2))
    return (x @ W_q) @ (x @ W_k).T / np.sqrt(d_k)  # (T, T)


def mask_of(kind: str, T: int, length: int | None = None) -> np.ndarray:
    """(T, T) boolean mask, True = may attend. padding: keys length..T-1 are pads."""
    if kind == "none":
        return np.ones((T, T), dtype=bool)
    if kind == "causal":
        return causal_mask(T)
    if kind == "reversed causal":
        return causal_mask(T).T  # np.triu: the bug of lesson 04, row i keeps i..T-1
    if kind == "padding":
        keys = padding_mask([T if length is None else length], T)  # (1, T): True = real
        return np.broadcast_to(keys, (T, T)).copy()  # every query may read the real keys
    raise ValueError(f"mask must be one of {MASK_KINDS}; got {kind!r}")


def mask_view(kind: str = "causal", length: int | None = None, tokens=EXAMPLE_TOKENS,
              scores=None) -> dict:
    """Weights of a sentence's scores under one mask, and which of them read the future.

    length: how many tokens of the sentence are real (default all). none / causal / reversed
    causal show those `length` tokens; padding pads them to len(tokens) with <pad> keys.
    scores: (T, T) with T = len(tokens); default `example_scores(T)`.
    """
    tokens = list(tokens)
    T = len(tokens)
    scores = example_scores(T) if scores is None else np.asarray(scores, dtype=float)
    if scores.shape != (T, T):
        raise ValueError(f"scores must be (T, T) = ({T}, {T}) for {T} tokens; got {scores.shape}")
    length = T if length is None else int(length)
    if not 1 <= length <= T:
        raise ValueError(f"length must lie in 1..{T}; got {length}")
    if kind == "padding":
        labels = tokens[:length] + [PAD] * (T - length)
        mask = mask_of(kind, T, length)
    else:
        labels, scores = tokens[:length], scores[:length, :length]
        mask = mask_of(kind, length)
    n = len(labels)
    weights = softmax(scores + additive_bias(mask))  # (n, n): the bias goes in before softmax
    later = np.triu(np.ones((n, n), dtype=bool), k=1)  # [i, j] is True when key j > query i
    future = later & (weights > 0)
    return {
        "kind": kind,
        "length": length,
        "labels": labels,
        "mask": mask,
        "weights": weights,
        "future": future,
        "n_future": int(future.sum()),
        "future_weight": float(weights[future].max()) if future.any() else 0.0,
        "row_sums": weights.sum(axis=-1),
    }


def describe_mask(view: dict) -> str:
    pads = len(view["labels"]) - view["length"]
    what = f"{view['kind']}, {view['length']} real tokens" + (f" + {pads} pads" if pads else "")
    if view["n_future"]:
        leak = (f"{view['n_future']} weights read the future (j > i), the largest "
                f"{view['future_weight']:.3f}")
    else:
        leak = "no weight reads the future"
    return f"{what}: {leak}; every row sums to 1"


def draw_mask(view: dict, fig: Figure) -> None:
    labels = view["labels"]
    ax_mask, ax_w = fig.subplots(1, 2)
    fig.subplots_adjust(left=0.1, right=0.98, bottom=0.15, top=0.9, wspace=0.3)
    heatmap(view["mask"].astype(int), labels, labels, ax=ax_mask, fmt="d", cmap="Greys",
            vmin=0, vmax=1, title=f"{view['kind']} mask (1 = attend)",
            xlabel="key j (read from)", ylabel="query i (updated)")
    attention_heatmap(view["weights"], labels, labels, ax=ax_w, title="weights")
    for i, j in np.argwhere(view["future"]):
        ax_w.add_patch(Rectangle((j, i), 1, 1, fill=False, edgecolor="red", lw=2.5))
    if view["n_future"]:
        ax_w.set_title("weights (red: reads the future)", color="red")


def mask_explorer(tokens=EXAMPLE_TOKENS, scores=None, kind: str = "causal") -> Explorer:
    """Pick a mask and how many tokens are real; future-reading weights get a red outline.

    tokens, scores: a sentence and its (T, T) scores (default: lesson 04's).
    """
    tokens = list(tokens)
    scores = example_scores(len(tokens)) if scores is None else np.asarray(scores, dtype=float)
    controls = {
        "kind": _choices(MASK_KINDS, kind, "mask"),
        "length": widgets.IntSlider(value=len(tokens), min=1, max=len(tokens),
                                    description="real tokens"),
    }

    def compute(kind, length):
        return mask_view(kind, length, tokens, scores)

    return Explorer("mask explorer", controls, compute, describe_mask, draw_mask,
                    figsize=(8.4, 3.6))


# ---------------------------------------------------------------------------------------------
# 3. Heads (lessons 05 and 08)

MAX_CHARS = 40


@lru_cache(maxsize=4)
def example_stack(n_layers: int = 2, n_heads: int = 4, d_model: int = 32,
                  seed: int = 0) -> torch.nn.ModuleList:
    """`n_layers` random `MultiHeadAttention` layers (float64, seeded, eval mode).

    Every projection weight is drawn from N(0, 1/d_model), so unit-variance inputs give each
    head scores of variance about 1 (lesson 03): the heads differ visibly, where PyTorch's
    default initialisation would leave every head almost uniform.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        layers = torch.nn.ModuleList(
            MultiHeadAttention(d_model, n_heads) for _ in range(n_layers)
        ).double().eval()
        with torch.no_grad():
            for name, p in layers.named_parameters():
                if name.endswith("weight"):
                    p.normal_(0.0, 1 / math.sqrt(d_model))
    return layers


def char_inputs(text: str, d_model: int = 32, seed: int = 0) -> torch.Tensor:
    """(1, T, d_model): a fixed random vector per character plus its sinusoidal position."""
    rows = [np.random.default_rng([seed, ord(c)]).standard_normal(d_model) for c in text]
    x = np.stack(rows) + sinusoidal_encoding(len(text), d_model)  # (T, d_model)
    return torch.as_tensor(x)[None]


def _attention_layers(model: torch.nn.Module) -> list[MultiHeadAttention]:
    layers = [m for m in model.modules() if isinstance(m, MultiHeadAttention)]
    if not layers:
        raise ValueError("the model has no helpers.heads.MultiHeadAttention layer to look into")
    return layers


def head_weights(text: str, model=None, tokenizer=None, *, causal: bool = False,
                 n_layers: int = 2, n_heads: int = 4, d_model: int = 32,
                 seed: int = 0) -> np.ndarray:
    """(n_layers, n_heads, T, T) attention weights of every head over the characters of text.

    model, tokenizer: a trained model built from `MultiHeadAttention` layers (e.g.
    `helpers.model.TinyGPT`, called as model(ids (1, T))), or lesson 11's
    `helpers.induction.AttentionOnly`, and its tokenizer (`encode(text)`; T is the number of
    ids it gives: a `SpanTokenizer` puts BOS first). Without them: `example_stack(n_layers,
    n_heads, d_model, seed)` over `char_inputs`, each layer adding its output to its input (a
    residual), causal when `causal`.
    """
    if not text:
        raise ValueError("type at least one character")
    if len(text) > MAX_CHARS:
        raise ValueError(f"at most {MAX_CHARS} characters fit the picture; got {len(text)}")
    if model is None:
        x = char_inputs(text, d_model, seed)  # (1, T, d_model)
        mask = torch.as_tensor(causal_mask(len(text))) if causal else None
        found = []
        with torch.no_grad():
            for layer in example_stack(n_layers, n_heads, d_model, seed):
                out, w = layer(x, mask=mask)  # w: (1, H, T, T)
                x = x + out
                found.append(w[0])
        return torch.stack(found).numpy()
    if tokenizer is None:
        raise ValueError("pass the model's tokenizer too, to turn the text into token ids")
    ids = torch.tensor([tokenizer.encode(text)])  # (1, T); ValueError for unknown characters
    if isinstance(model, AttentionOnly):  # lesson 11's model returns its patterns itself
        was_training = model.training
        try:
            found = attention_patterns(model, ids)  # (L, 1, H, T, T)
        finally:
            model.train(was_training)
        return found[:, 0].double().numpy()
    found = []
    hooks = [layer.register_forward_hook(lambda mod, args, output: found.append(output[1][0]))
             for layer in _attention_layers(model)]
    try:
        was_training = model.training
        model.eval()
        with torch.no_grad():
            model(ids)
    finally:
        for hook in hooks:
            hook.remove()
        model.train(was_training)
    return torch.stack(found).detach().cpu().double().numpy()  # (n_layers, H, T, T)


def _label(c: str) -> str:
    return {" ": "␣", "\n": "⏎", "\t": "⇥"}.get(c, c)


def heads_view(text: str, layer: int = 0, head: int = 0, weights=None, tokens=None) -> dict:
    """One head's (T, T) weights out of `head_weights(text, ...)` (pass them as weights).

    tokens: the label of each of the T positions (a tokenizer's `tokens(text)`); default the
    characters of text. The view also holds the head's scores on this text (lesson 11):
    "previous_token", and on the longest ending that repeats an earlier stretch ("repeat":
    (start, distance) or None) the "induction" score, the mean weight each of its queries
    gives the token after its earlier occurrence (None without a repeat).
    """
    weights = head_weights(text) if weights is None else np.asarray(weights)
    tokens = list(text) if tokens is None else list(tokens)
    if len(tokens) != weights.shape[-1]:
        raise ValueError(f"{len(tokens)} token labels for {weights.shape[-1]} positions")
    n_layers, n_heads = weights.shape[:2]
    if not (0 <= layer < n_layers and 0 <= head < n_heads):
        raise ValueError(f"layer must lie in 0..{n_layers - 1} and head in 0..{n_heads - 1}; "
                         f"got layer {layer}, head {head}")
    w = weights[layer, head]  # (T, T)
    last = w[-1]
    repeat = repeated_ending(tokens)
    return {
        "text": text,
        "labels": [_label(c) for c in tokens],
        "unit": "character" if tokens == list(text) else "token",
        "layer": int(layer),
        "head": int(head),
        "weights": w,
        "entropy": float(entropy(w).mean()),
        "last_reads": int(last.argmax()),
        "last_weight": float(last.max()),
        "previous_token": float(previous_token_score(w)) if len(tokens) > 1 else None,
        "repeat": repeat,
        "induction": None if repeat is None else float(ending_induction_score(w, *repeat)),
    }


def describe_heads(view: dict, scores: bool = False) -> str:
    """The readout line; scores: add the head's previous-token and induction scores."""
    j, labels, unit = view["last_reads"], view["labels"], view.get("unit", "character")
    line = (
        f"layer {view['layer']}, head {view['head']}, {len(labels)} {unit}s: mean entropy "
        f"{view['entropy']:.3f} nats; the last {unit} {labels[-1]!r} reads most from "
        f"{labels[j]!r} at position {j} ({view['last_weight']:.3f})"
    )
    if not scores:
        return line
    if view["previous_token"] is not None:
        line += f"; previous-token score {view['previous_token']:.2f}"
    if view["repeat"] is None:
        return line + "; no repeated ending to score induction on"
    start = view["repeat"][0]
    ending = "".join(labels[start:]).replace("␣", " ")
    return (line + f"; induction score {view['induction']:.2f} on the repeated ending "
            f"{ending!r} (positions {start}..{len(labels) - 1})")


def draw_heads(view: dict, fig: Figure) -> None:
    fig.subplots_adjust(left=0.1, right=0.98, bottom=0.1, top=0.94)
    ax = fig.add_subplot()
    attention_heatmap(view["weights"], view["labels"], view["labels"], ax=ax,
                      title=f"layer {view['layer']}, head {view['head']}",
                      annot=len(view["labels"]) <= 12)


def heads_explorer(model=None, tokenizer=None, text: str = "the cat sat on the mat", *,
                   causal: bool = False, n_layers: int = 2, n_heads: int = 4,
                   d_model: int = 32, seed: int = 0, scores: bool = False) -> Explorer:
    """Type a sentence (each character is a token); pick a layer and a head; see its weights.

    With model and tokenizer (e.g. a trained `helpers.model.TinyGPT` and its `CharTokenizer`,
    or lesson 11's `helpers.induction.AttentionOnly` and a `SpanTokenizer`) it shows that
    model's heads; otherwise a seeded stack of `n_layers` random `MultiHeadAttention` layers
    of `n_heads` heads (see `head_weights`). scores: the readout adds the head's
    previous-token score and its induction score on the text's repeated ending (lesson 11).
    """
    settings = dict(causal=causal, n_layers=n_layers, n_heads=n_heads, d_model=d_model, seed=seed)
    first = head_weights(text, model, tokenizer, **settings)  # (L, H, T, T); checks the text
    L, H = first.shape[:2]
    controls = {
        "text": widgets.Text(value=text, description="sentence", continuous_update=False,
                             layout=widgets.Layout(width="28em")),
        "layer": _choices([(f"layer {i}", i) for i in range(L)], 0, "layer"),
        "head": _choices([(f"head {h}", h) for h in range(H)], 0, "head"),
    }
    cache: dict[str, np.ndarray] = {text: first}

    def compute(text, layer, head):
        if text not in cache:
            cache.clear()  # keep only the latest sentence
            cache[text] = head_weights(text, model, tokenizer, **settings)
        tokens = tokenizer.tokens(text) if hasattr(tokenizer, "tokens") else None
        return heads_view(text, layer, head, cache[text], tokens)

    return Explorer("heads explorer", controls, compute,
                    lambda view: describe_heads(view, scores), draw_heads, figsize=(7, 5.6))


# ---------------------------------------------------------------------------------------------
# 4. Positions (lesson 06)

POSITION_KINDS = ("RoPE", "sinusoidal PE·PE", "sinusoidal added")


def position_scores(kind: str, offset: int = 0, T: int = 12, d: int = 16,
                    seed: int = 0) -> np.ndarray:
    """(T, T) scores of one query and one key placed at every pair of positions.

    Entry [a, b] puts the query at position m = offset + a and the key at n = offset + b:
    RoPE: (R_m q) · (R_n k);  sinusoidal PE·PE: PE_m · PE_n;
    sinusoidal added: (q + PE_m) · (k + PE_n), the encoding added to the content.
    """
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal(d), rng.standard_normal(d)  # (d,) each: fixed content
    positions = offset + np.arange(T)  # (T,)
    if kind == "RoPE":
        q_m = apply_rope(np.tile(q, (T, 1)), positions=positions)  # (T, d): q at every m
        k_n = apply_rope(np.tile(k, (T, 1)), positions=positions)  # (T, d): k at every n
        return q_m @ k_n.T
    pe = sinusoidal_encoding(offset + T, d)[offset:]  # (T, d): PE_m for m in positions
    if kind == "sinusoidal PE·PE":
        return pe @ pe.T
    if kind == "sinusoidal added":
        return (q + pe) @ (k + pe).T
    raise ValueError(f"kind must be one of {POSITION_KINDS}; got {kind!r}")


def diagonal_spread(S) -> float:
    """Largest max - min along any diagonal of S: 0 when S[m, n] depends only on m - n."""
    S = np.asarray(S)
    T = S.shape[0]
    return float(max(np.ptp(np.diagonal(S, offset=o)) for o in range(-T + 1, T)))


def position_view(kind: str = "RoPE", offset: int = 0, T: int = 12, d: int = 16,
                  seed: int = 0) -> dict:
    S = position_scores(kind, offset, T, d, seed)
    at_zero = S if offset == 0 else position_scores(kind, 0, T, d, seed)
    return {
        "kind": kind,
        "offset": int(offset),
        "positions": offset + np.arange(T),
        "scores": S,
        "diagonal_spread": diagonal_spread(S),
        "change_from_offset_0": float(np.abs(S - at_zero).max()),
        "distance": np.subtract.outer(np.arange(T), np.arange(T)),  # (T, T): m - n
    }


def describe_position(view: dict) -> str:
    spread, change = view["diagonal_spread"], view["change_from_offset_0"]
    p = view["positions"]
    verdict = ("depends only on m − n" if spread < 1e-9 * max(1.0, np.abs(view["scores"]).max())
               else "depends on m and n themselves")
    return (
        f"{view['kind']}, positions {p[0]}..{p[-1]}: largest spread along a diagonal "
        f"{spread:.1e}, largest change from offset 0 {change:.1e}: the score {verdict}"
    )


def draw_position(view: dict, fig: Figure) -> None:
    ax_map, ax_d = fig.subplots(1, 2, width_ratios=[1.2, 1])
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.21, top=0.92, wspace=0.25)
    S, p = view["scores"], view["positions"]
    bound = float(np.abs(S).max())
    heatmap(S, p, p, ax=ax_map, annot=False, cmap="RdBu_r", vmin=-bound, vmax=bound,
            title=f"{view['kind']}: score at (m, n)", xlabel="key position n",
            ylabel="query position m")
    ax_d.plot(view["distance"].ravel(), S.ravel(), "o", alpha=0.6)
    ax_d.set_xlabel("distance m − n")
    ax_d.set_ylabel("score")
    ax_d.set_title("every pair, by distance")


def position_explorer(kind: str = "RoPE", offset: int = 0) -> Explorer:
    """Choose RoPE or sinusoidal, slide every position by an offset; does the score move?"""
    controls = {
        "kind": _choices(POSITION_KINDS, kind, "encoding"),
        "offset": widgets.IntSlider(value=offset, min=0, max=500, description="offset"),
    }
    return Explorer("position explorer", controls, position_view, describe_position,
                    draw_position, figsize=(8.4, 3.6))


# ---------------------------------------------------------------------------------------------
# 5. KV cache and decode time (lesson 10)

ATTENTION_KINDS = ("as published", "MHA", "GQA, H/4 kv heads", "MQA", "MLA")
NUMBER_FORMATS = {"bf16": 2, "fp8": 1, "float32": 4}
WINDOWS = {"none": None, "4096": 4096, "1024": 1024}
CONTEXTS = tuple(2**i for i in range(10, 18))  # 1024 ... 131072 tokens
BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
# One GPU's memory bandwidth and memory: NVIDIA's H100 datasheet (SXM: 3.35 TB/s of HBM3,
# 80 GB) and its HGX page for the B200 of 2025 (per GPU: 7.7 TB/s of HBM3e, 180 GB; its first
# announcements said 8 TB/s and 192 GB). The lesson adds this machine's measured bandwidth.
DEVICES = {
    "H100 SXM (80 GB, 3.35 TB/s)": {"bandwidth": 3.35e12, "memory": 80e9},
    "B200 (180 GB, 7.7 TB/s)": {"bandwidth": 7.7e12, "memory": 180e9},
}


def attention_variant(config, kind: str):
    """`config` with its attention changed to `kind` (one of ATTENTION_KINDS).

    MLA on a model that does not have it takes DeepSeek-V2's proportions: d_c = 4 d_head,
    d_h^R = d_head / 2 (4.5 d_head cached per token and layer).
    """
    if kind not in ATTENTION_KINDS:
        raise ValueError(f"attention kind must be one of {ATTENTION_KINDS}; got {kind!r}")
    plain = dict(kv_latent=None, rope_head_dim=None)
    if kind == "as published":
        return config
    if kind == "MHA":
        return dataclasses.replace(config, n_kv_heads=config.n_heads, **plain)
    if kind == "MQA":
        return dataclasses.replace(config, n_kv_heads=1, **plain)
    if kind == "GQA, H/4 kv heads":
        return dataclasses.replace(config, n_kv_heads=max(1, config.n_heads // 4), **plain)
    if config.is_mla:
        return config
    return dataclasses.replace(config, kv_latent=4 * config.d_head,
                               rope_head_dim=config.d_head // 2)


def kv_cache_view(model: str = "Llama-3-8B", attention: str = "as published",
                  context: int = 8192, batch: int = 1, number_format: str = "bf16",
                  window: str = "as published", hardware: str = "H100 SXM (80 GB, 3.35 TB/s)",
                  devices=None) -> dict:
    """The KV cache of `batch` sequences against context, and the least time of one decode
    step: (weights read + every sequence's cache) bytes / bandwidth, since each step reads
    both; nothing else is counted, so the time is a lower bound and batch / time an upper
    bound on tokens per second. A mixture of experts reads the experts its batch touches
    (`helpers.roofline.weights_read`: its active parameters at batch 1, more as the batch's
    tokens pick different experts). `fits`: weights + cache within the device's memory (None
    when its memory is not given); `past_positions`: the context is longer than the model's
    configured positions.

    devices: name -> {"bandwidth": bytes/s, "memory": bytes or None}; `hardware` picks one.
    """
    from helpers.roofline import experts_touched, weights_read

    devices = DEVICES if devices is None else devices
    if model not in ALL_PRESETS:
        raise ValueError(f"model must be one of {list(ALL_PRESETS)}; got {model!r}")
    if number_format not in NUMBER_FORMATS:
        raise ValueError(f"number format must be one of {list(NUMBER_FORMATS)}; got "
                         f"{number_format!r}")
    if hardware not in devices:
        raise ValueError(f"hardware must be one of {list(devices)}; got {hardware!r}")
    config = attention_variant(ALL_PRESETS[model], attention)
    if window != "as published":
        if window not in WINDOWS:
            raise ValueError(f"window must be 'as published' or one of {list(WINDOWS)}; got "
                             f"{window!r}")
        config = dataclasses.replace(config, window=WINDOWS[window])
    nbytes = NUMBER_FORMATS[number_format]
    contexts = np.array(CONTEXTS)
    cache = np.array([kv_cache_bytes(config, int(T), batch, nbytes) for T in contexts])
    published = ALL_PRESETS[model]
    weights = published.n_params * nbytes  # what the memory holds
    read = weights_read(published, batch) * nbytes  # what one step of the batch reads
    device = devices[hardware]
    bandwidth, memory = device["bandwidth"], device.get("memory")
    here = kv_cache_bytes(config, context, batch, nbytes)
    step = (read + here) / bandwidth
    return {
        "model": model, "attention": attention, "config": config, "context": int(context),
        "batch": int(batch), "number_format": number_format, "hardware": hardware,
        "contexts": contexts, "cache_bytes": cache, "weights_bytes": weights,
        "read_bytes": read, "step_seconds": (read + cache) / bandwidth,
        "weights_seconds": read / bandwidth,
        "cache_at_context": here, "step_at_context": step,
        "tokens_per_second": batch / step,
        "per_token": kv_cache_bytes(config, 1, 1, nbytes),
        "experts_touched": experts_touched(published, batch),
        "memory": memory, "needed_bytes": weights + cache,
        "fits": None if memory is None else bool(weights + here <= memory),
        "max_positions": published.max_positions,
        "past_positions": (published.max_positions is not None
                           and context > published.max_positions),
    }


def describe_kv_cache(view: dict) -> str:
    c = view["config"]
    heads = (f"MLA, {c.kv_latent} + {c.rope_head_dim} cached per layer" if c.is_mla
             else f"{c.n_kv_heads} of {c.n_heads} kv heads")
    past = (f" (past its {view['max_positions']:,d} positions)" if view["past_positions"]
            else "")
    text = (
        f"{view['model']} ({heads}), {view['number_format']}: "
        f"{view['per_token'] / 2**10:.1f} KiB per token; {view['batch']} x "
        f"{view['context']:,d} tokens{past}: cache {view['cache_at_context'] / 2**30:.2f} GiB, "
        f"weights {view['weights_bytes'] / 2**30:.1f} GiB"
    )
    needed = view["weights_bytes"] + view["cache_at_context"]
    if view["fits"] is False:
        return (f"{text}; together {needed / 2**30:.1f} GiB ({needed / 1e9:.1f} GB, the "
                f"unit GPU memory is sold in): does NOT fit in the "
                f"{view['memory'] / 1e9:.0f} GB of one {view['hardware']}")
    per_sequence = 1 / view["step_at_context"]
    rate = (f"at most {per_sequence:,.0f} tokens/s" if view["batch"] == 1 else
            f"at most {view['tokens_per_second']:,.0f} tokens/s ({per_sequence:,.0f} per sequence)")
    text += (f"; decode step at least {view['step_at_context'] * 1e3:.2f} ms on "
             f"{view['hardware']} (memory-bound): {rate}")
    if view["experts_touched"] is not None:
        text += (f"; the step reads {view['read_bytes'] / 1e9:.0f} GB of weights, the "
                 f"{view['experts_touched']:.0f} of {c.n_experts} experts per layer "
                 f"{view['batch']} token{'s' if view['batch'] > 1 else ''} use"
                 f"{'' if view['batch'] > 1 else 's'}"
                 f"{' if routed uniformly' if view['batch'] > 1 else ''}")
    return text


def draw_kv_cache(view: dict, fig: Figure) -> None:
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.15, top=0.88, wspace=0.3)
    ax_m, ax_t = fig.subplots(1, 2)
    T = view["contexts"]
    ax_m.plot(T, view["cache_bytes"] / 2**30, "o-", label=f"KV cache, batch {view['batch']}")
    ax_m.axhline(view["weights_bytes"] / 2**30, color="gray", ls="--", lw=1, label="weights")
    if view["memory"] is not None:
        ax_m.plot(T, view["needed_bytes"] / 2**30, ":", color="black", lw=1,
                  label="weights + cache")
        ax_m.axhline(view["memory"] / 2**30, color="tab:red", lw=1,
                     label=f"memory of one GPU ({view['memory'] / 1e9:.0f} GB)")
    ax_m.set_ylabel("GiB")
    ax_m.set_title("memory")
    ax_t.plot(T, view["step_seconds"] * 1e3, "o-", color="tab:red", label="weights + cache")
    ax_t.axhline(view["weights_seconds"] * 1e3, color="gray", ls="--", lw=1,
                 label="weights alone")
    ax_t.set_ylabel("ms per decode step (memory-bound)")
    ax_t.set_title(view["hardware"])
    for ax in (ax_m, ax_t):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))  # 1, 2, 5, 10, 20, ...
        ax.yaxis.set_major_formatter(_plain)
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("context (tokens)")
        ax.axvline(view["context"], color="black", lw=0.8, ls=":")
        if view["max_positions"] is not None and view["max_positions"] < T[-1]:
            ax.axvspan(view["max_positions"], T[-1] * 1.5, color="gray", alpha=0.15,
                       label=f"past its {view['max_positions']:,d} positions")
        ax.set_xlim(T[0] / 1.5, T[-1] * 1.5)
        ax.legend(fontsize=7)


_plain = FuncFormatter(lambda value, _: f"{value:g}")  # 0.5, 2, 300: not 5 x 10^-1


def kv_cache_explorer(model: str = "Llama-3-8B", attention: str = "as published",
                      context: int = 8192, *, devices=None) -> Explorer:
    """Pick a model, an attention kind, context, batch, number format, a window and a GPU;
    watch the KV cache, whether it fits, and the least time of a decode step. `devices`:
    name -> {"bandwidth": bytes/s, "memory": bytes or None} to choose from (by default an
    H100's and a B200's)."""
    devices = dict(DEVICES if devices is None else devices)
    if context not in CONTEXTS:
        raise ValueError(f"context must be one of {CONTEXTS}; got {context!r}")
    controls = {
        "model": widgets.Dropdown(options=list(ALL_PRESETS), value=model, description="model"),
        "attention": widgets.Dropdown(options=ATTENTION_KINDS, value=attention,
                                      description="attention"),
        "context": widgets.SelectionSlider(options=CONTEXTS, value=context,
                                           description="context"),
        "batch": widgets.SelectionSlider(options=BATCHES, value=1, description="batch"),
        "number_format": _choices(tuple(NUMBER_FORMATS), "bf16", "numbers"),
        "window": widgets.Dropdown(options=("as published", *WINDOWS), value="as published",
                                   description="window"),
        "hardware": widgets.Dropdown(options=list(devices), value=next(iter(devices)),
                                     description="GPU"),
    }

    def compute(**values):
        return kv_cache_view(**values, devices=devices)

    return Explorer("KV-cache explorer", controls, compute, describe_kv_cache, draw_kv_cache,
                    figsize=(9, 3.6))
