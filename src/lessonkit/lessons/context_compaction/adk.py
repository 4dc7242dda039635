"""How the lesson's setting maps onto ADK's own, and where the lesson leaves a rule of ADK's out.

`ADK_FIELDS` pairs each field of the setting with the `EventsCompactionConfig` field ADK runs it
as; `ADK_REFUSALS` says where ADK itself refuses what the setting refuses earlier, in ADK's words;
`ADK_DIFFERENCES` names the rules the lesson does not play out, so the page can cite them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lessonkit import checks
from lessonkit.lessons.context_compaction.setting import Compaction

# Rules of ADK's that the lesson does not play out, named so the page can cite them. Each has a
# test in tests/lessons/context-compaction/test_compaction_adk.py that shows the difference.
ADK_DIFFERENCES: Mapping[str, str] = {
    "worth": (
        "ADK prices a span in characters of JSON, the way the request carries it, framing included "
        "(an empty summary still weighs 27 characters); the lesson prices it in tokens."
    ),
    "estimate": (
        "With no prompt count since the latest summary, ADK estimates the prompt as its characters "
        "divided by four; the lesson counts the tokens of what the model sees. Both leave attached files out."
    ),
    "pairs": (
        "ADK also keeps parallel calls, long-running calls, confirmations and calls that will never be "
        "answered from being split from their answers; the lesson's tool calls are answered one at a time."
    ),
    "stale": (
        "ADK discards a summary written while a later turn moved the session on; the lesson's turns "
        "never overlap, so every summary written is kept."
    ),
}


@dataclass(frozen=True)
class AdkField:
    """One field of the setting beside the `EventsCompactionConfig` field ADK runs it as."""

    field: str
    adk_field: str
    accepts: str
    adk_accepts: str


@dataclass(frozen=True)
class AdkRefusal:
    """Where ADK itself refuses what the setting refuses earlier, in ADK's own words."""

    refuses: str
    where: str
    when: str
    message: str


ADK_CONFIG = "google.adk.apps.app.EventsCompactionConfig"
ADK_FIELDS = (
    AdkField("after_tokens", "token_threshold", "greater than 0", "Optional[int], Field(gt=0)"),
    AdkField("keep_recent_events", "event_retention_size", "0 or more", "Optional[int], Field(ge=0)"),
    AdkField("after_invocations", "compaction_interval", "greater than 0", "Optional[int], Field(gt=0)"),
    AdkField("overlap", "overlap_size", "0 or more", "Optional[int], Field(ge=0)"),
    AdkField(
        "summarizer",
        "summarizer",
        "a dotted path; empty means the agent's model",
        "Optional[BaseEventsSummarizer]; None means LlmEventSummarizer on the root LlmAgent's model",
    ),
)
_VALIDATOR = "google/adk/apps/_configs.py, EventsCompactionConfig._validate_trigger_params (a pydantic model_validator, mode='after')"
ADK_REFUSALS = (
    AdkRefusal(
        "half the size pair",
        _VALIDATOR,
        "when the config is built",
        "token_threshold and event_retention_size must be set together.",
    ),
    AdkRefusal("half the turn pair", _VALIDATOR, "when the config is built", "compaction_interval and overlap_size must be set together."),
    AdkRefusal(
        "no trigger",
        _VALIDATOR,
        "when the config is built",
        "At least one compaction trigger must be configured: the token-threshold pair or the sliding-window pair.",
    ),
    AdkRefusal(
        "a root that is not an LlmAgent, with no summarizer",
        "google/adk/apps/compaction.py, _ensure_compaction_summarizer",
        "after the run has answered, when the Runner's post-invocation compaction first needs a summary",
        "No LlmAgent model available for event compaction summarizer.",
    ),
)


def adk_config_fields(compaction: Compaction) -> dict[str, Any]:
    """The keyword arguments of ADK's `EventsCompactionConfig` that run this setting (summarizer aside).

    Args:
        compaction: A setting that was accepted.

    Returns:
        ADK's field names with this setting's values; fields left out are not listed.

    Raises:
        lessonkit.checks.Refused: `compaction` is not a Compaction.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Compaction, adk_config_fields
        >>> adk_config_fields(Compaction(after_tokens=3000, keep_recent_events=6))
        {'token_threshold': 3000, 'event_retention_size': 6}
    """
    checks.instance("compaction", compaction, Compaction, "a Compaction")
    names = {row.field: row.adk_field for row in ADK_FIELDS if row.field != "summarizer"}
    return {names[field]: getattr(compaction, field) for field in names if getattr(compaction, field) is not None}
