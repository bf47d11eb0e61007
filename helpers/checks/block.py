"""Checks for lesson 07 (the Transformer block): LayerNorm by hand, an FFN with a chosen
activation, a SwiGLU FFN, a Pre-Norm block matching nn.TransformerEncoderLayer, and the
parameter count of one layer.

Each check first names an anticipated mistake when the main case's result is one, then probes
the properties the answer must have, in the order the lesson teaches them (LayerNorm: each
position alone, mean 0, variance 1, eps inside the root, gamma scales, beta shifts; the FFN:
position-wise, the activation once on the hidden layer; SwiGLU: the up projection multiplies,
the gate is SiLU; the block: both residuals, then each half with the other sub-layer silenced;
the count: n_heads does not matter, each FFN unit costs 2 d_model + 1), and only then compares
the whole result, with the generic diagnosis of core.compare.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from helpers.blocks import FeedForward, LayerNorm, TransformerBlock, count_parameters
from helpers.checks import core

RESULTS = "torch"  # the exercise text fixes the library: core.call refuses the other

_FEATURES_ARE_LAST = (
    "LayerNorm normalises each position over its own d features, the last axis (dim=-1, "
    "keepdim=True), so no other token and no other example of the batch changes its output."
)

LAYER_NORM_FUNCTIONS = (
    "torch.nn.functional.layer_norm",
    "torch.layer_norm",
    "torch.native_layer_norm",
    "torch.nn.LayerNorm",
    "helpers.blocks.LayerNorm",
    "torch.nn.functional.rms_norm",
    "torch.nn.RMSNorm",
    "helpers.blocks.RMSNorm",
    "torch.nn.functional.group_norm",
    "torch.nn.GroupNorm",
    "torch.nn.functional.instance_norm",
    "torch.nn.functional.batch_norm",
)
WHOLE_LAYER_FUNCTIONS = (
    "helpers.blocks.TransformerBlock",
    "torch.nn.TransformerEncoderLayer",
    "torch.nn.TransformerEncoder",
    "torch.nn.Transformer",
)


def _tensor(value, name: str) -> torch.Tensor:
    """The student's result as a float64 tensor (for the checks' own arithmetic)."""
    return torch.as_tensor(core.as_array(value, name), dtype=torch.float64)


_close = core.matches


def _named_first(got, expected, mistakes, name: str, atol=1e-8, rtol=1e-7) -> None:
    """Fail with the anticipated mistake `got` is, if any (before the property probes)."""
    for diagnosis, message, wrong in mistakes:
        if _close(got, wrong, atol, rtol) and not _close(wrong, expected, atol, rtol):
            core.fail(f"{name}: {message}", diagnosis)


_forbid = core.forbid  # attributes (F.layer_norm), aliases, helpers, the answer itself


def _compare(got, expected, *, name: str, atol=1e-6, rtol=1e-5, **options) -> None:
    """core.compare, naming first an answer right only to float32 precision: at the tight
    tolerances used here, float32 rounding errors can all lie within a tolerance of their mean
    and read as a constant offset in the generic diagnosis."""
    g, w = core.as_array(got, name), core.as_array(expected, "reference")
    anticipated = any(wrong is not None and core.matches(g, wrong, atol, rtol)
                      for _, _, wrong in options.get("mistakes", ()))
    if (g.shape == w.shape and np.isfinite(g).all() and not core.matches(g, w, atol, rtol)
            and not anticipated and np.abs(g - w).max() <= 1e-4 * np.abs(w).max()):
        core.fail(f"{name}: your values are right to about 3 digits but not 6: computed in "
                  "float16 or float32, or rounded somewhere? Use float64 throughout.",
                  "generic.precision")  # core's words for the same diagnosis
    core.compare(got, expected, name=name, atol=atol, rtol=rtol, **options)


def _index(flat: int, shape) -> tuple:
    return tuple(int(i) for i in np.unravel_index(flat, shape))


# ---------------------------------------------------------------------------------------------
# Exercise: LayerNorm by hand


def _normalise(x, gamma, beta, eps, dims=(-1,), unbiased=False, eps_outside=False, centre=True):
    """LayerNorm's formula with one thing changed: the ingredients of the named mistakes."""
    mean = x.mean(dim=dims, keepdim=True) if centre else torch.zeros_like(x)
    if centre:
        var = x.var(dim=dims, keepdim=True, unbiased=unbiased)
    else:
        var = (x**2).mean(dim=dims, keepdim=True)  # RMSNorm's mean square
    denominator = torch.sqrt(var) + eps if eps_outside else torch.sqrt(var + eps)
    return (x - mean) / denominator * gamma + beta


def _layer_norm_cases():
    """(x, gamma, beta, eps): (B, T, d) with one almost constant position, (T, d) and (d,)."""
    g = core.torch_generator(7)  # fixed in a notebook, drawn afresh when grading

    def randn(*shape):
        return torch.randn(*shape, generator=g, dtype=torch.float64)

    x = randn(3, 4, 5) * 3 + 1  # (B=3, T=4, d=5)
    x[1, 2] = 5 + 0.01 * randn(5)  # almost constant: its variance is ~1e-4, so eps matters
    gamma, beta = 1 + 0.5 * randn(5), 0.5 * randn(5)
    x1, gamma1, beta1 = randn(7) * 2 - 1, 1 + 0.5 * randn(7), 0.5 * randn(7)  # one position
    return [(x, gamma, beta, 0.1), (x, gamma, beta, 1e-5), (x[1], gamma, beta, 0.1),
            (x1, gamma1, beta1, 0.1)]


