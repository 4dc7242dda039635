"""A reader answers every exercise of the course through its accessible names: wrong, then with a
hint, then right; the experiment takes an exercise's settings; the answers outlive the visit, the
home page counts them, and export carries them.

What the page must say is worked out here from the engine in CPython (lessonkit.authoring.exercises),
not from the page: the feedback on a wrong answer is the engine's sentence for the reader's choice.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, expect

from lessonkit.authoring.exercise_html import answer_text
from lessonkit.authoring.exercises import Graded, find_exercises, grade, settings_of
from lessonkit.authoring.sybil_parsers import front_matter
from lessonkit.registry import panel
from tests.browser.axe import described, serious_violations
from tests.browser.harness import FOLLOW, PanelPage

DOCS = Path(__file__).resolve().parents[2] / "docs"


def graded_exercises(lesson: str) -> list[Graded]:
    text = (DOCS / "lessons" / f"{lesson}.md").read_text(encoding="utf-8")
    engine = vars(import_module(front_matter(text)["engine"]))
    return [grade(exercise, engine, panel(lesson)) for exercise in find_exercises(text)]


def lessons_with_exercises() -> Iterator[str]:
    for page in sorted((DOCS / "lessons").glob("*.md")):
        if find_exercises(page.read_text(encoding="utf-8")):
            yield page.stem


LESSONS = list(lessons_with_exercises())


def group(page: Any, graded: Graded) -> Locator:
    return page.get_by_role("group", name=graded.exercise.question, exact=True)


def give(fieldset: Locator, graded: Graded, choice: Any) -> None:
    """Answer as a reader does: tick the options (by their labels), or type the number."""
    exercise = graded.exercise
    if exercise.kind == "number":
        fieldset.get_by_role("spinbutton").fill(str(choice))
        return
    role = "checkbox" if exercise.kind == "several" else "radio"
    for option in exercise.options:
        box = fieldset.get_by_role(role, name=option.label, exact=True)
        if role == "checkbox":
            box.set_checked(option.value in choice)
        elif option.value == choice:
            box.check()


def wrong_and_right(graded: Graded) -> tuple[Any, str, Any, str]:
    """A wrong answer and what the page must say to it, then the right one and what it must say."""
    exercise, answer = graded.exercise, graded.answer
    if exercise.kind == "number":
        return answer + 1, f"Not yet: the engine's answer is lower than {answer + 1:g}.", answer, f"Right: {answer:g}."
    values = [option.value for option in exercise.options]
    if exercise.kind == "several":
        # All but one of the right options: the page names the one left out, in the engine's words.
        left_out = sorted(answer, key=values.index)[-1]
        wrong = answer - {left_out}
        right_words = " ".join(graded.feedback[values.index(value)] for value in sorted(answer, key=values.index))
        return wrong, f"Not yet. {graded.feedback[values.index(left_out)]}", answer, f"Right. {right_words}"
    wrong = next(value for value in values if not graded.is_right(value))
    return wrong, f"Not yet. {graded.feedback[values.index(wrong)]}", answer, f"Right. {graded.feedback[values.index(answer)]}"


def answer_right(page: Any, graded: Graded) -> Locator:
    """Answer `graded` right and check it; returns the exercise's status region."""
    fieldset = group(page, graded)
    _wrong, _not_yet, right, _well_done = wrong_and_right(graded)
    give(fieldset, graded, right)
    fieldset.get_by_role("button", name="Check", exact=True).click()
    return fieldset.get_by_role("status")


