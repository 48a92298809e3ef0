// GET /console against this server (embedded PostgreSQL, or DATABASE_URL's): how it is served
// (compressed, cached, its Content-Security-Policy), then the console in Debian's chromium: every
// page passes axe-core and is screenshotted (packages/console/test-output/screenshots/server-*.png);
// a failed request shows its offending field; a secret is rotated; a webhook window is recovered;
// a return reason with markup shows as text; a wrong or expired key is asked again with the
// problem's text; a 429 says when the SDK retries; the server going away shows a banner that goes
// by itself when it is back; and no request leaves the origin.
//
// The browser helpers are @oisr/console's (its "./testing" export). @oisr/console is not in this
// package's dependencies: it depends on @oisr/sdk, whose tests depend on this package, and turbo
// would see a cycle. turbo.json makes this package's tests wait for @oisr/console's build instead.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import {
  CHROMIUM,
  foreignRequests,
  launch,
  openPage,
  type Recorded,
  screenshot,
  seriousViolations,
  signIn,
} from "@oisr/console/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import { freshDatabaseEnv, waitFor } from "../src/webhooks/test-support.ts";

const MARKUP = `<img src=x onerror="window.__xss=1">`;

let server: RunningServer;
let config: ReturnType<typeof loadConfig>;
let origin: string;
let token: string;
let accountId: string;
let dataDir: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
let receiver: Server;
let failedRequestId: string;

