"""Named wrong answers for solutions/07_block.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: LayerNorm by hand
    dict(exercise="ex1", kind="normalised over the batch axis",
         expect="normalised over the wrong axis", id="block.layer-norm-wrong-axis",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=0, keepdim=True)
    var = x.var(dim=0, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="normalised over the positions axis",
         expect="normalised over the wrong axis", id="block.layer-norm-wrong-axis",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-2, keepdim=True)
    var = x.var(dim=-2, keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="one mean per sequence", expect="normalised over the wrong axis",
         id="block.layer-norm-wrong-axis",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=(-2, -1), keepdim=True)
    var = x.var(dim=(-2, -1), keepdim=True, unbiased=False)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="unbiased variance (torch.var default)", expect="unbiased variance",
         id="block.layer-norm-unbiased",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="eps outside the sqrt", expect="eps outside the square root",
         id="block.layer-norm-eps-outside",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    std = x.std(dim=-1, keepdim=True, unbiased=False)
    return (x - mean) / (std + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="no eps", expect="left out eps", id="block.layer-norm-no-eps",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var) * gamma + beta
'''),
    dict(exercise="ex1", kind="eps argument ignored", expect="ignored the eps argument",
         id="block.layer-norm-eps-ignored",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 1e-5) * gamma + beta
'''),
    dict(exercise="ex1", kind="forgot gamma and beta", expect="forgot gamma and beta",
         id="block.layer-norm-no-affine",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps)
'''),
    dict(exercise="ex1", kind="forgot gamma", expect="forgot gamma", id="block.layer-norm-no-gamma",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) + beta
'''),
    dict(exercise="ex1", kind="forgot beta", expect="forgot beta", id="block.layer-norm-no-beta",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma
'''),
    dict(exercise="ex1", kind="gamma and beta swapped", expect="swapped gamma and beta",
         id="block.layer-norm-gamma-beta-swapped",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * beta + gamma
'''),
    dict(exercise="ex1", kind="no centring (RMSNorm)", expect="RMSNorm", id="block.layer-norm-rms",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    return x / torch.sqrt((x ** 2).mean(dim=-1, keepdim=True) + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="calls F.layer_norm", expect="Write LayerNorm yourself",
         id="rule.forbidden-call",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    return F.layer_norm(x, x.shape[-1:], gamma, beta, eps)
'''),
    dict(exercise="ex1", kind="nn.LayerNorm module", expect="Write LayerNorm yourself",
         id="rule.forbidden-call",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    ln = nn.LayerNorm(x.shape[-1], eps=eps, dtype=x.dtype)
    with torch.no_grad():
        ln.weight.copy_(gamma)
        ln.bias.copy_(beta)
    return ln(x)
'''),
    dict(exercise="ex1", kind="eps added to the output", expect="a constant is added",
         id="block.layer-norm-offset",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var) * gamma + beta + eps
'''),
    dict(exercise="ex1", kind="divides by the variance", expect="instead of the standard deviation",
         id="block.layer-norm-no-sqrt",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / (var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="x.std (unbiased) with eps outside", expect="unbiased variance",
         id="block.layer-norm-unbiased",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    return (x - x.mean(-1, keepdim=True)) / (x.std(-1, keepdim=True) + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="variance over the batch, mean over the features",
         expect="mixes positions", id="block.layer-norm-mixes-positions",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=0, keepdim=True).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="centres in place", expect="in place", id="generic.input-modified",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    x -= x.mean(dim=-1, keepdim=True)
    return x / torch.sqrt((x ** 2).mean(dim=-1, keepdim=True) + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="eps times 10 inside", expect="where eps matters",
         id="block.layer-norm-eps",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 10 * eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="beta added before gamma scales", expect="shifted before scaling",
         id="block.layer-norm-shift-then-scale",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return ((x - mean) / torch.sqrt(var + eps) + beta) * gamma
'''),
    dict(exercise="ex1", kind="square root of the standard deviation",
         expect="square root twice", id="block.layer-norm-root-twice",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    std = torch.sqrt(((x - mean) ** 2).mean(dim=-1, keepdim=True) + eps)
    return (x - mean) / torch.sqrt(std) * gamma + beta
'''),
    dict(exercise="ex1", kind="mean not subtracted in the numerator",
         expect="should have mean 0", id="block.layer-norm-not-centred",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return x / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="sum of squares instead of their mean",
         expect="should have variance 1", id="block.layer-norm-not-unit-variance",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).sum(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise="ex1", kind="gamma applied before normalising", expect="scaled by gamma",
         id="block.layer-norm-gamma",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    x = x * gamma
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) + beta
'''),
    dict(exercise="ex1", kind="beta added before normalising", expect="shifted by beta",
         id="block.layer-norm-beta",
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    x = x + beta
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma
'''),
    # Exercise 2: an FFN with a chosen activation
    dict(exercise="ex2", kind="activation after the second linear",
         expect="activation after the second linear", id="block.ffn-activation-after-output",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation((x @ W1 + b1) @ W2 + b2)
'''),
    dict(exercise="ex2", kind="missing activation", expect="missing activation",
         id="block.ffn-no-activation",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return (x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="activation twice", expect="activation after the second linear too",
         id="block.ffn-activation-twice",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(activation(x @ W1 + b1) @ W2 + b2)
'''),
    dict(exercise="ex2", kind="activation on the input", expect="activation applied to the input",
         id="block.ffn-activation-on-input",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return (activation(x) @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="forgot b1", expect="forgot b1", id="block.ffn-no-b1",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="always ReLU", expect="ReLU whatever activation",
         id="block.ffn-activation-unused",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return torch.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="softmax in place of the activation", expect="never called",
         id="block.ffn-activation-unused",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return torch.softmax(x @ W1 + b1, dim=-1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="minus b2", expect="what follows is not", id="block.ffn-output-wrong",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1 + b1) @ W2 - b2
'''),
    dict(exercise="ex2", kind="activation also on the output",
         expect="activation after the second linear too", id="block.ffn-activation-twice",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = activation(x @ W1 + b1)
    return activation(h @ W2 + b2)
'''),
    dict(exercise="ex2", kind="computed in float32", expect="float32", id="generic.precision",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    x, W1, b1, W2, b2 = (t.float() for t in (x, W1, b1, W2, b2))
    return activation(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="b1 doubled", expect="not x W1 + b1", id="block.ffn-hidden-wrong",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1 + 2 * b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="forgot b2", expect="forgot b2", id="block.ffn-no-b2",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1 + b1) @ W2
'''),
    dict(exercise="ex2", kind="no biases at all", expect="both biases", id="block.ffn-no-biases",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation(x @ W1) @ W2
'''),
    dict(exercise="ex2", kind="b1 added after the activation",
         expect="added b1 after the activation", id="block.ffn-b1-after-activation",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return (activation(x @ W1) + b1) @ W2 + b2
'''),
    dict(exercise="ex2", kind="activation after W2, before b2", expect="belongs on the hidden",
         id="block.ffn-activation-wrong-place",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return activation((x @ W1 + b1) @ W2) + b2
'''),
    dict(exercise="ex2", kind="column vectors, reshaped back instead of transposed",
         expect="mixes positions", id="block.ffn-mixes-positions",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    cols = x.reshape(-1, x.shape[-1]).T                 # (d_model, N): one column per position
    h = activation(W1.T @ cols + b1[:, None])           # (d_ff, N)
    out = W2.T @ h + b2[:, None]                        # (d_model, N)
    return out.reshape(x.shape)
'''),
    dict(exercise="ex2", kind="activation computed, ReLU returned",
         expect="ReLU whatever activation", id="block.ffn-fixed-relu",
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    h = x @ W1 + b1
    a = activation(h)
    return torch.relu(h) @ W2 + b2
'''),
    # Exercise 3: a SwiGLU FFN
    dict(exercise="ex3", kind="gate and up swapped", expect="swapped the gate and the up",
         id="block.swiglu-gate-up-swapped",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_up) * (x @ W_gate)) @ W_down
'''),
    dict(exercise="ex3", kind="sigmoid gate (GLU)", expect="sigmoid instead of SiLU",
         id="block.swiglu-sigmoid-gate",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.sigmoid(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="no gate", expect="no gate", id="block.swiglu-no-gate",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu(x @ W_up) @ W_down
'''),
    dict(exercise="ex3", kind="SiLU on both", expect="SiLU on both", id="block.swiglu-silu-on-both",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="gate added", expect="added the gate instead of multiplying",
         id="block.swiglu-gate-added",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) + x @ W_up) @ W_down
'''),
    dict(exercise="ex3", kind="tanh gate", expect="applies tanh", id="block.swiglu-gate-function",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (torch.tanh(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="softplus gate", expect="your gate gives",
         id="block.swiglu-gate-function",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.softplus(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="scaled by 1/sqrt(d_ff)", expect="÷ √d_ff",
         id="generic.constant-factor",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    d_ff = W_up.shape[1]
    return (F.silu(x @ W_gate) * (x @ W_up)) @ W_down / d_ff ** 0.5
'''),
    dict(exercise="ex3", kind="x added to the up projection", expect="with W_up = 0",
         id="block.swiglu-up-not-a-factor",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * (x @ W_up + 1)) @ W_down
'''),
    dict(exercise="ex3", kind="GELU gate (GEGLU)", expect="GELU instead of SiLU",
         id="block.swiglu-gelu-gate",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.gelu(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="ReLU gate (ReGLU)", expect="ReLU instead of SiLU",
         id="block.swiglu-relu-gate",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.relu(x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="no SiLU (bilinear)", expect="no SiLU", id="block.swiglu-no-silu",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return ((x @ W_gate) * (x @ W_up)) @ W_down
'''),
    dict(exercise="ex3", kind="SiLU after the product", expect="SiLU after multiplying",
         id="block.swiglu-silu-after-product",
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu((x @ W_gate) * (x @ W_up)) @ W_down
'''),
    # Exercise 4: a Pre-Norm block matching nn.TransformerEncoderLayer(norm_first=True)
    dict(exercise="ex4", kind="Post-Norm order", expect="Post-Norm order instead of Pre-Norm",
         id="block.post-norm",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = layer.norm1(x + attn(x))
    return layer.norm2(h + mlp(h))
'''),
    dict(exercise="ex4", kind="MLP reads X instead of H", expect="the MLP reads X instead of H",
         id="block.mlp-reads-x",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    return x + attn(layer.norm1(x)) + mlp(layer.norm2(x))
'''),
    dict(exercise="ex4", kind="missing the attention residual", expect="missing a residual",
         id="block.missing-attention-residual",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = attn(layer.norm1(x))
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="missing the MLP residual", expect="missing a residual",
         id="block.missing-mlp-residual",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = x + attn(layer.norm1(x))
    return mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="residual adds LN(X)", expect="adds LN(X) instead of X",
         id="block.residual-carries-ln",
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
    dict(exercise="ex4", kind="norm1 used twice", expect="norm1 for both", id="block.norm1-twice",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = x + attn(layer.norm1(x))
    return h + mlp(layer.norm1(h))
'''),
    dict(exercise="ex4", kind="ReLU instead of layer.activation", expect="call layer.activation",
         id="block.mlp-fixed-relu",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(F.relu(layer.linear1(z)))
    h = x + attn(layer.norm1(x))
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="calls the whole layer", expect="called the whole layer",
         id="block.called-the-whole-layer",
         code='''def pre_norm_block(x, layer):
    return layer(x)
'''),
    dict(exercise="ex4", kind="attention reads x, not norm1(x)", expect="attention half is wrong",
         id="block.attention-half-wrong",
         code='''def pre_norm_block(x, layer):
    def attn(z):
        return layer.self_attn(z, z, z, need_weights=False)[0]
    def mlp(z):
        return layer.linear2(layer.activation(layer.linear1(z)))
    h = x + attn(x) * 0 + attn(layer.norm1(x)) * 0 + attn(x)
    return h + mlp(layer.norm2(h))
'''),
    dict(exercise="ex4", kind="keys and values from the raw x", expect="attention half is wrong",
         id="block.attention-half-wrong",
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, x, x, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="MLP without norm2", expect="MLP half is wrong",
         id="block.mlp-half-wrong",
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(h)))
'''),
    dict(exercise="ex4", kind="helpers block built from the layer",
         expect="Build the block from the layer's parts", id="rule.forbidden-call",
         code='''from helpers.blocks import TransformerBlock

def pre_norm_block(x, layer):
    return TransformerBlock.from_torch(layer)(x)
'''),
    dict(exercise="ex4", kind="norms swapped", expect="swapped the LayerNorms",
         id="block.norms-swapped",
         code='''def pre_norm_block(x, layer):
    z = layer.norm2(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(layer.norm1(h))))
'''),
    dict(exercise="ex4", kind="second residual carries LN2(H)", expect="both sub-layers silenced",
         id="block.stream-not-kept",
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    z = layer.norm2(h)
    return z + layer.linear2(layer.activation(layer.linear1(z)))
'''),
    dict(exercise="ex4", kind="returns X + MLP(LN2(X)): attention dropped",
         expect="attention update is dropped", id="block.attention-update-dropped",
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return x + layer.linear2(layer.activation(layer.linear1(layer.norm2(x))))
'''),
    dict(exercise="ex4", kind="missing both residuals", expect="missing both residuals",
         id="block.missing-both-residuals",
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = layer.self_attn(z, z, z, need_weights=False)[0]
    return layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise="ex4", kind="MLP without the activation", expect="no activation",
         id="block.mlp-no-activation",
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return h + layer.linear2(layer.linear1(layer.norm2(h)))
'''),
    dict(exercise="ex4", kind="no LayerNorm at all", expect="no LayerNorm at all",
         id="block.no-layer-norm",
         code='''def pre_norm_block(x, layer):
    h = x + layer.self_attn(x, x, x, need_weights=False)[0]
    return h + layer.linear2(layer.activation(layer.linear1(h)))
'''),
    # Exercise 5: the parameter count of one layer
    dict(exercise="ex5", kind="forgot the biases", expect="forgot the biases",
         id="block.count-no-biases",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    return 4 * d_model * d_model + 2 * 2 * d_model + 2 * d_model * d_ff
'''),
    dict(exercise="ex5", kind="forgot W_O", expect="forgot W_O", id="block.count-no-w-o",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 3 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + 2 * 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="forgot the LayerNorm parameters",
         expect="forgot the LayerNorm parameters", id="block.count-4d-missing",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    return attention + d_model * d_ff + d_ff + d_ff * d_model + d_model
'''),
    dict(exercise="ex5", kind="LayerNorm without beta", expect="gamma AND beta",
         id="block.count-half-norms",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="attention times the number of heads",
         expect="does not change the count", id="block.count-times-heads",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = n_heads * 4 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + 2 * 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="FFN biases forgotten", expect="forgot the FFN biases",
         id="block.count-no-ffn-biases",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    return 4 * (d_model * d_model + d_model) + 4 * d_model + 2 * d_model * d_ff
'''),
    dict(exercise="ex5", kind="uses n_heads somewhere", expect="changes with n_heads",
         id="block.count-depends-on-heads",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_head = d_model // n_heads
    attention = 4 * (d_model * d_head * n_heads + d_model) + n_heads
    return attention + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model
'''),
    dict(exercise="ex5", kind="W_O without its bias", expect="1 × d_model", id="block.count-wrong",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * d_model * d_model + 3 * d_model
    return attention + 4 * d_model + 2 * d_model * d_ff + d_ff + d_model
'''),
    dict(exercise="ex5", kind="returns a string", expect="return a number",
         id="block.count-not-a-number",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    return f"{4 * (d_model * d_model + d_model) + 4 * d_model + 2 * d_model * d_ff}"
'''),
    dict(exercise="ex5", kind="attention sized with d_head", expect="d_head = d_model / n_heads",
         id="block.count-d-head",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_head = d_model // n_heads
    attention = 4 * (d_model * d_head + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attention + 2 * 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="second FFN bias of d_ff", expect="not d_ff",
         id="block.count-ffn-bias-size",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_ff
    return attention + 2 * 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="one FFN matrix", expect="one FFN matrix",
         id="block.count-one-ffn-matrix",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    ffn = d_model * d_ff + d_ff
    return attention + 2 * 2 * d_model + ffn
'''),
    dict(exercise="ex5", kind="SwiGLU's three FFN matrices", expect="2 * d_model + 1",
         id="block.count-ffn-slope",
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attention = 4 * (d_model * d_model + d_model)
    ffn = 3 * d_model * d_ff + d_ff + d_model
    return attention + 2 * 2 * d_model + ffn
'''),
    # ---------------------------------------------------------------- held-out answers (round 2)
    dict(exercise='ex1', kind='held-out a: statistics over batch axis',
         expect='batchnorm', id='block.layer-norm-wrong-axis',
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=0, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=0, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise='ex1', kind='held-out a: dim=1 only right in 2-D',
         expect='dim=1', id='block.layer-norm-wrong-axis',
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=1, keepdim=True)
    var = ((x - mu) ** 2).mean(dim=1, keepdim=True)
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise='ex1', kind='held-out a: statistics over whole tensor',
         expect='whole tensor', id='block.layer-norm-wrong-axis',
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean()
    var = ((x - mu) ** 2).mean()
    x_hat = (x - mu) / torch.sqrt(var + eps)
    return gamma * x_hat + beta
'''),
    dict(exercise='ex2', kind='held-out a: ignores activation argument',
         expect='activation argument', id='block.ffn-activation-unused',
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return F.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise='ex2', kind='held-out a: adds residual',
         expect='residual', id='block.ffn-residual',
         code='''def feed_forward(x, W1, b1, W2, b2, activation):
    return x + activation(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise='ex3', kind='held-out a: silu after down projection',
         expect='after w_down', id='block.swiglu-silu-after-down',
         code='''def swiglu_ffn(x, W_gate, W_up, W_down):
    return F.silu(((x @ W_gate) * (x @ W_up)) @ W_down)
'''),
    dict(exercise='ex4', kind='held-out a: residual adds normalised x',
         expect='ln1(x) +', id='block.residual-carries-ln',
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = z + layer.self_attn(z, z, z, need_weights=False)[0]
    z2 = layer.norm2(h)
    return z2 + layer.linear2(layer.activation(layer.linear1(z2)))
'''),
    dict(exercise='ex4', kind='held-out a: no second residual',
         expect='residual around the mlp', id='block.missing-mlp-residual',
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise='ex4', kind='held-out a: second residual onto x',
         expect='onto h', id='block.mlp-residual-onto-x',
         code='''def pre_norm_block(x, layer):
    z = layer.norm1(x)
    h = x + layer.self_attn(z, z, z, need_weights=False)[0]
    return x + layer.linear2(layer.activation(layer.linear1(layer.norm2(h))))
'''),
    dict(exercise='ex5', kind='held-out a: attention without biases',
         expect='attention bias', id='block.count-4d-missing',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    attention = 4 * d * d
    norms = 2 * 2 * d
    ffn = (d * d_ff + d_ff) + (d_ff * d + d)
    return attention + norms + ffn
'''),
    dict(exercise='ex5', kind='held-out a: assumes d_ff = 4 d_model',
         expect='4 * d_model', id='block.count-ignores-d-ff',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    hidden = 4 * d
    return 4 * (d * d + d) + 4 * d + (d * hidden + hidden) + (hidden * d + d)
'''),
    dict(exercise='ex5', kind='held-out a: FFN without biases',
         expect='ffn bias', id='block.count-no-ffn-biases',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    return 4 * (d * d + d) + 4 * d + 2 * d * d_ff
'''),
    dict(exercise='ex5', kind="held-out a: one head's d_k",
         expect='d_k', id='block.count-depends-on-heads',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d = d_model
    d_k = d // n_heads
    attention = 3 * (d * d_k + d_k) + (d * d + d)
    return attention + 4 * d + (d * d_ff + d_ff) + (d_ff * d + d)
'''),
    dict(exercise='ex5', kind='held-out a: returns a float',
         expect='an int', id='block.count-float',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_k = d_model / n_heads
    attention = 4 * (n_heads * d_k * d_model + d_model)
    return attention + 4 * d_model + (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
'''),
    dict(exercise='ex1', kind='held-out b: no keepdim',
         expect='keepdim', id='block.layer-norm-no-keepdim',
         code='''import torch


def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(dim=-1)
    var = ((x - mu[..., None]) ** 2).mean(dim=-1)
    return (x - mu) / torch.sqrt(var + eps) * gamma + beta
'''),
    dict(exercise='ex2', kind='held-out b: activation ignored',
         expect='activation argument', id='block.ffn-activation-unused',
         code='''import torch.nn.functional as F


def feed_forward(x, W1, b1, W2, b2, activation):
    return F.relu(x @ W1 + b1) @ W2 + b2
'''),
    dict(exercise='ex3', kind='held-out b: SiLU on the up branch',
         expect='gate branch', id='block.swiglu-gate-up-swapped',
         code='''import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    return ((x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise='ex3', kind='held-out b: SiLU on both branches',
         expect='no activation there', id='block.swiglu-silu-on-both',
         code='''import torch.nn.functional as F


def swiglu_ffn(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * F.silu(x @ W_up)) @ W_down
'''),
    dict(exercise='ex5', kind='held-out b: attention times heads',
         expect='does not matter', id='block.count-times-heads',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = n_heads * 4 * (d_model * d_model + d_model)
    norms = 2 * 2 * d_model
    ffn = (d_model * d_ff + d_ff) + (d_ff * d_model + d_model)
    return attn + norms + ffn
'''),
    dict(exercise='ex5', kind='held-out b: attention biases forgotten',
         expect='attention biases', id='block.count-4d-missing',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * d_model * d_model
    norms = 4 * d_model
    ffn = 2 * d_model * d_ff + d_ff + d_model
    return attn + norms + ffn
'''),
    dict(exercise='ex5', kind='held-out b: FFN biases forgotten',
         expect='ffn biases', id='block.count-no-ffn-biases',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    attn = 4 * (d_model ** 2 + d_model)
    norms = 4 * d_model
    ffn = 2 * d_model * d_ff
    return attn + norms + ffn
'''),
    dict(exercise='ex5', kind='held-out b: float from d_head',
         expect='an int', id='block.count-float',
         code='''def layer_parameters(d_model, n_heads, d_ff):
    d_head = d_model / n_heads
    attn = n_heads * 3 * (d_model * d_head + d_head) + d_model * d_model + d_model
    norms = 2 * (d_model + d_model)
    ffn = d_model * d_ff + d_ff + d_ff * d_model + d_model
    return attn + norms + ffn
'''),
    dict(exercise='ex1', kind='variance without keepdim', expect='keepdim=True',
         id='block.layer-norm-no-keepdim',
         code='''def layer_norm(x, gamma, beta, eps=1e-5):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1)
    return (x - mu) / torch.sqrt(var + eps) * gamma + beta
'''),
]
