"""The engine's snapshot ships in the build's sparse form: the interpreter's memory without its pages of zeros.

snapshot.mjs writes it and worker.js reads it back; the browser tests prove the round trip (the
engine says it restored the snapshot). Here: the shipped file is that form, and leaves out every
page of zeros and nothing else.
"""

import gzip
import struct
from pathlib import Path

import pytest

SNAPSHOT = Path(__file__).resolve().parents[1] / "site" / "assets" / "snapshots" / "lessonkit.snapshot.gz"
PAGE = 4096


@pytest.fixture(scope="module")
def sparse() -> bytes:
    if not SNAPSHOT.is_file():
        pytest.fail(f"{SNAPSHOT} is missing: run make site", pytrace=False)
    return gzip.decompress(SNAPSHOT.read_bytes())


def runs_of(sparse: bytes) -> tuple[int, list[tuple[int, int]], bytes]:
    total, count = struct.unpack_from("<II", sparse, 8)
    runs = [struct.unpack_from("<II", sparse, 16 + 8 * index) for index in range(count)]
    return total, runs, sparse[16 + 8 * count :]


def test_the_shipped_snapshot_says_it_is_the_sparse_form_and_its_runs_hold_all_its_bytes(sparse):
    assert sparse[:8] == b"LKSPARS1"
    total, runs, data = runs_of(sparse)
    assert runs, "a memory image with no page that is not zeros"
    assert len(data) == sum(length for _, length in runs)
    end = 0
    for offset, length in runs:
        assert offset % PAGE == 0 and offset >= end, f"run at {offset} is not page-aligned after {end}"
        assert length > 0 and (length % PAGE == 0 or offset + length == total)
        end = offset + length
    assert end <= total


def test_every_page_left_in_holds_something_and_every_gap_between_runs_is_a_real_gap(sparse):
    total, runs, data = runs_of(sparse)
    from_ = 0
    for (offset, length), following in zip(runs, [*runs[1:], (None, None)], strict=True):
        chunk = data[from_ : from_ + length]
        assert all(any(chunk[i : i + PAGE]) for i in range(0, length, PAGE)), f"a page of zeros was kept in the run at {offset}"
        if following[0] is not None:
            assert following[0] > offset + length, "two runs touch: they would have been one"
        from_ += length
    kept = sum(length for _, length in runs)
    assert kept < total, "no page of zeros was left out"
