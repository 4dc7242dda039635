"""The working-memory engine reproduces the lesson's scenarios, its arithmetic and its rules."""

import inspect
import json
import math
from dataclasses import replace

import pytest
from sklearn.feature_extraction.text import TfidfVectorizer

from lessonkit.fixtures import FixtureError, fixture_path, parse_fixture
from lessonkit.lessons.working_memory import (
    DEFAULTS,
    EXCLUDED,
    OUTCOMES,
    OVER_LIMIT,
    QUESTIONS,
    REASONS,
    SELECTED,
    SKIPPED,
    STAGES,
    STOP_WORDS,
    STORES,
    Lesson,
    MemoryRecord,
    Question,
    inverse_document_frequencies,
    lesson,
    recency,
    retrieve,
    tokenize,
)

# The settings the lesson's walk-through starts from: Team A, budget nine, three records, 168 hours, recency zero.
WALKTHROUGH = {"tenant": "team-a", "max_records": 3, "max_age_hours": 168, "recency_weight": 0}


def walkthrough(question, **changes):
    return retrieve(question, **{**WALKTHROUGH, **changes})


# The fixture holds the records the lesson describes.


def test_the_fixture_holds_ten_records_m1_to_m10_and_four_questions():
    fixture = lesson()
    assert [record.id for record in fixture.records] == [f"M{n}" for n in range(1, 11)]
    assert tuple(question.id for question in fixture.questions) == QUESTIONS
    assert len(QUESTIONS) == 4 and len(STORES) == 4


def test_working_context_holds_two_current_session_records_m5_and_m10():
    working = [record for record in lesson().records if record.store == "working"]
    assert [record.id for record in working] == ["M5", "M10"]
    assert all(record.session == "current" and record.tenant == "team-a" for record in working)


def test_m5_is_the_nine_word_ticket_inc_42_sharing_terms_with_the_timeout_and_deployment_questions():
    fixture = lesson()
    m5 = fixture.record("M5")
    assert "INC-42" in m5.text and m5.words == 9
    assert set(m5.terms) & set(fixture.question("timeout").terms)
    assert "deployment" in set(m5.terms) & set(fixture.question("deployment-region").terms)


def test_m10_is_the_pending_deployment_note_and_shares_no_term_with_the_timeout_question():
    fixture = lesson()
    m10 = fixture.record("M10")
    assert "pending" in m10.terms and "deployment" in m10.terms
    assert not set(m10.terms) & set(fixture.question("timeout").terms)


def test_neither_working_record_contains_a_region():
    fixture = lesson()
    for record_id in ("M5", "M10"):
        assert "region" not in fixture.record(record_id).terms


def test_m2_holds_mumbai_for_team_a_from_a_previous_session_and_m9_london_for_team_b():
    fixture = lesson()
    m2, m9 = fixture.record("M2"), fixture.record("M9")
    assert "Mumbai" in m2.text and (m2.tenant, m2.store, m2.session) == ("team-a", "semantic", "previous")
    assert "London" in m9.text and m9.tenant == "team-b"
    assert m2.supports == m9.supports == ("deployment-region",)


def test_an_older_record_is_superseded_by_a_newer_one_with_the_same_tenant_and_key():
    fixture = lesson()
    pairs = [
        (old.id, new.id)
        for old in fixture.records
        for new in fixture.records
        if old.key is not None and (old.tenant, old.key) == (new.tenant, new.key) and new.age_hours < old.age_hours
    ]
    assert ("M1", "M2") in pairs and ("M3", "M8") in pairs


# Scoring: the arithmetic the lesson states, checked independently.


def test_tokenize_lower_cases_splits_into_words_and_removes_stop_words():
    assert tokenize("Which region is the checkout deployment in?") == ["region", "checkout", "deployment"]
    assert tokenize("Ticket INC-42: checkout timeout") == ["ticket", "inc-42", "checkout", "timeout"]
    assert {"the", "is", "which", "in", "a"} <= STOP_WORDS


