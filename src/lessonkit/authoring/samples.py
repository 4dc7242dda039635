"""Runnable samples: the ```python exec="on" fences that markdown-exec runs at build time.

Sybil's stock Markdown parser matches a fence's info string exactly, so it would skip these; this
lexer finds them with their options, so the tests run the very code the page shows, and the site
hook can mark each one for the in-page editor. Sessions mirror markdown-exec: samples with the
same ``session`` share globals, a sample without one starts fresh.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lessonkit.authoring.prose import FENCE, line_of

LANGUAGE = re.compile(r"\s*(?:python|py)\s")
OPTION = re.compile(r'(?P<key>[\w-]+)="(?P<value>[^"]*)"')
ENABLED = {"on", "1", "true", "yes"}
# Where markdown-exec puts the source decides where the page's editor finds it: the source must
# come first, then the output, as these layouts render them.
EDITABLE_SOURCES = ("above", "block", "material-block")


@dataclass(frozen=True)
class Sample:
    code: str
    options: dict[str, str]
    start: int
    end: int
    line: int

    @property
    def session(self) -> str | None:
        return self.options.get("session") or None

    @property
    def shows_source(self) -> bool:
        return "source" in self.options

    def check_editable(self, where: str) -> None:
        """Refuse a source layout the in-page editor cannot read, naming the layouts it can."""
        layout = self.options.get("source")
        if layout is not None and layout not in EDITABLE_SOURCES:
            allowed = ", ".join(f'source="{name}"' for name in EDITABLE_SOURCES)
            raise ValueError(f'{where}, line {self.line}: a sample with source="{layout}" cannot be edited in the page; use {allowed}')


def find_samples(markdown: str) -> list[Sample]:
    """Every Python fence that markdown-exec will execute, in document order."""
    samples = []
    for fence in FENCE.finditer(markdown):
        # Top-level fences only: a sample nested in a list or admonition would need its indent stripped.
        if fence["indent"] or not LANGUAGE.match(fence["info"] + " "):
            continue
        options = {option["key"]: option["value"] for option in OPTION.finditer(fence["info"])}
        if options.get("exec", "").lower() in ENABLED:
            samples.append(Sample(fence["body"], options, fence.start(), fence.end(), line_of(markdown, fence.start())))
    return samples
