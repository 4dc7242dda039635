"""The sentences the compaction lesson's exercises answer a reader with: each says what the engine found."""

from __future__ import annotations

import pytest

from lessonkit.checks import Refused
from lessonkit.lessons.context_compaction import (
    SIZE_PAIR_REFUSAL,
    Compaction,
    Moment,
    Refusal,
    checks_at,
    compare_summarizers,
    deployment,
    lesson,
    refusal_of,
    seen_in,
    simulate,
)

BY_SIZE = simulate(lesson().presets["by-size"], "model")
BY_TURNS = simulate(lesson().presets["by-turns"], "model")
BOTH = simulate(lesson().presets["both"], "model")


def test_the_size_check_before_a_request_reads_the_prompt_already_sent():
    assert checks_at(BY_SIZE, Moment.before_request(9)) == (
        "Before request 9, the size trigger finds the last request's prompt: 2,954 tokens, under 3,000."
    )
    assert checks_at(BY_SIZE, Moment.before_request(10)) == (
        "Before request 10, the size trigger finds the last request's prompt: 3,016 tokens, at or over 3,000; "
        "S1 summarizes u1–r4 in 297 tokens."
    )


def test_without_the_size_pair_nothing_is_checked_before_a_request_and_it_says_why():
    assert checks_at(BY_TURNS, Moment.before_request(9)) == (
        "Before request 9, no trigger is checked: only the size trigger checks before a request, and this setting leaves it out."
    )


def test_after_a_turn_both_triggers_are_reported_and_a_size_summary_spares_the_turn_check():
    assert checks_at(BOTH, Moment.after_turn(8)) == (
        "After turn 8, the size trigger finds the last request's prompt: 2,886 tokens, under 3,000; "
        "the turn trigger finds 3 new turns since the last summary, under 4."
    )
    assert checks_at(BOTH, Moment.after_turn(7)).endswith("; the turn trigger is not checked, because the size trigger wrote a summary.")


@pytest.mark.parametrize(
    ("moment", "words"),
    [
        (
            Moment.before_request(25),
            "moment is 'before request 25'; allowed: a moment of this run: before request 1 to 24, or after turn 1 to 12",
        ),
        (Moment.after_turn(13), "moment is 'after turn 13'; allowed: a moment of this run"),
        ("before request 9", "moment is 'before request 9'; allowed: a Moment"),
    ],
)
def test_a_moment_outside_the_run_is_refused(moment, words):
    with pytest.raises(Refused, match=words):
        checks_at(BY_SIZE, moment)


def test_a_request_says_which_summary_was_written_just_before_it():
    assert seen_in(BY_TURNS, 9) == (
        "Request 9, in turn 5, sees S1, written just before it, and 1 of the 17 raw events the session stores: "
        "1,741 tokens with statement-march.pdf attached, against 3,016 without compaction."
    )
    assert "sees S1 and 3 of the 19 raw events" in seen_in(BY_TURNS, 10)
    assert "sees S1 and S2, S2 written just before it, and 1 of the 35 raw events" in seen_in(BY_TURNS, 18)


def test_a_request_before_any_summary_sees_every_stored_event_and_sends_what_it_would_without_compaction():
    assert seen_in(BY_SIZE, 8) == (
        "Request 8, in turn 4, sees no summary and all 15 raw events the session stores: "
        "2,954 tokens with statement-march.pdf attached, as many as without compaction."
    )


def test_a_request_outside_the_run_is_refused():
    with pytest.raises(Refused, match="request is 25; allowed"):
        seen_in(BY_SIZE, 25)


def test_half_a_pair_is_refused_at_build_naming_the_field_that_was_written():
    refusal = refusal_of("Compaction(after_tokens=3000)")
    assert isinstance(refusal, Refusal)
    assert (refusal.field, refusal.moment) == ("after_tokens", "build")
    assert str(refusal) == f"Compaction sets `after_tokens` alone.\n{SIZE_PAIR_REFUSAL}"
    assert refusal_of("Compaction(after_tokens=3000, keep_recent_events=6, after_invocations=4)").field == "after_invocations"


def test_a_zero_is_a_value_and_stands_where_a_field_left_out_is_refused():
    assert refusal_of("Compaction(after_tokens=3000, keep_recent_events=0)") is None
    assert refusal_of("Compaction(after_invocations=4, overlap=0)") is None
    assert refusal_of("Compaction(after_invocations=4)").field == "after_invocations"


