"""Checks for lesson 01, Q, K and V: three projections of one X.

Each check calls the student's function (through `core.call`, so an input changed in place is
named) on fixed inputs: the seed program's x and weights, read as the tokens 我 爱 你, and
random inputs of other sizes so that a hard-coded answer fails (exercise 1 starts with square
weights of the seed's d_model, so that x @ w.T and the lesson's global W_Q run and are named
rather than crash). Before comparing values, the projection checks probe what each output
depends on (change one input, see which outputs move), so a wrong weight, a weight shared by
two roles, a global weight, or a wrong sequence is named whatever code produced it; the fuse
check names where each column came from; the split check feeds an arange so that the columns
a wrong slice took can be read off.
"""

from __future__ import annotations

import itertools

import numpy as np

from helpers.attention import attention
from helpers.checks import core
from helpers.examples import WK as SEED_WK
from helpers.examples import WORKED_X as SEED_X
from helpers.examples import WQ as SEED_WQ
from helpers.examples import WV as SEED_WV


def _random(seed: int, *shapes):
    """Arrays of the given shapes, rounded to 2 decimals so they are easy to print."""
    rng = core.rng(seed)  # fixed in a notebook, drawn afresh when grading
    return tuple(rng.normal(size=shape).round(2) for shape in shapes)


def _unpack(result, name: str, what: str, n: int = 3):
    """The student's result as an n-tuple, or a CheckFailed saying what to return."""
    if result is None:
        core.fail(f"{name}: your function returned None. Did you forget `return`?",
                  "generic.none")
    if not isinstance(result, (tuple, list)) or len(result) != n:
        got = type(result).__name__
        if hasattr(result, "shape"):
            got += f" of shape {tuple(result.shape)}"
        elif hasattr(result, "__len__"):
            got += f" of length {len(result)}"
        core.fail(f"{name}: return the tuple {what}; got {got}", "qkv.not-a-tuple")
    return tuple(result)


_same = core.matches


_require_shape = core.require_shape


def _outputs(fn, args, name: str, parts: tuple[str, ...]):
    result = core.call(fn, *args, name=name)
    got = _unpack(result, name, f"({', '.join(parts)})", n=len(parts))
    return [core.as_array(g, f"{name}: {p}") for g, p in zip(got, parts, strict=True)]


def _dependencies(fn, args, arg_names, parts, name: str):
    """What each output depends on: change one argument at a time and see which outputs move.

    Returns (outputs on the given args, {part: set of argument names it changes with}).
    """
    base = _outputs(fn, args, name, parts)
    deps = {p: set() for p in parts}
    for i, arg in enumerate(arg_names):
        changed = list(args)
        shift = core.rng(100 + i).normal(size=np.shape(args[i])).round(2)
        changed[i] = args[i] + shift + 0.5
        for p, before, after in zip(parts, base, _outputs(fn, changed, name, parts),
                                    strict=True):
            if not _same(before, after):
                deps[p].add(arg)
    return base, deps


_ROLE = {"q": "Q", "k": "K", "v": "V"}
_OWN = {"q": "w_q", "k": "w_k", "v": "w_v"}
_WHAT = {
    "q": "Q is what each token asks",
    "k": "K is what the queries are matched against",
    "v": "V is the content that gets mixed into the output",
}


def _name_weight_roles(deps, name: str, outputs=None, xs=()) -> None:
    """Each of q, k, v must change with its own weight matrix and with no other.

    outputs: {part: the student's array}; xs: the token inputs, to tell an output that is an
    input itself (not projected) from one projected with a matrix of its own (a global).
    """
    outputs = outputs or {}
    used = {p: {a for a in deps[p] if a.startswith("w_")} for p in deps}
    for a, b, diagnosis in (("q", "k", "qkv.q-k-swapped"), ("k", "v", "qkv.k-v-swapped"),
                            ("q", "v", "qkv.q-v-swapped")):
        if used[a] == {_OWN[b]} and used[b] == {_OWN[a]}:
            core.fail(
                f"{name}: your {a} and {b} are swapped: your {a} changes with {_OWN[b]} and "
                f"your {b} with {_OWN[a]}. Either you used {_OWN[b]} for {a} and {_OWN[a]} for "
                f"{b}, or you returned them in the wrong order: return (q, k, v), with "
                f"{a} from {_OWN[a]} and {b} from {_OWN[b]}. {_WHAT[a]}; {_WHAT[b]}.",
                diagnosis,
            )
    shared = [w for w in ("w_q", "w_k", "w_v")
              if sum(used[p] == {w} for p in ("q", "k", "v")) >= 2]
    if shared:
        users = [p for p in ("q", "k", "v") if used[p] == {shared[0]}]
        listed = " and ".join(users) if len(users) == 2 else "q, k and v"
        core.fail(
            f"{name}: your {listed} {'both' if len(users) == 2 else 'all'} change with "
            f"{shared[0]} alone: you used the same weight matrix {shared[0]} for {listed}. "
            "W_Q, W_K and W_V are three separate parameter sets, one per role: q = x @ w_q, "
            "k = x @ w_k, v = x @ w_v.", "qkv.one-weight-shared")
    for p in ("q", "k", "v"):
        own, others = _OWN[p], sorted(used[p] - {_OWN[p]})
        unprojected = p in outputs and any(_same(outputs[p], x) for x in xs)
        if not used[p] and not unprojected and any(a.startswith("x") for a in deps[p]):
            core.fail(
                f"{name}: your {p} changes with the tokens but stays the same when the "
                f"argument {own} changes: it is projected with some other, fixed matrix (a "
                f"global W_{_ROLE[p]} from the lesson, say), not with the weights you were "
                f"given. Use the function's parameters: {p} = x @ {own}.",
                "qkv.global-weights",
            )
        if not used[p]:
            core.fail(
                f"{name}: your {p} stays the same when {own} changes: the hidden state has to "
                f"be projected (multiplied by its weight matrix W_{_ROLE[p]}) first.",
                "qkv.not-projected",
            )
        if own not in used[p]:
            core.fail(
                f"{name}: your {p} changes with {', '.join(others)} but not with {own}: you "
                f"projected {_ROLE[p]} with the wrong matrix. W_Q, W_K and W_V are three "
                "different parameter sets, one per role.",
                "qkv.wrong-weight",
            )
        if others:
            core.fail(
                f"{name}: your {p} changes with {own} and also with {', '.join(others)}: "
                f"{_ROLE[p]} is one product with its own matrix W_{_ROLE[p]} only; the three "
                "projections do not mix.",
                "qkv.weights-mixed",
            )


