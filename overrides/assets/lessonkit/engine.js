// @ts-check
// The page's side of the Python engine: one Web Worker (worker.js) running the site's own Pyodide,
// shared by every panel and sample on the page.
//
// Message protocol (structured-clone objects, never Python objects):
//   page -> worker  {id, kind: "view", lesson, params, baseline, export}
//                                 -> lessonkit.runtime.answer(JSON); the view comes without its
//                                    export unless export is true (asked for when the reader exports)
//                   {id, kind: "count", lesson, params, encoding}
//                                 -> lessonkit.runtime.count(JSON), once the worker has read the
//                                    encoding's ranks (fetched the first time, while views go on)
//                   {id, kind: "run", code, session, blockId, page}
//                                 -> lessonkit.runtime.run(code, blockId, session, page); blockId is the
//                                    sample's "<code block: …>" id in the build, hence its __name__;
//                                    page keeps each page's sessions apart in a worker that outlives it
//   worker -> page  {kind: "progress", stage, received, total} while it starts: the bytes of its files so
//                                                            far ("downloading"), then "starting" once all are here
//                   {kind: "ready", pyodide, seconds, start}  engine booted; start says how
//                                                            (restored from the build's snapshot, or not and why)
//                   {kind: "failed", reason}                 booting failed (also an "error" event)
//                   {kind: "answer", id, text}                for "view": runtime.answer's JSON text,
//                                                            {"ok": true, "view": ...} or {"ok": false, "error": ...};
//                                                            for "count", runtime.count's, the same way
//                   {kind: "answer", id, ok: true, result}   for "run": {output, error}
//                   {kind: "answer", id, ok: false, error}   the engine refused the request
//                   {kind: "ranks", stage, encoding, bytes}  real tokens' ranks: "loading" as the worker fetches
//                                                            them (the first count that needs them), then "ready"
//                   {kind: "rehearsed", views, seconds, error} once ready, the worker ran runtime.rehearse,
//                                                            answering the page between its steps; error or null
// Requests sent while the worker boots wait inside the worker until it is ready.
// The same protocol, as types both this file and worker.js are checked against: types/protocol.js.
import { fill } from "./dom.js";
import { LRUMap } from "./lru.js";
import { paramsKey } from "./params.js";
import { PAGE_WORDS as WORDS } from "./words.js";

/** @typedef {import("./types/spec.js").Params} Params */
/** @typedef {import("./types/spec.js").View} View */
/** @typedef {import("./types/protocol.js").Request} Request */
/** @typedef {import("./types/protocol.js").FromWorker} FromWorker */
/** @typedef {import("./types/protocol.js").EngineAnswer} EngineAnswer */
/** @typedef {import("./types/protocol.js").RunResult} RunResult */
/** @typedef {import("./types/protocol.js").EarlyStart} EarlyStart */
/**
 * "held": the reader's connection asks to save data (navigator.connection.saveData), so the engine
 * is not downloaded until the reader asks for it (`start({asked: true})`, or running a sample).
 * @typedef {"idle" | "held" | "booting" | "ready" | "failed"} State
 */
/** @typedef {"build" | "live"} Source */
/** @typedef {import("./types/protocol.js").ViewRequest} ViewRequest */
/** @typedef {import("./types/protocol.js").RunAnswer} RunAnswer */
/** @typedef {import("./types/protocol.js").CountRequest} CountRequest */
/** @typedef {import("./types/protocol.js").RealCount} RealCount */
/**
 * A request's answer once the engine has not refused it: a view's or a count's parsed EngineAnswer, a run's RunAnswer.
 * @typedef {{ok: true, view: View} | RealCount | RunAnswer} Settled
 */

/**
 * Whether the reader's connection asks to save data (a browser setting, or a metered network):
 * then the engine, megabytes of Pyodide and its snapshot, waits until the reader asks for it.
 * early.js asks the same question before it starts the worker.
 */
function connectionSavesData() {
  const connection = /** @type {{connection?: {saveData?: boolean}}} */ (globalThis.navigator)?.connection;
  return Boolean(connection && connection.saveData);
}

