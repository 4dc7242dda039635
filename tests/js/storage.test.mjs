// Storage never throws and never loses what the reader wrote: corrupt values are set aside first.
import assert from "node:assert/strict";
import { test } from "node:test";

import { memoryBackend } from "./support/memory-backend.mjs";

import { Storage } from "../../overrides/assets/lessonkit/storage.js";

test("text written is read back, and absent keys read as null", () => {
  const storage = new Storage(memoryBackend());
  assert.deepEqual(storage.write("k", "hello"), { ok: true, keptAs: null });
  assert.equal(storage.readText("k").text, "hello");
  assert.equal(storage.readText("other").text, null);
});

test("text saved under a lesson's former id is still found, and says where", () => {
  const storage = new Storage(memoryBackend({ "lessonkit:compression:notes": "old notes" }));
  const { text, key } = storage.readText("lessonkit:context-compression:notes", ["lessonkit:compression:notes"]);
  assert.equal(text, "old notes");
  assert.equal(key, "lessonkit:compression:notes");
});

test("an unreadable value is reported, left in place, and copied aside before it is replaced", () => {
  const backend = memoryBackend({ b: "{not json" });
  const storage = new Storage(backend);
  const read = storage.readJSON("b");
  assert.equal(read.value, null);
  assert.equal(read.unreadable, "{not json");
  assert.match(read.problem, /not valid JSON/);
  assert.equal(backend.items.get("b"), "{not json");

  const written = storage.writeJSON("b", { text: "new" });
  assert.ok(written.ok);
  assert.match(written.keptAs, /^b:corrupt:/);
  assert.equal(backend.items.get(written.keptAs), "{not json");
  assert.deepEqual(JSON.parse(backend.items.get("b")), { text: "new" });
});

test("a full storage answers with the reason instead of throwing", () => {
  const backend = memoryBackend();
  backend.setItem = () => {
    throw Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" });
  };
  const result = new Storage(backend).write("k", "text");
  assert.deepEqual(result, { ok: false, problem: "QuotaExceededError: The quota has been exceeded", keptAs: null });
});

test("storage switched off entirely is a problem to report, not an exception", () => {
  const backend = {
    getItem() {
      throw Object.assign(new Error("Access is denied for this document."), { name: "SecurityError" });
    },
  };
  const read = new Storage(backend).readText("k");
  assert.equal(read.text, null);
  assert.equal(read.problem, "SecurityError: Access is denied for this document");
});

test("with no window at all (node), storage is unavailable and says so", () => {
  const storage = new Storage();
  assert.equal(storage.readText("k").problem, "this page has no window");
  assert.equal(storage.write("k", "x").ok, false);
});

function listedBackend(initial = {}) {
  const backend = memoryBackend(initial);
  Object.defineProperty(backend, "length", { get: () => backend.items.size });
  backend.key = (index) => [...backend.items.keys()][index] ?? null;
  return backend;
}

test("unreadable text stays offered for export, read this visit or set aside on an earlier one", () => {
  const backend = listedBackend({
    "lessonkit:a:baseline": "{not json",
    "lessonkit:a:baseline:corrupt:2025-01-01T00:00:00.000Z": "{older",
    "lessonkit:b:baseline:corrupt:2025-01-01T00:00:00.000Z": "{another lesson",
  });
  const storage = new Storage(backend);
  storage.readJSON("lessonkit:a:baseline");
  storage.writeJSON("lessonkit:a:baseline", { text: "new" }); // copies "{not json" aside first

  const offered = storage.unreadableTexts("lessonkit:a:");
  assert.deepEqual(Object.values(offered).sort(), ["{not json", "{not json", "{older"]);
  assert.ok("lessonkit:a:baseline" in offered, "what this visit read, under the key it was read from");
  assert.ok(!Object.values(offered).includes("{another lesson"), "each lesson offers only its own");
});

test("a storage that cannot be listed still offers what this visit read", () => {
  const backend = memoryBackend({ k: "{not json" });
  backend.key = () => {
    throw new Error("denied");
  };
  Object.defineProperty(backend, "length", { get: () => 1 });
  const storage = new Storage(backend);
  storage.readJSON("k");
  assert.deepEqual(storage.unreadableTexts(""), { k: "{not json" });
});
