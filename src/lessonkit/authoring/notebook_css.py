"""A notebook page's stylesheets, trimmed to the rules that can apply to the page.

mkdocs-jupyter writes JupyterLab's whole stylesheet into every notebook page as an inline
``<style>``: 574 kB, most of it for JupyterLab's own interface (its file browser, menus, dialogs and
toolbars), which a rendered notebook never shows. Every reader downloads it with each notebook page,
and the browser parses all of it before the page can first paint (bench/FINDINGS.md).

A rule is kept when it could match an element of the page: every class, id and element name its
selector names (states such as ``:hover`` and what ``:not()`` excludes left aside) is one the page
has. Attributes decide nothing: the theme sets some on the page as it runs (the colour scheme a
reader picks is ``data-md-color-scheme`` on the body), and a rule for the dark scheme must stay. That
keeps more than strictly applies, never less, so the page looks as it did in either scheme.
Rules that name nothing (``*``, ``:root``) are kept, and so is every at-rule but ``@media`` and
``@supports``, whose rules are trimmed in turn.

Within the rules kept, a JupyterLab custom property (``--jp-…``) that nothing on the page reads with
``var()`` is left out: most of the 555 the stylesheet declares are for JupyterLab's interface, and
their icons alone are tens of kilobytes of SVG. Only JupyterLab's stylesheet, inlined on this page,
reads its own properties; the theme's and the course's never do, so the page is the whole of what
could. What reads a property is a ``var()`` in the rules kept or in the page's own markup; a property read
only by one that is left out is left out in turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import tinycss2

STYLE = re.compile(r"(<style\b[^>]*>)(.*?)(</style>)", re.DOTALL | re.IGNORECASE)
# What a selector requires of an element, once its states are set aside.
CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
ID = re.compile(r"#(-?[_a-zA-Z][\w-]*)")
ELEMENT = re.compile(r"(?:^|[\s>+~])([a-zA-Z][\w-]*)")
ATTRIBUTE_SELECTOR = re.compile(r"\[[^\]]*\]")
# The page's stylesheet applies to the whole document, of which a page's content is the article only.
DOCUMENT_ELEMENTS = frozenset({"html", "body", "head", "main", "article", "nav", "header", "footer"})
TRIMMED_AT_RULES = frozenset({"media", "supports"})
JUPYTER_PROPERTY = "--jp-"
READ = re.compile(r"var\(\s*(--[\w-]+)")


class Vocabulary(HTMLParser):
    """The element names, classes and ids a page's HTML uses."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: set[str] = set(DOCUMENT_ELEMENTS)
        self.classes: set[str] = set()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.add(tag)
        for name, value in attrs:
            if name == "class" and value:
                self.classes.update(value.split())
            elif name == "id" and value:
                self.ids.add(value)

    def could_match(self, selector: str) -> bool:
        bare = without_pseudo(selector)
        return (
            set(CLASS.findall(bare)) <= self.classes
            and set(ID.findall(bare)) <= self.ids
            and {name.lower() for name in ELEMENT.findall(CLASS.sub("", ID.sub("", ATTRIBUTE_SELECTOR.sub("", bare))))} <= self.elements
        )


def without_pseudo(selector: str) -> str:
    """`selector` without its pseudo-classes and pseudo-elements, arguments and all.

    Examples:
        >>> without_pseudo(".jp-Cell:not(.jp-mod-active) > a:hover::before")
        '.jp-Cell > a'
    """
    kept, depth, index = [], 0, 0
    while index < len(selector):
        character = selector[index]
        if character == ":" and depth == 0:
            index += 1
            while index < len(selector) and (selector[index] == ":" or selector[index].isalnum() or selector[index] in "-_"):
                index += 1
            if index < len(selector) and selector[index] == "(":
                depth = 1
                index += 1
                while index < len(selector) and depth:
                    depth += {"(": 1, ")": -1}.get(selector[index], 0)
                    index += 1
            continue
        kept.append(character)
        index += 1
    return "".join(kept).strip()


