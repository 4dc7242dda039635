"""Fixtures the test folders share."""

from __future__ import annotations

import pytest

from tests.course_build import CourseBuild, build_course


@pytest.fixture(scope="session")
def course_build(tmp_path_factory: pytest.TempPathFactory) -> CourseBuild:
    """The course built once per run, with the network cut where this machine allows it (a build
    takes about 25 s: every test that needs one shares this one)."""
    return build_course(tmp_path_factory.mktemp("course") / "site")
