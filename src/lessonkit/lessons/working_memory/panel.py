"""The working memory lesson's panel: a retrieval inspected stage by stage.

The engine decides everything at once (`lessonkit.lessons.working_memory.retrieve`); the panel only reveals it.
Four named marks, ten inspection seconds apart, are the four stages of the engine's docstring:
stored records, scope filters, ranking, final context. At each stage the view shows what that stage
has decided and nothing later: no score before the ranking, no tray before the final context.

A record of the other tenant is shown as stored and excluded, and nothing more: its cosine and
score are not shown or exported, because the tenant is an authorization boundary (the engine
reports that reason first for the same cause).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from lessonkit.lessons import working_memory as retrieval
from lessonkit.lessons.working_memory import OVER_LIMIT, SELECTED, SKIPPED, Candidate, Retrieval
from lessonkit.panel import Choice, Mark, Number, Option, Panel, Params, Playback, Range, Speed, Timeline, Toggle, View, Words
from lessonkit.panel.components import Column, findings, meter, record_row, record_table
from lessonkit.panel.html import Markup, h, join
from lessonkit.panel.reading import Reading

LESSON = retrieval.LESSON
STAGE_SECONDS = 10
STAGE_NAMES: tuple[str, ...] = tuple(retrieval.STAGES)  # stored, scope, ranking, final
STAGE_COUNT = len(STAGE_NAMES)
INSPECTION_SECONDS = STAGE_SECONDS * (STAGE_COUNT - 1)
# The stages by index, as the view counts them (the status and the marks count from one).
STORED, SCOPE, RANKING, FINAL = range(STAGE_COUNT)
NOT_SHOWN = "—"

# The short words the diagram writes where a record leaves, one per way of leaving.
LEAVES: dict[str, str] = {
    "tenant": "other tenant",
    "store": "other store",
    "session": "previous session",
    "age": "too old",
    "superseded": "superseded",
    "no-shared-term": "no shared term",
    SKIPPED: "skipped",
    OVER_LIMIT: "over limit",
}


def stage_title(index: int) -> str:
    """ "Stage 2 of 4: scope filters" for index 1."""
    return f"Stage {index + 1} of {STAGE_COUNT}: {retrieval.STAGES[STAGE_NAMES[index]].lower()}"


MARKS = tuple(Mark(index * STAGE_SECONDS, stage_title(index), retrieval.STAGES[name]) for index, name in enumerate(STAGE_NAMES))
TIMELINE = Timeline(end=INSPECTION_SECONDS, step=1, marks=MARKS, label="Inspection time")


def stage_at(time: float) -> int:
    """The index of the stage the inspection shows at `time`: that of the latest mark reached."""
    mark = TIMELINE.latest(time)
    return MARKS.index(mark) if mark else 0


def _retrieval(params: Params) -> Retrieval:
    return retrieval.retrieve(
        params["question"],
        params["tenant"],
        params["store"],
        params["include_previous"],
        params["keep_latest"],
        params["max_age_hours"],
        params["recency_weight"],
        params["word_budget"],
        params["max_records"],
    )


def _ids(candidates: Sequence[Candidate]) -> str:
    return ", ".join(candidate.id for candidate in candidates)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _hidden(run: Retrieval, candidate: Candidate) -> bool:
    """Another tenant's record: stored and excluded, nothing more is revealed about it."""
    return candidate.record.tenant != run.policy.tenant


def _leaves_at(candidate: Candidate) -> int | None:
    """The stage a record leaves at (scope filters, ranking or final context), or None when selected."""
    if candidate.outcome == SELECTED:
        return None
    if candidate.outcome in (SKIPPED, OVER_LIMIT):
        return FINAL
    return RANKING if candidate.reason == "no-shared-term" else SCOPE


def _gone(candidate: Candidate, stage: int) -> bool:
    """Whether the record has left by this stage."""
    leaves = _leaves_at(candidate)
    return leaves is not None and leaves <= stage


