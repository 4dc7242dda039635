"""The context compaction lesson's panel: a `Compaction` setting written field by field, and the session it compacts.

Each of the four fields is a checkbox that writes it into the setting or leaves it out, and a
number, both named by the field, so ``overlap=0`` and an omitted overlap stay two settings. The
setting is built exactly as a reader's code would build it: `Compaction(...)`, then the manifest,
then the pod's start, so a refusal is the engine's own, in its own words. A setting that stands is
replayed over the lesson's support session, one model request per mark of the timeline.

Moving along the timeline changes only which request is inspected, so what reads the same at every
position (where each summary was written, the record of the whole run, the table of checks) is
worked out once per setting, in a `Replay`, and shared by the views of every position.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import lru_cache
from typing import Any

from lessonkit.lessons.context_compaction import (
    BEFORE_REQUEST,
    Compaction,
    Decision,
    Entry,
    Event,
    Manifest,
    Refusal,
    Request,
    Run,
    Summary,
    lesson,
    simulate,
    start,
)
from lessonkit.panel import Choice, Mark, Number, Option, Panel, Params, Playback, Timeline, Toggle, View, Words
from lessonkit.panel.chart import Marker, Rule, Series, line_chart
from lessonkit.panel.components import Column, findings, record_table
from lessonkit.panel.html import Markup, h, join
from lessonkit.panel.reading import Reading

LESSON = "context-compaction"
# The package the manifest belongs to: a summarizer path with a leading dot is relative to it.
PACKAGE = "lessonkit.lessons.context_compaction"
# The rule-based summarizer, named as a manifest names its own: a dotted path the pod imports when it starts.
RULE_BASED_PATH = ".summarizers.terse"
SUMMARIZER_PATHS = {"model": "", "terse": RULE_BASED_PATH}
SUMMARIZER_LABELS = {"model": "The agent's model", "terse": "Rule-based (Terse)"}
SUMMARIZER_WORDS = {"model": "the agent's model", "terse": "the rule-based summarizer"}  # by the summarizer's name
MANIFESTS = {"agent": "Agent", "workflow": "Workflow"}
MOMENTS = {"build": "the manifest is built", "start": "the pod starts"}


@dataclass(frozen=True)
class Field:
    """One field of the setting: its checkbox and its number share the field's name."""

    name: str
    least: int  # what the number input accepts; the setting itself may refuse more (after_tokens=0)
    most: int
    unit: str

    @property
    def toggle(self) -> str:
        return f"set_{self.name}"


FIELDS = (
    Field("after_tokens", 0, 100_000, "tokens"),
    Field("keep_recent_events", 0, 48, "events"),
    Field("after_invocations", 0, 24, "turns"),
    Field("overlap", 0, 12, "turns"),
)


# The setting as a reader writes it, and what it comes to.


def setting_fields(params: Params) -> dict[str, int | None]:
    """The four fields as the setting receives them: a number, or None when the checkbox leaves it out."""
    return {field.name: params[field.name] if params[field.toggle] else None for field in FIELDS}


def written(params: Params) -> str:
    """The manifest as code, exactly as the panel builds it."""
    arguments = [f"{name}={value}" for name, value in setting_fields(params).items() if value is not None]
    if params["summarizer"] != "model":
        arguments.append(f"summarizer={SUMMARIZER_PATHS[params['summarizer']]!r}")
    return f'Manifest("{params["manifest"]}", "{PACKAGE}", compaction=Compaction({", ".join(arguments)}))'


@lru_cache(maxsize=64)
def outcome(fields: tuple[tuple[str, int | None], ...], summarizer: str, manifest: str) -> Run | Refusal:
    """Build the setting, the manifest and the pod as a reader's code would; replay the session, or return the refusal."""
    try:
        compaction = Compaction(**dict(fields), summarizer=SUMMARIZER_PATHS[summarizer])
        pod = start(Manifest(manifest, PACKAGE, compaction=compaction))
    except Refusal as refusal:
        return refusal
    return simulate(compaction, pod.summarizer)


def setting_key(params: Params) -> tuple[tuple[tuple[str, int | None], ...], str, str]:
    """Everything a replay depends on: the four fields, the summarizer and the manifest; not the timeline."""
    return tuple(setting_fields(params).items()), params["summarizer"], params["manifest"]


