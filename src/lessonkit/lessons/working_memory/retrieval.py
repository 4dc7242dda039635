"""Working memory: assemble an agent's active context from stored memory records.

Ten synthetic memory records sit in four stores (semantic facts, episodic events, procedural steps,
working context) for two tenants. A question is answered by no one: the engine only chooses which
records would enter the agent's context, in four stages a reader can inspect one by one:

1. **Stored records**: all ten, none written, merged, compacted or deleted by a retrieval.
2. **Scope filters**: application policies, applied before any similarity. The tenant is a hard
   filter; the store is one of the four or all of them; previous sessions are in or out; the maximum
   age is an inclusive bound in fixture hours; keep-latest-per-key drops a record whenever a newer
   record of the same tenant has the same key, even when another filter drops that newer record,
   so a stale fact is never brought back.
3. **Ranking**: lexical TF-IDF, exactly as scikit-learn's
   ``TfidfVectorizer(sublinear_tf=True, smooth_idf=True)`` fitted on the ten records and then
   applied to the question. `tokenize` lower-cases the text, takes its words and removes
   `STOP_WORDS`; a term's weight is (1 + ln count) x (ln((1 + N) / (1 + df)) + 1), with N the number
   of stored records and df the number of records holding the term (the question adds nothing to df;
   question terms no record holds are ignored). Cosine is the dot product of the question's and the
   record's vectors over their two lengths. The blended score is
   ``(1 - recency weight) x cosine + recency weight x 2 ** (-age / 24 h)``.
   A record that shares no term with the question is excluded whatever the weight: recency alone
   never admits a record.
4. **Final context**: greedy packing in ranked order into a budget of whitespace-separated words and
   a separate maximum number of records. A record too long for the words left is skipped and packing
   goes on with the next; once the tray holds the maximum number of records, every later candidate
   is over the record limit. Records are never truncated and no optimal packing is searched for.

Ranking ties (equal blended scores) go to the higher cosine, then the younger record, then the
earlier record in the fixture, so a result never depends on the order Python happens to sort in.

Every record ends with one outcome: selected, skipped, over the record limit, or excluded with one
reason. When several reasons apply, the first in `REASONS` is reported: the tenant first, because it
is an authorization boundary and a record of another tenant should reveal nothing further, not even
whether it matches; then store, session and age, the policies about the record alone, in the order
the controls are listed; then superseded, which depends on other records; and last no shared term,
the only reason that depends on the question, so scope is reported before similarity.

Supporting-fact coverage reads "N of M": M counts the records of the active tenant that the fixture
declares as supporting the question, whatever the other filters; N counts those in the final tray.
It counts declared fixture IDs; it does not measure whether an answer would be right.

What this is not: no language model reads or answers anything, no embedding or neural similarity
is computed (a "semantic" record is a type of stored fact, not a kind of matching), paraphrases and
negation are not understood, budgets count words rather than model tokens, and the tenant, store,
age and key rules are example policies, not an authorization, retention or privacy guarantee.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any

from lessonkit import checks
from lessonkit.checks import Refused
from lessonkit.fixtures import Record, read_fixture

LESSON = "working-memory"

# The four fixed questions by id; their exact wording lives in the fixture.
QUESTIONS: tuple[str, ...] = ("timeout", "deployment-region", "rollback", "on-call")
TENANTS: Mapping[str, str] = {"team-a": "Team A", "team-b": "Team B"}
STORES: Mapping[str, str] = {
    "semantic": "Semantic facts",
    "episodic": "Episodic events",
    "procedural": "Procedural steps",
    "working": "Working context",
}
ALL_STORES = "all"
STORE_CHOICES: Mapping[str, str] = {**STORES, ALL_STORES: "All stores"}
SESSIONS: tuple[str, ...] = ("current", "previous")

# Inclusive bounds of the numeric parameters.
WORD_BUDGETS: tuple[int, int] = (0, 120)
RECORD_LIMITS: tuple[int, int] = (1, 10)
MAX_AGES: tuple[int, int] = (0, 720)
RECENCY_WEIGHTS: tuple[int, int] = (0, 1)
HALF_LIFE_HOURS = 24

DEFAULTS: Mapping[str, Any] = {
    "question": "timeout",
    "tenant": "team-a",
    "store": "working",
    "include_previous": True,
    "keep_latest": True,
    "max_age_hours": 168,
    "recency_weight": 0.0,
    "word_budget": 40,
    "max_records": 3,
}

STAGES: Mapping[str, str] = {
    "stored": "Stored records",
    "scope": "Scope filters",
    "ranking": "Ranking",
    "final": "Final context",
}

SELECTED, SKIPPED, OVER_LIMIT, EXCLUDED = "selected", "skipped", "over-limit", "excluded"
OUTCOMES: Mapping[str, str] = {
    SELECTED: "Selected",
    SKIPPED: "Skipped: too long for the words left",
    OVER_LIMIT: "Over the record limit",
    EXCLUDED: "Excluded",
}
# In order of precedence: a record excluded for several reasons reports the first.
REASONS: Mapping[str, str] = {
    "tenant": "belongs to the other tenant",
    "store": "is in another memory store",
    "session": "comes from a previous session",
    "age": "is older than the maximum age",
    "superseded": "has a newer record with the same key",
    "no-shared-term": "shares no term with the question",
}

# Common English function words, removed before counting terms. Fixed, so every figure can be rechecked.
STOP_WORDS: frozenset[str] = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most
    my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves
    """.split()  # noqa: SIM905 (a block a reader can scan beats a 127-line list literal)
)

