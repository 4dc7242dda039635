// @ts-check
// What the course's service worker (service-worker.js, at the site's root) keeps, and what it tells
// the pages (offline.js), described in words at the top of service-worker.js. Types only, for
// `tsc --noEmit`: neither the page nor the worker loads this file.

/**
 * One build of the course, as lessonkit.authoring.offline writes it into the worker: its version
 * (a digest of every file's), and every file with its bytes and SHA-256 ("sha256-…", or null for a
 * file hosts rewrite, the sitemap). `serving`: written by `mkdocs serve`, which keeps nothing.
 * @typedef {object} Course
 * @property {string} version
 * @property {boolean} serving
 * @property {number} bytes
 * @property {Array<[string, number, string | null]>} files
 * @property {Array<[string, number, string | null]>} on_demand  files a reader's use fetches (real tokens'
 *   ranks): not fetched to fill the course, but kept in its cache, checked, once a page has fetched one
 */

/**
 * The worker's state, as it tells every page of the course.
 * @typedef {object} CourseState
 * @property {"course"} kind
 * @property {string} version
 * @property {"filling" | "kept" | "failed" | "serving"} state
 * @property {number} received
 * @property {number} total
 * @property {string} reason
 */

export {};
