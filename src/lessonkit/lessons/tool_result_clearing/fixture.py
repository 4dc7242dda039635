"""The lesson's fixture: one synthetic coding-agent session, validated as it is read, and the
clearing settings the page offers by name.

The script's shape is checked here, once, so the replay can trust it: the user opens, each agent
message that calls tools is followed at once by one result per call in the same order, an agent
message without calls ends the turn, and a `needs` names an earlier call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from lessonkit import checks
from lessonkit.checks import Refused
from lessonkit.fixtures import Record, read_fixture
from lessonkit.lessons.tool_result_clearing.messages import KINDS, Message, ToolCall
from lessonkit.lessons.tool_result_clearing.session import Session
from lessonkit.lessons.tool_result_clearing.setting import FIELDS, Clearing

__all__ = ["Lesson", "lesson", "session_from_record"]


@dataclass(frozen=True)
class Lesson:
    """The validated fixture: the session, and the settings the page names."""

    title: str
    agent: str
    session: Session
    presets: Mapping[str, Clearing]
    preset_labels: Mapping[str, str]

    @property
    def messages(self) -> tuple[Message, ...]:
        return self.session.messages

    @property
    def system_tokens(self) -> int:
        return self.session.system_tokens

    @classmethod
    def from_record(cls, record: Record) -> Lesson:
        """The lesson from its fixture's record, every field checked."""
        record.known("lesson", "title", "agent", "system_tokens", "presets", "messages")
        record.optional_text("lesson")  # generated sessions name no lesson
        session = session_from_record(record)
        presets, labels = {}, {}
        for row in record.children("presets"):
            preset_id = row.text("id")
            if preset_id in presets:
                raise row.fail("id", f"is {preset_id!r}, which is already taken")
            labels[preset_id] = row.text("label")
            presets[preset_id] = _preset(row)
            unknown = [tool for tool in presets[preset_id].exclude_tools if tool not in session.tools]
            if unknown:
                raise row.fail("clearing", f"excludes {unknown[0]!r}, which the session never calls", allowed=", ".join(session.tools))
        return cls(record.text("title"), record.text("agent"), session, presets, labels)

    def message(self, message_id: str) -> Message:
        """The message named `message_id`."""
        checks.choice("message", message_id, (message.id for message in self.messages))
        return next(message for message in self.messages if message.id == message_id)


