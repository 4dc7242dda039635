"""Reading lesson fixtures: JSON data files whose every error names the file, record and field.

Fixtures are the single source of truth for a lesson's data. They ship inside the wheel (so the
browser engine reads the same bytes) and sit at the repository root for authors; both places are
searched so an editable install and an installed wheel behave alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lessonkit import checks
from lessonkit.checks import MISSING, Refused, json_spelling

_PACKAGED = Path(__file__).parent / "fixtures"
_CHECKOUT = Path(__file__).resolve().parents[2] / "fixtures"


class FixtureError(Refused):
    """A fixture that cannot be used, with the place of the problem spelled out: the file, the record and the field.

    One of lessonkit.checks' refusals: its `name` (and `field`) is the field, `value` what the
    file holds there, and `allowed` what is allowed when a check words it; values are spelled as
    JSON writes them, since that is what the author wrote.
    """

    def __init__(self, source: str, where: str, field: str, problem: str, *, value: Any = None, allowed: str | None = None) -> None:
        self.source, self.where = source, where
        said = f"{source}: {where}: field '{field}' {problem}" + ("" if allowed is None else f"; allowed: {allowed}")
        super().__init__(field, value, allowed, problem=problem, message=said)

    @property
    def field(self) -> str:
        return self.name


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
    record.choice("lesson", (name,), words=f"{json_spelling(name)}, the lesson whose fixture this file is")
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
        lessonkit.fixtures.FixtureError: demo.json: turns[0] (T1): field 'tokens' is -1; allowed: a whole number greater than 0
    """
    try:
        data = json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as error:
        raise FixtureError(source, f"line {error.lineno}", "(document)", f"is not valid JSON: {error.msg}") from None
    if not isinstance(data, dict):
        raise FixtureError(source, "top level", "(document)", f"is {json_spelling(data)}", value=data, allowed="a JSON object")
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
                raise self.fail(field, "is not a field of this record", allowed=", ".join(fields))

    def fail(self, field: str, problem: str, *, allowed: str | None = None) -> FixtureError:
        """The error for `problem` with `field` of this record, naming the file, the record and the field."""
        return FixtureError(self.source, self.where, field, problem, value=self.data.get(field), allowed=allowed)

    def _checked(self, field: str, check: Callable[..., Any], *args: Any, **options: Any) -> Any:
        # Every field is checked by lessonkit.checks, its value spelled as JSON; a field left out
        # is given as MISSING, so it is refused as "is missing" with what the check allows.
        try:
            return check(field, self.data.get(field, MISSING), *args, spell=json_spelling, **options)
        except Refused as refused:
            raise self._refused(field, refused) from None

    def _refused(self, field: str, refused: Refused) -> FixtureError:
        return FixtureError(self.source, self.where, field, refused.problem, value=refused.value, allowed=refused.allowed)

    def text(self, field: str) -> str:
        return self._checked(field, checks.text)

    def number(self, field: str, *, above: float | None = None, minimum: float | None = None, unit: str = "") -> float:
        # Python's JSON reader accepts NaN and Infinity, which no browser's JSON.parse does: refused too.
        return self._checked(field, checks.number, above=above, minimum=minimum, unit=unit)

    def whole(self, field: str, *, above: int = 0) -> int:
        return self._checked(field, checks.whole, minimum=above + 1)

    def optional_text(self, field: str) -> str | None:
        """A non-empty string, or None when the field is absent or null."""
        if self.data.get(field) is None:
            return None
        return self.text(field)

    def flag(self, field: str) -> bool:
        # Only JSON true or false: 0, 1 or "yes" would hide a typo.
        return self._checked(field, checks.flag)

    def choice(self, field: str, allowed: Iterable[Any], *, words: str | None = None) -> Any:
        """One of `allowed`, compared by type too (true is not 1); `words` say what is allowed when its list would not."""
        return self._checked(field, checks.choice, allowed, allowed=words)

    def child(self, field: str) -> Record:
        value = self._checked(field, checks.instance, dict, "a JSON object")
        return Record(self.source, f"{self.where} > {field}", value)

    def children(self, field: str, *, label: str = "id") -> list[Record]:
        value = self.data.get(field, MISSING)
        if not isinstance(value, list) or not value:
            raise self._refused(field, Refused(field, value, "a non-empty list of JSON objects", spell=json_spelling))
        records = []
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                raise self._refused(f"{field}[{index}]", Refused(field, item, "a JSON object", spell=json_spelling))
            name = item.get(label)
            where = f"{field}[{index}]" + (f" ({name})" if isinstance(name, str) else "")
            records.append(Record(self.source, where, item))
        return records

    def whole_list(self, field: str) -> tuple[int, ...]:
        value = self.data.get(field, MISSING)
        if (
            not isinstance(value, list)
            or not value
            or any(isinstance(item, bool) or not isinstance(item, int) or item <= 0 for item in value)
        ):
            raise self._refused(field, Refused(field, value, "a non-empty list of whole numbers greater than 0", spell=json_spelling))
        return tuple(value)
