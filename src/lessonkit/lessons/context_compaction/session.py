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
from lessonkit.checks import Refused
from lessonkit.lessons.context_compaction.events import Attachment, Entry, Event, Summary, weight
from lessonkit.lessons.context_compaction.fixture import Lesson, lesson
from lessonkit.lessons.context_compaction.in_view import attached_by_name, visible
from lessonkit.lessons.context_compaction.session_log import Seen, SessionLog
from lessonkit.lessons.context_compaction.setting import Compaction
from lessonkit.lessons.context_compaction.summarizers import Summarizer, summarizer_named
from lessonkit.lessons.context_compaction.triggers import AFTER_TURN, Decision, Moment, check_size, check_turns


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


# What the run found, in sentences: an exercise answers a reader's choice with them.

_TRIGGER_WORDS = {"size": "the size trigger", "turns": "the turn trigger"}
_SUMMARIZER_WORDS = {"model": "the agent's model", "terse": "the rule-based summarizer"}


def checks_at(run: Run, moment: Moment) -> str:
    """What the triggers found at one moment of a run, in one sentence, in the words of each check.

    Args:
        run: A replayed session, such as ``simulate(lesson().presets["by-size"], "model")``.
        moment: When: ``Moment.before_request(9)`` or ``Moment.after_turn(4)``, within the run.

    Returns:
        One sentence: each trigger checked at `moment` and what came of it, or why none was checked.

    Raises:
        lessonkit.checks.Refused: `run` is not a Run, or `moment` is not a Moment within it.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Moment, checks_at, lesson, simulate
        >>> run = simulate(lesson().presets["by-size"], "model")
        >>> checks_at(run, Moment.before_request(9))
        "Before request 9, the size trigger finds the last request's prompt: 2,954 tokens, under 3,000."
        >>> print(checks_at(simulate(lesson().presets["by-turns"], "model"), Moment.before_request(9)))
        Before request 9, no trigger is checked: only the size trigger checks before a request, and this setting leaves it out.
    """
    checks.instance("run", run, Run, "a Run")
    checks.instance("moment", moment, Moment, "a Moment, such as Moment.before_request(9)")
    after = moment.when == AFTER_TURN
    turns, requests = run.requests[-1].turn, len(run.requests)
    if moment.number > (turns if after else requests):
        raise Refused("moment", str(moment), f"a moment of this run: before request 1 to {requests}, or after turn 1 to {turns}")
    opening = str(moment)[0].upper() + str(moment)[1:]
    found = [decision for decision in run.decisions if decision.moment == moment]
    if not found:
        return f"{opening}, no trigger is checked: only the size trigger checks before a request, and this setting leaves it out."
    said = [f"{_TRIGGER_WORDS[decision.trigger]} finds {decision.reason}" for decision in found]
    if after and run.compaction.by_turns and all(decision.trigger == "size" for decision in found):
        said.append("the turn trigger is not checked, because the size trigger wrote a summary")
    return f"{opening}, {'; '.join(said)}."


def seen_in(run: Run, number: int) -> str:
    """What one model request of a run sees and sends, in one sentence, beside what the session stores.

    Args:
        run: A replayed session, such as ``simulate(lesson().presets["by-turns"], "model")``.
        number: The request, from 1.

    Returns:
        One sentence: its turn, the summaries it sees (and which were written just before it), how many
        of the session's raw events it sees, and its prompt with and without compaction.

    Raises:
        lessonkit.checks.Refused: `run` is not a Run, or `number` is not one of its requests.

    Examples:
        >>> from lessonkit.lessons.context_compaction import lesson, seen_in, simulate
        >>> print(seen_in(simulate(lesson().presets["by-turns"], "model"), 9))  # doctest: +NORMALIZE_WHITESPACE
        Request 9, in turn 5, sees S1, written just before it, and 1 of the 17 raw events the session stores:
        1,741 tokens with statement-march.pdf attached, against 3,016 without compaction.
    """
    checks.instance("run", run, Run, "a Run")
    request = run.request(number)
    summaries = [entry.id for entry in request.seen if isinstance(entry, Summary)]
    raw = len(request.seen) - len(summaries)
    answer = next(entry for entry in run.log if isinstance(entry, Event) and entry.id == request.answer)
    stored = sum(isinstance(entry, Event) and entry.position < answer.position for entry in run.log)
    before = set(run.request(number - 1).seen_ids) if number > 1 else set()
    new = [summary for summary in summaries if summary not in before]
    if new == summaries:
        written = ", written just before it," if len(new) == 1 else ", all written just before it,"
    else:
        written = f", {' and '.join(new)} written just before it," if new else ""
    events = f"all {stored} raw events the session stores" if raw == stored else f"{raw} of the {stored} raw events the session stores"
    sees = f"{' and '.join(summaries)}{written} and {events}" if summaries else f"no summary and {events}"
    files = f" with {', '.join(file.name for file in request.attached)} attached" if request.attached else ""
    without = "as many as" if request.prompt == request.uncompacted else f"against {request.uncompacted:,}"
    return f"Request {number}, in turn {request.turn}, sees {sees}: {request.prompt:,} tokens{files}, {without} without compaction."


def compare_summarizers(compaction: Compaction, summarizer: str) -> str:
    """One built-in summarizer's cost over the session beside the other's, under the same setting, in one sentence.

    Args:
        compaction: The setting both replay the session under.
        summarizer: ``"model"`` (the agent's model) or ``"terse"`` (the rule-based summarizer).

    Returns:
        One sentence: how many summaries it writes and the tokens the session's requests send, against the other's.

    Raises:
        lessonkit.checks.Refused: `compaction` is not a Compaction, or `summarizer` is not ``"model"`` or ``"terse"``.

    Examples:
        >>> from lessonkit.lessons.context_compaction import compare_summarizers, lesson
        >>> print(compare_summarizers(lesson().presets["by-size"], "terse"))  # doctest: +NORMALIZE_WHITESPACE
        The rule-based summarizer writes 5 summaries, and the session's requests send 63,675 tokens,
        1,976 more than with the agent's model, which writes 3.
    """
    checks.instance("compaction", compaction, Compaction, "a Compaction")
    checks.choice("summarizer", summarizer, tuple(_SUMMARIZER_WORDS))
    other = next(name for name in _SUMMARIZER_WORDS if name != summarizer)
    this, that = simulate(compaction, summarizer), simulate(compaction, other)
    difference = this.tokens_sent - that.tokens_sent
    than = "as many as" if difference == 0 else f"{abs(difference):,} {'more' if difference > 0 else 'fewer'} than"
    written = "summary" if len(this.summaries) == 1 else "summaries"
    who = _SUMMARIZER_WORDS[summarizer]
    return (
        f"{who[0].upper()}{who[1:]} writes {len(this.summaries)} {written}, and the session's requests send "
        f"{this.tokens_sent:,} tokens, {than} with {_SUMMARIZER_WORDS[other]}, which writes {len(that.summaries)}."
    )
