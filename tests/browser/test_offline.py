"""The whole course offline after one visit: the service worker keeps every file of one build.

Every test here has a host of its own, which serves one build of the course, can be given a new
build (`deploy`), and can stop answering (`cut`), as a reader's network does when it goes. Each test
opens its own browser context with service workers allowed (every other test's context blocks them:
see `watched_context`), so what one test keeps, another never finds. The page's words come from
words.js, as the page takes them.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from lessonkit import tokens
from lessonkit.authoring.local_site import SiteHandler, served
from lessonkit.authoring.offline import write_service_worker, written_course
from lessonkit.registry import panel
from tests.browser.harness import ENGINE_BOOT_MS, FOLLOW, PanelPage

ROOT = Path(__file__).resolve().parents[2]
WORDS_JS = ROOT / "overrides" / "assets" / "lessonkit" / "words.js"


def page_words() -> dict[str, str]:
    """The page's words (PAGE_WORDS in words.js), each a JSON string literal on a line of its own."""
    import json

    found = re.findall(r'^\s+(\w+): ("(?:[^"\\]|\\.)*"),$', WORDS_JS.read_text(encoding="utf-8"), re.MULTILINE)
    return {name: json.loads(text) for name, text in found}


WORDS = page_words()


def said(name: str, **values: str) -> re.Pattern[str]:
    """The page's sentence `name`, with each placeholder given in `values` filled in and any other matched."""
    pattern = re.escape(WORDS[name])
    for placeholder in re.findall(r"\\\{(\w+)\\\}", pattern):
        pattern = pattern.replace(f"\\{{{placeholder}\\}}", re.escape(values[placeholder]) if placeholder in values else ".+?")
    return re.compile(f"^{pattern}$")


class Host:
    """The course's host as a reader's browser meets it: one build at a time, and a network that can go."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.answering = True
        self.origin = ""

    def deploy(self, site: Path) -> None:
        self.site = site

    def cut(self) -> None:
        """No answer to anything from now on: every request fails as it does with the network gone."""
        self.answering = False

    def handler(self) -> type[SiteHandler]:
        host = self

        class Handler(SiteHandler):
            def translate_path(self, path: str) -> str:
                self.directory = str(host.site)
                return super().translate_path(path)

            def handle_one_request(self) -> None:
                if not host.answering:
                    self.close_connection = True
                    return
                super().handle_one_request()

        return Handler


@pytest.fixture
def host(site_dir: Path) -> Iterator[Host]:
    host = Host(site_dir)
    with served(site_dir, host.handler()) as origin:
        host.origin = origin
        yield host


@pytest.fixture(scope="module")
def build(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """Another build of the course: the built site with its home page's title begun by `title`, and
    its service worker written again for it (`serving`: as `mkdocs serve` writes it); `missing`, a
    file its service worker lists but the host has lost."""

    def another(title: str, *, serving: bool = False, missing: str | None = None) -> Path:
        site = tmp_path_factory.mktemp("build")
        shutil.copytree(site_dir, site, dirs_exist_ok=True)
        home = site / "index.html"
        home.write_text(home.read_text(encoding="utf-8").replace("<title>", f"<title>{title} ", 1), encoding="utf-8")
        write_service_worker(site, serving=serving)
        if missing:
            (site / missing).unlink()
        return site

    return another


@pytest.fixture
def a_reader(host: Host, open_context: Callable[..., BrowserContext]) -> Callable[..., Page]:
    """A new page in a context of its own on the host, service workers allowed. The host comes first, so
    its server outlives every context: stopped under a page still loading, it would fail the page's requests."""

    def open_(**options: Any) -> Page:
        return open_context(origin=host.origin, service_workers="allow", **options).new_page()

    return open_


def status(page: Page) -> Any:
    return page.locator(".lk-offline").get_by_role("status")


def choice(page: Page) -> Any:
    return page.get_by_role("checkbox", name=WORDS["offline_choice"])


def kept_caches(page: Page) -> list[str]:
    return sorted(name for name in page.evaluate("caches.keys()") if name.startswith("lessonkit-course-"))


def caches_seen_by_workers(context: BrowserContext) -> list[str] | None:
    """The kept courses, as the site's service worker sees them (no page of the site need be open)."""
    for worker in reversed(context.service_workers):
        try:
            return sorted(name for name in worker.evaluate("caches.keys()") if name.startswith("lessonkit-course-"))
        except PlaywrightError:  # a worker the browser has already retired
            continue
    return None