def _layer_norm_mistakes(x, gamma, beta, eps):
    x_hat = _normalise(x, 1.0, 0.0, eps)
    wrong_axes = [
        (f"axis {d} (dim={d}), across the batch, as BatchNorm does: one mean per feature over "
         "the examples of the batch" if x.ndim == 3 and d == 0 else
         f"axis {d} (dim={d}), over the positions: one mean per feature over the sequence. "
         f"(dim={d} is the feature axis only for a {d + 1}-D x; x here is {x.ndim}-D, with any "
         "leading axes)", (d,))
        for d in range(x.ndim - 1)
    ] + [("every axis at once: one mean for the whole tensor, shared by all positions, "
          "instead of one per position", tuple(range(x.ndim))),
         ("the positions and the features together (one mean per sequence)",
          tuple(range(x.ndim))[-2:])]
    mistakes = [
        ("block.layer-norm-wrong-axis",
         f"normalised over the wrong axis: your mean and variance run over {what}. "
         + _FEATURES_ARE_LAST, _normalise(x, gamma, beta, eps, dims))
        for what, dims in wrong_axes
    ]
    return mistakes + [
        ("block.layer-norm-unbiased",
         "unbiased variance: you divided by d - 1 (torch.var's default, unbiased=True). "
         "LayerNorm uses the biased variance, the plain mean of (x - mean)^2, dividing by d.",
         _normalise(x, gamma, beta, eps, unbiased=True)),
        ("block.layer-norm-eps-outside",
         "eps outside the square root: you computed (x - mean) / (sqrt(var) + eps). "
         "LayerNorm adds eps to the variance, inside the root. The difference shows where a "
         "position's variance is small.", _normalise(x, gamma, beta, eps, eps_outside=True)),
        ("block.layer-norm-no-eps",
         "you left out eps: (x - mean) / sqrt(var). eps goes inside the square root, added to "
         "the variance; it keeps a position whose features are all equal from dividing 0 by 0.",
         _normalise(x, gamma, beta, 0.0)),
        ("block.layer-norm-eps-ignored",
         "you ignored the eps argument and used 1e-5 whatever eps was passed. Use the eps "
         "you are given.", _normalise(x, gamma, beta, 1e-5)),
        ("block.layer-norm-no-affine",
         "you forgot gamma and beta: this is the normalised x_hat itself (mean 0, variance "
         "1). Scale by gamma, then shift by beta.", x_hat),
        ("block.layer-norm-no-gamma",
         "you forgot gamma: the scale. gamma multiplies x_hat before beta is added.",
         x_hat + beta),
        ("block.layer-norm-no-beta",
         "you forgot beta: the shift, added after gamma has scaled x_hat.", x_hat * gamma),
        ("block.layer-norm-gamma-beta-swapped",
         "you swapped gamma and beta: gamma scales (multiplies) x_hat and beta shifts (is "
         "added).", x_hat * beta + gamma),
        ("block.layer-norm-shift-then-scale",
         "you shifted before scaling: (x_hat + beta) * gamma. gamma scales x_hat first, then "
         "beta is added.", (x_hat + beta) * gamma),
        ("block.layer-norm-rms",
         "you did not subtract the mean: dividing by the root mean square of x is RMSNorm, "
         "not LayerNorm. Subtract each position's mean first, then divide by the standard "
         "deviation.", _normalise(x, gamma, beta, eps, centre=False)),
        ("block.layer-norm-root-twice",
         "you took the square root twice: the denominator is the standard deviation, the "
         "square root of (variance + eps), taken once.",
         (x - x.mean(-1, keepdim=True))
         / torch.sqrt(torch.sqrt(x.var(-1, keepdim=True, unbiased=False) + eps))
         * gamma + beta),
        ("block.layer-norm-no-sqrt",
         "you divided by the variance instead of the standard deviation: x_hat divides by the "
         "square root of (variance + eps), so that its variance is 1.",
         (x - x.mean(-1, keepdim=True)) / (x.var(-1, keepdim=True, unbiased=False) + eps)
         * gamma + beta),
    ]


def _layer_norm_properties(layer_norm, x, gamma, beta, eps, name):
    """The properties of LayerNorm, in the lesson's order, on a (B, T, d) x."""
    ones, zeros = torch.ones_like(gamma), torch.zeros_like(beta)

    def run(x_in, g, b):
        return _tensor(core.call(layer_norm, x_in, g, b, eps, name="layer_norm"), name)

    # 1. each position alone: changing position (0, 0) moves no other position's output
    base = run(x, gamma, beta)
    nudged = x.clone()
    nudged[0, 0] += torch.linspace(1.0, 3.0, x.shape[-1], dtype=x.dtype)
    moved = (run(nudged, gamma, beta) - base).abs().amax(dim=-1) > 1e-9  # (B, T)
    moved[0, 0] = False
    if moved.any():
        where = "in other examples of the batch" if moved[1:].any() else "of the same sequence"
        core.fail(
            f"{name}: changing the features of position (0, 0) alone changed the output at "
            f"{int(moved.sum())} other positions ({where}): your mean or variance mixes "
            "positions. " + _FEATURES_ARE_LAST,
            "block.layer-norm-mixes-positions")
    # 2. with gamma = 1 and beta = 0, each position's output has mean 0 ...
    x_hat = run(x, ones, zeros)
    means = x_hat.mean(dim=-1)
    if means.abs().max() > 1e-5 and torch.allclose(means, means.flatten()[0], atol=1e-7):
        core.fail(f"{name}: with gamma = 1 and beta = 0 every position's output has mean "
                  f"{float(means.flatten()[0]):.4g} instead of 0: a constant is added that "
                  "should not be.", "block.layer-norm-offset")
    if not torch.allclose(means, torch.zeros_like(means), atol=1e-5):
        where = _index(int(means.abs().argmax()), means.shape)
        core.fail(
            f"{name}: with gamma = 1 and beta = 0 each position's output should have mean 0 "
            f"over its d features; yours has mean {float(means[where]):.4g} at position "
            f"{where}. Subtract each position's own mean over the last axis.",
            "block.layer-norm-not-centred")
    # 3. ... and variance 1 (eps = 1e-9 here, negligible against every position's variance)
    tiny = _tensor(core.call(layer_norm, x, ones, zeros, 1e-9, name="layer_norm"), name)
    spread = x.var(dim=-1, unbiased=False) > 1e-2  # every position but the almost constant one
    got_var = tiny.var(dim=-1, unbiased=False)[spread]
    if not torch.allclose(got_var, torch.ones_like(got_var), rtol=1e-4):
        d = x.shape[-1]
        where = _index(int(spread.flatten().nonzero()[int((got_var - 1).abs().argmax())]),
                       spread.shape)
        got_var = tiny.var(dim=-1, unbiased=False)
        if torch.allclose(got_var[spread], torch.full_like(got_var[spread], (d - 1) / d),
                          rtol=1e-4):
            core.fail(f"{name}: unbiased variance: with eps = 1e-9, gamma = 1 and beta = 0 the "
                      f"variance of your output is (d - 1) / d = {(d - 1) / d:.4g} instead of "
                      "1, as when the variance divides by d - 1. LayerNorm's variance divides "
                      "by d (unbiased=False).", "block.layer-norm-unbiased")
        core.fail(
            f"{name}: with eps = 1e-9, gamma = 1 and beta = 0 each position's output should "
            f"have variance 1; yours has {float(got_var[where]):.4g} at position {where}. "
            "Divide the centred x by its standard deviation, the square root of the variance "
            "(plus eps).", "block.layer-norm-not-unit-variance")
    # 4. eps, inside the root: it shows where a position's variance is small
    want = _normalise(x, 1.0, 0.0, eps)
    if not _close(x_hat, want):
        var_x = x.var(dim=-1, unbiased=False)
        where = _index(int((x_hat - want).abs().amax(dim=-1).argmax()), var_x.shape)
        core.fail(
            f"{name}: with gamma = 1 and beta = 0 your output is right where a position's "
            f"variance is large, but not at position {where}, whose features are almost equal "
            f"(variance {float(var_x[where]):.2g}, eps = {eps}): that is where eps matters. "
            "Use the eps argument, added to the variance inside the square root.",
            "block.layer-norm-eps")
    # 4. gamma scales x_hat, 5. beta shifts it
    if not _close(run(x, gamma, zeros), x_hat * gamma):
        core.fail(f"{name}: with beta = 0 your output should be x_hat scaled by gamma, feature "
                  "by feature (gamma has one entry per feature); it is not.",
                  "block.layer-norm-gamma")
    if not _close(run(x, ones, beta), x_hat + beta):
        core.fail(f"{name}: with gamma = 1 your output should be x_hat shifted by beta, feature "
                  "by feature; it is not.", "block.layer-norm-beta")


