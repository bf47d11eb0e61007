"""helpers.checks.masks: references pass with one line, stubs propagate NotImplementedError."""

import numpy as np
import pytest
import torch
from check_contract import contract_tests

from helpers.attention import attention, softmax
from helpers.checks import masks
from helpers.masks import additive_bias, causal_mask, leaks_future, padding_mask


def safe_attention(q, k, v, mask):
    dead = ~mask.any(axis=-1)
    out, w = attention(q, k, v, mask | dead[..., None])
    return np.where(dead[..., None], 0.0, out), np.where(dead[..., None], 0.0, w)


def batch_mask(lengths, T, causal):
    keys = padding_mask(lengths, T)[:, None, :]
    return np.broadcast_to(keys & causal_mask(T) if causal else keys, (len(lengths), T, T))


def causal_by_comparison(T):
    i, j = np.indices((T, T))
    return j <= i


def causal_by_loop(T):
    mask = np.zeros((T, T), dtype=bool)
    for i in range(T):
        mask[i, : i + 1] = True
    return mask


def causal_tri(T):
    return np.tri(T, dtype=bool)


def causal_not_upper(T):
    return ~np.triu(np.ones((T, T), dtype=bool), k=1)


def masked_weights_big_negative(scores, mask):
    return softmax(np.where(mask, scores, -1e9))


def masked_weights_renormalised(scores, mask):
    w = softmax(scores) * mask  # 0/0 where a blocked score is far above the allowed ones
    return w / w.sum(axis=-1, keepdims=True)


def masked_weights_by_hand(scores, mask):
    s = np.where(mask, scores, -np.inf)
    e = np.exp(s - s.max(axis=-1, keepdims=True))  # the max of the allowed scores only
    return e / e.sum(axis=-1, keepdims=True)


def safe_attention_stable_by_hand(q, k, v, mask):
    s = np.einsum("...qd,...kd->...qk", q, k) / np.sqrt(q.shape[-1])
    s = np.where(mask, s, -np.inf)
    top = s.max(axis=-1, keepdims=True)
    e = np.exp(s - np.where(np.isfinite(top), top, 0.0))  # a dead row is all exp(-inf) = 0
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(total == 0, 1.0, total)
    return w @ v, w


def masked_weights_torch(scores, mask):
    s = torch.as_tensor(scores).masked_fill(~torch.as_tensor(mask), float("-inf"))
    return torch.softmax(s, dim=-1)


def reversed_by_comparison(T):
    i, j = np.indices((T, T))
    return i <= j


