"""A count in real tokens: what a panel's model reads at a setting, counted by the worker's call.

The lessons' own `reads` are tested beside each lesson (what the texts are, and that the lesson's
measure is the one its panel shows); here, the call the worker makes, and the spec that offers it.
"""

import json

import pytest

from lessonkit import tokens
from lessonkit.registry import lesson_ids, panel, panel_ids
from lessonkit.runtime import count


def counted(lesson, params, encoding="o200k_base"):
    return json.loads(count(json.dumps({"lesson": lesson, "params": params, "encoding": encoding})))


def settings_of(lesson):
    """The panel's defaults, and the same at the end of its timeline, where its model reads the most."""
    spec = panel(lesson)
    defaults = spec.defaults()
    return [defaults, {**defaults, spec.timeline.name: spec.timeline.end}] if spec.timeline else [defaults]


@pytest.mark.parametrize("lesson", lesson_ids())
@pytest.mark.parametrize("encoding", sorted(tokens.ENCODINGS))
def test_the_worker_call_counts_each_text_the_panel_reads_in_the_encoding_asked(lesson, encoding):
    for params in settings_of(lesson):
        reading = panel(lesson).reading(params)
        reply = counted(lesson, params, encoding)
        assert reply == {
            "ok": True,
            "encoding": encoding,
            "tokens": sum(tokens.count(text, encoding) for text in reading.texts),
            "what": reading.what,
            "teaching": reading.teaching,
            "unit": reading.unit,
            "untexted": reading.untexted,
        }


def test_at_the_end_of_every_timeline_the_model_reads_some_text_to_count():
    for lesson in lesson_ids():
        params = settings_of(lesson)[-1]
        assert counted(lesson, params)["tokens"] > 0, lesson


def test_the_encoding_left_out_is_the_tokenizers_default():
    lesson = lesson_ids()[0]
    params = panel(lesson).defaults()
    assert json.loads(count(json.dumps({"lesson": lesson, "params": params})))["encoding"] == tokens.DEFAULT


def test_every_lessons_panel_offers_a_count_in_the_default_encoding_and_the_platforms_demonstration_none():
    for panel_id in panel_ids():
        offered = panel(panel_id).spec()["real_tokens"]
        assert offered == ({"encoding": tokens.DEFAULT} if panel_id in lesson_ids() else None), panel_id


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        (
            {"lesson": "context-compression", "params": panel("context-compression").defaults(), "encoding": "p50k_base"},
            "encoding is 'p50k_base'; allowed: 'o200k_base', 'cl100k_base'",
        ),
        (
            {"lesson": "context-compression", "params": {**panel("context-compression").defaults(), "budget": 30}},
            "parameter 'budget' is 30; allowed: 24, 36, 48, 64",
        ),
        ({"lesson": "control-kinds", "params": panel("control-kinds").defaults()}, "shows no text a model reads"),
        (
            {"lesson": "context-compression"},
            "a count request is {\"lesson\":\"context-compression\"}; allowed: an object with 'lesson', 'params'",
        ),
    ],
)
def test_the_worker_call_refuses_a_bad_count_request_naming_what_is_allowed(request_, error):
    reply = json.loads(count(json.dumps(request_)))
    assert not reply["ok"] and error in reply["error"]
