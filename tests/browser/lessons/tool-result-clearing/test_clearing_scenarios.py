"""The lesson's promises in the live panel: which results each request sees cleared and by which rule,
the calls clearing makes the agent make again, and what the session costs against clearing off and
against the cache switched the other way.

Every control is found by the name the lesson gives it. Each scenario holds the whole view to the
engine's (`LessonPage.expect_view`), then reads what a reader reads (the table of results, the
findings, the list of calls made again, the totals) against figures worked out here from the engine.
"""

from __future__ import annotations

from playwright.sync_api import expect

from lessonkit.lessons.tool_result_clearing import FIELDS, Clearing, Rule, placeholder_tokens
from lessonkit.lessons.tool_result_clearing.panel import PLACEHOLDERS, prefix_end


def rules_of(request) -> list[tuple[str, str]]:
    """Each result of `request`'s prompt and the rule that decided it, as the table marks its rows."""
    return [(verdict.result, verdict.rule.name.lower()) for verdict in request.prompt.verdicts]


def listed(ids) -> str:
    return ", ".join(ids) if ids else "none"


def totals_cells(measure: str, *runs) -> list[str]:
    """A row of the totals table as the engine's runs fill it: whole numbers with thousands separators."""
    value = {"Model requests": "requests", "Calls made again": "calls_again", "Tokens sent": "sent", "Read from the cache": "read"}[measure]
    return [measure, *(f"{getattr(run.totals, value):,}" for run in runs)]


def written(setting: Clearing, caching: bool) -> str:
    fields = ", ".join(f"{name}={getattr(setting, name)!r}" for name in FIELDS)
    return f"setting = Clearing({fields})\nrun = replay(lesson().session, setting, caching={caching})"


def test_the_experiment_opens_on_keep_3_and_the_first_prompt_over_the_trigger_keeps_only_the_newest_results(lesson_page, engine):
    keep3 = engine.presets["keep-3"]
    lesson_page.expect_view(engine.view())
    for label, value in (("Trigger", keep3.trigger), ("Clear at least", keep3.clear_at_least), ("Keep", keep3.keep)):
        expect(lesson_page.number(label)).to_have_value(str(value))
    assert lesson_page.chosen("Placeholder") == keep3.placeholder
    expect(lesson_page.checkbox("Clear tool inputs")).not_to_be_checked()
    for tool in engine.tools:
        expect(lesson_page.checkbox(f"Exclude {tool}")).to_be_checked(checked=tool in keep3.exclude_tools)
    expect(lesson_page.checkbox("Prompt cache")).to_be_checked()
    expect(lesson_page.panel.locator("pre.lk-setting")).to_have_text(written(keep3, True))

    # The whole session beside clearing off, and beside the cache switched off.
    run, off, uncached = engine.run(keep3), engine.run(None), engine.run(keep3, caching=False)
    expect(lesson_page.totals().locator("thead th")).to_have_text(
        ["Over the session", "This setting, cache on", "Clearing off, cache on", "This setting, cache off"]
    )
    for measure in ("Model requests", "Calls made again", "Tokens sent", "Read from the cache"):
        assert lesson_page.totals_row(measure) == totals_cells(measure, run, off, uncached)
    assert lesson_page.calls_again() == [str(request.number) for request in run.calls_again]

    first = next(request for request in run.requests if request.prompt.cleared)
    before = run.at(first.number - 1)
    lesson_page.seek(before.number)
    lesson_page.expect_view(engine.view(time=before.number))
    assert lesson_page.verdicts() == rules_of(before)
    assert {rule for _, rule in lesson_page.verdicts()} == {"under_trigger"}
    expect(lesson_page.cleared_rows()).to_have_count(0)

    lesson_page.seek(first.number)
    view = engine.view(time=first.number)
    lesson_page.expect_view(view)
    assert lesson_page.verdicts() == rules_of(first)
    newest = [verdict.result for verdict in first.prompt.verdicts][-keep3.keep :]
    assert [result for result, rule in lesson_page.verdicts() if rule == "kept_recent"] == newest
    expect(lesson_page.cleared_rows()).to_have_count(len(first.prompt.cleared))
    expect(lesson_page.finding("Cleared")).to_have_text(f"{listed(first.prompt.cleared)}; at this request: {listed(first.newly_cleared)}")
    expect(lesson_page.finding("Prompt sent")).to_have_text(
        f"{first.prompt.tokens:,} tokens; {first.prompt.whole:,} before clearing, {first.prompt.reclaimed:,} reclaimed"
    )
    expect(lesson_page.finding("Cache")).to_have_text(
        f"read {first.cache.read:,}, written {first.cache.written:,}, uncached {first.cache.uncached:,}"
    )
    # The cache reads up to the first result this request clears, which the request before sent whole.
    end = prefix_end(before.prompt, first.prompt)
    assert end is not None and end.block == first.newly_cleared[0]
    expect(lesson_page.finding("The cache read stops at")).to_have_text(f"{end.block}: {end.why}")
    assert lesson_page.exact_state() == engine.as_json(view.state)


