"""The tool result clearing lesson's panel: a `Clearing` setting field by field, and the prompt cache switched on or off.

Each field of the setting has a control named as the lesson names it: three numbers (Trigger, Clear
at least, Keep), the Placeholder, a checkbox for Clear tool inputs, and one checkbox per tool of the
session for `exclude_tools` (Exclude update_plan, ...): a list of names drawn from five is five
yes-or-no questions, each a native checkbox with its own name. The setting is built exactly as a
reader's code builds it, `Clearing(...)`, so a refusal is the engine's own, in its own words; one
that stands is replayed over the lesson's session with the cache as the Prompt cache switch says,
beside the same session with clearing off and with the cache switched the other way.

The placeholder is a choice of three texts rather than a field to type in: the platform's text kind
holds the reader's own notes and is no parameter of the view, so typing one would need a new kind of
control in the shell. The three differ in length, which is what the replay counts
(`placeholder_tokens`).

The timeline counts model requests. How many a setting makes depends on it (each call clearing
makes the agent make again is one more request), so the timeline runs to the most any setting can
make (`most_requests`); a position past a run's last request says that the run has ended.

Moving along the timeline changes only which request is inspected, so what reads the same at every
position (the runs, their totals, the calls made again, each request's state) is worked out once
per setting, in a `Replay`, and shared by the views of every position.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lessonkit.checks import Refused
from lessonkit.lessons.tool_result_clearing import (
    ANTHROPIC_FIVE_MINUTES,
    FIELDS,
    Clearing,
    Message,
    Prompt,
    Request,
    Run,
    Session,
    ToolCall,
    Totals,
    Verdict,
    first_change,
    lesson,
    placeholder_tokens,
    replay,
)
from lessonkit.panel import Choice, Mark, Number, Option, Panel, Params, Playback, Timeline, Toggle, View, Words
from lessonkit.panel.chart import Marker, Rule, Series, line_chart
from lessonkit.panel.components import Column, findings, record_table
from lessonkit.panel.html import Markup, h, join
from lessonkit.panel.reading import Reading

LESSON = "tool-result-clearing"
START = "keep-3"  # the fixture's preset the panel opens on
# The placeholders a reader can pick: LangChain's default, then two longer ones, so that a reader
# sees what a longer placeholder costs in every cleared result.
PLACEHOLDERS = (
    "[cleared]",
    "[old result cleared; call the tool again]",
    "[This tool result was cleared to save context. Call the tool again with the same input if you need it.]",
)
# The most tokens a number field takes: LangChain's default trigger, far above this session's prompts.
MOST_TOKENS = Clearing().trigger
PRICING = ANTHROPIC_FIVE_MINUTES
MODEL = (
    "teaching tokens are fixed weights from the fixture, not tokenizer output, and a placeholder weighs one token per four "
    "characters; no model is called. Prices are in input-price units: an uncached input token costs 1, a cache read "
    f"{PRICING.read:g} and a cache write {PRICING.write:g} (Anthropic's five-minute cache). The cache has one breakpoint "
    "at the end of every request, reads the longest run of blocks identical to the previous request's prompt from its "
    "start, and never expires within the session"
)
# Why a result was sent as it was at a request: the rule's own words, with the setting's numbers.
RULE_WORDS: dict[str, str] = {
    "UNDER_TRIGGER": "{rule}: the prompt before clearing, {whole:,} tokens, is not over {trigger:,}",
    "KEPT_RECENT": "{rule}: {newest}",
    "EXCLUDED": "{rule}: {tool} is in exclude_tools",
    "ENOUGH_RECLAIMED": "{rule}: clear_at_least is {clear_at_least:,}",
    "CLEARED": "{rule}: {older}, and its tool not excluded",
}


def session() -> Session:
    return lesson().session


def most_requests(of: Session) -> int:
    """The most model requests any setting can make of the session: one per agent message, and one
    more before each agent message that needs an earlier result, when clearing has hidden it (the
    agent calls again once, for every hidden result at once)."""
    answers = [message for message in of.messages if message.kind == "assistant"]
    return len(answers) + sum(1 for message in answers if message.needs)


def most_results(of: Session) -> int:
    """The most tool results a replay's history can hold: the script's, and one more for each result
    an agent message needs, which it may call for again."""
    return sum(1 for message in of.messages if message.kind == "tool") + sum(len(message.needs) for message in of.messages)


def exclude_name(tool: str) -> str:
    """The parameter that excludes `tool`'s results from clearing."""
    return f"exclude_{tool}"