_BROADCAST_ERRORS = ("must match the size of tensor", "could not be broadcast")


def _call_layer_norm(layer_norm, x, gamma, beta, eps, name):
    """core.call, naming a broadcasting error: a statistic that lost its axis (no keepdim)."""
    try:
        return core.call(layer_norm, x, gamma, beta, eps, name="layer_norm")
    except (RuntimeError, ValueError) as error:
        if not any(p in str(error) for p in _BROADCAST_ERRORS):
            raise
        core.fail(
            f"{name}: your function raised a broadcasting error ({type(error).__name__}: "
            f"{error}). Most likely a mean or variance over dim=-1 without keepdim=True has shape "
            f"{tuple(x.shape[:-1])}, one number per position with the feature axis gone, and "
            f"does not line up with x {tuple(x.shape)}: keep that axis (keepdim=True, shape "
            "(..., 1)) so that each position's statistics broadcast over its own features.",
            "block.layer-norm-no-keepdim")


@core.exercise
def check_layer_norm(layer_norm) -> None:
    """Exercise: layer_norm(x, gamma, beta, eps) by hand, equal to nn.LayerNorm."""
    _forbid(layer_norm, LAYER_NORM_FUNCTIONS, name="layer_norm",
                why="Write LayerNorm yourself with tensor arithmetic (mean, variance, sqrt): "
                    "that is the exercise.")
    for i, (x, gamma, beta, eps) in enumerate(_layer_norm_cases()):
        name = f"layer_norm(x {tuple(x.shape)}, eps={eps})"
        got = _tensor(_call_layer_norm(layer_norm, x, gamma, beta, eps, name), name)
        reference = LayerNorm(x.shape[-1], eps=eps).double()
        with torch.no_grad():
            reference.weight.copy_(gamma)
            reference.bias.copy_(beta)
            expected = reference(x)
        mistakes = _layer_norm_mistakes(x, gamma, beta, eps)
        _named_first(got, expected, mistakes, name)
        if i == 0 and got.shape == x.shape:
            _layer_norm_properties(layer_norm, x, gamma, beta, eps, name)
        d = x.shape[-1]
        axes = ("B", "T", "d")[-x.ndim:]
        sizes = dict(zip(("B", "T", "d")[-x.ndim:], x.shape, strict=True))
        _compare(got, expected, name=name, mistakes=mistakes, atol=1e-8, rtol=1e-7,
                     axes=axes, sizes=sizes,
                     factors={"√d": math.sqrt(d), "d": d, "√(d/(d-1))": math.sqrt(d / (d - 1)),
                              "d/(d-1)": d / (d - 1)})
    core.passed("layer_norm: mean and biased variance over each position's features, eps inside "
                "the square root, then x_hat * gamma + beta; equal to nn.LayerNorm, 3-D to 1-D")


# ---------------------------------------------------------------------------------------------
# Exercise: an FFN with a chosen activation


def _ffn_inputs(shape=(2, 3, 5), d_ff: int = 12, seed: int = 8):
    g = core.torch_generator(seed)
    d_model = shape[-1]

    def randn(*s, scale=1.0):
        return torch.randn(*s, generator=g, dtype=torch.float64) * scale

    x = randn(*shape)  # (..., d_model)
    W1, b1 = randn(d_model, d_ff, scale=d_model**-0.5), randn(d_ff, scale=0.5)
    W2, b2 = randn(d_ff, d_model, scale=d_ff**-0.5), randn(d_model, scale=0.5)
    return x, W1, b1, W2, b2


def _load_ffn(ffn: FeedForward, up, down, gate=None, b_up=None, b_down=None) -> FeedForward:
    """Put math-convention matrices (d_in, d_out) into the Linear layers (which store W.T)."""
    with torch.no_grad():
        for linear, w, b in ((ffn.up, up, b_up), (ffn.down, down, b_down), (ffn.gate, gate, None)):
            if linear is None:
                continue
            linear.weight.copy_(w.T)
            if b is not None:
                linear.bias.copy_(b)
    return ffn


def _ffn_mistakes(x, W1, b1, W2, b2, act, act_name):
    linear = (x @ W1 + b1) @ W2 + b2
    mistakes = [
        ("block.ffn-activation-after-output",
         "activation after the second linear: you computed act((x W1 + b1) W2 + b2). The "
         "activation acts on the wide hidden layer, between the two linear maps.", act(linear)),
        ("block.ffn-activation-twice",
         "activation after the second linear too: you applied it twice, on the hidden layer "
         "and again on the output, after W2. Apply it once, to the wide hidden layer "
         "x W1 + b1 only, and not to the output.", act(act(x @ W1 + b1) @ W2 + b2)),
        ("block.ffn-no-activation",
         "missing activation: you computed (x W1 + b1) W2 + b2. Two linear maps in a row "
         "are one linear map (x W1 W2 + ...), so without the activation the FFN adds no "
         "nonlinearity at all.", linear),
        ("block.ffn-activation-on-input",
         "activation applied to the input: act(x) W1 ... . It belongs on the hidden layer, "
         "after the first linear map and its bias.", act(x) @ W1 @ W2 + b1 @ W2 + b2),
        ("block.ffn-activation-on-input",
         "activation applied to the input: act(x) W1 ... . It belongs on the hidden layer, "
         "after the first linear map and its bias.", (act(x) @ W1 + b1) @ W2 + b2),
        ("block.ffn-no-biases", "you left out both biases, b1 and b2 (no bias at all): b1 is "
         "added to x W1 before the activation, b2 to the output.", act(x @ W1) @ W2),
        ("block.ffn-residual",
         "you added the input x to the output: that residual (skip connection) belongs to the "
         "block, around the FFN, not inside it. The FFN returns act(x W1 + b1) W2 + b2 alone.",
         x + act(x @ W1 + b1) @ W2 + b2),
        ("block.ffn-no-b1", "you forgot b1, the bias of the first linear map: it is added to "
         "x W1 before the activation.", act(x @ W1) @ W2 + b2),
        ("block.ffn-no-b2", "you forgot b2, the bias of the second linear map: it is added to "
         "the output.", act(x @ W1 + b1) @ W2),
        ("block.ffn-b1-after-activation",
         "you added b1 after the activation: act(x W1) + b1. The bias goes inside the "
         "activation.", (act(x @ W1) + b1) @ W2 + b2),
    ]
    if act_name == "gelu":
        mistakes.append(
            ("block.ffn-fixed-relu",
             "you used ReLU whatever activation was passed: call the `activation` argument "
             "(here F.gelu).", F.relu(x @ W1 + b1) @ W2 + b2))
    return mistakes


