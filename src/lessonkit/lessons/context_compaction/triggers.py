"""The two triggers, and what each check of one decides: ADK's size and turn compaction.

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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lessonkit import checks
from lessonkit.lessons.context_compaction.events import Entry, Event, Summary
from lessonkit.lessons.context_compaction.session_log import SessionLog
from lessonkit.lessons.context_compaction.setting import Compaction
from lessonkit.lessons.context_compaction.summarizers import Summarizer


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


BEFORE_REQUEST, AFTER_TURN = "before request", "after turn"


@dataclass(frozen=True)
class Moment:
    """When a trigger is checked: just before model request `number`, or just after turn `number`.

    It reads as the page names it (``str(moment)`` is "before request 9"); a panel reads its fields.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Moment
        >>> moment = Moment.after_turn(4)
        >>> str(moment), moment.when, moment.number
        ('after turn 4', 'after turn', 4)
    """

    when: str  # BEFORE_REQUEST or AFTER_TURN
    number: int

    def __post_init__(self) -> None:
        checks.choice("when", self.when, (BEFORE_REQUEST, AFTER_TURN), called="a moment's when")
        checks.whole("number", self.number, minimum=1, called="a moment's number")

    @classmethod
    def before_request(cls, number: int) -> Moment:
        return cls(BEFORE_REQUEST, number)

    @classmethod
    def after_turn(cls, number: int) -> Moment:
        return cls(AFTER_TURN, number)

    def __str__(self) -> str:
        return f"{self.when} {self.number}"


@dataclass(frozen=True)
class Decision:
    """One check of one trigger at one moment: did its condition hold, and what came of it."""

    moment: Moment
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
        return Decision(reason=f"{why}; not worth it: that would remove {gain:,} tokens, the latest summary weighs {cost:,}", **check)
    summary = summarizer.summarize(span, f"S{session.written + 1}")
    if summary is None:
        return Decision(reason=f"{why}; the summarizer wrote nothing", called=True, **check)
    first, last = (session.event_at(at).id for at in (summary.start, summary.end))
    reason = f"{why}; {summary.id} summarizes {first}–{last} in {summary.tokens:,} tokens"
    return Decision(reason=reason, called=True, summary=summary, **check)


def check_size(session: SessionLog, prompts: Mapping[str, int], compaction: Compaction, summarizer: Summarizer, moment: Moment) -> Decision:
    """The size trigger at one moment: ADK's token-threshold compaction.

    Args:
        session: The session as written so far.
        prompts: Each model request's prompt, by the ID of the event it produced.
        compaction: The setting; its ``after_tokens`` and ``keep_recent_events`` apply.
        summarizer: What writes the summary.
        moment: When the check runs (``Moment.before_request(9)``).

    Returns:
        Whether it fired, why, and the summary it wrote, if any.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Compaction
        >>> from lessonkit.lessons.context_compaction import Moment, SessionLog, check_size, lesson, summarizer_named
        >>> session = SessionLog()
        >>> for event in lesson().events[:20]:
        ...     session.add(event)
        >>> decision = check_size(session, {}, Compaction(after_tokens=100, keep_recent_events=2),
        ...                       summarizer_named("terse"), Moment.before_request(9))
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


def check_turns(session: SessionLog, compaction: Compaction, summarizer: Summarizer, moment: Moment) -> Decision:
    """The turn trigger after a turn: ADK's sliding-window compaction.

    Args:
        session: The session as written so far.
        compaction: The setting; its ``after_invocations`` and ``overlap`` apply.
        summarizer: What writes the summary.
        moment: When the check runs (``Moment.after_turn(4)``).

    Returns:
        Whether it fired, why, and the summary it wrote, if any.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Compaction
        >>> from lessonkit.lessons.context_compaction import Moment, SessionLog, check_turns, lesson, summarizer_named
        >>> session = SessionLog()
        >>> for event in lesson().events[:20]:
        ...     session.add(event)
        >>> decision = check_turns(session, Compaction(after_invocations=4, overlap=1),
        ...                        summarizer_named("terse"), Moment.after_turn(5))
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
