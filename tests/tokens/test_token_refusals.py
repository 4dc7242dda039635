"""lessonkit.tokens refuses what it cannot count or read, with lessonkit.checks' Refused: the name, the
value, and what is allowed, in one message shape. Never a TypeError, a KeyError or a wrong count."""

from __future__ import annotations

import pytest

from lessonkit import tokens
from lessonkit.checks import Refused

O200K_IDS = "a token id of o200k_base: a whole number from 0 to 199997, or a special token (199999, 200018)"
CL100K_IDS = "a token id of cl100k_base: a whole number from 0 to 100255, or a special token (100257, 100258, 100259, 100260, 100276)"
ENCODINGS = "'o200k_base', 'cl100k_base'"

REFUSALS = [
    ("an unknown encoding", lambda: tokens.encode("x", "p50k_base"), f"encoding is 'p50k_base'; allowed: {ENCODINGS}"),
    ("an encoding's name in capitals", lambda: tokens.count("x", "O200K_BASE"), f"encoding is 'O200K_BASE'; allowed: {ENCODINGS}"),
    ("no encoding", lambda: tokens.count("x", None), f"encoding is None; allowed: {ENCODINGS}"),
    ("a list for an encoding", lambda: tokens.decode([1], ["o200k_base"]), f"encoding is ['o200k_base']; allowed: {ENCODINGS}"),
    ("a number for a text", lambda: tokens.encode(42), "text is 42; allowed: a string"),
    ("bytes for a text", lambda: tokens.count(b"hello"), "text is b'hello'; allowed: a string"),
    ("no text", lambda: tokens.count(None, "cl100k_base"), "text is None; allowed: a string"),
    (
        "a lone surrogate",
        lambda: tokens.encode("a\ud800b"),
        "text is 'a\\ud800b'; allowed: a string of Unicode text, without lone surrogates (U+D800 to U+DFFF)",
    ),
    ("a text for ids", lambda: tokens.decode("hello"), "ids is 'hello'; allowed: a list of token ids of o200k_base"),
    ("one id alone", lambda: tokens.decode(13225), "ids is 13225; allowed: a list of token ids of o200k_base"),
    ("a negative id", lambda: tokens.decode([13225, -1]), f"ids[1] is -1; allowed: {O200K_IDS}"),
    ("the id between the ranks and the specials", lambda: tokens.decode([199998]), f"ids[0] is 199998; allowed: {O200K_IDS}"),
    ("an id past the specials", lambda: tokens.decode([200019]), f"ids[0] is 200019; allowed: {O200K_IDS}"),
    ("an o200k_base id in cl100k_base", lambda: tokens.decode([150000], "cl100k_base"), f"ids[0] is 150000; allowed: {CL100K_IDS}"),
    ("True for an id", lambda: tokens.decode([True]), f"ids[0] is True; allowed: {O200K_IDS}"),
    ("a float id", lambda: tokens.decode([1.0]), f"ids[0] is 1.0; allowed: {O200K_IDS}"),
    ("a text id", lambda: tokens.decode(["1"]), f"ids[0] is '1'; allowed: {O200K_IDS}"),
]


@pytest.mark.parametrize(("call", "message"), [(call, message) for _, call, message in REFUSALS], ids=[case for case, _, _ in REFUSALS])
def test_a_bad_input_is_refused_by_name_with_what_is_allowed(call, message):
    with pytest.raises(Refused) as refused:
        call()
    assert str(refused.value) == message


def test_a_refusal_carries_its_name_value_and_what_is_allowed():
    with pytest.raises(Refused) as refused:
        tokens.decode([5, 200000])
    assert (refused.value.name, refused.value.value, refused.value.allowed) == ("ids[1]", 200000, O200K_IDS)


def test_the_special_tokens_and_an_empty_text_are_not_refused():
    assert tokens.encode("") == [] and tokens.count("", "cl100k_base") == 0 and tokens.decode([]) == ""
    assert tokens.decode((199999, 200018)) == "<|endoftext|><|endofprompt|>"
    assert tokens.decode([100257, 100276], "cl100k_base") == "<|endoftext|><|endofprompt|>"
    # Their text in a text is ordinary text, as tiktoken's encode_ordinary counts it.
    assert 199999 not in tokens.encode("<|endoftext|>") and tokens.decode(tokens.encode("<|endoftext|>")) == "<|endoftext|>"