def _require_inputs_used(deps, name: str) -> None:
    for p, d in deps.items():
        if not d:
            core.fail(
                f"{name}: your {p} stays the same whatever the inputs: it does not come from "
                "them (a hard-coded answer, or numbers copied from the lesson's example?). "
                f"Compute {p} from the arguments.",
                "qkv.hard-coded",
            )


def _require_tokens_apart(fn, args, parts, name: str, x_index: int, which: tuple[str, ...]):
    """Changing token 0 of args[x_index] may change only row 0 of the outputs in `which`."""
    base = _outputs(fn, args, name, parts)
    changed = list(args)
    x = np.array(args[x_index], dtype=float, copy=True)
    x[0] += 1.0 + np.arange(x.shape[1])
    changed[x_index] = x
    after = _outputs(fn, changed, name, parts)
    for p, b, a in zip(parts, base, after, strict=True):
        if p in which and b.ndim == 2 and a.shape == b.shape and not _same(b[1:], a[1:]):
            row = 1 + int(np.argmax(np.abs(b[1:] - a[1:]).max(axis=1)))
            core.fail(
                f"{name}: changing only token 0 of the input changed row {row} of your {p}: "
                f"each token's {_ROLE[p]} row is computed from that token's own row alone. A "
                "sum, a mean or a normalisation over the token axis (or a product with the "
                "transposed input) mixes tokens.",
                "qkv.mixes-tokens",
            )


# Exercise 1 -------------------------------------------------------------------------------


@core.exercise
def check_project_qkv(project_qkv) -> None:
    """project_qkv(x, w_q, w_k, w_v) -> (x @ w_q, x @ w_k, x @ w_v)."""
    name = "project_qkv"
    parts = ("q", "k", "v")
    cases = [  # square weights first, so that x @ w.T runs and is named; d_model = 4 as in
        # the lesson's example, so that the lesson's own W_Q (4, 2) runs and is named too
        _random(11, (2, 4), (4, 4), (4, 4), (4, 4)),  # T = 2, d_model = d_k = d_v = 4
        (SEED_X, SEED_WQ, SEED_WK, SEED_WV),  # T = 3, d_model = 4, d_k = d_v = 2
        _random(1, (5, 6), (6, 3), (6, 3), (6, 4)),  # T = 5, d_model = 6, d_k = 3, d_v = 4
    ]
    for x, w_q, w_k, w_v in cases:
        (T, d_model), d_k, d_v = x.shape, w_q.shape[1], w_v.shape[1]
        sizes = dict(T=T, d_model=d_model, d_k=d_k, d_v=d_v)
        (q, k, v), deps = _dependencies(project_qkv, (x, w_q, w_k, w_v),
                                        ("x", "w_q", "w_k", "w_v"), parts, name)
        _require_inputs_used(deps, name)
        _name_weight_roles(deps, name, dict(zip(parts, (q, k, v), strict=True)), (x,))
        for p in parts:
            if "x" not in deps[p]:
                core.fail(f"{name}: your {p} stays the same when x changes: {p} is the "
                          f"projection of the tokens x, one row per token.", "qkv.ignores-x")
        refs = dict(q=x @ w_q, k=x @ w_k, v=x @ w_v)
        ws = dict(q=w_q, k=w_k, v=w_v)
        for p, got in zip(parts, (q, k, v), strict=True):
            ref, w = refs[p], ws[p]
            width = "d_v" if p == "v" else "d_k"
            mistakes = [
                ("qkv.transposed",
                 f"your {p} is transposed, shape ({width}, T) = {ref.T.shape}: positions as "
                 "columns. Rows are tokens (one row per token), so x comes first in the "
                 f"product: x @ {_OWN[p]}, (T, d_model) @ (d_model, {width}) = (T, {width}).",
                 ref.T),
                ("qkv.first-token-only",
                 f"your {p} is a single vector: you projected only the first token. One "
                 f"W_{_ROLE[p]} serves every token, so one product projects all T rows at once.",
                 ref[0]),
            ]
            if w.shape[0] == w.shape[1]:
                mistakes.append((
                    "qkv.weight-transposed",
                    f"your {p} uses W_{_ROLE[p]} transposed (transposed weights, x times "
                    f"{_OWN[p]}ᵀ). The weights here are (d_model, width) = (in, out), used as "
                    "they are: x @ w. PyTorch's nn.Linear stores its weight as (out, in) and "
                    "multiplies by its transpose; these are not stored that way.", x @ w.T))
            options = dict(name=f"{name}: {p}", mistakes=mistakes, axes=("T", width),
                           sizes=sizes, factors={"d_model": d_model, "√d_model": d_model ** .5})
            core.named_mistake(got, ref, mistakes, f"{name}: {p}")
            _require_shape(got, ref, **options)
        _require_tokens_apart(project_qkv, (x, w_q, w_k, w_v), parts, name, 0, parts)
        for p, got in zip(parts, (q, k, v), strict=True):
            core.compare(got, refs[p], name=f"{name}: {p}", axes=("T", "d_v" if p == "v"
                                                                  else "d_k"),
                         sizes=sizes, factors={"d_model": d_model, "√d_model": d_model ** .5})
    core.passed(
        "project_qkv: q, k and v are the projections of x by their own W_Q, W_K, W_V, token by "
        "token, for the lesson's 我 爱 你 example, for T = 5, d_k = 3, d_v = 4 and for a square W"
    )


