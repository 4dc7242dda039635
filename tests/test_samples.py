"""Runnable samples are found as markdown-exec finds them, with its block ids, and checked in their sessions."""

import textwrap
from pathlib import Path

import pytest
from pymdownx.superfences import SuperFencesException
from sybil import Sybil
from sybil.example import SybilFailure

from lessonkit.authoring.samples import check_placement, find_samples
from lessonkit.authoring.site_hooks import BuildPage, on_page_markdown
from lessonkit.authoring.sybil_parsers import parse_claims, parse_samples

PAGE = textwrap.dedent(
    """\
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
    """
)


def test_only_executed_python_fences_are_samples_with_their_sessions_and_block_ids():
    samples = find_samples(PAGE)
    assert [(s.line, s.session, s.code, s.block_id) for s in samples] == [
        (1, "a", "x = 2\n", "<code block: session a; n1>"),
        (9, "a", "print(x * 3)\n", "<code block: session a; n2>"),
        (13, None, 'print("fresh")\n', "<code block: n1>"),
    ]


def test_exec_reads_as_markdown_exec_reads_it_every_value_but_off_runs():
    page = '```python exec="y"\nprint(1)\n```\n\n```python exec="off"\nprint(2)\n```\n\n```python exec="On"\nprint(3)\n```\n'
    assert [s.code for s in find_samples(page)] == ["print(1)\n", "print(3)\n"]


def test_a_sample_shown_as_an_example_inside_another_fence_is_not_a_sample():
    page = '````markdown\n```python exec="on"\nprint(1)\n```\n````\n'
    assert find_samples(page) == []


def test_the_site_hook_wraps_each_sample_that_shows_its_source_with_its_session_and_block_id():
    wrapped = on_page_markdown(PAGE, None, None, None)
    assert wrapped.count('<div class="lk-sample"') == 2
    assert 'data-session="a" data-block-id="&lt;code block: session a; n1&gt;"' in wrapped
    assert 'data-session="a" data-block-id="&lt;code block: session a; n2&gt;"' in wrapped
    assert "not_executed = True" in wrapped


NESTED = textwrap.dedent(
    """\
    - a list item

        ```python exec="on"
        print("in a list")
        ```

    !!! note

        ```python exec="1" session="a"
        print("in an admonition")
        ```

    > ```python exec="on"
    > print("in a block quote")
    > ```

    ```py exec="on"
    print("the py spelling")
    ```
    """
)


def test_an_executed_fence_that_is_not_a_top_level_python_fence_is_refused_naming_page_line_and_what_is_allowed():
    with pytest.raises(ValueError) as refused:
        on_page_markdown(NESTED, None, None, None)
    lines = str(refused.value).split("\n")
    assert [line.split(": this")[0] for line in lines] == ["page, line 3", "page, line 9", "page, line 13", "page, line 17"]
    assert "nested in a list, an admonition or a tab" in lines[0] and "block quote" in lines[2] and "```py fence" in lines[3]
    assert all(line.endswith("samples are top-level ```python fences, neither indented nor quoted") for line in lines)


def test_an_executed_fence_shown_as_an_example_inside_another_fence_is_not_refused():
    check_placement('````markdown\n- item\n\n    ```python exec="on"\n    print(1)\n    ```\n````\n', "page")
    check_placement('````markdown\n> ```python exec="on"\n> print(1)\n> ```\n````\n', "page")


def test_a_block_the_build_runs_that_the_page_does_not_know_fails_the_build_naming_the_page():
    build = BuildPage("lessons/x.md", ["<code block: session a; n1>"])
    with pytest.raises(
        SuperFencesException,
        match=r"lessons/x.md: markdown-exec ran Python block <code block: n1> where lessonkit expected <code block: session a; n1>",
    ):
        build.run("print(1)", session="")


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
    with pytest.raises(SybilFailure, match="NameError: name 'x' is not defined"):
        examples[-1].evaluate()


def test_under_sybil_a_sample_runs_under_its_build_name_and_session(tmp_path):
    page = PAGE + '\n```python exec="on" session="a"\nassert __name__ == "_code_block_session_a_n3_", __name__\nassert x == 2\n```\n'
    for example in collect(tmp_path, page):
        example.evaluate()


def test_a_sample_that_raises_fails_under_sybil_with_its_traceback(tmp_path):
    page = '```python exec="on"\ndef fail():\n    raise ValueError("no region")\n\nfail()\n```\n'
    (example,) = collect(tmp_path, page)
    with pytest.raises(SybilFailure) as failed:
        example.evaluate()
    assert "line 1, column 1 did not evaluate as expected:\nthe sample raised:\n" in str(failed.value)
    assert '"<code block: n1>", line 2, in fail\n    raise ValueError("no region")' in str(failed.value)
    assert str(failed.value).endswith("ValueError: no region\n")


def test_a_nested_sample_fails_collection_under_sybil_naming_its_line(tmp_path):
    with pytest.raises(ValueError, match=r"page.md, line 3: this executed fence is nested"):
        collect(tmp_path, NESTED)


def test_a_drifted_claim_in_a_page_fails_under_sybil(tmp_path):
    page = "---\nengine: lessonkit.lessons.context_compression\n---\nAt thirty seconds the window holds [[twenty-two|replay(24, 'evict').at(30).tokens]] tokens.\n"
    (example,) = collect(tmp_path, page)
    with pytest.raises(AssertionError, match="'twenty-two' .22. but replay"):
        example.evaluate()


def test_a_sample_laid_out_so_the_editor_cannot_find_its_source_is_refused_with_the_layouts_allowed():
    page = '```python exec="on" source="below"\nprint(1)\n```\n'
    with pytest.raises(ValueError, match=r'page, line 1: a sample with source="below" cannot be edited in the page; use source="above"'):
        on_page_markdown(page, None, None, None)


def test_a_sample_marked_editable_no_runs_and_shows_but_is_not_offered_for_editing():
    page = '```python exec="on" source="above" editable="no" session="adk"\nprint("build only")\n```\n\n' + PAGE
    samples = find_samples(page)
    assert [(s.shows_source, s.editable) for s in samples[:3]] == [(True, False), (True, True), (True, True)]
    wrapped = on_page_markdown(page, None, None, None)
    assert wrapped.count('<div class="lk-sample"') == 2 and 'data-session="adk"' not in wrapped
    # markdown-exec never reads lessonkit's option: it would hand it on to the output's code block.
    assert "editable=" not in wrapped and '```python exec="on" source="above" session="adk"\nprint("build only")' in wrapped


def test_an_editable_value_that_is_neither_yes_nor_no_is_refused_naming_the_line():
    page = '```python exec="on" source="above" editable="false"\nprint(1)\n```\n'
    with pytest.raises(
        ValueError, match=r'page, line 1: editable="false" is not a choice a sample has; use editable="yes" or editable="no"'
    ):
        on_page_markdown(page, None, None, None)


def test_a_sample_marked_editable_no_still_runs_under_sybil(tmp_path):
    page = '```python exec="on" source="above" editable="no"\nraise ValueError("ran")\n```\n'
    (example,) = collect(tmp_path, page)
    with pytest.raises(SybilFailure, match="ValueError: ran"):
        example.evaluate()