def run_of(params: Params) -> Run | Refusal:
    return outcome(*setting_key(params))


@lru_cache(maxsize=1)
def uncompacted() -> Run:
    """A run to read the session's uncompacted prompts from, when no setting stands: any run has them."""
    return simulate(lesson().presets["by-size"])


def totals(run: Run) -> str:
    calls = "call" if run.summarizer_calls == 1 else "calls"
    return f"{run.summarizer_calls} summarizer {calls}; {run.tokens_sent:,} tokens sent with compaction, {run.tokens_without:,} without"


# Where each summary was written: between two model requests.


def after_request(run: Run, decision: Decision) -> int:
    """The number of the last model request before `decision` was made (0 before the first)."""
    moment = decision.moment
    if moment.when == BEFORE_REQUEST:
        return moment.number - 1
    return max(request.number for request in run.requests if request.turn == moment.number)


def written_between(run: Run, placed: tuple[int, ...]) -> dict[int, list[Summary]]:
    """The summaries written after each request and before the next, by the next one's number, in the order written.

    `placed` is `after_request` of each of the run's decisions. Both are worked out once per run:
    placing every check again for every request of every view made a view's cost grow with the cube
    of the session's length.
    """
    written: dict[int, list[Summary]] = {}
    for decision, after in zip(run.decisions, placed, strict=True):
        if decision.summary is not None:
            written.setdefault(after + 1, []).append(decision.summary)
    return written


def span_words(summary: Summary) -> str:
    return f"{summary.covered[0]}–{summary.covered[-1]}"


# The state of one request, as data.


def entry_state(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, Summary):
        return {
            "id": entry.id,
            "role": entry.role,
            "kind": "summary",
            "tokens": entry.tokens,
            "by": entry.by,
            "covers": list(entry.covered),
            "keeps": list(entry.keeps),
        }
    return {"id": entry.id, "role": entry.role, "kind": entry.kind, "tokens": entry.tokens, "turn": entry.turn}


def decision_state(decision: Decision, after: int) -> dict[str, Any]:
    return {
        "moment": str(decision.moment),
        "after_request": after,
        "trigger": decision.trigger,
        "fired": decision.fired,
        "reading": decision.reading,
        "estimated": decision.estimated,
        "span": list(decision.span),
        "summarizer_called": decision.called,
        "summary": decision.summary.id if decision.summary else None,
        "reason": decision.reason,
    }


def request_state(request: Request, written_just_before: list[Summary]) -> dict[str, Any]:
    return {
        "request": request.number,
        "turn": request.turn,
        "answers_with": request.answer,
        "seen": [entry_state(entry) for entry in request.seen],
        "attached": [{"name": file.name, "tokens": file.tokens} for file in request.attached],
        "prompt_tokens": request.prompt,
        "prompt_tokens_without_compaction": request.uncompacted,
        "written_just_before": [summary.id for summary in written_just_before],
    }


def summary_state(placed: tuple[int, ...], run: Run, summary: Summary) -> dict[str, Any]:
    decision, after = next((d, after) for d, after in zip(run.decisions, placed, strict=True) if d.summary is summary)
    return {**entry_state(summary), "written": str(decision.moment), "after_request": after}


@dataclass(frozen=True, eq=False)
class Replay:
    """A setting that stands, replayed, and what every position of its timeline reads from the run alike.

    Shared by the views of every position: their exports hold these very lists, so they are read, never changed.
    """

    run: Run
    placed: tuple[int, ...]  # after which model request each decision was made
    written: dict[int, list[Summary]]  # the summaries written just before each request, by its number
    requests: list[dict[str, Any]]  # each request's exact state, in order
    summaries: list[dict[str, Any]]
    checks: list[dict[str, Any]]
    checks_table: Markup
    by_id: dict[str, Entry]  # every entry of the run's log, by id
    rows: dict[str, Markup] = dataclass_field(default_factory=dict)  # the seen list's rows, drawn as first asked for

    def drawn_row(self, entry: Entry) -> Markup:
        """An entry of the log as the seen list draws it, drawn once: each request sees most of what
        the one before it saw, and shows it alike (a summary's lines too, from the same log)."""
        row = self.rows.get(entry.id)
        if row is None:
            row = self.rows[entry.id] = seen_row(entry, self.by_id)
        return row


