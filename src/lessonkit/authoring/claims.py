"""Claims: numbers in a lesson's prose bound to the engine that must produce them.

An author writes ``[[twenty-three|replay(24, "evict").at(30).tokens]]``: the page shows
"twenty-three", and the docs tests evaluate the expression and compare. ``[[3.11|-]]`` marks a
number that is deliberately not a claim (a version, a count of things in the prose). Every other
number in a lesson's prose, in digits or English words, is reported as unbound.

Lexing (finding markers and bare numbers), parsing (reading "twenty-three" as 23) and evaluating
(running the expression) are separate steps, so each can be tested and explained on its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lessonkit.authoring.prose import blank, line_of, mask_non_prose

NOT_A_CLAIM = "-"
MARKER = re.compile(r"\[\[(?P<text>[^\[\]|\n]+?)\|(?P<expr>[^\n]+?)\]\](?!\])")

# A claim's number is shown in a span whose title says, on hover, that it is checked. The browser's
# own tooltip shows it: the theme's tooltips (content.tooltips, meant for the glossary's terms) would
# mount one of their own for every claim, dozens on a lesson, each costing the theme's start-up on
# every load (bench/FINDINGS.md). The theme mounts none on an element marked data-preview, which on
# anything but a link means nothing else to it.
CLAIM_ATTRIBUTES = {"class": "lk-claim", "data-preview": ""}

UNITS = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen".split()
    )
}
TENS = {word: 10 * (index + 2) for index, word in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
SCALES = {"hundred": 100, "thousand": 1000}
_WORD = "|".join(sorted([*UNITS, *TENS, *SCALES], key=len, reverse=True))
# "twenty-three", "one hundred and five", "7.5", "1,000": one number each, never part of a word or an ID like T2.
NUMBER = re.compile(
    rf"(?<![\w.])(?:\d+(?:,\d{{3}})*(?:\.\d+)?|(?:{_WORD})(?:(?:-|\s+(?:and\s+)?)(?:{_WORD}))*)(?![\w])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Claim:
    """One ``[[text|expr]]`` marker in a document."""

    text: str
    expr: str
    start: int
    end: int
    line: int

    @property
    def bound(self) -> bool:
        return self.expr.strip() != NOT_A_CLAIM


@dataclass(frozen=True)
class BareNumber:
    text: str
    line: int


def find_claims(markdown: str) -> list[Claim]:
    """Every claim marker in the prose of `markdown`, in order."""
    prose = mask_non_prose(markdown)
    return [
        Claim(match["text"].strip(), match["expr"].strip(), match.start(), match.end(), line_of(markdown, match.start()))
        for match in MARKER.finditer(prose)
    ]


def bare_numbers(markdown: str) -> list[BareNumber]:
    """Numbers in the prose that no marker binds or excuses."""
    prose = MARKER.sub(blank, mask_non_prose(markdown))
    return [BareNumber(match.group(0), line_of(markdown, match.start())) for match in NUMBER.finditer(prose)]


def parse_number(text: str) -> float:
    """The value of a number as a reader sees it: "23", "7.5", "1,000" or "twenty-three"."""
    cleaned = text.strip().lower()
    if re.fullmatch(r"\d+(?:,\d{3})*(?:\.\d+)?", cleaned):
        return float(cleaned.replace(",", ""))
    words = [word for word in re.split(r"[-\s]+", cleaned) if word and word != "and"]
    if not words:
        raise ValueError(f"{text!r} is not a number; write digits such as 23 or words such as twenty-three")
    total = current = 0
    for word in words:
        if word in UNITS:
            current += UNITS[word]
        elif word in TENS:
            current += TENS[word]
        elif word in SCALES:
            current = max(current, 1) * SCALES[word]
            if SCALES[word] >= 1000:
                total, current = total + current, 0
        else:
            raise ValueError(f"{text!r} is not a number; write digits such as 23 or words such as twenty-three")
    return float(total + current)


class ClaimMismatch(AssertionError):
    pass


def check_claim(claim: Claim, namespace: Mapping[str, Any]) -> float:
    """Evaluate the claim's expression and require the prose to state its value; returns the value."""
    stated = parse_number(claim.text)
    actual = eval(claim.expr, dict(namespace))  # the expression is the author's, from the lesson file
    if isinstance(actual, bool) or not isinstance(actual, (int, float)):
        raise ClaimMismatch(f"line {claim.line}: {claim.expr} gave {actual!r}, which is not a number, for {claim.text!r}")
    if not math.isclose(stated, actual, rel_tol=0, abs_tol=1e-9):
        raise ClaimMismatch(f"line {claim.line}: the prose says {claim.text!r} ({stated:g}) but {claim.expr} is {actual!r}")
    return actual


def iter_bound(claims: list[Claim]) -> Iterator[Claim]:
    return (claim for claim in claims if claim.bound)
