"""Replay a lesson session through google-adk's own Runner, and read back what ADK did.

The session becomes real ADK traffic: each user message is a `Runner.run_async` invocation; a
scripted model (a `BaseLlm` that never leaves the process) answers each request with the fixture's
next tool call or reply and reports the request's prompt size; a `lookup` tool answers each call;
a before-model callback attaches the file to every request that names it. ADK's compaction runs
untouched, at both of its moments: the compaction request processor before each model call, and
the Runner's post-invocation compaction after each turn.

ADK measures a session in characters, two ways: its prompt estimate divides the characters of
text, tool names and JSON arguments by four, and its worth-compacting check compares sizes of the
JSON a request carries. So every event is written to weigh exactly its lesson tokens in both: four
characters a token in the first, sixteen in the second (padding, control characters that JSON
escapes, and call ids, which only the JSON counts). Summaries weigh sixteen a token less 27, the
JSON frame of the empty summary ADK prices a span against, so that ADK's check compares exactly
the lesson's tokens. The scripted model counts a prompt the way the estimate does, so a reported
count and an estimate of the same prompt agree.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import random
from dataclasses import dataclass, field
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.apps.app import App, EventsCompactionConfig
from google.adk.apps.base_events_summarizer import BaseEventsSummarizer
from google.adk.apps.compaction import _count_chars_in_content
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions, EventCompaction
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.platform import time as adk_time
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.genai import types

from lessonkit.fixtures import Record
from lessonkit.lessons.context_compaction import AgentModel, Compaction, Lesson, Terse, adk_config_fields

TOOL = "lookup"
CHARS_PER_TOKEN = 4  # what ADK's estimate divides by
JSON_PER_TOKEN = 16  # what every event weighs per token in the JSON the worth check measures
EMPTY_SUMMARY_JSON = len(types.Content(role="model", parts=[]).model_dump_json(exclude_none=True))  # 27
AGENT = "support_bot"
USER = "reader"


def json_size(content: types.Content) -> int:
    return len(content.model_dump_json(exclude_none=True))


def estimate_chars(content: types.Content) -> int:
    return _count_chars_in_content(content)


def sized_text(role: str, label: str, tokens: int, json_chars: int) -> types.Content:
    """A text turn of 4 * tokens characters that weighs json_chars in JSON: `label`, then padding."""
    head = label + " "
    room = CHARS_PER_TOKEN * tokens - len(head)
    plain = types.Content(role=role, parts=[types.Part(text=head + "." * room)])
    control, newlines = divmod(json_chars - json_size(plain), 5)  # JSON writes \x01 as \u0001, \n as \\n
    if control < 0 or control + newlines > room:
        raise ValueError(f"{label}: {tokens} tokens cannot be written at {json_chars} JSON characters")
    text = head + "\x01" * control + "\n" * newlines + "." * (room - control - newlines)
    return types.Content(role=role, parts=[types.Part(text=text)])


def _ref(label: str, chars: int, accents: int = 0) -> str:
    """A tool argument of `chars` characters once json.dumps escapes it; each accent is 6 there, 1 in JSON."""
    plain = chars - 6 * accents - len(label) - 1
    if plain < 0:
        raise ValueError(f"{label}: too small to carry its label")
    return label + " " + "é" * accents + "." * plain


@dataclass(frozen=True)
class Piece:
    """An event to write: the label it starts with (its id, and any file it names), and its tokens."""

    label: str
    tokens: int


def tool_pair(call: Piece, response: Piece) -> tuple[types.Content, dict]:
    """The model's call and the tool's response dict, sized so the pair weighs what the lesson says."""
    framing = len(json.dumps({"ref": ""})) + len(TOOL)

    def build(call_id: str, accents: int) -> tuple[types.Content, types.Content, dict]:
        args = {"ref": _ref(call.label, CHARS_PER_TOKEN * call.tokens - framing)}
        answer = {"ref": _ref(response.label, CHARS_PER_TOKEN * response.tokens - framing, accents)}
        asked = types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(id=call_id, name=TOOL, args=args))])
        answered = types.Content(
            role="user", parts=[types.Part(function_response=types.FunctionResponse(id=call_id, name=TOOL, response=answer))]
        )
        return asked, answered, answer

    target = JSON_PER_TOKEN * (call.tokens + response.tokens)
    asked, answered, _ = build(call.label, 0)
    short = target - json_size(asked) - json_size(answered)
    accents = 1 if short % 2 else 0  # an accent takes 5 off the JSON; the id puts 2 a character on it
    call_id = call.label + "-" * ((short + 5 * accents) // 2)
    asked, answered, answer = build(call_id, accents)
    if json_size(asked) + json_size(answered) != target or short < 0:
        raise ValueError(f"{call.label}: the pair cannot be written at {target} JSON characters")
    return asked, answer


def summary_event(events: list[Event], number: int, tokens: int, names: tuple[str, ...], keeps: tuple[str, ...]) -> Event:
    label = " ".join((f"S{number}",) + names)
    content = sized_text("model", label, tokens, JSON_PER_TOKEN * tokens - EMPTY_SUMMARY_JSON)
    return Event(
        author="user",
        invocation_id=Event.new_id(),
        custom_metadata={"keeps": list(keeps)},
        actions=EventActions(
            compaction=EventCompaction(start_timestamp=events[0].timestamp, end_timestamp=events[-1].timestamp, compacted_content=content)
        ),
    )


def label_of(content: types.Content) -> str:
    part = content.parts[0]
    if part.function_call:
        return part.function_call.args["ref"].split(" ")[0]
    if part.function_response:
        return part.function_response.response["ref"].split(" ")[0]
    return part.text.split(" ")[0]


def tokens_of(event: Event) -> int:
    return estimate_chars(event.content) // CHARS_PER_TOKEN


class LessonSummarizer(BaseEventsSummarizer):
    """Summarizes as the lesson's summarizer does, reading only ADK events; writes the lesson's size."""

    def __init__(self, replay: AdkReplay, kind: str) -> None:
        self.replay, self.kind = replay, kind

    async def maybe_summarize_events(self, *, events: list[Event]) -> Event | None:
        self.replay.calls.append((self.replay.moment(), tuple(label_of(e.content) for e in events if e.content)))
        texts = [e for e in events if e.content and any(part.text for part in e.content.parts or [])]
        if self.kind == "terse":
            keeps = texts  # the user's words, the agent's replies, an earlier summary: not tool chatter
            if not keeps:
                return None
            tokens = sum(tokens_of(e) + Terse.label_tokens for e in keeps)
        else:
            keeps = [e for e in texts if e.author == "user" or label_of(e.content).startswith("S")]
            read = sum(tokens_of(e) for e in events)
            tokens = max(AgentModel.at_least, math.ceil(read * AgentModel.percent / 100))
        names = tuple(name for name in self.replay.files if any(name in part.text for e in keeps for part in e.content.parts))
        self.replay.written += 1
        self.replay.moments[f"S{self.replay.written}"] = self.replay.moment()
        return summary_event(events, self.replay.written, tokens, names, tuple(label_of(e.content) for e in keeps))


class ScriptedModel(BaseLlm):
    """Answers each request with the session's next tool call or reply; never calls out."""

    model: str = "scripted"
    replay: Any = None

    async def generate_content_async(self, llm_request, stream: bool = False):
        yield self.replay.answer(llm_request)