# Exercise 2 -------------------------------------------------------------------------------


@core.exercise
def check_cross_attention_qkv(cross_attention_qkv) -> None:
    """cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v) -> (x_dec w_q, x_enc w_k, x_enc w_v)."""
    name = "cross_attention_qkv"
    parts = ("q", "k", "v")
    (x_dec,) = _random(2, (4, 4))  # "<s> I love you", T_dec = 4
    cases = [
        (x_dec, SEED_X, SEED_WQ, SEED_WK, SEED_WV),  # encoder: 我 爱 你, T_enc = 3
        _random(3, (2, 3), (5, 3), (3, 2), (3, 2), (3, 4)),  # T_dec = 2, T_enc = 5, d_v = 4
        _random(12, (3, 5), (6, 5), (5, 3), (5, 3), (5, 2)),  # T_dec = 3, T_enc = 6, d_k = 3
    ]
    for x_dec, x_enc, w_q, w_k, w_v in cases:
        args = (x_dec, x_enc, w_q, w_k, w_v)
        (T_dec, d_model), T_enc = x_dec.shape, x_enc.shape[0]
        d_k, d_v = w_q.shape[1], w_v.shape[1]
        sizes = dict(T_dec=T_dec, T_enc=T_enc, d_model=d_model, d_k=d_k, d_v=d_v)
        (q, k, v), deps = _dependencies(cross_attention_qkv, args,
                                        ("x_dec", "x_enc", "w_q", "w_k", "w_v"), parts, name)
        _require_inputs_used(deps, name)
        plural = dict(q="queries", k="keys", v="values")
        if "x_enc" in deps["q"] or "x_dec" not in deps["q"]:
            core.fail(
                f"{name}: your q {'changes' if 'x_enc' in deps['q'] else 'does not change'} "
                f"when {'x_enc' if 'x_enc' in deps['q'] else 'x_dec'} changes: the queries come "
                "from the decoder (q from x_dec), the sequence being updated; the encoder only "
                "answers.", "qkv.q-from-encoder")
        for p, diagnosis in (("k", "qkv.k-from-decoder"), ("v", "qkv.v-from-decoder")):
            if "x_dec" in deps[p] or "x_enc" not in deps[p]:
                if "x_enc" in deps[p]:
                    what = (f"changes with x_dec as well as with x_enc: the decoder leaks into "
                            f"the {plural[p]}, {_ROLE[p]} taken in part from the wrong sequence")
                elif "x_dec" in deps[p]:
                    what = (f"changes with x_dec and not with x_enc: you took the "
                            f"{plural[p]} from the decoder ({p} from x_dec), {_ROLE[p]} taken "
                            "from the wrong sequence")
                else:
                    what = f"does not change when x_enc changes: {_ROLE[p]} ignores the encoder"
                core.fail(
                    f"{name}: your {p} {what}. The {plural[p]} come from the encoder only: the "
                    f"decoder reads the encoder's tokens, so {_ROLE[p]} is a projection of "
                    "x_enc, one row per encoder token (with K and V from the decoder this is "
                    "self-attention again).", diagnosis)
        _name_weight_roles(deps, name, dict(zip(parts, (q, k, v), strict=True)), (x_dec, x_enc))
        refs = dict(q=x_dec @ w_q, k=x_enc @ w_k, v=x_enc @ w_v)
        axes = dict(q=("T_dec", "d_k"), k=("T_enc", "d_k"), v=("T_enc", "d_v"))
        for p, got in zip(parts, (q, k, v), strict=True):
            core.compare(got, refs[p], name=f"{name}: {p}", axes=axes[p], sizes=sizes,
                         factors={"d_model": d_model}, mistakes=[
                             ("qkv.transposed",
                              f"your {p} is the transpose: its rows must be tokens, "
                              f"({', '.join(axes[p])}).", refs[p].T),
                         ])
    x_dec, x_enc, w_q, w_k, w_v = cases[0]
    _, weights = attention(x_dec @ w_q, x_enc @ w_k, x_enc @ w_v)
    core.passed(
        f"cross_attention_qkv: q from the decoder {(x_dec @ w_q).shape}, k and v from the "
        f"encoder {(x_enc @ w_k).shape} and {(x_enc @ w_v).shape}; the weights are "
        f"(T_dec, T_enc) = {weights.shape}; two more sizes agree too"
    )