/** What early.js left on the window, if it ran. */
const early = () => /** @type {{lessonkitEarly?: EarlyStart}} */ (globalThis).lessonkitEarly;

const BOOT_TIMEOUT_MS = 60_000;

// How many of the views Python computed in this page are kept to answer again: enough for the
// longest timeline (24 marks) played through twice, with and without a baseline, and the settings
// tried in between. Counted in views, not bytes; bench/FINDINGS.md gives their sizes.
const LIVE_VIEWS = 64;

// Reasons are quoted inside the page's own sentences, which add their own full stop.
/** @param {unknown} text */
const clause = (text) => String(text || WORDS.unknown_error).trim().replace(/[.\s]+$/, "");

/**
 * A precomputed table: [[params, view's JSON text], ...] from a gzip-compressed JSON file of the
 * build's, fetched here and inflated and parsed off the page's main thread by table-reader.js (a
 * worker beside `workerURL`); the page's own table comes from early.js, read on the page so that
 * no worker's start stands before the reader's first change (bench/FINDINGS.md). Each view stays text until it is
 * asked for: reading 144 texts is a fraction of the work of building 144 views' objects. A view the
 * same as an earlier entry's comes as that entry's index instead of its text
 * (lessonkit.authoring.precompute): [params, index].
 * @param {string} url
 * @param {string | URL} workerURL
 * @returns {Promise<Array<[Params, string | number]>>}
 */
async function readTable(url, workerURL) {
  const reader = new Worker(new URL("table-reader.js", new URL(workerURL, location.href)), { name: "lessonkit-views" });
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
    const gzipped = await response.arrayBuffer();
    return await new Promise((resolve, reject) => {
      reader.onmessage = (/** @type {MessageEvent<{views?: Array<[Params, string | number]>, error?: string}>} */ event) => {
        if (event.data.error || !event.data.views) reject(new Error(event.data.error || url));
        else resolve(event.data.views);
      };
      reader.onerror = (event) => {
        event.preventDefault();
        reject(new Error(event.message || url));
      };
      reader.postMessage({ url, gzipped }, [gzipped]);
    });
  } finally {
    reader.terminate();
  }
}

export class Engine {
  /**
   * @param {string | URL} workerURL
   * @param {{bootTimeout?: number, liveViews?: number, savesData?: () => boolean}} [options]  `liveViews`: how
   *   many views Python computed are kept; `savesData`: whether the connection asks to save data (the browser's own answer by default)
   */
  constructor(workerURL, { bootTimeout = BOOT_TIMEOUT_MS, liveViews = LIVE_VIEWS, savesData = connectionSavesData } = {}) {
    this.workerURL = workerURL;
    this.bootTimeout = bootTimeout;
    this.savesData = savesData;
    // Once the reader has asked for the engine, a connection that saves data no longer holds it back.
    this.asked = false;
    /** @type {Array<{id: number, kind: string} & Record<string, unknown>>} requests made while the engine was held */
    this.queued = [];
    /** @type {State} */
    this.state = "idle";
    /** @type {string | null} */
    this.reason = null;
    /** @type {{pyodide: string, seconds: number, start: string} | null} once ready */
    this.info = null;
    /** @type {{stage: "downloading" | "starting", received: number, total: number} | null} while booting, once the worker has said */
    this.progress = null;
    /** @type {{stage: "loading" | "ready", encoding: string, bytes: number} | null} the last the worker said of real tokens' ranks */
    this.ranks = null;
    /** @type {{views: number, seconds: number} | null} once the worker has rehearsed, after ready (worker.js) */
    this.rehearsed = null;
    // Bumped for every new worker: Python globals (sample sessions) live and die with a worker.
    this.generation = 0;
    /** @type {Worker | null} */
    this.worker = null;
    /** When the worker was started (performance.now()), by early.js or here. */
    this.bootStarted = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {Map<number, {resolve: (answer: Settled) => void, reject: (error: Error) => void}>} */
    this.pending = new Map();
    this.nextId = 1;
    /** @type {Set<(engine: Engine) => void>} */
    this.listeners = new Set();
    // Views known without asking Python again, by paramsKey. The build's (each panel's initial
    // view, and the precomputed tables as JSON text until first asked for) are a set the build
    // fixed, and they are what answers while Python starts, so all of them are kept. The views
    // Python computed grow with every setting the reader tries: only the most recent are kept,
    // and one forgotten is asked of Python again.
    /** @type {Map<string, View | string>} */
    this.built = new Map();
    /** @type {LRUMap<string, View>} */
    this.live = new LRUMap(liveViews);
    /** @type {Map<string, Promise<number>>} lesson -> its precomputed table's view count, settled once loaded (0 if it failed) */
    this.tables = new Map();
  }

