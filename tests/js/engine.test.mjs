// The page's side of the Python engine (engine.js), driven through a fake Worker: booting, requests
// waiting for an answer, a boot that takes too long, a worker that fails, a restart, and the views
// the build already knows. What the real worker says is the browser tests' business; here, only
// what the page does with it.
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

import { Engine } from "../../overrides/assets/lessonkit/engine.js";

/** A Worker that records what the page sends it, and says what a test tells it to. */
class FakeWorker {
  static made = [];

  constructor(url, options) {
    this.url = String(url);
    this.options = options;
    this.listeners = new Map();
    this.posted = [];
    this.terminated = false;
    FakeWorker.made.push(this);
  }

  addEventListener(type, listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  removeEventListener(type, listener) {
    this.listeners.set(type, (this.listeners.get(type) ?? []).filter((each) => each !== listener));
  }

  postMessage(message) {
    this.posted.push(message);
  }

  terminate() {
    this.terminated = true;
  }

  /** The worker fires `type` with `event`; returns the event, to see what the page did with it. */
  fire(type, event = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
    return event;
  }

  say(data) {
    return this.fire("message", { type: "message", data });
  }

  ready() {
    this.say({ kind: "ready", pyodide: "0.29.5", seconds: 1.5, start: "restored from the build's snapshot" });
  }

  /** The worker's answer to the last view it was asked for: runtime.answer's JSON text. */
  answerView(view, id = this.posted.at(-1).id) {
    this.say({ kind: "answer", id, text: JSON.stringify({ ok: true, view }) });
  }
}

/** An event of the page's own, whose default a listener may prevent. */
function errorEvent(message) {
  return { type: "error", message, prevented: false, preventDefault() { this.prevented = true; } };
}

/** Whether `promise` has settled yet, without waiting for it. */
async function settled(promise) {
  const pending = Symbol("pending");
  return (await Promise.race([promise.then(() => "resolved", () => "rejected"), Promise.resolve(pending)])) !== pending;
}

const WORKER_URL = "https://site.test/assets/lessonkit/worker.js";
const VIEW = { status: "23 of 24 tokens", html: "<p>view</p>" };

let debug;
beforeEach(() => {
  FakeWorker.made = [];
  globalThis.Worker = FakeWorker;
  globalThis.location = new URL("https://site.test/lessons/context-compression/");
  delete globalThis.lessonkitEarly;
  debug = mock.method(console, "debug", () => {});
  // The boot timer runs on the test's clock: it fires only when a test moves that clock on.
  mock.timers.enable({ apis: ["setTimeout"] });
});

afterEach(() => {
  debug.mock.restore();
  mock.timers.reset();
  delete globalThis.Worker;
  delete globalThis.location;
  delete globalThis.lessonkitEarly;
});

function started(options) {
  const engine = new Engine(WORKER_URL, options);
  const states = [];
  engine.subscribe((each) => states.push(each.state));
  engine.start();
  return { engine, states, worker: FakeWorker.made.at(-1) };
}

test("an engine starts one named worker, says it is booting, then ready with what the worker reported", () => {
  const { engine, states, worker } = started();
  assert.equal(FakeWorker.made.length, 1);
  assert.equal(worker.url, WORKER_URL);
  assert.deepEqual(worker.options, { name: "lessonkit-engine" });
  assert.deepEqual(states, ["idle", "booting"]);
  engine.start(); // already started: no second worker
  assert.equal(FakeWorker.made.length, 1);

  worker.ready();
  assert.deepEqual(states, ["idle", "booting", "ready"]);
  assert.deepEqual(engine.info, { pyodide: "0.29.5", seconds: 1.5, start: "restored from the build's snapshot" });
  assert.equal(engine.reason, null);
});

test("a request sent while the worker boots is posted at once and answered when the worker answers", async () => {
  const { engine, worker } = started();
  const asked = engine.view("context-compression", { budget: 24 });
  assert.deepEqual(worker.posted, [
    { id: 1, kind: "view", lesson: "context-compression", params: { budget: 24 }, baseline: null, export: false },
  ]);
  assert.equal(await settled(asked), false, "nothing answers before the worker does");

  worker.ready();
  worker.answerView(VIEW);
  assert.deepEqual(await asked, VIEW);
  assert.equal(engine.source("context-compression", { budget: 24 }), "live");
});

test("the first request starts an engine nobody started", async () => {
  const engine = new Engine(WORKER_URL);
  assert.equal(engine.state, "idle");
  const ran = engine.run("print(1)", "walkthrough", "<code block: session walkthrough; n1>", "/lessons/x/");
  const [worker] = FakeWorker.made;
  assert.equal(engine.state, "booting");
  assert.deepEqual(worker.posted, [
    { id: 1, kind: "run", code: "print(1)", session: "walkthrough", blockId: "<code block: session walkthrough; n1>", page: "/lessons/x/" },
  ]);
  worker.say({ kind: "answer", id: 1, ok: true, result: { output: "1\n", error: null } });
  assert.deepEqual(await ran, { output: "1\n", error: null });
});

test("each answer goes to the request it answers, whatever the order, and an unknown id is ignored", async () => {
  const { engine, worker } = started();
  worker.ready();
  const first = engine.view("context-compression", { budget: 24 });
  const second = engine.view("context-compression", { budget: 36 });
  const [one, two] = worker.posted.map((message) => message.id);
  assert.notEqual(one, two);
  worker.say({ kind: "answer", id: 999, text: JSON.stringify({ ok: true, view: { status: "nobody asked" } }) });
  worker.answerView({ status: "36" }, two);
  worker.answerView({ status: "24" }, one);
  assert.deepEqual([await first, await second], [{ status: "24" }, { status: "36" }]);
});

test("a view known already is answered without asking Python, and the same settings are asked for only once", async () => {
  const { engine, worker } = started();
  worker.ready();
  engine.remember("context-compression", { policy: "evict", budget: 24 }, VIEW);
  // The same settings in another order are the same view.
  assert.deepEqual(await engine.view("context-compression", { budget: 24, policy: "evict" }), VIEW);
  assert.equal(engine.source("context-compression", { budget: 24, policy: "evict" }), "build");
  assert.deepEqual(worker.posted, []);

  const asked = engine.view("context-compression", { budget: 36 });
  worker.answerView(VIEW);
  await asked;
  await engine.view("context-compression", { budget: 36 });
  assert.equal(worker.posted.length, 1);
});

test("an export is asked of Python when the known view has none, and the view keeps the source it was shown from", async () => {
  const { engine, worker } = started();
  worker.ready();
  engine.remember("context-compression", { budget: 24 }, VIEW);
  const exported = engine.exportOf("context-compression", { budget: 24 });
  assert.equal(worker.posted.at(-1).export, true);
  worker.answerView({ ...VIEW, export: { arrivals: [0, 1] } });
  assert.deepEqual(await exported, { arrivals: [0, 1] });
  assert.equal(engine.source("context-compression", { budget: 24 }), "build");
  // Known now with its export: asked again, Python is not.
  assert.deepEqual(await engine.exportOf("context-compression", { budget: 24 }), { arrivals: [0, 1] });
  assert.equal(worker.posted.length, 1);
});

test("a refusal rejects its request with the engine's words, without their full stop", async () => {
  const { engine, worker } = started();
  worker.ready();
  const asked = engine.view("context-compression", { budget: 30 });
  worker.say({ kind: "answer", id: 1, text: JSON.stringify({ ok: false, error: "parameter 'budget' is 30; allowed: 24, 36." }) });
  await assert.rejects(asked, { message: "parameter 'budget' is 30; allowed: 24, 36" });
  const ran = engine.run("x", null, "<code block: n1>");
  worker.say({ kind: "answer", id: 2, ok: false });
  await assert.rejects(ran, { message: "unknown error" });
});

test("a boot that outlasts its time fails, says how long it waited, stops the worker and rejects what waited", async () => {
  const { engine, states, worker } = started({ bootTimeout: 60_000 });
  const asked = engine.view("context-compression", { budget: 24 });
  mock.timers.tick(59_999);
  assert.equal(engine.state, "booting");
  mock.timers.tick(1);
  assert.deepEqual(states, ["idle", "booting", "failed"]);
  assert.equal(engine.reason, "it did not finish starting within 60 seconds");
  assert.equal(worker.terminated, true);
  await assert.rejects(asked, { message: "it did not finish starting within 60 seconds" });
  // Once failed, a request is refused at once, naming why.
  await assert.rejects(engine.view("context-compression", { budget: 36 }), {
    message: "the Python engine is not running: it did not finish starting within 60 seconds",
  });
  assert.equal(worker.posted.length, 1);
});

test("an engine that became ready is never failed by its boot timer", () => {
  const { engine, worker } = started({ bootTimeout: 1_000 });
  worker.ready();
  mock.timers.tick(5_000);
  assert.equal(engine.state, "ready");
});

test("a worker that says it failed fails the engine with its reason, and rejects what waited", async () => {
  const { engine, states, worker } = started();
  const asked = engine.view("context-compression", { budget: 24 });
  worker.say({ kind: "failed", reason: "the lessonkit wheel could not be fetched (HTTP 404)." });
  assert.deepEqual(states, ["idle", "booting", "failed"]);
  assert.equal(engine.reason, "the lessonkit wheel could not be fetched (HTTP 404)");
  assert.equal(worker.terminated, true);
  await assert.rejects(asked, { message: "the lessonkit wheel could not be fetched (HTTP 404)" });
});

test("a worker script that cannot load fails the engine in the page's words, not as an uncaught error", async () => {
  const { engine, worker } = started();
  const event = worker.fire("error", errorEvent(""));
  assert.equal(event.prevented, true);
  assert.equal(engine.state, "failed");
  assert.equal(engine.reason, "the worker script could not be loaded");

  const other = started();
  other.worker.fire("error", errorEvent("Uncaught SyntaxError: Unexpected token"));
  assert.equal(other.engine.reason, "Uncaught SyntaxError: Unexpected token");

  const unreadable = started();
  unreadable.worker.fire("messageerror");
  assert.equal(unreadable.engine.reason, "the worker sent a message the page could not read");
});

test("a worker that cannot even be created fails the engine, naming why", () => {
  globalThis.Worker = class {
    constructor() {
      throw new Error("Access to the script is denied");
    }
  };
  const engine = new Engine(WORKER_URL);
  engine.start();
  assert.equal(engine.state, "failed");
  assert.equal(engine.reason, "the worker could not be created (Access to the script is denied)");
});

test("a restart starts a fresh worker, rejects what waited with its reason, and ignores the old worker from then on", async () => {
  const { engine, states, worker } = started();
  worker.ready();
  const generation = engine.generation;
  const asked = engine.run("while True: pass", null, "<code block: n1>");

  engine.restart("sample 1 was stopped, so the Python engine restarted");

  assert.equal(worker.terminated, true);
  await assert.rejects(asked, { message: "sample 1 was stopped, so the Python engine restarted" });
  assert.equal(FakeWorker.made.length, 2);
  const fresh = FakeWorker.made[1];
  assert.equal(engine.generation, generation + 1);
  assert.deepEqual(states, ["idle", "booting", "ready", "booting"]);

  // The old worker's late words change nothing: neither its answer nor its failure.
  worker.say({ kind: "answer", id: 1, ok: true, result: { output: "late", error: null } });
  worker.say({ kind: "failed", reason: "terminated" });
  worker.fire("error", errorEvent("terminated"));
  assert.equal(engine.state, "booting");

  fresh.ready();
  assert.equal(engine.state, "ready");
  const again = engine.run("print(2)", null, "<code block: n1>");
  fresh.say({ kind: "answer", id: fresh.posted.at(-1).id, ok: true, result: { output: "2\n", error: null } });
  assert.deepEqual(await again, { output: "2\n", error: null });
});

test("retrying a failed engine starts it again from a fresh worker", () => {
  const { engine, states, worker } = started();
  worker.say({ kind: "failed", reason: "Pyodide files unusable at /assets/pyodide/" });
  engine.restart();
  assert.deepEqual(states, ["idle", "booting", "failed", "booting"]);
  assert.equal(engine.reason, null);
  FakeWorker.made[1].ready();
  assert.equal(engine.state, "ready");
});

test("the worker the page's head started is adopted, with everything it said before the shell ran", () => {
  const early = new FakeWorker(WORKER_URL, { name: "lessonkit-engine" });
  const said = [{ type: "message", data: { kind: "ready", pyodide: "0.29.5", seconds: 0.9, start: "restored" } }];
  let adopted = 0;
  globalThis.lessonkitEarly = {
    views: new Map(),
    engine: { url: WORKER_URL, adopt: () => ((adopted += 1), { worker: early, events: said, started: 12 }) },
  };
  const engine = new Engine(new URL("../../assets/lessonkit/worker.js", location.href));
  engine.start();
  assert.equal(adopted, 1);
  assert.equal(FakeWorker.made.length, 1, "no second worker");
  assert.equal(engine.worker, early);
  assert.equal(engine.bootStarted, 12);
  assert.equal(engine.state, "ready");
  assert.equal(engine.info.seconds, 0.9);
});

test("a head's worker for another address is not adopted", () => {
  let adopted = 0;
  globalThis.lessonkitEarly = { views: new Map(), engine: { url: "https://site.test/other/worker.js", adopt: () => (adopted += 1) } };
  const engine = new Engine(WORKER_URL);
  engine.start();
  assert.equal(adopted, 0);
  assert.equal(FakeWorker.made.length, 1);
});

test("while Python starts, a view waits for the build's table, and answers from it without asking Python", async () => {
  let arrive;
  const table = new Promise((resolve) => (arrive = resolve));
  const url = "https://site.test/assets/lessonkit/views/context-compression.json.gz";
  globalThis.lessonkitEarly = { views: new Map([[url, table]]), engine: null };
  const { engine, worker } = started();
  const loaded = engine.preload("context-compression", url);
  assert.equal(engine.preload("context-compression", url), loaded, "a table is loaded once");

  const asked = engine.view("context-compression", { budget: 36 });
  assert.equal(await settled(asked), false);
  arrive([[{ budget: 36 }, JSON.stringify({ status: "from the build" })]]);
  assert.equal(await loaded, 1);
  assert.deepEqual(await asked, { status: "from the build" });
  assert.equal(engine.source("context-compression", { budget: 36 }), "build");
  assert.deepEqual(worker.posted, []);
});

test("a view the build stored once for several settings answers each of them, and a setting outside the table goes to Python", async () => {
  const url = "https://site.test/assets/lessonkit/views/working-memory.json.gz";
  const stage = JSON.stringify({ status: "Stage 1 of 4: stored records." });
  // As lessonkit.authoring.precompute writes a neighbourhood: a later entry with the same view names the first.
  const table = [[{ max_age_hours: 24 }, stage], [{ max_age_hours: 48 }, 0], [{ max_age_hours: 72 }, 0]];
  globalThis.lessonkitEarly = { views: new Map([[url, Promise.resolve(table)]]), engine: null };
  const { engine, worker } = started();
  assert.equal(await engine.preload("working-memory", url), 3);

  for (const hours of [24, 48, 72]) {
    assert.deepEqual(await engine.view("working-memory", { max_age_hours: hours }), JSON.parse(stage));
    assert.equal(engine.source("working-memory", { max_age_hours: hours }), "build");
  }
  assert.deepEqual(worker.posted, [], "Python was not asked while the table held the answers");

  const outside = engine.view("working-memory", { max_age_hours: 25 });
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(worker.posted.map((message) => message.params), [{ max_age_hours: 25 }]);
  worker.ready();
  worker.answerView(VIEW);
  assert.deepEqual(await outside, VIEW);
  assert.equal(engine.source("working-memory", { max_age_hours: 25 }), "live");
});

test("a table that cannot be read leaves every view to Python", async () => {
  const url = "https://site.test/assets/lessonkit/views/context-compression.json.gz";
  globalThis.lessonkitEarly = { views: new Map([[url, Promise.reject(new Error("HTTP 404 for " + url))]]), engine: null };
  const { engine, worker } = started();
  assert.equal(await engine.preload("context-compression", url), 0);
  assert.match(debug.mock.calls.at(-1).arguments[0], /precomputed views for context-compression not used \(HTTP 404/);

  const asked = engine.view("context-compression", { budget: 36 });
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(worker.posted.length, 1);
  worker.ready();
  worker.answerView(VIEW);
  assert.deepEqual(await asked, VIEW);
  assert.equal(engine.source("context-compression", { budget: 36 }), "live");
});

// A connection that asks to save data: nothing of the engine is downloaded until the reader asks.

test("on a connection that saves data the engine is held: no worker, and a view waits without failing", async () => {
  const { engine, states } = started({ savesData: () => true });
  assert.equal(FakeWorker.made.length, 0, "no worker, so nothing of Pyodide is fetched");
  assert.deepEqual(states, ["idle", "held"]);
  const asked = engine.view("context-compression", { budget: 24 });
  engine.start(); // the shell starting again (another page's panels) does not download it either
  assert.equal(FakeWorker.made.length, 0);
  assert.equal(await settled(asked), false, "the view waits for the reader, it is not refused");
});

test("a held engine starts when the reader asks, and what was asked meanwhile is posted to it", async () => {
  const { engine, states } = started({ savesData: () => true });
  const asked = engine.view("context-compression", { budget: 24 });
  engine.start({ asked: true });
  const [worker] = FakeWorker.made;
  assert.deepEqual(states, ["idle", "held", "booting"]);
  assert.deepEqual(worker.posted, [
    { id: 1, kind: "view", lesson: "context-compression", params: { budget: 24 }, baseline: null, export: false },
  ]);
  worker.ready();
  worker.answerView(VIEW);
  assert.deepEqual(await asked, VIEW);
  engine.restart(); // asked once is asked for good: a restart does not hold it again
  assert.equal(FakeWorker.made.length, 2);
});

test("running a sample is asking for the engine, even on a connection that saves data", async () => {
  const { engine } = started({ savesData: () => true });
  const ran = engine.run("print(1)", null, "<code block: n1>", "/lessons/x/");
  const [worker] = FakeWorker.made;
  assert.equal(engine.state, "booting");
  assert.equal(worker.posted[0].kind, "run");
  worker.say({ kind: "answer", id: 1, ok: true, result: { output: "1\n", error: null } });
  assert.deepEqual(await ran, { output: "1\n", error: null });
});

test("a held engine's waiting views are told why when it is restarted before it ran", async () => {
  const { engine } = started({ savesData: () => true });
  const asked = engine.view("context-compression", { budget: 24 });
  engine.restart("the page was left");
  await assert.rejects(asked, /the page was left/);
});

// How far the engine's start has come, as the worker counts it.

test("the worker's progress is kept and told to every listener, and forgotten once the engine is ready", () => {
  const { engine, worker } = started();
  const seen = [];
  engine.subscribe((each) => seen.push(each.progress && { ...each.progress }));
  worker.say({ kind: "progress", stage: "downloading", received: 1_000, total: 18_000 });
  worker.say({ kind: "progress", stage: "starting", received: 18_000, total: 18_000 });
  assert.deepEqual(seen, [
    null,
    { stage: "downloading", received: 1_000, total: 18_000 },
    { stage: "starting", received: 18_000, total: 18_000 },
  ]);
  worker.ready();
  assert.equal(engine.progress, null);
});

test("a restart forgets the progress of the worker it stopped, and ignores what that worker still says", () => {
  const { engine, worker } = started();
  worker.say({ kind: "progress", stage: "downloading", received: 1_000, total: 18_000 });
  engine.restart();
  assert.equal(engine.progress, null);
  worker.say({ kind: "progress", stage: "downloading", received: 9_000, total: 18_000 });
  assert.equal(engine.progress, null);
});
