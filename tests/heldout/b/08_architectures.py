"""Held-out answers for exercises/08_architectures.ipynb, written from the exercise texts alone."""

WRONG = [
    # ---------------------------------------------------------------- ex1 cross_attention
    dict(exercise="ex1", kind="roles swapped", mistake="takes the queries from the encoder memory and the keys and values from the decoder",
         names=["queries come from the decoder", "q from memory", "the other way round", "roles"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(memory @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="k from decoder", mistake="takes the keys from the decoder states instead of the encoder memory",
         names=["keys come from", "k from x_dec", "keys from the decoder", "keys from memory"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, x_dec @ W_k, memory @ W_v)
'''),
    dict(exercise="ex1", kind="v from decoder", mistake="takes the values from the decoder states instead of the encoder memory",
         names=["values come from", "v from x_dec", "values from the decoder", "values from memory"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q = x_dec @ W_q
    k = memory @ W_k
    v = x_dec @ W_v
    return attention(q, k, v)
'''),
    dict(exercise="ex1", kind="causal mask added", mistake="adds a lower-triangular mask, although the whole source is known and cross-attention needs no mask",
         names=["no mask", "whole source", "causal mask", "every encoder position"],
         code='''import numpy as np


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    mask = np.tril(np.ones((len(x_dec), len(memory)), dtype=bool))
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v, mask)
'''),
    dict(exercise="ex1", kind="self-attention", mistake="attends from the decoder to itself and never reads the memory",
         names=["never reads the memory", "self-attention", "ignores memory", "reads the encoder"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, x_dec @ W_k, x_dec @ W_v)
'''),
    dict(exercise="ex1", kind="decoder and memory concatenated", mistake="stacks the decoder states and the memory into one key/value sequence instead of using the memory alone",
         names=["memory alone", "(t_dec, t_enc)", "concatenat", "only the source", "keys and values describe the source"],
         code='''import numpy as np


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    both = np.concatenate([x_dec, memory], axis=0)
    return attention(x_dec @ W_q, both @ W_k, both @ W_v)
'''),
    dict(exercise="ex1", kind="output only", mistake="returns only the output instead of the tuple (out, weights)",
         names=["(out, weights)", "return the weights", "weights too", "only out"],
         code='''def cross_attention(x_dec, memory, W_q, W_k, W_v):
    out, weights = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
    return out
'''),
    # ---------------------------------------------------------------- ex2 next_token_pairs
    dict(exercise="ex2", kind="inputs and targets swapped", mistake="takes the inputs from window[:, 1:] and the targets from window[:, :-1]",
         names=["inputs and targets swapped", "the token that follows", "window[:, 1:]", "the other way round"],
         code='''def next_token_pairs(window):
    return window[:, 1:], window[:, :-1]
'''),
    dict(exercise="ex2", kind="no shift", mistake="uses the same T tokens for inputs and targets, so each position is asked to predict itself",
         names=["shift", "offset by one", "predict itself", "same tokens"],
         code='''def next_token_pairs(window):
    inputs = window[:, :-1]
    return inputs, inputs.clone()
'''),
    dict(exercise="ex2", kind="batch axis sliced", mistake="slices the batch axis (axis 0) instead of the position axis",
         names=["axis 1", "position axis", "batch axis", "axis 0"],
         code='''def next_token_pairs(window):
    return window[:-1], window[1:]
'''),
    dict(exercise="ex2", kind="wrap-around roll", mistake="builds the targets with roll on the cut inputs, so the last target wraps around to the first token instead of being window[:, T]",
         names=["last token", "wrap", "roll", "window[:, t + 1]", "last position"],
         code='''import torch


def next_token_pairs(window):
    inputs = window[:, :-1]
    targets = torch.roll(inputs, shifts=-1, dims=1)
    return inputs, targets
'''),
    dict(exercise="ex2", kind="cast to float", mistake="converts the token ids to floats, though ids and targets must stay long integers",
         names=["long", "dtype", "integer", "float"],
         code='''def next_token_pairs(window):
    w = window.float()
    return w[:, :-1], w[:, 1:]
'''),
    # ---------------------------------------------------------------- ex3 next_token_loss
    dict(exercise="ex3", kind="log of softmax", mistake="takes torch.log of torch.softmax, which underflows to log(0) = -inf for large logits, instead of log_softmax",
         names=["log_softmax", "underflow", "log(0)", "torch.log"],
         code='''import torch


def next_token_loss(logits, targets):
    p = torch.softmax(logits, dim=-1)
    picked = p.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return -torch.log(picked).mean()
'''),
    dict(exercise="ex3", kind="softmax over positions", mistake="takes log_softmax over the position axis (dim=1) instead of the vocabulary",
         names=["vocabulary axis", "dim=-1", "dim=1", "over the positions", "wrong axis"],
         code='''import torch


def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=1)
    return -logp.gather(2, targets.unsqueeze(2)).mean()
'''),
    dict(exercise="ex3", kind="sum not mean", mistake="sums the negative log-probabilities instead of averaging them over the B·T positions",
         names=["mean instead", "average", "sum instead", "b·t", "b*t"],
         code='''import torch


def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets[..., None]).sum()
'''),
    dict(exercise="ex3", kind="sign dropped", mistake="forgets the minus sign and returns the mean log-probability",
         names=["minus sign", "sign of", "negative", "−log", "-log"],
         code='''import torch


def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return logp.gather(-1, targets.unsqueeze(-1)).mean()
'''),
    dict(exercise="ex3", kind="fancy index broadcast", mistake="indexes logp[:, :, targets], which picks every target at every position instead of each position's own target",
         names=["own target", "gather", "each position's", "logp[:, :, targets]"],
         code='''import torch


def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp[:, :, targets].mean()
'''),
    dict(exercise="ex3", kind="F.cross_entropy", mistake="calls F.cross_entropy instead of writing the loss by hand",
         names=["by hand", "f.cross_entropy", "yourself", "write it"],
         code='''import torch.nn.functional as F


def next_token_loss(logits, targets):
    V = logits.shape[-1]
    return F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))
