"""Checks for lesson 09 (cost): an online softmax, one step of tiled attention, a KV-cache
append, a causal sliding-window mask, and top-k routing for a mixture of experts.
"""

from __future__ import annotations

import numpy as np
import torch

from helpers.attention import attention, softmax
from helpers.blocks import top_k_routing
from helpers.checks import core
from helpers.heads import KVCache
from helpers.masks import causal_mask, sliding_window_mask
from helpers.model import TinyGPT
from helpers.streaming import attention_step

# ------------------------------------------------------------------ ex1: online softmax


def _blocks(x, block_size):
    return [x[i : i + block_size] for i in range(0, len(x), block_size)]


def _softmax_no_rescale(x, block_size):
    """The running sum is never rescaled: each block's terms stay relative to the max of then."""
    m, z = -np.inf, 0.0
    for b in _blocks(x, block_size):
        m = max(m, b.max())
        z = z + np.exp(b - m).sum()
    return np.exp(x - m) / z


def _softmax_inverted_rescale(x, block_size):
    """Rescaled by exp(m_new - m_old), the reciprocal of the right factor."""
    m, z = -np.inf, 0.0
    for b in _blocks(x, block_size):
        m_new = max(m, b.max())
        factor = np.exp(m_new - m) if np.isfinite(m) else 0.0
        z = z * factor + np.exp(b - m_new).sum()
        m = m_new
    return np.exp(x - m) / z


def _softmax_per_block(x, block_size):
    return np.concatenate([softmax(b) for b in _blocks(x, block_size)])


def _softmax_unshifted(x):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / e.sum()


@core.exercise
def check_online_softmax(my_online_softmax) -> None:
    """Exercise: my_online_softmax(x, block_size) -> softmax(x) from a running max and sum."""
    rng = np.random.default_rng(9)
    cases = [
        (np.linspace(-3.0, 4.0, 8), 1),  # the maximum grows at every step
        (np.array([0.5, 2.0, -1.0, 3.0, 1.0, 4.0, 0.0]), 2),
        (rng.normal(size=10) * 3, 3),
        (np.array([1000.0, 1003.0, 998.0, 1005.0, 1001.0]), 2),  # exp(1000) overflows
        (np.array([0.0, 1.0, 750.0, 2.0, 760.0]), 2),  # a later block far above the first
        (np.array([2.0, -1.0, 0.5]), 3),  # one block: nothing to rescale
    ]
    for x, block_size in cases:
        name = f"my_online_softmax({np.array2string(x, precision=1)}, block_size={block_size})"
        got = core.as_array(my_online_softmax(x.copy(), block_size), name)
        if got.shape != x.shape:
            raise AssertionError(
                f"{name}: expected one weight per score, shape {x.shape}; got shape {got.shape}"
            )
        with np.errstate(over="ignore", invalid="ignore"):  # the mistakes may overflow
            wrong_sum = _softmax_no_rescale(x, block_size)
            inverted = _softmax_inverted_rescale(x, block_size)
        total = f"{wrong_sum.sum():.3f}"
        core.compare(got, softmax(x), name=name, mistakes=[
            (f"your weights sum to {total}, not 1: you forgot to rescale the running sum when the "
             "max changes. Terms added earlier were exp(x - m_old); when a block raises the max "
             "to m_new, multiply the sum by exp(m_old - m_new) before adding the new terms.",
             wrong_sum),
            ("you rescaled the running sum by exp(m_new - m_old), the wrong way round: when the "
             "max grows, old terms shrink relative to it, so multiply by exp(m_old - m_new) <= 1.",
             inverted),
            ("you normalised each block on its own, so every block sums to 1. Softmax divides by "
             "the sum over the whole row: keep one running sum across blocks.",
             _softmax_per_block(x, block_size)),
            ("exp overflowed to inf and the result is NaN: subtract the running max before exp "
             "(exp(1000) is inf in float64). Keep the max m and the sum of exp(x - m).",
             _softmax_unshifted(x)),
        ])
    core.passed("my_online_softmax: equals softmax for 6 rows read in blocks of 1, 2 and 3, "
                "including a max that grows at every step and scores near 1000")


