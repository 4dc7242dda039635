// @ts-check
// Reads one table of the build's precomputed views off the page's main thread: the tables of the
// lessons around the page, which engine.js reads while the reader reads. A table is gzip-compressed
// JSON, a few megabytes once inflated; inflated and parsed on the page, it holds the main thread in
// one long task, just when the reader may be using the panel (bench/FINDINGS.md). The page fetches
// the table and hands the bytes over; here they are inflated and parsed, and the page receives the
// array the table holds ([[params, view's JSON text], ...]), whose texts it only copies. One table
// per worker, which is closed once it has answered.
// The page's own table is read on the page by early.js: a worker's start would come between the
// table and the reader's first change, which it answers (bench/FINDINGS.md).
"use strict";

self.onmessage = async (/** @type {MessageEvent<{url: string, gzipped: ArrayBuffer}>} */ event) => {
  const { url, gzipped } = event.data;
  try {
    const text = await new Response(new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
    self.postMessage({ url, views: JSON.parse(text).views });
  } catch (error) {
    self.postMessage({ url, error: error instanceof Error ? error.message : String(error) });
  }
};
