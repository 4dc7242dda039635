// Build step (Node): a memory snapshot of the site's Pyodide with the lessonkit wheel installed,
// the worker's modules imported and every lesson's opening view answered once (fixtures read), so
// a reader's browser restores a ready interpreter instead of booting one and importing everything.
// Written next to the wheel by the MkDocs hook.
//
//   node snapshot.mjs <lessonkit wheel> <output snapshot.gz> <standard library zip> <module> [<module> ...]
//
// The standard library is the one the reader's browser gets, trimmed to what the engines use
// (engine_stdlib.mjs): the interpreter remembers the files of the zip it started with, so the
// snapshot must be made with the same zip it will be restored with.
//
// The snapshot is written in a sparse form, then gzip-compressed; the worker inflates it with the
// browser's own DecompressionStream and puts the pages back (worker.js, expandMemory). Two fifths
// of the interpreter's memory are pages of zeros, and most of the WebAssembly module's own data is
// as the module lays it: every reader downloads that in pyodide.asm.wasm already. Both are left out
// (snapshot_memory.mjs describes the form), so there is that much less to download and inflate.
//
// A snapshot holds memory, not files: the worker unpacks the wheel again after restoring it, so
// fixtures and modules not imported here still load.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { loadPyodide } from "pyodide";
import { dataSegments, sparseBesideModule, zeroFreeMemory } from "./snapshot_memory.mjs";

const [wheelPath, outputPath, stdlibPath, ...modules] = process.argv.slice(2);
if (!wheelPath || !outputPath || !stdlibPath || !modules.length) {
  console.error("usage: node snapshot.mjs <wheel> <output> <standard library zip> <module> [<module> ...]");
  process.exit(2);
}

const pyodide = await loadPyodide({ _makeSnapshot: true, stdLibURL: stdlibPath, stdout: () => {}, stderr: (line) => console.error(line) });
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });
pyodide.runPython(`import importlib\nimportlib.invalidate_caches()\n${modules.map((name) => `import ${name}`).join("\n")}`);
// Every lesson's opening view answered once: fixtures read, first-use work done, all in memory.
pyodide.runPython("import lessonkit.runtime\nlessonkit.runtime.warm()");
zeroFreeMemory(pyodide._module);
const snapshot = pyodide.makeMemorySnapshot();
// Pyodide's snapshot is its header, whose length is its second word, then the memory.
const memoryAt = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
// The module the site ships beside its Pyodide, which is this one (the build copies it).
const wasm = new Uint8Array(readFileSync(new URL("pyodide.asm.wasm", import.meta.resolve("pyodide"))));
const segments = dataSegments(wasm, pyodide._module.___memory_base.value);
writeFileSync(outputPath, gzipSync(sparseBesideModule(snapshot, memoryAt, segments), { level: 9 }));
