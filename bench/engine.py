"""Engine cost in CPython: each engine's full recompute, on its fixture and on fixtures 10x and 100x larger.

A full recompute is every run the engine's panel can ask for over its discrete settings, from cold
caches:

- compression: `replay` for every budget x policy x fidelity (16 replays);
- retrieval: `retrieve` for every question at the default settings, its fitted TF-IDF cache cleared;
- compaction: `simulate` for every preset x summarizer.

Larger fixtures are generated from the lesson's own: the conversation's turns, the memory records or
the session's events repeated k times with fresh ids (and, for compaction, turns renumbered and tool
calls re-paired), passed through the engines' `fixture=` parameters. The growth factor t(k)/t(1),
from the fastest of each scale's repeats, says whether a recompute is linear in fixture size:
linear is about 10 at 10x and 100 at 100x. Where the modelled system itself does more than k times
the work on a k times longer input (compaction's summaries), that count is reported beside the time
(`WORK`), so a superlinear growth can be told apart from a superlinear engine.

Each measurement runs in its own process under a time limit (`python -m bench.engine ENGINE SCALE`
prints one JSON object), so an engine that grows badly is reported as "over the limit" rather than
stalling the benchmark.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any

# The checkout: `python -m bench.engine` runs from it, so a measurement imports this module as the bench does.
ROOT = Path(__file__).resolve().parents[1]
SCALES = (1, 10, 100)
MODULES = {
    "compression": "lessons.context_compression",
    "retrieval": "lessons.working_memory",
    "compaction": "lessons.context_compaction",
    "clearing": "lessons.tool_result_clearing",
}
LIMIT_S = 10.0  # per engine and scale, in its own process
MIN_TOTAL_S = 0.3  # repeat a recompute until this much time has been measured (at most MAX_REPEATS times)
MAX_REPEATS = 25


def compression_fixture(k: int) -> Any:
    compression = import_module("lessonkit.lessons.context_compression")
    lesson = compression.lesson()
    system, rest = lesson.turns[0], lesson.turns[1:]
    turns = [system]
    for copy in range(k):
        for turn in rest:
            name = turn.id if copy == 0 else f"{turn.id}~{copy}"
            turns.append(replace(turn, id=name, arrives_at=turn.arrives_at + copy * lesson.duration))
    return replace(lesson, turns=tuple(turns), duration=lesson.duration * k)


def compression_recompute(fixture: Any) -> int:
    compression = import_module("lessonkit.lessons.context_compression")
    runs = 0
    for budget in fixture.budgets:
        for policy in compression.POLICIES:
            for fidelity in compression.FIDELITIES:
                compression.replay(budget, policy, fidelity, fixture=fixture)
                runs += 1
    return runs


def retrieval_fixture(k: int) -> Any:
    lesson = import_module("lessonkit.lessons.working_memory").lesson()
    records = []
    for copy in range(k):
        for record in lesson.records:
            if copy == 0:
                records.append(record)
            else:
                key = f"{record.key}~{copy}" if record.key is not None else None
                records.append(replace(record, id=f"{record.id}~{copy}", key=key))
    return replace(lesson, records=tuple(records))


def retrieval_recompute(fixture: Any) -> int:
    retrieval = import_module("lessonkit.lessons.working_memory.retrieval")  # the module: its fit cache is its own
    retrieval._fitted.cache_clear()  # the TF-IDF fit is part of a recompute
    for question in retrieval.QUESTIONS:
        retrieval.retrieve(question, fixture=fixture)
    return len(retrieval.QUESTIONS)


def compaction_fixture(k: int) -> Any:
    lesson = import_module("lessonkit.lessons.context_compaction").lesson()
    events, turns = [], max(event.turn for event in lesson.events)
    for copy in range(k):
        suffix = "" if copy == 0 else f"~{copy}"
        for event in lesson.events:
            events.append(
                replace(
                    event,
                    id=event.id + suffix,
                    position=len(events),
                    turn=event.turn + copy * turns,
                    call=event.call + suffix if event.call else None,
                )
            )
    return replace(lesson, events=tuple(events))


def compaction_runs(fixture: Any) -> Iterator[Any]:
    """Every run the compaction panel can ask for, each preset with each summarizer, one at a time:
    a recompute that kept them all alive would also time the collector walking them."""
    compaction = import_module("lessonkit.lessons.context_compaction")
    for preset in fixture.presets.values():
        for summarizer in compaction.SUMMARIZERS:
            yield compaction.simulate(preset, summarizer, fixture=fixture)


def compaction_recompute(fixture: Any) -> int:
    return sum(1 for _run in compaction_runs(fixture))


def compaction_summaries(fixture: Any) -> int:
    """The summaries a recompute writes. A longer session need not compact proportionally more often:
    a summarizer whose summaries grow with what they cover (the source's Terse keeps every line people
    said) ends up over the size trigger at nearly every check, and the recompute's growth follows."""
    return sum(run.summarizer_calls for run in compaction_runs(fixture))


def clearing_fixture(k: int) -> Any:
    """The clearing lesson's session told `k` times over, one after the other, every id made unique."""
    clearing = import_module("lessonkit.lessons.tool_result_clearing")
    lesson = clearing.lesson()
    messages = []
    for copy in range(k):
        suffix = "" if copy == 0 else f"~{copy}"
        for message in lesson.messages:
            calls = tuple(replace(call, id=call.id + suffix) for call in message.calls)
            call = replace(message.call, id=message.call.id + suffix) if message.call else None
            needs = tuple(call_id + suffix for call_id in message.needs)
            messages.append(replace(message, id=message.id + suffix, calls=calls, call=call, needs=needs))
    return replace(lesson, session=replace(lesson.session, messages=tuple(messages)))


