"""Exercises: a question in a lesson whose answer key is an expression of the lesson's engine.

An author writes one ```lessonkit-exercise fence where the text needs it. Its body is YAML:

    id: first-unsupported
    question: With eviction at a budget of 24 tokens, when does the window first mention the region without the user's turn?
    settings: budget=24&policy=evict
    kind: one
    options: [10, 20, 30, 40]
    unit: s
    answer: first_unsupported_mention(replay(24, "evict")).time
    feedback: why_not(choice)
    hints:
      - Step through the timeline and watch T2.
    explanation: T2 leaves the window at [[thirty|...]] seconds, ...

- ``settings`` are the experiment's, written as its link writes them; the panel refuses bad ones.
- ``kind`` is ``one``, ``several``, ``number`` or ``yes-no``.
- ``answer`` is evaluated in the lesson's engine (the page's ``engine:``), with ``settings`` bound to
  the checked settings: a value of the options, several of them, a number, or True/False.
- ``feedback`` (every kind but ``number``) is evaluated once per option with ``choice`` bound to it, so
  a wrong answer is answered with what the engine says about the reader's own choice.
- ``explanation`` is Markdown whose numbers are claims, checked like the prose's.

Reading (the fence into an Exercise), grading (the engine's answer and feedback) and rendering
(lessonkit.authoring.exercise_html) are separate steps, so each can be tested on its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

import yaml

from lessonkit.authoring.claims import bare_numbers, check_claim, find_claims, iter_bound
from lessonkit.authoring.prose import FENCE, line_of
from lessonkit.checks import Refused
from lessonkit.panel import Panel

FENCE_NAME = "lessonkit-exercise"
KINDS = ("one", "several", "number", "yes-no")
YES_NO = (True, False)
REQUIRED = ("id", "question", "settings", "kind", "answer", "hints", "explanation")
OPTIONAL = ("options", "unit", "feedback")
ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class ExerciseError(ValueError):
    """An exercise the build cannot hold to its engine: the message names its line, its id and what is allowed."""


@dataclass(frozen=True)
class Option:
    value: Any
    label: str


@dataclass(frozen=True)
class Exercise:
    """One fence, read but not yet graded. `start` and `end` are the fence's offsets in its page."""

    id: str
    question: str
    settings: str
    kind: str
    options: tuple[Option, ...]
    answer: str
    hints: tuple[str, ...]
    explanation: str
    feedback: str | None
    unit: str
    line: int
    start: int
    end: int

    def refuse(self, problem: str) -> ExerciseError:
        return ExerciseError(f"line {self.line}: exercise '{self.id}': {problem}")


@dataclass(frozen=True)
class Graded:
    """An exercise with the engine's answer: `answer` is an option's value, a frozenset of them, a
    number or a bool; `feedback` is the engine's sentence for each option, in the options' order."""

    exercise: Exercise
    settings: dict[str, Any]
    answer: Any
    feedback: tuple[str, ...]
    claims: int

    def is_right(self, choice: Any) -> bool:
        """Whether `choice` (a value, a collection of values for ``several``, or a number) is the answer."""
        if self.exercise.kind == "several":
            return frozenset(choice) == self.answer
        if self.exercise.kind == "number":
            return _number(choice) and math.isclose(choice, self.answer, rel_tol=0, abs_tol=1e-9)
        return _same(choice, self.answer)


def find_exercises(markdown: str) -> list[Exercise]:
    """Every exercise fence in a page, read and checked for shape (not yet against the engine)."""
    found = [_read(match, markdown) for match in FENCE.finditer(markdown) if match["info"].strip() == FENCE_NAME]
    seen: set[str] = set()
    for exercise in found:
        if exercise.id in seen:
            raise exercise.refuse("another exercise on this page has the same id; allowed: one id per exercise")
        seen.add(exercise.id)
    return found


