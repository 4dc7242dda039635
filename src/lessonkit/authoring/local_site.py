"""The built site on this machine: served on loopback, read by a Chromium found on this machine.

Shared by the browser tests and the benchmark so both see the site exactly as a reader's browser
would, with the MIME types Pyodide needs and the Chromium flags that work without a network.
Which Chromium: the one ``LESSONKIT_CHROMIUM`` names, else Debian's, else Playwright's own
(``lessonkit.authoring.browser_setup`` installs one when none is there).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# mkdocs.yml's site_url, which the built sitemap names every page under.
SITE_URL = "http://127.0.0.1:8000/"
# Each window of this Chromium also preloads its address bar's suggestions, a WebUI page in a
# renderer of its own, which a headless window never shows; Playwright opens a window for every
# context, so the browser tests paid for one beside nearly every page they opened (bench/FINDINGS.md).
BROWSER_UI_NEVER_SHOWN = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
# Playwright turns these features off at every launch (playwright-core's chromiumSwitches, as pinned
# in pyproject.toml) in a --disable-features switch of its own; Chromium reads only the last such
# switch, so the one here names them again. tests/course/test_local_site.py holds the two lists together.
PLAYWRIGHTS_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
# Headless, and quiet: without the background-networking flags Chromium keeps calling home, which
# a machine with no network answers with a stream of refused connections; and with no address bar
# of its own loaded in any window (above).
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join((*PLAYWRIGHTS_DISABLED_FEATURES, *BROWSER_UI_NEVER_SHOWN)),
)


class SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        # Pyodide compiles its WebAssembly while streaming, which requires this exact type.
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".whl": "application/zip",
        ".zip": "application/zip",
    }

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the standard library's name
        pass

    def send_head(self) -> Any:
        # The sitemap names pages under the configured site_url (port 8000). Served here on another
        # port, it is rewritten to this origin, as a deployment's own build would write it; Material's
        # instant navigation follows only links the sitemap lists on the page's own origin.
        if self.path.split("?")[0].endswith("/sitemap.xml"):
            return self._sitemap()
        return super().send_head()

    def _sitemap(self) -> Any:
        import io

        path = Path(self.translate_path(self.path.split("?")[0]))
        if not path.is_file():
            return super().send_head()
        origin = f"http://{self.headers.get('Host', '127.0.0.1')}/"
        body = path.read_text(encoding="utf-8").replace(SITE_URL, origin).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A page closed mid-download resets its connection; that is not the site's fault.
        pass


@contextmanager
def served(directory: Path, handler: type[SiteHandler] = SiteHandler) -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 at a free port with `handler` (the site's own, or one built on
    it); yields the origin, e.g. http://127.0.0.1:40123."""
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def playwrights_own(playwright: Any | None = None) -> Path | None:
    """Where Playwright's own Chromium is (or would be) installed; None if Playwright cannot say."""
    try:
        if playwright is not None:
            return Path(playwright.chromium.executable_path)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as running:
            return Path(running.chromium.executable_path)
    except Exception:  # no driver, or an unsupported platform: Playwright has no Chromium to offer
        return None


def find_chromium(playwright: Any | None = None) -> Path | None:
    """The Chromium the tests drive: LESSONKIT_CHROMIUM's, else Debian's, else Playwright's own; None if none is there."""
    named = os.environ.get("LESSONKIT_CHROMIUM", "").strip()
    if named:  # a reader's explicit choice is the only candidate: never a silent substitute
        return Path(named) if Path(named).is_file() else None
    if CHROMIUM.exists():
        return CHROMIUM
    own = playwrights_own(playwright)
    return own if own is not None and own.exists() else None


def _launch_options(playwright: Any, args: tuple[str, ...] = ()) -> dict[str, Any]:
    chromium = find_chromium(playwright)
    if chromium is None:
        raise FileNotFoundError("no Chromium to drive: run make browser, which installs one or says how")
    return {"executable_path": str(chromium), "headless": True, "args": [*CHROMIUM_ARGS, *args]}


def launch_chromium(playwright: Any, args: tuple[str, ...] = ()) -> Any:
    """The Chromium `find_chromium` finds, through Playwright; never one Playwright would download now.
    `args`: Chromium's own flags, besides the ones every launch here takes."""
    return playwright.chromium.launch(**_launch_options(playwright, args))


def launch_chromium_with_profile(playwright: Any, profile: Path | str, **context_options: Any) -> Any:
    """The same Chromium as `launch_chromium`, as one context keeping its profile (and HTTP cache) in `profile`."""
    return playwright.chromium.launch_persistent_context(str(profile), **_launch_options(playwright), **context_options)