@lru_cache(maxsize=8)  # a reader plays one setting at a time; a few more cover going back and forth between two
def replay(fields: tuple[tuple[str, int | None], ...], summarizer: str, manifest: str) -> Replay | Refusal:
    """The setting replayed, with the record of the whole run, or the refusal."""
    run = outcome(fields, summarizer, manifest)
    if isinstance(run, Refusal):
        return run
    placed = tuple(after_request(run, decision) for decision in run.decisions)
    written = written_between(run, placed)
    return Replay(
        run=run,
        placed=placed,
        written=written,
        requests=[request_state(request, written.get(request.number, [])) for request in run.requests],
        summaries=[summary_state(placed, run, summary) for summary in run.summaries],
        checks=[decision_state(decision, after) for decision, after in zip(run.decisions, placed, strict=True)],
        checks_table=checks_table(run),
        by_id={entry.id: entry for entry in run.log},
    )


# Words for the status and the baseline.


def status(replay: Replay, request: Request | None) -> str:
    run = replay.run
    whole = f"Whole session: {totals(run)}."
    if request is None:
        return f"Before the first model request. {whole}"
    summaries = sum(isinstance(entry, Summary) for entry in request.seen)
    raw = len(request.seen) - summaries
    parts = [f"{summaries} {'summary' if summaries == 1 else 'summaries'}"] if summaries else []
    parts.append(f"{raw} raw {'event' if raw == 1 else 'events'}")
    files = f", with {', '.join(file.name for file in request.attached)} attached" if request.attached else ""
    new = replay.written.get(request.number, [])
    just = f" Written just before it: {', '.join(f'{s.id} of {span_words(s)}' for s in new)}." if new else ""
    return (
        f"Request {request.number} of {len(run.requests)}, turn {request.turn}: the model sees {' and '.join(parts)}{files}; "
        f"{request.prompt:,} prompt tokens, {request.uncompacted:,} without compaction.{just} {whole}"
    )


def refused_status(refusal: Refusal) -> str:
    return (
        f"The setting is refused when {MOMENTS[refusal.moment]} (field {refusal.field}), so what the model "
        "would see is nothing new: a refused setting never runs."
    )


def setting_words(params: Params) -> str:
    """The setting in short, as a baseline names it: its fields, and the manifest when it is a workflow's."""
    fields = ", ".join(f"{name}={value}" for name, value in setting_fields(params).items() if value is not None)
    return f"Compaction({fields})" + (" on a workflow" if params["manifest"] == "workflow" else "")


def baseline_text(params: Params, result: Run | Refusal) -> str:
    if isinstance(result, Refusal):
        return f"{setting_words(params)}: refused when {MOMENTS[result.moment]}"
    return f"{setting_words(params)}, {SUMMARIZER_WORDS[result.summarizer]}: {totals(result)}"


# The view.


def code(text: str) -> Markup:
    return h("pre", {"class": "lk-setting"}, h("code", {}, text))


def chart(replay: Replay | None, request: Request | None, baseline: Run | None, threshold: int | None) -> Markup:
    session = lesson()
    run = replay.run if replay is not None else None
    reference = run or baseline or uncompacted()
    series = []
    if run is not None:
        series.append(Series("With compaction", tuple((r.number, r.prompt) for r in run.requests)))
    series.append(Series("Without compaction", tuple((r.number, r.uncompacted) for r in reference.requests), style=1))
    if baseline is not None:
        series.append(Series("Baseline", tuple((r.number, r.prompt) for r in baseline.requests), style=2))
    rules = [Rule(threshold, f"after_tokens {threshold:,}")] if threshold is not None else []
    markers = []
    if replay is not None:
        markers = [Marker(after + 0.5, d.summary.id) for d, after in zip(replay.run.decisions, replay.placed, strict=True) if d.summary]
    compared = "with this setting, beside the same session without compaction" if run is not None else "of the session without compaction"
    described = (
        f"Prompt tokens of each of the {len(reference.requests)} model requests {compared}, "
        f"the {session.attachments[0].name} file included while it is attached"
    )
    if threshold is not None:
        described += f"; the line at {threshold:,} is after_tokens"
    if markers:
        described += "; a dotted vertical line marks each summary written, between the requests it fell between"
    if baseline is not None:
        described += "; the captured baseline's prompts are drawn dotted with triangles"
    return line_chart(
        "Prompt tokens per model request",
        described + ".",
        x_label="Model request",
        y_label="Prompt tokens (teaching)",
        series=series,
        x_ticks=[(r.number, str(r.number)) for r in reference.requests],
        rules=rules,
        markers=markers,
        now=request.number if request else None,
    )