# Exercise 3 -------------------------------------------------------------------------------

_ROLES = ("Q", "K", "V")


@core.exercise
def check_fuse_weights(fuse_weights) -> None:
    """fuse_weights(w_q, w_k, w_v) -> [w_q | w_k | w_v], shape (d_model, 2 d_k + d_v)."""
    name = "fuse_weights"
    cases = [
        (SEED_WQ, SEED_WK, SEED_WV),  # d_model = 4, d_k = d_v = 2
        _random(4, (3, 2), (3, 2), (3, 4)),  # d_model = 3, d_k = 2, d_v = 4
        _random(13, (5, 3), (5, 3), (5, 1)),  # d_model = 5, d_k = 3, d_v = 1
    ]
    for ws in cases:
        result = core.call(fuse_weights, *ws, name=name)
        if isinstance(result, (tuple, list)):
            core.fail(
                f"{name}: return one matrix, not a {type(result).__name__} of "
                f"{len(result)} items: the point is one (d_model, 2·d_k + d_v) matrix for "
                "one matmul.", "qkv.fuse-several-results")
        got = core.as_array(result, name)
        (d_model, d_k), d_v = ws[0].shape, ws[2].shape[1]
        sizes = {"d_model": d_model, "d_k": d_k, "d_v": d_v, "2·d_k + d_v": 2 * d_k + d_v,
                 "3·d_model": 3 * d_model, "d_k + d_v": d_k + d_v}
        expected = np.concatenate(ws, axis=1)
        mistakes = []
        for order in itertools.permutations(range(3)):
            if order != (0, 1, 2):
                blocks = " | ".join(_ROLES[i] for i in order)
                mistakes.append((
                    "qkv.fused-block-order",
                    f"your blocks are in the order [{blocks}]. The layout is [Q | K | V]: "
                    "columns 0..d_k-1 are Q, the next d_k are K, the last d_v are V, and "
                    "the split after the matmul relies on it.",
                    np.concatenate([ws[i] for i in order], axis=1),
                ))
        mistakes.append((
            "qkv.fused-out-in-layout",
            "your matrix is (2·d_k + d_v, d_model): that is torch.nn.Linear's (out, in) "
            "layout. Here weights are (in, out) and used as x @ w, so the fused matrix is "
            "(d_model, 2·d_k + d_v).",
            expected.T,
        ))
        if len({w.shape for w in ws}) == 1:
            mistakes += [
                ("qkv.fused-along-rows",
                 "you concatenated along axis 0 (rows), giving (3·d_model, d_k): x has only "
                 "d_model features to multiply. Put the blocks side by side along axis 1, "
                 "the output-feature axis: (d_model, 2·d_k + d_v).",
                 np.concatenate(ws, axis=0)),
                ("qkv.fused-stacked",
                 "you stacked the matrices into a 3-D array (3, d_model, d_k): one matmul "
                 "needs one 2-D matrix. Concatenate along axis 1.", np.stack(ws)),
                ("qkv.fused-summed",
                 "you added the three matrices: that mixes Q, K and V into one projection of "
                 "width d_k. Fusing places them side by side (axis 1), so x @ w_qkv still "
                 "holds all three.", sum(ws)),
            ]
        core.named_mistake(got, expected, mistakes, name)
        _require_shape(got, expected, name=name, axes=("d_model", "2·d_k + d_v"), sizes=sizes)
        _name_column_order(got, ws, name)
        # block by block: which of the three column blocks leaves the layout
        starts = (0, d_k, 2 * d_k, 2 * d_k + d_v)
        for b, role in enumerate(_ROLES):
            lo, hi = starts[b], starts[b + 1]
            block = got[:, lo:hi]
            others = [("qkv.fused-block-order",
                       f"these columns hold W_{_ROLES[j]}, not W_{role}. The layout is "
                       "[Q | K | V].", ws[j]) for j in range(3) if j != b]
            core.compare(block, ws[b], name=f"{name}: columns {lo}..{hi - 1} (the {role} block)",
                         mistakes=others, axes=("d_model", "d_v" if role == "V" else "d_k"),
                         sizes=sizes)
        core.compare(got, expected, name=name, axes=("d_model", "2·d_k + d_v"), sizes=sizes)
    core.passed(
        "fuse_weights: w_qkv = [W_Q | W_K | W_V] with shape (d_model, 2·d_k + d_v), for "
        "d_k = d_v = 2, for d_k = 2, d_v = 4 and for d_k = 3, d_v = 1"
    )


def _name_column_order(got, ws, name: str) -> None:
    """Fail when every column of got is a column of W_Q, W_K or W_V, but not in the layout.

    Names where each column came from (Q0 = column 0 of W_Q, ...), so an interleaving or any
    other shuffle of the columns reads off the message, whatever code made it.
    """
    columns = [(role, j, w[:, j]) for role, w in zip(_ROLES, ws, strict=True)
               for j in range(w.shape[1])]
    if got.ndim != 2 or got.shape[1] != len(columns) or got.shape[0] != ws[0].shape[0]:
        return
    found = []
    for c in range(got.shape[1]):
        hits = [f"{role}{j}" for role, j, col in columns if _same(got[:, c], col)]
        if not hits:
            return
        found.append(hits[0])
    want = [f"{role}{j}" for role, j, _ in columns]
    if found == want or sorted(found) != sorted(want):
        return
    roles = [f[0] for f in found]
    runs = sum(1 for i in range(len(roles)) if i == 0 or roles[i] != roles[i - 1])
    how = (" The roles alternate: you interleaved the columns, one column at a time, instead "
           "of keeping three contiguous blocks." if runs > 3 else "")
    core.fail(f"{name}: every column of yours is a column of W_Q, W_K or W_V, but in the wrong "
              f"order: your columns are [{', '.join(found)}] (Q0 = column 0 of W_Q, ...); the "
              f"layout is three contiguous blocks [{', '.join(want)}], that is "
              f"[Q | K | V].{how}", "qkv.fused-columns-shuffled")


