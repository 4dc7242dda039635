"""The working memory panel: the lesson's words on every control, each stage read from the engine,
and every bad setting refused at the panel's one validation point."""

from __future__ import annotations

import json
import re

import pytest

from lessonkit.checks import Refused
from lessonkit.lessons import working_memory as retrieval
from lessonkit.lessons.working_memory.panel import INSPECTION_SECONDS, STAGE_SECONDS
from lessonkit.panel import render
from lessonkit.registry import panel
from lessonkit.runtime import answer

PANEL = panel("working-memory")
FINAL = INSPECTION_SECONDS
# The lesson's walk-through: the timeout question, Team A, working context, 168 hours, recency zero, three records.
TIMEOUT = {"question": "timeout", "tenant": "team-a", "store": "working", "max_age_hours": 168, "recency_weight": 0, "max_records": 3}


def params(**changes):
    return {**PANEL.defaults(), **changes}


def view(time=FINAL, **changes):
    return PANEL.view(params(time=time, **changes))


def rows(html: str) -> dict[str, list[str]]:
    """The record table's cells by record ID, as text."""
    body = html.split('aria-label="Inspect every record"', 1)[1].split("</tbody>", 1)[0]
    found = {}
    for row in re.findall(r'<tr data-id="(M\d+)"[^>]*>(.*?)</tr>', body, re.DOTALL):
        found[row[0]] = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row[1], re.DOTALL)]
    return found


def tray_ids(html: str) -> list[str]:
    region = html.split('aria-label="Selected context"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<li data-id="(M\d+)"', region)


# --- the spec carries the lesson's words ------------------------------------------------------------


def test_the_spec_names_every_control_as_the_lesson_words_it():
    spec = PANEL.spec()
    assert [(c["kind"], c["label"]) for c in spec["controls"]] == [
        ("choice", "Question"),
        ("choice", "Active tenant"),
        ("choice", "Memory store"),
        ("toggle", "Include previous sessions"),
        ("toggle", "Keep latest fact per key"),
        ("number", "Maximum age"),
        ("range", "Recency weight"),
        ("range", "Context word budget"),
        ("number", "Maximum retrieved records"),
    ]
    options = {c["label"]: [o["label"] for o in c.get("options", [])] for c in spec["controls"]}
    assert options["Question"] == [question.text for question in retrieval.lesson().questions]
    assert options["Active tenant"] == ["Team A", "Team B"]
    assert options["Memory store"] == ["Semantic facts", "Episodic events", "Procedural steps", "Working context", "All stores"]
    quantities = {c["label"]: (c["minimum"], c["maximum"], c["unit"]) for c in spec["controls"] if c["kind"] in ("number", "range")}
    assert quantities == {
        "Maximum age": (0, 720, "hours"),
        "Recency weight": (0, 1, ""),
        "Context word budget": (0, 120, "words"),
        "Maximum retrieved records": (1, 10, ""),
    }


def test_each_question_option_is_the_exact_text_that_is_ranked():
    question = next(c for c in PANEL.controls if c.label == "Question")
    for option in question.options:
        asked = retrieval.lesson().question(option.value)
        assert option.label == asked.text
        assert retrieval.tokenize(option.label) == list(asked.terms)


def test_the_defaults_are_the_engine_defaults_at_the_first_stage():
    assert params() == {**retrieval.DEFAULTS, "time": 0}


def test_playback_has_four_named_stages_ten_seconds_apart_over_thirty_seconds():
    spec = PANEL.spec()
    timeline, playback = spec["timeline"], spec["playback"]
    assert (timeline["end"], STAGE_SECONDS, timeline["label"]) == (30, 10, "Inspection time")
    assert [(m["at"], m["name"], m["tick"]) for m in timeline["marks"]] == [
        (0, "Stage 1 of 4: stored records", "Stored records"),
        (10, "Stage 2 of 4: scope filters", "Scope filters"),
        (20, "Stage 3 of 4: ranking", "Ranking"),
        (30, "Stage 4 of 4: final context", "Final context"),
    ]
    words = {key: playback[key] for key in ("play", "pause", "resume", "replay", "next", "restart", "speed")}
    assert words == {
        "play": "Play",
        "pause": "Pause",
        "resume": "Play",
        "replay": "Play",
        "next": "Next stage",
        "restart": "Restart inspection",
        "speed": "Speed",
    }
    assert [(s["value"], s["label"]) for s in playback["speeds"]] == [(0.25, "Quarter"), (0.5, "Half"), (1, "Normal"), (2, "Double")]
    assert playback["default_speed"] == 1 and playback["play_on_change"] is True


