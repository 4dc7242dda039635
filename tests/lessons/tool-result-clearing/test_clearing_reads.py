"""What the clearing panel's model reads, for a count in real tokens: the prompt of the request the
timeline shows, as sent after clearing (a cleared result as its placeholder), weighed as the panel
weighs the prompt sent; and the system prompt, which has no text, said and not counted."""

import json

import pytest

from lessonkit import tokens
from lessonkit.checks import Refused
from lessonkit.lessons.tool_result_clearing import lesson
from lessonkit.lessons.tool_result_clearing.panel import PLACEHOLDERS
from lessonkit.registry import panel
from lessonkit.runtime import count

PANEL = panel("tool-result-clearing")
MESSAGES = lesson().messages


def params(**changes):
    return {**PANEL.defaults(), **changes}


def counted(settings) -> dict:
    return json.loads(count(json.dumps({"lesson": PANEL.lesson, "params": settings, "encoding": "o200k_base"})))


def expected(settings) -> list[str]:
    """The prompt's texts from the fixture and the view's state, for a request that no call made
    again comes before: the script up to the message the request answers, each cleared result as
    the placeholder, each call's input after its message unless clearing took it out too."""
    state = PANEL.view(settings).state
    assert state["called_again_for"] is None and not any("-again" in result["result"] for result in state["results"])
    cleared = set(state["cleared"])
    answered = [message.id for message in MESSAGES].index(state["answer"])
    texts = []
    for message in MESSAGES[:answered]:
        texts.append(settings["placeholder"] if message.id in cleared else message.text)
        for call in message.calls:
            result = next(each for each in MESSAGES if each.call is not None and each.call.id == call.id)
            if not (settings["clear_tool_inputs"] and result.id in cleared):
                texts.append(call.input)
    return texts


# Settings that clear in different ways: the panel's own, every result but the last, inputs too, a
# longer placeholder, the plan excluded, and clearing in one batch.
SETTINGS = (
    params(),
    params(trigger=0, keep=1),
    params(trigger=5000, keep=2, clear_tool_inputs=True),
    params(trigger=5000, keep=2, placeholder=PLACEHOLDERS[2]),
    params(trigger=5000, exclude_update_plan=True),
    params(trigger=5000, clear_at_least=8000),
)


def test_the_reading_is_the_prompt_as_sent_after_clearing_in_the_order_the_session_wrote_it():
    for settings in SETTINGS:
        for time in range(1, 11):  # before any call is made again under these settings
            at = {**settings, "time": time}
            assert list(PANEL.reading(at).texts) == expected(at), (settings, time)


def test_every_result_the_view_lists_as_cleared_is_read_as_the_placeholder_and_the_others_whole():
    for settings in SETTINGS:
        for time in (4, 8, 15, 21):
            at = {**settings, "time": time}
            if PANEL.view(at).state["request"] is None:  # this setting's session has ended
                continue
            results = PANEL.view(at).state["results"]
            texts = PANEL.reading(at).texts
            whole = {message.id: message.text for message in MESSAGES}
            for result in results:
                original = whole[result["result"].split("-again")[0] if "-again" in result["result"] else result["result"]]
                assert (settings["placeholder"] if result["cleared"] else original) in texts, (settings, time, result)
            assert texts.count(settings["placeholder"]) == sum(result["cleared"] for result in results), (settings, time)


def test_a_call_made_again_is_read_as_its_input_and_its_result_once_more():
    at = params(time=12)  # the panel's setting: request 11 calls read_file again for a11
    state = PANEL.view(at).state
    texts = PANEL.reading(at).texts
    assert [result["result"] for result in state["results"]][-1] == "r4-again"
    assert texts[-3:] == ("", lesson().session.call("c4").input, lesson().message("r4").text)


def test_the_teaching_figure_is_the_prompt_sent_as_the_state_and_the_status_give_it():
    for settings in SETTINGS:
        for time in range(1, 22):
            at = {**settings, "time": time}
            view, reading = PANEL.view(at), PANEL.reading(at)
            if view.state["request"] is None:  # this setting's session has ended, and its status gives no prompt
                assert reading.teaching == 0, (settings, time)
                continue
            assert reading.teaching == view.state["prompt_tokens"], (settings, time)
            assert f" {reading.teaching:,} prompt tokens sent, " in view.status, (settings, time)


def test_a_longer_placeholder_adds_its_real_tokens_once_for_each_cleared_result():
    short, long = params(trigger=5000, keep=2, time=9), params(trigger=5000, keep=2, placeholder=PLACEHOLDERS[2], time=9)
    cleared = len(PANEL.view(short).state["cleared"])
    assert cleared > 1
    added = counted(long)["tokens"] - counted(short)["tokens"]
    assert added == cleared * (tokens.count(PLACEHOLDERS[2]) - tokens.count(PLACEHOLDERS[0]))


def test_what_it_names_counts_the_messages_inputs_and_cleared_results_of_the_request():
    assert PANEL.reading(params(time=1)).what == "the one message sent at request 1 of 21"
    assert PANEL.reading(params(time=2)).what == "the 3 messages and 1 tool input sent at request 2 of 21"
    eleven = PANEL.reading(params(time=11)).what
    assert eleven == "the 21 messages and 10 tool inputs sent at request 11 of 21 (7 cleared results as the placeholder)"


def test_the_system_prompt_is_said_to_have_no_text_and_a_result_sent_whole_to_be_read_by_its_gist():
    untexted = PANEL.reading(params(time=3)).untexted
    assert untexted.startswith(
        f" The system prompt and the tool definitions weigh {lesson().system_tokens:,} teaching tokens but have no text"
    )
    assert "counted by its gist" in untexted
    # With every result cleared, no gist is read.
    assert "gist" not in PANEL.reading(params(trigger=0, keep=0, time=3)).untexted


def test_before_the_first_request_and_after_the_last_the_model_reads_nothing():
    assert PANEL.reading(params(time=0)).texts == () and PANEL.reading(params(time=0)).teaching == 0
    unchanged = params(trigger=100000, time=21)  # nothing cleared, so nothing called again: fewer requests
    assert PANEL.view(unchanged).state == {"request": None}
    reading = PANEL.reading(unchanged)
    assert (reading.texts, reading.teaching) == ((), 0)
    assert reading.what == "request 21 (this setting's session ends at request 19)"


def test_a_refused_setting_is_refused_in_the_words_of_its_view():
    # The controls send nothing the engine refuses, so the panel's reads is asked directly, as its draw is.
    refused = params(keep=-1, time=3)
    with pytest.raises(Refused) as raised:
        PANEL.reads(refused)
    assert str(raised.value) == PANEL.draw(refused, None).refusal == "keep is -1; allowed: a whole number, 0 or more"


def test_the_worker_counts_each_text_of_the_prompt_in_real_tokens():
    for settings in SETTINGS:
        for time in (1, 9, 21):
            reply = counted({**settings, "time": time})
            assert reply["ok"] and reply["tokens"] == sum(tokens.count(text) for text in PANEL.reading({**settings, "time": time}).texts)


def test_r2_adds_the_forty_six_real_tokens_the_page_gives_its_gist():
    # Request 3's prompt is request 2's, then a2 with its call's input, then r2 whole.
    a2 = lesson().message("a2")
    before, after = counted(params(time=2)), counted(params(time=3))
    assert after["tokens"] - before["tokens"] - tokens.count(a2.text) - tokens.count(a2.calls[0].input) == 46