def said_by(event: Event) -> str:
    return "user" if event.kind == "user" else lesson().agent


def summary_lines(summary: Summary, by_id: dict[str, Entry]) -> Markup:
    """What a summary holds: the rule-based one's lines, or what the agent's model stand-in carries."""
    if summary.by == "terse":
        lines = []
        for kept in summary.keeps:
            entry = by_id[kept]
            if isinstance(entry, Summary):  # an earlier summary goes in whole, as its lines
                lines.append(h("li", {"class": "lk-carried"}, f"{entry.id}, carried whole:", summary_lines(entry, by_id)))
            else:
                lines.append(h("li", {}, f"{said_by(entry)}: {entry.text}"))
        return h("ul", {"class": "lk-summary-lines"}, lines)
    return h(
        "p",
        {"class": "lk-text"},
        "No text: the stand-in for the agent's model calls no model. It is sized from what it read, and carries the requests ",
        ", ".join(summary.keeps),
        ".",
    )


def seen_row(entry: Entry, by_id: dict[str, Entry]) -> Markup:
    if isinstance(entry, Summary):
        return h(
            "li",
            {"class": ["lk-seen", "lk-summary"], "data-id": entry.id},
            h("span", {"class": "lk-id"}, entry.id),
            " ",
            h("span", {"class": "lk-kind"}, f"summary by {SUMMARIZER_WORDS[entry.by]}"),
            " ",
            h("span", {"class": "lk-tokens"}, f"{entry.tokens:,} tokens"),
            " ",
            h("span", {"class": "lk-covers"}, f"stands in for {span_words(entry)} ({len(entry.covered)} events)"),
            summary_lines(entry, by_id),
        )
    return h(
        "li",
        {"class": ["lk-seen", f"lk-kind-{entry.kind}"], "data-id": entry.id},
        h("span", {"class": "lk-id"}, entry.id),
        " ",
        h("span", {"class": "lk-kind"}, f"{entry.kind.replace('_', ' ')}, turn {entry.turn}"),
        " ",
        h("span", {"class": "lk-tokens"}, f"{entry.tokens:,} tokens"),
        h("span", {"class": "lk-text"}, entry.text),
    )


def seen_list(replayed: Replay, request: Request | None) -> Markup:
    if request is None:
        return h("p", {"class": "lk-empty"}, "No model request yet: play the session, or move the timeline to a request.")
    files = [
        h(
            "li",
            {"class": ["lk-seen", "lk-attached"], "data-id": file.name},
            h("span", {"class": "lk-id"}, file.name),
            " ",
            h("span", {"class": "lk-kind"}, "attached file"),
            " ",
            h("span", {"class": "lk-tokens"}, f"{file.tokens:,} tokens"),
            h("span", {"class": "lk-text"}, "Sent in full with this request, because its name is in what the model sees."),
        )
        for file in request.attached
    ]
    return h("ol", {"class": "lk-seen-list"}, [replayed.drawn_row(entry) for entry in request.seen], files)


def checks_table(run: Run) -> Markup:
    def reading(decision: Decision) -> str:
        if decision.reading is None:
            return "–"
        if decision.trigger == "turns":
            return f"{decision.reading} new turns"
        return f"{decision.reading:,} tokens" + (" (estimated)" if decision.estimated else "")

    return record_table(
        "Every trigger check of the session",
        [
            Column("Moment", lambda d: str(d.moment)),
            Column("Trigger", lambda d: d.trigger),
            Column("Read", reading, numeric=True),
            Column("Fired", lambda d: "yes" if d.fired else "no"),
            Column("What came of it", lambda d: d.reason),
        ],
        run.decisions,
        row_attributes=lambda d: {"data-summary": d.summary.id if d.summary else None, "class": "lk-fired" if d.fired else None},
    )


