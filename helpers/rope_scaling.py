"""Longer contexts for a RoPE model by changing its rotation frequencies.

RoPE turns feature pair i of the token at position m by m · θ_i, θ_i = base^(-2i/d). A model
trained on L positions has seen angles up to L · θ_i only. To run it at s · L positions
(s = `factor`):
- position interpolation (Chen et al. 2023, arXiv:2306.15595) divides every position by s:
  all angles stay in the trained range, but neighbouring tokens get closer in angle;
- "NTK-aware" scaling (bloc97 2023; YaRN paper arXiv:2309.00071 §3.1) raises the base to
  base · s^(d/(d-2)): the fastest pair (i = 0) keeps its frequency and the slowest is
  divided by exactly s, so high frequencies (local order) are untouched;
- YaRN's "NTK-by-parts" (arXiv:2309.00071 §3.2) interpolates only the pairs whose wavelength
  is long compared with L, leaves the short ones alone and blends those in between; §3.3
  also sharpens the softmax by `yarn_attention_scale(s)`.
  The blend has two forms. The paper's equations ramp linearly in the number of turns
  r = L / λ a pair makes over L (`ramp="paper"`). The code models run, the authors'
  (github.com/jquesnelle/yarn, scaled_rope/LlamaYaRNScaledRotaryEmbedding.py) and Hugging
  Face's (`_compute_yarn_parameters` in transformers' modeling_rope_utils.py), ramps linearly
  in the pair INDEX, between the floor of the pair where r = beta_fast and the ceiling of the
  pair where r = beta_slow (`yarn_correction_range`, `ramp="code"`, the default). Both keep
  the pairs with r > beta_fast and interpolate those with r < beta_slow; in between they
  differ (d = 128, L = 4096, s = 4: pair 32 is divided by 1.53 in the code, by 2.61 in the
  paper's form).
- Llama 3.1's "llama3" scaling (Meta, shipped in Llama-3.1's config.json: rope_theta 500000,
  factor 8, low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192) is
  NTK-by-parts with the ramp set by wavelength: pairs whose wavelength is longer than
  L / low_freq_factor are divided by s, those shorter than L / high_freq_factor are kept, and
  in between θ' = (1 - smooth) θ / s + smooth θ with smooth = (L / λ - low) / (high - low).
- dynamic NTK (Hugging Face's "dynamic" type) raises the base only once the sequence is
  longer than L, by as much as its length T needs: base · (s T / L - (s - 1))^(d/(d-2)).
Angles are NumPy float64; pass the frequencies to `helpers.positions.apply_rope(inv_freq=)`.
"""

from __future__ import annotations

import math
import numbers

import numpy as np


def _check_width(d) -> int:
    if isinstance(d, bool) or int(d) != d or d < 2 or d % 2:
        raise ValueError(f"d must be an even positive head width (pairs of features); got {d!r}")
    return int(d)


