"""Every public engine function refuses bad input with lessonkit.checks' Refused (a ValueError) that
names the parameter, the value and what is allowed: never a bare TypeError, a KeyError or a silently
wrong answer.

Each row is one bad call a reader could type in a sample (a list where a name goes, a float budget,
a missing time, a string where a number goes), with the words the refusal must contain.
"""

from __future__ import annotations

import math

import pytest

from lessonkit.checks import Refused
from lessonkit.lessons import context_compaction as compaction
from lessonkit.lessons import context_compaction as compaction_session
from lessonkit.lessons import context_compression as compression
from lessonkit.lessons import working_memory as retrieval
from lessonkit.lessons.context_compaction import Compaction, Manifest
from lessonkit.lessons.context_compression import Turn, Window

BY_SIZE = Compaction(after_tokens=3000, keep_recent_events=6)
BIG_PIN = Window((Turn("T1", "system", 30, 1.0, "You are a release assistant."),))

REFUSALS = [
    # compression: the issue's own examples first
    ("replay(list budget)", lambda: compression.replay([24], "evict"), "budget is [24]; allowed: 24, 36, 48, 64"),
    ("replay(list policy)", lambda: compression.replay(24, ["evict"]), "policy is ['evict']; allowed: 'evict', 'summarize'"),
    ("replay(dict fidelity)", lambda: compression.replay(24, "evict", {"x": 1}), "fidelity is {'x': 1}; allowed: 'preserve', 'drop'"),
    ("replay(true budget)", lambda: compression.replay(True, "evict"), "budget is True; allowed: 24, 36"),
    ("replay(float budget)", lambda: compression.replay(24.0, "evict"), "budget is 24.0; allowed: 24, 36"),
    ("replay(no budget)", lambda: compression.replay(None, "evict"), "budget is None; allowed: 24"),
    (
        "replay(fixture name)",
        lambda: compression.replay(24, "evict", fixture="context-compression"),
        "fixture is 'context-compression'; allowed: a compression Lesson",
    ),
    ("at(no time)", lambda: compression.replay(24, "evict").at(None), "time is None; allowed: 0 to 60 seconds"),
    ("at(text time)", lambda: compression.replay(24, "evict").at("30"), "time is '30'; allowed: 0 to 60 seconds"),
    ("at(nan)", lambda: compression.replay(24, "evict").at(math.nan), "time is nan; allowed: 0 to 60 seconds"),
    ("at(list)", lambda: compression.replay(24, "evict").at([30]), "time is [30]; allowed: 0 to 60 seconds"),
    ("make_room(window)", lambda: compression.make_room("T1 T2", 24, "evict", "preserve", 6), "window is 'T1 T2'; allowed: a Window"),
    (
        "make_room(budget 0)",
        lambda: compression.make_room(Window(), 0, "evict", "preserve", 6),
        "budget is 0; allowed: a whole number of tokens greater than 0",
    ),
    (
        "make_room(summary)",
        lambda: compression.make_room(Window(), 24, "summarize", "preserve", 2.5),
        "summary_tokens is 2.5; allowed: a whole number of tokens greater than 0",
    ),
    (
        "make_room(policy)",
        lambda: compression.make_room(Window(), 24, {"evict"}, "preserve", 6),
        "policy is {'evict'}; allowed: 'evict', 'summarize'",
    ),
    (
        "make_room(over pinned)",
        lambda: compression.make_room(BIG_PIN, 24, "evict", "preserve", 6),
        "budget is 24; allowed: 30 or more, to hold what is pinned: T1 (30 tokens)",
    ),
    (
        "first_unsupported_mention",
        lambda: compression.first_unsupported_mention({"budget": 24}),
        "run is {'budget': 24}; allowed: a Replay",
    ),
    ("Operation(kind)", lambda: compression.Operation("drop", turn="T1"), "kind is 'drop'; allowed: 'evict', 'create', 'fold'"),
    (
        "Operation(fold without summary)",
        lambda: compression.Operation("fold", turn="T2"),
        "operation is 'fold' with turn 'T2' and summary None; allowed: evict a turn, create a summary, or fold a turn into a summary",
    ),
    ("turn(list)", lambda: compression.lesson().turn(["T1"]), "turn is ['T1']; allowed: 'T1', 'T2'"),
    # retrieval
    ("retrieve(list question)", lambda: retrieval.retrieve(["timeout"]), "question is ['timeout']; allowed: 'timeout'"),
    ("retrieve(tenant)", lambda: retrieval.retrieve("timeout", tenant={"team-a"}), "tenant is {'team-a'}; allowed: 'team-a', 'team-b'"),
    (
        "retrieve(word budget)",
        lambda: retrieval.retrieve("timeout", word_budget=40.0),
        "word_budget is 40.0; allowed: 0 to 120 words, whole numbers",
    ),
    ("retrieve(records)", lambda: retrieval.retrieve("timeout", max_records=True), "max_records is True; allowed: 1 to 10, whole numbers"),
    ("retrieve(weight)", lambda: retrieval.retrieve("timeout", recency_weight="0.5"), "recency_weight is '0.5'; allowed: 0 to 1"),
    ("retrieve(age nan)", lambda: retrieval.retrieve("timeout", max_age_hours=math.nan), "max_age_hours is nan; allowed: 0 to 720 hours"),
    ("retrieve(flag)", lambda: retrieval.retrieve("timeout", include_previous="yes"), "include_previous is 'yes'; allowed: True, False"),
    ("stage(list)", lambda: retrieval.retrieve("timeout").stage(["final"]), "stage is ['final']; allowed: 'stored'"),
    ("candidate(none)", lambda: retrieval.retrieve("timeout").candidate(None), "record is None; allowed: 'M1'"),
    ("question(number)", lambda: retrieval.lesson().question(3), "question is 3; allowed: 'timeout'"),
    ("tokenize(none)", lambda: retrieval.tokenize(None), "text is None; allowed: a string"),
    ("word_count(bytes)", lambda: retrieval.word_count(b"two words"), "text is b'two words'; allowed: a string"),
    ("recency(text)", lambda: retrieval.recency("24"), "age_hours is '24'; allowed: 0 hours or more"),
    ("recency(negative)", lambda: retrieval.recency(-1), "age_hours is -1; allowed: 0 hours or more"),
    ("pack(budget)", lambda: retrieval.pack([], -1, 3), "word_budget is -1; allowed: 0 to 120 words, whole numbers"),
    ("pack(records)", lambda: retrieval.pack(["M1"], 40, 3), "ranked is ['M1']; allowed: MemoryRecord values in ranked order"),
    # compaction
    (
        "Compaction(list)",
        lambda: Compaction(after_tokens=[3000], keep_recent_events=6),
        "after_tokens is [3000]; allowed: a whole number greater than 0",
    ),
    (
        "Compaction(summarizer)",
        lambda: Compaction(after_invocations=4, overlap=1, summarizer=["x"]),
        "summarizer is ['x']; allowed: a dotted path",
    ),
    ("Manifest(package)", lambda: Manifest("agent", 7), "package is 7; allowed: a dotted name such as 'support_bot'"),
    ("Manifest(kind)", lambda: Manifest(["agent"], "x"), "kind is ['agent']; allowed: 'agent', 'workflow'"),
    ("start(manifest)", lambda: compaction.start("agent.yaml"), "manifest is 'agent.yaml'; allowed: a Manifest"),
    ("start(root)", lambda: compaction.start(Manifest("agent", "x"), root=["LlmAgent"]), "root is ['LlmAgent']; allowed: 'LlmAgent'"),
    ("load_summarizer(path)", lambda: compaction.load_summarizer(7, "x"), "summarizer is 7; allowed: a non-empty string"),
    ("load_summarizer(package)", lambda: compaction.load_summarizer(".terse", None), "package is None; allowed: a non-empty string"),
    (
        "adk_config_fields",
        lambda: compaction.adk_config_fields({"after_tokens": 3}),
        "compaction is {'after_tokens': 3}; allowed: a Compaction",
    ),
    (
        "simulate(setting)",
        lambda: compaction_session.simulate({"after_tokens": 3000}),
        "compaction is {'after_tokens': 3000}; allowed: a Compaction",
    ),
    ("simulate(summarizer)", lambda: compaction_session.simulate(BY_SIZE, ["terse"]), "summarizer is ['terse']; allowed: 'terse', 'model'"),
    (
        "simulate(fixture)",
        lambda: compaction_session.simulate(BY_SIZE, fixture="context-compaction"),
        "fixture is 'context-compaction'; allowed: a compaction Lesson",
    ),
    ("request(text)", lambda: compaction_session.simulate(BY_SIZE).request("3"), "request is '3'; allowed: 1 to 24, whole numbers"),
    (
        "Moment(when)",
        lambda: compaction.Moment("during turn", 3),
        "a moment's when is 'during turn'; allowed: 'before request', 'after turn'",
    ),
    ("Moment(number)", lambda: compaction.Moment.after_turn(0), "a moment's number is 0; allowed: a whole number greater than 0"),
    ("event(none)", lambda: compaction_session.lesson().event(None), "event is None; allowed: 'u1'"),
]


@pytest.mark.parametrize(("call", "words"), [pytest.param(call, words, id=name) for name, call, words in REFUSALS])
def test_a_bad_argument_is_refused_by_name_value_and_what_is_allowed(call, words):
    with pytest.raises(Refused) as refused:
        call()
    assert words in str(refused.value)
    assert isinstance(refused.value, ValueError)
