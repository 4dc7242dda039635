"""The compaction panel: fields named as the setting names them, refusals in the setting's own words, views from the engine.

And its page: the source's Terse shown there is the one the ADK tests run, and every difference
from ADK the engine documents is named.
"""

import json
import re
from pathlib import Path

import pytest

from lessonkit.authoring.samples import find_samples
from lessonkit.lessons.context_compaction import (
    ADK_DIFFERENCES,
    NO_TRIGGER_REFUSAL,
    Compaction,
    Manifest,
    Moment,
    Refusal,
    lesson,
    simulate,
)
from lessonkit.lessons.context_compaction import panel as compaction_panel
from lessonkit.lessons.context_compaction.panel import after_request, outcome, replay, seen_row, written
from lessonkit.panel import render
from lessonkit.registry import panel
from lessonkit.runtime import answer

PANEL = panel("context-compaction")
ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "lessons" / "context-compaction.md"
BY_SIZE, BY_TURNS, BOTH = (lesson().presets[name] for name in ("by-size", "by-turns", "both"))
FIELDS = ("after_tokens", "keep_recent_events", "after_invocations", "overlap")


def params(**changes):
    return {**PANEL.defaults(), **changes}


def turns_only(**changes):
    return params(
        **{"set_after_tokens": False, "set_keep_recent_events": False, "set_after_invocations": True, "set_overlap": True, **changes}
    )


def refusal_of(call) -> str:
    with pytest.raises(Refusal) as refused:
        call()
    return str(refused.value)


# The controls


def test_each_field_is_a_checkbox_and_a_number_both_named_by_the_field():
    spec = PANEL.spec()
    named = [(control["kind"], control["label"]) for control in spec["controls"]]
    assert named == [
        *[(kind, field) for field in FIELDS for kind in ("toggle", "number")],
        ("choice", "Summarizer"),
        ("choice", "Manifest"),
    ]
    toggles = [control for control in spec["controls"] if control["kind"] == "toggle"]
    assert [tuple(control["enables"]) for control in toggles] == [(field,) for field in FIELDS]


def test_the_choices_are_the_agents_model_or_the_rule_based_one_and_an_agent_or_a_workflow():
    choices = {
        control["label"]: [o["label"] for o in control["options"]] for control in PANEL.spec()["controls"] if control["kind"] == "choice"
    }
    assert choices == {"Summarizer": ["The agent's model", "Rule-based (Terse)"], "Manifest": ["Agent", "Workflow"]}


def test_the_panel_opens_on_the_fixtures_size_setting_with_the_turn_pair_left_out():
    defaults = PANEL.defaults()
    assert {field: (defaults[f"set_{field}"], defaults[field]) for field in FIELDS} == {
        "after_tokens": (True, BY_SIZE.after_tokens),
        "keep_recent_events": (True, BY_SIZE.keep_recent_events),
        "after_invocations": (False, BY_TURNS.after_invocations),
        "overlap": (False, BY_TURNS.overlap),
    }
    assert (defaults["summarizer"], defaults["manifest"], defaults["time"]) == ("model", "agent", 0)
    assert (
        written(defaults)
        == 'Manifest("agent", "lessonkit.lessons.context_compaction", compaction=Compaction(after_tokens=3000, keep_recent_events=6))'
    )


def test_the_timeline_has_one_named_mark_per_model_request():
    timeline = PANEL.spec()["timeline"]
    run = simulate(BY_SIZE)
    assert timeline["end"] == len(run.requests) == 24
    assert [mark["at"] for mark in timeline["marks"]] == [request.number for request in run.requests]
    assert [mark["name"] for mark in timeline["marks"]][8:10] == ["Request 9 of 24, turn 5", "Request 10 of 24, turn 5"]
    assert timeline["start"] == "before the first model request"


# Views of a setting that stands


def test_the_status_at_a_request_says_what_the_model_sees_what_it_costs_and_what_was_just_written():
    status = PANEL.view(params(time=10)).status
    assert status == (
        "Request 10 of 24, turn 5: the model sees 1 summary and 6 raw events, with statement-march.pdf attached; "
        "2,369 prompt tokens, 3,556 without compaction. Written just before it: S1 of u1–r4. "
        "Whole session: 3 summarizer calls; 61,699 tokens sent with compaction, 94,060 without."
    )
    assert PANEL.view(params()).status == (
        "Before the first model request. Whole session: 3 summarizer calls; 61,699 tokens sent with compaction, 94,060 without."
    )


