"""Named wrong answers for solutions/05_multi_head.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: split into heads
    dict(exercise="ex1", kind="no transpose: reshape straight to (B, H, T, d_head)",
         expect="a transpose missing in a head reshape",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="no transpose: view straight to (B, H, T, d_head)",
         expect="mixes tokens across heads",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="stopped after the view", expect="stopped at (B, T, H, d_head)",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads)
'''),
    dict(exercise="ex1", kind="interleaved heads", expect="interleaved",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, D // n_heads, n_heads).permute(0, 3, 1, 2)
'''),
    dict(exercise="ex1", kind="transpose before the split", expect="transposed before splitting",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.transpose(1, 2).reshape(B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex1", kind="n_heads and d_head swapped", expect="swapped n_heads and d_head",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, D // n_heads, n_heads).transpose(1, 2)
'''),
    dict(exercise="ex1", kind="calls helpers.heads.split_heads", expect="split the width yourself",
         code='''def my_split_heads(x, n_heads):
    return split_heads(x, n_heads)
'''),
    dict(exercise="ex1", kind="positions rolled by one (unlisted)",
         expect="keep every token at its own position",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).transpose(1, 2).roll(1, dims=2)
'''),
    dict(exercise="ex1", kind="heads in reverse order (unlisted)", expect="owns features",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, n_heads, D // n_heads).transpose(1, 2).flip(1)
'''),
    dict(exercise="ex1", kind="n_heads hard-coded to 3", expect="hard-coded",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.view(B, T, 3, D // 3).transpose(1, 2)
'''),
    dict(exercise="ex1", kind="sequences of the batch swapped (unlisted)", expect="of sequence 1",
         code='''def my_split_heads(x, n_heads):
    B, T, D = x.shape
    return x.flip(0).view(B, T, n_heads, D // n_heads).transpose(1, 2)
'''),
    # Exercise 2: merge the heads
    dict(exercise="ex2", kind="merge without transposing back",
         expect="a merge that forgets to transpose back",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.reshape(B, T, H * d_head)
'''),
    dict(exercise="ex2", kind="view without contiguous", expect="call .contiguous()",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.transpose(1, 2).view(B, T, H * d_head)
'''),
    dict(exercise="ex2", kind="transposed but not flattened", expect="did not flatten",
         code='''def my_merge_heads(x):
    return x.transpose(1, 2).contiguous()
'''),
    dict(exercise="ex2", kind="heads interleaved in the merge", expect="interleaved",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, H * d_head)
'''),
    dict(exercise="ex2", kind="calls helpers.heads.merge_heads", expect="merge the heads yourself",
         code='''def my_merge_heads(x):
    return merge_heads(x)
'''),
    dict(exercise="ex2", kind="heads merged in reverse order (unlisted)",
         expect="its features come in the order",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.flip(1).transpose(1, 2).reshape(B, T, H * d_head)
'''),
    dict(exercise="ex2", kind="positions reversed (unlisted)", expect="row t must hold token t",
         code='''def my_merge_heads(x):
    B, H, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, H * d_head).flip(1)
'''),
    dict(exercise="ex2", kind="heads summed instead of concatenated", expect="which is d_head",
         code='''def my_merge_heads(x):
    return x.sum(dim=1)
'''),
    # Exercise 3: a loop over heads
    dict(exercise="ex3", kind="scaled by sqrt(d_model)",
         expect="scaled by the model width instead of the head width",
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
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        out_h, _ = attention(q[..., :d_head], k[..., :d_head], v[..., :d_head], mask)
        outputs.append(out_h)
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="strided slices", expect="interleaved",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    outputs = []
    for h in range(n_heads):
        out_h, _ = attention(q[..., h::n_heads], k[..., h::n_heads], v[..., h::n_heads], mask)
        outputs.append(out_h)
    return torch.stack(outputs, dim=-2).flatten(-2)
'''),
    dict(exercise="ex3", kind="heads summed instead of concatenated", expect="summed or averaged",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    total = 0
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        total = total + attention(q[..., cols], k[..., cols], v[..., cols], mask)[0]
    return total
'''),
    dict(exercise="ex3", kind="concatenated along the positions", expect="along the positions",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], k[..., cols], v[..., cols], mask)[0])
    return torch.cat(outputs, dim=1)
'''),
    dict(exercise="ex3", kind="mask ignored", expect="ignored the mask",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], k[..., cols], v[..., cols])[0])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="K and V swapped", expect="swapped K and V",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], v[..., cols], k[..., cols], mask)[0])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="one full-width head", expect="one head of full width",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    return attention(q, k, v, mask)[0]
'''),
    dict(exercise="ex3", kind="calls split_heads instead of looping",
         expect="the point is the loop",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    heads = attention(split_heads(q, n_heads), split_heads(k, n_heads),
                      split_heads(v, n_heads), mask)[0]
    return merge_heads(heads)
'''),
    dict(exercise="ex3", kind="every head reads the keys of head 0 (unlisted)",
         expect="head 0 is right and heads 1, 2 are wrong",
         code='''def per_head_attention(q, k, v, n_heads, mask=None):
    d_head = q.shape[-1] // n_heads
    outputs = []
    for h in range(n_heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        outputs.append(attention(q[..., cols], k[..., :d_head], v[..., cols], mask)[0])
    return torch.cat(outputs, dim=-1)
'''),
    dict(exercise="ex3", kind="mask used the torch way (True = blocked)",
         expect="the wrong way round",
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
         expect="the causal mask leaks",
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
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + bias * d_head)
'''),
    dict(exercise="ex4", kind="forgot the biases", expect="forgot the biases",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * d_model * d_head + d_model * d_model
'''),
    dict(exercise="ex4", kind="every head of full width", expect="d_head = d_model / n_heads",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    return n_heads * 3 * (d_model * d_model + bias * d_model) + d_model * d_model + bias * d_model
'''),
    dict(exercise="ex4", kind="one head counted", expect="one head only",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return 3 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model
'''),
    dict(exercise="ex4", kind="W_O once per head", expect="not once per head",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * (3 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model)
'''),
    dict(exercise="ex4", kind="no error for a head count that does not divide",
         expect="n_heads must divide d_model",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model
'''),
    dict(exercise="ex4", kind="counts a module's parameters", expect="with arithmetic",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    return count_parameters(MultiHeadAttention(d_model, n_heads, bias=bias))
'''),
    dict(exercise="ex4", kind="two projections per head", expect="one of W_Q, W_K, W_V",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 2 * (d_model * d_head + bias * d_head) + d_model * d_model + bias * d_model
'''),
    dict(exercise="ex4", kind="W_O without its bias (unlisted)", expect="bias=True adds",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return n_heads * 3 * (d_model * d_head + bias * d_head) + d_model * d_model
'''),
    dict(exercise="ex4", kind="biases counted once per head (unlisted)",
         expect="bias=True adds",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    return 4 * d_model * d_model + bias * (n_heads + d_model)
'''),
    dict(exercise="ex4", kind="returns the count as a formatted string", expect="a whole number",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    return f"{4 * d_model * d_model + bias * 4 * d_model:,}"
'''),
    dict(exercise="ex4", kind="head count in the weights (unlisted)",
         expect="changes with the head count",
         code='''def attention_parameters(d_model, n_heads, bias=True):
    if d_model % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_head = d_model // n_heads
    return 3 * d_model * d_head * 8 + d_model * d_model + bias * 4 * d_model
'''),
    # Exercise 5: match nn.MultiheadAttention
    dict(exercise="ex5", kind="forgot the output projection", expect="forgot the output projection",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v)
'''),
    dict(exercise="ex5", kind="forgot the scale", expect="forgot the scale",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="scaled by sqrt(d_model)",
         expect="scaled by the model width instead of the head width",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / x.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="missing transpose in the split",
         expect="a transpose missing in a head reshape",
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
         expect="a merge that forgets to transpose back",
         code='''def mha_forward(x, w, n_heads, mask=None):
    B, T, D = x.shape
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return (softmax(scores, axis=-1) @ v).reshape(B, T, D) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="K and V swapped", expect="swapped K and V",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ v.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ k) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="forgot the biases", expect="forgot the biases",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"]
'''),
    dict(exercise="ex5", kind="weights used transposed", expect="used the weights transposed",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"].T + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"].T + w["b_o"]
'''),
    dict(exercise="ex5", kind="mask ignored", expect="ignored the mask",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="no split: one head of full width", expect="one head of full width",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (x @ w[f"W_{n}"] + w[f"b_{n}"] for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return (softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="returns (out, weights)", expect="not a tuple",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = softmax(scores, axis=-1)
    return merge_heads(weights @ v) @ w["W_o"] + w["b_o"], weights
'''),
    dict(exercise="ex5", kind="calls attention() instead of writing the scores",
         expect="write the scores and the softmax yourself",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    return merge_heads(attention(q, k, v, mask)[0]) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="loads the weights into nn.MultiheadAttention",
         expect="calls MultiheadAttention",
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
         expect="the wrong way round",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    return merge_heads(torch.softmax(scores, dim=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="integer square root of d_head", expect="scaled by a whole number",
         code='''import math


def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / math.isqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="b_o added twice (unlisted)", expect="at the output projection",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    out = merge_heads(softmax(scores, axis=-1) @ v) + w["b_o"]
    return out @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="query bias forgotten (unlisted)",
         expect="leaves the reference at the heads",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q = split_heads(x @ w["W_q"], n_heads)
    k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "kv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-1) @ v) @ w["W_o"] + w["b_o"]
'''),
    dict(exercise="ex5", kind="softmax over the queries (unlisted)",
         expect="a softmax over the queries",
         code='''def mha_forward(x, w, n_heads, mask=None):
    q, k, v = (split_heads(x @ w[f"W_{n}"] + w[f"b_{n}"], n_heads) for n in "qkv")
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return merge_heads(softmax(scores, axis=-2) @ v) @ w["W_o"] + w["b_o"]
'''),
    # Exercise 6: a test that catches the mixing
    dict(exercise="ex6", kind="checks the shape only", expect="never fires",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    x = torch.randn(B, T, D)
    return split(x, n_heads).shape != (B, n_heads, T, D // n_heads)
'''),
    dict(exercise="ex6", kind="compares exact numbers with split_heads", expect="false alarm",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    x = torch.randn(B, T, D)
    return not torch.equal(split(x, n_heads), split_heads(x, n_heads))
'''),
    dict(exercise="ex6", kind="checks head 0 only", expect="check every head",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    heads = split(1000 * b + 100 * t + f, n_heads)
    should = 10 * torch.arange(B).view(B, 1, 1) + torch.arange(T).view(1, T, 1)
    return not bool((heads[:, 0] // 100 == should).all())
'''),
    dict(exercise="ex6", kind="labels tokens but not sequences", expect="swaps the sequences",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    x = torch.arange(T).view(1, T, 1).expand(B, T, D).clone()
    heads = split(x, n_heads)
    return not bool((heads == torch.arange(T).view(1, 1, T, 1)).all())
'''),
    dict(exercise="ex6", kind="compares with the wrong position", expect="always fires",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    b, t, f = torch.meshgrid(torch.arange(B), torch.arange(T), torch.arange(D), indexing="ij")
    heads = split(1000 * b + 100 * t + f, n_heads)
    return not bool((heads // 100 % 10 == 0).all())
'''),
    dict(exercise="ex6", kind="checks the first feature of each head only",
         expect="compare every feature",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(B * T, dtype=torch.float64).view(B, T, 1)
    heads = split(label.expand(B, T, D).clone(), n_heads)
    return not bool((heads[..., 0] == label.view(B, 1, T)).all())
'''),
    dict(exercise="ex6", kind="returns a torch bool tensor", expect="Python bool",
         code='''def mixes_tokens(split, B=2, T=5, D=12, n_heads=3):
    label = torch.arange(B * T, dtype=torch.float64).view(B, T, 1)
    heads = split(label.expand(B, T, D).clone(), n_heads)
    return (heads != label.view(B, 1, T, 1)).any()
'''),
]
