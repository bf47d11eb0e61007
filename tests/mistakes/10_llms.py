"""Named wrong answers for solutions/10_llms.ipynb; each must fail its check by name."""

MISTAKES = [
    # ---------------------------------------------------------------- ex1 grouped-query attention
    dict(exercise="ex1", kind="kv heads tiled with repeat", expect="tiled",
         id="llms.gqa-tiled",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat(1, G, 1, 1)
    v = v.repeat(1, G, 1, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="expand on a new axis before the kv-head axis", expect="tiled",
         id="llms.gqa-tiled",
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    k = k[:, None].expand(B, G, H_kv, T, d).reshape(B, H_q, T, d)
    v = v[:, None].expand(B, G, H_kv, T, d).reshape(B, H_q, T, d)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="queries viewed as (B, G, H_kv, T, d)", expect="tiled",
         id="llms.gqa-tiled",
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    qg = q.reshape(B, G, H_kv, T, d)
    scores = qg @ k[:, None].transpose(-2, -1) / math.sqrt(d)
    out = torch.softmax(scores, dim=-1) @ v[:, None]
    return out.reshape(B, H_q, T, d)
'''),
    dict(exercise="ex1", kind="no scale", expect="not scaled", id="llms.gqa-no-scale",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
'''),
    dict(exercise="ex1", kind="scaled by the group's width", expect="√(G·d)",
         id="llms.gqa-wrong-scale",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(G * q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="divided by d", expect="divided by d =", id="llms.gqa-wrong-scale",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / q.shape[-1]
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="softmax over the queries", expect="over the queries",
         id="llms.gqa-softmax-axis",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-2) @ v
'''),
    dict(exercise="ex1", kind="softmax over the heads", expect="over the heads",
         id="llms.gqa-softmax-axis",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=1) @ v
'''),
    dict(exercise="ex1", kind="a causal mask added", expect="is causal", id="llms.gqa-causal",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    T = q.shape[-2]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~torch.ones(T, T, dtype=torch.bool).tril(), float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="keys and values swapped", expect="swapped",
         id="llms.gqa-k-v-swapped",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ v.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ k
'''),
    dict(exercise="ex1", kind="no softmax", expect="raw scaled scores", id="llms.gqa-no-softmax",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    return (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])) @ v
'''),
    dict(exercise="ex1", kind="query heads of a group averaged", expect="averaged the",
         id="llms.gqa-queries-averaged",
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    q = q.reshape(B, H_kv, H_q // H_kv, T, d).mean(dim=2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="averaged queries repeated back to H_q heads",
         expect="averaged the", id="llms.gqa-queries-averaged",
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    q_shared = q.reshape(B, H_kv, G, T, d).mean(dim=2)
    out = torch.softmax(q_shared @ k.transpose(-2, -1) / math.sqrt(d), dim=-1) @ v
    return out.repeat_interleave(G, dim=1)
'''),
    dict(exercise="ex1", kind="one output per kv head, the group's mean", expect="mean of",
         id="llms.gqa-outputs-averaged",
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    out = torch.softmax(q.reshape(B, H_kv, G, T, d) @ k[:, :, None].transpose(-2, -1)
                        / math.sqrt(d), dim=-1) @ v[:, :, None]
    return out.mean(dim=2)
'''),
    dict(exercise="ex1", kind="only the first H_kv query heads", expect="one per key/value head",
         id="llms.gqa-kv-heads-out",
         code='''def my_gqa(q, k, v):
    H_kv = k.shape[1]
    q = q[:, :H_kv]
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="kv heads never repeated", expect="head to head",
         id="llms.gqa-heads-mismatch",
         code='''def my_gqa(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="einsum with one head letter", expect="head to head",
         id="llms.gqa-heads-mismatch",
         code='''def my_gqa(q, k, v):
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(q.shape[-1])
    return torch.einsum("bhts,bhsd->bhtd", torch.softmax(scores, dim=-1), v)
'''),
    dict(exercise="ex1", kind="group size with true division", expect="must be an int",
         id="llms.gqa-float-group",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] / k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="returns (out, weights)", expect="return only the output",
         id="llms.gqa-returned-tuple",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1)
    return weights @ v, weights
'''),
    dict(exercise="ex1", kind="groups numbered from the last kv head", expect="h // g",
         id="llms.gqa-wrong-kv-head",
         code='''def my_gqa(q, k, v):
    H_q, H_kv = q.shape[1], k.shape[1]
    G = H_q // H_kv
    outs = []
    for h in range(H_q):
        j = H_kv - 1 - h // G
        s = q[:, h] @ k[:, j].transpose(-2, -1) / math.sqrt(q.shape[-1])
        outs.append(torch.softmax(s, dim=-1) @ v[:, j])
    return torch.stack(outs, dim=1)
'''),
    dict(exercise="ex1", kind="calls F.scaled_dot_product_attention with enable_gqa",
         expect="your function calls", id="rule.forbidden-call",
         code='''import torch.nn.functional as F

def my_gqa(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
'''),
    dict(exercise="ex1", kind="calls helpers.gqa.repeat_kv", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers.gqa import repeat_kv

def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k, v = repeat_kv(k, G), repeat_kv(v, G)
    return torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v
'''),
    dict(exercise="ex1", kind="k changed in place", expect="changed its argument `k` in place",
         id="generic.input-modified",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k /= math.sqrt(q.shape[-1])
    k2 = k.repeat_interleave(G, dim=1)
    v2 = v.repeat_interleave(G, dim=1)
    return torch.softmax(q @ k2.transpose(-2, -1), dim=-1) @ v2
'''),
    dict(exercise="ex1", kind="scale from the key length, k.size(2)", expect="√T",
         id="llms.gqa-wrong-scale",
         code='''def my_gqa(q, k, v):
    G = q.size(1) // k.size(1)
    scale = k.size(2) ** -0.5
    k, v = k.repeat_interleave(G, 1), v.repeat_interleave(G, 1)
    return (torch.einsum("bhtd,bhsd->bhts", q, k) * scale).softmax(-1) @ v
'''),
    dict(exercise="ex1", kind="keys indexed h % H_kv, values h // G", expect="shared differently",
         id="llms.gqa-kv-maps-differ",
         code='''def my_gqa(q, k, v):
    H_q, H_kv = q.shape[1], k.shape[1]
    heads = torch.arange(H_q)
    k_all = k[:, heads % H_kv]
    v_all = v[:, heads // (H_q // H_kv)]
    w = torch.softmax(q @ k_all.mT / math.sqrt(q.shape[-1]), dim=-1)
    return w @ v_all
'''),
    dict(exercise="ex1", kind="scores as an einsum over (key, query)", expect="k qᵀ",
         id="llms.gqa-scores-transposed",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = torch.einsum("bhsd,bhtd->bhst", k, q) / math.sqrt(q.shape[-1])
    return scores.softmax(dim=-1) @ v
'''),
    dict(exercise="ex1", kind="right values handed back as NumPy", expect="return a torch tensor",
         id="llms.gqa-not-a-tensor",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    out = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v
    return out.detach().numpy()
'''),
    dict(exercise="ex1", kind="a nested list", expect="you returned a list",
         id="llms.gqa-not-a-tensor",
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    out = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v
    return out.tolist()
'''),
    dict(exercise="ex1", kind="kv index h // 2, a group size of the first case",
         expect="hard-coded", id="generic.hard-coded-size",
         code='''def my_gqa(q, k, v):
    kv = torch.arange(q.shape[1]) // 2
    scores = q @ k[:, kv].transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v[:, kv]
'''),
    dict(exercise="ex1", kind="queries viewed in groups of 2", expect="this one has q of shape",
         id="generic.hard-coded-size",
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    qg = q.view(B, -1, 2, T, d)
    w = torch.softmax(qg @ k[:, :, None].transpose(-2, -1) / math.sqrt(d), dim=-1)
    return (w @ v[:, :, None]).reshape(B, H_q, T, d)
'''),

    # ---------------------------------------------------------------- ex2 KV-cache bytes
    dict(exercise="ex2", kind="only the keys", expect="only the keys", id="llms.kv-only-keys",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_token = config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept * batch)
'''),
    dict(exercise="ex2", kind="query heads instead of kv heads", expect="key/value heads",
         id="llms.kv-query-heads",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_token = 2 * config["n_layers"] * config["n_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept * batch)
'''),
    dict(exercise="ex2", kind="the multi-head formula, 2 * n_layers * d_model",
         expect="key/value heads", id="llms.kv-query-heads",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return int(2 * config["n_layers"] * config["d_model"] * kept * batch * bytes_per_value)
'''),
    dict(exercise="ex2", kind="d_model where d_head belongs", expect="where d_head = ",
         id="llms.kv-d-model",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_model"]
    return int(per_token * kept * batch * bytes_per_value)
'''),
    dict(exercise="ex2", kind="d_head computed as d_model // n_heads", expect="head width",
         id="llms.kv-d-head-derived",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    d_head = config["d_model"] // config["n_heads"]
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * d_head * bytes_per_value
    return int(per_token * kept * batch)
'''),
    dict(exercise="ex2", kind="one layer", expect="you counted one layer", id="llms.kv-one-layer",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return int(2 * config["n_kv_heads"] * config["d_head"] * bytes_per_value * kept * batch)
'''),
    dict(exercise="ex2", kind="batch forgotten", expect="one sequence",
         id="llms.kv-forgot-batch",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept)
'''),
    dict(exercise="ex2", kind="per token only", expect="ONE token", id="llms.kv-per-token",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    return 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
'''),
    dict(exercise="ex2", kind="numbers, not bytes", expect="not of bytes",
         id="llms.kv-not-bytes",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * kept * batch
'''),
    dict(exercise="ex2", kind="bits", expect="count of bits", id="llms.kv-bits",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    bits = 8 * bytes_per_value
    return 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * kept * batch * bits
'''),
    dict(exercise="ex2", kind="in GiB", expect="converted to GiB", id="llms.kv-unit",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    n = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * kept * batch
    return n * bytes_per_value / 2**30
'''),
    dict(exercise="ex2", kind="whole GiB", expect="rounded down", id="llms.kv-unit",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    n = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * kept * batch
    return int(n * bytes_per_value / 2**30)
'''),
    dict(exercise="ex2", kind="window ignored", expect="ignored the window",
         id="llms.kv-window-ignored",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return per_token * T * batch
'''),
    dict(exercise="ex2", kind="window ignored, and counted in bits", expect="window is ignored",
         id="llms.kv-window-ignored",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    if config["window"] is None:
        return per_token * T * batch
    return per_token * T * batch * 8
'''),
    dict(exercise="ex2", kind="window - 1 positions", expect="one off the window",
         id="llms.kv-window-off-by-one",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"] - 1)
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return per_token * kept * batch
'''),
    dict(exercise="ex2", kind="the whole window kept", expect="max(T, window)",
         id="llms.kv-window-max",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else config["window"]
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return per_token * kept * batch
'''),
    dict(exercise="ex2", kind="the causal triangle counted", expect="multiplied by",
         id="llms.kv-scaling",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return per_token * kept * (kept + 1) // 2 * batch
'''),
    dict(exercise="ex2", kind="query heads, and only the keys",
         expect="only the key/value heads are cached",
         id="llms.kv-query-heads",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_token = config["n_layers"] * config["n_heads"] * config["d_head"] * bytes_per_value
    return per_token * kept * batch
'''),
    dict(exercise="ex2", kind="config read as attributes", expect="config is a dict",
         id="llms.kv-config-attribute",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config.window is None else min(T, config.window)
    return 2 * config.n_layers * config.n_kv_heads * config.d_head * bytes_per_value * kept * batch
'''),
    dict(exercise="ex2", kind="Hugging Face key names", expect="config has no key",
         id="llms.kv-config-key",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    layers, kv_heads = config["num_hidden_layers"], config["num_key_value_heads"]
    return 2 * layers * kv_heads * config["head_dim"] * bytes_per_value * T * batch
'''),
    dict(exercise="ex2", kind="a formatted string", expect="return the number of bytes",
         id="llms.kv-not-a-number",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    n = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return f"{n * kept * batch} bytes"
'''),
    dict(exercise="ex2", kind="calls helpers.configs.kv_cache_bytes",
         expect="your function calls", id="rule.forbidden-call",
         code='''from helpers.configs import kv_cache_bytes

def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    return kv_cache_bytes(config, T, batch, bytes_per_value)
'''),
    dict(exercise="ex2", kind="T - 1 positions", expect="one short",
         id="llms.kv-positions-off-by-one",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    positions = T - 1 if config["window"] is None else min(T, config["window"]) - 1
    per_position = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"]
    return int(per_position * positions * batch * bytes_per_value)
'''),
    dict(exercise="ex2", kind="positions 0..T counted inclusively", expect="one extra",
         id="llms.kv-positions-off-by-one",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    window = config["window"] or T
    positions = len(range(0, min(T, window) + 1))
    values = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * positions
    return values * batch * bytes_per_value
'''),

    # ---------------------------------------------------------------- ex3 the chunk's causal mask
    dict(exercise="ex3", kind="top-left triangle", expect="top left", id="llms.chunk-top-left",
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k), dtype=bool))
'''),
    dict(exercise="ex3", kind="first rows of the full causal mask", expect="top left",
         id="llms.chunk-top-left",
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_k, T_k), dtype=bool))[:T_q]
'''),
    dict(exercise="ex3", kind="strict <", expect="own position", id="llms.chunk-excludes-self",
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[:, None] + (T_k - T_q)
    j = np.arange(T_k)[None, :]
    return j < i
'''),
    dict(exercise="ex3", kind="offset one too large", expect="one key too many",
         id="llms.chunk-one-ahead",
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(1, T_q + 1)[:, None] + (T_k - T_q)
    j = np.arange(T_k)[None, :]
    return j <= i
'''),
    dict(exercise="ex3", kind="offset with the wrong sign", expect="wrong sign",
         id="llms.chunk-offset-sign",
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k), dtype=bool), k=T_q - T_k)
'''),
    dict(exercise="ex3", kind="every key allowed", expect="allows every key",
         id="llms.chunk-all-true",
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.ones((T_q, T_k), dtype=bool)
'''),
    dict(exercise="ex3", kind="future instead of past", expect="future instead of its past",
         id="llms.chunk-reversed",
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[:, None] + (T_k - T_q)
    j = np.arange(T_k)[None, :]
    return j >= i
'''),
    dict(exercise="ex3", kind="True marks blocked keys", expect="inverted",
         id="llms.chunk-inverted",
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[:, None] + (T_k - T_q)
    j = np.arange(T_k)[None, :]
    return j > i
'''),
    dict(exercise="ex3", kind="the chunk reads only itself", expect="the cache",
         id="llms.chunk-forgot-cache",
         code='''def my_chunk_causal_mask(T_q, T_k):
    mask = np.zeros((T_q, T_k), dtype=bool)
    mask[:, T_k - T_q:] = np.tril(np.ones((T_q, T_q), dtype=bool))
    return mask
'''),
    dict(exercise="ex3", kind="triangle flipped left to right", expect="flipped",
         id="llms.chunk-flipped",
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.fliplr(np.tril(np.ones((T_q, T_k), dtype=bool)))
'''),
    dict(exercise="ex3", kind="queries counted back from the end", expect="reads key",
         id="llms.chunk-reads-future",
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = T_k - 1 - np.arange(T_q)[:, None]
    j = np.arange(T_k)[None, :]
    return j <= i
'''),
    dict(exercise="ex3", kind="only the last T_q keys, like a window", expect="cannot read key",
         id="llms.chunk-blocks-past",
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[:, None] + (T_k - T_q)
    j = np.arange(T_k)[None, :]
    return (j <= i) & (i - j < T_q)
'''),
    dict(exercise="ex3", kind="two off-by-ones", expect="cannot read its own position",
         id="llms.chunk-excludes-self",
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[:, None] + (T_k - T_q - 1)
    j = np.arange(T_k)[None, :]
    return j < i
'''),
    dict(exercise="ex3", kind="float ones and zeros", expect="right places",
         id="llms.chunk-not-boolean",
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k)), k=T_k - T_q)
'''),
    dict(exercise="ex3", kind="(T_k, T_q) mask", expect="transposed", id="llms.chunk-transposed",
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[None, :] + (T_k - T_q)
    j = np.arange(T_k)[:, None]
    return j <= i
'''),
    dict(exercise="ex3", kind="the whole sequence's mask", expect="whole sequence",
         id="llms.chunk-shape",
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_k, T_k), dtype=bool))
'''),
    dict(exercise="ex3", kind="calls helpers.masks.chunk_causal_mask", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers.masks import chunk_causal_mask

def my_chunk_causal_mask(T_q, T_k):
    return chunk_causal_mask(T_q, T_k)
'''),
    dict(exercise="ex3", kind="materialises torch's causal_lower_right",
         expect="your function calls", id="rule.forbidden-call",
         code='''from torch.nn.attention.bias import causal_lower_right

def my_chunk_causal_mask(T_q, T_k):
    return causal_lower_right(T_q, T_k)._materialize().numpy()
'''),

    # ---------------------------------------------------------------- ex4 interpolated RoPE angles
    dict(exercise="ex4", kind="positions multiplied by factor", expect="multiplied the positions",
         id="llms.rope-multiplied",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return (positions * factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="positions and frequencies both divided", expect="twice",
         id="llms.rope-divided-twice",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d) / factor
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="factor never used", expect="was not used",
         id="llms.rope-not-interpolated",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.outer(positions, theta)
'''),
    dict(exercise="ex4", kind="NTK-aware base instead", expect="NTK", id="llms.rope-ntk",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    base = base * factor ** (d / (d - 2))
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.outer(positions, theta)
'''),
    dict(exercise="ex4", kind="exponent i / d", expect="base^(-i/d)", id="llms.rope-exponent-i",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(d // 2) / d)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="exponent sign", expect="grow with the pair",
         id="llms.rope-exponent-sign",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (np.arange(0, d, 2) / d)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="base hard-coded", expect="not the base", id="llms.rope-base-ignored",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="positions counted from 1", expect="start at 1",
         id="llms.rope-positions-from-one",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return ((positions + 1) / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="np.arange(T) for the positions", expect="not of the positions",
         id="llms.rope-positions-ignored",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    m = np.arange(len(positions)) / factor
    return m[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="floor division", expect="floor division",
         id="llms.rope-floor-division",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return (positions // factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="degrees", expect="in degrees", id="llms.rope-degrees",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.degrees((positions / factor)[:, None] * theta[None, :])
'''),
    dict(exercise="ex4", kind="returns the cosines", expect="cosines", id="llms.rope-trig",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.cos((positions / factor)[:, None] * theta[None, :])
'''),
    dict(exercise="ex4", kind="angles modulo 2 pi", expect="wrapped", id="llms.rope-wrapped",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.mod((positions / factor)[:, None] * theta[None, :], 2 * np.pi)
'''),
    dict(exercise="ex4", kind="transposed", expect="transposed", id="llms.rope-transposed",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return theta[:, None] * (positions / factor)[None, :]
'''),
    dict(exercise="ex4", kind="each angle written for both features", expect="each written twice",
         id="llms.rope-shape",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    angles = (positions / factor)[:, None] * theta[None, :]
    return np.repeat(angles, 2, axis=1)
'''),
    dict(exercise="ex4", kind="positions shifted back by one", expect="position 0",
         id="llms.rope-position-zero",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return ((positions - 1) / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="pairs counted from 1", expect="column 0",
         id="llms.rope-pair-zero",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-2 * np.arange(1, d // 2 + 1) / d)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="only the slow half of the pairs interpolated",
         expect="keep their plain", id="llms.rope-some-pairs",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    theta[d // 4:] = theta[d // 4:] / factor
    return positions[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="exponent over d - 2", expect="shrink by the same factor",
         id="llms.rope-frequencies",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / max(d - 2, 1))
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="calls helpers.rope_scaling", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers import rope_scaling

def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    return rope_scaling.interpolated_rope_angles(positions, d, factor, base)
'''),
    dict(exercise="ex4", kind="1 / base ** 2i / d, no parentheses", expect="precedence",
         id="llms.rope-precedence",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    inv_freq = 1.0 / base ** np.arange(0, d, 2) / d
    return np.outer(positions / factor, inv_freq)
'''),
    dict(exercise="ex4", kind="base ** -2 * i / d", expect="precedence", id="llms.rope-precedence",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    i = np.arange(d // 2)
    theta = base ** -2 * i / d
    return (positions / factor)[:, None] * theta
'''),
    dict(exercise="ex4", kind="pairs 2, 4, ..., d", expect="counted from i = 1",
         id="llms.rope-pair-zero",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(2, d + 2, 2) / d)
    return np.outer(np.asarray(positions) / factor, theta)
'''),
    dict(exercise="ex4", kind="np.divide into the positions", expect="in place",
         id="generic.input-modified",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    np.divide(positions, factor, out=positions)
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.outer(positions, theta)
'''),
    dict(exercise="ex4", kind="exponent divided in place on an int arange", expect="int array",
         id="llms.rope-int-in-place",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    e = np.arange(0, d, 2)
    e /= d
    return np.outer(positions / factor, base ** -e)
'''),

    # ---------------------------------------------------------------- ex5 one row's backward
    dict(exercise="ex5", kind="no scale in dq and dk", expect="lack the scale",
         id="llms.row-no-scale",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return ds @ k, ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="scale applied twice", expect="twice",
         id="llms.row-scale-twice",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = scale * p * (dp - p @ dp)
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="softmax backward as p * dp", expect="second term",
         id="llms.row-softmax-term-missing",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    ds = p * (v @ d_out)
    return scale * ds @ k, scale * np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="the leading p forgotten", expect="without the leading",
         id="llms.row-softmax-p-missing",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = dp - p @ dp
    return scale * ds @ k, scale * np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="D as the plain sum of dp", expect="weighted",
         id="llms.row-d-unweighted",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - dp.sum())
    return scale * ds @ k, scale * np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="sign flipped", expect="sign flipped", id="llms.row-sign",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (p @ dp - dp)
    return scale * ds @ k, scale * np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="weights exp(s) without lse", expect="subtract it",
         id="llms.row-lse-not-subtracted",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="divided by lse", expect="is a LOG",
         id="llms.row-lse-not-subtracted",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale) / lse
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="scores recomputed unscaled", expect="without the scale",
         id="llms.row-scores-unscaled",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="dk as q outer ds", expect="wrong way round",
         id="llms.row-dk-transposed",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * np.outer(q, ds), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="dv as d_out outer p", expect="wrong way round",
         id="llms.row-dv-transposed",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * np.outer(ds, q), np.outer(d_out, p)
'''),
    dict(exercise="ex5", kind="dk from k instead of q", expect="in the direction of q",
         id="llms.row-dk-uses-k",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * ds[:, None] * k, np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="dq per key, never summed", expect="SUM over the keys",
         id="llms.row-dq-not-summed",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds[:, None] * k, scale * ds[:, None] * q[None, :], p[:, None] * d_out
'''),
    dict(exercise="ex5", kind="dv without the weights", expect="d_out in every row",
         id="llms.row-dv-unweighted",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    dv = np.tile(d_out, (k.shape[0], 1))
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="exp(s) and no scale in dq, dk", expect="sum to",
         id="llms.row-weights-not-normalised",
         code='''def my_row_backward(q, k, v, lse, d_out):
    p = np.exp(k @ q / math.sqrt(q.shape[-1]))
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return ds @ k, np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="p * dp and no scale", expect="rows of your dk",
         id="llms.row-ds-not-zero-sum",
         code='''def my_row_backward(q, k, v, lse, d_out):
    p = np.exp(k @ q / math.sqrt(q.shape[-1]) - lse)
    ds = p * (v @ d_out)
    return ds @ k, np.outer(ds, q), np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="returns (dk, dq, dv)", expect="in that order",
         id="generic.tuple-order",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * np.outer(ds, q), scale * ds @ k, np.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="library row_backward", expect="your function calls",
         id="rule.forbidden-call",
         code='''from helpers.streaming import row_backward

def my_row_backward(q, k, v, lse, d_out):
    return row_backward(q, k, v, lse, d_out)
'''),
    dict(exercise="ex5", kind="autograd through torch", expect="your function calls",
         id="rule.forbidden-call",
         code='''def my_row_backward(q, k, v, lse, d_out):
    q, k, v = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    p = torch.softmax(k @ q / math.sqrt(q.shape[-1]), dim=-1)
    (p @ v).backward(torch.tensor(d_out))
    return q.grad.numpy(), k.grad.numpy(), v.grad.numpy()
'''),

    # ---------------------------------------------------------------- ex6–ex8 (issue 22): taken from held-out sets g and h after the checks were tuned on g (so neither set is held out for these lines any more), and written for the diagnoses no held-out answer reached
    dict(exercise='ex8', kind='softmax over the queries (set g)', expect='outs',
         id='llms.combine-axis',
         code='''def my_combine_partials(outs, lses):
    w = torch.softmax(lses, dim=1)
    m = lses.max(dim=0).values
    lse = m + torch.log(torch.exp(lses - m).sum(0))
    return (w.unsqueeze(-1) * outs).sum(0), lse
'''),
    dict(exercise='ex8', kind='softmax over the queries (set h)', expect='outs',
         id='llms.combine-axis',
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=-1, keepdim=True).values
    e = torch.exp(lses - m)
    w = e / e.sum(dim=-1, keepdim=True)       # (n_chunks, T_q)
    out = (w[..., None] * outs).sum(dim=0)
    top = lses.max(dim=0).values
    lse = top + torch.log(torch.exp(lses - top).sum(dim=0))
    return out, lse
'''),
    dict(exercise='ex8', kind='one max for every query (set h)', expect='queries [0] come out inf or nan',
         id='llms.combine-global-max',
         code='''def my_combine_partials(outs, lses):
    m = lses.max()                            # one number
    w = torch.exp(lses - m)
    total = w.sum(dim=0)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, m + torch.log(total)
'''),
    dict(exercise='ex8', kind='weights linear in ℓ (set g)', expect='outs',
         id='llms.combine-linear-weights',
         code='''def my_combine_partials(outs, lses):
    w = lses / lses.sum(0)
    m = lses.max(dim=0).values
    lse = m + torch.log(torch.exp(lses - m).sum(0))
    return (w.unsqueeze(-1) * outs).sum(0), lse
'''),
    dict(exercise='ex8', kind='lse is the max (set g)', expect='outs',
         id='llms.combine-lse',
         code='''def my_combine_partials(outs, lses):
    lse = lses.max(dim=0).values
    w = torch.softmax(lses, dim=0)
    return (w.unsqueeze(-1) * outs).sum(0), lse
'''),
    dict(exercise='ex8', kind='lse is the sum of the lses (set g)', expect='outs',
         id='llms.combine-lse',
         code='''def my_combine_partials(outs, lses):
    lse = lses.sum(dim=0)
    w = torch.exp(lses - lses.max(dim=0).values)
    w = w / w.sum(0)
    return (w.unsqueeze(-1) * outs).sum(0), lse
'''),
    dict(exercise='ex8', kind='shifted by chunk 0 (set h)', expect='outs',
         id='llms.combine-masked-chunk',
         code='''def my_combine_partials(outs, lses):
    ref = lses[0]                             # (T_q,)
    w = torch.exp(lses - ref)
    total = w.sum(dim=0)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, ref + torch.log(total)
'''),
    dict(exercise='ex8', kind='running merge with -inf (set h)', expect='outs',
         id='llms.combine-masked-chunk',
         code='''def my_combine_partials(outs, lses):
    out, lse = outs[0].clone(), lses[0].clone()
    for c in range(1, outs.shape[0]):
        m = torch.maximum(lse, lses[c])
        a, b = torch.exp(lse - m), torch.exp(lses[c] - m)
        out = (a[:, None] * out + b[:, None] * outs[c]) / (a + b)[:, None]
        lse = m + torch.log(a + b)
    return out, lse
'''),
    dict(exercise='ex8', kind='weights not normalised (set g)', expect='outs',
         id='llms.combine-not-normalised',
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    lse = m + torch.log(w.sum(0))
    out = (w.unsqueeze(-1) * outs).sum(0)
    return out, lse
'''),
    dict(exercise='ex8', kind='not normalised (set h)', expect='outs',
         id='llms.combine-not-normalised',
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    out = (w[..., None] * outs).sum(dim=0)
    lse = m + torch.log(w.sum(dim=0))
    return out, lse
'''),
    dict(exercise='ex8', kind='no max subtracted (set g)', expect='outs',
         id='llms.combine-overflow',
         code='''def my_combine_partials(outs, lses):
    e = torch.exp(lses)
    total = e.sum(0)
    lse = torch.log(total)
    out = (e.unsqueeze(-1) * outs).sum(0) / total.unsqueeze(-1)
    return out, lse
'''),
    dict(exercise='ex8', kind='no max subtracted (set h)', expect='outs',
         id='llms.combine-overflow',
         code='''def my_combine_partials(outs, lses):
    w = torch.exp(lses)                       # (n_chunks, T_q)
    total = w.sum(dim=0)                      # (T_q,)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, torch.log(total)
'''),
    dict(exercise='ex8', kind='plain mean of the partials (set g)', expect='outs',
         id='llms.combine-unweighted',
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    lse = m + torch.log(torch.exp(lses - m).sum(0))
    out = outs.mean(dim=0)
    return out, lse
'''),
    dict(exercise='ex8', kind='plain mean of the partials (set h)', expect='outs',
         id='llms.combine-unweighted',
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    lse = m + torch.log(torch.exp(lses - m).sum(dim=0))
    return outs.mean(dim=0), lse
'''),
    dict(exercise='ex8', kind='-inf replaced by 0 (set g)', expect='outs',
         id='llms.combine-weights',
         code='''def my_combine_partials(outs, lses):
    lses = torch.nan_to_num(lses, neginf=0.0)
    outs = torch.nan_to_num(outs)
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    s = w.sum(0)
    return (w.unsqueeze(-1) * outs).sum(0) / s.unsqueeze(-1), m + torch.log(s)
'''),
    dict(exercise='ex8', kind='running combine not rescaled (set g)', expect='outs',
         id='llms.combine-weights',
         code='''def my_combine_partials(outs, lses):
    out = torch.zeros_like(outs[0])
    lse = torch.full_like(lses[0], float("-inf"))
    for o_c, l_c in zip(outs, lses):
        new = torch.logaddexp(lse, l_c)
        w = torch.exp(l_c - new)
        w = torch.nan_to_num(w, nan=0.0)
        out = out + w.unsqueeze(-1) * torch.nan_to_num(o_c)
        lse = new
    return out, lse
'''),
    dict(exercise='ex6', kind='hard-coded defaults (set g)', expect='your result is the rule with Llama 3',
         id='llms.llama3-argument-ignored',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (8192 / wavelen - 1) / 3
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > 8192, inv_freq / factor, blended)
    return np.where(wavelen < 2048, inv_freq, out)
'''),
    dict(exercise='ex6', kind='shipped numbers hard-coded (set h)', expect='your result is the rule with Llama 3',
         id='llms.llama3-argument-ignored',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (8192 / wavelen - 1.0) / (4.0 - 1.0)
    blended = (1 - smooth) * inv_freq / 8.0 + smooth * inv_freq
    return np.where(wavelen < 8192 / 4.0, inv_freq,
                    np.where(wavelen > 8192 / 1.0, inv_freq / 8.0, blended))
'''),
    dict(exercise='ex6', kind='ramp linear in wavelength (set h)', expect='pairs [29, 30, 31, 32, 33, 34] are wrong, in-betwe',
         id='llms.llama3-blend',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    low_wavelen = original_max_len / low_freq_factor
    high_wavelen = original_max_len / high_freq_factor
    smooth = (low_wavelen - wavelen) / (low_wavelen - high_wavelen)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < high_wavelen, inv_freq,
                    np.where(wavelen > low_wavelen, inv_freq / factor, blended))
'''),
    dict(exercise='ex6', kind='floor division in smooth (set h)', expect='pairs [29, 30, 31, 32, 33, 34] are wrong, in-betwe',
         id='llms.llama3-blend',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    turns = original_max_len // wavelen
    smooth = (turns - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended))
'''),
    dict(exercise='ex6', kind='blend inverted (set g)', expect='your blend is the wrong way round',
         id='llms.llama3-blend-inverted',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = smooth * inv_freq / factor + (1 - smooth) * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise='ex6', kind='blend weights swapped (set h)', expect='your blend is the wrong way round',
         id='llms.llama3-blend-inverted',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq + smooth * inv_freq / factor
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended))
'''),
    dict(exercise='ex6', kind='fast and slow branches inverted (set g)', expect='your fast and slow pairs are the wrong way round',
         id='llms.llama3-branches-inverted',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq, blended)
    out = np.where(wavelen < original_max_len / high_freq_factor, inv_freq / factor, out)
    return out
'''),
    dict(exercise='ex6', kind='fast and slow swapped (set h)', expect='your fast and slow pairs are the wrong way round',
         id='llms.llama3-branches-inverted',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq / factor,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq, blended))
