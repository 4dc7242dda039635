"""A panel: the declarative side of a lesson's live experiment, and its one validation point.

A lesson declares its controls, its timeline and its wording as data, and a `draw` function from
checked parameters to a `View`. The browser shell (generic JavaScript in overrides/) builds native
controls from `Panel.spec()`, so a new lesson needs no new JavaScript; the build renders the same
view into the page so it reads with JavaScript off; the worker answers `Panel.view()`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from lessonkit import checks
from lessonkit.checks import MISSING, Refused, json_spelling
from lessonkit.panel.controls import PARAMETER_KINDS, Choice, Control, Text, Toggle, called
from lessonkit.panel.reading import Reading
from lessonkit.panel.timeline import Playback, Timeline
from lessonkit.tokens.encodings import DEFAULT as REAL_TOKENS_ENCODING

Params = Mapping[str, Any]


@dataclass(frozen=True)
class View:
    """Everything the page shows for one set of parameters.

    `status` is the sentence for the role="status" region, `html` the body under it (built with
    lessonkit.panel.html, so escaped by construction), `baseline` the short text a reader can
    capture to compare, `state` the exact state as data, `export` what the export button
    downloads, and `refusal` the exact words of a setting the lesson refuses (shown in a
    role="alert" region), or None.
    """

    status: str
    html: str
    baseline: str
    state: Mapping[str, Any]
    export: Mapping[str, Any]
    refusal: str | None = None

    def to_json(self, *, export: bool = True) -> dict[str, Any]:
        """The view as data for `json.dumps`; without its export when `export` is False (what a
        page shows needs none of it, and on some lessons it is most of a view's weight). Its state
        and export are the view's own, not copies: `dataclasses.asdict` deep-copied them, which
        cost more than drawing a large export."""
        return {each.name: getattr(self, each.name) for each in fields(self) if export or each.name != "export"}


@dataclass(frozen=True)
class Words:
    """Every word the shell shows around a panel, with the playback's in `Playback`. A lesson
    overrides what it words differently. The shell fills each `{placeholder}` a field's comment
    names; a `{reason}` or `{problem}` is quoted as it came (the browser's error, Python's refusal).
    Words about the page rather than a panel (its runnable samples, say) are the site's, in the
    shell's overrides/assets/lessonkit/words.js."""

    # The panel's name as a region of the page, which screen readers list: {title} is the panel's.
    region: str = "Experiment: {title}"
    capture: str = "Capture baseline"
    replace: str = "Replace baseline"
    clear: str = "Clear baseline"
    baseline: str = "Baseline:"
    no_baseline: str = "none captured yet"
    # The captured baseline's settings, after its text: "(Context budget 24, Compress on, at 30 s)".
    # {time} and {unit}: the moment on the timeline, in the unit its clock shows.
    baseline_at: str = "at {time} {unit}"
    setting_on: str = "on"
    setting_off: str = "off"
    # A saved baseline that cannot be used. {key}: where it is kept; {set_aside}: where capturing or
    # clearing first copies it; {export_notes}: the notes' export button, which includes it.
    baseline_unreadable: str = (
        'The saved baseline for this lesson could not be read: {problem}. Its text is kept as it was (key "{key}"), '
        'and {export_notes} includes it; capturing or clearing a baseline first copies it to a "{set_aside}" key.'
    )
    baseline_not_a_record: str = "it is JSON but not a baseline record (no text)"
    baselines_unavailable: str = "Baselines can't be read in this browser: {problem}."
    baseline_misfit: str = (
        "The saved baseline's settings no longer fit this experiment ({problem}); its text is kept but its run is not drawn."
    )
    baseline_not_saved: str = "The baseline could not be saved in this browser: {problem}."
    baseline_not_removed: str = "The baseline could not be removed in this browser: {problem}."
    # Said after baseline_not_saved or baseline_not_removed when an unreadable one was copied aside first ({key}).
    baseline_set_aside: str = 'The unreadable one was kept under "{key}".'
    baseline_set_aside_then_saved: str = 'The unreadable baseline was kept under "{key}" before it was saved.'
    baseline_set_aside_then_cleared: str = 'The unreadable baseline was kept under "{key}" before it was cleared.'
    now: str = "Now:"
    export: str = "Export results JSON"
    export_file: str = "results.json"
    # {file}: export_file.
    export_waiting: str = "{file} downloads as soon as the Python engine has computed these settings."
    export_failed: str = "{file} could not be exported: {reason}"
    notes: str = "Notes"
    export_notes: str = "Export notes"
    # {lesson}: the lesson's id.
    notes_file: str = "{lesson}-notes.json"
    # The notes or a `Text` field the browser will not keep: {label} is the field's label, {field}
    # the same with its first letter in lower case ("Your notes").
    text_unreadable: str = "Your {field} can't be kept in this browser: {problem}. Use {export_notes} to keep them."
    text_not_saved: str = "Your {field} could not be saved in this browser: {problem}. Use {export_notes} to keep them."
    # A text field the lesson no longer has (its exercises ask instead): {fields} names them as the
    # storage does ("prediction"); what the reader wrote there stays, and is exported.
    text_retired: str = (
        "What you wrote in {fields} on an earlier visit is still kept in this browser, though the lesson"
        " no longer asks for it here; {export_notes} includes it."
    )
    # Under a `Number` field given a value out of range: its {label}, what is {allowed}, and the value {kept}.
    number_refused: str = "{label} must be {allowed}; the experiment keeps {kept}."
    expand: str = "Expand experiment"
    exit_expanded: str = "Exit full screen"
    copy_link: str = "Copy link to this experiment"
    link_copied: str = "The link to this experiment is copied: {url}"
    link_not_copied: str = "Copy this link to share the experiment as it is now: {url}"
    link_refused: str = "The link's settings were not used ({reason}); the experiment starts from its defaults."
    # While the engine boots: first its files arrive, then Python starts. The note is a live region,
    # so it says what already works and changes only with the stage; the bar beside it counts the bytes.
    engine_downloading: str = (
        "Downloading the Python engine… Meanwhile the lesson reads as it is, and the views the build computed answer your changes."
    )
    engine_downloading_pending: str = "Downloading the Python engine… The view updates when it is ready."
    engine_starting: str = "Starting the Python engine…"
    engine_starting_pending: str = "Starting the Python engine… The view updates when it is ready."
    # The bar's name, and its amount: {received} and {total} in megabytes, one decimal.
    engine_progress_label: str = "Python engine downloaded"
    engine_progress: str = "{received} of {total} MB"
    engine_failed: str = (
        "The Python engine could not start: {reason}. The experiment keeps showing the last computed view, and its controls "
        "wait for the engine: retry, or reload the page."
    )
    retry: str = "Retry starting the engine"
    # A connection that asks to save data: the engine is not downloaded until the reader asks for it.
    engine_held: str = (
        "Your connection asks to save data, so this page has not downloaded the Python engine. "
        "The views the build computed still answer; start the engine to try any other setting."
    )
    engine_held_pending: str = (
        "This setting needs the Python engine, which this page has not downloaded because your connection asks to save data. "
        "Start the engine to see its view."
    )
    start_engine: str = "Start the Python engine"
    view_failed: str = "This view could not be computed: {reason}"
    # Which engine answered: findable under the status, but not a live region, so a screen reader
    # does not announce it on every change.
    answered_by_build: str = "Answered from the views the build computed with this lesson's engine, while Python starts in your browser."
    answered_by_build_ready: str = (
        "Answered from the views the build computed with this lesson's engine; the same engine runs in your browser ({engine})."
    )
    answered_by_build_held: str = "Answered from the views the build computed with this lesson's engine; Python is not downloaded here yet."
    answered_by_build_failed: str = (
        "Answered from the views the build computed with this lesson's engine; Python could not start in your browser."
    )
    answered_live: str = "Answered by this lesson's Python engine, running in your browser ({engine})."
    # The {engine} above: before it has said which it is, then its {version} and how it started
    # ({start}: the worker's own account, such as "restored from the build's snapshot").
    engine_unnamed: str = "Pyodide"
    engine_named: str = "Pyodide {version}, {start}"
    # Shown by the one classic script (unstarted.js) when the shell's modules never ran.
    shell_missing: str = (
        "This experiment's script could not be loaded, so its controls cannot start. What is shown is its starting "
        "state, computed when the site was built. Reload the page to try again."
    )
    shell_missing_file: str = (
        "This page was opened from a file, and browsers do not run an experiment's scripts from files. What is shown is "
        "its starting state, computed when the site was built. To use the experiment, serve the site's folder over HTTP "
        "(for example, run python3 -m http.server in it) and open the page from there."
    )
    static_note: str = (
        "This is the experiment's starting state, computed when the site was built. Its controls appear when JavaScript runs."
    )
    # Real tokens, on request: a toggle button, and a live line under the status while it is pressed.
    # {encoding}: the encoding counted in ("o200k_base"); {megabytes}: its ranks' download, one decimal;
    # {what}, {tokens}, {teaching} and {unit}: the panel's Reading, its real count, and its own measure
    # of the same texts; {untexted}: the Reading's sentence on what it weighs without text, or nothing.
    real_tokens: str = "Count in real tokens"
    real_tokens_waiting: str = "Real tokens are counted by the Python engine, which is starting; the count follows."
    real_tokens_loading: str = "Loading the {encoding} ranks ({megabytes} MB), once for this visit; the experiment answers meanwhile."
    real_tokens_counting: str = "Counting in {encoding}…"
    real_tokens_count: str = (
        "In real tokens, {what}: {tokens} {encoding} tokens, counted one text at a time (no chat format around them) "
        "by lessonkit.tokens in your browser. "
        "The lesson's model weighs what it reads here at {teaching} {unit}, and decides by those.{untexted}"
    )
    real_tokens_failed: str = "Real tokens could not be counted: {reason}"


@dataclass(frozen=True)
class Panel:
    """One lesson's experiment. `lesson` is the lesson's id: it names the page, the storage keys
    and the exports. `former_ids` are ids it was once known by, so a reader's saved notes follow it.

    `draw(params, baseline)` receives checked parameters, and the checked parameters of the
    reader's captured baseline (or None), so a view can draw the baseline's run beside its own.
    """

    lesson: str
    title: str
    controls: tuple[Control, ...]
    draw: Callable[[Params, Params | None], View] = field(compare=False)
    timeline: Timeline | None = None
    playback: Playback | None = None
    words: Words = Words()
    stylesheet: str | None = None
    former_ids: tuple[str, ...] = ()
    # What its model reads at a setting, for a count in real tokens (lessonkit.panel.reading); None
    # for a panel whose model reads no text (the platform's own demonstration).
    reads: Callable[[Params], Reading] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        names = [control.name for control in self.controls] + ([self.timeline.name] if self.timeline else [])
        if len(set(names)) != len(names):
            raise ValueError(f"panel '{self.lesson}': two controls share a name in {names}")
        if self.timeline and not self.playback:
            raise ValueError(f"panel '{self.lesson}': a timeline needs the wording of its playback")
        for control in self.controls:
            for target in getattr(control, "enables", ()):
                if target not in names:
                    raise ValueError(f"panel '{self.lesson}': toggle '{control.name}' enables '{target}', which is not a control")

    @property
    def parameters(self) -> dict[str, Any]:
        """Every parameter the view takes, by name: the controls that are not the reader's own text, and the timeline."""
        found: dict[str, Any] = {control.name: control for control in self.controls if isinstance(control, PARAMETER_KINDS)}
        if self.timeline:
            found[self.timeline.name] = self.timeline
        return found

    def defaults(self) -> dict[str, Any]:
        params = {name: getattr(control, "default", 0) for name, control in self.parameters.items() if control is not self.timeline}
        if self.timeline:
            params[self.timeline.name] = 0
        return params

    def check(self, params: Any) -> dict[str, Any]:
        """The one place parameters are validated, wherever they came from (controls, a link, storage).

        Every problem is found, not only the first, and said once: a link that repeats one bad
        name five thousand times is refused in one sentence (see lessonkit.checks.together).
        """
        parameters = self.parameters
        names = ", ".join(parameters)
        if not isinstance(params, Mapping):
            raise Refused(
                "parameters",
                params,
                f"an object of name and value, with the names {names}",
                called="parameters",
                problem=f"are {json_spelling(params)}",
            )
        problems = [
            Refused(str(name), params[name], names, called=called(str(name)), problem="is not one of this experiment's")
            for name in params
            if name not in parameters
        ]
        checked = {}
        for name, control in parameters.items():
            try:
                checked[name] = control.check(params.get(name, MISSING))
            except Refused as refused:
                problems.append(refused)
        refused = checks.together(problems)
        if refused:
            raise refused
        return checked

    @property
    def finite(self) -> bool:
        """True when a reader can only ever ask for a fixed set of views: choices, toggles and the
        timeline's marks (the shell asks for the latest mark, never a moment between two)."""
        return all(isinstance(control, (Choice, Toggle)) for control in self.controls if isinstance(control, PARAMETER_KINDS))

    def every_params(self) -> Iterator[dict[str, Any]]:
        """Every set of parameters a reader can reach, when the panel is `finite`."""
        if not self.finite:
            raise ValueError(f"panel '{self.lesson}' has numbers or ranges: its settings are not a finite set")
        names, values = [], []
        for name, control in self.parameters.items():
            names.append(name)
            if isinstance(control, Choice):
                values.append([option.value for option in control.options])
            elif isinstance(control, Toggle):
                values.append([False, True])
            else:  # the timeline
                values.append([0, *(mark.at for mark in control.marks if mark.at != 0)])
        for combination in itertools.product(*values):
            yield dict(zip(names, combination, strict=True))

    @property
    def precomputed(self) -> str:
        """Where the build writes this panel's precomputed views, relative to the shell's assets:
        every view when the panel is `finite`, otherwise those of a reader's first change
        (lessonkit.authoring.precompute)."""
        return f"views/{self.lesson}.json.gz"

    def view(self, params: Any, baseline: Any = None) -> View:
        return self.draw(self.check(params), None if baseline is None else self.check(baseline))

    def reading(self, params: Any) -> Reading:
        """What the model reads at `params`, checked as every view's are, for a count in real tokens.

        Raises:
            lessonkit.checks.Refused: `params` are not this panel's, said as `view` says it.
            ValueError: The panel's model reads no text.
        """
        if self.reads is None:
            raise ValueError(f"the panel '{self.lesson}' shows no text a model reads, so it has nothing to count in real tokens")
        return self.reads(self.check(params))

    def spec(self) -> dict[str, Any]:
        """The JSON the browser shell builds its controls from."""
        return {
            "lesson": self.lesson,
            "title": self.title,
            "controls": [{**asdict(control), "kind": control.kind} for control in self.controls],
            "timeline": asdict(self.timeline) if self.timeline else None,
            "playback": asdict(self.playback) if self.playback else None,
            "words": asdict(self.words),
            "former_ids": list(self.former_ids),
            "defaults": self.defaults(),
            "precomputed": self.precomputed,
            "text_fields": [control.name for control in self.controls if isinstance(control, Text)],
            # The encoding a reader's count uses, or None where there is nothing to count.
            "real_tokens": {"encoding": REAL_TOKENS_ENCODING} if self.reads else None,
        }
