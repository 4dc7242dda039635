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


@pytest.hookimpl(trylast=True)  # after tests/browser/conftest.py has put the browser tests last
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The first file that reads the run's own build goes first, and the others last before the
    browser tests: `make test`'s first worker then builds while the other runs the rest, and by the
    time another file asks for the build, it is there. (Two files asking at once would leave one
    worker waiting, a core idle, through the whole build.)"""
    first = [item for item in items if item.get_closest_marker("browser") is None]
    browser = items[len(first) :]
    building = list(dict.fromkeys(item.path for item in first if "course_build" in getattr(item, "fixturenames", ())))
    if not building:
        return
    builds, later = building[0], set(building[1:])
    items[:] = (
        [item for item in first if item.path == builds]
        + [item for item in first if item.path != builds and item.path not in later]
        + [item for item in first if item.path in later]
        + browser
    )


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
