// The LRU map the engine keeps Python's views in: bounded, and what was used last is kept longest.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LRUMap } from "../../overrides/assets/lessonkit/lru.js";

test("a full map forgets its least recently used entry to keep a new one", () => {
  const map = new LRUMap(3);
  for (const key of ["a", "b", "c", "d"]) map.set(key, key.toUpperCase());
  assert.equal(map.size, 3);
  assert.deepEqual([...map.keys()], ["b", "c", "d"]);
  assert.equal(map.get("a"), undefined);
  assert.equal(map.get("d"), "D");
});

test("reading an entry makes it the most recently used, so the next one forgotten is another", () => {
  const map = new LRUMap(3);
  for (const key of ["a", "b", "c"]) map.set(key, key);
  assert.equal(map.get("a"), "a");
  map.set("d", "d");
  assert.deepEqual([...map.keys()], ["c", "a", "d"]);
  assert.equal(map.has("b"), false);
});

test("setting a key already held replaces its value and makes it most recent, without growing", () => {
  const map = new LRUMap(2);
  map.set("a", 1).set("b", 2).set("a", 3);
  assert.equal(map.size, 2);
  assert.deepEqual([...map.keys()], ["b", "a"]);
  map.set("c", 4);
  assert.deepEqual([...map.keys()], ["a", "c"]);
  assert.equal(map.get("a"), 3);
});

test("a value that is falsy is still held", () => {
  const map = new LRUMap(1);
  map.set("zero", 0);
  assert.equal(map.has("zero"), true);
  assert.equal(map.get("zero"), 0);
});

test("a map that could keep nothing is refused", () => {
  for (const limit of [0, -1, 1.5, Number.NaN]) assert.throws(() => new LRUMap(limit), RangeError);
});
