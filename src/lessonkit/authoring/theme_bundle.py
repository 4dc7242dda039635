"""The theme's bundle as the course serves it: five statements of Material's start-up, rewritten.

Each rewrite spares the page work that Material's start-up does as every page loads
(bench/FINDINGS.md), and the reader sees the same page.

The page's colour scheme. Material's palette gives the page a ``<meta name="color-scheme">``, so
that the browser draws its own parts (the page's scrollbar, its canvas) in the reader's scheme. As
every page starts it creates that element and writes into it the scheme its header is drawn in.
Blink restyles every element of the page whenever such an element's content is written, even with
the same value. The page now has the element from the moment its header is read:
``overrides/main.html`` writes the header's scheme into it there, before the page's first style is
computed, the same reading the palette makes. So the palette takes the page's element when there is
one instead of adding its own, and writes into it only a scheme that differs. A reader's switch of
scheme still writes the new one, and instant navigation keeps the element, as it kept the theme's.

The code blocks. For each block Material inserts the block's bar of buttons (its copy button), then
reads the block's size to know whether it overflows, so every block laid the page out again: one
layout per block inside the start-up's longest task. The bar is now inserted in a microtask, once
every block has been read; it is there before the task ends, as before. And the API reference's
signatures (mkdocstrings' ``.doc-signature``) are not mounted at all: a signature has no copy
button, no annotation and no line selection, so the theme mounted each only to watch its overflow,
and the shell makes a signature too wide for the page a focusable region itself (``shell.js``).

The headings' permanent links. With ``content.tooltips`` on (for the glossary's terms), Material
mounts a tooltip of its own on every element of the content that has a title, and every heading's
permanent link (its ``¶``) has one. The API reference has a heading per documented object, so that
was most of the tooltips its start-up mounted. A permanent link now keeps its title, which the
browser shows on hover as it does a claim's, and the theme mounts nothing on it.

The bundle's source map then places the rest of each rewritten line a few characters off, which only
a debugger would notice. A bundle without one of these statements, word for word, stops the build:
the theme has changed, and what the rewrite spared would need a new look.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from lessonkit.authoring.theme_files import rewrite_theme_file

BUNDLE = "assets/javascripts/bundle.*.min.js"


class Rewrite(NamedTuple):
    """One statement of the theme's minified bundle, and what the build makes of it."""

    what: str  # what the statement does, as the build's error names it
    theirs: str  # as Material 9.8's minified bundle writes it
    ours: str


REWRITES = (
    Rewrite(
        "its palette adds the page's colour-scheme element",
        'let o=x("meta",{name:"color-scheme"});document.head.appendChild(o);',
        'let o=document.querySelector(\'meta[name="color-scheme"]\')||document.head.appendChild(x("meta",{name:"color-scheme"}));',
    ),
    Rewrite(
        "its palette writes the page's colour scheme",
        "return o.content=a.colorScheme,",
        "return o.content!==a.colorScheme&&(o.content=a.colorScheme),",
    ),
    Rewrite(
        "it finds the code blocks to mount",
        'M("pre:not(.mermaid) > code",e)',
        'M(":not(.doc-signature) > pre:not(.mermaid) > code",e)',
    ),
    Rewrite(
        "it finds the elements with a title that get its tooltips",
        'M("[title]:not([data-preview])",e)',
        'M("[title]:not([data-preview],.headerlink)",e)',
    ),
    Rewrite(
        "it inserts a code block's bar of buttons",
        "if(s.length){let d=Pn();d.append(...s),a.insertBefore(d,e)}",
        "if(s.length){let d=Pn();d.append(...s),queueMicrotask(()=>a.insertBefore(d,e))}",
    ),
)


def as_the_course_serves_it(bundle: str) -> str:
    """The theme's minified bundle `bundle` with each of `REWRITES` made.

    Args:
        bundle: the text of the theme's minified bundle.

    Returns:
        The same text with each statement rewritten.

    Raises:
        ValueError: the bundle holds one of the statements other than once; the message says which.

    Examples:
        >>> as_the_course_serves_it("".join(rewrite.theirs for rewrite in REWRITES)) == "".join(rewrite.ours for rewrite in REWRITES)
        True
    """
    for rewrite in REWRITES:
        found = bundle.count(rewrite.theirs)
        if found != 1:
            raise ValueError(
                f"the theme's bundle holds {rewrite.theirs!r} {found} times, not once; if the theme changed how {rewrite.what}, "
                "see lessonkit.authoring.theme_bundle"
            )
        bundle = bundle.replace(rewrite.theirs, rewrite.ours)
    return bundle


def rewrite_site(site: Path, theme_folders: list[Path]) -> Path:
    """Write the built site's bundle as the theme's own, rewritten as the course serves it (see
    `lessonkit.authoring.theme_files.rewrite_theme_file`)."""
    return rewrite_theme_file(site, theme_folders, BUNDLE, as_the_course_serves_it)
