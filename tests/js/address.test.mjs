// When the page's address follows the experiment: once the reader pauses, and at once when they
// may be about to use it. Window, history and timers are the test's own, so no test waits.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Address, PAUSE_MS } from "../../overrides/assets/lessonkit/address.js";

/** A window with a history that records each write, timers the test advances, and events it fires. */
function page(pathname = "/lessons/working-memory/") {
  const listeners = { window: {}, document: {} };
  const timers = new Map();
  let now = 0;
  let nextTimer = 1;
  const scope = {
    location: { pathname },
    writes: [],
    history: {
      state: { kept: true },
      replaceState(state, unused, url) {
        scope.writes.push({ state, url });
      },
    },
    setTimeout(callback, ms) {
      timers.set(nextTimer, { at: now + ms, callback });
      return nextTimer++;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    addEventListener: (type, callback, options) => listen("window", type, callback, options),
    document: { addEventListener: (type, callback, options) => listen("document", type, callback, options) },
  };
  // As browsers do: a listener given an aborted signal, or whose signal is aborted later, is gone.
  function listen(target, type, callback, options) {
    const signal = typeof options === "object" ? options?.signal : undefined;
    if (signal?.aborted) return;
    const entry = { callback };
    (listeners[target][type] ??= []).push(entry);
    signal?.addEventListener("abort", () => listeners[target][type].splice(listeners[target][type].indexOf(entry), 1));
  }
  return {
    scope,
    /** Let `ms` pass, running each timer that falls due. */
    wait(ms) {
      now += ms;
      for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at <= now && timers.delete(id)) timer.callback();
      }
    },
    fire(target, type, event = {}) {
      for (const { callback } of listeners[target][type] ?? []) callback(event);
    },
    /** How many listeners the window and its document hold. */
    listening() {
      return Object.values(listeners).flatMap((byType) => Object.values(byType)).reduce((sum, entries) => sum + entries.length, 0);
    },
    /** How many timers are waiting. */
    waiting() {
      return timers.size;
    },
  };
}

function addressOn(window, fragment = () => "budget=36&policy=evict", signal = undefined) {
  const section = { isConnected: true };
  return { address: new Address(section, fragment, { signal, scope: window.scope }), section };
}

const link = { target: { closest: (selector) => (selector === "a[href]" ? {} : null) } };
const notALink = { target: { closest: () => null } };

test("a burst of changes is written to the address once, after the reader pauses", () => {
  const window = page();
  let budget = 24;
  const { address } = addressOn(window, () => `budget=${budget}`);
  for (budget of [28, 32, 36]) {
    address.follow();
    window.wait(PAUSE_MS / 5);
  }
  assert.deepEqual(window.scope.writes, []);
  window.wait(PAUSE_MS);
  assert.deepEqual(window.scope.writes, [{ state: { kept: true }, url: "#budget=36" }]);
  window.wait(PAUSE_MS * 4);
  assert.equal(window.scope.writes.length, 1);
});

test("following a link, leaving the page, the tab or the window writes a waiting change at once", () => {
  for (const [target, type, event] of [
    ["document", "click", link],
    ["window", "pagehide"],
    ["window", "blur"],
    ["document", "visibilitychange"],
  ]) {
    const window = page();
    const { address } = addressOn(window);
    address.follow();
    window.fire(target, type, event);
    assert.deepEqual(window.scope.writes.map((write) => write.url), ["#budget=36&policy=evict"], `${target} ${type}`);
    window.wait(PAUSE_MS);
    assert.equal(window.scope.writes.length, 1, `${target} ${type} then the pause: written once`);
  }
});

test("with no change waiting, nothing is written on leaving, and a click off a link writes nothing", () => {
  const window = page();
  const { address } = addressOn(window);
  window.fire("window", "blur");
  window.fire("document", "click", link);
  address.follow();
  window.fire("document", "click", notALink);
  assert.deepEqual(window.scope.writes, []);
});

test("copying the link writes the address at once and leaves no write waiting", () => {
  const window = page();
  const { address } = addressOn(window);
  address.follow();
  address.write();
  assert.equal(window.scope.writes.length, 1);
  window.wait(PAUSE_MS);
  window.fire("window", "pagehide");
  assert.equal(window.scope.writes.length, 1);
});

test("an experiment the site's navigation has left behind never writes another page's address", () => {
  const moved = page();
  const { address } = addressOn(moved);
  address.follow();
  moved.scope.location.pathname = "/lessons/context-compaction/";
  moved.wait(PAUSE_MS);
  assert.deepEqual(moved.scope.writes, []);

  const removed = page();
  const { address: gone, section } = addressOn(removed);
  gone.follow();
  section.isConnected = false;
  removed.fire("window", "pagehide");
  assert.deepEqual(removed.scope.writes, []);
});

test("playback, moving the moment at every frame, is written once it stops", () => {
  const window = page();
  let time = 0;
  const { address } = addressOn(window, () => `time=${time}`);
  for (; time < 120; time += 1) {
    address.follow();
    window.wait(16);
  }
  assert.deepEqual(window.scope.writes, []);
  window.wait(PAUSE_MS);
  assert.deepEqual(window.scope.writes.map((write) => write.url), ["#time=120"]);
});

test("once its panel is closed, the address holds no listener and no timer, and writes nothing", () => {
  const window = page();
  const life = new AbortController();
  const { address } = addressOn(window, undefined, life.signal);
  assert.equal(window.listening(), 4);
  address.follow();
  life.abort();
  assert.equal(window.listening(), 0);
  assert.equal(window.waiting(), 0);
  address.follow();
  window.fire("window", "pagehide");
  window.wait(PAUSE_MS * 2);
  assert.deepEqual(window.scope.writes, []);
});
