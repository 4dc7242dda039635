// @ts-check
// The page's address follows the experiment (#budget=36&policy=evict&time=60), so that a reader can
// reload, bookmark or pass on exactly what they are looking at.
//
// Each write is a same-document navigation: the browser records it in the tab's history and
// Chromium fetches the page's icon again. Written at every change, that work ran on the same cores
// as the engine's answer to the change and made the answer measurably later (bench/FINDINGS.md).
// A slider dragged across its range also asks for dozens of writes a second, and browsers take
// only so many (whatwg/html#11844). So the address is written once the reader pauses, and at once
// whenever they may be about to use it: copying the link, following a link, leaving the page, the
// tab or the window.

/**
 * The part of the window an address uses: the page's own, or a test's with its own timers.
 * @typedef {object} Scope
 * @property {{pathname: string}} location
 * @property {Pick<History, "state" | "replaceState">} history
 * @property {(callback: () => void, ms: number) => number} setTimeout
 * @property {(timer: number | undefined) => void} clearTimeout
 * @property {(type: string, listener: () => void, options: AddEventListenerOptions) => void} addEventListener
 * @property {{addEventListener: (type: string, listener: (event: Event) => void, options: AddEventListenerOptions) => void}} document
 */

/** How long a reader's settings must stay still before the address is written. */
export const PAUSE_MS = 500;

export class Address {
  /**
   * `fragment()` says what the address should carry (without its "#") at the moment it is
   * written. `section` is the experiment's element: once the site's instant navigation has
   * taken it off the page, or moved the page to another path, nothing is written. `signal` ends
   * the address's life with its panel's: the window's listeners go, and a waiting write with them.
   * `scope` is the window; a test passes its own, with its own timers.
   * @param {Element} section
   * @param {() => string} fragment
   * @param {{signal?: AbortSignal, scope?: Scope}} [options]
   */
  constructor(section, fragment, { signal, scope = globalThis } = {}) {
    this.section = section;
    this.fragment = fragment;
    this.scope = scope;
    this.path = scope.location.pathname;
    this.signal = signal;
    /** @type {number | undefined} */
    this.timer = undefined;
    const flush = () => this.flush();
    const options = { signal };
    scope.addEventListener("pagehide", flush, options);
    scope.addEventListener("blur", flush, options); // the reader may be on their way to the address bar
    scope.document.addEventListener("visibilitychange", flush, options);
    // Capturing, so that the current entry of the history has the settings before a link (or the
    // site's instant navigation, which listens for the same click) adds the next one.
    scope.document.addEventListener(
      "click",
      (event) => (/** @type {Partial<Element> | null} */ (event.target)?.closest?.("a[href]") ? flush() : undefined),
      { capture: true, signal },
    );
    signal?.addEventListener("abort", () => {
      scope.clearTimeout(this.timer);
      this.timer = undefined;
    });
  }

  /**
   * The settings or the moment changed: the address is written once they have stayed as they are
   * for PAUSE_MS. Playback moves the moment at every frame, so nothing is written while it plays.
   */
  follow() {
    if (this.signal?.aborted) return;
    this.scope.clearTimeout(this.timer);
    this.timer = this.scope.setTimeout(() => this.write(), PAUSE_MS);
  }

  /** A write still waiting for the reader to pause happens now. */
  flush() {
    if (this.timer !== undefined) this.write();
  }

  /** The address carries the settings now, whether a write was waiting or not. */
  write() {
    this.scope.clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.section.isConnected || this.scope.location.pathname !== this.path) return;
    const { history } = this.scope;
    history.replaceState(history.state, "", `#${this.fragment()}`);
  }
}
