"""The theme's own files, written into the built site as the course rewrites them.

The build changes a few of Material's files: two stylesheets (``palette_css.py``,
``theme_tables.py``) and its bundle (``theme_bundle.py``). Each rewrite reads the file from the
theme, never from the site: a rebuild into the same folder, as
`mkdocs serve` makes, then rewrites the theme's text again rather than the course's rewrite of it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def rewrite_theme_file(site: Path, theme_folders: list[Path], pattern: str, rewrite: Callable[[str], str]) -> Path:
    """Write the built site's one file matching `pattern` as `rewrite` makes the theme's own copy.

    Args:
        site: the built site's folder.
        theme_folders: the theme's template folders, the first one searched first (MkDocs's
            ``config["theme"].dirs``).
        pattern: the file's path in the site, a glob (Material's names carry a digest).
        rewrite: the theme's text to the text written.

    Returns:
        The file written.

    Raises:
        ValueError: the site has no file matching `pattern` or more than one, or the theme's
            folders do not hold it; and whatever `rewrite` raises.

    Examples:
        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     site, theme = Path(folder, "site"), Path(folder, "theme")
        ...     for root, text in ((site, "a{}"), (theme, "b{}")):
        ...         (root / "css").mkdir(parents=True)
        ...         _ = (root / "css" / "x.1.css").write_text(text)
        ...     rewrite_theme_file(site, [theme], "css/x.*.css", str.upper).read_text()
        'B{}'
    """
    found = sorted(site.glob(pattern))
    if len(found) != 1:
        names = [path.name for path in found]
        raise ValueError(f"expected one file matching {pattern} in {site}, found {len(found)}: {names}")
    written = found[0]
    relative = written.relative_to(site)
    source = next((Path(folder) / relative for folder in theme_folders if (Path(folder) / relative).is_file()), None)
    if source is None:
        raise ValueError(f"the theme's folders {[str(folder) for folder in theme_folders]} hold no {relative}, which the site has")
    written.write_text(rewrite(source.read_text(encoding="utf-8")), encoding="utf-8")
    return written
