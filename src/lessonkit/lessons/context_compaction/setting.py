"""The `Compaction` setting: its two triggers, and where a setting is refused (built, or started).

A manifest asks for compaction with one setting and two triggers, each a pair of fields:

- by size: ``after_tokens`` (greater than 0) says when, ``keep_recent_events`` (0 or more) how many
  of the newest raw events to leave alone;
- by turns: ``after_invocations`` (greater than 0) says when, ``overlap`` (0 or more) how many
  earlier turns each summary re-includes.

Both pairs may be set; whichever condition arrives first fires. ``None`` means a field was left
out, so ``overlap=0`` is a choice and an omitted overlap is half a pair. Refused when the setting
is built: a value out of range; half a pair, naming the field that was written; a setting with no
trigger; a summarizer that is not a dotted path. Refused when a manifest is built: compaction on a
workflow, which has no such field. Refused when the pod starts: a summarizer path that does not
import or names something that is not a summarizer; a root that is not an LLM agent, unless the
setting names its own summarizer, because the default one is built from the root agent's model.

The model stops at the setting: it does not load a real agent, and it resolves summarizer paths
with ``importlib`` against a package name the caller gives, so paths inside lessonkit resolve the
same under CPython and Pyodide. What a summarizer does to a session is in `summarizers`, and how a
setting replays a session in `session`.
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass

from lessonkit import checks
from lessonkit.checks import Refused
from lessonkit.lessons.context_compaction.summarizers import AgentModel, Summarizer

# The source's own words for half of the size pair; the turn pair is worded the same way.
SIZE_PAIR_REFUSAL = (
    "`after_tokens` and `keep_recent_events` go together: the first says when to\n"
    "compact, the second how much of the recent conversation to leave alone.\n"
    "Set both, or neither."
)
TURN_PAIR_REFUSAL = (
    "`after_invocations` and `overlap` go together: the first says when to\n"
    "compact, the second how many earlier turns each summary re-includes.\n"
    "Set both, or neither."
)
NO_TRIGGER_REFUSAL = (
    "Compaction() with no trigger would never compact while reading as though it were working.\n"
    "Set `after_tokens` with `keep_recent_events`, or `after_invocations` with `overlap`."
)
WORKFLOW_REFUSAL = (
    "a WorkflowManifest has no field `compaction`. A workflow's root is a graph, never an LLM agent, so\n"
    "there is no model to summarize with; summarize deliberately instead, with a node that writes a\n"
    "précis into session state."
)
ROOT_REFUSAL = (
    "compaction summarizes with the root agent's model, and build() returned {root}, which has none.\n"
    "Remove the `compaction` block, or return an LlmAgent from build()."
)

PAIRS = (("after_tokens", "keep_recent_events", SIZE_PAIR_REFUSAL), ("after_invocations", "overlap", TURN_PAIR_REFUSAL))
MANIFEST_KINDS = ("agent", "workflow")
# What build() may return. Only an LlmAgent has a model the default summarizer can be built from.
ROOTS = ("LlmAgent", "SequentialAgent", "ParallelAgent", "LoopAgent")
LLM_ROOT = "LlmAgent"
_DOTTED = re.compile(r"\.*[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
# The lesson's own package: a summarizer path with a leading dot, written in a setting here, is relative to it.
_PACKAGE = __name__.rpartition(".")[0]
# When each refusal happens, as the page says it.
_MOMENT_WORDS = {"build": "the manifest is built", "start": "the pod starts"}


class Refusal(Refused):
    """A compaction setting refused, saying which field and at which moment (build or start).

    One of lessonkit.checks' refusals, carrying the field as its `name` (and `field`), the value
    written and what is allowed; its message is the setting's own words when it has them, and
    otherwise the one shape: ``overlap is -1; allowed: a whole number, 0 or more, ...``.
    """

    def __init__(self, field: str, moment: str, message: str | None = None, *, value: object = None, allowed: str | None = None) -> None:
        super().__init__(field, value, allowed, message=message)
        self.moment = moment

    @property
    def field(self) -> str:
        return self.name


@dataclass(frozen=True)
class Compaction:
    """The manifest's compaction setting; every rule is checked when it is built."""

    after_tokens: int | None = None
    keep_recent_events: int | None = None
    after_invocations: int | None = None
    overlap: int | None = None
    summarizer: str = ""  # a dotted path; empty means the agent's own model

    def __post_init__(self) -> None:
        for field, least in (("after_tokens", 1), ("keep_recent_events", 0), ("after_invocations", 1), ("overlap", 0)):
            try:
                checks.whole(field, getattr(self, field), minimum=least, optional=True)
            except Refused as refused:
                raise Refusal(field, "build", value=refused.value, allowed=refused.allowed) from None
        for when, how_much, message in PAIRS:
            written = [field for field in (when, how_much) if getattr(self, field) is not None]
            if len(written) == 1:
                raise Refusal(
                    written[0],
                    "build",
                    f"Compaction sets `{written[0]}` alone.\n{message}",
                    value=getattr(self, written[0]),
                    allowed=f"`{when}` and `{how_much}` both, or neither",
                )
        if not (self.by_size or self.by_turns):
            raise Refusal(
                "compaction",
                "build",
                NO_TRIGGER_REFUSAL,
                allowed="`after_tokens` with `keep_recent_events`, or `after_invocations` with `overlap`",
            )
        if not isinstance(self.summarizer, str) or (
            self.summarizer and not (_DOTTED.fullmatch(self.summarizer) and "." in self.summarizer)
        ):
            raise Refusal(
                "summarizer",
                "build",
                value=self.summarizer,
                allowed="a dotted path such as '.summarizers.terse', or '' for the agent's own model",
            )

    @property
    def by_size(self) -> bool:
        return self.after_tokens is not None

    @property
    def by_turns(self) -> bool:
        return self.after_invocations is not None

    @property
    def own_summarizer(self) -> bool:
        return bool(self.summarizer)