def _ffn_properties(feed_forward, x, W1, b1, W2, b2, act, name):
    """Position-wise, then the activation: called once, on the hidden layer x W1 + b1."""

    def run(x_in, activation):
        return _tensor(core.call(feed_forward, x_in, W1, b1, W2, b2, activation,
                                 name="feed_forward"), name)

    base = run(x, act)
    perm = torch.tensor([2, 0, 1])  # a permutation of the T = 3 positions
    if not _close(run(x[:, perm], act), base[:, perm]):
        core.fail(f"{name}: shuffling the positions of x should shuffle the output the same "
                  "way, because the FFN works on each position on its own. Yours mixes "
                  "positions: a product or a sum over an axis other than the features.",
                  "block.ffn-mixes-positions")
    seen = []

    def recorder(z):
        seen.append(_tensor(z, "activation input") if isinstance(z, torch.Tensor) else None)
        return act(z)

    got = run(x, recorder)
    hidden = x @ W1 + b1  # (..., d_ff)
    if not seen:
        core.fail(f"{name}: your function never called the activation argument `activation`: "
                  "it ignores the activation you are given (ReLU whatever activation is passed, "
                  "always relu, or no activation at all?). Call the function you are given, on "
                  "the hidden layer.", "block.ffn-activation-unused")
    if len(seen) > 1:
        core.fail(f"{name}: your function called `activation` {len(seen)} times; the FFN "
                  "applies it once, to the hidden layer.", "block.ffn-activation-twice")
    z = seen[0]
    if z is None or tuple(z.shape) != tuple(hidden.shape):
        shape = "something that is not a tensor" if z is None else f"shape {tuple(z.shape)}"
        core.fail(f"{name}: `activation` was applied to {shape}; it belongs on the hidden "
                  f"layer, shape (..., d_ff) = {tuple(hidden.shape)}, between the two linear "
                  "maps.", "block.ffn-activation-wrong-place")
    if not _close(z, hidden):
        what = ("x W1 without b1" if _close(z, x @ W1) else
                "not x W1 + b1 (is W1 transposed, or the wrong matrix used?)")
        core.fail(f"{name}: the activation's input should be the hidden pre-activation "
                  f"x W1 + b1; yours is {what}.", "block.ffn-hidden-wrong")
    if _close(got, x + act(hidden) @ W2 + b2):
        core.fail(f"{name}: you added the input x to the output: that residual (skip "
                  "connection) belongs to the block, around the FFN, not inside it. The FFN "
                  "returns act(x W1 + b1) W2 + b2 alone.", "block.ffn-residual")
    if not _close(got, act(hidden) @ W2 + b2):
        core.fail(f"{name}: the activation is right, but what follows is not: the activated "
                  "hidden layer is projected back with W2 and then b2 is added.",
                  "block.ffn-output-wrong")


@core.exercise
def check_feed_forward(feed_forward) -> None:
    """Exercise: feed_forward(x, W1, b1, W2, b2, activation) = act(x W1 + b1) W2 + b2."""
    cases = [(_ffn_inputs(), "relu", F.relu), (_ffn_inputs(), "gelu", F.gelu),
             (_ffn_inputs((4, 6), d_ff=7, seed=13), "gelu", F.gelu)]  # another size, 2-D x
    for i, ((x, W1, b1, W2, b2), act_name, act) in enumerate(cases):
        d_model, d_ff = W1.shape
        name = f"feed_forward(x {tuple(x.shape)}, ..., activation=F.{act_name})"
        got = _tensor(core.call(feed_forward, x, W1, b1, W2, b2, act, name="feed_forward"),
                      name)
        reference = _load_ffn(FeedForward(d_model, d_ff, act_name).double(), W1, W2,
                              b_up=b1, b_down=b2)
        with torch.no_grad():
            expected = reference(x)
        mistakes = _ffn_mistakes(x, W1, b1, W2, b2, act, act_name)
        _named_first(got, expected, mistakes, name)
        if i == 0 and got.shape == expected.shape:
            _ffn_properties(feed_forward, x, W1, b1, W2, b2, act, name)
        axes = ("B", "T", "d_model")[-x.ndim:]
        sizes = {**dict(zip(axes, x.shape, strict=True)), "d_ff": d_ff}
        _compare(got, expected, name=name, mistakes=mistakes, atol=1e-8, rtol=1e-7,
                     axes=axes, sizes=sizes,
                     factors={"√d_model": math.sqrt(d_model), "√d_ff": math.sqrt(d_ff),
                              "d_model": d_model, "d_ff": d_ff})
    core.passed("feed_forward: act(x W1 + b1) W2 + b2 per position, with F.relu and F.gelu; "
                "equal to helpers.blocks.FeedForward")


# ---------------------------------------------------------------------------------------------
# Exercise: a SwiGLU FFN


def _swiglu_inputs(shape=(2, 4, 6), d_ff=8, seed=9):
    g = core.torch_generator(seed)
    d_model = shape[-1]
    x = torch.randn(*shape, generator=g, dtype=torch.float64)
    W_gate, W_up = (torch.randn(d_model, d_ff, generator=g, dtype=torch.float64) for _ in "gu")
    W_down = torch.randn(d_ff, d_model, generator=g, dtype=torch.float64) / d_ff**0.5
    return x, W_gate, W_up, W_down


