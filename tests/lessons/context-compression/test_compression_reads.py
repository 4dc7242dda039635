"""What the compression panel's model reads, for a count in real tokens: the window the timeline
shows, entry by entry as the panel lists it, and weighed as its status weighs it."""

import html
import json
import re

from lessonkit import tokens
from lessonkit.lessons.context_compression import lesson
from lessonkit.registry import panel
from lessonkit.runtime import count

PANEL = panel("context-compression")
ARRIVALS = [0, *(turn.arrives_at for turn in lesson().turns)]


def params(**changes):
    return {**PANEL.defaults(), **changes}


def listed(view_html: str) -> list[str]:
    """The texts of the retained messages, as the view lists them."""
    rows = view_html.split('<ol class="lk-rows">', 1)[1].split("</ol>", 1)[0] if '<ol class="lk-rows">' in view_html else ""
    return [html.unescape(text) for text in re.findall(r'<span class="lk-text">(.*?)</span>', rows, re.DOTALL)]


def counted(settings) -> dict:
    return json.loads(count(json.dumps({"lesson": PANEL.lesson, "params": settings, "encoding": "o200k_base"})))


def test_the_reading_is_every_entry_the_view_lists_in_its_order_at_every_setting_and_arrival():
    for settings in PANEL.every_params():
        view = PANEL.view(settings)
        reading = PANEL.reading(settings)
        assert list(reading.texts) == listed(view.html), settings
        assert len(reading.texts) == len(view.state["window"]), settings


def test_a_retained_turn_is_read_as_the_fixtures_text_and_the_summary_as_the_words_the_panel_gives_it():
    settings = params(budget=24, policy="summarize", fidelity="preserve", time=60)
    window = [entry["id"] for entry in PANEL.view(settings).state["window"]]
    texts = PANEL.reading(settings).texts
    assert window == ["T1", "S", "T8"]
    assert texts[0] == lesson().turn("T1").text and texts[2] == lesson().turn("T8").text
    assert texts[1].startswith("Earlier turns T2, ") and "(source T2)" in texts[1]


def test_the_teaching_figure_is_the_window_total_the_status_and_the_state_give():
    for settings in PANEL.every_params():
        view = PANEL.view(settings)
        reading = PANEL.reading(settings)
        assert reading.teaching == view.state["tokens"], settings
        assert view.status.split(" of ", 1)[0].endswith(str(reading.teaching)), settings
        assert reading.unit == "teaching tokens" and reading.untexted == ""


def test_before_any_message_the_window_is_empty_and_so_is_the_reading():
    reading = PANEL.reading(params(time=0))
    assert reading.texts == () and reading.teaching == 0
    assert reading.what == "the empty window before any message has arrived"
    assert counted(params(time=0))["tokens"] == 0


def test_what_it_names_counts_the_entries_and_says_after_which_arrival():
    assert PANEL.reading(params(budget=24, policy="evict", time=30)).what == "the 3 entries of the window after T4 at 30 s"
    # Between two arrivals the window is the latest one's, as the view shows it.
    assert PANEL.reading(params(budget=24, policy="evict", time=33)).what == "the 3 entries of the window after T4 at 30 s"
    # One entry is named by its words, so that the shell's "are" still agrees.
    assert PANEL.reading(params(time=7.5)).what == "the one entry of the window after T1 at 7.5 s"


def test_the_worker_counts_each_text_of_the_reading_in_real_tokens():
    for time in ARRIVALS:
        for policy in ("evict", "summarize"):
            settings = params(budget=36, policy=policy, time=time)
            reply = counted(settings)
            assert reply["ok"] and reply["tokens"] == sum(tokens.count(text) for text in PANEL.reading(settings).texts)


def test_t2_adds_the_nine_real_tokens_the_page_gives_its_sentence():
    # The page: T2's sentence is nine real tokens. At T2's arrival the window is T1 and T2, at T1's T1 alone.
    at_t1, at_t2 = counted(params(budget=24, time=7.5)), counted(params(budget=24, time=15))
    assert at_t2["tokens"] - at_t1["tokens"] == 9
    assert at_t2["teaching"] - at_t1["teaching"] == lesson().turn("T2").tokens
