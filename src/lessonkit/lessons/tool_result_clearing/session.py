"""A session replayed request by request: what each model request sends, what clearing took out,
what the cache reads and writes, and the calls clearing made the agent make again.

The session is a script: the user's messages, the agent's messages with their calls, and each
call's result. Every agent message is written in answer to one model request, whose prompt is the
whole history before it, edited by the clearing setting. An agent message may need to see the
result of an earlier call (the file it is about to edit). When clearing has hidden every copy of
that result, the agent first calls the tool again with the same input: one more request, and the
result's tokens once more. If even the fresh copy is cleared before the agent can read it (a `keep`
of 0 does that), the agent goes on without it, and the request says what it could not see.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from lessonkit.checks import Refused
from lessonkit.lessons.tool_result_clearing.cache import ANTHROPIC_FIVE_MINUTES, CacheUse, Pricing, use_cache
from lessonkit.lessons.tool_result_clearing.clearing import Prompt, edit
from lessonkit.lessons.tool_result_clearing.messages import Message, ToolCall
from lessonkit.lessons.tool_result_clearing.setting import Clearing

__all__ = ["Comparison", "Request", "Run", "Session", "Totals", "compare", "replay"]

AGAIN = "-again"


@dataclass(frozen=True)
class Session:
    """A synthetic agent session: the system prompt's weight, and the script of messages."""

    system_tokens: int
    messages: tuple[Message, ...]

    @property
    def tools(self) -> tuple[str, ...]:
        """Every tool the session calls, in the order first called."""
        return tuple(dict.fromkeys(call.tool for message in self.messages for call in message.calls))

    def call(self, call_id: str) -> ToolCall:
        """The call named `call_id`."""
        for message in self.messages:
            for call in message.calls:
                if call.id == call_id:
                    return call
        raise Refused("call", call_id, "the id of a call in this session")


@dataclass(frozen=True)
class Request:
    """One model request: its prompt, how it met the cache, and the message the agent wrote in answer.

    Attributes:
        number: The request's place in the session, from 1.
        position: How many messages of the history came before it (the prompt's messages, whole).
        prompt: The prompt as sent, and before clearing.
        cache: What the cache read and wrote, and the price.
        newly_cleared: Results cleared in this prompt that the previous request sent whole.
        answer: What the agent wrote; a call made again when ``answer.again`` is set.
        unseen: The calls whose results the answer needed and this prompt still had cleared.
    """

    number: int
    position: int
    prompt: Prompt
    cache: CacheUse
    newly_cleared: tuple[str, ...]
    answer: Message
    unseen: tuple[str, ...] = ()

    @property
    def again(self) -> bool:
        """Whether this request only exists because clearing hid a result the agent needed."""
        return self.answer.again is not None


@dataclass(frozen=True)
class Totals:
    """A replay's sums over every request, in teaching tokens; `price` in input-price units, and
    `calls_again` the tool calls made again (a request may make several)."""

    requests: int
    sent: int
    read: int
    written: int
    uncached: int
    price: float
    calls_again: int

    @property
    def hit_rate(self) -> float:
        """The share of the tokens sent that were read from the cache."""
        return self.read / self.sent if self.sent else 0.0


@dataclass(frozen=True)
class Run:
    """One replay of a session under a setting (None: clearing off), with the cache on or off."""

    setting: Clearing | None
    caching: bool
    pricing: Pricing
    history: tuple[Message, ...]
    requests: tuple[Request, ...]

    def at(self, number: int) -> Request:
        """The request numbered `number`, from 1."""
        if not 1 <= number <= len(self.requests):
            raise Refused("request", number, f"1 to {len(self.requests)}")
        return self.requests[number - 1]

    @property
    def calls_again(self) -> tuple[Request, ...]:
        """The requests in which the agent called tools again because clearing hid their results."""
        return tuple(request for request in self.requests if request.again)

    # Worked out once per run: a run never changes, and every view of it reads its totals, in the
    # status and in the totals table alike.
    @cached_property
    def totals(self) -> Totals:
        requests = self.requests
        return Totals(
            requests=len(requests),
            sent=sum(request.prompt.tokens for request in requests),
            read=sum(request.cache.read for request in requests),
            written=sum(request.cache.written for request in requests),
            uncached=sum(request.cache.uncached for request in requests),
            # fsum: since 3.12 sum() adds floats with compensation, so the reader's Pyodide and the
            # build's CPython 3.11 would otherwise disagree in the last digits of an exported price.
            price=math.fsum(request.cache.price for request in requests),
            calls_again=sum(len(request.answer.calls) for request in requests if request.again),
        )


