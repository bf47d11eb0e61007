"""helpers.checks.architectures: references pass with one line, stubs propagate
NotImplementedError, and the detector's test models leak exactly where they should."""

import numpy as np
import torch
import torch.nn.functional as F
from check_contract import contract_tests

from helpers.attention import attention
from helpers.checks import architectures
from helpers.masks import leaks_future


def cross_attention(x_dec, memory, W_q, W_k, W_v):
    return attention(x_dec @ W_q, memory @ W_k, memory @ W_v)


REFERENCES = [
    (architectures.check_cross_attention, cross_attention),
    (architectures.check_next_token_pairs, lambda w: (w[:, :-1], w[:, 1:])),
    (architectures.check_next_token_loss,
     lambda logits, t: F.cross_entropy(logits.reshape(-1, logits.shape[-1]), t.reshape(-1))),
    (architectures.check_leaks, architectures.reference_leaks),
    (architectures.check_context_memory,
     lambda n_layers, d, h, T, b: (n_layers * 2 * T * d * b, h * T * T * b)),
]


test_right_answer_passes, test_stub_propagates = contract_tests(REFERENCES)


def test_torch_answers_are_accepted():
    def torch_cross(x_dec, memory, W_q, W_k, W_v):
        t = [torch.as_tensor(a) for a in (x_dec, memory, W_q, W_k, W_v)]
        return attention(t[0] @ t[2], t[1] @ t[3], t[1] @ t[4])

    architectures.check_cross_attention(torch_cross)
    architectures.check_next_token_loss(
        lambda logits, t: -torch.log_softmax(logits, -1).gather(-1, t[..., None]).mean())


def test_detector_models_leak_exactly_where_they_should():
    ids, cases = architectures._detector_cases()
    V = 20

    def perturb(x, j):
        x = x.clone()
        x[0, j] = (x[0, j] + 1) % V
        return x

    T = ids.shape[1]
    for name, fn, leaky, _ in cases:
        moved = leaks_future(fn, ids, axis=-1, perturb=perturb)
        if name in ("one leak", "far leak"):
            reader, read = ((architectures.LEAK_AT, architectures.LEAK_AT + 1)
                            if name == "one leak" else architectures.FAR_LEAK)
            expected = np.zeros((T, T), dtype=bool)
            expected[reader, read] = True
            assert (moved == expected).all(), name
        elif leaky:
            assert moved[np.triu_indices(T, 1)].all(), name
        else:
            assert not moved.any(), name


def test_memory_formula_matches_a_measured_model():
    for dims in [(3, 16, 4, 6, 8), (1, 8, 2, 5, 2)]:
        assert architectures._measured_memory(*dims) == architectures._memory_formula(*dims)
