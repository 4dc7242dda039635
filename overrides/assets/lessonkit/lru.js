// @ts-check
// A map that keeps only its most recently used entries. A Map iterates in insertion order, so
// moving an entry to the end whenever it is used keeps the least recently used one first, which
// is the one to forget when the map is full.

/**
 * @template Key, Value
 */
export class LRUMap {
  /** @type {Map<Key, Value>} */
  #entries = new Map();

  /** @param {number} limit  how many entries are kept; at least 1 */
  constructor(limit) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`an LRUMap keeps at least one entry, not ${limit}`);
    this.limit = limit;
  }

  get size() {
    return this.#entries.size;
  }

  /** @param {Key} key */
  has(key) {
    return this.#entries.has(key);
  }

  /**
   * The value under `key`, now the most recently used; undefined if there is none.
   * @param {Key} key
   * @returns {Value | undefined}
   */
  get(key) {
    if (!this.#entries.has(key)) return undefined;
    const value = /** @type {Value} */ (this.#entries.get(key));
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /**
   * Keep `value` under `key` as the most recently used entry, forgetting the least recently used
   * one if the map would hold more than its limit.
   * @param {Key} key
   * @param {Value} value
   */
  set(key, value) {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.limit) {
      const [oldest] = this.#entries.keys();
      this.#entries.delete(oldest);
    }
    return this;
  }

  /** The keys, least recently used first. */
  keys() {
    return this.#entries.keys();
  }
}
