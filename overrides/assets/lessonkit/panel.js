// One live experiment: the <section class="lk-panel"> the build rendered, brought to life. Nothing
// here knows about any particular lesson; everything lesson-specific comes from the spec and the
// views the engine returns.
import { Baseline } from "./baseline.js";
import { button, Controls } from "./controls.js";
import { downloadJSON, h, Messages } from "./dom.js";
import { paramsKey } from "./engine.js";
import { Expander } from "./fullscreen.js";
import { Notes } from "./notes.js";
import { Clock, latestMark } from "./playback.js";

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

export class Panel {
  constructor(section, { engine, storage }) {
    this.section = section;
    this.engine = engine;
    this.spec = JSON.parse(section.dataset.spec);
    this.lesson = this.spec.lesson;
    this.status = section.querySelector(".lk-status");
    this.viewBox = section.querySelector(".lk-view");
    this.engineBox = section.querySelector(".lk-engine") || h("div", { class: "lk-engine", "aria-live": "polite" });

    // The build's view of the defaults is already on the page: first paint never waits for Python.
    const initial = JSON.parse(section.dataset.initialView);
    this.current = { key: paramsKey(this.lesson, this.spec.defaults), params: this.spec.defaults, view: initial };
    this.wanted = { key: this.current.key, params: this.current.params };
    engine.remember(this.lesson, this.spec.defaults, initial);

    this.messages = new Messages();
    this.controls = new Controls(this.spec, {
      choice: () => this.#choose(),
      primary: () => this.clock.toggle(),
      restart: () => this.clock.restart(),
      seek: (seconds) => this.clock.seek(seconds),
      speed: (speed) => this.clock.setSpeed(speed),
    });
    this.baseline = new Baseline({
      spec: this.spec,
      storage,
      messages: this.messages,
      current: () => ({ params: this.current.params, view: this.current.view }),
    });
    this.expander = new Expander(section);
    this.notes = new Notes({ lesson: this.lesson, storage, messages: this.messages });

    const tools = h(
      "div",
      { class: "lk-tools" },
      this.baseline.capture,
      this.baseline.clear,
      button("Export fixture JSON", "lk-export-fixture", () => this.#exportFixture()),
      this.expander.button,
    );
    this.controls.element.append(tools);

    const { timeline, playback } = this.spec;
    const motion = window.matchMedia(REDUCED_MOTION);
    this.clock = new Clock({
      end: timeline.end,
      marks: timeline.marks,
      speed: playback.default_speed,
      stepping: motion.matches,
      onChange: (clock) => this.#tick(clock),
    });
    this.controls.showStepping(motion.matches);
    motion.addEventListener("change", (event) => {
      this.clock.setStepping(event.matches);
      this.controls.showStepping(event.matches);
    });

    const placeholder = section.querySelector(".lk-controls");
    if (placeholder) placeholder.replaceWith(this.controls.element);
    else section.prepend(this.controls.element);
    this.controls.element.after(this.messages.element, this.engineBox);
    this.status.after(this.baseline.element);
    this.section.append(this.notes.element);
    this.baseline.showNow(initial);
    this.#tick(this.clock);

    engine.subscribe(() => {
      this.#showEngine();
      // Views asked for while the engine was down are asked for again once it is up.
      if (engine.state === "ready") this.#fetchWanted();
    });
  }

  /** Changing any choice recomputes and goes back to the start, paused. */
  #choose() {
    this.clock.restart();
    this.#request();
  }

  #tick(clock) {
    this.controls.showPhase(clock.phase);
    this.controls.showTime(this.controls.shownTime(clock.time));
    this.#request();
  }

  /**
   * Ask for the view of the current choices at the latest arrival the timeline shows, unless that
   * view is already the one wanted: the status always describes the moment on the slider.
   */
  #request() {
    const { timeline } = this.spec;
    const shown = this.controls.shownTime(this.clock.time);
    const params = { ...this.controls.choices(), [timeline.name]: latestMark(timeline.marks, shown) };
    const key = paramsKey(this.lesson, params);
    if (key === this.wanted.key) return;
    this.wanted = { key, params };
    this.#fetchWanted();
  }

  #fetchWanted() {
    const { key, params } = this.wanted;
    this.#markPending(key !== this.current.key);
    if (key === this.current.key || key === this.asked) return;
    this.asked = key; // one request per wanted view, however often the engine changes state
    const settle = () => {
      if (this.asked === key) this.asked = null;
    };
    this.engine.view(this.lesson, params).then(
      (view) => {
        settle();
        if (key === this.wanted.key) this.#show(key, params, view);
      },
      (error) => {
        settle();
        if (key !== this.wanted.key || this.engine.state !== "ready") return; // the engine box explains
        this.messages.set("view", `This view could not be computed: ${error.message}`);
      },
    );
  }

  #show(key, params, view) {
    this.current = { key, params, view };
    this.status.textContent = view.status;
    // Keep open whatever the reader opened (the exact-state JSON, say) across arrivals.
    const open = [...this.viewBox.querySelectorAll("details")].map((details) => details.open);
    this.viewBox.innerHTML = view.html; // engine-generated HTML, escaped by the engine
    this.viewBox.querySelectorAll("details").forEach((details, index) => {
      if (open[index]) details.open = true;
    });
    this.baseline.showNow(view);
    this.messages.set("view", null);
    this.#markPending(false);
  }

  #markPending(pending) {
    this.section.classList.toggle("lk-pending", pending);
    this.viewBox.setAttribute("aria-busy", pending ? "true" : "false");
    this.#showEngine();
  }

  #showEngine() {
    const { engine } = this;
    this.section.dataset.engine = engine.state === "idle" ? "booting" : engine.state;
    const pending = this.wanted.key !== this.current.key;
    // Re-render only on a real change: the Retry button must keep focus, and the live region
    // must not repeat itself at every arrival.
    const shown = `${engine.state}|${engine.reason}|${pending}`;
    if (shown === this.engineShown) return;
    this.engineShown = shown;
    if (engine.state === "failed") {
      this.engineBox.replaceChildren(
        h(
          "p",
          { class: "lk-engine-problem" },
          `The Python engine could not start: ${engine.reason}. The experiment keeps showing the last computed view.`,
        ),
        button("Retry starting the engine", "lk-retry", () => engine.restart()),
      );
    } else if (engine.state === "ready") {
      this.engineBox.replaceChildren();
    } else {
      const text = pending
        ? "Starting the Python engine… The view updates when it is ready."
        : "Starting the Python engine…";
      this.engineBox.replaceChildren(h("p", { class: "lk-engine-note" }, text));
    }
  }

  async #exportFixture() {
    const { key, params } = this.wanted;
    if (key === this.current.key) {
      downloadJSON(this.spec.export_name, this.current.view.export);
      return;
    }
    this.messages.set("export", "The fixture for these settings downloads as soon as the Python engine has computed them.");
    try {
      const view = await this.engine.view(this.lesson, params);
      downloadJSON(this.spec.export_name, view.export);
      this.messages.set("export", null);
    } catch (error) {
      this.messages.set("export", `The fixture could not be exported: ${error.message}`);
    }
  }
}
