"""lessonkit.checks: one error that carries the name, the value and what is allowed, one message
shape, values spelled as they came (Python or JSON), and a message of bounded size however many
problems it has."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lessonkit import checks
from lessonkit.checks import MISSING, Refused, json_spelling, python_spelling


def refusal(call) -> Refused:
    with pytest.raises(Refused) as refused:
        call()
    return refused.value


def test_a_refusal_is_a_value_error_that_carries_its_name_value_and_what_is_allowed():
    refused = refusal(lambda: checks.choice("policy", "drop", ("evict", "summarize")))
    assert isinstance(refused, ValueError)
    assert (refused.name, refused.value, refused.allowed) == ("policy", "drop", "'evict', 'summarize'")
    assert str(refused) == "policy is 'drop'; allowed: 'evict', 'summarize'"
    assert refused.problems == (refused,)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: checks.choice("budget", 24.0, (24, 36)), "budget is 24.0; allowed: 24, 36"),
        (lambda: checks.choice("budget", True, (1, 36)), "budget is True; allowed: 1, 36"),
        (lambda: checks.choice("tenant", ["team-a"], ("team-a",)), "tenant is ['team-a']; allowed: 'team-a'"),
        (lambda: checks.choice("budget", MISSING, (24, 36)), "budget is missing; allowed: 24, 36"),
        (lambda: checks.whole("budget", 0, minimum=1, unit="tokens"), "budget is 0; allowed: a whole number of tokens greater than 0"),
        (
            lambda: checks.whole("overlap", -1, minimum=0, optional=True),
            "overlap is -1; allowed: a whole number, 0 or more, or None to leave it out",
        ),
        (
            lambda: checks.whole("word_budget", 40.0, minimum=0, maximum=120, unit="words"),
            "word_budget is 40.0; allowed: 0 to 120 words, whole numbers",
        ),
        (lambda: checks.whole("records", True, minimum=1, maximum=10), "records is True; allowed: 1 to 10, whole numbers"),
        (lambda: checks.number("weight", "0.5", minimum=0, maximum=1), "weight is '0.5'; allowed: 0 to 1"),
        (lambda: checks.number("age_hours", -1, minimum=0, unit="hours"), "age_hours is -1; allowed: 0 hours or more"),
        (lambda: checks.number("duration_s", 0, above=0), "duration_s is 0; allowed: a number greater than 0"),
        (lambda: checks.number("time", math.nan, minimum=0, maximum=60, unit="seconds"), "time is nan; allowed: 0 to 60 seconds"),
        (lambda: checks.number("weight", 0.33, minimum=0, maximum=1, step=0.05), "weight is 0.33; allowed: 0 to 1, in steps of 0.05"),
        (
            lambda: checks.number("age", 1.5, minimum=0, maximum=720, step=1, unit="hours"),
            "age is 1.5; allowed: 0 to 720 hours, whole numbers",
        ),
        (lambda: checks.flag("keep_latest", "yes"), "keep_latest is 'yes'; allowed: True, False"),
        (lambda: checks.text("text", None, empty=True), "text is None; allowed: a string"),
        (lambda: checks.text("title", " "), "title is ' '; allowed: a non-empty string"),
        (lambda: checks.instance("window", "T1 T2", tuple, "a Window"), "window is 'T1 T2'; allowed: a Window"),
    ],
)
def test_each_check_refuses_in_the_one_shape(call, message):
    assert str(refusal(call)) == message


def test_each_check_returns_what_it_accepted():
    assert checks.choice("budget", 24.0, (24, 36), numbers_alike=True) == 24
    assert type(checks.choice("budget", 24.0, (24, 36), numbers_alike=True)) is int
    assert checks.whole("overlap", None, minimum=0, optional=True) is None
    assert checks.number("weight", 0.30000000000000004, minimum=0, maximum=1, step=0.05) == 0.3
    assert checks.number("age", 48.0, minimum=0, maximum=720, step=1) == 48
    assert type(checks.number("age", 48.0, minimum=0, maximum=720, step=1)) is int
    assert checks.text("text", "", empty=True) == ""


def test_a_value_is_spelled_as_it_came_and_the_subject_as_its_caller_calls_it():
    refused = refusal(lambda: checks.flag("reserve", "yes", called="parameter 'reserve'", spell=json_spelling))
    assert str(refused) == "parameter 'reserve' is \"yes\"; allowed: true, false"
    assert refused.name == "reserve"


@pytest.mark.parametrize(
    ("value", "spelled"),
    [
        ("30", '"30"'),
        (True, "true"),
        (None, "null"),
        ([1, 2.0], "[1,2]"),
        ({"a": [1.5]}, '{"a":[1.5]}'),
        (1000.0, "1000"),
        (1e16, "10000000000000000"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (0.000001, "0.000001"),
        (-0.0, "0"),
        (math.inf, "Infinity"),
        (math.nan, "NaN"),
        ("é\n", '"é\\n"'),
        ({1, 2}, "{1, 2}"),
    ],
)
def test_json_spelling_is_what_a_browser_writes(value, spelled):
    assert json_spelling(value) == spelled


def test_a_long_name_or_value_is_cut():
    refused = refusal(lambda: checks.choice("x" * 500, "y" * 500, ("z",)))
    assert str(refused) == f"{'x' * checks.LONGEST}… is '{'y' * (checks.LONGEST - 1)}…; allowed: 'z'"
    assert python_spelling("é" * 200) == "'" + "é" * (checks.LONGEST - 1) + "…"


def test_several_problems_are_said_once_each_and_the_message_is_capped():
    assert checks.together([]) is None
    one = Refused("colour", "teal", "budget")
    assert checks.together([one] * 5000) is one
    many = checks.together([Refused(f"colour{n}", "teal", "budget") for n in range(5000)] * 2)
    assert str(many) == "; ".join([f"colour{n} is 'teal'; allowed: budget" for n in range(checks.MOST_SAID)] + ["and 4997 more"])
    assert len(many.problems) == 5000
    assert (many.name, many.value, many.allowed) == ("colour0", "teal", "budget")
    assert checks.together([many, Refused("colour0", "teal", "budget")]).problems == many.problems


@given(st.lists(st.text(max_size=300), max_size=50))
def test_no_refusal_of_names_and_values_of_any_length_and_number_grows_past_its_cap(names):
    refused = checks.together(Refused(name, name, "budget") for name in names)
    if refused is not None:
        longest_problem = 2 * (checks.LONGEST + 3) + len(" is ; allowed: budget")
        assert len(str(refused)) <= checks.MOST_SAID * (longest_problem + 2) + len("and 50 more")
