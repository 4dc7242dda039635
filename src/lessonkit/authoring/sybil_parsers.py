"""Sybil parsers that check a lesson page: its claims and exercises against the engine, its samples by running them.

A page names its engine in front matter (``engine: lessonkit.lessons.context_compression``); claim expressions are
evaluated in that module's namespace. Samples run through the build's own runner
(``lessonkit.samples``), one per page, each under the block id the build gives it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

from sybil import Document, Example, Region

from lessonkit.authoring.claims import Claim, check_claim, find_claims
from lessonkit.authoring.exercises import Exercise, find_exercises, grade
from lessonkit.authoring.samples import Sample, check_placement, find_samples
from lessonkit.registry import panel
from lessonkit.samples import PageSamples, SampleFailed

# What passed in this test run, by (kind, document path), for the summary line of the test report.
TALLY: Counter[tuple[str, str]] = Counter()

FRONT_MATTER_KEY = re.compile(r"^(?P<key>[\w-]+):[ \t]*(?P<value>.*?)[ \t]*$", re.MULTILINE)


def front_matter(text: str) -> dict[str, str]:
    if not text.startswith("---\n"):
        return {}
    end = text.find("\n---\n", 4)
    return {m["key"]: m["value"] for m in FRONT_MATTER_KEY.finditer(text[4:end])} if end > 0 else {}


def engine_namespace(document: Document) -> dict[str, Any]:
    if "engine" not in document.namespace:
        name = front_matter(document.text).get("engine")
        if not name:
            raise LookupError(f"{document.path}: claims need 'engine: <module>' in the page's front matter")
        # Real tokens too, so a page may claim "T2 is nine tokens in o200k_base" as tokens.count(...);
        # a name the engine defines itself is the engine's.
        document.namespace["engine"] = {"tokens": import_module("lessonkit.tokens"), **vars(import_module(name))}
    return document.namespace["engine"]


def evaluate_claim(example: Example) -> None:
    claim: Claim = example.parsed
    check_claim(claim, engine_namespace(example.document))
    TALLY["claims", example.path] += 1


def parse_claims(document: Document) -> Iterator[Region]:
    for claim in find_claims(document.text):
        if claim.bound:
            yield Region(claim.start, claim.end, claim, evaluate_claim)


def evaluate_exercise(example: Example) -> None:
    # The lesson's panel is named by the page's file, as every lesson is by its id.
    exercise: Exercise = example.parsed
    grade(exercise, engine_namespace(example.document), panel(Path(example.path).stem))
    TALLY["exercises", example.path] += 1


def parse_exercises(document: Document) -> Iterator[Region]:
    for exercise in find_exercises(document.text):
        yield Region(exercise.start, exercise.end, exercise, evaluate_exercise)


def evaluate_sample(example: Example) -> str | None:
    sample: Sample = example.parsed
    page = example.document.namespace.setdefault("samples", PageSamples())
    try:
        page.run(sample.code, sample.block_id, sample.session)  # what it prints is the page's to show
    except SampleFailed as failure:
        return f"the sample raised:\n{failure.traceback}"
    TALLY["samples", example.path] += 1
    return None


def parse_samples(document: Document) -> Iterator[Region]:
    # A sample the build runs but this parser cannot see fails collection, naming its line.
    check_placement(document.text, document.path)
    for sample in find_samples(document.text):
        yield Region(sample.start, sample.end, sample, evaluate_sample)
