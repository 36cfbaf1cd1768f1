// Bar charts drawn as inline SVG (no library): one bar per day, gridlines with rounded
// labels, a tooltip (<title>) on every bar. Sized by a viewBox, so they scale with the card.
"use strict";

(function (T) {
  const NS = "http://www.w3.org/2000/svg";
  const W = 560, H = 200, LEFT = 48, RIGHT = 8, TOP = 10, BOTTOM = 26;

  function svg(tag, attrs, text) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** The axis maximum: four gridline steps, each 1, 2 or 5 times a power of ten, whole
   *  numbers for counts (so a day with 3 requests is not drawn against 3.8). */
  function niceMax(max, whole) {
    if (max <= 0) return whole ? 4 : 1;
    const raw = max / 4;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    let step = 10 * power;
    for (const m of [1, 2, 5]) if (m * power >= raw) { step = m * power; break; }
    if (whole) step = Math.max(1, Math.ceil(step));
    return step * 4;
  }

  /**
   * points: [{label: "2026-11-03", value: 12}], options: {format: fn, color: "blue"}.
   * Returns an <svg> element.
   */
  function barChart(points, options) {
    const fmt = options.format || String;
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: `chart chart-${options.color || "indigo"}`, role: "img", "aria-label": options.label || "chart" });
    const max = niceMax(Math.max(0, ...points.map((p) => p.value)), options.whole);
    const plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
    for (let i = 0; i <= 4; i++) {
      const y = TOP + plotH - (plotH * i) / 4;
      root.append(svg("line", { x1: LEFT, x2: W - RIGHT, y1: y, y2: y, class: i === 0 ? "axis" : "grid" }));
      root.append(svg("text", { x: LEFT - 6, y: y + 4, class: "tick tick-y" }, options.axisFormat ? options.axisFormat((max * i) / 4) : fmt((max * i) / 4)));
    }
    const n = Math.max(points.length, 1);
    const slot = plotW / n;
    const barW = Math.max(2, Math.min(28, slot * 0.7));
    const labelEvery = Math.ceil(n / 8);
    points.forEach((p, i) => {
      const h = (plotH * p.value) / max;
      const x = LEFT + slot * i + (slot - barW) / 2;
      const bar = svg("rect", { x, y: TOP + plotH - h, width: barW, height: Math.max(h, p.value > 0 ? 1 : 0), rx: Math.min(3, barW / 3), class: "bar" });
      bar.append(svg("title", {}, `${p.label}: ${fmt(p.value)}`));
      root.append(bar);
      if (i % labelEvery === 0) {
        root.append(svg("text", { x: LEFT + slot * i + slot / 2, y: H - 8, class: "tick tick-x" }, p.label.slice(5)));
      }
    });
    return root;
  }

  T.charts = { barChart };
})(window.Terse);