# The setting as a reader writes it, and what it comes to.


def setting_fields(params: Params) -> dict[str, Any]:
    """The setting's fields as `Clearing` takes them, from the panel's parameters."""
    return {
        "trigger": params["trigger"],
        "clear_at_least": params["clear_at_least"],
        "keep": params["keep"],
        "clear_tool_inputs": params["clear_tool_inputs"],
        "exclude_tools": tuple(tool for tool in session().tools if params[exclude_name(tool)]),
        "placeholder": params["placeholder"],
    }


SettingKey = tuple[tuple[tuple[str, Any], ...], bool]


def setting_key(params: Params) -> SettingKey:
    """Everything a replay depends on: the setting's fields and the cache; not the timeline."""
    return tuple(setting_fields(params).items()), params["caching"]


def written(fields: dict[str, Any], caching: bool) -> str:
    """The code that computes the run, exactly as the panel calls the engine."""
    setting = ", ".join(f"{name}={fields[name]!r}" for name in FIELDS)
    return f"setting = Clearing({setting})\nrun = replay(lesson().session, setting, caching={caching})"


def setting_words(fields: dict[str, Any], caching: bool) -> str:
    """The setting in short, as a baseline names it: the fields that differ from LangChain's defaults, and the cache."""
    defaults = Clearing().fields
    changed = ", ".join(f"{name}={fields[name]!r}" for name in FIELDS if fields[name] != defaults[name])
    return f"Clearing({changed}), cache {'on' if caching else 'off'}"


@lru_cache(maxsize=32)
def outcome(fields: tuple[tuple[str, Any], ...], caching: bool) -> Run | Refused:
    """Build the setting as a reader's code would and replay the session, or return the refusal."""
    try:
        return replay(session(), Clearing(**dict(fields)), caching=caching, pricing=PRICING)
    except Refused as refused:
        return refused


@lru_cache(maxsize=2)
def clearing_off(caching: bool) -> Run:
    """The session with nothing ever cleared: the same for every setting."""
    return replay(session(), None, caching=caching, pricing=PRICING)


def run_of(params: Params) -> Run | Refused:
    return outcome(*setting_key(params))


# Words for numbers.


def units(price: float) -> str:
    """A price in input-price units, to the hundredth every price here is a whole number of (0.1 and 1.25 per token)."""
    return f"{price:,.2f}".rstrip("0").rstrip(".")


def percent(share: float) -> str:
    return f"{share:.0%}"


def results_words(ids: Sequence[str]) -> str:
    return ", ".join(ids) if ids else "none"


def call_words_of(call: ToolCall) -> str:
    """ "read_file with “src/billing/terms.py”"."""
    return f"{call.tool} with “{call.input}”"


def call_words(message: Message) -> str:
    """Each call of an agent message, with its input."""
    return "; ".join(call_words_of(call) for call in message.calls)


# Where the cache's read stops: the first block a request sends differently from the one before.


@dataclass(frozen=True)
class PrefixEnd:
    """The first block of a prompt the cache could not read, and why it differs from the previous prompt's."""

    block: str
    why: str


def prefix_end(previous: Prompt | None, prompt: Prompt) -> PrefixEnd | None:
    """Where the cached prefix of `prompt` ends (the engine's `first_change`), and why that block differs.

    None when the whole prompt was read (it cannot be, as each request adds the message before it).
    """
    if previous is None:
        return PrefixEnd(prompt.blocks[0].id, "the first request: nothing is cached yet")
    stop = first_change(previous.blocks, prompt.blocks)
    if stop is None:
        return None
    block = prompt.blocks[stop]
    was = next((before for before in previous.blocks if before.id == block.id), None)
    if was is None:
        why = "new since the previous request"
    elif block.cleared and not was.cleared:
        why = "cleared at this request; the previous request sent it whole"
    elif block.inputs_cleared != was.inputs_cleared:
        why = "its call's input is cleared at this request"
    else:
        why = "sent differently from the previous request"
    return PrefixEnd(block.id, why)


