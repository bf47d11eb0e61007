"""Checks for lesson 09 (cost): an online softmax, one step of tiled attention, a KV-cache
append, a causal sliding-window mask, and top-k routing for a mixture of experts.

Each check refuses the library helper the lesson used (the exercise is to write it), then
runs the student's function on canonical cases, names the anticipated mistakes, checks the
properties of a right answer in teaching order, and compares with the reference.

The online softmax is run on an instrumented row (`_Tracked`, an ndarray subclass): every max
or sum the student's code takes is recorded with the positions of x it covers, so a two-pass
softmax (x.max() first, or a sum over the whole row, or a second pass over the blocks) is seen
even though its values are right. This is lesson-specific and lives here, not in core.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import torch

from helpers.attention import attention, softmax
from helpers.blocks import top_k_routing
from helpers.checks import core
from helpers.heads import KVCache
from helpers.masks import causal_mask, sliding_window_mask
from helpers.model import TinyGPT
from helpers.streaming import attention_step

_same = core.matches


_named_mistake = core.named_mistake


def _compare_part(got, want, *, part: str, name: str, **options) -> None:
    """core.compare for one part of a result (m_new, z_new, k_all, ...).

    core.compare notes "right on an earlier case of another size" from every comparison the
    check made so far; a check that compares parts of different shapes would get that note from
    another part. Here the note is drawn from earlier cases of the same part only (the names of
    a part's comparisons end with ", <part>"). A generic feature core.compare could offer.
    """
    state = core._state
    if state is None:
        core.compare(got, want, name=name, **options)
        return
    saved = state.passed
    state.passed = [e for e in saved if e[0].endswith(f", {part}")]
    try:
        core.compare(got, want, name=name, **options)
    finally:
        state.passed = saved + [e for e in state.passed if e not in saved]


# ------------------------------------------------------------------ ex1: online softmax

ONLINE_FORBIDDEN = (
    *core.SOFTMAX_FUNCTIONS,
    *core.ATTENTION_FUNCTIONS,
    "helpers.streaming.online_softmax",
    "helpers.streaming.online_max_sum",
    "helpers.streaming.softmax_step",
    "helpers.streaming.tiled_attention",
    "scipy.special.logsumexp",
    "torch.logsumexp",
)
_REDUCERS = {"maximum", "fmax", "add", "logaddexp", "multiply"}


class _Reads:
    """What the student's code reduced: (ufunc name, entries per result, positions covered)."""

    def __init__(self):
        self.reductions: list[tuple[str, int, np.ndarray | None]] = []


class _Tracked(np.ndarray):
    """A 1-D row that records every max and sum taken over it or over arrays computed from it.

    `_pos` holds, for each entry, the position of x it comes from (None once unknown).
    """

    def __array_finalize__(self, obj):
        self._reads = getattr(obj, "_reads", None)
        pos = getattr(obj, "_pos", None)
        self._pos = pos if pos is not None and pos.shape == self.shape else None

    def __getitem__(self, index):
        out = super().__getitem__(index)
        if isinstance(out, _Tracked):
            out._pos = None if self._pos is None else self._pos[index]
        return out

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        tracked = [i for i in inputs if isinstance(i, _Tracked)]
        reads = tracked[0]._reads if tracked else None
        plain = [i.view(np.ndarray) if isinstance(i, _Tracked) else i for i in inputs]
        outs = kwargs.get("out")
        if outs is not None:
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, _Tracked) else o
                                  for o in outs)
        result = getattr(ufunc, method)(*plain, **kwargs)
        if method != "__call__" and ufunc.__name__ in _REDUCERS and tracked and reads is not None:
            source = inputs[0] if isinstance(inputs[0], _Tracked) else None
            size = np.size(plain[0])
            per = size // max(1, np.size(result)) if method == "reduce" else size
            pos = None if source is None else source._pos
            reads.reductions.append((ufunc.__name__, int(per), pos))
        if outs is not None:
            return outs[0] if len(outs) == 1 else outs
        if method == "__call__" and isinstance(result, np.ndarray) and result.ndim > 0:
            result = result.view(_Tracked)
            result._reads = reads
            same = [t._pos for t in tracked if t._pos is not None and t._pos.shape == result.shape]
            result._pos = same[0] if same else None
        return result


    # Grading runs the check in the grader and the student's function in the kernel (see
    # helpers/grade/bridge.py): the row is rebuilt there and reports its reductions back.
    def __wire_kernel__(self):
        return "helpers.checks.cost._tracked_from_wire", (self.view(np.ndarray), self._pos)

    def __wire_report__(self):
        return [(u, per, pos) for u, per, pos in self._reads.reductions]

    def __wire_update__(self, report):
        self._reads.reductions.extend((str(u), int(per), None if pos is None else
                                       np.asarray(pos)) for u, per, pos in report or ())


def _tracked_from_wire(state) -> _Tracked:
    values, pos = state
    t = _tracked(values)
    t._pos = None if pos is None else np.asarray(pos)
    return t


def _tracked(x) -> _Tracked:
    t = np.array(x, dtype=float).view(_Tracked)
    t._reads = _Reads()
    t._pos = np.arange(len(x))
    return t


def _one_pass(reads: _Reads, n: int, block_size: int, name: str) -> None:
    """Fail when the student's code reduced more than a block at once, or went back."""
    what = {"maximum": "a max", "fmax": "a max", "add": "a sum", "logaddexp": "a log-sum-exp",
            "multiply": "a product"}
    for ufunc, per, _ in reads.reductions:
        if block_size < per < n:
            core.fail(
                f"{name}: your function takes {what[ufunc]} over {per} scores at once, more "
                f"than one block of block_size = {block_size}: the blocks must be "
                "x[start : start + block_size], with the block_size argument, not a fixed "
                "size.", "cost.online-block-size-ignored")
        if per > block_size:
            whole = "the whole row"
            core.fail(
                f"{name}: your function takes {what[ufunc]} over {whole} at once, up front "
                f"(block_size is {block_size}). That is the two-pass softmax, which needs the "
                "whole row before it can start. Read x block by block, in one pass, and keep "
                "only the running max m and the running sum z; after the last block, divide "
                "exp(x - m) by that z (no further sum over x).",
                "cost.online-reads-whole-row",
            )
    starts = [int(pos.min()) for _, _, pos in reads.reductions if pos is not None and pos.size]
    for a, b in zip(starts, starts[1:], strict=False):
        if b < a:
            core.fail(
                f"{name}: your function goes back to scores it has already read (a max or sum "
                f"over positions from {b} on after one from {a} on): a second pass over the "
                "blocks, max first, then the sum. One pass suffices: when a block raises the "
                "max, rescale the sum you already have by exp(m - m_new).",
                "cost.online-second-pass",
            )


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


def _softmax_last_block_max(x, block_size):
    """The output shifted by the last block's max instead of the running max."""
    m, z = -np.inf, 0.0
    for b in _blocks(x, block_size):
        m_new = max(m, b.max())
        z = z * np.exp(m - m_new) + np.exp(b - m_new).sum()
        m = m_new
    return np.exp(x - _blocks(x, block_size)[-1].max()) / z


