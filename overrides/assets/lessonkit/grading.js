// @ts-check
// Checking a reader's answer to an exercise against the key the build computed with the lesson's
// engine (lessonkit.authoring.exercises). Pure: no page, no storage, no Python, so an answer is
// checked the moment it is given, before the engine has started, and the tests run it under Node.
import { fill } from "./dom.js";
import { PAGE_WORDS as WORDS } from "./words.js";

/**
 * The build's key: `answer` is the right options' indices (a number for a number exercise), and
 * `feedback` the engine's sentence about each option, in the options' order.
 * @typedef {{id: string, kind: "one" | "several" | "number" | "yes-no", settings: string, hints: string[], answer: number[] | number, feedback?: string[]}} Key
 */

/**
 * What the reader gave: the chosen options' indices, or the text typed into a number field.
 * @typedef {number[] | string} Choice
 */

/**
 * "right", "not-yet", or "unanswered" (nothing chosen, or a number field that holds no number), with
 * the sentence the page says.
 * @typedef {{verdict: "right" | "not-yet" | "unanswered", message: string}} Verdict
 */

/** A number as the page writes it: 23, 22.5, never 22.500000001. */
const spell = (/** @type {number} */ value) => String(Number(value.toFixed(9)));

/**
 * @param {Key} key
 * @param {Choice} choice
 * @returns {Verdict}
 */
export function check(key, choice) {
  if (key.kind === "number") return checkNumber(/** @type {number} */ (key.answer), String(choice));
  const chosen = Array.isArray(choice) ? [...new Set(choice)].sort((a, b) => a - b) : [];
  if (!chosen.length) return { verdict: "unanswered", message: key.kind === "several" ? WORDS.exercise_choose_several : WORDS.exercise_choose_one };
  const right = /** @type {number[]} */ (key.answer);
  const feedback = key.feedback || [];
  const isRight = chosen.length === right.length && chosen.every((index) => right.includes(index));
  if (key.kind !== "several") {
    const said = feedback[chosen[0]] || "";
    return { verdict: isRight ? "right" : "not-yet", message: fill(isRight ? WORDS.exercise_right : WORDS.exercise_not_yet, { feedback: said }) };
  }
  if (isRight) return { verdict: "right", message: fill(WORDS.exercise_right, { feedback: chosen.map((index) => feedback[index]).join(" ") }) };
  // What the engine says about each option the reader got wrong: chosen but not right, or right but left out.
  const wrong = feedback.map((_, index) => index).filter((index) => chosen.includes(index) !== right.includes(index));
  return { verdict: "not-yet", message: fill(WORDS.exercise_not_yet, { feedback: wrong.map((index) => feedback[index]).join(" ") }) };
}

/**
 * @param {number} answer
 * @param {string} text
 * @returns {Verdict}
 */
function checkNumber(answer, text) {
  const trimmed = text.trim();
  const value = trimmed === "" ? Number.NaN : Number(trimmed);
  if (trimmed === "") return { verdict: "unanswered", message: WORDS.exercise_number_missing };
  if (!Number.isFinite(value)) return { verdict: "unanswered", message: fill(WORDS.exercise_not_a_number, { text: trimmed }) };
  if (Math.abs(value - answer) <= 1e-9) return { verdict: "right", message: fill(WORDS.exercise_right_number, { value: spell(value) }) };
  return { verdict: "not-yet", message: fill(value < answer ? WORDS.exercise_higher : WORDS.exercise_lower, { value: spell(value) }) };
}
