"""Fixtures the test folders share."""

from __future__ import annotations

import fcntl
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.course_build import CourseBuild, build_course


@contextmanager
def held(lock: Path) -> Iterator[None]:
    """`lock` held by this process alone: a worker that asks while another holds it waits."""
    with lock.open("w") as file:
        fcntl.flock(file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def course_build(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> CourseBuild:
    """The course built once per run, with the network cut where this machine allows it (a build
    takes about 20 s, and every test that needs one shares this one).

    Once per run, not once per worker: `make test` runs two pytest-xdist workers, and the files that
    read a build can land on either. They share the run's temporary folder; the first worker to ask
    builds there under a lock, and the other waits for it and reads the same site."""
    run_root = tmp_path_factory.getbasetemp()
    if worker_id != "master":  # each worker's own folder is inside the run's
        run_root = run_root.parent
    built = run_root / "course"
    record = built / "build.json"
    with held(run_root / "course.lock"):
        if not record.is_file():
            built.mkdir(exist_ok=True)
            build = build_course(built / "site")
            record.write_text(json.dumps({"offline": build.offline}), encoding="utf-8")
    return CourseBuild(built / "site", offline=json.loads(record.read_text(encoding="utf-8"))["offline"])
