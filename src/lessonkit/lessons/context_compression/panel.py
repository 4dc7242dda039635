"""The context compression lesson's panel: its controls, and how an arrival reads on the page."""

from __future__ import annotations

import json
from typing import Any

from lessonkit.lessons import context_compression as compression
from lessonkit.lessons.context_compression import Arrival, Replay, Summary, Turn
from lessonkit.panel import Choice, Mark, Option, Panel, Params, Playback, Timeline, View, Words
from lessonkit.panel.chart import Rule, Series, line_chart
from lessonkit.panel.components import findings, meter
from lessonkit.panel.html import Markup, h, join
from lessonkit.panel.reading import Reading

LESSON = "context-compression"


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def entry_state(entry: Turn | Summary) -> dict[str, Any]:
    state: dict[str, Any] = {"id": entry.id, "role": entry.role, "tokens": entry.tokens}
    if isinstance(entry, Summary):
        state["folded"] = list(entry.folded)
    state["mentions_fact"] = entry.mentions_fact
    state["user_backed_source"] = list(entry.sources)
    return state


def turn_record(turn: Turn) -> dict[str, Any]:
    return {"id": turn.id, "role": turn.role, "tokens": turn.tokens, "arrives_at_s": turn.arrives_at, "text": turn.text, "fact": turn.fact}


def arrival_state(run: Replay, arrival: Arrival) -> dict[str, Any]:
    """The exact state of one arrival, as data a reader can inspect or export."""
    return {
        "arrival": arrival.index,
        "time_s": arrival.time,
        "arrived": arrival.turn.id if arrival.turn else None,
        "budget": run.budget,
        "policy": run.policy,
        "fidelity": run.fidelity,
        "attempted_tokens": arrival.attempted,
        "operations": [str(operation) for operation in arrival.operations],
        "window": [entry_state(entry) for entry in arrival.window.entries],
        "tokens": arrival.tokens,
        "retained": list(arrival.retained),
        "fact_mentioned": arrival.fact_mentioned,
        "user_backed_evidence": list(arrival.window.sources),
        "answer": arrival.answer,
    }


def status(run: Replay, arrival: Arrival) -> str:
    if arrival.turn is None:
        return f"No message has arrived yet: 0 of {run.budget} tokens. Answer: {arrival.answer}."
    sources = ", ".join(arrival.window.sources) or "none"
    return (
        f"{arrival.tokens} of {run.budget} tokens after {arrival.turn.id} at {arrival.time:g} s"
        f" (attempted {arrival.attempted}). Retained: {', '.join(arrival.retained)}."
        f" Fact mentioned: {_yes_no(arrival.fact_mentioned)}."
        f" User-backed evidence: {sources}. Answer: {arrival.answer}."
    )


def gone(run: Replay, arrival: Arrival) -> list[tuple[str, str, float]]:
    """Every turn that left the window by this arrival: (turn, "evicted" or "folded into S", when)."""
    left = []
    for earlier in run.arrivals[1 : arrival.index + 1]:
        for operation in earlier.operations:
            if operation.kind == "evict":
                left.append((operation.turn, "evicted", earlier.time))
            elif operation.kind == "fold":
                left.append((operation.turn, f"folded into {operation.summary}", earlier.time))
    return left


def _row(entry: Turn | Summary, fact: compression.Fact) -> Markup:
    text = entry_text(entry, fact)
    badges = []
    if entry.sources:
        badges.append(h("span", {"class": "lk-badge lk-badge-evidence"}, f"user-backed · source {', '.join(entry.sources)}"))
    elif entry.mentions_fact:
        badges.append(h("span", {"class": "lk-badge lk-badge-mention"}, "mentions the fact only"))
    if entry.pinned:
        badges.append(h("span", {"class": "lk-badge"}, "pinned"))
    return h(
        "li",
        {"class": ["lk-row", f"lk-role-{entry.role}", "lk-evidence" if entry.sources else ""], "data-id": entry.id},
        h("span", {"class": "lk-id"}, entry.id),
        " ",
        h("span", {"class": "lk-role"}, entry.role),
        " ",
        h("span", {"class": "lk-tokens"}, f"{entry.tokens} tokens"),
        " ",
        join(badges, " "),
        h("span", {"class": "lk-text"}, text),
    )


def _settings(run: Replay) -> str:
    return f"budget {run.budget}, {compression.POLICIES[run.policy]}, {compression.FIDELITIES[run.fidelity]}"


def _series(run: Replay, name: str, style: int) -> Series:
    arrivals = run.arrivals[1:]
    return Series(
        name,
        tuple((a.time, a.tokens) for a in arrivals),
        style=style,
        hollow=frozenset(a.time for a in arrivals if not a.user_backed),
    )


def chart(run: Replay, arrival: Arrival, baseline: Replay | None) -> Markup:
    series = [_series(run, "Now", 0)]
    rules = [Rule(run.budget, f"Budget {run.budget}")]
    described = f"Window tokens after each arrival for {_settings(run)}"
    if baseline is not None:
        series.append(_series(baseline, "Baseline", 1))
        if baseline.budget != run.budget:
            rules.append(Rule(baseline.budget, f"Baseline budget {baseline.budget}"))
        described += f", beside the captured baseline ({_settings(baseline)}), drawn dashed with square points"
    described += ". A filled point means user-backed evidence for the fact is in the window; a hollow point means it is not."
    return line_chart(
        "Window tokens at each arrival",
        described,
        x_label="Arrival (seconds)",
        y_label="Teaching tokens",
        series=series,
        rules=rules,
        x_ticks=[(turn.arrives_at, turn.id) for turn in compression.lesson().turns],
        now=arrival.time if arrival.turn else None,
    )


