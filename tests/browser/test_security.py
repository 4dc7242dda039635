"""Nothing runs that the policy does not allow: a script injected into a page is refused, and a policy
that forbids WebAssembly is named as the reason the engine cannot start. Nothing leaves the machine
unseen: a request to another origin is recorded, and goes nowhere. (That every page works
under its policies, the engine's worker under the header policy included, with no request leaving
the site's sub-path, is read from the session's tour, in test_every_page_for_everyone.py.)
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from lessonkit.authoring.csp import header_policy
from lessonkit.registry import panel, panel_ids
from tests.browser.harness import Watch, open_panel, serve, watched_context


def test_a_request_to_another_origin_is_recorded_and_never_leaves_this_machine(browser, site_url):
    # What every test's watch relies on: the request is seen, and the browser sends it nowhere.
    watch = Watch(site_url)
    context = watched_context(browser, site_url, watch)
    try:
        with pytest.raises(PlaywrightError, match="ERR_PROXY_CONNECTION_FAILED"):
            context.new_page().goto("http://lessonkit.example/elsewhere")
    finally:
        context.close()
    assert watch.foreign_requests == ["http://lessonkit.example/elsewhere"]


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


def test_a_policy_that_forbids_webassembly_is_named_as_the_reason_the_engine_cannot_start(open_context, site_dir, panel_paths):
    # The worker finds the refusal before Pyodide starts, and the shell says it in the same words
    # whatever the panel: one panel is enough (every panel's failure to start is shown apart in
    # test_runtime_failures.py, and every panel's engine starts under the site's own policy in the tour).
    spec = panel(sorted(panel_ids())[0])
    path = panel_paths[spec.lesson]
    without_wasm = header_policy().replace(" 'wasm-unsafe-eval'", "")
    with serve(site_dir, headers={"Content-Security-Policy": without_wasm}) as root:
        page = open_context(origin=root).new_page()
        panel_page = open_panel(page, spec.lesson, path, engine=False)
        expect(panel_page.panel).to_have_attribute("data-engine", "failed")
        expect(panel_page.panel).to_contain_text("WebAssembly is refused here")
        expect(panel_page.panel).to_contain_text("must allow 'wasm-unsafe-eval'")
        expect(panel_page.status).to_have_text(spec.view(spec.defaults()).status)
        page.close()