@dataclass
class Seen:
    """One model request as the scripted model received it."""

    labels: tuple[str, ...]
    attached: tuple[str, ...]
    prompt: int


@dataclass(frozen=True)
class Written:
    """A summary ADK wrote: its id, when, the first and last raw events of its span, its size, its lines."""

    id: str
    moment: str
    first: str
    last: str
    tokens: int
    keeps: tuple[str, ...]


@dataclass
class Observed:
    requests: list[Seen]
    summaries: list[Written]
    calls: list[tuple[str, tuple[str, ...]]]  # moment and labels of each summarizer call
    events: list[Event]


@dataclass
class AdkReplay:
    """One lesson session replayed through ADK's Runner under one setting and summarizer."""

    lesson: Lesson
    turn: int = 0
    replied: bool = False
    written: int = 0
    script: list[types.Content] = field(default_factory=list)
    responses: dict[str, dict] = field(default_factory=dict)
    requests: list[Seen] = field(default_factory=list)
    calls: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    moments: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for attachment in self.lesson.attachments:
            head = f"file:{attachment.name} "
            if len(head) > CHARS_PER_TOKEN * attachment.tokens:
                raise ValueError(f"{attachment.name}: {attachment.tokens} tokens cannot carry its name")
            self.files[attachment.name] = head + "." * (CHARS_PER_TOKEN * attachment.tokens - len(head))

    def label(self, event) -> str:
        return " ".join((event.id,) + event.mentions)

    def moment(self) -> str:
        return f"after turn {self.turn}" if self.replied else f"before request {len(self.requests) + 1}"

    def answer(self, request) -> LlmResponse:
        labels = tuple(label_of(content) for content in request.contents if not label_of(content).startswith("file:"))
        attached = tuple(label_of(content)[5:] for content in request.contents if label_of(content).startswith("file:"))
        prompt = sum(estimate_chars(content) for content in request.contents) // CHARS_PER_TOKEN
        self.requests.append(Seen(labels, attached, prompt))
        content = self.script.pop(0)
        self.replied = bool(content.parts[0].text)
        return LlmResponse(content=content, usage_metadata=types.GenerateContentResponseUsageMetadata(prompt_token_count=prompt))

    def attach(self, callback_context, llm_request) -> None:
        """The platform's side: a file named in the conversation goes with the request, in full."""
        said = " ".join(
            json.dumps(content.model_dump(mode="json", exclude_none=True), ensure_ascii=False) for content in llm_request.contents
        )
        for name, text in self.files.items():
            if name in said:
                llm_request.contents.append(types.Content(role="user", parts=[types.Part(text=text)]))

    def turns(self) -> list[tuple[types.Content, list[types.Content]]]:
        """Each turn's user message, and the model's answers to script, in order."""
        turns: list[tuple[types.Content, list[types.Content]]] = []
        events = self.lesson.events
        for index, event in enumerate(events):
            piece = Piece(self.label(event), event.tokens)
            if event.kind == "user":
                turns.append((sized_text("user", piece.label, event.tokens, JSON_PER_TOKEN * event.tokens), []))
            elif event.kind == "reply":
                turns[-1][1].append(sized_text("model", piece.label, event.tokens, JSON_PER_TOKEN * event.tokens))
            elif event.kind == "tool_call":
                answer = events[index + 1]
                asked, response = tool_pair(piece, Piece(self.label(answer), answer.tokens))
                turns[-1][1].append(asked)
                self.responses[event.id] = response
        return turns

    def run(
        self,
        compaction: Compaction,
        summarizer: str = "terse",
        summarizer_object: BaseEventsSummarizer | None = None,
        service: InMemorySessionService | None = None,
    ) -> Observed:
        replay = self

        def lookup(ref: str) -> dict:
            """Look a support record up."""
            return replay.responses[ref.split(" ")[0]]

        agent = LlmAgent(name=AGENT, model=ScriptedModel(replay=self), tools=[lookup], before_model_callback=self.attach)
        config = EventsCompactionConfig(**adk_config_fields(compaction), summarizer=summarizer_object or LessonSummarizer(self, summarizer))
        app = App(name="support", root_agent=agent, events_compaction_config=config)
        clock = itertools.count(1_000)  # distinct, increasing timestamps, one a second
        adk_time.set_time_provider(lambda: float(next(clock)))
        try:
            events = asyncio.run(self._run(app, service or InMemorySessionService()))
        finally:
            adk_time.reset_time_provider()
        return self._observed(events)

    async def _run(self, app: App, service: InMemorySessionService) -> list[Event]:
        runner = Runner(app=app, session_service=service)
        session = await service.create_session(app_name=app.name, user_id=USER)
        for number, (message, answers) in enumerate(self.turns(), start=1):
            self.turn, self.replied = number, False
            self.script.extend(answers)
            async for _ in runner.run_async(user_id=USER, session_id=session.id, new_message=message):
                pass
        assert not self.script, "the model was asked fewer times than the session has answers"
        final = await service.get_session(app_name=app.name, user_id=USER, session_id=session.id)
        return list(final.events)

    def _observed(self, events: list[Event]) -> Observed:
        by_time = {e.timestamp: label_of(e.content) for e in events if e.content and not e.actions.compaction}
        summaries = []
        for event in events:
            compaction = event.actions.compaction
            if compaction is not None:
                label = label_of(compaction.compacted_content)
                summaries.append(
                    Written(
                        label,
                        self.moments.get(label, ""),
                        by_time[compaction.start_timestamp],
                        by_time[compaction.end_timestamp],
                        estimate_chars(compaction.compacted_content) // CHARS_PER_TOKEN,
                        tuple((event.custom_metadata or {}).get("keeps", ())),
                    )
                )
        return Observed(self.requests, summaries, self.calls, events)


