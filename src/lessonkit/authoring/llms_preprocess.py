"""How a page's HTML is cleaned before mkdocs-llmstxt writes it as Markdown beside the page.

The Markdown copy is what "Copy for AI" copies and what ``llms.txt`` indexes, so it should read as
the page reads: claims are already the numbers the reader sees (the build renders them as text);
a panel's chart, which a model cannot see, becomes its title and description, the words a screen
reader hears for it; a notebook's styles, scripts and prompts go, its code and outputs stay.
"""

from __future__ import annotations

import re
from typing import Any

from bs4 import NavigableString
from mkdocs_llmstxt._internal import plugin as llmstxt
from mkdocs_llmstxt._internal.preprocess import autoclean

DROPPED = ("style", "script", "noscript", "template", "button")
# A notebook's copy buttons, and the hidden copy of each code cell's source they copy from
# (mkdocs-jupyter's clipboard-copy-txt): kept, it read as the cell's code a second time, run together on one line.
DROPPED_CLASSES = (
    "jp-InputPrompt",
    "jp-OutputPrompt",
    "lk-controls",
    "lk-playback",
    "lk-notes",
    "zeroclipboard-container",
    "clipboard-copy-txt",
)


def preprocess(soup: Any, output: str) -> None:
    for element in soup.find_all(DROPPED):
        element.decompose()
    for element in soup.find_all(class_=lambda classes: bool(classes) and any(c in DROPPED_CLASSES for c in str(classes).split())):
        element.decompose()
    for chart in soup.find_all("svg"):
        title, desc = chart.find("title"), chart.find("desc")
        words = " ".join(part.get_text(" ", strip=True) for part in (title, desc) if part is not None) or chart.get("aria-label", "")
        if words:
            paragraph = soup.new_tag("p")
            paragraph.append(NavigableString(f"[Chart] {words}"))
            chart.replace_with(paragraph)
    autoclean(soup)


def _fenced(convert_pre: Any) -> Any:
    """markdownify fences every code block with three backticks; a block that shows a page's source
    (the authoring guide's) holds fences of its own, which would close it early and turn the rest of
    the copy inside out. Such a block gets a fence one backtick longer than any inside it."""

    def convert(element: Any, text: str, parent_tags: Any) -> str:
        converted = convert_pre(element, text, parent_tags)
        inner = max((len(run) for run in re.findall(r"`{3,}", text)), default=0)
        if not inner:
            return converted
        fence = "`" * (inner + 1)
        body = converted.strip("\n")
        return f"\n\n{fence}{body[3:-3]}{fence}\n\n"

    return convert


# Once, however many pages the plugin converts: the plugin keeps one converter for the whole build.
if not getattr(llmstxt._converter, "lessonkit_fenced", False):
    llmstxt._converter.convert_pre = _fenced(llmstxt._converter.convert_pre)
    llmstxt._converter.lessonkit_fenced = True
