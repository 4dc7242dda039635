// @ts-check
// The Python engine's home in the browser: a classic Web Worker, so Pyodide's start-up and every
// computation stay off the page's main thread. Everything it loads comes from this site: the
// manifest runtime.json (written by the build next to this file) names the pinned Pyodide, the
// lessonkit wheel, the build's memory snapshot (used only when the connection brings it in sooner
// than the start it spares) and the standard library it was made with (trimmed to what the engines
// use; Pyodide's whole one is fetched only if a sample imports more), all relative to the manifest. No micropip, no CDN, no network beyond the origin.
// The message protocol is described in engine.js, and typed in types/protocol.js.
"use strict";

/** @typedef {import("./types/protocol.js").Posted} Posted */
/** @typedef {import("./types/protocol.js").FromWorker} FromWorker */
/** @typedef {import("./types/protocol.js").Runtime} Runtime */
/** @typedef {import("./types/protocol.js").RankFiles} RankFiles */

const manifestURL = new URL("runtime.json", self.location.href);
/** @type {Runtime | null} lessonkit.runtime, once the engine has booted */
let runtime = null;

/** @param {unknown} error */
function describe(error) {
  if (!error) return "unknown error";
  // Python exceptions arrive as PythonError whose message is the whole traceback: keep its last line.
  const text = String(/** @type {Partial<Error>} */ (error).message || error).trim();
  return text.split("\n").filter(Boolean).pop() || text;
}

/**
 * @param {string | URL} url
 * @param {string} what  the file, as a sentence names it
 * @param {RequestInit} [init]
 */
async function fetchOk(url, what, init) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Error(`${what} could not be fetched from ${url} (${describe(error)})`);
  }
  if (!response.ok) throw new Error(`${what} could not be fetched from ${url} (HTTP ${response.status})`);
  return response;
}

// Pyodide never settles when one of its files is missing (it logs a warning and waits), which would
// leave the reader looking at "Starting…" until the page's timeout. A HEAD request per file turns
// a missing file into an immediate failure that names it; the fetch of each is watched too (self.fetch, below).
// The standard library is the build's, beside the snapshot (the manifest's `stdlib`), and checked with them.
const PYODIDE_FILES = ["pyodide.asm.js", "pyodide.asm.wasm", "pyodide-lock.json"];

/**
 * The interpreter's memory from the build's sparse form (snapshot_memory.mjs describes it): a
 * zeroed image of the full length, the WebAssembly module's data segments laid where the form
 * says, then the pages start-up changed put back over them.
 * @param {Uint8Array} sparse
 * @param {(Uint8Array | null)[]} segments  the module's data segments, in order (null: a passive one)
 */
function expandMemory(sparse, segments) {
  const view = new DataView(sparse.buffer, sparse.byteOffset, sparse.byteLength);
  const magic = new TextDecoder().decode(sparse.subarray(0, 8));
  if (magic !== "LKSPARS2") throw new Error(`the snapshot is not in the build's sparse form (it begins ${JSON.stringify(magic)})`);
  const memory = new Uint8Array(view.getUint32(8, true));
  const count = view.getUint32(12, true);
  const laid = view.getUint32(16, true);
  for (let index = 0; index < laid; index += 1) {
    const segment = segments[view.getUint32(20 + 8 * index, true)];
    if (!segment) throw new Error(`the snapshot lays data segment ${view.getUint32(20 + 8 * index, true)}, which the WebAssembly module does not have`);
    memory.set(segment, view.getUint32(24 + 8 * index, true));
  }
  const runsAt = 20 + 8 * laid;
  let from = runsAt + 8 * count;
  for (let index = 0; index < count; index += 1) {
    const offset = view.getUint32(runsAt + 8 * index, true);
    const length = view.getUint32(runsAt + 4 + 8 * index, true);
    memory.set(sparse.subarray(from, from + length), offset);
    from += length;
  }
  if (from !== sparse.length) throw new Error(`the snapshot's runs cover ${from} of its ${sparse.length} bytes`);
  return memory;
}

/** Bytes read a few at a time, or passed over, across the chunks of a stream they come in. */
class ByteReader {
  /**
   * @param {ReadableStream<Uint8Array> | null} stream  null: `first` is all there is
   * @param {Uint8Array} [first]
   */
  constructor(stream, first = new Uint8Array(0)) {
    this.reader = stream?.getReader() ?? null;
    this.chunk = first;
    this.at = 0;
  }

  /** Whether a byte is there to read, reading the next chunk if need be. */
  async more() {
    while (this.at >= this.chunk.length) {
      if (!this.reader) return false;
      const { done, value } = await this.reader.read();
      if (done) return false;
      this.chunk = value;
      this.at = 0;
    }
    return true;
  }

  async byte() {
    if (!(await this.more())) throw new Error("the WebAssembly module ended inside a section");
    return this.chunk[this.at++];
  }

