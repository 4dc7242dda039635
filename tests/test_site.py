"""The site builds strictly with the network off, the same way twice, and nothing in it reaches another origin.

Its pages, stylesheets and scripts reference nothing from another origin that a browser would load,
every page declares a Content-Security-Policy that allows only its own origin (and Pyodide's
WebAssembly), and the lessonkit wheel the site serves holds exactly the code these tests ran.
"""

import filecmp
import json
import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

import lessonkit
from lessonkit.authoring import offline
from lessonkit.authoring.csp import inline_scripts, script_hash
from lessonkit.authoring.offline import written_course
from tests.course_build import CourseBuild

ROOT = Path(__file__).parents[1]
# Elements whose URL attributes the browser fetches on its own (anchors only navigate when clicked).
FETCHED = {
    "script": "src",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "audio": "src",
    "video": "src",
    "embed": "src",
    "object": "data",
    "image": "href",
    "use": "href",
    "input": "src",
    "track": "src",
}
FETCHED_LINKS = {"stylesheet", "icon", "preload", "modulepreload", "manifest", "prefetch", "apple-touch-icon"}
OTHER_ORIGIN = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)


@pytest.fixture(scope="module")
def offline_build(course_build: CourseBuild) -> Path:
    if not course_build.offline:
        pytest.skip("cannot cut the network here (unshare --net needs root on Linux)")
    return course_build.site


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


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


# Scripts: what they fetch, import or start. Our own shell names no other origin at all; the
# third-party bundles name a few, each only loaded under a condition this site never meets, which
# the test checks too.
OTHER_ORIGIN_LITERAL = re.compile(r"""["'`]((?:https?:)?//[^"'`\s]+)""")
LOADED_LITERALLY = re.compile(
    r"""(?:fetch|importScripts|import|new\s+(?:Shared)?Worker|sendBeacon|new\s+EventSource|new\s+WebSocket)\s*\(\s*["'`]((?:[a-z][a-z0-9+.-]*:)?//[^"'`]+)""",
    re.IGNORECASE,
)
NEVER_LOADED_HERE = {
    # Pyodide's default home, used only when loadPyodide is given no indexURL; worker.js always gives the site's own.
    ("assets/pyodide/pyodide.js", "https://cdn.jsdelivr.net/pyodide/v${x}/full/"): "worker.js passes indexURL",
    # Material's repository facts: fetched only when mkdocs.yml sets repo_url.
    ("assets/javascripts/bundle.*.min.js", "https://api.github.com/users/${e}"): "repo_url",
    ("assets/javascripts/bundle.*.min.js", "https://api.github.com/repos/${e}/${t}"): "repo_url",
    ("assets/javascripts/bundle.*.min.js", "https://${e}/api/v4/projects/${encodeURIComponent(t)}"): "repo_url",
    # Loaded only by a browser without ResizeObserver, which no browser that runs Pyodide 0.29 lacks.
    ("assets/javascripts/bundle.*.min.js", "https://unpkg.com/resize-observer-polyfill"): "ResizeObserver",
    # Loaded only by a page holding a Mermaid diagram.
    ("assets/javascripts/bundle.*.min.js", "https://unpkg.com/mermaid@11/dist/mermaid.min.js"): "mermaid",
}


def scripts(site: Path) -> list[Path]:
    return sorted(path for path in site.rglob("*") if path.suffix in (".js", ".mjs"))


