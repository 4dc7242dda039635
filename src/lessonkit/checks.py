"""One way to refuse a bad input: a refusal names the input, the value, and what is allowed.

Every engine, every panel and the fixture loader refuses through these checks, so a reader meets
one shape of message wherever a value came from::

    budget is 25; allowed: 24, 36, 48, 64
    parameter 'budget' is "30"; allowed: 24, 36, 48, 64
    context-compression.json: turns[3] (T4): field 'tokens' is 0; allowed: a whole number greater than 0

A value is spelled in the language it came in: as Python writes it for a call (``'30'``, ``True``,
``None``), and as a browser's ``JSON.stringify`` writes it for a link, saved settings or a fixture
(``"30"``, ``true``, ``null``), so the shell's params.js and a panel say the same words. A name or
value longer than `LONGEST` characters is cut, and `together` says several problems once each,
the first `MOST_SAID` of them, then how many more: a link cannot make a message of any size.

Each check returns the value it accepted (a choice returns the option itself, so 24.0 given
where 24 is an option comes back as 24), or raises `Refused`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any, NoReturn

__all__ = [
    "LONGEST",
    "MISSING",
    "MOST_SAID",
    "Refused",
    "choice",
    "cut",
    "flag",
    "instance",
    "json_spelling",
    "number",
    "number_allowed",
    "python_spelling",
    "text",
    "together",
    "whole",
]

LONGEST = 80
"""The most characters of a name or a value a message spells; a longer one is cut and ends in "…"."""
MOST_SAID = 3
"""The most problems one message says in full; the rest are counted ("and 4997 more")."""
GRID_TOLERANCE = 1e-9  # a bound met within float noise is met: 0.1 * 3 is on the grid up to 0.3


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""What a check is given for a value that was not given at all; it is refused as "is missing"."""

Spelling = Callable[[Any], str]


def cut(text: str) -> str:
    """`text` as a message quotes it: whole, or its first `LONGEST` characters and "…".

    Args:
        text: A name or a value's spelling.

    Examples:
        >>> from lessonkit.checks import cut
        >>> cut("budget"), len(cut("x" * 5000))
        ('budget', 81)
    """
    return text if len(text) <= LONGEST else text[:LONGEST] + "…"


def python_spelling(value: Any) -> str:
    """A value as Python writes it (``'30'``, ``True``, ``None``), cut at `LONGEST` characters.

    Args:
        value: What a call gave.

    Examples:
        >>> from lessonkit.checks import python_spelling
        >>> python_spelling("30"), python_spelling(True), python_spelling(None)
        ("'30'", 'True', 'None')
    """
    return cut(repr(value))


def _number(value: float) -> str:
    # ECMAScript's Number::toString over the shortest digits that read back as `value`, which
    # Python's repr finds too: 1000.0 is "1000", 1e-7 "1e-7", 1e21 "1e+21", as a browser writes them.
    if not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("-Infinity" if value < 0 else "Infinity")
    if value == 0:
        return "0"
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    shown = "".join(map(str, digits))
    point = len(shown) + int(exponent)  # where the decimal point falls after the digits' first
    if len(shown) <= point <= 21:
        body = shown + "0" * (point - len(shown))
    elif 0 < point <= 21:
        body = f"{shown[:point]}.{shown[point:]}"
    elif -6 < point <= 0:
        body = "0." + "0" * -point + shown
    else:
        mantissa = shown[0] + (f".{shown[1:]}" if len(shown) > 1 else "")
        body = f"{mantissa}e{'+' if point - 1 >= 0 else '-'}{abs(point - 1)}"
    return ("-" if sign else "") + body