def test_what_the_model_sees_is_listed_at_the_selected_request_with_the_attached_file():
    run = simulate(BY_SIZE, "model")
    for number in (1, 10, 16, 24):
        html = PANEL.view(params(time=number)).html
        listed = re.findall(r'<li class="lk-seen[^"]*" data-id="([^"]+)"', html)
        assert listed == [*run.request(number).seen_ids, "statement-march.pdf"]
        assert f"What the model sees at request {number}" in html


def test_the_counters_are_the_runs_summarizer_calls_and_tokens_sent_with_and_without_compaction():
    for summarizer in ("model", "terse"):
        run = simulate(BY_SIZE, summarizer)
        export = PANEL.view(params(summarizer=summarizer)).export
        assert export["totals"] == {
            "summarizer_calls": run.summarizer_calls,
            "summarizer_read_tokens": run.summarizer_tokens,
            "tokens_sent": run.tokens_sent,
            "tokens_without_compaction": run.tokens_without,
        }
    html = PANEL.view(params()).html
    assert "<dt>Summarizer calls</dt><dd>3</dd>" in html and "<dt>Tokens sent without compaction</dt><dd>94,060</dd>" in html


def test_the_chart_draws_the_threshold_each_summary_between_its_requests_and_the_uncompacted_session():
    html = PANEL.view(params(time=10)).html
    assert "after_tokens 3,000" in html
    markers = re.findall(r'<g class="lk-marker"><line x1="[^"]+"[^>]*/><text[^>]*>(S\d)</text>', html)
    assert markers == ["S1", "S2", "S3"]
    assert ">With compaction</text>" in html and ">Without compaction</text>" in html
    assert '<g class="lk-rule">' in html and '<g class="lk-rule">' not in PANEL.view(turns_only()).html


def test_each_summary_is_marked_after_the_last_request_before_it():
    run = simulate(BOTH, "model")
    placed = [(d.summary.id, str(d.moment), after_request(run, d)) for d in run.decisions if d.summary]
    assert placed == [("S1", "after turn 4", 8), ("S2", "after turn 7", 15), ("S3", "after turn 9", 18), ("S4", "after turn 12", 24)]
    size = simulate(BY_SIZE, "model")
    assert after_request(size, size.request(10).decision) == 9
    # A moment is a value the panel reads, not words it parses: one that is neither is refused where it is made.
    with pytest.raises(ValueError, match="a moment's when is 'during turn'; allowed: 'before request', 'after turn'"):
        Moment("during turn", 3)


def test_a_captured_baseline_is_drawn_beside_the_current_run_unless_it_was_refused():
    with_baseline = PANEL.view(params(), params(summarizer="terse")).html
    assert ">Baseline</text>" in with_baseline and "the captured baseline" in with_baseline
    refused_baseline = PANEL.view(params(), params(set_overlap=True)).html
    assert ">Baseline</text>" not in refused_baseline


def test_the_rule_based_summarizer_is_named_by_its_path_and_resolved_when_the_pod_starts():
    view = PANEL.view(params(summarizer="terse", time=16))
    assert view.export["written"].endswith("summarizer='.summarizers.terse'))")
    assert view.export["summarizer"] == "terse"
    assert view.state["seen"][0] == {
        **view.state["seen"][0],
        "id": "S2",
        "by": "terse",
        "keeps": ["S1", "a3", "u4", "a4", "u5", "a5", "u6"],
    }
    # The rule-based summary's own lines, the earlier summary's carried inside it.
    lines = re.findall(r"<li>((?:user|support_bot): [^<]*)</li>", view.html)
    assert [line.split(":")[0] for line in lines] == ["user", "support_bot"] * 2 + ["user"] + ["support_bot", "user"] * 3
    assert lines[0].startswith("user: Hi, I was charged twice")


