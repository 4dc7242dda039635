"""Summarizers: what writes a summary of a span of the session, and the two the lesson builds in.

``Terse`` is the source's rule-based summarizer: it keeps what people said and an earlier summary,
one line each, and drops tool chatter; a line costs its words plus a token for its speaker's label,
and a span with nothing said gives no summary. ``AgentModel`` stands in for ADK's
``LlmEventSummarizer`` on the agent's model without calling one (the lesson runs offline and must be
deterministic): its summary is a fixed fifth of the span it reads, at least 40 tokens, and it
reiterates the user's requests, so it carries the names of the files they named.
"""

from __future__ import annotations

from collections.abc import Mapping

from lessonkit import checks
from lessonkit.lessons.context_compaction.events import Entry, Summary, write_summary


class Summarizer:
    """Writes one summary of a span of a session, or nothing.

    ``reads_span`` says whether summarizing costs a model call that reads the span.
    """

    name = "summarizer"
    reads_span = False

    def summarize(self, span: tuple[Entry, ...], summary_id: str) -> Summary | None:
        raise NotImplementedError


class Terse(Summarizer):
    """What people said, without the tool chatter: one line per said event or earlier summary. No model call."""

    name = "terse"
    label_tokens = 1  # "user: ", "support: ": the speaker's label on each line

    def summarize(self, span: tuple[Entry, ...], summary_id: str) -> Summary | None:
        lines = tuple(entry for entry in span if isinstance(entry, Summary) or entry.said)
        if not lines:
            return None
        return write_summary(summary_id, span, sum(line.tokens + self.label_tokens for line in lines), lines, self.name)


class AgentModel(Summarizer):
    """A stand-in for the agent's own model summarizing: a fixed fifth of the span, at least 40 tokens.

    No model is called. The ratio is a teaching figure, not a measurement of any model.
    """

    name = "model"
    reads_span = True
    percent = 20
    at_least = 40

    def summarize(self, span: tuple[Entry, ...], summary_id: str) -> Summary | None:
        read = sum(entry.tokens for entry in span)
        tokens = max(self.at_least, -(-read * self.percent // 100))
        requests = tuple(entry for entry in span if isinstance(entry, Summary) or entry.kind == "user")
        return write_summary(summary_id, span, tokens, requests, self.name)


terse = Terse()
SUMMARIZERS: Mapping[str, str] = {"terse": "Terse: what people said", "model": "The agent's model"}
_BUILT_IN: Mapping[str, type[Summarizer]] = {"terse": Terse, "model": AgentModel}


def summarizer_named(name: str | Summarizer) -> Summarizer:
    """A built-in summarizer by name; a summarizer itself is taken as it is.

    Args:
        name: ``"terse"``, ``"model"``, or a `Summarizer`.

    Raises:
        lessonkit.checks.Refused: `name` is neither a built-in summarizer's name nor a summarizer.

    Examples:
        >>> from lessonkit.lessons.context_compaction import summarizer_named
        >>> summarizer_named("terse").name
        'terse'
        >>> summarizer_named("gpt")
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: summarizer is 'gpt'; allowed: 'terse', 'model', or a Summarizer
    """
    if isinstance(name, Summarizer):
        return name
    allowed = f"{', '.join(map(repr, SUMMARIZERS))}, or a Summarizer"
    return _BUILT_IN[checks.choice("summarizer", name, _BUILT_IN, allowed=allowed)]()
