// @ts-check
// The timeline and the playback buttons, worded by the spec. Marks carry names: the clock, the
// slider's aria-valuetext and the ticks under it all say where the reader is ("30 seconds, T4
// arrived"; "Stage 2 of 4: scope filters"), so moving through an experiment reads as well as it looks.
import { button, formatNumber, labelled } from "./controls.js";
import { h, uniqueId } from "./dom.js";

/** @typedef {import("./types/spec.js").Timeline} Timeline */
/** @typedef {import("./types/spec.js").Playback} Playback */
/** @typedef {import("./types/spec.js").Mark} Mark */
/** @typedef {import("./playback.js").Phase} Phase */

const EPSILON = 1e-9;

/**
 * The mark a moment falls on (the latest at or before it), or null before the first.
 * @param {Timeline} timeline
 * @param {number} time
 * @returns {Mark | null}
 */
export function markAt(timeline, time) {
  let found = null;
  for (const mark of timeline.marks) if (mark.at <= time + EPSILON && (!found || mark.at > found.at)) found = mark;
  return found;
}

/**
 * How a moment is spoken, in the timeline's unit: "30 seconds, T4 arrived", "1 model request, Request 1 of 24, turn 1".
 * @param {Timeline} timeline
 * @param {number} time
 */
export function describeMoment(timeline, time) {
  const mark = markAt(timeline, time);
  return `${formatNumber(time)} ${time === 1 ? timeline.unit_one : timeline.unit}, ${mark ? mark.name : timeline.start}`;
}

export class TimelineControls {
  /**
   * @param {Timeline} timeline
   * @param {Playback} playback
   * @param {{primary: () => void, restart: () => void, next: () => void, seek: (seconds: number) => void, speed: (value: number) => void}} on
   */
  constructor(timeline, playback, on) {
    this.timeline = timeline;
    this.playback = playback;

    this.primary = button(playback.play, "lk-primary", () => on.primary());
    this.restart = button(playback.restart, "lk-restart", () => on.restart());
    this.next = playback.next ? button(playback.next, "lk-next", () => on.next()) : null;

    const marksId = uniqueId("marks");
    this.slider = h("input", {
      type: "range",
      name: timeline.name,
      min: 0,
      max: timeline.end,
      step: timeline.step,
      value: 0,
      list: marksId,
    });
    this.slider.addEventListener("input", () => on.seek(Number(this.slider.value)));
    const datalist = h("datalist", { id: marksId }, timeline.marks.map((mark) => h("option", { value: mark.at, label: mark.tick || mark.name })));
    // Visible tick labels under the slider, placed through the CSSOM (no inline style attribute, so
    // a strict Content-Security-Policy has nothing to refuse).
    this.ticks = h(
      "div",
      { class: "lk-ticks", "aria-hidden": "true" },
      timeline.marks.map((mark) => {
        const tick = h("span", { class: "lk-tick" }, mark.tick || mark.name);
        tick.style.left = `${(mark.at / timeline.end) * 100}%`;
        return tick;
      }),
    );
    this.clock = h("span", { class: "lk-clock", "aria-hidden": "true" });

    this.speed = h(
      "select",
      { name: "speed" },
      playback.speeds.map((speed) => h("option", { value: String(speed.value), selected: speed.value === playback.default_speed }, speed.label)),
    );
    this.speed.addEventListener("change", () => on.speed(Number(this.speed.value)));

    this.hint = h("p", { class: "lk-hint", hidden: true }, playback.stepping_hint);

    this.element = h(
      "div",
      { class: "lk-time-controls" },
      h("div", { class: "lk-playback" }, this.primary, this.next, this.restart, labelled(playback.speed, this.speed, "lk-speed")),
      h(
        "div",
        { class: "lk-timeline" },
        h("div", { class: "lk-slider" }, labelled(timeline.label, this.slider, "lk-range"), this.ticks, datalist),
        this.clock,
      ),
      this.hint,
    );
    this.showTime(0);
  }

  /** @param {Phase} phase */
  showPhase(phase) {
    const { playback } = this;
    const text = { start: playback.play, playing: playback.pause, paused: playback.resume, ended: playback.replay }[phase];
    if (this.primary.textContent !== text) this.primary.textContent = text;
  }

  /**
   * The moment the timeline shows for a clock time: the last step already reached (never rounded
   * up, so the slider can't claim a mark the clock hasn't reached yet).
   * @param {number} seconds
   */
  shownTime(seconds) {
    const { step, end } = this.timeline;
    return Math.min(end, Math.floor(seconds / step + 1e-9) * step);
  }

  /** @param {number} shown */
  showTime(shown) {
    if (this.slider.valueAsNumber !== shown) this.slider.value = String(shown);
    const spoken = describeMoment(this.timeline, shown);
    if (this.slider.getAttribute("aria-valuetext") !== spoken) this.slider.setAttribute("aria-valuetext", spoken);
    const mark = markAt(this.timeline, shown);
    const { clock_unit: unit, clock_decimals: decimals, end, start } = this.timeline;
    const text = `${shown.toFixed(decimals)} ${unit} / ${formatNumber(end)} ${unit} · ${mark ? mark.name : start}`;
    if (this.clock.textContent !== text) this.clock.textContent = text;
  }

  /** @param {boolean} stepping */
  showStepping(stepping) {
    this.hint.hidden = !stepping;
  }

  /** Moving through time needs the engine's views: held (disabled) while it is down. */
  /** @param {boolean} held */
  hold(held) {
    for (const control of [this.primary, this.restart, this.next, this.slider, this.speed]) if (control) control.disabled = held;
  }
}
