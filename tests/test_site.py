"""The site builds strictly with the network off, and its pages reference nothing from another origin."""

import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
MKDOCS = Path(sys.executable).parent / "mkdocs"
# Elements whose URL attributes the browser fetches on its own (anchors only navigate when clicked).
FETCHED = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src", "video": "src", "embed": "src", "object": "data"}
FETCHED_LINKS = {"stylesheet", "icon", "preload", "modulepreload", "manifest", "prefetch", "apple-touch-icon"}
OTHER_ORIGIN = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)


def network_off_prefix() -> list[str]:
    """`unshare --net` when this machine lets us cut the network for one command (root, Linux)."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "--net", "true"], capture_output=True).returncode == 0:
        return [unshare, "--net", "--"]
    return []


def build_env() -> dict[str, str]:
    # A bare environment, so nothing a proxy variable offers can help; PYTHONPATH passes, so a checkout
    # that shares another's virtualenv builds with its own sources.
    env = {"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


@pytest.fixture(scope="module")
def offline_build(tmp_path_factory):
    prefix = network_off_prefix()
    if not prefix:
        pytest.skip("cannot cut the network here (unshare --net needs root on Linux)")
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [*prefix, str(MKDOCS), "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, env=build_env(),
    )
    assert result.returncode == 0, f"mkdocs build --strict failed with the network off:\n{result.stderr}"
    return site


class FetchedURLs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in FETCHED and attrs.get(FETCHED[tag]):
            self.urls.append(attrs[FETCHED[tag]])
        if tag == "link" and FETCHED_LINKS & set((attrs.get("rel") or "").lower().split()):
            self.urls.append(attrs.get("href") or "")


def test_the_site_builds_strictly_with_the_network_off(offline_build):
    assert (offline_build / "lessons" / "context-compression" / "index.html").is_file()
    assert (offline_build / "assets" / "pyodide" / "pyodide.asm.wasm").is_file()
    assert list((offline_build / "assets" / "wheels").glob("lessonkit-*.whl"))


def test_no_page_asks_the_browser_for_anything_from_another_origin(offline_build):
    offenders = []
    for page in offline_build.rglob("*.html"):
        parser = FetchedURLs()
        parser.feed(page.read_text(encoding="utf-8"))
        offenders += [f"{page.relative_to(offline_build)}: {url}" for url in parser.urls if OTHER_ORIGIN.match(url)]
    assert not offenders, "\n".join(offenders)


def test_no_stylesheet_imports_from_another_origin(offline_build):
    offenders = []
    for sheet in offline_build.rglob("*.css"):
        for url in re.findall(r"""(?:url\(|@import\s+)["']?([^"')\s]+)""", sheet.read_text(encoding="utf-8")):
            if OTHER_ORIGIN.match(url):
                offenders.append(f"{sheet.relative_to(offline_build)}: {url}")
    assert not offenders, "\n".join(offenders)
