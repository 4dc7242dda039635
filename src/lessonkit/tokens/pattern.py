"""The pre-tokenizer: an encoding's pattern splits a text into pieces, and no token crosses a piece.

tiktoken's patterns are written for the Rust regex engine it uses, which knows Unicode properties
(``\\p{L}`` any letter, ``\\p{Lu}`` an upper-case one, ``\\p{M}`` a mark, ``\\p{N}`` a number) and
Python's `re` does not. `translate` rewrites a pattern for `re` and changes nothing else:

- ``\\p{...}`` becomes the property's code points, spelled out from `unicode_classes`: one Unicode
  version, named there, whatever the interpreter's own `unicodedata` is. A guess such as
  ``[^\\W\\d_]`` is not a letter class: it takes "²" and "½" for letters, where they are numbers;
- ``\\s`` and ``\\S`` become Unicode's White_Space and its complement: Python's ``\\s`` also matches
  U+001C to U+001F, which the Rust engine's does not;
- ``$`` becomes ``\\Z``: in the Rust engine it is the end of the text only, where Python's ``$``
  also matches before a final newline.

Possessive quantifiers (``?+``, ``++``, ``{1,3}+``) and scoped flags (``(?i:...)``) mean the same
in both engines (Python's since 3.11), and both take the first alternative that matches, so they
are left as they are. Anything else the translation does not know (``\\d``, ``\\w``, ``\\b``, ``.``,
``\\P{...}``) is refused rather than guessed: a pattern with one would need its own thought.

The classes hold the Basic Multilingual Plane only (U+0000 to U+FFFF), and the pieces of a text
with characters above it are found in a stand-in. Below U+FFFF, `re` looks a character up in a
table at once; above, it tries a class's runs one at a time, hundreds of them for \\p{L}, for every
character it tests, and that was most of the time a count took (bench/FINDINGS.md). So each
character above U+FFFF is put, in a copy of the text, by a stand-in below it with the same classes
(`STAND_INS`: an upper-case letter for an upper-case letter, "¤" for a character of none of them,
such as an emoji), and the pieces are cut from the text at the places the copy's were found. The
patterns name no character above U+FFFF, so the pattern cannot tell a character from its stand-in.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from collections.abc import Iterator
from functools import cache

from lessonkit.tokens.encodings import Encoding
from lessonkit.tokens.unicode_classes import RUNS

__all__ = ["PROPERTIES", "STAND_INS", "compiled", "pieces", "stand_in", "translate"]

PROPERTIES: dict[str, tuple[str, ...]] = {
    "L": ("Lu", "Ll", "Lt", "Lm", "Lo"),
    "Lu": ("Lu",),
    "Ll": ("Ll",),
    "Lt": ("Lt",),
    "Lm": ("Lm",),
    "Lo": ("Lo",),
    "M": ("M",),
    "N": ("N",),
}
"""The Unicode properties a pattern may name, each as the classes of `unicode_classes` it gathers."""

STAND_INS: dict[str | None, str] = {"Lu": "Ā", "Ll": "ā", "Lt": "ǅ", "Lm": "ʰ", "Lo": "ª", "M": "\u0300", "N": "0", None: "¤"}
"""For a character above U+FFFF, the character below it that stands in for it, by its class."""

BMP_END = 0xFFFF
_ABOVE_BMP = re.compile("[\U00010000-\U0010ffff]")

# An escape the translation copies as it is: a character that stands for itself.
_LITERAL_ESCAPES = frozenset("rnt/-'\\[]^(){}|?*+.$ ")
_ESCAPE = re.compile(r"\\(p\{(?P<property>\w+)\}|.)", re.DOTALL)


def _code(code: int) -> str:
    return f"\\U{code:08x}"


def _runs(name: str) -> Iterator[tuple[int, int]]:
    for run in RUNS[name].split():
        first, _, last = run.partition("-")
        yield int(first, 16), int(last or first, 16)


@cache
def _members(classes: tuple[str, ...], whole: bool) -> str:
    """The classes' code points (up to U+FFFF unless `whole`), as the inside of a character class: ``\\U00000041-\\U0000005a...``."""
    end = sys.maxunicode if whole else BMP_END
    spelled = []
    for name in classes:
        for first, last in _runs(name):
            if first <= end:
                last = min(last, end)
                spelled.append(_code(first) + (f"-{_code(last)}" if last > first else ""))
    return "".join(spelled)


@cache
def _above_bmp() -> tuple[list[int], list[tuple[int, str]]]:
    """The runs above U+FFFF of every class, in order: their firsts, and each one's last and stand-in."""
    runs = sorted((first, last, STAND_INS[name]) for name in STAND_INS if name for first, last in _runs(name) if last > BMP_END)
    return [max(first, BMP_END + 1) for first, _, _ in runs], [(last, stand) for _, last, stand in runs]


