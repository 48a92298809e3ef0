// GET /docs in a real browser: the reference renders from the served spec, offline, with every
// operation listed, its code samples aimed at the server that served it, no request to any other
// origin and a quiet console. Uses Debian's chromium (CI installs it; .ci/run), driven by
// playwright-core, with a net log of every request the browser made.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import { chooseEncoding } from "../src/routes/docs-assets.ts";
import { docsSpec } from "../src/routes/docs-spec.ts";
import { loadSpec } from "../src/spec.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const METHODS = ["get", "post", "patch", "delete"] as const;
const SCALAR_BUNDLE = readFileSync(
  createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js"),
);

const summaries = Object.values(loadSpec().paths).flatMap((item) =>
  METHODS.map((m) => (item as Record<string, { summary?: string } | undefined>)[m]?.summary).filter(
    (s): s is string => typeof s === "string",
  ),
);

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://" }));
});
afterAll(() => server.close());

interface ConsoleEntry {
  level: string;
  text: string;
}
interface NetRequest {
  url: string;
  /** The origin of the page that made the request; "not an origin" for the browser's own. */
  initiator: string;
  type: string;
}
interface Visit {
  dom: string;
  console: ConsoleEntry[];
  requests: NetRequest[];
  /** Every URL the net log names (requests, preconnects, redirects). */
  urls: string[];
  /** From navigation start until the renderer has replaced the outline with every operation. */
  renderedMs: number;
  /** From navigation start until the first content (the server-rendered outline) was painted. */
  firstPaintMs: number;
}

