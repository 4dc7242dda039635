"""The Material partials lessonkit copies differ from Material's own only by the change each names,
so an upgrade of Material that changes them fails here instead of silently reverting a fix."""

from pathlib import Path

import material
import pytest

ROOT = Path(__file__).parents[1]
MATERIAL = Path(material.__file__).parent / "templates"

# Each copy, and the one change it makes to Material's text.
CHANGES = {
    "partials/search.html": [
        (
            '<div class="md-search" data-md-component="search" role="dialog">',
            '<div class="md-search" data-md-component="search" role="dialog" aria-label="{{ lang.t(\'search\') }}">',
        ),
    ],
    "partials/javascripts/base.html": [
        (
            '__md_get=(e,_=localStorage,t=__md_scope)=>JSON.parse(_.getItem(t.pathname+"."+e))',
            '__md_get=(e,_,t=__md_scope)=>{try{return JSON.parse((_||localStorage).getItem(t.pathname+"."+e))}catch(e){return null}}',
        ),
        ("__md_set=(e,_,t=localStorage,a=__md_scope)=>{try{t.setItem(", "__md_set=(e,_,t,a=__md_scope)=>{try{(t||localStorage).setItem("),
    ],
}


def without_header(text: str) -> str:
    """A template without its leading {#- … -#} comment."""
    return text.split("-#}\n", 1)[1] if text.startswith("{#-") else text


@pytest.mark.parametrize("partial", sorted(CHANGES))
def test_a_copied_partial_is_materials_own_with_only_its_named_change(partial):
    expected = without_header((MATERIAL / partial).read_text(encoding="utf-8"))
    for original, changed in CHANGES[partial]:
        assert original in expected, f"Material's {partial} no longer holds {original!r}: update the copy"
        expected = expected.replace(original, changed)
    assert without_header((ROOT / "overrides" / partial).read_text(encoding="utf-8")) == expected


def test_every_copied_partial_is_listed_here():
    copies = sorted(path.relative_to(ROOT / "overrides").as_posix() for path in (ROOT / "overrides" / "partials").rglob("*.html"))
    assert copies == sorted(CHANGES)
