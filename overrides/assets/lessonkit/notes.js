// @ts-check
// The reader's own words on a lesson: the notes, and any text field the panel declares (a
// prediction written before running, say). Saved on every keystroke, restored on the next visit,
// and always exportable as a file, which is the way out when the browser refuses to store them.
import { button } from "./controls.js";
import { downloadJSON, fill, h, uniqueId } from "./dom.js";
import { answersKey, shownAnswers } from "./exercises.js";

/** @typedef {import("./types/spec.js").PanelSpec} PanelSpec */
/** @typedef {import("./types/spec.js").TextControl} TextControl */
/** @typedef {import("./types/spec.js").Words} Words */
/** @typedef {import("./storage.js").Storage} Storage */

class KeptText {
  /**
   * One textarea kept under `key` (falling back to `formerKeys` for text saved under an old lesson id).
   * @param {object} options
   * @param {string} options.key
   * @param {string[]} [options.formerKeys]
   * @param {string} options.label
   * @param {string} options.hint
   * @param {Storage} options.storage
   * @param {(text: string | null) => void} options.report
   * @param {string} options.className
   * @param {Words} options.words
   */
  constructor({ key, formerKeys = [], label, hint, storage, report, className, words }) {
    this.key = key;
    this.storage = storage;
    this.report = report;
    this.label = label;
    this.words = words;
    const id = uniqueId(className);
    const hintId = hint ? `${id}-hint` : null;
    this.textarea = h("textarea", { id, rows: 3, class: `lk-text ${className}`, "aria-describedby": hintId });
    this.textarea.addEventListener("input", () => this.#save());
    this.element = h(
      "div",
      { class: `lk-field lk-kept ${className}-field` },
      h("label", { for: id }, label),
      hint ? h("p", { class: "lk-hint", id: hintId }, hint) : null,
      this.textarea,
    );
    // "Your notes …", "Your prediction …": the reader's own words, named as the panel names them.
    this.named = { label, field: `${label.charAt(0).toLowerCase()}${label.slice(1)}`, export_notes: words.export_notes };
    const { text, problem } = storage.readText(key, formerKeys);
    if (problem) report(fill(words.text_unreadable, { ...this.named, problem }));
    else if (text !== null && this.textarea.value === "") this.textarea.value = text;
  }

  get value() {
    return this.textarea.value;
  }

  #save() {
    const { ok, problem } = this.storage.write(this.key, this.textarea.value);
    // The textarea keeps the text either way; only the message changes.
    this.report(ok ? null : fill(this.words.text_not_saved, { ...this.named, problem: String(problem) }));
  }
}

export class Notes {
  /**
   * @param {object} options
   * @param {PanelSpec} options.spec
   * @param {Storage} options.storage
   * @param {import("./dom.js").Messages} options.messages
   */
  constructor({ spec, storage, messages }) {
    this.lesson = spec.lesson;
    this.words = spec.words;
    this.storage = storage;
    const former = spec.former_ids || [];
    this.prefixes = [spec.lesson, ...former].map((id) => `lessonkit:${id}:`);
    /**
     * @param {string} name
     * @param {string} label
     * @param {string} hint
     * @param {string} className
     */
    const keep = (name, label, hint, className) =>
      new KeptText({
        key: `lessonkit:${spec.lesson}:${name}`,
        formerKeys: former.map((id) => `lessonkit:${id}:${name}`),
        label,
        hint,
        storage,
        className,
        words: spec.words,
        report: (text) => messages.set(name, text),
      });
    this.fields = spec.controls
      .filter(/** @returns {control is TextControl} */ (control) => control.kind === "text")
      .map((control) => ({ control, kept: keep(`text:${control.name}`, control.label, control.hint, "lk-reader-text") }));
    this.notes = keep("notes", spec.words.notes, "", "lk-notes-text");
    // Text the reader wrote in a field the lesson has since retired (its exercises ask instead) is
    // never dropped: it stays in storage, the panel says so, and export carries it.
    const current = new Set(this.fields.map(({ control }) => control.name));
    /** @type {Record<string, string>} */
    this.retired = {};
    for (const id of [spec.lesson, ...former]) {
      const prefix = `lessonkit:${id}:text:`;
      for (const [key, text] of Object.entries(storage.textsUnder(prefix))) {
        const name = key.slice(prefix.length);
        if (!current.has(name) && !(name in this.retired)) this.retired[name] = text;
      }
    }
    const retired = Object.keys(this.retired);
    if (retired.length) messages.set("retired", fill(spec.words.text_retired, { fields: retired.join(", "), export_notes: spec.words.export_notes }), "note");
    this.fieldsElement = this.fields.length ? h("div", { class: "lk-reader-fields" }, this.fields.map(({ kept }) => kept.element)) : null;
    this.element = h(
      "div",
      { class: "lk-notes" },
      this.notes.element,
      h("div", { class: "lk-tools" }, button(spec.words.export_notes, "lk-export-notes", () => this.export())),
    );
  }

  export() {
    const unreadable = {};
    for (const prefix of this.prefixes) Object.assign(unreadable, this.storage.unreadableTexts(prefix));
    downloadJSON(fill(this.words.notes_file, { lesson: this.lesson }), {
      lesson: this.lesson,
      notes: this.notes.value,
      fields: Object.fromEntries(this.fields.map(({ control, kept }) => [control.name, { label: control.label, text: kept.value }])),
      // Text from fields the lesson no longer has, as stored, by the field's name.
      ...(Object.keys(this.retired).length ? { retired_fields: this.retired } : {}),
      // The reader's answers to the lesson's exercises: as this page holds them, or as stored when the
      // page shows none (an unreadable stored value goes under `unreadable`).
      exercises: shownAnswers.get(this.lesson)?.answers ?? /** @type {{answers?: object} | null} */ (this.storage.readJSON(answersKey(this.lesson)).value)?.answers ?? {},
      // What this browser holds for the lesson but could not read (a corrupt baseline, say), as it was.
      ...(Object.keys(unreadable).length ? { unreadable } : {}),
      exported_at: new Date().toISOString(),
    });
  }
}
