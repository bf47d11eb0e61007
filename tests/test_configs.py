"""helpers.configs: published attention shapes and the KV-cache bytes they imply."""

import dataclasses
import math

import numpy as np
import pytest

from helpers.blocks import TransformerBlock, count_parameters
from helpers.configs import (
    ALL_PRESETS,
    PRESETS,
    PRESETS_2025,
    ModelConfig,
    as_config,
    kv_bytes_per_token,
    kv_cache_bytes,
    local_global_kv_cache,
    windowed_layers,
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
        "Llama-3.1-70B": (80, 64, 8, 8192, 128, None, None, None),
        "Llama-3.1-405B": (126, 128, 8, 16384, 128, None, None, None),
        "Qwen3-8B": (36, 32, 8, 4096, 128, None, None, None),
        "Qwen3-32B": (64, 64, 8, 5120, 128, None, None, None),
        "Qwen3-235B-A22B": (94, 64, 4, 4096, 128, None, None, None),
        "Gemma-3-27B": (62, 32, 16, 5376, 128, 1024, None, None),
        "gpt-oss-20b": (24, 64, 8, 2880, 64, 128, None, None),
        "gpt-oss-120b": (36, 64, 8, 2880, 64, 128, None, None),
        "DeepSeek-V3": (61, 128, 128, 7168, 128, None, 512, 64),
    }
    assert set(ALL_PRESETS) == set(want)
    # lesson 10 lists and asserts PRESETS as it is: the 2025 models come after, apart
    assert list(PRESETS) == ["GPT-2 small", "Llama-2-7B", "Llama-3-8B", "Llama-3.1-8B",
                             "Mistral-7B-v0.1", "DeepSeek-V2"]
    assert list(ALL_PRESETS) == list(PRESETS) + list(PRESETS_2025)
    for name, numbers in want.items():
        c = ALL_PRESETS[name]
        assert c.name == name
        got = (c.n_layers, c.n_heads, c.n_kv_heads, c.d_model, c.d_head, c.window,
               c.kv_latent, c.rope_head_dim)
        assert got == numbers, name
        assert "https://" in c.source, name
        assert c.as_dict()["n_layers"] == c.n_layers and c.as_dict()["source"] == c.source


def test_presets_hold_their_positions_ffns_and_experts():
    # max_position_embeddings of each config.json: Llama 3 has 8192, Llama 3.1 131072
    positions = {name: c.max_positions for name, c in ALL_PRESETS.items()}
    assert positions == {"GPT-2 small": 1024, "Llama-2-7B": 4096, "Llama-3-8B": 8192,
                         "Llama-3.1-8B": 131072, "Mistral-7B-v0.1": 32768,
                         "DeepSeek-V2": 163840, "Llama-3.1-70B": 131072,
                         "Llama-3.1-405B": 131072, "Qwen3-8B": 40960, "Qwen3-32B": 40960,
                         "Qwen3-235B-A22B": None,  # its config.json was not at hand
                         "Gemma-3-27B": 131072, "gpt-oss-20b": 131072,
                         "gpt-oss-120b": 131072, "DeepSeek-V3": 163840}
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
                              ("Llama-3.1-8B", 128256, 14336), ("Mistral-7B-v0.1", 32000, 14336),
                              ("Llama-3.1-70B", 128256, 28672),
                              ("Llama-3.1-405B", 128256, 53248)]:
        c = ALL_PRESETS[name]
        attention = c.d_model * c.d_head * (2 * c.n_heads + 2 * c.n_kv_heads)
        per_layer = attention + 3 * c.d_model * d_ff + 2 * c.d_model
        assert c.n_layers * per_layer + 2 * vocab * c.d_model + c.d_model == c.n_params, name
    # Qwen3 adds an RMSNorm on each head's q and k (head_dim weights each); vocab 151936
    for name in ("Qwen3-8B", "Qwen3-32B"):
        c = ALL_PRESETS[name]
        attention = c.d_model * c.d_head * (2 * c.n_heads + 2 * c.n_kv_heads)
        per_layer = attention + 3 * c.d_model * c.d_ff + 2 * c.d_model + 2 * c.d_head
        assert c.n_layers * per_layer + 2 * 151936 * c.d_model + c.d_model == c.n_params, name
    # the model cards' rounded sizes
    assert round(ALL_PRESETS["Qwen3-8B"].n_params / 1e8) == 82
    assert round(ALL_PRESETS["Qwen3-32B"].n_params / 1e8) == 328
    assert round(ALL_PRESETS["Llama-3.1-70B"].n_params / 1e9) == 71  # "70B"
    assert round(ALL_PRESETS["Llama-3.1-405B"].n_params / 1e9) == 406  # "405B"


def test_moe_presets_add_up_to_their_published_totals():
    # active parameters plus the routed experts a token does not use is the whole model
    for name, total_billions in [("DeepSeek-V3", 671), ("Qwen3-235B-A22B", 235),
                                 ("gpt-oss-120b", 116.8), ("gpt-oss-20b", 20.9)]:
        c = ALL_PRESETS[name]
        unused = (c.n_experts - c.experts_per_token) * c.expert_params
        # within 3%: gpt-oss's active count leaves out the embedding matrix (0.58B)
        assert (c.active_params + unused) / 1e9 == pytest.approx(total_billions, rel=0.03), name
    assert ALL_PRESETS["DeepSeek-V3"].expert_params == 58 * 3 * 7168 * 2048  # 61 - 3 dense layers


