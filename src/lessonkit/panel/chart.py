"""SVG charts for views: lines over time and bars, readable without colour and in both schemes.

Every chart has a title and a text description (the SVG's accessible name and description), axis
labels, and its numbers in a table under a disclosure. Series differ in dash pattern and point
shape as well as colour, and carry their name at the end of the line; colours come from the
stylesheet (currentColor and CSS variables), so the light and dark schemes both apply.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from lessonkit.panel.html import Markup, h, join

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 132, 20, 52
DASHES = (None, "8 5", "2 4", "12 4 2 4")


@dataclass(frozen=True)
class Series:
    """A named line of (x, y) points. `style` picks dash, point shape and colour together."""

    name: str
    points: tuple[tuple[float, float], ...]
    style: int = 0
    # x values whose point is drawn hollow: a second, colour-free distinction (e.g. "no evidence here").
    hollow: frozenset[float] = frozenset()


@dataclass(frozen=True)
class Rule:
    """A horizontal reference line, such as a budget or a threshold."""

    value: float
    label: str


@dataclass(frozen=True)
class Marker:
    """A vertical mark at one x, such as the moment a compaction fired."""

    at: float
    label: str


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    style: int = 0


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "chart"


def nice_ceiling(value: float) -> float:
    """The smallest 1, 2, 2.5 or 5 times a power of ten at or above `value`: a readable axis top.

    Args:
        value: The largest value the axis must show.

    Examples:
        >>> from lessonkit.panel.chart import nice_ceiling
        >>> nice_ceiling(23), nice_ceiling(180), nice_ceiling(0)
        (25.0, 200, 1)
    """
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 2.5, 5, 10) if step * power >= value - 1e-9)


def _point(shape: int, x: float, y: float, hollow: bool) -> Markup:
    shape %= 3
    attributes = {"class": "lk-point-hollow" if hollow else "lk-point"}
    if shape == 0:
        return h("circle", {**attributes, "cx": x, "cy": y, "r": 4.5})
    if shape == 1:
        return h("rect", {**attributes, "x": x - 4, "y": y - 4, "width": 8, "height": 8})
    return h("polygon", {**attributes, "points": f"{x:.6g},{y - 5.5:.6g} {x + 5.5:.6g},{y + 4.5:.6g} {x - 5.5:.6g},{y + 4.5:.6g}"})


class _Frame:
    """Scales from data to the SVG's coordinates, and the axes with their labels."""

    def __init__(self, x_range: tuple[float, float], y_max: float) -> None:
        self.x0, self.x1 = x_range
        self.y_max = y_max

    def x(self, value: float) -> float:
        span = (self.x1 - self.x0) or 1
        return round(LEFT + (value - self.x0) / span * (WIDTH - LEFT - RIGHT), 2)

    def y(self, value: float) -> float:
        return round(HEIGHT - BOTTOM - value / self.y_max * (HEIGHT - TOP - BOTTOM), 2)

    def axes(self, x_label: str, y_label: str, x_ticks: Sequence[tuple[float, str]]) -> Markup:
        bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
        y_ticks = [self.y_max * i / 4 for i in range(5)]
        return h(
            "g",
            {"class": "lk-axes"},
            h("line", {"x1": LEFT, "y1": bottom, "x2": right, "y2": bottom}),
            h("line", {"x1": LEFT, "y1": TOP, "x2": LEFT, "y2": bottom}),
            [
                (
                    h("line", {"class": "lk-grid", "x1": LEFT, "y1": self.y(t), "x2": right, "y2": self.y(t)}),
                    h("text", {"x": LEFT - 6, "y": self.y(t) + 4, "text-anchor": "end"}, f"{t:g}"),
                )
                for t in y_ticks
            ],
            [h("text", {"x": self.x(at), "y": bottom + 16, "text-anchor": "middle"}, label) for at, label in x_ticks],
            h("text", {"class": "lk-axis-label", "x": (LEFT + right) / 2, "y": HEIGHT - 8, "text-anchor": "middle"}, x_label),
            h(
                "text",
                {
                    "class": "lk-axis-label",
                    "x": 14,
                    "y": (TOP + bottom) / 2,
                    "text-anchor": "middle",
                    "transform": f"rotate(-90 14 {(TOP + bottom) / 2:g})",
                },
                y_label,
            ),
        )


