"""The views the build ships are exactly what the live engine computes, for the settings it promises.

A finite panel ships every view; any other panel ships its neighbourhood, the settings a reader's
first change can ask for (lessonkit.authoring.precompute). The neighbourhood is held to its
definition from the panel's controls alone: built by brute force over every setting of small
panels, and checked control by control on the course's own.
"""

import gzip
import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessonkit.authoring.precompute import (
    EVERY_VALUE_UP_TO,
    neighbourhood,
    precomputed_params,
    quantity_values,
    read_views,
    typed_values,
    views_of,
    write_views,
)
from lessonkit.panel import Choice, Mark, Number, Option, Panel, Playback, Range, Timeline, Toggle, View
from lessonkit.registry import panel, panel_ids

SITE_ASSETS = Path(__file__).resolve().parents[1] / "site" / "assets" / "lessonkit"
FINITE = sorted(lesson for lesson in panel_ids() if panel(lesson).finite)
NOT_FINITE = sorted(lesson for lesson in panel_ids() if not panel(lesson).finite)
# What a table may weigh. The page fetches it while the engine starts, so on a slow link its bytes
# are paid before the reader's first change; past these, a lesson trades coverage for weight.
GZIP_BUDGET = 128 * 1024
TEXT_BUDGET = 4 * 1024 * 1024


def as_json(value):
    return json.loads(json.dumps(value))


def key(params) -> str:
    return json.dumps(params, sort_keys=True)


def test_every_panel_ships_a_table_and_a_finite_one_ships_every_view():
    assert "context-compression" in FINITE
    assert {"working-memory", "context-compaction", "control-kinds"} <= set(NOT_FINITE), "numbers and ranges have settings without end"
    for lesson in panel_ids():
        assert panel(lesson).spec()["precomputed"] == f"views/{lesson}.json.gz"
    compression = panel("context-compression")
    assert precomputed_params(compression) == list(compression.every_params())


def test_a_finite_panel_reaches_every_choice_at_every_mark():
    compression = panel("context-compression")
    every = list(compression.every_params())
    assert len(every) == 4 * 2 * 2 * 9
    assert {params["time"] for params in every} == {0, *(mark.at for mark in compression.timeline.marks)}
    assert len({json.dumps(params, sort_keys=True) for params in every}) == len(every)


def shipped(lesson: str) -> Path:
    path = SITE_ASSETS / panel(lesson).spec()["precomputed"]
    if not path.is_file():
        pytest.fail(f"{path} is missing: run make site", pytrace=False)
    return path


@pytest.mark.parametrize("lesson", sorted(panel_ids()))
def test_every_shipped_view_is_the_live_engines_view(lesson):
    table = read_views(shipped(lesson))
    assert table["lesson"] == lesson
    live = panel(lesson)
    assert [params for params, _ in table["views"]] == as_json(precomputed_params(live))
    for params, view in table["views"]:
        assert "export" not in view, "a shipped view carries its export, which Python computes on demand"
        assert view == as_json(live.view(params).to_json(export=False)), f"the shipped view for {params} differs from the engine's"


@pytest.mark.parametrize("lesson", sorted(panel_ids()))
def test_a_shipped_table_stays_within_what_a_page_can_fetch_while_the_engine_starts(lesson):
    path = shipped(lesson)
    text = gzip.decompress(path.read_bytes())
    assert path.stat().st_size <= GZIP_BUDGET, f"{path.name} is {path.stat().st_size:,} bytes compressed"
    assert len(text) <= TEXT_BUDGET, f"{path.name} is {len(text):,} bytes of text for the page to read"


def test_the_shipped_table_is_the_same_bytes_for_the_same_engine(tmp_path):
    for lesson in ("context-compression", "control-kinds"):
        first = write_views(panel(lesson), tmp_path / "a").read_bytes()
        second = write_views(panel(lesson), tmp_path / "b").read_bytes()
        assert first == second, lesson
    compression = panel("context-compression")
    assert json.loads(json.dumps(views_of(compression)))[0][0] == as_json(compression.defaults())


def test_a_view_the_same_as_an_earlier_one_is_stored_once():
    # Read back whole, every one is the engine's (test_every_shipped_view_is_the_live_engines_view).
    rows = json.loads(gzip.decompress(shipped("working-memory").read_bytes()))["views"]
    texts = [text for _, text in rows if isinstance(text, str)]
    assert len(texts) == len(set(texts)) < len(rows), "each distinct view once, and some shared"
    shared = [(index, text) for index, (_, text) in enumerate(rows) if isinstance(text, int)]
    assert all(earlier < index and isinstance(rows[earlier][1], str) for index, earlier in shared), (
        "a shared view names an earlier entry holding its text"
    )


# --- the neighbourhood, from the controls alone ---------------------------------------------------


def control_values(control) -> list:
    """Every value a control can send, for the small panels below: options, both states, the grid."""
    if isinstance(control, Choice):
        return [option.value for option in control.options]
    if isinstance(control, Toggle):
        return [False, True]
    count = round((control.maximum - control.minimum) / control.step) + 1
    return [control.check(control.minimum + index * control.step) for index in range(count)]


