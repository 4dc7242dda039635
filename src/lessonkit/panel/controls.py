"""The kinds of control a panel declares, and how each one checks the value a reader sent.

Every kind becomes one native element in the browser shell (controls.js dispatches on `kind`):

| kind   | element                            | value sent to the view                               |
| ------ | ---------------------------------- | ---------------------------------------------------- |
| choice | `<select>`                         | one of its options' values                           |
| toggle | `<input type=checkbox>`            | true or false; may enable other controls             |
| number | `<input type=number min max step>` | a number on the step grid, in range                  |
| range  | `<input type=range>` + its value   | a number on the step grid, in range                  |
| text   | `<textarea>`                       | nothing: the reader's own words, kept with the notes |

A control's `label` is its accessible name, worded as the lesson words it. Values arrive from
controls, from a shared link or from storage, as JSON, so every one is checked here with
lessonkit.checks and spelled as JSON: ``parameter 'budget' is 30; allowed: 24, 36, 48, 64``.
The shell's params.js says the same words; tests/refusals.json holds them both to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lessonkit import checks
from lessonkit.checks import json_spelling


def called(name: str) -> str:
    """How a refusal names a panel's parameter, as params.js names it too.

    Args:
        name: The parameter's name, cut when it is long (a link may carry any name).

    Examples:
        >>> from lessonkit.panel.controls import called
        >>> called("budget")
        "parameter 'budget'"
    """
    return f"parameter '{checks.cut(name)}'"


@dataclass(frozen=True)
class Option:
    value: Any
    label: str


@dataclass(frozen=True)
class Choice:
    """A `<select>`: one of a fixed set of options."""

    name: str
    label: str
    options: tuple[Option, ...]
    default: Any
    kind: str = field(default="choice", init=False)

    def __post_init__(self) -> None:
        options = [option.value for option in self.options]
        called = f"choice '{self.name}': its default"
        checks.choice("default", self.default, options, called=called, spell=json_spelling, numbers_alike=True)

    def allowed(self) -> str:
        return ", ".join(json_spelling(option.value) for option in self.options)

    def check(self, value: Any) -> Any:
        # JSON has one kind of number: 24 and 24.0 are the same budget, but True is not the option 1.
        options = [option.value for option in self.options]
        return checks.choice(self.name, value, options, called=called(self.name), spell=json_spelling, numbers_alike=True)


@dataclass(frozen=True)
class Toggle:
    """A checkbox. `enables` names the controls that only apply while it is on (they are disabled
    in the page while it is off), e.g. a field that is either omitted or set to a number."""

    name: str
    label: str
    default: bool = False
    enables: tuple[str, ...] = ()
    kind: str = field(default="toggle", init=False)

    def allowed(self) -> str:
        return "true, false"

    def check(self, value: Any) -> bool:
        return checks.flag(self.name, value, called=called(self.name), spell=json_spelling)


@dataclass(frozen=True)
class _Quantity:
    name: str
    label: str
    minimum: float
    maximum: float
    default: float
    step: float = 1
    unit: str = ""

    def __post_init__(self) -> None:
        checks.number(
            "default",
            self.default,
            minimum=self.minimum,
            maximum=self.maximum,
            unit=self.unit,
            called=f"{self.kind} '{self.name}': its default",
            spell=json_spelling,
        )

    def allowed(self) -> str:
        return checks.number_allowed(self.minimum, self.maximum, None, self.step, self.unit)

    def check(self, value: Any) -> float:
        return checks.number(
            self.name,
            value,
            minimum=self.minimum,
            maximum=self.maximum,
            step=self.step,
            unit=self.unit,
            called=called(self.name),
            spell=json_spelling,
        )


@dataclass(frozen=True)
class Number(_Quantity):
    """An `<input type=number>`: the reader types a value; out of range is refused visibly."""

    kind: str = field(default="number", init=False)


@dataclass(frozen=True)
class Range(_Quantity):
    """A slider that shows its value and speaks it through aria-valuetext ("0.25", "168 hours")."""

    kind: str = field(default="range", init=False)


@dataclass(frozen=True)
class Text:
    """A free text field for the reader's own words (a prediction written before running, say).

    It is not a parameter of the view: it is kept in the browser with the notes and exported with them.
    """

    name: str
    label: str
    hint: str = ""
    kind: str = field(default="text", init=False)


Control = Choice | Toggle | Number | Range | Text
PARAMETER_KINDS = (Choice, Toggle, Number, Range)