  /** An unsigned LEB128 number. */
  async leb() {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = await this.byte();
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return value >>> 0;
  }

  /**
   * The next `length` bytes, copied out, or (with `keep` false) passed over.
   * @param {number} length
   * @param {boolean} keep
   */
  async take(length, keep = true) {
    const out = keep ? new Uint8Array(length) : null;
    for (let filled = 0; filled < length; ) {
      if (!(await this.more())) throw new Error("the WebAssembly module ended inside a section");
      const step = Math.min(length - filled, this.chunk.length - this.at);
      out?.set(this.chunk.subarray(this.at, this.at + step), filled);
      this.at += step;
      filled += step;
    }
    return out;
  }
}

/**
 * The data segments of a WebAssembly module, read from its bytes as they stream in: every section
 * but the data section (the module's last) is passed over, and each segment's bytes are kept, in
 * order; null for a passive one. Where each goes is the snapshot's to say.
 * @param {ReadableStream<Uint8Array>} stream
 * @returns {Promise<(Uint8Array | null)[]>}
 */
async function dataSegments(stream) {
  const module = new ByteReader(stream);
  await module.take(8, false); // "\0asm" and its version
  while (await module.more()) {
    const id = await module.byte();
    const size = await module.leb();
    if (id !== 11) {
      await module.take(size, false);
      continue;
    }
    const section = new ByteReader(null, (await module.take(size)) ?? undefined);
    const segments = [];
    for (let count = await section.leb(), index = 0; index < count; index += 1) {
      const flags = await section.leb();
      if (flags === 2) await section.leb(); // the memory's index: there is one
      // The offset's constant expression, passed over up to its end: the snapshot says where each segment goes.
      if (flags !== 1) {
        for (let op = await section.byte(); op !== 0x0b; op = await section.byte()) {
          if (op === 0x41 || op === 0x23) await section.leb(); // i32.const (its sign does not matter here), global.get
          else if (op !== 0x6a) throw new Error(`a data segment's offset uses the instruction 0x${op.toString(16)}, which the worker does not read`);
        }
      }
      const bytes = await section.take(await section.leb());
      segments.push(flags === 1 ? null : bytes);
    }
    module.reader?.cancel().catch(() => {}); // what follows is for tools, not the memory; Pyodide's half reads on
    return segments;
  }
  throw new Error("the WebAssembly module has no data section");
}

/**
 * One gzip stream that comes in parts, each the body of a response, inflated by the browser itself.
 * Each part is awaited only once the one before it has been read whole, but should be asked for
 * earlier: it is a function, called when its turn comes, returning the answer already on its way.
 * The inflated bytes are read here, not through a Response, which would report a part that could not
 * be fetched only as a failed fetch, without saying which part or why.
 * @param {(() => Promise<Response>)[]} parts
 */
