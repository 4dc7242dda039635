"""The clearing lesson's engine: its session, its setting's refusals, the clearing rule, the cache,
the calls made again, and the simplifications the page states."""

from __future__ import annotations

import doctest
import importlib
import math
from dataclasses import replace

import pytest

from lessonkit.checks import Refused
from lessonkit.lessons import tool_result_clearing
from lessonkit.lessons.tool_result_clearing import (
    Block,
    Clearing,
    Pricing,
    Rule,
    Session,
    cached_prefix,
    compare,
    edit,
    lesson,
    placeholder_tokens,
    replay,
)

SESSION = lesson().session
KEEP_3 = lesson().presets["keep-3"]
BATCHED = lesson().presets["batched"]


def history_before(request_number: int, setting: Clearing = KEEP_3):
    run = replay(SESSION, setting)
    return run.history[: run.at(request_number).position]


# The session the issue asked for.


def test_the_session_has_between_fifteen_and_twenty_five_model_requests():
    assert 15 <= len(replay(SESSION, None).requests) <= 25


def test_the_session_calls_at_least_three_tools_whose_results_dominate_the_prompt():
    assert len(SESSION.tools) >= 3
    results = sum(message.tokens for message in SESSION.messages if message.kind == "tool")
    assert results / (SESSION.system_tokens + sum(message.weight() for message in SESSION.messages)) > 0.8


def test_one_result_is_needed_again_later_and_the_plan_tool_is_there_to_exclude():
    needed = {call_id for message in SESSION.messages for call_id in message.needs}
    assert {SESSION.call(call_id).tool for call_id in needed} == {"read_file"}
    assert "update_plan" in SESSION.tools and "update_plan" in lesson().presets["plan-kept"].exclude_tools


# The setting's refusals.


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"trigger": -1}, "trigger is -1; allowed: a whole number of tokens, 0 or more"),
        ({"trigger": 1.5}, "trigger is 1.5; allowed: a whole number of tokens, 0 or more"),
        ({"clear_at_least": "8000"}, "clear_at_least is '8000'; allowed: a whole number of tokens, 0 or more"),
        ({"keep": True}, "keep is True; allowed: a whole number, 0 or more"),
        ({"clear_tool_inputs": 1}, "clear_tool_inputs is 1; allowed: True, False"),
        ({"exclude_tools": "update_plan"}, "exclude_tools is 'update_plan'; allowed: a list of tool names, such as ['update_plan']"),
        (
            {"exclude_tools": ["update_plan", ""]},
            "exclude_tools is ['update_plan', '']; allowed: a list of tool names, such as ['update_plan']",
        ),
        ({"placeholder": " "}, "placeholder is ' '; allowed: a non-empty string"),
        ({"placeholder": "x" * 201}, "allowed: a non-empty string of at most 200 characters"),
    ],
    ids=lambda value: str(value)[:30],
)
def test_a_bad_field_is_refused_by_name_with_what_is_allowed(fields, message):
    with pytest.raises(Refused) as refused:
        Clearing(**fields)
    assert message in str(refused.value)
    assert refused.value.name == next(iter(fields))


def test_excluding_a_tool_the_session_never_calls_is_refused_naming_the_tools_it_calls():
    with pytest.raises(Refused, match="names of this session's tools: update_plan, run_tests, search, read_file, edit_file"):
        replay(SESSION, Clearing(exclude_tools=("serach",)))


def test_the_same_tool_excluded_twice_is_excluded_once():
    assert Clearing(exclude_tools=["search", "search"]).exclude_tools == ("search",)


# The clearing rule, one request at a time.


def test_nothing_is_cleared_while_the_prompt_is_at_or_under_the_trigger():
    history = history_before(8)
    whole = edit(SESSION.system_tokens, history, Clearing()).whole
    at_trigger = edit(SESSION.system_tokens, history, Clearing(trigger=whole))
    assert at_trigger.cleared == () and {verdict.rule for verdict in at_trigger.verdicts} == {Rule.UNDER_TRIGGER}
    assert edit(SESSION.system_tokens, history, Clearing(trigger=whole - 1)).cleared != ()


