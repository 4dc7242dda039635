"""The panel platform: what every lesson's live experiment is made of.

- `controls`: the kinds of control (choice, toggle, number, range, text) and their checks;
- `timeline`: named marks and the playback's wording;
- `spec`: `Panel`, its one validation point, its spec for the shell, and `View`;
- `html`: a builder that escapes by construction; `components` and `chart`: shared view pieces;
- `render`: the static HTML the build writes, so a page reads with JavaScript off.
"""

from lessonkit.panel.controls import Choice, Number, Option, Range, Text, Toggle
from lessonkit.panel.render import render
from lessonkit.panel.spec import Panel, Params, View, Words
from lessonkit.panel.timeline import Mark, Playback, Speed, Timeline

__all__ = [
    "Choice",
    "Mark",
    "Number",
    "Option",
    "Panel",
    "Params",
    "Playback",
    "Range",
    "Speed",
    "Text",
    "Timeline",
    "Toggle",
    "View",
    "Words",
    "render",
]
