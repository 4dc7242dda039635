// The build's snapshot memory, made smaller before it ships: freed memory holds zeros, and the
// image leaves out its pages of zeros and those still as the WebAssembly module lays its data.
// With the site's pinned Pyodide, started in Node as the build starts it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

import { dataSegments, sparseBesideModule, zeroFreeMemory } from "../../src/lessonkit/authoring/snapshot_memory.mjs";

const PAGE = 4096;
const pyodide = await loadPyodide({ _makeSnapshot: true, stdout: () => {}, stderr: () => {} });
const module = pyodide._module;

test("memory the interpreter freed holds zeros afterwards, and the memory has not grown", () => {
  const size = 48 * 1024;
  const block = module._PyMem_RawMalloc(size);
  module.HEAPU8.fill(0xab, block, block + size);
  module._PyMem_RawFree(block);
  const memory = module.HEAPU8.length;
  const bytes = () => module.HEAPU8.subarray(block, block + size);
  const held = () => bytes().filter((byte) => byte === 0xab).length;
  assert.ok(held() > size / 2, "the freed block did not hold what it last held, so there is nothing to zero");
  zeroFreeMemory(module);
  assert.equal(module.HEAPU8.length, memory);
  assert.equal(held(), 0, "the freed block still holds what it last held");
  // What is left is the allocator's own bookkeeping: a few words where its blocks began.
  assert.ok(bytes().filter((byte) => byte !== 0).length <= 64, "the freed block holds more than the allocator's bookkeeping");
  assert.equal(pyodide.runPython("sum(range(10))"), 45, "the interpreter works on after its free memory is zeroed");
});

/** The memory a sparse form describes, put back as the worker puts it back (worker.js, expandMemory). */
function expand(form, segments) {
  const view = new DataView(form.buffer, form.byteOffset, form.byteLength);
  assert.equal(new TextDecoder().decode(form.subarray(0, 8)), "LKSPARS2");
  const image = new Uint8Array(view.getUint32(8, true));
  const count = view.getUint32(12, true);
  const laid = view.getUint32(16, true);
  for (let index = 0; index < laid; index += 1) image.set(segments[view.getUint32(20 + 8 * index, true)].bytes, view.getUint32(24 + 8 * index, true));
  let from = 20 + 8 * laid + 8 * count;
  for (let index = 0; index < count; index += 1) {
    const offset = view.getUint32(20 + 8 * laid + 8 * index, true);
    const length = view.getUint32(24 + 8 * laid + 8 * index, true);
    image.set(form.subarray(from, from + length), offset);
    from += length;
  }
  assert.equal(from, form.length);
  return image;
}

test("the sparse form lays the module's data and keeps only the pages that differ from it and from zeros", () => {
  const memoryAt = 144;
  const data = new Uint8Array(3 * PAGE).map((_, index) => 1 + (index % 200));
  const segments = [null, { address: PAGE, bytes: data }]; // a passive segment, then an active one
  const image = new Uint8Array(8 * PAGE + 100);
  image.set(data, memoryAt + PAGE);
  image[memoryAt + PAGE + PAGE + 5] = 0; // start-up changed the module's data in one page
  image[6 * PAGE + 1] = 7; // and wrote where there were zeros
  const form = sparseBesideModule(image, memoryAt, segments);
  const view = new DataView(form.buffer, form.byteOffset, form.byteLength);
  assert.equal(view.getUint32(8, true), image.length);
  assert.equal(view.getUint32(16, true), 1, "one segment laid");
  assert.deepEqual([view.getUint32(20, true), view.getUint32(24, true)], [1, memoryAt + PAGE]);
  assert.equal(view.getUint32(12, true), 2, "two runs: the changed page of data, and the page that was zeros");
  const runs = [0, 1].map((index) => [view.getUint32(28 + 8 * index, true), view.getUint32(32 + 8 * index, true)]);
  assert.deepEqual(runs, [
    [2 * PAGE, PAGE],
    [6 * PAGE, PAGE],
  ]);
  assert.deepEqual(expand(form, segments), image);
});

test("the build's snapshot leaves out most of the module's data, and comes back whole with it", () => {
  const snapshot = pyodide.makeMemorySnapshot();
  const memoryAt = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
  const wasm = new Uint8Array(readFileSync(new URL("pyodide.asm.wasm", import.meta.resolve("pyodide"))));
  const segments = dataSegments(wasm, module.___memory_base.value);
  const active = segments.filter(Boolean);
  assert.ok(active.length >= 1, "the module has no active data segment");
  const form = sparseBesideModule(snapshot, memoryAt, segments);
  assert.deepEqual(expand(form, segments), snapshot);
  // Most of the module's data is as the module lays it: those pages are not in the form.
  const pagesOf = (bytes) => Math.ceil(bytes / PAGE);
  const dataPages = pagesOf(active.reduce((sum, segment) => sum + segment.bytes.length, 0));
  let notZeros = 0;
  for (let offset = 0; offset < snapshot.length; offset += PAGE) if (snapshot.subarray(offset, offset + PAGE).some((byte) => byte !== 0)) notZeros += 1;
  const view = new DataView(form.buffer, form.byteOffset, form.byteLength);
  const laid = view.getUint32(16, true);
  let kept = 0;
  for (let index = 0; index < view.getUint32(12, true); index += 1) kept += view.getUint32(24 + 8 * laid + 8 * index, true);
  assert.ok(pagesOf(kept) <= notZeros - dataPages / 2, `the form keeps ${pagesOf(kept)} pages of the ${notZeros} that are not zeros; the module's data is ${dataPages}`);
});
