"""A notebook's figures are image files beside its page, each sized on the page and kept offline.

The rewriting is checked on small pages made here; the built site that `make site` wrote is
checked as the browser tests read it, against the figures' own bytes.
"""

from __future__ import annotations

import base64
import re
import struct
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from lessonkit.authoring.notebook_figures import PNG_SIGNATURE, figure_name, png_size, with_figures_as_files
from lessonkit.authoring.offline import written_course

SITE = Path(__file__).parents[2] / "site"


def png(width: int, height: int, body: bytes = b"") -> bytes:
    return PNG_SIGNATURE + struct.pack(">I4sII", 13, b"IHDR", width, height) + bytes(5) + body


def data_url(data: bytes, kind: str = "png") -> str:
    return f"data:image/{kind};base64,{base64.b64encode(data).decode()}"


def test_a_figure_leaves_the_page_for_a_file_named_by_its_bytes_keeping_its_alt_text():
    figure = png(690, 310, b"the chart")
    page = f'<div class="jp-RenderedImage"><img alt="Window tokens per turn" class="" src="{data_url(figure)}"/></div>'
    html, files = with_figures_as_files(page)
    assert files == {figure_name(figure): figure}
    image = BeautifulSoup(html, "html.parser").img
    assert image["src"] == figure_name(figure)
    assert image["alt"] == "Window tokens per turn"
    assert (image["width"], image["height"]) == ("690", "310")
    assert (image["loading"], image["decoding"]) == ("lazy", "async")
    assert "data:" not in html


def test_the_same_figure_twice_is_one_file_and_two_figures_are_two():
    one, other = png(10, 10, b"one"), png(10, 10, b"other")
    html, files = with_figures_as_files("".join(f'<img alt="" src="{data_url(each)}">' for each in (one, one, other)))
    assert sorted(files) == sorted({figure_name(one), figure_name(other)})
    assert html.count(f'src="{figure_name(one)}"') == 2


def test_an_image_that_states_its_size_keeps_that_size():
    html, _ = with_figures_as_files(f'<img width="300" src="{data_url(png(690, 310))}" alt="">')
    image = BeautifulSoup(html, "html.parser").img
    assert image["width"] == "300" and not image.has_attr("height")


def test_an_image_that_is_not_a_png_stays_in_the_page():
    page = f'<img alt="" src="{data_url(b"<svg/>", "svg+xml")}">'
    assert with_figures_as_files(page) == (page, {})


def test_a_data_url_that_says_png_but_holds_something_else_is_refused_by_what_it_holds():
    with pytest.raises(ValueError, match=r"not a PNG: .*it begins b'GIF89a"):
        with_figures_as_files(f'<img alt="" src="{data_url(b"GIF89a and the rest of a GIF")}">')
    with pytest.raises(ValueError, match="not valid base64"):
        with_figures_as_files('<img alt="" src="data:image/png;base64,iVBOR=w0KGgo">')


@pytest.fixture(scope="module")
def notebook_pages() -> list[Path]:
    pages = sorted((SITE / "notebooks").glob("*/index.html"))
    if not pages:
        pytest.fail(f"the built site is missing ({SITE / 'notebooks'} has no pages): run make site", pytrace=False)
    return pages


def test_every_built_notebook_figure_is_a_file_beside_its_page_at_its_own_size_and_kept_offline(notebook_pages):
    kept = {path for path, _bytes, _integrity in written_course(SITE)["files"]}
    figures = 0
    for page in notebook_pages:
        html = page.read_text(encoding="utf-8")
        assert not re.search(r"data:image/png", html), f"{page} still carries a figure inside it"
        for image in BeautifulSoup(html, "html.parser").select(".jp-RenderedImage img"):
            figure = page.parent / image["src"]
            assert figure.is_file(), f"{page} shows {image['src']}, which the build did not write"
            assert png_size(figure.read_bytes()) == (int(image["width"]), int(image["height"]))
            assert figure.relative_to(SITE).as_posix() in kept, f"the offline copy of the course leaves {figure} out"
            figures += 1
    assert figures >= len(notebook_pages), "every notebook draws at least one figure"
