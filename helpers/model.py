"""A tiny decoder-only character language model, its training loop, sampling and KV cache.

Built from helpers.blocks and helpers.heads: token + learned position embeddings, Pre-Norm
blocks, a final LayerNorm and an output head that turns each position into next-token logits.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from helpers.blocks import LayerNorm, TransformerBlock
from helpers.heads import KVCache
from helpers.masks import causal_mask
from helpers.positions import LearnedPositions

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
MASKS = ("causal", "reversed", "none")


def load_corpus(name: str = "alice.txt") -> str:
    """The text shipped in data/ (Alice's Adventures in Wonderland, chapters I-III)."""
    path = DATA_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"no corpus {name!r} in {DATA_DIR}")
    return path.read_text(encoding="ascii")


class CharTokenizer:
    """One id per distinct character of `text`, in sorted order."""

    def __init__(self, text: str):
        if not text:
            raise ValueError("CharTokenizer needs a non-empty text to take its characters from")
        self.chars = sorted(set(text))
        self.stoi = {c: i for i, c in enumerate(self.chars)}

    @property
    def vocab_size(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> list[int]:
        for i, c in enumerate(text):
            if c not in self.stoi:
                raise ValueError(
                    f"character {c!r} at position {i} is not in the vocabulary of "
                    f"{self.vocab_size} characters this tokenizer was built from"
                )
        return [self.stoi[c] for c in text]

    def decode(self, ids) -> str:
        ids = [int(i) for i in ids]
        bad = [i for i in ids if not 0 <= i < self.vocab_size]
        if bad:
            raise ValueError(f"id {bad[0]} is outside the vocabulary 0..{self.vocab_size - 1}")
        return "".join(self.chars[i] for i in ids)


class TinyGPT(nn.Module):
    """Decoder-only language model: ids (B, T) -> next-token logits (B, T, vocab).

    mask: "causal" (position i reads 0..i), "reversed" (i reads i..T-1: the deliberate bug,
    every position can read the token it must predict), or "none" (reads everything).
    seed: initial weights are drawn from this seed without touching the global generator.
    """

    def __init__(
        self,
        vocab_size: int,
        d_model: int = 64,
        n_heads: int = 4,
        n_layers: int = 2,
        d_ff: int = 256,
        max_len: int = 128,
        mask: str = "causal",
        seed: int | None = 0,
    ):
        super().__init__()
        if mask not in MASKS:
            raise ValueError(f"mask must be one of {MASKS}; got {mask!r}")
        self.mask, self.max_len = mask, max_len
        with torch.random.fork_rng(devices=[]):
            if seed is not None:
                torch.manual_seed(seed)
            self.tok = nn.Embedding(vocab_size, d_model)
            self.pos = LearnedPositions(max_len, d_model)
            causal = mask == "causal"  # causal blocks build their own mask; forward passes others
            self.blocks = nn.ModuleList(
                TransformerBlock(
                    d_model, n_heads, d_ff, norm_first=True, causal=causal, activation="gelu"
                )
                for _ in range(n_layers)
            )
            self.ln_f = LayerNorm(d_model)
            self.head = nn.Linear(d_model, vocab_size, bias=False)
            self.apply(_init_weights)

    def forward(self, idx: torch.Tensor, cache: list[KVCache] | None = None, attn_mask=None):
        """idx (B, T) -> (logits (B, T, vocab), cache).

        cache: one KVCache per layer from an earlier call; idx then continues that sequence
        and only its new positions are computed. Without one, a fresh cache is returned.
        attn_mask: bool, True = may attend, broadcastable to (T, T_k) (T_k = cached + T keys),
        and-ed with the model's own mask in every layer: a sliding window, say.
        """
        if idx.ndim != 2 or idx.dtype != torch.long:
            raise ValueError(
                f"idx must be token ids of shape (B, T) and dtype long; "
                f"got shape {tuple(idx.shape)}, dtype {idx.dtype}"
            )
        if cache is None:
            cache = [KVCache() for _ in self.blocks]
        past, T = len(cache[0]), idx.shape[1]
        if past and self.mask != "causal":
            raise ValueError(
                f"TinyGPT uses a KV cache only with the causal mask; with mask={self.mask!r} "
                + ("a new token changes what the earlier positions compute (from the second "
                   "layer on), so their cached keys and values would go stale"
                   if self.mask == "none" else
                   "decoding with a cache would be exact but pointless: the newest token reads "
                   "only itself, so the cache would never be read (and the model, trained to "
                   "copy the next token, is never given one when it generates)")
            )
        x = self.tok(idx) + self.pos(torch.arange(past, past + T))  # (B, T, D)
        mask = torch.as_tensor(causal_mask(T).T) if self.mask == "reversed" else None
        if attn_mask is not None:
            attn_mask = torch.as_tensor(attn_mask)
            if attn_mask.dtype != torch.bool:
                raise ValueError(
                    f"attn_mask must be boolean, True = may attend; got dtype {attn_mask.dtype}"
                )
            mask = attn_mask if mask is None else mask & attn_mask
        for block, layer_cache in zip(self.blocks, cache, strict=True):
            x = block(x, mask=mask, cache=layer_cache)  # causal blocks add their own mask
        return self.head(self.ln_f(x)), cache  # (B, T, vocab)


def _init_weights(module: nn.Module) -> None:
    """Small normal weights (std 0.02, GPT-2's) and zero biases; without GPT-2's 1/√(2L)
    scaling of the residual projections or its tied input and output embeddings."""
    if isinstance(module, (nn.Linear, nn.Embedding)):
        nn.init.normal_(module.weight, std=0.02)
    if isinstance(module, nn.Linear) and module.bias is not None:
        nn.init.zeros_(module.bias)


@contextmanager
def _threads(n: int):
    """Run with torch using n threads, then restore the previous count."""
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _lr_factor(step: int, steps: int) -> float:
    """Linear warm-up over the first 10% of steps, then cosine decay to 10% of the peak."""
    warmup = min(1.0, (step + 1) / (0.1 * steps + 1))
    return warmup * (0.1 + 0.45 * (1 + math.cos(math.pi * step / steps)))


def train(
    model: nn.Module,
    data_ids,
    steps: int = 600,
    batch_size: int = 32,
    block_size: int | None = None,
    lr: float = 1e-2,
    seed: int = 0,
    threads: int = 1,
    on_step=None,
    weight_decay: float = 0.01,
) -> list[float]:
    """AdamW on random windows of data_ids; returns the next-token loss of every step.

    block_size: window length, by default the model's max_len. Positions past it are never
    trained, so a model trained on shorter windows generates well only that far.
    threads: torch's thread count while training, restored afterwards. One by default: a
    model this small gains little from more, and notebooks run side by side (parallel test
    workers) then do not fight over the cores.
    on_step: called as on_step(step, loss) after every step (a progress bar, say).
    weight_decay: AdamW's (0.01, torch's default); more holds back memorising a small text.
    """
    data = torch.as_tensor(data_ids, dtype=torch.long)
    block_size = model.max_len if block_size is None else block_size
    if block_size > model.max_len:
        raise ValueError(f"block_size {block_size} exceeds the model's max_len {model.max_len}")
    if len(data) <= block_size:
        raise ValueError(f"need more than block_size={block_size} ids; got {len(data)}")
    g = torch.Generator().manual_seed(seed)

    def window_loss():
        start = torch.randint(len(data) - block_size, (batch_size,), generator=g)
        offsets = start[:, None] + torch.arange(block_size)  # (B, T)
        x, y = data[offsets], data[offsets + 1]  # y is x shifted one to the left
        logits = next_token_logits(model, x)  # (B, T, vocab)
        return F.cross_entropy(logits.flatten(0, 1), y.flatten())

    return fit_steps(model, window_loss, steps, lr=lr, weight_decay=weight_decay,
                     threads=threads, on_step=on_step)


def next_token_logits(model: nn.Module, idx: torch.Tensor) -> torch.Tensor:
    """idx (B, T) -> logits (B, T, vocab) of either course model: TinyGPT returns (logits,
    cache), helpers.induction.AttentionOnly the logits alone."""
    out = model(idx)
    return out[0] if isinstance(out, tuple) else out


def fit_steps(model: nn.Module, batch_loss, steps: int, *, lr: float, weight_decay: float,
              threads: int = 1, on_step=None, foreach: bool | None = None) -> list[float]:
    """The course's training loop: `steps` AdamW steps (betas 0.9, 0.99) on batch_loss(), the
    loss of a fresh batch, with a linear warm-up and a cosine decay of the learning rate.

    Returns every step's loss; leaves the model in eval mode. threads: torch's thread count
    while training, restored afterwards. on_step(step, loss) is called after every step.
    """
    opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.99),
                            weight_decay=weight_decay, foreach=foreach)
    schedule = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: _lr_factor(step, steps))
    losses = []
    model.train()
    with _threads(threads):
        for _ in range(steps):
            loss = batch_loss()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            schedule.step()
            losses.append(loss.item())
            if on_step is not None:
                on_step(len(losses), losses[-1])
    model.eval()
    return losses


