"""The browser the tests drive opens what a test asks for and nothing of its own beside it."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect


def test_a_context_opens_its_page_and_no_browser_ui_beside_it(browser: Browser, page: Page):
    # Each context is a window of its own; a window that preloaded its address bar's WebUI would
    # start a renderer for it beside the page (local_site.BROWSER_UI_NEVER_SHOWN).
    page.goto("/")
    expect(page.locator("h1").first).to_be_visible()
    session = browser.new_browser_cdp_session()
    try:
        targets = session.send("Target.getTargets")["targetInfos"]
    finally:
        session.detach()
    assert [target for target in targets if target["type"] == "page"], targets
    shown = [target["url"] for target in targets if target["type"] == "browser_ui"]
    assert not shown, f"the browser opened its own UI beside the page: {shown}"
