"""The panel platform: the HTML builder escapes by construction, controls check what readers send,
a Panel is the one validation point, and shared components render what they promise."""

import html
import json
import re
from dataclasses import asdict

import pytest

from lessonkit.checks import Refused
from lessonkit.panel import Choice, Mark, Number, Option, Panel, Playback, Range, Text, Timeline, Toggle, View, Words, render
from lessonkit.panel.chart import Bar, Marker, Rule, Series, bar_chart, line_chart, nice_ceiling
from lessonkit.panel.components import Column, findings, meter, record_table
from lessonkit.panel.html import Markup, h, join


def test_text_and_attributes_are_escaped_unless_already_markup():
    built = h("p", {"title": 'say "hi" & <go>'}, "<script>alert(1)</script>", h("em", {}, "kept"))
    assert built == '<p title="say &quot;hi&quot; &amp; &lt;go&gt;">&lt;script&gt;alert(1)&lt;/script&gt;<em>kept</em></p>'
    assert isinstance(built, Markup)


def test_attributes_leave_out_none_and_false_join_lists_and_write_true_bare():
    assert h("input", {"type": "checkbox", "checked": True, "disabled": False, "id": None}) == '<input type="checkbox" checked>'
    assert h("li", {"class": ["lk-row", "", "lk-gone"]}) == '<li class="lk-row lk-gone"></li>'
    assert h("circle", {"cx": 1.0, "r": 4.5}) == '<circle cx="1" r="4.5"/>'
    assert join(["a", h("b", {}, "<"), 3], ", ") == "a, <b>&lt;</b>, 3"


def test_children_are_flattened_at_any_depth_numbers_written_plainly_and_none_and_false_left_out():
    parts = h("p", {}, ["a", ("<b>", [h("i", {}, 1.0)])], (str(n) for n in range(2)), None, False, True, 0.1 + 0.2, 7, {"k": 1})
    assert parts == "<p>a&lt;b&gt;<i>1</i>01True0.37k</p>"
    assert h("ul", {}, []) == "<ul></ul>" and h("rect", {}, None) == "<rect/>"


def test_a_choice_accepts_its_options_only_and_names_what_is_allowed():
    budget = Choice("budget", "Context budget", (Option(24, "24"), Option(36, "36")), 24)
    assert budget.check(36) == 36 and budget.check(36.0) == 36
    for wrong in (30, "36", True, None, [36]):
        with pytest.raises(Refused, match=r"^parameter 'budget' is .*; allowed: 24, 36$"):
            budget.check(wrong)


def test_numbers_and_ranges_keep_to_their_bounds_and_grid():
    age = Number("age", "Maximum age", minimum=0, maximum=720, default=168, unit="hours")
    weight = Range("weight", "Recency weight", minimum=0, maximum=1, default=0, step=0.05)
    assert age.check(48) == 48 and isinstance(age.check(48.0), int)
    assert weight.check(0.30000000000000004) == 0.3
    with pytest.raises(Refused, match=r"parameter 'age' is 721; allowed: 0 to 720 hours, whole numbers"):
        age.check(721)
    with pytest.raises(Refused, match=r"parameter 'weight' is 0.33; allowed: 0 to 1, in steps of 0.05"):
        weight.check(0.33)
    for wrong in (True, float("nan"), float("inf"), "1"):
        with pytest.raises(Refused):
            weight.check(wrong)


def test_a_toggle_takes_only_true_or_false():
    toggle = Toggle("previous", "Include previous sessions")
    assert toggle.check(True) is True
    with pytest.raises(Refused, match="allowed: true, false"):
        toggle.check(1)


def demo_panel(**changes) -> Panel:
    def draw(params, baseline):
        return View(status=f"{params} / {baseline}", html="", baseline="", state={}, export={})

    fields = dict(
        lesson="demo",
        title="Demo",
        controls=(
            Toggle("set_overlap", "overlap", enables=("overlap",)),
            Number("overlap", "overlap", minimum=0, maximum=10, default=0),
            Text("prediction", "Prediction"),
        ),
        draw=draw,
        timeline=Timeline(end=10, step=1, marks=(Mark(5, "Halfway"),)),
        playback=Playback(),
    )
    return Panel(**{**fields, **changes})