def test_the_last_keep_results_are_never_cleared_and_older_ones_are_oldest_first():
    prompt = edit(SESSION.system_tokens, history_before(10), Clearing(trigger=0, keep=2))
    rules = [verdict.rule for verdict in prompt.verdicts]
    assert rules[-2:] == [Rule.KEPT_RECENT] * 2 and set(rules[:-2]) == {Rule.CLEARED}


def test_an_excluded_tools_results_are_never_cleared():
    prompt = edit(SESSION.system_tokens, history_before(10), Clearing(trigger=0, keep=0, exclude_tools=("update_plan",)))
    for verdict in prompt.verdicts:
        assert verdict.cleared == (verdict.tool != "update_plan")
        assert verdict.rule is (Rule.EXCLUDED if verdict.tool == "update_plan" else Rule.CLEARED)


def test_clearing_stops_once_it_has_reclaimed_clear_at_least():
    prompt = edit(SESSION.system_tokens, history_before(10), Clearing(trigger=0, keep=0, clear_at_least=5000))
    assert prompt.cleared == ("r1", "r2", "r3")  # 117 + 3,397 + 1,597 reclaimed: the third reaches it
    assert prompt.reclaimed >= 5000
    assert {verdict.rule for verdict in prompt.verdicts[3:]} == {Rule.ENOUGH_RECLAIMED}


def test_a_cleared_result_weighs_its_placeholder_and_a_cleared_input_weighs_nothing():
    setting = Clearing(trigger=0, keep=0, clear_tool_inputs=True, placeholder="[gone]")
    prompt = edit(SESSION.system_tokens, history_before(4), setting)
    blocks = {block.id: block for block in prompt.blocks}
    assert blocks["r2"].cleared and blocks["r2"].tokens == placeholder_tokens("[gone]") == 2
    assert blocks["a2"].inputs_cleared == ("c2",) and blocks["a2"].tokens == lesson().message("a2").tokens


def test_the_cleared_set_is_worked_out_afresh_from_the_whole_history_at_each_request():
    run = replay(SESSION, KEEP_3)
    for request in run.requests:
        again = edit(SESSION.system_tokens, run.history[: request.position], KEEP_3)
        assert again == request.prompt


def test_with_clear_at_least_the_cleared_set_stops_growing_once_it_reaches_the_amount():
    run = replay(SESSION, BATCHED)
    cleared = [request.prompt.cleared for request in run.requests if request.prompt.cleared]
    assert len(set(cleared)) == 1 and sum(bool(request.newly_cleared) for request in run.requests) == 1


def test_with_keep_three_every_request_after_a_new_result_clears_one_more():
    run = replay(SESSION, KEEP_3)
    first = next(request.number for request in run.requests if request.prompt.cleared)
    assert all(len(request.newly_cleared) == 1 for request in run.requests[first:])


# The calls that clearing makes necessary again.


def test_a_hidden_result_that_the_agent_needs_is_fetched_again_first():
    run = replay(SESSION, KEEP_3)
    again = run.at(11)
    assert again.again and again.answer.again == "a11" and run.at(12).answer.id == "a11"
    assert [(call.tool, call.input) for call in again.answer.calls] == [("read_file", "src/billing/terms.py")]
    reread = run.history[run.at(12).position - 1]
    assert reread.id == "r4-again" and reread.tokens == lesson().message("r4").tokens
    assert run.at(12).unseen == ()


def test_no_call_is_made_again_when_clearing_never_hides_the_result():
    assert replay(SESSION, None).calls_again == ()
    assert replay(SESSION, replace(KEEP_3, exclude_tools=("read_file",))).calls_again == ()


def test_with_keep_zero_even_the_fresh_copy_is_cleared_and_the_request_says_what_it_could_not_see():
    run = replay(SESSION, replace(KEEP_3, keep=0))
    blind = [request for request in run.requests if request.unseen]
    assert blind and all(request.unseen == ("c4",) for request in blind)
    assert all(run.at(request.number - 1).again for request in blind)


def test_a_result_cleared_the_first_time_it_could_be_sent_is_not_newly_cleared():
    # With keep 0 every new result is cleared at once: the cache breaks only where a result it held changed.
    run = replay(SESSION, replace(KEEP_3, keep=0))
    breaks = [request.number for request in run.requests if request.newly_cleared]
    assert breaks == [8]
    assert all(request.cache.read == run.at(request.number - 1).prompt.tokens for request in run.requests[8:])


