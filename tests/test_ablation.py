"""helpers.ablation: zero, mean and resample ablation of heads, against the model's own
head_mask, hand-computed linear changes, and inputs on which a head's output is constant."""

import numpy as np
import pytest
import torch

from helpers import ablation, pretrained
from helpers.induction import AttentionOnly, ablation_mask, copy_losses, repeated_span_batch

SMALL = dict(d_model=16, n_heads=2, n_layers=2, max_len=12)


def _ids(batch=3, T=10, vocab=20, seed=0):
    return torch.randint(vocab, (batch, T), generator=torch.Generator().manual_seed(seed))


def _model():
    return AttentionOnly(20, **SMALL, seed=4).eval()


def test_head_outputs_rebuild_what_each_layer_adds():
    """z of every head, times its columns of W_O, summed over heads: the layer's output that
    a forward hook on the layer records."""
    model, ids = _model(), _ids()
    added = []
    hooks = [layer.register_forward_hook(lambda mod, args, out: added.append(out[0]))
             for layer in model.layers]
    with torch.no_grad():
        model(ids)
    for hook in hooks:
        hook.remove()
    z = ablation.head_outputs(model, ids)
    assert z.shape == (2, 2, 3, 10, 8)
    for i, layer in enumerate(model.layers):
        by_hand = sum(z[i, h] @ layer.o.weight[:, h * 8 : (h + 1) * 8].T for h in range(2))
        torch.testing.assert_close(by_hand, added[i], rtol=1e-5, atol=1e-5)


def test_zero_ablation_is_the_head_mask():
    model, ids = _model(), _ids()
    for heads in ([(0, 1)], [(1, 0)], [(0, 0), (1, 1)]):
        with torch.no_grad():
            expected = model(ids, ablation_mask(model, *heads))
        torch.testing.assert_close(ablation.ablated_logits(model, ids, heads), expected)
    all_heads = [(i, h) for i in range(2) for h in range(2)]
    embedding_only = model.unembed(model.embed(ids) + model.pos(10)).detach()
    for method in ablation.METHODS:  # every head replaced by a constant, the rows' own
        reference = ids if method == "resample" else ids[:1].expand(3, -1)
        out = ablation.ablated_logits(model, ids, all_heads, method, reference)
        if method == "zero":
            torch.testing.assert_close(out, embedding_only)
        else:
            assert out.shape == embedding_only.shape


def test_a_head_that_outputs_a_constant_is_unchanged_by_mean_and_resample():
    """On rows that are all the same, every head's output is the same on every row: mean and
    resample ablation (over such rows) change nothing, zero ablation does."""
    model = _model()
    ids = _ids(batch=1).expand(4, -1).clone()
    with torch.no_grad():
        clean = model(ids)
    for head in ((0, 0), (0, 1), (1, 1)):
        for method in ("mean", "resample"):
            torch.testing.assert_close(
                ablation.ablated_logits(model, ids, [head], method, ids), clean,
                rtol=1e-5, atol=1e-5)
        assert not torch.allclose(ablation.ablated_logits(model, ids, [head]), clean, atol=1e-3)


def test_resampling_from_the_same_rows_changes_nothing():
    model, ids = _model(), _ids()
    with torch.no_grad():
        clean = model(ids)
    out = ablation.ablated_logits(model, ids, [(0, 0), (1, 1)], "resample", ids)
    torch.testing.assert_close(out, clean, rtol=1e-5, atol=1e-5)


def test_last_layer_mean_and_resample_ablation_are_linear_changes():
    """Replacing z of a layer-1 head by z' changes the logits by (z' - z) W_O^h W_U, computed
    here from a clean run, with the mean taken by a loop over the reference rows."""
    model, ids, other = _model(), _ids(seed=0), _ids(seed=1)
    with torch.no_grad():
        clean = model(ids)
    z, z_other = ablation.head_outputs(model, ids)[1, 1], ablation.head_outputs(model, other)[1, 1]
    W_O = model.layers[1].o.weight[:, 8:16]                  # (D, d_head) of head 1
    mean = sum(z_other[b] for b in range(3)) / 3             # (T, d_head)
    for method, replacement in (("mean", mean), ("resample", z_other)):
        expected = clean + model.unembed((replacement - z) @ W_O.T).detach()
        torch.testing.assert_close(ablation.ablated_logits(model, ids, [(1, 1)], method, other),
                                   expected, rtol=1e-4, atol=1e-4)


def test_ablated_copy_losses_match_copy_losses_for_zero():
    model = AttentionOnly(20, d_model=16, n_heads=2, n_layers=2, max_len=13, seed=0)
    rows = repeated_span_batch(8, 6, 20, torch.Generator().manual_seed(0), prefix=1, bos=19)
    for heads in ([], [(0, 1)], [(1, 0), (1, 1)]):
        mask = ablation_mask(model, *heads)
        assert ablation.ablated_copy_losses(model, rows, 6, 1, heads) == pytest.approx(
            copy_losses(model, rows, 6, prefix=1, head_mask=mask), rel=1e-6)


def test_bad_input_raises_clear_errors():
    model, ids = _model(), _ids()
    with pytest.raises(ValueError, match="method must be one of"):
        ablation.ablated_logits(model, ids, [(0, 0)], "half")
    with pytest.raises(ValueError, match="no head \\(2, 0\\)"):
        ablation.ablated_logits(model, ids, [(2, 0)])
    with pytest.raises(ValueError, match="needs reference token ids"):
        ablation.ablated_logits(model, ids, [(0, 0)], "mean")
    with pytest.raises(ValueError, match="T = 10 positions"):
        ablation.ablated_logits(model, ids, [(0, 0)], "mean", ids[:, :5])
    with pytest.raises(ValueError, match="reference must have ids' shape"):
        ablation.ablated_logits(model, ids, [(0, 0)], "resample", ids[:2])


def test_the_shipped_model_zero_mean_and_resample():
    """Second-copy loss (0.15 clean) with one head removed three ways. The sink head, layer 0's
    head 0, costs nothing by any method; the induction head costs nats by every method, and
    most by resampling: its output on another row copies that row's tokens, a confident
    wrong guess (above the uniform ln 63 = 4.14)."""
    model = pretrained.load("induction")
    rows = repeated_span_batch(32, 16, 64, torch.Generator().manual_seed(1), prefix=1, bos=63)
    reference = repeated_span_batch(32, 16, 64, torch.Generator().manual_seed(2), prefix=1,
                                    bos=63)
    second = {(h, m): ablation.ablated_copy_losses(model, rows, 16, 1, [h], m, reference)[1]
              for h in ((0, 0), (1, 1)) for m in ablation.METHODS}
    clean = copy_losses(model, rows, 16, prefix=1)[1]
    assert clean < 0.2
    assert all(abs(second[(0, 0), m] - clean) < 0.05 for m in ablation.METHODS)
    assert all(second[(1, 1), m] > clean + 2 for m in ablation.METHODS)
    assert second[(1, 1), "resample"] > np.log(63) > second[(1, 1), "zero"]
