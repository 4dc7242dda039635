// Build step (Node): which files of Pyodide's standard library the engines use. Pyodide starts
// with its full standard library (python_stdlib.zip); the lessonkit wheel is unpacked, every module
// of it that Pyodide can import is imported, every lesson's opening view is answered once, and the
// entries of the library's zip that the interpreter then holds are printed, one JSON list. The
// MkDocs hook keeps only those in the standard library the reader's browser downloads, and the
// snapshot is made with that one (site_hooks.trim_stdlib); the rest comes when a sample asks for it
// (lessonkit.stdlib_on_demand).
//
//   node engine_stdlib.mjs <lessonkit wheel>
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [wheelPath] = process.argv.slice(2);
if (!wheelPath) {
  console.error("usage: node engine_stdlib.mjs <wheel>");
  process.exit(2);
}

const pyodide = await loadPyodide({ stdout: () => {}, stderr: (line) => console.error(line) });
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });
const entries = pyodide.runPython(`
import importlib, json, pkgutil, sys
importlib.invalidate_caches()
import lessonkit
for module in pkgutil.walk_packages(lessonkit.__path__, "lessonkit."):
    try:
        importlib.import_module(module.name)
    except ImportError:
        pass  # a module for the build or the tests (an upstream's check), which the browser never imports
import lessonkit.runtime
lessonkit.runtime.warm()
library = next(entry for entry in sys.path if entry.endswith(".zip"))
held = (getattr(module, "__file__", None) or "" for module in list(sys.modules.values()))
json.dumps(sorted(name[len(library) + 1 :] for name in held if name.startswith(library + "/")))
`);
console.log(entries);
