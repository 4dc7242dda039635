"""An exercise as the page shows it: a fieldset that reads with JavaScript off.

The question is the fieldset's legend; the options are native radio buttons or checkboxes (a
number is a number field, yes or no two radio buttons). The hints and the answer with its
explanation sit in disclosures, so a reader without scripts can still think first and look after.
The build's answer key rides along as JSON, in an attribute, for the page's script, which checks a reader's answer
before Python has started.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from typing import Any

from lessonkit.authoring.exercises import Graded, Option


def render(graded: Graded, lesson: str, markdown: Callable[[str], str]) -> str:
    """The exercise's HTML; `lesson` names whose answers the reader's are (the page's storage keys),
    and `markdown` renders the explanation (claims included) as the page's prose is."""
    exercise = graded.exercise
    name = f"lk-exercise-{exercise.id}"
    parts = [
        f'<fieldset class="lk-exercise" id="exercise-{_attr(exercise.id)}" '
        f'data-exercise="{_attr(exercise.id)}" data-lesson="{_attr(lesson)}" '
        f'data-kind="{exercise.kind}" data-settings="{_attr(exercise.settings)}" '
        # In an attribute, not a JSON <script>: the theme re-inserts a page's scripts, and the CSP refuses inline ones.
        f'data-key="{_attr(json.dumps(key_of(graded), ensure_ascii=False))}">',
        f"<legend>{html.escape(exercise.question)}</legend>",
    ]
    if exercise.kind == "number":
        unit = f' <span class="lk-exercise-unit">{html.escape(exercise.unit)}</span>' if exercise.unit else ""
        parts.append(f'<p><label>Your answer <input type="number" name="{name}" step="any" inputmode="decimal"></label>{unit}</p>')
    else:
        kind = "checkbox" if exercise.kind == "several" else "radio"
        parts.append('<ul class="lk-exercise-options">')
        for index, option in enumerate(exercise.options):
            parts.append(f'<li><label><input type="{kind}" name="{name}" value="{index}"> {html.escape(option.label)}</label></li>')
        parts.append("</ul>")
    hints = "".join(f"<li>{html.escape(hint)}</li>" for hint in exercise.hints)
    parts.append(f'<details class="lk-exercise-hints"><summary>Hints</summary><ol>{hints}</ol></details>')
    parts.append(
        '<details class="lk-exercise-answer"><summary>The answer</summary>'
        f'<p class="lk-exercise-key"><strong>{html.escape(answer_text(graded))}</strong></p>'
        f"{markdown(exercise.explanation)}</details>"
    )
    parts.append("</fieldset>")
    return "\n".join(parts)


def answer_text(graded: Graded) -> str:
    """The answer as a reader reads it: an option's label, the labels of several, or the number with its unit."""
    exercise = graded.exercise
    if exercise.kind == "number":
        return f"{_number(graded.answer)}{' ' + exercise.unit if exercise.unit else ''}"
    chosen = [option.label for option in exercise.options if _chosen(graded, option)]
    return ", ".join(chosen) if chosen else "none of them"


def key_of(graded: Graded) -> dict[str, Any]:
    """What the page's script needs to check an answer and say why: by option index, not by value."""
    exercise = graded.exercise
    key: dict[str, Any] = {"id": exercise.id, "kind": exercise.kind, "settings": exercise.settings, "hints": list(exercise.hints)}
    if exercise.kind == "number":
        key["answer"] = graded.answer
    else:
        key["answer"] = [index for index, option in enumerate(exercise.options) if _chosen(graded, option)]
        key["feedback"] = list(graded.feedback)
    return key


def _chosen(graded: Graded, option: Option) -> bool:
    if graded.exercise.kind == "several":
        return option.value in graded.answer
    return graded.is_right(option.value)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def lesson_progress(page_html: str, lessons: dict[str, list[str]]) -> str:
    """The home page with a progress line in each card that links to a lesson with exercises.

    The line is empty and hidden: the page's script fills it from the reader's stored answers.
    """
    for lesson, ids in lessons.items():
        if not ids:
            continue
        card = re.compile(rf'(<li>\s*<p><strong><a href="lessons/{re.escape(lesson)}/">.*?)(</li>)', re.DOTALL)
        line = f'<p class="lk-lesson-progress" data-lesson="{_attr(lesson)}" data-exercises="{_attr(json.dumps(ids))}" hidden></p>'
        page_html = card.sub(lambda match, line=line: match[1] + line + match[2], page_html, count=1)
    return page_html
