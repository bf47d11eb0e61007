"""Checks for lesson 08 (architectures and a tiny language model): cross-attention, next-token
targets, the next-token loss, a detector for models that read the future, and what a long
context costs in memory.
"""

from __future__ import annotations

import functools

import numpy as np
import torch
import torch.nn.functional as F

from helpers.attention import attention, softmax
from helpers.checks import core
from helpers.masks import leaks_future
from helpers.model import TinyGPT

_same = core.matches


# --- Exercise: cross-attention ---------------------------------------------------------------


def _cross_case(T_dec, T_enc, d_model, d_k, d_v, seed):
    rng = core.rng(seed)
    x_dec = rng.normal(size=(T_dec, d_model))  # decoder states
    memory = rng.normal(size=(T_enc, d_model))  # the encoder's output
    W_q, W_k = (rng.normal(size=(d_model, d_k)) / np.sqrt(d_model) for _ in range(2))
    W_v = rng.normal(size=(d_model, d_v)) / np.sqrt(d_model)
    return x_dec, memory, W_q, W_k, W_v


def _cross_mistakes(x_dec, memory, W_q, W_k, W_v):
    T_dec, T_enc, d_k = len(x_dec), len(memory), W_k.shape[1]
    q = x_dec @ W_q  # (T_dec, d_k): the decoder asks
    k, v = memory @ W_k, memory @ W_v  # (T_enc, d_k), (T_enc, d_v): the encoder answers
    wrong_axis = softmax(q @ k.T / np.sqrt(d_k), axis=0)  # columns sum to 1
    mistakes = [
        ("architectures.cross-roles-swapped",
         "Q must come from the decoder, and K and V from the encoder's memory; yours has "
         "the roles swapped (reversed): you took the queries from the memory (memory @ W_q) "
         "and the keys and values from the decoder. The queries come from the decoder. The "
         "encoder positions now ask (rows) and the decoder positions "
         "answer (columns), so the output has one row per ENCODER token and cannot be added "
         "to the decoder's residual stream.", attention(memory @ W_q, x_dec @ W_k, x_dec @ W_v)),
        ("architectures.cross-q-from-memory",
         "Q must come from the decoder: you projected Q from the memory too, so every row "
         "belongs to an encoder position. The queries are the decoder states x_dec projected "
         "by W_q.", attention(memory @ W_q, k, v)),
        ("architectures.cross-kv-from-decoder",
         "K and V must come from the encoder's memory: you took them from the decoder "
         "states, which makes this decoder self-attention, not cross-attention.",
         attention(q, x_dec @ W_k, x_dec @ W_v)),
        ("architectures.cross-scaled-by-d-model",
         "you scaled the scores by 1/√d_model (sqrt(d_model)), the width of the states; the "
         "scale is 1/√d_k (sqrt(d_k)), d_k the width of the queries and keys (W_q's columns), "
         "which attention uses by default.",
         attention(q, k, v, scale=1.0 / np.sqrt(x_dec.shape[-1]))),
        ("architectures.cross-concatenated",
         "you concatenated the decoder states and the memory into one key/value sequence: "
         "the keys and values describe the source, the memory alone, so weights is "
         "(T_dec, T_enc), one weight per encoder position.",
         attention(q, np.concatenate([x_dec, memory]) @ W_k,
                   np.concatenate([x_dec, memory]) @ W_v)),
        ("architectures.cross-concatenated",
         "you concatenated the memory and the decoder states into one key/value sequence: "
         "the keys and values describe the source, the memory alone, so weights is "
         "(T_dec, T_enc), one weight per encoder position.",
         attention(q, np.concatenate([memory, x_dec]) @ W_k,
                   np.concatenate([memory, x_dec]) @ W_v)),
        ("architectures.cross-causal-mask",
         "you applied a causal mask to cross-attention. The whole source is known before "
         "decoding starts, so every decoder position may read every encoder position: no "
         "mask here (the causal mask belongs to the decoder's SELF-attention).",
         attention(q, k, v, np.tril(np.ones((T_dec, T_enc), dtype=bool)))),
        ("architectures.cross-no-scale",
         "missing scale: divide the scores q . k by sqrt(d_k) before softmax.",
         attention(q, k, v, scale=1.0)),
        ("architectures.cross-scaled-by-dk",
         "you divided the scores by d_k instead of sqrt(d_k).",
         attention(q, k, v, scale=1.0 / d_k)),
        ("architectures.cross-softmax-axis",
         "softmax over the wrong axis: each decoder position's weights over the encoder "
         "positions (one row) must sum to 1; yours normalise each column.",
         (wrong_axis @ v, wrong_axis)),
    ]
    if T_dec == T_enc:  # these run only when the two lengths agree (else attention raises)
        mistakes += [
            ("architectures.cross-v-from-decoder",
             "V from x_dec: you took the values from the decoder (x_dec @ W_v). The values come "
             "from the memory (memory @ W_v), like the keys: the values from memory, one per "
             "key, so each decoder position averages what the source says.",
             attention(q, k, x_dec @ W_v)),
            ("architectures.cross-k-from-decoder",
             "K from x_dec: you took the keys from the decoder (x_dec @ W_k). The keys come from "
             "the memory (memory @ W_k), like the values: the keys from memory are what the "
             "decoder's queries are scored against.", attention(q, x_dec @ W_k, v)),
        ]
    if W_k.shape == W_v.shape:
        mistakes.append((
            "architectures.cross-k-v-swapped",
            "K and V swapped: you projected the keys with W_v and the values with W_k (W_k and "
            "W_v swapped). The keys (scored against Q) are memory projected by W_k and the "
            "values (averaged with the weights) are memory projected by W_v; yours are the "
            "other way round.", attention(q, memory @ W_v, memory @ W_k)))
    return mistakes


