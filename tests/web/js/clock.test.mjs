// The table's clocks (issue 24): a time as the clock shows it, a running clock counted down from the server's last
// word, the marks told to screen readers, the time control in words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText, controlText, fellLow, leftNow, passed, ratedValue } from "/static/js/clock.js";

test("a time is shown as minutes, seconds and tenths under an hour, and in hours and days above", () => {
  assert.equal(clockText(177_500), "2:57.5");
  assert.equal(clockText(9_999), "0:09.9");
  assert.equal(clockText(-5), "0:00.0");
  assert.equal(clockText(3_723_000), "1:02:03");
  assert.equal(clockText(3 * 86_400_000 + 4 * 3_600_000 + 300_000), "3d 04:05");
});

test("only the running clocks count down, from when the server's message came, never below zero", () => {
  const state = { remaining: [60_000, 30_000], running: [1], at: 1_000 };
  assert.deepEqual(leftNow(state, 1_000), [60_000, 30_000]);
  assert.deepEqual(leftNow(state, 11_500), [60_000, 19_500]);
  assert.deepEqual(leftNow(state, 99_000), [60_000, 0]);
  assert.deepEqual(leftNow({ ...state, running: [0, 1] }, 6_000), [55_000, 25_000]); // both decide at once
});

test("60 s and 10 s are told once each, as a clock passes them", () => {
  assert.deepEqual(passed(60_100, 59_900), [60_000]);
  assert.deepEqual(passed(59_900, 59_800), []);
  assert.deepEqual(passed(10_050, 9_950), [10_000]);
  assert.deepEqual(passed(Infinity, 5_000), [60_000, 10_000]);
});

test("a time control in words", () => {
  assert.equal(controlText({ kind: "fischer", minutes: 3, increment: 2 }), "3+2");
  assert.equal(controlText({ kind: "turn", days: 3 }), "3 days per decision");
  assert.equal(controlText(null), "Untimed");
});

test("the sound of one's own clock comes once, as it falls under 10 s", () => {
  assert.equal(fellLow(10_050, 9_950), true);
  assert.equal(fellLow(10_000, 9_900), true);
  assert.equal(fellLow(9_950, 9_850), false); // already under: not again
  assert.equal(fellLow(12_000, 10_000), false);
});

test("ticking \"rated\" moves an untimed choice to 10+5 and keeps any clock (a rated match has one)", () => {
  assert.equal(ratedValue(""), "fischer:10:5");
  assert.equal(ratedValue("fischer:3:2"), "fischer:3:2");
  assert.equal(ratedValue("custom"), "custom");
  assert.equal(ratedValue("turn:7"), "turn:7");
});
