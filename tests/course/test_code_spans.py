"""Highlighted code with fewer spans reads and looks as before: the same text, each character in the
colour the theme gave it, with fewer elements for the browser to start with."""

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import material
import pytest

from lessonkit.authoring.code_spans import fewer_spans, with_fewer_code_spans

ROOT = Path(__file__).parents[2]
THEME_CSS = sorted((Path(material.__file__).parent / "templates" / "assets" / "stylesheets").glob("*.min.css"))
COURSE_CSS = [ROOT / "overrides" / "assets" / "lessonkit" / "lessonkit.css", ROOT / "overrides" / "assets" / "course" / "course.css"]
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```$", re.DOTALL | re.MULTILINE)
# The colour code has when no span gives it another: the theme's `.md-typeset code` rule.
CODE_COLOUR = "var(--md-code-fg-color)"


def stylesheets() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in [*THEME_CSS, *COURSE_CSS])


def colour_rules(css: str) -> dict[str, str]:
    """Each token class the theme colours inside highlighted code, with the colour it gives."""
    rules: dict[str, str] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        colour = re.search(r"(?:^|;)color:([^;]+)", body)
        classes = [re.fullmatch(r"\.highlight \.([\w-]+)", selector.strip()) for selector in selectors.split(",")]
        if colour and classes and all(classes):
            for found in classes:
                rules[found.group(1)] = colour.group(1).strip()
    return rules


def as_code(colour: str, css: str) -> bool:
    """Whether `colour` is code's own colour in every scheme: it is, or every definition of the
    custom property it names is."""
    if colour == CODE_COLOUR:
        return True
    named = re.fullmatch(r"var\((--[\w-]+)\)", colour)
    definitions = re.findall(rf"{re.escape(named.group(1))}:([^;}}]+)", css) if named else []
    return bool(definitions) and all(as_code(each.strip(), css) for each in definitions)


class Colours(HTMLParser):
    """Each character of a highlighted block's text, with the colour it is shown in."""

    def __init__(self, rules: dict[str, str], css: str) -> None:
        super().__init__(convert_charrefs=True)
        self.rules, self.css = rules, css
        self.classes: list[str] = []
        self.shown: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.classes.append(dict(attrs).get("class") or "")

    def handle_endtag(self, tag):
        self.classes.pop()

    def handle_data(self, data):
        # The innermost span the theme colours decides; a span it does not colour inherits.
        colour = next((self.rules[name] for name in reversed(self.classes) if name in self.rules), CODE_COLOUR)
        shown = "code" if as_code(colour, self.css) else colour
        self.shown.extend((character, shown) for character in data)


def colours(code: str, rules: dict[str, str], css: str) -> list[tuple[str, str]]:
    parser = Colours(rules, css)
    parser.feed(code)
    return parser.shown


def highlighted_blocks() -> list[tuple[str, str]]:
    """Every fenced block of the course's pages, highlighted as the site highlights it."""
    blocks = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for number, (language, body) in enumerate(FENCE.findall(page.read_text(encoding="utf-8")), start=1):
            if language.startswith("lessonkit"):
                continue
            rendered = markdown.markdown(f"```{language}\n{body}```\n", extensions=["pymdownx.highlight", "pymdownx.superfences"])
            inside = re.search(r"<code>(.*)</code>", rendered, re.DOTALL)
            if inside and "<span" in inside.group(1):
                blocks.append((f"{page.relative_to(ROOT)} block {number}", inside.group(1)))
    return blocks


BLOCKS = highlighted_blocks()


def test_the_course_has_highlighted_blocks_to_check():
    assert len(BLOCKS) > 20


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[where for where, _ in BLOCKS])
def test_each_character_keeps_its_text_and_its_colour_with_fewer_spans(where, code):
    css = stylesheets()
    rules = colour_rules(css)
    assert {"o", "k", "s2", "n"} <= set(rules), f"the theme's highlighting rules were not found: {sorted(rules)}"
    fewer = fewer_spans(code)
    assert colours(fewer, rules, css) == colours(code, rules, css), f"{where}: a character's text or colour changed"
    assert html.unescape(re.sub(r"<[^>]+>", "", fewer)) == html.unescape(re.sub(r"<[^>]+>", "", code))
    assert fewer.count("<span") <= code.count("<span")


def test_the_course_s_code_loses_a_large_share_of_its_spans():
    before = sum(code.count("<span") for _, code in BLOCKS)
    after = sum(fewer_spans(code).count("<span") for _, code in BLOCKS)
    assert after < 0.75 * before, f"{before} spans became {after}"


def test_a_notebook_cell_and_the_course_s_own_spans_are_left_as_they_are():
    cell = '<div class="highlight-ipynb"><pre><span class="n">x</span></pre></div>'
    assert with_fewer_code_spans(cell) == cell
    claims = '<code><span class="lk-claim">1</span><span class="lk-claim">2</span></code>'
    assert with_fewer_code_spans(claims) == claims
    lines = '<code><span class="hll">a\n</span><span class="hll">b\n</span></code>'
    assert with_fewer_code_spans(lines) == lines
