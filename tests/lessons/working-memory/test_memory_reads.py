"""What the working memory panel's model is given, for a count in real tokens: the records of the
selected context, as its tray lists them, weighed in the words the tray uses."""

import json
import re

from lessonkit import tokens
from lessonkit.lessons import working_memory as retrieval
from lessonkit.lessons.working_memory.panel import INSPECTION_SECONDS, STAGE_SECONDS
from lessonkit.registry import panel
from lessonkit.runtime import count

PANEL = panel("working-memory")
FINAL = INSPECTION_SECONDS
STAGES = range(0, INSPECTION_SECONDS + 1, STAGE_SECONDS)
# Settings whose trays differ: the defaults, the walk-through's, another tenant's empty one, and a wide one.
SETTINGS = (
    {},
    {"question": "timeout", "tenant": "team-a", "store": "working", "max_age_hours": 168, "recency_weight": 0, "max_records": 3},
    {"tenant": "team-b"},
    {"question": "timeout", "store": "all", "max_age_hours": 720, "word_budget": 120, "max_records": 10},
    {"question": "deployment-region", "store": "all", "max_age_hours": 720, "recency_weight": 0.5},
)


def params(**changes):
    return {**PANEL.defaults(), **changes}


def tray_ids(view_html: str) -> list[str]:
    """The records the view's selected context lists, in its order."""
    region = view_html.split('aria-label="Selected context"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<li data-id="(M\d+)"', region)


def counted(settings) -> dict:
    return json.loads(count(json.dumps({"lesson": PANEL.lesson, "params": settings, "encoding": "o200k_base"})))


def test_at_the_final_stage_the_reading_is_the_text_of_each_record_the_tray_lists_in_its_order():
    seen_empty = seen_several = False
    for changes in SETTINGS:
        settings = params(time=FINAL, **changes)
        listed = tray_ids(PANEL.view(settings).html)
        assert PANEL.reading(settings).texts == tuple(retrieval.lesson().record(record).text for record in listed), changes
        seen_empty, seen_several = seen_empty or not listed, seen_several or len(listed) > 1
    assert seen_empty and seen_several  # the settings reach both an empty tray and one of several records


def test_the_teaching_figure_is_the_words_the_status_says_the_tray_uses():
    for changes in SETTINGS:
        settings = params(time=FINAL, **changes)
        view, reading = PANEL.view(settings), PANEL.reading(settings)
        assert reading.unit == "words" and reading.untexted == ""
        assert reading.teaching == view.export["words_used"], changes
        if view.state["tray"]:
            assert f"using {reading.teaching} of " in view.status, changes


def test_before_the_final_stage_the_reading_is_the_same_tray_and_says_where_it_is_shown():
    for changes in SETTINGS:
        final = PANEL.reading(params(time=FINAL, **changes))
        assert "(shown at stage" not in final.what
        for time in STAGES[:-1]:
            earlier = PANEL.reading(params(time=time, **changes))
            assert (earlier.texts, earlier.teaching) == (final.texts, final.teaching), (changes, time)
            assert earlier.teaching == PANEL.view(params(time=time, **changes)).export["words_used"]
            assert earlier.what == final.what + " (shown at stage 4 of 4)", (changes, time)


def test_what_it_names_counts_the_records_with_one_or_none_named_by_their_words():
    wide = params(time=FINAL, **SETTINGS[3])
    assert PANEL.reading(wide).what == f"the {len(PANEL.view(wide).state['tray'])} records of the selected context"
    assert PANEL.reading(params(time=FINAL, **SETTINGS[1])).what == "the one record of the selected context"
    assert PANEL.reading(params(time=FINAL, tenant="team-b")).what == "the empty selected context"


def test_the_worker_counts_each_record_of_the_tray_in_real_tokens():
    for changes in SETTINGS:
        settings = params(time=FINAL, **changes)
        reply = counted(settings)
        assert reply["ok"] and reply["unit"] == "words"
        assert reply["tokens"] == sum(tokens.count(text) for text in PANEL.reading(settings).texts)


def test_a_tray_of_m4_alone_is_the_eleven_words_and_fourteen_real_tokens_the_page_gives_it():
    alone = params(time=FINAL, question="timeout", store="episodic", max_age_hours=720)
    assert tray_ids(PANEL.view(alone).html) == ["M4"]
    reply = counted(alone)
    assert (reply["tokens"], reply["teaching"]) == (14, 11)
