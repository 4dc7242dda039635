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
controls, from a shared link or from storage, so every one is checked here, in one message style:
``parameter 'budget' is 30; allowed: 24, 36, 48, 64``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

GRID_TOLERANCE = 1e-9


class ParameterError(ValueError):
    """A parameter the panel cannot use, naming the parameter, the value and what is allowed."""

    def __init__(self, name: str, value: Any, allowed: str, *, missing: bool = False) -> None:
        self.name, self.value, self.allowed = name, value, allowed
        shown = "missing" if missing else f"is {show(value)}"
        super().__init__(f"parameter '{name}' {shown}; allowed: {allowed}")


def show(value: Any) -> str:
    """A value as JSON would write it, so a reader sees 30, "30", true or null exactly.

    Args:
        value: A parameter's value, as a refusal quotes it.

    Returns:
        Its JSON spelling, or its ``repr`` when JSON has none.

    Examples:
        >>> from lessonkit.panel.controls import show
        >>> show(30), show("30"), show(True), show(None)
        ('30', '"30"', 'true', 'null')
    """
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _format(number: float) -> str:
    return f"{number:g}"


def _is_number(value: Any) -> bool:
    # bool is an int in Python, but `true` is never a quantity; NaN and infinity are never settings.
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


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
        if not any(option.value == self.default for option in self.options):
            raise ValueError(f"choice '{self.name}': its default {show(self.default)} is not one of its options")

    def allowed(self) -> str:
        return ", ".join(show(option.value) for option in self.options)

    def check(self, value: Any) -> Any:
        for option in self.options:
            # 24 and 24.0 are the same budget, but True is not the option 1.
            same_type = type(option.value) is type(value) or (_is_number(value) and _is_number(option.value))
            if same_type and option.value == value:
                return option.value
        raise ParameterError(self.name, value, self.allowed())


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
        if not isinstance(value, bool):
            raise ParameterError(self.name, value, self.allowed())
        return value


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
        if not self.minimum <= self.default <= self.maximum:
            raise ValueError(f"{self.kind} '{self.name}': its default {self.default:g} is outside {self.minimum:g} to {self.maximum:g}")

    @property
    def whole(self) -> bool:
        return all(float(part).is_integer() for part in (self.minimum, self.step))

    def allowed(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        grid = "whole numbers" if self.whole and self.step == 1 else f"in steps of {_format(self.step)}"
        return f"{_format(self.minimum)} to {_format(self.maximum)}{unit}, {grid}"

    def check(self, value: Any) -> float:
        if not _is_number(value) or not self.minimum - GRID_TOLERANCE <= value <= self.maximum + GRID_TOLERANCE:
            raise ParameterError(self.name, value, self.allowed())
        steps = (value - self.minimum) / self.step
        if abs(steps - round(steps)) > 1e-6:
            raise ParameterError(self.name, value, self.allowed())
        # Snap to the grid so 0.30000000000000004 and 0.3 are one setting, one cache key, one view.
        snapped = self.minimum + round(steps) * self.step
        return int(round(snapped)) if self.whole else round(snapped, 10)


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