/** Loads `url` in headless chromium until every summary is on the page. */
async function visit(url: string): Promise<Visit> {
  const dir = mkdtempSync(join(tmpdir(), "oisr-chromium-"));
  const netLog = join(dir, "net-log.json");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: 30_000,
    args: [
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-default-apps",
      "--disable-domain-reliability",
      "--disable-extensions",
      "--disable-sync",
      "--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,Translate",
      "--no-pings",
      `--log-net-log=${netLog}`,
      "--net-log-capture-mode=Default",
    ],
  });
  try {
    const page = await browser.newPage();
    const consoleEntries: ConsoleEntry[] = [];
    page.on("console", (message) => consoleEntries.push({ level: message.type(), text: message.text() }));
    page.on("pageerror", (error) =>
      consoleEntries.push({ level: "error", text: String(error).slice(0, 2000) }),
    );
    // Records, in the page, when the last operation appears (the main thread is busy until then).
    await page.addInitScript({
      content: `(() => {
        const wanted = ${JSON.stringify(summaries)};
        const timer = setInterval(() => {
          const text = document.body ? document.body.textContent : "";
          // The server-rendered outline lists every summary too: wait for the renderer to replace it.
          const outline = document.querySelector("[data-docs-outline]");
          if (!outline && wanted.every((s) => text.includes(s))) { window.__rendered = performance.now(); clearInterval(timer); }
        }, 25);
      })();`,
    });
    await page.goto(url, { waitUntil: "commit", timeout: 30_000 });
    const rendered = await page
      .waitForFunction(() => (window as { __rendered?: number }).__rendered, undefined, {
        timeout: 60_000,
        polling: 250,
      })
      .then((handle) => handle.jsonValue() as Promise<number>)
      .catch(() => Number.NaN);
    // Code samples render after the operation list, later still on a busy machine (CI with other
    // suites running): wait until every operation has its curl sample before reading the page.
    await page
      .waitForFunction(
        (count) => (document.body?.textContent?.match(/curl https?:\/\//g) ?? []).length >= count,
        summaries.length,
        { timeout: 30_000, polling: 250 },
      )
      .catch(() => undefined);
    // Late requests (lazy chunks, agents, telemetry) would come right after the first render.
    await page.waitForTimeout(1500);
    const dom = await page.content();
    const firstPaintMs = await page.evaluate(
      () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    );
    await browser.close();
    const { requests, urls } = readNetLog(netLog);
    return { dom, console: consoleEntries, requests, urls, renderedMs: rendered, firstPaintMs };
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function readNetLog(path: string): { requests: NetRequest[]; urls: string[] } {
  let text = readFileSync(path, "utf8").trim();
  // A browser that did not exit cleanly leaves the events array open.
  if (!text.endsWith("}")) text = `${text.replace(/,$/, "")}]}`;
  const log = JSON.parse(text) as {
    constants: { logEventTypes: Record<string, number> };
    events: { type: number; params?: Record<string, unknown> }[];
  };
  const startJob = log.constants.logEventTypes.URL_REQUEST_START_JOB;
  const requests: NetRequest[] = [];
  const urls = new Set<string>();
  for (const event of log.events) {
    const url = event.params?.url;
    if (typeof url !== "string") continue;
    urls.add(url);
    if (event.type === startJob) {
      requests.push({
        url,
        initiator: String(event.params?.initiator ?? ""),
        type: String(event.params?.request_type ?? ""),
      });
    }
  }
  return { requests, urls: [...urls] };
}

/** Chromium's own services (clock sync, updates): not the page's doing, whatever the flags. */
const BROWSER_SERVICES = /^https?:\/\/([a-z0-9-]+\.)*(google\.com|googleapis\.com|gstatic\.com)(:\d+)?\//;

let visited: Promise<Visit> | undefined;
const docsVisit = () => {
  visited ??= visit(`${server.origin}/docs`);
  return visited;
};

describe.skipIf(!CHROMIUM)("API reference at /docs in headless chromium (needs Debian chromium)", () => {
  it("lists every operation of the spec", async () => {
    const { dom, renderedMs, firstPaintMs } = await docsVisit();
    console.info(
      `/docs: first contentful paint ${Math.round(firstPaintMs)} ms, renderer showed every operation ${Math.round(renderedMs)} ms after navigation`,
    );
    expect(summaries.length).toBeGreaterThanOrEqual(23);
    const missing = summaries.filter((s) => !dom.includes(s.replaceAll("&", "&amp;")));
    expect(missing).toEqual([]);
  }, 120_000);

  it("aims code samples and Test Request at the server the page came from", async () => {
    const { dom } = await docsVisit();
    const text = dom.replace(/<[^>]*>/g, "");
    // The server listens on a random port: the samples can only know it from the page's origin.
    const servers = [...text.matchAll(/Server:\s*(https?:\/\/[^\s<]+)/g)].map((m) => m[1] as string);
    expect(servers).toContain(`${server.origin}/v2`);
    expect(servers.filter((s) => !s.startsWith(`${server.origin}/v2`))).toEqual([]);
    // The Test Request client: "Send post request to http://…".
    const sends = [...text.matchAll(/request to (https?:\/\/[^\s<]+)/g)].map((m) => m[1] as string);
    expect(sends.length).toBeGreaterThan(0);
    expect(sends.filter((s) => !s.startsWith(`${server.origin}/`))).toEqual([]);
    const targets = [...text.matchAll(/curl (https?:\/\/[^\s\\]+)/g)].map((m) => m[1] as string);
    expect(targets).toEqual(
      expect.arrayContaining([`${server.origin}/v2/ingest/orders`, `${server.origin}/healthz`]),
    );
    expect(targets.length).toBeGreaterThanOrEqual(summaries.length);
    expect(targets.filter((t) => !t.startsWith(`${server.origin}/`))).toEqual([]);
  }, 120_000);

  it("makes no request to any other origin", async () => {
    const { requests, urls } = await docsVisit();
    const origin = server.origin as string;
    const fromPage = requests.filter((r) => r.initiator === origin || r.type === "main frame");
    const paths = fromPage.map((r) => r.url.replace(origin, ""));
    expect(paths).toEqual(
      expect.arrayContaining([
        "/docs",
        expect.stringMatching(/^\/docs\/scalar\.js\?v=[0-9a-f]{16}$/),
        expect.stringMatching(/^\/docs\/openapi\.json\?v=[0-9a-f]{16}$/),
      ]),
    );
    expect(fromPage.filter((r) => !r.url.startsWith(`${origin}/`))).toEqual([]);
    // Whoever asked (page, worker, preconnect): nothing but this server and the browser's own services.
    expect(urls.filter((u) => !u.startsWith(`${origin}/`) && !BROWSER_SERVICES.test(u))).toEqual([]);
  }, 120_000);

  it("logs no warning or error in the console", async () => {
    const { console: entries } = await docsVisit();
    expect(entries.filter((e) => e.level !== "info" && e.level !== "log" && e.level !== "debug")).toEqual([]);
  }, 120_000);
});

/** A raw GET: the body as sent, still compressed. */
function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    const req = httpRequest(`${server.origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("GET /docs and its assets", () => {
  it("carries an outline of every operation in its HTML, so the first paint needs no script", async () => {
    const page = (await get("/docs")).body.toString();
    const outline = page.slice(page.indexOf("<main data-docs-outline"), page.indexOf("</main>"));
    expect(outline).toContain("<h1>OISR Ingest API");
    const asHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    expect(summaries.filter((s) => !outline.includes(asHtml(s)))).toEqual([]);
    expect(outline).toContain("<code>POST /v2/ingest/orders</code>");
    expect(outline).toContain("<code>GET /healthz</code>");
  });

  it("serves the page and the renderer from this server, not a CDN", async () => {
    const response = await get("/docs");
    expect(response.status).toBe(200);
    const page = response.body.toString();
    expect(page).toMatch(/href="\/docs\/scalar\.js\?v=[0-9a-f]{16}" as="script"/);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).toContain("window.location.origin");
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(response.headers["cache-control"]).toBe("no-cache");
  });

  it("sends the renderer compressed (brotli or gzip, by Accept-Encoding) and cacheable", async () => {
    const page = (await get("/docs")).body.toString();
    const src = /href="(\/docs\/scalar\.js\?v=[0-9a-f]{16})"/.exec(page)?.[1] as string;

    const br = await get(src, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.status).toBe(200);
    expect(br.headers["content-type"]).toContain("javascript");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("Accept-Encoding");
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers.etag).toMatch(/^"[0-9a-f]{16}-br"$/);
    expect(br.body.length).toBeLessThan(SCALAR_BUNDLE.length / 3);
    expect(brotliDecompressSync(br.body).equals(SCALAR_BUNDLE)).toBe(true);

    const gz = await get(src, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.etag).toMatch(/-gzip"$/);
    expect(gunzipSync(gz.body).equals(SCALAR_BUNDLE)).toBe(true);

    const plain = await get(src, { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(SCALAR_BUNDLE)).toBe(true);

    const again = await get(src, { "accept-encoding": "br", "if-none-match": String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    // Without the version, the browser must revalidate (it may be an older bundle).
    const unversioned = await get("/docs/scalar.js", { "accept-encoding": "br" });
    expect(unversioned.headers["cache-control"]).toBe("no-cache");
    expect(unversioned.headers.etag).toBe(br.headers.etag);
  });

  it("sends the page's copy of the spec compressed, with the page's origin as its server", async () => {
    const page = (await get("/docs")).body.toString();
    const url = /url: "(\/docs\/openapi\.json\?v=[0-9a-f]{16})"/.exec(page)?.[1] as string;
    const response = await get(url, { "accept-encoding": "br" });
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const spec = JSON.parse(brotliDecompressSync(response.body).toString());
    expect(Object.keys(spec.paths)).toEqual(Object.keys(loadSpec().paths));
    expect(spec.servers).toEqual([{ url: "/v2", description: expect.any(String) }]);
  });

  it("picks the encoding the client prefers", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("gzip;q=1, br;q=0.5")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("identity")).toBe("identity");
    expect(chooseEncoding(undefined)).toBe("identity");
  });
});

describe("the spec as /docs shows it", () => {
  it("differs from the spec only by implied types of compositions and servers without origin", () => {
    const spec = loadSpec();
    const shown = docsSpec(spec);
    const changes: string[] = [];
    const walk = (a: unknown, b: unknown, path: string) => {
      if (typeof b !== "object" || b === null) {
        if (a !== b) changes.push(`${path}: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`);
        return;
      }
      for (const [key, value] of Object.entries(b)) {
        const before = (a as Record<string, unknown>)[key];
        if (before === undefined) changes.push(`${path}/${key} added: ${JSON.stringify(value)}`);
        else walk(before, value, `${path}/${key}`);
      }
    };
    walk(spec, shown, "");
    const unexpected = changes.filter(
      (c) => !/\/type added: /.test(c) && !/\/servers\/\d+\/url: "https?:\/\/[^"]*" -> "\/[^"]*"$/.test(c),
    );
    expect(unexpected).toEqual([]);
    // The nullable references Scalar's document check refused (4 console warnings before).
    const order = (shown.components as { schemas: Record<string, { properties: Record<string, unknown> }> })
      .schemas.Order?.properties;
    expect(order?.customer).toMatchObject({ type: ["object", "null"] });
    expect(spec).toEqual(loadSpec());
  });
});
