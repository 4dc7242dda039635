// The build's snapshot memory, made smaller before it ships: freed memory holds zeros, and the
// image leaves its pages of zeros out. With the site's pinned Pyodide, started in Node as the build
// starts it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadPyodide } from "pyodide";

import { sparse, zeroFreeMemory } from "../../src/lessonkit/authoring/snapshot_memory.mjs";

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

test("the sparse form keeps each page that holds something, at its offset, and leaves out pages of zeros", () => {
  const memory = new Uint8Array(5 * PAGE + 100);
  memory[PAGE + 7] = 1; // page 1
  memory[2 * PAGE] = 2; // page 2, joined to page 1 in one run
  memory[5 * PAGE + 99] = 3; // the short last page
  const form = sparse(memory);
  const view = new DataView(form.buffer, form.byteOffset, form.byteLength);
  assert.equal(new TextDecoder().decode(form.subarray(0, 8)), "LKSPARS1");
  assert.equal(view.getUint32(8, true), memory.length);
  assert.equal(view.getUint32(12, true), 2);
  const runs = [0, 1].map((index) => [view.getUint32(16 + 8 * index, true), view.getUint32(20 + 8 * index, true)]);
  assert.deepEqual(runs, [
    [PAGE, 2 * PAGE],
    [5 * PAGE, 100],
  ]);
  assert.deepEqual(form.subarray(32), Buffer.concat([memory.subarray(PAGE, 3 * PAGE), memory.subarray(5 * PAGE)]));
});
