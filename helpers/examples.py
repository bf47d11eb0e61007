"""The small worked examples the lessons and their checks share.

WORKED_X, WQ, WK, WV: lesson 02's single-head program, three tokens read as 我 爱 你, with
d_model = 4 and d_k = d_v = 2; projections written by hand so every number can be followed
on paper.
"""

import numpy as np

TOKENS = ["我", "爱", "你"]

WORKED_X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])  # (3, 4)
WQ = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.0], [0.0, 0.5]])  # (d_model, d_k) = (4, 2)
WK = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.5], [0.5, 0.0]])  # (4, 2)
WV = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])  # (d_model, d_v) = (4, 2)
