// The playground: a prompt, a mode and the protect flags go to POST /admin/v1/playground; the
// answer's two highlighted texts are shown side by side with the SPEC 2.2 statistics.
"use strict";

(function (T) {
  const { el, api, format } = T;

  const EXAMPLE = [
    "Hello! I was wondering if you could please help me out with something. Basically, I really need you to carefully review the following function and explain what it does, and also please point out any bugs that you can find.",
    "",
    "```python",
    "def total(items):",
    "    return sum(i['price'] * i['qty'] for i in items)",
    "```",
    "",
    "The customer is {{customer_name}} and their order payload is {\"id\": 42, \"currency\": \"EUR\"}.",
    "It is very important that you keep your answer short and to the point, and do not repeat the code back to me.",
  ].join("\n");

  function checkbox(id, label, checked) {
    const input = el("input", { type: "checkbox", id, checked });
    return [input, el("label", { class: "check", for: id }, input, el("span", {}, label))];
  }

  function stat(label, value, note) {
    return el("div", { class: "stat stat-compact" }, el("p", { class: "stat-label" }, label), el("p", { class: "stat-value" }, value), note ? el("p", { class: "stat-note" }, note) : null);
  }

  function textPane(title, id, segments, legend) {
    const body = el("pre", { class: "diff", id }, segments.map((s) => s.kind === "kept" ? s.text : el("span", { class: `seg seg-${s.kind}` }, s.text)));
    return el("section", { class: "card pane" }, el("div", { class: "pane-head" }, el("h2", { class: "card-title" }, title), el("div", { class: "legend" }, legend)), body);
  }

  function legendItem(kind, label) {
    return el("span", { class: "legend-item" }, el("span", { class: `swatch seg-${kind}` }), label);
  }

  function renderResult(out, data) {
    const s = data.stats;
    const items = s.protectedItems;
    out.replaceChildren(
      el("div", { class: "stats stats-5", id: "playground-stats" },
        stat("Original tokens", format.int(s.originalTokens)),
        stat("Final tokens", format.int(s.finalTokens)),
        stat("Saved", format.int(s.savedTokens), `${s.savedPercent.toFixed(2)}% fewer tokens`),
        stat("Latency", `${s.latencyMs.toFixed(3)} ms`, `mode ${s.mode} · ${s.tokenizerUsed}`),
        stat("Integrity", s.integrityPassed ? "Passed" : "Failed", s.integrityPassed ? "every protected item restored" : "original text returned")),
      el("div", { class: "panes" },
        textPane("Original", "diff-original", data.highlight.original, [legendItem("removed", "removed"), legendItem("protected", "protected")]),
        textPane("Compressed", "diff-compressed", data.highlight.compressed, [legendItem("added", "rewritten"), legendItem("protected", "protected")])),
      T.card("Statistics",
        el("dl", { class: "facts facts-grid" },
          el("dt", {}, "Deterministic stages saved"), el("dd", {}, format.int(s.stageBreakdown.deterministicSaved)),
          el("dt", {}, "Density stages saved"), el("dd", {}, format.int(s.stageBreakdown.densitySaved)),
          el("dt", {}, "Protected items"), el("dd", {}, format.int(s.stageBreakdown.protectedItemsCount)),
          el("dt", {}, "Code blocks"), el("dd", {}, format.int(items.codeBlocks)),
          el("dt", {}, "JSON blocks"), el("dd", {}, format.int(items.jsonBlocks)),
          el("dt", {}, "Template variables"), el("dd", {}, format.int(items.variables))),
        el("details", { class: "raw" }, el("summary", {}, "Raw statistics (SPEC 2.2)"), el("pre", { class: "code", id: "raw-stats" }, JSON.stringify(s, null, 2)))));
  }

  T.pages.playground = async function (view) {
    const prompt = el("textarea", { id: "prompt", rows: "10", spellcheck: "false", placeholder: "Paste a prompt to compress…" });
    const mode = el("select", { id: "mode" }, ["conservative", "balanced", "aggressive"].map((m) => el("option", { value: m, selected: m === "balanced" }, m[0].toUpperCase() + m.slice(1))));
    const tokenizer = el("select", { id: "tokenizer" }, el("option", { value: "o200k_base" }, "o200k_base"), el("option", { value: "cl100k_base" }, "cl100k_base"));
    const [code, codeLabel] = checkbox("protect-code", "Code blocks", true);
    const [json, jsonLabel] = checkbox("protect-json", "JSON", true);
    const [vars, varsLabel] = checkbox("protect-vars", "Template variables", true);
    const counter = el("span", { class: "muted", id: "char-count" }, "0 / 50,000 characters");
    const out = el("div", { id: "playground-result" }, T.card(null, T.emptyState("Nothing compressed yet", "Paste a prompt (or load the example) and press Compress.")));
    const run = el("button", { type: "submit", class: "btn btn-primary", id: "compress" }, "Compress");
    prompt.addEventListener("input", () => { counter.textContent = `${format.int([...prompt.value].length)} / 50,000 characters`; });
    const form = el("form", {
      class: "card playground-form",
      onsubmit: async (event) => {
        event.preventDefault();
        T.flash(null);
        run.disabled = true;
        run.textContent = "Compressing…";
        try {
          const data = await api("POST", "/admin/v1/playground", {
            prompt: prompt.value, mode: mode.value, tokenizer: tokenizer.value,
            protectCodeBlocks: code.checked, protectJson: json.checked, protectVariables: vars.checked,
          });
          renderResult(out, data);
        } catch (err) {
          T.flash(err.message, "error");
        } finally {
          run.disabled = false;
          run.textContent = "Compress";
        }
      },
    },
      el("div", { class: "field" }, el("label", { for: "prompt" }, "Prompt"), prompt),
      el("div", { class: "toolbar" },
        el("div", { class: "field field-inline" }, el("label", { for: "mode" }, "Mode"), mode),
        el("div", { class: "field field-inline" }, el("label", { for: "tokenizer" }, "Tokenizer"), tokenizer),
        el("fieldset", { class: "protects" }, el("legend", {}, "Protect"), codeLabel, jsonLabel, varsLabel),
        el("div", { class: "toolbar-end" },
          counter,
          el("button", { type: "button", class: "btn", id: "load-example", onclick: () => { prompt.value = EXAMPLE; prompt.dispatchEvent(new Event("input")); } }, "Load example"),
          run)));
    view.replaceChildren(form, out);
  };
})(window.Terse);
