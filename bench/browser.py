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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from playwright.sync_api import Error as PlaywrightError

from bench.host import BENCH_PREFIX, Ledger, Sent, count
from bench.network import LOOPBACK, Network, emulate
from bench.pages import Control, PanelPage, Step, after
from lessonkit.authoring import local_site

HERE = Path(__file__).resolve().parent
INSTRUMENT = (HERE / "instrument.js").read_text(encoding="utf-8")
STEP_TIMEOUT_MS = 30_000
# Nothing plays by itself (prefers-reduced-motion), so every status answers the benchmark's last action.
# The course's service worker is blocked: once a page's engine is ready it would keep the whole course
# (tens of megabytes) while the next action is timed. What keeping it costs is measured on its own (`keeping`).
CONTEXT_OPTIONS = {"reduced_motion": "reduce", "viewport": {"width": 1280, "height": 900}, "service_workers": "block"}


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


def engine_downloads(site: Path) -> dict[str, int]:
    """What the engine's worker downloads to start, as URL paths, with each file's bytes (runtime.json's `downloads`)."""
    manifest = site / "assets" / "lessonkit" / "runtime.json"
    if not manifest.is_file():
        return {}
    declared = json.loads(manifest.read_text(encoding="utf-8")).get("downloads", {})
    return {_site_path(site, manifest.parent / address): size for address, size in declared.items()}


def engine_snapshot(site: Path) -> set[str]:
    """The URL paths of the build's snapshot, in its parts (runtime.json's `snapshot`), which the worker may leave out."""
    manifest = site / "assets" / "lessonkit" / "runtime.json"
    addresses = json.loads(manifest.read_text(encoding="utf-8")).get("snapshot", []) if manifest.is_file() else []
    return {_site_path(site, manifest.parent / address) for address in addresses}


def _site_path(site: Path, file: Path) -> str:
    return "/" + file.resolve().relative_to(site.resolve()).as_posix()


# Bytes: what the Python runtime is, by URL. Everything else is the page (HTML, CSS, JS, search index).
RUNTIME_KINDS = (
    ("pyodide", re.compile(r"/assets/pyodide/|/runtime\.json$")),
    ("wheel", re.compile(r"\.whl$|/wheels/")),
    ("snapshot", re.compile(r"snapshot", re.I)),
    ("views", re.compile(r"(^|[/_.-])(pre)?(computed[_.-]?)?views?([/_.-]|$)", re.I)),
)


# The Python runtime proper: what a reader who only reads must not download.
PYTHON_RUNTIME = ("pyodide", "wheel", "snapshot")


def course_bytes(site: Path) -> int:
    """The bytes of every file the service worker keeps, as the build listed them in it."""
    from lessonkit.authoring.offline import written_course

    return int(written_course(site)["bytes"])


def kind_of(path: str) -> str:
    for kind, pattern in RUNTIME_KINDS:
        if pattern.search(path):
            return kind
    return "page"


def wire(sent: list[Sent], before_ms: float | None = None) -> dict[str, Any]:
    """What the host sent for one load, counted at the host: body bytes after compression, in all,
    by kind (the Python runtime's parts, or the page), per file, and with `before_ms` (an absolute
    time, ms since the epoch) of the requests that arrived before it."""
    counted = count(sent, None if before_ms is None else before_ms / 1000)
    by_kind: dict[str, int] = {}
    files = []
    for each in sent:
        kind = kind_of(urlsplit(each.path).path)
        by_kind[kind] = by_kind.get(kind, 0) + each.body
        files.append(
            {"path": each.path, "method": each.method, "status": each.status, "kind": kind, "bytes": each.body, "encoding": each.encoding}
        )
    counted.update(without_runtime=by_kind.get("page", 0), by_kind=by_kind, files=files)
    del counted["by_path"]
    return counted


