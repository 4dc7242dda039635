"""The theme's bundle writes the page's colour scheme only when it changes, into the element the
page already has, instead of restyling every page once more as it starts."""

from __future__ import annotations

from pathlib import Path

import material
import pytest

from lessonkit.authoring.offline import digest, written_course
from lessonkit.authoring.theme_bundle import BUNDLE, REWRITES, writing_scheme_on_change

ROOT = Path(__file__).parents[2]
SITE = ROOT / "site"
THEME = Path(material.__file__).parent / "templates"


def test_the_themes_own_bundle_holds_each_statement_the_build_rewrites_once():
    (bundle,) = THEME.glob(BUNDLE)
    text = bundle.read_text(encoding="utf-8")
    assert [text.count(theirs) for theirs, _ours in REWRITES] == [1] * len(REWRITES)
    rewritten = writing_scheme_on_change(text)
    assert [rewritten.count(ours) for _theirs, ours in REWRITES] == [1] * len(REWRITES)
    assert not any(theirs in rewritten for theirs, _ours in REWRITES)


@pytest.mark.parametrize("missing", range(len(REWRITES)))
def test_a_bundle_without_a_statement_is_refused_by_the_statement_it_lacks(missing):
    bundle = "".join(theirs for number, (theirs, _ours) in enumerate(REWRITES) if number != missing)
    with pytest.raises(ValueError, match=r"the theme's bundle holds .* 0 times, not once"):
        writing_scheme_on_change(bundle)


def test_the_built_sites_bundle_writes_the_scheme_on_change_and_the_offline_copy_keeps_it_so():
    bundles = sorted(SITE.glob(BUNDLE))
    if not bundles:
        pytest.fail(f"the built site is missing ({SITE} has no theme bundle): run make site", pytrace=False)
    (bundle,) = bundles
    assert all(ours in bundle.read_text(encoding="utf-8") for _theirs, ours in REWRITES)
    digests = {path: integrity for path, _size, integrity in written_course(SITE)["files"]}
    assert digests[bundle.relative_to(SITE).as_posix()] == digest(bundle.read_bytes())