def _cross_properties(weights, out, ref_w, v, name):
    """The weights: shape, non-negative, rows sum to 1, no zero (no mask); then out = w v."""
    w = core.as_array(weights, f"{name} weights")
    T_dec, T_enc = ref_w.shape
    if w.shape == (T_dec, T_dec + T_enc):
        core.fail(f"{name} weights: shape {w.shape} = (T_dec, T_dec + T_enc): your keys and "
                  "values hold the decoder states and the memory concatenated. In "
                  "cross-attention they describe the source, the memory alone: weights is "
                  "(T_dec, T_enc).", "architectures.cross-concatenated")
    if w.shape != ref_w.shape:
        return  # core.compare names the shape
    core.require(np.isfinite(w).all(), f"{name} weights: your weights hold NaN or inf.",
                 "architectures.cross-weights-not-finite")
    core.require((w >= 0).all(), f"{name} weights: some of your weights are negative; a "
                 "softmax gives weights in [0, 1].", "architectures.cross-weights-negative")
    sums = w.sum(axis=-1)
    core.require(np.allclose(sums, 1.0), f"{name} weights: each row (one decoder position "
                 f"over the T_enc encoder positions) must sum to 1; your rows sum to "
                 f"{np.round(sums, 3).tolist()}.", "architectures.cross-rows-not-normalised")
    core.require((w > 0).all(), f"{name} weights: some of your weights are exactly 0, as if "
                 "a mask blocked them. Cross-attention has no mask: every decoder position may "
                 "read every encoder position.", "architectures.cross-masked")
    o = core.as_array(out, f"{name} out")
    if o.shape == (w.shape[0], v.shape[1]) and not np.allclose(o, w @ v, atol=1e-6):
        core.fail(f"{name} out: your out is not your own weights times the values: each "
                  "output row is the weighted average of the values V (memory projected by "
                  "W_v), with that row's weights.", "architectures.cross-out-not-weighted-values")


def _name_a_crash(cross_attention, cases, error, name) -> None:
    """The answer raised when T_dec != T_enc: run it where the lengths agree, where a wrong
    source for K or V runs, and name the mistake it makes there."""
    for T_dec, T_enc, d_model, d_k, d_v, seed in cases:
        if T_dec != T_enc:
            continue
        args = _cross_case(T_dec, T_enc, d_model, d_k, d_v, seed)
        try:
            with np.errstate(all="ignore"):
                result = cross_attention(*(a.copy() for a in args))
            out, weights = result
        except Exception:  # noqa: BLE001 - it fails there too: let the first error show
            return
        for diagnosis, message, wrong in _cross_mistakes(*args):
            if _same(weights, wrong[1]) and _same(out, wrong[0]):
                core.fail(f"{name}: your function raised {type(error).__name__} ({error}), "
                          "because T_dec != T_enc here. Where the two lengths agree it runs, "
                          f"and there: {message}", diagnosis)
        return


@core.exercise
def check_cross_attention(cross_attention) -> None:
    """Exercise: single-head cross-attention, Q from the decoder, K and V from the encoder."""
    cases = [
        (4, 6, 5, 3, 3, 0),  # T_dec != T_enc: a wrong source for Q shows in the shape
        (5, 5, 6, 3, 2, 1),  # T_dec == T_enc and d_v != d_k: the same mistakes, in the values
        (2, 7, 4, 5, 6, 2),  # another size: d_k > d_model, d_v > d_k
    ]
    for T_dec, T_enc, d_model, d_k, d_v, seed in cases:
        x_dec, memory, W_q, W_k, W_v = _cross_case(T_dec, T_enc, d_model, d_k, d_v, seed)
        name = f"cross_attention(x_dec {x_dec.shape}, memory {memory.shape})"
        try:
            result = core.call(cross_attention, x_dec, memory, W_q, W_k, W_v,
                               name="cross_attention")
        except (ValueError, RuntimeError, IndexError) as error:
            _name_a_crash(cross_attention, cases, error, name)
            raise
        if result is None:
            core.fail(f"{name}: your function returned None. Did you forget `return`?",
                      "generic.none")
        out, weights = core.unpack(result, ("out", "weights"), name=name)
        ref_out, ref_w = attention(x_dec @ W_q, memory @ W_k, memory @ W_v)
        mistakes = _cross_mistakes(x_dec, memory, W_q, W_k, W_v)
        for diagnosis, message, wrong in mistakes:  # an anticipated mistake is named first
            if _same(weights, wrong[1]) and _same(out, wrong[0]):
                core.fail(f"{name}: {message}", diagnosis)
        _cross_properties(weights, out, ref_w, memory @ W_v, name)
        sizes = dict(T_dec=T_dec, T_enc=T_enc, d_model=d_model, d_k=d_k, d_v=d_v)
        factors = {"√d_k": np.sqrt(d_k), "d_k": d_k, "√d_model": np.sqrt(d_model)}
        core.compare_tuple(
            (out, weights), (ref_out, ref_w), ("out", "weights"), name=name,
            sizes=sizes, factors=factors,
            per_part={"out": dict(axes=("T_dec", "d_v"),
                                  mistakes=[(i, m, wrong[0]) for i, m, wrong in mistakes]),
                      "weights": dict(axes=("T_dec", "T_enc"),
                                      mistakes=[(i, m, wrong[1]) for i, m, wrong in mistakes])})
    core.passed("cross_attention: Q from the decoder, K and V from the encoder, no mask; "
                "weights (T_dec, T_enc) with rows summing to 1, for T_dec != T_enc and ==")


# --- Exercise: next-token targets ------------------------------------------------------------