def outcome_at(candidate: Candidate, stage: int) -> str:
    """What the record table's Outcome column says about a record at a stage."""
    if stage == STORED:
        return "Stored"
    if _gone(candidate, stage):
        return _capital(candidate.note)
    if stage == SCOPE:
        return "In scope"
    if stage == RANKING:
        return f"Ranked {candidate.rank}"
    return _capital(candidate.note)


def status(run: Retrieval, stage: int) -> str:
    """The role="status" sentence: the stage, and what it decided, in words."""
    title = stage_title(stage) + "."
    stored = len(run.stored)
    if stage == STORED:
        return f"{title} All {stored} records are stored; this retrieval writes, merges and deletes none of them."
    where = f"{retrieval.TENANTS[run.policy.tenant]} in {retrieval.STORE_CHOICES[run.policy.store].lower()}"
    if stage == SCOPE:
        if not run.scoped:
            return f"{title} No record of {stored} passes the scope filters for {where}."
        passes = "passes" if len(run.scoped) == 1 else "pass"
        return f"{title} {len(run.scoped)} of {stored} records {passes} the scope filters for {where}: {_ids(run.scoped)}."
    if stage == RANKING:
        unshared = [c for c in run.scoped if c.reason == "no-shared-term"]
        ranked = (
            "Ranked by blended score: " + ", ".join(f"{c.id} ({c.score:.3f})" for c in run.ranking) + "."
            if run.ranking
            else "No record in scope shares a term with the question, so none is ranked."
        )
        return f"{title} {ranked}" + (f" No shared term: {_ids(unshared)}." if unshared else "")
    tray = run.tray
    if tray.candidates:
        selected = (
            f"Selected: {', '.join(tray.ids)}, using {tray.words} of {tray.word_budget} words "
            f"and {len(tray.ids)} of at most {_count(tray.max_records, 'record', 'records')}."
        )
    else:
        selected = "The selected context is empty."
    skipped = [c for c in run.ranking if c.outcome == SKIPPED]
    over = [c for c in run.ranking if c.outcome == OVER_LIMIT]
    left = "".join(
        [
            f" Skipped: {'; '.join(f'{c.id} ({c.record.words} words, {c.room} left)' for c in skipped)}." if skipped else "",
            f" Over the record limit: {_ids(over)}." if over else "",
        ]
    )
    return f"{title} {selected}{left} Supporting-fact coverage: {run.coverage.text}."


# --- what the view shows --------------------------------------------------------------------------


# A record's card and its row of the diagram depend on nothing but how the record ended in this
# retrieval (never its scores, which neither shows) and the stage shown. A reader's change moves a
# few records and rescores the rest; each is drawn once per way it ended and kept.
def _unscored(candidate: Candidate) -> Candidate:
    """The candidate as its card and its row of the diagram draw it: without its scores."""
    # Built directly: dataclasses.replace costs twice as much, twenty times a view.
    return Candidate(
        candidate.record,
        shared_terms=(),
        cosine=0.0,
        score=0.0,
        outcome=candidate.outcome,
        reason=candidate.reason,
        newer=candidate.newer,
        rank=candidate.rank,
        room=candidate.room,
    )


def _card(candidate: Candidate, stage: int) -> Markup:
    return _drawn_card(_unscored(candidate), stage)


@lru_cache(maxsize=512)
def _drawn_card(candidate: Candidate, stage: int) -> Markup:
    record = candidate.record
    facts = [
        retrieval.TENANTS[record.tenant],
        retrieval.STORES[record.store],
        f"{record.session} session",
        f"{record.age_hours:g} h old",
        _count(record.words, "word", "words"),
    ]
    if record.key:
        facts.append(f"key {record.key}")
    return h(
        "li",
        {
            "class": [
                "lk-wm-card",
                "lk-wm-gone" if _gone(candidate, stage) else "",
                "lk-wm-selected" if stage == FINAL and candidate.outcome == SELECTED else "",
            ],
            "data-id": record.id,
        },
        h("span", {"class": "lk-wm-card-id"}, record.id),
        h("span", {"class": "lk-wm-card-text"}, record.text),
        h("span", {"class": "lk-wm-card-facts"}, " · ".join(facts)),
        h("span", {"class": "lk-wm-card-outcome"}, outcome_at(candidate, stage)),
    )


