// The profile's rating chart (js/chart.js): its axis numbers, where its points go, the dates written below.
import assert from "node:assert/strict";
import { test } from "node:test";

import { chartModel, datedLabels, niceTicks } from "/static/js/chart.js";

test("an axis's numbers are round and cover the ratings", () => {
  assert.deepEqual(niceTicks(1337.8, 1662.2), [1300, 1400, 1500, 1600, 1700]);
  assert.deepEqual(niceTicks(1495, 1512), [1495, 1500, 1505, 1510, 1515]);
  const one = niceTicks(1500, 1500); // a single rating: a span around it
  assert.ok(one[0] < 1500 && one[one.length - 1] > 1500);
});

test("the points are spaced evenly by match inside the plot, the best rating highest", () => {
  const points = [{ at: 0, rating: 1500, rd: 350 }, { at: 10, rating: 1662.2, rd: 290 }, { at: 20, rating: 1433, rd: 260 }];
  const m = chartModel(points, 600, 220);
  const xs = m.dots.map((d) => d.x);
  assert.equal(xs[0], m.plot.x);
  assert.equal(xs[2], m.plot.x + m.plot.w);
  assert.ok(Math.abs(xs[1] - (xs[0] + xs[2]) / 2) < 1e-9);
  for (const d of m.dots) assert.ok(d.y >= m.plot.y && d.y <= m.plot.y + m.plot.h);
  assert.ok(m.dots[1].y < m.dots[0].y && m.dots[0].y < m.dots[2].y);
  assert.equal(m.yTicks[0].value, m.lo);
  assert.ok(m.lo <= 1433 && m.hi >= 1662.2);
  assert.ok(m.line.startsWith("M") && m.band.endsWith("Z"));
});

test("a date is written once for a day's matches, and the last point is dated", () => {
  const points = Array.from({ length: 15 }, (_, i) => ({ at: i, rating: 1500 + i, rd: 100 }));
  const m = chartModel(points, 320, 220);
  assert.ok(m.dated.includes(14) && m.dated.length <= 4);
  assert.deepEqual(datedLabels(m.dated, points, () => "Dec 2"), [[m.dated[0], "Dec 2"]]);
  assert.deepEqual(datedLabels([0, 7, 14], points, (at) => (at < 10 ? "Dec 2" : "Dec 3")), [[0, "Dec 2"], [14, "Dec 3"]]);
});