def test_a_records_terms_words_and_recency_are_worked_out_once_and_a_replaced_record_works_out_its_own():
    # Every view ranks every record again; tokenizing each record's text each time was a tenth of
    # working memory's view in CPython.
    record = lesson().record("M5")
    assert record.terms is record.terms
    assert (record.words, record.recency) == (9, recency(record.age_hours))
    older = replace(record, text="Rollback the checkout release", age_hours=48)
    assert (older.terms, older.words, older.recency) == (("rollback", "checkout", "release"), 4, 0.25)
    assert record.terms == tuple(tokenize(record.text))


def test_the_recency_factor_halves_every_twenty_four_hours():
    assert recency(0) == 1
    assert recency(24) == 0.5
    assert recency(48) == 0.25


def test_idf_is_smoothed_over_the_ten_stored_records():
    idf = inverse_document_frequencies([record.terms for record in lesson().records])
    holding = sum("deployment" in record.terms for record in lesson().records)
    assert idf["deployment"] == pytest.approx(math.log(11 / (1 + holding)) + 1, abs=1e-15)


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_cosine_matches_scikit_learn_tfidf_vectorizer(question):
    fixture = lesson()
    vectorizer = TfidfVectorizer(tokenizer=tokenize, lowercase=False, token_pattern=None, sublinear_tf=True, smooth_idf=True)
    records = vectorizer.fit_transform([record.text for record in fixture.records])
    asked = vectorizer.transform([fixture.question(question).text])
    expected = (records @ asked.T).toarray().ravel()
    computed = [candidate.cosine for candidate in retrieve(question, store="all").candidates]
    assert len(computed) == 10
    for mine, theirs in zip(computed, expected, strict=True):
        assert abs(mine - theirs) <= 1e-12


def test_the_engine_idf_matches_scikit_learn():
    vectorizer = TfidfVectorizer(tokenizer=tokenize, lowercase=False, token_pattern=None, sublinear_tf=True, smooth_idf=True)
    vectorizer.fit([record.text for record in lesson().records])
    idf = inverse_document_frequencies([record.terms for record in lesson().records])
    assert set(idf) == set(vectorizer.vocabulary_)
    for term, column in vectorizer.vocabulary_.items():
        assert abs(idf[term] - vectorizer.idf_[column]) <= 1e-12


@pytest.mark.parametrize("weight", [0, 0.25, 0.5, 1])
def test_the_score_blends_cosine_with_recency_by_the_weight(weight):
    for candidate in retrieve("deployment-region", store="all", recency_weight=weight).candidates:
        expected = (1 - weight) * candidate.cosine + weight * 2 ** (-candidate.record.age_hours / 24)
        assert candidate.score == pytest.approx(expected, abs=1e-15)


def test_at_weight_zero_ranking_uses_only_cosine_and_at_one_only_recency():
    by_cosine = retrieve("deployment-region", store="all", recency_weight=0)
    assert [c.cosine for c in by_cosine.ranking] == sorted((c.cosine for c in by_cosine.ranking), reverse=True)
    by_recency = retrieve("deployment-region", store="all", recency_weight=1)
    assert [c.record.age_hours for c in by_recency.ranking] == sorted(c.record.age_hours for c in by_recency.ranking)


def test_at_weight_one_a_record_with_no_shared_term_stays_excluded():
    run = walkthrough("timeout", store="working", recency_weight=1, word_budget=40)
    m10 = run.candidate("M10")
    assert m10.score == pytest.approx(recency(2))
    assert m10.score > 0.9  # recency alone would rank it near the top
    assert m10.outcome == EXCLUDED and m10.reason == "no-shared-term"
    assert run.tray.ids == ("M5",)


# The lesson's scenarios.


@pytest.mark.parametrize("include_previous", [True, False])
def test_timeout_question_in_working_context_at_budget_nine_m5_fits_exactly(include_previous):
    run = walkthrough("timeout", store="working", word_budget=9, include_previous=include_previous)
    assert run.tray.ids == ("M5",)
    assert run.tray.words == 9 == run.policy.word_budget


