"""A notebook page keeps only the stylesheet rules that can apply to it, and loses none that do.

Read from the site that `make site` built, as the browser tests read it: every rule of JupyterLab's
stylesheet that the build left out of a notebook page is checked against the whole built page with
soupsieve, the selector engine of Beautiful Soup, which shares no code with the trimming.
"""

from __future__ import annotations

import re
from pathlib import Path

import mkdocs_jupyter
import pytest
import soupsieve
import tinycss2
from bs4 import BeautifulSoup

from lessonkit.authoring.notebook_css import TRIMMED_AT_RULES, selectors, without_pseudo

ROOT = Path(__file__).parents[2]
SITE = ROOT / "site"
JUPYTER_CSS = Path(mkdocs_jupyter.__file__).parent / "templates" / "mkdocs_html" / "assets" / "index.css"
# The notebook page with the fewest elements: every element is asked about every rule left out.
NOTEBOOK = SITE / "notebooks" / "context-compaction" / "index.html"
GROUP = 300
# The colour schemes of mkdocs.yml's palette, as the theme names them on the page's body.
SCHEMES = ("default", "slate")


def qualified_rules(css: str) -> list[str]:
    """Each rule's selector list, those inside @media and @supports included."""
    found = []
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type == "qualified-rule":
            found.append(tinycss2.serialize(rule.prelude).strip())
        elif rule.type == "at-rule" and rule.lower_at_keyword in TRIMMED_AT_RULES and rule.content is not None:
            found.extend(qualified_rules(tinycss2.serialize(rule.content)))
    return found


@pytest.fixture(scope="module")
def page() -> tuple[str, BeautifulSoup]:
    if not NOTEBOOK.is_file():
        pytest.fail(f"the built site is missing ({NOTEBOOK} not found): run make site", pytrace=False)
    html = NOTEBOOK.read_text(encoding="utf-8")
    return html, BeautifulSoup(html, "html.parser")


def test_a_notebook_page_carries_a_fraction_of_jupyterlabs_stylesheet(page):
    html, _ = page
    whole = JUPYTER_CSS.read_text(encoding="utf-8")
    assert len(html) < len(whole), f"the page ({len(html):,} characters) is larger than the stylesheet it trimmed ({len(whole):,})"


def test_no_rule_left_out_of_a_notebook_page_matches_an_element_of_it(page):
    _, soup = page
    kept = set(qualified_rules("".join(style.get_text() for style in soup.find_all("style"))))
    left_out = [prelude for prelude in qualified_rules(JUPYTER_CSS.read_text(encoding="utf-8")) if prelude not in kept]
    assert len(left_out) > 1000, "the trimming left out almost nothing: is it running?"
    readable = []
    for prelude in left_out:
        for selector in selectors(prelude):
            bare = without_pseudo(selector)
            if not bare or bare.endswith((">", "+", "~")):
                continue
            try:
                soupsieve.compile(bare)
            except soupsieve.SelectorSyntaxError:
                continue  # a selector soupsieve cannot read says nothing either way
            readable.append(bare)
    assert len(readable) > 1000
    # A walk of the page for a few hundred at once (soupsieve bounds a selector's size); only a group
    # that matches is asked one selector at a time. In each of the theme's colour schemes, which a
    # reader picks as the page runs.
    # Between schemes only the body's attribute changes, so only a selector that names an attribute
    # can match differently in the next one.
    matching = []
    for scheme in SCHEMES:
        soup.body["data-md-color-scheme"] = scheme
        asked = readable if scheme == SCHEMES[0] else [selector for selector in readable if "[" in selector]
        for start in range(0, len(asked), GROUP):
            group = asked[start : start + GROUP]
            if soupsieve.select_one(", ".join(group), soup):
                matching.extend(f"{selector} ({scheme})" for selector in group if soupsieve.select_one(selector, soup))
    assert not matching, f"rules left out of the page match its elements: {matching[:5]}"


def test_every_jupyterlab_property_the_page_reads_is_still_declared_on_it(page):
    html, soup = page
    here = "".join(style.get_text() for style in soup.find_all("style"))
    declared = re.compile(r"(--jp-[\w-]+)\s*:")
    by_jupyterlab = set(declared.findall(JUPYTER_CSS.read_text(encoding="utf-8")))
    kept = set(declared.findall(here))
    read = set(re.findall(r"var\(\s*(--jp-[\w-]+)", html))
    assert len(read) > 20, "the page reads almost none of JupyterLab's properties: is its stylesheet there?"
    assert not sorted((read & by_jupyterlab) - kept), "properties the page reads were left out"
    assert len(kept) < len(by_jupyterlab) / 2, f"the page still declares {len(kept)} of JupyterLab's {len(by_jupyterlab)} properties"
