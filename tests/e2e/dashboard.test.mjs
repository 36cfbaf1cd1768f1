// The dashboard in a real browser: playwright-core drives Debian's Chromium against the real
// `terse serve` (temporary data directory, free 127.0.0.1 ports). Screenshots of every page go
// to tests/artifacts/ for a human to look at.
//
// Run: node --test tests/e2e/   (after `cargo build --release`; TERSE_BIN overrides the binary)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const BIN = process.env.TERSE_BIN || path.join(ROOT, "target", "release", "terse");
const ARTIFACTS = path.join(ROOT, "tests", "artifacts");
const ADMIN_TOKEN = "e2e-admin-token-0123456789abcdef";
const CHROMIUM = process.env.CHROMIUM_BIN || "/usr/bin/chromium";

let server;
let context;
let page;
let tmp;
let ports;
const consoleErrors = [];

const givenPorts = new Set();

// A loopback port free a moment ago and not handed out before by this file: two quick probes can
// get the same port back, and the service must not get one port for both of its listeners.
async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const probe = net.createServer();
      probe.once("error", reject);
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });
    if (!givenPorts.has(port)) {
      givenPorts.add(port);
      return port;
    }
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value or `limitMs` passes. */
async function eventually(what, check, limitMs = 15000) {
  const deadline = Date.now() + limitMs;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await check();
      if (last) return last;
    } catch (err) {
      last = err;
    }
    await sleep(150);
  }
  throw new Error(`timed out waiting for ${what} (last: ${last})`);
}

const adminUrl = (p) => `http://127.0.0.1:${ports.admin}${p}`;
const publicUrl = (p) => `http://127.0.0.1:${ports.public}${p}`;

async function shot(name) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

function compress(secret, prompt) {
  return fetch(publicUrl("/api/v1/compress"), {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
    body: JSON.stringify({ prompt }),
  });
}

before(async () => {
  assert.ok(fs.existsSync(BIN), `build the binary first: ${BIN}`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "terse-e2e-"));
  ports = { public: await freePort(), admin: await freePort() };
  const log = fs.openSync(path.join(tmp, "terse.log"), "a");
  server = spawn(BIN, ["serve"], {
    env: {
      PATH: process.env.PATH,
      SERVICE_SERVER_PUBLIC_LISTEN: `127.0.0.1:${ports.public}`,
      SERVICE_SERVER_ADMIN_LISTEN: `127.0.0.1:${ports.admin}`,
      SERVICE_STORAGE_DATA_DIR: path.join(tmp, "data"),
      SERVICE_ADMIN_TOKEN: ADMIN_TOKEN,
      SERVICE_SERVER_THREADS: "2",
      // Usage is written in batches: flush often so the dashboard sees it quickly.
      SERVICE_USAGE_FLUSH_INTERVAL_MS: "50",
    },
    stdio: ["ignore", log, log],
  });
  await eventually("terse to listen", async () => {
    const health = await fetch(publicUrl("/healthz"));
    const login = await fetch(adminUrl("/login"));
    return health.ok && login.ok;
  }, 30000);

  context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(tmp, "profile-")), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    viewport: { width: 1360, height: 900 },
    timeout: 60000,
  });
  page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(15000);
  page.on("console", (msg) => { if (msg.type() === "error") consoleErrors.push(msg.text()); });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
});