# A word is a run of letters or digits; an inner hyphen or apostrophe keeps it whole (INC-42, team's).
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")


def tokenize(text: str) -> list[str]:
    """The terms of `text`: lower-cased words, in order, without the stop words.

    Args:
        text: A record's or a question's text.

    Returns:
        Its terms; an inner hyphen or apostrophe keeps a word whole.

    Examples:
        >>> from lessonkit.lessons.working_memory import tokenize
        >>> tokenize("Roll back the INC-42 release")
        ['roll', 'back', 'inc-42', 'release']
    """
    checks.text("text", text, empty=True)
    return [word for word in _WORD.findall(text.lower()) if word not in STOP_WORDS]


def word_count(text: str) -> int:
    """What a record costs in the budget: its whitespace-separated words, punctuation included.

    Args:
        text: The record's text.

    Examples:
        >>> from lessonkit.lessons.working_memory import word_count
        >>> word_count("Roll back, then verify.")
        4
    """
    checks.text("text", text, empty=True)
    return len(text.split())


def recency(age_hours: float) -> float:
    """The recency factor 2 ** (-age / 24 h): one when new, a half after a day, a quarter after two.

    Args:
        age_hours: The record's age in fixture hours.

    Raises:
        lessonkit.checks.Refused: `age_hours` is not a finite number of hours, 0 or more.

    Examples:
        >>> from lessonkit.lessons.working_memory import recency
        >>> recency(0), recency(24), recency(48)
        (1.0, 0.5, 0.25)
    """
    checks.number("age_hours", age_hours, minimum=0, unit="hours")
    return 2.0 ** (-age_hours / HALF_LIFE_HOURS)


def inverse_document_frequencies(documents: Sequence[Iterable[str]]) -> dict[str, float]:
    """Smoothed idf of every term of `documents`: ln((1 + N) / (1 + df)) + 1.

    Args:
        documents: Each document's terms.

    Returns:
        Each term's idf, as scikit-learn's ``TfidfVectorizer(smooth_idf=True)`` computes it.

    Examples:
        >>> from lessonkit.lessons.working_memory import inverse_document_frequencies
        >>> idf = inverse_document_frequencies([["rollback", "release"], ["rollback"]])
        >>> idf["rollback"], round(idf["release"], 4)
        (1.0, 1.4055)
    """
    frequencies = Counter(term for terms in documents for term in set(terms))
    n = len(documents)
    return {term: math.log((1 + n) / (1 + df)) + 1 for term, df in frequencies.items()}