# ------------------------------------------------------------------ ex2: one tiled step


def _step_variants(m, z, acc, s, v):
    """Reference step and the results of named mistakes, as (m, z, acc) tuples."""
    m_new = np.maximum(m, s.max(axis=-1))
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    with np.errstate(over="ignore", invalid="ignore"):
        p_old = np.exp(s - m[:, None])  # weights taken relative to the old max
        m_blk = s.max(axis=-1)
        p_blk = np.exp(s - m_blk[:, None])
    right = attention_step(m, z, acc, s, v)
    z_new = right[1]
    return right, {
        "sum": (m_new, z + p.sum(-1), alpha[:, None] * acc + p @ v),
        "acc": (m_new, z_new, acc + p @ v),
        "both": (m_new, z + p.sum(-1), acc + p @ v),
        "normalised": (m_new, z_new, (alpha[:, None] * acc + p @ v) / z_new[:, None]),
        "old max": (m_new, alpha * z + p_old.sum(-1), alpha[:, None] * acc + p_old @ v),
        "block max": (m_blk, z + p_blk.sum(-1), acc + p_blk @ v),
    }


STEP_MESSAGES = {
    "sum": "you forgot to rescale the running sum z: when the max grows from m to m_new, the old "
           "sum was taken relative to m, so multiply it by exp(m - m_new) before adding.",
    "acc": "you did not rescale the accumulated output: acc holds sum exp(s - m) v over the keys "
           "seen so far, relative to the old max m. Multiply it by the same exp(m - m_new) as z.",
    "both": "neither the running sum z nor the accumulated output acc was rescaled: both were "
            "summed relative to the old max m, so both need the factor exp(m - m_new).",
    "normalised": "you divided acc by the running sum inside the step. acc stays unnormalised "
                  "(sum of exp(s - m) v); divide by z once, after the last block.",
    "old max": "the new block's weights were taken relative to the old max, exp(s - m): take "
               "them relative to the new one, exp(s - m_new), like the rescaled old terms.",
    "block max": "you kept only this block's max, not the running max: m_new = max(m, max of "
                 "the block). A later block with smaller scores must not lower it.",
}


def _compare_state(got, want, variants, name):
    if not isinstance(got, (tuple, list)) or len(got) != 3:
        raise AssertionError(
            f"{name}: return the new state as a tuple (m_new, z_new, acc_new); "
            f"got {type(got).__name__}"
        )
    labels = ("m_new", "z_new", "acc_new")
    got = [core.as_array(g, f"{name} {label}") for g, label in zip(got, labels, strict=True)]
    for label, g, w in zip(("m_new", "z_new", "acc_new"), got, want, strict=True):
        if g.shape != np.shape(w):
            raise AssertionError(f"{name}: {label} should have shape {np.shape(w)}, got {g.shape}")
    if all(np.allclose(g, w, atol=1e-9) for g, w in zip(got, want, strict=True)):
        return
    for key, wrong in variants.items():
        if all(np.allclose(g, w, atol=1e-9, equal_nan=True)
               for g, w in zip(got, wrong, strict=True)):
            raise AssertionError(f"{name}: {STEP_MESSAGES[key]}")
    for label, g, w in zip(("m_new", "z_new", "acc_new"), got, want, strict=True):
        core.compare(g, w, name=f"{name}, {label}", atol=1e-9)


