"""The compaction setting keeps the source's rules, and the session simulator reproduces the lesson's figures."""

import json
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.engine import compaction_fixture
from lessonkit.checks import Refused
from lessonkit.fixtures import FixtureError, fixture_path, parse_fixture
from lessonkit.lessons.context_compaction import (
    ADK_FIELDS,
    NO_TRIGGER_REFUSAL,
    SIZE_PAIR_REFUSAL,
    TURN_PAIR_REFUSAL,
    AgentModel,
    Compaction,
    Event,
    Lesson,
    Manifest,
    Moment,
    Refusal,
    SessionLog,
    Summarizer,
    Summary,
    Terse,
    adk_config_fields,
    kept_summaries,
    lesson,
    load_summarizer,
    removable,
    simulate,
    start,
    terse,
    visible,
    write_summary,
)

BY_SIZE = Compaction(after_tokens=3000, keep_recent_events=6)
BY_TURNS = Compaction(after_invocations=4, overlap=1)
BOTH = Compaction(after_tokens=3000, keep_recent_events=6, after_invocations=4, overlap=1)

# The setting


def test_the_size_pairs_refusal_is_the_sources_message_word_for_word():
    assert SIZE_PAIR_REFUSAL == (
        "`after_tokens` and `keep_recent_events` go together: the first says when to\n"
        "compact, the second how much of the recent conversation to leave alone.\n"
        "Set both, or neither."
    )


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ({"after_tokens": 80_000}, SIZE_PAIR_REFUSAL),
        ({"keep_recent_events": 20}, SIZE_PAIR_REFUSAL),
        ({"after_invocations": 20}, TURN_PAIR_REFUSAL),
        ({"overlap": 2}, TURN_PAIR_REFUSAL),
    ],
)
def test_half_a_pair_is_refused_when_built_naming_the_field_written(written, message):
    (field,) = written
    with pytest.raises(Refusal) as refused:
        Compaction(**written)
    assert refused.value.field == field and refused.value.moment == "build"
    assert str(refused.value) == f"Compaction sets `{field}` alone.\n{message}"


def test_a_refusal_is_one_of_the_courses_refusals_carrying_the_field_the_value_and_what_is_allowed():
    with pytest.raises(Refused) as refused:
        Compaction(after_invocations=20)
    assert isinstance(refused.value, Refusal)
    assert (refused.value.name, refused.value.value) == ("after_invocations", 20)
    assert refused.value.allowed == "`after_invocations` and `overlap` both, or neither"
    with pytest.raises(Refusal) as refused:
        Compaction(after_tokens=10, keep_recent_events=-1)
    assert (refused.value.name, refused.value.value, refused.value.moment) == ("keep_recent_events", -1, "build")
    assert refused.value.allowed == "a whole number, 0 or more, or None to leave it out"


def test_the_turn_pairs_refusal_has_the_shape_of_the_size_pairs():
    assert TURN_PAIR_REFUSAL.startswith("`after_invocations` and `overlap` go together: the first says when to\ncompact")
    assert TURN_PAIR_REFUSAL.endswith("\nSet both, or neither.")


def test_a_setting_with_no_trigger_is_refused():
    with pytest.raises(Refusal) as refused:
        Compaction()
    assert str(refused.value) == NO_TRIGGER_REFUSAL
    with pytest.raises(Refusal):
        Compaction(summarizer=".summarizers.terse")


def test_overlap_zero_is_a_choice_and_an_omitted_overlap_is_half_a_pair():
    assert Compaction(after_invocations=20, overlap=0).overlap == 0
    with pytest.raises(Refusal, match="sets `after_invocations` alone"):
        Compaction(after_invocations=20, overlap=None)


