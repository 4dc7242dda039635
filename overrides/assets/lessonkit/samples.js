// @ts-check
// Runnable samples: every <div class="lk-sample" data-session="…" data-block-id="…"> the build
// wrapped around a markdown-exec sample becomes editable and runnable in the page, through the same
// worker and the same runner as the build (lessonkit.samples). A sample, edited or not, always runs
// under the block id the build gave it, so its __name__ is the one the build printed.
//
// Samples that share a session share Python globals, as they did when the build ran them in page
// order. So running sample 3 first runs the earlier samples of its session that this worker has not
// run yet, the way the build did; a sample without a session always starts from fresh globals.
import { button } from "./controls.js";
import { fill, h, uniqueId } from "./dom.js";
import { PAGE_WORDS as WORDS } from "./words.js";

// After this long a run gets a Stop button: an endless loop must not hold the page's engine forever.
const STOP_AFTER_MS = 3000;

/** @typedef {import("./engine.js").Engine} Engine */
/** @typedef {import("./storage.js").Storage} Storage */
/** @typedef {import("./types/protocol.js").RunResult} RunResult */

/** @param {string} text */
function lastLine(text) {
  return text.trim().split("\n").filter(Boolean).pop() || text;
}

class Sample {
  /**
   * @param {HTMLElement} wrapper
   * @param {number} number
   * @param {{engine: Engine, storage: Storage, all: Sample[], canRetry: boolean}} context
   */
  constructor(wrapper, number, { engine, storage, all, canRetry }) {
    this.wrapper = wrapper;
    this.number = number;
    this.engine = engine;
    this.storage = storage;
    this.all = all;
    this.canRetry = canRetry;
    this.session = wrapper.dataset.session || "";
    this.blockId = wrapper.dataset.blockId || "";
    this.ranIn = 0; // the engine generation (worker) that last ran this sample
    this.running = false;
    this.noteIsProblem = false;

    /** @param {Element} element */
    const inResult = (element) => element.closest(".result");
    // enhanceSamples makes a Sample only of a wrapper that holds its source.
    this.source = /** @type {HTMLElement} */ ([...wrapper.querySelectorAll(".highlight")].find((element) => !inResult(element)));
    this.code = /** @type {HTMLElement} */ (this.source.querySelector("pre code") || this.source.querySelector("pre"));
    this.original = this.code.textContent ?? ""; // never null for an element
    this.originalHTML = this.code.innerHTML;
    this.key = `lessonkit:sample:${location.pathname}:${number}`;
    this.#wrapOutput();

    const editorId = uniqueId("sample");
    this.textarea = h("textarea", {
      id: editorId,
      class: "lk-code",
      spellcheck: "false",
      autocapitalize: "off",
      autocomplete: "off",
      wrap: "off", // code keeps its lines; long ones scroll as in the highlighted block
      rows: Math.min(30, this.original.split("\n").length + 1),
    });
    this.textarea.value = this.original;
    this.textarea.addEventListener("input", () => this.#edited());
    this.editor = h(
      "div",
      { class: "lk-editor", id: `${editorId}-editor`, hidden: true },
      h("label", { for: editorId, class: "lk-visually-hidden" }, fill(WORDS.sample_code, { number })),
      this.textarea,
    );

    this.edit = button(fill(WORDS.sample_edit, { number }), "lk-edit", () => this.#toggleEditor());
    this.edit.setAttribute("aria-expanded", "false");
    this.edit.setAttribute("aria-controls", this.editor.id);
    this.runButton = button(fill(WORDS.sample_run, { number }), "lk-run", () => this.run());
    this.reset = button(fill(WORDS.sample_reset, { number }), "lk-reset", () => this.#reset());
    this.stop = button(fill(WORDS.sample_stop, { number }), "lk-stop", () => engine.restart(fill(WORDS.sample_stopped, { number })));
    this.stop.hidden = true;
    this.note = h("div", { class: "lk-sample-status", "aria-live": "polite" });
    this.tools = h("div", { class: "lk-tools lk-sample-tools" }, this.edit, this.runButton, this.reset, this.stop);

    this.source.after(this.editor, this.tools, this.note);
    this.#restoreEdit();
    this.#syncReset();
    wrapper.dataset.lkSample = String(number);
  }

  /**
   * markdown-exec puts the output in <div class="result"> for source="material-block", but for
   * source="above" it is just the next highlighted block. Wrapping that block in a .result gives
   * every sample the same shape: source, then .result.
   */
  #wrapOutput() {
    if (this.wrapper.querySelector(".result")) return;
    const next = this.source.nextElementSibling;
    if (next && next.classList.contains("highlight")) {
      const result = h("div", { class: "result" });
      next.replaceWith(result);
      result.append(next);
    }
  }

  get isEdited() {
    return this.textarea.value !== this.original;
  }

  async run() {
    if (this.running) return;
    this.running = true;
    this.wrapper.classList.add("lk-running");
    const { number } = this;
    this.#say(this.engine.state === "ready" ? fill(WORDS.sample_running, { number }) : WORDS.sample_waiting);
    const stopTimer = setTimeout(() => (this.stop.hidden = false), STOP_AFTER_MS);
    try {
      for (const earlier of this.#unrunEarlierInSession()) await earlier.#execute();
      const result = await this.#execute();
      this.#say(
        result.error
          ? fill(WORDS.sample_raised, { number, error: lastLine(result.error) })
          : fill(result.output ? WORDS.sample_ran : WORDS.sample_ran_silently, { number }),
      );
    } catch (error) {
      this.#say(fill(WORDS.sample_failed, { number, reason: error instanceof Error ? error.message : String(error) }), true);
    } finally {
      clearTimeout(stopTimer);
      this.stop.hidden = true;
      this.running = false;
      this.wrapper.classList.remove("lk-running");
    }
  }

  async #execute() {
    const generation = this.engine.generation;
    const { number } = this;
    // A sample that counts real tokens the first time waits for an encoding's ranks: said while they come.
    const unsubscribe = this.engine.subscribe((engine) => {
      if (engine.ranks?.stage === "loading") {
        this.#say(fill(WORDS.sample_ranks_loading, { number, encoding: engine.ranks.encoding, megabytes: (engine.ranks.bytes / 1e6).toFixed(1) }));
      }
    });
    let result;
    try {
      result = await this.engine.run(this.textarea.value, this.session, this.blockId);
    } finally {
      unsubscribe();
    }
    this.ranIn = generation;
    this.#showResult(result);
    return result;
  }

  /** @returns {Sample[]} */
  #unrunEarlierInSession() {
    if (!this.session) return [];
    return this.all.filter(
      (other) => other.number < this.number && other.session === this.session && other.ranIn !== this.engine.generation,
    );
  }