def _figure(title: str, description: str, body: Sequence[Markup], table: Markup, *, wide: bool) -> Markup:
    slug = _slug(title)
    svg = h(
        "svg",
        {
            "viewBox": f"0 0 {WIDTH} {HEIGHT}",
            "role": "img",
            "aria-labelledby": f"lk-{slug}-title",
            "aria-describedby": f"lk-{slug}-desc",
            "class": "lk-chart-svg",
            "xmlns": "http://www.w3.org/2000/svg",
        },
        h("title", {"id": f"lk-{slug}-title"}, title),
        h("desc", {"id": f"lk-{slug}-desc"}, description),
        body,
    )
    return h(
        "figure",
        {"class": ["lk-chart", "lk-chart-wide" if wide else ""]},
        # A wide chart scrolls sideways on a phone rather than shrinking its labels out of reach.
        h(
            "div",
            {
                "class": "lk-chart-scroll",
                "tabindex": 0 if wide else None,
                "role": "region" if wide else None,
                "aria-label": title if wide else None,
            },
            svg,
        ),
        h("figcaption", {}, title, ". ", description),
        h("details", {"class": "lk-chart-data"}, h("summary", {}, f"Numbers behind “{title}”"), table),
    )


def line_chart(
    title: str,
    description: str,
    *,
    x_label: str,
    y_label: str,
    series: Sequence[Series],
    x_ticks: Sequence[tuple[float, str]],
    rules: Sequence[Rule] = (),
    markers: Sequence[Marker] = (),
    now: float | None = None,
    wide: bool = False,
) -> Markup:
    """Lines over x (time, requests), with reference rules, vertical markers and the current moment.

    The SVG is named by `title` and described by `description`, and the numbers behind it follow
    in a table, so the chart reads without sight.

    Args:
        title: The chart's title and accessible name.
        description: What it shows, in a sentence; its accessible description.
        x_label: The x axis's label.
        y_label: The y axis's label.
        series: The lines, each a name and its points.
        x_ticks: Where the x axis is labelled, and with what.
        rules: Horizontal reference lines, such as a budget.
        markers: Vertical marks, such as the moment a summary was written.
        now: The current moment on x, drawn as a line, if given.
        wide: Whether the chart scrolls sideways on a narrow screen instead of shrinking.

    Examples:
        >>> from lessonkit.panel.chart import Series, line_chart
        >>> chart = line_chart("Tokens", "Tokens per turn.", x_label="Turn", y_label="Tokens",
        ...                    series=[Series("Now", ((1, 8), (2, 15)))], x_ticks=[(1, "1"), (2, "2")])
        >>> '<title id="lk-tokens-title">Tokens</title>' in chart
        True
    """
    frame, before_now, lines, table = _line_chart_parts(x_label, y_label, tuple(series), tuple(x_ticks), tuple(rules), tuple(markers))
    now_line = None
    if now is not None:
        now_line = h("line", {"class": "lk-now", "x1": frame.x(now), "y1": TOP, "x2": frame.x(now), "y2": HEIGHT - BOTTOM})
    return _figure(title, description, [before_now, now_line, lines], table, wide=wide)


# A lesson's timeline moves only the chart's "now" line: everything else is drawn once per chart
# and kept (a few charts' worth), which is most of the work of a view whose chart has many points.
@lru_cache(maxsize=32)
def _line_chart_parts(
    x_label: str,
    y_label: str,
    series: tuple[Series, ...],
    x_ticks: tuple[tuple[float, str], ...],
    rules: tuple[Rule, ...],
    markers: tuple[Marker, ...],
) -> tuple[_Frame, Markup, Markup, Markup]:
    """The chart's frame; what is drawn under the "now" line (axes, rules, markers); its lines; its table."""
    xs = [x for s in series for x, _ in s.points] + [at for at, _ in x_ticks] + [m.at for m in markers]
    top = max([y for s in series for _, y in s.points] + [r.value for r in rules] + [0])
    frame = _Frame((min(xs, default=0), max(xs, default=1)), nice_ceiling(top * 1.05))
    lines = []
    for s in series:
        coordinates = [(frame.x(x), frame.y(y)) for x, y in s.points]
        if not coordinates:
            continue
        hollow = [x in s.hollow for x, _ in s.points]
        path = " ".join(f"{x:g},{y:g}" for x, y in coordinates)
        end_x, end_y = coordinates[-1]
        lines.append(
            h(
                "g",
                {"class": ["lk-series", f"lk-series-{s.style % len(DASHES)}"]},
                h("polyline", {"points": path, "fill": "none", "stroke-dasharray": DASHES[s.style % len(DASHES)]}),
                [_point(s.style, x, y, open_) for (x, y), open_ in zip(coordinates, hollow, strict=True)],
                h("text", {"x": end_x + 8, "y": end_y + 4 + 13 * (s.style % 3)}, s.name),
            )
        )
    before_now = [
        frame.axes(x_label, y_label, x_ticks),
        [
            h(
                "g",
                {"class": "lk-rule"},
                h("line", {"x1": LEFT, "y1": frame.y(r.value), "x2": WIDTH - RIGHT, "y2": frame.y(r.value), "stroke-dasharray": "4 3"}),
                h("text", {"x": WIDTH - RIGHT + 8, "y": frame.y(r.value) - 4}, r.label),
            )
            for r in rules
        ],
        [
            h(
                "g",
                {"class": "lk-marker"},
                h("line", {"x1": frame.x(m.at), "y1": TOP, "x2": frame.x(m.at), "y2": HEIGHT - BOTTOM}),
                h("text", {"x": frame.x(m.at) + 3, "y": TOP + 10}, m.label),
            )
            for m in markers
        ],
    ]
    table = _series_table(x_label, series, rules, dict(x_ticks))
    return frame, join(before_now), join(lines), table