# Exercise 4 -------------------------------------------------------------------------------


def _block_of(got, qkv):
    """(row0, row1, col0, col1) when `got` is the block qkv[row0:row1, col0:col1] of an arange."""
    if got.ndim == 1 and got.size:
        got = got[:, None] if got.size == qkv.shape[0] else got[None, :]
    if got.ndim != 2 or got.size == 0 or not np.isfinite(got).all():
        return None
    T, width = qkv.shape
    first = got[0, 0]
    if first != round(first) or not 0 <= first < qkv.size:
        return None
    r, c = divmod(int(first), width)
    h, w = got.shape
    if r + h <= T and c + w <= width and np.array_equal(got, qkv[r:r + h, c:c + w]):
        return r, r + h, c, c + w
    return None


def _span(lo: int, hi: int) -> str:
    return f"{lo}" if hi - lo == 1 else f"{lo}..{hi - 1}"


@core.exercise
def check_split_qkv(split_qkv) -> None:
    """split_qkv(qkv, d_k, d_v) -> the column blocks [0:d_k], [d_k:2d_k], [2d_k:2d_k+d_v]."""
    name = "split_qkv"
    cases = [  # an arange first: every number says which row and column it came from
        (np.arange(27.0).reshape(3, 9), 2, 5),  # T = 3, d_k = 2, d_v = 5: 9 columns
        (np.arange(32.0).reshape(4, 8), 3, 2),  # T = 4, d_k = 3, d_v = 2: 8 columns
        (_random(5, (3, 9))[0], 2, 5),
        (np.arange(25.0).reshape(5, 5), 1, 3),  # d_k = 1: q is still (T, 1), not (T,)
    ]
    for qkv, d_k, d_v in cases:
        result = core.call(split_qkv, qkv, d_k, d_v, name=name)
        q, k, v = _unpack(result, name, "(q, k, v)")
        T, width = qkv.shape
        sizes = dict(T=T, d_k=d_k, d_v=d_v, width=width)
        ref_q, ref_k, ref_v = qkv[:, :d_k], qkv[:, d_k : 2 * d_k], qkv[:, 2 * d_k :]
        thirds = np.split(qkv, 3, axis=1) if width % 3 == 0 else [None] * 3
        rows = np.array_split(qkv, 3, axis=0)
        equal_parts = (
            f"has width {width // 3}: you cut the fused columns into three equal parts. That "
            f"works only when d_v == d_k; here d_k = {d_k} and d_v = {d_v}, so the cuts come "
            "after the first d_k columns and after the next d_k."
        )
        token_axis = (
            "does not keep all T rows: you split along axis 0, the token axis. Every one of "
            "q, k, v has one row per token; the fused features lie along axis 1."
        )
        mistakes = dict(q=[
            ("qkv.split-token-axis", f"your q {token_axis}", rows[0]),
            ("qkv.split-token-axis", f"your q {token_axis}", qkv[:d_k]),
            ("qkv.split-block-order",
             "your q is the second block, which holds K. The layout is [Q | K | V].", ref_k),
        ], k=[
            ("qkv.split-token-axis", f"your k {token_axis}", rows[1]),
            ("qkv.split-token-axis", f"your k {token_axis}", qkv[d_k : 2 * d_k]),
            ("qkv.split-block-order",
             "your k is the first block, which holds Q. The layout is [Q | K | V].", ref_q),
            ("qkv.split-read-as-qvk",
             "your k is the last d_k columns: you read the layout as [Q | V | K]; it is "
             "[Q | K | V].", qkv[:, d_k + d_v :]),
        ], v=[
            ("qkv.split-token-axis", f"your v {token_axis}", rows[2]),
            ("qkv.split-v-keeps-k",
             "your v also contains K's columns: V starts after Q and K, at column 2·d_k.",
             qkv[:, d_k:]),
            ("qkv.split-assumes-equal-widths",
             "your v has width d_k: you assumed d_v == d_k. V's width is d_v, the columns "
             "from 2·d_k to the end.", qkv[:, 2 * d_k : 3 * d_k]),
            ("qkv.split-read-as-qvk",
             "your v is columns d_k to d_k + d_v: you read the layout as [Q | V | K]; it is "
             "[Q | K | V].", qkv[:, d_k : d_k + d_v]),
        ])
        if thirds[0] is not None:
            for p, third in zip("qkv", thirds, strict=True):
                mistakes[p].insert(0, ("qkv.split-equal-thirds", f"your {p} {equal_parts}",
                                       third))
        refs = dict(q=ref_q, k=ref_k, v=ref_v)
        spans = dict(q=(0, d_k), k=(d_k, 2 * d_k), v=(2 * d_k, 2 * d_k + d_v))
        arange = np.array_equal(qkv, np.arange(qkv.size).reshape(qkv.shape))
        for p, got in zip("qkv", (q, k, v), strict=True):
            got = core.as_array(got, f"{name}: {p}")
            core.named_mistake(got, refs[p], mistakes[p], f"{name}: {p}")
            block = _block_of(got, qkv) if arange else None
            if block is not None and not _same(got, refs[p]):
                r0, r1, c0, c1 = block
                lo, hi = spans[p]
                if (r0, r1) != (0, T):
                    core.fail(f"{name}: {p}: your {p} holds rows {_span(r0, r1)} of qkv "
                              f"(columns {_span(c0, c1)}), not all T = {T} rows: you cut along "
                              "axis 0, the token axis. Every one of q, k, v has one row per "
                              "token; the fused features lie along axis 1.",
                              "qkv.split-token-axis")
                if got.ndim == 1:
                    core.fail(f"{name}: {p}: your {p} is column {c0} of qkv as a 1-D array of "
                              f"shape {got.shape}: an integer index drops the axis. Keep "
                              f"{p} 2-D, (T, {'d_v' if p == 'v' else 'd_k'}), with a slice.",
                              "qkv.split-axis-dropped")
                width_name = "d_v" if p == "v" else "d_k"
                got_w, want_w = c1 - c0, hi - lo
                alias = [n for n, size in (("d_k", d_k), ("d_v", d_v), ("2·d_k", 2 * d_k),
                                           ("d_k + d_v", d_k + d_v)) if size == got_w]
                note = ""
                if abs(got_w - want_w) == 1 or (got_w == want_w and abs(c0 - lo) == 1):
                    note = (" That is one column off (an off-by-one): a slice a:b holds the "
                            "b − a columns a .. b−1, its end is not included.")
                elif alias and got_w != want_w:
                    note = f" Your {p} is {got_w} wide, which is {' or '.join(alias)}."
                core.fail(f"{name}: {p}: your {p} holds column{'s' if got_w != 1 else ''} "
                          f"{_span(c0, c1)} of qkv, {got_w} wide; in the layout "
                          f"[Q | K | V] with d_k = {d_k}, d_v = {d_v}, {_ROLE[p]} is the "
                          f"{width_name} columns {_span(lo, hi)}: the width of {p} is "
                          f"{width_name} = {want_w}.{note} Count the widths d_k, d_k, d_v "
                          "from the left.", "qkv.split-wrong-columns")
            core.compare(got, refs[p], name=f"{name}: {p}", sizes=sizes,
                         axes=("T", "d_v" if p == "v" else "d_k"))
    core.passed(
        "split_qkv: q, k, v are the column blocks [0:d_k], [d_k:2·d_k], [2·d_k:] of the fused "
        "projection, for d_v > d_k, d_v < d_k and d_k = 1"
    )