after(async () => {
  if (context) await context.close();
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await Promise.race([new Promise((r) => server.once("exit", r)), sleep(10000)]);
    if (server.exitCode === null) server.kill("SIGKILL");
  }
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test("the dashboard: sign-in, keys, usage, playground, revocation, CSRF", async (t) => {
  let secret;
  let keyId;

  await t.test("signed out, a page sends the browser to the sign-in form with a CSP", async () => {
    const response = await page.goto(adminUrl("/keys"));
    assert.equal(new URL(page.url()).pathname, "/login");
    const csp = response.headers()["content-security-policy"];
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    await shot("01-sign-in");
  });

  await t.test("a wrong admin token is refused with a clear message", async () => {
    await page.fill("#token", "not-the-admin-token");
    const [response] = await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
    assert.equal(response.status(), 401);
    assert.match(await page.textContent("#login-error"), /not valid/);
    assert.equal((await context.cookies()).length, 0, "no session for a wrong token");
    await shot("02-sign-in-refused");
  });

  await t.test("the admin token signs in with an HttpOnly, SameSite=Strict cookie", async () => {
    await page.fill("#token", ADMIN_TOKEN);
    await Promise.all([page.waitForURL("**/keys"), page.click("button[type=submit]")]);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "terse_admin");
    assert.ok(session, `session cookie set: ${JSON.stringify(cookies.map((c) => c.name))}`);
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, "Strict");
    assert.equal(session.path, "/");
    assert.ok(!page.url().includes(ADMIN_TOKEN), "the token is never in a URL");
    await page.waitForSelector(".empty");
    await shot("03-keys-empty");
  });

  await t.test("a key is created, its secret shown once, and listed", async () => {
    await page.click("#create-key");
    await page.fill("#key-name", "Production backend");
    await page.selectOption("#key-scope", "compress_only");
    await page.fill("#key-expiry", "30");
    await page.fill("#key-rpm", "120");
    await page.fill("#key-quota", "2000000");
    await shot("04-create-key-dialog");
    await page.click("#create-key-form button[type=submit]");
    secret = (await page.textContent("#new-secret")).trim();
    assert.match(secret, /^svc_live_[A-Za-z0-9]{32,}$/);
    assert.match(await page.textContent(".dialog"), /You will not see it again/);
    await page.click("#copy-secret");
    await page.waitForSelector("#copy-secret.btn-success");
    await shot("05-key-secret-shown-once");
    await page.click("#secret-done");
    const row = page.locator('#keys-table tr[data-key-name="Production backend"]');
    await row.waitFor();
    keyId = await row.getAttribute("data-key-id");
    assert.match(await row.textContent(), new RegExp(secret.slice(0, 13)));
    assert.ok(!(await row.textContent()).includes(secret), "the list never shows the secret");
    assert.equal(await row.locator("[data-status]").getAttribute("data-status"), "active");
    assert.match(await row.textContent(), /Compress only/);
    // A second key, so the list and the per-key usage have something to tell apart.
    await page.click("#create-key");
    await page.fill("#key-name", "Staging");
    await page.click("#create-key-form button[type=submit]");
    await page.waitForSelector("#new-secret");
    await page.click("#secret-done");
    await page.locator('#keys-table tr[data-key-name="Staging"]').waitFor();
  });

  await t.test("the key works on /api/v1/compress and usage rises on the dashboard", async () => {
    const prompts = [
      "Please could you kindly summarize the following text for me. It is really very important that you do this well.",
      "I would really like you to basically just explain, in a very simple way, how `cargo build --release` works.",
      "Hello! Could you please, if at all possible, translate {{greeting}} into French for the customer?",
    ];
    for (const prompt of prompts) {
      const response = await compress(secret, prompt);
      assert.equal(response.status, 200, await response.text());
    }
    const own = await eventually("usage to reach the store", async () => {
      const r = await fetch(publicUrl("/api/v1/usage"), { headers: { Authorization: `Bearer ${secret}` } });
      const body = await r.json();
      return body.totals.requests === 3 ? body : null;
    });
    await page.goto(adminUrl(`/usage?key=${keyId}`));
    await eventually("the usage page to show 3 requests", async () => {
      await page.click("#usage-refresh");
      await page.waitForSelector(`.stats[data-key="${keyId}"]`);
      return (await page.textContent("#stat-requests .stat-value")) === "3";
    });
    const shown = async (id) => (await page.textContent(`#${id} .stat-value`)).trim();
    const int = (n) => new Intl.NumberFormat("en-US").format(n);
    const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 });
    assert.equal(await shown("stat-requests"), int(own.totals.requests));
    assert.equal(await shown("stat-saved"), int(own.totals.savedTokens));
    assert.equal(await shown("stat-usd"), usd.format(own.totals.usdSaved));
    assert.equal(await shown("stat-output"), int(own.totals.outputSavedEst));
    const percent = own.totals.originalTokens > 0 ? ((own.totals.savedTokens * 100) / own.totals.originalTokens).toFixed(1) : "0.0";
    assert.equal(await shown("stat-percent"), `${percent}%`);
    assert.equal(await page.locator("#models-table tbody tr").count(), own.topModels.length);
    assert.equal(await page.locator(".chart").count(), 4);
    await shot("06-usage-one-key");
    await page.selectOption("#usage-key", "");
    await page.waitForSelector('.stats[data-key="all"]');
    assert.equal(await shown("stat-requests"), "3");
    await page.locator(`#by-key-table tr[data-key-id="${keyId}"]`).waitFor();
    await shot("07-usage-all-keys");
  });

  await t.test("the playground shows both texts with removals and protected items", async () => {
    await page.goto(adminUrl("/playground"));
    await shot("08-playground-empty");
    await page.click("#load-example");
    await page.selectOption("#mode", "aggressive");
    await page.click("#compress");
    await page.waitForSelector("#playground-stats");
    const original = await page.textContent("#diff-original");
    assert.equal(original, await page.inputValue("#prompt"), "the original pane is the prompt");
    assert.ok(await page.locator("#diff-original .seg-protected").count() >= 2, "protected items marked");
    assert.ok(await page.locator("#diff-compressed .seg-protected").count() >= 2);
    assert.match(await page.textContent("#diff-compressed"), /\{\{customer_name\}\}/);
    const stats = JSON.parse(await page.textContent("#raw-stats"));
    for (const field of ["mode", "originalTokens", "finalTokens", "savedTokens", "savedPercent", "latencyMs", "tokenizerUsed", "integrityPassed", "stageBreakdown", "protectedItems"]) {
      assert.ok(field in stats, `stats has ${field}`);
    }
    assert.equal(stats.mode, "aggressive");
    assert.equal(stats.protectedItems.codeBlocks, 1);
    await shot("09-playground-result");
  });

  await t.test("a change without the CSRF token is refused", async () => {
    const cookie = (await context.cookies()).find((c) => c.name === "terse_admin");
    const headers = { Cookie: `terse_admin=${cookie.value}`, "Content-Type": "application/json" };
    const body = JSON.stringify({ name: "forged" });
    const without = await fetch(adminUrl("/admin/v1/keys"), { method: "POST", headers, body });
    assert.equal(without.status, 403);
    assert.equal((await without.json()).error.code, "csrf_token_invalid");
    const wrong = await fetch(adminUrl("/admin/v1/keys"), { method: "POST", headers: { ...headers, "X-CSRF-Token": "0".repeat(64) }, body });
    assert.equal(wrong.status, 403);
    // The same from the page itself: the browser's fetch with the cookie but no token.
    const fromPage = await page.evaluate(async () => (await fetch("/admin/v1/keys", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "forged" }) })).status);
    assert.equal(fromPage, 403);
    // Reading needs the session; scripts keep the bearer token.
    assert.equal((await fetch(adminUrl("/admin/v1/keys"))).status, 401);
    assert.equal((await fetch(adminUrl("/admin/v1/keys"), { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).status, 200);
    const listed = await (await fetch(adminUrl("/admin/v1/keys"), { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    assert.ok(!listed.keys.some((k) => k.name === "forged"), "no forged key was created");
  });

  await t.test("revoking asks for confirmation, and the key is then refused with 401", async () => {
    await page.goto(adminUrl("/keys"));
    const row = page.locator(`#keys-table tr[data-key-id="${keyId}"]`);
    await row.locator('[data-action="revoke"]').click();
    await page.waitForSelector("#confirm-revoke");
    await shot("10-revoke-confirmation");
    await page.click("#confirm-revoke");
    await eventually("the row to show revoked", async () => (await row.locator("[data-status]").getAttribute("data-status")) === "revoked");
    await shot("11-keys-after-revoke");
    const refused = await compress(secret, "Please summarize this.");
    assert.equal(refused.status, 401);
    assert.equal((await refused.json()).error.code, "revoked_api_key");
  });

  await t.test("the pages hold up on a phone-sized screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(adminUrl("/usage"));
    await page.waitForSelector(".stats");
    await shot("12-usage-mobile");
    await page.setViewportSize({ width: 1360, height: 900 });
  });

  await t.test("signing out ends the session", async () => {
    await page.goto(adminUrl("/keys"));
    await Promise.all([page.waitForURL("**/login"), page.click("#sign-out")]);
    await page.goto(adminUrl("/usage"));
    assert.equal(new URL(page.url()).pathname, "/login");
  });

  await t.test("no script error or CSP violation happened", () => {
    assert.deepEqual(consoleErrors.filter((e) => !/401|403|Failed to load resource/.test(e)), []);
  });
});
