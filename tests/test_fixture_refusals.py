"""Every fixture fails at load when it is malformed or inconsistent, naming the file, the record and the field.

The generic part runs over every fixture in fixtures/: it deletes each field of each record, gives
each a value of the wrong JSON type, adds an unknown field and repeats a field, and expects either
a refusal that names the file and that record, or (for a deleted optional field only) the very
lesson the field set to null gives. The rest are each lesson's own consistency rules: duplicate
IDs, unknown references, and budgets that cannot hold what is pinned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from lessonkit.fixtures import FixtureError, parse_fixture
from lessonkit.lessons import context_compaction, tool_result_clearing
from lessonkit.lessons import context_compression as compression
from lessonkit.lessons import working_memory as retrieval

FIXTURES = Path(__file__).parents[1] / "fixtures"
# Which engine reads which fixture. A new fixture must be added here, or the first test fails.
LOADERS: dict[str, Callable[[Any], Any]] = {
    "context-compression": compression.Lesson.from_record,
    "working-memory": retrieval.Lesson.from_record,
    "context-compaction": context_compaction.Lesson.from_record,
    "tool-result-clearing": tool_result_clearing.Lesson.from_record,
}


def load(name: str, data: Any) -> Any:
    return LOADERS[name](parse_fixture(json.dumps(data), source=f"{name}.json"))


def original(name: str) -> Any:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def records(data: Any, where: str = "top level") -> Iterator[tuple[tuple[Any, ...], str, dict[str, Any]]]:
    """Every JSON object of a fixture: its path, the pattern its Record names itself by, and the object."""

    def walk(value: Any, path: tuple[Any, ...], where: str) -> Iterator[tuple[tuple[Any, ...], str, dict[str, Any]]]:
        if isinstance(value, dict):
            yield path, where, value
            for field, child in value.items():
                if isinstance(child, dict):
                    yield from walk(child, (*path, field), f"{where} > {re.escape(field)}")
                elif isinstance(child, list):
                    for index, item in enumerate(child):
                        # A list's records name themselves by field, index and (when it is text) their id.
                        yield from walk(item, (*path, field, index), rf"{re.escape(field)}\[{index}\](?: \([^)]*\))?")

    yield from walk(data, (), where)


def at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def wrong_type(value: Any) -> Any:
    """A value of another JSON type than `value`'s, that no loader could take for it."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {"items": value}
    if isinstance(value, dict):
        return [value]
    return {"value": value}  # null


def every_field(name: str) -> list[tuple[tuple[Any, ...], str, str]]:
    return [(path, where, field) for path, where, record in records(original(name)) for field in record]


def cases() -> list[Any]:
    return [
        pytest.param(name, *case, id=f"{name}:{case[1].replace(chr(92), '')}:{case[2]}")
        for name in sorted(LOADERS)
        for case in every_field(name)
    ]


def expect_refusal(name: str, data: Any, where: str, field: str | None = None) -> FixtureError:
    with pytest.raises(FixtureError) as refused:
        load(name, data)
    error = refused.value
    assert error.source == f"{name}.json", str(error)
    assert re.fullmatch(where, error.where), f"expected the record {where!r} to be named: {error}"
    if field is not None:
        assert error.field == field, f"expected the field {field!r} to be named: {error}"
    return error


def test_every_fixture_has_a_loader_here_and_loads():
    assert sorted(path.stem for path in FIXTURES.glob("*.json")) == sorted(LOADERS)
    for name in LOADERS:
        load(name, original(name))


@pytest.mark.parametrize(("name", "path", "where", "field"), cases())
def test_a_missing_field_is_refused_naming_its_record_unless_it_is_optional(name, path, where, field):
    data = original(name)
    del at(data, path)[field]
    try:
        loaded = load(name, data)
    except FixtureError as error:
        assert error.source == f"{name}.json", str(error)
        assert re.fullmatch(where, error.where), f"expected the record {where!r} to be named: {error}"
        # Half a pair names the half that was written: the field named is one of the record's.
        assert error.field in at(original(name), path), str(error)
        return
    nulled = original(name)
    at(nulled, path)[field] = None
    assert loaded == load(name, nulled), f"{field!r} may be left out, but leaving it out is not the same as null"