async function inflate(parts) {
  let next = 0;
  /** @type {ReadableStreamDefaultReader<Uint8Array> | null} */
  let part = null;
  const joined = new ReadableStream({
    async pull(controller) {
      for (;;) {
        if (!part) {
          if (next === parts.length) return controller.close();
          const response = await parts[next++]();
          if (!response.body) throw new Error(`${response.url} came without a body`);
          part = response.body.getReader();
        }
        const { done, value } = await part.read();
        if (!done) return controller.enqueue(value);
        part = null;
      }
    },
  });
  const reader = joined.pipeThrough(new DecompressionStream("gzip")).getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * @param {string} indexURL
 * @param {string} stdlibURL
 */
async function checkPresent(indexURL, stdlibURL) {
  // Named as the reader would look for them: Pyodide's by name, the library by its folder and name.
  const library = new URL(stdlibURL).pathname.split("/").slice(-2).join("/");
  const files = [...PYODIDE_FILES.map((name) => [name, new URL(name, indexURL).href]), [library, stdlibURL]];
  const missing = await Promise.all(
    files.map(async ([name, url]) => {
      try {
        const response = await fetch(url, { method: "HEAD" });
        // Some servers refuse HEAD (405/501); then Pyodide's own GET will tell.
        if (response.status === 405 || response.status === 501) return null;
        if (!response.ok) return `${name} (HTTP ${response.status})`;
        // Browsers compile WebAssembly while it streams in only when it is served as such.
        const type = response.headers.get("content-type") || "no content type";
        if (name.endsWith(".wasm") && !type.includes("application/wasm")) {
          return `${name} (served as ${type}; the server must send application/wasm)`;
        }
        return null;
      } catch (error) {
        return `${name} (${describe(error)})`;
      }
    }),
  );
  const absent = missing.filter(Boolean);
  if (absent.length) throw new Error(`Pyodide files unusable at ${indexURL}: ${absent.join(", ")}`);
}

// Pyodide only logs a warning and waits forever when WebAssembly may not be compiled (a
// Content-Security-Policy without 'wasm-unsafe-eval', a browser that turns WebAssembly off).
// Compiling the smallest module first turns that into a failure that names the cause at once.
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

async function checkWebAssembly() {
  if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly, which the Python engine needs");
  try {
    await WebAssembly.compile(EMPTY_MODULE);
  } catch (error) {
    throw new Error(
      `WebAssembly is refused here (${describe(error)}), and the Python engine needs it: the site's ` +
        "Content-Security-Policy must allow 'wasm-unsafe-eval', and the browser must allow WebAssembly",
    );
  }
}

// How often, at most, the page hears how far the download has come: often enough for a bar that
// moves smoothly, seldom enough that messages cost nothing beside the bytes they count.
const PROGRESS_MS = 100;

/**
 * What the engine downloads to start, counted as it arrives, so the page can show real progress.
 * The manifest declares each file with its bytes, whose sum is the total. A file fetched with
 * fetch() (WebAssembly, the standard library, the snapshot, the wheel) is counted as its body
 * streams in, from a clone of the response: Pyodide still gets the browser's own response, which it
 * compiles while it streams. A script (importScripts) is counted once loaded, from the browser's
 * resource timing. Only declared files count; a HEAD request has no body and is not counted.
 */
class Downloads {
  /**
   * @param {Record<string, number>} declared  each file's absolute address, with its bytes
   * @param {(message: FromWorker) => void} tell
   */
  constructor(declared, tell) {
    this.declared = declared;
    this.tell = tell;
    this.total = Object.values(declared).reduce((sum, bytes) => sum + bytes, 0);
    this.received = 0;
    /** @type {Record<string, number>} each declared file's bytes received so far */
    this.arrived = {};
    /** @type {Set<string>} the declared files fetched that have arrived whole */
    this.complete = new Set();
    /** @type {Record<string, () => void>} who waits for a declared file to have arrived whole */
    this.waiting = {};
    /** @type {"downloading" | "starting"} */
    this.stage = "downloading";
    this.told = -Infinity;
  }

  /** Count the body of `response`, if it is one of the engine's files, without touching the response itself. */
  /** @param {Response} response */
  count(response) {
    const url = response.url;
    if (!(url in this.declared) || !response.ok || !response.body) return;
    const reader = response.clone().body?.getReader();
    if (!reader) return;
    const read = async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          this.complete.add(url);
          return this.waiting[url]?.();
        }
        this.#add(value.byteLength, url);
      }
    };
    read().catch(() => {}); // a download that fails is reported by whoever asked for it
  }

  /** A script the worker loaded, counted from its resource timing entry. */
  /** @param {PerformanceResourceTiming} entry */
  loaded(entry) {
    if (entry.initiatorType !== "fetch" && entry.name in this.declared) this.#add(entry.decodedBodySize, entry.name);
  }

  /**
   * Resolves once `url`, one of the declared files being fetched, has arrived whole.
   * @param {string} url
   * @returns {Promise<void>}
   */
  whole(url) {
    return new Promise((resolve) => {
      if (this.complete.has(url)) resolve();
      else this.waiting[url] = resolve;
    });
  }

  /**
   * A declared file the engine will not use after all: neither its bytes so far nor its size count
   * any longer, so the bar shows the files the engine starts with.
   * @param {string} url
   */
  leaveOut(url) {
    if (!(url in this.declared)) return;
    this.total -= this.declared[url];
    this.received -= this.arrived[url] ?? 0;
    delete this.declared[url];
    this.#say();
  }

  /** Everything is here: what is left is Python's own start. */
  starting() {
    if (this.stage === "starting") return;
    this.stage = "starting";
    this.#say();
  }

  /**
   * @param {number} bytes
   * @param {string} url
   */
  #add(bytes, url) {
    if (!(url in this.declared)) return; // left out since
    this.arrived[url] = (this.arrived[url] ?? 0) + bytes;
    this.received += bytes;
    if (this.received >= this.total) this.starting();
    else if (performance.now() - this.told >= PROGRESS_MS) this.#say();
  }

  #say() {
    this.told = performance.now();
    this.tell({ kind: "progress", stage: this.stage, received: this.received, total: this.total });
  }
}

/** @type {Downloads | null} */
let downloads = null;

