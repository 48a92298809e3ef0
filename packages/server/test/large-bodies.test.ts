// Bodies over the large-body threshold (1 MiB) are checked in slices on the CPU lane
// (http/large-json.ts): what lies past the first slices is found as in one pass. PGlite.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer(
    loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_ROLE: "api", OISR_DATA_DIR: "memory://" }),
  );
  token = (await server.services.accounts.createAccount("large")).token;
});
afterAll(() => server.close());

/** Two snapshots of 10,000 items: about 1.2 MB of JSON text. */
function snapshots(lastSku = "SKU-LAST"): { snapshots: unknown[] } {
  const items = (n: number) =>
    Array.from({ length: 10_000 }, (_, i) => ({ sku: `SKU-${n}-${i}-PADDED`, on_hand: 5, available: 4 }));
  const second = items(1);
  (second[9_999] as { sku: string }).sku = lastSku;
  return {
    snapshots: [
      { location_id: "wh-1", as_of: "2025-03-14T09:00:00Z", mode: "partial", items: items(0) },
      { location_id: "wh-2", as_of: "2025-03-14T09:00:00Z", mode: "partial", items: second },
    ],
  };
}

async function post(text: string, headers: Record<string, string> = {}) {
  expect(text.length).toBeGreaterThan(1 << 20);
  const res = await fetch(`${server.url}/ingest/inventory`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: text,
  });
  return {
    status: res.status,
    replayed: res.headers.get("idempotent-replayed"),
    problem: (await res.json()) as {
      code?: string;
      detail?: string;
      request_id?: string;
      errors?: { pointer: string }[];
    },
  };
}

describe("large bodies checked in slices", () => {
  it("a valid body is accepted", async () => {
    expect((await post(JSON.stringify(snapshots()))).status).toBe(202);
  });

  it("a valid body with an idempotency key, sent again with other spacing, is replayed", async () => {
    const body = snapshots("SKU-KEYED");
    const first = await post(JSON.stringify(body), { "idempotency-key": "large-1" });
    expect(first.status).toBe(202);
    // Serialised in steps, the stored hash is that of JSON.stringify: other spacing is the same body.
    const again = await post(JSON.stringify(body, null, 1), { "idempotency-key": "large-1" });
    expect(again.status).toBe(202);
    expect(again.replayed).toBe("true");
    expect(again.problem.request_id).toBe(first.problem.request_id);
  });

  it("nesting too deep at the end of the body is refused before parsing", async () => {
    const text = JSON.stringify(snapshots());
    const deep = `${"[".repeat(40)}1${"]".repeat(40)}`;
    const { status, problem } = await post(`${text.slice(0, -1)},"extra":${deep}}`);
    expect(status).toBe(400);
    expect(problem.code).toBe("invalid_json");
    expect(problem.detail).toContain("nests deeper");
  });

  it("an escaped U+0000 in the last item is refused, and named", async () => {
    const { status, problem } = await post(JSON.stringify(snapshots("A\u0000B")));
    expect(status).toBe(400);
    expect(problem.errors?.[0]?.pointer).toBe("/snapshots/1/items/9999/sku");
  });
});