def _where_from(part, window, label: str):
    """Describe which window entries `part` holds: ids are distinct, so each names its place."""
    arr = np.asarray(core.as_array(part, label))
    if arr.ndim != 2:
        return None
    w = window.numpy()
    place = {int(v): (b, t) for (b, t), v in np.ndenumerate(w)}
    shifts = set()
    for (b, t), v in np.ndenumerate(arr):
        if not float(v).is_integer() or int(v) not in place:
            core.fail(f"{label} hold ids that are not in the window ({v:g} at {(b, t)}): "
                      "inputs and targets are tokens of the window itself, cut from it, not "
                      "computed from the ids.", "architectures.pairs-not-from-window")
        b2, t2 = place[int(v)]
        shifts.add((b2 - b, t2 - t))
    return shifts


def _t(k: int) -> str:
    return "t" if k == 0 else f"t {'+' if k > 0 else '-'} {abs(k)}"


@core.exercise
def check_next_token_pairs(next_token_pairs) -> None:
    """Exercise: (B, T+1) windows -> inputs window[:, :-1] and targets window[:, 1:]."""
    g = core.torch_generator(3)
    right_on = []  # the windows answered right so far
    for B, T1 in ((3, 9), (2, 5), (1, 2)):
        window = torch.randperm(200, generator=g)[: B * T1].reshape(B, T1)  # distinct ids
        name = f"next_token_pairs(window of shape {tuple(window.shape)})"
        result = core.call(next_token_pairs, window, name="next_token_pairs")
        if result is None:
            core.fail(f"{name}: your function returned None. Did you forget `return`?",
                      "generic.none")
        inputs, targets = core.unpack(result, ("inputs", "targets"), name=name)
        x, y = window[:, :-1], window[:, 1:]  # (B, T) each
        if _same(inputs, x) and _same(targets, y):
            for part, label in ((inputs, "inputs"), (targets, "targets")):
                if isinstance(part, (torch.Tensor, np.ndarray)) and (
                        part.dtype.is_floating_point if isinstance(part, torch.Tensor)
                        else part.dtype.kind == "f"):
                    core.fail(f"{name}: your {label} are floats; token ids index the "
                              "embedding table, so keep them integers (the window's dtype).",
                              "architectures.pairs-not-integers")
            right_on.append(tuple(window.shape))
            continue
        earlier = (f" Your function was right on the window of shape {right_on[0]} and is wrong "
                   f"on this one, {tuple(window.shape)}: is T hard-coded (a fixed length) "
                   "instead of read from window.shape?" if right_on else "")
        wrong_pairs = [
            ("architectures.pairs-no-shift",
             "no shift: each position is asked to predict itself (the targets equal the "
             "inputs), so the model only learns to copy its input. The target of position t is "
             "the NEXT token, t + 1.", [(x, x), (y, y), (window, window)]),
            ("architectures.pairs-wrong-direction",
             "shifted the wrong way: your target for each position is the token BEFORE it, the "
             "previous token: you returned (targets, inputs), the wrong order, or took the "
             "inputs and targets swapped, the other way round. The target of position t is "
             "token t + 1, the token that follows: return (inputs, targets) with inputs = "
             "window[:, :-1] and targets = window[:, 1:].", [(y, x)]),
            ("architectures.pairs-roll",
             "torch.roll wraps around: the last position's target became the first token, "
             "which does not follow it. Slice instead of rolling, so that no token wraps.",
             [(window, torch.roll(window, -1, dims=1)), (x, torch.roll(x, -1, dims=1))]),
            ("architectures.pairs-inputs-keep-last",
             "the inputs must drop the last token: it has no next token to be its target. "
             "inputs has shape (B, T), one fewer than the window.", [(window, y)]),
            ("architectures.pairs-batch-axis",
             "you shifted along the batch axis (axis 0); the positions of a window are axis 1.",
             [(window[:-1], window[1:])]),
        ]
        for diagnosis, message, pairs in wrong_pairs:
            if any(_same(inputs, a) and _same(targets, b) for a, b in pairs):
                core.fail(f"{name}: {message}{earlier}", diagnosis)
        offsets = [_where_from(part, window, f"{name} {label}")
                   for part, label in ((inputs, "inputs"), (targets, "targets"))]
        if all(o is not None and len(o) == 1 and next(iter(o))[0] == 0 for o in offsets):
            (_, d_in), = offsets[0]
            (_, d_out), = offsets[1]
            gap = d_out - d_in
            if d_in == 0 and gap not in (0, 1):
                words = {-2: "two", -1: "one", 2: "two", 3: "three", 4: "four"}
                by = words.get(gap, str(gap))
                core.fail(f"{name}: your targets[:, t] is window[:, {_t(d_out)}]: offset by "
                          f"{by} positions from the inputs ({'ahead' if gap > 0 else 'behind'}). "
                          "The target of position t is the next token, offset by one: "
                          "window[:, t + 1], and inputs and targets each hold T = T+1 - 1 "
                          f"positions (window[:, :-1] and window[:, 1:]).{earlier}",
                          "architectures.pairs-offset")
        for part, want, label in ((inputs, x, "inputs"), (targets, y, "targets")):
            if _same(part, want):
                continue
            shifts = _where_from(part, window, f"{name} {label}")
            if shifts is not None and len(shifts) == 1 and core.as_array(
                    part, label).shape == tuple(want.shape):
                (db, dt), = shifts
                ok = 0 if label == "inputs" else 1
                if db == 0:
                    core.fail(f"{name}: your {label}[:, t] is window[:, {_t(dt)}]; it should "
                              f"be window[:, {_t(ok)}]. The inputs start at the first token, "
                              "and the target of position t is the token that follows it."
                              + earlier, "architectures.pairs-offset")
            if earlier and core.as_array(part, label).shape != tuple(want.shape):
                core.fail(f"{name} {label}: expected shape {tuple(want.shape)} = (B, T), got "
                          f"{core.as_array(part, label).shape}.{earlier}",
                          "architectures.pairs-hard-coded")
            core.compare(part, want, name=f"{name} {label}", axes=("B", "T"),
                         sizes=dict(B=B, T=T1 - 1, **{"T+1": T1}))
    core.passed("next_token_pairs: inputs = window[:, :-1], targets = window[:, 1:] "
                "(the target of position t is token t + 1)")


