// My matches' pure parts (issue 24, point 3; issue 25, point 4): which matches are a new "your turn" (one per
// decision awaited), the last move's time in words, and how long a lobby's room has waited.
import assert from "node:assert/strict";
import { test } from "node:test";

import { waitedText } from "/static/js/lobby.js";
import { agoText, turnKeys } from "/static/js/mymatches.js";

const match = (room, myTurn, moves) => ({ room, match: 0, my_turn: myTurn, moves });

test("a your-turn key per match awaiting me, new with each decision", () => {
  const before = turnKeys([match("a", true, 3), match("b", false, 4)]);
  assert.deepEqual([...before], ["a/0/3"]);
  const after = turnKeys([match("a", true, 3), match("b", true, 5)]);
  assert.deepEqual([...after].filter((k) => !before.has(k)), ["b/0/5"]); // b's turn came: it is new
  assert.equal(turnKeys([match("a", true, 5)]).has("a/0/3"), false); // a later decision is another key
});

test("the last move's time in words", () => {
  const now = 1_800_000_000;
  assert.equal(agoText(now - 30, now), "30 seconds ago");
  assert.equal(agoText(now - 5 * 60, now), "5 minutes ago");
  assert.equal(agoText(now - 3 * 3600, now), "3 hours ago");
  assert.equal(agoText(now - 2 * 86400, now), "2 days ago");
});

test("how long a room has waited", () => {
  assert.equal(waitedText(12.7), "12 s");
  assert.equal(waitedText(5 * 60 + 59), "5 min");
  assert.equal(waitedText(3 * 3600 + 10), "3 h");
});