def selectors(prelude: str) -> list[str]:
    """The selectors of a rule's prelude, split at the commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for index, character in enumerate(prelude):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if character == "," and depth == 0:
            parts.append(prelude[start:index])
            start = index + 1
    parts.append(prelude[start:])
    return [part.strip() for part in parts if part.strip()]


def trimmed(css: str, page: Vocabulary) -> str:
    """The rules of `css` that could apply to the page `page` describes.

    Args:
        css: a stylesheet.
        page: what the page's HTML uses (Vocabulary).

    Examples:
        >>> page = Vocabulary()
        >>> page.feed('<div class="jupyter-wrapper"><div class="jp-Cell"><pre>x</pre></div></div>')
        >>> css = ":root{--a:1}.jp-Cell pre{margin:0}.jp-FileBrowser{display:flex}@media print{.jp-Cell{color:black}.jp-Menu{top:0}}"
        >>> trimmed(css, page)
        ':root{--a:1}.jp-Cell pre{margin:0}@media print{.jp-Cell{color:black}}'
    """
    return _rewritten(css, lambda rule: rule.serialize() if _could_apply(rule, page) else None)


def _could_apply(rule, page: Vocabulary) -> bool:
    return any(page.could_match(selector) for selector in selectors(tinycss2.serialize(rule.prelude)))


def _rewritten(css: str, qualified: Callable[[Any], str | None]) -> str:
    """`css` with each qualified rule, those inside ``@media`` and ``@supports`` too, written as
    `qualified` writes it (None leaves it out); an ``@media`` or ``@supports`` left empty goes too."""
    return "".join(_rules_rewritten(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), qualified))


def _rules_rewritten(rules: list, qualified: Callable[[Any], str | None]) -> list[str]:
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            written = qualified(rule)
            if written:
                kept.append(written)
        elif rule.type == "at-rule" and rule.lower_at_keyword in TRIMMED_AT_RULES and rule.content is not None:
            inner = _rules_rewritten(tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True), qualified)
            if inner:
                kept.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{''.join(inner)}}}")
        elif rule.type == "at-rule":
            kept.append(rule.serialize())
    return kept


def without_unread_properties(css: str, read: set[str]) -> str:
    """`css` without its declarations of JupyterLab custom properties that are not in `read`.

    Args:
        css: a stylesheet.
        read: the custom properties something reads with ``var()``.

    Examples:
        >>> without_unread_properties(":root{--jp-a:1px;--jp-b:2px;--md-c:3px}@media print{p{--jp-b:0;color:red}}", {"--jp-a"})
        ':root{--jp-a:1px;--md-c:3px}@media print{p{color:red}}'
    """
    return _rewritten(css, lambda rule: _with_read_properties(rule, read))


def _with_read_properties(rule, read: set[str]) -> str | None:
    """A qualified rule without its unread JupyterLab properties; None when nothing else is left."""
    body = tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True)
    declarations = [part for part in body if not _unread(part, read)]
    if len(declarations) == len(body):
        return rule.serialize()
    return f"{tinycss2.serialize(rule.prelude).strip()}{{{';'.join(part.serialize() for part in declarations)}}}" if declarations else None


def _unread(part, read: set[str]) -> bool:
    return part.type == "declaration" and part.name.startswith(JUPYTER_PROPERTY) and part.name not in read


def with_trimmed_styles(page_html: str) -> str:
    """`page_html` with each of its inline stylesheets trimmed to what could apply to it.

    Args:
        page_html: a page's content, its inline stylesheets among it.

    Examples:
        >>> with_trimmed_styles('<style>.jp-Cell{margin:0}.jp-Dialog{top:0}</style><div class="jp-Cell">x</div>')
        '<style>.jp-Cell{margin:0}</style><div class="jp-Cell">x</div>'
        >>> with_trimmed_styles('<style>:root{--jp-a:1px;--jp-b:var(--jp-c);--jp-c:0}p{margin:var(--jp-a)}</style><p>')
        '<style>:root{--jp-a:1px}p{margin:var(--jp-a)}</style><p>'
    """
    outside = STYLE.sub(r"\1\3", page_html)
    page = Vocabulary()
    page.feed(outside)
    sheets = [trimmed(found.group(2), page) for found in STYLE.finditer(page_html)]
    # What the rules kept and the page's own markup read; a property left out may have been the only
    # reader of another, so again until nothing more is left out.
    read: set[str] | None = None
    while (now := set(READ.findall(outside + "".join(sheets)))) != read:
        read = now
        sheets = [without_unread_properties(sheet, read) for sheet in sheets]
    kept = iter(sheets)
    return STYLE.sub(lambda found: found.group(1) + next(kept) + found.group(3), page_html)
