"""Checks for lesson 07 (the Transformer block): LayerNorm by hand, an FFN with a chosen
activation, a SwiGLU FFN, a Pre-Norm block matching nn.TransformerEncoderLayer, and the
parameter count of one layer.
"""

from __future__ import annotations

import copy

import torch
import torch.nn.functional as F
from torch import nn

from helpers.blocks import FeedForward, LayerNorm, TransformerBlock, count_parameters
from helpers.checks import core

_FEATURES_ARE_LAST = (
    "LayerNorm normalises each position over its own d features, the last axis (dim=-1, "
    "keepdim=True), so no other token and no other example of the batch changes its output."
)


def _tensor(value, name: str) -> torch.Tensor:
    """The student's result as a float64 tensor (for the checks' own arithmetic)."""
    return torch.as_tensor(core.as_array(value, name), dtype=torch.float64)


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


def _layer_norm_inputs():
    """(x, gamma, beta): a batch of sequences, one position with a tiny variance."""
    g = torch.Generator().manual_seed(7)
    x = torch.randn(2, 4, 6, generator=g, dtype=torch.float64) * 3 + 1  # (B, T, d)
    x[1, 2] = 5 + 0.01 * torch.randn(6, generator=g, dtype=torch.float64)  # almost constant
    gamma = 1 + 0.5 * torch.randn(6, generator=g, dtype=torch.float64)
    beta = 0.5 * torch.randn(6, generator=g, dtype=torch.float64)
    return x, gamma, beta


@core.exercise
def check_layer_norm(layer_norm) -> None:
    """Exercise: layer_norm(x, gamma, beta, eps) by hand, equal to nn.LayerNorm."""
    x3, gamma, beta = _layer_norm_inputs()
    cases = [(x3, 1e-5), (x3, 0.1), (x3[0], 0.1)]  # (B, T, d) twice, then (T, d)
    for x, eps in cases:
        name = f"layer_norm(x {tuple(x.shape)}, eps={eps})"
        got = layer_norm(x.clone(), gamma.clone(), beta.clone(), eps)
        reference = LayerNorm(x.shape[-1], eps=eps).double()
        with torch.no_grad():
            reference.weight.copy_(gamma)
            reference.bias.copy_(beta)
            expected = reference(x)
        other_axes = [d for d in range(x.ndim - 1)]
        x_hat = _normalise(x, 1.0, 0.0, eps)
        wrong_axes = [
            (f"axis {d} ({'the batch' if x.ndim == 3 and d == 0 else 'the positions'})", (d,))
            for d in other_axes
        ] + [("every axis at once", tuple(range(x.ndim))),
             ("the positions and the features together (one mean per sequence)",
              tuple(range(x.ndim))[-2:])]
        mistakes = [
            (f"normalised over the wrong axis: your mean and variance run over {what}. "
             + _FEATURES_ARE_LAST, _normalise(x, gamma, beta, eps, dims))
            for what, dims in wrong_axes
        ]
        mistakes += [
            ("unbiased variance: you divided by d - 1 (torch.var's default, unbiased=True). "
             "LayerNorm uses the biased variance, the plain mean of (x - mean)^2, dividing by "
             "d (x.var(-1, unbiased=False)).", _normalise(x, gamma, beta, eps, unbiased=True)),
            ("eps outside the square root: you computed (x - mean) / (sqrt(var) + eps). "
             "LayerNorm adds eps to the variance, inside: (x - mean) / sqrt(var + eps). The "
             "difference shows where a position's variance is small.",
             _normalise(x, gamma, beta, eps, eps_outside=True)),
            ("you left out eps: (x - mean) / sqrt(var). eps goes inside the square root, "
             "sqrt(var + eps); it keeps a position whose features are all equal from dividing "
             "0 by 0.", _normalise(x, gamma, beta, 0.0)),
            ("you ignored the eps argument and used 1e-5 whatever eps was passed. Use the eps "
             "you are given.", _normalise(x, gamma, beta, 1e-5)),
            ("you forgot gamma and beta: this is the normalised x_hat itself (mean 0, variance "
             "1). Scale by gamma, then shift by beta: x_hat * gamma + beta.", x_hat),
            ("you forgot gamma: the scale. The output is x_hat * gamma + beta; you returned "
             "x_hat + beta.", x_hat + beta),
            ("you forgot beta: the shift. The output is x_hat * gamma + beta; you returned "
             "x_hat * gamma.", x_hat * gamma),
            ("you swapped gamma and beta: gamma scales (multiplies) x_hat and beta shifts (is "
             "added).", x_hat * beta + gamma),
            ("you shifted before scaling: (x_hat + beta) * gamma. The output is "
             "x_hat * gamma + beta.", (x_hat + beta) * gamma),
            ("you did not subtract the mean: dividing by the root mean square of x is RMSNorm, "
             "not LayerNorm. Subtract each position's mean first, then divide by the standard "
             "deviation.", _normalise(x, gamma, beta, eps, centre=False)),
        ]
        core.compare(got, expected, name=name, mistakes=mistakes, atol=1e-8, rtol=1e-7)
    core.passed("layer_norm: mean and biased variance over each position's features, eps inside "
                "the square root, then x_hat * gamma + beta; equal to nn.LayerNorm, 3-D and 2-D")


