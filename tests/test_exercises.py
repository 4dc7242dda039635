"""Exercises are held to the lesson's engine: the build refuses one whose key the engine contradicts."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import lessonkit.lessons.context_compression as engine
from lessonkit.authoring.exercise_html import answer_text, key_of, render
from lessonkit.authoring.exercises import ExerciseError, find_exercises, grade
from lessonkit.registry import panel

COMPRESSION = panel("context-compression")


def fence(**fields: str) -> str:
    body = {
        "id": "first-unsupported",
        "question": "When is the region first mentioned without the user's turn?",
        "settings": "budget=24&policy=evict",
        "kind": "one",
        "options": "[15, 22.5, 30, 37.5]",
        "unit": "s",
        "answer": 'first_unsupported_mention(replay(24, "evict")).time',
        "feedback": 'evidence(replay(24, "evict").at(choice))',
        "hints": "[Watch T2.]",
        "explanation": 'Eviction removes T2 when the window would hold [[thirty|replay(24, "evict").at(30).attempted]] tokens.',
    }
    body.update(fields)
    # Expressions are written as JSON strings, which YAML reads as they are, quotes and all.
    written = {key: json.dumps(value) if key in ("answer", "feedback") else value for key, value in body.items() if value is not None}
    lines = "\n".join(f"{key}: {value}" for key, value in written.items())
    return f"Some prose.\n\n```lessonkit-exercise\n{lines}\n```\n"


def graded(text: str):
    (exercise,) = find_exercises(text)
    return grade(exercise, vars(engine), COMPRESSION)


def test_the_engine_answers_an_exercise_and_says_why_for_each_option():
    result = graded(fence())
    assert result.answer == 30
    assert result.is_right(30.0) and not result.is_right(15)
    assert result.feedback[0] == engine.evidence(engine.replay(24, "evict").at(15))
    assert "user's own turn is gone" in result.feedback[2]
    assert result.claims == 1


def test_an_exercise_whose_options_lack_the_engines_answer_fails_naming_the_answer_and_the_options():
    with pytest.raises(
        ExerciseError,
        match=r"line 3: exercise 'first-unsupported': the engine's answer is 30, which its options lack; allowed: 15, 22.5, 37.5",
    ):
        graded(fence(options="[15, 22.5, 37.5]"))


def test_settings_the_experiment_refuses_fail_the_exercise_with_the_experiments_own_words():
    with pytest.raises(ExerciseError, match=r"refuses its settings 'budget=25&policy=evict'.*budget.*25.*allowed: 24, 36, 48, 64"):
        graded(fence(settings="budget=25&policy=evict"))
    with pytest.raises(ExerciseError, match=r"setting 'speed' is not one of this experiment's; allowed: budget, policy, fidelity, time"):
        graded(fence(settings="speed=2"))


def test_an_explanation_stating_a_number_the_engine_disagrees_with_fails():
    with pytest.raises(ExerciseError, match=r"its explanation, line 1: the prose says 'twenty'"):
        graded(fence(explanation='T2 goes at [[twenty|replay(24, "evict").at(30).attempted]] tokens.'))


def test_an_explanation_with_a_number_bound_to_nothing_fails():
    with pytest.raises(ExerciseError, match=r"its explanation states '23' unbound"):
        graded(fence(explanation="The window keeps 23 tokens."))


@pytest.mark.parametrize(
    ("fields", "refusal"),
    [
        ({"kind": "pick"}, r"its kind is 'pick'; allowed: one, several, number, yes-no"),
        ({"colour": "blue"}, r"it has colour, which no exercise takes"),
        ({"hints": None}, r"it lacks hints"),
        ({"id": "First One"}, r"its id is 'First One'; allowed: lowercase letters"),
        ({"feedback": None}, r"its feedback is None; allowed: an engine expression of `choice`"),
        ({"options": "[15, 15.0]"}, r"two of its options are the same value"),
        ({"answer": "no_such_name"}, r"its answer `no_such_name` raised NameError"),
    ],
)
def test_a_fence_that_is_not_an_exercise_is_refused_with_what_is_allowed(fields, refusal):
    with pytest.raises(ExerciseError, match=refusal):
        graded(fence(**fields))


def test_two_exercises_on_a_page_cannot_share_an_id():
    with pytest.raises(ExerciseError, match="same id"):
        find_exercises(fence() + fence())


def test_several_is_right_in_any_order_and_only_when_complete():
    result = graded(
        fence(
            kind="several",
            options="[T1, T2, T3, T4]",
            unit="",
            answer='replay(24, "evict").at(30).retained',
            feedback='f"{choice} is " + ("kept" if choice in replay(24, "evict").at(30).retained else "gone") + " at 30 s."',
        )
    )
    assert result.answer == frozenset({"T1", "T3", "T4"})
    assert result.is_right(["T4", "T1", "T3"]) and not result.is_right(["T1", "T3"])
    assert result.feedback[1] == "T2 is gone at 30 s."
    assert answer_text(result) == "T1, T3, T4"


def test_a_number_exercise_takes_any_number_and_a_yes_no_one_takes_true_or_false():
    number = graded(fence(kind="number", options=None, feedback=None, unit="tokens", answer='replay(24, "evict").at(30).tokens'))
    assert number.answer == 23 and number.is_right(23.0) and not number.is_right(True)
    assert answer_text(number) == "23 tokens"
    assert key_of(number)["answer"] == 23
    yes_no = graded(
        fence(kind="yes-no", options=None, answer='replay(24, "evict").at(30).user_backed', feedback='"backed" if choice else "not backed"')
    )
    assert yes_no.answer is False and answer_text(yes_no) == "No"
    with pytest.raises(ExerciseError, match=r"the engine's answer is 23, which its options lack; allowed: true, false"):
        graded(fence(kind="yes-no", options=None, answer='replay(24, "evict").at(30).tokens', feedback='"x"'))


def test_without_scripts_an_exercise_reads_its_question_its_options_and_the_answer_inside_a_disclosure():
    page = render(graded(fence()), "context-compression", lambda text: f"<p>{text}</p>")
    assert page.startswith('<fieldset class="lk-exercise"') and 'data-lesson="context-compression"' in page
    assert "<legend>When is the region first mentioned without the user&#x27;s turn?</legend>" in page
    assert page.count('type="radio"') == 4 and "> 22.5 s</label>" in page
    answer = page[page.index('<details class="lk-exercise-answer">') :]
    assert "<summary>The answer</summary>" in answer and "<strong>30 s</strong>" in answer
    assert "&quot;answer&quot;: [2]" in page and "<script" not in page


def test_every_lesson_exercise_in_the_course_is_found_where_its_page_puts_it():
    text = textwrap.dedent(
        """\
        ```python
        # not an exercise
        ```
        """
    )
    assert find_exercises(text) == []


def test_settings_are_read_by_control_kind_so_a_rebuilt_panels_toggles_and_choices_still_read():
    # The build forgets lessonkit's engine and panel modules before each build (site_hooks), while
    # this module stays imported: the panel's controls are then of classes it never imported.
    forget_and_read = """
import sys
from lessonkit.authoring.exercises import settings_of
for name in [name for name in sys.modules if name.startswith("lessonkit.") and not name.startswith("lessonkit.authoring")]:
    del sys.modules[name]
from lessonkit.registry import panel
settings = settings_of(panel("context-compaction"), "set_after_tokens=false&set_after_invocations=true&summarizer=terse&time=9")
print(settings["set_after_tokens"], settings["set_after_invocations"], settings["summarizer"])
"""
    done = subprocess.run([sys.executable, "-c", forget_and_read], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "True", "terse"]
