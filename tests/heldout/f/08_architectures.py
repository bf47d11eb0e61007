"""Held-out wrong-type answers for exercises/08_architectures.ipynb (set f), written from the exercise texts alone."""

WRONG = [
    # ex3: "Return the cross-entropy as one number (a 0-d tensor)"
    dict(exercise="ex3", kind="Python float",
         mistake="returns loss.item(), a Python float, where a 0-d tensor is asked",
         names=["tensor", "0-d"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    picked = logp.gather(-1, targets.unsqueeze(-1))
    return -picked.mean().item()
'''),
    dict(exercise="ex3", kind="(1,) tensor",
         mistake="averages the gathered (B, T, 1) values over the first two axes only, returning a (1,) tensor instead of a 0-d one",
         names=["0-d", "shape", "scalar", "one number"],
         code='''def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    picked = torch.gather(logp, 2, targets[..., None])
    return -picked.mean(dim=(0, 1))
'''),
    # ex4: "returns True ... and False otherwise"
    dict(exercise="ex4", kind="torch bool tensor",
         mistake="returns a 0-d torch bool tensor from (...).any() instead of True or False",
         names=["bool"],
         code='''def leaks(model_fn, ids):
    base = model_fn(ids)
    V = base.shape[-1]
    moved = torch.tensor(False)
    for j in range(1, ids.shape[1]):
        changed = ids.clone()
        changed[0, j] = (ids[0, j] + 1) % V
        out = model_fn(changed)
        moved = moved | ((out[:, :j] - base[:, :j]).abs() > 1e-5).any()
    return moved
'''),
    # ex5: "Return whole numbers (int)"
    dict(exercise="ex5", kind="floats",
         mistake="computes the head width as d_model / n_heads (true division), so both numbers come back as floats where ints are asked",
         names=["int", "float", "whole"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model / n_heads
    kv = 2 * n_layers * n_heads * d_head * T * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
]

VALID = [
    dict(exercise="ex3", kind="sum over the count",
         code='''def next_token_loss(logits, targets):
    logp = logits.log_softmax(dim=-1)
    picked = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -picked.sum() / targets.numel()
'''),
    dict(exercise="ex4", kind="Python bool",
         code='''def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (ids[0, j] + 1) % V
            if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
                return True
    return False
'''),
    dict(exercise="ex5", kind="np.int64",
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = np.int64(2) * n_layers * d_model * T * bytes_per_number
    scores = np.int64(n_heads) * T * T * bytes_per_number
    return kv, scores
'''),
]
