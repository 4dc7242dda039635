"""What a built page needs because it holds a panel: the stylesheet its panel declares.

A lesson's own look lives in a stylesheet the panel names (`Panel.stylesheet`, relative to the
shell's assets), linked from the page's head by the build, so the page reads in that look with
JavaScript off too. A page holds at most one panel: the page's address carries its settings.
"""

from __future__ import annotations

import html
import re

PANEL_SECTION = re.compile(r'<section class="lk-panel"[^>]*?data-lesson="(?P<lesson>[^"]+)"(?:[^>]*?data-stylesheet="(?P<sheet>[^"]+)")?')
ASSETS = "assets/lessonkit/"


def preload_shell(output: str, page_url: str, relative_url, modules: list[str]) -> str:
    """Ask for every module of the shell at once: the browser otherwise finds them one import
    level at a time, and the panel comes to life a round trip per level later."""
    links = "".join(f'<link rel="modulepreload" href="{html.escape(relative_url(ASSETS + name, page_url))}">' for name in modules)
    return output.replace("</head>", f"{links}</head>", 1)


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
    return output.replace("</head>", f"{links}</head>", 1) if links else output
