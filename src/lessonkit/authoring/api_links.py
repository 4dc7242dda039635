"""Links from a lesson to the API reference, wherever the lesson names a lessonkit function.

The reference pages (``docs/reference/*.md``) each document one module with mkdocstrings
(``::: lessonkit.lessons.context_compression``), whose entries are anchored by their full path
(``#lessonkit.lessons.context_compression.replay``). A lesson names a function in two places: in inline code in
its prose (`` `replay(24, "evict")` ``), whose first mention is linked in place; and in its samples'
imports (``from lessonkit.lessons.context_compression import replay``), which a sample's code block cannot link
without breaking the editor, so the page ends with a short list of them, each linked.
"""

from __future__ import annotations

import html
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from typing import Any

DIRECTIVE = re.compile(r"^:::[ \t]+(?P<module>lessonkit(?:\.\w+)+)[ \t]*$", re.MULTILINE)
INLINE_CODE = re.compile(r"(?P<open><code>)(?P<text>[^<]*)(?P<close></code>)")
PRE = re.compile(r"<pre\b.*?</pre>", re.DOTALL)
IMPORT = re.compile(r"from\s+(?P<module>lessonkit(?:\.\w+)+)\s+import\s+(?P<names>\(?[\w\s,]+\)?)")
DOTTED = re.compile(r"\b(?P<module>lessonkit(?:\.\w+)+)\.(?P<name>\w+)\b")


@lru_cache(maxsize=64)
def public_functions(module_name: str) -> list[str]:
    """The functions a module offers whose names don't start with an underscore, cached ones included."""
    module = import_module(module_name)
    return [
        name
        for name, value in vars(module).items()
        # lru_cache hides a function behind a wrapper that is not a function: look at what it wraps.
        if not name.startswith("_") and inspect.isfunction(inspect.unwrap(value)) and _exports(module, name, value)
    ]


def _exports(module: Any, name: str, value: Any) -> bool:
    """Whether `module` offers `name` as its own: listed in its ``__all__`` (a lesson's package lists what
    its modules define), or, without one, defined in it rather than imported."""
    listed = getattr(module, "__all__", None)
    return name in listed if listed is not None else getattr(value, "__module__", None) == module.__name__


@lru_cache(maxsize=64)
def public_names(module_name: str) -> list[str]:
    """The functions and classes a module offers whose names don't start with an underscore."""
    module = import_module(module_name)
    defined = [(name, value) for name, value in vars(module).items() if _exports(module, name, value)]
    classes = [name for name, value in defined if not name.startswith("_") and inspect.isclass(value)]
    return public_functions(module_name) + classes


@dataclass
class Reference:
    """Where each documented name's entry is, as seen from one page."""

    entries: dict[str, str]  # "lessonkit.lessons.context_compression.replay" -> URL relative to the page
    by_name: dict[str, list[str]]  # "replay" -> ["lessonkit.lessons.context_compression.replay"]

    @classmethod
    def of_site(cls, files: Any, page_url: str, relative_url: Callable[[str, str], str]) -> Reference:
        entries: dict[str, str] = {}
        by_name: dict[str, list[str]] = {}
        for file in files:
            if not (file.src_uri.startswith("reference/") and file.src_uri.endswith(".md")):
                continue
            url = relative_url(file.url, page_url)
            for match in DIRECTIVE.finditer(file.content_string):
                module = match["module"]
                for name in public_names(module):
                    path = f"{module}.{name}"
                    entries[path] = f"{url}#{path}"
                    by_name.setdefault(name, []).append(path)
        return cls(entries, by_name)

    def resolve(self, code: str) -> str | None:
        """The entry a piece of inline code names: `replay(...)`, `replay`, or `lessonkit.lessons.context_compression.replay`."""
        text = html.unescape(code).strip()
        dotted = re.fullmatch(r"(lessonkit(?:\.\w+)+)\.(\w+)(?:\(.*\))?", text, re.DOTALL)
        if dotted and f"{dotted[1]}.{dotted[2]}" in self.entries:
            return f"{dotted[1]}.{dotted[2]}"
        bare = re.fullmatch(r"(\w+)(?:\(.*\))?", text, re.DOTALL)
        # A bare name links only when one module defines it: `lesson()` is in every engine.
        if bare and len(self.by_name.get(bare[1], [])) == 1:
            return self.by_name[bare[1]][0]
        return None

    def link_inline_code(self, page_html: str) -> str:
        """The first inline-code mention of each documented name, outside code blocks and links, linked to its entry."""
        done: set[str] = set()
        blocks = [(m.start(), m.end()) for m in PRE.finditer(page_html)]
        # Inline code inside an existing link stays as it is; so does code in a code block.
        links = [(m.start(), m.end()) for m in re.finditer(r"<a\b.*?</a>", page_html, re.DOTALL)]

        def inside(position: int) -> bool:
            return any(start <= position < end for start, end in (*blocks, *links))

        def replace(match: re.Match[str]) -> str:
            path = self.resolve(match["text"])
            if path is None or path in done or inside(match.start()):
                return match.group(0)
            done.add(path)
            return f'<a class="lk-api" href="{html.escape(self.entries[path], quote=True)}">{match.group(0)}</a>'

        return INLINE_CODE.sub(replace, page_html)

    def imported(self, page_html: str) -> list[str]:
        """The documented names the page's code blocks import or call by their full path, in order."""
        code = html.unescape(re.sub(r"<[^>]+>", "", "".join(m.group(0) for m in PRE.finditer(page_html))))
        found: list[str] = []
        for match in IMPORT.finditer(code):
            for name in re.findall(r"\w+", match["names"]):
                found.append(f"{match['module']}.{name}")
        found += [f"{m['module']}.{m['name']}" for m in DOTTED.finditer(code)]
        return [path for path in dict.fromkeys(found) if path in self.entries]

    def section_for(self, page_html: str) -> str:
        paths = self.imported(page_html)
        if not paths:
            return ""
        items = "".join(
            f'<li><a class="lk-api" href="{html.escape(self.entries[path], quote=True)}"><code>{html.escape(path)}</code></a></li>'
            for path in paths
        )
        return (
            '\n<aside class="lk-api-used" aria-label="In the API reference">'
            "<p>The code on this page uses, in the API reference:</p>"
            f"<ul>{items}</ul></aside>\n"
        )
