"""The built site as the benchmark sees it: its panel pages, their specs, and what a reader can set.

Everything is read from the built HTML (`site/**/index.html`): a page with a
`<section class="lk-panel" data-lesson=… data-spec=…>` is a panel page, pages under `lessons/` are
lessons and any other panel page (the authors' guide's demonstration) is labelled a demo. The order
is the site's own: the chain of "Next" links in the page footers, from the home page.

The engine's real answer for any settings is computed here, in this process, by the same panel the
page's worker runs: `panel(id).view(params).status`.
"""

from __future__ import annotations

import html
import json
import math
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urljoin

from lessonkit.registry import panel

# A panel's settings space is "finite" for the cold-start target when every view could be computed
# ahead of time: at most this many distinct views.
FINITE_VIEWS = 10_000


class _Scan(HTMLParser):
    """Panels (lesson id, spec), sample wrappers and links (href, accessible name) of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.panels: list[tuple[str, dict[str, Any]]] = []
        self.samples = 0
        self.links: list[dict[str, str]] = []
        self._link: dict[str, str] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        classes = attributes.get("class", "").split()
        if tag == "section" and "lk-panel" in classes and "data-lesson" in attributes:
            self.panels.append((attributes["data-lesson"], json.loads(attributes.get("data-spec") or "{}")))
        if tag == "div" and "lk-sample" in classes:
            self.samples += 1
        if tag == "a" and "href" in attributes:
            self._link = {"href": attributes["href"], "label": attributes.get("aria-label", ""), "rel": attributes.get("rel", "")}
            self._link["class"] = attributes.get("class", "")
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._link is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._link is not None:
            self._link["text"] = " ".join("".join(self._text).split())
            self.links.append(self._link)
            self._link = None


@dataclass
class Control:
    """One parameter a reader sets: a control of the spec, or the timeline."""

    kind: str  # choice | toggle | number | range | time
    name: str
    label: str
    values: list[Any]  # every value it can send, in order (for a timeline: the moments views change)
    default: Any
    enables: tuple[str, ...] = ()
    option_labels: dict[str, str] = field(default_factory=dict)  # json(value) -> label, for choices

    @property
    def role(self) -> str:
        return {"choice": "combobox", "toggle": "checkbox", "number": "spinbutton", "range": "slider", "time": "slider"}[self.kind]


def _grid(minimum: float, maximum: float, step: float) -> list[float]:
    count = int(math.floor((maximum - minimum) / step + 1e-9)) + 1
    whole = all(float(part).is_integer() for part in (minimum, step))
    return [int(round(minimum + i * step)) if whole else round(minimum + i * step, 10) for i in range(count)]


@dataclass
class PanelPage:
    path: str  # "/lessons/context-compression/"
    lesson: str
    spec: dict[str, Any]
    title: str
    samples: int
    links: list[dict[str, str]]
    is_lesson: bool

    @property
    def label(self) -> str:
        return self.lesson if self.is_lesson else f"{self.lesson} (demo, not a lesson)"

    @property
    def controls(self) -> list[Control]:
        found = []
        for control in self.spec["controls"]:
            kind = control["kind"]
            if kind == "text":
                continue
            if kind == "choice":
                values = [option["value"] for option in control["options"]]
                labels = {json.dumps(option["value"]): option["label"] for option in control["options"]}
                found.append(Control(kind, control["name"], control["label"], values, control["default"], option_labels=labels))
            elif kind == "toggle":
                found.append(Control(kind, control["name"], control["label"], [False, True], control["default"], tuple(control["enables"])))
            else:
                values = _grid(control["minimum"], control["maximum"], control["step"])
                found.append(Control(kind, control["name"], control["label"], values, control["default"]))
        timeline = self.spec.get("timeline")
        if timeline:
            moments = sorted({0, *(mark["at"] for mark in timeline["marks"])})
            found.append(Control("time", timeline["name"], timeline["label"], moments, 0))
        return found

    @property
    def views(self) -> int:
        """How many distinct views the reader's settings can ask for."""
        return math.prod(len(control.values) for control in self.controls)

    @property
    def finite(self) -> bool:
        return self.views <= FINITE_VIEWS

    def defaults(self) -> dict[str, Any]:
        return {control.name: control.default for control in self.controls}

    def status(self, params: dict[str, Any]) -> str:
        """The engine's real answer for `params`, computed in this process."""
        return _status(self.lesson, json.dumps(params, sort_keys=True))

    def link_to(self, other: PanelPage) -> dict[str, str] | None:
        """The link on this page a reader follows to `other`: the footer's "Next" if it goes there."""
        going = [link for link in self.links if _resolve(self.path, link["href"]) == other.path]
        going.sort(key=lambda link: not link["label"].startswith("Next"))
        return going[0] if going else None

    def first_change(self) -> tuple[Control, Any]:
        """A real first change, as a reader's first: the second option of the first choice, else a
        seek to the last mark, else another control; always one whose status differs from the default's."""
        controls = self.controls
        defaults = self.defaults()
        start = self.status(defaults)
        candidates: list[tuple[Control, Any]] = []
        for control in controls:
            if control.kind == "choice":
                candidates += [(control, value) for value in control.values[1:] + control.values[:1] if value != control.default]
                break
        for control in controls:
            if control.kind == "time":
                candidates += [(control, value) for value in reversed(control.values) if value != 0]
        for control in controls:
            if control.kind not in ("time",):
                candidates += [(control, value) for value in control.values if value != control.default]
        for control, value in candidates:
            if _enabled(controls, defaults, control) and self.status(after(self, defaults, control, value)) != start:
                return control, value
        raise ValueError(f"panel {self.lesson}: no single change of its controls changes the status {start!r}")


