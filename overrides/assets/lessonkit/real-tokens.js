// @ts-check
// Real tokens, on request. The lessons weigh their texts in teaching tokens (or words), fixed
// numbers chosen to make a point; a reader who presses "Count in real tokens" hears what the texts
// the panel's model reads at the settings shown (its window, its tray, its prompt) weigh in a real
// tokenizer's tokens, beside the lesson's own measure, each named and never added together. While
// the button is pressed, the count follows every view the panel shows.
//
// The engine counts in its worker (lessonkit.runtime.count): the first count fetches the encoding's
// ranks, and the panel goes on answering meanwhile. So nothing is downloaded for a reader who never asks.
import { button } from "./controls.js";
import { fill, h } from "./dom.js";
import { paramsKey } from "./params.js";

/** @typedef {import("./types/spec.js").PanelSpec} PanelSpec */
/** @typedef {import("./types/spec.js").Params} Params */
/** @typedef {import("./engine.js").Engine} Engine */
/** @typedef {import("./types/protocol.js").RealCount} RealCount */

// Made on the first count, not as the module loads: a number format reads the browser's locale data,
// which costs the page's start more than any of the shell's own modules.
/** @type {Intl.NumberFormat | null} */
let numbers = null;
/** @param {number} count  as a reader reads it, its thousands grouped */
const grouped = (count) => (numbers ??= new Intl.NumberFormat("en")).format(count);

export class RealTokens {
  /**
   * @param {object} options
   * @param {PanelSpec} options.spec  a spec whose `real_tokens` names the encoding
   * @param {Engine} options.engine
   * @param {() => Params} options.shown  the settings of the view the panel shows
   */
  constructor({ spec, engine, shown }) {
    this.lesson = spec.lesson;
    this.words = spec.words;
    this.encoding = spec.real_tokens?.encoding ?? "";
    this.engine = engine;
    this.shown = shown;
    this.button = button(this.words.real_tokens, "lk-real-tokens", () => this.#toggle());
    this.button.setAttribute("aria-pressed", "false");
    // Polite: the reader asked, and hears the count once it comes, after the status it belongs to.
    this.line = h("p", { class: "lk-real-count", "aria-live": "polite", hidden: true });
    this.on = false;
    /** @type {string | null} the settings the line's count is of */
    this.counted = null;
    /** @type {string | null} the settings whose count was asked of the engine and has not come */
    this.asked = null;
  }

  #toggle() {
    this.on = !this.on;
    this.button.setAttribute("aria-pressed", String(this.on));
    this.line.hidden = !this.on;
    if (this.on) this.follow();
    else {
      this.counted = this.asked = null;
      this.line.textContent = "";
    }
  }

  /** The panel shows another view: once pressed, its texts are counted (the last one asked for wins). */
  follow() {
    if (!this.on) return;
    const params = this.shown();
    const key = paramsKey(this.lesson, params);
    if (key === this.counted || key === this.asked) return;
    this.asked = key;
    this.engineChanged();
    this.engine.count(this.lesson, params, this.encoding).then(
      (count) => {
        if (this.asked !== key) return; // the count of a later view is on its way
        this.asked = null;
        this.counted = key;
        this.#say(this.#told(count));
        this.line.dataset.tokens = String(count.tokens);
      },
      (/** @type {Error} */ error) => {
        if (this.asked !== key) return;
        this.asked = null;
        this.counted = null;
        this.#say(fill(this.words.real_tokens_failed, { reason: error.message }));
      },
    );
  }

  /** The engine's state or its ranks changed: a count still waiting says what it waits for. */
  engineChanged() {
    if (!this.on || this.asked === null) return;
    const { engine, words, encoding } = this;
    if (engine.state !== "ready") this.#say(words.real_tokens_waiting);
    else if (engine.ranks?.stage === "loading" && engine.ranks.encoding === encoding) {
      this.#say(fill(words.real_tokens_loading, { encoding, megabytes: (engine.ranks.bytes / 1e6).toFixed(1) }));
    } else this.#say(fill(words.real_tokens_counting, { encoding }));
    delete this.line.dataset.tokens;
  }

  /** @param {RealCount} count */
  #told(count) {
    return fill(this.words.real_tokens_count, {
      what: count.what,
      tokens: grouped(count.tokens),
      encoding: count.encoding,
      teaching: grouped(count.teaching),
      unit: count.unit,
      untexted: count.untexted,
    });
  }

  /** @param {string} text */
  #say(text) {
    if (this.line.textContent !== text) this.line.textContent = text;
  }
}
