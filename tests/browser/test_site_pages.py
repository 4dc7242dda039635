"""Search finds a lesson offline, its index fetched only when the reader reaches for it. (That every
page opens cleanly, under a sub-path and its policies, is read from the session's tour, in
test_every_page_for_everyone.py.)
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.harness import hold_back_the_engine

SEARCH_INDEX = "/search/search_index.json"


@pytest.mark.parametrize("where", ["home", "a lesson"])
def test_a_page_fetches_the_search_index_only_once_the_reader_reaches_for_search_which_then_finds_the_lesson(
    open_context, panel_paths, where
):
    # Every page holds the index back (partials/search-hold.js): a lesson's while its engine starts.
    page = open_context().new_page()
    asked = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith(SEARCH_INDEX) else None)
    page.goto("/" if where == "home" else panel_paths["working-memory"])
    if where == "a lesson":
        expect(page.locator("section.lk-panel")).to_have_attribute("data-engine", "ready", timeout=60_000)
    page.wait_for_load_state("networkidle")
    assert asked == [], "the search index was fetched before the reader reached for search"

    search = page.get_by_role("textbox", name="Search").first
    search.click()
    # Material's search worker reads the index first; a query typed before that is dropped.
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching")
    search.press_sequentially("provenance", delay=20)  # Material reads keystrokes, not a filled value
    expect(page.locator(".md-search-result__item").filter(has_text="Context compression").first).to_be_visible()
    assert len(asked) == 1, asked


def test_a_lesson_page_opened_from_a_search_result_highlights_the_terms_at_once(open_context, panel_paths):
    context = open_context()
    hold_back_the_engine(context)  # the highlighting is the theme's: Python plays no part
    page = context.new_page()
    page.goto(panel_paths["working-memory"] + "?h=tenant")
    expect(page.locator("mark[data-md-highlight]").first).to_be_visible()