def exported_notes(panel_page: PanelPage) -> Any:
    with panel_page.page.expect_download() as started:
        panel_page.button(panel_page.spec.words.export_notes).click()
    return json.loads(Path(started.value.path()).read_text(encoding="utf-8"))


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_exercise_answered_wrong_then_with_a_hint_then_right_and_the_answers_outlive_the_visit(reader, panel_paths, lesson):
    exercises = graded_exercises(lesson)
    panel_page = reader.visit(lesson, panel_paths[lesson], engine=False)
    page = panel_page.page
    progress = page.locator(".lk-exercise-progress")
    expect(progress).to_have_text(f"0 of {len(exercises)} answered")

    for graded in exercises:
        fieldset = group(page, graded)
        status = fieldset.get_by_role("status")
        fieldset.get_by_role("button", name="Check", exact=True).click()
        unanswered = {"number": "Write a number first.", "several": "Choose one or more answers first."}
        expect(status).to_have_text(unanswered.get(graded.exercise.kind, "Choose an answer first."))
        wrong, not_yet, right, well_done = wrong_and_right(graded)
        give(fieldset, graded, wrong)
        fieldset.get_by_role("button", name="Check", exact=True).click()
        expect(status).to_have_text(not_yet)

        fieldset.get_by_role("button", name="Hint", exact=True).press("Enter")  # the keyboard alone asks for hints
        expect(status).to_have_text(f"Hint 1 of {len(graded.exercise.hints)} is shown.")
        expect(fieldset.locator(".lk-exercise-hint-list li")).to_have_text([graded.exercise.hints[0]])

        give(fieldset, graded, right)
        fieldset.get_by_role("button", name="Check", exact=True).click()
        expect(status).to_have_text(well_done)

    expect(progress).to_have_text(f"{len(exercises)} of {len(exercises)} answered")
    exported = exported_notes(panel_page)["exercises"]
    assert {
        graded.exercise.id: (entry["right"], entry["attempts"], entry["hints"])
        for graded in exercises
        for entry in [exported[graded.exercise.id]]
    } == {graded.exercise.id: (True, 2, 1) for graded in exercises}

    # The home page's card for the lesson counts them, from the same storage.
    page.evaluate(FOLLOW, reader.home)
    card = page.locator(f'.lk-lesson-progress[data-lesson="{lesson}"]')
    expect(card).to_have_text(f"{len(exercises)} of {len(exercises)} answered")

    # And the lesson, when the reader follows the link back to it, has them as the reader left them.
    page.evaluate(FOLLOW, panel_paths[lesson])
    expect(PanelPage(page, panel(lesson)).panel).to_be_visible()
    expect(page.locator(".lk-exercise-progress")).to_have_text(f"{len(exercises)} of {len(exercises)} answered")
    first = exercises[0]
    expect(group(page, first).locator(".lk-exercise-hint-list li")).to_have_text([first.exercise.hints[0]])
    if first.exercise.kind != "number":
        label = answer_text(first) if first.exercise.kind != "several" else first.exercise.options[0].label
        expect(
            group(page, first).get_by_role("checkbox" if first.exercise.kind == "several" else "radio", name=label, exact=True)
        ).to_be_checked()

    page.get_by_role("button", name="Clear my answers", exact=True).click()
    expect(page.locator(".lk-exercise-progress")).to_have_text(f"0 of {len(exercises)} answered")
    assert page.evaluate("(key) => localStorage.getItem(key)", f"lessonkit:{lesson}:exercises") is None


@pytest.mark.parametrize("lesson", LESSONS)
def test_show_the_answer_opens_it_and_try_it_sets_the_experiment_to_the_exercises_settings(reader, panel_paths, lesson):
    spec = panel(lesson)
    graded = graded_exercises(lesson)[0]
    panel_page: PanelPage = reader.visit(lesson, panel_paths[lesson])
    fieldset = group(panel_page.page, graded)

    fieldset.get_by_role("button", name="Show the answer", exact=True).click()
    expect(fieldset.locator(".lk-exercise-answer")).to_have_attribute("open", "")
    expect(fieldset.locator(".lk-exercise-key")).to_have_text(answer_text(graded))

    fieldset.get_by_role("button", name="Try it in the experiment", exact=True).click()
    expect(fieldset.get_by_role("status")).to_have_text("The experiment now shows this exercise's settings.")
    panel_page.expect_view(spec.view(settings_of(spec, graded.exercise.settings)))
    # The page's address carries the settings, as a link to them would, once the reader pauses (address.js).
    panel_page.page.wait_for_function("(setting) => location.hash.includes(setting)", arg=graded.exercise.settings.split("&")[0])


