"""Context compaction: when a long session is summarized, and what the model then sees.

A manifest's `Compaction` setting, with its size and turn triggers and the moments it is refused,
replayed over one long synthetic support session with ADK's rules (google-adk 2.13). Every event
has a teaching-token weight, not tokenizer output; the agent's model is stood in for by a fixed
ratio, and no model is called. The tests replay the same sessions through ADK's own Runner.

This package is what samples, notebooks and the API reference import. Its modules, one concept
each, in the order they build on each other: `events` (what a session holds), `summarizers`,
`setting` (the setting and its refusals), `in_view` (the rule for what the model sees),
`session_log` (the same answer, kept as the session grows), `triggers`, `fixture`, `session` (the
replay), `adk` (how the setting maps onto ADK), and `panel` (the experiment).
"""

from lessonkit.lessons.context_compaction.adk import (
    ADK_CONFIG,
    ADK_DIFFERENCES,
    ADK_FIELDS,
    ADK_REFUSALS,
    AdkField,
    AdkRefusal,
    adk_config_fields,
)
from lessonkit.lessons.context_compaction.events import (
    Attachment,
    Entry,
    Event,
    Summary,
    weight,
    write_summary,
)
from lessonkit.lessons.context_compaction.fixture import (
    KINDS,
    PRESET_FIELDS,
    Lesson,
    lesson,
)
from lessonkit.lessons.context_compaction.in_view import (
    attached,
    attached_by_name,
    kept_summaries,
    removable,
    visible,
)
from lessonkit.lessons.context_compaction.session import (
    Request,
    Run,
    checks_at,
    compare_summarizers,
    seen_in,
    simulate,
)
from lessonkit.lessons.context_compaction.session_log import (
    Seen,
    SessionLog,
)
from lessonkit.lessons.context_compaction.setting import (
    LLM_ROOT,
    MANIFEST_KINDS,
    NO_TRIGGER_REFUSAL,
    PAIRS,
    ROOT_REFUSAL,
    ROOTS,
    SIZE_PAIR_REFUSAL,
    TURN_PAIR_REFUSAL,
    WORKFLOW_REFUSAL,
    Compaction,
    Manifest,
    Pod,
    Refusal,
    deployment,
    load_summarizer,
    refusal_of,
    start,
)
from lessonkit.lessons.context_compaction.summarizers import (
    SUMMARIZERS,
    AgentModel,
    Summarizer,
    Terse,
    summarizer_named,
    terse,
)
from lessonkit.lessons.context_compaction.triggers import (
    AFTER_TURN,
    BEFORE_REQUEST,
    Decision,
    Moment,
    check_size,
    check_turns,
)

__all__ = [
    "Attachment",
    "Event",
    "Summary",
    "Entry",
    "write_summary",
    "weight",
    "Summarizer",
    "Terse",
    "AgentModel",
    "terse",
    "SUMMARIZERS",
    "summarizer_named",
    "SIZE_PAIR_REFUSAL",
    "TURN_PAIR_REFUSAL",
    "NO_TRIGGER_REFUSAL",
    "WORKFLOW_REFUSAL",
    "ROOT_REFUSAL",
    "PAIRS",
    "MANIFEST_KINDS",
    "ROOTS",
    "LLM_ROOT",
    "Refusal",
    "Compaction",
    "Manifest",
    "Pod",
    "load_summarizer",
    "start",
    "refusal_of",
    "deployment",
    "kept_summaries",
    "visible",
    "attached",
    "attached_by_name",
    "removable",
    "Seen",
    "SessionLog",
    "BEFORE_REQUEST",
    "AFTER_TURN",
    "Moment",
    "Decision",
    "check_size",
    "check_turns",
    "KINDS",
    "PRESET_FIELDS",
    "Lesson",
    "lesson",
    "Request",
    "Run",
    "simulate",
    "checks_at",
    "seen_in",
    "compare_summarizers",
    "ADK_DIFFERENCES",
    "AdkField",
    "AdkRefusal",
    "ADK_CONFIG",
    "ADK_FIELDS",
    "ADK_REFUSALS",
    "adk_config_fields",
]