# --- Exercise: the next-token loss -----------------------------------------------------------

LOSS_FUNCTIONS = (
    "torch.nn.functional.cross_entropy",
    "torch.nn.CrossEntropyLoss",
    "torch.nn.functional.nll_loss",
    "torch.nn.NLLLoss",
)


def _scalar(got, name) -> float:
    arr = core.as_array(got, name)
    if arr.size != 1:
        core.fail(f"{name}: return one number (a 0-d tensor), the mean over all B*T positions; "
                  f"yours has shape {arr.shape}. Average the per-position losses into one "
                  "number (not averaging).", "architectures.loss-not-a-scalar")
    return float(arr.reshape(-1)[0])


def _loss_properties(next_token_loss, B, T, V, targets, name):
    """All-zero logits give ln V; adding a constant to a position's logits changes nothing."""

    def run(logits):
        return _scalar(core.call(next_token_loss, logits, targets, name="next_token_loss",
                                 returns="torch"),
                       name)

    uniform = run(torch.zeros(B, T, V))
    if not np.isclose(uniform, np.log(V), rtol=1e-5):
        known = {
            "ln V, negated (a minus sign missing)": -np.log(V),
            "B·T·ln V: the losses summed, not averaged (not averaging)": B * T * np.log(V),
            "T·ln V: each sequence's losses summed, not averaged over the positions "
            "(not averaging)": T * np.log(V),
            "ln T: the softmax ran over the positions axis (wrong axis), not the vocabulary":
                np.log(T),
            "ln B: the softmax ran over the batch axis (wrong axis), not the vocabulary":
                np.log(B),
            "1/V: a probability, not minus its log (missing log)": 1 / V,
            "-1/V: a probability, not minus its log (missing log)": -1 / V,
            "0: the raw logits used as log-probabilities (missing softmax)": 0.0,
        }
        said = [label for label, value in known.items() if np.isclose(uniform, value)]
        core.fail(f"{name}: with all-zero logits every token has probability 1/V, so the loss "
                  f"is ln V = {np.log(V):.4f}; yours is {uniform:.4g}"
                  + (f", which is {said[0]}." if said else "."),
                  "architectures.loss-uniform")
    sure = run(20.0 * F.one_hot(targets, V).float())  # the target's logit 20 above the rest
    if not np.isclose(sure, (V - 1) * np.exp(-20.0), rtol=1e-3, atol=1e-6):
        core.fail(f"{name}: when every target's logit is 20 above the others, the model is "
                  f"sure and right, and the loss is about 0; yours is {sure:.4g}: your loss "
                  "does not pick each position's target entry (gather along the vocabulary "
                  "axis with targets).", "architectures.loss-ignores-targets")
    g = core.torch_generator(17)
    logits = torch.randn(B, T, V, generator=g)
    shift = 50 * torch.randn(B, T, 1, generator=g)  # one constant per position
    base, moved = run(logits), run(logits + shift)
    if not np.isclose(base, moved, rtol=1e-4, atol=1e-4):
        core.fail(f"{name}: adding a constant to all V logits of a position must not change "
                  f"the loss (softmax over the vocabulary ignores it); yours went from "
                  f"{base:.4g} to {moved:.4g}: the logits are not normalised over the "
                  "vocabulary axis (softmax over the wrong axis, or none).",
                  "architectures.loss-not-shift-invariant")


