// @ts-check
// A panel's parameters as the shell handles them: typed values checked against the spec, a stable
// key for caching views, and the text form they take in a shareable link. Pure functions: no DOM,
// so node --test checks them directly. The Python Panel remains the authority (it checks every
// request again); this module lets the shell refuse a bad link or stale saved settings before the
// engine has even started, with the same wording as lessonkit.checks: parameter 'budget' is 30;
// allowed: 24, 36. tests/refusals.json holds both to the same words.

// As lessonkit.checks: a name or value longer than LONGEST characters is cut, and a refusal says
// each distinct problem once, the first MOST_SAID of them, then how many more.
/** @typedef {import("./types/spec.js").PanelSpec} PanelSpec */
/** @typedef {import("./types/spec.js").Params} Params */
/** @typedef {import("./types/spec.js").Value} Value */
/** @typedef {import("./types/spec.js").ParameterControl | import("./types/spec.js").TimeControl} Parameter */
/** @typedef {{value: Value, problem?: undefined} | {value?: undefined, problem: string}} Checked */

const LONGEST = 80;
const MOST_SAID = 3;

/** @param {string} text */
const cut = (text) => {
  const characters = Array.from(text); // by code point, as Python counts
  return characters.length <= LONGEST ? text : `${characters.slice(0, LONGEST).join("")}…`;
};
// NaN and the infinities have no JSON; they are spelled as Python's JSON reader writes them.
/** @param {unknown} value */
const show = (value) => cut(typeof value === "number" && !Number.isFinite(value) ? String(value) : JSON.stringify(value));
/** @param {number} number */
const format = (number) => String(Math.round(number * 1e9) / 1e9);
/** @param {string} name */
const called = (name) => `parameter '${cut(name)}'`;

/**
 * Each distinct problem once, the first MOST_SAID, then a last entry counting the rest ("and 4997 more").
 * @param {string[]} problems
 */
function saidOnce(problems) {
  const distinct = [...new Set(problems)];
  if (distinct.length <= MOST_SAID) return distinct;
  return [...distinct.slice(0, MOST_SAID), `and ${distinct.length - MOST_SAID} more`];
}

/**
 * Parameters as a stable text key: the same settings in any order give the same key.
 * @param {string} lesson
 * @param {Params} params
 * @param {Params | null} [baseline]
 */
export function paramsKey(lesson, params, baseline = null) {
  /** @param {Params | null | undefined} object */
  const sorted = (object) =>
    object === null || object === undefined
      ? null
      : Object.fromEntries(Object.keys(object).sort().map((name) => [name, object[name]]));
  return JSON.stringify([lesson, sorted(params), sorted(baseline)]);
}

/**
 * Every parameter the view takes, in order: the controls that are not the reader's text, then the timeline.
 * @param {PanelSpec} spec
 * @returns {Parameter[]}
 */
export function parameterControls(spec) {
  /** @type {Parameter[]} */
  const controls = [];
  for (const control of spec.controls) if (control.kind !== "text") controls.push(control);
  if (spec.timeline) controls.push({ ...spec.timeline, kind: "time" });
  return controls;
}

/**
 * What a parameter allows, in the words lessonkit.checks uses.
 * @param {Parameter} control
 */
export function allowed(control) {
  switch (control.kind) {
    case "choice":
      return control.options.map((option) => show(option.value)).join(", ");
    case "toggle":
      return "true, false";
    case "time":
      return `0 to ${format(control.end)} ${control.unit}`;
    default: {
      const unit = control.unit ? ` ${control.unit}` : "";
      const whole = Number.isInteger(control.minimum) && control.step === 1;
      return `${format(control.minimum)} to ${format(control.maximum)}${unit}, ${whole ? "whole numbers" : `in steps of ${format(control.step)}`}`;
    }
  }
}

/**
 * @param {Parameter} control
 * @param {unknown} value
 */
const refuse = (control, value) => `${called(control.name)} is ${show(value)}; allowed: ${allowed(control)}`;

/**
 * `{value}` or `{problem}` for one typed value. Numbers snap to their grid, as Python's check does.
 * @param {Parameter} control
 * @param {unknown} value
 * @returns {Checked}
 */
export function checkValue(control, value) {
  switch (control.kind) {
    case "choice": {
      const option = control.options.find((each) => each.value === value);
      return option ? { value: option.value } : { problem: refuse(control, value) };
    }
    case "toggle":
      return typeof value === "boolean" ? { value } : { problem: refuse(control, value) };
    case "time":
      return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= control.end
        ? { value }
        : { problem: refuse(control, value) };
    default: {
      if (typeof value !== "number" || !Number.isFinite(value)) return { problem: refuse(control, value) };
      if (value < control.minimum - 1e-9 || value > control.maximum + 1e-9) return { problem: refuse(control, value) };
      const steps = (value - control.minimum) / control.step;
      if (Math.abs(steps - Math.round(steps)) > 1e-6) return { problem: refuse(control, value) };
      return { value: Math.round((control.minimum + Math.round(steps) * control.step) * 1e10) / 1e10 };
    }
  }
}