def test_at_budget_eight_m5_is_skipped_and_the_tray_is_empty_while_both_records_stay_in_the_table():
    run = walkthrough("timeout", store="working", word_budget=8)
    assert run.tray.ids == ()
    assert run.candidate("M5").outcome == SKIPPED
    assert run.candidate("M5").note == "skipped: 9 words, 8 left"
    table = [candidate.id for candidate in run.candidates]
    assert "M5" in table and "M10" in table and len(table) == 10


def test_m10_cannot_fill_the_gap_because_it_shares_no_term_with_the_timeout_question():
    run = walkthrough("timeout", store="working", word_budget=8)
    m10 = run.candidate("M10")
    assert m10.shared_terms == () and m10.cosine == 0
    assert m10.reason == "no-shared-term"
    assert m10.note == "excluded: shares no term with the question"
    assert [c.id for c in run.stage("scope")] == ["M5", "M10"]
    assert run.stage("ranking") == (run.candidate("M5"),)


def test_deployment_question_in_working_context_matches_m5_and_m10_on_deployment_with_coverage_zero_of_one():
    run = walkthrough("deployment-region", store="working", word_budget=40)
    assert {c.id for c in run.ranking} == {"M5", "M10"}
    for record_id in ("M5", "M10"):
        assert "deployment" in run.candidate(record_id).shared_terms
    assert set(run.tray.ids) == {"M5", "M10"}
    assert run.coverage.text == "0 of 1"
    assert run.coverage.declared == ("M2",) and run.coverage.found == ()


def test_semantic_facts_with_previous_sessions_supply_mumbai_from_m2_for_team_a():
    run = walkthrough("deployment-region", store="semantic", include_previous=True, word_budget=40)
    assert "M2" in run.tray.ids
    assert "Mumbai" in run.candidate("M2").record.text
    assert run.coverage.text == "1 of 1"


def test_turning_previous_sessions_off_removes_m2():
    run = walkthrough("deployment-region", store="semantic", include_previous=False, word_budget=40)
    assert "M2" not in run.tray.ids
    assert run.candidate("M2").reason == "session"
    assert all(c.record.session == "current" for c in run.tray.candidates)
    assert run.coverage.text == "0 of 1"


def test_team_b_with_previous_sessions_gets_london_from_m9_and_no_team_a_record():
    run = walkthrough("deployment-region", tenant="team-b", store="semantic", include_previous=True, word_budget=40)
    assert run.tray.ids == ("M9",)
    assert "London" in run.candidate("M9").record.text
    assert run.coverage.text == "1 of 1"
    for candidate in run.candidates:
        if candidate.record.tenant == "team-a":
            assert candidate.reason == "tenant" and candidate.rank is None


def test_a_selection_limit_is_not_deletion_every_stored_record_stays_in_every_stage_one():
    for budget in (0, 8, 9, 40):
        run = walkthrough("timeout", store="working", word_budget=budget)
        assert run.stage("stored") == run.candidates
        assert [c.record for c in run.stored] == list(lesson().records)


# Scope filters.


def test_the_maximum_age_is_an_inclusive_bound():
    at_bound = walkthrough("rollback", store="procedural", word_budget=40, max_age_hours=72)
    assert at_bound.tray.ids == ("M6",)
    below = walkthrough("rollback", store="procedural", word_budget=40, max_age_hours=71)
    assert below.tray.ids == () and below.candidate("M6").reason == "age"


def test_team_b_rollback_steps_need_the_age_limit_raised_to_240_hours():
    common = {"tenant": "team-b", "store": "procedural", "word_budget": 40}
    assert walkthrough("rollback", **common).candidate("M7").reason == "age"
    assert walkthrough("rollback", **common, max_age_hours=240).tray.ids == ("M7",)


