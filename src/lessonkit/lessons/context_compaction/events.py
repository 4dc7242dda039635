"""The session's entries: raw events, the summaries that replace spans of them, and files they name.

Every entry has a teaching-token weight (not tokenizer output). A raw event sits at a position in
the session; a summary covers the raw events from its start to its end and is seen by the model as
one model-role turn placed at its end.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessonkit.chain import Chain


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
        >>> from lessonkit.lessons.context_compaction import lesson, write_summary
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


def weight(entries: tuple[Entry, ...]) -> int:
    """The teaching tokens of `entries`, added up.

    Args:
        entries: Events, summaries or attachments.

    Examples:
        >>> from lessonkit.lessons.context_compaction import lesson, weight
        >>> weight(lesson().events[:3])
        282
    """
    return sum(entry.tokens for entry in entries)