/**
 * A whole object of typed values: its checked params, and every problem in the order the Python Panel finds them.
 * @param {PanelSpec} spec
 * @param {unknown} raw
 * @returns {{params: Params, problems: string[]}}
 */
function examine(spec, raw) {
  const controls = parameterControls(spec);
  const names = controls.map((control) => control.name);
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    return { params: {}, problems: [`parameters are ${show(raw)}; allowed: an object of name and value, with the names ${names.join(", ")}`] };
  }
  const problems = Object.keys(raw)
    .filter((name) => !names.includes(name))
    .map((name) => `${called(name)} is not one of this experiment's; allowed: ${names.join(", ")}`);
  const given = /** @type {Record<string, unknown>} */ (raw);
  /** @type {Params} */
  const params = {};
  for (const control of controls) {
    if (!(control.name in given)) {
      problems.push(`${called(control.name)} is missing; allowed: ${allowed(control)}`);
      continue;
    }
    const checked = checkValue(control, given[control.name]);
    if (checked.problem !== undefined) problems.push(checked.problem);
    else params[control.name] = checked.value;
  }
  return { params, problems };
}

/**
 * Check a whole object of typed values (saved settings): `{params}`, or `{problems}`, each said once.
 * @param {PanelSpec} spec
 * @param {unknown} raw
 * @returns {{params: Params, problems?: undefined} | {params?: undefined, problems: string[]}}
 */
export function checkParams(spec, raw) {
  const { params, problems } = examine(spec, raw);
  return problems.length ? { problems: saidOnce(problems) } : { params };
}

/**
 * A value as it reads in a link: 36, evict, true, 0.25.
 * @param {Value} value
 */
function toText(value) {
  return typeof value === "string" ? value : String(value);
}

/**
 * The text of a link back into a typed value for `control` (a choice matches its options' text).
 * @param {Parameter} control
 * @param {string} text
 * @returns {Value}
 */
function fromText(control, text) {
  if (control.kind === "choice") {
    const option = control.options.find((each) => toText(each.value) === text);
    return option ? option.value : text;
  }
  if (control.kind === "toggle") return text === "true" ? true : text === "false" ? false : text;
  // Only a decimal reads as a number, as encodeState writes it: JavaScript's Number() would also
  // take "0x10", "0b11" or " 36 ", which no link of ours holds and the reader never typed as such.
  // Kept as the text it was, anything else (Infinity too) is refused as the link wrote it.
  return DECIMAL.test(text) ? Number(text) : text;
}

const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * The settings as a link's fragment: "budget=36&policy=evict&time=60".
 * @param {PanelSpec} spec
 * @param {Params} params
 */
export function encodeState(spec, params) {
  const query = new URLSearchParams();
  for (const control of parameterControls(spec)) {
    if (control.name in params) query.set(control.name, toText(params[control.name]));
  }
  return query.toString();
}

/**
 * True when a fragment looks like experiment settings rather than a heading's anchor.
 * @param {string} fragment
 */
export function isState(fragment) {
  return fragment.includes("=");
}

/**
 * A link's fragment, as the address holds it, back into settings. Every parameter missing from the
 * link takes its default; `{params}` when everything in it can be used, otherwise `{problems}`
 * naming each parameter, each problem once however often the link repeats it.
 *
 * The fragment is percent-decoded here, once, by URLSearchParams: decoded twice, "%2526" would
 * read as "&", and a lone "%" would throw instead of being refused.
 * @param {PanelSpec} spec
 * @param {string} fragment
 * @returns {{params: Params, problems?: undefined} | {params?: undefined, problems: string[]}}
 */
export function decodeState(spec, fragment) {
  const query = new URLSearchParams(fragment.replace(/^#/, ""));
  /** @type {Params} */
  const raw = { ...spec.defaults };
  const controls = parameterControls(spec);
  const names = controls.map((control) => control.name);
  /** @type {string[]} */
  const problems = [];
  const read = new Set();
  for (const [name, text] of query) {
    if (read.has(name)) continue;
    read.add(name);
    if (!names.includes(name)) {
      problems.push(`${called(name)} is not one of this experiment's; allowed: ${names.join(", ")}`);
      continue;
    }
    // A name given twice ("budget=24&budget=36") has no one value to take: which the reader meant
    // is not ours to guess, so it is refused rather than the last one silently winning. Said once,
    // with its first few distinct values, however often the link repeats it.
    const given = query.getAll(name);
    if (given.length > 1) {
      const values = saidOnce(given.map((each) => show(each))).join(", ");
      problems.push(`${called(name)} is given ${given.length} times (${values}); allowed: once`);
      continue;
    }
    raw[name] = fromText(/** @type {Parameter} */ (controls.find((control) => control.name === name)), text);
  }
  const checked = examine(spec, raw);
  problems.push(...checked.problems);
  return problems.length ? { problems: saidOnce(problems) } : { params: checked.params };
}
