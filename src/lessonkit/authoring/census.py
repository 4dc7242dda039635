"""How many numbers the course states, how many of them the tests hold to an engine, and how many exercises it grades.

Counted over the lessons' pages and the Markdown cells of the companion notebooks, at build time,
so "How these lessons work" states the count of the very build a reader is looking at.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from lessonkit.authoring.claims import bare_numbers, find_claims
from lessonkit.authoring.exercises import find_exercises


@dataclass(frozen=True)
class Census:
    pages: int  # lesson pages and notebooks counted
    bound: int  # claims checked against an engine
    marked: int  # numbers marked as not claims ([[3.11|-]])
    unmarked: int  # numbers neither bound nor marked (the tests fail on any in a lesson or notebook)
    exercises: int  # exercises in the lesson pages, each graded by its engine


def prose_of(path: Path) -> list[str]:
    """The prose of a lesson page, or of each Markdown cell of a notebook."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        cells = json.loads(text)["cells"]
        return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]
    return [text]


def census(docs: Path) -> Census:
    pages = sorted([*(docs / "lessons").glob("*.md"), *(docs / "notebooks").glob("*.ipynb")])
    texts = [text for page in pages for text in prose_of(page)]
    claims = [claim for text in texts for claim in find_claims(text)]
    bound = sum(claim.bound for claim in claims)
    exercises = sum(len(find_exercises(page.read_text(encoding="utf-8"))) for page in pages if page.suffix == ".md")
    return Census(len(pages), bound, len(claims) - bound, sum(len(bare_numbers(text)) for text in texts), exercises)


def docs_dir() -> Path:
    """The checkout's docs/, found from this module, so the count is the same whatever the working directory."""
    return Path(__file__).resolve().parents[3] / "docs"