def _softmax_drop_tail(x, block_size):
    """The loop runs over len(x) // block_size full blocks: the last, partial one is never read."""
    n_full = len(x) // block_size
    if n_full * block_size == len(x) or n_full == 0:
        return None
    m, z = -np.inf, 0.0
    for b in _blocks(x[: n_full * block_size], block_size):
        m_new = max(m, b.max())
        z = z * np.exp(m - m_new) + np.exp(b - m_new).sum()
        m = m_new
    return np.exp(x - m) / z


def _softmax_block_max(x, block_size):
    """m set to each block's own max, not the running max: exact, until a drop overflows."""
    m, z = -np.inf, 0.0
    for b in _blocks(x, block_size):
        m_new = b.max()
        z = z * np.exp(m - m_new) + np.exp(b - m_new).sum()
        m = m_new
    return np.exp(x - m) / z


def _softmax_rescale_after_add(x, block_size):
    """The block's own terms added first, then the whole sum rescaled, new terms included."""
    m, z = -np.inf, 0.0
    for b in _blocks(x, block_size):
        m_new = max(m, b.max())
        terms = np.exp(b - m_new).sum()
        z = (z + terms) * np.exp(m - m_new) if np.isfinite(m) else terms
        m = m_new
    return np.exp(x - m) / z


def _softmax_from_zero(x, block_size):
    """The running max starts at 0 instead of -inf."""
    m, z = 0.0, 0.0
    for b in _blocks(x, block_size):
        m_new = max(m, b.max())
        z = z * np.exp(m - m_new) + np.exp(b - m_new).sum()
        m = m_new
    return np.exp(x - m) / z


def _softmax_per_block(x, block_size):
    return np.concatenate([softmax(b) for b in _blocks(x, block_size)])


def _softmax_unshifted(x):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / e.sum()


def _online_cases():
    rng = core.rng(9)
    return [
        (np.linspace(-3.0, 4.0, 8), 1),  # the maximum grows at every step
        (np.array([0.5, 2.0, -1.0, 3.0, 1.0, 4.0, 0.0]), 2),  # 2 does not divide 7
        (rng.normal(size=10) * 3, 3),
        (np.array([1.0, -2.0, 0.0, 0.5, 3.0, -1.0, 6.0]), 3),  # the max in the last, short block
        (np.array([5.0, 1.0, 2.0, -1.0, 0.0, 3.0]), 4),  # the max first: nothing to rescale
        (np.array([1000.0, 1003.0, 998.0, 1005.0, 1001.0]), 2),  # exp(1000) overflows
        (np.array([0.0, 1.0, 750.0, 2.0, 760.0]), 2),  # a later block far above the first
        (np.array([2.0, -1.0, 0.5]), 3),  # one block: nothing to rescale
        (np.array([760.0, 2.0, 750.0, 0.0, 1.0]), 2),  # later blocks far BELOW the first
        (np.array([-1000.0, -1003.0, -998.0, -1001.0]), 2),  # every score far below 0
    ]


