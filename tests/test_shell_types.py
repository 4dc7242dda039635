"""The shell's types of the panel spec (overrides/assets/lessonkit/types/spec.js) name exactly the
fields Python sends. `tsc` checks the shell against those types, so a field renamed in Python and
not there would pass the type check and fail in the browser; this test closes that gap."""

import re
from dataclasses import fields
from pathlib import Path

import pytest

from lessonkit.panel import Choice, Mark, Number, Option, Playback, Range, Speed, Text, Timeline, Toggle, View, Words
from lessonkit.registry import panel, panel_ids

TYPES = Path(__file__).resolve().parents[1] / "overrides" / "assets" / "lessonkit" / "types" / "spec.js"
TYPEDEF = re.compile(r"/\*\*(?P<body>(?:(?!\*/).)*?)@typedef \{object\} (?P<name>\w+)(?P<rest>(?:(?!\*/).)*)\*/", re.S)
PROPERTY = re.compile(r"@property \{[^}]*\} \[?(\w+)")


def typedefs() -> dict[str, set[str]]:
    return {found["name"]: set(PROPERTY.findall(found["rest"])) for found in TYPEDEF.finditer(TYPES.read_text(encoding="utf-8"))}


@pytest.mark.parametrize(
    ("typedef", "python"),
    [
        ("Option", Option),
        ("ChoiceControl", Choice),
        ("ToggleControl", Toggle),
        ("QuantityControl", Number),
        ("QuantityControl", Range),
        ("TextControl", Text),
        ("Mark", Mark),
        ("Timeline", Timeline),
        ("Speed", Speed),
        ("Playback", Playback),
        ("Words", Words),
        ("View", View),
    ],
)
def test_each_typedef_of_the_spec_names_the_fields_of_its_python_dataclass(typedef, python):
    assert typedefs()[typedef] == {each.name for each in fields(python)}


@pytest.mark.parametrize("lesson", panel_ids())
def test_the_panel_spec_typedef_names_every_key_of_a_panels_spec(lesson):
    assert typedefs()["PanelSpec"] == set(panel(lesson).spec())
