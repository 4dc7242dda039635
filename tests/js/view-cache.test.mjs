// Which views the engine answers without asking Python: all of the build's, however long the
// reader explores, and only the most recent of Python's. The worker is the test's own: it answers
// every view at once, and counts what it was asked.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { Engine } from "../../overrides/assets/lessonkit/engine.js";

const LESSON = "context-compression";

/** A view as the engine's runtime would send it, naming its settings so a test can tell views apart. */
function viewOf(params, withExport) {
  const view = { status: `budget ${params.budget}`, html: "", baseline: "", state: { params } };
  return withExport ? { ...view, export: { params } } : view;
}

/** Stands in for worker.js: ready when told, then answers each view request as Python would. */
class FakeWorker extends EventTarget {
  static started = [];

  constructor(url, options) {
    super();
    this.url = url;
    this.options = options;
    this.asked = [];
    FakeWorker.started.push(this);
  }

  postMessage(request) {
    this.asked.push(request);
    const answer = { ok: true, view: viewOf(request.params, request.export) };
    queueMicrotask(() => this.#say({ kind: "answer", id: request.id, text: JSON.stringify(answer) }));
  }

  terminate() {}

  ready() {
    this.#say({ kind: "ready", pyodide: "0.0.0", seconds: 0, start: "started normally" });
  }

  #say(data) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
}

beforeEach((context) => {
  FakeWorker.started = [];
  globalThis.Worker = FakeWorker;
  context.mock.method(console, "debug", () => {});
});

afterEach(() => {
  delete globalThis.Worker;
  delete globalThis.lessonkitEarly;
});

/** An engine whose Python is running, keeping `liveViews` of its views, and the worker it asks. */
function runningEngine(liveViews) {
  const engine = new Engine("worker.js", { liveViews });
  engine.start();
  const [worker] = FakeWorker.started;
  worker.ready();
  return { engine, worker };
}

const budget = (value) => ({ budget: value, policy: "evict" });

test("a view Python computed is answered again without asking Python", async () => {
  const { engine, worker } = runningEngine(4);
  const first = await engine.view(LESSON, budget(1));
  const again = await engine.view(LESSON, budget(1));
  assert.equal(worker.asked.length, 1);
  assert.equal(again, first);
  assert.equal(engine.source(LESSON, budget(1)), "live");
});

test("beyond its bound the engine forgets the least recently used of Python's views, and asks Python again", async () => {
  const { engine, worker } = runningEngine(3);
  for (const value of [1, 2, 3]) await engine.view(LESSON, budget(value));
  await engine.view(LESSON, budget(1)); // used again: now the most recent
  await engine.view(LESSON, budget(4)); // one too many: 2, the least recently used, goes
  assert.equal(engine.live.size, 3);
  assert.equal(worker.asked.length, 4);

  for (const value of [1, 3, 4]) await engine.view(LESSON, budget(value));
  assert.equal(worker.asked.length, 4, "the three most recently used were all kept");
  await engine.view(LESSON, budget(2));
  assert.deepEqual(worker.asked.at(-1).params, budget(2), "the forgotten view was asked of Python again");
});

test("the build's views answer without Python however many views Python has computed since", async () => {
  const tableURL = "https://lessonkit.test/assets/lessonkit/views/context-compression.json.gz";
  const table = [[budget(24), JSON.stringify(viewOf(budget(24)))], [budget(36), JSON.stringify(viewOf(budget(36)))]];
  globalThis.lessonkitEarly = { engine: null, views: new Map([[tableURL, Promise.resolve(table)]]) };
  const { engine, worker } = runningEngine(2);
  engine.remember(LESSON, budget(0), viewOf(budget(0))); // the page's initial view
  assert.equal(await engine.preload(LESSON, tableURL), 2);

  for (let value = 100; value < 110; value += 1) await engine.view(LESSON, budget(value));
  assert.equal(worker.asked.length, 10);
  assert.equal(engine.live.size, 2);

  for (const value of [0, 24, 36]) {
    assert.equal((await engine.view(LESSON, budget(value))).status, `budget ${value}`);
    assert.equal(engine.source(LESSON, budget(value)), "build");
  }
  assert.equal(worker.asked.length, 10, "Python was not asked for a view the build computed");
});

test("a build's view asked for with its export is computed once by Python and is still the build's", async () => {
  const { engine, worker } = runningEngine(2);
  engine.remember(LESSON, budget(0), viewOf(budget(0)));
  assert.deepEqual(await engine.exportOf(LESSON, budget(0)), { params: budget(0) });
  assert.deepEqual(await engine.exportOf(LESSON, budget(0)), { params: budget(0) });
  assert.equal(worker.asked.length, 1);
  assert.equal(worker.asked[0].export, true);
  assert.equal(engine.source(LESSON, budget(0)), "build");

  // Once Python's copy with the export is forgotten, the build's view still answers, and the export is asked for again.
  for (const value of [1, 2]) await engine.view(LESSON, budget(value));
  assert.equal((await engine.view(LESSON, budget(0))).export, undefined);
  assert.equal(worker.asked.length, 3);
  await engine.exportOf(LESSON, budget(0));
  assert.equal(worker.asked.length, 4);
});
