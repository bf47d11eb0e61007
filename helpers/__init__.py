"""Shared code of the attention course: one reference implementation per idea.

Modules: attention, masks, plots, checks (exercise checks), exercises (the generator of
exercises/ from solutions/), benchmark.
"""