@cache
def _status(lesson: str, params: str) -> str:
    return panel(lesson).view(json.loads(params)).status.strip()


def _resolve(path: str, href: str) -> str:
    target = urljoin(f"http://site{path}", href.split("#")[0]).removeprefix("http://site")
    return target if target.endswith("/") else target + ("" if target.endswith(".html") else "/")


def _enabled(controls: list[Control], params: dict[str, Any], control: Control) -> bool:
    """A toggle that is off disables the controls it enables."""
    return not any(other.kind == "toggle" and control.name in other.enables and not params[other.name] for other in controls)


def after(page: PanelPage, params: dict[str, Any], control: Control, value: Any) -> dict[str, Any]:
    """The parameters after a reader sets `control` to `value`: a setting rewinds the timeline to 0."""
    changed = dict(params)
    changed[control.name] = value
    if control.kind != "time":
        for other in page.controls:
            if other.kind == "time":
                changed[other.name] = 0
    return changed


def _title(text: str) -> str:
    found = re.search(r"<title>(.*?)</title>", text, re.S)
    return html.unescape(found.group(1)).split(" - ")[0].strip() if found else ""


def _read(site: Path) -> Iterator[tuple[str, str, _Scan]]:
    """Every page of the built site: its URL path, its HTML and what the scan found in it."""
    for index in sorted(site.rglob("index.html")):
        relative = PurePosixPath(index.parent.relative_to(site).as_posix())
        path = "/" if str(relative) == "." else f"/{relative}/"
        text = index.read_text(encoding="utf-8")
        scanner = _Scan()
        scanner.feed(text)
        yield path, text, scanner


def _ranked(site: Path) -> tuple[dict[str, int], list[tuple[str, str, _Scan]]]:
    """The site's order (the chain of "Next" links in the page footers, from the home page), and its pages."""
    nexts: dict[str, str] = {}
    read = list(_read(site))
    for path, _, scanner in read:
        for link in scanner.links:
            if link["label"].startswith("Next") or "next" in link["rel"].split() or "md-footer__link--next" in link["class"]:
                nexts[path] = _resolve(path, link["href"])
    order, seen, at = [], set(), "/"
    while at in nexts and at not in seen:
        seen.add(at)
        order.append(at)
        at = nexts[at]
    order.append(at)
    return {path: place for place, path in enumerate(order)}, read


