"""The compaction lesson checked against google-adk 2.13: same spans, same model-visible sequence, same refusals.

ADK runs as a real Runner would, with a scripted model and no network (see compaction_adk.py).
Where the lesson simplifies a rule of ADK's, a test here shows the difference it makes.
"""

import asyncio
import itertools
import json
import socket
import warnings

import pytest
from compaction_adk import AdkReplay, Observed, generated, label_of, misweighed
from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.apps.app import App, EventsCompactionConfig
from google.adk.apps.compaction import (
    _events_to_compact_for_token_threshold,
    _is_range_worth_compacting,
    _latest_prompt_token_count,
)
from google.adk.errors._stale_session_error import StaleSessionError
from google.adk.events.event import Event as AdkEvent
from google.adk.events.event_actions import EventActions, EventCompaction
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.genai import types
from pydantic import ValidationError

from lessonkit.fixtures import FixtureError, fixture_path, parse_fixture
from lessonkit.lessons.context_compaction import (
    ADK_DIFFERENCES,
    ADK_FIELDS,
    ADK_REFUSALS,
    Compaction,
    Event,
    Lesson,
    Refusal,
    Run,
    Summary,
    lesson,
    removable,
    simulate,
)

with warnings.catch_warnings():  # ADK marks BaseEventsSummarizer experimental; the sample builds one at import
    warnings.filterwarnings("ignore", message=r"\[EXPERIMENTAL\]")
    from terse_summarizer import Terse as SourceTerse

