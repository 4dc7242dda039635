"""Context compaction: replay a long support session and see when it is summarized, and what the model sees.

The session is the fixture's events in order: each turn is a user message, any number of tool
calls each answered at once by its response, and the agent's reply. Every event has a teaching-token
weight (not tokenizer output). One user message names a file; the file is attached in full to every
model request while its name is in what the model sees, and counts toward that request's prompt.

Every tool call and every reply is produced by one model request. The rules are ADK's (google-adk
2.13), moment for moment:

- Before each model request, if the size trigger is set, compaction may run (ADK's compaction
  request processor). After each turn the size trigger runs again and, only if it wrote nothing,
  the turn trigger (the Runner's post-invocation compaction).
- The size trigger reads the last request's prompt. After a summary is written that number
  describes a prompt the summary replaced, so until the next request reports its prompt the trigger
  estimates it from what the model sees, leaving attached files out: they ride on requests, not in
  the session. At ``after_tokens`` or more it summarizes the raw events since the latest summary
  except the newest ``keep_recent_events``; the latest summary goes first into the span, so the new
  summary subsumes it. A kept tool response keeps its call: the split moves back to keep pairs whole.
- The turn trigger counts turns with an event after the end of the last summary written. At
  ``after_invocations`` new turns it summarizes them raw, starting ``overlap`` turns earlier, so
  consecutive summaries overlap at the seam and both stay in view.
- A span is summarized only if it is worth it: replacing it with an empty summary must remove more
  than the latest summary weighs.
- The model sees the summaries no other summary contains, each as a model-role turn placed at the
  end of its span, and the raw events outside every summary.

Where the lesson leaves a rule of ADK's out, or measures differently, ``ADK_DIFFERENCES`` says so.
The session has one agent, no branches and no rewound turns, which ADK would also keep out of
summaries and prompts.

Two summarizers are built in. ``Terse`` is the source's rule-based summarizer: it keeps what people
said and an earlier summary, one line each, and drops tool chatter; a line costs its words plus a
token for its speaker's label, and a span with nothing said gives no summary. ``AgentModel`` stands
in for ADK's ``LlmEventSummarizer`` on the agent's model without calling one (the lesson runs offline
and must be deterministic): its summary is a fixed fifth of the span it reads, at least 40 tokens,
and it reiterates the user's requests, so it carries the names of the files they named.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from lessonkit.chain import Chain, ReadsAsTuple
from lessonkit.compaction import Compaction, Refusal, Summarizer
from lessonkit.fixtures import Record, read_fixture

KINDS = ("user", "tool_call", "tool_response", "reply")
PRESET_FIELDS = ("after_tokens", "keep_recent_events", "after_invocations", "overlap", "summarizer")

# Rules of ADK's that the lesson does not play out, named so the page can cite them. Each has a
# test in tests/test_compaction_adk.py that shows the difference.
ADK_DIFFERENCES: Mapping[str, str] = {
    "worth": (
        "ADK prices a span in characters of JSON, the way the request carries it, framing included "
        "(an empty summary still weighs 27 characters); the lesson prices it in tokens."
    ),
    "estimate": (
        "With no prompt count since the latest summary, ADK estimates the prompt as its characters "
        "divided by four; the lesson counts the tokens of what the model sees. Both leave attached files out."
    ),
    "pairs": (
        "ADK also keeps parallel calls, long-running calls, confirmations and calls that will never be "
        "answered from being split from their answers; the lesson's tool calls are answered one at a time."
    ),
    "stale": (
        "ADK discards a summary written while a later turn moved the session on; the lesson's turns "
        "never overlap, so every summary written is kept."
    ),
}


@dataclass(frozen=True)
class Attachment:
    """A file a user message names: attached in full to every request while the name is in view."""

    name: str
    tokens: int


@dataclass(frozen=True)
class Event:
    """One raw event of the session, at `position` in it."""

    id: str
    position: int
    turn: int
    kind: str
    tokens: int
    text: str
    call: str | None = None  # a tool response: the call it answers
    mentions: tuple[str, ...] = ()  # the attachments its text names

    @property
    def role(self) -> str:
        # A tool's response goes back to the model as a user-role turn, as the model APIs have it.
        return "model" if self.kind in ("tool_call", "reply") else "user"

    @property
    def said(self) -> bool:
        """Words a person said: the user's messages and the agent's replies, not tool chatter."""
        return self.kind in ("user", "reply")

    @property
    def start(self) -> int:
        return self.position


@dataclass(frozen=True)
class Summary:
    """A summary of the raw events from `start` to `end`, seen by the model as one model-role turn.

    `covered` reads as a tuple of event IDs. It is a chain: a summary that takes in the one before it
    shares that one's covered events instead of copying them, which on the size path would copy
    every event summarized so far at every summary.
    """

    id: str
    start: int
    end: int
    tokens: int
    covered: Chain[str]  # the raw events of its span, oldest first
    keeps: tuple[str, ...]  # the entries whose words it carries: said lines, an earlier summary
    mentions: tuple[str, ...] = ()
    by: str = ""

    role = "model"

    def __post_init__(self) -> None:
        # Written with a tuple, as a reader's summarizer may write one, it is taken in without copying too.
        if not isinstance(self.covered, Chain):
            object.__setattr__(self, "covered", Chain.of(self.covered))

    @property
    def position(self) -> int:
        return self.end

    def covers(self, position: int) -> bool:
        return self.start <= position <= self.end


Entry = Event | Summary


def write_summary(summary_id: str, span: tuple[Entry, ...], tokens: int, keeps: tuple[Entry, ...], by: str) -> Summary:
    """A summary of `span`, from the start of its first entry to its last: the bounds ADK's summarizers write.

    Args:
        summary_id: The summary's ID (``"S1"``).
        span: The entries it replaces, in order.
        tokens: What the summary weighs.
        keeps: The entries whose words it keeps.
        by: The summarizer's name.

    Examples:
        >>> from lessonkit.compaction_session import lesson, write_summary
        >>> events = lesson().events
        >>> summary = write_summary("S1", events[:4], 12, events[:1], "terse")
        >>> summary.covered, summary.keeps, summary.mentions
        (('u1', 'c1', 'r1', 'a1'), ('u1',), ('statement-march.pdf',))
    """
    first = span[0]
    # A span that opens with the latest summary grows from its covered events, shared rather than
    # copied; each later event is looked up in them, not searched for.
    covered, rest = (first.covered, span[1:]) if isinstance(first, Summary) and first.covered.distinct else (Chain(), span)
    for entry in rest:
        for raw in entry.covered if isinstance(entry, Summary) else (entry.id,):
            if raw not in covered:
                covered = covered.plus(raw)
    mentions = tuple(dict.fromkeys(name for entry in keeps for name in entry.mentions))
    return Summary(summary_id, first.start, span[-1].position, tokens, covered, tuple(e.id for e in keeps), mentions, by)


class Terse(Summarizer):
    """What people said, without the tool chatter: one line per said event or earlier summary. No model call."""

    name = "terse"
    label_tokens = 1  # "user: ", "support: ": the speaker's label on each line

    def summarize(self, span: tuple[Entry, ...], summary_id: str) -> Summary | None:
        lines = tuple(entry for entry in span if isinstance(entry, Summary) or entry.said)
        if not lines:
            return None
        return write_summary(summary_id, span, sum(line.tokens + self.label_tokens for line in lines), lines, self.name)


class AgentModel(Summarizer):
    """A stand-in for the agent's own model summarizing: a fixed fifth of the span, at least 40 tokens.

    No model is called. The ratio is a teaching figure, not a measurement of any model.
    """

    name = "model"
    reads_span = True
    percent = 20
    at_least = 40

    def summarize(self, span: tuple[Entry, ...], summary_id: str) -> Summary | None:
        read = sum(entry.tokens for entry in span)
        tokens = max(self.at_least, -(-read * self.percent // 100))
        requests = tuple(entry for entry in span if isinstance(entry, Summary) or entry.kind == "user")
        return write_summary(summary_id, span, tokens, requests, self.name)


terse = Terse()
SUMMARIZERS: Mapping[str, str] = {"terse": "Terse: what people said", "model": "The agent's model"}
_BUILT_IN: Mapping[str, type[Summarizer]] = {"terse": Terse, "model": AgentModel}


# What the model sees, from the session log: raw events and summaries in the order they were written.


def kept_summaries(log: tuple[Entry, ...]) -> tuple[Summary, ...]:
    """The summaries no other summary contains; of two with one span, the later. In written order.

    Args:
        log: The session as written: raw events and summaries.

    Examples:
        >>> from lessonkit.compaction import Compaction
        >>> from lessonkit.compaction_session import kept_summaries, simulate
        >>> [summary.id for summary in kept_summaries(simulate(Compaction(after_invocations=4, overlap=1)).log)]
        ['S1', 'S2', 'S3']
    """
    written = [(index, entry) for index, entry in enumerate(log) if isinstance(entry, Summary)]
    kept, furthest = set(), None
    for index, summary in sorted(written, key=lambda item: (item[1].start, -item[1].end, -item[0])):
        if furthest is None or summary.end > furthest:
            kept.add(index)
            furthest = summary.end
    return tuple(summary for index, summary in written if index in kept)


def visible(log: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """What the model sees: kept summaries at the end of their spans, and raw events outside every summary.

    Args:
        log: The session as written.

    Examples:
        >>> from lessonkit.compaction import Compaction
        >>> from lessonkit.compaction_session import simulate, visible
        >>> [entry.id for entry in visible(simulate(Compaction(after_invocations=4, overlap=1)).log)]
        ['S1', 'S2', 'S3']
    """
    kept = kept_summaries(log)
    seen = [entry for entry in log if isinstance(entry, Event) and not any(s.covers(entry.position) for s in kept)]
    return tuple(sorted(seen + list(kept), key=lambda entry: entry.position))


def attached(view: Iterable[Entry], attachments: tuple[Attachment, ...]) -> tuple[Attachment, ...]:
    """The files attached to a request: those whose names the entries the model sees mention.

    Args:
        view: What the model sees.
        attachments: The session's attachments.

    Examples:
        >>> from lessonkit.compaction_session import attached, lesson
        >>> [file.name for file in attached(lesson().events, lesson().attachments)]
        ['statement-march.pdf']
    """
    return attached_by_name({name for entry in view for name in entry.mentions}, attachments)


def attached_by_name(named: set[str] | frozenset[str], attachments: tuple[Attachment, ...]) -> tuple[Attachment, ...]:
    """The files attached to a request, from the names the entries the model sees mention.

    Args:
        named: The file names mentioned.
        attachments: The session's attachments.

    Examples:
        >>> from lessonkit.compaction_session import attached_by_name, lesson
        >>> [file.name for file in attached_by_name({"statement-march.pdf", "notes.txt"}, lesson().attachments)]
        ['statement-march.pdf']
    """
    return tuple(attachment for attachment in attachments if attachment.name in named)


def weight(entries: tuple[Entry, ...]) -> int:
    """The teaching tokens of `entries`, added up.

    Args:
        entries: Events, summaries or attachments.

    Examples:
        >>> from lessonkit.compaction_session import lesson, weight
        >>> weight(lesson().events[:3])
        282
    """
    return sum(entry.tokens for entry in entries)


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
        >>> from lessonkit.compaction_session import Seen, lesson
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


def _keeping_pairs(candidates: list[Event], keep: int) -> int:
    """Where to split so no kept tool response loses its call: at most len - keep, moved back if needed."""
    initial = len(candidates) - keep
    unanswered: set[str] = set()
    for index in range(len(candidates) - 1, -1, -1):
        event = candidates[index]
        if event.call:
            unanswered.add(event.call)
        if event.kind == "tool_call":
            unanswered.discard(event.id)
        if not unanswered and index <= initial:
            return index
    return 0


def _answered_prefix(span: list[Event]) -> list[Event]:
    """The longest prefix that leaves no tool call waiting for its response."""
    waiting: set[str] = set()
    safe = 0
    for index, event in enumerate(span):
        if event.call:
            waiting.discard(event.call)
        if event.kind == "tool_call":
            waiting.add(event.id)
        if not waiting:
            safe = index + 1
    return span[:safe]


def removable(log: tuple[Entry, ...], span: tuple[Entry, ...]) -> int:
    """Tokens that replacing `span` with an empty summary would take out of what the model sees.

    Args:
        log: The session as written so far.
        span: The entries a summary would replace.

    Examples:
        >>> from lessonkit.compaction_session import lesson, removable
        >>> removable(lesson().events[:8], lesson().events[:4])
        334
    """
    empty = Summary("", min(entry.start for entry in span), max(entry.position for entry in span), 0, (), ())
    return weight(visible(log)) - weight(visible(log + (empty,)))


@dataclass(frozen=True)
class Decision:
    """One check of one trigger at one moment: did its condition hold, and what came of it."""

    moment: str  # "before request 7" or "after turn 3"
    trigger: str  # "size" or "turns"
    fired: bool  # the trigger's condition held
    reason: str
    reading: int | None = None  # size: the prompt read; turns: how many new turns
    estimated: bool = False  # size: the prompt was estimated, not reported
    span: tuple[str, ...] = ()  # what the summarizer was given, oldest first
    called: bool = False
    summary: Summary | None = None


def _summarize(session: SessionLog, summarizer: Summarizer, span: tuple[Entry, ...], why: str, **check) -> Decision:
    """Summarize `span` if that is worth it; `why` says why the trigger fired."""
    latest = session.latest
    gain, cost = session.removable(span), (latest.tokens if latest else 0)
    check.update(fired=True, span=tuple(entry.id for entry in span))
    if gain <= cost:
        return Decision(
            reason=f"{why}; not worth it: that would remove {gain:,} tokens, the latest summary weighs {cost:,}", **check
        )
    summary = summarizer.summarize(span, f"S{session.written + 1}")
    if summary is None:
        return Decision(reason=f"{why}; the summarizer wrote nothing", called=True, **check)
    first, last = (session.event_at(at).id for at in (summary.start, summary.end))
    reason = f"{why}; {summary.id} summarizes {first}–{last} in {summary.tokens:,} tokens"
    return Decision(reason=reason, called=True, summary=summary, **check)


def check_size(session: SessionLog, prompts: Mapping[str, int], compaction: Compaction, summarizer: Summarizer, moment: str) -> Decision:
    """The size trigger at one moment: ADK's token-threshold compaction.

    Args:
        session: The session as written so far.
        prompts: Each model request's prompt, by the ID of the event it produced.
        compaction: The setting; its ``after_tokens`` and ``keep_recent_events`` apply.
        summarizer: What writes the summary.
        moment: When the check runs, as the page names it ("before request 9").

    Returns:
        Whether it fired, why, and the summary it wrote, if any.

    Examples:
        >>> from lessonkit.compaction import Compaction
        >>> from lessonkit.compaction_session import SessionLog, check_size, lesson, summarizer_named
        >>> session = SessionLog()
        >>> for event in lesson().events[:20]:
        ...     session.add(event)
        >>> decision = check_size(session, {}, Compaction(after_tokens=100, keep_recent_events=2),
        ...                       summarizer_named("terse"), "before request 9")
        >>> decision.fired, decision.summary.id, decision.summary.tokens
        (True, 'S1', 335)
    """
    reading, estimated = session.prompt_reading(prompts)
    source = "the prompt estimated from what the model sees" if estimated else "the last request's prompt"
    check = {"moment": moment, "trigger": "size", "reading": reading, "estimated": estimated}
    if reading is None or reading < compaction.after_tokens:
        shown = "nothing to read" if reading is None else f"{reading:,} tokens"
        return Decision(fired=False, reason=f"{source}: {shown}, under {compaction.after_tokens:,}", **check)
    why = f"{source}: {reading:,} tokens, at or over {compaction.after_tokens:,}"
    latest = session.latest
    candidates = session.raw_after(latest.end if latest else -1)
    keep = compaction.keep_recent_events
    if len(candidates) <= keep:
        reason = f"{why}; nothing to compact: {len(candidates)} raw events since the latest summary, and {keep} are kept"
        return Decision(fired=True, reason=reason, **check)
    chosen = _answered_prefix(candidates if keep == 0 else candidates[: _keeping_pairs(candidates, keep)])
    if not chosen:
        return Decision(fired=True, reason=f"{why}; nothing to compact once tool calls keep their responses", **check)
    return _summarize(session, summarizer, ((latest,) if latest else ()) + tuple(chosen), why, **check)


def check_turns(session: SessionLog, compaction: Compaction, summarizer: Summarizer, moment: str) -> Decision:
    """The turn trigger after a turn: ADK's sliding-window compaction.

    Args:
        session: The session as written so far.
        compaction: The setting; its ``after_invocations`` and ``overlap`` apply.
        summarizer: What writes the summary.
        moment: When the check runs, as the page names it ("after turn 4").

    Returns:
        Whether it fired, why, and the summary it wrote, if any.

    Examples:
        >>> from lessonkit.compaction import Compaction
        >>> from lessonkit.compaction_session import SessionLog, check_turns, lesson, summarizer_named
        >>> session = SessionLog()
        >>> for event in lesson().events[:20]:
        ...     session.add(event)
        >>> decision = check_turns(session, Compaction(after_invocations=4, overlap=1),
        ...                        summarizer_named("terse"), "after turn 5")
        >>> decision.fired, decision.summary.covered[-1]
        (True, 'a5')
    """
    last = session.last_written
    order, turns = session.turns, session.turn_events
    new = session.turns_after(last.end if last else -1)
    check = {"moment": moment, "trigger": "turns", "reading": len(new)}
    every = compaction.after_invocations
    if len(new) < every:
        return Decision(fired=False, reason=f"{len(new)} new turns since the last summary, under {every}", **check)
    first = session.turn_place[new[0]]
    start = max(0, first - compaction.overlap)
    chosen = order[start : session.turn_place[new[-1]] + 1]
    again = f", re-including {first - start} earlier" if first > start else ""
    why = f"{len(new)} new turns, at or over {every}: turns {chosen[0]}–{chosen[-1]}{again}"
    span = _answered_prefix([event for turn in chosen for event in turns[turn]])
    if not span:
        return Decision(fired=True, reason=f"{why}; nothing to compact once tool calls keep their responses", **check)
    return _summarize(session, summarizer, tuple(span), why, **check)


@dataclass(frozen=True)
class Request:
    """One model request: what the model saw and what it cost, and the check made just before it."""

    number: int
    turn: int
    answer: str  # the event the request produced: a tool call or a reply
    seen: Seen  # reads as the tuple of what the model saw, oldest first
    attached: tuple[Attachment, ...]
    prompt: int
    uncompacted: int  # the same request's prompt with no compaction at all
    decision: Decision | None = None

    @property
    def seen_ids(self) -> tuple[str, ...]:
        return tuple(entry.id for entry in self.seen)


@dataclass(frozen=True)
class Run:
    """A whole session replayed under one setting and one summarizer."""

    compaction: Compaction
    summarizer: str  # the summarizer's name
    reads_span: bool  # whether each summary costs a model call that reads its span
    requests: tuple[Request, ...]
    decisions: tuple[Decision, ...]  # every check, in the order they were made
    log: tuple[Entry, ...]  # the session at the end: raw events and summaries as written

    @property
    def summaries(self) -> tuple[Summary, ...]:
        return tuple(entry for entry in self.log if isinstance(entry, Summary))

    @property
    def final_view(self) -> tuple[Entry, ...]:
        return visible(self.log)

    @property
    def summarizer_calls(self) -> int:
        return sum(decision.called for decision in self.decisions)

    @property
    def summarizer_tokens(self) -> int:
        """Tokens a summarizer that calls a model read, over the run (0 for a rule-based one)."""
        if not self.reads_span:
            return 0
        by_id = {entry.id: entry for entry in self.log}
        return sum(by_id[i].tokens for decision in self.decisions if decision.called for i in decision.span)

    @property
    def tokens_sent(self) -> int:
        return sum(request.prompt for request in self.requests)

    @property
    def tokens_without(self) -> int:
        return sum(request.uncompacted for request in self.requests)

    def request(self, number: int) -> Request:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.requests):
            raise ValueError(f"request {number!r} is not in the run; allowed: 1 to {len(self.requests)}")
        return self.requests[number - 1]


@dataclass(frozen=True)
class Lesson:
    """The validated fixture of the compaction lesson: one long support session."""

    title: str
    agent: str
    attachments: tuple[Attachment, ...]
    events: tuple[Event, ...]
    presets: Mapping[str, Compaction]
    preset_labels: Mapping[str, str]

    @classmethod
    def from_record(cls, record: Record) -> Lesson:
        record.known("lesson", "title", "agent", "attachment", "presets", "events")
        record.optional_text("lesson")  # generated sessions (tests/compaction_adk.py) name no lesson
        attachment_record = record.child("attachment")
        attachment_record.known("name", "tokens")
        attachment = Attachment(attachment_record.text("name"), attachment_record.whole("tokens"))
        events: list[Event] = []
        for row in record.children("events"):
            row.known("id", "turn", "kind", "tokens", "text", "call")
            kind = row.choice("kind", KINDS)
            text = row.text("text")
            event = Event(
                id=row.text("id"),
                position=len(events),
                turn=row.whole("turn"),
                kind=kind,
                tokens=row.whole("tokens"),
                text=text,
                call=row.text("call") if kind == "tool_response" else None,
                mentions=(attachment.name,) if attachment.name in text else (),
            )
            _check_order(row, event, events)
            events.append(event)
        if events[-1].kind != "reply":
            raise record.fail("events", f"must end with a reply; the last event, {events[-1].id}, is a {events[-1].kind}")
        if not any(event.kind == "user" and event.mentions for event in events):
            raise attachment_record.fail("name", f"is {attachment.name!r}, which no user message names")
        presets, labels = {}, {}
        for row in record.children("presets"):
            row.known("id", "label", "compaction")
            preset_id = row.text("id")
            if preset_id in presets:
                raise row.fail("id", f"is {preset_id!r}, which is already taken")
            labels[preset_id] = row.text("label")
            presets[preset_id] = _preset(row.child("compaction"))
        return cls(record.text("title"), record.text("agent"), (attachment,), tuple(events), presets, labels)

    def event(self, event_id: str) -> Event:
        for event in self.events:
            if event.id == event_id:
                return event
        raise ValueError(f"unknown event {event_id!r}; allowed: {', '.join(e.id for e in self.events)}")


def _check_order(row: Record, event: Event, before: list[Event]) -> None:
    """A turn is a user message, tool calls each answered at once, and one reply."""
    previous = before[-1] if before else None
    if any(other.id == event.id for other in before):
        raise row.fail("id", f"is {event.id!r}, which is already taken")
    expected_turn = 1 if previous is None else previous.turn + (previous.kind == "reply")
    if event.turn != expected_turn:
        raise row.fail("turn", f"is {event.turn}; this event belongs to turn {expected_turn}")
    opens_turn = previous is None or previous.kind == "reply"
    if opens_turn != (event.kind == "user"):
        wanted = "a user message opens each turn" if opens_turn else "only the first event of a turn is a user message"
        raise row.fail("kind", f"is {event.kind!r}; {wanted}")
    if previous is not None and previous.kind == "tool_call" and event.kind != "tool_response":
        raise row.fail("kind", f"is {event.kind!r}; the tool call {previous.id} is answered by the next event")
    if event.kind == "tool_response" and (previous is None or previous.kind != "tool_call" or event.call != previous.id):
        answered = previous.id if previous is not None and previous.kind == "tool_call" else "no call"
        raise row.fail("call", f"is {event.call!r}; a tool response answers the call just before it ({answered})")


def _preset(record: Record) -> Compaction:
    unknown = sorted(set(record.data) - set(PRESET_FIELDS))
    if unknown:
        raise record.fail(unknown[0], f"is not a compaction field; allowed: {', '.join(PRESET_FIELDS)}")
    try:
        return Compaction(**record.data)
    except Refusal as refusal:
        raise record.fail(refusal.field, f"is refused: {refusal}") from None


@lru_cache(maxsize=1)
def lesson() -> Lesson:
    """The compaction lesson's fixture: one long support session, its attachments and presets.

    Raises:
        lessonkit.fixtures.FixtureError: The fixture is malformed; the message names the file, the
            record and the field.

    Examples:
        >>> from lessonkit.compaction_session import lesson
        >>> len(lesson().events), lesson().events[-1].turn, sorted(lesson().presets)
        (48, 12, ['both', 'by-size', 'by-turns'])
    """
    return Lesson.from_record(read_fixture("compaction"))


def summarizer_named(name: str | Summarizer) -> Summarizer:
    """A built-in summarizer by name; a summarizer itself is taken as it is.

    Args:
        name: ``"terse"``, ``"model"``, or a `Summarizer`.

    Raises:
        ValueError: `name` is neither a built-in summarizer's name nor a summarizer.

    Examples:
        >>> from lessonkit.compaction_session import summarizer_named
        >>> summarizer_named("terse").name
        'terse'
        >>> summarizer_named("gpt")
        Traceback (most recent call last):
        ...
        ValueError: unknown summarizer 'gpt'; allowed: 'terse', 'model', or a Summarizer
    """
    if isinstance(name, Summarizer):
        return name
    if not isinstance(name, str) or name not in _BUILT_IN:
        raise ValueError(f"unknown summarizer {name!r}; allowed: {', '.join(map(repr, SUMMARIZERS))}, or a Summarizer")
    return _BUILT_IN[name]()


def simulate(compaction: Compaction, summarizer: str | Summarizer = "terse", fixture: Lesson | None = None) -> Run:
    """Replay the session under `compaction`, summarizing with "terse", "model" (the agent's model) or a Summarizer.

    Args:
        compaction: The setting to replay under.
        summarizer: ``"terse"``, ``"model"`` or a `Summarizer` of your own.
        fixture: Another validated session; the course's own when omitted.

    Returns:
        Every model request, every trigger check, and the session as written at the end.

    Raises:
        ValueError: `compaction` is not a `Compaction`, or `summarizer` is not one.

    Examples:
        >>> from lessonkit.compaction_session import lesson, simulate
        >>> run = simulate(lesson().presets["by-turns"])
        >>> run.tokens_sent, run.tokens_without, run.summarizer_calls
        (61564, 94060, 3)
    """
    if not isinstance(compaction, Compaction):
        raise ValueError(f"compaction is {compaction!r}; allowed: a Compaction")  # noqa: TRY004 - the course's bad input is a ValueError
    writer = summarizer_named(summarizer)
    fixture = lesson() if fixture is None else fixture
    if not isinstance(fixture, Lesson):
        raise ValueError(f"fixture {fixture!r:.80} is not a compaction Lesson; allowed: a Lesson, or None for the lesson's own")  # noqa: TRY004
    session = SessionLog()
    prompts: dict[str, int] = {}
    requests: list[Request] = []
    decisions: list[Decision] = []

    def record(decision: Decision) -> bool:
        decisions.append(decision)
        if decision.summary is not None:
            session.write(decision.summary)
        return decision.summary is not None

    for event in fixture.events:
        if event.role == "model":  # a model request produces every tool call and every reply
            number = len(requests) + 1
            decision = None
            if compaction.by_size:
                decision = check_size(session, prompts, compaction, writer, f"before request {number}")
                record(decision)
            seen = session.seen
            files = attached_by_name(seen.named, fixture.attachments)
            uncompacted = session.raw_tokens + weight(attached_by_name(session.raw_named, fixture.attachments))
            prompt = seen.tokens + weight(files)
            requests.append(Request(number, event.turn, event.id, seen, files, prompt, uncompacted, decision))
            prompts[event.id] = prompt
        session.add(event)
        if event.kind == "reply":  # the turn is over: the Runner's post-invocation compaction
            moment = f"after turn {event.turn}"
            wrote = compaction.by_size and record(check_size(session, prompts, compaction, writer, moment))
            if compaction.by_turns and not wrote:
                record(check_turns(session, compaction, writer, moment))
    return Run(compaction, writer.name, writer.reads_span, tuple(requests), tuple(decisions), tuple(session.log))
