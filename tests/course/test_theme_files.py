"""Each of the theme's files the build rewrites is read from the theme, so a second build into the
same folder (as `mkdocs serve` makes) rewrites the theme's text again, not the course's rewrite."""

from __future__ import annotations

from pathlib import Path

import material
import pytest

from lessonkit.authoring import palette_css, theme_bundle, theme_tables

ROOT = Path(__file__).parents[2]
THEME = Path(material.__file__).parent / "templates"
REWRITES = {
    "the palette without its switching rule": (palette_css.STYLESHEETS, palette_css.trim_site, palette_css.without_switching_rule),
    "the data-table rules for wrapped tables": (theme_tables.STYLESHEETS, theme_tables.style_site, theme_tables.for_wrapped_tables),
    "the bundle as the course serves it": (theme_bundle.BUNDLE, theme_bundle.rewrite_site, theme_bundle.as_the_course_serves_it),
}


@pytest.mark.parametrize(("pattern", "rewrite_site", "rewrite"), REWRITES.values(), ids=REWRITES.keys())
def test_a_second_build_into_the_same_folder_rewrites_the_themes_file_again(tmp_path, pattern, rewrite_site, rewrite):
    (original,) = THEME.glob(pattern)
    built = tmp_path / original.relative_to(THEME)
    built.parent.mkdir(parents=True)
    built.write_bytes(original.read_bytes())
    first = rewrite_site(tmp_path, [ROOT / "overrides", THEME]).read_text(encoding="utf-8")
    assert rewrite_site(tmp_path, [ROOT / "overrides", THEME]).read_text(encoding="utf-8") == first
    assert first == rewrite(original.read_text(encoding="utf-8"))
