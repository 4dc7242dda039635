"""A notebook's figures are image files beside its page, each sized on the page and kept offline.

The rewriting is checked on small pages made here; the built site that `make site` wrote is
checked as the browser tests read it, against the figures' own bytes.
"""

from __future__ import annotations

import base64
import json
import re
import struct
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from lessonkit.authoring.notebook_figures import PNG_SIGNATURE, descriptions, figure_name, png_size, with_figures_as_files
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


NBCONVERTS_PLACEHOLDER = "No description has been provided for this image"


def figure_cell(*figures: bytes, described: object = None) -> dict:
    outputs = [{"output_type": "display_data", "data": {"image/png": base64.b64encode(figure).decode()}} for figure in figures]
    metadata = {} if described is None else {"lessonkit": {"figures": described}}
    return {"cell_type": "code", "source": "plt.show()", "outputs": outputs, "metadata": metadata}


def test_each_figure_is_described_by_its_cells_metadata_in_order():
    first, second, third = png(10, 10, b"first"), png(10, 10, b"second"), png(10, 10, b"third")
    notebook = {
        "cells": [figure_cell(first, second, described=["A  first\nchart", "A second chart"]), figure_cell(third, described=["A third"])]
    }
    # Wrapped in the notebook's JSON as an author wraps it, a description reads as one line.
    assert descriptions(notebook, "demo.ipynb") == {
        figure_name(first): "A first chart",
        figure_name(second): "A second chart",
        figure_name(third): "A third",
    }


@pytest.mark.parametrize(
    ("described", "says"),
    [
        (None, "describes 0"),
        (["only one"], "describes 1"),
        (["one", "two", "three"], "describes 3"),
        (["one", " "], "describes 2"),
        ("one, two", "describes none of them"),
    ],
)
def test_a_cell_that_does_not_describe_each_of_its_figures_is_refused_by_name(described, says):
    notebook = {
        "cells": [{"cell_type": "markdown", "source": "Text"}, figure_cell(png(10, 10, b"a"), png(10, 10, b"b"), described=described)]
    }
    with pytest.raises(
        ValueError, match=rf"^demo\.ipynb, cell 1: it shows 2 figure\(s\) but its metadata {says}; write one description each"
    ):
        descriptions(notebook, "demo.ipynb")


def test_a_described_figure_takes_its_description_for_alt_text_in_place_of_nbconverts_placeholder():
    figure = png(690, 310, b"the chart")
    page = f'<div class="jp-RenderedImage"><img alt="{NBCONVERTS_PLACEHOLDER}" class="" src="{data_url(figure)}"/></div>'
    html, _ = with_figures_as_files(page, {figure_name(figure): 'Tokens "sent" & kept, by turn'})
    image = BeautifulSoup(html, "html.parser").img
    assert image["alt"] == 'Tokens "sent" & kept, by turn'
    assert html.count("alt=") == 1


def test_a_figure_left_undescribed_is_refused_when_descriptions_are_given():
    with pytest.raises(ValueError, match=r"a figure \(figure-[0-9a-f]{16}\.png, 690×310\) has no description"):
        with_figures_as_files(f'<img alt="{NBCONVERTS_PLACEHOLDER}" src="{data_url(png(690, 310))}">', {})


@pytest.fixture(scope="module")
def notebook_pages() -> list[Path]:
    pages = sorted((SITE / "notebooks").glob("*/index.html"))
    if not pages:
        pytest.fail(f"the built site is missing ({SITE / 'notebooks'} has no pages): run make site", pytrace=False)
    return pages


def test_every_built_notebook_figure_is_a_file_beside_its_page_at_its_own_size_and_kept_offline(notebook_pages):
    kept = {path for path, _bytes, _integrity in written_course(SITE)["files"]}
    written = {
        notebook.stem: {
            " ".join(text.split())
            for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
            for text in cell.get("metadata", {}).get("lessonkit", {}).get("figures", [])
        }
        for notebook in (SITE.parent / "docs" / "notebooks").glob("*.ipynb")
    }
    figures = 0
    for page in notebook_pages:
        html = page.read_text(encoding="utf-8")
        assert not re.search(r"data:image/png", html), f"{page} still carries a figure inside it"
        for image in BeautifulSoup(html, "html.parser").select(".jp-RenderedImage img"):
            figure = page.parent / image["src"]
            assert figure.is_file(), f"{page} shows {image['src']}, which the build did not write"
            assert png_size(figure.read_bytes()) == (int(image["width"]), int(image["height"]))
            assert figure.relative_to(SITE).as_posix() in kept, f"the offline copy of the course leaves {figure} out"
            # A screen reader hears what the notebook's author wrote of the figure, never nbconvert's placeholder.
            assert image["alt"] in written[page.parent.name], f"{page} describes {image['src']} as {image['alt']!r}"
            figures += 1
    assert figures >= len(notebook_pages), "every notebook draws at least one figure"