def _read(match: re.Match[str], markdown: str) -> Exercise:
    line = line_of(markdown, match.start())
    where = f"line {line}: exercise"
    try:
        body = yaml.safe_load(match["body"])
    except yaml.YAMLError as error:
        raise ExerciseError(f"{where}: its body is not YAML ({error}); allowed: the keys {', '.join(REQUIRED + OPTIONAL)}") from None
    if not isinstance(body, dict):
        raise ExerciseError(f"{where}: its body is not a mapping of keys; allowed: the keys {', '.join(REQUIRED + OPTIONAL)}")
    name = body.get("id")
    if not isinstance(name, str) or not ID.fullmatch(name):
        allowed = "lowercase letters, digits and single hyphens, such as first-unsupported"
        raise ExerciseError(f"{where}: its id is {name!r}; allowed: {allowed}")
    where = f"{where} '{name}'"
    unknown = sorted(set(body) - set(REQUIRED + OPTIONAL))
    missing = [key for key in REQUIRED if key not in body]
    if unknown or missing:
        problems = [f"it has {', '.join(unknown)}, which no exercise takes"] if unknown else []
        problems += [f"it lacks {', '.join(missing)}"] if missing else []
        problem = "; ".join(problems)
        raise ExerciseError(f"{where}: {problem}; allowed: {', '.join(REQUIRED)}, and {', '.join(OPTIONAL)} where they apply")
    kind = body["kind"]
    if kind not in KINDS:
        raise ExerciseError(f"{where}: its kind is {kind!r}; allowed: {', '.join(KINDS)}")
    for key in ("question", "settings", "answer", "explanation"):
        if not isinstance(body[key], str) or (key != "settings" and not body[key].strip()):
            raise ExerciseError(f"{where}: its {key} is {body[key]!r}; allowed: text")
    hints = body["hints"]
    if not isinstance(hints, list) or not hints or not all(isinstance(hint, str) and hint.strip() for hint in hints):
        raise ExerciseError(f"{where}: its hints are {hints!r}; allowed: a list of one or more sentences")
    feedback = body.get("feedback")
    if kind == "number":
        if feedback is not None:
            raise ExerciseError(f"{where}: a number has no feedback per option; allowed: feedback with one, several or yes-no")
    elif not isinstance(feedback, str) or not feedback.strip():
        raise ExerciseError(f"{where}: its feedback is {feedback!r}; allowed: an engine expression of `choice`, the reader's option")
    unit = "" if body.get("unit") is None else body["unit"]  # "unit:" with nothing after it is no unit
    if not isinstance(unit, str):
        raise ExerciseError(f"{where}: its unit is {unit!r}; allowed: text, such as s or tokens")
    options = _options(body.get("options"), kind, unit, where)
    return Exercise(
        id=name,
        question=body["question"].strip(),
        settings=body["settings"].strip(),
        kind=kind,
        options=options,
        answer=body["answer"].strip(),
        hints=tuple(hint.strip() for hint in hints),
        explanation=body["explanation"].strip(),
        feedback=feedback.strip() if isinstance(feedback, str) else None,
        unit=unit,
        line=line,
        start=match.start(),
        end=match.end(),
    )


def _options(given: Any, kind: str, unit: str, where: str) -> tuple[Option, ...]:
    if kind in ("number", "yes-no"):
        if given is not None:
            raise ExerciseError(f"{where}: a {kind} exercise has no options to list; allowed: options with one or several")
        return (Option(True, "Yes"), Option(False, "No")) if kind == "yes-no" else ()
    if not isinstance(given, list) or len(given) < 2:
        raise ExerciseError(f"{where}: its options are {given!r}; allowed: a list of two or more values")
    options = []
    for entry in given:
        value, label = (entry.get("value"), entry.get("label")) if isinstance(entry, dict) else (entry, None)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            allowed = "text or a number, or value and label"
            raise ExerciseError(f"{where}: the option {entry!r} has no value a reader can choose; allowed: {allowed}")
        shown = label if isinstance(label, str) and label.strip() else f"{_spell(value)}{' ' + unit if unit else ''}"
        options.append(Option(value, shown))
    values = [option.value for option in options]
    if any(sum(_same(value, other) for other in values) > 1 for value in values):
        raise ExerciseError(f"{where}: two of its options are the same value ({', '.join(map(_spell, values))}); allowed: each once")
    return tuple(options)


def settings_of(panel: Panel, fragment: str) -> dict[str, Any]:
    """The experiment's settings from a link's fragment ("budget=24&policy=evict"), checked by the panel.

    Each value is read as its control reads a link's text; a name the panel lacks, a name given
    twice and a value the panel refuses are each refused, with what is allowed.
    """
    parameters = panel.parameters
    given: dict[str, Any] = {}
    for name, text in parse_qsl(fragment, keep_blank_values=True):
        if name not in parameters:
            raise Refused(name, text, ", ".join(parameters), called=f"setting '{name}'", problem="is not one of this experiment's")
        if name in given:
            raise Refused(name, text, "once", called=f"setting '{name}'", problem="is given twice")
        given[name] = _from_text(parameters[name], text)
    return panel.check({**panel.defaults(), **given})


