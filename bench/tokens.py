"""Real tokens in CPython: what each encoding's ranks cost to ship and to read, and what encoding costs.

For each encoding, in a fresh process each (`python -m bench.tokens ENCODING` prints one JSON object):

- the rank file's bytes, as gpt-tokenizer ships it and as the build gzips it into the site;
- reading its ranks, from the raw file and from the build's gzip (the digest checked, as every read
  does), and the memory they then hold (tracemalloc's count of what the read left allocated);
- compiling the encoding's pattern, which the first count does once;
- encoding an 18-token prompt, and the whole course's text (every page, fixture and source file).

Each time is the median of its repeats, after one call that is not counted. `python -m bench.tokens`
measures both encodings and prints a table; `--json` prints the rows instead. The browser's own
figures (the time to a first real count in the page, and the bytes it fetches) are `make bench`'s.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import re
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROMPT = "Summarize the last eight turns of this conversation, keeping every decision and file name."
REPEATS = {"read": 5, "compile": 5, "prompt": 2000, "course": 5}


def course_text() -> str:
    """The course's pages, fixtures and code, as the tests' cross-check reads them, one text."""
    folders = ("docs", "fixtures", "src")
    files = sorted(path for folder in folders for path in (ROOT / folder).rglob("*") if path.is_file() and "__pycache__" not in path.parts)
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def median_s(call: Callable[[], Any], repeats: int) -> float:
    call()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure_one(name: str) -> dict[str, Any]:
    """One encoding, in this process."""
    from lessonkit import tokens
    from lessonkit.tokens import pattern, rank_files
    from lessonkit.tokens.encodings import ENCODINGS
    from lessonkit.tokens.ranks import read_ranks

    spec = ENCODINGS[name]
    raw = (rank_files.CHECKOUT / spec.rank_file).read_bytes()
    shipped = gzip.compress(raw, compresslevel=9, mtime=0)  # as the build ships it (site_hooks.ship_ranks)
    gc.collect()
    tracemalloc.start()
    held = read_ranks(raw, spec)
    heap = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del held

    def compile_afresh() -> None:
        pattern.compiled.cache_clear()
        pattern._members.cache_clear()
        re.purge()  # re keeps its own cache of compiled patterns
        pattern.compiled(spec)

    compile_s = median_s(compile_afresh, REPEATS["compile"])
    rank_files.provide(name, raw)
    text = course_text()
    return {
        "encoding": name,
        "raw_bytes": len(raw),
        "gzip_bytes": len(shipped),
        "read_raw_s": median_s(lambda: read_ranks(raw, spec), REPEATS["read"]),
        "read_gzip_s": median_s(lambda: read_ranks(shipped, spec), REPEATS["read"]),
        "heap_bytes": heap,
        "compile_s": compile_s,
        "prompt_tokens": tokens.count(PROMPT, name),
        "prompt_s": median_s(lambda: tokens.encode(PROMPT, name), REPEATS["prompt"]),
        "course_chars": len(text),
        "course_tokens": tokens.count(text, name),
        "course_s": median_s(lambda: tokens.encode(text, name), REPEATS["course"]),
    }


def measure() -> list[dict[str, Any]]:
    """Every encoding, each in its own process, so one's ranks and caches never warm the other's."""
    from lessonkit.tokens.encodings import ENCODINGS

    rows = []
    for name in ENCODINGS:
        ran = subprocess.run([sys.executable, "-m", "bench.tokens", name], cwd=ROOT, capture_output=True, text=True, check=True)
        rows.append(json.loads(ran.stdout))
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| encoding | rank file | gzipped | read (raw) | read (gzip) | heap | pattern | 18-token prompt | the course |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        course = f"{row['course_s'] * 1000:.0f} ms for {row['course_chars']:,} characters, {row['course_tokens']:,} tokens"
        lines.append(
            f"| {row['encoding']} | {row['raw_bytes'] / 1e6:.2f} MB | {row['gzip_bytes'] / 1e6:.2f} MB | {row['read_raw_s'] * 1000:.0f} ms "
            f"| {row['read_gzip_s'] * 1000:.0f} ms | {row['heap_bytes'] / 1e6:.1f} MB | {row['compile_s'] * 1000:.0f} ms "
            f"| {row['prompt_s'] * 1e6:.0f} µs ({row['prompt_tokens']} tokens) | {course} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("encoding", nargs="?", help="measure this encoding alone, in this process, and print its JSON")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    args = parser.parse_args()
    if args.encoding:
        print(json.dumps(measure_one(args.encoding)))
        return
    rows = measure()
    print(json.dumps(rows, indent=2) if args.json else table(rows))


if __name__ == "__main__":
    main()
