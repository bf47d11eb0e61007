"""helpers.configs: published attention shapes and the KV-cache bytes they imply."""

import dataclasses
import math

import numpy as np
import pytest

from helpers.blocks import TransformerBlock, count_parameters
from helpers.configs import (
    PRESETS,
    ModelConfig,
    as_config,
    kv_bytes_per_token,
    kv_cache_bytes,
)


def test_presets_hold_the_published_numbers():
    # (layers, heads, kv heads, d_model, d_head, window, d_c, d_h^R), as the sources say
    want = {
        "GPT-2 small": (12, 12, 12, 768, 64, None, None, None),
        "Llama-2-7B": (32, 32, 32, 4096, 128, None, None, None),
        "Llama-3-8B": (32, 32, 8, 4096, 128, None, None, None),
        "Llama-3.1-8B": (32, 32, 8, 4096, 128, None, None, None),
        "Mistral-7B-v0.1": (32, 32, 8, 4096, 128, 4096, None, None),
        "DeepSeek-V2": (60, 128, 128, 5120, 128, None, 512, 64),
    }
    assert set(PRESETS) == set(want)
    for name, numbers in want.items():
        c = PRESETS[name]
        assert c.name == name
        got = (c.n_layers, c.n_heads, c.n_kv_heads, c.d_model, c.d_head, c.window,
               c.kv_latent, c.rope_head_dim)
        assert got == numbers, name
        assert "https://" in c.source, name
        assert c.as_dict()["n_layers"] == c.n_layers and c.as_dict()["source"] == c.source


def test_presets_hold_their_positions_ffns_and_experts():
    # max_position_embeddings of each config.json: Llama 3 has 8192, Llama 3.1 131072
    positions = {name: c.max_positions for name, c in PRESETS.items()}
    assert positions == {"GPT-2 small": 1024, "Llama-2-7B": 4096, "Llama-3-8B": 8192,
                         "Llama-3.1-8B": 131072, "Mistral-7B-v0.1": 32768,
                         "DeepSeek-V2": 163840}
    ffn = {name: (c.d_ff, c.ffn_matrices) for name, c in PRESETS.items()}
    assert ffn["Llama-2-7B"] == (11008, 3) and ffn["GPT-2 small"] == (3072, 2)
    # 11008: 2/3 of 4 d_model, rounded up to a multiple of 256 (Meta's llama/model.py)
    assert math.ceil(int(2 * 4 * 4096 / 3) / 256) * 256 == 11008
    ds = PRESETS["DeepSeek-V2"]
    assert ds.is_moe and (ds.n_experts, ds.experts_per_token, ds.q_latent) == (160, 6, 1536)
    # one routed SwiGLU expert (3 · 5120 · 1536) in the 59 layers after the first: with 6 of
    # them per token the active parameters, with all 160 about the 236B of the whole model
    assert ds.expert_params == 59 * 3 * 5120 * 1536
    assert round((ds.active_params + 154 * ds.expert_params) / 1e9) == 235
    assert not PRESETS["Llama-3-8B"].is_moe
    with pytest.raises(ValueError, match="sets n_experts, experts_per_token, expert_params"):
        ModelConfig("x", 1, 2, 2, 8, 4, n_experts=4)
    with pytest.raises(ValueError, match="cannot exceed"):
        ModelConfig("x", 1, 2, 2, 8, 4, n_experts=4, experts_per_token=5, expert_params=10,
                    active_params=100)
    with pytest.raises(ValueError, match="ffn_matrices is 2"):
        ModelConfig("x", 1, 2, 2, 8, 4, ffn_matrices=4)


def test_configs_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["Llama-3-8B"].n_kv_heads = 1


def test_kv_bytes_per_token_from_the_formula():
    # 2 (K and V) · layers · kv heads · d_head · bytes
    assert kv_bytes_per_token(PRESETS["Llama-3-8B"]) == 131072 == 2 * 32 * 8 * 128 * 2
    assert kv_bytes_per_token(PRESETS["GPT-2 small"]) == 36864 == 2 * 12 * 12 * 64 * 2
    assert kv_bytes_per_token(PRESETS["Llama-2-7B"], 4) == 2 * 32 * 32 * 128 * 4
    # MLA: one 512-wide latent and one 64-wide RoPE key per layer (DeepSeek-V2 Table 1)
    assert kv_bytes_per_token(PRESETS["DeepSeek-V2"]) == 576 * 60 * 2
    # GQA with 8 of 32 heads caches a quarter of Llama-2-7B's
    assert kv_bytes_per_token(PRESETS["Llama-3-8B"]) * 4 == kv_bytes_per_token(
        PRESETS["Llama-2-7B"]
    )


