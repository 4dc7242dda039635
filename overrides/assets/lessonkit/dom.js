// @ts-check
// Small DOM helpers shared by the shell's modules. Everything is built with createElement and
// textContent: no inline handlers, no inline styles, nothing a Content-Security-Policy would refuse.

/**
 * A child as `h` takes it: a node, text or a number; null, undefined and false are left out, and
 * arrays are flattened one level.
 * @typedef {Node | string | number | boolean | null | undefined} Child
 */

/**
 * Build an element: h("button", {type: "button", class: "x"}, "Text", child, ...).
 * @template {keyof HTMLElementTagNameMap} Tag
 * @param {Tag} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[Tag]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") element.className = String(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

let counter = 0;

/**
 * A document-unique id, so every <label for> finds its control even with several panels.
 * @param {string} stem
 */
export function uniqueId(stem) {
  counter += 1;
  return `lk-${stem}-${counter}`;
}

/**
 * Save `data` as a pretty-printed JSON file through a Blob and an <a download>.
 * @param {string} filename
 * @param {unknown} data
 */
export function downloadJSON(filename, data) {
  const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: filename, class: "lk-download-link", hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A template from the spec with its {placeholders} filled: fill("Could not start: {reason}", {reason}).
 * @param {string} template
 * @param {Record<string, string | number>} values
 */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/**
 * A visible list of messages, one per topic, so that saving notes successfully clears the notes
 * message without hiding a baseline problem. Polite live region, not role="status": the panel's
 * single status region belongs to the experiment's view. A message is a problem unless told otherwise.
 */
export class Messages {
  constructor(className = "lk-messages") {
    this.element = h("div", { class: className, "aria-live": "polite" });
    /** @type {Map<string, {text: string, tone: "problem" | "note"}>} */
    this.topics = new Map();
    this.shown = "[]";
  }

  /**
   * @param {string} topic
   * @param {string | null} text  null clears the topic's message
   * @param {"problem" | "note"} [tone]
   */
  set(topic, text, tone = "problem") {
    if (text) this.topics.set(topic, { text, tone });
    else this.topics.delete(topic);
    // Rewrite the live region only when what it says changes: re-inserting the same sentences
    // makes a screen reader say them again, at every view.
    const shown = JSON.stringify([...this.topics.values()]);
    if (shown === this.shown) return;
    this.shown = shown;
    this.element.replaceChildren(
      ...[...this.topics.values()].map(({ text: line, tone: kind }) => h("p", { class: kind === "problem" ? "lk-message" : "lk-note" }, line)),
    );
  }
}
