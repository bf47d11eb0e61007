"""Serving the KV cache: PagedAttention's blocks, copy-on-write and prefix caching (vLLM).

A server that gives every sequence one contiguous cache of the longest length it might reach
reserves memory it never uses. PagedAttention (Kwon et al. 2023, arXiv:2309.06180) cuts the
cache into fixed-size blocks of `block_size` tokens, like pages of virtual memory: a pool of
physical blocks, and per sequence a block table mapping its logical block i (tokens
i·block_size .. (i+1)·block_size - 1) to a physical block anywhere in the pool. A sequence
holds only ceil(T / block_size) blocks; at most block_size - 1 slots of its last one are empty.

Sharing: blocks are reference-counted. `fork` (parallel sampling, beam search) gives a second
sequence the same physical blocks; the first append into a shared, partially filled last
block copies it first (copy-on-write). Prefix caching (vLLM's automatic prefix caching) names
every full block by a hash of all the tokens up to its end, so a new request whose prompt
starts with the same tokens reuses those blocks and skips computing their keys and values.

Pool shapes: k_pool, v_pool (n_blocks, block_size, H_kv, d). Attention gathers a sequence's
keys through its block table: `paged_attention`.
"""

from __future__ import annotations

import math

import torch

from helpers.gqa import grouped_query_attention


def _whole(name: str, value, least: int = 1) -> int:
    if isinstance(value, bool) or int(value) != value or value < least:
        raise ValueError(f"{name} must be a whole number >= {least}; got {value!r}")
    return int(value)


class BlockAllocator:
    """A pool of n_blocks physical block ids with reference counts.

    allocate() -> a free block with count 1; share(b) adds a reference; release(b) drops one
    and, at 0, returns b to the free list. Blocks the prefix cache knows are freed to the end
    of the list and keep their contents until they are handed out again.
    """

    def __init__(self, n_blocks: int):
        self.n_blocks = _whole("n_blocks", n_blocks)
        self.free_list = list(range(self.n_blocks))  # the next allocate() takes the front
        self.ref_counts = [0] * self.n_blocks

    @property
    def n_free(self) -> int:
        return len(self.free_list)

    def allocate(self) -> int:
        if not self.free_list:
            raise RuntimeError(
                f"out of KV-cache blocks: all {self.n_blocks} are in use. Free a sequence "
                "(a server would preempt one) or make the pool larger."
            )
        block = self.free_list.pop(0)
        self.ref_counts[block] = 1
        return block

    def take(self, block: int) -> None:
        """Reuse a specific block: from the free list (a cached, freed block) or shared."""
        if self.ref_counts[block] == 0:
            self.free_list.remove(block)
        self.ref_counts[block] += 1

    def share(self, block: int) -> None:
        if self.ref_counts[block] < 1:
            raise ValueError(f"block {block} is free: only a block in use can be shared")
        self.ref_counts[block] += 1

    def release(self, block: int) -> None:
        if self.ref_counts[block] < 1:
            raise ValueError(f"block {block} is already free")
        self.ref_counts[block] -= 1
        if self.ref_counts[block] == 0:
            self.free_list.append(block)


