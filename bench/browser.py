"""The site in Debian's Chromium, measured through what a reader sees and does.

Every page the benchmark opens carries `instrument.js`, which logs, on the page's own clock
(milliseconds since navigation start), each change of a panel's role="status" text, of its
data-engine state and of the samples' notes, and the moment of every control event. The benchmark
acts only as a reader would (Playwright picks controls by role and accessible name, clicks links
and buttons), and compares each status with the engine's answer computed in this process.

Contexts emulate prefers-reduced-motion: reduce, so nothing plays by itself and every status the
page shows is the answer to the last thing the benchmark did.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from playwright.sync_api import Error as PlaywrightError

from bench.pages import Control, PanelPage, Step, after
from lessonkit.authoring import local_site
from lessonkit.authoring.local_site import SiteHandler

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "reference"
INSTRUMENT = (HERE / "instrument.js").read_text(encoding="utf-8")
# The reference page is served beside the site, under a path the build never writes.
BENCH_PREFIX = "/__bench__/"
STEP_TIMEOUT_MS = 30_000
# Nothing plays by itself (prefers-reduced-motion), so every status answers the benchmark's last action.
CONTEXT_OPTIONS = {"reduced_motion": "reduce", "viewport": {"width": 1280, "height": 900}}


class BenchHandler(SiteHandler):
    """The site's own handler (its MIME types), plus the benchmark's reference page under /__bench__/."""

    def translate_path(self, path: str) -> str:
        if urlsplit(path).path.startswith(BENCH_PREFIX):
            site = self.directory
            self.directory = str(REFERENCE)
            try:
                return super().translate_path("/" + path[len(BENCH_PREFIX) :])
            finally:
                self.directory = site
        return super().translate_path(path)


def served(site: Path) -> AbstractContextManager[str]:
    """The site served as the tests serve it, with the benchmark's reference page beside it."""
    return local_site.served(site, BenchHandler)


def runtime_paths(site: Path) -> tuple[str, str]:
    """The site's Pyodide folder and lessonkit wheel, as URL paths: from runtime.json, else by their names."""
    manifest = site / "assets" / "lessonkit" / "runtime.json"
    pyodide, wheel = "/assets/pyodide/", None
    if manifest.is_file():
        data = json.loads(manifest.read_text(encoding="utf-8"))
        base = manifest.parent
        if data.get("pyodide"):
            pyodide = "/" + (base / data["pyodide"]).resolve().relative_to(site.resolve()).as_posix() + "/"
        if data.get("wheel"):
            wheel = "/" + (base / data["wheel"]).resolve().relative_to(site.resolve()).as_posix()
    if wheel is None:
        found = sorted((site / "assets" / "wheels").glob("lessonkit-*.whl"))
        if not found:
            raise FileNotFoundError(f"no lessonkit wheel under {site / 'assets' / 'wheels'}: run `make site` first")
        wheel = "/" + found[-1].relative_to(site).as_posix()
    return pyodide, wheel


# Bytes: what the Python runtime is, by URL. Everything else is the page (HTML, CSS, JS, search index).
RUNTIME_KINDS = (
    ("pyodide", re.compile(r"/assets/pyodide/|/runtime\.json$")),
    ("wheel", re.compile(r"\.whl$|/wheels/")),
    ("snapshot", re.compile(r"snapshot", re.I)),
    ("views", re.compile(r"(^|[/_.-])(pre)?(computed[_.-]?)?views?([/_.-]|$)", re.I)),
)


def kind_of(path: str) -> str:
    for kind, pattern in RUNTIME_KINDS:
        if pattern.search(path):
            return kind
    return "page"


