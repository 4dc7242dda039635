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
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

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
    return "".join(_kept(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), page))


def _kept(rules: list, page: Vocabulary) -> list[str]:
    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            if any(page.could_match(selector) for selector in selectors(tinycss2.serialize(rule.prelude))):
                kept.append(rule.serialize())
        elif rule.type == "at-rule" and rule.lower_at_keyword in TRIMMED_AT_RULES and rule.content is not None:
            inner = _kept(tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True), page)
            if inner:
                kept.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}{{{''.join(inner)}}}")
        elif rule.type == "at-rule":
            kept.append(rule.serialize())
    return kept


def with_trimmed_styles(page_html: str) -> str:
    """`page_html` with each of its inline stylesheets trimmed to what could apply to it.

    Args:
        page_html: a page's content, its inline stylesheets among it.

    Examples:
        >>> with_trimmed_styles('<style>.jp-Cell{margin:0}.jp-Dialog{top:0}</style><div class="jp-Cell">x</div>')
        '<style>.jp-Cell{margin:0}</style><div class="jp-Cell">x</div>'
    """
    page = Vocabulary()
    page.feed(STYLE.sub(r"\1\3", page_html))
    return STYLE.sub(lambda found: found.group(1) + trimmed(found.group(2), page) + found.group(3), page_html)
