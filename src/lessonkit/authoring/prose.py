"""Separating a lesson's prose from what is not prose: front matter, code, HTML and link targets.

Claims and numbers are looked for in prose only. Masking keeps every offset and line break in
place, so a finding still points at the right line of the author's file.
"""

from __future__ import annotations

import re

FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
# A fence opens with three or more backticks or tildes at any indentation and closes with the same run.
# Matched left to right, an outer fence swallows any fence written inside it as an example.
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$",
    re.DOTALL | re.MULTILINE,
)
INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
HTML_TAG = re.compile(r"</?[A-Za-z][^>]*>")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
ATTR_LIST = re.compile(r"\{:?[ \t]*[.#][^}]*\}")


def blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def mask_non_prose(markdown: str) -> str:
    """The document with everything that is not prose replaced by spaces, line breaks kept."""
    for pattern in (FRONT_MATTER, FENCE, INLINE_CODE, HTML_TAG, LINK_TARGET, ATTR_LIST):
        markdown = pattern.sub(blank, markdown)
    return markdown


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
