"""The pre-tokenizer is tiktoken's: the same patterns and special tokens, word for word, and Unicode
classes that hold every code point tiktoken's own regex engine puts in them, whatever Unicode
version the running interpreter has.

tiktoken shows which code points its engine puts in a class when it is given that class alone as
its pattern, and single bytes as its only tokens: it encodes only what the pattern matches, so the
text it decodes back from every code point in turn is exactly the class's members.
"""

from __future__ import annotations

import ast
import re
import sys
import unicodedata
from functools import cache
from pathlib import Path

import pytest
import tiktoken

from lessonkit.tokens import ENCODINGS
from lessonkit.tokens.pattern import PROPERTIES, STAND_INS, pieces, stand_in, translate
from lessonkit.tokens.unicode_classes import RUNS, UNICODE_VERSION
from tests.tokens.conftest import tiktoken_definition

EVERY_CODE_POINT = "".join(chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code <= 0xDFFF)
CLASSES = {**{f"\\p{{{name}}}": PROPERTIES[name] for name in PROPERTIES}, "\\s": ("White_Space",)}
TOKENS = Path(__file__).resolve().parents[2] / "src" / "lessonkit" / "tokens"


@cache
def members_by_tiktoken(pattern: str) -> frozenset[str]:
    engine = tiktoken.Encoding(name="members", pat_str=pattern, mergeable_ranks={bytes([b]): b for b in range(256)}, special_tokens={})
    return frozenset(bytes(engine.encode_ordinary(EVERY_CODE_POINT)).decode("utf-8"))


def members_by_table(names: tuple[str, ...]) -> frozenset[str]:
    found = set()
    for name in names:
        for run in RUNS[name].split():
            first, _, last = run.partition("-")
            found.update(map(chr, range(int(first, 16), int(last or first, 16) + 1)))
    return frozenset(found)


def described(chars: set[str]) -> str:
    return ", ".join(f"U+{ord(char):04X} {unicodedata.name(char, '(unnamed here)')}" for char in sorted(chars)[:5])


@pytest.mark.parametrize("pattern", CLASSES)
def test_every_code_point_is_in_the_classes_tiktokens_regex_engine_puts_it_in(pattern):
    ours, theirs = members_by_table(CLASSES[pattern]), members_by_tiktoken(pattern)
    assert not ours - theirs, f"only the table puts these in {pattern}: {described(ours - theirs)}"
    assert not theirs - ours, f"only tiktoken puts these in {pattern}: {described(theirs - ours)}"


def test_the_table_is_tiktokens_unicode_version_and_the_split_never_asks_the_interpreters():
    # Letters new in Unicode 15.0, 15.1 and 16.0, which tiktoken's engine knows, and a letter of 17.0, which it does not.
    newer, newest = ["\U00011f04", "\U0002ebf0", "\u1c89"], "\ua7ce"
    assert UNICODE_VERSION == "16.0.0"
    assert set(newer) <= members_by_tiktoken("\\p{L}") and newest not in members_by_tiktoken("\\p{L}")
    # U+1C89 is an upper-case letter, which starts a word in o200k_base; U+A7CE is nothing yet.
    assert list(pieces("x\u1c89y \ua7ce", ENCODINGS["o200k_base"])) == ["x", "\u1c89y", " \ua7ce"]
    imported = {
        alias.name
        for path in TOKENS.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
    }
    assert "unicodedata" not in imported


def test_each_stand_in_is_in_the_classes_of_the_characters_it_stands_for_and_in_no_other():
    classes = {name: members_by_table((name,)) for name in RUNS}

    def classes_of(char: str) -> set[str]:
        return {name for name, members in classes.items() if char in members}

    for name, stand in STAND_INS.items():
        assert ord(stand) <= 0xFFFF and classes_of(stand) == ({name} if name else set()), stand
    # Above U+FFFF: both ends of every run of the table, the code points beside them, and one in every 97.
    ends = {int(end, 16) + step for run in " ".join(RUNS.values()).split() for end in run.split("-") for step in (-1, 0, 1)}
    above = sorted(code for code in ends | set(range(0x10000, sys.maxunicode + 1, 97)) if code > 0xFFFF)
    wrong = {chr(code) for code in above if classes_of(chr(code)) != classes_of(stand_in(chr(code)))}
    assert not wrong, f"stood in for by a character of other classes: {described(wrong)}"


@pytest.mark.parametrize("name", ENCODINGS)
def test_text_above_the_basic_plane_splits_as_the_whole_classes_split_it(name):
    encoding = ENCODINGS[name]
    whole = re.compile(translate(encoding.pattern, whole=True))
    above = [char for char in EVERY_CODE_POINT[0xF800:] if ord(char) > 0xFFFF]
    text = "".join(f"{char}{glue}" for char, glue in zip(above[::17], ["", "x", " ", "A'S ", "1", "\n", "é"] * len(above), strict=False))
    assert list(pieces(text, encoding)) == [match.group() for match in whole.finditer(text)]


@pytest.mark.parametrize("name", ENCODINGS)
def test_the_patterns_special_tokens_and_rank_files_are_tiktokens_own(name):
    definition, encoding = tiktoken_definition(name), ENCODINGS[name]
    assert encoding.pattern == definition["pat_str"]
    assert dict(encoding.special_tokens) == definition["special_tokens"]
    assert sorted(definition["mergeable_ranks"].values()) == list(range(encoding.ranks))
    source = Path(tiktoken.__file__).parents[1] / "tiktoken_ext" / "openai_public.py"
    assert f'expected_hash="{encoding.sha256}"' in source.read_text(encoding="utf-8")


@pytest.mark.parametrize("pattern", [r"\d+", r"\w", r"\bx", r"a.b", r"\P{L}", r"[[a]]", r"[]a]", r"[\S]", "[a", "a\\"])
def test_a_pattern_the_translation_does_not_know_is_refused_not_guessed(pattern):
    with pytest.raises(ValueError, match="pattern"):
        translate(pattern)
