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
    """A <meter> with its label and the value written out, so it reads without the bar.

    Args:
        label: The meter's accessible name.
        value: The current value.
        maximum: The full scale.
        unit: Written after the numbers, if given.

    Examples:
        >>> from lessonkit.panel.components import meter
        >>> print(meter("Window tokens", 23, 24, unit="tokens").replace("</label> ", "</label>\\n"))
        <p class="lk-meter"><label>Window tokens <meter min="0" max="24" value="23">23 of 24 tokens</meter></label>
        <span class="lk-meter-value">23 of 24 tokens</span></p>
    """
    written = f"{value:g} of {maximum:g}" + (f" {unit}" if unit else "")
    return h(
        "p",
        {"class": "lk-meter"},
        h("label", {}, label, " ", h("meter", {"min": 0, "max": maximum, "value": value}, written)),
        " ",
        h("span", {"class": "lk-meter-value"}, written),
    )


def findings(items: Sequence[tuple[str, Any]]) -> Markup:
    """Named findings as a description list: ("Answer", "unknown"), ("Fact mentioned", "yes").

    Args:
        items: Each finding's name and value; values are escaped unless they are Markup.

    Examples:
        >>> from lessonkit.panel.components import findings
        >>> print(findings([("Answer", "unknown")]))
        <dl class="lk-findings"><dt>Answer</dt><dd>unknown</dd></dl>
    """
    return h("dl", {"class": "lk-findings"}, [(h("dt", {}, name), h("dd", {}, value)) for name, value in items])


@dataclass(frozen=True)
class Column:
    """A table column: its heading, and how a record fills its cell (text or Markup)."""

    heading: str
    cell: Callable[[Any], Any]
    numeric: bool = False


def record_row(columns: Sequence[Column], record: Any, attributes: Mapping[str, Any] | None = None) -> Markup:
    """One record's row of a `record_table`: a cell per column, read from the record.

    Args:
        columns: Each column's heading and how to read its cell from a record.
        record: The row's record.
        attributes: The row's attributes, such as ``{"data-id": "T2"}``.

    Examples:
        >>> from lessonkit.panel.components import Column, record_row
        >>> print(record_row([Column("Turn", str), Column("Tokens", len, numeric=True)], "T12", {"data-id": "T12"}))
        <tr data-id="T12"><td>T12</td><td class="lk-num">3</td></tr>
    """
    return h("tr", dict(attributes or {}), [h("td", {"class": "lk-num" if c.numeric else None}, c.cell(record)) for c in columns])


def record_table(
    caption: str,
    columns: Sequence[Column],
    records: Sequence[Any],
    *,
    row_attributes: Callable[[Any], Mapping[str, Any]] = lambda record: {},
    row: Callable[[Any], Markup] | None = None,
    empty: str = "No records.",
) -> Markup:
    """A captioned table in a keyboard-scrollable region, one row per record.

    Args:
        caption: The table's caption, also the region's accessible name.
        columns: Each column's heading and how to read its cell from a record.
        records: The rows' records.
        row_attributes: Attributes for a record's row, such as ``{"data-id": "T2"}``.
        row: Draws a record's whole row instead (with `record_row`), for a panel that keeps the
            rows it has drawn: then `row_attributes` is not used.
        empty: What the table says when there is no record.

    Examples:
        >>> from lessonkit.panel.components import Column, record_table
        >>> table = record_table("Turns", [Column("Turn", lambda turn: turn)], ["T1"])
        >>> print(table.replace("<thead>", "\\n<thead>").replace("<tbody>", "\\n<tbody>"))
        <div class="lk-table-scroll" role="region" aria-label="Turns" tabindex="0"><table class="lk-table"><caption>Turns</caption>
        <thead><tr><th scope="col">Turn</th></tr></thead>
        <tbody><tr><td>T1</td></tr></tbody></table></div>
    """
    head = h("thead", {}, h("tr", {}, [h("th", {"scope": "col", "class": "lk-num" if c.numeric else None}, c.heading) for c in columns]))
    draw = row or (lambda record: record_row(columns, record, row_attributes(record)))
    rows = [draw(record) for record in records]
    if not rows:
        rows = [h("tr", {}, h("td", {"colspan": len(columns), "class": "lk-empty"}, empty))]
    return h(
        "div",
        # A focusable region, so a keyboard reader can scroll a wide table sideways.
        {"class": "lk-table-scroll", "role": "region", "aria-label": caption, "tabindex": 0},
        h("table", {"class": "lk-table"}, h("caption", {}, caption), head, h("tbody", {}, rows)),
    )
