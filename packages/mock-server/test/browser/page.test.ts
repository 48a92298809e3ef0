// The README's page (section "In the browser"), in a real browser: test/browser/fixture/main.ts is
// that block, bundled with esbuild as an app's bundler would, served with msw's worker script from a
// local HTTP server and opened in headless Debian chromium (CI installs it; .ci/run), driven by
// playwright-core. The page ingests an order through @oisr/sdk against the mock in its service
// worker and reads it back; no request reaches the HTTP server's /api or any other origin. The
// production build of the same entry (import.meta.env.DEV false) carries none of the mock.
//
// @oisr/sdk is its built dist (turbo builds a package's dependencies before its tests);
// @oisr/mock-server/browser is bundled from this package's source, the entry its dist is built
// from, so the test never runs an outdated build of the package it tests.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const ENTRY = here("./fixture/main.ts");
const INDEX_HTML = here("./fixture/index.html");
const README = here("../../README.md");
const SOURCE_ENTRY = here("../../src/browser/index.ts");
const WORKER_SCRIPT = createRequire(import.meta.url).resolve("msw/mockServiceWorker.js");

interface Bundle {
  dir: string;
  /** File name → bytes, for every file esbuild wrote (entry and chunks). */
  files: Map<string, Buffer>;
  bytes: number;
  metafile: Metafile;
}

/** Bundles the fixture as an app's bundler would: ESM, code splitting, `import.meta.env.DEV` replaced. */
async function bundle(dev: boolean): Promise<Bundle> {
  const dir = mkdtempSync(join(tmpdir(), `oisr-mock-page-${dev ? "dev" : "prod"}-`));
  const result = await build({
    entryPoints: { main: ENTRY },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: !dev,
    outdir: dir,
    define: { "import.meta.env.DEV": String(dev) },
    alias: { "@oisr/mock-server/browser": SOURCE_ENTRY },
    metafile: true,
    logLevel: "silent",
  });
  const files = new Map<string, Buffer>();
  for (const path of Object.keys(result.metafile.outputs)) {
    const name = path.split("/").pop() ?? path;
    files.set(name, readFileSync(join(dir, name)));
  }
  const bytes = [...files.values()].reduce((sum, b) => sum + b.length, 0);
  return { dir, files, bytes, metafile: result.metafile };
}

const inputsOf = (b: Bundle) => Object.keys(b.metafile.inputs);

let dev: Bundle;
let prod: Bundle;
beforeAll(async () => {
  [dev, prod] = await Promise.all([bundle(true), bundle(false)]);
  console.log(
    `page bundle: development ${kB(dev.bytes)} (${dev.files.size} files), production ${kB(prod.bytes)}`,
  );
}, 60_000);
afterAll(() => {
  for (const b of [dev, prod]) if (b) rmSync(b.dir, { recursive: true, force: true });
});

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

describe("the README's page", () => {
  it("is the fixture, word for word", () => {
    const code = readFileSync(ENTRY, "utf8").trim();
    expect(readFileSync(README, "utf8")).toContain(code);
  });

  it("built for production (import.meta.env.DEV false) carries none of the mock", () => {
    // One file: the dynamic import was in a dropped branch, so there is no chunk to load either.
    expect([...prod.files.keys()]).toEqual(["main.js"]);
    const code = prod.files.get("main.js")?.toString("utf8") ?? "";
    for (const word of ["msw", "mockServiceWorker", "setupMockWorker", "ajv"])
      expect(code).not.toContain(word);
    expect(inputsOf(prod).filter((p) => /mock-server|msw|ajv/.test(p))).toEqual([]);
    expect(prod.bytes).toBeLessThan(100_000);
  });

  it("built for development puts the mock in a chunk of its own, loaded by the dynamic import", () => {
    expect(inputsOf(dev).some((p) => p.includes("msw"))).toBe(true);
    const entry = dev.files.get("main.js")?.toString("utf8") ?? "";
    expect(entry).not.toContain("mockServiceWorker");
    expect(dev.files.size).toBeGreaterThan(1);
    expect(dev.bytes).toBeGreaterThan(5 * prod.bytes);
  });
});

describe.skipIf(!CHROMIUM)("the README's page in headless chromium (needs Debian chromium)", () => {
  let server: Server;
  let origin: string;
  /** Every path the HTTP server was asked for. */
  const served: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      served.push(path);
      const file =
        path === "/" || path === "/index.html"
          ? INDEX_HTML
          : path === "/mockServiceWorker.js"
            ? WORKER_SCRIPT
            : dev.files.has(path.slice(1))
              ? join(dev.dir, path.slice(1))
              : undefined;
      if (!file || !statSync(file).isFile()) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const type = extname(file) === ".html" ? "text/html" : "text/javascript";
      res.writeHead(200, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" });
      res.end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

  it("ingests an order through the SDK against the mock and reads it back; nothing leaves the page", async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      timeout: 30_000,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-extensions",
        "--disable-sync",
      ],
    });
    try {
      const context = await browser.newContext();
      const requests: { url: string; fromWorker: boolean }[] = [];
      context.on("requestfinished", async (request) => {
        const response = await request.response();
        requests.push({ url: request.url(), fromWorker: response?.fromServiceWorker() ?? false });
      });
      context.on("requestfailed", (request) => requests.push({ url: request.url(), fromWorker: false }));
      const errors: string[] = [];
      const page = await context.newPage();
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });

      await page.goto(`${origin}/`, { waitUntil: "load", timeout: 30_000 });
      // The page writes its result over "loading" (an error leaves it, and shows in `errors`).
      await page
        .waitForFunction(() => document.body.textContent?.trim() !== "loading", undefined, {
          timeout: 20_000,
        })
        .catch(() => {});
      const text = await page.evaluate(() => document.body.textContent?.trim());
      expect(errors, `served: ${served.join(" ")}`).toEqual([]);
      expect(text).toBe("succeeded: SO-1001 is open");

      // The API calls were answered by the mock in the service worker: the page made them on its
      // own origin under /api/v2, and none reached the HTTP server.
      const api = requests.filter((r) => new URL(r.url).pathname.startsWith("/api/"));
      expect(api.length).toBeGreaterThanOrEqual(3); // ingest, the request record, the order
      expect(api.filter((r) => !r.fromWorker)).toEqual([]);
      expect(served.filter((p) => p.startsWith("/api/"))).toEqual([]);
      expect(served).toContain("/mockServiceWorker.js");
      // No request for any other origin.
      expect(requests.map((r) => new URL(r.url).origin).filter((o) => o !== origin)).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 60_000);
});