def cards(run: Retrieval, stage: int) -> Markup:
    # A focusable region, so a keyboard reader can scroll the row of cards sideways.
    return h(
        "div",
        {"class": "lk-wm-cards", "role": "region", "aria-label": "Memory cards", "tabindex": 0},
        h("ol", {"class": "lk-wm-card-row"}, [_card(candidate, stage) for candidate in run.candidates]),
    )


# The diagram: one row per record, one column per stage.
D_WIDTH, D_LEFT, D_TOP, D_ROW, D_COLUMN, D_BOTTOM = 600, 96, 40, 26, 132, 14
COLUMNS = tuple(D_LEFT + index * D_COLUMN for index in range(STAGE_COUNT))
DIAGRAM = "Records through the four stages"
LEGEND = "A dot is a stage passed, a cross the stage a record leaves at, with the reason beside it, and a ring a selected record."


def _diagram_description(run: Retrieval, stage: int) -> str:
    later = "later stages are still empty" if stage < FINAL else "the last stage"
    parts = [f"{stage_title(stage)} is shown ({later})."]
    for index in range(SCOPE, stage + 1):
        left = [c for c in run.candidates if _leaves_at(c) == index]
        if left:
            named = ", ".join(f"{c.id} ({LEAVES[c.reason or c.outcome]})" for c in left)
            parts.append(f"Leaving at {retrieval.STAGES[STAGE_NAMES[index]].lower()}: {named}.")
    still = [c for c in run.candidates if not _gone(c, stage)]
    if stage == FINAL:
        parts.append(f"Selected: {_ids(still)}." if still else "No record is selected.")
    else:
        parts.append(f"Still in after {retrieval.STAGES[STAGE_NAMES[stage]].lower()}: {_ids(still) or 'none'}.")
    return " ".join(parts)


def _cross(x: float, y: float) -> Markup:
    return h("path", {"class": "lk-wm-leave", "d": f"M{x - 5},{y - 5} L{x + 5},{y + 5} M{x - 5},{y + 5} L{x + 5},{y - 5}"})


def _flow(candidate: Candidate, stage: int, row: int) -> Markup:
    """One record's row: the stages it passed, and where it left or that it was selected."""
    return _drawn_flow(_unscored(candidate), stage, row)


@lru_cache(maxsize=512)
def _drawn_flow(candidate: Candidate, stage: int, row: int) -> Markup:
    y = D_TOP + D_ROW * row + D_ROW / 2
    leaves = _leaves_at(candidate)
    reached = COLUMNS[: min(stage, FINAL if leaves is None else leaves) + 1]
    end = reached[-1]
    gone = _gone(candidate, stage)
    selected = stage == FINAL and candidate.outcome == SELECTED
    marks = [h("circle", {"class": "lk-wm-node", "cx": x, "cy": y, "r": 4.5}) for x in (reached[:-1] if gone else reached)]
    if gone:
        reason = LEAVES[candidate.reason or candidate.outcome]
        marks += [_cross(end, y), h("text", {"x": end + 10, "y": y + 4, "class": "lk-wm-reason"}, reason)]
    if selected:
        marks += [
            h("circle", {"class": "lk-wm-ring", "cx": end, "cy": y, "r": 8}),
            h("text", {"x": end + 14, "y": y + 4, "class": "lk-wm-reason"}, "selected"),
        ]
    return h(
        "g",
        {"class": ["lk-wm-flow", "lk-wm-flow-gone" if gone else "", "lk-wm-flow-selected" if selected else ""], "data-id": candidate.id},
        h("text", {"x": 8, "y": y + 4, "class": "lk-wm-flow-id"}, candidate.id),
        h("line", {"x1": COLUMNS[0], "y1": y, "x2": end, "y2": y}) if end > COLUMNS[0] else None,
        marks,
    )


