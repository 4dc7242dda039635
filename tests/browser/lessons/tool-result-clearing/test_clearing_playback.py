"""Playing the session request by request: the timeline counts model requests, not seconds, runs to
the most requests any setting can make, and every position shows the engine's view of that request.

No assertion depends on how fast the machine is: the tests wait for states with expect().
"""

from __future__ import annotations

import re

from playwright.sync_api import expect


def spoken(engine, number: int) -> str:
    """What the slider says at request `number`, in the timeline's own unit."""
    timeline = engine.timeline
    return f"{number} {timeline.unit_one if number == 1 else timeline.unit}, {timeline.marks[number - 1].name}"


def clock(engine, number: int) -> str:
    timeline = engine.timeline
    return f"{number} {timeline.clock_unit} / {timeline.end} {timeline.clock_unit} · {timeline.marks[number - 1].name}"


def test_next_request_steps_one_model_request_and_a_setting_that_makes_fewer_says_where_its_session_ended(lesson_page, engine):
    timeline = engine.timeline
    assert timeline.unit == "model requests" and timeline.clock_unit == "requests"
    assert [mark.name for mark in timeline.marks] == [f"Request {number}" for number in range(1, timeline.end + 1)]
    batched = engine.presets["batched"]
    lesson_page.number("Clear at least").fill(str(batched.clear_at_least))
    lesson_page.expect_view(engine.view_of(batched))
    run = engine.run(batched)
    assert len(run.requests) < timeline.end, "the batched setting makes fewer requests than the timeline holds"

    # From the start to the first request (one model request, said in the singular), then through
    # the last few marks, across the end of this setting's session.
    last_few = range(len(run.requests) - 2, timeline.end + 1)
    for number in [1, *last_few]:
        if number == last_few[0]:
            lesson_page.seek(number - 1)
        lesson_page.button("Next request").click()
        expect(lesson_page.timeline).to_have_value(str(number))
        expect(lesson_page.timeline).to_have_attribute("aria-valuetext", spoken(engine, number))
        expect(lesson_page.panel.locator(".lk-clock")).to_have_text(clock(engine, number))
        view = engine.view_of(batched, time=number)
        lesson_page.expect_view(view)
        if number <= len(run.requests):
            assert view.status.startswith(f"Request {number} of {len(run.requests)}: ")
        else:
            assert view.status.startswith(f"No request {number}: this setting's session ends at request {len(run.requests)}.")
            expect(lesson_page.panel.get_by_role("heading", name=f"No request {number}", exact=True)).to_be_visible()
    # The last mark is the end of the timeline: the session is over, and can be played again.
    expect(lesson_page.button("Replay")).to_be_visible()


def test_playing_runs_to_the_last_request_and_replay_starts_the_session_again(lesson_page, engine):
    end = engine.timeline.end
    lesson_page.choose_fastest_speed()
    lesson_page.seek(end - 2)
    lesson_page.expect_view(engine.view(time=end - 2))
    # Seeking pauses part-way, so the button offers to resume.
    lesson_page.button("Resume").click()

    expect(lesson_page.button("Replay")).to_be_visible()
    expect(lesson_page.timeline).to_have_value(str(end))
    lesson_page.expect_view(engine.view(time=end))
    assert engine.view(time=end).status.startswith(f"Request {end} of {len(engine.run(engine.presets['keep-3']).requests)}: ")

    lesson_page.start_recording_time()
    lesson_page.button("Replay").click()
    expect(lesson_page.button("Pause requests")).to_be_visible()
    # Paused once it has reached a request and before the end, the replay is part-way: it offers to resume.
    part_way = re.compile("^(?:" + "|".join(str(number) for number in range(1, end)) + ")$")
    expect(lesson_page.timeline).to_have_value(part_way)
    lesson_page.button("Pause requests").click()
    expect(lesson_page.button("Resume")).to_be_visible()
    times = lesson_page.stop_recording_time()
    assert min(times) < end - 2, f"Replay did not start from the beginning: {times[:5]}"
    # Paused, the panel shows the request its timeline points at, a whole number of requests.
    paused_at = lesson_page.time()
    assert paused_at == int(paused_at)
    lesson_page.expect_view(engine.view(time=int(paused_at)))