def counters(run: Run, request: Request | None) -> Markup:
    read = f"{run.summarizer_tokens:,} tokens" if run.reads_span else "none: it calls no model"
    items = [
        ("Summarizer calls", str(run.summarizer_calls)),
        ("Tokens sent with compaction", f"{run.tokens_sent:,}"),
        ("Tokens sent without compaction", f"{run.tokens_without:,}"),
        ("Read by the summarizer", read),
    ]
    if request is not None:
        items.append(("This request's prompt", f"{request.prompt:,} tokens ({request.uncompacted:,} without compaction)"))
    return findings(items)


def state_details(label: str, state: Any) -> Markup:
    return h("details", {"class": "lk-state"}, h("summary", {}, label), h("pre", {}, h("code", {}, json.dumps(state, indent=2))))


def request_at(run: Run, time: float) -> Request | None:
    number = int(time)  # request n is the mark at n on the timeline; the view only ever gets a mark
    return run.request(number) if number >= 1 else None


def draw(params: Params, baseline: Params | None) -> View:
    replayed = replay(*setting_key(params))
    result = replayed.run if isinstance(replayed, Replay) else replayed
    captured = run_of(baseline) if baseline is not None else None
    captured_run = captured if isinstance(captured, Run) else None
    fields = setting_fields(params)
    threshold = fields["after_tokens"] if isinstance(result, Run) else None
    setting = {**fields, "summarizer": SUMMARIZER_PATHS[params["summarizer"]], "manifest": params["manifest"]}
    inspection = {"time_s": params["time"]}

    if isinstance(result, Refusal):
        refusal = {"field": result.field, "moment": result.moment, "message": str(result)}
        html = join(
            [
                h("h3", {"class": "lk-heading"}, "The setting as written"),
                code(written(params)),
                h("p", {"class": "lk-empty"}, f"Nothing to replay: the setting is refused when {MOMENTS[result.moment]}."),
                chart(None, None, captured_run, None),
            ]
        )
        return View(
            status=refused_status(result),
            html=html,
            baseline=baseline_text(params, result),
            state={"setting": setting, "refusal": refusal},
            export={"lesson": LESSON, "setting": setting, "written": written(params), "refusal": refusal, "inspection": inspection},
            refusal=str(result),
        )

    request = request_at(result, params["time"])
    state = replayed.requests[request.number - 1] if request else {"request": None}
    html = join(
        [
            h("h3", {"class": "lk-heading"}, "The setting as written"),
            code(written(params)),
            counters(result, request),
            chart(replayed, request, captured_run, threshold),
            h("h3", {"class": "lk-heading"}, f"What the model sees at request {request.number}" if request else "What the model sees"),
            seen_list(replayed, request),
            h(
                "details",
                {"class": "lk-checks"},
                h("summary", {}, f"Every trigger check of the session ({len(result.decisions)})"),
                replayed.checks_table,
            ),
            state_details("Exact state JSON of this request", state),
        ]
    )
    inspection["request"] = request.number if request else None
    return View(
        status=status(replayed, request),
        html=html,
        baseline=baseline_text(params, result),
        state=state,
        export={
            "lesson": LESSON,
            "model": (
                "teaching tokens are fixed weights from the fixture, not tokenizer output; no model is called, and the "
                "agent's model is a stand-in whose summary is a fixed fifth of what it reads, at least 40 tokens"
            ),
            "setting": setting,
            "written": written(params),
            "summarizer": result.summarizer,
            "totals": {
                "summarizer_calls": result.summarizer_calls,
                "summarizer_read_tokens": result.summarizer_tokens,
                "tokens_sent": result.tokens_sent,
                "tokens_without_compaction": result.tokens_without,
            },
            "requests": replayed.requests,
            "summaries": replayed.summaries,
            "checks": replayed.checks,
            # Kept apart from the run: where the reader was looking is not part of it.
            "inspection": inspection,
        },
    )


# What the model reads at the request shown, for a count in real tokens.


def summary_said(summary: Summary, by_id: dict[str, Entry]) -> list[str]:
    """The rule-based summary's lines, as the seen list shows them: who said what, and an earlier
    summary it carries whole as that summary's own lines."""
    lines: list[str] = []
    for kept in summary.keeps:
        entry = by_id[kept]
        lines.extend(summary_said(entry, by_id) if isinstance(entry, Summary) else [f"{said_by(entry)}: {entry.text}"])
    return lines