@core.exercise
def check_next_token_loss(next_token_loss) -> None:
    """Exercise: mean over all B*T positions of -log softmax(logits)[target]."""
    core.forbid(next_token_loss, LOSS_FUNCTIONS, name="next_token_loss",
                why="Write the loss by hand with torch.log_softmax and gather (or indexing): "
                    "that is the exercise. (F.cross_entropy would also want the classes on "
                    "axis 1, so (B, T, V) logits need flattening first.)")
    g = core.torch_generator(5)
    for i, (B, T, V, spread) in enumerate(((2, 5, 7, 2.0), (3, 4, 11, 2.0), (2, 6, 6, 2.0),
                                           (2, 3, 5, 1000.0))):
        logits = torch.randn(B, T, V, generator=g) * spread  # (B, T, V)
        targets = torch.randint(0, V, (B, T), generator=g)  # (B, T)
        name = f"next_token_loss(logits {tuple(logits.shape)}, targets {tuple(targets.shape)})"
        if spread > 100:
            name += ", logits of size ~1000"
        got = core.call(next_token_loss, logits, targets, name="next_token_loss",
                        returns="torch")
        ref = F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))

        def picked(logp, targets=targets):
            return logp.gather(-1, targets[..., None])[..., 0]  # (B, T)

        logp = torch.log_softmax(logits, dim=-1)  # (B, T, V)
        with np.errstate(all="ignore"):
            naive = torch.log(torch.softmax(logits, dim=-1))
        mistakes = [
            ("architectures.loss-softmax-positions",
             "softmax over the wrong axis: you normalised over the positions (axis 1). The "
             "distribution is over the vocabulary, the last axis (dim=-1).",
             -picked(torch.log_softmax(logits, dim=1)).mean()),
            ("architectures.loss-softmax-batch",
             "softmax over the wrong axis: you normalised over the batch (axis 0). The "
             "distribution is over the vocabulary, the last axis (dim=-1).",
             -picked(torch.log_softmax(logits, dim=0)).mean()),
            ("architectures.loss-summed",
             "not averaging: you summed the B*T losses. The loss is their mean, so that it "
             "does not grow with the batch size or the window length.", -picked(logp).sum()),
            ("architectures.loss-summed-over-positions",
             "not averaging over the positions: you summed each sequence's T losses and "
             "averaged over the batch. Average over all B*T predictions.",
             -picked(logp).sum(dim=1).mean()),
            ("architectures.loss-not-a-scalar",
             "not averaging: you returned one loss per position, shape (B, T). Average them "
             "into one number.", -picked(logp)),
            ("architectures.loss-first-sequence",
             "you averaged over the first sequence only (logits[0], targets[0]): the loss is "
             "the mean over the whole batch, all B sequences and their T positions, not only "
             "sequence 0. With B > 1 every sequence counts.", -picked(logp)[0].mean()),
            ("architectures.loss-first-position",
             "you averaged over the first position of each sequence only: the loss is the "
             "mean over all B*T positions.", -picked(logp)[:, 0].mean()),
            ("architectures.loss-sign",
             "the loss is negative: you forgot the minus sign. Cross-entropy is MINUS the mean "
             "log-probability of the targets.", picked(logp).mean()),
            ("architectures.loss-no-log",
             "missing log: you averaged the targets' probabilities. Cross-entropy averages "
             "-log p(target).", -picked(logp.exp()).mean()),
            ("architectures.loss-no-softmax",
             "missing softmax: you used the raw logits as log-probabilities. Normalise with "
             "log_softmax over the vocabulary first.", -picked(logits).mean()),
        ]
        if spread > 100:
            mistakes.insert(0, (
                "architectures.loss-log-of-softmax",
                "your loss is inf (or NaN) on large logits: log(softmax(...)) underflows, "
                "softmax rounds a tiny probability to 0 and log(0) = -inf. torch.log_softmax "
                "computes the same thing stably.", -picked(naive).mean()))
        got_arr = core.as_array(got, name)
        for diagnosis, message, wrong in mistakes:
            if _same(got_arr, wrong) and not _same(wrong, ref):
                core.fail(f"{name}: {message}", diagnosis)
        if spread > 100 and not np.isfinite(got_arr).all():
            core.fail(f"{name}: {mistakes[0][1]}", mistakes[0][0])
        if i == 0:
            _scalar(got, name)
            _loss_properties(next_token_loss, B, T, V, targets, name)
        core.compare(got, ref, name=name, mistakes=mistakes, atol=1e-5, axes=(),
                     sizes=dict(B=B, T=T, V=V),
                     factors={"B": B, "T": T, "B·T": B * T, "V": V, "ln V": np.log(V)})
    core.passed("next_token_loss: the mean over all B*T positions of -log softmax(logits)"
                "[target], softmax over the vocabulary; equals F.cross_entropy")


# --- Exercise: the cheating detector ---------------------------------------------------------

LEAK_AT = 3  # the one-leak model: position 3 reads token 4
FAR_LEAK = (2, 6)  # the far-leak model: position 2 reads token 6, four positions ahead
LAST_LEAK = 5  # the last-token model: position 5 reads the last token, T - 1
FIRST_LEAK = (0, 1)  # the first-pair model: position 0 reads token 1


def _detector_cases(T: int = 10):
    """(ids, [(name, model_fn, leaks, how, diagnosis)]): small untrained TinyGPTs, and causal
    models with one peek ahead each (next token, far ahead, the last token, token 1).

    The models' weights, the peeking table and the ids are fixed in a notebook and drawn
    afresh when grading (core.seed); the cache is keyed on that seed."""
    return _detector_cases_for(T, core.seed(0))


@functools.lru_cache(maxsize=4)
def _detector_cases_for(T: int, seed: int):
    V = 20
    kw = dict(d_model=16, n_heads=2, d_ff=32, max_len=16, seed=seed)
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

    table = torch.randn(V, V, generator=core.torch_generator(11))  # (V, V)
    causal = fn(models["causal"])

    def peeking(reader, read):
        def model_fn(ids):
            logits = causal(ids).clone()
            logits[:, reader] += table[ids[:, read if read >= 0 else ids.shape[1] + read]]
            return logits
        return model_fn

    ids = torch.randint(0, V, (1, T), generator=core.torch_generator(2))
    # The tokens the leaky models read hold the values a detector might set a token to (0, 1,
    # V - 1): "set token j to c" then changes nothing there and misses the leak. A token V - 1
    # also makes "+ 1" without % V leave the vocabulary.
    ids[0, LEAK_AT + 1] = 0
    if FAR_LEAK[1] < T:
        ids[0, FAR_LEAK[1]] = 1
    ids[0, T - 1] = V - 1
    return ids, [
        ("causal", causal, False, "", ""),
        ("causal, 2 layers", fn(models["causal, 2 layers"]), False, "", ""),
        ("reversed", fn(models["reversed"]), True, "position 0 reads every later token",
         "architectures.leaks-missed-reversed"),
        ("no mask", fn(models["no mask"]), True, "every position reads every other",
         "architectures.leaks-missed-unmasked"),
        ("one leak", peeking(LEAK_AT, LEAK_AT + 1), True,
         f"the model is causal except that position {LEAK_AT} also reads token {LEAK_AT + 1}. "
         "Compare every position before j, j - 1 included",
         "architectures.leaks-missed-next-token"),
        ("far leak", peeking(*FAR_LEAK), True,
         f"the model is causal except that position {FAR_LEAK[0]} also reads token "
         f"{FAR_LEAK[1]}, {FAR_LEAK[1] - FAR_LEAK[0]} positions ahead",
         "architectures.leaks-missed-far"),
        ("last-token leak", peeking(LAST_LEAK, -1), True,
         f"the model is causal except that position {LAST_LEAK} also reads the LAST token, "
         f"T - 1. Perturb every later token up to and including the last one (j = 1..T-1; "
         "range(1, T) ends at T - 1)", "architectures.leaks-missed-last-token"),
        ("first-pair leak", peeking(*FIRST_LEAK), True,
         "the model is causal except that position 0 also reads token 1. Start at j = 1: "
         "token 1 is already in position 0's future", "architectures.leaks-missed-token-1"),
    ]


