"""The compression panel: its spec carries the lesson's wording, its views come from the engine."""

import html
import json
import re
import sys

import pytest

from lessonkit.panel import render
from lessonkit.registry import panel
from lessonkit.runtime import answer, run

PANEL = panel("context-compression")


def params(**changes):
    return {**PANEL.defaults(), **changes}


def test_the_spec_names_every_control_as_the_lesson_words_it():
    spec = PANEL.spec()
    assert [(c["label"], [o["label"] for o in c["options"]]) for c in spec["controls"]] == [
        ("Context budget", ["24", "36", "48", "64"]),
        ("Policy", ["Evict oldest", "Summarize older turns"]),
        ("Fidelity", ["Preserve critical fact", "Drop critical fact"]),
    ]
    assert spec["timeline"]["label"] == "Timeline" and spec["timeline"]["end"] == 60
    assert [mark["at"] for mark in spec["timeline"]["marks"]] == [7.5 * n for n in range(1, 9)]
    assert spec["timeline"]["marks"][3]["name"] == "T4 arrived"
    assert (spec["playback"]["play"], spec["playback"]["pause"]) == ("Play messages", "Pause messages")


def test_the_status_states_tokens_retained_turns_and_both_findings_separately():
    status = PANEL.view(params(time=30)).status
    assert status == (
        "23 of 24 tokens after T4 at 30 s (attempted 30). Retained: T1, T3, T4. "
        "Fact mentioned: yes. User-backed evidence: none. Answer: unsupported."
    )


def test_user_backed_rows_are_marked_with_their_source_turn():
    html = PANEL.view(params(policy="summarize", time=60)).html
    assert 'class="lk-row lk-role-summary lk-evidence" data-id="S"' in html
    assert "user-backed · source T2" in html


def test_the_export_holds_every_arrival_and_labels_the_inspection_position_apart():
    export = PANEL.view(params(time=31)).export
    assert [a["arrival"] for a in export["arrivals"]] == list(range(9))
    assert export["inspection"] == {"time_s": 31, "arrival": 4}
    assert export["arrivals"][4]["retained"] == ["T1", "T3", "T4"]
    assert [turn["id"] for turn in export["turns"]] == [f"T{n}" for n in range(1, 9)]


def test_the_static_render_carries_spec_initial_view_and_a_status_region():
    page = render(PANEL)
    assert 'role="status"' in page and "data-spec=" in page and "data-initial-view=" in page
    assert "No message has arrived yet: 0 of 24 tokens." in page


def test_the_static_render_gives_the_shell_the_starting_view_without_its_export():
    compression = panel("context-compression")
    page = render(compression)
    initial = json.loads(html.unescape(re.search(r'data-initial-view="([^"]*)"', page).group(1)))
    assert initial == json.loads(json.dumps(compression.view(compression.defaults()).to_json(export=False)))
    assert "export" not in initial and initial["status"] == compression.view(compression.defaults()).status


def test_the_worker_call_answers_a_view_as_json():
    reply = json.loads(answer(json.dumps({"lesson": "context-compression", "params": params(time=60, budget=64)})))
    assert reply["ok"] and "58 of 64 tokens" in reply["view"]["status"]


def test_the_worker_call_leaves_the_export_out_when_asked_and_the_rest_is_the_same():
    request_ = {"lesson": "context-compression", "params": params(time=60, budget=64)}
    whole = json.loads(answer(json.dumps(request_)))["view"]
    light = json.loads(answer(json.dumps({**request_, "export": False})))["view"]
    assert "export" in whole and "export" not in light
    assert light == {key: value for key, value in whole.items() if key != "export"}
    assert json.loads(answer(json.dumps({**request_, "export": True})))["view"] == whole


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        (
            {"lesson": "context-compression", "params": params(), "export": "no"},
            "a view request's 'export' is \"no\"; allowed: true, false",
        ),
        ({"lesson": "context-compression", "params": params(budget=30)}, "parameter 'budget' is 30; allowed: 24, 36, 48, 64"),
        ({"lesson": "context-compression", "params": params(time=90)}, "parameter 'time' is 90; allowed: 0 to 60 seconds"),
        (
            {"lesson": "context-compression", "params": {**params(), "speed": 2}},
            "parameter 'speed' is not one of this experiment's; allowed: budget, policy, fidelity, time",
        ),
        (
            {"lesson": "context-compression", "params": params(policy=["evict"])},
            'parameter \'policy\' is ["evict"]; allowed: "evict", "summarize"',
        ),
        (
            {"lesson": "context-compression", "params": {"budget": 24, "policy": "evict", "fidelity": "drop"}},
            "parameter 'time' is missing; allowed: 0 to 60 seconds",
        ),
        (
            {"lesson": "memory", "params": {}},
            "panel is 'memory'; allowed: 'context-compaction', 'context-compression', 'tool-result-clearing', 'working-memory', 'control-kinds'",
        ),
        (
            {"lesson": ["working-memory"], "params": {}},
            "panel is ['working-memory']; allowed: 'context-compaction', 'context-compression', 'tool-result-clearing', 'working-memory'",
        ),
        (
            {"lesson": "context-compression"},
            "a view request is {\"lesson\":\"context-compression\"}; allowed: an object with 'lesson', 'params'",
        ),
    ],
)
def test_the_worker_call_reports_bad_parameters_with_what_is_allowed(request_, error):
    reply = json.loads(answer(json.dumps(request_)))
    assert not reply["ok"] and error in reply["error"]


