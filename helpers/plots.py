"""Heatmaps for weight matrices, labelled with tokens (Chinese ones included).

Importing this module registers the Noto Sans CJK font shipped by the `noto-cjk-sans-otc`
package, so labels like 我 爱 你 render instead of empty boxes, and matplotlib prints no
missing-glyph warnings.
"""

from __future__ import annotations

from contextlib import contextmanager

import matplotlib.pyplot as plt
import noto_cjk_sans_otc
import numpy as np
import seaborn as sns
import torch
from matplotlib import font_manager

CJK_FONT = "Noto Sans CJK SC"


def _register_cjk_font() -> None:
    path = str(noto_cjk_sans_otc.FONT_PATH)
    if not any(f.fname == path for f in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(path)
    plt.rcParams["font.family"] = "sans-serif"
    plt.rcParams["font.sans-serif"] = [CJK_FONT, "DejaVu Sans"]
    plt.rcParams["axes.unicode_minus"] = True


_register_cjk_font()


def _to_numpy(x) -> np.ndarray:
    if isinstance(x, torch.Tensor):
        return x.detach().cpu().numpy()
    return np.asarray(x)


@contextmanager
def _layout_paused(fig):
    """Switch the figure's layout engine off while seaborn draws it (to see whether tick labels
    overlap): a constrained layout would be solved at every such draw, doubling the time."""
    engine = fig.get_layout_engine()
    if engine is None:
        yield
        return
    fig.set_layout_engine("none")
    try:
        yield
    finally:
        fig.set_layout_engine(engine)


def heatmap(
    matrix,
    row_labels=None,
    col_labels=None,
    *,
    ax=None,
    title=None,
    annot=None,
    fmt=".2f",
    cmap="viridis",
    center=None,
    vmin=None,
    vmax=None,
    xlabel=None,
    ylabel=None,
    cbar=True,
):
    """A labelled seaborn heatmap of any 2-D matrix. Returns the Axes.

    cbar: True draws a colour bar, False none, a string draws one labelled with it.
    """
    m = _to_numpy(matrix)
    if m.ndim != 2:
        raise ValueError(f"heatmap needs a 2-D matrix; got shape {m.shape}")
    rows, cols = m.shape
    for name, labels, n in (("row_labels", row_labels, rows), ("col_labels", col_labels, cols)):
        if labels is not None and len(labels) != n:
            raise ValueError(f"{name} has {len(labels)} labels for {n} {name[:3]}s")
    if ax is None:
        size = (min(max(3.8, 1.6 + 0.6 * cols), 12), min(max(3.0, 1.0 + 0.5 * rows), 10))
        _, ax = plt.subplots(figsize=size, layout="constrained")
    if annot is None:
        annot = rows <= 12 and cols <= 12
    with _layout_paused(ax.figure):  # seaborn draws the whole figure to check tick overlaps
        sns.heatmap(
            m,
            ax=ax,
            annot=annot,
            fmt=fmt,
            cmap=cmap,
            center=center,
            vmin=vmin,
            vmax=vmax,
            square=rows <= 12 and cols <= 12,
            xticklabels=list(col_labels) if col_labels is not None else "auto",
            yticklabels=list(row_labels) if row_labels is not None else "auto",
            cbar=bool(cbar),
            cbar_kws={"label": cbar} if isinstance(cbar, str) else None,
        )
    ax.tick_params(axis="y", rotation=0)
    if title:
        ax.set_title(title)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    return ax


def attention_heatmap(weights, q_labels=None, k_labels=None, ax=None, title=None, **kwargs):
    """Heatmap of a (T_q, T_k) weight matrix: rows are queries, columns are keys, 0..1."""
    w = _to_numpy(weights)
    if w.ndim != 2:
        raise ValueError(
            f"attention_heatmap shows one (T_q, T_k) matrix; got shape {w.shape}. "
            "Pick one batch element and head first, e.g. weights[0, h]."
        )
    kwargs.setdefault("vmin", 0.0)
    kwargs.setdefault("vmax", 1.0)
    return heatmap(
        w,
        q_labels,
        k_labels,
        ax=ax,
        title=title,
        xlabel="key j (read from)",
        ylabel="query i (updated)",
        **kwargs,
    )
