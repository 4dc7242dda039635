"""`make serve` builds again after every edit: what the last build made from the same engine is put
back, and anything made from another engine never is (src/lessonkit/authoring/site_hooks.py)."""

from __future__ import annotations

from pathlib import Path

from lessonkit.authoring.site_hooks import LastEngine, engine_key


def made(assets: Path, files: dict[str, bytes]) -> list[Path]:
    paths = []
    for name, body in files.items():
        (assets / name).parent.mkdir(parents=True, exist_ok=True)
        (assets / name).write_bytes(body)
        paths.append(assets / name)
    return paths


def test_a_rebuild_from_the_same_engine_gets_the_last_builds_snapshot_and_views_back(tmp_path):
    last = LastEngine()
    files = {"snapshots/lessonkit.snapshot.gz": b"memory", "lessonkit/views/working-memory.json.gz": b"views"}
    last.keep("engine-1", tmp_path / "first", made(tmp_path / "first", files))

    assert last.put_back("engine-1", tmp_path / "second")
    assert {name: (tmp_path / "second" / name).read_bytes() for name in files} == files


def test_a_rebuild_from_another_engine_gets_nothing_back(tmp_path):
    last = LastEngine()
    last.keep("engine-1", tmp_path / "first", made(tmp_path / "first", {"snapshots/lessonkit.snapshot.gz": b"memory"}))

    assert not last.put_back("engine-2", tmp_path / "second")
    assert not (tmp_path / "second").exists()
    assert not LastEngine().put_back("engine-1", tmp_path / "second")  # a first build has nothing to put back


def test_the_engine_a_build_is_made_from_changes_with_its_wheel_and_pyodide(tmp_path):
    wheel = tmp_path / "lessonkit-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"the engines and their fixtures")
    same = engine_key(wheel, "0.29.5")
    assert engine_key(wheel, "0.29.5") == same
    assert engine_key(wheel, "0.30.0") != same
    wheel.write_bytes(b"an edited engine")
    assert engine_key(wheel, "0.29.5") != same
