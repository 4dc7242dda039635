"""Data tables come already wrapped as the theme's start-up would wrap them, and the theme's
stylesheet gives the wrapped ones the look it gives a data table."""

from __future__ import annotations

import re
from pathlib import Path

import material
import pytest

from lessonkit.authoring.offline import digest, written_course
from lessonkit.authoring.theme_tables import (
    DATA_TABLE,
    STYLESHEETS,
    THEMES_DATA_TABLE,
    for_wrapped_tables,
    with_tables_wrapped,
)

ROOT = Path(__file__).parents[2]
SITE = ROOT / "site"
THEME = Path(material.__file__).parent / "templates"
OPEN = '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'


def test_a_table_without_a_class_is_wrapped_and_marked_and_keeps_its_attributes():
    wrapped = with_tables_wrapped('<p>a</p><table id="costs"><tr><td>1</td></tr></table><p>b</p>')
    assert wrapped == f'<p>a</p>{OPEN}<table class="lk-wrapped" id="costs"><tr><td>1</td></tr></table></div></div><p>b</p>'


def test_a_table_with_a_class_is_left_as_it_is():
    page = '<table class="lk-table"><tr><td>1</td></tr></table><table class="dataframe"></table>'
    assert with_tables_wrapped(page) == page


def test_a_table_inside_a_table_is_wrapped_too_and_each_closes_its_own_wrappers():
    page = "<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table><table class='x'></table>"
    wrapped = with_tables_wrapped(page)
    assert wrapped == (
        f'{OPEN}<table class="lk-wrapped"><tr><td>{OPEN}<table class="lk-wrapped"><tr><td>in</td></tr></table></div></div>'
        "</td></tr></table></div></div><table class='x'></table>"
    )


def test_a_table_left_open_is_refused():
    with pytest.raises(ValueError, match=r"leaves 1 table\(s\) open"):
        with_tables_wrapped("<table><tr><td>1</td></tr>")


def test_every_data_table_rule_of_the_theme_applies_to_the_wrapped_tables_as_well():
    (sheet,) = THEME.glob(STYLESHEETS)
    css = sheet.read_text(encoding="utf-8")
    rules = css.count(THEMES_DATA_TABLE)
    assert rules > 5, "the theme's stylesheet holds fewer data-table rules than this test was written for"
    extended = for_wrapped_tables(css)
    assert THEMES_DATA_TABLE not in extended.replace(DATA_TABLE, "")
    assert extended.count(DATA_TABLE) == rules
    assert extended.replace(DATA_TABLE, THEMES_DATA_TABLE) == css


def test_a_theme_stylesheet_without_data_table_rules_is_refused():
    with pytest.raises(ValueError, match=r"never names table:not\(\[class\]\)"):
        for_wrapped_tables(".md-typeset table{padding:0}")


def test_the_built_course_has_no_table_the_themes_start_up_would_move():
    pages = sorted(SITE.rglob("*.html"))
    if not pages:
        pytest.fail(f"the built site is missing ({SITE} has no pages): run make site", pytrace=False)
    wrapped = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        bare = re.findall(r"<table(?![^>]*\bclass=)[^>]*>", text)
        assert not bare, f"{page.relative_to(SITE)} holds {len(bare)} table(s) without a class, which the theme would move as it starts"
        wrapped += text.count(f'{OPEN}<table class="lk-wrapped"')
    assert wrapped > 10, f"only {wrapped} wrapped tables in the whole course: the lessons' tables are missing"
    (sheet,) = sorted(SITE.glob(STYLESHEETS))
    assert DATA_TABLE in sheet.read_text(encoding="utf-8")
    # The offline copy keeps the stylesheet as rewritten, by its digest.
    digests = {path: integrity for path, _size, integrity in written_course(SITE)["files"]}
    assert digests[sheet.relative_to(SITE).as_posix()] == digest(sheet.read_bytes())