def clearing_recompute(fixture: Any) -> int:
    """What the panel computes for a view, for each preset: the setting's replay, beside clearing off
    (one replay, which every view shares) and the cache off (the same prompts priced again)."""
    clearing = import_module("lessonkit.lessons.tool_result_clearing")
    for preset in fixture.presets.values():
        clearing.compare(fixture.session, preset)
    return len(fixture.presets)


def clearing_blocks_sent(fixture: Any) -> int:
    """The blocks the agent's requests send, summed. Every request sends the whole history again, so the
    modelled system itself does work that grows with the square of the session: so does the replay."""
    clearing = import_module("lessonkit.lessons.tool_result_clearing")
    run = clearing.replay(fixture.session, fixture.presets["keep-3"])
    return sum(len(request.prompt.blocks) for request in run.requests)


ENGINES: dict[str, tuple[str, Callable[[int], Any], Callable[[Any], int], Callable[[Any], int]]] = {
    # module: (what a recompute is, fixture(k), recompute(fixture) -> runs, size(fixture)); a module
    # this checkout does not have yet is left out of the measurement.
    "compression": ("replay x16 (budgets x policies x fidelities)", compression_fixture, compression_recompute, lambda f: len(f.turns)),
    "retrieval": ("retrieve x4 (questions), TF-IDF fit included", retrieval_fixture, retrieval_recompute, lambda f: len(f.records)),
    "compaction": ("simulate x6 (presets x summarizers)", compaction_fixture, compaction_recompute, lambda f: len(f.events)),
    "clearing": ("compare x4 (presets), as the panel's views do", clearing_fixture, clearing_recompute, lambda f: len(f.messages)),
}
# What the modelled system itself does more of as the fixture grows, counted once per scale beside
# the time: when it grows faster than the fixture, so may the recompute, however linear the engine.
WORK: dict[str, tuple[str, Callable[[Any], int]]] = {
    "compaction": ("summaries written", compaction_summaries),
    "clearing": ("prompt blocks sent", clearing_blocks_sent),
}


def measure_one(engine: str, scale: int) -> dict[str, Any]:
    """One engine at one scale, in this process: median seconds of a full recompute."""
    _, make, recompute, size = ENGINES[engine]
    recompute(make(1))  # warm: first calls compile regular expressions and fill lazy caches
    fixture = make(scale)
    times, runs = [], 0
    while len(times) < MAX_REPEATS and (sum(times) < MIN_TOTAL_S or len(times) < 3):
        started = time.perf_counter()
        runs = recompute(fixture)
        times.append(time.perf_counter() - started)
        if sum(times) > LIMIT_S / 4:
            break
    row = {
        "engine": engine,
        "scale": scale,
        "size": size(fixture),
        "runs": runs,
        "repeats": len(times),
        "median_s": statistics.median(times),
        "min_s": min(times),
        "max_s": max(times),
    }
    if engine in WORK:
        what, count = WORK[engine]
        row["work"] = {"what": what, "count": count(fixture)}
    return row


def measure(limit_s: float = LIMIT_S, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Every engine at every scale, each in a subprocess under `limit_s`; growth factors against 1x."""
    results: dict[str, Any] = {}
    for engine, (what, *_rest) in ENGINES.items():
        if find_spec(f"lessonkit.{MODULES[engine]}") is None:
            log(f"  engine {engine}: lessonkit.{MODULES[engine]} is not in this checkout")
            continue
        rows: list[dict[str, Any]] = []
        for scale in SCALES:
            if len(rows) >= 2 and "min_s" in rows[-1]:
                # Growing as it did from the scale before, this scale would take about this long:
                # not worth waiting for the limit to say what the growth so far already says.
                previous, before = rows[-1], rows[-2]
                step = scale / previous["scale"]
                growth = previous["min_s"] / before["min_s"]
                if previous["min_s"] * growth * (step / (previous["scale"] / before["scale"])) > limit_s:
                    rows.append(
                        {
                            "engine": engine,
                            "scale": scale,
                            "skipped": f"{previous['scale']}× already grew {growth:.0f}× "
                            f"from {before['scale']}×; at that rate {scale}× would exceed the {limit_s:g} s limit",
                        }
                    )
                    log(f"  engine {engine} x{scale}: skipped ({rows[-1]['skipped']})")
                    break
            try:
                done = subprocess.run(
                    [sys.executable, "-m", "bench.engine", engine, str(scale)],
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                    timeout=limit_s,
                    check=True,
                )
                row = json.loads(done.stdout)
            except subprocess.TimeoutExpired:
                row = {"engine": engine, "scale": scale, "over_limit_s": limit_s}
            except subprocess.CalledProcessError as error:
                row = {"engine": engine, "scale": scale, "error": (error.stderr or "").strip().splitlines()[-1:]}
            rows.append(row)
            log(f"  engine {engine} x{scale}: " + (f"{row['median_s'] * 1000:.2f} ms" if "median_s" in row else json.dumps(row)))
            if "median_s" not in row:
                break  # a larger fixture would take longer still
        # Growth from the fastest run at each scale, as timeit advises: the one least disturbed by
        # whatever else the machine was doing.
        base = rows[0].get("min_s")
        base_work = rows[0].get("work", {}).get("count")
        for row in rows:
            if base and "min_s" in row:
                row["growth"] = row["min_s"] / base
            if base_work and "work" in row:
                row["work"]["growth"] = row["work"]["count"] / base_work
        results[engine] = {"recompute": what, "scales": rows}
    return results


if __name__ == "__main__":
    if len(sys.argv) == 3:
        json.dump(measure_one(sys.argv[1], int(sys.argv[2])), sys.stdout)
    else:
        json.dump(measure(log=lambda line: print(line, file=sys.stderr)), sys.stdout, indent=2)
    print()