class PagedKVCache:
    """Keys and values of many sequences in one pool of blocks, each with its block table.

    PagedKVCache(n_blocks, block_size, n_kv_heads, d_head, prefix_caching=False)
    new_sequence(seq, tokens=None) -> how many of `tokens` were found in the prefix cache
    append(seq, k, v, tokens=None): k, v (T_new, H_kv, d) for the next T_new positions
    fork(src, dst), free(seq), gather(seq) -> k, v (H_kv, T, d), block_tables(seqs)
    """

    def __init__(self, n_blocks: int, block_size: int, n_kv_heads: int, d_head: int, *,
                 dtype=torch.float32, prefix_caching: bool = False):
        self.block_size = _whole("block_size", block_size)
        self.allocator = BlockAllocator(n_blocks)
        shape = (self.allocator.n_blocks, self.block_size, _whole("n_kv_heads", n_kv_heads),
                 _whole("d_head", d_head))
        self.k_pool = torch.zeros(shape, dtype=dtype)  # (n_blocks, block_size, H_kv, d)
        self.v_pool = torch.zeros(shape, dtype=dtype)
        self.prefix_caching = prefix_caching
        self.tables: dict = {}  # seq -> [physical block of logical block 0, 1, ...]
        self.lengths: dict = {}  # seq -> tokens stored
        self.tokens: dict = {}  # seq -> token ids, for the prefix hashes
        self.cached: dict[int, int] = {}  # prefix hash -> physical block holding it
        self.block_hash: dict[int, int] = {}  # physical block -> its prefix hash
        self.copies = 0  # copy-on-write copies made

    def _seq(self, seq):
        if seq not in self.tables:
            raise KeyError(f"no sequence {seq!r} in the cache; known: {list(self.tables)}")
        return self.tables[seq]

    def _prefix_hashes(self, tokens) -> list[int]:
        """One hash per full block of tokens: of the previous block's hash and this block's ids."""
        hashes, parent, size = [], 0, self.block_size
        for i in range(len(tokens) // size):
            block_tokens = tuple(int(t) for t in tokens[i * size:(i + 1) * size])
            parent = hash((parent, block_tokens))  # of ints only: the same in every run
            hashes.append(parent)
        return hashes

    def new_sequence(self, seq, tokens=None) -> int:
        """Start `seq`; with prefix caching, reuse cached blocks of its prompt `tokens`.

        Returns the number of leading tokens whose keys and values are already in the cache
        (a multiple of block_size): append only the rest. At least one token is always left to
        compute, as vLLM does, since its query gives the next token's logits.
        """
        if seq in self.tables:
            raise ValueError(f"sequence {seq!r} already exists")
        self.tables[seq], self.lengths[seq], self.tokens[seq] = [], 0, []
        if not (self.prefix_caching and tokens is not None and len(tokens) > 1):
            return 0
        for h in self._prefix_hashes(list(tokens)[:-1]):  # keep >= 1 token to compute
            block = self.cached.get(h)
            if block is None:
                break
            self.allocator.take(block)
            self.tables[seq].append(block)
        found = len(self.tables[seq]) * self.block_size
        self.lengths[seq], self.tokens[seq] = found, [int(t) for t in tokens[:found]]
        return found

    def _writable_block(self, seq, logical: int) -> int:
        """The physical block for logical block `logical`, allocated or copied if shared."""
        table = self.tables[seq]
        if logical == len(table):  # the last block is full (or there is none): a new one
            block = self.allocator.allocate()
            self._forget(block)
            table.append(block)
            return block
        block = table[logical]
        if self.allocator.ref_counts[block] > 1:  # shared and partly filled: copy on write
            new = self.allocator.allocate()
            self._forget(new)
            self.k_pool[new], self.v_pool[new] = self.k_pool[block], self.v_pool[block]
            self.allocator.release(block)
            table[logical] = new
            self.copies += 1
            return new
        return block

    def _forget(self, block: int) -> None:
        """A block handed out again no longer holds the prefix it was cached under."""
        h = self.block_hash.pop(block, None)
        if h is not None and self.cached.get(h) == block:
            del self.cached[h]

    def append(self, seq, k: torch.Tensor, v: torch.Tensor, tokens=None) -> None:
        """Store k, v (T_new, H_kv, d) as the next T_new positions of `seq`.

        tokens: the T_new token ids (needed with prefix caching, to name full blocks).
        """
        self._seq(seq)
        want = tuple(self.k_pool.shape[2:])
        if k.ndim != 3 or tuple(k.shape[1:]) != want or k.shape != v.shape:
            raise ValueError(
                f"k and v must both have shape (T_new, H_kv, d) = (T_new, {want[0]}, {want[1]}); "
                f"got k {tuple(k.shape)} and v {tuple(v.shape)}"
            )
        if self.prefix_caching:
            if tokens is None or len(tokens) != k.shape[0]:
                raise ValueError("with prefix caching, append needs the T_new token ids as well")
            self.tokens[seq] += [int(t) for t in tokens]
        for t in range(k.shape[0]):
            pos = self.lengths[seq]
            block = self._writable_block(seq, pos // self.block_size)
            self.k_pool[block, pos % self.block_size] = k[t]
            self.v_pool[block, pos % self.block_size] = v[t]
            self.lengths[seq] = pos + 1
        if self.prefix_caching:
            self._register_full_blocks(seq)

    def _register_full_blocks(self, seq) -> None:
        for i, h in enumerate(self._prefix_hashes(self.tokens[seq])):
            block = self.tables[seq][i]
            if h not in self.cached and block not in self.block_hash:
                self.cached[h], self.block_hash[block] = block, h

    def fork(self, src, dst) -> None:
        """`dst` starts as a copy of `src` that shares all its physical blocks."""
        if dst in self.tables:
            raise ValueError(f"sequence {dst!r} already exists")
        for block in self._seq(src):
            self.allocator.share(block)
        self.tables[dst] = list(self.tables[src])
        self.lengths[dst], self.tokens[dst] = self.lengths[src], list(self.tokens[src])

    def free(self, seq) -> None:
        """Drop `seq`: each of its blocks loses one reference (shared ones stay in use)."""
        for block in self._seq(seq):
            self.allocator.release(block)
        del self.tables[seq], self.lengths[seq], self.tokens[seq]

    def slots(self, seq) -> torch.Tensor:
        """(T,) the pool slot of every position: block_table[t // block_size] · block_size +
        t % block_size, into the pool viewed as (n_blocks · block_size, H_kv, d)."""
        table = torch.tensor(self._seq(seq), dtype=torch.long)
        t = torch.arange(self.lengths[seq])
        return table[t // self.block_size] * self.block_size + t % self.block_size

    def gather(self, seq):
        """(k, v), each (H_kv, T, d): the sequence's cache as one contiguous tensor."""
        flat = self.k_pool.shape[0] * self.block_size
        slots = self.slots(seq)
        k = self.k_pool.reshape(flat, *self.k_pool.shape[2:])[slots]  # (T, H_kv, d)
        v = self.v_pool.reshape(flat, *self.v_pool.shape[2:])[slots]
        return k.transpose(0, 1), v.transpose(0, 1)

    def block_tables(self, seqs) -> tuple[torch.Tensor, torch.Tensor]:
        """(tables (B, max_blocks) with -1 past each sequence's end, lengths (B,)) for seqs."""
        rows = [self._seq(s) for s in seqs]
        width = max(1, max(len(r) for r in rows))
        tables = torch.full((len(rows), width), -1, dtype=torch.long)
        for i, r in enumerate(rows):
            tables[i, : len(r)] = torch.tensor(r, dtype=torch.long)
        return tables, torch.tensor([self.lengths[s] for s in seqs], dtype=torch.long)


def paged_attention(q, k_pool, v_pool, block_tables, lengths, *, scale: float | None = None):
    """Attention of each sequence's new queries to its own cache, read through its block table.

    q (B, H_q, T_q, d): the last T_q positions of each sequence (T_q = 1 when decoding);
    k_pool, v_pool (n_blocks, block_size, H_kv, d); block_tables (B, max_blocks) long, -1
    unused; lengths (B,) tokens in each cache, new ones included. Query i of sequence b sits
    at position lengths[b] - T_q + i and reads keys 0 .. that position (causal, lower right).
    Returns out (B, H_q, T_q, d). The gather makes a (B, max_blocks · block_size) copy, where
    a kernel would read the blocks in place.
    """
    if q.ndim != 4 or k_pool.ndim != 4 or k_pool.shape != v_pool.shape:
        raise ValueError(
            "q must be (B, H_q, T_q, d) and k_pool, v_pool both (n_blocks, block_size, H_kv, d); "
            f"got q {tuple(q.shape)}, k_pool {tuple(k_pool.shape)}, v_pool {tuple(v_pool.shape)}"
        )
    B, _, T_q, _ = q.shape
    block_size = k_pool.shape[1]
    if block_tables.shape[0] != B or tuple(lengths.shape) != (B,):
        raise ValueError(f"block_tables and lengths need one row per sequence, B = {B}")
    if bool((lengths < T_q).any()) or bool((lengths > block_tables.shape[1] * block_size).any()):
        raise ValueError(
            f"every length must be at least T_q = {T_q} (the queries are cached positions) and "
            f"fit in its block table ({block_tables.shape[1]} blocks of {block_size}); got "
            f"{lengths.tolist()}"
        )
    tables = block_tables.clamp(min=0)  # unused entries read block 0, masked below
    k = k_pool[tables].flatten(1, 2).transpose(1, 2)  # (B, H_kv, max_blocks·block_size, d)
    v = v_pool[tables].flatten(1, 2).transpose(1, 2)
    key_pos = torch.arange(k.shape[-2])  # (T_max,)
    query_pos = lengths[:, None] - T_q + torch.arange(T_q)  # (B, T_q)
    allowed = key_pos[None, None, :] <= query_pos[:, :, None]  # (B, T_q, T_max): causal, < length
    out, _ = grouped_query_attention(q, k, v, allowed[:, None], scale=scale)
    return out


def reserved_slots(lengths, max_len: int, block_size: int) -> dict[str, int]:
    """Token slots a batch reserves: one contiguous max_len cache each, or paged blocks.

    used: Σ T_i; contiguous: n · max_len (each sequence gets the longest it may reach);
    paged: Σ ceil(T_i / block_size) · block_size. Waste = reserved - used; paged wastes fewer
    than block_size slots per sequence.
    """
    max_len, block_size = _whole("max_len", max_len), _whole("block_size", block_size)
    lengths = [_whole("length", t, least=0) for t in lengths]
    if any(t > max_len for t in lengths):
        raise ValueError(f"every length must be <= max_len = {max_len}; got {lengths}")
    return {
        "used": sum(lengths),
        "contiguous": len(lengths) * max_len,
        "paged": sum(math.ceil(t / block_size) * block_size for t in lengths),
    }