@core.exercise
def check_attention_step(my_attention_step) -> None:
    """Exercise: my_attention_step(m, z, acc, s, v) -> (m_new, z_new, acc_new)."""
    rng = np.random.default_rng(3)
    # One step from a state that has already seen some keys: rows 0 and 2 get a new max.
    m = np.array([1.0, 2.5, -0.5])
    z = np.array([1.7, 2.2, 1.1])
    acc = rng.normal(size=(3, 2))
    s = np.array([[2.0, 0.5], [1.0, -1.0], [0.4, 3.0]])
    v = rng.normal(size=(2, 2))
    name = "my_attention_step(one step, rows 0 and 2 get a new max)"
    got = my_attention_step(m.copy(), z.copy(), acc.copy(), s.copy(), v.copy())
    want, variants = _step_variants(m, z, acc, s, v)
    _compare_state(got, want, variants, name)

    # A whole causal attention, key block by key block, from m = -inf, z = 0, acc = 0.
    T, d, block = 7, 3, 3
    q, k, vv = (rng.normal(size=(T, d)) * 1.5 for _ in range(3))
    scores = np.where(causal_mask(T), q @ k.T / np.sqrt(d), -np.inf)
    m, z, acc = np.full(T, -np.inf), np.zeros(T), np.zeros((T, d))
    ref = (m, z, acc)
    for j in range(0, T, block):
        s, v = scores[:, j : j + block], vv[j : j + block]
        name = f"my_attention_step(causal T={T}, keys {j}..{min(j + block, T) - 1})"
        with np.errstate(over="ignore", invalid="ignore"):
            got = my_attention_step(m.copy(), z.copy(), acc.copy(), s.copy(), v.copy())
            want, variants = _step_variants(*ref, s, v)
        _compare_state(got, want, variants, name)
        m, z, acc = (np.asarray(g, dtype=float) for g in got)
        ref = want
    out = acc / z[:, None]
    core.compare(out, attention(q, k, vv, causal_mask(T))[0], name="acc / z after the last block")
    core.passed("my_attention_step: rescales z and acc by exp(m - m_new); three blocks of a "
                "causal row give acc / z = attention(q, k, v, causal mask)")


# ------------------------------------------------------------------ ex3: KV-cache append


def _tensor(got, name):
    if got is None:
        raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
    if not isinstance(got, torch.Tensor):
        raise AssertionError(f"{name}: return torch tensors; got {type(got).__name__}")
    return got


def _append(fn, cache_k, cache_v, k, v, name):
    try:
        got = fn(cache_k, cache_v, k, v)
    except TypeError as error:
        if cache_k is None:
            raise AssertionError(
                f"{name}: your function failed on an empty cache ({type(error).__name__}: "
                f"{error}). Before the first position the cache is None: return k_new and v_new "
                "as they are."
            ) from None
        raise
    except RuntimeError as error:
        if "Sizes of tensors must match" in str(error):
            raise AssertionError(
                f"{name}: torch.cat failed ({error}). The cache (B, H, T_past, d_head) and the new "
                "step (B, H, T_new, d_head) differ only along the position axis, dim=-2 (dim=2): "
                "append there."
            ) from None
        raise
    if not isinstance(got, (tuple, list)) or len(got) != 2:
        raise AssertionError(f"{name}: return the pair (k_all, v_all); got {type(got).__name__}")
    return _tensor(got[0], f"{name} k_all"), _tensor(got[1], f"{name} v_all")


