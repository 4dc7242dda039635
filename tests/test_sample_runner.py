"""lessonkit's sample runner: markdown-exec's block ids and sessions, scoped to one page."""

import pytest

from lessonkit.samples import PageSamples, SampleFailed, block_id, module_name


def test_block_ids_count_per_session_in_page_order_and_an_id_block_counts_in_its_session():
    page = PageSamples()
    ids = [
        page.next_block_id("a"),
        page.next_block_id(None),
        page.next_block_id("a", id="pinned"),
        page.next_block_id("a", title="Budgets"),
        page.next_block_id(None, title="Table"),
    ]
    assert ids == [
        "<code block: session a; n1>",
        "<code block: n1>",
        "<code block: id pinned>",
        "<code block: session a; n3; title Budgets>",
        "<code block: n2; title Table>",
    ]
    assert [module_name(each) for each in ids[2:4]] == ["_code_block_id_pinned_", "_code_block_session_a_n3_title_Budgets_"]


def test_each_page_counts_its_blocks_from_one_and_keeps_its_own_sessions():
    first, second = PageSamples(), PageSamples()
    first.run("shared = 1", first.next_block_id("a"), "a")
    assert second.next_block_id("a") == block_id(1, session="a")
    with pytest.raises(SampleFailed, match="NameError"):
        second.run("shared", block_id(1, session="a"), "a")


def test_rerunning_a_block_keeps_its_name_and_its_session():
    page = PageSamples()
    page.run("budget = 24", block_id(1, session="a"), "a")
    edited = "print(__name__, budget)"
    assert page.run(edited, block_id(2, session="a"), "a") == "_code_block_session_a_n2_ 24\n"
    assert page.run(edited, block_id(2, session="a"), "a") == "_code_block_session_a_n2_ 24\n"


def test_a_traceback_shows_the_samples_frames_and_lines_across_blocks_and_none_of_the_runner():
    page = PageSamples()
    page.run("def halve(tokens):\n    return tokens // 0\n", block_id(1, session="a"), "a")
    with pytest.raises(SampleFailed) as failed:
        page.run('print("before")\nhalve(24)\n', block_id(2, session="a"), "a")
    assert failed.value.output == "before\n"
    assert failed.value.traceback.startswith('Traceback (most recent call last):\n  File "<code block: session a; n2>", line 2')
    assert '"<code block: session a; n1>", line 2, in halve\n    return tokens // 0' in failed.value.traceback
    assert "samples.py" not in failed.value.traceback


def test_a_sample_that_exits_fails_as_a_sample_instead_of_ending_the_build_or_the_worker():
    with pytest.raises(SampleFailed, match="SystemExit: 3"):
        PageSamples().run("import sys\nsys.exit(3)", block_id(1))
