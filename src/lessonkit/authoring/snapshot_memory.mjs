// The build's snapshot of the interpreter's memory, made smaller: the memory Python has freed is
// filled with zeros first, and the image is written without the pages that are zeros or still the
// WebAssembly module's own data (the sparse form described below, which worker.js reads back). A
// module of its own so that the tests can hold each step to what it promises without making a
// whole snapshot.

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

/**
 * The WebAssembly module's data segments, in order: for each active one, its bytes and the memory
 * address instantiating the module writes them at, its offset evaluated with `memoryBase` (the
 * module's `__memory_base`, the one global such an offset reads); null for a passive one, which the
 * module writes itself, later. Read from the module's bytes, as the worker reads them (worker.js,
 * dataSegments).
 * @param {Uint8Array} wasm
 * @param {number} memoryBase
 * @returns {({address: number, bytes: Uint8Array} | null)[]}
 */
export function dataSegments(wasm, memoryBase) {
  let at = 8;
  // A LEB128 number's bits, and whether its last byte marks it negative when it is read as signed.
  const leb128 = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = wasm[at++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return { value, shift, negative: shift < 32 && (byte & 0x40) !== 0 };
  };
  const leb = () => leb128().value >>> 0;
  const signed = () => {
    const { value, shift, negative } = leb128();
    return negative ? value | (-1 << shift) : value;
  };
  // A constant expression of the kind Emscripten writes for a segment's offset.
  const offset = () => {
    const stack = [];
    for (let op = wasm[at++]; op !== 0x0b; op = wasm[at++]) {
      if (op === 0x41) stack.push(signed());
      else if (op === 0x23) (leb(), stack.push(memoryBase));
      else if (op === 0x6a) stack.push(stack.pop() + stack.pop());
      else throw new Error(`a data segment's offset uses the instruction 0x${op.toString(16)}, which this reader does not evaluate`);
    }
    return stack.pop();
  };
  while (at < wasm.length) {
    const id = wasm[at++];
    const size = leb();
    if (id !== 11) {
      at += size;
      continue;
    }
    const segments = [];
    for (let count = leb(), index = 0; index < count; index += 1) {
      const flags = leb();
      if (flags === 2) leb(); // the memory's index: there is one
      const address = flags === 1 ? null : offset();
      const length = leb();
      segments.push(address === null ? null : { address, bytes: wasm.subarray(at, at + length) });
      at += length;
    }
    return segments;
  }
  throw new Error("the WebAssembly module has no data section");
}

/**
 * A snapshot without the pages that are as they were before start-up: zeros, or the module's own
 * data, which the worker reads from the module it downloads anyway. The snapshot's memory begins
 * at byte `memoryAt` (Pyodide's header comes first). The second sparse form, its integers unsigned
 * 32-bit little-endian:
 *   "LKSPARS2"                          8 bytes
 *   total, count, segments              the image's length; how many runs; how many segments are laid in
 *   segments x (index, offset)          each active data segment of the module, by its index, and where
 *                                       in the image its bytes go
 *   count x (offset, length)            runs of 4 KiB pages that differ from zeros and those segments
 *   the runs' bytes, one after another
 * @param {Uint8Array} image
 * @param {number} memoryAt
 * @param {({address: number, bytes: Uint8Array} | null)[]} segments
 */
export function sparseBesideModule(image, memoryAt, segments) {
  const before = new Uint8Array(image.length);
  const laid = [];
  segments.forEach((segment, index) => {
    if (!segment) return;
    before.set(segment.bytes, memoryAt + segment.address);
    laid.push([index, memoryAt + segment.address]);
  });
  const PAGE = 4096;
  const runs = [];
  for (let offset = 0; offset < image.length; offset += PAGE) {
    const end = Math.min(offset + PAGE, image.length);
    if (Buffer.compare(image.subarray(offset, end), before.subarray(offset, end)) === 0) continue;
    const last = runs[runs.length - 1];
    if (last && last.offset + last.length === offset) last.length += end - offset;
    else runs.push({ offset, length: end - offset });
  }
  const header = new DataView(new ArrayBuffer(20 + 8 * laid.length + 8 * runs.length));
  new TextEncoder().encodeInto("LKSPARS2", new Uint8Array(header.buffer, 0, 8));
  header.setUint32(8, image.length, true);
  header.setUint32(12, runs.length, true);
  header.setUint32(16, laid.length, true);
  laid.forEach(([index, offset], at) => {
    header.setUint32(20 + 8 * at, index, true);
    header.setUint32(24 + 8 * at, offset, true);
  });
  const from = 20 + 8 * laid.length;
  runs.forEach(({ offset, length }, at) => {
    header.setUint32(from + 8 * at, offset, true);
    header.setUint32(from + 4 + 8 * at, length, true);
  });
  return Buffer.concat([new Uint8Array(header.buffer), ...runs.map(({ offset, length }) => image.subarray(offset, offset + length))]);
}
