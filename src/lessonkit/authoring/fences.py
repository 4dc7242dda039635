"""The ```lessonkit-panel fence: a page names its lesson, the build renders that panel."""

from __future__ import annotations

from typing import Any

from lessonkit.panel import render
from lessonkit.registry import panel


def panel_fence(source: str, language: str, css_class: str, options: Any, md: Any, **kwargs: Any) -> str:
    """pymdownx.superfences formatter; the fence body is the panel's registry name."""
    return render(panel(source.strip()))
