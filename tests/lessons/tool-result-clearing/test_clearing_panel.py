"""The clearing panel: every field of the setting named as the lesson names it, views from the engine, refusals in its words."""

import html
import itertools
import json
import re
from pathlib import Path

import pytest

from lessonkit.authoring.precompute import precomputed_params, write_views
from lessonkit.checks import Refused
from lessonkit.lessons.tool_result_clearing import Clearing, Rule, compare, lesson, placeholder_tokens, replay
from lessonkit.lessons.tool_result_clearing.panel import (
    PLACEHOLDERS,
    RULE_WORDS,
    clearing_off,
    most_requests,
    most_results,
    outcome,
    prefix_end,
    replayed,
    setting_fields,
)
from lessonkit.panel import render
from lessonkit.registry import panel
from lessonkit.runtime import answer

PANEL = panel("tool-result-clearing")
SESSION = lesson().session
KEEP_3, BATCHED, PLAN_KEPT = (lesson().presets[name] for name in ("keep-3", "batched", "plan-kept"))
TOOLS = ("update_plan", "run_tests", "search", "read_file", "edit_file")


def params(**changes):
    return {**PANEL.defaults(), **changes}


def of(setting: Clearing, **changes):
    """The panel's parameters for `setting`."""
    fields = {name: value for name, value in setting.fields.items() if name != "exclude_tools"}
    excluded = {f"exclude_{tool}": tool in setting.exclude_tools for tool in TOOLS}
    return params(**{**fields, **excluded, **changes})


def rows(view_html: str) -> list[tuple[str, str]]:
    return re.findall(r'<tr data-id="([^"]+)" data-rule="([^"]+)"', view_html)


# The controls


def test_every_field_of_the_setting_has_a_control_named_as_the_lesson_names_it():
    named = [(control["kind"], control["name"], control["label"]) for control in PANEL.spec()["controls"]]
    assert named == [
        ("number", "trigger", "Trigger"),
        ("number", "clear_at_least", "Clear at least"),
        ("number", "keep", "Keep"),
        ("choice", "placeholder", "Placeholder"),
        ("toggle", "clear_tool_inputs", "Clear tool inputs"),
        *[("toggle", f"exclude_{tool}", f"Exclude {tool}") for tool in TOOLS],
        ("toggle", "caching", "Prompt cache"),
    ]
    fields = {name for _, name, _ in named} - {"caching"}
    assert {"trigger", "clear_at_least", "keep", "placeholder", "clear_tool_inputs"} | {f"exclude_{tool}" for tool in TOOLS} == fields
    assert set(setting_fields(PANEL.defaults())) == set(Clearing().fields)


def test_one_exclusion_checkbox_per_tool_the_session_calls_in_the_order_first_called():
    assert SESSION.tools == TOOLS
    chosen = setting_fields(params(exclude_read_file=True, exclude_update_plan=True))
    assert chosen["exclude_tools"] == ("update_plan", "read_file")
    assert PANEL.view(of(PLAN_KEPT)).export["setting"]["exclude_tools"] == ["update_plan"]


def test_the_numbers_take_what_the_setting_takes_up_to_the_most_the_session_can_use():
    spec = {control["name"]: control for control in PANEL.spec()["controls"]}
    assert (spec["trigger"]["minimum"], spec["trigger"]["maximum"], spec["trigger"]["unit"]) == (0, Clearing().trigger, "tokens")
    assert (spec["clear_at_least"]["minimum"], spec["clear_at_least"]["unit"]) == (0, "tokens")
    # Every result a replay can hold can be kept: the script's, and the copies called again.
    assert spec["keep"]["maximum"] == most_results(SESSION) == 20
    assert len(replay(SESSION, Clearing(trigger=0, keep=0)).history) - len(SESSION.messages) == 2 + 2


def test_the_placeholders_are_langchains_default_then_longer_ones():
    assert PLACEHOLDERS[0] == Clearing().placeholder == "[cleared]"
    weights = [placeholder_tokens(text) for text in PLACEHOLDERS]
    assert weights == sorted(weights) and len(set(weights)) == len(weights)
    options = next(control for control in PANEL.spec()["controls"] if control["name"] == "placeholder")["options"]
    assert [(option["value"], option["label"]) for option in options] == [(text, text) for text in PLACEHOLDERS]


