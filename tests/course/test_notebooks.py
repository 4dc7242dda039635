"""The companion notebooks: executed in a local kernel, every figure their text states checked there."""

from pathlib import Path

import nbformat
import pytest

from lessonkit.authoring.notebooks import NotebookClaimMismatch, build_copy, cache_key, execute, markdown_claims, site_links

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"
NOTEBOOKS = sorted((DOCS / "notebooks").glob("*.ipynb"))


def test_every_lesson_engine_has_a_companion_notebook():
    assert {path.stem for path in NOTEBOOKS} >= {"working-memory", "context-compression", "context-compaction"}


@pytest.mark.parametrize("source", NOTEBOOKS, ids=lambda path: path.stem)
def test_a_notebooks_stated_figures_hold_when_it_runs(source):
    # build_copy executes the notebook (or reuses a copy made from these very sources) and refuses
    # any claim its kernel disagrees with and any number that is neither a claim nor marked.
    copy = nbformat.read(build_copy(source, ROOT), as_version=4)
    assert [claim for _, claim in markdown_claims(nbformat.read(source, as_version=4)) if claim.bound]
    assert not [cell for cell in copy.cells if cell.cell_type == "code" and not cell.outputs]


def notebook(tmp_path, *cells):
    book = nbformat.v4.new_notebook()
    book.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    book.cells = [nbformat.v4.new_markdown_cell(text) if kind == "md" else nbformat.v4.new_code_cell(text) for kind, text in cells]
    path = tmp_path / "sweep.ipynb"
    nbformat.write(book, path)
    return path


def test_a_figure_the_engine_does_not_produce_stops_the_notebook_naming_cell_and_line(tmp_path):
    path = notebook(
        tmp_path,
        ("code", "from lessonkit.lessons.context_compression import replay\nfinal = replay(24, 'evict').final"),
        ("md", "Eviction ends at [[twenty-three|final.tokens]] tokens,\nnot [[twenty|final.tokens]]; in [[one|-]] run, 7 turns."),
    )
    executed = execute(path, ROOT)
    assert [claim.problem() for claim in executed.claims] == [
        None,
        "cell 1, line 2: the notebook says 'twenty' but final.tokens is 23",
    ]
    assert executed.unmarked == ("cell 1, line 2: '7'",)
    with pytest.raises(NotebookClaimMismatch, match="'twenty' but final.tokens is 23"):
        build_copy(path, ROOT)
    text = "".join(executed.notebook.cells[1].source)
    assert "[[" not in text and '<span class="lk-claim"' in text and ">twenty-three</span>" in text


def test_links_between_course_pages_become_the_sites_addresses_from_the_notebooks_page(tmp_path):
    docs = tmp_path / "docs"
    (docs / "lessons").mkdir(parents=True)
    (docs / "notebooks").mkdir()
    (docs / "lessons" / "context-compression.md").write_text("# x")
    (docs / "notebooks" / "index.md").write_text("# x")
    source = (
        "See [the lesson](../lessons/context-compression.md#the-experiment), [how to run](index.md) and [another](../lessons/later.md)."
    )
    assert site_links(source, docs / "notebooks" / "sweep.ipynb", docs) == (
        "See [the lesson](../../lessons/context-compression/#the-experiment), [how to run](../) and another."
    )


def test_a_notebooks_kept_copy_is_still_good_when_a_page_it_does_not_link_to_is_added(tmp_path):
    # A project with the course's engines and fixtures, and pages of its own: a lesson, and a notebook
    # that links to it and to a lesson not written yet.
    root = tmp_path / "project"
    root.mkdir()
    for shared in ("src", "fixtures"):
        (root / shared).symlink_to(ROOT / shared)
    docs = root / "docs"
    (docs / "lessons").mkdir(parents=True)
    (docs / "lessons" / "context-compression.md").write_text("# x")
    written = notebook(tmp_path, ("md", "See [the lesson](../lessons/context-compression.md) and [the next](../lessons/later.md)."))
    path = docs / "notebooks" / "sweep.ipynb"
    path.parent.mkdir()
    path.write_bytes(written.read_bytes())
    key = cache_key(path, root)

    (docs / "lessons" / "truncation.md").write_text("# A new lesson, which the notebook does not link to")
    (docs / "reference").mkdir()
    (docs / "reference" / "truncation.md").write_text("# Its reference")
    assert cache_key(path, root) == key

    # A page it links to that arrives turns its text into a link: the copy is made again.
    (docs / "lessons" / "later.md").write_text("# x")
    assert cache_key(path, root) != key


def test_a_cells_prints_are_one_output_however_the_kernel_flushed_them(tmp_path):
    # Two flushes a moment apart reach the build as two pieces of the same stream.
    path = notebook(tmp_path, ("code", "import time\nprint('timeout', end='', flush=True)\ntime.sleep(0.3)\nprint(' keeps its support')"))
    (cell,) = execute(path, ROOT).notebook.cells[:1]
    assert [(output.output_type, output.text) for output in cell.outputs] == [("stream", "timeout keeps its support\n")]
