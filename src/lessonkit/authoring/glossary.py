"""The course's glossary, and linking a term's first use on a page to its definition.

The glossary page (``docs/glossary.md``) is the single source: each term is a third-level heading (second-level ones group them)
with an anchor and, optionally, the other forms a lesson writes it in,

    ### Eviction { #eviction data-forms="evict, evicts, evicted" }

followed by its definition, one paragraph. ``data-link="off"`` keeps an entry from being linked, for
a word whose everyday sense is commoner in prose than the course's. The build links the first use of each term on a lesson
page to its entry, and gives the link the definition's first sentence as its title, which Material
shows as a tooltip on hover and on keyboard focus, and which a screen reader reads as the link's
description. Only the first use is linked: a page where every "window" were a link would read as
a page of links.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from lessonkit.authoring.claims import MARKER

HEADING = re.compile(
    r"^### (?P<term>[^{\n]+?)[ \t]*\{[ \t]*#(?P<anchor>[\w-]+)"
    r'(?:[ \t]+data-forms="(?P<forms>[^"]*)")?(?P<unlinked>[ \t]+data-link="off")?[ \t]*\}[ \t]*\n',
    re.MULTILINE,
)
# Elements whose text is not prose to link: code, headings, links, controls, and the panel, whose
# view the engine redraws (a link there would vanish at the first change of a control).
SKIPPED = {
    "a",
    "code",
    "pre",
    "table",
    "kbd",
    "script",
    "style",
    "svg",
    "button",
    "label",
    "select",
    "option",
    "textarea",
    "summary",
    "abbr",
    "dfn",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "title",
    "figcaption",
}
SKIPPED_CLASSES = (
    "lk-panel",
    "admonition-title",
    "lk-claim",
    "lk-page-meta",
    "lk-api-used",
    "headerlink",
    # A notebook's code and outputs, and the raw code its copy button holds.
    "jp-InputArea",
    "jp-OutputArea",
    "clipboard-copy-txt",
)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
TAG = re.compile(r"<(?P<close>/)?(?P<name>[A-Za-z][\w-]*)(?P<attrs>[^>]*)>|<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class Term:
    """One glossary entry: how it is named, where it is defined, and its definition's first sentence."""

    name: str
    anchor: str
    forms: tuple[str, ...]
    definition: str
    linked: bool = True  # off for a word whose everyday sense is commoner in prose ("claim")

    @property
    def tooltip(self) -> str:
        return f"{self.name}: {self.definition}"


def plain(markdown: str) -> str:
    """Markdown prose as the plain text a tooltip can show: claims as written, no emphasis or link syntax."""
    text = MARKER.sub(lambda match: match["text"].strip(), markdown)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_`]", "", text)
    return " ".join(text.split())


def first_sentence(text: str) -> str:
    match = re.match(r"(.+?[.!?])(?:\s|$)", text)
    return match.group(1) if match else text


def read_glossary(markdown: str, source: str = "docs/glossary.md") -> tuple[Term, ...]:
    """The terms of the glossary page, in the page's order; refuses an entry without a definition
    or a form that two entries claim, naming the entry."""
    terms: list[Term] = []
    headings = list(HEADING.finditer(markdown))
    owner: dict[str, str] = {}
    for index, heading in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(markdown)
        body = markdown[heading.end() : end].strip()
        paragraph = body.split("\n\n", 1)[0].strip()
        name = heading["term"].strip()
        if not paragraph or paragraph.startswith(("#", "```", "!!!")):
            raise ValueError(f"{source}: the entry {name!r} has no definition; write one paragraph under its heading")
        forms = tuple(dict.fromkeys(f.strip().lower() for f in [name, *(heading["forms"] or "").split(",")] if f.strip()))
        for form in forms:
            if form in owner:
                raise ValueError(f"{source}: the entry {name!r} claims the form {form!r}, which {owner[form]!r} already has")
            owner[form] = name
        terms.append(Term(name, heading["anchor"], forms, first_sentence(plain(paragraph)), not heading["unlinked"]))
    return tuple(terms)


def load_glossary(docs: Path) -> tuple[Term, ...]:
    page = docs / "glossary.md"
    return read_glossary(page.read_text(encoding="utf-8"), str(page)) if page.is_file() else ()


def _pattern(terms: tuple[Term, ...]) -> re.Pattern[str]:
    # Longest form first, so "context window" wins over "window"; never inside a longer word or a hyphenated one.
    forms = sorted({form for term in terms for form in term.forms}, key=len, reverse=True)
    alternatives = "|".join(re.escape(form).replace(r"\ ", r"\s+") for form in forms)
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def _skips(name: str, attrs: str) -> bool:
    if name in SKIPPED:
        return True
    classes = re.search(r'class="([^"]*)"', attrs)
    return bool(classes and set(classes.group(1).split()) & set(SKIPPED_CLASSES))


def link_first_uses(page_html: str, terms: tuple[Term, ...], glossary_url: str) -> tuple[str, list[str]]:
    """The page with each term's first use in its prose linked to the glossary; and the terms linked, in order."""
    terms = tuple(term for term in terms if term.linked)
    if not terms:
        return page_html, []
    by_form = {form: term for term in terms for form in term.forms}
    pattern = _pattern(terms)
    linked: list[str] = []
    out: list[str] = []
    # One entry per open element: whether it (or an element around it) is not prose.
    stack: list[tuple[str, bool]] = []
    position = 0

    def link_text(text: str) -> str:
        def replace(match: re.Match[str]) -> str:
            term = by_form[" ".join(match.group(0).lower().split())]
            if term.anchor in linked:
                return match.group(0)
            linked.append(term.anchor)
            title = html.escape(term.tooltip, quote=True)
            return f'<a class="lk-term" href="{html.escape(glossary_url)}#{term.anchor}" title="{title}">{match.group(0)}</a>'

        return pattern.sub(replace, text)

    for tag in TAG.finditer(page_html):
        text = page_html[position : tag.start()]
        out.append(text if (stack and stack[-1][1]) else link_text(text))
        out.append(tag.group(0))
        position = tag.end()
        name = (tag["name"] or "").lower()
        if not name or name in VOID or tag.group(0).endswith("/>"):
            continue
        if tag["close"]:
            # Close up to the matching element: HTML that omits an end tag must not leave text marked as skipped.
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == name:
                    del stack[depth:]
                    break
        else:
            inside = bool(stack and stack[-1][1])
            stack.append((name, inside or _skips(name, tag["attrs"] or "")))
    tail = page_html[position:]
    out.append(tail if (stack and stack[-1][1]) else link_text(tail))
    return "".join(out), linked
