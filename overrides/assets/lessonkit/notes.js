// The reader's notes on a lesson: saved on every keystroke, restored on the next visit, and always
// exportable as a file, which is the way out when the browser refuses to store them.
import { button } from "./controls.js";
import { downloadJSON, h, uniqueId } from "./dom.js";

export class Notes {
  constructor({ lesson, storage, messages }) {
    this.lesson = lesson;
    this.storage = storage;
    this.messages = messages;
    this.key = `lessonkit:${lesson}:notes`;

    const id = uniqueId("notes");
    this.textarea = h("textarea", { id, rows: 4, class: "lk-notes-text" });
    this.textarea.addEventListener("input", () => this.#save());
    this.element = h(
      "div",
      { class: "lk-notes" },
      h("label", { for: id }, "Notes"),
      this.textarea,
      h("div", { class: "lk-tools" }, button("Export notes", "lk-export-notes", () => this.export())),
    );
    this.#restore();
  }

  export() {
    downloadJSON(`${this.lesson}-notes.json`, {
      lesson: this.lesson,
      notes: this.textarea.value,
      exported_at: new Date().toISOString(),
    });
  }

  #restore() {
    const { text, problem } = this.storage.readText(this.key);
    if (problem) {
      this.messages.set("notes", `Your notes can't be kept in this browser: ${problem}. Use Export notes to keep them.`);
    } else if (text !== null && this.textarea.value === "") {
      this.textarea.value = text;
    }
  }

  #save() {
    const { ok, problem } = this.storage.write(this.key, this.textarea.value);
    // The textarea keeps the text either way; only the message changes.
    this.messages.set(
      "notes",
      ok ? null : `Your notes could not be saved in this browser: ${problem}. Use Export notes to keep them.`,
    );
  }
}
