// The page's side of the Python engine: one Web Worker (worker.js) running the site's own Pyodide,
// shared by every panel and sample on the page.
//
// Message protocol (structured-clone objects, never Python objects):
//   page -> worker  {id, kind: "view", lesson, params, baseline, export}
//                                 -> lessonkit.runtime.answer(JSON); the view comes without its
//                                    export unless export is true (asked for when the reader exports)
//                   {id, kind: "run", code, session, blockId, page}
//                                 -> lessonkit.runtime.run(code, blockId, session, page); blockId is the
//                                    sample's "<code block: …>" id in the build, hence its __name__;
//                                    page keeps each page's sessions apart in a worker that outlives it
//   worker -> page  {kind: "ready", pyodide, seconds, start}  engine booted; start says how
//                                                            (restored from the build's snapshot, or not and why)
//                   {kind: "failed", reason}                 booting failed (also an "error" event)
//                   {kind: "answer", id, text}                for "view": runtime.answer's JSON text,
//                                                            {"ok": true, "view": ...} or {"ok": false, "error": ...}
//                   {kind: "answer", id, ok: true, result}   for "run": {output, error}
//                   {kind: "answer", id, ok: false, error}   the engine refused the request
// Requests sent while the worker boots wait inside the worker until it is ready.
import { paramsKey } from "./params.js";

const BOOT_TIMEOUT_MS = 60_000;

// Reasons are quoted inside the page's own sentences, which add their own full stop.
const clause = (text) => String(text || "unknown error").trim().replace(/[.\s]+$/, "");

/**
 * A precomputed table: [[params, view's JSON text], ...] from a gzip-compressed JSON file of the
 * build's. Each view stays text until it is asked for: reading 144 texts is a fraction of the
 * work of building 144 views' objects, and the table is read while the page is still starting.
 */
async function fetchTable(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  const text = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).text();
  return JSON.parse(text).views;
}

export class Engine {
  constructor(workerURL, { bootTimeout = BOOT_TIMEOUT_MS } = {}) {
    this.workerURL = workerURL;
    this.bootTimeout = bootTimeout;
    this.state = "idle"; // idle | booting | ready | failed
    this.reason = null;
    this.info = null; // {pyodide, seconds} once ready
    // Bumped for every new worker: Python globals (sample sessions) live and die with a worker.
    this.generation = 0;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    this.listeners = new Set();
    // Views known without asking Python: the build's initial views, the build's precomputed
    // tables (as JSON text, read when first asked for), and every view computed so far; `sources`
    // says which answered each ("build" or "live").
    this.views = new Map();
    this.sources = new Map();
    this.tables = new Map(); // lesson -> Promise of its precomputed table, settled once loaded or failed
  }

  /** Call `listener(engine)` now and on every state change; returns an unsubscribe function. */
  subscribe(listener) {
    this.listeners.add(listener);
    listener(this);
    return () => this.listeners.delete(listener);
  }

  start() {
    if (this.worker) return;
    this.generation += 1;
    this.#setState("booting", null);
    // The page's first script may have started the worker already (early.js): adopt it.
    const early = globalThis.lessonkitEarly?.engine;
    const adopted = early && early.url === new URL(this.workerURL, location.href).href ? early.adopt() : null;
    let worker;
    try {
      worker = adopted ? adopted.worker : new Worker(this.workerURL, { name: "lessonkit-engine" });
    } catch (error) {
      this.#fail(`the worker could not be created (${error.message})`);
      return;
    }
    this.worker = worker;
    this.bootStarted = adopted ? adopted.started : performance.now();
    this.timer = setTimeout(
      () => this.#fail(`it did not finish starting within ${Math.round(this.bootTimeout / 1000)} seconds`),
      this.bootTimeout,
    );
    const on = {
      message: (event) => this.#receive(worker, event.data),
      error: (event) => {
        event.preventDefault(); // reported in the page instead of as an uncaught error
        if (worker === this.worker) this.#fail(event.message || "the worker script could not be loaded");
      },
      messageerror: () => {
        if (worker === this.worker) this.#fail("the worker sent a message the page could not read");
      },
    };
    for (const [type, listener] of Object.entries(on)) worker.addEventListener(type, listener);
    // What the adopted worker said before the shell ran, in the order it said it.
    for (const event of adopted ? adopted.events : []) on[event.type](event);
  }

  /** A fresh worker: after a failure ("Retry starting the engine"), or to stop a runaway sample. */
  restart(reason = "the engine was restarted") {
    this.#stop(reason);
    this.start();
  }