def _probe_models(V: int = 20):
    """Two causal models that tell which positions a detector compares: in `identity` position
    t reads token t only, in `shift` position t reads token t - 1 only."""
    table = torch.randn(V, V, generator=core.torch_generator(12))

    def identity(ids):
        return table[ids]  # (1, T, V)

    def shift(ids):
        logits = table[ids].clone()
        logits[:, 1:] = table[ids[:, :-1]]
        logits[:, 0] = 0.0
        return logits

    return identity, shift


def _recording(model_fn, V: int, calls: list):
    """model_fn, refusing token ids outside the vocabulary and keeping a copy of every input."""

    def run(ids):
        if isinstance(ids, torch.Tensor) and ids.numel() and (
                int(ids.min()) < 0 or int(ids.max()) >= V):
            bad = int(ids.max()) if int(ids.max()) >= V else int(ids.min())
            core.fail(
                f"leaks: your detector passed the model a token id of {bad}, outside the "
                f"vocabulary 0..V-1 (V = {V}): adding 1 to a token V - 1 gives V, which is out "
                "of range. Wrap the changed token with % V: (ids[0, j] + 1) % V.",
                "architectures.leaks-token-out-of-vocabulary")
        calls.append(ids.detach().clone() if isinstance(ids, torch.Tensor) else ids)
        return model_fn(ids)

    return run


def _changed_positions(calls, ids) -> set[int]:
    """The positions some rerun changed (each call compared with ids)."""
    changed = set()
    for c in calls:
        if isinstance(c, torch.Tensor) and c.shape == ids.shape:
            changed |= {int(t) for t in torch.nonzero(c[0] != ids[0]).flatten()}
    return changed


def _unchanged_reruns(calls, ids) -> int:
    same = [c for c in calls if isinstance(c, torch.Tensor) and c.shape == ids.shape
            and torch.equal(c, ids)]
    return max(0, len(same) - 1)  # the first is the base run


def _false_alarm_cause(leaks, ids) -> str:
    """Which positions the detector compares, read off two causal probe models."""
    identity, shift = _probe_models()
    said = {}
    for label, fn in (("identity", identity), ("shift", shift)):
        try:
            said[label] = bool(leaks(fn, ids.clone()))
        except Exception:  # noqa: BLE001 - a probe the detector cannot run says nothing
            return ""
    if said["identity"] and said["shift"]:
        return (" Yours compares positions j and after (the whole logits, all T positions, "
                "including later positions), which may read token j.")
    if said["identity"]:
        return (" Yours compares the positions up to and including j (an off-by-one: "
                "[:, :j + 1]); position j itself may read token j, so compare [:, :j].")
    if said["shift"]:
        return (" Yours compares the positions after j ([:, j + 1:], the later positions, on "
                "the wrong side) instead of before it; the later positions may read token j, "
                "the past is what must stay put.")
    return ""


def _as_verdict(got, name: str) -> bool:
    if isinstance(got, torch.Tensor) and got.numel() == 1 and got.dtype == torch.bool:
        return bool(got)
    if isinstance(got, (torch.Tensor, np.ndarray)):
        core.fail(
            f"{name}: return True (the model reads the future) or False, one bool; got a "
            f"{type(got).__name__} of shape {tuple(got.shape)}. Reduce the comparison to one "
            "answer.", "architectures.leaks-not-a-bool")
    if not isinstance(got, (bool, np.bool_)):
        core.fail(
            f"{name}: return True (the model reads the future) or False; got {got!r} of type "
            f"{type(got).__name__}", "architectures.leaks-not-a-bool")
    return bool(got)


