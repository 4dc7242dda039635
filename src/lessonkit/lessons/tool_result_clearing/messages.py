"""What an agent's conversation holds: user messages, the agent's messages with their tool calls,
and the tool results that answer them, each with a teaching-token weight.

Weights are fixed teaching tokens, not tokenizer output. A cleared result is replaced by a
placeholder, whose weight follows the rule of thumb of four characters to a token
(`placeholder_tokens`), so that a reader who writes a longer placeholder sees it cost more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["KINDS", "Message", "ToolCall", "placeholder_tokens"]

KINDS = ("user", "assistant", "tool")
Kind = Literal["user", "assistant", "tool"]
CHARACTERS_PER_TOKEN = 4


def placeholder_tokens(placeholder: str) -> int:
    """The teaching tokens of a placeholder: one per four characters, rounded up, and at least one.

    Args:
        placeholder: The text a cleared result is replaced by.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import placeholder_tokens
        >>> placeholder_tokens("[cleared]"), placeholder_tokens("[old result cleared; call the tool again]")
        (3, 11)
    """
    return max(1, -(-len(placeholder) // CHARACTERS_PER_TOKEN))


@dataclass(frozen=True)
class ToolCall:
    """One call the agent makes: which tool, with what input, and what the input weighs."""

    id: str
    tool: str
    input: str
    input_tokens: int

    def same_request(self, other: ToolCall) -> bool:
        """Whether `other` asks the same tool for the same thing, so that its result serves this call's need."""
        return (self.tool, self.input) == (other.tool, other.input)


@dataclass(frozen=True)
class Message:
    """One message of the conversation.

    An agent's message (`assistant`) may carry tool calls; each is answered by one `tool` message
    right after it, whose `call` names the call. `needs` lists the calls whose results the agent
    must see to write this message (a file it edits must be in view). `again` is set on a message the
    replay adds, the calls made again because clearing hid a result: it names the agent message
    that needed the result.
    """

    id: str
    kind: Kind
    tokens: int
    text: str
    calls: tuple[ToolCall, ...] = ()
    call: ToolCall | None = None
    needs: tuple[str, ...] = ()
    again: str | None = None

    @property
    def tool(self) -> str | None:
        """The tool that gave this result, for a tool message."""
        return self.call.tool if self.call is not None else None

    def weight(self, *, inputs_cleared: frozenset[str] = frozenset()) -> int:
        """The teaching tokens this message adds to a prompt: its text and its calls' inputs, but
        not the inputs of the calls named in `inputs_cleared`."""
        return self.tokens + sum(call.input_tokens for call in self.calls if call.id not in inputs_cleared)
