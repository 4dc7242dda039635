// @ts-check
// Native controls built from a panel's spec. Each kind (choice, toggle, number, range) becomes one
// native element with a real <label>, so its accessible name is the lesson's own wording and
// screen readers and the browser tests find it by that name. KINDS is the one place the shell
// dispatches on a control's kind; text fields belong to the reader and live with the notes.
import { fill, h, uniqueId } from "./dom.js";
import { allowed, checkValue } from "./params.js";
import { PAGE_WORDS } from "./words.js";

/** @typedef {import("./types/spec.js").PanelSpec} PanelSpec */
/** @typedef {import("./types/spec.js").Params} Params */
/** @typedef {import("./types/spec.js").Value} Value */
/** @typedef {import("./types/spec.js").ChoiceControl} ChoiceControl */
/** @typedef {import("./types/spec.js").ToggleControl} ToggleControl */
/** @typedef {import("./types/spec.js").QuantityControl} QuantityControl */
/** @typedef {import("./types/spec.js").ParameterControl} ParameterControl */
/** @typedef {import("./types/spec.js").Words} Words */

/**
 * One control in the page: its field (label and element), its input, and its value as the engine takes it.
 * @typedef {object} Field
 * @property {HTMLElement} element
 * @property {HTMLInputElement | HTMLSelectElement} input
 * @property {() => Value} read
 * @property {(value: Value) => void} write
 */

/**
 * A number as a reader says it: 30 -> "30", 7.5 -> "7.5", 0.1 + 0.2 -> "0.3".
 * @param {number} number
 */
export function formatNumber(number) {
  return String(Math.round(number * 1e6) / 1e6);
}

/**
 * @param {string} text
 * @param {string} className
 * @param {(event: MouseEvent) => void} onClick
 */
export function button(text, className, onClick) {
  const element = h("button", { type: "button", class: `lk-button ${className}` }, text);
  element.addEventListener("click", onClick);
  return element;
}

/**
 * @param {string} labelText
 * @param {HTMLElement} control
 * @param {string} className
 * @param {...(HTMLElement | null)} after
 */
export function labelled(labelText, control, className, ...after) {
  const id = uniqueId(className);
  control.id = id;
  return h("div", { class: `lk-field ${className}` }, h("label", { for: id }, labelText), control, ...after);
}

/**
 * @param {QuantityControl} control
 * @param {number} value
 */
const withUnit = (control, value) => `${formatNumber(value)}${control.unit ? ` ${control.unit}` : ""}`;

/**
 * Each kind: build(control, changed, words) -> {element, input, read(), write(value)}.
 * @type {{
 *   choice: (control: ChoiceControl, changed: () => void, words: Words) => Field,
 *   toggle: (control: ToggleControl, changed: () => void, words: Words) => Field,
 *   number: (control: QuantityControl, changed: () => void, words: Words) => Field,
 *   range: (control: QuantityControl, changed: () => void, words: Words) => Field,
 * }}
 */
