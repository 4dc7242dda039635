"""The API reference: every public function documented with its parameters, errors and an example
that runs; every engine module has a reference page; a lesson's mention of a function links there."""

import doctest
import importlib
import inspect
import re
from pathlib import Path

import pytest

from lessonkit.authoring.api_links import DIRECTIVE, Reference, public_functions
from lessonkit.registry import lesson_ids, package_name

ROOT = Path(__file__).parents[2]
REFERENCE = ROOT / "docs" / "reference"
DOCUMENTED = sorted({match["module"] for page in REFERENCE.glob("*.md") for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8"))})
# The worker's entry points, the sample runner, the registry of lessons and the rest of the standard
# library fetched on demand are the site's plumbing, and chains are how the engines store what grows;
# none is what a reader calls.
PLUMBING = {"lessonkit.runtime", "lessonkit.samples", "lessonkit.chain", "lessonkit.registry", "lessonkit.stdlib_on_demand"}
FUNCTIONS = [(module, name) for module in DOCUMENTED for name in public_functions(module)]


def test_every_platform_module_has_a_reference_page():
    platform = {f"lessonkit.{path.stem}" for path in (ROOT / "src" / "lessonkit").glob("*.py") if path.stem != "__init__"}
    assert not sorted(platform - PLUMBING - set(DOCUMENTED)), "add a page under docs/reference/ with '::: <module>'"


@pytest.mark.parametrize("lesson", lesson_ids())
def test_every_lesson_has_its_reference_page_named_by_its_id(lesson):
    page = REFERENCE / f"{lesson}.md"
    assert page.is_file(), f"add docs/reference/{lesson}.md with '::: {package_name(lesson)}'"
    assert [match["module"] for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8"))] == [package_name(lesson)]


def test_the_reference_documents_functions_to_check():
    assert len(FUNCTIONS) > 20


@pytest.mark.parametrize(("module", "name"), FUNCTIONS, ids=lambda value: value)
def test_every_public_function_states_its_parameters_errors_and_an_example(module, name):
    function = inspect.unwrap(getattr(importlib.import_module(module), name))
    doc = inspect.getdoc(function) or ""
    parameters = [p for p in inspect.signature(function).parameters if p not in ("self", "cls")]
    missing = [
        section
        for section, needed in (
            ("Args:", bool(parameters)),
            ("Raises:", bool(re.search(r"^\s+raise \w", inspect.getsource(function), re.MULTILINE))),
            ("Examples:", True),
        )
        if needed and f"\n{section}\n" not in f"\n{doc}\n"
    ]
    assert not missing, f"{module}.{name}'s docstring lacks {', '.join(missing)}"
    undocumented = [p.lstrip("*") for p in parameters if not re.search(rf"^\s+\*{{0,2}}{re.escape(p)}:", doc, re.MULTILINE)]
    assert not undocumented, f"{module}.{name}'s Args: leave out {', '.join(undocumented)}"


@pytest.mark.parametrize("module", DOCUMENTED)
def test_the_examples_in_the_reference_run_as_written(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {module} failed (run python -m doctest)"


class Files(list):
    pass


class FakeFile:
    def __init__(self, src_uri, content):
        self.src_uri, self.content_string, self.url = src_uri, content, src_uri.replace(".md", "/")


def reference_seen_from_a_lesson():
    files = [
        FakeFile("reference/compression.md", "# x\n\n::: lessonkit.lessons.context_compression\n"),
        FakeFile("reference/retrieval.md", "::: lessonkit.lessons.working_memory\n"),
        FakeFile("lessons/a.md", "::: lessonkit.lessons.context_compaction\n"),
    ]
    return Reference.of_site(files, "lessons/a/", lambda url, page: "../../" + url)


def test_a_lessons_inline_mention_of_a_function_links_to_its_entry_once():
    reference = reference_seen_from_a_lesson()
    page = "<p><code>replay(24, &quot;evict&quot;)</code> then <code>replay</code> and <code>lesson()</code></p>"
    linked = reference.link_inline_code(page)
    assert linked.count('class="lk-api"') == 1
    assert '<a class="lk-api" href="../../reference/compression/#lessonkit.lessons.context_compression.replay"><code>replay(24' in linked
    # lesson() is in both engines: a bare name that two modules define is not guessed.
    assert "<code>lesson()</code></p>" in linked


def test_code_blocks_and_existing_links_are_left_alone():
    reference = reference_seen_from_a_lesson()
    page = '<pre><code>replay</code></pre><a href="x"><code>retrieve</code></a>'
    assert reference.link_inline_code(page) == page


def test_the_functions_a_pages_samples_import_are_listed_with_links():
    reference = reference_seen_from_a_lesson()
    page = (
        "<pre><span>from</span> lessonkit.lessons.context_compression <span>import</span> replay, lesson\n"
        "lessonkit.lessons.working_memory.retrieve(&quot;rollback&quot;)</pre>"
    )
    assert reference.imported(page) == [
        "lessonkit.lessons.context_compression.replay",
        "lessonkit.lessons.context_compression.lesson",
        "lessonkit.lessons.working_memory.retrieve",
    ]
    section = reference.section_for(page)
    assert 'aria-label="In the API reference"' in section and section.count("<li>") == 3