def _swiglu_mistakes(x, W_gate, W_up, W_down):
    gate, up = x @ W_gate, x @ W_up
    no_gate = ("no gate: you used only one of the two projections. SwiGLU multiplies the "
               "SiLU of x W_gate elementwise by x W_up.")
    return [
        ("block.swiglu-gate-up-swapped",
         "you swapped the gate and the up projection: SiLU is on the wrong branch, the up "
         "branch x @ W_up. SiLU goes on the gate branch x @ W_gate, and its result multiplies "
         "x @ W_up (which stays linear).", (F.silu(up) * gate) @ W_down),
        ("block.swiglu-sigmoid-gate",
         "sigmoid instead of SiLU: sigmoid(x W_gate) * (x W_up) is the original GLU. SwiGLU's "
         "gate is SiLU(z) = z * sigmoid(z) (F.silu).", (torch.sigmoid(gate) * up) @ W_down),
        ("block.swiglu-relu-gate",
         "ReLU instead of SiLU: that variant is ReGLU. SwiGLU's gate is SiLU (F.silu).",
         (F.relu(gate) * up) @ W_down),
        ("block.swiglu-gelu-gate",
         "GELU instead of SiLU: that variant is GEGLU. SwiGLU's gate is SiLU (F.silu).",
         (F.gelu(gate) * up) @ W_down),
        ("block.swiglu-no-gate", no_gate, F.silu(up) @ W_down),
        ("block.swiglu-no-gate", no_gate, F.silu(gate) @ W_down),
        ("block.swiglu-no-gate", no_gate, up @ W_down),
        ("block.swiglu-silu-on-both",
         "SiLU on both projections (both branches): only the gate branch goes through SiLU; "
         "the up branch x @ W_up stays linear, with no activation there.",
         (F.silu(gate) * F.silu(up)) @ W_down),
        ("block.swiglu-silu-after-product",
         "SiLU after multiplying: apply SiLU to the gate x @ W_gate first, then multiply by "
         "x @ W_up.", F.silu(gate * up) @ W_down),
        ("block.swiglu-gate-added",
         "you added the gate instead of multiplying: the gate scales x @ W_up unit by unit, "
         "elementwise.", (F.silu(gate) + up) @ W_down),
        ("block.swiglu-silu-after-down",
         "SiLU after the down projection: you applied SiLU at the end, after W_down. SiLU "
         "acts on the gate x @ W_gate, before the product and before W_down; after the "
         "projection by W_down nothing follows.", F.silu((gate * up) @ W_down)),
        ("block.swiglu-no-silu",
         "no SiLU: (x W_gate) * (x W_up) is a bilinear layer. The gate goes through SiLU "
         "(F.silu) before the product.", (gate * up) @ W_down),
    ]


_GATES = {
    "SiLU": F.silu, "sigmoid": torch.sigmoid, "ReLU": F.relu, "GELU": F.gelu,
    "tanh": torch.tanh, "no function at all (the identity)": lambda z: z,
}


def _swiglu_properties(swiglu_ffn, x, W_gate, W_up, W_down, name):
    """The up projection multiplies; then the gate function, read off a probe."""

    def run(*args):
        return _tensor(core.call(swiglu_ffn, *args, name="swiglu_ffn"), name)

    if not _close(run(x, W_gate, torch.zeros_like(W_up), W_down), torch.zeros_like(x)):
        core.fail(f"{name}: with W_up = 0 your output should be 0: x W_up multiplies the "
                  "gate elementwise, so a zero up projection zeroes everything. Yours is not "
                  "zero: the gate is added rather than multiplied, or x W_up is not a factor "
                  "of the hidden layer.", "block.swiglu-up-not-a-factor")
    # the gate read off: x = [z, 1], W_gate picks z, W_up picks 1, W_down keeps feature 0
    z = torch.linspace(-3.0, 3.0, 7, dtype=torch.float64)
    probe = torch.stack([z, torch.ones_like(z)], dim=-1)  # (7, d_model=2)
    pick_z = torch.tensor([[1.0], [0.0]], dtype=torch.float64)  # (2, d_ff=1)
    pick_1 = torch.tensor([[0.0], [1.0]], dtype=torch.float64)
    keep = torch.tensor([[1.0, 0.0]], dtype=torch.float64)  # (d_ff=1, 2)
    out = run(probe, pick_z, pick_1, keep)
    if tuple(out.shape) != (7, 2) or _close(out[:, 0], F.silu(z)):
        return
    shown = ", ".join(f"{v:.3g}" for v in out[:, 0].tolist())
    named = [label for label, f in _GATES.items() if _close(out[:, 0], f(z))]
    what = (f"your gate applies {named[0]} to x W_gate" if named else
            f"at z = -3, -2, ..., 3 your gate gives {shown}")
    core.fail(f"{name}: with x W_gate = z and x W_up = 1 the output is the gate itself, "
              f"SiLU(z) = z * sigmoid(z); {what}. The gate is F.silu of x @ W_gate.",
              "block.swiglu-gate-function")


@core.exercise
def check_swiglu_ffn(swiglu_ffn) -> None:
    """Exercise: swiglu_ffn(x, W_gate, W_up, W_down) = (SiLU(x W_gate) * x W_up) W_down."""
    cases = [_swiglu_inputs(), _swiglu_inputs((3, 5), d_ff=7, seed=14)]  # another size, 2-D
    for i, (x, W_gate, W_up, W_down) in enumerate(cases):
        d_model, d_ff = W_gate.shape
        name = f"swiglu_ffn(x {tuple(x.shape)}, W_gate, W_up, W_down)"
        got = _tensor(core.call(swiglu_ffn, x, W_gate, W_up, W_down, name="swiglu_ffn"), name)
        reference = _load_ffn(FeedForward(d_model, d_ff, "swiglu", bias=False).double(), W_up,
                              W_down, gate=W_gate)
        with torch.no_grad():
            expected = reference(x)
        mistakes = _swiglu_mistakes(x, W_gate, W_up, W_down)
        _named_first(got, expected, mistakes, name)
        if i == 0 and got.shape == expected.shape:
            _swiglu_properties(swiglu_ffn, x, W_gate, W_up, W_down, name)
        axes = ("B", "T", "d_model")[-x.ndim:]
        _compare(got, expected, name=name, mistakes=mistakes, atol=1e-8, rtol=1e-7,
                     axes=axes, sizes={**dict(zip(axes, x.shape, strict=True)), "d_ff": d_ff},
                     factors={"√d_ff": math.sqrt(d_ff), "d_ff": d_ff,
                              "√d_model": math.sqrt(d_model), "d_model": d_model})
    core.passed("swiglu_ffn: (SiLU(x W_gate) * x W_up) W_down, equal to "
                "helpers.blocks.FeedForward(activation='swiglu')")