def session_from_record(record: Record) -> Session:
    """A session from its JSON record (``system_tokens`` and ``messages``), its shape checked.

    Args:
        record: The record that holds the session: the fixture's top level, or a generated one.

    Raises:
        lessonkit.fixtures.FixtureError: The session is malformed; the message names the record and the field.

    Examples:
        >>> from lessonkit.fixtures import parse_fixture
        >>> from lessonkit.lessons.tool_result_clearing import session_from_record
        >>> text = '{"system_tokens": 100, "messages": [{"id": "u1", "kind": "user", "tokens": 5, "text": "Hi"},'
        >>> text += ' {"id": "a1", "kind": "assistant", "tokens": 4, "text": "Hello"}]}'
        >>> len(session_from_record(parse_fixture(text, "example.json")).messages)
        2
    """
    messages: list[Message] = []
    waiting: list[ToolCall] = []  # the calls of the last agent message not yet answered
    calls: dict[str, ToolCall] = {}
    rows: list[Record] = []
    for row in record.children("messages"):
        row.known("id", "kind", "tokens", "text", "calls", "call", "needs")
        kind = row.choice("kind", KINDS)
        message_id = row.text("id")
        if any(message.id == message_id for message in messages) or message_id in calls:
            raise row.fail("id", f"is {message_id!r}, which is already taken")
        previous = messages[-1] if messages else None
        if waiting and kind != "tool":
            raise row.fail("kind", f"is {kind!r}; the call {waiting[0].id} is answered first")
        if kind == "user" and previous is not None and (previous.kind != "assistant" or previous.calls):
            raise row.fail("kind", "is 'user'; the user speaks first, or after an agent message that calls no tool")
        if kind != "user" and previous is None:
            raise row.fail("kind", f"is {kind!r}; the session opens with the user's message")
        if kind == "assistant" and previous is not None and previous.kind == "assistant":
            raise row.fail("kind", "is 'assistant'; an agent message follows the user or a tool result")
        # calls and needs are optional: left out or null, the message has none.
        made = tuple(_call(call_row, calls) for call_row in row.children("calls")) if row.data.get("calls") is not None else ()
        if made and kind != "assistant":
            raise row.fail("calls", f"is given on a {kind} message; only an agent message calls tools")
        needs = _needs(row, calls) if row.data.get("needs") is not None else ()
        if needs and kind != "assistant":
            raise row.fail("needs", f"is given on a {kind} message; only an agent message needs a result")
        answered = None
        if kind == "tool":
            if not waiting and previous is not None and previous.kind == "assistant":
                raise rows[-1].fail("calls", f"is missing; the tool result {message_id} after this message answers one of its calls")
            if not waiting:
                raise row.fail("kind", "is 'tool'; a result answers a call of the agent message before it, and none is waiting")
            answered = row.choice("call", (waiting[0].id,), words=f"{waiting[0].id!r}, the next call waiting for its result")
            answered = waiting.pop(0)
        elif row.data.get("call") is not None:
            raise row.fail("call", f"is given on a {kind} message; only a tool result answers a call")
        for call in made:
            calls[call.id] = call
        waiting = list(made) if kind == "assistant" else waiting
        messages.append(Message(message_id, kind, row.whole("tokens"), row.text("text"), made, answered, needs))
        rows.append(row)
    last = messages[-1]
    if last.kind != "assistant" or last.calls:
        raise record.fail("messages", f"must end with an agent message that calls no tool; the last, {last.id}, does not")
    return Session(record.whole("system_tokens"), tuple(messages))


def _call(row: Record, calls: Mapping[str, ToolCall]) -> ToolCall:
    row.known("id", "tool", "input", "input_tokens")
    call_id = row.text("id")
    if call_id in calls:
        raise row.fail("id", f"is {call_id!r}, which is already taken")
    return ToolCall(call_id, row.text("tool"), row.text("input"), row.whole("input_tokens"))


def _needs(row: Record, calls: Mapping[str, ToolCall]) -> tuple[str, ...]:
    needs = row.data["needs"]
    if not isinstance(needs, list) or not needs or not all(isinstance(call_id, str) for call_id in needs):
        raise row.fail("needs", "is not a list of call ids", allowed="a non-empty list of the ids of earlier calls")
    for call_id in needs:
        if call_id not in calls:
            raise row.fail("needs", f"names {call_id!r}, which is not an earlier call", allowed=", ".join(calls) or "no call yet")
    return tuple(needs)


def _preset(row: Record) -> Clearing:
    row.known("id", "label", "clearing")
    fields = row.child("clearing")
    unknown = sorted(set(fields.data) - set(FIELDS))
    if unknown:
        raise fields.fail(unknown[0], "is not a clearing field", allowed=", ".join(FIELDS))
    # A field left out or null takes LangChain's default, as a keyword left out does.
    data = {name: value for name, value in fields.data.items() if value is not None}
    if "exclude_tools" in data and isinstance(data["exclude_tools"], list):
        data["exclude_tools"] = tuple(data["exclude_tools"])
    try:
        return Clearing(**data)
    except Refused as refused:
        raise fields.fail(refused.name, f"is refused: {refused}") from None


@lru_cache(maxsize=1)
def lesson() -> Lesson:
    """The lesson's fixture: one coding-agent session and the settings the page names.

    Raises:
        lessonkit.fixtures.FixtureError: The fixture is malformed; the message names the file, the
            record and the field.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import lesson
        >>> len(lesson().messages), lesson().session.tools
        (38, ('update_plan', 'run_tests', 'search', 'read_file', 'edit_file'))
    """
    return Lesson.from_record(read_fixture("tool-result-clearing"))