def stand_in(char: str) -> str:
    """The character below U+FFFF in the same classes as `char`, which is above it.

    Args:
        char: One character above U+FFFF.

    Examples:
        >>> from lessonkit.tokens.pattern import stand_in
        >>> stand_in("𝐀"), stand_in("𝐚"), stand_in("𝟎"), stand_in("🚀")
        ('Ā', 'ā', '0', '¤')
    """
    firsts, runs = _above_bmp()
    code = ord(char)
    at = bisect_right(firsts, code) - 1
    if at >= 0 and code <= runs[at][0]:
        return runs[at][1]
    return STAND_INS[None]


def translate(pattern: str, *, whole: bool = False) -> str:
    """`pattern`, in tiktoken's regex dialect, as Python's `re` writes it, its classes up to U+FFFF.

    Args:
        pattern: An encoding's pattern as tiktoken gives it.
        whole: Spell the classes whole, above U+FFFF too: what the stand-ins are checked against.

    Raises:
        ValueError: The pattern uses something the translation does not know.

    Examples:
        >>> from lessonkit.tokens.pattern import translate
        >>> import re
        >>> [bool(re.fullmatch(translate(r"\\p{N}+"), text)) for text in ("½", "x²", "42")]
        [True, False, True]
        >>> translate(r"\\s++$")[-2:]
        '\\\\Z'
        >>> translate(r"\\d")
        Traceback (most recent call last):
        ...
        ValueError: the pattern's \\d at 0 has no translation: a pattern may use \\p{...} of L, Lu, Ll, Lt, Lm, Lo, M, N; \\s, \\S and $
    """
    out, in_class, at = [], False, 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            escape = _ESCAPE.match(pattern, at)
            if escape is None:
                raise ValueError(f"the pattern ends in a lone backslash at {at}")
            name, letter = escape["property"], escape.group(1)
            if name in PROPERTIES:
                members = _members(PROPERTIES[name], whole)
                out.append(members if in_class else f"[{members}]")
            elif letter == "s":
                members = _members(("White_Space",), whole)
                out.append(members if in_class else f"[{members}]")
            elif letter == "S" and not in_class:
                out.append(f"[^{_members(('White_Space',), whole)}]")
            elif letter in _LITERAL_ESCAPES:
                out.append(escape.group(0))
            else:
                allowed = f"\\p{{...}} of {', '.join(PROPERTIES)}; \\s, \\S and $"
                raise ValueError(f"the pattern's {escape.group(0)} at {at} has no translation: a pattern may use {allowed}")
            at = escape.end()
            continue
        if in_class:
            if char == "[":  # in the Rust engine, a class inside a class: a set operation
                raise ValueError(f"the pattern's class holds another class at {at}, which the translation does not read")
            in_class = char != "]"
        elif char == "[":
            in_class = True
            # A class that opens with "]" (or "^]") holds that bracket: not in tiktoken's patterns.
            if pattern.startswith(("]", "^]"), at + 1):
                raise ValueError(f"the pattern's class at {at} opens with ']', which the translation does not read")
        elif char == "$":
            char = "\\Z"
        elif char == ".":
            raise ValueError(f"the pattern's . at {at} has no translation: the engines differ on which line ends it stops at")
        out.append(char)
        at += 1
    if in_class:
        raise ValueError("the pattern ends inside a character class")
    return "".join(out)


@cache
def compiled(encoding: Encoding) -> re.Pattern[str]:
    """`encoding`'s pattern, translated and compiled once.

    Args:
        encoding: One of `ENCODINGS`.

    Examples:
        >>> from lessonkit.tokens.encodings import ENCODINGS
        >>> from lessonkit.tokens.pattern import compiled
        >>> compiled(ENCODINGS["o200k_base"]).flags & re.UNICODE != 0
        True
    """
    return re.compile(translate(encoding.pattern))


def pieces(text: str, encoding: Encoding) -> Iterator[str]:
    """The pieces `encoding`'s pattern splits `text` into, in order: together they are `text`.

    Args:
        text: Any text.
        encoding: One of `ENCODINGS`.

    Examples:
        >>> from lessonkit.tokens.encodings import ENCODINGS
        >>> from lessonkit.tokens.pattern import pieces
        >>> list(pieces("They're x² ½ OK?  \\n", ENCODINGS["o200k_base"]))
        ["They're", ' x', '²', ' ', '½', ' OK', '?', '  \\n']
        >>> list(pieces("They're 12345", ENCODINGS["cl100k_base"]))
        ['They', "'re", ' ', '123', '45']
    """
    found = compiled(encoding).finditer
    if _ABOVE_BMP.search(text) is None:
        for match in found(text):
            yield match.group()
    else:
        for match in found(_ABOVE_BMP.sub(lambda above: stand_in(above.group()), text)):
            yield text[match.start() : match.end()]