def term_vector(terms: Iterable[str], idf: Mapping[str, float]) -> dict[str, float]:
    """Sublinear tf x idf for the terms the fitted vocabulary knows; unknown terms carry no weight.

    Args:
        terms: A document's terms, repeats included.
        idf: The fitted idf, from `inverse_document_frequencies`.

    Returns:
        Each known term's weight, (1 + ln count) x idf.

    Examples:
        >>> from lessonkit.lessons.working_memory import term_vector
        >>> vector = term_vector(["release", "release", "weather"], {"release": 1.5})
        >>> round(vector["release"], 4), "weather" in vector
        (2.5397, False)
    """
    return {term: (1 + math.log(count)) * idf[term] for term, count in Counter(terms).items() if term in idf}


def cosine(u: Mapping[str, float], v: Mapping[str, float]) -> float:
    """The cosine of two sparse vectors: their dot product over their two lengths, 0 if either is empty.

    Args:
        u: A term vector.
        v: Another term vector.

    Examples:
        >>> from lessonkit.lessons.working_memory import cosine
        >>> cosine({"release": 1.0}, {"release": 2.0}), cosine({"release": 1.0}, {"rollback": 1.0})
        (1.0, 0.0)
    """
    # fsum is exactly rounded, so it does not depend on the order of the terms: a plain sum follows
    # the order of the record's words, and two records with the same words in another order would
    # differ in the last bit and no longer tie, though TF-IDF knows no word order.
    length = math.sqrt(math.fsum(w * w for w in u.values())) * math.sqrt(math.fsum(w * w for w in v.values()))
    if not length:
        return 0.0
    return math.fsum(weight * v[term] for term, weight in u.items() if term in v) / length


@dataclass(frozen=True)
class Question:
    id: str
    label: str
    text: str

    @cached_property
    def terms(self) -> tuple[str, ...]:
        return tuple(tokenize(self.text))


@dataclass(frozen=True)
class MemoryRecord:
    id: str
    text: str
    tenant: str
    store: str
    session: str
    age_hours: float
    key: str | None = None  # records of one tenant with one key hold versions of one fact
    supports: tuple[str, ...] = ()  # ids of the questions it is a declared supporting fact for

    @cached_property
    def words(self) -> int:
        return word_count(self.text)

    @cached_property
    def terms(self) -> tuple[str, ...]:
        return tuple(tokenize(self.text))

    @cached_property
    def recency(self) -> float:
        return recency(self.age_hours)


