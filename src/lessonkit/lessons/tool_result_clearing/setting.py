"""The clearing setting, field for field as LangChain's `ClearToolUsesEdit` and Anthropic's
`clear_tool_uses_20250919` name it, with LangChain's defaults, and its refusals.

A bad value is refused when the setting is made, naming the field and what it allows, so a sample
or a link with a typo fails at once rather than replaying a session nobody asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lessonkit import checks
from lessonkit.checks import Refused

__all__ = ["DEFAULT_PLACEHOLDER", "FIELDS", "LONGEST_PLACEHOLDER", "Clearing"]

DEFAULT_PLACEHOLDER = "[cleared]"
FIELDS = ("trigger", "clear_at_least", "keep", "clear_tool_inputs", "exclude_tools", "placeholder")
# A placeholder stands in for a result; one longer than a short sentence would be a result itself.
LONGEST_PLACEHOLDER = 200


@dataclass(frozen=True)
class Clearing:
    """When and how old tool results are cleared from the prompt before each model request.

    Attributes:
        trigger: Clearing runs only when the prompt weighs more than this many tokens.
        clear_at_least: Once it runs, clearing stops as soon as it has reclaimed this many tokens;
            0 clears every result it may.
        keep: The most recent tool results that are never cleared.
        clear_tool_inputs: Also clear the input of the call whose result is cleared.
        exclude_tools: Tools whose results are never cleared.
        placeholder: The text a cleared result is replaced by.

    Raises:
        lessonkit.checks.Refused: A field has a value it does not allow; the message names the
            field and what is allowed.

    Examples:
        >>> from lessonkit.lessons.tool_result_clearing import Clearing
        >>> Clearing()
        Clearing(trigger=100000, clear_at_least=0, keep=3, clear_tool_inputs=False, exclude_tools=(), placeholder='[cleared]')
        >>> Clearing(keep=-1)
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: keep is -1; allowed: a whole number, 0 or more
    """

    trigger: int = 100_000
    clear_at_least: int = 0
    keep: int = 3
    clear_tool_inputs: bool = False
    exclude_tools: tuple[str, ...] = field(default=())
    placeholder: str = DEFAULT_PLACEHOLDER

    def __post_init__(self) -> None:
        checks.whole("trigger", self.trigger, minimum=0, unit="tokens")
        checks.whole("clear_at_least", self.clear_at_least, minimum=0, unit="tokens")
        checks.whole("keep", self.keep, minimum=0)
        checks.flag("clear_tool_inputs", self.clear_tool_inputs)
        object.__setattr__(self, "exclude_tools", _tool_names(self.exclude_tools))
        checks.text("placeholder", self.placeholder)
        if len(self.placeholder) > LONGEST_PLACEHOLDER:
            raise Refused("placeholder", self.placeholder, f"a non-empty string of at most {LONGEST_PLACEHOLDER} characters")

    @property
    def fields(self) -> dict[str, Any]:
        """The setting as keyword arguments, for ``ClearToolUsesEdit(**setting.fields)`` or a new `Clearing`."""
        return {name: getattr(self, name) for name in FIELDS}


def _tool_names(names: Any) -> tuple[str, ...]:
    # A single name given as a string would otherwise be read as its letters.
    allowed = "a list of tool names, such as ['update_plan']"
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise Refused("exclude_tools", names, allowed)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise Refused("exclude_tools", names, allowed)
    return tuple(dict.fromkeys(names))
