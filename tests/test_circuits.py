"""helpers.circuits: the full OV circuit and its copying scores, and direct logit attribution,
each against a computation made another way (the model's own modules, a forward pass,
an ablation, eigenvalues of a smaller matrix, hand-made matrices)."""

import numpy as np
import pytest
import torch

from helpers import circuits, pretrained
from helpers.induction import AttentionOnly, ablation_mask, repeated_span_batch

SMALL = dict(d_model=16, n_heads=2, n_layers=2, max_len=12)


def _ids(batch=3, T=10, vocab=20, seed=0):
    return torch.randint(vocab, (batch, T), generator=torch.Generator().manual_seed(seed))


@pytest.fixture(scope="module")
def shipped():
    return pretrained.load("induction")


# ---------------------------------------------------------------- the OV circuit


@torch.no_grad()
def _ov_through_modules(model, layer, head):
    """Every token's embedding through the layer's own nn.Linear modules, the other heads'
    values zeroed: v, then o, then unembed (no weight slicing by hand)."""
    att = model.layers[layer]
    d = att.d_head
    values = att.v(model.embed.weight)                    # (V, D)
    keep = torch.zeros_like(values)
    keep[:, head * d : (head + 1) * d] = 1
    return model.unembed(att.o(values * keep)).double().numpy()  # (V, V)


def test_full_ov_circuit_is_the_modules_applied_to_every_embedding():
    model = AttentionOnly(20, **SMALL, seed=3)
    for layer in range(2):
        for head in range(2):
            np.testing.assert_allclose(circuits.full_ov_circuit(model, layer, head),
                                       _ov_through_modules(model, layer, head),
                                       rtol=1e-4, atol=1e-4)
    # its row form is the transpose of ov_matrices' column form, sandwiched by W_E and W_U
    from helpers.induction import ov_matrices
    E, U = model.embed.weight.detach().double().numpy(), model.unembed.weight.detach().double()
    np.testing.assert_allclose(circuits.full_ov_circuit(model, 1, 0),
                               E @ ov_matrices(model, 1)[0].T @ U.numpy().T, rtol=1e-4,
                               atol=1e-4)


def test_copying_score_of_hand_made_matrices():
    assert circuits.copying_score(np.eye(5)) == pytest.approx(1.0)
    assert circuits.copying_score(-2 * np.eye(5)) == pytest.approx(-1.0)
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]])         # eigenvalues ±i: no copying
    assert circuits.copying_score(rotation) == pytest.approx(0.0, abs=1e-12)
    # diag(3, -1): (3 - 1) / (3 + 1), whatever basis it is written in
    basis = np.array([[1.0, 2.0], [0.5, 3.0]])
    similar = basis @ np.diag([3.0, -1.0]) @ np.linalg.inv(basis)
    assert circuits.copying_score(similar) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="zero matrix"):
        circuits.copying_score(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="square"):
        circuits.copying_score(np.ones((2, 3)))


def test_copying_score_of_a_circuit_from_its_small_factor():
    """W_E W_OV W_U (V × V, rank <= d_head) has the nonzero eigenvalues of W_OV W_U W_E (D × D),
    and its eigenvalues sum to its trace."""
    model = AttentionOnly(20, **SMALL, seed=5)
    circuit = circuits.full_ov_circuit(model, 0, 1)
    E = model.embed.weight.detach().double().numpy()
    rest = np.linalg.solve(E.T @ E, E.T @ circuit)           # W_OV W_U, from W_E⁺ (V > D)
    small = np.linalg.eigvals(rest @ E)                      # (D,)
    assert circuits.copying_score(circuit) == pytest.approx(
        small.sum().real / np.abs(small).sum(), rel=1e-6)
    eig = np.linalg.eigvals(circuit)
    assert eig.sum().real == pytest.approx(np.trace(circuit), rel=1e-8)
    assert np.sum(np.abs(eig) > 1e-8 * np.abs(eig).max()) <= SMALL["d_model"] // 2


def test_diagonal_top_score_by_a_loop():
    rng = np.random.default_rng(0)
    m = rng.standard_normal((30, 30)) + 1.2 * np.eye(30)
    by_loop = np.mean([all(m[a, a] > m[a, b] for b in range(30) if b != a) for a in range(30)])
    assert circuits.diagonal_top_score(m) == pytest.approx(by_loop)
    assert circuits.diagonal_top_score(np.eye(4)) == 1.0
    assert circuits.diagonal_top_score(np.ones((4, 4))) == 0.0  # ties count against
    assert circuits.diagonal_top_score(-np.eye(4)) == 0.0


