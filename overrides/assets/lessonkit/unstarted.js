// @ts-check
// The one classic script of the shell. Everything else is an ES module, and module scripts do not
// run at all on a page opened from a file (file://: browsers refuse them across the "null"
// origin), nor when shell.js cannot be loaded. Then each panel would keep saying its controls
// "appear when JavaScript runs", which is not the reason. Once the page has loaded, every panel the
// shell did not start says why, in its own words from its spec, and what to do; its starting state,
// which the build rendered, stays readable below. Nothing here may throw.
"use strict";

(function () {
  /**
   * The panel's words, or none when its spec cannot be read.
   * @param {Element} section
   * @returns {Partial<import("./types/spec.js").Words>}
   */
  function words(section) {
    try {
      return JSON.parse(section.getAttribute("data-spec") || "null").words || {};
    } catch (error) {
      return {};
    }
  }

  function explain() {
    var fromFile = window.location.protocol === "file:";
    var panels = document.querySelectorAll(".lk-panel:not([data-engine])");
    for (var index = 0; index < panels.length; index += 1) {
      var section = panels[index];
      var said = words(section);
      var text = fromFile ? said.shell_missing_file : said.shell_missing;
      if (!text || section.querySelector(".lk-unstarted")) continue;
      var message = document.createElement("p");
      message.className = "lk-message lk-unstarted";
      message.setAttribute("role", "alert");
      message.textContent = text;
      var note = section.querySelector(".lk-static-note");
      if (note) note.replaceWith(message);
      else section.prepend(message);
      section.setAttribute("data-engine", "unstarted");
    }
  }

  // "load" comes after every module script has run (or failed to load): by then the shell has
  // started each panel it could.
  if (document.readyState === "complete") explain();
  else window.addEventListener("load", explain);
})();
