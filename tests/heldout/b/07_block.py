"""Held-out answers for exercises/07_block.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 layer_norm
    dict(exercise="ex1", kind="unbiased variance", mistake="uses torch's default x.var(), which divides by d − 1 instead of d",
         names=["biased", "d − 1", "d - 1", "unbiased", "divide by d"],
         code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="eps outside sqrt", mistake="adds eps to the standard deviation instead of inside the square root",
         names=["inside the square root", "eps inside", "√(σ² + ε)", "sqrt(var + eps)", "outside"],
         code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    return (x - mu) / (torch.sqrt(var) + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="statistics over positions", mistake="takes the mean and variance over the positions (dim=-2) instead of each position's features",
         names=["each position", "last axis", "dim=-1", "over its features", "over the batch"],
         code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-2, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-2, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="eps hard-coded", mistake="hard-codes eps = 1e-5 instead of using the eps argument",
         names=["eps argument", "its own eps", "use the argument", "hard-coded", "hardcoded"],
         code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + 1e-5) * gamma + beta
'''),
    dict(exercise="ex1", kind="gamma and beta swapped", mistake="multiplies by beta and adds gamma",
         names=["gamma", "beta", "swapped", "γ ⊙ x̂ + β", "scale and shift"],
         code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return beta * x_hat + gamma
'''),
    dict(exercise="ex1", kind="F.layer_norm", mistake="calls F.layer_norm, which the exercise forbids",
         names=["f.layer_norm", "nn.layernorm", "tensor arithmetic", "by hand", "yourself"],
         code='''import torch.nn.functional as functional


def layer_norm(x, gamma, beta, eps=1e-5):
    return functional.layer_norm(x, (x.shape[-1],), gamma, beta, eps)
'''),
    dict(exercise="ex1", kind="no keepdim", mistake="drops keepdim, so the (..., ) mean broadcasts against the feature axis instead of each position",
         names=["keepdim", "keepdim=true", "(..., 1)", "per position"],
         code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1)
    var = ((x - mu[..., None]) ** 2).mean(dim=-1)
    return (x - mu) / torch.sqrt(var + eps) * gamma + beta
'''),
    # ---------------------------------------------------------------- ex2 feed_forward
    dict(exercise="ex2", kind="activation on the output", mistake="applies the activation again after the second linear map",
         names=["hidden layer only", "after w2", "on the output", "twice", "only the hidden"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(activation(x @ W1 + b1) @ W2 + b2)
'''),
    dict(exercise="ex2", kind="activation on the input", mistake="applies the activation to x before widening instead of to the hidden layer",
         names=["on the input", "before widening", "act(x)", "activation of x"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return (activation(x) @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="activation ignored", mistake="always uses ReLU and ignores the activation argument",
         names=["activation argument", "ignores", "always relu", "the given activation"],
         code='''import torch.nn.functional as F


def feed_forward(x, W1, b1, W2, b2, activation):
    return F.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="b1 after activation", mistake="adds b1 after the activation instead of before it",
         names=["before the activation", "act(x w_1 + b_1)", "bias inside", "b1 after"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1) + b1
    return h @ W2 + b2
'''),
    dict(exercise="ex2", kind="biases dropped", mistake="leaves out both biases b1 and b2",
         names=["biases", "b2", "without bias", "no bias"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1) @ W2
'''),
    # ---------------------------------------------------------------- ex3 swiglu_ffn
    dict(exercise="ex3", kind="SiLU on the up branch", mistake="applies SiLU to x W_up instead of to the gate x W_gate",
         names=["gate branch", "silu on x w_up", "wrong branch", "up branch"],
         code='''import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    return ((x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="sigmoid gate", mistake="gates with a plain sigmoid (GLU) instead of SiLU, z · σ(z)",
         names=["sigmoid", "z · σ(z)", "glu", "plain sigmoid"],
         code='''import torch


def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.sigmoid(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="added not multiplied", mistake="adds the gate and the up projection instead of multiplying them elementwise",
         names=["elementwise product", "multiply", "instead of adding", "added"],
         code='''import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) + x @ W_up) @ W_down
'''),
    dict(exercise="ex3", kind="SiLU after the product", mistake="takes SiLU of the product of both branches instead of gating with SiLU(x W_gate)",
         names=["after the product", "silu of the product", "gate first", "product inside"],
         code='''import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu((x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="SiLU on both branches", mistake="applies SiLU to both x W_gate and x W_up",
         names=["no activation there", "both branches", "x w_up unactivated", "silu twice"],
         code='''import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="ReLU gate", mistake="gates with ReLU instead of SiLU",
         names=["relu", "f.silu", "swish", "silu, not relu"],
         code='''import torch


def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.relu(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    # ---------------------------------------------------------------- ex4 pre_norm_block
    dict(exercise="ex4", kind="MLP reads x", mistake="feeds LN2(x) to the MLP instead of LN2(H)",
         names=["reads h", "not x", "the mlp reads", "mlp input"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(x))))
'''),
    dict(exercise="ex4", kind="post-norm order", mistake="normalises after each residual addition (Post-Norm) instead of before each sub-layer",
         names=["pre-norm", "post-norm", "norm_first", "normalises after"],
         code='''def pre_norm_block(x, layer):
    h = layer.norm1(x + layer.self_attn(x, x, x, need_weights=False)[0])
    return layer.norm2(h + layer.linear2(layer.activation(layer.linear1(h))))
'''),
    dict(exercise="ex4", kind="second residual missing", mistake="returns MLP(LN2(H)) without adding H back",
         names=["second residual", "h +", "skip connection", "add h"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="keys and values from raw x", mistake="normalises only the queries and takes keys and values from the raw x",
         names=["queries, keys and values", "all come from z", "(z, z, z)", "keys and values from x"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, x, x, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="residual from normalised x", mistake="adds the attention output to LN1(x) instead of to x",
         names=["x +", "un-normalised", "raw x", "h = x", "ln_1(x) +"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = z + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="norm1 twice", mistake="uses layer.norm1 in front of the MLP too instead of layer.norm2",
         names=["norm2", "ln_2", "ln₂", "second layernorm"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm1(h))))
'''),
    dict(exercise="ex4", kind="activation hard-coded", mistake="uses F.relu instead of the layer's own activation, which is wrong for the GELU layer",
         names=["layer.activation", "gelu layer", "hard-coded relu", "layer's own activation"],
         code='''import torch.nn.functional as F


def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(F.relu(layer.linear1(layer.norm2(h))))
'''),
    # ---------------------------------------------------------------- ex5 layer_parameters
    dict(exercise="ex5", kind="LayerNorms forgotten", mistake="counts attention and the FFN but not the two LayerNorms",
         names=["layernorm", "two layernorms", "4 * d_model", "norm parameters"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * (d_model * d_model + d_model)
    ffn = (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
    return attn + ffn
'''),
    dict(exercise="ex5", kind="LayerNorm without beta", mistake="counts only gamma for each LayerNorm and forgets beta",
         names=["beta", "gamma only", "2d each"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * (d_model * d_model + d_model)
    norms = 2 * d_model
    ffn = (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
    return attn + norms + ffn
'''),
    dict(exercise="ex5", kind="attention times heads", mistake="multiplies the attention parameters by n_heads, as if each head had full-width projections",
         names=["does not matter", "independent of", "n_heads times", "d_head"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = n_heads * 4 * (d_model * d_model + d_model)
    norms = 2 * 2 * d_model
    ffn = (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
    return attn + norms + ffn
'''),
    dict(exercise="ex5", kind="attention biases forgotten", mistake="counts the four attention matrices without their biases",
         names=["attention biases", "4 (d^2 + d)", "biases of w_q", "4 biases"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * d_model * d_model
    norms = 4 * d_model
    ffn = 2 * d_model * d_ff + d_ff + d_model
    return attn + norms + ffn
'''),
    dict(exercise="ex5", kind="FFN biases forgotten", mistake="counts the FFN's two weight matrices but not their d_ff and d_model biases",
         names=["d_ff biases", "ffn biases", "+ d_ff", "biases of the ffn"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * (d_model ** 2 + d_model)
    norms = 4 * d_model
    ffn = 2 * d_model * d_ff
    return attn + norms + ffn
'''),
    dict(exercise="ex5", kind="float from d_head", mistake="goes through d_head = d_model / n_heads, so the count comes back as a float instead of an int",
         names=["an int", "integer", "float", "int("],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_head = d_model / n_heads
    attn = n_heads * 3 * (d_model * d_head + d_head) + d_model * d_model + d_model
    norms = 2 * (d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attn + norms + ffn
'''),
]

VALID = [
    dict(exercise="ex1", kind="var_mean with correction 0", code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
    return (x - mean) * torch.rsqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="sums divided by d", code='''def layer_norm(x, gamma, beta, eps=1e-5):
    d = x.shape[-1]
    mean = x.sum(dim=-1, keepdim=True) / d
    centred = x - mean
    var = (centred * centred).sum(dim=-1, keepdim=True) / d
    return gamma * (centred / (var + eps) ** 0.5) + beta
'''),
    dict(exercise="ex2", kind="F.linear", code='''import torch.nn.functional as F


def feed_forward(x, W1, b1, W2, b2, activation):
    hidden = activation(F.linear(x, W1.T, b1))     # F.linear computes x @ W.T + b
    return F.linear(hidden, W2.T, b2)
'''),
    dict(exercise="ex2", kind="einsum", code='''import torch


def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(torch.einsum("...d,df->...f", x, W1) + b1)
    return torch.einsum("...f,fd->...d", h, W2) + b2
'''),
    dict(exercise="ex3", kind="SiLU by hand", code='''import torch


def swiglu_ffn(x, W_gate, W_up, W_down):
    g = x @ W_gate
    gate = g * torch.sigmoid(g)
    return torch.mul(gate, x @ W_up) @ W_down
'''),
    dict(exercise="ex3", kind="fused gate and up", code='''import torch
import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    gate, up = (x @ torch.cat([W_gate, W_up], dim=1)).chunk(2, dim=-1)
    return (F.silu(gate) * up) @ W_down
'''),
    dict(exercise="ex4", kind="with the dropout modules", code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    attn_out, _ = layer.self_attn(z, z, z, need_weights=False)
    h = x + layer.dropout1(attn_out)                    # dropout is the identity in eval / p=0
    y = layer.norm2(h)
    mlp = layer.linear2(layer.dropout(layer.activation(layer.linear1(y))))
    return h + layer.dropout2(mlp)
'''),
    dict(exercise="ex4", kind="helper functions and default weights", code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z)[0]          # need_weights=True only adds weights; [0] is the output

    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))

    h = x + attn(layer.norm1(x))
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex5", kind="component list", code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    parts = {
        "W_Q, W_K, W_V, W_O": 4 * d * d,
        "their biases": 4 * d,
        "LayerNorm 1 and 2": 2 * (d + d),
        "linear1": d * d_ff + d_ff,
        "linear2": d_ff * d + d,
    }
    return int(sum(parts.values()))       # n_heads only splits d_model; it adds nothing
'''),
    dict(exercise="ex5", kind="factored", code='''def layer_parameters(d_model, n_heads, d_ff):
    return 4 * d_model * (d_model + 2) + d_ff * (2 * d_model + 1) + d_model
'''),
]
