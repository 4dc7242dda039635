// @ts-check
// The message protocol between the page (engine.js) and the Python engine's worker (worker.js),
// described in words at the top of engine.js, as types both files are checked against. Messages
// are structured-clone objects, never Python objects. Types only, for `tsc --noEmit`: neither
// the page nor the worker loads this file.

/** @typedef {import("./spec.js").Params} Params */
/** @typedef {import("./spec.js").View} View */

/**
 * A view for these settings: answered by `lessonkit.runtime.answer`. `baseline` is the settings
 * of the reader's captured baseline, or null; the view comes without its export unless `export`.
 * @typedef {object} ViewRequest
 * @property {"view"} kind
 * @property {string} lesson
 * @property {Params} params
 * @property {Params | null} baseline
 * @property {boolean} export
 */

/**
 * A reader's sample, run by `lessonkit.runtime.run` as the build ran block `blockId` (the
 * sample's "<code block: …>" id, hence its `__name__`); `page` keeps each page's sessions apart
 * in a worker that outlives it.
 * @typedef {object} RunRequest
 * @property {"run"} kind
 * @property {string} code
 * @property {string | null} session
 * @property {string} blockId
 * @property {string} page
 */

/**
 * What the panel's model reads at these settings (its window, tray or prompt), counted in real
 * tokens of `encoding`: answered by `lessonkit.runtime.count`, once the worker has the encoding's ranks.
 * @typedef {object} CountRequest
 * @property {"count"} kind
 * @property {string} lesson
 * @property {Params} params
 * @property {string} encoding
 */

/** @typedef {ViewRequest | RunRequest | CountRequest} Request */

/** A request as posted: `id` pairs it with its answer. @typedef {Request & {id: number}} Posted */

/**
 * The engine booted. `start` says how: restored from the build's snapshot, or not and why.
 * @typedef {object} Ready
 * @property {"ready"} kind
 * @property {string} pyodide  Pyodide's version
 * @property {number} seconds
 * @property {string} start
 */

/**
 * How far the engine's start has come: the bytes of its files received so far, of the total the
 * build declared (runtime.json's `downloads`), while "downloading"; then "starting", once every file
 * is here and Python itself starts.
 * @typedef {object} Progress
 * @property {"progress"} kind
 * @property {"downloading" | "starting"} stage
 * @property {number} received
 * @property {number} total
 */

/**
 * Booting failed (the worker may also fire an "error" event).
 * @typedef {object} Failed
 * @property {"failed"} kind
 * @property {string} reason
 */

/**
 * A view's answer: `lessonkit.runtime.answer`'s JSON text, an `EngineAnswer` once parsed.
 * @typedef {object} ViewAnswer
 * @property {"answer"} kind
 * @property {number} id
 * @property {string} text
 */

/**
 * A count in real tokens, as `lessonkit.runtime.count` gives it (the worker sends its JSON text, as
 * for a view): the texts named by `what` are `tokens` tokens of `encoding`; the lesson weighs the
 * same items at `teaching` of its `unit`; `untexted` says what it weighs without text, or is "".
 * @typedef {object} RealCount
 * @property {true} ok
 * @property {string} encoding
 * @property {number} tokens
 * @property {string} what
 * @property {number} teaching
 * @property {string} unit
 * @property {string} untexted
 */

/**
 * What a sample printed, and its traceback (null when it raised nothing).
 * @typedef {object} RunResult
 * @property {string} output
 * @property {string | null} error
 */

/**
 * A sample's answer.
 * @typedef {object} RunAnswer
 * @property {"answer"} kind
 * @property {number} id
 * @property {true} ok
 * @property {RunResult} result
 */

/**
 * The worker could not answer (the engine did not boot, Python raised, an unknown kind).
 * @typedef {object} Refused
 * @property {"answer"} kind
 * @property {number} id
 * @property {false} ok
 * @property {string} error
 */

/** @typedef {ViewAnswer | RunAnswer | Refused} Answer */

/**
 * Real tokens' ranks for `encoding` (`bytes` on the wire): "loading" as the worker starts to fetch
 * them, the first time a count needs them; "ready" once Python has read them.
 * @typedef {object} Ranks
 * @property {"ranks"} kind
 * @property {"loading" | "ready"} stage
 * @property {string} encoding
 * @property {number} bytes
 */

/**
 * The engine, once ready, rehearsed on `views` views of the authors' demonstration panel
 * (`lessonkit.runtime.rehearse`) in `seconds`, answering the page between them; `error` says why
 * it stopped early, or is null.
 * @typedef {object} Rehearsed
 * @property {"rehearsed"} kind
 * @property {number} views
 * @property {number} seconds
 * @property {string | null} error
 */

/** Everything the worker posts to the page. @typedef {Ready | Progress | Failed | Answer | Ranks | Rehearsed} FromWorker */

/**
 * `runtime.answer`'s or `runtime.count`'s JSON, parsed: the view or the count, or the engine's
 * refusal in its own words.
 * @typedef {{ok: true, view: View} | RealCount | {ok: false, error: string}} EngineAnswer
 */

/**
 * The Python side the worker calls, `lessonkit.runtime` (src/lessonkit/runtime.py): JSON text
 * in and out, so no Python object crosses to the page.
 * @typedef {object} Runtime
 * @property {(request: string) => string} answer
 * @property {(request: string) => string} count
 * @property {(code: string, blockId: string, session: string | undefined, page: string) => string} run
 * @property {() => {next: () => {done?: boolean}, destroy: () => void}} rehearse  a view at a time
 */

/**
 * Where `lessonkit.tokens` gets its ranks, `lessonkit.tokens.rank_files`: the worker hands it the
 * bytes it fetched, and a function to fetch one it did not see coming.
 * @typedef {object} RankFiles
 * @property {(name: string, data: Uint8Array) => void} provide
 * @property {(name: string, data: Uint8Array) => {next: () => {done?: boolean}, destroy: () => void}} providing  a step at a time
 * @property {(fetch: (name: string) => Uint8Array) => void} fetch_with
 * @property {() => {toJs: () => string[], destroy: () => void}} loaded
 */

/**
 * The worker the page's first script (early.js) started, and everything it said before the
 * shell adopted it; engine.js takes it over.
 * @typedef {object} EarlyWorker
 * @property {string} url  the worker script's absolute address
 * @property {() => {worker: Worker, events: Event[], started: number}} adopt
 */

/**
 * What early.js leaves on the window: its worker (until adopted) and, by their absolute address,
 * the precomputed tables it has started reading.
 * @typedef {object} EarlyStart
 * @property {EarlyWorker | null} engine
 * @property {Map<string, Promise<Array<[Params, string | number]>>>} views  [params, view's JSON text, or the index of the entry whose text it shares]
 */

export {};