# ---------------------------------------------------------------------------------------------
# Exercise: a Pre-Norm block from the weights of nn.TransformerEncoderLayer


def _encoder_layer(activation: str, seed: int) -> nn.TransformerEncoderLayer:
    """A Pre-Norm torch layer, float64, every parameter nudged (so gamma != 1, beta != 0)."""
    torch.manual_seed(core.seed(seed))  # the layer is the student's input: drawn when grading
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=activation,
                                       batch_first=True, norm_first=True).double().eval()
    with torch.no_grad():
        for p in layer.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return layer


def _refuse(*args, **kwargs):
    raise core.CheckFailed(
        "pre_norm_block: you called the whole layer, which proves nothing. Build the block from "
        "its parts: layer.norm1, layer.self_attn, layer.linear1, layer.activation, "
        "layer.linear2, layer.norm2.", "block.called-the-whole-layer"
    )


def _silenced(layer, attention: bool = False, mlp: bool = False):
    """A copy of `layer` whose attention (out_proj) or MLP (linear2) outputs exactly 0."""
    layer = copy.deepcopy(layer)
    with torch.no_grad():
        if attention:
            layer.self_attn.out_proj.weight.zero_()
            layer.self_attn.out_proj.bias.zero_()
        if mlp:
            layer.linear2.weight.zero_()
            layer.linear2.bias.zero_()
    return layer


def _student_copy(layer):
    student_layer = copy.deepcopy(layer)
    student_layer.forward = _refuse
    return student_layer


def _block_mistakes(block: TransformerBlock, x: torch.Tensor, act_name: str):
    """(id, message, wrong output) for each wiring mistake, from the reference block's parts."""

    def attn(z):
        return block.attn(z)[0]

    ffn, ln1, ln2 = block.ffn, block.ln1, block.ln2
    h = x + attn(ln1(x))
    post_h = ln1(x + attn(x))
    no_res_h = attn(ln1(x))
    ln_x = ln1(x)
    h_from_ln = ln_x + attn(ln_x)  # the residual carries LN1(X) instead of X
    linear_mlp = block.ffn.down(block.ffn.up(ln2(h)))
    relu_mlp = block.ffn.down(F.relu(block.ffn.up(ln2(h))))
    mistakes = [
        ("block.post-norm",
         "Post-Norm order instead of Pre-Norm: you normalised after each residual add, "
         "H = LN1(X + Attn(X)), X_next = LN2(H + MLP(H)), the original 2017 order "
         "(norm_first=False). Pre-Norm normalises each sublayer's input and adds the raw "
         "update to the stream.", ln2(post_h + ffn(post_h))),
        ("block.post-norm",
         "Post-Norm order instead of Pre-Norm: you normalised after a residual add. Pre-Norm "
         "normalises each sublayer's input and adds the raw update to the stream.",
         post_h + ffn(ln2(post_h))),
        ("block.mlp-reads-x",
         "the MLP reads X instead of H: you computed X + Attn(LN1(X)) + MLP(LN2(X)). The MLP "
         "reads H = X + Attn(LN1(X)), the state after attention's update.", h + ffn(ln2(x))),
        ("block.missing-attention-residual",
         "missing a residual: attention's update replaced X instead of being added to it. "
         "H = X + Attn(LN1(X)), not Attn(LN1(X)).", no_res_h + ffn(ln2(no_res_h))),
        ("block.missing-mlp-residual",
         "missing a residual, the second one (the residual around the MLP): the MLP's update "
         "replaced H instead of being added to it; you forgot to add H. "
         "X_next = H + MLP(LN2(H)), not MLP(LN2(H)).", ffn(ln2(h))),
        ("block.mlp-residual-onto-x",
         "the second residual adds the MLP's update onto X instead of H: X + MLP(LN2(H)) drops "
         "the attention update. Add it onto H, the stream after attention: "
         "X_next = H + MLP(LN2(H)).", x + ffn(ln2(h))),
        ("block.missing-both-residuals",
         "missing both residuals: each sublayer's update is added to its input, not "
         "substituted for it.", ffn(ln2(no_res_h))),
        ("block.residual-carries-ln",
         "your residual adds LN(X) instead of X: LN1(X) + Attn(LN1(X)) adds the update to the "
         "normalised input, but the residual stream carries the raw x, un-normalised. "
         "Normalise only the copy the sublayer reads: H = X + Attn(LN1(X)).",
         ln2(h_from_ln) + ffn(ln2(h_from_ln))),
        ("block.residual-carries-ln",
         "your residual adds LN(X) instead of X: LN1(X) + Attn(LN1(X)) adds the update to the "
         "normalised input, but the residual stream carries the raw x, un-normalised. "
         "Normalise only the copy the sublayer reads: H = X + Attn(LN1(X)).",
         h_from_ln + ffn(ln2(h_from_ln))),
        ("block.norm1-twice",
         "you used norm1 for both sublayers: the MLP's input goes through norm2, which has its "
         "own gamma and beta.", h + ffn(ln1(h))),
        ("block.norms-swapped",
         "you swapped the LayerNorms: norm1 belongs to attention's input and norm2 to the "
         "MLP's; each has its own gamma and beta.",
         (x + attn(ln2(x))) + ffn(ln1(x + attn(ln2(x))))),
        ("block.no-layer-norm",
         "no LayerNorm at all: H = X + Attn(X), X_next = H + MLP(H). Pre-Norm normalises "
         "each sublayer's input with norm1 and norm2.", (x + attn(x)) + ffn(x + attn(x))),
        ("block.mlp-no-activation",
         "your MLP has no activation: the MLP is linear2(activation(linear1(z))). Without the "
         "activation its two linear maps collapse into one.", h + linear_mlp),
    ]
    if act_name == "gelu":
        mistakes.append(
            ("block.mlp-fixed-relu",
             "you used ReLU, but this layer's activation is GELU: call layer.activation, the "
             "layer's own activation function.", h + relu_mlp))
    return mistakes


