"""Fixture errors name the file, the record and the field."""

import json

import pytest

from lessonkit.checks import Refused
from lessonkit.fixtures import FixtureError, fixture_path, parse_fixture
from lessonkit.lessons.context_compression import Lesson


def fixture_with(change):
    data = json.loads(fixture_path("context-compression").read_text())
    change(data)
    return json.dumps(data)


def load(text):
    return Lesson.from_record(parse_fixture(text, source="context-compression.json"))


def test_the_shipped_fixture_loads():
    assert len(load(fixture_path("context-compression").read_text()).turns) == 8


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["turns"][3].update(tokens=0),
            r"context-compression.json: turns\[3\] \(T4\): field 'tokens' is 0; allowed: a whole number greater than 0$",
        ),
        (
            lambda d: d["turns"][1].update(role="robot"),
            r"turns\[1\] \(T2\): field 'role' is \"robot\"; allowed: \"system\", \"user\", \"agent\"",
        ),
        (
            lambda d: d["turns"][2].update(fact="source"),
            r"turns\[2\] \(T3\): field 'fact' is \"source\" but the role is 'agent'; only a user turn",
        ),
        (
            lambda d: d["turns"][4].update(arrives_at_s=20),
            r"turns\[4\] \(T5\): field 'arrives_at_s' is 20; arrivals must come later than 30",
        ),
        (lambda d: d["turns"][7].update(arrives_at_s=75), r"field 'arrives_at_s' is 75, after the replay ends at 60"),
        (lambda d: d["turns"][5].pop("text"), r"turns\[5\] \(T6\): field 'text' is missing; allowed: a non-empty string$"),
        (lambda d: d["turns"][6].update(id="T2"), r"turns\[6\] \(T2\): field 'id' is 'T2', which is already taken"),
        (
            lambda d: d.update(budgets=[24, "big"]),
            r"top level: field 'budgets' is \[24,\"big\"\]; allowed: a non-empty list of whole numbers greater than 0$",
        ),
        (lambda d: d["fact"].pop("value"), r"top level > fact: field 'value' is missing; allowed: a non-empty string$"),
    ],
)
def test_a_broken_fixture_names_file_record_and_field(change, message):
    with pytest.raises(FixtureError, match=message):
        load(fixture_with(change))


def test_a_fixture_error_is_one_of_the_courses_refusals_carrying_the_field_its_value_and_what_is_allowed():
    with pytest.raises(Refused) as refused:
        load(fixture_with(lambda d: d["turns"][3].update(tokens=0)))
    error = refused.value
    assert isinstance(error, FixtureError)
    assert (error.source, error.where, error.field) == ("context-compression.json", "turns[3] (T4)", "tokens")
    assert (error.name, error.value, error.allowed) == ("tokens", 0, "a whole number greater than 0")


def test_a_value_is_quoted_as_the_fixture_writes_it_in_json():
    with pytest.raises(FixtureError, match=r"field 'tokens' is true; allowed: a whole number greater than 0$"):
        load(fixture_with(lambda d: d["turns"][2].update(tokens=True)))
    with pytest.raises(FixtureError, match=r"field 'text' is null; allowed: a non-empty string$"):
        load(fixture_with(lambda d: d["turns"][2].update(text=None)))


def test_invalid_json_names_the_line():
    with pytest.raises(FixtureError, match=r"context-compression.json: line 2: field '\(document\)' is not valid JSON"):
        load('{\n  "turns": [,]\n}')
