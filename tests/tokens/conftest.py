"""tiktoken itself, for the tests to hold lessonkit.tokens to, loaded with nothing downloaded.

Each encoding is tiktoken's own definition (`tiktoken_ext.openai_public`: its pattern, its special
tokens, the SHA-256 it expects of the rank file), with its rank file read by tiktoken's own loader
from the very file lessonkit reads (gpt-tokenizer's, in node_modules) instead of OpenAI's address,
and tiktoken's download cache switched off, so the tests pass with no network.
"""

from __future__ import annotations

import os
from unittest import mock

import pytest
import tiktoken
import tiktoken.load
from tiktoken_ext import openai_public

from lessonkit.tokens import ENCODINGS
from lessonkit.tokens.rank_files import CHECKOUT


def tiktoken_definition(name: str) -> dict:
    """tiktoken's definition of encoding `name`, its ranks read from the checkout's rank file."""

    def from_the_checkout(address: str, expected_hash: str) -> dict[bytes, int]:
        path = CHECKOUT / address.rsplit("/", 1)[1]
        return tiktoken.load.load_tiktoken_bpe(str(path), expected_hash)

    before = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = ""  # read the file itself; write no cache
    try:
        with mock.patch.object(openai_public, "load_tiktoken_bpe", from_the_checkout):
            return openai_public.ENCODING_CONSTRUCTORS[name]()
    finally:
        if before is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = before


@pytest.fixture(scope="session")
def tiktoken_encodings() -> dict[str, tiktoken.Encoding]:
    """Each of lessonkit's encodings as tiktoken encodes it, by name."""
    encodings = {}
    for name in ENCODINGS:
        definition = tiktoken_definition(name)
        encodings[name] = tiktoken.Encoding(
            name=definition["name"],
            pat_str=definition["pat_str"],
            mergeable_ranks=definition["mergeable_ranks"],
            special_tokens=definition["special_tokens"],
        )
    return encodings
