"""helpers.llama: chunked prefill, the lower-right mask, and left padding in a tiny Llama."""

import pytest
import torch

from helpers.blocks import count_parameters
from helpers.configs import PRESETS
from helpers.heads import KVCache
from helpers.llama import TinyLlama
from helpers.masks import chunk_causal_mask

VOCAB = 50


pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def model():
    return TinyLlama(VOCAB).eval()


def ids(T, seed=0, B=1):
    return torch.randint(0, VOCAB, (B, T), generator=torch.Generator().manual_seed(seed))


def test_shapes_cache_and_seed(model):
    logits, cache = model(ids(6, B=2))
    assert logits.shape == (2, 6, VOCAB)
    assert len(cache) == 2 and all(isinstance(c, KVCache) for c in cache)
    assert cache[0].k.shape == (2, 2, 6, 16)  # (B, H_kv, T, d_head): 2 kv heads, not 4
    again = TinyLlama(VOCAB)
    assert all(torch.equal(a, b) for a, b in zip(model.parameters(), again.parameters(),
                                                  strict=True))
    state = torch.random.get_rng_state()
    TinyLlama(VOCAB, seed=1)
    assert torch.equal(state, torch.random.get_rng_state())  # the global generator is untouched


def test_chunked_prefill_equals_one_full_pass(model):
    x = ids(8, seed=1, B=2)
    with torch.no_grad():
        full, _ = model(x)
        cache, parts = None, []
        for a, b in [(0, 3), (3, 7), (7, 8)]:
            out, cache = model(x[:, a:b], cache=cache)
            parts.append(out)
    torch.testing.assert_close(torch.cat(parts, 1), full, atol=1e-5, rtol=1e-5)
    assert len(cache[0]) == 8


def test_full_pass_is_causal(model):
    x = ids(7, seed=2)
    y = x.clone()
    y[0, 5] = (y[0, 5] + 1) % VOCAB
    with torch.no_grad():
        a, _ = model(x)
        b, _ = model(y)
    torch.testing.assert_close(a[:, :5], b[:, :5])
    assert not torch.allclose(a[:, 5:], b[:, 5:])


def test_a_top_left_mask_after_the_first_chunk_gives_different_logits(model):
    x = ids(7, seed=3)
    with torch.no_grad():
        _, cache = model(x[:, :3])
        right, _ = model(x[:, 3:], cache=cache)
        _, cache = model(x[:, :3])
        top_left = torch.ones(4, 7).tril().bool()  # is_causal=True's alignment: wrong here
        wrong, _ = model(x[:, 3:], mask=top_left, cache=cache)
        lower_right = torch.as_tensor(chunk_causal_mask(4, 7))
        _, cache = model(x[:, :3])
        explicit, _ = model(x[:, 3:], mask=lower_right, cache=cache)
    torch.testing.assert_close(explicit, right)
    assert not torch.allclose(wrong, right, atol=1e-3)


def test_left_padding_with_positions_and_a_mask_gives_the_unpadded_logits(model):
    PAD = 0
    long, short = ids(6, seed=4)[0], ids(3, seed=5)[0]
    batch = torch.stack([long, torch.cat([torch.full((3,), PAD), short])])  # (2, 6)
    attention_mask = torch.tensor([[1] * 6, [0, 0, 0, 1, 1, 1]])
    positions = (attention_mask.cumsum(-1) - 1).clamp(min=0)  # (B, T): 0.. at the first real one
    real_key = attention_mask.bool()[:, None, None, :]  # (B, 1, 1, T_k)
    causal = torch.as_tensor(chunk_causal_mask(6, 6))
    mask = (causal & real_key) | torch.eye(6, dtype=torch.bool)  # a pad query reads itself only
    with torch.no_grad():
        padded, _ = model(batch, positions=positions, mask=mask)
        alone_long, _ = model(long[None])
        alone_short, _ = model(short[None])
        pads_seen, _ = model(batch, positions=positions, mask=causal)
        shifted, _ = model(batch, mask=mask)  # positions 0..5: the short prompt starts at 3
    torch.testing.assert_close(padded[0], alone_long[0], atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(padded[1, 3:], alone_short[0], atol=1e-5, rtol=1e-5)
    assert not torch.allclose(pads_seen[1, 3:], alone_short[0], atol=1e-3)  # the mask matters
    # RoPE sees only offsets: shifting a whole sequence by 3 positions changes nothing
    torch.testing.assert_close(shifted[1, 3:], alone_short[0], atol=1e-5, rtol=1e-5)
    # and decoding one more token continues both sequences correctly
    nxt = torch.tensor([[7], [9]])
    with torch.no_grad():
        _, cache = model(batch, positions=positions, mask=mask)
        step_mask = torch.cat([attention_mask, torch.ones(2, 1, dtype=torch.long)], 1).bool()
        step, _ = model(nxt, positions=positions[:, -1:] + 1, mask=step_mask[:, None, None, :],
                        cache=cache)
        want_short, _ = model(torch.cat([short, nxt[1]])[None])
    torch.testing.assert_close(step[1, 0], want_short[0, -1], atol=1e-5, rtol=1e-5)


def llama_parameters(vocab, d_model, n_heads, n_kv_heads, n_layers, d_ff):
    """Llama's count: untied embedding and head, q/k/v/o without bias, SwiGLU, 2 norms a layer."""
    d_head = d_model // n_heads
    attention = d_model * d_head * (2 * n_heads + 2 * n_kv_heads)
    per_layer = attention + 3 * d_model * d_ff + 2 * d_model
    return n_layers * per_layer + 2 * vocab * d_model + d_model


def test_the_structure_is_llamas_and_counts_llama_3_8b_at_its_sizes(model):
    assert count_parameters(model) == llama_parameters(VOCAB, 64, 4, 2, 2, 172)
    assert model.layers[0].ffn.down.in_features == 172 == -(-int(2 / 3 * 4 * 64) // 4) * 4
    assert count_parameters(TinyLlama(11, 48, 6, 3, 3, d_ff=100)) == llama_parameters(
        11, 48, 6, 3, 3, 100)
    c = PRESETS["Llama-3-8B"]  # vocab 128256 and intermediate_size 14336 from its config.json
    assert llama_parameters(128256, c.d_model, c.n_heads, c.n_kv_heads, c.n_layers, c.d_ff) \
        == c.n_params == 8_030_261_248


def test_errors(model):
    with pytest.raises(ValueError, match=r"shape \(B, T\) and dtype long"):
        model(torch.zeros(2, 3))
    with pytest.raises(ValueError, match="one KVCache per layer"):
        model(ids(3), cache=[KVCache()])
