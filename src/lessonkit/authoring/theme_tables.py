"""Data tables written as the theme would wrap them, so the theme's start-up need not.

Material styles a table without a class as a data table (``.md-typeset table:not([class])``), and,
as each page starts, moves every such table into two wrappers of its own, the outer one scrolling
sideways when the table is wider than the page. Each move takes a table out of the article and puts
it back, and Blink then restyles the whole article, inside the theme's start-up task, the
costliest of the restyles in it on a lesson page with tables (bench/FINDINGS.md).

The build writes each such table inside the theme's two wrappers already, and marks it
``lk-wrapped``. A table with a class is one the theme's start-up leaves alone, so it moves nothing;
and the theme's stylesheet has every rule for a table without a class extended to the marked ones
(``for_wrapped_tables``), so a marked table looks as the theme's own wrapped table did. With
JavaScript off the table now scrolls in its wrapper too, as it does with it on.

A theme whose stylesheet or start-up changes shape stops the build or the tests: the rules must
still name ``table:not([class])``, and tests/browser/test_course_reading.py checks that the theme's
start-up moves no table.
"""

from __future__ import annotations

import re
from pathlib import Path

from lessonkit.authoring.theme_files import rewrite_theme_file

WRAPPED = "lk-wrapped"
# As Material's bundle writes them (its renderTable): an outer wrapper that scrolls, and an inner one.
OPEN_WRAPPERS = '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'
CLOSE_WRAPPERS = "</div></div>"
# A table's opening or closing tag; the attributes of an opening one, to see whether it has a class.
TABLE_TAG = re.compile(r"<(/?)table\b([^>]*)>", re.IGNORECASE)
HAS_CLASS = re.compile(r"\sclass\s*=", re.IGNORECASE)
# The theme's selector for a data table, and what the build makes of it: a marked table too. `:is()`
# takes the specificity of its most specific argument, a class or an attribute, the same as before.
THEMES_DATA_TABLE = "table:not([class])"
DATA_TABLE = f"table:is(:not([class]),.{WRAPPED})"
STYLESHEETS = "assets/stylesheets/main.*.min.css"


def with_tables_wrapped(page_html: str) -> str:
    """`page_html` with each table that has no class inside the theme's wrappers, and marked.

    A table inside another is wrapped as well, as the theme's start-up would wrap it; a table with
    a class (a panel's, a notebook's) is left as it is.

    Args:
        page_html: a page's HTML, or its content's.

    Raises:
        ValueError: a table opened in `page_html` is never closed.

    Examples:
        >>> with_tables_wrapped('<table><tr><td>1</td></tr></table>').replace(OPEN_WRAPPERS, "[wrappers]")
        '[wrappers]<table class="lk-wrapped"><tr><td>1</td></tr></table></div></div>'
        >>> with_tables_wrapped('<table class="lk-table"></table>')
        '<table class="lk-table"></table>'
    """
    pieces: list[str] = []
    # For each table open at this point: whether the build wrapped it.
    open_tables: list[bool] = []
    last = 0
    for tag in TABLE_TAG.finditer(page_html):
        pieces.append(page_html[last : tag.start()])
        last = tag.end()
        closing, attributes = tag.group(1), tag.group(2)
        if closing:
            wrapped = open_tables.pop() if open_tables else False
            pieces.append(tag.group(0) + (CLOSE_WRAPPERS if wrapped else ""))
            continue
        wrapped = not HAS_CLASS.search(attributes)
        open_tables.append(wrapped)
        pieces.append(f'{OPEN_WRAPPERS}<table class="{WRAPPED}"{attributes}>' if wrapped else tag.group(0))
    if open_tables:
        raise ValueError(f"a page's HTML leaves {len(open_tables)} table(s) open: {page_html[:80]!r}...")
    return "".join(pieces) + page_html[last:]


def for_wrapped_tables(css: str) -> str:
    """The theme's main stylesheet `css` with each rule for a table without a class extended to the
    tables the build wrapped.

    Args:
        css: the text of the theme's minified main stylesheet.

    Raises:
        ValueError: the stylesheet names no table without a class.

    Examples:
        >>> for_wrapped_tables(".md-typeset table:not([class]) td{padding:0}")
        '.md-typeset table:is(:not([class]),.lk-wrapped) td{padding:0}'
    """
    if THEMES_DATA_TABLE not in css:
        raise ValueError(
            f"the theme's main stylesheet never names {THEMES_DATA_TABLE}: the tables the build wraps "
            "would lose the theme's look. If the theme changed its selector, see lessonkit.authoring.theme_tables."
        )
    return css.replace(THEMES_DATA_TABLE, DATA_TABLE)


def style_site(site: Path, theme_folders: list[Path]) -> Path:
    """Write the built site's main stylesheet as the theme's own, with its data-table rules extended
    to the wrapped tables (see `lessonkit.authoring.theme_files.rewrite_theme_file`)."""
    return rewrite_theme_file(site, theme_folders, STYLESHEETS, for_wrapped_tables)
