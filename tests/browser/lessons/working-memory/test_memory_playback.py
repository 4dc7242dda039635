"""The staged inspection's clock: Play, Pause, Next stage, Restart inspection, Speed, and what
restarts or pauses it by itself.

Tests that depend on elapsed time run on Playwright's clock (`lesson_on_a_clock`), so a moment is
chosen by the test and never by the machine's speed; the only real waits prove that nothing moves.
"""

from __future__ import annotations

from playwright.sync_api import expect

STILL_MS = 1_000  # how long a paused inspection is watched for not moving


def test_play_unfolds_the_four_stages_and_pause_freezes_the_elapsed_time(lesson_on_a_clock, engine):
    lesson_page = lesson_on_a_clock
    page = lesson_page.page
    lesson_page.expect_playing(False)

    lesson_page.button("Play").click()
    lesson_page.expect_playing(True)
    page.clock.run_for(12_500)
    lesson_page.button("Pause").click()

    lesson_page.expect_playing(False)
    expect(lesson_page.timeline).to_have_value("12")
    expect(lesson_page.timeline).to_have_attribute("aria-valuetext", "12 seconds, Stage 2 of 4: scope filters")
    lesson_page.expect_view(engine.view(12))
    page.clock.run_for(5_000)
    page.wait_for_timeout(STILL_MS)
    expect(lesson_page.timeline).to_have_value("12")

    lesson_page.button("Play").click()
    page.clock.run_for(30_000)
    expect(lesson_page.timeline).to_have_value(f"{engine.final:g}")
    lesson_page.expect_view(engine.view(engine.final))
    lesson_page.expect_playing(False)


def test_next_stage_pauses_at_each_ten_second_boundary(lesson_on_a_clock, engine):
    lesson_page = lesson_on_a_clock
    page = lesson_page.page

    for mark in engine.marks[1:]:
        lesson_page.button("Next stage").click()
        expect(lesson_page.timeline).to_have_value(f"{mark:g}")
        lesson_page.expect_view(engine.view(mark))
        lesson_page.expect_playing(False)

    lesson_page.seek(0)
    lesson_page.button("Play").click()
    page.clock.run_for(3_200)
    lesson_page.button("Next stage").click()
    expect(lesson_page.timeline).to_have_value(f"{engine.stage_seconds:g}")
    lesson_page.expect_playing(False)
    page.clock.run_for(5_000)
    expect(lesson_page.timeline).to_have_value(f"{engine.stage_seconds:g}")


def test_restart_inspection_keeps_the_settings_and_the_speed(lesson_page, engine):
    lesson_page.set(question="deployment-region", store="semantic")
    lesson_page.choose("Speed", "Double")
    lesson_page.seek(25)
    lesson_page.expect_view(engine.view(25, question="deployment-region", store="semantic"))

    lesson_page.button("Restart inspection").click()

    expect(lesson_page.timeline).to_have_value("0")
    lesson_page.expect_playing(False)
    lesson_page.expect_view(engine.view(0, question="deployment-region", store="semantic"))
    assert lesson_page.chosen("Question") == "Which region is the checkout deployment in?"
    assert lesson_page.chosen("Memory store") == "Semantic facts"
    assert lesson_page.chosen("Speed") == "Double"
    lesson_page.button("Next stage").click()
    lesson_page.expect_view(engine.view(10, question="deployment-region", store="semantic"))


def test_changing_speed_counts_the_time_already_played_at_the_old_pace(lesson_on_a_clock):
    lesson_page = lesson_on_a_clock
    page = lesson_page.page
    assert lesson_page.chosen("Speed") == "Normal"
    assert [option.strip() for option in lesson_page.combobox("Speed").locator("option").all_inner_texts()] == [
        "Quarter",
        "Half",
        "Normal",
        "Double",
    ]

    lesson_page.button("Play").click()
    page.clock.run_for(4_500)  # 4.5 s at normal speed
    lesson_page.choose("Speed", "Double")
    lesson_page.expect_playing(True)
    page.clock.run_for(2_000)  # 4 s more at double speed
    lesson_page.button("Pause").click()

    # 8.5 s: the first 4.5 s did not count twice (13 s) and none was lost.
    expect(lesson_page.timeline).to_have_value("8")

    lesson_page.choose("Speed", "Quarter")
    lesson_page.button("Play").click()
    page.clock.run_for(6_400)  # 1.6 s at a quarter of the pace
    lesson_page.button("Pause").click()
    expect(lesson_page.timeline).to_have_value("10")


