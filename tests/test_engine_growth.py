"""A recompute grows with its fixture, not with the fixture's square: the work bench/engine.py times, counted.

Tests never time anything. These count what a replay stores and what it reads, on the same larger
fixtures the benchmark generates (the lesson's own repeated k times), so a step whose cost grows
with everything before it fails here however fast the machine is.
"""

from __future__ import annotations

import gc

import pytest

from bench.engine import compaction_fixture, compression_fixture
from lessonkit.chain import ReadsAsTuple
from lessonkit.compaction_session import simulate
from lessonkit.compression import FIDELITIES, replay


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
    folds = [operation for arrival in run.arrivals for operation in arrival.operations if operation.startswith("fold")]
    assert len(folds) > 200
    assert held(str, [summary.folded for summary in summaries]) == len(folds)
    assert held(str, [summary.sources for summary in summaries]) == len(summaries[-1].sources)


# Compaction


def test_summaries_on_the_size_path_hold_each_covered_event_once_not_again_in_every_later_summary():
    fixture = compaction_fixture(10)
    run = simulate(fixture.presets["by-size"], "terse", fixture=fixture)
    assert len(run.summaries) > 200 and run.summaries[-1].covered[0] == fixture.events[0].id
    assert held(str, [summary.covered for summary in run.summaries]) == len(run.summaries[-1].covered)
