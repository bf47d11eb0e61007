"""helpers.checks.scaling accepts correct answers written other ways, and refuses stubs."""

import numpy as np
import pytest
import torch
from check_contract import contract_tests

from helpers.checks import scaling
from helpers.scaling import row_weights, sample_qk


def variance_one_draw(d_k, n_samples, rng):
    qk = rng.normal(size=(2, n_samples, d_k))  # q and k in one call: still independent
    return np.einsum("nd,nd->n", qk[0], qk[1]).var(ddof=1)


def head_scores_torch(q, k):
    q, k = torch.as_tensor(q), torch.as_tensor(k)
    return q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5


def head_scores_einsum(q, k):
    return np.einsum("htd,hsd->hts", q, k) / np.sqrt(k.shape[-1])


def saturation_with_helper(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        w = row_weights(d_k, scaled=False, n_rows=n_rows, n_keys=n_keys, seed=seed)
        if w.max(axis=-1).mean() > threshold:
            return np.int64(d_k)  # a NumPy integer is a fine answer
    return None


def saturation_torch(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows, n_keys, seed)
        scores = (torch.from_numpy(k) @ torch.from_numpy(q)[..., None])[..., 0]
        if torch.softmax(scores, dim=-1).max(dim=-1).values.mean() > threshold:
            return d_k
    return None


def softmax_t_torch(scores, tau):
    return torch.softmax(torch.as_tensor(scores) / tau, dim=-1)


def entropy_nansum(p):
    with np.errstate(all="ignore"):
        terms = p * np.log(p)
    return -np.nansum(terms, axis=-1)


def entropy_xlogy(p):
    p = torch.as_tensor(p)
    return -torch.special.xlogy(p, p).sum(dim=-1)


# Right answers written other ways than the solutions (torch, einsum, nansum, xlogy).
OTHER_CORRECT_ANSWERS = [
    (scaling.check_measure_dot_variance, variance_one_draw),
    (scaling.check_head_scores, head_scores_torch),
    (scaling.check_head_scores, head_scores_einsum),
    (scaling.check_saturation_point, saturation_with_helper),
    (scaling.check_saturation_point, saturation_torch),
    (scaling.check_softmax_temperature, softmax_t_torch),
    (scaling.check_entropy, entropy_nansum),
    (scaling.check_entropy, entropy_xlogy),
]
test_right_answer_passes, test_stub_propagates = contract_tests(OTHER_CORRECT_ANSWERS)


def test_memory_blowup_is_explained():
    def all_pairs(d_k, n_samples, rng):
        raise MemoryError  # what q @ k.T on 20 000 rows does on a small machine

    with pytest.raises(AssertionError, match=r"q @ k\.T"):
        scaling.check_measure_dot_variance(all_pairs)
