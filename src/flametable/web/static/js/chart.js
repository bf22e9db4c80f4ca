// A rating's history as an SVG chart, drawn here from the profile's points (no library): the rating after each
// rated match, a band of one rating deviation around it, the rating values on the left axis and the matches'
// dates below. chartModel() is the arithmetic (tested on its own); ratingChart() draws it.
import { s } from "./dom.js";

// Round numbers for an axis from lo to hi: about `count` of them, each a multiple of 1, 2 or 5 times a power of 10.
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) {
    lo -= 50;
    hi += 50;
  }
  const raw = (hi - lo) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= raw) || 10 * power;
  const first = Math.floor(lo / step) * step;
  const ticks = [];
  for (let v = first; v <= hi + step / 2; v += step) ticks.push(Math.round(v * 1000) / 1000);
  if (ticks[ticks.length - 1] < hi) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

// Where everything goes in a chart of `width` x `height` (its units: pixels) for points [{at, rating, rd}]: the
// points spaced evenly by match (a burst of matches in one evening stays readable), the y axis from the ratings'
// extent (the band clipped to it), which points get a date below (the first, the last and some between).
export function chartModel(points, width, height) {
  const margin = { left: 48, right: 12, top: 10, bottom: 34 };
  const plot = { x: margin.left, y: margin.top, w: Math.max(10, width - margin.left - margin.right),
    h: Math.max(10, height - margin.top - margin.bottom) };
  const ratings = points.map((p) => p.rating);
  const ticks = niceTicks(Math.min(...ratings), Math.max(...ratings));
  const lo = ticks[0];
  const hi = ticks[ticks.length - 1];
  const x = (i) => plot.x + (points.length === 1 ? plot.w / 2 : (i * plot.w) / (points.length - 1));
  const y = (v) => plot.y + plot.h - ((v - lo) * plot.h) / (hi - lo);
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join(" ");
  const upper = points.map((p, i) => `${x(i).toFixed(1)} ${y(p.rating + p.rd).toFixed(1)}`);
  const lower = points.map((p, i) => `${x(i).toFixed(1)} ${y(p.rating - p.rd).toFixed(1)}`).reverse();
  const band = `M${[...upper, ...lower].join(" L")} Z`;
  const slots = Math.max(1, Math.floor(plot.w / 90)); // a date takes about 90 px
  const every = Math.max(1, Math.ceil((points.length - 1) / slots));
  const dated = points.map((_, i) => i).filter((i) => i === points.length - 1 || (i % every === 0 &&
    (points.length - 1 - i) * (plot.w / Math.max(1, points.length - 1)) >= 80));
  return {
    plot, lo, hi, line, band, dated,
    yTicks: ticks.map((v) => ({ value: v, y: y(v) })),
    dots: points.map((p, i) => ({ x: x(i), y: y(p.rating) })),
  };
}

// The chart of a rating's history: an <svg> (role img, its label the summary in words) of the given size.
export function ratingChart(points, { width, height, label, date }) {
  const m = chartModel(points, width, height);
  const clip = `clip-${Math.random().toString(36).slice(2)}`;
  return s("svg", { class: "rating-chart", width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": label },
  s("title", {}, label),
  s("defs", {}, s("clipPath", { id: clip }, s("rect", { x: m.plot.x, y: m.plot.y, width: m.plot.w, height: m.plot.h }))),
  m.yTicks.map((t) => [
    s("line", { class: "grid", x1: m.plot.x, x2: m.plot.x + m.plot.w, y1: t.y, y2: t.y }),
    s("text", { class: "tick y", x: m.plot.x - 6, y: t.y + 4, "text-anchor": "end" }, String(t.value)),
  ]),
  s("path", { class: "band", d: m.band, "clip-path": `url(#${clip})` }),
  s("path", { class: "line", d: m.line }),
  m.dots.map((d) => s("circle", { class: "dot", cx: d.x, cy: d.y, r: 3 })),
  s("line", { class: "axis", x1: m.plot.x, x2: m.plot.x, y1: m.plot.y, y2: m.plot.y + m.plot.h }),
  s("line", { class: "axis", x1: m.plot.x, x2: m.plot.x + m.plot.w, y1: m.plot.y + m.plot.h, y2: m.plot.y + m.plot.h }),
  datedLabels(m.dated, points, date).map(([i, text]) => s("text", { class: "tick x", x: m.dots[i].x,
    y: m.plot.y + m.plot.h + 18,
    "text-anchor": points.length === 1 ? "middle" : i === 0 ? "start" : i === points.length - 1 ? "end" : "middle" },
  text)));
}

// The dates written below the points chosen: each only where it differs from the one before (a day's matches get
// one date).
export function datedLabels(indexes, points, date) {
  const out = [];
  for (const i of indexes) {
    const text = date(points[i].at);
    if (!out.length || out[out.length - 1][1] !== text) out.push([i, text]);
  }
  return out;
}
