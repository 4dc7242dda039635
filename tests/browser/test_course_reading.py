"""The course around the lessons, as a reader meets it: a glossary definition by keyboard, Copy for
AI, a notebook's figures, a page on paper, both colour schemes, and the page for an address that is
not in the course."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from lessonkit import tokens
from lessonkit.authoring.glossary import load_glossary
from tests.browser.conftest import ROOT, SITE
from tests.browser.harness import hold_back_the_engine, open_panel

LESSON = "/lessons/context-compression/"


def definition(anchor: str) -> str:
    return next(term.tooltip for term in load_glossary(ROOT / "docs") if term.anchor == anchor)


def test_a_glossary_terms_definition_shows_when_the_keyboard_reaches_it(page: Page):
    hold_back_the_engine(page.context)  # the lesson's prose is read here, not its experiment
    page.goto(LESSON)
    page.get_by_role("button", name="Copy for AI").focus()
    first = page.locator("article a.lk-term").first
    # Tab from the control before the title, as a keyboard reader does, until the first term has focus.
    for _ in range(10):
        page.keyboard.press("Tab")
        if first.evaluate("link => link === document.activeElement"):
            break
    expect(first).to_be_focused()
    tooltip = page.get_by_role("tooltip").filter(has_text=definition("window"))
    expect(tooltip).to_be_visible()
    # The definition is the link's accessible description: what a screen reader says after its name.
    assert first.evaluate("link => document.getElementById(link.getAttribute('aria-describedby')).textContent") == definition("window")


def hover_listeners(page: Page, selector: str) -> list[str]:
    """The mouseenter and mouseleave listeners on the first element `selector` finds."""
    devtools = page.context.new_cdp_session(page)
    try:
        element = devtools.send("Runtime.evaluate", {"expression": f"document.querySelector({selector!r})"})["result"]["objectId"]
        listeners = devtools.send("DOMDebugger.getEventListeners", {"objectId": element})["listeners"]
        return sorted(listener["type"] for listener in listeners if listener["type"] in ("mouseenter", "mouseleave"))
    finally:
        devtools.detach()


def test_the_theme_gives_its_tooltips_to_the_glossarys_terms_and_leaves_each_claim_and_permanent_link_its_own_title(page: Page):
    hold_back_the_engine(page.context)
    page.goto(LESSON)
    # The theme's start-up has run once it watches the first term for the pointer (its tooltip).
    for _ in range(50):
        if hover_listeners(page, "article a.lk-term"):
            break
        page.wait_for_timeout(100)
    assert hover_listeners(page, "article a.lk-term") == ["mouseenter", "mouseleave"]
    # A claim keeps the title that says it is checked, and the browser shows it; the theme mounted
    # no tooltip of its own on it, which would cost its start-up once per claim (bench/FINDINGS.md).
    assert hover_listeners(page, "article .lk-claim") == []
    claims = page.locator("article .lk-claim")
    assert claims.count() > 10
    assert claims.evaluate_all("spans => spans.filter((span) => !span.title.startsWith('Checked against')).length") == 0
    # So does each heading's permanent link: the API reference has one per documented object (theme_bundle).
    permanent_links = "article a.headerlink"
    links = page.locator(permanent_links)
    # One per heading the build wrote; with none, the checks below would hold of nothing.
    written = (SITE / LESSON.strip("/") / "index.html").read_text(encoding="utf-8").count('class="headerlink"')
    assert written > 0 and links.count() == written
    assert hover_listeners(page, permanent_links) == []
    assert links.evaluate_all("links => links.map((link) => link.title)") == ["Permanent link"] * links.count()


def test_copy_for_ai_copies_the_pages_markdown_with_its_numbers_as_shown(page: Page):
    hold_back_the_engine(page.context)  # the page's Markdown is the build's: Python adds nothing to it
    page.goto(LESSON)
    page.get_by_role("button", name="Copy for AI").click()
    markdown = (SITE / "lessons" / "context-compression" / "index.md").read_text(encoding="utf-8")
    # The copy's weight in real tokens, as the build counted it and CPython counts it here.
    said = f"Copied this page as Markdown: {tokens.count(markdown, 'o200k_base'):,} o200k_base tokens."
    expect(page.get_by_role("status").filter(has_text=said)).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == markdown
    assert "at twenty-three tokens" in " ".join(copied.split()) and "[[" not in copied


def test_copy_for_ai_follows_instant_navigation_to_the_next_page(page: Page):
    page.goto("/")
    page.get_by_role("link", name="Glossary").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Glossary")
    page.get_by_role("button", name="Copy for AI").click()
    expect(
        page.get_by_role("status").filter(has_text=re.compile(r"^Copied this page as Markdown: [\d,]+ o200k_base tokens\.$"))
    ).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()").startswith("# Glossary")


# Every layout shift the page makes, with what moved, from before its first script.
RECORD_SHIFTS = """(() => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__shifts.push({value: entry.value, moved: entry.sources.map((source) => String(source.node?.className ?? source.node))});
  }).observe({type: "layout-shift", buffered: true});
})()"""


def test_copy_for_ai_keeps_its_place_from_the_first_paint_so_nothing_moves_when_it_comes_to_life(page: Page):
    # A phone's width, where a button added after load pushed a notebook's first lines down.
    page.set_viewport_size({"width": 412, "height": 823})
    page.add_init_script(RECORD_SHIFTS)
    page.goto("/notebooks/working-memory/")
    expect(page.get_by_role("button", name="Copy for AI")).to_be_visible()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    shifts = page.evaluate("() => window.__shifts")
    # Nothing a reader could see: a notebook's own clipboard box may settle by a fraction of a pixel
    # as the page loads (a shift of a few hundred-thousandths); the button added after load moved the
    # whole notebook, a shift of about a fifth. Lighthouse gives the sum to three decimals.
    assert sum(shift["value"] for shift in shifts) < 0.0005, shifts


def test_a_notebooks_figure_is_fetched_only_as_the_reader_nears_it_and_moves_nothing_when_it_arrives(page: Page):
    page.set_viewport_size({"width": 412, "height": 823})
    page.add_init_script(RECORD_SHIFTS)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto("/notebooks/tool-result-clearing/")
    page.wait_for_load_state("load")
    figure = page.locator(".jp-RenderedImage img").last
    address = figure.evaluate("(image) => image.src")
    # Chromium fetches a lazy image once it is within a few screens; the last figure is further down.
    below = figure.evaluate("(image) => image.getBoundingClientRect().top - innerHeight")
    assert below > 2500, f"the page's last figure is only {below} px below the screen: nothing here tests lazy loading"
    assert address.endswith(".png") and address not in asked, f"{address} was fetched before the reader came near it"
    figure.scroll_into_view_if_needed()
    expect(figure).to_have_js_property("complete", True)
    assert figure.evaluate("(image) => image.naturalWidth") == int(figure.get_attribute("width") or 0)
    assert address in asked, f"{address} was not fetched once the reader reached it"
    shifts = page.evaluate("() => window.__shifts")
    assert sum(shift["value"] for shift in shifts) < 0.0005, shifts


def test_on_paper_a_panel_keeps_its_state_and_drops_what_only_a_screen_can_use(page: Page):
    # Every setting of this panel is answered from the build's views: the state printed is the one shown.
    hold_back_the_engine(page.context)
    lesson = open_panel(page, "context-compression", LESSON, engine=False)
    lesson.choose("Policy", "Summarize older turns")
    lesson.seek(60)
    status = lesson.status
    expect(status).to_contain_text("T1, S, T8")
    shown = status.inner_text()
    panel = page.locator("section.lk-panel")
    page.emulate_media(media="print")
    expect(status).to_be_visible()
    assert status.inner_text() == shown
    expect(page.get_by_role("combobox", name="Policy")).to_be_visible()
    for button in panel.get_by_role("button").all():
        expect(button).to_be_hidden()
    expect(page.get_by_role("button", name="Copy for AI")).to_be_hidden()


# What a scheme switch changes: a transition of one of these would fade the old scheme into the new.
COLOURS = ("color", "background-color", "border-color", "fill", "box-shadow", "text-decoration-color")


def test_the_reader_can_switch_to_the_dark_scheme_and_back_with_no_colour_fading(page: Page):
    page.goto("/glossary/")
    # Every transition the page starts from here on, whenever it ends: the glossary's links, code and
    # navigation all fade their colour on hover, and would on a switch too, but for the course's mark.
    page.evaluate(
        "window.lkTransitions = [];document.addEventListener('transitionrun', (event) => lkTransitions.push(event.propertyName), true)"
    )
    # Material's scheme toggle: one visible label at a time, for the radio input of the other scheme.
    toggle = page.locator('form[data-md-component="palette"] label:visible')
    # The browser's own parts (the page's scrollbar) follow the scheme: the theme writes it into the page's one element.
    schemes = page.locator('meta[name="color-scheme"]')
    toggle.click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    expect(schemes).to_have_count(1)
    expect(schemes).to_have_attribute("content", "dark")
    toggle.click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "default")
    expect(schemes).to_have_attribute("content", "light")
    # The mark is gone once the switch is drawn, so a hover fades again as the theme means it to.
    expect(page.locator("html")).not_to_have_class(re.compile(r"\blk-scheme-switching\b"))
    faded = [name for name in page.evaluate("lkTransitions") if name in COLOURS]
    assert not faded, f"switching the scheme faded {len(faded)} colours: {sorted(set(faded))}"


# What the theme's start-up changes that would restyle the whole page, seen once the body is being
# read: the head's own scripts make the same changes before it, where they cost nothing.
RECORD_THEME_CHANGES = """(() => {
  window.__themeChanges = [];
  const rootMarks = (value) => (value || "").split(/\\s+/).filter((mark) => ["no-js", "js", "js-focus-visible"].includes(mark)).sort().join(" ");
  new MutationObserver((records) => {
    if (!document.body) return;
    for (const record of records) {
      const target = record.target;
      if (record.type === "childList") {
        for (const node of record.removedNodes) if (node.nodeName === "TABLE") window.__themeChanges.push("moved a table");
      } else if (target.parentNode === document.head && ["href", "src"].includes(record.attributeName) && record.oldValue !== target.getAttribute(record.attributeName)) {
        window.__themeChanges.push(`wrote the head's ${record.oldValue} again`);
      } else if (target.matches && target.matches('meta[name="color-scheme"]') && record.attributeName === "content") {
        window.__themeChanges.push(`wrote the page's colour scheme over "${record.oldValue}"`);
      } else if (target === document.documentElement && record.attributeName === "class" && rootMarks(record.oldValue) !== rootMarks(target.className)) {
        window.__themeChanges.push(`changed the root's classes from "${record.oldValue}"`);
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true });
})()"""


def test_the_themes_start_up_changes_nothing_that_restyles_the_whole_page_and_its_tables_look_as_the_theme_draws_them(page: Page):
    page.add_init_script(RECORD_THEME_CHANGES)
    page.goto("/how-it-works/")
    page.wait_for_load_state("load")
    # The theme's start-up has run (it mounts the content as the document is loaded, and leaves its
    # components' stream on the window), and a frame has been drawn since.
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("() => typeof window.component$") == "object"
    assert page.evaluate("() => window.__themeChanges") == []
    # The one element that gives the browser's own parts the page's scheme, written before the theme started.
    schemes = page.locator('meta[name="color-scheme"]')
    expect(schemes).to_have_count(1)
    expect(schemes).to_have_attribute("content", "light")
    tables = page.locator(".md-typeset table.lk-wrapped")
    assert tables.count() >= 2
    for table in tables.all():
        wrapped, ours, themes = table.evaluate(COMPARE_WITH_THE_THEMES_TABLE)
        assert wrapped, "a table the build wrapped is not inside the theme's two wrappers, once"
        assert ours == themes, "a table the build wrapped does not look as the theme draws a data table"


# Each code block of the page's content: whether it is an API signature, whether the theme mounted
# it (it names the block's <pre> so), its copy button and where the button sits, and whether the
# shell made it a focusable region (a block wider than the page that a keyboard must scroll).
CODE_BLOCKS = """() => [...document.querySelectorAll(".md-content pre > code")].map((code) => {
  const pre = code.parentElement, bar = pre.querySelector(":scope > nav.md-code__nav");
  const copy = bar?.querySelector('button.md-code__button[data-md-type="copy"]');
  return {
    signature: code.closest(".doc-signature") !== null,
    mounted: pre.id.startsWith("__code_"),
    copies: copy ? copy.getAttribute("data-clipboard-target") : null,
    barFirst: bar ? bar.nextElementSibling === code : null,
    overflows: code.scrollWidth > code.clientWidth,
    region: code.getAttribute("role") === "region" && code.tabIndex === 0 && Boolean(code.getAttribute("aria-label")),
  };
})"""


def test_the_theme_mounts_each_code_block_with_its_copy_button_and_leaves_the_references_signatures_to_the_shell(page: Page):
    # A phone's width, where some of the reference's signatures are wider than the page: the shell,
    # not the theme, makes each of those a focusable region.
    page.set_viewport_size({"width": 412, "height": 823})
    page.goto("/reference/working-memory/")
    page.wait_for_load_state("load")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    blocks = page.evaluate(CODE_BLOCKS)
    signatures = [block for block in blocks if block["signature"]]
    others = [block for block in blocks if not block["signature"]]
    assert signatures and others, f"{len(signatures)} signatures and {len(others)} other code blocks: nothing to compare"
    assert not [block for block in signatures if block["mounted"] or block["copies"]], "the theme mounted a signature"
    wide = [block for block in signatures if block["overflows"]]
    assert wide, "no signature is wider than the page at this width: nothing here tests the shell's regions"
    assert all(block["region"] for block in wide), "a signature wider than the page is not a focusable, named region"
    for block in others:
        assert block["mounted"] and block["copies"] and block["copies"].endswith(" > code"), f"a code block lacks its copy button: {block}"
        assert block["barFirst"], "a code block's copy button is not just before its code, where the theme puts it"


# A table the build wrapped beside its twin without a class, in wrappers of its own: the twin is what
# the theme's stylesheet calls a data table, so it has the theme's look, which the build's must match.
COMPARE_WITH_THE_THEMES_TABLE = """(table) => {
  const inner = table.parentElement, outer = inner.parentElement;
  const wrapped = inner.matches(".md-typeset__table") && outer.matches(".md-typeset__scrollwrap") && !outer.parentElement.closest(".md-typeset__table");
  const twin = table.cloneNode(true);
  twin.removeAttribute("class");
  const twinOuter = outer.cloneNode(false), twinInner = inner.cloneNode(false);
  twinInner.append(twin);
  twinOuter.append(twinInner);
  outer.after(twinOuter);
  const own = ["display", "font-size", "border-top-width", "border-top-style", "border-radius", "max-width", "overflow-x", "background-color", "width"];
  const cells = ["padding-top", "padding-left", "border-top-width", "text-align", "vertical-align", "font-weight", "min-width"];
  const look = (element) => [
    ...own.map((name) => getComputedStyle(element).getPropertyValue(name)),
    ...[element.querySelector("th"), element.querySelector("td")].flatMap((cell) => cells.map((name) => getComputedStyle(cell).getPropertyValue(name))),
  ];
  const result = [wrapped, look(table), look(twin)];
  twinOuter.remove();
  return result;
}"""


def test_an_address_outside_the_course_gets_a_page_that_leads_back_in(page: Page):
    page.goto("/404.html")
    expect(page.locator("h1")).to_have_text("This page is not in the course")
    page.get_by_role("link", name="the glossary").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Glossary")


def test_the_404_page_offers_no_markdown_copy(page: Page):
    page.goto("/404.html")
    expect(page.locator("h1")).to_have_text("This page is not in the course")
    expect(page.get_by_role("button", name="Copy for AI")).to_have_count(0)
