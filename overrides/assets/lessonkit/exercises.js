// @ts-check
// A lesson's exercises brought to life. The build writes each as a fieldset that reads with
// JavaScript off (the question, its options, the hints and the answer in disclosures) and puts the
// key it computed with the lesson's engine in the fieldset's data-key. Here the reader answers and
// presses Check (graded at once by grading.js, no Python needed), asks for hints one at a time,
// shows the answer, or sets the page's experiment to the exercise's settings. What the reader
// answered is kept per lesson in storage, as notes are, and never lost to a storage that fails.
import { button } from "./controls.js";
import { fill, h } from "./dom.js";
import { check } from "./grading.js";
import { PAGE_WORDS as WORDS } from "./words.js";

/** @typedef {import("./grading.js").Key} Key */
/** @typedef {import("./grading.js").Choice} Choice */
/** @typedef {import("./storage.js").Storage} Storage */
/**
 * One exercise as the reader left it: what was last checked, how often, whether it was right, how
 * many hints were shown and whether the answer was.
 * @typedef {{choice: Choice | null, attempts: number, right: boolean, hints: number, shown: boolean}} Answer
 */

/**
 * The answers of each lesson whose exercises this page shows, by lesson id: Export notes takes them
 * from here, so an answer the storage refused is still exported.
 * @type {Map<string, Answers>}
 */
export const shownAnswers = new Map();

/** Where a lesson's answers are kept: beside its notes, under the lesson's id. */
export const answersKey = (/** @type {string} */ lesson) => `lessonkit:${lesson}:exercises`;

/**
 * What is wrong with a stored value, or null: `{answers: {id: Answer}}`.
 * @param {unknown} value
 */
export function answersProblem(value) {
  const answers = value && typeof value === "object" ? /** @type {{answers?: unknown}} */ (value).answers : undefined;
  if (!answers || typeof answers !== "object" || Array.isArray(answers)) return WORDS.exercise_stored_no_answers;
  for (const [id, answer] of Object.entries(answers)) {
    const entry = /** @type {Partial<Answer>} */ (answer);
    if (!entry || typeof entry !== "object" || typeof entry.attempts !== "number" || typeof entry.right !== "boolean") {
      return fill(WORDS.exercise_stored_wrong, { id });
    }
  }
  return null;
}

/** The reader's answers to one lesson's exercises, read once and written on every change. */
export class Answers {
  /**
   * @param {string} lesson
   * @param {Storage} storage
   */
  constructor(lesson, storage) {
    this.key = answersKey(lesson);
    this.storage = storage;
    const read = storage.readJSON(this.key, answersProblem);
    /** @type {Record<string, Answer>} */
    this.answers = read.value ? /** @type {{answers: Record<string, Answer>}} */ (read.value).answers : {};
    /** Why earlier answers could not be read, or null. What could not be read stays in storage, untouched. */
    this.problem = read.problem || null;
    /** Whether storage held answers this page could not read (rather than no storage to read at all). */
    this.unreadable = read.unreadable !== undefined;
  }

  /** @param {string} id */
  get(id) {
    return this.answers[id] || { choice: null, attempts: 0, right: false, hints: 0, shown: false };
  }

  /**
   * @param {string} id
   * @param {Partial<Answer>} change
   * @returns {string | null} why it could not be saved, or null
   */
  set(id, change) {
    this.answers[id] = { ...this.get(id), ...change };
    const { ok, problem } = this.storage.writeJSON(this.key, { answers: this.answers });
    return ok ? null : String(problem);
  }

  /** @returns {string | null} why they could not be cleared, or null */
  clear() {
    this.answers = {};
    const { ok, problem } = this.storage.remove(this.key);
    return ok ? null : String(problem);
  }

  /** @param {string[]} ids */
  answeredRight(ids) {
    return ids.filter((id) => this.get(id).right).length;
  }
}

/**
 * One exercise: its buttons, its status region, and the reader's answer restored.
 */
