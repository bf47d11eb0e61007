"""helpers.masks.sliding_window_mask: a causal mask with a horizon of `window` keys."""

import numpy as np
import pytest

from helpers.attention import attention
from helpers.masks import causal_mask, leaks_future, sliding_window_mask


@pytest.mark.parametrize("T, window", [(1, 1), (6, 1), (6, 3), (7, 4), (5, 5), (4, 9)])
def test_matches_its_definition(T, window):
    m = sliding_window_mask(T, window)
    expected = [[i - window < j <= i for j in range(T)] for i in range(T)]
    assert m.dtype == bool and m.shape == (T, T)
    assert m.tolist() == expected
    ones = np.ones((T, T), dtype=bool)
    band = np.tril(ones) & np.triu(ones, -(window - 1))
    np.testing.assert_array_equal(m, band)


def test_each_row_keeps_the_window_most_recent_keys_itself_included():
    m = sliding_window_mask(10, 3)
    assert m.diagonal().all()  # every query reads itself
    assert not m[np.triu_indices(10, k=1)].any()  # and nothing after itself
    np.testing.assert_array_equal(m.sum(axis=1), np.minimum(np.arange(10) + 1, 3))


def test_extremes_are_the_diagonal_and_the_causal_mask():
    np.testing.assert_array_equal(sliding_window_mask(5, 1), np.eye(5, dtype=bool))
    np.testing.assert_array_equal(sliding_window_mask(5, 5), causal_mask(5))
    np.testing.assert_array_equal(sliding_window_mask(5, 50), causal_mask(5))


def test_no_future_leaks_and_old_tokens_are_forgotten():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(8, 4))
    w = rng.normal(size=(3, 4, 4))
    mask = sliding_window_mask(8, 3)

    def layer(x):
        return attention(x @ w[0], x @ w[1], x @ w[2], mask)[0]

    assert not leaks_future(layer, x).any()
    moved = np.abs(layer(x + np.eye(8)[0][:, None]) - layer(x)).max(axis=1)  # change token 0
    assert (moved[:3] > 1e-9).all() and (moved[3:] < 1e-12).all()  # only rows 0..2 read it


@pytest.mark.parametrize("T, window, match", [
    (0, 2, "T must be a positive whole number"),
    (4, 0, "window must be a positive whole number"),
    (4, 1.5, "window must be a positive whole number"),
])
def test_bad_arguments(T, window, match):
    with pytest.raises(ValueError, match=match):
        sliding_window_mask(T, window)