def _json(value: Any) -> str:
    if value is None or isinstance(value, (bool, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_json(item) for item in value) + "]"
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return "{" + ",".join(f"{json.dumps(key, ensure_ascii=False)}:{_json(item)}" for key, item in value.items()) + "}"
    raise TypeError(f"{type(value).__name__} has no JSON spelling")


def json_spelling(value: Any) -> str:
    """A value as a browser's ``JSON.stringify`` writes it (``"30"``, ``true``, ``[1,2]``, ``1000``), cut.

    NaN and the infinities, which JSON has no words for, are spelled as Python's JSON reader
    accepts them in a file (``NaN``, ``Infinity``); a value JSON cannot hold at all, by its repr.

    Args:
        value: What a link, saved settings or a fixture gave, as JSON reads it.

    Examples:
        >>> from lessonkit.checks import json_spelling
        >>> json_spelling("30"), json_spelling(True), json_spelling(None), json_spelling([1, 2.0])
        ('"30"', 'true', 'null', '[1,2]')
    """
    try:
        return cut(_json(value))
    except TypeError:
        return cut(repr(value))


class Refused(ValueError):
    """A value refused: `name` says what it was for, `value` what it was, `allowed` what is allowed.

    Its message is ``{called} {problem}; allowed: {allowed}``: `called` is how the name reads
    (``budget``, ``parameter 'budget'``), and `problem` is ``is {value}`` spelled as the value
    came (Python or JSON), or ``is missing``; a caller that names the input its own way (a
    fixture's file, record and field) reads `problem` and `allowed`. `problems` holds every
    distinct problem when `together` refused several at once, and is just this one otherwise.

    A subclass of ValueError: every bad input in the course is one, so a caller catches one kind.

    Examples:
        >>> from lessonkit.checks import Refused
        >>> refused = Refused("budget", 25, "24, 36, 48, 64")
        >>> str(refused), refused.name, refused.value, refused.allowed
        ('budget is 25; allowed: 24, 36, 48, 64', 'budget', 25, '24, 36, 48, 64')
    """

    name: str
    value: Any
    allowed: str | None
    problem: str
    problems: tuple[Refused, ...]

    def __init__(
        self,
        name: str,
        value: Any,
        allowed: str | None,
        *,
        called: str | None = None,
        problem: str | None = None,
        spell: Spelling = python_spelling,
        message: str | None = None,
    ) -> None:
        self.name, self.value, self.allowed = name, value, allowed
        self.problems = (self,)
        if problem is None:
            problem = "is missing" if value is MISSING else f"is {spell(value)}"
        self.problem = problem
        if message is None:
            message = f"{cut(name) if called is None else called} {problem}"
            if allowed is not None:
                message += f"; allowed: {allowed}"
        super().__init__(message)


def together(refusals: Iterable[Refused]) -> Refused | None:
    """One refusal for several: each distinct problem said once, the first `MOST_SAID` in full.

    Returns None when there is nothing to refuse, the one refusal when there is one, and otherwise
    a refusal that reads as its problems joined by "; " (then "and N more"), carries the first
    one's name, value and allowed, and holds every distinct one in `problems`.

    Args:
        refusals: Every problem found, in the order they were found.

    Examples:
        >>> from lessonkit.checks import Refused, together
        >>> print(together([Refused("colour", "teal", "budget")] * 5000))
        colour is 'teal'; allowed: budget
        >>> print(together(Refused(f"colour{n}", "teal", "budget") for n in range(5)))
        colour0 is 'teal'; allowed: budget; colour1 is 'teal'; allowed: budget; colour2 is 'teal'; allowed: budget; and 2 more
    """
    distinct: dict[str, Refused] = {}
    for refused in refusals:
        for each in refused.problems:
            distinct.setdefault(str(each), each)
    if len(distinct) <= 1:
        return next(iter(distinct.values()), None)
    said = list(distinct)[:MOST_SAID]
    if len(distinct) > MOST_SAID:
        said.append(f"and {len(distinct) - MOST_SAID} more")
    first = next(iter(distinct.values()))
    joined = Refused(first.name, first.value, first.allowed, message="; ".join(said))
    joined.problems = tuple(distinct.values())
    return joined


def _refuse(name: str, value: Any, allowed: str, called: str | None, spell: Spelling) -> NoReturn:
    raise Refused(name, value, allowed, called=called, spell=spell)


def _is_number(value: Any) -> bool:
    # bool is an int in Python, but `true` is never a quantity; NaN and infinity are never settings.
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _figure(number: float) -> str:
    # A bound as the shell writes it (params.js rounds to 9 decimals): 0.05, 720, 100000.
    return _number(round(number, 9) + 0.0)


def _same_kind(value: Any, option: Any, numbers_alike: bool) -> bool:
    if numbers_alike and _is_number(value) and _is_number(option):
        return True
    return type(value) is type(option)


def choice(
    name: str,
    value: Any,
    options: Iterable[Any],
    *,
    called: str | None = None,
    spell: Spelling = python_spelling,
    numbers_alike: bool = False,
    allowed: str | None = None,
) -> Any:
    """The option `value` is, compared by type as well: True is not the option 1, nor 24.0 the option 24.

    With `numbers_alike`, any number matches the equal number (JSON has one kind of number).
    Args:
        name: What the value is for, as the refusal names it.
        value: What was given.
        options: The options, or a mapping whose keys are.
        called: How the refusal reads the name, when not as `name` (``parameter 'budget'``).
        spell: How the refusal writes a value: `python_spelling` or `json_spelling`.
        numbers_alike: Any number matches the equal number (JSON has one kind of number).
        allowed: What is allowed in words, when the options' spellings are not what a reader should see.

    Raises:
        Refused: `value` is none of the options.

    Examples:
        >>> from lessonkit.checks import choice
        >>> choice("policy", "evict", ("evict", "summarize"))
        'evict'
        >>> choice("policy", "drop", ("evict", "summarize"))
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: policy is 'drop'; allowed: 'evict', 'summarize'
    """
    options = tuple(options)  # compared one by one: an unhashable value is refused, not a crash
    for option in options:
        if _same_kind(value, option, numbers_alike) and value == option:
            return option
    _refuse(name, value, ", ".join(map(spell, options)) if allowed is None else allowed, called, spell)


def flag(name: str, value: Any, *, called: str | None = None, spell: Spelling = python_spelling) -> bool:
    """`value` when it is True or False: 0, 1 or "yes" would hide a typo.

    Args:
        name: What the value is for, as the refusal names it.
        value: What was given.
        called: How the refusal reads the name, when not as `name`.
        spell: How the refusal writes a value, and the two allowed.

    Raises:
        Refused: `value` is not a bool.

    Examples:
        >>> from lessonkit.checks import flag, json_spelling
        >>> flag("reserve", "yes", spell=json_spelling)
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: reserve is "yes"; allowed: true, false
    """
    if not isinstance(value, bool):
        _refuse(name, value, f"{spell(True)}, {spell(False)}", called, spell)
    return value


def _bounds(minimum: float | None, maximum: float | None, above: float | None, unit: str, whole: bool) -> str:
    unit = f" {unit}" if unit else ""
    if minimum is not None and maximum is not None:
        return f"{_figure(minimum)} to {_figure(maximum)}{unit}" + (", whole numbers" if whole else "")
    kind = f"a whole number{' of' + unit if unit else ''}" if whole else None
    if above is not None:
        return f"{kind or 'a number'} greater than {_figure(above)}"
    if minimum is not None:
        if whole and minimum == 1:
            return f"{kind} greater than 0"
        return f"{kind}, {_figure(minimum)} or more" if whole else f"{_figure(minimum)}{unit} or more"
    return kind or "a number"


def whole(
    name: str,
    value: Any,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    unit: str = "",
    optional: bool = False,
    called: str | None = None,
    spell: Spelling = python_spelling,
) -> Any:
    """`value` when it is a whole number from `minimum` to `maximum` (True and 24.0 are refused).

    Args:
        name: What the value is for, as the refusal names it.
        value: What was given.
        minimum: The least allowed, if any.
        maximum: The most allowed, if any.
        unit: What the number counts ("tokens"), for the words of what is allowed.
        optional: None is accepted too: a field left out.
        called: How the refusal reads the name, when not as `name`.
        spell: How the refusal writes a value.

    Raises:
        Refused: `value` is not a whole number in range (nor None, when `optional`).

    Examples:
        >>> from lessonkit.checks import whole
        >>> whole("budget", 0, minimum=1, unit="tokens")
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: budget is 0; allowed: a whole number of tokens greater than 0
        >>> whole("word_budget", 40.0, minimum=0, maximum=120, unit="words")
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: word_budget is 40.0; allowed: 0 to 120 words, whole numbers
    """
    if optional and value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (minimum is not None and value < minimum)
        or (maximum is not None and value > maximum)
    ):
        allowed = _bounds(minimum, maximum, None, unit, whole=True)
        _refuse(name, value, allowed + (", or None to leave it out" if optional else ""), called, spell)
    return value


