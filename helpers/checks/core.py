"""The machinery every exercise check uses: compare with the reference, name the mistake.

A check calls the student's function on canonical inputs, compares the result with the
reference implementation and, when it differs, compares it with the result of each known
mistake. A match names the misconception in the AssertionError; a pass prints one line.
"""

from __future__ import annotations

import numpy as np
import torch


def passed(what: str) -> None:
    """The one line a passing check prints."""
    print(f"✔ {what}")


def as_array(value, name: str) -> np.ndarray:
    """The student's result as a float NumPy array, or a clear AssertionError."""
    if value is None:
        raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise AssertionError(
            f"{name}: expected an array of numbers, got {type(value).__name__}"
        ) from None


def _close(a: np.ndarray, b: np.ndarray, atol: float, rtol: float) -> bool:
    return a.shape == b.shape and np.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True)


def compare(student, expected, *, name: str, mistakes=(), atol=1e-6, rtol=1e-5) -> None:
    """Raise AssertionError unless `student` matches `expected`.

    mistakes: (message, wrong_value) pairs. When the student's result matches a wrong value,
    the message, which should name the misconception, becomes the error.
    """
    got = as_array(student, name)
    want = as_array(expected, "reference")
    if _close(got, want, atol, rtol):
        return
    for message, wrong in mistakes:
        if _close(got, as_array(wrong, "mistake"), atol, rtol):
            raise AssertionError(f"{name}: {message}")
    if got.shape != want.shape:
        raise AssertionError(f"{name}: expected shape {want.shape}, got shape {got.shape}")
    nan_where = np.isnan(got) & ~np.isnan(want)
    if nan_where.any():
        idx = tuple(int(i) for i in np.argwhere(nan_where)[0])
        raise AssertionError(
            f"{name}: your result contains NaN (first at index {idx}) where the reference has "
            "none. A row of all -inf scores (every key blocked), or exp of a large number, "
            "produces NaN."
        )
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(got - want))
    diff = np.where(np.isnan(diff), np.inf, diff)  # a number where the reference has NaN
    idx = tuple(int(i) for i in np.unravel_index(np.argmax(diff), diff.shape))
    raise AssertionError(
        f"{name}: wrong values. At index {idx} the reference is {want[idx]:.4g} and yours is "
        f"{got[idx]:.4g} (largest of the differences)."
    )


def expect_error(fn, *args, error=ValueError, name: str, hint: str = "") -> None:
    """Assert that fn(*args) raises `error`; the student's code should reject bad input."""
    try:
        fn(*args)
    except error:
        return
    except NotImplementedError:
        raise
    except Exception as e:  # a different exception teaches something too
        raise AssertionError(
            f"{name}: expected {error.__name__}, but your code raised "
            f"{type(e).__name__}: {e}. {hint}"
        ) from None
    raise AssertionError(f"{name}: expected {error.__name__}, but nothing was raised. {hint}")
