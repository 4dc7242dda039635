"""Collects every claim, exercise and runnable sample in docs/ as a test, and reports how many were checked."""

from pathlib import Path

import pytest
from sybil import Sybil

from lessonkit.authoring.claims import bare_numbers, find_claims
from lessonkit.authoring.exercises import find_exercises
from lessonkit.authoring.sybil_parsers import TALLY, parse_claims, parse_exercises, parse_samples

DOCS = Path(__file__).parent / "docs"

pytest_collect_file = Sybil(parsers=[parse_claims, parse_exercises, parse_samples], patterns=["*.md"], path="docs").pytest()


def pytest_sessionfinish(session):
    # Under pytest-xdist (make test runs two workers, a file to each) the samples run in the workers:
    # each sends its tally to the controller, which reports the sum.
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["lessonkit_tally"] = [[kind, path, count] for (kind, path), count in TALLY.items()]


@pytest.hookimpl(optionalhook=True)  # xdist's hook: only called when it runs
def pytest_testnodedown(node, error):
    for kind, path, count in getattr(node, "workeroutput", {}).get("lessonkit_tally", []):
        TALLY[kind, path] += count


def pytest_terminal_summary(terminalreporter):
    lessons = [page.read_text(encoding="utf-8") for page in sorted((DOCS / "lessons").glob("*.md"))]
    claims = [claim for text in lessons for claim in find_claims(text)]
    bound = sum(claim.bound for claim in claims)
    unbound = sum(len(bare_numbers(text)) for text in lessons)
    exercises = sum(len(find_exercises(text)) for text in lessons)
    # Claims and exercises are counted over the lesson pages, as the totals beside them are; samples over all of docs/.
    where = {"claims": str(DOCS / "lessons"), "exercises": str(DOCS / "lessons"), "samples": str(DOCS)}
    passed = {kind: sum(n for (k, path), n in TALLY.items() if k == kind and path.startswith(where[kind])) for kind in where}
    terminalreporter.write_line(
        f"lessonkit prose: {passed['claims']} of {bound} claims checked against the engine, "
        f"{len(claims) - bound} numbers marked as not claims, {unbound} unmarked, in {len(lessons)} lesson page(s); "
        f"{passed['exercises']} of {exercises} exercises checked; "
        f"{passed['samples']} runnable samples executed"
    )
