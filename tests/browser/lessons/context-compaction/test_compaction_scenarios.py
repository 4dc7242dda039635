"""The lesson's promises in the live panel: which request each trigger fires before, what the model
then sees, and which settings are refused, in the setting's own words.

Each scenario asserts the figures the page's prose states and the engine's whole view, so neither
the page nor the panel can drift from the engine.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from lessonkit.lessons.context_compaction import Compaction, Manifest, Refusal

FILE = "statement-march.pdf"


def raised(call) -> str:
    with pytest.raises(Refusal) as refused:
        call()
    return str(refused.value)


def expect_refusal(lesson_page, message: str) -> None:
    """The alert shows `message` word for word, line breaks included."""
    expect(lesson_page.alert).to_be_visible()
    expect(lesson_page.alert).to_have_text(message)
    assert lesson_page.alert.inner_text() == message


def test_the_experiment_opens_on_the_size_setting_with_the_turn_pair_left_out(lesson_page, engine):
    lesson_page.expect_view(engine.view())
    for field, value in (("after_tokens", "3000"), ("keep_recent_events", "6")):
        expect(lesson_page.written(field)).to_be_checked()
        expect(lesson_page.value(field)).to_be_enabled()
        expect(lesson_page.value(field)).to_have_value(value)
    for field in ("after_invocations", "overlap"):
        expect(lesson_page.written(field)).not_to_be_checked()
        expect(lesson_page.value(field)).to_be_disabled()
    assert lesson_page.chosen("Summarizer") == "The agent's model" and lesson_page.chosen("Manifest") == "Agent"
    expect(lesson_page.alert).to_be_hidden()
    expect(lesson_page.panel).to_contain_text("compaction=Compaction(after_tokens=3000, keep_recent_events=6))")


def test_the_size_trigger_summarizes_before_the_request_the_engine_says(still_lesson_page, engine):
    run = engine.run(engine.presets["by-size"])
    fired = next(request for request in run.requests if request.decision and request.decision.summary)
    assert (fired.number, fired.decision.summary.id, run.request(fired.number - 1).prompt) == (10, "S1", 3016)

    still_lesson_page.seek(fired.number - 1)
    before = engine.view(time=fired.number - 1)
    still_lesson_page.expect_view(before)
    assert "Written just before" not in before.status
    assert still_lesson_page.seen_ids() == [*run.request(fired.number - 1).seen_ids, FILE]

    still_lesson_page.seek(fired.number)
    after = engine.view(time=fired.number)
    still_lesson_page.expect_view(after)
    expect(still_lesson_page.status).to_contain_text("Written just before it: S1 of u1–r4.")
    expect(still_lesson_page.status).to_contain_text("2,369 prompt tokens, 3,556 without compaction.")
    # The summary, then the six newest raw events left alone, then the file its words still name.
    assert still_lesson_page.seen_ids() == ["S1", "a3", "u4", "a4", "u5", "c5", "r5", FILE]
    assert still_lesson_page.exact_state() == engine.as_json(after.state)


def test_half_a_pair_shows_the_sources_refusal_word_for_word_in_the_alert(lesson_page, engine):
    lesson_page.write("keep_recent_events", None)

    view = engine.view(set_keep_recent_events=False)
    message = raised(lambda: Compaction(after_tokens=3000))
    assert view.refusal == message and message.startswith("Compaction sets `after_tokens` alone.\n")
    expect_refusal(lesson_page, message)
    lesson_page.expect_view(view)
    expect(lesson_page.status).to_contain_text("refused when the manifest is built (field after_tokens)")
    expect(lesson_page.value("keep_recent_events")).to_be_disabled()

    lesson_page.write("keep_recent_events", 6)
    lesson_page.expect_view(engine.view())
    expect(lesson_page.alert).to_be_hidden()


def test_a_workflow_manifest_with_compaction_is_refused_as_an_unknown_field(lesson_page, engine):
    lesson_page.choose("Manifest", "Workflow")

    view = engine.view(manifest="workflow")
    message = raised(lambda: Manifest("workflow", "lessonkit.lessons.context_compaction", compaction=engine.presets["by-size"]))
    assert view.refusal == message and message.startswith("unknown field `compaction`: a WorkflowManifest has no field `compaction`.")
    expect_refusal(lesson_page, message)
    lesson_page.expect_view(view)
    expect(lesson_page.panel).to_contain_text('Manifest("workflow", "lessonkit.lessons.context_compaction", compaction=')

    lesson_page.choose("Manifest", "Agent")
    lesson_page.expect_view(engine.view())
    expect(lesson_page.alert).to_be_hidden()


def test_a_setting_with_no_trigger_is_refused(lesson_page, engine):
    lesson_page.write("after_tokens", None)
    lesson_page.write("keep_recent_events", None)

    expect_refusal(lesson_page, raised(lambda: Compaction()))
    lesson_page.expect_view(engine.view(set_after_tokens=False, set_keep_recent_events=False))


def test_after_tokens_zero_is_refused_by_the_setting_in_its_words_not_by_the_field(lesson_page, engine):
    lesson_page.value("after_tokens").fill("0")

    expect_refusal(lesson_page, raised(lambda: Compaction(after_tokens=0, keep_recent_events=6)))
    expect(lesson_page.alert).to_contain_text("after_tokens is 0; allowed: a whole number greater than 0")
    expect(lesson_page.value("after_tokens")).not_to_have_attribute("aria-invalid", "true")
    lesson_page.expect_view(engine.view(after_tokens=0))


def turn_pair(lesson_page, overlap: int | None) -> None:
    lesson_page.write("after_tokens", None)
    lesson_page.write("keep_recent_events", None)
    lesson_page.write("after_invocations", 4)
    lesson_page.write("overlap", overlap)


TURNS = {"set_after_tokens": False, "set_keep_recent_events": False, "set_after_invocations": True, "set_overlap": True}


def test_the_turn_trigger_with_overlap_re_includes_a_turn_and_keeps_both_summaries_in_view(still_lesson_page, engine):
    turn_pair(still_lesson_page, 1)
    still_lesson_page.expect_view(engine.view(**TURNS))

    still_lesson_page.seek(18)
    view = engine.view(**TURNS, time=18)
    still_lesson_page.expect_view(view)
    assert still_lesson_page.seen_ids() == ["S1", "S2", "u9", FILE]
    state = still_lesson_page.exact_state()
    assert [(entry["id"], entry["covers"][0], entry["covers"][-1]) for entry in state["seen"][:2]] == [
        ("S1", "u1", "a4"),
        ("S2", "u4", "a8"),
    ]
    assert state == engine.as_json(view.state)


def test_overlap_left_out_is_refused_and_overlap_zero_is_a_setting(still_lesson_page, engine):
    turn_pair(still_lesson_page, None)
    expect_refusal(still_lesson_page, raised(lambda: Compaction(after_invocations=4)))
    expect(still_lesson_page.value("overlap")).to_be_disabled()

    still_lesson_page.write("overlap", 0)
    expect(still_lesson_page.alert).to_be_hidden()
    still_lesson_page.seek(18)
    view = engine.view(**TURNS, overlap=0, time=18)
    still_lesson_page.expect_view(view)
    state = still_lesson_page.exact_state()
    # With overlap=0 the second summary starts where the first ended: they meet without overlapping.
    assert [(entry["id"], entry["covers"][0], entry["covers"][-1]) for entry in state["seen"][:2]] == [
        ("S1", "u1", "a4"),
        ("S2", "u5", "a8"),
    ]


def test_both_triggers_fire_whichever_comes_first(still_lesson_page, engine):
    still_lesson_page.write("after_invocations", 4)
    still_lesson_page.write("overlap", 1)
    run = engine.run(engine.presets["both"])
    fired = [(str(d.moment), d.trigger, d.summary.id) for d in run.decisions if d.summary]
    assert fired[:2] == [("after turn 4", "turns", "S1"), ("after turn 7", "size", "S2")]

    both = {"set_after_invocations": True, "set_overlap": True}
    for request in (9, 16):
        still_lesson_page.seek(request)
        still_lesson_page.expect_view(engine.view(**both, time=request))
        assert still_lesson_page.seen_ids()[0] == {9: "S1", 16: "S2"}[request]


def test_the_rule_based_summarizer_changes_the_counters_as_the_engine_says(lesson_page, engine):
    lesson_page.choose("Summarizer", "Rule-based (Terse)")

    view = engine.view(summarizer="terse")
    lesson_page.expect_view(view)
    expect(lesson_page.status).to_contain_text("5 summarizer calls; 63,675 tokens sent with compaction, 94,060 without.")
    expect(lesson_page.panel).to_contain_text("summarizer='.summarizers.terse'")
    read = lesson_page.panel.locator("dt", has_text="Read by the summarizer").locator("xpath=following-sibling::dd[1]")
    expect(read).to_have_text("none: it calls no model")
