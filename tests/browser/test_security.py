"""Nothing leaks and nothing is fetched from elsewhere: every page works under its Content-Security-Policy.

Every watched context fails its test on a request outside the site's origin and on any console
error, a refusal of the policy included (harness.REPORT_POLICY_VIOLATIONS reports each one).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from lessonkit.authoring.csp import header_policy
from tests.browser.harness import open_panel, serve
from tests.browser.test_every_panel import another_value, set_control, settings


def use(page, path: str, lesson: str | None) -> None:
    """What a reader does on a page: change the panel's first setting, run the first sample, search, switch scheme."""
    if lesson:
        panel_page = open_panel(page, lesson, path)
        spec = panel_page.spec
        control = settings(spec)[0]
        set_control(panel_page, control, another_value(control))
        panel_page.expect_view(spec.view({**spec.defaults(), control.name: another_value(control)}))
    else:
        page.goto(path)
    samples = page.get_by_role("button", name=re.compile(r"^Run sample \d+$"))
    if samples.count():
        samples.first.click()
        expect(page.locator(".lk-sample-status").first).to_contain_text("ran in your browser")
    # Material's search runs in a worker of its own, and its palette toggle in an inline script.
    search = page.get_by_role("textbox", name="Search").first
    search.click()
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching")
    search.press_sequentially("context", delay=20)
    expect(page.locator(".md-search-result__item").first).to_be_visible()
    search.press("Escape")
    before = page.evaluate("() => document.body.dataset.mdColorScheme")
    page.locator("form[data-md-component=palette] label:not([hidden])").click()
    expect(page.locator("body")).not_to_have_attribute("data-md-color-scheme", before)


def test_every_page_works_under_its_policy_searching_switching_scheme_and_running_samples(open_context, pages, panel_paths):
    context = open_context()
    lessons = {path: lesson for lesson, path in panel_paths.items()}
    for path in pages:
        page = context.new_page()
        use(page, path, lessons.get(path))
        policy = page.locator('meta[http-equiv="Content-Security-Policy"]')
        expect(policy).to_have_attribute("content", re.compile(r"^default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-"))
        page.close()
    # The watch fails this test on any refusal of the policy or any request to another origin.


def test_a_script_injected_into_a_page_is_refused_by_its_policy(open_context, pages):
    context = open_context(
        expected_errors=(
            r"Content-Security-Policy violation: script-src-elem refused inline",
            r"Executing inline script violates the following Content Security Policy",
        )
    )
    page = context.new_page()
    page.goto(pages[0])
    refused = page.evaluate(
        """() => new Promise((resolve) => {
            document.addEventListener("securitypolicyviolation", (event) => resolve(event.effectiveDirective), { once: true });
            const script = document.createElement("script");
            script.textContent = "window.lkInjected = true";
            document.body.append(script);
        })"""
    )
    assert refused == "script-src-elem"
    assert page.evaluate("() => window.lkInjected") is None


def test_pyodide_boots_in_its_worker_under_the_policy_sent_as_a_header(open_context, site_dir, panel_on_page):
    # A worker takes its policy from its own response, not from the page: a host that sends the
    # site's policy as a header governs the engine too, and it must still start.
    spec, path = panel_on_page
    with serve(site_dir, headers={"Content-Security-Policy": header_policy()}) as root:
        page = open_context(origin=root).new_page()
        panel_page = open_panel(page, spec.lesson, path)
        control = settings(spec)[0]
        set_control(panel_page, control, another_value(control))
        panel_page.expect_view(spec.view({**spec.defaults(), control.name: another_value(control)}))
        page.close()  # before the server stops: a request it could no longer answer would be an error


def test_a_policy_that_forbids_webassembly_is_named_as_the_reason_the_engine_cannot_start(open_context, site_dir, panel_on_page):
    spec, path = panel_on_page
    without_wasm = header_policy().replace(" 'wasm-unsafe-eval'", "")
    with serve(site_dir, headers={"Content-Security-Policy": without_wasm}) as root:
        page = open_context(origin=root).new_page()
        panel_page = open_panel(page, spec.lesson, path, engine=False)
        expect(panel_page.panel).to_have_attribute("data-engine", "failed")
        expect(panel_page.panel).to_contain_text("WebAssembly is refused here")
        expect(panel_page.panel).to_contain_text("must allow 'wasm-unsafe-eval'")
        expect(panel_page.status).to_have_text(spec.view(spec.defaults()).status)
        page.close()


def test_everything_works_under_a_sub_path_and_no_request_leaves_it(open_context, site_dir, pages, panel_paths):
    lessons = {path: lesson for lesson, path in panel_paths.items()}
    with serve(site_dir, prefix="/lessonkit") as root:
        context = open_context(origin=root)
        for path in pages:
            page = context.new_page()
            page.goto(path.lstrip("/"))  # relative to the sub-path
            expect(page.locator("h1").first).to_be_visible()
            use(page, path.lstrip("/"), lessons.get(path))
            page.close()
    # Watched with the sub-path as the origin: a request anywhere else on the host fails the test.
