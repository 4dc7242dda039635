"""A panel as static HTML: what the build writes into the page before any script runs.

The section carries the spec and the starting view for the shell; the status, the refusal (if
any) and the view's body are already in place, so the page reads fully with JavaScript off.
"""

from __future__ import annotations

import json

from lessonkit.panel.html import Markup, h
from lessonkit.panel.spec import Panel, Params, View


def refusal(view: View) -> Markup:
    # Always present, so the shell fills the same live region rather than inserting a new one.
    return h("p", {"class": "lk-refusal", "role": "alert", "hidden": not view.refusal}, view.refusal or "")


def render(panel: Panel, params: Params | None = None) -> Markup:
    view = panel.view(dict(params or panel.defaults()))
    return h(
        "section",
        {
            "class": "lk-panel",
            "data-lesson": panel.lesson,
            "data-stylesheet": panel.stylesheet,
            "data-spec": json.dumps(panel.spec(), separators=(",", ":"), ensure_ascii=False),
            # Without its export, as every view the page is given: Export asks Python for it.
            "data-initial-view": json.dumps(view.to_json(export=False), separators=(",", ":"), ensure_ascii=False),
            "aria-label": panel.words.region.replace("{title}", panel.title),
        },
        h("div", {"class": "lk-controls"}, h("p", {"class": "lk-static-note"}, panel.words.static_note)),
        h("div", {"class": "lk-engine", "aria-live": "polite"}),
        h("p", {"class": "lk-status", "role": "status"}, view.status),
        refusal(view),
        h("div", {"class": "lk-view"}, Markup(view.html)),
    )