@dataclass(frozen=True)
class Lesson:
    """The validated fixture of the working-memory lesson."""

    questions: tuple[Question, ...]
    records: tuple[MemoryRecord, ...]

    @classmethod
    def from_record(cls, record: Record) -> Lesson:
        record.known("lesson", "title", "questions", "records")
        record.choice("lesson", (LESSON,))
        record.text("title")
        questions: dict[str, Question] = {}
        for row in record.children("questions"):
            row.known("id", "label", "text")
            question = Question(id=row.choice("id", QUESTIONS), label=row.text("label"), text=row.text("text"))
            if question.id in questions:
                raise row.fail("id", f"is {question.id!r}, which is already taken")
            if not question.terms:
                raise row.fail("text", f"is {question.text!r}, which has no term once stop words are removed")
            questions[question.id] = question
        missing = [name for name in QUESTIONS if name not in questions]
        if missing:
            raise record.fail("questions", f"must declare every question; missing: {', '.join(map(repr, missing))}")
        records: dict[str, MemoryRecord] = {}
        for row in record.children("records"):
            memory = cls._memory(row, questions)
            if memory.id in records:
                raise row.fail("id", f"is {memory.id!r}, which is already taken")
            for other in records.values():
                same_fact = memory.key is not None and (other.tenant, other.key) == (memory.tenant, memory.key)
                if same_fact and other.age_hours == memory.age_hours:
                    raise row.fail(
                        "age_hours",
                        f"is {memory.age_hours:g}, as old as {other.id} with the same tenant and key {memory.key!r}; "
                        "which one is newer must be clear",
                    )
            records[memory.id] = memory
        return cls(questions=tuple(questions[name] for name in QUESTIONS), records=tuple(records.values()))

    @staticmethod
    def _memory(row: Record, questions: Mapping[str, Question]) -> MemoryRecord:
        row.known("id", "text", "tenant", "store", "session", "age_hours", "key", "supports")
        text = row.text("text")
        if not tokenize(text):
            raise row.fail("text", f"is {text!r}, which has no term once stop words are removed")
        age = row.number("age_hours", minimum=0, unit="hours")
        declared = row.child("supports")
        for name in declared.data:
            if name not in questions:
                allowed = ", ".join(f'"{known}"' for known in QUESTIONS)
                raise declared.fail(name, f"names an unknown question; allowed: {allowed}")
        supports = tuple(name for name in QUESTIONS if declared.flag(name))
        for name in supports:
            if not set(questions[name].terms) & set(tokenize(text)):
                raise declared.fail(
                    name, "declares a supporting fact that shares no term with the question, so it could never be retrieved"
                )
        return MemoryRecord(
            id=row.text("id"),
            text=text,
            tenant=row.choice("tenant", TENANTS),
            store=row.choice("store", STORES),
            session=row.choice("session", SESSIONS),
            age_hours=age,
            key=row.optional_text("key"),
            supports=supports,
        )

    def question(self, question_id: str) -> Question:
        checks.choice("question", question_id, (q.id for q in self.questions))
        return next(q for q in self.questions if q.id == question_id)

    def record(self, record_id: str) -> MemoryRecord:
        checks.choice("record", record_id, (r.id for r in self.records))
        return next(r for r in self.records if r.id == record_id)


@lru_cache(maxsize=1)
def lesson() -> Lesson:
    """The working-memory lesson's fixture: its memory records and questions, validated once and kept.

    Raises:
        lessonkit.fixtures.FixtureError: The fixture is malformed; the message names the file, the
            record and the field.

    Examples:
        >>> from lessonkit.lessons.working_memory import lesson
        >>> len(lesson().records), [question.id for question in lesson().questions]
        (10, ['timeout', 'deployment-region', 'rollback', 'on-call'])
    """
    return Lesson.from_record(read_fixture(LESSON))


@lru_cache(maxsize=8)
def _fitted(records: tuple[MemoryRecord, ...]) -> tuple[dict[str, float], tuple[dict[str, float], ...]]:
    """The idf and every record's term vector: fitted once per set of stored records."""
    terms = [record.terms for record in records]
    idf = inverse_document_frequencies(terms)
    return idf, tuple(term_vector(each, idf) for each in terms)


def newer_records(records: Sequence[MemoryRecord]) -> dict[str, MemoryRecord]:
    """For each record that has a newer version (same tenant and key, younger), the newest version.

    Args:
        records: The stored records.

    Returns:
        The superseded records' IDs, each with the record that supersedes it.

    Examples:
        >>> from lessonkit.lessons.working_memory import lesson, newer_records
        >>> {old: new.id for old, new in newer_records(lesson().records).items()}
        {'M1': 'M2', 'M3': 'M8'}
    """
    newest: dict[tuple[str, str], MemoryRecord] = {}
    for record in records:
        if record.key is not None:
            slot = (record.tenant, record.key)
            if slot not in newest or record.age_hours < newest[slot].age_hours:
                newest[slot] = record
    return {
        record.id: newest[(record.tenant, record.key)]
        for record in records
        if record.key is not None and newest[(record.tenant, record.key)].age_hours < record.age_hours
    }


