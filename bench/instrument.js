// The benchmark's eyes in every page it opens (an init script, so it runs before the page's own
// scripts, in every document of the context). It reads only what a reader could see or do:
//   - the text of each panel's role="status" element, with the moment it changed;
//   - each panel's data-engine state ("booting", "ready", "failed"), with the moment it changed;
//   - each panel's engine download bar (its value and max: bytes received of the total), as it moves;
//   - the text of each sample's status note ("Sample 1 ran in your browser."), with its moment;
//   - the moment of every input/change event on a panel's controls (the reader's change), and of
//     every click on a link (kept in sessionStorage, so it survives a full navigation).
// Times are the page's own clock: milliseconds since navigation start (performance.now()).
(() => {
  if (window.__lkBench) return;
  const bench = {
    status: [], // {t, lesson, text}
    engine: [], // {t, lesson, state}
    progress: [], // {t, lesson, value, max}
    samples: [], // {t, text}
    changes: [], // {t, type, name}
    waiters: [],
  };
  window.__lkBench = bench;
  const shown = new Map();

  const settle = () => {
    bench.waiters = bench.waiters.filter((waiter) => {
      const hit = waiter.find();
      if (hit) waiter.resolve(hit);
      return !hit;
    });
  };

  const look = () => {
    const now = performance.now();
    for (const section of document.querySelectorAll("section.lk-panel")) {
      const lesson = section.dataset.lesson || "";
      const status = section.querySelector("[role=status]");
      if (status) {
        const text = status.textContent.trim();
        if (shown.get(`status:${lesson}`) !== text) {
          shown.set(`status:${lesson}`, text);
          bench.status.push({ t: now, lesson, text });
        }
      }
      const bar = section.querySelector("progress.lk-engine-progress");
      if (bar && bar.max > 1 && shown.get(`progress:${lesson}`) !== `${bar.value}/${bar.max}`) {
        shown.set(`progress:${lesson}`, `${bar.value}/${bar.max}`);
        bench.progress.push({ t: now, lesson, value: bar.value, max: bar.max });
      }
      const state = section.dataset.engine || "";
      if (shown.get(`engine:${lesson}`) !== state) {
        shown.set(`engine:${lesson}`, state);
        bench.engine.push({ t: now, lesson, state });
      }
    }
    const notes = [...document.querySelectorAll(".lk-sample-status")].map((note) => note.textContent.trim()).join("\n");
    if (shown.get("samples") !== notes) {
      shown.set("samples", notes);
      bench.samples.push({ t: now, text: notes });
    }
    settle();
  };

  new MutationObserver(look).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ["data-engine", "value", "max"],
  });
  document.addEventListener("DOMContentLoaded", look);

  for (const type of ["input", "change"]) {
    document.addEventListener(
      type,
      (event) => {
        const target = event.target;
        if (target && target.closest && target.closest("section.lk-panel")) {
          bench.changes.push({ t: event.timeStamp, type, name: target.name || "" });
        }
      },
      true,
    );
  }
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target && event.target.closest && event.target.closest("a[href]");
      if (link) sessionStorage.setItem("lkBenchClickAt", String(performance.timeOrigin + event.timeStamp));
    },
    true,
  );

  /** Resolves with the first log entry `find` accepts, now or when it arrives; null after `timeout` ms. */
  bench.wait = (find, timeout) =>
    new Promise((resolve) => {
      const hit = find();
      if (hit) return resolve(hit);
      const waiter = { find, resolve };
      bench.waiters.push(waiter);
      setTimeout(() => {
        bench.waiters = bench.waiters.filter((each) => each !== waiter);
        resolve(null);
      }, timeout);
    });

  /** The first time the panel of `lesson` showed `text` as its status at or after `since`. */
  bench.waitStatus = (lesson, text, since, timeout) =>
    bench.wait(() => bench.status.find((entry) => entry.lesson === lesson && entry.text === text && entry.t >= since), timeout);

  /** The first time the panel of `lesson` reached one of `states` ("ready", "failed"). */
  bench.waitEngine = (lesson, states, timeout) =>
    bench.wait(() => bench.engine.find((entry) => entry.lesson === lesson && states.includes(entry.state)), timeout);

  /**
   * A reader's first change, made the moment it can be: as soon as the panel of `lesson` shows the
   * control named `name`, labelled `label`, visible and enabled, it is set to `value` (for a choice,
   * the option's label) with the events a reader's change fires (input, then change). Made here, in
   * the page, because Playwright's own actions (select_option, fill, and even locator.evaluate)
   * reach a page only once its load event has passed: on a lesson that is a few hundred
   * milliseconds after its controls exist, which no reader has to wait for.
   * Resolves with {t} (when it acted), or {error} after `timeout` ms.
   */
  bench.actWhenReady = (lesson, name, label, kind, value, timeout) =>
    new Promise((resolve) => {
      let observer = null;
      let timer = null;
      const labelOf = (element) =>
        (element.getAttribute("aria-label") || [...(element.labels || [])].map((each) => each.textContent).join(" ")).trim();
      const find = () => {
        const section = document.querySelector(`section.lk-panel[data-lesson="${CSS.escape(lesson)}"]`);
        const element = section && section.querySelector(`[name="${CSS.escape(name)}"]`);
        if (!element || element.disabled || !element.checkVisibility()) return null;
        return element;
      };
      const act = () => {
        const element = find();
        if (!element) return false;
        observer?.disconnect();
        clearTimeout(timer);
        if (labelOf(element) !== label) {
          resolve({ error: `the control named ${name} is labelled ${JSON.stringify(labelOf(element))}, not ${JSON.stringify(label)}` });
          return true;
        }
        const t = performance.now();
        if (kind === "choice") {
          const option = [...element.options].find((each) => each.textContent.trim() === value);
          if (!option) {
            resolve({ error: `${label} has no option ${JSON.stringify(value)}` });
            return true;
          }
          element.value = option.value;
        } else if (kind === "toggle") {
          element.checked = Boolean(value);
        } else {
          element.value = String(value);
        }
        element.dispatchEvent(new Event("input", { bubbles: true }));
        element.dispatchEvent(new Event("change", { bubbles: true }));
        resolve({ t });
        return true;
      };
      if (act()) return;
      observer = new MutationObserver(act);
      // Only what can bring the control or take it away: armed from the document's start, a look
      // at every attribute the page and its theme set would cost the page's own start.
      observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled", "hidden"] });
      // What the panel showed when the wait ran out, so that a run that failed says why.
      const state = () => {
        const section = document.querySelector(`section.lk-panel[data-lesson="${CSS.escape(lesson)}"]`);
        if (!section) return "no panel on the page";
        const engine = `its engine ${section.dataset.engine || "not started"}`;
        const element = section.querySelector(`[name="${CSS.escape(name)}"]`);
        if (!element) return `the panel has no control named ${name}, ${engine}`;
        return `the control was ${element.disabled ? "disabled" : "enabled"} and ${element.checkVisibility() ? "rendered" : "not rendered"}, ${engine}`;
      };
      timer = setTimeout(() => {
        observer.disconnect();
        resolve({ error: `no visible, enabled control ${JSON.stringify(label)} within ${timeout} ms: ${state()}` });
      }, timeout);
    });

  /** The first time a sample note matched `pattern` (a RegExp source). */
  bench.waitSample = (pattern, timeout) => {
    const wanted = new RegExp(pattern, "m");
    return bench.wait(() => bench.samples.find((entry) => wanted.test(entry.text)), timeout);
  };
})();
