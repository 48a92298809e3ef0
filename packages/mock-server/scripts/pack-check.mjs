#!/usr/bin/env node
// The published tarball with each msw it claims to support, as a user installs it: build,
// `npm pack`, install the .tgz with msw 2.11 (the oldest in the peer range), the newest msw 2 and
// the newest msw 3 into fresh projects outside the repo, then run a consumer through
// `setupMockServer` (ESM and CJS): ingest an order, poll its request to `succeeded`, read it back,
// and see its webhook delivered to a receiver whose long answer the mock cuts to 1,024 bytes.
// msw 2 runs on Node 20 and 24; msw 3 needs Node 22.12+, so it runs on Node 24 only.
//
//   npm run test:pack                      (from packages/mock-server)
//   PACK_CHECK_NODES=/path/node20,/path/node24  to choose the runtimes
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildAndPack, packRuntimes, run } from "../../../scripts/lib/pack-check.mjs";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const step = (msg) => process.stdout.write(`[mock pack-check] ${msg}\n`);

const consumer = (load, loadHttp, loadMsw) => `${load}
${loadHttp}
${loadMsw}
const { setupMockServer } = mock;
async function main() {
  const api = setupMockServer();
  api.listen({ onUnhandledRequest: "error" });
  try {
    const auth = { authorization: "Bearer oisr_pack" };
    // A webhook receiver (an msw handler) that answers with a long body: the mock keeps its first
    // 1,024 bytes. Under msw 2 the mock once hung here (it awaited the cancel of that body).
    api.server.use(mswHttp.post("https://hooks.pack.test/oisr", () =>
      new HttpResponse("#".repeat(5000), { status: 400, headers: { "content-type": "text/plain" } })));
    const hook = await fetch(api.baseUrl + "/webhook_subscriptions", {
      method: "POST", headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://hooks.pack.test/oisr", events: ["request.succeeded"] }),
    });
    if (hook.status !== 201) throw new Error("subscribe: " + hook.status + " " + (await hook.text()));
    const { id: hookId } = await hook.json();
    const order = {
      external_id: "PACK-1", source: "shop", currency: "EUR", placed_at: "2025-01-01T00:00:00Z",
      ship_to: { name: "A", line1: "1 Road", city: "Berlin", country: "DE" },
      lines: [{ line_id: "1", sku: "S", quantity: 1, unit_price: "1.00" }],
      source_updated_at: "2025-01-01T00:00:00Z",
    };
    const ack = await fetch(api.baseUrl + "/ingest/orders", {
      method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ orders: [order] }),
    });
    if (ack.status !== 202) throw new Error("ingest: " + ack.status + " " + (await ack.text()));
    const { request_id } = await ack.json();
    let status = "pending";
    for (let i = 0; i < 200 && status !== "succeeded"; i++) {
      status = (await (await fetch(api.baseUrl + "/requests/" + request_id, { headers: auth })).json()).status;
      if (status !== "succeeded") await new Promise((r) => setTimeout(r, 10));
    }
    if (status !== "succeeded") throw new Error("request ended " + status);
    const read = await fetch(api.baseUrl + "/orders/PACK-1", { headers: auth });
    if (read.status !== 200) throw new Error("read back: " + read.status);
    await api.controls.flush();
    const deliveries = await (await fetch(api.baseUrl + "/webhook_subscriptions/" + hookId + "/deliveries", { headers: auth })).json();
    const first = deliveries.data[deliveries.data.length - 1];
    if (first?.response_status !== 400 || first.response_body?.length !== 1024)
      throw new Error("webhook delivery: " + JSON.stringify(first));
    // onUnhandledRequest: "error" holds on this msw: a request no handler answers fails.
    const origError = console.error;
    console.error = () => {};
    // A live server the mock does not handle: without the strategy, the call would reach it.
    const live = http.createServer((_req, res) => res.end("live"));
    await new Promise((r) => live.listen(0, "127.0.0.1", r));
    const stray = await fetch("http://127.0.0.1:" + live.address().port + "/").then(() => "answered", () => "refused");
    live.close();
    console.error = origError;
    if (stray !== "refused") throw new Error("an unhandled request was " + stray);
  } finally {
    api.close();
  }
}
main().then(() => console.log("ok"), (e) => { console.error(e); process.exit(1); });
`;

step("build and pack");
const { tarball, packDir } = buildAndPack(pkgDir, ["@oisr/mock-server"], "oisr-mock");
const nodes = Object.fromEntries(Object.entries(packRuntimes()).map(([major, r]) => [major, r.path]));
const combos = [
  { msw: "2.11.0", nodes: ["20", "24"] },
  { msw: "^2", nodes: ["20", "24"] },
  { msw: "^3", nodes: ["24"] },
];
let failed = 0;
try {
  for (const combo of combos) {
    const dir = mkdtempSync(join(tmpdir(), "oisr-mock-consumer-"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true }));
    run("npm", ["install", "--no-audit", "--no-fund", "--silent", tarball, `msw@${combo.msw}`], { cwd: dir });
    writeFileSync(
      join(dir, "esm.mjs"),
      consumer(
        'import * as mock from "@oisr/mock-server/node";',
        'import http from "node:http";',
        'import { http as mswHttp, HttpResponse } from "msw";',
      ),
    );
    writeFileSync(
      join(dir, "cjs.cjs"),
      consumer(
        'const mock = require("@oisr/mock-server/node");',
        'const http = require("node:http");',
        'const { http: mswHttp, HttpResponse } = require("msw");',
      ),
    );
    const installed = JSON.parse(run("npm", ["ls", "msw", "--json"], { cwd: dir })).dependencies.msw.version;
    for (const major of combo.nodes) {
      for (const file of ["esm.mjs", "cjs.cjs"]) {
        const r = spawnSync(nodes[major], [file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
        const ok = r.status === 0 && r.stdout.includes("ok");
        if (!ok) failed++;
        step(`msw ${installed}, Node ${major}, ${file}: ${ok ? "ok" : `FAILED\n${r.stdout}${r.stderr}`}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}
if (failed) {
  step(`${failed} failed`);
  process.exit(1);
}
