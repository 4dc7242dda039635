"""The replay clock: play, pause, resume, restart, replay, speed, seeking and the keyboard.

No assertion depends on how fast the machine is: the tests wait for states with expect(), and the
only fixed waits prove that nothing changes while the replay is paused.
"""

from __future__ import annotations

from playwright.sync_api import expect

PLAYBACK_NAMES = ("Play messages", "Pause messages", "Resume", "Replay")
STILL_MS = 1_000  # how long a paused replay is watched for not moving


def test_changing_budget_policy_or_fidelity_returns_the_timeline_to_zero(lesson_page, engine):
    changes = [
        ("Context budget", "36", engine.view(36, "evict", "preserve")),
        ("Policy", "Summarize older turns", engine.view(36, "summarize", "preserve")),
        ("Fidelity", "Drop critical fact", engine.view(36, "summarize", "drop")),
    ]
    for combobox, option, view_at_zero in changes:
        lesson_page.seek(30)
        expect(lesson_page.timeline).to_have_value("30")
        lesson_page.choose(combobox, option)

        expect(lesson_page.timeline).to_have_value("0")
        lesson_page.expect_view(view_at_zero)
        expect(lesson_page.button("Play messages")).to_be_visible()


def test_pausing_freezes_the_replay_and_resume_continues(lesson_page, engine):
    lesson_page.choose_fastest_speed()
    lesson_page.button("Play messages").click()
    expect(lesson_page.button("Pause messages")).to_be_visible()
    expect(lesson_page.timeline).not_to_have_value("0")

    lesson_page.button("Pause messages").click()
    expect(lesson_page.button("Resume")).to_be_visible()
    paused_at = lesson_page.timeline.input_value()
    lesson_page.page.wait_for_timeout(STILL_MS)
    assert lesson_page.timeline.input_value() == paused_at, "the timeline moved while the replay was paused"
    assert 0 < float(paused_at) < 60
    # Read after a first wait: a view asked for just before the pause may still have been arriving.
    shown = lesson_page.status.inner_text()
    lesson_page.page.wait_for_timeout(STILL_MS)
    assert lesson_page.status.inner_text() == shown, "the status changed while the replay was paused"
    assert lesson_page.timeline.input_value() == paused_at, "the timeline moved while the replay was paused"

    lesson_page.button("Resume").click()
    expect(lesson_page.button("Pause messages")).to_be_visible()
    expect(lesson_page.timeline).not_to_have_value(paused_at)
    assert lesson_page.time() > float(paused_at)


def test_restart_rewinds_to_zero_and_keeps_the_policy(lesson_page, engine):
    lesson_page.choose("Policy", "Summarize older turns")
    lesson_page.choose("Fidelity", "Drop critical fact")
    lesson_page.seek(45)
    lesson_page.expect_view(engine.view(24, "summarize", "drop", 45))

    lesson_page.button("Restart").click()

    # Restart leaves the replay paused at its start, so the slider stays at 0 for good.
    expect(lesson_page.timeline).to_have_value("0")
    expect(lesson_page.button("Play messages")).to_be_visible()
    lesson_page.expect_view(engine.view(24, "summarize", "drop", 0))
    assert lesson_page.chosen("Policy") == "Summarize older turns"
    assert lesson_page.chosen("Fidelity") == "Drop critical fact"
    assert lesson_page.chosen("Context budget") == "24"


def test_changing_speed_during_playback_keeps_the_replay_going(lesson_page, engine):
    lesson_page.seek(45)  # the last arrivals are enough to watch, and keep the test short
    lesson_page.button("Resume").click()
    expect(lesson_page.button("Pause messages")).to_be_visible()
    expect(lesson_page.timeline).not_to_have_value("45")
    before = lesson_page.time()

    lesson_page.start_recording_time()
    lesson_page.choose_fastest_speed()
    expect(lesson_page.button("Pause messages")).to_be_visible()
    expect(lesson_page.button("Replay")).to_be_visible(timeout=60_000)
    times = lesson_page.stop_recording_time()

    assert times[0] >= before
    backwards = [(a, b) for a, b in zip(times, times[1:], strict=False) if b < a]
    assert not backwards, f"the timeline went back after the speed changed: {backwards[:3]}"
    expect(lesson_page.timeline).to_have_value("60")
    lesson_page.expect_view(engine.view(time=60))


