"""The registry of panels, by lesson id: the name a page's ```lessonkit-panel fence uses."""

from __future__ import annotations

from importlib import import_module

from lessonkit.panel import Panel

# Each value is "module:attribute"; panels load lazily so one lesson's import cost is its own.
PANELS = {
    "context-compression": "lessonkit.panels.compression:PANEL",
    "control-kinds": "lessonkit.panels.control_kinds:PANEL",
    "working-memory": "lessonkit.panels.working_memory:PANEL",
    "context-compaction": "lessonkit.panels.compaction:PANEL",
}


def panel(lesson: str) -> Panel:
    if lesson not in PANELS:
        raise ValueError(f"unknown lesson panel {lesson!r}; allowed: {', '.join(map(repr, PANELS))}")
    module, attribute = PANELS[lesson].split(":")
    return getattr(import_module(module), attribute)
