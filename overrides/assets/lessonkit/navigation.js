// @ts-check
// Every page a reader reaches, whether loaded or brought in by Material's instant navigation.

/**
 * The window as this module sees it: its document, and Material's `document$` once the theme's
 * bundle has defined it (an observable of each page instant navigation brings in).
 * @typedef {object} Scope
 * @property {Pick<Document, "readyState" | "addEventListener">} document
 * @property {{subscribe: (next: () => void) => unknown}} [document$]
 */

/**
 * Call `enhance` for the page as it is now, once parsing is done, and for every page that
 * instant navigation swaps in (Material's `document$` announces each one, replaying the current).
 *
 * The theme's bundle, which defines `document$`, is deferred, and the modules that call this are
 * async: one may run after parsing has ended but before the bundle, while `readyState` already
 * says "interactive". Deferred scripts all run before DOMContentLoaded, so until that event a
 * missing `document$` means "not yet", and only after it does it mean "not on this page".
 *
 * `scope` is the window and its document; a test passes its own.
 * @param {() => void} enhance
 * @param {Scope} [scope]
 */
export function onEveryPage(enhance, scope = /** @type {Scope} */ (globalThis)) {
  const { document } = scope;
  enhance();
  const follow = () => {
    const pages = scope.document$;
    if (pages && typeof pages.subscribe === "function") pages.subscribe(() => enhance());
    else enhance(); // no theme bundle: still the rest of this page, parsed since
  };
  if (scope.document$ || document.readyState === "complete") follow();
  else document.addEventListener("DOMContentLoaded", follow, { once: true });
}
