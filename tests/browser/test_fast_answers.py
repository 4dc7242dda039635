"""A reader never waits for Python where the build could answer, and the engine outlives a page.

- A panel whose settings are a finite set answers from the views the build computed, before
  Pyodide is up, and says which engine answered. The page asks for those views once, from its head.
- On any other panel, the build computed the views of a reader's first change, and they answer it
  the same way.
- Following the site's navigation keeps the page's worker: the next lesson's panel is live at once,
  and Python, already running, answers it without the build's views. The page left behind keeps
  nothing running: no listener on the window, no timeline playing.
- Once ready, the engine rehearses on the authors' demonstration (lessonkit.runtime.rehearse), and
  a reader's change that was waiting for Python is answered first.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from playwright.sync_api import expect

from lessonkit.registry import panel, panel_ids
from lessonkit.runtime import REHEARSED_VIEWS
from tests.browser.harness import ENGINE_BOOT_MS, RUNTIME, PanelPage, hold_back_the_engine, open_panel, wait_for_engine

FINITE = sorted(lesson for lesson in panel_ids() if panel(lesson).finite)


@pytest.mark.parametrize("lesson", FINITE)
def test_a_finite_panel_answers_from_the_builds_views_while_python_is_still_starting(open_context, panel_paths, lesson):
    context = open_context()
    # The runtime never arrives, so Python never starts: only the build's views can answer.
    hold_back_the_engine(context)
    spec = panel(lesson)
    panel_page = open_panel(context.new_page(), lesson, panel_paths[lesson], engine=False)
    expect(panel_page.panel).to_have_attribute("data-engine", "booting")

    choice = next(control for control in spec.controls if hasattr(control, "options"))
    other = next(option for option in reversed(choice.options) if option.value != choice.default)
    panel_page.choose(choice.label, other.label)

    panel_page.expect_view(spec.view({**spec.defaults(), choice.name: other.value}))
    expect(panel_page.panel).to_have_attribute("data-answered-by", "build")
    expect(panel_page.panel.locator(".lk-answered-by")).to_have_text(spec.words.answered_by_build)
    expect(panel_page.panel).to_have_attribute("data-engine", "booting")
    context.unroute(RUNTIME)


# The view box shows exactly `html`: both parsed by the page's own parser, so no serializing differs.
SHOWS_VIEW = """([lesson, html]) => {
  const box = document.querySelector(`section.lk-panel[data-lesson="${lesson}"] .lk-view`);
  const parsed = document.createElement("div");
  parsed.innerHTML = html;
  return box !== null && box.innerHTML === parsed.innerHTML;
}"""


def answered_by_the_build_before_python(lesson: PanelPage, change: dict) -> None:
    """The panel shows the view of the starting setting with `change`, answered by the build while
    Python is still starting: its status and its view, no view still awaited (a setting no table
    held would leave the page saying it updates when Python is ready), and which engine answered."""
    spec = lesson.spec
    view = spec.view({**spec.defaults(), **change})
    lesson.expect_view(view)
    lesson.page.wait_for_function(SHOWS_VIEW, arg=[spec.lesson, view.html])
    expect(lesson.panel.locator(".lk-engine")).to_have_text(spec.words.engine_downloading)
    expect(lesson.panel.locator(".lk-answered-by")).to_have_text(spec.words.answered_by_build)
    expect(lesson.panel).to_have_attribute("data-answered-by", "build")
    expect(lesson.panel).to_have_attribute("data-engine", "booting")


def test_a_first_change_on_any_lesson_is_answered_by_the_builds_views_while_python_is_still_starting(open_context, panel_paths):
    # Lessons whose settings have no end: the build computed the views one change from the start.
    # Reduced motion, so working memory's timeline only moves when the reader moves it.
    context = open_context(reduced_motion="reduce")
    # Pyodide, the snapshot and the wheel never arrive, as on a slow link: Python cannot start.
    hold_back_the_engine(context)
    tab = context.new_page()

    memory = open_panel(tab, "working-memory", panel_paths["working-memory"], engine=False)
    memory.control("spinbutton", "Maximum age").fill("24")  # a number typed: each of its values is there
    answered_by_the_build_before_python(memory, {"max_age_hours": 24})
    memory.control("spinbutton", "Maximum age").fill("168")  # back to the start
    memory.choose("Question", "How do we roll back a failed checkout release?")
    answered_by_the_build_before_python(memory, {"question": "rollback"})
    # For a reader without reduced motion a change here plays the timeline: its marks are there too.
    memory.button(memory.spec.playback.next).click()
    answered_by_the_build_before_python(memory, {"question": "rollback", "time": 10})

    compaction = open_panel(tab, "context-compaction", panel_paths["context-compaction"], engine=False)
    compaction.control("spinbutton", "after_tokens").fill("5000")  # a round number, where a reader can type any
    answered_by_the_build_before_python(compaction, {"after_tokens": 5000})
    compaction.control("spinbutton", "after_tokens").fill("3000")  # back to the start, which rewinds
    compaction.seek(12)  # a reader scrubbing the timeline first
    answered_by_the_build_before_python(compaction, {"time": 12})
    context.unroute(RUNTIME)


WORKER = re.compile(r".*/assets/lessonkit/worker\.js$")
VIEWS = re.compile(r".*/assets/lessonkit/views/[^/]+\.json\.gz$")


@pytest.mark.parametrize("lesson", FINITE)
def test_a_page_asks_for_its_precomputed_views_once_from_its_head_and_answers_from_them(open_context, panel_paths, lesson):
    context = open_context()
    hold_back_the_engine(context)  # Python never starts: the head's request must serve
    asked = []
    context.on("request", lambda request: asked.append(request.url) if VIEWS.match(request.url) else None)
    spec = panel(lesson)
    panel_page = open_panel(context.new_page(), lesson, panel_paths[lesson], engine=False)
    choice = next(control for control in spec.controls if hasattr(control, "options"))
    other = next(option for option in reversed(choice.options) if option.value != choice.default)
    panel_page.choose(choice.label, other.label)
    panel_page.expect_view(spec.view({**spec.defaults(), choice.name: other.value}))
    expect(panel_page.panel).to_have_attribute("data-answered-by", "build")
    assert len(asked) == 1, f"the views were asked for {len(asked)} times: {asked}"
    # Asked for by the head's script (early.js), whose request the shell took over.
    assert panel_page.page.evaluate("() => [...(window.lessonkitEarly?.views || new Map()).keys()]") == asked
    context.unroute(RUNTIME)


def follow_link(page, name: str, path: str) -> None:
    """Follow the page's first link named `name`, and wait until the address is `path`."""
    page.get_by_role("link", name=name).first.click()
    expect(page).to_have_url(re.compile(re.escape(path) + "$"))


