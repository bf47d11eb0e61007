"""helpers.widgets: the explorers' pure functions, and each widget driven headlessly."""

import math

import matplotlib.pyplot as plt
import nbformat
import numpy as np
import pytest
import torch
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from helpers import widgets as W
from helpers.attention import attention, softmax
from helpers.masks import causal_mask
from helpers.model import CharTokenizer, TinyGPT
from helpers.positions import apply_rope, sinusoidal_encoding
from helpers.scaling import sample_qk

from notebook_files import ROOT


@pytest.fixture(scope="module")
def scaling():
    return W.scaling_explorer()


@pytest.fixture(scope="module")
def masks():
    return W.mask_explorer()


@pytest.fixture(scope="module")
def heads():
    return W.heads_explorer()


@pytest.fixture(scope="module")
def positions():
    return W.position_explorer()


def drive(explorer, **values):
    """Set controls like a learner would; return (view, text, png) after the last change."""
    for name, value in values.items():
        explorer.controls[name].value = value
    return explorer.view, explorer.text, explorer.image.value


# --- 1. scaling ------------------------------------------------------------------------------


def test_scaling_view_is_the_softmax_of_one_random_query_against_16_keys():
    for d_k, scaled in ((64, False), (64, True), (1024, True)):
        view = W.scaling_view(d_k, scaled, row=3)
        q, k = sample_qk(d_k, n_rows=1, n_keys=16, seed=3)  # row 3: seed 3
        s = k[0] @ q[0] / (np.sqrt(d_k) if scaled else 1.0)  # (16,) by hand
        w = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
        np.testing.assert_allclose(view["scores"], s)
        np.testing.assert_allclose(view["weights"], w)
        assert view["entropy"] == pytest.approx(-(w * np.log(w)).sum())
        assert view["max_weight"] == pytest.approx(w.max()) and view["argmax"] == w.argmax()
    # row 0 at d_k = 64 is lesson 03's section-4 row (largest unscaled weight 0.83)
    assert round(W.scaling_view(64, False)["max_weight"], 2) == 0.83


def test_scaling_view_saturates_only_without_the_scale():
    raw = [W.scaling_view(d, False)["max_weight"] for d in (1, 64, 1024)]
    scaled = [W.scaling_view(d, True)["max_weight"] for d in (1, 64, 1024)]
    assert raw[0] == scaled[0]  # √1 = 1: the same row
    assert raw[0] < raw[1] < raw[2] and raw[2] > 0.99
    assert max(scaled) < 0.3
    assert W.scaling_view(1024, False)["entropy"] < 0.01 < 2 < W.scaling_view(1024, True)["entropy"]


def test_scaling_explorer_responds_to_the_slider_and_the_toggle(scaling):
    start = drive(scaling, d_k=64, scaled=True, row=0)
    assert start[1].startswith("d_k = 64, ÷ √64 = 8: largest weight 0.177")
    moved = drive(scaling, d_k=1024)
    assert moved[0]["d_k"] == 1024 and moved[1] != start[1] and moved[2] != start[2]
    unscaled = drive(scaling, scaled=False)
    assert unscaled[0]["max_weight"] > 0.99 > moved[0]["max_weight"]
    assert "unscaled: largest weight 1.000" in unscaled[1]
    assert "entropy 0.000 nats" in scaling.readout.value
    assert scaling.controls["d_k"].options == W.D_K_STEPS
    drive(scaling, d_k=64, scaled=True)
    assert scaling.text == start[1] and scaling.image.value == start[2]  # back where it was


def test_scaling_explorer_rejects_a_width_off_the_slider():
    with pytest.raises(ValueError, match="d_k must be one of"):
        W.scaling_explorer(d_k=100)


# --- 2. masks --------------------------------------------------------------------------------


def lesson04_setup():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 8))
    W_q, W_k, W_v = (rng.normal(size=(8, 4)) / np.sqrt(8) for _ in range(3))
    return x @ W_q, x @ W_k, x @ W_v


