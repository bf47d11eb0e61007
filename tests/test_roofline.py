"""helpers.roofline: arithmetic intensity, the roofline, and decode versus prefill."""

import numpy as np
import pytest

from helpers.blocks import FeedForward, count_parameters
from helpers.configs import PRESETS, PRESETS_2025
from helpers.gqa import GroupedQueryAttention
from helpers.latent import LatentAttention
from helpers.roofline import (
    attainable_flops,
    decode_step,
    estimate_params,
    experts_touched,
    matmul_intensity,
    measure_bandwidth,
    measure_matmul_flops,
    prefill_step,
    weights_read,
)
from helpers.streaming import layer_flops

SMALL = {"n_layers": 2, "n_heads": 4, "n_kv_heads": 2, "d_model": 8, "d_head": 2,
         "window": None}


def test_measurements_return_rates():  # no timing is asserted: the machine is shared
    assert measure_matmul_flops(n=64, repeats=2) > 0
    assert measure_bandwidth(n_bytes=2**20, repeats=2) > 0
    with pytest.raises(ValueError, match="repeats must be a positive"):
        measure_bandwidth(n_bytes=2**10, repeats=0)


def test_matmul_intensity_on_stated_sizes():
    assert matmul_intensity(1024, 1024, 1024) == pytest.approx(1024 / 6)  # 2n³ / (4 · 3n²)
    assert matmul_intensity(2, 3, 4, bytes_per_value=1) == 48 / (6 + 12 + 8)
    # one token through a 4096 x 4096 bf16 weight: under 1 FLOP per byte
    assert matmul_intensity(1, 4096, 4096, 2) == pytest.approx(1.0, rel=1e-3)
    assert matmul_intensity(1, 4096, 4096, 2) < 1


def test_attainable_flops_is_the_roofline():
    assert attainable_flops(2.0, peak_flops=100.0, bandwidth=10.0) == 20.0  # memory-bound
    assert attainable_flops(50.0, peak_flops=100.0, bandwidth=10.0) == 100.0  # compute-bound
    np.testing.assert_array_equal(attainable_flops([1, 10, 20], 100.0, 10.0), [10, 100, 100])
    with pytest.raises(ValueError, match="positive"):
        attainable_flops(1.0, 0, 1)


def test_estimate_params_counts_the_course_modules():
    # attention: the GQA module's own weights; FFN: 8 d_model² = a 4 d_model-wide FFN
    attn = count_parameters(GroupedQueryAttention(8, 4, 2))
    ffn = count_parameters(FeedForward(8, 32, bias=False))
    assert estimate_params(SMALL) == 2 * (attn + ffn) == 2 * (192 + 512)
    # a SwiGLU of the released width, three matrices: not 8 d_model²
    swiglu = count_parameters(FeedForward(8, 22, "swiglu", bias=False))
    assert estimate_params({**SMALL, "d_ff": 22, "ffn_matrices": 3}) == 2 * (attn + swiglu)
    mla = {"n_layers": 1, "n_heads": 4, "n_kv_heads": 4, "d_model": 32, "d_head": 8,
           "kv_latent": 12, "rope_head_dim": 4}
    mla_attn = count_parameters(LatentAttention(32, 4, 8, 12, 4))
    assert estimate_params(mla) == mla_attn + 8 * 32**2
    compressed = count_parameters(LatentAttention(32, 4, 8, 12, 4, d_q_latent=6))
    assert estimate_params({**mla, "q_latent": 6}) == compressed + 8 * 32**2
    # Llama-3-8B without embeddings, with its SwiGLU of 14336 (3.5 d_model): 6.98e9, where a
    # "8 d_model²" FFN would give 5.64e9
    llama = PRESETS["Llama-3-8B"]
    assert estimate_params(llama) == 32 * (41_943_040 + 3 * 4096 * 14336) == 6_979_321_856
    assert estimate_params(llama) + 2 * 128256 * 4096 + 65 * 4096 == llama.n_params  # + norms
    assert estimate_params({**llama.as_dict(), "d_ff": None}) == 32 * (41_943_040 + 8 * 4096**2)


def test_decode_step_on_stated_numbers():
    step = decode_step(SMALL, T=10, batch=3, bytes_per_value=2, n_params=1000)
    # weights: 2 · 1000 · 3; attention: 2 layers · 4 heads · (2 + 2 d_head) · 10 keys · 3
    assert step["flops"] == 2 * 1000 * 3 + 2 * 2 * 4 * (2 * 2) * 10 * 3 == 7920
    # weights once, 2000 bytes; KV: 2 · 2 layers · 2 kv heads · 2 wide · 2 bytes = 32 a token
    assert step["weight_bytes"] == 2000 and step["kv_bytes"] == 32 * 10 * 3
    assert step["bytes"] == 2960 and step["intensity"] == pytest.approx(7920 / 2960)


def test_attention_flops_agree_with_layer_flops():
    # helpers.streaming.layer_flops (checked against torch's FLOP counter) gives 4 T² D for
    # T queries on T keys; one decoding query on T keys is a T-th of it
    mha = {**SMALL, "n_layers": 1, "n_kv_heads": 4, "d_model": 8}  # H · d_head = d_model
    T = 11
    assert decode_step(mha, T, n_params=1)["flops"] - 2 == layer_flops(T, 8, 32)["attention"] // T
    # GQA shares keys, not work: every query head still scores every key, from half the bytes
    gqa = decode_step({**SMALL, "n_layers": 1}, T, n_params=1)
    full = decode_step(mha, T, n_params=1)
    assert gqa["flops"] == full["flops"] and 2 * gqa["kv_bytes"] == full["kv_bytes"]


