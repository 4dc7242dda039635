"""The texts the tokenizer is checked on: the course's own, and a corpus made to find its edges.

Both are lists of (where, text): `where` names the text in a failure, so a disagreement with tiktoken
says which page, fixture field or corpus entry it was found in.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lessonkit.tokens.unicode_classes import RUNS

ROOT = Path(__file__).resolve().parents[2]
COURSE_FOLDERS = ("docs", "fixtures", "src")
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)[^\n]*\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)


def course_files() -> list[Path]:
    """Every file of the course's pages, fixtures and code: docs/, fixtures/ and src/."""
    return sorted(
        path for folder in COURSE_FOLDERS for path in (ROOT / folder).rglob("*") if path.is_file() and "__pycache__" not in path.parts
    )


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def course_texts() -> list[tuple[str, str]]:
    """Each file whole, then each string of each fixture and notebook, and each fenced block of each page."""
    texts = []
    for path in course_files():
        where = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        texts.append((where, text))
        if path.suffix in (".json", ".ipynb"):
            texts += [(f"{where}: string {number}", string) for number, string in enumerate(_strings(json.loads(text)))]
        if path.suffix == ".md":
            texts += [(f"{where}: block {number}", fence["body"]) for number, fence in enumerate(FENCE.finditer(text))]
    return texts


# Whitespace as tiktoken's \s knows it (White_Space), and characters Python's \s takes for whitespace
# that it does not (U+001C to U+001F), or that look like it and are not (U+200B, U+FEFF, U+180E).
SPACES = [" ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x85", "\xa0", "\u1680", "\u2003", "\u2028", "\u2029", "\u202f", "\u3000"]
NOT_SPACES = ["\x1c", "\x1d", "\x1e", "\x1f", "\u200b", "\ufeff", "\u180e", "\x00", "\x7f"]
WORDS = ["Hello", "world", "HelloWorld", "HTTPServer", "iPhone", "camelCaseWord", "ALLCAPS", "x", "A", "naïve", "café"]
WORDS += ["e\u0301te\u0301", "ǅungla", "ǈ", "ʰa", "Ǆ", "ſ", "ﬁne", "straße", "İstanbul", "ΑΘΗΝΑ", "Ωmega", "Привет", "мир"]
WORDS += ["שלום", "مرحبا", "नमस्ते", "हिन्दी", "สวัสดี", "こんにちは", "カタカナ", "漢字", "한국어", "ᄀᄂ", "ᏣᎳᎩ", "ꓐ", "ᲀ"]
# Letters and numbers newer than Python 3.11's Unicode 14.0, which tiktoken's engine knows (15.0 to 16.0).
WORDS += ["\U00011f04\U00011f05", "\U0001e030\U0001e031", "\U0002ebf0", "\u1c89\u1c8a", "\U00010d4a\U00010d4b", "\U00010d50\U00010d51"]
NUMBERS = ["0", "7", "42", "123", "1234", "12345678901", "3.14", "1,000", "²", "x²", "½", "3½", "Ⅻ", "①", "٣٤٥", "１２３", "𝟎𝟏𝟐", "१२"]
CONTRACTIONS = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ve", "'LL", "'lL", "'D", "'ſ", "'x", "''s", "’s", "'"]
EMOJI = ["🚀", "👍🏽", "👩\u200d👩\u200d👧", "🇪🇸", "1\ufe0f\u20e3", "❤\ufe0f", "🫠", "😀😀😀", "🏳\ufe0f\u200d🌈"]
ABOVE_BMP = ["𝐀𝐚", "𝔄𝔞", "𠀀𠀁", "𝅘𝅥𝅮", "a\U0001d167b", "\U000e0100", "\U0001f1e6", "\U0010ffff", "\U000f0000", "𐐀𐐨"]
SYMBOLS = ["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>", "//", "/*", "->", "!=", "...", "…", "—", "«»", "¿¡", "#", "$5", "€"]
SYMBOLS += ["\\n", "```", "{}", "[]", "@@", "%%", "\ue000", "\uffff", "\ufffd", "\u00ad", "\u200d", "\u2060", "\u0300", "\u20dd"]


def code_point_samples(rng: random.Random) -> list[str]:
    """From every run of every class of the table: its first and last code point, and one inside."""
    found = []
    for runs in RUNS.values():
        for run in runs.split():
            first, _, last = run.partition("-")
            low, high = int(first, 16), int(last or first, 16)
            found += [chr(low), chr(high), chr(rng.randint(low, high))]
    return found


def generated_corpus(size: int = 6000, seed: int = 23) -> list[tuple[str, str]]:
    """Unicode, whitespace runs, digits, contractions and emoji, alone and mixed: `size` random mixes after the fixed entries."""
    rng = random.Random(seed)
    fixed = [*WORDS, *NUMBERS, *CONTRACTIONS, *EMOJI, *ABOVE_BMP, *SYMBOLS]
    texts = [(f"alone {number}", text) for number, text in enumerate(fixed)]
    # Whitespace runs of every length to 6, between words, at the end and before a last newline.
    for length in range(1, 7):
        for number in range(12):
            run = "".join(rng.choice(SPACES + NOT_SPACES[:2]) for _ in range(length))
            texts += [(f"spaces {length}.{number}", text) for text in (f"a{run}b", f"word{run}", f"{run}word", f"x{run}\n", f"{run}")]
    for number, char in enumerate(SPACES + NOT_SPACES):
        texts += [(f"space {number}", text) for text in (f"a{char}b", f"word{char}", f"{char} x", f"x {char}{char}\n", f"1{char}2")]
    texts += [
        (f"contraction {c} after {w}", f"{w}{c} {w.upper()}{c.upper()}") for c in CONTRACTIONS for w in ("it", "They", " I", "x1", "ʰ")
    ]
    texts += [(f"digits {n}", "".join(rng.choice("0123456789") for _ in range(n))) for n in range(1, 40)]
    samples = code_point_samples(rng)
    for start in range(0, len(samples), 40):
        chunk = samples[start : start + 40]
        glue = rng.choice(["", " ", "a", "A", "1", "'s", "\n", "🚀", "\u0301"])
        texts.append((f"code points {start}", glue.join(chunk)))
        texts.append((f"code points {start} in words", " ".join(f"x{char}y" for char in chunk)))
    # Long pieces: a byte-pair merge of a thousand bytes and more.
    texts += [("long =", "=" * 1500), ("long a", "a" * 1200), ("long spaces", " " * 2000 + "x"), ("long emoji", "🚀" * 400)]
    texts += [
        ("long mixed", "ab" * 700),
        ("long digits", "9" * 1000),
        ("long letters", "".join(rng.choice("abcdefgh") for _ in range(3000))),
    ]
    pool = fixed + SPACES + NOT_SPACES + samples[:: max(1, len(samples) // 400)]
    for number in range(size):
        texts.append((f"mix {number}", "".join(rng.choice(pool) for _ in range(rng.randint(1, 12)))))
    return texts
