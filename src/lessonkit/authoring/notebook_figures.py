"""A notebook's figures as image files beside its page, not inside its HTML.

nbconvert writes each figure a notebook draws into the page as a base64 ``data:`` URL: three
figures are about 100 kB of text that no compression shrinks much, and a reader downloads and parses
all of it before the page can first paint, even when no figure is on the screen
(bench/FINDINGS.md). Written as a file beside the page instead, a figure is fetched by the browser
when the reader scrolls near it (``loading="lazy"``), its width and height keep its place so the page
does not shift when it arrives, and the offline copy of the course keeps it like any other file.

A file is named by a hash of its bytes: the same figure keeps its name from one build to the next,
and two figures never share one. Only PNG figures move, since a PNG states its own size in its first
bytes; any other ``data:`` image stays where nbconvert put it.

Each figure is also described for a reader who cannot see it. nbconvert gives a figure without alt
text the same sentence, "No description has been provided for this image", which is what a screen
reader would say of every chart in the course. The notebook's author writes each description in the
metadata of the cell that draws the figure, one per figure it shows, in order::

    "metadata": {"lessonkit": {"figures": ["Line chart of ... against ...; ..."]}}

``descriptions`` reads them from the executed notebook, each keyed by the file its figure becomes,
and the build refuses a figure left undescribed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import re
import struct
from collections.abc import Mapping
from typing import Any

# Where a notebook's cell keeps the descriptions of the figures it draws.
METADATA_KEY = "lessonkit"
DESCRIPTIONS_KEY = "figures"
ALT = re.compile(r'\salt="[^"]*"')
FIGURE = re.compile(r'<img\b(?P<before>[^>]*?)\ssrc="data:image/png;base64,(?P<data>[A-Za-z0-9+/=\s]+)"(?P<after>[^>]*)>')
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SIZED = re.compile(r"\s(?:width|height)=", re.IGNORECASE)


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height a PNG declares in its header chunk.

    Args:
        data: the PNG file's bytes.

    Raises:
        ValueError: when `data` does not begin as a PNG does (its signature, then its IHDR chunk).

    Examples:
        >>> png_size(PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", 690, 310) + bytes(5))
        (690, 310)
        >>> png_size(b"GIF89a")
        Traceback (most recent call last):
        ...
        ValueError: not a PNG: it does not begin with the PNG signature and an IHDR chunk (it begins b'GIF89a')
    """
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError(f"not a PNG: it does not begin with the PNG signature and an IHDR chunk (it begins {data[:16]!r})")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def figure_name(data: bytes) -> str:
    """The file name of a figure with these bytes: the same figure always gets the same name.

    Examples:
        >>> figure_name(b"figure") == figure_name(b"figure") != figure_name(b"another figure")
        True
        >>> re.fullmatch(r"figure-[0-9a-f]{16}[.]png", figure_name(b"figure")) is not None
        True
    """
    return f"figure-{hashlib.sha256(data).hexdigest()[:16]}.png"


def descriptions(notebook: Mapping[str, Any], where: str) -> dict[str, str]:
    """Each figure's description, as its cell's metadata gives it, by the file name the figure gets.

    Args:
        notebook: an executed notebook, as its JSON reads.
        where: the notebook's name, for the errors.

    Raises:
        ValueError: when a cell shows PNG figures and its metadata does not describe each of them,
            in a list of as many non-empty strings as it shows figures.

    Examples:
        >>> png = PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", 4, 3) + bytes(5)
        >>> output = {"output_type": "display_data", "data": {"image/png": base64.b64encode(png).decode()}}
        >>> cell = {"cell_type": "code", "outputs": [output], "metadata": {"lessonkit": {"figures": ["A chart"]}}}
        >>> descriptions({"cells": [cell]}, "demo.ipynb") == {figure_name(png): "A chart"}
        True
        >>> descriptions({"cells": [{**cell, "metadata": {}}]}, "demo.ipynb")
        Traceback (most recent call last):
        ...
        ValueError: demo.ipynb, cell 0: it shows 1 figure(s) but its metadata describes 0; write one description each, ...
    """
    found: dict[str, str] = {}
    for index, cell in enumerate(notebook.get("cells", [])):
        figures = [
            base64.b64decode(re.sub(r"\s", "", "".join(output["data"]["image/png"])))
            for output in cell.get("outputs", [])
            if "image/png" in output.get("data", {})
        ]
        written = cell.get("metadata", {}).get(METADATA_KEY, {}).get(DESCRIPTIONS_KEY, [])
        described = isinstance(written, list) and all(isinstance(text, str) and text.strip() for text in written)
        if not figures and not written:
            continue
        if not described or len(written) != len(figures):
            raise ValueError(
                f"{where}, cell {index}: it shows {len(figures)} figure(s) but its metadata describes "
                f"{len(written) if isinstance(written, list) else 'none of them'}; write one description each, in order, "
                f'as "metadata": {{"{METADATA_KEY}": {{"{DESCRIPTIONS_KEY}": ["..."]}}}}'
            )
        found.update((figure_name(data), " ".join(text.split())) for data, text in zip(figures, written, strict=True))
    return found


def with_figures_as_files(page_html: str, described: Mapping[str, str] | None = None) -> tuple[str, dict[str, bytes]]:
    """`page_html` with each PNG figure inside it moved out to a file, and those files by name.

    Each image keeps its other attributes, gets the file as its source, the figure's own width and
    height unless it already states a size, and is loaded lazily and decoded off the page's main
    thread. Its alt text is its description in `described`, when that is given; otherwise it keeps
    the alt text it had.

    Args:
        page_html: a notebook page's content, as mkdocs-jupyter wrote it.
        described: every figure's description by its file name (``descriptions``), or None.

    Raises:
        ValueError: when an image's ``data:`` URL says PNG but its bytes are not base64 or not a PNG,
            or when `described` is given and does not describe a figure.

    Examples:
        >>> png = PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", 4, 3) + bytes(5)
        >>> source = base64.b64encode(png).decode()
        >>> html, files = with_figures_as_files(f'<img alt="A chart" src="data:image/png;base64,{source}"/>')
        >>> name = figure_name(png)
        >>> html == f'<img alt="A chart" src="{name}" width="4" height="3" loading="lazy" decoding="async"/>'
        True
        >>> files == {name: png}
        True
    """
    files: dict[str, bytes] = {}

    def moved(found: re.Match[str]) -> str:
        try:
            data = base64.b64decode(re.sub(r"\s", "", found["data"]), validate=True)
        except binascii.Error as error:
            raise ValueError(f"a figure's data: URL is not valid base64 ({error})") from error
        width, height = png_size(data)
        name = figure_name(data)
        files[name] = data
        before, after = found["before"], found["after"]
        if described is not None:
            if name not in described:
                raise ValueError(f"a figure ({name}, {width}×{height}) has no description; its cell's metadata lists none for it")
            alt = f' alt="{html.escape(described[name])}"'
            before, after = ALT.sub("", before), ALT.sub("", after)
            before = alt + before
        closing = "/" if after.rstrip().endswith("/") else ""
        after = after.rstrip().removesuffix("/").rstrip()
        size = "" if SIZED.search(before + after) else f' width="{width}" height="{height}"'
        return f'<img{before} src="{name}"{after}{size} loading="lazy" decoding="async"{closing}>'

    return FIGURE.sub(moved, page_html), files