@core.exercise
def check_cache_append(my_cache_append) -> None:
    """Exercise: my_cache_append(cache_k, cache_v, k_new, v_new) -> (k_all, v_all)."""
    g = torch.Generator().manual_seed(0)
    B, H, d = 2, 3, 4
    k0, v0 = torch.randn(B, H, 5, d, generator=g), torch.randn(B, H, 5, d, generator=g)
    k1, v1 = torch.randn(B, H, 5, d, generator=g), torch.randn(B, H, 5, d, generator=g)
    k2, v2 = torch.randn(B, H, 1, d, generator=g), torch.randn(B, H, 1, d, generator=g)

    got_k, got_v = _append(my_cache_append, None, None, k0, v0, "my_cache_append(None, None, ...)")
    core.compare(got_k, k0, name="first call (empty cache), k_all", mistakes=[
        ("k_all holds the values: keys and values were swapped.", v0)])
    core.compare(got_v, v0, name="first call (empty cache), v_all")

    name = "my_cache_append(5 cached positions, 5 new)"
    got_k, got_v = _append(my_cache_append, k0, v0, k1, v1, name)
    want = torch.cat([k0, k1], dim=-2)
    core.compare(got_k, want, name=f"{name}, k_all", mistakes=[
        ("you appended along the head axis (dim=1): the result has 6 heads of 5 positions. "
         "Append along the position axis, dim=-2.", torch.cat([k0, k1], dim=1)),
        ("you appended along the feature axis (dim=-1): each position now has 8 features. "
         "Append along the position axis, dim=-2.", torch.cat([k0, k1], dim=-1)),
        ("you appended along the batch axis (dim=0): the result has 4 sequences. Append along "
         "the position axis, dim=-2.", torch.cat([k0, k1], dim=0)),
        ("the new positions come first: the cache must stay in position order, old then new "
         "(torch.cat([cache_k, k_new], dim=-2)).", torch.cat([k1, k0], dim=-2)),
        ("you returned only the new keys and forgot the cached ones: the next query could not "
         "read the past.", k1),
        ("k_all holds the values: keys and values were swapped.", torch.cat([v0, v1], dim=-2)),
    ])
    core.compare(got_v, torch.cat([v0, v1], dim=-2), name=f"{name}, v_all", mistakes=[
        ("v_all holds the keys: keys and values were swapped.", torch.cat([k0, k1], dim=-2)),
        ("the new positions come first: keep position order, old then new.",
         torch.cat([v1, v0], dim=-2)),
        ("you returned only the new values and forgot the cached ones.", v1),
    ])
    name = "my_cache_append(10 cached positions, 1 new)"
    got_k, got_v = _append(my_cache_append, want, torch.cat([v0, v1], -2), k2, v2, name)
    core.compare(got_k, torch.cat([k0, k1, k2], -2), name=f"{name}, k_all")
    core.compare(got_v, torch.cat([v0, v1, v2], -2), name=f"{name}, v_all")

    # Plugged into a model's cache: prefill 4 tokens, decode 6, one at a time.
    class StudentCache(KVCache):
        def append(self, k, v):
            self.k, self.v = _append(my_cache_append, self.k, self.v, k, v, "in the model")
            return self.k, self.v

    model = TinyGPT(11, d_model=16, n_heads=2, n_layers=2, d_ff=32, max_len=16, seed=1).eval()
    idx = torch.randint(11, (2, 10), generator=g)
    with torch.no_grad():
        full, _ = model(idx)  # (2, 10, 11)
        cache = [StudentCache() for _ in model.blocks]
        try:
            logits, cache = model(idx[:, :4], cache)
            steps = [logits]
            for t in range(4, 10):
                logits, cache = model(idx[:, t : t + 1], cache)
                steps.append(logits)
        except (ValueError, RuntimeError) as error:
            raise AssertionError(
                "TinyGPT failed while decoding with your cache (prefill 4 positions, then one "
                f"at a time): {type(error).__name__}: {error}. After each append the cache "
                "must hold every position so far, (B, H, T_past + T_new, d_head)."
            ) from None
    core.compare(torch.cat(steps, dim=1), full, name="TinyGPT logits, decoding with your cache",
                 atol=1e-5)
    core.passed("my_cache_append: old then new along the position axis; in a TinyGPT, prefill 4 "
                "+ decode 6 gives the logits of recomputing all 10 positions")


# ------------------------------------------------------------------ ex4: sliding window


def _bool_mask(got, name, shape):
    if got is None:
        raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
    got = got.detach().cpu().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    if got.dtype != np.bool_:
        raise AssertionError(
            f"{name}: return a boolean array (True = may attend); got dtype {got.dtype}"
        )
    if got.shape != shape:
        raise AssertionError(f"{name}: expected shape {shape}, got shape {got.shape}")
    return got


