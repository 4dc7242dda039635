"""The byte-pair merge: one piece of text, as bytes, to the tokens of an encoding.

A piece starts as its single bytes. Of every pair of neighbours whose joined bytes have a rank, the
pair with the lowest rank is joined (the leftmost, if the same pair comes twice), and so on until no
neighbours join; each part left is then a token, its id its rank. A piece that is a token whole is
that token, which is how most words of English are one token.

This is tiktoken's algorithm, making the same choice at every step. The pairs wait in a heap,
ordered as the choice is made, so a piece of n bytes takes n log n steps: a run of a thousand "="
is one piece, and a scan of every pair at every step would take a million. On the short pieces of
ordinary text the heap is no slower than the scan either (bench/FINDINGS.md), so it is the only way.
"""

from __future__ import annotations

from collections.abc import Mapping
from heapq import heapify, heappop, heappush

__all__ = ["merge"]


def merge(piece: bytes, ranks: Mapping[bytes, int]) -> list[int]:
    """The token ids of `piece` under `ranks`.

    Args:
        piece: One piece of a text, as UTF-8 bytes.
        ranks: Every token's bytes and its rank; every single byte has one.

    Examples:
        >>> from lessonkit.tokens.byte_pair import merge
        >>> ranks = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"bc": 4, b"abc": 5}
        >>> merge(b"abc", ranks), merge(b"cab", ranks), merge(b"bcab", ranks), merge(b"aaa", ranks)
        ([5], [2, 3], [4, 3], [0, 0, 0])
    """
    whole = ranks.get(piece)
    if whole is not None:
        return [whole]
    # A part is known by where it starts, which never changes: a join keeps the left part's start.
    # A pair waits as (rank, left start, right start, right end); one whose parts have changed
    # since it was pushed is stale, and skipped when it comes up.
    size = len(piece)
    end = list(range(1, size + 1))  # end[start]: where the part that starts there ends
    before = list(range(-1, size - 1))  # before[start]: where the part before it starts
    alive = [True] * size
    waiting = []
    for at in range(size - 1):
        rank = ranks.get(piece[at : at + 2])
        if rank is not None:
            waiting.append((rank, at, at + 1, at + 2))
    heapify(waiting)
    while waiting:
        _, left, right, stop = heappop(waiting)
        if not (alive[left] and alive[right] and end[left] == right and end[right] == stop):
            continue
        end[left], alive[right] = stop, False
        if stop < size:
            before[stop] = left
            rank = ranks.get(piece[left : end[stop]])
            if rank is not None:
                heappush(waiting, (rank, left, stop, end[stop]))
        previous = before[left]
        if previous >= 0:
            rank = ranks.get(piece[previous:stop])
            if rank is not None:
                heappush(waiting, (rank, previous, left, stop))
    ids, at = [], 0
    while at < size:
        ids.append(ranks[piece[at : end[at]]])
        at = end[at]
    return ids
