"""The theme's palette stylesheet, without the rule that restyles every element as each page starts.

Material stops transitions while a reader switches colour scheme with one rule on the body's
``data-md-color-switching`` attribute: ``[data-md-color-switching] *`` (and its ``::before`` and
``::after``). Its palette sets that attribute as every page starts, to apply the palette the reader
last chose, and takes it off a moment later. A selector whose subject is any element makes each of
those two changes invalidate every element of the page, so the browser restyles the whole page
twice more, inside the theme's start-up task, on every page load: on a lesson page that is most of
a Lighthouse run's blocking time that the course can do without (bench/FINDINGS.md).

The build takes the rule out of the theme's stylesheet. The course keeps what it was for: a switch
still plays no transition, because the page marks the root ``lk-scheme-switching`` for the moment of
a reader's switch only (``overrides/main.html``), and ``course.css`` stops transitions under that
mark. A page load sets no such mark, so it restyles nothing for it.

A theme whose stylesheet no longer carries the rule, word for word, stops the build: the rule may
have changed its shape, and the course's copy of its purpose would then need a look.
"""

from __future__ import annotations

from pathlib import Path

from lessonkit.authoring.theme_files import rewrite_theme_file

# As Material 9.8's minified palette stylesheet writes it.
SWITCHING_RULE = (
    "[data-md-color-switching] *,[data-md-color-switching] :after,[data-md-color-switching] :before{transition-duration:0s!important}"
)
STYLESHEETS = "assets/stylesheets/palette.*.min.css"


def without_switching_rule(css: str) -> str:
    """The palette stylesheet `css` with Material's rule for a scheme switch taken out.

    Args:
        css: the text of the theme's minified palette stylesheet.

    Returns:
        The same text without the rule, which it holds once.

    Raises:
        ValueError: the stylesheet holds the rule other than once.

    Examples:
        >>> without_switching_rule("@media screen{a{color:red}" + SWITCHING_RULE + "}")
        '@media screen{a{color:red}}'
    """
    found = css.count(SWITCHING_RULE)
    if found != 1:
        raise ValueError(
            f"the theme's palette stylesheet holds Material's scheme-switching rule {found} times, not once: "
            f"expected {SWITCHING_RULE!r}. If the theme changed it, see lessonkit.authoring.palette_css."
        )
    return css.replace(SWITCHING_RULE, "")


def trim_site(site: Path, theme_folders: list[Path]) -> Path:
    """Write the built site's palette stylesheet as the theme's own, without the switching rule.

    Args:
        site: the built site's folder.
        theme_folders: the theme's template folders, the first one searched first (MkDocs's
            ``config["theme"].dirs``).

    Returns:
        The stylesheet written.

    Raises:
        ValueError: the site has no palette stylesheet or more than one, the theme's folders do not
            hold it, or it does not hold the rule once.
    """
    return rewrite_theme_file(site, theme_folders, STYLESHEETS, without_switching_rule)