@core.exercise
@core.single_threaded
def check_online_softmax(my_online_softmax) -> None:
    """Exercise: my_online_softmax(x, block_size) -> softmax(x) from a running max and sum."""
    core.forbid(my_online_softmax, ONLINE_FORBIDDEN, name="my_online_softmax",
                why="Write the running max and sum yourself with np.exp, max and sum: the "
                    "exercise is the streaming computation, which a softmax function skips.")
    cases = _online_cases()
    for x, block_size in cases:
        n, n_blocks = len(x), -(-len(x) // block_size)
        name = f"my_online_softmax({np.array2string(x, precision=1)}, block_size={block_size})"
        row = _tracked(x)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            got = core.as_array(core.call(my_online_softmax, row, block_size,
                                          name="my_online_softmax"), name)
        core.require(got.shape == x.shape,
                     f"{name}: expected one weight per score, shape {x.shape}; got shape "
                     f"{got.shape}. Return exp(x - m) / z for the whole row, not m, z or a "
                     "single block.", "cost.online-shape")
        _one_pass(row._reads, n, block_size, name)
        with np.errstate(over="ignore", invalid="ignore"):  # the mistakes may overflow
            wrong_sum = _softmax_no_rescale(x, block_size)
            inverted = _softmax_inverted_rescale(x, block_size)
            last_max = _softmax_last_block_max(x, block_size)
            dropped = _softmax_drop_tail(x, block_size)
            block_max = _softmax_block_max(x, block_size)
            after_add = _softmax_rescale_after_add(x, block_size)
            from_zero = _softmax_from_zero(x, block_size) if x.max() < -700 else None
        total = f"{wrong_sum.sum():.3f}"
        mistakes = [
            ("cost.online-m-from-zero",
             "you started the running max at m = 0 instead of -inf: on this row every score is "
             "far below 0 (near -1000), so max(0, ...) stays 0, every exp(x - 0) underflows to "
             "0, z = 0 and 0 / 0 = NaN. Start from m = -inf (the initial max), z = 0.",
             from_zero),
            ("cost.online-block-max",
             "you set m to each block's own max instead of the running max, the larger of m and "
             "the block's max, max(m, block.max()): when a later block is far below an earlier "
             "one, exp(m - m_new) is exp of a large positive number and overflows to inf.",
             block_max if not _same(block_max, softmax(x)) else None),
            ("cost.online-drops-last-block",
             f"your loop never reads the last, partial block: block_size = {block_size} does "
             f"not divide len(x) = {n}, and len(x) // block_size full blocks leave a remainder "
             f"(the tail, positions {n - n % block_size}..{n - 1}). Read every entry: "
             "range(0, len(x), block_size) covers the partial block too.", dropped),
            ("cost.online-rescale-after-add",
             "you rescaled after adding the block's terms: (z + new terms) * exp(m - m_new) "
             "multiplies the new terms, already taken relative to m_new, by the factor too. "
             "The order matters: rescale the old z first, before adding the block's terms.",
             after_add),
            ("cost.online-sum-not-rescaled",
             f"your weights sum to {total}, not 1: you forgot to rescale the running sum when "
             "the max changes. Terms added earlier were exp(x - m_old); when a block raises the "
             "max to m_new, multiply the sum by exp(m_old - m_new) before adding the new terms.",
             wrong_sum),
            ("cost.online-rescale-inverted",
             "you rescaled the running sum by exp(m_new - m_old), the wrong way round: your "
             "factor is inverted, exp(m_new - m) instead of exp(m - m_new). When the max grows, "
             "old terms shrink relative to it, so multiply by exp(m_old - m_new) <= 1.",
             inverted),
            ("cost.online-per-block",
             "you normalised each block on its own, so every block sums to 1. Softmax divides "
             "by the sum over the whole row: keep one running sum across blocks.",
             _softmax_per_block(x, block_size)),
            ("cost.online-no-max",
             "exp overflowed to inf and the result is NaN: subtract the running max before exp "
             "(exp(1000) is inf in float64). Keep the max m and the sum of exp(x - m).",
             _softmax_unshifted(x)),
            ("cost.online-last-block-max",
             "your running sum is right, but the final exp(x - m) uses the last block's max "
             "(block.max()), not the running max m after the last block: z was summed relative "
             "to the running m, so the numerator and z use different shifts. The numerator "
             "must use that same m.", last_max),
        ]
        _named_mistake(got, softmax(x), mistakes, name)
        core.require(np.isfinite(got).all(),
                     f"{name}: your weights contain NaN or inf: exp of a large score overflowed "
                     "(exp(710) is inf in float64) or z is 0. Subtract the running max before "
                     "every exp, in the block terms and in the final exp(x - m).",
                     "cost.online-not-finite")
        core.require((got >= 0).all(),
                     f"{name}: some weights are negative; exp(...) / z is never negative.",
                     "cost.online-negative")
        core.require(np.isclose(got.sum(), 1.0, atol=1e-6),
                     f"{name}: your weights sum to {got.sum():.4g}, not 1: the z you divide by "
                     "is not the sum of exp(x_j - m) over the whole row, for the m you use in "
                     "the numerator. Each rescaling must bring the old sum to the new max.",
                     "cost.online-not-normalised")
        core.compare(got, softmax(x), name=name, axes=("n",),
                     mistakes=[m for m in mistakes if m[2] is not None],
                     sizes=dict(n=n, block_size=block_size, blocks=n_blocks),
                     factors={"block_size": float(block_size), "number of blocks":
                              float(n_blocks)})
    core.passed(f"my_online_softmax: equals softmax for {len(cases)} rows read in blocks of 1 to "
                "4, in one pass, including a max that grows at every step and scores near 1000")


# ------------------------------------------------------------------ ex2: one tiled step

STEP_FORBIDDEN = (
    *core.ATTENTION_FUNCTIONS,  # helpers.streaming.attention_step among them
    "helpers.streaming.tiled_attention",
    "helpers.streaming.softmax_step",
)


def _step_variants(m, z, acc, s, v):
    """Reference step and the results of named mistakes, as (m, z, acc) tuples."""
    m_new = np.maximum(m, s.max(axis=-1))
    with np.errstate(over="ignore", invalid="ignore"):
        alpha = np.exp(m - m_new)
        inv = np.exp(m_new - m)
        p = np.exp(s - m_new[:, None])
        p_old = np.exp(s - m[:, None])  # weights taken relative to the old max
        m_blk = s.max(axis=-1)
        p_blk = np.exp(s - m_blk[:, None])
        p_raw = np.exp(s)
    right = attention_step(m, z, acc, s, v)
    z_new = right[1]
    variants = {
        "sum": (m_new, z + p.sum(-1), alpha[:, None] * acc + p @ v),
        "acc": (m_new, z_new, acc + p @ v),
        "both": (m_new, z + p.sum(-1), acc + p @ v),
        "normalised": (m_new, z_new, (alpha[:, None] * acc + p @ v) / z_new[:, None]),
        "old max": (m_new, alpha * z + p_old.sum(-1), alpha[:, None] * acc + p_old @ v),
        "block max": (m_blk, z + p_blk.sum(-1), acc + p_blk @ v),
        "inverted": (m_new, inv * z + p.sum(-1), inv[:, None] * acc + p @ v),
        "unshifted": (m_new, alpha * z + p_raw.sum(-1), alpha[:, None] * acc + p_raw @ v),
        "restarted": (m_new, z_new, p @ v),
    }
    if acc.shape[0] == acc.shape[1]:  # alpha * acc broadcasts along d_v without an error
        variants["columns"] = (m_new, z_new, alpha[None, :] * acc + p @ v)
    with np.errstate(over="ignore", invalid="ignore"):
        one = np.maximum(m, s.max())
        variants["one max"] = _step_from(m, z, acc, s, v, one)
        if np.isinf(s).any():
            variants["masked zero"] = attention_step(m, z, acc, np.where(np.isinf(s), 0.0, s), v)
        if s.shape[0] == s.shape[1]:  # a wrong axis broadcasts silently on a square block
            variants["queries axis"] = _step_from(m, z, acc, s, v,
                                                           np.maximum(m, s.max(axis=0)))
            m_k = np.maximum(m, s.max(axis=-1))
            p_k = np.exp(s - m_k[None, :])
            a_k = np.exp(m - m_k)
            variants["key axis"] = (m_k, a_k * z + p_k.sum(-1), a_k[:, None] * acc + p_k @ v)
    return right, variants


def _step_from(m, z, acc, s, v, m_new):
    """The step with a given (possibly wrong) m_new, the rest done right."""
    alpha = np.exp(m - m_new)
    p = np.exp(s - m_new[:, None])
    return m_new, alpha * z + p.sum(-1), alpha[:, None] * acc + p @ v


STEP_MESSAGES = {
    "sum": ("cost.step-sum-not-rescaled",
            "you forgot to rescale the running sum z (z is not rescaled): when the max grows "
            "from m to m_new, the old sum was taken relative to m, so multiply it by "
            "exp(m - m_new) before adding. Rescale z too: rescale both z and acc by that "
            "factor."),
    "acc": ("cost.step-acc-not-rescaled",
            "you did not rescale the accumulated output (acc is not rescaled): acc holds "
            "sum exp(s - m) v over the keys seen so far, relative to the old max m. Rescale acc "
            "too, by the same exp(m - m_new) as z: rescale both z and acc."),
    "one max": ("cost.step-one-max",
                "m_new takes the max over the whole block, all queries together: each query "
                "keeps its own running max, per query, the max over its own keys (axis=-1), "
                "not over axis 0 or the whole block."),
    "masked zero": ("cost.step-masked-weight",
                    "your step gives weight to masked keys: a masked score is -inf, and its "
                    "weight must be exp(-inf - m_new) = 0. Replacing -inf by 0 (or ignoring the "
                    "mask) gives each masked key the weight exp(0 - m_new). Keep the -inf: "
                    "np.exp(-inf) is 0."),
    "queries axis": ("cost.step-max-over-queries",
                     "you took the block's max over axis 0, over the queries, instead of over "
                     "each query's keys: s is (T_q, B), one row per query, so each query's "
                     "max over the keys is s.max(axis=-1)."),
    "key axis": ("cost.step-m-along-keys",
                 "you subtracted m_new from s without a key axis: m_new has one entry per "
                 "query (T_q,), and s - m_new lines it up with the B keys (it broadcasts along "
                 "the keys). Make it a column, m_new[:, None], so each row subtracts its own "
                 "query's max."),
    "both": ("cost.step-nothing-rescaled",
             "neither the running sum z nor the accumulated output acc was rescaled: both were "
             "summed relative to the old max m, so both need the factor exp(m - m_new)."),
    "normalised": ("cost.step-divided",
                   "you divided acc by the running sum inside the step. acc stays "
                   "unnormalised (sum of exp(s - m) v); divide by z once, after the last block."),
    "old max": ("cost.step-old-max",
                "the new block's weights were taken relative to the old max, exp(s - m): take "
                "them relative to the new one, exp(s - m_new), like the rescaled old terms."),
    "block max": ("cost.step-block-max",
                  "you kept only this block's max, not the running max: m_new = max(m, max of "
                  "the block). A later block with smaller scores must not lower it."),
    "inverted": ("cost.step-rescale-inverted",
                 "you rescaled z and acc by exp(m_new - m), the wrong way round: when the max "
                 "grows, the old terms shrink relative to it, so the factor is exp(m - m_new) "
                 "<= 1."),
    "unshifted": ("cost.step-unshifted",
                  "the block's weights are exp(s) with no max subtracted, while the rescaled "
                  "old terms are relative to m_new: subtract m_new (one per query) from the "
                  "block's scores before exp, as for the old terms."),
    "restarted": ("cost.step-acc-restarted",
                  "acc_new holds only this block's weighted values: the old acc, rescaled by "
                  "exp(m - m_new), must stay in the sum, as the old z does in z_new."),
    "columns": ("cost.step-alpha-columns",
                "acc was rescaled column by column: alpha has one factor per query (T_q,), and "
                "alpha * acc lines it up with the d_v columns of acc. Make it a column, one "
                "factor per row (alpha[:, None] or keepdims), before multiplying."),
}


def _compare_state(got, want, variants, name, state, s):
    """The new state against the reference: first a whole named mistake, then part by part in
    the order the step computes them (m_new, then z_new, then acc_new)."""
    labels = ("m_new", "z_new", "acc_new")
    got = core.unpack(got, labels, name=name)
    got = [core.as_array(g, f"{name}, {label}") for g, label in zip(got, labels, strict=True)]
    if all(_same(g, w, atol=1e-9) for g, w in zip(got, want, strict=True)):
        return
    for order in itertools.permutations(range(3)):
        if order != (0, 1, 2) and all(_same(got[i], want[o], atol=1e-9)
                                      for i, o in enumerate(order)):
            yours = ", ".join(labels[o] for o in order)
            core.fail(f"{name}: you returned ({yours}), the parts in the wrong order (two "
                      "swapped); the exercise asks for the tuple (m_new, z_new, acc_new), in "
                      "that order.", "generic.tuple-order")
    for key, wrong in variants.items():
        if all(_same(g, w, atol=1e-9) for g, w in zip(got, wrong, strict=True)):
            diagnosis, message = STEP_MESSAGES[key]
            core.fail(f"{name}: {message}", diagnosis)
    m, z, acc = state

    def named(key, part):
        return (*STEP_MESSAGES[key], variants[key][part])

    per_part = [
        ("m_new", "step 1 of 3", ("T_q",), [
            ("cost.step-one-max", "m_new is one number for all queries: each query keeps its "
             "own running max, shape (T_q,), the larger of its m and its largest score in the "
             "block (a max over the keys, axis=-1).", max(float(np.max(m)), float(np.max(s)))),
            ("cost.step-m-unchanged", "m_new is the old running max m: the block's scores were "
             "never compared with it. m_new is the larger of m and each query's largest score "
             "in the block.", m),
            named("block max", 0),
        ]),
        ("z_new", "step 2 of 3 (m_new is right)", ("T_q",), [
            named("sum", 1), named("inverted", 1), named("old max", 1), named("unshifted", 1),
            ("cost.step-z-unchanged", "z_new is the old z: add this block's terms, the sum "
             "over its keys of exp(s - m_new).", z),
        ]),
        ("acc_new", "step 3 of 3 (m_new and z_new are right)", ("T_q", "d_v"), [
            named("acc", 2), named("normalised", 2), named("inverted", 2), named("restarted", 2),
            *([named("columns", 2)] if "columns" in variants else []),
            ("cost.step-acc-unchanged", "acc_new is the old acc: add this block's weighted "
             "values, exp(s - m_new) @ v.", acc),
            ("cost.step-acc-transposed", "acc_new is transposed, (d_v, T_q): like acc, it has "
             "one row per query and one column per value feature, (T_q, d_v).", want[2].T),
        ]),
    ]
    sizes = dict(T_q=s.shape[0], B=s.shape[1], d_v=acc.shape[1])
    for (label, step, axes, mistakes), g, w in zip(per_part, got, want, strict=True):
        _compare_part(g, w, part=label, name=f"{name}, {step}, {label}", atol=1e-9, axes=axes,
                      sizes=sizes, factors={"B": float(s.shape[-1])}, mistakes=mistakes)


def _square_probe(fn, error, name):
    """The step raised on a block with T_q != B: on a square block (T_q = B = d_v) a max or a
    subtraction along the wrong axis broadcasts silently; name the variant the answer gives."""
    rng = core.rng(21)
    m, z, acc = np.array([0.5, 2.0, -0.5]), np.array([1.3, 2.4, 1.1]), rng.normal(size=(3, 3))
    s, v = np.array([[1.5, -0.5, 0.2], [1.0, 0.3, -2.0], [0.4, 3.0, 0.1]]), rng.normal(size=(3, 3))
    try:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            got = fn(m.copy(), z.copy(), acc.copy(), s.copy(), v.copy())
        got = [np.asarray(g, dtype=float) for g in got]
    except Exception:  # noqa: BLE001 - it fails there too: the first error shows
        return
    if len(got) != 3:
        return
    _, variants = _step_variants(m, z, acc, s, v)
    for key, wrong in variants.items():
        if all(_same(g, w, atol=1e-9) for g, w in zip(got, wrong, strict=True)):
            diagnosis, message = STEP_MESSAGES[key]
            core.fail(f"{name}: your function raised {type(error).__name__} ({error}): an "
                      "array of one entry per query (T_q,) met one of one entry per key (B,), "
                      "a broadcast along the wrong axis. On a square block (T_q = B) it runs, "
                      f"and there: {message}", diagnosis)
    core.fail(f"{name}: your function raised {type(error).__name__} ({error}): an array of one "
              "entry per query (T_q,) met one of another length, a broadcast along the wrong "
              "axis. m, z and m_new hold one entry per query: the block's max is over each "
              "query's keys (s.max(axis=-1)), and m_new[:, None] is a column for s (T_q, B) and "
              "acc (T_q, d_v).", "cost.step-broadcast")


def _one_step(fn, state, s, v, name):
    m, z, acc = state
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        try:
            got = core.call(fn, m, z, acc, s, v, name="my_attention_step")
        except ValueError as error:
            if "broadcast" not in str(error) or s.shape[0] == s.shape[1]:
                raise
            _square_probe(fn, error, name)
            raise
        want, variants = _step_variants(m, z, acc, s, v)
    _compare_state(got, want, variants, name, state, s)
    return tuple(np.asarray(g, dtype=float) for g in got)


@core.exercise
@core.single_threaded
def check_attention_step(my_attention_step) -> None:
    """Exercise: my_attention_step(m, z, acc, s, v) -> (m_new, z_new, acc_new)."""
    core.forbid(my_attention_step, STEP_FORBIDDEN,
                name="my_attention_step",
                why="Write the step yourself with np.maximum, np.exp, sums and @: that is the "
                    "exercise.")
    rng = core.rng(3)
    # T_q = d_v = 2: alpha * acc broadcasts without an error along the wrong axis.
    state = (np.array([0.5, 2.0]), np.array([1.3, 2.4]), rng.normal(size=(2, 2)))
    s = np.array([[1.5, -0.5, 0.2], [1.0, 0.3, -2.0]])
    _one_step(my_attention_step, state, s, rng.normal(size=(3, 2)),
              "my_attention_step(2 queries, 3 keys, d_v=2; row 0 gets a new max)")
    # T_q=3, B=2, d_v=4: from a state that has seen some keys; rows 0 and 2 get a new max.
    state = (np.array([1.0, 2.5, -0.5]), np.array([1.7, 2.2, 1.1]), rng.normal(size=(3, 4)))
    s = np.array([[2.0, 0.5], [1.0, -1.0], [0.4, 3.0]])
    _one_step(my_attention_step, state, s, rng.normal(size=(2, 4)),
              "my_attention_step(3 queries, 2 keys, d_v=4; rows 0 and 2 get a new max)")
    # Scores near 1000: exp(s) alone overflows.
    state = (np.array([1000.0, 995.0]), np.array([1.5, 1.2]), rng.normal(size=(2, 3)))
    s = np.array([[1002.0, 999.0, 1000.5, 990.0], [994.0, 996.0, 993.0, 995.5]])
    _one_step(my_attention_step, state, s, rng.normal(size=(4, 3)),
              "my_attention_step(scores near 1000, 2 queries, 4 keys, d_v=3)")

    # A whole causal attention, key block by key block, from m = -inf, z = 0, acc = 0.
    T, d, d_v, block = 7, 3, 2, 3
    q, k = (rng.normal(size=(T, d)) * 1.5 for _ in range(2))
    vv = rng.normal(size=(T, d_v))
    scores = np.where(causal_mask(T), q @ k.T / np.sqrt(d), -np.inf)
    state = (np.full(T, -np.inf), np.zeros(T), np.zeros((T, d_v)))
    for j in range(0, T, block):
        name = f"my_attention_step(causal T={T}, keys {j}..{min(j + block, T) - 1})"
        state = _one_step(my_attention_step, state, scores[:, j : j + block], vv[j : j + block],
                          name)
    _, z, acc = state
    _compare_part(acc / z[:, None], attention(q, k, vv, causal_mask(T))[0], part="output",
                  name="acc / z after the last block, output", axes=("T_q", "d_v"),
                 sizes=dict(T_q=T, T_k=T, d_k=d, d_v=d_v))
    core.passed("my_attention_step: rescales z and acc by exp(m - m_new), scores near 1000 "
                "included; three blocks of a causal row give acc / z = attention(q, k, v, "
                "causal mask)")


# ------------------------------------------------------------------ ex3: KV-cache append

CACHE_FORBIDDEN = ("helpers.heads.KVCache", "helpers.heads.MultiHeadAttention")
CACHE_AXES = ("batch", "head", "position", "feature")


def _tensor(got, name):
    if got is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    core.require(isinstance(got, torch.Tensor),
                 f"{name}: return torch tensors; got {type(got).__name__}",
                 "cost.cache-not-a-tensor")
    return got


def _append(fn, cache_k, cache_v, k, v, name):
    try:
        got = core.call(fn, cache_k, cache_v, k, v, name="my_cache_append",
                        type_id="cost.cache-not-a-tensor")
    except TypeError as error:
        if cache_k is None:
            core.fail(
                f"{name}: your function failed on an empty cache ({type(error).__name__}: "
                f"{error}). Before the first position the cache is None: there is nothing to "
                "append to yet.", "cost.cache-empty-not-handled")
        raise
    except RuntimeError as error:
        said = str(error)
        if "Sizes of tensors must match" in said:
            found = re.search(r"except in dimension (-?\d+)", said)
            dim = int(found.group(1)) % 4 if found else None
            joined = ("" if dim is None else
                      f" you appended along dim={dim}, the {CACHE_AXES[dim]} axis, and")
            core.fail(
                f"{name}: torch.cat failed:{joined} the cache (B, H, T_past, d_head) and the "
                "new step (B, H, T_new, d_head) differ only along the position axis, dim=-2 "
                f"(dim=2): that is the one axis they may be joined along. ({said})",
                "cost.cache-cat-wrong-axis")
        if "stack expects each tensor to be equal size" in said:
            core.fail(
                f"{name}: torch.stack failed ({said}): stack puts tensors of the same shape "
                "side by side on a new axis. Joining along an existing axis, the positions, is "
                "torch.cat.", "cost.cache-stacked")
        raise
    pair = core.unpack(got, ("k_all", "v_all"), name=name)
    return _tensor(pair[0], f"{name}, k_all"), _tensor(pair[1], f"{name}, v_all")


def _cache_mistakes(old, new, other_old, other_new, what, other):
    """(id, message, wrong) for appending `new` to `old`; the other tensor shows a swap."""
    def cat(dim):
        return torch.cat([old, new], dim=dim)

    return [
        ("cost.cache-head-axis",
         f"you appended along the head axis (dim=1): the result has "
         f"{old.shape[1] + new.shape[1]} heads. Append along the position axis, dim=-2.",
         cat(1) if old.shape[-2] == new.shape[-2] else None),
        ("cost.cache-feature-axis",
         "you appended along the feature axis (dim=-1): each position now has "
         f"{old.shape[-1] + new.shape[-1]} features. Append along the position axis, dim=-2.",
         cat(-1) if old.shape[-2] == new.shape[-2] else None),
        ("cost.cache-batch-axis",
         f"you appended along the batch axis (dim=0): the result has "
         f"{old.shape[0] + new.shape[0]} sequences. Append along the position axis, dim=-2.",
         cat(0) if old.shape[-2] == new.shape[-2] else None),
        ("cost.cache-new-first",
         "wrong order: the new positions come first (new first). The cache must stay in "
         "position order, the old positions first, then the new ones: [old, new], the cached "
         "(older) positions, then the new ones.", torch.cat([new, old], dim=-2)),
        ("cost.cache-other-new",
         f"you appended {other[0]}_new into the {what[:-1]} cache instead of {what[0]}_new (a "
         f"copy-paste slip?): the {what} cache grows by the new {what}, {what[0]}_new, and "
         f"the {other} cache by {other[0]}_new.", torch.cat([old, other_new], dim=-2)),
        ("cost.cache-past-forgotten",
         f"you returned only the new {what} and forgot the cached ones: the next query could "
         "not read the past.", new),
        ("cost.cache-unchanged",
         f"you returned the cache unchanged: the new {what} were never appended.", old),
        ("cost.cache-k-v-swapped",
         f"{what[0]}_all holds the {other}: keys and values were swapped.",
         torch.cat([other_old, other_new], dim=-2)),
        ("cost.cache-stacked",
         "your result has an extra axis: torch.stack puts the two tensors side by side on a "
         "new axis; joining along an existing axis is torch.cat.",
         torch.stack([old, new]) if old.shape == new.shape else None),
    ]


def _compare_cache(got, want, make_mistakes, name, sizes):
    part = name.rsplit(", ", 1)[-1]
    if _same(got, want):  # the mistakes are built only for a wrong answer
        _compare_part(got, want, part=part, name=name)
        return
    mistakes = [m for m in make_mistakes() if m[2] is not None]
    _named_mistake(got, want, mistakes, name)
    _compare_part(got, want, part=part, name=name, mistakes=mistakes,
                  axes=("B", "H", "T_past + T_new", "d_head"), sizes=sizes)


@core.exercise
@core.single_threaded
def check_cache_append(my_cache_append) -> None:
    """Exercise: my_cache_append(cache_k, cache_v, k_new, v_new) -> (k_all, v_all)."""
    core.forbid(my_cache_append, CACHE_FORBIDDEN, name="my_cache_append",
                why="Write the append yourself with torch: that is the exercise, and the "
                    "check plugs your function into KVCache for you.")
    g = core.torch_generator(0)
    B, H, d = 2, 3, 4

    def kv(t):
        return torch.randn(B, H, t, d, generator=g), torch.randn(B, H, t, d, generator=g)

    k0, v0 = kv(5)
    k1, v1 = kv(5)
    k2, v2 = kv(1)
    k3, v3 = kv(3)

    got_k, got_v = _append(my_cache_append, None, None, k3, v3,
                           "my_cache_append(None, None, 3 new positions)")
    sizes = dict(B=B, H=H, T_past=0, T_new=3, d_head=d)
    _compare_part(got_k, k3, part="k_all", name="first call (empty cache), k_all", sizes=sizes,
                 axes=("B", "H", "T_new", "d_head"), mistakes=[
                     ("cost.cache-k-v-swapped", "k_all holds the values: keys and values were "
                      "swapped.", v3)])
    _compare_part(got_v, v3, part="v_all", name="first call (empty cache), v_all", sizes=sizes,
                 axes=("B", "H", "T_new", "d_head"), mistakes=[
                     ("cost.cache-k-v-swapped", "v_all holds the keys: keys and values were "
                      "swapped.", k3)])

    steps = [(k0, v0, k3, v3, "5 cached positions, 3 new"),
             (k0, v0, k1, v1, "5 cached positions, 5 new"),
             (torch.cat([k0, k3], -2), torch.cat([v0, v3], -2), k2, v2,
              "8 cached positions, 1 new")]
    for ck, cv, nk, nv, label in steps:
        name = f"my_cache_append({label})"
        got_k, got_v = _append(my_cache_append, ck, cv, nk, nv, name)
        sizes = dict(B=B, H=H, T_past=ck.shape[-2], T_new=nk.shape[-2], d_head=d)
        _compare_cache(got_k, torch.cat([ck, nk], dim=-2), lambda: _cache_mistakes(
            ck, nk, cv, nv, "keys", "values"), f"{name}, k_all", sizes)  # noqa: B023
        _compare_cache(got_v, torch.cat([cv, nv], dim=-2), lambda: _cache_mistakes(
            cv, nv, ck, nk, "values", "keys"), f"{name}, v_all", sizes)  # noqa: B023

    # Plugged into a model's cache: prefill 4 tokens, decode 6, one at a time.
    class StudentCache(KVCache):
        def append(self, k, v):
            self.k, self.v = _append(my_cache_append, self.k, self.v, k, v, "in the model")
            return self.k, self.v

    model = TinyGPT(11, d_model=16, n_heads=2, n_layers=2, d_ff=32, max_len=16,
                    seed=core.seed(1)).eval()
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
            core.fail(
                "TinyGPT failed while decoding with your cache (prefill 4 positions, then one "
                f"at a time): {type(error).__name__}: {error}. After each append the cache "
                "must hold every position so far, (B, H, T_past + T_new, d_head).",
                "cost.cache-model-failed")
    _compare_part(torch.cat(steps, dim=1), full, part="logits",
                  name="decoding a TinyGPT with your cache, logits",
                 atol=1e-5, axes=("B", "T", "vocab"), sizes=dict(B=2, T=10, vocab=11))
    core.passed("my_cache_append: old then new along the position axis, for an empty cache, 5 + "
                "3, 5 + 5 and 8 + 1; in a TinyGPT, prefill 4 + decode 6 gives the logits of "
                "recomputing all 10 positions")


# ------------------------------------------------------------------ ex4: sliding window

WINDOW_FORBIDDEN = ("helpers.masks.sliding_window_mask", "helpers.streaming.tiled_attention")


def _bool_mask(got, name, shape):
    if got is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    got = got.detach().cpu().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    core.require(got.dtype == np.bool_,
                 f"{name}: return a boolean array (True = may attend); got dtype {got.dtype}. "
                 "Comparisons (<, <=, ==) and & give booleans; 0/1 numbers do not.",
                 "cost.window-not-boolean")
    core.require(got.shape == shape,
                 f"{name}: expected shape {shape} = (T queries, T keys), got shape {got.shape}. "
                 "Build it from the argument T, not a fixed size.", "cost.window-shape")
    return got


def _window_properties(got, T, window, name):
    """The properties of a causal window, in teaching order, each with its own message."""
    rows = np.arange(T)
    want = sliding_window_mask(T, window)
    bad_rows = np.nonzero((got != want).any(axis=1))[0]
    if bad_rows.size and bad_rows.max() < window - 1 and window <= T:
        core.fail(f"{name}: only your first rows are wrong (rows {bad_rows.tolist()}, the early "
                  f"rows i < window - 1 = {window - 1}); every later row is right. There the "
                  "window's first key i - window + 1 is negative, and a negative slice start "
                  "counts from the end (it wraps around), so the row comes out empty or wrong. "
                  "Clip the start at 0: max(0, i - window + 1).", "cost.window-negative-start")
    if not got[rows, rows].all():
        core.fail(f"{name}: row {int(rows[~got[rows, rows]][0])} does not keep its own "
                  "position: your window excludes the diagonal. The query itself counts as one "
                  "of the `window` keys (j = i is allowed).", "cost.window-excludes-diagonal")
    future = np.triu(got, 1)
    if future.any():
        i, j = (int(a[0]) for a in np.nonzero(future))
        core.fail(f"{name}: row {i} keeps key {j}, after it: your window looks ahead, into the "
                  "future. A causal window allows only j <= i.", "cost.window-looks-ahead")
    want_count = np.minimum(rows + 1, window)
    count = got.sum(axis=1)
    bad = np.nonzero(count != want_count)[0]
    if bad.size:
        i = int(bad[0])
        core.fail(f"{name}: row {i} keeps {int(count[i])} keys; it should keep "
                  f"min(i + 1, window) = {int(want_count[i])}: the {int(want_count[i])} most "
                  f"recent positions up to and including {i}. Check the bound on i - j (strict "
                  "or not).", "cost.window-wrong-count")
    for i in rows:
        kept = np.nonzero(got[i])[0]
        if kept.size and (kept[-1] != i or kept[0] != i - kept.size + 1):
            core.fail(f"{name}: row {i} keeps keys {kept.tolist()}: the right number, but not "
                      f"the most recent ones, {i - kept.size + 1}..{i}.",
                      "cost.window-not-recent")


@core.exercise
@core.single_threaded
def check_sliding_window_mask(my_sliding_window_mask) -> None:
    """Exercise: my_sliding_window_mask(T, window) -> (T, T) bool, keys i-window+1..i."""
    core.forbid(my_sliding_window_mask, WINDOW_FORBIDDEN, name="my_sliding_window_mask",
                why="Build the mask yourself from comparisons of positions: that is the "
                    "exercise.")
    cases = ((8, 3), (6, 1), (5, 2), (4, 6), (7, 7), (1, 1))
    if core.grading():  # sizes the notebook has not seen: a table of the masks above fails
        rng = core.rng(1)
        while len(cases) < 8:
            T = int(rng.integers(2, 17))
            case = (T, int(rng.integers(1, T + 3)))
            if case not in cases and case != (8, 5):
                cases += (case,)
    first = _bool_mask(core.call(my_sliding_window_mask, 8, 3, name="my_sliding_window_mask"),
                       "my_sliding_window_mask(8, 3)", (8, 8))
    other = _bool_mask(core.call(my_sliding_window_mask, 8, 5, name="my_sliding_window_mask"),
                       "my_sliding_window_mask(8, 5)", (8, 8))
    if np.array_equal(first, other) and not np.array_equal(first, causal_mask(8)):
        kept = int(first[-1].sum())
        core.fail("my_sliding_window_mask: your mask is the same for window = 3 and window = 5 "
                  f"(row 7 keeps {kept} keys in both): it ignores the window argument. Is the "
                  "window hard-coded (a fixed size from the lesson's example)? Use the window "
                  "you are given.", "cost.window-ignored")
    for T, window in cases:
        name = f"my_sliding_window_mask({T}, {window})"
        got = _bool_mask(core.call(my_sliding_window_mask, T, window,
                                   name="my_sliding_window_mask"), name, (T, T))
        i, j = np.arange(T)[:, None], np.arange(T)[None, :]
        want = sliding_window_mask(T, window)
        mistakes = [
            ("cost.window-excludes-diagonal",
             "your window excludes the diagonal: row i keeps i-window..i-1, so a query cannot "
             "read itself (and row 0 reads nothing: NaN). Keep i-window+1..i, i included.",
             (j < i) & (j >= i - window)),
            ("cost.window-looks-ahead",
             "your window looks ahead: row i keeps keys after i, so it reads the future. A "
             "causal window keeps only j <= i.", np.abs(i - j) < window),
            ("cost.window-only-future",
             "your window looks only ahead: row i keeps i..i+window-1, the future. Keep the "
             "past, i-window+1..i.", (j >= i) & (j < i + window)),
            ("cost.window-one-too-many",
             f"your window keeps window + 1 = {window + 1} keys per row, one too many (off by "
             "one, as i - j <= window gives): i-window..i. Count the query itself as one of "
             "the `window` keys: i-window+1..i.",
             (j <= i) & (j >= i - window)),
            ("cost.window-one-too-few",
             f"your window keeps window - 1 = {window - 1} keys per row, one too few (off by "
             "one): i-window+2..i. The "
             "`window` keys are the query itself and the window - 1 before it.",
             (j <= i) & (i - j < window - 1)),
            ("cost.window-plain-causal",
             "that is the plain causal mask: the window is missing, so row i still reads every "
             "key 0..i.", causal_mask(T)),
            ("cost.window-inverted",
             "your mask is inverted: True must mean may attend, not blocked.", ~want),
            ("cost.window-old-keys",
             "your mask keeps the keys the window drops (older than i-window+1) and drops the "
             "recent ones: the two conditions are combined the wrong way round.",
             causal_mask(T) & ~want),
        ]
        wrapped = np.zeros((T, T), dtype=bool)
        for r in range(T):  # a slice start i - window + 1 < 0 counts from the end
            wrapped[r, r - window + 1 : r + 1] = True
        mistakes.insert(0, (
            "cost.window-negative-start",
            "your first rows are wrong: for the early rows i < window - 1 the slice start "
            "i - window + 1 is negative, and a negative start counts from the end (it wraps "
            "around), so the row comes out empty. Clip the start at 0: max(0, i - window + 1).",
            wrapped))
        _named_mistake(got, want, mistakes, name)
        _window_properties(got, T, window, name)
        core.compare(got, want, name=name, mistakes=mistakes, axes=("i (queries)", "j (keys)"),
                     sizes=dict(T=T, window=window))
    core.passed("my_sliding_window_mask: row i keeps i-window+1..i (itself included, nothing "
                f"after), for {len(cases)} sizes including window 1, window = T and window > T")


# ------------------------------------------------------------------ ex5: top-k routing

GATES_FORBIDDEN = ("helpers.blocks.top_k_routing", "helpers.blocks.MoEFeedForward")


def _gate_properties(got, logits, k, name):
    chosen = logits.topk(k, -1).indices.numpy()
    core.require(np.isfinite(got).all(),
                 f"{name}: your gates contain NaN or inf: exp of a large logit overflowed (the "
                 "logits here are near ±1000). Subtract each row's max before exp, or use "
                 "torch.softmax, which does.", "cost.gates-not-finite")
    core.require((got >= 0).all(),
                 f"{name}: some gates are negative: gates are softmax weights, never below 0, "
                 "and 0 for the experts not chosen.", "cost.gates-negative")
    counts = (got != 0).sum(axis=-1)
    bad = np.nonzero(counts != k)[0]
    if bad.size:
        r = int(bad[0])
        n_experts = logits.shape[-1]
        kth = logits.topk(k, -1).values[:, -1:]
        ties = (logits >= kth).sum(-1).numpy()
        why = ""
        if counts[r] == ties[r] and counts[r] > k:
            why = (f" Row {r}'s logits tie at its k-th largest value, and keeping every logit "
                   ">= the k-th largest keeps them all: more than k. Take exactly k, topk's "
                   "indices, not a threshold.")
        elif counts[r] == n_experts and k < n_experts:
            why = (" Every expert gets weight: setting the other logits to 0 instead of -inf "
                   "before a softmax over all experts still gives them weight exp(0); only "
                   "-inf (or a softmax over the k chosen logits alone) makes every other "
                   "expert get 0.")
        elif counts[r] == n_experts - k + 1:
            why = (f" That is n_experts - k + 1 = {n_experts - k + 1}: too many experts, all "
                   "those at or above the k-th smallest logit (torch.kthvalue counts from the "
                   "smallest). Choose the k largest (topk).")
        core.fail(f"{name}: row {r} has {int(counts[r])} non-zero gates; each row must have "
                  f"exactly k={k}: the chosen experts get a gate, every other expert 0.{why}",
                  "cost.gates-wrong-count")
    for r in range(got.shape[0]):
        picked = set(np.nonzero(got[r])[0].tolist())
        if picked != set(chosen[r].tolist()):
            core.fail(f"{name}: row {r} gives its gates to experts {sorted(picked)}, but its k={k} "
                      f"largest logits are at experts {sorted(chosen[r].tolist())}: route each "
                      "token to the experts with the highest scores, at their own positions.",
                      "cost.gates-wrong-experts")
    sums = got.sum(axis=-1)
    bad = np.nonzero(~np.isclose(sums, 1.0, atol=1e-5))[0]
    if bad.size:
        r = int(bad[0])
        core.fail(f"{name}: row {r}'s gates sum to {sums[r]:.4g}, not 1: normalise over the "
                  "k chosen experts only, with a softmax over their k logits, within each row "
                  "(dim=-1), so that each row sums to 1.", "cost.gates-not-normalised")


_TIES = torch.tensor([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, 2.0, 1.0], [4.0, 1.0, 1.0, 0.0]])


