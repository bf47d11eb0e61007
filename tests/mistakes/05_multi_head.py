"""Named wrong answers for solutions/05_multi_head.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: split into heads
    dict(exercise="ex1", kind="no transpose: reshape straight to (B, H, T, d_head)",
         expect="a transpose missing in a head reshape", id="multi_head.split-no-transpose",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="no transpose: view straight to (B, H, T, d_head)",
         expect="mixes tokens across heads", id="multi_head.split-no-transpose",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="stopped after the view", expect="stopped at (B, T, H, d_head)",
         id="multi_head.split-no-head-transpose",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads)
'''),
    dict(exercise="ex1", kind="interleaved heads", expect="interleaved",
         id="multi_head.interleaved-heads",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, D // n_heads, n_heads).permute(0, 3, 1, 2)
'''),
    dict(exercise="ex1", kind="transpose before the split",
         expect="transposed first, before the view", id="multi_head.split-transposed-first",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.transpose(1, 2).reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="n_heads and d_head swapped", expect="swapped n_heads and d_head",
         id="multi_head.split-heads-and-width-swapped",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, D // n_heads, n_heads).transpose(1, 2)
'''),
    dict(exercise="ex1", kind="calls helpers.heads.split_heads", expect="split the width yourself",
         id="rule.forbidden-call",
         code='''def my_split_heads(x, n_heads):
    return split_heads(x, n_heads)
'''),
    dict(exercise="ex1", kind="positions rolled by one (unlisted)",
         expect="keep every token at its own position", id="multi_head.split-mixes-tokens",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).transpose(1, 2).roll(1, dims=2)
'''),
    dict(exercise="ex1", kind="heads in reverse order (unlisted)", expect="owns features",
         id="multi_head.split-wrong-features",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).transpose(1, 2).flip(1)
'''),
    dict(exercise="ex1", kind="n_heads hard-coded to 3", expect="hard-coded",
         id="multi_head.split-heads-and-width-swapped",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, 3, D // 3).transpose(1, 2)
'''),
    dict(exercise="ex1", kind="sequences of the batch swapped (unlisted)", expect="of sequence 1",
         id="multi_head.split-mixes-sequences",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.flip(0).view(B, T, n_heads, D // n_heads).transpose(1, 2)
'''),
    # Exercise 2: merge the heads
    dict(exercise="ex2", kind="merge without transposing back",
         expect="a merge that forgets to transpose back", id="multi_head.merge-no-transpose",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.reshape(B, T, H * d_head)
'''),
    dict(exercise="ex2", kind="view without contiguous", expect="call .contiguous()",
         id="multi_head.view-not-contiguous",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.transpose(1, 2).view(B, T, H * d_head)
'''),
    dict(exercise="ex2", kind="transposed but not flattened", expect="did not flatten",
         id="multi_head.merge-not-flattened",
         code='''def my_merge_heads(x):
    return x.transpose(1, 2).contiguous()
'''),
    dict(exercise="ex2", kind="heads interleaved in the merge", expect="interleaved",
         id="multi_head.interleaved-heads",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, H * d_head)
'''),
    dict(exercise="ex2", kind="calls helpers.heads.merge_heads", expect="merge the heads yourself",
         id="rule.forbidden-call",
         code='''def my_merge_heads(x):
    return merge_heads(x)
'''),
    dict(exercise="ex2", kind="heads merged in reverse order (unlisted)",
         expect="its features come in the order", id="multi_head.merge-wrong-feature-order",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.flip(1).transpose(1, 2).reshape(B, T, H * d_head)
'''),
    dict(exercise="ex2", kind="positions reversed (unlisted)", expect="row t must hold token t",
         id="multi_head.merge-mixes-tokens",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d_head).flip(1)
'''),
    dict(exercise="ex2", kind="heads summed instead of concatenated",
         expect="averaged or summed the heads", id="multi_head.merge-heads-combined",
         code='''def my_merge_heads(x):
    return x.sum(dim=1)
'''),
    # Exercise 3: a loop over heads
    dict(exercise="ex3", kind="scaled by sqrt(d_model)",
         expect="scaled by the model width instead of the head width",
         id="multi_head.scaled-by-d-model",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        out_h, _ = attention(q[..., cols], k[..., cols], v[..., cols], mask,
                             scale=q.shape[-1] ** -0.5)
        outputs.append(out_h)
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="scores by hand without the scale", expect="forgot the scale",
         id="multi_head.forgot-scale",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        scores = q[..., cols] @ k[..., cols].transpose(-2, -1)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        outputs.append(softmax(scores, axis=-1) @ v[..., cols])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="the same slice for every head", expect="same features",
         id="multi_head.same-slice-every-head",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        out_h, _ = attention(q[..., :d_head], k[..., :d_head], v[..., :d_head], mask)
        outputs.append(out_h)
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="strided slices", expect="interleaved",
         id="multi_head.interleaved-heads",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    outputs = []
    for h in range(n_heads):
        out_h, _ = attention(q[..., h::n_heads], k[..., h::n_heads], v[..., h::n_heads], mask)
        outputs.append(out_h)
    return torch.stack(outputs, dim=-2).flatten(-2)
'''),
    dict(exercise="ex3", kind="heads summed instead of concatenated", expect="summed or averaged",
         id="multi_head.heads-summed",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    total = 0
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        total = total + attention(q[..., cols], k[..., cols], v[..., cols], mask)[0]
    return total
'''),
    dict(exercise="ex3", kind="concatenated along the positions", expect="along the positions",
         id="multi_head.heads-along-positions",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[0])
    return torch.cat(outputs, dim=1)
'''),
    dict(exercise="ex3", kind="mask ignored", expect="ignored the mask",
         id="multi_head.ignored-mask",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], k[..., cols], v[..., cols])[0])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="K and V swapped", expect="swapped K and V",
         id="multi_head.swapped-kv",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], v[..., cols], k[..., cols], mask)[0])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="one full-width head", expect="one head of full width",
         id="multi_head.one-full-width-head",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    return attention(q, k, v, mask)[0]
'''),
    dict(exercise="ex3", kind="calls split_heads instead of looping",
         expect="the point is the loop", id="rule.forbidden-call",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    heads = attention(split_heads(q, n_heads), split_heads(k, n_heads),
                      split_heads(v, n_heads), mask)[0]
    return merge_heads(heads)
'''),
    dict(exercise="ex3", kind="every head reads the keys of head 0 (unlisted)",
         expect="head 0 is right and heads 1, 2 are wrong", id="multi_head.some-heads-wrong",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], k[..., :d_head], v[..., cols], mask)[0])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="mask used the torch way (True = blocked)",
         expect="the wrong way round", id="multi_head.inverted-mask",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        scores = q[..., cols] @ k[..., cols].transpose(-2, -1) / d_head ** 0.5
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))
        outputs.append(torch.softmax(scores, dim=-1) @ v[..., cols])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="integer square root of d_head", expect="scaled by a whole number",
         id="multi_head.integer-sqrt",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask,
                                 scale=1 / int(d_head ** 0.5))[0])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="the last position sees the future (unlisted)",
         expect="the causal mask leaks", id="multi_head.mask-leaks",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    if mask is not None:
        mask = mask.clone()
        mask[0, -1] = True
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[0])
    return torch.cat(outputs, dim=-1)
'''),
    # Exercise 4: the parameter count
    dict(exercise="ex4", kind="forgot W_O", expect="forgot the output projection",
         id="multi_head.params-forgot-w-o",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + bias * d_head)
'''),
    dict(exercise="ex4", kind="forgot the biases", expect="forgot the biases",
         id="multi_head.params-forgot-biases",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * d_model * d_head + d_model * d_model
'''),
    dict(exercise="ex4", kind="every head of full width", expect="d_head = d_model / n_heads",
         id="multi_head.params-full-width-heads",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    return n_heads * 3 * (d_model * d_model + bias * d_model) + d_model * d_model + bias * d_model
'''),
    dict(exercise="ex4", kind="one head counted", expect="one head only",
         id="multi_head.params-one-head",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return 3 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model
'''),
    dict(exercise="ex4", kind="W_O once per head", expect="not once per head",
         id="multi_head.params-w-o-per-head",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * (3 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model)
'''),
    dict(exercise="ex4", kind="no error for a head count that does not divide",
         expect="does not divide d_model", id="generic.no-exception",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model
'''),
    dict(exercise="ex4", kind="counts a module's parameters", expect="with arithmetic",
         id="rule.forbidden-call",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    return count_parameters(MultiHeadAttention(d_model, n_heads, bias=bias))
'''),
    dict(exercise="ex4", kind="two projections per head", expect="one of W_Q, W_K, W_V",
         id="multi_head.params-forgot-w-o",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 2 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model
'''),
    dict(exercise="ex4", kind="W_O without its bias (unlisted)", expect="bias of W_O",
         id="multi_head.params-forgot-w-o-bias",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + bias * d_head) + d_model * d_model
'''),
    dict(exercise="ex4", kind="biases counted once per head (unlisted)",
         expect="bias=True adds", id="multi_head.params-bias-count",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    return 4 * d_model * d_model + bias * (n_heads + d_model)
'''),
    dict(exercise="ex4", kind="returns the count as a formatted string", expect="a whole number",
         id="multi_head.params-not-a-number",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    return f"{4 * d_model * d_model + bias * 4 * d_model:,}"
'''),
    dict(exercise="ex4", kind="head count in the weights (unlisted)",
         expect="changes with the head count", id="multi_head.params-depend-on-heads",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return 3 * d_model * d_head * 8 + d_model * d_model + bias * 4 * d_model
'''),
    # Exercise 5: match nn.MultiheadAttention
    dict(exercise="ex5", kind="forgot the output projection", expect="forgot the output projection",
         id="multi_head.forgot-output-projection",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v)
'''),
    dict(exercise="ex5", kind="forgot the scale", expect="forgot the scale",
         id="multi_head.forgot-scale",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="scaled by sqrt(d_model)",
         expect="scaled by the model width instead of the head width",
         id="multi_head.scaled-by-d-model",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / x.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="missing transpose in the split",
         expect="a transpose missing in a head reshape", id="multi_head.split-no-transpose",
         code='''def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    q, k, v = (
        (x @ w[f"W_{n}"] + w[f"b_{n}"]).reshape(B, n_heads, T, D // n_heads) for n in "qkv"
    )
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="missing transpose in the split and the merge",
         expect="a transpose missing in a head reshape",
         id="multi_head.split-and-merge-no-transpose",
         code='''def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    q, k, v = (
        (x @ w[f"W_{n}"] + w[f"b_{n}"]).reshape(B, n_heads, T, D // n_heads) for n in "qkv"
    )
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return (softmax(scores, axis=-1) @ v).reshape(B, T, D) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="merge without transposing back",
         expect="a merge that forgets to transpose back", id="multi_head.merge-no-transpose",
         code='''def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return (softmax(scores, axis=-1) @ v).reshape(B, T, D) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="K and V swapped", expect="swapped K and V",
         id="multi_head.swapped-kv",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ v.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ k) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="forgot the biases", expect="forgot the biases",
         id="multi_head.forgot-biases",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"]
'''),
    dict(exercise="ex5", kind="weights used transposed", expect="used the weights transposed",
         id="multi_head.weights-transposed",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"].T + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"].T + w["b_o"]
'''),
    dict(exercise="ex5", kind="mask ignored", expect="ignored the mask",
         id="multi_head.ignored-mask",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="no split: one head of full width", expect="one head of full width",
         id="multi_head.one-full-width-head",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (x @ w[f"W_{n}"] + w[f"b_{n}"] for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return (softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="returns (out, weights)", expect="not a tuple",
         id="multi_head.returned-a-tuple",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = softmax(scores, axis=-1)
    return merge_heads(weights @ v) @ w["W_o"] + w["b_o"], weights
'''),
    dict(exercise="ex5", kind="calls attention() instead of writing the scores",
         expect="write the scores and the softmax yourself", id="rule.forbidden-call",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    return merge_heads(attention(q, k, v, mask)[0]) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="loads the weights into nn.MultiheadAttention",
         expect="calls MultiheadAttention", id="rule.forbidden-call",
         code='''def mha_forward(x, w, n_heads, mask=None):
    mha = nn.MultiheadAttention(x.shape[-1], n_heads, batch_first=True).double()
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([w["W_q"].T, w["W_k"].T, w["W_v"].T]))
        mha.in_proj_bias.copy_(torch.cat([w["b_q"], w["b_k"], w["b_v"]]))
        mha.out_proj.weight.copy_(w["W_o"].T)
        mha.out_proj.bias.copy_(w["b_o"])
        return mha(x, x, x, attn_mask=None if mask is None else ~mask)[0]
'''),
    dict(exercise="ex5", kind="mask used the torch way (True = blocked)",
         expect="the wrong way round", id="multi_head.inverted-mask",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    return merge_heads(torch.softmax(scores, dim=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="integer square root of d_head", expect="scaled by a whole number",
         id="multi_head.integer-sqrt",
         code='''import math


def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / math.isqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="b_o added twice (unlisted)", expect="at the output projection",
         id="multi_head.mha-output-step",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    out = merge_heads(softmax(scores, axis=-1) @ v) + w["b_o"]
    return out @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="query bias forgotten (unlisted)",
         expect="leaves the reference at the heads", id="multi_head.mha-heads-step",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"], n_heads)
    k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "kv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="softmax over the queries (unlisted)",
         expect="over the queries", id="multi_head.softmax-over-queries",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-2) @ v) @ w["W_o"] + w["b_o"]
'''),
    # Exercise 6: a test that catches the mixing
    dict(exercise="ex6", kind="checks the shape only", expect="never fires",
         id="multi_head.detector-never-fires",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    x = torch.randn(B, T, D)
    return split(x, n_heads).shape != (B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex6", kind="compares exact numbers with split_heads", expect="false alarm",
         id="multi_head.detector-false-alarm",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    x = torch.randn(B, T, D)
    return not torch.equal(split(x, n_heads), split_heads(x, n_heads))
'''),
    dict(exercise="ex6", kind="checks head 0 only", expect="check every head",
         id="multi_head.detector-missed",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    heads = split(1000 * b + 100 * t + f, n_heads)
    should = 10 * torch.arange(B).view(B, 1, 1) + torch.arange(T).view(1, T, 1)
    return not bool((heads[:, 0] // 100 == should).all())
'''),
    dict(exercise="ex6", kind="labels tokens but not sequences", expect="swaps the sequences",
         id="multi_head.detector-labels-collide",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    x = torch.arange(T).view(1, T, 1).expand(B, T, D).clone()
    heads = split(x, n_heads)
    return not bool((heads == torch.arange(T).view(1, 1, T, 1)).all())
'''),
    dict(exercise="ex6", kind="compares with the wrong position", expect="always fires",
         id="multi_head.detector-always-fires",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    heads = split(1000 * b + 100 * t + f, n_heads)
    return not bool((heads // 100 % 10 == 0).all())
'''),
    dict(exercise="ex6", kind="checks the first feature of each head only",
         expect="compare every feature", id="multi_head.detector-missed",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(B * T, dtype=torch.float64).view(B, T, 1)
    heads = split(label.expand(B, T, D).clone(), n_heads)
    return not bool((heads[..., 0] == label.view(B, 1, T)).all())
'''),
    dict(exercise="ex6", kind="returns a torch bool tensor", expect="Python bool",
         id="multi_head.detector-returns-tensor",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(B * T, dtype=torch.float64).view(B, T, 1)
    heads = split(label.expand(B, T, D).clone(), n_heads)
    return (heads != label.view(B, 1, T, 1)).any()
'''),
    # Held-out answers (round 2) that were passed, caught without a name, or crashed
    dict(exercise='ex1', kind='transpose before reshape (held-out a)',
         expect='transposed first, before the view', id='multi_head.split-transposed-first',
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    return x.transpose(1, 2).reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise='ex1', kind='flattens the batch (held-out a)',
         expect='across the sequences of the batch', id='multi_head.split-mixes-sequences',
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    d_head = D // n_heads
    heads = x.reshape(B * T, n_heads, d_head).transpose(0, 1)   # (H, B*T, d_head)
    return heads.reshape(B, n_heads, T, d_head)
'''),
    dict(exercise='ex1', kind='hard-coded d_head 4 (held-out a)',
         expect='hard-coded', id='multi_head.hard-coded-size',
         code='''def my_split_heads(x, n_heads):
    """(B, T, D) -> (B, H, T, D / H): head h holds features h*d_head .. (h+1)*d_head - 1."""
    B, T, D = x.shape
    return x.view(B, T, n_heads, 4).transpose(1, 2)
'''),
    dict(exercise='ex2', kind='transposes batch axis (held-out a)',
         expect='transpose(0, 2)', id='multi_head.merge-mixes-sequences',
         code='''def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    B, H, T, d = x.shape
    return x.transpose(0, 2).reshape(B, T, H * d)
'''),
    dict(exercise='ex2', kind='hard-coded width D (held-out a)',
         expect='global D = 8', id='multi_head.global-size',
         code='''def my_merge_heads(x):
    """(B, H, T, d_head) -> (B, T, H * d_head): every token's features back in one row."""
    return x.transpose(1, 2).contiguous().view(x.shape[0], x.shape[2], D)