def summarize_in_the_next_lesson(page, panel_paths) -> PanelPage:
    """Follow the page's link to Context compression, in place, and choose to summarize there once
    its engine runs; the lesson, showing the engine's view of it."""
    page.evaluate("() => { window.__sameDocument = true; }")
    follow_link(page, "Context compression", panel_paths["context-compression"])
    spec = panel("context-compression")
    lesson = PanelPage(page, spec)
    expect(lesson.panel).to_have_attribute("data-engine", "ready")
    assert page.evaluate("() => window.__sameDocument") is True, "the site reloaded instead of navigating in place"
    lesson.choose("Policy", "Summarize older turns")
    lesson.expect_view(spec.view({**spec.defaults(), "policy": "summarize"}))
    return lesson


def test_the_engine_runs_in_the_worker_the_pages_head_started_and_the_next_lesson_answers_from_views_it_read(page, panel_paths):
    started = []
    page.on("request", lambda request: started.append(request.url) if WORKER.match(request.url) else None)
    # Working memory names the views of the lesson after it; once Python runs, the page reads them
    # into the engine, which the site's navigation keeps: the next lesson answers from memory.
    asked = []
    page.on("request", lambda request: asked.append(request.url) if VIEWS.match(request.url) else None)
    memory = open_panel(page, "working-memory", panel_paths["working-memory"])
    assert len(started) == 1, f"{len(started)} workers were started: {started}"
    # Adopted by the shell, with the messages it sent before the shell ran (its "ready" among them).
    assert page.evaluate("() => window.lessonkitEarly ? window.lessonkitEarly.engine : 'no worker started by the head'") is None
    expect(memory.panel).to_have_attribute("data-neighbour-views-read", "context-compression", timeout=10_000)
    lesson = summarize_in_the_next_lesson(page, panel_paths)
    expect(lesson.panel).to_have_attribute("data-answered-by", "build")
    read_ahead = [url for url in asked if url.endswith("/views/context-compression.json.gz")]
    assert len(read_ahead) == 1, f"the views were fetched {len(read_ahead)} times: {asked}"
    assert len(started) == 1, f"following the navigation started another worker: {started}"