# The state of one request, as data.


def verdict_state(verdict: Verdict, newly: Sequence[str]) -> dict[str, Any]:
    return {
        "result": verdict.result,
        "tool": verdict.tool,
        "tokens": verdict.tokens,
        "rule": verdict.rule.name.lower(),
        "cleared": verdict.cleared,
        "cleared_at_this_request": verdict.result in newly,
    }


def request_state(request: Request, previous: Prompt | None, caching: bool) -> dict[str, Any]:
    answer = request.answer
    end = prefix_end(previous, request.prompt) if caching else None
    return {
        "request": request.number,
        "answer": answer.id,
        "called_again_for": answer.again,
        "calls": [{"id": call.id, "tool": call.tool, "input": call.input} for call in answer.calls],
        "prompt_tokens": request.prompt.tokens,
        "prompt_tokens_before_clearing": request.prompt.whole,
        "reclaimed": request.prompt.reclaimed,
        "results": [verdict_state(verdict, request.newly_cleared) for verdict in request.prompt.verdicts],
        "cleared": list(request.prompt.cleared),
        "newly_cleared": list(request.newly_cleared),
        "cache": {
            "read": request.cache.read,
            "written": request.cache.written,
            "uncached": request.cache.uncached,
            "price": request.cache.price,
        },
        "cache_read_stops_at": end.block if end else None,
        "unseen": list(request.unseen),
    }


def totals_state(totals: Totals, clearing: bool, caching: bool) -> dict[str, Any]:
    return {
        "clearing": clearing,
        "caching": caching,
        "requests": totals.requests,
        "calls_again": totals.calls_again,
        "sent": totals.sent,
        "read": totals.read,
        "written": totals.written,
        "uncached": totals.uncached,
        "hit_rate": totals.hit_rate,
        "price": totals.price,
    }


def results_of(run: Run, request: Request) -> list[Message]:
    """The results a call made again brought back: the tool messages answering its calls."""
    calls = {call.id for call in request.answer.calls}
    return [message for message in run.history if message.kind == "tool" and message.call is not None and message.call.id in calls]


def again_state(run: Run, request: Request) -> dict[str, Any]:
    results = results_of(run, request)
    return {
        "request": request.number,
        "for": request.answer.again,
        "calls": [{"id": call.id, "tool": call.tool, "input": call.input} for call in request.answer.calls],
        "results": [result.id for result in results],
        "result_tokens": sum(result.tokens for result in results),
    }


# The comparison the whole view reads from, once per setting.


@dataclass(frozen=True)
class Compared:
    """One of the three runs the totals compare: its heading and its run."""

    heading: str
    run: Run


@dataclass(frozen=True, eq=False)
class Replay:
    """A setting that stands, replayed with the cache as switched, beside clearing off and the cache switched the other way.

    Shared by the views of every position: their exports hold these very lists, so they are read, never changed.
    """

    caching: bool
    run: Run
    off: Run  # clearing off, the cache as switched
    switched: Run  # this setting, the cache switched the other way
    requests: list[dict[str, Any]]  # each request's exact state, in order
    again: list[dict[str, Any]]
    totals: dict[str, dict[str, Any]]
    totals_table: Markup
    again_list: Markup


def cache_words(caching: bool) -> str:
    return "cache on" if caching else "cache off"


