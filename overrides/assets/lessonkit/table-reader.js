// @ts-check
// Reads one table of the build's precomputed views off the page's main thread. The table is
// gzip-compressed JSON, a few megabytes once inflated; inflated and parsed on the page, it held the
// main thread while the page was still starting, the longest of its tasks on a lesson with a large
// table (bench/FINDINGS.md). Here it is fetched, inflated and parsed, and the page receives the
// array it holds ([[params, view's JSON text], ...]), whose texts it only copies.
// Started by early.js for the page's own table, and by engine.js for the tables of the lessons
// around it; one table per worker, which is closed once it has answered.
"use strict";

self.onmessage = async (/** @type {MessageEvent<{url: string}>} */ event) => {
  const { url } = event.data;
  try {
    const response = await fetch(url);
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} for ${url}`);
    const text = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).text();
    self.postMessage({ url, views: JSON.parse(text).views });
  } catch (error) {
    self.postMessage({ url, error: error instanceof Error ? error.message : String(error) });
  }
};
