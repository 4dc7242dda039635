"""Runnable samples: the ```python exec="on" fences that markdown-exec runs at build time.

Sybil's stock Markdown parser matches a fence's info string exactly, so it would skip these; this
lexer finds them with their options, so the tests run the very code the page shows, and the site
hook can mark each one for the in-page editor. Sessions mirror markdown-exec: samples with the
same ``session`` share globals, a sample without one starts fresh.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lessonkit.authoring.prose import line_of

# Top-level fences only: a sample nested in a list or admonition would need its indent stripped.
SAMPLE = re.compile(
    r"^(?P<fence>`{3,}|~{3,})[ \t]*(?:python|py)[ \t]+(?P<info>[^\n]*)\n(?P<code>.*?)^(?P=fence)[ \t]*$",
    re.DOTALL | re.MULTILINE,
)
OPTION = re.compile(r'(?P<key>[\w-]+)="(?P<value>[^"]*)"')
ENABLED = {"on", "1", "true", "yes"}


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


def find_samples(markdown: str) -> list[Sample]:
    """Every Python fence that markdown-exec will execute, in document order."""
    samples = []
    for match in SAMPLE.finditer(markdown):
        options = {option["key"]: option["value"] for option in OPTION.finditer(match["info"])}
        if options.get("exec", "").lower() in ENABLED:
            samples.append(Sample(match["code"], options, match.start(), match.end(), line_of(markdown, match.start())))
    return samples