def test_the_turn_trigger_with_overlap_re_includes_the_turn_before_each_span():
    export = PANEL.view(turns_only()).export
    assert [(s["id"], s["covers"][0], s["covers"][-1]) for s in export["summaries"]] == [
        ("S1", "u1", "a4"),
        ("S2", "u4", "a8"),
        ("S3", "u8", "a12"),
    ]
    assert [entry["id"] for entry in export["requests"][17]["seen"]] == ["S1", "S2", "u9"]


def test_overlap_zero_is_a_setting_and_an_omitted_overlap_is_half_a_pair():
    zero = PANEL.view(turns_only(overlap=0))
    assert zero.refusal is None
    assert [(s["covers"][0], s["covers"][-1]) for s in zero.export["summaries"]] == [("u1", "a4"), ("u5", "a8"), ("u9", "a12")]
    omitted = PANEL.view(turns_only(set_overlap=False, overlap=0))
    assert omitted.refusal == refusal_of(lambda: Compaction(after_invocations=4))


def test_the_export_holds_every_request_and_check_and_keeps_the_inspection_apart():
    run = simulate(BY_SIZE, "model")
    export = PANEL.view(params(time=16)).export
    assert [r["request"] for r in export["requests"]] == list(range(1, 25))
    assert len(export["checks"]) == len(run.decisions)
    assert export["inspection"] == {"time_s": 16, "request": 16}
    assert export["requests"][15]["written_just_before"] == ["S2"]
    assert all("inspection" not in r for r in export["requests"])


def test_a_run_is_computed_once_per_setting():
    replay.cache_clear()
    outcome.cache_clear()
    for time in range(25):
        PANEL.view(params(time=time))
    assert outcome.cache_info().misses == 1


def test_every_timeline_position_of_a_setting_shares_one_replay_and_its_record_of_the_whole_run():
    replay.cache_clear()
    views = [PANEL.view(params(time=time)) for time in range(25)]
    assert replay.cache_info().misses == 1
    first = views[0].export
    for view in views[1:]:
        assert view.export["requests"] is first["requests"] and view.export["checks"] is first["checks"]
        assert view.export["summaries"] is first["summaries"]
    assert views[16].state is first["requests"][15]
    # A baseline changes the chart, not the replay of the setting being inspected.
    PANEL.view(params(time=3), params(summarizer="terse"))
    assert replay.cache_info().misses == 1


def test_each_check_is_placed_among_the_requests_once_per_setting_not_once_per_request_and_view(monkeypatch):
    placed = []

    def placing(run, decision):
        placed.append(decision)
        return after_request(run, decision)

    monkeypatch.setattr(compaction_panel, "after_request", placing)
    replay.cache_clear()
    for time in range(25):
        PANEL.view(params(time=time))
    assert len(placed) == len(simulate(BY_SIZE, "model").decisions)


def test_each_entry_the_model_sees_is_drawn_once_per_setting_however_many_requests_see_it(monkeypatch):
    drawn = []

    def drawing(entry, by_id):
        drawn.append(entry.id)
        return seen_row(entry, by_id)

    monkeypatch.setattr(compaction_panel, "seen_row", drawing)
    replay.cache_clear()
    views = [PANEL.view(params(time=time)) for time in range(25)]
    seen = {entry.id for request in simulate(BY_SIZE, "model").requests for entry in request.seen}
    assert sorted(drawn) == sorted(seen)
    # Drawn once, shown alike: an entry two requests both see has the same row in both.
    rows = [
        {entry: row for row, entry in re.findall(r'(<li class="lk-seen lk-kind-[^"]*" data-id="([^"]*)">.*?</li>)', view.html, re.S)}
        for view in views
    ]
    shared = [(rows[t - 1], rows[t]) for t in range(2, 25) if rows[t - 1].keys() & rows[t].keys()]
    assert shared
    for before, now in shared:
        assert all(before[entry] == now[entry] for entry in before.keys() & now.keys())


# Refusals, in the setting's own words