def test_both_pairs_together_are_accepted():
    both = Compaction(after_tokens=80_000, keep_recent_events=20, after_invocations=20, overlap=2)
    assert both.by_size and both.by_turns


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"after_tokens": 0, "keep_recent_events": 1}, "after_tokens is 0; allowed: a whole number greater than 0"),
        ({"after_tokens": 10, "keep_recent_events": -1}, "keep_recent_events is -1; allowed: a whole number, 0 or more"),
        ({"after_invocations": 2.5, "overlap": 1}, "after_invocations is 2.5; allowed: a whole number greater than 0"),
        ({"after_invocations": 2, "overlap": True}, "overlap is True; allowed: a whole number, 0 or more"),
        ({"after_invocations": 2, "overlap": 0, "summarizer": "terse"}, "summarizer is 'terse'; allowed: a dotted path"),
        ({"after_invocations": 2, "overlap": 0, "summarizer": ".summ arizers.x"}, "allowed: a dotted path"),
    ],
)
def test_a_value_out_of_range_names_the_field_the_value_and_what_is_allowed(fields, message):
    with pytest.raises(Refusal, match=message):
        Compaction(**fields)


def test_a_workflow_manifest_refuses_compaction_as_an_unknown_field():
    with pytest.raises(Refusal) as refused:
        Manifest("workflow", "flows.intake", compaction=BY_SIZE)
    assert refused.value.field == "compaction" and refused.value.moment == "build"
    assert str(refused.value).startswith("unknown field `compaction`: a WorkflowManifest has no field `compaction`")
    assert Manifest("workflow", "flows.intake").compaction is None


def test_an_agent_whose_root_is_not_an_llm_agent_is_refused_at_start():
    manifest = Manifest("agent", "lessonkit.lessons.context_compaction", compaction=BY_SIZE)
    with pytest.raises(Refusal) as refused:
        start(manifest, root="SequentialAgent")
    assert refused.value.moment == "start"
    assert "Remove the `compaction` block, or return an LlmAgent from build()." in str(refused.value)


def test_its_own_summarizer_lifts_the_llm_agent_requirement():
    manifest = Manifest(
        "agent",
        "lessonkit.lessons.context_compaction",
        compaction=Compaction(after_tokens=10, keep_recent_events=2, summarizer=".summarizers.terse"),
    )
    assert start(manifest, root="SequentialAgent").summarizer is terse


def test_an_llm_root_summarizes_with_the_agents_model_by_default():
    assert isinstance(start(Manifest("agent", "lessonkit.lessons.context_compaction", compaction=BY_SIZE)).summarizer, AgentModel)
    assert start(Manifest("agent", "lessonkit.lessons.context_compaction")).summarizer is None


def test_a_leading_dot_is_relative_to_the_agents_package_and_an_instance_is_taken_as_it_is():
    assert load_summarizer(".summarizers.terse", "lessonkit.lessons.context_compaction") is terse
    assert load_summarizer("lessonkit.lessons.context_compaction.terse", "elsewhere") is terse


def test_a_class_is_built_with_no_arguments():
    built = load_summarizer(".summarizers.Terse", "lessonkit.lessons.context_compaction")
    assert type(built) is Terse and built is not terse


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (".summarisers.terse", "does not import from package 'lessonkit.lessons.context_compaction'"),
        (".summarizers.nothing", "does not import"),
        (".fixture.KINDS", "which is not a summarizer"),
        (".setting.Compaction", "which is not a summarizer"),
    ],
)
def test_a_summarizer_path_that_does_not_import_or_is_not_a_summarizer_fails_at_start(path, message):
    manifest = Manifest(
        "agent", "lessonkit.lessons.context_compaction", compaction=Compaction(after_tokens=10, keep_recent_events=2, summarizer=path)
    )
    with pytest.raises(Refusal, match=message) as refused:
        start(manifest)
    assert refused.value.field == "summarizer" and refused.value.moment == "start"