def test_kv_cache_bytes_scales_with_tokens_and_batch_and_stops_at_the_window():
    llama = PRESETS["Llama-3-8B"]
    assert kv_cache_bytes(llama, 8192, batch=4) == 131072 * 8192 * 4  # 4 GiB
    assert kv_cache_bytes(llama, 8192, batch=4) == 4 * 2**30
    mistral = PRESETS["Mistral-7B-v0.1"]
    assert kv_cache_bytes(mistral, 1000) == 131072 * 1000  # under the window: every token
    assert kv_cache_bytes(mistral, 8192) == 131072 * 4096  # capped: the rolling buffer
    assert kv_cache_bytes(mistral, 8192) == kv_cache_bytes(mistral, 4096)
    assert kv_cache_bytes(PRESETS["DeepSeek-V2"], 1000, 2) == 576 * 60 * 2 * 1000 * 2
    assert kv_cache_bytes(llama, 0) == 0
    assert kv_cache_bytes(llama, np.int64(3), np.int64(2), np.int64(4)) == 2 * 131072 * 3 * 2
    assert isinstance(kv_cache_bytes(llama, 10, bytes_per_value=2), int)


def test_a_plain_dict_works_as_the_exercise_passes_it():
    d = {"n_layers": 32, "n_heads": 32, "n_kv_heads": 8, "d_model": 4096, "d_head": 128,
         "window": 4096}
    assert kv_cache_bytes(d, 8192, 1, 2) == kv_cache_bytes(PRESETS["Mistral-7B-v0.1"], 8192)
    assert kv_cache_bytes(PRESETS["DeepSeek-V2"].as_dict(), 7) == kv_cache_bytes(
        PRESETS["DeepSeek-V2"], 7
    )
    assert as_config(d).window == 4096 and as_config(PRESETS["GPT-2 small"]) is PRESETS[
        "GPT-2 small"
    ]


@pytest.mark.parametrize("config, T, match", [
    ({"n_layers": 2, "n_heads": 4, "n_kv_heads": 2, "d_model": 8}, 5, r"missing \['d_head'\]"),
    ({"n_layers": 2, "n_heads": 4, "n_kv_heads": 2, "d_model": 8, "d_head": 2, "layers": 3},
     5, r"unknown keys \['layers'\]"),
    ({"n_layers": 2, "n_heads": 4, "n_kv_heads": 3, "d_model": 8, "d_head": 2}, 5,
     "n_heads=4, n_kv_heads=3"),
    ({"n_layers": 0, "n_heads": 4, "n_kv_heads": 2, "d_model": 8, "d_head": 2}, 5,
     "n_layers must be a positive"),
    ([32, 32, 8], 5, "ModelConfig or a dict"),
    (PRESETS["Llama-3-8B"], -1, "T must be a non-negative whole number"),
    (PRESETS["Llama-3-8B"], 2.5, "T must be a non-negative whole number"),
])
def test_bad_configs_and_lengths_raise(config, T, match):
    with pytest.raises(ValueError, match=match):
        kv_cache_bytes(config, T)


def test_bad_batch_bytes_and_half_an_mla_config_raise():
    with pytest.raises(ValueError, match="batch must be a positive"):
        kv_cache_bytes(PRESETS["GPT-2 small"], 4, batch=0)
    with pytest.raises(ValueError, match="bytes_per_value must be a positive number"):
        kv_cache_bytes(PRESETS["GPT-2 small"], 4, bytes_per_value=0)
    with pytest.raises(ValueError, match="sets both kv_latent"):
        ModelConfig("x", 1, 2, 2, 8, 4, kv_latent=16)


def test_parameter_counts_match_models_built_from_the_configs():
    # GPT-2 small: 12 of the course's pre-norm blocks (biases everywhere), token and position
    # embeddings (vocab 50257, 1024 positions), a final LayerNorm, the head tied to the embedding
    block = count_parameters(TransformerBlock(768, 12, 3072, activation="gelu"))
    assert 12 * block + (50257 + 1024) * 768 + 2 * 768 == PRESETS["GPT-2 small"].n_params
    # Llama-style: untied embedding and head, RMSNorm weights, SwiGLU, GQA without biases
    for name, vocab, d_ff in [("Llama-2-7B", 32000, 11008), ("Llama-3-8B", 128256, 14336),
                              ("Llama-3.1-8B", 128256, 14336), ("Mistral-7B-v0.1", 32000, 14336)]:
        c = PRESETS[name]
        attention = c.d_model * c.d_head * (2 * c.n_heads + 2 * c.n_kv_heads)
        per_layer = attention + 3 * c.d_model * d_ff + 2 * c.d_model
        assert c.n_layers * per_layer + 2 * vocab * c.d_model + c.d_model == c.n_params, name
