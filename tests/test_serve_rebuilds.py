"""A build puts back what an earlier build made from the same engine, and never what another engine
made (src/lessonkit/authoring/kept_engine.py): `make serve` builds again after every edit; and
what it serves is never kept for reading offline (src/lessonkit/authoring/offline.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lessonkit.authoring import offline
from lessonkit.authoring.kept_engine import KEPT, KeptEngine, engine_key, switched_on

ROOT = Path(__file__).resolve().parents[1]


def made(assets: Path, files: dict[str, bytes]) -> list[Path]:
    paths = []
    for name, body in files.items():
        (assets / name).parent.mkdir(parents=True, exist_ok=True)
        (assets / name).write_bytes(body)
        paths.append(assets / name)
    return paths


def test_a_build_from_the_same_engine_gets_the_last_builds_snapshot_and_views_back(tmp_path):
    files = {"snapshots/lessonkit.snapshot.gz": b"memory", "lessonkit/views/working-memory.json.gz": b"views"}
    KeptEngine(tmp_path / "kept").keep("engine-1", tmp_path / "first", made(tmp_path / "first", files))

    # Another build, in another process: only the folder is shared.
    assert KeptEngine(tmp_path / "kept").put_back("engine-1", tmp_path / "second")
    assert {name: (tmp_path / "second" / name).read_bytes() for name in files} == files


def test_a_build_from_another_engine_gets_nothing_back(tmp_path):
    kept = KeptEngine(tmp_path / "kept")
    assert not kept.put_back("engine-1", tmp_path / "second")  # a first build has nothing to put back
    kept.keep("engine-1", tmp_path / "first", made(tmp_path / "first", {"snapshots/lessonkit.snapshot.gz": b"memory"}))

    assert not kept.put_back("engine-2", tmp_path / "second")
    assert not (tmp_path / "second").exists()


def test_switched_off_a_build_neither_keeps_nor_reuses_anything(tmp_path):
    files = made(tmp_path / "first", {"snapshots/lessonkit.snapshot.gz": b"memory"})
    KeptEngine(tmp_path / "kept", on=False).keep("engine-1", tmp_path / "first", files)
    assert not (tmp_path / "kept").exists()

    KeptEngine(tmp_path / "kept").keep("engine-1", tmp_path / "first", files)
    assert not KeptEngine(tmp_path / "kept", on=False).put_back("engine-1", tmp_path / "second")
    assert switched_on({}) and switched_on({"LESSONKIT_ENGINE_CACHE": "on"})
    assert not switched_on({"LESSONKIT_ENGINE_CACHE": "off"})
    with pytest.raises(ValueError, match=r"LESSONKIT_ENGINE_CACHE is 'no': it can be 'on' .* or 'off'"):
        switched_on({"LESSONKIT_ENGINE_CACHE": "no"})


def test_only_the_most_recently_used_engines_are_kept(tmp_path):
    kept = KeptEngine(tmp_path / "kept")
    for index, engine in enumerate(f"engine-{n}" for n in range(1, KEPT + 1)):
        kept.keep(engine, tmp_path / "site", made(tmp_path / "site", {"snapshots/lessonkit.snapshot.gz": engine.encode()}))
        os.utime(tmp_path / "kept" / engine, (index, index))  # kept one after the other, a second apart
    assert kept.put_back("engine-1", tmp_path / "again")  # the oldest, used again: now the newest

    kept.keep("engine-new", tmp_path / "site", made(tmp_path / "site", {"snapshots/lessonkit.snapshot.gz": b"new"}))
    assert sorted(path.name for path in (tmp_path / "kept").iterdir()) == sorted(
        {"engine-1", "engine-new", *[f"engine-{n}" for n in range(3, KEPT + 1)]}
    )


def test_a_half_kept_engine_left_by_a_stopped_build_goes_and_one_another_build_is_writing_stays(tmp_path):
    kept = KeptEngine(tmp_path / "kept")
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    abandoned = tmp_path / "kept" / f".making-engine-1-{int(ended.stdout)}"
    busy = tmp_path / "kept" / f".making-engine-2-{os.getppid()}"  # a process alive all along: this one's parent
    for folder in (abandoned, busy):
        (folder / "snapshots").mkdir(parents=True)
    kept.keep("engine-3", tmp_path / "site", made(tmp_path / "site", {"snapshots/lessonkit.snapshot.gz": b"memory"}))
    assert not abandoned.exists() and busy.exists()
    assert kept.put_back("engine-3", tmp_path / "again")


def test_the_engine_a_build_is_made_from_changes_with_its_wheel_and_pyodide(tmp_path):
    wheel = tmp_path / "lessonkit-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"the engines and their fixtures")
    same = engine_key(wheel, "0.29.5")
    assert engine_key(wheel, "0.29.5") == same
    assert engine_key(wheel, "0.30.0") != same
    wheel.write_bytes(b"an edited engine")
    assert engine_key(wheel, "0.29.5") != same


def a_built_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "lessons" / "one").mkdir(parents=True)
    (site / "index.html").write_text("<p>home</p>")
    (site / "lessons" / "one" / "index.html").write_text("<p>a lesson</p>")
    (site / "assets.js.map").write_text("{}")
    shutil.copyfile(ROOT / "overrides" / offline.SERVICE_WORKER, site / offline.SERVICE_WORKER)
    return site


def test_make_serve_writes_a_service_worker_that_keeps_nothing_and_a_build_one_that_keeps_every_page(tmp_path):
    site = a_built_site(tmp_path)
    offline.on_startup(command="serve", dirty=False)
    try:
        offline.on_post_build({"site_dir": str(site)})
        assert offline.written_course(site)["serving"] is True
    finally:
        offline.on_startup(command="build", dirty=False)
    offline.on_post_build({"site_dir": str(site)})  # written again over the first: the marker stays
    course = offline.written_course(site)
    assert course["serving"] is False
    assert [address for address, _, _ in course["files"]] == ["./", "lessons/one/"]  # no source map, not itself


def test_a_service_worker_without_the_line_for_the_course_is_refused_by_name(tmp_path):
    site = a_built_site(tmp_path)
    (site / offline.SERVICE_WORKER).write_text("// a worker from elsewhere\n")
    with pytest.raises(ValueError, match=r"service-worker\.js: no line `const COURSE = null; // lessonkit-course`"):
        offline.write_service_worker(site)
