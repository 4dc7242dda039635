"""What the model reads at one setting of a panel, as text: its window, its tray or its prompt.

A lesson's panel weighs what it shows in teaching tokens, the fixed weights its fixture gives. A
reader may ask what the same texts weigh in a real tokenizer: the panel then hands the shell a
`Reading`, and the worker counts its texts with `lessonkit.tokens` (`lessonkit.runtime.count`).
The two measures are said side by side, each named, and never added together: the lesson's model
goes on deciding by its teaching tokens whatever the real count says.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """The texts a panel's model reads at one setting.

    `what` names them as the subject of a sentence ("the 5 entries of the window after T7");
    `texts` is each item's text as the model would read it, in order; `teaching` is what the
    lesson weighs the same items at, in its own `unit` ("teaching tokens", or "words" where the
    lesson counts words), as its panel shows it. `untexted` is a sentence on what the lesson weighs
    but has no text for (an attachment known only by its size), or "" when every item has its
    text: the real count leaves it out, and the page says so.
    """

    what: str
    texts: tuple[str, ...]
    teaching: int
    unit: str = "teaching tokens"
    untexted: str = ""