def test_decoding_is_memory_bound_and_prefill_is_not():
    llama = PRESETS["Llama-3-8B"]
    one = decode_step(llama, T=1, batch=1)
    assert one["weight_bytes"] == 2 * llama.n_params
    assert one["intensity"] == pytest.approx(1.0, rel=1e-3)  # 2 FLOPs per 2-byte weight
    assert decode_step(llama, T=1, batch=32)["intensity"] == pytest.approx(32, rel=1e-2)
    # a long cache brings it back down: 64 x 8192 tokens of KV (64 GiB) outweigh the weights
    long = decode_step(llama, T=8192, batch=64)
    assert long["kv_bytes"] == 64 * 2**30 and long["intensity"] < 20
    prefill = prefill_step(llama, T=4096)
    assert prefill["intensity"] > 1000  # far past any GPU's ridge point (H100: ~300)
    assert prefill["flops"] == 2 * llama.n_params * 4096 + 2 * 32 * 32 * 256 * 4096 * 4097 // 2


def test_window_caps_decode_and_prefill():
    mistral = PRESETS["Mistral-7B-v0.1"]
    assert decode_step(mistral, 8192) == decode_step(mistral, 4096)
    with_window = prefill_step({**SMALL, "window": 3}, T=5, n_params=10)
    without = prefill_step(SMALL, T=5, n_params=10)
    per_pair = 2 * 2 * 4 * 4  # layers · heads · (2 · 2 d_head) ... per (query, key) pair
    assert without["flops"] - with_window["flops"] == per_pair * ((1 + 2 + 3 + 4 + 5)
                                                                   - (1 + 2 + 3 + 3 + 3))
    assert with_window["kv_bytes"] == 32 * 3


def test_local_and_global_layers_read_their_own_number_of_keys():
    # 6 layers, 2 of them global, window 3: a naive loop over layers, queries and keys
    mixed = {**SMALL, "n_layers": 6, "window": 3, "global_layers": 2}
    per_pair = 2 * 4 * 4  # 2 FLOPs · heads · (2 · 2 d_head) per (query, key) pair and layer
    kinds = ["local"] * 4 + ["global"] * 2
    T = 7
    decode_pairs = sum(min(T, 3) if kind == "local" else T for kind in kinds)
    assert decode_step(mixed, T, n_params=10)["flops"] == 2 * 10 + per_pair * decode_pairs
    prefill_pairs = sum(min(i, 3) if kind == "local" else i
                        for kind in kinds for i in range(1, T + 1))
    assert prefill_step(mixed, T, n_params=10)["flops"] == 2 * 10 * T + per_pair * prefill_pairs
    # Gemma 3 at 32K: its 10 global layers do most of the attention work
    gemma = PRESETS_2025["Gemma-3-27B"]
    all_global = decode_step({**gemma.as_dict(), "window": None}, 32768, n_params=1)
    assert decode_step(gemma, 32768, n_params=1)["flops"] - 2 == pytest.approx(
        (all_global["flops"] - 2) * (52 * 1024 + 10 * 32768) / (62 * 32768))


def test_a_mixture_of_experts_reads_the_experts_its_batch_touches():
    ds = PRESETS["DeepSeek-V2"]
    # one token: its 6 routed experts (and the shared ones): the published active parameters
    assert experts_touched(ds, 1) == pytest.approx(6)
    assert weights_read(ds, 1) == 21_000_000_000
    one = decode_step(ds, T=1000, batch=1)
    assert one["weight_bytes"] == 2 * 21_000_000_000
    assert one["experts_touched"] == pytest.approx(6)
    # 64 tokens, routed uniformly: 160 (1 - (154/160)^64) = 146.1 of the 160 experts
    assert experts_touched(ds, 64) == pytest.approx(160 * (1 - (154 / 160) ** 64))
    assert round(experts_touched(ds, 64), 1) == 146.1
    b64 = decode_step(ds, T=1000, batch=64)
    assert b64["weight_bytes"] == 2 * round(21e9 + (experts_touched(ds, 64) - 6) * 1_391_984_640)
    assert round(b64["weight_bytes"] / 1e9) == 432  # against 42 GB if charged once per step
    assert b64["flops"] == 64 * one["flops"]  # every token still uses only its own experts
    # a long prefill touches them all: about the 236B of the whole model
    assert weights_read(ds, 4096) == pytest.approx(236e9, rel=0.005)
    assert weights_read(ds, 4096, n_params=10) == 10
    assert experts_touched(PRESETS["Llama-3-8B"], 64) is None
    assert decode_step(PRESETS["Llama-3-8B"], 10, 64)["experts_touched"] is None


def test_mla_decode_reads_its_small_cache():
    ds = PRESETS["DeepSeek-V2"]
    step = decode_step(ds, T=1000, batch=1, n_params=21_000_000_000)
    assert step["kv_bytes"] == 576 * 60 * 2 * 1000
    assert step["flops"] == 2 * 21e9 + 2 * 60 * 128 * (2 * 512 + 64) * 1000


def test_errors():
    with pytest.raises(ValueError, match="T must be a positive"):
        decode_step(SMALL, 0)
    with pytest.raises(ValueError, match="n_params must be a positive"):
        prefill_step(SMALL, 4, n_params=-1)
    with pytest.raises(ValueError, match="m must be a positive"):
        matmul_intensity(0, 2, 2)