def test_samples_in_one_session_share_names_and_errors_come_back_as_text():
    assert json.loads(run("shared = 41", "<code block: session s1; n1>", "s1"))["error"] is None
    assert json.loads(run("print(shared + 1)", "<code block: session s1; n2>", "s1"))["output"] == "42\n"
    failed = json.loads(run("print('first')\nprint(shared)", "<code block: n1>"))
    assert failed["output"] == "first\n"
    assert failed["error"].endswith("NameError: name 'shared' is not defined\n")
    assert '"<code block: n1>", line 2, in <module>\n    print(shared)' in failed["error"]


def test_a_sample_run_in_the_page_has_the_name_the_build_gave_its_block():
    ran = json.loads(run("print(__name__)", "<code block: session compression; n3>", "compression"))
    assert ran == {"output": "_code_block_session_compression_n3_\n", "error": None}


def test_samples_of_different_pages_keep_their_sessions_apart_in_one_worker():
    # The worker outlives a page under instant navigation: a session name on one page is not another's.
    assert json.loads(run("seen = 'first page'", "<code block: session s; n1>", "s", page="/a/"))["error"] is None
    assert json.loads(run("print(seen)", "<code block: session s; n2>", "s", page="/a/"))["output"] == "first page\n"
    assert "NameError" in json.loads(run("print(seen)", "<code block: session s; n2>", "s", page="/b/"))["error"]


def test_once_warmed_no_lesson_reads_its_fixture_again_to_answer(monkeypatch):
    # The build warms the engine just before it takes the snapshot a reader's browser restores:
    # every fixture is then in memory, and no first answer pays for reading one.
    from lessonkit import runtime
    from lessonkit.registry import lesson_ids, lesson_package, panel_ids

    # Each lesson's `lesson()` reads its fixture in the module that defines it.
    readers = [sys.modules[lesson_package(lesson).lesson.__module__] for lesson in lesson_ids()]
    for reader in readers:
        reader.lesson.cache_clear()
    runtime.warm()

    def refuse(name):
        raise AssertionError(f"the {name} fixture was read again after warming")

    for reader in readers:
        monkeypatch.setattr(reader, "read_fixture", refuse)
    for lesson in panel_ids():
        params = panel(lesson).defaults()
        first = next(control for control in panel(lesson).controls if hasattr(control, "options"))
        other = next(option.value for option in first.options if option.value != params[first.name])
        answered = json.loads(answer(json.dumps({"lesson": lesson, "params": {**params, first.name: other}})))
        assert answered["ok"], answered


def test_the_engine_finds_a_panel_in_the_registry_once_however_many_of_its_views_are_asked(monkeypatch):
    # Every view names its panel; the registry finds panels by listing the lessons folder, which the
    # engine has it do once per panel, not again for each view a reader asks for.
    import pkgutil

    from lessonkit import runtime

    defaults = panel("working-memory").defaults()
    views = [{**defaults, "recency_weight": weight} for weight in (0.0, 0.25, 0.5)]
    listed = []
    listing = pkgutil.iter_modules

    def counting(*args, **kwargs):
        listed.append(args)
        return listing(*args, **kwargs)

    monkeypatch.setattr(pkgutil, "iter_modules", counting)
    monkeypatch.setattr(runtime, "_answering", {})
    for params_ in views:
        reply = json.loads(answer(json.dumps({"lesson": "working-memory", "params": params_, "export": False})))
        assert reply["ok"], reply
    assert len(listed) == 1, f"the lessons folder was listed {len(listed)} times for {len(views)} views"


def test_the_rehearsal_answers_a_new_view_of_the_authors_demonstration_at_each_step_and_asks_no_lesson(monkeypatch):
    # The worker rehearses once the engine is ready, a step at a time: a step is one view, never
    # one a lesson could have cached, and every one is a view the engine could show a reader.
    from lessonkit import runtime
    from lessonkit.panel import showcase

    answered = []

    def recording(request: str) -> str:
        text = answer(request)
        answered.append((json.loads(request), json.loads(text)))
        return text

    monkeypatch.setattr(runtime, "answer", recording)
    steps = runtime.rehearse()
    for step in range(runtime.REHEARSED_VIEWS):
        next(steps)
        assert len(answered) == step + 1, "a step answered more or less than one view"
    assert next(steps, "done") == "done"

    assert {request["lesson"] for request, _ in answered} == {showcase.LESSON}
    assert all(reply["ok"] for _, reply in answered), [reply for _, reply in answered if not reply["ok"]]
    settings = [json.dumps(request["params"], sort_keys=True) for request, _ in answered]
    assert len(set(settings)) == len(settings), "the rehearsal answered a setting twice"
    assert all(panel(showcase.LESSON).check(request["params"]) == request["params"] for request, _ in answered)