def test_the_reader_tools_are_worded_for_this_lesson():
    words = PANEL.spec()["words"]
    assert (words["export"], words["export_file"]) == ("Export retrieval JSON", "working-memory-retrieval.json")
    assert (words["capture"], words["replace"], words["clear"]) == ("Capture baseline", "Replace baseline", "Clear baseline")
    assert (words["notes"], words["export_notes"], words["expand"], words["exit_expanded"]) == (
        "Notes",
        "Export notes",
        "Expand experiment",
        "Exit full screen",
    )


# --- each stage, in words -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("time", "status"),
    [
        (0, "Stage 1 of 4: stored records. All 10 records are stored; this retrieval writes, merges and deletes none of them."),
        (9.5, "Stage 1 of 4: stored records. All 10 records are stored; this retrieval writes, merges and deletes none of them."),
        (10, "Stage 2 of 4: scope filters. 2 of 10 records pass the scope filters for Team A in working context: M5, M10."),
        (20, "Stage 3 of 4: ranking. Ranked by blended score: M5 (0.226). No shared term: M10."),
        (30, "Stage 4 of 4: final context. Selected: M5, using 9 of 9 words and 1 of at most 3 records. Supporting-fact coverage: 0 of 1."),
    ],
)
def test_the_status_states_the_stage_and_its_result_in_words(time, status):
    assert view(time, **TIMEOUT, word_budget=9).status == status


def test_at_budget_eight_the_tray_is_empty_and_both_working_records_stay_in_the_table():
    shown = view(**TIMEOUT, word_budget=8)
    assert shown.status == (
        "Stage 4 of 4: final context. The selected context is empty. Skipped: M5 (9 words, 8 left). Supporting-fact coverage: 0 of 1."
    )
    table = rows(shown.html)
    assert list(table) == [f"M{n}" for n in range(1, 11)]
    assert table["M5"][4] == "Skipped: 9 words, 8 left"
    assert table["M10"][4] == "Excluded: shares no term with the question"
    assert tray_ids(shown.html) == []
    assert "The selected context is empty" in shown.html


def test_the_tray_fills_only_at_the_final_stage_and_shows_coverage_as_n_of_m():
    for time in (0, 10, 20):
        shown = view(time, question="deployment-region", store="semantic")
        assert tray_ids(shown.html) == []
        assert "The tray fills at stage 4 of 4: final context." in shown.html
        assert "Supporting-fact coverage" not in shown.html.split('aria-label="Selected context"')[1]
    final = view(question="deployment-region", store="semantic")
    expected = retrieval.retrieve("deployment-region", store="semantic")
    assert tray_ids(final.html) == list(expected.tray.ids) == ["M2", "M8"]
    assert "<dt>Supporting-fact coverage</dt><dd>1 of 1</dd>" in final.html


def test_the_table_reveals_outcomes_and_scores_stage_by_stage():
    at = {time: rows(view(time, **TIMEOUT, word_budget=9).html) for time in (0, 10, 20, 30)}
    assert at[0]["M5"][2:] == ["—", "—", "Stored"]
    assert at[10]["M5"][2:] == ["—", "—", "In scope"]
    assert at[10]["M4"][4] == "Excluded: is in another memory store"
    assert at[10]["M10"][4] == "In scope"  # a missing shared term is a ranking reason, not a scope filter
    assert at[20]["M5"][2:] == ["0.226", "0.226", "Ranked 1"]
    assert at[20]["M10"][2:] == ["0.000", "0.000", "Excluded: shares no term with the question"]
    assert at[30]["M5"][4] == "Selected"
    assert at[30]["M4"][2] == f"{retrieval.retrieve('timeout', word_budget=9).candidate('M4').cosine:.3f}"


