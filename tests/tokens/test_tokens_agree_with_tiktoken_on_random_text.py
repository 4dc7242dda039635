"""On random strings, lessonkit.tokens gives tiktoken's tokens in both encodings, decodes each back to
itself, and reads random token ids as tiktoken reads them.

Hypothesis draws the strings in batches: each example is a list of them, so ten thousand strings
cost two hundred examples' overhead rather than ten thousand.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lessonkit import tokens
from lessonkit.tokens import ENCODINGS
from tests.tokens.token_texts import ABOVE_BMP, CONTRACTIONS, EMOJI, NOT_SPACES, NUMBERS, SPACES, WORDS

BATCH = 50
EXAMPLES = 200
AT_LEAST = 10_000

# The characters the pattern treats apart, drawn more often than among all of Unicode.
EDGES = sorted({char for text in [*WORDS, *NUMBERS, *CONTRACTIONS, *EMOJI, *ABOVE_BMP, *SPACES, *NOT_SPACES] for char in text})
any_text = st.text(max_size=30)
edgy_text = st.text(st.one_of(st.sampled_from(EDGES), st.characters(exclude_categories=("Cs",))), max_size=30)
batches = st.lists(st.one_of(any_text, edgy_text), min_size=BATCH, max_size=BATCH)


def test_random_strings_are_tokenized_as_tiktoken_does_and_decode_back_to_themselves(tiktoken_encodings):
    checked = []

    @settings(max_examples=EXAMPLES, deadline=None)
    @given(batches)
    def agree(texts):
        for name in ENCODINGS:
            theirs = tiktoken_encodings[name]
            for text in texts:
                ours = tokens.encode(text, name)
                assert ours == theirs.encode_ordinary(text), (name, text)
                assert tokens.decode(ours, name) == text, (name, text)
        checked.extend(texts)

    agree()
    assert len(checked) >= AT_LEAST


@st.composite
def token_ids(draw: st.DrawFn, name: str) -> list[int]:
    encoding = ENCODINGS[name]
    one = st.one_of(
        st.integers(0, encoding.ranks - 1), st.integers(0, 300), st.sampled_from([token for _, token in encoding.special_tokens])
    )
    return draw(st.lists(one, max_size=12))


def test_random_token_ids_read_as_tiktoken_reads_them_even_where_they_split_a_character(tiktoken_encodings):
    checked = 0

    @settings(max_examples=EXAMPLES, deadline=None)
    @given(st.data())
    def agree(data):
        nonlocal checked
        for name in ENCODINGS:
            ids = data.draw(token_ids(name))
            assert tokens.decode(ids, name) == tiktoken_encodings[name].decode(ids), (name, ids)
            checked += 1

    agree()
    assert checked >= EXAMPLES * len(ENCODINGS)
