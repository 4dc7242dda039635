// The playback clock, driven by hand: frames and time are injected, so no test waits on a real clock.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Clock, latestMark, nextMark } from "../../overrides/assets/lessonkit/playback.js";

/** A frame scheduler the test advances itself, and the time source it shares with the clock. */
function manualFrames() {
  let now = 0;
  let queued = null;
  return {
    now: () => now,
    frames: { request: (callback) => ((queued = callback), 1), cancel: () => (queued = null) },
    /** Run one frame `ms` after the last one. */
    step(ms) {
      now += ms;
      const callback = queued;
      queued = null;
      if (callback) callback(now);
    },
    advance(ms) {
      now += ms;
    },
  };
}

function clockWith(options = {}) {
  const frames = manualFrames();
  const clock = new Clock({ end: 30, marks: [0, 10, 20, 30], frames: frames.frames, now: frames.now, ...options });
  return { clock, frames };
}

test("the latest mark is the one at or before the moment, and 0 before the first", () => {
  assert.equal(latestMark([7.5, 15, 22.5], 0), 0);
  assert.equal(latestMark([7.5, 15, 22.5], 15), 15);
  assert.equal(latestMark([7.5, 15, 22.5], 14.999), 7.5);
  assert.equal(nextMark([7.5, 15], 7.5, 60), 15);
  assert.equal(nextMark([7.5, 15], 15, 60), 60);
});

test("playing advances time by the frames' elapsed time times the speed", () => {
  const { clock, frames } = clockWith();
  clock.play();
  frames.step(100); // the first frame only sets the reference point
  frames.step(200);
  assert.equal(clock.phase, "playing");
  assert.ok(Math.abs(clock.time - 0.2) < 1e-9, clock.time);
});

test("pausing settles the time elapsed since the last frame", () => {
  const { clock, frames } = clockWith();
  clock.play();
  frames.step(0);
  frames.step(100);
  frames.advance(150); // no frame yet, but time passed
  clock.pause();
  assert.ok(Math.abs(clock.time - 0.25) < 1e-9, clock.time);
  assert.equal(clock.phase, "paused");
});

test("changing speed counts the time so far at the old pace, then plays at the new one", () => {
  const { clock, frames } = clockWith();
  clock.play();
  frames.step(0);
  frames.advance(200);
  clock.setSpeed(4);
  frames.step(100);
  assert.ok(Math.abs(clock.time - (0.2 + 0.4)) < 1e-9, clock.time);
});

test("next pauses at the following mark, and restart rewinds to 0 keeping the speed", () => {
  const { clock, frames } = clockWith({ speed: 2 });
  clock.play();
  frames.step(0);
  frames.step(200);
  clock.next();
  assert.equal(clock.time, 10);
  assert.equal(clock.playing, false);
  clock.restart();
  assert.equal(clock.time, 0);
  assert.equal(clock.phase, "start");
  assert.equal(clock.speed, 2);
});

test("with reduced motion, play steps to the next mark and stays paused", () => {
  const { clock } = clockWith({ stepping: true });
  clock.play();
  assert.equal(clock.time, 10);
  assert.equal(clock.playing, false);
});

test("the clock stops at the end and replay starts over", () => {
  const { clock, frames } = clockWith();
  clock.seek(29.9);
  clock.play();
  frames.step(0);
  frames.step(250);
  assert.equal(clock.time, 30);
  assert.equal(clock.phase, "ended");
  clock.play();
  assert.equal(clock.time, 0);
  assert.equal(clock.phase, "playing");
});

test("a long pause between frames (a background tab) advances at most a quarter second", () => {
  const { clock, frames } = clockWith();
  clock.play();
  frames.step(0);
  frames.step(60_000);
  assert.ok(clock.time <= 0.25 + 1e-9, clock.time);
});

test("a stopped clock keeps its moment, asks for no frame and tells no one", () => {
  let told = 0;
  const { clock, frames } = clockWith({ onChange: () => (told += 1) });
  clock.play();
  frames.step(0);
  frames.step(500);
  const before = { time: clock.time, told };
  clock.stop();
  frames.step(1000);
  assert.equal(clock.playing, false);
  assert.equal(clock.time, before.time);
  assert.equal(told, before.told);
});