  /**
   * Call `listener(engine)` now and on every state change; returns an unsubscribe function.
   * @param {(engine: Engine) => void} listener
   */
  subscribe(listener) {
    this.listeners.add(listener);
    listener(this);
    return () => this.listeners.delete(listener);
  }

  /**
   * Start the engine's worker, unless it runs already. On a connection that asks to save data the
   * engine is only held ("held") until the reader asks for it: `asked`.
   * @param {{asked?: boolean}} [options]
   */
  start({ asked = false } = {}) {
    if (this.worker) return;
    if (asked) this.asked = true;
    if (!this.asked && this.savesData()) {
      if (this.state !== "held") this.#setState("held", null);
      return;
    }
    this.generation += 1;
    this.#setState("booting", null);
    // The page's first script may have started the worker already (early.js): adopt it.
    const started = early()?.engine;
    const adopted = started && started.url === new URL(this.workerURL, location.href).href ? started.adopt() : null;
    /** @type {Worker} */
    let worker;
    try {
      // The worker's own navigator may not see the setting, so the page tells it by the worker's name.
      const name = this.savesData() ? "lessonkit-engine saving-data" : "lessonkit-engine";
      worker = adopted ? adopted.worker : new Worker(this.workerURL, { name });
    } catch (error) {
      this.#fail(fill(WORDS.engine_not_created, { reason: error instanceof Error ? error.message : String(error) }));
      return;
    }
    this.worker = worker;
    this.bootStarted = adopted ? adopted.started : performance.now();
    this.timer = setTimeout(
      () => this.#fail(fill(WORDS.engine_too_slow, { seconds: Math.round(this.bootTimeout / 1000) })),
      this.bootTimeout,
    );
    /** @type {{message: (event: Event) => void, error: (event: Event) => void, messageerror: () => void}} */
    const on = {
      message: (event) => this.#receive(worker, /** @type {MessageEvent<FromWorker>} */ (event).data),
      error: (event) => {
        event.preventDefault(); // reported in the page instead of as an uncaught error
        // A script that could not be loaded fires a plain Event, without an ErrorEvent's message.
        const { message } = /** @type {Partial<ErrorEvent>} */ (event);
        if (worker === this.worker) this.#fail(message || WORDS.engine_script_missing);
      },
      messageerror: () => {
        if (worker === this.worker) this.#fail(WORDS.engine_unreadable_message);
      },
    };
    for (const [type, listener] of Object.entries(on)) worker.addEventListener(type, listener);
    // What the adopted worker said before the shell ran, in the order it said it (early.js keeps
    // only events of the three types listened for above).
    for (const event of adopted ? adopted.events : []) on[/** @type {keyof typeof on} */ (event.type)](event);
    // What was asked while the engine was held waits inside the worker until it is ready, as any request does.
    for (const message of this.queued.splice(0)) worker.postMessage(message);
  }

  /**
   * A fresh worker: after a failure ("Retry starting the engine"), or to stop a runaway sample.
   * @param {string} [reason]  what the requests still waiting are told
   */
  restart(reason = WORDS.engine_restarted) {
    this.#stop(reason);
    this.start();
  }

