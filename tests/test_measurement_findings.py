"""Measured figures live in bench/FINDINGS.md, not in the code's comments.

A comment says why the code does what it does; a figure in it (a time, a size) is an anecdote from one
machine on one day, which nobody re-measures and which quietly goes stale. The shell cites the
findings file instead, and the file names the code each of its entries explains.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FINDINGS = ROOT / "bench" / "FINDINGS.md"
SHELL = ROOT / "overrides" / "assets" / "lessonkit"
ENGINE = ROOT / "src" / "lessonkit"

# A measured quantity: a number with a unit of time or size ("17 ms", "2.5 s", "321 kB", "5.8 MB").
# Binary units are left out: they size formats ("4 KiB pages"), not measurements.
FIGURE = re.compile(r"\b\d[\d,.]*(?:[-–]\d[\d,.]*)? ?(?:ms|µs|s|kB|KB|MB)\b")
# A comment may quote what the page says ("at 30 s"), which is words, not a measurement.
QUOTED = re.compile(r'"[^"]*"')
JS_COMMENT = re.compile(r"^\s*(?://|/?\*)(.*)$")
PY_COMMENT = re.compile(r"#(.*)$")


def comment_lines(path: Path) -> list[tuple[int, str]]:
    pattern = PY_COMMENT if path.suffix == ".py" else JS_COMMENT
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = pattern.search(line) if path.suffix == ".py" else pattern.match(line)
        if match:
            found.append((number, match.group(1)))
    return found


def code_files() -> list[Path]:
    return sorted([*SHELL.rglob("*.js"), *ENGINE.rglob("*.py"), *ENGINE.rglob("*.mjs")])


def test_no_comment_in_the_shell_or_the_engines_carries_a_measured_figure():
    figures = [
        f"{path.relative_to(ROOT)}:{number}: {text.strip()}"
        for path in code_files()
        for number, text in comment_lines(path)
        if FIGURE.search(QUOTED.sub("", text))
    ]
    assert not figures, "measured figures belong in bench/FINDINGS.md, cited from the comment:\n" + "\n".join(figures)


def test_every_file_that_cites_the_findings_is_named_by_an_entry_there():
    findings = FINDINGS.read_text(encoding="utf-8")
    citing = [path for path in code_files() if "bench/FINDINGS.md" in path.read_text(encoding="utf-8")]
    assert citing, "no code cites bench/FINDINGS.md"
    unnamed = [path.name for path in citing if f"(`{path.name}`)" not in findings]
    assert not unnamed, f"these files cite bench/FINDINGS.md but no heading there names them: {unnamed}"


def test_the_figure_pattern_finds_the_quantities_a_comment_could_carry():
    # The check above is only as good as this pattern, so it is held to examples of both kinds.
    for measured in ("took 17 ms", "from 19-23 ms", "a 321 kB index", "about 2.5 s", "5.8 MB"):
        assert FIGURE.search(measured), measured
    for plain in ("30 seconds, T4 arrived", "whatwg/html#11844", "Request 1 of 24", "the p95", "4 KiB pages"):
        assert not FIGURE.search(plain), plain
    assert not FIGURE.search(QUOTED.sub("", 'the words: "Policy Evict oldest, at 30 s".'))
