// Browser helpers for the console's tests, here and in the server's (packages/server/test/
// console.test.ts imports them as @oisr/console/testing): Debian's chromium driven by
// playwright-core, every request the page makes recorded (to assert that none leaves the origin),
// axe-core run in the page, screenshots written to packages/console/test-output/ (gitignored).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

export const SCREENSHOT_DIR = fileURLToPath(new URL("../../test-output/screenshots/", import.meta.url));

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30_000,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-default-apps",
      "--disable-extensions",
      "--disable-sync",
      "--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,Translate",
    ],
  });
}

export interface Recorded {
  page: Page;
  /** Every URL the page requested (documents, scripts, fetches, the service worker's own). */
  requests: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
}

export async function openPage(browser: Browser): Promise<Recorded> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  // On the context: also the requests of service workers, which the page's own events miss.
  context.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return { page, requests, errors };
}

/** Requests to any origin but `origin` (data: and blob: URLs fetch nothing from the network). */
export function foreignRequests(requests: string[], origin: string): string[] {
  return requests.filter((url) => !url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url));
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not
  // govern: no inline <script> is added to the page.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<unknown> } }).axe;
    return (await axe.run(document)) as {
      violations: { id: string; impact: string | null; help: string; nodes: unknown[] }[];
    };
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true });
}

/** Types the key into the sign-in form and waits for the navigation to appear. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Open the console" }).click();
}