def test_a_panel_checks_every_parameter_once_and_leaves_the_readers_text_out():
    panel = demo_panel()
    assert panel.defaults() == {"set_overlap": False, "overlap": 0, "time": 0}
    assert (
        panel.view({"set_overlap": True, "overlap": 3, "time": 5}, None).status == "{'set_overlap': True, 'overlap': 3, 'time': 5} / None"
    )
    with pytest.raises(ValueError, match="parameter 'prediction' is not one of this experiment's; allowed: set_overlap, overlap, time"):
        panel.check({**panel.defaults(), "prediction": "three"})
    with pytest.raises(Refused, match="parameter 'time' is missing; allowed: 0 to 10 seconds"):
        panel.check({"set_overlap": False, "overlap": 0})
    with pytest.raises(ValueError, match="parameters are .*; allowed: an object of name and value"):
        panel.check(["overlap", 3])
    with pytest.raises(Refused, match="parameter 'overlap' is 3"):
        panel.view(panel.defaults(), {"set_overlap": True, "overlap": 30, "time": 0} | {"overlap": 3.5})


def test_a_control_whose_default_it_would_refuse_is_refused_when_declared():
    with pytest.raises(Refused, match=r"^choice 'budget': its default is 30; allowed: 24, 36$"):
        Choice("budget", "Budget", (Option(24, "24"), Option(36, "36")), default=30)
    with pytest.raises(Refused, match=r"^number 'age': its default is 800; allowed: 0 to 720 hours$"):
        Number("age", "Maximum age", 0, 720, 800, unit="hours")


def test_a_panel_refuses_a_toggle_that_enables_nothing_it_has_and_a_timeline_without_playback_words():
    with pytest.raises(ValueError, match="enables 'missing', which is not a control"):
        demo_panel(controls=(Toggle("t", "T", enables=("missing",)),))
    with pytest.raises(ValueError, match="a timeline needs the wording of its playback"):
        demo_panel(playback=None)


def test_the_spec_carries_every_control_with_its_kind_and_every_word_the_shell_shows():
    spec = json.loads(json.dumps(demo_panel().spec()))  # as the shell reads it
    assert [(c["kind"], c["name"], c["label"]) for c in spec["controls"]] == [
        ("toggle", "set_overlap", "overlap"),
        ("number", "overlap", "overlap"),
        ("text", "prediction", "Prediction"),
    ]
    assert spec["controls"][0]["enables"] == ["overlap"]
    assert spec["timeline"]["marks"] == [{"at": 5, "name": "Halfway", "tick": ""}]
    assert spec["words"]["copy_link"] == "Copy link to this experiment"


def test_a_panel_worded_differently_hands_the_page_its_own_words_and_the_build_names_its_region_with_them():
    # The shell shows only the words in the page's spec (tests/js/words.test.mjs holds it to that),
    # so a lesson's wording reaches the reader exactly when it reaches the spec the build writes.
    words = Words(region="Lab: {title}", capture="Pin this run", notes_file="{lesson}-journal.json", setting_on="yes")
    page = render(demo_panel(words=words))
    spec = json.loads(html.unescape(re.search(r'data-spec="([^"]*)"', page)[1]))
    assert spec["words"] == asdict(words)
    assert 'aria-label="Lab: Demo"' in page


def test_the_static_panel_reads_without_javascript_and_carries_its_refusal_region():
    def draw(params, baseline):
        return View(
            status="Refused.", html=h("p", {}, "<body>"), baseline="", state={}, export={}, refusal="after_tokens needs keep_recent_events"
        )

    page = render(demo_panel(draw=draw))
    assert '<p class="lk-status" role="status">Refused.</p>' in page
    assert '<p class="lk-refusal" role="alert">after_tokens needs keep_recent_events</p>' in page
    assert "<p>&lt;body&gt;</p>" in page
    assert 'aria-label="Experiment: Demo"' in page


