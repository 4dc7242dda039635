"""The course's path, read from the lessons themselves, and the site's navigation built from it.

A lesson is one id and one folder, so adding one must not mean editing ``mkdocs.yml``. Each lesson
page says in its front matter which lesson it follows (``after: context-compression``); the first
lesson says none. The build reads ``docs/lessons/*.md``, orders them by those links, and fills the
navigation: every lesson under "Lessons", its notebook (``docs/notebooks/<id>.ipynb``) under
"Notebooks" and its reference page (``docs/reference/<id>.md``) under "API reference", each
labelled with the title its fixture declares. ``mkdocs.yml`` keeps the course's own pages and the
three sections, which the build fills.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from lessonkit.fixtures import read_fixture
from lessonkit.registry import package_name

# The navigation sections the build fills: title -> where a lesson's page for it lives, by id.
SECTIONS = {"Lessons": "lessons/{id}.md", "Notebooks": "notebooks/{id}.ipynb", "API reference": "reference/{id}.md"}


class CoursePathError(ValueError):
    """The lessons' ``after:`` links do not make one path; the message names the pages."""


@dataclass(frozen=True)
class Stop:
    """One lesson on the course's path."""

    id: str
    title: str  # as its fixture declares it
    after: str | None  # the lesson it follows, or None for the first


def front_matter(page: Path) -> dict[str, Any]:
    """The YAML between a page's opening ``---`` lines; empty when it has none."""
    text = page.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return {}
    end = text.find("\n---", 4)
    if end < 0:
        raise CoursePathError(f"{page.name}: front matter opens with '---' and never closes")
    found = yaml.safe_load(text[4:end]) or {}
    if not isinstance(found, dict):
        raise CoursePathError(f"{page.name}: front matter is {found!r}; allowed: a mapping of fields")
    return found


def read_stops(docs: Path) -> list[Stop]:
    """Every lesson page under ``docs/lessons/``, as a stop: its id, its fixture's title, what it follows."""
    stops = []
    for page in sorted((docs / "lessons").glob("*.md")):
        after = front_matter(page).get("after")
        if after is not None and not isinstance(after, str):
            raise CoursePathError(f"lessons/{page.name}: 'after' is {after!r}; allowed: the id of another lesson")
        stops.append(Stop(page.stem, read_fixture(page.stem).text("title"), after))
    return stops


def in_order(stops: Iterable[Stop]) -> list[Stop]:
    """The stops along the path: the one that follows nothing, then each one's follower in turn.

    Raises:
        CoursePathError: No lesson comes first, or two do; two lessons follow the same one; a lesson
            follows one that does not exist; or some lessons are not on the path from the first.

    Examples:
        >>> from lessonkit.authoring.course_path import Stop, in_order
        >>> [stop.id for stop in in_order([Stop("b", "B", "a"), Stop("a", "A", None)])]
        ['a', 'b']
    """
    stops = list(stops)
    ids = {stop.id for stop in stops}
    for stop in stops:
        if stop.after is not None and stop.after not in ids:
            raise CoursePathError(f"lessons/{stop.id}.md: 'after' is {stop.after!r}; allowed: one of {', '.join(sorted(ids - {stop.id}))}")
    first = [stop.id for stop in stops if stop.after is None]
    if len(first) != 1:
        named = ", ".join(first) or "none"
        raise CoursePathError(f"one lesson must come first, with no 'after' in its front matter; {len(first)} do: {named}")
    follower: dict[str, Stop] = {}
    for stop in stops:
        if stop.after in follower:
            pages = f"lessons/{follower[stop.after].id}.md and lessons/{stop.id}.md"
            raise CoursePathError(f"{pages} both say 'after: {stop.after}'; allowed: one lesson after each")
        if stop.after is not None:
            follower[stop.after] = stop
    path = [next(stop for stop in stops if stop.after is None)]
    while path[-1].id in follower:
        path.append(follower[path[-1].id])
    left = sorted(ids - {stop.id for stop in path})
    if left:
        raise CoursePathError(f"lessons {', '.join(left)} are not on the path from {path[0].id}: their 'after' links go round in a circle")
    return path


def course_path(docs: Path) -> list[Stop]:
    """The lessons of the course in `docs`, in the order a reader takes them."""
    return in_order(read_stops(docs))


def filled_nav(nav: list[Any], path: list[Stop], docs: Path) -> list[Any]:
    """`nav` with the lessons' entries added to each section the build fills, in the course's order.

    A section's own entries stay where they are: the lessons' come after its first entry (an
    overview, or none for "Lessons"). The reference entry is named by the lesson's package.
    """
    filled = []
    for item in nav:
        title = next(iter(item)) if isinstance(item, dict) and len(item) == 1 else None
        if title not in SECTIONS:
            filled.append(item)
            continue
        own = list(item[title] or [])
        entries = []
        for stop in path:
            where = SECTIONS[title].format(id=stop.id)
            if (docs / where).is_file():
                entries.append({package_name(stop.id) if title == "API reference" else stop.title: where})
        head = own[:1] if title != "Lessons" else []
        filled.append({title: head + entries + own[len(head) :]})
    return filled
