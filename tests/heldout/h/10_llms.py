"""Held-out answers for exercises/10_llms.ipynb ex6-ex8 (set h), written from the exercise texts
of tests/heldout/g/EXERCISES.md alone, without the checks, the solutions or the other sets.

Ambiguities in the texts (the VALID answers follow every reasonable reading; no WRONG answer
is wrong only under one of them):
- ex6: at λ = L / high_freq_factor and λ = L / low_freq_factor the rule is continuous (smooth
  is 1 and 0 there), so `<` against `<=` at the borders does not change the result; no WRONG
  answer relies on it. The dtype of the result is not stated (float64 in, float64 out here).
- ex7: the block table's type is not stated (a Python list, or a torch tensor as the lesson's
  `block_tables` returns); the VALID answers take both and return a Python int either way.
  Whether a -1 entry (the lesson's padding) counts as "no block" is not stated: the VALID
  answers raise IndexError for it, and no WRONG answer is wrong only on it. A negative
  position is no 0-based logical position, so the table has no block for it: one WRONG
  answer ("negative position wraps") lets Python's negative indexing answer it. What
  my_gather_keys does for a length past the table is not stated (the VALID answers raise
  IndexError, through my_slot_of). length = 0 is taken to be allowed: (0, d).
- ex8: the text does not say what to return for a query whose every chunk has ℓ_c = −inf
  (no key at all): no answer here is tested on it. Nor what o_c holds for a chunk with
  ℓ_c = −inf (the lesson's chunk_partials gives 0): the WRONG answers are wrong with o_c = 0
  there; some VALID answers also ignore a NaN o_c. Whether the result must keep the input's
  dtype is not stated; the VALID answers keep it.
"""