def test_keep_latest_drops_the_older_fact_with_the_same_tenant_and_key():
    run = walkthrough("on-call", store="semantic", word_budget=40)
    assert run.candidate("M3").reason == "superseded" and run.candidate("M3").newer == "M8"
    assert run.candidate("M3").note == "excluded: superseded by M8, a newer record with the same key"
    assert run.tray.ids[0] == "M8"


def test_a_superseded_record_is_not_resurrected_when_its_newer_version_is_filtered_out():
    # M2 (semantic) replaces M1 (episodic); asking only the episodic store excludes M2 by store.
    run = walkthrough("deployment-region", store="episodic", word_budget=40)
    assert run.candidate("M2").reason == "store"
    assert run.candidate("M1").reason == "superseded"
    assert run.tray.ids == ()
    without_latest = walkthrough("deployment-region", store="episodic", word_budget=40, keep_latest=False)
    assert without_latest.tray.ids == ("M1",)
    assert "Singapore" in without_latest.candidate("M1").record.text


def test_without_keep_latest_the_stale_and_the_current_region_both_enter():
    run = walkthrough("deployment-region", store="all", word_budget=40, keep_latest=False)
    assert {"M1", "M2"} <= set(run.tray.ids)


def test_keys_are_per_tenant_team_b_london_does_not_supersede_team_a_mumbai():
    run = walkthrough("deployment-region", store="semantic", word_budget=40)
    assert run.candidate("M2").newer is None and run.candidate("M2").outcome == SELECTED


def test_when_several_reasons_apply_the_first_in_precedence_is_reported():
    assert list(REASONS) == ["tenant", "store", "session", "age", "superseded", "no-shared-term"]
    # M7: other tenant, other store, previous session, 240 hours old, no shared term.
    run = walkthrough("timeout", store="working", include_previous=False)
    assert run.candidate("M7").reason == "tenant"
    # M1: other store, previous session, superseded by M2.
    assert run.candidate("M1").reason == "store"
    semantic = walkthrough("on-call", store="semantic", include_previous=False, max_age_hours=50)
    assert semantic.candidate("M3").reason == "session"  # also too old and superseded
    aged = walkthrough("on-call", store="semantic", max_age_hours=50)
    assert aged.candidate("M3").reason == "age"  # also superseded
    # M4: shares no term with the deployment question, but another store is reported first.
    assert walkthrough("deployment-region", store="working").candidate("M4").reason == "store"
    assert walkthrough("deployment-region", store="all").candidate("M4").reason == "no-shared-term"


# Packing.


def test_greedy_packing_skips_a_record_that_does_not_fit_and_goes_on_with_the_rest():
    run = walkthrough("deployment-region", store="all", word_budget=27, max_records=3)
    visited = [(c.id, c.outcome, c.room) for c in run.ranking]
    assert visited == [
        ("M2", SELECTED, 27),
        ("M5", SELECTED, 17),
        ("M10", SKIPPED, 8),
        ("M8", SELECTED, 8),
        ("M6", OVER_LIMIT, 1),
    ]
    assert run.tray.ids == ("M2", "M5", "M8") and run.tray.words == 26


def test_the_record_limit_applies_separately_from_the_word_budget():
    run = walkthrough("timeout", store="all", word_budget=120, max_records=3)
    assert len(run.tray.ids) == 3 and run.tray.words < 120
    over = [c for c in run.ranking if c.outcome == OVER_LIMIT]
    assert over and all(c.rank > 3 for c in over)
    assert over[0].note == "over the record limit"


def test_records_are_never_truncated():
    run = walkthrough("deployment-region", store="all", word_budget=27, max_records=3)
    assert run.tray.words == sum(len(c.record.text.split()) for c in run.tray.candidates)


def test_a_budget_of_zero_selects_nothing_and_skips_every_candidate():
    run = walkthrough("deployment-region", store="all", word_budget=0)
    assert run.tray.ids == ()
    assert {c.outcome for c in run.ranking} == {SKIPPED}


