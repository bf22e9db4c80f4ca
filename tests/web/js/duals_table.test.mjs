// The Duals table's reading of the legal list (docs/duals.md's notation): which click does what. No rule here: the
// targets are exactly the legal notations.
import assert from "node:assert/strict";
import { test } from "node:test";

import { readLegal, spaceTargets } from "/games/duals/static/table.js";

test("each legal notation goes where a click on the page means it", () => {
  const options = readLegal(["place c3", "use b2", "move a1 a2", "swap b1 b3", "score #7", "bottom #2", "done", "coin"]);
  assert.deepEqual([...options.place], [["c3", "place c3"]]);
  assert.deepEqual([...options.use], [["b2", "use b2"]]);
  assert.deepEqual(options.move, [{ from: "a1", to: "a2", action: "move a1 a2" }]);
  assert.deepEqual(options.swap, [{ from: "b1", to: "b3", action: "swap b1 b3" }]);
  assert.deepEqual([...options.cards], [[7, { verb: "score", action: "score #7" }], [2, { verb: "bottom", action: "bottom #2" }]]);
  assert.deepEqual(options.buttons, ["done", "coin"]);
});

test("a move is two clicks: first the token's space is picked, then its legal destinations send the move", () => {
  const options = readLegal(["move a1 a2", "move a1 a3", "move b1 b2", "place c3"]);
  const first = spaceTargets(options, 10);
  assert.equal(first.get("c3").action, "place c3");
  assert.equal(first.get("a1").pick, true);
  assert.equal(first.get("b1").pick, true);
  assert.equal(first.has("a2"), false); // a destination before its token is picked: nothing to click
});

test("either space of a legal swap may be clicked first", () => {
  const targets = spaceTargets(readLegal(["swap b1 b3"]), 20);
  assert.equal(targets.get("b1").pick, true);
  assert.equal(targets.get("b3").pick, true);
});

test("no target is made of a notation that is not legal", () => {
  const targets = spaceTargets(readLegal(["done"]), 30);
  assert.equal(targets.size, 0);
});

// Issue 25: the header says what the other player is doing, in words of the step; once the match is over, that
// it is (the frame's words after a resignation, a loss on time, a player who left), never a turn.
test("the header's words: one's own step, the other's step, then the end", async () => {
  const { turnWords } = await import("/games/duals/static/table.js");
  const f = { steps: { place: "place: put the token", score: "SCORE: score cards, the coin or finish", over: "the match is over" } };
  const names = ["Player 1 (you)", "Player 2"];
  const view = { phase: "score", to_act: 1, turn: 1, seats: [{ coins: 0 }, { coins: 1 }] };
  assert.equal(turnWords(f, view, names, { mine: false, legal: [], over: false }), "Player 2 is scoring…");
  assert.equal(turnWords(f, { ...view, phase: "place" }, names, { mine: false, legal: [], over: false }),
    "Player 2 is placing a token…");
  assert.equal(turnWords(f, { ...view, phase: "place", to_act: 0 }, names, { mine: true, legal: ["place c3"], over: false }),
    "Your turn: Place: put the token");
  assert.equal(turnWords(f, view, names, { mine: false, legal: [], over: true, endWords: "The match is over. Player 2 resigned." }),
    "The match is over. Player 2 resigned.");
  assert.equal(turnWords(f, view, names, { mine: false, legal: [], over: true }), "The match is over");
});