'''),
    dict(exercise="ex3", kind="no mean", mistake="returns the (B, T) tensor of per-position losses instead of their mean as one number",
         names=["one number", "0-d", "scalar", "(b, t)", "per-position"],
         code='''import torch


def next_token_loss(logits, targets):
    logp = torch.log_softmax(logits, dim=-1)
    return -logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
'''),
    # ---------------------------------------------------------------- ex4 leaks
    dict(exercise="ex4", kind="no clone", mistake="changes token j of ids itself instead of a clone, so the changes pile up and the caller's ids are modified",
         names=["clone", "copy", "in place", "in-place", "modif"],
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            ids[0, j] = (ids[0, j] + 1) % V
            if not torch.allclose(model_fn(ids)[:, :j], base[:, :j]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="compares all positions", mistake="compares the logits at every position, including j and later, which may legitimately move",
         names=["allowed to move", "every position", "all positions", "only the positions"],
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (changed[0, j] + 1) % V
            if not torch.allclose(model_fn(changed), base):
                return True
    return False
'''),
    dict(exercise="ex4", kind="includes position j", mistake="compares positions 0..j instead of 0..j-1, so position j, which may read token j, counts as a leak",
         names=["off by one", "off-by-one", "position j", ":j + 1", "including j"],
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (changed[0, j] + 1) % V
            if not torch.allclose(model_fn(changed)[:, :j + 1], base[:, :j + 1]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="set to token 0", mistake="sets token j to 0 instead of changing it, so a token that already is 0 is never changed",
         names=["already", "unchanged", "same token", "set to 0", "token 0"],
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = 0
            if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="no modulo", mistake="adds 1 to the token without % V, which gives an id outside the vocabulary when the token is V - 1",
         names=["% v", "modulo", "vocabulary", "out of range", "v - 1"],
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] += 1
            if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="next token only", mistake="only checks whether position j - 1 moved, so a position that peeks several tokens ahead is missed",
         names=["j - 1", "only the previous", "four tokens ahead", "any position before"],
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        for j in range(1, ids.shape[1]):
            changed = ids.clone()
            changed[0, j] = (changed[0, j] + 1) % V
            if not torch.allclose(model_fn(changed)[:, j - 1], base[:, j - 1]):
                return True
    return False
'''),
    dict(exercise="ex4", kind="first token changed", mistake="loops over j from 0 and changes token j but compares only positions after it, testing the past instead of the future",
         names=["after j", "later positions", "the past", "j + 1:"],
         code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)
        V = base.shape[-1]
        T = ids.shape[1]
        for j in range(T - 1):
            changed = ids.clone()
            changed[0, j] = (changed[0, j] + 1) % V
            if not torch.allclose(model_fn(changed)[:, j + 1:], base[:, j + 1:]):
                return True
    return False
'''),
    # ---------------------------------------------------------------- ex5 context_memory
    dict(exercise="ex5", kind="keys only", mistake="counts only the keys in the cache and forgets the values",
         names=["key and a value", "2 ×", "factor 2", "k and v", "forgot the values"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="one layer's cache", mistake="counts the KV cache of one layer instead of the whole model",
         names=["whole model", "every layer's cache", "all layers", "times n_layers"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="cache times heads", mistake="multiplies the cache by n_heads as if each head kept d_model numbers, though the heads share the d_model width",
         names=["d_head", "all heads together", "d_model numbers", "shared width"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * n_heads * T * d_model * bytes_per_number
    scores = n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="scores of every layer", mistake="multiplies the score matrices by n_layers, though dense attention frees them layer by layer",
         names=["one layer", "layer by layer", "freed", "not every layer"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_layers * n_heads * T * T * bytes_per_number
    return kv, scores
'''),
    dict(exercise="ex5", kind="one head's scores", mistake="counts one T × T matrix instead of one per head",
         names=["(h, t, t)", "every head", "times n_heads", "one matrix per head"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    return 2 * n_layers * T * d_model * bytes_per_number, T * T * bytes_per_number
'''),
    dict(exercise="ex5", kind="MiB floats", mistake="converts the byte counts to MiB floats instead of returning whole numbers of bytes",
         names=["bytes", "whole numbers", "mib", "2**20", "an int"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number / 2**20
    scores = n_heads * T * T * bytes_per_number / 2**20
    return kv, scores
'''),
    dict(exercise="ex5", kind="scores sized by d_model", mistake="sizes the score matrices as T × d_model instead of T × T per head",
         names=["t × t", "t * t", "quadratic", "t x t"],
         code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    kv = 2 * n_layers * T * d_model * bytes_per_number
    scores = n_heads * T * (d_model // n_heads) * bytes_per_number
    return kv, scores
'''),
]

VALID = [
    dict(exercise="ex1", kind="softmax by hand", code='''import numpy as np


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = q @ k.T / np.sqrt(q.shape[-1])                  # (T_dec, T_enc), no mask
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ v, weights
'''),
    dict(exercise="ex1", kind="keyword arguments", code='''import math


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    k = memory @ W_k
    v = memory @ W_v
    out, weights = attention(q=x_dec @ W_q, k=k, v=v, mask=None, scale=1 / math.sqrt(W_k.shape[1]))
    return out, weights
'''),
    dict(exercise="ex2", kind="narrow", code='''def next_token_pairs(window):
    T = window.shape[1] - 1
    return window.narrow(1, 0, T), window.narrow(1, 1, T)
'''),
    dict(exercise="ex2", kind="roll then cut", code='''import torch


def next_token_pairs(window):
    shifted = torch.roll(window, shifts=-1, dims=1)    # shifted[:, t] = window[:, t + 1]
    return window[:, :-1].clone(), shifted[:, :-1].clone()
'''),
    dict(exercise="ex3", kind="flatten and gather", code='''import torch


def next_token_loss(logits, targets):
    V = logits.shape[-1]
    logp = torch.log_softmax(logits.reshape(-1, V), dim=-1)        # (B*T, V)
    picked = logp.gather(1, targets.reshape(-1, 1))                 # (B*T, 1)
    return -picked.mean()
'''),
    dict(exercise="ex3", kind="arange indexing", code='''import torch


def next_token_loss(logits, targets):
    B, T, V = logits.shape
    logp = torch.log_softmax(logits, dim=2)
    b = torch.arange(B)[:, None].expand(B, T)
    t = torch.arange(T)[None, :].expand(B, T)
    return -(logp[b, t, targets].sum() / (B * T))
'''),
    dict(exercise="ex4", kind="max difference per position", code='''import torch


def leaks(model_fn, ids):
    with torch.no_grad():
        base = model_fn(ids)                              # (1, T, V)
        V, T = base.shape[-1], ids.shape[1]
        for j in range(T - 1, 0, -1):
            changed = ids.clone()
            changed[0, j] = (ids[0, j] + 1) % V
            moved = (model_fn(changed) - base).abs().amax(dim=-1)[0]   # (T,)
            if bool((moved[:j] > 1e-6).any()):
                return True
    return False
'''),
    dict(exercise="ex4", kind="any over a generator", code='''import torch


def leaks(model_fn, ids):
    base = model_fn(ids).detach()
    V = base.shape[-1]

    def earlier_moved(j):
        other = ids.clone()
        other[0, j] = (other[0, j] + 1) % V
        return not torch.allclose(model_fn(other).detach()[:, :j], base[:, :j])

    return any(earlier_moved(j) for j in range(1, ids.shape[1]))
'''),
    dict(exercise="ex5", kind="per layer loop", code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    d_head = d_model // n_heads
    kv_cache_bytes = 0
    for _layer in range(n_layers):
        for _head in range(n_heads):
            kv_cache_bytes += T * d_head * bytes_per_number      # keys of this head
            kv_cache_bytes += T * d_head * bytes_per_number      # values of this head
    score_bytes = n_heads * T * T * bytes_per_number
    return int(kv_cache_bytes), int(score_bytes)
'''),
    dict(exercise="ex5", kind="numbers then bytes", code='''def context_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    cache_numbers = n_layers * T * (d_model + d_model)          # one key and one value per token
    score_numbers = n_heads * T ** 2
    return cache_numbers * bytes_per_number, score_numbers * bytes_per_number
'''),
]
