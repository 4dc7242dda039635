"""What the compaction panel's model reads, for a count in real tokens: what it sees in the request
the timeline shows, item by item as the panel lists it, weighed as the request's prompt; and what
the lesson weighs without text (the attached file, a summary by the agent's model) said, not counted."""

import html
import json
import re

import pytest

from lessonkit import tokens
from lessonkit.lessons.context_compaction import Refusal, lesson
from lessonkit.registry import panel
from lessonkit.runtime import count

PANEL = panel("context-compaction")
EVENTS = {event.id: event for event in lesson().events}
REQUESTS = [mark.at for mark in PANEL.timeline.marks]
ATTACHMENT = lesson().attachments[0]


def params(**changes):
    return {**PANEL.defaults(), **changes}


def turns_only(**changes):
    return params(
        **{"set_after_tokens": False, "set_keep_recent_events": False, "set_after_invocations": True, "set_overlap": True, **changes}
    )


# Settings that write summaries of both kinds, on both triggers.
SETTINGS = (params(), params(summarizer="terse"), turns_only(), turns_only(summarizer="terse"))


def counted(settings) -> dict:
    return json.loads(count(json.dumps({"lesson": PANEL.lesson, "params": settings, "encoding": "o200k_base"})))


def said_lines(summary_id: str, summaries: dict[str, dict]) -> list[str]:
    """A rule-based summary's lines, from the run's record and the fixture: who said what, and a carried summary's own lines."""
    lines = []
    for kept in summaries[summary_id]["keeps"]:
        if kept in summaries:
            lines += said_lines(kept, summaries)
        else:
            event = EVENTS[kept]
            lines.append(f"{'user' if event.kind == 'user' else lesson().agent}: {event.text}")
    return lines


def expected(view) -> list[str]:
    """The texts of what the view says the model sees, in its order: each event's, each rule-based summary's lines."""
    summaries = {summary["id"]: summary for summary in view.export["summaries"]}
    texts = []
    for entry in view.state["seen"]:
        if entry["kind"] != "summary":
            texts.append(EVENTS[entry["id"]].text)
        elif entry["by"] == "terse":
            texts.append("\n".join(said_lines(entry["id"], summaries)))
    return texts


def listed_lines(view_html: str) -> list[str]:
    """Every line of a summary the seen list shows, in order."""
    seen = view_html.split('<ol class="lk-seen-list">', 1)[1].split("</ol>", 1)[0]
    return [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", seen, re.DOTALL)]


def test_the_reading_is_the_text_of_each_item_the_model_sees_in_the_order_the_view_lists_them():
    for settings in SETTINGS:
        for time in REQUESTS:
            view = PANEL.view({**settings, "time": time})
            texts = PANEL.reading({**settings, "time": time}).texts
            assert list(texts) == expected(view), (settings, time)
            # Each summary's lines are the ones the seen list shows under it; one by the agent's model shows none.
            texted = [entry for entry in view.state["seen"] if entry["kind"] != "summary" or entry["by"] == "terse"]
            lines = [line for text, entry in zip(texts, texted, strict=True) if entry["kind"] == "summary" for line in text.split("\n")]
            assert lines == listed_lines(view.html), (settings, time)


def test_a_rule_based_summary_is_read_as_its_lines_and_carries_an_earlier_summarys_lines_whole():
    settings = params(summarizer="terse", time=24)
    view, texts = PANEL.view(settings), PANEL.reading(settings).texts
    first = view.state["seen"][0]
    assert first["kind"] == "summary" and first["by"] == "terse" and first["keeps"][0].startswith("S")
    assert texts[0].split("\n")[0] == f"user: {EVENTS['u1'].text}"
    assert texts[0].split("\n") == listed_lines(view.html)


def test_the_teaching_figure_is_the_requests_prompt_as_the_state_and_the_status_give_it():
    for settings in SETTINGS:
        for time in REQUESTS:
            view, reading = PANEL.view({**settings, "time": time}), PANEL.reading({**settings, "time": time})
            assert reading.teaching == view.state["prompt_tokens"], (settings, time)
            assert f"; {reading.teaching:,} prompt tokens, " in view.status, (settings, time)


def test_a_summary_by_the_agents_model_and_the_attached_file_are_said_to_have_no_text_and_are_not_counted():
    settings = params(time=10)
    seen = PANEL.view(settings).state["seen"]
    reading = PANEL.reading(settings)
    summary = next(entry for entry in seen if entry["kind"] == "summary")
    assert summary["by"] == "model" and len(reading.texts) == len(seen) - 1
    assert reading.what == f"the {len(seen) - 1} raw events the model sees at request 10 of 24"
    assert f" The attached {ATTACHMENT.name} weighs {ATTACHMENT.tokens:,} teaching tokens but has no text" in reading.untexted
    assert (
        f" The summary {summary['id']} by the agent's model weighs {summary['tokens']:,} teaching tokens but has no text"
        in reading.untexted
    )
    assert "A tool's answer is counted by its gist" in reading.untexted


def test_a_rule_based_summary_is_counted_and_named_beside_the_raw_events():
    settings = params(summarizer="terse", time=10)
    reading = PANEL.reading(settings)
    raw = sum(entry["kind"] != "summary" for entry in PANEL.view(settings).state["seen"])
    assert reading.what == f"the 1 summary and {raw} raw events the model sees at request 10 of 24"
    assert "The summary" not in reading.untexted


def test_before_the_first_request_the_model_has_read_nothing():
    reading = PANEL.reading(params(time=0))
    assert (reading.texts, reading.teaching, reading.untexted) == ((), 0, "")
    assert reading.what == "the words sent to the model before its first request (none yet)"


def test_a_refused_setting_is_refused_in_the_words_of_its_view():
    refused = params(set_overlap=True, set_after_invocations=False, time=3)
    view = PANEL.view(refused)
    with pytest.raises(Refusal) as raised:
        PANEL.reading(refused)
    assert str(raised.value) == view.refusal
    reply = counted(refused)
    assert reply == {"ok": False, "error": view.refusal}


def test_the_worker_counts_each_text_of_the_reading_in_real_tokens():
    for settings in SETTINGS:
        for time in (1, 12, 24):
            reply = counted({**settings, "time": time})
            texts = PANEL.reading({**settings, "time": time}).texts
            assert reply["ok"] and reply["tokens"] == sum(tokens.count(text) for text in texts)


def test_the_first_request_reads_rosas_first_message_at_the_thirty_two_real_tokens_the_page_gives_it():
    reply = counted(params(time=1))
    assert reply["what"] == "the one raw event the model sees at request 1 of 24"
    assert reply["tokens"] == 32
    assert reply["teaching"] == EVENTS["u1"].tokens + ATTACHMENT.tokens
