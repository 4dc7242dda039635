// A storage backend in memory for the shell's tests: localStorage's methods over a Map whose
// `items` a test can read and break.

/** @param {Record<string, string>} [initial] */
export function memoryBackend(initial = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
}
