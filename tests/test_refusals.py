"""The golden refusals of tests/refusals.json, as Python says them: a panel's check, and the
worker's answer a page shows. tests/js/refusals.test.mjs holds params.js to the same file, so the
shell and Python cannot drift apart in what they tell a reader about a link or saved settings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lessonkit.checks import Refused
from lessonkit.registry import panel
from lessonkit.runtime import answer

CONTRACT = json.loads((Path(__file__).parent / "refusals.json").read_text(encoding="utf-8"))
CHECKED = ("name", "kind", "options", "minimum", "maximum", "step", "unit")


def checked_part(spec: dict[str, Any]) -> dict[str, Any]:
    """What of a panel's spec params.js checks parameters against: the contract's copy of it."""
    spec = json.loads(json.dumps(spec))
    controls = [
        {
            key: [{"value": option["value"]} for option in value] if key == "options" else value
            for key, value in control.items()
            if key in CHECKED
        }
        for control in spec["controls"]
        if control["kind"] != "text"
    ]
    timeline = spec["timeline"] and {key: spec["timeline"][key] for key in ("name", "end", "unit")}
    return {"controls": controls, "timeline": timeline, "defaults": spec["defaults"]}


def given(case: dict[str, Any]) -> Any:
    """The parameters a case gives, as a request, saved settings or a call would."""
    if "given" in case:
        return case["given"]
    params = {**CONTRACT["specs"][case["lesson"]]["defaults"], **case.get("params", {}), **json.loads(case.get("params_json", "{}"))}
    for name in case.get("without", ()):
        del params[name]
    many = case.get("many")
    if many:
        params.update({many["name"].format(n=n): many["value"] for n in range(1, many["count"] + 1)})
    return params


CASES = [
    pytest.param(case, id=case["proves"]) for case in CONTRACT["cases"] if set(case) & {"params", "params_json", "without", "given", "many"}
]


@pytest.mark.parametrize("lesson", sorted(CONTRACT["specs"]))
def test_the_contract_checks_against_each_panel_as_it_is(lesson):
    current = checked_part(panel(lesson).spec())
    assert CONTRACT["specs"][lesson] == current, (
        f"{lesson}'s panel changed what it checks; paste into tests/refusals.json: {json.dumps(current)}"
    )


def test_every_case_is_a_refusal_python_or_the_shell_checks():
    for case in CONTRACT["cases"]:
        assert case["lesson"] in CONTRACT["specs"], case
        assert set(case) & {"params", "params_json", "without", "given", "many", "link"}, case


@pytest.mark.parametrize("case", CASES)
def test_a_panel_refuses_in_the_contracts_words(case):
    with pytest.raises(Refused) as refused:
        panel(case["lesson"]).check(given(case))
    assert str(refused.value) == case["refusal"]


@pytest.mark.parametrize("case", CASES)
def test_the_worker_answers_a_page_in_the_contracts_words(case):
    request = json.dumps({"lesson": case["lesson"], "params": given(case)})
    assert json.loads(answer(request)) == {"ok": False, "error": case["refusal"]}