def one_change_away(candidate: Panel) -> list[dict]:
    """The neighbourhood by its definition, found by brute force over every setting of a small panel:
    the starting setting at another moment; or one control the reader can change at the start
    changed, at the start of the timeline, or at any moment when the panel plays on change and the
    control is a choice or a toggle."""
    start = candidate.defaults()
    timeline = candidate.timeline
    names = list(candidate.parameters)
    values = [
        control_values(control) if control is not timeline else [0, *(m.at for m in timeline.marks)]
        for control in candidate.parameters.values()
    ]
    plays = bool(timeline and candidate.playback.play_on_change)
    disabled = {
        target for control in candidate.controls if isinstance(control, Toggle) and not start[control.name] for target in control.enables
    }
    found = {}
    for combination in itertools.product(*values):
        params = dict(zip(names, combination, strict=True))
        moved = [name for name in names if params[name] != start[name] and not (timeline and name == timeline.name)]
        moment = params[timeline.name] if timeline else 0
        if not moved:
            ok = moment != 0
        elif len(moved) == 1 and moved[0] not in disabled:
            control = candidate.parameters[moved[0]]
            ok = moment == 0 or (plays and isinstance(control, (Choice, Toggle)))
        else:
            ok = False
        if ok:
            found[key(params)] = params
    return list(found.values())


def never_drawn(params, baseline) -> View:
    raise AssertionError("the neighbourhood is found from the controls, without drawing a view")


@st.composite
def small_panels(draw) -> Panel:
    controls = []
    for index in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["choice", "toggle", "number", "range"]))
        name = f"c{index}"
        if kind == "choice":
            options = tuple(Option(value, str(value)) for value in range(draw(st.integers(1, 3))))
            controls.append(Choice(name, name, options, draw(st.sampled_from(options)).value))
        elif kind == "toggle":
            controls.append(Toggle(name, name, draw(st.booleans())))
        else:
            minimum = draw(st.sampled_from([0, -1, 2]))
            step = draw(st.sampled_from([1, 0.25, 0.05, 3]))
            count = draw(st.integers(1, 5))
            maximum = minimum + (count - 1) * step
            quantity = Number if kind == "number" else Range
            default = quantity(name, name, minimum, maximum, minimum, step).check(minimum + draw(st.integers(0, count - 1)) * step)
            controls.append(quantity(name, name, minimum, maximum, default, step))
    toggles = [index for index, control in enumerate(controls) if isinstance(control, Toggle)]
    others = [control.name for control in controls if not isinstance(control, Toggle)]
    if toggles and others and draw(st.booleans()):
        toggle = controls[toggles[0]]
        controls[toggles[0]] = Toggle(toggle.name, toggle.label, toggle.default, enables=(draw(st.sampled_from(others)),))
    timeline = playback = None
    if draw(st.booleans()):
        marks = draw(st.lists(st.sampled_from([0, 1, 2.5, 4]), min_size=1, max_size=3, unique=True))
        timeline = Timeline(end=4, step=0.5, marks=tuple(Mark(at, f"mark {at}") for at in sorted(marks)))
        playback = Playback(play_on_change=draw(st.booleans()))
    return Panel(lesson="small", title="Small", controls=tuple(controls), draw=never_drawn, timeline=timeline, playback=playback)


@settings(max_examples=100, deadline=None)
@given(small_panels())
def test_the_neighbourhood_is_every_setting_one_change_away_and_nothing_else(candidate):
    found = list(neighbourhood(candidate))
    assert len({key(params) for params in found}) == len(found), "a setting is listed twice"
    assert candidate.defaults() not in found, "the starting view is in the page already"
    for params in found:
        assert candidate.check(params) == params, f"{params} is not what the controls send"
    assert sorted(map(key, found)) == sorted(map(key, one_change_away(candidate)))


@pytest.mark.parametrize("lesson", NOT_FINITE)
def test_a_lessons_neighbourhood_changes_each_control_it_can_once_from_the_start(lesson):
    live = panel(lesson)
    start = live.defaults()
    timeline = live.timeline.name
    plays = live.playback.play_on_change
    found = list(neighbourhood(live))
    assert len({key(params) for params in found}) == len(found)
    changed: dict[str, set] = {}
    for params in found:
        assert live.check(params) == params
        moved = [name for name in start if name != timeline and params[name] != start[name]]
        assert len(moved) <= 1, f"{params} changes {moved}"
        if moved:
            changed.setdefault(moved[0], set()).add(json.dumps(params[moved[0]]))
            control = live.parameters[moved[0]]
            assert params[timeline] == 0 or (plays and isinstance(control, (Choice, Toggle))), params
    marks = {mark.at for mark in live.timeline.marks} - {0}
    assert {params[timeline] for params in found if not any(params[name] != start[name] for name in start if name != timeline)} == marks
    for name, control in live.parameters.items():
        if name == timeline:
            continue
        if any(isinstance(each, Toggle) and name in each.enables and not start[each.name] for each in live.controls):
            assert name not in changed, f"{name} is disabled at the start, so a reader cannot change it first"
            continue
        many = isinstance(control, (Number, Range)) and (control.maximum - control.minimum) / control.step >= EVERY_VALUE_UP_TO
        values = {json.dumps(value) for value in (typed_values(control) if many else control_values(control))}
        assert changed.get(name) == values - {json.dumps(start[name])}, name


def test_a_quantity_with_few_values_has_each_and_one_with_too_many_the_values_a_reader_types():
    word_budget = panel("working-memory").parameters["word_budget"]
    assert quantity_values(word_budget) == list(range(0, 121))
    recency = panel("working-memory").parameters["recency_weight"]
    assert quantity_values(recency) == [round(0.05 * step, 2) for step in range(21)]
    max_age = panel("working-memory").parameters["max_age_hours"]
    assert len(quantity_values(max_age)) == 721 <= EVERY_VALUE_UP_TO

    after_tokens = panel("context-compaction").parameters["after_tokens"]
    values = quantity_values(after_tokens)
    assert values == typed_values(after_tokens)
    assert {0, 100_000, 2_999, 3_001, 1_000, 2_000, 5_000, 10_000, 50_000} <= set(values)
    assert 2_500 not in values and 3_002 not in values
    assert all(after_tokens.check(value) == value for value in values)
