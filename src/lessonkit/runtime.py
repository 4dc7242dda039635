"""What the browser worker calls: `answer` for every view (parameters in, view out), `run` for samples.

Requests and answers are JSON text, so the JavaScript side never touches Python objects and the
same call can later be answered from views the build computed ahead of time.
"""

from __future__ import annotations

import contextlib
import io
import json
import traceback

from lessonkit.panels import panel


def answer(request: str) -> str:
    """`{"lesson": id, "params": {...}, "baseline": {...} or null}` -> `{"ok": true, "view": {...}}`
    or `{"ok": false, "error": "..."}`; the error names what was wrong and what is allowed."""
    try:
        asked = json.loads(request)
        if not isinstance(asked, dict) or "lesson" not in asked or "params" not in asked:
            raise ValueError(f"a view request is an object with 'lesson', 'params' and optionally 'baseline', not {request[:200]}")
        view = panel(asked["lesson"]).view(asked["params"], asked.get("baseline"))
    except ValueError as error:  # ParameterError and FixtureError are ValueErrors; json's error too
        return json.dumps({"ok": False, "error": str(error)})
    return json.dumps({"ok": True, "view": view.to_json()})


# Globals per markdown-exec session name, so samples that share a session at build time share
# them in the page too; a sample without a session always starts from fresh globals.
_sessions: dict[str, dict] = {}


def run(code: str, session: str | None = None) -> str:
    """Execute a reader-edited sample, returning `{"output": printed text, "error": traceback or null}`."""
    namespace = _sessions.setdefault(session, {"__name__": "__main__"}) if session else {"__name__": "__main__"}
    printed = io.StringIO()
    error = None
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            exec(compile(code, "<sample>", "exec"), namespace)
        except BaseException:  # a reader's sample may raise anything, SystemExit included
            error = traceback.format_exc(limit=-1)
    return json.dumps({"output": printed.getvalue(), "error": error})
