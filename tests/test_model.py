"""helpers.model: tokenizer, corpus, TinyGPT, training, the reversed-mask bug, KV cache."""

import numpy as np
import pytest
import torch

from helpers.blocks import count_parameters
from helpers.model import CharTokenizer, TinyGPT, generate, load_corpus, train

SMALL = dict(d_model=32, n_heads=2, n_layers=2, d_ff=64, max_len=32)


@pytest.fixture(scope="module")
def corpus():
    text = load_corpus()
    return text, CharTokenizer(text)


def test_corpus_is_shipped_ascii_text(corpus):
    text, tok = corpus
    assert 20_000 < len(text) < 60_000
    assert text.isascii()
    assert "Alice was beginning to get very tired" in text
    assert 40 < tok.vocab_size < 100


def test_tokenizer_round_trip_and_errors():
    tok = CharTokenizer("hello world")
    assert tok.chars == sorted(set("hello world"))
    assert tok.decode(tok.encode("low herd")) == "low herd"
    with pytest.raises(ValueError, match=r"character 'z' at position 2 is not in the vocabulary"):
        tok.encode("hoz")
    with pytest.raises(ValueError, match=r"id 99 is outside the vocabulary 0..7"):
        tok.decode([0, 99])
    with pytest.raises(ValueError, match="non-empty text"):
        CharTokenizer("")


def test_forward_shapes_and_seeded_init():
    model = TinyGPT(20, **SMALL)
    idx = torch.randint(20, (3, 7))
    logits, cache = model(idx)
    assert logits.shape == (3, 7, 20)
    assert len(cache) == 2 and len(cache[0]) == 7
    same = TinyGPT(20, **SMALL)
    pairs = zip(model.parameters(), same.parameters(), strict=True)
    assert all(torch.equal(a, b) for a, b in pairs)
    other = TinyGPT(20, **SMALL, seed=1)
    assert not torch.equal(model.tok.weight, other.tok.weight)


def test_parameter_count():
    V, d, L, d_ff, T = 20, 32, 2, 64, 32
    model = TinyGPT(V, **SMALL)
    block = 4 * d * d + 2 * d * d_ff + d_ff + 9 * d
    assert count_parameters(model) == V * d + T * d + L * block + 2 * d + d * V


@pytest.mark.parametrize("mask, leaks", [("causal", False), ("reversed", True), ("none", True)])
def test_future_token_leaks_only_without_causal_mask(mask, leaks):
    model = TinyGPT(20, **SMALL, mask=mask)
    idx = torch.randint(20, (1, 8), generator=torch.Generator().manual_seed(0))
    changed = idx.clone()
    changed[0, 5] = (idx[0, 5] + 1) % 20
    before, _ = model(idx)
    after, _ = model(changed)
    moved = not torch.allclose(before[0, :5], after[0, :5])
    assert moved is leaks


def test_reversed_mask_loss_falls_below_causal(corpus):
    text, tok = corpus
    ids = tok.encode(text)
    losses = {}
    for mask in ("causal", "reversed"):
        model = TinyGPT(tok.vocab_size, **SMALL, mask=mask)
        losses[mask] = train(model, ids, steps=200, batch_size=16, block_size=32, lr=1e-2)
    assert losses["causal"][0] == pytest.approx(losses["reversed"][0], abs=0.05)  # same start
    causal_end = sum(losses["causal"][-20:]) / 20
    reversed_end = sum(losses["reversed"][-20:]) / 20
    assert reversed_end < causal_end - 1.0  # it reads the answer: measured 0.6 against 2.5


