"""The clearing rule: which tool results a model request sees replaced by the placeholder.

The rule is LangChain's `ClearToolUsesEdit.apply` (langchain 1.5.0), read from its source and held
to it by the tests. It edits a copy of the whole history before every request and never the
history itself, so the cleared set is worked out afresh each time:

1. Nothing is cleared unless the prompt, counted whole, weighs more than `trigger`.
2. The last `keep` tool results are never cleared.
3. The others are cleared oldest first, skipping the tools in `exclude_tools`.
4. With `clear_at_least` above 0, clearing stops as soon as the tokens reclaimed reach it.

A `Verdict` says, for each result, which of these rules decided it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from lessonkit.lessons.tool_result_clearing.messages import Message, placeholder_tokens
from lessonkit.lessons.tool_result_clearing.setting import Clearing

__all__ = ["Block", "Prompt", "Rule", "Verdict", "edit"]


class Rule(Enum):
    """The rule that decided a tool result's fate at one request."""

    UNDER_TRIGGER = "under the trigger"
    KEPT_RECENT = "among the last results kept"
    EXCLUDED = "its tool is excluded"
    ENOUGH_RECLAIMED = "enough was already reclaimed"
    CLEARED = "cleared"


@dataclass(frozen=True)
class Verdict:
    """One tool result at one request: whether it was cleared, and by which rule."""

    result: str
    tool: str
    tokens: int
    rule: Rule

    @property
    def cleared(self) -> bool:
        return self.rule is Rule.CLEARED


@dataclass(frozen=True)
class Block:
    """One piece of the prompt as the model receives it: the system prompt or one message, as sent.

    Two blocks are the same to the prompt cache only when both the message and its state (whole,
    cleared, or with its calls' inputs cleared) are the same.
    """

    id: str
    kind: str
    tokens: int
    cleared: bool = False
    inputs_cleared: tuple[str, ...] = ()


@dataclass(frozen=True)
class Prompt:
    """What one model request sends, before and after clearing."""

    blocks: tuple[Block, ...]
    whole: int
    verdicts: tuple[Verdict, ...]

    @cached_property  # a prompt never changes, and the run's totals and each view of it ask its weight
    def tokens(self) -> int:
        """The prompt's weight as sent, after clearing."""
        return sum(block.tokens for block in self.blocks)

    @property
    def cleared(self) -> tuple[str, ...]:
        """The tool results cleared in this prompt, oldest first."""
        return tuple(verdict.result for verdict in self.verdicts if verdict.cleared)

    @property
    def reclaimed(self) -> int:
        """The tokens clearing took out of this prompt."""
        return self.whole - self.tokens


def edit(system_tokens: int, history: Sequence[Message], setting: Clearing) -> Prompt:
    """The prompt a model request sends for `history`, after `setting` has cleared what it clears.

    Args:
        system_tokens: The weight of the system prompt and the tool definitions, which come first
            and are never cleared.
        history: Every message so far, whole, oldest first.
        setting: The clearing setting.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import Clearing, edit, lesson
        >>> history = lesson().messages[:11]  # what the sixth request sees: up to read_file's second result
        >>> prompt = edit(lesson().system_tokens, history, Clearing(trigger=5000, keep=2))
        >>> prompt.cleared, prompt.whole, prompt.tokens
        (('r1', 'r2', 'r3'), 11727, 6616)
    """
    whole = system_tokens + sum(message.weight() for message in history)
    results = [index for index, message in enumerate(history) if message.kind == "tool"]
    kept = set(results[max(0, len(results) - setting.keep) :]) if setting.keep else set()
    rules: dict[int, Rule] = {}
    reclaimed = 0
    cleared_inputs: set[str] = set()
    for index in results:
        message = history[index]
        if whole <= setting.trigger:
            rules[index] = Rule.UNDER_TRIGGER
        elif index in kept:
            rules[index] = Rule.KEPT_RECENT
        elif message.tool in setting.exclude_tools:
            rules[index] = Rule.EXCLUDED
        elif setting.clear_at_least and reclaimed >= setting.clear_at_least:
            rules[index] = Rule.ENOUGH_RECLAIMED
        else:
            rules[index] = Rule.CLEARED
            reclaimed += message.tokens - placeholder_tokens(setting.placeholder)
            if setting.clear_tool_inputs:
                assert message.call is not None
                cleared_inputs.add(message.call.id)
                reclaimed += message.call.input_tokens
    blocks = [Block("system", "system", system_tokens)]
    for index, message in enumerate(history):
        if rules.get(index) is Rule.CLEARED:
            blocks.append(Block(message.id, message.kind, placeholder_tokens(setting.placeholder), cleared=True))
        else:
            inputs = tuple(call.id for call in message.calls if call.id in cleared_inputs)
            blocks.append(Block(message.id, message.kind, message.weight(inputs_cleared=frozenset(inputs)), inputs_cleared=inputs))
    verdicts = tuple(Verdict(history[index].id, history[index].tool or "", history[index].tokens, rules[index]) for index in results)
    return Prompt(tuple(blocks), whole, verdicts)
