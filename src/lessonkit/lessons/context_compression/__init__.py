"""Context compression: space saved against evidence retained, as eight turns overflow a budget.

The lesson's engine replays a short release conversation into a token budget, turn by turn, and
makes room by evicting the oldest turns or summarizing them, and shows whether the user-backed
evidence for one fact survives. Tokens are fixed teaching weights, not tokenizer output, and the
summaries are modelled, not written by a model.

This package is what samples, notebooks and the API reference import; its modules are the lesson's
own: `compression` (the engine) and `panel` (the experiment).
"""

from lessonkit.lessons.context_compression.compression import (
    FACT_ROLES,
    FIDELITIES,
    LESSON,
    OPERATION_KINDS,
    POLICIES,
    ROLES,
    SUMMARY_ID,
    Arrival,
    Entry,
    Fact,
    Lesson,
    Operation,
    Replay,
    Summary,
    Turn,
    Window,
    ending,
    evidence,
    first_unsupported_mention,
    lesson,
    make_room,
    provenance,
    replay,
    verdict,
)

__all__ = [
    "LESSON",
    "POLICIES",
    "FIDELITIES",
    "ROLES",
    "FACT_ROLES",
    "SUMMARY_ID",
    "Fact",
    "Turn",
    "Summary",
    "Entry",
    "Window",
    "Lesson",
    "lesson",
    "OPERATION_KINDS",
    "Operation",
    "Arrival",
    "make_room",
    "Replay",
    "replay",
    "first_unsupported_mention",
    "evidence",
    "verdict",
    "provenance",
    "ending",
]
