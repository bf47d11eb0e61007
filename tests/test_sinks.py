"""helpers.sinks: gpt-oss's learned sinks equal a concatenated logit column, dropped after."""

import math

import numpy as np
import pytest
import torch

from helpers.masks import sink_window_mask, sliding_window_mask
from helpers.sinks import sink_attention, sink_share, softmax_with_sink


def concat_reference(s, sinks):
    """gpt-oss's reference: cat the sink as one more column, softmax, drop the column."""
    col = sinks.reshape(-1, 1, 1).expand(*s.shape[:-1], 1)
    return torch.softmax(torch.cat([s, col], dim=-1), dim=-1)


def test_softmax_with_sink_matches_concatenating_a_column():
    g = torch.Generator().manual_seed(0)
    s = torch.randn(2, 4, 5, 9, generator=g, dtype=torch.float64) * 3
    sinks = torch.tensor([-1.0, 0.0, 2.0, 8.0], dtype=torch.float64)
    ref = concat_reference(s, sinks)
    torch.testing.assert_close(softmax_with_sink(s, sinks), ref[..., :-1])
    torch.testing.assert_close(sink_share(s, sinks), ref[..., -1])
    np.testing.assert_allclose(softmax_with_sink(s.numpy(), sinks.numpy()), ref[..., :-1])
    np.testing.assert_allclose(sink_share(s.numpy(), sinks.numpy()), ref[..., -1])
    total = softmax_with_sink(s, sinks).sum(-1)
    torch.testing.assert_close(total, 1 - ref[..., -1])  # the rest goes nowhere


def test_minus_inf_sink_gives_plain_softmax():
    s = torch.randn(3, 4, 6, dtype=torch.float64)
    sinks = torch.full((3,), float("-inf"), dtype=torch.float64)
    torch.testing.assert_close(softmax_with_sink(s, sinks), torch.softmax(s, -1))
    assert float(sink_share(s, sinks).abs().max()) == 0.0


def test_large_scores_and_sinks_do_not_overflow():
    s = torch.tensor([[[1000.0, 999.0]]], dtype=torch.float64)
    w = softmax_with_sink(s, torch.tensor([1000.0], dtype=torch.float64))
    e = math.exp(-1)
    torch.testing.assert_close(w[0, 0], torch.tensor([1, e], dtype=torch.float64) / (2 + e))


def test_sink_attention_equals_a_virtual_key_with_zero_value():
    g = torch.Generator().manual_seed(1)
    q, k, v = (torch.randn(2, 3, 6, 4, generator=g, dtype=torch.float64) for _ in range(3))
    sinks = torch.tensor([0.5, -2.0, 3.0], dtype=torch.float64)
    mask = torch.ones(6, 6, dtype=torch.bool).tril()
    out, w = sink_attention(q, k, v, sinks, mask)
    s = (q @ k.transpose(-2, -1) / 2).masked_fill(~mask, float("-inf"))
    w_ref = concat_reference(s, sinks)  # (2, 3, 6, 7)
    v_ref = torch.cat([v, torch.zeros(2, 3, 1, 4, dtype=torch.float64)], dim=-2)
    torch.testing.assert_close(out, w_ref @ v_ref)
    torch.testing.assert_close(w, w_ref[..., :-1])


def test_a_row_with_no_key_puts_all_weight_on_the_sink():
    q, k, v = torch.ones(1, 2, 4), torch.ones(1, 3, 4), torch.ones(1, 3, 4)
    mask = torch.tensor([[False, False, False], [True, True, False]])
    out, w = sink_attention(q, k, v, torch.tensor([0.0]), mask)
    assert float(w[0, 0].abs().sum()) == 0.0 and float(out[0, 0].abs().sum()) == 0.0
    with pytest.raises(ValueError, match="no allowed key and no sink"):
        sink_attention(q, k, v, torch.tensor([float("-inf")]), mask)


def test_learned_sink_is_a_streaming_llm_sink_token_with_constant_score_and_zero_value():
    """StreamingLLM keeps token 0 in every window; give it score b and value 0, and the
    weights on the other keys are those of a learned sink over the window alone."""
    T, window, b = 8, 3, 1.5
    s = torch.randn(1, T, T, dtype=torch.float64)
    s_kept = s.clone()
    s_kept[..., 0] = b  # the kept token scores b for every query
    kept = torch.as_tensor(sink_window_mask(T, window, 1))
    w_streaming = torch.softmax(s_kept.masked_fill(~kept, float("-inf")), -1)
    win = torch.as_tensor(sliding_window_mask(T, window))
    win[:, 0] = False  # key 0 is the sink now, not a key
    w_sink = softmax_with_sink(s.masked_fill(~win, float("-inf")), torch.tensor([b]))
    torch.testing.assert_close(w_sink[..., 1:], w_streaming[..., 1:])


def test_bad_sink_logits_are_refused():
    s = torch.zeros(2, 3, 3)
    with pytest.raises(ValueError, match=r"\(H,\) = \(2,\)"):
        softmax_with_sink(s, torch.zeros(3))
    with pytest.raises(ValueError, match=r"\+inf or NaN"):
        softmax_with_sink(s, torch.tensor([0.0, float("nan")]))
