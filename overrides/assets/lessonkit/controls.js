// Native controls built from a panel's spec. Each kind (choice, toggle, number, range) becomes one
// native element with a real <label>, so its accessible name is the lesson's own wording and
// screen readers and the browser tests find it by that name. KINDS is the one place the shell
// dispatches on a control's kind; text fields belong to the reader and live with the notes.
import { h, uniqueId } from "./dom.js";
import { allowed, checkValue } from "./params.js";

/** A number as a reader says it: 30 -> "30", 7.5 -> "7.5", 0.1 + 0.2 -> "0.3". */
export function formatNumber(number) {
  return String(Math.round(number * 1e6) / 1e6);
}

export function button(text, className, onClick) {
  const element = h("button", { type: "button", class: `lk-button ${className}` }, text);
  element.addEventListener("click", onClick);
  return element;
}

export function labelled(labelText, control, className, ...after) {
  const id = uniqueId(className);
  control.id = id;
  return h("div", { class: `lk-field ${className}` }, h("label", { for: id }, labelText), control, ...after);
}

const withUnit = (control, value) => `${formatNumber(value)}${control.unit ? ` ${control.unit}` : ""}`;

/** Each kind: build(control, changed) -> {element, input, read(), write(value)}. */
const KINDS = {
  choice(control, changed) {
    const select = h(
      "select",
      { name: control.name },
      control.options.map((option, index) => h("option", { value: String(index) }, option.label)),
    );
    select.addEventListener("change", changed);
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
  number(control, changed) {
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
    const refuse = (text) => {
      problem.textContent = text;
      problem.hidden = !text;
      if (text) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    };
    const take = (report) => {
      const typed = input.value.trim() === "" ? null : input.valueAsNumber;
      const { value, problem: wrong } = checkValue(control, typed === null || Number.isNaN(typed) ? input.value : typed);
      if (wrong) {
        if (report) refuse(`${control.label} must be ${allowed(control)}; the experiment keeps ${withUnit(control, current)}.`);
        return;
      }
      refuse(null);
      if (value !== current) {
        current = value;
        changed();
      }
    };
    input.addEventListener("input", () => take(false));
    input.addEventListener("change", () => take(true));
    const write = (value) => {
      current = value;
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
    const write = (value) => {
      input.value = String(value);
      show();
    };
    const read = () => checkValue(control, input.valueAsNumber).value;
    return { element: labelled(control.label, input, "lk-range-control", shown), input, read, write };
  },
};

/** The reader's settings: every parameter control of the spec, built by kind, in the spec's order. */
export class Settings {
  constructor(spec, { changed }) {
    this.spec = spec;
    this.fields = new Map();
    for (const control of spec.controls) {
      if (control.kind === "text") continue;
      const build = KINDS[control.kind];
      if (!build) throw new Error(`the spec has a control of unknown kind "${control.kind}" (${control.name})`);
      this.fields.set(control.name, { control, ...build(control, () => this.#changed(changed)) });
    }
    this.element = h("div", { class: "lk-choices" }, [...this.fields.values()].map((field) => field.element));
    this.write(spec.defaults);
  }

  /** The reader's settings as the engine's parameters, with their typed values (24, not "24"). */
  read() {
    return Object.fromEntries([...this.fields].map(([name, field]) => [name, field.read()]));
  }

  write(params) {
    for (const [name, field] of this.fields) if (name in params) field.write(params[name]);
    this.#syncEnabled();
  }

  /** While the engine is down no setting can be shown, so none may look as if it could be changed. */
  hold(held) {
    if (this.held === held) return;
    this.held = held;
    for (const { input } of this.fields.values()) input.disabled = held;
    if (!held) this.#syncEnabled();
  }

  #changed(changed) {
    this.#syncEnabled();
    changed();
  }

  /** A toggle that is off disables the controls it enables: "omitted" is not the same as 0. */
  #syncEnabled() {
    for (const { control, input } of this.fields.values()) {
      if (control.kind !== "toggle") continue;
      for (const target of control.enables || []) {
        const field = this.fields.get(target);
        if (field) field.input.disabled = !input.checked;
      }
    }
  }
}