class Exercise {
  /**
   * @param {HTMLFieldSetElement} fieldset
   * @param {{answers: Answers, changed: () => void, tryIt: (settings: string) => boolean}} page
   */
  constructor(fieldset, { answers, changed, tryIt }) {
    this.fieldset = fieldset;
    /** @type {Key} */
    this.key = JSON.parse(fieldset.dataset.key || "{}");
    this.answers = answers;
    this.changed = changed;
    this.status = h("p", { class: "lk-exercise-feedback", role: "status" });
    // Hints are shown one at a time in a list of their own; the build's disclosure stays for JavaScript off.
    this.hintList = h("ol", { class: "lk-exercise-hint-list" });
    this.hintsDisclosure = /** @type {HTMLDetailsElement | null} */ (fieldset.querySelector(".lk-exercise-hints"));
    this.answerDisclosure = /** @type {HTMLDetailsElement | null} */ (fieldset.querySelector(".lk-exercise-answer"));
    if (this.hintsDisclosure) this.hintsDisclosure.hidden = true;
    this.hintButton = button(WORDS.exercise_hint, "lk-exercise-hint", () => this.#hint());
    const tools = h(
      "div",
      { class: "lk-tools lk-exercise-tools" },
      button(WORDS.exercise_check, "lk-exercise-check", () => this.#check()),
      this.hintButton,
      button(WORDS.exercise_show, "lk-exercise-show", () => this.#show()),
      button(WORDS.exercise_try, "lk-exercise-try", () => {
        this.#say(tryIt(this.key.settings) ? WORDS.exercise_tried : fill(WORDS.exercise_no_panel, { settings: this.key.settings }));
      }),
    );
    (this.answerDisclosure || fieldset.lastElementChild)?.before(this.hintList, tools, this.status);
    this.answerDisclosure?.addEventListener("toggle", () => {
      if (this.answerDisclosure?.open && !this.answers.get(this.key.id).shown) this.#save({ shown: true });
    });
    // Enter in a number field checks the answer, as a form would submit it.
    for (const input of this.inputs) {
      if (input.type === "number") input.addEventListener("keydown", (event) => event.key === "Enter" && (event.preventDefault(), this.#check()));
    }
    this.#restore();
    fieldset.dataset.lkExercise = "ready";
  }

  /** @returns {HTMLInputElement[]} */
  get inputs() {
    return [...this.fieldset.querySelectorAll("input")];
  }

  /** @returns {Choice} */
  #choice() {
    if (this.key.kind === "number") return this.inputs[0]?.value ?? "";
    return this.inputs.filter((input) => input.checked).map((input) => Number(input.value));
  }

  #check() {
    const choice = this.#choice();
    const { verdict, message } = check(this.key, choice);
    this.fieldset.dataset.verdict = verdict;
    this.#say(message);
    if (verdict === "unanswered") return;
    const before = this.answers.get(this.key.id);
    this.#save({ choice, attempts: before.attempts + 1, right: verdict === "right" });
  }

  #hint() {
    const shown = this.hintList.children.length;
    const total = this.key.hints.length;
    if (shown >= total) {
      this.#say(WORDS.exercise_hints_done);
      return;
    }
    this.hintList.append(h("li", {}, this.key.hints[shown]));
    this.#say(fill(WORDS.exercise_hint_shown, { number: shown + 1, total }));
    this.#save({ hints: Math.max(shown + 1, this.answers.get(this.key.id).hints) });
  }

  #show() {
    if (this.answerDisclosure) {
      this.answerDisclosure.open = true;
      this.answerDisclosure.querySelector("summary")?.focus();
    }
    this.#say(WORDS.exercise_shown);
    this.#save({ shown: true });
  }

  /** What the reader left here on an earlier visit: the choice, the hints seen, the answer if shown, and the verdict. */
  #restore() {
    const answer = this.answers.get(this.key.id);
    const { choice } = answer;
    if (this.key.kind === "number" && typeof choice === "string" && this.inputs[0]) this.inputs[0].value = choice;
    if (Array.isArray(choice)) for (const input of this.inputs) input.checked = choice.includes(Number(input.value));
    for (const hint of this.key.hints.slice(0, answer.hints)) this.hintList.append(h("li", {}, hint));
    if (answer.shown && this.answerDisclosure) this.answerDisclosure.open = true;
    if (choice !== null && answer.attempts) this.fieldset.dataset.verdict = check(this.key, choice).verdict;
  }