def test_the_panel_opens_on_the_keep_3_preset_with_the_cache_on_before_the_first_request():
    defaults = PANEL.defaults()
    assert Clearing(**setting_fields(defaults)) == KEEP_3
    assert (defaults["caching"], defaults["time"]) == (True, 0)
    assert PANEL.view(defaults).status.startswith("Before the first model request. Whole session: ")


def test_the_timeline_counts_model_requests_up_to_the_most_any_setting_can_make():
    timeline = PANEL.spec()["timeline"]
    assert (timeline["unit"], timeline["unit_one"], timeline["clock_unit"], timeline["clock_decimals"]) == (
        "model requests",
        "model request",
        "requests",
        0,
    )
    assert timeline["end"] == most_requests(SESSION) == len(replay(SESSION, KEEP_3).requests) == 21
    assert [mark["at"] for mark in timeline["marks"]] == list(range(1, 22))
    assert timeline["marks"][10]["name"] == "Request 11" and timeline["start"] == "before the first model request"
    # No setting makes more requests than the timeline holds: each agent message calls again once at most.
    grid = itertools.product((0, 1, 3, 20), (0, 5000, 15000), (0, 3000), (False, True), ((), ("read_file",), TOOLS))
    for keep, trigger, least, inputs, excluded in grid:
        setting = Clearing(trigger=trigger, clear_at_least=least, keep=keep, clear_tool_inputs=inputs, exclude_tools=excluded)
        assert len(replay(SESSION, setting).requests) <= timeline["end"], setting


# Views of a setting that stands


def test_the_status_at_a_request_says_what_the_agent_does_what_was_cleared_and_what_the_cache_did():
    assert PANEL.view(params(time=8)).status == (
        "Request 8 of 21: the agent writes a8, calling update_plan. 7,489 prompt tokens sent, 15,497 before clearing; "
        "4 results cleared, r1, r2, r3, r4 at this request; the cache read 1,370 and wrote 6,119. "
        "Whole session: 150,809 tokens sent, 41% of them read from the cache, price 117,557.4 "
        "(clearing off: 70,193.7; cache off: 150,809), in input-price units."
    )
    assert PANEL.view(params(time=11)).status.startswith(
        "Request 11 of 21: the agent calls read_file again, for a11, which needs a result clearing hid."
    )
    assert "the cache is off, so all of it is sent uncached" in PANEL.view(params(time=9, caching=False)).status


@pytest.mark.parametrize("setting", [KEEP_3, BATCHED, PLAN_KEPT, Clearing(trigger=0, keep=0, clear_tool_inputs=True)])
def test_every_result_in_the_prompt_is_listed_with_the_rule_that_decided_it(setting):
    run = replay(SESSION, setting)
    for request in run.requests:
        view = PANEL.view(of(setting, time=request.number))
        assert rows(view.html) == [(verdict.result, verdict.rule.name.lower()) for verdict in request.prompt.verdicts]
        assert [result["result"] for result in view.state["results"] if result["cleared"]] == list(request.prompt.cleared)


def test_each_rule_is_said_with_the_settings_own_numbers():
    page = PANEL.view(of(BATCHED, exclude_update_plan=True, time=20)).html
    reasons = dict(re.findall(r'<tr data-id="([^"]+)" data-rule="[^"]+"[^>]*>(?:<td[^>]*>.*?</td>){3}<td>([^<]*)</td>', page))
    assert reasons["r1"] == "its tool is excluded: update_plan is in exclude_tools"
    assert reasons["r17"] == "among the last results kept: one of the newest 3"
    assert "enough was already reclaimed: clear_at_least is 8,000" in reasons.values()
    assert reasons["r2"] == "cleared: older than the newest 3, and its tool not excluded"
    early = PANEL.view(params(time=3)).html
    assert "under the trigger: the prompt before clearing, 4,925 tokens, is not over 15,000" in early
    assert {rule.name.lower() for rule in Rule} >= {rule for _, rule in rows(page)}
    assert set(RULE_WORDS) == {rule.name for rule in Rule}, "every rule has its words"