def test_a_finite_panel_whose_views_were_not_read_ahead_is_answered_live_once_python_runs(page, panel_paths):
    # Reached from a page that names none of its views (the authors' guide), with Python running:
    # the live engine answers at once, and the table, which would only hold up the page, is not fetched.
    open_panel(page, "control-kinds", panel_paths["control-kinds"])
    asked = []
    page.on("request", lambda request: asked.append(request.url) if VIEWS.match(request.url) else None)
    lesson = summarize_in_the_next_lesson(page, panel_paths)
    expect(lesson.panel).to_have_attribute("data-answered-by", "live")
    # Its neighbours' tables it may read ahead, once Python runs; its own it does not need.
    own = [url for url in asked if url.endswith("/views/context-compression.json.gz")]
    assert own == [], f"the lesson fetched views it did not need: {asked}"


def test_a_lesson_reached_by_the_navigation_links_its_stylesheet_which_the_page_before_had_not(open_context, panel_paths):
    # The authors' guide links no lesson's stylesheet, and the site's navigation does not reload
    # the head: the shell links the one the lesson's section names. Its engine plays no part.
    context = open_context()
    hold_back_the_engine(context)
    page = context.new_page()
    open_panel(page, "control-kinds", panel_paths["control-kinds"], engine=False)
    sheet = "/assets/lessonkit/" + panel("context-compression").stylesheet
    loaded = "(sheet) => [...document.styleSheets].some((each) => each.href && new URL(each.href).pathname.endsWith(sheet))"
    assert page.evaluate(loaded, sheet) is False
    page.evaluate("() => { window.__sameDocument = true; }")
    follow_link(page, "Context compression", panel_paths["context-compression"])
    expect(PanelPage(page, panel("context-compression")).panel).to_be_visible()
    assert page.evaluate("() => window.__sameDocument") is True, "the site reloaded instead of navigating in place"
    page.wait_for_function(loaded, arg=sheet)
    context.unroute(RUNTIME)


def test_a_setting_outside_the_builds_views_is_answered_live_and_says_so(reader, panel_paths):
    spec = panel("control-kinds")
    panel_page = reader.visit(spec.lesson, panel_paths[spec.lesson])
    # Two changes from the start: the build computed the views of one.
    panel_page.choose("Turn size", "Large turns (12 tokens)")
    panel_page.control("slider", "Window budget").fill("64")
    panel_page.expect_view(spec.view({**spec.defaults(), "turn_size": 12, "budget": 64}))
    expect(panel_page.panel).to_have_attribute("data-answered-by", "live")
    expect(panel_page.panel.locator(".lk-answered-by")).to_contain_text(
        "Answered by this lesson's Python engine, running in your browser (Pyodide"
    )


