"""Context compression: replay a conversation into a token budget and follow a fact's evidence.

The model is deliberately small. Eight turns arrive one after another; each carries a fixed
teaching-token weight (not tokenizer output) and explicit annotations saying which turn is the
user-backed source of a fact and which turns merely mention it. Whenever a new turn pushes the
window over its budget, one of two policies makes room:

- ``evict``: drop the earliest retained non-system turn until the window fits;
- ``summarize``: fold such turns, oldest first, into one pinned summary of fixed size that records
  every folded turn ID, and copies the user-backed evidence only under ``preserve`` fidelity.

The system turn is pinned and counts against the budget, and so does the summary once created:
the fixture is refused unless its smallest budget holds both, so no window ever reads over its
budget. Fidelity has no effect on eviction.
An agent turn that repeats a fact never creates provenance: only a user turn annotated as the
source does, or a summary that kept that turn's provenance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from lessonkit import checks
from lessonkit.chain import Chain
from lessonkit.checks import Refused
from lessonkit.fixtures import Record, read_fixture

LESSON = "context-compression"
POLICIES: Mapping[str, str] = {"evict": "Evict oldest", "summarize": "Summarize older turns"}
FIDELITIES: Mapping[str, str] = {"preserve": "Preserve critical fact", "drop": "Drop critical fact"}
ROLES = ("system", "user", "agent")
FACT_ROLES = (None, "source", "mention")
SUMMARY_ID = "S"


@dataclass(frozen=True)
class Fact:
    name: str
    value: str

    @property
    def answer(self) -> str:
        return f"{self.name}: {self.value}"


@dataclass(frozen=True)
class Turn:
    id: str
    role: str
    tokens: int
    arrives_at: float
    text: str
    fact: str | None = None  # "source", "mention" or None, as annotated in the fixture

    @property
    def pinned(self) -> bool:
        return self.role == "system"

    @property
    def backs_fact(self) -> bool:
        # Provenance is a property of who said it: an agent repeating a fact is not evidence.
        return self.role == "user" and self.fact == "source"

    @property
    def mentions_fact(self) -> bool:
        return self.fact in ("source", "mention")

    @property
    def sources(self) -> tuple[str, ...]:
        return (self.id,) if self.backs_fact else ()


@dataclass(frozen=True)
class Summary:
    """The one summary a window may hold: pinned once created, growing as turns fold into it.

    `folded` and `sources` read as tuples of turn IDs. They are chains, so a fold shares the
    previous summary's IDs instead of copying them: a replay's summaries grow with every fold, and
    copies would make a replay quadratic in its number of turns.
    """

    tokens: int
    folded: Chain[str] = field(default_factory=Chain)
    sources: Chain[str] = field(default_factory=Chain)
    mentions_fact: bool = False
    id: str = SUMMARY_ID
    role: str = "summary"
    pinned: bool = True

    def __post_init__(self) -> None:
        # A summary built from tuples, as a reader's code may build one, folds without copying too.
        for name in ("folded", "sources"):
            if not isinstance(getattr(self, name), Chain):
                object.__setattr__(self, name, Chain.of(getattr(self, name)))

    def fold(self, turn: Turn, fidelity: str) -> Summary:
        keep = fidelity == "preserve"
        sources = self.sources
        for source in turn.sources if keep else ():
            sources = sources.plus(source)
        return Summary(
            tokens=self.tokens,
            folded=self.folded.plus(turn.id),
            sources=sources,
            mentions_fact=self.mentions_fact or (keep and turn.mentions_fact),
        )

    def text(self, fact: Fact) -> str:
        folded = ", ".join(self.folded)
        if self.sources:
            return f"Earlier turns {folded}, condensed. The user set {fact.answer} (source {', '.join(self.sources)})."
        if self.mentions_fact:
            return f"Earlier turns {folded}, condensed. {fact.value} was mentioned without a user source."
        return f"Earlier turns {folded}, condensed; the {fact.name} was left out."


Entry = Turn | Summary


@dataclass(frozen=True)
class Window:
    """What the agent would see: entries in order, pinned ones first."""

    entries: tuple[Entry, ...] = ()

    @property
    def tokens(self) -> int:
        return sum(entry.tokens for entry in self.entries)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(entry.id for entry in self.entries)

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(source for entry in self.entries for source in entry.sources)

    @property
    def user_backed(self) -> bool:
        # Asked of every arrival: whether any entry has a source, without laying out the summary's
        # sources, which grow with the conversation.
        return any(entry.sources for entry in self.entries)

    @property
    def fact_mentioned(self) -> bool:
        return any(entry.mentions_fact for entry in self.entries)

    @property
    def summary(self) -> Summary | None:
        return next((entry for entry in self.entries if isinstance(entry, Summary)), None)

    def oldest_unpinned(self) -> Turn | None:
        return next((entry for entry in self.entries if not entry.pinned), None)

    def without(self, turn: Turn) -> Window:
        return Window(tuple(entry for entry in self.entries if entry is not turn))

    def with_summary(self, summary: Summary) -> Window:
        rest = tuple(entry for entry in self.entries if not isinstance(entry, Summary))
        pinned = tuple(entry for entry in rest if entry.pinned)
        unpinned = tuple(entry for entry in rest if not entry.pinned)
        return Window(pinned + (summary,) + unpinned)

    def answer(self, fact: Fact) -> str:
        if self.user_backed:
            return fact.answer
        return "unsupported" if self.fact_mentioned else "unknown"


@dataclass(frozen=True)
class Lesson:
    """The validated fixture of the compression lesson."""

    fact: Fact
    turns: tuple[Turn, ...]
    budgets: tuple[int, ...]
    summary_tokens: int
    duration: float

    @classmethod
    def from_record(cls, record: Record) -> Lesson:
        record.known("lesson", "title", "fact", "duration_s", "budgets", "summary_tokens", "turns")
        record.choice("lesson", (LESSON,))
        record.text("title")
        fact = record.child("fact")
        fact.known("name", "value")
        duration = record.number("duration_s", above=0)
        turns, seen = [], set()
        for row in record.children("turns"):
            row.known("id", "role", "tokens", "arrives_at_s", "text", "fact")
            turn = Turn(
                id=row.text("id"),
                role=row.choice("role", ROLES),
                tokens=row.whole("tokens"),
                arrives_at=row.number("arrives_at_s", above=0),
                text=row.text("text"),
                fact=row.choice("fact", FACT_ROLES),
            )
            if turn.id in seen or turn.id == SUMMARY_ID:
                raise row.fail("id", f"is {turn.id!r}, which is already taken")
            if turn.pinned != (not turns):
                # One pinned turn, first: a second would be pinned too and could crowd out every other.
                raise row.fail("role", f"is {turn.role!r}; the first turn, and only the first, is the pinned system turn")
            if turn.fact == "source" and turn.role != "user":
                raise row.fail("fact", f'is "source" but the role is {turn.role!r}; only a user turn can back a fact')
            if turns and turn.arrives_at <= turns[-1].arrives_at:
                raise row.fail("arrives_at_s", f"is {turn.arrives_at:g}; arrivals must come later than {turns[-1].arrives_at:g}")
            if turn.arrives_at > duration:
                raise row.fail("arrives_at_s", f"is {turn.arrives_at:g}, after the replay ends at {duration:g}")
            seen.add(turn.id)
            turns.append(turn)
        budgets = record.whole_list("budgets")
        repeated = next((budget for index, budget in enumerate(budgets) if budget in budgets[:index]), None)
        if repeated is not None:
            raise record.fail("budgets", f"lists {repeated} twice; each budget is one choice")
        summary_tokens = record.whole("summary_tokens")
        # What can never leave the window: the pinned turn, and the summary once the policy creates it.
        pinned = turns[0]
        if pinned.tokens + summary_tokens > min(budgets):
            raise record.fail(
                "budgets",
                f"has {min(budgets)} as its smallest budget, which cannot hold what is pinned: "
                f"{pinned.id} ({pinned.tokens} tokens) and the summary ({summary_tokens} tokens) need {pinned.tokens + summary_tokens}",
            )
        return cls(
            fact=Fact(fact.text("name"), fact.text("value")),
            turns=tuple(turns),
            budgets=budgets,
            summary_tokens=summary_tokens,
            duration=duration,
        )

    def turn(self, turn_id: str) -> Turn:
        checks.choice("turn", turn_id, (turn.id for turn in self.turns))
        return next(turn for turn in self.turns if turn.id == turn_id)


@lru_cache(maxsize=1)
def lesson() -> Lesson:
    """The compression lesson's fixture, validated once and kept.

    Returns:
        The eight-turn conversation, its budgets, its fact and the summary's fixed size.

    Raises:
        lessonkit.fixtures.FixtureError: The fixture is malformed; the message names the file, the
            record and the field.

    Examples:
        >>> from lessonkit.lessons.context_compression import lesson
        >>> lesson().budgets
        (24, 36, 48, 64)
        >>> lesson().turn("T2").role
        'user'
    """
    return Lesson.from_record(read_fixture(LESSON))


OPERATION_KINDS = ("evict", "create", "fold")


@dataclass(frozen=True)
class Operation:
    """One thing `make_room` did to the window: evict a turn, create the summary, or fold a turn into it.

    It reads as the page shows it (``str(operation)`` is "fold T2 into S"); a panel reads its fields.

    Examples:
        >>> from lessonkit.lessons.context_compression import Operation
        >>> folded = Operation("fold", turn="T2", summary="S")
        >>> str(folded), folded.turn, folded.removes
        ('fold T2 into S', 'T2', True)
    """

    kind: str  # one of OPERATION_KINDS
    turn: str | None = None  # the turn that leaves the window: evict and fold
    summary: str | None = None  # the summary created, or the one folded into

    def __post_init__(self) -> None:
        checks.choice("kind", self.kind, OPERATION_KINDS)
        if (self.turn is None) != (self.kind == "create") or (self.summary is None) != (self.kind == "evict"):
            raise Refused(
                "operation",
                self.kind,
                "evict a turn, create a summary, or fold a turn into a summary",
                problem=f"is {self.kind!r} with turn {self.turn!r} and summary {self.summary!r}",
            )

    @property
    def removes(self) -> bool:
        """Whether a turn left the window by it."""
        return self.turn is not None

    def __str__(self) -> str:
        if self.kind == "fold":
            return f"fold {self.turn} into {self.summary}"
        return f"{self.kind} {self.turn or self.summary}"


@dataclass(frozen=True)
class Arrival:
    """The window just after the `index`-th turn arrived and the policy made room (0: none yet)."""

    index: int
    time: float
    turn: Turn | None
    attempted: int
    operations: tuple[Operation, ...]
    window: Window
    fact: Fact

    @property
    def tokens(self) -> int:
        return self.window.tokens

    @property
    def retained(self) -> tuple[str, ...]:
        return self.window.ids

    @property
    def fact_mentioned(self) -> bool:
        return self.window.fact_mentioned

    @property
    def user_backed(self) -> bool:
        return self.window.user_backed

    @property
    def answer(self) -> str:
        return self.window.answer(self.fact)


def make_room(window: Window, budget: int, policy: str, fidelity: str, summary_tokens: int) -> tuple[Window, tuple[Operation, ...]]:
    """Apply the overflow policy until the window fits, returning it and what was done, in order.

    Pinned turns never go: if only pinned turns are left over budget, the window stays over it.

    Args:
        window: The window just after a turn arrived, possibly over budget.
        budget: The most teaching tokens the window may hold.
        policy: ``"evict"`` drops the oldest unpinned turn; ``"summarize"`` folds it into the summary.
        fidelity: ``"preserve"`` copies user-backed evidence into the summary; ``"drop"`` leaves it out.
        summary_tokens: The fixed size of the summary when one is created.

    Returns:
        The window that fits, and each operation it took, in order.

    Raises:
        lessonkit.checks.Refused: a parameter is not a Window, a whole number of tokens, or a policy or fidelity the
            lesson offers; or the budget cannot hold what is pinned.

    Examples:
        >>> from lessonkit.lessons.context_compression import Window, lesson, make_room
        >>> turns = [lesson().turn(turn_id) for turn_id in ("T1", "T2", "T3", "T4")]
        >>> window, done = make_room(Window(tuple(turns)), 24, "evict", "preserve", 6)
        >>> window.ids, [str(operation) for operation in done]
        (('T1', 'T3', 'T4'), ['evict T2'])
        >>> [str(operation) for operation in make_room(Window(tuple(turns)), 24, "summarize", "preserve", 6)[1]]
        ['create S', 'fold T2 into S', 'fold T3 into S']
    """
    checks.instance("window", window, Window, "a Window")
    checks.whole("budget", budget, minimum=1, unit="tokens")
    checks.choice("policy", policy, POLICIES)
    checks.choice("fidelity", fidelity, FIDELITIES)
    checks.whole("summary_tokens", summary_tokens, minimum=1, unit="tokens")
    operations: list[Operation] = []
    while window.tokens > budget:
        oldest = window.oldest_unpinned()
        if oldest is None:  # only pinned entries left: nothing more may go
            break
        if policy == "evict":
            window = window.without(oldest)
            operations.append(Operation("evict", turn=oldest.id))
            continue
        summary = window.summary
        if summary is None:
            summary = Summary(tokens=summary_tokens)
            operations.append(Operation("create", summary=SUMMARY_ID))
        window = window.without(oldest).with_summary(summary.fold(oldest, fidelity))
        operations.append(Operation("fold", turn=oldest.id, summary=SUMMARY_ID))
    if window.tokens > budget:
        # A window over its budget would be a wrong answer read as a right one: say why instead.
        pinned = ", ".join(f"{entry.id} ({entry.tokens} tokens)" for entry in window.entries)
        raise Refused("budget", budget, f"{window.tokens} or more, to hold what is pinned: {pinned}")
    return window, tuple(operations)


@dataclass(frozen=True)
class Replay:
    budget: int
    policy: str
    fidelity: str
    arrivals: tuple[Arrival, ...]
    duration: float

    def at(self, seconds: float) -> Arrival:
        """The latest arrival at or before `seconds` on the timeline."""
        checks.number("time", seconds, minimum=0, maximum=self.duration, unit="seconds")
        return [arrival for arrival in self.arrivals if arrival.time <= seconds][-1]

    @property
    def final(self) -> Arrival:
        return self.arrivals[-1]


def replay(budget: int, policy: str, fidelity: str = "preserve", fixture: Lesson | None = None) -> Replay:
    """Every arrival of the fixture's conversation under one budget, policy and fidelity.

    Args:
        budget: One of the fixture's budgets, in teaching tokens.
        policy: ``"evict"`` or ``"summarize"``.
        fidelity: ``"preserve"`` or ``"drop"``; it only matters when summarizing.
        fixture: Another validated lesson to replay; the course's own when omitted.

    Returns:
        The replay: the window after each arrival, found by time with ``at`` or last with ``final``.

    Raises:
        lessonkit.checks.Refused: The budget, policy or fidelity is not one the lesson offers.

    Examples:
        >>> from lessonkit.lessons.context_compression import replay
        >>> replay(24, "evict").at(30).retained
        ('T1', 'T3', 'T4')
        >>> replay(24, "summarize", "preserve").final.answer
        'deployment region: Mumbai'
        >>> replay(25, "evict")
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: budget is 25; allowed: 24, 36, 48, 64
    """
    fixture = lesson() if fixture is None else fixture
    checks.instance("fixture", fixture, Lesson, "a compression Lesson, or None for the lesson's own")
    checks.choice("policy", policy, POLICIES)
    checks.choice("fidelity", fidelity, FIDELITIES)
    checks.choice("budget", budget, fixture.budgets)
    window = Window()
    arrivals = [Arrival(0, 0.0, None, 0, (), window, fixture.fact)]
    for index, turn in enumerate(fixture.turns, start=1):
        grown = Window(window.entries + (turn,))
        window, operations = make_room(grown, budget, policy, fidelity, fixture.summary_tokens)
        arrivals.append(Arrival(index, turn.arrives_at, turn, grown.tokens, operations, window, fixture.fact))
    return Replay(budget, policy, fidelity, tuple(arrivals), fixture.duration)


def first_unsupported_mention(run: Replay) -> Arrival | None:
    """The first arrival at which the fact is still mentioned but no longer user-backed.

    Args:
        run: A replay from `replay`.

    Returns:
        That arrival, or None if the window never mentions the fact without its evidence.

    Examples:
        >>> from lessonkit.lessons.context_compression import first_unsupported_mention, replay
        >>> first_unsupported_mention(replay(24, "evict")).time
        30
        >>> first_unsupported_mention(replay(24, "summarize", "preserve")) is None
        True
    """
    checks.instance("run", run, Replay, "a Replay")
    return next((arrival for arrival in run.arrivals if arrival.fact_mentioned and not arrival.user_backed), None)


def _finding(arrival: Arrival) -> str:
    """What an arrival's window can show about the fact, as the clause after a colon."""
    if arrival.user_backed:
        said = ", ".join(arrival.window.sources)
        # A summary that preserved the fact carries its source's id, though the turn itself is gone.
        kept = all(source in arrival.retained for source in arrival.window.sources)
        where = "which is still there" if kept else "which the summary still cites"
        return f"the user said it in {said}, {where}, so the fact is backed"
    if arrival.fact_mentioned:
        mentions = [entry.id for entry in arrival.window.entries if entry.mentions_fact]
        verb = "mentions" if len(mentions) == 1 else "mention"
        return f"{', '.join(mentions)} still {verb} the fact, but the user's own turn is gone, so it is unsupported"
    return "nothing in it mentions the fact"


