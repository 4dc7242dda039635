// The reference worker: boot the site's Pyodide, install the lessonkit wheel, import lessonkit.
// Straightforwardly done (the wheel is fetched while Pyodide boots), with nothing the site adds:
// no manifest, no file checks, no precomputed views, no snapshot, no lessonkit.runtime.
// Started as a classic worker for the site's Pyodide, as the course starts its engine; as a module
// worker for the next Pyodide (bench/pyodide_next.py), which refuses to start in a classic one.
"use strict";
const now = () => performance.timeOrigin + performance.now();

// What this worker downloaded, on the page's clock's origin (absolute ms): the bench checks with it
// that the network it emulates paces the worker's requests too.
const downloads = () =>
  performance.getEntriesByType("resource").map((entry) => ({
    name: entry.name,
    start: performance.timeOrigin + entry.startTime,
    end: performance.timeOrigin + entry.responseEnd,
    encoded: entry.encodedBodySize,
  }));

self.addEventListener("message", async (event) => {
  const marks = { worker_started: now() };
  try {
    const { pyodide: indexURL, wheel: wheelURL, module } = event.data;
    const wheel = fetch(wheelURL).then((response) => {
      if (!response.ok) throw new Error(`${wheelURL}: HTTP ${response.status}`);
      return response.arrayBuffer();
    });
    // A module worker has an importScripts that refuses every script: the page says which it started.
    const loadPyodide = module
      ? (await import(new URL("pyodide.mjs", indexURL).href)).loadPyodide
      : (importScripts(new URL("pyodide.js", indexURL).href), self.loadPyodide);
    const pyodide = await loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });
    marks.pyodide_loaded = now();
    const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
    pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
    marks.wheel_installed = now();
    pyodide.runPython("import importlib; importlib.invalidate_caches(); import lessonkit");
    marks.imported = now();
    postMessage({ ok: true, marks, pyodide: pyodide.version, downloads: downloads() });
  } catch (error) {
    postMessage({ ok: false, error: String(error && error.message ? error.message : error), marks });
  }
});