@lru_cache(maxsize=8)  # a reader plays one setting at a time; a few more cover going back and forth
def replayed(fields: tuple[tuple[str, Any], ...], caching: bool) -> Replay | Refused:
    """The setting replayed three ways, with the record of the whole run, or the refusal."""
    run = outcome(fields, caching)
    if isinstance(run, Refused):
        return run
    switched = outcome(fields, not caching)
    assert isinstance(switched, Run)  # the same setting, which stood with the cache the other way
    off = clearing_off(caching)
    columns = (
        Compared(f"This setting, {cache_words(caching)}", run),
        Compared(f"Clearing off, {cache_words(caching)}", off),
        Compared(f"This setting, {cache_words(not caching)}", switched),
    )
    previous: list[Prompt | None] = [None, *(request.prompt for request in run.requests[:-1])]
    return Replay(
        caching=caching,
        run=run,
        off=off,
        switched=switched,
        requests=[request_state(request, before, caching) for request, before in zip(run.requests, previous, strict=True)],
        again=[again_state(run, request) for request in run.calls_again],
        totals={
            "this_setting": totals_state(run.totals, True, caching),
            "clearing_off": totals_state(off.totals, False, caching),
            "cache_switched": totals_state(switched.totals, True, not caching),
        },
        totals_table=totals_table(columns),
        again_list=again_list(run),
    )


# Words for the status and the baseline.


def whole_words(replay_: Replay) -> str:
    run, off, switched = replay_.run.totals, replay_.off.totals, replay_.switched.totals
    return (
        f"Whole session: {run.sent:,} tokens sent, {percent(run.hit_rate)} of them read from the cache, price {units(run.price)} "
        f"(clearing off: {units(off.price)}; {cache_words(not replay_.caching)}: {units(switched.price)}), in input-price units."
    )


def doing(request: Request, *, inputs: bool = False) -> str:
    """What the agent does in answer to `request` ("writes a8, calling update_plan"): its calls by tool, or with their inputs too."""
    answer = request.answer
    calls = call_words(answer) if inputs else ", ".join(call.tool for call in answer.calls)
    if answer.again is not None:
        return f"calls {calls} again, for {answer.again}, which needs a result clearing hid"
    if not answer.calls:
        return f"writes {answer.id}, calling no tool"
    return f"writes {answer.id}, calling {calls}"


def cleared_words(request: Request) -> str:
    prompt = request.prompt
    if not prompt.cleared:
        return "nothing cleared"
    count = len(prompt.cleared)
    words = f"{count} {'result' if count == 1 else 'results'} cleared"
    if request.newly_cleared:
        words += f", {results_words(request.newly_cleared)} at this request"
    return words


def status(replay_: Replay, time: int) -> str:
    run = replay_.run
    whole = whole_words(replay_)
    if time == 0:
        return f"Before the first model request. {whole}"
    if time > len(run.requests):
        return f"No request {time}: this setting's session ends at request {len(run.requests)}. {whole}"
    request = run.at(time)
    prompt, cache = request.prompt, request.cache
    if replay_.caching:
        met = f"the cache read {cache.read:,} and wrote {cache.written:,}"
    else:
        met = "the cache is off, so all of it is sent uncached"
    return (
        f"Request {request.number} of {len(run.requests)}: the agent {doing(request)}. {prompt.tokens:,} prompt tokens sent, "
        f"{prompt.whole:,} before clearing; {cleared_words(request)}; {met}. {whole}"
    )


def refused_status(refused: Refused) -> str:
    return f"The setting is refused (field {refused.name}), so nothing is replayed: a refused setting never runs."


def baseline_text(params: Params, result: Run | Refused) -> str:
    fields, caching = setting_fields(params), params["caching"]
    if isinstance(result, Refused):
        return f"{setting_words(fields, caching)}: refused"
    totals = result.totals
    return (
        f"{setting_words(fields, caching)}: {totals.requests} requests, {totals.sent:,} tokens sent, "
        f"{percent(totals.hit_rate)} read from the cache, price {units(totals.price)}"
    )


# The view.


def code(text: str) -> Markup:
    return h("pre", {"class": "lk-setting"}, h("code", {}, text))


@dataclass(frozen=True)
class Measure:
    """One row of the totals table: its name, and how a run's totals fill its cell."""

    name: str
    cell: Callable[[Totals], str]