class Traffic:
    """Every response of a context (the page's and its workers'), with its body size."""

    def __init__(self, context: Any, origin: str) -> None:
        self.origin = origin
        self.finished: list[Any] = []
        self.inflight = 0
        self.last_activity = time.monotonic()
        context.on("request", self._started)
        context.on("requestfinished", self._finished)
        context.on("requestfailed", self._failed)

    def _started(self, request: Any) -> None:
        self.inflight += 1
        self.last_activity = time.monotonic()

    def _finished(self, request: Any) -> None:
        self.inflight -= 1
        self.last_activity = time.monotonic()
        self.finished.append(request)

    def _failed(self, request: Any) -> None:
        self.inflight -= 1
        self.last_activity = time.monotonic()

    def quiet(self, page: Any, quiet_s: float = 0.5, limit_s: float = 10.0) -> None:
        """Wait until no request has been open for `quiet_s` (at most `limit_s`)."""
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if self.inflight <= 0 and time.monotonic() - self.last_activity >= quiet_s:
                return
            page.wait_for_timeout(100)

    def summary(self, since: int = 0, cold: bool = True) -> dict[str, Any]:
        """Response body bytes by kind. `cold`: nothing can come from the cache, so a body Chromium
        reports as 0 bytes (a worker's own script) is counted by its Content-Length."""
        by_kind: dict[str, int] = {}
        files = []
        for request in self.finished[since:]:
            if request.method != "GET":
                continue
            size = request.sizes()["responseBodySize"]
            response = request.response()
            if cold and not size and response is not None and response.status == 200:
                size = int(response.headers.get("content-length") or 0)
            size = max(0, size)  # Chromium reports a revalidated (304) response as a negative size
            path = request.url.removeprefix(self.origin)
            kind = kind_of(urlsplit(path).path)
            by_kind[kind] = by_kind.get(kind, 0) + size
            files.append({"path": path, "kind": kind, "bytes": size})
        total = sum(by_kind.values())
        return {"total": total, "without_runtime": by_kind.get("page", 0), "by_kind": by_kind, "files": files}


