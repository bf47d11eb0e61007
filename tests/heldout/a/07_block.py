"""Held-out answers for exercises/07_block.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1: layer_norm
    dict(exercise="ex1", kind="unbiased variance", mistake="uses torch.var's default, the unbiased variance that divides by d - 1 instead of d",
         names=["unbiased", "d - 1", "d-1", "biased variance", "correction"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="eps outside sqrt", mistake="adds eps to the standard deviation after the square root instead of inside it",
         names=["inside the square root", "outside the square root", "ε inside", "eps inside", "after the square root"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / (torch.sqrt(var) + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="statistics over batch axis", mistake="takes the mean and variance over the first (batch) axis, like BatchNorm, instead of over each position's features",
         names=["batchnorm", "batch axis", "over the batch", "dim=0", "across the batch"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=0, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=0, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="hard-coded eps", mistake="ignores the eps argument and always uses 1e-5",
         names=["eps argument", "ignores eps", "hard-coded", "the eps it is given", "passed eps"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + 1e-5)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="gamma and beta swapped", mistake="scales by beta and shifts by gamma",
         names=["swapped", "gamma and beta", "γ and β", "beta and gamma"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return beta * x_hat + gamma
'''),
    dict(exercise="ex1", kind="divides by variance", mistake="divides by the variance plus eps, forgetting the square root",
         names=["forgot the square root", "no square root", "standard deviation", "missing sqrt", "divides by the variance"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / (var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="uncentred variance", mistake="computes the 'variance' as the mean of x squared without subtracting the mean, like RMSNorm",
         names=["rmsnorm", "subtract the mean", "centre", "center", "mean of x²"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = (x ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="dim=1 only right in 2-D", mistake="normalises over dim=1, which is the feature axis only for 2-D input; for (B, T, d) it normalises over the positions",
         names=["dim=1", "leading axes", "over the positions", "3-d", "any leading"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="statistics over whole tensor", mistake="takes one mean and one variance over the whole tensor instead of one per position",
         names=["whole tensor", "one mean for", "per position", "each position separately", "all positions"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean()
    var = ((x - mu) ** 2).mean()
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="uses F.layer_norm alias", mistake="calls the forbidden torch layer_norm (imported under another name) instead of tensor arithmetic",
         names=["f.layer_norm", "nn.layernorm", "tensor arithmetic", "by hand", "not allowed"],
         code='''from torch.nn.functional import layer_norm as ln


def layer_norm(x, gamma, beta, eps=1e-5):
    return ln(x, (x.shape[-1],), gamma, beta, eps)
'''),
    # ---------------------------------------------------------------- ex2: feed_forward
    dict(exercise="ex2", kind="activation on output too", mistake="applies the activation a second time, after the second linear map",
         names=["after the second", "twice", "second activation", "on the output", "activation at the end"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1 + b1)
    return activation(h @ W2 + b2)
'''),
    dict(exercise="ex2", kind="activation on the input", mistake="applies the activation to x before the first linear map instead of to the hidden layer",
         names=["before the first", "to the input", "act(x)", "activation on x"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return (activation(x) @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="forgets b2", mistake="leaves out the output bias b2",
         names=["b2", "b₂", "output bias"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1 + b1) @ W2
'''),
    dict(exercise="ex2", kind="ignores activation argument", mistake="always uses ReLU whatever activation is passed",
         names=["activation argument", "ignores the activation", "always relu", "activation you are given", "passed activation"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return F.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="bias after activation", mistake="adds b1 after the activation instead of before it",
         names=["b1", "b₁", "before the activation", "after the activation", "bias after"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1) + b1
    return h @ W2 + b2
'''),
    dict(exercise="ex2", kind="adds residual", mistake="adds the input x to the output, a residual connection that belongs to the block, not the FFN",
         names=["residual", "adds x", "x +", "skip connection"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return x + activation(x @ W1 + b1) @ W2 + b2
'''),
    # ---------------------------------------------------------------- ex3: swiglu_ffn
    dict(exercise="ex3", kind="silu on both branches", mistake="applies SiLU to the up branch x W_up as well as to the gate",
         names=["both", "silu on both", "up branch", "no activation on", "linear branch"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="sigmoid instead of silu", mistake="gates with the sigmoid σ(z) instead of SiLU z · σ(z)",
         names=["sigmoid", "z · σ(z)", "z * sigmoid", "σ(z) alone"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.sigmoid(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="gate and up swapped", mistake="puts the SiLU on x W_up and leaves x W_gate linear",
         names=["w_gate and w_up", "gate and up", "silu on x w_up", "swapped"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_up) * (x @ W_gate)) @ W_down
'''),
    dict(exercise="ex3", kind="silu of the product", mistake="multiplies the two branches first and applies SiLU to the product",
         names=["silu of the product", "before the product", "after multiplying", "product first"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu((x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="adds instead of multiplies", mistake="adds the gate to the up branch instead of multiplying elementwise",
         names=["added", "adds the gate", "sum instead", "+ instead of *", "instead of multiplying"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) + x @ W_up) @ W_down
'''),
    dict(exercise="ex3", kind="gelu gate", mistake="uses GELU instead of SiLU for the gate",
         names=["gelu", "swish", "instead of silu"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.gelu(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="silu after down projection", mistake="projects with W_down first and applies SiLU at the very end",
         names=["after w_down", "at the end", "before w_down", "after the projection"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu(((x @ W_gate) * (x @ W_up)) @ W_down)
'''),
    # ---------------------------------------------------------------- ex4: pre_norm_block
    dict(exercise="ex4", kind="MLP reads x", mistake="feeds the MLP LN2 of the input x instead of LN2 of H",
         names=["reads h", "not x", "norm2(h)", "ln₂(h)", "ln2(h)"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    mlp = layer.linear2(layer.activation(layer.linear1(layer.norm2(x))))
    return h + mlp
'''),
    dict(exercise="ex4", kind="post-norm order", mistake="writes the Post-Norm block, LN after each residual sum, instead of Pre-Norm",
         names=["post-norm", "post norm", "pre-norm", "norm_first", "before the sublayer"],
         code='''def pre_norm_block(x, layer):
    h = layer.norm1(x + layer.self_attn(x, x, x, need_weights=False)[0])
    return layer.norm2(h + layer.linear2(layer.activation(layer.linear1(h))))
'''),
    dict(exercise="ex4", kind="residual adds normalised x", mistake="adds the attention output to LN1(X) instead of to X, so the residual carries the normalised stream",
         names=["ln₁(x) +", "ln1(x) +", "normalised input", "adds to the normalised", "raw x"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = z + layer.self_attn(z, z, z, need_weights=False)[0]
    z2 = layer.norm2(h)
    return z2 + layer.linear2(layer.activation(layer.linear1(z2)))
'''),
    dict(exercise="ex4", kind="norms swapped", mistake="uses norm2 before attention and norm1 before the MLP",
         names=["norm1 and norm2", "swapped", "norm2 before", "norm1 before the mlp"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm2(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    z2 = layer.norm1(h)
    return h + layer.linear2(layer.activation(layer.linear1(z2)))
'''),
    dict(exercise="ex4", kind="keys values from raw x", mistake="normalises only the queries and takes keys and values from the raw x",
         names=["keys and values", "z, z, z", "all come from z", "normalised keys", "raw x as keys"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, x, x, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="no second residual", mistake="forgets the residual around the MLP and returns MLP(LN2(H)) alone",
         names=["second residual", "residual around the mlp", "skip connection", "forgot to add h", "without h"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="MLP without activation", mistake="leaves the activation out of the MLP, two linear maps in a row",
         names=["layer.activation", "nonlinearity", "no activation", "without the activation"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.linear1(layer.norm2(h)))
'''),
    dict(exercise="ex4", kind="second residual onto x", mistake="adds the MLP update to the original x instead of to H, dropping the attention update",
         names=["onto h", "attention update", "x + mlp", "instead of h", "drops the attention"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return x + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    # ---------------------------------------------------------------- ex5: layer_parameters
    dict(exercise="ex5", kind="attention without biases", mistake="counts the four attention matrices but not their biases",
         names=["attention bias", "4(d² + d)", "4 (d^2 + d)", "4(d^2 + d)", "biases of w_q"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    attention = 4 * d * d
    norms = 2 * 2 * d
    ffn = (d * d_ff + d_ff) + (d_ff * d + d)
    return attention + norms + ffn
'''),
    dict(exercise="ex5", kind="multiplies by n_heads", mistake="multiplies the attention count by the number of heads, as if every head had its own d_model x d_model matrices",
         names=["times n_heads", "heads do not", "number of heads", "heads split", "multiplied by the heads"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    attention = n_heads * 4 * (d * d + d)
    norms = 2 * 2 * d
    ffn = (d * d_ff + d_ff) + (d_ff * d + d)
    return attention + norms + ffn
'''),
    dict(exercise="ex5", kind="LayerNorm gamma only", mistake="counts only gamma for each LayerNorm, forgetting beta",
         names=["beta", "γ and β", "gamma and beta", "2 · 2d", "β"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    return 4 * (d * d + d) + 2 * d + (d * d_ff + d_ff) + (d_ff * d + d)
'''),
    dict(exercise="ex5", kind="forgets W_O", mistake="counts W_Q, W_K and W_V but not the output projection W_O",
         names=["w_o", "output projection", "four matrices", "out_proj"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    return 3 * (d * d + d) + 2 * 2 * d + (d * d_ff + d_ff) + (d_ff * d + d)
'''),
    dict(exercise="ex5", kind="assumes d_ff = 4 d_model", mistake="uses 4 * d_model for the FFN width instead of the d_ff argument",
         names=["ignores d_ff", "4 * d_model", "4·d_model", "the d_ff argument", "d_ff you are given"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    hidden = 4 * d
    return 4 * (d * d + d) + 4 * d + (d * hidden + hidden) + (hidden * d + d)
'''),
    dict(exercise="ex5", kind="FFN without biases", mistake="counts the FFN's two weight matrices but not their biases",
         names=["ffn bias", "ffn's bias", "b1 and b2", "d_ff + d", "biases of the ffn"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    return 4 * (d * d + d) + 4 * d + 2 * d * d_ff
'''),
    dict(exercise="ex5", kind="one head's d_k", mistake="sizes W_Q, W_K and W_V as d_model x d_k for a single head instead of all heads together",
         names=["d_k", "one head", "all heads", "d_model / n_heads", "per head"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    d_k = d // n_heads
    attention = 3 * (d * d_k + d_k) + (d * d + d)
    return attention + 4 * d + (d * d_ff + d_ff) + (d_ff * d + d)
'''),
    dict(exercise="ex5", kind="returns a float", mistake="splits d_model by n_heads with / and so returns a float, not an int",
         names=["an int", "integer", "float", "whole number"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_k = d_model / n_heads
    attention = 4 * (n_heads * d_k * d_model + d_model)
    return attention + 4 * d_model + (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
'''),
]

VALID = [
    dict(exercise="ex1", kind="var_mean and rsqrt", code='''def layer_norm(x, gamma, beta, eps=1e-5):
    var, mu = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
    return (x - mu) * torch.rsqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="sums divided by d", code='''def layer_norm(x, gamma, beta, eps=1e-5):
    d = x.shape[-1]
    centred = x - x.sum(dim=-1, keepdim=True) / d
    var = (centred * centred).sum(dim=-1, keepdim=True) / d
    return gamma * (centred / (var + eps) ** 0.5) + beta
'''),
    dict(exercise="ex2", kind="einsum", code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(torch.einsum("...d,df->...f", x, W1) + b1)
    return torch.einsum("...f,fd->...d", h, W2) + b2
'''),
    dict(exercise="ex2", kind="F.linear with transposes", code='''def feed_forward(x, W1, b1, W2, b2, activation):
    hidden = F.linear(x, W1.T, b1)
    hidden = activation(hidden)
    return F.linear(hidden, W2.T, b2)
'''),
    dict(exercise="ex3", kind="silu by hand", code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    g = x @ W_gate
    gate = g * torch.sigmoid(g)
    return torch.matmul(gate * torch.matmul(x, W_up), W_down)
'''),
    dict(exercise="ex3", kind="einsum", code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    gate = F.silu(torch.einsum("...d,df->...f", x, W_gate))
    up = torch.einsum("...d,df->...f", x, W_up)
    return torch.einsum("...f,fd->...d", torch.mul(gate, up), W_down)
'''),
    dict(exercise="ex4", kind="named sublayers", code='''def pre_norm_block(x, layer):
    def attn(z):
        out, _ = layer.self_attn(z, z, z, need_weights=False)
        return out

    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))

    h = x + attn(layer.norm1(x))
    x_next = h + mlp(layer.norm2(h))
    return x_next
'''),
    dict(exercise="ex4", kind="attention from in_proj by hand", code='''def pre_norm_block(x, layer):
    mha = layer.self_attn
    B, T, d = x.shape
    H = mha.num_heads
    z = layer.norm1(x)
    q, k, v = F.linear(z, mha.in_proj_weight, mha.in_proj_bias).chunk(3, dim=-1)
    q, k, v = (t.reshape(B, T, H, d // H).transpose(1, 2) for t in (q, k, v))
    w = torch.softmax(q @ k.transpose(-2, -1) / (d // H) ** 0.5, dim=-1)
    heads = (w @ v).transpose(1, 2).reshape(B, T, d)
    h = x + mha.out_proj(heads)
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex5", kind="closed form", code='''def layer_parameters(d_model, n_heads, d_ff):
    # n_heads only splits d_model: it does not change the count
    return 4 * d_model**2 + 2 * d_model * d_ff + 9 * d_model + d_ff
'''),
    dict(exercise="ex5", kind="sum over shapes", code='''import math


def layer_parameters(d_model, n_heads, d_ff):
    shapes = []
    for _ in range(4):                       # W_Q, W_K, W_V, W_O and their biases
        shapes += [(d_model, d_model), (d_model,)]
    for _ in range(2):                       # two LayerNorms: gamma and beta
        shapes += [(d_model,), (d_model,)]
    shapes += [(d_model, d_ff), (d_ff,), (d_ff, d_model), (d_model,)]
    return int(sum(math.prod(s) for s in shapes))
'''),
]