def reads_future_solution(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[j] += eps
        if not np.allclose(attend(changed)[:j], base[:j]):
            return True
    return False


def reads_future_every_later_token_at_once(attend, x, eps=1.0):
    base = attend(x)
    for j in range(1, len(x)):
        changed = x.copy()
        changed[j:] += eps  # tokens j..T-1 all change: outputs before j still may not move
        if not np.allclose(attend(changed)[:j], base[:j]):
            return np.True_
    return np.False_


def reads_future_by_output(attend, x, eps=1.0):
    base = attend(x)
    T = len(x)
    moved = np.zeros((T, T), dtype=bool)
    for j in range(T):
        changed = np.array(x, copy=True)
        changed[j] = changed[j] + eps * np.random.default_rng(j).normal(size=x.shape[1])
        moved[:, j] = np.abs(attend(changed) - base).max(axis=1) > 1e-9
    return bool(np.triu(moved, k=1).any())


def batch_mask_by_comparison(lengths, T, causal):
    i, j = np.indices((T, T))
    allowed = (j[None] < np.asarray(lengths)[:, None, None]) & ((j <= i) if causal else True)
    return np.broadcast_to(allowed, (len(lengths), T, T))


def batch_mask_loop(lengths, T, causal):
    out = np.zeros((len(lengths), T, T), dtype=bool)
    for b, n in enumerate(lengths):
        out[b, :, :n] = True
        if causal:
            out[b] &= np.tril(np.ones((T, T), dtype=bool))
    return out


def safe_attention_by_hand(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    dead = ~mask.any(axis=-1, keepdims=True)
    scores = np.where(dead, 0.0, np.where(mask, scores, -np.inf))  # no row all -inf
    weights = np.where(dead, 0.0, softmax(scores))
    return weights @ v, weights


def safe_attention_errstate(q, k, v, mask):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    with np.errstate(invalid="ignore"):  # silenced on purpose, then cleaned up
        weights = np.nan_to_num(softmax(np.where(mask, scores, -np.inf)))
    return weights @ v, weights


REFERENCES = [
    (masks.check_causal_mask, lambda T: np.tril(np.ones((T, T), dtype=bool))),
    (masks.check_masked_weights, lambda s, m: softmax(s + additive_bias(m))),
    (masks.check_reversed_causal_mask, lambda T: causal_mask(T).T),
    (masks.check_reads_future, lambda attend, x: bool(leaks_future(attend, x).any())),
    (masks.check_batch_mask, batch_mask),
    (masks.check_safe_attention, safe_attention),
    # right answers written other ways
    (masks.check_causal_mask, causal_by_comparison),
    (masks.check_causal_mask, causal_by_loop),
    (masks.check_causal_mask, causal_tri),
    (masks.check_causal_mask, causal_not_upper),
    (masks.check_masked_weights, masked_weights_big_negative),
    (masks.check_masked_weights, masked_weights_by_hand),
    (masks.check_masked_weights, masked_weights_torch),
    (masks.check_reversed_causal_mask, reversed_by_comparison),
    (masks.check_reads_future, reads_future_solution),
    (masks.check_reads_future, reads_future_every_later_token_at_once),
    (masks.check_reads_future, reads_future_by_output),
    (masks.check_batch_mask, batch_mask_by_comparison),
    (masks.check_batch_mask, batch_mask_loop),
    (masks.check_safe_attention, safe_attention_by_hand),
    (masks.check_safe_attention, safe_attention_errstate),
    (masks.check_safe_attention, safe_attention_stable_by_hand),
]

test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


def test_torch_mask_is_refused_as_the_text_says_numpy():
    """Issue 20: exercise 1 says "with NumPy"; a torch mask is named, not passed."""
    with pytest.raises(AssertionError, match="asks for a NumPy boolean array; yours is a torch"):
        masks.check_causal_mask(lambda T: torch.ones(T, T, dtype=torch.bool).tril())


def test_the_reference_builder_is_refused():
    with pytest.raises(AssertionError, match="calls causal_mask"):
        masks.check_causal_mask(lambda T: causal_mask(T))


@pytest.mark.parametrize("stop", [1, 2])
def test_a_detector_that_stops_short_is_told_so(stop):
    def short(attend, x, eps=1.0):
        base = attend(x)
        for j in range(1, len(x) - stop):
            changed = x.copy()
            changed[j] += eps
            if not np.allclose(attend(changed)[:j], base[:j]):
                return True
        return False

    with pytest.raises(AssertionError, match="missed a leak") as info:
        masks.check_reads_future(short)
    assert info.value.diagnosis == "masks.never-perturbs-last"


def test_every_diagnosis_id_is_namespaced():
    import re
    from pathlib import Path

    source = Path(masks.__file__).read_text(encoding="utf-8")
    ids = re.findall(r'"(masks\.[^"<]+)"', source)
    assert ids and all(re.fullmatch(r"masks\.[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids), ids


# ------------------------------------------------ round 2: variants of held-out mistakes


def test_a_detector_with_an_else_return_is_told_it_returns_early():
    def else_return(attend, x, eps=1.0):
        base = attend(x)
        for j in range(1, len(x)):
            changed = x.copy()
            changed[j] += eps
            if not np.allclose(attend(changed)[:j], base[:j]):
                return True
            else:
                return False
        return False

    assert failure(masks.check_reads_future, else_return).diagnosis == "masks.early-return"


def test_a_dead_row_sent_to_its_last_key_is_named_as_a_dummy_key():
    def last_key(q, k, v, mask):
        dead = ~mask.any(axis=-1)
        fixed = mask.copy()
        fixed[..., -1] |= dead
        return attention(q, k, v, fixed)

    assert failure(masks.check_safe_attention, last_key).diagnosis == "masks.dead-rows-dummy-key"


def test_a_cached_mask_sliced_to_size_is_named_hard_coded():
    cache = np.tril(np.ones((6, 6), dtype=bool))
    assert failure(masks.check_causal_mask, lambda T: cache[:T, :T]).diagnosis == (
        "masks.hard-coded-size")


def failure(check, answer):
    with pytest.raises(AssertionError) as error:
        check(answer)
    return error.value


# ------------------------------------------------ round 3: variants of held-out mistakes


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("answer", [
    masked_weights_renormalised,
    lambda s, m: np.nan_to_num(softmax(s) * m / (softmax(s) * m).sum(-1, keepdims=True)),
    lambda s, m: softmax(s) * m / ((softmax(s) * m).sum(-1, keepdims=True) + 1e-12),
    lambda s, m: (lambda w: w / w.sum(-1, keepdims=True))(torch.softmax(
        torch.as_tensor(s), -1) * torch.as_tensor(m)),
])
def test_softmax_then_mask_and_renormalise_is_named(answer):
    error = failure(masks.check_masked_weights, answer)
    assert error.diagnosis == "masks.renormalised-underflow"
    assert "renormalised" in str(error)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("keepdims", [False, True])
def test_dead_rows_found_with_axis_1_are_named(keepdims):
    def axis_1(q, k, v, mask):
        dead = ~mask.any(axis=1, keepdims=keepdims)
        dead = dead if keepdims else dead[..., None]
        out, w = attention(q, k, v, mask | dead)
        return out * ~dead, w * ~dead

    error = failure(masks.check_safe_attention, axis_1)
    assert error.diagnosis in ("masks.axis-from-the-front", "masks.empty-columns-not-rows")


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("where", [
    lambda e, t: e / np.where(t == 0, 1.0, t),
    lambda e, t: np.divide(e, t, out=np.zeros_like(e), where=t > 0),
])
def test_masked_softmax_without_the_row_max_is_named(where):
    def no_max(q, k, v, mask):
        s = q @ np.swapaxes(k, -2, -1) / np.sqrt(q.shape[-1])
        e = np.where(mask, np.exp(s), 0.0)
        w = where(e, e.sum(axis=-1, keepdims=True))
        return w @ v, w

    error = failure(masks.check_safe_attention, no_max)
    assert error.diagnosis == "masks.overflow" and "max" in str(error)