def cache_of(site: Path) -> str:
    return f"lessonkit-course-{written_course(site)['version']}"


def keeps_the_course(page: Page, site: Path) -> None:
    """Wait until the page says the whole course is kept, then hold the browser's caches to it."""
    megabytes = f"{written_course(site)['bytes'] / 1e6:.1f}"
    expect(status(page)).to_have_text(said("offline_kept", total=megabytes), timeout=ENGINE_BOOT_MS)
    assert kept_caches(page) == [cache_of(site)]


COUNTED = "Deploy the checkout service to the Mumbai region."


def count_real_tokens(page: Page) -> str:
    """What sample 1, edited to count `COUNTED` in real tokens, prints once it has run."""
    if page.get_by_role("textbox", name="Code of sample 1", exact=True).count() == 0:
        page.get_by_role("button", name="Edit sample 1", exact=True).click()
    page.get_by_role("textbox", name="Code of sample 1", exact=True).fill(
        f'from lessonkit import tokens\nprint(tokens.count("{COUNTED}"))\n'
    )
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    sample = page.locator(".lk-sample").first
    expect(sample.locator(".lk-sample-status")).to_have_text(re.compile(r"^Sample 1 (ran in your browser|could not run|raised)"))
    return sample.locator(".result").inner_text().strip()


def test_after_one_visit_every_lesson_reads_runs_and_searches_with_no_network(a_reader, host, site_dir, panel_paths):
    page = a_reader()
    (_, first_path), (other, other_path) = sorted(panel_paths.items())[:2]
    page.goto(first_path)
    # Only once the page's own engine is ready does the course begin to be kept.
    expect(page.locator("html")).to_have_attribute("data-lk-engine", "ready", timeout=ENGINE_BOOT_MS)
    keeps_the_course(page, site_dir)
    page.evaluate(FOLLOW, other_path)
    expect(page.locator(f'section.lk-panel[data-lesson="{other}"]')).to_be_visible()
    # A real token count, once online: the ranks it fetched are kept with the course from then on.
    assert count_real_tokens(page) == str(tokens.count(COUNTED))

    host.cut()
    page.context.set_offline(True)
    # Loaded afresh with no network, the page starts its engine from what was kept.
    page.reload()
    expect(page.locator(f'section.lk-panel[data-lesson="{other}"]')).to_have_attribute("data-engine", "ready", timeout=ENGINE_BOOT_MS)
    page.get_by_role("button", name="Run sample 1").click()
    expect(page.get_by_text(re.compile(r"^Sample 1 ran in your browser"))).to_be_visible()
    expect(status(page)).to_have_text(said("offline_kept"))
    assert count_real_tokens(page) == str(tokens.count(COUNTED)), "a count made once online does not count again offline"
    # The panel, asked for what its model reads in real tokens at the end of its timeline, counts as CPython does.
    experiment = PanelPage(page, panel(other))
    experiment.count_real_tokens()
    end = experiment.spec.timeline.end
    experiment.seek(end)
    experiment.expect_real_count({**experiment.spec.defaults(), experiment.spec.timeline.name: end})

    search = page.get_by_role("textbox", name="Search").first
    search.click()
    # Material's search worker reads the index first; a query typed before that is dropped.
    expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching")
    search.press_sequentially("provenance", delay=20)
    expect(page.locator(".md-search-result__item").first).to_be_visible()


def test_a_new_build_replaces_the_kept_course_whole_on_the_readers_next_visit(a_reader, host, site_dir, build):
    newer = build("Newer")
    page = a_reader()
    page.goto("/")
    keeps_the_course(page, site_dir)

    host.deploy(newer)
    page.reload()
    expect(status(page)).to_have_text(said("offline_newer_kept"))
    # This visit goes on with the build it began with: no page mixes the two.
    assert not page.title().startswith("Newer")
    assert kept_caches(page) == sorted([cache_of(site_dir), cache_of(newer)])

    context = page.context
    page.close()
    # The reader's next visit: the browser activates the newer build once no page uses the older
    # one, but not at the instant the last page closes, and a visit begun before that is still
    # answered by the older build. So the visit begins once the newer build has taken over (its
    # activation deletes the older cache), read from the worker itself, as no page is open.
    page = context.new_page()
    for _ in range(200):
        if caches_seen_by_workers(context) == [cache_of(newer)]:
            break
        page.wait_for_timeout(100)
    page.goto("/")
    expect(page).to_have_title(re.compile("^Newer "))
    expect(status(page)).to_have_text(said("offline_kept"))
    assert kept_caches(page) == [cache_of(newer)]


