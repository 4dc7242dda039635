"""What the model sees, by the rule: read from the whole session log, as written.

The model sees the summaries no other summary contains, each as a model-role turn placed at the end
of its span, and the raw events outside every summary. A request carries, in full, every file whose
name is mentioned in what the model sees. These functions read the whole log each time: they are
the rule, and `lessonkit.lessons.context_compaction.session_log` keeps the same answer as the
session grows, tested against them.
"""

from __future__ import annotations

from collections.abc import Iterable

from lessonkit.lessons.context_compaction.events import Attachment, Entry, Event, Summary, weight

# What the model sees, from the session log: raw events and summaries in the order they were written.


def kept_summaries(log: tuple[Entry, ...]) -> tuple[Summary, ...]:
    """The summaries no other summary contains; of two with one span, the later. In written order.

    Args:
        log: The session as written: raw events and summaries.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Compaction
        >>> from lessonkit.lessons.context_compaction import kept_summaries, simulate
        >>> [summary.id for summary in kept_summaries(simulate(Compaction(after_invocations=4, overlap=1)).log)]
        ['S1', 'S2', 'S3']
    """
    written = [(index, entry) for index, entry in enumerate(log) if isinstance(entry, Summary)]
    kept, furthest = set(), None
    for index, summary in sorted(written, key=lambda item: (item[1].start, -item[1].end, -item[0])):
        if furthest is None or summary.end > furthest:
            kept.add(index)
            furthest = summary.end
    return tuple(summary for index, summary in written if index in kept)


def visible(log: tuple[Entry, ...]) -> tuple[Entry, ...]:
    """What the model sees: kept summaries at the end of their spans, and raw events outside every summary.

    Args:
        log: The session as written.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Compaction
        >>> from lessonkit.lessons.context_compaction import simulate, visible
        >>> [entry.id for entry in visible(simulate(Compaction(after_invocations=4, overlap=1)).log)]
        ['S1', 'S2', 'S3']
    """
    kept = kept_summaries(log)
    seen = [entry for entry in log if isinstance(entry, Event) and not any(s.covers(entry.position) for s in kept)]
    return tuple(sorted(seen + list(kept), key=lambda entry: entry.position))


def attached(view: Iterable[Entry], attachments: tuple[Attachment, ...]) -> tuple[Attachment, ...]:
    """The files attached to a request: those whose names the entries the model sees mention.

    Args:
        view: What the model sees.
        attachments: The session's attachments.

    Examples:
        >>> from lessonkit.lessons.context_compaction import attached, lesson
        >>> [file.name for file in attached(lesson().events, lesson().attachments)]
        ['statement-march.pdf']
    """
    return attached_by_name({name for entry in view for name in entry.mentions}, attachments)


def attached_by_name(named: set[str] | frozenset[str], attachments: tuple[Attachment, ...]) -> tuple[Attachment, ...]:
    """The files attached to a request, from the names the entries the model sees mention.

    Args:
        named: The file names mentioned.
        attachments: The session's attachments.

    Examples:
        >>> from lessonkit.lessons.context_compaction import attached_by_name, lesson
        >>> [file.name for file in attached_by_name({"statement-march.pdf", "notes.txt"}, lesson().attachments)]
        ['statement-march.pdf']
    """
    return tuple(attachment for attachment in attachments if attachment.name in named)


def removable(log: tuple[Entry, ...], span: tuple[Entry, ...]) -> int:
    """Tokens that replacing `span` with an empty summary would take out of what the model sees.

    Args:
        log: The session as written so far.
        span: The entries a summary would replace.

    Examples:
        >>> from lessonkit.lessons.context_compaction import lesson, removable
        >>> removable(lesson().events[:8], lesson().events[:4])
        334
    """
    empty = Summary("", min(entry.start for entry in span), max(entry.position for entry in span), 0, (), ())
    return weight(visible(log)) - weight(visible(log + (empty,)))
