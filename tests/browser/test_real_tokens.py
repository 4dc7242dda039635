"""Real tokens in the reader's browser: a sample that counts them, or a panel asked for its texts in
them, fetches the ranks it needs then, once, from the site, says so while they come, and counts as
CPython does; the panel goes on answering while they download.

The ranks are never part of the engine's start (tests/tokens/ checks the build and the snapshot):
these tests are the first count in a running engine.
"""

from __future__ import annotations

import re

from playwright.sync_api import Route, expect

from lessonkit import tokens
from lessonkit.registry import panel
from tests.browser.test_every_panel import another_value, set_control, settings

LESSON = "context-compression"
RANKS = re.compile(r".*/assets/tokens/[^/]+\.tiktoken\.gz$")

# A reader's own text, counted in both encodings: the default one, and the one it names.
TEXT = "Summarize the last eight turns, ½ of x² 🚀"
COUNTING = f'from lessonkit import tokens\nprint(tokens.count("{TEXT}"), tokens.count("{TEXT}", "cl100k_base"))\n'

# Every text the sample's status region shows, in order, from now on.
RECORD_STATUS = """(status) => {
    window.lkSaid = [status.textContent];
    window.lkSaying = new MutationObserver(() => window.lkSaid.push(status.textContent));
    window.lkSaying.observe(status, { childList: true, subtree: true, characterData: true });
}"""


def test_a_sample_that_counts_real_tokens_fetches_each_encodings_ranks_once_and_counts_as_cpython(reader, panel_paths):
    panel_page = reader.visit(LESSON, panel_paths[LESSON])
    page = panel_page.page
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if RANKS.match(request.url) else None)
    sample = page.locator(".lk-sample").first
    # The lesson's own sample speaks of tokens, teaching ones: it runs without any ranks.
    assert "tokens" in sample.inner_text()
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(sample.locator(".lk-sample-status")).to_have_text("Sample 1 ran in your browser.")
    assert fetched == [], fetched
    page.get_by_role("button", name="Edit sample 1", exact=True).click()
    page.get_by_role("textbox", name="Code of sample 1", exact=True).fill(COUNTING)
    sample.locator(".lk-sample-status").evaluate(RECORD_STATUS)

    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expected = f"{tokens.count(TEXT)} {tokens.count(TEXT, 'cl100k_base')}"
    expect(sample.locator(".result")).to_have_text(expected)
    expect(sample.locator(".lk-sample-status")).to_have_text("Sample 1 ran in your browser.")
    said = page.evaluate("() => { window.lkSaying.disconnect(); return window.lkSaid; }")
    assert any(
        re.fullmatch(r"Sample 1 waits for the (o200k|cl100k)_base ranks \(\d+\.\d MB\), fetched once for real token counts…", text)
        for text in said
    ), said
    assert sorted(url.rsplit("/", 1)[1] for url in fetched) == ["cl100k_base.tiktoken.gz", "o200k_base.tiktoken.gz"], fetched

    # Once read, the ranks stay in the engine: counting again fetches nothing.
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(sample.locator(".lk-sample-status")).to_have_text("Sample 1 ran in your browser.")
    assert len(fetched) == 2, fetched


def test_while_the_ranks_download_the_engine_answers_the_panel_live_and_the_counts_come_after(reader, panel_paths):
    # Another lesson's tab than the test above, so its engine has read no ranks yet.
    lesson = "working-memory"
    spec = panel(lesson)
    panel_page = reader.visit(lesson, panel_paths[lesson], reduced_motion=True)
    page = panel_page.page
    held: list[Route] = []
    page.route(RANKS, lambda route: held.append(route))  # the ranks' download, held until the panel has answered
    sample = page.locator(".lk-sample").first
    try:
        page.get_by_role("button", name="Edit sample 1", exact=True).click()
        page.get_by_role("textbox", name="Code of sample 1", exact=True).fill(
            f'from lessonkit import tokens\nprint(tokens.count("{TEXT}"))\n'
        )
        page.get_by_role("button", name="Run sample 1", exact=True).click()
        expect(sample.locator(".lk-sample-status")).to_contain_text("waits for the o200k_base ranks")
        # The panel asked for its texts in real tokens waits for the same ranks, and says so.
        panel_page.count_real_tokens()
        expect(panel_page.real_count).to_have_text(re.compile(r"^Loading the o200k_base ranks \(\d+\.\d MB\), once for this visit"))
        # Two changes from the start, which the build's views do not hold: Python answers them.
        params = spec.defaults()
        for control in settings(spec)[:2]:
            params[control.name] = another_value(control)
            set_control(panel_page, control, params[control.name])
        panel_page.expect_view(spec.view(params))
        expect(panel_page.panel).to_have_attribute("data-answered-by", "live")
        expect(sample.locator(".lk-sample-status")).to_contain_text("waits for the o200k_base ranks")
        assert len(held) == 1, f"the ranks were asked for {len(held)} times"
    finally:
        for route in held:
            route.continue_()
        page.unroute(RANKS)
    expect(sample.locator(".result")).to_have_text(str(tokens.count(TEXT)))
    expect(sample.locator(".lk-sample-status")).to_have_text("Sample 1 ran in your browser.")
    # The count follows the view the panel shows: the settings changed while it waited.
    panel_page.expect_real_count(params)


def test_a_count_the_worker_did_not_see_coming_fetches_its_ranks_when_python_asks(reader, panel_paths):
    # The module's name is built at run time, so nothing in the code tells the worker that it counts:
    # Python asks for the ranks itself, through the fetcher the worker installed as it booted.
    lesson = "tool-result-clearing"
    page = reader.visit(lesson, panel_paths[lesson]).page
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if RANKS.match(request.url) else None)
    sample = page.locator(".lk-sample").first
    page.get_by_role("button", name="Edit sample 1", exact=True).click()
    hidden = f'import importlib\ncounting = importlib.import_module("lessonkit." + "tok" + "ens")\nprint(counting.count("{TEXT}"))\n'
    page.get_by_role("textbox", name="Code of sample 1", exact=True).fill(hidden)
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(sample.locator(".result")).to_have_text(str(tokens.count(TEXT)))
    expect(sample.locator(".lk-sample-status")).to_have_text("Sample 1 ran in your browser.")
    assert [url.rsplit("/", 1)[1] for url in fetched] == ["o200k_base.tiktoken.gz"], fetched