# Exercise 5 -------------------------------------------------------------------------------


def _as_shape(value, name: str) -> tuple:
    try:
        return tuple(int(n) for n in value)
    except (TypeError, ValueError):
        core.fail(
            f"{name}: expected a shape such as (3, 4), a tuple of whole numbers; got {value!r}",
            "qkv.shape-not-a-tuple")


def _compare_shape(got, want, *, name: str, mistakes, sizes: dict, axes: tuple) -> None:
    if got == want:
        return
    for diagnosis, wrong, message in mistakes:
        if got == wrong:
            core.fail(f"{name} {got}: {message}", diagnosis)
    if len(got) != len(want):
        core.fail(f"{name}: expected {len(want)} numbers ({', '.join(axes)}) = {want}, "
                  f"got {got}", "qkv.shape-wrong-length")
    parts = []
    for axis, g, w in zip(axes, got, want, strict=True):
        if g != w:
            alias = [n for n, s in sizes.items() if s == g and n != axis]
            parts.append(f"its {axis} entry is {g}" + (f", which is {' or '.join(alias)}"
                                                       if alias else "") + f"; {axis} = {w}")
    core.fail(f"{name}: expected ({', '.join(axes)}) = {want}, got {got}: {'; '.join(parts)}.",
              "qkv.shape-wrong-size")


def _describe(q, k, v) -> str:
    return f"q {q.shape}, k {k.shape}, v {v.shape}"


def _fresh_shapes(rng, n: int) -> list:
    """n valid (q, k, v) shapes, drawn from rng, none of them one of the visible cases'."""
    seen = {((3, 2), (3, 2), (3, 5)), ((4, 2), (6, 2), (6, 3)), ((1, 3), (5, 3), (5, 7))}
    shapes = []
    while len(shapes) < n:
        t_q, t_k, d_k, d_v = (int(s) for s in rng.integers(1, 10, size=4))
        case = ((t_q, d_k), (t_k, d_k), (t_k, d_v))
        if case not in seen:
            seen.add(case)
            shapes.append(case)
    return shapes


