// @ts-check
// The course kept for reading offline: the page's side of the service worker at the site's root
// (service-worker.js, whose comment describes what it keeps and the messages it sends).
//
// At the foot of every page: whether the course is kept in this browser, with a bar while it is
// being kept, and the reader's choice to keep it or not ("Keep the course for reading offline").
// The worker is registered once this page's Python engine is ready (or, on a page without one, once
// the page has loaded), so filling its cache never competes with what the reader opened the page
// for. A connection that asks to save data keeps nothing unless the reader asks. Turning it off
// deletes what was kept; what the reader wrote lives in other storage and is never touched.
// Served from a file, the page runs no module at all, so none of this starts.
import { fill, h } from "./dom.js";
import { describe } from "./storage.js";
import { PAGE_WORDS as WORDS } from "./words.js";

/** @typedef {import("./types/offline.js").CourseState} CourseState */
/** @typedef {import("./engine.js").Engine} Engine */
/** @typedef {import("./storage.js").Storage} Storage */

// The reader's choice, kept like their notes: "on", "off", or nothing yet (then the course is
// kept, unless the connection asks to save data).
export const CHOICE_KEY = "lessonkit.offline";
const PREFIX = "lessonkit-course-";
// Where the service worker keeps why the last build could not be kept.
const FAILURE = "lessonkit-offline-failure";
const FAILURE_URL = "/lessonkit-offline-failure.json";

const megabytes = (/** @type {number} */ bytes) => (bytes / 1e6).toFixed(1);

/**
 * What the page says, from what it knows: the reader's choice and the workers' states. `current`
 * is the state of the version in use (the registration's active worker), `next` that of a version
 * being kept or waiting to replace it. Pure, so the shell's tests can hold every case to its words.
 * @param {{choice: string | null, savesData: boolean, current: CourseState | null, next: CourseState | null,
 *   problem: string | null, waitingForEngine: boolean, cleared: boolean}} known
 * @returns {{status: string, progress: {received: number, total: number} | null}}
 */
export function describeCourse({ choice, savesData, current, next, problem, waitingForEngine, cleared }) {
  if (problem) return { status: problem, progress: null };
  if (choice === "off") return { status: cleared ? WORDS.offline_cleared : WORDS.offline_off, progress: null };
  const latest = next || current;
  if (latest && latest.state === "serving") return { status: WORDS.offline_serving, progress: null };
  if (next && next.state === "filling") return { status: WORDS.offline_filling, progress: { received: next.received, total: next.total } };
  if (next && next.state === "failed") {
    const reason = /QuotaExceeded/.test(next.reason) ? fill(WORDS.offline_storage_full, { total: megabytes(next.total) }) : next.reason;
    const words = current && current.state === "kept" ? WORDS.offline_failed_kept : WORDS.offline_failed;
    return { status: fill(words, { reason }), progress: null };
  }
  if (next && next.state === "kept" && current && current.state === "kept" && next.version !== current.version) {
    return { status: WORDS.offline_newer_kept, progress: null };
  }
  if (latest && latest.state === "kept") return { status: fill(WORDS.offline_kept, { total: megabytes(latest.total) }), progress: null };
  if (choice === null && savesData) return { status: WORDS.offline_saves_data, progress: null };
  if (waitingForEngine) return { status: WORDS.offline_waiting, progress: null };
  return { status: WORDS.offline_off, progress: null };
}

/**
 * Keep the course for reading offline, as the reader chooses, and say so at the foot of every page.
 * @param {{engine: Engine, storage: Storage, onEveryPage: (enhance: () => void) => void}} shell
 */