# The cache and the price.


def test_the_first_request_reads_nothing_and_writes_its_whole_prompt():
    first = replay(SESSION, KEEP_3).at(1)
    assert first.cache.read == 0 and first.cache.written == first.prompt.tokens


def test_a_cleared_result_is_a_different_block_so_the_cache_reads_only_up_to_it():
    system, result = Block("system", "system", 800), Block("r1", "tool", 900)
    assert cached_prefix([system, result], [system, replace(result, tokens=3, cleared=True)]) == 800


def test_with_the_cache_off_every_token_costs_the_input_price():
    run = replay(SESSION, KEEP_3, caching=False)
    assert all(request.cache.read == request.cache.written == 0 for request in run.requests)
    assert run.totals.price == run.totals.sent and run.totals.hit_rate == 0


def test_the_price_uses_the_multipliers_given():
    run = replay(SESSION, KEEP_3, pricing=Pricing(read=0.5, write=2))
    assert run.totals.price == pytest.approx(0.5 * run.totals.read + 2 * run.totals.written)


def test_the_total_price_is_the_correctly_rounded_sum_on_every_python_the_course_runs_on():
    # CPython 3.11's sum() and the reader's Pyodide (3.13) disagree in the last digits of this very
    # total; the export a reader saves must hold the figure the build computed.
    run = replay(SESSION, None)
    prices = [request.cache.price for request in run.requests]
    assert run.totals.price == math.fsum(prices)
    assert run.totals.price == 70193.7


def test_the_default_multipliers_are_anthropics_published_five_minute_ones():
    assert Pricing() == tool_result_clearing.ANTHROPIC_FIVE_MINUTES == Pricing(read=0.1, write=1.25)


@pytest.mark.parametrize("multiplier", ["read", "write"])
def test_a_negative_multiplier_is_refused(multiplier):
    with pytest.raises(Refused, match=f"^{multiplier} is -0.1; allowed: 0 or more"):
        Pricing(**{multiplier: -0.1})


def test_the_comparison_shows_the_trade_clearing_saves_tokens_and_with_keep_three_costs_the_cache():
    seen = compare(SESSION, KEEP_3)
    assert seen.run.totals.sent < seen.clearing_off.totals.sent
    assert seen.run.totals.hit_rate < seen.clearing_off.totals.hit_rate
    assert seen.run.totals.price > seen.clearing_off.totals.price
    assert seen.caching_off.totals.price == seen.run.totals.sent


def test_the_comparisons_runs_are_the_replays_they_stand_for():
    seen = compare(SESSION, BATCHED)
    assert seen.run == replay(SESSION, BATCHED)
    assert seen.clearing_off == replay(SESSION, None)
    assert seen.caching_off == replay(SESSION, BATCHED, caching=False)


# The simplifications the page states.


def test_one_breakpoint_at_the_end_of_every_request_leaves_the_whole_prompt_to_read_next_time():
    run = replay(SESSION, None)
    for before, request in zip(run.requests, run.requests[1:], strict=False):
        assert request.cache.read == before.prompt.tokens


def test_nothing_expires_however_many_requests_came_before():
    run = replay(SESSION, None)
    assert run.requests[-1].cache.read == run.requests[-2].prompt.tokens > 0


def test_there_is_no_minimum_cacheable_length():
    tiny = Session(1, (lesson().message("u1"), replace(lesson().message("a19"), tokens=1)))
    second = replay(Session(1, SESSION.messages[:3] + (lesson().message("a2"),) + SESSION.messages[4:5] + (lesson().message("a19"),)), None)
    assert replay(tiny, None).at(1).cache.written == 1 + lesson().message("u1").tokens
    assert second.at(2).cache.read == second.at(1).prompt.tokens


def test_teaching_tokens_are_the_fixtures_weights_summed_not_a_tokenizers_count():
    run = replay(SESSION, None)
    last = run.requests[-1]
    assert last.prompt.whole == SESSION.system_tokens + sum(message.weight() for message in run.history[: last.position])


# The engine's own examples.


@pytest.mark.parametrize("module", ["messages", "setting", "clearing", "cache", "session", "fixture"])
def test_the_engines_examples_run_as_written(module):
    result = doctest.testmod(importlib.import_module(f"lessonkit.lessons.tool_result_clearing.{module}"), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
