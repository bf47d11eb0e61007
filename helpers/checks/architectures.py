"""Checks for lesson 08 (architectures and a tiny language model): cross-attention, next-token
targets, the next-token loss, a detector for models that read the future, and what a long
context costs in memory.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from helpers.attention import attention, softmax
from helpers.checks import core
from helpers.masks import leaks_future
from helpers.model import TinyGPT


def _same(a, b) -> bool:
    """Equal shapes and values (within float tolerance)."""
    a, b = core.as_array(a, "value"), core.as_array(b, "value")
    return a.shape == b.shape and np.allclose(a, b, atol=1e-6, rtol=1e-5)


# --- Exercise: cross-attention ---------------------------------------------------------------


def _cross_case(T_dec, T_enc, d_model, d_k, d_v, seed):
    rng = np.random.default_rng(seed)
    x_dec = rng.normal(size=(T_dec, d_model))  # decoder states
    memory = rng.normal(size=(T_enc, d_model))  # the encoder's output
    W_q, W_k = (rng.normal(size=(d_model, d_k)) / np.sqrt(d_model) for _ in range(2))
    W_v = rng.normal(size=(d_model, d_v)) / np.sqrt(d_model)
    return x_dec, memory, W_q, W_k, W_v


@core.exercise
def check_cross_attention(cross_attention) -> None:
    """Exercise: single-head cross-attention, Q from the decoder, K and V from the encoder."""
    cases = [
        (4, 6, 5, 3, 3, 0),  # T_dec != T_enc: a wrong source for Q shows in the shape
        (5, 5, 6, 3, 2, 1),  # T_dec == T_enc and d_v != d_k: the same mistakes, in the values
    ]
    for T_dec, T_enc, d_model, d_k, d_v, seed in cases:
        x_dec, memory, W_q, W_k, W_v = _cross_case(T_dec, T_enc, d_model, d_k, d_v, seed)
        name = f"cross_attention(x_dec {x_dec.shape}, memory {memory.shape})"
        result = cross_attention(x_dec.copy(), memory.copy(), W_q.copy(), W_k.copy(), W_v.copy())
        if result is None:
            raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
        if not (isinstance(result, tuple) and len(result) == 2):
            raise AssertionError(
                f"{name}: return the pair (out, weights), like helpers.attention.attention; "
                f"got {type(result).__name__}"
            )
        out, weights = result
        q = x_dec @ W_q  # (T_dec, d_k): the decoder asks
        k, v = memory @ W_k, memory @ W_v  # (T_enc, d_k), (T_enc, d_v): the encoder answers
        ref_out, ref_w = attention(q, k, v)  # (T_dec, d_v), (T_dec, T_enc)
        wrong_axis = softmax(q @ k.T / np.sqrt(d_k), axis=0)  # columns sum to 1
        mistakes = [
            ("Q must come from the decoder, and K and V from the encoder's memory; yours has "
             "the roles swapped. The encoder positions now ask (rows) and the decoder positions "
             "answer (columns), so the output has one row per ENCODER token and cannot be added "
             "to the decoder's residual stream. Q = x_dec @ W_q; K = memory @ W_k; "
             "V = memory @ W_v.", attention(memory @ W_q, x_dec @ W_k, x_dec @ W_v)),
            ("Q must come from the decoder: you projected Q from the memory too, so every row "
             "belongs to an encoder position. Q = x_dec @ W_q.", attention(memory @ W_q, k, v)),
            ("K and V must come from the encoder's memory: you took them from the decoder "
             "states, which makes this decoder self-attention, not cross-attention. "
             "K = memory @ W_k, V = memory @ W_v.", attention(q, x_dec @ W_k, x_dec @ W_v)),
            ("you applied a causal mask to cross-attention. The whole source is known before "
             "decoding starts, so every decoder position may read every encoder position: no "
             "mask here (the causal mask belongs to the decoder's SELF-attention).",
             attention(q, k, v, np.tril(np.ones((T_dec, T_enc), dtype=bool)))),
            ("missing scale: divide the scores q . k by sqrt(d_k) before softmax.",
             attention(q, k, v, scale=1.0)),
            ("softmax over the wrong axis: each decoder position's weights over the encoder "
             "positions (one row) must sum to 1; yours normalise each column.",
             (wrong_axis @ v, wrong_axis)),
        ]
        if d_k == d_v:
            mistakes.append((
                "K and V swapped: the keys (scored against Q) are memory @ W_k and the values "
                "(averaged with the weights) are memory @ W_v; yours are the other way round.",
                attention(q, memory @ W_v, memory @ W_k)))
        core.compare(weights, ref_w, name=f"{name} weights",
                     mistakes=[(m, wrong[1]) for m, wrong in mistakes])
        core.compare(out, ref_out, name=f"{name} out",
                     mistakes=[(m, wrong[0]) for m, wrong in mistakes])
    core.passed("cross_attention: Q from the decoder, K and V from the encoder, no mask; "
                "weights (T_dec, T_enc) with rows summing to 1, for T_dec != T_enc and ==")


# --- Exercise: next-token targets ------------------------------------------------------------


@core.exercise
def check_next_token_pairs(next_token_pairs) -> None:
    """Exercise: (B, T+1) windows -> inputs window[:, :-1] and targets window[:, 1:]."""
    g = torch.Generator().manual_seed(3)
    for B, T1 in ((3, 9), (2, 5)):
        window = torch.randint(0, 40, (B, T1), generator=g)  # (B, T+1) token ids
        name = f"next_token_pairs(window of shape {tuple(window.shape)})"
        result = next_token_pairs(window.clone())
        if result is None:
            raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
        if not (isinstance(result, tuple) and len(result) == 2):
            raise AssertionError(f"{name}: return the pair (inputs, targets), each of shape (B, T)")
        inputs, targets = result
        x, y = window[:, :-1], window[:, 1:]  # (B, T) each
        if _same(inputs, x) and _same(targets, y):
            continue
        wrong_pairs = [
            ("no shift: each position is asked to predict itself (the targets equal the "
             "inputs), so the model only learns to copy its input. The target of position t is "
             "the NEXT token: inputs = window[:, :-1], targets = window[:, 1:].",
             [(x, x), (y, y), (window, window)]),
            ("shifted the wrong way: your target for each position is the token BEFORE it. "
             "The target of position t is token t + 1: inputs = window[:, :-1], "
             "targets = window[:, 1:].", [(y, x)]),
            ("torch.roll wraps around: the last position's target became the first token, "
             "which does not follow it. Slice instead: inputs = window[:, :-1], "
             "targets = window[:, 1:].",
             [(window, torch.roll(window, -1, dims=1)), (x, torch.roll(x, -1, dims=1))]),
            ("the inputs must drop the last token: it has no next token to be its target. "
             "inputs = window[:, :-1], shape (B, T).", [(window, y)]),
            ("you shifted along the batch axis (axis 0); the positions of a window are axis 1. "
             "inputs = window[:, :-1], targets = window[:, 1:].", [(window[:-1], window[1:])]),
        ]
        for message, pairs in wrong_pairs:
            if any(_same(inputs, a) and _same(targets, b) for a, b in pairs):
                raise AssertionError(f"{name}: {message}")
        core.compare(inputs, x, name=f"{name} inputs")
        core.compare(targets, y, name=f"{name} targets")
    core.passed("next_token_pairs: inputs = window[:, :-1], targets = window[:, 1:] "
                "(the target of position t is token t + 1)")


# --- Exercise: the next-token loss -----------------------------------------------------------


@core.exercise
def check_next_token_loss(next_token_loss) -> None:
    """Exercise: mean over all B*T positions of -log softmax(logits)[target]."""
    g = torch.Generator().manual_seed(5)
    for B, T, V in ((2, 5, 7), (3, 4, 11), (2, 6, 6)):
        logits = torch.randn(B, T, V, generator=g) * 2  # (B, T, V)
        targets = torch.randint(0, V, (B, T), generator=g)  # (B, T)
        name = f"next_token_loss(logits {tuple(logits.shape)}, targets {tuple(targets.shape)})"
        try:
            got = next_token_loss(logits.clone(), targets.clone())
        except NotImplementedError:
            raise
        except RuntimeError as error:
            raise AssertionError(
                f"{name}: your function raised RuntimeError: {error}. If you called "
                "F.cross_entropy on (B, T, V) logits: it wants the classes on axis 1, so "
                "flatten first, F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))."
            ) from None
        ref = F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))

        def picked(logp, targets=targets):
            return logp.gather(-1, targets[..., None])[..., 0]  # (B, T)

        logp = torch.log_softmax(logits, dim=-1)  # (B, T, V)
        mistakes = [
            ("softmax over the wrong axis: you normalised over the positions (axis 1). The "
             "distribution is over the vocabulary, the last axis (dim=-1).",
             -picked(torch.log_softmax(logits, dim=1)).mean()),
            ("softmax over the wrong axis: you normalised over the batch (axis 0). The "
             "distribution is over the vocabulary, the last axis (dim=-1).",
             -picked(torch.log_softmax(logits, dim=0)).mean()),
            ("not averaging: you summed the B*T losses. The loss is their mean, so that it "
             "does not grow with the batch size or the window length.", -picked(logp).sum()),
            ("not averaging over the positions: you summed each sequence's T losses and "
             "averaged over the batch. Average over all B*T predictions.",
             -picked(logp).sum(dim=1).mean()),
            ("not averaging: you returned one loss per position, shape (B, T). Average them "
             "into one number.", -picked(logp)),
            ("the loss is negative: you forgot the minus sign. Cross-entropy is MINUS the mean "
             "log-probability of the targets.", picked(logp).mean()),
            ("missing log: you averaged the targets' probabilities. Cross-entropy averages "
             "-log p(target).", -picked(logp.exp()).mean()),
            ("missing softmax: you used the raw logits as log-probabilities. Normalise with "
             "log_softmax over the vocabulary first.", -picked(logits).mean()),
        ]
        if T == V:
            mistakes.insert(0, (
                "softmax over the wrong axis: F.cross_entropy wants the classes on axis 1, and "
                "on (B, T, V) logits it took the T positions as the classes. Flatten first: "
                "F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1)).",
                F.cross_entropy(logits, targets)))
        core.compare(got, ref, name=name, mistakes=mistakes, atol=1e-5)
    core.passed("next_token_loss: the mean over all B*T positions of -log softmax(logits)"
                "[target], softmax over the vocabulary; equals F.cross_entropy")


# --- Exercise: the cheating detector ---------------------------------------------------------

LEAK_AT = 3  # the one-leak model: position 3 reads token 4
FAR_LEAK = (2, 6)  # the far-leak model: position 2 reads token 6, four positions ahead


def _detector_cases():
    """(name, model_fn, leaks, how) for small untrained TinyGPTs and a model with one leak."""
    V, T = 20, 10
    kw = dict(d_model=16, n_heads=2, d_ff=32, max_len=16, seed=0)
    models = {
        "causal": TinyGPT(V, mask="causal", n_layers=1, **kw),
        "causal, 2 layers": TinyGPT(V, mask="causal", n_layers=2, **kw),
        "reversed": TinyGPT(V, mask="reversed", n_layers=1, **kw),
        "no mask": TinyGPT(V, mask="none", n_layers=1, **kw),
    }

    def fn(model):
        def model_fn(ids):
            with torch.no_grad():
                return model(ids)[0]  # (1, T, V) logits
        return model_fn

    table = torch.randn(V, V, generator=torch.Generator().manual_seed(11))  # (V, V)
    causal = fn(models["causal"])

    def one_leak(ids):
        logits = causal(ids).clone()
        logits[:, LEAK_AT] += table[ids[:, LEAK_AT + 1]]  # position 3 peeks at token 4
        return logits

    def far_leak(ids):
        logits = causal(ids).clone()
        reader, read = FAR_LEAK
        logits[:, reader] += table[ids[:, read]]  # position 2 peeks at token 6 only
        return logits

    ids = torch.randint(0, V, (1, T), generator=torch.Generator().manual_seed(2))
    return ids, [
        ("causal", causal, False, ""),
        ("causal, 2 layers", fn(models["causal, 2 layers"]), False, ""),
        ("reversed", fn(models["reversed"]), True, "position 0 reads every later token"),
        ("no mask", fn(models["no mask"]), True, "every position reads every other"),
        ("one leak", one_leak, True,
         f"the model is causal except that position {LEAK_AT} also reads token {LEAK_AT + 1}"),
        ("far leak", far_leak, True,
         f"the model is causal except that position {FAR_LEAK[0]} also reads token "
         f"{FAR_LEAK[1]}, {FAR_LEAK[1] - FAR_LEAK[0]} positions ahead"),
    ]


def _as_verdict(got, name: str) -> bool:
    if isinstance(got, torch.Tensor) and got.numel() == 1 and got.dtype == torch.bool:
        return bool(got)
    if isinstance(got, (torch.Tensor, np.ndarray)):
        raise AssertionError(
            f"{name}: return True (the model reads the future) or False, one bool; got a "
            f"{type(got).__name__} of shape {tuple(got.shape)}. Reduce a comparison to one "
            "answer, e.g. bool((new - old).abs().max() > 0) or not torch.allclose(new, old)."
        )
    if not isinstance(got, (bool, np.bool_)):
        raise AssertionError(
            f"{name}: return True (the model reads the future) or False; got {got!r} of type "
            f"{type(got).__name__}"
        )
    return bool(got)


@core.exercise
def check_leaks(leaks) -> None:
    """Exercise: leaks(model_fn, ids) -> True when some logits move after a later token changes."""
    ids, cases = _detector_cases()
    verdicts = {name: _as_verdict(leaks(fn, ids.clone()), f"leaks on the {name} model")
                for name, fn, _, _ in cases}
    if not any(verdicts.values()):
        raise AssertionError(
            "leaks: your detector never fires: it lets the reversed model pass, though there "
            "position 0 reads every later token. For each later token j, change it on a copy of "
            "ids, rerun the model, and report a leak when the logits of a position before j "
            "moved."
        )
    if all(verdicts.values()):
        raise AssertionError(
            "leaks: your detector always fires: it flags even the causal models. When token j "
            "changes, the logits at positions j, j+1, ... may move (they are allowed to read "
            "token j); only the positions before j must stay put, so compare those alone."
        )
    for name, _, leaky, how in cases:
        if verdicts[name] and not leaky:
            raise AssertionError(
                f"leaks: false alarm on the {name} model, which never reads the future. When "
                "token j changes, compare only the logits of the positions before j."
            )
        if leaky and not verdicts[name]:
            raise AssertionError(
                f"leaks: your detector missed a leak ({name}: {how}). Perturb every later token "
                "j = 1..T-1, not only the last one, and compare every position before j, not "
                "only position 0 or position j - 1."
            )
    core.passed("leaks: flags the reversed model, the unmasked one and two single leaks "
                f"({LEAK_AT} reads {LEAK_AT + 1}, {FAR_LEAK[0]} reads {FAR_LEAK[1]}); passes "
                "causal models of 1 and 2 layers")


def reference_leaks(model_fn, ids) -> bool:
    """The reference detector, built on helpers.masks.leaks_future (used by the tests)."""
    V = model_fn(ids).shape[-1]

    def perturb(x, j):
        x = x.clone()
        x[0, j] = (x[0, j] + 1) % V
        return x

    return bool(leaks_future(model_fn, ids, axis=-1, perturb=perturb).any())


# --- Exercise: what a long context costs in memory -------------------------------------------


def _measured_memory(n_layers, d_model, n_heads, T, bytes_per_number):
    """Measure a real TinyGPT: the numbers in its KV cache and in one layer's weights."""
    model = TinyGPT(10, d_model=d_model, n_heads=n_heads, n_layers=n_layers, d_ff=4,
                    max_len=T, seed=0)
    ids = torch.zeros(1, T, dtype=torch.long)
    with torch.no_grad():
        _, cache = model(ids)
        x = torch.zeros(1, T, d_model)
        _, weights = model.blocks[0].attn(x)  # (1, H, T, T)
    kv = sum(c.k.numel() + c.v.numel() for c in cache)
    return kv * bytes_per_number, weights.numel() * bytes_per_number