  /** Record a view already known (e.g. the one the build rendered into the page). */
  remember(lesson, params, view, baseline = null, source = "build") {
    const key = paramsKey(lesson, params, baseline);
    this.views.set(key, view);
    this.sources.set(key, source);
  }

  /**
   * Load the views the build computed for a lesson with finite settings (a gzip-compressed JSON
   * file). Until it has arrived, view() waits for it before asking Python; if it cannot be
   * loaded, Python answers everything, which is slower but just as right.
   */
  preload(lesson, url) {
    if (!this.tables.has(lesson)) {
      // Asked for from the page's head (early.js) when the page was loaded with its panel.
      const early = globalThis.lessonkitEarly?.views.get(url);
      const table = (early || fetchTable(url)).then(
        (views) => {
          for (const [params, view] of views) this.remember(lesson, params, view);
          return views.length;
        },
        (error) => {
          console.debug(`lessonkit: precomputed views for ${lesson} not used (${error.message}); the Python engine answers instead`);
          return 0;
        },
      );
      this.tables.set(lesson, table);
    }
    return this.tables.get(lesson);
  }

  /** Who answered the view for these settings: "build" (precomputed or rendered) or "live" (Python in this page). */
  source(lesson, params, baseline = null) {
    return this.sources.get(paramsKey(lesson, params, baseline)) || "live";
  }

  /**
   * Answer from known views if possible, otherwise ask Python. The one way to get a view.
   * `baseline` is the settings of the reader's captured baseline (or null): a view may draw its run.
   */
  view(lesson, params, baseline = null) {
    return this.#view(lesson, params, baseline, false);
  }

  /**
   * The export of the view for these settings: the known view's when it carries one, otherwise
   * Python computes it now. No view the page is given carries one (it is most of some lessons'
   * weight), and a reader exports far more rarely than they change a setting.
   */
  exportOf(lesson, params, baseline = null) {
    return this.#view(lesson, params, baseline, true).then((view) => view.export);
  }

  #view(lesson, params, baseline, withExport) {
    const key = paramsKey(lesson, params, baseline);
    const usable = () => {
      const known = this.#known(key);
      return known && (!withExport || known.export !== undefined) ? known : undefined;
    };
    const known = usable();
    if (known) return Promise.resolve(known);
    const table = this.tables.get(lesson);
    const ask = () =>
      usable() ||
      this.#request({ kind: "view", lesson, params, baseline, export: withExport }).then((answer) => {
        // A view asked for again with its export keeps the source of the one the reader was shown.
        this.remember(lesson, params, answer.view, baseline, this.sources.get(key) || "live");
        return answer.view;
      });
    // A table still on its way is waited for while Python starts; once Python runs, it answers at once.
    return table && this.state !== "ready" ? table.then(ask) : Promise.resolve(ask());
  }

  /** The view remembered under `key`, read from its precomputed text the first time; undefined if none. */
  #known(key) {
    const known = this.views.get(key);
    if (typeof known !== "string") return known;
    const view = JSON.parse(known);
    this.views.set(key, view);
    return view;
  }

  /** Run a reader's sample as the build ran block `blockId`; resolves to {output, error}. */
  run(code, session, blockId, page = location.pathname) {
    return this.#request({ kind: "run", code, session: session || null, blockId, page }).then((answer) => answer.result);
  }

  #request(message) {
    if (this.state === "idle") this.start();
    if (this.state === "failed") {
      return Promise.reject(new Error(`the Python engine is not running: ${this.reason}`));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  #receive(worker, data) {
    if (worker !== this.worker || !data) return;
    if (data.kind === "ready") {
      clearTimeout(this.timer);
      this.info = { pyodide: data.pyodide, seconds: data.seconds, start: data.start };
      console.debug(`lessonkit: Python engine ready in ${data.seconds.toFixed(1)} s (Pyodide ${data.pyodide}, ${data.start})`);
      this.#setState("ready", null);
    } else if (data.kind === "failed") {
      this.#fail(data.reason);
    } else if (data.kind === "answer") {
      const waiting = this.pending.get(data.id);
      if (!waiting) return;
      this.pending.delete(data.id);
      // A view comes as the engine's JSON text (see worker.js), anything else as fields.
      const answer = typeof data.text === "string" ? JSON.parse(data.text) : data;
      if (answer.ok) waiting.resolve(answer);
      else waiting.reject(new Error(clause(answer.error)));
    }
  }

  #fail(reason) {
    reason = clause(reason);
    this.#stop(reason);
    this.#setState("failed", reason);
  }

  #stop(reason) {
    clearTimeout(this.timer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) reject(new Error(reason));
  }

  #setState(state, reason) {
    this.state = state;
    this.reason = reason;
    for (const listener of this.listeners) listener(this);
  }
}