@pytest.mark.parametrize(
    ("keep", "kept", "cleared"),
    [
        (1, "the newest result", "cleared: older than the newest result, and its tool not excluded"),
        (0, None, "cleared: keep is 0, and its tool not excluded"),
    ],
)
def test_a_keep_of_one_or_zero_is_said_in_words_that_read(keep, kept, cleared):
    page = PANEL.view(params(keep=keep, time=12)).html
    reasons = set(re.findall(r'<tr data-id="[^"]+" data-rule="[^"]+"[^>]*>(?:<td[^>]*>.*?</td>){3}<td>([^<]*)</td>', page))
    assert cleared in reasons
    assert (f"among the last results kept: {kept}" in reasons) == (kept is not None)


def test_results_cleared_at_this_request_are_marked_apart_from_those_cleared_before():
    view = PANEL.view(params(time=9))
    assert view.state["newly_cleared"] == ["r5"] and view.state["cleared"] == ["r1", "r2", "r3", "r4", "r5"]
    assert re.findall(r'<tr data-id="([^"]+)"[^>]*class="lk-cleared lk-newly"', view.html) == ["r5"]
    assert len(re.findall(r'class="lk-cleared"', view.html)) == 4
    assert "“[cleared]”, 3 tokens; cleared at this request" in view.html


@pytest.mark.parametrize("setting", [KEEP_3, BATCHED, PLAN_KEPT, Clearing(trigger=5000, keep=1, clear_tool_inputs=True)])
def test_the_cache_read_stops_at_the_first_block_sent_differently_from_the_request_before(setting):
    run = replay(SESSION, setting)
    previous = None
    for request in run.requests:
        end = prefix_end(previous, request.prompt)
        assert end is not None, "every request adds a message, so no prompt is read whole"
        blocks = [block.id for block in request.prompt.blocks]
        assert sum(block.tokens for block in request.prompt.blocks[: blocks.index(end.block)]) == request.cache.read
        previous = request.prompt
    first = PANEL.view(of(setting, time=1)).html
    assert "<dt>The cache read stops at</dt><dd>system: the first request: nothing is cached yet</dd>" in first


def test_where_the_cache_read_stops_says_why():
    assert "<dd>r1: cleared at this request; the previous request sent it whole</dd>" in PANEL.view(params(time=8)).html
    assert "<dd>a2: new since the previous request</dd>" in PANEL.view(params(time=3)).html
    inputs = PANEL.view(params(clear_tool_inputs=True, time=8)).html
    assert "<dd>a1: its call&#x27;s input is cleared at this request</dd>" in inputs
    assert "The cache read stops at" not in PANEL.view(params(caching=False, time=8)).html


def test_the_totals_compare_the_setting_with_clearing_off_and_with_the_cache_switched():
    seen = compare(SESSION, KEEP_3)

    def totals(run, clearing, caching):
        t = run.totals
        return {
            "clearing": clearing,
            "caching": caching,
            "requests": t.requests,
            "calls_again": t.calls_again,
            "sent": t.sent,
            "read": t.read,
            "written": t.written,
            "uncached": t.uncached,
            "hit_rate": t.hit_rate,
            "price": t.price,
        }

    assert PANEL.view(params()).export["totals"] == {
        "this_setting": totals(seen.run, True, True),
        "clearing_off": totals(seen.clearing_off, False, True),
        "cache_switched": totals(seen.caching_off, True, False),
    }
    off = PANEL.view(params(caching=False)).export["totals"]
    assert off["this_setting"] == totals(seen.caching_off, True, False)
    assert off["clearing_off"] == totals(replay(SESSION, None, caching=False), False, False)
    assert off["cache_switched"] == totals(seen.run, True, True)
    page = PANEL.view(params()).html
    headings = re.findall(r'<th scope="col" class="lk-num">([^<]*)</th>', page.split("<figure")[0])
    assert headings == ["This setting, cache on", "Clearing off, cache on", "This setting, cache off"]
    assert '<td>Price (input-price units)</td><td class="lk-num">117,557.4</td>' in page
    assert '<td>Cache hit rate</td><td class="lk-num">41%</td><td class="lk-num">90%</td>' in page


