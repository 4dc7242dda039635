"""The declarative side of a lesson's live experiment.

A lesson describes its panel as data: the choices a reader can make, the timeline, the playback
wording, and a view function from parameters to what the page shows. The browser shell (generic
JavaScript in overrides/) builds native controls from this spec, so a new lesson needs no new
JavaScript; the build renders the same view into the page so it reads with JavaScript off.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

Params = Mapping[str, Any]


@dataclass(frozen=True)
class Option:
    value: Any
    label: str


@dataclass(frozen=True)
class Choice:
    """A native <select>; `label` is its accessible name, worded as the lesson words it."""

    name: str
    label: str
    options: tuple[Option, ...]
    default: Any


@dataclass(frozen=True)
class Timeline:
    """A range input in seconds. `marks` are the moments the view can change (arrivals)."""

    end: float
    step: float
    marks: tuple[float, ...]
    name: str = "time"
    label: str = "Timeline"


@dataclass(frozen=True)
class Playback:
    play: str = "Play"
    pause: str = "Pause"
    resume: str = "Resume"
    restart: str = "Restart"
    replay: str = "Replay"
    speed: str = "Speed"
    speeds: tuple[float, ...] = (0.5, 1, 2, 4, 8)
    default_speed: float = 1


@dataclass(frozen=True)
class View:
    """Everything the page shows for one set of parameters.

    `status` is the sentence for the role="status" region, `html` the body under it, `baseline`
    the short comparison text a reader can capture, `state` the exact state as data and `export`
    the whole computed run that "Export fixture JSON" downloads.
    """

    status: str
    html: str
    baseline: str
    state: Mapping[str, Any]
    export: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Panel:
    lesson: str
    title: str
    choices: tuple[Choice, ...]
    timeline: Timeline
    playback: Playback
    view: Callable[[Params], View] = field(compare=False)
    export_name: str = "fixture.json"

    def defaults(self) -> dict[str, Any]:
        params = {choice.name: choice.default for choice in self.choices}
        params[self.timeline.name] = 0
        return params

    def spec(self) -> dict[str, Any]:
        """The JSON the browser shell builds its controls from."""
        return {
            "lesson": self.lesson,
            "title": self.title,
            "choices": [asdict(choice) for choice in self.choices],
            "timeline": asdict(self.timeline),
            "playback": asdict(self.playback),
            "export_name": self.export_name,
            "defaults": self.defaults(),
        }


def render(panel: Panel, params: Params | None = None) -> str:
    """The panel as static HTML: its spec for the shell and the view the build computed."""
    view = panel.view(dict(params or panel.defaults()))
    spec = html.escape(json.dumps(panel.spec(), separators=(",", ":")), quote=True)
    initial = html.escape(json.dumps(view.to_json(), separators=(",", ":")), quote=True)
    return (
        f'<section class="lk-panel" data-lesson="{html.escape(panel.lesson)}" data-spec="{spec}" '
        f'data-initial-view="{initial}" aria-label="Experiment: {html.escape(panel.title)}">\n'
        '<div class="lk-controls"><p class="lk-static-note">This is the experiment\'s starting state, '
        "computed when the site was built. Its controls appear when JavaScript runs.</p></div>\n"
        '<div class="lk-engine" aria-live="polite"></div>\n'
        f'<p class="lk-status" role="status">{html.escape(view.status)}</p>\n'
        f'<div class="lk-view">{view.html}</div>\n'
        "</section>"
    )
