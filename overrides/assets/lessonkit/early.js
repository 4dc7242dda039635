// @ts-check
// The page's first script, on a page with a panel or a runnable sample. The shell runs only when
// the page has been parsed; this classic script, which the build puts right after the page's
// policy, starts the two slow things the shell will need before the page is even read:
//   - the Python engine's worker, whose start-up (Pyodide, the build's snapshot, the wheel) is
//     most of the wait before a sample can run; engine.js adopts it, with every message it has
//     sent so far, instead of starting its own (unless the connection asks to save data: then
//     nothing of the engine is downloaded until the reader asks for it);
//   - the panel's precomputed views (data-views), fetched, unpacked and read, so that when the
//     shell starts the panel they are in memory and a reader's first change is answered in the
//     same task as the change. engine.js takes the promise over, by the table's absolute URL.
// After instant navigation no head script runs; the engine is already running by then.
// Nothing here may throw: the shell still starts everything itself if this did nothing.
"use strict";

(function () {
  var script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  // From a file the shell's modules never run (browsers refuse them), so nothing would adopt these.
  if (!script || window.location.protocol === "file:") return;
  var page = /** @type {Window & {lessonkitEarly?: import("./types/protocol.js").EarlyStart}} */ (window);
  /** @type {import("./types/protocol.js").EarlyStart} */
  var early = (page.lessonkitEarly = page.lessonkitEarly || { views: new Map(), engine: null });

  // A connection that asks to save data gets no engine until the reader asks for it (engine.js).
  var connection = /** @type {{connection?: {saveData?: boolean}}} */ (navigator).connection;
  var savesData = Boolean(connection && connection.saveData);

  if (!savesData) {
    try {
      var workerURL = new URL("worker.js", script.src).href;
      var worker = new Worker(workerURL, { name: "lessonkit-engine" });
      var started = performance.now();
      /** @type {Event[]} */
      var events = [];
      /** @param {Event} event */
      var keep = function (event) {
        // An error the shell will report in the page, in its own words, once it has adopted the worker.
        if (event.type === "error") event.preventDefault();
        events.push(event);
      };
      ["message", "error", "messageerror"].forEach(function (type) {
        worker.addEventListener(type, keep);
      });
      early.engine = {
        url: workerURL,
        /** The worker and what it has said so far; from now on its events go to the adopter's own listeners. */
        adopt: function () {
          ["message", "error", "messageerror"].forEach(function (type) {
            worker.removeEventListener(type, keep);
          });
          early.engine = null;
          return { worker: worker, events: events, started: started };
        },
      };
    } catch (error) {
      early.engine = null; // the shell tries again, and says why if it fails too
    }
  }

  var views = script.dataset.views;
  if (!views || typeof DecompressionStream !== "function") return;
  var url = new URL(views, script.src).href;
  if (early.views.has(url)) return;
  // As engine.js reads a table: [[params, view's JSON text], ...] from gzip-compressed JSON.
  var table = fetch(url)
    .then(function (response) {
      if (!response.ok || !response.body) throw new Error("HTTP " + response.status + " for " + url);
      return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).json();
    })
    .then(function (body) {
      return body.views;
    });
  // The shell reports a failure in its own words (and lets Python answer); nothing to say twice.
  table.catch(function () {});
  early.views.set(url, table);
})();
