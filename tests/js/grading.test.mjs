// An answer is checked against the build's key, with the engine's own sentence for what the reader
// chose; and the reader's answers are kept per lesson without losing an unreadable earlier one.
import assert from "node:assert/strict";
import { test } from "node:test";

import { memoryBackend } from "./support/memory-backend.mjs";

import { check } from "../../overrides/assets/lessonkit/grading.js";
import { Answers, answersKey, answersProblem } from "../../overrides/assets/lessonkit/exercises.js";
import { Storage } from "../../overrides/assets/lessonkit/storage.js";

const one = {
  id: "first-unsupported",
  kind: "one",
  settings: "budget=24&policy=evict",
  hints: ["Watch T2."],
  answer: [2],
  feedback: ["At 15 s T2 is there.", "At 22.5 s T2 is there.", "At 30 s T2 is gone.", "At 37.5 s nothing mentions it."],
};

test("a right choice is right, with the engine's sentence for it", () => {
  assert.deepEqual(check(one, [2]), { verdict: "right", message: "Right. At 30 s T2 is gone." });
});

test("a wrong choice is 'not yet', answered by what the engine found for the reader's own choice", () => {
  assert.deepEqual(check(one, [0]), { verdict: "not-yet", message: "Not yet. At 15 s T2 is there." });
});

test("nothing chosen is not an attempt", () => {
  assert.equal(check(one, []).verdict, "unanswered");
});

const several = { ...one, kind: "several", answer: [0, 2, 3], feedback: ["T1 stays.", "T2 is gone.", "T3 stays.", "T4 stays."] };

test("several are right in any order, and only all of them", () => {
  assert.equal(check(several, [3, 0, 2]).verdict, "right");
  const partly = check(several, [0, 1]);
  // T2 chosen but gone, T3 and T4 left out: the engine's sentence for each of those three.
  assert.deepEqual(partly, { verdict: "not-yet", message: "Not yet. T2 is gone. T3 stays. T4 stays." });
});

const number = { id: "tokens", kind: "number", settings: "", hints: ["Add them up."], answer: 23 };

test("a number says higher or lower, and refuses what is not a number by name", () => {
  assert.deepEqual(check(number, "23"), { verdict: "right", message: "Right: 23." });
  assert.deepEqual(check(number, " 20 "), { verdict: "not-yet", message: "Not yet: the engine's answer is higher than 20." });
  assert.deepEqual(check(number, "30.5"), { verdict: "not-yet", message: "Not yet: the engine's answer is lower than 30.5." });
  assert.deepEqual(check(number, ""), { verdict: "unanswered", message: "Write a number first." });
  assert.deepEqual(check(number, "twenty"), { verdict: "unanswered", message: "“twenty” is not a number; write digits, such as 23 or 22.5." });
});

test("answers are kept per lesson and read back on the next visit", () => {
  const backend = memoryBackend();
  const answers = new Answers("context-compression", new Storage(backend));
  assert.equal(answers.set("first-unsupported", { choice: [2], attempts: 2, right: true }), null);
  const again = new Answers("context-compression", new Storage(backend));
  assert.deepEqual(again.get("first-unsupported"), { choice: [2], attempts: 2, right: true, hints: 0, shown: false });
  assert.equal(again.answeredRight(["first-unsupported", "other"]), 1);
  assert.equal(again.clear(), null);
  assert.equal(backend.items.has(answersKey("context-compression")), false);
});

test("unreadable earlier answers are said, kept aside before the next write, never lost", () => {
  const backend = memoryBackend({ [answersKey("context-compression")]: "{not json" });
  const answers = new Answers("context-compression", new Storage(backend));
  assert.match(String(answers.problem), /not valid JSON/);
  assert.equal(answers.unreadable, true);
  answers.set("first-unsupported", { choice: [0], attempts: 1, right: false });
  const aside = [...backend.items.keys()].find((key) => key.startsWith(`${answersKey("context-compression")}:corrupt:`));
  assert.equal(backend.items.get(String(aside)), "{not json");
});

test("a stored value this page did not write is refused by name", () => {
  assert.equal(answersProblem({ answers: { a: { attempts: 1, right: true } } }), null);
  assert.equal(answersProblem([]), "it holds no answers");
  assert.equal(answersProblem({ answers: { a: { right: "yes" } } }), "the answer to 'a' is not one this page wrote");
});

test("a full storage keeps the answer on the page and says why it was not saved", () => {
  const backend = memoryBackend();
  backend.setItem = () => {
    throw Object.assign(new Error("The quota has been exceeded"), { name: "QuotaExceededError" });
  };
  const answers = new Answers("context-compression", new Storage(backend));
  assert.equal(answers.set("first-unsupported", { choice: [2], attempts: 1, right: true }), "QuotaExceededError: The quota has been exceeded");
  assert.equal(answers.get("first-unsupported").right, true);
});