@core.exercise
def check_leaks(leaks) -> None:
    """Exercise: leaks(model_fn, ids) -> True when some logits move after a later token changes."""
    for T in (10, 7):  # a second length: nothing may be hard-coded
        ids, cases = _detector_cases(T)
        if T != 10:
            cases = [c for c in cases if c[0] in ("causal", "last-token leak", "one leak")]
        calls = {}
        verdicts = {}
        for name, fn, *_ in cases:
            calls[name] = []
            verdicts[name] = _as_verdict(
                core.call(leaks, _recording(fn, 20, calls[name]), ids, name="leaks",
                          returns="bool", type_id="architectures.leaks-not-a-bool"),
                f"leaks on the {name} model")
        if (verdicts["causal"] and "reversed" in verdicts and not verdicts["reversed"]
                and not verdicts["no mask"]):
            core.fail(
                "leaks: your answer is inverted: it says True on the causal model and False on "
                "the reversed and the unmasked ones, the opposite of the truth. Return True "
                "when some earlier position's logits moved (not torch.allclose), the other way "
                "round from True when they stay the same.", "architectures.leaks-inverted")
        if not any(verdicts.values()):
            core.fail(
                "leaks: your detector never fires: it lets the reversed model pass, though "
                "there position 0 reads every later token. For each later token j, change it "
                "on a copy of ids, rerun the model, and report a leak when the logits of a "
                "position before j moved.", "architectures.leaks-never-fires")
        if all(verdicts.values()):
            core.fail(
                "leaks: your detector always fires: it flags even the causal models. When "
                "token j changes, the logits at positions j, j+1, ... may move (they are "
                "allowed to read token j); only the positions before j must stay put, so "
                "compare those alone." + _false_alarm_cause(leaks, ids),
                "architectures.leaks-always-fires")
        for name, _, leaky, how, diagnosis in cases:
            if verdicts[name] and not leaky:
                core.fail(
                    f"leaks: false alarm on the {name} model (T = {T}), which never reads the "
                    "future. When token j changes, compare only the logits of the positions "
                    "before j (position j itself may move)." + _false_alarm_cause(leaks, ids),
                    "architectures.leaks-false-alarm")
            if leaky and not verdicts[name]:
                missing = sorted(set(range(1, T)) - _changed_positions(calls["causal"], ids))
                unchanged = _unchanged_reruns(calls["causal"], ids)
                note = ""
                if unchanged:
                    note = (f" {unchanged} of your reruns changed no token at all: the new "
                            "token equals the one already there (setting token j to a fixed "
                            "value, such as 0, leaves it unchanged when it already is that "
                            "value). Change it to a different id, such as "
                            "(ids[0, j] + 1) % V.")
                elif missing == [T - 1]:
                    note = (f" Your loop never changes the last token (j = T - 1 = {T - 1}): "
                            "it skips the last one, as range(1, T - 1) does; range(1, T) ends "
                            "at T - 1.")
                elif missing:
                    note = f" Your reruns never change token(s) {missing}."
                core.fail(f"leaks: your detector missed a leak (T = {T}, {name}: {how}).{note} "
                          "Perturb every later token j = 1..T-1, not only the last one, and "
                          "compare every position before j, not only position 0 or position "
                          "j - 1.", diagnosis)
    core.passed("leaks: flags the reversed model, the unmasked one and four single leaks "
                f"({LEAK_AT} reads {LEAK_AT + 1}, {FAR_LEAK[0]} reads {FAR_LEAK[1]}, "
                f"{LAST_LEAK} reads the last token, 0 reads 1); passes causal models of 1 and "
                "2 layers")


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


