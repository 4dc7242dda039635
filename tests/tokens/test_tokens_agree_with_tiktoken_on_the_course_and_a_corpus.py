"""lessonkit.tokens gives tiktoken's tokens, token for token, on every text of the course and on a
corpus made to find the tokenizer's edges; and every text it encodes decodes back to itself."""

from __future__ import annotations

import pytest

from lessonkit import tokens
from lessonkit.tokens import ENCODINGS
from tests.tokens.token_texts import course_files, course_texts, generated_corpus

COURSE = course_texts()
CORPUS = generated_corpus()


def disagreements(texts: list[tuple[str, str]], name: str, theirs) -> list[str]:
    """Where lessonkit's tokens differ from tiktoken's, or its decoding from the text: one line each."""
    found = []
    for where, text in texts:
        ours, expected = tokens.encode(text, name), theirs.encode_ordinary(text)
        if ours != expected:
            at = next((i for i, (a, b) in enumerate(zip(ours, expected, strict=False)) if a != b), min(len(ours), len(expected)))
            found.append(f"{where}: token {at}: ours {ours[at : at + 4]} tiktoken's {expected[at : at + 4]} (text {text[:60]!r})")
        elif tokens.decode(ours, name) != text:
            found.append(f"{where}: decodes to another text")
    return found


@pytest.mark.parametrize("name", ENCODINGS)
def test_every_page_fixture_and_sample_of_the_course_is_tokenized_as_tiktoken_does(name, tiktoken_encodings):
    assert len(course_files()) > 50 and sum(len(text) for _, text in COURSE) > 400_000
    found = disagreements(COURSE, name, tiktoken_encodings[name])
    assert not found, f"{len(found)} of {len(COURSE)} texts differ:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("name", ENCODINGS)
def test_unicode_whitespace_digits_contractions_and_emoji_are_tokenized_as_tiktoken_does(name, tiktoken_encodings):
    found = disagreements(CORPUS, name, tiktoken_encodings[name])
    assert not found, f"{len(found)} of {len(CORPUS)} texts differ:\n" + "\n".join(found[:10])


def test_the_corpus_is_the_same_every_run_and_holds_the_edges_it_was_made_for():
    # Its mixes are random, but from a fixed seed: every run checks the same texts.
    assert generated_corpus() == CORPUS and len(CORPUS) > 6000
    text = "".join(text for _, text in CORPUS)
    edges = ["x²", "3½", "it's", "IT'S", "'ſ", "a\x1cb", "\u1c89", "𝐀𝐚", "👩\u200d👩\u200d👧", "=" * 1500, "\r\n", "<|endoftext|>"]
    assert not [edge for edge in edges if edge not in text]