  /** @param {RunResult} result */
  #showResult({ output, error }) {
    let result = /** @type {HTMLElement | null} */ (this.wrapper.querySelector(".result"));
    if (!result) {
      result = h("div", { class: "result" }, h("div", { class: "highlight" }, h("pre", {}, h("code"))));
      this.note.before(result);
    }
    const target = result.querySelector("pre code") || result.querySelector("pre") || result;
    /** @type {Array<string | Node>} */
    const pieces = [output];
    if (error) {
      pieces.push(h("span", { class: "lk-traceback" }, h("strong", { class: "lk-error-label" }, WORDS.sample_error_label), "\n", error));
    }
    target.replaceChildren(...pieces);
    result.classList.toggle("lk-result-error", Boolean(error));
    result.dataset.ran = "browser";
  }

  #toggleEditor() {
    const open = this.editor.hidden;
    this.editor.hidden = !open;
    this.source.hidden = open;
    this.edit.setAttribute("aria-expanded", String(open));
    if (open) this.textarea.focus();
    else this.#showSource();
  }

  /** The block shows what Run runs: the lesson's highlighted code, or the reader's edit as plain text. */
  #showSource() {
    if (this.isEdited) this.code.textContent = this.textarea.value;
    else this.code.innerHTML = this.originalHTML;
  }

  #edited() {
    this.#syncReset();
    const saved = this.isEdited
      ? this.storage.writeJSON(this.key, { original: this.original, code: this.textarea.value })
      : this.storage.remove(this.key);
    if (!saved.ok) this.#say(fill(WORDS.sample_edit_not_saved, { problem: String(saved.problem) }), true);
    else if (this.noteIsProblem) this.#say("");
  }

  #reset() {
    this.textarea.value = this.original;
    this.#edited();
    this.#showSource();
    this.#say(fill(WORDS.sample_back, { number: this.number }));
  }

  #restoreEdit() {
    // Only an edit of this very code comes back: if the lesson changed the sample, the old edit
    // stays in storage untouched rather than replacing new code.
    const value = /** @type {{original?: unknown, code?: unknown} | null} */ (this.storage.readJSON(this.key).value);
    if (!value || value.original !== this.original || typeof value.code !== "string") return;
    this.textarea.value = value.code;
    this.#showSource();
    const { number } = this;
    this.#say(fill(WORDS.sample_edit_restored, { number, reset: fill(WORDS.sample_reset, { number }) }));
  }

  #syncReset() {
    this.reset.disabled = !this.isEdited;
  }

  /**
   * @param {string} text
   * @param {boolean} [problem]
   */
  #say(text, problem = false) {
    this.noteIsProblem = problem;
    /** @type {HTMLElement[]} */
    const children = text ? [h("p", { class: problem ? "lk-message" : "lk-note" }, text)] : [];
    if (problem && this.canRetry && this.engine.state === "failed") {
      children.push(button(WORDS.retry, "lk-retry", () => this.engine.restart()));
    }
    this.note.replaceChildren(...children);
  }
}

/**
 * Make every not-yet-enhanced sample under `root` editable and runnable; returns how many.
 * @param {ParentNode} root
 * @param {{engine: Engine, storage: Storage}} context
 */
export function enhanceSamples(root, { engine, storage }) {
  const wrappers = [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".lk-sample"))];
  // Retry lives in the panel when there is one, so the page never shows two buttons of that name.
  const canRetry = !root.querySelector(".lk-panel");
  /** @type {Sample[]} */
  const all = [];
  wrappers.forEach((wrapper, index) => {
    if (wrapper.dataset.lkSample) return;
    const hasSource = [...wrapper.querySelectorAll(".highlight")].some((element) => !element.closest(".result"));
    if (hasSource) all.push(new Sample(wrapper, index + 1, { engine, storage, all, canRetry }));
  });
  return all.length;
}
