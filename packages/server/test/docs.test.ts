// GET /docs in a real browser: the reference renders from the served spec, offline, with every
// operation listed. Uses Debian's chromium (CI installs it; .ci/run).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import { loadSpec } from "../src/spec.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const METHODS = ["get", "post", "patch", "delete"] as const;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://" }));
});
afterAll(() => server.close());

async function renderedDom(url: string): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), "oisr-chromium-"));
  try {
    const { stdout } = await promisify(execFile)(
      CHROMIUM as string,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--virtual-time-budget=15000",
        "--dump-dom",
        url,
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 90_000 },
    );
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

describe("API reference at /docs", () => {
  it.skipIf(!CHROMIUM)(
    "lists every operation of the spec when rendered in headless chromium (needs Debian chromium)",
    async () => {
      const dom = await renderedDom(`${server.origin}/docs`);
      const summaries = Object.values(loadSpec().paths).flatMap((item) =>
        METHODS.map((m) => (item as Record<string, { summary?: string } | undefined>)[m]?.summary).filter(
          (s): s is string => typeof s === "string",
        ),
      );
      expect(summaries.length).toBeGreaterThanOrEqual(23);
      const missing = summaries.filter((s) => !dom.includes(s.replaceAll("&", "&amp;")));
      expect(missing).toEqual([]);
    },
    120_000,
  );

  it("serves the page and the renderer from this server, not a CDN", async () => {
    const page = await (await fetch(`${server.origin}/docs`)).text();
    expect(page).toContain('src="/docs/scalar.js"');
    expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const script = await fetch(`${server.origin}/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
  });
});
