"""What a built page needs because it holds a panel: its stylesheet, its views, and the shell at once.

- A lesson's own look lives in a stylesheet the panel names (`Panel.stylesheet`, relative to the
  shell's assets), linked from the page's head by the build, so the page reads in that look with
  JavaScript off too.
- A page with a panel or a runnable sample has the page's first script, `early.js`, right after
  its policy: it starts the Python engine's worker, and asks for the panel's precomputed views if
  the build made them, while the page is still being parsed.
- A panel names the precomputed views of the lessons before and after it, which the shell reads
  into the running engine while the reader reads (`name_neighbours_views`).
- Only a page the shell brings to life as it loads asks for the shell in its head (`preload_shell`).
- The shell's module tag comes right after the panel. A module runs when parsing has ended, in
  the order of its tag, so the shell starts the panel before the theme's bundle runs its start-up,
  every time. The shell's async tag at the end of the body, for pages without a panel, then finds
  the module already run: a module runs once per page.

A page holds at most one panel: the page's address carries its settings.
"""

from __future__ import annotations

import html
import json
import re

PANEL_SECTION = re.compile(r'<section class="lk-panel"[^>]*?data-lesson="(?P<lesson>[^"]+)"(?:[^>]*?data-stylesheet="(?P<sheet>[^"]+)")?')
ASSETS = "assets/lessonkit/"
# The shell, one file in the built site (`shell_bundle`): preloaded in the head and started after the panel.
SHELL = ASSETS + "shell.js"
STYLESHEET_LINK = re.compile(r'<link\b[^>]*\brel="stylesheet"[^>]*>', re.IGNORECASE)
SECTION_TAG = re.compile(r"<(/?)section\b", re.IGNORECASE)
SPEC = re.compile(r'data-spec="(?P<spec>[^"]*)"')
POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>')
SAMPLE = '<div class="lk-sample"'
# What the shell brings to life as the page loads: a panel, a runnable sample, an exercise, or the
# home page's progress through the lessons' exercises.
SHELL_AT_LOAD = re.compile(
    "|".join(map(re.escape, ('<section class="lk-panel"', SAMPLE, '<fieldset class="lk-exercise"', 'class="lk-lesson-progress"')))
)


def preload_shell(output: str, page_url: str, relative_url) -> str:
    """On a page the shell brings to life as it loads, ask for the shell in the head, beside the
    page's stylesheets: its tag after the panel is found only once the page has arrived that far.
    The build bundles the shell into that one file (`shell_bundle`). Anywhere else (a
    notebook, the glossary, the reference) nothing waits for the shell, and asked for in the head it
    would share the connection with the page's own stylesheets before its first paint
    (bench/FINDINGS.md): it comes when the shell's tag at the end of the body asks for it."""
    if not SHELL_AT_LOAD.search(output):
        return output
    return after_the_stylesheets(output, f'<link rel="modulepreload" href="{html.escape(relative_url(SHELL, page_url))}">')


def link_panel_stylesheets(output: str, page_url: str, relative_url) -> str:
    """The page's HTML with its panel's stylesheet linked in the head; refuses a second panel."""
    panels = list(PANEL_SECTION.finditer(output))
    if len(panels) > 1:
        lessons = ", ".join(match["lesson"] for match in panels)
        raise ValueError(
            f"{page_url or 'the home page'} holds {len(panels)} panels ({lessons}); "
            "a page holds at most one, whose settings its address carries"
        )
    sheets = {html.unescape(match["sheet"]) for match in panels if match["sheet"]}
    links = "".join(f'<link rel="stylesheet" href="{html.escape(relative_url(ASSETS + sheet, page_url))}">' for sheet in sorted(sheets))
    return after_the_stylesheets(output, links) if links else output


def after_the_stylesheets(output: str, links: str) -> str:
    """The page's HTML with `links` right after the last stylesheet of its head: a stylesheet comes
    last in the cascade, as it would at the end of the head, and every link comes before the head's
    scripts, which make each address in the head absolute before the theme's start-up would
    (overrides/main.html)."""
    head = output.partition("</head>")[0]
    sheets_in_head = list(STYLESHEET_LINK.finditer(head))
    at = sheets_in_head[-1].end() if sheets_in_head else len(head)
    return output[:at] + links + output[at:]


def panel_end(output: str, start: int) -> int:
    """Where the panel's `<section>` that opens at `start` closes (just after its `</section>`)."""
    depth = 0
    for tag in SECTION_TAG.finditer(output, start):
        depth += -1 if tag[1] else 1
        if depth == 0:
            return output.index(">", tag.end()) + 1
    raise ValueError(f"the panel's <section> at character {start} is never closed")


def start_shell_at_panel(output: str, page_url: str, relative_url) -> str:
    """The page with the shell's module tag right after its panel; a page without one as it is."""
    panel = PANEL_SECTION.search(output)
    if panel is None:
        return output
    end = panel_end(output, panel.start())
    shell = html.escape(relative_url(SHELL, page_url))
    return f'{output[:end]}<script type="module" src="{shell}"></script>{output[end:]}'


def start_early(output: str, page_url: str, relative_url) -> str:
    """A page with a panel or a runnable sample, with `early.js` as the first script after its
    policy (and the panel's precomputed views named on it); any other page as it is."""
    panel = PANEL_SECTION.search(output)
    policy = POLICY.search(output)
    if policy is None or (panel is None and SAMPLE not in output):
        return output
    precomputed = precomputed_views(output, panel) if panel is not None else None
    views = f' data-views="{html.escape(precomputed)}"' if precomputed else ""
    early = html.escape(relative_url(ASSETS + "early.js", page_url))
    return f'{output[: policy.end()]}<script src="{early}"{views}></script>{output[policy.end() :]}'


def precomputed_views(output: str, panel: re.Match) -> str | None:
    """Where the panel opening at `panel` keeps its precomputed views (relative to the shell), if anywhere."""
    spec = SPEC.search(output, panel.start(), panel_end(output, panel.start()))
    return json.loads(html.unescape(spec["spec"])).get("precomputed") if spec else None


def name_neighbours_views(output: str, neighbours: list[str | None]) -> str:
    """The page's panel with the precomputed views of the panels on the pages before and after it
    named (`data-neighbour-views`, [[lesson, views], ...]). Once Python runs and the reader is
    reading, the shell reads them into the engine, which outlives the page under the site's
    navigation: the next lesson of a visit then answers its first change from memory."""
    panel = PANEL_SECTION.search(output)
    if panel is None:
        return output
    named = []
    for content in neighbours:
        other = PANEL_SECTION.search(content or "")
        views = precomputed_views(content, other) if other is not None else None
        if views and other["lesson"] != panel["lesson"] and [other["lesson"], views] not in named:
            named.append([other["lesson"], views])
    if not named:
        return output
    opening = panel.start() + len('<section class="lk-panel"')
    return f'{output[:opening]} data-neighbour-views="{html.escape(json.dumps(named))}"{output[opening:]}'