def test_every_field_of_the_setting_has_its_adk_counterpart():
    assert [row.field for row in ADK_FIELDS] == [
        "after_tokens",
        "keep_recent_events",
        "after_invocations",
        "overlap",
        "summarizer",
    ]
    assert adk_config_fields(BOTH) == {
        "token_threshold": 3000,
        "event_retention_size": 6,
        "compaction_interval": 4,
        "overlap_size": 1,
    }
    assert adk_config_fields(Compaction(after_invocations=3, overlap=0)) == {"compaction_interval": 3, "overlap_size": 0}


# The session


def test_the_fixture_is_a_twelve_turn_session_of_24_model_requests():
    session = lesson()
    assert len(session.events) == 48 and session.events[-1].turn == 12
    assert len(simulate(BY_SIZE).requests) == 24
    assert set(session.presets) == {"by-size", "by-turns", "both"}
    assert session.presets["both"] == BOTH


def test_the_file_the_first_message_names_rides_on_every_request_while_its_name_is_in_view():
    run = simulate(BY_SIZE)
    assert run.request(1).prompt == 38 + 1400
    assert all(request.attached[0].name == "statement-march.pdf" for request in run.requests)


def test_a_summary_that_drops_the_name_drops_the_file():
    class Forgetful(Summarizer):
        name = "forgetful"

        def summarize(self, span, summary_id):
            return write_summary(summary_id, span, 10, (), self.name)

    run = simulate(BY_SIZE, Forgetful())
    assert run.request(9).attached and not run.request(10).attached
    assert run.request(10).prompt == sum(entry.tokens for entry in run.request(10).seen)


def test_a_long_tool_loop_is_compacted_before_a_model_call_mid_turn():
    run = simulate(BY_SIZE)
    request = run.request(10)
    assert run.request(9).prompt == 3016 and request.turn == run.request(9).turn == 5
    assert request.decision.summary.id == "S1"
    assert request.seen_ids == ("S1", "a3", "u4", "a4", "u5", "c5", "r5")  # the six newest raw events stay


def test_the_newer_summary_on_the_size_path_subsumes_the_older():
    run = simulate(BY_SIZE)
    second = run.summaries[1]
    assert second.keeps[0] == "S1" and second.covered[0] == "u1" and second.covered[-1] == "r6"
    assert run.request(16).seen_ids[0] == "S2" and "S1" not in run.request(16).seen_ids


def test_a_kept_tool_response_keeps_its_call_so_the_split_moves_back():
    run = simulate(BY_SIZE)
    after_eight = next(d for d in run.decisions if d.moment == Moment.after_turn(8))
    assert after_eight.summary.covered[-1] == "u7"  # six kept would start at r8, so c8 stays too
    assert run.request(18).seen_ids == ("S3", "c8", "r8", "a7", "u8", "c9", "r9", "a8", "u9")


def test_after_a_summary_the_size_trigger_estimates_the_prompt_without_the_file():
    run = simulate(BY_SIZE)
    before_16 = run.request(16).decision
    assert before_16.estimated and before_16.reading == 1536
    assert run.request(16).prompt == 1536 + 1400


def test_the_turn_trigger_summarizes_every_four_turns_and_overlaps_at_the_seam():
    run = simulate(BY_TURNS)
    assert [(s.id, s.covered[0], s.covered[-1]) for s in run.summaries] == [
        ("S1", "u1", "a4"),
        ("S2", "u4", "a8"),
        ("S3", "u8", "a12"),
    ]
    assert run.request(18).seen_ids == ("S1", "S2", "u9")  # both summaries stay; turn 4 is in both
    assert [entry.id for entry in run.final_view] == ["S1", "S2", "S3"]


def test_overlap_zero_gives_summaries_that_meet_without_overlapping():
    run = simulate(Compaction(after_invocations=4, overlap=0))
    assert [(s.covered[0], s.covered[-1]) for s in run.summaries] == [("u1", "a4"), ("u5", "a8"), ("u9", "a12")]


def test_with_both_triggers_whichever_arrives_first_fires():
    run = simulate(BOTH)
    fired = [(str(d.moment), d.trigger, d.summary.id) for d in run.decisions if d.summary]
    assert fired[:2] == [("after turn 4", "turns", "S1"), ("after turn 7", "size", "S2")]