def test_clear_at_least_stops_at_the_same_oldest_results_so_the_cache_breaks_once(lesson_page, engine):
    batched = engine.presets["batched"]
    lesson_page.number("Clear at least").fill(str(batched.clear_at_least))
    lesson_page.expect_view(engine.view_of(batched))

    run = engine.run(batched)
    breaks = [request for request in run.requests if request.newly_cleared]
    assert len(breaks) == 1, "the lesson's promise: with clear_at_least the cache breaks once"
    assert lesson_page.calls_again() == [str(request.number) for request in run.calls_again]

    after = run.at(breaks[0].number + 1)
    lesson_page.seek(after.number)
    lesson_page.expect_view(engine.view_of(batched, time=after.number))
    assert lesson_page.verdicts() == rules_of(after)
    assert "enough_reclaimed" in {rule for _, rule in lesson_page.verdicts()}
    expect(lesson_page.finding("Cleared")).to_have_text(f"{listed(after.prompt.cleared)}; at this request: none")
    expect(lesson_page.panel.locator(".lk-verdicts tr.lk-newly")).to_have_count(0)
    held_back = next(verdict for verdict in after.prompt.verdicts if verdict.rule is Rule.ENOUGH_RECLAIMED)
    expect(lesson_page.verdict_row(held_back.result)).to_contain_text(f"clear_at_least is {batched.clear_at_least:,}")
    # Nothing changed early on: the cache reads the whole previous prompt and stops at what is new.
    end = prefix_end(run.at(after.number - 1).prompt, after.prompt)
    assert end is not None and end.why == "new since the previous request"
    expect(lesson_page.finding("The cache read stops at")).to_have_text(f"{end.block}: {end.why}")

    # Every later request clears the same oldest results, so the last prompt carries them cleared.
    last = run.requests[-1]
    assert last.prompt.cleared == breaks[0].prompt.cleared
    lesson_page.seek(last.number)
    lesson_page.expect_view(engine.view_of(batched, time=last.number))
    expect(lesson_page.cleared_rows()).to_have_count(len(breaks[0].prompt.cleared))


def test_excluding_update_plan_keeps_every_plan_and_spares_the_cache_when_a_plan_leaves_the_newest(lesson_page, engine):
    plan_kept = engine.presets["plan-kept"]
    lesson_page.checkbox("Exclude update_plan").check()
    lesson_page.expect_view(engine.view_of(plan_kept))
    expect(lesson_page.panel.locator("pre.lk-setting")).to_contain_text("exclude_tools=('update_plan',)")

    run = engine.run(plan_kept)
    spared = [request for request in run.requests if request.prompt.cleared and not request.newly_cleared]
    assert spared, "the lesson's promise: some requests clear nothing new once update_plan is excluded"
    request = spared[0]
    lesson_page.seek(request.number)
    view = engine.view_of(plan_kept, time=request.number)
    lesson_page.expect_view(view)
    assert lesson_page.verdicts() == rules_of(request)
    plans = [verdict.result for verdict in request.prompt.verdicts if verdict.tool == "update_plan"]
    assert plans and all(rule != "cleared" for result, rule in lesson_page.verdicts() if result in plans)
    assert "excluded" in {rule for _, rule in lesson_page.verdicts()}
    expect(lesson_page.finding("Cleared")).to_have_text(f"{listed(request.prompt.cleared)}; at this request: none")
    expect(lesson_page.status).to_contain_text(f"the cache read {request.cache.read:,} and wrote {request.cache.written:,}")
    # A spared request reads the whole prompt before it from the cache.
    assert request.cache.read == run.at(request.number - 1).prompt.tokens
    # Excluding the plan protects the plan, not the file: read_file is still called again.
    assert lesson_page.calls_again() == [str(again.number) for again in run.calls_again]
    assert lesson_page.totals_row("Tokens sent") == totals_cells("Tokens sent", run, engine.run(None), engine.run(plan_kept, caching=False))


def test_a_longer_placeholder_and_cleared_inputs_are_what_each_cleared_result_is_sent_as(lesson_page, engine):
    longest = PLACEHOLDERS[-1]
    lesson_page.choose("Placeholder", longest)
    lesson_page.checkbox("Clear tool inputs").check()
    setting = Clearing(**{**engine.presets["keep-3"].fields, "placeholder": longest, "clear_tool_inputs": True})
    lesson_page.expect_view(engine.view_of(setting))
    expect(lesson_page.panel.locator("pre.lk-setting")).to_have_text(written(setting, True))

    run = engine.run(setting)
    first = next(request for request in run.requests if request.newly_cleared)
    lesson_page.seek(first.number)
    lesson_page.expect_view(engine.view_of(setting, time=first.number))
    sent_as = f"“{longest}”, {placeholder_tokens(longest):,} tokens, its call's input cleared too; cleared at this request"
    expect(lesson_page.cleared_rows().locator("td:nth-child(3)")).to_have_text([sent_as] * len(first.newly_cleared))
    expect(lesson_page.finding("Prompt sent")).to_have_text(
        f"{first.prompt.tokens:,} tokens; {first.prompt.whole:,} before clearing, {first.prompt.reclaimed:,} reclaimed"
    )
    assert lesson_page.totals_row("Tokens sent") == totals_cells("Tokens sent", run, engine.run(None), engine.run(setting, caching=False))


