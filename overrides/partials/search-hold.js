// @ts-check
// Written into the head of every page (overrides/main.html), before the theme's bundle runs.
// Material asks for its search index (the whole course's text) as each page starts, and its search
// worker then indexes it, for a search the reader may never make: on a lesson page on the same cores
// on which the Python engine is starting, and a sample runs later for it; on any page, on cores the
// page is loading on (bench/FINDINGS.md). So the index waits until the reader reaches for search:
// focuses its box (as its keyboard shortcuts do) or opens it.
// An address that asks for a search's highlights (?h=) or a shared search (?q=) needs the index at
// once, and gets it. From a file, where the theme's search cannot fetch its index, nothing is held.
// Nothing here may throw: the theme's search works as it always did if this did nothing.
"use strict";

(function () {
  if (window.location.protocol === "file:") return;
  holdSearchIndex();

  /**
   * Material's bundle asks with an XMLHttpRequest while the page starts: only that request is held,
   * and XMLHttpRequest is itself again the moment it has been made.
   */
  function holdSearchIndex() {
    var query = new URLSearchParams(window.location.search);
    var XHR = window.XMLHttpRequest;
    if (query.has("h") || query.has("q") || typeof XHR !== "function") return;
    var open = XHR.prototype.open;
    var send = XHR.prototype.send;
    var restore = function () {
      XHR.prototype.open = open;
      XHR.prototype.send = send;
    };
    /** @type {() => void} */
    var reach = function () {};
    /** @type {Promise<void>} */
    var reached = new Promise(function (resolve) {
      reach = resolve;
    });
    var held = new WeakSet();
    // Each call passes its caller's arguments on as they came: what open and send were given.
    /**
     * @this {XMLHttpRequest}
     * @param {string} method
     * @param {string | URL} url
     */
    XHR.prototype.open = function (method, url) {
      try {
        var address = new URL(String(url), document.baseURI);
        if (address.origin === window.location.origin && /\/search\/search_index\.json$/.test(address.pathname)) held.add(this);
      } catch (error) {
        // not an address this hold is about
      }
      return open.apply(this, /** @type {Parameters<typeof open>} */ (/** @type {unknown} */ (arguments)));
    };
    /** @this {XMLHttpRequest} */
    XHR.prototype.send = function () {
      var body = /** @type {Parameters<typeof send>} */ (/** @type {unknown} */ (arguments));
      if (!held.has(this)) return send.apply(this, body);
      restore();
      var request = this;
      reached.then(function () {
        send.apply(request, body);
      });
    };
    // Every deferred script has run by now: a page whose theme never asked is given XMLHttpRequest back.
    document.addEventListener("DOMContentLoaded", restore);
    document.addEventListener(
      "focusin",
      function (event) {
        var target = /** @type {Partial<Element>} */ (event.target);
        if (target.matches && target.matches('[data-md-component="search-query"]')) reach();
      },
      true,
    );
    document.addEventListener(
      "change",
      function (event) {
        if (/** @type {Element} */ (event.target).id === "__search") reach();
      },
      true,
    );
  }
})();