def replay(session: Session, setting: Clearing | None, *, caching: bool = True, pricing: Pricing = ANTHROPIC_FIVE_MINUTES) -> Run:
    """Replay `session` request by request under `setting` (None: nothing is ever cleared).

    Args:
        session: The session to replay.
        setting: The clearing setting, or None to clear nothing.
        caching: Whether the prompt cache is on.
        pricing: The multipliers for a cache read and a cache write.

    Raises:
        lessonkit.checks.Refused: The setting excludes a tool the session never calls.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import Clearing, lesson, replay
        >>> run = replay(lesson().session, Clearing(trigger=15000))
        >>> len(run.requests), [request.number for request in run.calls_again]
        (21, [11, 17])
    """
    if setting is not None:
        unknown = [tool for tool in setting.exclude_tools if tool not in session.tools]
        if unknown:
            raise Refused("exclude_tools", list(setting.exclude_tools), "names of this session's tools: " + ", ".join(session.tools))
    never = Clearing(trigger=2**63)  # a trigger no prompt reaches: clearing off, by the same rule
    rule = setting if setting is not None else never
    history: list[Message] = []
    requests: list[Request] = []

    def ask(answer: Message, prompt: Prompt | None = None) -> Request:
        # `prompt`: the history as it stands, already edited by the caller, or None to edit it here.
        prompt = prompt or edit(session.system_tokens, history, rule)
        previous = requests[-1].prompt if requests else None
        cache = use_cache(previous.blocks if previous else None, prompt.blocks, caching=caching, pricing=pricing)
        # A result cleared the first time it could be sent changes nothing the cache holds.
        sent_whole = {block.id for block in previous.blocks if not block.cleared} if previous else set()
        newly = tuple(result for result in prompt.cleared if result in sent_whole)
        unseen = tuple(call_id for call_id in answer.needs if not _in_view(session.call(call_id), history, prompt))
        request = Request(len(requests) + 1, len(history), prompt, cache, newly, answer, unseen)
        requests.append(request)
        return request

    for message in session.messages:
        if message.kind == "assistant":
            prompt = edit(session.system_tokens, history, rule)
            hidden = [call for call in map(session.call, message.needs) if not _in_view(call, history, prompt)]
            if hidden:
                _call_again(message, hidden, history, ask)  # the history grows: the answer's prompt is edited anew
                ask(message)
            else:
                ask(message, prompt)
        history.append(message)
    return Run(setting, caching, pricing, tuple(history), tuple(requests))


def _in_view(call: ToolCall, history: Sequence[Message], prompt: Prompt) -> bool:
    """Whether `prompt` shows a result, not cleared, of a call that asked for what `call` asked."""
    cleared = set(prompt.cleared)
    return any(
        message.kind == "tool" and message.call is not None and message.call.same_request(call) and message.id not in cleared
        for message in history
    )


def _call_again(message: Message, calls: Sequence[ToolCall], history: list[Message], ask: Callable[[Message], Request]) -> None:
    """The agent calls each hidden result's tool again, in one message, and gets the results anew."""
    results = {item.call.id: item for item in history if item.kind == "tool" and item.call is not None}
    taken = {call.id for item in history for call in item.calls}
    fresh = tuple(replace(call, id=_again_id(call.id, taken)) for call in calls)
    again = Message(id=message.id + AGAIN, kind="assistant", tokens=0, text="", calls=fresh, again=message.id)
    ask(again)
    history.append(again)
    for call, original in zip(fresh, calls, strict=True):
        result = results[original.id]
        history.append(replace(result, id=result.id + call.id.removeprefix(original.id), call=call, needs=()))


def _again_id(call_id: str, taken: set[str]) -> str:
    """``c4-again`` for the first call made again of ``c4``, then ``c4-again2``, and so on."""
    made, count = call_id + AGAIN, 1
    while made in taken:
        count += 1
        made = f"{call_id}{AGAIN}{count}"
    return made


@dataclass(frozen=True)
class Comparison:
    """A setting's replay beside the same session with clearing off, and with the cache off."""

    run: Run
    clearing_off: Run
    caching_off: Run


def compare(session: Session, setting: Clearing, *, pricing: Pricing = ANTHROPIC_FIVE_MINUTES) -> Comparison:
    """`setting` with the cache on, against clearing off (cache on) and the cache off (same setting).

    Args:
        session: The session to replay.
        setting: The clearing setting.
        pricing: The multipliers for a cache read and a cache write.

    Raises:
        lessonkit.checks.Refused: The setting excludes a tool the session never calls.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import Clearing, compare, lesson
        >>> seen = compare(lesson().session, Clearing(trigger=15000))
        >>> seen.run.totals.sent < seen.clearing_off.totals.sent, seen.run.totals.price > seen.clearing_off.totals.price
        (True, True)
    """
    run = replay(session, setting, pricing=pricing)
    # Clearing does not depend on the cache, so the cache-off run is the same prompts priced again;
    # and clearing off does not depend on the setting, so a panel's every view shares one.
    return Comparison(run, _clearing_off(session, pricing), _priced(run, caching=False))


@lru_cache(maxsize=4)
def _clearing_off(session: Session, pricing: Pricing) -> Run:
    return replay(session, None, pricing=pricing)


def _priced(run: Run, *, caching: bool) -> Run:
    """`run`'s very prompts, met by the cache again, on or off."""
    requests: list[Request] = []
    for request in run.requests:
        previous = requests[-1].prompt.blocks if requests else None
        requests.append(replace(request, cache=use_cache(previous, request.prompt.blocks, caching=caching, pricing=run.pricing)))
    return replace(run, caching=caching, requests=tuple(requests))
