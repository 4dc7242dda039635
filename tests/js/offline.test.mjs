// What the foot of every page says about the course kept for reading offline, from the reader's
// choice and the service worker's states (offline.js describeCourse): one case per sentence.
import assert from "node:assert/strict";
import { test } from "node:test";

import { describeCourse } from "../../overrides/assets/lessonkit/offline.js";
import { PAGE_WORDS as WORDS } from "../../overrides/assets/lessonkit/words.js";

const nothing = { choice: null, savesData: false, current: null, next: null, problem: null, waitingForEngine: false, cleared: false };

/** A service worker's state for build `version`. */
const course = (version, state, extra = {}) => ({ kind: "course", version, state, received: 0, total: 25_164_419, reason: "", ...extra });

test("a first visit waits for the page's engine, then shows the course being kept, with a bar", () => {
  assert.equal(describeCourse({ ...nothing, waitingForEngine: true }).status, WORDS.offline_waiting);
  const filling = describeCourse({ ...nothing, next: course("a", "filling", { received: 1_000_000 }) });
  assert.equal(filling.status, WORDS.offline_filling);
  assert.deepEqual(filling.progress, { received: 1_000_000, total: 25_164_419 });
});

test("a kept course says so with its size, whether it is the one in use or just finished", () => {
  const said = WORDS.offline_kept.replace("{total}", "25.2");
  assert.equal(describeCourse({ ...nothing, current: course("a", "kept") }).status, said);
  assert.equal(describeCourse({ ...nothing, next: course("a", "kept") }).status, said);
  assert.equal(describeCourse({ ...nothing, current: course("a", "kept") }).progress, null);
});

test("a newer build kept beside the one in use is said to replace it on the next visit", () => {
  const known = { ...nothing, current: course("a", "kept"), next: course("b", "kept") };
  assert.equal(describeCourse(known).status, WORDS.offline_newer_kept);
});

test("a build that could not be kept says why, and whether the one kept before still works", () => {
  const failed = course("b", "failed", { reason: "assets/x.js answered HTTP 404" });
  assert.equal(describeCourse({ ...nothing, next: failed }).status, WORDS.offline_failed.replace("{reason}", "assets/x.js answered HTTP 404"));
  assert.equal(
    describeCourse({ ...nothing, current: course("a", "kept"), next: failed }).status,
    WORDS.offline_failed_kept.replace("{reason}", "assets/x.js answered HTTP 404"),
  );
});

test("a full storage is said in the reader's words, with the room the course needs", () => {
  const full = course("a", "failed", { reason: "QuotaExceededError: Quota exceeded" });
  const because = WORDS.offline_storage_full.replace("{total}", "25.2");
  assert.equal(describeCourse({ ...nothing, next: full }).status, WORDS.offline_failed.replace("{reason}", because));
});

test("the reader's choice to keep nothing wins over anything a worker says, and deleting is said once", () => {
  const known = { ...nothing, choice: "off", current: course("a", "kept") };
  assert.equal(describeCourse(known).status, WORDS.offline_off);
  assert.equal(describeCourse({ ...known, cleared: true }).status, WORDS.offline_cleared);
});

test("a connection that saves data keeps nothing until the reader asks", () => {
  assert.equal(describeCourse({ ...nothing, savesData: true }).status, WORDS.offline_saves_data);
  assert.equal(describeCourse({ ...nothing, savesData: true, choice: "on", waitingForEngine: true }).status, WORDS.offline_waiting);
});

test("make serve, and a browser that cannot keep files, say so instead", () => {
  assert.equal(describeCourse({ ...nothing, next: course("s", "serving") }).status, WORDS.offline_serving);
  assert.equal(describeCourse({ ...nothing, problem: WORDS.offline_storage_off }).status, WORDS.offline_storage_off);
});
