"""Attention configurations of published models, and what their KV cache costs.

Each preset gives its source: a page a learner can open and where in it the numbers are.
Every cached position keeps, in every layer, a key and a value per key/value head:
    2 · n_layers · n_kv_heads · d_head numbers per token (GQA divides by H / H_kv),
and a sliding window keeps only the last `window` positions. Models that interleave local
(sliding-window) and global layers, as Gemma 2 and 3 and gpt-oss do, keep min(T, window)
positions in their local layers and all T in their `global_layers`. Multi-head latent attention
(DeepSeek-V2) caches one latent c (kv_latent numbers) and one shared RoPE key
(rope_head_dim numbers) per layer instead: (kv_latent + rope_head_dim) · n_layers.
The FFN and mixture-of-experts fields (d_ff, ffn_matrices, n_experts, experts_per_token,
expert_params) are for `helpers.roofline`: what a step must read.
PRESETS: the models lesson 10 lists; PRESETS_2025: 2025's open models; ALL_PRESETS: both, in
that order (the lesson 10 explorer offers them all).
"""

from __future__ import annotations

import numbers
from dataclasses import asdict, dataclass, fields, replace


def _whole(name: str, value, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or int(value) != value \
            or value < least:
        kind = "positive" if least == 1 else "non-negative"
        raise ValueError(f"{name} must be a {kind} whole number; got {value!r}")
    return int(value)


@dataclass(frozen=True)
class ModelConfig:
    """The attention shapes of one model (per layer: n_heads query heads of width d_head).

    window: sliding-window length (None: every position is kept).
    global_layers: with a window, how many of the layers still attend to (and cache) every
        position; the other n_layers - global_layers keep the last `window` (None: all
        layers are windowed, as in Mistral-7B-v0.1). Without a window every layer is global.
    kv_latent, rope_head_dim: MLA's d_c and d_h^R (None: standard K/V cache).
    source: where the numbers come from (a URL, and where in it).
    n_params: the published total number of parameters (None: unknown), for weight bytes.
    active_params: the parameters one token uses, for a mixture of experts (None: all of them):
        what a decode step of one sequence must read and multiply.
    max_positions: the positions the released model is configured for (its config.json's
        max_position_embeddings; None: unknown).
    q_latent: MLA's query compression d_c' (None: queries projected from h_t directly).
    d_ff, ffn_matrices: the FFN's hidden width and its number of matrices (2 for GPT's
        GELU FFN, 3 for a SwiGLU), for `helpers.roofline.estimate_params` (None: 4 d_model, 2).
    n_experts, experts_per_token, expert_params: a mixture of experts' routed experts per
        layer, how many of them each token uses, and the parameters of ONE routed expert summed
        over all its MoE layers (None: a dense model).
    """

    name: str
    n_layers: int
    n_heads: int
    n_kv_heads: int
    d_model: int
    d_head: int
    window: int | None = None
    global_layers: int | None = None
    kv_latent: int | None = None
    rope_head_dim: int | None = None
    source: str = ""
    n_params: int | None = None
    active_params: int | None = None
    max_positions: int | None = None
    q_latent: int | None = None
    d_ff: int | None = None
    ffn_matrices: int = 2
    n_experts: int | None = None
    experts_per_token: int | None = None
    expert_params: int | None = None

    def __post_init__(self):
        for f in ("n_layers", "n_heads", "n_kv_heads", "d_model", "d_head"):
            _whole(f, getattr(self, f))
        if self.n_heads % self.n_kv_heads:
            raise ValueError(
                f"n_heads must be a multiple of n_kv_heads (groups of query heads share a "
                f"key/value head); got n_heads={self.n_heads}, n_kv_heads={self.n_kv_heads}"
            )
        for f in ("window", "kv_latent", "rope_head_dim", "n_params", "active_params",
                  "max_positions", "q_latent", "d_ff", "n_experts", "experts_per_token",
                  "expert_params"):
            if getattr(self, f) is not None:
                _whole(f, getattr(self, f))
        if self.global_layers is not None:
            _whole("global_layers", self.global_layers, least=0)
            if self.global_layers > self.n_layers:
                raise ValueError(f"global_layers ({self.global_layers}) cannot exceed n_layers "
                                 f"({self.n_layers})")
        if (self.kv_latent is None) != (self.rope_head_dim is None):
            raise ValueError(
                "an MLA config sets both kv_latent (d_c) and rope_head_dim (d_h^R); got "
                f"kv_latent={self.kv_latent!r}, rope_head_dim={self.rope_head_dim!r}"
            )
        if self.ffn_matrices not in (2, 3):
            raise ValueError(f"ffn_matrices is 2 (up, down) or 3 (a gated FFN such as SwiGLU); "
                             f"got {self.ffn_matrices!r}")
        moe = (self.n_experts, self.experts_per_token, self.expert_params)
        if any(v is not None for v in moe):
            if any(v is None for v in moe) or self.active_params is None:
                raise ValueError(
                    "a mixture of experts sets n_experts, experts_per_token, expert_params and "
                    f"active_params together; got n_experts={self.n_experts!r}, "
                    f"experts_per_token={self.experts_per_token!r}, expert_params="
                    f"{self.expert_params!r}, active_params={self.active_params!r}"
                )
            if self.experts_per_token > self.n_experts:
                raise ValueError(f"experts_per_token ({self.experts_per_token}) cannot exceed "
                                 f"n_experts ({self.n_experts})")

    @property
    def is_moe(self) -> bool:
        return self.n_experts is not None

    @property
    def is_mla(self) -> bool:
        return self.kv_latent is not None

    def as_dict(self) -> dict:
        return asdict(self)


PRESETS: dict[str, ModelConfig] = {
    c.name: c
    for c in (
        ModelConfig(
            "GPT-2 small", n_layers=12, n_heads=12, n_kv_heads=12, d_model=768, d_head=64,
            source="https://huggingface.co/openai-community/gpt2/blob/main/config.json: "
            "n_layer = 12, n_head = 12, n_embd = 768 (d_head = 768 / 12), n_positions = 1024; "
            "124,439,808 parameters with the tied embedding (vocab 50257)",
            n_params=124_439_808, max_positions=1024, d_ff=3072,
        ),
        ModelConfig(
            "Llama-2-7B", n_layers=32, n_heads=32, n_kv_heads=32, d_model=4096, d_head=128,
            source="Touvron et al. 2023, https://arxiv.org/abs/2307.09288 Table 1 (GQA only "
            "for 34B and 70B); https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/"
            "config.json: num_hidden_layers, num_attention_heads, num_key_value_heads, "
            "hidden_size, max_position_embeddings = 4096; 6,738,415,616 parameters (vocab "
            "32000, intermediate_size 11008: 2/3 · 4 · 4096 rounded up to a multiple of 256 by "
            "Meta's llama/model.py, multiple_of)",
            n_params=6_738_415_616, max_positions=4096, d_ff=11008, ffn_matrices=3,
        ),
        ModelConfig(
            "Llama-3-8B", n_layers=32, n_heads=32, n_kv_heads=8, d_model=4096, d_head=128,
            source="https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json: "
            "num_hidden_layers = 32, num_attention_heads = 32, num_key_value_heads = 8, "
            "hidden_size = 4096, max_position_embeddings = 8192; 8,030,261,248 parameters "
            "(vocab 128256, intermediate_size 14336)",
            n_params=8_030_261_248, max_positions=8192, d_ff=14336, ffn_matrices=3,
        ),
        ModelConfig(
            "Llama-3.1-8B", n_layers=32, n_heads=32, n_kv_heads=8, d_model=4096, d_head=128,
            source="https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json: "
            "Llama-3-8B's shapes with max_position_embeddings = 131072 (rope_scaling "
            "'llama3', factor 8 from original_max_position_embeddings 8192); 8,030,261,248 "
            "parameters",
            n_params=8_030_261_248, max_positions=131072, d_ff=14336, ffn_matrices=3,
        ),
        ModelConfig(
            "Mistral-7B-v0.1", n_layers=32, n_heads=32, n_kv_heads=8, d_model=4096,
            d_head=128, window=4096,
            source="Jiang et al. 2023, https://arxiv.org/abs/2310.06825 Table 1: dim, n_layers, "
            "head_dim, n_heads, n_kv_heads, window_size (context_len 8192); "
            "https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json: "
            "sliding_window = 4096, max_position_embeddings = 32768; 7,241,732,096 parameters "
            "(vocab 32000, hidden_dim 14336). v0.2 and v0.3 have no sliding window "
            "(https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.2: 'No Sliding-Window "
            "Attention')",
            n_params=7_241_732_096, max_positions=32768, d_ff=14336, ffn_matrices=3,
        ),
        ModelConfig(
            "DeepSeek-V2", n_layers=60, n_heads=128, n_kv_heads=128, d_model=5120, d_head=128,
            kv_latent=512, rope_head_dim=64, q_latent=1536,
            source="DeepSeek-AI 2024, https://arxiv.org/abs/2405.04434 §2.1 (MLA, eqs 9-19; "
            "Table 1: (d_c + d_h^R) l cache elements per token) and §3.1.2 hyper-parameters: "
            "60 layers, hidden 5120, n_h = 128, d_h = 128, d_c = 512, d_c' = 1536, d_h^R = 64; "
            "2 shared and 160 routed experts of hidden width 1536 in every layer but the "
            "first, 6 routed experts per token; "
            "https://huggingface.co/deepseek-ai/DeepSeek-V2/blob/main/config.json: "
            "kv_lora_rank, q_lora_rank, qk_rope_head_dim, n_routed_experts, "
            "num_experts_per_tok, moe_intermediate_size, first_k_dense_replace = 1, "
            "max_position_embeddings = 163840; 236B parameters in total, 21B activated per "
            "token (abstract)",
            n_params=236_000_000_000, active_params=21_000_000_000, max_positions=163840,
            n_experts=160, experts_per_token=6,
            expert_params=59 * 3 * 5120 * 1536,  # SwiGLU experts in 59 MoE layers
        ),
    )
}

# Open-weight models of 2025 (and Llama 3.1's larger sizes): the numbers that set the KV cache,
# from each model's config.json. Kept apart from PRESETS, which lesson 10 lists and asserts as
# it is; the lesson 10 explorer offers both (ALL_PRESETS).
PRESETS_2025: dict[str, ModelConfig] = {
    c.name: c
    for c in (
        ModelConfig(
            "Llama-3.1-70B", n_layers=80, n_heads=64, n_kv_heads=8, d_model=8192, d_head=128,
            source="https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json: "
            "num_hidden_layers = 80, num_attention_heads = 64, num_key_value_heads = 8, "
            "hidden_size = 8192 (d_head = 8192 / 64), intermediate_size = 28672, vocab_size "
            "128256, max_position_embeddings = 131072, rope_scaling 'llama3' as the 8B's; "
            "70,553,706,496 parameters counted from these shapes (untied embedding)",
            n_params=70_553_706_496, max_positions=131072, d_ff=28672, ffn_matrices=3,
        ),
        ModelConfig(
            "Llama-3.1-405B", n_layers=126, n_heads=128, n_kv_heads=8, d_model=16384,
            d_head=128,
            source="https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json: "
            "num_hidden_layers = 126, num_attention_heads = 128, num_key_value_heads = 8, "
            "hidden_size = 16384, intermediate_size = 53248, vocab_size 128256, "
            "max_position_embeddings = 131072; the same in Grattafiori et al. 2024, "
            "https://arxiv.org/abs/2407.21783 Table 3; 405,853,388,800 parameters counted "
            "from these shapes",
            n_params=405_853_388_800, max_positions=131072, d_ff=53248, ffn_matrices=3,
        ),
        ModelConfig(
            "Qwen3-8B", n_layers=36, n_heads=32, n_kv_heads=8, d_model=4096, d_head=128,
            source="https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json: "
            "num_hidden_layers = 36, num_attention_heads = 32, num_key_value_heads = 8, "
            "head_dim = 128, hidden_size = 4096, intermediate_size = 12288, vocab_size "
            "151936 (untied), max_position_embeddings = 40960, sliding_window null; "
            "8,190,735,360 parameters counted from these shapes (with QK-norm weights), "
            "8.2B on the model card",
            n_params=8_190_735_360, max_positions=40960, d_ff=12288, ffn_matrices=3,
        ),
        ModelConfig(
            "Qwen3-32B", n_layers=64, n_heads=64, n_kv_heads=8, d_model=5120, d_head=128,
            source="https://huggingface.co/Qwen/Qwen3-32B/blob/main/config.json: "
            "num_hidden_layers = 64, num_attention_heads = 64, num_key_value_heads = 8, "
            "head_dim = 128 (64 · 128 = 8192 > hidden_size = 5120), intermediate_size = "
            "25600, vocab_size 151936, max_position_embeddings = 40960; 32,762,123,264 "
            "parameters counted from these shapes, 32.8B on the model card",
            n_params=32_762_123_264, max_positions=40960, d_ff=25600, ffn_matrices=3,
        ),
        ModelConfig(
            "Qwen3-235B-A22B", n_layers=94, n_heads=64, n_kv_heads=4, d_model=4096,
            d_head=128,
            source="https://huggingface.co/Qwen/Qwen3-235B-A22B/blob/main/config.json: "
            "num_hidden_layers = 94, num_attention_heads = 64, num_key_value_heads = 4, "
            "head_dim = 128, hidden_size = 4096, num_experts = 128, num_experts_per_tok = 8, "
            "moe_intermediate_size = 1536, every layer MoE (decoder_sparse_step 1); "
            "235B parameters in total and 22B activated (model card)",
            n_params=235_000_000_000, active_params=22_000_000_000,
            n_experts=128, experts_per_token=8,
            expert_params=94 * 3 * 4096 * 1536,  # SwiGLU experts in all 94 layers
        ),
        ModelConfig(
            "Gemma-3-27B", n_layers=62, n_heads=32, n_kv_heads=16, d_model=5376, d_head=128,
            window=1024, global_layers=10,
            source="https://huggingface.co/google/gemma-3-27b-it/blob/main/config.json "
            "text_config: num_hidden_layers = 62, num_attention_heads = 32, "
            "num_key_value_heads = 16, head_dim = 128, hidden_size = 5376, intermediate_size "
            "= 21504, sliding_window = 1024, sliding_window_pattern = 6: layer i is global "
            "when (i + 1) % 6 == 0 (transformers' Gemma3TextConfig), so 10 global and 52 "
            "local layers, 5 local to 1 global (Gemma Team 2025, "
            "https://arxiv.org/abs/2503.19786 §2); a 128K-token context (model card); "
            "27B parameters (the published size)",
            n_params=27_000_000_000, max_positions=131072, d_ff=21504, ffn_matrices=3,
        ),
        ModelConfig(
            "gpt-oss-20b", n_layers=24, n_heads=64, n_kv_heads=8, d_model=2880, d_head=64,
            window=128, global_layers=12,
            source="https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json: "
            "num_hidden_layers = 24, layer_types alternating sliding_attention, "
            "full_attention (12 of each), sliding_window = 128, num_attention_heads = 64, "
            "num_key_value_heads = 8, head_dim = 64 (64 · 64 = 4096 > hidden_size = 2880), "
            "num_local_experts = 32, experts_per_token = 4, intermediate_size = 2880, "
            "max_position_embeddings = 131072; each head also has a learned attention sink "
            "(a logit, nothing cached); 20.9B parameters, 3.6B active (OpenAI 2025, "
            "https://arxiv.org/abs/2508.10925)",
            n_params=20_900_000_000, active_params=3_600_000_000, max_positions=131072,
            n_experts=32, experts_per_token=4,
            # gate_up (2880 x 2·2880) and down (2880 x 2880) with biases, in all 24 layers
            expert_params=24 * (3 * 2880 * 2880 + 3 * 2880),
        ),
        ModelConfig(
            "gpt-oss-120b", n_layers=36, n_heads=64, n_kv_heads=8, d_model=2880, d_head=64,
            window=128, global_layers=18,
            source="https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json: "
            "num_hidden_layers = 36, layer_types alternating sliding_attention, "
            "full_attention (18 of each), sliding_window = 128, num_attention_heads = 64, "
            "num_key_value_heads = 8, head_dim = 64, num_local_experts = 128, "
            "experts_per_token = 4, intermediate_size = 2880, max_position_embeddings = "
            "131072; learned attention sinks; 116.8B parameters, 5.1B active (OpenAI 2025, "
            "https://arxiv.org/abs/2508.10925)",
            n_params=116_800_000_000, active_params=5_100_000_000, max_positions=131072,
            n_experts=128, experts_per_token=4,
            expert_params=36 * (3 * 2880 * 2880 + 3 * 2880),
        ),
        ModelConfig(
            "DeepSeek-V3", n_layers=61, n_heads=128, n_kv_heads=128, d_model=7168,
            d_head=128, kv_latent=512, rope_head_dim=64, q_latent=1536,
            source="https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json: "
            "num_hidden_layers = 61, num_attention_heads = 128, hidden_size = 7168, "
            "kv_lora_rank = 512, qk_rope_head_dim = 64, q_lora_rank = 1536, "
            "qk_nope_head_dim = 128, v_head_dim = 128, n_routed_experts = 256, "
            "num_experts_per_tok = 8, moe_intermediate_size = 2048, first_k_dense_replace "
            "= 3, intermediate_size = 18432, max_position_embeddings = 163840; 671B "
            "parameters, 37B activated per token (DeepSeek-AI 2024, "
            "https://arxiv.org/abs/2412.19437 abstract)",
            n_params=671_000_000_000, active_params=37_000_000_000, max_positions=163840,
            d_ff=18432, ffn_matrices=3, n_experts=256, experts_per_token=8,
            expert_params=58 * 3 * 7168 * 2048,  # SwiGLU experts in the 58 MoE layers
        ),
    )
}


ALL_PRESETS: dict[str, ModelConfig] = {**PRESETS, **PRESETS_2025}


def as_config(config) -> ModelConfig:
    """A ModelConfig, or a dict with ModelConfig's keys (name and source may be left out)."""
    if isinstance(config, ModelConfig):
        return config
    if not isinstance(config, dict):
        raise ValueError(
            f"config must be a ModelConfig or a dict of its fields; got {type(config).__name__}"
        )
    known = {f.name for f in fields(ModelConfig)}
    unknown = sorted(set(config) - known)
    if unknown:
        raise ValueError(f"config has unknown keys {unknown}; the keys are {sorted(known)}")
    required = ("n_layers", "n_heads", "n_kv_heads", "d_model", "d_head")
    missing = [key for key in required if key not in config]
    if missing:
        raise ValueError(f"config is missing {missing}; it needs {list(required)}")
    return ModelConfig(**{"name": "(dict)", **config})


def _bytes(bytes_per_value) -> float:
    if isinstance(bytes_per_value, bool) or not isinstance(bytes_per_value, numbers.Real) \
            or not bytes_per_value > 0:
        raise ValueError(
            f"bytes_per_value must be a positive number (2 for bf16/fp16, 4 for float32); "
            f"got {bytes_per_value!r}"
        )
    return bytes_per_value


def kv_values_per_token(config) -> int:
    """Numbers one cached position holds over all layers."""
    c = as_config(config)
    if c.is_mla:
        return (c.kv_latent + c.rope_head_dim) * c.n_layers  # one latent + one RoPE key
    return 2 * c.n_layers * c.n_kv_heads * c.d_head  # a key and a value per kv head


def kv_bytes_per_token(config, bytes_per_value=2) -> int:
    """Bytes of KV cache one position costs, over all layers."""
    return int(kv_values_per_token(config) * _bytes(bytes_per_value))


def kv_cache_bytes(config, T: int, batch: int = 1, bytes_per_value=2) -> int:
    """Bytes of KV cache for `batch` sequences of T tokens: a windowed layer keeps min(T,
    window) positions, a global one all T (`windowed_layers`)."""
    c = as_config(config)
    T, batch = _whole("T", T, least=0), _whole("batch", batch)
    per_layer = kv_values_per_token(c) // c.n_layers  # numbers one position costs in one layer
    local = windowed_layers(c)
    kept = local * min(T, c.window or T) + (c.n_layers - local) * T  # positions, over layers
    return int(per_layer * kept * batch * _bytes(bytes_per_value))


def windowed_layers(config) -> int:
    """How many layers keep only the last `window` positions: 0 without a window, all of them
    when global_layers is None, else n_layers - global_layers."""
    c = as_config(config)
    if c.window is None:
        return 0
    return c.n_layers - (c.global_layers or 0)


def local_global_kv_cache(config, T: int, batch: int = 1, bytes_per_value=2) -> dict:
    """The KV cache of a model whose layers interleave sliding-window and full attention,
    against the same model with every layer global (no window).

    Returns {"local_layers", "global_layers", "interleaved" (bytes, as published),
    "all_global" (bytes), "fraction" (interleaved / all_global; 1.0 at T = 0)}.
    """
    c = as_config(config)
    interleaved = kv_cache_bytes(c, T, batch, bytes_per_value)
    all_global = kv_cache_bytes(replace(c, window=None, global_layers=None), T, batch,
                                bytes_per_value)
    local = windowed_layers(c)
    return {"local_layers": local, "global_layers": c.n_layers - local,
            "interleaved": interleaved, "all_global": all_global,
            "fraction": interleaved / all_global if all_global else 1.0}