def _from_text(control: Any, text: str) -> Any:
    """A link's text as the control's value; what cannot be read is passed on for the panel to refuse."""
    # By kind, not by class: the build forgets lessonkit's engine and panel modules before each build
    # (site_hooks.on_pre_build), so the panel's controls are of classes imported after this module's.
    kind = getattr(control, "kind", None)
    if kind == "choice":
        return next((option.value for option in control.options if _spell(option.value) == text), text)
    if kind == "toggle":
        return {"true": True, "false": False}.get(text, text)
    try:
        number = float(text)
    except ValueError:
        return text
    return int(number) if number.is_integer() else number


def grade(exercise: Exercise, namespace: Mapping[str, Any], panel: Panel) -> Graded:
    """The engine's answer and feedback for one exercise, and the check of its explanation's claims.

    Raises ExerciseError when the settings are refused, the answer is not among the options (or
    not a number, or not yes or no), feedback is not a sentence, or the explanation states a number
    the engine disagrees with or binds none.
    """
    try:
        settings = settings_of(panel, exercise.settings)
    except Refused as refused:
        raise exercise.refuse(f"the experiment refuses its settings '{exercise.settings}': {refused}") from None
    scope = {**namespace, "settings": settings}
    answer = _answer(exercise, _evaluate(exercise, exercise.answer, scope, "answer"))
    feedback = tuple(
        _sentence(exercise, _evaluate(exercise, exercise.feedback, {**scope, "choice": option.value}, "feedback"), option)
        for option in (exercise.options if exercise.feedback else ())
    )
    claims = find_claims(exercise.explanation)
    for claim in iter_bound(claims):
        try:
            check_claim(claim, scope)
        except (AssertionError, ValueError) as mismatch:
            raise exercise.refuse(f"its explanation, {mismatch}") from None
    unbound = bare_numbers(exercise.explanation)
    if unbound:
        numbers = ", ".join(repr(number.text) for number in unbound)
        allowed = "claims ([[23|expr]]) or numbers marked as not claims ([[3.11|-]])"
        raise exercise.refuse(f"its explanation states {numbers} unbound; allowed: {allowed}")
    return Graded(exercise, settings, answer, feedback, sum(1 for _ in iter_bound(claims)))


def _evaluate(exercise: Exercise, expression: str, scope: Mapping[str, Any], what: str) -> Any:
    try:
        return eval(expression, dict(scope))  # the expression is the author's, from the lesson file
    except Exception as error:  # noqa: BLE001 - any failure of the author's expression is reported as theirs
        raise exercise.refuse(f"its {what} `{expression}` raised {type(error).__name__}: {error}") from None


def _answer(exercise: Exercise, value: Any) -> Any:
    values = [option.value for option in exercise.options]
    listed = ", ".join(_spell(value) for value in values)
    if exercise.kind == "number":
        if not _number(value):
            raise exercise.refuse(f"its answer `{exercise.answer}` gave {value!r}; allowed: a number")
        return value
    if exercise.kind == "several":
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise exercise.refuse(f"its answer `{exercise.answer}` gave {value!r}; allowed: a collection of its options ({listed})")
        chosen = list(value)
        outside = [item for item in chosen if not any(_same(item, option) for option in values)]
        if outside:
            extra = ", ".join(map(repr, outside))
            raise exercise.refuse(f"the engine's answer includes {extra}, which its options lack; allowed: {listed}")
        return frozenset(next(option for option in values if _same(item, option)) for item in chosen)
    match = next((option for option in values if _same(value, option)), None)
    if match is None:
        raise exercise.refuse(f"the engine's answer is {value!r}, which its options lack; allowed: {listed}")
    return match


def _sentence(exercise: Exercise, value: Any, option: Option) -> str:
    if not isinstance(value, str) or not value.strip():
        raise exercise.refuse(f"its feedback `{exercise.feedback}` gave {value!r} for {option.label!r}; allowed: a sentence")
    return value.strip()


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _same(value: Any, other: Any) -> bool:
    """Equal as a reader's choice is: 30 and 30.0 alike, but True is not the option 1."""
    if _number(value) and _number(other):
        return math.isclose(value, other, rel_tol=0, abs_tol=1e-9)
    return type(value) is type(other) and value == other


def _spell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
