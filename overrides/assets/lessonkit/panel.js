// @ts-check
// One live experiment: the <section class="lk-panel"> the build rendered, brought to life. Nothing
// here knows about any particular lesson: the controls, the timeline, every word the panel shows
// and every view come from the spec and the engine, both declared in Python.
import { Address } from "./address.js";
import { Baseline } from "./baseline.js";
import { button, Settings } from "./controls.js";
import { downloadJSON, fill, h, Messages } from "./dom.js";
import { Expander } from "./fullscreen.js";
import { Notes } from "./notes.js";
import { decodeState, encodeState, isState, paramsKey } from "./params.js";
import { Clock, latestMark } from "./playback.js";
import { RealTokens } from "./real-tokens.js";
import { TimelineControls } from "./timeline.js";
import { PAGE_WORDS } from "./words.js";

/** @typedef {import("./types/spec.js").PanelSpec} PanelSpec */
/** @typedef {import("./types/spec.js").Params} Params */
/** @typedef {import("./types/spec.js").View} View */
/** @typedef {import("./engine.js").Engine} Engine */
/** @typedef {import("./storage.js").Storage} Storage */

/**
 * A view the panel shows or wants, by its cache key (params.js paramsKey).
 * @typedef {object} Shown
 * @property {string} key
 * @property {Params} params
 * @property {View} view
 * @property {Params | null} [baseline]
 */

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
const PENDING_GRACE_MS = 150;

/**
 * The lesson's own stylesheet, which the build links in the page's head. When the reader arrives
 * through the site's instant navigation the head is not reloaded, so the shell links it itself.
 * @param {string | undefined} sheet  relative to the shell's assets
 */
function ensureStylesheet(sheet) {
  if (!sheet) return;
  const href = new URL(sheet, import.meta.url).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((link) => /** @type {HTMLLinkElement} */ (link).href === href)) return;
  document.head.append(h("link", { rel: "stylesheet", href }));
}

export class Panel {
  // The panel's life: the site's instant navigation takes its section off the page but keeps the
  // window, the document and the engine, which would otherwise keep every listener the panel gave
  // them, and keep a playing timeline asking the engine for views nobody sees (see close()).
  #life = new AbortController();

