"""The build ships each module script the pages load as one file (lessonkit.authoring.shell_bundle)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonkit.authoring.shell_bundle import bundle_modules

ROOT = Path(__file__).resolve().parents[1]


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


MODULES = {
    "js/entry.js": 'import { said } from "./words.js";\nexport const shown = said("ready");\n',
    "js/words.js": "// Words, one concept.\nexport function said(word) {\n  return `the engine is ${word}`;\n}\n",
    "js/classic.js": '"use strict";\nself.onmessage = () => {};\n',
}


def test_a_bundle_takes_in_what_its_module_imports_and_the_site_keeps_only_the_bundle(tmp_path):
    sources, site = tmp_path / "overrides", tmp_path / "site"
    write(sources, MODULES)
    write(site, MODULES)  # as MkDocs copies the theme's files
    removed = bundle_modules(ROOT, sources, site, ["js/entry.js"])
    assert removed == [site / "js" / "words.js"]
    bundle = (site / "js" / "entry.js").read_text(encoding="utf-8")
    assert "import" not in bundle and "the engine is" in bundle, bundle
    # A file no module imports (a worker, a classic script) stays as written.
    assert (site / "js" / "classic.js").read_text(encoding="utf-8") == MODULES["js/classic.js"]


def test_a_module_script_that_does_not_exist_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"js/gone\.js"):
        bundle_modules(ROOT, tmp_path / "overrides", tmp_path / "site", ["js/gone.js"])


def test_a_module_that_cannot_be_bundled_says_why(tmp_path):
    sources, site = tmp_path / "overrides", tmp_path / "site"
    write(sources, {"js/entry.js": 'import { gone } from "./missing.js";\nexport default gone;\n'})
    with pytest.raises(RuntimeError, match=r"js/entry\.js could not be bundled: .*missing\.js"):
        bundle_modules(ROOT, sources, site, ["js/entry.js"])
