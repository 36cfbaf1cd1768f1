// Shared dashboard code: DOM building, the admin API client (session cookie + CSRF header),
// number and date formatting, notices, and starting the page named by <body data-page>.
"use strict";

window.Terse = (function () {
  const pages = {};

  /** Builds an element: el("div", {class: "x", onclick: fn}, child, "text", ...). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  /** Calls the admin JSON API; resolves to the parsed body, rejects with an Error carrying
   *  the API's message. A lost session sends the browser back to the sign-in page. */
  async function api(method, path, body) {
    const headers = { "Accept": "application/json" };
    if (method !== "GET") headers["X-CSRF-Token"] = csrfToken();
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
    let data = null;
    try { data = await response.json(); } catch (_) { data = null; }
    if (response.status === 401) {
      window.location.assign("/login");
      throw new Error("Your session has ended. Sign in again.");
    }
    if (!response.ok || (data && data.success === false)) {
      const message = data && data.error ? data.error.message : `Request failed (${response.status})`;
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  const integer = new Intl.NumberFormat("en-US");
  const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
  const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 });

  const format = {
    int: (n) => integer.format(n || 0),
    compact: (n) => compact.format(n || 0),
    usd: (n) => usd.format(n || 0),
    percent: (part, whole) => (whole > 0 ? `${((part * 100) / whole).toFixed(1)}%` : "0.0%"),
    /** Unix seconds to "Nov 22, 2026 14:05 UTC"; "—" for none. */
    time: (seconds) => {
      if (seconds === null || seconds === undefined) return "—";
      const d = new Date(seconds * 1000);
      return d.toLocaleString("en-US", { timeZone: "UTC", month: "short", day: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit", hour12: false }) + " UTC";
    },
    day: (seconds) => {
      if (seconds === null || seconds === undefined) return "—";
      return new Date(seconds * 1000).toLocaleDateString("en-US", { timeZone: "UTC", month: "short", day: "numeric", year: "numeric" });
    },
    /** "3 min ago" style; "Never" for none. */
    ago: (seconds) => {
      if (seconds === null || seconds === undefined) return "Never";
      const delta = Math.max(0, Date.now() / 1000 - seconds);
      if (delta < 60) return "Just now";
      if (delta < 3600) return `${Math.floor(delta / 60)} min ago`;
      if (delta < 86400) return `${Math.floor(delta / 3600)} h ago`;
      return `${Math.floor(delta / 86400)} d ago`;
    },
  };

  let toastTimer = null;
  function toast(message) {
    const node = document.getElementById("toast");
    node.textContent = message;
    node.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { node.hidden = true; }, 2600);
  }

  /** A message above the page content; kind is "error" or "info". */
  function flash(message, kind) {
    const node = document.getElementById("flash");
    if (!message) { node.hidden = true; return; }
    node.className = `flash flash-${kind || "info"}`;
    node.textContent = message;
    node.hidden = false;
  }

  function card(title, ...body) {
    return el("section", { class: "card" },
      title ? el("h2", { class: "card-title" }, title) : null,
      ...body);
  }

  function emptyState(title, text) {
    return el("div", { class: "empty" },
      el("div", { class: "empty-icon", "aria-hidden": "true" }, "∅"),
      el("p", { class: "empty-title" }, title),
      el("p", { class: "muted" }, text));
  }

  function start() {
    const page = document.body.dataset.page;
    for (const link of document.querySelectorAll("[data-nav]")) {
      if (link.dataset.nav === page) link.classList.add("active");
    }
    const view = document.getElementById("view");
    const actions = document.getElementById("page-actions");
    if (pages[page]) {
      pages[page](view, actions).catch((err) => flash(err.message, "error"));
    }
  }

  document.addEventListener("DOMContentLoaded", start);

  return { pages, el, api, format, toast, flash, card, emptyState };
})();