def test_training_is_deterministic_and_loss_falls(corpus):
    text, tok = corpus
    ids = tok.encode(text)
    runs = [
        train(TinyGPT(tok.vocab_size, **SMALL), ids, steps=30, batch_size=8, block_size=16)
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert sum(runs[0][-5:]) / 5 < runs[0][0] - 0.3


def test_train_restores_threads_and_checks_sizes(corpus):
    text, tok = corpus
    before = torch.get_num_threads()
    model = TinyGPT(tok.vocab_size, **SMALL)
    train(model, tok.encode(text), steps=1, batch_size=2, block_size=8, threads=1)
    assert torch.get_num_threads() == before
    with pytest.raises(ValueError, match="block_size 64 exceeds the model's max_len 32"):
        train(model, tok.encode(text), steps=1, block_size=64)
    with pytest.raises(ValueError, match="need more than block_size=8 ids; got 5"):
        train(model, list(range(5)), steps=1, block_size=8)


def test_cached_decoding_gives_the_same_logits():
    torch.manual_seed(0)
    model = TinyGPT(20, **SMALL)
    idx = torch.randint(20, (2, 12))
    full, _ = model(idx)  # (2, 12, 20), recomputed from scratch
    logits, cache = model(idx[:, :5])  # prefill 5 positions
    steps = [logits]
    for t in range(5, 12):  # decode one position at a time
        logits, cache = model(idx[:, t : t + 1], cache)
        steps.append(logits)
    assert len(cache[0]) == 12
    torch.testing.assert_close(torch.cat(steps, dim=1), full, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_generate_with_and_without_cache_agree(temperature):
    model = TinyGPT(20, **SMALL)  # max_len 32: 40 new ids run past the position table
    prompt = [1, 2, 3]
    plain = generate(model, prompt, 40, temperature=temperature, seed=3)
    cached = generate(model, prompt, 40, temperature=temperature, seed=3, use_cache=True)
    assert plain == cached
    assert len(plain) == 43 and plain[:3] == prompt


def test_generate_is_seeded():
    model = TinyGPT(20, **SMALL)
    assert generate(model, [0], 10, seed=1) == generate(model, [0], 10, seed=1)
    assert generate(model, [0], 30, seed=1) != generate(model, [0], 30, seed=2)


def test_errors():
    with pytest.raises(ValueError, match=r"mask must be one of .*got 'upper'"):
        TinyGPT(20, mask="upper")
    model = TinyGPT(20, **SMALL)
    with pytest.raises(ValueError, match=r"idx must be token ids of shape \(B, T\)"):
        model(torch.zeros(5, dtype=torch.long))
    with pytest.raises(ValueError, match="position 32 is past the learned table of 32"):
        model(torch.zeros(1, 33, dtype=torch.long))
    reversed_model = TinyGPT(20, **SMALL, mask="reversed")
    _, cache = reversed_model(torch.zeros(1, 3, dtype=torch.long))
    with pytest.raises(ValueError, match="a KV cache only with the causal mask"):
        reversed_model(torch.zeros(1, 1, dtype=torch.long), cache)
    with pytest.raises(ValueError, match="use_cache=True needs the causal mask"):
        generate(reversed_model, [0], 5, use_cache=True)
    with pytest.raises(ValueError, match="at least one prompt id"):
        generate(model, [], 5)



def test_a_cache_under_a_non_causal_mask_is_refused_with_the_true_reason():
    """With no mask a cache would go stale; with the reversed mask decoding with one would be
    exact but pointless: the newest token reads only itself. Both claims are checked."""
    ids = torch.randint(0, 20, (1, 10), generator=torch.Generator().manual_seed(0))

    no_mask = TinyGPT(20, **SMALL, mask="none").eval()
    with torch.no_grad():
        _, cache = no_mask(ids[:, :-1])                              # 9 positions cached
    with pytest.raises(ValueError, match="would go stale"):
        no_mask(ids[:, -1:], cache)
    with torch.no_grad():
        _, fresh = no_mask(ids)                                      # recomputed with 10
    torch.testing.assert_close(fresh[0].k[:, :, :9], cache[0].k)     # layer 1: from embeddings
    assert (fresh[1].k[:, :, :9] - cache[1].k).abs().max() > 1e-3    # layer 2: stale

    reversed_model = TinyGPT(20, **SMALL, mask="reversed").eval()
    with torch.no_grad():
        _, cache = reversed_model(ids[:, :-1])
    with pytest.raises(ValueError, match="exact but pointless.*would never be read"):
        reversed_model(ids[:, -1:], cache)
    # what a cached decoding step would compute: the newest token's k and v appended to the
    # cache, its query masked as the last row of the reversed mask (it reads only itself)
    itself = torch.zeros(1, 10, dtype=torch.bool)
    itself[0, -1] = True
    with torch.no_grad():
        x = reversed_model.tok(ids[:, -1:]) + reversed_model.pos(torch.arange(9, 10))
        for block, layer_cache in zip(reversed_model.blocks, cache, strict=True):
            x = block(x, mask=itself, cache=layer_cache)
        decoded = reversed_model.head(reversed_model.ln_f(x))[0, -1]
        recomputed = reversed_model(ids)[0][0, -1]
        other_past = torch.cat([(ids[:, :-1] + 1) % 20, ids[:, -1:]], dim=1)
        past_changed = reversed_model(other_past)[0][0, -1]
    assert len(cache[0]) == 10                                       # the step used the cache
    torch.testing.assert_close(decoded, recomputed)                  # exact ...
    torch.testing.assert_close(past_changed, recomputed)             # ... and the past unread


def test_attention_weights_are_each_layers_own():
    from helpers.model import attention_weights

    model = TinyGPT(20, d_model=16, n_heads=2, n_layers=2, d_ff=32, max_len=12).eval()
    ids = torch.randint(0, 20, (3, 12), generator=torch.Generator().manual_seed(0))
    w = attention_weights(model, ids)
    assert w.shape == (2, 3, 2, 12, 12)
    torch.testing.assert_close(w.sum(-1), torch.ones(2, 3, 2, 12))
    assert (w.triu(1) == 0).all()                                   # causal: no future key
    with torch.no_grad():                                           # layer 0 by hand
        x = model.tok(ids) + model.pos(torch.arange(12))
        _, first = model.blocks[0].attn(model.blocks[0].ln1(x),
                                        mask=torch.ones(12, 12, dtype=torch.bool).tril())
    torch.testing.assert_close(w[0], first)
    window = torch.as_tensor(np.triu(np.ones((12, 12), dtype=bool), -3))   # last 4 keys
    assert (attention_weights(model, ids, attn_mask=window)[..., 11, :8] == 0).all()
