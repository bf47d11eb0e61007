"""Held-out answers for exercises/07_block.ipynb, written from the exercise texts alone."""

WRONG = [
    dict(exercise="ex1", kind="unbiased variance", mistake="uses torch.var with its default Bessel correction, dividing by d - 1 instead of d",
         names=["biased", "d - 1", "d-1", "unbiased", "bessel"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return gamma * (x - mu) / torch.sqrt(var + eps) + beta
'''),
    dict(exercise="ex1", kind="eps outside sqrt", mistake="adds eps to the standard deviation after the square root instead of to the variance inside it",
         names=["inside the square root", "outside the square root", "eps inside", "sqrt(var + eps)", "σ² + ε"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    std = ((x - mu) ** 2).mean(dim=-1, keepdim=True).sqrt()
    return gamma * (x - mu) / (std + eps) + beta
'''),
    dict(exercise="ex1", kind="normalises over positions too", mistake="takes the mean and variance over the last two axes, mixing positions, instead of each position's own d features",
         names=["each position", "per position", "last axis", "over positions", "dim=-1"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    dims = tuple(range(1, x.dim())) if x.dim() > 1 else (-1,)
    mu = x.mean(dim=dims, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=dims, keepdim=True)
    return gamma * (x - mu) / torch.sqrt(var + eps) + beta
'''),
    dict(exercise="ex1", kind="ignores eps argument", mistake="hard-codes eps = 1e-5 inside the function instead of using the eps argument",
         names=["eps argument", "its own eps", "hard-coded eps", "ignores eps", "the eps you are given"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    return gamma * (x - mu) / torch.sqrt(var + 1e-5) + beta
'''),
    dict(exercise="ex1", kind="gamma and beta swapped", mistake="scales by beta and shifts by gamma",
         names=["swapped", "gamma scales", "beta shifts", "gamma and beta"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return beta * x_hat + gamma
'''),
    dict(exercise="ex1", kind="sqrt of std", mistake="divides by the square root of the standard deviation instead of the square root of the variance",
         names=["standard deviation", "std", "variance", "σ²"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(-1, keepdim=True)
    sd = x.std(-1, unbiased=False, keepdim=True)
    return gamma * (x - mu) / torch.sqrt(sd + eps) + beta
'''),
    dict(exercise="ex2", kind="activation after both layers", mistake="also applies the activation to the output of the second linear map",
         names=["hidden layer only", "after the second", "output layer", "twice", "only on the hidden"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1 + b1)
    return activation(h @ W2 + b2)
'''),
    dict(exercise="ex2", kind="hard-coded relu", mistake="always uses F.relu and ignores the activation argument",
         names=["activation argument", "the activation you are given", "gelu", "ignores activation", "hard-coded relu"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return F.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="bias after activation", mistake="adds b1 after the activation instead of before it",
         names=["b1", "before the activation", "after the activation", "first bias"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1) + b1
    return h @ W2 + b2
'''),
    dict(exercise="ex2", kind="forgets b2", mistake="leaves out the second bias b2",
         names=["b2", "second bias", "output bias"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    hidden = activation(torch.matmul(x, W1) + b1)
    return torch.matmul(hidden, W2)
'''),
    dict(exercise="ex3", kind="silu on the up branch", mistake="puts SiLU on x W_up instead of on the gate x W_gate",
         names=["gate", "w_gate", "w_up", "swapped", "wrong branch"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return ((x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="sigmoid instead of silu", mistake="gates with a plain sigmoid σ(x W_gate) instead of SiLU z·σ(z)",
         names=["sigmoid", "silu", "z · σ(z)", "z * sigmoid"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.sigmoid(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="silu of the product", mistake="applies SiLU after multiplying the two branches instead of to the gate alone",
         names=["gate alone", "only the gate", "after the product", "silu of the product"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu((x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="silu on both", mistake="applies SiLU to both projections",
         names=["both", "only the gate", "w_up"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    g = F.silu(x @ W_gate)
    u = F.silu(x @ W_up)
    return (g * u) @ W_down
'''),
    dict(exercise="ex4", kind="post-norm", mistake="normalises after each residual addition (Post-Norm) instead of before each sub-layer",
         names=["post-norm", "post norm", "pre-norm", "before the sub-layer", "after the residual"],
         code='''def pre_norm_block(x, layer):
    h = layer.norm1(x + layer.self_attn(x, x, x, need_weights=False)[0])
    mlp = layer.linear2(layer.activation(layer.linear1(h)))
    return layer.norm2(h + mlp)
'''),
    dict(exercise="ex4", kind="mlp reads x not h", mistake="feeds LN2 the block's input x instead of the stream H after attention (a parallel block)",
         names=["after attention", "ln_2(h)", "norm2(h)", "parallel", "reads x"],
         code='''def pre_norm_block(x, layer):
    a = layer.self_attn(layer.norm1(x), layer.norm1(x), layer.norm1(x), need_weights=False)[0]
    m = layer.linear2(layer.activation(layer.linear1(layer.norm2(x))))
    return x + a + m
'''),
    dict(exercise="ex4", kind="residual from normalised copy", mistake="adds the sub-layer outputs to the normalised copy instead of the un-normalised stream",
         names=["un-normalised", "unnormalised", "residual", "normalised copy", "raw stream"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = z + layer.self_attn(z, z, z, need_weights=False)[0]
    z2 = layer.norm2(h)
    return z2 + layer.linear2(layer.activation(layer.linear1(z2)))
'''),
    dict(exercise="ex4", kind="keys and values unnormalised", mistake="normalises only the queries; keys and values come from the raw x",
         names=["keys and values", "queries, keys and values", "self-attention", "same z", "k and v"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, x, x, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="norm1 twice", mistake="reuses norm1 before the MLP instead of norm2",
         names=["norm2", "ln_2", "ln₂", "second layernorm"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    z = layer.norm1(h)
    return h + layer.linear2(layer.activation(layer.linear1(z)))
'''),
    dict(exercise="ex4", kind="relu instead of layer.activation", mistake="uses F.relu in the MLP instead of the layer's own activation, wrong for the GELU layer",
         names=["layer.activation", "gelu", "activation"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(F.relu(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex5", kind="no attention biases", mistake="counts the four attention maps without their biases",
         names=["bias", "biases", "+ d_model"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * d_model * d_model
    norms = 2 * 2 * d_model
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attn + norms + ffn
'''),
    dict(exercise="ex5", kind="attention times heads", mistake="multiplies the attention parameters by n_heads, as if each head had full d_model x d_model maps",
         names=["n_heads", "per head", "heads share", "does not change", "d_model / n_heads"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = n_heads * 4 * (d_model * d_model + d_model)
    norms = 4 * d_model
    ffn = 2 * d_model * d_ff + d_ff + d_model
    return attn + norms + ffn
'''),
    dict(exercise="ex5", kind="forgets W_O", mistake="counts only W_Q, W_K and W_V, leaving out the output projection W_O",
         names=["w_o", "output projection", "out_proj", "four"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 3 * (d_model * d_model + d_model)
    ln = 2 * (2 * d_model)
    ffn = (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
    return attn + ln + ffn
'''),
    dict(exercise="ex5", kind="one layernorm gamma only", mistake="counts only gamma of each LayerNorm, forgetting beta",
         names=["beta", "gamma and beta", "layernorm"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * (d_model ** 2 + d_model)
    norms = 2 * d_model
    ffn = 2 * d_model * d_ff + d_ff + d_model
    return attn + norms + ffn
'''),
    dict(exercise="ex5", kind="ffn biases both d_ff", mistake="gives both FFN biases d_ff entries, although the second map's bias has d_model",
         names=["b2", "second bias", "d_out", "ffn bias"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * (d_model * d_model + d_model)
    norms = 4 * d_model
    ffn = 2 * (d_model * d_ff + d_ff)
    return attn + norms + ffn
'''),
]

VALID = [
    dict(exercise="ex1", kind="var correction 0 and rsqrt", code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)
    return (x - mu) * torch.rsqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="E[x^2] minus mean squared", code='''def layer_norm(x, gamma, beta, eps=1e-5):
    d = x.shape[-1]
    s1 = x.sum(-1, keepdim=True) / d
    centred = x - s1
    var = (centred * centred).sum(-1, keepdim=True) / d
    return gamma * (centred / (var + eps) ** 0.5) + beta
'''),
    dict(exercise="ex2", kind="F.linear", code='''def feed_forward(x, W1, b1, W2, b2, activation):
    hidden = F.linear(x, W1.T, b1)
    return F.linear(activation(hidden), W2.T, b2)
'''),
    dict(exercise="ex2", kind="einsum", code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(torch.einsum("...i,ih->...h", x, W1) + b1)
    return torch.einsum("...h,ho->...o", h, W2) + b2
'''),
    dict(exercise="ex3", kind="explicit silu", code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    g = x @ W_gate
    gated = g * torch.sigmoid(g) * (x @ W_up)
    return gated @ W_down
'''),
    dict(exercise="ex3", kind="matmul on concatenated weights", code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    both = x @ torch.cat([W_gate, W_up], dim=1)
    g, u = both.split(W_gate.shape[1], dim=-1)
    return torch.matmul(F.silu(g) * u, W_down)
'''),
    dict(exercise="ex4", kind="step by step", code='''def pre_norm_block(x, layer):
    def attn(z):
        out, _ = layer.self_attn(z, z, z, need_weights=False)
        return out

    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))

    h = x + attn(layer.norm1(x))
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="need_weights true", code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    a = layer.self_attn(query=z, key=z, value=z, need_weights=True)[0]
    stream = x + a
    y = layer.norm2(stream)
    y = layer.linear1(y)
    y = layer.activation(y)
    y = layer.linear2(y)
    return stream + y
'''),
    dict(exercise="ex5", kind="list of shapes", code='''def layer_parameters(d_model, n_heads, d_ff):
    linears = [(d_model, d_model)] * 4 + [(d_model, d_ff), (d_ff, d_model)]
    total = sum(i * o + o for i, o in linears)
    total += 2 * (d_model + d_model)
    return int(total)
'''),
    dict(exercise="ex5", kind="closed form", code='''def layer_parameters(d_model, n_heads, d_ff):
    d, f = d_model, d_ff
    return 4 * d * d + 2 * d * f + 9 * d + f
'''),
]