# ---------------------------------------------------------------------------------------------
# Exercise: an FFN with a chosen activation


def _ffn_inputs(d_model: int = 6, d_ff: int = 12, seed: int = 8):
    g = torch.Generator().manual_seed(seed)

    def randn(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    x = randn(2, 4, d_model)  # (B, T, d_model)
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


@core.exercise
def check_feed_forward(feed_forward) -> None:
    """Exercise: feed_forward(x, W1, b1, W2, b2, activation) = act(x W1 + b1) W2 + b2."""
    x, W1, b1, W2, b2 = _ffn_inputs()
    d_model, d_ff = W1.shape
    for act_name, act in (("relu", F.relu), ("gelu", F.gelu)):
        name = f"feed_forward(x {tuple(x.shape)}, ..., activation=F.{act_name})"
        args = (x.clone(), W1.clone(), b1.clone(), W2.clone(), b2.clone())
        got = feed_forward(*args, act)
        reference = _load_ffn(FeedForward(d_model, d_ff, act_name).double(), W1, W2,
                              b_up=b1, b_down=b2)
        with torch.no_grad():
            expected = reference(x)
        linear = (x @ W1 + b1) @ W2 + b2
        mistakes = [
            ("activation after the second linear: you computed act((x W1 + b1) W2 + b2). The "
             "activation acts on the wide hidden layer, between the two linear maps: "
             "act(x W1 + b1) W2 + b2.", act(linear)),
            ("activation after the second linear too: apply it once, to the wide hidden layer "
             "x W1 + b1, and not to the output.", act(act(x @ W1 + b1) @ W2 + b2)),
            ("missing activation: you computed (x W1 + b1) W2 + b2. Two linear maps in a row "
             "are one linear map (x W1 W2 + ...), so without the activation the FFN adds no "
             "nonlinearity at all.", linear),
            ("activation applied to the input: act(x) W1 ... . It belongs on the hidden layer: "
             "act(x W1 + b1) W2 + b2.", act(x) @ W1 @ W2 + b1 @ W2 + b2),
            ("you forgot b1, the bias of the first linear map: act(x W1 + b1) W2 + b2.",
             act(x @ W1) @ W2 + b2),
            ("you forgot b2, the bias of the second linear map: act(x W1 + b1) W2 + b2.",
             act(x @ W1 + b1) @ W2),
            ("you added b1 after the activation: act(x W1) + b1. The bias goes inside: "
             "act(x W1 + b1).", (act(x @ W1) + b1) @ W2 + b2),
        ]
        if act_name == "gelu":
            mistakes.append(
                ("you used ReLU whatever activation was passed: call the `activation` argument "
                 "(here F.gelu).", F.relu(x @ W1 + b1) @ W2 + b2))
        core.compare(got, expected, name=name, mistakes=mistakes, atol=1e-8, rtol=1e-7)
    core.passed("feed_forward: act(x W1 + b1) W2 + b2 per position, with F.relu and F.gelu; "
                "equal to helpers.blocks.FeedForward")


@core.exercise
def check_swiglu_ffn(swiglu_ffn) -> None:
    """Exercise: swiglu_ffn(x, W_gate, W_up, W_down) = (SiLU(x W_gate) * x W_up) W_down."""
    g = torch.Generator().manual_seed(9)
    d_model, d_ff = 6, 8
    x = torch.randn(2, 4, d_model, generator=g, dtype=torch.float64)
    W_gate, W_up = (torch.randn(d_model, d_ff, generator=g, dtype=torch.float64) for _ in "gu")
    W_down = torch.randn(d_ff, d_model, generator=g, dtype=torch.float64) / d_ff**0.5
    name = f"swiglu_ffn(x {tuple(x.shape)}, W_gate, W_up, W_down)"
    got = swiglu_ffn(x.clone(), W_gate.clone(), W_up.clone(), W_down.clone())
    reference = _load_ffn(FeedForward(d_model, d_ff, "swiglu", bias=False).double(), W_up, W_down,
                          gate=W_gate)
    with torch.no_grad():
        expected = reference(x)
    gate, up = x @ W_gate, x @ W_up
    core.compare(got, expected, name=name, atol=1e-8, rtol=1e-7, mistakes=[
        ("you swapped the gate and the up projection: SiLU goes on x @ W_gate, and its result "
         "multiplies x @ W_up (which stays linear).", (F.silu(up) * gate) @ W_down),
        ("sigmoid instead of SiLU: sigmoid(x W_gate) * (x W_up) is the original GLU. SwiGLU's "
         "gate is SiLU(z) = z * sigmoid(z) (F.silu).", (torch.sigmoid(gate) * up) @ W_down),
        ("ReLU instead of SiLU: that variant is ReGLU. SwiGLU's gate is SiLU (F.silu).",
         (F.relu(gate) * up) @ W_down),
        ("GELU instead of SiLU: that variant is GEGLU. SwiGLU's gate is SiLU (F.silu).",
         (F.gelu(gate) * up) @ W_down),
        ("no gate: you used only one of the two projections. SwiGLU multiplies SiLU(x W_gate) "
         "elementwise by x W_up.", F.silu(up) @ W_down),
        ("no gate: you used only one of the two projections. SwiGLU multiplies SiLU(x W_gate) "
         "elementwise by x W_up.", F.silu(gate) @ W_down),
        ("SiLU on both projections: only the gate goes through SiLU; x @ W_up stays linear.",
         (F.silu(gate) * F.silu(up)) @ W_down),
        ("SiLU after multiplying: apply SiLU to the gate x @ W_gate first, then multiply by "
         "x @ W_up.", F.silu(gate * up) @ W_down),
        ("you added the gate instead of multiplying: the gate scales x @ W_up unit by unit, "
         "SiLU(x W_gate) * (x W_up).", (F.silu(gate) + up) @ W_down),
        ("SiLU after the down projection: the gated hidden layer SiLU(x W_gate) * (x W_up) is "
         "projected by W_down, and nothing follows.", F.silu((gate * up) @ W_down)),
    ])
    core.passed("swiglu_ffn: (SiLU(x W_gate) * x W_up) W_down, equal to "
                "helpers.blocks.FeedForward(activation='swiglu')")


# ---------------------------------------------------------------------------------------------
# Exercise: a Pre-Norm block from the weights of nn.TransformerEncoderLayer


def _encoder_layer(activation: str, seed: int) -> nn.TransformerEncoderLayer:
    """A Pre-Norm torch layer, float64, every parameter nudged (so gamma != 1, beta != 0)."""
    torch.manual_seed(seed)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation=activation,
                                       batch_first=True, norm_first=True).double().eval()
    with torch.no_grad():
        for p in layer.parameters():
            p.add_(0.3 * torch.randn_like(p))
    return layer


