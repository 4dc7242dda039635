"""The engine's snapshot ships in the build's sparse form: the interpreter's memory without the
pages that are zeros or still the WebAssembly module's own data.

snapshot.mjs writes it and worker.js reads it back; tests/js/snapshot-memory.test.mjs puts a
snapshot back from its form and the module's data segments, byte for byte, and the browser tests
prove the round trip in the reader's browser (the engine says it restored the snapshot). Here: the
shipped parts are one gzip stream of that form, its runs are well made, and it lays the module's
data inside the image.
"""

import gzip
import json
import struct
import zlib
from pathlib import Path

import pytest

from lessonkit.authoring.site_hooks import SNAPSHOT_FIRST_PART

ASSETS = Path(__file__).resolve().parents[1] / "site" / "assets"
PAGE = 4096


@pytest.fixture(scope="module")
def parts() -> list[bytes]:
    manifest = ASSETS / "lessonkit" / "runtime.json"
    if not manifest.is_file():
        pytest.fail(f"{manifest} is missing: run make site", pytrace=False)
    return [(manifest.parent / part).read_bytes() for part in json.loads(manifest.read_text(encoding="utf-8"))["snapshot"]]


@pytest.fixture(scope="module")
def sparse(parts) -> bytes:
    return gzip.decompress(b"".join(parts))


def test_the_snapshot_ships_as_one_gzip_stream_whose_first_part_the_link_is_judged_on(parts):
    # Two files: the worker asks for the second only once the first has shown the link fast enough.
    assert len(parts) == 2, f"the snapshot ships in {len(parts)} parts"
    assert len(parts[0]) == SNAPSHOT_FIRST_PART
    # The first part alone is a gzip stream cut short, not a whole one: the worker inflates the parts as one.
    inflating = zlib.decompressobj(wbits=31)
    inflating.decompress(parts[0])
    assert not inflating.eof, "the first part is a whole gzip stream: the second would be another"
    inflating.decompress(parts[1])
    assert inflating.eof and not inflating.unused_data, "the two parts are not one gzip stream, ending where the second ends"


def form_of(sparse: bytes) -> tuple[int, list[tuple[int, int]], list[tuple[int, int]], bytes]:
    """The image's length, the segments laid (index, offset), the runs (offset, length), and the runs' bytes."""
    total, count, laid = struct.unpack_from("<III", sparse, 8)
    segments = [struct.unpack_from("<II", sparse, 20 + 8 * index) for index in range(laid)]
    runs_at = 20 + 8 * laid
    runs = [struct.unpack_from("<II", sparse, runs_at + 8 * index) for index in range(count)]
    return total, segments, runs, sparse[runs_at + 8 * count :]


def test_the_shipped_snapshot_says_it_is_the_sparse_form_and_its_runs_hold_all_its_bytes(sparse):
    assert sparse[:8] == b"LKSPARS2"
    total, _, runs, data = form_of(sparse)
    assert runs, "a memory image with no page that start-up changed"
    assert len(data) == sum(length for _, length in runs)
    end = 0
    for offset, length in runs:
        assert offset % PAGE == 0 and offset >= end, f"run at {offset} is not page-aligned after {end}"
        assert length > 0 and (length % PAGE == 0 or offset + length == total)
        end = offset + length
    assert end <= total


def test_the_module_data_is_laid_inside_the_image_and_pages_are_left_out(sparse):
    total, segments, runs, _ = form_of(sparse)
    assert segments, "the form lays none of the module's data: every page of it would ship again"
    for index, offset in segments:
        assert 0 < offset < total, f"segment {index} is laid at {offset}, outside the image of {total} bytes"
    for (offset, length), (following, _) in zip(runs, runs[1:], strict=False):
        assert following > offset + length, "two runs touch: they would have been one"
    kept = sum(length for _, length in runs)
    assert kept < total // 2, f"the form keeps {kept} of the image's {total} bytes"
