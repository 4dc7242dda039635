"""The compression engine's sentences for exercise feedback say what the engine found for the reader's choice."""

from __future__ import annotations

import pytest

from lessonkit.checks import Refused
from lessonkit.lessons.context_compression import ending, evidence, provenance, replay, verdict


def test_evidence_still_reads_as_before_for_a_backed_and_an_unsupported_window():
    assert evidence(replay(24, "evict").at(15)) == (
        "At 15 s the window holds T1, T2 (15 tokens): the user said it in T2, which is still there, so the fact is backed."
    )
    assert evidence(replay(24, "evict").at(30)) == (
        "At 30 s the window holds T1, T3, T4 (23 tokens): T3 still mentions the fact, but the user's own turn is gone, so it is unsupported."
    )


def test_verdict_names_the_answer_the_window_gives_beside_the_one_the_reader_expected():
    final = replay(24, "summarize", "drop").final
    assert verdict(final, "unknown").startswith('At 60 s the window of T1, S, T8 (22 tokens) answers "unknown": ')
    assert 'answers "unknown", not "deployment region: Mumbai": ' in verdict(final, "deployment region: Mumbai")


def test_verdict_blames_a_dropping_summary_for_an_unknown_answer():
    assert verdict(replay(24, "summarize", "drop").final, "unsupported").endswith(
        "nothing in it mentions the fact, because S folded T2, T3, T4, T5, T6, T7 and left it out."
    )
    assert verdict(replay(24, "evict").at(37.5), "unknown").endswith(": nothing in it mentions the fact.")


def test_verdict_of_a_preserving_summary_says_the_summary_still_cites_the_user():
    assert verdict(replay(24, "summarize", "preserve").final, "unsupported") == (
        'At 60 s the window of T1, S, T8 (22 tokens) answers "deployment region: Mumbai", not "unsupported": '
        "the user said it in T2, which the summary still cites, so the fact is backed."
    )


def test_provenance_tells_a_citing_summary_from_an_agent_echo_and_a_user_question():
    final = replay(48, "summarize", "preserve").final
    assert provenance(final, "S").endswith("which cites the user's T2 as its source, so S is user-backed evidence.")
    assert provenance(final, "T7") == (
        "At 60 s the window holds T7 (an agent turn), which mentions the fact without a user source, so T7 backs nothing."
    )
    assert provenance(final, "T8") == "At 60 s the window holds T8 (a user turn), which does not state the fact, so T8 backs nothing."


def test_provenance_says_where_a_turn_went_when_the_window_no_longer_holds_it():
    assert provenance(replay(48, "summarize").final, "T2") == (
        "At 60 s the window does not hold T2, which was folded into S; it holds T1, S, T5, T6, T7, T8."
    )
    assert provenance(replay(24, "evict").at(40), "T3") == "At 37.5 s the window does not hold T3; it holds T1, T4, T5."
    assert provenance(replay(24, "evict").at(15), "T1").startswith("At 15 s the window holds T1 (the pinned system turn), ")


def test_provenance_of_the_users_own_turn_calls_it_evidence():
    assert provenance(replay(24, "evict").at(15), "T2") == (
        "At 15 s the window holds T2 (a user turn), which states the fact in the user's own words, so T2 is user-backed evidence."
    )


def test_ending_names_the_budget_the_policy_and_what_the_last_window_shows():
    assert ending(replay(48, "evict")) == (
        "Budget 48 with Evict oldest ends at 60 s with T1, T4, T5, T6, T7, T8 (44 tokens): "
        "T7 still mentions the fact, but the user's own turn is gone, so it is unsupported."
    )
    assert ending(replay(24, "summarize", "drop")).startswith(
        "Budget 24 with Summarize older turns and Drop critical fact ends at 60 s with T1, S, T8 (22 tokens): "
    )


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            lambda: verdict(replay(24, "evict").final, "Mumbai"),
            "expected is 'Mumbai'; allowed: 'deployment region: Mumbai', 'unsupported', 'unknown'",
        ),
        (lambda: verdict({"time": 60}, "unknown"), "arrival is {'time': 60}; allowed: an Arrival"),
        (lambda: provenance(replay(24, "evict").final, ["T2"]), "entry_id is ['T2']; allowed: a non-empty string"),
        (lambda: provenance(replay(24, "evict"), "T2"), "allowed: an Arrival"),
        (lambda: ending(replay(24, "evict").final), "allowed: a Replay"),
    ],
)
def test_each_feedback_sentence_refuses_a_bad_argument_with_what_is_allowed(call, words):
    with pytest.raises(Refused) as refused:
        call()
    assert words in str(refused.value)
