// Parameters as the shell handles them: cache keys, checks in the Python panel's words, and links.
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkParams, decodeState, encodeState, isState, paramsKey } from "../../overrides/assets/lessonkit/params.js";

const SPEC = {
  lesson: "demo",
  controls: [
    { kind: "choice", name: "budget", label: "Context budget", options: [{ value: 24, label: "24" }, { value: 36, label: "36" }], default: 24 },
    { kind: "choice", name: "policy", label: "Policy", options: [{ value: "evict", label: "Evict" }, { value: "summarize", label: "Summarize" }], default: "evict" },
    { kind: "toggle", name: "previous", label: "Include previous sessions", default: false, enables: [] },
    { kind: "range", name: "weight", label: "Recency weight", minimum: 0, maximum: 1, step: 0.05, default: 0, unit: "" },
    { kind: "number", name: "age", label: "Maximum age", minimum: 0, maximum: 720, step: 1, default: 168, unit: "hours" },
    { kind: "text", name: "prediction", label: "Prediction", hint: "" },
  ],
  timeline: { name: "time", end: 60, step: 0.5, unit: "seconds", marks: [] },
  defaults: { budget: 24, policy: "evict", previous: false, weight: 0, age: 168, time: 0 },
};

test("the same settings in any order give the same key, and a baseline changes it", () => {
  const a = paramsKey("demo", { budget: 24, policy: "evict" });
  const b = paramsKey("demo", { policy: "evict", budget: 24 });
  assert.equal(a, b);
  assert.notEqual(a, paramsKey("demo", { budget: 24, policy: "evict" }, { budget: 36, policy: "evict" }));
});

test("a link carries every parameter but the reader's text, and reads back to the same values", () => {
  const params = { budget: 36, policy: "summarize", previous: true, weight: 0.25, age: 48, time: 37.5 };
  const fragment = encodeState(SPEC, params);
  assert.equal(fragment, "budget=36&policy=summarize&previous=true&weight=0.25&age=48&time=37.5");
  assert.ok(isState(fragment));
  assert.ok(!isState("find-the-first-unsupported-mention"));
  assert.deepEqual(decodeState(SPEC, `#${fragment}`), { params });
});

test("a link may leave parameters out: they take their defaults", () => {
  assert.deepEqual(decodeState(SPEC, "budget=36").params, { ...SPEC.defaults, budget: 36 });
});

test("a link with a value out of bounds or an unknown name is refused, naming the parameter and what is allowed", () => {
  assert.deepEqual(decodeState(SPEC, "budget=30&time=90").problems, [
    "parameter 'budget' is \"30\"; allowed: 24, 36",
    "parameter 'time' is 90; allowed: 0 to 60 seconds",
  ]);
  assert.deepEqual(decodeState(SPEC, "speed=2").problems, [
    "parameter 'speed' is not one of this experiment's; allowed: budget, policy, previous, weight, age, time",
  ]);
  assert.deepEqual(decodeState(SPEC, "weight=0.33").problems, ["parameter 'weight' is 0.33; allowed: 0 to 1, in steps of 0.05"]);
  assert.deepEqual(decodeState(SPEC, "age=1.5").problems, ["parameter 'age' is 1.5; allowed: 0 to 720 hours, whole numbers"]);
  assert.deepEqual(decodeState(SPEC, "previous=yes").problems, ["parameter 'previous' is \"yes\"; allowed: true, false"]);
});

test("saved settings are checked whole: a missing or wrongly typed value is named", () => {
  assert.deepEqual(checkParams(SPEC, { ...SPEC.defaults, budget: "24" }).problems, ["parameter 'budget' is \"24\"; allowed: 24, 36"]);
  const { time, ...withoutTime } = SPEC.defaults;
  assert.equal(time, 0);
  assert.deepEqual(checkParams(SPEC, withoutTime).problems, ["parameter 'time' is missing; allowed: 0 to 60 seconds"]);
  assert.deepEqual(checkParams(SPEC, [1, 2]).problems, [
    "parameters are [1,2]; allowed: an object of name and value, with the names budget, policy, previous, weight, age, time",
  ]);
});

test("a range value off by float noise snaps to its grid", () => {
  assert.equal(decodeState(SPEC, "weight=0.30000000000000004").params.weight, 0.3);
});

test("a link is percent-decoded once: an escaped percent stays one, and a lone percent is refused as written", () => {
  // Decoded twice, "%2526" would become "&" and a lone "%" would throw before any refusal was said.
  assert.deepEqual(decodeState(SPEC, "policy=%2526").problems, ["parameter 'policy' is \"%26\"; allowed: \"evict\", \"summarize\""]);
  assert.deepEqual(decodeState(SPEC, "age=50%").problems, ["parameter 'age' is \"50%\"; allowed: 0 to 720 hours, whole numbers"]);
  assert.deepEqual(decodeState(SPEC, "policy=summarize&age=%31%30").params, { ...SPEC.defaults, policy: "summarize", age: 10 });
});

test("only a decimal in a link reads as a number: hexadecimal, binary and padded text are refused as written", () => {
  for (const text of ["0x10", "0b11", "0o7", " 36", "1_000", ""]) {
    assert.deepEqual(decodeState(SPEC, `age=${encodeURIComponent(text)}`).problems, [
      `parameter 'age' is ${JSON.stringify(text)}; allowed: 0 to 720 hours, whole numbers`,
    ]);
  }
  for (const [text, value] of [["36", 36], ["36.0", 36], ["-0", 0], ["1e2", 100], [".5e1", 5]]) {
    assert.equal(decodeState(SPEC, `age=${text}`).params?.age, value, text);
  }
});

test("a name a link gives twice is refused with its values, not settled by whichever came last", () => {
  assert.deepEqual(decodeState(SPEC, "age=24&policy=evict&age=36").problems, [
    "parameter 'age' is given 2 times (\"24\", \"36\"); allowed: once",
  ]);
  const repeated = Array.from({ length: 5000 }, (_, n) => `age=${n}`).join("&");
  assert.deepEqual(decodeState(SPEC, repeated).problems, [
    "parameter 'age' is given 5000 times (\"0\", \"1\", \"2\", and 4997 more); allowed: once",
  ]);
});