def _memory_mistakes(n_layers, d_model, n_heads, T, b):
    kv, scores = _memory_formula(n_layers, d_model, n_heads, T, b)
    kv_mistakes = [
        ("architectures.memory-only-keys",
         "you counted only the keys and forgot the values: the cache holds keys and values, "
         "a key and a value for every token (a factor of 2), 2 * T * d_model numbers per "
         "layer.", kv // 2),
        ("architectures.memory-one-layer",
         "you counted one layer's cache: kv_cache_bytes is the cache of the whole model, and "
         "every layer keeps its own keys and values (every layer's cache, all layers): "
         "multiply by n_layers.", kv // n_layers),
        ("architectures.memory-d-head",
         "the heads split d_model: each head caches d_model / n_heads features per token, "
         "but all n_heads together cache d_model. Use d_model, not d_head.", kv // n_heads),
        ("architectures.memory-cache-times-heads",
         "you multiplied by n_heads, but the heads share d_model: each head caches d_model / "
         "n_heads features (its d_k) per token, so all heads together cache d_model. "
         "Multiplying d_model by n_heads counts every head's slice n_heads times.",
         kv * n_heads),
        ("architectures.memory-not-bytes",
         "that is a count of numbers, not of bytes: multiply by bytes_per_number.", kv // b),
    ]
    mib = [(f"you converted to {unit}: return whole numbers of bytes (an int), not "
            f"{unit} (a float): divide by {label} only to print.", div)
           for unit, label, div in (("MiB", "2**20", 2**20), ("GiB", "2**30", 2**30),
                                    ("MB", "1e6", 1e6), ("GB", "1e9", 1e9),
                                    ("KiB", "2**10", 2**10))]
    kv_mistakes += [("architectures.memory-not-bytes-unit", m, kv / div) for m, div in mib]
    triangle = ("you counted only the causal triangle of each T x T matrix (about half): dense "
                "attention builds the whole matrix, masked entries included, n_heads * T * T "
                "numbers.")
    score_mistakes = [
        ("architectures.memory-scores-one-head",
         "every head has its own T x T score matrix, one per head: multiply by n_heads "
         "(n_heads × T × T numbers).", scores // n_heads),
        ("architectures.memory-scores-triangle", triangle, n_heads * (T * (T + 1) // 2) * b),
        ("architectures.memory-scores-triangle", triangle, n_heads * (T * (T - 1) // 2) * b),
        ("architectures.memory-scores-triangle", triangle, scores / 2),
        ("architectures.memory-scores-t-by-d",
         "you sized the score matrices T × d_model (T × d_head per head): a score matrix is "
         "T x T, one score per (query, key) pair, so it grows quadratic in T.",
         n_heads * T * (d_model // n_heads) * b),
        ("architectures.memory-scores-t-by-d",
         "you sized the score matrices T × d_model: a score matrix is T x T per head, one "
         "score per (query, key) pair, so it grows quadratic in T.", T * d_model * b),
        *[("architectures.memory-not-bytes-unit", m, scores / div) for m, div in mib],
        ("architectures.memory-scores-linear",
         "the score matrix is T x T, one score per (query, key) pair: T squared, not T.",
         scores // T),
        ("architectures.memory-scores-every-layer",
         "score_bytes asks for ONE layer: dense attention builds the (H, T, T) matrix of a "
         "layer, uses it and frees it before the next layer.", scores * n_layers),
        ("architectures.memory-not-bytes",
         "that is a count of numbers, not of bytes: multiply by bytes_per_number.",
         scores // b),
        ("architectures.memory-scores-d-head",
         "the score matrix holds one number per (query, key) pair and head, not per feature: "
         "d_model and d_head do not enter it.", scores * (d_model // n_heads)),
    ]
    return kv_mistakes, score_mistakes


def _memory_properties(context_memory, case):
    """How each count scales: doubling T, n_layers, n_heads, bytes_per_number."""
    n_layers, d_model, n_heads, T, b = case

    def run(**change):
        args = dict(n_layers=n_layers, d_model=d_model, n_heads=n_heads, T=T,
                    bytes_per_number=b)
        args.update(change)
        result = core.unpack(core.call(context_memory, *args.values(), name="context_memory"),
                             ("kv_cache_bytes", "score_bytes"), name="context_memory")
        return tuple(float(core.as_array(r, "context_memory").reshape(-1)[0]) for r in result)

    base = run()
    laws = [  # (what is doubled, the change, kv factor, scores factor, why, diagnosis)
        ("T", dict(T=2 * T), 2, 4,
         "the cache grows like T (one key and one value per token) and the scores like T^2, "
         "quadratic (a whole T x T matrix per head, one score per query-key pair)",
         "architectures.memory-scaling-t"),
        ("n_layers", dict(n_layers=2 * n_layers), 2, 1,
         "every layer caches its own keys and values, but score_bytes is ONE layer's",
         "architectures.memory-scaling-n-layers"),
        ("n_heads", dict(n_heads=2 * n_heads), 1, 2,
         "the heads split d_model, so the cache does not change with n_heads; each head has "
         "its own score matrix", "architectures.memory-scaling-n-heads"),
        ("bytes_per_number", dict(bytes_per_number=2 * b), 2, 2,
         "both are counts of numbers times the bytes of each",
         "architectures.memory-scaling-bytes-per-number"),
    ]
    for what, change, kv_f, sc_f, why, diagnosis in laws:
        new = run(**change)
        ratios = [new[0] / base[0] if base[0] else float("nan"),
                  new[1] / base[1] if base[1] else float("nan")]
        if not (np.isclose(ratios[0], kv_f) and np.isclose(ratios[1], sc_f)):
            core.fail(f"context_memory: doubling {what} should multiply kv_cache_bytes by "
                      f"{kv_f} and score_bytes by {sc_f}; yours multiplies them by "
                      f"{ratios[0]:.3g} and {ratios[1]:.3g}: {why}.", diagnosis)


@core.exercise
def check_context_memory(context_memory) -> None:
    """Exercise: context_memory(...) -> (KV cache bytes of the model, one layer's score bytes)."""
    small = (3, 16, 4, 6, 8)  # factors 2, n_layers, n_heads, T, bytes all differ
    measured = _measured_memory(*small)
    if measured != _memory_formula(*small):
        raise RuntimeError("internal: the memory formula disagrees with the measured model")
    cases = [small, (12, 768, 12, 1024, 2), (32, 4096, 32, 4096, 2), (5, 12, 3, 7, 4)]
    if core.grading():  # sizes the notebook has not seen: a table of the answers above fails
        rng = core.rng(1)
        while len(cases) < 6:
            n_heads = int(rng.integers(1, 33))
            case = (int(rng.integers(1, 49)), n_heads * int(rng.integers(1, 129)), n_heads,
                    int(rng.integers(1, 8193)), int(rng.choice([1, 2, 4, 8])))
            if case not in cases:
                cases.append(case)
    for i, (n_layers, d_model, n_heads, T, b) in enumerate(cases):
        name = (f"context_memory(n_layers={n_layers}, d_model={d_model}, n_heads={n_heads}, "
                f"T={T}, bytes_per_number={b})")
        result = core.call(context_memory, n_layers, d_model, n_heads, T, b,
                           name="context_memory")
        got = core.unpack(result, ("kv_cache_bytes", "score_bytes"), name=name)
        expected = _memory_formula(n_layers, d_model, n_heads, T, b)
        if (_same(got[0], expected[1]) and _same(got[1], expected[0])
                and not _same(got[0], expected[0])):
            core.fail(f"{name}: you returned (score_bytes, kv_cache_bytes), the pair swapped: "
                      "the wrong order. Return (kv_cache_bytes, score_bytes), the cache first.",
                      "generic.tuple-order")
        named = _memory_mistakes(n_layers, d_model, n_heads, T, b)
        for part, want, mistakes, label in zip(got, expected, named,
                                               ("kv_cache_bytes", "score_bytes"), strict=True):
            for diagnosis, message, wrong in mistakes:  # anticipated mistakes first
                if _same(part, wrong) and not _same(want, wrong):
                    core.fail(f"{name} {label}: {message}", diagnosis)
        if i == 0:
            _memory_properties(context_memory, cases[0])
        sizes = dict(n_layers=n_layers, d_model=d_model, n_heads=n_heads, T=T,
                     bytes_per_number=b)
        factors = {**sizes, "d_head": d_model // n_heads, "2": 2}
        core.compare_tuple(got, expected, ("kv_cache_bytes", "score_bytes"), name=name,
                           axes=(), sizes=sizes, factors=factors, atol=0, rtol=0,
                           per_part={"kv_cache_bytes": dict(mistakes=named[0]),
                                     "score_bytes": dict(mistakes=named[1])})
        for part, label in zip(got, ("kv_cache_bytes", "score_bytes"), strict=True):
            value = part.item() if isinstance(part, (torch.Tensor, np.generic)) else part
            core.require(
                isinstance(value, (int, np.integer)) and not isinstance(value, bool),
                f"{name} {label}: the value is right but it is a {type(value).__name__} "
                f"({value!r}), not an int: a byte count is a whole number. True division "
                "(/) gives a float even when it divides evenly (d_model / n_heads = 64.0), "
                "and the float then spreads through every product. Use integer division (//), "
                "e.g. d_model // n_heads, or count with d_model itself.",
                "architectures.memory-float")
    core.passed("context_memory: KV cache = n_layers * 2 * T * d_model numbers (measured on a "
                "real TinyGPT cache), one layer's scores = n_heads * T^2 numbers, in bytes")
