// Native controls built from a panel's spec: one <select> per choice, the playback buttons, the
// timeline range and the speed. Each control's accessible name is the wording the lesson's spec
// gives it, through a real <label>, so screen readers and the browser tests find it by that name.
import { h, uniqueId } from "./dom.js";

/** Seconds as a reader says them: 30 -> "30", 7.5 -> "7.5". */
export function formatSeconds(seconds) {
  return String(Math.round(seconds * 1000) / 1000);
}

function labelled(labelText, control, className) {
  const id = uniqueId(className);
  control.id = id;
  return h("div", { class: `lk-field ${className}` }, h("label", { for: id }, labelText), control);
}

export function button(text, className, onClick) {
  const element = h("button", { type: "button", class: `lk-button ${className}` }, text);
  element.addEventListener("click", onClick);
  return element;
}

export class Controls {
  /** `on` = {choice(), primary(), restart(), seek(seconds), speed(value)} */
  constructor(spec, on) {
    this.spec = spec;
    const { timeline, playback } = spec;

    this.selects = spec.choices.map((choice) => {
      const select = h(
        "select",
        { name: choice.name },
        choice.options.map((option, index) =>
          h("option", { value: String(index), selected: option.value === choice.default }, option.label),
        ),
      );
      select.addEventListener("change", () => on.choice());
      return { choice, select };
    });

    this.primary = button(playback.play, "lk-primary", () => on.primary());
    this.restart = button(playback.restart, "lk-restart", () => on.restart());

    const marksId = uniqueId("marks");
    this.timeline = h("input", {
      type: "range",
      name: timeline.name,
      min: 0,
      max: timeline.end,
      step: timeline.step,
      value: 0,
      list: marksId,
      "aria-valuetext": "0 seconds",
    });
    this.timeline.addEventListener("input", () => on.seek(Number(this.timeline.value)));
    // Tick marks at the arrivals, drawn by the browser on the range input.
    const marks = h("datalist", { id: marksId }, timeline.marks.map((mark) => h("option", { value: mark })));
    this.clock = h("span", { class: "lk-clock", "aria-hidden": "true" });

    this.speed = h(
      "select",
      { name: "speed" },
      playback.speeds.map((speed) =>
        h("option", { value: String(speed), selected: speed === playback.default_speed }, `${formatSeconds(speed)}×`),
      ),
    );
    this.speed.addEventListener("change", () => on.speed(Number(this.speed.value)));

    this.hint = h(
      "p",
      { class: "lk-hint", hidden: true },
      `Reduced motion is on, so nothing plays by itself: ${playback.play} and ${playback.resume} ` +
        "step to the next arrival and stay paused.",
    );

    this.element = h(
      "div",
      { class: "lk-controls" },
      h("div", { class: "lk-choices" }, this.selects.map(({ choice, select }) => labelled(choice.label, select, "lk-choice"))),
      h("div", { class: "lk-playback" }, this.primary, this.restart, labelled(playback.speed, this.speed, "lk-speed")),
      h("div", { class: "lk-timeline" }, labelled(timeline.label, this.timeline, "lk-range"), this.clock, marks),
      this.hint,
    );
    this.showTime(0);
  }

  /** The reader's choices as the engine's parameters, with their typed values (24, not "24"). */
  choices() {
    return Object.fromEntries(
      this.selects.map(({ choice, select }) => [choice.name, choice.options[Number(select.value)].value]),
    );
  }

  showPhase(phase) {
    const { playback } = this.spec;
    const text = { start: playback.play, playing: playback.pause, paused: playback.resume, ended: playback.replay }[phase];
    if (this.primary.textContent !== text) this.primary.textContent = text;
  }

  /**
   * The moment the timeline shows for a clock time: the last step already reached (never rounded
   * up, so the slider can't claim an arrival the clock hasn't reached yet).
   */
  shownTime(seconds) {
    const { step, end } = this.spec.timeline;
    return Math.min(end, Math.floor(seconds / step + 1e-9) * step);
  }

  showTime(shown) {
    if (this.timeline.valueAsNumber !== shown) this.timeline.value = String(shown);
    const spoken = `${formatSeconds(shown)} seconds`;
    if (this.timeline.getAttribute("aria-valuetext") !== spoken) this.timeline.setAttribute("aria-valuetext", spoken);
    const text = `${shown.toFixed(1)} s / ${formatSeconds(this.spec.timeline.end)} s`;
    if (this.clock.textContent !== text) this.clock.textContent = text;
  }

  showStepping(stepping) {
    this.hint.hidden = !stepping;
  }
}