def test_following_the_navigation_keeps_the_engine_and_the_next_panel_is_live_at_once(reader, panel_paths):
    lesson = reader.visit("context-compression", panel_paths["context-compression"])
    page = lesson.page
    page.evaluate("() => { window.__sameDocument = true; }")

    follow_link(page, "For authors", panel_paths["control-kinds"])
    authors = PanelPage(page, panel("control-kinds"))
    expect(authors.panel).to_have_attribute("data-engine", "ready", timeout=5_000)
    assert page.evaluate("() => window.__sameDocument") is True, "the site reloaded instead of navigating in place"
    authors.control("slider", "Window budget").fill("64")
    authors.expect_view(panel("control-kinds").view({**panel("control-kinds").defaults(), "budget": 64}))

    # Back to the lesson by its link: its own stylesheet is linked although the head was not reloaded.
    page.get_by_role("link", name="Context compression").first.click()
    wait_for_engine(lesson)
    assert page.evaluate("() => window.__sameDocument") is True
    sheets = page.evaluate("() => [...document.querySelectorAll('link[rel=stylesheet]')].map(link => link.href)")
    assert any(sheet.endswith("/assets/lessonkit/lessons/context-compression.css") for sheet in sheets), sheets


# The panel's data-answered-by and data-engine-rehearsed, each value in the order the page set it.
RECORD_ANSWERED_AND_REHEARSED = """(section) => {
  window.__marks = [];
  new MutationObserver((records) => {
    for (const record of records) window.__marks.push(`${record.attributeName}=${section.getAttribute(record.attributeName)}`);
  }).observe(section, { attributes: true, attributeFilter: ["data-answered-by", "data-engine-rehearsed"] });
}"""


def test_a_change_that_waited_for_python_is_answered_before_the_engine_rehearses(open_context, panel_paths):
    context = open_context()
    hold_back_the_engine(context)
    spec = panel("working-memory")
    lesson = open_panel(context.new_page(), spec.lesson, panel_paths[spec.lesson], engine=False)
    # The build holds the views of every first change: the second waits for Python.
    lesson.choose("Active tenant", "Team B")
    question = next(control for control in spec.controls if control.name == "question")
    other = next(option for option in question.options if option.value != question.default)
    lesson.choose(question.label, other.label)
    lesson.panel.evaluate(RECORD_ANSWERED_AND_REHEARSED)

    context.unroute(RUNTIME)
    lesson.expect_view(spec.view({**spec.defaults(), "tenant": "team-b", "question": other.value}))
    expect(lesson.panel).to_have_attribute("data-engine-rehearsed", str(REHEARSED_VIEWS), timeout=ENGINE_BOOT_MS)
    # Answered once Python was ready, before the rehearsal's first step: not after all of them.
    marks = lesson.page.evaluate("() => window.__marks")
    assert marks.index("data-answered-by=live") < marks.index(f"data-engine-rehearsed={REHEARSED_VIEWS}"), marks


SNAPSHOT = re.compile(r".*/assets/snapshots/lessonkit\.snapshot\.\d+\.gz$")


def test_the_engine_restores_the_builds_snapshot_and_still_reads_files_it_had_not_read(reader, panel_paths):
    lesson = reader.visit("context-compression", panel_paths["context-compression"])
    page = lesson.page
    expect(lesson.panel.locator(".lk-answered-by")).to_contain_text("restored from the build's snapshot")

    # A module the snapshot never imported, reading its fixture: the wheel's files are back.
    page.get_by_role("button", name="Edit sample 1", exact=True).click()
    code = page.get_by_role("textbox", name="Code of sample 1", exact=True)
    code.fill("from lessonkit.lessons import working_memory\nprint(len(working_memory.lesson().records), 'records')\n")
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(page.locator(".lk-sample").first.locator(".result")).to_have_text("10 records")


