// The console on the mock, as a person gets it from a clone: `oisr-mock --console` (the mock's bin,
// built) serves dist/mock, and the page runs @oisr/mock-server in its service worker with demo
// data. Driven in Debian's chromium: every page passes axe-core (no serious or critical violation)
// and is screenshotted (test-output/screenshots/mock-*.png); the main journeys work; and no
// request leaves the page's origin — the API calls are answered in the browser.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHROMIUM,
  foreignRequests,
  launch,
  openPage,
  type Recorded,
  screenshot,
  seriousViolations,
  signIn,
} from "./support/browser.ts";

const BIN = fileURLToPath(new URL("../../mock-server/bin/oisr-mock.js", import.meta.url));
const MARKUP = `<img src=x onerror="window.__xss=1">`;

describe.skipIf(!CHROMIUM)("the console on the in-browser mock (needs Debian chromium)", () => {
  let mock: ChildProcess;
  let consoleUrl: string;
  let origin: string;
  let browser: Browser;
  let session: Recorded;
  let page: Page;

  beforeAll(async () => {
    mock = spawn(process.execPath, [BIN, "--console", "--port", "0"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    consoleUrl = await new Promise<string>((resolve, reject) => {
      mock.once("exit", (code) => reject(new Error(`oisr-mock exited with ${code}`)));
      createInterface({ input: mock.stdout as NodeJS.ReadableStream }).on("line", (line) => {
        const url = /^Console: (\S+)/.exec(line)?.[1];
        if (url) resolve(url);
      });
    });
    origin = new URL(consoleUrl).origin;
    browser = await launch();
    session = await openPage(browser);
    page = session.page;
    await page.goto(consoleUrl);
    // The key field appears once the worker runs and the demo data is seeded.
    await page.getByLabel("API key").waitFor({ timeout: 60_000 });
    await screenshot(page, "mock-sign-in");
    expect(await page.getByLabel("API key").inputValue()).toMatch(/^oisr_/);
    await signIn(page, await page.getByLabel("API key").inputValue());
    await page.getByRole("navigation", { name: "Pages", exact: true }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    mock?.kill();
  });

  it.each([
    ["requests", "Requests", "dead"],
    ["orders", "Orders", "SO-1001"],
    ["returns", "Returns", "RMA-2001"],
    ["events", "Events", "request.failed"],
    ["webhooks", "Webhooks", "receiver.example.com"],
    ["queue", "Queue health", "Open requests"],
  ])(
    "#/%s shows %s with the seeded data, keyboard-reachable and without serious axe violations",
    async (path, title, seeded) => {
      await page.getByRole("link", { name: title, exact: true }).click();
      await expect.poll(() => page.url()).toContain(`#/${path}`);
      await page.getByRole("heading", { level: 1, name: title }).waitFor();
      // In the page's content (not the filters' options).
      await page.locator("main :is(td, summary, dt)", { hasText: seeded }).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `mock-${path}`);
    },
  );

  it("is usable from the keyboard: sign-in, navigation, filters, skip link", async () => {
    const other = await openPage(browser);
    const p = other.page;
    try {
      await p.goto(consoleUrl);
      await p.getByLabel("API key").waitFor({ timeout: 60_000 });
      await p.keyboard.press("Tab");
      expect(await p.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("key");
      await p.keyboard.press("Enter"); // the field holds the mock's key
      await p.getByRole("heading", { level: 1, name: "Requests" }).waitFor();
      // The new page's content has the focus (moved there once the page has rendered); the header is behind it.
      await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe("main");
      await p.keyboard.press("Shift+Tab");
      expect(await p.evaluate(() => document.activeElement?.textContent)).toBe("Sign out");
      await p.keyboard.press("Shift+Tab");
      expect(await p.evaluate(() => document.activeElement?.textContent)).toBe("Queue health");
      await p.keyboard.press("Enter");
      await p.getByRole("heading", { level: 1, name: "Queue health" }).waitFor();
      // Enter on the focused link, pressed again if the page did not change: one run in ten to
      // fourteen the key press was lost (the queue page re-renders every few seconds; whether it
      // replaced the link under the focus is not established). Still only the keyboard.
      const requestsHeading = p.getByRole("heading", { level: 1, name: "Requests" });
      await expect
        .poll(
          async () => {
            if (!(await requestsHeading.isVisible()))
              await p.getByRole("link", { name: "Requests", exact: true }).press("Enter");
            return requestsHeading.isVisible();
          },
          { timeout: 15_000, interval: 500 },
        )
        .toBe(true);
      // The focus moves to the content after the heading renders: a Tab sent before it went
      // elsewhere on a loaded machine (CI, 2026-11-28).
      await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe("main");
      await p.keyboard.press("Tab"); // into the content: the filter form's first field
      expect(await p.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("status");
      // The list loaded first, then the filter chosen and checked before Apply: on a quiet machine
      // one run in ten pressed Apply without status=dead reaching the URL.
      await expect.poll(() => p.locator("main tbody tr").count()).toBeGreaterThan(0);
      await p.getByLabel("Status").selectOption("dead");
      await expect.poll(() => p.getByLabel("Status").inputValue()).toBe("dead");
      await p.getByRole("button", { name: "Apply" }).press("Enter");
      await expect.poll(() => p.url(), { timeout: 5000 }).toContain("status=dead");
      await expect.poll(() => p.locator("main tbody tr").count()).toBe(1);
      await p.getByRole("button", { name: "Skip to content" }).press("Enter");
      expect(await p.evaluate(() => document.activeElement?.id)).toBe("main");
      expect(p.url()).toContain("#/requests?status=dead");
      expect(foreignRequests(other.requests, origin)).toEqual([]);
    } finally {
      await p.context().close();
    }
  });

  it("finds the failed request and marks the offending field with the problem's text", async () => {
    await page.goto(`${consoleUrl}#/requests?status=failed`);
    await page.locator("tbody a").first().click();
    const mark = page.locator("mark.offending");
    await mark.first().waitFor();
    // Drawn on the submitted body (GET /requests/{id}/body): returns → [0] → items → [0] → the
    // marked "quantity" with the value sent (5 returned of 2 ordered) and the rule's message under it.
    const body = page.getByRole("region", { name: "Submitted body with rejected fields" });
    await body.waitFor();
    expect(await body.locator("mark.offending").allTextContents()).toEqual([`"quantity"`]);
    const text = await body.innerText();
    expect(text).toMatch(/^"returns"\s*\[0\]/);
    expect(text).toMatch(/"external_id": "RMA-[^"]+"/);
    expect(text).toMatch(/"items"\s*\[0\][\s\S]*"quantity"\s*: 5/);
    expect(await body.locator("ul.field-errors").first().innerText()).toMatch(/quantity/i);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "mock-request-failed");
  });

  it("sends the dead request again; the retry succeeds and the two link to each other", async () => {
    await page.goto(`${consoleUrl}#/requests?status=dead`);
    await page.locator("tbody a").first().click();
    await page.getByRole("heading", { level: 1, name: /^Request / }).waitFor();
    const original = page.url();
    await page.getByRole("button", { name: "Send again" }).click();
    const sent = page.getByRole("status").getByRole("link");
    await sent.waitFor();
    await sent.click();
    // The new request's page follows it until it ends.
    await expect
      .poll(() => page.locator(".facts .badge").first().textContent(), { timeout: 20_000 })
      .toBe("succeeded");
    expect(await page.getByText("A retry of").isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "mock-request-retried");
    await page.goto(original);
    await page.getByText("Sent again as").first().waitFor();
    // The hash route changes in place: the original's record replaces the retry's as it arrives.
    await expect
      .poll(() => page.locator(".facts .badge").first().textContent(), { timeout: 10_000 })
      .toBe("dead");
  });

  it("rotates a subscription's secret and shows the new one once", async () => {
    await page.goto(`${consoleUrl}#/webhooks`);
    await page.locator("tbody a").first().click();
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect.poll(() => page.locator(".secret-value").textContent()).toMatch(/^whsec_/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "mock-webhook-rotated");
  });

  it("recovers a window of events and follows the recovery to completed", async () => {
    await page.getByLabel("Events from").fill(localInput(Date.now() - 3_600_000));
    await page.getByRole("button", { name: "Recover", exact: true }).click();
    await expect
      .poll(() => page.locator(".progress").textContent(), { timeout: 20_000 })
      .toMatch(/completed — [1-9]\d* events? queued/);
    await page.getByRole("button", { name: "Refresh attempts" }).click();
    await expect.poll(() => page.locator(".timeline").innerText()).toContain("(recover)");
    await screenshot(page, "mock-webhook-recovered");
  });

  it("shows a return reason containing markup as text", async () => {
    const status = await page.evaluate(async (reason) => {
      const key = sessionStorage.getItem("oisr.console.key");
      const now = new Date().toISOString();
      const response = await fetch("/v2/ingest/returns", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          returns: [
            {
              external_id: "RMA-XSS",
              order_id: "SO-1003",
              reason,
              requested_at: now,
              source_updated_at: now,
              items: [{ line_id: "2", sku: "MUG", quantity: 1, reason_code: "other" }],
            },
          ],
        }),
      });
      return response.status;
    }, MARKUP);
    expect(status).toBe(202);
    await page.goto(`${consoleUrl}#/returns`);
    await page.getByLabel("Return id or external id (RMA)").fill("RMA-XSS");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect.poll(() => page.locator(".found .reason").textContent()).toBe(MARKUP);
    expect(await page.locator(".found img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  });

  it("made no request to another origin", () => {
    expect(session.requests.length).toBeGreaterThan(10);
    expect(foreignRequests(session.requests, origin)).toEqual([]);
    expect(session.errors).toEqual([]);
  });
});

function localInput(ms: number): string {
  const d = new Date(ms);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
