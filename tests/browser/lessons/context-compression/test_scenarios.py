"""The lesson's promises, seen in the live panel: tokens, retained turns, mention versus evidence.

Each headline scenario asserts the seed's literal figures (what the prose promises a reader) and the
engine's full view (what the panel must render), so neither the page nor the prose can drift.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

MUMBAI = "deployment region: Mumbai"


def test_before_any_message_arrives_the_window_is_empty(lesson_page, engine):
    start = engine.view()

    assert start.status == "No message has arrived yet: 0 of 24 tokens. Answer: unknown."
    lesson_page.expect_view(start)
    expect(lesson_page.timeline).to_have_value("0")
    expect(lesson_page.button("Play messages")).to_be_visible()
    expect(lesson_page.rows()).to_have_count(0)
    assert lesson_page.exact_state() == engine.as_json(start.state)


def test_evicting_at_thirty_seconds_keeps_the_mention_but_loses_the_evidence(lesson_page, engine):
    lesson_page.choose("Context budget", "24")
    lesson_page.choose("Policy", "Evict oldest")
    lesson_page.seek(30)

    promised = (
        "23 of 24 tokens after T4 at 30 s (attempted 30). Retained: T1, T3, T4. "
        "Fact mentioned: yes. User-backed evidence: none. Answer: unsupported."
    )
    view = engine.view(24, "evict", time=30)
    assert view.status == promised
    expect(lesson_page.status).to_have_text(promised)
    expect(lesson_page.panel.get_by_role("heading", name="Retained messages")).to_be_visible()
    expect(lesson_page.panel.locator("ol > li[data-id]")).to_have_count(3)
    assert lesson_page.retained_ids() == ["T1", "T3", "T4"]
    # T3 repeats Mumbai, but only the user's T2 backed it: nothing retained is evidence.
    assert lesson_page.evidence_ids() == []
    state = lesson_page.exact_state()
    assert (state["attempted_tokens"], state["tokens"], state["operations"]) == (30, 23, ["evict T2"])
    assert state == engine.as_json(view.state)


def test_evicting_to_the_end_of_a_24_token_budget_leaves_the_answer_unsupported(lesson_page, engine):
    lesson_page.choose("Policy", "Evict oldest")
    lesson_page.seek(60)

    view = engine.view(24, "evict", time=60)
    lesson_page.expect_view(view)
    expect(lesson_page.status).to_contain_text("23 of 24 tokens after T8 at 60 s")
    expect(lesson_page.status).to_contain_text("Retained: T1, T7, T8.")
    expect(lesson_page.status).to_contain_text("Answer: unsupported.")
    assert lesson_page.retained_ids() == ["T1", "T7", "T8"]
    assert lesson_page.evidence_ids() == []


def test_summarizing_with_the_fact_preserved_keeps_t2_as_the_source_of_the_answer(lesson_page, engine):
    lesson_page.choose("Policy", "Summarize older turns")
    lesson_page.choose("Fidelity", "Preserve critical fact")
    lesson_page.seek(60)

    view = engine.view(24, "summarize", "preserve", 60)
    lesson_page.expect_view(view)
    expect(lesson_page.status).to_contain_text("22 of 24 tokens")
    expect(lesson_page.status).to_contain_text("Retained: T1, S, T8.")
    expect(lesson_page.status).to_contain_text("User-backed evidence: T2.")
    expect(lesson_page.status).to_contain_text(f"Answer: {MUMBAI}.")
    assert lesson_page.retained_ids() == ["T1", "S", "T8"]
    assert lesson_page.evidence_ids() == ["S"]
    summary = lesson_page.panel.locator('li.lk-evidence[data-id="S"]')
    expect(summary).to_contain_text("user-backed · source T2")
    assert lesson_page.exact_state() == engine.as_json(view.state)


def test_dropping_the_fact_from_the_summary_uses_the_same_space_but_answers_unknown(lesson_page, engine):
    lesson_page.choose("Policy", "Summarize older turns")
    lesson_page.choose("Fidelity", "Drop critical fact")
    lesson_page.seek(60)

    view = engine.view(24, "summarize", "drop", 60)
    lesson_page.expect_view(view)
    expect(lesson_page.status).to_contain_text("22 of 24 tokens")
    expect(lesson_page.status).to_contain_text("User-backed evidence: none.")
    expect(lesson_page.status).to_contain_text("Answer: unknown.")
    assert lesson_page.retained_ids() == ["T1", "S", "T8"]
    assert lesson_page.evidence_ids() == []


def test_only_a_64_token_budget_keeps_the_user_instruction_when_evicting(lesson_page, engine):
    promised_tokens = {36: 36, 48: 44, 64: 58}
    lesson_page.choose("Policy", "Evict oldest")
    for budget, tokens in promised_tokens.items():
        lesson_page.choose("Context budget", str(budget))
        lesson_page.seek(60)

        view = engine.view(budget, "evict", time=60)
        lesson_page.expect_view(view)
        expect(lesson_page.status).to_contain_text(f"{tokens} of {budget} tokens after T8")
        if budget == 64:
            expect(lesson_page.status).to_contain_text(f"Answer: {MUMBAI}.")
            assert lesson_page.retained_ids() == [f"T{n}" for n in range(1, 9)]
            assert lesson_page.evidence_ids() == ["T2"]
        else:
            expect(lesson_page.status).to_contain_text("User-backed evidence: none.")
            expect(lesson_page.status).to_contain_text("Answer: unsupported.")
            assert lesson_page.evidence_ids() == []
        assert lesson_page.retained_ids() == list(engine.replay(budget, "evict").final.retained)


def test_every_arrival_of_every_setting_reads_as_the_engine_computes_it(lesson_page, engine):
    labels = {choice.name: {option.value: option.label for option in choice.options} for choice in engine.panel.controls}
    marks = engine.marks
    # Every arrival, plus moments between arrivals, which must show the latest arrival before them.
    moments = sorted({0, *marks, *(mark - engine.panel.timeline.step for mark in marks), 33.5})
    for budget in labels["budget"]:
        for policy in labels["policy"]:
            for fidelity in labels["fidelity"]:
                lesson_page.choose("Context budget", labels["budget"][budget])
                lesson_page.choose("Policy", labels["policy"][policy])
                lesson_page.choose("Fidelity", labels["fidelity"][fidelity])
                for moment in moments:
                    lesson_page.seek(moment)
                    lesson_page.expect_view(engine.view(budget, policy, fidelity, moment))
                assert lesson_page.retained_ids() == list(engine.replay(budget, policy, fidelity).final.retained)


def test_evicted_and_folded_turns_stay_in_view_as_gone(lesson_page, engine):
    lesson_page.choose("Policy", "Evict oldest")
    lesson_page.seek(60)
    lesson_page.expect_view(engine.view(24, "evict", time=60))
    gone = lesson_page.panel.locator("li[data-gone]")
    assert lesson_page.gone_ids() == ["T2", "T3", "T4", "T5", "T6"]
    expect(gone.filter(has_text="T2")).to_contain_text("evicted at 30 s")

    lesson_page.choose("Policy", "Summarize older turns")
    lesson_page.seek(60)
    lesson_page.expect_view(engine.view(24, "summarize", time=60))
    assert lesson_page.gone_ids() == ["T2", "T3", "T4", "T5", "T6", "T7"]
    expect(gone.filter(has_text="T2")).to_contain_text("folded into S at 30 s")


def test_the_chart_draws_the_baselines_run_beside_the_current_one(lesson_page, engine):
    chart = lesson_page.panel.get_by_role("img", name="Window tokens at each arrival")
    expect(chart).to_be_visible()
    lesson_page.choose("Policy", "Summarize older turns")
    lesson_page.seek(60)
    lesson_page.button("Capture baseline").click()

    lesson_page.choose("Fidelity", "Drop critical fact")
    lesson_page.seek(60)
    baseline = {"budget": 24, "policy": "summarize", "fidelity": "preserve", "time": 60}
    view = engine.view(24, "summarize", "drop", 60, baseline=baseline)
    lesson_page.expect_view(view)
    # Same size, different evidence: both lines end at 22 tokens, and the chart says which point holds evidence.
    expect(chart).to_have_accessible_description(
        re.compile(r"beside the captured baseline \(budget 24, Summarize older turns, Preserve critical fact\)")
    )
    expect(lesson_page.panel.locator(".lk-series-1 polyline")).to_have_count(1)
    numbers = lesson_page.panel.locator("details.lk-chart-data table")
    expect(numbers.locator("tr").last).to_contain_text("T8 (60)2222")
    assert (
        lesson_page.panel.locator(".lk-series-0 .lk-point-hollow").count()
        > lesson_page.panel.locator(".lk-series-1 .lk-point-hollow").count()
    )