@core.exercise
def check_attention_shapes(attention_shapes) -> None:
    """attention_shapes(q, k, v) -> ((T_q, T_k), (T_q, d_v)), or ValueError for bad widths."""
    name = "attention_shapes"
    # Valid inputs: self-attention with d_v != d_k, then cross-attention with T_q != T_k,
    # then a single query against many keys.
    valid = [
        (_random(7, (3, 2), (3, 2), (3, 5)),
         "V's width d_v = 5 need not equal d_k = 2: v never enters a dot product with q, it is "
         "only weighted by the softmax."),
        (_random(8, (4, 2), (6, 2), (6, 3)),
         "T_q = 4 and T_k = 6 may differ: in cross-attention the queries come from one "
         "sequence and the keys and values from another."),
        (_random(14, (1, 3), (5, 3), (5, 7)),
         "a single query (T_q = 1) may read 5 keys: T_q and T_k are independent."),
    ]
    if core.grading():  # sizes the notebook has not seen: a table of the shapes above fails
        valid += [(_random(20 + n, *shapes), "the shapes follow from the inputs, whatever their "
                   "sizes.") for n, shapes in enumerate(_fresh_shapes(core.rng(16), 2))]
    for (q, k, v), why in valid:
        try:
            result = core.call(attention_shapes, q, k, v, name=name)
        except ValueError as error:
            core.fail(
                f"{name} rejected valid input ({_describe(q, k, v)}) with ValueError: "
                f"{error}. {why} Only two things must agree: the widths of q and k, and the "
                "lengths of k and v.", "qkv.valid-input-rejected")
        scores_shape, out_shape = _unpack(result, name, "(scores_shape, output_shape)", n=2)
        scores_shape = _as_shape(scores_shape, "scores shape")
        out_shape = _as_shape(out_shape, "output shape")
        out, weights = attention(q, k, v)  # the reference gives the shapes
        (T_q, d_k), (T_k, d_v) = q.shape, v.shape
        sizes = dict(T_q=T_q, T_k=T_k, d_k=d_k, d_v=d_v)
        _compare_shape(scores_shape, weights.shape, name="scores shape", sizes=sizes,
                       axes=("T_q", "T_k"), mistakes=[
            ("qkv.scores-transposed", (T_k, T_q),
             "transposed: rows are queries, columns are keys, so (T_q, T_k)."),
            ("qkv.scores-square", (T_q, T_q),
             "square (T_q, T_q): there is one score per (query, key) pair, so (T_q, T_k). Only "
             "self-attention is square."),
            ("qkv.scores-t-k-rows", (T_k, T_k),
             "(T_k, T_k): there is one row per query, so (T_q, T_k)."),
            ("qkv.scores-shape-of-q", (T_q, d_k),
             "that is q's shape. S = q kᵀ is (T_q, d_k) @ (d_k, T_k) = (T_q, T_k)."),
            ("qkv.scores-width-d-v", (T_q, d_v),
             "that is the output's shape. S = q kᵀ has one column per key: (T_q, T_k)."),
        ])
        _compare_shape(out_shape, out.shape, name="output shape", sizes=sizes,
                       axes=("T_q", "d_v"), mistakes=[
            ("qkv.output-width-d-k", (T_q, d_k),
             "width d_k: each output row is a weighted sum of rows of v, so it has width d_v."),
            ("qkv.output-t-k-rows", (T_k, d_v),
             "T_k rows: there is one output row per query, so T_q rows."),
            ("qkv.output-is-weights", (T_q, T_k),
             "that is the weights' shape; weights (T_q, T_k) @ v (T_k, d_v) gives (T_q, d_v)."),
            ("qkv.output-transposed", (d_v, T_q),
             "transposed: one row per query, one column per value feature, (T_q, d_v)."),
        ])

    # Invalid inputs: the widths of q and k differ (v has q's width, so comparing q with v
    # is not enough), then k and v have different lengths. No size equals another, so the
    # message's numbers can only be the two widths.
    q, k, v = _random(9, (4, 2), (4, 5), (4, 2))
    core.expect_error(
        attention_shapes, q, k, v, name=name,
        hint=f"With {_describe(q, k, v)} each score q_i · k_j pairs 2 numbers with 5: "
             "compare the width of q with the width of k (v's width is free).",
    )
    message = ""
    try:
        core.call(attention_shapes, q, k, v, name=name)
    except ValueError as error:
        message = str(error)
    core.require(
        "width" in message.lower() and "2" in message and "5" in message,
        f"{name}: a clear error says what was expected and what came. Name both widths, e.g. "
        f"'q width 2 does not match k width 5'; your message was: {message!r}",
        "qkv.vague-error-message",
    )
    q, k, v = _random(10, (3, 2), (4, 2), (5, 2))
    core.expect_error(
        attention_shapes, q, k, v, name=name,
        hint=f"With {_describe(q, k, v)} there are 4 keys but 5 values (T_k = 4 ≠ T_v = 5): "
             "each key position needs exactly one value (one value per key). Raise ValueError "
             "when the lengths of k and v differ: compare the number of rows of k with that "
             "of v.",
    )
    q, k, v = _random(15, (5, 3), (4, 3), (5, 3))  # T_q = T_v: only k's length differs
    core.expect_error(
        attention_shapes, q, k, v, name=name,
        hint=f"With {_describe(q, k, v)} there are 4 keys but 5 values (T_k = 4 ≠ T_v = 5): "
             "each key position needs exactly one value (one value per key); T_q plays no "
             "part in this rule.",
    )
    core.passed(
        "attention_shapes: scores (T_q, T_k), output (T_q, d_v); d_q != d_k raises a ValueError "
        "naming both widths, T_k != T_v raises too; d_v != d_k and T_q != T_k are accepted"
    )


# Exercise 6 -------------------------------------------------------------------------------


