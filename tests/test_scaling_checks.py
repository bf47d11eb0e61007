"""helpers.checks.scaling accepts correct answers written other ways, and refuses stubs."""

import numpy as np
import pytest
import torch
from check_contract import contract_tests

from helpers.attention import softmax
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


def variance_features_first(d_k, n_samples, rng):
    q = rng.standard_normal((d_k, n_samples))  # features on axis 0 this time
    k = rng.standard_normal((d_k, n_samples))
    return np.var((q * k).sum(axis=0))


def variance_in_chunks(d_k, n_samples, rng):
    dots = []
    for start in range(0, n_samples, 3_000):
        n = min(3_000, n_samples - start)
        dots.append(np.einsum("nd,nd->n", rng.normal(size=(n, d_k)), rng.normal(size=(n, d_k))))
    return np.concatenate(dots).var()


def variance_torch_from_rng(d_k, n_samples, rng):
    q = torch.from_numpy(rng.standard_normal((n_samples, d_k)))
    k = torch.from_numpy(rng.standard_normal((n_samples, d_k)))
    return (q * k).sum(dim=1).var(unbiased=False)  # a 0-d tensor is one number


def variance_second_moment(d_k, n_samples, rng):
    dots = (rng.standard_normal((n_samples, d_k)) * rng.standard_normal((n_samples, d_k))).sum(1)
    return float(np.mean(dots**2))  # E[(q·k)²] = Var(q·k), since the mean is 0


def head_scores_loop(q, k):
    return np.stack([q[h] @ k[h].T for h in range(q.shape[0])]) / np.sqrt(q.shape[-1])


def head_scores_scale_q_first(q, k):
    q = q / q.shape[-1] ** 0.5  # a new array: the input stays untouched
    return q @ k.transpose(0, 2, 1)


def saturation_all_then_pick(d_ks, threshold, n_rows=200, n_keys=16, seed=0):
    means = []
    for d_k in d_ks:
        q, k = sample_qk(d_k, n_rows=n_rows, n_keys=n_keys, seed=seed)
        means.append(softmax(np.einsum("rd,rjd->rj", q, k)).max(axis=-1).mean())
    return next((d for d, m in zip(d_ks, means, strict=True) if m > threshold), None)


def softmax_t_by_hand(scores, tau):
    s = np.asarray(scores) / tau
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_t_global_max(scores, tau):
    s = scores / tau
    e = np.exp(s - s.max())  # the whole array's max: fine here, no row underflows
    return e / e.sum(axis=-1, keepdims=True)


def softmax_t_power(scores, tau):
    w = softmax(scores) ** (1 / tau)  # softmax(s)^(1/tau), renormalised, is softmax(s / tau)
    return w / w.sum(axis=-1, keepdims=True)


def entropy_masked_where(p):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > 0, -p * np.log(p), 0.0).sum(axis=-1)


def entropy_log_of_inverse(p):
    safe = np.where(p > 0, p, 1.0)
    return (p * np.log(1 / safe)).sum(axis=-1)


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
    (scaling.check_measure_dot_variance, variance_features_first),
    (scaling.check_measure_dot_variance, variance_in_chunks),
    (scaling.check_measure_dot_variance, variance_torch_from_rng),
    (scaling.check_measure_dot_variance, variance_second_moment),
    (scaling.check_head_scores, head_scores_loop),
    (scaling.check_head_scores, head_scores_scale_q_first),
    (scaling.check_saturation_point, saturation_all_then_pick),
    (scaling.check_softmax_temperature, softmax_t_by_hand),
    (scaling.check_softmax_temperature, softmax_t_global_max),
    (scaling.check_softmax_temperature, softmax_t_power),
    (scaling.check_entropy, entropy_masked_where),
    (scaling.check_entropy, entropy_log_of_inverse),
]
test_right_answer_passes, test_stub_propagates = contract_tests(OTHER_CORRECT_ANSWERS)


def test_memory_blowup_is_explained():
    def all_pairs(d_k, n_samples, rng):
        raise MemoryError  # what q @ k.T on 20 000 rows does on a small machine

    with pytest.raises(AssertionError, match=r"q @ k\.T"):
        scaling.check_measure_dot_variance(all_pairs)


def test_every_diagnosis_id_is_namespaced():
    """Anticipated mistakes carry ids "scaling.<kebab-case>", each a stable name."""
    import re
    from pathlib import Path

    source = Path(scaling.__file__).read_text(encoding="utf-8")
    ids = re.findall(r'"(scaling\.[^"<]+)"', source)
    assert ids and all(re.fullmatch(r"scaling\.[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids), ids


# ------------------------------------------------ round 3: variants of held-out mistakes


@pytest.mark.parametrize("answer", [
    lambda d_k, n, rng: float(np.var(rng.standard_normal((n, d_k))
                                     @ rng.standard_normal((n, d_k)).T)),
    lambda d_k, n, rng: np.einsum("id,jd->ij", *rng.normal(size=(2, n, d_k))).var(ddof=1),
    lambda d_k, n, rng: float(np.var(rng.standard_normal((d_k, n)).T
                                     @ rng.standard_normal((d_k, n)))),
    lambda d_k, n, rng: (torch.from_numpy(rng.standard_normal((n, d_k))).float()
                         @ torch.from_numpy(rng.standard_normal((n, d_k))).float().T).var(),
])
def test_the_variance_of_all_pairs_is_named(answer):
    with pytest.raises(AssertionError, match="matched dot products") as info:
        scaling.check_measure_dot_variance(answer)
    assert info.value.diagnosis == "scaling.all-pairs-matrix"


def test_a_generator_that_records_its_draws_is_still_a_generator():
    rng = scaling._RecordingGenerator(0)
    assert np.random.default_rng(rng) is rng
    assert np.array_equal(rng.standard_normal(3), np.random.default_rng(0).standard_normal(3))
    assert len(rng.draws) == 1