MEASURES = (
    Measure("Model requests", lambda totals: str(totals.requests)),
    Measure("Calls made again", lambda totals: str(totals.calls_again)),
    Measure("Tokens sent", lambda totals: f"{totals.sent:,}"),
    Measure("Read from the cache", lambda totals: f"{totals.read:,}"),
    Measure("Written to the cache", lambda totals: f"{totals.written:,}"),
    Measure("Sent uncached", lambda totals: f"{totals.uncached:,}"),
    Measure("Cache hit rate", lambda totals: percent(totals.hit_rate)),
    Measure("Price (input-price units)", lambda totals: units(totals.price)),
)


def totals_table(columns: Sequence[Compared]) -> Markup:
    def cell(column: Compared) -> Callable[[Measure], str]:
        totals = column.run.totals
        return lambda measure: measure.cell(totals)

    named = Column("Over the session", lambda measure: measure.name)
    table = record_table(
        "The whole session, in teaching tokens",
        [named, *(Column(column.heading, cell(column), numeric=True) for column in columns)],
        MEASURES,
    )
    return h("div", {"class": "lk-totals"}, table)


def again_list(run: Run) -> Markup:
    calls = run.calls_again
    if not calls:
        return h("p", {"class": "lk-empty"}, "None: every result the agent needed was still in its prompt when it needed it.")
    items = []
    for request in calls:
        results = results_of(run, request)
        tokens = sum(result.tokens for result in results)
        later = next((after for after in run.requests[request.number :] if after.answer.id == request.answer.again), None)
        unseen = f" Even so, {later.answer.id} could not see it: its fresh copy was cleared too." if later and later.unseen else ""
        items.append(
            h(
                "li",
                {"class": "lk-again", "data-request": request.number},
                h("span", {"class": "lk-id"}, f"Request {request.number}"),
                " ",
                f"{call_words(request.answer)}, called again for {request.answer.again}, which needs what clearing hid; "
                f"{results_words([result.id for result in results])} brought back, {tokens:,} tokens once more.{unseen}",
            )
        )
    return h("ol", {"class": "lk-again-list"}, items)


def chart(replay_: Replay | None, now: int | None, baseline: Run | None, trigger: int | None, caching: bool) -> Markup:
    end = most_requests(session())
    run = replay_.run if replay_ is not None else None
    off = replay_.off if replay_ is not None else clearing_off(caching)
    series: list[Series] = []
    if run is not None:
        if caching:
            # Each line's name is written at its end, lower the higher its style: the read, which ends
            # under the write once clearing runs, takes the higher style, so the two names stay apart.
            series.append(Series("Cache write", tuple((r.number, r.cache.written) for r in run.requests), style=0))
            series.append(Series("Cache read", tuple((r.number, r.cache.read) for r in run.requests), style=1))
        else:
            series.append(Series("Uncached", tuple((r.number, r.cache.uncached) for r in run.requests), style=0))
    series.append(Series("Clearing off", tuple((r.number, r.prompt.tokens) for r in off.requests), style=2))
    if baseline is not None:
        free = next(style for style in range(4) if style not in {each.style for each in series})
        series.append(Series("Baseline", tuple((r.number, r.prompt.tokens) for r in baseline.requests), style=free))
    whole = max(r.prompt.whole for r in off.requests)
    rules = [Rule(trigger, f"trigger {trigger:,}")] if trigger is not None and trigger <= whole else []
    markers = [Marker(r.number, "again") for r in run.calls_again] if run is not None else []
    if run is None:
        described = f"Prompt tokens of each of the {len(off.requests)} model requests of the session with clearing off"
    elif caching:
        described = (
            f"Prompt tokens of each of this setting's {len(run.requests)} model requests, split into what the cache read and "
            f"what it wrote (nothing is sent uncached while the cache is on), beside the whole prompt of each of the "
            f"{len(off.requests)} requests with clearing off"
        )
    else:
        described = (
            f"Prompt tokens of each of this setting's {len(run.requests)} model requests, all sent uncached as the cache is off "
            f"(nothing is read or written), beside the whole prompt of each of the {len(off.requests)} requests with clearing off"
        )
    if rules:
        described += f"; the dashed line is the trigger, {trigger:,}, which clearing compares with the prompt before it clears"
    elif trigger is not None:
        described += f"; the trigger, {trigger:,}, is above every prompt, so clearing never runs"
    if markers:
        described += "; a vertical line marks each request in which the agent calls a tool again because clearing hid its result"
    if baseline is not None:
        described += "; the captured baseline's prompts as sent are drawn too"
    return line_chart(
        "Prompt tokens per model request",
        described + ". Teaching tokens.",
        x_label="Model request",
        y_label="Prompt tokens (teaching)",
        series=series,
        x_ticks=[(number, str(number)) for number in range(1, end + 1)],
        rules=rules,
        markers=markers,
        now=now,
        # A tick per request and each line's name at its end: on a phone the chart scrolls rather than shrinks.
        wide=True,
    )


