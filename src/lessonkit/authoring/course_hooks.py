"""MkDocs hooks for the course around the lessons: what every page gets, whatever its lesson.

- A lesson's or a notebook's first use of a glossary term links to the term's entry, with the
  definition as the link's title (a tooltip on hover and on keyboard focus).
- A lesson's first mention of a lessonkit function in inline code links to the API reference, and
  the page ends with the functions its samples import, each linked.
- Every page ends with where its source is and when it last changed, read from the local git
  repository at build time: nothing is asked of a network, at build time or in the browser.
- The navigation lists the lessons in the course's path, with their notebooks and reference pages,
  read from the lessons themselves (see ``course_path.py``): a new lesson edits no shared file.
- A lesson's exercises (```lessonkit-exercise fences) are graded by its engine and written as
  fieldsets that read with JavaScript off (see ``exercises.py`` and ``exercise_html.py``).
- The companion notebooks are executed before mkdocs-jupyter renders them (see ``notebooks.py``),
  and each page offers its notebook for download (mkdocs-jupyter copies the file beside the page).
- Highlighted code keeps only the spans that colour it (see ``code_spans.py``): fewer elements for
  the browser and the theme to start with, the same colours and the same text.
- A notebook page keeps only the rules of JupyterLab's stylesheet that can apply to it (see
  ``notebook_css.py``), and its figures are image files beside it, not text inside it, each with
  the description its cell's metadata gives it as alt text (see ``notebook_figures.py``).
- The theme's palette stylesheet loses the rule that made every page restyle itself twice more as
  it starts; a reader's switch of colour scheme still plays no transition (see ``palette_css.py``).
- Each data table is written inside the wrappers the theme's start-up would move it into, which
  restyled the whole article as the page started (see ``theme_tables.py``). The theme's bundle
  writes the page's colour scheme only when it changes, which restyled the whole page; it reads
  every code block before it inserts their buttons, instead of laying the page out once per block;
  and it leaves the API reference's signatures, which have no button, to the shell (see
  ``theme_bundle.py``).
- Each page's Markdown copy is weighed in real o200k_base tokens, for "Copy for AI" to say and for
  ``llms.txt`` to list (see ``markdown_tokens.py``); hooks run after plugins, so the copies are written.

Kept apart from ``site_hooks.py``, which puts the browser runtime into the site.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from lessonkit.authoring import (
    api_links,
    code_spans,
    course_path,
    exercise_html,
    exercises,
    glossary,
    markdown_tokens,
    notebook_css,
    notebook_figures,
    notebooks,
    page_meta,
    palette_css,
    theme_bundle,
    theme_tables,
)

# Pages whose prose teaches, and so links its terms; the glossary itself and the reference do not.
LINKED_PAGES = ("lessons/", "notebooks/")
GLOSSARY = "glossary.md"

_terms: tuple[glossary.Term, ...] = ()


# nbconvert's page template always carries a module script that would import Mermaid from a CDN
# if a cell held a diagram. Ours hold none, and nothing on a page may come from another origin.
MERMAID_LOADER = re.compile(r'<script type="module">(?:(?!</script>).)*?mermaid(?:(?!</script>).)*?</script>', re.DOTALL | re.IGNORECASE)


def without_mermaid_loader(page_html: str) -> str:
    return MERMAID_LOADER.sub("", page_html)


# "Copy for AI", written into the page where copy-for-ai.js brings it to life. Made by the script
# after load, it pushed the page's start down on a narrow screen (a layout shift Lighthouse scores);
# written by the build, its place is kept from the first paint, invisible until the script wires it
# (and never shown with JavaScript off, where it could do nothing). Left out of the search index,
# which would otherwise find it on every page.
COPY_FOR_AI = (
    '<button type="button" class="lk-copy-for-ai" data-lk-waiting data-search-exclude '
    'title="Copy this page as Markdown, for pasting into an AI assistant">Copy for AI</button>'
    '<p class="lk-copy-for-ai-status" role="status" data-search-exclude></p>'
)


def _root(config: Any) -> Path:
    return Path(config["config_file_path"]).resolve().parent


def on_config(config: Any) -> None:
    global _terms
    docs = Path(config["docs_dir"])
    _terms = glossary.load_glossary(docs)
    config["nav"] = course_path.filled_nav(config["nav"], course_path.course_path(docs), docs)


def on_files(files: Any, config: Any) -> Any:
    return notebooks.prepare(files, config, _root(config))


def _exercise_ids(docs: Path) -> dict[str, list[str]]:
    """Each lesson's exercise ids, in page order, for the home page's progress lines."""
    lessons = sorted((docs / "lessons").glob("*.md"))
    return {page.stem: [exercise.id for exercise in exercises.find_exercises(page.read_text(encoding="utf-8"))] for page in lessons}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    found = exercises.find_exercises(markdown)
    if not found:
        return markdown
    from importlib import import_module

    from markdown import Markdown

    from lessonkit.authoring.markdown import ClaimsExtension
    from lessonkit.registry import panel

    engine = page.meta.get("engine")
    if not engine:
        raise exercises.ExerciseError(f"{page.file.src_uri}: exercises need 'engine: <module>' in the page's front matter")
    lesson = Path(page.file.src_uri).stem
    namespace, experiment = vars(import_module(engine)), panel(lesson)
    # The explanation is prose like the page's: its claims show the number the author wrote.
    prose = Markdown(extensions=[ClaimsExtension()])
    pieces, last = [], 0
    for exercise in found:
        graded = exercises.grade(exercise, namespace, experiment)
        pieces += [markdown[last : exercise.start], exercise_html.render(graded, lesson, lambda text: prose.reset().convert(text))]
        last = exercise.end
    return "".join(pieces) + markdown[last:]


def on_page_content(page_html: str, page: Any, config: Any, files: Any) -> str:
    from mkdocs.utils import get_relative_url

    source = page.file.src_uri
    if source == "index.md":
        page_html = exercise_html.lesson_progress(page_html, _exercise_ids(Path(config["docs_dir"])))
    if source.endswith(".ipynb"):
        page_html = notebooks.download_link(Path(source).name) + notebook_css.with_trimmed_styles(without_mermaid_loader(page_html))
        # The executed copy (notebooks.prepare points the page at it) holds the figures and their cells.
        executed = Path(page.file.abs_src_path)
        described = notebook_figures.descriptions(json.loads(executed.read_text(encoding="utf-8")), f"docs/{source}")
        page_html, figures = notebook_figures.with_figures_as_files(page_html, described)
        # Beside the page, where its relative addresses point; written now, so the offline copy's
        # list of the build's files, made after every page, has them.
        folder = Path(page.file.abs_dest_path).parent
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in figures.items():
            (folder / name).write_bytes(data)
    if source.startswith(LINKED_PAGES):
        glossary_url = get_relative_url("glossary/", page.url)
        page_html, _ = glossary.link_first_uses(page_html, _terms, glossary_url)
        reference = api_links.Reference.of_site(files, page.url, get_relative_url)
        page_html = reference.link_inline_code(page_html)
        page_html += reference.section_for(page_html)
    if not source.endswith(".ipynb"):
        page_html = code_spans.with_fewer_code_spans(page_html)
    page_html = theme_tables.with_tables_wrapped(page_html)
    return COPY_FOR_AI + page_html + page_meta.footer(_root(config), Path(config["docs_dir"]), page.file, html.escape)


def on_post_build(config: Any) -> None:
    # Before offline.py's hook, which lists every file of the build for the service worker: both files written here are.
    markdown_tokens.write_counts(Path(config["site_dir"]), config["site_url"] or "/")
    theme_folders = [Path(folder) for folder in config["theme"].dirs]
    palette_css.trim_site(Path(config["site_dir"]), theme_folders)
    theme_tables.style_site(Path(config["site_dir"]), theme_folders)
    theme_bundle.rewrite_site(Path(config["site_dir"]), theme_folders)
