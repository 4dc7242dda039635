"""A recompute grows with its fixture, not with the fixture's square: the work bench/engine.py times, counted.

Tests never time anything. These count what a replay stores and what it reads, on the same larger
fixtures the benchmark generates (the lesson's own repeated k times), so a step whose cost grows
with everything before it fails here however fast the machine is.
"""

from __future__ import annotations

import gc
from dataclasses import fields, replace

import pytest

from bench.engine import compaction_fixture, compression_fixture
from lessonkit.chain import ReadsAsTuple
from lessonkit.lessons.context_compaction import SUMMARIZERS, Event, Summary, simulate
from lessonkit.lessons.context_compression import FIDELITIES, replay


def held(kinds: type | tuple[type, ...], values) -> int:
    """How many references to objects of `kinds` the tuples, lists and tuple-like sequences behind `values` hold.

    A tuple holds one per item, so a copy per step counts every item again; sequences that share
    what they grew from count it once.
    """
    holders, waiting, count = set(), list(values), 0
    while waiting:
        holder = waiting.pop()
        if id(holder) in holders:
            continue
        holders.add(id(holder))
        for referent in gc.get_referents(holder):
            if isinstance(referent, kinds):
                count += 1
            elif isinstance(referent, (tuple, list, ReadsAsTuple)):
                waiting.append(referent)
    return count


# Compression


@pytest.mark.parametrize("fidelity", list(FIDELITIES))
def test_a_replay_holds_each_folded_turn_once_not_again_in_every_later_summary(fidelity):
    fixture = compression_fixture(30)
    run = replay(fixture.budgets[0], "summarize", fidelity, fixture=fixture)
    summaries = [arrival.window.summary for arrival in run.arrivals if arrival.window.summary]
    folds = [operation for arrival in run.arrivals for operation in arrival.operations if operation.kind == "fold"]
    assert len(folds) > 200
    assert held(str, [summary.folded for summary in summaries]) == len(folds)
    assert held(str, [summary.sources for summary in summaries]) == len(summaries[-1].sources)


# Compaction


def test_summaries_on_the_size_path_hold_each_covered_event_once_not_again_in_every_later_summary():
    fixture = compaction_fixture(10)
    run = simulate(fixture.presets["by-size"], "terse", fixture=fixture)
    assert len(run.summaries) > 200 and run.summaries[-1].covered[0] == fixture.events[0].id
    assert held(str, [summary.covered for summary in run.summaries]) == len(run.summaries[-1].covered)


def test_requests_hold_what_the_model_saw_once_not_again_at_every_request():
    fixture = compaction_fixture(10)
    run = simulate(fixture.presets["by-turns"], "terse", fixture=fixture)
    assert len(run.requests[-1].seen) > 40, "on the turn path every summary stays in view"
    assert held((Event, Summary), [request.seen for request in run.requests]) <= 2 * len(run.log)


class Counted(Event):
    """An event that counts every read of its fields and properties, the engine's work on it."""

    reads = 0

    def __getattribute__(self, name: str):
        Counted.reads += 1
        return super().__getattribute__(name)


def counted(fixture):
    return replace(
        fixture, events=tuple(Counted(**{field.name: getattr(event, field.name) for field in fields(event)}) for event in fixture.events)
    )


@pytest.mark.parametrize("summarizer", list(SUMMARIZERS))
@pytest.mark.parametrize("preset", ["by-size", "by-turns", "both"])
def test_the_checks_read_each_event_and_each_summarys_span_a_bounded_number_of_times(preset, summarizer):
    # Each summary reads its span, and a longer session may write more of them per event, so reads
    # are counted per event and summary written: doubling the session must leave that about the same.
    per_entry = []
    for copies in (4, 8):
        fixture = counted(compaction_fixture(copies))
        Counted.reads = 0
        run = simulate(fixture.presets[preset], summarizer, fixture=fixture)
        per_entry.append(Counted.reads / len(run.log))
    assert per_entry[1] <= 1.25 * per_entry[0], f"reads per entry of the log went from {per_entry[0]:.1f} to {per_entry[1]:.1f}"
