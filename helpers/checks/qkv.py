"""Checks for lesson 01, Q, K and V: three projections of one X.

Each check calls the student's function on fixed inputs (first the seed program's x and
weights, read as the tokens 我 爱 你, then random inputs of other sizes so that a hard-coded
answer fails), compares with the reference and, when the answer matches a known wrong one,
names the misconception.
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
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(size=shape).round(2) for shape in shapes)


def _unpack(result, name: str, what: str, n: int = 3):
    """The student's result as an n-tuple, or an AssertionError saying what to return."""
    if result is None:
        raise AssertionError(f"{name}: your function returned None. Did you forget `return`?")
    if not isinstance(result, (tuple, list)) or len(result) != n:
        got = type(result).__name__
        if hasattr(result, "shape"):
            got += f" of shape {tuple(result.shape)}"
        elif hasattr(result, "__len__"):
            got += f" of length {len(result)}"
        raise AssertionError(f"{name}: return the tuple {what}; got {got}")
    return tuple(result)


def _copies(*arrays):
    """Copies, so a function that changes its inputs in place cannot spoil the reference."""
    return tuple(np.array(a, copy=True) for a in arrays)


# Exercise 1 -------------------------------------------------------------------------------


@core.exercise
def check_project_qkv(project_qkv) -> None:
    """project_qkv(x, w_q, w_k, w_v) -> (x @ w_q, x @ w_k, x @ w_v)."""
    cases = [
        (SEED_X, SEED_WQ, SEED_WK, SEED_WV),
        _random(1, (5, 6), (6, 3), (6, 3), (6, 4)),  # T = 5, d_model = 6, d_k = 3, d_v = 4
    ]
    for x, w_q, w_k, w_v in cases:
        result = project_qkv(*_copies(x, w_q, w_k, w_v))
        q, k, v = _unpack(result, "project_qkv", "(q, k, v)")
        xq, xk, xv = x @ w_q, x @ w_k, x @ w_v
        transposed = (
            "has shape (width, T), the transpose: rows of Q, K and V are tokens. "
            "Compute x @ w, (T, d_model) @ (d_model, width), not w.T @ x.T."
        )
        first_only = (
            "is a single vector: you projected only the first token. One W_Q serves every "
            "token of the head, so x @ w projects all T rows at once."
        )
        unprojected = (
            "is x itself, shape (T, d_model): the hidden state has to be projected "
            "(multiplied by its weight matrix) first."
        )
        core.compare(q, xq, name="q", mistakes=[
            ("your q equals x @ w_k: Q and K are swapped. Q = X W_Q is what each token asks; "
             "K = X W_K is what the asks are matched against.", xk),
            ("your q equals x @ w_v: you projected Q with W_V. W_Q, W_K and W_V are three "
             "different parameter sets, one per role.", xv),
            (f"your q {transposed}", xq.T),
            (f"your q {first_only}", xq[0]),
            (f"your q {unprojected}", x),
        ])
        core.compare(k, xk, name="k", mistakes=[
            ("your k equals x @ w_v: K and V are swapped. K is what the queries are matched "
             "against; V is the content that gets mixed into the output.", xv),
            ("your k equals x @ w_q: you projected K with W_Q. W_Q, W_K and W_V are three "
             "different parameter sets, one per role.", xq),
            (f"your k {transposed}", xk.T),
            (f"your k {first_only}", xk[0]),
            (f"your k {unprojected}", x),
        ])
        core.compare(v, xv, name="v", mistakes=[
            ("your v equals x @ w_k: K and V are swapped. V is the content that gets mixed "
             "into the output; K is only matched against the queries.", xk),
            ("your v equals x @ w_q: you projected V with W_Q. W_Q, W_K and W_V are three "
             "different parameter sets, one per role.", xq),
            (f"your v {transposed}", xv.T),
            (f"your v {first_only}", xv[0]),
            (f"your v {unprojected}", x),
        ])
    core.passed(
        "project_qkv: q = x @ w_q, k = x @ w_k, v = x @ w_v for the lesson's 我 爱 你 example "
        "and for T = 5, d_k = 3, d_v = 4"
    )


