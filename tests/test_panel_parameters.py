"""Every panel's parameters, wherever they come from (controls, a link, storage, a worker request),
are checked in one place: any valid setting gives a view, any invalid one a refusal that names the
parameter, the value and what is allowed. Runs over every panel the registry holds."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lessonkit.checks import json_spelling
from lessonkit.panel import Choice, Number, Range, Toggle
from lessonkit.registry import panel, panel_ids
from lessonkit.runtime import answer

modest = settings(max_examples=60, deadline=None)


def valid_value(control) -> st.SearchStrategy:
    if isinstance(control, Choice):
        return st.sampled_from([option.value for option in control.options])
    if isinstance(control, Toggle):
        return st.booleans()
    if isinstance(control, (Number, Range)):
        steps = round((control.maximum - control.minimum) / control.step)
        return st.integers(0, steps).map(lambda k: control.check(control.minimum + k * control.step))
    return st.floats(0, control.end)  # the timeline


def valid_params(spec) -> st.SearchStrategy:
    return st.fixed_dictionaries({name: valid_value(control) for name, control in spec.parameters.items()})


def refused(control, value) -> bool:
    try:
        control.check(value)
    except ValueError:
        return True
    return False


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(),
    st.text(max_size=6),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)


@pytest.fixture(params=panel_ids())
def spec(request):
    return panel(request.param)


def test_every_setting_the_panel_can_show_is_a_valid_view(spec):
    @modest
    @given(valid_params(spec))
    def check(params):
        view = spec.view(params, params)  # the same settings as the reader's baseline, too
        assert view.status and view.html
        reply = json.loads(answer(json.dumps({"lesson": spec.lesson, "params": params, "baseline": None})))
        assert reply["ok"], reply

    check()


def test_any_invalid_value_of_any_parameter_is_refused_naming_it(spec):
    @modest
    @given(valid_params(spec), st.sampled_from(sorted(spec.parameters)), JUNK)
    def check(params, name, value):
        control = spec.parameters[name]
        if not refused(control, value):
            return  # the junk happened to be a valid value
        broken = {**params, name: value}
        for as_baseline in (False, True):
            request = {"lesson": spec.lesson, "params": params if as_baseline else broken, "baseline": broken if as_baseline else None}
            reply = json.loads(answer(json.dumps(request)))
            assert not reply["ok"]
            assert reply["error"].startswith(
                f"parameter '{name}' is {json_spelling(json.loads(json.dumps(value)))}; allowed: {control.allowed()}"
            ), reply

    check()


def test_a_request_with_a_parameter_missing_unknown_or_not_an_object_is_refused_naming_it(spec):
    defaults = spec.defaults()
    for name in defaults:
        missing = {key: value for key, value in defaults.items() if key != name}
        reply = json.loads(answer(json.dumps({"lesson": spec.lesson, "params": missing})))
        assert reply == {"ok": False, "error": f"parameter '{name}' is missing; allowed: {spec.parameters[name].allowed()}"}
    reply = json.loads(answer(json.dumps({"lesson": spec.lesson, "params": {**defaults, "colour": "teal"}})))
    assert reply["error"].startswith("parameter 'colour' is not one of this experiment's; allowed: ")
    for not_an_object in ([1, 2], "budget=24", None):
        reply = json.loads(answer(json.dumps({"lesson": spec.lesson, "params": not_an_object})))
        assert reply["error"].startswith("parameters are "), reply
