"""Reading lesson fixtures: JSON data files whose every error names the file, record and field.

Fixtures are the single source of truth for a lesson's data. They ship inside the wheel (so the
browser engine reads the same bytes) and sit at the repository root for authors; both places are
searched so an editable install and an installed wheel behave alike.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_PACKAGED = Path(__file__).parent / "fixtures"
_CHECKOUT = Path(__file__).resolve().parents[2] / "fixtures"


class FixtureError(ValueError):
    """A fixture that cannot be used, with the place of the problem spelled out."""

    def __init__(self, source: str, where: str, field: str, problem: str) -> None:
        self.source, self.where, self.field = source, where, field
        super().__init__(f"{source}: {where}: field '{field}' {problem}")


def fixture_path(name: str) -> Path:
    """Where the fixture called `name` (without `.json`) lives, packaged copy first.

    Args:
        name: The lesson's id, such as ``"context-compaction"``.

    Raises:
        FileNotFoundError: No fixture of that name; the message names the folders searched.

    Examples:
        >>> from lessonkit.fixtures import fixture_path
        >>> fixture_path("context-compaction").name
        'context-compaction.json'
    """
    for folder in (_PACKAGED, _CHECKOUT):
        candidate = folder / f"{name}.json"
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"no fixture named '{name}.json' in {_PACKAGED} or {_CHECKOUT}")


def read_fixture(name: str) -> Record:
    """The top-level record of fixture `name`, parsed but not yet validated.

    Args:
        name: The lesson's id: the fixture's name without ``.json``.

    Raises:
        FileNotFoundError: No fixture of that name.
        FixtureError: The file is not a JSON object, or its field ``lesson`` names another lesson.

    Examples:
        >>> from lessonkit.fixtures import read_fixture
        >>> read_fixture("context-compression").text("title")
        'Context compression'
    """
    path = fixture_path(name)
    record = parse_fixture(path.read_text(encoding="utf-8"), source=path.name)
    # One id names a lesson's fixture, package, page and storage: a fixture copied from another
    # lesson and renamed would otherwise load, and be read as this lesson's data.
    declared = record.text("lesson")
    if declared != name:
        raise record.fail("lesson", f"is {declared!r}; allowed: {name!r}, the lesson whose fixture this file is")
    return record


class _Object(dict):
    """A JSON object that remembers the fields it held twice: JSON lets the last one win silently."""

    repeated: tuple[str, ...] = ()


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    found = _Object(pairs)
    names = [name for name, _ in pairs]
    found.repeated = tuple(dict.fromkeys(name for index, name in enumerate(names) if name in names[:index]))
    return found


def parse_fixture(text: str, source: str) -> Record:
    """A fixture's text as a record, its errors naming `source`; fields are validated as they are read.

    Args:
        text: The fixture's JSON.
        source: What an error calls the file.

    Raises:
        FixtureError: The text is not JSON, or not a JSON object.

    Examples:
        >>> from lessonkit.fixtures import parse_fixture
        >>> record = parse_fixture('{"turns": [{"id": "T1", "tokens": -1}]}', "demo.json")
        >>> record.children("turns")[0].whole("tokens")
        Traceback (most recent call last):
        ...
        lessonkit.fixtures.FixtureError: demo.json: turns[0] (T1): field 'tokens' must be a whole number greater than 0, not -1
    """
    try:
        data = json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as error:
        raise FixtureError(source, f"line {error.lineno}", "(document)", f"is not valid JSON: {error.msg}") from None
    if not isinstance(data, dict):
        raise FixtureError(source, "top level", "(document)", "must be a JSON object")
    return Record(source, "top level", data)


@dataclass(frozen=True)
class Record:
    """One JSON object of a fixture, carrying enough context to name itself in an error."""

    source: str
    where: str
    data: Mapping[str, Any]

    def __post_init__(self) -> None:
        repeated = getattr(self.data, "repeated", ())
        if repeated:
            raise self.fail(repeated[0], "appears twice in this record; JSON would keep only the last, silently")

    def known(self, *fields: str) -> None:
        """Refuse any field but `fields`: a misspelt optional field would otherwise be ignored silently."""
        for field in self.data:
            if field not in fields:
                raise self.fail(field, f"is not a field of this record; allowed: {', '.join(fields)}")

    def fail(self, field: str, problem: str) -> FixtureError:
        return FixtureError(self.source, self.where, field, problem)

    def _get(self, field: str) -> Any:
        if field not in self.data:
            raise self.fail(field, "is missing")
        return self.data[field]

    def text(self, field: str) -> str:
        value = self._get(field)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, f"must be a non-empty string, not {value!r}")
        return value

    def number(self, field: str, *, above: float | None = None) -> float:
        value = self._get(field)
        # bool is an int subclass in Python; `true` is never a sensible quantity.
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(field, f"must be a number, not {value!r}")
        # Python's JSON reader accepts NaN and Infinity, which no browser's JSON.parse does.
        if not math.isfinite(value):
            raise self.fail(field, f"must be a finite number, not {value!r}")
        if above is not None and not value > above:
            raise self.fail(field, f"must be greater than {above:g}, not {value!r}")
        return value

    def whole(self, field: str, *, above: int = 0) -> int:
        value = self.number(field)
        if not isinstance(value, int) or value <= above:
            raise self.fail(field, f"must be a whole number greater than {above}, not {value!r}")
        return value

    def optional_text(self, field: str) -> str | None:
        """A non-empty string, or None when the field is absent or null."""
        if self.data.get(field) is None:
            return None
        return self.text(field)

    def flag(self, field: str) -> bool:
        value = self._get(field)
        # Only JSON true or false: 0, 1 or "yes" would hide a typo.
        if not isinstance(value, bool):
            raise self.fail(field, f"must be true or false, not {value!r}")
        return value

    def choice(self, field: str, allowed: Iterable[Any]) -> Any:
        allowed = tuple(allowed)
        value = self._get(field)
        if value not in allowed:
            listed = ", ".join(json.dumps(option) for option in allowed)
            raise self.fail(field, f"is {json.dumps(value)}; allowed: {listed}")
        return value

    def child(self, field: str) -> Record:
        value = self._get(field)
        if not isinstance(value, dict):
            raise self.fail(field, "must be a JSON object")
        return Record(self.source, f"{self.where} > {field}", value)

    def children(self, field: str, *, label: str = "id") -> list[Record]:
        value = self._get(field)
        if not isinstance(value, list) or not value:
            raise self.fail(field, "must be a non-empty list")
        records = []
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                raise self.fail(f"{field}[{index}]", "must be a JSON object")
            name = item.get(label)
            where = f"{field}[{index}]" + (f" ({name})" if isinstance(name, str) else "")
            records.append(Record(self.source, where, item))
        return records

    def whole_list(self, field: str) -> tuple[int, ...]:
        value = self._get(field)
        if (
            not isinstance(value, list)
            or not value
            or any(isinstance(item, bool) or not isinstance(item, int) or item <= 0 for item in value)
        ):
            raise self.fail(field, f"must be a non-empty list of whole numbers above 0, not {value!r}")
        return tuple(value)