def test_a_sample_may_import_what_the_engines_standard_library_left_out(reader, panel_paths, site_dir):
    # The engine starts with the standard library trimmed to what the engines use; difflib is not in it.
    manifest = json.loads((site_dir / "assets" / "lessonkit" / "runtime.json").read_text(encoding="utf-8"))
    assert "difflib" in manifest["stdlib_rest"]["modules"]
    lesson = reader.visit("context-compression", panel_paths["context-compression"])
    page = lesson.page
    page.get_by_role("button", name="Edit sample 1", exact=True).click()
    code = page.get_by_role("textbox", name="Code of sample 1", exact=True)
    code.fill('import difflib\nprint(difflib.SequenceMatcher(None, "abcd", "abce").ratio())\n')
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(page.locator(".lk-sample").first.locator(".result")).to_have_text("0.75")


@pytest.mark.parametrize("part", [1, 2], ids=["its first part", "its second part"])
def test_without_the_snapshot_the_engine_starts_normally_and_says_why(open_context, panel_paths, part):
    # The second part is asked for only once the first has come fast enough: its failure is found
    # while the snapshot is being read, and said as plainly as the first's.
    context = open_context()
    missing = re.compile(rf".*/assets/snapshots/lessonkit\.snapshot\.{part}\.gz$")
    context.route(missing, lambda route: route.fulfill(status=404, body="gone"))
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.rsplit("/", 1)[-1]) if SNAPSHOT.match(request.url) else None)
    lesson = open_panel(page, "context-compression", panel_paths["context-compression"])
    expect(lesson.panel.locator(".lk-answered-by")).to_contain_text(
        "started normally, because the build's snapshot could not be used (the engine's snapshot could not be fetched from "
    )
    expect(lesson.panel.locator(".lk-answered-by")).to_contain_text(f"lessonkit.snapshot.{part}.gz (HTTP 404))")
    # Without its first part the rest of the snapshot is of no use, and is not downloaded.
    assert asked == ["lessonkit.snapshot.1.gz", "lessonkit.snapshot.2.gz"][:part], asked
    spec = panel("context-compression")
    lesson.button(spec.words.capture).click()  # a view with a baseline is never precomputed: Python answers it
    lesson.choose("Policy", "Summarize older turns")
    baseline = spec.defaults()
    lesson.expect_view(spec.view({**spec.defaults(), "policy": "summarize"}, baseline))
    expect(lesson.panel).to_have_attribute("data-answered-by", "live")


def listeners_on_window_and_document(page) -> Counter[str]:
    """Every event listener on the page's window and document, counted by target and event type."""
    devtools = page.context.new_cdp_session(page)
    try:
        counted: Counter[str] = Counter()
        for target in ("window", "document"):
            handle = devtools.send("Runtime.evaluate", {"expression": target})["result"]["objectId"]
            for listener in devtools.send("DOMDebugger.getEventListeners", {"objectId": handle})["listeners"]:
                counted[f"{target} {listener['type']}"] += 1
        return counted
    finally:
        devtools.detach()


def test_a_lesson_left_and_reached_again_by_the_sites_navigation_leaves_no_listener_behind(reader, panel_paths):
    page = reader.visit("working-memory", panel_paths["working-memory"]).page
    page.evaluate("() => { window.__sameDocument = true; }")

    def there_and_back() -> Counter[str]:
        follow_link(page, "Context compression", panel_paths["context-compression"])
        wait_for_engine(PanelPage(page, panel("context-compression")))
        follow_link(page, "Working memory", panel_paths["working-memory"])
        wait_for_engine(PanelPage(page, panel("working-memory")))
        return listeners_on_window_and_document(page)

    # Counted after a first round, on pages the site's navigation brought in both times: the theme
    # listens differently on the page it loaded first.
    first = there_and_back()
    again = there_and_back()
    assert page.evaluate("() => window.__sameDocument") is True, "the site reloaded instead of navigating in place"
    # Before panels were closed, each lesson visited left its address's, its expand button's and its
    # timeline's listeners behind.
    assert again == first, f"listeners gained {dict(again - first)}, lost {dict(first - again)}"


