"""Every page of the built course opens cleanly: nothing from another origin, no error."""

from __future__ import annotations

from playwright.sync_api import expect


def test_every_page_of_the_course_opens_without_errors_or_other_origins(open_context, site_dir):
    pages = sorted(
        "/" + "".join(f"{part}/" for part in index.parent.relative_to(site_dir).parts)
        for index in site_dir.rglob("index.html")
    )
    assert "/" in pages and "/authoring/" in pages and "/lessons/context-compression/" in pages, pages
    context = open_context()
    for path in pages:
        page = context.new_page()
        page.goto(path)
        expect(page.locator("h1").first).to_be_visible()
        # Let scripts settle (the engine starts only where a panel or a sample needs it).
        page.wait_for_load_state("networkidle")
        page.close()


def test_search_finds_the_lesson_from_the_home_page_offline(open_context):
    page = open_context().new_page()
    page.goto("/")
    search = page.get_by_role("textbox", name="Search").first
    search.click()
    # Material's search worker reads the index first; a query typed before that is dropped.
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching")
    search.press_sequentially("provenance", delay=20)  # Material reads keystrokes, not a filled value
    result = page.locator(".md-search-result__item").filter(has_text="Context compression").first
    expect(result).to_be_visible()
