"""Where the build finds a panel's end in a page, to start the shell right after it."""

import pytest

from lessonkit.authoring.page_panels import panel_end


def test_a_panels_end_is_its_own_closing_tag_past_any_section_inside_it():
    page = '<p>before</p><section class="lk-panel" data-lesson="x"><section>view</section><p>notes</p></section><p>after</p>'
    end = panel_end(page, page.index("<section"))
    assert page[:end].endswith("<p>notes</p></section>")
    assert page[end:] == "<p>after</p>"


def test_a_panel_that_is_never_closed_is_refused_with_where_it_opened():
    page = '<p>before</p><section class="lk-panel" data-lesson="x"><p>no end'
    with pytest.raises(ValueError, match=r"the panel's <section> at character 13 is never closed"):
        panel_end(page, 13)