def _right_with_ties(got, logits, k) -> bool:
    """k gates per row, at experts whose logits are among the k largest (any of the tied
    ones), equal to the softmax of the chosen logits."""
    for r in range(logits.shape[0]):
        row = logits[r].numpy()
        chosen = np.nonzero(got[r])[0]
        kth = np.sort(row)[-k]
        if len(chosen) != k or (row[chosen] < kth).any() or ((row > kth).sum()
                                                             > (row[chosen] > kth).sum()):
            return False
        if not _same(got[r][chosen], softmax(row[chosen])):
            return False
    return True


@core.exercise
@core.single_threaded
def check_top_k_gates(my_top_k_gates) -> None:
    """Exercise: my_top_k_gates(logits, k) -> (N, n_experts) gates, k non-zero per row."""
    core.forbid(my_top_k_gates, GATES_FORBIDDEN, name="my_top_k_gates",
                why="Write the routing yourself with topk (or a sort), a softmax and scatter: "
                    "that is the exercise.")
    g = core.torch_generator(5)
    cases = [
        (torch.tensor([[0.0, 3.0, 1.0, 2.0], [5.0, -1.0, 4.0, 0.0], [1.0, 2.0, 3.0, 4.0]]), 2),
        (torch.randn(6, 5, generator=g) * 2, 2),
        (torch.randn(4, 6, generator=g), 3),
        (torch.randn(5, 4, generator=g), 1),
        (torch.tensor([[1000.0, 1003.0, 998.0, 1001.0, 990.0],
                       [-1000.0, -998.0, -1003.0, -999.0, -1010.0]]), 3),
        (torch.randn(3, 3, generator=g), 3),  # k = n_experts: the dense softmax is right
        (_TIES, 2),  # ties at the k-th largest logit: any k of the tied experts will do
    ]
    for logits, k in cases:
        n, n_experts = logits.shape
        name = f"my_top_k_gates(logits {tuple(logits.shape)}, k={k})"
        with np.errstate(over="ignore", invalid="ignore"):
            got = core.as_array(core.call(my_top_k_gates, logits, k, name="my_top_k_gates"),
                                name)
        want = top_k_routing(logits, k).dense_gates()
        core.require(got.shape == tuple(want.shape),
                     f"{name}: return one gate per position and expert, shape "
                     f"{tuple(want.shape)} = (N, n_experts) (zeros for the experts not "
                     f"chosen); got shape {got.shape}", "cost.gates-shape")
        if _same(got, want) or (logits is _TIES and _right_with_ties(got, logits, k)):
            core.compare(got, got, name=name)
            continue
        counts = (got != 0).sum(-1)
        if (counts == counts[0]).all() and counts[0] != k and 0 < counts[0] < n_experts:
            other_k = 1 if k != 1 else 2
            with np.errstate(over="ignore", invalid="ignore"):
                probe = core.as_array(core.call(my_top_k_gates, logits, other_k,
                                                name="my_top_k_gates"), name)
            if probe.shape == got.shape and ((probe != 0).sum(-1) == counts[0]).all():
                core.fail(f"{name}: every row has {int(counts[0])} non-zero gates, for k={k} "
                          f"and for k={other_k} alike, where each row must have exactly "
                          f"k={k}: your function ignores the k argument. "
                          f"Is k hard-coded (k={int(counts[0])}) instead of read from the k "
                          "argument?", "cost.gates-k-ignored")
        probs = torch.softmax(logits, -1)
        unnormalised = top_k_routing(logits, k, renormalize=False).dense_gates()
        top = logits.topk(k, -1)
        bottom = (-logits).topk(k, -1).indices
        zeros = torch.zeros_like(probs)
        mistakes = [
            ("cost.gates-softmax-over-all",
             f"your gates sum to {unnormalised.sum(-1)[0]:.3f} per row, not 1: you took the "
             "softmax over all experts and kept the top k. This exercise renormalises over the "
             "chosen ones: softmax over the k chosen logits.", unnormalised),
            ("cost.gates-dense",
             "every expert gets a weight: that is the dense softmax, not top-k routing. Keep "
             "only the k largest logits of each row.", probs),
            ("cost.gates-smallest",
             "you chose the k *smallest* logits: route to the experts with the highest score.",
             zeros.scatter(-1, bottom, torch.softmax(logits.gather(-1, bottom), -1))),
            ("cost.gates-raw-logits",
             "your gates are the raw logits of the chosen experts; turn them into weights that "
             "sum to 1 with a softmax over the k chosen logits.",
             zeros.scatter(-1, top.indices, top.values)),
            ("cost.gates-all-one",
             "each chosen expert gets gate 1: weight them by a softmax over their logits "
             "instead, so each row sums to 1.", (want > 0).double()),
            ("cost.gates-first-experts",
             "your gates sit at experts 0..k-1, not at the chosen experts: topk returns the "
             "values in order AND their indices; put each gate at its expert's index.",
             torch.cat([torch.softmax(top.values, -1), zeros[:, k:]], -1)),
            ("cost.gates-softmax-over-tokens",
             "softmax over the wrong axis: you normalised each chosen slot over the tokens "
             "(dim=0) instead of within each row. The softmax runs over each row's k chosen "
             "logits (dim=-1), so each row sums to 1.",
             zeros.scatter(-1, top.indices, torch.softmax(top.values, 0))),
            ("cost.gates-zero-not-inf",
             "you set the other experts' logits to 0 instead of -inf before a softmax over "
             "all experts: a logit of 0 still gets weight exp(0), so they still get weight. "
             "Every other expert gets 0 only with -inf (masked_fill with float('-inf')), or "
             "with a softmax over the k chosen logits alone.",
             torch.softmax(torch.where(zeros.scatter(-1, top.indices, 1.0).bool(), logits,
                                       zeros), -1)),
            ("cost.gates-kthvalue",
             f"you kept every expert at or above the k-th *smallest* logit (torch.kthvalue "
             f"counts from the smallest): n_experts - k + 1 = {n_experts - k + 1} experts, too "
             "many experts for k. The threshold is the k-th largest: topk, or "
             "kthvalue(n_experts - k + 1).",
             torch.softmax(logits.masked_fill(
                 logits < torch.kthvalue(logits, k, -1).values[:, None], float("-inf")), -1)),
            ("cost.gates-uniform",
             f"each chosen expert gets 1/k = {1 / k:.3g}: the gates must follow the logits, a "
             "softmax over the k chosen ones.", (want > 0).double() / k),
        ]
        _named_mistake(got, want, mistakes, name)
        _gate_properties(got, logits, k, name)
        core.compare(got, want, name=name, mistakes=mistakes, axes=("N", "n_experts"),
                     sizes=dict(N=n, n_experts=n_experts, k=k), factors={"k": float(k)})
    core.passed("my_top_k_gates: k non-zero gates per row at the k largest logits, a softmax "
                "over them, rows sum to 1 (k = 1, 2, 3 and k = n_experts, logits near ±1000)")
