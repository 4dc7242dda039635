"""The glossary: one source page, and a lesson's first use of each term linked to its entry."""

from pathlib import Path

import pytest

from lessonkit.authoring.glossary import link_first_uses, load_glossary, read_glossary

DOCS = Path(__file__).parents[2] / "docs"

ENTRIES = """
## Group

### Eviction { #eviction data-forms="evict, evicted" }

Making room by removing the oldest turn. It is gone afterwards.

### Context window { #window data-forms="window" }

What the model is given for one request.

### Claim { #claim data-link="off" }

A number bound to the engine.
"""


def terms():
    return read_glossary(ENTRIES, "glossary.md")


def test_an_entry_is_its_heading_its_forms_and_its_definitions_first_sentence():
    eviction, window, claim = terms()
    assert (eviction.name, eviction.anchor, eviction.forms) == ("Eviction", "eviction", ("eviction", "evict", "evicted"))
    assert eviction.definition == "Making room by removing the oldest turn."
    assert window.forms == ("context window", "window")
    assert not claim.linked


def test_an_entry_without_a_definition_is_refused_by_name():
    with pytest.raises(ValueError, match="'Budget' has no definition"):
        read_glossary("### Budget { #budget }\n\n### Window { #window }\n\nWhat fits.\n")


def test_a_form_claimed_by_two_entries_is_refused_naming_both():
    text = '### Window { #window }\n\nWhat fits.\n\n### Context { #context data-forms="window" }\n\nAll of it.\n'
    with pytest.raises(ValueError, match="'Context' claims the form 'window', which 'Window' already has"):
        read_glossary(text)


def test_only_the_first_use_of_a_term_is_linked_with_its_definition_as_title():
    page = "<p>The window evicts. Another window, evicted again.</p>"
    linked, anchors = link_first_uses(page, terms(), "../../glossary/")
    assert anchors == ["window", "eviction"]
    assert linked.count('class="lk-term"') == 2
    assert (
        '<a class="lk-term" href="../../glossary/#window" title="Context window: What the model is given for one request.">window</a>'
        in linked
    )
    assert ">evicts<" not in linked  # "evicts" is not a form of the entry: no link for a word it does not list
    assert 'href="../../glossary/#eviction"' in linked and ">evicted</a>" in linked


def test_the_longest_form_wins_and_the_writers_case_is_kept():
    linked, _ = link_first_uses("<p>An agent's Context Window fills.</p>", terms(), "g/")
    assert ">Context Window</a>" in linked


def test_code_headings_links_tables_and_the_panel_are_not_prose():
    page = (
        "<h2>The window</h2><p><code>window</code> <a href='x'>window</a></p>"
        "<table><tr><td>window</td></tr></table>"
        '<section class="lk-panel"><div><p>window</p></div></section>'
        "<pre><code>evict()</code></pre><p>Then the window.</p>"
    )
    linked, anchors = link_first_uses(page, terms(), "g/")
    assert anchors == ["window"]
    assert linked.endswith(
        '<p>Then the <a class="lk-term" href="g/#window" title="Context window: What the model is given for one request.">window</a>.</p>'
    )


def test_an_entry_marked_off_is_never_linked():
    _, anchors = link_first_uses("<p>The claim is checked.</p>", terms(), "g/")
    assert anchors == []


def test_a_word_inside_a_longer_or_hyphenated_word_is_not_a_use():
    _, anchors = link_first_uses("<p>windows-like context-window windowing</p>", terms(), "g/")
    assert anchors == []


COURSE_TERMS = (
    "window",
    "budget",
    "eviction",
    "summary",
    "provenance",
    "user-backed evidence",
    "compaction",
    "trigger",
    "overlap",
    "retention",
    "tenant",
    "recency weight",
    "greedy packing",
)


def test_the_course_glossary_defines_every_term_the_issue_names():
    forms = {form for term in load_glossary(DOCS) for form in term.forms}
    assert not [term for term in COURSE_TERMS if term not in forms]
