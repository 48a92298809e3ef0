// OpenTelemetry end to end: an in-process server (API, worker, dispatcher) exporting to an
// in-process OTLP/HTTP receiver, delivering a webhook to a real receiver. One ingest call with a
// caller's traceparent must yield one connected trace: HTTP call → publish → queue wait → apply →
// fan-out → delivery, whose traceparent reaches the receiver. Runs once per OTLP protocol.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { order } from "@oisr/contract/fixtures";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import {
  freshDatabaseEnv,
  type Received,
  type Receiver,
  startReceiver,
  waitFor,
} from "../src/webhooks/test-support.ts";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const CALLER_SPAN = "b7ad6b7169203331";
const TRACEPARENT = `00-${TRACE}-${CALLER_SPAN}-01`;
const KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  links: { traceId: string; spanId: string }[];
  attributes: Record<string, unknown>;
}

interface OtlpReceiver {
  url: string;
  posts: { path: string; contentType: string; body: Buffer }[];
  close(): Promise<void>;
}

/** A collector stand-in: keeps every POST body as sent, answers 200 with an empty body. */
async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const posts: OtlpReceiver["posts"] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      posts.push({
        path: req.url ?? "",
        contentType: String(req.headers["content-type"]),
        body: Buffer.concat(chunks),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
};

/** OTLP/JSON: ids are hex strings, attributes key/value lists. */
function spansFromJson(bodies: Buffer[]): ExportedSpan[] {
  return bodies.flatMap((body) => {
    const request = JSON.parse(body.toString("utf8")) as {
      resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[];
    };
    return request.resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) =>
        s.spans.map((span) => ({
          traceId: span.traceId as string,
          spanId: span.spanId as string,
          parentSpanId: (span.parentSpanId as string | undefined) ?? "",
          name: span.name as string,
          kind: span.kind as number,
          links: ((span.links as { traceId: string; spanId: string }[] | undefined) ?? []).map((l) => ({
            traceId: l.traceId,
            spanId: l.spanId,
          })),
          attributes: Object.fromEntries(
            ((span.attributes as { key: string; value: AnyValue }[] | undefined) ?? []).map((a) => [
              a.key,
              a.value.stringValue ??
                (a.value.intValue === undefined ? undefined : Number(a.value.intValue)) ??
                a.value.boolValue ??
                a.value.doubleValue,
            ]),
          ),
        })),
      ),
    );
  });
}

/** The fields of one protobuf message: field number → values (varints as numbers, bytes as Buffers). */
function protoFields(buf: Buffer): Map<number, (number | Buffer)[]> {
  const fields = new Map<number, (number | Buffer)[]>();
  let at = 0;
  const varint = () => {
    let value = 0;
    let shift = 1;
    for (;;) {
      const byte = buf[at++] as number;
      value += (byte & 0x7f) * shift;
      if (byte < 0x80) return value;
      shift *= 128;
    }
  };
  const take = (length: number) => {
    at += length;
    return buf.subarray(at - length, at);
  };
  while (at < buf.length) {
    const key = varint();
    const wire = key % 8;
    const value =
      wire === 0
        ? varint()
        : wire === 1
          ? take(8)
          : wire === 5
            ? take(4)
            : wire === 2
              ? take(varint())
              : null;
    if (value === null) throw new Error(`unexpected wire type ${wire}`);
    const field = Math.floor(key / 8);
    fields.set(field, [...(fields.get(field) ?? []), value]);
  }
  return fields;
}

const bytes = (fields: Map<number, (number | Buffer)[]>, n: number) =>
  (fields.get(n) ?? []).filter((v): v is Buffer => Buffer.isBuffer(v));

/** OTLP/protobuf (opentelemetry/proto/trace/v1): only what the assertions read. */
function spansFromProtobuf(bodies: Buffer[]): ExportedSpan[] {
  return bodies.flatMap((body) =>
    bytes(protoFields(body), 1).flatMap((resourceSpans) =>
      bytes(protoFields(resourceSpans), 2).flatMap((scopeSpans) =>
        bytes(protoFields(scopeSpans), 2).map((encoded) => {
          const span = protoFields(encoded);
          const hex = (n: number) => bytes(span, n)[0]?.toString("hex") ?? "";
          return {
            traceId: hex(1),
            spanId: hex(2),
            parentSpanId: hex(4),
            name: bytes(span, 5)[0]?.toString("utf8") ?? "",
            kind: (span.get(6)?.[0] as number | undefined) ?? 0,
            links: bytes(span, 13).map((link) => {
              const l = protoFields(link);
              return {
                traceId: bytes(l, 1)[0]?.toString("hex") ?? "",
                spanId: bytes(l, 2)[0]?.toString("hex") ?? "",
              };
            }),
            attributes: {},
          };
        }),
      ),
    ),
  );
}