def _refuse(*args, **kwargs):
    raise AssertionError(
        "pre_norm_block: you called the whole layer, which proves nothing. Build the block from "
        "its parts: layer.norm1, layer.self_attn, layer.linear1, layer.activation, "
        "layer.linear2, layer.norm2."
    )


def _block_mistakes(block: TransformerBlock, x: torch.Tensor, act_name: str):
    """(message, wrong output) for each wiring mistake, from the reference block's parts."""

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
        ("Post-Norm order instead of Pre-Norm: you normalised after each residual add, "
         "H = LN1(X + Attn(X)), X_next = LN2(H + MLP(H)), the original 2017 order "
         "(norm_first=False). Pre-Norm normalises each sublayer's input and adds the raw "
         "update: H = X + Attn(LN1(X)); X_next = H + MLP(LN2(H)).", ln2(post_h + ffn(post_h))),
        ("the MLP reads X instead of H: you computed X + Attn(LN1(X)) + MLP(LN2(X)). The MLP "
         "reads H = X + Attn(LN1(X)), the state after attention's update: "
         "X_next = H + MLP(LN2(H)).", h + ffn(ln2(x))),
        ("missing a residual: attention's update replaced X instead of being added to it. "
         "H = X + Attn(LN1(X)), not Attn(LN1(X)).", no_res_h + ffn(ln2(no_res_h))),
        ("missing a residual: the MLP's update replaced H instead of being added to it. "
         "X_next = H + MLP(LN2(H)), not MLP(LN2(H)).", ffn(ln2(h))),
        ("missing both residuals: each sublayer's update is added to its input "
         "(H = X + Attn(LN1(X)); X_next = H + MLP(LN2(H))), not substituted for it.",
         ffn(ln2(no_res_h))),
        ("your residual adds LN(X) instead of X: the residual stream carries the un-normalised "
         "state. Normalise only the copy the sublayer reads: H = X + Attn(LN1(X)).",
         ln2(h_from_ln) + ffn(ln2(h_from_ln))),
        ("you used norm1 for both sublayers: the MLP's input goes through norm2, which has its "
         "own gamma and beta: X_next = H + MLP(LN2(H)).", h + ffn(ln1(h))),
        ("no LayerNorm at all: H = X + Attn(X), X_next = H + MLP(H). Pre-Norm normalises "
         "each sublayer's input: Attn(LN1(X)) and MLP(LN2(H)).",
         (x + attn(x)) + ffn(x + attn(x))),
        ("your MLP has no activation: the MLP is linear2(activation(linear1(z))). Without the "
         "activation its two linear maps collapse into one.", h + linear_mlp),
    ]
    if act_name == "gelu":
        mistakes.append(
            ("you used ReLU, but this layer's activation is GELU: call layer.activation, the "
             "layer's own activation function.", h + relu_mlp))
    return mistakes


