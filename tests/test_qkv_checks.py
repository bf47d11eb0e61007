"""helpers.checks.qkv: passes right answers, lets a stub's NotImplementedError through,
and never passes a wrong one."""

import numpy as np
import pytest
from check_contract import contract_tests

from helpers.checks import qkv


def project_qkv(x, w_q, w_k, w_v):
    return x @ w_q, x @ w_k, x @ w_v


def cross_attention_qkv(x_dec, x_enc, w_q, w_k, w_v):
    return x_dec @ w_q, x_enc @ w_k, x_enc @ w_v


def fuse_weights(w_q, w_k, w_v):
    return np.concatenate([w_q, w_k, w_v], axis=1)


def split_qkv(fused, d_k, d_v):
    return tuple(np.split(fused, [d_k, 2 * d_k], axis=1))


def attention_shapes(q, k, v):
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q width {q.shape[-1]} does not match k width {k.shape[-1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError(f"k has {k.shape[0]} positions, v has {v.shape[0]}")
    return (q.shape[0], k.shape[0]), (q.shape[0], v.shape[-1])


def n_projection_params(d_model, d_k, d_v, n_heads, n_layers, T):
    return n_layers * n_heads * d_model * (2 * d_k + d_v)


RIGHT = {
    qkv.check_project_qkv: project_qkv,
    qkv.check_cross_attention_qkv: cross_attention_qkv,
    qkv.check_fuse_weights: fuse_weights,
    qkv.check_split_qkv: split_qkv,
    qkv.check_attention_shapes: attention_shapes,
    qkv.check_n_projection_params: n_projection_params,
}


test_right_answer_passes, test_stub_propagates = contract_tests(list(RIGHT.items()))


def test_torch_tensors_are_accepted():
    import torch

    def project_torch(x, w_q, w_k, w_v):
        x, w_q, w_k, w_v = (torch.as_tensor(a) for a in (x, w_q, w_k, w_v))
        return x @ w_q, x @ w_k, x @ w_v

    qkv.check_project_qkv(project_torch)


def test_answer_right_on_the_lesson_example_only_fails():
    """A function that is right for the seed example and wrong elsewhere must not pass."""

    def only_seed(x, w_q, w_k, w_v):
        if x.shape == (3, 4):
            return x @ w_q, x @ w_k, x @ w_v
        return x @ w_q, x @ w_k, x @ w_k  # V projected with W_K

    with pytest.raises(AssertionError, match="same weight matrix"):
        qkv.check_project_qkv(only_seed)


def test_equal_widths_split_fails_when_d_v_differs():
    def split_equal(fused, d_k, d_v):
        return fused[:, :d_k], fused[:, d_k : 2 * d_k], fused[:, 2 * d_k : 3 * d_k]

    with pytest.raises(AssertionError, match="assumed d_v == d_k"):
        qkv.check_split_qkv(split_equal)


def test_wrong_structure_is_explained():
    with pytest.raises(AssertionError, match=r"return the tuple \(q, k, v\)"):
        qkv.check_project_qkv(lambda x, w_q, w_k, w_v: np.stack([x @ w_q, x @ w_k, x @ w_v]))
    with pytest.raises(AssertionError, match="expected a shape"):
        qkv.check_attention_shapes(lambda q, k, v: ("T_q x T_k", "T_q x d_v"))


# ---- valid variants: other ways to write the right answer must pass


def project_einsum(x, w_q, w_k, w_v):
    return tuple(np.einsum("td,dw->tw", x, w) for w in (w_q, w_k, w_v))


def project_loop(x, w_q, w_k, w_v):
    return tuple(np.array([row @ w for row in x]) for w in (w_q, w_k, w_v))


def project_fused(x, w_q, w_k, w_v):
    d_k = w_q.shape[1]
    both = x @ np.concatenate([w_q, w_k, w_v], axis=1)
    return both[:, :d_k], both[:, d_k : 2 * d_k], both[:, 2 * d_k :]


def project_torch_out(x, w_q, w_k, w_v):
    import torch

    x = torch.as_tensor(x)
    return tuple(torch.matmul(x, torch.as_tensor(w)) for w in (w_q, w_k, w_v))


def cross_einsum(x_dec, x_enc, w_q, w_k, w_v):
    return (np.einsum("td,dw->tw", x_dec, w_q), np.dot(x_enc, w_k), np.matmul(x_enc, w_v))


def cross_lists(x_dec, x_enc, w_q, w_k, w_v):
    return [x_dec @ w_q, x_enc @ w_k, x_enc @ w_v]


def fuse_hstack(w_q, w_k, w_v):
    return np.hstack([w_q, w_k, w_v])


def fuse_block(w_q, w_k, w_v):
    return np.block([w_q, w_k, w_v])


def fuse_torch(w_q, w_k, w_v):
    import torch

    return torch.cat([torch.as_tensor(w) for w in (w_q, w_k, w_v)], dim=1)


def split_from_the_end(fused, d_k, d_v):
    return fused[..., :d_k], fused[..., d_k : d_k + d_k], fused[..., -d_v:]


def split_hsplit(fused, d_k, d_v):
    q, k, v = np.hsplit(fused, [d_k, 2 * d_k])
    return q.copy(), k.copy(), v.copy()


def shapes_by_len(q, k, v):
    if len(q[0]) != len(k[0]):
        raise ValueError(f"width mismatch: q width {len(q[0])}, k width {len(k[0])}")
    if len(k) != len(v):
        raise ValueError(f"{len(k)} keys but {len(v)} values")
    return [len(q), len(k)], [len(q), len(v[0])]


def params_numpy_int(d_model, d_k, d_v, n_heads, n_layers, T):
    per_matrix = np.array([d_model * d_k, d_model * d_k, d_model * d_v])
    return np.int64(n_layers) * n_heads * per_matrix.sum()


VALID = [
    (qkv.check_project_qkv, project_einsum),
    (qkv.check_project_qkv, project_loop),
    (qkv.check_project_qkv, project_fused),
    (qkv.check_project_qkv, project_torch_out),
    (qkv.check_cross_attention_qkv, cross_einsum),
    (qkv.check_cross_attention_qkv, cross_lists),
    (qkv.check_fuse_weights, fuse_hstack),
    (qkv.check_fuse_weights, fuse_block),
    (qkv.check_fuse_weights, fuse_torch),
    (qkv.check_split_qkv, split_from_the_end),
    (qkv.check_split_qkv, split_hsplit),
    (qkv.check_attention_shapes, shapes_by_len),
    (qkv.check_n_projection_params, params_numpy_int),
]


@pytest.mark.parametrize("check, answer", VALID, ids=[a.__name__ for _, a in VALID])
def test_valid_variant_passes(check, answer, capsys):
    check(answer)
    assert capsys.readouterr().out.startswith("✔")


def test_in_place_change_is_named():
    def split_in_place(fused, d_k, d_v):
        fused *= 1.0
        fused[0, 0] += 1
        return fused[:, :d_k], fused[:, d_k : 2 * d_k], fused[:, 2 * d_k :]

    with pytest.raises(AssertionError, match="changed its argument `fused` in place"):
        qkv.check_split_qkv(split_in_place)


def test_diagnoses_carry_ids():
    from helpers.checks import core

    def swapped(x, w_q, w_k, w_v):
        return x @ w_q, x @ w_v, x @ w_k

    with pytest.raises(core.CheckFailed) as error:
        qkv.check_project_qkv(swapped)
    assert error.value.diagnosis == "qkv.k-v-swapped"