  /**
   * Record a view the build computed (the one it rendered into the page, or a precomputed one).
   * @param {string} lesson
   * @param {Params} params
   * @param {View | string} view  a precomputed view may still be its JSON text
   * @param {Params | null} [baseline]
   */
  remember(lesson, params, view, baseline = null) {
    this.built.set(paramsKey(lesson, params, baseline), view);
  }

  /**
   * Load the views the build computed for a lesson (a gzip-compressed JSON file): every view of
   * a panel with finite settings, the views of a reader's first change on any other. Until it
   * has arrived, view() waits for it before asking Python; if it cannot be loaded, Python answers
   * everything, which is slower but just as right.
   * @param {string} lesson
   * @param {string} url
   * @returns {Promise<number>} how many views the table held (0 when it could not be read)
   */
  preload(lesson, url) {
    let table = this.tables.get(lesson);
    if (!table) {
      // Asked for from the page's head (early.js) when the page was loaded with its panel.
      const fetched = early()?.views.get(url);
      table = (fetched || readTable(url, this.workerURL)).then(
        (views) => {
          // [params, index]: the same view as the entry at that index, whose text is stored once.
          for (const [params, view] of views) {
            this.remember(lesson, params, typeof view === "number" ? /** @type {string} */ (views[view][1]) : view);
          }
          return views.length;
        },
        (error) => {
          console.debug(`lessonkit: precomputed views for ${lesson} not used (${error.message}); the Python engine answers instead`);
          return 0;
        },
      );
      this.tables.set(lesson, table);
    }
    return table;
  }

  /**
   * Who answered the view for these settings: "build" (precomputed or rendered) or "live" (Python in this page).
   * @param {string} lesson
   * @param {Params} params
   * @param {Params | null} [baseline]
   * @returns {Source}
   */
  source(lesson, params, baseline = null) {
    return this.built.has(paramsKey(lesson, params, baseline)) ? "build" : "live";
  }

  /**
   * Answer from known views if possible, otherwise ask Python. The one way to get a view.
   * `baseline` is the settings of the reader's captured baseline (or null): a view may draw its run.
   * @param {string} lesson
   * @param {Params} params
   * @param {Params | null} [baseline]
   * @returns {Promise<View>}
   */
  view(lesson, params, baseline = null) {
    return this.#view(lesson, params, baseline, false);
  }

  /**
   * The export of the view for these settings: the known view's when it carries one, otherwise
   * Python computes it now. No view the page is given carries one (it is most of some lessons'
   * weight), and a reader exports far more rarely than they change a setting.
   * @param {string} lesson
   * @param {Params} params
   * @param {Params | null} [baseline]
   * @returns {Promise<unknown>}
   */
  exportOf(lesson, params, baseline = null) {
    return this.#view(lesson, params, baseline, true).then((view) => view.export);
  }