@dataclass(frozen=True)
class Policy:
    """The reader's settings, checked: what one retrieval was asked to do."""

    question: str
    tenant: str
    store: str
    include_previous: bool
    keep_latest: bool
    max_age_hours: float
    recency_weight: float
    word_budget: int
    max_records: int

    def __post_init__(self) -> None:
        # Named as retrieve() names them, so a refusal says which argument to change.
        checks.choice("question", self.question, QUESTIONS)
        checks.choice("tenant", self.tenant, TENANTS)
        checks.choice("store", self.store, STORE_CHOICES)
        checks.flag("include_previous", self.include_previous)
        checks.flag("keep_latest", self.keep_latest)
        checks.number("max_age_hours", self.max_age_hours, minimum=MAX_AGES[0], maximum=MAX_AGES[1], unit="hours")
        checks.number("recency_weight", self.recency_weight, minimum=RECENCY_WEIGHTS[0], maximum=RECENCY_WEIGHTS[1])
        checks.whole("word_budget", self.word_budget, minimum=WORD_BUDGETS[0], maximum=WORD_BUDGETS[1], unit="words")
        checks.whole("max_records", self.max_records, minimum=RECORD_LIMITS[0], maximum=RECORD_LIMITS[1])

    def scope_reason(self, record: MemoryRecord, newer: MemoryRecord | None) -> str | None:
        """The first scope filter, in order of precedence, that excludes `record`; None if it is in scope."""
        if record.tenant != self.tenant:
            return "tenant"
        if self.store != ALL_STORES and record.store != self.store:
            return "store"
        if record.session == "previous" and not self.include_previous:
            return "session"
        if record.age_hours > self.max_age_hours:
            return "age"
        if self.keep_latest and newer is not None:
            return "superseded"
        return None


@dataclass(frozen=True)
class Candidate:
    """One stored record as this retrieval saw it: its scores, and how it ended."""

    record: MemoryRecord
    shared_terms: tuple[str, ...]
    cosine: float
    score: float
    outcome: str
    reason: str | None = None  # why it was excluded, when it was
    newer: str | None = None  # id of the newest record of the same tenant and key, when this one is older
    rank: int | None = None  # place in the ranking, from 1, for a record that shares a term and is in scope
    room: int | None = None  # words left in the budget when packing reached it

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def recency(self) -> float:
        return self.record.recency

    @property
    def in_scope(self) -> bool:
        return self.reason is None or self.reason == "no-shared-term"

    @property
    def note(self) -> str:
        """The outcome in words, as the record table states it."""
        if self.outcome == EXCLUDED:
            if self.reason == "superseded":
                return f"excluded: superseded by {self.newer}, a newer record with the same key"
            return f"excluded: {REASONS[self.reason]}"
        if self.outcome == SKIPPED:
            return f"skipped: {self.record.words} words, {self.room} left"
        if self.outcome == OVER_LIMIT:
            return "over the record limit"
        return "selected"


@dataclass(frozen=True)
class Tray:
    """The final context: the selected records, in ranked order."""

    candidates: tuple[Candidate, ...]
    word_budget: int
    max_records: int

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(candidate.id for candidate in self.candidates)

    @property
    def words(self) -> int:
        return sum(candidate.record.words for candidate in self.candidates)

    @property
    def records(self) -> tuple[MemoryRecord, ...]:
        return tuple(candidate.record for candidate in self.candidates)


@dataclass(frozen=True)
class Coverage:
    """Declared supporting facts of the active tenant for the question, and those the tray holds."""

    found: tuple[str, ...]
    declared: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"{len(self.found)} of {len(self.declared)}"