class Traffic:
    """How many requests of a context (the page's and its workers') are open: to wait for quiet."""

    def __init__(self, context: Any) -> None:
        self.inflight = 0
        self.last_activity = time.monotonic()
        context.on("request", self._started)
        context.on("requestfinished", self._ended)
        context.on("requestfailed", self._ended)

    def _started(self, request: Any) -> None:
        self.inflight += 1
        self.last_activity = time.monotonic()

    def _ended(self, request: Any) -> None:
        self.inflight -= 1
        self.last_activity = time.monotonic()

    def quiet(self, page: Any, quiet_s: float = 0.5, limit_s: float = 30.0) -> None:
        """Wait until no request has been open for `quiet_s` (at most `limit_s`)."""
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if self.inflight <= 0 and time.monotonic() - self.last_activity >= quiet_s:
                return
            page.wait_for_timeout(100)


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
    """Measurements on one network at a time (`network`), served by the bench's host (`ledger`
    holds what it sent)."""

    def __init__(
        self,
        playwright: Any,
        browser: Any,
        origin: str,
        site: Path,
        log: Callable[[str], None],
        ledger: Ledger | None = None,
        network: Network = LOOPBACK,
    ) -> None:
        self.playwright = playwright
        self.browser = browser
        self.origin = origin
        self.site = site
        self.log = log
        self.ledger = ledger or Ledger()
        self.network = network
        self.engine_wait_ms = 60_000
        self._sessions: dict[int, Any] = {}

    def context(self, service_workers: str = "block") -> Any:
        context = self.browser.new_context(**{**CONTEXT_OPTIONS, "service_workers": service_workers})
        context.add_init_script(INSTRUMENT)
        return context

    def page(self, context: Any, page: Any = None, save_data: bool = False) -> Any:
        """A page of `context` (a new one, or `page`) on the bench's current network, before it loads anything."""
        page = page or context.new_page()
        session = emulate(context, page, self.network, save_data)
        if session is not None:
            self._sessions[id(page)] = session  # kept while the bench runs: the emulation lives with it
            page.on("close", lambda closed: self._sessions.pop(id(closed), None))
        return page

    def sent_since(self, mark: int) -> list[Sent]:
        return self.ledger.since(mark)

    # -- the reference -------------------------------------------------------------------------

    def reference(self, pyodide: str | None = None, *, module: bool = False) -> dict[str, Any]:
        """The bare boot, with the site's Pyodide or the one served at the URL path `pyodide`; in a
        module worker with `module`."""
        site_pyodide, wheel = runtime_paths(self.site)
        pyodide = pyodide or site_pyodide
        context = self.context()
        mark = self.ledger.mark()
        try:
            page = self.page(context)
            # Its clock starts at navigation start; when Python waits for the load event changes nothing.
            page.goto(
                f"{self.origin}{BENCH_PREFIX}index.html?pyodide={quote(pyodide)}&wheel={quote(wheel)}" + ("&module=1" if module else "")
            )
            result = page.evaluate(
                "(limit) => Promise.race([window.referenceDone,"
                " new Promise(r => setTimeout(() => r({ok: false, error: 'no answer within the limit', marks: {}}), limit))])",
                120_000,
            )
        finally:
            context.close()
        if not result.get("ok"):
            raise RuntimeError(f"the reference page failed: {result.get('error')}")
        result["bytes"] = wire(self.sent_since(mark), result["timeOrigin"] + result["importedAt"])
        result["throttle"] = throttle(result.get("downloads") or [], self.network)
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

    def _progress(self, page: Any, lesson: str, sent: dict[str, Any]) -> dict[str, Any]:
        """The panel's engine download bar during the load: how often it moved, where it ended, its
        total, and what the host sent of the files it counts (runtime.json's `downloads`): their
        bytes as files, which the bar counts, and as sent, after the host's compression. When the
        engine started without the build's snapshot (too slow to be worth it), the bar counts the
        other files only, and what the host sent of the snapshot before the worker stopped it is
        given apart."""
        moves = page.evaluate("(lesson) => window.__lkBench.progress.filter((entry) => entry.lesson === lesson)", lesson)
        answered_by = page.locator(f'section.lk-panel[data-lesson="{lesson}"] .lk-answered-by').first.text_content() or ""
        declared = engine_downloads(self.site)
        left_out = engine_snapshot(self.site) if "without the build's snapshot" in answered_by else set()
        used = {path: size for path, size in declared.items() if path not in left_out}
        gets = [each for each in sent["files"] if each["method"] == "GET"]
        files = [each for each in gets if urlsplit(each["path"]).path in used]
        return {
            "moves": len(moves),
            "last": moves[-1]["value"] if moves else None,
            "total": moves[-1]["max"] if moves else None,
            "declared": sum(used.values()),
            "files_sent": len(files),
            "files_declared": len(used),
            "sent": sum(each["bytes"] for each in files),
            "sent_as_files": sum(used[urlsplit(each["path"]).path] for each in files),
            "snapshot_left_out": bool(left_out),
            # How the engine started, as the panel says it (with the pace the worker saw when it left the snapshot out).
            "answered_by": answered_by.strip(),
            "snapshot_sent": sum(each["bytes"] for each in gets if urlsplit(each["path"]).path in left_out),
        }

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

    def _first_visit(self, context: Any, panel: PanelPage, page: Any = None) -> tuple[Any, float, Load]:
        """A page of `context` (a new one, or `page`) opens `panel`'s lesson: its first change's real
        result, then its engine's ready."""
        control, value = panel.first_change()
        # Armed from the document's start, as the instrument is: asked for after the navigation, the
        # page would hear it only once its main thread was free, after the control had long been there.
        context.add_init_script(
            "(([path, args]) => { const bench = window.__lkBench;"
            " if (location.pathname === path && bench && !bench.armed) bench.armed = bench.actWhenReady(...args); })"
            f"({json.dumps([urlsplit(self.origin + panel.path).path, self._act_args(panel, control, value, self.engine_wait_ms)])})"
        )
        page = self.page(context, page)
        page.goto(self.origin + panel.path, wait_until="commit")
        origin_ms = page.evaluate("() => performance.timeOrigin")
        load = self.first_result(page, panel)
        engine = self._engine(page, panel.lesson, self.engine_wait_ms)
        if engine:
            load.engine_ms, load.engine_state = engine["t"], engine["state"]
        return page, origin_ms, load

    # -- measurements --------------------------------------------------------------------------

    def cold(self, panel: PanelPage, then: PanelPage | None = None) -> tuple[Load, Load | None]:
        """A fresh context: navigation start to the first change's real result; engine ready; bytes.
        With `then`, the visit goes on: the page's link to `then` is followed (see `follow`)."""
        context = self.context()
        traffic = Traffic(context)
        mark = self.ledger.mark()
        try:
            page, origin_ms, load = self._first_visit(context, panel)
            traffic.quiet(page)
            ready = origin_ms + load.engine_ms if load.engine_state == "ready" and load.engine_ms is not None else None
            load.bytes = wire(self.sent_since(mark), ready)
            load.extra["progress"] = self._progress(page, panel.lesson, load.bytes)
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
            page = self.page(context)
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

    def first_count(self, panel: PanelPage) -> Load:
        """A fresh context: once the lesson's engine is ready, the reader presses "Count in real
        tokens". From the press until the panel shows the count (`extra["counted_ms"]`), and what
        the host sent from the press on: the encoding's ranks, which are never part of the engine's
        start and are fetched by this first count."""
        words = panel.spec["words"]
        offered = panel.spec.get("real_tokens")
        if not offered:
            return Load(error=f"the panel {panel.lesson} offers no count in real tokens")
        context = self.context()
        traffic = Traffic(context)
        try:
            page = self.page(context)
            page.goto(self.origin + panel.path, wait_until="commit")
            engine = page.evaluate(
                "([lesson, timeout]) => window.__lkBench.waitEngine(lesson, ['ready', 'failed'], timeout)",
                [panel.lesson, self.engine_wait_ms],
            )
            if not engine or engine["state"] != "ready":
                return Load(error=f"the engine did not become ready ({engine})")
            traffic.quiet(page)  # the visit's own downloads done: what comes after the press is the count's
            section = page.locator(f'section.lk-panel[data-lesson="{panel.lesson}"]')
            button = section.get_by_role("button", name=words["real_tokens"], exact=True)
            # The press and the count's arrival, on the page's own clock: a listener on the button, and
            # an observer of the line the count is written to (its data-tokens).
            button.evaluate(
                """(button) => {
                    const section = button.closest("section.lk-panel");
                    window.__lkCount = new Promise((resolve) => {
                        button.addEventListener("click", () => {
                            const pressed = performance.now();
                            const seen = () => {
                                const line = section.querySelector(".lk-real-count[data-tokens]");
                                if (!line) return false;
                                resolve({ pressed, counted: performance.now(), tokens: Number(line.dataset.tokens) });
                                return true;
                            };
                            if (!seen()) new MutationObserver((_, observer) => seen() && observer.disconnect())
                                .observe(section, { subtree: true, attributes: true, attributeFilter: ["data-tokens"] });
                        }, { once: true });
                    });
                }"""
            )
            mark = self.ledger.mark()
            button.click(timeout=STEP_TIMEOUT_MS)
            hit = page.evaluate(
                "(limit) => Promise.race([window.__lkCount, new Promise((resolve) => setTimeout(() => resolve(null), limit))])",
                self.engine_wait_ms,
            )
            traffic.quiet(page)
            load = Load(engine_ms=engine["t"], engine_state="ready", bytes=wire(self.sent_since(mark)))
            if hit is None:
                load.error = "the count never showed"
                return load
            load.extra.update(counted_ms=hit["counted"] - hit["pressed"], tokens=hit["tokens"], encoding=offered["encoding"])
            return load
        finally:
            context.close()

    def interaction(self, panel: PanelPage, steps: list[Step]) -> dict[str, Any]:
        """Once the engine is ready: each step's time from the control's event to its status."""
        context = self.context()
        latencies, errors = [], []
        try:
            page = self.page(context)
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
        traffic = Traffic(context)
        first, _, _ = self._first_visit(context, panel, context.pages[0] if context.pages else None)
        traffic.quiet(first)
        mark = self.ledger.mark()
        page, origin_ms, load = self._first_visit(context, panel)
        traffic.quiet(page)
        ready = origin_ms + load.engine_ms if load.engine_state == "ready" and load.engine_ms is not None else None
        load.bytes = wire(self.sent_since(mark), ready)
        return load

    def reads(self, panel: PanelPage, quiet_s: float = 3.0) -> Load:
        """A reader who only reads, on a connection that asks to save data: a fresh context with
        `navigator.connection.saveData` on; the page loads, nobody touches it, and once no request
        has been open for `quiet_s` the host's ledger says what it sent: any Python runtime in it was
        downloaded for nothing."""
        context = self.context()
        traffic = Traffic(context)
        mark = self.ledger.mark()
        try:
            page = self.page(context, save_data=True)
            page.goto(self.origin + panel.path, wait_until="load")
            asked = page.evaluate("() => Boolean(navigator.connection && navigator.connection.saveData)")
            traffic.quiet(page, quiet_s=quiet_s, limit_s=max(30.0, self.engine_wait_ms / 1000))
            state = page.evaluate(
                "(lesson) => ((window.__lkBench.engine.filter((entry) => entry.lesson === lesson).pop()) || {}).state || 'none'",
                panel.lesson,
            )
            load = Load(engine_state=state, bytes=wire(self.sent_since(mark)))
            load.extra.update(save_data=asked, quiet_s=quiet_s)
            if not asked:
                load.error = "navigator.connection.saveData stayed false: this Chromium did not take the override"
            return load
        finally:
            context.close()

    def keeping(self, panel: PanelPage, limit_s: float = 300.0) -> Load:
        """The course kept for reading offline after a first visit: a fresh context that allows the
        service worker; the lesson loads and its engine starts, then the page registers the worker,
        which keeps every file of the build. When the course was kept (the worker active), from
        the engine's ready, and what the host sent for it, counted apart from the visit's own bytes:
        every request that arrived after the engine was ready, and the worker's script (which must
        not have been asked for before)."""
        context = self.context(service_workers="allow")
        mark = self.ledger.mark()
        try:
            page, origin_ms, visit = self._first_visit(context, panel)
            if visit.engine_state != "ready" or visit.engine_ms is None:
                return Load(error=f"the engine did not start ({visit.engine_state})")
            load = Load(engine_ms=visit.engine_ms, engine_state="ready")
            # Kept once a worker is active; a fill that fails says why in the worker's message.
            kept = page.evaluate(
                """(limit) => Promise.race([
                    navigator.serviceWorker.ready.then(() => performance.now()),
                    new Promise((resolve) => navigator.serviceWorker.addEventListener("message", (event) => {
                        if (event.data && event.data.state === "failed") resolve(event.data.reason);
                    })),
                    new Promise((resolve) => setTimeout(() => resolve(null), limit)),
                ])""",
                limit_s * 1000,
            )
            if not isinstance(kept, (int, float)):
                waited = f"within {limit_s:.0f} s of the engine's ready"
                load.error = f"the course was not kept: {kept}" if kept else f"the course was not kept {waited}"
                return load
            ready_s = (origin_ms + visit.engine_ms) / 1000
            sent = self.sent_since(mark)
            worker = [each for each in sent if urlsplit(each.path).path.endswith("/service-worker.js")]
            worker_early = [each.path for each in worker if each.arrived < ready_s]
            after = [each for each in sent if each.arrived >= ready_s]
            load.bytes = wire(after)
            load.extra.update(
                kept_ms=kept,
                after_ready_ms=kept - visit.engine_ms,
                files=len({urlsplit(each.path).path for each in after if each.method == "GET"}),
                asked_before_ready=worker_early,
                course_bytes=course_bytes(self.site),
            )
            return load
        finally:
            context.close()

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
        mark = self.ledger.mark()
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
                return {since, clickAt, changed: change.t, shown: hit ? hit.t : null, navigated: performance.timeOrigin > clickAt};
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
        ready = result["clickAt"] + load.engine_ms if load.engine_state == "ready" and load.engine_ms is not None else None
        load.bytes = wire(self.sent_since(mark), ready)
        load.extra.update(full_navigation=result["navigated"], link=name, first_change=f"{control.label} → {_shown_value(control, value)}")
        return load


def throttle(downloads: list[dict[str, Any]], network: Network) -> dict[str, Any] | None:
    """Whether the emulated network paced the reference worker's own downloads: the time from its
    first request to its last response's end, against the least time their bytes take at the
    network's throughput. None on loopback, where nothing is emulated."""
    if not network.emulated or not downloads:
        return None
    size = sum(int(each.get("encoded") or 0) for each in downloads)
    took_ms = max(each["end"] for each in downloads) - min(each["start"] for each in downloads)
    least_ms = network.least_seconds(size) * 1000
    return {"bytes": size, "took_ms": took_ms, "least_ms": least_ms, "paced": took_ms >= 0.9 * least_ms}


def _number(value: Any) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _shown_value(control: Control, value: Any) -> str:
    if control.kind == "choice":
        return control.option_labels[json.dumps(value)]
    if control.kind == "time":
        return f"{_number(value)} s"
    return json.dumps(value) if control.kind == "toggle" else _number(value)
