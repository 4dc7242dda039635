"""The clearing rule held to LangChain 1.5.0's own `ClearToolUsesEdit.apply`, request by request.

At every request of a replay, the history the request saw is turned into LangChain messages and
handed to `apply` with a token counter that returns the lesson's teaching tokens, as
`ContextEditingMiddleware` would before a model call. LangChain must clear the same results and the
same call inputs, and leave a prompt of the same weight, on the fixture under every preset and on
generated sessions that vary the tools, the lengths and every field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from clearing_sessions import drawn
from langchain.agents.middleware.context_editing import ClearToolUsesEdit
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from lessonkit.lessons.tool_result_clearing import FIELDS, Clearing, Message, Run, Session, lesson, replay

GENERATED_SESSIONS = 700


def langchain_messages(history: Sequence[Message]) -> list[BaseMessage]:
    """The history as LangChain's agent state holds it: a call's input becomes its args."""
    converted: list[BaseMessage] = []
    for message in history:
        if message.kind == "user":
            converted.append(HumanMessage(message.text, id=message.id))
        elif message.kind == "assistant":
            calls = [{"id": call.id, "name": call.tool, "args": {"input": call.input}} for call in message.calls]
            converted.append(AIMessage(message.text, id=message.id, tool_calls=calls))
        else:
            assert message.call is not None
            # LangChain reads the tool's name from the result, or else from its call: give it half the time.
            name = message.call.tool if len(converted) % 2 else None
            converted.append(ToolMessage(message.text, id=message.id, tool_call_id=message.call.id, name=name))
    return converted


def teaching_counter(session: Session, history: Sequence[Message]):
    """A LangChain token counter that gives the lesson's teaching tokens, read off what LangChain left."""
    results = {message.id: message.tokens for message in history if message.kind == "tool"}
    texts = {message.id: message.tokens for message in history if message.kind != "tool"}
    inputs = {call.id: call.input_tokens for message in history for call in message.calls}

    def count(messages: Sequence[BaseMessage]) -> int:
        total = session.system_tokens
        for message in messages:
            if isinstance(message, ToolMessage):
                cleared = message.response_metadata.get("context_editing", {}).get("cleared")
                # The lesson's rule for a placeholder, applied to the text LangChain put in.
                total += max(1, math.ceil(len(message.content) / 4)) if cleared else results[message.id]
            elif isinstance(message, AIMessage):
                total += texts[message.id] + sum(inputs[call["id"]] for call in message.tool_calls if call["args"])
            else:
                total += texts[message.id]
        return total

    return count


def disagreements(session: Session, run: Run) -> list[str]:
    """Every request at which LangChain's edit differs from the lesson's, said plainly."""
    assert run.setting is not None
    edit = ClearToolUsesEdit(**run.setting.fields)
    every = langchain_messages(run.history)
    found = []
    for request in run.requests:
        history = run.history[: request.position]
        messages = every[: request.position]  # apply replaces messages, never changes one: a new list is a copy
        count = teaching_counter(session, history)
        edit.apply(messages, count_tokens=count)
        cleared = tuple(m.id for m in messages if isinstance(m, ToolMessage) and m.response_metadata.get("context_editing"))
        inputs = tuple(call["id"] for m in messages if isinstance(m, AIMessage) for call in m.tool_calls if not call["args"])
        ours = tuple(call_id for block in request.prompt.blocks for call_id in block.inputs_cleared)
        if cleared != request.prompt.cleared:
            found.append(f"request {request.number}: LangChain cleared {cleared}, the lesson {request.prompt.cleared}")
        if inputs != ours:
            found.append(f"request {request.number}: LangChain cleared the inputs of {inputs}, the lesson {ours}")
        if count(messages) != request.prompt.tokens:
            found.append(f"request {request.number}: LangChain's prompt weighs {count(messages)}, the lesson's {request.prompt.tokens}")
    return found


def test_the_setting_has_langchains_fields_and_defaults():
    edit = ClearToolUsesEdit()
    assert FIELDS == tuple(ClearToolUsesEdit.__dataclass_fields__)
    assert Clearing().fields == {name: getattr(edit, name) for name in FIELDS}


@pytest.mark.parametrize("preset", sorted(lesson().presets))
def test_langchain_clears_what_the_lesson_clears_at_every_request_of_each_preset(preset):
    run = replay(lesson().session, lesson().presets[preset])
    assert disagreements(lesson().session, run) == []


@pytest.mark.parametrize(
    "change",
    [
        {"keep": 0},
        {"keep": 1, "clear_tool_inputs": True},
        {"clear_at_least": 1},
        {"clear_at_least": 30_000},
        {"exclude_tools": ("read_file", "update_plan")},
        {"trigger": 0, "placeholder": "[a placeholder long enough to weigh more than a small result does]"},
    ],
    ids=lambda change: ",".join(change),
)
def test_langchain_clears_what_the_lesson_clears_on_the_fixture_under_other_settings(change):
    run = replay(lesson().session, replace(lesson().presets["keep-3"], **change))
    assert disagreements(lesson().session, run) == []


def test_langchain_clears_what_the_lesson_clears_on_generated_sessions():
    cleared_somewhere = 0
    for seed in range(GENERATED_SESSIONS):
        session, setting = drawn(seed)
        run = replay(session, setting)
        assert disagreements(session, run) == [], f"seed {seed}: {setting}"
        cleared_somewhere += any(request.prompt.cleared for request in run.requests)
    # The sessions must exercise the rule, not only the trigger's "not yet".
    assert cleared_somewhere >= 200


def test_the_generated_sessions_vary_the_tools_the_lengths_and_every_field():
    drawn_ = [drawn(seed) for seed in range(GENERATED_SESSIONS)]
    runs = [replay(session, setting) for session, setting in drawn_]
    assert len({session.tools for session, _ in drawn_}) > 50
    assert len({len(session.messages) for session, _ in drawn_}) > 20
    for name in FIELDS:
        assert len({str(getattr(setting, name)) for _, setting in drawn_}) > 1, name
    rules = {verdict.rule for run in runs for request in run.requests for verdict in request.prompt.verdicts}
    assert len(rules) == 5
    assert any(run.calls_again for run in runs) and any(request.unseen for run in runs for request in run.requests)


def test_the_pages_langchain_snippet_builds_the_middleware_of_the_lessons_opening_setting():
    # The page shows, without running it in the browser (whose Python has no LangChain), how an agent
    # of LangChain's would ask for the panel's opening setting: the code shown is run here.
    page = (Path(__file__).parents[3] / "docs" / "lessons" / "tool-result-clearing.md").read_text(encoding="utf-8")
    snippets = [block for block in re.findall(r"```python\n(.*?)```", page, re.DOTALL) if "ContextEditingMiddleware" in block]
    assert len(snippets) == 1
    namespace: dict = {}
    exec(snippets[0], namespace)
    (edit,) = namespace["middleware"].edits
    assert {name: getattr(edit, name) for name in FIELDS} == lesson().presets["keep-3"].fields