@dataclass
class Load:
    """One page load, on the page's clock (ms since navigation start)."""

    interactive_ms: float | None = None  # the first change's real result in the status
    changed_ms: float | None = None  # when the reader's first change happened
    engine_ms: float | None = None  # data-engine became ready (or failed: see engine_state)
    engine_state: str | None = None
    sample_ms: float | None = None  # "Run sample 1" printed its output
    bytes: dict[str, Any] | None = None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Browser:
    def __init__(self, playwright: Any, browser: Any, origin: str, site: Path, log: Callable[[str], None]) -> None:
        self.playwright = playwright
        self.browser = browser
        self.origin = origin
        self.site = site
        self.log = log
        self.engine_wait_ms = 60_000

    def context(self) -> Any:
        context = self.browser.new_context(**CONTEXT_OPTIONS)
        context.add_init_script(INSTRUMENT)
        return context

    # -- the reference -------------------------------------------------------------------------

    def reference(self) -> dict[str, Any]:
        pyodide, wheel = runtime_paths(self.site)
        context = self.context()
        try:
            page = context.new_page()
            # Its clock starts at navigation start; when Python waits for the load event changes nothing.
            page.goto(f"{self.origin}{BENCH_PREFIX}index.html?pyodide={quote(pyodide)}&wheel={quote(wheel)}")
            result = page.evaluate(
                "(limit) => Promise.race([window.referenceDone,"
                " new Promise(r => setTimeout(() => r({ok: false, error: 'no answer within the limit', marks: {}}), limit))])",
                120_000,
            )
        finally:
            context.close()
        if not result.get("ok"):
            raise RuntimeError(f"the reference page failed: {result.get('error')}")
        return result

    # -- a reader's actions --------------------------------------------------------------------

    def control(self, page: Any, panel: PanelPage, control: Control) -> Any:
        section = page.locator(f'section.lk-panel[data-lesson="{panel.lesson}"]')
        return section.get_by_role(control.role, name=control.label, exact=True)

    def act(self, page: Any, panel: PanelPage, control: Control, value: Any, timeout: float = STEP_TIMEOUT_MS) -> None:
        """Set `control` to `value` as a reader would: choose the option, tick the box, type or drag."""
        element = self.control(page, panel, control)
        if control.kind == "choice":
            element.select_option(label=control.option_labels[json.dumps(value)], timeout=timeout)
        elif control.kind == "toggle":
            element.set_checked(bool(value), timeout=timeout)
        else:
            element.fill(_number(value), timeout=timeout)

    def arm(self, page: Any, panel: PanelPage, control: Control, value: Any, timeout: float = STEP_TIMEOUT_MS) -> None:
        """Have the page make the reader's first change on `panel` the moment its control appears,
        before the click that brings it: a page swapped in place may show it before Playwright's
        click has even returned. `act_at_once` then waits for it (or, in a new document, acts there)."""
        page.evaluate(
            "(args) => { window.__lkBench.armed = window.__lkBench.actWhenReady(...args); }",
            self._act_args(panel, control, value, timeout),
        )

    def act_at_once(self, page: Any, panel: PanelPage, control: Control, value: Any, timeout: float = STEP_TIMEOUT_MS) -> None:
        """The reader's first change, made in the page the moment the control is there (see
        instrument.js, actWhenReady, for why not through Playwright's own actions). A document
        replaced meanwhile (a link that loads a new page) is asked again."""
        deadline = time.monotonic() + timeout / 1000
        while True:
            try:
                result = page.evaluate(
                    "(args) => { const bench = window.__lkBench; const acting = bench.armed || bench.actWhenReady(...args);"
                    " bench.armed = null; return acting; }",
                    self._act_args(panel, control, value, timeout),
                )
                break
            except PlaywrightError as error:
                if "context was destroyed" not in str(error) or time.monotonic() > deadline:
                    raise
        if result.get("error"):
            raise PlaywrightError(f"{panel.lesson}: {result['error']}")

    @staticmethod
    def _act_args(panel: PanelPage, control: Control, value: Any, timeout: float) -> list[Any]:
        shown = control.option_labels[json.dumps(value)] if control.kind == "choice" else value
        return [panel.lesson, control.name, control.label, control.kind, shown, timeout]

    def _changes(self, page: Any) -> int:
        return page.evaluate("() => window.__lkBench.changes.length")

    def _result(self, page: Any, lesson: str, expected: str, first_change: int, name: str, timeout: float) -> dict[str, Any]:
        """When the status first showed `expected` after the change event (index >= first_change) of control `name`."""
        return page.evaluate(
            """async ([lesson, expected, first, name, timeout]) => {
                const bench = window.__lkBench;
                const change = bench.changes.slice(first).find((event) => event.name === name);
                if (!change) return {error: `no input or change event from control ${name}`};
                const hit = await bench.waitStatus(lesson, expected, change.t, timeout);
                const last = bench.status.filter((entry) => entry.lesson === lesson).pop();
                return {changed: change.t, shown: hit ? hit.t : null, last: last ? last.text : null};
            }""",
            [lesson, expected, first_change, name, timeout],
        )

    def _engine(self, page: Any, lesson: str, timeout: float) -> dict[str, Any] | None:
        """When the panel's engine became ready (or failed). Only a booting engine is waited for: an
        engine that starts only when asked (a sample, a view no table holds) reports its own state."""
        return page.evaluate(
            """([lesson, timeout]) => {
                const bench = window.__lkBench;
                const states = bench.engine.filter((entry) => entry.lesson === lesson);
                const last = states.length ? states[states.length - 1] : null;
                const state = last ? last.state || "none" : "none";
                if (!["booting", "ready", "failed"].includes(state)) return {t: null, state};
                return bench.waitEngine(lesson, ["ready", "failed"], timeout);
            }""",
            [lesson, timeout],
        )

    def _settled(self, page: Any, panel: PanelPage) -> None:
        """After a change whose status cannot be timed: wait until the panel no longer says it is busy."""
        page.wait_for_function(
            """(lesson) => new Promise(resolve => requestAnimationFrame(() => resolve(
                !document.querySelector(`section.lk-panel[data-lesson="${lesson}"] [aria-busy="true"]`))))""",
            arg=panel.lesson,
            timeout=STEP_TIMEOUT_MS,
        )

    def first_result(self, page: Any, panel: PanelPage, since_change: int = 0) -> Load:
        """Make the panel's first change as soon as its control is there; when did the real result show?"""
        control, value = panel.first_change()
        expected = panel.status(after(panel, panel.defaults(), control, value))
        self.act_at_once(page, panel, control, value, timeout=self.engine_wait_ms)
        result = self._result(page, panel.lesson, expected, since_change, control.name, self.engine_wait_ms)
        load = Load(changed_ms=result.get("changed"), interactive_ms=result.get("shown"))
        if load.interactive_ms is None:
            load.error = result.get("error") or f"status never showed {expected!r}; last: {result.get('last')!r}"
        load.extra["first_change"] = f"{control.label} → {_shown_value(control, value)}"
        return load

    # -- measurements --------------------------------------------------------------------------

    def cold(self, panel: PanelPage, then: PanelPage | None = None) -> tuple[Load, Load | None]:
        """A fresh context: navigation start to the first change's real result; engine ready; bytes.
        With `then`, the visit goes on: the page's link to `then` is followed (see `follow`)."""
        context = self.context()
        traffic = Traffic(context, self.origin)
        try:
            page = context.new_page()
            page.goto(self.origin + panel.path, wait_until="commit")
            load = self.first_result(page, panel)
            engine = self._engine(page, panel.lesson, self.engine_wait_ms)
            if engine:
                load.engine_ms, load.engine_state = engine["t"], engine["state"]
            traffic.quiet(page)
            load.bytes = traffic.summary()
            following = None
            if then is not None:
                try:
                    following = self.follow(page, panel, then)
                except PlaywrightError as error:
                    following = Load(error=str(error).strip().splitlines()[0])
            return load, following
        finally:
            context.close()

    def samples(self, panel: PanelPage) -> Load:
        """A fresh context: navigation start until "Run sample 1", clicked as soon as it is there, ran."""
        context = self.context()
        try:
            page = context.new_page()
            page.goto(self.origin + panel.path, wait_until="commit")
            page.get_by_role("button", name="Run sample 1", exact=True).click(timeout=self.engine_wait_ms)
            hit = page.evaluate(
                "(timeout) => window.__lkBench.waitSample('^Sample 1 (ran in your browser|raised an error)', timeout)", self.engine_wait_ms
            )
            load = Load(sample_ms=hit["t"] if hit else None)
            if hit is None:
                notes = page.evaluate("() => (window.__lkBench.samples.at(-1) || {}).text")
                load.error = f"sample 1 did not run; its note says {notes!r}"
            engine = self._engine(page, panel.lesson, 1000) if panel.lesson else None
            if engine:
                load.engine_ms, load.engine_state = engine["t"], engine["state"]
            return load
        finally:
            context.close()

    def interaction(self, panel: PanelPage, steps: list[Step]) -> dict[str, Any]:
        """Once the engine is ready: each step's time from the control's event to its status."""
        context = self.context()
        latencies, errors = [], []
        try:
            page = context.new_page()
            page.goto(self.origin + panel.path)
            engine = self._engine(page, panel.lesson, self.engine_wait_ms)
            if not engine or engine["state"] in ("failed", "booting"):
                return {"error": f"the engine did not become ready ({engine})"}
            for step in steps:
                first = self._changes(page)
                self.act(page, panel, step.control, step.value)
                if step.measured:
                    result = self._result(page, panel.lesson, step.status, first, step.control.name, STEP_TIMEOUT_MS)
                    if result.get("shown") is None:
                        errors.append(f"{step.control.label} → {step.value}: {result.get('error') or result.get('last')}")
                        self._settled(page, panel)
                        continue
                    latencies.append(result["shown"] - result["changed"])
                else:
                    self._settled(page, panel)
        finally:
            context.close()
        return {"latencies_ms": latencies, "errors": errors, "engine_state": engine["state"]}

    def repeat(self, panel: PanelPage) -> Load:
        """A first visit (until its engine is ready), then the same lesson in a new tab of the same context.

        The context has a profile on disk, as a reader's browser has: a context without one keeps
        its HTTP cache in memory, where Chromium does not keep an entry as large as Pyodide's
        WebAssembly, so every "repeat" visit would fetch it again.
        """
        with tempfile.TemporaryDirectory(prefix="lessonkit-bench-profile-") as profile:
            context = local_site.launch_chromium_with_profile(self.playwright, profile, **CONTEXT_OPTIONS)
            context.add_init_script(INSTRUMENT)
            try:
                return self._repeat(context, panel)
            finally:
                context.close()

    def _repeat(self, context: Any, panel: PanelPage) -> Load:
        traffic = Traffic(context, self.origin)
        first = context.pages[0] if context.pages else context.new_page()
        first.goto(self.origin + panel.path, wait_until="commit")
        self.first_result(first, panel)
        self._engine(first, panel.lesson, self.engine_wait_ms)
        traffic.quiet(first)
        before = len(traffic.finished)
        page = context.new_page()
        page.goto(self.origin + panel.path, wait_until="commit")
        load = self.first_result(page, panel)
        engine = self._engine(page, panel.lesson, self.engine_wait_ms)
        if engine:
            load.engine_ms, load.engine_state = engine["t"], engine["state"]
        traffic.quiet(page)
        load.bytes = traffic.summary(before, cold=False)
        return load

    def follow(self, page: Any, first: PanelPage, then: PanelPage) -> Load:
        """The second lesson of a visit: on `first`, click its link to `then` as a reader would; from
        the click until `then`'s first change shows its real result (and until its engine is ready).
        Works whether the link loads a new document or the site swaps pages in place."""
        link = first.link_to(then)
        if link is None:
            return Load(error=f"no link from {first.path} to {then.path}")
        name = link["label"] or link["text"]
        control, value = then.first_change()
        expected = then.status(after(then, then.defaults(), control, value))
        self.arm(page, then, control, value, timeout=self.engine_wait_ms)
        page.get_by_role("link", name=name, exact=True).first.click()
        self.act_at_once(page, then, control, value, timeout=self.engine_wait_ms)
        result = page.evaluate(
            """async ([lesson, expected, name, timeout]) => {
                const bench = window.__lkBench;
                const clickAt = Number(sessionStorage.getItem("lkBenchClickAt"));
                const since = clickAt - performance.timeOrigin;
                const change = bench.changes.find((event) => event.name === name && event.t >= since);
                if (!change) return {error: `no change event from control ${name} after the click`};
                const hit = await bench.waitStatus(lesson, expected, change.t, timeout);
                return {since, changed: change.t, shown: hit ? hit.t : null, navigated: performance.timeOrigin > clickAt};
            }""",
            [then.lesson, expected, control.name, self.engine_wait_ms],
        )
        if result.get("error") or result.get("shown") is None:
            return Load(error=result.get("error") or f"status never showed {expected!r}")
        since = result["since"]
        load = Load(interactive_ms=result["shown"] - since, changed_ms=result["changed"] - since)
        engine = self._engine(page, then.lesson, self.engine_wait_ms)
        if engine:
            load.engine_ms = None if engine["t"] is None else engine["t"] - since
            load.engine_state = engine["state"]
        load.extra.update(full_navigation=result["navigated"], link=name, first_change=f"{control.label} → {_shown_value(control, value)}")
        return load


def _number(value: Any) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _shown_value(control: Control, value: Any) -> str:
    if control.kind == "choice":
        return control.option_labels[json.dumps(value)]
    if control.kind == "time":
        return f"{_number(value)} s"
    return json.dumps(value) if control.kind == "toggle" else _number(value)