def test_local_global_layers_follow_the_published_patterns():
    # Gemma 3: layer i is global when (i + 1) % 6 == 0 (sliding_window_pattern 6)
    gemma = ALL_PRESETS["Gemma-3-27B"]
    assert gemma.global_layers == sum((i + 1) % 6 == 0 for i in range(62)) == 10
    assert windowed_layers(gemma) == 52
    # gpt-oss: layer_types alternate sliding, full
    for name, n in [("gpt-oss-20b", 24), ("gpt-oss-120b", 36)]:
        types = ["sliding" if (i + 1) % 2 else "full" for i in range(n)]
        assert ALL_PRESETS[name].global_layers == types.count("full") == n // 2
        assert windowed_layers(ALL_PRESETS[name]) == types.count("sliding")
    assert windowed_layers(PRESETS["Mistral-7B-v0.1"]) == 32  # every layer windowed
    assert windowed_layers(PRESETS["Llama-3-8B"]) == 0


def test_local_global_kv_cache_by_hand():
    # 6 layers, 2 global; 1 kv head of width 4: 2 · 4 = 8 numbers per position and layer
    c = {"n_layers": 6, "n_heads": 2, "n_kv_heads": 1, "d_model": 8, "d_head": 4,
         "window": 3, "global_layers": 2}
    # T = 10: 4 local layers keep 3 positions, 2 global keep 10: (12 + 20) · 8 numbers · 2 B
    got = local_global_kv_cache(c, 10)
    assert got == {"local_layers": 4, "global_layers": 2, "interleaved": 32 * 8 * 2,
                   "all_global": 60 * 8 * 2, "fraction": 32 / 60}
    assert kv_cache_bytes(c, 10) == 512
    # below the window nothing is saved; batch and bytes multiply
    assert local_global_kv_cache(c, 2)["fraction"] == 1.0
    assert kv_cache_bytes(c, 2, batch=3, bytes_per_value=4) == 6 * 2 * 8 * 3 * 4
    assert local_global_kv_cache(c, 0)["interleaved"] == 0
    assert local_global_kv_cache(c, 0)["fraction"] == 1.0
    # a naive loop over the layers gives the same numbers for every T
    kinds = ["local", "local", "global", "local", "local", "global"]
    for T in (0, 1, 3, 4, 50):
        loop = sum(8 * (min(T, 3) if kind == "local" else T) for kind in kinds) * 2
        assert kv_cache_bytes(c, T) == loop
    # global_layers = 0 is Mistral's all-windowed cache, = n_layers the plain one
    assert kv_cache_bytes({**c, "global_layers": 0}, 10) == kv_cache_bytes(
        {**c, "global_layers": None}, 10) == 6 * 3 * 8 * 2
    assert kv_cache_bytes({**c, "global_layers": 6}, 10) == 6 * 10 * 8 * 2


def test_local_global_kv_cache_of_published_models():
    # Gemma 3 27B at 128K tokens: 52 layers keep 1024, 10 keep 131072;
    # 16 kv heads · 128 wide · 2 (K, V) · 2 bytes = 8192 bytes per position and layer
    gemma = local_global_kv_cache(ALL_PRESETS["Gemma-3-27B"], 131072)
    assert gemma["interleaved"] == (52 * 1024 + 10 * 131072) * 8192
    assert gemma["all_global"] == 62 * 131072 * 8192  # 62 GiB
    assert gemma["all_global"] == 62 * 2**30
    assert round(gemma["fraction"], 3) == 0.168  # a sixth, plus the windows
    # gpt-oss-120b: half its layers keep 128 positions: 8 kv heads · 64 · 2 · 2 = 2048 bytes
    oss = local_global_kv_cache(ALL_PRESETS["gpt-oss-120b"], 131072)
    assert oss["interleaved"] == (18 * 128 + 18 * 131072) * 2048
    assert kv_bytes_per_token(ALL_PRESETS["gpt-oss-120b"]) == 36 * 2048
    # DeepSeek-V3's latent cache: 576 numbers per layer, 61 layers
    assert kv_bytes_per_token(ALL_PRESETS["DeepSeek-V3"]) == (512 + 64) * 61 * 2
    assert kv_bytes_per_token(ALL_PRESETS["Qwen3-235B-A22B"]) == 2 * 94 * 4 * 128 * 2


def test_bad_global_layers_raise():
    with pytest.raises(ValueError, match=r"global_layers \(7\) cannot exceed n_layers \(6\)"):
        ModelConfig("x", 6, 2, 1, 8, 4, window=3, global_layers=7)
    with pytest.raises(ValueError, match="global_layers must be a non-negative whole number"):
        ModelConfig("x", 6, 2, 1, 8, 4, window=3, global_layers=-1)
