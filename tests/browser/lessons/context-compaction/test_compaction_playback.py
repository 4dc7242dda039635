"""Playing the session request by request: every mark shows the engine's view of that request.

No assertion depends on how fast the machine is: the tests wait for states with expect().
"""

from __future__ import annotations

from playwright.sync_api import expect

BOTH = {"set_after_invocations": True, "set_overlap": True}


def test_next_request_steps_through_every_request_counted_in_requests_as_the_engine_computes_it(still_lesson_page, engine):
    still_lesson_page.write("after_invocations", 4)
    still_lesson_page.write("overlap", 1)
    still_lesson_page.expect_view(engine.view(**BOTH))
    for number in range(1, len(engine.panel.timeline.marks) + 1):
        still_lesson_page.button("Next request").click()
        expect(still_lesson_page.timeline).to_have_value(str(number))
        mark = engine.panel.timeline.marks[number - 1].name
        # The timeline counts model requests, not seconds, in what it speaks and in its clock.
        expect(still_lesson_page.timeline).to_have_attribute(
            "aria-valuetext", f"{number} model request{'s' if number != 1 else ''}, {mark}"
        )
        expect(still_lesson_page.panel.locator(".lk-clock")).to_have_text(f"{number} requests / 24 requests · {mark}")
        still_lesson_page.expect_view(engine.view(**BOTH, time=number))


def test_playing_runs_the_session_to_its_last_request(lesson_page, engine):
    lesson_page.choose_fastest_speed()
    lesson_page.button("Play requests").click()

    expect(lesson_page.button("Replay")).to_be_visible(timeout=60_000)
    last = engine.view(time=24)
    lesson_page.expect_view(last)
    expect(lesson_page.status).to_contain_text("Request 24 of 24, turn 12")
    assert lesson_page.seen_ids()[0] == "S3"


def test_changing_a_field_replays_from_the_start(still_lesson_page, engine):
    still_lesson_page.seek(12)
    still_lesson_page.expect_view(engine.view(time=12))

    still_lesson_page.value("keep_recent_events").fill("2")

    expect(still_lesson_page.timeline).to_have_value("0")
    still_lesson_page.expect_view(engine.view(keep_recent_events=2))


def test_with_reduced_motion_play_steps_to_the_next_request_and_stays(still_lesson_page, engine):
    still_lesson_page.button("Play requests").click()
    expect(still_lesson_page.timeline).to_have_value("1")
    still_lesson_page.expect_view(engine.view(time=1))
    still_lesson_page.button("Resume").click()
    expect(still_lesson_page.timeline).to_have_value("2")
    still_lesson_page.expect_view(engine.view(time=2))