@pytest.mark.parametrize(("name", "path", "where", "field"), cases())
def test_a_field_of_the_wrong_type_is_refused_naming_record_and_field(name, path, where, field):
    data = original(name)
    record = at(data, path)
    record[field] = wrong_type(record[field])
    expect_refusal(name, data, where, field)


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_an_unknown_or_repeated_field_in_any_record_is_refused(name):
    for path, where, _ in records(original(name)):
        data = original(name)
        at(data, path)["colour"] = "teal"
        expect_refusal(name, data, where, "colour")
        # JSON keeps the last of two equal fields; the loader must not keep either silently.
        text = json.dumps(original(name))
        record = at(original(name), path)
        first = next(iter(record))
        nested = json.dumps(record)[1:-1]
        repeated = text.replace(nested, f"{json.dumps(first)}: {json.dumps(record[first])}, {nested}", 1)
        with pytest.raises(FixtureError, match=re.escape(f"field '{first}' appears twice")):
            LOADERS[name](parse_fixture(repeated, source=f"{name}.json"))


def lists_of_records() -> list[tuple[str, str]]:
    return [
        (name, field)
        for name in sorted(LOADERS)
        for field, items in original(name).items()
        if isinstance(items, list) and isinstance(items[0], dict) and "id" in items[0]
    ]


@pytest.mark.parametrize(("name", "field"), lists_of_records())
def test_a_duplicate_id_in_any_list_of_records_is_refused(name, field):
    data = original(name)
    items = data[field]
    items[-1]["id"] = items[0]["id"]
    error = expect_refusal(name, data, rf"{field}\[{len(items) - 1}\](?: \([^)]*\))?", "id")
    assert "already taken" in str(error) or "allowed" in str(error), str(error)


# Each lesson's consistency rules.


def compression_with(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = original("context-compression")
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # The three: each replayed silently over budget or broke a rule.
        (
            lambda d: d["turns"][0].update(tokens=100),
            "context-compression.json: top level: field 'budgets' has 24 as its smallest budget, which cannot hold what is pinned: T1 (100 tokens) and the summary (6 tokens) need 106",
        ),
        (
            lambda d: d.update(summary_tokens=20),
            "context-compression.json: top level: field 'budgets' has 24 as its smallest budget, which cannot hold what is pinned: T1 (8 tokens) and the summary (20 tokens) need 28",
        ),
        (
            lambda d: d["turns"][3].update(role="system"),
            "context-compression.json: turns[3] (T4): field 'role' is 'system'; the first turn, and only the first, is the pinned system turn",
        ),
        (
            lambda d: d["turns"][0].update(role="user"),
            "context-compression.json: turns[0] (T1): field 'role' is 'user'; the first turn, and only the first, is the pinned system turn",
        ),
        (lambda d: d.update(budgets=[24, 36, 24]), "context-compression.json: top level: field 'budgets' lists 24 twice"),
        (
            lambda d: d.update(lesson="compression"),
            'context-compression.json: top level: field \'lesson\' is "compression"; allowed: "context-compression"',
        ),
        (lambda d: d["turns"][4].update(id="S"), "context-compression.json: turns[4] (S): field 'id' is 'S', which is already taken"),
        (
            lambda d: d.update(duration_s=float("inf")),
            "context-compression.json: top level: field 'duration_s' is Infinity; allowed: a number greater than 0",
        ),
    ],
)
def test_a_compression_fixture_that_would_replay_wrongly_is_refused(change, message):
    with pytest.raises(FixtureError) as refused:
        load("context-compression", compression_with(change))
    assert str(refused.value).startswith(message), str(refused.value)


def test_the_smallest_budget_that_holds_what_is_pinned_is_accepted_and_never_overflows():
    data = compression_with(lambda d: d.update(budgets=[14, 64]))  # T1 (8) and the summary (6): exactly 14
    fixture = load("context-compression", data)
    for policy in compression.POLICIES:
        for arrival in compression.replay(14, policy, fixture=fixture).arrivals:
            assert arrival.tokens <= 14


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["records"][2]["supports"].update(weather=True),
            r"working-memory.json: records\[2\] \(\w+\) > supports: field 'weather' names an unknown question",
        ),
        (
            lambda d: d["questions"][1].update(id="timeout"),
            r"working-memory.json: questions\[1\] \(timeout\): field 'id' is 'timeout', which is already taken",
        ),
        (lambda d: d.update(lesson="memory"), r"working-memory.json: top level: field 'lesson' is \"memory\"; allowed: \"working-memory\""),
    ],
)
def test_a_working_memory_fixture_with_an_unknown_reference_is_refused(change, message):
    data = original("working-memory")
    change(data)
    with pytest.raises(FixtureError, match=message):
        load("working-memory", data)


def test_a_compaction_fixture_whose_response_answers_an_unknown_call_is_refused():
    data = original("context-compaction")
    response = next(index for index, event in enumerate(data["events"]) if event["kind"] == "tool_response")
    data["events"][response]["call"] = "no-such-call"
    expect_refusal("context-compaction", data, rf"events\[{response}\] \([^)]*\)", "call")
