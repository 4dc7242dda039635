// A baseline is one view's short comparison text that the reader pins, so they can change the
// experiment and compare "then" with "now". It is kept per lesson in the browser's storage.
import { button, formatSeconds } from "./controls.js";
import { h } from "./dom.js";

function checkRecord(value) {
  const ok = value && typeof value === "object" && typeof value.text === "string";
  return ok ? null : "it is JSON but not a baseline record (no text)";
}

export class Baseline {
  /** `current()` returns {params, view} of what the panel shows. */
  constructor({ spec, storage, messages, current }) {
    this.spec = spec;
    this.storage = storage;
    this.messages = messages;
    this.current = current;
    this.key = `lessonkit:${spec.lesson}:baseline`;
    this.record = null;
    this.unreadable = false;

    this.capture = button("Capture baseline", "lk-capture", () => this.#capture());
    this.clear = button("Clear baseline", "lk-clear", () => this.#clear());
    this.then = h("span", { class: "lk-then" });
    this.now = h("span", { class: "lk-now" });
    this.element = h("p", { class: "lk-compare" }, this.then, h("span", { class: "lk-sep" }, " / "), this.now);
    this.#load();
  }

  showNow(view) {
    this.now.replaceChildren(h("strong", {}, "Now:"), " ", view.baseline);
  }

  #load() {
    const { value, unreadable, problem } = this.storage.readJSON(this.key, checkRecord);
    this.record = value;
    this.unreadable = unreadable !== undefined;
    if (this.unreadable) {
      this.messages.set(
        "baseline",
        `The saved baseline for this lesson could not be read: ${problem}. It is left as it was in this ` +
          `browser's storage (key "${this.key}"); capturing or clearing a baseline first copies it to a ` +
          `"${this.key}:corrupt:…" key.`,
      );
    } else if (problem) {
      this.messages.set("baseline", `Baselines can't be read in this browser: ${problem}.`);
    }
    this.#render();
  }

  #capture() {
    const { params, view } = this.current();
    const record = {
      lesson: this.spec.lesson,
      text: view.baseline,
      params,
      captured_at: new Date().toISOString(),
    };
    const result = this.storage.writeJSON(this.key, record);
    this.#report(result, "saved");
    // Shown even when storage refused it: the reader can still compare until they leave the page.
    this.record = record;
    this.#render();
  }

  #clear() {
    const result = this.storage.remove(this.key);
    this.#report(result, "cleared");
    if (result.ok) this.record = null;
    this.#render();
  }

  #report(result, done) {
    if (result.ok) this.unreadable = false;
    if (!result.ok) {
      const action = done === "saved" ? "saved" : "removed";
      this.messages.set(
        "baseline",
        `The baseline could not be ${action} in this browser: ${result.problem}.` +
          (result.keptAs ? ` The unreadable one was kept under "${result.keptAs}".` : ""),
      );
    } else if (result.keptAs) {
      this.messages.set("baseline", `The unreadable baseline was kept under "${result.keptAs}" before it was ${done}.`);
    } else {
      this.messages.set("baseline", null);
    }
  }

  #describe(params) {
    const parts = this.spec.choices.map((choice) => {
      const option = choice.options.find((each) => each.value === params[choice.name]);
      return `${choice.label} ${option ? option.label : params[choice.name]}`;
    });
    const time = params[this.spec.timeline.name];
    if (typeof time === "number") parts.push(`at ${formatSeconds(time)} s`);
    return parts.join(", ");
  }

  #render() {
    this.capture.textContent = this.record ? "Replace baseline" : "Capture baseline";
    this.clear.disabled = !(this.record || this.unreadable);
    if (this.record) {
      const settings = this.record.params ? this.#describe(this.record.params) : "";
      this.then.replaceChildren(
        h("strong", {}, "Baseline:"),
        " ",
        this.record.text,
        settings ? h("span", { class: "lk-settings" }, ` (${settings})`) : "",
      );
    } else {
      this.then.replaceChildren(h("strong", {}, "Baseline:"), " ", h("em", {}, "none captured yet"));
    }
  }
}