def test_equal_scores_go_to_the_higher_cosine_then_the_younger_record_then_fixture_order():
    real = lesson()
    m2 = real.record("M2")
    twins = (replace(m2, id="X1"), replace(m2, id="X2"), replace(m2, id="X3", age_hours=10))
    forged = Lesson(real.questions, twins + (replace(real.record("M8"), age_hours=30),))
    settings = {"store": "all", "keep_latest": False, "word_budget": 120, "max_records": 10, "fixture": forged}
    run = retrieve("deployment-region", **settings)
    assert [c.id for c in run.ranking][:3] == ["X3", "X1", "X2"]
    same_age = retrieve("on-call", recency_weight=1, **settings)
    # X1, X2 and M8 share an age, hence a score; M8 matches the on-call question better.
    assert [c.id for c in same_age.ranking] == ["X3", "M8", "X1", "X2"]


# Stages, outcomes and coverage.


def test_the_four_stages_are_named_as_the_panel_shows_them():
    assert dict(STAGES) == {"stored": "Stored records", "scope": "Scope filters", "ranking": "Ranking", "final": "Final context"}


def test_each_stage_holds_what_the_previous_one_let_through():
    run = walkthrough("deployment-region", store="all", word_budget=27, max_records=3)
    stored, scoped, ranked, final = ({c.id for c in run.stage(name)} for name in STAGES)
    assert final <= ranked <= scoped <= stored and len(stored) == 10
    assert scoped == {c.id for c in run.candidates if c.reason in (None, "no-shared-term")}
    assert run.stage("final") == run.tray.candidates


def test_every_record_ends_with_one_outcome_and_only_excluded_ones_have_a_reason():
    run = walkthrough("timeout", store="all", word_budget=20)
    for candidate in run.candidates:
        assert candidate.outcome in OUTCOMES
        assert (candidate.outcome == EXCLUDED) == (candidate.reason is not None)
        assert (candidate.rank is None) == (candidate.outcome == EXCLUDED)


def test_coverage_counts_the_active_tenants_declared_supporting_facts():
    assert walkthrough("timeout", store="working", word_budget=9).coverage.text == "0 of 1"
    assert walkthrough("timeout", store="episodic", word_budget=40).coverage.found == ("M4",)
    assert walkthrough("timeout", tenant="team-b", store="all", word_budget=40).coverage.text == "0 of 0"


def test_a_retrieval_is_pure_the_same_settings_give_the_same_result():
    assert walkthrough("rollback", store="all", word_budget=30) == walkthrough("rollback", store="all", word_budget=30)


def test_the_signature_defaults_are_the_declared_defaults():
    parameters = inspect.signature(retrieve).parameters
    for name, value in DEFAULTS.items():
        if name != "question":
            assert parameters[name].default == value
    assert retrieve(DEFAULTS["question"]).policy == walkthrough("timeout", store="working", word_budget=40).policy


# Bad parameters are refused, naming the parameter, the value and what is allowed.


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"question": "weather"}, r"question is 'weather'; allowed: 'timeout', 'deployment-region', 'rollback', 'on-call'$"),
        ({"tenant": "team-c"}, r"tenant is 'team-c'; allowed: 'team-a', 'team-b'$"),
        ({"store": "x"}, r"store is 'x'; allowed: 'semantic', 'episodic', 'procedural', 'working', 'all'$"),
        ({"include_previous": 1}, r"include_previous is 1; allowed: True, False$"),
        ({"keep_latest": "yes"}, r"keep_latest is 'yes'; allowed: True, False$"),
        ({"recency_weight": 1.5}, r"recency_weight is 1.5; allowed: 0 to 1$"),
        ({"recency_weight": float("nan")}, r"recency_weight is nan; allowed: 0 to 1$"),
        ({"recency_weight": True}, r"recency_weight is True; allowed: 0 to 1$"),
        ({"word_budget": -1}, r"word_budget is -1; allowed: 0 to 120 words, whole numbers$"),
        ({"word_budget": 8.5}, r"word_budget is 8.5; allowed: 0 to 120 words, whole numbers$"),
        ({"word_budget": "9"}, r"word_budget is '9'; allowed: 0 to 120 words, whole numbers$"),
        ({"max_records": 0}, r"max_records is 0; allowed: 1 to 10, whole numbers$"),
        ({"max_records": True}, r"max_records is True; allowed: 1 to 10, whole numbers$"),
        ({"max_age_hours": 721}, r"max_age_hours is 721; allowed: 0 to 720 hours$"),
        ({"max_age_hours": None}, r"max_age_hours is None; allowed: 0 to 720 hours$"),
    ],
)
def test_bad_parameters_are_refused_naming_the_value_and_what_is_allowed(changes, message):
    settings = {"question": "timeout", **WALKTHROUGH, **changes}
    with pytest.raises(ValueError, match=message):
        retrieve(**settings)


