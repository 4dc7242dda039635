"""Every page's Content-Security-Policy: this origin only, and what Pyodide needs.

The policy is a `<meta http-equiv>` (a static site sets no headers), declared first in the head by
``overrides/main.html`` with the placeholder `PLACEHOLDER`; this hook fills it in after each page
is rendered. Material writes a few small inline scripts into every page (the storage scope, which
holds the page's own base URL, the palette and the tab state), so the policy allows exactly those,
by the SHA-256 of their text: a script injected later, by a reader's note say, matches no hash and
never runs. Everything else may come only from the page's own origin:

- ``script-src 'self'``: Material's bundle, the shell's modules, and their hashed inline scripts;
- ``'wasm-unsafe-eval'``: compiling WebAssembly, which Pyodide does (in the worker; see below);
- ``worker-src 'self'``: the engine's worker and Material's search worker, both from the site;
- ``img-src 'self' data:``: Material's icons are SVG data URLs inside its own stylesheet;
- ``object-src 'none'``, ``base-uri 'self'``, ``form-action 'self'``: nothing a page needs elsewhere.

A worker started from a file of the site takes its policy from that file's response headers, not
from the page, so a host that can send headers should send `header_policy()` with every file; the
browser tests do, and Pyodide boots under it.

Under `mkdocs serve` only, each page as served also allows the one live-reload script the server
writes into it (`allowing_live_reload`); the built site never does.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from typing import Any

PLACEHOLDER = "lessonkit-policy"

DIRECTIVES: dict[str, tuple[str, ...]] = {
    "default-src": ("'self'",),
    "script-src": ("'self'", "'wasm-unsafe-eval'"),
    "style-src": ("'self'",),
    "img-src": ("'self'", "data:"),
    "font-src": ("'self'",),
    "connect-src": ("'self'",),
    "worker-src": ("'self'",),
    "object-src": ("'none'",),
    "base-uri": ("'self'",),
    "form-action": ("'self'",),
}

_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="' + re.escape(PLACEHOLDER) + '">')
# A classic or module script written into the page; a JSON data block (Material's __config) is not run.
_INLINE_SCRIPT = re.compile(r"<script(?P<attributes>(?:\s[^>]*)?)>(?P<text>.*?)</script>", re.DOTALL)
_SRC = re.compile(r"\ssrc\s*=")
_TYPE = re.compile(r"""\stype\s*=\s*["']?([^"'\s>]+)""")
_SCRIPT_TYPES = {"", "text/javascript", "module", "application/javascript"}


def inline_scripts(html: str) -> list[str]:
    """The text of every inline script in `html` the browser would run, in page order."""
    found = []
    for match in _INLINE_SCRIPT.finditer(html):
        attributes = match["attributes"]
        kind = _TYPE.search(attributes)
        if _SRC.search(attributes) or (kind and kind.group(1).lower() not in _SCRIPT_TYPES):
            continue
        found.append(match["text"])
    return found


# Inline stylesheets, such as the one mkdocs-jupyter writes into each notebook page.
_INLINE_STYLE = re.compile(r"<style(?:\s[^>]*)?>(?P<text>.*?)</style>", re.DOTALL)


def inline_styles(html: str) -> list[str]:
    """The text of every inline <style> in `html`, allowed by hash like the inline scripts."""
    return [match["text"] for match in _INLINE_STYLE.finditer(html)]


def script_hash(text: str) -> str:
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


def policy(scripts: list[str] = (), styles: list[str] = ()) -> str:
    """The policy text, allowing exactly the inline `scripts` and `styles` (by hash) beside this origin's own files."""
    hashes = tuple(dict.fromkeys(script_hash(text) for text in scripts))
    style_hashes = tuple(dict.fromkeys(script_hash(text) for text in styles))
    directives = {**DIRECTIVES, "script-src": DIRECTIVES["script-src"] + hashes, "style-src": DIRECTIVES["style-src"] + style_hashes}
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def header_policy() -> str:
    """The same policy as an HTTP header for every file of the site, workers included (no page scripts to hash)."""
    return policy()


def declare(html: str, where: str) -> str:
    """The page with its policy filled in; a page whose template has no placeholder is refused, not left open."""
    if not _META.search(html):
        raise ValueError(
            f"{where}: no Content-Security-Policy placeholder in its head; pages must extend overrides/main.html, "
            f'which declares <meta http-equiv="Content-Security-Policy" content="{PLACEHOLDER}">'
        )
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(inline_scripts(html), inline_styles(html))}">'
    return _META.sub(lambda _: meta, html, count=1)


# MkDocs hooks (mkdocs.yml lists this module after site_hooks): every page, and the 404 page.


def on_post_page(output: str, page: Any, config: Any) -> str:
    return declare(output, page.file.src_uri if page else "page")


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    return declare(output_content, template_name) if template_name.endswith(".html") else output_content


# `mkdocs serve` (1.6.1, pinned) writes its live-reload script into every page as it serves it, after
# every hook has run, with the build's epoch and a fresh request id in its text: no hash the build
# knows can allow it. So under `serve`, and only there, each page as served gains in its policy the
# hash of the one script the server wrote into it, once that script is checked to be mkdocs's own.
@functools.cache
def _live_reload_script() -> re.Pattern[str]:
    """mkdocs's live-reload script, as its server writes it, for any epoch and request id."""
    from mkdocs.livereload import _SCRIPT_TEMPLATE  # the text the server substitutes into

    pattern = re.escape(_SCRIPT_TEMPLATE.template)
    for name in ("epoch", "request_id"):  # both whole milliseconds of a monotonic clock
        pattern = pattern.replace(re.escape("${" + name + "}"), "[0-9]+")
    return re.compile(pattern)


_POLICY_SCRIPT_SRC = re.compile(r'(<meta http-equiv="Content-Security-Policy" content="[^"]*?script-src [^;"]*)')


def allowing_live_reload(served: bytes, page: bytes) -> bytes:
    """`served`, which is `page` with mkdocs serve's live-reload script written before its last
    ``</body>``, with that script, and only it, allowed by the page's policy."""
    at = page.rindex(b"</body>") if b"</body>" in page else len(page)
    added = served[at : at + len(served) - len(page)]
    around = served[:at] == page[:at] and served[at + len(added) :] == page[at:]
    opening, closing = b"<script>", b"</script>"
    tagged = added.startswith(opening) and added.endswith(closing)
    script = added[len(opening) : -len(closing)].decode("utf-8", "replace") if tagged else ""
    if not (around and tagged and _live_reload_script().fullmatch(script)):
        raise ValueError(f"mkdocs serve added {added[:60]!r} to a page, not its live-reload script: the policy allows no other")
    text = served.decode("utf-8")
    if 'http-equiv="Content-Security-Policy"' not in text:
        return served  # a file that is not one of the course's pages declares no policy to widen
    widened, found = _POLICY_SCRIPT_SRC.subn(lambda match: f"{match[1]} {script_hash(script)}", text, count=1)
    if not found:
        raise ValueError("a served page declares a Content-Security-Policy without script-src")
    return widened.encode("utf-8")


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    inject = server._inject_js_into_html  # mkdocs 1.6.1: where the server writes its script into a page

    def injecting_allowed(content: bytes, epoch: int) -> bytes:
        return allowing_live_reload(inject(content, epoch), content)

    server._inject_js_into_html = injecting_allowed
    return server
