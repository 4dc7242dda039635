// @ts-check
// The course kept for reading offline. MkDocs copies this file to the site's root, so its scope is
// the whole course, and the build writes into it (lessonkit.authoring.offline) every file it made,
// each with its bytes and SHA-256, and the build's version. The page (assets/lessonkit/offline.js)
// registers it once the Python engine is ready, so filling the cache never competes with a first visit.
//
// One build, one cache, "lessonkit-course-<version>":
//   - install: every file of the build is fetched (revalidated past the HTTP cache) and checked
//     against its digest before it goes in. Any failure (the network, a full storage, a file of
//     another build) deletes the new cache and fails the install, so the version already kept,
//     if any, stays the one in use; why it failed is kept in "lessonkit-offline-failure" for a
//     page loaded later to read, until a build is kept whole.
//   - activate (once no page uses the previous version: the reader's next visit): the caches of
//     other builds are deleted, and the pages open now are taken over.
//   - fetch: a file of the course comes from this build's cache, whatever the network does; a
//     page missing from it gets the course's 404 page. Only this build's cache is ever read, so
//     a page never mixes files of two builds. A file the build fetches only on a reader's demand
//     (real tokens' ranks, the course's `on_demand`) comes from the network the first time, and
//     is kept in this build's cache then, if it is this build's.
//
// Messages (structured clone):
//   page -> worker  {kind: "status"}           the worker answers that page with its state
//   worker -> pages {kind: "course", version, state, received, total, reason}
//                   state: "filling" (received of total bytes), "kept", "failed" (reason),
//                   "serving" (`mkdocs serve`: nothing is kept, and any kept course is cleared)
"use strict";

/** @typedef {import("./assets/lessonkit/types/offline.js").Course} Course */
/** @typedef {import("./assets/lessonkit/types/offline.js").CourseState} CourseState */

/** @type {Course | null} */
const COURSE = null; // lessonkit-course

const scope = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const PREFIX = "lessonkit-course-";
// The last build that could not be kept, and why (offline.js reads it too).
const FAILURE = "lessonkit-offline-failure";
const FAILURE_URL = "/lessonkit-offline-failure.json";
const course = /** @type {Course} */ (COURSE || { version: "unbuilt", serving: true, bytes: 0, files: [], on_demand: [] });
// Each file kept on demand, by its absolute address: its bytes and digest, as the build wrote them.
const ON_DEMAND = new Map((course.on_demand || []).map((file) => [new URL(file[0], scope.registration.scope).href, file]));
const CACHE = PREFIX + course.version;
// A few files at a time: the engine's largest files fill the link, and the small ones don't wait behind them.
const AT_ONCE = 4;

// A worker past its install has kept the whole course: the browser stops an idle worker and starts
// it again for the next event, with this state as it starts, and only an install changes it.
/** @type {CourseState} */
let state = { kind: "course", version: course.version, state: course.serving ? "serving" : "kept", received: course.bytes, total: course.bytes, reason: "" };

/** @param {Partial<CourseState>} change */
async function announce(change) {
  state = { ...state, ...change };
  const pages = await scope.clients.matchAll({ includeUncontrolled: true, type: "window" });
  for (const page of pages) page.postMessage(state);
}

/** @param {unknown} thrown */
// A DOMException keeps its name (the page tells a full storage by "QuotaExceededError"); this
// worker's own errors say what happened in their message alone.
const reasonOf = (thrown) => {
  const error = /** @type {Partial<Error> | null | undefined} */ (thrown);
  if (!error || !error.message) return String(error);
  return (error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message).replace(/[.\s]+$/, "");
};

/** @param {ArrayBuffer} body */
async function digestOf(body) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return "sha256-" + btoa(binary);
}

/**
 * Fetch one file of the build, check it, and put it in the cache.
 * @param {Cache} cache
 * @param {[string, number, string | null]} file
 */
async function keep(cache, [address, size, expected]) {
  const url = new URL(address, scope.registration.scope).href;
  // Revalidated: a copy the HTTP cache holds from an earlier build must not pass for this one's.
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${address} answered HTTP ${response.status}`);
  const body = await response.arrayBuffer();
  if (expected !== null && (await digestOf(body)) !== expected) {
    throw new Error(`${address} is not this build's (a newer build may be arriving)`);
  }
  await cache.put(url, asKept(response, body));
  await announce({ received: state.received + size });
}

/**
 * `response` as the cache keeps it, with `body`, its bytes: decoded already, so the headers that
 * described its encoding on the wire go; the type and the policy a worker takes from its headers stay.
 * @param {Response} response
 * @param {ArrayBuffer} body
 */
