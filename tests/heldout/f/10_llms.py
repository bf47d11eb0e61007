"""Held-out answers for exercises/10_llms.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ------------------------------------------------------------------ ex1 my_gqa
    dict(exercise="ex1", kind="kv heads tiled with cat",
         mistake="builds the shared heads with torch.cat([k] * G, dim=1), which tiles the kv heads (0, 1, 0, 1, ...) so query head h reads kv head h % H_kv instead of h // G",
         names=["h % ", "h // g", "tile", "interleave", "repeat_interleave", "consecutive"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k_all = torch.cat([k] * G, dim=1)
    v_all = torch.cat([v] * G, dim=1)
    scores = q @ k_all.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v_all
'''),
    dict(exercise="ex1", kind="index by h // H_kv",
         mistake="gives query head h the kv head h // H_kv (dividing by the number of kv heads) instead of h // G, the group size",
         names=["h // g", "group size", "which kv head", "kv head"],
         code='''def my_gqa(q, k, v):
    H_q, H_kv = q.shape[1], k.shape[1]
    idx = torch.arange(H_q) // H_kv
    k_all = k[:, idx]
    v_all = v[:, idx]
    scores = q @ k_all.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v_all
'''),
    dict(exercise="ex1", kind="scale by sqrt of T",
         mistake="takes the head width from the wrong axis (q.shape[2], the positions T), so the scores are divided by √T instead of √d",
         names=["√d", "sqrt(d)", "scale", "square root"],
         code='''def my_gqa(q, k, v):
    B, H_q, d, T = q.shape
    G = H_q // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d)
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="softmax over queries",
         mistake="takes the softmax along dim=-2 (over the queries) instead of over the keys",
         names=["softmax", "over the keys", "dim=-1", "last axis", "sum to 1"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-2) @ v
'''),
    dict(exercise="ex1", kind="causal mask added",
         mistake="adds a causal mask out of habit although the exercise says no mask",
         names=["mask", "causal", "future"],
         code='''def my_gqa(q, k, v):
    T = q.shape[-2]
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    scores = scores.masked_fill(~causal, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="returns (out, weights)",
         mistake="returns the tuple (output, weights) like helpers.attention instead of the output tensor alone",
         names=["tuple", "torch tensor", "one tensor", "weights"],
         code='''def my_gqa(q, k, v):
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1)
    return weights @ v, weights
'''),
    dict(exercise="ex1", kind="numpy output",
         mistake="computes it in NumPy and returns a NumPy array where a torch tensor is asked",
         names=["torch", "tensor", "numpy", "ndarray"],
         code='''def my_gqa(q, k, v):
    qn, kn, vn = q.numpy(), k.numpy(), v.numpy()
    G = qn.shape[1] // kn.shape[1]
    kn = np.repeat(kn, G, axis=1)
    vn = np.repeat(vn, G, axis=1)
    s = qn @ kn.swapaxes(-1, -2) / math.sqrt(qn.shape[-1])
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    return p @ vn
'''),
    # --------------------------------------------------------- ex2 my_kv_cache_bytes
    dict(exercise="ex2", kind="keys only",
         mistake="counts only the keys: forgets the factor 2 for keys AND values",
         names=["keys and values", "factor 2", "factor of 2", "twice", "2 ·", "2 *"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_position = config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return int(per_position * kept * batch)
'''),
    dict(exercise="ex2", kind="query heads",
         mistake="counts every query head (n_heads) instead of the key/value heads (n_kv_heads)",
         names=["n_kv_heads", "key/value heads", "query heads", "kv heads"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    per_position = 2 * config["n_layers"] * config["n_heads"] * config["d_head"] * bytes_per_value
    return per_position * kept * batch
'''),
    dict(exercise="ex2", kind="d_model width",
         mistake="takes d_model as the width of a key, as if every query head had its own key/value head (ignores n_kv_heads)",
         names=["d_model", "n_kv_heads", "key/value heads", "kv heads"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return 2 * config["n_layers"] * config["d_model"] * bytes_per_value * kept * batch
'''),
    dict(exercise="ex2", kind="window ignored",
         mistake="ignores the sliding window and always keeps all T positions",
         names=["window"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    per_position = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return per_position * T * batch
'''),
    dict(exercise="ex2", kind="window always",
         mistake="keeps `window` positions whenever there is a window, even when the sequence is shorter than the window (no min with T)",
         names=["window", "min", "shorter", "at most"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = config["window"] if config["window"] is not None else T
    per_position = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return per_position * kept * batch
'''),
    dict(exercise="ex2", kind="batch forgotten",
         mistake="returns the bytes of one sequence: forgets to multiply by batch",
         names=["batch", "sequences"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config["window"] is None else min(T, config["window"])
    return 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value * kept
'''),
    dict(exercise="ex2", kind="float from d_model / n_heads",
         mistake="computes the head width as d_model / n_heads with true division, so the result is a float where an int is asked",
         names=["int", "float"],
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    d_head = config["d_model"] / config["n_heads"]
    kept = T if config["window"] is None else min(T, config["window"])
    return 2 * config["n_layers"] * config["n_kv_heads"] * d_head * bytes_per_value * kept * batch
'''),
    # ------------------------------------------------------ ex3 my_chunk_causal_mask
    dict(exercise="ex3", kind="top-left triangle",
         mistake="uses the ordinary top-left causal triangle (np.tril of a (T_q, T_k) array), so query i reads keys 0..i instead of 0..T_k-T_q+i",
         names=["top left", "top-left", "lower right", "lower-right", "is_causal", "offset", "t_k - t_q"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k), dtype=bool))
'''),
    dict(exercise="ex3", kind="strict comparison",
         mistake="compares with < instead of <=, so a query may not read its own position",
         names=["itself", "own position", "diagonal", "<="],
         code='''def my_chunk_causal_mask(T_q, T_k):
    pos = np.arange(T_q)[:, None] + (T_k - T_q)
    return np.arange(T_k)[None, :] < pos
'''),
    dict(exercise="ex3", kind="offset off by one",
         mistake="places query i at T_k - T_q + i - 1, one position too early",
         names=["off by one", "one position", "t_k - t_q + i", "offset"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    pos = T_k - T_q - 1 + np.arange(T_q)
    return np.arange(T_k)[None, :] <= pos[:, None]
'''),
    dict(exercise="ex3", kind="tril offset with the wrong sign",
         mistake="shifts the triangle with k = T_q - T_k (negative) instead of T_k - T_q, moving it down instead of right",
         names=["sign", "offset", "lower right", "lower-right", "t_k - t_q"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k), dtype=bool), k=T_q - T_k)
'''),
    dict(exercise="ex3", kind="True means blocked",
         mistake="returns the blocked positions (key after the query) instead of the allowed ones: True = may attend inverted",
         names=["true = may attend", "inverted", "blocked", "the other way"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    pos = np.arange(T_q)[:, None] + T_k - T_q
    return np.arange(T_k)[None, :] > pos
'''),
    dict(exercise="ex3", kind="int mask",
         mistake="returns a 0/1 integer array instead of a bool mask",
         names=["bool", "dtype"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    pos = np.arange(T_q)[:, None] + T_k - T_q
    return (np.arange(T_k)[None, :] <= pos).astype(int)
'''),
    dict(exercise="ex3", kind="torch mask",
         mistake="returns a torch bool tensor where a NumPy bool array is asked",
         names=["numpy", "torch", "ndarray"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    return torch.ones(T_q, T_k, dtype=torch.bool).tril(diagonal=T_k - T_q)
'''),
    dict(exercise="ex3", kind="transposed",
         mistake="builds the mask with keys down the rows, shape (T_k, T_q)",
         names=["shape", "(t_q, t_k)", "transpos", "rows"],
         code='''def my_chunk_causal_mask(T_q, T_k):
    pos = np.arange(T_q)[None, :] + T_k - T_q
    return np.arange(T_k)[:, None] <= pos
'''),
    # ------------------------------------------------- ex4 my_interpolated_rope_angles
    dict(exercise="ex4", kind="multiplies by factor",
         mistake="multiplies the positions by factor instead of dividing them",
         names=["factor", "divid", "multipl"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    inv_freq = base ** (-np.arange(0, d, 2) / d)
    return np.outer(positions * factor, inv_freq)
'''),
    dict(exercise="ex4", kind="no interpolation",
         mistake="returns the plain RoPE angles: forgets to divide the positions by factor",
         names=["factor", "interpolat", "divid"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)
    return np.asarray(positions, dtype=float)[:, None] * inv_freq[None, :]
'''),
    dict(exercise="ex4", kind="exponent -i/d",
         mistake="uses the exponent -i/d (np.arange(d // 2) / d) instead of -2i/d",
         names=["2i", "exponent", "frequenc"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    i = np.arange(d // 2)
    theta = base ** (-i / d)
    return np.outer(positions / factor, theta)
'''),
    dict(exercise="ex4", kind="positive exponent",
         mistake="drops the minus sign of the exponent: base^(+2i/d), frequencies that grow",
         names=["sign", "exponent", "negative", "frequenc"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (np.arange(0, d, 2) / d)
    return np.outer(positions / factor, theta)
'''),
    dict(exercise="ex4", kind="integer division",
         mistake="divides the positions with // (floor division), so neighbouring positions get the same angle",
         names=["integer division", "floor", "//", "true division", "float"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.outer(positions // factor, theta)
'''),
    dict(exercise="ex4", kind="transposed",
         mistake="returns the (d/2, T) table: pairs down the rows and positions across",
         names=["shape", "(t, d/2)", "transpos", "rows"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    return np.outer(theta, positions / factor)
'''),
    dict(exercise="ex4", kind="one angle per feature",
         mistake="repeats every pair's angle for both of its features, returning (T, d) instead of (T, d/2)",
         names=["shape", "d/2", "pair", "(t, d/2)"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    theta = base ** (-np.arange(0, d, 2) / d)
    angles = np.outer(positions / factor, theta)
    return np.repeat(angles, 2, axis=1)
'''),
    dict(exercise="ex4", kind="torch tensor",
         mistake="computes the angles with torch and returns a torch tensor where a NumPy array is asked",
         names=["numpy", "torch", "ndarray"],
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    pos = torch.as_tensor(positions, dtype=torch.float64) / factor
    inv_freq = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    return torch.outer(pos, inv_freq)
'''),
    # ------------------------------------------------------------- ex5 my_row_backward
    dict(exercise="ex5", kind="weights unscaled",
         mistake="recomputes the weights from the unscaled scores q·k_j (forgets /√d before subtracting lse)",
         names=["√d", "sqrt", "scale", "sum to 1"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    d = q.shape[0]
    s = k @ q
    p = np.exp(s - lse)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    dq = ds @ k / np.sqrt(d)
    dk = np.outer(ds, q) / np.sqrt(d)
    return dq, dk, dv
'''),
    dict(exercise="ex5", kind="gradients unscaled",
         mistake="forgets the 1/√d of the scores in dq and dk",
         names=["√d", "sqrt", "scale"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    s = k @ q / np.sqrt(q.shape[0])
    p = np.exp(s - lse)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - np.sum(p * dp))
    dq = ds @ k
    dk = np.outer(ds, q)
    return dq, dk, dv
'''),
    dict(exercise="ex5", kind="softmax backward one term",
         mistake="takes the softmax's backward as ds = p * dp, without subtracting the p-weighted mean of dp",
         names=["two terms", "subtract", "mean", "sum to 1", "d_i", "jacobian"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / np.sqrt(q.shape[0])
    p = np.exp(k @ q * scale - lse)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * dp
    return ds @ k * scale, np.outer(ds, q) * scale, dv
'''),
    dict(exercise="ex5", kind="unweighted mean of dp",
         mistake="subtracts the plain mean of dp instead of its p-weighted mean Σ p_j dp_j",
         names=["weighted", "p-weighted", "mean", "d_i"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / np.sqrt(q.shape[0])
    p = np.exp(k @ q * scale - lse)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - dp.mean())
    return ds @ k * scale, np.outer(ds, q) * scale, dv
'''),
    dict(exercise="ex5", kind="lse sign",
         mistake="recomputes the weights as exp(lse - s) instead of exp(s - lse)",
         names=["sign", "lse", "exp(s", "sum to 1"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / np.sqrt(q.shape[0])
    p = np.exp(lse - k @ q * scale)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return ds @ k * scale, np.outer(ds, q) * scale, dv
'''),
    dict(exercise="ex5", kind="dk transposed",
         mistake="writes dk as np.outer(q, ds), the (d, T) transpose of the (T, d) gradient",
         names=["shape", "(t, d)", "transpos"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / np.sqrt(q.shape[0])
    p = np.exp(k @ q * scale - lse)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return ds @ k * scale, np.outer(q, ds) * scale, dv
'''),
    dict(exercise="ex5", kind="dq not summed over keys",
         mistake="returns dq as the (T, d) per-key terms ds_j k_j / √d, without summing them over the keys",
         names=["sum over the keys", "shape", "(d,)", "sum"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1 / np.sqrt(q.shape[0])
    p = np.exp(k @ q * scale - lse)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    dq = ds[:, None] * k * scale
    dk = ds[:, None] * q[None, :] * scale
    return dq, dk, dv
'''),
    dict(exercise="ex5", kind="returns torch tensors",
         mistake="does the arithmetic in torch and returns torch tensors where NumPy arrays are asked",
         names=["numpy", "torch", "ndarray"],
         code='''def my_row_backward(q, k, v, lse, d_out):
    q, k, v, d_out = (torch.as_tensor(a) for a in (q, k, v, d_out))
    scale = 1 / math.sqrt(q.shape[0])
    p = torch.exp(k @ q * scale - lse)
    dv = torch.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - p @ dp)
    return ds @ k * scale, torch.outer(ds, q) * scale, dv
'''),
]

VALID = [
    # ex1
    dict(exercise="ex1", kind="repeat_interleave",
         code='''def my_gqa(q, k, v):
    """q (B, H_q, T, d), k and v (B, H_kv, T, d) -> (B, H_q, T, d)."""
    G = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(G, dim=1)
    v = v.repeat_interleave(G, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-1) @ v
'''),
    dict(exercise="ex1", kind="queries grouped, broadcast",
         code='''def my_gqa(q, k, v):
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    qg = q.reshape(B, H_kv, G, T, d)
    scores = qg @ k.unsqueeze(2).transpose(-2, -1) / d ** 0.5
    out = torch.softmax(scores, dim=-1) @ v.unsqueeze(2)
    return out.reshape(B, H_q, T, d)
'''),
    dict(exercise="ex1", kind="index_select per head",
         code='''def my_gqa(q, k, v):
    H_q, H_kv = q.shape[1], k.shape[1]
    idx = torch.arange(H_q) // (H_q // H_kv)
    ks, vs = k.index_select(1, idx), v.index_select(1, idx)
    s = torch.einsum("bhtd,bhsd->bhts", q, ks) / math.sqrt(q.shape[-1])
    return torch.einsum("bhts,bhsd->bhtd", s.softmax(-1), vs)
'''),
    # ex2
    dict(exercise="ex2", kind="direct",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    window = config["window"]
    kept = T if window is None else min(T, window)
    per_position = 2 * config["n_layers"] * config["n_kv_heads"] * config["d_head"] * bytes_per_value
    return per_position * kept * batch
'''),
    dict(exercise="ex2", kind="sum over layers",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = min(T, config["window"] or T)
    total = 0
    for _ in range(config["n_layers"]):
        keys = config["n_kv_heads"] * config["d_head"] * kept * batch
        values = keys
        total += (keys + values) * bytes_per_value
    return int(total)
'''),
    dict(exercise="ex2", kind="math.prod",
         code='''def my_kv_cache_bytes(config, T, batch, bytes_per_value):
    kept = T if config.get("window") is None else min(T, config["window"])
    return math.prod([2, config["n_layers"], config["n_kv_heads"], config["d_head"],
                      bytes_per_value, kept, batch])
'''),
    # ex3
    dict(exercise="ex3", kind="broadcast comparison",
         code='''def my_chunk_causal_mask(T_q, T_k):
    query_pos = np.arange(T_q)[:, None] + (T_k - T_q)
    key_pos = np.arange(T_k)[None, :]
    return key_pos <= query_pos
'''),
    dict(exercise="ex3", kind="tril with offset",
         code='''def my_chunk_causal_mask(T_q, T_k):
    return np.tril(np.ones((T_q, T_k), dtype=bool), k=T_k - T_q)
'''),
    dict(exercise="ex3", kind="loop",
         code='''def my_chunk_causal_mask(T_q, T_k):
    mask = np.zeros((T_q, T_k), dtype=bool)
    for i in range(T_q):
        mask[i, : T_k - T_q + i + 1] = True
    return mask
'''),
    # ex4
    dict(exercise="ex4", kind="outer",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    inv_freq = base ** (-np.arange(0, d, 2) / d)
    return np.outer(np.asarray(positions) / factor, inv_freq)
'''),
    dict(exercise="ex4", kind="exp log broadcast",
         code='''def my_interpolated_rope_angles(positions, d, factor, base=10000.0):
    i = np.arange(d // 2)
    theta = np.exp(-2 * i / d * np.log(base))
    pos = np.asarray(positions, dtype=np.float64) / factor
    return pos[:, None] * theta[None, :]
'''),
    # ex5
    dict(exercise="ex5", kind="step by step",
         code='''def my_row_backward(q, k, v, lse, d_out):
    d = q.shape[0]
    s = k @ q / np.sqrt(d)
    p = np.exp(s - lse)
    dv = np.outer(p, d_out)
    dp = v @ d_out
    ds = p * (dp - np.dot(p, dp))
    dq = ds @ k / np.sqrt(d)
    dk = np.outer(ds, q) / np.sqrt(d)
    return dq, dk, dv
'''),
    dict(exercise="ex5", kind="D from the output",
         code='''def my_row_backward(q, k, v, lse, d_out):
    scale = 1.0 / math.sqrt(len(q))
    p = np.exp(scale * (k @ q) - lse)
    o = p @ v
    D = float(d_out @ o)
    ds = p * (v @ d_out - D)
    return scale * (k.T @ ds), scale * ds[:, None] * q[None, :], p[:, None] * d_out[None, :]
'''),
    dict(exercise="ex5", kind="einsum",
         code='''def my_row_backward(q, k, v, lse, d_out):
    c = q.shape[-1] ** -0.5
    p = np.exp(np.einsum("td,d->t", k, q) * c - lse)
    dp = np.einsum("te,e->t", v, d_out)
    ds = p * (dp - np.einsum("t,t->", p, dp))
    dq = c * np.einsum("t,td->d", ds, k)
    dk = c * np.einsum("t,d->td", ds, q)
    dv = np.einsum("t,e->te", p, d_out)
    return dq, dk, dv
'''),
]
