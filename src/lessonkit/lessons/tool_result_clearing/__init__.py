"""Clearing old tool results, and what it costs the prompt cache.

A clearing setting, field for field as LangChain's `ClearToolUsesEdit` and Anthropic's
`clear_tool_uses_20250919` name it, replayed over one synthetic coding-agent session request by
request: which tool results each request sees cleared, the calls that clearing makes the agent
make again, and what the prompt cache reads and writes, priced with Anthropic's published
multipliers. Every message has a teaching-token weight, not tokenizer output; no model is called.
The tests hold the clearing rule to LangChain 1.5.0's own `ClearToolUsesEdit.apply`.

Its modules, one concept each, in the order they build on each other: `messages` (what a session
holds), `setting` (the clearing setting and its refusals), `clearing` (the rule, one request at a
time), `cache` (what the cache reads and writes, and the price), `session` (the replay), `fixture`,
and `panel` (the experiment).
"""

from lessonkit.lessons.tool_result_clearing.cache import ANTHROPIC_FIVE_MINUTES, CacheUse, Pricing, cached_prefix, first_change, use_cache
from lessonkit.lessons.tool_result_clearing.clearing import Block, Prompt, Rule, Verdict, edit
from lessonkit.lessons.tool_result_clearing.fixture import Lesson, lesson, session_from_record
from lessonkit.lessons.tool_result_clearing.messages import KINDS, Message, ToolCall, placeholder_tokens
from lessonkit.lessons.tool_result_clearing.session import Comparison, Request, Run, Session, Totals, compare, replay
from lessonkit.lessons.tool_result_clearing.setting import DEFAULT_PLACEHOLDER, FIELDS, Clearing

__all__ = [
    "KINDS",
    "Message",
    "ToolCall",
    "placeholder_tokens",
    "DEFAULT_PLACEHOLDER",
    "FIELDS",
    "Clearing",
    "Block",
    "Prompt",
    "Rule",
    "Verdict",
    "edit",
    "ANTHROPIC_FIVE_MINUTES",
    "CacheUse",
    "Pricing",
    "cached_prefix",
    "first_change",
    "use_cache",
    "Comparison",
    "Request",
    "Run",
    "Session",
    "Totals",
    "compare",
    "replay",
    "Lesson",
    "lesson",
    "session_from_record",
]
