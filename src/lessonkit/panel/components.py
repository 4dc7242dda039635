"""View components any lesson can use: a meter, a findings list and a record table.

They are plain functions returning Markup, so a lesson's view composes them without writing
HTML by hand; the shell's stylesheet gives them one look across the course.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lessonkit.panel.html import Markup, h


def meter(label: str, value: float, maximum: float, *, unit: str = "") -> Markup:
    """A <meter> with its label and the value written out, so it reads without the bar."""
    written = f"{value:g} of {maximum:g}" + (f" {unit}" if unit else "")
    return h(
        "p",
        {"class": "lk-meter"},
        h("label", {}, label, " ", h("meter", {"min": 0, "max": maximum, "value": value}, written)),
        " ",
        h("span", {"class": "lk-meter-value"}, written),
    )


def findings(items: Sequence[tuple[str, Any]]) -> Markup:
    """Named findings as a description list: ("Answer", "unknown"), ("Fact mentioned", "yes")."""
    return h("dl", {"class": "lk-findings"}, [(h("dt", {}, name), h("dd", {}, value)) for name, value in items])


@dataclass(frozen=True)
class Column:
    """A table column: its heading, and how a record fills its cell (text or Markup)."""

    heading: str
    cell: Callable[[Any], Any]
    numeric: bool = False


def record_table(
    caption: str,
    columns: Sequence[Column],
    records: Sequence[Any],
    *,
    row_attributes: Callable[[Any], Mapping[str, Any]] = lambda record: {},
    empty: str = "No records.",
) -> Markup:
    """A captioned table in a keyboard-scrollable region, one row per record."""
    head = h("thead", {}, h("tr", {}, [h("th", {"scope": "col", "class": "lk-num" if c.numeric else None}, c.heading) for c in columns]))
    rows = [
        h("tr", dict(row_attributes(record)), [h("td", {"class": "lk-num" if c.numeric else None}, c.cell(record)) for c in columns])
        for record in records
    ]
    if not rows:
        rows = [h("tr", {}, h("td", {"colspan": len(columns), "class": "lk-empty"}, empty))]
    return h(
        "div",
        # A focusable region, so a keyboard reader can scroll a wide table sideways.
        {"class": "lk-table-scroll", "role": "region", "aria-label": caption, "tabindex": 0},
        h("table", {"class": "lk-table"}, h("caption", {}, caption), head, h("tbody", {}, rows)),
    )
