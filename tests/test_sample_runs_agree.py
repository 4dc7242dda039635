"""A page's samples run through lessonkit's runner exactly as through markdown-exec's own.

markdown-exec's stock runner (`_run_python`) keeps its counters and sessions for a whole build;
each page here starts it from reset state, which is the scope lessonkit's runner has (one page).
The same page then runs through the build's path (the site hook's formatter, lessonkit's runner)
and both must print the same text, `__name__` and sessions included, and fail the same way.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import markdown_exec
import pytest
from markdown_exec._internal.formatters import python as stock

from lessonkit.authoring.samples import find_samples
from lessonkit.authoring.site_hooks import BuildPage

DOCS = Path(__file__).resolve().parents[1] / "docs"

PAGE = textwrap.dedent(
    """\
    ```python exec="on" source="above" session="a"
    from dataclasses import dataclass

    @dataclass
    class Budget:
        tokens: int

    print(__name__, Budget(24), Budget.__module__, Budget.__annotations__)
    ```

    ```python exec="on"
    print("sessionless", __name__)
    if __name__ == "__main__":
        print("only when run as a script")
    ```

    ```python exec="on" source="above" session="a"
    print(__name__, Budget(36), sorted(name for name in globals() if not name.startswith("__")))
    ```

    ```python exec="on" session="b" title="Other session"
    import sys
    print(__name__, type(sys.modules[__name__]).__name__, "Budget" in globals())
    ```

    ```python exec="on" id="pinned" session="a"
    print(__name__, Budget(48))
    print("two", "words", sep="-", end="!\\n")
    ```

    ```python exec="on"
    print("fresh", "Budget" in globals(), __name__)
    ```

    ```python exec="on" source="above" session="a"
    def halve(budget):
        return budget.tokens // 0

    print("before the error")
    halve(Budget(24))
    ```

    ```python exec="on"
    print("never closed"
    ```
    """
)


@pytest.fixture
def stock_runner() -> Iterator[None]:
    """markdown-exec's module-wide state, reset for one page and put back afterwards."""
    state = (stock._sessions_globals, stock._sessions_counter, stock._code_blocks)
    saved = [dict(part) for part in state]
    modules = set(sys.modules)
    for part in state:
        part.clear()
    yield
    for part, kept in zip(state, saved, strict=True):
        part.clear()
        part.update(kept)
    for name in set(sys.modules) - modules:
        if name.startswith("_code_block_"):
            del sys.modules[name]


def fence_options(options: dict[str, str]) -> dict:
    """The keyword arguments markdown-exec's formatter passes `run`, read by markdown-exec's own validator."""
    read: dict = {}
    markdown_exec.validator("python", dict(options), read, {}, None)
    return {"returncode": read["returncode"], "session": read["session"], "id": read["id"], **read["extra"]}


def sample_frames(traceback: str) -> str:
    """A traceback without the runner's own frames: markdown-exec's show its internals, lessonkit's don't."""
    kept, in_runner = [], False
    for line in traceback.split("\n"):
        if line.startswith('  File "'):
            in_runner = not line.startswith('  File "<code block: ')
        elif not line.startswith("    "):
            in_runner = False
        if not in_runner and line != "Traceback (most recent call last):":
            kept.append(line)
    return "\n".join(kept)


def outcome(run, code: str, options: dict) -> tuple[str, str]:
    try:
        return "printed", run(code, **options)
    except markdown_exec.ExecutionError as error:
        return "raised", sample_frames(str(error))


def run_both(page: str) -> tuple[list, list]:
    samples = find_samples(page)
    assert samples, "the page has no samples"
    with_stock = [outcome(stock._run_python, s.code, fence_options(s.options)) for s in samples]
    build = BuildPage("page", [s.block_id for s in samples])
    with_lessonkit = [outcome(build.run, s.code, fence_options(s.options)) for s in samples]
    return with_stock, with_lessonkit


def test_a_page_of_samples_prints_and_fails_the_same_through_markdown_exec_and_lessonkit(stock_runner):
    with_stock, with_lessonkit = run_both(PAGE)
    assert with_lessonkit == with_stock
    # What the comparison covers: markdown-exec's names, sessions, print and tracebacks.
    printed = "".join(text for kind, text in with_lessonkit if kind == "printed")
    assert "_code_block_session_a_n1_ Budget(tokens=24) _code_block_session_a_n1_ {'tokens': <class 'int'>}" in printed
    assert "sessionless _code_block_n1_" in printed and "only when run as a script" not in printed
    assert "_code_block_session_a_n2_ Budget(tokens=36) ['Budget', 'dataclass', 'print']" in printed
    assert "_code_block_session_b_n1_title_Other_session_ module False" in printed
    assert "_code_block_id_pinned_ Budget(tokens=48)\ntwo words!" in printed
    assert "fresh False _code_block_n2_" in printed
    (kind, division), (_, syntax) = with_lessonkit[-2:]
    assert kind == "raised" and '"<code block: session a; n4>", line 2, in halve\n    return budget.tokens // 0' in division
    assert '"<code block: n3>", line 1\n    print("never closed"' in syntax and "SyntaxError" in syntax


PAGES_WITH_SAMPLES = [page for page in sorted(DOCS.rglob("*.md")) if find_samples(page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("page", PAGES_WITH_SAMPLES, ids=lambda page: str(page.relative_to(DOCS)))
def test_every_sample_of_a_docs_page_runs_the_same_through_markdown_exec_and_lessonkit(page, stock_runner):
    with_stock, with_lessonkit = run_both(page.read_text(encoding="utf-8"))
    assert with_lessonkit == with_stock
    assert all(kind == "printed" for kind, _ in with_lessonkit)
