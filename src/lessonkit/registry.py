"""The lessons and their panels, by lesson id: the name a page's ```lessonkit-panel fence uses.

A lesson is one id and one folder: the package ``lessonkit.lessons.<package>``, where the package is
the id with ``_`` for ``-`` (``context-compaction`` is ``context_compaction``), whose ``panel`` module
holds its ``PANEL``. The registry finds lessons by listing that folder, so a new lesson is found
without changing this file. Beside them, the platform's own demonstration panel, which is not a lesson.
"""

from __future__ import annotations

import pkgutil
import re
from importlib import import_module
from types import ModuleType

import lessonkit.lessons
from lessonkit import checks
from lessonkit.checks import Refused
from lessonkit.panel import Panel

# A lesson id is lower-case words joined by hyphens, so that one rule turns it into a package name.
LESSON_ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
# Panels of the platform's own, shown in the authors' guide: "module:attribute", loaded when asked for.
PLATFORM_PANELS = {"control-kinds": "lessonkit.panel.showcase:PANEL"}


def package_name(lesson_id: str) -> str:
    """The package of the lesson `lesson_id`, by the one rule: ``-`` becomes ``_``.

    Raises:
        lessonkit.checks.Refused: `lesson_id` is not lower-case words joined by hyphens.

    Examples:
        >>> from lessonkit.registry import package_name
        >>> package_name("context-compaction")
        'lessonkit.lessons.context_compaction'
    """
    if not isinstance(lesson_id, str) or not LESSON_ID.fullmatch(lesson_id):
        raise Refused("lesson_id", lesson_id, "lower-case words joined by hyphens, such as 'working-memory'")
    return f"{lessonkit.lessons.__name__}.{lesson_id.replace('-', '_')}"


def lesson_ids() -> tuple[str, ...]:
    """Every lesson's id, from the packages in the lessons folder, in alphabetical order.

    Examples:
        >>> from lessonkit.registry import lesson_ids
        >>> "context-compaction" in lesson_ids()
        True
    """
    found = (module.name for module in pkgutil.iter_modules(lessonkit.lessons.__path__) if module.ispkg)
    return tuple(sorted(name.replace("_", "-") for name in found))


def lesson_package(lesson_id: str) -> ModuleType:
    """The package of lesson `lesson_id`, imported: its engine's public names.

    Raises:
        lessonkit.checks.Refused: No lesson has that id; the message lists those that exist.
    """
    checks.choice("lesson_id", lesson_id, lesson_ids())
    return import_module(package_name(lesson_id))


def panel_ids() -> tuple[str, ...]:
    """Every panel a page may place: each lesson's, then the platform's own."""
    return lesson_ids() + tuple(PLATFORM_PANELS)


def _platform(panel_id: object) -> bool:
    # A page's request is JSON, so the id may be a list or an object: those are refused by name with
    # the others, not looked up (where they would fail as unhashable, naming nothing).
    return isinstance(panel_id, str) and panel_id in PLATFORM_PANELS


def panel_module(panel_id: str) -> str:
    """The module that holds the panel `panel_id`'s ``PANEL``, by name, not imported.

    Raises:
        lessonkit.checks.Refused: No panel has that name; the message lists those that exist.

    Examples:
        >>> from lessonkit.registry import panel_module
        >>> panel_module("context-compression")
        'lessonkit.lessons.context_compression.panel'
    """
    if _platform(panel_id):
        return PLATFORM_PANELS[panel_id].split(":")[0]
    checks.choice("panel", panel_id, panel_ids())
    return f"{package_name(panel_id)}.panel"


def panel(panel_id: str) -> Panel:
    """The panel named `panel_id`: a lesson's, or one of the platform's own.

    Raises:
        lessonkit.checks.Refused: No panel has that name; the message lists those that exist.

    Examples:
        >>> from lessonkit.registry import panel
        >>> panel("working-memory").lesson
        'working-memory'
    """
    attribute = PLATFORM_PANELS[panel_id].split(":")[1] if _platform(panel_id) else "PANEL"
    return getattr(import_module(panel_module(panel_id)), attribute)
