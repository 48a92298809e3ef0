import { describe, expect, it } from "vitest";
import { createCursorCodec } from "./cursor.ts";
import {
  acceptedHeaders,
  ingestAccepted,
  isoInstant,
  requestPage,
  type StoredRequest,
  toRequestRecord,
} from "./request-record.ts";

const stored: StoredRequest = {
  id: "0190a0a0-0000-7000-8000-000000000001",
  kind: "orders",
  status: "pending",
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  idempotencyKey: "k-1",
  apiKeyId: "key_01JKQ9ZT1E4N7C2H8V5B3M6X0P",
  itemCount: 2,
  acceptedAt: Date.UTC(2026, 0, 1, 10),
  startedAt: null,
  completedAt: null,
  attempts: 0,
  // Left over from earlier attempts: only the one the status names may show.
  result: { created: 1, updated: 0, unchanged: 0, stale: 0, items: [] },
  errors: [{ pointer: "/orders/0", code: "order_not_found", message: "no" }],
  error: { code: "processing_failed", message: "gone" },
};

describe("request records", () => {
  it("map every field, times in RFC 3339 UTC", () => {
    expect(toRequestRecord(stored)).toEqual({
      request_id: stored.id,
      kind: "orders",
      status: "pending",
      trace_id: stored.traceId,
      idempotency_key: "k-1",
      api_key_id: "key_01JKQ9ZT1E4N7C2H8V5B3M6X0P",
      item_count: 2,
      accepted_at: "2026-01-01T10:00:00.000Z",
      started_at: null,
      completed_at: null,
      attempts: 0,
      retry_of: null,
      retried_by: null,
      result: null,
      errors: [],
      error: null,
    });
  });

  it("read PostgreSQL's timestamp text and epoch milliseconds alike", () => {
    const record = toRequestRecord({
      ...stored,
      acceptedAt: "2026-01-01 10:00:00.123+00",
      startedAt: "2026-01-01 12:00:00.5+02",
      completedAt: Date.UTC(2026, 0, 1, 10, 0, 1),
    });
    expect([record.accepted_at, record.started_at, record.completed_at]).toEqual([
      "2026-01-01T10:00:00.123Z",
      "2026-01-01T10:00:00.500Z",
      "2026-01-01T10:00:01.000Z",
    ]);
  });

  it.each([
    ["succeeded", { result: stored.result, errors: [], error: null }],
    ["failed", { result: null, errors: stored.errors, error: null }],
    ["dead", { result: null, errors: [], error: stored.error }],
    ["processing", { result: null, errors: [], error: null }],
  ] as const)("show on %s only its own outcome", (status, shown) => {
    expect(toRequestRecord({ ...stored, status })).toMatchObject(shown);
  });

  it("show a failed request without stored errors with an empty list", () => {
    expect(toRequestRecord({ ...stored, status: "failed", errors: null }).errors).toEqual([]);
  });
});

describe("isoInstant", () => {
  // PostgreSQL's UTC text is rewritten, not parsed: the answer must be exactly what Date gives.
  it.each([
    "2026-01-01 10:00:00+00",
    "2026-01-01 10:00:00.5+00",
    "2026-01-01 10:00:00.12+00",
    "2026-01-01 10:00:00.123+00",
    "2026-12-31 23:59:59.999999+00",
    "2028-02-29 00:00:00.000001+00",
    "1999-07-04 12:34:56.0405+00",
  ])("reads %s as Date does", (text) => {
    expect(isoInstant(text)).toBe(new Date(text).toISOString());
  });

  it("reads 2,000 random instants of a year, numbers and other texts as Date does", () => {
    for (let i = 0; i < 2000; i++) {
      const ms = Date.UTC(2026, 0, 1) + Math.floor(Math.random() * 366 * 86_400_000);
      const micros = String(Math.floor(Math.random() * 1000)).padStart(3, "0");
      const text = `${new Date(ms).toISOString().replace("T", " ").replace("Z", "")}${micros}+00`;
      expect(isoInstant(text)).toBe(new Date(text).toISOString());
      expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
    }
    expect(isoInstant("2026-01-01T10:00:00.123Z")).toBe("2026-01-01T10:00:00.123Z");
    expect(isoInstant("2026-01-01 12:00:00+02")).toBe("2026-01-01T10:00:00.000Z");
  });
});

describe("request pages", () => {
  const cursors = createCursorCodec("k").forAccount("acc_A");
  const rows = [3, 2, 1].map((seq) => ({ ...stored, seq, id: `r-${seq}` }));

  it.each([
    ["a full page", rows, null, ["r-3", "r-2"], true, 2],
    ["the last page", rows.slice(2), 2, ["r-1"], false, 1],
    ["an empty page after the last: the cursor stays past it", [], 1, [], false, 1],
    ["an empty list from the start", [], null, [], false, 0],
  ] as const)("%s", async (_case, page, before, ids, hasMore, position) => {
    const answer = await requestPage(cursors, page, toRequestRecord, {
      limit: 2,
      before,
      filters: { kind: "orders" },
    });
    expect(answer.data.map((r) => r.request_id)).toEqual(ids);
    expect(answer.has_more).toBe(hasMore);
    expect(await cursors.decode(answer.next_cursor, {})).toEqual({ position, filters: { kind: "orders" } });
  });
});

describe("the 202 answer", () => {
  it("acknowledges with the request id and trace id", () => {
    expect(ingestAccepted("r-1", "t-1")).toEqual({
      message: "Accepted for processing.",
      request_id: "r-1",
      trace_id: "t-1",
    });
  });

  it.each([
    [false, { Location: "/v2/requests/r-1", "Retry-After": "1" }],
    [true, { Location: "/v2/requests/r-1", "Retry-After": "1", "Idempotent-Replayed": "true" }],
  ])("says where to poll (replayed: %s)", (replayed, headers) => {
    expect(acceptedHeaders("/v2/requests", "r-1", replayed)).toEqual(headers);
  });
});
