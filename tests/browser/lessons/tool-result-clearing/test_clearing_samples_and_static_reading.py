"""The page's samples, the page read with JavaScript off, and the open lesson with the network gone.

Expected outputs come from running the page's samples in this process through the very runner the
build and the browser worker use (lessonkit.samples), in page order, under the build's block ids and
sessions. The LangChain fence is shown for comparison and never runs: the page's Python has no LangChain.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import expect

from lessonkit.authoring.samples import find_samples
from lessonkit.lessons.tool_result_clearing import FIELDS, Clearing, lesson
from lessonkit.samples import PageSamples

LESSON_SOURCE = Path(__file__).resolve().parents[4] / "docs" / "lessons" / "tool-result-clearing.md"
SAMPLES = find_samples(LESSON_SOURCE.read_text(encoding="utf-8"))
EDITABLE = [sample for sample in SAMPLES if sample.editable]


def outputs(edited: tuple[int, str] | None = None) -> list[str]:
    """What each editable sample prints, run in page order as the build ran them (generated content
    too); `edited`: editable sample n (from 1) and the code put in its place, as a reader's run would."""
    return list(run_samples(edited))


@cache
def run_samples(edited: tuple[int, str] | None) -> tuple[str, ...]:
    page, printed = PageSamples(), []
    for sample in SAMPLES:
        code = edited[1] if sample.editable and edited and edited[0] == len(printed) + 1 else sample.code
        output = page.run(code, sample.block_id, sample.session)
        if sample.editable:
            printed.append(output.strip())
    return tuple(printed)