def _memory_formula(n_layers, d_model, n_heads, T, b):
    return n_layers * 2 * T * d_model * b, n_heads * T * T * b


@core.exercise
def check_context_memory(context_memory) -> None:
    """Exercise: context_memory(...) -> (KV cache bytes of the model, one layer's score bytes)."""
    small = (3, 16, 4, 6, 8)  # factors 2, n_layers, n_heads, T, bytes all differ
    measured = _measured_memory(*small)
    if measured != _memory_formula(*small):
        raise RuntimeError("internal: the memory formula disagrees with the measured model")
    cases = [small, (12, 768, 12, 1024, 2), (32, 4096, 32, 4096, 2)]
    for n_layers, d_model, n_heads, T, b in cases:
        name = (f"context_memory(n_layers={n_layers}, d_model={d_model}, n_heads={n_heads}, "
                f"T={T}, bytes_per_number={b})")
        result = context_memory(n_layers, d_model, n_heads, T, b)
        if not (isinstance(result, tuple) and len(result) == 2):
            raise AssertionError(f"{name}: return the pair (kv_cache_bytes, score_bytes)")
        kv, scores = _memory_formula(n_layers, d_model, n_heads, T, b)
        core.compare(result[0], kv, name=f"{name} kv_cache_bytes", mistakes=[
            ("you counted only the keys: the cache holds the keys AND the values of every "
             "token, 2 * T * d_model numbers per layer.", kv // 2),
            ("every layer keeps its own keys and values: multiply by n_layers.", kv // n_layers),
            ("the heads split d_model: each head caches d_model / n_heads features per token, "
             "but all n_heads together cache d_model. Use d_model, not d_head.", kv // n_heads),
            ("that is a count of numbers, not of bytes: multiply by bytes_per_number.", kv // b),
        ])
        core.compare(result[1], scores, name=f"{name} score_bytes", mistakes=[
            ("every head has its own T x T score matrix: multiply by n_heads.", scores // n_heads),
            ("the score matrix is T x T, one score per (query, key) pair: T squared, not T.",
             scores // T),
            ("score_bytes asks for ONE layer: dense attention builds the (H, T, T) matrix of a "
             "layer, uses it and frees it before the next layer.", scores * n_layers),
            ("that is a count of numbers, not of bytes: multiply by bytes_per_number.",
             scores // b),
        ])
    core.passed("context_memory: KV cache = n_layers * 2 * T * d_model numbers (measured on a "
                "real TinyGPT cache), one layer's scores = n_heads * T^2 numbers, in bytes")