def fate(verdict: Verdict, request: Request, fields: dict[str, Any]) -> str:
    if not verdict.cleared:
        return f"whole, {verdict.tokens:,} tokens"
    placeholder = fields["placeholder"]
    words = f"“{placeholder}”, {placeholder_tokens(placeholder):,} tokens"
    if fields["clear_tool_inputs"]:
        words += ", its call's input cleared too"
    if verdict.result in request.newly_cleared:
        words += "; cleared at this request"
    return words


def why(verdict: Verdict, request: Request, fields: dict[str, Any]) -> str:
    keep = fields["keep"]
    newest = "the newest result" if keep == 1 else f"one of the newest {keep}"
    older = "keep is 0" if keep == 0 else ("older than the newest result" if keep == 1 else f"older than the newest {keep}")
    return RULE_WORDS[verdict.rule.name].format(
        rule=verdict.rule.value, whole=request.prompt.whole, tool=verdict.tool, newest=newest, older=older, **fields
    )


def verdicts_table(run: Run, request: Request, fields: dict[str, Any]) -> Markup:
    calls = {message.id: message.call for message in run.history if message.kind == "tool"}

    def call(verdict: Verdict) -> Markup:
        made = calls[verdict.result]
        assert made is not None  # every tool result answers a call (the fixture checks it)
        return join([h("code", {}, made.tool), " ", h("span", {"class": "lk-input"}, made.input)])

    table = record_table(
        f"Every tool result in request {request.number}'s prompt, and the rule that decided it",
        [
            Column("Result", lambda verdict: h("span", {"class": "lk-id"}, verdict.result)),
            Column("Call", call),
            Column("Sent as", lambda verdict: fate(verdict, request, fields)),
            Column("Why", lambda verdict: why(verdict, request, fields)),
        ],
        request.prompt.verdicts,
        row_attributes=lambda verdict: {
            "data-id": verdict.result,
            "data-rule": verdict.rule.name.lower(),
            "class": ["lk-cleared", "lk-newly" if verdict.result in request.newly_cleared else ""] if verdict.cleared else None,
        },
        empty="No tool result yet: the agent has called no tool before this request.",
    )
    return h("div", {"class": "lk-verdicts"}, table)


def request_findings(replay_: Replay, request: Request) -> Markup:
    prompt, cache = request.prompt, request.cache
    items = [
        ("The agent", doing(request, inputs=True)),
        ("Prompt sent", f"{prompt.tokens:,} tokens; {prompt.whole:,} before clearing, {prompt.reclaimed:,} reclaimed"),
        ("Cleared", f"{results_words(prompt.cleared)}; at this request: {results_words(request.newly_cleared)}"),
    ]
    if replay_.caching:
        items.append(("Cache", f"read {cache.read:,}, written {cache.written:,}, uncached {cache.uncached:,}"))
        previous = replay_.run.requests[request.number - 2].prompt if request.number > 1 else None
        end = prefix_end(previous, prompt)
        if end is not None:
            items.append(("The cache read stops at", f"{end.block}: {end.why}"))
    else:
        items.append(("Cache", f"off: all {cache.uncached:,} tokens sent uncached, at the full input price"))
    items.append(("Price", f"{units(cache.price)} input-price units"))
    if request.unseen:
        unseen = "; ".join(f"{call_id} ({call_words_of(session().call(call_id))})" for call_id in request.unseen)
        items.append(("Could not see", f"the result of {unseen}: cleared, even the copy called again"))
    return findings(items)