def number(
    name: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    above: float | None = None,
    step: float | None = None,
    unit: str = "",
    called: str | None = None,
    spell: Spelling = python_spelling,
) -> Any:
    """`value` when it is a finite number (not a bool) in its bounds, and on the grid of `step`s from `minimum`.

    On a grid, a value within float noise of a step is snapped to it (so 0.30000000000000004 and
    0.3 are one setting, one cache key, one view), and comes back a whole number when the grid is whole.

    Args:
        name: What the value is for, as the refusal names it.
        value: What was given.
        minimum: The least allowed, if any; where a grid starts.
        maximum: The most allowed, if any.
        above: A bound that is not allowed itself, if any.
        step: The grid's step, if the number must be on one.
        unit: What the number counts ("hours"), for the words of what is allowed.
        called: How the refusal reads the name, when not as `name`.
        spell: How the refusal writes a value.

    Raises:
        Refused: `value` is not a finite number in range and on the grid.

    Examples:
        >>> from lessonkit.checks import number
        >>> number("weight", 0.30000000000000004, minimum=0, maximum=1, step=0.05)
        0.3
        >>> number("weight", 0.33, minimum=0, maximum=1, step=0.05)
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: weight is 0.33; allowed: 0 to 1, in steps of 0.05
    """
    tolerance = GRID_TOLERANCE if step is not None else 0
    if (
        not _is_number(value)
        or (minimum is not None and value < minimum - tolerance)
        or (maximum is not None and value > maximum + tolerance)
        or (above is not None and not value > above)
    ):
        _refuse(name, value, number_allowed(minimum, maximum, above, step, unit), called, spell)
    if step is None:
        return value
    start = 0 if minimum is None else minimum  # a grid starts at its minimum
    steps = (value - start) / step
    if abs(steps - round(steps)) > 1e-6:
        _refuse(name, value, number_allowed(minimum, maximum, above, step, unit), called, spell)
    snapped = start + round(steps) * step
    return int(round(snapped)) if _whole_grid(start, step) else round(snapped, 10)