def _block_properties(pre_norm_block, layer, x, name):
    """Silence sub-layers to see which half of the block is wired wrong."""

    def run(silenced):
        return _tensor(core.call(pre_norm_block, x, _student_copy(silenced),
                                 name="pre_norm_block"), name)

    def reference(silenced):
        with torch.no_grad():
            return TransformerBlock.from_torch(silenced)(x)

    both = _silenced(layer, attention=True, mlp=True)
    if not _close(run(both), x):
        core.fail(
            f"{name}: with both sub-layers silenced (attention's out_proj and linear2 set to 0, "
            "so each returns 0) the block must return x unchanged, since each residual adds its "
            "sub-layer's update to the stream. Yours changes x: a residual is missing, the "
            "stream carries a normalised copy of x, or a LayerNorm follows an add (that is "
            "Post-Norm).", "block.stream-not-kept")
    no_mlp = _silenced(layer, mlp=True)
    got_no_mlp = run(no_mlp)
    if _close(got_no_mlp, x) and not _close(reference(no_mlp), x):
        core.fail(
            f"{name}: with the MLP silenced (linear2 set to 0) the block should return "
            "H = X + Attn(LN1(X)); yours returns X itself: the attention update is dropped "
            "(the second residual adds the MLP's update onto X instead of H?). "
            "X_next = H + MLP(LN2(H)).", "block.attention-update-dropped")
    if not _close(got_no_mlp, reference(no_mlp)):
        core.fail(
            f"{name}: with the MLP silenced (linear2 set to 0) the block returns "
            "H = X + Attn(LN1(X)), and yours does not: the attention half is wrong. Attention "
            "reads layer.norm1 of x (queries, keys and values all from it) and its output "
            "(the first element of what self_attn returns) is added to x.",
            "block.attention-half-wrong")
    no_attn = _silenced(layer, attention=True)
    if not _close(run(no_attn), reference(no_attn)):
        core.fail(
            f"{name}: with attention silenced (out_proj set to 0) H = X and the block returns "
            "X + MLP(LN2(X)); yours does not: the MLP half is wrong. The MLP reads layer.norm2 "
            "of the stream, runs linear1, layer.activation and linear2, and its output is "
            "added to the stream.", "block.mlp-half-wrong")


@core.exercise
def check_pre_norm_block(pre_norm_block) -> None:
    """Exercise: pre_norm_block(x, layer) == nn.TransformerEncoderLayer(norm_first=True)(x)."""
    _forbid(pre_norm_block, WHOLE_LAYER_FUNCTIONS, name="pre_norm_block",
                why="Build the block from the layer's parts (layer.norm1, layer.self_attn, "
                    "layer.linear1, layer.activation, layer.linear2, layer.norm2): that is "
                    "the exercise.")
    g = core.torch_generator(10)
    x = torch.randn(2, 5, 8, generator=g, dtype=torch.float64) * 2  # (B, T, d_model)
    x_small = torch.randn(1, 3, 8, generator=g, dtype=torch.float64) * 2  # another B and T
    for i, (act_name, seed, x_in) in enumerate((("relu", 11, x), ("gelu", 12, x),
                                                ("gelu", 12, x_small))):
        layer = _encoder_layer(act_name, seed)
        block = TransformerBlock.from_torch(layer)  # the reference, and the mistakes' parts
        with torch.no_grad():
            expected = block(x_in)
            torch.testing.assert_close(expected, layer(x_in))  # the reference is torch's layer
            mistakes = _block_mistakes(block, x_in, act_name)
        name = (f"pre_norm_block(x {tuple(x_in.shape)}, layer with "
                f"activation={act_name})")
        got = _tensor(core.call(pre_norm_block, x_in, _student_copy(layer),
                                name="pre_norm_block"), name)
        _named_first(got, expected, mistakes, name)
        if i == 0 and got.shape == expected.shape:
            _block_properties(pre_norm_block, layer, x_in, name)
        B, T, d = x_in.shape
        _compare(got, expected, name=name, mistakes=mistakes, atol=1e-8, rtol=1e-7,
                     axes=("B", "T", "d_model"),
                     sizes=dict(B=B, T=T, d_model=d, n_heads=2, d_ff=16),
                     factors={"√d_model": math.sqrt(d), "d_model": d})
    core.passed("pre_norm_block: H = X + Attn(LN1(X)); X_next = H + MLP(LN2(H)); equal to "
                "nn.TransformerEncoderLayer(norm_first=True) with ReLU and with GELU")


# ---------------------------------------------------------------------------------------------
# Exercise: the parameter count of one layer


