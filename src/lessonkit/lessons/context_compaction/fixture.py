"""The compaction lesson's fixture: one long support session, validated as it is read.

A turn is a user message, any number of tool calls each answered at once by its response, and the
agent's reply. One user message names a file, the session's attachment. Presets are compaction
settings the page offers by name; each is refused as a `Compaction` would be.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from lessonkit import checks
from lessonkit.fixtures import Record, read_fixture
from lessonkit.lessons.context_compaction.events import Attachment, Event
from lessonkit.lessons.context_compaction.setting import Compaction, Refusal

KINDS = ("user", "tool_call", "tool_response", "reply")
PRESET_FIELDS = ("after_tokens", "keep_recent_events", "after_invocations", "overlap", "summarizer")


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
        record.optional_text("lesson")  # generated sessions (tests/lessons/context-compaction/compaction_adk.py) name no lesson
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
        checks.choice("event", event_id, (event.id for event in self.events))
        return next(event for event in self.events if event.id == event_id)


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
        >>> from lessonkit.lessons.context_compaction import lesson
        >>> len(lesson().events), lesson().events[-1].turn, sorted(lesson().presets)
        (48, 12, ['both', 'by-size', 'by-turns'])
    """
    return Lesson.from_record(read_fixture("context-compaction"))