@dataclass(frozen=True)
class Manifest:
    """An agent's or a workflow's manifest, reduced to what compaction touches."""

    kind: str
    package: str
    compaction: Compaction | None = None

    def __post_init__(self) -> None:
        checks.choice("kind", self.kind, MANIFEST_KINDS)
        if not isinstance(self.package, str) or not self.package:
            raise Refused("package", self.package, "a dotted name such as 'support_bot'")
        checks.instance("compaction", self.compaction, (Compaction, type(None)), "a Compaction, or None")
        if self.kind == "workflow" and self.compaction is not None:
            raise Refusal(
                "compaction",
                "build",
                f"unknown field `compaction`: {WORKFLOW_REFUSAL}",
                value=self.compaction,
                allowed="no `compaction` field in a workflow's manifest",
            )


@dataclass(frozen=True)
class Pod:
    """An agent that started: its manifest, the root build() returned, and the summarizer it compacts with."""

    manifest: Manifest
    root: str
    summarizer: Summarizer | None


def load_summarizer(path: str, package: str) -> Summarizer:
    """What a summarizer path names: a leading dot is relative to `package`; a class is built with no arguments.

    Args:
        path: A dotted path, such as ``".summarizers.Terse"``.
        package: The package a leading dot is relative to (the agent's package).

    Returns:
        The summarizer the path names.

    Raises:
        lessonkit.checks.Refused: `path` or `package` is not a non-empty string.
        lessonkit.lessons.context_compaction.Refusal: At start: the path does not import, or names something that is
            not a summarizer.

    Examples:
        >>> from lessonkit.lessons.context_compaction import load_summarizer
        >>> load_summarizer(".summarizers.Terse", "lessonkit.lessons.context_compaction").name
        'terse'
        >>> load_summarizer(".nope.Terse", "support_bot")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        lessonkit.lessons.context_compaction.setting.Refusal: summarizer '.nope.Terse' does not import from package 'support_bot': ...
    """
    checks.text("summarizer", path)
    checks.text("package", package)
    dots = len(path) - len(path.lstrip("."))
    module_path, _, attribute = path.rpartition(".")
    if len(module_path) < dots:  # ".terse": the attribute sits on the package itself
        module_path = path[:dots]
    try:
        target = getattr(importlib.import_module(module_path, package if dots else None), attribute)
    except (ImportError, AttributeError, TypeError) as error:
        raise Refusal(
            "summarizer",
            "start",
            f"summarizer {path!r} does not import from package {package!r}: {error}",
            value=path,
            allowed=f"a path that imports from package {package!r}",
        ) from None
    if isinstance(target, type) and issubclass(target, Summarizer):
        return target()
    if isinstance(target, Summarizer):
        return target
    raise Refusal(
        "summarizer",
        "start",
        f"summarizer {path!r} names {target!r}, which is not a summarizer",
        value=path,
        allowed="a path to a Summarizer, or to a class of one",
    )