export function keepTheCourseOffline({ engine, storage, onEveryPage }) {
  const workers = globalThis.navigator && navigator.serviceWorker;
  const worker = new URL("../../service-worker.js", import.meta.url);
  const scope = new URL("../../", import.meta.url).href;
  const connection = /** @type {{connection?: {saveData?: boolean}}} */ (navigator).connection;
  const known = {
    choice: storage.readText(CHOICE_KEY).text,
    savesData: Boolean(connection && connection.saveData),
    /** @type {CourseState | null} */ current: null,
    /** @type {CourseState | null} */ next: null,
    /** @type {string | null} */ problem: null,
    waitingForEngine: false,
    cleared: false,
  };
  // Service workers need a secure context: https, or this machine.
  if (!workers || !globalThis.isSecureContext) known.problem = WORDS.offline_unsupported;

  /** @type {{status: HTMLElement, amount: HTMLElement, bar: HTMLProgressElement, choice: HTMLInputElement} | null} */
  let shown = null;

  function render() {
    if (!shown) return;
    const { status, progress } = describeCourse(known);
    if (shown.status.textContent !== status) shown.status.textContent = status;
    shown.choice.checked = known.choice !== "off" && !(known.choice === null && known.savesData);
    shown.choice.disabled = known.problem !== null;
    shown.bar.hidden = shown.amount.hidden = progress === null;
    if (progress) {
      shown.bar.max = progress.total;
      shown.bar.value = progress.received;
      shown.amount.textContent = fill(WORDS.offline_amount, { received: megabytes(progress.received), total: megabytes(progress.total) });
    }
  }

  // Instant navigation brings in each page's own footer: the block is placed again in each.
  function place() {
    const foot = document.querySelector(".md-footer-meta__inner") || document.querySelector("footer") || document.body;
    if (!foot || foot.querySelector(".lk-offline")) return;
    const choice = h("input", { type: "checkbox" });
    choice.addEventListener("change", () => (choice.checked ? turnOn() : turnOff()));
    shown = {
      status: h("p", { class: "lk-offline-status", role: "status" }),
      amount: h("span", { class: "lk-offline-amount" }),
      bar: h("progress", { class: "lk-offline-progress", "aria-label": WORDS.offline_progress_label }),
      choice,
    };
    foot.append(
      h("div", { class: "lk-offline" }, h("label", { class: "lk-offline-choice" }, choice, " ", WORDS.offline_choice), shown.status, h("span", {}, shown.bar, " ", shown.amount)),
    );
    render();
  }

  if (known.problem) {
    onEveryPage(place);
    return;
  }
  const container = /** @type {ServiceWorkerContainer} */ (workers);

  container.addEventListener("message", (event) => {
    const data = /** @type {CourseState | null} */ (event.data);
    if (!data || data.kind !== "course") return;
    const settle = (/** @type {ServiceWorkerRegistration | undefined} */ registration) => {
      // The version in use is the active worker's; any other (one being kept, one that failed, or
      // `mkdocs serve`'s, which keeps nothing even once active) is what comes next.
      const inUse = registration !== undefined && event.source === registration.active && data.state !== "serving";
      if (!inUse) known.next = data;
      else {
        known.current = data;
        if (known.next && known.next.version === data.version) known.next = null;
      }
      render();
    };
    container.getRegistration(scope).then(settle, () => settle(undefined));
  });

  /**
   * Ask each worker of the course's registration where it stands (each answers with a message), and
   * read why the last build that could not be kept failed: its worker is gone, and said so before
   * this page listened.
   */
  async function ask() {
    const registration = await container.getRegistration(scope);
    for (const one of registration ? [registration.active, registration.waiting, registration.installing] : []) {
      if (one) one.postMessage({ kind: "status" });
    }
    const failed = await (await caches.open(FAILURE)).match(FAILURE_URL);
    if (failed && !known.next && known.choice !== "off") {
      known.next = /** @type {CourseState} */ (await failed.json());
      render();
    }
  }

  async function register() {
    known.waitingForEngine = false;
    try {
      const registration = await container.register(worker, { scope, updateViaCache: "none" });
      if (!registration) known.problem = fill(WORDS.offline_failed, { reason: WORDS.offline_not_registered });
    } catch (error) {
      known.problem = /SecurityError/.test(describe(error)) ? WORDS.offline_storage_off : fill(WORDS.offline_failed, { reason: describe(error) });
    }
    render();
    await ask();
  }

  async function turnOn() {
    known.choice = "on";
    known.cleared = false;
    storage.write(CHOICE_KEY, "on");
    render();
    await register();
  }

  async function turnOff() {
    known.choice = "off";
    storage.write(CHOICE_KEY, "off");
    try {
      for (const registration of await container.getRegistrations()) {
        if (registration.scope === scope) await registration.unregister();
      }
      const kept = (await caches.keys()).filter((name) => name.startsWith(PREFIX) || name === FAILURE);
      await Promise.all(kept.map((name) => caches.delete(name)));
      known.cleared = kept.length > 0;
    } catch (error) {
      known.problem = fill(WORDS.offline_failed, { reason: describe(error) });
    }
    known.current = known.next = null;
    render();
  }

  /** Once this page's engine has started (or failed, or the page has none): then the course is kept. */
  function afterTheEngine() {
    return new Promise((resolve) => {
      const loaded = () => {
        // "held": the connection saves data and the reader, who asked for the course, has not asked for the engine.
        if (["idle", "held", "ready", "failed"].includes(engine.state)) return resolve(undefined);
        const stop = engine.subscribe(() => {
          if (engine.state !== "ready" && engine.state !== "failed") return;
          queueMicrotask(() => stop());
          resolve(undefined);
        });
      };
      if (document.readyState === "complete") loaded();
      else window.addEventListener("load", loaded, { once: true });
    });
  }

  onEveryPage(() => {
    place();
    ask().catch(() => null);
  });
  if (known.choice === "off" || (known.choice === null && known.savesData)) return;
  known.waitingForEngine = true;
  render();
  afterTheEngine().then(register);
}