@core.exercise
def check_sliding_window_mask(my_sliding_window_mask) -> None:
    """Exercise: my_sliding_window_mask(T, window) -> (T, T) bool, keys i-window+1..i."""
    for T, window in ((8, 3), (6, 1), (5, 2), (4, 6)):
        name = f"my_sliding_window_mask({T}, {window})"
        got = _bool_mask(my_sliding_window_mask(T, window), name, (T, T))
        i, j = np.arange(T)[:, None], np.arange(T)[None, :]
        core.compare(got, sliding_window_mask(T, window), name=name, mistakes=[
            ("your window excludes the diagonal: row i keeps i-window..i-1, so a query cannot "
             "read itself (and row 0 reads nothing: NaN). Keep i-window+1..i, i included.",
             (j < i) & (j >= i - window)),
            ("your window looks ahead: row i keeps keys after i, so it reads the future. A "
             "causal window keeps only j <= i.", np.abs(i - j) < window),
            ("your window looks only ahead: row i keeps i..i+window-1, the future. Keep the "
             "past, i-window+1..i.", (j >= i) & (j < i + window)),
            (f"your window keeps {window + 1} keys per row, one too many: i-window..i. Count the "
             "query itself as one of the `window` keys: i-window+1..i.",
             (j <= i) & (j >= i - window)),
            ("that is the plain causal mask: the window is missing, so row i still reads every "
             "key 0..i.", causal_mask(T)),
            ("your mask is inverted: True must mean may attend, not blocked.",
             ~sliding_window_mask(T, window)),
        ])
    core.passed("my_sliding_window_mask: row i keeps i-window+1..i (itself included, nothing "
                "after), for 4 sizes including window 1 and window > T")


# ------------------------------------------------------------------ ex5: top-k routing


@core.exercise
def check_top_k_gates(my_top_k_gates) -> None:
    """Exercise: my_top_k_gates(logits, k) -> (N, n_experts) gates, k non-zero per row."""
    g = torch.Generator().manual_seed(5)
    cases = [
        (torch.tensor([[0.0, 3.0, 1.0, 2.0], [5.0, -1.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0]]), 2),
        (torch.randn(6, 5, generator=g) * 2, 2),
        (torch.randn(4, 6, generator=g), 3),
        (torch.randn(5, 4, generator=g), 1),
    ]
    for logits, k in cases:
        name = f"my_top_k_gates(logits {tuple(logits.shape)}, k={k})"
        got = my_top_k_gates(logits.clone(), k)
        got = core.as_array(got, name)
        want = top_k_routing(logits, k).dense_gates()
        if got.shape != tuple(want.shape):
            raise AssertionError(
                f"{name}: return one gate per position and expert, shape {tuple(want.shape)} "
                f"(zeros for the experts not chosen); got shape {got.shape}"
            )
        counts = (got != 0).sum(axis=-1)
        probs = torch.softmax(logits, -1)
        unnormalised = top_k_routing(logits, k, renormalize=False).dense_gates()
        bottom = (-logits).topk(k, -1).indices
        core.compare(got, want, name=name, mistakes=[
            (f"your gates sum to {unnormalised.sum(-1)[0]:.3f} per row, not 1: you took the "
             "softmax over all experts and kept the top k. This exercise renormalises over the "
             "chosen ones: softmax over the k chosen logits.", unnormalised),
            ("every expert gets a weight: that is the dense softmax, not top-k routing. Keep "
             "only the k largest logits of each row.", probs),
            ("you chose the k *smallest* logits: route to the experts with the highest score.",
             torch.zeros_like(probs).scatter(-1, bottom, torch.softmax(
                 logits.gather(-1, bottom), -1))),
            ("your gates are the raw logits of the chosen experts; turn them into weights that "
             "sum to 1 with a softmax over the k chosen logits.",
             torch.zeros_like(probs).scatter(-1, logits.topk(k, -1).indices,
                                             logits.topk(k, -1).values)),
            ("each chosen expert gets gate 1: weight them by a softmax over their logits "
             "instead, so each row sums to 1.",
             (want > 0).double()),
        ])
        if not (counts == k).all():
            raise AssertionError(f"{name}: each row must have exactly k={k} non-zero gates")
    core.passed("my_top_k_gates: k non-zero gates per row, softmax over the k largest logits, "
                "rows sum to 1 (k = 1, 2, 3)")