@dataclass(frozen=True)
class Retrieval:
    """Everything one retrieval decided, stage by stage."""

    policy: Policy
    question: Question
    candidates: tuple[Candidate, ...]  # every stored record, in fixture order
    ranking: tuple[Candidate, ...]  # in scope and sharing a term, highest blended score first
    tray: Tray
    coverage: Coverage

    @property
    def stored(self) -> tuple[Candidate, ...]:
        return self.candidates

    @property
    def scoped(self) -> tuple[Candidate, ...]:
        """The records every scope filter admits, before the question is compared with them."""
        return tuple(candidate for candidate in self.candidates if candidate.in_scope)

    def stage(self, name: str) -> tuple[Candidate, ...]:
        """What the named stage holds: all records, those in scope, the ranking, or the tray."""
        checks.choice("stage", name, STAGES)
        return {"stored": self.stored, "scope": self.scoped, "ranking": self.ranking, "final": self.tray.candidates}[name]

    def candidate(self, record_id: str) -> Candidate:
        checks.choice("record", record_id, (candidate.id for candidate in self.candidates))
        return next(candidate for candidate in self.candidates if candidate.id == record_id)

    @property
    def outcomes(self) -> dict[str, str]:
        return {candidate.id: candidate.outcome for candidate in self.candidates}

    @property
    def reasons(self) -> dict[str, str]:
        """Each excluded record's one reason."""
        return {candidate.id: candidate.reason for candidate in self.candidates if candidate.reason is not None}


def pack(ranked: Sequence[MemoryRecord], word_budget: int, max_records: int) -> tuple[tuple[str, int], ...]:
    """Greedy packing: each ranked record's outcome and the words left in the budget when it was reached.

    Args:
        ranked: The records in ranked order.
        word_budget: The words the tray may hold.
        max_records: The most records the tray may hold.

    Returns:
        For each record, ``"selected"``, ``"skipped"`` or ``"over-limit"``, and the words left when
        packing reached it. Records are taken whole or not at all.

    Raises:
        lessonkit.checks.Refused: `ranked` is not a sequence of memory records, or the budget or the record limit is
            out of range.

    Examples:
        >>> from lessonkit.lessons.working_memory import lesson, pack
        >>> pack([lesson().record("M5"), lesson().record("M6")], 20, 3)
        (('selected', 20), ('skipped', 11))
    """
    checks.whole("word_budget", word_budget, minimum=WORD_BUDGETS[0], maximum=WORD_BUDGETS[1], unit="words")
    checks.whole("max_records", max_records, minimum=RECORD_LIMITS[0], maximum=RECORD_LIMITS[1])
    if isinstance(ranked, (str, bytes)) or not all(isinstance(record, MemoryRecord) for record in ranked):
        raise Refused("ranked", ranked, "MemoryRecord values in ranked order")
    visits = []
    room, taken = word_budget, 0
    for record in ranked:
        if taken == max_records:
            visits.append((OVER_LIMIT, room))
        elif record.words > room:
            visits.append((SKIPPED, room))
        else:
            visits.append((SELECTED, room))
            room -= record.words
            taken += 1
    return tuple(visits)