def test_a_workflow_is_refused_at_build_and_a_root_without_a_model_at_start_unless_the_setting_names_its_summarizer():
    own = "Compaction(after_tokens=3000, keep_recent_events=6, summarizer='.summarizers.terse')"
    assert refusal_of(own, "workflow").moment == "build"
    assert refusal_of("Compaction(after_tokens=3000, keep_recent_events=6)", root="SequentialAgent").moment == "start"
    assert refusal_of(own, root="SequentialAgent") is None


def test_deployment_quotes_the_refusal_word_for_word_on_one_line():
    sentence = deployment("Compaction(after_tokens=3000)")
    assert sentence == (
        "Compaction(after_tokens=3000) is refused when the manifest is built: "
        + " ".join(f"Compaction sets `after_tokens` alone.\n{SIZE_PAIR_REFUSAL}".split())
    )
    assert "\n" not in sentence


def test_deployment_of_a_setting_that_stands_says_how_it_compacts_and_with_what():
    assert deployment("Compaction(after_tokens=3000, keep_recent_events=6, after_invocations=4, overlap=1)") == (
        "Compaction(after_tokens=3000, keep_recent_events=6, after_invocations=4, overlap=1) stands: it compacts by size once "
        "a request's prompt reaches 3,000 tokens, keeping the newest 6 raw events, and by turns every 4 turns, re-including "
        "1 earlier turn; the pod starts with the agent's model as its summarizer."
    )
    assert deployment("Compaction(after_invocations=4, overlap=1, summarizer='.summarizers.terse')").endswith(
        "the pod starts with '.summarizers.terse' as its summarizer."
    )


@pytest.mark.parametrize(
    ("written", "words"),
    [
        ("after_tokens=3000", "written is 'after_tokens=3000'; allowed: a setting written as code"),
        ("Compaction(3000, 6)", "written is 'Compaction\\(3000, 6\\)'; allowed: a setting written as code"),
        ("Manifest(after_tokens=3000)", "allowed: a setting written as code"),
        ("Compaction(budget=3000)", "allowed: each of the fields after_tokens, keep_recent_events"),
        ("Compaction(after_tokens=3000, after_tokens=4000)", "allowed: each of the fields"),
        ("Compaction(after_tokens=__import__('os'))", "allowed: a number, a string or None for each field"),
        ("Compaction(after_tokens=1 + 2)", "allowed: a number, a string or None for each field"),
        ("Compaction(after_tokens=3000", "allowed: a setting written as code"),
        ("Compaction(**fields)", "allowed: each of the fields"),
        (3000, "written is 3000; allowed"),
    ],
)
def test_text_that_is_not_a_compaction_setting_is_refused_and_never_run(written, words):
    with pytest.raises(Refused, match=words) as refused:
        refusal_of(written)
    assert not isinstance(refused.value, Refusal)


def test_an_unknown_manifest_or_root_is_refused():
    with pytest.raises(Refused, match="manifest is 'graph'"):
        refusal_of("Compaction(after_tokens=3000, keep_recent_events=6)", "graph")
    with pytest.raises(Refused, match="root is 'Agent'"):
        deployment("Compaction(after_tokens=3000, keep_recent_events=6)", root="Agent")


def test_each_summarizer_is_set_beside_the_other_on_the_same_setting():
    setting = lesson().presets["by-size"]
    assert compare_summarizers(setting, "terse") == (
        "The rule-based summarizer writes 5 summaries, and the session's requests send 63,675 tokens, "
        "1,976 more than with the agent's model, which writes 3."
    )
    assert compare_summarizers(setting, "model") == (
        "The agent's model writes 3 summaries, and the session's requests send 61,699 tokens, "
        "1,976 fewer than with the rule-based summarizer, which writes 5."
    )


def test_compare_summarizers_refuses_what_is_not_a_setting_or_a_built_in_summarizer():
    with pytest.raises(Refused, match="summarizer is 'gpt'"):
        compare_summarizers(Compaction(after_tokens=3000, keep_recent_events=6), "gpt")
    with pytest.raises(Refused, match="compaction is 'by-size'; allowed: a Compaction"):
        compare_summarizers("by-size", "model")
