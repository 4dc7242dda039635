"""What a reader sees while a view is on its way.

- A view that arrives at once replaces the last one; the panel never dims for it, and its view
  never says it is busy (a dim lasting a frame is only a flicker).
- A panel kept waiting dims, says aria-busy, and says why, once the wait has lasted a moment.
- While the engine starts, a bar counts the bytes of its files as they arrive, of the total the
  build declared, and the live region beside it names each stage once: downloading, starting.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from lessonkit.registry import panel
from tests.browser.harness import RUNTIME, hold_back_the_engine, open_panel, wait_for_engine

PENDING = re.compile(r"\blk-pending\b")

# Every class and aria-busy value the panel and its view take, the old value of each change
# included: a dim put on and taken off within one task leaves both in these records.
RECORD_DIMMING = """(section) => {
  window.__dimming = [];
  new MutationObserver((records) => {
    for (const record of records) {
      window.__dimming.push(record.oldValue || "", record.target.getAttribute(record.attributeName) || "");
    }
  }).observe(section, { attributes: true, attributeFilter: ["class", "aria-busy"], attributeOldValue: true, subtree: true });
}"""


def test_a_view_answered_at_once_replaces_the_last_without_the_panel_dimming(open_context, panel_paths):
    context = open_context()
    hold_back_the_engine(context)  # Python never starts: the build's views answer at once
    spec = panel("context-compression")
    lesson = open_panel(context.new_page(), spec.lesson, panel_paths[spec.lesson], engine=False)
    lesson.panel.evaluate(RECORD_DIMMING)

    lesson.choose("Policy", "Summarize older turns")
    lesson.expect_view(spec.view({**spec.defaults(), "policy": "summarize"}))
    # Long enough for a dim that was scheduled and never cancelled to have shown.
    lesson.page.wait_for_timeout(400)

    dimming = lesson.page.evaluate("() => window.__dimming")
    assert not [value for value in dimming if PENDING.search(value) or value == "true"], dimming
    expect(lesson.panel).not_to_have_class(PENDING)
    expect(lesson.panel.locator(".lk-view")).not_to_have_attribute("aria-busy", "true")
    context.unroute(RUNTIME)


def test_a_panel_kept_waiting_dims_says_it_is_busy_and_says_why_after_a_moment(open_context, panel_paths):
    context = open_context()
    hold_back_the_engine(context)  # Python never starts, and no build view holds the second change
    spec = panel("working-memory")
    lesson = open_panel(context.new_page(), spec.lesson, panel_paths[spec.lesson], engine=False)
    question = next(control for control in spec.controls if control.name == "question")
    other = next(option for option in question.options if option.value != question.default)
    # The build holds the views of every first change: the second is the one that waits.
    lesson.choose("Active tenant", "Team B")

    # The change and a look at the panel in one task: no timer can have run in between. The shell's
    # options are valued by their place in the list (controls.js).
    dimmed_at_once = lesson.combobox(question.label).evaluate(
        """(select, index) => {
            select.value = index;
            select.dispatchEvent(new Event("input", { bubbles: true }));
            select.dispatchEvent(new Event("change", { bubbles: true }));
            const section = select.closest("section.lk-panel");
            return section.classList.contains("lk-pending") || section.querySelector(".lk-view").getAttribute("aria-busy") === "true";
        }""",
        str(question.options.index(other)),
    )
    assert dimmed_at_once is False

    expect(lesson.panel).to_have_class(PENDING)
    expect(lesson.panel.locator(".lk-view")).to_have_attribute("aria-busy", "true")
    expect(lesson.panel.locator(".lk-engine")).to_have_text(spec.words.engine_downloading_pending)
    # Still the view of the settings before the change: nothing has answered the new ones.
    assert lesson.panel.get_attribute("data-answered-by") == "build"
    expect(lesson.panel.locator(".lk-view")).to_contain_text(spec.view(spec.defaults()).export["question"]["text"])
    context.unroute(RUNTIME)


# Every value the engine's bar takes (with whether its block was shown then), and every text of the
# engine's live region, as they change, from before the page's first script. Nothing of the download
# is read from the page while it lasts: on a busy machine the last byte can arrive before the test's
# next look at the page, and only a record made by the page itself saw every stage.
RECORD_PROGRESS = """() => {
  window.__bar = [];
  window.__said = [];
  const inside = (node, selector) => (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement)?.closest(selector);
  new MutationObserver((records) => {
    const bar = records.map((record) => inside(record.target, "progress.lk-engine-progress")).find(Boolean);
    if (bar) window.__bar.push([bar.value, bar.max, bar.closest(".lk-engine-download")?.checkVisibility() ?? false]);
    const region = records.map((record) => inside(record.target, ".lk-engine")).find(Boolean);
    if (region) window.__said.push(region.textContent);
  }).observe(document, { attributes: true, attributeFilter: ["value", "max"], childList: true, characterData: true, subtree: true });
}"""

# A link slow enough that the bar moves many times while the engine's files arrive (Chromium's own
# emulation, which paces the worker's requests too), and fast enough that the worker's trial keeps
# the snapshot with room to spare, even when the machine is busy: at 40 Mbit/s a trial measured on a
# loaded machine could fall short of the pace it asks and leave the snapshot out.
FAST_LINK = {"offline": False, "latency": 20, "downloadThroughput": 100e6 / 8, "uploadThroughput": 100e6 / 8}


def test_while_the_engine_downloads_a_bar_counts_its_bytes_and_the_live_region_names_each_stage_once(open_context, panel_paths, site_dir):
    spec = panel("context-compression")
    page = open_context().new_page()
    page.add_init_script(f"({RECORD_PROGRESS})()")
    network = page.context.new_cdp_session(page)
    network.send("Network.emulateNetworkConditions", FAST_LINK)
    lesson = open_panel(page, spec.lesson, panel_paths[spec.lesson], engine=False)
    wait_for_engine(lesson)
    expect(lesson.panel.locator(".lk-answered-by")).to_contain_text("restored from the build's snapshot")

    bar, said = page.evaluate("() => [window.__bar, window.__said]")
    declared = json.loads((site_dir / "assets" / "lessonkit" / "runtime.json").read_text(encoding="utf-8"))["downloads"]
    total = sum(declared.values())
    assert {most for _, most, _ in bar} == {total}, f"the bar's total is not the {total:,} bytes the build declared: {bar[:3]}"
    received = [value for value, _, _ in bar]
    assert all(shown for _, _, shown in bar), f"the bar moved while its block was hidden: {bar}"
    assert received == sorted(received), "the bar went backwards"
    assert len(set(received)) >= 5, f"the bar hardly moved: {received}"
    assert received[-1] == total, f"the bar ended at {received[-1]:,} of {total:,} bytes"
    # The stages once each, never an amount: the bar and its figures are outside the live region.
    assert said == [spec.words.engine_downloading, spec.words.engine_starting, ""], said
    expect(lesson.panel.locator(".lk-engine-download")).to_be_hidden()