def diagram(run: Retrieval, stage: int) -> Markup:
    """Each record passing or leaving at each stage, up to the stage being inspected."""
    height = D_TOP + D_ROW * len(run.candidates) + D_BOTTOM
    headers = [
        h(
            "text",
            {
                "x": x,
                "y": 18,
                "text-anchor": "middle",
                "class": ["lk-wm-stage", "lk-wm-stage-now" if index == stage else "", "lk-wm-stage-later" if index > stage else ""],
            },
            f"{index + 1}. {retrieval.STAGES[STAGE_NAMES[index]]}",
        )
        for index, x in enumerate(COLUMNS)
    ]
    description = _diagram_description(run, stage)
    svg = h(
        "svg",
        {
            "viewBox": f"0 0 {D_WIDTH} {height}",
            "role": "img",
            "aria-labelledby": "lk-wm-diagram-title lk-wm-diagram-desc",
            "class": "lk-chart-svg lk-wm-diagram",
            "xmlns": "http://www.w3.org/2000/svg",
        },
        h("title", {"id": "lk-wm-diagram-title"}, DIAGRAM),
        h("desc", {"id": "lk-wm-diagram-desc"}, description),
        [h("line", {"class": "lk-wm-column", "x1": x, "y1": 26, "x2": x, "y2": height - 4}) for x in COLUMNS],
        headers,
        [_flow(candidate, stage, row) for row, candidate in enumerate(run.candidates)],
    )
    return h(
        "figure",
        {"class": ["lk-chart", "lk-wm-figure"]},
        # A focusable region: on a phone the diagram scrolls sideways, by keyboard too, rather than shrinking its labels.
        h("div", {"class": "lk-chart-scroll", "tabindex": 0, "role": "region", "aria-label": DIAGRAM}, svg),
        h("figcaption", {}, f"{DIAGRAM}. {LEGEND} ", description),
    )


TABLE = "Inspect every record"


def table(run: Retrieval, stage: int) -> Markup:
    explained = {
        STORED: "Scores appear at the ranking stage.",
        SCOPE: "Scores appear at the ranking stage.",
        RANKING: "Packing decides the rest at the final stage.",
        FINAL: "Cosines and scores to three decimals; the exact values are in the exported JSON.",
    }[stage]
    return join(
        [
            h("h3", {"class": "lk-heading"}, TABLE),
            h("p", {"class": "lk-wm-note"}, explained, " Another tenant's record shows no score: its similarity is not revealed."),
            record_table(TABLE, _columns(stage, hidden=False), run.candidates, row=lambda c: _table_row(c, stage, _hidden(run, c))),
        ]
    )


def _columns(stage: int, *, hidden: bool) -> tuple[Column, ...]:
    """The record table's columns at a stage, for a record whose scores are shown or hidden."""

    def score(value: float) -> str:
        return NOT_SHOWN if stage < RANKING or hidden else f"{value:.3f}"

    return (
        Column("ID", lambda c: c.id),
        Column("Memory text", lambda c: c.record.text),
        Column("Cosine", lambda c: score(c.cosine), numeric=True),
        Column("Blended score", lambda c: score(c.score), numeric=True),
        Column("Outcome", lambda c: outcome_at(c, stage)),
    )


@lru_cache(maxsize=1024)
def _table_row(candidate: Candidate, stage: int, hidden: bool) -> Markup:
    """A record's row of the table, drawn once per record state, as `_card` is: a reader's next
    settings mostly leave most records as they were, and drawing rows was a quarter of a view."""
    attributes = {"data-id": candidate.id, "class": "lk-wm-row-gone" if _gone(candidate, stage) else None}
    return record_row(_columns(stage, hidden=hidden), candidate, attributes)


