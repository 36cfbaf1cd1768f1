// The keys page: summary cards, the key table, the create dialog (the secret is shown once,
// with a copy button) and the revoke confirmation.
"use strict";

(function (T) {
  const { el, api, format } = T;

  const SCOPES = [
    ["full", "Full", "Compress endpoint and provider proxy"],
    ["compress_only", "Compress only", "POST /api/v1/compress only"],
    ["proxy_only", "Proxy only", "Provider proxy only"],
  ];
  const scopeLabel = (s) => (SCOPES.find(([v]) => v === s) || [s, s])[1];

  function badge(status) {
    return el("span", { class: `badge badge-${status}`, "data-status": status }, status[0].toUpperCase() + status.slice(1));
  }

  function field(label, input, hint) {
    return el("div", { class: "field" }, el("label", { for: input.id }, label), input, hint ? el("p", { class: "hint" }, hint) : null);
  }

  function dialog(...children) {
    const node = el("dialog", { class: "dialog" }, ...children);
    document.body.append(node);
    node.addEventListener("close", () => node.remove());
    node.showModal();
    return node;
  }

  async function copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
    } catch (_) {
      const area = el("textarea", { class: "offscreen" });
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    button.textContent = "Copied";
    button.classList.replace("btn-primary", "btn-success");
    T.toast("Key copied to the clipboard");
  }

  function showSecret(node, created) {
    node.replaceChildren(
      el("div", { class: "dialog-body" },
        el("h2", {}, "Your new API key"),
        el("div", { class: "callout callout-warning", role: "alert" },
          el("strong", {}, "Copy this key now. "),
          "You will not see it again: only a hash is stored. If you lose it, revoke it and create another."),
        el("div", { class: "secret-row" },
          el("code", { class: "secret", id: "new-secret" }, created.secret),
          el("button", { type: "button", class: "btn btn-primary", id: "copy-secret", onclick: (e) => copy(created.secret, e.currentTarget) }, "Copy")),
        el("dl", { class: "facts" },
          el("dt", {}, "Name"), el("dd", {}, created.key.name),
          el("dt", {}, "Scope"), el("dd", {}, scopeLabel(created.key.scope)),
          el("dt", {}, "Expires"), el("dd", {}, created.key.expires_at ? format.day(created.key.expires_at) : "Never"))),
      el("div", { class: "dialog-actions" },
        el("button", { type: "button", class: "btn", id: "secret-done", onclick: () => node.close() }, "I have stored it safely")));
  }

  function openCreate(reload) {
    const name = el("input", { id: "key-name", name: "name", required: true, maxlength: "100", placeholder: "e.g. Production backend" });
    const scope = el("select", { id: "key-scope", name: "scope" }, SCOPES.map(([v, label, what]) => el("option", { value: v }, `${label} — ${what}`)));
    const days = el("input", { id: "key-expiry", name: "expiresInDays", type: "number", min: "1", step: "1", placeholder: "Never" });
    const rpm = el("input", { id: "key-rpm", name: "rpm", type: "number", min: "1", step: "1", placeholder: "Server default" });
    const quota = el("input", { id: "key-quota", name: "monthlyQuota", type: "number", min: "1", step: "1", placeholder: "Server default" });
    const error = el("p", { class: "form-error", role: "alert", hidden: true });
    const number = (input) => (input.value.trim() === "" ? undefined : Number(input.value));
    let node;
    const form = el("form", {
      class: "dialog-body", id: "create-key-form",
      onsubmit: async (event) => {
        event.preventDefault();
        error.hidden = true;
        const submit = form.querySelector("button[type=submit]");
        submit.disabled = true;
        try {
          const created = await api("POST", "/admin/v1/keys", {
            name: name.value, scope: scope.value,
            expiresInDays: number(days), rpm: number(rpm), monthlyQuota: number(quota),
          });
          showSecret(node, created);
          reload();
        } catch (err) {
          error.textContent = err.message;
          error.hidden = false;
          submit.disabled = false;
        }
      },
    },
      el("h2", {}, "Create an API key"),
      el("p", { class: "muted" }, "Applications send the key as Authorization: Bearer or X-Service-Key."),
      field("Name", name),
      field("Scope", scope),
      el("div", { class: "field-row" },
        field("Expires in (days)", days, "Empty: never expires"),
        field("Requests per minute", rpm, "Empty: server default"),
        field("Monthly token quota", quota, "Tokens processed per month")),
      error,
      el("div", { class: "dialog-actions" },
        el("button", { type: "button", class: "btn", onclick: () => node.close() }, "Cancel"),
        el("button", { type: "submit", class: "btn btn-primary" }, "Create key")));
    node = dialog(form);
    name.focus();
  }

  function confirmRevoke(key, reload) {
    let node;
    const revoke = async (event) => {
      event.currentTarget.disabled = true;
      try {
        await api("POST", `/admin/v1/keys/${encodeURIComponent(key.id)}/revoke`);
        node.close();
        T.toast(`Key “${key.name}” revoked`);
        reload();
      } catch (err) {
        node.close();
        T.flash(err.message, "error");
      }
    };
    node = dialog(
      el("div", { class: "dialog-body" },
        el("h2", {}, "Revoke this key?"),
        el("p", {}, "Requests with ", el("code", {}, `${key.prefix}…`), ` (“${key.name}”) will be refused with 401 at once. This cannot be undone.`)),
      el("div", { class: "dialog-actions" },
        el("button", { type: "button", class: "btn", onclick: () => node.close() }, "Cancel"),
        el("button", { type: "button", class: "btn btn-danger", id: "confirm-revoke", onclick: revoke }, "Revoke key")));
  }

  function stat(label, value, note) {
    return el("div", { class: "stat" }, el("p", { class: "stat-label" }, label), el("p", { class: "stat-value" }, value), note ? el("p", { class: "stat-note" }, note) : null);
  }

  function table(keys, reload) {
    const rows = keys.map((key) => el("tr", { "data-key-id": key.id, "data-key-name": key.name },
      el("td", { class: "cell-name", title: `Created ${format.time(key.created_at)}` }, el("div", { class: "cell-main" }, key.name), el("div", { class: "cell-sub mono" }, key.id)),
      el("td", {}, el("code", { class: "prefix" }, `${key.prefix}…`)),
      el("td", {}, el("span", { class: "chip" }, scopeLabel(key.scope))),
      el("td", {}, badge(key.status)),
      el("td", {}, key.expires_at ? format.day(key.expires_at) : el("span", { class: "muted" }, "Never")),
      el("td", { title: key.last_used_at ? format.time(key.last_used_at) : "" }, format.ago(key.last_used_at)),
      el("td", { class: "num" },
        el("div", {}, key.effectiveRpm ? `${format.int(key.effectiveRpm)} req/min` : "No rate limit"),
        el("div", { class: "cell-sub" }, `${format.compact(key.monthUsedTokens)} / ${key.effectiveMonthlyQuota ? format.compact(key.effectiveMonthlyQuota) : "∞"} tokens`)),
      el("td", { class: "actions" },
        el("a", { class: "btn btn-small", href: `/usage?key=${encodeURIComponent(key.id)}` }, "Usage"),
        key.status === "revoked" ? null : el("button", { type: "button", class: "btn btn-small btn-danger-ghost", "data-action": "revoke", onclick: () => confirmRevoke(key, reload) }, "Revoke"))));
    return el("div", { class: "table-wrap" }, el("table", { class: "table", id: "keys-table" },
      el("thead", {}, el("tr", {}, ["Name", "Key", "Scope", "Status", "Expires", "Last used", "Limits", ""].map((h, i) => el("th", { class: i === 6 ? "num" : "" }, h)))),
      el("tbody", {}, rows)));
  }

  T.pages.keys = async function (view, actions) {
    const reload = async () => {
      const { keys } = await api("GET", "/admin/v1/keys");
      const count = (s) => keys.filter((k) => k.status === s).length;
      view.replaceChildren(
        el("div", { class: "stats" },
          stat("Active keys", format.int(count("active"))),
          stat("Expired", format.int(count("expired"))),
          stat("Revoked", format.int(count("revoked"))),
          stat("All keys", format.int(keys.length))),
        T.card("Keys",
          keys.length === 0
            ? T.emptyState("No API keys yet", "Create a key to call the compress endpoint or the proxy.")
            : table(keys, reload)));
    };
    actions.replaceChildren(el("button", { type: "button", class: "btn btn-primary", id: "create-key", onclick: () => openCreate(reload) }, "+ Create key"));
    await reload();
  };
})(window.Terse);