def test_a_view_as_json_holds_every_field_and_hands_over_its_data_without_copying_it():
    export = {"requests": [{"request": n, "seen": [{"id": f"u{n}"}]} for n in range(1, 25)]}
    view = View(status="Request 3.", html=h("p", {}, "seen"), baseline="b", state={"request": 3}, export=export)
    as_json = view.to_json()
    assert list(as_json) == ["status", "html", "baseline", "state", "export", "refusal"]
    assert json.loads(json.dumps(as_json)) == {
        "status": "Request 3.",
        "html": "<p>seen</p>",
        "baseline": "b",
        "state": {"request": 3},
        "export": export,
        "refusal": None,
    }
    # A large export is serialised once, by the caller: a deep copy first cost more than drawing it.
    assert as_json["export"] is export and as_json["state"] is view.state


def test_components_write_values_in_words_beside_their_graphics():
    assert "23 of 24" in meter("Window tokens", 23, 24) and "<meter" in meter("Window tokens", 23, 24)
    assert findings([("Answer", "unknown")]) == '<dl class="lk-findings"><dt>Answer</dt><dd>unknown</dd></dl>'
    table = record_table("Records", [Column("ID", lambda r: r), Column("Words", len, numeric=True)], ["M5"])
    assert "<caption>Records</caption>" in table and '<td class="lk-num">2</td>' in table and 'tabindex="0"' in table
    assert "No records." in record_table("Records", [Column("ID", str)], [])


def test_charts_have_a_title_a_description_axis_labels_and_their_numbers_in_a_table():
    chart = line_chart(
        "Prompt tokens",
        "Tokens per request.",
        x_label="Request",
        y_label="Tokens",
        series=[Series("Now", ((1, 10), (2, 30)), hollow=frozenset({2})), Series("Baseline", ((1, 10), (2, 20)), style=1)],
        x_ticks=[(1, "1"), (2, "2")],
        rules=[Rule(25, "Threshold 25")],
        markers=[Marker(2, "compacted")],
        now=2,
    )
    assert 'role="img"' in chart and "<title id=" in chart and "<desc id=" in chart
    assert "Request" in chart and "Tokens" in chart and "Threshold 25" in chart and "compacted" in chart
    assert 'stroke-dasharray="8 5"' in chart, "the second series differs by its dash, not only its colour"
    assert 'class="lk-point-hollow"' in chart
    assert "<td>30</td>" in chart and "<td>20</td>" in chart
    bars = bar_chart("Budget", "How it is spent.", x_label="Use", y_label="Tokens", bars=[Bar("Turns", 16), Bar("Free", 8, 2)])
    assert "Turns" in bars and "<td>16</td>" in bars


@pytest.mark.parametrize(("top", "axis"), [(0, 1), (23, 25), (58, 100), (0.3, 0.5), (3000, 5000), (8, 10)])
def test_an_axis_ends_on_a_round_number_at_or_above_the_data(top, axis):
    assert nice_ceiling(top) == axis


def test_moving_the_now_line_draws_the_rest_of_a_line_chart_once_and_the_same_as_drawn_afresh():
    from lessonkit.panel.chart import _line_chart_parts

    series = [Series("With compaction", ((1, 120), (2, 340), (3, 180))), Series("Without", ((1, 120), (2, 340), (3, 520)), style=1)]
    chart = {
        "x_label": "Model request",
        "y_label": "Prompt tokens",
        "series": series,
        "x_ticks": [(1, "1"), (2, "2"), (3, "3")],
        "rules": [Rule(300, "after_tokens 300")],
        "markers": [Marker(2.5, "S1")],
    }
    _line_chart_parts.cache_clear()
    moving = [line_chart("Prompt tokens", "Per request.", now=now, **chart) for now in (1, 2, 3)]
    assert _line_chart_parts.cache_info().misses == 1, "only the now line depends on the moment"
    for now, drawn in zip((1, 2, 3), moving, strict=True):
        _line_chart_parts.cache_clear()
        assert drawn == line_chart("Prompt tokens", "Per request.", now=now, **chart)
    assert len(set(moving)) == 3 and all('class="lk-now"' in drawn for drawn in moving)
