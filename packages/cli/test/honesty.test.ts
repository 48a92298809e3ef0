// What the CLI tells a new user, against a scripted API (no server): outcomes counted apart, a
// file in the wrong shape or of the wrong kind named before anything is sent, progress of
// `orders watch`, and a true last line after Ctrl-C.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openapiDocument } from "@oisr/contract";
import * as fixtures from "@oisr/contract/fixtures";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "./harness.ts";

const URL_ = "https://api.test/v2";
const TOKEN = "oisr_test";
const TRACE = "92e22e5cfe71ee645b71b2a1339fc915";

interface Call {
  method: string;
  path: string;
  search: string;
  body: string;
}

/** A fetch answering `"METHOD /path"` (relative to /v2) with the handler's response, recording each call. */
function scripted(routes: Record<string, (call: Call) => Response | Promise<Response>>) {
  const calls: Call[] = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    const call = {
      method: request.method,
      path: url.pathname.replace(/^\/v2/, ""),
      search: url.search,
      body: await request.text(),
    };
    calls.push(call);
    const route =
      routes[`${call.method} ${call.path}`] ??
      Object.entries(routes).find(
        ([k]) => k.endsWith("*") && `${call.method} ${call.path}`.startsWith(k.slice(0, -1)),
      )?.[1];
    return route
      ? route(call)
      : Response.json(
          { title: "not_found", status: 404, code: "not_found", trace_id: TRACE },
          { status: 404 },
        );
  };
  return { calls, fetch, posts: () => calls.filter((c) => c.method === "POST") };
}

type Outcome = "created" | "updated" | "unchanged" | "stale";

/**
 * An ingest API whose requests succeed at once: each item's outcome is `outcomeOf(item)`.
 * Every request record is kept, for GET /requests/{id}.
 */