interface Run {
  spans: ExportedSpan[];
  posts: OtlpReceiver["posts"];
  delivery: Received;
  returnAck: { status: number; traceId: string | null; body: { request_id: string; trace_id: string } };
  orderAck: { traceId: string | null; body: { trace_id: string } };
  /** The calling key's id, on the HTTP spans. */
  apiKeyId: string;
}

/** One server with tracing on: a subscription, an order, then a return sent with TRACEPARENT. */
async function run(protocol: "http/json" | "http/protobuf"): Promise<Run> {
  const otlp = await startOtlpReceiver();
  const hooks: Receiver = await startReceiver();
  const db = await freshDatabaseEnv();
  let server: RunningServer | undefined;
  try {
    server = await startServer(
      loadConfig({
        PORT: "0",
        LOG_LEVEL: "silent",
        OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_SERVICE_NAME: "oisr-tracing-test",
        ...db.env,
      }),
    );
    const { token, api_key_id: apiKeyId } = await server.services.accounts.createAccount("tracing-test");
    const call = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(`${server?.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return {
        status: res.status,
        traceId: res.headers.get("x-trace-id"),
        body: text ? JSON.parse(text) : undefined,
      };
    };
    const settled = (requestId: string) =>
      waitFor(async () => {
        const record = await call("GET", `/requests/${requestId}`);
        return ["succeeded", "failed", "dead"].includes(record.body.status) ? record.body.status : undefined;
      }, "request to finish");

    expect(
      (await call("POST", "/webhook_subscriptions", { url: hooks.url, events: ["return.created"] })).status,
    ).toBe(201);
    const orderAck = await call("POST", "/ingest/orders", { orders: [order({ external_id: "SO-1" })] });
    expect(await settled(orderAck.body.request_id)).toBe("succeeded");
    const returnAck = await call(
      "POST",
      "/ingest/returns",
      {
        returns: [
          {
            external_id: "RMA-1",
            order_id: "SO-1",
            items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }],
            requested_at: "2025-03-05T08:00:00Z",
            source_updated_at: "2025-03-05T08:00:00Z",
          },
        ],
      },
      { traceparent: TRACEPARENT },
    );
    expect(await settled(returnAck.body.request_id)).toBe("succeeded");
    const delivery = await waitFor(() => hooks.received[0], "the webhook delivery");
    // Stopping the server flushes the span processor: everything recorded is exported by now.
    await server.close();
    const traces = otlp.posts.filter((p) => p.path === "/v1/traces");
    const bodies = traces.map((p) => p.body);
    return {
      spans: protocol === "http/json" ? spansFromJson(bodies) : spansFromProtobuf(bodies),
      posts: traces,
      delivery,
      returnAck,
      orderAck,
      apiKeyId,
    };
  } finally {
    await server?.close();
    await hooks.close();
    await otlp.close();
    await db.drop();
  }
}

const only = (spans: ExportedSpan[], name: string): ExportedSpan => {
  const found = spans.filter((s) => s.name === name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0] as ExportedSpan;
};

describe("tracing over OTLP http/json", () => {
  let result: Run;
  beforeAll(async () => {
    result = await run("http/json");
  }, 60_000);

  it("posts JSON to <endpoint>/v1/traces", () => {
    expect(result.posts.length).toBeGreaterThan(0);
    for (const post of result.posts) expect(post.contentType).toMatch(/^application\/json/);
  });

  it("the call's trace id is the caller's, answered in X-Trace-Id and the acknowledgment", () => {
    expect(result.returnAck.status).toBe(202);
    expect(result.returnAck.traceId).toBe(TRACE);
    expect(result.returnAck.body.trace_id).toBe(TRACE);
  });

  it("one ingest call yields one connected trace, from the HTTP call to the webhook delivery", () => {
    const inTrace = result.spans.filter((s) => s.traceId === TRACE);
    const http = only(inTrace, "POST /v2/ingest/returns");
    const publish = only(inTrace, "publish returns");
    const wait = only(inTrace, "wait returns");
    const apply = only(inTrace, "process returns");
    const fanOut = only(inTrace, "fan_out webhook_deliveries");
    const delivery = only(inTrace, "POST");

    // HTTP call: a SERVER span, child of the caller's span, named and attributed by its route.
    expect(http.kind).toBe(KIND.SERVER);
    expect(http.parentSpanId).toBe(CALLER_SPAN);
    expect(http.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/v2/ingest/returns",
      "http.response.status_code": 202,
      "url.path": "/v2/ingest/returns",
      // The key's public id, never its secret.
      "oisr.api_key.id": result.apiKeyId,
    });
    // Accept: a PRODUCER span under the HTTP span, naming the request it stored.
    expect(publish.kind).toBe(KIND.PRODUCER);
    expect(publish.parentSpanId).toBe(http.spanId);
    expect(publish.attributes["messaging.message.id"]).toBe(result.returnAck.body.request_id);
    // Queue wait: from acceptance to start, in the request's trace, pointing at the stage that took it.
    expect(wait.parentSpanId).toBe(publish.spanId);
    expect(wait.links).toEqual([{ traceId: TRACE, spanId: apply.spanId }]);
    expect(typeof wait.attributes["messaging.oisr.queue_wait_ms"]).toBe("number");
    // Apply: a CONSUMER span linked to the ingest span (messaging conventions), and here its child.
    expect(apply.kind).toBe(KIND.CONSUMER);
    expect(apply.links).toContainEqual({ traceId: TRACE, spanId: publish.spanId });
    expect(apply.parentSpanId).toBe(publish.spanId);
    expect(apply.attributes).toMatchObject({
      "messaging.operation.type": "process",
      "messaging.message.id": result.returnAck.body.request_id,
      "messaging.oisr.attempt": 1,
      "messaging.oisr.succeeded_count": 1,
    });
    // Fan-out and delivery continue from the apply span that wrote the event.
    expect(fanOut.parentSpanId).toBe(apply.spanId);
    expect(fanOut.links).toEqual([{ traceId: TRACE, spanId: apply.spanId }]);
    expect(delivery.kind).toBe(KIND.CLIENT);
    expect(delivery.parentSpanId).toBe(apply.spanId);
    expect(delivery.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.response.status_code": 204,
      "server.address": "127.0.0.1",
    });
    // The receiver's path is not recorded (it may hold a secret): only the origin.
    expect(delivery.attributes["url.full"]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("the receiver gets the delivery span's traceparent", () => {
    const delivery = only(result.spans, "POST");
    expect(result.delivery.headers.traceparent).toBe(`00-${TRACE}-${delivery.spanId}-01`);
  });

  it("a call without traceparent answers the trace id of its own root span", () => {
    const http = only(result.spans, "POST /v2/ingest/orders");
    expect(http.parentSpanId).toBe("");
    expect(http.traceId).toBe(result.orderAck.traceId);
    expect(result.orderAck.body.trace_id).toBe(http.traceId);
  });

  it("spans of the return's processing are nowhere but in the caller's trace", () => {
    for (const name of [
      "publish returns",
      "wait returns",
      "process returns",
      "fan_out webhook_deliveries",
      "POST",
    ]) {
      expect(result.spans.filter((s) => s.name === name).map((s) => s.traceId)).toEqual([TRACE]);
    }
  });
});

describe("tracing over OTLP http/protobuf", () => {
  let result: Run;
  beforeAll(async () => {
    result = await run("http/protobuf");
  }, 60_000);

  it("posts protobuf that decodes to the same connected trace", () => {
    expect(result.posts.length).toBeGreaterThan(0);
    for (const post of result.posts) expect(post.contentType).toBe("application/x-protobuf");
    const inTrace = result.spans.filter((s) => s.traceId === TRACE);
    const http = only(inTrace, "POST /v2/ingest/returns");
    const publish = only(inTrace, "publish returns");
    const apply = only(inTrace, "process returns");
    const delivery = only(inTrace, "POST");
    expect(http.parentSpanId).toBe(CALLER_SPAN);
    expect(http.kind).toBe(KIND.SERVER);
    expect(publish.parentSpanId).toBe(http.spanId);
    expect(apply.links).toContainEqual({ traceId: TRACE, spanId: publish.spanId });
    expect(delivery.parentSpanId).toBe(apply.spanId);
    expect(result.delivery.headers.traceparent).toBe(`00-${TRACE}-${delivery.spanId}-01`);
  });
});