# Exercise 2 -------------------------------------------------------------------------------


@core.exercise
def check_cross_attention_qkv(cross_attention_qkv) -> None:
    """cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v) -> (x_dec w_q, x_enc w_k, x_enc w_v)."""
    (x_dec,) = _random(2, (4, 4))  # "<s> I love you", T_dec = 4
    cases = [
        (x_dec, SEED_X, SEED_WQ, SEED_WK, SEED_WV),  # encoder: 我 爱 你, T_enc = 3
        _random(3, (2, 3), (5, 3), (3, 2), (3, 2), (3, 4)),  # T_dec = 2, T_enc = 5, d_v = 4
    ]
    for x_dec, x_enc, w_q, w_k, w_v in cases:
        result = cross_attention_qkv(*_copies(x_dec, x_enc, w_q, w_k, w_v))
        q, k, v = _unpack(result, "cross_attention_qkv", "(q, k, v)")
        core.compare(q, x_dec @ w_q, name="q", mistakes=[
            ("your q is x_enc @ w_q: the queries come from the decoder, the sequence being "
             "updated; the encoder only answers. Q = X_dec W_Q.", x_enc @ w_q),
            ("your q is x_dec @ w_k: Q and K are swapped; the queries use W_Q.", x_dec @ w_k),
            ("your q is x_enc @ w_k: that is the encoder's keys. The queries come from the "
             "decoder: Q = X_dec W_Q.", x_enc @ w_k),
        ])
        core.compare(k, x_enc @ w_k, name="k", mistakes=[
            ("your k is x_dec @ w_k: K taken from the wrong sequence. The keys label the "
             "positions the decoder reads from, the encoder's tokens: K = X_enc W_K, one key "
             "per encoder token (with K from the decoder this is self-attention again).",
             x_dec @ w_k),
            ("your k is x_enc @ w_v: K and V are swapped. K is matched against the queries; "
             "V is what gets mixed.", x_enc @ w_v),
            ("your k is x_dec @ w_v: K taken from the wrong sequence, and with W_V. "
             "K = X_enc W_K.", x_dec @ w_v),
        ])
        core.compare(v, x_enc @ w_v, name="v", mistakes=[
            ("your v is x_dec @ w_v: V taken from the wrong sequence. The decoder reads the "
             "encoder's content, so V = X_enc W_V: one value per key, the same T_enc rows "
             "as K.", x_dec @ w_v),
            ("your v is x_enc @ w_k: K and V are swapped. V is the content that gets "
             "mixed.", x_enc @ w_k),
        ])
    x_dec, x_enc, w_q, w_k, w_v = cases[0]
    _, weights = attention(x_dec @ w_q, x_enc @ w_k, x_enc @ w_v)
    core.passed(
        f"cross_attention_qkv: q from the decoder {(x_dec @ w_q).shape}, k and v from the "
        f"encoder {(x_enc @ w_k).shape} and {(x_enc @ w_v).shape}; the weights are "
        f"(T_dec, T_enc) = {weights.shape}"
    )


# Exercise 3 -------------------------------------------------------------------------------

_ROLE = {0: "Q", 1: "K", 2: "V"}


