"""The runtime fails visibly and recovers, for every panel on the site.

Each way the engine can fail to start is simulated: the worker, the wheel or Pyodide cannot be
loaded; the shell's own script cannot be loaded; the page is opened from a file. In each case the
panel says what failed and what to do, offers a retry where one can help, keeps the starting state
the build rendered readable, and no control pretends to work.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from lessonkit.registry import panel_ids
from tests.browser.harness import ENGINE_BOOT_MS, PanelPage, hold_back_the_engine, open_panel
from tests.browser.test_every_panel import ROLES, another_value, set_control, settings

# What goes missing, the words the panel must use for it, and the requests that fail: every one, or
# only the download of a file whose check before Pyodide's start passed (a host that falters).
MISSING = {
    "worker": (r".*/assets/lessonkit/worker\.js$", "the worker script could not be loaded", None),
    "wheel": (r".*/assets/wheels/lessonkit-[^/]*\.whl$", "the lessonkit wheel could not be fetched", None),
    "pyodide": (r".*/assets/pyodide/pyodide\.asm\.wasm$", "Pyodide files unusable at", None),
    "pyodide-download": (
        r".*/assets/pyodide/pyodide\.asm\.wasm$",
        "Pyodide's pyodide.asm.wasm could not be fetched from ",
        "GET",
    ),
}


def every_control(panel_page: PanelPage):
    spec = panel_page.spec
    controls = [panel_page.control(ROLES[control.kind], control.label) for control in settings(spec)]
    if spec.timeline:
        controls += [panel_page.timeline, panel_page.button(spec.playback.play), panel_page.combobox(spec.playback.speed)]
    return controls


def each_panel_and_each_missing_file() -> list[Any]:
    """Pairs of a panel and a missing file in which every panel and every missing file come at least once.

    Telling the reader what failed and offering a retry is the shell's, on one path whatever the
    panel: the missing file decides the words, the panel only which controls must wait and come
    back to life. Each pairing costs two boots of Pyodide (the failed one and the retry), so the
    panels are paired with the missing files in turn (sorted, cycling the shorter list) rather
    than every panel with every file; a new panel or a new way to fail joins the pairs by itself.
    """
    panels, kinds = sorted(panel_ids()), sorted(MISSING)
    pairs = [(panels[index % len(panels)], kinds[index % len(kinds)]) for index in range(max(len(panels), len(kinds)))]
    return [pytest.param(lesson, missing, id=f"{lesson}-{missing}") for lesson, missing in pairs]


@pytest.mark.parametrize(("panel_on_page", "missing"), each_panel_and_each_missing_file(), indirect=["panel_on_page"])
def test_an_engine_that_cannot_load_says_what_failed_holds_its_controls_and_recovers_on_retry(open_context, panel_on_page, missing):
    spec, path = panel_on_page
    pattern, words, method = MISSING[missing]
    context = open_context(expected_errors=(r"404", r"Failed to load resource"))

    def refuse(route):
        if method is None or route.request.method == method:
            route.fulfill(status=404, body="gone")
        else:
            route.continue_()

    context.route(re.compile(pattern), refuse)
    panel_page = open_panel(context.new_page(), spec.lesson, path, engine=False)

    expect(panel_page.panel).to_have_attribute("data-engine", "failed", timeout=ENGINE_BOOT_MS)
    expect(panel_page.panel).to_contain_text("The Python engine could not start")
    expect(panel_page.panel).to_contain_text(words)
    expect(panel_page.panel).to_contain_text("retry, or reload the page")
    expect(panel_page.panel.locator(".lk-answered-by")).to_have_text(spec.words.answered_by_build_failed)
    # The starting state the build computed stays readable, and no control pretends to work.
    expect(panel_page.status).to_have_text(spec.view(spec.defaults()).status)
    for control in every_control(panel_page):
        expect(control).to_be_disabled()
    expect(panel_page.notes).to_be_editable()  # the reader's own words never wait for the engine

    context.unroute(re.compile(pattern))
    panel_page.button(spec.words.retry).click()
    expect(panel_page.panel).to_have_attribute("data-engine", "ready", timeout=ENGINE_BOOT_MS)
    control = settings(spec)[0]
    set_control(panel_page, control, another_value(control))
    panel_page.expect_view(spec.view({**spec.defaults(), control.name: another_value(control)}))


def expect_unstarted(panel_page: PanelPage, words: str) -> None:
    spec = panel_page.spec
    expect(panel_page.panel.get_by_role("alert").filter(has_text=words)).to_be_visible()
    expect(panel_page.panel).not_to_contain_text(spec.words.static_note)
    expect(panel_page.status).to_have_text(spec.view(spec.defaults()).status)
    expect(panel_page.panel.locator(".lk-view")).not_to_be_empty()
    for control in spec.controls:  # nothing interactive is offered that could not work
        expect(panel_page.panel.get_by_role(ROLES[control.kind], name=control.label, exact=True)).to_have_count(0)


def test_a_shell_that_cannot_load_leaves_the_starting_state_and_says_to_reload(open_context, panel_on_page):
    spec, path = panel_on_page
    context = open_context(expected_errors=(r"404", r"Failed to load resource"))
    context.route(re.compile(r".*/assets/lessonkit/shell\.js$"), lambda route: route.fulfill(status=404, body="gone"))
    # The head starts the engine's worker before the shell runs; without a shell nothing can use it.
    hold_back_the_engine(context)
    panel_page = open_panel(context.new_page(), spec.lesson, path, engine=False)
    expect_unstarted(panel_page, spec.words.shell_missing)


def test_a_page_opened_from_a_file_keeps_its_starting_state_and_says_how_to_serve_it(open_context, site_dir, panel_on_page):
    spec, path = panel_on_page
    # What a browser says about file:// on its own: modules refused across the null origin, and
    # Material's search index, which it only loads over HTTP.
    context = open_context(
        origin="file://",
        expected_errors=(
            r"from origin 'null' has been blocked by CORS policy",
            r"Failed to load resource",
            r"Invalid script: file:.*search_index",
        ),
    )
    page = context.new_page()
    page.goto((site_dir / path.strip("/") / "index.html").as_uri())
    expect_unstarted(PanelPage(page, spec), spec.words.shell_missing_file)