def tray(run: Retrieval, stage: int, baseline: Retrieval | None) -> Markup:
    if stage < FINAL:
        body = [h("p", {"class": "lk-empty"}, f"The tray fills at {stage_title(FINAL).lower()}.")]
    else:
        chosen = run.tray.candidates
        body = [
            h(
                "ol",
                {"class": "lk-wm-tray"},
                [
                    h(
                        "li",
                        {"data-id": c.id},
                        h("span", {"class": "lk-wm-card-id"}, c.id),
                        " ",
                        c.record.text,
                        h("span", {"class": "lk-wm-card-facts"}, f" ({_count(c.record.words, 'word', 'words')})"),
                    )
                    for c in chosen
                ],
            )
            if chosen
            else h("p", {"class": "lk-empty"}, "The selected context is empty: no record was selected."),
            meter("Context words", run.tray.words, run.tray.word_budget, unit="words"),
            findings(
                [
                    ("Supporting-fact coverage", run.coverage.text),
                    ("Declared supporting facts", ", ".join(run.coverage.declared) or "none"),
                ]
            ),
        ]
    if baseline is not None:
        earlier = ", ".join(baseline.tray.ids) or "none"
        body.append(findings([("Baseline selected", earlier), ("Baseline coverage", baseline.coverage.text)]))
    return h(
        "section",
        {"class": "lk-wm-context", "aria-label": "Selected context"},
        h("h3", {"class": "lk-heading"}, "Selected context"),
        body,
        h("p", {"class": "lk-wm-note"}, "No answer is generated: compare the selected source facts yourself."),
    )


def body(run: Retrieval, stage: int, baseline: Retrieval | None) -> Markup:
    question = run.question
    return join(
        [
            findings(
                [
                    ("Stage", stage_title(stage)),
                    ("Question", question.text),
                    ("Ranked terms", ", ".join(question.terms)),
                ]
            ),
            cards(run, stage),
            diagram(run, stage),
            table(run, stage),
            tray(run, stage, baseline),
        ]
    )


# --- state and export ------------------------------------------------------------------------------


def settings(run: Retrieval) -> dict[str, Any]:
    policy = run.policy
    return {
        "question": policy.question,
        "tenant": policy.tenant,
        "store": policy.store,
        "include_previous": policy.include_previous,
        "keep_latest": policy.keep_latest,
        "max_age_hours": policy.max_age_hours,
        "recency_weight": policy.recency_weight,
        "word_budget": policy.word_budget,
        "max_records": policy.max_records,
    }


def candidate_record(run: Retrieval, candidate: Candidate) -> dict[str, Any]:
    """One record as this retrieval saw it, with its exact scores (none for another tenant's record)."""
    record = candidate.record
    hidden = _hidden(run, candidate)
    return {
        "id": record.id,
        "text": record.text,
        "tenant": record.tenant,
        "store": record.store,
        "session": record.session,
        "age_hours": record.age_hours,
        "key": record.key,
        "words": record.words,
        "shared_terms": None if hidden else list(candidate.shared_terms),
        "cosine": None if hidden else candidate.cosine,
        "recency": None if hidden else candidate.recency,
        "score": None if hidden else candidate.score,
        "outcome": candidate.outcome,
        "reason": candidate.reason,
        "note": candidate.note,
        "rank": candidate.rank,
        "words_left": candidate.room,
    }


def stage_state(run: Retrieval, stage: int) -> dict[str, Any]:
    """What the inspected stage holds, as data."""
    return {
        "stage": stage + 1,
        "stage_name": STAGE_NAMES[stage],
        "holds": [c.id for c in run.stage(STAGE_NAMES[stage])],
        "tray": list(run.tray.ids) if stage == FINAL else None,
        "coverage": run.coverage.text if stage == FINAL else None,
    }


