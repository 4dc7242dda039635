"""What the browser worker calls: `answer` for every view (parameters in, view out), `count` for a
view's texts in real tokens, `run` for samples, and `rehearse` once the engine is ready; and `warm`,
which the build calls before it takes the engine's snapshot.

Requests and answers are JSON text, so the JavaScript side never touches Python objects and the
same call can later be answered from views the build computed ahead of time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import islice

from lessonkit import checks, tokens
from lessonkit.checks import Refused, json_spelling
from lessonkit.panel import Panel, showcase
from lessonkit.registry import panel, panel_ids
from lessonkit.samples import PageSamples, SampleFailed


def answer(request: str) -> str:
    """`{"lesson": id, "params": {...}, "baseline": {...} or null, "export": true or false}` ->
    `{"ok": true, "view": {...}}` or `{"ok": false, "error": "..."}`; the error names what was
    wrong and what is allowed.

    With `"export": false` the view comes without its export. The page asks so for every change,
    and for the export only when the reader exports: on some lessons the export is two thirds of
    a view's JSON, and writing, sending and reading it at every change was most of the work.
    """
    try:
        asked = json.loads(request)
        if not isinstance(asked, dict) or "lesson" not in asked or "params" not in asked:
            allowed = "an object with 'lesson', 'params' and optionally 'baseline' and 'export'"
            raise Refused("request", asked, allowed, called="a view request", spell=json_spelling)
        with_export = checks.flag("export", asked.get("export", True), called="a view request's 'export'", spell=json_spelling)
        view = answering(asked["lesson"]).view(asked["params"], asked.get("baseline"))
    except ValueError as error:  # every Refused is a ValueError; json's error too
        return json.dumps({"ok": False, "error": str(error)})
    return json.dumps({"ok": True, "view": view.to_json(export=with_export)})


# The panels the engine has answered for, by id. Every request names its panel, and the registry
# finds a panel by listing the lessons folder: done for every view, that was time a reader waited for
# nothing (bench/FINDINGS.md). The wheel the worker runs never gains a lesson, so each id is looked
# up once. The build asks the registry itself, so it finds a lesson an author adds under `mkdocs serve`.
_answering: dict[str, Panel] = {}


def answering(panel_id: object) -> Panel:
    """The panel named `panel_id`, looked up in the registry the first time only.

    Raises:
        lessonkit.checks.Refused: No panel has that name; the message lists those that exist.
    """
    if isinstance(panel_id, str) and panel_id in _answering:
        return _answering[panel_id]
    found = panel(panel_id)  # type: ignore[arg-type]  # the registry refuses anything but a panel's id
    _answering[str(panel_id)] = found
    return found


def count(request: str) -> str:
    """`{"lesson": id, "params": {...}, "encoding": name}` -> what the panel's model reads at those
    settings, counted in real tokens: `{"ok": true, "encoding", "tokens", "what", "teaching", "unit",
    "untexted"}`, or `{"ok": false, "error": "..."}` naming what was wrong and what is allowed.

    Each text is counted on its own and the counts added, as each lesson's fixture table counts its
    items: what a chat format adds around them is no text of the lesson's. The encoding's ranks must
    be readable (the worker provides them before it asks; elsewhere the checkout's are read).
    """
    try:
        asked = json.loads(request)
        if not isinstance(asked, dict) or "lesson" not in asked or "params" not in asked:
            allowed = "an object with 'lesson', 'params' and optionally 'encoding'"
            raise Refused("request", asked, allowed, called="a count request", spell=json_spelling)
        encoding = tokens.encodings.encoding(asked.get("encoding", tokens.DEFAULT)).name
        reading = answering(asked["lesson"]).reading(asked["params"])
        counted = sum(tokens.count(text, encoding) for text in reading.texts)
    except ValueError as error:  # every Refused is a ValueError; json's error too
        return json.dumps({"ok": False, "error": str(error)})
    return json.dumps(
        {
            "ok": True,
            "encoding": encoding,
            "tokens": counted,
            "what": reading.what,
            "teaching": reading.teaching,
            "unit": reading.unit,
            "untexted": reading.untexted,
        }
    )


def warm() -> None:
    """Answer every lesson's opening view once, as a reader's first request would, and drop it.

    The build calls this just before it takes the engine's memory snapshot, so the interpreter a
    reader's browser restores has every fixture read and every engine's first-use work done; its
    first answers are then no slower than the ones after.
    """
    for lesson in panel_ids():
        answer(json.dumps({"lesson": lesson, "params": panel(lesson).defaults()}))


# How many of the demonstration panel's views the worker answers once the engine is ready.
REHEARSED_VIEWS = 100


def rehearse(views: int = REHEARSED_VIEWS) -> Iterator[None]:
    """Answer `views` views of the authors' demonstration panel, one per step, and drop them. The
    worker steps through this once the engine is ready, and answers the reader between steps.

    The snapshot restores an interpreter whose Python has already run (`warm`), but the browser
    compiles and optimises the interpreter's own WebAssembly afresh for each reader, as it runs.
    Restored rather than booted, little of it has run when the engine is ready, and a reader's
    first live answers were the slowest (bench/FINDINGS.md). The demonstration panel runs the
    same interpreter through the platform's views without asking any lesson: no lesson's cache
    holds an answer the reader did not ask for.
    """
    for params in islice(showcase.settings_fullest_first(), views):
        answer(json.dumps({"lesson": showcase.LESSON, "params": params, "export": False}))
        yield


# One runner per page, as the build ran each page's samples. The worker outlives a page when the
# reader follows the site's navigation, so pages are told apart by path: a session of one page
# never sees another page's names.
_pages: dict[str, PageSamples] = {}


def run(code: str, block_id: str, session: str | None = None, page: str = "") -> str:
    """Run a reader-edited sample as the build ran block `block_id` of `page`: `{"output": printed text, "error": traceback or null}`.

    The sample keeps the build's `__name__` and shares its session's globals with the page's other samples.
    """
    try:
        return json.dumps({"output": _pages.setdefault(page, PageSamples()).run(code, block_id, session), "error": None})
    except SampleFailed as failure:
        return json.dumps({"output": failure.output, "error": failure.traceback})
