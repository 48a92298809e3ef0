// What the SDK costs per call, against raw fetch doing the same HTTP work, on the real server.
//   node bench/sdk-overhead.ts            (Node 24, from the repo root; builds the SDK if needed)
//   npm run bench:sdk -w @oisr/sdk
// Same calls both ways, one at a time, interleaved call by call (the order alternating each round)
// so that drift (JIT, GC, the database growing, the worker's backlog) hits both sides equally. Also: the SDK's own CPU time
// per call with the network taken out (a canned response), and its size against the budget.
// Figures only, no assertions: timing goals are read, not tested.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { loadConfig, startServer } from "@oisr/server";
import { order } from "./lib/fixtures.ts";
import { fmt, percentile, printTable, type Row, ratio } from "./lib/report.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const SDK_DIR = join(ROOT, "packages", "sdk");
const GETS = Number(process.env.BENCH_SDK_GETS ?? 2000);
const INGESTS = Number(process.env.BENCH_SDK_INGESTS ?? 1000);
const WARMUP = 200;

// The published build, as users get it.
if (!existsSync(join(SDK_DIR, "dist", "index.js"))) {
  execFileSync("npm", ["run", "build", "-w", "@oisr/sdk"], { cwd: ROOT, stdio: "inherit" });
}
const { createClient } = (await import("@oisr/sdk")) as typeof import("../packages/sdk/src/index.ts");

type Call = () => Promise<unknown>;

/**
 * Runs `a` and `b` `n` times each, one call at a time, as n rounds of one call each, the order
 * swapping every round (a b, b a, a b…): whatever the server is doing in the background (the
 * worker applying earlier ingests, GC) falls on both sides alike. Per-call µs for each.
 */
async function compare(n: number, a: Call, b: Call): Promise<[number[], number[]]> {
  const times: [number[], number[]] = [[], []];
  const calls = [a, b] as const;
  for (let round = 0; round < n; round++) {
    for (const which of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
      const t0 = performance.now();
      await calls[which]();
      times[which].push((performance.now() - t0) * 1000);
    }
  }
  return times;
}