GENERATED_SESSIONS = 200
pytestmark = [
    pytest.mark.filterwarnings(r"ignore:\[EXPERIMENTAL\]:UserWarning"),
    pytest.mark.filterwarnings("ignore:SequentialAgent is deprecated:DeprecationWarning"),
]


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """ADK must never reach a model, or anything else, from these tests."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"the ADK check tried to connect to {args[1:]}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def assert_same(session: Lesson, run: Run, observed: Observed) -> None:
    """ADK and the simulator summarized the same spans at the same moments, and every request saw the same."""
    assert misweighed(session, observed.events) == []
    assert [(str(d.moment), d.span) for d in run.decisions if d.called] == observed.calls
    assert [(s.id, str(d.moment), s.covered[0], s.covered[-1], s.tokens, s.keeps) for d in run.decisions if (s := d.summary)] == [
        (w.id, w.moment, w.first, w.last, w.tokens, w.keeps) for w in observed.summaries
    ]
    simulated = [(r.seen_ids, tuple(a.name for a in r.attached), r.prompt) for r in run.requests]
    assert simulated == [(seen.labels, seen.attached, seen.prompt) for seen in observed.requests]


def replay_both(session: Lesson, setting: Compaction, summarizer: str) -> tuple[Lesson, Run, Observed]:
    return session, simulate(setting, summarizer, session), AdkReplay(session).run(setting, summarizer)


@pytest.mark.parametrize("summarizer", ["terse", "model"])
@pytest.mark.parametrize("preset", ["by-size", "by-turns", "both"])
def test_adks_runner_summarizes_the_fixture_as_the_simulator_does(preset, summarizer):
    session, run, observed = replay_both(lesson(), lesson().presets[preset], summarizer)
    assert run.summaries
    assert_same(session, run, observed)


@pytest.mark.parametrize("seed", range(GENERATED_SESSIONS))
def test_adks_runner_agrees_with_the_simulator_on_a_generated_session(seed):
    session, setting, summarizer = generated(seed)
    assert_same(*replay_both(session, setting, summarizer))


def test_adk_compacts_mid_turn_before_a_model_call_and_after_a_turn():
    *_, observed = replay_both(lesson(), lesson().presets["by-size"], "terse")
    assert [w.moment for w in observed.summaries][:2] == ["before request 10", "after turn 7"]


def test_the_harness_would_notice_an_event_that_does_not_weigh_its_tokens():
    session = lesson()
    natural = AdkEvent(author="user", content=types.Content(role="user", parts=[types.Part(text="u1 " + "x" * 149)]))
    assert misweighed(session, [natural]) == ["u1: 189 JSON characters, not 608"]


# Refusals


def adk_names(fields):
    names = {row.field: row.adk_field for row in ADK_FIELDS}
    return {names[field]: value for field, value in fields.items() if value is not None}


@pytest.mark.parametrize(
    "fields",
    [
        dict(zip(("after_tokens", "keep_recent_events", "after_invocations", "overlap"), values, strict=True))
        for values in itertools.product((None, 0, 1), (None, -1, 0, 2), (None, 0, 3), (None, -1, 0))
    ],
)
def test_the_setting_refuses_exactly_what_adks_config_refuses(fields):
    try:
        Compaction(**fields)
        accepted = True
    except Refusal:
        accepted = False
    try:
        EventsCompactionConfig(**adk_names(fields))
        adk_accepted = True
    except ValidationError:
        adk_accepted = False
    assert accepted == adk_accepted


@pytest.mark.parametrize(
    ("fields", "refusal"),
    [
        ({"token_threshold": 10}, 0),
        ({"event_retention_size": 0}, 0),
        ({"compaction_interval": 2}, 1),
        ({"overlap_size": 0}, 1),
        ({}, 2),
    ],
)
def test_adk_words_its_refusals_as_the_lesson_quotes_them(fields, refusal):
    with pytest.raises(ValidationError, match=ADK_REFUSALS[refusal].message):
        EventsCompactionConfig(**fields)


def test_every_adk_field_named_is_a_field_of_adks_config():
    assert {row.adk_field for row in ADK_FIELDS} <= set(EventsCompactionConfig.model_fields)


class Replier(BaseLlm):
    model: str = "replier"

    async def generate_content_async(self, llm_request, stream: bool = False):
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="Your refund is on its way.")]))


async def answer_once(app: App) -> list[AdkEvent]:
    service = InMemorySessionService()
    session = await service.create_session(app_name=app.name, user_id="reader")
    seen = []
    message = types.Content(role="user", parts=[types.Part(text="Where is my refund?")])
    try:
        async for event in Runner(app=app, session_service=service).run_async(user_id="reader", session_id=session.id, new_message=message):
            seen.append(event)
    except ValueError as error:
        seen.append(error)
    return seen


def pipeline(summarizer=None) -> App:
    root = SequentialAgent(name="pipeline", sub_agents=[LlmAgent(name="desk", model=Replier())])
    config = EventsCompactionConfig(compaction_interval=1, overlap_size=0, summarizer=summarizer)
    return App(name="pipeline", root_agent=root, events_compaction_config=config)


def test_adk_refuses_a_root_that_is_not_an_llm_agent_only_after_the_run_has_answered():
    reply, failure = asyncio.run(answer_once(pipeline()))
    assert reply.content.parts[0].text == "Your refund is on its way."
    assert isinstance(failure, ValueError) and str(failure) == ADK_REFUSALS[3].message


def test_adk_never_asks_what_the_root_is_when_it_has_a_summarizer():
    (reply,) = asyncio.run(answer_once(pipeline(SourceTerse())))
    assert reply.content.parts[0].text == "Your refund is on its way."


# The source's Terse


def test_the_sources_terse_summarizes_the_turn_triggers_spans_with_the_lessons_lines():
    setting = lesson().presets["by-turns"]
    observed = AdkReplay(lesson()).run(setting, summarizer_object=SourceTerse())
    run = simulate(setting)
    assert [(w.first, w.last) for w in observed.summaries] == [(s.covered[0], s.covered[-1]) for s in run.summaries]
    raw = {label_of(e.content): e for e in observed.events if e.content}
    for written, summary in zip((e for e in observed.events if e.actions.compaction), run.summaries, strict=True):
        lines = [f"{raw[i].author}: {raw[i].content.parts[0].text}" for i in summary.keeps]
        assert written.actions.compaction.compacted_content.parts[0].text == "\n".join(lines)


# Where the lesson simplifies ADK, and the difference it makes


def text_event(role, text, when):
    author = "user" if role == "user" else "desk"
    return AdkEvent(author=author, timestamp=when, content=types.Content(role=role, parts=[types.Part(text=text)]))


def summary_of(events, text):
    compaction = EventCompaction(
        start_timestamp=events[0].timestamp,
        end_timestamp=events[-1].timestamp,
        compacted_content=types.Content(role="model", parts=[types.Part(text=text)]),
    )
    return AdkEvent(author="user", timestamp=events[-1].timestamp + 0.5, actions=EventActions(compaction=compaction))


def test_adk_prices_a_span_in_json_characters_where_the_lesson_counts_tokens():
    assert "worth" in ADK_DIFFERENCES
    first, second, third = text_event("user", "x" * 40, 1), text_event("model", "y" * 40, 2), text_event("user", "z" * 40, 3)
    written = summary_of([first], "s" * 80)  # a summary of 20 tokens at four characters a token
    adk_worth = _is_range_worth_compacting(events=[first, written, second, third], events_to_compact=[second, third])
    events = tuple(Event(f"e{n}", n, 1, "user", 10, "") for n in range(3))
    summary = Summary("S1", 0, 0, 20, ("e0",), ())
    lesson_worth = removable((events[0], summary, events[1], events[2]), events[1:]) > summary.tokens
    assert adk_worth and not lesson_worth  # twenty tokens for twenty: ADK counts the JSON framing of two events


def test_after_a_summary_adk_reads_characters_over_four_not_the_models_count_and_not_the_file():
    assert "estimate" in ADK_DIFFERENCES
    said = [text_event("user", "Where is my refund for order 1182?", 1), text_event("model", "It left on Monday.", 2)]
    said[1].usage_metadata = types.GenerateContentResponseUsageMetadata(prompt_token_count=1412)  # the file rode along
    asked = text_event("user", "Thanks, and the invoice?", 3)
    assert _latest_prompt_token_count(said + [asked]) == 1412
    summary = summary_of(said, "Refund for 1182 sent Monday.")
    characters = len("Refund for 1182 sent Monday.") + len("Thanks, and the invoice?")
    assert _latest_prompt_token_count(said + [summary, asked]) == characters // 4 == 13


def test_adk_keeps_parallel_calls_with_their_answers_where_the_lesson_answers_each_call_at_once():
    assert "pairs" in ADK_DIFFERENCES

    def part(**kind):
        return types.Part(**kind)

    calls = AdkEvent(
        author="desk",
        timestamp=2,
        content=types.Content(
            role="model",
            parts=[part(function_call=types.FunctionCall(id=i, name="lookup", args={})) for i in ("p1", "p2")],
        ),
    )
    answers = [
        AdkEvent(
            author="desk",
            timestamp=3 + n,
            content=types.Content(role="user", parts=[part(function_response=types.FunctionResponse(id=i, name="lookup", response={}))]),
        )
        for n, i in enumerate(("p1", "p2"))
    ]
    events = [text_event("user", "Check both orders.", 1), calls, *answers, text_event("model", "Both shipped.", 5)]
    # Keeping two would keep p2's answer without its call, so ADK keeps the call and both answers too.
    assert [e.timestamp for e in _events_to_compact_for_token_threshold(events=events, event_retention_size=2)] == [1]
    data = json.loads(fixture_path("context-compaction").read_text())
    data["events"].insert(2, dict(data["events"][1], id="c1b"))  # a second call before the first is answered
    with pytest.raises(FixtureError, match="the tool call c1 is answered by the next event"):
        Lesson.from_record(parse_fixture(json.dumps(data), source="context-compaction.json"))


class StaleOnSummary(InMemorySessionService):
    """A session a later turn moved on while each summary was being written."""

    async def append_event(self, session, event):
        if event.actions.compaction:
            raise StaleSessionError("a newer turn updated the session")
        return await super().append_event(session=session, event=event)


def test_adk_discards_a_summary_written_while_the_session_moved_on_where_the_lesson_keeps_every_summary():
    assert "stale" in ADK_DIFFERENCES
    setting = lesson().presets["by-turns"]
    observed = AdkReplay(lesson()).run(setting, service=StaleOnSummary())
    # From turn 4 on, every turn finds four or more new turns, summarizes them all again, and loses the summary.
    assert [moment for moment, _ in observed.calls] == [f"after turn {turn}" for turn in range(4, 13)]
    assert observed.summaries == []
    assert len(observed.requests) == 24 and len(simulate(setting).summaries) == 3