def test_a_timeline_playing_when_the_reader_leaves_stops_where_it_was(reader, panel_paths):
    memory = reader.visit("working-memory", panel_paths["working-memory"])
    page = memory.page
    page.evaluate("() => { window.__left = document.querySelector('section.lk-panel'); }")
    moment = "() => window.__left.querySelector('.lk-timeline input[type=range]').value"
    memory.button(memory.spec.playback.play).click()
    page.wait_for_function(f"() => Number(({moment})()) > 0")  # playing

    follow_link(page, "Context compression", panel_paths["context-compression"])
    # The next lesson's panel has started, so the shell has seen the page change.
    expect(PanelPage(page, panel("context-compression")).panel).to_have_attribute("data-engine", "ready")
    assert page.evaluate("() => window.__left.isConnected") is False
    left_at = page.evaluate(moment)
    page.wait_for_timeout(1_200)  # at normal speed, more than a second of inspection time would have gone by
    assert page.evaluate(moment) == left_at, "the timeline of the page left behind kept playing"


def test_over_a_slow_connection_the_engine_leaves_the_snapshot_out_and_its_bar_counts_only_what_it_uses(
    open_context, panel_paths, site_dir
):
    # 8 Mbit/s, through Chromium's own emulation, which throttles the worker's requests too, until the
    # worker has chosen: the snapshot's megabytes would take longer to arrive than the start it spares,
    # so the worker stops it. Slow enough that even a worker slowed by a busy machine, whose trial ends
    # seconds after it asked, still has most of the snapshot to wait for (with most of it here, waiting is right).
    context = open_context()
    page = context.new_page()
    stopped: list[str] = []
    page.on("requestfailed", lambda request: stopped.append(request.url) if SNAPSHOT.match(request.url) else None)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if SNAPSHOT.match(request.url) else None)
    devtools = context.new_cdp_session(page)
    devtools.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": 8e6 / 8, "uploadThroughput": 8e6 / 8},
    )
    manifest = json.loads((site_dir / "assets" / "lessonkit" / "runtime.json").read_text(encoding="utf-8"))
    declared = sum(manifest["downloads"].values())
    without = declared - sum(manifest["downloads"][part] for part in manifest["snapshot"])

    # Not the page's load event: its deferred scripts, asked for at low priority, share the throttled
    # link and the host's six connections with the engine's megabytes, and once in a full run the
    # event had not come 20 s after the navigation. What this test reads is the panel and its bar.
    lesson = open_panel(page, "context-compression", panel_paths["context-compression"], engine=False, until="commit")
    totals: set[int] = set()
    while lesson.panel.get_attribute("data-engine") not in ("ready", "failed"):
        total = int(page.evaluate("() => document.querySelector('.lk-engine-download:not([hidden]) progress')?.max ?? 0"))
        if total == without and without not in totals:
            # The worker has chosen, and the bar says so: the rest of its files (ten megabytes, ten
            # seconds more at this pace) would prove nothing the test does not already know.
            devtools.send(
                "Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
            )
        totals.add(total)
        page.wait_for_timeout(40)
    wait_for_engine(lesson)
    expect(lesson.panel.locator(".lk-answered-by")).to_contain_text("started normally, without the build's snapshot: at the pace it came")
    assert stopped, "the worker never asked for the snapshot, or let it download whole"
    # Judged on the first part, which was stopped: the rest was never asked for.
    assert [url.rsplit("/", 1)[-1] for url in asked] == ["lessonkit.snapshot.1.gz"], asked
    assert without in totals, f"the bar's totals {sorted(totals)} never became the files' bytes without the snapshot, {without}"
    assert max(totals) <= declared

    spec = panel("context-compression")
    lesson.button(spec.words.capture).click()  # a view with a baseline is never precomputed: Python answers it
    lesson.choose("Policy", "Summarize older turns")
    lesson.expect_view(spec.view({**spec.defaults(), "policy": "summarize"}, spec.defaults()))
    expect(lesson.panel).to_have_attribute("data-answered-by", "live")
