"""The "For authors" page's panel: every control kind and view component, working on one small case.

A window of a fixed budget receives six equal turns, one a second, and evicts the oldest turn when
the next one does not fit beside the room reserved for a summary. It is a demonstration of the
platform, declared exactly as a lesson's panel is, not a lesson: the numbers are invented.
"""

from __future__ import annotations

from collections.abc import Iterator

from lessonkit.panel import Choice, Mark, Number, Option, Panel, Params, Playback, Range, Text, Timeline, Toggle, View
from lessonkit.panel.chart import Bar, Rule, Series, bar_chart, line_chart
from lessonkit.panel.components import Column, findings, meter, record_table
from lessonkit.panel.html import join

LESSON = "control-kinds"
TURNS = 6
SIZES = {4: "Small turns (4 tokens)", 8: "Medium turns (8 tokens)", 12: "Large turns (12 tokens)"}


def window_after(arrived: int, size: int, capacity: int) -> list[int]:
    """The turns (1-based) still in the window once `arrived` turns came: the newest that fit."""
    keep = max(0, capacity // size)
    return list(range(max(1, arrived - keep + 1), arrived + 1)) if keep else []


def draw(params: Params, baseline: Params | None) -> View:
    size, budget = params["turn_size"], params["budget"]
    reserve = params["summary_tokens"] if params["reserve"] else 0
    arrived = int(params["time"])
    refusal = None
    if reserve >= budget:
        refusal = f"A summary reserve of {reserve} tokens leaves no room for turns in a budget of {budget}."
    capacity = max(0, budget - reserve)
    kept = window_after(arrived, size, capacity)
    used = len(kept) * size
    status = f"After {arrived} of {TURNS} turns: {len(kept)} kept, {used + reserve} of {budget} tokens ({reserve} reserved)."
    per_turn = [(t, len(window_after(t, size, capacity)) * size + reserve) for t in range(1, TURNS + 1)]
    html = join(
        [
            meter("Window tokens", used + reserve, budget),
            findings([("Turns kept", ", ".join(map(str, kept)) or "none"), ("Reserved for a summary", f"{reserve} tokens")]),
            record_table(
                "Turns so far",
                [
                    Column("Turn", lambda t: t, numeric=True),
                    Column("Tokens", lambda t: size, numeric=True),
                    Column("In the window", lambda t: "yes" if t in kept else "evicted"),
                ],
                list(range(1, arrived + 1)),
                row_attributes=lambda t: {"data-id": f"turn-{t}"},
                empty="No turn has arrived yet.",
            ),
            line_chart(
                "Window tokens after each turn",
                f"Tokens in use after each of the {TURNS} turns, against the budget of {budget}.",
                x_label="Turn",
                y_label="Tokens",
                series=[Series("Now", tuple(per_turn))],
                rules=[Rule(budget, f"Budget {budget}")],
                x_ticks=[(t, str(t)) for t in range(1, TURNS + 1)],
                now=arrived or None,
            ),
            bar_chart(
                "How the budget is spent",
                f"Of {budget} tokens: turns, the summary reserve, and what is free.",
                x_label="Use",
                y_label="Tokens",
                bars=[Bar("Turns", used), Bar("Reserve", reserve, 1), Bar("Free", max(0, budget - used - reserve), 2)],
            ),
        ]
    )
    return View(
        status=status,
        html=html,
        baseline=f"{len(kept)} turns kept in {used + reserve} of {budget} tokens",
        state={"kept": kept, "tokens": used + reserve, "budget": budget, "reserve": reserve},
        export={"lesson": LESSON, "settings": dict(params), "per_turn_tokens": per_turn},
        refusal=refusal,
    )


PANEL = Panel(
    lesson=LESSON,
    title="Every kind of control",
    controls=(
        Choice("turn_size", "Turn size", tuple(Option(k, v) for k, v in SIZES.items()), 8),
        Range("budget", "Window budget", minimum=16, maximum=96, step=8, default=48, unit="tokens"),
        Toggle("reserve", "Reserve room for a summary", enables=("summary_tokens",)),
        Number("summary_tokens", "Summary tokens", minimum=0, maximum=96, default=6, unit="tokens"),
        Text("prediction", "Prediction", hint="Before you press Play: how many turns will the window keep at the end?"),
    ),
    timeline=Timeline(
        end=TURNS, step=1, marks=tuple(Mark(t, f"Turn {t} of {TURNS} arrived", str(t)) for t in range(1, TURNS + 1)), start="no turn yet"
    ),
    playback=Playback(
        next="Next turn",
        play_on_change=False,
        stepping_hint="Reduced motion is on, so nothing plays by itself: Play and Resume step to the next turn.",
    ),
    draw=draw,
)


def settings_fullest_first() -> Iterator[Params]:
    """Every setting of the demonstration's turn size, budget and reserve, at each moment from the
    last turn back to none: the views with the most on them come first. The engine's worker
    rehearses on them (lessonkit.runtime.rehearse)."""
    start = PANEL.defaults()
    budget = PANEL.parameters["budget"]
    budgets = range(int(budget.minimum), int(budget.maximum) + 1, int(budget.step))
    for arrived in range(TURNS, -1, -1):
        for reserve in (False, True):
            for tokens in budgets:
                for size in SIZES:
                    yield {**start, "turn_size": size, "budget": tokens, "reserve": reserve, "time": arrived}
