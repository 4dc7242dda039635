// @ts-check
// The page's own words: what the shell says about things no panel owns. A panel's words come from
// its spec (`Words` and `Playback` in lessonkit.panel), so each lesson words its experiment; these
// belong to the site, whatever lessons it holds: the runnable samples, the regions that scroll
// sideways, a panel the shell could not start, the Python engine the page shares, the browser's
// storage, and the course kept for reading offline. To reword the course, change them here; every module of the shell takes its
// words from here or from the spec, and tests/js/words.test.mjs fails on a sentence written anywhere else.
//
// `{placeholders}` are filled by dom.js `fill()`. A `{reason}` or `{problem}` is quoted as it came:
// the browser's error, the worker's account of starting Pyodide, or Python's own refusal.

export const PAGE_WORDS = Object.freeze({
  // Each runnable sample, numbered in reading order: {number}.
  sample_edit: "Edit sample {number}",
  sample_run: "Run sample {number}",
  sample_reset: "Reset sample {number}",
  sample_stop: "Stop sample {number}",
  sample_code: "Code of sample {number}",
  sample_running: "Running sample {number}…",
  sample_waiting: "Waiting for the Python engine to start…",
  // {encoding}: o200k_base or cl100k_base; {megabytes}: its ranks' size on the wire, one decimal.
  sample_ranks_loading: "Sample {number} waits for the {encoding} ranks ({megabytes} MB), fetched once for real token counts…",
  sample_ran: "Sample {number} ran in your browser.",
  sample_ran_silently: "Sample {number} ran in your browser; it printed nothing.",
  // {error}: the last line of Python's traceback.
  sample_raised: "Sample {number} raised an error: {error}",
  sample_error_label: "Error",
  sample_failed: "Sample {number} could not run: {reason}.",
  sample_stopped: "sample {number} was stopped, so the Python engine restarted",
  sample_back: "Sample {number} is back to the lesson's code.",
  // {reset}: the Reset button's name (sample_reset).
  sample_edit_restored: "Your edit of sample {number} from an earlier visit is back; {reset} restores the lesson's code.",
  sample_edit_not_saved: "Your edit could not be saved in this browser ({problem}); it stays here until you leave the page.",
  // Shown beside a sample on a page without a panel (a panel shows its own Retry).
  retry: "Retry starting the engine",

  // A table, a notebook cell or a signature wider than the page becomes a named region a keyboard
  // can scroll: tables and cells numbered in reading order ({number}), a signature by the object it signs ({name}).
  scroll_table: "Table {number}, scrolls sideways",
  scroll_cell: "Notebook cell {number}, scrolls sideways",
  scroll_signature: "Signature of {name}, scrolls sideways",

  // A panel whose spec the shell could not use: its starting state stays, with this beside it.
  panel_not_started: "This experiment could not be started: {reason}",
  spec_without_playback: "the spec of {lesson} has a timeline but no playback",
  spec_unknown_control: 'the spec has a control of unknown kind "{kind}" ({name})',

  // Why the page's Python engine stopped or never started, quoted into a panel's `engine_failed`
  // and a sample's sample_failed.
  engine_not_created: "the worker could not be created ({reason})",
  engine_too_slow: "it did not finish starting within {seconds} seconds",
  engine_script_missing: "the worker script could not be loaded",
  engine_unreadable_message: "the worker sent a message the page could not read",
  engine_restarted: "the engine was restarted",
  engine_not_running: "the Python engine is not running: {reason}",
  unknown_error: "unknown error",

  // Why the browser's storage refused, quoted into the messages about notes, baselines and edits.
  storage_no_window: "this page has no window",
  storage_unavailable: "this browser offers no local storage",
  storage_not_json: "it is not valid JSON ({reason})",

  // The course kept for reading offline (offline.js), at the foot of every page. The status region
  // says each stage once; the amount beside the bar ({received} and {total} in megabytes, one
  // decimal) changes without being read out.
  offline_choice: "Keep the course for reading offline",
  offline_progress_label: "Course kept for reading offline",
  offline_amount: "{received} of {total} MB",
  offline_waiting: "The course will be kept for reading offline once this page's Python engine has started.",
  offline_filling: "Keeping the whole course in this browser for reading offline…",
  offline_kept: "The whole course ({total} MB) is kept in this browser: every page, experiment and sample works without a network.",
  offline_newer_kept: "A newer version of the course is kept; it replaces this one the next time you open the course.",
  offline_off: "The course is not kept for reading offline. Your notes and baselines are kept either way.",
  offline_cleared: "The course kept for reading offline has been deleted from this browser. Your notes and baselines are still here.",
  offline_saves_data: "Your connection asks to save data, so the course is kept for reading offline only if you ask.",
  offline_failed: "The course could not be kept for reading offline: {reason}.",
  offline_failed_kept: "A newer version of the course could not be kept ({reason}); the version kept before still works offline.",
  offline_storage_full: "there is not enough storage left in this browser for its {total} MB",
  offline_storage_off: "This browser does not let the course keep files (storage is switched off for this site), so it is not kept for reading offline.",
  offline_unsupported: "This browser cannot keep the course for reading offline: it needs service workers, which browsers offer only over https or on this machine.",
  offline_not_registered: "the browser did not register the course's service worker",
  offline_serving: "make serve shows every page as it is now, so nothing is kept for reading offline here.",

  // Exercises (exercises.js, grading.js): each is a fieldset named by its question, so its buttons
  // need no number. {feedback} is the engine's own sentence about what the reader chose, from the build.
  exercise_check: "Check",
  exercise_hint: "Hint",
  exercise_show: "Show the answer",
  exercise_try: "Try it in the experiment",
  exercise_right: "Right. {feedback}",
  exercise_not_yet: "Not yet. {feedback}",
  exercise_right_number: "Right: {value}.",
  exercise_higher: "Not yet: the engine's answer is higher than {value}.",
  exercise_lower: "Not yet: the engine's answer is lower than {value}.",
  exercise_choose_one: "Choose an answer first.",
  exercise_choose_several: "Choose one or more answers first.",
  exercise_number_missing: "Write a number first.",
  exercise_not_a_number: "“{text}” is not a number; write digits, such as 23 or 22.5.",
  // {number} of {total}: the hint just shown.
  exercise_hint_shown: "Hint {number} of {total} is shown.",
  exercise_hints_done: "That was the last hint; Show the answer gives the answer and why.",
  exercise_shown: "The answer and why are shown below.",
  exercise_tried: "The experiment now shows this exercise's settings.",
  exercise_no_panel: "The experiment on this page has not started, so it can't be set from here: {settings}.",
  // Progress, kept per lesson like notes. {answered} of {total} exercises answered right.
  exercise_progress: "{answered} of {total} answered",
  exercise_clear: "Clear my answers",
  exercise_cleared: "Your answers to this lesson's exercises are cleared.",
  exercise_not_saved: "Your answer could not be saved in this browser ({problem}); Export notes still includes it until you leave the page.",
  // Why stored answers could not be used, quoted into exercise_unreadable's {problem}.
  exercise_stored_no_answers: "it holds no answers",
  exercise_stored_wrong: "the answer to '{id}' is not one this page wrote",
  exercise_not_kept: "Your answers can't be kept in this browser ({problem}); Export notes includes them until you leave the page.",
  exercise_unreadable: "Your earlier answers to this lesson's exercises could not be read ({problem}); they are kept aside, and Export notes includes them.",
});
