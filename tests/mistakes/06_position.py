"""Named wrong answers for solutions/06_position.ipynb; tests/test_mistakes.py runs them."""

MISTAKES = [
    # Exercise 1: a permutation-equivariance test
    dict(exercise="ex1", kind="never fires (always True)", expect="never fires",
         id="position.equivariance-never-fires",
         code='''def is_permutation_equivariant(attend, x):
    return True
'''),
    dict(exercise="ex1", kind="always fires (always False)", expect="always fires",
         id="position.equivariance-always-fires",
         code='''def is_permutation_equivariant(attend, x):
    return False
'''),
    dict(exercise="ex1", kind="only the identity order", expect="never fires",
         id="position.equivariance-never-fires",
         code='''def is_permutation_equivariant(attend, x):
    return bool(np.allclose(attend(x), attend(x)))
'''),
    dict(exercise="ex1", kind="outputs not reordered", expect="not attend(x) as it is",
         id="position.equivariance-always-fires",
         code='''def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        if not np.allclose(attend(x[list(order)]), base):
            return False
    return True
'''),
    dict(exercise="ex1", kind="outputs reordered by the inverse order", expect="inverse order",
         id="position.equivariance-always-fires",
         code='''def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = list(order)
        if not np.allclose(attend(x[order]), base[np.argsort(order)]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="exact equality instead of allclose", expect="np.allclose",
         id="position.equivariance-false-alarm",
         code='''def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = list(order)
        if not np.array_equal(attend(x[order]), base[order]):
            return False
    return True
'''),
    dict(exercise="ex1", kind="only the reversal", expect="reversing the sequence",
         id="position.equivariance-missed",
         code='''def is_permutation_equivariant(attend, x):
    return bool(np.allclose(attend(x[::-1]), attend(x)[::-1]))
'''),
    dict(exercise="ex1", kind="only a cyclic shift", expect="cyclic shift",
         id="position.equivariance-missed",
         code='''def is_permutation_equivariant(attend, x):
    return bool(np.allclose(attend(np.roll(x, 1, axis=0)), np.roll(attend(x), 1, axis=0)))
'''),
    dict(exercise="ex1", kind="reversal and cyclic shifts only", expect="distance around a ring",
         id="position.equivariance-missed",
         code='''def is_permutation_equivariant(attend, x):
    T, base = len(x), attend(x)
    orders = [list(range(T))[::-1]] + [list(np.roll(range(T), s)) for s in range(1, T)]
    return all(np.allclose(attend(x[order]), base[order]) for order in orders)
'''),
    dict(exercise="ex1", kind="only swaps of the last two tokens", expect="row 0",
         id="position.equivariance-missed",
         code='''def is_permutation_equivariant(attend, x):
    order = list(range(len(x)))
    order[-2], order[-1] = order[-1], order[-2]
    return bool(np.allclose(attend(x[order]), attend(x)[order]))
'''),
    dict(exercise="ex1", kind="returns a number", expect="return True or False",
         id="position.equivariance-not-bool",
         code='''def is_permutation_equivariant(attend, x):
    order = [2, 0, 1, 3]
    return np.abs(attend(x[order]) - attend(x)[order]).max()
'''),
    dict(exercise="ex1", kind="only the first two tokens swapped", expect="last token in place",
         id="position.equivariance-missed",
         code='''def is_permutation_equivariant(attend, x):
    order = list(range(len(x)))
    order[0], order[1] = 1, 0
    return bool(np.allclose(attend(x[order]), attend(x)[order]))
'''),
    dict(exercise="ex1", kind="reorders x in place", expect="changed its argument",
         id="generic.input-modified",
         code='''def is_permutation_equivariant(attend, x):
    base = attend(x)
    for order in itertools.permutations(range(len(x))):
        order = list(order)
        x[:] = x[order]
        if not np.allclose(attend(x), base[order]):
            return False
        x[:] = x[np.argsort(order)]
    return True
'''),
    # Exercise 2: the sinusoidal encoding
    dict(exercise="ex2", kind="sin and cos swapped", expect="swapped",
         id="position.sin-cos-swapped",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.cos(angle)
    pe[:, 1::2] = np.sin(angle)
    return pe
'''),
    dict(exercise="ex2", kind="exponent i/d (the 2 dropped)", expect="wrong exponent",
         id="position.sinusoidal-exponent-i",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(d_model // 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="exponent j/d per column", expect="wrong exponent for the cos",
         id="position.sinusoidal-exponent-per-column",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(d_model) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle[:, 0::2])
    pe[:, 1::2] = np.cos(angle[:, 1::2])
    return pe
'''),
    dict(exercise="ex2", kind="multiplied instead of divided", expect="instead of dividing",
         id="position.sinusoidal-multiplied",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] * 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="sines then cosines (halves)", expect="interleaves",
         id="position.sinusoidal-halves",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
'''),
    dict(exercise="ex2", kind="positions from 1", expect="positions start at 1",
         id="position.positions-from-1",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(1, T + 1)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="transposed (d_model, T)", expect="one row per position",
         id="position.transposed",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe.T
'''),
    dict(exercise="ex2", kind="calls sinusoidal_encoding", expect="build the encoding yourself",
         id="rule.forbidden-call",
         code='''def my_sinusoidal(T, d_model):
    return sinusoidal_encoding(T, d_model)
'''),
    dict(exercise="ex2", kind="base 1000", expect="wrong base", id="position.sinusoidal-base-1000",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 1000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="base 300 (unlisted)", expect="turns by",
         id="position.sinusoidal-frequency",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 300 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="floor division for the angle (unlisted)", expect="turns by",
         id="position.sinusoidal-frequency",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] // 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex2", kind="cos of a doubled angle (unlisted)",
         expect="not the sin and cos of one", id="position.sinusoidal-pair-angle",
         code='''def my_sinusoidal(T, d_model):
    angle = np.arange(T)[:, None] / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(2 * angle)
    return pe
'''),
    # Exercise 3: RoPE
    dict(exercise="ex3", kind="wrong frequency base^(i/d)", expect="wrong frequency",
         id="position.rope-exponent-i",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(d // 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="frequencies growing", expect="frequencies grow",
         id="position.rope-frequencies-grow",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="sin sign flipped (rotates by -theta)", expect="you rotate by -theta",
         id="position.rope-sign",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) + x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = -x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="halves instead of interleaved pairs", expect="paired the halves",
         id="position.rope-halves",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, : d // 2], x[:, d // 2:]
    return np.concatenate([x1 * np.cos(angle) - x2 * np.sin(angle),
                           x1 * np.sin(angle) + x2 * np.cos(angle)], axis=1)
'''),
    dict(exercise="ex3", kind="pairs written back as halves", expect="wrote them back",
         id="position.rope-written-back-as-halves",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    return np.concatenate([x1 * np.cos(angle) - x2 * np.sin(angle),
                           x1 * np.sin(angle) + x2 * np.cos(angle)], axis=1)
'''),
    dict(exercise="ex3", kind="positions from 1", expect="positions start at 1",
         id="position.positions-from-1",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(1, T + 1)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="one speed for every pair", expect="same speed",
         id="position.rope-one-speed",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * np.ones(d // 2)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="cos on both terms (not a rotation)", expect="not a rotation",
         id="position.rope-pair-length",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.cos(angle) + x[:, 1::2] * np.sin(angle)
    return out
'''),
    dict(exercise="ex3", kind="sinusoidal added instead of rotating", expect="not a rotation",
         id="position.rope-pair-length",
         code='''def my_rope(x):
    return x + sinusoidal_encoding(*x.shape)
'''),
    dict(exercise="ex3", kind="angle accumulated row after row", expect="relative-offset check",
         id="position.rope-relative-offset",
         code='''def my_rope(x):
    T, d = x.shape
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    angle = np.zeros(d // 2)
    for m in range(T):
        angle = angle + m * theta          # row m turns by (0 + 1 + ... + m) * theta
        c, s = np.cos(angle), np.sin(angle)
        out[m, 0::2] = x[m, 0::2] * c - x[m, 1::2] * s
        out[m, 1::2] = x[m, 0::2] * s + x[m, 1::2] * c
    return out
'''),
    dict(exercise="ex3", kind="calls apply_rope", expect="write the rotation yourself",
         id="rule.forbidden-call",
         code='''def my_rope(x):
    return apply_rope(x)
'''),
    dict(exercise="ex3", kind="base 500 (unlisted)", expect="turns by",
         id="position.rope-frequency",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 500.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise="ex3", kind="pairs (2i+1, 2i+2) (unlisted)", expect="not a rotation of the pairs",
         id="position.rope-pair-length",
         code='''def my_rope(x):
    T, d = x.shape
    x = np.roll(x, -1, axis=1)
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return np.roll(out, 1, axis=1)
'''),
    dict(exercise="ex3", kind="positions counted from the end (unlisted)", expect="row 0 changed",
         id="position.rope-position-0",
         code='''def my_rope(x):
    T, d = x.shape
    angle = np.arange(T - 1, -1, -1)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    out = np.empty_like(x)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out
'''),
    # Exercise 4: attention with RoPE, q and k but not v
    dict(exercise="ex4", kind="rotating v as well", expect="rotated v as well",
         id="position.rope-rotated-v",
         code='''def rope_attention(q, k, v, positions):
    q, k, v = (apply_rope(t, positions=positions) for t in (q, k, v))
    return attention(q, k, v)
'''),
    dict(exercise="ex4", kind="rotating only q", expect="rotated q but not k",
         id="position.rope-q-only",
         code='''def rope_attention(q, k, v, positions):
    return attention(apply_rope(q, positions=positions), k, v)
'''),
    dict(exercise="ex4", kind="no rotation at all", expect="no position at all",
         id="position.rope-none",
         code='''def rope_attention(q, k, v, positions):
    return attention(q, k, v)
'''),
    dict(exercise="ex4", kind="positions ignored", expect="ignored `positions`",
         id="position.rope-positions-ignored",
         code='''def rope_attention(q, k, v, positions):
    return attention(apply_rope(q), apply_rope(k), v)
'''),
    dict(exercise="ex4", kind="output depends on absolute position", expect="shifts by 100",
         id="position.rope-absolute-position",
         code='''def rope_attention(q, k, v, positions):
    q, k = apply_rope(q, positions=positions), apply_rope(k, positions=positions)
    out, weights = attention(q, k, v)
    if positions[0] != 0:
        out = out + 0.01 * positions[:, None]
    return out, weights
'''),
    dict(exercise="ex4", kind="returns (weights, out)", expect="(weights, out)",
         id="position.rope-attention-order",
         code='''def rope_attention(q, k, v, positions):
    out, weights = attention(apply_rope(q, positions=positions),
                             apply_rope(k, positions=positions), v)
    return weights, out
'''),
    dict(exercise="ex4", kind="scores by hand without the scale", expect="forgot the scale",
         id="position.rope-unscaled",
         code='''def rope_attention(q, k, v, positions):
    q, k = apply_rope(q, positions=positions), apply_rope(k, positions=positions)
    s = q @ k.T
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w
'''),
    dict(exercise="ex4", kind="weights not normalised (unlisted)", expect="each row must sum to 1",
         id="position.rope-weights-not-a-distribution",
         code='''def rope_attention(q, k, v, positions):
    q, k = apply_rope(q, positions=positions), apply_rope(k, positions=positions)
    s = q @ k.T / np.sqrt(q.shape[-1])
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    return w @ v, w
'''),
    dict(exercise="ex4", kind="v scaled (unlisted)", expect="v was changed",
         id="position.rope-v-changed",
         code='''def rope_attention(q, k, v, positions):
    q, k = apply_rope(q, positions=positions), apply_rope(k, positions=positions)
    return attention(q, k, v / np.sqrt(v.shape[-1]))
'''),
    dict(exercise="ex4", kind="sinusoidal added instead of rotating (unlisted)",
         expect="it adds nothing", id="position.rope-adds",
         code='''def rope_attention(q, k, v, positions):
    T, d = q.shape
    pe = sinusoidal_encoding(int(max(positions)) + 1, d)[positions]
    return attention(q + pe, k + pe, v)
'''),
    # Exercise 5: the ALiBi bias
    dict(exercise="ex5", kind="wrong sign (rewards distance)", expect="rewards distance",
         id="position.alibi-rewards-distance",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return slopes[:, None, None] * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="slopes 2^(-h)", expect="wrong slope sequence",
         id="position.alibi-slopes-2-to-minus-h",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** -np.arange(1, n_heads + 1)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="heads counted from 0", expect="count from 1, h = 1..H",
         id="position.alibi-heads-from-0",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(n_heads) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="slopes reversed", expect="run backwards",
         id="position.alibi-slopes-reversed",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(n_heads, 0, -1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="no slope", expect="no slope", id="position.alibi-no-slope",
         code='''def my_alibi_bias(n_heads, T):
    i, j = np.indices((T, T))
    return -np.ones((n_heads, 1, 1)) * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="bias on the future (transposed)", expect="future keys",
         id="position.alibi-on-the-future",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(j - i, 0)
'''),
    dict(exercise="ex5", kind="symmetric |i - j|", expect="symmetric variant",
         id="position.alibi-symmetric",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.abs(i - j)
'''),
    dict(exercise="ex5", kind="one bias for all heads (T, T)",
         expect="one (T_q, T_k) bias per head", id="position.alibi-one-head",
         code='''def my_alibi_bias(n_heads, T):
    i, j = np.indices((T, T))
    return -0.5 * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="calls alibi_bias",
         expect="build the slopes and the distances yourself", id="rule.forbidden-call",
         code='''from helpers.positions import alibi_bias


def my_alibi_bias(n_heads, T):
    return alibi_bias(n_heads, T)
'''),
    dict(exercise="ex5", kind="slopes 2^(-8/h)", expect="you used -8/h",
         id="position.alibi-slope-8-over-h",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 / np.arange(1, n_heads + 1))
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="slopes halving from 8/H (unlisted)",
         expect="the slope of head index", id="position.alibi-slopes",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 8 / n_heads * 0.5 ** np.arange(1, n_heads + 1)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(i - j, 0)
'''),
    dict(exercise="ex5", kind="distance off by one (unlisted)", expect="the diagonal is 0",
         id="position.alibi-diagonal",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.where(j <= i, i - j + 1, 0)
'''),
    dict(exercise="ex5", kind="causal mask baked in as -inf", expect="mask baked into the bias",
         id="position.alibi-mask-in-bias",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return np.where(j <= i, -slopes[:, None, None] * (i - j), -np.inf)
'''),
    dict(exercise="ex5", kind="squared distance (unlisted)",
         expect="not proportional to the distance", id="position.alibi-not-linear",
         code='''def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.maximum(i - j, 0) ** 2
'''),
    # Held-out answers (round 2) that were passed, caught without a name, or crashed
    dict(exercise='ex1', kind='permutes the features (held-out a)',
         expect='x.shape[0]', id='position.equivariance-wrong-size',
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    n = x.shape[1]
    for order in itertools.permutations(range(n)):
        order = list(order)
        if not np.allclose(attend(x[order]), y[order]):
            return False
    return True
'''),
    dict(exercise='ex1', kind='hard-coded T = 4 (held-out a)',
         expect='hard-coded', id='position.equivariance-wrong-size',
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    for order in itertools.permutations(range(4)):
        order = list(order)
        if not np.allclose(attend(x[order]), y[order]):
            return False
    return True
'''),
    dict(exercise='ex1', kind='first row kept fixed (held-out a)',
         expect='first row', id='position.equivariance-missed',
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    """True when attend(x[order]) equals attend(x)[order] for every order of x's rows."""
    y = attend(x)
    for rest in itertools.permutations(range(1, len(x))):
        order = [0, *rest]
        if not np.allclose(attend(x[order]), y[order]):
            return False
    return True
'''),
    dict(exercise='ex2', kind='integer array (held-out a)',
         expect='integer', id='position.sinusoidal-integer-table',
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    """(T, d_model): sin on the even columns 2i, cos on the odd columns 2i+1."""
    pos = np.arange(T)[:, None]
    angle = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros_like(np.tile(pos, (1, d_model)))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise='ex3', kind='result in halves (held-out a)',
         expect='concatenated as halves', id='position.rope-written-back-as-halves',
         code='''import numpy as np


def my_rope(x):
    """x (T, d) -> x with row m's pairs (2i, 2i+1) rotated by m * 10000^(-2i/d)."""
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    r1 = x1 * np.cos(angle) - x2 * np.sin(angle)
    r2 = x1 * np.sin(angle) + x2 * np.cos(angle)
    return np.concatenate([r1, r2], axis=-1)
'''),
    dict(exercise='ex4', kind='k built from q (held-out a)',
         expect='real k is never used', id='position.rope-k-from-q',
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    q_rot = apply_rope(q, positions=positions)
    k_rot = apply_rope(q, positions=positions)
    return attention(q_rot, k_rot, v)
'''),
    dict(exercise='ex4', kind='q and k swapped in call (held-out a)',
         expect='queries and the queries as the keys', id='position.rope-q-k-swapped',
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    q = apply_rope(q, positions=positions)
    k = apply_rope(k, positions=positions)
    return attention(k, q, v)
'''),
    dict(exercise='ex4', kind='positions only for q (held-out a)',
         expect='same positions', id='position.rope-k-default-positions',
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    """(T, d) q, k, v and (T,) positions -> (out (T, d), weights (T, T)) with RoPE."""
    return attention(apply_rope(q, positions=positions), apply_rope(k), v)
'''),
    dict(exercise='ex5', kind='floor division exponent (held-out a)',
         expect='floor division', id='position.alibi-integer-exponent',
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    """(H, T, T): -slope_h * (i - j) where j <= i, 0 where j > i; slope_h = 2^(-8h/H)."""
    h = np.arange(1, n_heads + 1)
    slopes = 2.0 ** (-8 * h // n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * np.where(j <= i, i - j, 0)
'''),
    dict(exercise='ex1', kind='shape unpacked backwards (held-out b)',
         expect='x.shape[0]', id='position.equivariance-wrong-size',
         code='''import itertools

import numpy as np


def is_permutation_equivariant(attend, x):
    d, T = x.shape
    base = attend(x)
    for order in itertools.permutations(range(T)):
        order = list(order)
        if not np.allclose(attend(x[order]), base[order]):
            return False
    return True
'''),
    dict(exercise='ex2', kind='integer exponent (held-out b)',
         expect='exponent is 0', id='position.sinusoidal-integer-exponent',
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    two_i = np.arange(0, d_model, 2)
    angle = np.arange(T)[:, None] / 10000 ** (two_i // d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise='ex3', kind='rotation sign flipped (held-out b)',
         expect='sign of the sin', id='position.rope-sign',
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000 ** (-np.arange(0, d, 2) / d)
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x1 * np.cos(angle) + x2 * np.sin(angle)
    out[:, 1::2] = -x1 * np.sin(angle) + x2 * np.cos(angle)
    return out
'''),
    dict(exercise='ex3', kind='updated x1 reused (held-out b)',
         expect='overwritten', id='position.rope-overwritten',
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    angle = np.arange(T)[:, None] * 10000 ** (-np.arange(0, d, 2) / d)
    out = np.array(x, dtype=float)
    out[:, 0::2] = out[:, 0::2] * np.cos(angle) - out[:, 1::2] * np.sin(angle)
    out[:, 1::2] = out[:, 0::2] * np.sin(angle) + out[:, 1::2] * np.cos(angle)
    return out
'''),
    dict(exercise='ex3', kind='no position factor (held-out b)',
         expect='multiply by the position', id='position.rope-same-rotation',
         code='''import numpy as np


def my_rope(x):
    T, d = x.shape
    theta = 10000 ** (-np.arange(0, d, 2) / d)
    angle = np.broadcast_to(theta, (T, d // 2))
    x1, x2 = x[:, 0::2], x[:, 1::2]
    out = np.empty((T, d))
    out[:, 0::2] = x1 * np.cos(angle) - x2 * np.sin(angle)
    out[:, 1::2] = x1 * np.sin(angle) + x2 * np.cos(angle)
    return out
'''),
    dict(exercise='ex4', kind='v rotated too (held-out b)',
         expect='v rotated', id='position.rope-rotated-v',
         code='''def rope_attention(q, k, v, positions):
    q = apply_rope(q, positions=positions)
    k = apply_rope(k, positions=positions)
    v = apply_rope(v, positions=positions)
    return attention(q, k, v)
'''),
    dict(exercise='ex4', kind='only q rotated (held-out b)',
         expect='both q and k', id='position.rope-q-only',
         code='''def rope_attention(q, k, v, positions):
    return attention(apply_rope(q, positions=positions), k, v)
'''),
    dict(exercise='ex4', kind='k at default positions (held-out b)',
         expect='same positions', id='position.rope-k-default-positions',
         code='''def rope_attention(q, k, v, positions):
    q_rot = apply_rope(q, positions=positions)
    k_rot = apply_rope(k)
    return attention(q_rot, k_rot, v)
'''),
    dict(exercise='ex4', kind='unasked causal mask (held-out b)',
         expect='causal mask', id='position.rope-causal-mask',
         code='''import numpy as np


def rope_attention(q, k, v, positions):
    T = len(positions)
    mask = np.tril(np.ones((T, T), dtype=bool))
    q, k = apply_rope(q, positions=positions), apply_rope(k, positions=positions)
    return attention(q, k, v, mask)
'''),
    dict(exercise='ex5', kind='heads from 0 (held-out b)',
         expect='off by one', id='position.alibi-heads-from-0',
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8 * np.arange(n_heads) / n_heads)
    i, j = np.indices((T, T))
    dist = np.clip(i - j, 0, None)
    return -slopes[:, None, None] * dist
'''),
    # Added so that every diagnosis id of position is reached by a named wrong answer
    dict(exercise="ex2", kind="sin written in the odd columns too", expect="row 0 (position 0)",
         id="position.sinusoidal-position-0",
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    angle = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.sin(angle)
    return pe
'''),
    dict(exercise="ex2", kind="sin and cos stacked, not interleaved", expect="expected shape",
         id="position.wrong-shape",
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    angle = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.stack([np.sin(angle), np.cos(angle)], axis=-1)   # (T, d/2, 2)
'''),
    dict(exercise="ex2", kind="brackets around pos * 10000 before the power",
         expect="NaN or inf", id="position.not-finite",
         code='''import numpy as np


def my_sinusoidal(T, d_model):
    pos = np.arange(T)[:, None]
    angle = (pos * 10000.0) ** (-np.arange(0, d_model, 2) / d_model)
    pe = np.zeros((T, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
'''),
    dict(exercise="ex4", kind="rotating only k", expect="rotated k but not q",
         id="position.rope-k-only",
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    return attention(q, apply_rope(k, positions=positions), v)
'''),
    dict(exercise="ex4", kind="positions only for k", expect="q rotated at the default positions",
         id="position.rope-q-default-positions",
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    return attention(apply_rope(q), apply_rope(k, positions=positions), v)
'''),
    dict(exercise="ex4", kind="v passed where k belongs", expect="the real k is never used",
         id="position.rope-k-unused",
         code='''from helpers.positions import apply_rope


def rope_attention(q, k, v, positions):
    rq = apply_rope(q, positions=positions)
    rk = apply_rope(v, positions=positions)
    return attention(rq, rk, v)
'''),
    dict(exercise="ex5", kind="one slope for every head", expect="every head has the same slope",
         id="position.alibi-one-slope",
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slope = 2.0 ** (-8 / n_heads)
    i, j = np.indices((T, T))
    distance = np.where(j <= i, i - j, 0)
    return np.stack([-slope * distance for _ in range(n_heads)])
'''),
    dict(exercise="ex5", kind="future not set to 0", expect="are not 0",
         id="position.alibi-future",
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return -slopes[:, None, None] * (i - j)
'''),
    dict(exercise="ex5", kind="future left as NaN", expect="NaN or inf",
         id="position.alibi-not-finite",
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)
    i, j = np.indices((T, T))
    return np.where(j <= i, -slopes[:, None, None] * (i - j), np.nan)
'''),
    dict(exercise="ex5", kind="wrong sign, heads counted from 0",
         expect="some past entries are positive", id="position.alibi-sign",
         code='''import numpy as np


def my_alibi_bias(n_heads, T):
    slopes = 2.0 ** (-8.0 * np.arange(n_heads) / n_heads)
    i, j = np.indices((T, T))
    return slopes[:, None, None] * np.where(j <= i, i - j, 0)
'''),
]
