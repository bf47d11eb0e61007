"""Checks for lesson 10 (LLMs): grouped-query attention, the KV-cache bytes of a configuration,
the lower-right causal mask of a chunk, position interpolation for RoPE, and one attention row's
backward pass from its log-sum-exp (FlashAttention's backward idea).

Each check refuses the library helper the lesson used (the exercise is to write it), runs the
student's function on canonical cases of several sizes (more, drawn from the grading seed, when
grading), names the anticipated mistakes first (ids "llms.<kebab-case>"), then checks the
properties of a right answer in the lesson's order (GQA: one output per query head, query head
h reads key/value head h // G; the cache: how it scales with each size, a window caps it; the
mask: the last query reads every key, no query reads past its position; the angles: position 0
is not turned, pair 0 turns by the interpolated position, every pair is slowed by the same
factor; the backward: dv = p ⊗ d_out with weights that sum to 1, the rows of dk sum to zero),
and only then compares every number with core's generic diagnoses.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import sys

import numpy as np
import torch

from helpers.checks import core
from helpers.checks.calls import is_library
from helpers.configs import PRESETS, kv_cache_bytes
from helpers.gqa import grouped_query_attention
from helpers.masks import chunk_causal_mask
from helpers.rope_scaling import interpolated_rope_angles, llama3_scaled, rope_inv_frequencies
from helpers.streaming import chunk_partials, row_backward

_same = core.matches

# The exercises say "with NumPy or torch": a result of either kind is judged on its values.
_call = functools.partial(core.call, returns="any")



def _heads(ids) -> str:
    return "[" + ", ".join(str(i) for i in ids) + "]"


# ------------------------------------------------------------------ ex1: grouped-query attention

GQA_FORBIDDEN = (
    "torch.nn.functional.scaled_dot_product_attention",
    "torch.nn.functional.multi_head_attention_forward",
    "helpers.gqa.repeat_kv",
    "helpers.gqa.grouped_query_attention",
    "helpers.gqa.GroupedQueryAttention",
)
GQA_AXES = ("B", "H_q", "T", "d")


def _gqa_cases():
    """(B, H_q, H_kv, T, d): GQA with G = 2 and 3, MQA, MHA, a wider one; more when grading."""
    shapes = [(2, 4, 2, 5, 8), (1, 6, 2, 4, 4), (1, 4, 1, 6, 4), (2, 3, 3, 3, 5), (1, 8, 2, 7, 16)]
    if core.grading():  # sizes the notebook has not seen
        rng = core.rng(11)
        while len(shapes) < 7:
            H_kv, G = int(rng.integers(1, 5)), int(rng.integers(2, 5))
            shape = (int(rng.integers(1, 3)), H_kv * G, H_kv, int(rng.integers(2, 9)),
                     int(rng.integers(2, 13)))
            if shape not in shapes:
                shapes.append(shape)
    g = core.torch_generator(10)
    cases = []
    for B, H_q, H_kv, T, d in shapes:
        q = torch.randn(B, H_q, T, d, generator=g, dtype=torch.float64)
        k = torch.randn(B, H_kv, T, d, generator=g, dtype=torch.float64)
        v = torch.randn(B, H_kv, T, d, generator=g, dtype=torch.float64)
        cases.append((q, k, v))
    return cases


def _attend(q, k, v, *, scale, dim=-1, causal=False, softmax=True, k_q=False):
    """softmax(q kᵀ · scale) v on K/V already laid out per query head (a mistake's variant);
    k_q: the scores k qᵀ, the transpose (T_k, T_q) of the right ones."""
    s = (k @ q.transpose(-2, -1) if k_q else q @ k.transpose(-2, -1)) * scale
    if causal:
        T_q, T_k = s.shape[-2:]
        s = s.masked_fill(~torch.ones(T_q, T_k, dtype=torch.bool).tril(), float("-inf"))
    return (torch.softmax(s, dim) if softmax else s) @ v


def _gqa_variants(q, k, v):
    """(id, message, wrong value or None) of the anticipated mistakes, in the order tried."""
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    scale = 1 / math.sqrt(d)
    k_rep, v_rep = k.repeat_interleave(G, 1), v.repeat_interleave(G, 1)
    right_map = [h // G for h in range(H_q)]
    tiled_map = [h % H_kv for h in range(H_q)]
    tiled = None
    if right_map != tiled_map:
        tiled = _attend(q, k.repeat(1, G, 1, 1), v.repeat(1, G, 1, 1), scale=scale)
    right = _attend(q, k_rep, v_rep, scale=scale)
    q_mean = q.reshape(B, H_kv, G, T, d).mean(2)  # (B, H_kv, T, d)
    by_group = right.reshape(B, H_kv, G, T, d).mean(2, keepdim=True)
    several = G > 1
    return [
        ("llms.gqa-tiled",
         f"query head h reads key/value head h % H_kv (heads {_heads(tiled_map)}) instead of "
         f"h // G ({_heads(right_map)}): the key/value heads were tiled, the whole set repeated "
         "G times (k.repeat(1, G, 1, 1), or an expand/reshape or a view of the queries as "
         "(B, G, H_kv, T, d) that puts the group axis before the kv-head axis). Each kv head "
         "serves G consecutive query heads: repeat each one G times in a row (repeat_interleave, "
         "not repeat), or view the queries as (B, H_kv, G, T, d).", tiled),
        ("llms.gqa-no-scale",
         f"the scores are not scaled: softmax(q kᵀ / √d) divides by √d = {math.sqrt(d):.4g} "
         "before the softmax, as in every attention.", _attend(q, k_rep, v_rep, scale=1.0)),
        ("llms.gqa-wrong-scale",
         f"the scores are divided by d = {d} instead of √d = {math.sqrt(d):.4g}.",
         _attend(q, k_rep, v_rep, scale=1 / d) if d != 1 else None),
        ("llms.gqa-wrong-scale",
         f"the scores are divided by √(G·d) = √{G * d}, the width of a whole group: each query "
         f"head is d = {d} wide and its scores are divided by √d, whatever G is.",
         _attend(q, k_rep, v_rep, scale=1 / math.sqrt(G * d)) if several else None),
        ("llms.gqa-wrong-scale",
         f"the scores are divided by √(H_q·d) = √{H_q * d}, the width of all heads together: "
         f"each head's scores are divided by the square root of its own width, √d = √{d}.",
         _attend(q, k_rep, v_rep, scale=1 / math.sqrt(H_q * d)) if H_q > 1 else None),
        ("llms.gqa-wrong-scale",
         f"the scores are multiplied by √d = {math.sqrt(d):.4g}: divide by it.",
         _attend(q, k_rep, v_rep, scale=math.sqrt(d)) if d != 1 else None),
        ("llms.gqa-wrong-scale",
         f"the scores are divided by √T = √{T}, the square root of the sequence length "
         f"(q.shape[-2]), instead of √d = √{d}, that of the head width (q.shape[-1]): the scale "
         "belongs to the width of the vectors in each dot product, whatever the number of "
         "positions.", _attend(q, k_rep, v_rep, scale=1 / math.sqrt(T)) if T != d else None),
        ("llms.gqa-wrong-scale",
         f"the scores are divided by T = {T}, the sequence length (q.shape[-2]): divide them by "
         f"√d = √{d}, the square root of the head width (q.shape[-1]).",
         _attend(q, k_rep, v_rep, scale=1 / T) if T not in (1, d, math.sqrt(d)) else None),
        ("llms.gqa-scores-transposed",
         "your scores are k qᵀ, the transpose of q kᵀ: row i of the scores must be query i's dot "
         "products with every key, so that the softmax over the last axis runs over the keys "
         "and the weights then average the values. Write q @ k.transpose(-2, -1).",
         _attend(q, k_rep, v_rep, scale=scale, k_q=True)),
        ("llms.gqa-softmax-axis",
         "the softmax runs over the wrong axis: over the queries (dim=-2), so each key's column "
         "sums to 1. Each query's weights over the keys must sum to 1: softmax over dim=-1.",
         _attend(q, k_rep, v_rep, scale=scale, dim=-2)),
        ("llms.gqa-softmax-axis",
         "the softmax runs over the heads (dim=1): each query's weights over the KEYS must sum "
         "to 1, a softmax over the last axis (dim=-1), head by head.",
         _attend(q, k_rep, v_rep, scale=scale, dim=1) if H_q > 1 else None),
        ("llms.gqa-causal",
         "your output is causal: query i reads only keys 0..i. This exercise has no mask "
         "(every query reads every key); a causal mask, when a model needs one, is a separate "
         "step.", _attend(q, k_rep, v_rep, scale=scale, causal=True) if T > 1 else None),
        ("llms.gqa-k-v-swapped",
         "keys and values are swapped: the scores come from q and the keys, q kᵀ, and the "
         "weights then average the values.", _attend(q, v_rep, k_rep, scale=scale)),
        ("llms.gqa-no-softmax",
         "the weights are the raw scaled scores: turn each query's scores into weights with a "
         "softmax over the keys before they average the values.",
         _attend(q, k_rep, v_rep, scale=scale, softmax=False)),
        ("llms.gqa-queries-averaged",
         f"you averaged the G = {G} query heads of each group into one query: sharing K and V "
         "does not merge the queries. Every query head keeps its own query and gives its own "
         "output; only its keys and values are shared.",
         _attend(q_mean, k, v, scale=scale).repeat_interleave(G, 1) if several else None),
        ("llms.gqa-outputs-averaged",
         f"every query head of a group has the same output, the mean of the group's G = {G} "
         "outputs: each query head gives its own output, softmax(q_h kᵀ / √d) v, with its own "
         "query; only the keys and values are shared.",
         by_group.expand(B, H_kv, G, T, d).reshape(B, H_q, T, d) if several else None),
    ]


def _gqa_few_heads(got, q, k, v, name):
    """The output has H_kv heads (one per key/value head): say which mistake gives that."""
    B, H_q, T, d = q.shape
    H_kv = k.shape[1]
    G = H_q // H_kv
    scale = 1 / math.sqrt(d)
    right = grouped_query_attention(q, k, v)[0]
    q_mean = q.reshape(B, H_kv, G, T, d).mean(2)
    if _same(got, _attend(q_mean, k, v, scale=scale)):
        core.fail(f"{name}: your output has H_kv = {H_kv} heads, because you averaged the "
                  f"G = {G} query heads of each group into one query. Sharing K and V does "
                  "not merge the queries: every one of the H_q query heads keeps its query and "
                  f"gives its own output, (B, H_q, T, d) = {tuple(q.shape)}.",
                  "llms.gqa-queries-averaged")
    if _same(got, right.reshape(B, H_kv, G, T, d).mean(2)):
        core.fail(f"{name}: your output has H_kv = {H_kv} heads, the mean of each group's "
                  f"G = {G} outputs: every query head gives its own output, so return all "
                  f"H_q = {H_q} of them, (B, H_q, T, d) = {tuple(q.shape)}.",
                  "llms.gqa-outputs-averaged")
    which = ""
    for label, r in (("the first", 0), ("the last", G - 1)):
        if _same(got, right[:, r::G]):
            which = (f" Yours holds only {label} query head of each group "
                     f"(heads {_heads(range(r, H_q, G))}).")
    core.fail(f"{name}: your output has H_kv = {H_kv} heads, one per key/value head; it needs "
              f"one per query head, (B, H_q, T, d) = {tuple(q.shape)}. GQA shares the keys "
              "and values, not the queries: repeat each kv head for its G = "
              f"{G} query heads (along the head axis) so that every query head is "
              f"computed.{which}", "llms.gqa-kv-heads-out")


def _gqa_head_map(got, q, k, v, name) -> None:
    """Every query head is the attention of one key head and one value head, but not kv head
    h // G for both: name the map, the keys' and the values' apart when they differ."""
    H_q, H_kv = q.shape[1], k.shape[1]
    G = H_q // H_kv
    scale = 1 / math.sqrt(q.shape[-1])
    keys, values = [], []
    for h in range(H_q):
        hits = [(jk, jv) for jk in range(H_kv) for jv in range(H_kv)
                if _same(got[:, h], _attend(q[:, h], k[:, jk], v[:, jv], scale=scale).numpy())]
        if not hits:
            return
        jk, jv = next(((a, b) for a, b in hits if a == b), hits[0])
        keys.append(jk)
        values.append(jv)
    right = [h // G for h in range(H_q)]
    tiled = [h % H_kv for h in range(H_q)]

    def how(found):
        return " (h % H_kv: tiled, as repeat(1, G, 1, 1) does)" if found == tiled else ""

    if keys == values and keys != right:
        core.fail(f"{name}: query heads 0..{H_q - 1} read key/value heads {_heads(keys)}; "
                  f"they should read {_heads(right)}. G = H_q / H_kv = {G} consecutive query "
                  "heads share one key/value head, so query head h reads kv head h // G.",
                  "llms.gqa-wrong-kv-head")
    if keys != values:
        wrong = [(what, found) for what, found in (("keys", keys), ("values", values))
                 if found != right]
        said = "; ".join(f"their {what} from kv heads {_heads(found)}{how(found)}"
                         for what, found in wrong)
        fine = [what for what in ("keys", "values") if what not in dict(wrong)]
        ok = (f" Your {fine[0]} are shared right (query head h reads kv head h // G = "
              f"{_heads(right)})." if fine else "")
        core.fail(f"{name}: K and V are shared differently: query heads 0..{H_q - 1} take "
                  f"{said}.{ok} A query head's scores and the values they average must come "
                  f"from the same kv head, h // G = {_heads(right)}: repeat K and V the same "
                  "way (repeat_interleave(G, dim=1) for both).", "llms.gqa-kv-maps-differ")


def _call_gqa(fn, q, k, v, name):
    H_q, H_kv = q.shape[1], k.shape[1]
    try:
        return _call(fn, q, k, v, name="my_gqa")
    except (RuntimeError, ValueError) as error:
        said = str(error)
        mismatch = any(w in said for w in ("must match the", "could not be broadcast",
                                           "does not broadcast", "shape mismatch"))
        numbers = set(re.findall(r"\d+", said))
        if H_q != H_kv and mismatch and {str(H_q), str(H_kv)} <= numbers:
            core.fail(f"{name}: your function raised {type(error).__name__} ({said}): the "
                      f"H_q = {H_q} query heads met the H_kv = {H_kv} key/value heads head to "
                      f"head (a broadcast, an expand or an einsum cannot turn {H_kv} heads "
                      f"into {H_q}). Give each query head its key/value head first: repeat "
                      "every kv head "
                      f"G = {H_q // H_kv} times along the head axis (dim=1), or view the "
                      "queries as (B, H_kv, G, T, d) so that K and V broadcast over the group.",
                      "llms.gqa-heads-mismatch")
        raise
    except TypeError as error:
        said = str(error)
        if "repeat_interleave" in said or "float" in said:
            core.fail(f"{name}: your function raised TypeError ({said}): the group size must "
                      f"be an int. H_q / H_kv = {H_q / H_kv} is a float (true division); "
                      f"H_q // H_kv = {H_q // H_kv} is the int that repeat_interleave, expand "
                      "and reshape accept.", "llms.gqa-float-group")
        raise


def _gqa_not_a_tensor(result, want, name) -> None:
    """GQA is a layer of a torch model: its output must be a torch tensor."""
    kind = type(result).__name__
    if isinstance(result, (np.ndarray, np.generic)):
        kind = "NumPy array (np.ndarray)"
    try:
        right = core.matches(result, want)
    except core.CheckFailed:
        right = False
    note = " Your numbers are right." if right else ""
    core.fail(f"{name}: you returned a {kind}; return a torch tensor. The inputs are torch "
              "tensors, and a GQA layer's next step (the output projection, an nn.Linear, and "
              "the rest of the model) runs in torch: compute with torch (repeat_interleave, @, "
              f"torch.softmax), or convert back with torch.from_numpy.{note}",
              "llms.gqa-not-a-tensor")


@core.exercise
@core.single_threaded
def check_gqa(my_gqa) -> None:
    """Exercise: my_gqa(q, k, v) -> (B, H_q, T, d), query head h reading kv head h // G."""
    core.forbid(my_gqa, GQA_FORBIDDEN, name="my_gqa",
                why="Write the sharing yourself: repeat (or broadcast) each key/value head for "
                    "its G query heads, then softmax(q kᵀ / √d) v. scaled_dot_product_attention "
                    "(with enable_gqa) and helpers.gqa are what the check compares you with.")
    cases = _gqa_cases()
    for q, k, v in cases:
        B, H_q, T, d = q.shape
        H_kv = k.shape[1]
        G = H_q // H_kv
        kind = "MQA" if H_kv == 1 else ("MHA" if H_kv == H_q else f"GQA, G={G}")
        name = f"my_gqa(B={B}, H_q={H_q}, H_kv={H_kv}, T={T}, d={d}; {kind})"
        result = _call_gqa(my_gqa, q, k, v, name)
        if isinstance(result, (tuple, list)) and any(
                isinstance(part, (torch.Tensor, np.ndarray)) for part in result):
            core.fail(f"{name}: you returned a {type(result).__name__} of "
                      f"{len(result)}; return only the output tensor (B, H_q, T, d). (The "
                      "lesson's helper returns (out, weights); this exercise asks for out.)",
                      "llms.gqa-returned-tuple")
        want = grouped_query_attention(q, k, v)[0]
        if result is not None and not isinstance(result, torch.Tensor):
            _gqa_not_a_tensor(result, want, name)
        got = core.as_array(result, name)
        sizes = dict(B=B, H_q=H_q, H_kv=H_kv, T=T, d=d, G=G)
        if got.shape == (B, H_kv, T, d) and H_kv != H_q:
            _gqa_few_heads(got, q, k, v, name)
        if got.shape == want.shape and not _same(got, want):
            core.named_mistake(got, want, _gqa_variants(q, k, v), name)
            _gqa_head_map(got, q, k, v, name)
        core.compare(got, want, name=name, axes=GQA_AXES, sizes=sizes,
                     factors={"√d": math.sqrt(d), "G": float(G)})
    core.passed(f"my_gqa: query head h reads key/value head h // G, softmax(q kᵀ / √d) v, "
                f"for {len(cases)} shapes: GQA with G = 2, 3 and 4, MQA (H_kv = 1) and MHA")


# ------------------------------------------------------------------ ex2: KV-cache bytes

KV_FORBIDDEN = ("helpers.configs.kv_cache_bytes", "helpers.configs.kv_bytes_per_token",
                "helpers.configs.kv_values_per_token")
KV_KEYS = ("n_layers", "n_heads", "n_kv_heads", "d_model", "d_head", "window")


def _config(n_layers, n_heads, n_kv_heads, d_model, d_head, window=None) -> dict:
    return dict(n_layers=n_layers, n_heads=n_heads, n_kv_heads=n_kv_heads, d_model=d_model,
                d_head=d_head, window=window)


def _preset(name: str) -> dict:
    full = PRESETS[name].as_dict()
    return {key: full[key] for key in KV_KEYS}


# The first case's sizes are chosen so that every anticipated mistake gives its own number:
# the factors 2, n_layers = 3, G = 3, batch = 5, bytes = 4, T = 11 and d_model / d_head differ.
_KV_BASE = (_config(3, 12, 4, 72, 6), 11, 5, 4)


def _kv_cases():
    """(label, config, T, batch, bytes_per_value)."""
    window = _config(5, 6, 3, 48, 8, window=6)
    cases = [
        ("a small GQA config", *_KV_BASE),
        ("Llama-3-8B", _preset("Llama-3-8B"), 8192, 1, 2),
        ("GPT-2 small", _preset("GPT-2 small"), 1024, 8, 4),
        ("a config with a window of 6", window, 10, 3, 4),
        ("Mistral-7B-v0.1", _preset("Mistral-7B-v0.1"), 20000, 1, 2),
        ("a config with a window of 6", window, 4, 3, 4),
        ("Mistral-7B-v0.1", _preset("Mistral-7B-v0.1"), 1000, 2, 2),
        ("Llama-2-7B", _preset("Llama-2-7B"), 4096, 2, 2),
        ("a config whose d_head is not d_model / n_heads", _config(2, 8, 2, 48, 16), 7, 2, 4),
        ("an MQA config (n_kv_heads = 1)", _config(4, 8, 1, 64, 8), 9, 3, 4),
    ]
    if core.grading():  # configurations the notebook has not seen
        rng = core.rng(12)
        for n in range(2):
            n_kv = int(rng.integers(1, 17))
            n_heads = n_kv * int(rng.integers(1, 9))
            d_head = int(rng.choice([16, 32, 64, 80, 96, 128, 256]))
            window = None if n == 0 else int(rng.integers(64, 8193))
            config = _config(int(rng.integers(1, 81)), n_heads, n_kv, n_heads * d_head, d_head,
                             window)
            cases.append((f"a drawn config {n + 1}", config, int(rng.integers(1, 32769)),
                          int(rng.integers(1, 17)), int(rng.choice([1, 2, 4]))))
    return cases


def _kv_reference(config, T, batch, b) -> int:
    return kv_cache_bytes(config, T, batch, b)


def _kv_mistakes(c, T, batch, b):
    """(id, message, wrong number) of the anticipated mistakes, for one case."""
    kept = T if c["window"] is None else min(T, c["window"])
    L, H, H_kv, D, d_h = (c[key] for key in ("n_layers", "n_heads", "n_kv_heads", "d_model",
                                             "d_head"))

    def total(per_token, positions=kept):
        return per_token * positions * batch

    right = total(2 * L * H_kv * d_h * b)
    units = (("KiB", "2**10", 2**10), ("MiB", "2**20", 2**20), ("GiB", "2**30", 2**30),
             ("kB", "1e3", 1e3), ("MB", "1e6", 1e6), ("GB", "1e9", 1e9))
    mistakes = [
        ("llms.kv-only-keys",
         "you counted only the keys (or only the values): the cache holds both, a key AND a "
         "value for every kv head, layer and token, the factor 2.", right / 2),
        ("llms.kv-query-heads",
         f"you counted all n_heads = {H} heads (n_heads · d_head numbers per layer for the keys "
         f"and again for the values, as multi-head attention caches); the cache holds only the "
         f"n_kv_heads = {H_kv} key/value heads: that is the point of GQA, the G query heads of "
         "a group share one cached key and value.", total(2 * L * H * d_h * b)),
        ("llms.kv-query-heads",
         f"you counted d_model = {D} numbers per layer for the keys (and again for the values), "
         "as multi-head attention caches; with GQA only n_kv_heads · d_head = "
         f"{H_kv * d_h} are cached.", total(2 * L * D * b)),
        ("llms.kv-d-model",
         f"you used d_model = {D} where d_head = {d_h} belongs: each key/value head caches one "
         "d_head-wide key and value per token.", total(2 * L * H_kv * D * b)),
        ("llms.kv-d-head-derived",
         f"you computed the head width as d_model / n_heads = {D / H:g}; this config's heads "
         f"are d_head = {d_h} wide (some models, Gemma's among them, choose d_head freely). "
         "Read config['d_head'].", total(2 * L * H_kv * (D / H) * b) if D != H * d_h else None),
        ("llms.kv-one-layer",
         f"you counted one layer: each of the n_layers = {L} layers keeps its own keys and "
         "values.", right / L),
        ("llms.kv-forgot-batch",
         f"you counted one sequence: the batch holds batch = {batch} sequences, each with its "
         "own cache.", right / batch),
        ("llms.kv-per-token",
         "that is the cache of ONE token: multiply by the number of positions kept, "
         "min(T, window).", right / kept),
        ("llms.kv-per-token",
         "that is the cache of ONE token of one sequence: multiply by the number of positions "
         "kept, min(T, window), and by batch.", right / (kept * batch)),
        ("llms.kv-not-bytes",
         f"that is a count of numbers, not of bytes: multiply by bytes_per_value = {b}.",
         right / b),
        ("llms.kv-bits",
         "that is a count of bits, not of bytes: bytes_per_value already is the size of one "
         "number in bytes (2 for bf16), no factor 8.", right * 8),
    ]
    mistakes += [("llms.kv-unit", f"you converted to {unit}: return whole bytes (an int); "
                  f"divide by {label} only to print.", right / div) for unit, label, div in units]
    if c["window"] is None or T <= c["window"]:  # every token kept: T positions, not T ± 1
        per_token = 2 * L * H_kv * d_h * b
        mistakes.append(("llms.kv-positions-off-by-one",
                         f"you counted T + 1 = {T + 1} positions, one extra: the cache holds "
                         f"the keys and values of the T = {T} tokens processed so far (the next "
                         "token's are added when it is processed).", total(per_token, T + 1)))
        mistakes.append(("llms.kv-positions-off-by-one",
                         f"you counted T - 1 = {T - 1} positions, one short: every one of the "
                         f"T = {T} tokens, the newest included, has its keys and values in the "
                         "cache.", total(per_token, T - 1) if T > 1 else None))
    if c["window"] is not None and T > c["window"]:
        mistakes.append(("llms.kv-window-ignored",
                         f"you ignored the window: a sliding window of {c['window']} keeps only "
                         f"the last {c['window']} positions, so T = {T} tokens cache "
                         f"min(T, window) = {c['window']} positions.", total(2 * L * H_kv * d_h * b,
                                                                              T)))
    if c["window"] is not None and T > c["window"]:
        for kept_wrong in (c["window"] - 1, c["window"] + 1):
            mistakes.append(("llms.kv-window-off-by-one",
                             f"you kept {kept_wrong} positions, one off the window: a sliding "
                             f"window of {c['window']} keeps exactly the last {c['window']} "
                             "positions (the newest token is one of them).",
                             total(2 * L * H_kv * d_h * b, kept_wrong)))
    if c["window"] is not None and T < c["window"]:
        mistakes.append(("llms.kv-window-max",
                         f"you kept max(T, window) = {c['window']} positions (or the whole "
                         f"window): a sequence of T = {T} tokens, shorter than the window, has "
                         f"only {T} positions to cache; the window caps the cache, min(T, "
                         "window).", total(2 * L * H_kv * d_h * b, c["window"])))
    return mistakes


def _kv_number(result, name) -> float:
    """The student's byte count as a float, or a named failure."""
    value = result
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        value = value.item()
    elif isinstance(value, (np.ndarray, np.generic)) and np.size(value) == 1:
        value = value.item()
    if value is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        core.fail(f"{name}: return the number of bytes, one int; got "
                  f"{type(result).__name__}.", "llms.kv-not-a-number")
    return float(value)


def _kv_call(fn, config, T, batch, b, name) -> float:
    try:
        result = _call(fn, dict(config), T, batch, b, name="my_kv_cache_bytes")
    except KeyError as error:
        key = error.args[0] if error.args else "?"
        core.fail(f"{name}: config has no key {key!r}: its keys are "
                  f"{', '.join(KV_KEYS)} (n_kv_heads: the key/value heads; window: None or "
                  "the window's length).", "llms.kv-config-key")
    except AttributeError as error:
        if "dict" not in str(error):
            raise
        core.fail(f"{name}: config is a dict, so read config['n_layers'], not "
                  f"config.n_layers ({error}). (The lesson's ModelConfig has attributes; the "
                  "exercise passes its as_dict().)", "llms.kv-config-attribute")
    return _kv_number(result, name)


def _kv_laws(fn) -> None:
    """How the count scales with each size, on the first case (no window)."""
    config, T, batch, b = _KV_BASE
    name = "my_kv_cache_bytes"

    def run(T=T, batch=batch, b=b, **change):
        return _kv_call(fn, {**config, **change}, T, batch, b,
                        f"{name}(changed {', '.join(change) or 'T, batch or bytes'})")

    base = run()
    laws = [  # (what changes, the call, the factor it must give, its id when the factor is 1)
        ("T doubled", dict(T=2 * T), 2,
         "every token adds its keys and values: the cache grows like T", "llms.kv-per-token"),
        ("batch doubled", dict(batch=2 * batch), 2,
         "every sequence of the batch has its own cache", "llms.kv-forgot-batch"),
        ("n_layers doubled", dict(n_layers=2 * config["n_layers"]), 2,
         "every layer keeps its own keys and values", "llms.kv-one-layer"),
        ("bytes_per_value doubled", dict(b=2 * b), 2,
         "the cache holds numbers of bytes_per_value bytes each", "llms.kv-not-bytes"),
        ("d_head doubled (d_model unchanged)", dict(d_head=2 * config["d_head"]), 2,
         "each cached key and value is d_head wide; read d_head from the config rather than "
         "d_model / n_heads", "llms.kv-d-head-derived"),
        ("n_kv_heads halved", dict(n_kv_heads=config["n_kv_heads"] // 2), 0.5,
         "only the key/value heads are cached", "llms.kv-query-heads"),
        ("n_heads doubled (n_kv_heads unchanged)", dict(n_heads=2 * config["n_heads"]), 1,
         "query heads are never cached: only the n_kv_heads key/value heads are",
         "llms.kv-query-heads"),
        ("d_model doubled (d_head unchanged)", dict(d_model=2 * config["d_model"]), 1,
         "d_model does not enter the cache: each kv head caches d_head numbers per token",
         "llms.kv-d-model"),
    ]
    for what, change, factor, why, named in laws:
        ratio = run(**change) / base if base else float("nan")
        if not math.isclose(ratio, factor, rel_tol=1e-9):
            # a size ignored (factor 1 where it should count) or used where it has no place
            named_it = factor == 1 or math.isclose(ratio, 1.0, rel_tol=1e-9)
            diagnosis = named if named_it else "llms.kv-scaling"
            shown = f"{ratio:.4g}"
            if shown == f"{factor:g}":  # close to the factor, not equal: never "2 ... yours 2"
                shown = (f"{ratio:.9g}, not exactly {factor:g}: something is added to the "
                         "product besides the sizes multiplied")
            core.fail(f"{name}: with {what}, the cache should be multiplied by {factor:g}; "
                      f"yours is multiplied by {shown}: {why}.", diagnosis)


def _kv_offset(got, want, config, T, batch, b, name) -> None:
    """A count a few bytes off the right one: a constant added to (or left out of) the product.

    Less than one position's bytes of one layer apart, it cannot be a size counted wrong (each
    size multiplies the count), so the laws below would only report ratios that round to the
    right factor.
    """
    diff = got - want
    smallest = 2 * config["d_head"] * b  # a key and a value of one head, one layer, one token
    if diff == 0 or not abs(diff) < smallest or diff != int(diff):
        return
    diff = int(diff)
    what = f"{abs(diff)} byte{'s' if abs(diff) != 1 else ''}"
    core.fail(f"{name}: your count is {got:,.0f}, {what} {'more' if diff > 0 else 'less'} than "
              f"the right {want:,d}: a constant is {'added to' if diff > 0 else 'taken from'} "
              "the product (a + 1 or - 1 on the total?). Every size multiplies the cache: 2 · "
              "n_layers · n_kv_heads · d_head · bytes_per_value · min(T, window) · batch, "
              "with nothing added.", "generic.constant-offset")


def _kv_window_laws(fn) -> None:
    """A window caps the cache: past it, more tokens add nothing; before it, each one counts."""
    config = _config(5, 6, 3, 48, 8, window=6)
    long = [_kv_call(fn, config, T, 3, 4, f"my_kv_cache_bytes(window 6, T={T})")
            for T in (10, 20)]
    if not math.isclose(long[0], long[1]):
        core.fail(f"my_kv_cache_bytes: with a window of 6, T = 10 and T = 20 must cache the "
                  f"same 6 positions; yours grows by {long[1] / long[0]:.4g}x: the window is "
                  "ignored. A layer keeps only the last `window` positions: min(T, window).",
                  "llms.kv-window-ignored")
    short = [_kv_call(fn, config, T, 3, 4, f"my_kv_cache_bytes(window 6, T={T})")
             for T in (2, 4)]
    if not math.isclose(short[1], 2 * short[0]):
        core.fail(f"my_kv_cache_bytes: with a window of 6, T = 4 tokens cache twice what T = 2 "
                  f"cache (4 positions against 2); yours is {short[1] / short[0]:.4g}x: below "
                  "the window every token is kept, so kept = min(T, window), not the window "
                  "itself.", "llms.kv-window-max")


@core.exercise
def check_kv_cache_bytes(my_kv_cache_bytes) -> None:
    """Exercise: my_kv_cache_bytes(config, T, batch, bytes_per_value) -> bytes (int)."""
    core.forbid(my_kv_cache_bytes, KV_FORBIDDEN, name="my_kv_cache_bytes",
                why="Count the cache yourself from the config: helpers.configs is what the "
                    "check compares you with.")
    cases = _kv_cases()
    for i, (label, config, T, batch, b) in enumerate(cases):
        name = f"my_kv_cache_bytes({label}, T={T}, batch={batch}, bytes_per_value={b})"
        got = _kv_call(my_kv_cache_bytes, config, T, batch, b, name)
        want = _kv_reference(config, T, batch, b)
        if got == want:
            continue
        if got == 0 and want > 0:
            core.fail(f"{name}: your count is 0 bytes: a larger unit (KiB, MiB, GiB) rounded "
                      "down to a whole number? Return whole bytes; divide only to print.",
                      "llms.kv-unit")
        for diagnosis, message, wrong in _kv_mistakes(config, T, batch, b):
            if wrong is not None and wrong != want and math.isclose(got, wrong, rel_tol=1e-9):
                core.fail(f"{name}: {message}", diagnosis)
        _kv_offset(got, want, config, T, batch, b, name)
        if i == 0:
            _kv_laws(my_kv_cache_bytes)
        if config["window"] is not None:
            _kv_window_laws(my_kv_cache_bytes)
        sizes = {key: config[key] for key in KV_KEYS[:5]}
        core.compare(got, want, name=name, atol=0, rtol=1e-12,
                     factors={**{k: float(s) for k, s in sizes.items()}, "T": float(T),
                              "batch": float(batch), "bytes_per_value": float(b),
                              "G": config["n_heads"] / config["n_kv_heads"]})
    gib = _kv_reference(_preset("Llama-3-8B"), 8192, 1, 2) / 2**30
    core.passed(f"my_kv_cache_bytes: 2 · n_layers · n_kv_heads · d_head · bytes per kept "
                f"position, min(T, window), times batch, for {len(cases)} configs (Llama-3-8B: "
                f"{gib:g} GiB for 8192 tokens in bf16; Mistral-7B-v0.1's window caps it)")


# ------------------------------------------------------------------ ex3: the chunk's causal mask

CHUNK_FORBIDDEN = ("helpers.masks.chunk_causal_mask",)
# torch's own lower-right mask. Importing torch.nn.attention.bias (to know the object a name
# refers to) costs seconds (it loads torch._dynamo), so those names are looked for only when
# the module is loaded already or the student's code mentions it.
TORCH_CHUNK_FORBIDDEN = (
    "torch.nn.attention.bias.causal_lower_right",
    "torch.nn.attention.bias.causal_upper_left",
    "torch.nn.attention.bias.CausalBias",
)
_TORCH_CHUNK_WORDS = ("causal_lower_right", "causal_upper_left", "CausalBias", "bias")


def _code_names(fn, seen=None) -> set[str]:
    """Every name the code of fn, its nested code and the student's functions it reads uses."""
    seen = set() if seen is None else seen
    code = getattr(fn, "__code__", None)
    if code is None or id(code) in seen:
        return set()
    seen.add(id(code))
    names, stack = set(), [code]
    while stack:
        c = stack.pop()
        names |= set(c.co_names) | set(c.co_varnames) | {
            k for k in c.co_consts if isinstance(k, str)}
        stack.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    glob = getattr(fn, "__globals__", {})
    for n in list(names):
        obj = glob.get(n)
        student = getattr(obj, "__code__", None) is not None and not is_library(
            obj.__code__.co_filename)
        if student and obj is not fn:
            names |= _code_names(obj, seen)
    return names


def _mentions_torch_mask(fn) -> bool:
    if "torch.nn.attention.bias" in sys.modules:
        return True
    cells = getattr(fn, "__grade_cells__", None)
    if cells is not None:
        return any(w in cell for cell in cells for w in _TORCH_CHUNK_WORDS)
    names = _code_names(fn)
    return any(w in n for n in names for w in _TORCH_CHUNK_WORDS)


def _chunk_cases():
    cases = [(3, 7), (1, 6), (4, 4), (2, 9), (5, 8), (1, 1), (6, 7)]
    if core.grading():
        rng = core.rng(13)
        while len(cases) < 9:
            T_k = int(rng.integers(2, 17))
            case = (int(rng.integers(1, T_k + 1)), T_k)
            if case not in cases:
                cases.append(case)
    return cases


def _chunk_mask(got, name, T_q, T_k, right) -> np.ndarray:
    """The student's mask as a NumPy bool (T_q, T_k) array, or a named failure."""
    if got is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    got = got.detach().cpu().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    if got.dtype != np.bool_:
        if got.dtype.kind == "f" and np.isneginf(got).any():
            why = ("you returned an additive bias (0 / -inf floats). Return the boolean mask "
                   "itself, True = may attend.")
        else:
            why = (f"return a boolean array (True = may attend); got dtype {got.dtype}. A "
                   "comparison such as j <= i gives booleans; np.tril of ones gives 1.0 and "
                   "0.0.")
            if got.shape == right.shape and got.dtype.kind in "fiu" and np.array_equal(got,
                                                                                       right):
                why += " Your 1s and 0s are in the right places: make them booleans."
        core.fail(f"{name}: {why}", "llms.chunk-not-boolean")
    if got.shape != (T_q, T_k):
        if got.shape == (T_k, T_q) and T_q != T_k:
            core.fail(f"{name}: your mask is (T_k, T_q) = {got.shape}, transposed: one row per "
                      f"query and one column per key, (T_q, T_k) = {(T_q, T_k)}.",
                      "llms.chunk-transposed")
        if got.shape == (T_k, T_k) and T_q != T_k:
            core.fail(f"{name}: your mask is ({T_k}, {T_k}), the causal mask of the whole "
                      f"sequence: the chunk has only its T_q = {T_q} new queries, the last rows "
                      f"of that mask: return (T_q, T_k) = {(T_q, T_k)}.", "llms.chunk-shape")
        core.fail(f"{name}: expected shape (T_q, T_k) = {(T_q, T_k)}, got {got.shape}.",
                  "llms.chunk-shape")
    return got


def _chunk_properties(T_q, T_k, name):
    offset = T_k - T_q
    i = np.arange(T_q)[:, None]
    j = np.arange(T_k)[None, :]
    position = i + offset  # (T_q, 1)

    def future(got):
        got = got.astype(bool)
        bad = got & (j > position)
        if bad.any():
            r, c = (int(a[0]) for a in np.nonzero(bad))
            core.fail(f"{name}: query {r}, at position {offset + r}, reads key {c}, after it: "
                      "the future. Query i sits at position T_k - T_q + i and reads only keys "
                      "up to it.", "llms.chunk-reads-future")

    def itself(got):
        got = got.astype(bool)
        bad = ~got[np.arange(T_q), np.arange(T_q) + offset]
        if bad.any():
            r = int(np.nonzero(bad)[0][0])
            core.fail(f"{name}: query {r} cannot read its own position {offset + r}: a query "
                      "reads every key up to AND including its own position (<=, not <).",
                      "llms.chunk-excludes-self")

    def past(got):
        got = got.astype(bool)
        bad = ~got & (j < position)
        if bad.any():
            r, c = (int(a[0]) for a in np.nonzero(bad))
            last = (f" The last query sits at position {T_k - 1}, the end of the sequence: it "
                    "reads every key." if r == T_q - 1 else "")
            core.fail(f"{name}: query {r}, at position {offset + r}, cannot read key {c}, "
                      "which is before it: every earlier key (the cache and the chunk's earlier "
                      f"tokens) is readable.{last}", "llms.chunk-blocks-past")

    return (future, itself, past)


@core.exercise
def check_chunk_causal_mask(my_chunk_causal_mask) -> None:
    """Exercise: my_chunk_causal_mask(T_q, T_k) -> (T_q, T_k) bool, lower-right aligned."""
    forbidden = CHUNK_FORBIDDEN
    if _mentions_torch_mask(my_chunk_causal_mask):
        forbidden += TORCH_CHUNK_FORBIDDEN
    core.forbid(my_chunk_causal_mask, forbidden, name="my_chunk_causal_mask",
                why="Build the mask yourself from the query and key positions: the helpers "
                    "and torch's causal_lower_right are what the check compares you with.")
    cases = _chunk_cases()
    for T_q, T_k in cases:
        name = f"my_chunk_causal_mask({T_q}, {T_k})"
        want = chunk_causal_mask(T_q, T_k)
        got = _chunk_mask(_call(my_chunk_causal_mask, T_q, T_k,
                                    name="my_chunk_causal_mask"), name, T_q, T_k, want)
        offset = T_k - T_q
        i, j = np.arange(T_q)[:, None], np.arange(T_k)[None, :]
        full = offset > 0
        mistakes = [
            ("llms.chunk-top-left",
             "your triangle is aligned to the top left (np.tril(np.ones((T_q, T_k))), or "
             "is_causal=True): query i reads keys 0..i, as if the chunk started the sequence. "
             f"The chunk comes after {offset} earlier positions: query i sits at position "
             "T_k - T_q + i and reads keys 0..T_k - T_q + i (the triangle's diagonal ends in "
             "the bottom-right corner).", (j <= i) if full else None),
            ("llms.chunk-forgot-cache",
             f"your queries read only the chunk's own keys, positions {offset}..{T_k - 1}: the "
             f"{offset} earlier positions (the cache) are keys too, and every query reads them.",
             ((j >= offset) & (j <= i + offset)) if full else None),
            ("llms.chunk-flipped",
             "you flipped the top-left triangle left to right: that mirrors it (query 0 then "
             "reads only the LAST key, the future) instead of moving it. Shift it: query i "
             "reads keys 0..T_k - T_q + i, np.tril with the offset as its k.",
             np.fliplr(j <= i) if T_q > 1 else None),
            ("llms.chunk-offset-sign",
             "your offset has the wrong sign: query i reads keys 0..i - (T_k - T_q). The "
             "queries come AFTER the T_k - T_q earlier positions: query i sits at position "
             "T_k - T_q + i.", (j <= i - offset) if full else None),
            ("llms.chunk-excludes-self",
             "each query cannot read its own position (a strict < or an offset one too "
             "small): query i reads keys 0..T_k - T_q + i, its own position included.",
             j < i + offset),
            ("llms.chunk-one-ahead",
             "each query reads one key too many, the one right after its position (an offset "
             "one too large, T_k - T_q + 1): that is the next token, the future.",
             (j <= i + offset + 1) if offset + T_q < T_k + 1 and T_q > 0 else None),
            ("llms.chunk-all-true",
             "your mask allows every key: the chunk's earlier queries then read later tokens "
             "of the chunk, the future. Only the last query reads everything.",
             np.ones((T_q, T_k), bool) if T_q > 1 else None),
            ("llms.chunk-reversed",
             "your mask keeps each query's future instead of its past: query i must read keys "
             "j <= T_k - T_q + i, not j >= it.", j >= i + offset),
            ("llms.chunk-inverted",
             "your mask is inverted: True marks the blocked keys. Here True = may attend "
             "(F.scaled_dot_product_attention's convention).", ~want),
            ("llms.chunk-transposed",
             "your mask is the transpose of the right one (the upper triangle): one row per "
             "query, one column per key, and query i reads keys up to its position.",
             want.T if T_q == T_k else None),
        ]
        core.judge(got, want, name=name,
                   mistakes=[m for m in mistakes if m[2] is not None and not _same(m[2], want)],
                   properties=_chunk_properties(T_q, T_k, name), axes=("T_q", "T_k"),
                   sizes=dict(T_q=T_q, T_k=T_k))
    core.passed(f"my_chunk_causal_mask: query i at position T_k - T_q + i reads keys 0..T_k - "
                f"T_q + i, for {len(cases)} sizes incl. one decoding query (T_q = 1) and "
                "T_q = T_k (the causal mask)")


# ------------------------------------------------------------------ ex4: interpolated RoPE

ROPE_FORBIDDEN = (
    "helpers.rope_scaling.interpolated_rope_angles",
    "helpers.rope_scaling.rope_angles",
    "helpers.rope_scaling.rope_inv_frequencies",
    "helpers.rope_scaling.ntk_inv_frequencies",
    "helpers.rope_scaling.yarn_inv_frequencies",
)


def _rope_cases():
    """(positions, d, factor, base or None for the default)."""
    rng = core.rng(14)
    drawn = np.sort(rng.choice(32768, size=6, replace=False))
    cases = [
        (np.arange(8), 8, 4.0, None),
        (np.array([0, 1, 2, 1023, 2047, 4095]), 16, 2.0, 10000.0),
        (np.array([5, 0, 3, 3, 12]), 6, 3.0, 500.0),  # unordered, repeated, another base
        (np.arange(4), 2, 1.0, None),  # factor 1: plain RoPE, one pair
        (drawn, 32, 8.0, 500000.0),  # Llama 3's base
    ]
    if core.grading():
        T, half = int(rng.integers(2, 9)), int(rng.integers(1, 9))
        cases.append((np.sort(rng.choice(4096, size=T, replace=False)), 2 * half,
                      float(rng.choice([2.0, 4.0, 8.0, 16.0])), float(rng.choice([1e4, 5e5]))))
    return cases


def _angles(positions, d, factor=1.0, base=10000.0, *, exponent=None):
    i = np.arange(d // 2)
    e = -2 * i / d if exponent is None else exponent(i, d)
    return (np.asarray(positions, dtype=float) / factor)[:, None] * (base ** e)[None, :]


def _rope_mistakes(positions, d, factor, base):
    p = np.asarray(positions, dtype=float)
    right = _angles(p, d, factor, base)
    T = len(p)
    mistakes = [
        ("llms.rope-multiplied",
         f"you multiplied the positions by factor = {factor:g} instead of dividing: position "
         "interpolation squeezes the longer range back into the trained one, m / factor, so "
         "every angle stays where training put it.", _angles(p * factor, d, 1.0, base)),
        ("llms.rope-divided-twice",
         f"you divided by factor twice, the positions AND the frequencies: dividing either one "
         f"slows every angle by factor = {factor:g}; both together slow it by factor².",
         _angles(p, d, factor**2, base) if factor != 1 else None),
        ("llms.rope-not-interpolated",
         f"these are the plain RoPE angles m · θ_i: factor = {factor:g} was not used. Divide "
         "every position by factor first.", _angles(p, d, 1.0, base)),
        ("llms.rope-ntk",
         "you scaled the base (NTK-aware scaling, base · factor^(d/(d-2))) instead of dividing "
         "the positions: that is another method, which slows the low frequencies and leaves "
         "pair 0 alone. Position interpolation divides every position by factor.",
         _angles(p, d, 1.0, base * factor ** (d / (d - 2))) if d > 2 else None),
        ("llms.rope-ntk",
         "you multiplied the base by factor instead of dividing the positions: position "
         "interpolation divides every position by factor, so every pair, pair 0 included, "
         "turns factor times slower.", _angles(p, d, 1.0, base * factor)),
        ("llms.rope-exponent-i",
         "your frequencies are base^(-i/d): the exponent is -2i/d (feature 2i of d), so the "
         "frequencies fall twice as fast, down to about base^(-1) for the last pair.",
         _angles(p, d, factor, base, exponent=lambda i, d: -i / d)),
        ("llms.rope-exponent-i",
         "your frequencies are base^(-4i/d): with i already the pair's index (0..d/2-1), the "
         "exponent is -2i/d; np.arange(0, d, 2) counts in twos, so divide it by d, not d/2.",
         _angles(p, d, factor, base, exponent=lambda i, d: -4 * i / d)),
        ("llms.rope-exponent-sign",
         "your frequencies grow with the pair (base^(+2i/d)): θ_i = base^(-2i/d) falls from 1 "
         "for pair 0 to nearly 1/base for the last pair.",
         _angles(p, d, factor, base, exponent=lambda i, d: 2 * i / d)),
        ("llms.rope-precedence",
         "your θ_i is base^(-2i) / d: `base ** -np.arange(0, d, 2) / d` raises base to -2i first "
         "and divides by d after, because ** binds tighter than / (operator precedence). Put the "
         "exponent in parentheses, base ** (-np.arange(0, d, 2) / d), so that θ_i = "
         "base^(-2i/d).", p[:, None] / factor * (base ** (-2.0 * np.arange(d // 2)) / d)[None, :]),
        ("llms.rope-precedence",
         "your θ_i is base^(-2) · i / d: `base ** -2 * i / d` raises base to -2 alone, because ** "
         "binds tighter than * and / (operator precedence). Put the exponent in parentheses, "
         "base ** (-2 * i / d), so that θ_i = base^(-2i/d).",
         p[:, None] / factor * (base ** -2.0 * np.arange(d // 2) / d)[None, :]),
        ("llms.rope-base-ignored",
         f"your angles use base 10000, not the base = {base:g} you are given: read the base "
         "argument.", _angles(p, d, factor, 10000.0) if base != 10000.0 else None),
        ("llms.rope-positions-from-one",
         "your positions start at 1: the first token is position 0 (no rotation), so use the "
         "positions array as it is.", _angles(p + 1, d, factor, base)),
        ("llms.rope-positions-ignored",
         f"your angles are those of positions 0..{T - 1}, not of the positions you are given "
         f"({np.array2string(np.asarray(positions))}): use the positions array itself, not "
         "np.arange(T).",
         _angles(np.arange(T), d, factor, base) if not np.array_equal(p, np.arange(T))
         else None),
        ("llms.rope-floor-division",
         "you divided with // (floor division): position interpolation keeps fractional "
         "positions, m / factor (3 / 4 = 0.75, not 0); use /.",
         _angles(np.floor_divide(p, factor), d, 1.0, base)),
        ("llms.rope-degrees",
         "your angles are in degrees: np.sin and np.cos, and RoPE, take radians; return m · θ_i "
         "as it is.", np.degrees(right)),
        ("llms.rope-trig",
         "you returned the cosines of the angles: return the angles themselves; cos and sin of "
         "them are what RoPE rotates with.", np.cos(right)),
        ("llms.rope-trig",
         "you returned the sines of the angles: return the angles themselves; cos and sin of "
         "them are what RoPE rotates with.", np.sin(right)),
        ("llms.rope-wrapped",
         "your angles are wrapped into [0, 2π) (a modulo): the rotation is the same, but the "
         "exercise asks for the angles m · θ_i themselves.", np.mod(right, 2 * np.pi)),
    ]
    return [m for m in mistakes if m[2] is not None and not _same(m[2], right)]


def _rope_shape(got, T, d, name, right):
    half = d // 2
    if got.shape == (half, T) and half != T:
        core.fail(f"{name}: your result is (d/2, T) = {got.shape}, transposed: one row per "
                  f"position, one column per pair, (T, d/2) = {(T, half)}.",
                  "llms.rope-transposed")
    if got.shape == (T, d):
        note = ""
        if _same(got, np.repeat(right, 2, axis=1)):
            note = (" Your angles are right, each written twice: a pair's two features share "
                    "one angle, so return it once per pair.")
        core.fail(f"{name}: your result is (T, d) = {got.shape}: there is one angle per PAIR "
                  f"of features, (T, d/2) = {(T, half)}; pair i covers features 2i and "
                  f"2i+1.{note}", "llms.rope-shape")
    if got.shape != (T, half):
        core.fail(f"{name}: expected shape (T, d/2) = {(T, half)}, got {got.shape}.",
                  "llms.rope-shape")


def _rope_properties(positions, d, factor, base, name):
    p = np.asarray(positions, dtype=float)
    plain = _angles(p, d, 1.0, base)

    def position_zero(got):
        zero = np.nonzero(p == 0)[0]
        if zero.size and not np.allclose(got[zero[0]], 0.0, atol=1e-9):
            core.fail(f"{name}: row {int(zero[0])} is position 0, and its angles are not 0: "
                      "position 0 is never turned, however the positions are scaled (0 / "
                      "factor = 0).", "llms.rope-position-zero")

    def pair_zero(got):
        if not np.allclose(got[:, 0], p / factor, atol=1e-9, rtol=1e-9):
            core.fail(f"{name}: column 0 (pair 0, θ_0 = base^0 = 1) should hold the "
                      f"interpolated positions themselves, positions / factor = "
                      f"{np.array2string(p / factor, precision=3)}; yours are "
                      f"{np.array2string(got[:, 0], precision=3)}.{pairs_shifted(got)}",
                      "llms.rope-pair-zero")

    def pairs_shifted(got):
        """Column 0 is pair s's angle: the pairs are counted from s (an off by one)."""
        rows = p != 0
        if not rows.any():
            return ""
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = got[rows, 0] / (p[rows] / factor)
        if not np.allclose(ratio, ratio[0], rtol=1e-6) or not 0 < ratio[0] < 1:
            return ""
        shift = -math.log(ratio[0], base) * d / 2  # ratio = base^(-2s/d)
        if abs(shift - round(shift)) > 1e-6 or round(shift) < 1:
            return ""
        s = round(shift)
        return (f" Yours is θ_{s} = base^(-{2 * s}/d) times that: your pairs are counted from "
                f"i = {s}, an off by one in the pair index. The first pair is i = 0 (features 0 "
                "and 1, θ_0 = 1): np.arange(d // 2), or np.arange(0, d, 2) for 2i, starts at "
                "0.")

    def every_pair(got):
        if factor == 1.0:
            return
        rows = p != 0
        if not rows.any():
            return
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = got[rows] / plain[rows]
        slowed = np.all(np.isclose(ratio, 1 / factor, rtol=1e-6), axis=0)
        if not slowed.all():
            plain_cols = np.all(np.isclose(ratio, 1.0, rtol=1e-6), axis=0)
            if (slowed | plain_cols).all():
                core.fail(f"{name}: pairs {_heads(np.nonzero(slowed)[0].tolist())} are "
                          "interpolated, but pairs "
                          f"{_heads(np.nonzero(plain_cols)[0].tolist())} keep their plain "
                          "angles: position interpolation divides the position, so every "
                          "pair turns factor times slower.", "llms.rope-some-pairs")

    def frequencies(got):
        if d < 4 or not (p != 0).any():
            return
        row = int(np.argmax(np.abs(p)))
        with np.errstate(divide="ignore", invalid="ignore"):
            step = got[row, 1:] / got[row, :-1]
        want = base ** (-2 / d)
        if not np.allclose(step, want, rtol=1e-6):
            core.fail(f"{name}: from one pair to the next the angle should shrink by the same "
                      f"factor base^(-2/d) = {want:.4g} (θ_i = base^(-2i/d)); yours shrink "
                      f"by {np.array2string(step[:3], precision=4)}...: check the exponent.",
                      "llms.rope-frequencies")

    return (position_zero, every_pair, pair_zero, frequencies)


def _rope_call(fn, args, name):
    """core.call, naming an in-place division of the int positions (`positions /= factor`):
    NumPy refuses to store its float result in an int array, which says nothing of the cause."""
    try:
        return _call(fn, *args, name="my_interpolated_rope_angles")
    except TypeError as error:
        said = str(error)
        if "Cannot cast ufunc" not in said or "same_kind" not in said:
            raise
        positions, *rest = args
        try:  # the same call on float positions: is it the argument that is changed?
            _call(fn, np.asarray(positions, dtype=float), *rest,
                      name="my_interpolated_rope_angles")
        except core.CheckFailed as changed:
            if changed.diagnosis != "generic.input-modified":
                raise
            core.fail(f"{name}: your function changes its argument `positions` in place (an "
                      "in-place operation such as positions /= factor): on these int "
                      f"positions NumPy cannot store the float result ({type(error).__name__}: "
                      f"{said}), and on float positions it overwrites the caller's array. Make "
                      "a new array: positions / factor.", "generic.input-modified")
        except Exception:  # noqa: BLE001 - the float positions do not explain it: say so
            pass
        core.fail(f"{name}: your function raised {type(error).__name__} ({said}): an in-place "
                  "operation (x /= ..., x *= ..., or out=) on an int array, such as "
                  "np.arange(0, d, 2), cannot hold a float result. Make a new array instead "
                  "(x = x / d), or start from floats (np.arange(0, d, 2, dtype=float)).",
                  "llms.rope-int-in-place")


@core.exercise
def check_interpolated_rope_angles(my_interpolated_rope_angles) -> None:
    """Exercise: my_interpolated_rope_angles(positions, d, factor, base) -> (T, d/2) angles."""
    core.forbid(my_interpolated_rope_angles, ROPE_FORBIDDEN, name="my_interpolated_rope_angles",
                why="Write the frequencies and the angles yourself with NumPy: "
                    "helpers.rope_scaling is what the check compares you with.")
    cases = _rope_cases()
    for positions, d, factor, base in cases:
        shown = np.array2string(positions, separator=", ", threshold=8)
        args = (positions, d, factor) if base is None else (positions, d, factor, base)
        name = (f"my_interpolated_rope_angles({shown}, d={d}, factor={factor:g}"
                + ("" if base is None else f", base={base:g}") + ")")
        base = 10000.0 if base is None else base
        got = core.as_array(_rope_call(my_interpolated_rope_angles, args, name), name)
        want = interpolated_rope_angles(positions, d, factor, base)
        _rope_shape(got, len(positions), d, name, want)
        core.judge(got, want, name=name, mistakes=_rope_mistakes(positions, d, factor, base),
                   properties=_rope_properties(positions, d, factor, base, name),
                   axes=("T", "d/2"), sizes=dict(T=len(positions), half=d // 2, d=d),
                   factors={"factor": factor, "180/π": 180 / math.pi})
    core.passed(f"my_interpolated_rope_angles: (positions / factor) · base^(-2i/d), for "
                f"{len(cases)} cases: factors 1 to 8, bases 500 to 500000, positions past 4096 "
                "and out of order")


# ------------------------------------------------------------------ ex5: one row's backward

ROW_FORBIDDEN = (
    "helpers.streaming.row_backward",
    "helpers.streaming.attention_backward",
    "torch.autograd",
    "torch.autograd.grad",
    "torch.Tensor.backward",
    "torch.func.grad",
    "torch.func.vjp",
    "torch.func.jacrev",
    "torch.func.jacfwd",
)
ROW_PARTS = ("dq", "dk", "dv")


def _row_cases():
    """(q, k, v, lse, d_out) for T, d, d_v = (5, 4, 3), one key, (6, 8, 5), square, (7, 2, 6)."""
    rng = core.rng(15)
    sizes = [(5, 4, 3), (1, 3, 2), (6, 8, 5), (4, 4, 4), (7, 2, 6)]
    if core.grading():
        sizes.append(tuple(int(n) for n in rng.integers(2, 9, size=3)))
    cases = []
    for T, d, d_v in sizes:
        q = rng.normal(size=d) * 1.5
        k = rng.normal(size=(T, d))
        v = rng.normal(size=(T, d_v))
        d_out = rng.normal(size=d_v)
        s = k @ q / math.sqrt(d)
        lse = float(s.max() + np.log(np.exp(s - s.max()).sum()))
        cases.append((q, k, v, lse, d_out))
    return cases


def _row_variants(q, k, v, lse, d_out):
    """{key: (dq, dk, dv)} of the anticipated mistakes, each changing one step."""
    d = q.shape[0]
    scale = 1 / math.sqrt(d)
    s = k @ q * scale

    def grads(p=None, ds=None, g_scale=scale, dk_from=q):
        p = np.exp(s - lse) if p is None else p
        dp = v @ d_out
        ds = p * (dp - p @ dp) if ds is None else ds(p, dp)
        return g_scale * ds @ k, g_scale * ds[:, None] * dk_from, p[:, None] * d_out[None, :]

    with np.errstate(over="ignore", invalid="ignore"):
        variants = {
            "no scale": grads(g_scale=1.0),
            "scale twice": grads(g_scale=scale**2),
            "term missing": grads(ds=lambda p, dp: p * dp),
            "p missing": grads(ds=lambda p, dp: dp - p @ dp),
            "D unweighted": grads(ds=lambda p, dp: p * (dp - dp.sum())),
            "D mean": grads(ds=lambda p, dp: p * (dp - dp.mean())),
            "sign": grads(ds=lambda p, dp: p * (p @ dp - dp)),
            "no lse": grads(p=np.exp(s)),
            "lse added": grads(p=np.exp(s + lse)),
            "divided by lse": grads(p=np.exp(s) / lse),
            "unscaled scores": grads(p=np.exp(k @ q - lse)),
            "dk from k": grads(dk_from=k),
        }
    return variants


ROW_MESSAGES = {
    "no scale": ("llms.row-no-scale",
                 "dq and dk lack the scale: s_j = q · k_j / √d, so ds flows back to q and k "
                 "multiplied by 1/√d (dq = Σ_j ds_j k_j / √d, dk_j = ds_j q / √d)."),
    "scale twice": ("llms.row-scale-twice",
                    "dq and dk carry the scale twice (1/d): the scores are q · k_j / √d, one "
                    "factor 1/√d; if your ds already includes it, do not multiply again."),
    "term missing": ("llms.row-softmax-term-missing",
                     "your ds is p ⊙ dp: the softmax's backward has a second term, the one "
                     "that keeps the weights summing to 1: ds_j = p_j (dp_j - Σ_l p_l dp_l)."),
    "p missing": ("llms.row-softmax-p-missing",
                  "your ds is dp - Σ_l p_l dp_l without the leading p_j: through the softmax, "
                  "ds_j = p_j (dp_j - Σ_l p_l dp_l)."),
    "D unweighted": ("llms.row-d-unweighted",
                     "you subtracted the plain sum of dp (or its mean) instead of the weighted "
                     "one: ds_j = p_j (dp_j - D) with D = Σ_l p_l dp_l = d_out · o."),
    "D mean": ("llms.row-d-unweighted",
               "you subtracted the plain mean of dp instead of the weighted sum: ds_j = "
               "p_j (dp_j - D) with D = Σ_l p_l dp_l = d_out · o, weighted by p."),
    "sign": ("llms.row-sign",
             "dq and dk have the sign flipped: ds_j = p_j (dp_j - D), not p_j (D - dp_j)."),
    "no lse": ("llms.row-lse-not-subtracted",
               "your weights are exp(s_j), never normalised: the forward pass kept lse = log "
               "Σ exp(s) exactly so that p_j = exp(s_j - lse); subtract it."),
    "lse added": ("llms.row-lse-not-subtracted",
                  "your weights are exp(s_j + lse): subtract the log-sum-exp, p_j = "
                  "exp(s_j - lse), so that the weights sum to 1."),
    "divided by lse": ("llms.row-lse-not-subtracted",
                       "your weights are exp(s_j) / lse: lse is a LOG, log Σ exp(s), so "
                       "p_j = exp(s_j) / exp(lse) = exp(s_j - lse)."),
    "dk from k": ("llms.row-dk-uses-k",
                  "your dk_j is ds_j times k_j: the score s_j = q · k_j / √d changes with k_j "
                  "in the direction of q, so dk_j = ds_j q / √d (and dq, the other way round, "
                  "sums ds_j k_j)."),
    "unscaled scores": ("llms.row-scores-unscaled",
                        "you recomputed the scores without the scale: s_j = q · k_j / √d, the "
                        "scores the forward pass took lse of; exp(q · k_j - lse) are not the "
                        "weights."),
}


def _row_shapes(got, q, k, v, name):
    """Named shape mistakes of dq, dk, dv (transposed, per key instead of summed)."""
    T, d = k.shape
    d_v = v.shape[1]
    dq, dk, dv = got
    if dk.shape == (d, T) and d != T:
        core.fail(f"{name}: dk is (d, T) = {dk.shape}, the outer product the wrong way round: "
                  "dk_j = scale · ds_j q, one row per key, (T, d).",
                  "llms.row-dk-transposed")
    if dv.shape == (d_v, T) and d_v != T:
        core.fail(f"{name}: dv is (d_v, T) = {dv.shape}, the outer product the wrong way round: "
                  "dv_j = p_j d_out, one row per key, (T, d_v).",
                  "llms.row-dv-transposed")
    if dq.shape == (T, d):
        core.fail(f"{name}: dq is (T, d) = {dq.shape}, one row per key: q meets every key, so "
                  "its gradient is the SUM over the keys, dq = scale · Σ_j ds_j k_j, shape "
                  f"(d,) = {(d,)}.", "llms.row-dq-not-summed")


def _row_properties(got, q, k, v, lse, d_out, name):
    """dv = p ⊗ d_out with weights that sum to 1; the rows of dk sum to zero."""
    dq, dk, dv = got
    T = k.shape[0]
    if dv.shape == (T, v.shape[1]) and d_out @ d_out > 0:
        p = dv @ d_out / (d_out @ d_out)  # the weights dv = p ⊗ d_out holds
        if _same(dv, p[:, None] * d_out[None, :]) and not np.isclose(p.sum(), 1.0):
            core.fail(f"{name}: your dv is p ⊗ d_out with weights p that sum to {p.sum():.4g}, "
                      "not 1: the weights are p_j = exp(s_j - lse), with s_j = q · k_j / √d, "
                      "the normalised softmax the forward pass used.",
                      "llms.row-weights-not-normalised")
    if dk.shape == k.shape and np.isfinite(dk).all():
        total = dk.sum(axis=0)
        if not np.allclose(total, 0.0, atol=1e-9):
            core.fail(f"{name}: the rows of your dk sum to "
                      f"{np.array2string(total, precision=3)}, not 0. Adding the same number to "
                      "every score leaves the softmax unchanged, so Σ_j ds_j = 0 and Σ_j dk_j = "
                      "0: the softmax's backward is ds_j = p_j (dp_j - Σ_l p_l dp_l).",
                      "llms.row-ds-not-zero-sum")


@core.exercise
def check_row_backward(my_row_backward) -> None:
    """Exercise: my_row_backward(q, k, v, lse, d_out) -> (dq (d,), dk (T, d), dv (T, d_v))."""
    core.forbid(my_row_backward, ROW_FORBIDDEN, name="my_row_backward",
                why="Work the gradients out by hand with NumPy (no autograd): "
                    "helpers.streaming's backward is what the check compares you with.")
    cases = _row_cases()
    for q, k, v, lse, d_out in cases:
        T, d = k.shape
        d_v = v.shape[1]
        name = f"my_row_backward(T={T}, d={d}, d_v={d_v})"
        with np.errstate(over="ignore", invalid="ignore"):
            result = _call(my_row_backward, q, k, v, lse, d_out, name="my_row_backward")
        parts = core.unpack(result, ROW_PARTS, name=name)
        got = tuple(core.as_array(g, f"{name}: {p}") for g, p in zip(parts, ROW_PARTS,
                                                                       strict=True))
        want = row_backward(q, k, v, lse, d_out)
        if all(_same(g, w) for g, w in zip(got, want, strict=True)):
            core.compare_tuple(got, want, ROW_PARTS, name=name)
            continue
        for order in itertools.permutations(range(3)):
            if order != (0, 1, 2) and all(_same(got[i], want[o]) for i, o in enumerate(order)):
                core.fail(f"{name}: you returned ({', '.join(ROW_PARTS[o] for o in order)}); the "
                          "exercise asks for (dq, dk, dv), in that order.", "generic.tuple-order")
        _row_shapes(got, q, k, v, name)
        for key, wrong in _row_variants(q, k, v, lse, d_out).items():
            if all(_same(g, w) for g, w in zip(got, wrong, strict=True)) and not all(
                    _same(w, r) for w, r in zip(wrong, want, strict=True)):
                diagnosis, message = ROW_MESSAGES[key]
                core.fail(f"{name}: {message}", diagnosis)
        dv_mistakes = [
            ("llms.row-dv-unweighted",
             "dv is d_out in every row: each value v_j reaches the output weighted by p_j, so "
             "dv_j = p_j d_out.", np.tile(d_out, (T, 1))),
            ("llms.row-dv-transposed",
             "dv is the outer product the wrong way round (d_out ⊗ p): dv_j = p_j d_out, one "
             "row per key.", want[2].T if T == d_v else None),
        ]
        dk_mistakes = [
            ("llms.row-dk-transposed",
             "dk is the outer product the wrong way round (q ⊗ ds): dk_j = scale · ds_j q, one "
             "row per key.", want[1].T if T == d else None),
        ]
        dv_named = [m for m in dv_mistakes if m[2] is not None]
        dk_named = [m for m in dk_mistakes if m[2] is not None]
        core.named_mistake(got[2], want[2], dv_named, f"{name}: dv")
        core.named_mistake(got[1], want[1], dk_named, f"{name}: dk")
        _row_properties(got, q, k, v, lse, d_out, name)
        axes = {"dq": ("d",), "dk": ("T", "d"), "dv": ("T", "d_v")}
        core.compare_tuple(got, want, ROW_PARTS, name=name,
                           sizes=dict(T=T, d=d, d_v=d_v),
                           factors={"√d": math.sqrt(d), "d": float(d)},
                           per_part={"dq": dict(axes=axes["dq"]),
                                     "dk": dict(axes=axes["dk"], mistakes=dk_named),
                                     "dv": dict(axes=axes["dv"], mistakes=dv_named)})
    core.passed(f"my_row_backward: dv = p ⊗ d_out, ds = p ⊙ (dp - p · dp), dq = ds k / √d, "
                f"dk = ds ⊗ q / √d from p = exp(s - lse), for {len(cases)} rows incl. one key "
                "and T = d = d_v")



# ------------------------------------------------------------------ ex6: Llama 3.1's frequencies

LLAMA3_FORBIDDEN = (
    "helpers.rope_scaling.llama3_inv_frequencies",
    "helpers.rope_scaling.llama3_scaled",
    "helpers.rope_scaling.yarn_inv_frequencies",
    "helpers.rope_scaling.yarn_ramp",
)
LLAMA3_DEFAULTS = dict(factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192)


def _llama3_cases():
    """(label, inv_freq, keyword arguments or None for the defaults)."""
    hand = 2 * np.pi / np.array([6.0, 100.0, 2048.0, 3000.0, 5000.0, 8192.0, 20000.0, 1e6])
    cases = [
        ("Llama 3.1's: d = 128, base 500000, the defaults", rope_inv_frequencies(128, 5e5), None),
        ("d = 64, base 10000, factor 4, original_max_len 2048", rope_inv_frequencies(64, 1e4),
         dict(factor=4.0, original_max_len=2048)),
        ("d = 32, base 10000, factor 16, low 2, high 8, original_max_len 4096",
         rope_inv_frequencies(32, 1e4),
         dict(factor=16.0, low_freq_factor=2.0, high_freq_factor=8.0, original_max_len=4096)),
        ("wavelengths 6 to 1e6 positions, on both thresholds", hand, dict(LLAMA3_DEFAULTS)),
        ("float32 frequencies, d = 16, original_max_len 256", rope_inv_frequencies(16, 5e5)
         .astype(np.float32), dict(factor=2.0, low_freq_factor=1.0, high_freq_factor=3.0,
                                   original_max_len=256)),
    ]
    if core.grading():
        rng = core.rng(16)
        d = 2 * int(rng.integers(4, 33))
        low = float(rng.choice([1.0, 2.0]))
        cases.append(("a drawn case", rope_inv_frequencies(d, float(rng.choice([1e4, 5e5]))),
                      dict(factor=float(rng.choice([2.0, 4.0, 8.0])), low_freq_factor=low,
                           high_freq_factor=low * float(rng.choice([2.0, 4.0])),
                           original_max_len=int(rng.choice([1024, 4096, 8192])))))
    return cases


def _llama3(theta, factor, low_freq_factor, high_freq_factor, original_max_len, *, lam=None,
            smooth=None, fast=None, slow=None, band=None, fast_at=None, slow_at=None):
    """The rule with one step replaced (a mistake's value); every default gives the right one."""
    theta = np.asarray(theta, dtype=float)
    L, lo, hi = original_max_len, low_freq_factor, high_freq_factor
    lam = 2 * np.pi / theta if lam is None else lam(theta)
    s = (L / lam - lo) / (hi - lo) if smooth is None else smooth(lam)
    fast_v = theta if fast is None else fast(theta)
    slow_v = theta / factor if slow is None else slow(theta)
    band_v = (1 - s) * theta / factor + s * theta if band is None else band(theta, s)
    fast_at = L / hi if fast_at is None else fast_at
    slow_at = L / lo if slow_at is None else slow_at
    return np.where(lam < fast_at, fast_v, np.where(lam > slow_at, slow_v, band_v))


def _llama3_mistakes(theta, f, lo, hi, L):
    k = (theta, f, lo, hi, L)
    right = llama3_scaled(theta, f, L, lo, hi)
    mistakes = [
        ("llms.llama3-thresholds-swapped",
         "your thresholds are swapped: a pair is fast (kept) when its wavelength is shorter "
         "than original_max_len / high_freq_factor, the SHORTER threshold (8192 / 4 = 2048 by "
         "default), and slow (divided by factor) when it is longer than original_max_len / "
         "low_freq_factor (8192 by default).",
         _llama3(*k, fast_at=L / lo, slow_at=L / hi)),
        ("llms.llama3-branches-inverted",
         "your fast and slow pairs are the wrong way round: the fast pairs (short wavelengths, "
         "the first pairs) turn many times within the trained context and are KEPT; the slow "
         "pairs (long wavelengths) are the ones divided by factor.",
         _llama3(*k, fast=lambda t: t / f, slow=lambda t: t)),
        ("llms.llama3-blend-inverted",
         "your blend is the wrong way round: θ' = (1 − smooth) · θ / factor + smooth · θ, so "
         "smooth = 1 (at the fast threshold) keeps θ and smooth = 0 (at the slow one) gives "
         "θ / factor; yours jumps at both thresholds.",
         _llama3(*k, band=lambda t, s: s * t / f + (1 - s) * t)),
        ("llms.llama3-multiplied",
         "you multiplied by factor instead of dividing: the slow pairs' frequencies become "
         "θ / factor (their wavelengths factor times LONGER), so that factor times more "
         "positions fit in the angles training saw.",
         _llama3(*k, slow=lambda t: t * f, band=lambda t, s: (1 - s) * t * f + s * t)),
        ("llms.llama3-frequency-as-wavelength",
         "your frequencies are the ones you were given: nothing was scaled. Comparing the "
         "frequencies θ_i themselves with the thresholds does that (every θ_i is below 2048, "
         "so every pair looks fast): the rule is about wavelengths, λ_i = 2π / θ_i (positions "
         "per full turn); compute them first, and divide the slow pairs by factor.",
         _llama3(*k, lam=lambda t: t)),
        ("llms.llama3-no-two-pi",
         "your wavelengths are 1 / θ_i: a full turn is 2π radians, so λ_i = 2π / θ_i.",
         _llama3(*k, lam=lambda t: 1 / t)),
        ("llms.llama3-smooth-inverted",
         "your smooth uses λ_i / original_max_len: smooth = (original_max_len / λ_i − "
         "low_freq_factor) / (high_freq_factor − low_freq_factor), the number of turns a pair "
         "makes over the trained context.",
         _llama3(*k, smooth=lambda lam: (lam / L - lo) / (hi - lo))),
        ("llms.llama3-smooth-denominator",
         "your smooth is divided by (low_freq_factor − high_freq_factor), a negative number: "
         "the denominator is high_freq_factor − low_freq_factor, so that smooth runs from 0 at "
         "the slow threshold to 1 at the fast one.",
         _llama3(*k, smooth=lambda lam: (L / lam - lo) / (lo - hi))),
        ("llms.llama3-no-blend",
         "the pairs between the thresholds keep their θ: they are blended, θ' = (1 − smooth) · "
         "θ / factor + smooth · θ.", _llama3(*k, band=lambda t, s: t)),
        ("llms.llama3-no-blend",
         "the pairs between the thresholds are divided by factor like the slow ones: they are "
         "blended, θ' = (1 − smooth) · θ / factor + smooth · θ.",
         _llama3(*k, band=lambda t, s: t / f)),
        ("llms.llama3-every-pair-divided",
         "you divided every frequency by factor: that is position interpolation. The llama3 "
         "rule keeps the fast pairs (wavelength < original_max_len / high_freq_factor) and "
         "blends those between the thresholds.", theta / f),
        ("llms.llama3-wavelengths-returned",
         "you returned wavelengths (2π / θ'), not frequencies: return θ' itself.",
         2 * np.pi / right),
    ]
    return [m for m in mistakes if not _same(m[2], right)]


def _llama3_regions(got, theta, f, lo, hi, L, name):
    """Name the region (fast, blended, slow) where the student's frequencies go wrong."""
    want = llama3_scaled(theta, f, L, lo, hi)
    lam = 2 * np.pi / theta
    regions = (
        ("fast", lam < L / hi, "llms.llama3-fast-pairs",
         f"a wavelength shorter than original_max_len / high_freq_factor = {L / hi:g}: these "
         "pairs are kept, θ' = θ"),
        ("slow", lam > L / lo, "llms.llama3-slow-pairs",
         f"a wavelength longer than original_max_len / low_freq_factor = {L / lo:g}: these "
         "pairs are divided, θ' = θ / factor"),
        ("in-between", (lam >= L / hi) & (lam <= L / lo), "llms.llama3-blend",
         f"a wavelength between {L / hi:g} and {L / lo:g}: these pairs are blended, θ' = (1 − "
         "smooth) · θ / factor + smooth · θ with smooth = (original_max_len / λ − "
         "low_freq_factor) / (high_freq_factor − low_freq_factor)"),
    )
    for label, where, diagnosis, rule in regions:
        bad = where & ~np.isclose(got, want, rtol=1e-6, atol=0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            core.fail(f"{name}: pairs {_heads(np.flatnonzero(bad).tolist())} are wrong, "
                      f"{label} pairs with {rule}. Pair {i} (θ = {theta[i]:.6g}, λ = "
                      f"{lam[i]:.6g}): yours {got[i]:.6g}, θ'/θ = {got[i] / theta[i]:.4g}; "
                      f"expected {want[i]:.6g}, θ'/θ = {want[i] / theta[i]:.4g}.", diagnosis)


def _llama3_ignored(got, want, theta, k, name):
    """Name the arguments the student's function does not read (their defaults used instead)."""
    if _same(got, want):
        return
    differ = [a for a in LLAMA3_DEFAULTS if k[a] != LLAMA3_DEFAULTS[a]]
    for r in range(1, len(differ) + 1):
        for ignored in itertools.combinations(differ, r):
            used = {**k, **{a: LLAMA3_DEFAULTS[a] for a in ignored}}
            if _same(got, llama3_scaled(theta, used["factor"], used["original_max_len"],
                                        used["low_freq_factor"], used["high_freq_factor"])):
                said = ", ".join(f"{a}={k[a]:g} (you used {LLAMA3_DEFAULTS[a]:g})"
                                 for a in ignored)
                core.fail(f"{name}: your result is the rule with Llama 3.1's numbers, not the "
                          f"arguments you were given: {said}. Read every argument; the "
                          "defaults are only for a call that leaves it out.",
                          "llms.llama3-argument-ignored")


@core.exercise
def check_llama3_frequencies(my_llama3_frequencies) -> None:
    """Exercise: my_llama3_frequencies(inv_freq, factor, low, high, original_max_len) -> θ'."""
    name0 = "my_llama3_frequencies"
    core.forbid(my_llama3_frequencies, LLAMA3_FORBIDDEN, name=name0,
                why="Write the rule yourself with NumPy: helpers.rope_scaling is what the check "
                    "compares you with.")
    cases = _llama3_cases()
    for label, theta, kwargs in cases:
        name = f"{name0}({label})"
        given = {} if kwargs is None else kwargs
        k = {**LLAMA3_DEFAULTS, **given}
        f, lo, hi, L = (k["factor"], k["low_freq_factor"], k["high_freq_factor"],
                        k["original_max_len"])
        result = core.call(my_llama3_frequencies, theta, name=name0, returns="numpy", **given)
        if result is not None and not isinstance(result, np.ndarray):
            core.fail(f"{name}: you returned a {type(result).__name__}; the exercise asks for a "
                      "new NumPy array (np.array(...) of a list, or np.where, makes one).",
                      "generic.wrong-type")
        got = core.as_array(result, name)
        want = llama3_scaled(theta, f, L, lo, hi)
        if got.shape != want.shape:
            core.fail(f"{name}: expected one frequency per pair, shape {want.shape}; got "
                      f"{got.shape}.", "llms.llama3-shape")
        if kwargs is None and not _same(got, want):
            spelled = core.call(my_llama3_frequencies, theta, name=name0, **LLAMA3_DEFAULTS)
            if isinstance(spelled, np.ndarray) and _same(core.as_array(spelled, name), want):
                core.fail(f"{name}: called with no keyword arguments, your function does not "
                          "use the defaults of the exercise, factor=8.0, low_freq_factor=1.0, "
                          "high_freq_factor=4.0, original_max_len=8192 (Llama 3.1's).",
                          "llms.llama3-defaults")
        _llama3_ignored(got, want, theta, k, name)
        core.judge(got, want, name=name, mistakes=_llama3_mistakes(theta, f, lo, hi, L),
                   properties=(lambda g, t=theta, a=(f, lo, hi, L), n=name:
                               _llama3_regions(g, t, *a, n),),
                   rtol=1e-6, atol=0)
    core.passed(f"{name0}: fast pairs kept, slow pairs / factor, the blend in between, for "
                f"{len(cases)} cases incl. Llama 3.1's 64 pairs, wavelengths on both "
                "thresholds and float32")


# ------------------------------------------------------------------ ex7: a paged lookup

PAGED_FORBIDDEN = (
    "helpers.paged.PagedKVCache",
    "helpers.paged.paged_attention",
    "helpers.paged.BlockAllocator",
)


def _slot_cases():
    """(block_table, block_size)."""
    cases = [([3, 0, 5], 4), ([1, 0], 1), ([7, 2], 16), ([4, 9, 2, 6, 0], 3)]
    if core.grading():
        rng = core.rng(17)
        n = int(rng.integers(2, 6))
        cases.append(([int(b) for b in rng.permutation(12)[:n]], int(rng.integers(2, 9))))
    return cases


def _slot_number(result, name) -> int:
    if result is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    if isinstance(result, (tuple, list)):
        core.fail(f"{name}: you returned {type(result).__name__} {result!r}: return ONE int, "
                  "the slot's index in the pool, physical block × block_size + offset.",
                  "llms.paged-slot-not-an-int")
    if isinstance(result, torch.Tensor) and result.ndim == 0 and not result.is_floating_point():
        core.fail(f"{name}: you returned a 0-d tensor ({result!r}); the exercise asks for an "
                  "int: int(...) or .item() turns it into one.", "llms.paged-slot-not-an-int")
    if isinstance(result, int) and not isinstance(result, bool):
        return result
    if isinstance(result, np.integer):
        core.fail(f"{name}: you returned a NumPy {result.dtype} ({result!r}); the exercise asks "
                  "for an int: int(...) turns it into a Python int.",
                  "llms.paged-slot-not-an-int")
    if isinstance(result, (float, np.floating)) or (
            isinstance(result, torch.Tensor) and result.is_floating_point()):
        core.fail(f"{name}: you returned a float ({result!r}): a slot is an index, an int. "
                  "Divide with // (floor division) and take the rest with % (or divmod).",
                  "llms.paged-true-division")
    core.fail(f"{name}: return the slot as an int; got {type(result).__name__}.",
              "llms.paged-slot-not-an-int")


def _slot_call(fn, table, bs, position, name):
    try:
        return _slot_number(core.call(fn, table, bs, position, name="my_slot_of"), name)
    except IndexError as error:
        core.fail(f"{name}: your function raised IndexError ({error}), but position {position} "
                  f"is offset {position % bs} of logical block {position // bs}, and the table "
                  f"has blocks 0..{len(table) - 1}. The logical block is position // "
                  "block_size (floor division: the whole blocks before it) and the offset "
                  "position % block_size; raise IndexError only past the table.",
                  "llms.paged-index-error-in-table")
    except TypeError as error:
        if "indices must be integers" not in str(error):
            raise
        core.fail(f"{name}: your function raised TypeError ({error}): a float indexed the "
                  "table. position / block_size is a float in Python 3; the logical block is "
                  "position // block_size (floor division).", "llms.paged-true-division")


def _slot_mistakes(table, bs, positions):
    """(id, message, slots of every position) of the anticipated mistakes."""
    p = np.asarray(positions)
    blk, off = p // bs, p % bs
    t = np.asarray(table)
    return [
        ("llms.paged-slot-no-block-size",
         "you added the offset to the physical block number itself: slots are counted in the "
         "pool, block_size per block, so the slot is physical block × block_size + offset.",
         t[blk] + off),
        ("llms.paged-slot-logical",
         "you returned the logical position: the point of the block table is that logical "
         "block b lives in physical block block_table[b], anywhere in the pool.", p),
        ("llms.paged-slot-block-only",
         "you returned the physical block, not the slot: add the offset in the block, physical "
         "block × block_size + position % block_size.", t[blk]),
        ("llms.paged-slot-block-only",
         "you returned the first slot of the physical block (physical block × block_size): add "
         "the offset in the block, position % block_size.", t[blk] * bs),
        ("llms.paged-slot-offset-swapped",
         "you swapped the block and the offset: the logical block is position // block_size "
         "(which block) and the offset position % block_size (where in it).",
         np.where(off < len(t), t[np.minimum(off, len(t) - 1)] * bs + blk, -1)),
        ("llms.paged-slot-off-by-one",
         "your slot is one block too far: the table counts logical blocks from 0, and "
         "physical block b starts at slot b × block_size (block 0 at slot 0).",
         (t[blk] + 1) * bs + off),
    ]


def _check_slots(fn, table, bs, name0):
    positions = list(range(len(table) * bs))
    name = f"{name0}(block_table={table}, block_size={bs}, position)"
    got = np.array([_slot_call(fn, table, bs, q, f"{name0}({table}, {bs}, {q})")
                    for q in positions])
    want = np.array([table[q // bs] * bs + q % bs for q in positions])
    if np.array_equal(got, want):
        return
    for diagnosis, message, wrong in _slot_mistakes(table, bs, positions):
        if np.array_equal(got, wrong):
            core.fail(f"{name}: {message}", diagnosis)
    bad = np.flatnonzero(got != want)
    q = int(bad[0])
    core.fail(f"{name}: positions {_heads(bad.tolist()[:8])}{'...' if len(bad) > 8 else ''} "
              f"get the wrong slot. Position {q} is offset {q % bs} of logical block "
              f"{q // bs}, which the table puts in physical block {table[q // bs]}: slot "
              f"{table[q // bs]} × {bs} + {q % bs} = {int(want[q])}; yours {int(got[q])}.",
              "llms.paged-slot-wrong")


def _check_index_error(fn, table, bs, name0):
    for q in (len(table) * bs, len(table) * bs + bs + 1, -1):
        name = f"{name0}({table}, {bs}, {q})"
        try:
            result = core.call(fn, table, bs, q, name=name0)
        except IndexError:
            continue
        except core.CheckFailed:
            raise
        except Exception as error:  # noqa: BLE001 - named below
            core.fail(f"{name}: position {q} is past the table's {len(table)} blocks of {bs}; "
                      f"raise IndexError, as the exercise says; yours raised "
                      f"{type(error).__name__}: {error}.", "llms.paged-no-index-error")
        if q < 0:
            core.fail(f"{name}: position {q} comes before the sequence's first position 0, so "
                      "the table has no block for it: raise IndexError. (block_table[-1] is "
                      f"Python's LAST block; yours returned {result!r}.)",
                      "llms.paged-no-index-error")
        core.fail(f"{name}: position {q} is in logical block {q // bs}, and the table has only "
                  f"blocks 0..{len(table) - 1}: raise IndexError; yours returned {result!r}.",
                  "llms.paged-no-index-error")


def _gather_cases():
    """(block_table, block_size, n_blocks, d, length)."""
    cases = [([3, 0, 5], 4, 6, 2, 9), ([1, 0], 2, 2, 3, 4), ([2, 6, 4, 1], 3, 8, 4, 10),
             ([5], 8, 6, 2, 1), ([0, 3], 4, 4, 2, 0)]
    if core.grading():
        rng = core.rng(18)
        n, bs = int(rng.integers(2, 6)), int(rng.integers(2, 6))
        cases.append(([int(b) for b in rng.permutation(10)[:n]], bs, 10, 3,
                      int(rng.integers(1, n * bs + 1))))
    return cases


def _pool(n_blocks, bs, d):
    """(n_blocks * bs, d): row r is r + 0.01 · feature, so each row names its slot."""
    r = torch.arange(n_blocks * bs, dtype=torch.float64)[:, None]
    return r + 0.01 * torch.arange(d, dtype=torch.float64)[None, :]


def _gather_diagnosis(rows, table, bs, length, name):
    """The student's rows as slots: say which positions read which slot."""
    want = [table[t // bs] * bs + t % bs for t in range(length)]
    physical_order = sorted(want)
    named = (
        ([*range(length)], "llms.paged-gather-logical",
         "you returned k_pool[:length], the pool's first rows, as if the sequence were stored "
         "contiguously: the block table says where its blocks are; position t is in slot "
         "block_table[t // block_size] × block_size + t % block_size, wherever its block is."),
        (physical_order, "llms.paged-gather-physical-order",
         "you have the right slots in the pool's (physical) order: return them in the "
         "sequence's (logical) order, logical block 0 first, as the table lists them."),
    )
    for slots, diagnosis, message in named:
        if rows == slots and slots != want:
            core.fail(f"{name}: {message}", diagnosis)
    full = [table[t // bs] * bs + t % bs for t in range(len(table) * bs)]
    if len(rows) > length and rows == full[:len(rows)]:
        core.fail(f"{name}: you returned {len(rows)} keys, every slot of the blocks that hold "
                  f"the sequence; it has {length}: keep the first `length`, the last block is "
                  "only partly filled.", "llms.paged-gather-whole-blocks")
    for t, (r, w) in enumerate(zip(rows, want, strict=False)):
        if r != w:
            core.fail(f"{name}: row {t} is slot {r}'s key; position {t} is in slot {w} "
                      f"(logical block {t // bs} → physical block {table[t // bs]}, offset "
                      f"{t % bs}).", "llms.paged-gather-wrong-slot")


@core.exercise
def check_paged_lookup(my_slot_of, my_gather_keys) -> None:
    """Exercise: my_slot_of(table, block_size, position) -> int;
    my_gather_keys(k_pool, table, block_size, length) -> (length, d)."""
    why = "Write the lookup yourself: helpers.paged is what the check compares you with."
    core.forbid(my_slot_of, PAGED_FORBIDDEN, name="my_slot_of", why=why)
    core.forbid(my_gather_keys, PAGED_FORBIDDEN, name="my_gather_keys", why=why)
    slot_cases = _slot_cases()
    for table, bs in slot_cases:
        _check_slots(my_slot_of, table, bs, "my_slot_of")
        _check_index_error(my_slot_of, table, bs, "my_slot_of")
    gather_cases = _gather_cases()
    for table, bs, n_blocks, d, length in gather_cases:
        pool = _pool(n_blocks, bs, d)
        name = (f"my_gather_keys(k_pool ({n_blocks * bs}, {d}), block_table={table}, "
                f"block_size={bs}, length={length})")
        try:
            got = core.call(my_gather_keys, pool, table, bs, length, name="my_gather_keys",
                            returns="torch")
        except RuntimeError as error:
            if length != 0:
                raise
            core.fail(f"{name}: your function raised RuntimeError ({error}) for length 0: "
                      f"return the sequence's first 0 keys, an empty ({0}, {d}) tensor "
                      "(indexing the pool with an empty list of slots gives one; torch.stack "
                      "of no tensors raises).", "llms.paged-gather-empty")
        except IndexError as error:
            core.fail(f"{name}: your function raised IndexError ({error}). The pool has "
                      f"{n_blocks} blocks × block_size {bs} = {n_blocks * bs} rows, and the "
                      f"table's blocks {table} hold every position below {len(table) * bs}: "
                      "position t is row block_table[t // block_size] × block_size + t % "
                      "block_size, with this call's block_size (is a size hard-coded, or a "
                      "block counted past the table?).", "llms.paged-gather-out-of-pool")
        want = pool[[table[t // bs] * bs + t % bs for t in range(length)]]
        if got.ndim == 3 and got.shape[-1] == d:
            core.fail(f"{name}: your result is {tuple(got.shape)}, one row of keys per block: "
                      f"return ({length}, {d}), one key per position (flatten the blocks, then "
                      "keep the first `length`).", "llms.paged-gather-shape")
        if got.ndim == 2 and got.shape[1] == d and abs(got.shape[0] - length) == 1:
            more = got.shape[0] > length
            core.fail(f"{name}: you returned {got.shape[0]} keys; the sequence's first "
                      f"length = {length} positions are 0..{length - 1}, {length} keys "
                      f"(range(length)): one key too {'many' if more else 'few'}, an off by "
                      "one.", "llms.paged-gather-off-by-one")
        if got.ndim != 2 or got.shape[1] != d:
            core.fail(f"{name}: expected shape ({length}, {d}); got {tuple(got.shape)}.",
                      "llms.paged-gather-shape")
        if got.shape == want.shape and torch.equal(got.double(), want):
            continue
        g = got.detach().double()
        rows = [round(float(x)) for x in g[:, 0]]
        if torch.allclose(g, pool[[min(max(r, 0), len(pool) - 1) for r in rows]]):
            _gather_diagnosis(rows, table, bs, length, name)
        core.compare(got, want, name=name, axes=("length", "d"))
    core.passed(f"my_slot_of and my_gather_keys: slot = block_table[t // block_size] × "
                f"block_size + t % block_size, IndexError past the table, for {len(slot_cases)} "
                f"tables; the keys of {len(gather_cases)} sequences in logical order, incl. a "
                "part-filled last block and length 0")


# ------------------------------------------------------------------ ex8: FlashDecoding's combine

COMBINE_FORBIDDEN = (
    "torch.nn.functional.scaled_dot_product_attention",
    "torch.logsumexp",
    "torch.Tensor.logsumexp",
    "helpers.streaming.combine_partials",
    "helpers.streaming.flash_decoding",
)
COMBINE_PARTS = ("out", "lse")


def _combine_cases():
    """(label, q, k, v, mask or None, chunk_size, dtype, shift): shift is added to every score
    (a softmax does not change; every log-sum-exp rises by it)."""
    rng = core.rng(19)
    cases = []

    def add(label, T_q, T_k, d, d_v, chunk, dtype=torch.float64, masked=False, shift=0.0):
        q = rng.normal(size=(T_q, d))
        k = rng.normal(size=(T_k, d))
        v = rng.normal(size=(T_k, d_v))
        mask = None
        if masked:  # query 0 may read only the last chunk's keys; the rest read all
            mask = np.ones((T_q, T_k), dtype=bool)
            mask[0, : T_k - chunk] = False
        cases.append((label, q, k, v, mask, chunk, dtype, shift))

    add("3 queries, 10 keys in chunks of 4 (the last one of 2)", 3, 10, 5, 4, 4)
    add("decoding: one query, 3 chunks of 4 keys", 1, 12, 4, 6, 4)
    add("one chunk", 2, 5, 4, 2, 8)
    add("a query whose first chunks are masked (ℓ = −inf)", 3, 12, 4, 5, 4, masked=True)
    add("float32, every score raised by 95 (exp overflows)", 2, 16, 4, 3, 4, torch.float32,
        shift=95.0)
    add("float32, query 1's scores 120 above query 0's", 2, 12, 4, 3, 4, torch.float32,
        shift=np.array([[0.0], [120.0]]))
    if core.grading():
        add("a drawn case", int(rng.integers(1, 5)), int(rng.integers(4, 20)), 4, 3,
            int(rng.integers(2, 6)))
    return cases


def _combine_inputs(q, k, v, mask, chunk, dtype, shift):
    outs, lses = chunk_partials(q, k, v, mask, chunk_size=chunk)
    shift = np.broadcast_to(shift, (q.shape[0], 1))[:, 0]  # (T_q,): one per query
    return torch.tensor(outs, dtype=dtype), torch.tensor(lses + shift, dtype=dtype)


def _combine_reference(q, k, v, mask, shift):
    """Attention over all keys at once (float64): out (T_q, d_v), lse (T_q,)."""
    s = torch.tensor(q @ k.T / math.sqrt(q.shape[-1]) + shift)
    if mask is not None:
        s = s.masked_fill(~torch.tensor(mask), -math.inf)
    top = s.max(dim=-1, keepdim=True).values
    e = torch.exp(s - top)
    return (e @ torch.tensor(v)) / e.sum(-1, keepdim=True), (top + e.sum(-1, keepdim=True)
                                                             .log())[:, 0]


def _combine_mistakes(outs, lses):
    """{key: (out, lse)} of the anticipated mistakes, on float64 inputs."""
    o, l_ = outs.double(), lses.double()
    top = l_.max(0).values
    w = torch.exp(l_ - top)
    right_out = (w[..., None] * o).sum(0) / w.sum(0)[:, None]
    right_lse = top + torch.log(w.sum(0))
    finite = torch.where(torch.isinf(l_), torch.zeros_like(l_), l_)
    return {
        "mean": (o.mean(0), right_lse),
        "sum": (o.sum(0), right_lse),
        "unnormalised": ((torch.exp(l_)[..., None] * o).sum(0), right_lse),
        "unnormalised-shifted": ((w[..., None] * o).sum(0), right_lse),
        "softmax-axis": ((torch.softmax(l_, dim=1)[..., None] * o).sum(0), right_lse),
        "linear": ((finite[..., None] * o).sum(0) / finite.sum(0)[:, None], right_lse),
        "lse-max": (right_out, top),
        "lse-sum": (right_out, finite.sum(0)),
        "lse-no-top": (right_out, torch.log(w.sum(0))),
        "lse-mean": (right_out, finite.mean(0)),
    }


COMBINE_MESSAGES = {
    "mean": ("llms.combine-unweighted",
             "out is the plain mean of the chunks' outputs: each was normalised by its own sum "
             "exp(ℓ_c), so the whole softmax gives chunk c the weight exp(ℓ_c) / Σ_c' "
             "exp(ℓ_c'), not 1 / n_chunks."),
    "sum": ("llms.combine-unweighted",
            "out is the sum of the chunks' outputs: weight chunk c by exp(ℓ_c) / Σ_c' exp(ℓ_c'), "
            "its share of the whole softmax's denominator."),
    "unnormalised": ("llms.combine-not-normalised",
                     "out is Σ_c exp(ℓ_c) o_c: divide by Σ_c exp(ℓ_c), so that the weights of "
                     "all keys sum to 1 again."),
    "unnormalised-shifted": ("llms.combine-not-normalised",
                             "out is Σ_c exp(ℓ_c − max ℓ) o_c: after subtracting the max, still "
                             "divide by the sum of those weights, Σ_c exp(ℓ_c − max ℓ)."),
    "softmax-axis": ("llms.combine-axis",
                     "your chunk weights are normalised over the queries (the T_q axis, dim=1): "
                     "each query's weights are over the chunks, dim=0."),
    "linear": ("llms.combine-linear-weights",
               "you weighted the chunks by ℓ_c itself: ℓ_c is a LOG of a sum, so chunk c's sum "
               "is exp(ℓ_c); weight by exp(ℓ_c) / Σ_c' exp(ℓ_c')."),
    "lse-max": ("llms.combine-lse",
                "lse is the largest ℓ_c: add the log of the summed weights, lse = max ℓ + "
                "log Σ_c exp(ℓ_c − max ℓ)."),
    "lse-sum": ("llms.combine-lse",
                "lse is the sum of the ℓ_c: the chunks' SUMS add, not their logs; lse = log "
                "Σ_c exp(ℓ_c)."),
    "lse-no-top": ("llms.combine-lse",
                   "lse is log Σ_c exp(ℓ_c − max ℓ): add back the max you subtracted, lse = "
                   "max ℓ + log Σ_c exp(ℓ_c − max ℓ)."),
    "lse-mean": ("llms.combine-lse",
                 "lse is the mean of the ℓ_c: lse = log Σ_c exp(ℓ_c), the log of the chunks' "
                 "summed sums."),
}


def _combine_parts(result, name, T_q, d_v):
    parts = core.unpack(result, COMBINE_PARTS, name=name)
    for part, value in zip(COMBINE_PARTS, parts, strict=True):
        if not isinstance(value, torch.Tensor):
            kind = ("a NumPy array" if isinstance(value, np.ndarray)
                    else f"a {type(value).__name__}")
            core.fail(f"{name}: {part} is {kind}: the exercise asks for torch tensors.",
                      "generic.wrong-type")
    out, lse = parts
    if tuple(out.shape) == (T_q,) and tuple(lse.shape) == (T_q, d_v):
        core.fail(f"{name}: you returned (lse, out); the exercise asks for (out, lse), in that "
                  "order.", "generic.tuple-order")
    return out, lse


def _combine_overflow(out, lse, lses, name, dtype):
    rows = ~(torch.isfinite(out).all(-1) & torch.isfinite(lse))  # (T_q,)
    top = lses.double().max(0).values  # (T_q,)
    if rows.any() and (~rows).any() and (top[rows].max() < top.max() - 80):
        core.fail(f"{name}: queries {_heads(np.flatnonzero(rows.numpy()).tolist())} come out "
                  "inf or nan: their ℓ are far below the other queries', so one max for every "
                  "query (lses.max() over everything) makes their exp(ℓ_c − max) underflow to "
                  "0, and 0 / 0. Subtract each query's own largest ℓ: lses.max(dim=0).",
                  "llms.combine-global-max")
    bad = bool(rows.any())
    if bad and dtype == torch.float32:
        core.fail(f"{name}: your result has inf or nan on float32 partials whose ℓ are near "
                  "100: exp(ℓ) overflows float32 above ℓ ≈ 88.7. Subtract each query's largest "
                  "ℓ before exp (the weights exp(ℓ_c − max ℓ) are then at most 1), and add it "
                  "back to the lse.", "llms.combine-overflow")
    if bad:
        core.fail(f"{name}: your result has inf or nan. Is a chunk with ℓ = −inf (every key "
                  "masked) multiplied as inf · 0, or −inf − (−inf) computed? exp(ℓ_c − max ℓ) "
                  "is 0 for such a chunk when max ℓ is finite.", "llms.combine-masked-chunk")


def _combine_implied_weights(out, outs, lses, name):
    """When out[i] is Σ_c α_c o_c[i] for some weights α (solvable when d_v > n_chunks), name
    how the student's weights differ from exp(ℓ_c − lse)."""
    n, T_q, d_v = outs.shape
    if out.shape != (T_q, d_v) or d_v <= n or not torch.isfinite(out).all():
        return
    o = outs.double()
    for i in range(T_q):
        alpha = torch.from_numpy(np.linalg.lstsq(o[:, i].T.numpy(), out[i].detach().double()
                                                 .numpy(), rcond=None)[0])  # (n,)
        if not torch.allclose(o[:, i].T @ alpha, out[i].double(), atol=1e-7, rtol=1e-6):
            return  # not a weighted sum of the chunks' outputs
        right = torch.softmax(lses[:, i].double(), dim=0)
        if torch.allclose(alpha, right, atol=1e-6):
            continue
        shown = np.array2string(alpha.numpy(), precision=4)
        core.fail(f"{name}: query {i}'s output is a weighted sum of the chunks' outputs with "
                  f"weights {shown} (summing to {float(alpha.sum()):.4g}); the whole softmax "
                  "gives chunk c the weight exp(ℓ_c − lse), its share of the total, "
                  f"{np.array2string(right.numpy(), precision=4)} (summing to 1). If you merge "
                  "the chunks one at a time, rescale what you have so far by exp(lse_old − "
                  "lse_new) whenever the running lse grows.", "llms.combine-weights")


@core.exercise
def check_combine_partials(my_combine_partials) -> None:
    """Exercise: my_combine_partials(outs, lses) -> (out (T_q, d_v), lse (T_q,)), exactly."""
    name0 = "my_combine_partials"
    core.forbid(my_combine_partials, COMBINE_FORBIDDEN, name=name0,
                why="Combine the chunks yourself with torch's exp, max, sum and log: the "
                    "check compares you with one attention over all keys.")
    cases = _combine_cases()
    for label, q, k, v, mask, chunk, dtype, shift in cases:
        outs, lses = _combine_inputs(q, k, v, mask, chunk, dtype, shift)
        n, T_q, d_v = outs.shape
        name = f"{name0}({label}: outs {tuple(outs.shape)}, lses {tuple(lses.shape)})"
        try:
            result = _call(my_combine_partials, outs, lses, name=name0)
        except RuntimeError as error:
            if "must match the size" not in str(error):
                raise
            core.fail(f"{name}: your function raised RuntimeError ({error}). outs is "
                      f"(n_chunks, T_q, d_v) = {tuple(outs.shape)} and lses (n_chunks, T_q) = "
                      f"{tuple(lses.shape)}: a weight per chunk and query multiplies outs with "
                      "a last axis of size 1 added, w[..., None] (or w.unsqueeze(-1)), so that "
                      "it spreads over d_v.", "llms.combine-broadcast")
        out, lse = _combine_parts(result, name, T_q, d_v)
        want_out, want_lse = _combine_reference(q, k, v, mask, shift)
        tol = dict(atol=1e-4, rtol=1e-4) if dtype == torch.float32 else dict(atol=1e-9,
                                                                             rtol=1e-9)
        right = (out.shape == want_out.shape and lse.shape == want_lse.shape
                 and torch.allclose(out.double(), want_out, **tol)
                 and torch.allclose(lse.double(), want_lse, **tol))
        if right:
            core.compare_tuple((out, lse), (want_out, want_lse), COMBINE_PARTS, name=name,
                               atol=tol["atol"], rtol=tol["rtol"])
            continue
        _combine_overflow(out, lse, lses, name, dtype)
        if dtype == torch.float64:
            for key, (w_out, w_lse) in _combine_mistakes(outs, lses).items():
                same_out = out.shape == w_out.shape and torch.allclose(out.double(), w_out,
                                                                       equal_nan=True)
                same_lse = lse.shape == w_lse.shape and torch.allclose(lse.double(), w_lse,
                                                                       equal_nan=True)
                wrong_here = not (torch.allclose(w_out, want_out)
                                  and torch.allclose(w_lse, want_lse))
                if same_out and same_lse and wrong_here:
                    diagnosis, message = COMBINE_MESSAGES[key]
                    core.fail(f"{name}: {message}", diagnosis)
        _combine_implied_weights(out, outs, lses, name)
        core.compare_tuple((out, lse), (want_out, want_lse), COMBINE_PARTS, name=name,
                           atol=tol["atol"], rtol=tol["rtol"],
                           per_part={"out": dict(axes=("T_q", "d_v")),
                                     "lse": dict(axes=("T_q",))},
                           sizes=dict(T_q=T_q, d_v=d_v, n_chunks=n),
                           factors={"n_chunks": float(n)})
    core.passed(f"{name0}: out = Σ_c exp(ℓ_c − lse) o_c and lse = log Σ_c exp(ℓ_c), equal to "
                f"one attention over all keys, for {len(cases)} cases incl. a masked chunk and "
                "float32 ℓ near 100")
