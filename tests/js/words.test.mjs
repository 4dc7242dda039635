// Every word a reader sees or hears from the shell is one a course can reword in one place: a
// panel's in its spec (`Words` and `Playback` in lessonkit.panel), the page's in words.js. A
// sentence written straight into a module would be English that no lesson and no course can
// change, so these tests read every string in the shell's modules, with the TypeScript parser
// pinned in package.json, and fail on one that reads as prose.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import ts from "typescript";

import { PAGE_WORDS } from "../../overrides/assets/lessonkit/words.js";

const SHELL = new URL("../../overrides/assets/lessonkit/", import.meta.url);
const ROOT = new URL("../../", import.meta.url);

// Modules whose strings are not the shell's words: the words themselves; the worker, which runs
// apart from the page and cannot read them, so its account of starting Pyodide is quoted into a
// `{reason}` or `{start}` as it gives it; and params.js, whose refusals of settings are
// lessonkit.checks' own, held to Python's by tests/refusals.json.
const NOT_THE_SHELLS_WORDS = new Set(["words.js", "worker.js", "params.js"]);

// Strings that read as prose but that no reader meets, each with the reason.
const NEVER_SHOWN = new Map([
  ["Escape", "the name of a key (KeyboardEvent.key)"],
  ["Enter", "the name of a key (KeyboardEvent.key)"],
  ["an LRUMap keeps at least one entry, not ", "refuses a size the shell never gives"],
]);

// Calls whose strings no reader meets: the console, and CSS selectors ("pre code").
const UNSEEN_CALLS = new Set(["console", "querySelector", "querySelectorAll", "closest", "matches"]);

/** Two plain words in a row ("Edit sample"), or a capitalised word alone ("Error"). */
function readsAsProse(text) {
  const word = /^[A-Za-z][a-z']*[,.;:!?…]?$/;
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.some((token, index) => index > 0 && word.test(tokens[index - 1]) && word.test(token))) return true;
  return /^[A-Z][a-z]+$/.test(text.trim());
}

/** @param {ts.Node} node */
function isUnseenCall(node) {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  if (ts.isPropertyAccessExpression(callee)) {
    return UNSEEN_CALLS.has(callee.name.text) || (ts.isIdentifier(callee.expression) && callee.expression.text === "console");
  }
  return false;
}

const modules = new Map(
  readdirSync(SHELL)
    .filter((name) => name.endsWith(".js"))
    .map((name) => [name, ts.createSourceFile(name, readFileSync(new URL(name, SHELL), "utf8"), ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS)]),
);

/**
 * Every string piece of a module (literals, and the text between a template's `${}`), outside
 * unseen calls, imports and directives ("use strict").
 */
function strings(name) {
  const source = modules.get(name);
  const found = [];
  const visit = (node) => {
    if (isUnseenCall(node) || ts.isImportDeclaration(node)) return;
    if (ts.isExpressionStatement(node) && ts.isStringLiteral(node.expression)) return;
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every name read as a property anywhere in the shell's modules (`words.capture`, `WORDS.retry`). */
function namesRead() {
  const read = new Set();
  for (const source of modules.values()) {
    const visit = (node) => {
      if (ts.isPropertyAccessExpression(node)) read.add(node.name.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return read;
}

test("no module of the shell writes a sentence of its own: its words come from the panel's spec or from words.js", () => {
  const written = [];
  for (const name of [...modules.keys()].filter((each) => !NOT_THE_SHELLS_WORDS.has(each))) {
    for (const { text, line } of strings(name)) {
      if (readsAsProse(text) && !NEVER_SHOWN.has(text)) written.push(`${name}:${line} ${JSON.stringify(text)}`);
    }
  }
  assert.deepEqual(written, [], "move each into the panel's Words (src/lessonkit/panel/spec.py) or the page's words (words.js)");
});

test("the prose check finds a hard-coded label, a sentence and a lone capitalised word, and passes markup", () => {
  for (const prose of ["Edit sample ", "Your edit could not be saved", "Error", " raised an error: "]) assert.ok(readsAsProse(prose), prose);
  for (const markup of ["lk-field lk-kept ", ".doc-signature pre > code", "(prefers-reduced-motion: reduce)", " / ", "aria-live"]) {
    assert.ok(!readsAsProse(markup), markup);
  }
});

test("every word of the page's is one the shell uses", () => {
  const read = namesRead();
  assert.deepEqual(Object.keys(PAGE_WORDS).filter((key) => !read.has(key)), []);
});

test("every word of a panel's spec is one the shell or the page the build writes uses", () => {
  const types = readFileSync(new URL("types/spec.js", SHELL), "utf8");
  const block = types.slice(types.indexOf("@typedef {object} Words"));
  const words = [...block.slice(0, block.indexOf("*/")).matchAll(/@property \{string\} (\w+)/g)].map((found) => found[1]);
  assert.ok(words.includes("capture") && words.includes("engine_named"), "the Words typedef is read");
  // The build writes the static page before any script runs (lessonkit.panel.render).
  const render = readFileSync(new URL("src/lessonkit/panel/render.py", ROOT), "utf8");
  const read = namesRead();
  assert.deepEqual(words.filter((word) => !read.has(word) && !render.includes(`words.${word}`)), []);
});
