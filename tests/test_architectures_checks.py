"""helpers.checks.architectures: references pass with one line, stubs propagate
NotImplementedError, valid variants pass, the rules hold, and the detector's test models leak
exactly where they should."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from check_contract import contract_tests

from helpers.attention import attention
from helpers.checks import architectures
from helpers.masks import leaks_future


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v)


def cross_attention_by_hand(x_dec, memory, W_q, W_k, W_v):
    q, k, v = x_dec @ W_q, memory @ W_k, memory @ W_v
    s = np.einsum("id,jd->ij", q, k) / np.sqrt(k.shape[-1])
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return w @ v, w


def cross_attention_torch(x_dec, memory, W_q, W_k, W_v):
    t = [torch.as_tensor(a) for a in (x_dec, memory, W_q, W_k, W_v)]
    return attention(t[0] @ t[2], t[1] @ t[3], t[1] @ t[4])


def loss_gather(logits, targets):
    return -torch.log_softmax(logits, -1).gather(-1, targets[..., None]).mean()


def loss_logsumexp(logits, targets):
    picked = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    return (logits.logsumexp(dim=-1) - picked).mean()


def loss_indexing(logits, targets):
    B, T, V = logits.shape
    log_probs = F.log_softmax(logits, dim=-1).reshape(B * T, V)
    return -log_probs[torch.arange(B * T), targets.reshape(-1)].mean()


def loss_one_hot(logits, targets):
    one_hot = F.one_hot(targets, logits.shape[-1]).to(logits.dtype)
    return -(one_hot * torch.log_softmax(logits, dim=-1)).sum(-1).mean()


def leaks_loop(model_fn, ids):
    base = model_fn(ids)
    T = ids.shape[1]
    for j in range(T - 1, 0, -1):  # from the last token back
        changed = ids.clone()
        changed[0, j] = (changed[0, j] + 7) % base.shape[-1]
        moved = (model_fn(changed) - base)[0, :j].abs().max()
        if moved > 1e-5:
            return True
    return False


def leaks_numpy_bool(model_fn, ids):
    return np.bool_(leaks_loop(model_fn, ids))


REFERENCES = [
    (architectures.check_cross_attention, cross_attention),
    (architectures.check_cross_attention, cross_attention_by_hand),
    (architectures.check_cross_attention, cross_attention_torch),
    (architectures.check_next_token_pairs, lambda w: (w[:, :-1], w[:, 1:])),
    (architectures.check_next_token_pairs, lambda w: (w[:, : w.shape[1] - 1], w[:, 1:].clone())),
    (architectures.check_next_token_pairs, lambda w: (w.numpy()[:, :-1], w.numpy()[:, 1:])),
    (architectures.check_next_token_loss, loss_gather),
    (architectures.check_next_token_loss, loss_logsumexp),
    (architectures.check_next_token_loss, loss_indexing),
    (architectures.check_next_token_loss, loss_one_hot),
    (architectures.check_leaks, architectures.reference_leaks),
    (architectures.check_leaks, leaks_loop),
    (architectures.check_leaks, leaks_numpy_bool),
    (architectures.check_context_memory,
     lambda n_layers, d, h, T, b: (n_layers * 2 * T * d * b, h * T * T * b)),
    (architectures.check_context_memory,
     lambda n_layers, d, h, T, b: (n_layers * 2 * T * h * (d // h) * b, h * T**2 * b)),
    (architectures.check_context_memory,  # NumPy integers are whole numbers too
     lambda n_layers, d, h, T, b: (np.int64(n_layers * 2 * T * d * b), np.int64(h * T * T * b))),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


@pytest.mark.parametrize("answer", [
    lambda logits, t: F.cross_entropy(logits.reshape(-1, logits.shape[-1]), t.reshape(-1)),
    lambda logits, t: torch.nn.CrossEntropyLoss()(logits.transpose(1, 2), t),
    lambda logits, t: F.nll_loss(torch.log_softmax(logits, -1).transpose(1, 2), t),
])
def test_a_library_loss_is_refused(answer):
    with pytest.raises(AssertionError, match="Write the loss by hand"):
        architectures.check_next_token_loss(answer)


def test_cross_entropy_under_an_alias_is_refused():
    from torch.nn.functional import cross_entropy as ce

    def next_token_loss(logits, targets):
        return ce(logits.flatten(0, 1), targets.flatten())

    with pytest.raises(AssertionError, match="cross_entropy"):
        architectures.check_next_token_loss(next_token_loss)


def test_a_detector_that_skips_the_last_token_is_caught():
    def stops_short(model_fn, ids):
        base = model_fn(ids)
        for j in range(1, ids.shape[1] - 1):
            changed = ids.clone()
            changed[0, j] = (changed[0, j] + 1) % base.shape[-1]
            if not torch.allclose(model_fn(changed)[:, :j], base[:, :j]):
                return True
        return False

    with pytest.raises(AssertionError, match="LAST token"):
        architectures.check_leaks(stops_short)


def test_detector_models_leak_exactly_where_they_should():
    V = 20

    def perturb(x, j):
        x = x.clone()
        x[0, j] = (x[0, j] + 1) % V
        return x

    single = {"one leak": (architectures.LEAK_AT, architectures.LEAK_AT + 1),
              "far leak": architectures.FAR_LEAK, "first-pair leak": architectures.FIRST_LEAK}
    for T in (10, 7):
        ids, cases = architectures._detector_cases(T)
        single["last-token leak"] = (architectures.LAST_LEAK, T - 1)
        for name, fn, leaky, _, _ in cases:
            moved = leaks_future(fn, ids, axis=-1, perturb=perturb)
            if name in single:
                expected = np.zeros((T, T), dtype=bool)
                expected[single[name]] = True
                assert (moved == expected).all(), name
            elif leaky:
                assert moved[np.triu_indices(T, 1)].all(), name
            else:
                assert not moved.any(), name


def test_memory_formula_matches_a_measured_model():
    for dims in [(3, 16, 4, 6, 8), (1, 8, 2, 5, 2)]:
        assert architectures._measured_memory(*dims) == architectures._memory_formula(*dims)


@pytest.mark.parametrize("answer", [
    lambda n_layers, d, h, T, b: (2 * n_layers * T * h * (d / h) * b, h * T * T * b / 1),
    lambda n_layers, d, h, T, b: (float(2 * n_layers * T * d * b), h * T * T * b),
    lambda n_layers, d, h, T, b: (np.float64(2 * n_layers * T * d * b), h * T * T * b),
])
def test_a_float_byte_count_is_refused(answer):
    with pytest.raises(AssertionError, match="True division") as info:
        architectures.check_context_memory(answer)
    assert info.value.diagnosis == "architectures.memory-float"