  /**
   * @param {string} lesson
   * @param {Params} params
   * @param {Params | null} baseline
   * @param {boolean} withExport
   * @returns {Promise<View>}
   */
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
        // A build's view asked for again with its export stays the build's: source() still says so.
        this.live.set(key, answer.view);
        return answer.view;
      });
    // A table still on its way is waited for while Python starts; once Python runs, it answers at once.
    return table && this.state !== "ready" ? table.then(ask) : Promise.resolve(ask());
  }

  /**
   * The view known under `key`: Python's (which may carry the export) before the build's, read
   * from its precomputed text the first time; undefined if none.
   * @param {string} key
   * @returns {View | undefined}
   */
  #known(key) {
    const live = this.live.get(key);
    if (live) return live;
    const built = this.built.get(key);
    if (typeof built !== "string") return built;
    /** @type {View} */
    const view = JSON.parse(built);
    this.built.set(key, view);
    return view;
  }

  /**
   * Run a reader's sample as the build ran block `blockId`; resolves to {output, error}.
   * @param {string} code
   * @param {string | null | undefined} session
   * @param {string} blockId
   * @param {string} [page]
   * @returns {Promise<RunResult>}
   */
  run(code, session, blockId, page = location.pathname) {
    this.start({ asked: true }); // running a sample is asking for Python
    return this.#request({ kind: "run", code, session: session || null, blockId, page }).then((answer) => answer.result);
  }

  /**
   * What the panel's model reads at these settings, counted in real tokens of `encoding` by the
   * engine in its worker. Counting is asking for Python, as running a sample is: a held engine starts.
   * @param {string} lesson
   * @param {Params} params
   * @param {string} encoding
   * @returns {Promise<RealCount>}
   */
  count(lesson, params, encoding) {
    this.start({ asked: true });
    return this.#request({ kind: "count", lesson, params, encoding });
  }

  /**
   * Post a request; resolves to its answer once the engine has not refused it.
   * @template {Request} R
   * @param {R} message
   * @returns {Promise<R extends ViewRequest ? {ok: true, view: View} : R extends CountRequest ? RealCount : RunAnswer>}
   */
  #request(message) {
    if (this.state === "idle") this.start();
    const { worker } = this;
    const held = this.state === "held";
    if (this.state === "failed" || (!worker && !held)) {
      return Promise.reject(new Error(fill(WORDS.engine_not_running, { reason: String(this.reason) })));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // The worker answers each id with an answer to that request's kind.
      this.pending.set(id, { resolve: /** @type {(answer: Settled) => void} */ (resolve), reject });
      if (worker) worker.postMessage({ id, ...message });
      else this.queued.push({ id, ...message });
    });
  }

  /**
   * @param {Worker} worker
   * @param {FromWorker | null | undefined} data
   */
  #receive(worker, data) {
    if (worker !== this.worker || !data) return;
    if (data.kind === "progress") {
      this.progress = { stage: data.stage, received: data.received, total: data.total };
      for (const listener of this.listeners) listener(this);
    } else if (data.kind === "ready") {
      clearTimeout(this.timer);
      this.progress = null;
      this.info = { pyodide: data.pyodide, seconds: data.seconds, start: data.start };
      console.debug(`lessonkit: Python engine ready in ${data.seconds.toFixed(1)} s (Pyodide ${data.pyodide}, ${data.start})`);
      this.#setState("ready", null);
    } else if (data.kind === "rehearsed") {
      this.rehearsed = { views: data.views, seconds: data.seconds };
      // Only the first live answers' speed is at stake, so the engine stays ready; but a rehearsal
      // that stopped is a fault of the engine's, reported where an author looks.
      if (data.error) console.error(`lessonkit: the engine's rehearsal stopped after ${data.views} views: ${data.error}`);
      else console.debug(`lessonkit: the engine rehearsed on ${data.views} views in ${data.seconds.toFixed(2)} s`);
      for (const listener of this.listeners) listener(this);
    } else if (data.kind === "ranks") {
      this.ranks = { stage: data.stage, encoding: data.encoding, bytes: data.bytes };
      for (const listener of this.listeners) listener(this);
    } else if (data.kind === "failed") {
      this.#fail(data.reason);
    } else if (data.kind === "answer") {
      const waiting = this.pending.get(data.id);
      if (!waiting) return;
      this.pending.delete(data.id);
      // A view comes as the engine's JSON text (see worker.js), anything else as fields.
      /** @type {EngineAnswer | RunAnswer | import("./types/protocol.js").Refused} */
      const answer = "text" in data ? JSON.parse(data.text) : data;
      if (answer.ok) waiting.resolve(answer);
      else waiting.reject(new Error(clause(answer.error)));
    }
  }

  /** @param {unknown} reason */
  #fail(reason) {
    const said = clause(reason);
    this.#stop(said);
    this.#setState("failed", said);
  }

  /** @param {string} reason */
  #stop(reason) {
    clearTimeout(this.timer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.queued = [];
    this.progress = null;
    this.ranks = null; // a new worker has read no ranks
    this.rehearsed = null; // nor rehearsed
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) reject(new Error(reason));
  }

  /**
   * @param {State} state
   * @param {string | null} reason
   */
  #setState(state, reason) {
    this.state = state;
    this.reason = reason;
    for (const listener of this.listeners) listener(this);
  }
}
