// @ts-check
// The playback clock. The shell owns time; Python only ever sees the mark a moment falls on, so a
// minute of playback costs as many engine calls as there are marks, not one per frame. Pure apart
// from the frame scheduler and the time source, which are injected so node --test can drive it.

const EPSILON = 1e-9;

/**
 * The frame scheduler the clock runs on: the browser's animation frames, or a test's own.
 * @typedef {object} Frames
 * @property {(callback: (now: number) => void) => number} request
 * @property {(handle: number) => void} cancel
 */

/** @typedef {"start" | "playing" | "paused" | "ended"} Phase */

/**
 * The latest mark at or before `time`, or 0 before the first: views only change at marks.
 * @param {number[]} marks
 * @param {number} time
 */
export function latestMark(marks, time) {
  let found = 0;
  for (const mark of marks) if (mark <= time + EPSILON) found = Math.max(found, mark);
  return found;
}

/**
 * The first mark after `time`, or `end` when none is left.
 * @param {number[]} marks
 * @param {number} time
 * @param {number} end
 */
export function nextMark(marks, time, end) {
  const later = marks.filter((mark) => mark > time + EPSILON);
  return later.length ? Math.min(...later) : end;
}

// Longest step one frame may take: a tab in the background gets no frames, and coming back should
// continue playback where it was rather than leap ahead by the time spent away.
const MAX_FRAME_SECONDS = 0.25;

/** @type {Frames} */
const browserFrames = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

export class Clock {
  /**
   * `onChange(clock)` is called whenever time or the phase changes.
   *
   * Stepping mode is for readers who ask for reduced motion (prefers-reduced-motion: reduce): there
   * is no automatic playback at all; play() moves to the next mark and stays paused, so nothing
   * on the page changes unless the reader asks for it.
   * @param {object} options
   * @param {number} options.end
   * @param {number[]} options.marks
   * @param {number} [options.speed]
   * @param {boolean} [options.stepping]
   * @param {(clock: Clock) => void} [options.onChange]
   * @param {Frames} [options.frames]
   * @param {() => number} [options.now]
   */
  constructor({ end, marks, speed = 1, stepping = false, onChange = () => {}, frames = browserFrames, now = () => performance.now() }) {
    this.end = end;
    this.marks = [...marks].sort((a, b) => a - b);
    this.speed = speed;
    this.stepping = stepping;
    this.onChange = onChange;
    this.frames = frames;
    this.now = now;
    this.time = 0;
    this.playing = false;
    /** @type {number | null} */
    this.frame = null;
    /** @type {number | null} */
    this.lastFrame = null;
  }

  /**
   * "start" (at 0), "playing", "paused" (mid-way) or "ended" (at the end).
   * @returns {Phase}
   */
  get phase() {
    if (this.playing) return "playing";
    if (this.time <= EPSILON) return "start";
    if (this.time >= this.end - EPSILON) return "ended";
    return "paused";
  }

  play() {
    if (this.time >= this.end - EPSILON) this.time = 0; // Replay starts over from the beginning
    if (this.stepping) {
      this.time = nextMark(this.marks, this.time, this.end);
      this.#emit();
      return;
    }
    this.playing = true;
    this.lastFrame = null;
    this.frame = this.frames.request((now) => this.#tick(now));
    this.#emit();
  }

  /** Stop where the clock is, counting the time elapsed since the last frame. */
  pause() {
    this.#settle();
    this.#halt();
    this.#emit();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  /** Pause at the next mark (the next stage, the next arrival). */
  next() {
    this.#settle();
    this.#halt();
    this.time = nextMark(this.marks, this.time, this.end);
    this.#emit();
  }

  /** @param {number} time */
  seek(time) {
    this.#halt();
    this.time = Math.min(this.end, Math.max(0, time));
    this.#emit();
  }

  restart() {
    this.seek(0);
  }

  /** Stop for good without a word: the panel this clock drives has left the page, and nobody is watching. */
  stop() {
    this.#halt();
  }

  /** Only the pace changes: time elapsed so far counts at the old pace, then playback carries on. */
  /** @param {number} speed */
  setSpeed(speed) {
    this.#settle();
    this.speed = speed;
  }

  /** @param {boolean} stepping */
  setStepping(stepping) {
    this.stepping = stepping;
    if (stepping && this.playing) this.pause();
  }

  /** Add the playing time since the last frame at the current speed, so nothing is lost or counted twice. */
  #settle() {
    if (!this.playing || this.lastFrame === null) return;
    const now = this.now();
    this.#advance(now);
  }

  /** @param {number} now */
  #advance(now) {
    const elapsed = this.lastFrame === null ? 0 : Math.min(MAX_FRAME_SECONDS, Math.max(0, now - this.lastFrame) / 1000);
    this.lastFrame = now;
    this.time = Math.min(this.end, this.time + elapsed * this.speed);
  }

  #halt() {
    this.playing = false;
    if (this.frame !== null) this.frames.cancel(this.frame);
    this.frame = null;
    this.lastFrame = null;
  }

  /** @param {number} now */
  #tick(now) {
    this.frame = null;
    if (!this.playing) return;
    this.#advance(now);
    if (this.time >= this.end) this.playing = false;
    else this.frame = this.frames.request((next) => this.#tick(next));
    this.#emit();
  }

  #emit() {
    this.onChange(this);
  }
}
