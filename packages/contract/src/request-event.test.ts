import { describe, expect, it } from "vitest";
import { BodyValidator } from "./body-validator.ts";
import {
  type FinalRequestRecord,
  isFinalRecord,
  REQUEST_EVENT_LIST_LIMIT,
  requestEvent,
  requestEventObject,
} from "./request-event.ts";
import type { RequestRecord } from "./request-record.ts";
import { openapiDocument } from "./spec.ts";

const ID = "0190a0a0-0000-7000-8000-000000000001";

const withoutLinks = ({ retry_of: _of, retried_by: _by, ...rest }: FinalRequestRecord) => rest;

const base: FinalRequestRecord = {
  request_id: ID,
  kind: "orders",
  status: "succeeded",
  trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
  idempotency_key: null,
  api_key_id: "key_01JKQ9ZT1E4N7C2H8V5B3M6X0P",
  item_count: 2,
  accepted_at: "2026-01-01T10:00:00.000Z",
  started_at: "2026-01-01T10:00:00.050Z",
  completed_at: "2026-01-01T10:00:00.120Z",
  attempts: 1,
  // A retry: the event leaves both links out (the record at `url` has them).
  retry_of: "0190a0a0-0000-7000-8000-000000000000",
  retried_by: null,
  result: null,
  errors: [],
  error: null,
};

const items = (n: number) =>
  Array.from({ length: n }, (_, index) => ({
    index,
    type: "order" as const,
    id: `ord_${index}`,
    outcome: "created" as const,
  }));

const succeeded = (n: number): FinalRequestRecord => ({
  ...base,
  item_count: n,
  result: { created: n, updated: 0, unchanged: 0, stale: 0, items: items(n) },
});

const failed = (n: number): FinalRequestRecord => ({
  ...base,
  status: "failed",
  item_count: n,
  errors: Array.from({ length: n }, (_, i) => ({
    pointer: `/orders/${i}/lines/0/quantity`,
    code: "quantity_exceeds_ordered" as const,
    message: "too many",
  })),
});

// The spec's own schema: whatever the builder makes must validate as the webhook body.
const validator = new BodyValidator(openapiDocument);
const problems = (event: unknown) =>
  validator.validate({ $ref: "#/components/schemas/RequestEvent" }, structuredClone(event));

describe("request events", () => {
  it.each([
    ["a small succeeded batch keeps its items", succeeded(2), 2],
    ["a batch of exactly 100 keeps them", succeeded(REQUEST_EVENT_LIST_LIMIT), REQUEST_EVENT_LIST_LIMIT],
    ["a batch of 101 leaves them out", succeeded(REQUEST_EVENT_LIST_LIMIT + 1), undefined],
  ])("%s", (_name, record, itemCount) => {
    const object = requestEventObject(record);
    expect(object.result?.items?.length).toBe(itemCount);
    expect(object.result).toMatchObject({ created: record.item_count, updated: 0, unchanged: 0, stale: 0 });
    expect(object.url).toBe(`/v2/requests/${ID}`);
    expect(object.errors_total).toBe(0);
  });

  it("carries the first 100 errors and counts them all", () => {
    const object = requestEventObject(failed(250));
    expect(object.errors).toHaveLength(REQUEST_EVENT_LIST_LIMIT);
    expect(object.errors[0]?.pointer).toBe("/orders/0/lines/0/quantity");
    expect(object.errors_total).toBe(250);
    expect(object.result).toBeNull();
    expect(requestEventObject(failed(3)).errors).toHaveLength(3);
  });

  it("is the record otherwise, field for field, without the retry links", () => {
    const { retry_of, retried_by, ...record } = failed(1);
    expect(retry_of).not.toBeNull();
    const { errors_total, url, ...rest } = requestEventObject({ ...record, retry_of, retried_by });
    expect(rest).toEqual(record);
    expect([errors_total, url]).toEqual([1, `/v2/requests/${ID}`]);
  });

  it("builds the body: type from the status, created at the completion, url under the API's mount", () => {
    const dead: FinalRequestRecord = {
      ...base,
      status: "dead",
      attempts: 5,
      error: { code: "processing_failed", message: "gone" },
    };
    const event = requestEvent("evt_1", dead, "/api/v2/requests");
    expect(event).toEqual({
      id: "evt_1",
      type: "request.dead",
      created_at: dead.completed_at,
      api_key_id: dead.api_key_id,
      data: { object: { ...withoutLinks(dead), errors_total: 0, url: `/api/v2/requests/${ID}` } },
    });
    expect(requestEvent("evt_2", succeeded(1)).type).toBe("request.succeeded");
    expect(requestEvent("evt_3", failed(1)).type).toBe("request.failed");
  });

  it.each([
    ["succeeded", requestEvent("evt_01JP9YVEM4CV7ZK8RZ1WQ3N5TB", succeeded(3))],
    ["succeeded, large", requestEvent("evt_01JP9YVEM4CV7ZK8RZ1WQ3N5TB", succeeded(1000))],
    ["failed, many errors", requestEvent("evt_01JP9YVEM4CV7ZK8RZ1WQ3N5TB", failed(1000))],
  ])("validates against the spec's RequestEvent (%s)", (_name, event) => {
    expect(problems(event)).toBeNull();
  });

  it("an event over the spec's bounds is refused (the check above can fail)", () => {
    const unbounded = requestEvent("evt_01JP9YVEM4CV7ZK8RZ1WQ3N5TB", failed(1));
    unbounded.data.object.errors = failed(101).errors;
    expect(problems(unbounded)).not.toBeNull();
  });

  it("is made only of final records", () => {
    const pending: RequestRecord = { ...base, status: "processing", completed_at: null };
    expect(isFinalRecord(pending)).toBe(false);
    expect(isFinalRecord({ ...base, status: "pending" })).toBe(false);
    expect(isFinalRecord(base)).toBe(true);
  });
});