def test_the_shipped_models_copying_heads(shipped):
    """Both layer-1 heads copy (the induction head and the one with half its score): their
    circuits' eigenvalues are almost all positive and every token's own logit is its row's
    largest. Layer 0's heads do not copy. Which layer-1 head scores highest depends on the
    third digit (and on whether BOS is counted), so the test does not ask for it."""
    ordinary = np.arange(shipped.vocab_size - 1)             # without BOS
    s = circuits.ov_copying_scores(shipped, tokens=ordinary)
    assert (s["eigenvalue"][1] > 0.99).all() and (s["diagonal"][1] == 1.0).all()
    assert (s["eigenvalue"][0] < 0.25).all() and (s["diagonal"][0] < 0.1).all()
    everything = circuits.ov_copying_scores(shipped)          # BOS too, as a row and a column
    # BOS is never copied, and its logit tops a few rows (layer 1's head 0: 3 of 64)
    assert (everything["eigenvalue"][1] > 0.95).all() and (everything["diagonal"][1] > 0.95).all()
    with pytest.raises(ValueError, match="tokens must be ids"):
        circuits.ov_copying_scores(shipped, tokens=[64])
    with pytest.raises(ValueError, match="head must be in 0..1"):
        circuits.full_ov_circuit(shipped, 0, 2)


# ---------------------------------------------------------------- direct logit attribution


def _correct_logits(model, ids):
    with torch.no_grad():
        logits = model(ids)[:, :-1]                          # (B, T-1, V)
    return logits.gather(-1, ids[:, 1:, None])[..., 0]       # (B, T-1)


def test_parts_add_up_to_the_models_logit():
    model = AttentionOnly(20, **SMALL, seed=2)
    ids = _ids()
    dla = circuits.direct_logit_attribution(model, ids)
    assert dla["heads"].shape == (2, 2, 3, 9) and dla["embed"].shape == (3, 9)
    total = dla["embed"] + dla["pos"] + dla["heads"].sum((0, 1))
    torch.testing.assert_close(total, _correct_logits(model, ids), rtol=1e-5, atol=1e-4)


def test_a_last_layer_heads_attribution_is_what_zeroing_it_removes():
    """Layer 1's output reaches the logits only directly, so zeroing a head of it lowers the
    correct logit by exactly its attribution. A layer-0 head also acts through layer 1: there
    the two differ."""
    model = AttentionOnly(20, **SMALL, seed=2)
    ids = _ids()
    dla = circuits.direct_logit_attribution(model, ids)
    clean = _correct_logits(model, ids)
    for head in range(2):
        with torch.no_grad():
            logits = model(ids, ablation_mask(model, (1, head)))[:, :-1]
        without = logits.gather(-1, ids[:, 1:, None])[..., 0]
        torch.testing.assert_close(clean - without, dla["heads"][1, head], rtol=1e-4, atol=1e-4)
    with torch.no_grad():
        logits = model(ids, ablation_mask(model, (0, 0)))[:, :-1]
    zeroed_0 = clean - logits.gather(-1, ids[:, 1:, None])[..., 0]
    assert not torch.allclose(zeroed_0, dla["heads"][0, 0], atol=1e-3)


def test_shipped_induction_head_writes_the_correct_logit_on_the_second_copy(shipped):
    rows = repeated_span_batch(32, 16, 64, torch.Generator().manual_seed(1), prefix=1, bos=63)
    dla = circuits.direct_logit_attribution(shipped, rows)
    torch.testing.assert_close(dla["embed"] + dla["pos"] + dla["heads"].sum((0, 1)),
                               _correct_logits(shipped, rows), rtol=1e-4, atol=1e-3)
    second = dla["heads"][..., 17:].mean((-2, -1))          # targets 18..32, (2, 2)
    assert np.unravel_index(int(second.argmax()), (2, 2)) == (1, 1)
    with pytest.raises(ValueError, match="T >= 2"):
        circuits.direct_logit_attribution(shipped, rows[:, :1])