@core.exercise
def check_fuse_weights(fuse_weights) -> None:
    """fuse_weights(w_q, w_k, w_v) -> [w_q | w_k | w_v], shape (d_model, 2 d_k + d_v)."""
    cases = [
        (SEED_WQ, SEED_WK, SEED_WV),
        _random(4, (3, 2), (3, 2), (3, 4)),  # d_model = 3, d_k = 2, d_v = 4
    ]
    for ws in cases:
        result = fuse_weights(*_copies(*ws))
        if isinstance(result, (tuple, list)):
            raise AssertionError(
                f"fuse_weights: return one matrix, not a {type(result).__name__} of "
                f"{len(result)} items: the point is one (d_model, 2·d_k + d_v) matrix for "
                "one matmul."
            )
        expected = np.concatenate(ws, axis=1)
        mistakes = []
        for order in itertools.permutations(range(3)):
            if order != (0, 1, 2):
                blocks = " | ".join(_ROLE[i] for i in order)
                mistakes.append((
                    f"your blocks are in the order [{blocks}]. The layout is [Q | K | V]: "
                    "columns 0..d_k-1 are Q, the next d_k are K, the last d_v are V, and "
                    "the split after the matmul relies on it.",
                    np.concatenate([ws[i] for i in order], axis=1),
                ))
        mistakes.append((
            "your matrix is (2·d_k + d_v, d_model): that is torch.nn.Linear's (out, in) "
            "layout. Here weights are (in, out) and used as x @ w, so the fused matrix is "
            "(d_model, 2·d_k + d_v).",
            expected.T,
        ))
        if len({w.shape for w in ws}) == 1:
            mistakes += [
                ("you concatenated along axis 0 (rows), giving (3·d_model, d_k): x has only "
                 "d_model features to multiply. Put the blocks side by side along axis 1, "
                 "the output-feature axis: (d_model, 2·d_k + d_v).",
                 np.concatenate(ws, axis=0)),
                ("you stacked the matrices into a 3-D array (3, d_model, d_k): one matmul "
                 "needs one 2-D matrix. Concatenate along axis 1.", np.stack(ws)),
                ("you added the three matrices: that mixes Q, K and V into one projection of "
                 "width d_k. Fusing places them side by side (axis 1), so x @ w_qkv still "
                 "holds all three.", sum(ws)),
            ]
        core.compare(result, expected, name="fuse_weights", mistakes=mistakes)
    core.passed(
        "fuse_weights: w_qkv = [W_Q | W_K | W_V] with shape (d_model, 2·d_k + d_v), for "
        "d_k = d_v = 2 and for d_k = 2, d_v = 4"
    )


# Exercise 4 -------------------------------------------------------------------------------


@core.exercise
def check_split_qkv(split_qkv) -> None:
    """split_qkv(qkv, d_k, d_v) -> the column blocks [0:d_k], [d_k:2d_k], [2d_k:2d_k+d_v]."""
    cases = [
        (_random(5, (3, 9))[0], 2, 5),  # T = 3, d_k = 2, d_v = 5: 9 columns
        (_random(6, (4, 8))[0], 3, 2),  # T = 4, d_k = 3, d_v = 2: 8 columns
    ]
    for qkv, d_k, d_v in cases:
        result = split_qkv(np.array(qkv, copy=True), d_k, d_v)
        q, k, v = _unpack(result, "split_qkv", "(q, k, v)")
        T, width = qkv.shape
        ref_q, ref_k, ref_v = qkv[:, :d_k], qkv[:, d_k : 2 * d_k], qkv[:, 2 * d_k :]
        thirds = np.split(qkv, 3, axis=1) if width % 3 == 0 else [None] * 3
        rows = np.array_split(qkv, 3, axis=0)
        equal_parts = (
            f"has width {width // 3}: you cut the fused columns into three equal parts. That "
            f"works only when d_v == d_k; here d_k = {d_k} and d_v = {d_v}, so cut at "
            f"columns d_k and 2·d_k."
        )
        token_axis = (
            "does not keep all T rows: you split along axis 0, the token axis. Every one of "
            "q, k, v has one row per token; the fused features lie along axis 1."
        )
        mistakes_q = [
            (f"your q {token_axis}", rows[0]),
            (f"your q {token_axis}", qkv[:d_k]),
            ("your q is the second block, which holds K. The layout is [Q | K | V].", ref_k),
        ]
        mistakes_k = [
            (f"your k {token_axis}", rows[1]),
            (f"your k {token_axis}", qkv[d_k : 2 * d_k]),
            ("your k is the first block, which holds Q. The layout is [Q | K | V].", ref_q),
            ("your k is the last d_k columns: you read the layout as [Q | V | K]; it is "
             "[Q | K | V].", qkv[:, d_k + d_v :]),
        ]
        mistakes_v = [
            (f"your v {token_axis}", rows[2]),
            ("your v also contains K's columns: V starts after Q and K, at column 2·d_k.",
             qkv[:, d_k:]),
            ("your v has width d_k: you assumed d_v == d_k. V's width is d_v, the columns "
             "from 2·d_k to the end.", qkv[:, 2 * d_k : 3 * d_k]),
            ("your v is columns d_k to d_k + d_v: you read the layout as [Q | V | K]; it is "
             "[Q | K | V].", qkv[:, d_k : d_k + d_v]),
        ]
        if thirds[0] is not None:
            mistakes_q.insert(0, (f"your q {equal_parts}", thirds[0]))
            mistakes_k.insert(0, (f"your k {equal_parts}", thirds[1]))
            mistakes_v.insert(0, (f"your v {equal_parts}", thirds[2]))
        core.compare(q, ref_q, name="q", mistakes=mistakes_q)
        core.compare(k, ref_k, name="k", mistakes=mistakes_k)
        core.compare(v, ref_v, name="v", mistakes=mistakes_v)
    core.passed(
        "split_qkv: q, k, v are the column blocks [0:d_k], [d_k:2·d_k], [2·d_k:] of the fused "
        "projection, for d_v > d_k and d_v < d_k"
    )