def test_reaching_sixty_seconds_offers_replay_which_starts_again(lesson_page, engine):
    lesson_page.choose_fastest_speed()
    lesson_page.seek(55)
    # Seeking pauses: the replay is paused part-way, so the button offers to resume it.
    lesson_page.button("Resume").click()

    expect(lesson_page.button("Replay")).to_be_visible()
    expect(lesson_page.timeline).to_have_value("60")
    lesson_page.expect_view(engine.view(time=60))
    for name in PLAYBACK_NAMES:
        if name != "Replay":
            expect(lesson_page.button(name)).to_have_count(0)

    lesson_page.start_recording_time()
    lesson_page.button("Replay").click()
    expect(lesson_page.button("Pause messages")).to_be_visible()
    expect(lesson_page.timeline).not_to_have_value("60")
    lesson_page.button("Pause messages").click()
    times = lesson_page.stop_recording_time()
    assert min(times) < engine.marks[0], f"Replay did not start from the beginning: {times[:5]}"


def test_seeking_pauses_a_running_replay(lesson_page, engine):
    lesson_page.button("Play messages").click()
    expect(lesson_page.button("Pause messages")).to_be_visible()

    lesson_page.seek(37.5)

    expect(lesson_page.button("Resume")).to_be_visible()
    expect(lesson_page.button("Pause messages")).to_have_count(0)
    lesson_page.page.wait_for_timeout(STILL_MS)
    expect(lesson_page.timeline).to_have_value("37.5")
    lesson_page.expect_view(engine.view(time=37.5))


def test_the_timeline_and_the_buttons_work_from_the_keyboard(lesson_page, engine):
    keyboard = lesson_page.page.keyboard
    step = engine.panel.timeline.step
    first_arrival = engine.marks[0]

    lesson_page.timeline.focus()
    keyboard.press("ArrowRight")
    expect(lesson_page.timeline).to_have_value(f"{step:g}")
    for _ in range(int(first_arrival / step) - 1):
        keyboard.press("ArrowRight")
    expect(lesson_page.timeline).to_have_value(f"{first_arrival:g}")
    lesson_page.expect_view(engine.view(time=first_arrival))
    keyboard.press("End")
    lesson_page.expect_view(engine.view(time=60))
    keyboard.press("Home")
    lesson_page.expect_view(engine.view(time=0))
    expect(lesson_page.timeline).to_have_value("0")

    lesson_page.button("Play messages").focus()
    keyboard.press("Space")
    expect(lesson_page.button("Pause messages")).to_be_visible()
    expect(lesson_page.button("Pause messages")).to_be_focused()
    expect(lesson_page.timeline).not_to_have_value("0")
    keyboard.press("Space")
    expect(lesson_page.button("Resume")).to_be_visible()

    lesson_page.button("Restart").focus()
    keyboard.press("Space")
    lesson_page.expect_view(engine.view(time=0))


def test_with_reduced_motion_play_steps_to_the_next_arrival_and_stays_paused(lesson_with_reduced_motion, engine):
    lesson_page = lesson_with_reduced_motion
    first, second = engine.marks[:2]

    lesson_page.button("Play messages").click()
    expect(lesson_page.timeline).to_have_value(f"{first:g}")
    lesson_page.expect_view(engine.view(time=first))
    expect(lesson_page.button("Resume")).to_be_visible()
    lesson_page.page.wait_for_timeout(STILL_MS)
    expect(lesson_page.timeline).to_have_value(f"{first:g}")

    lesson_page.button("Resume").click()
    expect(lesson_page.timeline).to_have_value(f"{second:g}")
    lesson_page.expect_view(engine.view(time=second))
    expect(lesson_page.button("Resume")).to_be_visible()


def test_a_paused_replay_shows_the_arrival_its_timeline_points_at(lesson_on_a_clock, engine):
    # The page's clock is Playwright's, so the replay stops at a moment chosen here, not by the
    # machine's speed: just before the first arrival, closer to it than to the previous step.
    lesson_page = lesson_on_a_clock
    page = lesson_page.page
    first_arrival = engine.marks[0]
    step = engine.panel.timeline.step

    lesson_page.button("Play messages").click()
    page.clock.run_for(round((first_arrival - step / 2 + 0.05) * 1000))
    lesson_page.button("Pause messages").click()
    expect(lesson_page.button("Resume")).to_be_visible()

    shown_at = lesson_page.time()
    assert 0 < shown_at <= first_arrival
    expect(lesson_page.status, f"the timeline shows {shown_at:g} s, so the status must describe that moment").to_have_text(
        engine.view(time=shown_at).status
    )