def evidence(arrival: Arrival) -> str:
    """What the window at one arrival holds, and whether it can still show who said the fact.

    The exercises answer a reader's choice with it, so a wrong guess is met by what the engine
    found at the moment the reader chose, not by "wrong".

    Args:
        arrival: An arrival of a replay, such as ``replay(24, "evict").at(30)``.

    Returns:
        One sentence.

    Examples:
        >>> from lessonkit.lessons.context_compression import evidence, replay
        >>> evidence(replay(24, "evict").at(15))
        'At 15 s the window holds T1, T2 (15 tokens): the user said it in T2, which is still there, so the fact is backed.'
    """
    checks.instance("arrival", arrival, Arrival, "an Arrival")
    held = ", ".join(arrival.retained) or "nothing"
    return f"At {arrival.time:g} s the window holds {held} ({arrival.tokens} tokens): {_finding(arrival)}."


def verdict(arrival: Arrival, expected: str) -> str:
    """The answer one arrival's window gives, set beside the answer a reader expected, and why.

    Args:
        arrival: An arrival of a replay, such as ``replay(24, "summarize", "drop").final``.
        expected: An answer a window can give: the fact's own (``"deployment region: Mumbai"``),
            ``"unsupported"`` or ``"unknown"``.

    Returns:
        One sentence.

    Raises:
        lessonkit.checks.Refused: `arrival` is not an Arrival, or `expected` is not an answer a window can give.

    Examples:
        >>> from lessonkit.lessons.context_compression import replay, verdict
        >>> print(verdict(replay(24, "evict").final, "unsupported"))  # doctest: +ELLIPSIS
        At 60 s the window of T1, T7, T8 (23 tokens) answers "unsupported": T7 still mentions the fact, ...
        >>> drop = verdict(replay(24, "summarize", "drop").final, "unsupported")
        >>> print(drop)  # doctest: +ELLIPSIS
        At 60 s the window of T1, S, T8 (22 tokens) answers "unknown", not "unsupported": nothing in it mentions the fact, ...
        >>> drop.endswith("because S folded T2, T3, T4, T5, T6, T7 and left it out.")
        True
    """
    checks.instance("arrival", arrival, Arrival, "an Arrival")
    checks.choice("expected", expected, (arrival.fact.answer, "unsupported", "unknown"))
    given = arrival.answer
    said = f'"{given}"' if given == expected else f'"{given}", not "{expected}"'
    reason = _finding(arrival)
    summary = arrival.window.summary
    if not arrival.fact_mentioned and summary is not None:
        reason += f", because {summary.id} folded {', '.join(summary.folded)} and left it out"
    held = ", ".join(arrival.retained) or "nothing"
    return f"At {arrival.time:g} s the window of {held} ({arrival.tokens} tokens) answers {said}: {reason}."