// The build's snapshot trades bytes for CPU: megabytes more to download, against the Python start-up
// and the engines' imports it spares, which bench/FINDINGS.md measured ("The worker restores the
// snapshot only when it comes fast enough"). So it pays only on a connection that brings the rest
// of it in less time than it spares. Otherwise Python starts the ordinary way, with the trimmed
// standard library, and the engine is ready sooner for downloading less. A slower CPU would make
// the snapshot pay on slower links too; the worker does not guess at it.
const SECONDS_A_SNAPSHOT_SAVES = 1.8;
// How long the worker watches the engine's files arrive to learn how fast the link is: on a slow
// link, what the snapshot brings meanwhile is spent for nothing, so short; but long enough that a
// busy machine does not make a fast connection look slow (FINDINGS.md gives the pace seen on
// loopback, far above the threshold).
const SNAPSHOT_TRIAL_MS = 200;
// A trial whose timer fired this much later than asked ran on a thread too busy to read what
// arrived, and one in which nothing arrived saw a stall; the worker watches again, up to this many
// trials in all.
const TRIAL_LATE = 1.5;
const TRIALS = 3;

/** @param {number} ms */
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How fast the body of `url`, a file that has all come, arrived by the browser's own timing of it
 * (its resource timing entry, which the browser adds once the file is complete: looked for over a
 * few turns of the worker's loop); 0 when the browser has not timed it.
 * @param {string} url
 */
async function timedByTheBrowser(url) {
  for (let turn = 0; turn < 3; turn += 1) {
    const entry = /** @type {PerformanceResourceTiming | undefined} */ (performance.getEntriesByName(url, "resource").at(-1));
    if (entry?.responseEnd) {
      const seconds = (entry.responseEnd - entry.responseStart) / 1000;
      return seconds > 0 ? entry.encodedBodySize / seconds : Infinity;
    }
    await wait(0);
  }
  return 0;
}

/**
 * Null when the build's snapshot (`bytes` long in all, its first part being fetched from `url`
 * since `asked`, on the worker's clock) is worth waiting for, or why not, as the panel says it: at
 * the pace the link brings the engine's files, the rest of the snapshot would take longer to arrive
 * than the start it spares.
 * @param {Promise<Response>} response  the first part's
 * @param {string} url
 * @param {number} bytes
 * @param {number} asked
 */
async function snapshotTooSlow(response, url, bytes, asked) {
  if (!downloads || !bytes) return null;
  // Watched until the trial's end, or the first part's, whichever comes first.
  const whole = downloads.whole(url);
  try {
    await response;
  } catch {
    return null; // a snapshot that cannot be fetched is reported by Pyodide's start, which then goes on without it
  }
  // The link's pace is what all the engine's files in flight (the snapshot, the wheel) bring, timed
  // two ways, each of which can only make the link look slower than it is (bench/FINDINGS.md):
  // - over the trial, once the snapshot's answer has begun (what came before it is read first, one
  //   turn of the worker's loop, so it is not timed as if it came in the trial): a moment in which the
  //   host or the browser held the bytes back reads as a slow link;
  // - since the snapshot was asked for: the wait in line behind the page's own requests reads as a
  //   slow link.
  // So the faster of the two is the nearer. Counted over the snapshot alone, it was only its share.
  await wait(0);
  let perSecond = 0;
  for (let trial = 1; trial <= TRIALS; trial += 1) {
    const from = performance.now();
    const before = downloads.received;
    await Promise.race([whole, wait(SNAPSHOT_TRIAL_MS)]);
    const now = performance.now();
    const took = now - from;
    // A first part that had all come before the trial began leaves the trial nothing to time.
    const overTrial = took > 0 ? (downloads.received - before) / (took / 1000) : 0;
    perSecond = Math.max(overTrial, downloads.received / ((now - asked) / 1000));
    // Once the first part has all come, the browser has timed it too, as its bytes arrived: a worker
    // too busy to read them as they came makes both clocks above slow, never that one.
    if (downloads.complete.has(url)) perSecond = Math.max(perSecond, await timedByTheBrowser(url));
    if (perSecond > 0 && (bytes - (downloads.arrived[url] ?? 0)) / perSecond <= SECONDS_A_SNAPSHOT_SAVES) return null;
    // A trial in which something came, timed by a timer that fired on time, saw the link: its pace
    // stands. One in which nothing came, or whose timer fired late, saw a worker or a host held up:
    // the worker watches again.
    if (took < SNAPSHOT_TRIAL_MS * TRIAL_LATE && downloads.received > before) break;
  }
  const megabits = (perSecond * 8) / 1e6;
  return (
    `started normally, without the build's snapshot: at the pace it came (about ${megabits.toFixed(megabits < 10 ? 1 : 0)} Mbit/s), ` +
    `its ${(bytes / 1e6).toFixed(1)} MB would take longer to arrive than the start it spares`
  );
}
/**
 * Set while a snapshot is being restored: the address of Pyodide's WebAssembly module, and who
 * waits for its data segments. Pyodide fetches the module itself, once; its body is split, one
 * half for Pyodide to compile, the other read for the segments the snapshot leaves out.
 * @type {{url: string, read: (segments: Promise<(Uint8Array | null)[]>) => void} | null}
 */
let moduleData = null;
// Pyodide waits forever when a file it fetches for itself does not come (it logs a warning and
// waits), and the HEAD check before its start cannot see a file that fails only when it is fetched
// (a host that falters, a download cut off). So those files are watched here, by address, and the
// first that does not come fails the start, named, instead of leaving the reader at "Downloading".
/** @type {Set<string>} */
const pyodideFetches = new Set();
/** @type {Error | null} */
let pyodideFileFailed = null;
/** @type {(error: Error) => void} */
let failPyodide = () => {};
/** @type {Promise<never>} */
const pyodideFileFailure = new Promise((_, reject) => {
  failPyodide = (error) => {
    pyodideFileFailed ??= error;
    reject(pyodideFileFailed);
  };
});
pyodideFileFailure.catch(() => {}); // raced against each of Pyodide's starts below

/**
 * Pyodide's start, or the failure of a file it fetched for itself, whichever comes first.
 * @template T
 * @param {Promise<T>} start
 * @returns {Promise<T>}
 */
const unlessAFileFailed = (start) => Promise.race([start, pyodideFileFailure]);

const fetchFromTheSite = self.fetch.bind(self);
/** @type {typeof fetch} */
self.fetch = async (input, init) => {
  // Matched by the address asked for, not the answer's: a host may redirect it.
  const address = new URL(input instanceof Request ? input.url : String(input), self.location.href).href;
  const watched = pyodideFetches.has(address) && (init?.method ?? "GET").toUpperCase() === "GET";
  const failed = (/** @type {string} */ why) =>
    failPyodide(new Error(`Pyodide's ${address.split("/").pop()} could not be fetched from ${address} (${why})`));
  let response;
  try {
    response = await fetchFromTheSite(input, init);
  } catch (error) {
    if (watched) failed(describe(error));
    throw error;
  }
  if (watched && !response.ok) failed(`HTTP ${response.status}`);
  downloads?.count(response);
  if (!moduleData || address !== moduleData.url || !response.ok || !response.body) return response;
  const [forPyodide, forSegments] = response.body.tee();
  moduleData.read(dataSegments(forSegments));
  moduleData = null;
  // Its bytes are decoded already: the headers that described the wire go, its type (which
  // streaming compilation requires) stays.
  const headers = new Headers(response.headers);
  for (const name of ["content-encoding", "content-length"]) headers.delete(name);
  return new Response(forPyodide, { status: response.status, statusText: response.statusText, headers });
};
// Scripts loaded with importScripts (Pyodide's loader and its asm.js) are seen here once complete.
if (typeof PerformanceObserver === "function") {
  new PerformanceObserver((list) => {
    for (const entry of /** @type {PerformanceResourceTiming[]} */ (list.getEntries())) downloads?.loaded(entry);
  }).observe({ type: "resource", buffered: true });
}

/** @returns {Promise<{pyodide: string, seconds: number, start: string}>} */
async function boot() {
  const started = performance.now();
  // Everything that does not depend on something else starts at once; only what Pyodide would
  // hang on (WebAssembly refused, a file missing) is awaited before Pyodide is asked to start.
  const webAssembly = checkWebAssembly();
  webAssembly.catch(() => {}); // awaited below; this only stops an early failure being reported twice
  const manifestText = await (await fetchOk(manifestURL, "the runtime manifest")).text();
  let manifest;
  try {
    manifest = JSON.parse(manifestText);
  } catch (error) {
    throw new Error(`the runtime manifest ${manifestURL} is not valid JSON (${describe(error)})`);
  }
  const indexURL = new URL(manifest.pyodide, manifestURL).href;
  downloads = new Downloads(
    Object.fromEntries(Object.entries(manifest.downloads || {}).map(([address, bytes]) => [new URL(address, manifestURL).href, Number(bytes)])),
    say,
  );
  // The snapshot is the largest download and has to be unpacked before Pyodide can restore it,
  // so it starts first; the wheel is needed only once Pyodide runs. It comes in parts (site_hooks.py):
  // the first is asked for at once, and the link is judged while it comes; the rest only once the
  // snapshot has proved worth its wait. A connection that asks to save data never downloads it: the
  // reader asked for the engine, not for the quickest start at any price.
  /** @type {string[]} */
  const snapshotURLs = (manifest.snapshot ?? []).map((/** @type {string} */ address) => new URL(address, manifestURL).href);
  const [snapshotURL = null, ...restURLs] = snapshotURLs;
  // The page that asked for the engine named it so (engine.js): it asked the question the reader's setting answers.
  const savingData = self.name.split(" ").includes("saving-data");
  if (savingData) for (const url of snapshotURLs) downloads.leaveOut(url);
  const stopSnapshot = new AbortController();
  const snapshotAsked = performance.now();
  const snapshotResponse =
    snapshotURL && !savingData ? fetchOk(snapshotURL, "the engine's snapshot", { signal: stopSnapshot.signal }) : null;
  /** @type {(answers: Promise<Response>[]) => void} */
  let askRest = () => {};
  /** @type {Promise<Promise<Response>[]>} the answers for the rest of the snapshot's parts, once asked for */
  const restOfSnapshot = new Promise((resolve) => {
    askRest = resolve;
  });
  // The module's own data, which the snapshot leaves out, comes with the module when Pyodide fetches it.
  /** @type {(segments: Promise<(Uint8Array | null)[]>) => void} */
  let readSegments = () => {};
  /** @type {Promise<(Uint8Array | null)[]>} */
  const segments = new Promise((resolve) => {
    readSegments = resolve;
  });
  /** @type {Promise<Uint8Array> | null} */
  let snapshot = snapshotResponse
    ? Promise.all([
        inflate([() => snapshotResponse, ...restURLs.map((_, index) => () => restOfSnapshot.then((answers) => answers[index]))]),
        segments,
      ]).then(([sparse, laid]) => expandMemory(sparse, laid))
    : null;
  snapshot?.catch(() => {}); // reported through loadPyodide's own failure below
  const wheel = fetchOk(new URL(manifest.wheel, manifestURL), "the lessonkit wheel").then((r) => r.arrayBuffer());
  wheel.catch(() => {}); // awaited below; this only stops an early failure being reported twice
  // The standard library the engines use, which the snapshot was made with; the rest of it comes
  // when a sample asks (lessonkit.stdlib_on_demand).
  const stdLibURL = new URL(manifest.stdlib, manifestURL).href;
  for (const name of PYODIDE_FILES) pyodideFetches.add(new URL(name, indexURL).href);
  pyodideFetches.add(stdLibURL);
  const present = checkPresent(indexURL, stdLibURL);
  present.catch(() => {});
  try {
    importScripts(new URL("pyodide.js", indexURL).href);
  } catch (error) {
    throw new Error(`Pyodide's loader could not be loaded from ${indexURL} (${describe(error)})`);
  }
  // What pyodide.js has just defined in this worker's global scope.
  const { loadPyodide } = /** @type {{loadPyodide: typeof import("pyodide").loadPyodide}} */ (/** @type {unknown} */ (self));
  await webAssembly;
  await present;
  // Pyodide is told at its start whether it restores a snapshot, so the snapshot's first bytes decide.
  const skipped =
    snapshotURL && savingData
      ? "started normally, without the build's snapshot, because the connection asks to save data"
      : snapshotURL && snapshotResponse
        ? await snapshotTooSlow(
            snapshotResponse,
            snapshotURL,
            snapshotURLs.reduce((sum, url) => sum + (downloads?.declared[url] ?? 0), 0),
            snapshotAsked,
          )
        : null;
  if (skipped && snapshotResponse) {
    stopSnapshot.abort();
    for (const url of snapshotURLs) downloads.leaveOut(url);
    snapshot = null;
  } else if (snapshotResponse) {
    // Asked for only once the first part's answer has come: a first part that could not be fetched makes the rest useless.
    const answers = restURLs.map((url) => snapshotResponse.then(() => fetchOk(url, "the engine's snapshot", { signal: stopSnapshot.signal })));
    for (const answer of answers) answer.catch(() => {}); // reported when the snapshot is read, through Pyodide's start
    askRest(answers);
  }
  const log = {
    // Python's own start-up chatter is not an error; samples capture their output in Python.
    stdout: (/** @type {string} */ line) => console.debug("[python]", line),
    stderr: (/** @type {string} */ line) => console.debug("[python stderr]", line),
  };
  // The build's memory snapshot restores an interpreter that has already imported the engines;
  // when it cannot be used, Python starts the ordinary way and the page says why.
  let pyodide = null;
  let start = skipped || "started normally";
  if (snapshot) {
    moduleData = { url: new URL("pyodide.asm.wasm", indexURL).href, read: readSegments };
    try {
      // Handed over as a promise: Pyodide awaits it once it has asked for its WebAssembly module,
      // whose data segments the snapshot is then completed with.
      pyodide = await unlessAFileFailed(loadPyodide({ indexURL, stdLibURL, _loadSnapshot: snapshot, ...log }));
      start = "restored from the build's snapshot";
    } catch (error) {
      if (pyodideFileFailed) throw pyodideFileFailed; // Python cannot start at all, with the snapshot or without it
      start = `started normally, because the build's snapshot could not be used (${describe(error)})`;
    }
    moduleData = null;
  }
  if (!pyodide) pyodide = await unlessAFileFailed(loadPyodide({ indexURL, stdLibURL, ...log }));
  downloads.starting(); // whatever was not counted (a file served from elsewhere, say), Python has it now
  // Straight into site-packages, as an installer would; no dependency resolution needed: the
  // engine is pure Python using the standard library only.
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  const rest = manifest.stdlib_rest;
  if (rest) {
    const onDemand = pyodide.pyimport("lessonkit.stdlib_on_demand");
    const modules = pyodide.toPy(rest.modules);
    onDemand.install(modules, () => fetchNow(new URL(rest.zip, manifestURL).href)).destroy();
    modules.destroy();
    onDemand.destroy();
  }
  runtime = /** @type {Runtime} */ (pyodide.pyimport("lessonkit.runtime"));
  // Real tokens: an encoding's ranks are fetched the first time a count needs them, never to start.
  rankFiles = /** @type {RankFiles} */ (pyodide.pyimport("lessonkit.tokens.rank_files"));
  defaultEncoding = String(pyodide.runPython("from lessonkit.tokens.encodings import DEFAULT; DEFAULT"));
  rankFilesOnSite = Object.fromEntries(
    Object.entries(manifest.ranks || {}).map(([name, file]) => [name, { url: new URL(file.url, manifestURL).href, bytes: Number(file.bytes) }]),
  );
  // A count the worker did not see coming (a sample that counts through another module) blocks
  // Python while it fetches; the page still hears that the ranks are coming, and when they came.
  rankFiles.fetch_with((/** @type {string} */ name) => {
    const file = rankFilesOnSite[name];
    if (!file) throw new Error(`the build shipped no ranks for ${name}`);
    tellRanks("loading", name);
    return fetchNow(file.url);
  });
  // Everything imported so far lives as long as the worker: frozen, the collector stops walking it
  // again and again while a reader's views are computed. Not collected first: that walk costs the
  // start-up more than the little garbage it would free (bench/FINDINGS.md), which is kept instead.
  pyodide.runPython("import gc; gc.freeze()");
  return { pyodide: pyodide.version, seconds: (performance.now() - started) / 1000, start };
}

/**
 * A file of the site, fetched before this returns: Python's import statement cannot wait for a promise.
 * @param {string} url
 */
function fetchNow(url) {
  const request = new XMLHttpRequest();
  request.open("GET", url, false);
  request.responseType = "arraybuffer";
  request.send();
  if (request.status !== 200) throw new Error(`${url} could not be fetched (HTTP ${request.status})`);
  return new Uint8Array(request.response);
}

/** @param {FromWorker} message */
function say(message) {
  postMessage(message);
}

/** @type {RankFiles | null} lessonkit.tokens.rank_files, once the engine has booted */
let rankFiles = null;
/** lessonkit.tokens.DEFAULT, the encoding a count uses when it names none; read from Python as it boots */
let defaultEncoding = "";
/** @type {Record<string, {url: string, bytes: number}>} each encoding's rank file on the site (the manifest's `ranks`) */
let rankFilesOnSite = {};
/** @type {Set<string>} the encodings whose ranks the page has heard are ready */
const ranksTold = new Set();

/**
 * Tell the page where an encoding's ranks are: "loading" as their fetch starts, "ready" once Python has read them.
 * @param {"loading" | "ready"} stage
 * @param {string} encoding
 */
function tellRanks(stage, encoding) {
  if (stage === "ready") ranksTold.add(encoding);
  say({ kind: "ranks", stage, encoding, bytes: rankFilesOnSite[encoding]?.bytes ?? 0 });
}

/** The encodings whose ranks Python holds now. */
function ranksRead() {
  if (!rankFiles) return [];
  const loaded = rankFiles.loaded();
  const names = loaded.toJs();
  loaded.destroy();
  return names;
}

/** Say "ready" for every encoding Python has read since the page last heard (a fetch it did not see coming). */
function tellRanksRead() {
  for (const name of ranksRead()) if (!ranksTold.has(name)) tellRanks("ready", name);
}

// Back to the worker's event loop for a moment: a request that arrived meanwhile is answered now.
// Through a message to itself, as setTimeout would wait a few milliseconds more at every step once
// its calls nest.
const pause = new MessageChannel();
/** @type {Array<() => void>} */
const paused = [];
pause.port1.onmessage = () => paused.shift()?.();
function breathe() {
  return new Promise((resolve) => {
    paused.push(() => resolve(undefined));
    pause.port2.postMessage(null);
  });
}

/** @type {Map<string, Promise<void>>} each encoding's ranks being read, or read, by name */
const readingRanks = new Map();

/**
 * The ranks of each of `encodings`, fetched without blocking Python and then read a part at a time,
 * once: while they download, and between the parts of their reading, the worker goes on answering the panel.
 * @param {string[]} encodings
 */
function ranksFor(encodings) {
  return Promise.all(
    encodings.map((name) => {
      if (!readingRanks.has(name)) {
        const file = rankFilesOnSite[name];
        const reading = (async () => {
          if (!file || !rankFiles) throw new Error(`the build shipped no ranks for ${name}`);
          if (ranksRead().includes(name)) return;
          tellRanks("loading", name);
          const bytes = new Uint8Array(await (await fetchOk(file.url, `${name}'s ranks`)).arrayBuffer());
          // Read a part at a time, and between parts the worker answers whatever came meanwhile.
          const steps = rankFiles.providing(name, bytes);
          try {
            while (!steps.next().done) await breathe();
          } finally {
            steps.destroy();
          }
          tellRanks("ready", name);
        })();
        reading.catch(() => readingRanks.delete(name)); // a failed fetch may be tried again by the next count
        readingRanks.set(name, reading);
      }
      return readingRanks.get(name);
    }),
  );
}

// A sample that imports lessonkit.tokens: "from lessonkit import tokens" (among other names, or as
// another name), "from lessonkit.tokens import count", "import lessonkit.tokens".
const IMPORTS_TOKENS = /^[ \t]*(?:from[ \t]+lessonkit[ \t]+import[ \t(][^\n]*\btokens\b|from[ \t]+lessonkit\.tokens\b|import[ \t]+lessonkit\.tokens\b)/m;

/**
 * The encodings a sample's code asks lessonkit.tokens for: those it names, or the default one when
 * it imports tokens and names none. Only a guess from the text, so nothing is fetched for a sample
 * that merely says "tokens"; a count it hides is fetched when Python asks (fetch_with above).
 * @param {string} code
 */
function encodingsIn(code) {
  if (!IMPORTS_TOKENS.test(code)) return [];
  const named = Object.keys(rankFilesOnSite).filter((name) => code.includes(name));
  return named.length ? named : [defaultEncoding];
}

/**
 * Once the engine is ready: lessonkit.runtime.rehearse a step at a time, and between steps
 * whatever the page asked meanwhile. The interpreter restored from the snapshot has run little of
 * its own code in this browser, and code that has not run yet is slow the first times it does
 * (runtime.rehearse says why): run now, it is not the reader's first live answers that pay.
 */
async function rehearse() {
  if (!runtime) return;
  const started = performance.now();
  let views = 0;
  /** @type {ReturnType<Runtime["rehearse"]> | null} */
  let steps = null;
  try {
    steps = runtime.rehearse();
    // Requests that waited for the engine to be ready go first.
    await breathe();
    while (!steps.next().done) {
      views += 1;
      await breathe();
    }
    say({ kind: "rehearsed", views, seconds: (performance.now() - started) / 1000, error: null });
  } catch (error) {
    // Only slower first answers are at stake: the engine stays ready, and the page reports it.
    say({ kind: "rehearsed", views, seconds: (performance.now() - started) / 1000, error: describe(error) });
  } finally {
    steps?.destroy();
  }
}

const booted = boot();

booted.then(
  (info) => {
    say({ kind: "ready", ...info });
    rehearse();
  },
  (error) => say({ kind: "failed", reason: describe(error) }),
);

/**
 * The answer to a request, but for its kind and id.
 * @param {Posted} data
 * @returns {{text: string} | {ok: true, result: import("./types/protocol.js").RunResult} | {ok: false, error: string}}
 */
function handle(data) {
  if (!runtime) throw new Error("the Python engine has not started");
  if (data.kind === "view") {
    // runtime.answer's JSON, {"ok": true, "view": ...} or the engine's own refusal {"ok": false,
    // "error": ...}, goes to the page as text: a string crosses to the page as one copy, where
    // the view as objects would be cloned field by field, on the page's main thread too.
    const asked = { lesson: data.lesson, params: data.params, baseline: data.baseline ?? null, export: data.export === true };
    return { text: runtime.answer(JSON.stringify(asked)) };
  }
  if (data.kind === "count") {
    // As a view's: runtime.count's JSON text, the count or the engine's own refusal.
    return { text: runtime.count(JSON.stringify({ lesson: data.lesson, params: data.params, encoding: data.encoding })) };
  }
  if (data.kind === "run") {
    // undefined becomes Python's None: a sample without a session starts from fresh globals.
    const result = JSON.parse(runtime.run(data.code, data.blockId, data.session || undefined, data.page || ""));
    tellRanksRead();
    return { ok: true, result };
  }
  return { ok: false, error: `unknown request kind ${JSON.stringify(/** @type {{kind: unknown}} */ (data).kind)}` };
}

self.addEventListener("message", async (event) => {
  const data = /** @type {MessageEvent<Posted | null>} */ (event).data || /** @type {Posted} */ ({});
  /** @type {ReturnType<typeof handle>} */
  let answer;
  try {
    await booted;
    // A count, or a sample that counts real tokens, waits for its ranks here, while the worker answers the rest.
    if (data.kind === "run") await ranksFor(encodingsIn(data.code));
    if (data.kind === "count") await ranksFor([data.encoding]);
    answer = handle(data);
  } catch (error) {
    answer = { ok: false, error: describe(error) };
  }
  say({ kind: "answer", id: data.id, ...answer });
});