def test_an_unknown_stage_or_record_is_refused():
    run = walkthrough("timeout")
    with pytest.raises(ValueError, match=r"stage is 'answer'; allowed: 'stored', 'scope', 'ranking', 'final'$"):
        run.stage("answer")
    with pytest.raises(ValueError, match=r"record is 'M11'; allowed: 'M1', .*'M10'$"):
        run.candidate("M11")


# The fixture is validated when loaded: errors name the file, the record and the field.


def fixture_with(change):
    data = json.loads(fixture_path("working-memory").read_text())
    change(data)
    return json.dumps(data)


def load(text):
    return Lesson.from_record(parse_fixture(text, source="working-memory.json"))


def test_the_shipped_fixture_loads_and_matches_the_cached_lesson():
    assert load(fixture_path("working-memory").read_text()) == lesson()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["records"][4].update(store="x"),
            (
                r"working-memory.json: records\[4\] \(M5\): field 'store' is \"x\"; "
                r"allowed: \"semantic\", \"episodic\", \"procedural\", \"working\"$"
            ),
        ),
        (
            lambda d: d["records"][8].update(tenant="Team B"),
            r"records\[8\] \(M9\): field 'tenant' is \"Team B\"; allowed: \"team-a\", \"team-b\"",
        ),
        (
            lambda d: d["records"][1].update(session="yesterday"),
            r"records\[1\] \(M2\): field 'session' is \"yesterday\"; allowed: \"current\", \"previous\"",
        ),
        (
            lambda d: d["records"][0].update(age_hours="old"),
            r"records\[0\] \(M1\): field 'age_hours' is \"old\"; allowed: 0 hours or more$",
        ),
        (lambda d: d["records"][0].update(age_hours=True), r"records\[0\] \(M1\): field 'age_hours' is true; allowed: 0 hours or more$"),
        (
            lambda d: d["records"][2].update(age_hours=-1),
            r"records\[2\] \(M3\): field 'age_hours' is -1; allowed: 0 hours or more$",
        ),
        (lambda d: d["records"][3].update(text=42), r"records\[3\] \(M4\): field 'text' is 42; allowed: a non-empty string$"),
        (
            lambda d: d["records"][3].update(text="It is what it was."),
            r"records\[3\] \(M4\): field 'text' is .*which has no term once stop words",
        ),
        (lambda d: d["records"][5].pop("text"), r"records\[5\] \(M6\): field 'text' is missing; allowed: a non-empty string$"),
        (lambda d: d["records"][1].update(key=""), r"records\[1\] \(M2\): field 'key' is \"\"; allowed: a non-empty string$"),
        (lambda d: d["records"][1].update(key=7), r"records\[1\] \(M2\): field 'key' is 7; allowed: a non-empty string$"),
        (lambda d: d["records"][9].update(id="M5"), r"records\[9\] \(M5\): field 'id' is 'M5', which is already taken"),
        (
            lambda d: d["records"][1]["supports"].update(weather=True),
            r"records\[1\] \(M2\) > supports: field 'weather' names an unknown question; allowed: \"timeout\"",
        ),
        (
            lambda d: d["records"][1]["supports"].update(rollback="yes"),
            r"records\[1\] \(M2\) > supports: field 'rollback' is \"yes\"; allowed: true, false$",
        ),
        (
            lambda d: d["records"][1]["supports"].pop("on-call"),
            r"records\[1\] \(M2\) > supports: field 'on-call' is missing; allowed: true, false$",
        ),
        (
            lambda d: d["records"][1].update(supports=["deployment-region"]),
            r"records\[1\] \(M2\): field 'supports' is \[\"deployment-region\"\]; allowed: a JSON object$",
        ),
        (
            lambda d: d["records"][9]["supports"].update(timeout=True),
            r"records\[9\] \(M10\) > supports: field 'timeout' declares a supporting fact that shares no term with the question",
        ),
        (
            lambda d: d["records"][0].update(age_hours=30),
            r"records\[1\] \(M2\): field 'age_hours' is 30, as old as M1 with the same tenant and key",
        ),
        (
            lambda d: d["questions"][0].update(id="weather"),
            r"questions\[0\] \(weather\): field 'id' is \"weather\"; allowed: \"timeout\"",
        ),
        (
            lambda d: d["questions"][1].update(id="timeout"),
            r"questions\[1\] \(timeout\): field 'id' is 'timeout', which is already taken",
        ),
        (lambda d: d["questions"].pop(3), r"top level: field 'questions' must declare every question; missing: 'on-call'"),
        (
            lambda d: d["questions"][2].update(text="Is it?"),
            r"questions\[2\] \(rollback\): field 'text' is 'Is it\?', which has no term",
        ),
        (lambda d: d.update(records=[]), r"top level: field 'records' is \[\]; allowed: a non-empty list of JSON objects$"),
    ],
)
def test_a_broken_fixture_names_file_record_and_field(change, message):
    with pytest.raises(FixtureError, match=message):
        load(fixture_with(change))


