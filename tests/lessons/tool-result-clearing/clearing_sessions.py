"""Generated agent sessions and clearing settings, for the checks against LangChain and the properties.

A seed makes one session and one setting, so a failure names the seed that reproduces it. Sessions
vary what the fixture holds fixed: the tools and their names, how many calls an agent message makes
at once, the weights (results smaller than a placeholder included), and which messages need an
earlier result. Settings vary every field, with a trigger and a `clear_at_least` drawn against the
session's own size so that clearing runs, stops early, or never starts.
"""

from __future__ import annotations

import json
import random

from lessonkit.fixtures import parse_fixture
from lessonkit.lessons.tool_result_clearing import Clearing, Session, session_from_record

TOOL_NAMES = ("read_file", "run_tests", "search", "update_plan", "fetch_url", "list_dir", "query_db")
PLACEHOLDERS = ("[cleared]", "x", "[result cleared to save room; call the tool again if you need it]", "…")


def record(rng: random.Random) -> dict:
    """A session as its JSON record, shaped as the fixture's is."""
    tools = rng.sample(TOOL_NAMES, rng.randint(1, 5))
    messages: list[dict] = []
    calls: list[str] = []
    count = 0
    for turn in range(rng.randint(1, 3)):
        messages.append({"id": f"u{turn}", "kind": "user", "tokens": rng.randint(1, 120), "text": f"task {turn}"})
        for _ in range(rng.randint(0, 9)):
            count += 1
            made = []
            for n in range(rng.choice((1, 1, 1, 2, 3))):
                # Few inputs per tool, so that a later call may ask for what an earlier one did.
                tool = rng.choice(tools)
                made.append(
                    {"id": f"c{count}.{n}", "tool": tool, "input": f"{tool} #{rng.randint(1, 3)}", "input_tokens": rng.randint(1, 300)}
                )
            message = {"id": f"a{count}", "kind": "assistant", "tokens": rng.randint(1, 80), "text": f"step {count}", "calls": made}
            if calls and rng.random() < 0.3:
                message["needs"] = rng.sample(calls, rng.randint(1, min(2, len(calls))))
            messages.append(message)
            for call in made:
                weight = rng.choice((rng.randint(1, 6), rng.randint(50, 800), rng.randint(800, 6000)))
                messages.append({"id": f"r{call['id'][1:]}", "kind": "tool", "call": call["id"], "tokens": weight, "text": "result"})
                calls.append(call["id"])
        messages.append({"id": f"end{turn}", "kind": "assistant", "tokens": rng.randint(1, 100), "text": "reply"})
    return {"system_tokens": rng.randint(1, 2000), "messages": messages}


def session(rng: random.Random) -> Session:
    return session_from_record(parse_fixture(json.dumps(record(rng)), "generated.json"))


def setting(rng: random.Random, drawn: Session) -> Clearing:
    """A setting for `drawn`, every field varied."""
    size = drawn.system_tokens + sum(message.weight() for message in drawn.messages)
    results = sum(message.kind == "tool" for message in drawn.messages)
    return Clearing(
        trigger=rng.choice((0, rng.randint(0, size), rng.randint(0, size), rng.randint(0, size // 2), size + 1, 100_000)),
        clear_at_least=rng.choice((0, 0, rng.randint(1, max(1, size // 3)), rng.randint(1, 20))),
        keep=rng.choice((0, 1, 2, rng.randint(0, 6), rng.randint(0, 6), results, results + 1)),
        clear_tool_inputs=rng.random() < 0.5,
        exclude_tools=tuple(rng.sample(drawn.tools, rng.randint(0, min(2, len(drawn.tools))))),
        placeholder=rng.choice(PLACEHOLDERS),
    )


def drawn(seed: int) -> tuple[Session, Clearing]:
    """The session and setting that `seed` makes."""
    rng = random.Random(seed)
    made = session(rng)
    return made, setting(rng, made)
