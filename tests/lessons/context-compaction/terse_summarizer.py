"""The source's Terse summarizer, as the page shows it: what people said, without the tool chatter.

Written against google-adk, so it lives with the tests rather than in the engine's wheel; the
engine's own ``lessonkit.lessons.context_compaction.Terse`` applies the same rule to the lesson's session.
The code below the first comment is the source's, laid out as the source lays it out.
"""

# agents/support_bot/summarizers.py
from google.adk.apps.base_events_summarizer import BaseEventsSummarizer
from google.adk.events.event import Event
from google.adk.events.event_actions import EventActions, EventCompaction
from google.genai import types


class Terse(BaseEventsSummarizer):
    """What people said, without the tool chatter. No model call at all."""

    async def maybe_summarize_events(self, *, events):
        said = [f"{event.author}: {part.text}"
                for event in events if event.content
                for part in event.content.parts or [] if part.text]
        if not said:
            return None
        return Event(author="user", actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=events[0].timestamp,
                end_timestamp=events[-1].timestamp,
                compacted_content=types.Content(
                    role="model", parts=[types.Part(text="\n".join(said))]),
            )))


terse = Terse()