def state_details(label: str, state: Any) -> Markup:
    return h("details", {"class": "lk-state"}, h("summary", {}, label), h("pre", {}, h("code", {}, json.dumps(state, indent=2))))


def units_note() -> Markup:
    return h(
        "p",
        {"class": "lk-units"},
        "Tokens are the lesson's teaching tokens, not a tokenizer's. A price is in input-price units: an uncached input token "
        f"costs 1, a cache read {PRICING.read:g} and a cache write {PRICING.write:g}, Anthropic's multipliers for a five-minute cache.",
    )


def request_at(run: Run, time: float) -> Request | None:
    number = int(time)  # request n is the mark at n on the timeline; the view only ever gets a mark
    return run.at(number) if 1 <= number <= len(run.requests) else None


def draw(params: Params, baseline: Params | None) -> View:
    fields, caching = setting_fields(params), params["caching"]
    result = replayed(*setting_key(params))
    captured = run_of(baseline) if baseline is not None else None
    captured_run = captured if isinstance(captured, Run) else None
    time = int(params["time"])
    setting = {**fields, "exclude_tools": list(fields["exclude_tools"])}
    inspection = {"timeline": params["time"]}

    if isinstance(result, Refused):
        refusal = {"field": result.name, "message": str(result)}
        html = join(
            [
                h("h3", {"class": "lk-heading"}, "The setting as written"),
                code(written(fields, caching)),
                h("p", {"class": "lk-empty"}, "Nothing to replay: the setting is refused."),
                chart(None, None, captured_run, None, caching),
            ]
        )
        return View(
            status=refused_status(result),
            html=html,
            baseline=baseline_text(params, result),
            state={"setting": setting, "caching": caching, "refusal": refusal},
            export={"lesson": LESSON, "setting": setting, "caching": caching, "written": written(fields, caching), "refusal": refusal},
            refusal=str(result),
        )

    run = result.run
    request = request_at(run, time)
    if request is not None:
        heading = f"Request {request.number} of {len(run.requests)}"
        inspected = join([request_findings(result, request), verdicts_table(run, request, fields)])
        state = result.requests[request.number - 1]
    elif time == 0:
        heading = "Before the first model request"
        inspected = h("p", {"class": "lk-empty"}, "No model request yet: play the session, or move the timeline to a request.")
        state = {"request": None}
    else:
        heading = f"No request {time}"
        inspected = h("p", {"class": "lk-empty"}, f"This setting's session ends at request {len(run.requests)}.")
        state = {"request": None}
    html = join(
        [
            h("h3", {"class": "lk-heading"}, "The setting as written"),
            code(written(fields, caching)),
            result.totals_table,
            units_note(),
            chart(result, time if request is not None else None, captured_run, fields["trigger"], caching),
            h("h3", {"class": "lk-heading"}, heading),
            inspected,
            h("h3", {"class": "lk-heading"}, f"Calls made again because clearing hid a result ({len(run.calls_again)})"),
            result.again_list,
            state_details("Exact state JSON of this request", state),
        ]
    )
    inspection["request"] = request.number if request else None
    return View(
        status=status(result, time),
        html=html,
        baseline=baseline_text(params, run),
        state=state,
        export={
            "lesson": LESSON,
            "model": MODEL,
            "setting": setting,
            "caching": caching,
            "pricing": {"read": PRICING.read, "write": PRICING.write},
            "written": written(fields, caching),
            "totals": result.totals,
            "requests": result.requests,
            "calls_again": result.again,
            # Kept apart from the run: where the reader was looking is not part of it.
            "inspection": inspection,
        },
    )


# What the model reads in the request shown, for a count in real tokens.


