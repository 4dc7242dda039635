"""Nobody left out, on any page: every page passes axe-core in both schemes, and fits a 320 px screen
and a 200% zoom, each panel with its settings changed. These sweep every page of the site, so they
live in a file of their own: `make test` hands each file to one of its two workers.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import described, serious_violations
from tests.browser.harness import open_panel
from tests.browser.test_every_panel import another_value, set_control, settings

SCHEMES = {"light": "default", "dark": "slate"}


def settle(page: Page, frames: int = 10) -> None:
    """Let the page render `frames` frames: a count of frames, not a span of time."""
    page.evaluate(
        "(n) => new Promise((done) => { const step = (k) => k ? requestAnimationFrame(() => step(k - 1)) : done(); step(n); })", frames
    )


# axe-core on every page, light and dark, in the states a reader reaches.


def audit(page: Page, where: str) -> list[str]:
    page.evaluate("() => document.querySelectorAll('details').forEach((details) => { details.open = true; })")
    settle(page)
    violations = serious_violations(page)
    return [f"{where}: {line}" for line in described(violations).splitlines()] if violations else []


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_axe_finds_no_serious_or_critical_violation_on_any_page(open_context, pages, panel_paths, scheme):
    context = open_context(color_scheme=scheme, reduced_motion="reduce")
    lessons = {path: lesson for lesson, path in panel_paths.items()}
    found = []
    for path in pages:
        page = context.new_page()
        page.goto(path)
        expect(page.locator("body")).to_have_attribute("data-md-color-scheme", SCHEMES[scheme])
        if path not in lessons:
            found += audit(page, f"{path} ({scheme})")
            continue
        panel_page = open_panel(page, lessons[path], path)
        spec = panel_page.spec
        found += audit(page, f"{path} ({scheme}, starting state)")
        params = spec.defaults()
        for control in settings(spec):  # every setting changed, then the far end of the timeline
            params[control.name] = another_value(control)
            set_control(panel_page, control, params[control.name])
        if spec.timeline:
            params[spec.timeline.name] = spec.timeline.end
            panel_page.seek(spec.timeline.end)
        panel_page.expect_view(spec.view(params))
        found += audit(page, f"{path} ({scheme}, every setting changed, at the end)")
        page.close()
    assert not found, "axe-core found serious or critical violations:\n" + "\n".join(found)


# Reflow: a 320 px screen, and 200% zoom of a 1280 px window.

VIEWPORTS = {
    "320 px wide": {"viewport": {"width": 320, "height": 640}},
    "200% zoom": {"viewport": {"width": 640, "height": 400}, "device_scale_factor": 2},
}

# Elements that run past the right edge of the page, except inside an element meant to scroll
# sideways (code blocks, wide tables and charts): those scroll in place, the page does not.
OVERFLOWING = """() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (element) => {
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
            if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) return true;
        }
        return false;
    };
    const shown = (element) => getComputedStyle(element).visibility !== "hidden" && element.getClientRects().length > 0;
    const past = [...document.body.querySelectorAll("*")].filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > width + 0.5 && box.left < width && shown(element) && !scrolls(element);
    });
    return {
        page: document.documentElement.scrollWidth - width,
        elements: past.slice(0, 10).map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")}`),
    };
}"""


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_no_page_scrolls_sideways_and_every_panel_works_at_320_px_and_200_percent(open_context, pages, panel_paths, size):
    context = open_context(reduced_motion="reduce", **VIEWPORTS[size])
    lessons = {path: lesson for lesson, path in panel_paths.items()}
    found = []
    for path in pages:
        page = context.new_page()
        page.goto(path)
        if path in lessons:
            panel_page = open_panel(page, lessons[path], path)
            spec = panel_page.spec
            control = settings(spec)[0]
            set_control(panel_page, control, another_value(control))
            panel_page.expect_view(spec.view({**spec.defaults(), control.name: another_value(control)}))
        overflow = page.evaluate(OVERFLOWING)
        if overflow["page"] > 0 or overflow["elements"]:
            found.append(f"{path}: the page is {overflow['page']} px wider than the screen; past its edge: {overflow['elements']}")
        page.close()
    assert not found, "\n".join(found)