# Exercise 5 -------------------------------------------------------------------------------


def _as_shape(value, name: str) -> tuple:
    try:
        return tuple(int(n) for n in value)
    except (TypeError, ValueError):
        raise AssertionError(
            f"{name}: expected a shape such as (3, 4), a tuple of whole numbers; got {value!r}"
        ) from None


def _compare_shape(got, want, *, name: str, mistakes) -> None:
    if got == want:
        return
    for wrong, message in mistakes:
        if got == wrong:
            raise AssertionError(f"{name} {got}: {message}")
    raise AssertionError(f"{name}: expected {want}, got {got}")


def _describe(q, k, v) -> str:
    return f"q {q.shape}, k {k.shape}, v {v.shape}"


@core.exercise
def check_attention_shapes(attention_shapes) -> None:
    """attention_shapes(q, k, v) -> ((T_q, T_k), (T_q, d_v)), or ValueError for bad widths."""
    # Valid inputs: self-attention with d_v != d_k, then cross-attention with T_q != T_k.
    valid = [
        (_random(7, (3, 2), (3, 2), (3, 5)),
         "V's width d_v = 5 need not equal d_k = 2: v never enters a dot product with q, it is "
         "only weighted by the softmax."),
        (_random(8, (4, 2), (6, 2), (6, 3)),
         "T_q = 4 and T_k = 6 may differ: in cross-attention the queries come from one "
         "sequence and the keys and values from another."),
    ]
    for (q, k, v), why in valid:
        try:
            result = attention_shapes(*_copies(q, k, v))
        except ValueError as error:
            raise AssertionError(
                f"attention_shapes rejected valid input ({_describe(q, k, v)}) with ValueError: "
                f"{error}. {why} Only two things must agree: the widths of q and k, and the "
                "lengths of k and v."
            ) from None
        scores_shape, out_shape = _unpack(
            result, "attention_shapes", "(scores_shape, output_shape)", n=2
        )
        scores_shape = _as_shape(scores_shape, "scores shape")
        out_shape = _as_shape(out_shape, "output shape")
        out, weights = attention(q, k, v)  # the reference gives the shapes
        (T_q, d_k), (T_k, d_v) = q.shape, v.shape
        _compare_shape(scores_shape, weights.shape, name="scores shape", mistakes=[
            ((T_k, T_q), "transposed: rows are queries, columns are keys, so (T_q, T_k)."),
            ((T_q, T_q), "square (T_q, T_q): there is one score per (query, key) pair, so "
                         "(T_q, T_k). Only self-attention is square."),
            ((T_k, T_k), "(T_k, T_k): there is one row per query, so (T_q, T_k)."),
            ((T_q, d_k), "that is q's shape. S = q kᵀ is (T_q, d_k) @ (d_k, T_k) = (T_q, T_k)."),
        ])
        _compare_shape(out_shape, out.shape, name="output shape", mistakes=[
            ((T_q, d_k), "width d_k: each output row is a weighted sum of rows of v, so it has "
                         "width d_v."),
            ((T_k, d_v), "T_k rows: there is one output row per query, so T_q rows."),
            ((T_q, T_k), "that is the weights' shape; weights (T_q, T_k) @ v (T_k, d_v) gives "
                         "(T_q, d_v)."),
        ])

    # Invalid inputs: the widths of q and k differ (v has q's width, so comparing q with v
    # is not enough), then k and v have different lengths.
    q, k, v = _random(9, (3, 2), (3, 3), (3, 2))
    core.expect_error(
        attention_shapes, *_copies(q, k, v), name="attention_shapes",
        hint=f"With {_describe(q, k, v)} each score q_i · k_j pairs 2 numbers with 3: "
             "compare q.shape[-1] with k.shape[-1] (v's width is free).",
    )
    message = ""
    try:
        attention_shapes(*_copies(q, k, v))
    except ValueError as error:
        message = str(error)
    if "width" not in message.lower() or "2" not in message or "3" not in message:
        raise AssertionError(
            "attention_shapes: a clear error says what was expected and what came. Name both "
            f"widths, e.g. 'q width 2 does not match k width 3'; your message was: {message!r}"
        )
    q, k, v = _random(10, (3, 2), (4, 2), (5, 2))
    core.expect_error(
        attention_shapes, *_copies(q, k, v), name="attention_shapes",
        hint=f"With {_describe(q, k, v)} there are 4 keys but 5 values: each key position "
             "needs exactly one value. Compare k.shape[0] with v.shape[0].",
    )
    core.passed(
        "attention_shapes: scores (T_q, T_k), output (T_q, d_v); d_q != d_k raises a ValueError "
        "naming both widths, T_k != T_v raises too; d_v != d_k and T_q != T_k are accepted"
    )


