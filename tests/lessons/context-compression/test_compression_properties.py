"""The compression engine keeps its rules for any settings and any valid fixture, and refuses the rest.

Random fixtures are built as an author might write them (one pinned system turn first, turns of any
weight, any budgets that hold what is pinned) and go through the real loader, so what is checked is
what a fixture that loads can do.
"""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from lessonkit.checks import Refused, python_spelling
from lessonkit.fixtures import parse_fixture
from lessonkit.lessons.context_compression import (
    FIDELITIES,
    POLICIES,
    SUMMARY_ID,
    Lesson,
    Summary,
    first_unsupported_mention,
    lesson,
    replay,
)

modest = settings(max_examples=150, deadline=None)

params = st.fixed_dictionaries(
    {
        "budget": st.sampled_from(lesson().budgets),
        "policy": st.sampled_from(list(POLICIES)),
        "fidelity": st.sampled_from(list(FIDELITIES)),
    }
)


@st.composite
def fixtures(draw: st.DrawFn) -> Lesson:
    """A valid compression fixture: a pinned system turn, then user and agent turns, budgets that hold the pins."""
    count = draw(st.integers(1, 12))
    pinned = draw(st.integers(1, 20))
    summary = draw(st.integers(1, 20))
    turns = [{"id": "T1", "role": "system", "tokens": pinned, "arrives_at_s": 1, "text": "system", "fact": None}]
    for number in range(2, count + 1):
        role = draw(st.sampled_from(["user", "agent"]))
        fact = draw(st.sampled_from([None, "mention"] + (["source"] if role == "user" else [])))
        turns.append(
            {
                "id": f"T{number}",
                "role": role,
                "tokens": draw(st.integers(1, 40)),
                "arrives_at_s": number,
                "text": f"turn {number}",
                "fact": fact,
            }
        )
    budgets = draw(st.lists(st.integers(pinned + summary, 120), min_size=1, max_size=4, unique=True))
    data = {
        "lesson": "context-compression",
        "title": "Random",
        "fact": {"name": "region", "value": "Mumbai"},
        "duration_s": count,
        "budgets": budgets,
        "summary_tokens": summary,
        "turns": turns,
    }
    return Lesson.from_record(parse_fixture(json.dumps(data), source="random.json"))


def every_run(fixture: Lesson):
    for budget in fixture.budgets:
        for policy in POLICIES:
            for fidelity in FIDELITIES:
                yield replay(budget, policy, fidelity, fixture=fixture)


@modest
@given(fixtures())
def test_no_window_ever_reads_over_its_budget_and_the_system_turn_is_always_first(fixture):
    for run in every_run(fixture):
        for arrival in run.arrivals[1:]:
            assert arrival.tokens <= run.budget, (run.budget, run.policy, arrival.retained)
            assert arrival.retained[0] == "T1"


@modest
@given(fixtures())
def test_every_turn_that_arrived_is_retained_folded_or_evicted_exactly_once(fixture):
    for run in every_run(fixture):
        for arrival in run.arrivals:
            arrived = [turn.id for turn in fixture.turns[: arrival.index]]
            summary = arrival.window.summary
            folded = list(summary.folded) if summary else []
            evicted = [op.turn for earlier in run.arrivals[: arrival.index + 1] for op in earlier.operations if op.kind == "evict"]
            retained = [entry_id for entry_id in arrival.retained if entry_id != SUMMARY_ID]
            assert sorted(retained + folded + evicted) == sorted(arrived)


@modest
@given(fixtures())
def test_the_summary_keeps_its_fixed_size_and_only_user_sources_are_evidence(fixture):
    users = {turn.id for turn in fixture.turns if turn.backs_fact}
    for run in every_run(fixture):
        for arrival in run.arrivals:
            assert set(arrival.window.sources) <= users
            summary = arrival.window.summary
            if summary is not None:
                assert isinstance(summary, Summary) and summary.tokens == fixture.summary_tokens
                assert summary.sources == () or run.fidelity == "preserve"
            if arrival.user_backed:
                assert arrival.answer == "region: Mumbai"
            else:
                assert arrival.answer == ("unsupported" if arrival.fact_mentioned else "unknown")
        created = [arrival.index for arrival in run.arrivals if arrival.window.summary is not None]
        if created:
            assert created == list(range(created[0], len(run.arrivals))), "a summary, once created, stays"


@modest
@given(fixtures())
def test_fidelity_never_changes_an_eviction(fixture):
    for budget in fixture.budgets:
        assert replay(budget, "evict", "preserve", fixture=fixture).arrivals == replay(budget, "evict", "drop", fixture=fixture).arrivals


@modest
@given(params, st.floats(0, lesson().duration))
def test_any_moment_shows_the_latest_arrival_at_or_before_it(chosen, seconds):
    run = replay(**chosen)
    shown = run.at(seconds)
    assert shown.time <= seconds
    later = [arrival for arrival in run.arrivals if shown.time < arrival.time <= seconds]
    assert not later
    first = first_unsupported_mention(run)
    assert first is None or (first.fact_mentioned and not first.user_backed)


def _not_one_of(allowed) -> st.SearchStrategy:
    junk = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(max_size=8),
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
    )
    return junk.filter(lambda value: not any(type(value) is type(option) and value == option for option in allowed))


invalid = st.one_of(
    st.tuples(st.just("budget"), _not_one_of(lesson().budgets)),
    st.tuples(st.just("policy"), _not_one_of(tuple(POLICIES))),
    st.tuples(st.just("fidelity"), _not_one_of(tuple(FIDELITIES))),
)


@modest
@given(params, invalid)
def test_any_invalid_setting_is_refused_with_a_value_error_naming_it_and_what_is_allowed(chosen, bad):
    name, value = bad
    try:
        replay(**{**chosen, name: value})
    except Refused as error:
        assert str(error).startswith(f"{name} is {python_spelling(value)}; allowed: "), str(error)
        assert error.name == name
    else:
        raise AssertionError(f"{name}={value!r} was accepted")


@modest
@given(
    params,
    st.one_of(
        st.none(),
        st.text(max_size=4),
        st.booleans(),
        st.lists(st.floats(), max_size=1),
        st.floats().filter(lambda x: math.isnan(x) or not 0 <= x <= lesson().duration),
    ),
)
def test_any_moment_off_the_timeline_is_refused_naming_it(chosen, seconds):
    try:
        replay(**chosen).at(seconds)
    except Refused as error:
        assert str(error) == f"time is {python_spelling(seconds)}; allowed: 0 to {lesson().duration:g} seconds"
    else:
        raise AssertionError(f"time {seconds!r} was accepted")
