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
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import struct

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


def with_figures_as_files(page_html: str) -> tuple[str, dict[str, bytes]]:
    """`page_html` with each PNG figure inside it moved out to a file, and those files by name.

    Each image keeps its other attributes (its alt text among them), gets the file as its source,
    the figure's own width and height unless it already states a size, and is loaded lazily and
    decoded off the page's main thread.

    Args:
        page_html: a notebook page's content, as mkdocs-jupyter wrote it.

    Raises:
        ValueError: when an image's ``data:`` URL says PNG but its bytes are not base64 or not a PNG.

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
        closing = "/" if after.rstrip().endswith("/") else ""
        after = after.rstrip().removesuffix("/").rstrip()
        size = "" if SIZED.search(before + after) else f' width="{width}" height="{height}"'
        return f'<img{before} src="{name}"{after}{size} loading="lazy" decoding="async"{closing}>'

    return FIGURE.sub(moved, page_html), files
