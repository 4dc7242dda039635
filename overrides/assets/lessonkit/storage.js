// @ts-check
// The reader's notes and baselines live in localStorage, which can be disabled, full or hold a value
// this page can't read. None of that may lose what the reader wrote, so every access goes through
// here and every problem comes back as a sentence the page shows, never as a thrown error.
import { fill } from "./dom.js";
import { PAGE_WORDS as WORDS } from "./words.js";

/**
 * Where the reader's words are kept: localStorage, or a test's own.
 * @typedef {Pick<globalThis.Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">} Backend
 */

/**
 * A change's outcome: `keptAs` names where an unreadable old value was copied before the change.
 * @typedef {{ok: true, keptAs: string | null, problem?: undefined} | {ok: false, problem: string | null, keptAs?: string | null}} Change
 */

// "QuotaExceededError: The quota has been exceeded" (no final period: messages add their own).
// Anything may be thrown; a DOMException or an Error has a name and a message.
/** @param {unknown} thrown */
export const describe = (thrown) => {
  const error = /** @type {Partial<Error> | null | undefined} */ (thrown);
  return (error && error.name && error.message ? `${error.name}: ${error.message}` : String(error)).replace(/[.\s]+$/, "");
};

/** @returns {{storage: Backend | null, problem: string | null}} */
function openLocalStorage() {
  try {
    if (typeof window === "undefined") return { storage: null, problem: WORDS.storage_no_window };
    // Merely touching window.localStorage throws when storage is disabled for the site.
    const storage = window.localStorage;
    return { storage, problem: storage ? null : WORDS.storage_unavailable };
  } catch (error) {
    return { storage: null, problem: describe(error) };
  }
}

export class Storage {
  /**
   * `backend` is for tests: any object with getItem, setItem and removeItem (default: localStorage).
   * @param {Backend} [backend]
   */
  constructor(backend = undefined) {
    const { storage, problem } = backend === undefined ? openLocalStorage() : { storage: backend, problem: null };
    this.storage = storage;
    this.unavailable = problem;
    // Keys whose stored text could not be parsed: their raw text must be copied aside before
    // anything replaces or removes it.
    /** @type {Map<string, string>} */
    this.unreadable = new Map();
    // Every unreadable text seen this visit, even once copied aside: export offers it.
    /** @type {Map<string, string>} */
    this.setAside = new Map();
  }

  /**
   * `{text, key}` (text null when absent) or `{text: null, problem}`. When `key` holds nothing, the
   * `formerKeys` are read in turn (what was saved under a lesson's former id is still the reader's);
   * `key` in the answer says where the text was found.
   * @param {string} key
   * @param {string[]} [formerKeys]
   * @returns {{text: string | null, key: string, problem?: string | null}}
   */
  readText(key, formerKeys = []) {
    if (!this.storage) return { text: null, key, problem: this.unavailable };
    try {
      for (const candidate of [key, ...formerKeys]) {
        const text = this.storage.getItem(candidate);
        if (text !== null) return { text, key: candidate };
      }
      return { text: null, key };
    } catch (error) {
      return { text: null, key, problem: describe(error) };
    }
  }

  /**
   * `{value}` (null when absent), or `{value: null, unreadable: raw, problem}` when the stored text
   * is not JSON or fails `check`. The unreadable text stays where it is, untouched.
   * @param {string} key
   * @param {(value: unknown) => string | null} [check]  what is wrong with a parsed value, or null
   * @param {string[]} [formerKeys]
   * @returns {{value: unknown, key: string, unreadable?: string, problem?: string | null}}
   */
  readJSON(key, check = () => null, formerKeys = []) {
    const { text, problem, key: found } = this.readText(key, formerKeys);
    if (problem) return { value: null, key: found, problem };
    if (text === null) return { value: null, key: found };
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // Kept aside under the key being written from now on, so the next write copies it first.
      this.unreadable.set(key, text);
      this.setAside.set(found, text);
      return { value: null, key: found, unreadable: text, problem: fill(WORDS.storage_not_json, { reason: error instanceof Error ? error.message : String(error) }) };
    }
    const wrong = check(value);
    if (wrong) {
      this.unreadable.set(key, text);
      this.setAside.set(found, text);
      return { value: null, key: found, unreadable: text, problem: wrong };
    }
    return { value, key: found };
  }

  /**
   * Every unreadable text under `prefix`, by key: those read this visit, and those set aside
   * ("…:corrupt:…") on any visit. What export offers, so unreadable text is never only in storage.
   * @param {string} prefix
   */
  unreadableTexts(prefix) {
    /** @type {Record<string, string | null>} */
    const found = {};
    for (const [key, text] of this.setAside) if (key.startsWith(prefix)) found[key] = text;
    if (!this.storage) return found;
    try {
      for (let index = 0; index < this.storage.length; index += 1) {
        const key = this.storage.key(index);
        if (key && key.startsWith(prefix) && key.includes(":corrupt:")) found[key] = this.storage.getItem(key);
      }
    } catch {
      // A storage that can't be listed still gives what this visit read.
    }
    return found;
  }

  /**
   * Every text stored under `prefix`, by key, but those set aside as unreadable ("…:corrupt:…"):
   * what a lesson kept for a field it no longer has, say. Empty when storage can't be listed.
   * @param {string} prefix
   */
  textsUnder(prefix) {
    /** @type {Record<string, string>} */
    const found = {};
    if (!this.storage) return found;
    try {
      for (let index = 0; index < this.storage.length; index += 1) {
        const key = this.storage.key(index);
        const text = key && key.startsWith(prefix) && !key.includes(":corrupt:") ? this.storage.getItem(key) : null;
        if (key && text) found[key] = text;
      }
    } catch {
      // A storage that can't be listed has nothing to offer here; each field reads its own key anyway.
    }
    return found;
  }

  /**
   * Write text; returns `{ok, problem, keptAs}`. keptAs names where an unreadable old value went.
   * @param {string} key
   * @param {string} text
   * @returns {Change}
   */
  write(key, text) {
    return this.#change(key, (storage) => storage.setItem(key, text));
  }

  /**
   * @param {string} key
   * @param {unknown} value
   */
  writeJSON(key, value) {
    return this.write(key, JSON.stringify(value));
  }

  /** @param {string} key */
  remove(key) {
    return this.#change(key, (storage) => storage.removeItem(key));
  }

  /**
   * @param {string} key
   * @param {(storage: Backend) => void} apply
   * @returns {Change}
   */
  #change(key, apply) {
    if (!this.storage) return { ok: false, problem: this.unavailable };
    let keptAs = null;
    try {
      if (this.unreadable.has(key)) {
        // Copy the unreadable text aside first; if that copy fails, the change is refused.
        keptAs = `${key}:corrupt:${new Date().toISOString()}`;
        this.storage.setItem(keptAs, /** @type {string} */ (this.unreadable.get(key)));
        this.unreadable.delete(key);
      }
      apply(this.storage);
      return { ok: true, keptAs };
    } catch (error) {
      return { ok: false, problem: describe(error), keptAs };
    }
  }
}
