// The build's snapshot of the interpreter's memory, made smaller: the memory Python has freed is
// filled with zeros first, and the image is written without its pages of zeros (the sparse form
// snapshot.mjs describes, which worker.js reads back). A module of its own so that the tests can
// hold each step to what it promises without making a whole snapshot.

/**
 * Zeros in the memory the interpreter has freed. Freed memory keeps whatever it last held, and the
 * snapshot carries it to every reader: filled with zeros, it compresses to almost nothing. The free
 * blocks are taken from the allocator with calloc, largest first, and given back; each size stops
 * once the allocator would have to grow the heap for it, so the memory is no larger than before.
 * Sizes stay far below the room the heap has left in the memory, so no growth reaches past it.
 * @param {any} module  Pyodide's Emscripten module
 */
export function zeroFreeMemory(module) {
  const memory = module.HEAPU8.length;
  const held = [];
  for (let size = 1 << 20; size >= 16; size >>= 1) {
    for (;;) {
      const top = module._sbrk(0);
      const block = module._PyMem_RawCalloc(1, size);
      if (!block) break;
      if (module._sbrk(0) !== top) {
        module._PyMem_RawFree(block);
        break;
      }
      held.push(block);
    }
  }
  for (const block of held) module._PyMem_RawFree(block);
  if (module.HEAPU8.length !== memory) throw new Error(`zeroing the freed memory grew it from ${memory} to ${module.HEAPU8.length} bytes`);
}

/** `memory` without its pages of zeros, in the sparse form snapshot.mjs describes. */
export function sparse(memory) {
  const PAGE = 4096;
  const runs = [];
  for (let offset = 0; offset < memory.length; offset += PAGE) {
    const page = memory.subarray(offset, Math.min(offset + PAGE, memory.length));
    if (page.every((byte) => byte === 0)) continue;
    const last = runs[runs.length - 1];
    if (last && last.offset + last.length === offset) last.length += page.length;
    else runs.push({ offset, length: page.length });
  }
  const header = new DataView(new ArrayBuffer(16 + 8 * runs.length));
  new TextEncoder().encodeInto("LKSPARS1", new Uint8Array(header.buffer, 0, 8));
  header.setUint32(8, memory.length, true);
  header.setUint32(12, runs.length, true);
  runs.forEach(({ offset, length }, index) => {
    header.setUint32(16 + 8 * index, offset, true);
    header.setUint32(20 + 8 * index, length, true);
  });
  return Buffer.concat([new Uint8Array(header.buffer), ...runs.map(({ offset, length }) => memory.subarray(offset, offset + length))]);
}
