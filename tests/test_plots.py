"""helpers.plots: heatmaps keep their layout, label what they are given, refuse bad input."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers.plots import attention_heatmap, heatmap  # noqa: E402


def test_heatmap_leaves_the_figures_layout_engine_in_place():
    fig, axes = plt.subplots(1, 2, layout="constrained")
    engine = fig.get_layout_engine()
    heatmap(np.eye(3), ["a", "b", "c"], ["x", "y", "z"], ax=axes[0], title="eye")
    attention_heatmap(np.full((2, 4), 0.25), ax=axes[1])
    assert fig.get_layout_engine() is engine            # paused while seaborn drew, then back
    assert [t.get_text() for t in axes[0].get_xticklabels()] == ["x", "y", "z"]
    assert axes[0].get_title() == "eye" and axes[1].get_xlabel() == "key j (read from)"
    plain, ax = plt.subplots()                           # no layout engine at all
    heatmap(np.ones((2, 2)), ax=ax)
    assert plain.get_layout_engine() is None
    plt.close("all")


def test_heatmap_refuses_what_it_cannot_draw():
    with pytest.raises(ValueError, match="needs a 2-D matrix"):
        heatmap(np.ones(3))
    with pytest.raises(ValueError, match="row_labels has 2 labels for 3 rows"):
        heatmap(np.ones((3, 3)), ["a", "b"])
    with pytest.raises(ValueError, match="Pick one batch element and head first"):
        attention_heatmap(np.ones((1, 2, 3, 3)))


def test_heatmap_colour_bar_can_be_labelled_or_left_out():
    fig, axes = plt.subplots(1, 2)
    heatmap(np.eye(2), ax=axes[0], cbar="weight")
    heatmap(np.eye(2), ax=axes[1], cbar=False)
    labels = [ax.get_ylabel() for ax in fig.axes[2:]]        # the colour bars' own axes
    assert labels == ["weight"]                                # one bar, labelled
    plt.close("all")
