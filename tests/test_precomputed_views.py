"""The views the build ships for finite panels are exactly what the live engine computes."""

import json
from pathlib import Path

import pytest

from lessonkit.authoring.precompute import read_views, views_of
from lessonkit.registry import panel, panel_ids

SITE_ASSETS = Path(__file__).resolve().parents[1] / "site" / "assets" / "lessonkit"
FINITE = sorted(lesson for lesson in panel_ids() if panel(lesson).finite)


def as_json(value):
    return json.loads(json.dumps(value))


def test_only_panels_whose_settings_are_a_finite_set_are_precomputed():
    assert "context-compression" in FINITE
    assert "control-kinds" not in FINITE, "a panel with a number or a range has settings without end"
    assert panel("control-kinds").spec()["precomputed"] is None


def test_a_finite_panel_reaches_every_choice_at_every_mark():
    compression = panel("context-compression")
    every = list(compression.every_params())
    assert len(every) == 4 * 2 * 2 * 9
    assert {params["time"] for params in every} == {0, *(mark.at for mark in compression.timeline.marks)}
    assert len({json.dumps(params, sort_keys=True) for params in every}) == len(every)


@pytest.mark.parametrize("lesson", FINITE)
def test_every_shipped_view_is_the_live_engines_view(lesson):
    shipped = SITE_ASSETS / panel(lesson).spec()["precomputed"]
    if not shipped.is_file():
        pytest.fail(f"{shipped} is missing: run make site", pytrace=False)
    table = read_views(shipped)
    assert table["lesson"] == lesson
    live = panel(lesson)
    assert [params for params, _ in table["views"]] == as_json(list(live.every_params()))
    for params, view in table["views"]:
        assert "export" not in view, "a shipped view carries its export, which Python computes on demand"
        assert view == as_json(live.view(params).to_json(export=False)), f"the shipped view for {params} differs from the engine's"


def test_the_shipped_table_is_the_same_bytes_for_the_same_engine(tmp_path):
    from lessonkit.authoring.precompute import write_views

    compression = panel("context-compression")
    first = write_views(compression, tmp_path / "a").read_bytes()
    second = write_views(compression, tmp_path / "b").read_bytes()
    assert first == second
    assert json.loads(json.dumps(views_of(compression)))[0][0] == as_json(compression.defaults())