def test_another_tenants_record_shows_and_exports_no_score():
    shown = view(question="deployment-region", store="semantic")
    table = rows(shown.html)
    assert table["M9"][2:] == ["—", "—", "Excluded: belongs to the other tenant"]
    exported = {record["id"]: record for record in shown.export["records"]}
    assert exported["M9"]["cosine"] is None and exported["M9"]["score"] is None and exported["M9"]["shared_terms"] is None
    assert exported["M2"]["cosine"] == retrieval.retrieve("deployment-region", store="semantic").candidate("M2").cosine


def test_the_export_holds_exact_values_and_the_inspection_apart():
    shown = view(20, **TIMEOUT, word_budget=9)
    export = shown.export
    run = retrieval.retrieve(**TIMEOUT, word_budget=9)
    assert export["settings"] == {**TIMEOUT, "include_previous": True, "keep_latest": True, "word_budget": 9}
    assert [record["id"] for record in export["records"]] == [f"M{n}" for n in range(1, 11)]
    m5 = export["records"][4]
    assert (m5["cosine"], m5["score"], m5["outcome"], m5["rank"]) == (run.candidate("M5").cosine, run.candidate("M5").score, "selected", 1)
    assert export["selected"] == ["M5"] and export["coverage"] == {"text": "0 of 1", "found": [], "declared": ["M4"]}
    assert export["inspection"] == {"time_s": 20, "stage": 3, "stage_name": "ranking", "holds": ["M5"], "tray": None, "coverage": None}
    json.dumps(export)  # the shell downloads it as JSON


def test_the_baseline_text_is_the_result_whatever_the_stage_and_its_selection_shows_in_the_tray():
    early, final = view(0, **TIMEOUT, word_budget=9), view(30, **TIMEOUT, word_budget=9)
    assert early.baseline == final.baseline == "Timeout incident, Team A, Working context, 9 words: selected M5; coverage 0 of 1"
    compared = PANEL.view(params(time=30, **TIMEOUT, word_budget=8), params(time=30, **TIMEOUT, word_budget=9))
    assert "<dt>Baseline selected</dt><dd>M5</dd>" in compared.html


def test_the_cards_and_the_diagram_scroll_sideways_from_the_keyboard_and_the_diagram_has_a_text_alternative():
    html = view(**TIMEOUT, word_budget=9).html
    assert '<div class="lk-wm-cards" role="region" aria-label="Memory cards" tabindex="0">' in html
    assert len(re.findall(r'<li class="lk-wm-card[ "]', html)) == 10
    assert 'tabindex="0" role="region" aria-label="Records through the four stages"' in html
    assert 'role="img" aria-labelledby="lk-wm-diagram-title lk-wm-diagram-desc"' in html
    description = re.search(r'<desc id="lk-wm-diagram-desc">(.*?)</desc>', html).group(1)
    assert "Leaving at ranking: M10 (no shared term)." in description and description.endswith("Selected: M5.")


def test_the_static_render_reads_without_javascript():
    page = render(PANEL)
    assert 'role="status"' in page and 'aria-label="Experiment: Working memory"' in page
    assert "Stage 1 of 4: stored records." in page


