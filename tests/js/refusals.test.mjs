// The golden refusals of tests/refusals.json, as params.js says them: saved settings checked whole,
// and a link's fragment decoded. tests/test_refusals.py holds the Python panels to the same file
// (and its copy of each lesson's spec to the panels as they are), so the two cannot drift apart.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { checkParams, decodeState } from "../../overrides/assets/lessonkit/params.js";

const CONTRACT = JSON.parse(readFileSync(new URL("../refusals.json", import.meta.url), "utf8"));

/** The parameters a case gives, as saved settings or a request would (as tests/test_refusals.py builds them). */
function given(spec, item) {
  if ("given" in item) return item.given;
  const params = { ...spec.defaults, ...(item.params || {}), ...JSON.parse(item.params_json || "{}") };
  for (const name of item.without || []) delete params[name];
  if (item.many) {
    for (let n = 1; n <= item.many.count; n += 1) params[item.many.name.replace("{n}", String(n))] = item.many.value;
  }
  return params;
}

const refusal = (result) => (result.problems ? result.problems.join("; ") : `accepted: ${JSON.stringify(result.params)}`);

for (const item of CONTRACT.cases) {
  const spec = CONTRACT.specs[item.lesson];
  if (["params", "params_json", "without", "given", "many"].some((key) => key in item)) {
    test(`settings: ${item.proves}`, () => {
      assert.equal(refusal(checkParams(spec, given(spec, item))), item.refusal);
    });
  }
  if ("link" in item) {
    test(`link: ${item.proves}`, () => {
      const link = Array(item.repeat || 1).fill(item.link).join("&");
      assert.equal(refusal(decodeState(spec, link)), item.refusal);
    });
  }
}
