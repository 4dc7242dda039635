"""Each page's Markdown copy, weighed in real tokens: for "Copy for AI" and for ``llms.txt``.

The build writes every page as Markdown beside its HTML (mkdocs-llmstxt): it is what "Copy for AI"
copies and what ``llms.txt`` lists. A reader about to paste a page into an assistant wants to know
what it weighs in a real model's tokens, not in the lessons' teaching tokens. So the build counts
each copy in `ENCODING` with `lessonkit.tokens` (tiktoken's algorithm, the checkout's ranks), writes
the counts beside the course's scripts (`COUNTS`) for the button to say, and notes each page's count
on its line of ``llms.txt``. Nothing is counted in the reader's browser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

from lessonkit import tokens

__all__ = ["COUNTS", "ENCODING", "count_copies", "noted", "write_counts"]

ENCODING = tokens.DEFAULT
"""The encoding pages are counted in: o200k_base, GPT-4o's and later models'."""

COUNTS = Path("assets") / "course" / "markdown-tokens.json"
"""Where the counts go, relative to the site: the Markdown copy's address relative to the site's root, with its count."""

# A page's line in llms.txt: "- [Title](address)", then ": notes" or nothing.
PAGE_LINE = re.compile(r"^(?P<link>- \[[^\]\n]*\]\((?P<address>[^)\s]+)\))(?::[ \t]*(?P<notes>.*))?$", re.MULTILINE)


def count_copies(site: Path) -> dict[str, int]:
    """Every Markdown copy in `site`, by its address relative to the site's root, with its `ENCODING` count.

    Args:
        site: The built site's folder.

    Examples:
        >>> import tempfile
        >>> from pathlib import Path
        >>> from lessonkit.authoring.markdown_tokens import count_copies
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     _ = (Path(folder) / "glossary").mkdir()
        ...     _ = (Path(folder) / "glossary" / "index.md").write_text("# Glossary", encoding="utf-8")
        ...     count_copies(Path(folder))
        {'glossary/index.md': 3}
    """
    copies = sorted(site.rglob("*.md"))
    return {path.relative_to(site).as_posix(): tokens.count(path.read_text(encoding="utf-8"), ENCODING) for path in copies}


def noted(llms_txt: str, counts: dict[str, int], site_url: str) -> str:
    """`llms_txt` with each listed page's count at the end of its line's notes.

    Args:
        llms_txt: The text of ``llms.txt``, as mkdocs-llmstxt wrote it.
        counts: `count_copies`'s counts.
        site_url: The site's address, which the listed addresses begin with.

    Raises:
        KeyError: A listed page has no count: the build wrote no Markdown copy at its address.

    Examples:
        >>> from lessonkit.authoring.markdown_tokens import noted
        >>> noted("- [Glossary](https://example.org/course/glossary/index.md)\\n", {"glossary/index.md": 1234}, "https://example.org/course/")
        '- [Glossary](https://example.org/course/glossary/index.md): 1,234 o200k_base tokens\\n'
        >>> noted("- [Home](https://example.org/index.md): start here\\n", {"index.md": 80}, "https://example.org/")
        '- [Home](https://example.org/index.md): start here (80 o200k_base tokens)\\n'
    """
    root = urlsplit(site_url).path.lstrip("/")

    def with_count(line: re.Match[str]) -> str:
        path = urlsplit(line["address"]).path.lstrip("/")
        relative = path[len(root) :] if path.startswith(root) else path
        weight = f"{counts[relative]:,} {ENCODING} tokens"
        return f"{line['link']}: {line['notes']} ({weight})" if line["notes"] else f"{line['link']}: {weight}"

    return PAGE_LINE.sub(with_count, llms_txt)


def write_counts(site: Path, site_url: str) -> dict[str, int]:
    """Count every Markdown copy of the built `site`, write the counts to `COUNTS` and note them in ``llms.txt``; the counts."""
    counts = count_copies(site)
    (site / COUNTS).parent.mkdir(parents=True, exist_ok=True)
    (site / COUNTS).write_text(json.dumps(counts, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    listing = site / "llms.txt"
    listing.write_text(noted(listing.read_text(encoding="utf-8"), counts, site_url), encoding="utf-8")
    return counts
