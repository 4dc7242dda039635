"""The prompt cache: what a request reads from the cache, what it writes, and what it costs.

The lesson's cache is the simplest that shows the trade with clearing:
- one cache breakpoint at the end of every request, so each request leaves its whole prompt cached;
- a request reads the longest run of blocks, from the start, that is identical to the previous
  request's prompt, and writes the rest;
- nothing expires within the session (no time-to-live), and there is no minimum cacheable length.

Prices are in units of the model's input price per token: a cache read and a cache write cost the
`Pricing` multipliers, whose defaults are Anthropic's published ones for a five-minute cache
(0.1 for a read, 1.25 for a write). With the cache off, every token costs 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lessonkit import checks
from lessonkit.lessons.tool_result_clearing.clearing import Block

__all__ = ["ANTHROPIC_FIVE_MINUTES", "CacheUse", "Pricing", "cached_prefix", "first_change", "use_cache"]


@dataclass(frozen=True)
class Pricing:
    """What a cached token costs, as a multiple of the input price.

    Raises:
        lessonkit.checks.Refused: A multiplier is negative or not a number.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import Pricing
        >>> Pricing()
        Pricing(read=0.1, write=1.25)
    """

    read: float = 0.1
    write: float = 1.25

    def __post_init__(self) -> None:
        checks.number("read", self.read, minimum=0)
        checks.number("write", self.write, minimum=0)


ANTHROPIC_FIVE_MINUTES = Pricing(read=0.1, write=1.25)
"""Anthropic's published multipliers: a cache read at 0.1 times the input price, a five-minute cache write at 1.25."""


@dataclass(frozen=True)
class CacheUse:
    """How one request's prompt meets the cache, in teaching tokens, and its price in input-price units.

    `read` + `written` + `uncached` is the whole prompt; with the cache on, `uncached` is 0, and
    with it off, everything is uncached.
    """

    read: int
    written: int
    uncached: int
    price: float

    @property
    def tokens(self) -> int:
        return self.read + self.written + self.uncached


def first_change(previous: Sequence[Block], prompt: Sequence[Block]) -> int | None:
    """The place of the first block of `prompt` that is not the block `previous` has there, in the
    same state: where a cache read of `prompt` stops. None when `prompt` begins with all of it.

    Args:
        previous: The previous request's prompt, as sent.
        prompt: This request's prompt, as sent.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import Block, first_change
        >>> system, result = Block("system", "system", 800), Block("r1", "tool", 900)
        >>> first_change([system, result], [system, Block("r1", "tool", 3, cleared=True)])
        1
    """
    for index, block in enumerate(prompt):
        if index >= len(previous) or previous[index] != block:
            return index
    return None


def cached_prefix(previous: Sequence[Block], prompt: Sequence[Block]) -> int:
    """The tokens at the start of `prompt` that are identical to the start of `previous`: the longest
    run of the same blocks, in the same state, from the first.

    Args:
        previous: The previous request's prompt, as sent.
        prompt: This request's prompt, as sent.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import Block, cached_prefix
        >>> system, question = Block("system", "system", 800), Block("u1", "user", 40)
        >>> cached_prefix([system, question], [system, question, Block("a1", "assistant", 30)])
        840
        >>> cached_prefix([system, Block("r1", "tool", 900)], [system, Block("r1", "tool", 3, cleared=True)])
        800
    """
    stop = first_change(previous, prompt)
    return sum(block.tokens for block in prompt[: len(prompt) if stop is None else stop])


def use_cache(previous: Sequence[Block] | None, prompt: Sequence[Block], *, caching: bool, pricing: Pricing) -> CacheUse:
    """How `prompt` meets the cache after `previous` (None for the first request), and its price.

    Args:
        previous: The prompt of the request before, as sent, or None for the first request.
        prompt: This request's prompt, as sent.
        caching: Whether the prompt cache is on.
        pricing: The multipliers for a cache read and a cache write.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import Block, Pricing, use_cache
        >>> system, question = Block("system", "system", 800), Block("u1", "user", 40)
        >>> use_cache([system], [system, question], caching=True, pricing=Pricing())
        CacheUse(read=800, written=40, uncached=0, price=130.0)
        >>> use_cache([system], [system, question], caching=False, pricing=Pricing())
        CacheUse(read=0, written=0, uncached=840, price=840.0)
    """
    tokens = sum(block.tokens for block in prompt)
    if not caching:
        return CacheUse(0, 0, tokens, float(tokens))
    read = cached_prefix(previous, prompt) if previous is not None else 0
    written = tokens - read
    return CacheUse(read, written, 0, read * pricing.read + written * pricing.write)
