"""Runnable samples: the ```python exec="on" fences that markdown-exec runs at build time.

Sybil's stock Markdown parser matches a fence's info string exactly, so it would skip these; this
lexer finds them with their options, so the tests run the very code the page shows, and the site
hook can mark each one for the in-page editor. Each sample carries the block id markdown-exec's
runner gives it on its page (``lessonkit.samples``): it decides the sample's ``__name__``, and
samples with the same ``session`` share globals.

Only top-level fences are samples. markdown-exec also runs a fence nested in a list, an
admonition or a block quote, which the tests would then never see; ``check_placement`` refuses
those, and ```py fences, which this site's markdown-exec does not run, rather than let the build
and the tests disagree in silence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lessonkit.authoring.prose import FENCE, blank, line_of
from lessonkit.samples import PageSamples

LANGUAGE = re.compile(r"\s*(?P<language>python|py)\s")
OPTION = re.compile(r'(?P<key>[\w-]+)="(?P<value>[^"]*)"')
# markdown-exec's own reading of exec="…": every value but these runs the fence.
DISABLED = {"", "no", "off", "false", "0"}
# A fence opening inside a block quote; FENCE only sees fences at the start of a line.
QUOTED_OPENING = re.compile(r"^[ \t]*>[ \t>]*(?:`{3,}|~{3,})(?P<info>[^\n]*)$", re.MULTILINE)
# Where markdown-exec puts the source decides where the page's editor finds it: the source must
# come first, then the output, as these layouts render them.
EDITABLE_SOURCES = ("above", "block", "material-block")
# editable="no": a sample the page shows but does not offer for editing, because its code needs what
# the browser's Python lacks (google-adk, say). It runs at build time and in the tests only. The
# option is lessonkit's: the build takes it out before markdown-exec reads the fence.
EDITABLE = "editable"
EDITABLE_VALUES = ("yes", "no")
EDITABLE_OPTION = re.compile(rf'[ \t]+{EDITABLE}="[^"]*"')


@dataclass(frozen=True)
class Sample:
    code: str
    options: dict[str, str]
    start: int
    end: int
    line: int
    block_id: str  # markdown-exec's "<code block: …>" for this sample on its page

    @property
    def session(self) -> str | None:
        return self.options.get("session") or None

    @property
    def shows_source(self) -> bool:
        return "source" in self.options

    @property
    def editable(self) -> bool:
        """Offered for editing in the page: it shows its source, and does not say editable="no"."""
        return self.shows_source and self.options.get(EDITABLE, "yes") != "no"

    def check_editable(self, where: str) -> None:
        """Refuse a source layout the in-page editor cannot read, naming the layouts it can, and an unknown editable= value."""
        chosen = self.options.get(EDITABLE, "yes")
        if chosen not in EDITABLE_VALUES:
            allowed = " or ".join(f'{EDITABLE}="{value}"' for value in EDITABLE_VALUES)
            raise ValueError(f'{where}, line {self.line}: {EDITABLE}="{chosen}" is not a choice a sample has; use {allowed}')
        if not self.editable:
            return
        layout = self.options.get("source")
        if layout is not None and layout not in EDITABLE_SOURCES:
            allowed = ", ".join(f'source="{name}"' for name in EDITABLE_SOURCES)
            raise ValueError(f'{where}, line {self.line}: a sample with source="{layout}" cannot be edited in the page; use {allowed}')


def without_lessonkit_options(fence: str) -> str:
    """The fence as markdown-exec must read it: its opening line without lessonkit's own options,
    which markdown-exec would hand on to the output's code block and so break it."""
    opening, newline, rest = fence.partition("\n")
    return EDITABLE_OPTION.sub("", opening) + newline + rest


def executed(info: str) -> tuple[str, dict[str, str]] | None:
    """The language and options of a Python fence markdown-exec executes, from its info string."""
    language = LANGUAGE.match(info + " ")
    if not language:
        return None
    options = {option["key"]: option["value"] for option in OPTION.finditer(info)}
    if options.get("exec", "").lower() in DISABLED:
        return None
    return language["language"], options


def find_samples(markdown: str) -> list[Sample]:
    """Every top-level ```python fence that markdown-exec will execute, in page order, with its block id."""
    page, samples = PageSamples(), []
    for fence in FENCE.finditer(markdown):
        found = executed(fence["info"])
        if fence["indent"] or not found or found[0] != "python":
            continue
        options = found[1]
        block = page.next_block_id(options.get("session") or None, options.get("id") or None, options.get("title"))
        samples.append(Sample(fence["body"], options, fence.start(), fence.end(), line_of(markdown, fence.start()), block))
    return samples


def check_placement(markdown: str, where: str) -> None:
    """Refuse every executed fence that is not a top-level ```python fence, naming its line and what is allowed."""
    nested = "the build runs it but the tests cannot collect it"
    problems = []
    for fence in FENCE.finditer(markdown):
        found = executed(fence["info"])
        if found and fence["indent"]:
            problems.append((fence.start(), f"is nested in a list, an admonition or a tab: {nested}"))
        elif found and found[0] != "python":
            problems.append((fence.start(), "is a ```py fence: this site's markdown-exec runs ```python fences only"))
    # Fences were matched left to right, so an example fence written inside another fence is masked here.
    for opening in QUOTED_OPENING.finditer(FENCE.sub(blank, markdown)):
        if executed(opening["info"]):
            problems.append((opening.start(), f"is in a block quote: {nested}"))
    if problems:
        allowed = "samples are top-level ```python fences, neither indented nor quoted"
        raise ValueError(
            "\n".join(f"{where}, line {line_of(markdown, start)}: this executed fence {why}; {allowed}" for start, why in sorted(problems))
        )