def test_a_record_without_a_key_may_omit_it_or_give_null():
    fixture = load(fixture_with(lambda d: d["records"][3].pop("key")))
    assert fixture.record("M4").key is None


# Three records whose "gamma" cosines are equal in exact arithmetic: M1 and M2 hold the same words in
# another order, and M3 does not hold the term at all.
REORDERED = (
    MemoryRecord("M1", "delta delta gamma alpha beta", "team-a", "working", "current", 10),
    MemoryRecord("M2", "beta alpha gamma delta delta", "team-a", "working", "current", 5),
    MemoryRecord("M3", "delta delta", "team-a", "working", "current", 1),
)


def test_records_with_the_same_words_in_another_order_tie_and_the_younger_is_taken():
    fixture = Lesson((Question("timeout", "Gamma", "gamma"),), REORDERED)
    run = retrieve("timeout", recency_weight=0, max_records=1, fixture=fixture)
    first, second = (run.candidate(record_id) for record_id in ("M1", "M2"))
    assert first.cosine == second.cosine
    # Equal scores: the younger record first, as the lesson's rule says.
    assert run.tray.ids == ("M2",)


@pytest.mark.parametrize("order", [(0, 1, 2, 3, 4), (4, 3, 2, 1, 0), (2, 0, 4, 1, 3), (1, 4, 0, 3, 2)])
def test_a_records_cosine_does_not_depend_on_the_order_of_its_words(order):
    words = "delta delta gamma alpha beta".split()
    reordered = " ".join(words[index] for index in order)
    fixture = Lesson(
        (Question("timeout", "Gamma", "gamma delta"),), (REORDERED[0], replace(REORDERED[0], id="M2", text=reordered), REORDERED[2])
    )
    run = retrieve("timeout", recency_weight=0, fixture=fixture)
    assert run.candidate("M1").cosine == run.candidate("M2").cosine
