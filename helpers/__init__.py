"""Shared code of the attention course: one reference implementation per idea.

The course library, what lessons import: attention, masks, scaling, heads, positions, blocks,
model (a tiny decoder-only language model), streaming, plots, widgets, examples (shared worked
examples); for lesson 10 gqa (grouped-query attention), llama (a tiny Llama), latent
(DeepSeek-V2's latent attention), configs (published model shapes, KV-cache bytes),
rope_scaling, roofline, stabilisers (soft-capping, QK-norm), sinks (learned attention sinks),
paged (PagedAttention's block tables) and kv_quant (int8 and fp8 caches); for lesson 11
induction (an attention-only model and its heads); pretrained (the shipped weights, checked
against their checksums); and checks (the exercise checks, one module per lesson).
The course machinery lives apart, in helpers.grade: the grading command and its plugin, the
bridge to the student's kernel, exercise generation, the notebook runner, training the
shipped models, the benchmark.
"""