def misweighed(lesson: Lesson, events: list[Event]) -> list[str]:
    """Events of an ADK session whose character measures do not read their lesson weight."""
    weights = {event.id: event.tokens for event in lesson.events}
    wrong, pair = [], 0
    for event in events:
        summary = event.actions.compaction
        content = summary.compacted_content if summary else event.content
        if content is None:
            continue
        label = label_of(content)
        tokens = estimate_chars(content) // CHARS_PER_TOKEN if summary else weights[label]
        expected_json = JSON_PER_TOKEN * tokens - (EMPTY_SUMMARY_JSON if summary else 0)
        if estimate_chars(content) != CHARS_PER_TOKEN * tokens:
            wrong.append(f"{label}: {estimate_chars(content)} characters for {tokens} tokens")
        if content.parts[0].function_call:
            pair = json_size(content) - expected_json  # a call and its response weigh their sum together
        elif content.parts[0].function_response:
            if json_size(content) + pair != expected_json:
                wrong.append(f"{label}: its pair weighs {json_size(content) + pair - expected_json} JSON characters too many")
            pair = 0
        elif json_size(content) != expected_json:
            wrong.append(f"{label}: {json_size(content)} JSON characters, not {expected_json}")
    return wrong


FILE = "notes.txt"


def generated(seed: int) -> tuple[Lesson, Compaction, str]:
    """A random support session, setting and summarizer: the same seed gives the same three."""
    rng = random.Random(seed)
    turns = rng.randint(3, 12)
    named = rng.randint(1, turns)  # the turn whose user message names the file
    events: list[dict] = []
    calls = itertools.count(1)
    for turn in range(1, turns + 1):
        names = turn == named or rng.random() < 0.1
        text = f"the user, turn {turn}" + (f", about {FILE}" if names else "")
        events.append({"id": f"u{turn}", "turn": turn, "kind": "user", "tokens": rng.randint(16 if names else 5, 80), "text": text})
        for _ in range(rng.choices((0, 1, 2, 3), weights=(3, 4, 2, 1))[0]):
            number = next(calls)
            call, answer = rng.randint(8, 40), rng.randint(8, 600)
            events.append({"id": f"c{number}", "turn": turn, "kind": "tool_call", "tokens": call, "text": "a call"})
            events.append(
                {
                    "id": f"r{number}",
                    "turn": turn,
                    "kind": "tool_response",
                    "call": f"c{number}",
                    "tokens": answer,
                    "text": "its response",
                }
            )
        events.append({"id": f"a{turn}", "turn": turn, "kind": "reply", "tokens": rng.randint(5, 120), "text": "the agent's reply"})
    data = {
        "title": f"generated session {seed}",
        "agent": AGENT,
        "attachment": {"name": FILE, "tokens": rng.randint(20, 800)},
        "presets": [{"id": "none", "label": "none", "compaction": {"after_invocations": 1, "overlap": 0}}],
        "events": events,
    }
    lesson = Lesson.from_record(Record(f"generated-{seed}", "top level", data))
    size = {"after_tokens": rng.randint(1, 3000), "keep_recent_events": rng.randint(0, 8)}
    by_turns = {"after_invocations": rng.randint(1, 5), "overlap": rng.randint(0, 3)}
    setting = rng.choice(({**size}, {**by_turns}, {**size, **by_turns}))
    return lesson, Compaction(**setting), rng.choice(("terse", "model"))