  /**
   * @param {HTMLElement} section  as lessonkit.panel.render wrote it: its spec, its initial view, its status and view
   * @param {{engine: Engine, storage: Storage}} context
   */
  constructor(section, { engine, storage }) {
    const { signal } = this.#life;
    this.section = section;
    this.engine = engine;
    /** @type {PanelSpec} */
    this.spec = JSON.parse(section.dataset.spec || "null");
    this.lesson = this.spec.lesson;
    this.words = this.spec.words;
    this.status = /** @type {HTMLElement} */ (section.querySelector(".lk-status"));
    this.viewBox = /** @type {HTMLElement} */ (section.querySelector(".lk-view"));
    this.refusal = /** @type {HTMLElement | null} */ (section.querySelector(".lk-refusal")) || h("p", { class: "lk-refusal", role: "alert", hidden: true });
    this.engineBox = section.querySelector(".lk-engine") || h("div", { class: "lk-engine", "aria-live": "polite" });
    this.answeredBy = h("p", { class: "lk-answered-by" });
    // How much of the engine has arrived: beside the engine's live region, not in it, so a screen
    // reader hears the stage change (downloading, starting) and not every hundredth of a second.
    this.downloaded = h("progress", { class: "lk-engine-progress", "aria-label": this.words.engine_progress_label });
    this.downloadedText = h("span", { class: "lk-engine-amount" });
    this.downloadBox = h("div", { class: "lk-engine-download", hidden: true }, this.downloaded, this.downloadedText);
    ensureStylesheet(section.dataset.stylesheet);
    // The build's views answer while Python starts. A page reached by the site's navigation finds
    // Python running, and then reading the table would only hold up the page it came to show.
    if (this.spec.precomputed && engine.state !== "ready") engine.preload(this.lesson, new URL(this.spec.precomputed, import.meta.url).href);

    // The build's view of the defaults is already on the page: first paint never waits for Python.
    /** @type {View} */
    const initial = JSON.parse(section.dataset.initialView || "null");
    /** @type {Shown} */
    this.current = { key: paramsKey(this.lesson, this.spec.defaults), params: this.spec.defaults, view: initial };
    /** @type {{key: string, params: Params, baseline: Params | null}} */
    this.wanted = { key: this.current.key, params: this.current.params, baseline: null };
    /** @type {string | null} the key of the view asked of the engine and not yet answered */
    this.asked = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.dimming = undefined;
    /** @type {string | undefined} what the engine box says, as state|reason|pending */
    this.engineShown = undefined;
    this.linked = false;
    this.neighboursRead = false;
    engine.remember(this.lesson, this.spec.defaults, initial);

    this.messages = new Messages();
    this.settings = new Settings(this.spec, { changed: () => this.#settingsChanged() });
    this.notes = new Notes({ spec: this.spec, storage, messages: this.messages });
    this.baseline = new Baseline({
      spec: this.spec,
      storage,
      messages: this.messages,
      current: () => ({ params: this.current.params, view: this.current.view }),
      changed: () => this.#request(),
    });
    this.expander = new Expander(section, this.words, signal);
    this.address = new Address(section, () => encodeState(this.spec, this.#linkState()), { signal });
    // What the panel's model reads, in real tokens, when the reader asks (where it reads text at all).
    this.realTokens = this.spec.real_tokens ? new RealTokens({ spec: this.spec, engine, shown: () => this.current.params }) : null;

    const tools = h(
      "div",
      { class: "lk-tools" },
      this.baseline.capture,
      this.baseline.clear,
      button(this.words.export, "lk-export", () => this.#export()),
      button(this.words.copy_link, "lk-copy-link", () => this.#copyLink()),
      this.realTokens?.button ?? null,
      this.expander.button,
    );

    this.motion = window.matchMedia(REDUCED_MOTION);
    const { timeline, playback } = this.spec;
    /** @type {TimelineControls | undefined} */
    this.time = undefined;
    /** @type {Clock | undefined} */
    this.clock = undefined;
    if (timeline) {
      // Python's Panel refuses a timeline without the wording of its playback.
      if (!playback) throw new Error(fill(PAGE_WORDS.spec_without_playback, { lesson: this.lesson }));
      const clock = new Clock({
        end: timeline.end,
        marks: timeline.marks.map((mark) => mark.at),
        speed: playback.default_speed,
        stepping: this.motion.matches,
        onChange: (clock) => this.#tick(clock),
      });
      const time = new TimelineControls(timeline, playback, {
        primary: () => clock.toggle(),
        restart: () => clock.restart(),
        next: () => clock.next(),
        seek: (seconds) => clock.seek(seconds),
        speed: (speed) => clock.setSpeed(speed),
      });
      this.time = time;
      this.clock = clock;
      time.showStepping(this.motion.matches);
      this.motion.addEventListener(
        "change",
        (event) => {
          clock.setStepping(event.matches);
          time.showStepping(event.matches);
        },
        { signal },
      );
      // A reader who leaves the tab is not watching: pause rather than play on unseen.
      document.addEventListener(
        "visibilitychange",
        () => {
          if (document.hidden && clock.playing) clock.pause();
        },
        { signal },
      );
    }

    this.controls = h("div", { class: "lk-controls" }, this.settings.element, this.notes.fieldsElement, this.time ? this.time.element : null, tools);
    const placeholder = section.querySelector(".lk-controls");
    if (placeholder) placeholder.replaceWith(this.controls);
    else section.prepend(this.controls);
    this.controls.after(this.messages.element, this.engineBox, this.downloadBox);
    if (!this.refusal.isConnected) this.status.after(this.refusal);
    this.refusal.after(this.baseline.element, this.answeredBy);
    if (this.realTokens) this.answeredBy.after(this.realTokens.line);
    this.section.append(this.notes.element);
    this.baseline.showNow(initial);

    this.#applyLink();
    if (this.clock) this.#tick(this.clock);
    else this.#request();

    const unsubscribe = engine.subscribe(() => {
      this.#showEngine();
      this.realTokens?.engineChanged();
      if (engine.state !== "ready") return;
      // Views asked for while the engine was down are asked for again once it is up.
      this.#fetchWanted();
      this.#readNeighboursViews();
    });
    signal.addEventListener("abort", unsubscribe);
  }

  /** Whether the reader has left this panel's page (close() has run). */
  get closed() {
    return this.#life.signal.aborted;
  }

  /**
   * The reader has left the page: the shell calls this once the site's navigation has taken the
   * section away. The timeline stops where it is, and the window, the document and the engine,
   * which the next page keeps, no longer hear from or call into this panel. What the reader wrote
   * is already in storage: notes and baselines are saved as they change.
   */
  close() {
    if (this.closed) return;
    this.clock?.stop();
    clearTimeout(this.dimming);
    this.#life.abort();
  }

  /**
   * The precomputed views of the lessons before and after this one (named by the build), read into
   * the engine once Python runs and the page is idle: the engine outlives the page when the reader
   * follows the site's navigation, and the next lesson then answers its first change from memory.
   */
  #readNeighboursViews() {
    if (this.neighboursRead || !this.section.dataset.neighbourViews) return;
    this.neighboursRead = true;
    const read = () => {
      /** @type {Array<[string, string]>} [lesson, its table relative to the shell's assets] */
      const neighbours = JSON.parse(this.section.dataset.neighbourViews || "[]");
      const tables = neighbours.map(([lesson, views]) =>
        this.engine.preload(lesson, new URL(views, import.meta.url).href).then((count) => (count ? lesson : null)),
      );
      // For the curious (and the tests): which lessons' views the engine now holds.
      Promise.all(tables).then((read) => {
        this.section.dataset.neighbourViewsRead = read.filter(Boolean).join(" ");
      });
    };
    if ("requestIdleCallback" in window) requestIdleCallback(read, { timeout: 2000 });
    else setTimeout(read, 500);
  }

  /**
   * Settings from the page's link (#budget=36&policy=evict&time=60), or a visible refusal and the defaults.
   * @param {string} [fragment]  another link's settings; the page's own link when left out
   * @returns {boolean} whether the settings were shown
   */
  #applyLink(fragment = location.hash.slice(1)) {
    // percent-decoded once, by decodeState
    if (!isState(fragment)) return false;
    const decoded = decodeState(this.spec, fragment);
    if (decoded.problems) {
      this.messages.set("link", fill(this.words.link_refused, { reason: decoded.problems.join("; ") }));
      return false;
    }
    this.linked = true;
    this.messages.set("link", null);
    this.settings.write(decoded.params);
    // A moment in a link is checked as one: a number within the timeline.
    if (this.clock && this.spec.timeline) this.clock.seek(/** @type {number} */ (decoded.params[this.spec.timeline.name]));
    return true;
  }

  /**
   * Show the settings a link's fragment carries, by the same path as a link the page was opened
   * with: an exercise's "Try it in the experiment" uses it. The page's address then carries them.
   * @param {string} fragment  "budget=24&policy=evict&time=30"
   * @returns {boolean} whether the settings were shown (otherwise the panel says why not)
   */
  followLink(fragment) {
    if (this.closed || !this.#applyLink(fragment)) return false;
    // With a clock, seeking asked for the view already (each tick does).
    if (!this.clock) this.#request();
    this.#rememberInURL();
    return true;
  }

  /** The settings and the moment the reader is looking at, as a link would carry them. */
  #linkState() {
    const state = this.settings.read();
    if (this.clock && this.time && this.spec.timeline) state[this.spec.timeline.name] = this.time.shownTime(this.clock.time);
    return state;
  }

  /** Keep the page's own address in step with the experiment, once the reader has touched it (see address.js for when). */
  #rememberInURL() {
    if (this.linked) this.address.follow();
  }

  async #copyLink() {
    this.linked = true;
    this.address.write();
    const url = `${location.origin}${location.pathname}${location.search}#${encodeState(this.spec, this.#linkState())}`;
    try {
      await navigator.clipboard.writeText(url);
      this.messages.set("link", fill(this.words.link_copied, { url }), "note");
    } catch {
      // No clipboard (permissions, an old browser): the link is shown to copy by hand.
      this.messages.set("link", fill(this.words.link_not_copied, { url }), "note");
    }
  }

  /** Any change of a setting recomputes and rewinds; some lessons then play again by themselves. */
  #settingsChanged() {
    this.linked = true;
    this.messages.set("link", null);
    if (this.clock) {
      this.clock.restart();
      if (this.spec.playback?.play_on_change && !this.motion.matches) this.clock.play();
    } else {
      this.#request();
      this.#rememberInURL();
    }
  }

  /** @param {Clock} clock */
  #tick(clock) {
    const { time } = this;
    if (!time) return; // only a panel with a timeline has a clock
    time.showPhase(clock.phase);
    time.showTime(time.shownTime(clock.time));
    if (!clock.playing && clock.phase !== "start") this.linked = true;
    this.#rememberInURL();
    this.#request();
  }