def test_example_scores_are_lesson_04s():
    q, k, _ = lesson04_setup()
    np.testing.assert_allclose(W.example_scores(5), q @ k.T / 2)


@pytest.mark.parametrize("kind", W.MASK_KINDS)
def test_mask_view_matches_the_reference_attention(kind):
    q, k, v = lesson04_setup()
    length = 3 if kind == "padding" else 5
    view = W.mask_view(kind, length)
    _, expected = attention(q, k, v, view["mask"])
    np.testing.assert_allclose(view["weights"], expected)
    np.testing.assert_allclose(view["row_sums"], 1)


def test_mask_view_finds_the_weights_that_read_the_future():
    later = np.triu(np.ones((5, 5), dtype=bool), k=1)
    causal = W.mask_view("causal")
    assert causal["n_future"] == 0 and causal["future_weight"] == 0
    assert (causal["mask"] == causal_mask(5)).all()
    for kind in ("none", "reversed causal"):
        view = W.mask_view(kind)
        assert view["n_future"] == 10 and (view["future"] == later).all()
    reversed_ = W.mask_view("reversed causal")
    np.testing.assert_allclose(reversed_["weights"][0], softmax(W.example_scores(5)[0]))
    assert round(reversed_["weights"][0, 3], 3) == 0.366  # lesson 04: 我 reads 放到


def test_mask_view_padding_and_length():
    view = W.mask_view("padding", 3)
    assert view["labels"] == ["我", "把", "书", "<pad>", "<pad>"]
    assert np.all(view["weights"][:, 3:] == 0)  # no query reads a pad
    assert view["n_future"] == 3  # padding alone is not causal: 我 reads 把 and 书, 把 reads 书
    short = W.mask_view("causal", 3)
    assert short["labels"] == ["我", "把", "书"] and short["weights"].shape == (3, 3)
    with pytest.raises(ValueError, match="length must lie in 1..5"):
        W.mask_view("causal", 6)
    with pytest.raises(ValueError, match="mask must be one of"):
        W.mask_view("diagonal")
    with pytest.raises(ValueError, match=r"scores must be \(T, T\)"):
        W.mask_view("causal", tokens=["a", "b"], scores=np.zeros((3, 3)))


def test_draw_mask_outlines_exactly_the_future_weights_in_red():
    for kind, n in (("causal", 0), ("reversed causal", 10), ("padding", 10)):
        fig = Figure()
        W.draw_mask(W.mask_view(kind), fig)
        outlines = [p for p in fig.axes[1].patches
                    if isinstance(p, Rectangle) and p.get_edgecolor()[:3] == (1.0, 0.0, 0.0)]
        assert len(outlines) == n
        assert {(int(p.get_y()), int(p.get_x())) for p in outlines} == {
            tuple(ij) for ij in np.argwhere(W.mask_view(kind)["future"]).tolist()
        }


def test_mask_explorer_responds_to_the_choice_and_the_length(masks):
    start = drive(masks, kind="causal", length=5)
    assert start[1] == "causal, 5 real tokens: no weight reads the future; every row sums to 1"
    rev = drive(masks, kind="reversed causal")
    assert rev[0]["n_future"] == 10 and rev[2] != start[2]
    assert rev[1].startswith("reversed causal, 5 real tokens: 10 weights read the future")
    pad = drive(masks, kind="padding", length=2)
    assert pad[0]["labels"][2:] == ["<pad>"] * 3 and "2 real tokens + 3 pads" in pad[1]
    drive(masks, kind="causal", length=5)


def test_mask_explorer_shows_the_lessons_own_scores():
    tokens = ["a", "b", "c"]
    scores = np.arange(9.0).reshape(3, 3)
    explorer = W.mask_explorer(tokens, scores, kind="none")
    np.testing.assert_allclose(explorer.view["weights"], softmax(scores))
    assert explorer.controls["length"].max == 3


# --- 3. heads --------------------------------------------------------------------------------


