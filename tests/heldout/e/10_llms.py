"""Held-out answers for exercises/10_llms.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 my_gqa
    dict(exercise="ex1", kind="repeat tiles kv heads",
         mistake="uses k.repeat(1, G, 1, 1), which tiles the key/value heads so query head h gets h % H_kv instead of h // G",
         names=["interleave", "h % ", "h // g"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat(1, G, 1, 1)
    v = v.repeat(1, G, 1, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="expand with group axis first",
         mistake="inserts the group axis before the kv-head axis and reshapes, which again gives head h the kv head h % H_kv",
         names=["interleave", "h % ", "h // g"],
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    k = k[:, None].expand(B, G, H_kv, T, d).reshape(B, H_q, T, d)
    v = v[:, None].expand(B, G, H_kv, T, d).reshape(B, H_q, T, d)
    weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
    return weights @ v
'''),
    dict(exercise="ex1", kind="query heads grouped the wrong way",
         mistake="views q as (B, G, H_kv, T, d) instead of (B, H_kv, G, T, d), so the query heads sharing a kv head are strided, not consecutive",
         names=["interleave", "consecutive", "h // g"],
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    qg = q.reshape(B, H_q // H_kv, H_kv, T, d)
    scores = torch.einsum("bgktd,bksd->bgkts", qg, k) / math.sqrt(d)
    out = torch.einsum("bgkts,bksd->bgktd", torch.softmax(scores, dim=-1), v)
    return out.reshape(B, H_q, T, d)
'''),
    dict(exercise="ex1", kind="no scale",
         mistake="forgets to divide the scores by √d",
         names=["√d", "sqrt(d)", "not scaled"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
'''),
    dict(exercise="ex1", kind="divides by d",
         mistake="divides the scores by d instead of √d",
         names=["√d", "sqrt", "square root"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / q.shape[-1]
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="scale by sequence length",
         mistake="takes the scale from q.shape[-2], the sequence length T, instead of the head width d",
         names=["√d", "d_head", "shape[-1]"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = torch.repeat_interleave(k, G, dim=1)
    v = torch.repeat_interleave(v, G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-2])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="softmax over queries",
         mistake="takes the softmax over dim -2, the queries, instead of over the keys",
         names=["dim=-1", "over the keys", "wrong axis"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-2) @ v
'''),
    dict(exercise="ex1", kind="only the first kv head",
         mistake="broadcasts the first key/value head to every query head (multi-query) instead of using kv head h // G",
         names=["h // g", "only the first", "multi-query"],
         code='''def my_gqa(q, k, v):
    k0, v0 = k[:, :1], v[:, :1]
    scores = q @ k0.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v0
'''),
    dict(exercise="ex1", kind="values tiled, keys interleaved",
         mistake="repeat_interleaves the keys but tiles the values with repeat, so scores and values come from different kv heads",
         names=["interleave", "h // g", "values"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat(1, G, 1, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="hard-coded group size",
         mistake="repeats every kv head twice, hard-coding G = 2 instead of H_q // H_kv",
         names=["hard-coded", "g = 2", "h_q // h_kv"],
         code='''def my_gqa(q, k, v):
    k = k.repeat_interleave(2, dim=1)
    v = v.repeat_interleave(2, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="k q transposed scores",
         mistake="computes k qᵀ instead of q kᵀ, so each row of the weights belongs to a key and the softmax runs over queries",
         names=["q kᵀ", "k qᵀ", "transpose"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = k @ q.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="returns numpy",
         mistake="converts the tensors to NumPy, computes there and returns an np.ndarray instead of a torch tensor",
         names=["torch tensor", "np.ndarray", "numpy"],
         code='''def my_gqa(q, k, v):
    q, k, v = q.numpy(), k.numpy(), v.numpy()
    G = q.shape[1] // k.shape[1]
    k = np.repeat(k, G, axis=1)
    v = np.repeat(v, G, axis=1)
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v
'''),
    dict(exercise="ex1", kind="query heads averaged per group",
         mistake="averages the G query heads of a group into one and returns H_kv heads instead of H_q",
         names=["h_q", "every query head", "(b, h_q, t, d)"],
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    q = q.reshape(B, H_kv, H_q // H_kv, T, d).mean(dim=2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="adds a causal mask",
         mistake="masks the future keys although the exercise asks for no mask",
         names=["mask", "causal", "no mask"],
         code='''def my_gqa(q, k, v):
    T = q.shape[-2]
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    scores = scores.masked_fill(future, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
    # ---------------------------------------------------------------- ex2 my_kv_cache_bytes
    dict(exercise="ex2", kind="keys only",
         mistake="counts only the keys, missing the factor 2 for keys and values",
         names=["factor 2", "keys and values", "2 ×"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return int(config["n_layers"] * config["n_kv_heads"] * config["d_head"] * kept * batch * bytes_per_value)
'''),
    dict(exercise="ex2", kind="query heads",
         mistake="counts n_heads (query heads) instead of n_kv_heads, ignoring the GQA sharing",
         names=["n_kv_heads", "query heads", "n_heads"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_token = 2 * config["n_layers"] * config["n_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept * batch)
'''),
    dict(exercise="ex2", kind="d_model per token",
         mistake="stores d_model numbers per layer for K and for V, as if every query head had its own kv head",
         names=["d_model", "n_kv_heads", "d_head"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return int(2 * config["n_layers"] * config["d_model"] * kept * batch * bytes_per_value)
'''),
    dict(exercise="ex2", kind="ignores window",
         mistake="always keeps all T positions, ignoring the sliding window",
         names=["window", "last window", "sliding"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * T * batch)
'''),
    dict(exercise="ex2", kind="window without min",
         mistake="keeps window positions even when the sequence is shorter than the window",
         names=["min(", "shorter than", "fewer than"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else config["window"]
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept * batch)
'''),
    dict(exercise="ex2", kind="max instead of min",
         mistake="keeps max(T, window) positions instead of min(T, window)",
         names=["min(", "max(", "shorter than"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    window = config["window"]
    kept = T if window is None else max(T, window)
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept * batch)
'''),
    dict(exercise="ex2", kind="one layer",
         mistake="forgets to multiply by n_layers",
         names=["n_layers", "layer"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return int(2 * config["n_kv_heads"] * config["d_head"] * bytes_per_value * kept * batch)
'''),
    dict(exercise="ex2", kind="one sequence",
         mistake="forgets to multiply by batch",
         names=["batch", "sequences"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return int(2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value * kept)
'''),
    dict(exercise="ex2", kind="bits",
         mistake="multiplies by 8, counting bits instead of bytes",
         names=["bits", "* 8", "× 8"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    bits = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * kept * batch * bytes_per_value * 8
    return int(bits)
'''),
    dict(exercise="ex2", kind="hard-coded bf16",
         mistake="hard-codes 2 bytes per value, ignoring bytes_per_value",
         names=["bytes_per_value", "hard-coded", "float32"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    values = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * kept * batch
    return int(values * 2)
'''),
    dict(exercise="ex2", kind="returns GiB",
         mistake="converts to GiB and returns a float instead of an int number of bytes",
         names=["gib", "an int", "float"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    n = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * kept * batch * bytes_per_value
    return n / 2**30
'''),
    dict(exercise="ex2", kind="one extra token",
         mistake="counts T + 1 positions, as if the next token's keys were already cached",
         names=["t + 1", "off by one", "one extra"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T + 1 if config["window"] is None else min(T + 1, config["window"])
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept * batch)
'''),
    dict(exercise="ex2", kind="kv heads times d_model",
         mistake="multiplies n_kv_heads by d_model instead of by d_head",
         names=["d_head", "d_model"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_layer = 2 * config["n_kv_heads"] * config["d_model"] * kept
    return int(config["n_layers"] * per_layer * batch * bytes_per_value)
'''),
    dict(exercise="ex2", kind="drops the window",
         mistake="keeps T - window positions, subtracting the window instead of keeping only the last window positions",
         names=["last window", "min(", "window positions"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T
    if config["window"] is not None and T > config["window"]:
        kept = T - config["window"]
    per_token = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_token * kept * batch)
'''),
    # ---------------------------------------------------------------- ex3 my_chunk_causal_mask
    dict(exercise="ex3", kind="top-left triangle",
         mistake="aligns the triangle to the top left (j <= i), forgetting that query i sits at position T_k - T_q + i",
         names=["top-left", "top left", "t_k - t_q"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[:, None]
    j = np.arange(T_k)[None, :]
    return j <= i
'''),
    dict(exercise="ex3", kind="first rows of the full mask",
         mistake="takes the first T_q rows of the T_k x T_k causal mask instead of the last T_q",
         names=["last t_q", "top-left", "top left"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    full = np.tril(np.ones((T_k, T_k), dtype=bool))
    return full[:T_q]
'''),
    dict(exercise="ex3", kind="excludes own position",
         mistake="uses j < position, so a query may not read the key at its own position",
         names=["diagonal", "own position", "itself"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    pos = np.arange(T_q)[:, None] + (T_k - T_q)
    return np.arange(T_k)[None, :] < pos
'''),
    dict(exercise="ex3", kind="offset sign flipped",
         mistake="places query i at position i - (T_k - T_q) instead of i + (T_k - T_q)",
         names=["t_k - t_q", "sign", "last t_q"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    pos = np.arange(T_q)[:, None] - (T_k - T_q)
    return np.arange(T_k)[None, :] <= pos
'''),
    dict(exercise="ex3", kind="offset off by one",
         mistake="puts query i at position T_k - T_q + i + 1, letting every query read one future key",
         names=["off by one", "future key", "t_k - t_q"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k), dtype=bool), k=T_k - T_q + 1)
'''),
    dict(exercise="ex3", kind="offset T_q",
         mistake="shifts the queries by T_q instead of T_k - T_q",
         names=["t_k - t_q", "offset", "last t_q"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    mask = np.zeros((T_q, T_k), dtype=bool)
    for i in range(T_q):
        mask[i, : min(T_k, i + T_q + 1)] = True
    return mask
'''),
    dict(exercise="ex3", kind="float mask",
         mistake="returns np.tril of float ones, 1.0/0.0 instead of a bool array",
         names=["bool", "dtype", "float"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k)), k=T_k - T_q)
'''),
    dict(exercise="ex3", kind="inverted mask",
         mistake="returns True where the key is in the future (the positions to hide) instead of where the query may attend",
         names=["inverted", "true = may attend", "the other way"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[:, None] + T_k - T_q
    j = np.arange(T_k)[None, :]
    return j > i
'''),
    dict(exercise="ex3", kind="transposed shape",
         mistake="builds the mask keys by queries, shape (T_k, T_q)",
         names=["shape", "(t_q, t_k)", "transpose"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    j = np.arange(T_k)[:, None]
    i = np.arange(T_q)[None, :] + (T_k - T_q)
    return j <= i
'''),
    dict(exercise="ex3", kind="torch mask",
         mistake="builds the mask with torch and returns a bool tensor instead of a NumPy array",
         names=["numpy", "np.ndarray", "torch"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    return torch.ones(T_q, T_k, dtype=torch.bool).tril(diagonal=T_k - T_q)
'''),
    dict(exercise="ex3", kind="triu instead of tril",
         mistake="uses np.triu with the right offset, keeping the future keys instead of the past ones",
         names=["triu", "tril", "future"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.triu(np.ones((T_q, T_k), dtype=bool), k=T_k - T_q)
'''),
    dict(exercise="ex3", kind="int mask",
         mistake="casts the comparison to int, returning 0/1 instead of bool",
         names=["bool", "dtype", "int64"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    i = np.arange(T_q)[:, None] + (T_k - T_q)
    j = np.arange(T_k)[None, :]
    return (j <= i).astype(int)
'''),
    # ---------------------------------------------------------------- ex4 my_interpolated_rope_angles
    dict(exercise="ex4", kind="multiplies by factor",
         mistake="multiplies the positions by factor instead of dividing them",
         names=["divide", "/ factor", "multipl"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return (positions * factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="scales the base",
         mistake="multiplies the base by factor (as NTK-aware scaling does) instead of dividing the positions",
         names=["positions / factor", "ntk", "divide the positions"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = (base * factor) ** (-np.arange(0, d, 2) / d)
    return np.outer(positions, theta)
'''),
    dict(exercise="ex4", kind="exponent missing 2",
         mistake="uses θ_i = base^(-i/d) with i = 0 .. d/2 - 1, missing the factor 2 in the exponent",
         names=["2i/d", "factor 2", "−2i/d"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    i = np.arange(d // 2)
    theta = base ** (-i / d)
    return (positions / factor)[:, None] * theta
'''),
    dict(exercise="ex4", kind="exponent sign",
         mistake="uses base^(+2i/d), so the frequencies grow instead of shrink along the pairs",
         names=["sign", "-2i/d", "−2i/d"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (np.arange(0, d, 2) / d)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="transposed",
         mistake="returns the (d/2, T) array, pairs by positions",
         names=["(t, d/2)", "transpose", "rows"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.outer(theta, positions / factor)
'''),
    dict(exercise="ex4", kind="one angle per feature",
         mistake="repeats each pair's angle for both of its features, returning (T, d) instead of (T, d/2)",
         names=["(t, d/2)", "d/2", "per pair"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    theta = np.repeat(theta, 2)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="floor division",
         mistake="divides the positions with //, flooring them to integers",
         names=["//", "floor", "integer"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return (positions // factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="hard-coded base",
         mistake="writes 10000 in the formula, ignoring the base argument",
         names=["base", "hard-coded", "10000"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="pairs counted from 1",
         mistake="counts the pairs from i = 1, so the first column is not m / factor and the exponents are shifted by one",
         names=["i = 0", "off by one", "first pair"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    i = np.arange(1, d // 2 + 1)
    theta = base ** (-2 * i / d)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="factor applied twice",
         mistake="divides both the positions and the frequencies by factor, shrinking the angles by factor²",
         names=["twice", "factor²", "factor ** 2"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d) / factor
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="operator precedence",
         mistake="writes base ** -np.arange(0, d, 2) / d, which divides base^(-2i) by d instead of raising base to -2i/d",
         names=["precedence", "parenthes", "2i/d"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** -np.arange(0, d, 2) / d
    return (positions / factor)[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="returns torch",
         mistake="computes with torch and returns a tensor instead of a NumPy array",
         names=["numpy", "np.ndarray", "torch"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    pos = torch.as_tensor(positions, dtype=torch.float64) / factor
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    return torch.outer(pos, theta)
'''),
    dict(exercise="ex4", kind="divides positions in place",
         mistake="divides the caller's positions array in place with /= (which also fails on an int array)",
         names=["in place", "modifies positions", "overwrit"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    positions /= factor
    theta = base ** (-np.arange(0, d, 2) / d)
    return positions[:, None] * theta[None, :]
'''),
    dict(exercise="ex4", kind="linspace exponent",
         mistake="spaces the exponents with np.linspace(0, 1, d // 2), which reaches 1 at the last pair instead of (d - 2) / d",
         names=["2i/d", "linspace", "(d - 2) / d"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** -np.linspace(0, 1, d // 2)
    return (positions / factor)[:, None] * theta[None, :]
'''),
    # ---------------------------------------------------------------- ex5 my_row_backward
    dict(exercise="ex5", kind="scale missing in dq and dk",
         mistake="recomputes the weights with the scale but leaves the 1/√d factor out of dq and dk",
         names=["√d", "sqrt", "scale"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return ds @ k, np.outer(ds, q), dv
'''),
    dict(exercise="ex5", kind="scale missing in recompute",
         mistake="recomputes the weights as exp(q·k - lse) without the 1/√d, so they do not match the forward pass",
         names=["√d", "recompute", "sum to 1"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="softmax backward without subtraction",
         mistake="takes ds = p * dp, forgetting to subtract p @ dp (the softmax Jacobian's off-diagonal part)",
         names=["p @ dp", "subtract", "jacobian"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    ds = p * (v @ d_out)
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="softmax backward without p factor",
         mistake="takes ds = dp - p @ dp, forgetting to multiply by p",
         names=["p *", "times p", "jacobian"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = dp - p @ dp
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="unweighted sum in softmax backward",
         mistake="subtracts dp.sum() instead of the p-weighted sum p @ dp",
         names=["p @ dp", "weighted", "σ_j p_j"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - dp.sum())
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="dv transposed",
         mistake="returns dv as np.outer(d_out, p), shape (d_v, T) instead of (T, d_v)",
         names=["(t, d_v)", "transpose", "outer"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = np.outer(d_out, p)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * np.outer(ds, q), dv
'''),
    dict(exercise="ex5", kind="dk from k",
         mistake="builds dk from the keys (ds_j k_j) instead of from the query (ds_j q)",
         names=["dk", "q", "query"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * ds[:, None] * k, dv
'''),
    dict(exercise="ex5", kind="lse added",
         mistake="recomputes the weights as exp(s + lse) instead of exp(s - lse)",
         names=["sign", "s - lse", "− lse"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    s = k @ q * scale
    p = np.exp(s + lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="divides by lse",
         mistake="recomputes the weights as exp(s) / lse, treating the log-sum-exp as the sum itself",
         names=["exp(s - lse)", "log-sum-exp", "exp(lse)"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale) / lse
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="sign of the softmax backward",
         mistake="takes ds = p * (p @ dp - dp), flipping the sign of the gradient of the scores",
         names=["sign", "dp - p @ dp", "flipped"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (p @ dp - dp)
    return scale * ds @ k, scale * ds[:, None] * q[None, :], p[:, None] * d_out[None, :]
'''),
    dict(exercise="ex5", kind="scale from T",
         mistake="takes the scale from k.shape[0], the number of keys T, instead of the width d",
         names=["√d", "d_head", "shape[-1]"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(k.shape[0])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="dq from the weights",
         mistake="computes dq as scale * p @ k, the weighted keys, skipping the gradient through the softmax",
         names=["ds", "through the softmax", "dq"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * p @ k, scale * ds[:, None] * q[None, :], dv
'''),
    dict(exercise="ex5", kind="scale squared",
         mistake="scales dq and dk by 1/d instead of 1/√d, applying the scale twice",
         names=["√d", "twice", "sqrt"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    d = q.shape[-1]
    p = np.exp(k @ q / math.sqrt(d) - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return ds @ k / d, ds[:, None] * q[None, :] / d, dv
'''),
    dict(exercise="ex5", kind="returns torch",
         mistake="converts to torch for the arithmetic and returns tensors instead of NumPy arrays",
         names=["numpy", "np.ndarray", "torch"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    q, k, v, d_out = (torch.as_tensor(a) for a in (q, k, v, d_out))
    scale = 1 / math.sqrt(q.shape[-1])
    p = torch.exp(k @ q * scale - lse)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return scale * ds @ k, scale * torch.outer(ds, q), torch.outer(p, d_out)
'''),
    dict(exercise="ex5", kind="gradients in the wrong order",
         mistake="returns (dk, dq, dv) instead of (dq, dk, dv)",
         names=["order", "(dq, dk, dv)", "swapped"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(q.shape[-1])
    p = np.exp(k @ q * scale - lse)
    dv = p[:, None] * d_out[None, :]
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    dq = scale * ds @ k
    dk = scale * ds[:, None] * q[None, :]
    return dk, dq, dv
'''),
]

VALID = [
    # ---------------------------------------------------------------- ex1
    dict(exercise="ex1", kind="expand and reshape", code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    k = k[:, :, None].expand(B, H_kv, G, T, d).reshape(B, H_q, T, d)
    v = v[:, :, None].expand(B, H_kv, G, T, d).reshape(B, H_q, T, d)
    scores = torch.matmul(q, k.mT) * d ** -0.5
    return torch.matmul(scores.softmax(dim=-1), v)
'''),
    dict(exercise="ex1", kind="grouped einsum", code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    qg = q.view(B, H_kv, H_q // H_kv, T, d)
    s = torch.einsum("bkgtd,bksd->bkgts", qg, k) / math.sqrt(d)
    w = torch.softmax(s, dim=-1)
    return torch.einsum("bkgts,bksd->bkgtd", w, v).reshape(B, H_q, T, d)
'''),
    dict(exercise="ex1", kind="loop over query heads", code='''def my_gqa(q, k, v):
    H_q, H_kv = q.shape[1], k.shape[1]
    G = H_q // H_kv
    heads = []
    for h in range(H_q):
        kh, vh = k[:, h // G], v[:, h // G]
        s = q[:, h] @ kh.transpose(-2, -1) / math.sqrt(q.shape[-1])
        s = s - s.amax(dim=-1, keepdim=True)
        e = torch.exp(s)
        heads.append((e / e.sum(dim=-1, keepdim=True)) @ vh)
    return torch.stack(heads, dim=1)
'''),
    dict(exercise="ex1", kind="index_select kv heads", code='''def my_gqa(q, k, v):
    H_q, H_kv = q.shape[1], k.shape[1]
    idx = torch.arange(H_q) // (H_q // H_kv)
    k_all = k.index_select(1, idx)
    v_all = v[:, idx]
    scale = 1.0 / math.sqrt(q.size(-1))
    return torch.softmax(torch.einsum("bhtd,bhsd->bhts", q, k_all) * scale, dim=-1) @ v_all
'''),
    dict(exercise="ex1", kind="loop over kv groups", code='''def my_gqa(q, k, v):
    H_q, H_kv = q.shape[1], k.shape[1]
    G = H_q // H_kv
    out = torch.empty_like(q)
    for g in range(H_kv):
        qs = q[:, g * G:(g + 1) * G]                      # (B, G, T, d)
        ks = k[:, g:g + 1]                                # (B, 1, T, d), broadcasts over G
        w = torch.softmax(qs @ ks.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1)
        out[:, g * G:(g + 1) * G] = w @ v[:, g:g + 1]
    return out
'''),
    # ---------------------------------------------------------------- ex2
    dict(exercise="ex2", kind="keys plus values, per layer loop", code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    window = config["window"]
    positions = T if window is None else (window if T > window else T)
    total = 0
    for _ in range(config["n_layers"]):
        k_bytes = batch * config["n_kv_heads"] * positions * config["d_head"] * bytes_per_value
        v_bytes = batch * config["n_kv_heads"] * positions * config["d_head"] * bytes_per_value
        total += k_bytes + v_bytes
    return total
'''),
    dict(exercise="ex2", kind="math.prod", code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = min(T, config["window"]) if config["window"] is not None else T
    shape = (2, config["n_layers"], batch, config["n_kv_heads"], kept, config["d_head"])
    return int(math.prod(shape) * bytes_per_value)
'''),
    dict(exercise="ex2", kind="tensor shapes of one layer", code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    L = config["n_layers"]
    H_kv, d_head = config["n_kv_heads"], config["d_head"]
    W = config.get("window")
    T_kept = T
    if W is not None:
        T_kept = min(T_kept, W)
    numbers_per_layer = 2 * batch * H_kv * T_kept * d_head  # K and V, each (B, H_kv, T, d_head)
    return int(numbers_per_layer * L * bytes_per_value)
'''),
    dict(exercise="ex2", kind="numpy product cast to int", code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else np.minimum(T, config["window"])
    factors = np.array([2, config["n_layers"], config["n_kv_heads"], config["d_head"],
                        kept, batch, bytes_per_value], dtype=np.int64)
    return int(np.prod(factors))
'''),
    dict(exercise="ex2", kind="bytes per token first", code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    per_layer_per_token = config["n_kv_heads"] * config["d_head"] * bytes_per_value * 2
    per_token = per_layer_per_token * config["n_layers"]
    w = config["window"]
    tokens = batch * (T if w is None or w >= T else w)
    return int(per_token) * int(tokens)
'''),
    # ---------------------------------------------------------------- ex3
    dict(exercise="ex3", kind="tril with offset", code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k), dtype=bool), k=T_k - T_q)
'''),
    dict(exercise="ex3", kind="last rows of the full mask", code='''def my_chunk_causal_mask(T_q, T_k):
    full = np.tril(np.ones((T_k, T_k), dtype=bool))
    return full[T_k - T_q:].copy()
'''),
    dict(exercise="ex3", kind="loops", code='''def my_chunk_causal_mask(T_q, T_k):
    mask = np.zeros((T_q, T_k), dtype=bool)
    for i in range(T_q):
        position = T_k - T_q + i
        for j in range(T_k):
            mask[i, j] = j <= position
    return mask
'''),
    dict(exercise="ex3", kind="np.tri", code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tri(T_q, T_k, T_k - T_q, dtype=bool)
'''),
    dict(exercise="ex3", kind="torch then numpy", code='''def my_chunk_causal_mask(T_q, T_k):
    pos = torch.arange(T_k - T_q, T_k)
    keys = torch.arange(T_k)
    return (keys[None, :] <= pos[:, None]).numpy()
'''),
    dict(exercise="ex3", kind="outer comparison", code='''def my_chunk_causal_mask(T_q, T_k):
    return np.greater_equal.outer(np.arange(T_k - T_q, T_k), np.arange(T_k))
'''),
    # ---------------------------------------------------------------- ex4
    dict(exercise="ex4", kind="frequencies divided by factor", code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))
    inv_freq = inv_freq / factor
    return np.outer(positions.astype(np.float64), inv_freq)
'''),
    dict(exercise="ex4", kind="exp and log", code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    i = np.arange(d // 2)
    theta = np.exp(-2.0 * i / d * np.log(base))
    m = np.asarray(positions, dtype=np.float64) / factor
    return np.einsum("t,i->ti", m, theta)
'''),
    dict(exercise="ex4", kind="loops with math", code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    out = np.empty((len(positions), d // 2))
    for t, m in enumerate(positions):
        for i in range(d // 2):
            out[t, i] = (float(m) / factor) * math.pow(base, -2 * i / d)
    return out
'''),
    dict(exercise="ex4", kind="torch then numpy", code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    m = torch.tensor(np.asarray(positions), dtype=torch.float64) / factor
    theta = torch.pow(torch.tensor(base, dtype=torch.float64), -torch.arange(0, d, 2, dtype=torch.float64) / d)
    return (m[:, None] * theta[None, :]).numpy()
'''),
    dict(exercise="ex4", kind="power of a ratio", code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    ratio = base ** (-2.0 / d)
    theta = ratio ** np.arange(d // 2)
    scaled = np.array(positions, dtype=float) * (1.0 / factor)
    return scaled.reshape(-1, 1) * theta.reshape(1, -1)
'''),
    # ---------------------------------------------------------------- ex5
    dict(exercise="ex5", kind="D = o · d_out", code='''def my_row_backward(q, k, v, lse, d_out):
    scale = q.shape[0] ** -0.5
    s = scale * (k @ q)
    p = np.exp(s - lse)
    o = p @ v
    D = o @ d_out                                  # = sum_j p_j dp_j
    dv = np.outer(p, d_out)
    ds = p * (v @ d_out - D)
    dq = scale * (k.T @ ds)
    dk = scale * np.outer(ds, q)
    return dq, dk, dv
'''),
    dict(exercise="ex5", kind="full softmax Jacobian", code='''def my_row_backward(q, k, v, lse, d_out):
    d = q.shape[-1]
    p = np.exp(k @ q / math.sqrt(d) - lse)
    J = np.diag(p) - np.outer(p, p)                # dp_i / ds_j
    dp = d_out @ v.T
    ds = J.T @ dp
    dq = (ds[:, None] * k).sum(axis=0) / math.sqrt(d)
    dk = ds[:, None] * q[None, :] / math.sqrt(d)
    dv = p[:, None] * d_out
    return dq, dk, dv
'''),
    dict(exercise="ex5", kind="loops over keys", code='''def my_row_backward(q, k, v, lse, d_out):
    T, d = k.shape
    scale = 1.0 / math.sqrt(d)
    p = np.array([math.exp(scale * float(q @ k[j]) - lse) for j in range(T)])
    dp = np.array([float(v[j] @ d_out) for j in range(T)])
    mean_dp = sum(p[j] * dp[j] for j in range(T))
    dq = np.zeros(d)
    dk = np.zeros((T, d))
    dv = np.zeros((T, d_out.shape[0]))
    for j in range(T):
        ds_j = p[j] * (dp[j] - mean_dp)
        dq += scale * ds_j * k[j]
        dk[j] = scale * ds_j * q
        dv[j] = p[j] * d_out
    return dq, dk, dv
'''),
    dict(exercise="ex5", kind="einsum", code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / np.sqrt(q.size)
    p = np.exp(np.einsum("td,d->t", k, q) * scale - lse)
    dv = np.einsum("t,e->te", p, d_out)
    dp = np.einsum("te,e->t", v, d_out)
    ds = p * dp - p * np.dot(p, dp)
    dq = np.einsum("t,td->d", ds, k) * scale
    dk = np.einsum("t,d->td", ds, q) * scale
    return dq, dk, dv
'''),
    dict(exercise="ex5", kind="scale folded into q", code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / math.sqrt(len(q))
    q_scaled = q * scale
    p = np.exp(k @ q_scaled - lse)
    dp = v @ d_out
    ds = p * (dp - np.sum(p * dp))
    dk = np.outer(ds, q_scaled)                    # d(k q_scaled)/dk = q_scaled
    dq = scale * (ds @ k)
    return dq, dk, np.outer(p, d_out)
'''),
]