async function freePort(): Promise<number> {
  const probe = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  key = token,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${origin}/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function ingestAndWait(path: string, body: unknown): Promise<{ request_id: string; status: string }> {
  const ack = await api<{ request_id: string }>("POST", path, body);
  expect(ack.status).toBe(202);
  return waitFor(
    async () => {
      const record = await api<{ request_id: string; status: string }>(
        "GET",
        `/requests/${ack.body.request_id}`,
      );
      return ["succeeded", "failed", "dead"].includes(record.body.status) ? record.body : undefined;
    },
    `request ${ack.body.request_id}`,
    30_000,
  );
}

const now = () => new Date().toISOString();
const returnOf = (externalId: string, quantity: number, reason?: string) => ({
  external_id: externalId,
  order_id: "CONSOLE-1",
  ...(reason ? { reason } : {}),
  requested_at: now(),
  source_updated_at: now(),
  items: [{ line_id: "1", sku: "SKU-1", quantity, reason_code: "damaged" }],
});

beforeAll(async () => {
  // The outage test stops this server and starts another on the same port and data: a database
  // that outlives the process (PostgreSQL's, or PGlite in a directory rather than in memory).
  const db = process.env.DATABASE_URL ? await freshDatabaseEnv() : undefined;
  dropDatabase = db?.drop;
  dataDir = db ? undefined : mkdtempSync(join(tmpdir(), "oisr-console-"));
  config = loadConfig({
    PORT: String(await freePort()),
    LOG_LEVEL: "silent",
    OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
    ...(db ? db.env : { OISR_DATA_DIR: dataDir as string }),
  });
  server = await startServer(config);
  origin = `http://127.0.0.1:${config.port}`;
  ({ token, account_id: accountId } = await server.services.accounts.createAccount("console-test"));
  receiver = createHttpServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const sub = await api("POST", "/webhook_subscriptions", {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    events: ["return.created", "request.failed"],
    description: "console test receiver",
  });
  expect(sub.status).toBe(201);
  await ingestAndWait("/ingest/orders", {
    orders: [
      {
        external_id: "CONSOLE-1",
        source: "web",
        currency: "EUR",
        placed_at: now(),
        source_updated_at: now(),
        ship_to: { name: "Ada", line1: "1 Main St", city: "Berlin", country: "DE" },
        lines: [{ line_id: "1", sku: "SKU-1", quantity: 2, unit_price: "19.99" }],
      },
    ],
  });
  const failed = await ingestAndWait("/ingest/returns", { returns: [returnOf("RMA-TOO-MANY", 5)] });
  expect(failed.status).toBe("failed");
  failedRequestId = failed.request_id;
  const xss = await ingestAndWait("/ingest/returns", { returns: [returnOf("RMA-XSS", 1, MARKUP)] });
  expect(xss.status).toBe("succeeded");
}, 120_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await dropDatabase?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("GET /console", () => {
  it("serves the page compressed, revalidated, with a same-origin Content-Security-Policy", async () => {
    const page = await get("/console", { "accept-encoding": "br, gzip" });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(page.headers["cache-control"]).toBe("no-cache");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain("unsafe");
    const html = brotliDecompressSync(page.body).toString("utf8");
    expect(html).toContain('<div id="app">');
    const again = await get("/console/", {
      "accept-encoding": "br, gzip",
      "if-none-match": String(page.headers.etag),
    });
    expect(again.status).toBe(304);
  });

  it("serves its hashed assets for a year, and 404s what it does not have", async () => {
    const html = (await get("/console")).body.toString("utf8");
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await get(script as string, { "accept-encoding": "gzip" });
    expect(asset.status).toBe(200);
    expect(asset.headers["content-encoding"]).toBe("gzip");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers["content-type"]).toBe("application/javascript; charset=utf-8");
    expect((await get("/console/assets/nope.js")).status).toBe(404);
    expect((await get("/console/mock.html")).status).toBe(404);
  });
});

describe.skipIf(!CHROMIUM)("the console in headless chromium (needs Debian chromium)", () => {
  let browser: Browser;
  let session: Recorded;
  let page: Page;
  const url = (hash = "") => `${origin}/console${hash}`;

  beforeAll(async () => {
    browser = await launch();
    session = await openPage(browser);
    page = session.page;
  });
  afterAll(() => browser?.close());

  /** Signs in with the account's key unless the page is signed in already. */
  async function ensureSignedIn(): Promise<void> {
    const nav = page.getByRole("navigation", { name: "Pages", exact: true });
    await Promise.race([nav.waitFor(), page.getByLabel("API key").waitFor()]);
    if (!(await nav.isVisible())) await signIn(page, token);
    await nav.waitFor();
  }

  it("asks again, with the problem's text, for a wrong key", async () => {
    await page.goto(url());
    await signIn(page, "oisr_not_a_key_of_this_server");
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/\S/);
    expect(await page.getByLabel("API key").isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem("oisr.console.key"))).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "server-sign-in-refused");
  });

  it("asks again when the key expires, saying so", async () => {
    const key = await api<{ secret: string }>("POST", "/api_keys", {
      name: "console expiry test",
      permissions: ["requests:read"],
      expires_at: new Date(Date.now() + 4_000).toISOString(),
    });
    expect(key.status).toBe(201);
    await signIn(page, key.body.secret);
    await page.getByRole("heading", { level: 1, name: "Requests" }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    await page.getByRole("link", { name: "Queue health", exact: true }).click();
    await expect.poll(() => page.getByRole("alert").textContent(), { timeout: 15_000 }).toMatch(/expire/i);
    expect(await page.getByLabel("API key").isVisible()).toBe(true);
  });

  it.each([
    ["requests", "Requests", "RMA-TOO-MANY"],
    ["orders", "Orders", "CONSOLE-1"],
    ["returns", "Returns", "RMA-XSS"],
    ["events", "Events", "return.created"],
    ["webhooks", "Webhooks", "console test receiver"],
    ["queue", "Queue health", "Open requests"],
  ])("#/%s shows %s, without serious axe violations", async (path, title, seeded) => {
    await ensureSignedIn();
    await page.getByRole("link", { name: title, exact: true }).click();
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    if (path !== "requests")
      await page.locator("main :is(td, summary, dt, div)", { hasText: seeded }).first().waitFor();
    else await page.locator("main td", { hasText: "failed" }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `server-${path}`);
  });

  it("finds the failed request and marks the offending field with the problem's text", async () => {
    await page.goto(url("#/requests?status=failed"));
    await ensureSignedIn();
    await page.getByRole("link", { name: failedRequestId }).click();
    const mark = page.locator("mark.offending");
    await mark.first().waitFor();
    // Drawn on the submitted body (GET /requests/{id}/body): the RMA's own values around the
    // marked quantity, 5 returned of 2 ordered, with the rule's message under it.
    const body = page.getByRole("region", { name: "Submitted body with rejected fields" });
    await body.waitFor();
    expect(await body.locator("mark.offending").allTextContents()).toEqual([`"quantity"`]);
    // Member order is the stored body's (PostgreSQL's jsonb keeps its own), so each part alone.
    const text = await body.innerText();
    expect(text).toMatch(/^"returns"\s*\[0\]/);
    expect(text).toContain(`"external_id": "RMA-TOO-MANY"`);
    expect(text).toMatch(/"items"\s*\[0\][\s\S]*"quantity"\s*: 5/);
    expect(await body.locator("ul.field-errors").first().innerText()).toMatch(/\S/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "server-request-failed");
  });

  it("sends the failed request again, one and then in bulk over the list's filter", async () => {
    await page.goto(url(`#/requests/${failedRequestId}`));
    await ensureSignedIn();
    await page.getByRole("button", { name: "Send again" }).click();
    const sent = page.getByRole("status").getByRole("link");
    await sent.waitFor();
    const retryId = (await sent.textContent()) ?? "";
    await sent.click();
    // The same body fails again (docs/product.md §4): the retry ends failed, linked to the original.
    await expect
      .poll(() => page.locator(".facts .badge").first().textContent(), { timeout: 30_000 })
      .toBe("failed");
    await page.getByRole("link", { name: failedRequestId }).waitFor();
    expect(await page.locator("mark.offending").allTextContents()).toEqual([`"quantity"`]);
    await screenshot(page, "server-request-retried");
    await page.goto(url("#/requests?status=failed"));
    // The original was retried already: the bulk form sends the retry (the one not yet retried).
    await page.getByRole("button", { name: /^Send again every failed request/ }).click();
    await expect
      .poll(() => page.locator(".bulk .progress").textContent(), { timeout: 30_000 })
      .toBe("Done: 1 request sent again.");
    const original = await api<{ retried_by: string }>("GET", `/requests/${failedRequestId}`);
    expect(original.body.retried_by).toBe(retryId);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "server-requests-bulk-retry");
  });

  it("rotates a subscription's secret", async () => {
    await page.goto(url("#/webhooks"));
    await ensureSignedIn();
    await page.locator("tbody a").first().click();
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect.poll(() => page.locator(".secret-value").textContent()).toMatch(/^whsec_/);
    await screenshot(page, "server-webhook-rotated");
  });

  it("recovers a window of events and follows it to completed", async () => {
    const since = new Date(Date.now() - 3_600_000);
    const local = new Date(since.getTime() - since.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel("Events from").fill(local);
    await page.getByRole("button", { name: "Recover", exact: true }).click();
    await expect
      .poll(() => page.locator(".progress").textContent(), { timeout: 30_000 })
      .toMatch(/completed — [1-9]\d* events? queued/);
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh attempts" }).click();
          return page.locator(".timeline").innerText();
        },
        { timeout: 30_000 },
      )
      .toMatch(/succeeded\s+return\.created attempt 1 \(recover\)/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "server-webhook-recovered");
  });

  it("shows a return reason containing markup as text", async () => {
    await page.goto(url("#/returns"));
    await ensureSignedIn();
    await page.getByLabel("Return id or external id (RMA)").fill("RMA-XSS");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect.poll(() => page.locator(".found .reason").textContent()).toBe(MARKUP);
    expect(await page.locator(".found img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  });

  it("says when it retries after a 429", async () => {
    const limited = await server.services.accounts.createToken(accountId);
    expect(limited).not.toBeNull();
    await server.services.accounts.setRateLimits(accountId, { requests_read: 2 });
    try {
      const other = await openPage(browser);
      await other.page.goto(url("#/queue"));
      await signIn(other.page, limited?.token as string);
      await expect
        .poll(() => other.page.locator(".notice").textContent(), { timeout: 20_000 })
        .toMatch(/Rate limited \(429\): retrying in \d+ (s|min), at /);
      await screenshot(other.page, "server-rate-limited");
      expect(foreignRequests(other.requests, origin)).toEqual([]);
      await other.page.context().close();
    } finally {
      await server.services.accounts.setRateLimits(accountId, null);
    }
  });

  it("shows a banner while the server is away and recovers by itself", async () => {
    await page.goto(url("#/requests"));
    await ensureSignedIn();
    await page.locator("main td", { hasText: "failed" }).first().waitFor();
    await server.close();
    await page.getByRole("link", { name: "Queue health", exact: true }).click();
    await page.locator(".banner").waitFor({ timeout: 30_000 });
    expect(await page.locator(".banner").textContent()).toContain("cannot be reached");
    await screenshot(page, "server-away");
    server = await startServer(config);
    await page.locator(".banner").waitFor({ state: "detached", timeout: 30_000 });
    // The page reloads what it shows: the queue's figures arrive without a click.
    await page.getByLabel("Queue figures").waitFor({ timeout: 15_000 });
  }, 120_000);

  it("made no request to another origin", () => {
    expect(session.requests.length).toBeGreaterThan(10);
    expect(foreignRequests(session.requests, origin)).toEqual([]);
    // What the browser logs for answers the tests provoked (401, 429, the outage) and nothing else.
    const unexpected = session.errors.filter(
      (e) => !/Failed to load resource|ERR_CONNECTION_REFUSED|net::ERR_/.test(e),
    );
    expect(unexpected).toEqual([]);
  });
});