def by_hand(layer, x, n_heads=4):
    """(out (T, D), weights (H, T, T)) of one MultiHeadAttention layer, written out in NumPy."""
    p = {name: t.detach().numpy() for name, t in layer.named_parameters()}
    T, D = x.shape
    heads = [(x @ p[f"{n}_proj.weight"].T + p[f"{n}_proj.bias"]).reshape(T, n_heads, -1)
             .transpose(1, 0, 2) for n in "qkv"]  # 3 x (H, T, d_head)
    q, k, v = heads
    weights = softmax(q @ k.transpose(0, 2, 1) / np.sqrt(D // n_heads))  # (H, T, T)
    merged = (weights @ v).transpose(1, 0, 2).reshape(T, D)  # (T, D)
    return merged @ p["out_proj.weight"].T + p["out_proj.bias"], weights


def test_head_weights_of_the_example_stack_are_its_layers_weights():
    text = "abcab"
    w = W.head_weights(text)  # (L, H, T, T)
    assert w.shape == (2, 4, 5, 5)
    x = W.char_inputs(text)[0].numpy()  # (T, D)
    layer0, layer1 = W.example_stack()
    out0, expected0 = by_hand(layer0, x)
    np.testing.assert_allclose(w[0], expected0)
    _, expected1 = by_hand(layer1, x + out0)  # layer 1 reads layer 0's residual stream
    np.testing.assert_allclose(w[1], expected1)
    assert not np.allclose(w[0, 0], w[0, 1])  # heads differ
    causal = W.head_weights(text, causal=True)
    assert np.all(causal[..., ~causal_mask(5)] == 0)


def test_head_weights_errors():
    with pytest.raises(ValueError, match="at least one character"):
        W.head_weights("")
    with pytest.raises(ValueError, match="at most 40 characters"):
        W.head_weights("x" * 41)
    with pytest.raises(ValueError, match="tokenizer"):
        W.head_weights("abc", model=torch.nn.Linear(2, 2))
    with pytest.raises(ValueError, match="layer must lie in 0..1 and head in 0..3"):
        W.heads_view("abc", 2, 0, W.head_weights("abc"))


def test_heads_explorer_responds_to_head_layer_and_text(heads):
    start = drive(heads, text="the cat sat on the mat", layer=0, head=0)
    assert start[0]["weights"].shape == (22, 22) and start[0]["labels"][3] == "␣"
    other_head = drive(heads, head=2)
    assert not np.allclose(other_head[0]["weights"], start[0]["weights"])
    assert other_head[1] != start[1] and other_head[2] != start[2]
    other_layer = drive(heads, layer=1)
    assert not np.allclose(other_layer[0]["weights"], other_head[0]["weights"])
    typed = drive(heads, text="我爱你")
    assert typed[0]["labels"] == ["我", "爱", "你"] and typed[0]["weights"].shape == (3, 3)
    np.testing.assert_allclose(typed[0]["weights"], W.head_weights("我爱你")[1, 2])
    drive(heads, text="")  # a bad value: the readout says why, the picture stays
    assert heads.error == "type at least one character" and "at least one" in heads.readout.value
    assert heads.view["labels"] == ["我", "爱", "你"] and heads.image.value == typed[2]
    drive(heads, text="the cat sat on the mat", layer=0, head=0)
    assert heads.error is None and heads.text == start[1]


def test_heads_explorer_over_a_tiny_language_model():
    tokenizer = CharTokenizer("abc ")
    model = TinyGPT(tokenizer.vocab_size, d_model=16, n_heads=2, n_layers=3, max_len=32)
    explorer = W.heads_explorer(model, tokenizer, "abc cab")
    assert explorer.controls["layer"].options == (("layer 0", 0), ("layer 1", 1), ("layer 2", 2))
    assert [v for _, v in explorer.controls["head"].options] == [0, 1]
    w = explorer.view["weights"]
    assert w.shape == (7, 7) and np.all(w[~causal_mask(7)] == 0)  # TinyGPT is causal
    assert model.training  # looked at in eval mode, then given back in the mode it came in
    drive(explorer, text="abcd")
    assert "'d' at position 3 is not in the vocabulary" in explorer.error


def test_heads_readout_without_scores_is_the_one_lessons_05_and_08_print():
    view = W.heads_view("the cat sat on the mat", 0, 3)
    assert W.describe_heads(view) == (  # lesson 05's stored output, character for character
        "layer 0, head 3, 22 characters: mean entropy 2.563 nats; the last character 't' reads "
        "most from '␣' at position 18 (0.127)")
    assert W.describe_heads(view, scores=True).startswith(W.describe_heads(view) + "; ")


def test_heads_view_scores_the_head_on_its_text():
    from helpers.induction import ending_induction_score, previous_token_score

    text = "abcd abcd"
    w = W.head_weights(text, causal=True)
    view = W.heads_view(text, 1, 2, w)
    assert view["previous_token"] == pytest.approx(float(previous_token_score(w[1, 2])))
    assert view["repeat"] == (5, 5)                     # the second "abcd", 5 after the first
    assert view["induction"] == pytest.approx(float(ending_induction_score(w[1, 2], 5, 5)))
    assert "induction score" in W.describe_heads(view, scores=True)
    plain = W.heads_view("abcdefg", 0, 0)
    assert plain["repeat"] is None and plain["induction"] is None
    assert W.describe_heads(plain, scores=True).endswith("no repeated ending to score induction on")
    with pytest.raises(ValueError, match="3 token labels for 7 positions"):
        W.heads_view("abcdefg", 0, 0, W.head_weights("abcdefg"), tokens=["a", "b", "c"])


def test_heads_explorer_over_the_induction_model_finds_its_heads():
    from helpers.induction import AttentionOnly, SpanTokenizer, attention_patterns

    model = AttentionOnly(20, d_model=16, n_heads=2, n_layers=2, max_len=12)
    tok = SpanTokenizer(model)
    explorer = W.heads_explorer(model, tok, "abcab", scores=True)
    assert model.training  # looked at in eval mode, then given back in the mode it came in
    view = drive(explorer, layer=1, head=1)[0]
    expected = attention_patterns(model, torch.tensor([tok.encode("abcab")]))[1, 0, 1]
    np.testing.assert_allclose(view["weights"], expected.double().numpy())
    assert view["labels"] == ["BOS", "a", "b", "c", "a", "b"] and view["unit"] == "token"
    assert view["repeat"] == (4, 3)
    assert explorer.text.startswith("layer 1, head 1, 6 tokens: ")
    assert "the last token 'b'" in explorer.text and "induction score" in explorer.text
    drive(explorer, text="ab,")
    assert "',' at position 2 is not one of the model's 19 characters" in explorer.error
    drive(explorer, text="a" * 12)
    assert "BOS and at most 11 characters; got 12" in explorer.error


def test_heads_explorer_shows_the_shipped_induction_head():
    """Lesson 11's explorer: on a text in the training layout, the scores in the readout pick
    out layer 0's head 1 (previous token) and layer 1's head 1 (induction)."""
    from helpers import pretrained
    from helpers.induction import SpanTokenizer

    model = pretrained.load("induction")
    tok = SpanTokenizer(model)
    text = "123456 KINGofHEARTS KINGofHEARTS"
    w = W.head_weights(text, model, tok)
    views = {(i, h): W.heads_view(text, i, h, w, tok.tokens(text)) for i in range(2)
             for h in range(2)}
    assert max(views, key=lambda k: views[k]["previous_token"]) == (0, 1)
    assert max(views, key=lambda k: views[k]["induction"]) == (1, 1)
    assert views[1, 1]["induction"] > 0.7 and views[0, 1]["previous_token"] > 0.8
    assert views[1, 1]["last_reads"] == 20  # the last 'S' reads the token after the first 'S'


# --- 4. positions ----------------------------------------------------------------------------


def test_rope_scores_are_the_rotated_dot_products():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(16), rng.standard_normal(16)
    S = W.position_scores("RoPE", offset=5, T=4)
    rot = lambda x, p: apply_rope(x[None], positions=[p])[0]  # noqa: E731
    assert S[1, 3] == pytest.approx(rot(q, 6) @ rot(k, 8))
    pe = sinusoidal_encoding(9, 16)
    assert W.position_scores("sinusoidal PE·PE", 5, 4)[1, 3] == pytest.approx(pe[6] @ pe[8])
    added = W.position_scores("sinusoidal added", 5, 4)[1, 3]
    assert added == pytest.approx((q + pe[6]) @ (k + pe[8]))
    with pytest.raises(ValueError, match="kind must be one of"):
        W.position_scores("ALiBi")


def test_only_the_added_encoding_depends_on_absolute_positions():
    assert W.diagonal_spread(np.add.outer(np.arange(4), -np.arange(4))) == 0
    for kind in ("RoPE", "sinusoidal PE·PE"):
        for offset in (0, 37, 500):
            view = W.position_view(kind, offset)
            assert view["diagonal_spread"] < 1e-12 and view["change_from_offset_0"] < 1e-12
            assert "depends only on m − n" in W.describe_position(view)
    added = W.position_view("sinusoidal added", 37)
    assert added["diagonal_spread"] > 1 and added["change_from_offset_0"] > 1
    assert "depends on m and n themselves" in W.describe_position(added)


def test_position_explorer_responds_to_kind_and_offset(positions):
    rope0 = drive(positions, kind="RoPE", offset=0)
    rope = drive(positions, offset=250)
    np.testing.assert_allclose(rope[0]["scores"], rope0[0]["scores"], atol=1e-12)  # same matrix
    assert rope[1] != rope0[1] and "positions 250..261" in rope[1]
    added0 = drive(positions, kind="sinusoidal added", offset=0)
    added = drive(positions, offset=250)
    assert np.abs(added[0]["scores"] - added0[0]["scores"]).max() > 1
    assert added[2] != added0[2] and added[2] != rope[2]
    drive(positions, kind="RoPE", offset=0)


# --- all -------------------------------------------------------------------------------------


def test_explorers_leave_no_pyplot_figure_and_have_a_short_text_repr(
    scaling, masks, heads, positions
):
    assert plt.get_fignums() == []
    for explorer in (scaling, masks, heads, positions):
        assert repr(explorer) == f"{explorer.name}: run this cell in Jupyter to move its controls"
        assert len(repr(explorer)) <= 110  # ipywidgets cuts a longer text/plain with "…"
        assert explorer.image.value[:8] == b"\x89PNG\r\n\x1a\n"
        assert "attention-explorer" in explorer._dom_classes
        assert "explorer-readout" in explorer.readout._dom_classes
    assert math.isclose(W.scaling_view()["uniform_entropy"], math.log(16))


@pytest.mark.parametrize(
    "lesson", ["03_scaling", "04_masks", "05_multi_head", "06_position", "08_architectures"]
)
def test_lessons_show_their_explorer_and_store_no_dead_widget_view(lesson):
    """A cell showing an explorer is ignored by strict nbval (its nbval-ignore-output tag, not a
    comment a learner would read first), and a later cell drives a second
    explorer from code and asserts what it shows. A stored widget view without stored widget
    state can only say "Error displaying widget: model not found" when the notebook is opened;
    the explorer's text/plain says what to do instead."""
    nb = nbformat.read(ROOT / "notebooks" / f"{lesson}.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    shown = [i for i, c in enumerate(code) for o in c.outputs if "run this cell in Jupyter to "
             "move its controls" in o.get("data", {}).get("text/plain", "")]
    assert shown, "the lesson shows no explorer"
    for i in shown:
        assert "nbval-ignore-output" in code[i].metadata.get("tags", []), code[i].id
        assert any("_explorer(" in c.source and "assert " in c.source for c in code[i + 1:])
    data = [o.get("data", {}) for c in code for o in c.outputs]
    assert not [d for d in data if "application/vnd.jupyter.widget-view+json" in d]


# ---------------------------------------------------------------- 5. KV cache (lesson 10)


def test_kv_cache_view_counts_what_the_cache_and_a_decode_step_read():
    view = W.kv_cache_view("Llama-3-8B", "as published", context=8192, batch=4)
    assert view["per_token"] == 2 * 32 * 8 * 128 * 2                       # 128 KiB in bf16
    assert view["cache_at_context"] == 4 * 8192 * 131072
    weights = 8_030_261_248 * 2
    assert view["weights_bytes"] == view["read_bytes"] == weights
    assert math.isclose(view["step_at_context"], (weights + 4 * 8192 * 131072) / 3.35e12)
    assert math.isclose(view["tokens_per_second"], 4 / view["step_at_context"])
    i = list(view["contexts"]).index(8192)
    assert view["cache_bytes"][i] == view["cache_at_context"]
    text = W.describe_kv_cache(view)
    assert text.startswith("Llama-3-8B (8 of 32 kv heads), bf16: 128.0 KiB")
    assert "decode step at least 6.08 ms" in text and "at most 658 tokens/s (165 per sequence)" \
        in text
    assert view["fits"] and not view["past_positions"]


def test_kv_cache_view_attention_kinds_change_only_the_cache():
    per = {kind: W.kv_cache_view("Llama-2-7B", kind, context=4096)["per_token"]
           for kind in W.ATTENTION_KINDS}
    assert per == {"as published": 524288, "MHA": 524288, "GQA, H/4 kv heads": 131072,
                   "MQA": 16384, "MLA": (512 + 64) * 32 * 2}
    weights = {W.kv_cache_view("Llama-2-7B", kind)["weights_bytes"] for kind in W.ATTENTION_KINDS}
    assert len(weights) == 1                                  # the explorer keeps the weights
    ds = W.kv_cache_view("DeepSeek-V2", "as published")
    assert ds["per_token"] == 576 * 60 * 2 and ds["config"].is_mla
    assert not W.kv_cache_view("DeepSeek-V2", "MHA")["config"].is_mla


def test_kv_cache_view_window_and_number_format():
    capped = W.kv_cache_view("Mistral-7B-v0.1", context=32768)
    assert capped["cache_at_context"] == 4096 * 131072         # the published window of 4096
    assert W.kv_cache_view("Mistral-7B-v0.1", context=32768, window="none")["cache_at_context"] \
        == 32768 * 131072
    assert W.kv_cache_view("GPT-2 small", number_format="float32", context=1024)["per_token"] \
        == 72 * 1024
    with pytest.raises(ValueError, match="number format must be one of"):
        W.kv_cache_view(number_format="int4")
    with pytest.raises(ValueError, match="model must be one of"):
        W.kv_cache_view("GPT-5")


def test_kv_cache_view_says_when_a_setup_does_not_fit_or_runs_past_the_positions():
    # GPT-2 has 1024 positions, Llama-3-8B 8192 (Llama 3.1: 131072)
    gpt2 = W.kv_cache_view("GPT-2 small", context=131072)
    assert gpt2["past_positions"] and "(past its 1,024 positions)" in W.describe_kv_cache(gpt2)
    assert W.kv_cache_view("Llama-3-8B", context=131072)["past_positions"]
    assert not W.kv_cache_view("Llama-3.1-8B", context=131072)["past_positions"]
    # DeepSeek-V2's 472 GB of bf16 weights fit in no single GPU
    ds = W.kv_cache_view("DeepSeek-V2", context=8192)
    assert ds["fits"] is False
    assert W.describe_kv_cache(ds).endswith("does NOT fit in the 80 GB of one H100 SXM "
                                            "(80 GB, 3.35 TB/s)")
    assert "decode step" not in W.describe_kv_cache(ds)
    # Llama-3.1-8B with multi-head attention at 131072 tokens: 64 GiB of cache + 15 GiB of
    # weights = 84.8 GB > 80 GB; as published (GQA) 31 GiB fit, and fit a B200 either way
    mha = W.kv_cache_view("Llama-3.1-8B", "MHA", context=131072)
    assert mha["fits"] is False and round((mha["weights_bytes"] + mha["cache_at_context"]) / 1e9,
                                          1) == 84.8
    assert W.kv_cache_view("Llama-3.1-8B", context=131072)["fits"]
    assert W.kv_cache_view("Llama-3.1-8B", "MHA", context=131072,
                           hardware="B200 (180 GB, 7.7 TB/s)")["fits"]
    unknown = W.kv_cache_view(hardware="here", devices={"here": {"bandwidth": 1e10}})
    assert unknown["fits"] is None and "decode step" in W.describe_kv_cache(unknown)


def test_kv_cache_explorer_responds_to_its_controls():
    probe = W.kv_cache_explorer(devices={"slow": {"bandwidth": 1e11, "memory": None},
                                         "fast": {"bandwidth": 1e12, "memory": 1e12}})
    first = probe.text
    probe.controls["batch"].value = 64
    assert probe.view["batch"] == 64 and probe.text != first
    probe.controls["hardware"].value = "fast"
    assert math.isclose(probe.view["step_at_context"] * 1e12,
                        probe.view["weights_bytes"] + probe.view["cache_at_context"])
    probe.controls["attention"].value = "MQA"
    assert probe.view["config"].n_kv_heads == 1
    assert bytes(probe.image.value).startswith(b"\x89PNG")
    assert list(W.kv_cache_explorer().controls["hardware"].options) == list(W.DEVICES)


def test_kv_cache_explorer_offers_every_preset_and_each_one_renders():
    from helpers.configs import ALL_PRESETS, PRESETS, PRESETS_2025, kv_cache_bytes

    explorer = W.kv_cache_explorer()
    assert list(explorer.controls["model"].options) == list(ALL_PRESETS)
    assert set(ALL_PRESETS) == set(PRESETS) | set(PRESETS_2025)
    assert {"Gemma-3-27B", "gpt-oss-120b", "DeepSeek-V3", "Qwen3-235B-A22B"} <= set(PRESETS_2025)
    for name in ALL_PRESETS:
        for kind in W.ATTENTION_KINDS:
            view = W.kv_cache_view(name, kind, context=131072)
            assert view["cache_at_context"] == kv_cache_bytes(view["config"], 131072, 1, 2)
            assert name in W.describe_kv_cache(view)
    # Gemma 3's local layers cap at 1024, its 10 global ones do not; "none" lifts the window
    gemma = W.kv_cache_view("Gemma-3-27B", context=131072)
    assert gemma["cache_at_context"] == (52 * 1024 + 10 * 131072) * 16 * 128 * 2 * 2
    assert W.kv_cache_view("Gemma-3-27B", context=131072, window="none")["cache_at_context"] \
        == 62 * 131072 * 16 * 128 * 2 * 2
    explorer.controls["model"].value = "gpt-oss-120b"
    assert explorer.view["config"].global_layers == 18 and "gpt-oss-120b" in explorer.text


def test_kv_cache_view_a_mixture_of_experts_reads_the_experts_its_batch_touches():
    ds = W.kv_cache_view("DeepSeek-V2", context=8192, hardware="B200 (180 GB, 7.7 TB/s)",
                         devices={**W.DEVICES, "B200 (180 GB, 7.7 TB/s)": {"bandwidth": 7.7e12,
                                                                          "memory": 1e12}})
    assert ds["weights_bytes"] == 236_000_000_000 * 2                   # all of it in memory
    assert ds["read_bytes"] == 21_000_000_000 * 2                       # one token's experts
    assert math.isclose(ds["step_at_context"], (42e9 + 576 * 60 * 2 * 8192) / 7.7e12)
    assert "the 6 of 160 experts per layer 1 token uses" in W.describe_kv_cache(ds)
    wide = W.kv_cache_view("DeepSeek-V2", context=8192, batch=64, devices={
        "big": {"bandwidth": 7.7e12, "memory": None}}, hardware="big")
    assert round(wide["read_bytes"] / 1e9) == 432 and round(wide["experts_touched"]) == 146
    assert "146 of 160 experts per layer 64 tokens use if routed uniformly" in \
        W.describe_kv_cache(wide)