def test_a_build_that_arrives_in_part_leaves_the_kept_course_working(a_reader, host, site_dir, build, panel_paths):
    lesson_path = sorted(panel_paths.values())[0]
    partial = build("Partial", missing="assets/snapshots/lessonkit.snapshot.2.gz")
    page = a_reader(expected_errors=("404",))
    page.goto("/")
    keeps_the_course(page, site_dir)

    host.deploy(partial)
    page.reload()
    expect(status(page)).to_have_text(said("offline_failed_kept", reason="assets/snapshots/lessonkit.snapshot.2.gz answered HTTP 404"))
    assert kept_caches(page) == [cache_of(site_dir)]

    # With no network, the course kept before still opens (its engine offline is the first test's).
    host.cut()
    context = page.context
    page.close()
    page = context.new_page()
    page.goto(lesson_path)
    expect(page.locator("section.lk-panel")).to_be_visible()
    page.goto("/")
    assert not page.title().startswith("Partial")


def test_turning_it_off_deletes_the_kept_course_and_the_choice_is_remembered(a_reader, host, site_dir):
    page = a_reader()
    page.goto("/")
    keeps_the_course(page, site_dir)
    expect(choice(page)).to_be_checked()

    choice(page).uncheck()
    expect(status(page)).to_have_text(WORDS["offline_cleared"])
    assert kept_caches(page) == []
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then((all) => all.length)") == 0

    # Checking it again keeps the course again: the data saver's test shows it.
    page.reload()
    expect(status(page)).to_have_text(WORDS["offline_off"])
    expect(choice(page)).not_to_be_checked()
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then((all) => all.length)") == 0


def test_a_connection_that_saves_data_keeps_the_course_only_when_the_reader_asks(a_reader, host, site_dir):
    page = a_reader()
    data_saver = page.context.new_cdp_session(page)
    data_saver.send("Emulation.setDataSaverOverride", {"dataSaverEnabled": True})
    page.goto("/")
    expect(status(page)).to_have_text(WORDS["offline_saves_data"])
    expect(choice(page)).not_to_be_checked()
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then((all) => all.length)") == 0

    choice(page).check()
    keeps_the_course(page, site_dir)


def test_a_full_storage_is_said_and_nothing_half_kept_stays(a_reader, host, site_dir):
    page = a_reader()
    # Room for a fifth of the course: Chromium's own quota for the site, through its debugging protocol.
    quota = page.context.new_cdp_session(page)
    quota.send("Storage.overrideQuotaForOrigin", {"origin": host.origin, "quotaSize": written_course(site_dir)["bytes"] // 5})
    page.goto("/")
    megabytes = f"{written_course(site_dir)['bytes'] / 1e6:.1f}"
    expect(status(page)).to_have_text(
        said("offline_failed", reason=WORDS["offline_storage_full"].replace("{total}", megabytes)), timeout=ENGINE_BOOT_MS
    )
    assert kept_caches(page) == []


# Where the reader has switched storage off for the site, Chromium refuses to register a service worker.
REFUSE_SERVICE_WORKERS = """
ServiceWorkerContainer.prototype.register = async () => {
    throw new DOMException("Failed to register a ServiceWorker: The user denied permission to use Service Worker.", "SecurityError");
};
"""


def test_storage_switched_off_is_said_without_an_error(a_reader, host):
    page = a_reader()
    page.context.add_init_script(REFUSE_SERVICE_WORKERS)
    page.goto("/")
    expect(status(page)).to_have_text(WORDS["offline_storage_off"])
    expect(choice(page)).to_be_disabled()


def test_make_serve_clears_a_kept_course_and_shows_each_page_as_it_is_now(a_reader, host, site_dir, build):
    serving = build("Served", serving=True)
    page = a_reader()
    page.goto("/")
    keeps_the_course(page, site_dir)

    host.deploy(serving)
    page.reload()
    # The kept page may show for a moment; the page as it is now replaces it, and nothing stays kept.
    expect(page).to_have_title(re.compile("^Served "))
    expect(status(page)).to_have_text(WORDS["offline_serving"])
    assert kept_caches(page) == []