def test_after_a_turn_the_turn_trigger_runs_only_when_the_size_trigger_wrote_nothing():
    run = simulate(BOTH)
    after_seven = [d.trigger for d in run.decisions if d.moment == Moment.after_turn(7)]
    after_six = [d.trigger for d in run.decisions if d.moment == Moment.after_turn(6)]
    assert after_seven == ["size"] and after_six == ["size", "turns"]


def test_a_span_is_not_summarized_when_it_would_remove_less_than_the_latest_summary_weighs():
    run = simulate(Compaction(after_invocations=1, overlap=0))
    refused = next(d for d in run.decisions if d.fired and not d.called)
    assert refused.moment == Moment.after_turn(4) and refused.span == ("u4", "a4")
    assert "that would remove 50 tokens, the latest summary weighs 78" in refused.reason
    assert run.summaries[3].covered == ("u4", "a4", "u5", "c5", "r5", "a5")  # the next turn takes it along


def test_terse_keeps_what_people_said_and_drops_tool_chatter():
    first = simulate(BY_SIZE).summaries[0]
    assert first.keeps == ("u1", "a1", "u2", "a2", "u3")
    assert first.tokens == sum(lesson().event(i).tokens + 1 for i in first.keeps) == 199


def test_terse_writes_nothing_for_a_span_with_nothing_said():
    calls = tuple(event for event in lesson().events if event.kind in ("tool_call", "tool_response"))[:4]
    assert Terse().summarize(calls, "S1") is None


