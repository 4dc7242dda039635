"""The authoring guide, followed literally: a new lesson from its snippets alone, live in the browser.

The test copies the project into a temporary folder and writes every snippet of docs/authoring.md
whose title names a path: a title "path" is the whole file; "path: add under LINE" inserts the
snippet after the first line that reads LINE. It then runs what the guide says to run: the new
lesson's tests, its claims and sample, the API reference's checks, a strict build; and it moves the
new panel's slider in Chromium and reads the status the guide quotes. If the guide and the platform
drift apart, this fails, naming the step.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from lessonkit.authoring.exercises import find_exercises
from lessonkit.authoring.local_site import served
from tests.browser.harness import ENGINE_BOOT_MS, Watch, watched_context

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "authoring.md"
# A titled fence: ```json title="fixtures/truncation.json" ... ```, at the start of a line.
SNIPPET = re.compile(
    r'^(?P<fence>`{3,})[\w-]*[ \t]+title="(?P<title>[^"]+)"[ \t]*\n(?P<body>.*?)^(?P=fence)[ \t]*$', re.MULTILINE | re.DOTALL
)
ADD_UNDER = re.compile(r"^(?P<path>[^:]+): add under (?P<line>.+)$")
QUOTED_STATUS = re.compile(r'Move \*\*Window\s+budget\*\* to (?P<budget>\d+): the status reads "(?P<status>[^"]+)"')


def snippets() -> list[tuple[str, str]]:
    return [(match["title"], match["body"]) for match in SNIPPET.finditer(GUIDE.read_text(encoding="utf-8"))]


def copy_project(target: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if name == "node_modules" or not source.is_file():  # a worktree's node_modules is a link; deleted files are listed too
            continue
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, destination)
    # Pyodide from the lock, as `npm ci` put it in the checkout; and what this checkout's builds kept:
    # the notebooks they ran, and what they made from the engine.
    (target / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    for kept in ("lessonkit-notebooks", "lessonkit-engine"):
        if (ROOT / ".cache" / kept).is_dir():
            shutil.copytree(ROOT / ".cache" / kept, target / ".cache" / kept)


def apply(project: Path, title: str, body: str) -> None:
    adding = ADD_UNDER.match(title)
    if adding is None:
        path = project / title
        assert not path.exists(), f"the guide's {title} would overwrite a file of the project"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
        return
    path = project / adding["path"]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next((index for index, line in enumerate(lines) if line.strip() == adding["line"].strip()), None)
    assert at is not None, f"the guide says to add under {adding['line']!r} in {adding['path']}, which has no such line"
    lines[at + 1 : at + 1] = [body]
    path.write_text("".join(lines), encoding="utf-8")


def run(project: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(project / "src"), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", *command], cwd=project, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def new_lesson(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("guide") / "lessonkit"
    copy_project(project)
    written = snippets()
    assert [title for title, _ in written][:2] == ["fixtures/truncation.json", "src/lessonkit/lessons/truncation/window.py"]
    for title, body in written:
        apply(project, title, body)
    return project


def test_the_guides_lesson_is_new_files_named_by_its_id_and_touches_no_shared_file():
    titles = [title for title, _ in snippets()]
    assert not [title for title in titles if ADD_UNDER.match(title)], "the guide edits a file the course already has"
    assert not [title for title in titles if (ROOT / title).exists()], "the guide writes over a file the course already has"
    # Every file is the lesson's own: its id, or its package's name, is in the path.
    assert not [title for title in titles if not re.search(r"(^|/)truncation(\.|/)", title)], titles


def test_the_guides_lesson_passes_its_own_tests_claims_and_sample(new_lesson: Path):
    result = run(
        new_lesson,
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "tests/lessons/truncation/test_truncation.py",
        "docs/lessons/truncation.md",
        "tests/course/test_api_reference.py",
        "tests/test_prose_numbers.py",
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    # The engine's four tests, the page's claims and sample, and the reference's checks all ran.
    passed = int(re.search(r"(\d+) passed", result.stdout).group(1))
    assert passed > 4 + 6 + 1


def test_the_guides_lesson_builds_and_its_panel_answers_in_the_browser(new_lesson: Path, browser: Browser):
    build = run(new_lesson, "mkdocs", "build", "--strict")
    assert build.returncode == 0, build.stderr[-4000:]
    quoted = QUOTED_STATUS.search(" ".join(GUIDE.read_text(encoding="utf-8").split()))
    assert quoted, "the guide no longer quotes the status a reader sees at a budget"
    with served(new_lesson / "site") as origin:
        watch = Watch(origin)
        context = watched_context(browser, origin, watch)
        page = context.new_page()
        page.goto("/lessons/tool-result-clearing/")
        # The navigation found the new lesson by itself, after the one its page says it follows.
        lessons = page.get_by_role("navigation", name="Navigation").get_by_role("link", name="Truncation", exact=True)
        expect(lessons.first).to_be_attached()
        page.goto("/lessons/truncation/")
        panel = page.get_by_role("region", name="Experiment: Truncation")
        expect(panel.get_by_role("status")).to_have_text("3 of 5 messages fit in 16 tokens: M3, M4, M5; the order number is gone.")
        expect(page.locator("section.lk-panel")).to_have_attribute("data-engine", "ready", timeout=ENGINE_BOOT_MS)
        panel.get_by_role("slider", name="Window budget").fill(quoted["budget"])
        expect(panel.get_by_role("status")).to_have_text(quoted["status"])
        # The guide's exercise, answered right through its names: the page says so in the engine's words.
        (exercise,) = find_exercises((new_lesson / "docs" / "lessons" / "truncation.md").read_text(encoding="utf-8"))
        right = next(option for option in exercise.options if option.value == 32)
        asked = page.get_by_role("group", name=exercise.question, exact=True)
        asked.get_by_role("radio", name=right.label, exact=True).check()
        asked.get_by_role("button", name="Check", exact=True).click()
        expect(asked.get_by_role("status")).to_have_text(
            "Right. At 32 tokens the window keeps M1, M2, M3, M4, M5; the order number is kept."
        )
        context.close()
    assert not watch.problems(), "\n".join(watch.problems())