def _series_table(x_label: str, series: Sequence[Series], rules: Sequence[Rule], ticks: dict[float, str]) -> Markup:
    xs = sorted({x for s in series for x, _ in s.points})
    values = [{x: y for x, y in s.points} for s in series]
    head = h(
        "tr",
        {},
        h("th", {"scope": "col"}, x_label),
        [h("th", {"scope": "col"}, s.name) for s in series],
        [h("th", {"scope": "col"}, r.label) for r in rules],
    )
    rows = [
        h(
            "tr",
            {},
            h("th", {"scope": "row"}, f"{ticks[x]} ({x:g})" if ticks.get(x, f"{x:g}") != f"{x:g}" else f"{x:g}"),
            [h("td", {}, f"{v[x]:g}" if x in v else "–") for v in values],
            [h("td", {}, f"{r.value:g}") for r in rules],
        )
        for x in xs
    ]
    return h("table", {"class": "lk-table"}, h("thead", {}, head), h("tbody", {}, rows))


def bar_chart(title: str, description: str, *, x_label: str, y_label: str, bars: Sequence[Bar], rules: Sequence[Rule] = ()) -> Markup:
    """One bar per labelled value, with optional reference rules.

    Args:
        title: The chart's title and accessible name.
        description: What it shows, in a sentence; its accessible description.
        x_label: The x axis's label.
        y_label: The y axis's label.
        bars: The bars, each a label and a value.
        rules: Horizontal reference lines.

    Examples:
        >>> from lessonkit.panel.chart import Bar, bar_chart
        >>> chart = bar_chart("Budget", "How it is spent.", x_label="Use", y_label="Tokens", bars=[Bar("Turns", 16)])
        >>> '<desc id="lk-budget-desc">How it is spent.</desc>' in chart
        True
    """
    frame = _Frame((0, max(len(bars), 1)), nice_ceiling(max([b.value for b in bars] + [r.value for r in rules] + [0]) * 1.05))
    slot = (WIDTH - LEFT - RIGHT) / max(len(bars), 1)
    body = [
        frame.axes(x_label, y_label, [(i + 0.5, b.label) for i, b in enumerate(bars)]),
        [
            h(
                "g",
                {"class": ["lk-series", f"lk-series-{b.style % len(DASHES)}", f"lk-bar-pattern-{b.style % len(DASHES)}"]},
                h(
                    "rect",
                    {
                        "x": LEFT + i * slot + slot * 0.15,
                        "y": frame.y(b.value),
                        "width": slot * 0.7,
                        "height": round(frame.y(0) - frame.y(b.value), 2),
                    },
                ),
                h("text", {"x": LEFT + (i + 0.5) * slot, "y": frame.y(b.value) - 4, "text-anchor": "middle"}, f"{b.value:g}"),
            )
            for i, b in enumerate(bars)
        ],
        [
            h(
                "g",
                {"class": "lk-rule"},
                h("line", {"x1": LEFT, "y1": frame.y(r.value), "x2": WIDTH - RIGHT, "y2": frame.y(r.value), "stroke-dasharray": "4 3"}),
                h("text", {"x": WIDTH - RIGHT + 8, "y": frame.y(r.value) + 4}, r.label),
            )
            for r in rules
        ],
    ]
    table = h(
        "table",
        {"class": "lk-table"},
        h("thead", {}, h("tr", {}, h("th", {"scope": "col"}, x_label), h("th", {"scope": "col"}, y_label))),
        h("tbody", {}, [h("tr", {}, h("th", {"scope": "row"}, b.label), h("td", {}, f"{b.value:g}")) for b in bars]),
    )
    return _figure(title, description, body, table, wide=False)
