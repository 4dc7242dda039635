// The panel's precomputed views, asked for by the page's first script. The build puts this classic
// script in the head of a page whose panel has them, ahead of the stylesheets, so the views are
// fetched, unpacked and read while the page is still being parsed. The shell starts the panel when
// parsing ends, and then finds them in memory: a reader's first change is answered in the same
// task as the change. Asked for only by the shell, they would be unpacked after the theme's
// start-up, one task of 130 to 250 ms on the course's 2-core reference machine, and so would the
// first answer. engine.js takes the promise from `lessonkitViews`, by the table's absolute URL;
// after instant navigation, when no head script runs, it fetches the table itself.
"use strict";

(function () {
  var script = document.currentScript;
  if (!script || !script.dataset.views || typeof DecompressionStream !== "function") return;
  var url = new URL(script.dataset.views, script.src).href;
  var tables = (window.lessonkitViews = window.lessonkitViews || new Map());
  if (tables.has(url)) return;
  // As engine.js reads a table: [[params, view's JSON text], ...] from gzip-compressed JSON.
  var table = fetch(url).then(function (response) {
    if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
    return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).json();
  }).then(function (body) {
    return body.views;
  });
  // The shell reports a failure in its own words (and lets Python answer); nothing to say twice.
  table.catch(function () {});
  tables.set(url, table);
})();