def provenance(arrival: Arrival, entry_id: str) -> str:
    """Whether one entry is in an arrival's window, and what it says for the fact: its user source, a mention, or nothing.

    Args:
        arrival: An arrival of a replay, such as ``replay(48, "summarize").final``.
        entry_id: A turn's ID, or ``"S"`` for the summary.

    Returns:
        One sentence.

    Raises:
        lessonkit.checks.Refused: `arrival` is not an Arrival, or `entry_id` is not a non-empty string.

    Examples:
        >>> from lessonkit.lessons.context_compression import provenance, replay
        >>> print(provenance(replay(48, "summarize").final, "S"))
        At 60 s the window holds S (the summary of T2, T3, T4), which cites the user's T2 as its source, so S is user-backed evidence.
        >>> print(provenance(replay(48, "summarize").final, "T7"))
        At 60 s the window holds T7 (an agent turn), which mentions the fact without a user source, so T7 backs nothing.
        >>> print(provenance(replay(48, "summarize").final, "T2"))
        At 60 s the window does not hold T2, which was folded into S; it holds T1, S, T5, T6, T7, T8.
    """
    checks.instance("arrival", arrival, Arrival, "an Arrival")
    checks.text("entry_id", entry_id)
    at = f"At {arrival.time:g} s the window"
    entry = next((entry for entry in arrival.window.entries if entry.id == entry_id), None)
    if entry is None:
        summary = arrival.window.summary
        folded = f", which was folded into {summary.id}" if summary is not None and entry_id in summary.folded else ""
        return f"{at} does not hold {entry_id}{folded}; it holds {', '.join(arrival.retained) or 'nothing'}."
    if isinstance(entry, Summary):
        what = f"the summary of {', '.join(entry.folded)}"
        backs = f"cites the user's {', '.join(entry.sources)} as its source"
    else:
        what = {"system": "the pinned system turn", "user": "a user turn", "agent": "an agent turn"}[entry.role]
        backs = "states the fact in the user's own words"
    if entry.sources:
        return f"{at} holds {entry.id} ({what}), which {backs}, so {entry.id} is user-backed evidence."
    said = "mentions the fact without a user source" if entry.mentions_fact else "does not state the fact"
    return f"{at} holds {entry.id} ({what}), which {said}, so {entry.id} backs nothing."


def ending(run: Replay) -> str:
    """How a replay ends: its settings, its last window, and what that window can show about the fact.

    Args:
        run: A replay from `replay`.

    Returns:
        One sentence.

    Raises:
        lessonkit.checks.Refused: `run` is not a Replay.

    Examples:
        >>> from lessonkit.lessons.context_compression import ending, replay
        >>> print(ending(replay(64, "evict")))  # doctest: +ELLIPSIS
        Budget 64 with Evict oldest ends at 60 s with T1, T2, T3, T4, T5, T6, T7, T8 (58 tokens): the user said it in T2, ...
        >>> print(ending(replay(48, "evict")))  # doctest: +ELLIPSIS
        Budget 48 with Evict oldest ends at 60 s with T1, T4, T5, T6, T7, T8 (44 tokens): T7 still mentions the fact, ...
    """
    checks.instance("run", run, Replay, "a Replay")
    final = run.final
    settings = POLICIES[run.policy] + (f" and {FIDELITIES[run.fidelity]}" if run.policy == "summarize" else "")
    held = ", ".join(final.retained) or "nothing"
    return f"Budget {run.budget} with {settings} ends at {final.time:g} s with {held} ({final.tokens} tokens): {_finding(final)}."
