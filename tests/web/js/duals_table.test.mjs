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
