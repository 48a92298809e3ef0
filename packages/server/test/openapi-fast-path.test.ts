// The ingest fast path (http/openapi-fast-path.ts) approves only calls express-openapi-validator
// would approve: the same table of ingest calls, sent to a server that takes the fast path and to one
// that validates every call (and its responses) with the validator, gets the same answers.
import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";

const servers: { server: RunningServer; token: string }[] = [];

beforeAll(async () => {
  for (const validate of ["0", "1"]) {
    const server = await startServer(
      loadConfig({
        PORT: "0",
        LOG_LEVEL: "silent",
        OISR_ROLE: "api",
        OISR_DATA_DIR: "memory://",
        OISR_VALIDATE_RESPONSES: validate,
      }),
    );
    servers.push({ server, token: (await server.services.accounts.createAccount("fast")).token });
  }
});

afterAll(async () => {
  for (const { server } of servers) await server.close();
});

const body = () => JSON.stringify({ orders: [order()] });
const json = { "content-type": "application/json" };

/** [name, path, headers, body]: calls the fast path takes, and calls it must leave to the validator. */
const calls: [string, string, Record<string, string>, string][] = [
  ["plain", "/ingest/orders", json, body()],
  ["inventory", "/ingest/inventory", json, JSON.stringify({ snapshots: [] })],
  ["charset", "/ingest/orders", { "content-type": "application/json; charset=utf-8" }, body()],
  ["upper-case type", "/ingest/orders", { "content-type": "Application/JSON" }, body()],
  ["utf-16", "/ingest/orders", { "content-type": "application/json; charset=utf-16" }, body()],
  ["text", "/ingest/orders", { "content-type": "text/plain" }, body()],
  ["vendor json", "/ingest/orders", { "content-type": "application/vnd.api+json" }, body()],
  ["key", "/ingest/orders", { ...json, "idempotency-key": "k-1" }, body()],
  ["long key", "/ingest/orders", { ...json, "idempotency-key": "k".repeat(256) }, body()],
  ["key with a tab", "/ingest/orders", { ...json, "idempotency-key": "a\tb" }, body()],
  ["key of 255", "/ingest/orders", { ...json, "idempotency-key": "k".repeat(255) }, body()],
  [
    "traceparent",
    "/ingest/orders",
    { ...json, traceparent: "00-5e05a0f9b6eac538ba9702f9c2a31970-b7ad6b7169203331-01" },
    body(),
  ],
  ["bad traceparent", "/ingest/orders", { ...json, traceparent: "nonsense" }, body()],
  ["long traceparent", "/ingest/orders", { ...json, traceparent: "x".repeat(513) }, body()],
  ["query", "/ingest/orders?x=1", json, body()],
  ["empty query", "/ingest/orders?", json, body()],
  ["no body", "/ingest/orders", json, ""],
  ["null body", "/ingest/orders", json, "null"],
  ["array body", "/ingest/orders", json, "[]"],
  ["invalid body", "/ingest/orders", json, JSON.stringify({ orders: [{}] })],
  ["malformed body", "/ingest/orders", json, "{"],
  ["trailing slash", "/ingest/orders/", json, body()],
  ["upper-case path", "/ingest/ORDERS", json, body()],
  ["dispositions", "/ingest/returns/ret_missing/dispositions", json, JSON.stringify({ dispositions: [] })],
];

/** The answer without what differs by server or call: ids, trace ids, rate-limit counts. */
async function answer(
  target: (typeof servers)[number],
  path: string,
  headers: Record<string, string>,
  text: string,
) {
  const res = await fetch(`${target.server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${target.token}`, ...headers },
    ...(text === "" ? {} : { body: text }),
  });
  const raw = await res.text();
  let parsed: unknown = raw;
  try {
    parsed = JSON.parse(raw, (key, value) =>
      key === "request_id" || key === "trace_id" ? typeof value : value,
    );
  } catch {}
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    replayed: res.headers.get("idempotent-replayed"),
    // A valid traceparent's trace id is answered; a new one is made otherwise.
    traced: res.headers.get("x-trace-id") === "5e05a0f9b6eac538ba9702f9c2a31970",
    // The 202 is written without res.json where responses are not validated (http/accepted-reply.ts):
    // the same headers with the same values, but for ids, times and counts.
    headers: [...res.headers].map(([name, value]) =>
      /^(date|x-trace-id|x-ratelimit-remaining|x-ratelimit-reset)$/.test(name)
        ? name
        : `${name}: ${value.replace(/\/v2\/requests\/[0-9a-f-]{36}$/, "/v2/requests/{id}")}`,
    ),
    body: parsed,
  };
}

describe("ingest fast path", () => {
  it.each(calls)("%s: the same answer with and without the fast path", async (_name, path, headers, text) => {
    const [fast, checked] = servers as [(typeof servers)[number], (typeof servers)[number]];
    const a = await answer(fast, path, headers, text);
    const b = await answer(checked, path, headers, text);
    expect(a).toEqual(b);
  });

  it("covers both outcomes: some calls of the table are accepted, some refused", async () => {
    const statuses = new Set<number>();
    for (const [, path, headers, text] of calls)
      statuses.add((await answer(servers[0] as (typeof servers)[number], path, headers, text)).status);
    expect([...statuses]).toEqual(expect.arrayContaining([202, 400, 415]));
  });
});
