// /docs in headless Chromium: time from navigation to the first contentful paint, and to the
// renderer (Scalar) showing every operation. Baseline, same run, same server: the page as it was
// before the server-rendered outline (the renderer's 3.5 MB script in the page, nothing else to
// paint), substituted for /docs by request interception; its assets are the server's own.
// Needs Debian's chromium (`apt-get install chromium`). BENCH_RUNS rounds (default 5), each in a
// fresh browser context (cold cache).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { ROOT, startProcess } from "./lib/processes.ts";
import { fmt, printTable, ratio } from "./lib/report.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  console.log(`docs-paint: no chromium at ${CHROMIUM} (apt-get install chromium); skipped`);
  process.exit(0);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The /docs page before the outline: the renderer's script first, then its start-up call. */
function pageWithoutOutline(html: string): string {
  const scriptUrl = /href="(\/docs\/scalar\.js\?v=[0-9a-f]+)"/.exec(html)?.[1];
  const init = /<script>([\s\S]*)<\/script>/.exec(html)?.[1];
  if (!scriptUrl || !init) throw new Error("/docs changed shape: update bench/docs-paint.ts");
  const start = init.slice(0, init.indexOf("requestAnimationFrame(")).replace("const start = () =>", "");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>baseline</title></head>
<body><div id="app"></div><script src="${scriptUrl}"></script><script>${start}</script></body></html>`;
}

async function visit(page: Page, url: string): Promise<{ paintMs: number; renderedMs: number }> {
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(
    () =>
      !document.querySelector("[data-docs-outline]") &&
      (document.body?.textContent?.match(/curl https?:\/\//g) ?? []).length >= 20,
    undefined,
    { timeout: 180_000, polling: 50 },
  );
  return page.evaluate(() => ({
    paintMs: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    renderedMs: performance.now(),
  }));
}

const dataDir = mkdtempSync(join(tmpdir(), "oisr-docs-paint-"));
const server = await startProcess(
  `${ROOT}packages/server/dist/main.mjs`,
  ["serve"],
  { OISR_DATA_DIR: "memory://", PORT: "0", LOG_LEVEL: "warn" },
  /Docs:\s+(\S+)/,
);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const docsUrl = server.match[1] as string;
  const html = await (await fetch(docsUrl)).text();
  const baselineHtml = pageWithoutOutline(html);
  const now = { paint: [] as number[], rendered: [] as number[] };
  const before = { paint: [] as number[], rendered: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    for (const [target, substitute] of [
      [now, false],
      [before, true],
    ] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (substitute)
        await page.route(docsUrl, (route) =>
          route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: baselineHtml }),
        );
      const { paintMs, renderedMs } = await visit(page, docsUrl);
      target.paint.push(paintMs);
      target.rendered.push(renderedMs);
      await context.close();
    }
  }
  const rounds = (xs: number[]) => xs.map((x) => Math.round(x)).join(", ");
  printTable(`/docs in headless Chromium (median of ${RUNS}, cold cache each round)`, [
    {
      figure: "first contentful paint",
      value: `${fmt(median(now.paint))} ms (rounds ${rounds(now.paint)})`,
      baseline: `${fmt(median(before.paint))} ms without the outline (rounds ${rounds(before.paint)})`,
      ratio: ratio(median(before.paint), median(now.paint)),
      goal: "≤ 1000 ms",
    },
    {
      figure: "renderer shows every operation",
      value: `${fmt(median(now.rendered))} ms`,
      baseline: `${fmt(median(before.rendered))} ms without the outline`,
      ratio: ratio(median(before.rendered), median(now.rendered)),
      goal: "(no worse than the baseline)",
    },
  ]);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
