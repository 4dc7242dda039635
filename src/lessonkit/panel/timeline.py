"""Time in an experiment: a timeline with named marks, and the words of its playback controls.

The shell owns the clock; a view only ever sees the latest mark a moment falls on, so playing a
minute costs as many engine calls as there are marks, not one per frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from lessonkit import checks
from lessonkit.checks import json_spelling
from lessonkit.panel.controls import called


@dataclass(frozen=True)
class Mark:
    """A moment where the view changes. `name` is spoken and shown in the clock ("Stage 2 of 4:
    scope filters", "T4 arrives"); `tick` is the short label under the slider (defaults to name)."""

    at: float
    name: str
    tick: str = ""


@dataclass(frozen=True)
class Timeline:
    """A range input from 0 to `end` in `step`s, with named marks; `start` names the moment before
    the first mark (when no mark sits at 0).

    A timeline counts in its `unit`, seconds unless it says otherwise (compaction's counts model
    requests): the slider speaks it ("12 seconds, ..."; `unit_one` for exactly one), and the clock
    beside it shows `clock_unit` with `clock_decimals` places ("12.0 s / 40 s").
    """

    end: float
    step: float
    marks: tuple[Mark, ...]
    start: str = "the start"
    name: str = "time"
    label: str = "Timeline"
    unit: str = "seconds"
    unit_one: str = "second"
    clock_unit: str = "s"
    clock_decimals: int = 1

    @classmethod
    def over_model_requests(cls, marks: tuple[Mark, ...]) -> Timeline:
        """A timeline whose clock is an agent's model requests, one step a request, ending at the last mark.

        Args:
            marks: One mark per request, at 1, 2, 3 and so on.

        Examples:
            >>> from lessonkit.panel import Mark, Timeline
            >>> timeline = Timeline.over_model_requests((Mark(1, "Request 1"), Mark(2, "Request 2")))
            >>> timeline.end, timeline.allowed()
            (2, '0 to 2 model requests')
        """
        return cls(
            end=max(mark.at for mark in marks),
            step=1,
            marks=marks,
            start="before the first model request",
            # The session's clock is its model requests: one step is one request, not a second.
            unit="model requests",
            unit_one="model request",
            clock_unit="requests",
            clock_decimals=0,
        )

    def allowed(self) -> str:
        return checks.number_allowed(0, self.end, None, None, self.unit)

    def check(self, value: object) -> float:
        return checks.number(self.name, value, minimum=0, maximum=self.end, unit=self.unit, called=called(self.name), spell=json_spelling)

    def latest(self, time: float) -> Mark | None:
        """The latest mark at or before `time`: the one whose view the reader is looking at."""
        reached = [mark for mark in self.marks if mark.at <= time + 1e-9]
        return max(reached, key=lambda mark: mark.at) if reached else None


@dataclass(frozen=True)
class Speed:
    value: float
    label: str


@dataclass(frozen=True)
class Playback:
    """The wording of the playback controls and how the clock behaves when settings change.

    `next` labels a button that pauses at the next mark (None: no such button). With
    `play_on_change`, any change of a setting rewinds and plays again, except for readers who ask
    for reduced motion: for them nothing ever plays by itself, and `stepping_hint` tells them so.
    """

    play: str = "Play"
    pause: str = "Pause"
    resume: str = "Resume"
    restart: str = "Restart"
    replay: str = "Replay"
    next: str | None = None
    speed: str = "Speed"
    speeds: tuple[Speed, ...] = (Speed(0.5, "0.5×"), Speed(1, "1×"), Speed(2, "2×"), Speed(4, "4×"), Speed(8, "8×"))
    default_speed: float = 1
    play_on_change: bool = False
    stepping_hint: str = "Reduced motion is on, so nothing plays by itself: Play steps to the next mark and stays paused."

    @classmethod
    def by_model_request(cls) -> Playback:
        """Playback over a timeline of model requests, its buttons worded for them.

        Examples:
            >>> from lessonkit.panel import Playback
            >>> Playback.by_model_request().next
            'Next request'
        """
        return cls(
            play="Play requests",
            pause="Pause requests",
            next="Next request",
            stepping_hint="Reduced motion is on, so nothing plays by itself: Play requests and Resume step to the next request.",
        )