const stats = (us: number[]) => {
  const sorted = [...us].sort((x, y) => x - y);
  return {
    mean: us.reduce((s, x) => s + x, 0) / us.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
};

function rows(label: string, raw: number[], sdk: number[], goal = "≤ 1.10×"): Row[] {
  const r = stats(raw);
  const s = stats(sdk);
  return (["mean", "p50", "p99"] as const).map((k) => ({
    figure: `${label} ${k} (µs/call, SDK vs raw fetch)`,
    value: fmt(s[k]),
    baseline: fmt(r[k]),
    ratio: ratio(s[k], r[k]),
    goal: k === "mean" ? goal : "",
  }));
}

/** From size-limit (minified, bundled like an app would, gzipped); else gzip of the unminified files. */
function sdkSize(): { bytes: number; how: string; budget: number } {
  try {
    // Resolved from the SDK, whose devDependency it is: npm may nest it under packages/sdk.
    const bin = join(
      dirname(createRequire(join(SDK_DIR, "package.json")).resolve("size-limit/package.json")),
      "bin.js",
    );
    const out = execFileSync(process.execPath, [bin, "--json"], {
      cwd: SDK_DIR,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const all = (JSON.parse(out) as { name: string; size: number; sizeLimit: number }[]).find((e) =>
      e.name.startsWith("everything"),
    );
    if (all)
      return { bytes: all.size, how: "size-limit, min+gzip, openapi-fetch included", budget: all.sizeLimit };
  } catch {
    // fall through
  }
  const require = createRequire(join(SDK_DIR, "package.json"));
  const files = [
    join(SDK_DIR, "dist", "index.js"),
    require.resolve("openapi-fetch").replace(/\.cjs$/, ".mjs"),
  ];
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(f)).length, 0);
  // The budget in packages/sdk/package.json, measured by size-limit (decision 022).
  const budget =
    parseFloat(
      (
        JSON.parse(readFileSync(join(SDK_DIR, "package.json"), "utf8")) as {
          "size-limit": { limit: string }[];
        }
      )["size-limit"][0]?.limit ?? "NaN",
    ) * 1000;
  return { bytes, how: "gzip of dist + openapi-fetch, unminified (size-limit unavailable)", budget };
}

// The SDK's own work per call, network removed: both sides get the same canned response. Measured
// before the server starts, whose worker and dispatcher loops would share this thread.
const canned = JSON.stringify(order("bench-sdk-canned"));
const cannedFetch = async () =>
  new Response(canned, { status: 200, headers: { "content-type": "application/json" } });
const offline = createClient({ baseUrl: "http://127.0.0.1:9/v2", token: "oisr_offline", fetch: cannedFetch });
const rawOffline: Call = async () => (await cannedFetch()).json();
const sdkOffline: Call = () => offline.orders.get("ord_1");
await compare(2_000, rawOffline, sdkOffline);
const [rawCpu, sdkCpu] = await compare(20_000, rawOffline, sdkOffline);
const cpu = { raw: stats(rawCpu).mean, sdk: stats(sdkCpu).mean };

const server = await startServer(
  loadConfig({
    PORT: "0",
    LOG_LEVEL: "silent",
    OISR_DATA_DIR: "memory://",
    OISR_RATE_LIMITS: JSON.stringify({ ingest: 1_000_000, orders_read: 1_000_000, requests_read: 1_000_000 }),
  }),
);
try {
  const baseUrl = server.url as string;
  const { token } = await server.services.accounts.createAccount("bench-sdk");
  const auth = { authorization: `Bearer ${token}` };
  const sdk = createClient({ baseUrl, token });

  const seeded = await sdk.orders.ingestAndWait([order("bench-sdk-1")]);
  const orderId = seeded.result?.items[0]?.id as string;
  const ingestBody = [order("bench-sdk-2")];
  const ingestJson = JSON.stringify({ orders: ingestBody });

  const rawGet: Call = async () => {
    const res = await fetch(`${baseUrl}/orders/${orderId}`, { headers: auth });
    if (!res.ok) throw new Error(`GET ${res.status}`);
    return res.json();
  };
  const sdkGet: Call = () => sdk.orders.get(orderId);
  // A careful raw caller sends an Idempotency-Key too (the SDK always does): same server work.
  const rawIngest: Call = async () => {
    const res = await fetch(`${baseUrl}/ingest/orders`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: ingestJson,
    });
    if (res.status !== 202) throw new Error(`POST ${res.status}`);
    return res.json();
  };
  const sdkIngest: Call = () => sdk.orders.ingest(ingestBody as Parameters<typeof sdk.orders.ingest>[0]);

  // Warm-up: JIT, connection pool, the validator's compiled schemas.
  await compare(WARMUP, rawGet, sdkGet);
  await compare(WARMUP / 2, rawIngest, sdkIngest);

  const [rawGets, sdkGets] = await compare(GETS, rawGet, sdkGet);
  const [rawIngests, sdkIngests] = await compare(INGESTS, rawIngest, sdkIngest);

  const size = sdkSize();
  printTable(
    `SDK overhead (PGlite in memory, in-process server, ${process.version}, ${GETS} GETs, ${INGESTS} ingests)`,
    [
      ...rows(`GET /orders/{id} ×${GETS}`, rawGets, sdkGets),
      ...rows(`POST /ingest/orders ×${INGESTS}`, rawIngests, sdkIngests),
      {
        figure: "SDK CPU per GET, network removed (µs/call, SDK vs fetch+json)",
        value: fmt(cpu.sdk, 1),
        baseline: fmt(cpu.raw, 1),
        ratio: `+${fmt(cpu.sdk - cpu.raw, 1)} µs`,
      },
      {
        figure: `SDK size (${size.how})`,
        value: `${fmt(size.bytes / 1000, 2)} kB`,
        baseline: `${fmt(size.budget / 1000, 2)} kB budget`,
        ratio: ratio(size.bytes, size.budget),
        goal: "≤ 1.00×",
      },
    ],
  );
} finally {
  await server.close();
}
