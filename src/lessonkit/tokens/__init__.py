"""Real tokens: a text as OpenAI's o200k_base or cl100k_base encodes it, token for token as tiktoken does.

The lessons weigh their turns in teaching tokens, fixed numbers chosen to make a point. This is the
other measure: what a real tokenizer makes of a text, always named with its encoding. It is
tiktoken's algorithm in the standard library, so it runs in the reader's browser too:

1. the encoding's pattern splits the text into pieces (`pattern`), and no token crosses a piece;
2. each piece, as UTF-8 bytes, is merged pair by pair into tokens by the encoding's ranks (`byte_pair`);
3. the ranks come from the encoding's rank file (`ranks`), read the first time they are needed (`rank_files`).

The tests check it against tiktoken itself, loaded from the same rank files, on every page, sample
and fixture of the course, a corpus of Unicode, and random text.

Its limits, which are tiktoken's `encode_ordinary`: a text is ordinary text, so "<|endoftext|>"
written in it is counted as the characters it is, never as the special token; and a text that
is not Unicode (a lone surrogate, which UTF-8 cannot encode) is refused, where tiktoken would
count a U+FFFD in its place.
"""

from __future__ import annotations

from typing import Any

from lessonkit import checks
from lessonkit.checks import Refused
from lessonkit.tokens import encodings
from lessonkit.tokens.byte_pair import merge
from lessonkit.tokens.encodings import DEFAULT, ENCODINGS
from lessonkit.tokens.pattern import pieces
from lessonkit.tokens.rank_files import ranks

__all__ = ["DEFAULT", "ENCODINGS", "count", "decode", "encode"]


def _text(text: Any) -> str:
    checks.text("text", text, empty=True)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused("text", text, "a string of Unicode text, without lone surrogates (U+D800 to U+DFFF)") from None
    return text


def encode(text: Any, encoding: Any = DEFAULT) -> list[int]:
    """The token ids of `text` in `encoding`.

    Args:
        text: Any string of Unicode text.
        encoding: ``"o200k_base"`` (GPT-4o and later) or ``"cl100k_base"`` (GPT-4, GPT-3.5).

    Raises:
        Refused: `encoding` is not one of the two, or `text` is not a string of Unicode text.

    Examples:
        >>> from lessonkit import tokens
        >>> tokens.encode("Hello, world!")
        [13225, 11, 2375, 0]
        >>> tokens.encode("Hello, world!", "cl100k_base")
        [9906, 11, 1917, 0]
        >>> tokens.encode(42)
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: text is 42; allowed: a string
    """
    spec = encodings.encoding(encoding)
    text = _text(text)
    encoder = ranks(spec.name).encoder
    ids: list[int] = []
    for piece in pieces(text, spec):
        raw = piece.encode("utf-8")
        token = encoder.get(raw)
        if token is None:
            ids.extend(merge(raw, encoder))
        else:
            ids.append(token)
    return ids


def count(text: Any, encoding: Any = DEFAULT) -> int:
    """How many tokens `text` is in `encoding`: ``len(encode(text, encoding))``.

    Args:
        text: Any string of Unicode text.
        encoding: ``"o200k_base"`` or ``"cl100k_base"``.

    Raises:
        Refused: `encoding` is not one of the two, or `text` is not a string of Unicode text.

    Examples:
        >>> from lessonkit import tokens
        >>> tokens.count("Summarize the last eight turns."), tokens.count("½ of x²", "cl100k_base")
        (8, 4)
    """
    return len(encode(text, encoding))


def decode(ids: Any, encoding: Any = DEFAULT) -> str:
    """The text of token ids `ids` in `encoding`; bytes that are not whole UTF-8 characters read as U+FFFD.

    ``decode(encode(text)) == text`` for every text. A special token's id reads as its name
    (``<|endoftext|>``), and ids cut out of a sequence may split a character, as tiktoken reads them.

    Args:
        ids: A list (or tuple) of token ids of `encoding`.
        encoding: ``"o200k_base"`` or ``"cl100k_base"``.

    Raises:
        Refused: `encoding` is not one of the two, `ids` is not a list, or one of its ids is not a token of `encoding`.

    Examples:
        >>> from lessonkit import tokens
        >>> tokens.decode([13225, 11, 2375, 0])
        'Hello, world!'
        >>> tokens.decode([199999]), tokens.decode([9906, 100257], "cl100k_base")
        ('<|endoftext|>', 'Hello<|endoftext|>')
        >>> tokens.decode([13225, 200000])
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: ids[1] is 200000; allowed: a token id of o200k_base: a whole number from 0 to 199997, or ...
    """
    spec = encodings.encoding(encoding)
    checks.instance("ids", ids, (list, tuple), f"a list of token ids of {spec.name}")
    ordinary = ranks(spec.name).tokens
    special = {token: text.encode("utf-8") for text, token in spec.special_tokens}
    parts = []
    for at, token in enumerate(ids):
        if type(token) is int and 0 <= token < len(ordinary):
            parts.append(ordinary[token])
        elif type(token) is int and token in special:
            parts.append(special[token])
        else:
            raise Refused(f"ids[{at}]", token, spec.allowed_ids())
    return b"".join(parts).decode("utf-8", errors="replace")
