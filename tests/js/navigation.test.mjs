// Every page is enhanced whichever runs first, the theme's deferred bundle or an async module of ours.
import assert from "node:assert/strict";
import { test } from "node:test";

import { onEveryPage } from "../../overrides/assets/lessonkit/navigation.js";

/** A window whose document is at `readyState`, and Material's document$ once `bundle()` has run. */
function page(readyState) {
  const listeners = {};
  const scope = {
    document: {
      readyState,
      addEventListener: (name, callback) => (listeners[name] ??= []).push(callback),
    },
  };
  const subscribers = [];
  return {
    scope,
    /** The theme's bundle runs: document$ exists, and replays the current page to each subscriber. */
    bundle() {
      scope.document$ = { subscribe: (callback) => (subscribers.push(callback), callback(scope.document)) };
    },
    /** Parsing and every deferred script are done. */
    contentLoaded() {
      scope.document.readyState = "interactive";
      for (const callback of listeners.DOMContentLoaded ?? []) callback();
    },
    /** Instant navigation brings in another page. */
    navigate() {
      for (const callback of subscribers) callback(scope.document);
    },
  };
}

function counted() {
  const calls = { count: 0 };
  return { calls, enhance: () => (calls.count += 1) };
}

test("a module that runs after the bundle follows instant navigation at once", () => {
  const site = page("interactive");
  site.bundle();
  const { calls, enhance } = counted();
  onEveryPage(enhance, site.scope);
  const before = calls.count;
  site.navigate();
  assert.equal(calls.count, before + 1);
});

test("a module that runs after parsing but before the deferred bundle still follows instant navigation", () => {
  // readyState already says "interactive", yet document$ does not exist until the bundle has run.
  const site = page("interactive");
  const { calls, enhance } = counted();
  onEveryPage(enhance, site.scope);
  site.bundle();
  site.contentLoaded();
  const before = calls.count;
  site.navigate();
  assert.equal(calls.count, before + 1);
});

test("a module that runs while the page is parsed enhances it again once parsing is done", () => {
  const site = page("loading");
  const { calls, enhance } = counted();
  onEveryPage(enhance, site.scope);
  assert.equal(calls.count, 1);
  site.bundle();
  site.contentLoaded();
  assert.equal(calls.count, 2, "the rest of the page, parsed since, is enhanced through document$'s replay");
  site.navigate();
  assert.equal(calls.count, 3);
});

test("a page without the theme's bundle is still enhanced once parsing is done", () => {
  const site = page("loading");
  const { calls, enhance } = counted();
  onEveryPage(enhance, site.scope);
  site.contentLoaded();
  assert.equal(calls.count, 2);
});