  /** @returns {Params} */
  #params() {
    const params = this.settings.read();
    const { timeline } = this.spec;
    if (this.clock && this.time && timeline) {
      params[timeline.name] = latestMark(timeline.marks.map((mark) => mark.at), this.time.shownTime(this.clock.time));
    }
    return params;
  }

  /**
   * Ask for the view of the current settings (at the latest mark the timeline shows), unless it
   * is already the one wanted: the status always describes what the controls say.
   */
  #request() {
    if (this.closed) return;
    const params = this.#params();
    const baseline = this.baseline.params();
    const key = paramsKey(this.lesson, params, baseline);
    if (key === this.wanted.key) return;
    this.wanted = { key, params, baseline };
    this.#fetchWanted();
  }

  #fetchWanted() {
    const { key, params, baseline } = this.wanted;
    this.#markPending(key !== this.current.key);
    if (key === this.current.key || key === this.asked) return;
    this.asked = key; // one request per wanted view, however often the engine changes state
    const settle = () => {
      if (this.asked === key) this.asked = null;
    };
    this.engine.view(this.lesson, params, baseline).then(
      (view) => {
        settle();
        if (key === this.wanted.key) this.#show(key, params, view, baseline);
      },
      (/** @type {Error} */ error) => {
        settle();
        if (key !== this.wanted.key || this.engine.state !== "ready") return; // the engine box explains
        this.messages.set("view", fill(this.words.view_failed, { reason: error.message }));
      },
    );
  }

  /**
   * @param {string} key
   * @param {Params} params
   * @param {View} view
   * @param {Params | null} [baseline]
   */
  #show(key, params, view, baseline = null) {
    this.current = { key, params, view, baseline };
    if (this.status.textContent !== view.status) this.status.textContent = view.status;
    const refusal = view.refusal || "";
    if (this.refusal.textContent !== refusal) this.refusal.textContent = refusal;
    this.refusal.hidden = !refusal;
    // Keep open whatever the reader opened (the exact-state JSON, say) across views.
    const open = [...this.viewBox.querySelectorAll("details")].map((details) => details.open);
    this.viewBox.innerHTML = view.html; // built by lessonkit.panel.html, which escapes by construction
    this.viewBox.querySelectorAll("details").forEach((details, index) => {
      if (open[index]) details.open = true;
    });
    this.baseline.showNow(view);
    this.messages.set("view", null);
    this.#markPending(false);
    this.realTokens?.follow();
  }

  /** Say which engine answered what is shown, only when that changes. */
  #showAnsweredBy() {
    const { engine, words } = this;
    const { params } = this.current;
    const source = engine.source(this.lesson, params, this.current.baseline ?? null);
    const running = engine.info ? fill(words.engine_named, { version: engine.info.pyodide, start: engine.info.start }) : words.engine_unnamed;
    let text;
    if (source === "build") {
      if (engine.state === "ready") text = fill(words.answered_by_build_ready, { engine: running });
      else if (engine.state === "held") text = words.answered_by_build_held;
      else text = engine.state === "failed" ? words.answered_by_build_failed : words.answered_by_build;
    }
    else text = fill(words.answered_live, { engine: running });
    if (this.answeredBy.textContent !== text) this.answeredBy.textContent = text;
    this.section.dataset.answeredBy = source;
  }

  /**
   * The panel dims (and its view says aria-busy) only once a view has kept the reader waiting for
   * PENDING_GRACE_MS. A view that arrives sooner replaces the old one without the panel dimming
   * first: below about a tenth of a second a change reads as instant, a dim lasting a frame or two
   * is only a flicker, and restyling and repainting the panel for it held up the page's main thread
   * just when the engine's answer arrived (bench/FINDINGS.md).
   * @param {boolean} pending
   */
  #markPending(pending) {
    if (!pending) this.#dim(false);
    else if (!this.dimming && !this.section.classList.contains("lk-pending")) this.dimming = setTimeout(() => this.#dim(true), PENDING_GRACE_MS);
    this.#showEngine();
  }

  /** @param {boolean} dimmed */
  #dim(dimmed) {
    clearTimeout(this.dimming);
    this.dimming = undefined;
    this.section.classList.toggle("lk-pending", dimmed);
    const busy = dimmed ? "true" : "false";
    if (this.viewBox.getAttribute("aria-busy") !== busy) this.viewBox.setAttribute("aria-busy", busy);
  }

  #showEngine() {
    const { engine, words } = this;
    this.#showAnsweredBy();
    this.section.dataset.engine = engine.state === "idle" ? "booting" : engine.state;
    if (engine.rehearsed) this.section.dataset.engineRehearsed = String(engine.rehearsed.views);
    else delete this.section.dataset.engineRehearsed;
    const pending = this.wanted.key !== this.current.key;
    // Re-render only on a real change: the Retry button must keep focus, and the live region
    // must not repeat itself at every mark.
    const stage = engine.progress?.stage ?? "downloading"; // until the worker has said, it is fetching its files
    this.#showDownload(engine.state === "booting" ? engine.progress : null);
    const shown = `${engine.state}|${engine.reason}|${pending}|${stage}`;
    if (shown === this.engineShown) return;
    this.engineShown = shown;
    this.#holdControls(engine.state === "failed");
    if (engine.state === "failed") {
      this.engineBox.replaceChildren(
        h("p", { class: "lk-engine-problem" }, fill(words.engine_failed, { reason: engine.reason || "" })),
        button(words.retry, "lk-retry", () => engine.restart()),
      );
    } else if (engine.state === "ready") {
      this.engineBox.replaceChildren();
    } else if (engine.state === "held") {
      this.engineBox.replaceChildren(
        h("p", { class: "lk-engine-note" }, pending ? words.engine_held_pending : words.engine_held),
        button(words.start_engine, "lk-start-engine", () => engine.start({ asked: true })),
      );
    } else {
      const [waiting, meanwhile] =
        stage === "downloading" ? [words.engine_downloading_pending, words.engine_downloading] : [words.engine_starting_pending, words.engine_starting];
      this.engineBox.replaceChildren(h("p", { class: "lk-engine-note" }, pending ? waiting : meanwhile));
    }
  }

  /**
   * The bar of the engine's download: bytes received of the total its files weigh, while it boots.
   * @param {{received: number, total: number} | null} progress
   */
  #showDownload(progress) {
    this.downloadBox.hidden = !progress || !progress.total;
    if (!progress || !progress.total) return;
    const received = Math.min(progress.received, progress.total);
    this.downloaded.max = progress.total;
    this.downloaded.value = received;
    const megabytes = (/** @type {number} */ bytes) => (bytes / 1e6).toFixed(1);
    const text = fill(this.words.engine_progress, { received: megabytes(received), total: megabytes(progress.total) });
    if (this.downloadedText.textContent !== text) this.downloadedText.textContent = text;
  }

  /** No control pretends to work while the engine is down: settings and time wait for a retry. */
  /** @param {boolean} held */
  #holdControls(held) {
    this.settings.hold(held);
    if (this.time) this.time.hold(held);
    if (held && this.clock && this.clock.playing) this.clock.pause();
  }

  async #export() {
    const { key, params, baseline } = this.wanted;
    const { words } = this;
    const file = words.export_file;
    if (key === this.current.key && this.current.view.export !== undefined) {
      downloadJSON(file, this.current.view.export);
      return;
    }
    // A live view comes without its export: Python computes it now, in a few milliseconds once it runs.
    if (this.engine.state !== "ready") this.messages.set("export", fill(words.export_waiting, { file }), "note");
    try {
      downloadJSON(file, await this.engine.exportOf(this.lesson, params, baseline));
      this.messages.set("export", null);
    } catch (error) {
      this.messages.set("export", fill(words.export_failed, { file, reason: error instanceof Error ? error.message : String(error) }));
    }
  }
}