def every_page(site: Path) -> list[str]:
    """The URL path of every page of the built site, in the site's order; pages off the chain last."""
    ranked, read = _ranked(site)
    return sorted((path for path, _, _ in read), key=lambda path: (ranked.get(path, len(ranked)), path))


def scan(site: Path) -> list[PanelPage]:
    """Every page of the built site with a panel, in the site's order (the footer's Next links)."""
    ranked, read = _ranked(site)
    pages: dict[str, PanelPage] = {}
    for path, text, scanner in read:
        for lesson, spec in scanner.panels[:1]:  # one panel per page
            pages[path] = PanelPage(path, lesson, spec, _title(text), scanner.samples, scanner.links, path.startswith("/lessons/"))
    return sorted(pages.values(), key=lambda page: (ranked.get(page.path, len(ranked)), page.path))


def key(params: dict[str, Any]) -> str:
    return json.dumps(params, sort_keys=True)


@dataclass
class Step:
    control: Control
    value: Any
    params: dict[str, Any]  # after the step
    status: str  # the engine's answer after the step
    measured: bool  # an unseen view whose status differs from what the page shows: its latency counts


def walk(page: PanelPage, wanted: int, seed: int = 7) -> tuple[list[Step], int]:
    """A reader's walk through settings the page has not seen, one control at a time.

    Greedy: seek the timeline through the marks not yet seen for the current settings, then change
    one control to settings not yet visited. Only steps to an unseen view whose status differs from
    the one on screen are measured (a status that does not change cannot be timed). Stops after
    `wanted` measured steps or when every view has been seen. Returns the steps and how many
    distinct views exist.
    """
    rng = random.Random(seed)
    controls = page.controls
    timeline = next((control for control in controls if control.kind == "time"), None)
    settings = [control for control in controls if control.kind != "time"]
    params = page.defaults()
    seen = {key(params)}
    visited = {key({c.name: params[c.name] for c in settings})}
    shown = page.status(params)
    steps: list[Step] = []
    measured = 0
    budget = wanted * 4  # steps, measured or not: a guard against spaces where few steps can be timed

    def values_of(control: Control) -> list[Any]:
        values = [value for value in control.values if value != params[control.name]]
        return values if len(values) <= 12 else rng.sample(values, 12)

    while measured < wanted and len(steps) < budget and len(seen) < page.views:
        options: list[tuple[int, Control, Any, dict[str, Any]]] = []
        if timeline:
            for moment in timeline.values:
                if moment != params[timeline.name]:
                    nxt = after(page, params, timeline, moment)
                    if key(nxt) not in seen:
                        options.append((0, timeline, moment, nxt))
        if not options:
            for control in settings:
                if not _enabled(controls, params, control):
                    continue
                for value in values_of(control):
                    nxt = after(page, params, control, value)
                    combo = key({c.name: nxt[c.name] for c in settings})
                    options.append((0 if combo not in visited else 2 if key(nxt) in seen else 1, control, value, nxt))
        if not options:
            break
        # Settings already visited only when no neighbour is new: a step of the way to new ones.
        best = min(rank for rank, *_ in options)
        choices = [option for option in options if option[0] == best]
        if timeline and best == 0 and choices[0][1] is timeline:
            _, control, value, nxt = choices[0]  # marks in order, as a reader scrubs forward
        else:
            _, control, value, nxt = rng.choice(choices)
        status = page.status(nxt)
        unseen = key(nxt) not in seen
        is_measured = unseen and status != shown
        steps.append(Step(control, value, nxt, status, is_measured))
        measured += is_measured
        seen.add(key(nxt))
        visited.add(key({c.name: nxt[c.name] for c in settings}))
        params, shown = nxt, status
    return steps, page.views
