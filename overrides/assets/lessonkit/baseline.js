// @ts-check
// A baseline is one view's short comparison text, and the settings it came from, that the reader
// pins so they can change the experiment and compare "then" with "now". It is kept per lesson in
// the browser's storage; its settings go with every view request, so a view can draw the
// baseline's run beside the current one.
import { button, formatNumber } from "./controls.js";
import { fill, h } from "./dom.js";
import { checkParams, parameterControls } from "./params.js";

/** @typedef {import("./types/spec.js").PanelSpec} PanelSpec */
/** @typedef {import("./types/spec.js").Params} Params */
/** @typedef {import("./types/spec.js").View} View */

/**
 * A baseline as storage keeps it. Older records may lack `params`, or hold settings the
 * experiment no longer takes: their text is still shown.
 * @typedef {object} BaselineRecord
 * @property {string} lesson
 * @property {string} text
 * @property {unknown} [params]
 * @property {string} captured_at
 */

/** @param {unknown} value */
const isRecord = (value) => Boolean(value && typeof value === "object" && typeof (/** @type {{text?: unknown}} */ (value).text) === "string");

export class Baseline {
  /**
   * `current()` returns {params, view} of what the panel shows; `changed()` runs after capture or clear.
   * @param {object} options
   * @param {PanelSpec} options.spec
   * @param {import("./storage.js").Storage} options.storage
   * @param {import("./dom.js").Messages} options.messages
   * @param {() => {params: Params, view: View}} options.current
   * @param {() => void} options.changed
   */
  constructor({ spec, storage, messages, current, changed }) {
    this.spec = spec;
    this.words = spec.words;
    this.storage = storage;
    this.messages = messages;
    this.current = current;
    this.changed = changed;
    this.key = `lessonkit:${spec.lesson}:baseline`;
    this.formerKeys = (spec.former_ids || []).map((id) => `lessonkit:${id}:baseline`);
    /** @type {BaselineRecord | null} */
    this.record = null;
    this.unreadable = false;

    this.capture = button(this.words.capture, "lk-capture", () => this.#capture());
    this.clear = button(this.words.clear, "lk-clear", () => this.#clear());
    this.then = h("span", { class: "lk-then" });
    this.now = h("span", { class: "lk-now" });
    this.element = h("p", { class: "lk-compare" }, this.then, h("span", { class: "lk-sep" }, " / "), this.now);
    this.#load();
  }

  /**
   * The baseline's settings when they still fit this experiment, for drawing its run; else null.
   * @returns {Params | null}
   */
  params() {
    if (!this.record || !this.record.params) return null;
    const { params } = checkParams(this.spec, this.record.params);
    return params || null;
  }

  /** @param {View} view */
  showNow(view) {
    this.now.replaceChildren(h("strong", {}, this.words.now), " ", view.baseline);
  }

  #load() {
    const { words } = this;
    const check = (/** @type {unknown} */ value) => (isRecord(value) ? null : words.baseline_not_a_record);
    const { value, unreadable, problem, key } = this.storage.readJSON(this.key, check, this.formerKeys);
    this.record = /** @type {BaselineRecord | null} */ (value); // the check let it through
    this.unreadable = unreadable !== undefined;
    if (this.unreadable) {
      const setAside = `${this.key}:corrupt:…`; // where storage.js copies it before any change
      this.messages.set(
        "baseline",
        fill(words.baseline_unreadable, { problem: String(problem), key, export_notes: words.export_notes, set_aside: setAside }),
      );
    } else if (problem) {
      this.messages.set("baseline", fill(words.baselines_unavailable, { problem }));
    } else if (this.record && this.record.params && !this.params()) {
      const { problems = [] } = checkParams(this.spec, this.record.params);
      this.messages.set("baseline", fill(words.baseline_misfit, { problem: problems.join("; ") }));
    }
    this.#render();
  }

  #capture() {
    const { params, view } = this.current();
    /** @type {BaselineRecord} */
    const record = { lesson: this.spec.lesson, text: view.baseline, params, captured_at: new Date().toISOString() };
    const result = this.storage.writeJSON(this.key, record);
    this.#report(result, "saved");
    // Shown even when storage refused it: the reader can still compare until they leave the page.
    this.record = record;
    this.#render();
    this.changed();
  }

  #clear() {
    const result = this.storage.remove(this.key);
    for (const former of this.formerKeys) if (result.ok) this.storage.remove(former);
    this.#report(result, "cleared");
    if (result.ok) this.record = null;
    this.#render();
    this.changed();
  }

  /**
   * @param {import("./storage.js").Change} result
   * @param {"saved" | "cleared"} done
   */
  #report(result, done) {
    const { words } = this;
    if (result.ok) this.unreadable = false;
    if (!result.ok) {
      const failed = fill(done === "saved" ? words.baseline_not_saved : words.baseline_not_removed, { problem: String(result.problem) });
      const setAside = result.keptAs ? fill(words.baseline_set_aside, { key: result.keptAs }) : "";
      this.messages.set("baseline", setAside ? `${failed} ${setAside}` : failed);
    } else if (result.keptAs) {
      const then = done === "saved" ? words.baseline_set_aside_then_saved : words.baseline_set_aside_then_cleared;
      this.messages.set("baseline", fill(then, { key: result.keptAs }));
    } else {
      this.messages.set("baseline", null);
    }
  }

  /**
   * The baseline's settings in the lesson's words: "Context budget 24, Policy Evict oldest, at 30 s".
   * A moment is said in the unit the timeline's clock shows (s, requests).
   * @param {Record<string, unknown>} params
   */
  #describe(params) {
    const { words } = this;
    const parts = [];
    for (const control of parameterControls(this.spec)) {
      if (!(control.name in params)) continue;
      const value = params[control.name];
      if (control.kind === "time") {
        if (typeof value === "number") parts.push(fill(words.baseline_at, { time: formatNumber(value), unit: control.clock_unit }));
      } else if (control.kind === "choice") {
        const option = control.options.find((each) => each.value === value);
        parts.push(`${control.label} ${option ? option.label : value}`);
      } else if (control.kind === "toggle") {
        parts.push(`${control.label} ${value ? words.setting_on : words.setting_off}`);
      } else {
        parts.push(`${control.label} ${value}${control.unit ? ` ${control.unit}` : ""}`);
      }
    }
    return parts.join(", ");
  }

  #render() {
    this.capture.textContent = this.record ? this.words.replace : this.words.capture;
    this.clear.disabled = !(this.record || this.unreadable);
    if (this.record) {
      const { params } = this.record;
      // Settings saved by an older shell may not be an object at all: then only the text is shown.
      const settings = params && typeof params === "object" ? this.#describe(/** @type {Record<string, unknown>} */ (params)) : "";
      this.then.replaceChildren(
        h("strong", {}, this.words.baseline),
        " ",
        this.record.text,
        settings ? h("span", { class: "lk-settings" }, ` (${settings})`) : "",
      );
    } else {
      this.then.replaceChildren(h("strong", {}, this.words.baseline), " ", h("em", {}, this.words.no_baseline));
    }
  }
}
