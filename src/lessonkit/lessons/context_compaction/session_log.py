"""The session log, and what the model sees kept as the session grows.

The functions of `lessonkit.lessons.context_compaction.in_view` read the whole log at every check;
over a session of N events that costs N times N. `SessionLog` keeps what the checks read, updated as
each event and summary is written, so a check costs what its span costs. It answers as the rule
does, and falls back to the rule whenever a log breaks what the index rests on.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping

from lessonkit.chain import ReadsAsTuple
from lessonkit.lessons.context_compaction.events import Entry, Event, Summary
from lessonkit.lessons.context_compaction.in_view import kept_summaries, removable, visible

# What the model sees, kept as the session grows: every model request keeps what its model saw, and
# every check reads the session at that moment. Read from the whole log each time, as the functions
# above read it, the checks of a session of N events cost N times N.


class Seen(ReadsAsTuple[Entry]):
    """What the model sees at one moment, oldest first: its newest entry after what it saw before that.

    Each Seen shares everything but its newest entry with the Seen it grew from, so a request keeps
    what its model saw at constant cost, however much that is: on the turn path every summary stays
    in view, so it grows with the session. It is laid out only when read, as a tuple. Its tokens and
    the attachment names its entries mention, which every request reads, are kept as it grows.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Seen, lesson
        >>> seen = Seen.of(lesson().events[:2])
        >>> [entry.id for entry in seen], seen.tokens, sorted(seen.named)
        (['u1', 'c1'], 62, ['statement-march.pdf'])
    """

    __slots__ = ("newest", "before", "length", "tokens", "named")

    def __init__(self) -> None:
        """Nothing seen yet."""
        self.newest: Entry | None = None
        self.before: Seen | None = None
        self.length = 0
        self.tokens = 0
        self.named: frozenset[str] = frozenset()

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Seen:
        seen = cls()
        for entry in entries:
            seen = seen.then(entry)
        return seen

    def then(self, entry: Entry) -> Seen:
        """What the model sees with `entry` after everything seen here; this Seen is unchanged."""
        seen = Seen.__new__(Seen)
        seen.newest, seen.before, seen.length = entry, self, self.length + 1
        seen.tokens = self.tokens + entry.tokens
        seen.named = self.named.union(entry.mentions) if entry.mentions else self.named
        return seen

    def __reversed__(self) -> Iterator[Entry]:
        seen = self
        while seen.length:
            yield seen.newest
            seen = seen.before

    def __iter__(self) -> Iterator[Entry]:
        return reversed(list(reversed(self)))

    def __len__(self) -> int:
        return self.length


class SessionLog:
    """The session as written so far, and what the checks read from it, updated as it is written.

    `log` holds raw events and summaries in written order, the session as the rules above read it.
    Beside it are kept what the model sees now, the latest summary it sees, the raw events by
    position and the turns with where each ends, so that a check costs what the span it reads costs,
    not what the whole session does. They rest on what a session and its summaries are: each event
    after the one before it and after every summary's end, a turn's events together, a summary that
    starts no later than it ends. A log that breaks one (a fixture built by hand, a summarizer of a
    reader's own) is read in full from then on, by the functions above, so it is read the same.
    """

    def __init__(self) -> None:
        self.log: list[Entry] = []
        self.seen = Seen()  # what the model sees now
        self.modelled = True  # the indexes below hold the rules; False: read the whole log
        self.written = 0  # summaries written
        self.last_written: Summary | None = None
        self._latest: Summary | None = None  # the latest summary the model sees, while modelled
        self.reach: int | None = None  # the furthest end of a summary written
        self.raw: list[Event] = []
        self.raw_positions: list[int] = []
        self.raw_tokens = 0
        self.raw_named: set[str] = set()
        self.at_position: dict[int, Event] = {}
        self.turns: list[int] = []  # in the order they began
        self.turn_place: dict[int, int] = {}  # a turn's index in `turns`
        self.turn_events: dict[int, list[Event]] = {}
        self.turn_ends: list[int] = []  # the position of each turn's last event so far

    def read_in_full(self) -> None:
        """Read the whole log from now on, as the functions above do, rather than the indexes."""
        self.modelled = False
        self.seen = Seen.of(visible(tuple(self.log)))

    def add(self, event: Event) -> None:
        """A raw event, after every other."""
        newest = self.raw[-1].position if self.raw else None
        in_order = (newest is None or event.position > newest) and (self.reach is None or event.position > self.reach)
        place = self.turn_place.get(event.turn)
        self.log.append(event)
        self.raw.append(event)
        self.raw_positions.append(event.position)
        self.raw_tokens += event.tokens
        self.raw_named.update(event.mentions)
        self.at_position.setdefault(event.position, event)
        if place is None:
            self.turn_place[event.turn] = len(self.turns)
            self.turns.append(event.turn)
            self.turn_events[event.turn] = [event]
            self.turn_ends.append(event.position)
        else:
            self.turn_events[event.turn].append(event)
            self.turn_ends[place] = event.position
        if self.modelled and in_order and place in (None, len(self.turns) - 1):
            self.seen = self.seen.then(event)  # after every summary's end: nothing covers it
        else:
            self.read_in_full()

    def write(self, summary: Summary) -> None:
        """A summary, written after every entry so far."""
        self.log.append(summary)
        self.written += 1
        self.last_written = summary
        self.reach = summary.end if self.reach is None else max(self.reach, summary.end)
        if not self.modelled or summary.start > summary.end:
            self.read_in_full()
            return
        # Whatever the summary replaces, or is contained by, ends at or after its start: the newest
        # entries the model sees, as many as its span reaches back over.
        start, end = summary.start, summary.end
        reached, rest = [], self.seen
        while rest.length and rest.newest.position >= start:
            if _holds(rest.newest, start, end):
                return  # a summary the model sees already holds this span: it sees nothing new
            reached.append(rest.newest)
            rest = rest.before
        self._latest, seen, placed = summary, rest, False
        for entry in reversed(reached):  # oldest first; none ends where the summary does
            if _replaces(start, end, entry):
                continue
            if not placed and entry.position > summary.end:
                seen, placed = seen.then(summary), True
            seen = seen.then(entry)
        self.seen = seen if placed else seen.then(summary)

    @property
    def latest(self) -> Summary | None:
        """The latest summary written that the model still sees."""
        if self.modelled:
            return self._latest
        kept = kept_summaries(tuple(self.log))
        return kept[-1] if kept else None

    def raw_after(self, end: int) -> list[Event]:
        """The raw events after position `end`, in order."""
        if self.modelled:
            return self.raw[bisect_right(self.raw_positions, end) :]
        return [event for event in self.raw if event.position > end]

    def turns_after(self, end: int) -> list[int]:
        """The turns with an event after position `end`, in order."""
        if self.modelled:
            return self.turns[bisect_right(self.turn_ends, end) :]
        return [turn for turn in self.turns if self.turn_events[turn][-1].position > end]

    def event_at(self, position: int) -> Event:
        """The first raw event at `position`."""
        if position in self.at_position:
            return self.at_position[position]
        return next(event for event in self.raw if event.position == position)  # none: fail as the log read would

    def prompt_reading(self, prompts: Mapping[str, int]) -> tuple[int | None, bool]:
        """What the size trigger reads: the last request's prompt, or an estimate if a summary came since."""
        for entry in reversed(self.log):
            if isinstance(entry, Summary):
                break  # counts from before a summary describe a prompt it replaced
            if entry.id in prompts:
                return prompts[entry.id], False
        return (self.seen.tokens or None), True

    def removable(self, span: tuple[Entry, ...]) -> int:
        """Tokens that replacing `span` with an empty summary would take out of what the model sees (see `removable`)."""
        if not self.modelled:
            return removable(tuple(self.log), span)
        start, end = min(entry.start for entry in span), max(entry.position for entry in span)
        gain, rest = 0, self.seen
        while rest.length and rest.newest.position >= start:
            if _holds(rest.newest, start, end):
                return 0  # an empty summary of the span would not be kept: the model would see the same
            if _replaces(start, end, rest.newest):
                gain += rest.newest.tokens
            rest = rest.before
        return gain


def _holds(entry: Entry, start: int, end: int) -> bool:
    """Whether `entry` is a summary whose span holds `start` to `end` and is another span: a summary of that is not kept."""
    return isinstance(entry, Summary) and entry.start <= start and end <= entry.end and (entry.start != start or entry.end != end)


def _replaces(start: int, end: int, entry: Entry) -> bool:
    """Whether a kept summary of `start` to `end` takes `entry` out of view: a raw event in its span, or a summary within it."""
    return start <= entry.start and entry.position <= end