def test_with_the_prompt_cache_off_everything_is_sent_uncached_and_the_cache_on_is_the_comparison(lesson_page, engine):
    keep3 = engine.presets["keep-3"]
    lesson_page.checkbox("Prompt cache").uncheck()
    lesson_page.expect_view(engine.view_of(keep3, caching=False))
    expect(lesson_page.panel.locator("pre.lk-setting")).to_have_text(written(keep3, False))
    expect(lesson_page.totals().locator("thead th")).to_have_text(
        ["Over the session", "This setting, cache off", "Clearing off, cache off", "This setting, cache on"]
    )
    run, off, cached = engine.run(keep3, caching=False), engine.run(None, caching=False), engine.run(keep3)
    assert lesson_page.totals_row("Read from the cache") == totals_cells("Read from the cache", run, off, cached)
    chart = lesson_page.panel.get_by_role("img", name="Prompt tokens per model request")
    expect(chart.locator("text", has_text="Uncached")).to_have_count(1)
    expect(chart.locator("text", has_text="Cache read")).to_have_count(0)

    request = run.at(next(r.number for r in run.requests if r.newly_cleared))
    lesson_page.seek(request.number)
    lesson_page.expect_view(engine.view_of(keep3, caching=False, time=request.number))
    expect(lesson_page.finding("Cache")).to_have_text(f"off: all {request.cache.uncached:,} tokens sent uncached, at the full input price")
    expect(lesson_page.finding("The cache read stops at")).to_have_count(0)
    expect(lesson_page.status).to_contain_text("the cache is off, so all of it is sent uncached")


def test_the_trigger_is_passed_only_by_a_prompt_strictly_over_it(lesson_page, engine):
    off = engine.run(None)
    largest = max(request.prompt.whole for request in off.requests)
    lesson_page.number("Trigger").fill(str(largest))
    at_largest = Clearing(**{**engine.presets["keep-3"].fields, "trigger": largest})
    lesson_page.expect_view(engine.view_of(at_largest))
    # No prompt is over it: nothing is cleared, no call is made again, and the run is clearing off's.
    assert engine.run(at_largest).totals == off.totals
    assert lesson_page.totals_row("Tokens sent") == totals_cells("Tokens sent", off, off, engine.run(at_largest, caching=False))
    expect(lesson_page.panel.locator("ol.lk-again-list")).to_have_count(0)
    expect(lesson_page.panel.locator("p.lk-empty", has_text="None: every result the agent needed")).to_have_count(1)

    lesson_page.number("Trigger").fill(str(largest - 1))
    one_less = Clearing(**{**engine.presets["keep-3"].fields, "trigger": largest - 1})
    lesson_page.expect_view(engine.view_of(one_less))
    run = engine.run(one_less)
    over = [request for request in run.requests if request.prompt.cleared]
    assert [request.prompt.whole for request in over] == [largest]
    lesson_page.seek(over[0].number)
    lesson_page.expect_view(engine.view_of(one_less, time=over[0].number))
    assert lesson_page.verdicts() == rules_of(over[0])
    expect(lesson_page.finding("Cleared")).to_have_text(
        f"{listed(over[0].prompt.cleared)}; at this request: {listed(over[0].newly_cleared)}"
    )


def test_keep_zero_clears_even_the_copy_called_again_and_says_what_the_agent_could_not_see(lesson_page, engine):
    lesson_page.number("Keep").fill("0")
    keep_none = Clearing(**{**engine.presets["keep-3"].fields, "keep": 0})
    lesson_page.expect_view(engine.view_of(keep_none))

    run = engine.run(keep_none)
    assert lesson_page.calls_again() == [str(request.number) for request in run.calls_again]
    blind = next(request for request in run.requests if request.unseen)
    called = next(request for request in run.calls_again if request.answer.again == blind.answer.id)
    again = lesson_page.panel.locator(f'ol.lk-again-list > li[data-request="{called.number}"]')
    expect(again).to_contain_text(f"Even so, {blind.answer.id} could not see it: its fresh copy was cleared too.")

    lesson_page.seek(blind.number)
    lesson_page.expect_view(engine.view_of(keep_none, time=blind.number))
    assert {rule for _, rule in lesson_page.verdicts()} == {"cleared"}
    call = engine.session.call(blind.unseen[0])
    expect(lesson_page.finding("Could not see")).to_have_text(
        f"the result of {call.id} ({call.tool} with “{call.input}”): cleared, even the copy called again"
    )
