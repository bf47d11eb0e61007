"""Shared code of the attention course: one reference implementation per idea.

Concepts: attention, masks, scaling, heads, positions, blocks, model (a tiny decoder-only
language model), plots, examples (shared worked examples).
Course machinery: checks (exercise checks), exercises (generates exercises/ from solutions/),
notebooks (executes notebooks), benchmark.
"""
