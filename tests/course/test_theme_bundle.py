"""The theme's bundle as the course serves it: it writes the page's colour scheme only when it
changes, into the element the page already has; it reads every code block before it inserts their
buttons; it leaves the API reference's signatures to the shell; and it mounts no tooltip on a
heading's permanent link."""

from __future__ import annotations

import re
from pathlib import Path

import material
import pytest

from lessonkit.authoring.offline import digest, written_course
from lessonkit.authoring.theme_bundle import BUNDLE, REWRITES, as_the_course_serves_it

ROOT = Path(__file__).parents[2]
SITE = ROOT / "site"
THEME = Path(material.__file__).parent / "templates"


def test_the_themes_own_bundle_holds_each_statement_the_build_rewrites_once():
    (bundle,) = THEME.glob(BUNDLE)
    text = bundle.read_text(encoding="utf-8")
    assert [text.count(rewrite.theirs) for rewrite in REWRITES] == [1] * len(REWRITES)
    rewritten = as_the_course_serves_it(text)
    assert [rewritten.count(rewrite.ours) for rewrite in REWRITES] == [1] * len(REWRITES)
    assert not any(rewrite.theirs in rewritten for rewrite in REWRITES)


@pytest.mark.parametrize("missing", range(len(REWRITES)))
def test_a_bundle_without_a_statement_is_refused_by_the_statement_it_lacks(missing):
    bundle = "".join(rewrite.theirs for number, rewrite in enumerate(REWRITES) if number != missing)
    lacking = REWRITES[missing]
    # The message names the statement and what it does, so an author knows where the theme changed.
    said = rf"the theme's bundle holds {re.escape(repr(lacking.theirs))} 0 times, not once; .*{re.escape(lacking.what)}"
    with pytest.raises(ValueError, match=said):
        as_the_course_serves_it(bundle)


def test_the_built_sites_bundle_is_the_courses_rewrite_and_the_offline_copy_keeps_it_so():
    bundles = sorted(SITE.glob(BUNDLE))
    if not bundles:
        pytest.fail(f"the built site is missing ({SITE} has no theme bundle): run make site", pytrace=False)
    (bundle,) = bundles
    assert all(rewrite.ours in bundle.read_text(encoding="utf-8") for rewrite in REWRITES)
    digests = {path: integrity for path, _size, integrity in written_course(SITE)["files"]}
    assert digests[bundle.relative_to(SITE).as_posix()] == digest(bundle.read_bytes())
