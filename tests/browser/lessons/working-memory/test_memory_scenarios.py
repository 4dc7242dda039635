"""The lesson's scenarios, reproduced in the live panel through the controls' accessible names.

Each scenario sets the controls as the page tells the reader to, inspects the final stage, and
compares what the panel shows with the engine's view; the figures the prose promises (nine words,
zero of one) are asserted as well, so neither the page nor the panel can drift from the engine.
"""

from __future__ import annotations

from playwright.sync_api import expect


def test_the_timeout_question_in_working_context_fits_m5_exactly_at_budget_nine(lesson_page, engine):
    lesson_page.set(**engine.walkthrough, word_budget=9)
    lesson_page.inspect_final_stage()

    view = engine.view(engine.final, **engine.walkthrough, word_budget=9)
    lesson_page.expect_view(view)
    expect(lesson_page.status).to_contain_text("Selected: M5, using 9 of 9 words")
    assert engine.record("M5").words == 9
    assert lesson_page.tray_ids() == ["M5"]
    expect(lesson_page.selected_context).to_contain_text(engine.record("M5").text)
    assert lesson_page.cells("M5")["Outcome"] == "Selected"


def test_at_budget_eight_m5_is_skipped_the_tray_is_empty_and_m5_and_m10_stay_in_the_table(lesson_page, engine):
    lesson_page.set(**engine.walkthrough, word_budget=8)
    lesson_page.inspect_final_stage()

    view = engine.view(engine.final, **engine.walkthrough, word_budget=8)
    lesson_page.expect_view(view)
    run = engine.retrieve(**engine.walkthrough, word_budget=8)
    assert run.tray.ids == ()
    assert lesson_page.tray_ids() == []
    expect(lesson_page.selected_context).to_contain_text("The selected context is empty")
    # A selection limit, not a deletion: every stored record is still in the table.
    assert lesson_page.table_ids() == [f"M{n}" for n in range(1, 11)]
    assert lesson_page.cells("M5")["Outcome"] == "Skipped: 9 words, 8 left" == run.candidate("M5").note.capitalize()
    assert lesson_page.cells("M10")["Outcome"] == "Excluded: shares no term with the question"


def test_m10_cannot_fill_the_gap_because_it_shares_no_term_with_the_timeout_question(lesson_page, engine):
    lesson_page.set(**engine.walkthrough, word_budget=8)
    lesson_page.seek(2 * engine.stage_seconds)  # the ranking stage

    lesson_page.expect_view(engine.view(2 * engine.stage_seconds, **engine.walkthrough, word_budget=8))
    m10 = engine.retrieve(**engine.walkthrough, word_budget=8).candidate("M10")
    assert (m10.shared_terms, m10.cosine, m10.reason) == ((), 0.0, "no-shared-term")
    assert lesson_page.cells("M10") == {
        "ID": "M10",
        "Memory text": engine.record("M10").text,
        "Cosine": "0.000",
        "Blended score": "0.000",
        "Outcome": "Excluded: shares no term with the question",
    }

    # Recency alone never admits it: even at weight 1 the tray stays empty.
    lesson_page.set(recency_weight=1)
    lesson_page.inspect_final_stage()
    lesson_page.expect_view(engine.view(engine.final, **{**engine.walkthrough, "recency_weight": 1}, word_budget=8))
    assert lesson_page.tray_ids() == []
    assert lesson_page.cells("M10")["Outcome"] == "Excluded: shares no term with the question"


def test_the_deployment_region_question_in_working_context_matches_deployment_but_covers_zero_of_one(lesson_page, engine):
    settings = {**engine.walkthrough, "question": "deployment-region", "word_budget": 40}
    lesson_page.set(**settings)
    lesson_page.inspect_final_stage()

    lesson_page.expect_view(engine.view(engine.final, **settings))
    run = engine.retrieve(**settings)
    assert all("deployment" in run.candidate(record).shared_terms for record in ("M5", "M10"))
    assert run.coverage.text == "0 of 1"
    assert lesson_page.tray_ids() == ["M5", "M10"]
    expect(lesson_page.selected_context).to_contain_text("Supporting-fact coverage")
    expect(lesson_page.selected_context).to_contain_text("0 of 1")
    # Both match "deployment"; neither names a region.
    for item in lesson_page.selected_context.locator("li[data-id]").all():
        expect(item).not_to_contain_text("region")


def test_semantic_facts_with_previous_sessions_supply_mumbai_and_turning_them_off_removes_it(lesson_page, engine):
    settings = {**engine.walkthrough, "question": "deployment-region", "word_budget": 40, "store": "semantic", "include_previous": True}
    lesson_page.set(**settings)
    lesson_page.inspect_final_stage()

    lesson_page.expect_view(engine.view(engine.final, **settings))
    assert "M2" in lesson_page.tray_ids()
    expect(lesson_page.selected_context).to_contain_text("Mumbai")
    expect(lesson_page.selected_context).to_contain_text("1 of 1")

    lesson_page.set(include_previous=False)
    lesson_page.inspect_final_stage()

    lesson_page.expect_view(engine.view(engine.final, **{**settings, "include_previous": False}))
    assert "M2" not in lesson_page.tray_ids()
    expect(lesson_page.selected_context).not_to_contain_text("Mumbai")
    assert lesson_page.cells("M2")["Outcome"] == "Excluded: comes from a previous session"


def test_team_b_with_previous_sessions_gets_london_from_m9_and_no_team_a_record(lesson_page, engine):
    settings = {
        **engine.walkthrough,
        "question": "deployment-region",
        "word_budget": 40,
        "store": "semantic",
        "include_previous": True,
        "tenant": "team-b",
    }
    lesson_page.set(**settings)
    lesson_page.inspect_final_stage()

    lesson_page.expect_view(engine.view(engine.final, **settings))
    assert lesson_page.tray_ids() == ["M9"]
    expect(lesson_page.selected_context).to_contain_text("London")
    team_a = [record.id for record in engine.retrieve(**settings).candidates if record.record.tenant == "team-a"]
    assert not set(team_a) & set(lesson_page.tray_ids())
    for record in team_a:
        # Another tenant's record reveals nothing beyond its exclusion: no cosine, no score.
        assert lesson_page.cells(record) | {"Memory text": ""} == {
            "ID": record,
            "Memory text": "",
            "Cosine": "—",
            "Blended score": "—",
            "Outcome": "Excluded: belongs to the other tenant",
        }


def test_every_stage_of_the_walkthrough_reads_as_the_engine_computes_it(lesson_page, engine):
    lesson_page.set(**engine.walkthrough, word_budget=9)
    for moment in (0, 5, *engine.marks, engine.final - 1):
        lesson_page.seek(moment)
        view = engine.view(moment, **engine.walkthrough, word_budget=9)
        lesson_page.expect_view(view)
        mark = engine.panel.timeline.marks[view.state["stage"] - 1]
        expect(lesson_page.timeline).to_have_attribute("aria-valuetext", f"{moment:g} seconds, {mark.name}")
        assert {record: lesson_page.cells(record)["Outcome"] for record in ("M4", "M5", "M10")} == {
            record: engine.outcomes(view)[record] for record in ("M4", "M5", "M10")
        }
