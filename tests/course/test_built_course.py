"""The built course, read as files: every internal link and anchor lands, llms.txt indexes every
page, each page's Markdown copy sits beside it with its claims as the numbers a reader sees, the
notebooks are executed and offered for download, and search covers the whole course.

These read the site that `make site` built (as the browser tests do); run `make site` first.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from lessonkit.authoring.census import census

ROOT = Path(__file__).parents[2]
SITE = ROOT / "site"
ORIGIN = "http://site.test/"


@pytest.fixture(scope="module")
def site() -> Path:
    if not (SITE / "index.html").is_file():
        pytest.fail(f"the built site is missing ({SITE / 'index.html'} not found): run make site", pytrace=False)
    return SITE


class Page(HTMLParser):
    """A built page's ids and the addresses it links to or loads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name"):
            if values.get(key) and (key == "id" or tag == "a"):
                self.ids.add(values[key] or "")
        for key in ("href", "src"):
            if values.get(key) and tag in ("a", "link", "script", "img", "source", "iframe"):
                self.links.append(values[key] or "")


def pages(site: Path) -> dict[str, Page]:
    parsed = {}
    for path in site.rglob("*.html"):
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        parsed[path.relative_to(site).as_posix()] = page
    return parsed


def target_file(site: Path, url: str) -> Path:
    path = site / unquote(urlsplit(url).path).lstrip("/")
    return path / "index.html" if path.is_dir() or url.split("#")[0].endswith("/") else path


def html_pages(site: Path) -> list[str]:
    """Every page a reader can reach, as its directory URL ("" for the home page)."""
    return sorted(
        "".join(f"{part}/" for part in path.parent.relative_to(site).parts)
        for path in site.rglob("index.html")
        if not path.relative_to(site).parts[0] == "assets"
    )


def test_no_internal_link_or_anchor_is_broken(site):
    built = pages(site)
    broken = []
    for name, page in built.items():
        if name == "404.html":  # served at any depth; its links are root-relative by design
            continue
        base = urljoin(ORIGIN, name)
        for link in page.links:
            url = urljoin(base, link)
            if not url.startswith(ORIGIN) or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            target = target_file(site, url[len(ORIGIN) - 1 :])
            if not target.exists():
                broken.append(f"{name}: {link} (no {target.relative_to(site)})")
                continue
            fragment = unquote(urlsplit(url).fragment)
            if fragment and target.suffix == ".html":
                ids = built[target.relative_to(site).as_posix()].ids
                if fragment not in ids:
                    broken.append(f"{name}: {link} (no id {fragment!r} in {target.relative_to(site)})")
    assert not broken, "\n".join(sorted(set(broken)))


def test_the_404_page_links_into_the_course_from_its_root(site):
    page = Page()
    page.feed((site / "404.html").read_text(encoding="utf-8"))
    for link in ("/glossary/", "/reference/", "/llms.txt"):
        assert link in page.links
        assert target_file(site, link).exists()


def test_llms_txt_indexes_every_page_and_each_markdown_copy_sits_beside_its_page(site):
    index = (site / "llms.txt").read_text(encoding="utf-8")
    listed = re.findall(r"^- \[[^\]]+\]\((?P<url>[^)]+)\)", index, re.MULTILINE)
    copies = {urlsplit(url).path.lstrip("/") for url in listed}
    expected = {f"{page}index.md" for page in html_pages(site)}
    assert copies == expected, (
        f"in llms.txt but not a page: {sorted(copies - expected)}; a page missing from llms.txt: {sorted(expected - copies)}"
    )
    for copy in copies:
        assert (site / copy).is_file() and (site / copy).with_suffix(".html").is_file()


def test_llms_txt_and_copy_for_ai_give_each_markdown_copys_weight_in_real_o200k_base_tokens(site):
    from lessonkit import tokens

    index = (site / "llms.txt").read_text(encoding="utf-8")
    listed = re.findall(r"^- \[[^\]]+\]\((?P<url>[^)]+)\): (?P<notes>.*)$", index, re.MULTILINE)
    assert listed, "llms.txt lists no page with notes"
    counts = json.loads((site / "assets" / "course" / "markdown-tokens.json").read_text(encoding="utf-8"))
    assert set(counts) == {copy.relative_to(site).as_posix() for copy in site.rglob("*.md")}
    for url, notes in listed:
        copy = urlsplit(url).path.lstrip("/")
        real = tokens.count((site / copy).read_text(encoding="utf-8"), "o200k_base")
        assert counts[copy] == real, copy
        assert re.search(rf"(^|\(){real:,} o200k_base tokens\)?$", notes), f"{copy}: {notes!r}"