def prompt_texts(run: Run, request: Request, placeholder: str) -> tuple[list[str], int, int]:
    """The texts of a request's prompt as sent, after clearing: each message's text, or the
    placeholder of a cleared result, and after an agent message the inputs of its calls that are
    not cleared. With how many messages and how many inputs they hold."""
    sent = {block.id: block for block in request.prompt.blocks}
    texts, inputs = [], 0
    messages = run.history[: request.position]
    for message in messages:
        block = sent[message.id]
        texts.append(placeholder if block.cleared else message.text)
        for call in message.calls:
            if call.id not in block.inputs_cleared:
                texts.append(call.input)
                inputs += 1
    return texts, len(messages), inputs


def _untexted(request: Request) -> str:
    """What the prompt weighs without text to count: the system prompt with the tool definitions,
    and every result sent whole beyond its gist."""
    said = (
        f" The system prompt and the tool definitions weigh {session().system_tokens:,} teaching tokens but have no text"
        " in this fixture, so the real count leaves them out."
    )
    if any(not verdict.cleared for verdict in request.prompt.verdicts):
        said += " A result sent whole is counted by its gist, all the fixture holds of it, while the lesson weighs the whole result."
    return said


def reads(params: Params) -> Reading:
    """What the model reads in the request the timeline shows: its prompt as sent, after clearing,
    weighed as the panel weighs the prompt sent.

    Raises:
        lessonkit.checks.Refused: The setting is refused, as its view says: a refused setting never
            runs, so its model reads nothing.
    """
    result = replayed(*setting_key(params))
    if isinstance(result, Refused):
        raise result.with_traceback(None)  # one kept refusal, raised afresh for each reading
    run, time = result.run, int(params["time"])
    request = request_at(run, time)
    if request is None:
        what = (
            "the words sent to the model before its first request (none yet)"
            if time == 0
            else f"request {time} (this setting's session ends at request {len(run.requests)})"
        )
        return Reading(what=what, texts=(), teaching=0)
    texts, messages, inputs = prompt_texts(run, request, params["placeholder"])
    where = f"sent at request {request.number} of {len(run.requests)}"
    cleared = len(request.prompt.cleared)
    if cleared:
        where += f" ({cleared} cleared {'result' if cleared == 1 else 'results'} as the placeholder)"
    if len(texts) == 1:
        what = f"the one message {where}"
    else:
        counted = f"{messages} {'message' if messages == 1 else 'messages'}"
        if inputs:
            counted += f" and {inputs} tool {'input' if inputs == 1 else 'inputs'}"
        what = f"the {counted} {where}"
    return Reading(what=what, texts=tuple(texts), teaching=request.prompt.tokens, untexted=_untexted(request))


def _controls() -> tuple[Any, ...]:
    start = lesson().presets[START]
    tools = session().tools
    controls: list[Any] = [
        Number("trigger", "Trigger", 0, MOST_TOKENS, start.trigger, unit="tokens"),
        Number("clear_at_least", "Clear at least", 0, MOST_TOKENS, start.clear_at_least, unit="tokens"),
        Number("keep", "Keep", 0, most_results(session()), start.keep, unit="results"),
        Choice("placeholder", "Placeholder", tuple(Option(text, text) for text in PLACEHOLDERS), start.placeholder),
        Toggle("clear_tool_inputs", "Clear tool inputs", start.clear_tool_inputs),
        *(Toggle(exclude_name(tool), f"Exclude {tool}", tool in start.exclude_tools) for tool in tools),
        Toggle("caching", "Prompt cache", True),
    ]
    return tuple(controls)


def _panel() -> Panel:
    end = most_requests(session())
    return Panel(
        lesson=LESSON,
        title="Clearing old tool results",
        controls=_controls(),
        timeline=Timeline.over_model_requests(tuple(Mark(number, f"Request {number}", str(number)) for number in range(1, end + 1))),
        playback=Playback.by_model_request(),
        draw=draw,
        reads=reads,
        words=Words(export="Export run JSON", export_file="tool-result-clearing-run.json"),
        stylesheet="lessons/tool-result-clearing.css",
    )


PANEL = _panel()
