"""Views the build computes ahead of time, so a reader's first change never waits for Python.

The build runs the same engine the page runs over the settings a reader can reach first, and ships
their views gzip-compressed beside the shell, one table per panel. The page answers from them at
once while Pyodide starts, and says so; a test compares every shipped view with the live engine.
Anything not in the table goes to the worker.

- A panel whose settings are a finite set (choices, toggles and timeline marks) gets every view.
- Any other panel gets its **neighbourhood**: every setting one change of a control away from the
  one it starts at (`neighbourhood`), and its starting setting at each mark of its timeline.
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lessonkit.panel import Choice, Number, Panel, Range, Toggle
from lessonkit.panel.controls import Control

# A number or a range with at most this many values on its grid has every one of them in the
# neighbourhood: a slider can land on any, and a typed field's values ("24" hours, "336") are the
# reader's to pick. One with more (a token threshold up to a hundred thousand) gets the values a
# reader reaches in one go instead (`typed_values`); any other value waits for Python.
EVERY_VALUE_UP_TO = 1_000


def precomputed_params(panel: Panel) -> list[dict[str, Any]]:
    """The settings whose views the build ships for `panel`: all of them, or its neighbourhood."""
    return list(panel.every_params()) if panel.finite else list(neighbourhood(panel))


def neighbourhood(panel: Panel) -> Iterator[dict[str, Any]]:
    """Every setting a reader's first change can ask for, in order, without the starting setting
    itself (the page holds its view already):

    - the starting setting at each other mark of the timeline (a reader scrubbing first);
    - for each control the reader can change at the start (not one its toggle disables): each
      other option of a choice, a toggle flipped, each other value of a number or range
      (`quantity_values`), with the timeline at its start, where a change rewinds it;
    - for a panel that plays on change, each choice and toggle change at every mark too: its
      first change plays through them. A number's or a range's values are not, as they would
      be that many times more views.

    Text fields are not parameters: they never change a view.
    """
    start = panel.defaults()
    timeline = panel.timeline
    marks = [at for at in moments(panel) if at != 0]
    if timeline:
        for at in marks:
            yield {**start, timeline.name: at}
    plays = bool(panel.playback and panel.playback.play_on_change)
    for name, control in panel.parameters.items():
        if control is timeline or not enabled(panel, name, start):
            continue
        for value in one_change(control, start[name]):
            changed = {**start, name: value}
            yield changed
            if timeline and plays and isinstance(control, (Choice, Toggle)):
                for at in marks:
                    yield {**changed, timeline.name: at}


def moments(panel: Panel) -> list[float]:
    """The moments whose views differ: the start and each mark (the shell asks for the latest mark)."""
    if panel.timeline is None:
        return [0]
    return [0, *(mark.at for mark in panel.timeline.marks if mark.at != 0)]


def enabled(panel: Panel, name: str, params: dict[str, Any]) -> bool:
    """Whether the control `name` can be changed at `params`: no toggle that enables it is off."""
    return all(params[control.name] for control in panel.controls if isinstance(control, Toggle) and name in control.enables)


def one_change(control: Control, current: Any) -> list[Any]:
    """Every value one change of `control` gives, from `current`, as the control sends it."""
    if isinstance(control, Choice):
        return [option.value for option in control.options if option.value != current]
    if isinstance(control, Toggle):
        return [not current]
    if isinstance(control, (Number, Range)):
        return [value for value in quantity_values(control) if value != current]
    return []


def quantity_values(control: Number | Range) -> list[float]:
    """The values of a number or a range in the neighbourhood: every one on its grid, unless it has
    more than EVERY_VALUE_UP_TO; then `typed_values`."""
    count = math.floor((control.maximum - control.minimum) / control.step + 1e-9) + 1
    if count > EVERY_VALUE_UP_TO:
        return typed_values(control)
    return [control.check(control.minimum + index * control.step) for index in range(count)]


def typed_values(control: Number | Range) -> list[float]:
    """The values a reader reaches in one go on a number or range with too many to compute: its
    ends, a step either side of its default (an arrow key, the field's spinner), and the round
    numbers a reader types, one significant digit (0, 1 to 9, 10 to 90, … 1000 to 9000, …), each
    as the control sends it and only where it is allowed."""
    largest = max(abs(control.minimum), abs(control.maximum))
    lowest = math.floor(math.log10(control.step))
    highest = math.floor(math.log10(largest)) if largest > 0 else lowest
    candidates = [control.minimum, control.maximum, control.default - control.step, control.default + control.step, 0]
    for exponent in range(lowest, highest + 1):
        for digit in range(1, 10):
            round_number = float(f"{digit}e{exponent}")
            candidates += [round_number, -round_number]
    found = set()
    for candidate in candidates:
        try:
            found.add(control.check(candidate))
        except ValueError:
            continue  # out of range or off the grid: not a value the control sends
    return sorted(found)


def views_of(panel: Panel) -> list[list[Any]]:
    """The panel's precomputed views, as [params, view] pairs with no baseline; without their
    exports, which were half the table and which Python computes when a reader exports."""
    return [[params, panel.view(params).to_json(export=False)] for params in precomputed_params(panel)]


def write_views(panel: Panel, assets: Path) -> Path:
    """Write the panel's views where its spec says; mtime 0, so the same commit gives the same bytes.

    Each view is stored as its own JSON text, [params, text]: the page reads the table while it is
    still starting, and strings read many times faster than views' worth of objects; the shell
    reads a view's text only when a reader asks for it (engine.js). A view the same as an earlier
    one (many settings look alike before the timeline has moved) is stored once: [params, index],
    the index of the earlier entry whose text it shares."""
    target = assets / "lessonkit" / panel.precomputed
    target.parent.mkdir(parents=True, exist_ok=True)
    first: dict[str, int] = {}
    rows: list[list[Any]] = []
    for index, (params, view) in enumerate(views_of(panel)):
        text = _compact(view)
        rows.append([params, first[text]] if text in first else [params, text])
        first.setdefault(text, index)
    body = _compact({"lesson": panel.lesson, "views": rows})
    target.write_bytes(gzip.compress(body.encode("utf-8"), compresslevel=9, mtime=0))
    return target


def read_views(path: Path) -> dict:
    """A shipped table with its views read back from their text: {"lesson", "views": [[params, view], ...]}."""
    table = json.loads(gzip.decompress(path.read_bytes()))
    rows = table["views"]
    texts = [text if isinstance(text, str) else rows[text][1] for _, text in rows]
    return {**table, "views": [[params, json.loads(text)] for (params, _), text in zip(rows, texts, strict=True)]}


def _compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
