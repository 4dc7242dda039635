"""The theme's bundle, writing the page's colour scheme only when it changes.

Material's palette gives the page a ``<meta name="color-scheme">``, so that the browser draws its own
parts (the page's scrollbar, its canvas) in the reader's scheme. As every page starts it creates
that element and writes into it the scheme its header is drawn in. Blink restyles every element of
the page whenever such an element's content is written, even with the same value, so each page
load paid for one more restyle of the whole page inside the theme's start-up (bench/FINDINGS.md).

The page now has the element from the moment its header is read: ``overrides/main.html`` writes the
header's scheme into it there, before the page's first style is computed, the same reading the
palette makes. The build changes two statements of the bundle: the palette takes the page's element
when there is one instead of adding its own, and writes into it only a scheme that differs. A
reader's switch of scheme still writes the new one, and instant navigation keeps the element, as
it kept the theme's. (The bundle's source map then places the rest of that line a few characters
off, which only a debugger would notice.)

A bundle without those statements, word for word, stops the build: the theme has changed, and the
page's own element would then need a look.
"""

from __future__ import annotations

from pathlib import Path

from lessonkit.authoring.theme_files import rewrite_theme_file

BUNDLE = "assets/javascripts/bundle.*.min.js"
# As Material 9.8's minified bundle writes them, and what the build makes of each.
REWRITES = (
    (
        'let o=x("meta",{name:"color-scheme"});document.head.appendChild(o);',
        'let o=document.querySelector(\'meta[name="color-scheme"]\')||document.head.appendChild(x("meta",{name:"color-scheme"}));',
    ),
    ("return o.content=a.colorScheme,", "return o.content!==a.colorScheme&&(o.content=a.colorScheme),"),
)


def writing_scheme_on_change(bundle: str) -> str:
    """The theme's minified bundle `bundle` with its palette taking the page's colour-scheme
    element and writing into it only a scheme that differs.

    Args:
        bundle: the text of the theme's minified bundle.

    Returns:
        The same text with the two statements rewritten.

    Raises:
        ValueError: the bundle holds one of the statements other than once.

    Examples:
        >>> writing_scheme_on_change("".join(theirs for theirs, _ours in REWRITES)) == "".join(ours for _theirs, ours in REWRITES)
        True
    """
    for theirs, ours in REWRITES:
        found = bundle.count(theirs)
        if found != 1:
            raise ValueError(
                f"the theme's bundle holds {theirs!r} {found} times, not once; if the theme changed how its palette "
                "writes the page's colour scheme, see lessonkit.authoring.theme_bundle"
            )
        bundle = bundle.replace(theirs, ours)
    return bundle


def rewrite_site(site: Path, theme_folders: list[Path]) -> Path:
    """Write the built site's bundle as the theme's own, writing the colour scheme only when it
    changes (see `lessonkit.authoring.theme_files.rewrite_theme_file`)."""
    return rewrite_theme_file(site, theme_folders, BUNDLE, writing_scheme_on_change)