def _whole_grid(minimum: float, step: float) -> bool:
    return float(minimum).is_integer() and float(step).is_integer()


def number_allowed(minimum: float | None, maximum: float | None, above: float | None, step: float | None, unit: str) -> str:
    """What `number` allows, in words, as the shell's params.js words it too.

    Args:
        minimum: The least allowed, if any.
        maximum: The most allowed, if any.
        above: A bound not allowed itself, if any.
        step: The grid's step, if any.
        unit: What the number counts.

    Examples:
        >>> from lessonkit.checks import number_allowed
        >>> number_allowed(0, 720, None, 1, "hours"), number_allowed(0, 1, None, 0.05, "")
        ('0 to 720 hours, whole numbers', '0 to 1, in steps of 0.05')
    """
    allowed = _bounds(minimum, maximum, above, unit, whole=False)
    if step is None:
        return allowed
    grid = "whole numbers" if _whole_grid(0 if minimum is None else minimum, step) and step == 1 else f"in steps of {_figure(step)}"
    return f"{allowed}, {grid}"


def text(
    name: str,
    value: Any,
    *,
    empty: bool = False,
    called: str | None = None,
    spell: Spelling = python_spelling,
) -> str:
    """`value` when it is a string with something in it besides spaces.

    Args:
        name: What the value is for, as the refusal names it.
        value: What was given.
        empty: Any string is accepted, even an empty one.
        called: How the refusal reads the name, when not as `name`.
        spell: How the refusal writes a value.

    Raises:
        Refused: `value` is not a string, or (without `empty`) has nothing in it.

    Examples:
        >>> from lessonkit.checks import text
        >>> text("title", "  ")
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: title is '  '; allowed: a non-empty string
    """
    if not isinstance(value, str) or not (empty or value.strip()):
        _refuse(name, value, "a string" if empty else "a non-empty string", called, spell)
    return value


def instance(
    name: str,
    value: Any,
    kind: type | tuple[type, ...],
    described: str,
    *,
    called: str | None = None,
    spell: Spelling = python_spelling,
) -> Any:
    """`value` when it is a `kind`.

    Args:
        name: What the value is for, as the refusal names it.
        value: What was given.
        kind: The type, or types, allowed.
        described: What is allowed, in words ("a Window").
        called: How the refusal reads the name, when not as `name`.
        spell: How the refusal writes a value.

    Raises:
        Refused: `value` is not a `kind`.

    Examples:
        >>> from lessonkit.checks import instance
        >>> instance("window", [], tuple, "a tuple of turns")
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: window is []; allowed: a tuple of turns
    """
    if not isinstance(value, kind):
        _refuse(name, value, described, called, spell)
    return value
