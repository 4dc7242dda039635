"""The build's Content-Security-Policy: inline scripts allowed by hash only, and no page left without a policy;
under `mkdocs serve`, its live-reload script too, and nothing else."""

import re
from pathlib import Path

import pytest
from mkdocs.livereload import LiveReloadServer

from lessonkit.authoring.csp import PLACEHOLDER, allowing_live_reload, declare, header_policy, inline_scripts, on_serve, policy, script_hash

PAGE = (
    f'<html><head><meta http-equiv="Content-Security-Policy" content="{PLACEHOLDER}"><meta charset="utf-8">'
    '<script id="__config" type="application/json">{"base": ".."}</script>'
    '<script src="bundle.js"></script><script>var palette = 1</script><script type="module">import "./a.js"</script>'
    "</head><body><script>\nvar tabs = 2\n</script></body></html>"
)


def test_only_scripts_the_browser_runs_count_as_inline():
    assert inline_scripts(PAGE) == ["var palette = 1", 'import "./a.js"', "\nvar tabs = 2\n"]


def test_the_page_allows_its_own_inline_scripts_by_hash_and_this_origin_only():
    declared = declare(PAGE, "demo.md")
    assert PLACEHOLDER not in declared
    assert policy(inline_scripts(PAGE)) in declared
    script_src = next(part for part in policy(inline_scripts(PAGE)).split("; ") if part.startswith("script-src"))
    assert script_src == "script-src 'self' 'wasm-unsafe-eval' " + " ".join(script_hash(text) for text in inline_scripts(PAGE))
    assert (
        script_hash("var palette = 1") == "'sha256-Nw00l4OvenSWQGNanKI9XA+K8uRZAQXP9vqG9rm14YM='"
    )  # printf 'var palette = 1' | openssl dgst -sha256 -binary | base64


def test_a_page_without_the_placeholder_is_refused_rather_than_left_without_a_policy():
    with pytest.raises(ValueError, match="demo.md: no Content-Security-Policy placeholder in its head"):
        declare("<html><head></head></html>", "demo.md")


def test_the_readme_quotes_the_header_policy_hosts_are_asked_to_send():
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"\n{header_policy()}\n" in readme


# Under `mkdocs serve`: the server's own injection, as it runs for every page it serves.


def served_by_mkdocs(tmp_path: Path, html: str) -> bytes:
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))  # never bound nor started
    server = on_serve(server, config=None, builder=None)
    return server._inject_js_into_html(html.encode("utf-8"), 1234)


def test_a_served_page_allows_the_live_reload_script_mkdocs_wrote_into_it_and_nothing_else(tmp_path):
    built = declare(PAGE, "demo.md")
    served = served_by_mkdocs(tmp_path, built)
    added = [text for text in inline_scripts(served.decode("utf-8")) if text not in inline_scripts(built)]
    assert len(added) == 1 and "livereload(1234, " in added[0]
    script_src = next(
        part for part in re.search(r'content="([^"]+)"', served.decode("utf-8"))[1].split("; ") if part.startswith("script-src")
    )
    assert script_src == next(
        part for part in policy(inline_scripts(PAGE)).split("; ") if part.startswith("script-src")
    ) + " " + script_hash(added[0])


def test_a_script_other_than_mkdocss_live_reload_is_refused_not_allowed():
    built = declare(PAGE, "demo.md").encode("utf-8")
    at = built.rindex(b"</body>")
    for added in (b"<script>alert(document.cookie)</script>", b"<script>livereload(1, 2); alert(1)</script>", b"<p>hello</p>"):
        with pytest.raises(ValueError, match="not its live-reload script"):
            allowing_live_reload(built[:at] + added + built[at:], built)
