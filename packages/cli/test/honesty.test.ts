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
function ingestApi(outcomeOf: (item: { external_id?: string }) => Outcome, kind = "orders") {
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
      return Response.json({ message: "Accepted.", request_id: id, trace_id: TRACE }, { status: 202 });
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
