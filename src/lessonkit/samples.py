"""Running a page's samples the way markdown-exec runs them, so the build, the page and the tests agree.

markdown-exec (1.12.6, ``formatters/python.py``) gives every executed block an id, runs it as a
module named after that id, and shares globals between blocks of the same ``session``. A sample
that prints ``__name__`` or guards code with ``if __name__ == "__main__":`` sees those semantics,
so the reader's page and the tests must run samples with the very same ones. This module is that
one runner: the build routes markdown-exec's Python formatter to it, Sybil runs the docs through
it, and the browser worker runs the reader's edits through it (standard library only: it runs
under Pyodide too).

Its scope is one page. markdown-exec counts blocks and keeps sessions across a whole build, so
there a block's name would depend on every page built before it, which the reader's page cannot
know; here counters and sessions start afresh for each page. The build writes each sample's id
into the page, and the page runs the reader's edit under that id.
"""

from __future__ import annotations

import re
import sys
import traceback
from collections import Counter
from functools import partial
from io import StringIO
from types import ModuleType
from typing import Any

# markdown-exec names its blocks "<code block: …>"; tracebacks show the sample's lines for these.
BLOCK_PREFIX = "<code block: "


class SampleFailed(Exception):
    """A sample raised: ``traceback`` shows the sample's own frames and lines, ``output`` what it printed first."""

    def __init__(self, traceback: str, output: str) -> None:
        super().__init__(traceback)
        self.traceback = traceback
        self.output = output


def block_id(number: int, *, session: str | None = None, id: str | None = None, title: str | None = None) -> str:
    """markdown-exec's id for the ``number``-th block of ``session`` (or of no session) on the page."""
    if id:
        name = f"id {id}"
    elif session:
        name = f"session {session}; n{number}" + (f"; title {title}" if title else "")
    else:
        name = f"n{number}" + (f"; title {title}" if title else "")
    return f"{BLOCK_PREFIX}{name}>"


def module_name(block: str) -> str:
    """The ``__name__`` a block runs under: its id with every run of other characters made ``_``."""
    return re.sub(r"[^a-zA-Z\d]+", "_", block)


def _buffered_print(buffer: StringIO, *texts: Any, end: str = "\n", **ignored: Any) -> None:
    # markdown-exec's print: `sep`, `file` and `flush` are ignored, so they are here too.
    buffer.write(" ".join(str(text) for text in texts) + end)


class PageSamples:
    """The samples of one page: their block ids in page order, their sessions, and running them."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self._sessions: dict[str, dict[str, Any]] = {}
        self._lines: dict[str, list[str]] = {}

    def next_block_id(self, session: str | None = None, id: str | None = None, title: str | None = None) -> str:
        """Count the page's next executed block and return its id (an ``id`` block counts in its session too)."""
        self._counts[session or ""] += 1
        return block_id(self._counts[session or ""], session=session, id=id, title=title)

    def run(self, code: str, block: str, session: str | None = None) -> str:
        """Run ``code`` as block ``block`` in ``session``'s globals (fresh ones without); return what it printed.

        Raises ``SampleFailed`` when the sample raises, SystemExit included: a sample's exit is the
        sample's failure, never the build's or the page's. KeyboardInterrupt still stops the build.
        """
        self._lines[block] = code.split("\n")
        namespace = self._sessions.setdefault(session, {}) if session else {}
        # As markdown-exec: a module of the block's name in sys.modules, because libraries look a
        # definition's module up there (dataclasses does).
        name = module_name(block)
        namespace["__name__"] = name
        sys.modules[name] = ModuleType(name)
        printed = StringIO()
        namespace["print"] = partial(_buffered_print, printed)
        try:
            # dont_inherit: this module's `from __future__ import annotations` is not the sample's.
            exec(compile(code, block, "exec", dont_inherit=True), namespace)  # noqa: S102
        except (Exception, SystemExit) as error:
            raise SampleFailed(self._traceback(error), printed.getvalue()) from error
        return printed.getvalue()

    def _traceback(self, error: BaseException) -> str:
        trace = traceback.TracebackException.from_exception(error)
        # The reader's frames start at the sample: this runner's own frame is not theirs to read.
        while trace.stack and not trace.stack[0].filename.startswith(BLOCK_PREFIX):
            del trace.stack[0]
        # Samples have no file linecache could read, so each frame gets its line from the code that ran.
        for frame in trace.stack:
            lines = self._lines.get(frame.filename)
            if lines is not None and frame.lineno is not None and 0 < frame.lineno <= len(lines):
                if sys.version_info >= (3, 13):
                    frame._lines = lines[frame.lineno - 1]  # type: ignore[attr-defined]
                else:
                    frame._line = lines[frame.lineno - 1]  # type: ignore[attr-defined]
        return "".join(trace.format())
