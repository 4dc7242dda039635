"""A tiny HTML builder that escapes by construction: the Python counterpart of the shell's `h()`.

Lesson views are HTML computed in Python (at build time and in the reader's browser alike). Text
from fixtures or from a reader must never become markup by accident, so every string is escaped
unless it is already `Markup`, which only this module and its callers' `h()` calls produce.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html import escape as _escape
from typing import Any

# Elements that have no closing tag in HTML.
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
# SVG elements written self-closed, as SVG allows: they never hold children here.
SELF_CLOSED = frozenset({"circle", "line", "path", "polyline", "polygon", "rect", "use"})


class Markup(str):
    """HTML known to be safe: built by `h()` or deliberately marked with `Markup(...)`."""

    __slots__ = ()

    def __html__(self) -> str:
        return self


def escape(value: Any) -> Markup:
    """`value` as text that is safe in HTML; Markup is taken as it is.

    Args:
        value: Anything; it is written with ``str``.

    Examples:
        >>> from lessonkit.panel.html import escape
        >>> print(escape("<b>"))
        &lt;b&gt;
    """
    if isinstance(value, Markup):
        return value
    return Markup(_escape(str(value), quote=True))


# Most of what a view writes (ids, classes, labels, coordinates) holds nothing to escape; looking
# for the five characters once is several times quicker than replacing each of them in turn.
_SPECIAL = re.compile(r"[&<>\"']").search


def _quote(text: str) -> str:
    return _escape(text, quote=True) if _SPECIAL(text) else text


def _number(value: float) -> str:
    # Coordinates and values print without float noise: 12.0 -> "12", 0.1 + 0.2 -> "0.3".
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _attribute(name: str, value: Any) -> str:
    if value is True:
        return f" {name}"
    if isinstance(value, (list, tuple)):
        value = " ".join(str(part) for part in value if part)
    elif isinstance(value, (int, float)):
        return f' {name}="{_number(value)}"'  # digits, a point, a sign: nothing to escape
    return f' {name}="{_quote(str(value))}"'


def _children(children: Iterable[Any]) -> list[str]:
    written: list[str] = []
    _write(children, written)
    return written


def _write(children: Iterable[Any], written: list[str]) -> None:
    # A view writes thousands of children, nearly all strings: they are tested first, and appended
    # to one list rather than passed up through a generator per level of nesting.
    for child in children:
        if isinstance(child, str):
            written.append(child if isinstance(child, Markup) else _quote(str(child)))
        elif child is None or child is False:
            continue
        elif isinstance(child, (list, tuple)):
            _write(child, written)
        elif type(child) is int or type(child) is float:
            written.append(_number(child))
        elif isinstance(child, Iterable):
            _write(child, written)
        elif isinstance(child, (int, float)) and not isinstance(child, bool):
            written.append(_number(child))
        else:
            written.append(escape(child))


def h(tag: str, attributes: Mapping[str, Any] | None = None, *children: Any) -> Markup:
    """`h("li", {"class": ["lk-row", "lk-gone"], "data-id": "T2"}, "T2 ", h("em", {}, "evicted"))`.

    Attributes that are None or False are left out, True writes a bare attribute, a list is
    joined with spaces (classes). Children are escaped unless they are Markup; lists are flattened.

    Args:
        tag: The element's name.
        attributes: Its attributes.
        *children: Its content.

    Examples:
        >>> from lessonkit.panel.html import h
        >>> print(h("li", {"class": ["lk-row", "lk-gone"], "hidden": True, "title": None}, "<T2>"))
        <li class="lk-row lk-gone" hidden>&lt;T2&gt;</li>
    """
    attrs = ""
    if attributes:
        attrs = "".join([_attribute(name, value) for name, value in attributes.items() if value is not None and value is not False])
    if tag in VOID:
        return Markup(f"<{tag}{attrs}>")
    inner = "".join(_children(children))
    if tag in SELF_CLOSED and not inner:
        return Markup(f"<{tag}{attrs}/>")
    return Markup(f"<{tag}{attrs}>{inner}</{tag}>")


def join(parts: Iterable[Any], separator: str = "") -> Markup:
    """Several pieces as one Markup, each escaped unless it is Markup already.

    Args:
        parts: The pieces.
        separator: Written between them.

    Examples:
        >>> from lessonkit.panel.html import h, join
        >>> print(join(["a", h("b", {}, "c")], ", "))
        a, <b>c</b>
    """
    return Markup(escape(separator).join(_children(parts)))
