"""Runnable samples are found as markdown-exec finds them, and checked in their sessions."""

import textwrap
from pathlib import Path

import pytest
from sybil import Sybil

from lessonkit.authoring.samples import find_samples
from lessonkit.authoring.site_hooks import on_page_markdown
from lessonkit.authoring.sybil_parsers import parse_claims, parse_samples

PAGE = textwrap.dedent(
    '''\
    ```python exec="on" session="a" source="above"
    x = 2
    ```

    ```python
    not_executed = True
    ```

    ```python exec="1" session="a" source="block"
    print(x * 3)
    ```

    ```python exec="on"
    print("fresh")
    ```
    '''
)


def test_only_executed_python_fences_are_samples_with_their_sessions():
    samples = find_samples(PAGE)
    assert [(s.line, s.session, s.code) for s in samples] == [
        (1, "a", "x = 2\n"),
        (9, "a", "print(x * 3)\n"),
        (13, None, 'print("fresh")\n'),
    ]


def test_a_sample_shown_as_an_example_inside_another_fence_is_not_a_sample():
    page = '````markdown\n```python exec="on"\nprint(1)\n```\n````\n'
    assert find_samples(page) == []


def test_the_site_hook_wraps_each_sample_that_shows_its_source_with_its_session():
    wrapped = on_page_markdown(PAGE, None, None, None)
    assert wrapped.count('<div class="lk-sample"') == 2
    assert wrapped.count('data-session="a"') == 2
    assert "not_executed = True" in wrapped


def collect(tmp_path: Path, text: str):
    page = tmp_path / "page.md"
    page.write_text(text)
    sybil = Sybil(parsers=[parse_claims, parse_samples], patterns=["*.md"], path=str(tmp_path))
    return list(sybil.parse(page))


def test_a_session_carries_names_to_later_samples_and_a_sessionless_sample_starts_fresh(tmp_path):
    page = PAGE + '\n```python exec="on"\nprint(x)\n```\n'
    examples = collect(tmp_path, page)
    for example in examples[:-1]:
        example.evaluate()
    with pytest.raises(NameError):
        examples[-1].evaluate()


def test_a_drifted_claim_in_a_page_fails_under_sybil(tmp_path):
    page = "---\nengine: lessonkit.compression\n---\nAt thirty seconds the window holds [[twenty-two|replay(24, 'evict').at(30).tokens]] tokens.\n"
    (example,) = collect(tmp_path, page)
    with pytest.raises(AssertionError, match="'twenty-two' .22. but replay"):
        example.evaluate()


def test_a_sample_laid_out_so_the_editor_cannot_find_its_source_is_refused_with_the_layouts_allowed():
    page = '```python exec="on" source="below"\nprint(1)\n```\n'
    with pytest.raises(ValueError, match=r'page, line 1: a sample with source="below" cannot be edited in the page; use source="above"'):
        on_page_markdown(page, None, None, None)