'''),
    dict(exercise='ex6', kind='blend everywhere, smooth not clipped (set g)', expect='pairs [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1',
         id='llms.llama3-fast-pairs',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    return (1 - smooth) * inv_freq / factor + smooth * inv_freq
'''),
    dict(exercise='ex6', kind='if / if / else (set h)', expect='pairs [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1',
         id='llms.llama3-fast-pairs',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    out = []
    for theta in inv_freq:
        wavelen = 2 * math.pi / theta
        new = theta
        if wavelen < original_max_len / high_freq_factor:
            new = theta
        if wavelen > original_max_len / low_freq_factor:
            new = theta / factor
        else:
            smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            new = (1 - smooth) * theta / factor + smooth * theta
        out.append(new)
    return np.array(out)
'''),
    dict(exercise='ex6', kind='compares θ, not the wavelength (set g)', expect='your frequencies are the ones you were given',
         id='llms.llama3-frequency-as-wavelength',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    out = np.empty_like(inv_freq)
    for i, theta in enumerate(inv_freq):
        if theta < original_max_len / high_freq_factor:
            out[i] = theta
        elif theta > original_max_len / low_freq_factor:
            out[i] = theta / factor
        else:
            smooth = (original_max_len / theta - low_freq_factor) / (high_freq_factor - low_freq_factor)
            out[i] = (1 - smooth) * theta / factor + smooth * theta
    return out
'''),
    dict(exercise='ex6', kind='frequency compared, not wavelength (set h)', expect='your frequencies are the ones you were given',
         id='llms.llama3-frequency-as-wavelength',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    theta = np.asarray(inv_freq, dtype=float)
    low_wavelen = original_max_len / low_freq_factor
    high_wavelen = original_max_len / high_freq_factor
    smooth = (original_max_len * theta / (2 * np.pi) - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * theta / factor + smooth * theta
    return np.where(theta < high_wavelen, theta,
                    np.where(theta > low_wavelen, theta / factor, blended))
'''),
    dict(exercise='ex6', kind='multiplies by factor (set g)', expect='you multiplied by factor instead of dividing',
         id='llms.llama3-multiplied',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq * factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq * factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise='ex6', kind='slow pairs multiplied (set h)', expect='you multiplied by factor instead of dividing',
         id='llms.llama3-multiplied',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq * factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq * factor, blended))
'''),
    dict(exercise='ex6', kind='no blend (set h)', expect='the pairs between the thresholds are divided by fa',
         id='llms.llama3-no-blend',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, inv_freq / factor)
'''),
    dict(exercise='ex6', kind='wavelength without 2π (set g)', expect='your wavelengths are 1 / θ_i',
         id='llms.llama3-no-two-pi',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 1.0 / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise='ex6', kind='wavelength without 2π (set h)', expect='your wavelengths are 1 / θ_i',
         id='llms.llama3-no-two-pi',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 1.0 / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise='ex6', kind='slow branch forgotten (set g)', expect='pairs [35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45,',
         id='llms.llama3-slow-pairs',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, blended)
'''),
    dict(exercise='ex6', kind='smooth with λ / L (set g)', expect='your smooth uses λ_i / original_max_len',
         id='llms.llama3-smooth-inverted',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (wavelen / original_max_len - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise='ex6', kind='smooth from λ / L (set h)', expect='your smooth uses λ_i / original_max_len',
         id='llms.llama3-smooth-inverted',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * math.pi / inv_freq
    smooth = (wavelen / original_max_len - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise='ex6', kind='thresholds swapped (set g)', expect='your thresholds are swapped',
         id='llms.llama3-thresholds-swapped',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    high_freq_wavelen = original_max_len / low_freq_factor
    low_freq_wavelen = original_max_len / high_freq_factor
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < high_freq_wavelen, inv_freq,
                    np.where(wavelen > low_freq_wavelen, inv_freq / factor, blended))
'''),
    dict(exercise='ex7', kind='torch.stack of nothing (set h)', expect='your function raised RuntimeError',
         id='llms.paged-gather-empty',
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    return torch.stack([k_pool[my_slot_of(block_table, block_size, t)] for t in range(length)])
'''),
    dict(exercise='ex7', kind='gather assumes a contiguous pool (set g)', expect='you returned k_pool[',
         id='llms.paged-gather-logical',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    return k_pool[:length]
'''),
    dict(exercise='ex7', kind='one key short (set h)', expect='you returned 8 keys',
         id='llms.paged-gather-off-by-one',
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length - 1)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='hard-coded block size (set g)', expect='your function raised IndexError',
         id='llms.paged-gather-out-of-pool',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [int(block_table[p // 16]) * 16 + p % 16 for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='physical order (set h)', expect="you have the right slots in the pool's",
         id='llms.paged-gather-physical-order',
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    blocks = sorted(int(b) for b in block_table)
    slots = [b * block_size + o for b in blocks for o in range(block_size)][:length]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='stacks along dim 1 (set g)', expect='expected shape',
         id='llms.paged-gather-shape',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    return torch.stack([k_pool[my_slot_of(block_table, block_size, p)] for p in range(length)], dim=1)
'''),
    dict(exercise='ex7', kind='torch.gather on one column (set h)', expect='expected shape',
         id='llms.paged-gather-shape',
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = torch.tensor([my_slot_of(block_table, block_size, t) for t in range(length)], dtype=torch.long)
    return torch.gather(k_pool, 0, slots[:, None])
'''),
    dict(exercise='ex7', kind='gather keeps whole blocks (set g)', expect='you returned 12 keys, every slot of the blocks tha',
         id='llms.paged-gather-whole-blocks',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    d = k_pool.shape[-1]
    blocks = k_pool.reshape(-1, block_size, d)
    table = torch.as_tensor(list(block_table), dtype=torch.long)
    return blocks[table].reshape(-1, d)
'''),
    dict(exercise='ex7', kind='whole blocks, not trimmed (set h)', expect='you returned 12 keys, every slot of the blocks tha',
         id='llms.paged-gather-whole-blocks',
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    n_blocks = math.ceil(length / block_size)
    rows = [k_pool[int(b) * block_size:(int(b) + 1) * block_size] for b in block_table[:n_blocks]]
    return torch.cat(rows) if rows else k_pool[:0]
'''),
    dict(exercise='ex7', kind='pool reshaped slot-major (set g)', expect="row 0 is slot 3's key",
         id='llms.paged-gather-wrong-slot',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    d = k_pool.shape[-1]
    blocks = k_pool.reshape(block_size, -1, d)
    table = torch.as_tensor(list(block_table), dtype=torch.long)
    return blocks[:, table].transpose(0, 1).reshape(-1, d)[:length]
'''),
    dict(exercise='ex7', kind='positions 1..length (set g)', expect="row 0 is slot 13's key",
         id='llms.paged-gather-wrong-slot',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(1, length + 1)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='// and % swapped (set g)', expect='your function raised IndexError',
         id='llms.paged-index-error-in-table',
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0 or position >= len(block_table) * block_size:
        raise IndexError(position)
    block = block_table[position % block_size]
    offset = position // block_size
    return int(block) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='ceil for the logical block (set g)', expect='your function raised IndexError',
         id='llms.paged-index-error-in-table',
         code='''def my_slot_of(block_table, block_size, position):
    b = math.ceil(position / block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='ValueError instead of IndexError (set g)', expect="position 12 is past the table's 3 blocks of 4",
         id='llms.paged-no-index-error',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise ValueError(f"no block for position {position}")
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='negative positions wrap (set g)', expect="position -1 comes before the sequence's first posi",
         id='llms.paged-no-index-error',
         code='''def my_slot_of(block_table, block_size, position):
    if position >= len(block_table) * block_size:
        raise IndexError(position)
    return int(block_table[position // block_size]) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='my_slot_of ignores the block table (set g)', expect='you returned the logical position',
         id='llms.paged-slot-logical',
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0 or position >= len(block_table) * block_size:
        raise IndexError(position)
    return (position // block_size) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='table not used (set h)', expect='you returned the logical position',
         id='llms.paged-slot-logical',
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0 or position >= len(block_table) * block_size:
        raise IndexError(f"position {position} is past the table")
    block = position // block_size
    offset = position % block_size
    return block * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    return k_pool[:length].clone()
'''),
    dict(exercise='ex7', kind='forgets × block_size (set g)', expect='you added the offset to the physical block number',
         id='llms.paged-slot-no-block-size',
         code='''def my_slot_of(block_table, block_size, position):
    b = position // block_size
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='block not times block_size (set h)', expect='you added the offset to the physical block number',
         id='llms.paged-slot-no-block-size',
         code='''def my_slot_of(block_table, block_size, position):
    logical = position // block_size
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='returns (block, offset) (set g)', expect='you returned tuple',
         id='llms.paged-slot-not-an-int',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]), off


def my_gather_keys(k_pool, block_table, block_size, length):
    rows = []
    for p in range(length):
        block, off = my_slot_of(block_table, block_size, p)
        rows.append(k_pool[block * block_size + off])
    return torch.stack(rows) if rows else k_pool[:0]
'''),
    dict(exercise='ex7', kind='returns a NumPy integer (set g)', expect='you returned a NumPy int64',
         id='llms.paged-slot-not-an-int',
         code='''def my_slot_of(block_table, block_size, position):
    b, off = np.divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return block_table[b] * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [int(my_slot_of(block_table, block_size, p)) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex6', kind='returns the unscaled frequencies', expect='nothing was scaled',
         id='llms.llama3-frequency-as-wavelength',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    return np.array(inv_freq, dtype=float)
'''),
    dict(exercise='ex6', kind='position interpolation instead', expect='position interpolation',
         id='llms.llama3-every-pair-divided',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    return inv_freq / factor
'''),
    dict(exercise='ex6', kind='returns wavelengths', expect='wavelengths',
         id='llms.llama3-wavelengths-returned',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelength = 2 * math.pi / inv_freq
    smooth = (original_max_len / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    theta = np.where(wavelength < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelength > original_max_len / low_freq_factor, inv_freq / factor, blended))
    return 2 * math.pi / theta
'''),
    dict(exercise='ex6', kind="smooth's denominator reversed", expect='low_freq_factor − high_freq_factor',
         id='llms.llama3-smooth-denominator',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelength = 2 * math.pi / inv_freq
    smooth = (original_max_len / wavelength - low_freq_factor) / (low_freq_factor - high_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelength < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelength > original_max_len / low_freq_factor, inv_freq / factor, blended))
'''),
    dict(exercise='ex6', kind='one frequency per feature', expect='one frequency per pair',
         id='llms.llama3-shape',
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelength = 2 * math.pi / inv_freq
    smooth = (original_max_len / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelength < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelength > original_max_len / low_freq_factor, inv_freq / factor, blended))
    return np.repeat(out, 2)
'''),
    dict(exercise='ex6', kind="defaults of Llama 2's context", expect='defaults',
         id='llms.llama3-defaults',
         code='''def my_llama3_frequencies(inv_freq, factor=4.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=4096):
    wavelength = 2 * math.pi / inv_freq
    smooth = (original_max_len / wavelength - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelength < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelength > original_max_len / low_freq_factor, inv_freq / factor, blended))
'''),
    dict(exercise='ex7', kind='true division', expect='floor division',
         id='llms.paged-true-division',
         code='''def my_slot_of(block_table, block_size, position):
    block, offset = position / block_size, position % block_size
    if not 0 <= block < len(block_table) * 1.0 + 1:
        raise IndexError(position)
    return int(block_table[block]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='the physical block only', expect='add the offset',
         id='llms.paged-slot-block-only',
         code='''def my_slot_of(block_table, block_size, position):
    block, offset = divmod(position, block_size)
    if not 0 <= block < len(block_table):
        raise IndexError(position)
    return int(block_table[block])


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='one block too far', expect='one block too far',
         id='llms.paged-slot-off-by-one',
         code='''def my_slot_of(block_table, block_size, position):
    block, offset = divmod(position, block_size)
    if not 0 <= block < len(block_table):
        raise IndexError(position)
    return (int(block_table[block]) + 1) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='block and offset swapped, guarded', expect='swapped the block and the offset',
         id='llms.paged-slot-offset-swapped',
         code='''def my_slot_of(block_table, block_size, position):
    offset, block = divmod(position, block_size)
    if block >= len(block_table):
        return -1
    if offset >= len(block_table):
        raise IndexError(position)
    return int(block_table[block]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex7', kind='offset from the wrong block size', expect='get the wrong slot',
         id='llms.paged-slot-wrong',
         code='''def my_slot_of(block_table, block_size, position):
    block, offset = divmod(position, block_size)
    if not 0 <= block < len(block_table):
        raise IndexError(position)
    return int(block_table[block]) * block_size + position % 2


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise='ex8', kind='softmax over the queries', expect='over the queries',
         id='llms.combine-axis',
         code='''def my_combine_partials(outs, lses):
    top = lses.max(dim=0).values
    w = torch.softmax(lses, dim=1)
    out = (w[..., None] * outs).sum(dim=0)
    return out, top + torch.log(torch.exp(lses - top).sum(dim=0))
'''),
    dict(exercise='ex8', kind='weights broadcast on the wrong axis (set g)', expect='a last axis of size 1',
         id='llms.combine-broadcast',
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    s = w.sum(0)
    out = (w.unsqueeze(1) * outs).sum(0) / s.unsqueeze(-1)
    return out, m + torch.log(s)
'''),
]
