// @ts-check
// lessonkit's browser shell, loaded on every page as an ES module. It brings each live experiment
// (<section class="lk-panel">) and each runnable sample (<div class="lk-sample">) to life. It is
// generic: a new lesson brings its own spec and engine in Python and needs no new JavaScript.
// With JavaScript off, the page still shows everything the build computed.
import { Engine } from "./engine.js";
import { Panel } from "./panel.js";
import { enhanceExercises, showLessonProgress } from "./exercises.js";
import { enhanceSamples } from "./samples.js";
import { Storage } from "./storage.js";
import { fill, h } from "./dom.js";
import { onEveryPage } from "./navigation.js";
import { keepTheCourseOffline } from "./offline.js";
import { PAGE_WORDS as WORDS } from "./words.js";

// One worker for the whole page (and, with instant navigation, for the whole visit).
const engine = new Engine(new URL("worker.js", import.meta.url));
engine.subscribe(() => {
  document.documentElement.dataset.lkEngine = engine.state;
});

/**
 * A table, a notebook cell or a line of code wider than the page scrolls sideways; a keyboard reader can only
 * scroll what can take focus, so each one that does scroll becomes a named, focusable region.
 * @param {ParentNode} root
 */
function focusableScrollers(root) {
  // Each region's name is unique on the page, as landmarks' names must be: tables and cells are
  // numbered in reading order, a signature is named by the object it signs.
  /** @type {Array<[string, (element: HTMLElement, number: number) => string]>} */
  const kinds = [
    [".md-typeset__scrollwrap", (element, number) => fill(WORDS.scroll_table, { number })],
    [".jupyter-wrapper .jp-Cell, .jupyter-wrapper .highlight-ipynb", (element, number) => fill(WORDS.scroll_cell, { number })],
    // A long signature in the API reference: the course's build has Material leave signatures alone (theme_bundle.py).
    [
      ".doc-signature pre > code",
      (element, number) => fill(WORDS.scroll_signature, { name: element.closest(".doc-object")?.querySelector("[id]")?.id ?? number }),
    ],
  ];
  // Every width is read before any attribute is written: the theme's stylesheet selects on `role`, so
  // a write between two reads would have the browser restyle the page for the next read.
  const scrolling = kinds.flatMap(([selector, name]) => {
    const all = [...document.querySelectorAll(selector)];
    return [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(`:is(${selector}):not([tabindex])`))]
      .filter((scroller) => scroller.scrollWidth > scroller.clientWidth)
      .map((scroller) => /** @type {[HTMLElement, string]} */ ([scroller, name(scroller, all.indexOf(scroller) + 1)]));
  });
  for (const [scroller, label] of scrolling) {
    scroller.tabIndex = 0;
    scroller.setAttribute("role", "region");
    scroller.setAttribute("aria-label", label);
  }
}

// The panels brought to life and still on the page. Instant navigation swaps the page's content
// but keeps the window, so a panel whose section has gone is closed when the next page arrives.
const live = new Set();

function closeLeftPanels() {
  for (const panel of live) {
    if (panel.section.isConnected) continue;
    panel.close();
    live.delete(panel);
  }
}

/** @param {ParentNode} [root] */
function enhance(root = document) {
  closeLeftPanels();
  focusableScrollers(root);
  const panels = [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".lk-panel:not([data-engine])"))];
  const hasSamples = root.querySelector(".lk-sample:not([data-lk-sample])") !== null;
  const hasExercises = root.querySelector("fieldset.lk-exercise:not([data-lk-exercise])") !== null;
  if (root.querySelector(".lk-lesson-progress")) showLessonProgress(root, new Storage());
  if (!panels.length && !hasSamples && !hasExercises) return;
  const storage = new Storage();
  engine.start();
  for (const section of panels) {
    try {
      live.add(new Panel(section, { engine, storage }));
    } catch (error) {
      // A broken spec must not take the page down: the static view stays, with the reason beside it.
      section.dataset.engine = "failed";
      const reason = error instanceof Error ? error.message : String(error);
      section.prepend(h("p", { class: "lk-message" }, fill(WORDS.panel_not_started, { reason })));
    }
  }
  enhanceSamples(root, { engine, storage });
  enhanceExercises(root, { storage, tryIt });
}

/**
 * Set the page's experiment to a link's settings and bring it into view: an exercise's "Try it in
 * the experiment". False when no experiment on the page is running.
 * @param {string} settings
 */
function tryIt(settings) {
  const panel = [...live].find((each) => each.section.isConnected);
  if (!panel || !panel.followLink(settings)) return false;
  panel.section.scrollIntoView({ block: "start" });
  return true;
}

// Loaded async, the shell may run while the page is still being parsed: it enhances what is there
// now, the rest once parsing is done, and each page instant navigation brings in.
onEveryPage(() => enhance());

// Every page, with a panel or not: the course kept for reading offline, once this page's engine is ready.
keepTheCourseOffline({ engine, storage: new Storage(), onEveryPage });