@core.exercise
def check_pre_norm_block(pre_norm_block) -> None:
    """Exercise: pre_norm_block(x, layer) == nn.TransformerEncoderLayer(norm_first=True)(x)."""
    g = torch.Generator().manual_seed(10)
    x = torch.randn(2, 5, 8, generator=g, dtype=torch.float64) * 2  # (B, T, d_model)
    for act_name, seed in (("relu", 11), ("gelu", 12)):
        layer = _encoder_layer(act_name, seed)
        block = TransformerBlock.from_torch(layer)  # the reference, and the mistakes' parts
        with torch.no_grad():
            expected = block(x)
            torch.testing.assert_close(expected, layer(x))  # the reference is torch's layer
            mistakes = _block_mistakes(block, x, act_name)
        student_layer = copy.deepcopy(layer)
        student_layer.forward = _refuse
        got = pre_norm_block(x.clone(), student_layer)
        name = f"pre_norm_block(x {tuple(x.shape)}, layer with activation={act_name})"
        core.compare(got, expected, name=name, mistakes=mistakes, atol=1e-8, rtol=1e-7)
    core.passed("pre_norm_block: H = X + Attn(LN1(X)); X_next = H + MLP(LN2(H)); equal to "
                "nn.TransformerEncoderLayer(norm_first=True) with ReLU and with GELU")


