// The table's header once the match is over (issue 25): never "Player 2 is playing…" after the end, however the
// match ended; the loser named where the rules did not end it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { endWords } from "/static/js/turn.js";

const NAMES = ["Player 1 (you)", "Player 2"];

test("a match the rules ended says it is over and who won, or the tie", () => {
  assert.equal(endWords({ status: "over", result: { winner: 1, reason: "most_vp" } }, NAMES),
    "The match is over. Player 2 wins.");
  assert.equal(endWords({ status: "over", result: { winner: null, reason: "shared_victory" } }, NAMES),
    "The match is over. The match is a tie.");
});

test("a resignation, a loss on time and a player who left name the loser", () => {
  assert.equal(endWords({ status: "resigned", result: { winner: 0, reason: "resigned" } }, NAMES),
    "The match is over. Player 2 resigned.");
  assert.equal(endWords({ status: "timeout", result: { winner: 1, reason: "time" } }, NAMES),
    "The match is over. Player 1 (you) ran out of time.");
  assert.equal(endWords({ status: "forfeit", result: { winner: 0, reason: "left" } }, NAMES),
    "The match is over. Player 2 left the match.");
});

test("a room closed unplayed says so, and a match going on has no end words", () => {
  assert.equal(endWords({ status: "expired", result: null, message: "…" }, NAMES), "This room is closed.");
  assert.equal(endWords(null, NAMES), "");
});
