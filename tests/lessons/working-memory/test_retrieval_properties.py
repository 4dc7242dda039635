"""The working-memory engine keeps its rules for any settings a reader can choose, and refuses the rest."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from lessonkit.checks import Refused, python_spelling
from lessonkit.lessons.working_memory import (
    ALL_STORES,
    EXCLUDED,
    MAX_AGES,
    OUTCOMES,
    OVER_LIMIT,
    QUESTIONS,
    REASONS,
    RECENCY_WEIGHTS,
    RECORD_LIMITS,
    SELECTED,
    SKIPPED,
    STORE_CHOICES,
    TENANTS,
    WORD_BUDGETS,
    lesson,
    newer_records,
    retrieve,
)

modest = settings(max_examples=200, deadline=None)

policies = st.fixed_dictionaries(
    {
        "question": st.sampled_from(QUESTIONS),
        "tenant": st.sampled_from(list(TENANTS)),
        "store": st.sampled_from(list(STORE_CHOICES)),
        "include_previous": st.booleans(),
        "keep_latest": st.booleans(),
        "max_age_hours": st.one_of(st.integers(*MAX_AGES), st.floats(*MAX_AGES)),
        "recency_weight": st.one_of(st.sampled_from(RECENCY_WEIGHTS), st.floats(*RECENCY_WEIGHTS)),
        "word_budget": st.integers(*WORD_BUDGETS),
        "max_records": st.integers(*RECORD_LIMITS),
    }
)


def applicable_reasons(candidate, policy, asked_terms):
    """Every reason that applies to a record, worked out here independently of the engine."""
    record = candidate.record
    newer = newer_records(lesson().records)
    applies = {
        "tenant": record.tenant != policy["tenant"],
        "store": policy["store"] != ALL_STORES and record.store != policy["store"],
        "session": record.session == "previous" and not policy["include_previous"],
        "age": record.age_hours > policy["max_age_hours"],
        "superseded": policy["keep_latest"] and record.id in newer,
        "no-shared-term": not set(record.terms) & set(asked_terms),
    }
    return [reason for reason in REASONS if applies[reason]]


@modest
@given(policies)
def test_no_record_of_the_other_tenant_ever_enters_the_tray_or_the_ranking(policy):
    run = retrieve(**policy)
    assert all(c.record.tenant == policy["tenant"] for c in run.ranking)
    assert all(c.record.tenant == policy["tenant"] for c in run.tray.candidates)


@modest
@given(policies)
def test_the_tray_never_exceeds_the_word_budget_or_the_record_count(policy):
    tray = retrieve(**policy).tray
    assert tray.words <= policy["word_budget"]
    assert len(tray.ids) <= policy["max_records"]


@modest
@given(policies)
def test_a_superseded_record_never_returns_while_keep_latest_is_on(policy):
    run = retrieve(**{**policy, "keep_latest": True})
    superseded = set(newer_records(lesson().records))
    assert not superseded & {c.id for c in run.scoped}
    assert not superseded & set(run.tray.ids)


@modest
@given(policies)
def test_a_record_with_no_shared_term_never_enters_the_ranking_or_the_tray(policy):
    run = retrieve(**policy)
    for candidate in run.ranking:
        assert candidate.shared_terms and candidate.cosine > 0
    for candidate in run.candidates:
        if not candidate.shared_terms:
            assert candidate.outcome == EXCLUDED


@modest
@given(policies)
def test_every_record_has_one_outcome_and_every_excluded_record_exactly_one_reason_the_first_that_applies(policy):
    run = retrieve(**policy)
    assert len(run.candidates) == len(lesson().records)
    for candidate in run.candidates:
        assert candidate.outcome in OUTCOMES
        reasons = applicable_reasons(candidate, policy, run.question.terms)
        if candidate.outcome == EXCLUDED:
            assert candidate.reason == reasons[0]
            assert isinstance(candidate.reason, str) and candidate.reason in REASONS
        else:
            assert reasons == [] and candidate.reason is None


@modest
@given(policies)
def test_packing_is_greedy_in_ranked_order(policy):
    run = retrieve(**policy)
    scores = [c.score for c in run.ranking]
    assert scores == sorted(scores, reverse=True)
    assert [c.rank for c in run.ranking] == list(range(1, len(run.ranking) + 1))
    taken, room = 0, policy["word_budget"]
    for candidate in run.ranking:
        assert candidate.room == room
        if candidate.outcome == SELECTED:
            taken, room = taken + 1, room - candidate.record.words
        elif candidate.outcome == SKIPPED:
            assert candidate.record.words > room and taken < policy["max_records"]
        else:
            assert candidate.outcome == OVER_LIMIT and taken == policy["max_records"]
    assert run.tray.candidates == tuple(c for c in run.ranking if c.outcome == SELECTED)


@modest
@given(policies)
def test_coverage_counts_the_tenants_declared_facts_that_reach_the_tray(policy):
    run = retrieve(**policy)
    assert set(run.coverage.found) <= set(run.coverage.declared)
    assert set(run.coverage.found) == set(run.coverage.declared) & set(run.tray.ids)
    assert all(lesson().record(i).tenant == policy["tenant"] for i in run.coverage.declared)


@modest
@given(policies)
def test_the_same_settings_always_give_the_same_result(policy):
    assert retrieve(**policy) == retrieve(**policy)


def _not(allowed):
    return st.one_of(st.text(max_size=12), st.integers(), st.none(), st.booleans(), st.lists(st.integers(), max_size=2)).filter(
        lambda value: not (isinstance(value, str) and value in allowed)
    )


def _outside(low, high, whole=False):
    numbers = [st.integers(max_value=low - 1), st.integers(min_value=high + 1), st.sampled_from([math.nan, math.inf, -math.inf])]
    numbers.append(st.floats(allow_nan=False).filter(lambda x: not low <= x <= high))
    if whole:
        numbers.append(st.floats(low, high))  # a float, even 9.0, is not a whole number of words or records
    return st.one_of(*numbers, st.booleans(), st.text(max_size=4), st.none())


invalid = st.one_of(
    st.tuples(st.just("question"), _not(QUESTIONS)),
    st.tuples(st.just("tenant"), _not(TENANTS)),
    st.tuples(st.just("store"), _not(STORE_CHOICES)),
    st.tuples(
        st.sampled_from(["include_previous", "keep_latest"]),
        st.one_of(st.integers(), st.text(max_size=4), st.none(), st.floats()),
    ),
    st.tuples(st.just("max_age_hours"), _outside(*MAX_AGES)),
    st.tuples(st.just("recency_weight"), _outside(*RECENCY_WEIGHTS)),
    st.tuples(st.just("word_budget"), _outside(*WORD_BUDGETS, whole=True)),
    st.tuples(st.just("max_records"), _outside(*RECORD_LIMITS, whole=True)),
)


@modest
@given(policies, invalid)
def test_any_invalid_parameter_is_refused_with_a_value_error_naming_it(policy, bad):
    name, value = bad
    try:
        retrieve(**{**policy, name: value})
    except Refused as error:
        # Named as the argument is, so the caller knows which one to change.
        assert str(error).startswith(f"{name} is {python_spelling(value)}; allowed: "), str(error)
        assert error.name == name
    else:
        raise AssertionError(f"{name}={value!r} was accepted")