def _count(fn, c, name):
    got = core.call(fn, **c, name=name)
    value = core.as_array(got, f"{name}({c})")
    core.require(value.shape == (), f"{name}({c}): return one number, got an array of shape "
                 f"{value.shape}", "qkv.count-not-a-number")
    return float(value)


@core.exercise
def check_n_projection_params(n_projection_params) -> None:
    """n_layers · n_heads · d_model · (2 d_k + d_v): one W_Q, W_K, W_V per head per layer."""
    name = "n_projection_params"
    cases = [
        dict(d_model=12, d_k=3, d_v=5, n_heads=2, n_layers=7, T=11),
        dict(d_model=512, d_k=64, d_v=64, n_heads=8, n_layers=6, T=10),  # base Transformer
        dict(d_model=10, d_k=4, d_v=1, n_heads=3, n_layers=1, T=13),
    ]
    if core.grading():  # sizes the notebook has not seen: a table of the counts above fails
        rng = core.rng(18)
        for _ in range(2):
            d_k, d_v = (int(n) for n in rng.choice(np.arange(1, 33), size=2, replace=False))
            cases.append(dict(d_model=int(rng.integers(8, 97)), d_k=d_k, d_v=d_v,
                              n_heads=int(rng.integers(1, 13)), n_layers=int(rng.integers(2, 13)),
                              T=int(rng.integers(2, 65))))
    for c in cases:
        d_model, d_k, d_v, h, L, T = (c[n] for n in ("d_model", "d_k", "d_v", "n_heads",
                                                      "n_layers", "T"))
        per_head = d_model * (2 * d_k + d_v)
        expected = L * h * per_head
        got = _count(n_projection_params, c, name)
        tag = f"{name}({', '.join(f'{k}={v}' for k, v in c.items())})"
        core.named_mistake(got, expected, [
            ("qkv.count-one-head", "your count is one head of one layer: each head and each "
             "layer has its own three matrices.", per_head),
            ("qkv.count-v-as-k", "you counted three (d_model, d_k) matrices: W_V is (d_model, "
             f"d_v), and here d_v = {d_v} differs from d_k = {d_k}.", L * h * 3 * d_model * d_k),
            ("qkv.count-one-matrix", "you counted one matrix per head: there are three, W_Q, "
             "W_K and W_V.", L * h * d_model * d_k),
            ("qkv.count-two-matrices", "you counted two matrices per head: there are three, "
             "W_Q and W_K of (d_model, d_k) each, and W_V of (d_model, d_v).",
             L * h * d_model * (d_k + d_v)),
            ("qkv.count-k-as-v", "you counted W_K with width d_v: W_Q and W_K are both "
             f"(d_model, d_k), only W_V is (d_model, d_v); here d_k = {d_k}, d_v = {d_v}.",
             L * h * d_model * (d_k + 2 * d_v)),
            ("qkv.count-full-width", "you counted three (d_model, d_model) matrices per layer: "
             "each head projects to its own width d_k (and d_v), so a head holds "
             "d_model · (2·d_k + d_v).", L * 3 * d_model * d_model),
            ("qkv.count-heads-plus-layers", "you added the number of heads and the number of "
             "layers (n_heads + n_layers) instead of multiplying them: every one of the "
             "n_layers layers holds n_heads heads, so the count is the product n_layers × "
             "n_heads × one head's matrices.", (L + h) * per_head),
            ("qkv.count-biases", "your count is a little too large: it includes a bias per "
             "output feature. The exercise counts the matrices only, no biases.",
             L * h * (d_model + 1) * (2 * d_k + d_v)),
        ], tag)
        # properties in teaching order: T does not matter, then layers and heads multiply
        longer = _count(n_projection_params, {**c, "T": 2 * T}, name)
        core.require(
            longer == got,
            f"{tag}: your count changes when only T changes ({got:.0f} for T = {T}, "
            f"{longer:.0f} for T = {2 * T}): the weights do not depend on the sequence "
            "length. One W_Q serves every token, however many there are.",
            "qkv.count-grows-with-t")
        deeper = _count(n_projection_params, {**c, "n_layers": 2 * L}, name)
        core.require(
            deeper == 2 * got,
            f"{tag}: doubling n_layers should double the count ({got:.0f} -> {2 * got:.0f}); "
            f"yours gives {deeper:.0f}: each layer has its own W_Q, W_K and W_V, so the count "
            "is multiplied by n_layers (a product, not a sum).",
            "qkv.count-layers-shared")
        wider = _count(n_projection_params, {**c, "n_heads": 2 * h}, name)
        core.require(
            wider == 2 * got,
            f"{tag}: doubling n_heads should double the count ({got:.0f} -> {2 * got:.0f}); "
            f"yours gives {wider:.0f}: each head has its own W_Q, W_K and W_V, so the count "
            "is multiplied by n_heads (a product, not a sum).",
            "qkv.count-heads-shared")
        core.compare(got, expected, name=tag, factors={
            "T": T, "n_layers": L, "n_heads": h, "d_model": d_model, "d_k": d_k, "d_v": d_v,
            "3": 3,
        })
        core.require(got == expected, f"{tag}: {got:.0f} is off by {got - expected:+.0f} "
                     "from the exact count.", "qkv.count-off")
    core.passed(
        "n_projection_params: n_layers · n_heads · d_model · (2·d_k + d_v), independent of T; "
        "6 layers of 8 heads of width 64 over d_model = 512 hold 4,718,592"
    )