  /** As a newcomer finds it: nothing chosen, no hint, no feedback, the answer closed. The answers are the page's to clear. */
  clear() {
    delete this.fieldset.dataset.verdict;
    for (const input of this.inputs) {
      input.checked = false;
      if (input.type === "number") input.value = "";
    }
    this.hintList.replaceChildren();
    this.status.replaceChildren();
    if (this.answerDisclosure) this.answerDisclosure.open = false;
  }

  /** @param {Partial<Answer>} change */
  #save(change) {
    const problem = this.answers.set(this.key.id, change);
    if (problem) this.#say(fill(WORDS.exercise_not_saved, { problem }), true);
    this.changed();
  }

  /**
   * @param {string} text
   * @param {boolean} [append]  keep what the region said, and add this
   */
  #say(text, append = false) {
    this.status.textContent = append && this.status.textContent ? `${this.status.textContent} ${text}` : text;
  }
}

/**
 * Bring every exercise under `root` to life. `tryIt(settings)` sets the page's experiment to a
 * link's settings and says whether it could.
 * @param {ParentNode} root
 * @param {{storage: Storage, tryIt: (settings: string) => boolean}} options
 */
export function enhanceExercises(root, { storage, tryIt }) {
  const fieldsets = [.../** @type {NodeListOf<HTMLFieldSetElement>} */ (root.querySelectorAll("fieldset.lk-exercise:not([data-lk-exercise])"))];
  if (!fieldsets.length) return;
  const lesson = fieldsets[0].dataset.lesson || "";
  const answers = new Answers(lesson, storage);
  shownAnswers.set(lesson, answers);
  const ids = fieldsets.map((fieldset) => JSON.parse(fieldset.dataset.key || "{}").id);
  // After the last exercise: how many are answered, and the way to start again.
  const progress = h("p", { class: "lk-exercise-progress" });
  const messages = h("p", { class: "lk-exercise-progress-status", role: "status" });
  const show = () => {
    progress.textContent = fill(WORDS.exercise_progress, { answered: answers.answeredRight(ids), total: ids.length });
  };
  const exercises = fieldsets.map((fieldset) => new Exercise(fieldset, { answers, changed: show, tryIt }));
  const clear = button(WORDS.exercise_clear, "lk-exercise-clear", () => {
    const problem = answers.clear();
    messages.textContent = problem ? fill(WORDS.exercise_not_saved, { problem }) : WORDS.exercise_cleared;
    if (problem) return;
    for (const exercise of exercises) exercise.clear();
    show();
  });
  fieldsets[fieldsets.length - 1].after(h("div", { class: "lk-exercise-summary" }, progress, clear, messages));
  if (answers.problem) {
    messages.textContent = fill(answers.unreadable ? WORDS.exercise_unreadable : WORDS.exercise_not_kept, { problem: answers.problem });
  }
  show();
}

/**
 * The home page's lesson cards: each says how many of its lesson's exercises the reader has
 * answered right. The build lists each lesson's exercise ids in `data-exercises`; with JavaScript
 * off the line stays hidden, as there is nothing to count.
 * @param {ParentNode} root
 * @param {Storage} storage
 */
export function showLessonProgress(root, storage) {
  for (const line of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".lk-lesson-progress[data-lesson]"))) {
    /** @type {string[]} */
    const ids = JSON.parse(line.dataset.exercises || "[]");
    const answers = new Answers(line.dataset.lesson || "", storage);
    line.textContent = fill(WORDS.exercise_progress, { answered: answers.answeredRight(ids), total: ids.length });
    line.hidden = false;
  }
}
