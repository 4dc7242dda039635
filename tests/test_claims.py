"""Claims bind prose numbers to the engine; the checker must catch a number that drifts."""

import markdown
import pytest

from lessonkit.authoring.claims import ClaimMismatch, bare_numbers, check_claim, find_claims, parse_number

NAMESPACE = {"tokens": lambda: 23}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("23", 23),
        ("twenty-three", 23),
        ("Twenty three", 23),
        ("7.5", 7.5),
        ("sixty", 60),
        ("fifty-eight", 58),
        ("1,000", 1000),
        ("one hundred and five", 105),
    ],
)
def test_digits_and_english_number_words_read_as_their_value(text, value):
    assert parse_number(text) == value


def test_a_word_that_is_not_a_number_is_refused_with_the_allowed_forms():
    with pytest.raises(ValueError, match="write digits such as 23 or words such as twenty-three"):
        parse_number("several")


def test_a_matching_claim_passes_in_words_or_digits():
    for text in ("twenty-three", "23"):
        (claim,) = find_claims(f"The window holds [[{text}|tokens()]] tokens.")
        assert check_claim(claim, NAMESPACE) == 23


def test_a_drifted_claim_fails_naming_line_text_and_expression():
    (claim,) = find_claims("Intro.\n\nThe window holds [[twenty-two|tokens()]] tokens.")
    with pytest.raises(ClaimMismatch, match=r"line 3: the prose says 'twenty-two' \(22\) but tokens\(\) is 23"):
        check_claim(claim, NAMESPACE)


def test_a_claim_whose_expression_is_not_a_number_fails():
    (claim,) = find_claims("[[two|'T1, T2']]")
    with pytest.raises(ClaimMismatch, match="not a number"):
        check_claim(claim, NAMESPACE)


def test_bare_numbers_are_found_in_prose_but_not_in_code_ids_links_or_markers():
    page = "\n".join(
        [
            "---",
            "engine: lessonkit.lessons.context_compression",
            "---",
            "Turn T2 has [[seven|7]] tokens; [[3.11|-]] is a version.",
            "`budget = 24` and [a link](https://example.invalid/48)",
            "```python",
            "replay(36)",
            "```",
            "Eight turns and a six-token summary, 7.5 s apart.",
        ]
    )
    assert [(n.line, n.text) for n in bare_numbers(page)] == [(9, "Eight"), (9, "six"), (9, "7.5")]


def test_a_not_a_claim_marker_is_counted_but_not_bound():
    (marked,) = find_claims("Python [[3.11|-]] or later.")
    assert not marked.bound


def test_the_page_shows_the_number_as_written():
    html = markdown.markdown(
        "It ends at [[twenty-three|tokens()]] tokens on Python [[3.11|-]]; `[[x|y]]` stays code.",
        extensions=["lessonkit.authoring.markdown"],
    )
    assert ">twenty-three</span> tokens on Python 3.11;" in html
    assert "<code>[[x|y]]</code>" in html
    assert "tokens()" not in html
