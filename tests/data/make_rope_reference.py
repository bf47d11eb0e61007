"""Writes tests/data/rope_reference.json: RoPE frequencies from Hugging Face transformers itself.

Run once, in a private venv that has transformers (the course does not need it):
    python3 -m venv /tmp/l10venv
    /tmp/l10venv/bin/pip install torch==2.13.0 transformers
    /tmp/l10venv/bin/python tests/data/make_rope_reference.py > tests/data/rope_reference.json
tests/test_rope_scaling.py compares helpers.rope_scaling against the stored numbers.
"""

import json
import sys

import torch
import transformers
from transformers import LlamaConfig
from transformers.modeling_rope_utils import (
    _compute_dynamic_ntk_parameters,
    _compute_llama3_parameters,
)

# Llama-3.1-8B's config.json: head_dim 4096 / 32 = 128, rope_theta 500000 and its rope_scaling
LLAMA31 = dict(hidden_size=4096, num_attention_heads=32, num_key_value_heads=8,
               max_position_embeddings=131072,
               rope_parameters=dict(rope_type="llama3", rope_theta=500000.0, factor=8.0,
                                    low_freq_factor=1.0, high_freq_factor=4.0,
                                    original_max_position_embeddings=8192))
# dynamic NTK on a Llama-2-7B-like config: head_dim 128, base 10000, trained on 4096 positions
DYNAMIC = dict(hidden_size=4096, num_attention_heads=32, max_position_embeddings=4096,
               rope_parameters=dict(rope_type="dynamic", rope_theta=10000.0, factor=4.0))
DYNAMIC_SEQ_LENS = (1000, 4096, 8192, 16384, 32768)


def main():
    llama3, _ = _compute_llama3_parameters(LlamaConfig(**LLAMA31), device="cpu")
    dynamic = {}
    for seq_len in DYNAMIC_SEQ_LENS:
        inv_freq, _ = _compute_dynamic_ntk_parameters(LlamaConfig(**DYNAMIC), device="cpu",
                                                      seq_len=seq_len)
        dynamic[str(seq_len)] = inv_freq.tolist()
    json.dump({
        "command": "/tmp/l10venv/bin/python tests/data/make_rope_reference.py "
                   "> tests/data/rope_reference.json",
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "dtype": str(llama3.dtype),
        "llama3": {"config": LLAMA31, "inv_freq": llama3.tolist()},
        "dynamic_ntk": {"config": DYNAMIC, "inv_freq_by_seq_len": dynamic},
    }, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