def test_no_script_fetches_imports_or_starts_a_worker_from_another_origin(offline_build):
    offenders = [
        f"{script.relative_to(offline_build)}: {url}"
        for script in scripts(offline_build)
        for url in LOADED_LITERALLY.findall(script.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not offenders, "\n".join(offenders)


def test_other_origins_named_in_scripts_are_only_those_this_site_never_loads(offline_build):
    found = {}
    for script in scripts(offline_build):
        relative = script.relative_to(offline_build).as_posix()
        for url in OTHER_ORIGIN_LITERAL.findall(script.read_text(encoding="utf-8", errors="replace")):
            if url.startswith("//") and not re.match(r"//[a-z0-9.-]+\.[a-z]{2,}(?:[:/]|$)", url):
                continue  # a comment or a regular expression's "//", not an address
            known = next((key for key in NEVER_LOADED_HERE if url.startswith(key[1]) and Path(relative).match(key[0])), None)
            found.setdefault(known, []).append(f"{relative}: {url}")
    unknown = found.pop(None, [])
    assert not unknown, "scripts name other origins; prove each is never loaded here or remove it:\n" + "\n".join(unknown)
    assert not [name for name in found if name[0].startswith("assets/lessonkit/")], "the shell names another origin"
    # The conditions under which those few would be loaded do not hold for this site.
    repo_url = re.search(r"^repo_url:(.*)$", (ROOT / "mkdocs.yml").read_text(), re.MULTILINE)
    assert repo_url is None or repo_url[1].strip() in ("", "null"), (
        "repo_url is set: Material would ask api.github.com for repository facts"
    )
    # A diagram is an element of that class; the notebook pages' stylesheet names the classes without using them.
    diagram = re.compile(r'class="[^"]*\b(?:mermaid|jp-Mermaid)\b')
    assert not any(diagram.search(page.read_text(encoding="utf-8")) for page in pages(offline_build)), "a page holds a Mermaid diagram"
    assert "indexURL" in (offline_build / "assets" / "lessonkit" / "worker.js").read_text(), "the worker must give Pyodide its home"


# The Content-Security-Policy, as each page declares it.

CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def directives(policy: str) -> dict[str, list[str]]:
    return {name: sources for name, *sources in (part.split() for part in policy.split(";") if part.strip())}


def test_every_page_declares_a_policy_of_this_origin_only_before_anything_is_fetched(offline_build):
    for page in pages(offline_build):
        html = page.read_text(encoding="utf-8")
        declared = CSP_META.findall(html)
        assert len(declared) == 1, f"{page.relative_to(offline_build)}: {len(declared)} Content-Security-Policy declarations"
        head = html[html.index("<head>") : html.index(declared[0])]
        assert not re.search(r"<(?:script|link|style|img)\b", head), f"{page.relative_to(offline_build)}: something comes before the policy"
        policy = directives(declared[0])
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'self'"]
        for name, sources in policy.items():
            allowed = {"'self'", "'none'", "'wasm-unsafe-eval'", "data:"}
            stray = [source for source in sources if source not in allowed and not source.startswith("'sha256-")]
            assert not stray, f"{page.relative_to(offline_build)}: {name} allows {stray}"
        assert "data:" not in policy["script-src"] and "'unsafe-inline'" not in policy["script-src"]


def test_every_page_declares_its_character_set_once_within_the_bytes_a_browser_reads_it_from(offline_build):
    # A browser looks for the charset in a page's first 1024 bytes; the policy, whose hashes grow with
    # the page's inline scripts and styles, comes after it (overrides/main.html).
    for page in pages(offline_build):
        html = page.read_bytes()
        declared = re.findall(rb"<meta charset=\"([^\"]+)\">", html)
        assert declared == [b"utf-8"], f"{page.relative_to(offline_build)}: charset declarations {declared}"
        assert html.index(b"<meta charset=") < 1024, f"{page.relative_to(offline_build)}: the charset comes past the first 1024 bytes"


def test_every_inline_script_is_allowed_by_its_hash_and_nothing_inline_is_left_to_refuse(offline_build):
    for page in pages(offline_build):
        html = page.read_text(encoding="utf-8")
        allowed = directives(CSP_META.findall(html)[0])["script-src"]
        for text in inline_scripts(html):
            assert script_hash(text) in allowed, f"{page.relative_to(offline_build)}: an inline script is not in the policy: {text[:80]}"
        # The policy has no 'unsafe-inline' and no 'unsafe-hashes': inline handlers and style attributes would be refused.
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", html), f"{page.relative_to(offline_build)}: an inline event handler"
        assert not re.search(r"<[^>]+\sstyle\s*=", html), f"{page.relative_to(offline_build)}: a style attribute"
        assert "javascript:" not in html, f"{page.relative_to(offline_build)}: a javascript: address"


# Reproducible: two builds of one commit, on two different days.

# The build date is in the sitemap (<lastmod>), so it must differ; SOURCE_DATE_EPOCH also dates the
# wheel's zip entries (without it hatchling uses a fixed 2020-02-02), while what the wheel holds stays the same.
DATED = {"sitemap.xml", "sitemap.xml.gz"}
# The engine's memory snapshot is a dump of an interpreter's memory after it ran: where objects lie and
# the interpreter's hash secret change with every run, so two snapshots of one commit differ byte for
# byte. What it restores is checked in the browser tests instead (the same views and samples).
MEMORY = {"assets/snapshots/lessonkit.snapshot.1.gz", "assets/snapshots/lessonkit.snapshot.2.gz"}
# The engine's manifest declares the bytes of each file the engine downloads, the snapshot's parts
# among them: it differs by those figures alone, which must be each build's own parts' sizes.
MANIFEST = "assets/lessonkit/runtime.json"
# The service worker lists every file of its build with its digest, and a version made of them all:
# it differs where the files above differ, and each build's must describe that build's own files.
SERVICE_WORKER = "service-worker.js"


def same_but_the_changing_files(one: Path, other: Path, changing: set[str]) -> None:
    kept = []
    for site in (one, other):
        course = written_course(site)
        assert course == offline.course(site), f"{site}'s service worker does not describe its own files"
        kept.append([file for file in course["files"] if file[0] not in changing])
    assert kept[0] == kept[1], "the service workers differ in more than the files that change between builds"


def same_but_the_snapshots_size(one: Path, other: Path) -> None:
    manifests = []
    for site in (one, other):
        manifest = json.loads((site / MANIFEST).read_text(encoding="utf-8"))
        for part in manifest["snapshot"]:
            assert manifest["downloads"].pop(part) == ((site / MANIFEST).parent / part).stat().st_size, (
                f"{site}'s manifest misstates the size of its snapshot's part {part}"
            )
        manifests.append(manifest)
    assert manifests[0] == manifests[1], "the engine's manifest differs in more than the sizes of the snapshot's parts"


def wheel_files(wheel: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_two_builds_of_one_commit_differ_only_in_the_build_date(offline_build):
    # The two builds are the run's own, dated 2001 (tests/course_build.py), and `make site`'s, dated
    # today, which `make test` makes just before and the browser tests serve: no third build.
    later = ROOT / "site"
    if not (later / "index.html").is_file():
        pytest.skip("the site is not built here: make site")
    compared = filecmp.dircmp(offline_build, later)
    differing, only = [], []

    def walk(node: filecmp.dircmp, where: Path) -> None:
        differing.extend((where / name).as_posix() for name in node.diff_files)
        only.extend((where / name).as_posix() for name in node.left_only + node.right_only)
        for name, child in node.subdirs.items():
            walk(child, where / name)

    walk(compared, Path())
    assert not only, f"files only one build made: {only}"
    wheels = [name for name in differing if name.endswith(".whl")]
    for name in wheels:
        assert wheel_files(offline_build / name) == wheel_files(later / name), f"{name} holds different files"
    if MANIFEST in differing:
        same_but_the_snapshots_size(offline_build, later)
    if SERVICE_WORKER in differing:
        same_but_the_changing_files(offline_build, later, {*wheels, *DATED, *MEMORY, MANIFEST})
    unexplained = sorted(set(differing) - set(wheels) - DATED - MEMORY - {MANIFEST, SERVICE_WORKER})
    assert not unexplained, f"differ between two builds of one commit: {unexplained} (site/ must be make site's build of this checkout)"
    lines = zip((offline_build / "sitemap.xml").read_text().splitlines(), (later / "sitemap.xml").read_text().splitlines(), strict=True)
    assert all(mine == theirs or "<lastmod>" in mine for mine, theirs in lines), "the sitemap differs in more than its dates"


def test_the_service_worker_keeps_every_file_of_its_build_each_with_its_digest(offline_build):
    course = written_course(offline_build)
    listed = {address: (size, digest) for address, size, digest in course["files"]}
    for path in offline_build.rglob("*"):
        name = path.relative_to(offline_build).as_posix()
        if not path.is_file() or name == SERVICE_WORKER or name.endswith(".map") or name.startswith(offline.ON_DEMAND):
            continue
        size, digest = listed.pop(offline.address(name))
        assert size == path.stat().st_size, f"{name}: listed with {size} bytes"
        assert digest == (None if name == "sitemap.xml" else offline.digest(path.read_bytes())), f"{name}: listed with another digest"
    assert not listed, f"the service worker lists files the build did not write: {sorted(listed)}"
    # Pages by their folder, as the course's links ask for them; the engine's files among the rest.
    assert {"./", "lessons/context-compression/", "assets/pyodide/pyodide.asm.wasm", *MEMORY} <= {
        address for address, _, _ in course["files"]
    }
    assert course["serving"] is False and course["bytes"] == sum(size for _, size, _ in course["files"])


def test_the_wheel_in_the_site_is_the_engine_these_tests_ran():
    wheels = list((ROOT / "site" / "assets" / "wheels").glob("lessonkit-*.whl"))
    if not wheels:
        pytest.skip("the site is not built here: make site")
    assert len(wheels) == 1, f"the site holds {len(wheels)} wheels"
    shipped = {name: content for name, content in wheel_files(wheels[0]).items() if not name.startswith("lessonkit-")}
    ran = Path(lessonkit.__file__).parent
    tested = {
        f"lessonkit/{path.relative_to(ran).as_posix()}": path.read_bytes()
        for path in ran.rglob("*.py")
        if "authoring" not in path.relative_to(ran).parts
    }
    tested |= {f"lessonkit/fixtures/{path.name}": path.read_bytes() for path in (ROOT / "fixtures").glob("*.json")}
    changed = sorted(set(shipped) ^ set(tested)) or [name for name in shipped if shipped[name] != tested[name]]
    assert not changed, f"the site's wheel is not the code under test (rebuild the site: make site): {changed}"


def test_a_notebook_page_keeps_no_loader_that_would_fetch_mermaid_from_a_cdn():
    from lessonkit.authoring.course_hooks import without_mermaid_loader

    page = '<p>cell</p><script type="module">\n const m = await import("https://cdn.example/mermaid.esm.min.mjs");\n</script><script src="x.js"></script>'
    assert without_mermaid_loader(page) == '<p>cell</p><script src="x.js"></script>'


THEME_BUNDLE = re.compile(r"<script\b[^>]*\bsrc=\"[^\"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js\"[^>]*>")


def test_every_page_defers_the_themes_bundle_so_it_never_holds_the_parser(offline_build):
    undeferred = []
    for page in pages(offline_build):
        tags = THEME_BUNDLE.findall(page.read_text(encoding="utf-8"))
        where = page.relative_to(offline_build)
        undeferred += [f"{where}: {tag}" for tag in tags if not re.search(r"\sdefer\b", tag)] or (
            [] if tags else [f"{where}: no theme bundle"]
        )
    assert not undeferred, "\n".join(undeferred)


SEARCH_HOLD = ROOT / "overrides" / "partials" / "search-hold.js"


def test_every_page_holds_back_the_search_index_from_its_head_and_the_theme_files_no_page_loads_stay_out_of_the_site(offline_build):
    hold = SEARCH_HOLD.read_text(encoding="utf-8").strip()
    missing = [
        str(page.relative_to(offline_build))
        for page in pages(offline_build)
        if hold not in page.read_text(encoding="utf-8").split("</head>")[0]
    ]
    assert not missing, f"pages without {SEARCH_HOLD.name} in their head: {missing}"
    assert not (offline_build / "partials").exists(), "the template's partials were copied into the site"
    # The shell's JSDoc types are for `tsc` only; the sources still hold them.
    assert (ROOT / "overrides" / "assets" / "lessonkit" / "types" / "spec.js").is_file()
    assert not (offline_build / "assets" / "lessonkit" / "types").exists(), "the shell's JSDoc types were copied into the site"


MODULE_PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)">')
# An import of another file of the site, as written or as esbuild writes it. Only the static form
# is read from the sources: they make no dynamic import, and their `import("./types/...")` are JSDoc types.
STATIC_IMPORT = re.compile(r"""\bfrom\s*["'](\.{1,2}/[^"']+)["']""")
DYNAMIC_IMPORT = re.compile(r"""\bimport\s*\(\s*["'](\.{1,2}/[^"']+)["']""")


def test_a_page_asks_for_the_shell_as_one_file_and_no_module_a_bundle_took_in_is_shipped(offline_build):
    # One request for the shell, not one per module: each is a round trip before the panel comes to
    # life on a slow link (shell_bundle). A classic script or a worker preloaded as a module would
    # be fetched twice: once as a module, unused, and again as what it is.
    page = (offline_build / "lessons" / "context-compression" / "index.html").read_text(encoding="utf-8")
    assert [href.rsplit("/", 1)[-1] for href in MODULE_PRELOAD.findall(page)] == ["shell.js"]
    sources = ROOT / "overrides"
    imported = set()
    for module in ("assets/lessonkit/shell.js", "assets/course/copy-for-ai.js"):
        bundle = (offline_build / module).read_text(encoding="utf-8")
        assert not STATIC_IMPORT.search(bundle) and not DYNAMIC_IMPORT.search(bundle), f"{module} still imports a module of the site"
        assert (sources / module).read_text(encoding="utf-8") != bundle, f"{module} was shipped as written, not bundled"
    for source in sources.rglob("*.js"):
        imported |= {(source.parent / name).resolve() for name in STATIC_IMPORT.findall(source.read_text(encoding="utf-8"))}
    assert len(imported) > 10, "the shell's modules import one another; this test no longer finds their imports"
    shipped = [
        path.relative_to(sources.resolve()).as_posix()
        for path in imported
        if (offline_build / path.relative_to(sources.resolve())).exists()
    ]
    assert not shipped, f"modules inside a bundle are still shipped: {shipped}"


def test_only_a_page_the_shell_brings_to_life_as_it_loads_asks_for_the_shell_in_the_head(offline_build):
    # Elsewhere the shell would share the connection with the page's stylesheets before its first
    # paint; the shell's tag at the end of the body still brings it, and the shell still runs.
    preloading = {
        page.relative_to(offline_build).as_posix()
        for page in pages(offline_build)
        if MODULE_PRELOAD.search(page.read_text(encoding="utf-8"))
    }
    # A panel and exercises, runnable samples, and the home page's progress through the exercises.
    assert {"lessons/context-compression/index.html", "authoring/index.html", "index.html"} <= preloading, preloading
    assert not {"notebooks/working-memory/index.html", "glossary/index.html", "reference/panel/index.html"} & preloading, preloading
    for page in ("notebooks/working-memory/index.html", "glossary/index.html"):
        assert re.search(
            r'<script src="[^"]*assets/lessonkit/shell\.js" type="module" async>', (offline_build / page).read_text(encoding="utf-8")
        )


PANEL_OPENS = re.compile(r'<section class="lk-panel"[^>]*data-lesson="([^"]+)"')
SCRIPT_TAG = re.compile(r"<script\b[^>]*>")


def test_a_panel_page_starts_its_shell_right_after_the_panel_before_the_themes_bundle(offline_build):
    # A module tag that is not async runs when parsing ends, in document order: right after the
    # panel, it runs before the theme's deferred bundle, whose start-up would otherwise come first.
    from lessonkit.authoring.page_panels import panel_end

    checked = 0
    for page in pages(offline_build):
        text = page.read_text(encoding="utf-8")
        opened = PANEL_OPENS.search(text)
        if opened is None:
            continue
        where = page.relative_to(offline_build)
        after_panel = SCRIPT_TAG.match(text, panel_end(text, opened.start()))
        assert after_panel, f"{where}: no script right after the {opened[1]} panel"
        tag = after_panel[0]
        assert re.search(r'type="module"', tag) and re.search(r'src="[^"]*assets/lessonkit/shell\.js"', tag), f"{where}: {tag}"
        assert " async" not in tag and " defer" not in tag, f"{where}: {tag} would not run in document order"
        assert after_panel.start() < THEME_BUNDLE.search(text).start(), f"{where}: the theme's bundle comes before the shell"
        checked += 1
    assert checked >= 4, "every lesson and the authors' demo hold a panel"


def test_a_page_with_a_panel_or_a_sample_starts_the_engine_and_asks_for_its_views_before_anything_else(offline_build):
    # early.js starts the Python engine's worker, and fetches the panel's precomputed views if the
    # build made them, while the page is still being parsed: it must be the first thing fetched.
    from lessonkit.registry import panel, panel_ids

    precomputed = {lesson: panel(lesson).spec()["precomputed"] for lesson in panel_ids()}
    checked = 0
    for page in pages(offline_build):
        text = page.read_text(encoding="utf-8")
        head = text.split("</head>", 1)[0]
        where = page.relative_to(offline_build)
        early = re.search(r'<script src="[^"]*assets/lessonkit/early\.js"(?: data-views="([^"]+)")?></script>', head)
        lesson = PANEL_OPENS.search(text)
        if lesson is None and '<div class="lk-sample"' not in text:
            assert early is None, f"{where} has nothing for the engine to do, yet starts it"
            continue
        assert early, f"{where} has a panel or a sample, but does not start the engine from its head"
        assert early[1] == (precomputed[lesson[1]] if lesson else None), f"{where}: asks for views {early[1]!r}"
        after_policy = head[head.index("Content-Security-Policy") :]
        first_fetched = re.search(r"<link\b[^>]*>|<script\b[^>]*\bsrc=[^>]*>", after_policy)[0]
        assert "early.js" in first_fetched, f"{where} fetches {first_fetched} before it starts the engine"
        checked += 1
    assert checked >= 4, "every lesson and the authors' guide have a panel"
