"""The API reference shows a dataclass's undocumented fields in the class's signature only
(src/lessonkit/authoring/reference_fields.py, named in mkdocs.yml)."""

import re
from pathlib import Path

from griffe import load_extensions, temporary_visited_package

ROOT = Path(__file__).parents[2]
EXTENSION = ROOT / "src" / "lessonkit" / "authoring" / "reference_fields.py"

MODULE = '''
from dataclasses import dataclass, field


@dataclass
class Arrival:
    """One turn arriving."""

    turn: str
    tokens: int = 0
    """Teaching tokens of the turn."""
    tags: list = field(default_factory=list)


class Window:
    """Not a dataclass: what __init__ assigns is documented wherever it is."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
'''


def classes(*extensions):
    """Each class of MODULE: its members, and its __init__'s parameters (the signature shown)."""
    with temporary_visited_package("course", {"__init__.py": MODULE}, extensions=load_extensions(*extensions)) as package:
        return {
            name: (sorted(cls.members), [parameter.name for parameter in cls.members["__init__"].parameters])
            for name, cls in package.classes.items()
        }


def test_a_dataclass_keeps_its_documented_fields_and_its_signature_and_drops_the_fields_it_already_says():
    without = classes()
    # Griffe's own dataclass extension first, as mkdocs.yml lists them: it makes the signature.
    with_it = classes("dataclasses", str(EXTENSION))
    assert without["Arrival"] == (["__init__", "tags", "tokens", "turn"], ["self", "turn", "tokens", "tags"])
    assert with_it["Arrival"] == (["__init__", "tokens"], ["self", "turn", "tokens", "tags"])
    # A class that is not a dataclass has no signature listing its attributes: they stay.
    assert with_it["Window"] == without["Window"] == (["__init__", "budget"], ["self", "budget"])


def test_the_built_reference_lists_an_undocumented_field_in_its_class_signature_alone():
    # What `make site` built from mkdocs.yml: the extension is named there, or this page has the entry.
    page = (ROOT / "site" / "reference" / "panel" / "index.html").read_text(encoding="utf-8")
    assert 'id="lessonkit.panel.controls.Option"' in page
    assert 'id="lessonkit.panel.controls.Option.value"' not in page
    signature = page.split('id="lessonkit.panel.controls.Option"', 1)[1].split("</pre>", 1)[0]
    assert "Option(value: Any, label: str)" in re.sub(r"<[^>]+>", "", signature)
