"""Where the build puts what a page needs for its panel: the shell right after the panel's end, and its stylesheet in the head."""

import pytest

from lessonkit.authoring.page_panels import link_panel_stylesheets, panel_end


def test_a_panels_end_is_its_own_closing_tag_past_any_section_inside_it():
    page = '<p>before</p><section class="lk-panel" data-lesson="x"><section>view</section><p>notes</p></section><p>after</p>'
    end = panel_end(page, page.index("<section"))
    assert page[:end].endswith("<p>notes</p></section>")
    assert page[end:] == "<p>after</p>"


def test_a_panel_that_is_never_closed_is_refused_with_where_it_opened():
    page = '<p>before</p><section class="lk-panel" data-lesson="x"><p>no end'
    with pytest.raises(ValueError, match=r"the panel's <section> at character 13 is never closed"):
        panel_end(page, 13)


def panel_with(lesson, precomputed):
    import html
    import json

    spec = html.escape(json.dumps({"lesson": lesson, "precomputed": precomputed}), quote=True)
    return f'<section class="lk-panel" data-lesson="{lesson}" data-spec="{spec}"><p>view</p></section>'


def test_a_panel_names_the_precomputed_views_of_the_panels_on_the_pages_around_it():
    from lessonkit.authoring.page_panels import name_neighbours_views

    page = f"<h1>Working memory</h1>{panel_with('working-memory', None)}"
    named = name_neighbours_views(page, [None, f"<p>next</p>{panel_with('context-compression', 'views/context-compression.json.gz')}"])
    assert 'data-neighbour-views="[[&quot;context-compression&quot;, &quot;views/context-compression.json.gz&quot;]]"' in named
    assert named.replace(named[named.index(" data-neighbour-views") : named.index(" data-lesson")], "") == page


def test_views_are_named_only_when_a_neighbour_has_them_and_only_on_a_page_with_a_panel():
    from lessonkit.authoring.page_panels import name_neighbours_views

    computed = panel_with("context-compression", "views/context-compression.json.gz")
    live_only = f"<p>before</p>{panel_with('working-memory', None)}"
    assert name_neighbours_views(panel_with("context-compaction", None), [live_only, "<p>no panel</p>"]) == panel_with(
        "context-compaction", None
    )
    assert name_neighbours_views("<p>a page without a panel</p>", [computed, computed]) == "<p>a page without a panel</p>"
    assert name_neighbours_views(computed, [computed, None]) == computed, "a panel never names its own views"


def test_a_panels_stylesheet_comes_after_the_pages_own_and_before_the_heads_scripts():
    page = (
        '<head><link rel="stylesheet" href="main.css"><link rel="stylesheet" href="course.css"><script>x()</script></head>'
        '<body><section class="lk-panel" data-lesson="demo" data-stylesheet="lessons/demo.css"></section></body>'
    )
    linked = link_panel_stylesheets(page, "lessons/demo/", lambda path, _page: f"../../{path}")
    assert linked.startswith(
        '<head><link rel="stylesheet" href="main.css"><link rel="stylesheet" href="course.css">'
        '<link rel="stylesheet" href="../../assets/lessonkit/lessons/demo.css"><script>x()</script></head>'
    )


def test_a_page_without_a_panel_links_no_stylesheet_of_its_own():
    page = '<head><link rel="stylesheet" href="main.css"></head><body><p>prose</p></body>'
    assert link_panel_stylesheets(page, "glossary/", lambda path, _page: path) == page
