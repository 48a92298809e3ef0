#!/usr/bin/env node
// The published tarball, as a user gets it: build, `npm pack`, install the .tgz into a fresh
// project outside the repo, compile a strict TypeScript consumer (ESM and CJS) against it, and
// run both on Node 20 and Node 24. The consumer verifies a signed webhook and ingests through a
// real HTTP server, so a broken export map, a missing file, a wrong .d.cts or a dependency that
// does not resolve fails here.
//
//   npm run test:pack                      (from packages/sdk)
//   PACK_CHECK_NODES=/path/node20,/path/node24  to choose the runtimes
//   PACK_CHECK_KEEP=1                      to keep the temp project for inspection
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildAndPack, packRuntimes, repoDir, run } from "../../../scripts/lib/pack-check.mjs";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const started = performance.now();
const step = (msg) =>
  process.stdout.write(`[pack-check ${((performance.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);

// ── The consumer ─────────────────────────────────────────────────────────────────────────────
// One body, two module systems: `.mts` compiles to ESM (`import`), `.cts` to CJS (`require`).
const consumer = (format) => `import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ApiError,
  ConflictError,
  createClient,
  generateWebhookSecret,
  type IngestAccepted,
  NotFoundError,
  OisrError,
  type OrderInput,
  RateLimitError,
  type RequestRecord,
  signWebhook,
  ValidationError,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "@oisr/sdk";

function check(ok: boolean, what: string): asserts ok {
  if (!ok) throw new Error(\`${format}: \${what}\`);
}

async function main(): Promise<void> {
  // Webhooks: what signWebhook signs, verifyWebhook accepts, typed; a tampered body is refused.
  const secret = generateWebhookSecret();
  const payload: WebhookEvent = {
    id: "evt_pack",
    type: "webhook.test",
    created_at: "2025-01-01T00:00:00Z",
    api_key_id: "key_01JKQ9ZT1E4N7C2H8V5B3M6X0P",
    data: { object: { subscription_id: "whs_pack", message: "hello" } },
  };
  const signed = await signWebhook({ payload, secret });
  const event = await verifyWebhook(signed.body, signed.headers, secret);
  check(event.type === "webhook.test" && event.data.object.subscription_id === "whs_pack", "verifyWebhook result");
  const refused = await verifyWebhook(signed.body.replace("hello", "hullo"), signed.headers, secret).catch((e: unknown) => e);
  check(refused instanceof WebhookVerificationError && refused instanceof OisrError, "tampered body refused");

  // The client over real HTTP: one 202 ingest, one 404.
  let idempotencyKey: string | undefined;
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/v2/ingest/orders" && req.headers.authorization === "Bearer oisr_pack") {
      idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      req.resume();
      req.on("end", () => {
        res.writeHead(202, { "content-type": "application/json", location: "/v2/requests/r-1" });
        res.end(JSON.stringify({ message: "Accepted for processing.", request_id: "r-1", trace_id: "0".repeat(32) }));
      });
      return;
    }
    res.writeHead(404, { "content-type": "application/problem+json" });
    res.end(JSON.stringify({ type: "about:blank", title: "Not found", status: 404, code: "not_found", trace_id: "1".repeat(32) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const client = createClient({ baseUrl: \`http://127.0.0.1:\${port}/v2\`, token: "oisr_pack", maxRetries: 0 });
    const order: OrderInput = {
      external_id: "A-1",
      source: "pack-check",
      currency: "EUR",
      placed_at: "2025-01-01T00:00:00Z",
      source_updated_at: "2025-01-01T00:00:00Z",
      ship_to: { name: "Ada", line1: "1 Main St", city: "Berlin", country: "DE" },
      lines: [{ line_id: "1", sku: "SKU-1", quantity: 1, unit_price: "9.99" }],
    };
    const ack: IngestAccepted = await client.orders.ingest([order]);
    check(ack.request_id === "r-1", "ingest ack");
    check(typeof idempotencyKey === "string" && idempotencyKey.length > 0, "Idempotency-Key sent");

    const missing = await client.orders.get("nope").catch((e: unknown) => e);
    check(missing instanceof NotFoundError && missing instanceof ApiError, "NotFoundError");
    check(missing.code === "not_found" && missing.status === 404, "error fields");
    check(!(missing instanceof ValidationError || missing instanceof ConflictError || missing instanceof RateLimitError), "error classes are distinct");
  } finally {
    server.close();
  }

  // Types only: strict consumers see precise types, not any.
  const firstItemId = (record: RequestRecord): string | undefined => record.result?.items[0]?.id;
  void firstItemId;
  // @ts-expect-error external_id must be a string
  const badOrder: OrderInput = { ...({} as OrderInput), external_id: 1 };
  void badOrder;

  console.log(\`ok ${format} \${process.version}\`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
`;

// A consumer that imports nothing from Node: the declarations must also compile for browsers.
const browserConsumer = `import { createClient, verifyWebhook, type Order } from "@oisr/sdk";
const client = createClient({ baseUrl: "https://api.example.com/v2", token: "oisr_x", throttle: true });
export async function latest(id: string): Promise<Order["status"]> {
  return (await client.orders.get(id, { signal: AbortSignal.timeout(5_000) })).status;
}
export const verify = (request: Request, secret: string) => request.text().then((body) => verifyWebhook(body, request.headers, secret));
`;

const strict = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  module: "NodeNext",
  moduleResolution: "NodeNext",
  target: "ES2022",
  // The SDK's .d.ts files are checked too, under the consumer's settings.
  skipLibCheck: false,
};

// ── Main ─────────────────────────────────────────────────────────────────────────────────────
const work = mkdtempSync(join(tmpdir(), "oisr-sdk-pack-"));
const rmOnExit = [work];
let failed = false;
try {
  const runtimes = Object.values(packRuntimes());
  step(`runtimes: ${runtimes.map((r) => `${r.version} (${r.path})`).join(", ")}`);

  const { tarball, packDir } = buildAndPack(pkgDir, ["@oisr/sdk"], "oisr-sdk");
  rmOnExit.push(packDir);
  step(`built and packed ${tarball}`);

  const app = join(work, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "pack-consumer", private: true }, null, 2));
  // From the registry (cache first): openapi-fetch must resolve like it does for users.
  run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--no-package-lock",
      tarball,
    ],
    {
      cwd: app,
    },
  );
  step("installed the tarball into a fresh project");

  writeFileSync(join(app, "esm.mts"), consumer("esm"));
  writeFileSync(join(app, "cjs.cts"), consumer("cjs"));
  mkdirSync(join(app, "browser"));
  writeFileSync(join(app, "browser", "consumer.ts"), browserConsumer);
  const typeRoots = [join(repoDir, "node_modules", "@types")];
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: { ...strict, lib: ["ES2022"], types: ["node"], typeRoots, outDir: "out" },
        files: ["esm.mts", "cjs.cts"],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(app, "tsconfig.browser.json"),
    JSON.stringify(
      {
        compilerOptions: { ...strict, lib: ["ES2022", "DOM"], types: [], noEmit: true },
        files: ["browser/consumer.ts"],
      },
      null,
      2,
    ),
  );
  const tsc = join(repoDir, "node_modules", "typescript", "bin", "tsc");
  run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: app });
  run(process.execPath, [tsc, "-p", "tsconfig.browser.json"], { cwd: app });
  step("compiled the strict consumers (Node ESM + CJS, browser types)");

  for (const runtime of runtimes) {
    for (const file of ["out/esm.mjs", "out/cjs.cjs"]) {
      const out = run(runtime.path, [file], { cwd: app }).trim();
      step(out);
      if (!out.startsWith("ok ")) throw new Error(`unexpected output: ${out}`);
    }
  }
  step("passed");
} catch (err) {
  failed = true;
  process.stderr.write(`[pack-check] FAILED: ${err instanceof Error ? err.message : err}\n`);
} finally {
  if (process.env.PACK_CHECK_KEEP) process.stdout.write(`[pack-check] kept ${work}\n`);
  else for (const dir of rmOnExit) rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
