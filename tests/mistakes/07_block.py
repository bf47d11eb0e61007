"""Named wrong answers for solutions/07_block.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: LayerNorm by hand
    dict(exercise="ex1", kind="normalised over the batch axis",
         expect="normalised over the wrong axis",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=0, keepdim=True)
    var = x.var(dim=0, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="normalised over the positions axis",
         expect="normalised over the wrong axis",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-2, keepdim=True)
    var = x.var(dim=-2, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="one mean per sequence", expect="normalised over the wrong axis",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=(-2, -1), keepdim=True)
    var = x.var(dim=(-2, -1), keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="unbiased variance (torch.var default)", expect="unbiased variance",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="eps outside the sqrt", expect="eps outside the square root",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    std = x.std(dim=-1, keepdim=True, unbiased=False)
    return (x - mean) / (std + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="no eps", expect="left out eps",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var) * gamma + beta
'''),
    dict(exercise="ex1", kind="eps argument ignored", expect="ignored the eps argument",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 1e-5) * gamma + beta
'''),
    dict(exercise="ex1", kind="forgot gamma and beta", expect="forgot gamma and beta",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps)
'''),
    dict(exercise="ex1", kind="forgot gamma", expect="forgot gamma",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) + beta
'''),
    dict(exercise="ex1", kind="forgot beta", expect="forgot beta",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma
'''),
    dict(exercise="ex1", kind="gamma and beta swapped", expect="swapped gamma and beta",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * beta + gamma
'''),
    dict(exercise="ex1", kind="no centring (RMSNorm)", expect="RMSNorm",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    return x / torch.sqrt((x ** 2).mean(dim=-1, keepdim=True) + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="calls F.layer_norm", expect="Write LayerNorm yourself",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)
'''),
    dict(exercise="ex1", kind="nn.LayerNorm module", expect="Write LayerNorm yourself",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    ln = nn.LayerNorm(x.shape[-1], eps=eps, dtype=x.dtype)
    with torch.no_grad():
        ln.weight.copy_(gamma)
        ln.bias.copy_(beta)
    return ln(x)
'''),
    dict(exercise="ex1", kind="eps added to the output", expect="a constant is added",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var) * gamma + beta + eps
'''),
    dict(exercise="ex1", kind="divides by the variance", expect="instead of the standard deviation",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / (var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="x.std (unbiased) with eps outside", expect="unbiased variance",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    return (x - x.mean(-1, keepdim=True)) / (x.std(-1, keepdim=True) + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="variance over the batch, mean over the features",
         expect="mixes positions",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=0, keepdim=True).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="centres in place", expect="in place",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    x -= x.mean(dim=-1, keepdim=True)
    return x / torch.sqrt((x ** 2).mean(dim=-1, keepdim=True) + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="eps times 10 inside", expect="where eps matters",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 10 * eps) * gamma + beta
'''),
    # Exercise 2: an FFN with a chosen activation
    dict(exercise="ex2", kind="activation after the second linear",
         expect="activation after the second linear",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation((x @ W1 + b1) @ W2 + b2)
'''),
    dict(exercise="ex2", kind="missing activation", expect="missing activation",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return (x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="activation twice", expect="activation after the second linear too",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(activation(x @ W1 + b1) @ W2 + b2)
'''),
    dict(exercise="ex2", kind="activation on the input", expect="activation applied to the input",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return (activation(x) @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="forgot b1", expect="forgot b1",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="always ReLU", expect="ReLU whatever activation",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return torch.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="softmax in place of the activation", expect="never called",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return torch.softmax(x @ W1 + b1, dim=-1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="minus b2", expect="what follows is not",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1 + b1) @ W2 - b2
'''),
    dict(exercise="ex2", kind="activation also on the output",
         expect="activation after the second linear too",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1 + b1)
    return activation(h @ W2 + b2)
'''),
    dict(exercise="ex2", kind="computed in float32", expect="float32",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    x, W1, b1, W2, b2 = (t.float() for t in (x, W1, b1, W2, b2))
    return activation(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="b1 doubled", expect="not x W1 + b1",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1 + 2 * b1) @ W2 + b2
'''),
    # Exercise 3: a SwiGLU FFN
    dict(exercise="ex3", kind="gate and up swapped", expect="swapped the gate and the up",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_up) * (x @ W_gate)) @ W_down
'''),
    dict(exercise="ex3", kind="sigmoid gate (GLU)", expect="sigmoid instead of SiLU",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.sigmoid(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="no gate", expect="no gate",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu(x @ W_up) @ W_down
'''),
    dict(exercise="ex3", kind="SiLU on both", expect="SiLU on both",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="gate added", expect="added the gate instead of multiplying",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) + x @ W_up) @ W_down
'''),
    dict(exercise="ex3", kind="tanh gate", expect="applies tanh",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.tanh(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="softplus gate", expect="your gate gives",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.softplus(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="scaled by 1/sqrt(d_ff)", expect="÷ √d_ff",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    d_ff = W_up.shape[1]
    return (F.silu(x @ W_gate) * (x @ W_up)) @ W_down / d_ff ** 0.5
'''),
    dict(exercise="ex3", kind="x added to the up projection", expect="with W_up = 0",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * (x @ W_up + 1)) @ W_down
'''),
    # Exercise 4: a Pre-Norm block matching nn.TransformerEncoderLayer(norm_first=True)
    dict(exercise="ex4", kind="Post-Norm order", expect="Post-Norm order instead of Pre-Norm",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = layer.norm1(x + attn(x))
    return layer.norm2(h + mlp(h))
'''),
    dict(exercise="ex4", kind="MLP reads X instead of H", expect="the MLP reads X instead of H",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    return x + attn(layer.norm1(x)) + mlp(layer.norm2(x))
'''),
    dict(exercise="ex4", kind="missing the attention residual", expect="missing a residual",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = attn(layer.norm1(x))
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="missing the MLP residual", expect="missing a residual",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = x + attn(layer.norm1(x))
    return mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="residual adds LN(X)", expect="adds LN(X) instead of X",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    x = layer.norm1(x)
    h = x + attn(x)
    h = layer.norm2(h)
    return h + mlp(h)
'''),
    dict(exercise="ex4", kind="norm1 used twice", expect="norm1 for both",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = x + attn(layer.norm1(x))
    return h + mlp(layer.norm1(h))
'''),
    dict(exercise="ex4", kind="ReLU instead of layer.activation", expect="call layer.activation",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(F.relu(layer.linear1(z)))
    h = x + attn(layer.norm1(x))
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="calls the whole layer", expect="called the whole layer",
         code='''def pre_norm_block(x, layer):
    return layer(x)
'''),
    dict(exercise="ex4", kind="attention reads x, not norm1(x)", expect="attention half is wrong",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = x + attn(x) * 0 + attn(layer.norm1(x)) * 0 + attn(x)
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="keys and values from the raw x", expect="attention half is wrong",
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, x, x, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="MLP without norm2", expect="MLP half is wrong",
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(h)))
'''),
    dict(exercise="ex4", kind="helpers block built from the layer",
         expect="Build the block from the layer's parts",
         code='''from helpers.blocks import TransformerBlock

def pre_norm_block(x, layer):
    return TransformerBlock.from_torch(layer)(x)
'''),
    dict(exercise="ex4", kind="norms swapped", expect="swapped the LayerNorms",
         code='''def pre_norm_block(x, layer):
    z = layer.norm2(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm1(h))))
'''),
    # Exercise 5: the parameter count of one layer
    dict(exercise="ex5", kind="forgot the biases", expect="forgot the biases",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    return 4 * d_model * d_model + 2 * 2 * d_model + 2 * d_model * d_ff
'''),
    dict(exercise="ex5", kind="forgot W_O", expect="forgot W_O",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 3 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + 2 * 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="forgot the LayerNorm parameters",
         expect="forgot the LayerNorm parameters",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    return attention + d_model * d_ff + d_ff + d_ff * d_model + d_model
'''),
    dict(exercise="ex5", kind="LayerNorm without beta", expect="gamma AND beta",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="attention times the number of heads",
         expect="does not change the count",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = n_heads * 4 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + 2 * 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="FFN biases forgotten", expect="forgot the FFN biases",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    return 4 * (d_model * d_model + d_model) + 4 * d_model + 2 * d_model * d_ff
'''),
    dict(exercise="ex5", kind="uses n_heads somewhere", expect="changes with n_heads",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_head = d_model // n_heads
    attention = 4 * (d_model * d_head * n_heads + d_model) + n_heads
    return attention + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model
'''),
    dict(exercise="ex5", kind="W_O without its bias", expect="1 × d_model",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * d_model * d_model + 3 * d_model
    return attention + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model
'''),
    dict(exercise="ex5", kind="returns a string", expect="return a number",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    return f"{4 * (d_model * d_model + d_model) + 4 * d_model + 2 * d_model * d_ff}"
'''),
    # ---------------------------------------------------------------- held-out answers (round 2)
    dict(exercise='ex1', kind='held-out a: statistics over batch axis',
         expect='batchnorm',
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=0, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=0, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise='ex1', kind='held-out a: dim=1 only right in 2-D',
         expect='dim=1',
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise='ex1', kind='held-out a: statistics over whole tensor',
         expect='whole tensor',
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean()
    var = ((x - mu) ** 2).mean()
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise='ex2', kind='held-out a: ignores activation argument',
         expect='activation argument',
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return F.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise='ex2', kind='held-out a: adds residual',
         expect='residual',
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return x + activation(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise='ex3', kind='held-out a: silu after down projection',
         expect='after w_down',
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu(((x @ W_gate) * (x @ W_up)) @ W_down)
'''),
    dict(exercise='ex4', kind='held-out a: residual adds normalised x',
         expect='ln1(x) +',
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = z + layer.self_attn(z, z, z, need_weights=False)[0]
    z2 = layer.norm2(h)
    return z2 + layer.linear2(layer.activation(layer.linear1(z2)))
'''),
    dict(exercise='ex4', kind='held-out a: no second residual',
         expect='residual around the mlp',
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise='ex4', kind='held-out a: second residual onto x',
         expect='onto h',
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return x + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise='ex5', kind='held-out a: attention without biases',
         expect='attention bias',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    attention = 4 * d * d
    norms = 2 * 2 * d
    ffn = (d * d_ff + d_ff) + (d_ff * d + d)
    return attention + norms + ffn
'''),
    dict(exercise='ex5', kind='held-out a: assumes d_ff = 4 d_model',
         expect='4 * d_model',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    hidden = 4 * d
    return 4 * (d * d + d) + 4 * d + (d * hidden + hidden) + (hidden * d + d)
'''),
    dict(exercise='ex5', kind='held-out a: FFN without biases',
         expect='ffn bias',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    return 4 * (d * d + d) + 4 * d + 2 * d * d_ff
'''),
    dict(exercise='ex5', kind="held-out a: one head's d_k",
         expect='d_k',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    d_k = d // n_heads
    attention = 3 * (d * d_k + d_k) + (d * d + d)
    return attention + 4 * d + (d * d_ff + d_ff) + (d_ff * d + d)
'''),
    dict(exercise='ex5', kind='held-out a: returns a float',
         expect='an int',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_k = d_model / n_heads
    attention = 4 * (n_heads * d_k * d_model + d_model)
    return attention + 4 * d_model + (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
'''),
    dict(exercise='ex1', kind='held-out b: no keepdim',
         expect='keepdim',
         code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1)
    var = ((x - mu[..., None]) ** 2).mean(dim=-1)
    return (x - mu) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise='ex2', kind='held-out b: activation ignored',
         expect='activation argument',
         code='''import torch.nn.functional as F


def feed_forward(x, W1, b1, W2, b2, activation):
    return F.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise='ex3', kind='held-out b: SiLU on the up branch',
         expect='gate branch',
         code='''import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    return ((x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise='ex3', kind='held-out b: SiLU on both branches',
         expect='no activation there',
         code='''import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise='ex5', kind='held-out b: attention times heads',
         expect='does not matter',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = n_heads * 4 * (d_model * d_model + d_model)
    norms = 2 * 2 * d_model
    ffn = (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
    return attn + norms + ffn
'''),
    dict(exercise='ex5', kind='held-out b: attention biases forgotten',
         expect='attention biases',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * d_model * d_model
    norms = 4 * d_model
    ffn = 2 * d_model * d_ff + d_ff + d_model
    return attn + norms + ffn
'''),
    dict(exercise='ex5', kind='held-out b: FFN biases forgotten',
         expect='ffn biases',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * (d_model ** 2 + d_model)
    norms = 4 * d_model
    ffn = 2 * d_model * d_ff
    return attn + norms + ffn
'''),
    dict(exercise='ex5', kind='held-out b: float from d_head',
         expect='an int',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_head = d_model / n_heads
    attn = n_heads * 3 * (d_model * d_head + d_head) + d_model * d_model + d_model
    norms = 2 * (d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attn + norms + ffn
'''),
    dict(exercise='ex1', kind='variance without keepdim', expect='keepdim=True',
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1)
    return (x - mu) / torch.sqrt(var + eps) * gamma + beta
'''),
]