def test_every_kind_of_input_change_restarts_the_inspection_and_plays_it(lesson_on_a_clock, engine):
    lesson_page = lesson_on_a_clock
    page = lesson_page.page
    changes = [
        {"store": "all"},
        {"include_previous": False},
        {"max_age_hours": 100},
        {"recency_weight": 0.5},
        {"word_budget": 20},
        {"max_records": 2},
    ]
    settings: dict = {}
    for change in changes:
        settings.update(change)
        lesson_page.seek(engine.final)
        lesson_page.expect_playing(False)

        lesson_page.set(**change)

        expect(lesson_page.timeline).to_have_value("0")
        lesson_page.expect_playing(True)
        page.clock.run_for(10_500)
        lesson_page.expect_view(engine.view(10, **settings))


def test_a_hidden_tab_pauses_the_inspection(lesson_on_a_clock, engine):
    lesson_page = lesson_on_a_clock
    page = lesson_page.page
    lesson_page.button("Play").click()
    page.clock.run_for(3_500)

    page.evaluate(
        """() => {
            Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
            Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )

    lesson_page.expect_playing(False)
    expect(lesson_page.timeline).to_have_value("3")
    page.clock.run_for(10_000)
    expect(lesson_page.timeline).to_have_value("3")
    lesson_page.expect_view(engine.view(3))
    # The reader's tab keeps its document from one lesson to the next: it is shown again.
    page.evaluate(
        """() => {
            delete document.hidden;
            delete document.visibilityState;
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )


def test_with_reduced_motion_an_input_change_does_not_play_and_play_steps_one_stage(lesson_with_reduced_motion, engine):
    lesson_page = lesson_with_reduced_motion
    page = lesson_page.page
    expect(lesson_page.panel.get_by_text(engine.panel.playback.stepping_hint)).to_be_visible()

    lesson_page.set(**engine.walkthrough, word_budget=9)
    expect(lesson_page.timeline).to_have_value("0")
    page.wait_for_timeout(STILL_MS)
    expect(lesson_page.timeline).to_have_value("0")
    lesson_page.expect_playing(False)

    lesson_page.button("Play").click()
    expect(lesson_page.timeline).to_have_value(f"{engine.stage_seconds:g}")
    lesson_page.expect_playing(False)
    lesson_page.expect_view(engine.view(10, **engine.walkthrough, word_budget=9))
    page.wait_for_timeout(STILL_MS)
    expect(lesson_page.timeline).to_have_value(f"{engine.stage_seconds:g}")

    lesson_page.button("Next stage").click()
    lesson_page.button("Play").click()
    expect(lesson_page.timeline).to_have_value(f"{engine.final:g}")
    lesson_page.expect_view(engine.view(engine.final, **engine.walkthrough, word_budget=9))


def test_the_playback_buttons_answer_to_the_keyboard(lesson_page, engine):
    keyboard = lesson_page.page.keyboard
    lesson_page.button("Next stage").focus()
    keyboard.press("Space")
    expect(lesson_page.timeline).to_have_value(f"{engine.stage_seconds:g}")
    keyboard.press("Enter")
    expect(lesson_page.timeline).to_have_value(f"{2 * engine.stage_seconds:g}")

    lesson_page.button("Restart inspection").focus()
    keyboard.press("Space")
    expect(lesson_page.timeline).to_have_value("0")

    lesson_page.timeline.focus()
    keyboard.press("End")
    lesson_page.expect_view(engine.view(engine.final))
