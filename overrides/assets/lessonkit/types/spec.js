// @ts-check
// The panel spec as the shell receives it: `Panel.spec()` in src/lessonkit/panel/spec.py, written
// by the build into each panel's data-spec attribute. Types only, for `tsc --noEmit`: no module
// of the shell imports this file at run time, so the build's bundle of the shell never takes it
// in (shell_bundle.py).

/**
 * A parameter's value as JSON carries it: a choice's option value, a toggle's boolean, a number.
 * @typedef {string | number | boolean | null} Value
 */

/**
 * Settings by parameter name: the controls' values and, with a timeline, its moment.
 * @typedef {Record<string, Value>} Params
 */

/**
 * @typedef {object} Option
 * @property {Value} value
 * @property {string} label
 */

/**
 * A `<select>`: one of a fixed set of options (`Choice`).
 * @typedef {object} ChoiceControl
 * @property {"choice"} kind
 * @property {string} name
 * @property {string} label
 * @property {Option[]} options
 * @property {Value} default
 */

/**
 * A checkbox (`Toggle`); the controls it `enables` are disabled while it is off.
 * @typedef {object} ToggleControl
 * @property {"toggle"} kind
 * @property {string} name
 * @property {string} label
 * @property {boolean} default
 * @property {string[]} enables
 */

/**
 * A number field or a slider (`Number`, `Range`): a value on a step grid, in range.
 * @typedef {object} QuantityControl
 * @property {"number" | "range"} kind
 * @property {string} name
 * @property {string} label
 * @property {number} minimum
 * @property {number} maximum
 * @property {number} default
 * @property {number} step
 * @property {string} unit
 */

/**
 * The reader's own words (`Text`): kept with the notes, never a parameter of the view.
 * @typedef {object} TextControl
 * @property {"text"} kind
 * @property {string} name
 * @property {string} label
 * @property {string} hint
 */

/** @typedef {ChoiceControl | ToggleControl | QuantityControl | TextControl} Control */

/** @typedef {ChoiceControl | ToggleControl | QuantityControl} ParameterControl */

/**
 * @typedef {object} Mark
 * @property {number} at
 * @property {string} name  spoken and shown in the clock
 * @property {string} tick  the short label under the slider ("" to use the name)
 */

/**
 * @typedef {object} Timeline
 * @property {number} end
 * @property {number} step
 * @property {Mark[]} marks
 * @property {string} start  names the moment before the first mark
 * @property {string} name
 * @property {string} label
 * @property {string} unit  what it counts, spoken ("seconds", "model requests")
 * @property {string} unit_one  the same for exactly one ("second")
 * @property {string} clock_unit  as the clock beside it shows it ("s")
 * @property {number} clock_decimals  the clock's places after the point
 */

/**
 * The timeline as one more parameter: what `parameterControls` lists after the controls.
 * @typedef {Timeline & {kind: "time"}} TimeControl
 */

/**
 * @typedef {object} Speed
 * @property {number} value
 * @property {string} label
 */

/**
 * The playback controls' words and how the clock behaves when settings change (`Playback`).
 * @typedef {object} Playback
 * @property {string} play
 * @property {string} pause
 * @property {string} resume
 * @property {string} restart
 * @property {string} replay
 * @property {string | null} next  labels a button that pauses at the next mark; null: no such button
 * @property {string} speed
 * @property {Speed[]} speeds
 * @property {number} default_speed
 * @property {boolean} play_on_change
 * @property {string} stepping_hint
 */

/**
 * Every word the shell shows around a panel (`Words`); its `{placeholders}` are filled by the shell
 * (dom.js `fill`), as the Python class's comments say. The page's own words are in words.js.
 * @typedef {object} Words
 * @property {string} region
 * @property {string} capture
 * @property {string} replace
 * @property {string} clear
 * @property {string} baseline
 * @property {string} no_baseline
 * @property {string} baseline_at
 * @property {string} setting_on
 * @property {string} setting_off
 * @property {string} baseline_unreadable
 * @property {string} baseline_not_a_record
 * @property {string} baselines_unavailable
 * @property {string} baseline_misfit
 * @property {string} baseline_not_saved
 * @property {string} baseline_not_removed
 * @property {string} baseline_set_aside
 * @property {string} baseline_set_aside_then_saved
 * @property {string} baseline_set_aside_then_cleared
 * @property {string} now
 * @property {string} export
 * @property {string} export_file
 * @property {string} export_waiting
 * @property {string} export_failed
 * @property {string} notes
 * @property {string} export_notes
 * @property {string} notes_file
 * @property {string} text_unreadable
 * @property {string} text_retired
 * @property {string} text_not_saved
 * @property {string} number_refused
 * @property {string} expand
 * @property {string} exit_expanded
 * @property {string} copy_link
 * @property {string} link_copied
 * @property {string} link_not_copied
 * @property {string} link_refused
 * @property {string} engine_downloading
 * @property {string} engine_downloading_pending
 * @property {string} engine_starting
 * @property {string} engine_starting_pending
 * @property {string} engine_progress_label
 * @property {string} engine_progress
 * @property {string} engine_failed
 * @property {string} retry
 * @property {string} engine_held
 * @property {string} engine_held_pending
 * @property {string} start_engine
 * @property {string} view_failed
 * @property {string} answered_by_build
 * @property {string} answered_by_build_ready
 * @property {string} answered_by_build_held
 * @property {string} answered_by_build_failed
 * @property {string} answered_live
 * @property {string} engine_unnamed
 * @property {string} engine_named
 * @property {string} shell_missing
 * @property {string} shell_missing_file
 * @property {string} static_note
 * @property {string} real_tokens
 * @property {string} real_tokens_waiting
 * @property {string} real_tokens_loading
 * @property {string} real_tokens_counting
 * @property {string} real_tokens_count
 * @property {string} real_tokens_failed
 */

/**
 * A count in real tokens, which the panel offers where its model reads text: the encoding it counts in.
 * @typedef {object} RealTokensOffer
 * @property {string} encoding
 */

/**
 * @typedef {object} PanelSpec
 * @property {string} lesson
 * @property {string} title
 * @property {Control[]} controls
 * @property {Timeline | null} timeline
 * @property {Playback | null} playback  present whenever the timeline is
 * @property {Words} words
 * @property {string[]} former_ids
 * @property {Params} defaults
 * @property {string | null} precomputed  the build's table of views, relative to the shell's assets
 * @property {string[]} text_fields
 * @property {RealTokensOffer | null} real_tokens  null where the panel's model reads no text
 */

/**
 * One view of the experiment (`View.to_json`): `export` only when it was asked for.
 * @typedef {object} View
 * @property {string} status
 * @property {string} html
 * @property {string} baseline
 * @property {Record<string, unknown>} state
 * @property {unknown} [export]
 * @property {string | null} [refusal]
 */

export {};