def test_every_sample_shows_what_the_build_printed_and_an_edited_one_runs_in_place(lesson_page):
    page = lesson_page.page
    samples = page.locator(".lk-sample")
    built = outputs()
    expect(samples).to_have_count(len(EDITABLE))
    for index, output in enumerate(built):
        assert samples.nth(index).locator(".result").inner_text().strip() == output, f"sample {index + 1}"
    # The LangChain fence is shown, but is no sample: nothing offers to edit or run it.
    langchain = page.locator(".highlight", has_text="ContextEditingMiddleware(edits=[ClearToolUsesEdit(")
    expect(langchain).to_have_count(1)
    expect(langchain.locator("xpath=ancestor::div[contains(@class, 'lk-sample')]")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^Edit sample \d+$"))).to_have_count(len(EDITABLE))

    # The reader asks the second sample about another request under another setting; it runs in the
    # page, in the session the first sample set up.
    number = next(index for index, sample in enumerate(EDITABLE, 1) if "run.at(8).prompt.verdicts" in sample.code)
    edited = EDITABLE[number - 1].code.replace('presets["keep-3"]', 'presets["batched"]').replace("run.at(8)", "run.at(12)")
    expected = outputs((number, edited))[number - 1]
    assert expected != built[number - 1] and "enough was already reclaimed" in expected
    page.get_by_role("button", name=f"Edit sample {number}", exact=True).click()
    page.get_by_role("textbox", name=f"Code of sample {number}", exact=True).fill(edited)
    page.get_by_role("button", name=f"Run sample {number}", exact=True).click()
    expect(samples.nth(number - 1).locator(".result")).to_have_text(expected)


def test_without_javascript_the_page_reads_its_tables_the_setting_and_every_sample_output(open_context, engine):
    page = open_context(java_script_enabled=False).new_page()
    page.goto("/lessons/tool-result-clearing/")
    article = page.locator("article")

    # The tables the build printed: every tool result of the session, and every field of the setting.
    results = [message for message in lesson().messages if message.kind == "tool"]
    rows = article.locator("table").filter(has_text="What it says").locator("tbody tr")
    expect(rows.locator("td:first-child")).to_have_text([message.id for message in results])
    expect(rows.locator("td:nth-child(4)")).to_have_text([f"{message.tokens:,}" for message in results])
    fields = article.locator("table").filter(has_text="What it does").locator("tbody tr")
    expect(fields.locator("td:first-child")).to_have_text(list(FIELDS))
    expect(fields.locator("td:nth-child(2)")).to_have_text([repr(getattr(Clearing(), field)) for field in FIELDS])

    # The experiment's first view: the setting as written and the session's totals.
    panel = page.get_by_role("region", name=f"Experiment: {engine.panel.title}", exact=True)
    keep3 = engine.presets["keep-3"]
    expect(panel.locator("pre.lk-setting")).to_contain_text(
        f"setting = Clearing(trigger={keep3.trigger}, clear_at_least={keep3.clear_at_least}, keep={keep3.keep},"
    )
    sent = panel.get_by_role("table", name="The whole session, in teaching tokens").locator("tr", has_text="Tokens sent").locator("td")
    expect(sent).to_have_text(
        ["Tokens sent", *(f"{run.totals.sent:,}" for run in (engine.run(keep3), engine.run(None), engine.run(keep3, caching=False)))]
    )

    # Every sample with the output the build printed, right after its code; no editor pretends to work.
    samples = page.locator(".lk-sample")
    expect(samples).to_have_count(len(EDITABLE))
    for index, output in enumerate(outputs()):
        assert samples.nth(index).locator(".highlight").nth(1).inner_text().strip() == output, f"sample {index + 1}"
    expect(page.get_by_role("button", name=re.compile(r"^(Edit|Run) sample"))).to_have_count(0)


def test_with_the_network_gone_the_open_lesson_still_answers_a_new_setting_runs_its_samples_and_exports(lesson_page, engine, site_dir):
    page, context = lesson_page.page, lesson_page.page.context
    # Once the engine runs and has read what it reads ahead (the views of the lesson before), the
    # lesson needs the network for nothing more. The browser itself asks for the site's icon again
    # now and then (at a download, after a navigation): it is answered as a kept course would answer
    # it (test_offline.py), and every other request finds no network.
    expect(lesson_page.panel).to_have_attribute("data-neighbour-views-read", re.compile(r".*"))
    icon = page.evaluate("() => document.querySelector('link[rel~=\"icon\"]').href")
    kept_icon = site_dir / urlsplit(icon).path.lstrip("/")

    def as_kept(route) -> None:
        route.fulfill(path=kept_icon)

    context.route(icon, as_kept)
    context.set_offline(True)
    try:
        # A trigger no build computed a view for: Python in the page answers it.
        trigger = engine.presets["keep-3"].trigger + 1
        lesson_page.number("Trigger").fill(str(trigger))
        lesson_page.seek(8)
        view = engine.view(trigger=trigger, time=8)
        lesson_page.expect_view(view)
        expect(lesson_page.panel).to_have_attribute("data-answered-by", "live")

        page.get_by_role("button", name="Run sample 1", exact=True).click()
        expect(page.get_by_text(re.compile(r"^Sample 1 ran in your browser"))).to_be_visible()
        result = page.locator(".lk-sample").first.locator(".result")
        expect(result).to_have_attribute("data-ran", "browser")
        expect(result).to_have_text(outputs()[0])

        with page.expect_download() as started:
            lesson_page.button("Export run JSON").click()
        exported, computed = json.loads(Path(started.value.path()).read_text(encoding="utf-8")), engine.as_json(view.export)
        # This setting's run, request by request, and the request shown (the export as a whole is
        # held to the engine's in test_clearing_reader_work.py).
        assert exported["setting"] == computed["setting"] and exported["requests"] == computed["requests"]
        assert exported["inspection"] == {"timeline": 8, "request": 8}
    finally:
        context.set_offline(False)
        # Not unroute(icon, as_kept): that lets go of a request the handler is still answering (its
        # file being read), the browser sends it on to the network, and the handler's fulfill then
        # fails in whichever test runs next ("Route is already handled!"). Waiting for the handler
        # lets it finish; the icon's is the only route this reader's context ever holds.
        context.unroute_all(behavior="wait")