def test_each_call_made_again_is_listed_with_the_result_it_brought_back():
    view = PANEL.view(params())
    assert view.export["calls_again"] == [
        {
            "request": 11,
            "for": "a11",
            "calls": [{"id": "c4-again", "tool": "read_file", "input": "src/billing/terms.py"}],
            "results": ["r4-again"],
            "result_tokens": 2900,
        },
        {
            "request": 17,
            "for": "a16",
            "calls": [{"id": "c4-again2", "tool": "read_file", "input": "src/billing/terms.py"}],
            "results": ["r4-again2"],
            "result_tokens": 2900,
        },
    ]
    assert re.findall(r'<li class="lk-again" data-request="(\d+)">', view.html) == ["11", "17"]
    assert "Calls made again because clearing hid a result (2)" in view.html
    never = PANEL.view(params(trigger=100_000))
    assert "Calls made again because clearing hid a result (0)" in never.html and "None: every result" in never.html


def test_a_result_cleared_even_after_calling_again_is_said_to_be_unseen():
    view = PANEL.view(params(keep=0, time=12))
    assert replay(SESSION, Clearing(trigger=15000, keep=0)).at(12).unseen == ("c4",)
    assert "<dt>Could not see</dt><dd>the result of c4 (read_file with “src/billing/terms.py”)" in view.html
    assert "Even so, a11 could not see it: its fresh copy was cleared too." in view.html


def test_the_chart_splits_each_prompt_into_what_the_cache_read_and_wrote_beside_clearing_off():
    page = PANEL.view(params(time=8)).html
    assert re.findall(r'<g class="lk-series lk-series-\d">.*?<text[^>]*>([^<]+)</text></g>', page) == [
        "Cache write",
        "Cache read",
        "Clearing off",
    ]
    assert "trigger 15,000" in page and '<line class="lk-now"' in page
    assert re.findall(r'<g class="lk-marker"><line[^>]*/><text[^>]*>([^<]+)</text>', page) == ["again", "again"]
    uncached = PANEL.view(params(caching=False)).html
    assert re.findall(r'<g class="lk-series lk-series-\d">.*?<text[^>]*>([^<]+)</text></g>', uncached) == ["Uncached", "Clearing off"]
    assert "all sent uncached as the cache is off" in uncached
    above = PANEL.view(params(trigger=50_000)).html
    assert '<g class="lk-rule">' not in above and "the trigger, 50,000, is above every prompt, so clearing never runs" in above


def test_the_charts_numbers_are_the_engines():
    run = replay(SESSION, KEEP_3)
    table = PANEL.view(params()).html.split("Numbers behind")[1]
    cells = re.findall(r'<tr><th scope="row">(\d+)</th><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>', table)
    assert [(int(n), read, written) for n, written, read, *_ in cells][:21] == [
        (r.number, f"{r.cache.read:g}", f"{r.cache.written:g}") for r in run.requests
    ]


def test_a_captured_baseline_is_drawn_beside_the_current_run():
    page = PANEL.view(params(), params(keep=5)).html
    assert ">Baseline</text>" in page and "the captured baseline" in page
    totals = replay(SESSION, Clearing(trigger=15000, keep=5)).totals
    assert PANEL.view(params(keep=5)).baseline == (
        f"Clearing(trigger=15000, keep=5), cache on: {totals.requests} requests, {totals.sent:,} tokens sent, "
        f"{totals.hit_rate:.0%} read from the cache, price {totals.price:,.2f}".rstrip("0").rstrip(".")
    )
    assert PANEL.view(params()).baseline.startswith("Clearing(trigger=15000), cache on: 21 requests, 150,809 tokens sent")


def test_a_moment_past_the_runs_last_request_says_the_run_has_ended():
    never = params(trigger=100_000, time=20)
    view = PANEL.view(never)
    assert len(replay(SESSION, Clearing()).requests) == 19
    assert view.status.startswith("No request 20: this setting's session ends at request 19.")
    assert view.state == {"request": None} and "This setting&#x27;s session ends at request 19." in view.html
    assert view.export["inspection"] == {"timeline": 20, "request": None}


def test_tokens_are_teaching_tokens_and_prices_input_price_units():
    view = PANEL.view(params(time=5))
    assert "Tokens are the lesson&#x27;s teaching tokens, not a tokenizer&#x27;s." in view.html
    assert "in input-price units." in view.status and "Prompt tokens (teaching)" in view.html
    assert "a cache read 0.1 and a cache write 1.25" in view.html
    assert view.export["pricing"] == {"read": 0.1, "write": 1.25} and "teaching tokens" in view.export["model"]