@pytest.mark.parametrize("lesson", LESSONS[:1])
def test_unreadable_earlier_answers_are_said_kept_aside_and_exported(reader, panel_paths, lesson):
    key = f"lessonkit:{lesson}:exercises"
    panel_page = reader.visit(lesson, panel_paths[lesson], stored={key: "{not json"}, engine=False)
    page = panel_page.page
    expect(page.locator(".lk-exercise-progress-status")).to_contain_text(
        "Your earlier answers to this lesson's exercises could not be read"
    )
    graded = graded_exercises(lesson)[0]
    expect(answer_right(page, graded)).to_have_text(wrong_and_right(graded)[3])
    kept = page.evaluate(
        "(prefix) => Object.keys(localStorage).filter((k) => k.startsWith(prefix)).map((k) => localStorage.getItem(k))", f"{key}:corrupt:"
    )
    assert kept == ["{not json"]
    exported = exported_notes(panel_page)
    assert exported["exercises"][graded.exercise.id]["right"] is True
    assert "{not json" in exported["unreadable"].values()


@pytest.mark.parametrize("lesson", LESSONS[:1])
def test_a_storage_switched_off_keeps_the_answer_on_the_page_says_why_and_exports_it(reader, panel_paths, lesson):
    panel_page = reader.visit(lesson, panel_paths[lesson], storage="switched off", engine=False)
    page = panel_page.page
    expect(page.locator(".lk-exercise-progress-status")).to_contain_text("Your answers can't be kept in this browser")
    graded = graded_exercises(lesson)[0]
    status = answer_right(page, graded)
    expect(status).to_contain_text(wrong_and_right(graded)[3])
    expect(status).to_contain_text("Your answer could not be saved in this browser")
    expect(page.locator(".lk-exercise-progress")).to_have_text(f"1 of {len(graded_exercises(lesson))} answered")
    assert exported_notes(panel_page)["exercises"][graded.exercise.id]["right"] is True


@pytest.mark.parametrize("lesson", LESSONS)
def test_with_javascript_off_each_exercise_reads_its_question_options_and_answer_in_a_disclosure(open_context, panel_paths, lesson):
    page = open_context(java_script_enabled=False).new_page()
    page.goto(panel_paths[lesson])
    for graded in graded_exercises(lesson):
        fieldset = group(page, graded)
        role = "checkbox" if graded.exercise.kind == "several" else "radio"
        for option in graded.exercise.options:
            expect(fieldset.get_by_role(role, name=option.label, exact=True)).to_have_count(1)
        if graded.exercise.kind == "number":
            expect(fieldset.get_by_role("spinbutton")).to_have_count(1)
        answer = fieldset.locator("details.lk-exercise-answer")
        expect(answer.locator("summary")).to_have_text("The answer")
        answer.locator("summary").click()
        expect(answer.locator(".lk-exercise-key")).to_have_text(answer_text(graded))
        # Nothing pretends to check an answer: the buttons come with JavaScript.
        expect(fieldset.get_by_role("button")).to_have_count(0)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_an_answered_exercise_with_its_hint_and_answer_shown(reader, panel_paths, scheme):
    lesson = LESSONS[0]
    panel_page = reader.visit(lesson, panel_paths[lesson], engine=False)
    page = panel_page.page
    page.emulate_media(color_scheme=scheme)
    graded = graded_exercises(lesson)[0]
    fieldset = group(page, graded)
    wrong, not_yet, _right, _well_done = wrong_and_right(graded)
    give(fieldset, graded, wrong)
    fieldset.get_by_role("button", name="Check", exact=True).click()
    expect(fieldset.get_by_role("status")).to_have_text(not_yet)
    fieldset.get_by_role("button", name="Hint", exact=True).click()
    fieldset.get_by_role("button", name="Show the answer", exact=True).click()
    violations = serious_violations(page)
    assert not violations, described(violations)
