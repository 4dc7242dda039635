"""Writes `lessonkit/tokens/unicode_classes.py`: the Unicode classes of tiktoken's patterns, as ranges.

tiktoken's patterns name Unicode properties (``\\p{L}``, ``\\p{Lu}``, ``\\p{M}``, ``\\p{N}``, ``\\s``)
that Python's `re` does not know. The pre-tokenizer spells each one out as ranges of code points,
and those ranges come from this table, written once and committed, never from the running
interpreter's `unicodedata`: CPython 3.11 has Unicode 14.0, the reader's Pyodide 15.1, and the
regex engine inside tiktoken its own version. The table holds one Unicode version, named in it,
so CI, the build and the reader's browser split a text the same way; the tests check it against
tiktoken's regex engine, code point by code point.

The general categories come from `unicodedata2` (the standard library's `unicodedata`, released
for each Unicode version), installed at the version the table is for; White_Space, which no
`unicodedata` holds, from the database's PropList.txt, below. To move to another Unicode version
(when the tiktoken the tests pin moves)::

    pip install unicodedata2==16.0.0        # the Unicode version of tiktoken's regex engine
    python -m lessonkit.authoring.unicode_table
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "tokens" / "unicode_classes.py"
# The general categories each class of the table gathers.
CATEGORIES = {
    "Lu": ("Lu",),
    "Ll": ("Ll",),
    "Lt": ("Lt",),
    "Lm": ("Lm",),
    "Lo": ("Lo",),
    "M": ("Mn", "Mc", "Me"),
    "N": ("Nd", "Nl", "No"),
}
# PropList.txt's White_Space, unchanged since Unicode 6.3 (U+180E left it then); what the regex
# engine's \s is, and not Python's str.isspace, which also holds U+001C to U+001F.
WHITE_SPACE = ((0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A))
WHITE_SPACE += ((0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000))
WIDTH = 100  # characters of ranges per line of the written table


def ranges(members: Callable[[int], bool]) -> list[tuple[int, int]]:
    """The code points for which `members` holds, as (first, last) runs in order."""
    found: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        if members(code):
            if found and found[-1][1] == code - 1:
                found[-1] = (found[-1][0], code)
            else:
                found.append((code, code))
    return found


def spelled(runs: Iterable[tuple[int, int]]) -> list[str]:
    """Runs as the table writes them, "0041-005A" or "00AA", in lines of at most `WIDTH` characters."""
    words = [f"{first:04X}" if first == last else f"{first:04X}-{last:04X}" for first, last in runs]
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > WIDTH:
            lines.append(line + " ")
            line = ""
        line = f"{line} {word}" if line else word
    return [*lines, line]


def table(category: Callable[[str], str], version: str) -> str:
    """The text of the table module, from a `unicodedata`'s `category` at Unicode `version`."""
    classes = {name: ranges(lambda code, cats=cats: category(chr(code)) in cats) for name, cats in CATEGORIES.items()}
    classes["White_Space"] = list(WHITE_SPACE)
    body = ""
    for name, runs in classes.items():
        lines = spelled(runs)
        if len(lines) == 1:
            body += f'    "{name}": "{lines[0]}",\n'
        else:
            body += f'    "{name}": (\n' + "".join(f'        "{line}"\n' for line in lines) + "    ),\n"
    return f'''"""The Unicode classes of tiktoken's patterns, as runs of code points: Unicode {version}. Generated: do not edit.

Written by `python -m lessonkit.authoring.unicode_table` from the Unicode Character Database
{version}, the version of the Unicode tables in the regex engine of the tiktoken the tests pin;
they check every code point of every class against it. Each class is a string of runs, "0041-005A"
or "00AA", in hexadecimal: the general categories (L's five, M for Mn Mc Me, N for Nd Nl No) and
White_Space, which is what tiktoken's \\\\s means.
"""

UNICODE_VERSION = "{version}"

RUNS = {{
{body}}}
'''


def main() -> None:
    import unicodedata2  # the generator's own need: not a dependency of lessonkit

    TABLE.write_text(table(unicodedata2.category, unicodedata2.unidata_version), encoding="utf-8")
    print(f"wrote {TABLE} (Unicode {unicodedata2.unidata_version})")


if __name__ == "__main__":
    main()
