// The lobby's reading of a declared option's field (GET /api/games's options): the value the game is sent.
import assert from "node:assert/strict";
import { test } from "node:test";

import { optionValue } from "/static/js/lobby.js";

test("a bool option is its box's state", () => {
  assert.equal(optionValue({ kind: "bool" }, { checked: true }), true);
  assert.equal(optionValue({ kind: "bool" }, { checked: false }), false);
});

test("an int option is the whole number written, else the text, for the game to refuse", () => {
  assert.equal(optionValue({ kind: "int" }, { value: " 12 " }), 12);
  assert.equal(optionValue({ kind: "int" }, { value: "-3" }), -3);
  assert.equal(optionValue({ kind: "int" }, { value: "1.5" }), "1.5");
  assert.equal(optionValue({ kind: "int" }, { value: "" }), "");
});

test("a choice option is the value chosen", () => {
  assert.equal(optionValue({ kind: "choice" }, { value: "draft" }), "draft");
});
