"""Held-out answers for exercises/07_block.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 layer_norm
    dict(exercise="ex1", kind="unbiased variance",
         mistake="uses torch's default var, which divides by d - 1 instead of d",
         names=["unbiased", "d - 1", "d − 1", "biased variance", "bessel"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="eps outside sqrt",
         mistake="adds eps to the standard deviation instead of to the variance inside the square root",
         names=["inside the square root", "outside the square root", "ε inside", "eps inside", "sqrt(var + eps)"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / (torch.sqrt(var) + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="normalises over positions",
         mistake="takes the mean and variance over the position axis (dim 1) instead of over each position's d features",
         names=["wrong axis", "last axis", "over the positions", "dim=-1", "feature axis"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="hard-coded eps",
         mistake="ignores the eps argument and always uses 1e-5",
         names=["eps argument", "ignores eps", "its own eps", "hard-coded eps", "the eps passed"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + 1e-5)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="gamma and beta swapped",
         mistake="scales by beta and shifts by gamma",
         names=["gamma and beta", "swapped", "γ and β", "beta scales", "gamma scales"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return beta * x_hat + gamma
'''),
    dict(exercise="ex1", kind="no centring",
         mistake="divides by the standard deviation but never subtracts the mean from x (an RMSNorm-like mix)",
         names=["subtract the mean", "centre", "center", "x − μ", "x - mu"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
    x_hat = x / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise="ex1", kind="no keepdim",
         mistake="reduces without keepdim, so the per-position mean does not broadcast back over the features",
         names=["keepdim", "broadcast", "keep that axis", "keep the axis"],
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1)
    var = ((x - mu) ** 2).mean(dim=-1)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    # ---------------------------------------------------------------- ex2 feed_forward
    dict(exercise="ex2", kind="activation on output too",
         mistake="applies the activation again after the second linear map",
         names=["after the second", "hidden layer only", "activation twice", "on the output", "second linear"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1 + b1)
    return activation(h @ W2 + b2)
'''),
    dict(exercise="ex2", kind="bias after activation",
         mistake="adds b1 after the activation instead of before it",
         names=["before the activation", "after the activation", "b1", "first bias"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1) + b1
    return h @ W2 + b2
'''),
    dict(exercise="ex2", kind="hard-coded relu",
         mistake="always uses ReLU and ignores the activation argument",
         names=["activation argument", "ignores the activation", "always relu", "hard-coded relu", "activation you are given"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = F.relu(x @ W1 + b1)
    return h @ W2 + b2
'''),
    dict(exercise="ex2", kind="missing b2",
         mistake="forgets the second bias b2",
         names=["b2", "second bias", "output bias"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1 + b1)
    return h @ W2
'''),
    dict(exercise="ex2", kind="activation on input",
         mistake="applies the activation to the input x instead of to the hidden layer",
         names=["on the input", "hidden layer", "before the first", "activation of x"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x) @ W1 + b1
    return h @ W2 + b2
'''),
    dict(exercise="ex2", kind="adds residual",
         mistake="adds the input x back (a residual connection) although the FFN alone is asked for",
         names=["residual", "adds x", "skip connection", "x +"],
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1 + b1)
    return x + h @ W2 + b2
'''),
    # ---------------------------------------------------------------- ex3 swiglu_ffn
    dict(exercise="ex3", kind="silu on up branch",
         mistake="puts SiLU on the x W_up branch instead of the gate branch",
         names=["gate and up", "silu on the up", "wrong branch", "swapped", "gate one"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return ((x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="silu on both",
         mistake="applies SiLU to both projections instead of the gate only",
         names=["both", "only the gate", "silu on the up", "up projection"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="sigmoid gate",
         mistake="gates with the sigmoid sigma(z) instead of SiLU z * sigma(z)",
         names=["sigmoid", "z · σ(z)", "z * sigma(z)", "glu", "σ(z)"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.sigmoid(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="silu after product",
         mistake="multiplies the two projections first and applies SiLU to the product",
         names=["after the product", "before multiplying", "of the product", "order"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu((x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="sum instead of product",
         mistake="adds the gate and up branches instead of multiplying them elementwise",
         names=["elementwise product", "adds", "sum instead", "multiply", "⊙"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) + x @ W_up) @ W_down
'''),
    dict(exercise="ex3", kind="relu gate",
         mistake="uses ReLU on the gate instead of SiLU",
         names=["relu", "silu", "swish"],
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    gate = torch.relu(x @ W_gate)
    return (gate * (x @ W_up)) @ W_down
'''),
    # ---------------------------------------------------------------- ex4 pre_norm_block
    dict(exercise="ex4", kind="post-norm",
         mistake="normalises after each residual sum (Post-Norm) instead of before each sub-layer",
         names=["post-norm", "post norm", "after the residual", "normalises the sum", "norm_first"],
         code='''def pre_norm_block(x, layer):
    h = layer.norm1(x + layer.self_attn(x, x, x, need_weights=False)[0])
    return layer.norm2(h + layer.linear2(layer.activation(layer.linear1(h))))
'''),
    dict(exercise="ex4", kind="residual on normalised stream",
         mistake="adds each sub-layer's output to the normalised copy instead of to the un-normalised stream",
         names=["un-normalised", "unnormalised", "normalised copy", "normalized stream", "residual"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = z + layer.self_attn(z, z, z, need_weights=False)[0]
    z2 = layer.norm2(h)
    return z2 + layer.linear2(layer.activation(layer.linear1(z2)))
'''),
    dict(exercise="ex4", kind="mlp reads x",
         mistake="feeds the MLP norm2(x) instead of norm2(H), the stream after attention's update (a parallel block)",
         names=["after attention", "norm2(x)", "parallel", "ln₂(h)", "stream after"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(x))))
'''),
    dict(exercise="ex4", kind="norm1 twice",
         mistake="uses layer.norm1 before the MLP too instead of layer.norm2",
         names=["norm2", "norm1 twice", "second layernorm", "ln₂", "ln2"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm1(h))))
'''),
    dict(exercise="ex4", kind="keys values from raw x",
         mistake="takes only the queries from the normalised z and the keys and values from the raw stream x",
         names=["keys and values", "self-attention", "all come from z", "un-normalised keys", "queries, keys and values"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, x, x, need_weights=False)[0]
    z2 = layer.norm2(h)
    return h + layer.linear2(layer.activation(layer.linear1(z2)))
'''),
    dict(exercise="ex4", kind="no activation",
         mistake="leaves out layer.activation between linear1 and linear2",
         names=["layer.activation", "nonlinearity", "activation"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.linear1(layer.norm2(h)))
'''),
    dict(exercise="ex4", kind="forgets mlp",
         mistake="returns H after the attention step and never applies the MLP sub-layer",
         names=["mlp", "second residual", "feed-forward", "ffn"],
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    return x + layer.self_attn(z, z, z, need_weights=False)[0]
'''),
    # ---------------------------------------------------------------- ex5 layer_parameters
    dict(exercise="ex5", kind="no biases",
         mistake="counts only the weight matrices and leaves out every linear map's bias",
         names=["bias", "biases"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * d_model * d_model
    norms = 2 * 2 * d_model
    ffn = d_model * d_ff + d_ff * d_model
    return attention + norms + ffn
'''),
    dict(exercise="ex5", kind="times n_heads",
         mistake="multiplies the attention parameters by n_heads, as if each head had its own d_model x d_model maps",
         names=["n_heads", "per head", "does not change", "heads share", "number of heads"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = n_heads * 4 * (d_model * d_model + d_model)
    norms = 2 * 2 * d_model
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + norms + ffn
'''),
    dict(exercise="ex5", kind="no layernorms",
         mistake="forgets the two LayerNorms' gamma and beta",
         names=["layernorm", "layer norm", "gamma", "γ", "norms"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + ffn
'''),
    dict(exercise="ex5", kind="no output projection",
         mistake="counts W_Q, W_K and W_V but forgets the output projection W_O",
         names=["w_o", "output projection", "out_proj", "four"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 3 * (d_model * d_model + d_model)
    norms = 2 * 2 * d_model
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + norms + ffn
'''),
    dict(exercise="ex5", kind="layernorm gamma only",
         mistake="counts one vector (gamma) per LayerNorm and forgets beta",
         names=["beta", "β", "gamma and beta"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    norms = 2 * d_model
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + norms + ffn
'''),
    dict(exercise="ex5", kind="ffn biases both d_ff",
         mistake="gives the FFN's second linear map a bias of d_ff numbers instead of d_model",
         names=["b2", "second bias", "d_out", "bias of the second"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    norms = 2 * 2 * d_model
    ffn = 2 * (d_model * d_ff + d_ff)
    return attention + norms + ffn
'''),
    dict(exercise="ex5", kind="per-head d_k",
         mistake="gives each of W_Q, W_K, W_V, W_O only d_model x d_k = d_model / n_heads columns, one head's worth",
         names=["n_heads", "d_k", "one head", "all heads", "does not change"],
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_k = d_model // n_heads
    attention = 4 * (d_model * d_k + d_k)
    norms = 2 * 2 * d_model
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + norms + ffn
'''),
]

VALID = [
    dict(exercise="ex1", kind="var_mean and rsqrt", code='''def layer_norm(x, gamma, beta, eps=1e-5):
    var, mu = torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)
    return (x - mu) * torch.rsqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="sums divided by d", code='''def layer_norm(x, gamma, beta, eps=1e-5):
    d = x.shape[-1]
    mu = x.sum(dim=-1, keepdim=True) / d
    centred = x - mu
    var = (centred * centred).sum(dim=-1, keepdim=True) / d
    return torch.addcmul(beta, gamma, centred / (var + eps).sqrt())
'''),
    dict(exercise="ex2", kind="F.linear with transposes", code='''def feed_forward(x, W1, b1, W2, b2, activation):
    hidden = activation(F.linear(x, W1.T, b1))
    return F.linear(hidden, W2.T, b2)
'''),
    dict(exercise="ex2", kind="einsum", code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = torch.einsum("...i,if->...f", x, W1) + b1
    return torch.einsum("...f,fo->...o", activation(h), W2) + b2
'''),
    dict(exercise="ex3", kind="silu by hand", code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    g = torch.matmul(x, W_gate)
    u = torch.matmul(x, W_up)
    return torch.matmul(g * torch.sigmoid(g) * u, W_down)
'''),
    dict(exercise="ex3", kind="einsum", code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    gate = F.silu(torch.einsum("...d,df->...f", x, W_gate))
    up = torch.einsum("...d,df->...f", x, W_up)
    return torch.einsum("...f,fd->...d", gate * up, W_down)
'''),
    dict(exercise="ex4", kind="keyword arguments and helpers", code='''def pre_norm_block(x, layer):
    def attn(z):
        out, _ = layer.self_attn(query=z, key=z, value=z, need_weights=False)
        return out

    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))

    h = x + attn(layer.norm1(x))
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="one sequence at a time", code='''def pre_norm_block(x, layer):
    outputs = []
    for b in range(x.shape[0]):
        xb = x[b : b + 1]
        zb = layer.norm1(xb)
        hb = xb + layer.self_attn(zb, zb, zb, need_weights=False)[0]
        mb = layer.linear2(layer.activation(layer.linear1(layer.norm2(hb))))
        outputs.append(hb + mb)
    return torch.cat(outputs, dim=0)
'''),
    dict(exercise="ex5", kind="linear helper", code='''def layer_parameters(d_model, n_heads, d_ff):
    def linear(d_in, d_out):
        return d_in * d_out + d_out

    attention = sum(linear(d_model, d_model) for _ in ("q", "k", "v", "o"))
    norms = 2 * (d_model + d_model)
    ffn = linear(d_model, d_ff) + linear(d_ff, d_model)
    return int(attention + norms + ffn)
'''),
    dict(exercise="ex5", kind="closed form", code='''def layer_parameters(d_model, n_heads, d_ff):
    return 4 * d_model * d_model + 2 * d_model * d_ff + 9 * d_model + d_ff
'''),
]
