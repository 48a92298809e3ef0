// Bench-ish: imports a generated 100,000-line orders JSONL through `oisr ingest` against a server
// with the default rate limits (ingest 600/min, requests_read 150/min), started in-process on
// embedded PGlite. Prints elapsed time, items/s and the 429s that reached the wire (must be 0).
//
//   node scripts/import-100k.ts [lines=100000] [--concurrency N] [--batch-size N]

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createClient } from "@oisr/sdk";
import { loadConfig, startServer } from "@oisr/server";
import { main } from "../src/main.ts";

const [count = "100000", ...flags] = process.argv.slice(2);
const lines = Number(count);
const dir = await mkdtemp(join(tmpdir(), "oisr-import-"));
const file = join(dir, "orders.jsonl");

const out = createWriteStream(file);
for (let i = 1; i <= lines; i++) {
  const order = {
    external_id: `BENCH-${i}`,
    order_number: `#${100000 + i}`,
    source: "bench",
    currency: "EUR",
    placed_at: "2025-01-01T12:00:00Z",
    source_updated_at: "2025-01-01T12:00:00Z",
    customer: { name: "Ada Lovelace", email: `ada${i}@example.com` },
    ship_to: {
      name: "Ada Lovelace",
      line1: `${i} Main St`,
      city: "Berlin",
      postal_code: "10115",
      country: "DE",
    },
    lines: [
      { line_id: "1", sku: `SKU-${i % 997}`, quantity: 1 + (i % 3), unit_price: "19.99" },
      { line_id: "2", sku: `SKU-${i % 113}`, quantity: 1, unit_price: "4.50" },
    ],
  };
  if (!out.write(`${JSON.stringify(order)}\n`)) await once(out, "drain");
}
out.end();
await once(out, "finish");

const server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://" }));
const { token } = await server.services.accounts.createAccount("bench");
const stdout = new PassThrough();
let summary = "";
stdout.on("data", (chunk) => {
  summary += chunk;
});
const code = await main(["ingest", "orders", file, "--progress", "lines", ...flags], {
  stdout,
  stderr: process.stderr,
  env: { OISR_BASE_URL: server.url, OISR_TOKEN: token },
  signal: new AbortController().signal,
});
const result = JSON.parse(summary) as Record<string, number>;
let stored = 0;
const client = createClient({ baseUrl: server.url as string, token, throttle: true });
for await (const _ of client.requests.iterate({ limit: 200 })) stored += 1;
process.stdout.write(
  `${JSON.stringify(
    {
      exit_code: code,
      lines,
      succeeded: result.succeeded,
      failed: result.failed,
      elapsed_s: Number(((result.elapsed_ms ?? 0) / 1000).toFixed(1)),
      items_per_second: result.items_per_second,
      batches: result.batches,
      requests_stored: stored,
      http_requests: result.http_requests,
      http_429: result.http_429,
    },
    null,
    2,
  )}\n`,
);
await server.close();
await rm(dir, { recursive: true, force: true });
process.exitCode = code === 0 && result.http_429 === 0 ? 0 : 1;
