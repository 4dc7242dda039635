"""The working-memory exercises answer a reader's choice with what the engine decided: about one
record (`record_outcome`), or about every record that ended one way (`records_with_outcome`)."""

import pytest

from lessonkit.checks import Refused
from lessonkit.lessons.working_memory import OUTCOMES, REASONS, lesson, record_outcome, records_with_outcome, retrieve


def test_a_skipped_record_is_described_by_its_rank_its_length_and_the_words_left():
    run = retrieve("timeout", word_budget=8)
    assert record_outcome(run, "M5") == (
        "M5 is ranked 1 of 1 (cosine 0.226, score 0.226) but skipped: its 9 words do not fit in the 8 left."
    )


def test_a_selected_and_an_over_limit_record_say_what_packing_did_with_them():
    run = retrieve("deployment-region", store="all", recency_weight=1)
    assert record_outcome(run, "M5").endswith("and selected: its 9 words fit in the 40 left.")
    assert record_outcome(run, "M2") == (
        "M2, a declared supporting fact, is ranked 4 of 5 (cosine 0.592, score 0.420) "
        "but over the record limit: the context already holds 3 records."
    )


def test_an_excluded_record_gives_its_one_reason_and_a_superseded_one_names_its_newer_version():
    assert record_outcome(retrieve("timeout"), "M10") == "M10 is excluded: it shares no term with the question."
    assert record_outcome(retrieve("deployment-region", store="episodic"), "M1") == (
        "M1 is excluded: it has a newer record with the same key, M2."
    )


def test_a_declared_supporting_fact_of_the_active_tenant_is_called_one_and_another_tenants_is_not():
    assert record_outcome(retrieve("timeout"), "M4") == "M4, a declared supporting fact, is excluded: it is in another memory store."
    assert record_outcome(retrieve("rollback", store="all"), "M7") == "M7 is excluded: it belongs to the other tenant."


def test_another_tenants_record_is_only_said_to_be_excluded_never_scored():
    sentence = record_outcome(retrieve("deployment-region", store="semantic"), "M9")
    assert sentence == "M9 is excluded: it belongs to the other tenant."
    assert "cosine" not in sentence and "score" not in sentence


def test_records_excluded_for_one_reason_are_named_and_a_reason_nobody_was_given_says_so():
    run = retrieve("deployment-region")
    assert records_with_outcome(run, "store") == "Excluded because each is in another memory store: M1, M2, M3, M4, M6 and M8."
    assert records_with_outcome(run, "session") == "No record's reason for exclusion is that it comes from a previous session."


def test_an_empty_tray_and_a_skipped_record_are_reported_as_the_table_shows_them():
    run = retrieve("timeout", word_budget=8)
    assert records_with_outcome(run, "selected") == "No record is selected: the selected context is empty."
    assert records_with_outcome(run, "skipped") == "Skipped, too long for the words left: M5 (9 words, 8 left)."
    assert records_with_outcome(run, "over-limit") == "No record is over the record limit."


def test_excluded_groups_every_excluded_record_under_its_reason_in_the_order_of_precedence():
    sentence = records_with_outcome(retrieve("timeout", word_budget=8), "excluded")
    assert sentence == (
        "Excluded: M7 and M9 because each belongs to the other tenant; "
        "M1, M2, M3, M4, M6 and M8 because each is in another memory store; "
        "M10 because it shares no term with the question."
    )


@pytest.mark.parametrize("outcome", [*OUTCOMES, *REASONS])
def test_every_outcome_and_reason_gets_one_sentence_for_every_question(outcome):
    for question in lesson().questions:
        sentence = records_with_outcome(retrieve(question.id, store="all"), outcome)
        assert sentence.endswith(".") and sentence.count(".") == 1


def test_a_bad_retrieval_record_or_outcome_is_refused_by_name():
    with pytest.raises(Refused, match="run is 'timeout'; allowed: a Retrieval"):
        record_outcome("timeout", "M5")
    with pytest.raises(Refused, match="record is 'M11'"):
        record_outcome(retrieve("timeout"), "M11")
    with pytest.raises(Refused, match="outcome is 'deleted'; allowed: 'selected'"):
        records_with_outcome(retrieve("timeout"), "deleted")
