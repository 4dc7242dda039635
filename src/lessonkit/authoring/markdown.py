"""A Python-Markdown extension that renders claim markers as the number the author wrote.

``[[twenty-three|expr]]`` becomes "twenty-three" in a span whose title tells the reader the
number is checked against the engine; ``[[3.11|-]]`` becomes plain text.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree  # noqa: N813 - the name Python-Markdown uses
from typing import Any

from markdown import Extension, Markdown
from markdown.inlinepatterns import InlineProcessor

from lessonkit.authoring.claims import CLAIM_ATTRIBUTES, MARKER, NOT_A_CLAIM


class ClaimProcessor(InlineProcessor):
    def handleMatch(self, match: Any, data: str) -> tuple[Any, int, int]:  # noqa: N802 (Markdown's API)
        text, expr = match["text"].strip(), match["expr"].strip()
        if expr == NOT_A_CLAIM:
            return text, match.start(0), match.end(0)
        span = etree.Element("span", {**CLAIM_ATTRIBUTES, "title": "Checked against the lesson's engine by the docs tests"})
        span.text = text
        return span, match.start(0), match.end(0)


class ClaimsExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Markdown's API)
        # Below backticks (190) so markers inside inline code stay literal; above links (160).
        md.inlinePatterns.register(ClaimProcessor(MARKER.pattern, md), "lessonkit-claim", 185)


def makeExtension(**kwargs: Any) -> ClaimsExtension:  # noqa: N802 (Markdown's API)
    return ClaimsExtension(**kwargs)
