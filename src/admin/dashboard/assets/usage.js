// The usage and savings page: all keys or one key over a span of days; totals as cards, a
// chart per measure per day, top models and (for all keys) the keys by volume. Every figure is
// the admin usage API's, which reads the same store queries as GET /api/v1/usage.
"use strict";

(function (T) {
  const { el, api, format } = T;
  const DAY = 86400000;

  const RANGES = [
    ["month", "This month"],
    ["7", "Last 7 days"],
    ["30", "Last 30 days"],
    ["90", "Last 90 days"],
  ];

  const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

  /** The query for a range: none for this month (the API's default), else from/to days. */
  function rangeQuery(range) {
    if (range === "month") return "";
    const today = Date.now();
    return `?from=${isoDay(today - (Number(range) - 1) * DAY)}&to=${isoDay(today)}`;
  }

  /** Every day of [from, to] with the API's figures, zero where it has none. */
  function fillDays(from, to, daily) {
    const byDay = new Map(daily.map((d) => [d.day, d]));
    const days = [];
    for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`) && days.length < 400; t += DAY) {
      const label = isoDay(t);
      days.push(byDay.get(label) || { day: label, requests: 0, originalTokens: 0, savedTokens: 0, outputSavedEst: 0, usdSaved: 0 });
    }
    return days;
  }

  function stat(id, label, value, note) {
    return el("div", { class: "stat", id }, el("p", { class: "stat-label" }, label), el("p", { class: "stat-value" }, value), note ? el("p", { class: "stat-note" }, note) : null);
  }

  function chartCard(title, days, measure, fmt, color, axisFormat, whole) {
    const total = days.reduce((sum, d) => sum + d[measure], 0);
    return el("section", { class: "card chart-card" },
      el("div", { class: "chart-head" }, el("h2", { class: "card-title" }, title), el("span", { class: "chart-total" }, fmt(total))),
      T.charts.barChart(days.map((d) => ({ label: d.day, value: d[measure] })), { format: fmt, axisFormat, color, label: title, whole }));
  }

  function modelsTable(models) {
    if (models.length === 0) return T.emptyState("No traffic in this period", "Models appear here once requests are made.");
    return el("div", { class: "table-wrap" }, el("table", { class: "table", id: "models-table" },
      el("thead", {}, el("tr", {}, ["Model", "Requests", "Input tokens", "Saved", "Savings", "Est. output saved", "USD saved"].map((h, i) => el("th", { class: i ? "num" : "" }, h)))),
      el("tbody", {}, models.map((m) => el("tr", {},
        el("td", {}, m.model ? el("code", {}, m.model) : el("span", {}, "Compress API")),
        el("td", { class: "num" }, format.int(m.requests)),
        el("td", { class: "num" }, format.int(m.originalTokens)),
        el("td", { class: "num" }, format.int(m.savedTokens)),
        el("td", { class: "num" }, format.percent(m.savedTokens, m.originalTokens)),
        el("td", { class: "num" }, format.int(m.outputSavedEst)),
        el("td", { class: "num" }, format.usd(m.usdSaved)))))));
  }

  function byKeyTable(rows, names) {
    return el("div", { class: "table-wrap" }, el("table", { class: "table", id: "by-key-table" },
      el("thead", {}, el("tr", {}, ["Key", "Requests", "Input tokens", "Saved", "Savings", "USD saved"].map((h, i) => el("th", { class: i ? "num" : "" }, h)))),
      el("tbody", {}, rows.map((r) => el("tr", { "data-key-id": r.keyId },
        el("td", {}, el("a", { href: `/usage?key=${encodeURIComponent(r.keyId)}` }, names.get(r.keyId) || r.keyId)),
        el("td", { class: "num" }, format.int(r.requests)),
        el("td", { class: "num" }, format.int(r.originalTokens)),
        el("td", { class: "num" }, format.int(r.savedTokens)),
        el("td", { class: "num" }, format.percent(r.savedTokens, r.originalTokens)),
        el("td", { class: "num" }, format.usd(r.usdSaved)))))));
  }

  function render(view, report, keyId, names) {
    const t = report.totals;
    const days = fillDays(report.from, report.to, report.daily);
    const children = [
      el("div", { class: "stats stats-5", "data-key": keyId || "all" },
        stat("stat-requests", "Requests", format.int(t.requests)),
        stat("stat-saved", "Input tokens saved", format.int(t.savedTokens), `of ${format.int(t.originalTokens)} sent`),
        stat("stat-output", "Est. output saved", format.int(t.outputSavedEst), "output tokens, from brevity"),
        stat("stat-usd", "USD saved", format.usd(t.usdSaved)),
        stat("stat-percent", "Savings", format.percent(t.savedTokens, t.originalTokens), "input tokens removed")),
    ];
    if (t.requests === 0) {
      children.push(T.card(null, T.emptyState("No usage in this period", "Requests made with this key appear here within a second or two.")));
    } else {
      children.push(el("div", { class: "chart-grid" },
        chartCard("Requests per day", days, "requests", format.int, "indigo", format.compact, true),
        chartCard("Input tokens saved per day", days, "savedTokens", format.int, "sky", format.compact, true),
        chartCard("Est. output tokens saved per day", days, "outputSavedEst", format.int, "violet", format.compact, true),
        chartCard("USD saved per day", days, "usdSaved", format.usd, "emerald", (v) => `$${v < 10 ? v.toFixed(2) : Math.round(v)}`)));
    }
    children.push(T.card("Top models", modelsTable(report.topModels)));
    if (!keyId && report.byKey && report.byKey.length > 0) children.push(T.card("By key", byKeyTable(report.byKey, names)));
    view.replaceChildren(...children);
  }

  T.pages.usage = async function (view, actions) {
    const { keys } = await api("GET", "/admin/v1/keys");
    const names = new Map(keys.map((k) => [k.id, k.name]));
    const wanted = new URLSearchParams(window.location.search).get("key");
    const keySelect = el("select", { id: "usage-key", "aria-label": "Key" },
      el("option", { value: "" }, "All keys"),
      keys.map((k) => el("option", { value: k.id, selected: k.id === wanted }, `${k.name} (${k.prefix}…)`)));
    const rangeSelect = el("select", { id: "usage-range", "aria-label": "Period" }, RANGES.map(([v, label]) => el("option", { value: v }, label)));
    const refresh = el("button", { type: "button", class: "btn", id: "usage-refresh" }, "Refresh");
    const load = async () => {
      const keyId = keySelect.value;
      const path = keyId ? `/admin/v1/keys/${encodeURIComponent(keyId)}/usage` : "/admin/v1/usage";
      const report = await api("GET", path + rangeQuery(rangeSelect.value));
      render(view, report, keyId, names);
      const url = keyId ? `/usage?key=${encodeURIComponent(keyId)}` : "/usage";
      window.history.replaceState(null, "", url);
    };
    const safeLoad = () => load().catch((err) => T.flash(err.message, "error"));
    keySelect.addEventListener("change", safeLoad);
    rangeSelect.addEventListener("change", safeLoad);
    refresh.addEventListener("click", safeLoad);
    actions.replaceChildren(keySelect, rangeSelect, refresh);
    await load();
  };
})(window.Terse);
