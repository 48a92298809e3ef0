// Trace ids, traceparent, raw responses, hooks and logs against the real server.
import { randomBytes } from "node:crypto";
import { order } from "@oisr/contract/fixtures";
import { beforeAll, describe, expect, it } from "vitest";
import { NotFoundError } from "../../../src/index.ts";
import type { TestServer } from "../harness.ts";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

export const observabilityTests = (getServer: () => TestServer) =>
  describe("trace ids, raw responses, hooks and logs", () => {
    let server: TestServer;

    beforeAll(() => {
      server = getServer();
    });

    it("continues the caller's trace: the traceparent's trace id is the ack's, the record's and X-Trace-Id", async () => {
      const traceId = hex(16);
      const client = await server.newClient({ traceparent: () => `00-${traceId}-${hex(8)}-01` });

      const { data: ack, response } = await client.orders.ingest([order()]).withResponse();
      expect(response.status).toBe(202);
      expect(ack.trace_id).toBe(traceId);
      expect(response.headers.get("x-trace-id")).toBe(traceId);

      const { data: record, response: last } = await client.requests.waitFor(ack.request_id).withResponse();
      expect(record).toMatchObject({ status: "succeeded", trace_id: traceId });
      expect(last.headers.get("x-trace-id")).toBe(traceId);
    });

    it("gives each call's response, whose X-Trace-Id is the trace of results without one", async () => {
      const client = await server.newClient();
      const sent = order();
      await client.orders.ingestAndWait([sent]);
      const { data, response } = await client.orders.get(sent.external_id).withResponse();
      expect(data.external_id).toBe(sent.external_id);
      expect(response.headers.get("x-trace-id")).toMatch(/^[0-9a-f]{32}$/);
      expect(Number(response.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(0);
    });

    it("puts the server's trace id on errors", async () => {
      const traceId = hex(16);
      const client = await server.newClient({ traceparent: () => `00-${traceId}-${hex(8)}-01` });
      const err = await client.orders.get("no-such-order").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).traceId).toBe(traceId);
    });

    it("calls the hooks and logs every attempt, with the server's trace id", async () => {
      const events: string[] = [];
      const lines: string[] = [];
      const line = (message: string) => void lines.push(message);
      const client = await server.newClient({
        hooks: {
          onRequest: ({ request, attempt }) => void events.push(`→ ${request.method} ${attempt}`),
          onResponse: ({ response, durationMs }) =>
            void events.push(`← ${response.status} ${durationMs >= 0 ? "timed" : "untimed"}`),
        },
        logger: { error: line, warn: line, info: line, debug: line },
        logLevel: "info",
      });
      const { response } = await client.orders.list({ limit: 1 }).withResponse();
      expect(events).toEqual(["→ GET 1", "← 200 timed"]);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^oisr: GET \/orders → 200 in \d+ ms \(attempt 1, trace [0-9a-f]{32}\)$/);
      expect(lines[0]).toContain(response.headers.get("x-trace-id"));
    });
  });