@pytest.mark.parametrize(
    ("changes", "raised"),
    [
        ({"set_keep_recent_events": False}, lambda: Compaction(after_tokens=3000)),
        ({"set_after_tokens": False}, lambda: Compaction(keep_recent_events=6)),
        ({"set_after_invocations": True}, lambda: Compaction(after_tokens=3000, keep_recent_events=6, after_invocations=4)),
        ({"after_tokens": 0}, lambda: Compaction(after_tokens=0, keep_recent_events=6)),
        ({"set_after_tokens": False, "set_keep_recent_events": False}, lambda: Compaction()),
        (
            {"manifest": "workflow"},
            lambda: Manifest(
                "workflow", "lessonkit.lessons.context_compaction", compaction=Compaction(after_tokens=3000, keep_recent_events=6)
            ),
        ),
    ],
)
def test_a_refused_setting_shows_the_refusal_in_the_exact_words_it_raises(changes, raised):
    view = PANEL.view(params(**changes))
    assert view.refusal == refusal_of(raised)
    assert view.status.startswith("The setting is refused when the manifest is built (field ")
    assert view.status.endswith("so what the model would see is nothing new: a refused setting never runs.")
    assert view.state["refusal"]["message"] == view.refusal
    assert "Nothing to replay" in view.html and ">With compaction</text>" not in view.html


def test_half_a_pair_names_the_field_written_and_a_workflow_refuses_the_field_itself():
    half = PANEL.view(params(set_keep_recent_events=False))
    assert half.refusal.startswith("Compaction sets `after_tokens` alone.\n`after_tokens` and `keep_recent_events` go together")
    assert "(field after_tokens)" in half.status
    workflow = PANEL.view(params(manifest="workflow"))
    assert workflow.refusal.startswith("unknown field `compaction`: a WorkflowManifest has no field `compaction`.")
    assert PANEL.view(params(set_after_tokens=False, set_keep_recent_events=False)).refusal == NO_TRIGGER_REFUSAL


def test_a_number_the_setting_refuses_is_still_a_value_the_panel_passes_to_it():
    # The number input takes 0 for every field, so the setting's own rule, not the input, refuses after_tokens=0.
    assert PANEL.view(params(after_tokens=0)).refusal.startswith("after_tokens is 0; allowed: a whole number greater than 0")
    reply = json.loads(answer(json.dumps({"lesson": "context-compaction", "params": params(after_tokens=-1)})))
    assert not reply["ok"] and "parameter 'after_tokens' is -1; allowed: 0 to 100000 tokens, whole numbers" in reply["error"]


# The page as built and as the worker answers it


def test_the_static_render_holds_the_starting_status_and_an_empty_alert_region():
    page = render(PANEL)
    assert 'role="status"' in page and "Before the first model request." in page
    assert '<p class="lk-refusal" role="alert" hidden></p>' in page
    assert 'data-stylesheet="lessons/context-compaction.css"' in page


def test_the_worker_answers_a_refused_setting_as_a_view_not_an_error():
    reply = json.loads(answer(json.dumps({"lesson": "context-compaction", "params": params(manifest="workflow", time=5)})))
    assert reply["ok"] and reply["view"]["refusal"].startswith("unknown field `compaction`")


# The page


def test_the_pages_terse_is_the_source_file_the_adk_tests_run_and_offers_no_editor():
    source = Path(__file__).with_name("terse_summarizer.py").read_text(encoding="utf-8")
    code_of_the_source = source[source.index("# agents/support_bot/summarizers.py") :]
    shown = [sample for sample in find_samples(PAGE.read_text(encoding="utf-8")) if sample.code == code_of_the_source]
    assert len(shown) == 1 and shown[0].shows_source and not shown[0].editable


def test_the_page_names_every_difference_from_adk_the_engine_documents():
    text = PAGE.read_text(encoding="utf-8")
    assert "for name, difference in ADK_DIFFERENCES.items():" in text
    for name in ADK_DIFFERENCES:
        assert f"(`{name}`)" in text, name


def test_the_page_says_which_samples_run_at_build_time_only():
    text = PAGE.read_text(encoding="utf-8")
    build_only = [sample for sample in find_samples(text) if sample.shows_source and not sample.editable]
    assert [sample.session for sample in build_only] == ["adk-terse", "adk-terse"]
    assert "run when the site is built and in the tests, against the real\ngoogle-adk" in text