def _count_mistakes(d: int, h: int, d_ff: int):
    attn, norms = 4 * (d * d + d), 2 * 2 * d
    ffn = d * d_ff + d_ff + d_ff * d + d
    right = attn + norms + ffn
    biases = 4 * d + d_ff + d
    four_d = ("you are 4 × d_model short: you forgot the four attention biases (one of "
              "d_model for each of W_Q, W_K, W_V and W_O: attention holds 4 (d^2 + d) "
              "parameters, the biases of W_Q, W_K, W_V and W_O included) or you forgot the "
              "LayerNorm parameters (two LayerNorms, gamma and beta of d_model each). Both are "
              "4 × d_model: count each once.")
    return [
        ("block.count-4d-missing", four_d, right - 4 * d),
        ("block.count-no-ffn-biases",
         "you forgot the FFN biases b1 and b2: the first linear map has a bias of d_ff, the "
         "second one of d_model, d_ff + d_model numbers (the biases of the FFN).",
         right - d_ff - d),
        ("block.count-no-ffn-biases",
         "you forgot the FFN's first bias b1, one entry per hidden unit: d_ff numbers (the "
         "biases of the FFN are b1, d_ff, and b2, d_model).", right - d_ff),
        ("block.count-no-biases",
         "you forgot the biases: each of W_Q, W_K, W_V and W_O has a bias of d_model numbers, "
         "and the FFN's two linear maps have biases of d_ff and d_model.", right - biases),
        ("block.count-no-biases",
         "you forgot the biases (and LayerNorm's beta): every nn.Linear here has a bias, and "
         "each LayerNorm has gamma and beta.", right - biases - 2 * d),
        ("block.count-no-w-o",
         "you forgot W_O, the output projection: attention has four d_model x d_model matrices "
         "(W_Q, W_K, W_V and W_O), each with its bias.", right - (d * d + d)),
        ("block.count-no-w-o",
         "you forgot W_O and the biases: attention has four d_model x d_model matrices "
         "(W_Q, W_K, W_V, W_O), and each linear map has a bias.",
         right - (d * d + d) - biases + d),
        ("block.count-half-norms",
         "you counted only 2 * d_model LayerNorm parameters: there are two LayerNorms (before "
         "attention and before the FFN), each with gamma AND beta.", right - 2 * d),
        ("block.count-times-heads",
         "you multiplied the attention parameters by the number of heads, counting them "
         "n_heads times: the heads split d_model into n_heads slices of d_head = d_model / "
         "n_heads, so W_Q, W_K, W_V, W_O stay d_model x d_model. n_heads does not matter: the "
         "count is independent of n_heads, and n_heads does not change the count.",
         right + (h - 1) * attn),
        ("block.count-one-ffn-matrix",
         "you counted one FFN matrix: the FFN has two, d_model x d_ff up and d_ff x d_model "
         "down, each with its bias.", right - (d_ff * d + d)),
        ("block.count-ffn-bias-size",
         "the FFN's second bias has d_model entries, not d_ff: it is added to the output, "
         "which is d_model wide.", right - d + d_ff),
        ("block.count-d-head",
         "you sized the attention matrices with d_head = d_model / n_heads: W_Q, W_K, W_V and "
         "W_O are each d_model x d_model, whatever the number of heads.",
         right - attn + 4 * (d * (d // h) + d)),
    ]


def _number(got, name):
    if isinstance(got, torch.Tensor) and got.numel() == 1:
        got = got.item()
    if isinstance(got, np.generic):
        got = got.item()
    if not isinstance(got, (int, float)) or isinstance(got, bool):
        core.fail(f"{name}: return a number (an int); got {type(got).__name__}",
                  "block.count-not-a-number")
    if isinstance(got, float):
        core.fail(f"{name}: your count is a float ({got:g}), not an int: a parameter count is "
                  "a whole number. A true division such as d_model / n_heads makes a float; "
                  "count from the shapes with integers (and n_heads does not change any "
                  "shape).", "block.count-float")
    return got


def _count_properties(layer_parameters, d, h, d_ff):
    """n_heads does not matter; each FFN unit adds 2 d_model + 1; the rest is fixed."""

    def run(*args):
        name = f"layer_parameters{args}"
        return _number(core.call(layer_parameters, *args, name="layer_parameters"), name)

    base = run(d, h, d_ff)
    other_h = 1 if h != 1 else 2
    other = run(d, other_h, d_ff)
    if other != base:
        more, fewer = (base, other) if h > other_h else (other, base)
        why = ("it grows with the heads: you counted full-width d_model x d_model projections "
               "per head, n_heads times" if more > fewer else
               "it shrinks with more heads: you sized a projection for one head, d_model x d_k "
               "with d_k = d_model / n_heads (per head), but W_Q, W_K and W_V project to all "
               "heads together, n_heads · d_k = d_model columns")
        core.fail(f"layer_parameters: your count changes with n_heads ({h} heads: {base}, "
                  f"{other_h}: {other}): {why}. The heads split d_model into slices; "
                  "the matrices keep their sizes, so n_heads does not change the count: it is "
                  "independent of n_heads.", "block.count-depends-on-heads")
    step = run(d, h, d_ff + 1) - base
    if step == 0:
        core.fail(f"layer_parameters: your count does not change with d_ff (d_ff {d_ff} -> "
                  f"{d_ff + 1}): it ignores the d_ff argument (a fixed FFN width such as "
                  "4 * d_model?). Use the d_ff you are given: each FFN unit adds 2 * d_model + 1 "
                  "parameters.", "block.count-ignores-d-ff")
    if step == 2 * d:
        core.fail(f"layer_parameters: one more FFN unit (d_ff {d_ff} -> {d_ff + 1}) changed "
                  f"your count by 2 * d_model = {step}, not 2 * d_model + 1: the unit's bias "
                  "entry is missing, so you forgot the FFN biases (b1 has d_ff entries, b2 "
                  "d_model: d_ff + d_model numbers).", "block.count-no-ffn-biases")
    if step != 2 * d + 1:
        core.fail(f"layer_parameters: one more FFN unit (d_ff {d_ff} -> {d_ff + 1}) changed "
                  f"your count by {step}; it adds 2 * d_model + 1 = {2 * d + 1} parameters: a "
                  "column of the up matrix, its bias entry, and a row of the down matrix.",
                  "block.count-ffn-slope")


def _count_difference(got, expected, d, h, d_ff) -> str:
    """Your count against the layer's, the difference named in the layer's pieces."""
    said = f"your count is {got:g}; the layer has {expected} parameters"
    diff = got - expected
    pieces = {
        "d_model (a bias of attention or of the FFN's output, or one gamma or beta)": d,
        "d_ff (the FFN's first bias)": d_ff,
        "d_model² (one attention matrix)": d * d,
        "d_model·d_ff (one FFN matrix)": d * d_ff,
        "d_model + d_ff (the FFN's two biases)": d + d_ff,
        "d_model² + d_model (one attention projection with its bias)": d * d + d,
    }
    for label, size in pieces.items():
        for k in (1, 2, 3, 4):
            if abs(diff) == k * size:
                how = "too many" if diff > 0 else "missing"
                return (f"{said}: {k} × {label} {how}. Count each part from its shapes: a "
                        "d_in x d_out linear map with a bias holds d_in · d_out + d_out "
                        "numbers, a LayerNorm holds gamma and beta.")
    if expected and float(got / expected).is_integer():
        return f"{said}: {got / expected:g} times too many. Count every part once."
    return (f"{said} ({diff:+g}). Count each part from its shapes: attention's four "
            "projections, the two LayerNorms, the FFN's two linear maps, every bias.")


@core.exercise
def check_layer_parameters(layer_parameters) -> None:
    """Exercise: layer_parameters(d_model, n_heads, d_ff) == count_parameters of one layer."""
    cases = [(512, 8, 2048), (12, 3, 20), (64, 4, 256), (768, 12, 3072), (10, 5, 6)]
    if core.grading():  # sizes the notebook has not seen: a table of the counts above fails
        rng = core.rng(1)
        while len(cases) < 7:
            h = int(rng.integers(1, 9))
            case = (h * int(rng.integers(1, 33)), h, int(rng.integers(1, 257)))
            if (case[0], case[2]) not in {(c[0], c[2]) for c in cases}:  # the count ignores h
                cases.append(case)
    for i, (d, h, d_ff) in enumerate(cases):
        name = f"layer_parameters({d}, {h}, {d_ff})"
        got = _number(core.call(layer_parameters, d, h, d_ff, name="layer_parameters"), name)
        with torch.device("meta"):  # counts only: no memory, no initialisation cost
            expected = count_parameters(TransformerBlock(d, h, d_ff))
        mistakes = _count_mistakes(d, h, d_ff)
        _named_first(got, expected, mistakes, name, atol=0, rtol=0)
        if i == 0:
            _count_properties(layer_parameters, d, h, d_ff)
        if got != expected:
            core.fail(f"{name}: {_count_difference(got, expected, d, h, d_ff)}",
                      "block.count-wrong")
    core.passed("layer_parameters: 4 (d^2 + d) + 2 * 2d + (d d_ff + d_ff) + (d_ff d + d), "
                "equal to count_parameters of the layer, for 5 shapes")