def retrieve(
    question: str,
    tenant: str = DEFAULTS["tenant"],
    store: str = DEFAULTS["store"],
    include_previous: bool = DEFAULTS["include_previous"],
    keep_latest: bool = DEFAULTS["keep_latest"],
    max_age_hours: float = DEFAULTS["max_age_hours"],
    recency_weight: float = DEFAULTS["recency_weight"],
    word_budget: int = DEFAULTS["word_budget"],
    max_records: int = DEFAULTS["max_records"],
    *,
    fixture: Lesson | None = None,
) -> Retrieval:
    """Scope, rank and pack the stored records for one of the fixed questions.

    Args:
        question: One of the fixed question IDs (``"timeout"``, ``"rollback"``, ...).
        tenant: The active tenant; records of another tenant are always excluded.
        store: One memory store, or ``"all"``.
        include_previous: Whether records from previous sessions are in scope.
        keep_latest: Whether a record with a newer version of the same key is excluded.
        max_age_hours: The oldest a record may be, inclusive, in fixture hours.
        recency_weight: From 0 to 1, the share of the blended score that recency takes.
        word_budget: The words the final context may hold.
        max_records: The most records the final context may hold.
        fixture: Another validated lesson to retrieve from; the course's own when omitted.

    Returns:
        Every candidate with its outcome and reason, the ranking, the tray and the coverage.

    Raises:
        lessonkit.checks.Refused: A setting is not one the lesson offers, or is out of its range.

    Examples:
        >>> from lessonkit.lessons.working_memory import retrieve
        >>> run = retrieve("rollback", store="all")
        >>> run.tray.ids, run.coverage.text
        (('M6', 'M10', 'M2'), '1 of 1')
        >>> retrieve("rollback", recency_weight=2)
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: recency_weight is 2; allowed: 0 to 1
    """
    policy = Policy(question, tenant, store, include_previous, keep_latest, max_age_hours, recency_weight, word_budget, max_records)
    fixture = fixture or lesson()
    asked = fixture.question(question)
    idf, vectors = _fitted(fixture.records)
    query = term_vector(asked.terms, idf)
    newer = newer_records(fixture.records)

    seen = {}
    for record, vector in zip(fixture.records, vectors, strict=True):
        similarity = cosine(query, vector)
        shared = tuple(sorted(set(asked.terms) & set(record.terms)))
        seen[record.id] = Candidate(
            record=record,
            shared_terms=shared,
            cosine=similarity,
            score=(1 - recency_weight) * similarity + recency_weight * record.recency,
            outcome=EXCLUDED,
            reason=policy.scope_reason(record, newer.get(record.id)) or (None if shared else "no-shared-term"),
            newer=newer[record.id].id if record.id in newer else None,
        )

    place = {record.id: index for index, record in enumerate(fixture.records)}
    ranked = sorted(
        (c for c in seen.values() if c.reason is None),
        key=lambda c: (-c.score, -c.cosine, c.record.age_hours, place[c.id]),
    )
    visits = pack([c.record for c in ranked], word_budget, max_records)
    ranking = tuple(
        replace(c, rank=rank, outcome=outcome, room=room) for rank, (c, (outcome, room)) in enumerate(zip(ranked, visits, strict=True), 1)
    )
    seen.update((c.id, c) for c in ranking)

    tray = Tray(tuple(c for c in ranking if c.outcome == SELECTED), word_budget, max_records)
    declared = tuple(r.id for r in fixture.records if r.tenant == tenant and question in r.supports)
    coverage = Coverage(found=tuple(i for i in declared if i in tray.ids), declared=declared)
    return Retrieval(policy, asked, tuple(seen.values()), ranking, tray, coverage)


def _listed(ids: Sequence[str]) -> str:
    """ "M1", "M1 and M2", "M1, M2 and M3"."""
    return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} and {ids[-1]}"


def record_outcome(run: Retrieval, record_id: str) -> str:
    """What one retrieval did with one record, and why, in one sentence.

    The exercises answer a reader's choice of record with it, so a wrong guess is met by what the
    engine decided about that record. A record of the other tenant is only said to be excluded:
    as in the experiment, nothing about how well it matches is revealed.

    Args:
        run: A retrieval from `retrieve`.
        record_id: A stored record's ID, such as ``"M5"``.

    Returns:
        One sentence: the reason it was excluded, or its place in the ranking and what packing did;
        a declared supporting fact of the question, for the active tenant, is called one.

    Raises:
        lessonkit.checks.Refused: `run` is not a Retrieval, or no stored record has `record_id`.

    Examples:
        >>> from lessonkit.lessons.working_memory import record_outcome, retrieve
        >>> record_outcome(retrieve("timeout", word_budget=8), "M5")
        'M5 is ranked 1 of 1 (cosine 0.226, score 0.226) but skipped: its 9 words do not fit in the 8 left.'
        >>> record_outcome(retrieve("timeout", word_budget=8), "M10")
        'M10 is excluded: it shares no term with the question.'
        >>> record_outcome(retrieve("timeout", word_budget=8), "M4")
        'M4, a declared supporting fact, is excluded: it is in another memory store.'
    """
    checks.instance("run", run, Retrieval, "a Retrieval")
    candidate = run.candidate(record_id)
    named = f"{candidate.id}, a declared supporting fact," if candidate.id in run.coverage.declared else candidate.id
    if candidate.outcome == EXCLUDED:
        if candidate.reason == "superseded":
            return f"{named} is excluded: it has a newer record with the same key, {candidate.newer}."
        return f"{named} is excluded: it {REASONS[candidate.reason]}."
    ranked = f"{named} is ranked {candidate.rank} of {len(run.ranking)} (cosine {candidate.cosine:.3f}, score {candidate.score:.3f})"
    words = f"{candidate.record.words} word{'' if candidate.record.words == 1 else 's'}"
    if candidate.outcome == SELECTED:
        return f"{ranked} and selected: its {words} fit in the {candidate.room} left."
    if candidate.outcome == SKIPPED:
        return f"{ranked} but skipped: its {words} do not fit in the {candidate.room} left."
    held = run.policy.max_records
    return f"{ranked} but over the record limit: the context already holds {held} record{'' if held == 1 else 's'}."