def _many(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _untexted(request: Request) -> str:
    """What the request's prompt weighs without text to count: the attached file, a summary by the
    agent's model, which its stand-in writes without words, and every tool answer beyond its gist."""
    said = []
    if request.attached:
        one = len(request.attached) == 1
        names = " and ".join(file.name for file in request.attached)
        weight = sum(file.tokens for file in request.attached)
        said.append(
            f" The attached {names} {'weighs' if one else 'weigh'} {weight:,} teaching tokens but {'has' if one else 'have'}"
            f" no text in this fixture, so the real count leaves {'it' if one else 'them'} out."
        )
    wordless = [entry for entry in request.seen if isinstance(entry, Summary) and entry.by != "terse"]
    if wordless:
        one = len(wordless) == 1
        weight = sum(summary.tokens for summary in wordless)
        said.append(
            f" The {'summary' if one else 'summaries'} {', '.join(summary.id for summary in wordless)} by {SUMMARIZER_WORDS['model']}"
            f" {'weighs' if one else 'weigh'} {weight:,} teaching tokens but {'has' if one else 'have'} no text, as its stand-in"
            f" calls no model, so the real count leaves {'it' if one else 'them'} out."
        )
    if any(isinstance(entry, Event) and entry.kind == "tool_response" for entry in request.seen):
        said.append(" A tool's answer is counted by its gist, all the fixture holds of it, while the lesson weighs the whole answer.")
    return "".join(said)


def reads(params: Params) -> Reading:
    """What the model reads in the request the timeline shows: the texts of what it sees, in order,
    weighed as the request's prompt, the attached file included.

    Raises:
        lessonkit.lessons.context_compaction.Refusal: The setting is refused, as its view says: a
            refused setting never runs, so its model reads nothing.
    """
    replayed = replay(*setting_key(params))
    if isinstance(replayed, Refusal):
        raise replayed.with_traceback(None)  # one kept refusal, raised afresh for each reading
    run = replayed.run
    request = request_at(run, params["time"])
    if request is None:
        return Reading(what="the words sent to the model before its first request (none yet)", texts=(), teaching=0)
    texts, summaries, raw = [], 0, 0
    for entry in request.seen:
        if isinstance(entry, Event):
            texts.append(entry.text)
            raw += 1
        elif entry.by == "terse":
            texts.append("\n".join(summary_said(entry, replayed.by_id)))
            summaries += 1
    where = f"the model sees at request {request.number} of {len(run.requests)}"
    if not texts:
        what = f"the texts {where} (there are none)"
    elif len(texts) == 1:
        what = f"the one {'summary' if summaries else 'raw event'} {where}"
    else:
        counted = [_many(summaries, "summary", "summaries")] if summaries else []
        counted += [_many(raw, "raw event", "raw events")] if raw else []
        what = f"the {' and '.join(counted)} {where}"
    return Reading(what=what, texts=tuple(texts), teaching=request.prompt, untexted=_untexted(request))


def _controls() -> tuple[Any, ...]:
    presets = lesson().presets
    by_size, by_turns = presets["by-size"], presets["by-turns"]
    controls: list[Any] = []
    for field in FIELDS:
        preset = by_size if getattr(by_size, field.name) is not None else by_turns
        controls.append(Toggle(field.toggle, field.name, default=preset is by_size, enables=(field.name,)))
        controls.append(Number(field.name, field.name, field.least, field.most, getattr(preset, field.name), unit=field.unit))
    controls.append(Choice("summarizer", "Summarizer", tuple(Option(k, v) for k, v in SUMMARIZER_LABELS.items()), "model"))
    controls.append(Choice("manifest", "Manifest", tuple(Option(k, v) for k, v in MANIFESTS.items()), "agent"))
    return tuple(controls)


def _panel() -> Panel:
    models = [event for event in lesson().events if event.role == "model"]  # every tool call and reply is one request
    total = len(models)
    return Panel(
        lesson=LESSON,
        title="Context compaction",
        controls=_controls(),
        timeline=Timeline.over_model_requests(
            tuple(Mark(n, f"Request {n} of {total}, turn {event.turn}", str(n)) for n, event in enumerate(models, start=1))
        ),
        playback=Playback.by_model_request(),
        draw=draw,
        reads=reads,
        words=Words(export="Export run JSON", export_file="context-compaction-run.json"),
        stylesheet="lessons/context-compaction.css",
    )


PANEL = _panel()
