"""The theme's palette stylesheet loses its scheme-switching rule, which restyled every page twice more
as it started, and the course keeps what the rule was for with a mark of its own."""

from __future__ import annotations

from pathlib import Path

import material
import pytest

from lessonkit.authoring.offline import digest, written_course
from lessonkit.authoring.palette_css import STYLESHEETS, SWITCHING_RULE, trim_site, without_switching_rule

ROOT = Path(__file__).parents[2]
SITE = ROOT / "site"
THEME = Path(material.__file__).parent / "templates"


def test_the_switching_rule_leaves_and_everything_around_it_stays():
    css = "@media screen{[data-md-color-scheme=slate]{--md-hue:232deg}" + SWITCHING_RULE + "}[data-md-color-accent=red]{--x:1}"
    assert without_switching_rule(css) == "@media screen{[data-md-color-scheme=slate]{--md-hue:232deg}}[data-md-color-accent=red]{--x:1}"


@pytest.mark.parametrize("times", [0, 2])
def test_a_stylesheet_without_the_rule_once_is_refused_by_what_it_holds(times):
    with pytest.raises(
        ValueError, match=rf"holds Material's scheme-switching rule {times} times, not once: expected '\[data-md-color-switching\]"
    ):
        without_switching_rule("a{color:red}" + SWITCHING_RULE * times)


def test_the_materials_own_stylesheet_holds_the_rule_the_build_takes_out():
    (sheet,) = THEME.glob(STYLESHEETS)
    assert sheet.read_text(encoding="utf-8").count(SWITCHING_RULE) == 1


def test_a_site_whose_palette_stylesheet_the_theme_lacks_is_refused(tmp_path):
    sheet = tmp_path / "assets" / "stylesheets" / "palette.00000000.min.css"
    sheet.parent.mkdir(parents=True)
    sheet.write_text(SWITCHING_RULE, encoding="utf-8")
    with pytest.raises(ValueError, match=r"hold no assets/stylesheets/palette\.00000000\.min\.css"):
        trim_site(tmp_path, [THEME])
    with pytest.raises(ValueError, match="expected one file matching .* found 0"):
        trim_site(tmp_path / "elsewhere", [THEME])


def test_the_built_site_switches_scheme_without_the_themes_rule_and_keeps_that_stylesheet_offline():
    sheets = sorted(SITE.glob(STYLESHEETS))
    if not sheets:
        pytest.fail(f"the built site is missing ({SITE} has no palette stylesheet): run make site", pytrace=False)
    (sheet,) = sheets
    assert "data-md-color-switching" not in sheet.read_text(encoding="utf-8")
    assert ".lk-scheme-switching *" in (SITE / "assets" / "course" / "course.css").read_text(encoding="utf-8")
    # The offline copy keeps the stylesheet as trimmed, by its digest: listed before the trim, it would be refused.
    digests = {path: integrity for path, _size, integrity in written_course(SITE)["files"]}
    assert digests[sheet.relative_to(SITE).as_posix()] == digest(sheet.read_bytes())