def draw(params: Params, baseline: Params | None) -> View:
    run = _retrieval(params)
    stage = stage_at(params["time"])
    earlier = _retrieval(baseline) if baseline else None
    question = run.question
    selected = ", ".join(run.tray.ids) or "none"
    return View(
        status=status(run, stage),
        html=body(run, stage, earlier),
        baseline=(
            f"{question.label}, {retrieval.TENANTS[run.policy.tenant]}, {retrieval.STORE_CHOICES[run.policy.store]}, "
            f"{run.policy.word_budget} words: selected {selected}; coverage {run.coverage.text}"
        ),
        state=stage_state(run, stage),
        export={
            "lesson": LESSON,
            "model": (
                "lexical TF-IDF cosine over ten synthetic records, blended with recency; greedy packing by "
                "whitespace-separated words; no language model, no embeddings"
            ),
            "settings": settings(run),
            "question": {"id": question.id, "text": question.text, "terms": list(question.terms)},
            "records": [candidate_record(run, c) for c in run.candidates],
            "ranking": [c.id for c in run.ranking],
            "selected": list(run.tray.ids),
            "words_used": run.tray.words,
            "coverage": {"text": run.coverage.text, "found": list(run.coverage.found), "declared": list(run.coverage.declared)},
            # Kept apart from the retrieval: where the reader was looking is not part of its result.
            "inspection": {"time_s": params["time"], **stage_state(run, stage)},
        },
    )


def reads(params: Params) -> Reading:
    """What the model is given: the records of the selected context, in ranked order, weighed in the
    words the tray uses.

    The engine decides the tray at once, and the timeline only reveals it: what the model is given
    does not change while a reader inspects. So before the final stage the reading is the same tray,
    and says which stage shows it, as the baseline's words name the selection at every stage.
    """
    run = _retrieval(params)
    chosen = run.tray.candidates
    shown = "" if stage_at(params["time"]) == FINAL else f" (shown at stage {FINAL + 1} of {STAGE_COUNT})"
    if not chosen:
        what = f"the empty selected context{shown}"
    elif len(chosen) == 1:
        what = f"the one record of the selected context{shown}"
    else:
        what = f"the {len(chosen)} records of the selected context{shown}"
    return Reading(what=what, texts=tuple(c.record.text for c in chosen), teaching=run.tray.words, unit="words")


def _panel() -> Panel:
    fixture = retrieval.lesson()
    defaults = retrieval.DEFAULTS
    return Panel(
        lesson=LESSON,
        title="Working memory",
        controls=(
            Choice("question", "Question", tuple(Option(q.id, q.text) for q in fixture.questions), defaults["question"]),
            Choice("tenant", "Active tenant", tuple(Option(k, v) for k, v in retrieval.TENANTS.items()), defaults["tenant"]),
            Choice("store", "Memory store", tuple(Option(k, v) for k, v in retrieval.STORE_CHOICES.items()), defaults["store"]),
            Toggle("include_previous", "Include previous sessions", default=defaults["include_previous"]),
            Toggle("keep_latest", "Keep latest fact per key", default=defaults["keep_latest"]),
            Number("max_age_hours", "Maximum age", *retrieval.MAX_AGES, default=defaults["max_age_hours"], unit="hours"),
            Range("recency_weight", "Recency weight", *retrieval.RECENCY_WEIGHTS, default=defaults["recency_weight"], step=0.05),
            Range("word_budget", "Context word budget", *retrieval.WORD_BUDGETS, default=defaults["word_budget"], unit="words"),
            Number("max_records", "Maximum retrieved records", *retrieval.RECORD_LIMITS, default=defaults["max_records"]),
        ),
        timeline=TIMELINE,
        playback=Playback(
            play="Play",
            pause="Pause",
            # Two words only: Play whenever the inspection is not running, Pause while it is.
            resume="Play",
            replay="Play",
            restart="Restart inspection",
            next="Next stage",
            speed="Speed",
            speeds=(Speed(0.25, "Quarter"), Speed(0.5, "Half"), Speed(1, "Normal"), Speed(2, "Double")),
            default_speed=1,
            play_on_change=True,
            stepping_hint="Reduced motion is on, so nothing plays by itself: Play and Next stage each show the next stage and stay paused.",
        ),
        draw=draw,
        reads=reads,
        words=Words(export="Export retrieval JSON", export_file="working-memory-retrieval.json"),
        stylesheet="lessons/working-memory.css",
    )


PANEL = _panel()