def test_the_agents_model_stand_in_writes_a_fifth_of_what_it_reads_and_costs_a_call():
    model, rules = simulate(BY_SIZE, "model"), simulate(BY_SIZE, "terse")
    first = model.summaries[0]
    read = sum(lesson().event(i).tokens for i in first.covered)
    assert first.tokens == max(40, -(-read // 5)) == 297
    assert model.summarizer_tokens == 4175 and rules.summarizer_tokens == 0


@pytest.mark.parametrize(
    ("setting", "summarizer", "sent", "calls"),
    [(BY_SIZE, "terse", 63675, 5), (BY_TURNS, "terse", 61564, 3), (BOTH, "terse", 62411, 5), (BY_SIZE, "model", 61699, 3)],
)
def test_tokens_sent_with_and_without_compaction(setting, summarizer, sent, calls):
    run = simulate(setting, summarizer)
    assert (run.tokens_sent, run.tokens_without, run.summarizer_calls) == (sent, 94060, calls)


def test_what_the_model_sees_are_kept_summaries_and_raw_events_outside_them():
    first, second = (Summary("S1", 0, 3, 5, (), ()), Summary("S2", 2, 5, 5, (), ()))
    events = tuple(Event(f"e{n}", n, 1, "user", 1, "x") for n in range(7))
    log = events[:6] + (first, second) + events[6:]
    assert [entry.id for entry in visible(log)] == ["S1", "S2", "e6"]
    inner = Summary("S3", 1, 2, 5, (), ())
    assert kept_summaries(log + (inner,)) == (first, second)


@settings(max_examples=60, deadline=None)
@given(
    size=st.one_of(st.none(), st.tuples(st.integers(1, 6000), st.integers(0, 12))),
    turns=st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(0, 4))),
    summarizer=st.sampled_from(["terse", "model"]),
)
def test_every_request_sees_summaries_and_the_raw_events_outside_them(size, turns, summarizer):
    assume(size is not None or turns is not None)
    setting = Compaction(*(size or (None, None)), *(turns or (None, None)))
    run = simulate(setting, summarizer)
    for request in run.requests:
        summaries = [entry for entry in request.seen if isinstance(entry, Summary)]
        raw = [entry for entry in request.seen if isinstance(entry, Event)]
        assert not any(summary.covers(event.position) for summary in summaries for event in raw)
        assert [entry.position for entry in request.seen] == sorted(entry.position for entry in request.seen)
        assert request.prompt == sum(entry.tokens for entry in request.seen) + sum(a.tokens for a in request.attached)
        assert request.prompt - request.uncompacted <= sum(summary.tokens for summary in summaries)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_session_logs_indexes_read_what_the_rules_read_from_the_whole_log(data):
    # Events in position order, each turn's together, and summaries of any span up to the newest
    # event; now and then an event out of order, a turn taken up again, or a summary that ends before
    # it starts or after the newest event, and from then on the log is read in full. What the model
    # sees, the latest summary it sees, what replacing a span would remove, and the raw events and
    # turns after a position all read as the rules read the whole log.
    session, log, events, turn = SessionLog(), [], [], 1
    for number in range(18):
        odd = data.draw(st.sampled_from(["out of order", "turn again", *[None] * 18]))
        position = data.draw(st.integers(0, number)) if odd == "out of order" else number
        turn = data.draw(st.integers(1, turn)) if odd == "turn again" else turn + data.draw(st.integers(0, 1))
        event = Event(f"e{number}", position, turn, "user", data.draw(st.integers(1, 50)), "x")
        events.append(event)
        session.add(event)
        log.append(event)
        for _ in range(data.draw(st.integers(0, 2))):
            odd = data.draw(st.sampled_from(["backwards", "ahead", *[None] * 18]))
            end = data.draw(st.integers(0, 20 if odd == "ahead" else number))
            start = data.draw(st.integers(0, end))
            if odd == "backwards":
                start, end = end, start - 1
            summary = Summary(f"S{session.written + 1}", start, end, data.draw(st.integers(0, 60)), (), ())
            session.write(summary)
            log.append(summary)
        kept = kept_summaries(tuple(log))
        assert session.seen == visible(tuple(log))
        assert session.latest == (kept[-1] if kept else None)
        first = data.draw(st.integers(0, number))
        latest = (kept[-1],) if kept and data.draw(st.booleans()) else ()
        span = (*latest, events[first], events[data.draw(st.integers(first, number))])
        assert session.removable(span) == removable(tuple(log), span)
        raw, turns = [entry for entry in log if isinstance(entry, Event)], {}
        for entry in raw:
            turns.setdefault(entry.turn, []).append(entry)
        assert session.raw_after(first) == [entry for entry in raw if entry.position > first]
        assert session.turns_after(first) == [number for number, its in turns.items() if its[-1].position > first]


class Forgetful(Summarizer):
    """Carries nothing: the file's name leaves what the model sees with the events it summarizes."""

    name = "forgetful"

    def summarize(self, span, summary_id):
        return write_summary(summary_id, span, 10, (), self.name)


class FromTheStart(Summarizer):
    """Claims every event from the session's first: its summaries hold every summary before them."""

    name = "from-the-start"

    def summarize(self, span, summary_id):
        return replace(terse.summarize(span, summary_id) or write_summary(summary_id, span, 1, (), self.name), start=0)


class Backwards(Summarizer):
    """Writes its span's bounds the wrong way round, as no summarizer should: a summary that covers nothing."""

    name = "backwards"

    def summarize(self, span, summary_id):
        summary = write_summary(summary_id, span, 10, span[:1], self.name)
        return replace(summary, start=summary.end, end=summary.start)


OWN_SUMMARIZERS = {"forgetful": Forgetful(), "from-the-start": FromTheStart(), "backwards": Backwards()}