WRONG = [
    # ---------------- ex6: my_llama3_frequencies ----------------
    dict(exercise="ex6", kind="frequency compared, not wavelength",
         mistake="compares the frequencies θ_i themselves with L / high_freq_factor and L / low_freq_factor instead of the wavelengths 2π / θ_i",
         names=["wavelength", "2π / θ", "2*pi / inv_freq", "instead of the frequency", "λ_i"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    theta = np.asarray(inv_freq, dtype=float)
    low_wavelen = original_max_len / low_freq_factor
    high_wavelen = original_max_len / high_freq_factor
    smooth = (original_max_len * theta / (2 * np.pi) - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * theta / factor + smooth * theta
    return np.where(theta < high_wavelen, theta,
                    np.where(theta > low_wavelen, theta / factor, blended))
'''),
    dict(exercise="ex6", kind="wavelength without 2π",
         mistake="takes the wavelength as 1 / θ_i, forgetting the factor 2π, so the borders and smooth are computed on the wrong wavelengths",
         names=["2π", "2 * pi", "2*np.pi", "1 / θ", "forgot the 2"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 1.0 / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise="ex6", kind="fast and slow swapped",
         mistake="divides the fast pairs (short wavelengths) by factor and keeps the slow ones, the two outer cases exchanged",
         names=["fast pair", "slow pair", "swapped", "short wavelength", "long wavelength"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq / factor,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq, blended))
'''),
    dict(exercise="ex6", kind="smooth from λ / L",
         mistake="computes smooth from λ_i / original_max_len instead of original_max_len / λ_i, so the blended pairs get the wrong mix",
         names=["smooth", "original_max_len / λ", "l / λ", "inverted", "ratio"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * math.pi / inv_freq
    smooth = (wavelen / original_max_len - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended)
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, out)
'''),
    dict(exercise="ex6", kind="blend weights swapped",
         mistake="blends as (1 − smooth)·θ + smooth·θ / factor, the two weights of the mix exchanged",
         names=["blend", "1 - smooth", "(1 − smooth)", "weights of the mix", "swapped"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq + smooth * inv_freq / factor
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended))
'''),
    dict(exercise="ex6", kind="changes inv_freq in place",
         mistake="writes the scaled frequencies into inv_freq itself (in-place division and assignment) and returns it, changing the caller's array",
         names=["in place", "in-place", "inv_freq itself", "copy", "changed the input"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    slow = wavelen > original_max_len / low_freq_factor
    mid = ~slow & (wavelen >= original_max_len / high_freq_factor)
    inv_freq[mid] = (1 - smooth[mid]) * inv_freq[mid] / factor + smooth[mid] * inv_freq[mid]
    inv_freq[slow] /= factor
    return inv_freq
'''),
    dict(exercise="ex6", kind="slow pairs multiplied",
         mistake="multiplies the slow pairs' frequencies (and the blend's interpolated part) by factor instead of dividing them",
         names=["multipl", "θ_i / factor", "divide", "times factor", "* factor"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq * factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq * factor, blended))
'''),
    dict(exercise="ex6", kind="no blend",
         mistake="has only two cases: every pair that is not fast is divided by factor, so the pairs in between are never blended",
         names=["blend", "in between", "middle", "smooth", "third case"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq, inv_freq / factor)
'''),
    dict(exercise="ex6", kind="ramp linear in wavelength",
         mistake="blends with a ramp linear in the wavelength, (L/low − λ) / (L/low − L/high), instead of the text's smooth, which is linear in L / λ",
         names=["smooth", "linear in the wavelength", "l / λ", "original_max_len / λ", "ramp"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    low_wavelen = original_max_len / low_freq_factor
    high_wavelen = original_max_len / high_freq_factor
    smooth = (low_wavelen - wavelen) / (low_wavelen - high_wavelen)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < high_wavelen, inv_freq,
                    np.where(wavelen > low_wavelen, inv_freq / factor, blended))
'''),
    dict(exercise="ex6", kind="shipped numbers hard-coded",
         mistake="uses Llama 3.1's numbers (8192, 8, 1, 4) written into the code instead of the arguments, so any other factor or length is ignored",
         names=["hard-coded", "hardcoded", "ignores the argument", "ignored", "default"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (8192 / wavelen - 1.0) / (4.0 - 1.0)
    blended = (1 - smooth) * inv_freq / 8.0 + smooth * inv_freq
    return np.where(wavelen < 8192 / 4.0, inv_freq,
                    np.where(wavelen > 8192 / 1.0, inv_freq / 8.0, blended))
'''),
    dict(exercise="ex6", kind="if / if / else",
         mistake="writes the cases as `if fast: keep` then a separate `if slow: ... else: blend`, so every fast pair also falls into the else and is blended with smooth > 1",
         names=["elif", "fast pair", "falls through", "else", "kept"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    out = []
    for theta in inv_freq:
        wavelen = 2 * math.pi / theta
        new = theta
        if wavelen < original_max_len / high_freq_factor:
            new = theta
        if wavelen > original_max_len / low_freq_factor:
            new = theta / factor
        else:
            smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            new = (1 - smooth) * theta / factor + smooth * theta
        out.append(new)
    return np.array(out)
'''),
    dict(exercise="ex6", kind="floor division in smooth",
         mistake="computes L / λ_i with floor division (//), so smooth is rounded down to a step and the blended pairs are wrong",
         names=["//", "floor", "integer division", "rounded", "smooth"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    turns = original_max_len // wavelen
    smooth = (turns - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended))
'''),
    dict(exercise="ex6", kind="returns a list",
         mistake="builds the frequencies in a Python list and returns the list, not a NumPy array",
         names=["list", "numpy array", "np.array", "ndarray", "type"],
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    out = []
    for theta in inv_freq:
        wavelen = 2 * math.pi / theta
        if wavelen < original_max_len / high_freq_factor:
            out.append(float(theta))
        elif wavelen > original_max_len / low_freq_factor:
            out.append(float(theta / factor))
        else:
            smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            out.append(float((1 - smooth) * theta / factor + smooth * theta))
    return out
'''),

    # ---------------- ex7: my_slot_of + my_gather_keys ----------------
    dict(exercise="ex7", kind="block not times block_size",
         mistake="adds the offset to the physical block number without multiplying it by block_size",
         names=["block_size", "× block_size", "* block_size", "multiply", "physical block ×"],
         code='''def my_slot_of(block_table, block_size, position):
    logical = position // block_size
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="table not used",
         mistake="returns the logical position itself as the slot, as if the sequence's blocks were contiguous from block 0, never reading the block table",
         names=["block table", "block_table[", "physical block", "logical", "contiguous"],
         code='''def my_slot_of(block_table, block_size, position):
    if position < 0 or position >= len(block_table) * block_size:
        raise IndexError(f"position {position} is past the table")
    block = position // block_size
    offset = position % block_size
    return block * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    return k_pool[:length].clone()
'''),
    dict(exercise="ex7", kind="divmod swapped",
         mistake="takes position % block_size as the logical block and position // block_size as the offset, the two exchanged",
         names=["// block_size", "% block_size", "offset", "swapped", "logical block"],
         code='''def my_slot_of(block_table, block_size, position):
    logical = position % block_size
    offset = position // block_size
    if position < 0 or position >= len(block_table) * block_size:
        raise IndexError(position)
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    idx = torch.tensor([my_slot_of(block_table, block_size, t) for t in range(length)], dtype=torch.long)
    return k_pool[idx]
'''),
    dict(exercise="ex7", kind="ValueError, not IndexError",
         mistake="raises ValueError instead of the IndexError the text asks for when the table has no block for the position",
         names=["indexerror", "valueerror", "raise", "exception", "no block"],
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise ValueError(f"the block table has no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.as_tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="returns a tensor, not an int",
         mistake="turns the table into a tensor and returns the slot as a 0-d torch tensor, not the Python int the text asks for",
         names=["int", "python int", "tensor", "int(", ".item()"],
         code='''def my_slot_of(block_table, block_size, position):
    table = torch.as_tensor(block_table, dtype=torch.long)
    if position < 0 or position >= table.numel() * block_size:
        raise IndexError(f"no block for position {position}")
    return table[position // block_size] * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    table = torch.as_tensor(block_table, dtype=torch.long)
    t = torch.arange(length)
    return k_pool[table[t // block_size] * block_size + t % block_size]
'''),
    dict(exercise="ex7", kind="ceil for the block index",
         mistake="finds the logical block with math.ceil(position / block_size) instead of the floor, so every position not at a block's start reads the next block",
         names=["ceil", "floor", "//", "next block", "logical block"],
         code='''def my_slot_of(block_table, block_size, position):
    logical = math.ceil(position / block_size)
    offset = position % block_size
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    return torch.stack([k_pool[my_slot_of(block_table, block_size, t)] for t in range(length)]) \\
        if length else k_pool[:0]
'''),
    dict(exercise="ex7", kind="negative position wraps",
         mistake="has no check of its own, so a negative position indexes the table from the end (Python's negative indexing) and returns a slot instead of raising IndexError",
         names=["negative", "position < 0", "indexerror", "from the end", "wrap"],
         code='''def my_slot_of(block_table, block_size, position):
    physical = block_table[position // block_size]     # IndexError past the end of the table
    return int(physical) * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="one key short",
         mistake="gathers positions 0 .. length − 2 (range(length - 1)), one key fewer than the length asked for",
         names=["length - 1", "off by one", "one key", "range(length)", "last key"],
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length - 1)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="whole blocks, not trimmed",
         mistake="returns every slot of every block in the table, not just the first `length` keys, so a partly filled last block adds extra rows",
         names=["length", "trim", "[:length]", "partly filled", "last block"],
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    n_blocks = math.ceil(length / block_size)
    rows = [k_pool[int(b) * block_size:(int(b) + 1) * block_size] for b in block_table[:n_blocks]]
    return torch.cat(rows) if rows else k_pool[:0]
'''),
    dict(exercise="ex7", kind="physical order",
         mistake="walks the table's blocks sorted by their physical number, so the keys come out in pool order, not in the sequence's logical order",
         names=["logical order", "sorted", "physical order", "order of the table", "pool order"],
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    blocks = sorted(int(b) for b in block_table)
    slots = [b * block_size + o for b in blocks for o in range(block_size)][:length]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="returns numpy",
         mistake="gathers through k_pool.numpy() and returns a NumPy array instead of a torch tensor",
         names=["numpy", "torch tensor", "ndarray", ".numpy()", "type"],
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = np.array([my_slot_of(block_table, block_size, t) for t in range(length)], dtype=int)
    return k_pool.numpy()[slots]
'''),
    dict(exercise="ex7", kind="torch.gather on one column",
         mistake="calls torch.gather with a (length, 1) index, which picks only the first feature of each slot: the result is (length, 1), not (length, d)",
         names=["torch.gather", "(length, d)", "first column", "index", "expand"],
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = torch.tensor([my_slot_of(block_table, block_size, t) for t in range(length)], dtype=torch.long)
    return torch.gather(k_pool, 0, slots[:, None])
'''),
    dict(exercise="ex7", kind="pool viewed block-major the wrong way",
         mistake="reshapes the pool to (block_size, n_blocks, d) instead of (n_blocks, block_size, d) before indexing it by physical block, so each 'block' is a strided set of slots",
         names=["reshape", "view", "(n_blocks, block_size", "block_size, -1", "layout"],
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    d = k_pool.shape[-1]
    blocks = k_pool.view(block_size, -1, d)                  # meant (n_blocks, block_size, d)
    table = torch.as_tensor(block_table, dtype=torch.long)
    per_block = blocks[:, table].transpose(0, 1)             # (n_table, block_size, d)
    return per_block.reshape(-1, d)[:length]
'''),
    dict(exercise="ex7", kind="torch.stack of nothing",
         mistake="builds the result with torch.stack of a list of rows, which raises for length = 0 instead of returning a (0, d) tensor",
         names=["length = 0", "length 0", "empty", "torch.stack", "(0, d)"],
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(position, block_size)
    if position < 0 or logical >= len(block_table):
        raise IndexError(f"no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    return torch.stack([k_pool[my_slot_of(block_table, block_size, t)] for t in range(length)])
'''),

    # ---------------- ex8: my_combine_partials ----------------
    dict(exercise="ex8", kind="no max subtracted",
         mistake="exponentiates the ℓ_c directly, exp(ℓ_c), with no maximum subtracted: large log-sum-exps overflow to inf and the output becomes NaN",
         names=["overflow", "max", "subtract", "inf", "stable"],
         code='''def my_combine_partials(outs, lses):
    w = torch.exp(lses)                       # (n_chunks, T_q)
    total = w.sum(dim=0)                      # (T_q,)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, torch.log(total)
'''),
    dict(exercise="ex8", kind="lse without the max",
         mistake="returns log Σ exp(ℓ_c − m) as the overall log-sum-exp, forgetting to add the maximum m back",
         names=["add the max", "+ m", "log-sum-exp", "lse", "maximum back"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values                # (T_q,)
    w = torch.exp(lses - m)                   # (n_chunks, T_q)
    total = w.sum(dim=0)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, torch.log(total)
'''),
    dict(exercise="ex8", kind="plain mean of the partials",
         mistake="averages the chunk outputs with equal weights instead of weighting each by its share exp(ℓ_c − ℓ)",
         names=["weight", "share", "exp(ℓ_c", "mean of", "equal"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    lse = m + torch.log(torch.exp(lses - m).sum(dim=0))
    return outs.mean(dim=0), lse
'''),
    dict(exercise="ex8", kind="not normalised",
         mistake="sums exp(ℓ_c − m) · o_c without dividing by Σ_c exp(ℓ_c − m), so the weights do not add up to 1",
         names=["normalis", "normaliz", "divide", "sum to 1", "total"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    out = (w[..., None] * outs).sum(dim=0)
    lse = m + torch.log(w.sum(dim=0))
    return out, lse
'''),
    dict(exercise="ex8", kind="softmax over the queries",
         mistake="normalises the chunk weights over the query axis (dim -1) instead of over the chunks (dim 0)",
         names=["dim=0", "axis", "chunks", "over the queries", "dim=-1"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=-1, keepdim=True).values
    e = torch.exp(lses - m)
    w = e / e.sum(dim=-1, keepdim=True)       # (n_chunks, T_q)
    out = (w[..., None] * outs).sum(dim=0)
    top = lses.max(dim=0).values
    lse = top + torch.log(torch.exp(lses - top).sum(dim=0))
    return out, lse
'''),
    dict(exercise="ex8", kind="-inf replaced by 0",
         mistake="replaces an empty chunk's ℓ_c = −inf by 0 before combining, so the masked chunk gets weight exp(0 − m) and contributes",
         names=["-inf", "−inf", "masked", "contributes", "empty chunk"],
         code='''def my_combine_partials(outs, lses):
    lses = torch.where(torch.isinf(lses), torch.zeros_like(lses), lses)   # avoid inf - inf
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    total = w.sum(dim=0)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, m + torch.log(total)
'''),
    dict(exercise="ex8", kind="whole chunk skipped",
         mistake="skips a chunk entirely as soon as any query has ℓ_c = −inf in it, dropping that chunk for the queries that did see keys there",
         names=["per query", "any(", "skips the chunk", "-inf", "every query"],
         code='''def my_combine_partials(outs, lses):
    keep = [c for c in range(lses.shape[0]) if not torch.isinf(lses[c]).any()]
    outs, lses = outs[keep], lses[keep]
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    total = w.sum(dim=0)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, m + torch.log(total)
'''),
    dict(exercise="ex8", kind="one max for every query",
         mistake="subtracts one global maximum over all chunks and queries instead of each query's own maximum, so a query whose ℓ are far below the largest underflows to 0/0",
         names=["per query", "each query", "global max", "underflow", "dim=0"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max()                            # one number
    w = torch.exp(lses - m)
    total = w.sum(dim=0)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, m + torch.log(total)
'''),
    dict(exercise="ex8", kind="lse summed",
         mistake="returns Σ_c ℓ_c as the overall log-sum-exp (the log of a product) instead of log Σ_c exp(ℓ_c)",
         names=["log-sum-exp", "log σ", "sum of the", "lse", "exp"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values
    w = torch.exp(lses - m)
    out = (w[..., None] * outs).sum(dim=0) / w.sum(dim=0)[:, None]
    return out, lses.sum(dim=0)
'''),
    dict(exercise="ex8", kind="lse keeps a dimension",
         mistake="returns the overall log-sum-exp with keepdim, shaped (1, T_q), not (T_q,)",
         names=["(t_q,)", "keepdim", "shape", "squeeze", "(1, t_q)"],
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0, keepdim=True).values  # (1, T_q)
    w = torch.exp(lses - m)
    total = w.sum(dim=0, keepdim=True)        # (1, T_q)
    out = (w[..., None] * outs).sum(dim=0) / total[0, :, None]
    return out, m + torch.log(total)
'''),
    dict(exercise="ex8", kind="returns numpy",
         mistake="converts to NumPy, combines there and returns NumPy arrays, not torch tensors",
         names=["numpy", "torch", "tensor", ".numpy()", "type"],
         code='''def my_combine_partials(outs, lses):
    o, l = outs.numpy(), lses.numpy()
    m = l.max(axis=0)
    w = np.exp(l - m)
    total = w.sum(axis=0)
    out = (w[..., None] * o).sum(axis=0) / total[:, None]
    return out, m + np.log(total)
'''),
    dict(exercise="ex8", kind="shifted by chunk 0",
         mistake="subtracts the first chunk's ℓ_0 instead of the maximum: NaN when chunk 0 is empty (−inf − (−inf)) and overflow when a later chunk is much larger",
         names=["max", "first chunk", "lses[0]", "nan", "-inf"],
         code='''def my_combine_partials(outs, lses):
    ref = lses[0]                             # (T_q,)
    w = torch.exp(lses - ref)
    total = w.sum(dim=0)
    out = (w[..., None] * outs).sum(dim=0) / total[:, None]
    return out, ref + torch.log(total)
'''),
    dict(exercise="ex8", kind="running merge with -inf",
         mistake="merges the chunks one by one with a running maximum, but when the running ℓ and the next ℓ_c are both −inf it computes exp(−inf − (−inf)) = NaN, so a query whose first chunks are empty gets NaN",
         names=["nan", "-inf", "−inf", "empty", "inf - inf"],
         code='''def my_combine_partials(outs, lses):
    out, lse = outs[0].clone(), lses[0].clone()
    for c in range(1, outs.shape[0]):
        m = torch.maximum(lse, lses[c])
        a, b = torch.exp(lse - m), torch.exp(lses[c] - m)
        out = (a[:, None] * out + b[:, None] * outs[c]) / (a + b)[:, None]
        lse = m + torch.log(a + b)
    return out, lse
'''),
]

VALID = [
    # ---------------- ex6 ----------------
    dict(exercise="ex6", kind="np.where, nested",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    wavelen = 2 * np.pi / inv_freq
    smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    return np.where(wavelen < original_max_len / high_freq_factor, inv_freq,
                    np.where(wavelen > original_max_len / low_freq_factor, inv_freq / factor, blended))
'''),
    dict(exercise="ex6", kind="loop, if/elif/else",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    low_wavelen = original_max_len / low_freq_factor
    high_wavelen = original_max_len / high_freq_factor
    new = np.empty(len(inv_freq), dtype=float)
    for i, theta in enumerate(inv_freq):
        wavelen = 2 * math.pi / theta
        if wavelen < high_wavelen:
            new[i] = theta
        elif wavelen > low_wavelen:
            new[i] = theta / factor
        else:
            smooth = (original_max_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
            new[i] = (1 - smooth) * theta / factor + smooth * theta
    return new
'''),
    dict(exercise="ex6", kind="copy and boolean masks",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    theta = np.array(inv_freq, dtype=np.float64)      # a copy
    wavelen = 2 * np.pi / theta
    slow = wavelen > original_max_len / low_freq_factor
    fast = wavelen < original_max_len / high_freq_factor
    mid = ~slow & ~fast
    out = theta.copy()
    out[slow] = theta[slow] / factor
    smooth = (original_max_len / wavelen[mid] - low_freq_factor) / (high_freq_factor - low_freq_factor)
    out[mid] = (1 - smooth) * theta[mid] / factor + smooth * theta[mid]
    return out
'''),
    dict(exercise="ex6", kind="borders as frequencies, np.select",
         code='''def my_llama3_frequencies(inv_freq, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                       original_max_len=8192):
    # λ < L / high  <=>  θ > 2π high / L, and λ > L / low  <=>  θ < 2π low / L
    theta = np.asarray(inv_freq, dtype=float)
    turns = original_max_len * theta / (2 * np.pi)          # L / λ
    smooth = (turns - low_freq_factor) / (high_freq_factor - low_freq_factor)
    return np.select(
        [turns > high_freq_factor, turns < low_freq_factor],
        [theta, theta / factor],
        default=theta * (smooth + (1 - smooth) / factor),
    )
'''),

    # ---------------- ex7 ----------------
    dict(exercise="ex7", kind="divmod, index tensor",
         code='''def my_slot_of(block_table, block_size, position):
    logical, offset = divmod(int(position), block_size)
    if position < 0 or logical >= len(block_table) or int(block_table[logical]) < 0:
        raise IndexError(f"the block table has no block for position {position}")
    return int(block_table[logical]) * block_size + offset


def my_gather_keys(k_pool, block_table, block_size, length):
    slots = [my_slot_of(block_table, block_size, t) for t in range(length)]
    return k_pool[torch.tensor(slots, dtype=torch.long)]
'''),
    dict(exercise="ex7", kind="blocks view, vectorised",
         code='''def my_slot_of(block_table, block_size, position):
    table = [int(b) for b in block_table]
    logical = position // block_size
    if not 0 <= position or logical >= len(table) or table[logical] == -1:
        raise IndexError(position)
    return table[logical] * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    n_needed = -(-length // block_size)                  # ceil
    if length:
        my_slot_of(block_table, block_size, length - 1)     # raises IndexError past the table
    d = k_pool.shape[-1]
    blocks = k_pool.reshape(-1, block_size, d)           # (n_blocks, block_size, d)
    table = torch.as_tensor([int(b) for b in block_table][:n_needed], dtype=torch.long)
    return blocks[table].reshape(-1, d)[:length].clone()
'''),
    dict(exercise="ex7", kind="loop with torch.empty",
         code='''def my_slot_of(block_table, block_size, position):
    block_index = position // block_size
    if position < 0 or block_index >= len(block_table):
        raise IndexError(f"position {position}: table has {len(block_table)} blocks")
    physical = block_table[block_index]
    if hasattr(physical, "item"):
        physical = physical.item()
    if physical < 0:
        raise IndexError(f"position {position}: logical block {block_index} has no block")
    return physical * block_size + position % block_size


def my_gather_keys(k_pool, block_table, block_size, length):
    out = torch.empty(length, k_pool.shape[1], dtype=k_pool.dtype)
    for t in range(length):
        out[t] = k_pool[my_slot_of(block_table, block_size, t)]
    return out
'''),

    # ---------------- ex8 ----------------
    dict(exercise="ex8", kind="max-shifted, vectorised",
         code='''def my_combine_partials(outs, lses):
    m = lses.max(dim=0).values                               # (T_q,)
    w = torch.exp(lses - m)                                  # 0 where ℓ_c = -inf
    total = w.sum(dim=0)
    contrib = torch.where(w[..., None] > 0, w[..., None] * outs, torch.zeros_like(outs))
    out = contrib.sum(dim=0) / total[:, None]
    return out, m + torch.log(total)
'''),
    dict(exercise="ex8", kind="torch.softmax over chunks",
         code='''def my_combine_partials(outs, lses):
    share = torch.softmax(lses, dim=0)                       # (n_chunks, T_q): exp(ℓ_c - ℓ)
    out = torch.einsum("ct,ctd->td", share, outs)
    top = lses.amax(dim=0)
    lse = top + torch.log(torch.exp(lses - top).sum(dim=0))
    return out, lse
'''),
    dict(exercise="ex8", kind="running merge, -inf guarded",
         code='''def my_combine_partials(outs, lses):
    n_chunks, T_q, d_v = outs.shape
    m = torch.full((T_q,), -math.inf, dtype=lses.dtype)
    z = torch.zeros(T_q, dtype=lses.dtype)
    acc = torch.zeros(T_q, d_v, dtype=outs.dtype)
    for c in range(n_chunks):
        l = lses[c]
        new_m = torch.maximum(m, l)
        safe = torch.where(torch.isinf(new_m), torch.zeros_like(new_m), new_m)
        old_scale = torch.exp(m - safe)                     # 0 while m is -inf
        this = torch.exp(l - safe)                          # 0 for an empty chunk
        o_c = torch.where(torch.isinf(l)[:, None], torch.zeros_like(outs[c]), outs[c])
        acc = acc * old_scale[:, None] + this[:, None] * o_c
        z = z * old_scale + this
        m = new_m
    return acc / z[:, None], m + torch.log(z)
'''),
]
