"""Sequences that grow at their end without copying what they grew from, and read as tuples.

A compression summary's folded turns grow by one turn at every fold, and a compaction summary that
takes in the one before it covers every event that one covered and more. Copied into a new tuple
at each step, N steps lay out 1 + 2 + ... + N IDs, so a replay grows with the square of its length.
A `Chain` shares its IDs with the chain it grew from and adds one, so each step is constant work,
and every earlier chain still reads as it did.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, TypeVar, overload

T = TypeVar("T")
H = TypeVar("H", bound=Hashable)


class ReadsAsTuple(Sequence[T]):
    """A sequence that reads, compares, hashes, prints and pickles as the tuple of its items.

    So code that read the tuple it stands in for keeps working, and a dataclass holding one compares
    and prints as it did. Laying it out costs its length: read once per view, not once per step.
    """

    __slots__ = ()

    @classmethod
    def of(cls, items: Iterable[T]) -> ReadsAsTuple[T]:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...
    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return tuple(self)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (ReadsAsTuple, tuple)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self) -> tuple[Any, ...]:
        # Copied or pickled, it takes only its own items, not what it shares with others.
        return (type(self).of, (tuple(self),))


class Chain(ReadsAsTuple[H]):
    """The first `len(chain)` items of a list that the chains of one lineage share.

    Growing the longest chain of a lineage appends to the shared list: the shorter chains read only
    their own prefix, so they do not change. Growing a chain that another has already grown from
    starts a lineage of its own, copied once. Items are hashable (IDs), so membership is a lookup.

    Examples:
        >>> from lessonkit.chain import Chain
        >>> folded = Chain.of(("T2",))
        >>> longer = folded.plus("T3")
        >>> folded, longer, longer == ("T2", "T3"), "T3" in folded
        (('T2',), ('T2', 'T3'), True, False)
    """

    __slots__ = ("_items", "_first", "_length", "distinct")

    def __init__(self) -> None:
        """The empty chain."""
        self._items: list[H] = []
        self._first: dict[H, int] = {}  # each item's first index in the shared list
        self._length = 0
        self.distinct = True  # no item appears twice

    @classmethod
    def of(cls, items: Iterable[H]) -> Chain[H]:
        chain = cls()
        for item in items:
            chain._append(item)
        return chain

    def _append(self, item: H) -> None:
        self.distinct = self.distinct and item not in self
        self._first.setdefault(item, self._length)
        self._items.append(item)
        self._length += 1

    def plus(self, item: H) -> Chain[H]:
        """This chain with `item` after its last; this chain itself is unchanged."""
        grown = Chain.__new__(Chain)
        grown._length, grown.distinct = self._length, self.distinct
        if len(self._items) == self._length:
            grown._items, grown._first = self._items, self._first
        else:  # a longer chain already shares the list past this one's end
            grown._items, grown._first = self._items[: self._length], {}
            for index, earlier in enumerate(grown._items):
                grown._first.setdefault(earlier, index)
        grown._append(item)
        return grown

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[H]:
        return islice(self._items, self._length)

    def __contains__(self, item: object) -> bool:
        try:
            return self._first.get(item, self._length) < self._length
        except TypeError:  # unhashable: never one of the IDs
            return False

    @overload
    def __getitem__(self, index: int) -> H: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[H, ...]: ...
    def __getitem__(self, index: int | slice) -> H | tuple[H, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        position = index + self._length if index < 0 else index
        if not 0 <= position < self._length:
            raise IndexError("chain index out of range")
        return self._items[position]