function asKept(response, body) {
  const headers = new Headers(response.headers);
  for (const name of ["content-encoding", "content-length", "transfer-encoding"]) headers.delete(name);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function fill() {
  const cache = await caches.open(CACHE);
  const waiting = [...course.files];
  const worker = async () => {
    for (let file = waiting.shift(); file; file = waiting.shift()) await keep(cache, file);
  };
  try {
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
  } catch (error) {
    waiting.length = 0; // the other fetches stop at their next file
    await caches.delete(CACHE);
    await announce({ state: "failed", reason: reasonOf(error) });
    await remember(state).catch(() => null); // a full storage may refuse even this
    throw error;
  }
  await caches.delete(FAILURE);
  await announce({ state: "kept", received: course.bytes });
}

// A worker whose install failed is gone before a page loaded later can ask it why: its last state
// is kept apart, for the page to read (offline.js), until a build is kept whole.
/** @param {CourseState} failed */
async function remember(failed) {
  const failures = await caches.open(FAILURE);
  await failures.put(FAILURE_URL, new Response(JSON.stringify(failed), { headers: { "content-type": "application/json" } }));
}

/** Delete every kept course but this build's; true if there was one. */
async function clearOthers() {
  const others = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  await Promise.all(others.map((name) => caches.delete(name)));
  return others.length > 0;
}

scope.addEventListener("install", (event) => {
  if (course.serving) {
    event.waitUntil(scope.skipWaiting().then(() => announce({})));
    return;
  }
  event.waitUntil(announce({ state: "filling", received: 0 }).then(fill));
});

scope.addEventListener("activate", (event) => {
  if (course.serving) {
    event.waitUntil(retire());
    return;
  }
  event.waitUntil(
    clearOthers()
      .then(() => scope.clients.claim())
      .then(() => announce({ state: "kept", received: course.bytes })),
  );
});

// `mkdocs serve`: clear any course kept from a built site on this address, stop, and load again
// the pages it had served from that cache; a browser with nothing kept is left as it is.
async function retire() {
  const cleared = await clearOthers();
  await scope.registration.unregister();
  if (!cleared) return;
  const pages = await scope.clients.matchAll({ type: "window" });
  await Promise.all(pages.map((page) => page.navigate(page.url).catch(() => null)));
}

scope.addEventListener("message", (event) => {
  const data = /** @type {{kind?: unknown} | null} */ (event.data);
  const source = /** @type {Client | null} */ (event.source);
  if (data && data.kind === "status" && source) source.postMessage(state);
});

/** @param {Request} request */
async function answer(request) {
  const cache = await caches.open(CACHE);
  // A link to an experiment carries its settings in its query: the page is the same file. A HEAD
  // request (the engine's worker checks its files with one) is answered from the file's headers.
  const found = await cache.match(request, { ignoreSearch: true, ignoreVary: true, ignoreMethod: request.method === "HEAD" });
  if (found) return request.method === "HEAD" ? new Response(null, { status: found.status, headers: found.headers }) : found;
  const onDemand = request.method === "GET" ? ON_DEMAND.get(request.url.split("?")[0]) : undefined;
  if (onDemand) return keepOnDemand(cache, request, onDemand);
  try {
    return await fetch(request);
  } catch (error) {
    if (request.mode !== "navigate") throw error;
    const missing = await cache.match(new URL("404.html", scope.registration.scope).href);
    if (!missing) throw error;
    return new Response(missing.body, { status: 404, statusText: "Not Found", headers: missing.headers });
  }
}

/**
 * A file kept on demand, fetched for the page that asked and kept for its next visit, offline too:
 * only once its digest is this build's, and only while this build is the one kept (a page may ask
 * before the course is whole, or after a newer build has replaced it). Keeping it may fail (a full
 * storage); the page gets its file all the same.
 * @param {Cache} cache
 * @param {Request} request
 * @param {[string, number, string | null]} file
 */
async function keepOnDemand(cache, request, [, , expected]) {
  const response = await fetch(request);
  if (!response.ok) return response;
  const body = await response.clone().arrayBuffer();
  if (state.state === "kept" && (await caches.has(CACHE)) && (expected === null || (await digestOf(body)) === expected)) {
    await cache.put(request.url, asKept(response, body)).catch(() => null);
  }
  return response;
}

scope.addEventListener("fetch", (event) => {
  const request = event.request;
  if (course.serving || !["GET", "HEAD"].includes(request.method) || !request.url.startsWith(scope.registration.scope)) return;
  event.respondWith(answer(request));
});