'''),
    dict(exercise='ex3', kind='stacked then reshaped (held-out a)',
         expect='torch.stack', id='multi_head.heads-interleaved-in-output',
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    B, T, D = q.shape
    d_head = D // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[0])
    return torch.stack(outs, dim=-1).reshape(B, T, D)
'''),
    dict(exercise='ex3', kind='weights instead of output (held-out a)',
         expect='attention weights', id='multi_head.concatenated-weights',
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[1])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise='ex3', kind='mask inverted (held-out a)',
         expect='inverted', id='multi_head.inverted-mask',
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    d_head = q.shape[-1] // n_heads
    m = None if mask is None else ~torch.as_tensor(mask)
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], m)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise='ex3', kind='loop misses last head (held-out a)',
         expect='last head is missing', id='multi_head.missing-head',
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    """q, k, v (B, T, D) -> (B, T, D): attention in each block of d_head features, concatenated."""
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads - 1):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise='ex4', kind='W_O per head (held-out a)',
         expect='once per head', id='multi_head.params-w-o-per-head',
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    b = 1 if bias else 0
    per_head = 3 * (d_model * d_head + b * d_head) + d_model * d_model + b * d_model
    return n_heads * per_head
'''),
    dict(exercise='ex4', kind='full-width heads (held-out a)',
         expect='full-width', id='multi_head.params-full-width-heads',
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    b = d_model if bias else 0
    return n_heads * 3 * (d_model * d_model + b) + d_model * d_model + b
'''),
    dict(exercise='ex4', kind='W_O bias forgotten (held-out a)',
         expect='bias of W_O', id='multi_head.params-forgot-w-o-bias',
         code='''def attention_parameters(d_model, n_heads, bias=True):
    """Trainable parameters of multi-head attention: n_heads x (W_Q, W_K, W_V), plus W_O."""
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    per_head = 3 * (d_model * d_head + (d_head if bias else 0))
    return n_heads * per_head + d_model * d_model
'''),
    dict(exercise='ex5', kind='softmax over queries (held-out a)',
         expect='over the queries', id='multi_head.softmax-over-queries',
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-2)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise='ex5', kind='mask multiplied (held-out a)',
         expect='multiplying the scores by the mask', id='multi_head.mask-multiplied',
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s * torch.as_tensor(mask).to(s.dtype)
    a = softmax(s, axis=-1)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise='ex5', kind='scores k q transposed (held-out a)',
         expect='scores are transposed', id='multi_head.scores-transposed',
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    """x (B, T, D) -> (B, T, D), equal to nn.MultiheadAttention with the weights in w."""
    d_head = x.shape[-1] // n_heads
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    s = k @ q.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = softmax(s, axis=-1)
    return merge_heads(a @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise='ex6', kind='100b+10t+f labels collide (held-out a)',
         expect='labels collide', id='multi_head.detector-labels-collide',
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = 100 * b + 10 * t + f
    y = split(x, n_heads)
    token = (y // 10) % 10
    seq = y // 100
    want_t = torch.arange(T)[None, None, :, None]
    want_b = torch.arange(B)[:, None, None, None]
    return bool(((token != want_t) | (seq != want_b)).any())
'''),
    dict(exercise='ex6', kind='all instead of any (held-out a)',
         expect='any() instead of all()', id='multi_head.detector-all-instead-of-any',
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    b = torch.arange(B)[:, None, None]
    t = torch.arange(T)[None, :, None]
    label = (b * T + t).double()                             # (B, T, 1)
    x = label.expand(B, T, D).contiguous()
    y = split(x, n_heads)
    return bool((y != label[:, None]).all())
'''),
    dict(exercise='ex6', kind='uses setup x_lab (held-out a)',
         expect='own arguments', id='multi_head.detector-ignores-arguments',
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    """True when split(x, n_heads) puts a number of token t (sequence b) elsewhere."""
    y = split(x_lab, 2)                                      # (2, 2, 4, 4)
    nb, nh, nt, _ = y.shape
    for bb in range(nb):
        for h in range(nh):
            for tt in range(nt):
                if ((y[bb, h, tt] // 10) % 10 != tt).any() or (y[bb, h, tt] // 100 != bb).any():
                    return True
    return False
'''),
    dict(exercise='ex1', kind='hard-coded d_head (held-out b)',
         expect='hard-coded', id='multi_head.hard-coded-size',
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, 4).transpose(1, 2)
'''),
    dict(exercise='ex2', kind='heads averaged (held-out b)',
         expect='side by side', id='multi_head.merge-heads-combined',
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.mean(dim=1).repeat(1, 1, H)
'''),
    dict(exercise='ex3', kind='slices positions (held-out b)',
         expect='position axis', id='multi_head.sliced-positions',
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    D = q.shape[-1]
    d = D // n_heads
    outs = []
    for h in range(n_heads):
        sl = slice(h * d, (h + 1) * d)
        outs.append(attention(q[:, sl], k[:, sl], v[:, sl], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise='ex3', kind='mask not passed (held-out b)',
         expect='pass the mask', id='multi_head.ignored-mask',
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d, (h + 1) * d)
        out, _ = attention(q[..., cols], k[..., cols], v[..., cols])
        outs.append(out)
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise='ex3', kind='slice start off (held-out b)',
         expect='overlap', id='multi_head.slice-start',
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        outs.append(attention(q[..., h:h + d], k[..., h:h + d], v[..., h:h + d], mask)[0])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise='ex4', kind='no ValueError (held-out b)',
         expect='does not divide', id='generic.no-exception',
         code='''def attention_parameters(d_model, n_heads, bias=True):
    d_head = d_model // n_heads
    b = d_head if bias else 0
    return n_heads * 3 * (d_model * d_head + b) + d_model * d_model + (d_model if bias else 0)
'''),
    dict(exercise='ex4', kind='W_O bias forgotten (held-out b)',
         expect='bias of W_O', id='multi_head.params-forgot-w-o-bias',
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    heads = n_heads * 3 * (d_model * d_head + (d_head if bias else 0))
    return heads + d_model * d_model
'''),
    dict(exercise='ex5', kind='mask after softmax (held-out b)',
         expect='masking after softmax', id='multi_head.mask-after-softmax',
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    Q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    K = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    V = split_heads(x @ w["W_v"] + w["b_v"], n_heads)
    a = softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), axis=-1)
    if mask is not None:
        a = a * torch.as_tensor(mask)
    return merge_heads(a @ V) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise='ex6', kind='labels ignore the sequence (held-out b)',
         expect='ignore the sequence', id='multi_head.detector-labels-collide',
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(T, dtype=torch.float64)[None, :, None].expand(B, T, D).contiguous()
    y = split(label, n_heads)                                # (B, H, T, d_head)
    want = torch.arange(T, dtype=torch.float64)[None, None, :, None]
    return not bool((y == want).all())
'''),
    dict(exercise='ex6', kind='10t + f overflow (held-out b)',
         expect='labels collide', id='multi_head.detector-labels-collide',
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    x = 100 * b + 10 * t + f
    y = split(x, n_heads)
    token = (y % 100) // 10
    seq = y // 100
    want_t = torch.arange(T)[None, None, :, None]
    want_b = torch.arange(B)[:, None, None, None]
    return not bool(((token == want_t) & (seq == want_b)).all())
'''),
    dict(exercise='ex6', kind='first sequence only (held-out b)',
         expect='every sequence', id='multi_head.detector-missed',
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    lab = (torch.arange(B)[:, None] * T + torch.arange(T)[None, :]).double()
    x = lab[:, :, None].repeat(1, 1, D)
    y = split(x, n_heads)
    return not bool((y[0] == lab[0][None, :, None]).all())
'''),
    # Added so that every diagnosis id of multi_head is reached by a named wrong answer
    dict(exercise="ex1", kind="forgot return", expect="did you forget `return`",
         id="multi_head.returned-none",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    heads = x.view(B, T, n_heads, D // n_heads).transpose(1, 2)
'''),
    dict(exercise="ex1", kind="width viewed as (d_head, H), not transposed",
         expect="viewed the width as (d_head, H)", id="multi_head.split-width-as-d-head-by-h",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, D // n_heads, n_heads)
'''),
    dict(exercise="ex1", kind="permute puts the features before the positions",
         expect="the last two axes are swapped", id="multi_head.split-last-axes-swapped",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).permute(0, 2, 3, 1)
'''),
    dict(exercise="ex1", kind="scales the heads by sqrt(d_head) in the split",
         expect="a split only moves numbers", id="multi_head.split-changes-values",
         code='''import math


def my_split_heads(x, n_heads):
    B, T, D = x.shape
    d_head = D // n_heads
    return x.view(B, T, n_heads, d_head).transpose(1, 2) / math.sqrt(d_head)
'''),
    dict(exercise="ex2", kind="transpose result discarded, x returned",
         expect="that is the input's shape", id="multi_head.merge-unchanged",
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    x.transpose(1, 2).contiguous().view(B, T, H * d)
    return x
'''),
    dict(exercise="ex2", kind="heads flattened into the positions",
         expect="stacked the heads along the positions",
         id="multi_head.merge-heads-along-positions",
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.reshape(B, H * T, d)
'''),
    dict(exercise="ex2", kind="concatenates, then divides by n_heads (an average)",
         expect="a merge only moves numbers", id="multi_head.merge-changes-values",
         code='''def my_merge_heads(x):
    B, H, T, d = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d) / H
'''),
    dict(exercise="ex3", kind="heads stacked, not concatenated", expect="still split",
         id="multi_head.heads-not-merged",
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[0])
    return torch.stack(outs, dim=1)
'''),
    dict(exercise="ex3", kind="scores by hand, divided by d_head", expect="instead of sqrt(d_head)",
         id="multi_head.scaled-by-d-head",
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        s = q[..., cols] @ k[..., cols].transpose(-2, -1) / d_head
        if mask is not None:
            s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
        outs.append(torch.softmax(s, dim=-1) @ v[..., cols])
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex3", kind="one score matrix over all features for every head",
         expect="the heads are not independent", id="multi_head.heads-not-independent",
         code='''import torch


def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    s = q @ k.transpose(-2, -1) / d_head ** 0.5           # the scores once, for all heads
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    a = torch.softmax(s, dim=-1)
    outs = [a @ v[..., h * d_head:(h + 1) * d_head] for h in range(n_heads)]
    return torch.cat(outs, dim=-1)
'''),
    dict(exercise="ex4", kind="each head's bias of width d_model", expect="not d_model",
         id="multi_head.params-bias-d-model",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    b = d_model if bias else 0
    return n_heads * 3 * (d_model * d_head + b) + d_model * d_model + b
'''),
    dict(exercise="ex4", kind="W_O of shape d_model x d_head", expect="not one head's d_head",
         id="multi_head.params-w-o-per-head-width",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    b = 1 if bias else 0
    return n_heads * 3 * (d_model * d_head + b * d_head) + d_model * d_head + b * d_model
'''),
    dict(exercise="ex4", kind="one projection per head (W_K and W_V forgotten)",
         expect="4 x 512 x 512", id="multi_head.params-weights-wrong",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    b = 1 if bias else 0
    return n_heads * (d_model * d_head + b * d_head) + d_model * d_model + b * d_model
'''),
    dict(exercise="ex4", kind="count in millions", expect="return a whole number",
         id="multi_head.params-not-whole",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    b = 1 if bias else 0
    count = n_heads * 3 * (d_model * d_head + b * d_head) + d_model * d_model + b * d_model
    return count / 1e6                                       # in millions, like 1.05M
'''),
    dict(exercise="ex5", kind="value bias forgotten", expect="leaves the reference at the values",
         id="multi_head.mha-values-step",
         code='''import math

import torch


def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"] + w["b_q"], n_heads)
    k = split_heads(x @ w["W_k"] + w["b_k"], n_heads)
    v = split_heads(x @ w["W_v"], n_heads)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~torch.as_tensor(mask), float("-inf"))
    return merge_heads(softmax(s, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex6", kind="returns the number of misplaced entries",
         expect="return True (the split mixes tokens) or False", id="multi_head.detector-not-bool",
         code='''import torch


def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(B * T, dtype=torch.float64).view(B, T, 1)
    heads = split(label.expand(B, T, D).clone(), n_heads)
    return int((heads != label.view(B, 1, T, 1)).sum())
'''),
]