def records_with_outcome(run: Retrieval, outcome: str) -> str:
    """The records one retrieval ended with one outcome, or excluded for one reason, in one sentence.

    The exercises answer a reader's choice of outcome or reason with it, so a wrong guess is met by
    the records that actually ended that way, as the record table lists them.

    Args:
        run: A retrieval from `retrieve`.
        outcome: An outcome of `OUTCOMES` (``"selected"``, ``"skipped"``, ``"over-limit"``,
            ``"excluded"``), or a reason of `REASONS` (``"store"``, ``"superseded"``, ...) for the
            records excluded with that reason.

    Returns:
        One sentence naming the records, or saying that there are none.

    Raises:
        lessonkit.checks.Refused: `run` is not a Retrieval, or `outcome` is neither an outcome nor a reason.

    Examples:
        >>> from lessonkit.lessons.working_memory import records_with_outcome, retrieve
        >>> records_with_outcome(retrieve("timeout", word_budget=8), "skipped")
        'Skipped, too long for the words left: M5 (9 words, 8 left).'
        >>> records_with_outcome(retrieve("deployment-region", store="episodic"), "superseded")
        'Excluded because it has a newer record with the same key: M1 (superseded by M2).'
        >>> records_with_outcome(retrieve("deployment-region"), "session")
        "No record's reason for exclusion is that it comes from a previous session."
    """
    checks.instance("run", run, Retrieval, "a Retrieval")
    checks.choice("outcome", outcome, (*OUTCOMES, *REASONS))
    if outcome in REASONS:
        found = [c for c in run.candidates if c.outcome == EXCLUDED and c.reason == outcome]
        if not found:
            return f"No record's reason for exclusion is that it {REASONS[outcome]}."
        ids = [f"{c.id} (superseded by {c.newer})" if outcome == "superseded" else c.id for c in found]
        return f"Excluded because {'it' if len(found) == 1 else 'each'} {REASONS[outcome]}: {_listed(ids)}."
    found = [c for c in run.candidates if c.outcome == outcome]
    if outcome == SELECTED:
        if not found:
            return "No record is selected: the selected context is empty."
        return f"Selected: {_listed(run.tray.ids)}, {run.tray.words} of {run.tray.word_budget} words."
    if outcome == SKIPPED:
        if not found:
            return "No record is skipped for its length."
        return f"Skipped, too long for the words left: {_listed([f'{c.id} ({c.record.words} words, {c.room} left)' for c in found])}."
    if outcome == OVER_LIMIT:
        if not found:
            return "No record is over the record limit."
        return f"Over the record limit of {run.policy.max_records}: {_listed([c.id for c in found])}."
    groups = [
        f"{_listed(ids)} because {'it' if len(ids) == 1 else 'each'} {REASONS[reason]}"
        for reason in REASONS
        for ids in [[c.id for c in found if c.reason == reason]]
        if ids
    ]
    return f"Excluded: {'; '.join(groups)}." if groups else "No record is excluded."