def _check_positive(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
        raise ValueError(f"{name} must be a positive number; got {value!r}")
    return float(value)


def rope_inv_frequencies(d: int, base: float = 10000.0) -> np.ndarray:
    """(d/2,): θ_i = base^(-2i/d), from 1 (pair 0, fastest) down to base^(-(d-2)/d)."""
    d, base = _check_width(d), _check_positive("base", base)
    return base ** (-np.arange(0, d, 2) / d)


def rope_angles(positions, inv_freq) -> np.ndarray:
    """(T,) positions, (d/2,) frequencies -> (T, d/2) angles positions[t] · inv_freq[i]."""
    positions = np.asarray(positions, dtype=float)
    inv_freq = np.asarray(inv_freq, dtype=float)
    if positions.ndim != 1 or inv_freq.ndim != 1:
        raise ValueError(
            f"positions must be (T,) and inv_freq (d/2,); got shapes {positions.shape} "
            f"and {inv_freq.shape}"
        )
    return positions[:, None] * inv_freq[None, :]  # (T, d/2)


def interpolated_rope_angles(positions, d: int, factor: float, base: float = 10000.0):
    """(T, d/2) angles of position interpolation: (positions / factor) · θ_i."""
    factor = _check_positive("factor", factor)
    return rope_angles(np.asarray(positions, dtype=float) / factor, rope_inv_frequencies(d, base))


def ntk_inv_frequencies(d: int, factor: float, base: float = 10000.0) -> np.ndarray:
    """(d/2,) θ_i with the base raised to base · factor^(d/(d-2)) ("NTK-aware" scaling)."""
    d, factor = _check_width(d), _check_positive("factor", factor)
    if d == 2:
        raise ValueError("NTK-aware scaling needs d >= 4: with one pair, d/(d-2) divides by 0")
    return rope_inv_frequencies(d, _check_positive("base", base) * factor ** (d / (d - 2)))


def yarn_ramp(r, beta_slow: float = 1.0, beta_fast: float = 32.0):
    """The paper's γ(r): 0 below beta_slow (interpolate), 1 above beta_fast (keep), linear in r.

    r = L / λ_i is how many full turns pair i makes over the trained length L. (The released
    code ramps linearly in the pair index instead: see `yarn_inv_frequencies`.)
    """
    _check_betas(beta_fast, beta_slow)
    return np.clip((np.asarray(r, dtype=float) - beta_slow) / (beta_fast - beta_slow), 0.0, 1.0)


def yarn_correction_range(d: int, original_max_len: int, base: float = 10000.0,
                          beta_fast: float = 32.0, beta_slow: float = 1.0) -> tuple[int, int]:
    """(low, high): the pair indices between which the released YaRN code ramps.

    Pair i makes r_i = L θ_i / 2π turns over L, so the (real-valued) pair that makes r turns is
    i(r) = d · ln(L / (2π r)) / (2 ln base). low = floor(i(beta_fast)), high =
    ceil(i(beta_slow)), clamped to [0, d - 1] as the reference code clamps them.
    """
    d = _check_width(d)
    L = _check_positive("original_max_len", original_max_len)
    base = _check_positive("base", base)
    _check_betas(beta_fast, beta_slow)

    def pair_making(turns):
        return d * math.log(L / (turns * 2 * math.pi)) / (2 * math.log(base))

    return max(math.floor(pair_making(beta_fast)), 0), min(math.ceil(pair_making(beta_slow)), d - 1)


def _check_betas(beta_fast, beta_slow) -> None:
    if not beta_fast > beta_slow:
        raise ValueError(
            f"beta_fast must be larger than beta_slow; got beta_fast={beta_fast}, "
            f"beta_slow={beta_slow}"
        )


RAMPS = ("code", "paper")


def yarn_inv_frequencies(d: int, factor: float, original_max_len: int, base: float = 10000.0,
                         beta_fast: float = 32.0, beta_slow: float = 1.0,
                         ramp: str = "code") -> np.ndarray:
    """(d/2,) θ_i' = (1 - γ_i) θ_i / s + γ_i θ_i: γ_i = 1 keeps pair i, γ_i = 0 interpolates it.

    ramp="code" (what released checkpoints run): γ_i = 1 - clip((i - low) / (high - low), 0, 1)
        with (low, high) = `yarn_correction_range`, linear in the pair index i.
    ramp="paper" (the paper's equation): γ_i = `yarn_ramp`(r_i), linear in r_i = L / λ_i,
        λ_i = 2π / θ_i.
    Either way pairs that turn more than beta_fast times over L keep θ_i and pairs that turn
    less than beta_slow times are interpolated (θ_i / s); the ones in between are blended.
    """
    factor = _check_positive("factor", factor)
    L = _check_positive("original_max_len", original_max_len)
    if ramp not in RAMPS:
        raise ValueError(f"ramp must be one of {RAMPS}; got {ramp!r}")
    theta = rope_inv_frequencies(d, base)  # (d/2,)
    if ramp == "paper":
        r = L / (2 * math.pi / theta)  # (d/2,): turns over the trained length
        gamma = yarn_ramp(r, beta_slow, beta_fast)
    else:
        low, high = yarn_correction_range(d, L, base, beta_fast, beta_slow)
        if high == low:
            high += 0.001  # as the reference code does: no division by zero
        gamma = 1.0 - np.clip((np.arange(len(theta)) - low) / (high - low), 0.0, 1.0)
    return (1 - gamma) * theta / factor + gamma * theta


def yarn_attention_scale(factor: float) -> float:
    """YaRN's √(1/t) = 0.1 · ln(s) + 1 (§3.3) for s > 1, and 1 for s <= 1 (no extension), as
    the reference code has it: multiply q and k by it (the logits by its square)."""
    factor = _check_positive("factor", factor)
    return 1.0 if factor <= 1 else 0.1 * math.log(factor) + 1.0


def llama3_inv_frequencies(d: int, factor: float = 8.0, original_max_len: int = 8192,
                           base: float = 500000.0, low_freq_factor: float = 1.0,
                           high_freq_factor: float = 4.0) -> np.ndarray:
    """(d/2,) θ_i' of Llama 3.1's "llama3" RoPE scaling; the defaults are the shipped ones.
    `llama3_scaled` applied to RoPE's θ_i = base^(-2i/d)."""
    return llama3_scaled(rope_inv_frequencies(d, base), factor, original_max_len,
                         low_freq_factor, high_freq_factor)


def llama3_scaled(inv_freq, factor: float = 8.0, original_max_len: int = 8192,
                  low_freq_factor: float = 1.0, high_freq_factor: float = 4.0) -> np.ndarray:
    """(d/2,) frequencies θ_i -> a new (d/2,) array of their "llama3" scaled θ_i'.

    λ_i = 2π / θ_i. λ_i < L / high_freq_factor (fast pairs): θ_i kept; λ_i > L /
    low_freq_factor (slow pairs): θ_i / factor; in between, θ_i' = (1 - smooth) θ_i / factor +
    smooth θ_i with smooth = (L / λ_i - low_freq_factor) / (high_freq_factor - low_freq_factor),
    which is 0 at λ = L / low and 1 at λ = L / high: a ramp in the turns L / λ, continuous.
    The rule of `_compute_llama3_parameters` in Hugging Face transformers
    (src/transformers/modeling_rope_utils.py), which Meta's llama-models code
    (models/llama3/reference_impl/model.py, apply_scaling) also has.
    """
    factor = _check_positive("factor", factor)
    L = _check_positive("original_max_len", original_max_len)
    low = _check_positive("low_freq_factor", low_freq_factor)
    high = _check_positive("high_freq_factor", high_freq_factor)
    if not high > low:
        raise ValueError(f"high_freq_factor must be larger than low_freq_factor; got "
                         f"low_freq_factor={low_freq_factor}, high_freq_factor={high_freq_factor}")
    theta = np.asarray(inv_freq, dtype=float)  # (d/2,)
    if theta.ndim != 1 or not (theta > 0).all():
        raise ValueError(f"inv_freq must be a 1-D array of positive frequencies; got "
                         f"shape {theta.shape}")
    wavelength = 2 * math.pi / theta  # (d/2,)
    smooth = (L / wavelength - low) / (high - low)  # (d/2,): 0 where slow, 1 where fast
    blended = (1 - smooth) * theta / factor + smooth * theta
    return np.where(wavelength < L / high, theta,
                    np.where(wavelength > L / low, theta / factor, blended))


def dynamic_ntk_base(d: int, factor: float, seq_len: int, original_max_len: int,
                     base: float = 10000.0) -> float:
    """The base dynamic NTK uses for a sequence of seq_len positions: `base` up to
    original_max_len, then base · (factor · seq_len / L - (factor - 1))^(d/(d-2)).

    The bracket is 1 at seq_len = L (the base grows continuously from there) and
    factor² - factor + 1 at seq_len = factor · L.
    As `_compute_dynamic_ntk_parameters` in Hugging Face transformers' modeling_rope_utils.py.
    """
    d, factor = _check_width(d), _check_positive("factor", factor)
    L = _check_positive("original_max_len", original_max_len)
    T = _check_positive("seq_len", seq_len)
    base = _check_positive("base", base)
    if d == 2:
        raise ValueError("dynamic NTK needs d >= 4: with one pair, d/(d-2) divides by 0")
    T = max(T, L)  # shorter sequences keep the trained base
    return base * (factor * T / L - (factor - 1)) ** (d / (d - 2))


def dynamic_ntk_inv_frequencies(d: int, factor: float, seq_len: int, original_max_len: int,
                                base: float = 10000.0) -> np.ndarray:
    """(d/2,) θ_i of RoPE with `dynamic_ntk_base`: unchanged up to original_max_len."""
    return rope_inv_frequencies(d, dynamic_ntk_base(d, factor, seq_len, original_max_len, base))