def start(manifest: Manifest, root: str = LLM_ROOT) -> Pod:
    """Start a pod: resolve the summarizer, refusing a root the default summarizer cannot use.

    Args:
        manifest: The agent's manifest.
        root: What the agent's ``build()`` returns: ``"LlmAgent"`` or a workflow agent's class name.

    Returns:
        The started pod, with the summarizer it will compact with (None without compaction).

    Raises:
        lessonkit.checks.Refused: `manifest` is not a Manifest, or `root` is not a known agent class.
        lessonkit.lessons.context_compaction.Refusal: At start: the summarizer path does not resolve, or the root has
            no model for the default summarizer.

    Examples:
        >>> from lessonkit.lessons.context_compaction import Compaction, Manifest, start
        >>> manifest = Manifest("agent", "lessonkit.lessons.context_compaction", Compaction(after_invocations=4, overlap=1))
        >>> start(manifest).summarizer.name
        'model'
        >>> start(manifest, "SequentialAgent").summarizer  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        lessonkit.lessons.context_compaction.setting.Refusal: compaction summarizes with the root agent's model, ...
        Remove the `compaction` block, or return an LlmAgent from build().
    """
    checks.instance("manifest", manifest, Manifest, "a Manifest")
    checks.choice("root", root, ROOTS)
    compaction = manifest.compaction
    if compaction is None:
        return Pod(manifest, root, None)
    if compaction.own_summarizer:  # ADK never asks what the root is when it has a summarizer
        return Pod(manifest, root, load_summarizer(compaction.summarizer, manifest.package))
    if root != LLM_ROOT:
        raise Refusal(
            "compaction",
            "start",
            ROOT_REFUSAL.format(root=root),
            value=root,
            allowed=f"a {LLM_ROOT} root, or a summarizer of the setting's own",
        )
    return Pod(manifest, root, AgentModel())


def _written_setting(written: str) -> dict[str, object]:
    """The keyword arguments of a setting written as code, ``Compaction(after_tokens=3000, ...)``, read, never run."""
    checks.text("written", written)
    allowed = "a setting written as code, such as 'Compaction(after_tokens=3000, keep_recent_events=6)'"
    try:
        call = ast.parse(written.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # what parsing a reader's text can raise
        raise Refused("written", written, allowed) from None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "Compaction" and not call.args):
        raise Refused("written", written, allowed)
    fields = ("after_tokens", "keep_recent_events", "after_invocations", "overlap", "summarizer")
    arguments: dict[str, object] = {}
    for keyword in call.keywords:
        if keyword.arg not in fields or keyword.arg in arguments:
            raise Refused("written", written, f"each of the fields {', '.join(fields)} at most once")
        try:
            arguments[keyword.arg] = ast.literal_eval(keyword.value)
        except (ValueError, TypeError, SyntaxError, RecursionError):  # not a literal: an expression is never run
            raise Refused("written", written, "a number, a string or None for each field") from None
    return arguments