@settings(max_examples=60, deadline=None)
@given(
    size=st.one_of(st.none(), st.tuples(st.integers(1, 6000), st.integers(0, 12))),
    turns=st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(0, 4))),
    summarizer=st.sampled_from(["terse", "model", *OWN_SUMMARIZERS]),
    copies=st.integers(1, 3),
)
def test_the_session_logs_indexes_decide_as_reading_the_whole_log_would(size, turns, summarizer, copies):
    assume(size is not None or turns is not None)
    setting = Compaction(*(size or (None, None)), *(turns or (None, None)))
    writer, fixture = OWN_SUMMARIZERS.get(summarizer, summarizer), compaction_fixture(copies)
    indexed = simulate(setting, writer, fixture)
    started = SessionLog.__init__

    def reading_in_full(session):
        started(session)
        session.read_in_full()

    with mock.patch.object(SessionLog, "__init__", reading_in_full):
        assert simulate(setting, writer, fixture) == indexed


@pytest.mark.parametrize(
    ("call", "allowed"),
    [
        (lambda: simulate("by-size"), "compaction is 'by-size'; allowed: a Compaction"),
        (lambda: simulate(BY_SIZE, "gpt"), "summarizer is 'gpt'; allowed: 'terse', 'model', or a Summarizer"),
        (lambda: simulate(BY_SIZE).request(25), "request is 25; allowed: 1 to 24, whole numbers"),
        (lambda: lesson().event("x9"), "event is 'x9'; allowed: 'u1', 'c1'"),
        (lambda: Manifest("pipeline", "x"), "kind is 'pipeline'; allowed: 'agent', 'workflow'"),
        (lambda: start(Manifest("agent", "x"), root="Graph"), "root is 'Graph'; allowed: 'LlmAgent'"),
    ],
)
def test_bad_input_names_the_value_and_what_is_allowed(call, allowed):
    with pytest.raises(ValueError, match=allowed):
        call()


# The fixture


def fixture_with(change):
    data = json.loads(fixture_path("context-compaction").read_text())
    change(data)
    return Lesson.from_record(parse_fixture(json.dumps(data), source="context-compaction.json"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["events"][1].update(tokens=0), r"events\[1\] \(c1\): field 'tokens' is 0; allowed: a whole number greater than 0$"),
        (
            lambda d: d["events"][2].update(call="c7"),
            r"events\[2\] \(r1\): field 'call' is 'c7'; a tool response answers the call just before it",
        ),
        (
            lambda d: d["events"][2].update(kind="reply"),
            r"events\[2\] \(r1\): field 'kind' is 'reply'; the tool call c1 is answered by the next event",
        ),
        (lambda d: d["events"][4].update(turn=3), r"events\[4\] \(u2\): field 'turn' is 3; this event belongs to turn 2"),
        (
            lambda d: d["events"][4].update(kind="reply"),
            r"events\[4\] \(u2\): field 'kind' is 'reply'; a user message opens each turn",
        ),
        (
            lambda d: d["events"][3].update(kind="user"),
            r"events\[3\] \(a1\): field 'kind' is 'user'; only the first event of a turn",
        ),
        (lambda d: d["events"][5].update(id="u1"), r"events\[5\] \(u1\): field 'id' is 'u1', which is already taken"),
        (
            lambda d: d["events"].pop(),
            r"top level: field 'events' must end with a reply; the last event, r12, is a tool_response",
        ),
        (
            lambda d: d["attachment"].update(name="invoice.pdf"),
            r"top level > attachment: field 'name' is 'invoice.pdf', which no user",
        ),
        (
            lambda d: d["presets"][0]["compaction"].pop("keep_recent_events"),
            r"presets\[0\] \(by-size\) > compaction: field 'after_tokens' is refused: Compaction sets `after_tokens` alone",
        ),
        (
            lambda d: d["presets"][1]["compaction"].update(every=3),
            r"presets\[1\] \(by-turns\) > compaction: field 'every' is not a compaction",
        ),
        (
            lambda d: d["presets"][2].update(id="by-size"),
            r"presets\[2\] \(by-size\): field 'id' is 'by-size', which is already taken",
        ),
    ],
)
def test_a_broken_fixture_names_file_record_and_field(change, message):
    with pytest.raises(FixtureError, match=message) as broken:
        fixture_with(change)
    assert str(broken.value).startswith("context-compaction.json: ")