def body(run: Replay, arrival: Arrival, state: dict[str, Any], baseline: Replay | None) -> Markup:
    fact = compression.lesson().fact
    rows = [_row(entry, fact) for entry in arrival.window.entries]
    left = gone(run, arrival)
    return join(
        [
            meter("Window tokens", arrival.tokens, run.budget),
            findings(
                [
                    ("Fact mentioned", _yes_no(arrival.fact_mentioned)),
                    ("User-backed evidence", ", ".join(arrival.window.sources) or "none"),
                    ("Answer", arrival.answer),
                    ("Overflow operations", ", ".join(map(str, arrival.operations)) or "none"),
                ]
            ),
            chart(run, arrival, baseline),
            h("h3", {"class": "lk-heading"}, "Retained messages"),
            h("ol", {"class": "lk-rows"}, rows) if rows else h("p", {"class": "lk-empty"}, "The window is empty."),
            h("h3", {"class": "lk-heading"}, "Gone from the window"),
            h(
                "ul",
                {"class": "lk-gone-list"},
                [h("li", {"class": "lk-gone", "data-gone": turn}, h("del", {}, turn), f" {how} at {when:g} s") for turn, how, when in left],
            )
            if left
            else h("p", {"class": "lk-empty"}, "Nothing has left the window yet."),
            h(
                "details",
                {"class": "lk-state"},
                h("summary", {}, "Exact state JSON of this arrival"),
                # Focusable, so a keyboard can scroll it: it is taller than its box.
                h("pre", {"tabindex": 0}, h("code", {}, json.dumps(state, indent=2))),
            ),
        ]
    )


def _replay(params: Params) -> Replay:
    return compression.replay(params["budget"], params["policy"], params["fidelity"])


def draw(params: Params, baseline: Params | None) -> View:
    run = _replay(params)
    arrival = run.at(params["time"])
    state = arrival_state(run, arrival)
    sources = ", ".join(arrival.window.sources) or "none"
    return View(
        status=status(run, arrival),
        html=body(run, arrival, state, _replay(baseline) if baseline else None),
        baseline=f"{arrival.tokens} of {run.budget} tokens; user-backed evidence: {sources}; answer: {arrival.answer}",
        state=state,
        export={
            "lesson": LESSON,
            "model": "teaching tokens are fixed weights from the fixture, not tokenizer output",
            "settings": {"budget": run.budget, "policy": run.policy, "fidelity": run.fidelity},
            "turns": [turn_record(turn) for turn in compression.lesson().turns],
            "arrivals": [arrival_state(run, each) for each in run.arrivals],
            # Kept apart from the arrivals: where the reader was looking is not part of the run.
            "inspection": {"time_s": params["time"], "arrival": arrival.index},
        },
    )


def entry_text(entry: Turn | Summary, fact: compression.Fact) -> str:
    """An entry as the model reads it: a turn's own text, or what the summary says of the turns it folded."""
    return entry.text(fact) if isinstance(entry, Summary) else entry.text


def reads(params: Params) -> Reading:
    """What the model reads at the arrival the timeline shows: every entry of its window, in order,
    weighed as the status weighs the window."""
    run = _replay(params)
    arrival = run.at(params["time"])
    entries = arrival.window.entries
    fact = compression.lesson().fact
    if arrival.turn is None:
        what = "the empty window before any message has arrived"
    else:
        where = f"of the window after {arrival.turn.id} at {arrival.time:g} s"
        what = f"the one entry {where}" if len(entries) == 1 else f"the {len(entries)} entries {where}"
    return Reading(what=what, texts=tuple(entry_text(entry, fact) for entry in entries), teaching=arrival.tokens)


def _panel() -> Panel:
    fixture = compression.lesson()
    return Panel(
        lesson=LESSON,
        title="Context compression",
        controls=(
            Choice("budget", "Context budget", tuple(Option(b, str(b)) for b in fixture.budgets), fixture.budgets[0]),
            Choice("policy", "Policy", tuple(Option(k, v) for k, v in compression.POLICIES.items()), "evict"),
            Choice("fidelity", "Fidelity", tuple(Option(k, v) for k, v in compression.FIDELITIES.items()), "preserve"),
        ),
        timeline=Timeline(
            end=fixture.duration,
            step=0.5,
            marks=tuple(Mark(t.arrives_at, f"{t.id} arrived", t.id) for t in fixture.turns),
            start="no message yet",
        ),
        playback=Playback(
            play="Play messages",
            pause="Pause messages",
            stepping_hint=(
                "Reduced motion is on, so nothing plays by itself: Play messages and Resume step to the next arrival and stay paused."
            ),
        ),
        draw=draw,
        reads=reads,
        words=Words(export="Export fixture JSON", export_file="context-compression-fixture.json"),
        stylesheet="lessons/context-compression.css",
        former_ids=("compression",),
    )


PANEL = _panel()
