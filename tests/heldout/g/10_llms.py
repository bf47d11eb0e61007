"""Held-out answers for exercises/10_llms.ipynb (set g), written from the exercise texts alone."""

WRONG = [
    # ------------------------------------------------------------------ ex6 my_llama3_frequencies
    dict(exercise="ex6", kind="thresholds swapped",
         mistake="divides original_max_len by the wrong factors: the fast pairs are those with λ < original_max_len / low_freq_factor and the slow ones λ > original_max_len / high_freq_factor, so the blend band disappears and the pairs in it are wrongly kept or divided",
         names=["high_freq_factor", "low_freq_factor", "threshold", "swapped", "fast pair", "slow pair"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    high_freq_wavelen = original_max_len / low_freq_factor
    low_freq_wavelen = original_max_len / high_freq_factor
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < high_freq_wavelen, inv_freq,
                    np.where(wavelen > low_freq_wavelen, inv_freq / factor, blended))
'''),
    dict(exercise="ex6", kind="fast and slow branches inverted",
         mistake="divides the fast pairs (short wavelengths) by factor and keeps the slow ones, the opposite of the rule",
         names=["fast pair", "slow pair", "keep", "short wavelength", "long wavelength", "divide", "inverted"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq, blended)
    out = np.where(wavelen < original_max_len / high_freq_factor, inv_freq / factor, out)
    return out
'''),
    dict(exercise="ex6", kind="blend inverted",
         mistake="weights the blend the wrong way round, smooth · θ/factor + (1 − smooth) · θ, so the ramp runs from θ at the slow end to θ/factor at the fast end and jumps at both edges",
         names=["blend", "smooth", "(1 - smooth)", "1 − smooth", "inverted", "ramp"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = smooth * inv_freq / factor + (1 - smooth) * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise="ex6", kind="multiplies by factor",
         mistake="multiplies the slow frequencies by factor instead of dividing them, which shortens their wavelengths instead of stretching them",
         names=["θ / factor", "/ factor", "divide", "multiplies", "factor"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq * factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq * factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise="ex6", kind="compares θ, not the wavelength",
         mistake="compares the frequencies θ_i themselves with the wavelength thresholds (never converting to λ = 2π/θ), so every pair counts as fast and nothing is scaled",
         names=["wavelength", "λ", "2π / θ", "2*pi", "2 * np.pi"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    out = np.empty_like(inv_freq)
    for i, theta in enumerate(inv_freq):
        if theta < original_max_len / high_freq_factor:
            out[i] = theta
        elif theta > original_max_len / low_freq_factor:
            out[i] = theta / factor
        else:
            smooth = (original_max_len / theta - low_freq_factor) / (high_freq_factor - low_freq_factor)
            out[i] = (1 - smooth) * theta / factor + smooth * theta
    return out
'''),
    dict(exercise="ex6", kind="smooth with λ / L",
         mistake="computes smooth from λ_i / original_max_len instead of original_max_len / λ_i, so the blend band gets the wrong weights",
         names=["smooth", "original_max_len / λ", "turns", "ratio", "blend"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (wavelen / original_max_len - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise="ex6", kind="changes inv_freq in place",
         mistake="scales inv_freq in place and returns it, so the caller's array is changed",
         names=["in place", "changed", "modif", "copy", "inv_freq", "mutat"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    slow = wavelen > original_max_len / low_freq_factor
    mid = (wavelen >= original_max_len / high_freq_factor) & ~slow
    smooth = (original_max_len / wavelen[mid] - low_freq_factor) / (high_freq_factor - low_freq_factor)
    inv_freq[mid] = (1 - smooth) * inv_freq[mid] / factor + smooth * inv_freq[mid]
    inv_freq[slow] /= factor
    return inv_freq
'''),
    dict(exercise="ex6", kind="wavelength without 2π",
         mistake="takes the wavelength as 1/θ_i, forgetting the 2π, so every threshold sits at the wrong pair",
         names=["2π", "2*pi", "2 * np.pi", "wavelength", "λ"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 1.0 / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise="ex6", kind="slow branch forgotten",
         mistake="handles only the fast pairs and the blend, so the slow pairs (λ > original_max_len / low_freq_factor) get the blend formula with a negative smooth instead of θ / factor",
         names=["slow pair", "θ / factor", "/ factor", "low_freq_factor", "negative", "blend"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, blended)
'''),
    dict(exercise="ex6", kind="blend everywhere, smooth not clipped",
         mistake="applies the blend formula to every pair with smooth unclipped, so the fast pairs are extrapolated past θ and the slow ones past θ / factor",
         names=["clip", "smooth", "between 0 and 1", "fast pair", "slow pair", "extrapolat"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    return (1 - smooth) * inv_freq / factor + smooth * inv_freq
'''),
    dict(exercise="ex6", kind="returns a list",
         mistake="builds the result with a list comprehension and returns a Python list instead of a NumPy array",
         names=["numpy array", "np.ndarray", "list", "array"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    def one(theta):
        wavelen = 2 * math.pi / theta
        if wavelen < original_max_len / high_freq_factor:
            return theta
        if wavelen > original_max_len / low_freq_factor:
            return theta / factor
        smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
        return (1 - smooth) * theta / factor + smooth * theta
    return [one(float(t)) for t in inv_freq]
'''),
    dict(exercise="ex6", kind="hard-coded defaults",
         mistake="hard-codes the shipped values (2048 and 8192 wavelength thresholds, a ramp over 3) and ignores the original_max_len, low_freq_factor and high_freq_factor arguments",
         names=["original_max_len", "low_freq_factor", "high_freq_factor", "hard-coded", "argument", "8192"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (8192 / wavelen - 1) / 3
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > 8192, inv_freq / factor, blended)
    return np.where(wavelen < 2048, inv_freq, out)
'''),
    dict(exercise="ex6", kind="calls the helper",
         mistake="calls helpers.rope_scaling (llama3_inv_frequencies), which the exercise forbids, rebuilding d and base from inv_freq",
         names=["helpers.rope_scaling", "rope_scaling", "llama3_inv_frequencies", "helper", "forbidden", "do not call"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    from helpers import rope_scaling
    d = 2 * len(inv_freq)
    base = float(inv_freq[1]) ** (-d / 2)
    return rope_scaling.llama3_inv_frequencies(d, factor=factor, original_max_len=original_max_len, base=base,
                                               low_freq_factor=low_freq_factor, high_freq_factor=high_freq_factor)
'''),

    # ------------------------------------------------------------------ ex7 my_slot_of / my_gather_keys
    dict(exercise="ex7", kind="my_slot_of ignores the block table",
         mistake="my_slot_of returns the logical position itself (logical block × block_size + offset), never looking up the physical block in the block table",
         names=["block table", "block_table[", "physical block", "logical", "look up"],
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0 or position >= len(block_table) * block_size:
        raise IndexError(position)
    return (position // block_size) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="forgets × block_size",
         mistake="my_slot_of adds the offset to the physical block number without multiplying it by block_size",
         names=["× block_size", "* block_size", "block_size", "physical block ×", "multipl"],
         code='''def my_slot_of(block_table, block_size, position):
    b = position // block_size
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="// and % swapped",
         mistake="my_slot_of takes the logical block as position % block_size and the offset as position // block_size, the other way round",
         names=["position // block_size", "position % block_size", "offset", "logical block", "swapped"],
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0 or position >= len(block_table) * block_size:
        raise IndexError(position)
    block = block_table[position % block_size]
    offset = position // block_size
    return int(block) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="ceil for the logical block",
         mistake="my_slot_of finds the logical block with math.ceil(position / block_size), an off-by-one that puts every position but the first of a block in the next block",
         names=["floor", "//", "ceil", "off by one", "off-by-one", "logical block"],
         code='''def my_slot_of(block_table, block_size, position):
    b = math.ceil(position / block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="ValueError instead of IndexError",
         mistake="my_slot_of raises ValueError (not IndexError) when the table has no block for the position",
         names=["indexerror", "raise", "no block", "valueerror"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise ValueError(f"no block for position {position}")
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="returns (block, offset)",
         mistake="my_slot_of returns the pair (physical block, offset) instead of the single slot physical block × block_size + offset",
         names=["int", "slot", "tuple", "physical block × block_size + offset", "single"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]), off


def my_gather_keys(k_pool, block_table, block_size, length):
    rows = []
    for p in range(length):
        block, off = my_slot_of(block_table, block_size, p)
        rows.append(k_pool[block * block_size + off])
    return torch.stack(rows) if rows else k_pool[:0]
'''),
    dict(exercise="ex7", kind="negative positions wrap",
         mistake="my_slot_of checks only the upper end, so a negative position silently indexes the block table from the end instead of raising IndexError",
         names=["negative", "indexerror", "position < 0", "no block"],
         code='''def my_slot_of(block_table, block_size, position):
    if position >= len(block_table) * block_size:
        raise IndexError(position)
    return int(block_table[position // block_size]) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="returns a NumPy integer",
         mistake="my_slot_of uses np.divmod and the table entry as they are, so it returns a NumPy integer (or a tensor when the table is one) rather than a Python int",
         names=["int", "python int", "numpy", "type", "np.int64"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = np.divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return block_table[b] * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [int(my_slot_of(block_table, block_size, p)) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="gather assumes a contiguous pool",
         mistake="my_gather_keys returns k_pool[:length], as if the sequence's blocks were the pool's first blocks in order, ignoring the block table",
         names=["block table", "physical", "k_pool[:length]", "contiguous", "logical order", "my_slot_of"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    return k_pool[:length]
'''),
    dict(exercise="ex7", kind="gather keeps whole blocks",
         mistake="my_gather_keys gathers every slot of every block in the table and never cuts the result to the first length keys, so the unused slots of the last block (and any later blocks) are returned too",
         names=["length", "[:length]", "partial", "last block", "shape", "(length, d)"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    d = k_pool.shape[-1]
    blocks = k_pool.reshape(-1, block_size, d)
    table = torch.as_tensor(list(block_table), dtype=torch.long)
    return blocks[table].reshape(-1, d)
'''),
    dict(exercise="ex7", kind="pool reshaped slot-major",
         mistake="my_gather_keys views the pool as (block_size, n_blocks, d) instead of (n_blocks, block_size, d), so a block's keys are taken with a stride of n_blocks",
         names=["reshape", "view", "(n_blocks, block_size, d)", "block-major", "slot"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    d = k_pool.shape[-1]
    blocks = k_pool.reshape(block_size, -1, d)
    table = torch.as_tensor(list(block_table), dtype=torch.long)
    return blocks[:, table].transpose(0, 1).reshape(-1, d)[:length]
'''),
    dict(exercise="ex7", kind="positions 1..length",
         mistake="my_gather_keys gathers the positions 1..length instead of 0..length-1, dropping the first key and taking one past the end",
         names=["0-based", "range(length)", "off by one", "off-by-one", "first key", "position 0"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(1, length + 1)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="stacks along dim 1",
         mistake="my_gather_keys stacks the keys along dim=1, returning (d, length) instead of (length, d)",
         names=["shape", "(length, d)", "transpose", "dim=0", "stack"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    return torch.stack([k_pool[my_slot_of(block_table, block_size, p)] for p in range(length)], dim=1)
'''),
    dict(exercise="ex7", kind="gather forgets × block_size",
         mistake="my_gather_keys recomputes the slots itself as block_table[p // block_size] + p % block_size, forgetting to multiply the physical block by block_size",
         names=["× block_size", "* block_size", "block_size", "slot", "physical block ×"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    pos = torch.arange(length)
    table = torch.as_tensor(list(block_table), dtype=torch.long)
    slots = table[pos // block_size] + pos % block_size
    return k_pool[slots]
'''),
    dict(exercise="ex7", kind="hard-coded block size",
         mistake="my_gather_keys hard-codes a block size of 16 instead of using the block_size argument",
         names=["block_size", "hard-coded", "16", "argument"],
         code='''def my_slot_of(block_table, block_size, position):
    b, off = divmod(position, block_size)
    if position < 0 or b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + off


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [int(block_table[p // 16]) * 16 + p % 16 for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),

    # ------------------------------------------------------------------ ex8 my_combine_partials
    dict(exercise="ex8", kind="calls torch.logsumexp",
         mistake="computes the overall log-sum-exp with torch.logsumexp, which the exercise forbids",
         names=["torch.logsumexp", "logsumexp", "forbidden", "do not call"],
         code='''def my_combine_partials(outs, lses):
    lse = torch.logsumexp(lses, dim=0)
    w = torch.exp(lses - lse)
    w = torch.nan_to_num(w, nan=0.0)
    out = (w.unsqueeze(-1) * torch.nan_to_num(outs)).sum(0)
    return out, lse
'''),
    dict(exercise="ex8", kind="no max subtracted",
         mistake="exponentiates the log-sum-exps directly, without subtracting their maximum, so large ℓ_c overflow to inf and the result is NaN",
         names=["overflow", "max", "subtract", "inf", "nan", "stable"],
         code='''def my_combine_partials(outs, lses):
    e = torch.exp(lses)
    total = e.sum(0)
    lse = torch.log(total)
    out = (e.unsqueeze(-1) * outs).sum(0) / total.unsqueeze(-1)
    return out, lse
'''),
    dict(exercise="ex8", kind="plain mean of the partials",
         mistake="averages the chunks' outputs equally instead of weighting each by exp(ℓ_c − ℓ), its share of the softmax mass",
         names=["weight", "exp(ℓ_c", "exp(l_c", "mean", "average", "share"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    lse = m + torch.log(torch.exp(lses - m).sum(0))
    out = outs.mean(dim=0)
    return out, lse
'''),
    dict(exercise="ex8", kind="softmax over the queries",
         mistake="normalises the chunk weights with a softmax over dim=1 (the queries) instead of over the chunks, dim=0",
         names=["dim=0", "over the chunks", "softmax", "axis", "queries"],
         code='''def my_combine_partials(outs, lses):
    w = torch.softmax(lses, dim=1)
    m = lses.max(dim=0).values
    lse = m + torch.log(torch.exp(lses - m).sum(0))
    return (w.unsqueeze(-1) * outs).sum(0), lse
'''),
    dict(exercise="ex8", kind="weights not normalised",
         mistake="weights the partial outputs by exp(ℓ_c − max ℓ) but forgets to divide by their sum, so the output is scaled by Σ exp(ℓ_c − max)",
         names=["normalis", "divide", "sum of the weights", "exp(ℓ_c - ℓ)", "exp(l_c - lse)", "scale"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    lse = m + torch.log(w.sum(0))
    out = (w.unsqueeze(-1) * outs).sum(0)
    return out, lse
'''),
    dict(exercise="ex8", kind="lse is the max",
         mistake="returns the largest chunk log-sum-exp as the overall one, dropping the log Σ exp(ℓ_c − max) term",
         names=["log-sum-exp", "lse", "max", "log(sum", "overall"],
         code='''def my_combine_partials(outs, lses):
    lse = lses.max(dim=0).values
    w = torch.softmax(lses, dim=0)
    return (w.unsqueeze(-1) * outs).sum(0), lse
'''),
    dict(exercise="ex8", kind="lse is the sum of the lses",
         mistake="adds the chunks' log-sum-exps (multiplying the sums of exponentials) instead of adding the sums themselves in log space",
         names=["log-sum-exp", "lse", "sum", "log space", "overall"],
         code='''def my_combine_partials(outs, lses):
    lse = lses.sum(dim=0)
    w = torch.exp(lses - lses.max(dim=0).values)
    w = w / w.sum(0)
    return (w.unsqueeze(-1) * outs).sum(0), lse
'''),
    dict(exercise="ex8", kind="NaN for a fully masked query",
         mistake="subtracts the maximum without guarding a query whose every chunk is −inf, so −inf − (−inf) gives NaN in both the output and the log-sum-exp",
         names=["nan", "-inf", "−inf", "masked", "every chunk", "all chunks"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    s = w.sum(0)
    lse = m + torch.log(s)
    out = (w.unsqueeze(-1) * outs).sum(0) / s.unsqueeze(-1)
    return out, lse
'''),
    dict(exercise="ex8", kind="-inf replaced by 0",
         mistake="replaces the −inf log-sum-exps by 0 to avoid NaN, so a fully masked chunk gets weight exp(0) and contributes",
         names=["-inf", "−inf", "masked", "contributes nothing", "weight", "nan_to_num"],
         code='''def my_combine_partials(outs, lses):
    lses = torch.nan_to_num(lses, neginf=0.0)
    outs = torch.nan_to_num(outs)
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    s = w.sum(0)
    return (w.unsqueeze(-1) * outs).sum(0) / s.unsqueeze(-1), m + torch.log(s)
'''),
    dict(exercise="ex8", kind="weights linear in ℓ",
         mistake="weights the chunks by ℓ_c / Σ ℓ_c (the log-sum-exps themselves) instead of by exp(ℓ_c − ℓ)",
         names=["exp", "weight", "exp(ℓ_c", "exp(l_c", "softmax"],
         code='''def my_combine_partials(outs, lses):
    w = lses / lses.sum(0)
    m = lses.max(dim=0).values
    lse = m + torch.log(torch.exp(lses - m).sum(0))
    return (w.unsqueeze(-1) * outs).sum(0), lse
'''),
    dict(exercise="ex8", kind="scales outs in place",
         mistake="scales outs in place with mul_ before summing, so the caller's partial outputs are changed",
         names=["in place", "changed", "modif", "mutat", "outs", "clone"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    w = torch.exp(lses - m)
    s = w.sum(0)
    outs.mul_(w.unsqueeze(-1))
    outs.nan_to_num_(0.0)
    out = outs.sum(0) / s.clamp_min(1e-30).unsqueeze(-1)
    return out, m + torch.log(s)
'''),
    dict(exercise="ex8", kind="returns (lse, out)",
         mistake="returns the pair in the wrong order, (lse, out) instead of (out, lse)",
         names=["order", "(out, lse)", "tuple", "return"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    w = torch.exp(lses - m)
    s = w.sum(0)
    num = (w.unsqueeze(-1) * torch.where(w.unsqueeze(-1) > 0, outs, torch.zeros_like(outs))).sum(0)
    out = num / torch.where(s > 0, s, torch.ones_like(s)).unsqueeze(-1)
    return m + torch.log(s), out
'''),
    dict(exercise="ex8", kind="keepdim shapes",
         mistake="keeps the chunk axis when reducing, returning out (1, T_q, d_v) and lse (1, T_q) instead of (T_q, d_v) and (T_q,)",
         names=["shape", "(t_q, d_v)", "(t_q,)", "keepdim", "squeeze"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0, keepdim=True).values
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    w = torch.exp(lses - m)
    s = w.sum(0, keepdim=True)
    num = (w.unsqueeze(-1) * torch.where(w.unsqueeze(-1) > 0, outs, torch.zeros_like(outs))).sum(0, keepdim=True)
    out = num / torch.where(s > 0, s, torch.ones_like(s)).unsqueeze(-1)
    return out, m + torch.log(s)
'''),
    dict(exercise="ex8", kind="running combine not rescaled",
         mistake="merges the chunks one at a time but never rescales the accumulated output by exp(ℓ_old − ℓ_new) when the running log-sum-exp grows",
         names=["rescale", "running", "exp(ℓ_old", "accumulat", "weight", "previous"],
         code='''def my_combine_partials(outs, lses):
    out = torch.zeros_like(outs[0])
    lse = torch.full_like(lses[0], float("-inf"))
    for o_c, l_c in zip(outs, lses):
        new = torch.logaddexp(lse, l_c)
        w = torch.exp(l_c - new)
        w = torch.nan_to_num(w, nan=0.0)
        out = out + w.unsqueeze(-1) * torch.nan_to_num(o_c)
        lse = new
    return out, lse
'''),
    dict(exercise="ex8", kind="weights broadcast on the wrong axis",
         mistake="broadcasts the chunk weights with unsqueeze(1), as (n_chunks, 1, T_q), so they line up with d_v instead of with the queries (a shape error unless T_q == d_v)",
         names=["broadcast", "unsqueeze(-1)", "shape", "[..., none]", "axis"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    s = w.sum(0)
    out = (w.unsqueeze(1) * outs).sum(0) / s.unsqueeze(-1)
    return out, m + torch.log(s)
'''),
]

VALID = [
    # ex6
    dict(exercise="ex6", kind="np.where, three cases",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    inv_freq = np.asarray(inv_freq, dtype=float)
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended))
'''),
    dict(exercise="ex6", kind="loop with if/elif/else",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    high_wl = original_max_len / high_freq_factor
    low_wl = original_max_len / low_freq_factor
    out = []
    for theta in inv_freq:
        lam = 2 * math.pi / theta
        if lam < high_wl:
            out.append(theta)
        elif lam > low_wl:
            out.append(theta / factor)
        else:
            s = (original_max_len / lam - low_freq_factor) / (high_freq_factor - low_freq_factor)
            out.append((1 - s) * theta / factor + s * theta)
    return np.array(out, dtype=float)
'''),
    dict(exercise="ex6", kind="clipped ramp",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    turns = original_max_len * inv_freq / (2 * np.pi)
    smooth = np.clip((turns - low_freq_factor) / (high_freq_factor - low_freq_factor), 0.0, 1.0)
    return (1 - smooth) * inv_freq / factor + smooth * inv_freq
'''),
    dict(exercise="ex6", kind="masks on a copy",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    out = np.array(inv_freq, dtype=np.float64, copy=True)
    lam = 2 * np.pi / out
    slow = lam > original_max_len / low_freq_factor
    mid = ~slow & ~(lam < original_max_len / high_freq_factor)
    s = (original_max_len / lam[mid] - low_freq_factor) / (high_freq_factor - low_freq_factor)
    out[mid] = out[mid] * ((1 - s) / factor + s)
    out[slow] = out[slow] / factor
    return out
'''),
    dict(exercise="ex6", kind="thresholds on θ",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0, original_max_len=8192):
    theta = np.asarray(inv_freq, dtype=float)
    fast_theta = 2 * np.pi * high_freq_factor / original_max_len
    slow_theta = 2 * np.pi * low_freq_factor / original_max_len
    smooth = (original_max_len * theta / (2 * np.pi) - low_freq_factor) / (high_freq_factor - low_freq_factor)
    scale = np.where(theta > fast_theta, 1.0,
                     np.where(theta < slow_theta, 1.0 / factor, (1 - smooth) / factor + smooth))
    return theta * scale
'''),
    # ex7
    dict(exercise="ex7", kind="divmod, list of slots",
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, p) for p in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="vectorised slots",
         code='''def my_slot_of(block_table, block_size, position):
    n = len(block_table)
    if not 0 <= position < n * block_size:
        raise IndexError(position)
    return int(block_table[position // block_size]) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    if length > len(block_table) * block_size:
        raise IndexError(length)
    pos = torch.arange(length)
    table = torch.as_tensor(np.asarray(block_table, dtype=np.int64))
    slots = table[pos // block_size] * block_size + pos % block_size
    return k_pool.index_select(0, slots)
'''),
    dict(exercise="ex7", kind="pool viewed as blocks",
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0:
        raise IndexError(position)
    b = position // block_size
    if b >= len(block_table):
        raise IndexError(position)
    return int(block_table[b]) * block_size + (position - b * block_size)


def my_gather_keys(k_pool, block_table, block_size, length):
    d = k_pool.shape[-1]
    n_needed = (length + block_size - 1) // block_size
    if n_needed > len(block_table):
        raise IndexError(length)
    blocks = k_pool.reshape(-1, block_size, d)
    idx = torch.tensor([int(b) for b in list(block_table)[:n_needed]], dtype=torch.long)
    return blocks[idx].reshape(-1, d)[:length].clone()
'''),
    dict(exercise="ex7", kind="cat of block slices",
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0 or position >= block_size * len(block_table):
        raise IndexError("position past the block table")
    phys = int(block_table[position // block_size])
    return phys * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    pieces = []
    remaining = length
    for start in range(0, length, block_size):
        first = my_slot_of(block_table, block_size, start)
        take = min(block_size, remaining)
        pieces.append(k_pool[first:first + take])
        remaining -= take
    if not pieces:
        return k_pool[:0].clone()
    return torch.cat(pieces, dim=0)
'''),
    dict(exercise="ex7", kind="loop of rows",
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0:
        raise IndexError(position)
    try:
        block = block_table[position // block_size]
    except IndexError:
        raise IndexError(f"position {position} has no block") from None
    return int(block) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    out = k_pool.new_empty((length, k_pool.shape[1]))
    for p in range(length):
        out[p] = k_pool[my_slot_of(block_table, block_size, p)]
    return out
'''),
    # ex8
    dict(exercise="ex8", kind="max trick, vectorised",
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    m = torch.where(torch.isneginf(m), torch.zeros_like(m), m)
    w = torch.exp(lses - m)
    s = w.sum(dim=0)
    lse = m + torch.log(s)
    safe_outs = torch.where(w.unsqueeze(-1) > 0, outs, torch.zeros_like(outs))
    num = (w.unsqueeze(-1) * safe_outs).sum(dim=0)
    out = num / torch.where(s > 0, s, torch.ones_like(s)).unsqueeze(-1)
    return out, lse
'''),
    dict(exercise="ex8", kind="online merge, chunk by chunk",
         code='''def my_combine_partials(outs, lses):
    n, T_q, d_v = outs.shape
    m = torch.full((T_q,), float("-inf"), dtype=lses.dtype)
    s = torch.zeros(T_q, dtype=lses.dtype)
    acc = torch.zeros(T_q, d_v, dtype=outs.dtype)
    for c in range(n):
        l_c = lses[c]
        live = ~torch.isneginf(l_c)
        new_m = torch.where(live, torch.maximum(m, l_c), m)
        old_scale = torch.where(torch.isneginf(m), torch.zeros_like(m), torch.exp(m - new_m))
        w = torch.where(live, torch.exp(l_c - torch.where(live, new_m, l_c.new_zeros(()))), torch.zeros_like(l_c))
        o_c = torch.where(live.unsqueeze(-1), outs[c], torch.zeros_like(outs[c]))
        acc = acc * old_scale.unsqueeze(-1) + w.unsqueeze(-1) * o_c
        s = s * old_scale + w
        m = new_m
    out = torch.where(s.unsqueeze(-1) > 0, acc / s.clamp_min(torch.finfo(s.dtype).tiny).unsqueeze(-1), torch.zeros_like(acc))
    lse = torch.where(s > 0, m + torch.log(s), torch.full_like(s, float("-inf")))
    return out, lse
'''),
    dict(exercise="ex8", kind="softmax over chunks",
         code='''def my_combine_partials(outs, lses):
    w = torch.softmax(lses, dim=0)
    w = torch.nan_to_num(w, nan=0.0)
    m = lses.amax(dim=0)
    finite = torch.isfinite(m)
    m0 = torch.where(finite, m, torch.zeros_like(m))
    lse = torch.where(finite, m0 + torch.log(torch.exp(lses - m0).sum(0)), m)
    out = torch.einsum("ct,ctd->td", w, torch.where(w[..., None] > 0, outs, torch.zeros_like(outs)))
    return out, lse
'''),
    dict(exercise="ex8", kind="logaddexp, then weights",
         code='''def my_combine_partials(outs, lses):
    lse = lses[0].clone()
    for l_c in lses[1:]:
        lse = torch.logaddexp(lse, l_c)
    ref = torch.where(torch.isneginf(lse), torch.zeros_like(lse), lse)
    w = torch.exp(lses - ref)
    out = torch.zeros(outs.shape[1:], dtype=outs.dtype)
    for c in range(outs.shape[0]):
        keep = w[c] > 0
        out = out + torch.where(keep[:, None], w[c][:, None] * outs[c], torch.zeros_like(out))
    return out, lse
'''),
    dict(exercise="ex8", kind="float64 masked sum",
         code='''def my_combine_partials(outs, lses):
    L = lses.double()
    O = outs.double()
    dead = torch.isneginf(L)
    m = L.masked_fill(dead, -1e300).max(dim=0).values
    e = torch.exp(L - m).masked_fill(dead, 0.0)
    s = e.sum(0)
    lse = (m + torch.log(s)).masked_fill(s == 0, float("-inf"))
    num = (e[:, :, None] * O.masked_fill(dead[:, :, None], 0.0)).sum(0)
    out = (num / s.masked_fill(s == 0, 1.0)[:, None])
    return out.to(outs.dtype), lse.to(lses.dtype)
'''),
]