def test_the_markdown_copies_show_claims_as_the_numbers_a_reader_sees(site):
    lesson = (site / "lessons" / "context-compression" / "index.md").read_text(encoding="utf-8")
    assert "What remains is T1, T3 and T4, at twenty-three tokens." in " ".join(lesson.split())
    for copy in site.rglob("index.md"):
        # The authoring guide shows the syntax itself, in code: only prose must be resolved.
        text = re.sub(r"(`{3,}).*?\1|`[^`\n]+`", "", copy.read_text(encoding="utf-8"), flags=re.DOTALL)
        assert not re.search(r"\[\[[^\]|]+\|", text), f"{copy.relative_to(site)} still holds a claim marker"


def test_a_panels_chart_reads_as_its_title_and_description_in_the_markdown_copy(site):
    lesson = (site / "lessons" / "context-compression" / "index.md").read_text(encoding="utf-8")
    assert "[Chart] Window tokens at each arrival Window tokens after each arrival for budget 24" in lesson
    assert "<svg" not in lesson


def test_the_notebooks_were_executed_with_figures_and_are_offered_for_download(site):
    for name in ("working-memory", "context-compression", "context-compaction"):
        notebook = json.loads((site / "notebooks" / name / f"{name}.ipynb").read_text(encoding="utf-8"))
        outputs = [output for cell in notebook["cells"] if cell["cell_type"] == "code" for output in cell["outputs"]]
        assert not [output for output in outputs if output["output_type"] == "error"]
        assert any("image/png" in output.get("data", {}) for output in outputs), f"{name} draws no figure"
        assert not any("[[" in "".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")
        page = (site / "notebooks" / name / "index.html").read_text(encoding="utf-8")
        assert f'<a href="{name}.ipynb" download>Download this notebook ({name}.ipynb)</a>' in page


def test_a_notebooks_markdown_copy_shows_each_code_cell_once_as_a_code_block(site):
    for name in ("working-memory", "context-compression", "context-compaction", "tool-result-clearing"):
        copy = (site / "notebooks" / name / "index.md").read_text(encoding="utf-8")
        shows = [line for line in copy.splitlines() if "plt.show()" in line]
        # Each figure's cell ends with its own plt.show() line inside a fence; the page's hidden copy of
        # the cell for its copy button, read as text, ran the whole cell together on one line.
        assert shows and set(shows) == {"plt.show()"}, f"{name}'s Markdown copy runs a cell together: {shows[-1][:80]!r}"


def test_the_notebooks_page_names_the_wheel_this_build_ships(site):
    wheels = sorted(path.name for path in (site / "assets" / "wheels").glob("lessonkit-*.whl"))
    page = (site / "notebooks" / "index.html").read_text(encoding="utf-8")
    assert len(wheels) == 1 and f'href="../assets/wheels/{wheels[0]}"' in page
    assert f"pip install ./{wheels[0]} matplotlib" in re.sub(r"<[^>]+>", "", page)


def test_how_these_lessons_work_states_this_builds_claim_count(site):
    count = census(ROOT / "docs")
    page = (site / "how-it-works" / "index.html").read_text(encoding="utf-8")
    assert f"<td>claims checked against an engine</td>\n<td>{count.bound}</td>" in page
    assert count.bound > 0


def test_offline_search_covers_lessons_glossary_notebooks_and_reference(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    for page in ("lessons/context-compression/", "glossary/", "notebooks/working-memory/", "reference/context-compression/"):
        assert page in locations
    texts = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("notebooks/context-compaction/"))
    assert "after_invocations" in texts


def test_every_page_says_where_its_source_is_and_when_it_changed(site):
    for page in html_pages(site):
        text = (site / page / "index.html").read_text(encoding="utf-8")
        assert 'class="lk-page-meta"' in text, page
        assert re.search(r"Last updated \d{4}-\d{2}-\d{2} \(from git\)|Not yet committed to git", text), page


def test_a_lessons_first_use_of_a_glossary_term_links_to_its_entry(site):
    text = (site / "lessons" / "context-compression" / "index.html").read_text(encoding="utf-8")
    link = re.search(r'<a class="lk-term" href="../../glossary/#provenance" title="Provenance: ([^"]+)">provenance</a>', text)
    assert link and link.group(1).startswith("Who said a fact")
    assert text.count('href="../../glossary/#provenance"') == 1


def test_a_code_block_that_shows_fences_stays_one_block_in_the_markdown_copy(site):
    guide = (site / "authoring" / "index.md").read_text(encoding="utf-8")
    page = guide[guide.index("---\nengine: lessonkit.lessons.truncation") - 5 :]
    assert page.startswith("````\n---\nengine: lessonkit.lessons.truncation")
    block = page[: page.index("\n````\n", 5)]
    assert "```lessonkit-panel\ntruncation\n```" in block and 'session="truncation"' in block