# --- bad settings are refused where every setting is checked -----------------------------------------


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"word_budget": 121}, "parameter 'word_budget' is 121; allowed: 0 to 120 words, whole numbers"),
        ({"word_budget": 8.5}, "parameter 'word_budget' is 8.5; allowed: 0 to 120 words, whole numbers"),
        ({"max_records": 0}, "parameter 'max_records' is 0; allowed: 1 to 10, whole numbers"),
        ({"max_age_hours": -1}, "parameter 'max_age_hours' is -1; allowed: 0 to 720 hours, whole numbers"),
        ({"recency_weight": 1.5}, "parameter 'recency_weight' is 1.5; allowed: 0 to 1, in steps of 0.05"),
        ({"recency_weight": 0.33}, "parameter 'recency_weight' is 0.33; allowed: 0 to 1, in steps of 0.05"),
        ({"recency_weight": True}, "parameter 'recency_weight' is true; allowed: 0 to 1, in steps of 0.05"),
        ({"tenant": "team-c"}, 'parameter \'tenant\' is "team-c"; allowed: "team-a", "team-b"'),
        ({"store": "archive"}, 'parameter \'store\' is "archive"; allowed: "semantic", "episodic", "procedural", "working", "all"'),
        ({"question": "Timeout incident"}, 'parameter \'question\' is "Timeout incident"; allowed: "timeout"'),
        ({"include_previous": "yes"}, "parameter 'include_previous' is \"yes\"; allowed: true, false"),
        ({"time": 31}, "parameter 'time' is 31; allowed: 0 to 30 seconds"),
        ({"prediction": "M5"}, "parameter 'prediction' is not one of this experiment's"),
    ],
)
def test_bad_parameters_are_refused_naming_what_is_allowed(changes, error):
    with pytest.raises(ValueError, match=re.escape(error)):
        PANEL.check(params(**changes))


def test_a_missing_parameter_is_refused():
    incomplete = params()
    del incomplete["keep_latest"]
    with pytest.raises(Refused, match=re.escape("parameter 'keep_latest' is missing; allowed: true, false")):
        PANEL.check(incomplete)


def test_the_worker_answers_a_view_and_reports_a_refusal():
    reply = json.loads(answer(json.dumps({"lesson": "working-memory", "params": params(time=30, word_budget=9)})))
    assert reply["ok"] and reply["view"]["status"].startswith("Stage 4 of 4: final context. Selected: M5")
    refused = json.loads(answer(json.dumps({"lesson": "working-memory", "params": params(max_records=11)})))
    assert not refused["ok"] and "parameter 'max_records' is 11" in refused["error"]


def test_a_change_that_moves_a_few_records_draws_only_those_records_again():
    from lessonkit.lessons.working_memory.panel import _drawn_card, _drawn_flow

    memory = panel("working-memory")
    final = {**memory.defaults(), "time": max(mark.at for mark in memory.timeline.marks)}
    memory.view(final)
    _drawn_card.cache_clear()
    _drawn_flow.cache_clear()
    first = memory.view(final).html
    drawn = _drawn_card.cache_info().misses
    assert drawn == len(retrieval.lesson().records), "each record's card is drawn once"
    memory.view({**final, "word_budget": final["word_budget"] + 1})
    assert _drawn_card.cache_info().misses - drawn < drawn, "a one-word change of budget redrew every card"
    _drawn_card.cache_clear()
    _drawn_flow.cache_clear()
    assert memory.view(final).html == first, "a record drawn before is drawn the same as afresh"


def test_a_change_that_only_rescores_the_records_draws_no_card_or_diagram_row_again():
    from lessonkit.lessons.working_memory.panel import _drawn_card, _drawn_flow, _retrieval, _table_row

    memory = panel("working-memory")
    final = {**memory.defaults(), "time": max(mark.at for mark in memory.timeline.marks)}
    rescored = {**final, "recency_weight": 0.5}
    ended = [(c.outcome, c.reason, c.rank, c.room) for c in _retrieval(final).candidates]
    assert ended == [(c.outcome, c.reason, c.rank, c.room) for c in _retrieval(rescored).candidates]
    assert [c.score for c in _retrieval(final).candidates] != [c.score for c in _retrieval(rescored).candidates]
    memory.view(final)
    cards, rows, table = _drawn_card.cache_info().misses, _drawn_flow.cache_info().misses, _table_row.cache_info().misses

    view = memory.view(rescored)

    assert (_drawn_card.cache_info().misses, _drawn_flow.cache_info().misses) == (cards, rows)
    assert _table_row.cache_info().misses > table, "the table shows the new scores, so its rows are drawn again"
    assert f"{_retrieval(rescored).candidates[1].score:.3f}" in view.html
