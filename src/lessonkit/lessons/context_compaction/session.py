"""The session replayed: every model request, what its model saw, and every check of a trigger.

Every tool call and every reply is produced by one model request. The rules are ADK's (google-adk
2.13), moment for moment: before each model request, if the size trigger is set, compaction may
run (ADK's compaction request processor). After each turn the size trigger runs again and, only if
it wrote nothing, the turn trigger (the Runner's post-invocation compaction). A file named in what
the model sees is attached in full to the request and counts toward its prompt.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessonkit import checks
from lessonkit.lessons.context_compaction.events import Attachment, Entry, Summary, weight
from lessonkit.lessons.context_compaction.fixture import Lesson, lesson
from lessonkit.lessons.context_compaction.in_view import attached_by_name, visible
from lessonkit.lessons.context_compaction.session_log import Seen, SessionLog
from lessonkit.lessons.context_compaction.setting import Compaction
from lessonkit.lessons.context_compaction.summarizers import Summarizer, summarizer_named
from lessonkit.lessons.context_compaction.triggers import Decision, Moment, check_size, check_turns


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
        checks.whole("request", number, minimum=1, maximum=len(self.requests))
        return self.requests[number - 1]


def simulate(compaction: Compaction, summarizer: str | Summarizer = "terse", fixture: Lesson | None = None) -> Run:
    """Replay the session under `compaction`, summarizing with "terse", "model" (the agent's model) or a Summarizer.

    Args:
        compaction: The setting to replay under.
        summarizer: ``"terse"``, ``"model"`` or a `Summarizer` of your own.
        fixture: Another validated session; the course's own when omitted.

    Returns:
        Every model request, every trigger check, and the session as written at the end.

    Raises:
        lessonkit.checks.Refused: `compaction` is not a `Compaction`, or `summarizer` is not one.

    Examples:
        >>> from lessonkit.lessons.context_compaction import lesson, simulate
        >>> run = simulate(lesson().presets["by-turns"])
        >>> run.tokens_sent, run.tokens_without, run.summarizer_calls
        (61564, 94060, 3)
    """
    checks.instance("compaction", compaction, Compaction, "a Compaction")
    writer = summarizer_named(summarizer)
    fixture = lesson() if fixture is None else fixture
    checks.instance("fixture", fixture, Lesson, "a compaction Lesson, or None for the lesson's own")
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
                decision = check_size(session, prompts, compaction, writer, Moment.before_request(number))
                record(decision)
            seen = session.seen
            files = attached_by_name(seen.named, fixture.attachments)
            uncompacted = session.raw_tokens + weight(attached_by_name(session.raw_named, fixture.attachments))
            prompt = seen.tokens + weight(files)
            requests.append(Request(number, event.turn, event.id, seen, files, prompt, uncompacted, decision))
            prompts[event.id] = prompt
        session.add(event)
        if event.kind == "reply":  # the turn is over: the Runner's post-invocation compaction
            moment = Moment.after_turn(event.turn)
            wrote = compaction.by_size and record(check_size(session, prompts, compaction, writer, moment))
            if compaction.by_turns and not wrote:
                record(check_turns(session, compaction, writer, moment))
    return Run(compaction, writer.name, writer.reads_span, tuple(requests), tuple(decisions), tuple(session.log))