def refusal_of(written: str, manifest: str = "agent", root: str = LLM_ROOT) -> Refusal | None:
    """The refusal a setting written as code meets, when its manifest is built or its pod starts; None if it starts.

    Args:
        written: The setting as a manifest writes it, such as ``"Compaction(after_tokens=3000)"``.
        manifest: ``"agent"`` or ``"workflow"``, the kind of manifest it is written in.
        root: What the agent's ``build()`` returns: ``"LlmAgent"`` or a workflow agent's class name.

    Returns:
        The setting's own refusal, with its field and its moment (``"build"`` or ``"start"``), or None.

    Raises:
        lessonkit.checks.Refused: `written` is not a ``Compaction(...)`` call with keyword arguments, or
            `manifest` or `root` is not one of the known kinds.

    Examples:
        >>> from lessonkit.lessons.context_compaction import refusal_of
        >>> refusal = refusal_of("Compaction(after_tokens=3000)")
        >>> refusal.field, refusal.moment
        ('after_tokens', 'build')
        >>> refusal_of("Compaction(after_invocations=4, overlap=0)") is None
        True
        >>> refusal_of("Compaction(after_invocations=4, overlap=1)", root="SequentialAgent").moment
        'start'
    """
    arguments = _written_setting(written)
    checks.choice("manifest", manifest, MANIFEST_KINDS)
    checks.choice("root", root, ROOTS)
    try:
        start(Manifest(manifest, _PACKAGE, compaction=Compaction(**arguments)), root)
    except Refusal as refusal:
        return refusal
    return None


def deployment(written: str, manifest: str = "agent", root: str = LLM_ROOT) -> str:
    """What comes of a setting written as code, in one sentence: the refusal in its own words, or what the pod does.

    Args:
        written: The setting as a manifest writes it, such as ``"Compaction(after_tokens=3000)"``.
        manifest: ``"agent"`` or ``"workflow"``, the kind of manifest it is written in.
        root: What the agent's ``build()`` returns: ``"LlmAgent"`` or a workflow agent's class name.

    Returns:
        One sentence; a refusal's words are kept, its line breaks read as spaces.

    Raises:
        lessonkit.checks.Refused: As `refusal_of`.

    Examples:
        >>> from lessonkit.lessons.context_compaction import deployment
        >>> print(deployment("Compaction(after_invocations=4, overlap=0)"))  # doctest: +NORMALIZE_WHITESPACE
        Compaction(after_invocations=4, overlap=0) stands: it compacts by turns every 4 turns, re-including no earlier turn;
        the pod starts with the agent's model as its summarizer.
        >>> print(deployment("Compaction(after_tokens=3000)"))  # doctest: +ELLIPSIS
        Compaction(after_tokens=3000) is refused when the manifest is built: Compaction sets `after_tokens` alone. ...
    """
    refusal = refusal_of(written, manifest, root)
    if refusal is not None:
        return f"{written} is refused when {_MOMENT_WORDS[refusal.moment]}: {' '.join(str(refusal).split())}"
    setting = Compaction(**_written_setting(written))
    does = []
    if setting.by_size:
        kept = setting.keep_recent_events
        keeping = f"keeping the newest {kept} raw {'event' if kept == 1 else 'events'}" if kept else "keeping no recent raw event"
        does.append(f"by size once a request's prompt reaches {setting.after_tokens:,} tokens, {keeping}")
    if setting.by_turns:
        overlap = setting.overlap
        again = f"re-including {overlap} earlier {'turn' if overlap == 1 else 'turns'}" if overlap else "re-including no earlier turn"
        does.append(f"by turns every {setting.after_invocations} turns, {again}")
    summarizer = repr(setting.summarizer) if setting.own_summarizer else "the agent's model"
    return f"{written} stands: it compacts {', and '.join(does)}; the pod starts with {summarizer} as its summarizer."
