import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { at } from "@oisr/contract/fixtures";
import { createClient } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { order, runCli, useSystem } from "./harness.ts";

const system = useSystem();

describe("oisr orders watch", () => {
  it("prints changed orders as JSON lines and continues from --cursor-file", async () => {
    const token = await system.token();
    const client = createClient({ baseUrl: system.url, token });
    await client.orders.ingestAndWait([order(1), order(2), order(3)]);
    const cursorFile = join(system.dir, "orders.cursor");

    const first = await runCli(["orders", "watch", "--once", "--cursor-file", cursorFile], {
      url: system.url,
      token,
    });
    expect(first.code, first.stderr).toBe(0);
    const orders = first.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(orders.map((o) => o.external_id)).toEqual(["E-1", "E-2", "E-3"]);
    expect(orders[0].id).toMatch(/^ord_/);
    expect(existsSync(cursorFile)).toBe(true);

    await client.orders.ingestAndWait([order(2, { status: "on_hold", source_updated_at: at(10) })]);
    const second = await runCli(["orders", "watch", "--once", "--cursor-file", cursorFile], {
      url: system.url,
      token,
    });
    const changed = second.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(changed.map((o) => [o.external_id, o.status])).toEqual([["E-2", "on_hold"]]);

    const cursor = (await readFile(cursorFile, "utf8")).trim();
    const none = await runCli(["orders", "watch", "--once", "--cursor", cursor], { url: system.url, token });
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain(`cursor: ${cursor}`);
  });

  it("stops cleanly when interrupted while polling", async () => {
    const token = await system.token();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const run = await runCli(["orders", "watch", "--interval", "60"], {
      url: system.url,
      token,
      signal: stop.signal,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
  });
});

describe("oisr requests get", () => {
  it("prints the request record as JSON", async () => {
    const token = await system.token();
    const client = createClient({ baseUrl: system.url, token });
    const record = await client.orders.ingestAndWait([order(1)]);
    const run = await runCli(["requests", "get", record.request_id], { url: system.url, token });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      request_id: record.request_id,
      status: "succeeded",
      item_count: 1,
    });
  });

  it("requests body prints the body the request was submitted with", async () => {
    const token = await system.token();
    const client = createClient({ baseUrl: system.url, token });
    const orders = [order(2)];
    const record = await client.orders.ingestAndWait(orders);
    const run = await runCli(["requests", "body", record.request_id], { url: system.url, token });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ orders });
  });

  it("says what is wrong with an unknown id, a bad token and a bad command line", async () => {
    const token = await system.token();
    const unknown = await runCli(["requests", "get", "0193c2a4-0000-7000-8000-000000000000"], {
      url: system.url,
      token,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("404 not_found");
    const unauthorized = await runCli(["requests", "get", "x"], { url: system.url, token: "oisr_nope" });
    expect(unauthorized.stderr).toContain("401");
    for (const args of [
      ["ingest", "parcels", "f.jsonl"],
      ["ingest", "orders"],
      ["ingest", "orders", "missing.jsonl"],
      ["ingest", "returns", "returns.csv"],
      ["orders", "watch", "--bogus"],
      ["nope"],
    ]) {
      expect((await runCli(args, { url: system.url, token })).code, args.join(" ")).toBe(2);
    }
  });
});
