// Build step (Node): a memory snapshot of the site's Pyodide with the lessonkit wheel installed and
// the worker's modules imported, so a reader's browser restores a ready interpreter instead of
// booting one and importing everything. Written next to the wheel by the MkDocs hook.
//
//   node snapshot.mjs <lessonkit wheel> <output snapshot.gz> <module> [<module> ...]
//
// The snapshot is written gzip-compressed (it shrinks to about a quarter); the worker inflates it
// with the browser's own DecompressionStream.
//
// A snapshot holds memory, not files: the worker unpacks the wheel again after restoring it, so
// fixtures and modules not imported here still load.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";

const [wheelPath, outputPath, ...modules] = process.argv.slice(2);
if (!wheelPath || !outputPath || !modules.length) {
  console.error("usage: node snapshot.mjs <wheel> <output> <module> [<module> ...]");
  process.exit(2);
}

const pyodide = await loadPyodide({ _makeSnapshot: true, stdout: () => {}, stderr: (line) => console.error(line) });
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });
pyodide.runPython(`import importlib\nimportlib.invalidate_caches()\n${modules.map((name) => `import ${name}`).join("\n")}`);
writeFileSync(outputPath, gzipSync(pyodide.makeMemorySnapshot(), { level: 9 }));
