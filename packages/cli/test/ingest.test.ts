import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createClient } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { countingFetch, order, runCli, useSystem } from "./harness.ts";

const system = useSystem();

async function count(token: string) {
  const client = createClient({ baseUrl: system.url, token });
  let requests = 0;
  let orders = 0;
  for await (const _ of client.requests.iterate({ limit: 200 })) requests += 1;
  for await (const _ of client.orders.iterate({ limit: 200 })) orders += 1;
  return { requests, orders };
}

async function jsonl(name: string, lines: string[]): Promise<string> {
  const path = join(system.dir, name);
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

describe("oisr ingest orders FILE.jsonl", () => {
  it.each([
    ["checked against the API's schema before sending", []],
    ["checked by the API only (--skip-validation)", ["--skip-validation"]],
  ])("imports the valid lines and reports each invalid one with its line number, %s", async (_, flags) => {
    const token = await system.token();
    const lines = Array.from({ length: 25 }, (_, i) => JSON.stringify(order(i + 1)));
    // Line 4: rejected by business rules (the request fails); line 9: not JSON;
    // lines 10 and 17: schema violations (found before sending, or answered 400 by the API).
    lines[3] = JSON.stringify(
      order(4, {
        lines: [
          { line_id: "1", sku: "A", quantity: 1, unit_price: "1.00" },
          { line_id: "1", sku: "B", quantity: 1, unit_price: "1.00" },
        ],
      }),
    );
    lines[8] = "{not json";
    lines[9] = JSON.stringify(
      order(10, { lines: [{ line_id: "1", sku: "A", quantity: 0, unit_price: "1.00" }] }),
    );
    lines[16] = JSON.stringify(order(17, { currency: "euro" }));
    const file = await jsonl(`invalid${flags.length}.jsonl`, lines);
    const report = join(system.dir, `invalid${flags.length}-failures.jsonl`);

    const run = await runCli(["ingest", "orders", file, "--batch-size", "10", "--report", report, ...flags], {
      url: system.url,
      token,
    });

    expect(run.code, run.stderr).toBe(1);
    const failures = (await readFile(report, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(failures.map((f) => [f.line, f.pointer, f.code])).toEqual([
      [4, "/lines/1/line_id", "duplicate_line_id"],
      [9, "", "invalid_json"],
      [10, "/lines/0/quantity", "minimum"],
      [17, "/currency", expect.any(String)],
    ]);
    expect(failures[0].request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(run.stdout)).toMatchObject({
      complete: true,
      read: 25,
      succeeded: 21,
      failed: 4,
      http_429: 0,
    });
    expect((await count(token)).orders).toBe(21);
    // Failures keep the state file, so running again re-reports them without sending anything.
    expect(existsSync(`${file}.oisr-state.json`)).toBe(true);
    const { calls, fetch, count: calls2 } = countingFetch();
    const again = await runCli(["ingest", "orders", file, "--batch-size", "10", ...flags], {
      url: system.url,
      token,
      fetch,
    });
    expect(again.code).toBe(1);
    expect(calls2("POST /v2/ingest/orders")).toBe(0);
    expect(calls.filter((c) => c !== "GET /v2/openapi.json")).toEqual([]);
    expect(again.stderr).toContain("line 9  invalid_json");
  });

  it("resumes an interrupted run without sending any batch twice", async () => {
    const token = await system.token();
    const file = await jsonl(
      "resume.jsonl",
      Array.from({ length: 12 }, (_, i) => JSON.stringify(order(i + 1))),
    );
    const stop = new AbortController();
    let acks = 0;
    const first = countingFetch((request, response) => {
      // Interrupt (as Ctrl-C does) right after the second batch is acknowledged.
      if (request.method === "POST" && response.status === 202 && ++acks === 2) stop.abort();
    });
    const args = ["ingest", "orders", file, "--batch-size", "3", "--concurrency", "1"];

    const interrupted = await runCli(args, {
      url: system.url,
      token,
      fetch: first.fetch,
      signal: stop.signal,
    });
    expect(interrupted.code, interrupted.stderr).toBe(3);
    expect(interrupted.stderr).toContain("run the same command again to resume");
    expect(first.count("POST /v2/ingest/orders")).toBe(2);
    const state = JSON.parse(await readFile(`${file}.oisr-state.json`, "utf8"));
    expect(Object.keys(state.batches)).toEqual(["0", "1"]);
    expect(state.batches[1].request_id).toBeDefined();

    const second = countingFetch();
    const resumed = await runCli(args, { url: system.url, token, fetch: second.fetch });
    expect(resumed.code, resumed.stderr).toBe(0);
    // Batch 1 was acknowledged before the interruption: only awaited, not re-sent.
    expect(second.count("POST /v2/ingest/orders")).toBe(2);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      complete: true,
      succeeded: 12,
      failed: 0,
      resumed_batches: 1,
    });
    expect(await count(token)).toEqual({ requests: 4, orders: 12 });
    expect(existsSync(`${file}.oisr-state.json`)).toBe(false);
  });

  it("refuses to resume when the file changed, until --fresh", async () => {
    const token = await system.token();
    const file = await jsonl("changed.jsonl", [JSON.stringify(order(1)), JSON.stringify(order(2))]);
    const stop = new AbortController();
    stop.abort();
    const args = ["ingest", "orders", file, "--batch-size", "1"];
    await writeFile(
      `${file}.oisr-state.json`,
      JSON.stringify({
        version: 1,
        file: await import("node:fs/promises").then((fs) => fs.realpath(file)),
        kind: "orders",
        format: "jsonl",
        batch_size: 1,
        batches: {
          0: {
            content: "other",
            item_count: 1,
            excluded: [],
            attempt: 0,
            done: true,
            succeeded: 1,
            failures: [],
          },
        },
      }),
    );
    const refused = await runCli(args, { url: system.url, token });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("--fresh");
    const fresh = await runCli([...args, "--fresh"], { url: system.url, token });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect((await count(token)).orders).toBe(2);
  });
});