def test_the_setting_as_written_is_the_code_that_computes_the_run():
    for changes in ({}, {"caching": False, "placeholder": PLACEHOLDERS[1]}, {"exclude_read_file": True, "clear_tool_inputs": True}):
        view = PANEL.view(params(**changes))
        code = view.export["written"]
        assert html.escape(code) in view.html
        scope = {"Clearing": Clearing, "lesson": lesson, "replay": replay}
        exec(code, scope)
        assert scope["run"].totals.price == view.export["totals"]["this_setting"]["price"]


def test_the_export_holds_every_request_and_keeps_the_inspection_apart():
    export = PANEL.view(params(time=12)).export
    assert [r["request"] for r in export["requests"]] == list(range(1, 22))
    assert export["inspection"] == {"timeline": 12, "request": 12}
    assert export["requests"][10]["called_again_for"] == "a11" and export["requests"][11]["answer"] == "a11"
    assert all("inspection" not in r for r in export["requests"])
    json.dumps(export)


# Refusals


def test_a_setting_the_engine_refuses_is_shown_in_its_own_words():
    # The controls send nothing the engine refuses, so the panel's draw is asked directly, as an unchecked link would.
    with pytest.raises(Refused) as refused:
        Clearing(trigger=15000, keep=-1)
    view = PANEL.draw(params(keep=-1), None)
    assert view.refusal == str(refused.value) == "keep is -1; allowed: a whole number, 0 or more"
    assert view.status == "The setting is refused (field keep), so nothing is replayed: a refused setting never runs."
    assert view.state["refusal"] == {"field": "keep", "message": view.refusal}
    assert "Nothing to replay" in view.html and ">Cache read</text>" not in view.html and ">Clearing off</text>" in view.html


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"keep": -1}, "parameter 'keep' is -1; allowed: 0 to 20 results, whole numbers"),
        ({"trigger": 1.5}, "parameter 'trigger' is 1.5; allowed: 0 to 100000 tokens, whole numbers"),
        ({"placeholder": ""}, 'parameter \'placeholder\' is ""; allowed: "[cleared]", '),
        ({"exclude_search": "yes"}, "parameter 'exclude_search' is \"yes\"; allowed: true, false"),
        ({"time": 22}, "parameter 'time' is 22; allowed: 0 to 21 model requests"),
    ],
)
def test_a_bad_value_from_a_link_is_refused_by_name_with_what_is_allowed(changes, error):
    reply = json.loads(answer(json.dumps({"lesson": "tool-result-clearing", "params": params(**changes)})))
    assert not reply["ok"] and error in reply["error"]


# Speed and the build


def test_a_setting_is_replayed_once_for_every_position_of_the_timeline():
    replayed.cache_clear()
    outcome.cache_clear()
    clearing_off.cache_clear()
    views = [PANEL.view(params(time=time)) for time in range(22)]
    assert (outcome.cache_info().misses, clearing_off.cache_info().misses, replayed.cache_info().misses) == (2, 1, 1)
    first = views[0].export
    for view in views[1:]:
        assert view.export["requests"] is first["requests"] and view.export["calls_again"] is first["calls_again"]
    assert views[8].state is first["requests"][7]
    PANEL.view(params(time=3), params(keep=5))  # a baseline changes the chart, not the replay inspected
    assert replayed.cache_info().misses == 1


def test_the_views_the_build_ships_stay_a_moderate_table(tmp_path):
    assert len(precomputed_params(PANEL)) <= 200
    path = write_views(PANEL, tmp_path)
    assert path.stat().st_size <= 96 * 1024, f"{path.stat().st_size:,} bytes compressed"


def test_the_static_render_holds_the_starting_status_and_an_empty_alert_region():
    page = render(PANEL)
    assert 'role="status"' in page and "Before the first model request." in page
    assert '<p class="lk-refusal" role="alert" hidden></p>' in page
    assert 'data-stylesheet="lessons/tool-result-clearing.css"' in page
    stylesheet = Path(__file__).resolve().parents[3] / "overrides" / "assets" / "lessonkit" / "lessons" / "tool-result-clearing.css"
    assert stylesheet.is_file()
