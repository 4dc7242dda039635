"""A timeline's tick labels sit right under its slider, each one where its mark falls on the track.

Where a value falls is measured, not assumed: the slider's thumb lives in Chromium's user-agent
shadow tree, which the page's scripts cannot see and the DevTools protocol can, so its centre is
read at the track's two ends and every mark falls linearly between them.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from lessonkit.registry import panel, panel_ids
from tests.browser.harness import PanelPage, Reader

WITH_TIMELINES = [lesson for lesson in panel_ids() if panel(lesson).timeline]
WIDTHS = {"1280 px wide": 1280, "390 px wide": 390}
# Text is laid out in fractions of a pixel and a label is centred on its own width: half a pixel
# either way is rounding, two are a label drawn beside its tick.
PX = 1.0
# The labels' line starts just under the slider's box (which holds Chromium's own tick marks).
MOST_GAP_PX = 6.0
# Closer than this, "10" and "11" read as "1011".
LEAST_SPACE_PX = 2.0


def thumb_centre(cdp: Any, slider_id: str) -> float:
    """The centre of the slider's thumb, in the page's CSS pixels (the viewport's, as bounding boxes are)."""
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    slider = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f"#{slider_id}"})["nodeId"]
    tree = cdp.send("DOM.describeNode", {"nodeId": slider, "depth": -1, "pierce": True})["node"]
    waiting, thumb = [tree], None
    while waiting and thumb is None:
        node = waiting.pop()
        attributes = node.get("attributes", [])
        # Chromium's SliderThumbElement is the user-agent shadow's element with the id "thumb".
        if dict(zip(attributes[::2], attributes[1::2], strict=True)).get("id") == "thumb":
            thumb = node
        waiting += node.get("shadowRoots", []) + node.get("children", [])
    assert thumb is not None, "no thumb in the slider's user-agent shadow tree"
    quad = cdp.send("DOM.getBoxModel", {"backendNodeId": thumb["backendNodeId"]})["model"]["border"]
    return (quad[0] + quad[2]) / 2


def ticks_geometry(panel_page: PanelPage) -> dict[str, Any]:
    """The slider's box, the thumb's centre at the track's ends, and every label's box and whether it is shown."""
    page, timeline = panel_page.page, panel_page.spec.timeline
    slider = panel_page.timeline
    cdp = page.context.new_cdp_session(page)
    slider_id = slider.get_attribute("id")
    # The thumb is moved without an input event, so the experiment never hears of it.
    ends = []
    for value in (0, timeline.end):
        slider.evaluate("(slider, value) => { slider.value = String(value); }", value)
        ends.append(thumb_centre(cdp, slider_id))
    slider.evaluate("slider => { slider.value = '0'; }")
    cdp.detach()  # the tab is kept for the next test
    # Every label at once, in one look at the page: a box as Playwright's bounding_box gives it, and
    # shown as its is_visible says (a box of some size, and not hidden by style).
    labels = panel_page.panel.locator(".lk-tick").evaluate_all(
        """(labels) => labels.map((label) => {
            const box = label.getBoundingClientRect();
            return {
                box: { x: box.x, y: box.y, width: box.width, height: box.height },
                shown: box.width > 0 && box.height > 0 && label.checkVisibility({ visibilityProperty: true }),
            };
        })"""
    )
    assert len(labels) == len(timeline.marks), f"{len(labels)} tick labels for {len(timeline.marks)} marks"
    return {
        "slider": slider.bounding_box(),
        "ends": ends,
        "labels": [label["box"] for label in labels],
        "shown": [label["shown"] for label in labels],
    }


# Both tests read the same measurement of a lesson's timeline at a width: it is taken once.
MEASURED: dict[tuple[str, int], dict[str, Any]] = {}


def measured(reader: Reader, panel_paths: dict[str, str], lesson: str, width: int) -> dict[str, Any]:
    if (lesson, width) not in MEASURED:
        # The shell draws the timeline from the spec, so the ticks are there before the engine answers.
        panel_page = reader.visit(lesson, panel_paths[lesson], reduced_motion=True, viewport={"width": width, "height": 900}, engine=False)
        expect(panel_page.panel.locator(".lk-tick")).to_have_text([mark.tick or mark.name for mark in panel_page.spec.timeline.marks])
        panel_page.timeline.scroll_into_view_if_needed()
        MEASURED[lesson, width] = ticks_geometry(panel_page)
    return MEASURED[lesson, width]


@pytest.mark.parametrize("width", list(WIDTHS.values()), ids=list(WIDTHS))
@pytest.mark.parametrize("lesson", WITH_TIMELINES)
def test_each_tick_label_sits_just_under_the_slider_centred_where_its_mark_falls(reader, panel_paths, lesson, width):
    found = measured(reader, panel_paths, lesson, width)
    timeline = panel(lesson).timeline
    slider, (start, end) = found["slider"], found["ends"]
    bottom, left, right = slider["y"] + slider["height"], slider["x"], slider["x"] + slider["width"]
    problems = []
    for mark, label in zip(timeline.marks, found["labels"], strict=True):
        name = f"{mark.tick or mark.name!r} (at {mark.at:g})"
        gap = label["y"] - bottom
        if not 0 <= gap <= MOST_GAP_PX:
            problems.append(f"{name}: {gap:.1f} px under the slider")
        tick = start + (end - start) * mark.at / timeline.end
        half = label["width"] / 2
        # A label that centred would reach past the slider's box starts (or ends) on its tick instead.
        if tick - half < left:
            off, where = label["x"] - tick, "starts"
        elif tick + half > right:
            off, where = label["x"] + label["width"] - tick, "ends"
        else:
            off, where = label["x"] + half - tick, "is centred"
        if abs(off) > PX:
            problems.append(f"{name} {where} {off:+.1f} px from its tick at x={tick:.1f}")
    assert not problems, f"{lesson} at {width} px, slider x={left:.1f}..{right:.1f}, bottom y={bottom:.1f}:\n" + "\n".join(problems)


@pytest.mark.parametrize("width", list(WIDTHS.values()), ids=list(WIDTHS))
@pytest.mark.parametrize("lesson", WITH_TIMELINES)
def test_the_tick_labels_shown_never_run_into_each_other(reader, panel_paths, lesson, width):
    found = measured(reader, panel_paths, lesson, width)
    shown = [
        (mark, label) for mark, label, visible in zip(panel(lesson).timeline.marks, found["labels"], found["shown"], strict=True) if visible
    ]
    assert shown, f"{lesson} at {width} px shows no tick label"
    touching = [
        f"{(one.tick or one.name)!r} ends at x={a['x'] + a['width']:.1f}, {(two.tick or two.name)!r} starts at x={b['x']:.1f}"
        for (one, a), (two, b) in zip(shown, shown[1:], strict=False)
        if a["x"] + a["width"] + LEAST_SPACE_PX > b["x"]
    ]
    assert not touching, f"{lesson} at {width} px:\n" + "\n".join(touching)