# Exercise 6 -------------------------------------------------------------------------------


@core.exercise
def check_n_projection_params(n_projection_params) -> None:
    """n_layers · n_heads · d_model · (2 d_k + d_v): one W_Q, W_K, W_V per head per layer."""
    cases = [
        dict(d_model=12, d_k=3, d_v=5, n_heads=2, n_layers=3, T=7),
        dict(d_model=512, d_k=64, d_v=64, n_heads=8, n_layers=6, T=10),  # base Transformer
    ]
    for c in cases:
        got = n_projection_params(**c)
        d_model, d_k, d_v, h, L, T = (c[n] for n in ("d_model", "d_k", "d_v", "n_heads",
                                                      "n_layers", "T"))
        per_head = d_model * (2 * d_k + d_v)
        expected = L * h * per_head
        core.compare(got, expected, name=f"n_projection_params({c})", mistakes=[
            ("your count grows with T: the weights do not depend on the sequence length. One "
             "W_Q serves every token, however many there are.", expected * T),
            ("your count is the same for 1 layer as for n_layers: each layer has its own "
             "W_Q, W_K and W_V; multiply by n_layers.", h * per_head),
            ("your count ignores n_heads: each head has its own W_Q, W_K and W_V; multiply "
             "by n_heads.", L * per_head),
            ("your count is one head of one layer: each head and each layer has its own "
             "three matrices.", per_head),
            ("you counted three (d_model, d_k) matrices: W_V is (d_model, d_v), and here "
             f"d_v = {d_v} differs from d_k = {d_k}.", L * h * 3 * d_model * d_k),
            ("you counted one matrix per head: there are three, W_Q, W_K and W_V.",
             L * h * d_model * d_k),
            ("you counted three (d_model, d_model) matrices per layer: each head projects to "
             "its own width d_k (and d_v), so a head holds d_model · (2·d_k + d_v).",
             L * 3 * d_model * d_model),
        ])
    core.passed(
        "n_projection_params: n_layers · n_heads · d_model · (2·d_k + d_v), independent of T; "
        "6 layers of 8 heads of width 64 over d_model = 512 hold 4,718,592"
    )
