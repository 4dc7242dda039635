"""The compression lesson's panel: its controls and how an arrival reads on the page."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from lessonkit import compression
from lessonkit.compression import Arrival, Replay, Summary, Turn
from lessonkit.panel import Choice, Option, Panel, Params, Playback, Timeline, View


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
        "operations": list(arrival.operations),
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


def _row(entry: Turn | Summary, fact: compression.Fact) -> str:
    text = entry.text(fact) if isinstance(entry, Summary) else entry.text
    classes = ["lk-row", f"lk-role-{entry.role}"]
    badges = []
    if entry.sources:
        classes.append("lk-evidence")
        badges.append(f'<span class="lk-badge lk-badge-evidence">user-backed · source {escape(", ".join(entry.sources))}</span>')
    elif entry.mentions_fact:
        badges.append('<span class="lk-badge lk-badge-mention">mentions the fact only</span>')
    if entry.pinned:
        badges.append('<span class="lk-badge">pinned</span>')
    return (
        f'<li class="{" ".join(classes)}" data-id="{escape(entry.id)}">'
        f'<span class="lk-id">{escape(entry.id)}</span> <span class="lk-role">{escape(entry.role)}</span> '
        f'<span class="lk-tokens">{entry.tokens} tokens</span> {" ".join(badges)}'
        f'<span class="lk-text">{escape(text)}</span></li>'
    )


def body(run: Replay, arrival: Arrival, state: dict[str, Any]) -> str:
    fact = compression.lesson().fact
    rows = "".join(_row(entry, fact) for entry in arrival.window.entries)
    operations = ", ".join(arrival.operations) or "none"
    return (
        f'<p class="lk-meter"><label>Window tokens <meter min="0" max="{run.budget}" '
        f'value="{arrival.tokens}">{arrival.tokens} of {run.budget}</meter></label> '
        f"{arrival.tokens} / {run.budget}</p>"
        f'<dl class="lk-findings"><dt>Fact mentioned</dt><dd>{_yes_no(arrival.fact_mentioned)}</dd>'
        f'<dt>User-backed evidence</dt><dd>{escape(", ".join(arrival.window.sources) or "none")}</dd>'
        f"<dt>Answer</dt><dd>{escape(arrival.answer)}</dd>"
        f"<dt>Overflow operations</dt><dd>{escape(operations)}</dd></dl>"
        f'<h4 class="lk-heading">Retained messages</h4>'
        + (f'<ol class="lk-rows">{rows}</ol>' if rows else '<p class="lk-empty">The window is empty.</p>')
        + '<details class="lk-state"><summary>Exact state JSON of this arrival</summary>'
        f"<pre><code>{escape(json.dumps(state, indent=2))}</code></pre></details>"
    )


def view(params: Params) -> View:
    unknown = set(params) - {"budget", "policy", "fidelity", "time"}
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: budget, policy, fidelity, time")
    run = compression.replay(params["budget"], params["policy"], params["fidelity"])
    arrival = run.at(params["time"])
    state = arrival_state(run, arrival)
    sources = ", ".join(arrival.window.sources) or "none"
    return View(
        status=status(run, arrival),
        html=body(run, arrival, state),
        baseline=f"{arrival.tokens} of {run.budget} tokens; user-backed evidence: {sources}; answer: {arrival.answer}",
        state=state,
        export={
            "lesson": "context-compression",
            "model": "teaching tokens are fixed weights from the fixture, not tokenizer output",
            "settings": {"budget": run.budget, "policy": run.policy, "fidelity": run.fidelity},
            "turns": [turn_record(turn) for turn in compression.lesson().turns],
            "arrivals": [arrival_state(run, each) for each in run.arrivals],
            # Kept apart from the arrivals: where the reader was looking is not part of the run.
            "inspection": {"time_s": params["time"], "arrival": arrival.index},
        },
    )


def _panel() -> Panel:
    fixture = compression.lesson()
    return Panel(
        lesson="compression",
        title="Context compression",
        choices=(
            Choice("budget", "Context budget", tuple(Option(b, str(b)) for b in fixture.budgets), fixture.budgets[0]),
            Choice("policy", "Policy", tuple(Option(k, v) for k, v in compression.POLICIES.items()), "evict"),
            Choice("fidelity", "Fidelity", tuple(Option(k, v) for k, v in compression.FIDELITIES.items()), "preserve"),
        ),
        timeline=Timeline(end=fixture.duration, step=0.5, marks=tuple(t.arrives_at for t in fixture.turns)),
        playback=Playback(play="Play messages", pause="Pause messages"),
        view=view,
        export_name="context-compression-fixture.json",
    )


PANEL = _panel()