@torch.no_grad()
def attention_weights(model: TinyGPT, idx: torch.Tensor, attn_mask=None) -> torch.Tensor:
    """(n_layers, B, n_heads, T, T) attention weights of every head while `model` reads idx."""
    found = []
    hooks = [block.attn.register_forward_hook(lambda mod, args, out: found.append(out[1]))
             for block in model.blocks]
    was_training = model.training
    model.eval()
    try:
        model(idx, attn_mask=attn_mask)
    finally:
        for hook in hooks:
            hook.remove()
        model.train(was_training)
    return torch.stack(found)

@torch.no_grad()
def generate(
    model: TinyGPT,
    prompt_ids,
    n_new: int,
    temperature: float = 1.0,
    seed: int = 0,
    use_cache: bool = False,
    threads: int = 1,
) -> list[int]:
    """prompt_ids followed by n_new sampled ids. temperature=0 picks the most likely id.

    Without a cache every step recomputes the last max_len positions. With one, each step
    computes only the newest position; once the cache holds max_len positions the learned
    position table has no next row, so the window is recomputed as without a cache.
    """
    ids = [int(i) for i in prompt_ids]
    if not ids:
        raise ValueError("generate needs at least one prompt id to start from")
    if use_cache and model.mask != "causal":
        raise ValueError(f"use_cache=True needs the causal mask; this model has {model.mask!r}")
    g = torch.Generator().manual_seed(seed)
    model.eval()
    cache = None
    with _threads(threads):
        for _ in range(n_new):
            if use_cache and cache is not None and len(cache[0]) < model.max_len:
                logits, cache = model(torch.tensor([ids[-1:]]), cache)  # decode: one position
            else:
                logits, cache = model(torch.tensor([ids[-model.max_len :]]))  # whole window
            last = logits[0, -1]  # (vocab,)
            if temperature == 0:
                ids.append(int(last.argmax()))
            else:
                probs = torch.softmax(last / temperature, dim=-1)
                ids.append(int(torch.multinomial(probs, 1, generator=g)))
    return ids