# ---------------------------------------------------------------------------------------------
# Exercise: the parameter count of one layer


def _count_mistakes(d: int, h: int, d_ff: int):
    attn, norms = 4 * (d * d + d), 2 * 2 * d
    ffn = d * d_ff + d_ff + d_ff * d + d
    right = attn + norms + ffn
    biases = 4 * d + d_ff + d
    return [
        ("you forgot the biases: each of W_Q, W_K, W_V and W_O has a bias of d_model numbers, "
         "and the FFN's two linear maps have biases of d_ff and d_model.", right - biases),
        ("you forgot the biases (and LayerNorm's beta): every nn.Linear here has a bias, and "
         "each LayerNorm has gamma and beta.", right - biases - 2 * d),
        ("you forgot W_O, the output projection: attention has four d_model x d_model matrices "
         "(W_Q, W_K, W_V and W_O), each with its bias: 4 (d^2 + d).", right - (d * d + d)),
        ("you forgot W_O and the biases: attention has four d_model x d_model matrices "
         "(W_Q, W_K, W_V, W_O), and each linear map has a bias.",
         right - (d * d + d) - biases + d),
        ("you forgot the LayerNorm parameters: each of the two LayerNorms has gamma and beta, "
         "d_model numbers each: 2 * 2 * d_model.", right - norms),
        ("you counted only 2 * d_model LayerNorm parameters: there are two LayerNorms (before "
         "attention and before the FFN), each with gamma AND beta: 2 * 2 * d_model.",
         right - 2 * d),
        ("you multiplied the attention parameters by the number of heads: the heads split "
         "d_model into n_heads slices of d_model / n_heads, so W_Q, W_K, W_V, W_O stay "
         "d_model x d_model. n_heads does not change the count.", right + (h - 1) * attn),
        ("you counted one FFN matrix: the FFN has two, d_model x d_ff up and d_ff x d_model "
         "down, each with its bias.", right - (d_ff * d + d)),
        ("the FFN's second bias has d_model entries, not d_ff: it is added to the output, "
         "which is d_model wide.", right - d + d_ff),
    ]


@core.exercise
def check_layer_parameters(layer_parameters) -> None:
    """Exercise: layer_parameters(d_model, n_heads, d_ff) == count_parameters of one layer."""
    for d, h, d_ff in ((512, 8, 2048), (12, 3, 20), (64, 4, 256), (768, 12, 3072)):
        name = f"layer_parameters({d}, {h}, {d_ff})"
        got = layer_parameters(d, h, d_ff)
        if isinstance(got, torch.Tensor):
            got = got.item()
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            raise AssertionError(f"{name}: return a number (an int); got {type(got).__name__}")
        with torch.device("meta"):  # counts only: no memory, no initialisation cost
            expected = count_parameters(TransformerBlock(d, h, d_ff))
        core.compare(got, expected, name=name, mistakes=_count_mistakes(d, h, d_ff),
                     atol=0, rtol=0)
    core.passed("layer_parameters: 4 (d^2 + d) + 2 * 2d + (d d_ff + d_ff) + (d_ff d + d), "
                "equal to count_parameters of the layer, for 4 shapes")