function ingestApi(
  outcomeOf: (item: { external_id?: string }) => Outcome,
  kind = "orders",
  headers: Record<string, string> = {},
) {
  const records = new Map<string, unknown>();
  let n = 0;
  return scripted({
    "GET /openapi.json": () => Response.json(openapiDocument),
    [`POST /ingest/${kind}`]: (call) => {
      const items = (JSON.parse(call.body) as Record<string, { external_id?: string }[]>)[kind] ?? [];
      const id = `0193c2a4-0000-7000-8000-${String(++n).padStart(12, "0")}`;
      const outcomes = items.map(outcomeOf);
      const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
      records.set(id, {
        request_id: id,
        kind,
        status: "succeeded",
        item_count: items.length,
        attempts: 1,
        received_at: "2025-03-20T08:00:00.000Z",
        completed_at: "2025-03-20T08:00:01.000Z",
        trace_id: TRACE,
        result: {
          created: count("created"),
          updated: count("updated"),
          unchanged: count("unchanged"),
          stale: count("stale"),
          items: outcomes.map((outcome, index) => ({ index, type: "order", id: `ord_${index}`, outcome })),
        },
        errors: [],
        error: null,
      });
      return Response.json(
        { message: "Accepted.", request_id: id, trace_id: TRACE },
        { status: 202, headers },
      );
    },
    "GET /requests/*": (call) => Response.json(records.get(call.path.split("/").pop() ?? "")),
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "oisr-cli-honesty-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

const order = (id: string) => fixtures.order({ external_id: id });
const jsonl = (items: unknown[]) => `${items.map((i) => JSON.stringify(i)).join("\n")}\n`;

describe("the summary of an import", () => {
  it("counts created, updated, unchanged, stale and failed apart: a stale order is not 'succeeded'", async () => {
    const outcomes: Record<string, Outcome> = { C: "created", U: "updated", N: "unchanged", S: "stale" };
    const api = ingestApi((item) => outcomes[item.external_id?.[0] ?? ""] ?? "created");
    const invalid = { ...order("F-1"), currency: "euro" };
    const path = await file(
      "outcomes.jsonl",
      jsonl([order("C-1"), order("C-2"), order("U-1"), order("N-1"), order("S-1"), invalid]),
    );

    const run = await runCli(["ingest", "orders", path, "--progress", "none"], {
      url: URL_,
      token: TOKEN,
      fetch: api.fetch,
    });

    expect(run.code, run.stderr).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines.slice(0, 3)).toEqual([
      expect.stringMatching(/^Done: 4 succeeded, 1 stale, 1 failed of 6 items read; took \d+\.\d s/),
      "Outcomes: 2 created, 1 updated, 1 unchanged, 1 stale, 1 failed",
      "Stale items were not applied: the API already holds a version as new or newer (by source_updated_at; as_of for inventory).",
    ]);
    expect(JSON.parse(run.stdout)).toMatchObject({
      complete: true,
      read: 6,
      succeeded: 4,
      created: 2,
      updated: 1,
      unchanged: 1,
      stale: 1,
      failed: 1,
    });
  });

  it("says when the API answered from its idempotency records: the outcomes are those of the first time", async () => {
    const api = ingestApi(() => "created", "orders", { "Idempotent-Replayed": "true" });
    const path = await file("replayed.jsonl", jsonl([order("P-1"), order("P-2"), order("P-3")]));
    const run = await runCli(["ingest", "orders", path, "--progress", "none", "--batch-size", "2"], {
      url: URL_,
      token: TOKEN,
      fetch: api.fetch,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trim().split("\n").slice(1)).toEqual([
      "Outcomes: 3 created, 0 updated, 0 unchanged, 0 stale, 0 failed",
      "2 batches had been sent before with the same content: the API answered with the original requests (Idempotent-Replayed), so their outcomes are those of the first time; nothing was applied again.",
    ]);
    expect(JSON.parse(run.stdout)).toMatchObject({ replayed_batches: 2 });
  });

  it("a file of one stale order says 0 succeeded, 1 stale", async () => {
    const api = ingestApi(() => "stale");
    const path = await file("stale.jsonl", jsonl([order("S-1")]));
    const run = await runCli(["ingest", "orders", path, "--progress", "none"], {
      url: URL_,
      token: TOKEN,
      fetch: api.fetch,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^Done: 0 succeeded, 1 stale, 0 failed of 1 items read;/);
    expect(run.stderr).toContain("Outcomes: 0 created, 0 updated, 0 unchanged, 1 stale, 0 failed");
    expect(run.stderr).not.toMatch(/1 succeeded/);
  });
});

describe("a file that is not JSON Lines", () => {
  it("a pretty-printed JSON array: exit 2 naming the fix, nothing sent (not 107 invalid_json lines)", async () => {
    const api = ingestApi(() => "created");
    const orders = Array.from({ length: 3 }, (_, i) => order(`A-${i}`));
    const path = await file("orders.json", JSON.stringify(orders, null, 2));
    expect(JSON.stringify(orders, null, 2).split("\n").length).toBeGreaterThan(100);

    const run = await runCli(["ingest", "orders", path], { url: URL_, token: TOKEN, fetch: api.fetch });

    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `oisr ingest: ${path} holds a JSON array; the CLI reads JSON Lines, one order per line: \`jq -c '.[]' ${path} > ${path}l\`, then import that file`,
    );
    expect(run.stderr).not.toContain("invalid_json");
    expect(api.calls).toEqual([]);
    expect(run.stdout).toBe("");
  });

  it("an array on one line, and pretty-printed objects, are named too", async () => {
    const api = ingestApi(() => "created");
    const oneLine = await file("one-line.jsonl", `${JSON.stringify([order("B-1"), order("B-2")])}\n`);
    const array = await runCli(["ingest", "returns", oneLine], { url: URL_, token: TOKEN, fetch: api.fetch });
    expect(array.code).toBe(2);
    expect(array.stderr).toContain(
      `holds a JSON array; the CLI reads JSON Lines, one return per line: \`jq -c '.[]' ${oneLine} > ${join(dir, "one-line.lines.jsonl")}\``,
    );

    const pretty = await file("pretty.jsonl", `${JSON.stringify(order("B-3"), null, 2)}\n`);
    const object = await runCli(["ingest", "orders", pretty, "--skip-validation"], {
      url: URL_,
      token: TOKEN,
      fetch: api.fetch,
    });
    expect(object.code).toBe(2);
    expect(object.stderr).toContain(
      `${pretty} holds pretty-printed JSON (an order spread over several lines); the CLI reads JSON Lines, one order per line: \`jq -c . ${pretty} > ${join(dir, "pretty.lines.jsonl")}\``,
    );
    expect(api.calls).toEqual([]);
  });
});

describe("a file of another kind", () => {
  it("orders sent as returns: exit 2, 'looks like an order, not a return', nothing sent", async () => {
    const api = ingestApi(() => "created", "returns");
    const path = await file(
      "orders-as-returns.jsonl",
      jsonl(Array.from({ length: 40 }, (_, i) => order(`R-${i}`))),
    );

    const run = await runCli(["ingest", "returns", path], { url: URL_, token: TOKEN, fetch: api.fetch });

    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `oisr ingest: the first record (line 1) looks like an order, not a return; did you mean \`oisr ingest orders ${path}\`?`,
    );
    expect(api.posts()).toEqual([]);
  });

  it("an orders CSV sent as shipments, read as each kind's CSV reader reads it", async () => {
    const api = ingestApi(() => "created", "shipments");
    const csv = await file(
      "orders.csv",
      [
        "external_id,source,currency,placed_at,source_updated_at,ship_to.name,ship_to.line1,ship_to.city,ship_to.country,line_id,sku,line_name,quantity,unit_price",
        '1001,shop,EUR,2025-01-01T10:00:00Z,2025-01-01T10:00:00Z,"Lovelace, Ada",1 Main St,Berlin,DE,1,SKU-1,Mug,2,19.99',
        "1001,,,,,,,,,2,SKU-2,Plate,1,4.50",
        "",
      ].join("\n"),
    );
    const run = await runCli(["ingest", "shipments", csv], { url: URL_, token: TOKEN, fetch: api.fetch });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `looks like an order, not a shipment; did you mean \`oisr ingest orders ${csv}\`?`,
    );
    expect(api.posts()).toEqual([]);
  });

  it("a first record valid for no kind is left to the import, which reports its problems", async () => {
    const api = ingestApi(() => "created");
    const path = await file("bad-first.jsonl", jsonl([{ ...order("X-1"), currency: "euro" }, order("X-2")]));
    const run = await runCli(["ingest", "orders", path, "--progress", "none"], {
      url: URL_,
      token: TOKEN,
      fetch: api.fetch,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("Done: 1 succeeded, 1 failed of 2 items read");
  });
});

describe("oisr orders watch --once on a long feed", () => {
  it("says on stderr how many pages and orders it has read, at most every 2 s, then the total", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const pageCount = 12;
    const api = scripted({
      "GET /orders": (call) => {
        const at = Number(new URLSearchParams(call.search).get("cursor") ?? "0");
        // Each page takes 0.5 s: progress every 4 pages.
        vi.setSystemTime(Date.now() + 500);
        const data = Array.from({ length: 200 }, (_, i) => ({ id: `ord_${at * 200 + i}` }));
        return Response.json({ data, next_cursor: String(at + 1), has_more: at + 1 < pageCount });
      },
    });

    const run = await runCli(["orders", "watch", "--once"], { url: URL_, token: TOKEN, fetch: api.fetch });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(2400);
    expect(run.stderr.trim().split("\n")).toEqual([
      "orders watch: 4 pages, 800 orders read in 2.0 s so far…",
      "orders watch: 8 pages, 1,600 orders read in 4.0 s so far…",
      "orders watch: done: 12 pages, 2,400 orders read in 6.0 s",
      "cursor: 12",
    ]);
  });

  it("after Ctrl-C, says how far it got", async () => {
    const stop = new AbortController();
    const api = scripted({
      "GET /orders": (call) => {
        const at = Number(new URLSearchParams(call.search).get("cursor") ?? "0");
        if (at === 3) stop.abort();
        return Response.json({ data: [{ id: `ord_${at}` }], next_cursor: String(at + 1), has_more: true });
      },
    });
    const run = await runCli(["orders", "watch", "--once"], {
      url: URL_,
      token: TOKEN,
      fetch: api.fetch,
      signal: stop.signal,
    });
    expect(run.code).toBe(0);
    const lines = run.stderr.trim().split("\n");
    expect(lines.slice(-2)).toEqual([
      expect.stringMatching(/^orders watch: interrupted after 4 pages, 4 orders read in \d+\.\d s$/),
      "cursor: 4",
    ]);
  });
});