const KINDS = {
  choice(control, changed) {
    const select = h(
      "select",
      { name: control.name },
      control.options.map((option, index) => h("option", { value: String(index) }, option.label)),
    );
    select.addEventListener("change", changed);
    /** @param {Value} value */
    const write = (value) => {
      const index = control.options.findIndex((option) => option.value === value);
      if (index >= 0) select.value = String(index);
    };
    return { element: labelled(control.label, select, "lk-choice"), input: select, read: () => control.options[Number(select.value)].value, write };
  },

  toggle(control, changed) {
    const box = h("input", { type: "checkbox", name: control.name });
    box.addEventListener("change", changed);
    const id = uniqueId("lk-toggle");
    box.id = id;
    const element = h("div", { class: "lk-field lk-toggle" }, box, h("label", { for: id }, control.label));
    return { element, input: box, read: () => box.checked, write: (value) => (box.checked = Boolean(value)) };
  },

  // A typed value is applied as soon as it is valid; one out of range is refused visibly, named
  // with what is allowed, and the experiment keeps the last valid value until it is corrected.
  number(control, changed, words) {
    let current = control.default;
    const problemId = uniqueId("lk-problem");
    const input = h("input", {
      type: "number",
      name: control.name,
      min: control.minimum,
      max: control.maximum,
      step: control.step,
      inputmode: "decimal",
      "aria-describedby": problemId,
    });
    const problem = h("p", { class: "lk-field-problem", id: problemId, hidden: true });
    const unit = control.unit ? h("span", { class: "lk-unit" }, control.unit) : null;
    /** @param {string | null} text */
    const refuse = (text) => {
      problem.textContent = text;
      problem.hidden = !text;
      if (text) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    };
    /** @param {boolean} report */
    const take = (report) => {
      const typed = input.value.trim() === "" ? null : input.valueAsNumber;
      const checked = checkValue(control, typed === null || Number.isNaN(typed) ? input.value : typed);
      if (checked.problem !== undefined) {
        if (report) refuse(fill(words.number_refused, { label: control.label, allowed: allowed(control), kept: withUnit(control, current) }));
        return;
      }
      refuse(null);
      if (checked.value !== current) {
        current = /** @type {number} */ (checked.value); // a quantity checks to a number
        changed();
      }
    };
    input.addEventListener("input", () => take(false));
    input.addEventListener("change", () => take(true));
    /** @param {Value} value */
    const write = (value) => {
      current = Number(value);
      input.value = String(value);
      refuse(null);
    };
    return { element: labelled(control.label, input, "lk-number", unit, problem), input, read: () => current, write };
  },

  range(control, changed) {
    const input = h("input", { type: "range", name: control.name, min: control.minimum, max: control.maximum, step: control.step });
    const shown = h("output", { class: "lk-range-value", "aria-hidden": "true" });
    const show = () => {
      const text = withUnit(control, input.valueAsNumber);
      input.setAttribute("aria-valuetext", text);
      shown.textContent = text;
    };
    input.addEventListener("input", () => {
      show();
      changed();
    });
    /** @param {Value} value */
    const write = (value) => {
      input.value = String(value);
      show();
    };
    // The browser keeps a slider in range and on its step grid, so its value always checks.
    const read = () => checkValue(control, input.valueAsNumber).value ?? control.default;
    return { element: labelled(control.label, input, "lk-range-control", shown), input, read, write };
  },
};

/** The reader's settings: every parameter control of the spec, built by kind, in the spec's order. */
export class Settings {
  /**
   * @param {PanelSpec} spec
   * @param {{changed: () => void}} on
   */
  constructor(spec, { changed }) {
    this.spec = spec;
    /** @type {Map<string, Field & {control: ParameterControl}>} */
    this.fields = new Map();
    /** @type {boolean | undefined} */
    this.held = undefined;
    for (const control of spec.controls) {
      if (control.kind === "text") continue;
      // The spec pairs each control with its kind, which may be one this shell does not know.
      const builders = /** @type {Record<string, ((control: ParameterControl, changed: () => void, words: Words) => Field) | undefined>} */ (KINDS);
      const build = builders[control.kind];
      if (!build) throw new Error(fill(PAGE_WORDS.spec_unknown_control, { kind: control.kind, name: control.name }));
      this.fields.set(control.name, { control, ...build(control, () => this.#changed(changed), spec.words) });
    }
    this.element = h("div", { class: "lk-choices" }, [...this.fields.values()].map((field) => field.element));
    this.write(spec.defaults);
  }

  /**
   * The reader's settings as the engine's parameters, with their typed values (24, not "24").
   * @returns {Params}
   */
  read() {
    return Object.fromEntries([...this.fields].map(([name, field]) => [name, field.read()]));
  }

  /** @param {Params} params */
  write(params) {
    for (const [name, field] of this.fields) if (name in params) field.write(params[name]);
    this.#syncEnabled();
  }

  /** While the engine is down no setting can be shown, so none may look as if it could be changed. */
  /** @param {boolean} held */
  hold(held) {
    if (this.held === held) return;
    this.held = held;
    for (const { input } of this.fields.values()) input.disabled = held;
    if (!held) this.#syncEnabled();
  }

  /** @param {() => void} changed */
  #changed(changed) {
    this.#syncEnabled();
    changed();
  }

  /** A toggle that is off disables the controls it enables: "omitted" is not the same as 0. */
  #syncEnabled() {
    for (const { control, read } of this.fields.values()) {
      if (control.kind !== "toggle") continue;
      for (const target of control.enables || []) {
        const field = this.fields.get(target);
        if (field) field.input.disabled = !read();
      }
    }
  }
}
